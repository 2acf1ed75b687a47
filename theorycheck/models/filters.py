r"""Classical filters: LMS, RLS and Kalman on AR(1)-drifting regression streams (paper 000), and the
Kalman / oracle AR(s) predictors of linear dynamical systems (paper 001).

Stream (same model as :mod:`theorycheck.gla`): :math:`w_0\sim\mathcal N(0,\sigma_w^2I_d)`,
:math:`w_t=\gamma w_{t-1}+e_t`, :math:`x_t\sim\mathcal N(0,\Lambda)`,
:math:`y_t=\langle w_t,x_t\rangle+\varepsilon_t` for :math:`t=1..T`.

Every filter here is run *batched* over independent runs (axis 1) and returns the **a priori**
(one-step-ahead) squared errors :math:`(y_t-\hat w_{t-1}^\top x_t)^2`, shape ``(T, runs)``: the
prediction of :math:`y_t` uses only :math:`(x_s,y_s)_{s<t}` and :math:`x_t`, exactly like the
GLA query. Conventions of the filters (all start from :math:`\hat w_0=0`):

* LMS, step :math:`\mu`: :math:`\hat w_t=\hat w_{t-1}+\mu e_tx_t` (padasip ``FilterLMS(mu)``).
* RLS, forgetting factor :math:`\beta\in(0,1]` and :math:`P_0=\delta^{-1}I`:
  :math:`k_t=P_{t-1}x_t/(\beta+x_t^\top P_{t-1}x_t)`, :math:`\hat w_t=\hat w_{t-1}+k_te_t`,
  :math:`P_t=(P_{t-1}-k_tx_t^\top P_{t-1})/\beta` (padasip ``FilterRLS(mu=β, eps=δ)``).
  For :math:`\beta` small (effective window :math:`1/(1-\beta)` not much larger than d) the
  recursion is numerically unstable; runs whose estimate leaves the finite range get ``inf``
  errors (never NaN) and are reported as diverged by the callers (never silently dropped).
* Kalman filter with the true (γ, σ_w², σ_e², noise): the Bayes-optimal one-step predictor
  (a lower bound for every method, given the true model).
* GLA stream: :math:`\hat y_t=x_t^\top\Gamma h_t`, :math:`h_t=\sum_{s<t}\lambda^{t-s}y_sx_s`
  with a fixed Γ (the trained one for prompt length ``T-1`` by default).

>>> from theorycheck.models.prompts import ar1_stream
>>> rng = np.random.default_rng(0)
>>> X, Y = ar1_stream(rng, runs=200, T=50, d=2, gamma=0.9, sigma_w2=1.0, sigma_e2=0.1)
>>> lms_errors(X, Y, 0.05).shape
(50, 200)
"""

from __future__ import annotations

import numpy as np

from ..validate import check_array, check_bool, check_finite_result, check_int, check_real
from .dynamics import MAX_T, LDSBatch, check_systems, lds_autocovariance

__all__ = ["lms_errors", "rls_errors", "kalman_errors", "lms_reference_errors", "rls_direct_errors", "lms_residuals",
           "rls_residuals",
           "kalman_one_step_mse", "oracle_ar_mse",
           "steady_state_closed_loop_radius", "check_streams"]


def check_streams(X, Y):
    """``(X, Y)`` as float arrays if ``X`` has shape ``(T, runs, d)``, ``Y`` shape ``(T, runs)`` and both are finite
    (errors name the array).

    >>> [a.shape for a in check_streams(np.zeros((4, 2, 3)), np.zeros((4, 2)))]
    [(4, 2, 3), (4, 2)]
    """
    X = check_array("X", X, finite=False)
    Y = check_array("Y", Y, finite=False)
    if X.ndim != 3 or Y.shape != X.shape[:2]:
        raise ValueError(f"X must have shape (T, runs, d) and Y (T, runs); got {X.shape}, {Y.shape}")
    if not (_all_finite(X) and _all_finite(Y)):
        raise ValueError("X and Y must have finite entries (NaN/inf input would be reported as filter divergence)")
    return X, Y


def _all_finite(A) -> bool:
    """Whether every entry of the float array ``A`` is finite (one summing pass; the entrywise test only when the
    sum is not finite: a NaN or infinite entry, or an overflow of the sum)."""
    with np.errstate(over="ignore", invalid="ignore"):
        if np.isfinite(A.sum()):
            return True
    return bool(np.all(np.isfinite(A)))


def lms_errors(X, Y, mu):
    r"""A priori squared errors of LMS with step ``mu`` > 0 (shape ``(T, runs)``).

    >>> X = np.ones((3, 1, 1)); Y = np.ones((3, 1))
    >>> lms_errors(X, Y, 0.5)[:, 0].tolist()      # w: 0 → 0.5 → 0.75
    [1.0, 0.25, 0.0625]
    """
    X, Y = check_streams(X, Y)
    mu = check_real("mu", mu, 0.0, low_open=True)
    T, R, d = X.shape
    w = np.zeros((R, d))
    E = np.empty((T, R))
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(T):
            e = Y[t] - np.einsum("rd,rd->r", X[t], w)
            E[t] = e * e
            w = w + mu * e[:, None] * X[t]
    _inf_for_nonfinite(E)              # diverged runs: inf, never NaN
    return E


def rls_errors(X, Y, beta, delta=1.0):
    r"""A priori squared errors of exponentially weighted RLS (forgetting ``beta``, :math:`P_0=I/\delta`).

    Diverged runs give ``inf`` entries (never NaN; callers must report them).

    >>> X = np.ones((2, 1, 1)); Y = np.ones((2, 1))
    >>> rls_errors(X, Y, 1.0, delta=1.0)[:, 0].tolist()     # w: 0 → 1/2
    [1.0, 0.25]
    """
    X, Y = check_streams(X, Y)
    beta = check_real("beta", beta, 0.0, 1.0, low_open=True)
    delta = check_real("delta", delta, 0.0, low_open=True)
    T, R, d = X.shape
    w = np.zeros((R, d))
    P = np.broadcast_to(np.eye(d) / delta, (R, d, d)).copy()
    tmp = np.empty_like(P)
    E = np.empty((T, R))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for t in range(T):                 # P is updated in place (the same operations, in the same order)
            x = X[t]
            e = Y[t] - np.einsum("rd,rd->r", x, w)
            E[t] = e * e
            Px = np.einsum("rij,rj->ri", P, x)
            k = Px / (beta + np.einsum("ri,ri->r", x, Px))[:, None]
            w = w + k * e[:, None]
            np.einsum("ri,rj->rij", k, Px, out=tmp)          # k_t (P x_t)^T (exact products)
            P -= tmp
            P /= beta
            np.add(P, P.transpose(0, 2, 1), out=tmp)
            np.multiply(tmp, 0.5, out=P)
    _inf_for_nonfinite(E)              # diverged runs: inf, never NaN
    return E


def _inf_for_nonfinite(E):
    """Set the non-finite entries of ``E`` to ``inf`` in place (a single summing pass when all are finite: a NaN or
    an infinite entry makes the sum non-finite)."""
    if not _all_finite(E):
        E[~np.isfinite(E)] = np.inf


def _channels(X, Y):
    """``(X, Y3, squeeze)``: Y as ``(T, runs, K)`` label channels sharing the inputs X."""
    X = check_array("X", X, finite=False)
    Y = check_array("Y", Y, finite=False)
    if X.ndim != 3 or Y.ndim not in (2, 3) or Y.shape[:2] != X.shape[:2] or (Y.ndim == 3 and Y.shape[2] < 1):
        raise ValueError(f"X must have shape (T, runs, d) and Y (T, runs) or (T, runs, K); got {X.shape}, {Y.shape}")
    if not (_all_finite(X) and _all_finite(Y)):
        raise ValueError("X and Y must have finite entries (NaN/inf input would be reported as filter divergence)")
    return X, (Y[:, :, None] if Y.ndim == 2 else Y), Y.ndim == 2


def lms_residuals(X, Y, mu, return_estimate=False):
    r"""Signed a priori errors :math:`e_t=y_t-\hat w_{t-1}^\top x_t` of LMS (step ``mu``), same shape as ``Y``.

    ``Y`` is ``(T, runs)`` or ``(T, runs, K)``: K label channels sharing the inputs (e.g. the parts of the
    label due to :math:`w_0`, to the drift and to the label noise). The estimate is linear in the labels,
    so the residuals of a linear combination of channels are the same combination of the channels'
    residuals; ``lms_residuals(X, Y, mu) ** 2`` is ``lms_errors(X, Y, mu)`` (to rounding). Diverged entries are
    ``inf``.
    ``return_estimate``: also return :math:`\hat w_{T-1}` (the estimate that made the last prediction), shape
    ``(runs, d)`` or ``(runs, K, d)``.

    >>> X = np.ones((3, 1, 1)); Y = np.ones((3, 1))
    >>> lms_residuals(X, Y, 0.5)[:, 0].tolist()
    [1.0, 0.5, 0.25]
    """
    X, Y3, squeeze = _channels(X, Y)
    mu = check_real("mu", mu, 0.0, low_open=True)
    return_estimate = check_bool("return_estimate", return_estimate)
    T, R, d = X.shape
    K = Y3.shape[2]
    E = np.empty(Y3.shape)
    with np.errstate(over="ignore", invalid="ignore"):
        if d == 1:                         # scalar inputs: the same products, on (runs, K) arrays
            x1 = X[:, :, 0]
            w = np.zeros((R, K))
            w_last = w
            for t in range(T):
                x = x1[t][:, None]
                e = Y3[t] - w * x
                E[t] = e
                w_last = w
                w = w + (mu * e) * x
            w_last = w_last[:, :, None]
        else:
            w, w_next, dw = np.zeros((R, K, d)), np.empty((R, K, d)), np.empty((R, K, d))
            w_last = w
            for t in range(T):
                x = X[t]
                e = Y3[t] - (w @ x[:, :, None])[:, :, 0]
                E[t] = e
                w_last = w
                np.einsum("rk,rd->rkd", mu * e, x, out=dw)    # μ e_t x_t^T per channel (exact products)
                np.add(w, dw, out=w_next)
                w, w_next = w_next, w
    return _residual_output(E, w_last, squeeze, return_estimate)


def _residual_output(E, w_last, squeeze, return_estimate):
    _inf_for_nonfinite(E)
    E = E[:, :, 0] if squeeze else E
    if not return_estimate:
        return E
    W = np.where(np.isfinite(w_last), w_last, np.inf)
    return E, (W[:, 0] if squeeze else W)


def rls_residuals(X, Y, beta, delta=1.0, return_estimate=False):
    r"""Signed a priori errors of exponentially weighted RLS (forgetting ``beta``, :math:`P_0=I/\delta`), same
    shape as ``Y`` (``(T, runs)`` or ``(T, runs, K)`` label channels sharing the inputs). The gain depends on
    the inputs only, so the residuals are linear in the labels (see :func:`lms_residuals`);
    ``rls_residuals(X, Y, beta, delta) ** 2`` is :func:`rls_errors` (to rounding: the same recursion, computed
    in place). Diverged entries are ``inf``.
    ``return_estimate`` as in :func:`lms_residuals`.

    >>> X = np.ones((2, 1, 1)); Y = np.ones((2, 1))
    >>> rls_residuals(X, Y, 1.0)[:, 0].tolist()
    [1.0, 0.5]
    """
    X, Y3, squeeze = _channels(X, Y)
    beta = check_real("beta", beta, 0.0, 1.0, low_open=True)
    delta = check_real("delta", delta, 0.0, low_open=True)
    return_estimate = check_bool("return_estimate", return_estimate)
    T, R, d = X.shape
    K = Y3.shape[2]
    E = np.empty(Y3.shape)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if d == 1:                         # scalar inputs: the same products and quotients, on (runs,) arrays
            x1 = X[:, :, 0]
            P = np.full(R, 1.0 / delta)
            w = np.zeros((R, K))
            w_last = w
            for t in range(T):
                x = x1[t]
                e = Y3[t] - w * x[:, None]
                E[t] = e
                Px = P * x
                k = Px / (beta + x * Px)
                w_last = w
                w = w + k[:, None] * e
                P = (P - k * Px) / beta
                P = 0.5 * (P + P)
            w_last = w_last[:, :, None]
        else:
            w, w_next, dw = np.zeros((R, K, d)), np.empty((R, K, d)), np.empty((R, K, d))
            P = np.broadcast_to(np.eye(d) / delta, (R, d, d)).copy()
            tmp = np.empty_like(P)
            w_last = w
            for t in range(T):             # the recursion of rls_errors, in place (same values up to rounding)
                x = X[t]
                xc = x[:, :, None]
                e = Y3[t] - (w @ xc)[:, :, 0]
                E[t] = e
                Px = (P @ xc)[:, :, 0]
                k = Px / (beta + np.einsum("ri,ri->r", x, Px))[:, None]
                w_last = w
                np.einsum("rk,rd->rkd", e, k, out=dw)          # k_t e_t per channel (exact products)
                np.add(w, dw, out=w_next)
                w, w_next = w_next, w
                np.einsum("ri,rj->rij", k, Px, out=tmp)        # k_t (P x_t)^T
                P -= tmp
                P /= beta
                np.add(P, P.transpose(0, 2, 1), out=tmp)
                np.multiply(tmp, 0.5, out=P)
    return _residual_output(E, w_last, squeeze, return_estimate)


def kalman_errors(X, Y, gamma, sigma_w2, sigma_e2, noise=0.0, return_variance=False):
    r"""A priori squared errors of the Kalman filter for the true AR(1) model (Bayes-optimal).

    State :math:`w_t=\gamma w_{t-1}+e_t`, observation :math:`y_t=x_t^\top w_t+\varepsilon_t`;
    prior :math:`w_0\sim\mathcal N(0,\sigma_w^2I)`. With ``return_variance`` also returns the
    filter's own predicted innovation variances :math:`S_t=x_t^\top P_{t|t-1}x_t+\sigma^2` (same
    shape): for the true model :math:`E[e_t^2]=E[S_t]` exactly (a consistency check of the filter).

    >>> X = np.ones((1, 1, 1)); Y = np.full((1, 1), 2.0)
    >>> kalman_errors(X, Y, 1.0, 1.0, 0.0)[:, 0].tolist()
    [4.0]
    """
    X, Y = check_streams(X, Y)
    gamma = check_real("gamma", gamma, 0.0, 1.0, low_open=True)
    sigma_w2 = check_real("sigma_w2", sigma_w2, 0.0)
    sigma_e2 = check_real("sigma_e2", sigma_e2, 0.0)
    noise = check_real("noise", noise, 0.0)
    T, R, d = X.shape
    m = np.zeros((R, d))
    P = np.broadcast_to(sigma_w2 * np.eye(d), (R, d, d)).copy()
    E = np.empty((T, R))
    SV = np.empty((T, R))
    g2, Q = gamma * gamma, sigma_e2 * np.eye(d)
    tmp = np.empty_like(P)
    return_variance = check_bool("return_variance", return_variance)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for t in range(T):                 # P is updated in place (the same operations, in the same order)
            m = gamma * m
            np.multiply(P, g2, out=P)      # P ← γ² P + σ_e² I
            P += Q
            x = X[t]
            e = Y[t] - np.einsum("rd,rd->r", x, m)
            E[t] = e * e
            Px = np.einsum("rij,rj->ri", P, x)
            S = np.einsum("ri,ri->r", x, Px) + noise
            SV[t] = S
            k = Px / np.where(S > 0, S, 1.0)[:, None]
            m = m + k * e[:, None]
            np.einsum("ri,rj->rij", k, Px, out=tmp)          # k_t (P x_t)^T (exact products)
            P -= tmp
            np.add(P, P.transpose(0, 2, 1), out=tmp)
            np.multiply(tmp, 0.5, out=P)
    if not (np.all(np.isfinite(E)) and np.all(np.isfinite(SV))):
        with np.errstate(over="ignore", invalid="ignore"):
            check_finite_result(E + SV, "the Kalman errors", gamma=gamma, sigma_w2=sigma_w2, sigma_e2=sigma_e2,
                                noise=noise)
    return (E, SV) if return_variance else E


def lms_reference_errors(X, Y, mu):
    r"""LMS written out run by run (a plain loop over scalars and vectors, no batching): the
    reference against which the batched :func:`lms_errors` is checked. Use on a few short streams.

    >>> X = np.ones((3, 1, 1)); Y = np.ones((3, 1))
    >>> lms_reference_errors(X, Y, 0.5)[:, 0].tolist()
    [1.0, 0.25, 0.0625]
    """
    X, Y = check_streams(X, Y)
    mu = check_real("mu", mu, 0.0, low_open=True)
    T, R, d = X.shape
    E = np.empty((T, R))
    with np.errstate(over="ignore", invalid="ignore"):
        for r in range(R):
            w = np.zeros(d)
            for t in range(T):
                e = float(Y[t, r] - X[t, r] @ w)
                E[t, r] = e * e
                w = w + mu * e * X[t, r]
    E[~np.isfinite(E)] = np.inf        # diverged runs: inf, never NaN (as lms_errors)
    return E


def rls_direct_errors(X, Y, beta, delta=1.0):
    r"""A priori errors of the exponentially weighted least-squares estimate computed *directly*:
    :math:`\hat w_{t-1}=\arg\min_w\sum_{s<t}\beta^{t-1-s}(y_s-w^\top x_s)^2+\delta\beta^{t-1}\|w\|^2`
    (a linear solve per step) — the quantity the RLS recursion :func:`rls_errors` computes
    recursively (same ``beta``, :math:`P_0=I/\delta`). A reference for short streams.

    >>> X = np.ones((2, 1, 1)); Y = np.ones((2, 1))
    >>> rls_direct_errors(X, Y, 1.0)[:, 0].tolist()
    [1.0, 0.25]
    """
    X, Y = check_streams(X, Y)
    beta = check_real("beta", beta, 0.0, 1.0, low_open=True)
    delta = check_real("delta", delta, 0.0, low_open=True)
    T, R, d = X.shape
    E = np.empty((T, R))
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        for r in range(R):
            G = delta * np.eye(d)
            b = np.zeros(d)
            for t in range(T):
                try:
                    w = np.linalg.solve(G, b)
                except np.linalg.LinAlgError:   # underflowed Gram matrix (beta^t delta -> 0): the estimate is undefined
                    w = np.full(d, np.inf)
                e = float(Y[t, r] - X[t, r] @ w)
                E[t, r] = e * e
                G = beta * G + np.outer(X[t, r], X[t, r])
                b = beta * b + Y[t, r] * X[t, r]
    E[~np.isfinite(E)] = np.inf        # diverged runs: inf, never NaN (as rls_errors)
    return E


# ----------------------------------------------------------------------------- LDS: Kalman and oracle AR
def kalman_one_step_mse(systems: LDSBatch, T: int) -> np.ndarray:
    r"""MSE of the optimal (Kalman) predictor of :math:`y_T` from :math:`y_1..y_{T-1}` for each
    known system: :math:`c^\top P_{T|T-1}c+\sigma_v^2` (time-varying Riccati recursion from
    :math:`x_0\sim\mathcal N(0,\sigma_0^2I)`). Not halved."""
    systems = check_systems(systems)
    T = check_int("T", T, minimum=1, maximum=MAX_T)
    A, c, Sw = systems.A, systems.c, systems.Sigma_w
    B, d, _ = A.shape
    P = np.broadcast_to(systems.sigma0 ** 2 * np.eye(d), (B, d, d)).copy()
    At = A.transpose(0, 2, 1)
    P = A @ P @ At + Sw                      # P_{1|0}
    for _ in range(T - 1):
        Pc = np.einsum("bij,bj->bi", P, c)
        Sy = np.einsum("bi,bi->b", c, Pc) + systems.sigma_v ** 2
        Pu = P - np.einsum("bi,bj->bij", Pc, Pc) / np.maximum(Sy, 1e-300)[:, None, None]
        P = A @ Pu @ At + Sw
        P = 0.5 * (P + P.transpose(0, 2, 1))
    out = np.einsum("bi,bij,bj->b", c, P, c) + systems.sigma_v ** 2
    if not np.all(np.isfinite(out)):
        raise ValueError(f"the Kalman MSE overflows for T = {T} with these systems (unstable A over a long horizon); "
                         "use a shorter T")
    return out


def oracle_ar_mse(systems: LDSBatch, T: int, s: int) -> np.ndarray:
    r"""MSE of the best linear predictor of :math:`y_T` from the last ``s`` observations for the
    known system, :math:`K_{TT}-k^\top K_{ss}^{-1}k` (exact from the autocovariance; ``s = T-1``
    equals the Kalman MSE)."""
    systems = check_systems(systems)
    T = check_int("T", T, minimum=2)
    s = check_int("s", s, minimum=1, maximum=T - 1)
    K = lds_autocovariance(systems, T)
    Kss = K[:, T - 1 - s:T - 1, T - 1 - s:T - 1]
    k = K[:, T - 1 - s:T - 1, T - 1]
    try:
        sol = np.linalg.solve(Kss, k[..., None])[..., 0]
    except np.linalg.LinAlgError:
        raise ValueError(f"the autocovariance of the last s = {s} observations is singular for some of the systems "
                         "(no observation noise and a degenerate state); the best AR(s) predictor is not unique") \
            from None
    return K[:, T - 1, T - 1] - np.einsum("bi,bi->b", k, sol)


def steady_state_closed_loop_radius(systems: LDSBatch, iters: int = 2000) -> np.ndarray:
    r"""Spectral radius of :math:`A-Lc^\top` for the steady-state Kalman predictor gain
    :math:`L=AP c/(c^\top Pc+\sigma_v^2)` (Riccati iterated ``iters`` times): the rate in the
    Tsiamis–Pappas expansion of :math:`y_{t+1}` in past observations."""
    systems = check_systems(systems)
    iters = check_int("iters", iters, minimum=1, maximum=10 ** 6)
    A, c, Sw = systems.A, systems.c, systems.Sigma_w
    B, d, _ = A.shape
    P = np.broadcast_to(np.eye(d), (B, d, d)).copy()
    At = A.transpose(0, 2, 1)
    for _ in range(iters):
        Pc = np.einsum("bij,bj->bi", P, c)
        Sy = np.einsum("bi,bi->b", c, Pc) + systems.sigma_v ** 2
        P = A @ (P - np.einsum("bi,bj->bij", Pc, Pc) / Sy[:, None, None]) @ At + Sw
        P = 0.5 * (P + P.transpose(0, 2, 1))
    Pc = np.einsum("bij,bj->bi", P, c)
    Sy = np.einsum("bi,bi->b", c, Pc) + systems.sigma_v ** 2
    L = np.einsum("bij,bj->bi", A, Pc) / Sy[:, None]
    Acl = A - np.einsum("bi,bj->bij", L, c)
    if not np.all(np.isfinite(Acl)):
        raise ValueError("the Riccati iteration did not converge to a finite gain for these systems (undetectable "
                         "unstable modes or no observation noise)")
    return np.max(np.abs(np.linalg.eigvals(Acl)), axis=-1)
