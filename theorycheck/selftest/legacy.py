r"""Self-test of the toolkit: fault injection (mutation testing) and false-alarm calibration.

A verification toolkit is only worth its false-negative rate. This module

1. keeps a **catalogue of deliberate, realistic mistakes** (:data:`MUTANTS`) in the engines and the
   three papers' mathematics — a dropped Isserlis pairing, physicists' Hermite polynomials, a
   missing :math:`a_0^2` in :math:`\rho_{nl}`, a shifted GLA exponent, a missing :math:`(T-2)`,
   an average of per-system ratios, :math:`\mathrm{SE} = \mathrm{sd}` instead of
   :math:`\mathrm{sd}/\sqrt n`, a halved loss, ... Each mutant is applied by **monkeypatching the
   real code path for the duration of one run** (:class:`Patcher`; nothing is ever written to the
   source files), then the toolkit's own **consistency checks** (:data:`CHECKS`: exact vs Monte
   Carlo z-tests, identities, limits, known values — all seeded and small) are run against the
   mutated code, and we record which check flagged it and by how much (z-score or relative error);
2. runs the same checks on the **unmutated** code (they must all pass there — a check that fails
   on correct code would be a false alarm, one that passes on every mutant would be useless);
3. **calibrates** the Monte Carlo agreement threshold: a set of real exact-vs-Monte-Carlo
   comparisons from the engines and papers is repeated under many seeds at small sizes, and the
   observed false-alarm rate is compared with the nominal :math:`\alpha` (Clopper–Pearson CI,
   exact binomial test, Kolmogorov–Smirnov test of the uniformity of the p-values).

Conventions
-----------
* A check returns a :class:`CheckResult` with ``passed`` and a ``statistic`` — the |z| of an
  exact-vs-Monte-Carlo comparison (two-sided z-test, :func:`theorycheck.montecarlo.compare`,
  threshold ``ALPHA = 1e-3``, i.e. |z| > 3.29) or the relative error of an identity
  (threshold stated per check, set by floating-point round-off, never widened to pass).
* Monte Carlo seeds are fixed per check (``SeedSequence`` via :mod:`theorycheck.montecarlo`),
  so a check's outcome is deterministic; its false-alarm rate at the nominal threshold is what
  :func:`calibrate` measures.
* A mutant is **caught** when at least one of its relevant checks fails *or raises* (an exception
  caused by the mutant counts as a detection and is reported as such). A check or mutant whose
  target module/function has not been written yet is reported as ``unavailable`` (never as
  caught).
* Everything written by :func:`write_selftest_report` / :func:`write_calibration_report` is a
  deterministic function of the code and the seeds (no timings, no dates), so ``reports/`` stays
  byte-identical between runs.

Command line: ``python -m theorycheck.selftest [--out reports] [--calibration-seeds 200]``
writes ``selftest.md``/``selftest.json`` and ``calibration.md``/``calibration.json``.

>>> r = run_check("montecarlo.known-values")
>>> r.passed
True
>>> m = MUTANTS_BY_ID["montecarlo-se-is-sd"]
>>> res = run_mutant(m, checks=["montecarlo.known-values"])
>>> res.caught, res.caught_by
(True, ['montecarlo.known-values'])
"""
from __future__ import annotations

import functools
import importlib
import json
import math
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
from scipy import stats

from .. import montecarlo as mc

__all__ = ["Patcher", "Check", "CheckResult", "Mutant", "MutantResult", "CHECKS", "MUTANTS",
           "MUTANTS_BY_ID", "run_check", "run_mutant", "run_selftest", "write_selftest_report",
           "calibrate", "write_calibration_report", "CALIBRATION_CASES", "write_all", "paper_level",
           "write_paper_level_report", "main", "ALPHA"]

ALPHA = 1e-3                      # per-comparison false-alarm rate of every Monte Carlo check
Z_CRIT = float(stats.norm.isf(ALPHA / 2))


from .patch import Patcher, clear_caches  # noqa: E402,F401


def _available(needs) -> tuple[bool, str]:
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
                "statistic": _r(self.statistic), "threshold": _r(self.threshold), "detail": self.detail,
                "error": self.error, "available": self.available}


def _r(x):
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


def check(name: str, area: str, kind: str, description: str, needs=()):
    """Decorator registering a consistency check (a function returning a :class:`CheckResult`
    or a tuple ``(passed, statistic, threshold, detail)``)."""
    def deco(fn):
        @functools.wraps(fn)
        def run() -> CheckResult:
            out = fn()
            if isinstance(out, CheckResult):
                out.name, out.kind = name, kind
                return out
            passed, stat, thr, detail = out
            return CheckResult(name, bool(passed), kind, float(stat), float(thr), detail)
        CHECKS[name] = Check(name, area, kind, description, run, tuple(needs))
        return fn
    return deco


def run_check(name: str) -> CheckResult:
    """Run one registered check; an exception becomes a failed result with the error text."""
    c = CHECKS[name]
    ok, missing = _available(c.needs)
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
    from .. import gaussian as g
    cov = _rand_cov(11, 4)
    return _identity([(f"E{idx}", g.moment(cov, idx), _haf_oracle(cov, idx)) for idx in _MOMENT_IDX],
                     1e-10, "moment vs enumeration")


@check("gaussian.moment-closed-forms", "gaussian", "identity",
       "exact SymPy moments: E[X^4] = 3s^4, E[X^6] = 15s^6, E[X^8] = 105s^8, "
       "E[X0^2 X1^2] = ab + 2c^2", needs=["theorycheck.gaussian:moment"])
def _chk_moment_closed():
    import sympy as sp
    from .. import gaussian as g
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
    from .. import gaussian as g
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
    import itertools
    from .. import gaussian as g
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
    from .. import gaussian as g
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
    from .. import gaussian as g
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
@dataclass
class Mutant:
    """A deliberate mistake: ``apply(p)`` installs it through a :class:`Patcher` ``p``."""

    id: str
    area: str
    paper: str                   # '000', '001', '004' or 'engine'
    mistake: str
    apply: Callable[[Patcher], None]
    checks: tuple
    needs: tuple = ()


MUTANTS: list[Mutant] = []


def mutant(id: str, area: str, paper: str, mistake: str, checks, needs=()):
    def deco(fn):
        MUTANTS.append(Mutant(id, area, paper, mistake, fn, tuple(checks), tuple(needs)))
        return fn
    return deco


# ------------------------------------------------------------------ gaussian mutants
_G_CHECKS = ("gaussian.moment-vs-enumeration", "gaussian.moment-closed-forms", "gaussian.moment-vs-mc",
             "gaussian.expect_product-vs-moment", "gaussian.expect_product-vs-mc",
             "gaussian.quadratic-form-cumulants")


@mutant("gaussian-drop-pairing", "gaussian", "engine",
        "Isserlis sum misses one perfect matching (the last one in lexicographic order) for "
        "orders >= 4", _G_CHECKS, needs=["theorycheck.gaussian:moment", "theorycheck.gaussian:pairings"])
def _m_drop_pairing(p: Patcher):
    from .. import gaussian as g
    orig = g.moment

    def moment(cov, idx):
        val = orig(cov, idx)
        idx = list(idx)
        if len(idx) < 4 or len(idx) % 2:
            return val
        last = g.pairings(len(idx))[-1]
        if isinstance(cov, np.ndarray) or not hasattr(cov, "free_symbols"):
            c = np.asarray(cov, dtype=float)
            term = np.prod([c[..., idx[i], idx[j]] for i, j in last], axis=0)
            return val - (float(term) if np.ndim(term) == 0 else term)
        import sympy as sp
        return sp.expand(val - sp.Mul(*[cov[idx[i], idx[j]] for i, j in last]))
    p.replace(g, "moment", moment)


@mutant("gaussian-multiplicity", "gaussian", "engine",
        "memoised Isserlis recursion forgets the multiplicity of a repeated index (pairs the first "
        "index with each *distinct* partner once)", _G_CHECKS, needs=["theorycheck.gaussian:moment"])
def _m_multiplicity(p: Patcher):
    from .. import gaussian as g
    orig = g.moment

    def moment(cov, idx):
        idx = tuple(int(i) for i in idx)
        if len(idx) % 2 or not idx:
            return orig(cov, idx)
        is_sym = not isinstance(cov, np.ndarray) and hasattr(cov, "free_symbols")
        c = cov if is_sym else np.asarray(cov, dtype=float)

        def rec(items):
            if not items:
                return 1
            first, rest = items[0], list(items[1:])
            tot = 0
            for j in sorted(set(rest)):          # BUG: distinct partners only, multiplicity lost
                r2 = list(rest)
                r2.remove(j)
                tot = tot + (c[first, j] if is_sym else c[..., first, j]) * rec(tuple(r2))
            return tot
        val = rec(idx)
        if is_sym:
            import sympy as sp
            return sp.expand(val)
        return float(val) if np.ndim(val) == 0 else np.asarray(val)
    p.replace(g, "moment", moment)


@mutant("gaussian-cycle-factor", "gaussian", "engine",
        "expect_product: cycle cumulant of r >= 2 quadratic forms without the 2^(r-1) leg-orientation "
        "factor (tr((SM)^r) instead of 2^(r-1) (r-1)! tr(...))",
        _G_CHECKS + ("lds.wqk-exact-vs-mc", "lds.moments-vs-mc"),
        needs=["theorycheck.gaussian:_Engine.kappa"])
def _m_cycle_factor(p: Patcher):
    from .. import gaussian as g
    orig = g._Engine.kappa

    def kappa(self, lmask, qmask):
        val = orig(self, lmask, qmask)
        r = bin(qmask).count("1")
        if lmask == 0 and r >= 2 and val is not None:
            return val / 2 ** (r - 1)
        return val
    p.setattr(g._Engine, "kappa", kappa)


@mutant("gaussian-path-factor", "gaussian", "engine",
        "expect_product: path cumulant a'S M S ... S b with 2^(r-1) instead of 2^r (one orientation "
        "factor short)", _G_CHECKS + ("lds.wqk-exact-vs-mc", "lds.moments-vs-mc"),
        needs=["theorycheck.gaussian:_Engine.kappa"])
def _m_path_factor(p: Patcher):
    from .. import gaussian as g
    orig = g._Engine.kappa

    def kappa(self, lmask, qmask):
        val = orig(self, lmask, qmask)
        r = bin(qmask).count("1")
        if bin(lmask).count("1") == 2 and r >= 1 and val is not None:
            return val / 2
        return val
    p.setattr(g._Engine, "kappa", kappa)


# ------------------------------------------------------------------ Monte Carlo mutants
_MC_CHECKS = ("montecarlo.known-values", "montecarlo.z-calibration", "montecarlo.ratio-calibration")


@mutant("montecarlo-se-is-sd", "montecarlo", "engine",
        "standard error reported as the sample standard deviation (SE = sd instead of sd/sqrt(n))",
        _MC_CHECKS)
def _m_se_sd(p: Patcher):
    def estimate(self, **meta):
        if self.n < 2:
            raise ValueError("need at least 2 samples for a standard error")
        m, se = self.mean, np.sqrt(self.var)                    # BUG: no / sqrt(n)
        if np.ndim(m) == 0:
            m, se = float(m), float(se)
        return mc.MeanEstimate(m, se, self.n, **meta)
    p.setattr(mc.RunningMean, "estimate", estimate)


@mutant("montecarlo-ddof0", "montecarlo", "engine",
        "sample variance with ddof = 0 (divides by n instead of n - 1)", _MC_CHECKS)
def _m_ddof0(p: Patcher):
    p.setattr(mc.RunningMean, "var", property(lambda self: self._m2 / self.n))


@mutant("montecarlo-se-over-n", "montecarlo", "engine",
        "standard error sd/n instead of sd/sqrt(n)", _MC_CHECKS)
def _m_se_n(p: Patcher):
    def estimate(self, **meta):
        m, se = self.mean, np.sqrt(self.var) / self.n            # BUG
        if np.ndim(m) == 0:
            m, se = float(m), float(se)
        return mc.MeanEstimate(m, se, self.n, **meta)
    p.setattr(mc.RunningMean, "estimate", estimate)


@mutant("montecarlo-one-sided-p", "montecarlo", "engine",
        "compare() uses a one-sided p-value Phi(-|z|) (doubles the false-alarm rate)", _MC_CHECKS)
def _m_one_sided(p: Patcher):
    orig = mc.compare

    def compare(exact, estimate, alpha=1e-3, se_floor=0.0):
        c = orig(exact, estimate, alpha=alpha, se_floor=se_floor)
        pv = float(stats.norm.sf(abs(c.z)))                     # BUG: one-sided
        return mc.Comparison(c.exact, c.mean, c.se, c.n, c.z, pv, c.alpha,
                             "disagree" if pv < c.alpha else "agree", c.rel_diff, c.extra)
    p.replace(mc, "compare", compare)


@mutant("montecarlo-ratio-se-sign", "montecarlo", "engine",
        "delta-method SE of a ratio with the covariance term's sign flipped (+2R Cov(a,b))", _MC_CHECKS)
def _m_ratio_sign(p: Patcher):
    def ratio(num, den=None, **meta):
        a, b = np.asarray(num, float), np.asarray(den, float)
        n = a.size
        ma, mb = a.mean(), b.mean()
        r = ma / mb
        cab = np.cov(a, b, ddof=1)[0, 1]
        var = max(a.var(ddof=1) + 2 * r * cab + r * r * b.var(ddof=1), 0.0) / (n * mb * mb)   # BUG
        return mc.MeanEstimate(float(r), float(math.sqrt(var)), n, **meta)
    p.replace(mc, "ratio", ratio)


# ------------------------------------------------------------------ Hermite engine
def _gauss_quad(fn) -> float:
    r""":math:`E[fn(g)]`, :math:`g\sim N(0,1)`, by ``scipy.integrate.quad`` split at 0 (independent of
    theorycheck.hermite; relative accuracy ~1e-12 for the smooth/kinked test functions used here)."""
    from scipy import integrate
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
    from .. import hermite as H
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
    import sympy as sp
    from .. import hermite as H
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
    from .. import hermite as H
    f = lambda x: x ** 3 - 2 * x ** 2 + x          # noqa: E731
    a = [float(v) for v in H.hermite_coefficients(f, 3)]
    ef2 = _gauss_quad(lambda x: f(x) ** 2)
    import sympy as sp
    st_ = H.stein_check(sp.tanh(sp.Symbol("g", real=True)))
    return _identity([("Parseval", sum(v * v for v in a), ef2),
                      ("Stein a1 vs E[f']", float(st_["a1"]), float(st_["e_fprime"]))],
                     1e-9, "Parseval and Stein")


class _SympyProxy:
    """The sympy module with one attribute replaced (used to inject a convention mistake into a
    single module's ``sp`` reference)."""

    def __init__(self, **override):
        import sympy
        self._sp, self._ov = sympy, override

    def __getattr__(self, name):
        return self._ov[name] if name in self._ov else getattr(self._sp, name)


_H_CHECKS = ("hermite.orthonormality", "hermite.coefficients-vs-quadrature", "hermite.parseval-stein")


@mutant("hermite-physicists", "hermite", "004",
        "physicists' Hermite H_m (mpmath/SymPy `hermite`) used where the probabilists' He_m is meant: "
        "h_m = H_m/sqrt(m!) in hermite_h and in the kink route", _H_CHECKS + (
            "nonlinear.rho-nl-vs-quadrature", "nonlinear.null-predictor-limit"),
        needs=["theorycheck.hermite:hermite_h"])
def _m_physicists(p: Patcher):
    import mpmath
    import sympy as sp
    from .. import hermite as H

    def hermite_h(m, x):
        m = int(m)
        if isinstance(x, sp.Basic):
            return sp.hermite(m, x) / sp.sqrt(sp.factorial(m))
        if isinstance(x, (mpmath.mpf, mpmath.mpc)):
            return mpmath.hermite(m, x) / mpmath.sqrt(mpmath.factorial(m))
        xa = np.asarray(x, dtype=float)
        c = np.zeros(m + 1)
        c[m] = 1.0
        out = np.polynomial.hermite.hermval(xa, c) / math.sqrt(math.factorial(m))
        return out if xa.ndim else float(out)
    p.replace(H, "hermite_h", hermite_h)
    p.setattr(H, "sp", _SympyProxy(hermite_prob=sp.hermite))


@mutant("hermite-no-sqrt-factorial", "hermite", "004",
        "coefficients of the unnormalised He_m: a_m = E[f He_m] (the 1/sqrt(m!) forgotten)", _H_CHECKS + (
            "nonlinear.rho-nl-vs-quadrature", "nonlinear.null-predictor-limit"),
        needs=["theorycheck.hermite:hermite_coefficients"])
def _m_no_sqrt_fact(p: Patcher):
    from .. import hermite as H
    orig = H.hermite_coefficients

    def hermite_coefficients(f, m_max, *a, **k):
        out = orig(f, m_max, *a, **k)
        import sympy as sp
        return [c * sp.sqrt(sp.factorial(m)) if isinstance(c, sp.Basic) else c * math.sqrt(math.factorial(m))
                for m, c in enumerate(out)]                    # BUG: E[f He_m], not E[f He_m]/sqrt(m!)
    p.replace(H, "hermite_coefficients", hermite_coefficients)


# ------------------------------------------------------------------ paper 004 (nonlinear teachers)
def _teacher_np(name):
    return {"sin": math.sin, "tanh": math.tanh, "relu": lambda x: max(x, 0.0), "abs": abs,
            "he2": lambda x: (x * x - 1) / math.sqrt(2), "cube": lambda x: x ** 3}[name]


@check("nonlinear.rho-nl-vs-quadrature", "nonlinear", "identity",
       "rho_nonlinear(f, rho) = rho + E[f^2] - (E[g f])^2 for sin, tanh, relu, |g|, He2 (includes m = 0), "
       "both moments by independent scipy quadrature; and the seed's sin value 0.164453 at rho = 0.1",
       needs=["theorycheck.nonlinear:rho_nonlinear"])
def _chk_rho_nl():
    from .. import nonlinear as N
    pairs = []
    for name in ("sin", "tanh", "relu", "abs", "he2"):
        fn = _teacher_np(name)
        ef2 = _gauss_quad(lambda x: fn(x) ** 2)
        a1 = _gauss_quad(lambda x: x * fn(x))
        pairs.append((f"rho_nl({name}, 0.1)", float(N.rho_nonlinear(name, 0.1)), 0.1 + ef2 - a1 * a1))
    ok, worst, tol, det = _identity(pairs, 1e-9, "rho_nl vs quadrature")
    seed_val = float(N.rho_nonlinear("sin", 0.1))
    if abs(seed_val - 0.164453) > 5e-7:
        return False, abs(seed_val - 0.164453) / 0.164453, tol, det + f"; sin: {seed_val:.7f} != seed 0.164453"
    return ok, worst, tol, det


@check("nonlinear.null-predictor-limit", "nonlinear", "limit",
       "tau -> 0 (no pretraining data, ridgeless): the fitted predictor vanishes, so e_ICL -> E[y^2] = "
       "rho + E[f(g)^2] for every teacher (a_1 != 0: Result 1; a_1 = 0: the a_1 = 0 branch); "
       "sin, relu, |g|, He2 at tau = 1e-7 (relative tolerance 1e-5: the error is O(tau)), alpha = 2, "
       "kappa in {2, inf}",
       needs=["theorycheck.nonlinear:e_icl_nonlinear"])
def _chk_null_limit():
    from .. import nonlinear as N
    pairs = []
    for name in ("sin", "relu", "abs", "he2"):
        fn = _teacher_np(name)
        ref = 0.1 + _gauss_quad(lambda x: fn(x) ** 2)
        for kappa in (2.0, math.inf):
            pairs.append((f"{name}, kappa={kappa}", N.e_icl_nonlinear(name, 1e-7, 2.0, kappa, 0.1), ref))
    return _identity(pairs, 1e-5, "e_ICL(tau -> 0) vs E[y^2]")


@check("nonlinear.ridge-to-ridgeless", "nonlinear", "limit",
       "lambda -> 0+ continuity: the ridge formulas at lambda = 1e-9 approach the ridgeless branches on both "
       "sides of tau = 1 (risk_a1_zero and e_icl_linear at tau in {0.5, 2}, alpha = 2, kappa = 3)",
       needs=["theorycheck.nonlinear:risk_a1_zero", "theorycheck.nonlinear:e_icl_linear"])
def _chk_ridge_limit():
    from .. import nonlinear as N
    pairs = []
    for tau in (0.5, 2.0):
        pairs.append((f"risk_a1_zero tau={tau}", N.risk_a1_zero(tau, 1.3, 2.0, 1e-9), N.risk_a1_zero(tau, 1.3, 2.0, 0.0)))
        pairs.append((f"e_icl_linear tau={tau}", N.e_icl_linear(tau, 2.0, 3.0, 0.1, 1e-9),
                      N.e_icl_linear(tau, 2.0, 3.0, 0.1, 0.0)))
    return _identity(pairs, 1e-5, "ridge(lambda = 1e-9) vs ridgeless")


@check("nonlinear.a1zero-teaching-numbers", "nonlinear", "known value",
       "seed teaching numbers of the a_1 = 0 branch: 2 rho_nl at tau = 0.5 and tau = 2, 10 rho_nl at tau = 0.9; "
       "and the risk is >= rho_nl (never below the noise floor)", needs=["theorycheck.nonlinear:risk_a1_zero"])
def _chk_teaching():
    from .. import nonlinear as N
    pairs = [(f"tau={t}", N.risk_a1_zero(t, 0.7), v * 0.7) for t, v in ((0.5, 2), (2.0, 2), (0.9, 10))]
    floor = min(N.risk_a1_zero(t, 0.7, 1.0, lam) / 0.7 for t in (0.3, 0.9, 1.5, 4.0) for lam in (0.0, 0.1))
    ok, worst, tol, det = _identity(pairs, 1e-9, "a1 = 0 teaching numbers")
    if floor < 1 - 1e-12:
        return False, math.inf, tol, det + f"; risk below the noise floor: min risk/rho_nl = {floor:.4g}"
    return ok, worst, tol, det


_NL_CHECKS = ("nonlinear.rho-nl-vs-quadrature", "nonlinear.null-predictor-limit", "nonlinear.ridge-to-ridgeless",
              "nonlinear.a1zero-teaching-numbers")


@mutant("nonlinear-rho-nl-omit-m0", "nonlinear", "004",
        "rho_nl = rho + sum_{m >= 2} a_m^2: the m = 0 term a_0^2 omitted (matters for relu, |g|)", _NL_CHECKS,
        needs=["theorycheck.nonlinear:rho_nonlinear", "theorycheck.nonlinear:teacher_moments"])
def _m_omit_m0(p: Patcher):
    from .. import nonlinear as N
    orig = N.rho_nonlinear

    def rho_nonlinear(f, rho):
        a0 = N.teacher_moments(f)["a0"]
        return orig(f, rho) - a0 ** 2
    p.replace(N, "rho_nonlinear", rho_nonlinear)


@mutant("nonlinear-a1zero-uses-rho", "nonlinear", "004",
        "a_1 = 0 branch evaluated with the label-noise rho instead of rho_nl", _NL_CHECKS,
        needs=["theorycheck.nonlinear:e_icl_nonlinear", "theorycheck.nonlinear:risk_a1_zero"])
def _m_a1zero_rho(p: Patcher):
    from .. import nonlinear as N
    orig = N.e_icl_nonlinear

    def e_icl_nonlinear(f, tau, alpha, kappa, rho, lam=0.0, **kw):
        if float(N.teacher_moments(f)["a1"]) == 0.0:
            return N.risk_a1_zero(tau, rho, alpha, lam)          # BUG: rho, not rho_nl
        return orig(f, tau, alpha, kappa, rho, lam, **kw)
    p.replace(N, "e_icl_nonlinear", e_icl_nonlinear)


@mutant("nonlinear-swap-ridgeless-branches", "nonlinear", "004",
        "ridgeless a_1 = 0 risk with the two branches swapped at tau = 1 (rho_nl tau/(tau-1) used for tau < 1, "
        "rho_nl/(1-tau) for tau > 1)", _NL_CHECKS, needs=["theorycheck.nonlinear:risk_a1_zero"])
def _m_swap_branches(p: Patcher):
    from .. import nonlinear as N
    orig = N.risk_a1_zero

    def risk_a1_zero(tau, rho_nl, alpha=1.0, lam=0.0):
        if lam == 0 and tau != 1 and rho_nl != 0:
            return float(rho_nl) * tau / (tau - 1) if tau < 1 else float(rho_nl) / (1 - tau)   # BUG: swapped
        return orig(tau, rho_nl, alpha, lam)
    p.replace(N, "risk_a1_zero", risk_a1_zero)


@mutant("nonlinear-rho-f-for-rho-nl", "nonlinear", "004",
        "Result 1 with the total label power rho_f = rho + E[f^2] as effective noise instead of "
        "rho_nl = rho_f - a_1^2 (the linear part counted twice)", _NL_CHECKS,
        needs=["theorycheck.nonlinear:rho_nonlinear", "theorycheck.nonlinear:rho_f"])
def _m_rho_f(p: Patcher):
    from .. import nonlinear as N
    p.replace(N, "rho_nonlinear", N.rho_f)


# ------------------------------------------------------------------ paper 001 (LDS)
_LDS_CASES = [  # (label, T, prior kwargs, MC samples, seed)
    ("d=1, a_max=0.9, T=6", 6, dict(d=1, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.3), 200_000, 3101),
    ("d=2, a_max=0.95, T=8", 8, dict(d=2, a_max=0.95, sigma0=1.0, sigma_w=0.5, sigma_v=0.3), 200_000, 3102),
]


@check("lds.wqk-exact-vs-mc", "lds", "exact vs Monte Carlo",
       "wqk_star (exact route: Isserlis moments averaged over the prior) vs simulate_wqk_star (trajectory "
       "Monte Carlo of the attention output, ratio of means with delta-method SE), setting (a), "
       "d = 1 (T = 6) and d = 2 (T = 8), 200 000 trajectories each",
       needs=["theorycheck.lds:wqk_star", "theorycheck.lds:simulate_wqk_star", "theorycheck.lds:DiagonalLDSPrior"])
def _chk_wqk():
    from .. import lds as L
    worst = None
    for lab, T, kw, n, seed in _LDS_CASES:
        prior = L.DiagonalLDSPrior(**kw)
        ex = L.wqk_star(T, prior)
        sim = L.simulate_wqk_star(T, prior, n, seed=seed)
        out = _mc_vs_exact(ex.value, mc.MeanEstimate(sim.value, sim.se, n), f"W_QK* {lab} ({ex.method})")
        if worst is None or out[1] > worst[1]:
            worst = out
    return worst


@check("lds.moments-vs-mc", "lds", "exact vs Monte Carlo",
       "per-system Theorem 4.1 moments N = E[y_{T-1} y_T S], D = E[y_{T-1}^2 S^2] (wqk_star_moments on "
       "lds_autocovariance) for one fixed system (d = 2, A = diag(0.9, -0.6), T = 8) vs Monte Carlo over "
       "simulate_lds trajectories with S summed in the check itself (n = 200 000)",
       needs=["theorycheck.lds:wqk_star_moments", "theorycheck.lds:lds_autocovariance", "theorycheck.lds:LDSBatch"])
def _chk_lds_moments():
    from .. import lds as L
    T = 8

    def system(B):
        return L.LDSBatch(np.broadcast_to(np.diag([0.9, -0.6]), (B, 2, 2)).copy(), np.ones((B, 2)),
                          np.broadcast_to(0.25 * np.eye(2), (B, 2, 2)).copy(), 1.0, 0.3)
    N, D = L.wqk_star_moments(L.lds_autocovariance(system(1), T))

    def sampler(rng, size):
        Y = L.simulate_lds(system(size), T, rng)
        S = np.sum(Y[:, :T - 2] * Y[:, 1:T - 1], axis=1)          # sum_{i=1}^{T-2} y_i y_{i+1}
        return np.stack([Y[:, T - 2] * Y[:, T - 1] * S, Y[:, T - 2] ** 2 * S ** 2], axis=1)
    est = mc.mean(sampler, 200_000, seed=3201, batch=50_000, progress=False)
    outs = [_mc_vs_exact(float(ex), mc.MeanEstimate(float(est.mean[i]), float(est.se[i]), est.n), lab)
            for i, (lab, ex) in enumerate((("N", N[0]), ("D", D[0])))]
    return max(outs, key=lambda o: o[1])


_LDS_CHECKS = ("lds.wqk-exact-vs-mc", "lds.moments-vs-mc")


@mutant("lds-drop-T-minus-2", "lds", "001",
        "W_QK* without the (T - 2) factor (the 1/(T-2) of the attention normalisation forgotten)", _LDS_CHECKS,
        needs=["theorycheck.lds:wqk_star"])
def _m_drop_t2(p: Patcher):
    import dataclasses
    from .. import lds as L
    orig = L.wqk_star

    def wqk_star(T, prior, *a, **k):
        w = orig(T, prior, *a, **k)
        return dataclasses.replace(w, value=w.value / (T - 2), se=w.se / (T - 2))
    p.replace(L, "wqk_star", wqk_star)


@mutant("lds-per-system-ratio", "lds", "001",
        "W_QK* as the prior average of per-system optimal ratios E_A[(T-2)N(A)/D(A)] instead of the ratio of "
        "expectations (T-2)E[N]/E[D]", _LDS_CHECKS,
        needs=["theorycheck.lds:wqk_star", "theorycheck.lds:per_system_ratio_average"])
def _m_per_system(p: Patcher):
    from .. import lds as L

    def wqk_star(T, prior, *a, **k):
        est = L.per_system_ratio_average(T, prior, n_systems=20_000, seed=0)
        return L.WqkStar(float(est.mean), float(est.se), est.n, "per-system-average", T)
    p.replace(L, "wqk_star", wqk_star)


@mutant("lds-lag-range", "lds", "001",
        "lag-1 statistic summed over i = 1..T-1 instead of 1..T-2 (S then contains the target y_T)", _LDS_CHECKS,
        needs=["theorycheck.lds:lag1_matrix"])
def _m_lag_range(p: Patcher):
    from .. import gaussian as g
    from .. import lds as L

    def lag1_matrix(T):
        return g.quadratic_form_matrix([(i, i + 1) for i in range(T - 1)], T)   # BUG: one pair too many
    p.replace(L, "lag1_matrix", lag1_matrix)


# ------------------------------------------------------------------ paper 000 (GLA)
_GLA_CASES = [  # (label, lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise, MC samples, seed)
    ("Lambda = I_2", 0.7, 0.9, 8, np.eye(2), 1.0, 0.1, 0.05, 100_000, 4101),
    ("Lambda = diag(2, .5, 1)", 0.6, 0.8, 6, np.diag([2.0, 0.5, 1.0]), 1.0, 0.2, 0.1, 100_000, 4102),
]


@check("gla.train-error-vs-simulation", "gla", "exact vs Monte Carlo",
       "exact train error (train_error for Lambda = I, train_error_general otherwise) vs simulate_gla: the "
       "actual recursion S_i = lam S_{i-1} + v_i k_i' run with the optimal embedded W_KQ, W_V "
       "(optimal_parameters), 100 000 prompts per case, MSE not halved",
       needs=["theorycheck.gla:train_error", "theorycheck.gla:simulate_gla", "theorycheck.gla:train_error_general"])
def _chk_gla_train():
    from .. import gla as G
    worst = None
    for lab, lam, gam, n, L, sw, se, noise, ns, seed in _GLA_CASES:
        d = L.shape[0]
        ex = G.train_error(lam, gam, n, d, sw, se, noise) if np.allclose(L, np.eye(d)) else \
            G.train_error_general(lam, gam, n, L, sw, se, noise)
        est = G.simulate_gla(lam, gam, n, L, sw, se, noise, n_samples=ns, seed=seed)
        out = _mc_vs_exact(ex, est, f"train error, {lab}")
        if worst is None or out[1] > worst[1]:
            worst = out
    return worst


@check("gla.population-loss-vs-simulation", "gla", "exact vs Monte Carlo",
       "population_loss(Gamma) at a fixed, non-optimal Gamma (seeded random 2x2; lam = 0.6, gamma = 0.9, n = 8) vs "
       "simulate_gla with that Gamma embedded in W_KQ, W_V (100 000 prompts)",
       needs=["theorycheck.gla:population_loss", "theorycheck.gla:simulate_gla"])
def _chk_gla_poploss():
    from .. import gla as G
    rng = np.random.default_rng(4200)
    Gam = 0.15 * rng.standard_normal((2, 2)) + 0.1 * np.eye(2)
    WV = np.zeros((3, 3))
    WV[2, 2] = 1.0
    WKQ = np.zeros((3, 3))
    WKQ[:2, :2] = Gam.T
    ex = G.population_loss(Gam, 0.6, 0.9, 8, np.eye(2), 1.0, 0.1, 0.05)
    est = G.simulate_gla(0.6, 0.9, 8, np.eye(2), 1.0, 0.1, 0.05, W_KQ=WKQ, W_V=WV, n_samples=100_000, seed=4201)
    return _mc_vs_exact(ex, est, "population loss at fixed Gamma")


@check("gla.zfb-limit", "gla", "limit",
       "lam = gamma = 1, sigma_e = noise = 0, sigma_w = 1 reproduces Zhang-Frei-Bartlett (JMLR 2024): training "
       "MSE d(d+1)/(N+d+1) for Lambda = I (d = 3, N = 20; d = 5, N = 7) and Lambda-tilde = (1+1/N) Lambda + "
       "tr(Lambda)/N I for Lambda = diag(2, .5, 1)",
       needs=["theorycheck.gla:train_error", "theorycheck.gla:effective_covariance"])
def _chk_zfb():
    from .. import gla as G
    pairs = [(f"train error d={d}, N={N}", G.train_error(1.0, 1.0, N, d, 1.0, 0.0), d * (d + 1) / (N + d + 1))
             for d, N in ((3, 20), (5, 7))]
    L = np.diag([2.0, 0.5, 1.0])
    N = 10
    Lt = G.effective_covariance(1.0, 1.0, N, L, 1.0, 0.0)
    ref = (1 + 1 / N) * L + np.trace(L) / N * np.eye(3)
    pairs += [(f"Lambda-tilde[{i},{j}] + 1", Lt[i, j] + 1, ref[i, j] + 1) for i in range(3) for j in range(3)]
    return _identity(pairs, 1e-10, "Zhang-Frei-Bartlett limit")


@check("gla.optimality", "gla", "identity",
       "the optimum is an optimum: population_loss(Gamma*) equals train_error_general, and 20 seeded random "
       "perturbations of Gamma* (size 1e-3) never lower the exact loss; the train error is >= the "
       "irreducible floor sigma_e^2 tr(Lambda) + noise",
       needs=["theorycheck.gla:optimal_parameters", "theorycheck.gla:population_loss",
              "theorycheck.gla:irreducible_floor"])
def _chk_gla_opt():
    from .. import gla as G
    L = np.diag([2.0, 0.5, 1.0])
    args = (0.6, 0.8, 6, L, 1.0, 0.2, 0.1)
    o = G.optimal_parameters(*args)
    base = G.population_loss(o.Gamma, *args)
    ref = G.train_error_general(*args)
    rng = np.random.default_rng(4300)
    drops = [base - G.population_loss(o.Gamma + 1e-3 * rng.standard_normal((3, 3)), *args) for _ in range(20)]
    ok, worst, tol, det = _identity([("L(Gamma*) vs train_error_general", base, ref)], 1e-10, "GLA optimality")
    if max(drops) > 1e-12 * abs(base):
        return False, max(drops) / abs(base), tol, det + f"; a perturbation lowers the loss by {max(drops):.3g}"
    floor = G.irreducible_floor(L, 0.2, 0.1)
    if ref < floor * (1 - 1e-12):
        return False, (floor - ref) / floor, tol, det + f"; train error {ref:.6g} below the floor {floor:.6g}"
    return ok, worst, tol, det


_GLA_CHECKS = ("gla.train-error-vs-simulation", "gla.population-loss-vs-simulation", "gla.zfb-limit",
               "gla.optimality")


@mutant("gla-exponent-shift", "gla", "000",
        "GLA weights lam^(n-i) instead of lam^(n+1-i) in the exact moment sums (D1 -> D1/lam, B, A2, N0 -> "
        "./lam^2); the train error is invariant (a uniform rescaling absorbed by Gamma) but Gamma* and the "
        "loss at a fixed Gamma are not", _GLA_CHECKS, needs=["theorycheck.gla:moment_sums", "theorycheck.gla:GLASums"])
def _m_gla_shift(p: Patcher):
    from .. import gla as G
    orig = G.moment_sums

    def moment_sums(lam, gamma, n, sigma_w2, sigma_e2, method="auto"):
        s = orig(lam, gamma, n, sigma_w2, sigma_e2, method)
        return G.GLASums(s.D1 / lam, s.B / lam ** 2, s.A2 / lam ** 2, s.N0 / lam ** 2, s.s_q, s.method)
    p.replace(G, "moment_sums", moment_sums)


@mutant("gla-sim-gate-order", "gla", "000",
        "simulator applies the gate after the update, S_i = lam (S_{i-1} + v_i k_i') (weights lam^(n+2-i))",
        _GLA_CHECKS, needs=["theorycheck.gla:_gla_forward"])
def _m_gla_sim(p: Patcher):
    from .. import gla as G
    orig = G._gla_forward

    def _gla_forward(X, Y, lam, W_KQ, W_V):
        return lam * orig(X, Y, lam, W_KQ, W_V)          # == the recursion with the gate after the update
    p.replace(G, "_gla_forward", _gla_forward)


@mutant("gla-halved-loss", "gla", "000",
        "train error reported as the halved loss E[(y_hat - y)^2]/2 where the unhalved MSE is meant", _GLA_CHECKS,
        needs=["theorycheck.gla:train_error"])
def _m_gla_halved(p: Patcher):
    from .. import gla as G
    orig = G.train_error

    def train_error(lam, gamma, n, d, sigma_w2, sigma_e2, noise=0.0, halved=False):
        return orig(lam, gamma, n, d, sigma_w2, sigma_e2, noise, halved=True)     # BUG: always halved
    p.replace(G, "train_error", train_error)


@mutant("gla-lambda-tilde-sign", "gla", "000",
        "sign error in the effective covariance: (1 + B/A2) Lambda - (B tr Lambda + noise N0)/A2 I (at lam = gamma = 1 "
        "the Zhang-Frei-Bartlett (1+1/N) Lambda + tr(Lambda)/N I with the wrong sign)", _GLA_CHECKS,
        needs=["theorycheck.gla:effective_covariance", "theorycheck.gla:moment_sums"])
def _m_gla_sign(p: Patcher):
    from .. import gla as G

    def effective_covariance(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0):
        L = np.asarray(Lambda, dtype=float)
        s = G.moment_sums(lam, gamma, n, sigma_w2, sigma_e2)
        kappa = s.B * float(np.trace(L)) + noise * s.N0
        return (1.0 + s.B / s.A2) * L - (kappa / s.A2) * np.eye(L.shape[0])       # BUG: sign
    p.replace(G, "effective_covariance", effective_covariance)


@mutant("gla-D2-d-factor", "gla", "000",
        "finite-d factor: D2 = A2 + d B instead of A2 + (d + 1) B in the train error (the x_{n+1} fourth-moment "
        "term forgotten)", _GLA_CHECKS, needs=["theorycheck.gla:_gen"])
def _m_gla_d2(p: Patcher):
    from .. import gla as G

    def train_error_from_sums(D1, B, A2, N0, s_q, d, noise):
        return d * s_q + noise - d * D1 ** 2 / (A2 + d * B + noise * N0)               # BUG: d, not d + 1
    p.setattr(G._gen, "train_error_from_sums", train_error_from_sums)


# =========================================================================== running
@dataclass
class MutantResult:
    id: str
    area: str
    paper: str
    mistake: str
    available: bool
    caught: bool
    caught_by: list = field(default_factory=list)
    results: list = field(default_factory=list)
    note: str = ""

    def as_dict(self) -> dict:
        return {"id": self.id, "area": self.area, "paper": self.paper, "mistake": self.mistake,
                "available": self.available, "caught": self.caught, "caught_by": self.caught_by,
                "note": self.note, "results": [r.as_dict() for r in self.results]}


MUTANTS_BY_ID: dict[str, Mutant] = {}


def _index():
    MUTANTS_BY_ID.clear()
    MUTANTS_BY_ID.update({m.id: m for m in MUTANTS})


def run_mutant(m: Mutant | str, checks=None) -> MutantResult:
    """Apply mutant ``m``, run its checks (or ``checks``), restore the code; return the outcome."""
    if isinstance(m, str):
        m = MUTANTS_BY_ID[m]
    names = list(checks if checks is not None else m.checks)
    ok, missing = _available(m.needs)
    if not ok:
        return MutantResult(m.id, m.area, m.paper, m.mistake, False, False,
                            note=f"not available yet: {missing}")
    results = []
    with Patcher() as p:
        try:
            m.apply(p)
        except Exception as e:  # noqa: BLE001
            return MutantResult(m.id, m.area, m.paper, m.mistake, False, False,
                                note=f"could not be applied: {type(e).__name__}: {e}")
        for name in names:
            results.append(run_check(name))
    avail = [r for r in results if r.available]
    caught_by = [r.name for r in avail if not r.passed]
    note = "" if avail else "none of its checks is available yet"
    return MutantResult(m.id, m.area, m.paper, m.mistake, bool(avail), bool(caught_by), caught_by, results,
                        note)


def run_selftest(mutants=None, progress: bool = False) -> dict:
    """Run every check on the unmutated code, then every mutant; return a JSON-ready dict."""
    _index()
    clean = [run_check(n) for n in CHECKS]
    muts = [run_mutant(m) for m in (mutants or MUTANTS)]
    avail = [r for r in muts if r.available]
    return {
        "alpha": ALPHA, "z_crit": _r(Z_CRIT),
        "checks": [{"name": c.name, "area": c.area, "kind": c.kind, "description": c.description}
                   for c in CHECKS.values()],
        "clean": [r.as_dict() for r in clean],
        "clean_all_pass": all(r.passed for r in clean),
        "mutants": [r.as_dict() for r in muts],
        "summary": {"mutants": len(muts), "available": len(avail), "caught": sum(r.caught for r in avail),
                    "missed": [r.id for r in avail if not r.caught],
                    "unavailable": [r.id for r in muts if not r.available]},
    }


#: Checks that exist because a first version of the catalogue had a mutant no check caught.
ADDED_CHECKS = {
    "lds.moments-vs-mc": "added after `lds-lag-range` escaped `lds.wqk-exact-vs-mc`: summing the lag-1 statistic "
                         "to T-1 moves W_QK* by only ~6 % (|z| = 2.5 < 3.29 with 200 000 trajectories) but the "
                         "per-system moment N by ~40 %; the per-system moments are now checked directly.",
    "gla.population-loss-vs-simulation": "strengthened (lam 0.8 -> 0.6) because its detection of "
                                         "`gla-exponent-shift` was marginal (|z| = 4.1). That mutant is invisible "
                                         "to the train error itself (a uniform rescaling of the GLA weights is "
                                         "absorbed by Gamma*); only checks that use Gamma* or a fixed Gamma with "
                                         "the simulated recursion see it (now |z| ~ 15).",
    "nonlinear.null-predictor-limit": "written for `nonlinear-a1zero-uses-rho`, which no identity of rho_nl or of "
                                      "risk_a1_zero alone can catch (both functions stay correct; the mistake is "
                                      "which noise the a_1 = 0 branch of e_icl_nonlinear passes on); the limit "
                                      "tau -> 0, e_ICL -> E[y^2], reaches every branch of Result 1.",
}


def _cell(text: str) -> str:
    """Markdown table cell: escape the pipe."""
    return str(text).replace("|", "\\|").replace("\n", " ")


def _fmt_stat(r: dict) -> str:
    if r.get("error"):
        return "raised"
    s = r["statistic"]
    if r["kind"] == "exact vs Monte Carlo":
        return f"|z| = {s}" if not isinstance(s, str) else f"|z| = {s}"
    return f"err = {s}"


def write_selftest_report(out, data: dict | None = None) -> list[Path]:
    """Write ``out/selftest.md`` and ``out/selftest.json`` (deterministic); return the paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    data = data if data is not None else run_selftest()
    s = data["summary"]
    L = ["# Self-test: does the suite catch wrong formulas?", "",
         "Generated by `python -m theorycheck.selftest` (module `theorycheck.selftest`). Each mutant is a "
         "deliberate, realistic mistake applied by monkeypatching the real code path for one run "
         "(never written to the source); the consistency checks below are then run against the "
         "mutated code. A mutant is **caught** when at least one check fails (or raises). Monte Carlo "
         f"checks are two-sided z-tests at alpha = {ALPHA:g} (|z| > {Z_CRIT:.2f}); identities fail "
         "above the stated relative error. All seeds are fixed, so this table is reproducible.", "",
         f"**Catch rate: {s['caught']} / {s['available']}** available mutants caught"
         + (f"; missed: {', '.join(s['missed'])}" if s["missed"] else "")
         + (f"; not yet available: {', '.join(s['unavailable'])}" if s["unavailable"] else "") + ".", "",
         f"Unmutated code: {'all checks pass' if data['clean_all_pass'] else 'SOME CHECKS FAIL'} "
         f"({sum(r['passed'] for r in data['clean'] if r['available'])} / "
         f"{sum(r['available'] for r in data['clean'])} available checks pass).", "",
         "## Mutants", "",
         "| mutant | paper | mistake | caught | caught by (size of the violation) |",
         "|---|---|---|---|---|"]
    for r in data["mutants"]:
        if not r["available"]:
            L.append(f"| `{r['id']}` | {r['paper']} | {_cell(r['mistake'])} | n/a | {_cell(r['note'])} |")
            continue
        by = "; ".join(f"`{x['name']}` ({_fmt_stat(x)})" for x in r["results"] if x["available"] and not x["passed"])
        L.append(f"| `{r['id']}` | {r['paper']} | {_cell(r['mistake'])} | {'**yes**' if r['caught'] else '**NO**'} | "
                 f"{_cell(by) or '—'} |")
    L += ["", "## Checks on the unmutated code", "", "| check | kind | passes | statistic (threshold) | detail |",
          "|---|---|---|---|---|"]
    for r in data["clean"]:
        if not r["available"]:
            L.append(f"| `{r['name']}` | {r['kind']} | n/a | | {_cell(r['detail'])} |")
            continue
        L.append(f"| `{r['name']}` | {r['kind']} | {'yes' if r['passed'] else '**NO**'} | "
                 f"{r['statistic']} ({r['threshold']}) | {_cell(r['detail'])} {_cell(r['error'])} |")
    L += ["", "## Checks added or strengthened because a mutant escaped (or nearly did)", ""]
    L += [f"- `{k}`: {v}" for k, v in ADDED_CHECKS.items()]
    L += ["", "## What each check does", ""]
    for c in data["checks"]:
        L.append(f"- `{c['name']}` ({c['kind']}): {c['description']}")
    L += ["", "## Detail per mutant", ""]
    for r in data["mutants"]:
        if not r["available"]:
            continue
        L.append(f"### `{r['id']}`")
        L.append("")
        L.append(r["mistake"])
        L.append("")
        for x in r["results"]:
            if not x["available"]:
                continue
            flag = "FLAGGED" if not x["passed"] else "passes"
            L.append(f"- `{x['name']}`: {flag} — {x['detail'].replace('|', '/')} {x['error']}".rstrip())
        L.append("")
    md = out / "selftest.md"
    md.write_text("\n".join(L).rstrip() + "\n", encoding="utf-8")
    js = out / "selftest.json"
    js.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return [md, js]


# =========================================================================== calibration
@dataclass
class CalibrationCase:
    """One real exact-vs-Monte-Carlo comparison, re-run under many seeds.

    ``run(seed) -> Comparison`` must draw its randomness only from ``seed``.
    """

    name: str
    description: str
    run: Callable[[int], "mc.Comparison"]
    needs: tuple = ()


CALIBRATION_CASES: list[CalibrationCase] = []


def calibration_case(name: str, description: str, needs=()):
    def deco(fn):
        CALIBRATION_CASES.append(CalibrationCase(name, description, fn, tuple(needs)))
        return fn
    return deco


@calibration_case("gaussian.moment E[X0^2 X1 X2]", "gaussian.moment vs mean of the product, 3x3 "
                  "covariance, n = 2000 (a heavy-tailed 4th-order product)", needs=["theorycheck.gaussian:moment"])
def _cal_moment(seed):
    from .. import gaussian as g
    cov = _rand_cov(12, 3)
    L = np.linalg.cholesky(cov)
    est = mc.mean(lambda rng, size: np.prod((rng.standard_normal((size, 3)) @ L.T)[:, [0, 0, 1, 2]], axis=1),
                  2000, seed=seed, batch=2000, progress=False)
    return mc.compare(g.moment(cov, (0, 0, 1, 2)), est)


@calibration_case("gaussian.expect_product E[y_5^2 S^2]", "LDS-shaped 6th-order moment (AR(1)+noise, "
                  "T = 6) vs Monte Carlo, n = 4000", needs=["theorycheck.gaussian:expect_product"])
def _cal_ep(seed):
    from .. import gaussian as g
    T = 6
    K = _lds_autocov(T)
    L = np.linalg.cholesky(K)
    M = g.quadratic_form_matrix([(i, i + 1) for i in range(T - 2)], T)
    e = np.eye(T)

    def sampler(rng, size):
        y = rng.standard_normal((size, T)) @ L.T
        S = np.sum(y[:, :T - 2] * y[:, 1:T - 1], axis=1)
        return y[:, 4] ** 2 * S ** 2
    est = mc.mean(sampler, 4000, seed=seed, batch=4000, progress=False)
    return mc.compare(g.expect_product(K, [e[4], e[4]], [M, M]), est)


@calibration_case("gla.train_error vs simulate_gla", "exact GLA train error (Lambda = I_2, lam = 0.7, gamma = 0.9, "
                  "n = 8, noise 0.05) vs the simulated recursion with the optimal weights, n = 2000 prompts",
                  needs=["theorycheck.gla:train_error", "theorycheck.gla:simulate_gla"])
def _cal_gla(seed):
    from .. import gla as G
    est = G.simulate_gla(0.7, 0.9, 8, np.eye(2), 1.0, 0.1, 0.05, n_samples=2000, seed=seed, batch=2000)
    return mc.compare(G.train_error(0.7, 0.9, 8, 2, 1.0, 0.1, 0.05), est)


def _cal_lds_n(n):
    def run(seed):
        from .. import lds as L
        prior = L.DiagonalLDSPrior(d=1, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.3)
        sim = L.simulate_wqk_star(6, prior, n, seed=seed, batch=min(n, 20_000))
        return mc.compare(L.wqk_star(6, prior).value, mc.MeanEstimate(sim.value, sim.se, sim.n_systems))
    return run


for _n in (4000, 40_000):
    calibration_case(f"lds.wqk_star vs simulate_wqk_star (n = {_n})",
                     "exact W_QK* (setting a, d = 1, a_max = 0.9, T = 6) vs trajectory Monte Carlo (ratio of means "
                     f"of heavy-tailed 4th/6th-order products, delta-method SE), n = {_n} trajectories",
                     needs=["theorycheck.lds:wqk_star", "theorycheck.lds:simulate_wqk_star"])(_cal_lds_n(_n))


@calibration_case("lds per-system moment N vs Monte Carlo", "exact N = E[y_{T-1} y_T S] for one fixed system "
                  "(d = 2, T = 8) vs the mean over 2000 simulated trajectories",
                  needs=["theorycheck.lds:wqk_star_moments", "theorycheck.lds:simulate_lds"])
def _cal_lds_moment(seed):
    from .. import lds as L
    T = 8

    def system(B):
        return L.LDSBatch(np.broadcast_to(np.diag([0.9, -0.6]), (B, 2, 2)).copy(), np.ones((B, 2)),
                          np.broadcast_to(0.25 * np.eye(2), (B, 2, 2)).copy(), 1.0, 0.3)
    N, _ = L.wqk_star_moments(L.lds_autocovariance(system(1), T))

    def sampler(rng, size):
        Y = L.simulate_lds(system(size), T, rng)
        return Y[:, T - 2] * Y[:, T - 1] * np.sum(Y[:, :T - 2] * Y[:, 1:T - 1], axis=1)
    return mc.compare(float(N[0]), mc.mean(sampler, 2000, seed=seed, batch=2000, progress=False))


@calibration_case("nonlinear rho_nl vs Monte Carlo", "rho_nonlinear(relu, 0.1) = E[(f(g) + eps - a_1 g)^2] vs "
                  "the Monte Carlo mean over 2000 draws of (g, eps)", needs=["theorycheck.nonlinear:rho_nonlinear"])
def _cal_rho_nl(seed):
    from .. import nonlinear as N
    a1 = 0.5                                          # E[g relu(g)] = 1/2

    def sampler(rng, size):
        g, e = rng.standard_normal((2, size))
        return (np.maximum(g, 0.0) + math.sqrt(0.1) * e - a1 * g) ** 2
    return mc.compare(float(N.rho_nonlinear("relu", 0.1)), mc.mean(sampler, 2000, seed=seed, batch=2000,
                                                                    progress=False))


def _binom_ci(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Clopper–Pearson interval."""
    a = 1 - level
    lo = 0.0 if k == 0 else float(stats.beta.ppf(a / 2, k, n - k + 1))
    hi = 1.0 if k == n else float(stats.beta.ppf(1 - a / 2, k + 1, n - k))
    return lo, hi


CAL_ALPHAS = (0.1, 0.05, 0.01, 1e-3)


def calibrate(seeds: int = 200, cases=None, base_seed: int = 900_000) -> dict:
    """Re-run each calibration case under ``seeds`` seeds; observed vs nominal false-alarm rates.

    For each case and each nominal alpha in :data:`CAL_ALPHAS`: the number of seeds with
    p < alpha, the observed rate with its 95% Clopper–Pearson CI and the exact two-sided binomial
    test p-value; plus a KS test of the uniformity of the p-values and the mean/variance of z.
    """
    out = {"seeds": seeds, "base_seed": base_seed, "alphas": list(CAL_ALPHAS), "cases": []}
    pooled = {a: [0, 0] for a in CAL_ALPHAS}
    for case in (cases or CALIBRATION_CASES):
        ok, missing = _available(case.needs)
        if not ok:
            out["cases"].append({"name": case.name, "description": case.description, "available": False,
                                 "note": f"not available yet: {missing}"})
            continue
        ps, zs = [], []
        for s in range(seeds):
            c = case.run(base_seed + s)
            ps.append(c.p_value)
            zs.append(c.z)
        ps, zs = np.array(ps), np.array(zs)
        rows = []
        for a in CAL_ALPHAS:
            k = int(np.sum(ps < a))
            lo, hi = _binom_ci(k, seeds)
            bt = float(stats.binomtest(k, seeds, a).pvalue)
            rows.append({"alpha": a, "alarms": k, "rate": _r(k / seeds), "ci95": [_r(lo), _r(hi)],
                         "binom_p": _r(bt)})
            pooled[a][0] += k
            pooled[a][1] += seeds
        ks = stats.kstest(ps, "uniform")
        out["cases"].append({"name": case.name, "description": case.description, "available": True,
                             "rows": rows, "ks_p": _r(ks.pvalue), "z_mean": _r(zs.mean()),
                             "z_var": _r(zs.var(ddof=1)), "max_abs_z": _r(np.max(np.abs(zs)))})
    prow = []
    for a, (k, n) in pooled.items():
        if n:
            lo, hi = _binom_ci(k, n)
            prow.append({"alpha": a, "alarms": k, "n": n, "rate": _r(k / n), "ci95": [_r(lo), _r(hi)],
                         "binom_p": _r(float(stats.binomtest(k, n, a).pvalue))})
    out["pooled"] = prow
    return out


def write_calibration_report(out, data: dict | None = None, seeds: int = 200) -> list[Path]:
    """Write ``out/calibration.md`` and ``out/calibration.json``; return the paths."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    data = data if data is not None else calibrate(seeds)
    L = ["# False-alarm calibration of the exact-vs-Monte-Carlo comparisons", "",
         "Generated by `python -m theorycheck.selftest` (`theorycheck.selftest.calibrate`). Each comparison "
         f"below is a real exact-vs-Monte-Carlo check of the toolkit, re-run under {data['seeds']} seeds "
         f"(SeedSequence seeds {data['base_seed']}..{data['base_seed'] + data['seeds'] - 1}) at small sizes, "
         "with the exact value correct. Every alarm is therefore a false alarm; its rate should match "
         "the nominal alpha of the two-sided z-test (`theorycheck.montecarlo.compare`). CI: 95% "
         "Clopper–Pearson; binomial p: exact two-sided test of rate = alpha; KS p: uniformity of the "
         "p-values.", ""]
    bad, good = [], []
    for c in data["cases"]:
        if not c.get("available", True):
            continue
        worst = min([r["binom_p"] for r in c["rows"]] + [c["ks_p"]])
        (bad if worst < 1e-3 else good).append((c["name"], c["z_var"], worst))
    L += ["## Summary", ""]
    L.append("Consistent with the nominal rate (every binomial and KS p >= 1e-3): "
             + (", ".join(f"`{n}`" for n, _, _ in good) or "none") + ".")
    L.append("")
    L.append("**Not** consistent (some p < 1e-3; the z-test is anti-conservative there — its SE understates the "
             "spread, typically a ratio or heavy-tailed estimator at too small n): "
             + (", ".join(f"`{n}` (z variance {v}, smallest p {p_})" for n, v, p_ in bad) or "none") + ".")
    L.append("")
    for c in data["cases"]:
        L += [f"## {c['name']}", "", c["description"], ""]
        if not c.get("available", True):
            L += [c["note"], ""]
            continue
        L += [f"z: mean {c['z_mean']}, variance {c['z_var']} (ideal 0, 1), max |z| {c['max_abs_z']}; "
              f"KS p = {c['ks_p']}.", "",
              "| nominal alpha | false alarms | observed rate | 95% CI | binomial p |", "|---|---|---|---|---|"]
        for r in c["rows"]:
            L.append(f"| {r['alpha']:g} | {r['alarms']} / {data['seeds']} | {r['rate']} | "
                     f"[{r['ci95'][0]}, {r['ci95'][1]}] | {r['binom_p']} |")
        L.append("")
    if data.get("pooled"):
        L += ["## Pooled over all cases", "", "| nominal alpha | false alarms | observed rate | 95% CI | binomial p |",
              "|---|---|---|---|---|"]
        for r in data["pooled"]:
            L.append(f"| {r['alpha']:g} | {r['alarms']} / {r['n']} | {r['rate']} | [{r['ci95'][0]}, {r['ci95'][1]}] "
                     f"| {r['binom_p']} |")
        L.append("")
    md = out / "calibration.md"
    md.write_text("\n".join(L).rstrip() + "\n", encoding="utf-8")
    js = out / "calibration.json"
    js.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return [md, js]


# =========================================================================== paper-level detection
PAPER_KEYS = {"000": "gla", "001": "lds", "004": "nonlinear"}


def _disagreements(obj, path=""):
    """Paths of every exact-vs-Monte-Carlo comparison with verdict 'disagree' in an evidence tree."""
    if isinstance(obj, dict):
        if obj.get("verdict") == "disagree":
            yield path
        for k, v in obj.items():
            yield from _disagreements(v, f"{path}/{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _disagreements(v, f"{path}[{i}]")


def _ledger_summary(led) -> dict:
    out = {}
    for c in led.claims:
        d = c.as_dict()
        out[c.id] = {"verdict": c.verdict, "disagree": sorted(set(_disagreements(d["evidence"])))}
    return out


def paper_level(mutants=None, seed: int | None = None, progress: bool = True) -> dict:
    """Does the *paper's own ledger* notice each paper mutant?

    For every mutant of papers 000/001/004 the paper's ``build(ctx)`` (quick sizes, fixed seed) is run
    under the mutant and compared with the clean build: the mutant is noticed when a claim's verdict
    changes, a new exact-vs-Monte-Carlo disagreement appears in the evidence, or the build raises.
    Minutes per paper (slow; not part of the main job)."""
    import tempfile
    from . import papers
    from .context import DEFAULT_SEED, RunContext
    _index()
    seed = DEFAULT_SEED if seed is None else seed
    muts = [m for m in (mutants or MUTANTS) if m.paper in PAPER_KEYS]
    out = {"seed": seed, "mode": "quick", "papers": {}, "mutants": []}
    with tempfile.TemporaryDirectory(prefix="tc_selftest_") as tmp:
        def build(key):
            ctx = RunContext(mode="quick", seed=seed, out=Path(tmp) / key, progress=False)
            return papers.load(key).build(ctx)
        clean = {}
        for key in sorted({PAPER_KEYS[m.paper] for m in muts}):
            if progress:
                print(f"paper-level: clean build of {key} ...", file=sys.stderr, flush=True)
            try:
                clean[key] = _ledger_summary(build(key))
            except Exception as e:  # noqa: BLE001
                out["papers"][key] = f"clean build failed: {type(e).__name__}: {e}"
        for m in muts:
            key = PAPER_KEYS[m.paper]
            rec = {"id": m.id, "paper": m.paper, "key": key, "mistake": m.mistake}
            ok, missing = _available(m.needs)
            if key not in clean or not ok:
                rec.update(available=False, note=out["papers"].get(key) or f"not available: {missing}")
                out["mutants"].append(rec)
                continue
            if progress:
                print(f"paper-level: {m.id} on {key} ...", file=sys.stderr, flush=True)
            with Patcher() as p:
                m.apply(p)
                try:
                    mut = _ledger_summary(build(key))
                    err = ""
                except Exception as e:  # noqa: BLE001 - a crash under a mutant is a detection
                    mut, err = {}, f"{type(e).__name__}: {str(e)[:200]}"
            flips = [(cid, clean[key][cid]["verdict"], v["verdict"]) for cid, v in mut.items()
                     if cid in clean[key] and v["verdict"] != clean[key][cid]["verdict"]]
            new_dis = [(cid, pth) for cid, v in mut.items() for pth in v["disagree"]
                       if pth not in clean[key].get(cid, {}).get("disagree", [])]
            rec.update(available=True, build_error=err, verdict_changes=flips, new_disagreements=new_dis,
                       noticed=bool(err or flips or new_dis))
            out["mutants"].append(rec)
    out["summary"] = {"available": sum(r["available"] for r in out["mutants"]),
                      "noticed": sum(r.get("noticed", False) for r in out["mutants"])}
    return out


def write_paper_level_report(out, data: dict) -> list[Path]:
    """``out/selftest_papers.md`` and ``.json``: the paper-level detection table."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    s = data["summary"]
    L = ["# Self-test at paper level: does each paper's own report notice the mistake?", "",
         "Generated by `python -m theorycheck.selftest --paper-level` (slow). Each paper mutant of "
         "[selftest.md](selftest.md) is applied while the paper's `build(ctx)` runs at quick sizes "
         f"(seed {data['seed']}); the ledger is compared with the clean build. *Noticed* = a claim's verdict "
         "changed, a new exact-vs-Monte-Carlo disagreement appeared in the evidence, or the build raised. "
         "A mutant the paper's ledger does not notice is still caught by the engine-level checks of "
         "selftest.md; the difference shows which mistakes a paper report alone would have missed.", "",
         f"**Noticed by the paper's own ledger: {s['noticed']} / {s['available']}.**", "",
         "| mutant | paper | noticed | verdict changes | new disagreements |", "|---|---|---|---|---|"]
    for r in data["mutants"]:
        if not r["available"]:
            L.append(f"| `{r['id']}` | {r['key']} | n/a | {_cell(r.get('note', ''))} | |")
            continue
        vc = "; ".join(f"`{c}` {a} → {b}" for c, a, b in r["verdict_changes"]) or "—"
        nd = "; ".join(f"`{c}` {p_}" for c, p_ in r["new_disagreements"][:6]) or "—"
        if len(r["new_disagreements"]) > 6:
            nd += f" (+{len(r['new_disagreements']) - 6} more)"
        if r["build_error"]:
            nd = f"build raised {_cell(r['build_error'])}; " + nd
        L.append(f"| `{r['id']}` | {r['key']} | {'**yes**' if r['noticed'] else '**no**'} | {_cell(vc)} | {_cell(nd)} |")
    md = out / "selftest_papers.md"
    md.write_text("\n".join(L) + "\n", encoding="utf-8")
    js = out / "selftest_papers.json"
    js.write_text(json.dumps(data, indent=1, sort_keys=True, default=str) + "\n", encoding="utf-8")
    return [md, js]


def write_all(out, calibration_seeds: int = 200) -> list[Path]:
    """Run the self-test and the calibration; write ``selftest.md/.json`` and ``calibration.md/.json``
    into ``out`` (deterministic: fixed seeds, independent of the run seed). About a minute on 2 cores."""
    paths = write_selftest_report(out, run_selftest())
    paths += write_calibration_report(out, calibrate(calibration_seeds))
    return paths


def main(argv=None) -> int:
    import argparse
    ap = argparse.ArgumentParser(prog="python -m theorycheck.selftest",
                                 description="fault-injection self-test and false-alarm calibration")
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent.parent / "reports")
    ap.add_argument("--calibration-seeds", type=int, default=200)
    ap.add_argument("--only", choices=("selftest", "calibration"), default=None)
    ap.add_argument("--paper-level", action="store_true",
                    help="only the slow paper-level detection table (selftest_papers.md)")
    args = ap.parse_args(argv)
    if args.paper_level:
        d = paper_level()
        write_paper_level_report(args.out, d)
        print(f"paper-level: {d['summary']['noticed']}/{d['summary']['available']} noticed", file=sys.stderr)
        return 0
    if args.only != "calibration":
        data = run_selftest()
        write_selftest_report(args.out, data)
        s = data["summary"]
        print(f"selftest: {s['caught']}/{s['available']} mutants caught; missed {s['missed']}; "
              f"unavailable {s['unavailable']}; clean checks pass: {data['clean_all_pass']}", file=sys.stderr)
    if args.only != "selftest":
        write_calibration_report(args.out, calibrate(args.calibration_seeds))
        print(f"calibration: wrote {args.out / 'calibration.md'}", file=sys.stderr)
    return 0


_index()

if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
