"""The theory of paper 004 (:mod:`theorycheck.papers.nonlinear.theory`, re-exported by ``theorycheck.nonlinear``):
rho's, the linear-ICL formulas and their limits, the a1 = 0 branch, Result 1, finite-size extrapolation and bad
input. The simulator of the actual predictor and its models are tested in ``test_simulator.py``, the paper (claims,
self-checks, mutants) in ``test_paper.py``. Monte Carlo comparisons are Student t at a stated α (df from the number
of independent trials or samples).

Oracles: exact SymPy moments; the ridge formula's lambda -> 0 limit against the separately coded
ridgeless branches; kappa -> inf against the simplified closed form; the general-covariance formula
at C = I; the generated code of derivations/nonlinear_a1_zero.py; direct simulations of pure-noise
ridge regression.
"""
import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st
from scipy import stats

from theorycheck.verdicts import Estimate, rules

from .. import theory as nl
from ..fixtures import aniso_covariances
from ..generated import nonlinear_a1_zero as NA
from ..generated import nonlinear_hermite as NH
from ..theory import icl

G = nl.G
RHO = 0.1

# ----------------------------------------------------------------------------------- rho's
def test_rho_exact_values():
    assert sp.simplify(nl.rho_nonlinear("sin", RHO) - (sp.Rational(1, 10) + (1 - sp.exp(-2)) / 2 - sp.exp(-1))) == 0
    assert sp.simplify(nl.rho_f("sin", RHO) - (sp.Rational(1, 10) + (1 - sp.exp(-2)) / 2)) == 0
    assert abs(float(nl.rho_nonlinear("tanh", RHO)) - 0.127415) < 5e-7
    assert nl.rho_nonlinear("cube", 0) == 6 and nl.rho_f("cube", 0) == 15
    c = sp.Rational(3, 2)
    assert sp.simplify(nl.rho_nonlinear(G + c, RHO) - (sp.Rational(1, 10) + c ** 2)) == 0     # m = 0 included
    assert nl.rho_nonlinear("he2", 0) == 1 and nl.teacher_moments("he2")["a1"] == 0


def test_generated_hermite_module_matches():
    for name in ("sin", "relu", "abs", "cube", "he2", "sign"):   # erf: SymPy cannot integrate erf^2 (slow fallback)
        assert abs(NH.__dict__[f"rho_nl_{name}"](RHO) - float(nl.rho_nonlinear(name, RHO))) < 1e-12
    assert NH.TEACHING_TABLE["g^3"] == ["3", "6"]


# ----------------------------------------------------------------------------------- resolvent
@pytest.mark.parametrize("kappa", [0.3, 1.0, 2.5, math.inf])
def test_mp_resolvent_derivative_and_fixed_point(kappa):
    for z in (0.05, 0.7, 4.0):
        M, dM = nl.mp_resolvent(z, kappa)
        h = 1e-6 * max(1, z)
        num = (nl.mp_resolvent(z + h, kappa)[0] - nl.mp_resolvent(z - h, kappa)[0]) / (2 * h)
        assert abs(dM - num) < 1e-7 * abs(dM)
        k = 1 / kappa if math.isfinite(kappa) else 0.0
        assert abs(M - 1 / (z + 1 / (1 + M * k))) < 1e-13


def test_mp_resolvent_vs_random_matrix():
    rng = np.random.default_rng(0)
    d, kappa, z = 400, 1.5, 0.3
    W = rng.standard_normal((int(kappa * d), d))
    S = W.T @ W / W.shape[0]
    emp = np.mean(1 / (np.linalg.eigvalsh(S) + z))
    assert abs(emp - nl.mp_resolvent(z, kappa)[0]) < 0.01


# ----------------------------------------------------------------------------------- e_ICL linear
@pytest.mark.parametrize("kappa", [0.5, 2.0, math.inf])
@pytest.mark.parametrize("tau", [0.3, 0.8, 1.5, 4.0])
def test_ridge_to_ridgeless(kappa, tau):
    e0 = nl.e_icl_linear(tau, 2.0, kappa, RHO)
    e1 = nl.e_icl_linear(tau, 2.0, kappa, RHO, lam=1e-7)
    e2 = nl.e_icl_linear(tau, 2.0, kappa, RHO, lam=1e-9)
    assert abs(e2 - e0) < 1e-5 * e0
    assert abs(e2 - e0) < abs(e1 - e0) + 1e-12         # converging as lam -> 0


@pytest.mark.parametrize("tau", [1.2, 3.0, 10.0])
def test_kappa_infinite_closed_form(tau):
    alpha = 2.0
    q = (1 + RHO) / alpha
    want = (RHO + q / (1 + q)) * tau / (tau - 1)
    assert abs(nl.e_icl_linear(tau, alpha, math.inf, RHO) - want) < 1e-12
    assert abs(nl.e_icl_linear(tau, alpha, 1e9, RHO) - want) < 1e-6


def test_limits_tau_alpha():
    # tau -> inf, kappa = inf: rho + (1+rho)/(alpha+1+rho)
    assert abs(nl.e_icl_linear(1e10, 2.0, math.inf, RHO) - (RHO + 1.1 / 3.1)) < 1e-8
    # tau/alpha -> inf then alpha -> inf: rho + max(0, 1 - kappa)
    for kappa in (0.5, 0.8, 1.5, 3.0):
        assert abs(nl.e_icl_linear(1e14, 1e6, kappa, RHO) - (RHO + max(0.0, 1 - kappa))) < 1e-4
    # tau = c alpha -> inf: kappa > 1 -> rho; kappa < 1 -> rho + (1-kappa)(1 + rho/((1+rho)c)) (numerical finding)
    for c in (0.5, 1.0, 2.0):
        assert abs(nl.e_icl_linear(c * 1e9, 1e9, 2.0, RHO) - RHO) < 1e-6
        for kappa in (0.25, 0.5):
            want = RHO + (1 - kappa) * (1 + RHO / ((1 + RHO) * c))
            assert abs(nl.e_icl_linear(c * 1e9, 1e9, kappa, RHO) - want) < 1e-6
    assert nl.e_icl_linear(1.0, 2.0, 2.0, RHO) == math.inf


@pytest.mark.parametrize("kappa", [0.6, 2.0, math.inf])
@pytest.mark.parametrize("tau", [0.4, 2.5])
def test_general_covariance_at_identity_and_scaled(kappa, tau):
    I = np.ones(300)
    iso = nl.e_icl_linear(tau, 2.0, kappa, RHO)
    assert abs(nl.e_icl_linear_general(tau, 2.0, kappa, RHO, I, I) - iso) < 1e-9
    assert abs(nl.e_icl_linear_general(tau, 2.0, kappa, RHO, np.eye(50), np.eye(50)) - iso) < 1e-9
    c = 0.37
    scaled = nl.e_icl_linear_general(tau, 2.0, kappa, RHO, c * I, c * I)
    assert abs(scaled - c * nl.e_icl_linear(tau, 2.0, kappa, RHO / c)) < 1e-9


def test_general_covariance_non_commuting_test_matrix():
    rng = np.random.default_rng(1)
    Q, _ = np.linalg.qr(rng.standard_normal((30, 30)))
    ev = rng.uniform(0.2, 2.0, 30)
    ev *= 30 / ev.sum()
    Ctr = np.diag(ev)
    Cte = Q @ np.diag(ev) @ Q.T
    e_rot = nl.e_icl_linear_general(2.0, 2.0, 2.0, RHO, Ctr, Cte)
    # the formula only sees diag of C_te in the eigenbasis of C_tr
    e_diag = nl.e_icl_linear_general(2.0, 2.0, 2.0, RHO, ev, np.diag(Q @ np.diag(ev) @ Q.T))
    assert math.isfinite(e_rot)
    assert abs(e_rot - e_diag) < 1e-9 * e_diag
    # and the test covariance does matter: aligned (C_te = C_tr) differs from the rotated one
    e_aligned = nl.e_icl_linear_general(2.0, 2.0, 2.0, RHO, ev, ev)
    assert abs(e_aligned - e_rot) > 1e-3


def test_general_covariance_representations_agree():
    """Diagonal covariances are kept as eigenvalue arrays: every mix of 1-D and d×d inputs, and a rotated (non-diagonal)
    C_train with C_test rotated alike, give the same error (the formula is invariant under a common rotation)."""
    rng = np.random.default_rng(2)
    d = 24
    Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
    ctr, cte = rng.uniform(0.2, 2.0, d), rng.uniform(0.2, 2.0, d)
    ref = nl.e_icl_linear_general(0.7, 2.0, 1.5, RHO, ctr, cte)
    for a, b in ((np.diag(ctr), cte), (ctr, np.diag(cte)), (np.diag(ctr), np.diag(cte)),
                 (Q @ np.diag(ctr) @ Q.T, Q @ np.diag(cte) @ Q.T)):
        assert abs(nl.e_icl_linear_general(0.7, 2.0, 1.5, RHO, a, b) - ref) < 1e-10 * ref


def test_anisotropic_theory_value_converges_like_one_over_d():
    """The evenly spaced spectrum of the anisotropic Result-1 configuration: the general form converges like 1/d
    (end points included), so d = 1e5 stands for d → ∞ to about 3e-6 (the claim's margin is 5 %)."""
    e = {d: nl.e_icl_linear_general(2.0, 2.0, 2.0, 0.16, *aniso_covariances(d)) for d in (25_000, 50_000, 100_000)}
    r1, r2 = e[25_000] - e[50_000], e[50_000] - e[100_000]
    assert 1.8 < r1 / r2 < 2.2                       # halving 1/d halves the error: first order in 1/d
    assert abs(r2) < 1e-5                            # the d = 1e5 value is within |r2| ≈ its distance to the limit


# ----------------------------------------------------------------------------------- Result 1
@pytest.mark.parametrize("f", ["sin", "tanh", "relu"])
def test_result1_two_evaluations_agree(f):
    for tau in (0.5, 2.0):
        a = nl.e_icl_nonlinear(f, tau, 2.0, 2.0, RHO)
        b = nl.e_icl_nonlinear(f, tau, 2.0, 2.0, RHO, method="covariance")
        assert abs(a - b) < 1e-9 * a


def test_result1_linear_teacher_is_identity():
    for tau in (0.5, 3.0):
        assert abs(nl.e_icl_nonlinear("linear", tau, 2.0, 2.0, 0.3) - nl.e_icl_linear(tau, 2.0, 2.0, 0.3)) < 1e-12


def test_a1_zero_branch_dispatch():
    for f in ("he2", "abs"):
        assert nl.e_icl_nonlinear(f, 0.5, 3.0, 0.5, RHO) == nl.risk_a1_zero(0.5, float(nl.rho_nonlinear(f, RHO)))


# ----------------------------------------------------------------------------------- a1 = 0 branch
def test_risk_a1_zero_boxed_and_teaching_numbers():
    assert nl.risk_a1_zero(0.5, 1.0) == 2.0 and nl.risk_a1_zero(2.0, 1.0) == 2.0
    assert abs(nl.risk_a1_zero(0.9, 1.0) - 10.0) < 1e-12
    assert nl.risk_a1_zero(1.0, 1.0) == math.inf
    for tau in (0.3, 0.7, 1.4, 3.0):
        e_small = nl.risk_a1_zero(tau, 1.3, alpha=2.0, lam=1e-10)
        assert abs(e_small - nl.risk_a1_zero(tau, 1.3)) < 1e-6


def test_risk_a1_zero_matches_generated_and_independent_route():
    for tau in (0.4, 0.95, 1.05, 3.0):
        for lam in (0.01, 0.5):
            q = 1.3 / 2.0
            r = nl.risk_a1_zero(tau, 1.3, alpha=2.0, lam=lam)
            assert abs(r - float(NA.risk_ridge(tau, q, lam, 1.3))) < 1e-10 * r
            assert abs(r - 1.3 * (1 + nl.ridge_risk_pure_noise(1 / tau, lam / q))) < 1e-10 * r
            chi = nl.a1_zero_fixed_point(tau, q, lam)
            assert abs(chi - q / (q * tau / (1 + chi) + tau * lam)) < 1e-12 * chi


@pytest.mark.parametrize("tau, lam", [(0.5, 0.0), (2.0, 0.0), (0.8, 0.3), (2.0, 0.3)])
def test_pure_noise_ridge_simulation(tau, lam):
    """Direct Monte Carlo of ridge on signal-free labels (p = 300, 40 fits; Student t, df = 39, α = 1e-3).

    λ = 0: against the exact finite-sample (inverse-Wishart) risk. λ > 0: against the finite-ratio
    Marchenko–Pastur formula, whose finite-p bias O(1/p) is bounded by 1 % of σ² (added to the band)."""
    p, q, sigma2 = 300, 0.55, 1.3
    n = int(round(tau * p))
    est = Estimate.from_samples(nl.pure_noise_ridge_samples(p, n, q, sigma2, lam, 40, np.random.default_rng(7)))
    if lam == 0:
        want, bias = nl.pure_noise_ridgeless_exact(p, n, sigma2), 0.0
    else:
        want, bias = sigma2 * (1 + nl.ridge_risk_pure_noise(p / n, lam / q)), 0.01 * sigma2
    band = stats.t.isf(1e-3 / 2, est.df) * est.se + bias
    assert abs(est.mean - want) < band, (est.mean, est.se, want)


def test_pure_noise_ridgeless_exact_limits():
    for tau in (0.25, 0.5, 2.0, 5.0):
        p = 10 ** 6
        assert nl.pure_noise_ridgeless_exact(p, int(tau * p), 1.3) == pytest.approx(nl.risk_a1_zero(tau, 1.3), rel=1e-5)
    assert nl.pure_noise_ridgeless_exact(10, 10, 1.0) == math.inf
    with pytest.raises(ValueError, match="sigma2"):
        nl.pure_noise_ridgeless_exact(10, 5, -1.0)


# ----------------------------------------------------------------------------------- extrapolate
def test_extrapolate_exact_line_and_inflation():
    r = nl.extrapolate([10, 20, 40, 80], [1 + 3 / 10, 1 + 3 / 20, 1 + 3 / 40, 1 + 3 / 80], [0.01] * 4)
    assert abs(r["intercept"] - 1) < 1e-12 and abs(r["slope"] - 3) < 1e-10 and r["chi2"] < 1e-20
    bad = nl.extrapolate([10, 20, 40, 80], [1.0, 2.0, 1.0, 2.0], [0.01] * 4)
    assert bad["p_fit"] < 1e-6 and bad["se"] > 0.01


# ----------------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("kw, match", [
    (dict(tau=-1.0), "tau"), (dict(tau=0.0), "tau"), (dict(alpha=float("nan")), "alpha"),
    (dict(kappa=0.0), "kappa"), (dict(rho=-0.1), "rho"), (dict(lam=-1.0), "lam"),
    (dict(alpha=math.inf), "alpha"),
])
def test_e_icl_linear_bad_input(kw, match):
    args = dict(tau=2.0, alpha=2.0, kappa=2.0, rho=0.1, lam=0.0)
    args.update(kw)
    with pytest.raises(ValueError, match=match):
        nl.e_icl_linear(**args)


@settings(max_examples=30, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True), st.floats(allow_nan=True, allow_infinity=True))
def test_e_icl_linear_never_nan(tau, alpha):
    try:
        v = nl.e_icl_linear(tau, alpha, 2.0, 0.1)
    except ValueError:
        return
    assert not math.isnan(v)


def test_simulator_and_others_bad_input():
    with pytest.raises(ValueError, match="d must"):
        nl.simulate_icl("sin", 1, 2, 2, 1.0, RHO)
    with pytest.raises(ValueError, match="taus"):
        nl.simulate_icl_sweep("sin", 8, 2, 2, [], RHO)
    with pytest.raises(ValueError, match="method"):
        nl.simulate_icl_sweep("sin", 8, 2, 2, [1.0], RHO, method="magic")
    with pytest.raises(ValueError, match="C_train"):
        nl.simulate_icl_sweep("sin", 8, 2, 2, [1.0], RHO, C_train=np.ones(3))
    with pytest.raises(ValueError, match="f must"):
        nl.simulate_icl("nope", 8, 2, 2, 1.0, RHO)
    with pytest.raises(ValueError, match="C_test"):
        nl.e_icl_linear_general(2.0, 2.0, 2.0, 0.1, np.ones(4), np.ones(5))
    with pytest.raises(ValueError, match="C_train"):
        nl.e_icl_linear_general(2.0, 2.0, 2.0, 0.1, -np.ones(4), np.ones(4))
    with pytest.raises(ValueError, match="rho_nl"):
        nl.risk_a1_zero(0.5, -1.0)
    with pytest.raises(ValueError, match="memory"):
        nl.simulate_icl_sweep("sin", 200, 2, 2, [100.0], RHO)
    with pytest.raises(ValueError, match="method"):
        nl.e_icl_nonlinear("sin", 2.0, 2.0, 2.0, 0.1, method="x")


def test_extrapolate_models_choice_and_systematic():
    ds = [12, 16, 24, 32, 48]
    exact = [0.7 + 2.0 / d for d in ds]
    r = nl.extrapolate_models(ds, exact, [0.01] * 5, target=0.7)
    assert r["chosen"] == "1/d" and abs(r["intercept"] - 0.7) < 1e-10 and abs(r["z_total"]) < 1e-6
    curved = [0.7 + 2.0 / d + 40.0 / d ** 2 for d in ds]
    r = nl.extrapolate_models(ds, curved, [0.001] * 5, target=0.7)
    assert r["chosen"] == "1/d+1/d^2" and abs(r["intercept"] - 0.7) < 1e-8
    assert r["systematic"] > 0.01        # the a + b/d intercept is off: recorded as the fit-form systematic


def test_teacher_moments_of_numeric_constants_are_never_stale():
    """Numeric-constant teachers have no stable memo key (an object id can be reused by the next float): each
    call computes its own moments (regression: they were memoised by id)."""
    for i in range(40):
        c = float(i) / 7.0 + 0.25
        m = nl.teacher_moments(c)
        assert float(m["a0"]) == pytest.approx(c, rel=1e-12) and float(m["Ef2"]) == pytest.approx(c * c, rel=1e-12)


# ----------------------------------------------------------------------------------- one of each thing, validate once
def test_result1_routes_agree_with_the_reference_over_random_inputs():
    """Every route of RESULT1_ROUTES against REFERENCE_ROUTE at random (teacher, τ, α, κ) on both sides of τ = 1."""
    assert nl.REFERENCE_ROUTE in nl.RESULT1_ROUTES and set(nl.RESULT1_ROUTES) == {"rescale", "covariance"}
    rng = np.random.default_rng(2024)
    for _ in range(12):
        f = str(rng.choice(["sin", "tanh", "relu", "cube", "erf"]))
        tau = float(np.exp(rng.uniform(np.log(0.2), np.log(20.0))))
        alpha = float(np.exp(rng.uniform(np.log(0.3), np.log(50.0))))
        kappa = float(rng.choice([np.exp(rng.uniform(np.log(0.2), np.log(10.0))), math.inf]))
        ref = nl.e_icl_nonlinear(f, tau, alpha, kappa, RHO, method=nl.REFERENCE_ROUTE)
        for name in nl.RESULT1_ROUTES:
            assert nl.e_icl_nonlinear(f, tau, alpha, kappa, RHO, method=name) == pytest.approx(ref, rel=1e-8), \
                (name, f, tau, alpha, kappa)
    assert icl.COVARIANCE_ROUTE_D >= 100
    with pytest.raises(ValueError, match="lam = 0 only"):
        nl.e_icl_nonlinear("sin", 2.0, 2.0, 2.0, RHO, lam=0.1, method="covariance")


def test_setting_validates_once_and_names_the_parameter():
    s = nl.setting(2.0, 3.0, math.inf, 0.1, 0.2)
    assert (s.tau, s.alpha, s.kappa, s.rho, s.lam) == (2.0, 3.0, math.inf, 0.1, 0.2)
    assert s.replace(rho=0.5).rho == 0.5 and s.rho == 0.1                   # frozen: replace builds a new one
    with pytest.raises(ValueError, match="kappa"):
        nl.setting(2.0, 2.0, 1e17, 0.1)
    with pytest.raises(ValueError, match="rho_nl"):
        nl.setting(2.0, 2.0, 2.0, -1.0, rho_name="rho_nl")
    with pytest.raises(ValueError, match="rho_nl"):                          # risk_a1_zero's own parameter name
        nl.risk_a1_zero(0.5, float("nan"))
    with pytest.raises(TypeError, match="Setting"):
        nl.pure_noise_error((0.5, 1.0, math.inf, 1.0, 0.0))
    # the a₁ = 0 branch of Result 1 and the public risk are one function of one validated setting
    for tau, lam in ((0.5, 0.0), (2.0, 0.0), (0.7, 0.3)):
        assert nl.pure_noise_error(nl.setting(tau, 2.0, math.inf, 1.1, lam)) == nl.risk_a1_zero(tau, 1.1, 2.0, lam)


def test_rank_floor_closed_form_against_an_independent_integral():
    """The hand-written rank-r floor ρ + ½ − ½(1+4/r)^{−r/2} − (1+2/r)^{−r/2−1} against its definition
    ρ + E_σ[E sin²(σg) − (E g sin σg)²], σ² ~ Γ(r/2, 2/r), integrated by mpmath over σ² (the inner Gaussian
    means in closed form: E sin²(σg) = (1 − e^{−2σ²})/2, E g sin(σg) = σ e^{−σ²/2})."""
    for r in (1, 2, 3, 7, 40):
        k, th = mpmath.mpf(r) / 2, mpmath.mpf(2) / r
        dens = lambda v: v ** (k - 1) * mpmath.exp(-v / th) / (mpmath.gamma(k) * th ** k)  # noqa: E731
        inner = lambda v: (1 - mpmath.exp(-2 * v)) / 2 - v * mpmath.exp(-v)             # noqa: E731
        want = RHO + mpmath.quad(lambda v: dens(v) * inner(v), [0, 1, mpmath.inf])
        assert nl.rank_floor_sin(r, RHO) == pytest.approx(float(want), rel=1e-12), r


def test_extrapolate_is_the_asymptotic_rules_fit():
    """One finite-size fit: extrapolate reads the intercept and its SE from rules.asymptotic's weighted fit."""
    ds, ses = [12, 16, 24, 32, 40], [0.01, 0.012, 0.02, 0.015, 0.03]
    means = [0.7 + 1.3 / d + 0.004 * (-1) ** i for i, d in enumerate(ds)]
    law = rules.asymptotic("x", ds, means, ses, 0.0, margin=1.0, laws={"1/d": (1.0,)}).details["laws"]["1/d"]
    r = nl.extrapolate(ds, means, ses)
    assert r["intercept"] == law["intercept"] and r["chi2"] == law["chi2"] and r["p_fit"] == law["p_gof"]
    assert r["se"] == law["intercept_se"] * max(1.0, math.sqrt(law["chi2"] / law["dof"]))
    with pytest.raises(ValueError, match="points"):
        nl.extrapolate([8, 16], [1.0, 0.9], [0.1, 0.1])
