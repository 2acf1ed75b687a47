"""Deliberate mistakes in the code paper 000 relies on; each must change a listed claim's verdict or trip one of
its self-checks at quick sizes (:func:`theorycheck.selftest.run_paper_mutants`).

Ported from the legacy catalogue (exponent shift, simulator gate order, halved loss, Λ̃ sign, D₂ factor) and
extended to the samplers, the filters, the full-parameter loss and the multi-layer model.

A mutant wraps the real function where the mistake can be expressed through it (``orig = mod.f`` and a changed
argument or result). Where the mistake sits inside the formula, the mutant runs a copy of the formula with a switch
``bug``: ``bug=True`` is the mistake, ``bug=False`` the real formula — the paper's tests
(``tests/test_mutant_copies.py``) pin each copy without its bug to the real function on random inputs, so a copy
cannot drift from what it mutates.
"""
from __future__ import annotations

import numpy as np

from ....models import attention as A
from ....models import filters as F
from ....models import prompts as P
from ...api import Mutant
from ..claims import summary
from ..generated import gla_loss as gen
from ..theory import errors, flows, sums

__all__ = ["MUTANTS", "effective_cov_copy", "gla_forward_copy", "lms_errors_copy", "kalman_errors_copy",
           "gla_stack_loss_and_grad_copy"]


def _exponent_shift(p):
    orig = sums.sums_for

    def sums_for(lam, gamma, n, sigma_w2, sigma_e2, route=None):
        s = orig(lam, gamma, n, sigma_w2, sigma_e2, route)
        return sums.GLASums(s.D1 / lam, s.B / lam ** 2, s.A2 / lam ** 2, s.N0 / lam ** 2, s.s_q, s.method)
    p.replace(sums, "sums_for", sums_for)


def _gate_order(p):
    orig = A.gla_forward

    def gla_forward(X, Y, lam, W_KQ, W_V):
        return lam * orig(X, Y, lam, W_KQ, W_V)       # == S_i = λ(S_{i-1} + v_i k_iᵀ): weights λ^{n+2-i}
    p.replace(A, "gla_forward", gla_forward)


def _halved(p):
    orig = errors.error_at

    def error_at(lam, gamma, n, d, sigma_w2, sigma_e2, noise):
        return orig(lam, gamma, n, d, sigma_w2, sigma_e2, noise) / 2                # BUG: always halved
    p.replace(errors, "error_at", error_at)


def effective_cov_copy(lam, gamma, n, L, sigma_w2, sigma_e2, noise, *, bug=True):
    """:func:`..theory.errors.effective_cov` re-typed (on the same scaled sums); ``bug``: the sign of the
    (B trΛ + σ²N₀)/A₂ I term flipped."""
    _, s, nz = sums.scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    kappa = s.B * float(np.trace(L)) + nz * s.N0
    sign = -1.0 if bug else 1.0                                                   # BUG: sign
    return (1.0 + s.B / s.A2) * L + sign * (kappa / s.A2) * np.eye(L.shape[0])


def _tilde_sign(p):
    p.replace(errors, "effective_cov", effective_cov_copy)


def _d2_factor(p):
    orig = gen.train_error_from_sums

    def train_error_from_sums(D1, B, A2, N0, s_q, d, noise):
        return orig(D1, B, A2 - B, N0, s_q, d, noise)          # BUG: D₂ = A₂ + dB, not A₂ + (d + 1)B
    p.replace(gen, "train_error_from_sums", train_error_from_sums)


def _drift_std(p):
    orig = P.drift_labels

    def drift_labels(rng, X, gamma, sigma_w2, sigma_e2, noise, *, task_scales=None):
        # BUG: the variance σ_e² used as the innovations' standard deviation (their variance becomes σ_e⁴)
        return orig(rng, X, gamma, sigma_w2, sigma_e2 ** 2, noise, task_scales=task_scales)
    p.replace(P, "drift_labels", drift_labels)


def gla_forward_copy(X, Y, lam, W_KQ, W_V, *, bug=True):
    """:func:`theorycheck.models.attention.gla_forward` re-typed as the full state recursion; ``bug``: the query
    token enters the state with its true label instead of 0."""
    size, T, d = X.shape
    S = np.zeros((size, d + 1, d + 1))
    for i in range(T):
        y = Y[:, i] if bug or i < T - 1 else np.zeros(size)                       # BUG: query label not zeroed
        z = np.concatenate([X[:, i], y[:, None]], axis=1)
        S = lam * S + (z @ W_V.T)[:, :, None] * z[:, None, :]
    zq = np.concatenate([X[:, -1], np.zeros((size, 1))], axis=1)
    return np.einsum("bij,bj->bi", S, zq @ W_KQ.T)[:, d]


def _query_leak(p):
    p.replace(A, "gla_forward", gla_forward_copy)


def _rls_forgetting(p):
    orig = F.rls_errors

    def rls_errors(X, Y, beta, delta=1.0):
        return orig(X, Y, beta * beta, delta)                                     # BUG: forgetting applied twice
    p.replace(F, "rls_errors", rls_errors)


def lms_errors_copy(X, Y, mu, *, bug=True):
    """:func:`theorycheck.models.filters.lms_errors` re-typed; ``bug``: the step normalised by ‖x_t‖² (NLMS)."""
    X, Y = F.check_streams(X, Y)
    T, R, d = X.shape
    w = np.zeros((R, d))
    E = np.empty((T, R))
    for t in range(T):
        e = Y[t] - np.einsum("rd,rd->r", X[t], w)
        E[t] = e * e
        if bug:
            w = w + (mu * e / np.einsum("rd,rd->r", X[t], X[t]))[:, None] * X[t]   # BUG: normalised LMS
        else:
            w = w + mu * e[:, None] * X[t]
    return E


def _nlms(p):
    p.replace(F, "lms_errors", lms_errors_copy)


def kalman_errors_copy(X, Y, gamma, sigma_w2, sigma_e2, noise=0.0, return_variance=False, *, bug=True):
    """:func:`theorycheck.models.filters.kalman_errors` re-typed; ``bug``: the covariance predicted as P + σ_e² I
    (the γ² shrinkage forgotten), the mean still as γ m."""
    X, Y = F.check_streams(X, Y)
    T, R, d = X.shape
    m = np.zeros((R, d))
    P = np.broadcast_to(sigma_w2 * np.eye(d), (R, d, d)).copy()
    E, SV = np.empty((T, R)), np.empty((T, R))
    for t in range(T):
        m = gamma * m
        P = (P if bug else gamma * gamma * P) + sigma_e2 * np.eye(d)              # BUG: γ² P forgotten
        x = X[t]
        e = Y[t] - np.einsum("rd,rd->r", x, m)
        Px = np.einsum("rij,rj->ri", P, x)
        S = np.einsum("ri,ri->r", x, Px) + noise
        E[t], SV[t] = e * e, S
        k = Px / S[:, None]
        m = m + k * e[:, None]
        P = P - k[:, :, None] * Px[:, None, :]
        P = 0.5 * (P + P.transpose(0, 2, 1))
    return (E, SV) if return_variance else E


def _kalman_no_gamma(p):
    p.replace(F, "kalman_errors", kalman_errors_copy)


def _stream_gate(p):
    orig = A.gla_stream_errors

    def gla_stream_errors(X, Y, lam, Gamma):
        # BUG: the newest token left ungated, h_{t+1} = λh_t + y_t x_t = (the real λ(h_t + y_t x_t)) / λ — the real
        # recursion read out through Γ/λ
        return orig(X, Y, lam, np.asarray(Gamma, dtype=float) / lam)
    p.replace(A, "gla_stream_errors", gla_stream_errors)


def _residual_gain(p):
    orig = F.rls_residuals

    def rls_residuals(X, Y, beta, delta=1.0, return_estimate=False):
        return orig(X, Y, beta, 1.0 / delta, return_estimate)                      # BUG: P0 = δI instead of I/δ
    p.replace(F, "rls_residuals", rls_residuals)


#: the constants of the full-parameter loss with every sum 0: the loss is then the query token's own term alone
_QUERY_ONLY = {"h0": 0.0, "D1": 0.0, "c0": 0.0, "P1": 0.0, "N0": 0.0, "B": 0.0, "Ey": 0.0, "K2": 0.0}


def _full_loss_query(p):
    orig = flows._full_loss

    def _full_loss(u, v, A, b, k):
        # BUG: the query token's own term (u·x_q)(x_qᵀ A x_q) dropped — the real loss minus the real loss at v = 0,
        # b = 0 and every sum 0, which is that term alone
        return orig(u, v, A, b, k) - orig(u, 0.0, A, 0.0 * b, {**k, **_QUERY_ONLY})
    p.replace(flows, "_full_loss", _full_loss)


def gla_stack_loss_and_grad_copy(X, Y, lams, W_KQs, W_Vs, normalise=False, *, bug=True):
    """:func:`theorycheck.models.attention.gla_stack_loss_and_grad` re-typed (every layer in full); ``bug``: the
    gradient's path through the keys (dSᵀQ) dropped."""
    Z = A.gla_tokens(X, Y)
    T = Z.shape[1]
    age = np.subtract.outer(np.arange(T), np.arange(T))
    cache = []
    for lam, Wk, Wv in zip(np.broadcast_to(np.atleast_1d(lams), (len(W_KQs),)), W_KQs, W_Vs):
        M = np.where(age >= 0, lam ** np.maximum(age, 0), 0.0) * ((1.0 - lam) if normalise else 1.0)
        Q = Z @ np.asarray(Wk, float).T
        Am = (Q @ Z.transpose(0, 2, 1)) * M
        V = Z @ np.asarray(Wv, float).T
        cache.append((Z, Q, Am, V, M))
        Z = Z + Am @ V                                # the residual stack of C8, every layer in full
    yhat = Z[:, -1, -1]
    Y = np.asarray(Y, dtype=float)
    r = yhat - Y[:, -1]
    dZ = np.zeros_like(cache[0][0])
    dZ[:, -1, -1] = 2.0 * r / Y.shape[0]
    gK, gV = [None] * len(cache), [None] * len(cache)
    for k in reversed(range(len(cache))):
        Z, Q, Am, V, M = cache[k]
        D = Z.shape[2]
        dV = Am.transpose(0, 2, 1) @ dZ
        dS = (dZ @ V.transpose(0, 2, 1)) * M
        dQ = dS @ Z
        gV[k] = dV.reshape(-1, D).T @ Z.reshape(-1, D)
        gK[k] = dQ.reshape(-1, D).T @ Z.reshape(-1, D)
        dZ = dZ + dQ @ np.asarray(W_KQs[k], float) + dV @ np.asarray(W_Vs[k], float)
        if not bug:
            dZ = dZ + dS.transpose(0, 2, 1) @ Q                                     # BUG: key path dropped
    return float(np.mean(r * r)), gK, gV


def _stack_grad(p):
    p.replace(A, "gla_stack_loss_and_grad", gla_stack_loss_and_grad_copy)


def _forward_drops_b(p):
    orig = A.gla_forward

    def gla_forward(X, Y, lam, W_KQ, W_V):
        K = np.array(W_KQ, dtype=float)
        d = K.shape[0] - 1
        K[d, :d] = 0.0                                 # BUG: the label slot of the keys never meets the query (b = 0)
        return orig(X, Y, lam, K, W_V)
    p.replace(A, "gla_forward", gla_forward)


def _trivial_drops_d(p):
    orig = summary.prior_error

    def prior_error(gamma, n, d, *args, **kwargs):
        return orig(gamma, n, 1, *args, **kwargs)        # BUG: E[y²] = d s_{n+1} + σ² without the factor d
    p.replace(summary, "prior_error", prior_error)


MUTANTS = [
    Mutant("gla-exponent-shift", "GLA weights λ^(n−i) instead of λ^(n+1−i) in the exact moment sums (D₁ → D₁/λ, "
           "B, A₂, N₀ → ·/λ²): the train error is invariant, Γ* and the loss at a fixed Γ are not",
           ("000-thm1-effective-covariance",), _exponent_shift),
    Mutant("gla-sim-gate-order", "simulator applies the gate after the update, S_i = λ(S_{i−1} + v_i k_iᵀ)",
           ("000-gla-recursion", "000-thm2-xi"), _gate_order),
    Mutant("gla-halved-loss", "train error reported as the halved loss E[(ŷ − y)²]/2 where the MSE is meant",
           ("000-zfb-limit", "000-thm2-xi"), _halved),
    Mutant("gla-lambda-tilde-sign", "sign error in the effective covariance: (1 + B/A₂)Λ − (B trΛ + σ²N₀)/A₂ I",
           ("000-zfb-limit", "000-thm1-effective-covariance"), _tilde_sign),
    Mutant("gla-D2-d-factor", "D₂ = A₂ + dB instead of A₂ + (d + 1)B in the train error (the query's fourth moment "
           "forgotten)", ("000-zfb-limit", "000-thm2-xi"), _d2_factor),
    Mutant("gla-drift-std", "AR(1) sampler draws the innovations with standard deviation σ_e² instead of σ_e",
           ("000-thm2-xi",), _drift_std),
    Mutant("gla-query-label-leak", "the query token carries its true label instead of 0",
           ("000-lambda1-linear-attention", "000-thm2-xi"), _query_leak),
    Mutant("gla-rls-forgetting-twice", "RLS run with forgetting factor β² instead of β",
           ("000-gla-vs-lms-rls",), _rls_forgetting),
    Mutant("gla-nlms", "normalised LMS (step μ/‖x_t‖²) run in place of LMS", ("000-gla-vs-lms-rls",), _nlms),
    Mutant("gla-kalman-no-gamma", "Kalman filter predicts the covariance as P + σ_e² I (γ² shrinkage forgotten)",
           ("000-test-error-floor",), _kalman_no_gamma),
    Mutant("gla-stream-gate", "streaming GLA leaves the newest token ungated, h_{t+1} = λh_t + y_t x_t",
           ("000-gla-vs-lms-rls",), _stream_gate),
    Mutant("gla-full-loss-query-term", "full-parameter loss without the query token's own term "
           "(u·x_q)(x_qᵀ A x_q)", ("000-full-vs-reduced-optimum",), _full_loss_query),
    Mutant("gla-forward-drops-b", "the simulator ignores the last row of W_KQ's first d columns (b), so ŷ depends on "
           "fewer entries than the sentence says (the irrelevance identity cannot see it: the necessity sub-claim "
           "and the full-loss self-check do)",
           ("000-full-vs-reduced-optimum",), _forward_drops_b),
    Mutant("gla-stack-grad-key-path", "multi-layer gradient drops the path through the keys (dSᵀQ)",
           ("000-depth-ablation",), _stack_grad),
    Mutant("gla-reconcile-rls-init", "the multi-channel RLS of the reconciliation starts from P₀ = δI instead of I/δ",
           ("000-lms-rls-numbers",), _residual_gain),
    Mutant("gla-trivial-drops-d", "the trivial predictor's error E[y²] = d s_{n+1} computed without the factor d (the "
           "C11 baseline of the GLA / linear-attention comparison)", ("000-gla-beats-linear-attention",),
           _trivial_drops_d),
]
