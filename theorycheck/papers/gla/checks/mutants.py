"""Deliberate mistakes in the code paper 000 relies on; each must change a listed claim's verdict or trip one of
its self-checks at quick sizes (:func:`theorycheck.selftest.run_paper_mutants`).

Ported from the legacy catalogue (exponent shift, simulator gate order, halved loss, Λ̃ sign, D₂ factor) and
extended to the samplers, the filters, the full-parameter loss and the multi-layer model.
"""
from __future__ import annotations

import math

import numpy as np

from ....models import attention as A
from ....models import filters as F
from ....models import prompts as P
from ...api import Mutant
from ..claims import summary
from ..generated import gla_loss as gen
from ..theory import errors, flows, sums

__all__ = ["MUTANTS"]


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


def _tilde_sign(p):
    def effective_cov(lam, gamma, n, L, sigma_w2, sigma_e2, noise):
        s = sums.sums_for(lam, gamma, n, sigma_w2, sigma_e2)
        kappa = s.B * float(np.trace(L)) + noise * s.N0
        return (1.0 + s.B / s.A2) * L - (kappa / s.A2) * np.eye(L.shape[0])       # BUG: sign
    p.replace(errors, "effective_cov", effective_cov)


def _d2_factor(p):
    def train_error_from_sums(D1, B, A2, N0, s_q, d, noise):
        return d * s_q + noise - d * D1 ** 2 / (A2 + d * B + noise * N0)               # BUG: d, not d + 1
    p.replace(gen, "train_error_from_sums", train_error_from_sums)


def _drift_std(p):

    def drift_labels(rng, X, gamma, sigma_w2, sigma_e2, noise, *, task_scales=None):
        T, runs, d = X.shape
        w = math.sqrt(sigma_w2) * rng.standard_normal((runs, d))
        Y = np.empty((T, runs))
        for t in range(T):
            w = gamma * w + sigma_e2 * rng.standard_normal((runs, d))              # BUG: variance used as std
            Y[t] = np.einsum("rd,rd->r", X[t], w) + math.sqrt(noise) * rng.standard_normal(runs)
        return Y
    p.replace(P, "drift_labels", drift_labels)


def _query_leak(p):

    def gla_forward(X, Y, lam, W_KQ, W_V):
        size, T, d = X.shape
        S = np.zeros((size, d + 1, d + 1))
        for i in range(T):
            z = np.concatenate([X[:, i], Y[:, i][:, None]], axis=1)               # BUG: query label not zeroed
            S = lam * S + (z @ W_V.T)[:, :, None] * z[:, None, :]
        zq = np.concatenate([X[:, -1], np.zeros((size, 1))], axis=1)
        return np.einsum("bij,bj->bi", S, zq @ W_KQ.T)[:, d]
    p.replace(A, "gla_forward", gla_forward)


def _rls_forgetting(p):
    orig = F.rls_errors

    def rls_errors(X, Y, beta, delta=1.0):
        return orig(X, Y, beta * beta, delta)                                     # BUG: forgetting applied twice
    p.replace(F, "rls_errors", rls_errors)


def _nlms(p):

    def lms_errors(X, Y, mu):
        X, Y = F.check_streams(X, Y)
        T, R, d = X.shape
        w = np.zeros((R, d))
        E = np.empty((T, R))
        for t in range(T):
            e = Y[t] - np.einsum("rd,rd->r", X[t], w)
            E[t] = e * e
            w = w + (mu * e / np.einsum("rd,rd->r", X[t], X[t]))[:, None] * X[t]   # BUG: normalised LMS
        return E
    p.replace(F, "lms_errors", lms_errors)


def _kalman_no_gamma(p):
    orig = F.kalman_errors

    def kalman_errors(X, Y, gamma, sigma_w2, sigma_e2, noise=0.0, return_variance=False):
        # BUG: covariance predicted as P + σ_e² I (the γ² shrinkage forgotten), mean as γ m
        X, Y = F.check_streams(X, Y)
        T, R, d = X.shape
        m = np.zeros((R, d))
        P = np.broadcast_to(sigma_w2 * np.eye(d), (R, d, d)).copy()
        E, SV = np.empty((T, R)), np.empty((T, R))
        for t in range(T):
            m = gamma * m
            P = P + sigma_e2 * np.eye(d)
            x = X[t]
            e = Y[t] - np.einsum("rd,rd->r", x, m)
            Px = np.einsum("rij,rj->ri", P, x)
            S = np.einsum("ri,ri->r", x, Px) + noise
            E[t], SV[t] = e * e, S
            k = Px / S[:, None]
            m = m + k * e[:, None]
            P = P - k[:, :, None] * Px[:, None, :]
        return (E, SV) if return_variance else E
    assert orig is not None
    p.replace(F, "kalman_errors", kalman_errors)


def _stream_gate(p):

    def gla_stream_errors(X, Y, lam, Gamma):
        T, R, d = X.shape
        h = np.zeros((R, d))
        E = np.empty((T, R))
        for t in range(T):
            e = Y[t] - np.einsum("rd,rd->r", X[t], h @ np.asarray(Gamma).T)
            E[t] = e * e
            h = lam * h + Y[t][:, None] * X[t]                                    # BUG: newest token not gated
        return E
    p.replace(A, "gla_stream_errors", gla_stream_errors)


def _residual_gain(p):
    orig = F.rls_residuals

    def rls_residuals(X, Y, beta, delta=1.0, return_estimate=False):
        return orig(X, Y, beta, 1.0 / delta, return_estimate)                      # BUG: P0 = δI instead of I/δ
    p.replace(F, "rls_residuals", rls_residuals)


def _full_loss_query(p):
    def _full_loss(u, v, A, b, k):
        Gm = v * A.T + np.outer(b, u)
        Lred = k["h0"] * np.sum(Gm * Gm) - 2 * k["D1"] * np.trace(Gm) + k["c0"]
        M = (A + A.T) / 2
        Atu = A.T @ u
        P1, N0 = k["P1"], k["N0"]
        ET1 = ((P1 ** 2 - N0) * (Atu @ Atu) + N0 * ((u @ u) * np.sum(A * A) + 2 * (Atu @ Atu))
               + 2 * P1 * ((u @ A @ u) * np.trace(A) + 2 * (u @ M @ Atu)))              # BUG: query term dropped
        ET2 = v * v * (b @ b) * k["K2"]
        ET12 = v * ((u @ A @ b) * (P1 * k["Ey"] + 2 * k["B"]) + ((u @ b) * np.trace(A) + 2 * (u @ M @ b)) * k["Ey"])
        return Lred + ET1 + 2 * ET12 + ET2
    p.replace(flows, "_full_loss", _full_loss)


def _stack_grad(p):

    def gla_stack_loss_and_grad(X, Y, lams, W_KQs, W_Vs, normalise=False):
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
            dZ = dZ + dQ @ np.asarray(W_KQs[k], float) + dV @ np.asarray(W_Vs[k], float)   # BUG: key path dropped
        return float(np.mean(r * r)), gK, gV
    p.replace(A, "gla_stack_loss_and_grad", gla_stack_loss_and_grad)


def _forward_drops_b(p):
    orig = A.gla_forward

    def gla_forward(X, Y, lam, W_KQ, W_V):
        K = np.array(W_KQ, dtype=float)
        d = K.shape[0] - 1
        K[d, :d] = 0.0                                 # BUG: the label slot of the keys never meets the query (b = 0)
        return orig(X, Y, lam, K, W_V)
    p.replace(A, "gla_forward", gla_forward)


def _trivial_drops_d(p):
    def prior_error(gamma, n, d, sigma_w2=1.0, sigma_e2=0.01, noise=0.0):
        return sums.moment_sums(1.0, gamma, n, sigma_w2, sigma_e2).s_q + noise     # BUG: E[y²] without the factor d
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
