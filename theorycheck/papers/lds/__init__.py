"""Paper 001 — "On learning linear dynamical systems in context with attention layers".

Seed summary: ``seed.txt`` (``001_4dd5d8cf15de7e82.txt``). Claims, in seed order: :mod:`.claims` (lines 21–70:
:mod:`.claims_background`, :mod:`.claims_theorem41`, :mod:`.claims_pcg`) and :mod:`.experiments` (lines 84–104);
every other sentence of the seed: :mod:`.seedmap`;
shared computations (training runs, exact moments, the reconciliations' runs): :mod:`.fixtures`; the reconciliations
of the unstated parameters: :mod:`.reconciliation`; assumption maps and stress paths: :mod:`.assumptions`; sizes and
the toolkit's choices: :mod:`.settings`; mutants: :mod:`.mutants`; reliability baselines: :mod:`.fuzz`.
Mathematics: :mod:`.theory` (one module per area); SymPy derivations: :mod:`.derivations`, their generated code:
:mod:`.generated`; models: :mod:`theorycheck.models`.
"""
from ..api import Paper
from . import claims as _claims
from . import experiments as _experiments  # noqa: F401  (registers lines 74-113 after lines 21-70)
from . import assumptions as _assumptions  # noqa: F401  (assumption maps and stress paths of the claims above)
from . import seedmap as _seedmap  # noqa: F401  (every other seed sentence: restates a claim, or not a claim and why)
from .registry import claims as _registry
from .settings import sizes as _sizes

PAPER = Paper(key="lds", seed_id="001", title="On learning linear dynamical systems in context with attention layers",
              package=__name__, seed="seed.txt", seed_name="001_4dd5d8cf15de7e82.txt",
              conventions=_claims.CONVENTIONS, claims=_registry, parameters=_sizes,
              derivations=("theorycheck.papers.lds.derivations.lds_isserlis",
                           "theorycheck.papers.lds.derivations.lds_identities"),
              generated_package="theorycheck.papers.lds.generated",
              mutants="theorycheck.papers.lds.mutants", fuzz="theorycheck.papers.lds.fuzz")
