r"""Engine-level consistency checks (Gaussian/Isserlis, Monte Carlo, Hermite): each compares an engine with an
independent route (enumeration, closed forms, quadrature, Monte Carlo) and must pass on the unmutated code; the engine
mutants of :mod:`theorycheck.selftest.engines` must make at least one of them fail. Monte Carlo checks are two-sided
z-tests at ``ALPHA``; identities fail above a stated floating-point tolerance.

>>> run_check("montecarlo.known-values").passed
True
"""
from __future__ import annotations

import functools
import importlib
import itertools
import math
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
from scipy import integrate, stats

from .. import gaussian as g
from .. import papers
from .. import hermite as H
from .. import montecarlo as mc

__all__ = ["ALPHA", "Z_CRIT", "Check", "CheckResult", "CHECKS", "check", "run_check", "available_needs", "rounded",
           "registered_checks"]

ALPHA = 1e-3                      # per-comparison false-alarm rate of every Monte Carlo check
Z_CRIT = float(stats.norm.isf(ALPHA / 2))




def available_needs(needs) -> tuple[bool, str]:
    """``needs`` = ["module", "module:attr", "module:Class.attr"]; return (ok, what is missing)."""
    for spec in needs:
        modname, _, attr = spec.partition(":")
        try:
            obj = importlib.import_module(modname)
        except Exception as e:  # noqa: BLE001 - any import failure means "not available yet"
            return False, f"{modname} ({type(e).__name__})"
        for part in filter(None, attr.split(".")):
            if not hasattr(obj, part):
                return False, f"{modname}:{attr}"
            obj = getattr(obj, part)
    return True, ""


# =========================================================================== checks
@dataclass
class CheckResult:
    """Outcome of one consistency check.

    ``statistic`` is |z| (``kind='exact vs Monte Carlo'``) or a relative/absolute error
    (identities, limits, known values); ``threshold`` the value above which the check fails.
    """

    name: str
    passed: bool
    kind: str = ""
    statistic: float = 0.0
    threshold: float = 0.0
    detail: str = ""
    error: str = ""
    available: bool = True

    def as_dict(self) -> dict:
        return {"name": self.name, "passed": self.passed, "kind": self.kind,
                "statistic": rounded(self.statistic), "threshold": rounded(self.threshold), "detail": self.detail,
                "error": self.error, "available": self.available}


def rounded(x):
    try:
        x = float(x)
    except (TypeError, ValueError):
        return str(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return float(f"{x:.6g}")


@dataclass
class Check:
    name: str
    area: str
    kind: str                    # 'exact vs Monte Carlo' | 'identity' | 'limit' | 'known value'
    description: str
    fn: Callable[[], CheckResult]
    needs: tuple = ()


CHECKS: dict[str, Check] = {}


def check(name: str, area: str, kind: str, description: str, needs=(), registry=None):
    """Decorator registering a consistency check (a function returning a :class:`CheckResult`
    or a tuple ``(passed, statistic, threshold, detail)``) in ``registry`` (default :data:`CHECKS`); it returns the
    runner (a function returning a :class:`CheckResult`)."""
    registry = CHECKS if registry is None else registry

    def deco(fn):
        @functools.wraps(fn)
        def run() -> CheckResult:
            out = fn()
            if isinstance(out, CheckResult):
                out.name, out.kind = name, kind
                return out
            passed, stat, thr, detail = out
            return CheckResult(name, bool(passed), kind, float(stat), float(thr), detail)
        registry[name] = Check(name, area, kind, description, run, tuple(needs))
        return fn if registry is CHECKS else run
    return deco


def registered_checks() -> dict[str, Check]:
    """Every consistency check an engine mutant may name: the engines' own (:data:`CHECKS`) and each installed
    paper's (``CHECKS`` of its mutants module: :class:`theorycheck.papers.api.ConsistencyCheck`), found through the
    paper registry. A paper check's name starts with its paper's key."""
    out = dict(CHECKS)
    for key, paper in papers.registry().items():
        if not paper.mutants:
            continue
        for c in getattr(importlib.import_module(paper.mutants), "CHECKS", ()):
            if not c.name.startswith(f"{key}.") or c.name in out:
                raise ValueError(f"paper {key}: consistency check {c.name!r} must be named '{key}.<what>' and be "
                                 "unique")
            out[c.name] = Check(c.name, key, c.kind, c.description, check(c.name, key, c.kind, c.description,
                                                                          registry={})(c.fn))
    return out


def run_check(name: str) -> CheckResult:
    """Run one registered check (:func:`registered_checks`); an exception becomes a failed result with the error
    text. A name no engine or paper registers is an error (``ValueError``), never a silent pass."""
    checks = CHECKS if name in CHECKS else registered_checks()
    if name not in checks:
        raise ValueError(f"no consistency check {name!r}; registered: {sorted(checks)}")
    c = checks[name]
    ok, missing = available_needs(c.needs)
    if not ok:
        return CheckResult(name, True, c.kind, detail=f"not available yet: {missing}", available=False)
    try:
        return c.fn()
    except Exception as e:  # noqa: BLE001 - a crash under a mutant is a detection
        tb = traceback.extract_tb(e.__traceback__)
        where = f"{Path(tb[-1].filename).name}:{tb[-1].lineno}" if tb else ""
        return CheckResult(name, False, c.kind, math.inf, 0.0, detail="raised",
                           error=f"{type(e).__name__}: {str(e)[:200]} ({where})")


def _mc_vs_exact(exact: float, est: mc.MeanEstimate, label: str) -> tuple:
    cmp = mc.compare(exact, est, alpha=ALPHA)
    return (cmp.agrees, abs(cmp.z), Z_CRIT,
            f"{label}: exact {exact:.6g}, MC {cmp.mean:.6g} ± {cmp.se:.2g} (n = {cmp.n}), z = {cmp.z:.2f}")


def _rel(a, b) -> float:
    a, b = float(a), float(b)
    if not (math.isfinite(a) and math.isfinite(b)):
        return math.inf
    return abs(a - b) / max(abs(b), 1e-300) if b != 0 else abs(a)


def _identity(pairs, tol: float, label: str) -> tuple:
    """``pairs`` = [(what, computed, reference), ...]; fail when the worst relative error > tol."""
    worst, wlab = 0.0, ""
    for what, got, ref in pairs:
        e = _rel(got, ref)
        e = math.inf if math.isnan(e) else e
        if e > worst or not wlab:
            worst, wlab = e, f"{what}: got {float(got):.10g}, expected {float(ref):.10g}"
    return worst <= tol, worst, tol, f"{label}; worst {wlab or 'all equal'} (rel. err {worst:.3g})"


# ------------------------------------------------------------------ gaussian engine
def _rand_cov(seed: int, n: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    A = rng.standard_normal((n, n))
    return A @ A.T / n + 0.3 * np.eye(n)


def _haf_oracle(cov: np.ndarray, idx) -> float:
    """Hafnian of cov[idx][:, idx] by direct enumeration of perfect matchings (independent of
    theorycheck.gaussian)."""
    idx = list(idx)

    def rec(items):
        if not items:
            return 1.0
        first, rest = items[0], items[1:]
        tot = 0.0
        for k, j in enumerate(rest):
            tot += cov[first, j] * rec(rest[:k] + rest[k + 1:])
        return tot
    return 0.0 if len(idx) % 2 else rec(idx)


_MOMENT_IDX = [(0, 1), (0, 0, 0, 0), (0, 1, 2, 3), (0, 0, 1, 1), (0, 0, 1, 2, 3, 3),
               (0, 1, 1, 1, 2, 2), (0, 0, 0, 1, 1, 1, 2, 2), (0, 1, 2, 3, 0, 1, 2, 3)]


@check("gaussian.moment-vs-enumeration", "gaussian", "identity",
       "moment(cov, idx) equals the hafnian by direct enumeration of perfect matchings "
       "(orders 2-8, random 4x4 covariance)", needs=["theorycheck.gaussian:moment"])
def _chk_moment_enum():
    cov = _rand_cov(11, 4)
    return _identity([(f"E{idx}", g.moment(cov, idx), _haf_oracle(cov, idx)) for idx in _MOMENT_IDX],
                     1e-10, "moment vs enumeration")


@check("gaussian.moment-closed-forms", "gaussian", "identity",
       "exact SymPy moments: E[X^4] = 3s^4, E[X^6] = 15s^6, E[X^8] = 105s^8, "
       "E[X0^2 X1^2] = ab + 2c^2", needs=["theorycheck.gaussian:moment"])
def _chk_moment_closed():
    import sympy as sp  # heavy: SymPy (~0.5 s to import) only for symbolic inputs
    s, a, b, c = sp.symbols("s a b c", positive=True)
    bad = []
    for k, dfac in ((2, 3), (3, 15), (4, 105)):
        got = g.moment(sp.Matrix([[s ** 2]]), [0] * (2 * k))
        if sp.simplify(got - dfac * s ** (2 * k)) != 0:
            bad.append(f"E[X^{2 * k}] = {got}")
    got = g.moment(sp.Matrix([[a, c], [c, b]]), [0, 0, 1, 1])
    if sp.simplify(got - (a * b + 2 * c ** 2)) != 0:
        bad.append(f"E[X0^2 X1^2] = {got}")
    return (not bad, float(len(bad)), 0.0, "; ".join(bad) or "all four closed forms exact")


@check("gaussian.moment-vs-mc", "gaussian", "exact vs Monte Carlo",
       "moment(cov, idx) vs a seeded Monte Carlo mean of the product (n = 400 000)",
       needs=["theorycheck.gaussian:moment", "theorycheck.gaussian:sample"])
def _chk_moment_mc():
    cov = _rand_cov(12, 3)
    L = np.linalg.cholesky(cov)
    worst = None
    for k, idx in enumerate([(0, 0, 1, 1), (0, 1, 2, 2), (0, 0, 1, 1, 2, 2)]):
        def sampler(rng, size, idx=idx):
            x = rng.standard_normal((size, 3)) @ L.T
            return np.prod(x[:, list(idx)], axis=1)
        est = mc.mean(sampler, 400_000, seed=1000 + k, batch=100_000, progress=False)
        out = _mc_vs_exact(g.moment(cov, idx), est, f"E{idx}")
        if worst is None or out[1] > worst[1]:
            worst = out
    return worst


def _lds_autocov(T: int, a: float = 0.8, sw: float = 1.0, sv: float = 0.5) -> np.ndarray:
    """Autocovariance of y_t = x_t + v_t, x_t = a x_{t-1} + w_t, x_0 ~ N(0,1), t = 1..T."""
    var = np.empty(T)
    v = 1.0
    for t in range(T):
        v = a * a * v + sw
        var[t] = v
    K = np.empty((T, T))
    for s_ in range(T):
        for t in range(T):
            lo, hi = min(s_, t), max(s_, t)
            K[s_, t] = a ** (hi - lo) * var[lo]
    return K + sv * np.eye(T)


@check("gaussian.expect_product-vs-moment", "gaussian", "identity",
       "expect_product of linear/quadratic forms equals the multilinear expansion into coordinate "
       "moments (n = 3, up to 2 linear + 2 quadratic factors)", needs=["theorycheck.gaussian:expect_product"])
def _chk_ep_vs_moment():
    rng = np.random.default_rng(5)
    cov = _rand_cov(13, 3)
    pairs = []
    for nl, nq in ((2, 1), (0, 2), (2, 2), (0, 3)):
        lin = [rng.standard_normal(3) for _ in range(nl)]
        quad = [(lambda B: B + B.T)(rng.standard_normal((3, 3))) for _ in range(nq)]
        ref = 0.0
        choices = [[((i,), a[i]) for i in range(3)] for a in lin]
        choices += [[((i, j), M[i, j]) for i in range(3) for j in range(3)] for M in quad]
        for combo in itertools.product(*choices):
            idx = sum((c[0] for c in combo), ())
            coef = math.prod(c[1] for c in combo)
            ref += coef * _haf_oracle(cov, idx)
        pairs.append((f"{nl} linear, {nq} quadratic", g.expect_product(cov, lin, quad), ref))
    return _identity(pairs, 1e-9, "expect_product vs expansion")


@check("gaussian.expect_product-vs-mc", "gaussian", "exact vs Monte Carlo",
       "LDS-shaped moments E[y_a^2 (sum_i y_i y_{i+1})^2] and E[y_a y_b sum_i y_i y_{i+1}] "
       "(AR(1) plus noise, T = 6) vs Monte Carlo (n = 400 000)",
       needs=["theorycheck.gaussian:expect_product", "theorycheck.gaussian:quadratic_form_matrix"])
def _chk_ep_mc():
    T = 6
    K = _lds_autocov(T)
    L = np.linalg.cholesky(K)
    M = g.quadratic_form_matrix([(i, i + 1) for i in range(T - 2)], T)
    e = np.eye(T)
    cases = [("E[y_5^2 S^2]", [e[4], e[4]], [M, M], lambda y, S: y[:, 4] ** 2 * S ** 2),
             ("E[y_5 y_6 S]", [e[4], e[5]], [M], lambda y, S: y[:, 4] * y[:, 5] * S),
             ("E[S^3]", [], [M, M, M], lambda y, S: S ** 3)]
    worst = None
    for k, (lab, lin, quad, f) in enumerate(cases):
        def sampler(rng, size, f=f):
            y = rng.standard_normal((size, T)) @ L.T
            S = np.sum(y[:, :T - 2] * y[:, 1:T - 1], axis=1)
            return f(y, S)
        est = mc.mean(sampler, 400_000, seed=2000 + k, batch=100_000, progress=False)
        out = _mc_vs_exact(g.expect_product(K, lin, quad), est, lab)
        if worst is None or out[1] > worst[1]:
            worst = out
    return worst


@check("gaussian.quadratic-form-cumulants", "gaussian", "identity",
       "E[(X'MX)^2] = tr(SM)^2 + 2 tr((SM)^2), E[(X'MX)^3] = t1^3 + 6 t1 t2 + 8 t3, "
       "E[(a'X)^2 X'MX] = a'Sa tr(SM) + 2 a'SMSa", needs=["theorycheck.gaussian:expect_product"])
def _chk_qf_cumulants():
    rng = np.random.default_rng(7)
    S = _rand_cov(14, 4)
    B = rng.standard_normal((4, 4))
    M = B + B.T
    a = rng.standard_normal(4)
    P = S @ M
    t1, t2, t3 = np.trace(P), np.trace(P @ P), np.trace(P @ P @ P)
    return _identity([
        ("E[Q^2]", g.expect_product(S, [], [M, M]), t1 ** 2 + 2 * t2),
        ("E[Q^3]", g.expect_product(S, [], [M, M, M]), t1 ** 3 + 6 * t1 * t2 + 8 * t3),
        ("E[L^2 Q]", g.expect_product(S, [a, a], [M]), (a @ S @ a) * t1 + 2 * a @ S @ M @ S @ a),
    ], 1e-10, "quadratic-form cumulants")


# ------------------------------------------------------------------ Monte Carlo engine
@check("montecarlo.known-values", "montecarlo", "known value",
       "hand-computed values: from_samples([1,2,3,4]) = 2.5 +- sqrt(5/12) (ddof = 1, SE = sd/sqrt n); "
       "streaming merge = one batch; compare(0, 1.959964 +- 1) has two-sided p = 0.05; "
       "ratio([2,4,6],[1,2,3]) = 2 with SE 0")
def _chk_mc_known():
    est = mc.from_samples(np.array([1.0, 2.0, 3.0, 4.0]))
    rm = mc.RunningMean()
    rm.update(np.array([1.0, 2.0]))
    rm.update(np.array([3.0, 4.0]))
    est2 = rm.estimate()
    cmp = mc.compare(0.0, mc.MeanEstimate(1.959963984540054, 1.0, 100))
    r = mc.ratio(np.array([2.0, 4.0, 6.0]), np.array([1.0, 2.0, 3.0]))
    pairs = [("mean", est.mean, 2.5), ("se", est.se, math.sqrt(5 / 12)),
             ("merged mean", est2.mean, 2.5), ("merged se", est2.se, math.sqrt(5 / 12)),
             ("p-value", cmp.p_value, 0.05), ("z", cmp.z, 1.959963984540054),
             ("ratio", r.mean, 2.0), ("ratio se + 1", r.se + 1.0, 1.0)]
    ok, worst, tol, det = _identity(pairs, 1e-9, "Monte Carlo known values")
    if cmp.verdict != "agree" or mc.compare(0.0, mc.MeanEstimate(4.0, 1.0, 100)).verdict != "disagree":
        return False, math.inf, tol, det + "; wrong verdicts at z = 1.96 / 4 for alpha = 1e-3"
    return ok, worst, tol, det


def _z_dispersion(zs: np.ndarray, label: str) -> tuple:
    """Sum of z^2 over K independent null comparisons ~ chi^2_K; fail when the two-sided p < ALPHA."""
    K = len(zs)
    q = float(np.sum(zs ** 2))
    p = 2 * min(stats.chi2.cdf(q, K), stats.chi2.sf(q, K))
    zeq = float(stats.norm.isf(max(p, 1e-300) / 2))
    return (p >= ALPHA, zeq, Z_CRIT,
            f"{label}: mean z^2 = {q / K:.3f} over K = {K} null comparisons (expected 1), "
            f"chi^2 two-sided p = {p:.2g}")


@check("montecarlo.z-calibration", "montecarlo", "exact vs Monte Carlo",
       "K = 300 independent mean() estimates of a known mean (E[g^2] = 1, n = 200): the z-scores "
       "must have unit variance (chi^2 test on sum z^2)")
def _chk_mc_zcal():
    zs = np.array([mc.compare(1.0, mc.mean(lambda rng, size: rng.standard_normal(size) ** 2, 200,
                                           seed=5000 + s, batch=200, progress=False)).z for s in range(300)])
    return _z_dispersion(zs, "mean() z-scores")


@check("montecarlo.ratio-calibration", "montecarlo", "exact vs Monte Carlo",
       "K = 300 delta-method ratio() estimates of E[g^2 + h]/E[g^2] = 1 (strongly correlated "
       "numerator and denominator, n = 400): z-scores must have unit variance")
def _chk_mc_ratio_cal():
    zs = []
    for s in range(300):
        rng = np.random.default_rng(7000 + s)
        g, h = rng.standard_normal((2, 400))
        r = mc.ratio(g ** 2 + 0.3 * h, g ** 2)
        zs.append((r.mean - 1.0) / r.se)
    return _z_dispersion(np.array(zs), "ratio() z-scores")


# =========================================================================== mutants
# ------------------------------------------------------------------ Hermite engine
def _gauss_quad(fn) -> float:
    r""":math:`E[fn(g)]`, :math:`g\sim N(0,1)`, by ``scipy.integrate.quad`` split at 0 (independent of
    theorycheck.hermite; relative accuracy ~1e-12 for the smooth/kinked test functions used here)."""
    phi = lambda x: math.exp(-x * x / 2) / math.sqrt(2 * math.pi)   # noqa: E731
    lo = integrate.quad(lambda x: fn(x) * phi(x), -np.inf, 0.0, epsabs=1e-14, epsrel=1e-13, limit=200)[0]
    hi = integrate.quad(lambda x: fn(x) * phi(x), 0.0, np.inf, epsabs=1e-14, epsrel=1e-13, limit=200)[0]
    return lo + hi


def _he_orthonormal(m: int, x: float) -> float:
    """h_m = He_m/sqrt(m!) from numpy.polynomial.hermite_e (independent oracle)."""
    c = np.zeros(m + 1)
    c[m] = 1.0
    return float(np.polynomial.hermite_e.hermeval(x, c)) / math.sqrt(math.factorial(m))


@check("hermite.orthonormality", "hermite", "identity",
       "E[h_m(g) h_j(g)] = delta_mj for m, j <= 6, by 60-point Gauss-Hermite (numpy hermegauss) "
       "quadrature of hermite_h", needs=["theorycheck.hermite:hermite_h"])
def _chk_hermite_orth():
    x, w = np.polynomial.hermite_e.hermegauss(60)
    w = w / math.sqrt(2 * math.pi)
    vals = np.array([np.asarray(H.hermite_h(m, x), dtype=float) for m in range(7)])
    G = (vals * w) @ vals.T
    err = float(np.max(np.abs(G - np.eye(7))))
    return err <= 1e-10, err, 1e-10, f"max |E[h_m h_j] - delta| = {err:.3g} (m, j <= 6)"


_HERMITE_CASES = [
    # (label, input for hermite_coefficients, numpy function, m_max)
    ("sin (SymPy, Stein route)", "sin", np.sin, 3),
    ("|g| (SymPy, kink route)", "abs", abs, 4),
    ("g^3 (callable, quadrature)", lambda x: x ** 3, lambda x: x ** 3, 3),
    ("relu (callable, quadrature)", lambda x: max(x, 0 * x), lambda x: max(x, 0.0), 3),
    ("tanh (SymPy, quadrature)", "tanh", math.tanh, 3),
]


@check("hermite.coefficients-vs-quadrature", "hermite", "identity",
       "hermite_coefficients(f, m) for sin, |g|, g^3, relu, tanh (all three routes: Stein/SymPy, kink "
       "split, mpmath quadrature) vs a_m = E[f(g) He_m(g)]/sqrt(m!) by scipy quad with numpy's He_m",
       needs=["theorycheck.hermite:hermite_coefficients"])
def _chk_hermite_coeffs():
    import sympy as sp  # heavy: SymPy (~0.5 s to import) only for symbolic inputs
    gs = sp.Symbol("g", real=True)
    exprs = {"sin": sp.sin(gs), "abs": sp.Abs(gs), "tanh": sp.tanh(gs)}
    pairs = []
    for lab, f, fn, mmax in _HERMITE_CASES:
        got = H.hermite_coefficients(exprs.get(f, f) if isinstance(f, str) else f, mmax)
        for m in range(mmax + 1):
            ref = _gauss_quad(lambda x, m=m: fn(x) * _he_orthonormal(m, x))
            pairs.append((f"{lab} a_{m}", float(got[m]) + 1.0, ref + 1.0))   # +1: absolute scale for zeros
    return _identity(pairs, 1e-9, "Hermite coefficients vs independent quadrature (compared as 1 + a_m)")


@check("hermite.parseval-stein", "hermite", "identity",
       "Parseval sum_m a_m^2 = E[f^2] for f = g^3 - 2g^2 + g (exact, m <= 3) and Stein a_1 = E[f'] "
       "for tanh (stein_check)", needs=["theorycheck.hermite:hermite_coefficients", "theorycheck.hermite:stein_check"])
def _chk_parseval():
    f = lambda x: x ** 3 - 2 * x ** 2 + x          # noqa: E731
    a = [float(v) for v in H.hermite_coefficients(f, 3)]
    ef2 = _gauss_quad(lambda x: f(x) ** 2)
    import sympy as sp  # heavy: SymPy (~0.5 s to import) only for symbolic inputs
    st_ = H.stein_check(sp.tanh(sp.Symbol("g", real=True)))
    return _identity([("Parseval", sum(v * v for v in a), ef2),
                      ("Stein a1 vs E[f']", float(st_["a1"]), float(st_["e_fprime"]))],
                     1e-9, "Parseval and Stein")
