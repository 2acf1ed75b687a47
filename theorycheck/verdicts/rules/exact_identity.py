"""Rule ``identity``: an exact identity, symbolic (SymPy) or numeric at a stated floating-point tolerance."""
from __future__ import annotations

import numpy as np

from ...claims import SubClaim
from ...validate import check_array, check_real, check_str
from ..finding import Comparison, Finding, quantity, reference, settings_tail
from ..text import fmt, shorten
from .common import common_kwargs, decide_exactly
from .registry import Rule, register


def identity(statement: str, lhs, rhs, *, atol: float = 0.0, rtol: float = 1e-12, **kw) -> SubClaim:
    r"""Exact identity ``lhs == rhs``.

    Hypothesis: the two sides are equal. SymPy expressions: confirmed iff
    ``simplify(lhs - rhs) == 0`` (refuted otherwise; exact arithmetic, no α). Numbers or arrays:
    confirmed iff :math:`\max|lhs-rhs| \le atol + rtol\max|rhs|` (the tolerance states the
    floating-point precision of the computation, never a modelling error). mpmath numbers are
    compared at mpmath's working precision.

    >>> identity("sqrt(2)^2 = 2", __import__("sympy").sqrt(2) ** 2, 2).verdict
    'confirmed'
    >>> identity("0.1 + 0.2 = 0.3", 0.1 + 0.2, 0.3, rtol=1e-15).statistic < 1e-16
    True
    """
    c = common_kwargs(kw)
    statement = check_str("statement", statement)
    import sympy as sp  # heavy: SymPy only for symbolic identities
    if isinstance(lhs, (sp.Basic, sp.MatrixBase)) or isinstance(rhs, (sp.Basic, sp.MatrixBase)):
        L_, R_ = sp.sympify(lhs), sp.sympify(rhs)
        if L_ == R_:                  # structurally equal (also for oo == oo, where oo - oo is nan)
            c["details"].update({"lhs": str(lhs)[:500], "rhs": str(rhs)[:500], "simplified_difference": "0 (equal)",
                                 "method": "sympy.simplify"})
            return decide_exactly(SubClaim(statement, "identity", statistic_name="symbolic difference", **c), True)
        diff = sp.simplify(L_ - R_)
        if isinstance(diff, sp.MatrixBase):
            ok = all(e == 0 or sp.simplify(e) == 0 for e in diff)
        else:
            ok = diff == 0 or diff.equals(0) is True
        shown = ("0 (every entry)" if ok else str(diff)) if isinstance(diff, sp.MatrixBase) else str(diff)
        c["details"].update({"lhs": str(lhs)[:500], "rhs": str(rhs)[:500], "simplified_difference": shown[:500],
                             "method": "sympy.simplify"})
        return decide_exactly(SubClaim(statement, "identity", statistic_name="symbolic difference", **c), ok)
    import mpmath  # heavy: mpmath only for multi-precision identities
    if isinstance(lhs, (mpmath.mpf, mpmath.mpc)) or isinstance(rhs, (mpmath.mpf, mpmath.mpc)):
        err = float(abs(mpmath.mpf(lhs) - mpmath.mpf(rhs)))
        tol = float(atol + rtol * abs(mpmath.mpf(rhs)))
        c["details"].update({"method": f"mpmath at {mpmath.mp.dps} digits"})
        sc = SubClaim(statement, "identity", statistic=err, statistic_name="|lhs - rhs|", margin=tol,
                      estimate=float(lhs), target=float(rhs), **c)
        return decide_exactly(sc, err <= tol)
    a, b = check_array("lhs", lhs), check_array("rhs", rhs)
    if a.shape != b.shape and b.size != 1:
        raise ValueError(f"lhs and rhs must have the same shape, got {a.shape} and {b.shape}")
    atol, rtol = check_real("atol", atol, low=0.0), check_real("rtol", rtol, low=0.0)
    err = float(np.max(np.abs(a - b))) if a.size else 0.0
    tol = float(atol + rtol * (np.max(np.abs(b)) if b.size else 0.0))
    sc = SubClaim(statement, "identity", statistic=err, statistic_name="max |lhs - rhs|", margin=tol,
                  estimate=float(a) if a.size == 1 else None, target=float(b) if b.size == 1 else None,
                  n=int(a.size) if a.size > 1 else None, **c)
    return decide_exactly(sc, err <= tol)


def explain(sc) -> str:
    d = sc.details
    if d.get("method") == "sympy.simplify":
        return f"SymPy: simplify(lhs − rhs) = {d.get('simplified_difference')}"
    return f"max |lhs − rhs| = {fmt(sc.statistic)} against the numerical tolerance {fmt(sc.margin)}"


def finding(sc) -> Finding:
    """Equal or not, with both values (or the largest difference against the floating-point tolerance)."""
    d, tol = sc.details, float(sc.margin or 0.0)
    if d.get("method") == "sympy.simplify":
        diff = str(d.get("simplified_difference", ""))
        text = ("the two sides are equal: SymPy simplifies lhs − rhs to 0" if diff.startswith("0") else
                f"the two sides differ: SymPy simplifies lhs − rhs to {shorten(diff, 100)}, not to 0")
        return Finding(text + settings_tail(sc), "exact (SymPy)")
    sure = "exact" + (f" up to the floating-point tolerance {fmt(tol)}" if tol else "")
    if sc.estimate is not None and sc.target is not None:
        ok = abs(sc.estimate - sc.target) <= tol
        c = Comparison("equals" if ok else "differs", sc.estimate, sc.target, tol,
                       left_label=quantity(sc, "the computed value"), right_label=reference(sc, "the claimed"),
                       gap=not ok)
    elif sc.statistic is not None:
        ok = sc.statistic <= tol
        c = Comparison("at most" if ok else "above", sc.statistic, tol, left_label="the largest |lhs − rhs|",
                       right_label="the tolerance")
    else:
        return Finding(explain(sc) + settings_tail(sc), sure)
    return Finding(c.text + settings_tail(sc), sure, (c,))


RULE = register(Rule("identity", identity, explain, finding=finding, fuzz=(dict(kwargs=dict(statement="s", lhs=1.0, rhs=1.0)),)))
