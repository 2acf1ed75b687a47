r"""theorycheck — verify the formulas, numbers and figures of ML-theory papers.

For each statement of a paper's summary (its *seed*, quoted verbatim) the toolkit re-derives the
quantity in SymPy, generates numerical code from the derivation, simulates the *actual model*
(attention forward passes, the GLA recursion, ridge fits, trained weights — never the formula
re-typed), and decides a verdict with a rule declared before the data: ``confirmed``,
``refuted``, ``inconsistent``, ``not reproduced``, ``inconclusive`` or ``underspecified``, each with
its scope. Reports: Markdown, LaTeX/PDF and a schema-validated ``results.json``.

The pipeline, top to bottom: *engines derive, models simulate, papers state claims, rules decide
verdicts, runs schedule tasks, reports explain.*

Verbs (the public interface)
----------------------------
``theorycheck.run_papers(keys, mode, seed, jobs=, scheduler=)``
    run papers' claims as tasks (local processes or a Dask cluster) → finalized ledgers.
``theorycheck.load_results(path)``
    the ledgers of a ``results.json`` (the objects the reports are written from; rich display in
    Jupyter).
``theorycheck.diff(old, new)``
    what changed between two results (verdicts, estimates beyond their error bars).
``theorycheck.write_reports(ledgers, out)``
    Markdown/LaTeX/PDF, index and ``results.json``.
``theorycheck.papers.load(key)`` / ``theorycheck.papers.registry()``
    the installed papers (entry-point group ``theorycheck.papers``).

Modules
-------
Engines: :mod:`~theorycheck.gaussian` (Isserlis/Wick: ``moment``, ``expect_product``),
:mod:`~theorycheck.hermite` (``hermite_coefficients``, ``hermite_h``), :mod:`~theorycheck.codegen`,
:mod:`~theorycheck.montecarlo`, :mod:`~theorycheck.validate`, :mod:`~theorycheck.memo` (the one memo facility),
:mod:`~theorycheck.provenance` (source digests). Papers: each one package, ``theorycheck.papers.<key>`` (its theory,
derivations, generated code, claims), found through the ``theorycheck.papers`` entry points (the old paths
``theorycheck.gla``, ``.lds``, ``.nonlinear`` re-export their theory). Models: :mod:`~theorycheck.models`.
Verdicts: :mod:`~theorycheck.verdicts` (rules, self-checks, multiplicity, aggregation, schema).
Claims data: :mod:`~theorycheck.claims`. Papers: :mod:`~theorycheck.papers`.
Runs: :mod:`~theorycheck.run`. Reports: :mod:`~theorycheck.report`. Self-test:
:mod:`~theorycheck.selftest`. Command line: ``theorycheck run | check | report | diff | derive |
new-paper | stability | selftest | papers``.

>>> import theorycheck
>>> theorycheck.claims.VERDICTS
('confirmed', 'refuted', 'inconsistent', 'not reproduced', 'inconclusive', 'underspecified')
"""
import importlib
import importlib.util
import os as _os

# Reproducibility: multi-threaded BLAS reductions change the last digits of the Monte Carlo
# fits from run to run, and the reports are meant to be byte-identical for a given seed.
# One BLAS thread unless the user chose otherwise (must happen before NumPy is imported; the run
# engine also limits threads inside every task with threadpoolctl).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

__version__ = "0.2.0"

_SUBMODULES = ("gaussian", "hermite", "codegen", "montecarlo", "memo", "provenance", "claims", "report", "context",
               "figures", "validate", "seeds", "papers", "models", "verdicts", "run", "selftest", "stability",
               "scaffold", "cli")
_VERBS = {"run_papers": ("run", "run_papers"), "load_results": ("claims", "load_results"),
          "write_reports": ("report", "write_reports"), "diff": ("report.diff", "diff_results")}
__all__ = list(_SUBMODULES) + list(_VERBS)


def __getattr__(name):
    # every submodule is importable as an attribute, lazily — the core modules above and the old import paths of the
    # papers' theory (``theorycheck.gla``, …: re-exports of ``theorycheck.papers.<key>``), named nowhere here
    if name in _SUBMODULES or (not name.startswith("_") and importlib.util.find_spec(f"{__name__}.{name}")):
        return importlib.import_module(f"{__name__}.{name}")
    if name in _VERBS:
        mod, attr = _VERBS[name]
        return getattr(importlib.import_module(f"{__name__}.{mod}"), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
