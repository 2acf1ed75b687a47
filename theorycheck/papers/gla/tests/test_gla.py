"""Tests for paper 000, GLA under AR(1) drift: the theory (theorycheck.papers.gla.theory, re-exported as
theorycheck.gla), the models it runs (theorycheck.models: the recursion, the multi-layer stack, the adaptive filters of
theorycheck.adaptive_filters), the derivation and its generated code. The paper as a paper: test_paper.py."""
from __future__ import annotations

import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st
from scipy import optimize

from theorycheck import codegen, gaussian
from theorycheck import montecarlo as mc
from theorycheck.gaussian import expect_product
from theorycheck.models.attention import gla_forward, gla_stack_forward, gla_stack_loss_and_grad, gla_stream_errors
from theorycheck.models.filters import kalman_errors, lms_errors, lms_reference_errors, rls_direct_errors, rls_errors
from theorycheck.models.prompts import ar1_drift_prompts, ar1_stream
from theorycheck.papers.gla import theory as gla
from theorycheck.papers.gla.claims._helpers import batch_estimate
from theorycheck.papers.gla.derivations import gla_loss as derivation
from theorycheck.papers.gla.generated import gla_loss as gen

#: the adaptive filters by the names of their old home, theorycheck.adaptive_filters (an old import path: nothing of
#: theorycheck imports it)
af = SimpleNamespace(ar1_stream=ar1_stream, lms_errors=lms_errors, rls_errors=rls_errors, kalman_errors=kalman_errors,
                     gla_stream_errors=gla_stream_errors)
ROOT = Path(__file__).resolve().parents[4]          # the folder holding theorycheck/

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
    with codegen.output_root(tmp_path):
        paths = derivation.main()
    for p in paths:
        committed = ROOT / "theorycheck" / "papers" / "gla" / "generated" / Path(p).name
        assert Path(p).read_text() == committed.read_text(), f"{committed.name} is stale or hand-edited"


def test_derivation_pairs_are_identities():
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
    X, Y = af.ar1_stream(np.random.default_rng(5), 3, 60, 4, 0.9, 1.0, 0.05, 0.1)
    assert np.allclose(lms_errors(X, Y, 0.02), lms_reference_errors(X, Y, 0.02), rtol=1e-12)
    for beta in (0.9, 1.0):
        assert np.allclose(rls_errors(X, Y, beta, 0.5), rls_direct_errors(X, Y, beta, 0.5), rtol=1e-8)
    E, S = kalman_errors(X, Y, 0.9, 1.0, 0.05, 0.1, return_variance=True)
    assert np.array_equal(E, kalman_errors(X, Y, 0.9, 1.0, 0.05, 0.1)) and np.all(S >= 0.1)


def test_kalman_innovation_variance_is_calibrated():
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


# ------------------------------------------------------------------ round 2: bad input, resource guards, speed
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
    t0 = time.perf_counter()
    est = gla.simulate_gla(0.8, 0.9, 10, np.eye(3000), 1.0, 0.1, n_samples=100)
    assert time.perf_counter() - t0 < 20 and np.isfinite(est.mean)
    # the sampler draws what gaussian.sample would (diagonal Λ: bit for bit)
    L = np.diag([2.0, 1.0, 0.5])
    X, _ = ar1_drift_prompts(np.random.default_rng(3), 7, 0.9, 4, L, 1.0, 0.1, 0.0)
    assert np.array_equal(X, gaussian.sample(L, 35, np.random.default_rng(3)).reshape(7, 5, 3))
