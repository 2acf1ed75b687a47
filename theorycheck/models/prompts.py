r"""Prompt samplers: the data each model sees.

* AR(1)-drifting linear regression (paper 000): :func:`drift_labels`, :func:`ar1_stream`
  (time-major streams for the adaptive filters) and :func:`ar1_drift_prompts` (sample-major
  prompts for the GLA forward pass) — one law, one label recursion.
* Single-index teachers with isotropic or general task covariance (paper 004):
  :func:`draw_tasks` and :func:`context_statistics` (the context statistics ``(u, s)`` of the
  reduced linear-attention predictor, by direct sampling or by an exact projection).
* LDS trajectories live in :mod:`theorycheck.models.dynamics`.
"""
from __future__ import annotations

import math

import numpy as np

from .. import gaussian
from ..validate import check_int, check_psd, check_real

__all__ = ["drift_labels", "ar1_stream", "ar1_drift_prompts", "draw_tasks", "context_statistics"]


def drift_labels(rng, X, gamma, sigma_w2, sigma_e2, noise):
    r"""Labels of time-major inputs ``X (T, runs, d)`` under AR(1)-drifting weights: ``Y (T, runs)``.

    :math:`w_0\sim\mathcal N(0,\sigma_w^2I)`, then for :math:`t=1..T`:
    :math:`w_t=\gamma w_{t-1}+e_t`, :math:`e_t\sim\mathcal N(0,\sigma_e^2I)`,
    :math:`y_t=\langle w_t,x_t\rangle+\varepsilon_t`, :math:`\mathrm{Var}\,\varepsilon_t=` ``noise``.
    """
    T, runs, d = X.shape
    w = math.sqrt(sigma_w2) * rng.standard_normal((runs, d))
    Y = np.empty((T, runs))
    for t in range(T):
        w = gamma * w + math.sqrt(sigma_e2) * rng.standard_normal((runs, d))
        Y[t] = np.einsum("rd,rd->r", X[t], w) + math.sqrt(noise) * rng.standard_normal(runs)
    return Y


def ar1_stream(rng, runs, T, d, gamma, sigma_w2, sigma_e2, noise=0.0, Lambda=None):
    r"""Draw ``runs`` independent streams of length ``T``: returns ``X (T, runs, d)``, ``Y (T, runs)``.

    >>> X, Y = ar1_stream(np.random.default_rng(1), 3, 4, 2, 0.5, 1.0, 0.75)
    >>> X.shape, Y.shape
    ((4, 3, 2), (4, 3))
    """
    runs = check_int("runs", runs, minimum=1)
    T = check_int("T", T, minimum=1)
    d = check_int("d", d, minimum=1)
    gamma = check_real("gamma", gamma, 0.0, 1.0, low_open=True)
    sigma_w2 = check_real("sigma_w2", sigma_w2, 0.0)
    sigma_e2 = check_real("sigma_e2", sigma_e2, 0.0)
    noise = check_real("noise", noise, 0.0)
    if Lambda is None:
        X = rng.standard_normal((T, runs, d))
    else:
        L = check_psd("Lambda", Lambda)
        if L.shape != (d, d):
            raise ValueError(f"Lambda must have shape ({d}, {d}), got {L.shape}")
        X = gaussian.sample(L, T * runs, rng).reshape(T, runs, d)
    return X, drift_labels(rng, X, gamma, sigma_w2, sigma_e2, noise)


def ar1_drift_prompts(rng, size, gamma, n, L, sigma_w2, sigma_e2, noise):
    r"""``size`` prompts of ``n + 1`` tokens under AR(1) drift, sample-major: ``X (size, n+1, d)``,
    ``Y (size, n+1)`` (the last token is the query; its label is the target).

    Same law as :func:`ar1_stream` (which is time-major); inputs :math:`x_i\sim\mathcal N(0,L)`.

    >>> X, Y = ar1_drift_prompts(np.random.default_rng(0), 4, 0.9, 3, np.eye(2), 1.0, 0.1, 0.0)
    >>> X.shape, Y.shape
    ((4, 4, 2), (4, 4))
    """
    d = L.shape[0]
    X = gaussian.sample(L, size * (n + 1), rng).reshape(size, n + 1, d)
    return X, drift_labels(rng, X.transpose(1, 0, 2), gamma, sigma_w2, sigma_e2, noise).T


def draw_tasks(rng, k, d, c_sqrt, normalize):
    r"""``k`` task vectors :math:`w\sim\mathcal N(0,C)` (``c_sqrt``: square roots of the diagonal of C,
    or ``None`` for C = I), optionally renormalised to :math:`\|w\|^2=d`."""
    W = rng.standard_normal((k, d))
    if c_sqrt is not None:
        W = W * c_sqrt
    if normalize:
        W *= math.sqrt(d) / np.linalg.norm(W, axis=1, keepdims=True)
    return W


def context_statistics(fn, W, ell, rho, rng, method="projected", chunk=2048):
    r"""``(u, s)`` for one prompt per row of ``W`` (tasks), context length ``ell``.

    ``method="direct"``: draw the :math:`\ell\times d` inputs and form
    :math:`u=\frac d\ell\sum y_ix_i`, :math:`s=\frac1\ell\sum y_i^2`.
    ``method="projected"`` (same joint law, :math:`O(\ell+d)` per prompt): with
    :math:`t_i=x_i^\top w\sim\mathcal N(0,\|w\|^2/d)` and :math:`\hat w=w/\|w\|`, the component of
    :math:`x_i` orthogonal to :math:`w` is :math:`\mathcal N(0,P_\perp/d)` and independent of
    :math:`t_i`, so :math:`\sum_iy_iP_\perp x_i\mid y\sim\mathcal N(0,\frac{\sum y_i^2}{d}P_\perp)` and
    :math:`u=\frac d\ell[\hat w\sum_iy_it_i/\|w\|+\sqrt{\textstyle\sum y_i^2/d}\,P_\perp\zeta]`,
    :math:`\zeta\sim\mathcal N(0,I_d)`.
    """
    n, d = W.shape
    U = np.empty((n, d))
    S = np.empty(n)
    sr = math.sqrt(rho)
    for a in range(0, n, chunk):
        w = W[a:a + chunk]
        m = w.shape[0]
        norms = np.linalg.norm(w, axis=1)
        if method == "direct":
            X = rng.standard_normal((m, ell, d)) / math.sqrt(d)
            t = np.einsum("mld,md->ml", X, w)
            y = fn(t) + sr * rng.standard_normal((m, ell))
            U[a:a + m] = (d / ell) * np.einsum("ml,mld->md", y, X)
        else:
            t = rng.standard_normal((m, ell)) * (norms / math.sqrt(d))[:, None]
            y = fn(t) + sr * rng.standard_normal((m, ell))
            what = w / norms[:, None]
            par = np.sum(y * t, axis=1) / norms
            zeta = rng.standard_normal((m, d))
            zeta -= np.sum(zeta * what, axis=1, keepdims=True) * what
            y2 = np.sum(y * y, axis=1)
            U[a:a + m] = (d / ell) * (par[:, None] * what + np.sqrt(y2 / d)[:, None] * zeta)
        S[a:a + m] = np.sum(y * y, axis=1) / ell
    return U, S
