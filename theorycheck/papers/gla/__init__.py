"""Paper 000 — "Learning to Adapt: In-Context Learning Beyond Stationarity" (GLA under AR(1) drift).

One package of the paper skeleton (:mod:`theorycheck.papers.skeleton`), one line per room:

* ``seed.txt`` — the seed summary, verbatim (``000_857c27448556efc7.txt``);
* :mod:`.settings` — conventions (``CONVENTIONS``), stated and chosen values (Params), run sizes;
* :mod:`.registry` — ``claims = Claims()``, the registry every room below registers into;
* :mod:`.theory` — the mathematics (``law``, ``sums``, ``errors``, ``drift``, ``flows``, ``learning``, ``benchmark``,
  ``simulate``; re-exported as :mod:`theorycheck.gla`); models: :mod:`theorycheck.models`;
* :mod:`.derivations` and :mod:`.generated` — the SymPy derivation :mod:`.derivations.gla_loss` and its generated code;
* :mod:`.reconciliation` — the search for a setting that reproduces the filter numbers (lines 58, 72);
* :mod:`.fixtures` — shared computations (tasks) and the Sobol samples of a parameter box;
* :mod:`.claims` — the claims, one module per part of the seed in seed order (``SECTIONS``: ``summary`` 13–25,
  ``setup`` 44–46, ``theorems`` 48–50, ``forgetting`` 50–57, ``experiments`` 58–66, ``findings`` 70–89), shared
  helpers in ``claims/_helpers.py``;
* :mod:`.assumptions` — assumption maps and stress paths of the results;
* :mod:`.seedmap` — the sentences no claim quotes: restated, or not a claim and why;
* :mod:`.checks.mutants` and :mod:`.checks.fuzz` — the self-test's mutants and reliability baselines;
* ``tests/`` — the paper's own tests; ``revisions.json`` — the audit history by claim id.
"""
from ..api import Paper
from .claims import SECTIONS
from . import seedmap as _seedmap  # noqa: F401  (the sentences no claim quotes: restated or not a claim)
from . import assumptions as _assumptions  # noqa: F401  (assumption maps and stress paths of the results)
from .registry import claims as _registry
from .settings import CONVENTIONS, sizes

PAPER = Paper(key="gla", seed_id="000", title="Learning to Adapt: In-Context Learning Beyond Stationarity",
              package=__name__, seed="seed.txt", seed_name="000_857c27448556efc7.txt",
              conventions=CONVENTIONS, claims=_registry, parameters=sizes, sections=SECTIONS,
              derivations=("theorycheck.papers.gla.derivations.gla_loss",),
              generated_package="theorycheck.papers.gla.generated", mutants="theorycheck.papers.gla.checks.mutants",
              fuzz="theorycheck.papers.gla.checks.fuzz")
