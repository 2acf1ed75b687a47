r"""Learning the gate of paper 000: is the forgetting factor λ *learnable* together with the weights, and what is the
best weighting of the prompt's tokens when the weights are not constrained to be geometric?

* :func:`learn_gate` — gradient-based training of (λ, Γ) on the exact population loss
  :math:`L(\lambda,\Gamma)` (Λ = I_d): L-BFGS-B with the exact gradient in Γ and a central difference in λ, from a
  chosen λ(0) and a small random Γ(0). The learned λ is compared with the minimiser λ* of the train error
  (:func:`~theorycheck.papers.gla.theory.errors.optimal_lambda`).
* :func:`optimal_token_weights` — the train error of the reduced predictor :math:`x_{n+1}^\top\Gamma\sum_ip_iy_ix_i`
  minimised over *every* weighting :math:`p\in\mathbb R^n` (not only :math:`p_i=\lambda^{n+1-i}`): with
  :math:`c_i=K_{i,n+1}` and :math:`M=K_{[n]}+(d+1)\operatorname{diag}K_{[n]}+\sigma^2I`, the error of a weighting is
  :math:`dK_{n+1,n+1}+\sigma^2-d\,(c^\top p)^2/p^\top Mp`, minimised at :math:`p\propto M^{-1}c` (Cauchy–Schwarz).
  The geometric weighting of GLA is optimal exactly when :math:`M^{-1}c` is geometric; under a stationary AR(1)
  drift it is geometric with ratio λ* except over the oldest tokens, whose weights are negligible.

Conventions of :mod:`theorycheck.papers.gla.theory` (not halved; K from
:func:`~theorycheck.papers.gla.theory.drift.drift_covariance`).

>>> from theorycheck.papers.gla.theory.drift import drift_covariance
>>> from theorycheck.papers.gla.theory.errors import optimal_lambda
>>> p, err = optimal_token_weights(drift_covariance(30, 0.8, 0.01 / 0.36, 0.01), 4)
>>> r = optimal_lambda(0.8, 30, 4, 0.01 / 0.36, 0.01)
>>> round(float(p[-2]), 4), round(r.lam, 4), bool(abs(r.error / err - 1) < 1e-9)   # geometric, ratio λ* (not γ)
(0.6893, 0.6893, True)
"""
from __future__ import annotations

import numpy as np
from scipy import optimize

from ....validate import check_int, check_real
from .drift import check_covariance
from .errors import lambda_opt, loss_at
from .law import check_gamma, check_n, check_variance
from .sums import scaled

__all__ = ["learn_gate", "optimal_token_weights"]


def learn_gate(gamma, n, d, sigma_w2, sigma_e2, noise=0.0, lam0=0.5, seed=0, scale=0.1) -> dict:
    r"""Learn the gate λ together with Γ by gradient descent (L-BFGS-B) on the exact population loss (Λ = I_d).

    θ = (λ, vec Γ), λ bounded to [1e-3, 1]; :math:`\partial L/\partial\Gamma=2c(\lambda^2h\Gamma-\lambda D_1I)` in the
    scaled sums of :mod:`.sums` (h = A₂ + (d + 1)B + σ²N₀), :math:`\partial L/\partial\lambda` by a central difference
    (step 1e-7). Start: λ(0) = ``lam0``, Γ(0) = ``scale`` · ‖Γ*(λ(0))‖_F · G/√d with G standard normal (``seed``).
    Returns ``{"lam", "loss", "lam_star", "loss_star", "iterations", "success"}`` (λ*, L* of
    :func:`~theorycheck.papers.gla.theory.errors.optimal_lambda`, grid 2001 + Brent).

    >>> r = learn_gate(0.8, 30, 3, 1.0, 0.05, lam0=0.95)
    >>> abs(r["lam"] - r["lam_star"]) < 1e-4
    True
    """
    gamma, n, d = check_gamma(gamma), check_n(n), check_int("d", d, minimum=1, maximum=64)
    sigma_w2, sigma_e2 = check_variance("sigma_w2", sigma_w2), check_variance("sigma_e2", sigma_e2)
    noise = check_variance("noise", noise)
    lam0 = check_real("lam0", lam0, 1e-3, 1.0)
    scale = check_real("scale", scale, 0.0, 10.0)
    rng = np.random.default_rng(check_int("seed", seed, minimum=0))
    eye = np.eye(d)

    def loss(th):
        return loss_at(th[1:].reshape(d, d), float(th[0]), gamma, n, eye, sigma_w2, sigma_e2, noise)

    def grad(th):
        lam, G = float(th[0]), th[1:].reshape(d, d)
        c, s, nz = scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
        h = s.A2 + (d + 1) * s.B + nz * s.N0
        gG = 2 * c * (lam * lam * h * G - lam * s.D1 * eye)
        hs = 1e-7
        lo, hi = max(lam - hs, 1e-3), min(lam + hs, 1.0)
        gl = (loss(np.concatenate(([hi], th[1:]))) - loss(np.concatenate(([lo], th[1:])))) / (hi - lo)
        return np.concatenate(([gl], gG.ravel()))

    c0, s0, _ = scaled(lam0, gamma, n, sigma_w2, sigma_e2, noise)
    g_star = s0.D1 / (lam0 * (s0.A2 + (d + 1) * s0.B + (noise / c0) * s0.N0)) * np.sqrt(d)    # ‖Γ*(λ₀)‖_F
    th0 = np.concatenate(([lam0], (scale * g_star / np.sqrt(d) * rng.standard_normal((d, d))).ravel()))
    res = optimize.minimize(loss, th0, jac=grad, method="L-BFGS-B", bounds=[(1e-3, 1.0)] + [(None, None)] * d * d,
                            options={"maxiter": 5000, "ftol": 1e-15, "gtol": 1e-12})
    star = lambda_opt(gamma, n, d, sigma_w2, sigma_e2, noise, 2001)
    return {"lam": float(res.x[0]), "loss": float(res.fun), "lam_star": star.lam, "loss_star": star.error,
            "iterations": int(res.nit), "success": bool(res.success)}


def optimal_token_weights(K, d, noise=0.0) -> tuple:
    r"""``(p, error)``: the best weighting :math:`p\in\mathbb R^n` of the prompt's tokens (normalised so that
    :math:`p_n=1`) and its train error (see the module docstring), for the per-coordinate weight covariance ``K``
    ((n + 1) × (n + 1), tokens 1..n+1) and dimension ``d`` (Λ = I_d).

    >>> from theorycheck.papers.gla.theory.drift import drift_covariance, train_error_from_covariance
    >>> K = drift_covariance(20, 0.9, 1.0, 0.05)
    >>> p, err = optimal_token_weights(K, 3)
    >>> bool(err <= train_error_from_covariance(0.85, K, 3) + 1e-12)
    True
    """
    K = check_covariance(K)
    d = check_int("d", d, minimum=1)
    noise = check_variance("noise", noise)
    n = K.shape[0] - 1
    c = K[:n, n]
    M = K[:n, :n] + (d + 1) * np.diag(np.diag(K)[:n]) + noise * np.eye(n)
    p = np.linalg.solve(M, c)
    err = d * float(K[n, n]) + noise - d * float(c @ p)
    return p / p[-1], err
