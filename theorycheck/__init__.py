r"""theorycheck — verify the formulas and figures of ML-theory papers.

For each claim of a paper (quoted from its seed summary) the toolkit re-derives
the quantity in SymPy, generates numerical code from the derivation, checks it
against Monte Carlo simulations of the *actual model*, and records a verdict —
``confirmed``, ``refuted``, ``inconsistent`` or ``underspecified`` — with its
evidence in Markdown/LaTeX reports and ``reports/results.json``.

Engines (shared by every paper)
-------------------------------
``theorycheck.gaussian``
    Isserlis/Wick for centred Gaussians: ``moment(cov, idx)``, ``pairings(n)``,
    ``expect_product(cov, linear, quadratic)``, ``expect_polynomial``,
    ``quadratic_form_matrix``, ``sample``.
``theorycheck.hermite``
    ``hermite_coefficients(f, m_max)`` (orthonormal probabilists' Hermite),
    ``gaussian_expectation(f)``, ``hermite_h(m, x)``.
``theorycheck.codegen``
    ``numpy_function(expr, args)``, ``write_module(...)`` (generated modules with a
    provenance header), ``source_hash``.
``theorycheck.montecarlo``
    ``mean(sampler, n, seed)``, ``ratio(a, b)``, ``from_samples``, ``RunningMean``,
    ``compare(exact, estimate)`` → z, p, verdict; ``Progress``.
``theorycheck.claims``
    ``Claim``, ``Ledger``, ``VERDICTS``, ``CHECK_KINDS``, ``load_results``.
``theorycheck.report``
    ``write_reports(ledgers, out)`` → ``<paper>.md``, ``.tex`` (+``.pdf``),
    ``index.md``, ``results.json``; ``write_stamp``.
``theorycheck.context``, ``theorycheck.figures``, ``theorycheck.validate``
    run context (mode, seed, per-check seeds), deterministic figures, input checks.

Papers
------
``theorycheck.gla`` (seed 000, gated linear attention under AR(1) drift),
``theorycheck.lds`` (seed 001, linear attention on noisy linear dynamical systems),
``theorycheck.nonlinear`` (seed 004, linear attention with nonlinear teachers);
their claim ledgers are built by ``theorycheck.papers.<key>.build(ctx)``.

Command line: ``theorycheck run | derive | check | report`` (see ``--help``).

>>> import theorycheck
>>> theorycheck.claims.VERDICTS
('confirmed', 'refuted', 'inconsistent', 'underspecified')
"""
import importlib
import os as _os

# Reproducibility: multi-threaded BLAS reductions change the last digits of the Monte Carlo
# fits from run to run, and the reports are meant to be byte-identical for a given seed.
# One BLAS thread unless the user chose otherwise (must happen before NumPy is imported).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

__version__ = "0.1.0"

_SUBMODULES = ("gaussian", "hermite", "codegen", "montecarlo", "claims", "report", "context", "figures",
               "validate", "seeds", "papers", "gla", "lds", "nonlinear", "cli")
__all__ = list(_SUBMODULES)


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
