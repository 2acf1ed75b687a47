"""Tests for paper 000: GLA under AR(1) drift (theorycheck.papers.gla.theory, re-exported as theorycheck.gla, and
theorycheck.adaptive_filters)."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from scipy import optimize

from theorycheck import adaptive_filters as af
from theorycheck import gla
from theorycheck import montecarlo as mc
from theorycheck.models.attention import gla_forward
from theorycheck.models.prompts import ar1_drift_prompts

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ exact formulas vs recursion
@pytest.mark.parametrize("lam,gamma,n,L,sw2,se2,noise,seed", [
    (0.6, 0.9, 8, np.diag([1.5, 0.5]), 1.0, 0.1, 0.2, 11),
    (1.0, 1.0, 6, np.eye(3), 1.0, 0.0, 0.0, 12),          # stationary linear attention
    (0.4, 0.7, 12, np.array([[1.0, 0.3], [0.3, 0.8]]), 0.3, 0.5, 0.0, 13),
])
def test_train_error_matches_gla_recursion(lam, gamma, n, L, sw2, se2, noise, seed):
    exact = gla.train_error_general(lam, gamma, n, L, sw2, se2, noise)
    est = gla.simulate_gla(lam, gamma, n, L, sw2, se2, noise, n_samples=30000, seed=seed)
    cmp = mc.compare(exact, est)
    assert cmp.agrees, cmp


def test_test_error_under_shift_matches_recursion():
    L = np.eye(2)
    opt = gla.optimal_parameters(0.7, 0.8, 10, L, 1.0, 0.1)
    exact = gla.test_error(0.7, 0.8, 10, L, 1.0, 0.1, test_gamma=0.95, test_n=20, test_noise=0.3,
                           test_Lambda=np.diag([2.0, 0.5]))
    est = gla.simulate_gla(0.7, 0.95, 20, np.diag([2.0, 0.5]), 1.0, 0.1, 0.3, W_KQ=opt.W_KQ, W_V=opt.W_V,
                           n_samples=30000, seed=5)
    assert mc.compare(exact, est).agrees


def test_full_parameters_only_add_error():
    """(u, b) ≠ 0 at fixed Γ adds E[(T1+T2)²] > 0: exact optimum is the reduced one."""
    d, n = 2, 6
    opt = gla.optimal_parameters(0.8, 0.9, n, np.eye(d), 1.0, 0.1)
    WV, WKQ = opt.W_V.copy(), opt.W_KQ.copy()
    WV[d, :d] = [0.3, -0.2]
    WKQ[d, :d] = [0.2, 0.1]
    WKQ[:d, :d] = (opt.Gamma - np.outer(WKQ[d, :d], WV[d, :d])).T
    base = gla.simulate_gla(0.8, 0.9, n, np.eye(d), 1.0, 0.1, n_samples=20000, seed=3)
    pert = gla.simulate_gla(0.8, 0.9, n, np.eye(d), 1.0, 0.1, W_KQ=WKQ, W_V=WV, n_samples=20000, seed=3)
    assert (pert.mean - base.mean) / np.hypot(pert.se, base.se) > 5


def test_optimal_gamma_is_numerical_minimiser():
    """Closed-form Γ* vs a numerical minimiser of the exact loss (d = 3, random Λ, noise)."""
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    L = Q @ np.diag([0.4, 1.0, 2.5]) @ Q.T
    L = (L + L.T) / 2
    args = (0.75, 0.85, 15, L, 0.8, 0.2, 0.3)
    opt = gla.optimal_parameters(*args)
    res = optimize.minimize(lambda g: gla.population_loss(g.reshape(3, 3), *args), np.zeros(9), method="BFGS",
                            options={"gtol": 1e-12})
    assert np.allclose(res.x.reshape(3, 3), opt.Gamma, atol=1e-6 * np.abs(opt.Gamma).max())
    assert abs(res.fun - opt.train_error) < 1e-10 * max(1.0, abs(opt.train_error))
    # Γ* ∝ Λ̃⁻¹ and Λ̃ commutes with Λ (a matrix function of Λ)
    Lt = opt.Lambda_tilde
    assert np.allclose(Lt @ L, L @ Lt)
    assert np.allclose(opt.Gamma, opt.scale * np.linalg.inv(Lt))


def test_general_lambda_identity_reduces_to_isotropic():
    for lam, gamma, noise in [(0.3, 0.5, 0.0), (0.9, 0.99, 1.0), (1.0, 0.8, 0.1)]:
        a = gla.train_error_general(lam, gamma, 40, np.eye(4), 1.2, 0.05, noise)
        b = gla.train_error(lam, gamma, 40, 4, 1.2, 0.05, noise)
        assert abs(a - b) < 1e-12 * max(1, abs(b))
        assert gla.train_error(lam, gamma, 40, 4, 1.2, 0.05, noise, halved=True) == pytest.approx(b / 2, rel=1e-15)


# ------------------------------------------------------------------ limits
@pytest.mark.parametrize("n,d", [(1, 1), (5, 3), (20, 10), (100, 10), (1000, 50)])
def test_zhang_frei_bartlett_limit(n, d):
    assert gla.train_error(1.0, 1.0, n, d, 1.0, 0.0) == pytest.approx(d * (d + 1) / (n + d + 1), rel=1e-12)
    L = np.diag(np.linspace(0.5, 2.0, min(d, 5)))
    want = (1 + 1 / n) * L + np.trace(L) / n * np.eye(L.shape[0])
    assert np.allclose(gla.effective_covariance(1.0, 1.0, n, L, 1.0, 0.0), want, rtol=1e-12, atol=1e-14)


def test_zfb_symbolic_from_generated_module():
    import sympy as sp
    from theorycheck.papers.gla.generated import gla_loss as gen
    n, d = sp.symbols("n d", positive=True)
    assert sp.simplify(gen.stationary_train_error(n, d, 1, 0, 0) - d * (d + 1) / (n + d + 1)) == 0


def test_lambda_one_is_linear_attention():
    rng = np.random.default_rng(1)
    X, Y = ar1_drift_prompts(rng, 20, 0.9, 5, np.eye(2), 1.0, 0.1, 0.0)
    WV, WKQ = rng.standard_normal((3, 3)), rng.standard_normal((3, 3))
    Z = np.concatenate([X, np.concatenate([Y[:, :-1], np.zeros((20, 1))], axis=1)[:, :, None]], axis=2)
    la = np.einsum("ij,bjk,kl,bl->bi", WV, np.einsum("bti,btj->bij", Z, Z), WKQ, Z[:, -1])[:, 2]
    assert np.allclose(gla_forward(X, Y, 1.0, WKQ, WV), la, rtol=1e-12, atol=1e-12)


def test_closed_forms_match_direct_sums():
    worst = 0.0
    for lam in np.linspace(0.05, 1.0, 25):
        for gamma in (0.3, 0.6, 0.8, 0.95, 1.0):
            for n in (1, 2, 7, 60, 500):
                a = gla.moment_sums(lam, gamma, n, 1.3, 0.07, method="direct")
                b = gla.moment_sums(lam, gamma, n, 1.3, 0.07, method="auto")
                for k in ("D1", "B", "A2", "N0", "s_q"):
                    worst = max(worst, abs(getattr(a, k) - getattr(b, k)) / abs(getattr(a, k)))
    assert worst < 1e-9


def test_large_d_maximiser_is_gamma():
    for gamma in (0.5, 0.8, 0.95):
        res = optimize.minimize_scalar(lambda x: -gla.xi_large_d(x, gamma, 80, 5.0, 0.01), bounds=(0.05, 1.0),
                                       method="bounded", options={"xatol": 1e-10})
        assert abs(res.x - gamma) < 1e-6


def test_optimal_lambda_matches_dense_grid():
    r = gla.optimal_lambda(0.8, 100, 10, 1.0, 0.01)
    grid = np.linspace(0.6, 0.9, 3001)
    errs = [gla.train_error(x, 0.8, 100, 10, 1.0, 0.01) for x in grid]
    assert r.error <= min(errs) + 1e-12
    assert abs(r.lam - grid[int(np.argmin(errs))]) < 2e-4
    assert r.lam < 0.8 and not r.at_boundary


@settings(max_examples=25, deadline=None)
@given(lam=st.floats(0.05, 1.0), gamma=st.floats(0.05, 1.0), n=st.integers(1, 60), d=st.integers(1, 20),
       sw2=st.floats(0.0, 3.0), se2=st.floats(0.0, 1.0), noise=st.floats(0.0, 2.0))
def test_error_between_floor_and_zero_predictor(lam, gamma, n, d, sw2, se2, noise):
    e = gla.train_error(lam, gamma, n, d, sw2, se2, noise)
    s = gla.moment_sums(lam, gamma, n, sw2, se2)
    assert e >= gla.irreducible_floor(np.eye(d), se2, noise) - 1e-9 * max(1.0, e)
    assert e <= d * s.s_q + noise + 1e-9 * max(1.0, e)


# ------------------------------------------------------------------ gradient flow
@pytest.mark.parametrize("init,L", [("structured", np.eye(2)), ("random", np.diag([1.5, 0.6]))])
def test_gradient_flow_reaches_closed_form_optimum(init, L):
    fr = gla.gradient_flow(0.7, 0.85, 10, L, 1.0, 0.1, 0.1, init=init, seed=4)
    assert fr.extra["final_rel_dist"] < 1e-8
    assert fr.loss[-1] - fr.loss_star < 1e-10 * max(1.0, fr.loss_star)
    assert abs(fr.rate_fit / fr.extra["nearest_linearised_rate"] - 1) < 0.05
    assert fr.conserved_drift < 1e-6


# ------------------------------------------------------------------ full parametrisation
def test_query_term_sixth_moment_against_engine():
    """E[(aᵀx)²(xᵀMx)²] closed form used for the query token's own term, vs the shared Isserlis engine."""
    from theorycheck.gaussian import expect_product
    rng = np.random.default_rng(3)
    for d in (1, 2, 4):
        a, A = rng.standard_normal(d), rng.standard_normal((d, d))
        M = (A + A.T) / 2
        want = (a @ a) * (np.trace(A) ** 2 + 2 * np.sum(M * M)) + 4 * np.trace(A) * (a @ M @ a) + 8 * (a @ M @ M @ a)
        assert expect_product(np.eye(d), [a, a], [A, A]) == pytest.approx(want, rel=1e-12)
        b = rng.standard_normal(d)
        want3 = (a @ b) * np.trace(A) + 2 * (a @ M @ b)
        assert expect_product(np.eye(d), [a, b], [A]) == pytest.approx(want3, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("d,noise,seed", [(2, 0.1, 31), (3, 0.0, 32)])
def test_full_parameter_loss_matches_recursion(d, noise, seed):
    rng = np.random.default_rng(seed)
    u, b = 0.4 * rng.standard_normal(d), 0.4 * rng.standard_normal(d)
    v, A = float(rng.standard_normal()), 0.3 * rng.standard_normal((d, d))
    ex = gla.full_parameter_loss(u, v, A, b, 0.7, 0.9, 5, d, 1.0, 0.2, noise)
    WV = rng.standard_normal((d + 1, d + 1))
    WV[d, :d], WV[d, d] = u, v
    WKQ = rng.standard_normal((d + 1, d + 1))
    WKQ[:d, :d], WKQ[d, :d] = A, b
    est = gla.simulate_gla(0.7, 0.9, 5, np.eye(d), 1.0, 0.2, noise, W_KQ=WKQ, W_V=WV, n_samples=60000, seed=seed)
    assert mc.compare(ex, est).agrees


def test_full_flow_small_init_converges():
    fr = gla.full_gradient_flow(0.8, 0.9, 10, 2, 1.0, 0.1, 0.1, sigma=0.01, seed=1, n_points=60)
    assert fr["loss_gap"][-1] < 1e-9 and fr["rel_dist_gamma"][-1] < 1e-6


# ------------------------------------------------------------------ adaptive filters
def _stream(seed=2, T=150, d=3):
    return af.ar1_stream(np.random.default_rng(seed), 1, T, d, 0.95, 1.0, 0.05, 0.1)


def test_lms_matches_padasip():
    pa = pytest.importorskip("padasip")
    X, Y = _stream()
    f = pa.filters.FilterLMS(3, mu=0.03, w="zeros")
    errs = []
    for t in range(X.shape[0]):
        yh = f.predict(X[t, 0])
        errs.append((Y[t, 0] - yh) ** 2)
        f.adapt(Y[t, 0], X[t, 0])
    assert np.allclose(errs, af.lms_errors(X, Y, 0.03)[:, 0], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("beta,delta", [(0.97, 0.5), (1.0, 0.1)])
def test_rls_matches_padasip(beta, delta):
    pa = pytest.importorskip("padasip")
    X, Y = _stream()
    f = pa.filters.FilterRLS(3, mu=beta, eps=delta, w="zeros")   # padasip: mu = forgetting factor
    errs = []
    for t in range(X.shape[0]):
        yh = f.predict(X[t, 0])
        errs.append((Y[t, 0] - yh) ** 2)
        f.adapt(Y[t, 0], X[t, 0])
    assert np.allclose(errs, af.rls_errors(X, Y, beta, delta)[:, 0], rtol=1e-8, atol=1e-10)


def test_kalman_is_best_and_gla_stream_matches_exact():
    X, Y = af.ar1_stream(np.random.default_rng(9), 3000, 60, 3, 0.9, 1.0, 0.05, 0.05)
    kal = mc.from_samples(af.kalman_errors(X, Y, 0.9, 1.0, 0.05, 0.05)[-1])
    lms = mc.from_samples(af.lms_errors(X, Y, 0.05)[-1])
    r = gla.optimal_lambda(0.9, 59, 3, 1.0, 0.05, 0.05)
    opt = gla.optimal_parameters(r.lam, 0.9, 59, np.eye(3), 1.0, 0.05, 0.05)
    g = mc.from_samples(af.gla_stream_errors(X, Y, r.lam, opt.Gamma)[-1])
    assert mc.compare(r.error, g).agrees
    assert kal.mean < g.mean and kal.mean < lms.mean
    assert kal.mean > gla.irreducible_floor(np.eye(3), 0.05, 0.05)


# ------------------------------------------------------------------ generated code
def test_generated_module_is_up_to_date(tmp_path):
    from theorycheck import codegen
    from theorycheck.papers.gla.derivations import gla_loss as derivation
    with codegen.output_root(tmp_path):
        paths = derivation.main()
    for p in paths:
        committed = ROOT / "theorycheck" / "papers" / "gla" / "generated" / Path(p).name
        assert Path(p).read_text() == committed.read_text(), f"{committed.name} is stale or hand-edited"


def test_derivation_pairs_are_identities():
    import sympy as sp
    from theorycheck.papers.gla.derivations import gla_loss as derivation
    G, want = derivation.stationary_point_pair()
    assert (G - want).applyfunc(sp.simplify) == sp.zeros(2, 2)
    Lstar, want, _ = derivation.train_error_pair()
    assert sp.simplify(Lstar - want) == 0
    lhs, rhs = derivation.cauchy_schwarz_pair(3)
    assert sp.expand(lhs - rhs) == 0


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("call,match", [
    (lambda: gla.train_error(0.0, 0.5, 10, 2, 1, 0.1), "lam"),
    (lambda: gla.train_error(1.2, 0.5, 10, 2, 1, 0.1), "lam"),
    (lambda: gla.train_error(0.5, 1.5, 10, 2, 1, 0.1), "gamma"),
    (lambda: gla.train_error(0.5, 0.0, 10, 2, 1, 0.1), "gamma"),
    (lambda: gla.train_error(0.5, 0.5, 0, 2, 1, 0.1), "n"),
    (lambda: gla.train_error(0.5, 0.5, 10, 0, 1, 0.1), "d"),
    (lambda: gla.train_error(0.5, 0.5, 10, 2, -1, 0.1), "sigma_w2"),
    (lambda: gla.train_error(0.5, 0.5, 10, 2, 1, float("nan")), "sigma_e2"),
    (lambda: gla.train_error(0.5, 0.5, 10, 2, 1, 0.1, noise=-0.1), "noise"),
    (lambda: gla.optimal_lambda(1.1, 10, 2, 1, 0.1), "gamma"),
    (lambda: gla.effective_covariance(0.5, 0.5, 10, np.array([[1.0, 2.0], [2.0, 1.0]]), 1, 0.1), "Lambda"),
    (lambda: gla.effective_covariance(0.5, 0.5, 10, np.ones((2, 3)), 1, 0.1), "Lambda"),
    (lambda: gla.simulate_gla(0.5, 0.5, 3, np.eye(2), 1, 0.1, W_KQ=np.eye(2), W_V=np.eye(3)), "W_KQ"),
    (lambda: gla.simulate_gla(0.5, 0.5, 3, np.eye(2), 1, 0.1, n_samples=1), "n_samples"),
    (lambda: gla.gradient_flow(0.5, 0.5, 3, np.eye(2), 1, 0.1, init="zeros"), "init"),
    (lambda: gla.moment_sums(0.5, 0.5, 3, 1, 0.1, method="magic"), "method"),
    (lambda: gla.moment_sums(0.5, 0.5, 3, 1, 0.1, method="closed"), "closed forms"),
    (lambda: gla.test_error(0.5, 0.5, 3, np.eye(2), 1, 0.1, test_Lambda=np.eye(3)), "test_Lambda"),
    (lambda: af.lms_errors(np.ones((3, 1, 1)), np.ones((3, 1)), 0.0), "mu"),
    (lambda: af.rls_errors(np.ones((3, 1, 1)), np.ones((3, 1)), 1.5), "beta"),
    (lambda: af.lms_errors(np.ones((3, 1, 1)), np.full((3, 1), np.nan), 0.1), "finite"),
    (lambda: af.kalman_errors(np.ones((3, 1, 1)), np.full((3, 1), np.nan), 0.9, 1, 0.1), "finite"),
    (lambda: gla.gradient_flow(0.5, 0.5, 3, np.eye(2), 1, 0.1, t_max=float("nan")), "t_max"),   # used to hang
    (lambda: gla.gradient_flow(0.5, 0.5, 3, np.eye(2), 1, 0.1, t_max=-1.0), "t_max"),
    (lambda: gla.gradient_flow(0.5, 0.5, 3, np.eye(2), 1, 0.1, n_points=1), "n_points"),
    (lambda: gla.gradient_flow(0.5, 0.5, 3, np.diag([1.0, 0.0]), 1, 0.1), "positive definite"),
    (lambda: gla.full_gradient_flow(0.5, 0.5, 3, 2, 1, 0.1, n_points=0), "n_points"),
    (lambda: gla.lambda_star_large_d_correction(0.5, 10, 2, 0.0, 0.0), "sigma_w2"),
    (lambda: gla.full_parameter_loss(np.zeros(2), float("nan"), np.eye(2), np.zeros(2), 0.5, 0.5, 3, 2, 1, 0.1), "finite"),
    (lambda: af.rls_errors(np.ones((3, 1, 1)), np.ones((2, 1)), 0.9), "X must have shape"),
    (lambda: af.ar1_stream(np.random.default_rng(0), 0, 3, 1, 0.5, 1, 1), "runs"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.slow
def test_paper_scale_recursion_d10_n100():
    exact = gla.train_error(0.7405, 0.8, 100, 10, 1.0, 0.01)
    est = gla.simulate_gla(0.7405, 0.8, 100, np.eye(10), 1.0, 0.01, n_samples=200000, seed=21)
    assert mc.compare(exact, est).agrees


# ------------------------------------------------------------------ new numeric helpers (known answers)
def test_gla_stack_one_layer_is_gla_forward_and_gradient_is_exact():
    from theorycheck.models.attention import gla_forward, gla_stack_forward, gla_stack_loss_and_grad
    rng = np.random.default_rng(0)
    X, Y = rng.standard_normal((7, 6, 3)), rng.standard_normal((7, 6))
    W, V = rng.standard_normal((4, 4)), rng.standard_normal((4, 4))
    assert np.allclose(gla_stack_forward(X, Y, [0.6], [W], [V]), gla_forward(X, Y, 0.6, W, V), rtol=1e-12, atol=1e-12)
    # normalisation is the reparametrisation W_V -> (1 - λ) W_V
    assert np.allclose(gla_stack_forward(X, Y, [0.6], [W], [V], normalise=True), gla_forward(X, Y, 0.6, W, 0.4 * V))
    Ws = [0.3 * rng.standard_normal((4, 4)) for _ in range(6)]
    loss, gK, gV = gla_stack_loss_and_grad(X, Y, [0.5, 0.7, 0.9], Ws[:3], Ws[3:], True)
    r = gla_stack_forward(X, Y, [0.5, 0.7, 0.9], Ws[:3], Ws[3:], True) - Y[:, -1]
    assert loss == pytest.approx(float(np.mean(r * r)), rel=1e-14)
    g = gK + gV
    for k in range(6):
        for i, j in ((0, 1), (3, 3), (2, 0)):
            P, M = [w.copy() for w in Ws], [w.copy() for w in Ws]
            P[k][i, j] += 1e-6
            M[k][i, j] -= 1e-6
            fd = (gla_stack_loss_and_grad(X, Y, [0.5, 0.7, 0.9], P[:3], P[3:], True)[0]
                  - gla_stack_loss_and_grad(X, Y, [0.5, 0.7, 0.9], M[:3], M[3:], True)[0]) / 2e-6
            assert g[k][i, j] == pytest.approx(fd, rel=1e-6, abs=1e-8)


def test_gla_stack_fast_passes_match_the_full_computation_and_are_thread_safe():
    """The training passes evaluate the last layer at the query row only, in per-thread scratch buffers; they
    must agree with the full layer-by-layer computation (``_cache``), and concurrent threads must not share
    buffers."""
    import threading
    from theorycheck.models.attention import gla_stack_forward, gla_stack_loss_and_grad
    rng = np.random.default_rng(12)
    cases = []
    for B, T, d, L in ((5, 2, 1, 1), (7, 9, 3, 2), (3, 12, 4, 4), (400, 21, 3, 3), (400, 21, 3, 3)):
        X, Y = rng.standard_normal((B, T, d)), rng.standard_normal((B, T))
        Ws = [0.3 * rng.standard_normal((d + 1, d + 1)) for _ in range(2 * L)]
        lams = [float(x) for x in rng.uniform(0.3, 0.95, L)]
        full = gla_stack_forward(X, Y, lams, Ws[:L], Ws[L:], True, _cache=[])
        np.testing.assert_allclose(gla_stack_forward(X, Y, lams, Ws[:L], Ws[L:], True), full, rtol=1e-13, atol=1e-15)
        cases.append((X, Y, lams, Ws, L, gla_stack_loss_and_grad(X, Y, lams, Ws[:L], Ws[L:], True)))
    errors = []

    def worker(k):
        try:
            for _ in range(10):
                for X, Y, lams, Ws, L, (loss, gK, gV) in cases[k]:
                    l2, gK2, gV2 = gla_stack_loss_and_grad(X, Y, lams, Ws[:L], Ws[L:], True)
                    assert l2 == loss and all(np.array_equal(a, b) for a, b in zip(gK + gV, gK2 + gV2))
        except Exception as exc:                # pragma: no cover - reported below
            errors.append(exc)
    import sys
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)                 # switch threads often: inside the passes
    try:
        threads = [threading.Thread(target=worker, args=(k,)) for k in (slice(3, 4), slice(4, 5))]   # same shapes
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert not errors


def test_train_gla_stack_lowers_the_loss_and_is_reproducible():
    from theorycheck.models.prompts import ar1_drift_prompts
    X, Y = ar1_drift_prompts(np.random.default_rng(3), 64, 0.9, 8, np.eye(2), 1.0, 0.05, 0.0)
    a = gla.train_gla_stack(2, 0.85, X, Y, adam_steps=40, gd_steps=20, seed=4)
    b = gla.train_gla_stack(2, 0.85, X, Y, adam_steps=40, gd_steps=20, seed=4)
    assert a.losses[-1] < 0.8 * a.losses[0]
    assert np.all(np.diff(a.losses[a.phase_switch:]) <= 1e-15)          # Armijo GD never increases the loss
    assert np.array_equal(a.losses, b.losses) and a.phase_switch == 40 and len(a.W_KQs) == 2

    def sampler(rng, size):
        return ar1_drift_prompts(rng, size, 0.9, 8, np.eye(2), 1.0, 0.05, 0.0)
    c = gla.train_gla_stack(1, 0.85, X, Y, adam_steps=30, gd_steps=5, seed=4, sampler=sampler, batch=32,
                            schedule="cosine")
    assert c.config["adam_batch"] == 32 and c.losses[-1] < c.losses[0]
    with pytest.raises(ValueError, match="schedule"):
        gla.train_gla_stack(1, 0.85, X, Y, adam_steps=1, gd_steps=0, schedule="linear")


def test_geometric_rate_stability_known_answers():
    r = gla.geometric_rate_stability(0.5 ** np.arange(30))
    assert r["rate_early"] == pytest.approx(np.log(2), rel=1e-12) and r["ratio"] == pytest.approx(1.0, rel=1e-12)
    t = np.geomspace(1.0, 100.0, 60)
    r = gla.geometric_rate_stability(np.exp(-0.3 * t), times=t)
    assert r["rate_late"] == pytest.approx(0.3, rel=1e-9) and r["ratio"] == pytest.approx(1.0, rel=1e-9)
    assert gla.geometric_rate_stability(1.0 / np.arange(1, 2001))["ratio"] < 0.5


def test_drift_statistics_known_answers():
    # stationary chain (σ_w² = σ_e²/(1 − γ²)): per-step relative drift 2(1 − γ), within-prompt 2(1 − γ^n)
    g, n = 0.8, 10
    r = gla.drift_statistics(g, n, 1.0, 1 - g * g)
    assert r["step"] == pytest.approx(2 * (1 - g), rel=1e-12)
    assert r["total"] == pytest.approx(2 * (1 - g ** n), rel=1e-12)
    assert gla.drift_statistics(1.0, 5, 1.0, 0.1)["total"] == pytest.approx(5 * 0.1 / 1.6, rel=1e-12)


def test_lambda_importance_consistent_with_optimum():
    r = gla.lambda_importance(0.9, 100, 10, 1.0, 0.01)
    opt = gla.optimal_lambda(0.9, 100, 10, 1.0, 0.01, grid_size=201)
    assert r["lam_star"] == opt.lam and r["forgetting"] == pytest.approx(1 - opt.lam)
    assert r["gain"] == pytest.approx(1 - opt.error / opt.error_linear_attention)
    assert r["sensitivity"] > 0


def test_reference_filters_agree_with_batched_ones():
    from theorycheck.models.filters import kalman_errors, lms_errors, lms_reference_errors, rls_direct_errors, rls_errors
    X, Y = af.ar1_stream(np.random.default_rng(5), 3, 60, 4, 0.9, 1.0, 0.05, 0.1)
    assert np.allclose(lms_errors(X, Y, 0.02), lms_reference_errors(X, Y, 0.02), rtol=1e-12)
    for beta in (0.9, 1.0):
        assert np.allclose(rls_errors(X, Y, beta, 0.5), rls_direct_errors(X, Y, beta, 0.5), rtol=1e-8)
    E, S = kalman_errors(X, Y, 0.9, 1.0, 0.05, 0.1, return_variance=True)
    assert np.array_equal(E, kalman_errors(X, Y, 0.9, 1.0, 0.05, 0.1)) and np.all(S >= 0.1)


def test_kalman_innovation_variance_is_calibrated():
    from theorycheck.models.filters import kalman_errors
    X, Y = af.ar1_stream(np.random.default_rng(6), 4000, 30, 3, 0.9, 1.0, 0.05, 0.1)
    E, S = kalman_errors(X, Y, 0.9, 1.0, 0.05, 0.1, return_variance=True)
    d = (E - S)[-1]
    assert abs(d.mean()) < 4 * d.std() / np.sqrt(d.size)


def test_filter_benchmark_structure_and_pairing():
    f = gla.simulate_filter_benchmark(0.9, 3, 40, 1.0, 0.05, mus=(0.01, 0.05), betas=(0.9, 0.99), runs_scan=20,
                                      runs_eval=30, seed_scan=1, seed_eval=2)
    assert set(f["eval"]) == {"lms", "rls", "kalman", "gla", "zero"} and all(v.shape == (30,) for v in f["eval"].values())
    assert f["best_mu"] in (0.01, 0.05) and f["best_beta"] in (0.9, 0.99) and f["window"] == (21, 40)
    g = gla.simulate_filter_benchmark(0.9, 3, 40, 1.0, 0.05, mus=(0.01, 0.05), betas=(0.9, 0.99), runs_scan=20,
                                      runs_eval=30, seed_scan=1, seed_eval=2)
    assert np.array_equal(f["eval"]["rls"], g["eval"]["rls"])


def test_gla_squared_errors_pairs_prompts():
    """Same law and seed → same prompts: at λ = 1 with the λ = 1 optimum the errors equal those of the linear
    attention formula computed on prompts drawn from the same generator."""
    from theorycheck.models.prompts import ar1_drift_prompts
    a = gla.gla_squared_errors(1.0, 0.9, 6, np.eye(2), 1.0, 0.1, n_samples=50, seed=3)
    X, Y = ar1_drift_prompts(np.random.default_rng(3), 50, 0.9, 6, np.eye(2), 1.0, 0.1, 0.0)
    o = gla.optimal_parameters(1.0, 0.9, 6, np.eye(2), 1.0, 0.1)
    h = np.einsum("bi,bij->bj", Y[:, :-1], X[:, :-1])
    assert np.allclose(a, (np.einsum("bi,ij,bj->b", X[:, -1], o.Gamma, h) - Y[:, -1]) ** 2, rtol=1e-10)


def test_full_flow_classification_and_probe():
    o = gla.optimal_parameters(0.8, 0.9, 6, np.eye(2), 1.0, 0.1)
    th = np.concatenate([np.zeros(2), [1.0], o.Gamma.T.ravel(), np.zeros(2)])
    pr = gla.probe_local_minimum(th, 0.8, 0.9, 6, 2, 1.0, 0.1, directions=30, seed=1)
    assert all(v["fraction_nonnegative"] == 1.0 for v in pr.values())
    assert gla.classify_full_flow({"loss_gap": [1.0, 0.5], "loss_star": 1.0, "grad_norm_final": 1e-9,
                                   "grad_norm_initial": 1.0}) == "critical"
    assert gla.classify_full_flow({"loss_gap": [1.0, 0.5], "loss_star": 1.0, "grad_norm_final": 0.1,
                                   "grad_norm_initial": 1.0}) == "moving"


def test_batch_estimate():
    from theorycheck.papers.gla.common import batch_estimate
    e = batch_estimate(np.arange(100.0), 10)
    assert e.mean == pytest.approx(49.5) and e.df == 9 and e.n == 100
    with pytest.raises(ValueError, match="batches"):
        batch_estimate(np.arange(5.0), 10)


@pytest.mark.parametrize("call,match", [
    (lambda: gla.train_gla_stack(0, 0.8, np.zeros((2, 3, 1)), np.zeros((2, 3)), adam_steps=1, gd_steps=1), "depth"),
    (lambda: gla.train_gla_stack(1, 0.8, np.zeros((2, 3, 1)), np.zeros((2, 3)), adam_steps=-1, gd_steps=1), "adam_steps"),
    (lambda: gla.geometric_rate_stability([1.0, 0.5]), "values"),
    (lambda: gla.geometric_rate_stability([1.0, 0.5, 0.2, 0.1], times=[0, 1, 1, 2]), "times"),
    (lambda: gla.drift_statistics(0.5, 3, 0.0, 0.0), "sigma_w2"),
    (lambda: gla.lambda_importance(0.5, 10, 2, 1.0, 0.1, delta=0.0), "delta"),
    (lambda: gla.probe_local_minimum(np.zeros(3), 0.8, 0.9, 6, 2, 1.0, 0.1), "theta"),
    (lambda: gla.gla_squared_errors(0.5, 0.9, 3, np.eye(2), 1.0, 0.1, W_KQ=np.eye(2), W_V=np.eye(3)), "W_KQ"),
    (lambda: __import__("theorycheck.models.attention", fromlist=["x"]).gla_stack_forward(
        np.zeros((2, 3, 1)), np.zeros((2, 3)), [0.5, 0.6], [np.eye(2)], [np.eye(2)]), "same length"),
    (lambda: __import__("theorycheck.models.attention", fromlist=["x"]).gla_stack_forward(
        np.zeros((2, 3, 1)), np.zeros((2, 3)), [1.5], [np.eye(2)], [np.eye(2)]), "lams"),
    (lambda: __import__("theorycheck.models.filters", fromlist=["x"]).rls_direct_errors(
        np.ones((3, 1, 1)), np.ones((3, 1)), 0.0), "beta"),
])
def test_bad_input_new_helpers(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# ------------------------------------------------------------------ the paper (new plugin API)
@pytest.fixture(scope="module")
def quick_ledger():
    from theorycheck.run import run_papers
    out = run_papers(["gla"], "quick", 20261129, jobs=2)
    return out


def test_paper_validates_and_quick_run_decides_every_claim(quick_ledger):
    from theorycheck import papers
    from theorycheck.claims import VERDICTS
    paper = papers.load("gla").validate()
    led = quick_ledger.ledgers["gla"]
    assert not quick_ledger.failed
    assert [c.id for c in led.claims] == [s.id for s in paper.claims]
    for c in led.claims:
        assert c.error is None, c.error
        assert not c.withheld and c.verdict in VERDICTS, c.id
        assert all(s.passed for s in c.self_checks), [s.name for s in c.self_checks if not s.passed]
        assert c.scope, c.id
        for s in c.subclaims:
            assert s.scope or s.rule == "underspecified", (c.id, s.statement)
            assert s.verdict in VERDICTS


def test_revisions_name_the_previous_verdict(quick_ledger):
    from theorycheck.claims import VERDICTS
    for c in quick_ledger.ledgers["gla"].claims:
        if c.revision:
            # "none": a claim new in the re-audit (its sentence was quoted by no claim of the record)
            assert c.revision["previous"] in (*VERDICTS, "none") and c.revision["why"], c.id


def test_toolkit_choices_never_refute(quick_ledger):
    """A failure under a chosen value refutes only when the sub-claim searched the whole admissible range (extent)."""
    for c in quick_ledger.ledgers["gla"].claims:
        for s in c.subclaims:
            if s.chosen and s.verdict == "refuted":
                assert s.extent and s.extent.get("holds_throughout"), (c.id, s.statement)


@pytest.mark.parametrize("mutant_id", ["gla-exponent-shift", "gla-D2-d-factor"])
def test_representative_mutants_are_caught(mutant_id):
    from theorycheck.papers.gla.mutants import MUTANTS
    from theorycheck.selftest import run_paper_mutants
    r = run_paper_mutants("gla", [m for m in MUTANTS if m.id == mutant_id])
    assert not r["clean_problems"]
    assert r["caught"] == r["total"] == 1, r["mutants"]


@pytest.mark.slow
def test_all_mutants_are_caught():
    from theorycheck.selftest import run_paper_mutants
    r = run_paper_mutants("gla")
    assert not r["clean_problems"]
    missed = [m["id"] for m in r["mutants"] if not m["caught"]]
    assert not missed and r["total"] >= 13, missed


# ------------------------------------------------------------------ round 2: drift laws beyond AR(1)
def _drift_sample(rng, size, n, d, gamma, a, rho, sw2, se2, return_weights=False):
    """Direct sampler of the generalised drift of gla.drift_covariance (momentum a, innovation correlation ρ)."""
    X = rng.standard_normal((size, n + 1, d))
    w = np.sqrt(sw2) * rng.standard_normal((size, d))
    wprev, e = w.copy(), np.sqrt(se2) * rng.standard_normal((size, d))
    Y, W = np.empty((size, n + 1)), np.empty((size, n + 1, d))
    for i in range(n + 1):
        e = rho * e + np.sqrt((1 - rho * rho) * se2) * rng.standard_normal((size, d))
        w, wprev = gamma * w + a * (w - wprev) + e, w
        Y[:, i], W[:, i] = np.einsum("bd,bd->b", X[:, i], w), w
    return (X, Y, W) if return_weights else (X, Y)


def test_drift_covariance_reduces_to_ar1_and_matches_samples():
    K = gla.drift_covariance(12, 0.8, 1.3, 0.07)
    s = gla.ar1_variances(0.8, 12, 1.3, 0.07)[1:]
    i = np.arange(13)
    assert np.allclose(K, 0.8 ** np.abs(np.subtract.outer(i, i)) * s[np.minimum.outer(i, i)], rtol=1e-12)
    _, _, W = _drift_sample(np.random.default_rng(2), 40000, 6, 1, 0.9, 0.5, 0.6, 1.0, 0.1, return_weights=True)
    K = gla.drift_covariance(6, 0.9, 1.0, 0.1, momentum=0.5, innovation_corr=0.6)
    emp = np.cov(W[:, :, 0].T)
    assert np.allclose(emp, K, rtol=0, atol=6 * np.sqrt(2 * np.outer(K.diagonal(), K.diagonal()) / 40000))


@pytest.mark.parametrize("a,rho", [(0.5, 0.0), (0.0, 0.7)])
def test_train_error_from_covariance_matches_recursion(a, rho):
    from theorycheck.models.attention import gla_forward
    n, d, g = 12, 2, 0.8
    K = gla.drift_covariance(n, g, 1.0, 0.1, momentum=a, innovation_corr=rho)
    r = gla.optimal_lambda_from_covariance(K, d, grid_size=101)
    p = r.lam ** np.arange(n, 0, -1.0)
    D1, B, A2 = p @ K[:n, n], (p * p) @ np.diag(K)[:n], p @ K[:n, :n] @ p
    WKQ, WV = np.zeros((d + 1, d + 1)), np.zeros((d + 1, d + 1))
    WKQ[:d, :d], WV[d, d] = D1 / (A2 + (d + 1) * B) * np.eye(d), 1.0
    X, Y = _drift_sample(np.random.default_rng(4), 60000, n, d, g, a, rho, 1.0, 0.1)
    e = (gla_forward(X, Y, r.lam, WKQ, WV) - Y[:, -1]) ** 2
    assert abs(e.mean() - r.error) < 4 * e.std() / np.sqrt(e.size)
    assert r.lam < 1 and r.error < r.error_linear_attention


# ------------------------------------------------------------------ round 2: reconciliation of the filter numbers
def test_reconciliation_channels_are_the_filters_on_the_combined_labels():
    """The model's channel decomposition (one filter run for every σ_w², σ_e², σ²) equals running the filters on
    the combined labels; the last-step estimator (conditional mean given the past) agrees with e_T² on average."""
    from theorycheck.models.filters import lms_errors, rls_errors
    from theorycheck.papers.gla import reconciliation as R
    fm = R.FilterModel(runs=20)
    p = {"sigma_e2": 0.02, "noise": 0.1, "mu": 0.03, "beta": 0.97, "d": 5, "sigma_w2": "stationary", "rls_delta": 0.01,
         "normalisation": "raw", "window": "second half"}
    X, Yc, _ = fm.channels(3, 0.8, 5)
    c, _ = fm.coefficients(p, 0.8)
    Y = Yc @ c
    assert np.allclose(fm.per_run(p, 3, "lms", 0.8), lms_errors(X, Y, 0.03)[500:].mean(axis=0), rtol=1e-9)
    assert np.allclose(fm.per_run(p, 3, "rls", 0.8), rls_errors(X, Y, 0.97, 0.01)[500:].mean(axis=0), rtol=1e-9)
    for norm in R.NORMALISATIONS:
        q = dict(p, normalisation=norm, window="all steps")
        div, off = fm.normaliser(q, 0.8, 5, c[0] ** 2)
        assert np.allclose(fm.per_run(q, 3, "lms", 0.8), (lms_errors(X, Y, 0.03).mean(axis=0) - off) / div)
    fm = R.FilterModel(runs=400)                                  # 800 streams at d = 5
    q = dict(p, window="last step")
    X, Yc, _ = fm.channels(5, 0.975, 5)
    c, _ = fm.coefficients(q, 0.975)
    rb = fm.per_run(q, 5, "rls", 0.975)
    raw = rls_errors(X, Yc @ c, 0.97, 0.01)[-1]
    assert abs(rb.mean() - raw.mean()) < 4 * np.hypot(rb.std(), raw.std()) / np.sqrt(raw.size)
    assert rb.std() < 0.5 * raw.std()                               # the point of the conditional mean


def test_reconciliation_recovers_a_planted_setting_and_never_overclaims():
    from theorycheck.papers.gla import reconciliation as R
    from theorycheck.reconcile import Parameter, Target, reconcile
    fm = R.FilterModel(runs=12)
    p0 = {"sigma_e2": 0.02, "noise": 0.0, "mu": 0.02, "beta": 0.98, "d": 5, "sigma_w2": "1", "rls_delta": 1.0,
          "normalisation": "raw", "window": "second half"}
    out = fm(p0, 7)
    # a planted target carries a margin of 4 SE of its own estimate, so a fresh-seed check can be precise enough
    targets = [Target(k, f"{v.mean:.3f}", model_margin=4 * v.se) for k, v in out.items()]
    fixed = {k: v for k, v in p0.items() if k not in ("sigma_e2", "beta")}
    rec = reconcile(fm, [Parameter("sigma_e2", 1e-3, 0.1, log=True), Parameter("beta", 0.9, 1.0)], targets,
                    budget=120, seed=7, fixed=fixed)
    assert rec.found and abs(np.log(rec.best["sigma_e2"] / 0.02)) < 0.1 and abs(rec.best["beta"] - 0.98) < 0.01
    assert all(abs(r["residual"]) <= r["tolerance"] for r in rec.residuals)
    rec = reconcile(fm, R.FREE, R.TARGETS, budget=12, seed=1)         # the declared search, tiny budget
    assert rec.evaluations <= 12 and set(rec.best) == {p.name for p in R.FREE}
    assert rec.found == all(r["within"] for r in rec.residuals)
    assert all(r["within"] == (abs(r["residual"]) <= r["tolerance"] and r["precise"]) for r in rec.residuals)


def test_a_search_reading_its_filter_bank_is_the_search_without_it():
    """The filter bank (computed in slices by other tasks) moves no number: same result, same filter-run count."""
    import pickle
    from theorycheck.papers.gla import reconciliation as R
    from theorycheck.reconcile import reconcile
    free = [p for p in R.FREE if p.name != "d"]

    def search(bank=None):
        fm = R.FilterModel(runs=20, bank=bank)
        rec = reconcile(fm, free, R.TARGETS, budget=15, fixed={"d": 20}, seed=4)
        return pickle.dumps(rec), fm.filter_runs
    parts = {}
    for method, n in (("lms", 2), ("rls", 3)):
        for j in range(n):
            parts.update(R.FilterModel(runs=20).bank_part(4, method, 20, j, n))
    assert len(parts) == len(R.MU_GRID) + 2 * len(R.BETA_GRID)      # every grid value once
    assert search(parts) == search()


# ------------------------------------------------------------------ round 2: assumption maps
def _path(key, mode="quick"):
    from theorycheck import papers
    from theorycheck.assumptions import decide_path
    from theorycheck.context import RunContext
    paper = papers.load("gla").validate()
    ctx = RunContext(mode, 20261129)
    st = next(s for s in paper.claims.stresses if s.key == key)
    spec = next(a for a in paper.claims.assumptions if a.claim == st.claim and a.name == st.assumption)
    vals = st.value_list(ctx)
    return decide_path(st, spec, vals, [st.fn(ctx, v) for v in vals])


def test_stress_paths_find_their_breaking_points():
    # exact, the maximiser of ξ located to 1e-4 (Brent): breaks between d = 10⁴ and d = 10³ (a λ grid of step 0.01, as
    # before, cannot see offsets below 0.01 and put the break between d = 100 and d = 30)
    res = _path("000-monotonicity-regimes::large d (d → ∞)")
    assert res["breaking_point"]["status"] == "breaks" and res["breaking_point"]["bracket"] == [1e-4, 1e-3]
    assert res["stated"] and not res["finding"]
    res = _path("000-lambda-star-below-1::AR(1) drift w_i = γ w_{i−1} + e_i")
    assert res["breaking_point"]["status"] == "holds along the whole path"
    res = _path("000-gla-recursion::one global, data-independent gate λ")
    assert res["breaking_point"]["bracket"] == [0.001, 0.01]
    res = _path("000-thm1-effective-covariance::Λ close to isotropic")   # Monte Carlo of the recursion
    assert res["points"][0]["verdict"] == "confirmed" and not res["finding"]


def test_every_result_has_assumptions_and_a_stress_path():
    from theorycheck import papers
    paper = papers.load("gla").validate()
    results = {"000-gla-recursion", "000-thm1-gradient-flow", "000-thm1-effective-covariance", "000-thm2-xi",
               "000-monotonicity-regimes", "000-lambda-star-below-1", "000-thm3-floor"}
    stressed = {s.claim for s in paper.claims.stresses}
    assert results <= stressed
    assert {a.claim for a in paper.claims.assumptions} >= results | {"000-thm3-test-error"}
    assert all(a.lines or not a.stated for a in paper.claims.assumptions)
    assert any(not a.stated for a in paper.claims.assumptions)


# ------------------------------------------------------------------ round 2: bad input, resource guards, speed
def test_reliability_of_the_gla_area_and_baseline_coverage():
    import inspect
    from theorycheck.selftest import reliability as R
    from theorycheck.papers.gla import fuzz as area
    mine = set()
    for mod in ("gla", "adaptive_filters"):
        m = __import__(f"theorycheck.{mod}", fromlist=["x"])
        for n in m.__all__:
            obj = getattr(m, n)
            if callable(obj) and not (inspect.isclass(obj) and (issubclass(obj, BaseException)
                                                                or hasattr(obj, "__dataclass_fields__"))):
                mine.add(f"{obj.__module__}.{obj.__name__}")
    mine |= {f"theorycheck.models.{m}.{n}" for m, names in
             {"attention": ("gla_forward", "gla_stream_errors", "gla_stack_forward", "gla_stack_loss_and_grad"),
              "prompts": ("drift_labels", "ar1_stream", "ar1_drift_prompts"),
              "filters": ("lms_errors", "rls_errors", "kalman_errors", "lms_reference_errors", "rls_direct_errors",
                          "lms_residuals", "rls_residuals", "check_streams")}.items() for n in names}
    assert mine <= {b.fn for b in area.BASELINES}, sorted(mine - {b.fn for b in area.BASELINES})
    res = R.fuzz(("gla",), jobs=2)
    assert res["functions"] >= 40 and res["calls"] > 3000
    assert res["failures"] == [], "\n".join(f"{f['fn']}({f['param']}={f['value']}): {f['class']} {f['detail']}"
                                            for f in res["failures"][:40])


@pytest.mark.parametrize("call,match", [
    (lambda: gla.simulate_gla(0.8, 0.9, 10, np.eye(2), 1.0, 0.1, n_samples=10 ** 10), "n_samples"),
    (lambda: gla.ar1_variances(0.9, 10 ** 9, 1.0, 0.1), "n = 1000000000 needs"),
    (lambda: gla.optimal_lambda(0.9, 10, 2, 1.0, 0.1, grid_size=10 ** 9), "grid_size"),
    (lambda: gla.xi(0.5, 0.9, 10, 5, 1e308, 1e308), "sigma_w2=1e"),
    (lambda: gla.xi("0.5", 0.9, 10, 5, 1.0, 1.0), "lam must be a real number"),
    (lambda: gla.simulate_gla(0.8, 0.9, 10, np.eye(2500) + 0.01, 1.0, 0.1, n_samples=100), "Lambda must be at most"),
    (lambda: gla.gradient_flow(0.7, 0.8, 5, np.eye(2), 1e200, 0.1), "sigma_w2"),
    (lambda: gla.train_gla_stack(1, 0.8, np.zeros((2, 3, 1)), np.zeros((2, 3)), adam_steps=10 ** 9, gd_steps=1),
     "adam_steps"),
    (lambda: gla.drift_covariance(10, 0.9, 1.0, 0.1, momentum=1.0), "momentum"),
])
def test_resource_guards_and_named_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_simulate_gla_large_diagonal_lambda_is_fast_and_streams_unchanged():
    import time
    t0 = time.perf_counter()
    est = gla.simulate_gla(0.8, 0.9, 10, np.eye(3000), 1.0, 0.1, n_samples=100)
    assert time.perf_counter() - t0 < 20 and np.isfinite(est.mean)
    # the sampler draws what gaussian.sample would (diagonal Λ: bit for bit)
    from theorycheck import gaussian
    from theorycheck.models.prompts import ar1_drift_prompts
    L = np.diag([2.0, 1.0, 0.5])
    X, _ = ar1_drift_prompts(np.random.default_rng(3), 7, 0.9, 4, L, 1.0, 0.1, 0.0)
    assert np.array_equal(X, gaussian.sample(L, 35, np.random.default_rng(3)).reshape(7, 5, 3))


def test_every_seed_sentence_is_assigned_and_every_claim_titled_and_weighted():
    from theorycheck import papers
    paper = papers.load("gla").validate()
    assert paper.coverage()["unassigned"] == []
    for s in paper.claims:
        assert s.title and len(s.title) <= 90 and s.weight in ("main", "supporting") and s.clauses, s.id


def test_trivial_baseline_of_the_filter_experiment_is_paired():
    """C11 for the filters: each method against predicting 0 on the same evaluation streams (paired)."""
    from theorycheck.papers.gla.evidence import filter_trivial
    f = gla.simulate_filter_benchmark(0.9, 2, 40, 1.0, 0.05, mus=(0.01, 0.05), betas=(0.9, 0.99), runs_scan=10,
                                      runs_eval=30, seed_scan=1, seed_eval=2)
    rec = filter_trivial(f, ("gla", "lms"))
    gap = f["eval"]["zero"] - f["eval"]["gla"]
    assert [r["contender"] for r in rec] == ["GLA", "LMS"] and rec[0]["trivial"] == "predict 0"
    assert np.isclose(rec[0]["gap"], gap.mean()) and np.isclose(rec[0]["reference"], f["eval"]["zero"].mean())
    assert np.isclose(rec[0]["gap_se"], gap.std(ddof=1) / np.sqrt(gap.size))


def test_stack_and_flow_params_declare_every_choice():
    """The multi-layer experiment's values: γ and λ stated, σ_w² a convention, every other value chosen with its
    admissible range (so a failure under them is 'not reproduced' unless an extent covers it)."""
    from theorycheck.papers.gla.settings import flow_params, stack_params
    cfg = {"n_train": 1000, "adam_batch": 256, "adam_lr": 0.02, "schedule": "cosine", "adam_steps": 1000,
           "gd_steps": 400}
    for ps in (stack_params(cfg), flow_params("i.i.d. Gaussian, σ = 0.1")):
        names = [p.name for p in ps]
        assert len(names) == len(set(names))
        assert all(p.admissible for p in ps if p.chosen)
        prov = {p.name: p.provenance for p in ps}
        assert prov["gamma"] == "stated" and prov["sigma_w2"] == "convention" and prov["d"] == prov["n"] == "chosen"
    assert {p.name: p.provenance for p in stack_params(cfg)}["lambda_per_layer"] == "stated"


def test_lambda_importance_extent_rules():
    """The extent rules of 000-lambda-importance: a rise below the resolution is no rise; a failure of the noise
    trend holds throughout only when the need never rises anywhere on the search."""
    from theorycheck.papers.gla.shape import RISE_RESOLUTION, _noise_extent, _rises
    assert _rises([1.0, 1.0 + RISE_RESOLUTION / 10, 0.5, 0.6]) == [2]
    lv = (0.0, 1.0, 2.0)
    assert _noise_extent({"": [3.0, 2.0, 1.0]}, lv, "sigma_e2", 0.0, 2.0)["holds_throughout"] is True
    ext = _noise_extent({"": [3.0, 3.5, 1.0]}, lv, "sigma_e2", 0.0, 2.0)
    assert ext["holds_throughout"] is False and ext["rises_between"] == {"": [(0.0, 1.0)]}
