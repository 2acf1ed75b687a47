r"""Self-checks: the toolkit's own consistency checks, kept apart from verdicts about the paper.

A self-check compares two routes to *the same quantity* inside the toolkit — our exact derivation
against our Monte Carlo simulation of the actual model, a generated formula against direct
enumeration. If one fails, the toolkit is wrong, not the paper: the claim's verdict is withheld,
the report opens with a "self-check failed" section and the run exits non-zero
(:func:`theorycheck.verdicts.aggregate.finalize`).

``agreement`` checks are two-sided t-tests of the point null "estimate = exact" and are decided
after a Holm adjustment over the paper's self-check family at
:data:`~theorycheck.verdicts.rules.SELF_CHECK_ALPHA`; ``identity`` checks compare at a stated
floating-point tolerance. :func:`components` tests a vector of components jointly (χ² /
Hotelling).

>>> from theorycheck.verdicts.estimate import Estimate
>>> c = agreement("E[g^2] = 1", Estimate(1.01, 0.01, 4000, 3999), 1.0)
>>> c.kind, c.passed, round(c.p_value, 3)
('agreement', None, 0.317)
>>> identity("1/3*3 = 1", 1 / 3 * 3, 1.0, rtol=1e-15).passed
True
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from ..claims import SelfCheck
from ..validate import check_array, check_comparison, check_real, check_str
from .estimate import as_estimate, joint_test

__all__ = ["agreement", "identity", "inequality", "components"]


def agreement(name: str, estimate, exact: float, **details) -> SelfCheck:
    """Exact value vs a Monte Carlo estimate of the same quantity (two-sided t, point null)."""
    name = check_str("name", name)
    est = as_estimate(estimate, "estimate")
    exact = check_real("exact", exact)
    if abs(exact) > 1e150 or abs(est.mean) > 1e150:
        raise ValueError("exact and the estimate must be below 1e150 in magnitude (rescale the quantity)")
    if est.se == 0:
        raise ValueError(f"self-check {name!r}: the estimate has se = 0; use identity for exact values")
    t = (est.mean - exact) / est.se
    p = float(2 * (stats.t.sf(abs(t), est.df) if est.df else stats.norm.sf(abs(t))))
    details.update({"exact": exact, "estimate": est.mean, "se": est.se})
    return SelfCheck(name, "agreement", statistic=t, statistic_name="t", p_value=min(1.0, p), n=est.n, df=est.df,
                     details=details)


def identity(name: str, lhs, rhs, *, atol: float = 0.0, rtol: float = 1e-12, **details) -> SelfCheck:
    """Two exact routes agree to a floating-point tolerance (``atol + rtol·max|rhs|``)."""
    name = check_str("name", name)
    a, b = check_array("lhs", lhs, finite=False), check_array("rhs", rhs, finite=False)
    atol, rtol = check_real("atol", atol, low=0.0), check_real("rtol", rtol, low=0.0)
    if a.size == 0 or (a.shape != b.shape and b.size != 1):
        raise ValueError(f"lhs and rhs must be non-empty with the same shape, got {a.shape} and {b.shape}")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        # a non-finite route is a failed self-check (recorded with a finite statistic: the count of bad entries)
        details.update({"lhs_finite": bool(np.all(np.isfinite(a))), "rhs_finite": bool(np.all(np.isfinite(b)))})
        return SelfCheck(name, "identity", passed=False,
                         statistic=float(np.sum(~np.isfinite(a)) + np.sum(~np.isfinite(b))),
                         statistic_name="non-finite entries", details=details)
    err = float(np.max(np.abs(a - b))) if a.size else 0.0
    tol = float(atol + rtol * (np.max(np.abs(b)) if b.size else 0.0))
    details["tolerance"] = tol
    return SelfCheck(name, "identity", passed=err <= tol, statistic=err, statistic_name="max |lhs - rhs|",
                     n=int(a.size), details=details)


def inequality(name: str, lhs, op: str, rhs, **details) -> SelfCheck:
    """An exact inequality between two of our routes (``op`` in ``<, <=, >, >=``; arrays: everywhere),
    e.g. "no realisable weights beat the unconstrained bound"."""
    name = check_str("name", name)
    holds, a, b = check_comparison(lhs, op, rhs)
    slack = (b - a) if op in ("<", "<=") else (a - b)
    details.update({"op": op, "violations": int(np.sum(~holds)), "points": int(holds.size)})
    return SelfCheck(name, "identity", passed=bool(np.all(holds)), statistic=float(np.min(slack)) if slack.size else 0.0,
                     statistic_name="smallest slack (positive = holds)", n=int(holds.size), details=details)


def components(name: str, means, exact, cov=None, *, ses=None, n: int | None = None, df=None, **details) -> SelfCheck:
    """A vector of estimates vs exact values: one joint χ² (or Hotelling F when ``df`` given) test."""
    name = check_str("name", name)
    jt = joint_test(means, exact, cov, ses, df)
    d, cov, t2, p, k = jt["means"] - jt["exact"], jt["cov"], jt["t2"], jt["p"], jt["k"]
    details.update({"components": int(k), "max_abs_component_t": float(np.max(np.abs(d / np.sqrt(np.diag(cov)))))})
    return SelfCheck(name, "agreement", statistic=t2, statistic_name="T²", p_value=p, n=n, df=df, details=details)
