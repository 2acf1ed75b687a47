r"""Hermite expansions under the standard Gaussian measure.

Conventions (used everywhere in theorycheck)
--------------------------------------------
* :math:`g\sim\mathcal N(0,1)`; expectations are :math:`\mathbb E[F(g)]=\int F(x)\,\varphi(x)\,dx`,
  :math:`\varphi(x)=e^{-x^2/2}/\sqrt{2\pi}`.
* **Probabilists'** Hermite polynomials :math:`\mathrm{He}_m` (weight :math:`e^{-x^2/2}`,
  :math:`\mathrm{He}_{m+1}=x\,\mathrm{He}_m-m\,\mathrm{He}_{m-1}`), **orthonormal** version
  :math:`h_m=\mathrm{He}_m/\sqrt{m!}`, so :math:`\mathbb E[h_m(g)h_j(g)]=\delta_{mj}`,
  :math:`h_0=1,\ h_1=g,\ h_2=(g^2-1)/\sqrt2`.
  (SymPy's ``hermite_prob`` is :math:`\mathrm{He}_m`; mpmath's ``hermite`` and SymPy's ``hermite``
  are the *physicists'* :math:`H_m`, with :math:`\mathrm{He}_m(x)=2^{-m/2}H_m(x/\sqrt2)`.)
* Coefficients :math:`f(g)=\sum_m a_m h_m(g)`, :math:`a_m=\mathbb E[f(g)h_m(g)]`;
  Parseval :math:`\mathbb E[f(g)^2]=\sum_m a_m^2`; Stein :math:`a_1=\mathbb E[g f(g)]=\mathbb E[f'(g)]`.

Exact route (SymPy input)
-------------------------
For a SymPy expression in one symbol built from polynomials, ``exp``, ``sin``, ``cos``, ``erf``,
``erfc`` (smooth case) we use the iterated Stein identity
:math:`\mathbb E[f(g)\mathrm{He}_m(g)]=\mathbb E[f^{(m)}(g)]` and integrate with SymPy. With kinks
at 0 only (``Abs``, ``sign``, ``Heaviside``, ``Max``/``Min``, ``Piecewise`` whose switch points are
all at 0) the integral is split into the two half lines, where the kink functions evaluate.
Parity (:math:`f(-g)=\pm f(g)`) sets the vanishing coefficients to an exact 0. Anything else — or
any integral SymPy leaves unevaluated — falls back to mpmath quadrature. When :math:`f^{(m)}` is a
polynomial (exact coefficients) it is integrated term by term, :math:`\sum_n c_n\mathbb E[g^n]`, each
moment once (the same exact number, without a Meijer-G integration per polynomial). Results are memoised
(per coefficient, and a request for fewer coefficients reuses a longer computed list).

Numeric route
-------------
``mpmath.quad`` (tanh–sinh) at ``dps`` decimal digits on :math:`(-\infty,b_1],\dots,[b_k,\infty)`,
the :math:`b_i` being 0, the user's ``breakpoints`` and the kinks found in a SymPy expression.
Python callables are called with ``mpmath.mpf`` arguments (fall back to ``float`` if that fails;
then the accuracy is that of the callable, about 1e-15). Before integrating, square-integrability
is tested on the tails (:math:`f(x)^2\varphi(x)x^{2m}` must decay at :math:`|x|=10\ldots 40`);
a non-integrable ``f`` (e.g. :math:`e^{g^2}`) raises ``ValueError``.

Example
-------
>>> import sympy as sp
>>> g = sp.Symbol("g")
>>> hermite_coefficients(sp.sin(g), 3)
[0, exp(-1/2), 0, -sqrt(6)*exp(-1/2)/6]
>>> [round(float(a), 6) for a in hermite_coefficients(lambda x: x**3, 3)]
[0.0, 3.0, 0.0, 2.44949]
>>> float(hermite_h(2, 1.5))   # (1.5**2 - 1)/sqrt(2)
0.8838834764831843
"""
from __future__ import annotations

import math
import numbers
from typing import Callable, Sequence

import mpmath
import numpy as np
import sympy as sp

from .memo import Memo, key, memoize
from .validate import ParameterTypeError, check_int

__all__ = ["hermite_h", "hermite_coefficients", "gaussian_expectation", "stein_check",
           "find_kinks", "as_function"]

_SMOOTH_OK = (sp.exp, sp.sin, sp.cos, sp.erf, sp.erfc)
_KINK_FUNCS = (sp.Abs, sp.sign, sp.Heaviside, sp.Max, sp.Min, sp.Piecewise)


# --------------------------------------------------------------------------------------------
# h_m
# --------------------------------------------------------------------------------------------
MAX_DEGREE = 100_000          # hermite_h: the recurrence is O(m)
MAX_COEFFICIENTS = 200        # hermite_coefficients: each coefficient is a high-precision quadrature


def hermite_h(m: int, x):
    r"""Orthonormal probabilists' Hermite polynomial :math:`h_m(x)=\mathrm{He}_m(x)/\sqrt{m!}`.

    ``x`` may be a number, a NumPy array (vectorised three-term recurrence
    :math:`h_{m+1}=(x h_m-\sqrt m\,h_{m-1})/\sqrt{m+1}`), an ``mpmath.mpf`` or a SymPy
    expression (returns ``hermite_prob(m, x)/sqrt(m!)``, exact).

    At :math:`\pm\infty` it returns the limit :math:`(\pm1)^m\infty` (:math:`m\ge1`); NaN is an error.

    >>> import sympy as sp; x = sp.Symbol("x")
    >>> sp.expand(hermite_h(3, x) * sp.sqrt(6))
    x**3 - 3*x
    >>> hermite_h(3, np.array([np.inf, -np.inf, 1.0])).round(4).tolist()
    [inf, -inf, -0.8165]
    """
    m = check_int("m", m, minimum=0, maximum=MAX_DEGREE)
    if isinstance(x, sp.Basic):
        return sp.hermite_prob(m, x) / sp.sqrt(sp.factorial(m))
    if isinstance(x, (mpmath.mpf, mpmath.mpc)):
        h0, h1 = mpmath.mpf(1), x
        if m == 0:
            return h0
        for j in range(1, m):
            h0, h1 = h1, (x * h1 - mpmath.sqrt(j) * h0) / mpmath.sqrt(j + 1)
        return h1
    if isinstance(x, (str, bytes, bool)):
        raise ParameterTypeError(f"x must be numeric, a NumPy array or a SymPy expression, got {type(x).__name__}")
    try:
        xa = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise ParameterTypeError(f"x must be numeric, a NumPy array or a SymPy expression, got {type(x).__name__}") \
            from None
    if np.any(np.isnan(xa)):
        raise ValueError("x must not contain NaN (h_m is defined on the real line and at ±inf)")
    inf = np.isinf(xa)
    h0 = np.ones_like(xa)
    if m == 0:
        return h0 if xa.ndim else float(h0)
    xf = np.where(inf, 0.0, xa)
    h1 = xf.copy()
    with np.errstate(over="ignore", invalid="ignore"):
        for j in range(1, m):
            h0, h1 = h1, (xf * h1 - math.sqrt(j) * h0) / math.sqrt(j + 1)
    # the limits at ±inf: the leading coefficient 1/sqrt(m!) is positive, so h_m(±inf) = (±1)^m inf
    h1 = np.where(inf, np.where(np.signbit(xa) & (m % 2 == 1), -np.inf, np.inf), h1)
    if np.any(~np.isfinite(h1) & ~inf):
        raise ValueError(f"h_{m}(x) overflows for |x| up to {np.max(np.abs(xa[~inf])):.3g}; use mpmath or SymPy input")
    return h1 if xa.ndim else float(h1)


# --------------------------------------------------------------------------------------------
# input handling
# --------------------------------------------------------------------------------------------
def _symbol_of(expr: sp.Basic) -> sp.Symbol | None:
    free = sorted(expr.free_symbols, key=str)
    if len(free) > 1:
        raise ValueError(f"f must be a SymPy expression in at most one symbol, got symbols {free}")
    return free[0] if free else None


def find_kinks(expr) -> list[float]:
    r"""Real points where a SymPy expression may be non-smooth.

    Zeros of the arguments of ``Abs``, ``sign``, ``Heaviside``, of the differences of
    ``Max``/``Min`` arguments and of ``Piecewise`` conditions. Returns sorted floats
    (empty for a smooth expression). Raises ``ValueError`` if the set is not finite.

    >>> import sympy as sp; g = sp.Symbol("g")
    >>> find_kinks(sp.Abs(g - 1) + sp.Max(0, g))
    [0.0, 1.0]
    """
    if not isinstance(expr, sp.Basic):
        raise ValueError("expr must be a SymPy expression")
    x = _symbol_of(expr)
    if x is None:
        return []
    xr = sp.Symbol("_xr", real=True)
    e = expr.subs(x, xr)
    args = []
    for node in sp.preorder_traversal(e):
        if isinstance(node, (sp.Abs, sp.sign, sp.Heaviside)):
            args.append(node.args[0])
        elif isinstance(node, (sp.Max, sp.Min)):
            a = node.args
            args += [a[i] - a[j] for i in range(len(a)) for j in range(i + 1, len(a))]
        elif isinstance(node, sp.Piecewise):
            for _, cond in node.args:
                for rel in cond.atoms(sp.core.relational.Relational):
                    args.append(rel.lhs - rel.rhs)
    pts = set()
    for a in args:
        if not a.has(xr):
            continue
        sol = sp.solveset(sp.Eq(a, 0), xr, domain=sp.S.Reals)
        if not isinstance(sol, sp.FiniteSet):
            raise ValueError(f"f has a kink set that is not finite: zeros of {a}")
        pts |= {float(s) for s in sol}
    return sorted(pts)


def as_function(f, dps: int = 30) -> Callable:
    """A callable ``x -> f(x)`` (mpmath-capable) from a SymPy expression or a callable."""
    if isinstance(f, sp.Basic):
        x = _symbol_of(f)
        if x is None:
            c = f
            if not c.is_number or not c.is_finite or not c.is_real:
                raise ValueError(f"f must be a real finite constant or an expression in one symbol, got {f}")
            val = mpmath.mpf(sp.N(c, dps + 5))
            return lambda t: val
        return sp.lambdify(x, f, modules="mpmath")
    if isinstance(f, numbers.Real) and not isinstance(f, bool):
        if not math.isfinite(float(f)):
            raise ValueError(f"f must be finite, got {f}")
        val = mpmath.mpf(f)
        return lambda t: val
    if not callable(f):
        raise ValueError(f"f must be a SymPy expression, a real number or a callable, got {type(f).__name__}")
    return f


class _NonFinite(ValueError):
    """f overflowed or returned inf/nan."""


def _evaluate(fun: Callable, t):
    """Evaluate a user callable at an mpf, falling back to float; validate the result."""
    try:
        v = fun(t)
    except (TypeError, AttributeError):
        try:
            v = fun(float(t))
        except Exception as exc:  # noqa: BLE001 - report any failure as bad input
            raise ValueError(f"f could not be evaluated at {float(t)}: {exc}") from None
    except OverflowError:
        raise _NonFinite(f"f overflowed at {float(t)}") from None
    except (ValueError, ZeroDivisionError) as exc:
        raise ValueError(f"f could not be evaluated at {float(t)}: {exc}") from None
    if isinstance(v, np.ndarray):
        if v.size != 1:
            raise ValueError("f must return a scalar")
        v = v.reshape(()).item()
    if isinstance(v, sp.Basic):
        if not v.is_number:
            raise ValueError(f"f must return a number, got {v}")
        v = mpmath.mpf(sp.N(v, 40)) if v.is_real else mpmath.mpc(complex(v))
    if isinstance(v, bool) or not isinstance(v, (numbers.Number, mpmath.mpf, mpmath.mpc)):
        raise ValueError(f"f must return a real number, got {type(v).__name__}")
    if isinstance(v, (complex, mpmath.mpc)):
        if abs(mpmath.mpf(v.imag)) > 0:
            raise ValueError(f"f must be real-valued, got {v} at {float(t)}")
        v = v.real
    v = mpmath.mpf(v)
    if not mpmath.isfinite(v):
        raise _NonFinite(f"f is not finite at {float(t)} (got {v})")
    return v


def _check_tails(fun: Callable, m_max: int) -> None:
    """Require f(x)^2 phi(x) x^(2 m_max) to decay on both tails (square integrability)."""
    with mpmath.workdps(30):
        for sgn in (1, -1):
            vals = []
            for r in (10, 20, 30, 40):
                x = mpmath.mpf(sgn * r)
                try:
                    fx = _evaluate(fun, x)
                except _NonFinite:
                    raise ValueError("f is not square-integrable under N(0,1) (overflow or non-finite value "
                                     f"at x = {sgn * r})") from None
                vals.append(fx ** 2 * mpmath.exp(-x ** 2 / 2) * (1 + x * x) ** (m_max + 1))
            if not (vals[-1] < mpmath.mpf("1e-30") and vals[-1] <= vals[1]):
                raise ValueError("f is not square-integrable under N(0,1): f(x)^2 exp(-x^2/2) does not decay "
                                 f"(value {mpmath.nstr(vals[-1], 3)} at |x| = 40)")


def _check_square_integrable(fun: Callable, points: Sequence[float]) -> None:
    """E[f(g)^2] must converge: the tanh-sinh quadrature at two refinement levels must agree to 5 %
    (a non-square-integrable singularity, e.g. f = 1/x, makes the value grow with the refinement).
    The integrand is memoised by node: the finer quadrature revisits the nodes of the coarser one (same
    precision, same values)."""
    with mpmath.workdps(25):
        pts = [-mpmath.inf] + [mpmath.mpf(p) for p in sorted(set(points))] + [mpmath.inf]
        c = 1 / mpmath.sqrt(2 * mpmath.pi)
        seen: dict = {}

        def sq(t):
            v = seen.get(t)
            if v is None:
                try:
                    v = _evaluate(fun, t) ** 2 * mpmath.exp(-t * t / 2) * c
                except _NonFinite:
                    v = mpmath.inf
                seen[t] = v
            return v
        coarse = mpmath.quad(sq, pts, maxdegree=5)
        fine = mpmath.quad(sq, pts, maxdegree=7)
    if not (mpmath.isfinite(coarse) and mpmath.isfinite(fine)) or abs(fine - coarse) > 0.05 * max(1, abs(fine)):
        raise ValueError("f is not square-integrable under N(0,1): the quadrature of E[f(g)^2] does not converge "
                         f"({mpmath.nstr(coarse, 4)} vs {mpmath.nstr(fine, 4)} at two refinements); if f has a kink or "
                         "an integrable singularity, pass its location in breakpoints")


def _quad(integrand: Callable, points: Sequence[float], dps: int):
    with mpmath.workdps(dps + 10):
        pts = [-mpmath.inf] + [mpmath.mpf(p) for p in sorted(set(points))] + [mpmath.inf]
        val = mpmath.quad(integrand, pts)
    if not mpmath.isfinite(val):
        raise ValueError("f is not integrable under N(0,1) (quadrature diverged)")
    return val


# --------------------------------------------------------------------------------------------
# exact (SymPy) route
# --------------------------------------------------------------------------------------------
def _exact_ok(expr: sp.Basic, x: sp.Symbol) -> str | None:
    """'smooth', 'kink0' or None (numeric)."""
    funcs = {type(a) for a in expr.atoms(sp.Function)}
    kink = any(issubclass(t, _KINK_FUNCS) for t in funcs) or expr.has(sp.Piecewise)
    others = [t for t in funcs if not issubclass(t, _SMOOTH_OK + _KINK_FUNCS)]
    if others:
        return None
    if not kink:
        return "smooth"
    try:
        pts = find_kinks(expr)
    except ValueError:
        return None
    return "kink0" if pts in ([], [0.0]) else None


def _clean(r: sp.Basic):
    if r.has(sp.Integral) or r.has(sp.oo, -sp.oo, sp.zoo, sp.nan):
        return None
    r = sp.expand(sp.simplify(r.rewrite(sp.erf)))     # expanded: a canonical, reproducible form
    if not r.is_number or r.has(sp.I):
        return None
    return r


@memoize("hermite.parity", maxsize=1024)
def _parity(expr: sp.Basic, x: sp.Symbol) -> int:
    """+1 even, -1 odd, 0 neither (decided symbolically; 0 if undecided). Memoised (a deterministic function of
    immutable SymPy arguments, asked again for each ``m_max``/``dps`` of the same expression)."""
    xr = sp.Symbol("_xp", real=True)
    e = expr.subs(x, xr)
    em = e.subs(xr, -xr)
    if _is_zero(em - e, xr):
        return 1
    if _is_zero(em + e, xr):
        return -1
    return 0


def _is_zero(d: sp.Basic, xr: sp.Symbol) -> bool:
    """``sp.simplify(d) == 0``, skipping ``simplify`` when the answer is known without it: ``d`` already 0, or
    ``d`` non-zero at the point 7/10 (then ``d`` is not identically zero, and neither is its simplified form)."""
    if d == 0:
        return True
    try:
        v = sp.N(d.subs(xr, sp.Rational(7, 10)), 20)
        if v.is_Number and v.is_real and v.is_finite and abs(v) > 1e-10:
            return False
    except Exception:  # noqa: BLE001 - undecided numerically: decide symbolically below
        pass
    return sp.simplify(d) == 0


@memoize("hermite.gauss_moment", maxsize=64)
def _gauss_moment(n: int):
    r""":math:`\mathbb E[g^n]=\int x^n\varphi(x)\,dx` integrated by SymPy (memoised)."""
    xr = sp.Symbol("_t", real=True)
    return sp.integrate(xr ** n * sp.exp(-xr ** 2 / 2) / sp.sqrt(2 * sp.pi), (xr, -sp.oo, sp.oo))


@memoize("hermite.smooth_integral", maxsize=1024)
def _smooth_integral(dm: sp.Basic, xr: sp.Symbol):
    r"""SymPy's :math:`\int dm(x)\varphi(x)\,dx` over the real line (memoised by integrand: successive
    derivatives repeat, e.g. :math:`\pm\cos` for every odd order of :math:`\sin`)."""
    return sp.integrate(dm * sp.exp(-xr ** 2 / 2) / sp.sqrt(2 * sp.pi), (xr, -sp.oo, sp.oo))


@memoize("hermite.exact_coeff", maxsize=1024)
def _exact_coeff(expr, x, m, kind):
    """Exact :math:`a_m` of ``expr`` (SymPy) or None; memoised (independent of the quadrature precision, so a
    coefficient asked for at several ``dps`` or ``m_max`` is integrated once)."""
    w = sp.exp(-sp.Symbol("_t") ** 2 / 2) / sp.sqrt(2 * sp.pi)
    t = sp.Symbol("_t")
    if kind == "smooth":
        xr = sp.Symbol("_t", real=True)
        dm = sp.expand(sp.diff(expr.subs(x, xr), xr, m))
        if dm.is_polynomial(xr) and not dm.has(sp.Float):
            # linearity: sum_n c_n E[g^n], each moment integrated by SymPy once (the same exact number as
            # integrating the polynomial at once, without a Meijer-G integration per polynomial)
            r = sp.Add(*[c * _gauss_moment(n) for (n,), c in sp.Poly(dm, xr).terms()])
        else:
            r = _smooth_integral(dm, xr)
    else:
        p = sp.Symbol("_p", positive=True)
        fp, fn = expr.subs(x, p), expr.subs(x, -p)
        he = sp.hermite_prob(m, p)
        r = sp.integrate(sp.expand((fp * he + fn * he.subs(p, -p)) * w.subs(t, p)), (p, 0, sp.oo))
    r = _clean(r)
    return None if r is None else _clean(r / sp.sqrt(sp.factorial(m)))


def _sympy_constant(f: sp.Basic):
    """Validate a SymPy input ``f`` (real, finite) and return its value if it is a constant, else None."""
    x = _symbol_of(f)
    if f.has(sp.I) or f.has(sp.zoo, sp.nan, sp.oo):
        raise ValueError(f"f must be real and finite, got {f}")
    if x is None:
        c = sp.nsimplify(f) if f.is_Float else f
        if not (c.is_number and c.is_real and c.is_finite):
            raise ValueError(f"f must be a real finite constant, got {f}")
        return c
    return None


#: the longest coefficient tuple computed so far by (f, dps, breakpoints, exact): the coefficients for a smaller
#: ``m_max`` are its prefix (each a_m is a deterministic function of (f, m, dps, breakpoints, exact); the only
#: m_max-dependent step, the tail check of f^2 phi x^(2 m_max), is weaker for a smaller m_max)
_PREFIX = Memo("hermite.coefficient_prefix", maxsize=512)


@memoize("hermite.sympy_coefficients", maxsize=512)
def _sympy_coefficients(f: sp.Basic, m_max: int, dps: int, bps: tuple, exact: bool) -> tuple:
    """:func:`hermite_coefficients` of a SymPy expression (validated arguments). Memoised: the result is a
    deterministic function of the arguments (SymPy expressions are immutable), and derivations ask for the
    same coefficients several times (tables, Stein checks, the seed's numbers); a request for fewer coefficients
    than an earlier one (same f, dps, breakpoints, exact) is answered from the prefix memo."""
    x = _symbol_of(f)
    c = _sympy_constant(f)          # validates f (real, finite)
    if x is None:
        return (c,) + (sp.Integer(0),) * m_max
    longer = _PREFIX.get(key(f, dps, bps, exact))
    if longer is not None and len(longer) > m_max:
        return longer[:m_max + 1]
    bps = list(bps)
    fun = as_function(f, dps)
    _check_tails(fun, m_max)
    out: list = [None] * (m_max + 1)
    kind = _exact_ok(f, x) if exact else None
    if exact and kind is None:      # no exact route: the same computation as exact=False (memoised there)
        return _sympy_coefficients(f, m_max, dps, tuple(bps), False)
    kinks = find_kinks(f) if kind is None else []
    par = _parity(f, x) if kind is not None else 0
    checked = False
    nodes: dict = {}
    for m in range(m_max + 1):
        if par and (-1) ** m != par:
            out[m] = sp.Integer(0)
            continue
        if kind is not None:
            try:
                out[m] = _exact_coeff(f, x, m, kind)
            except (NotImplementedError, ValueError, TypeError):  # pragma: no cover - SymPy gaps
                out[m] = None
        if out[m] is None:
            if not checked:
                _check_square_integrable(fun, [0.0] + bps + kinks)
                checked = True
            out[m] = _numeric_coeff(fun, m, dps, [0.0] + bps + kinks, nodes)
    out = tuple(out)
    k = key(f, dps, tuple(bps), exact)
    if len(_PREFIX.get(k) or ()) < len(out):
        _PREFIX.put(k, out)
    return out


# --------------------------------------------------------------------------------------------
# public API
# --------------------------------------------------------------------------------------------
def hermite_coefficients(f, m_max: int, dps: int = 30, breakpoints: Sequence[float] = (),
                         exact: bool = True) -> list:
    r"""Coefficients :math:`a_0,\dots,a_{m_{\max}}` of :math:`f(g)=\sum_m a_m h_m(g)`.

    Parameters
    ----------
    f : SymPy expression in one symbol, a real constant, or a callable ``x -> f(x)``.
    m_max : non-negative integer.
    dps : decimal digits for mpmath quadrature (>= 15).
    breakpoints : extra points where ``f`` has kinks (callables); 0 is always a split point.
    exact : try the SymPy route for SymPy input (default ``True``).

    Returns a list of length ``m_max + 1``: exact SymPy numbers where SymPy integrated,
    ``mpmath.mpf`` otherwise.

    >>> import sympy as sp; g = sp.Symbol("g")
    >>> hermite_coefficients(sp.Max(0, g), 2)
    [sqrt(2)/(2*sqrt(pi)), 1/2, 1/(2*sqrt(pi))]
    """
    m_max = check_int("m_max", m_max, minimum=0, maximum=MAX_COEFFICIENTS)
    dps = check_int("dps", dps, minimum=15, maximum=200)
    bps = _breakpoints(breakpoints)
    if isinstance(f, sp.Basic):
        return list(_sympy_coefficients(f, m_max, dps, tuple(bps), bool(exact)))
    fun = as_function(f, dps)
    _check_tails(fun, m_max)
    _check_square_integrable(fun, [0.0] + bps)
    nodes: dict = {}
    return [_numeric_coeff(fun, m, dps, [0.0] + bps, nodes) for m in range(m_max + 1)]


def _breakpoints(breakpoints) -> list[float]:
    """The validated ``breakpoints`` argument as a list of finite floats."""
    try:
        bps = [float(b) for b in breakpoints]
    except (TypeError, ValueError):
        raise ValueError("breakpoints must be a sequence of real numbers") from None
    if not all(math.isfinite(b) for b in bps):
        raise ValueError("breakpoints must be finite")
    return bps


def _numeric_a1(f, dps: int, breakpoints: Sequence[float]):
    """:math:`a_1` as ``hermite_coefficients(f, 1, dps, breakpoints, exact=False)[1]`` computes it (``dps`` already
    validated): the same input checks (tails, square integrability) and the same quadrature, without the
    quadrature of :math:`a_0`, which :func:`stein_check` does not use."""
    bps = _breakpoints(breakpoints)
    symbolic = isinstance(f, sp.Basic)
    if symbolic and _sympy_constant(f) is not None:
        return sp.Integer(0)
    fun = as_function(f, dps)
    _check_tails(fun, 1)
    pts = [0.0] + bps + (find_kinks(f) if symbolic else [])
    _check_square_integrable(fun, pts)
    return _numeric_coeff(fun, 1, dps, pts)


def _numeric_coeff(fun, m, dps, points, nodes: dict | None = None):
    r""":math:`a_m` by quadrature of :math:`f(t)\,h_m(t)\,e^{-t^2/2}/\sqrt{2\pi}` (validated arguments).

    ``nodes`` (one dict per ``fun``, shared by the calls for several ``m``; a fresh one by default) memoises
    :math:`f(t)` and :math:`e^{-t^2/2}` by (node, working precision): the coefficients of one ``f`` are integrated
    on the same tanh-sinh nodes, and both factors are deterministic there, so every product
    :math:`f(t)\,h_m(t)\,e^{-t^2/2}\,c` is formed from the same numbers in the same order as without the memo
    (same ``mpf`` result); ``f`` is then evaluated once per node instead of once per node and ``m``."""
    nodes = {} if nodes is None else nodes
    with mpmath.workdps(dps + 10):
        c = 1 / mpmath.sqrt(2 * mpmath.pi)
        prec = mpmath.mp.prec

        def integrand(t):
            node_key = (t, prec)
            fe = nodes.get(node_key)
            if fe is None:
                fe = nodes[node_key] = (_evaluate(fun, t), mpmath.exp(-t * t / 2))
            return fe[0] * hermite_h(m, t) * fe[1] * c

        val = _quad(integrand, points, dps)
    with mpmath.workdps(dps):
        return +val


def gaussian_expectation(f, dps: int = 30, breakpoints: Sequence[float] = (), exact: bool = True):
    r""":math:`\mathbb E[f(g)]`, :math:`g\sim\mathcal N(0,1)` (exact for SymPy input when possible).

    >>> import sympy as sp; g = sp.Symbol("g")
    >>> gaussian_expectation(sp.sin(g) ** 2)
    1/2 - exp(-2)/2
    """
    return hermite_coefficients(f, 0, dps=dps, breakpoints=breakpoints, exact=exact)[0]


def stein_check(f, dps: int = 30, breakpoints: Sequence[float] = ()) -> dict:
    r"""Stein's identity :math:`a_1=\mathbb E[g f(g)]=\mathbb E[f'(g)]` for ``f`` absolutely continuous.

    Kinks are fine (a null set); **jumps are not**: for ``sign`` the pointwise derivative is 0 a.e.
    and the identity needs the distributional part :math:`2\delta_0`, i.e. :math:`a_1=2\varphi(0)`
    (here ``abs_diff`` then equals :math:`2\varphi(0)`, which is the expected failure).

    SymPy input: :math:`f'` is differentiated symbolically (``Abs' = sign``, kinks are a null set);
    callables: ``mpmath.diff`` at the quadrature nodes (never at a breakpoint). Returns
    ``{"a1", "e_fprime", "abs_diff"}`` (mpmath numbers at ``dps`` digits).

    >>> import sympy as sp; g = sp.Symbol("g")
    >>> float(stein_check(sp.tanh(g))["abs_diff"]) < 1e-25
    True
    """
    dps = check_int("dps", dps, minimum=15, maximum=200)
    a1 = _numeric_a1(f, dps, breakpoints)       # = hermite_coefficients(f, 1, ..., exact=False)[1]
    if isinstance(f, sp.Basic):
        x = _symbol_of(f)
        if x is None:
            fp = sp.Integer(0)
        else:
            xr = sp.Symbol("_s", real=True)
            fp = sp.diff(f.subs(x, xr), xr)
            fp = fp.replace(sp.DiracDelta, lambda *a: sp.Integer(0))
        efp = gaussian_expectation(fp, dps=dps, breakpoints=breakpoints, exact=False)
    else:
        fun = as_function(f, dps)
        high = isinstance(fun(mpmath.mpf("0.3")), (mpmath.mpf, mpmath.mpc))

        def deriv(t):
            if high:   # mpmath-capable callable: numerical derivative at full precision
                with mpmath.workdps(dps + 10):
                    return mpmath.diff(lambda s: _evaluate(fun, s), t)
            h = 1e-5   # float callable: central difference, error O(h^2) ~ 1e-10
            return (_evaluate(fun, t + h) - _evaluate(fun, t - h)) / (2 * h)

        efp = gaussian_expectation(deriv, dps=dps, breakpoints=breakpoints, exact=False)
    with mpmath.workdps(dps):
        return {"a1": +mpmath.mpf(a1), "e_fprime": +mpmath.mpf(efp), "abs_diff": abs(a1 - efp)}
