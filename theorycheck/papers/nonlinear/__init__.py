"""Paper 004 — "What can linear attention learn from nonlinear teachers in-context?"

One package of the skeleton's shape (:mod:`theorycheck.papers.skeleton`), one line per room:

- ``seed.txt`` — the seed summary, verbatim (``004_50ac83a765c0b948.txt``);
- :mod:`.settings` — the conventions C1–C5, the run sizes, the provenance of every value (stated, convention,
  chosen);
- :mod:`.registry` — ``claims``, the registry every room below registers into;
- :mod:`.theory` — the mathematics (teachers and Hermite moments, e_ICL and Result 1, the a₁ = 0 branch, the
  simulation of the actual model, Appendix-B samplers, extrapolation) on the engine :mod:`theorycheck.hermite`;
- :mod:`.derivations` and :mod:`.generated` — the SymPy derivations and the code they generate;
- :mod:`.reconciliation` — Figure 1's normalisations and the model of its reconciliation (the noise the seed
  leaves open);
- :mod:`.fixtures` — the simulations shared between claims (each split into tasks of at most ~30 s);
- :mod:`.claims` — the claims, one module per section of the seed, in seed order (``SECTIONS``);
- :mod:`.assumptions` — assumption maps and stress paths of Result 1, the a₁ = 0 branch, Lemma 1 and the transition;
- :mod:`.seedmap` — every other sentence of the seed: restates a claim, or not a claim and why;
- :mod:`.checks` — fault-injection mutants (:mod:`.checks.mutants`) and reliability baselines (:mod:`.checks.fuzz`);
- ``tests/`` — the paper's own tests; ``revisions.json`` — the audit history by claim id.

Models: :mod:`theorycheck.models`.
"""
from ..api import Paper
from . import assumptions as _assumptions  # noqa: F401  (assumption maps and stress paths)
from . import fixtures as _fixtures  # noqa: F401  (registers the shared simulations)
from . import seedmap as _seedmap  # noqa: F401  (every other sentence of the seed)
from .claims import SECTIONS
from .registry import claims
from .settings import CONVENTIONS, sizes

PAPER = Paper(key="nonlinear", seed_id="004", title="What can linear attention learn from nonlinear teachers in-context?",
              package=__name__, seed="seed.txt", seed_name="004_50ac83a765c0b948.txt", conventions=CONVENTIONS,
              claims=claims, parameters=sizes, sections=SECTIONS,
              derivations=("theorycheck.papers.nonlinear.derivations.nonlinear_hermite",
                           "theorycheck.papers.nonlinear.derivations.nonlinear_moments",
                           "theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero"),
              generated_package="theorycheck.papers.nonlinear.generated",
              mutants="theorycheck.papers.nonlinear.checks.mutants", fuzz="theorycheck.papers.nonlinear.checks.fuzz")
