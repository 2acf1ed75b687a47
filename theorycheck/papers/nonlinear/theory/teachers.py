r"""Teachers of paper 004 and their Hermite moments: :math:`a_0`, :math:`a_1`, :math:`\mathbb E f^2`,
the two noise levels :math:`\rho_f` and :math:`\rho_{\rm nl}`, Result 1's surrogate linear teacher and the label
moments of Appendix B.

Conventions (:mod:`theorycheck.hermite`, orthonormal probabilists'): :math:`g\sim\mathcal N(0,1)`,
:math:`a_m=\mathbb E[f(g)h_m(g)]`, :math:`\rho_f=\rho+\mathbb E[f^2]` (total label second moment),
:math:`\rho_{\rm nl}=\rho+\sum_{m\ne1}a_m^2=\rho_f-a_1^2` (includes :math:`m=0`); :math:`\rho` is a noise
*variance*. A teacher is a name of :data:`TEACHERS`, a SymPy expression in one symbol, a finite constant or a
callable. Names and SymPy expressions are resolved, and their moments computed, once per process
(:mod:`theorycheck.memo`, keyed by :func:`teacher_key`); callables and numeric constants have no stable key and
are never memoised.

>>> round(float(rho_nonlinear("sin", 0.1)), 6)
0.164453
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from .... import hermite
from ....memo import Memo, key
from ....validate import check_int, check_real
from ..generated.nonlinear_hermite import HERMITE_TABLE          # generated from this module's TEACHERS
from .ranges import MAX_VALUE

__all__ = ["G", "TEACHERS", "teacher", "teacher_key", "teacher_moments", "rho_f", "rho_nonlinear",
           "surrogate_teacher", "label_moments", "label_expectations", "polynomial_expectation"]

G = sp.Symbol("g", real=True)

#: Named teachers: name -> SymPy expression in ``G`` (the symbol ``g``).
TEACHERS = {
    "linear": G,
    "sin": sp.sin(G),
    "tanh": sp.tanh(G),
    "erf": sp.erf(G),
    "relu": sp.Max(0, G),
    "abs": sp.Abs(G),
    "cube": G ** 3,
    "he2": (G ** 2 - 1) / sp.sqrt(2),
    "he2_raw": G ** 2 - 1,
    "sign": sp.sign(G),
}


#: largest magnitude of a constant teacher (its square and fourth power stay within double precision)
_MAX_CONST = 1e50


#: resolved teachers by :func:`teacher_key` (names and SymPy expressions only): ``(expr, numpy callable)``; the
#: lambdified callable is a pure function of the expression, so one is reused instead of lambdifying again on every call
_RESOLVED = Memo("papers.nonlinear.teachers.teacher", maxsize=256)
#: :func:`teacher_moments` by (teacher key, dps)
_MOMENTS = Memo("papers.nonlinear.teachers.teacher_moments", maxsize=256)
#: exact (SymPy) values of :func:`rho_f` / :func:`rho_nonlinear` by (function, teacher, ρ): immutable SymPy numbers,
#: deterministic in their arguments (named or SymPy teachers only; the mpmath path is not memoised, its precision is
#: the caller's)
_EXACT_RHO = Memo("papers.nonlinear.teachers.exact_rho", maxsize=1024)
#: :func:`label_moments` by (teacher key, ρ): floats, deterministic in their arguments (names / SymPy teachers only)
_LABEL_MOMENTS = Memo("papers.nonlinear.teachers.label_moments", maxsize=256)
#: E[g^n] = ∫ g^n φ(g) dg by SymPy, by (n, g): integrated once per power and process
_MONOMIALS = Memo("papers.nonlinear.teachers.gaussian_monomials", maxsize=128)


def teacher(f):
    """Resolve ``f`` (a name in :data:`TEACHERS`, a SymPy expression or a callable) to
    ``(sympy_expr_or_None, numpy_callable)``. Names and SymPy expressions are resolved once per process
    (memoised by name / ``srepr``).

    >>> e, fn = teacher("sin"); e, float(fn(np.array([0.0]))[0])
    (sin(g), 0.0)
    """
    k = teacher_key(f)
    if k is None:
        return _resolve_teacher(f)
    return _RESOLVED.get_or_compute(k, lambda: _resolve_teacher(f))


def _resolve_teacher(f):
    """:func:`teacher` without the memo."""
    if isinstance(f, str):
        if f not in TEACHERS:
            raise ValueError(f"f must be one of {sorted(TEACHERS)} (or a SymPy expression / callable), got {f!r}")
        f = TEACHERS[f]
    if isinstance(f, (bool, np.bool_)):
        raise ValueError(f"f must be a teacher name, a SymPy expression, a callable or a finite constant, got {f!r}")
    if isinstance(f, (int, float, np.integer, np.floating)):
        if not (math.isfinite(float(f)) and abs(float(f)) <= _MAX_CONST):
            raise ValueError(f"f (a constant teacher) must be finite with |f| <= {_MAX_CONST:g}, got {f!r}")
        f = sp.nsimplify(f)
    if isinstance(f, sp.Basic):
        free = sorted(f.free_symbols, key=str)
        if len(free) > 1:
            raise ValueError(f"f must be an expression in one symbol, got {free}")
        if f.has(sp.I, sp.oo, sp.zoo, sp.nan):
            raise ValueError(f"f must be real and finite, got {f}")
        if not free:
            c = float(f)
            if not (math.isfinite(c) and abs(c) <= _MAX_CONST):
                raise ValueError(f"f (a constant teacher) must be finite with |f| <= {_MAX_CONST:g}, got {f}")
            return f, (lambda t, c=c: np.full(np.shape(t), c))
        fn = sp.lambdify(free[0], f, modules="numpy")
        if f.has(sp.Max, sp.Min):   # lambdify's Max/Min on arrays: use ufuncs
            fn = sp.lambdify(free[0], f, modules=[{"Max": np.maximum, "Min": np.minimum}, "numpy"])
        return f, fn
    if callable(f):
        return None, f
    raise ValueError(f"f must be a teacher name, a SymPy expression or a callable, got {type(f).__name__}")


def teacher_key(f):
    """The memo key of teacher ``f``: its name or its ``srepr``; None for anything else (callables and numeric
    constants have no stable key — an object id can be reused by the next object — and are never memoised).

    >>> teacher_key("sin"), teacher_key(np.sin)
    (('name', 'sin'), None)
    """
    if isinstance(f, str):
        return ("name", f)
    if isinstance(f, sp.Basic):
        return ("sympy", sp.srepr(f))
    return None


def teacher_moments(f, dps: int = 30) -> dict:
    r""":math:`a_0`, :math:`a_1`, :math:`\mathbb E[f^2]` of a teacher (exact SymPy when possible).

    Returns ``{"a0", "a1", "Ef2", "exact"}``; ``exact`` is True when all three are SymPy numbers.

    >>> teacher_moments("cube")["a1"], teacher_moments("cube")["Ef2"]
    (3, 15)
    """
    return _moments(f, check_int("dps", dps, minimum=5, maximum=1000))


def _moments(f, dps: int = 30) -> dict:
    """:func:`teacher_moments` of a validated ``dps`` (memoised by teacher key and ``dps``)."""
    tk = teacher_key(f)
    if tk is None:
        return _teacher_moments(f, dps)
    return _MOMENTS.get_or_compute(key(tk, dps), lambda: _teacher_moments(f, dps))


def _teacher_moments(f, dps: int) -> dict:
    r""":func:`teacher_moments` without the memo (``dps`` validated by the caller). A callable teacher's
    :math:`\mathbb E f^2` integrates ``t -> f(t)**2``, evaluated by the engine like any callable. A named teacher
    whose moments are exact is read from the Hermite table the derivation generated with the same engine calls
    (:func:`_generated_moments`)."""
    table = _generated_moments(f, dps)
    if table is not None:
        return table
    expr, fn = teacher(f)
    src = expr if expr is not None else fn
    a = hermite.hermite_coefficients(src, 1, dps=dps)
    if expr is not None:
        ef2 = hermite.gaussian_expectation(sp.expand(expr ** 2), dps=dps)
    else:
        ef2 = hermite.gaussian_expectation(lambda t: fn(t) ** 2, dps=dps)
    exact = all(isinstance(v, sp.Basic) for v in (a[0], a[1], ef2))
    return {"a0": a[0], "a1": a[1], "Ef2": ef2, "exact": exact}


#: digits of the numeric entries of the generated Hermite table (computed at 40 digits, stored to 30)
_TABLE_DIGITS = 30


def _generated_moments(f, dps: int):
    """The moments of a named teacher from :data:`~..generated.nonlinear_hermite.HERMITE_TABLE` — written by
    :mod:`..derivations.nonlinear_hermite` through the same ``hermite_coefficients`` and ``gaussian_expectation`` that
    :func:`_teacher_moments` calls, and re-derived by ``theorycheck derive --check`` before every run (so the table is
    that route's result, remembered on disk: SymPy's integration and the quadrature cost about a second per teacher
    and process): exact SymPy numbers where the row is exact, else ``mpf`` at ``dps`` digits from the stored 30
    (computed at 40). None unless ``f`` names a teacher of :data:`TEACHERS` whose row was generated from the same
    expression (and, for a numeric row, ``dps`` ≤ 30 and a₀, a₁ numeric too)."""
    if not isinstance(f, str) or f not in TEACHERS:
        return None
    row = HERMITE_TABLE.get(f)
    if row is None or row["expr"] != str(TEACHERS[f]):
        return None
    if row["exact"]:
        return {"a0": sp.sympify(row["a"][0]), "a1": sp.sympify(row["a"][1]), "Ef2": sp.sympify(row["Ef2"]),
                "exact": True}
    if dps > _TABLE_DIGITS or any(row["a"][i] != row["a_float"][i] for i in (0, 1)):   # a mixed row: computed
        return None
    with mpmath.workdps(dps):
        return {"a0": +mpmath.mpf(row["a_float"][0]), "a1": +mpmath.mpf(row["a_float"][1]),
                "Ef2": +mpmath.mpf(row["Ef2_float"]), "exact": False}


def _mpf(x):
    """mpmath number from a SymPy number (at 40 digits), an mpf or a float."""
    if isinstance(x, sp.Basic):
        with mpmath.workdps(40):
            return mpmath.mpf(sp.Float(sp.N(x, 40), 40)._mpf_)
    return mpmath.mpf(x)


def _exact_rho(rho):
    if isinstance(rho, sp.Basic):
        return rho
    return sp.nsimplify(repr(float(rho)), rational=True)


def rho_f(f, rho):
    r""":math:`\rho_f=\rho+\sum_{m\ge0}a_m^2=\rho+\mathbb E[f(g)^2]` (total label second moment;
    *not* a centred variance when :math:`a_0\ne0`). Exact SymPy when the moments are exact
    (``rho`` as a float is read as the decimal it prints, 0.1 → 1/10), else ``mpmath.mpf``.

    >>> rho_f("sin", 0.1)
    3/5 - exp(-2)/2
    """
    rho = check_real("rho", rho, low=0.0)
    return _noise_level("rho_f", f, rho, lambda m: _exact_rho(rho) + m["Ef2"],
                        lambda m: mpmath.mpf(rho) + _mpf(m["Ef2"]))


def rho_nonlinear(f, rho):
    r""":math:`\rho_{\rm nl}=\rho+\sum_{m\ne1}a_m^2=\rho+\mathbb E[f^2]-a_1^2` (includes :math:`m=0`).

    >>> rho_nonlinear("linear", 0.25), rho_nonlinear(sp.Integer(2), 0)
    (1/4, 4)
    """
    rho = check_real("rho", rho, low=0.0)
    return _noise_level("rho_nl", f, rho, lambda m: sp.simplify(_exact_rho(rho) + m["Ef2"] - m["a1"] ** 2),
                        lambda m: mpmath.mpf(rho) + _mpf(m["Ef2"]) - _mpf(m["a1"]) ** 2)


def _noise_level(what, f, rho, exact, numeric):
    """A noise level (``what``: ρ_f or ρ_nl) of teacher ``f`` from its moments: ``exact(moments)``, a SymPy number
    memoised by (what, teacher, ρ), when the moments are exact; else ``numeric(moments)``, an mpmath number at the
    caller's precision (not memoised). ``rho`` validated by the caller."""
    tk = teacher_key(f)
    k = None if tk is None else key(what, tk, rho)
    hit = None if k is None else _EXACT_RHO.get(k)
    if hit is not None:
        return hit
    m = _moments(f)
    if not m["exact"]:
        return numeric(m)
    out = exact(m)
    return out if k is None else _EXACT_RHO.put(k, out)


def surrogate_teacher(f, rho):
    r"""Result 1's surrogate linear teacher of ``f``: ``(a₁·g, ρ_nl)`` — labels
    :math:`\tilde y=a_1x^\top w+\tilde\varepsilon`, :math:`\operatorname{Var}\tilde\varepsilon=\rho_{\rm nl}`.

    ``a₁·g`` is a SymPy expression (a 30-digit Float coefficient when :math:`a_1` is not exact),
    ``ρ_nl`` a float.

    >>> e, r = surrogate_teacher("cube", 0.1); e, round(r, 12)
    (3*g, 6.1)
    """
    rnl = float(rho_nonlinear(f, rho))
    m = _moments(f)
    a1 = m["a1"] if m["exact"] else sp.Float(mpmath.nstr(_mpf(m["a1"]), 30), 30)
    return a1 * G, rnl


def label_moments(f, rho) -> dict:
    r"""Label moments of Appendix B as floats: :math:`a_1`, :math:`\mathbb E f^2`, :math:`\rho_f`, and
    :math:`\mu_{22}=\mathbb E[g^2f^2]+\rho`, :math:`\mu_{31}=\mathbb E[gf^3]+3\rho a_1`,
    :math:`\mu_4=\mathbb E[f^4]+6\rho\,\mathbb E f^2+3\rho^2` (Gaussian label noise of variance ρ).
    Memoised per (teacher, ρ) within a process (a fresh dict is returned on every call).

    >>> m = label_moments("linear", 0.0); m["mu22"], m["mu4"]
    (3.0, 3.0)
    """
    rho = check_real("rho", rho, low=0.0, high=MAX_VALUE)
    expr, fn = teacher(f)
    if expr is None:
        raise ValueError("f must be a teacher name or a SymPy expression for label_moments")
    tk = teacher_key(f)
    if tk is None:                                # a numeric constant: not memoised (no stable key)
        return _label_moments(f, expr, rho)
    return dict(_LABEL_MOMENTS.get_or_compute(key(tk, rho), lambda: _label_moments(f, expr, rho)))


def label_expectations(f) -> dict:
    r"""The noise-free Gaussian expectations behind :func:`label_moments` of the teacher ``f`` (a name or a SymPy
    expression): ``{"Eg2f2": E[g²f²], "Egf3": E[g f³], "Ef4": E[f⁴]}`` (floats; a polynomial exactly, by linearity
    over monomials, else by the engine's quadrature at 30 digits), always computed. The derivation
    :mod:`..derivations.nonlinear_hermite` stores them for the named teachers (``HERMITE_TABLE[name]["label"]``),
    which :func:`label_moments` reads.

    >>> label_expectations("cube")
    {'Eg2f2': 105.0, 'Egf3': 945.0, 'Ef4': 10395.0}
    """
    expr, _ = teacher(f)
    if expr is None:
        raise ValueError("f must be a teacher name or a SymPy expression for label_expectations")
    gg = sp.Symbol("g", real=True)
    e = expr.subs(G, gg) if expr.free_symbols else expr

    def E(x):
        x = sp.expand(x)
        if x.is_polynomial(gg):                   # exact, by linearity over monomials (He₂, g³, …): no quadrature
            return float(sp.N(polynomial_expectation(x, gg), 30))
        v = hermite.gaussian_expectation(x, exact=False)
        return float(sp.N(v, 30)) if isinstance(v, sp.Basic) else float(v)
    return {"Eg2f2": E(gg ** 2 * e ** 2), "Egf3": E(gg * e ** 3), "Ef4": E(e ** 4)}


def _generated_label_expectations(f):
    """:func:`label_expectations` of a named teacher as the derivation stored them (same function, same floats:
    ``repr`` round-trips); None when ``f`` is no such name or its row was generated from another expression."""
    if not isinstance(f, str) or f not in TEACHERS:
        return None
    row = HERMITE_TABLE.get(f)
    if row is None or row["expr"] != str(TEACHERS[f]) or "label" not in row:
        return None
    return {k: float(v) for k, v in row["label"].items()}


def _label_moments(f, expr, rho) -> dict:
    """:func:`label_moments` of the already-resolved teacher ``expr`` (inputs validated by the caller)."""
    ex = _generated_label_expectations(f) or label_expectations(expr)
    m = _moments(f)
    a1, ef2 = float(m["a1"]), float(m["Ef2"])
    out = {"a1": a1, "Ef2": ef2, "rho_f": rho + ef2}
    out["mu22"] = ex["Eg2f2"] + rho
    out["mu31"] = ex["Egf3"] + 3 * rho * a1
    out["mu4"] = ex["Ef4"] + 6 * rho * ef2 + 3 * rho ** 2
    return out


def polynomial_expectation(expr, g):
    r"""Exact :math:`\mathbb E[P(g)]`, :math:`g\sim\mathcal N(0,1)`, of a polynomial ``expr`` in the SymPy symbol
    ``g`` (its coefficients may hold other symbols), by linearity: :math:`\sum_n c_n\mathbb E[g^n]`, each
    :math:`\mathbb E[g^n]=\int g^n\varphi(g)\,dg` integrated by SymPy once per ``(n, g)`` and process — the same
    exact number as integrating :math:`P\varphi` at once, without one Meijer-G integration per polynomial.

    >>> g = sp.Symbol("g", real=True); polynomial_expectation(g ** 4 - 2 * g + 1, g)
    4
    """
    if not isinstance(g, sp.Symbol):
        raise ValueError(f"g must be a SymPy symbol, got {g!r}")
    try:
        e = sp.sympify(expr, strict=True)
    except sp.SympifyError:
        e = None
    if not isinstance(e, sp.Expr) or e.has(sp.nan, sp.oo, -sp.oo, sp.zoo):
        raise ValueError(f"expr must be a finite SymPy polynomial in {g}, got {expr!r}")
    try:
        terms = sp.Poly(sp.expand(e), g).terms()
    except sp.PolynomialError:
        raise ValueError(f"expr must be a polynomial in {g}, got {expr}") from None
    out = sp.Integer(0)
    for (n,), c in terms:
        out += c * _MONOMIALS.get_or_compute(key(n, g), lambda n=n: sp.integrate(
            g ** n * sp.exp(-g ** 2 / 2) / sp.sqrt(2 * sp.pi), (g, -sp.oo, sp.oo)))
    return out
