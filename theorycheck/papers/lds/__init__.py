"""Paper 001 — "On learning linear dynamical systems in context with attention layers".

Seed summary: ``seed.txt`` (``001_4dd5d8cf15de7e82.txt``). Claims, in seed order:
:mod:`theorycheck.papers.lds.claims` (lines 21–70) and :mod:`theorycheck.papers.lds.experiments`
(lines 74–113); shared computations (training runs, exact moments, the reconciliations' runs):
:mod:`.fixtures`; the reconciliations of the unstated parameters: :mod:`.reconciliation`; assumption maps and
stress paths: :mod:`.assumptions`; sizes and the toolkit's choices: :mod:`.settings`; mutants: :mod:`.mutants`. Mathematics: :mod:`theorycheck.lds`;
models: :mod:`theorycheck.models`; derivations: ``theorycheck.derivations.lds_*``.
"""
from ..api import Paper
from . import claims as _claims
from . import experiments as _experiments  # noqa: F401  (registers lines 74-113 after lines 21-70)
from . import assumptions as _assumptions  # noqa: F401  (assumption maps and stress paths of the claims above)
from .registry import claims as _registry
from .settings import sizes as _sizes

PAPER = Paper(key="lds", seed_id="001", title="On learning linear dynamical systems in context with attention layers",
              package=__name__, seed="seed.txt", seed_name="001_4dd5d8cf15de7e82.txt",
              conventions=_claims.CONVENTIONS, claims=_registry, parameters=_sizes,
              derivations=("theorycheck.derivations.lds_isserlis", "theorycheck.derivations.lds_identities"),
              mutants="theorycheck.papers.lds.mutants")
