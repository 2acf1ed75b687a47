"""Paper 000 — "Learning to Adapt: In-Context Learning Beyond Stationarity" (GLA under AR(1) drift).

Seed summary: ``seed.txt`` (``000_857c27448556efc7.txt``). Claims, in seed order:
:mod:`theorycheck.papers.gla.claims` (lines 13–57) and :mod:`theorycheck.papers.gla.experiments`
(lines 58–89); shared computations: :mod:`.fixtures`; the reconciliation of the filter numbers:
:mod:`.reconciliation`; assumption maps and stress paths: :mod:`.assumptions`; conventions, stated and chosen
values, sizes: :mod:`.settings`; mutants: :mod:`.mutants`; reliability baselines: :mod:`.fuzz`. Mathematics:
:mod:`.theory` (``law``, ``sums``, ``errors``, ``drift``, ``flows``, ``simulate``; re-exported as
:mod:`theorycheck.gla`); models: :mod:`theorycheck.models`; derivation: :mod:`.derivations.gla_loss`, its generated
code :mod:`.generated.gla_loss`.
"""
from ..api import Paper
from . import claims as _claims
from . import experiments as _experiments  # noqa: F401  (registers lines 58–89 after lines 13–57)
from . import assumptions as _assumptions  # noqa: F401  (assumption maps and stress paths of the results)
from .registry import claims as _registry
from .settings import CONVENTIONS, sizes

PAPER = Paper(key="gla", seed_id="000", title="Learning to Adapt: In-Context Learning Beyond Stationarity",
              package=__name__, seed="seed.txt", seed_name="000_857c27448556efc7.txt",
              conventions=CONVENTIONS, claims=_registry, parameters=sizes,
              derivations=("theorycheck.papers.gla.derivations.gla_loss",),
              generated_package="theorycheck.papers.gla.generated", mutants="theorycheck.papers.gla.mutants",
              fuzz="theorycheck.papers.gla.fuzz")

assert _claims.claims is _registry
