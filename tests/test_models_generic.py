r"""The generic in-context layer and the named samplers (issue 22, item 7).

Acceptance: what a newcomer adding Zhang, Frei & Bartlett (JMLR 2024) needs — trained linear self-attention on static
Gaussian regression with :class:`~theorycheck.models.icl.ICLLayer` and
:class:`~theorycheck.models.samplers.GaussianRegressionPrompts`, compared with the closed-form global minimiser of the
population loss (derived here with the project's Gaussian engine, not remembered), the trained weights and a Monte
Carlo loss; and the generic layer against the built-in papers' model functions in their parameterisations.

Equivalences are checked to 1e-12 relative to the scale of the outputs (max |·| over the batch): the routes sum the
same terms in another order, so they agree to a few ulps of the largest term, not of a prediction that cancels.
"""
from __future__ import annotations

import numpy as np
import pytest

from theorycheck import gaussian
from theorycheck.models.attention import (attention_forward, attention_loss_and_grad, attention_predict, gla_forward,
                                          gla_stack_forward, gla_stream_errors, reduced_features, token_matrix)
from theorycheck.models.dynamics import make_prior
from theorycheck.models.icl import ICLLayer, train_icl
from theorycheck.models.prompts import ar1_drift_prompts
from theorycheck.models.samplers import (AR1DriftPrompts, GaussianRegressionPrompts, LDSPrompts, SingleIndexPrompts,
                                         regression_tokens, series_tokens)

RTOL = 1e-12


def close(a, b, rtol=RTOL):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape
    scale = max(float(np.max(np.abs(b))), np.finfo(float).tiny)
    err = float(np.max(np.abs(a - b)))
    assert err <= rtol * scale, f"max |a - b| = {err:.3g} > {rtol:g} x {scale:.3g}"


# ------------------------------------------------------------------------- the papers' parameterisations
@pytest.mark.parametrize("lam", [0.3, 0.7, 1.0])
def test_generic_layer_is_gla_forward(lam):
    """Paper 000: ŷ = (S_{n+1} W_KQ z_{n+1})_{d+1}, S over the n+1 tokens (query included), weights λ^{n+1-i}."""
    rng = np.random.default_rng(1)
    X, Y = ar1_drift_prompts(rng, 40, 0.9, 7, np.eye(3), 1.0, 0.1, 0.05)
    W_KQ, W_V = rng.standard_normal((2, 4, 4))
    Z, _ = regression_tokens(X, Y)
    close(ICLLayer.gla(lam).predict(Z, W_KQ, W_V), gla_forward(X, Y, lam, W_KQ, W_V))


@pytest.mark.parametrize("normalise", [False, True])
def test_generic_layer_is_one_layer_of_the_gla_stack(normalise):
    """The stack's layer with gate weights (1-λ)λ^age is the generic layer with W_V scaled by (1-λ)."""
    rng = np.random.default_rng(2)
    X, Y = rng.standard_normal((30, 6, 2)), rng.standard_normal((30, 6))
    W_KQ, W_V = rng.standard_normal((2, 3, 3))
    lam = 0.6
    scale = 1.0 - lam if normalise else 1.0
    close(ICLLayer.gla(lam).predict(regression_tokens(X, Y)[0], W_KQ, scale * W_V),
          gla_stack_forward(X, Y, [lam], [W_KQ], [W_V], normalise))


@pytest.mark.parametrize("s", [1, 3])
def test_generic_layer_is_attention_predict_and_forward(s):
    """Paper 001: tokens the columns of Y₀, query excluded (M), 1/n; the prediction is entry (s+1, T-s)."""
    rng = np.random.default_rng(3)
    Y = rng.standard_normal((25, 12))
    W_QK, W_V = rng.standard_normal((2, s + 1, s + 1))
    Z, _ = series_tokens(Y, s)
    ref = ICLLayer.lds().predict(Z, W_QK, W_V)
    close(attention_predict(W_QK, W_V, Y), ref)
    close(attention_forward(W_QK, W_V, token_matrix(Y, s))[:, s, -1], ref)


def test_generic_gradient_is_attention_loss_and_grad():
    """Both halve the loss and average over the prompts: the same loss and the same exact gradient."""
    rng = np.random.default_rng(4)
    Y = rng.standard_normal((40, 10))
    W_QK, W_V = rng.standard_normal((2, 3, 3))
    Z, y = series_tokens(Y, 2)
    loss, gK, gV = ICLLayer.lds().loss_and_grad(Z, y, W_QK, W_V)
    loss0, gK0, gV0 = attention_loss_and_grad(W_QK, W_V, Y)
    close(loss, loss0)
    close(gK, gK0)
    close(gV, gV0)


def test_generic_layer_is_the_streaming_gla_predictor():
    """gla_stream_errors: ŷ_t = x_tᵀ Γ h_t, h_t = Σ_{s<t} λ^{t-s} y_s x_s — the layer on the prefix up to t with the
    query excluded, forget λ, W_KQ = [[Γᵀ, 0], [0, 0]] and v = e_{d+1}."""
    rng = np.random.default_rng(5)
    T, R, d, lam = 9, 20, 2, 0.8
    X, Y = rng.standard_normal((T, R, d)), rng.standard_normal((T, R))
    G = rng.standard_normal((d, d))
    E = gla_stream_errors(X, Y, lam, G)
    W_KQ, W_V = np.zeros((d + 1, d + 1)), np.zeros((d + 1, d + 1))
    W_KQ[:d, :d], W_V[d, d] = G.T, 1.0
    layer = ICLLayer(query_in_sum=False, forget=lam)
    for t in (1, 4, T - 1):                      # 0-based: the prefix x_0..x_t, query x_t
        Z, y = regression_tokens(X[:t + 1].transpose(1, 0, 2), Y[:t + 1].T)
        close((y - layer.predict(Z, W_KQ, W_V)) ** 2, E[t])


def test_generic_layer_is_the_reduced_predictor_of_paper_004():
    """⟨Γ, x_q[uᵀ, s]⟩ with u = (d/ℓ) Σ y_i x_i, s = (1/ℓ) Σ y_i²: the layer with the query excluded, 1/ℓ, v = e_{d+1},
    W_KQ[:, :d] = diag(d, …, d, 1) Γᵀ."""
    rng = np.random.default_rng(6)
    d, ell, B = 3, 8, 15
    X, Y = rng.standard_normal((B, ell + 1, d)), rng.standard_normal((B, ell + 1))
    Gam = rng.standard_normal((d, d + 1))
    U = (d / ell) * np.einsum("bl,bld->bd", Y[:, :-1], X[:, :-1])
    S = np.mean(Y[:, :-1] ** 2, axis=1)
    feats = reduced_features(X[:, -1], U, S) @ Gam.ravel()
    W_KQ, W_V = np.zeros((d + 1, d + 1)), np.zeros((d + 1, d + 1))
    W_KQ[:, :d] = np.diag([d] * d + [1.0]) @ Gam.T
    W_V[d, d] = 1.0
    close(ICLLayer(query_in_sum=False, normalise=True).predict(regression_tokens(X, Y)[0], W_KQ, W_V), feats)


# ------------------------------------------------------------------------- the layer's own maths
def _direct(layer, Z, W_KQ, W_V):
    """ŷ from the definition: (z_q)_r + (e_rᵀ W_V S W_KQ z_q), S = c Σ_{i∈I} λ^{age} z_i z_iᵀ as a matrix."""
    B, T, D = Z.shape
    ages = np.arange(T - 1, -1, -1.0)
    w = layer.forget ** ages
    if not layer.query_in_sum:
        w[-1] = 0.0
    c = 1.0 / (T - 1) if layer.normalise else 1.0
    S = c * np.einsum("t,bti,btj->bij", w, Z, Z)
    q = Z[:, -1]
    return q[:, layer.readout] + np.einsum("j,bjk,kl,bl->b", W_V[layer.readout], S, W_KQ, q)


LAYERS = [ICLLayer(), ICLLayer.zfb(), ICLLayer.lds(), ICLLayer(query_in_sum=False, normalise=True, forget=0.7),
          ICLLayer(forget=0.5, readout=0)]


@pytest.mark.parametrize("layer", LAYERS, ids=repr)
def test_prediction_is_the_definition(layer):
    rng = np.random.default_rng(7)
    Z = rng.standard_normal((12, 6, 3))          # the query's slots are not blank: the residual counts
    W_KQ, W_V = rng.standard_normal((2, 3, 3))
    close(layer.predict(Z, W_KQ, W_V), _direct(layer, Z, W_KQ, W_V))


@pytest.mark.parametrize("layer", LAYERS, ids=repr)
def test_gradient_is_exact(layer):
    """ŷ is linear in W_V and in W_KQ separately, so L is quadratic along a direction in either one: a central
    difference is then exact up to rounding (no truncation error), and 1e-7 relative is a rounding-level margin."""
    rng = np.random.default_rng(8)
    Z, y = rng.standard_normal((10, 5, 3)), rng.standard_normal(10)
    W_KQ, W_V = 0.5 * rng.standard_normal((2, 3, 3))
    loss, gK, gV = layer.loss_and_grad(Z, y, W_KQ, W_V)
    assert loss == pytest.approx(0.5 * np.mean((layer.predict(Z, W_KQ, W_V) - y) ** 2), rel=1e-14)
    h = 1e-3
    for which, grad in ((0, gK), (1, gV)):
        E = rng.standard_normal((3, 3))
        Ws = [W_KQ, W_V]
        up = [W + (h * E if k == which else 0) for k, W in enumerate(Ws)]
        dn = [W - (h * E if k == which else 0) for k, W in enumerate(Ws)]
        fd = (layer.loss_and_grad(Z, y, *up)[0] - layer.loss_and_grad(Z, y, *dn)[0]) / (2 * h)
        assert fd == pytest.approx(float(np.sum(grad * E)), rel=1e-7)


def test_bad_input_names_the_parameter():
    with pytest.raises(ValueError, match="forget"):
        ICLLayer(forget=0.0)
    with pytest.raises(ValueError, match="readout"):
        ICLLayer(readout=3).predict(np.zeros((1, 2, 3)), np.eye(3), np.eye(3))
    with pytest.raises(ValueError, match="Z must have shape"):
        ICLLayer().predict(np.zeros((1, 1, 3)), np.eye(3), np.eye(3))
    with pytest.raises(ValueError, match="W_V"):
        ICLLayer().predict(np.zeros((1, 2, 3)), np.eye(3), np.eye(2))
    with pytest.raises(ValueError, match="lr"):
        train_icl(ICLLayer(), (np.zeros((2, 2, 2)), np.zeros(2)), np.eye(2), np.eye(2), steps=1, lr=0.0)
    with pytest.raises(ValueError, match="support"):
        train_icl(ICLLayer(), (np.zeros((2, 2, 2)), np.zeros(2)), np.eye(2), np.eye(2), steps=1, lr=0.1,
                  support=(np.ones((2, 2), bool), np.ones((3, 3), bool)))
    with pytest.raises(ValueError, match="Lambda"):
        GaussianRegressionPrompts(d=2, n=3, Lambda=np.eye(3))
    with pytest.raises(ValueError, match="gamma"):
        AR1DriftPrompts(d=2, n=3, gamma=1.5, sigma_w2=1.0, sigma_e2=0.1)


# ------------------------------------------------------------------------- samplers
def test_samplers_keep_the_streams_of_the_papers():
    g = lambda k: np.random.default_rng(k)                               # noqa: E731
    lin = GaussianRegressionPrompts(d=2, n=4, Lambda=np.diag([1.0, 0.5]), sigma_w2=2.0, noise=0.1)
    idx = SingleIndexPrompts(d=2, n=4, Lambda=np.diag([1.0, 0.5]), sigma_w2=2.0, noise=0.1, fn=lambda t: t)
    for a, b in zip(lin.draw(g(0), 5), idx.draw(g(0), 5)):
        assert np.array_equal(a, b)
    ar = AR1DriftPrompts(d=2, n=4, gamma=0.9, sigma_w2=1.0, sigma_e2=0.1, noise=0.05)
    for a, b in zip(ar.draw(g(1), 5), ar1_drift_prompts(g(1), 5, 0.9, 4, np.eye(2), 1.0, 0.1, 0.05)):
        assert np.array_equal(a, b)
    prior = make_prior("a", d=2)
    lds = LDSPrompts(prior, T=9, s=2)
    r = g(2)
    assert np.array_equal(lds.draw(g(2), 4), prior.sample(r, 4).simulate(9, r))
    Z, y = lds(g(2), 4)
    assert Z.shape == (4, lds.context_length + 1, lds.token_dim) and np.array_equal(Z, series_tokens(lds.draw(g(2), 4),
                                                                                                     2)[0])


def test_gaussian_regression_law():
    """E[y²] = σ_w² tr Λ + σ² and E[x xᵀ] = Λ, by Monte Carlo (4 standard errors)."""
    Lam = np.array([[1.0, 0.4], [0.4, 0.5]])
    task = GaussianRegressionPrompts(d=2, n=3, Lambda=Lam, sigma_w2=0.7, noise=0.2)
    X, Y = task.draw(np.random.default_rng(9), 40_000)
    y2 = Y[:, -1] ** 2                                   # one label per prompt: independent draws
    assert abs(y2.mean() - (0.7 * np.trace(Lam) + 0.2)) <= 4 * y2.std() / np.sqrt(y2.size)
    xx = X[:, 0, 0] * X[:, 0, 1]
    assert abs(xx.mean() - Lam[0, 1]) <= 4 * xx.std() / np.sqrt(xx.size)


def test_one_online_sgd_step_on_lds_prompts_is_the_paper_gradient():
    """The sampler's stream, tokens and targets and the layer's gradient together: one online SGD step of
    train_icl equals W - lr ∇L with ∇L from attention_loss_and_grad on the same trajectories."""
    prior = make_prior("a", d=2)
    task = LDSPrompts(prior, T=10, s=1)
    W_QK, W_V = 0.3 * np.random.default_rng(10).standard_normal((2, 2, 2))
    res = train_icl(ICLLayer.lds(), task, W_QK, W_V, steps=1, lr=0.1, batch=64, seed=11)
    Y = task.draw(np.random.default_rng(11), 64)
    loss, gK, gV = attention_loss_and_grad(W_QK, W_V, Y)
    close(res.losses[0], loss)
    close(res.W_KQ, W_QK - 0.1 * gK)
    close(res.W_V, W_V - 0.1 * gV)


# ------------------------------------------------------------------------- Zhang, Frei & Bartlett (JMLR 2024)
D_ZFB, N_ZFB = 3, 10
_R = np.linalg.qr(np.random.default_rng(12).standard_normal((3, 3)))[0]
LAMBDA_ZFB = _R @ np.diag([1.0, 0.7, 0.5]) @ _R.T          # a non-diagonal input covariance


def _zfb_population(Lam, N, sigma_w2=1.0):
    r"""Exact moments of h = (1/N) Σ_{i≤N} y_i x_i, y_i = ⟨w, x_i⟩, x_i ~ N(0, Λ), w ~ N(0, σ_w² I), by Isserlis
    (:func:`theorycheck.gaussian.expect_product` on the Gaussian vector (w, x_1, x_2)):
    H = E[h hᵀ] = E[y_1² x_1 x_1ᵀ]/N + (1 - 1/N) E[y_1 y_2 x_1 x_2ᵀ], C = E[w hᵀ] = E[w y_1 x_1ᵀ].

    The layer's prediction in ZFB's parameterisation is ŷ = x_qᵀ P h with P = u W11ᵀ (u = W^{PV}_{d+1,d+1}, W11 the
    top-left block of W^{KQ}; the query's blank label makes its own term vanish). Its halved population loss is
    L(P) = ½ E[(Ph - w)ᵀ Λ (Ph - w)] (x_q independent of (w, h)) = ½ tr Λ(P H Pᵀ - P Cᵀ - C Pᵀ + σ_w² I): a convex
    quadratic, minimised at P* = C H⁻¹, L* = ½ tr Λ(σ_w² I - C H⁻¹ Cᵀ), L(P) - L* = ½ tr Λ(P - P*) H (P - P*)ᵀ.
    Returns (P*, L*, excess) with excess(P) = L(P) - L*."""
    d = Lam.shape[0]
    cov = np.zeros((3 * d, 3 * d))
    cov[:d, :d], cov[d:2 * d, d:2 * d], cov[2 * d:, 2 * d:] = sigma_w2 * np.eye(d), Lam, Lam
    E = np.eye(3 * d)

    def label(k):                                 # y_k = wᵀ x_k = Xᵀ M_k X
        M = np.zeros((3 * d, 3 * d))
        for j in range(d):
            M[j, k * d + j] = M[k * d + j, j] = 0.5
        return M
    M1, M2 = label(1), label(2)
    ex = gaussian.expect_product
    same = np.array([[ex(cov, [E[d + j], E[d + k]], [M1, M1]) for k in range(d)] for j in range(d)])
    cross = np.array([[ex(cov, [E[d + j], E[2 * d + k]], [M1, M2]) for k in range(d)] for j in range(d)])
    C = np.array([[ex(cov, [E[j], E[d + k]], [M1]) for k in range(d)] for j in range(d)])
    H = same / N + (1 - 1 / N) * cross
    P = C @ np.linalg.inv(H)
    L_star = 0.5 * np.trace(Lam @ (sigma_w2 * np.eye(d) - C @ np.linalg.solve(H, C.T)))
    return P, L_star, lambda Q: 0.5 * float(np.trace(Lam @ (Q - P) @ H @ (Q - P).T))


def _zfb_weights(P, d):
    """Weights realising ŷ = x_qᵀ P h in ZFB's parameterisation: W^{KQ}_{11} = Pᵀ, u = 1."""
    W_KQ, W_V = np.zeros((d + 1, d + 1)), np.zeros((d + 1, d + 1))
    W_KQ[:d, :d], W_V[d, d] = P.T, 1.0
    return W_KQ, W_V


def test_zfb_closed_form_minimiser_is_derived():
    """ZFB's global minimiser: u W11 = Γ⁻¹ with Γ = (1 + 1/N) Λ + tr(Λ)/N · I (noiseless, σ_w = 1): equal to the
    Isserlis derivation P* = C H⁻¹ (to rounding)."""
    P, _, _ = _zfb_population(LAMBDA_ZFB, N_ZFB)
    Gamma = (1 + 1 / N_ZFB) * LAMBDA_ZFB + np.trace(LAMBDA_ZFB) / N_ZFB * np.eye(D_ZFB)
    close(np.linalg.inv(Gamma), P)


def test_zfb_monte_carlo_loss():
    """The generic layer's halved loss on fresh prompts of the sampler, at the closed-form minimiser and at the N → ∞
    guess Λ⁻¹, agrees with the exact population loss L(P) within 4 standard errors; the closed form is the lower."""
    P, L_star, excess = _zfb_population(LAMBDA_ZFB, N_ZFB)
    Z, y = GaussianRegressionPrompts(d=D_ZFB, n=N_ZFB, Lambda=LAMBDA_ZFB)(np.random.default_rng(13), 100_000)
    layer = ICLLayer.zfb()
    for Q in (P, np.linalg.inv(LAMBDA_ZFB)):
        sq = 0.5 * (layer.predict(Z, *_zfb_weights(Q, D_ZFB)) - y) ** 2
        exact = L_star + excess(Q)
        assert abs(sq.mean() - exact) <= 4 * sq.std() / np.sqrt(sq.size), (sq.mean(), exact)
    assert excess(np.linalg.inv(LAMBDA_ZFB)) > 0 == excess(P)


def test_zfb_trained_weights_reach_the_closed_form():
    r"""Gradient flow (full-batch GD, lr 0.5) from ZFB's initialisation W^{PV} = σ e_{d+1}e_{d+1}ᵀ,
    W^{KQ} = σ[[ΘΘᵀ, 0], [0, 0]], with support masks keeping the other blocks at 0 (as the flow does in their
    proof), on M fresh prompts of the sampler.

    1. The trained P̂ = u W11ᵀ is the empirical least-squares minimiser of the M prompts (the flow converged: to
       rounding after ~150 steps here, 1e-8 relative is asked after 300).
    2. Its population excess loss is within 5 times its predicted size, tr(S H_f⁻¹)/(2M) (the excess of a least-
       squares fit of p features: H_f = E[φφᵀ], S = E[r²φφᵀ], plug-in at P*), while the plausible wrong closed
       forms — Λ⁻¹ (N → ∞) and ((1 + 1/N) Λ)⁻¹ (no trace term) — are more than 5 times beyond it: the comparison can
       tell the minimiser from them at this M.
    """
    d, N, M = D_ZFB, N_ZFB, 3000
    P, _, excess = _zfb_population(LAMBDA_ZFB, N)
    Z, y = GaussianRegressionPrompts(d=d, n=N, Lambda=LAMBDA_ZFB)(np.random.default_rng(14), M)
    sigma, Theta = 0.1, np.eye(d) / np.sqrt(d)
    W_KQ, W_V = np.zeros((d + 1, d + 1)), np.zeros((d + 1, d + 1))
    W_KQ[:d, :d], W_V[d, d] = sigma * Theta @ Theta.T, sigma
    mK, mV = np.zeros((d + 1, d + 1), bool), np.zeros((d + 1, d + 1), bool)
    mK[:d, :d], mV[d, d] = True, True
    res = train_icl(ICLLayer.zfb(), (Z, y), W_KQ, W_V, steps=300, lr=0.5, support=(mK, mV))
    assert np.array_equal(res.W_KQ[~mK], W_KQ[~mK]) and np.array_equal(res.W_V[~mV], W_V[~mV])
    P_hat = res.W_V[d, d] * res.W_KQ[:d, :d].T
    h = np.einsum("bt,btj->bj", Z[:, :-1, d], Z[:, :-1, :d]) / N
    F = np.einsum("bj,bk->bjk", Z[:, -1, :d], h).reshape(M, d * d)         # ŷ = Σ_jk P_jk x_q,j h_k
    P_emp = np.linalg.lstsq(F, y, rcond=None)[0].reshape(d, d)
    assert np.linalg.norm(P_hat - P_emp) <= 1e-8 * np.linalg.norm(P_emp)
    r = F @ P.ravel() - y
    predicted = 0.5 * np.trace(np.linalg.solve(F.T @ F / M, (F * r[:, None] ** 2).T @ F / M)) / M
    assert excess(P_hat) <= 5 * predicted
    for wrong in (np.linalg.inv(LAMBDA_ZFB), np.linalg.inv((1 + 1 / N) * LAMBDA_ZFB)):
        assert excess(wrong) > 5 * predicted


def test_online_sgd_is_reproducible_and_respects_the_support():
    d = 2
    task = GaussianRegressionPrompts(d=d, n=6)
    W_KQ, W_V = np.zeros((d + 1, d + 1)), np.zeros((d + 1, d + 1))
    W_KQ[:d, :d], W_V[d, d], W_V[0, 1] = 0.1 * np.eye(d), 0.1, 0.3
    mK, mV = np.zeros((d + 1, d + 1), bool), np.zeros((d + 1, d + 1), bool)
    mK[:d, :d], mV[d, d] = True, True
    run = lambda seed: train_icl(ICLLayer.zfb(), task, W_KQ, W_V, steps=150, lr=0.3, batch=128,   # noqa: E731
                                 support=(mK, mV), seed=seed)
    a, b, c = run(0), run(0), run(1)
    assert np.array_equal(a.W_KQ, b.W_KQ) and np.array_equal(a.losses, b.losses)
    assert not np.array_equal(a.W_KQ, c.W_KQ)
    assert a.W_V[0, 1] == 0.3 and np.array_equal(a.W_KQ[~mK], W_KQ[~mK])
    _, _, excess = _zfb_population(np.eye(d), 6)
    P0, P1 = W_V[d, d] * W_KQ[:d, :d].T, a.W_V[d, d] * a.W_KQ[:d, :d].T
    assert excess(P1) < 0.1 * excess(P0)
