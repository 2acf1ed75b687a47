"""Fuzz the public API with invalid and extreme inputs (hypothesis, derandomised, small budgets).

Contract (PREAMBLE / ARCHITECTURE): bad input to a public function raises ``ValueError`` whose
message names the offending parameter; valid extreme input (gamma = 1, lam -> 0, tau -> 1,
kappa -> inf, huge d, ...) gives a finite number, a documented ``inf`` (the ridgeless interpolation
peak at tau = 1), or the correct limit — never NaN, never a hang (every call runs under a
wall-clock alarm), never another exception type.

Edge points at which a module currently violates the contract are listed in ``KNOWN_DEFECTS`` and
marked ``xfail`` (non-strict), each with the observed failure, so that they are visible in every
test run and in the report instead of being silently skipped.
"""
from __future__ import annotations

import importlib
import math
import signal
from contextlib import contextmanager

import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

FUZZ = settings(max_examples=20, deadline=5000, derandomize=True, print_blob=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
NAN, INF = float("nan"), float("inf")


def _mod(name):
    try:
        return importlib.import_module(f"theorycheck.{name}")
    except ImportError as e:  # pragma: no cover - module not written yet
        pytest.skip(f"theorycheck.{name} not available: {e}")


@contextmanager
def time_limit(seconds: float):
    """Fail (TimeoutError) instead of hanging; POSIX main thread only, else no limit."""
    try:
        old = signal.signal(signal.SIGALRM, _alarm)
    except ValueError:          # not in the main thread
        yield
        return
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _alarm(signum, frame):
    raise TimeoutError("call did not return within the time limit (hang?)")


def _has_nan(x) -> bool:
    if x is None or isinstance(x, (str, bytes, bool)):
        return False
    if isinstance(x, dict):
        return any(_has_nan(v) for v in x.values())
    if isinstance(x, (list, tuple)):
        return any(_has_nan(v) for v in x)
    if hasattr(x, "__dataclass_fields__"):
        return any(_has_nan(getattr(x, k)) for k in x.__dataclass_fields__)
    if isinstance(x, sp.Basic):
        return bool(x.has(sp.nan))
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        return False
    return bool(np.any(np.isnan(a)))


def outcome(fn, *args, limit: float = 20.0, **kw):
    """'error:<msg>' for a ValueError, else the result (asserted NaN-free); any other exception,
    or a call exceeding ``limit`` seconds, fails the test."""
    with time_limit(limit):
        try:
            res = fn(*args, **kw)
        except ValueError as e:
            assert str(e), "ValueError without a message"
            return f"error:{e}"
    assert not _has_nan(res), f"{getattr(fn, '__name__', fn)} returned NaN for {args} {kw}: {res!r}"
    return res


def expect_value_error(fn, param: str, *args, limit: float = 20.0, **kw):
    with time_limit(limit):
        with pytest.raises(ValueError) as e:
            fn(*args, **kw)
    assert param in str(e.value), f"message does not name {param!r}: {e.value}"


# ============================================================================ bad parameters
BAD = {
    "prob": [0.0, -0.1, 1.5, NAN, INF, "a", None],            # a number in (0, 1]
    "posint": [0, -3, 2.5, NAN, "a", None, True],
    "nonneg": [-1e-3, NAN, -INF, "a", None],
    "pos": [0.0, -1.0, NAN, "a", None],
    "seed": [-1, 1.5, "a", None],
}


def _gla_base():
    return dict(lam=0.7, gamma=0.9, n=8, d=2, sigma_w2=1.0, sigma_e2=0.1, noise=0.05)


def _specs():
    """(label, module, function, base kwargs, {param: category or list of bad values})."""
    out = []
    g = {"lam": "prob", "gamma": "prob", "n": "posint", "sigma_w2": "nonneg", "sigma_e2": "nonneg", "noise": "nonneg"}
    out.append(("gla.train_error", "gla", "train_error", _gla_base(), {**g, "d": "posint", "halved": ["yes", 1, None]}))
    out.append(("gla.xi", "gla", "xi", _gla_base(), {**g, "d": "posint"}))
    b = _gla_base()
    b.pop("lam")
    out.append(("gla.optimal_lambda", "gla", "optimal_lambda", b,
                {k: v for k, v in {**g, "d": "posint"}.items() if k != "lam"}))
    b = _gla_base()
    b.pop("d")
    b["Lambda"] = np.eye(2)
    lam_bad = [np.array([[1.0, 2.0], [2.0, 1.0]]), np.ones((2, 3)), np.array([[NAN, 0], [0, 1.0]]), "a"]
    out.append(("gla.effective_covariance", "gla", "effective_covariance", b, {**g, "Lambda": lam_bad}))
    out.append(("gla.train_error_general", "gla", "train_error_general", b, {**g, "Lambda": lam_bad}))
    out.append(("gla.simulate_gla", "gla", "simulate_gla", {**b, "n_samples": 50, "seed": 0},
                {**g, "Lambda": lam_bad, "n_samples": [1, 0, -5, 2.5, "a"], "seed": "seed"}))
    e = dict(tau=2.0, alpha=2.0, kappa=2.0, rho=0.1, lam=0.0)
    ecat = {"tau": "pos", "alpha": "pos", "kappa": [0.0, -1.0, NAN, "a", None], "rho": "nonneg", "lam": "nonneg"}
    out.append(("nonlinear.e_icl_linear", "nonlinear", "e_icl_linear", e, ecat))
    out.append(("nonlinear.e_icl_nonlinear", "nonlinear", "e_icl_nonlinear", {"f": "sin", **e},
                {**ecat, "f": ["no-such-teacher", object(), sp.Symbol("a") * sp.Symbol("b")], "method": ["nope"]}))
    out.append(("nonlinear.risk_a1_zero", "nonlinear", "risk_a1_zero", dict(tau=0.5, rho_nl=1.0, alpha=1.0, lam=0.0),
                {"tau": "pos", "rho_nl": "nonneg", "alpha": "pos", "lam": "nonneg"}))
    out.append(("nonlinear.rho_nonlinear", "nonlinear", "rho_nonlinear", dict(f="tanh", rho=0.1),
                {"rho": "nonneg", "f": ["no-such-teacher", object()]}))
    out.append(("nonlinear.mp_resolvent", "nonlinear", "mp_resolvent", dict(z=0.5, kappa=2.0, c=1.0),
                {"z": "pos", "kappa": [0.0, -1.0, NAN, "a"], "c": "pos"}))
    out.append(("nonlinear.simulate_icl", "nonlinear", "simulate_icl",
                dict(f="sin", d=4, alpha=2.0, kappa=2.0, tau=2.0, rho=0.1, trials=2, seed=0, n_test=10),
                {"d": "posint", "tau": "pos", "alpha": "pos", "rho": "nonneg", "trials": "posint", "seed": "seed",
                 "n_test": [0, -1, 2.5, "a"]}))
    pr = dict(d=2, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.3)
    out.append(("lds.DiagonalLDSPrior", "lds", "DiagonalLDSPrior", pr,
                {"d": "posint", "a_max": [-0.1, 1.5, NAN, INF, "a"], "sigma0": "nonneg", "sigma_w": "nonneg",
                 "sigma_v": "nonneg"}))
    out.append(("lds.wqk_star", "lds", "wqk_star", dict(T=6, prior="PRIOR"),
                {"T": [2, 0, -1, 2.5, NAN, "a", 10 ** 6], "rtol": [0.0, -1.0, NAN, 2.0], "prior": ["x", None, 3],
                 "method": ["nope"]}))
    out.append(("lds.simulate_wqk_star", "lds", "simulate_wqk_star", dict(T=6, prior="PRIOR", samples=10, seed=0),
                {"T": [2, 0, 2.5, "a"], "samples": [1, 0, -1, "a"], "seed": "seed", "prior": ["x", None]}))
    out.append(("lds.train_linear_attention", "lds", "train_linear_attention",
                dict(T=8, s=1, prior="PRIOR", steps=2, batch=4, seed=0),
                {"T": [0, -1, 2.5, "a"], "s": [0, -1, "a", 100], "steps": [-1, 2.5, "a"], "batch": [0, -1, "a"],
                 "seed": "seed", "lr": [0.0, -1.0, NAN, "a"]}))
    out.append(("hermite.hermite_coefficients", "hermite", "hermite_coefficients",
                dict(f=sp.sin(sp.Symbol("g")), m_max=2),
                {"m_max": [-1, 2.5, "a", None], "dps": [5, 10 ** 6, "a"], "f": [sp.exp(sp.Symbol("g") ** 2),
                                                                              sp.Symbol("a") * sp.Symbol("b"), "a"]}))
    out.append(("hermite.hermite_h", "hermite", "hermite_h", dict(m=2, x=0.5), {"m": [-1, 2.5, "a", None]}))
    out.append(("montecarlo.mean", "montecarlo", "mean",
                dict(sampler=lambda rng, size: rng.standard_normal(size), n=10, seed=0, batch=5),
                {"n": [1, 0, -1, 2.5, "a"], "seed": "seed", "batch": [0, -1, "a"]}))
    out.append(("montecarlo.rngs", "montecarlo", "rngs", dict(seed=0, count=2), {"seed": "seed", "count": [0, -1, "a"]}))
    out.append(("gaussian.pairings", "gaussian", "pairings", dict(n=4), {"n": [-1, 2.5, "a", 10 ** 6]}))
    out.append(("gaussian.moment", "gaussian", "moment", dict(cov=np.eye(2), idx=[0, 1]),
                {"cov": [np.ones((2, 3)), np.array([[1.0, 2.0], [2.0, 1.0]]), np.array([[NAN, 0], [0, 1]]), "a"],
                 "idx": [[0, 2], [-1], "ab", 3]}))
    out.append(("lds.make_prior", "lds", "make_prior", dict(setting="a", d=2),
                {"setting": ["z", None, 3], "d": "posint"}))
    rng = np.random.default_rng(0)
    out.append(("adaptive_filters.ar1_stream", "adaptive_filters", "ar1_stream",
                dict(rng=rng, runs=3, T=10, d=2, gamma=0.9, sigma_w2=1.0, sigma_e2=0.1),
                {"runs": "posint", "T": "posint", "d": "posint", "gamma": "prob", "sigma_w2": "nonneg",
                 "sigma_e2": "nonneg", "noise": "nonneg"}))
    X = rng.standard_normal((10, 3, 2))
    Y = rng.standard_normal((10, 3))
    out.append(("adaptive_filters.lms_errors", "adaptive_filters", "lms_errors", dict(X=X, Y=Y, mu=0.05),
                {"mu": [0.0, -1.0, NAN, INF, "a", None]}))
    out.append(("adaptive_filters.rls_errors", "adaptive_filters", "rls_errors", dict(X=X, Y=Y, beta=0.95),
                {"beta": "prob", "delta": [0.0, -1.0, NAN, "a"]}))
    out.append(("adaptive_filters.kalman_errors", "adaptive_filters", "kalman_errors",
                dict(X=X, Y=Y, gamma=0.9, sigma_w2=1.0, sigma_e2=0.1),
                {"gamma": "prob", "sigma_w2": "nonneg", "sigma_e2": "nonneg", "noise": "nonneg"}))
    return out


SPECS = _specs()
CASES = [(lab, p) for lab, _, _, _, params in SPECS for p in params]


def _resolve(module, fname, base):
    mod = _mod(module)
    fn = getattr(mod, fname, None)
    if fn is None:
        pytest.skip(f"{module}.{fname} not available")
    kw = dict(base)
    if kw.get("prior") == "PRIOR":
        kw["prior"] = mod.DiagonalLDSPrior(d=1, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.3)
    return fn, kw


def test_baselines_are_valid():
    """Every base call of the table succeeds (so each bad-parameter case changes only one thing)."""
    for lab, module, fname, base, _ in SPECS:
        fn, kw = _resolve(module, fname, base)
        res = outcome(fn, **kw)
        assert not (isinstance(res, str) and res.startswith("error:")), f"{lab}: base call failed: {res}"


@pytest.mark.parametrize("label,param", CASES, ids=[f"{lab}-{p}" for lab, p in CASES])
@FUZZ
@given(data=st.data())
def test_bad_parameter_raises_value_error_naming_it(label, param, data):
    spec = next(s for s in SPECS if s[0] == label)
    _, module, fname, base, params = spec
    fn, kw = _resolve(module, fname, base)
    cat = params[param]
    bad = data.draw(st.sampled_from(BAD[cat] if isinstance(cat, str) else cat), label=param)
    kw[param] = bad
    expect_value_error(fn, param, **kw)


def test_claim_rejects_bad_fields():
    from theorycheck.claims import Claim, SubClaim
    Claim(id="004-x", paper="004", lines=(1, 1), title="T", statement="s")
    for kw in ({"verdict": "maybe"}, {"id": ""}):
        with pytest.raises(ValueError):
            Claim(**{**dict(id="004-x", paper="004", lines=(1, 1), title="T", statement="s"), **kw})
    with pytest.raises(ValueError):
        SubClaim("x", "identity", verdict="likely")


# ============================================================================ extreme valid input
@FUZZ
@given(lam=st.floats(1e-6, 1.0), gamma=st.floats(1e-6, 1.0), n=st.integers(1, 10 ** 6),
       d=st.integers(1, 10 ** 9), sw=st.floats(1e-6, 1e6), se=st.floats(0.0, 1e6), noise=st.floats(0.0, 1e6))
def test_gla_train_error_extremes(lam, gamma, n, d, sw, se, noise):
    G = _mod("gla")
    res = outcome(G.train_error, lam, gamma, n, d, sw, se, noise)
    if isinstance(res, str):
        return
    assert math.isfinite(res)
    # never below the irreducible floor sigma_e^2 d + noise (relative round-off allowed)
    floor = se * d + noise
    assert res >= floor * (1 - 1e-9) - 1e-9 * (sw * d), (res, floor)


def test_gla_limits():
    G = _mod("gla")
    # gamma = lam = 1, no drift, no noise: Zhang-Frei-Bartlett d(d+1)/(n+d+1)
    for d, n in ((1, 1), (3, 20), (50, 10)):
        assert G.train_error(1.0, 1.0, n, d, 1.0, 0.0) == pytest.approx(d * (d + 1) / (n + d + 1), rel=1e-12)
    # gamma -> 1 is continuous
    a, b = G.train_error(0.8, 1.0, 30, 4, 1.0, 0.1), G.train_error(0.8, 1 - 1e-9, 30, 4, 1.0, 0.1)
    assert a == pytest.approx(b, rel=1e-6)
    # huge d: L*/d -> s_{n+1} (the optimum's gain is O(1) while the error grows like d)
    s = G.moment_sums(0.8, 0.9, 20, 1.0, 0.1)
    big = G.train_error(0.8, 0.9, 20, 10 ** 9, 1.0, 0.1) / 10 ** 9
    assert big == pytest.approx(s.s_q, rel=1e-6)


GLA_EDGES = {
    "lam=1e-300": dict(lam=1e-300),
    "lam=1e-12,gamma=1": dict(lam=1e-12, gamma=1.0),
    "gamma=1,lam=1": dict(lam=1.0, gamma=1.0),
    "all variances 0": dict(sigma_w2=0.0, sigma_e2=0.0, noise=0.0),
    "variances 1e300": dict(sigma_w2=1e300, sigma_e2=1e300),
    "n=1": dict(n=1),
    "n=1e9": dict(n=10 ** 9),
}


@pytest.mark.parametrize("edge", list(GLA_EDGES))
def test_gla_edge_points(edge):
    G = _mod("gla")
    kw = {**_gla_base(), **GLA_EDGES[edge]}
    res = outcome(G.train_error, **kw)
    if not isinstance(res, str):
        assert math.isfinite(res)
    kw.pop("d")
    kw["Lambda"] = np.eye(2)
    res = outcome(G.effective_covariance, **kw)
    if not isinstance(res, str):
        assert np.all(np.isfinite(res))


@FUZZ
@given(tau=st.one_of(st.floats(1e-6, 1e6), st.sampled_from([1 - 1e-12, 1 + 1e-12, 1.0])),
       alpha=st.floats(1e-3, 1e6), kappa=st.one_of(st.floats(1e-3, 1e12), st.just(math.inf)),
       rho=st.floats(0.0, 1e3), lam=st.one_of(st.just(0.0), st.floats(1e-8, 10.0)))
def test_e_icl_linear_extremes(tau, alpha, kappa, rho, lam):
    N = _mod("nonlinear")
    res = outcome(N.e_icl_linear, tau, alpha, kappa, rho, lam)
    if isinstance(res, str):
        return
    if lam == 0 and tau == 1.0:
        assert res == math.inf                        # documented interpolation peak
    else:
        assert math.isfinite(res) and res >= rho * (1 - 1e-9) - 1e-12, res   # never below the noise


def test_nonlinear_limits():
    N = _mod("nonlinear")
    # kappa -> inf is continuous on both sides of tau = 1
    for tau in (0.5, 2.0):
        assert N.e_icl_linear(tau, 2.0, 1e12, 0.1) == pytest.approx(N.e_icl_linear(tau, 2.0, math.inf, 0.1), rel=1e-6)
    # tau -> 1: both ridgeless branches blow up like 1/|tau - 1| (and ridge removes the peak)
    lo, hi = N.e_icl_linear(1 - 1e-6, 2.0, 2.0, 0.1), N.e_icl_linear(1 + 1e-6, 2.0, 2.0, 0.1)
    assert 1e4 < lo < 1e8 and 1e4 < hi < 1e8
    assert lo == pytest.approx(hi, rel=1e-3)
    assert math.isfinite(N.e_icl_linear(1.0, 2.0, 2.0, 0.1, lam=1e-3))
    # tau -> 0: the predictor vanishes, error -> E[y^2] = 1 + rho
    assert N.e_icl_linear(1e-7, 2.0, 2.0, 0.1) == pytest.approx(1.1, rel=1e-5)
    # a1 = 0 branch: risk_a1_zero(tau -> 1) -> inf, lam > 0 finite
    assert N.risk_a1_zero(1.0, 1.0) == math.inf and math.isfinite(N.risk_a1_zero(1.0, 1.0, 1.0, 0.1))


NONLINEAR_EDGES = {
    "tau=1,lam=1e-300": ("e_icl_linear", (1.0, 2.0, 2.0, 0.1, 1e-300)),
    "rho=1e300": ("e_icl_linear", (2.0, 2.0, 2.0, 1e300)),
    "lam=1e300": ("e_icl_linear", (2.0, 2.0, 2.0, 0.1, 1e300)),
    "kappa=1e-300": ("e_icl_linear", (0.5, 2.0, 1e-300, 0.1)),
    "alpha=1e-300": ("e_icl_linear", (0.5, 1e-300, 2.0, 0.1)),
    "tau=1e300": ("e_icl_linear", (1e300, 2.0, 2.0, 0.1)),
    "risk tau=1,lam=1e-300": ("risk_a1_zero", (1.0, 1.0, 1.0, 1e-300)),
    "risk lam=1e300": ("risk_a1_zero", (0.5, 1.0, 1.0, 1e300)),
}


@pytest.mark.parametrize("edge", list(NONLINEAR_EDGES))
def test_nonlinear_edge_points(edge):
    N = _mod("nonlinear")
    fname, args = NONLINEAR_EDGES[edge]
    res = outcome(getattr(N, fname), *args)
    if not isinstance(res, str):
        assert not math.isnan(res)


def test_lds_limits_and_edges():
    L = _mod("lds")
    # a_max = 0: y_t i.i.d. N(0, sigma_v^2 + sigma_w^2 d ...) -> numerator E[y_{T-1} y_T S] = 0 -> W* = 0
    w = L.wqk_star(8, L.DiagonalLDSPrior(d=2, a_max=0.0, sigma0=1.0, sigma_w=0.5, sigma_v=0.3))
    assert abs(w.value) < 1e-12
    # a_max = 1 (marginally stable) and T = 3 (shortest) are valid
    for T, a in ((3, 0.9), (10, 1.0)):
        r = outcome(L.wqk_star, T, L.DiagonalLDSPrior(d=1, a_max=a, sigma0=1.0, sigma_w=0.5, sigma_v=0.3))
        assert not isinstance(r, str) and math.isfinite(r.value)


def test_lds_degenerate_prior():
    """All variances 0: y == 0, the Theorem 4.1 ratio is 0/0 -> must be a ValueError, not a crash."""
    L = _mod("lds")
    outcome(L.wqk_star, 6, L.DiagonalLDSPrior(d=2, a_max=0.5, sigma0=0.0, sigma_w=0.0, sigma_v=0.0))


@FUZZ
@given(m=st.integers(0, 200), x=st.floats(-30, 30))
def test_hermite_h_finite(m, x):
    H = _mod("hermite")
    v = outcome(H.hermite_h, m, x)
    if isinstance(v, str):          # a documented error (overflow for huge |x|)
        return
    assert math.isfinite(v) or (math.isinf(x) and math.isinf(v))


def test_hermite_coefficients_large_m_does_not_hang():
    """m_max = 12 for a callable must return in well under the limit."""
    H = _mod("hermite")
    out = outcome(H.hermite_coefficients, lambda t: t ** 2, 12, limit=60.0)
    assert float(out[2]) == pytest.approx(math.sqrt(2), rel=1e-12)


@FUZZ
@given(exact=st.floats(-1e6, 1e6), mean=st.floats(-1e6, 1e6), se=st.floats(0.0, 1e6))
def test_montecarlo_compare_never_nan(exact, mean, se):
    mc = _mod("montecarlo")
    c = outcome(mc.compare, exact, mc.MeanEstimate(mean, se, 10))
    if not isinstance(c, str):
        assert c.verdict in ("agree", "disagree") and 0.0 <= c.p_value <= 1.0


@pytest.mark.parametrize("bad", [NAN, INF])
def test_montecarlo_compare_rejects_nonfinite(bad):
    mc = _mod("montecarlo")
    with pytest.raises(ValueError):
        mc.compare(bad, mc.MeanEstimate(0.0, 1.0, 10))
    with pytest.raises(ValueError):
        mc.compare(0.0, mc.MeanEstimate(bad, 1.0, 10))


@FUZZ
@given(n=st.integers(1, 6), scale=st.sampled_from([1e-150, 1e-8, 1.0, 1e8, 1e150]), k=st.integers(0, 8))
def test_gaussian_moment_extreme_scales(n, scale, k):
    g = _mod("gaussian")
    rng = np.random.default_rng(n * 31 + k)
    A = rng.standard_normal((n, n))
    cov = scale * (A @ A.T + np.eye(n))
    idx = list(rng.integers(0, n, size=k))
    res = outcome(g.moment, cov, idx)
    assert isinstance(res, str) or not math.isnan(res)


@pytest.mark.parametrize("mu", [10.0, 1e6])
def test_adaptive_filters_divergent_lms_never_nan(mu):
    """A too-large LMS step diverges; the errors may be inf (or flagged) but never NaN."""
    af = _mod("adaptive_filters")
    X, Y = af.ar1_stream(np.random.default_rng(0), runs=4, T=200, d=3, gamma=0.9, sigma_w2=1.0, sigma_e2=0.1)
    outcome(af.lms_errors, X, Y, mu)


@FUZZ
@given(beta=st.floats(1e-3, 1.0), mu=st.floats(1e-4, 0.5))
def test_adaptive_filters_stable_range(beta, mu):
    af = _mod("adaptive_filters")
    X, Y = af.ar1_stream(np.random.default_rng(1), runs=3, T=60, d=2, gamma=0.9, sigma_w2=1.0, sigma_e2=0.1)
    outcome(af.rls_errors, X, Y, beta)
    outcome(af.lms_errors, X, Y, mu)


# ============================================================================ known defects
# Edge points where a module currently breaks the contract (observed 2026-11-29; listed in the
# issue-6 report to the lead). Non-strict xfail: they pass once fixed (then delete the entry).
KNOWN_DEFECTS = {
    # all four defects observed on 2026-11-29 (ridge formula and risk_a1_zero at tau = 1 with
    # lam = 1e-300, risk_a1_zero overflow at lam = 1e300, simulate_icl(tau='a') not naming tau)
    # were fixed; add new entries here when a contract violation is found and not yet fixed.
}


@pytest.fixture(autouse=True)
def _known_defects(request):
    reason = KNOWN_DEFECTS.get(request.node.name)
    if reason:
        request.applymarker(pytest.mark.xfail(reason=f"known defect: {reason}", strict=False))
