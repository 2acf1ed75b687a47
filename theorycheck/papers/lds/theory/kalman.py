r"""The steady-state Kalman predictor of a stationary LDS and its truncation to a window of s observations (paper 001,
the AR(s) approximation of seed lines 25, 46 and 50).

For a stable system (:math:`\rho(A)<1`) started in its stationary law, the Kalman predictor of :math:`y_{t+1}` from
the whole past is time-invariant: :math:`\hat x_{t+1}=(A-kc^\top)\hat x_t+ky_t` with the steady-state gain
:math:`k=APc/(c^\top Pc+\sigma_v^2)`, P the stabilising solution of the filtering Riccati equation (SciPy's
``solve_discrete_are``), MSE :math:`c^\top Pc+\sigma_v^2`. Unrolled s steps,

.. math:: \hat y_{t+1}=\sum_{i=0}^{s-1}c^\top A_{cl}^ik\,y_{t-i}+c^\top A_{cl}^s\hat x_{t-s+1},\qquad
          A_{cl}=A-kc^\top,

the Tsiamis–Pappas expansion: a linear function of the last s observations plus the **bias**
:math:`c^\top A_{cl}^s\hat x_{t-s+1}`, of variance :math:`c^\top A_{cl}^s(\Sigma_x-P)A_{cl}^{s\top}c`
(:math:`\Sigma_x` the stationary state covariance, :math:`\Sigma_x-P` that of :math:`\hat x`). The truncated
predictor's error is the Kalman error plus the bias, and the two are uncorrelated (the Kalman error is orthogonal to
the whole past; :func:`truncated_kalman_mse` computes the truncated predictor's MSE by a second route), so the best
linear predictor from s lags (exact from the stationary autocovariance) has an excess MSE over the Kalman filter of
at most the bias variance (:func:`truncation_profile`).

>>> from theorycheck.models.dynamics import DiagonalLDSPrior
>>> sysm = DiagonalLDSPrior(2, 0.9, 1.0, 0.5, 0.5).sample(np.random.default_rng(0), 3)
>>> pr = truncation_profile(sysm, [1, 4])
>>> bool(np.all(pr["gaps"] <= pr["bias"] * (1 + 1e-9) + 1e-15)), bool(np.all(pr["bias"][:, 1] < pr["bias"][:, 0]))
(True, True)
"""
from __future__ import annotations

import numpy as np
from scipy.linalg import solve_discrete_are, solve_discrete_lyapunov

from ....models.dynamics import MAX_T, LDSBatch, check_systems, lds_autocovariance
from ....models.filters import oracle_ar_mse
from ....validate import ParameterTypeError, check_int

__all__ = ["steady_state_kalman", "truncation_profile", "truncated_kalman_mse", "trivial_predictor_mse"]


def _check_stable(systems: LDSBatch) -> LDSBatch:
    systems = check_systems(systems)
    rho = np.max(np.abs(np.linalg.eigvals(systems.A)), axis=-1)
    if np.any(rho >= 1):
        raise ValueError(f"systems must be stable (ρ(A) < 1) for a stationary law, got max ρ(A) = {rho.max():.6g}")
    if systems.sigma_v <= 0:
        raise ValueError("systems must have sigma_v > 0 (the Riccati equation needs observation noise)")
    return systems


def _check_windows(s_values) -> list:
    if isinstance(s_values, (str, bytes)) or not hasattr(s_values, "__iter__"):
        raise ParameterTypeError(f"s_values must be a list of windows, got {s_values!r:.40}")
    out = [check_int("s_values entry", x, minimum=1, maximum=10_000) for x in s_values]
    if not out:
        raise ValueError("s_values must not be empty")
    return out


def _steady(systems):
    out = {"P": [], "gain": [], "A_cl": [], "Sigma_x": []}
    for A, c, Sw in zip(systems.A, systems.c, systems.Sigma_w):
        P = solve_discrete_are(A.T, c[:, None], Sw, np.array([[systems.sigma_v ** 2]]))
        k = A @ P @ c / (c @ P @ c + systems.sigma_v ** 2)
        out["P"].append(P)
        out["gain"].append(k)
        out["A_cl"].append(A - np.outer(k, c))
        out["Sigma_x"].append(solve_discrete_lyapunov(A, Sw))
    res = {key: np.array(v) for key, v in out.items()}
    res["mse"] = np.einsum("bi,bij,bj->b", systems.c, res["P"], systems.c) + systems.sigma_v ** 2
    return res


def steady_state_kalman(systems: LDSBatch) -> dict:
    r"""Per stable system: ``P`` (predicted-state error covariance), ``gain`` k, ``A_cl`` = A − kcᵀ, ``Sigma_x``
    (stationary state covariance) and ``mse`` = cᵀPc + σ_v² (not halved)."""
    return _steady(_check_stable(systems))


def _stationary_acov(systems, st, h_max):
    """γ(h) = cᵀA^hΣ_xc + σ_v²δ_h, h = 0..h_max, (B, h_max + 1)."""
    g = np.empty((len(systems), h_max + 1))
    u = np.einsum("bij,bj->bi", st["Sigma_x"], systems.c)
    for h in range(h_max + 1):
        g[:, h] = np.einsum("bi,bi->b", systems.c, u)
        u = np.einsum("bij,bj->bi", systems.A, u)
    g[:, 0] += systems.sigma_v ** 2
    return g


def _toeplitz(g, s):
    idx = np.abs(np.arange(s)[:, None] - np.arange(s)[None, :])
    return g[:, idx]


def truncation_profile(systems: LDSBatch, s_values) -> dict:
    r"""Per stable system and window s (``s_values``): ``bias`` — the variance of the truncation bias,
    :math:`c^\top A_{cl}^s(\Sigma_x-P)A_{cl}^{s\top}c`; ``gaps`` — the excess MSE (not halved) of the best linear
    predictor of :math:`y_{t+1}` from its last s observations over the steady-state Kalman filter in the stationary
    law, :math:`\gamma_0-\gamma_{1:s}^\top\Gamma_s^{-1}\gamma_{1:s}-(c^\top Pc+\sigma_v^2)`; both (B, len(s_values));
    ``mse_kf`` (B,), the steady-state Kalman MSE, and ``rho_cl`` (B,), the spectral radius of :math:`A_{cl}`."""
    systems, s_values = _check_stable(systems), _check_windows(s_values)
    st = _steady(systems)
    X = st["Sigma_x"] - st["P"]
    g = _stationary_acov(systems, st, max(s_values))
    bias, gaps = np.empty((2, len(systems), len(s_values)))
    for i, s in enumerate(s_values):
        u = np.einsum("bi,bij->bj", systems.c, np.linalg.matrix_power(st["A_cl"], s))       # cᵀA_cl^s
        bias[:, i] = np.einsum("bi,bij,bj->b", u, X, u)
        sol = np.linalg.solve(_toeplitz(g, s), g[:, 1:s + 1, None])[..., 0]
        gaps[:, i] = g[:, 0] - np.einsum("bi,bi->b", g[:, 1:s + 1], sol) - st["mse"]
    return {"bias": bias, "gaps": gaps, "mse_kf": st["mse"],
            "rho_cl": np.max(np.abs(np.linalg.eigvals(st["A_cl"])), axis=-1)}


def truncated_kalman_mse(systems: LDSBatch, s: int) -> np.ndarray:
    r"""MSE (not halved) of the truncated steady-state Kalman predictor :math:`\sum_{i<s}c^\top A_{cl}^iky_{t-i}` in
    the stationary law, from the stationary autocovariance (a second route to Kalman MSE + bias variance)."""
    systems = _check_stable(systems)
    s = check_int("s", s, minimum=1, maximum=10_000)
    st = _steady(systems)
    h = np.empty((len(systems), s))
    M = np.broadcast_to(np.eye(systems.d), st["A_cl"].shape).copy()
    for i in range(s):
        h[:, i] = np.einsum("bi,bij,bj->b", systems.c, M, st["gain"])
        M = M @ st["A_cl"]
    g = _stationary_acov(systems, st, s)
    return g[:, 0] - 2 * np.einsum("bi,bi->b", h, g[:, 1:s + 1]) + np.einsum("bi,bij,bj->b", h, _toeplitz(g, s), h)


def trivial_predictor_mse(systems: LDSBatch, T: int) -> dict:
    r"""Per system, the one-step MSEs (not halved) of the trivial predictors of :math:`y_T` from the finite-horizon
    autocovariance K (x₀ ~ N(0, σ₀²I), no stationarity needed): predicting zero, :math:`K_{TT}`; predicting the last
    value, :math:`K_{TT}-2K_{T,T-1}+K_{T-1,T-1}`; the oracle AR(1) predictor (known system),
    :func:`theorycheck.models.filters.oracle_ar_mse` with s = 1.

    >>> from theorycheck.models.dynamics import DiagonalLDSPrior
    >>> m = trivial_predictor_mse(DiagonalLDSPrior(1, 0.0, 1.0, 0.5, 0.5).sample(np.random.default_rng(0), 2), 5)
    >>> [round(float(v[0]), 6) for v in m.values()]                  # white noise: 0.5, 1.0, 0.5
    [0.5, 1.0, 0.5]
    """
    systems = check_systems(systems)
    T = check_int("T", T, minimum=2, maximum=MAX_T)
    K = lds_autocovariance(systems, T)
    return {"predict zero": K[:, -1, -1], "predict the last value": K[:, -1, -1] - 2 * K[:, -1, -2] + K[:, -2, -2],
            "oracle AR(1) (known system)": oracle_ar_mse(systems, T, 1)}
