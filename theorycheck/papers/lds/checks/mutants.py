"""Deliberate mistakes in paper 001's code; each must change a listed claim's verdict or trip a self-check at
quick sizes (:func:`theorycheck.selftest.run_paper_mutants`); each patches a function in the module where the
claims look it up (:mod:`..theory` or :mod:`theorycheck.models`). A mutant wraps the real function where it can; where
the mistake must sit inside a formula, the formula is re-typed here once (``*_copy``, the mistake behind
``mistake=True``) and the copy without its mistake is pinned to the real function by the paper's tests
(``tests/test_lds_mutants.py``). The first three are ported from the legacy catalogue; every mutant lists only claims
that need no training run, so the self-test stays fast."""
from __future__ import annotations

import dataclasses

import numpy as np

from .... import gaussian as g
from ....models import attention as A
from ....models import dynamics as D
from ....models import filters as F
from ...api import Mutant
from ..theory import gd, isserlis, kalman, nonnormal, optimum, pcg, stationarity, support, wqk
from .consistency import CHECKS  # noqa: F401  (found by the self-test through Paper(mutants=...))

_RATIO = "001-thm41-ratio-of-expectations"
_OPT = "001-thm41-global-optimum"


def _drop_t2(p):
    orig = wqk.wqk_star

    def wqk_star(T, prior, *a, **k):
        w = orig(T, prior, *a, **k)
        return dataclasses.replace(w, value=w.value / (T - 2), se=w.se / (T - 2))
    p.replace(wqk, "wqk_star", wqk_star)


def _per_system(p):
    def wqk_star(T, prior, *a, **k):
        est = wqk.per_system_ratio_average(T, prior, n_systems=4000, seed=0)
        return wqk.WqkStar(float(est.mean), float(est.se), est.n, "per-system-average", T,
                           extra={"batch_ratios": [float(est.mean) + d for d in (-est.se, est.se)]})
    p.replace(wqk, "wqk_star", wqk_star)


def _lag_range(p):
    orig = isserlis.lag1_matrix

    def lag1_matrix(T):
        return orig(T) + g.quadratic_form_matrix([(T - 2, T - 1)], T)       # BUG: one pair too many (i = T − 1)
    p.replace(isserlis, "lag1_matrix", lag1_matrix)


def _parity_shift(p):
    orig = support.parity_zero_pattern

    def parity_zero_pattern(s):
        return ~orig(s)                                     # BUG: parity flipped (zeros at k + l + j + s odd)
    p.replace(support, "parity_zero_pattern", parity_zero_pattern)


def coefficients_copy(W_QK, W_V, mistake: bool = True):
    """:func:`theorycheck.models.attention.effective_coefficients` re-typed for ``lds-coefficients-unsymmetrised``
    (the mistake sits inside the formula); ``mistake=False`` is the formula itself (pinned to the real function by
    the paper's tests)."""
    W_QK, W_V, s = A.check_weights(W_QK, W_V)
    outer = W_V[s][:, None, None] * W_QK[:, :s][None, :, :]                 # v_k W_lj
    C = outer * np.triu(np.ones((s + 1, s + 1)))[:, :, None]
    if not mistake:                                                         # BUG: this v_l W_kj term (k < l) dropped
        C = C + outer.transpose(1, 0, 2) * np.triu(np.ones((s + 1, s + 1)), 1)[:, :, None]
    return C


def _no_symmetrisation(p):
    p.replace(A, "effective_coefficients", lambda W_QK, W_V: coefficients_copy(W_QK, W_V))


def _gd_no_normalisation(p):
    orig = gd.ar_gd_step_prediction

    def ar_gd_step_prediction(Y, s, eta):
        return orig(Y, s, eta * (Y.shape[1] - s - 1))                      # BUG: sum instead of mean (step × n)
    p.replace(gd, "ar_gd_step_prediction", ar_gd_step_prediction)


def kalman_copy(systems, T, mistake: bool = True):
    """:func:`theorycheck.models.filters.kalman_one_step_mse` re-typed for ``lds-kalman-no-update`` (the mistake sits
    inside the recursion); ``mistake=False`` restores the measurement update (pinned to the real function by the
    paper's tests)."""
    Am, c, Sw = systems.A, systems.c, systems.Sigma_w
    P = np.broadcast_to(systems.sigma0 ** 2 * np.eye(Am.shape[1]), Am.shape).copy()
    for t in range(T):
        if t and not mistake:                                               # BUG: no measurement update
            Pc = np.einsum("bij,bj->bi", P, c)
            P = P - np.einsum("bi,bj->bij", Pc, Pc) / (np.einsum("bi,bi->b", c, Pc) + systems.sigma_v ** 2)[:, None,
                                                                                                            None]
        P = Am @ P @ Am.transpose(0, 2, 1) + Sw
    return np.einsum("bi,bij,bj->b", c, P, c) + systems.sigma_v ** 2


def _kalman_no_update(p):
    p.replace(F, "kalman_one_step_mse", lambda systems, T: kalman_copy(systems, T))


def _pcg_transposed_p(p):
    orig = pcg.pcg_quantities

    def pcg_quantities(W_QK, W_V, Y, preconditioner="P", init="residual"):
        W = np.array(W_QK, dtype=float)
        s = W.shape[0] - 1
        W[:s, :s] = W[:s, :s].T                                             # BUG: P = W̃ instead of W̃ᵀ
        return orig(W, W_V, Y, preconditioner, init)
    p.replace(pcg, "pcg_quantities", pcg_quantities)


def _no_observation_noise(p):
    orig = D.simulate_lds

    def simulate_lds(systems, T, rng):
        quiet = D.LDSBatch(systems.A, systems.c, systems.Sigma_w, systems.sigma0, 0.0)   # BUG: v_t dropped
        return orig(quiet, T, rng)
    p.replace(D, "simulate_lds", simulate_lds)


def _transposed_dynamics(p):
    orig = D.simulate_lds

    def simulate_lds(systems, T, rng):
        At = D.LDSBatch(systems.A.transpose(0, 2, 1), systems.c, systems.Sigma_w, systems.sigma0, systems.sigma_v)
        return orig(At, T, rng)                                             # BUG: x_t = Aᵀ x_{t-1} + w_t
    p.replace(D, "simulate_lds", simulate_lds)


def _query_index(p):
    orig = stationarity._feature_forms

    def _feature_forms(T, s):
        n, feats, mats, qidx = orig(T, s)
        return n, feats, mats, {j: i - 1 for j, i in qidx.items()}          # BUG: q_j = y_{T-s+j-2}
    p.replace(stationarity, "_feature_forms", _feature_forms)


def _orthogonal_as_diagonal(p):
    def _orthogonal_weight_moments(d):
        return {k: 1.0 for k in ("m1", "m2", "m11", "m3", "m21", "m111")}     # BUG: weights (Qc)_k² taken as 1
    p.replace(isserlis, "_orthogonal_weight_moments", _orthogonal_weight_moments)


def _coupling_no_cross(p):
    orig = nonnormal._coupling_weights

    def _coupling_weights(prior, U):
        C = orig(prior, U)
        C[:, 1 + prior.d:] = 0.0                  # BUG: the pairs k < l of correlated components dropped
        return C
    p.replace(nonnormal, "_coupling_weights", _coupling_weights)


def last_value_mse_copy(K, mistake: bool = True):
    """The MSE of 'predict the last value' from the autocovariance ``K``, re-typed for
    ``lds-last-value-difference-of-variances``; ``mistake=False`` is the formula of
    :func:`~theorycheck.papers.lds.theory.kalman.trivial_predictor_mse` (pinned to it by the paper's tests)."""
    if mistake:
        return K[:, -1, -1] - K[:, -2, -2]          # BUG: E[(y_T − y_(T−1))²] as E[y_T²] − E[y_(T−1)²]
    return K[:, -1, -1] - 2 * K[:, -1, -2] + K[:, -2, -2]


def _last_value_difference_of_variances(p):
    orig = kalman.trivial_predictor_mse

    def trivial_predictor_mse(systems, T):
        out = orig(systems, T)
        out["predict the last value"] = last_value_mse_copy(D.lds_autocovariance(systems, T))
        return out
    p.replace(kalman, "trivial_predictor_mse", trivial_predictor_mse)


def _bias_with_filter_covariance(p):
    orig = kalman._steady

    def _steady(systems):
        st = orig(systems)
        st["Sigma_x"] = 2 * st["P"]                # BUG: bias variance with P instead of Cov(x̂) = Σ_x − P
        return st
    p.replace(kalman, "_steady", _steady)


def pcg_steps_copy(H, g0, Pc, qv, init, w0=None, mistake: bool = True):
    """The two PCG steps of :mod:`~theorycheck.papers.lds.theory.pcg` re-typed for ``lds-pcg-fixed-steps`` (the
    mistake sits inside the iteration): step 0.1 and β = 1; ``mistake=False`` is the exact line search (pinned to the
    real steps on random, non-degenerate inputs by the paper's tests)."""
    r0 = -g0 if w0 is None else -(g0 + np.einsum("bij,bj->bi", H, w0))
    z0 = r0 @ Pc.T
    d0 = z0 if init == "residual" else np.broadcast_to(qv, z0.shape).copy()
    Hd0 = np.einsum("bij,bj->bi", H, d0)
    al0 = 0.1 if mistake else (np.sum(r0 * d0, 1) / np.sum(d0 * Hd0, 1))[:, None]   # BUG: fixed step, no line search
    w1 = al0 * d0 if w0 is None else w0 + al0 * d0
    r1 = r0 - al0 * Hd0
    z1 = r1 @ Pc.T
    if mistake:
        beta = 1.0
    elif init == "residual":
        beta = (np.sum(r1 * z1, 1) / np.sum(r0 * z0, 1))[:, None]
    else:
        beta = (-np.sum(z1 * Hd0, 1) / np.sum(d0 * Hd0, 1))[:, None]
    d1 = z1 + beta * d0
    Hd1 = np.einsum("bij,bj->bi", H, d1)
    al1 = 0.1 if mistake else (np.sum(r1 * d1, 1) / np.sum(d1 * Hd1, 1))[:, None]
    w2 = w1 + al1 * d1
    r2 = r1 - al1 * Hd1
    return r0, z0, z1, r2 @ Pc.T, w1, w2


def _pcg_fixed_steps(p):
    p.replace(pcg, "_two_pcg_steps", lambda H, g0, Pc, qv, init, w0=None: pcg_steps_copy(H, g0, Pc, qv, init, w0))


def _optimum_gradient_half(p):
    orig = optimum._loss_grad

    def _loss_grad(x, pairs, nf, gram, b, Eyy):
        L, g = orig(x, pairs, nf, gram, b, Eyy)
        g[np.unique(pairs[2])] *= 0.5               # BUG: the W-gradient halved (W's indices are disjoint from v's)
        return L, g
    p.replace(optimum, "_loss_grad", _loss_grad)


MUTANTS = [
    Mutant("lds-drop-T-minus-2", "W*_QK without the (T − 2) factor (the 1/(T − 2) of the attention normalisation "
           "forgotten)", (_RATIO, _OPT), _drop_t2),
    Mutant("lds-per-system-ratio", "W*_QK as the prior average of per-system optimal ratios E_A[(T−2)N(A)/D(A)] "
           "instead of the ratio of expectations (T−2)E[N]/E[D]", (_RATIO, _OPT), _per_system),
    Mutant("lds-lag-range", "lag-1 statistic summed over i = 1..T−1 instead of 1..T−2 (S then contains the target "
           "y_T)", ("001-isserlis-moments", _OPT), _lag_range),
    Mutant("lds-parity-shift", "parity-forced zeros at k + l + j + s odd instead of even", ("001-lemma41-parity",),
           _parity_shift),
    Mutant("lds-coefficients-unsymmetrised", "effective coefficients C_klj = v_k W_lj only (the v_l W_kj term of the "
           "symmetric Gram matrix dropped)", (_OPT,), _no_symmetrisation),
    Mutant("lds-gd-step-unnormalised", "one GD step on L_AR(s) with the sum instead of the mean over the n tokens",
           ("001-gd-identity",), _gd_no_normalisation),
    Mutant("lds-kalman-no-update", "Kalman MSE from the prior covariance propagation only (measurement update "
           "forgotten)", ("001-kf-optimal",), _kalman_no_update),
    Mutant("lds-pcg-transposed-p", "Eq. 17 reconstruction with P = W_QK[:s, :s] instead of its transpose",
           ("001-eq17-form",), _pcg_transposed_p),
    Mutant("lds-no-observation-noise", "trajectories simulated without the observation noise v_t",
           ("001-isserlis-moments", _RATIO), _no_observation_noise),
    Mutant("lds-transposed-dynamics", "trajectories simulated with x_t = Aᵀx_{t−1} + w_t (invisible for diagonal or "
           "symmetric A, setting (d) only)", (_RATIO,), _transposed_dynamics),
    Mutant("lds-query-index", "stationarity features with the query entry q_j one step too early",
           (_OPT, "001-lemma41-parity"), _query_index),
    Mutant("lds-orthogonal-as-diagonal", "setting (b)'s exact route with the component weights (Qc)_k² taken as 1 "
           "(Q treated as the identity)", (_RATIO,), _orthogonal_as_diagonal),
    Mutant("lds-coupling-no-cross", "setting (d)'s route without the cross-covariances of the coupled components",
           (_RATIO,), _coupling_no_cross),
    Mutant("lds-last-value-difference-of-variances", "the trivial 'predict the last value' baseline with "
           "E[(y_T − y_(T−1))²] written as E[y_T²] − E[y_(T−1)²] (a baseline far too strong: the Kalman filter no "
           "longer beats it)",
           ("001-kf-optimal",), _last_value_difference_of_variances),
    Mutant("lds-bias-filter-covariance", "the AR(s) truncation bias computed with the filter's error covariance P "
           "instead of the covariance Σ_x − P of the state estimate", ("001-ar-approaches-kf",),
           _bias_with_filter_covariance),
    Mutant("lds-pcg-fixed-steps", "two PCG steps with a fixed step size instead of the exact line search",
           ("001-eq18-pcg-form", "001-pcg-covers-ar1"), _pcg_fixed_steps),
    Mutant("lds-optimum-gradient-half", "the exact loss's gradient with respect to W_QK halved in the multi-start "
           "minimisation", ("001-lemma41-reduces-search", "001-sge2-not-gd"), _optimum_gradient_half),
]
