"""Paper 001 — "On learning linear dynamical systems in context with attention layers" (seed summary ``seed.txt``,
``001_4dd5d8cf15de7e82.txt``). :data:`PAPER` is the paper's public surface; its rooms, bottom to top:

- :mod:`.settings`: the conventions (:data:`~.settings.CONVENTIONS`), run sizes and the toolkit's choices (Params)
- :mod:`.registry`: ``claims = Claims()``, the registry every room below registers into
- :mod:`.theory`: the mathematics, one module per area
- :mod:`.derivations`: SymPy derivations; :mod:`.generated`: the code generated from them
- :mod:`.reconciliation`: the searches over the parameters the seed leaves open
- :mod:`.fixtures`: shared computations (training runs, exact moments, the reconciliations' runs)
- :mod:`.claims`: the claims, one module per section of the seed (``claims.SECTIONS``: the seed order)
- :mod:`.assumptions`: assumption maps and stress paths of the claims
- :mod:`.seedmap`: every other sentence of the seed: restates a claim, or not a claim and why
- :mod:`.checks`: mutants (:mod:`.checks.mutants`) and reliability baselines (:mod:`.checks.fuzz`) of the self-test
- :mod:`.tests`: the paper's tests; ``revisions.json``: the audit history by claim id
Models: :mod:`theorycheck.models`.
"""
from ..api import Paper
from . import fixtures as _fixtures  # noqa: F401  (registers the fixtures first)
from .claims import SECTIONS as _SECTIONS
from . import assumptions as _assumptions  # noqa: F401  (assumption maps and stress paths of the claims)
from . import seedmap as _seedmap  # noqa: F401  (every other seed sentence: restates a claim, or not a claim and why)
from .registry import claims as _registry
from .settings import CONVENTIONS as _CONVENTIONS
from .settings import sizes as _sizes

PAPER = Paper(key="lds", seed_id="001", title="On learning linear dynamical systems in context with attention layers",
              package=__name__, seed="seed.txt", seed_name="001_4dd5d8cf15de7e82.txt",
              conventions=_CONVENTIONS, claims=_registry, parameters=_sizes, sections=_SECTIONS,
              derivations=("theorycheck.papers.lds.derivations.lds_isserlis",
                           "theorycheck.papers.lds.derivations.lds_identities"),
              generated_package="theorycheck.papers.lds.generated",
              mutants="theorycheck.papers.lds.checks.mutants", fuzz="theorycheck.papers.lds.checks.fuzz")
