"""Paper 000 — "Learning to Adapt: In-Context Learning Beyond Stationarity" (GLA under AR(1) drift).

Seed summary: ``seed.txt`` (``000_857c27448556efc7.txt``). Claims, in seed order: :mod:`.claims` (lines 13–25),
:mod:`.model` (44–46), :mod:`.theorems` (48–50), :mod:`.shape` (50–57), :mod:`.experiments` (58–66) and
:mod:`.findings` (70–89); the sentences no claim quotes: :mod:`.seedmap`. Shared computations: :mod:`.fixtures`; the
scopes and trivial baselines of the filter evidence: :mod:`.evidence`; the reconciliation of the filter numbers:
:mod:`.reconciliation`; assumption maps and stress paths: :mod:`.assumptions`; conventions, stated and chosen values
(Params), sizes: :mod:`.settings`; mutants: :mod:`.mutants`; reliability baselines: :mod:`.fuzz`. Mathematics:
:mod:`.theory` (``law``, ``sums``, ``errors``, ``drift``, ``flows``, ``learning``, ``benchmark``, ``simulate``;
re-exported as :mod:`theorycheck.gla`); models: :mod:`theorycheck.models`; derivation: :mod:`.derivations.gla_loss`,
its generated code :mod:`.generated.gla_loss`.
"""
from ..api import Paper
from . import claims as _claims
from . import model as _model  # noqa: F401  (registers lines 44–46 after lines 13–25)
from . import theorems as _theorems  # noqa: F401  (lines 48–50: Theorems 1 and 2)
from . import shape as _shape  # noqa: F401  (lines 50–57: the shape in λ, Theorem 3, the experiment table's first row)
from . import experiments as _experiments  # noqa: F401  (registers lines 58–66)
from . import findings as _findings  # noqa: F401  (registers lines 70–89)
from . import seedmap as _seedmap  # noqa: F401  (the sentences no claim quotes: restated or not a claim)
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
