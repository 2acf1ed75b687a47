"""theorycheck.papers.nonlinear.theory (re-exported by theorycheck.nonlinear): rho's, the linear-ICL formulas and
their limits, the a1 = 0 branch, Result 1, the simulator of the actual predictor and the helpers of the paper-004
checks. Monte Carlo comparisons are Student t at a stated α (df from the number of independent trials or samples).
The paper module (claims, self-checks, mutants) is tested in tests/test_nonlinear_paper.py.

Oracles: exact SymPy moments; the ridge formula's lambda -> 0 limit against the separately coded
ridgeless branches; kappa -> inf against the simplified closed form; the general-covariance formula
at C = I; the generated code of derivations/nonlinear_a1_zero.py; direct simulations of pure-noise
ridge regression; brute-force context construction against the projected sampler.
"""
import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from theorycheck.papers.nonlinear import theory as nl
from theorycheck.papers.nonlinear.fixtures import aniso_covariances
from theorycheck.verdicts import Estimate

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
    from theorycheck.papers.nonlinear.generated import nonlinear_hermite as NH
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
    from theorycheck.papers.nonlinear.generated import nonlinear_a1_zero as NA
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
    from scipy import stats
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


# ----------------------------------------------------------------------------------- simulator
def test_context_statistics_projected_equals_direct_in_law():
    """Both samplers against the exact finite-ℓ moments (one joint Hotelling test each, α = 1e-3)."""
    from theorycheck.verdicts import selfcheck
    for method, seed in (("direct", 11), ("projected", 12)):
        names, smp, exact = nl.appendix_b_samples("sin", 8, 3.0, RHO, 6000, np.random.default_rng(seed), method=method)
        chk = selfcheck.components(method, smp.mean(0), exact, np.cov(smp.T) / smp.shape[0], n=smp.shape[0],
                                   df=smp.shape[0] - 1)
        assert chk.p_value > 1e-3, (method, chk.details)


def test_appendix_b_exact_values_linear_teacher():
    """Known answers for f = g, ρ = 0: a₁ = 1, ρ_f = 1, μ₂₂ = E g⁴ = 3, μ₃₁ = 3, μ₄ = 3."""
    m = nl.label_moments("linear", 0.0)
    assert (m["a1"], m["rho_f"], m["mu22"], m["mu31"], m["mu4"]) == (1.0, 1.0, 3.0, 3.0, 3.0)
    names, smp, exact = nl.appendix_b_samples("linear", 4, 2.0, 0.0, 3, np.random.default_rng(0))
    # ℓ = 8, αd = 8: E[(wᵀu)²]/d² = ρ_f/(αd) + a₁² + (μ₂₂ − ρ_f − a₁²)/(αd) = 1/8 + 1 + 1/8
    assert exact[names.index("E[(wᵀu)²]/d² (a₁² + O(1/ℓ))")] == pytest.approx(1.25)
    assert exact[names.index("E[s²|w] (ρ_f² + O(1/ℓ))")] == pytest.approx(1 + 2 / 8)
    with pytest.raises(ValueError, match="method"):
        nl.appendix_b_samples("linear", 4, 2.0, 0.0, 3, np.random.default_rng(0), method="x")


def test_rao_blackwell_query_error():
    """E_x[(f(xᵀw) + ε − xᵀv)²] = E_t[(f(t) − βt)²] + ρ + |P⊥v|²/d: two Monte Carlo routes, Welch t at α = 1e-4."""
    from scipy import stats
    rng = np.random.default_rng(5)
    d = 10
    w, v = rng.standard_normal(d), rng.standard_normal(d) * 0.5
    _, fn = nl.teacher("tanh")
    X = rng.standard_normal((400000, d)) / math.sqrt(d)
    naive = Estimate.from_samples((fn(X @ w) + math.sqrt(RHO) * rng.standard_normal(X.shape[0]) - X @ v) ** 2)
    nw2 = w @ w
    beta = w @ v / nw2
    t = rng.standard_normal(400000) * math.sqrt(nw2 / d)
    rb = Estimate.from_samples((fn(t) - beta * t) ** 2 + RHO + (v @ v - beta ** 2 * nw2) / d)
    diff = Estimate.difference(naive, rb)
    assert abs(diff.mean) < stats.t.isf(1e-4 / 2, diff.df) * diff.se, (naive, rb)


def test_simulation_reproducible_and_seed_sensitive():
    a = nl.simulate_icl("sin", 8, 2, 2, 2.0, RHO, trials=2, seed=4, n_test=200)
    b = nl.simulate_icl("sin", 8, 2, 2, 2.0, RHO, trials=2, seed=4, n_test=200)
    c = nl.simulate_icl("sin", 8, 2, 2, 2.0, RHO, trials=2, seed=5, n_test=200)
    assert a.mean == b.mean and a.se == b.se and a.mean != c.mean


def test_simulation_trend_to_theory_linear_teacher():
    """Linear teacher, κ = ∞, α = 2, τ = 3 over d = 8..24: the engine's asymptotic rule (both declared
    finite-size laws, Student t with the smallest per-size df) must not reject the linear ICL formula at
    α = 1e-3, and the finite-d excess shrinks from the smallest to the largest d by more than 3 SEs."""
    from theorycheck.verdicts import rules
    ds, means, ses, dfs = [], [], [], []
    for d, T in ((8, 24), (12, 16), (16, 12), (24, 8)):
        e = nl.simulate_icl_sweep("linear", d, 2.0, math.inf, [3.0], RHO, trials=T, seed=100 + d, n_test=600).estimate(0)
        ds.append(d), means.append(e.mean), ses.append(e.se), dfs.append(e.df)
    th = nl.e_icl_linear(3.0, 2.0, math.inf, RHO)
    s = rules.asymptotic("linear teacher → e_lin", ds, means, ses, th, margin=0.05, relative=True, dfs=dfs)
    assert s.p_value["against"] > 1e-3, s.details["laws"]
    assert means[0] - means[-1] > 3 * math.hypot(ses[0], ses[-1])


def test_task_laws():
    """Gaussian tasks: E‖w‖²/d = 1 (Student t); normalised tasks: ‖w‖² = d exactly; C scales coordinates."""
    from scipy import stats
    from theorycheck.models.prompts import draw_tasks
    rng = np.random.default_rng(2)
    W = draw_tasks(rng, 4000, 16, None, False)
    est = Estimate.from_samples(np.sum(W * W, axis=1) / 16)
    assert abs(est.mean - 1.0) < stats.t.isf(5e-4, est.df) * est.se
    Wn = draw_tasks(rng, 50, 16, None, True)
    assert np.allclose(np.sum(Wn * Wn, axis=1), 16.0, rtol=1e-13)
    c = np.r_[np.full(4, 2.0), np.zeros(12)]
    assert np.all(draw_tasks(rng, 10, 16, c, False)[:, 4:] == 0)


def test_simresult_statistics_are_student_t_over_trials():
    r = nl.simulate_icl_sweep("sin", 8, 2, 2, [0.5, 2.0], RHO, trials=5, seed=3, n_test=100)
    assert r.df == 4
    assert np.allclose(r.se, r.trial_means.std(axis=0, ddof=1) / math.sqrt(5))
    e = r.estimate(1)
    assert e.mean == pytest.approx(r.mean[1]) and e.se == pytest.approx(r.se[1]) and e.df == 4
    one = nl.simulate_icl_sweep("sin", 8, 2, 2, [2.0], RHO, trials=1, seed=3, n_test=100)
    assert np.isnan(one.se[0]) and one.df == 0


def test_label_rescaling_equivariance_is_exact_above_threshold():
    """n > p: labels ÷ a₁ (noise ρ/a₁²) gives exactly the MSE ÷ a₁² trial by trial (same random numbers)."""
    a1 = math.exp(-0.5)
    kw = dict(trials=2, seed=4, n_test=100)
    a = nl.simulate_icl_sweep("sin", 6, 2.0, 2.0, [2.0, 3.0], RHO, **kw)
    b = nl.simulate_icl_sweep(sp.sin(G) / sp.exp(-sp.S.Half), 6, 2.0, 2.0, [2.0, 3.0], RHO / a1 ** 2, **kw)
    assert np.allclose(b.trial_means * a1 ** 2, a.trial_means, rtol=1e-8, atol=0)


def test_fit_prefixes_shared_kernel_equals_separate_solves():
    from theorycheck.models.ridge import fit_prefixes
    rng = np.random.default_rng(5)
    X, y = rng.standard_normal((60, 20)), rng.standard_normal(60)
    ns = [5, 12, 20, 33, 60]
    for lam in (0.0, 0.2):
        for n, g_ in zip(ns, fit_prefixes(X, y, ns, 4, lam)):
            ref = np.linalg.pinv(X[:n]) @ y[:n] if lam == 0 else np.linalg.solve(
                (n / 4) * lam * np.eye(20) + X[:n].T @ X[:n], X[:n].T @ y[:n])
            assert np.allclose(g_, ref, rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError, match="ascending"):
        fit_prefixes(X, y, [12, 5], 4, 0.0)
    with pytest.raises(ValueError, match="lam"):
        fit_prefixes(X, y, [5], 4, -1.0)


def test_helpers_known_answers():
    from scipy import integrate
    e, r = nl.surrogate_teacher("sin", RHO)
    assert abs(float(e.coeff(G)) - math.exp(-0.5)) < 1e-15 and r == pytest.approx(0.164452917210251, abs=1e-14)
    # rank-1 floor by direct quadrature: σ = |z|, z ~ N(0, 1), of the inner closed forms
    def inner(z):
        return (0.5 * (1 - math.exp(-2 * z * z)) - z * z * math.exp(-z * z)) * math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    q = integrate.quad(inner, -np.inf, np.inf, epsabs=1e-13)[0]
    assert nl.rank_floor_sin(1, RHO) == pytest.approx(RHO + q, abs=1e-12)
    est = Estimate.from_samples(nl.rank_floor_samples("sin", 4, RHO, 20000, np.random.default_rng(1)))
    assert abs(est.mean - nl.rank_floor_sin(4, RHO)) < 4.5 * est.se
    with pytest.raises(ValueError, match="r must"):
        nl.rank_floor_sin(0, RHO)


def test_sweep_prefix_matches_single_tau():
    """The τ's of one sweep share a training set: the τ = 2 point of a two-τ sweep equals a one-τ run with
    the same seed (same n_max, so the same draws)."""
    s = nl.simulate_icl_sweep("sin", 8, 2, 2, [0.5, 2.0], RHO, trials=2, seed=9, n_test=300)
    one = nl.simulate_icl_sweep("sin", 8, 2, 2, [2.0], RHO, trials=2, seed=9, n_test=300)
    assert s.mean.shape == (2,) and np.all(s.mean > RHO)
    assert np.allclose(s.trial_means[:, 1], one.trial_means[:, 0], rtol=1e-10)


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


# ----------------------------------------------------------------------------------- round 2: solver, sampler, laws
@pytest.mark.parametrize("lam", [0.0, 0.25])
def test_factored_fit_equals_design_matrix_fit(lam):
    """Hadamard dual kernel, one shared Cholesky factor, unique-product primal Gram: the same solutions as
    fit_prefixes on the explicit features (dual and primal prefixes, and a duplicated-row design whose kernel is
    singular, which takes the fallback route)."""
    from theorycheck.models.attention import reduced_features
    from theorycheck.models.ridge import fit_prefixes, fit_prefixes_factored
    rng = np.random.default_rng(3)
    d = 5
    for n, ns in ((70, [10, 29, 30, 31, 70]), (40, [40])):
        x, U, S, y = (rng.standard_normal((n, d)), rng.standard_normal((n, d)), rng.standard_normal(n),
                      rng.standard_normal(n))
        H = reduced_features(x, U, S)
        a = fit_prefixes_factored(x, np.column_stack([U, S]), y, ns, d, lam)
        b = fit_prefixes(H, y, ns, d, lam)
        for u, v in zip(a, b):
            assert np.allclose(u, v, rtol=1e-8, atol=1e-10)
    x = np.repeat(rng.standard_normal((6, d)), 2, axis=0)          # duplicated rows: singular kernel
    Z = np.repeat(rng.standard_normal((6, d + 1)), 2, axis=0)
    y = np.repeat(rng.standard_normal(6), 2)
    H = (x[:, :, None] * Z[:, None, :]).reshape(12, -1)
    got = fit_prefixes_factored(x, Z, y, [12], d, lam)[0]
    want = np.linalg.pinv(H) @ y if lam == 0 else np.linalg.solve((12 / d) * lam * np.eye(H.shape[1]) + H.T @ H,
                                                                  H.T @ y)
    assert np.allclose(H @ got, H @ want, atol=1e-8) and np.allclose(got, want, atol=1e-6)


@pytest.mark.parametrize("f", ["linear", "sin"])
@pytest.mark.parametrize("ell", [1, 2, 5])
def test_projected_sampler_noise_statistics_match_direct(f, ell):
    """The projected sampler draws the label noise through its sufficient statistics (two normals and a
    χ²_{ℓ−2}); the joint law of (s, ŵᵀu, s², (ŵᵀu)², s·ŵᵀu) must equal the direct sampler's (one Hotelling test,
    α = 1e-4; f = g makes span{t, f(t)} one-dimensional, ℓ = 1, 2 are the edge cases)."""
    from scipy import stats
    from theorycheck.models.prompts import context_statistics
    _, fn = nl.teacher(f)
    d, n = 6, 40000
    w = np.random.default_rng(0).standard_normal(d)
    w *= math.sqrt(d) / np.linalg.norm(w)
    W = np.tile(w, (n, 1))
    feats = []
    for method, seed in (("projected", 1), ("direct", 2)):
        U, S = context_statistics(fn, W, ell, 0.3, np.random.default_rng(seed), method)
        p = U @ w / math.sqrt(d)
        feats.append(np.column_stack([S, p, S * S, p * p, S * p]))
    a, b = feats
    diff = a.mean(0) - b.mean(0)
    cov = np.cov(a.T) / n + np.cov(b.T) / n
    t2 = float(diff @ np.linalg.solve(cov, diff))
    assert stats.chi2.sf(t2, diff.size) > 1e-4, (diff, t2)


def test_input_and_noise_laws():
    """Unit-variance Student-t laws; ν = ∞ is the Gaussian drawn through the same code (identical standard-normal
    stream); elliptical inputs make xᵀw heavy-tailed even at large d, independent coordinates do not."""
    from scipy import stats
    from theorycheck.models.prompts import draw_inputs, draw_noise
    d, n = 64, 40000
    for law in (("iid-t", 5.0), ("elliptical-t", 5.0)):
        x = draw_inputs(np.random.default_rng(1), (n,), d, law, np.random.default_rng(2))
        assert abs(np.mean(np.sum(x * x, axis=1)) - 1.0) < 0.03                  # E‖x‖² = tr(I/d) = 1
    w = np.ones(d)
    k_iid = stats.kurtosis(draw_inputs(np.random.default_rng(1), (n,), d, ("iid-t", 5.0), np.random.default_rng(2)) @ w)
    k_ell = stats.kurtosis(draw_inputs(np.random.default_rng(1), (n,), d, ("elliptical-t", 5.0),
                                       np.random.default_rng(2)) @ w)
    assert abs(k_iid) < 0.5 and k_ell > 2.0                                      # t₅: excess kurtosis 6
    g = draw_inputs(np.random.default_rng(4), (3,), d)
    assert np.array_equal(draw_inputs(np.random.default_rng(4), (3,), d, ("iid-t", math.inf), np.random.default_rng(9)), g)
    e = draw_noise(np.random.default_rng(5), 200000, 0.3, ("t", 4.5), np.random.default_rng(6))
    assert abs(e.var() - 0.3) < 0.03
    with pytest.raises(ValueError, match="nu"):
        draw_inputs(np.random.default_rng(0), (2,), 3, ("iid-t", 2.0))
    with pytest.raises(ValueError, match="kind"):
        draw_inputs(np.random.default_rng(0), (2,), 3, ("cauchy", 5.0))


def test_stress_laws_are_coupled_to_their_baseline():
    """A law with ν → ∞ reproduces its ν = ∞ baseline trial by trial (shared standard-normal streams): the
    stress paths' paired differences are exactly 0 at the anchor and small near it."""
    base = nl.simulate_icl_sweep("sin", 6, 2, 2, [1.5], RHO, trials=3, seed=3, n_test=50, input_law=("iid-t", math.inf))
    near = nl.simulate_icl_sweep("sin", 6, 2, 2, [1.5], RHO, trials=3, seed=3, n_test=50, input_law=("iid-t", 1e9))
    assert np.allclose(base.trial_means, near.trial_means, rtol=2e-3)          # scales 1 ± O(ν^-1/2)
    nb = nl.simulate_icl_sweep("sin", 6, 2, 2, [1.5], RHO, trials=3, seed=3, n_test=50, noise_law=("t", math.inf))
    nn = nl.simulate_icl_sweep("sin", 6, 2, 2, [1.5], RHO, trials=3, seed=3, n_test=50, noise_law=("t", 1e9))
    assert np.allclose(nb.trial_means, nn.trial_means, rtol=2e-3)
    with pytest.raises(ValueError, match="input_law"):
        nl.simulate_icl_sweep("sin", 6, 2, 2, [1.5], RHO, input_law=("iid-t", 1.5))


def test_resource_guards_refuse_instantly_and_name_the_parameter():
    import time
    cases = [(dict(n_test=10 ** 10), "n_test"), (dict(tau=3000.0, d=64), "tau"), (dict(d=400), "d = 400"),
             (dict(trials=10 ** 9), "trials"), (dict(tau=1e300), "tau"), (dict(alpha=1e300), "alpha")]
    for kw, name in cases:
        args = dict(f="sin", d=8, alpha=2.0, kappa=2.0, tau=2.0, rho=0.1, trials=2, seed=0, n_test=100)
        args.update(kw)
        t0 = time.perf_counter()
        with pytest.raises(ValueError, match=name) as exc:
            nl.simulate_icl(**args)
        assert time.perf_counter() - t0 < 0.5, kw
        assert "n_max" not in str(exc.value) and "* p" not in str(exc.value)      # the user's parameters, not internals
    from theorycheck.models.prompts import context_statistics
    with pytest.raises(ValueError, match="ell"):
        context_statistics(np.sin, np.ones((2, 3)), 10 ** 10, 0.1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="reps"):
        nl.pure_noise_ridge_samples(1000, 1000, 1.0, 1.0, 0.0, 10 ** 9, np.random.default_rng(0))


def test_reliability_of_the_area_and_its_coverage():
    """Every public function of paper 004's theory and of its models has a baseline, and the fuzz of the
    area finds no failure (no unnamed error, NaN, stray exception, hang or runaway allocation)."""
    from theorycheck.selftest import reliability as R
    mine = [f for f in R.public_functions() if f.startswith("theorycheck.papers.nonlinear.theory.")
            or f in ("theorycheck.models.prompts.draw_tasks", "theorycheck.models.prompts.context_statistics",
                     "theorycheck.models.prompts.draw_inputs", "theorycheck.models.prompts.draw_noise",
                     "theorycheck.models.prompts.t_scales", "theorycheck.models.ridge.fit_prefixes",
                     "theorycheck.models.ridge.fit_prefixes_factored", "theorycheck.models.attention.reduced_features")]
    covered = {b.fn for b in R.baselines(("nonlinear",))}
    assert len(mine) >= 30 and set(mine) <= covered, sorted(set(mine) - covered)
    res = R.fuzz(("nonlinear",), jobs=2)
    assert res["failures"] == [], "\n".join(f"{f['fn']}({f['param']}={f['value']}): {f['class']} {f['detail']}"
                                            for f in res["failures"][:40])


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
    from theorycheck.papers.nonlinear.theory import icl
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
    import mpmath
    for r in (1, 2, 3, 7, 40):
        k, th = mpmath.mpf(r) / 2, mpmath.mpf(2) / r
        dens = lambda v: v ** (k - 1) * mpmath.exp(-v / th) / (mpmath.gamma(k) * th ** k)  # noqa: E731
        inner = lambda v: (1 - mpmath.exp(-2 * v)) / 2 - v * mpmath.exp(-v)             # noqa: E731
        want = RHO + mpmath.quad(lambda v: dens(v) * inner(v), [0, 1, mpmath.inf])
        assert nl.rank_floor_sin(r, RHO) == pytest.approx(float(want), rel=1e-12), r


def test_extrapolate_is_the_asymptotic_rules_fit():
    """One finite-size fit: extrapolate reads the intercept and its SE from rules.asymptotic's weighted fit."""
    from theorycheck.verdicts import rules
    ds, ses = [12, 16, 24, 32, 40], [0.01, 0.012, 0.02, 0.015, 0.03]
    means = [0.7 + 1.3 / d + 0.004 * (-1) ** i for i, d in enumerate(ds)]
    law = rules.asymptotic("x", ds, means, ses, 0.0, margin=1.0, laws={"1/d": (1.0,)}).details["laws"]["1/d"]
    r = nl.extrapolate(ds, means, ses)
    assert r["intercept"] == law["intercept"] and r["chi2"] == law["chi2"] and r["p_fit"] == law["p_gof"]
    assert r["se"] == law["intercept_se"] * max(1.0, math.sqrt(law["chi2"] / law["dof"]))
    with pytest.raises(ValueError, match="points"):
        nl.extrapolate([8, 16], [1.0, 0.9], [0.1, 0.1])
