r"""Drift laws of paper 000 and how much they matter: the covariance :math:`K_{ij}=\operatorname{Cov}(w_i,w_j)` of
drifting weights beyond AR(1) (AR(2) momentum, innovations correlated across steps), the exact train error and λ*
for any such K (the derivation uses the weights only through K — the stress paths of the paper), how much the
choice of λ matters at one setting and how far the AR(1) weights move within one prompt.

Conventions of :mod:`theorycheck.papers.gla.theory`: isotropic weights, independent across coordinates; Λ = I_d;
errors not halved.

>>> from theorycheck.papers.gla.theory.errors import optimal_lambda, train_error
>>> K = drift_covariance(20, 0.8, 1.0, 0.1)                  # AR(1): the same train error as the AR(1) sums
>>> abs(train_error_from_covariance(0.7, K, 3) - train_error(0.7, 0.8, 20, 3, 1.0, 0.1)) < 1e-12
True
"""
from __future__ import annotations

import numpy as np

from ....validate import check_array, check_int, check_memory, check_real
from .errors import LambdaOpt, error_at, lambda_opt, minimise_over_gate
from .law import MAX_GRID, check_gamma, check_lam, check_n, check_variance, ensure_finite
from .sums import ar1_variances

__all__ = ["drift_covariance", "train_error_from_covariance", "optimal_lambda_from_covariance", "lambda_importance",
           "drift_statistics"]


# ------------------------------------------------------------------ drift laws beyond AR(1) (stress tests)
def drift_covariance(n, gamma, sigma_w2, sigma_e2, momentum=0.0, innovation_corr=0.0) -> np.ndarray:
    r"""Per-coordinate covariance :math:`K_{ij}=\operatorname{Cov}(w_i,w_j)`, :math:`i,j=1..n+1`, of drifting weights
    more general than AR(1) (isotropic and independent across coordinates, like the paper's model):

    .. math:: w_i=\gamma w_{i-1}+a\,(w_{i-1}-w_{i-2})+e_i,\qquad e_i=\rho e_{i-1}+\sqrt{1-\rho^2}\,\sigma_e\xi_i,

    with :math:`w_{-1}=w_0\sim\mathcal N(0,\sigma_w^2)`, :math:`e_0\sim\mathcal N(0,\sigma_e^2)`, :math:`\xi_i` i.i.d.
    standard normal: ``momentum`` = a (an AR(2) drift; a = 0 is AR(1)) and ``innovation_corr`` = ρ (innovations
    correlated across steps, each of variance σ_e²; ρ = 0 is white). With a = ρ = 0 it is the AR(1) covariance
    :math:`\gamma^{|i-j|}s_{\min(i,j)}`. Exact (propagation of the state covariance of :math:`(w_i,w_{i-1},e_i)`).

    >>> K = drift_covariance(3, 0.5, 1.0, 0.75)                 # stationary AR(1): s_i = 1
    >>> np.allclose(K, 0.5 ** np.abs(np.subtract.outer(np.arange(4), np.arange(4))))
    True
    """
    n = check_n(n)
    check_memory("n", n, 8.0 * 4 * (n + 1) ** 2, "the (n + 1) x (n + 1) drift covariance")
    gamma = check_gamma(gamma)
    sigma_w2, sigma_e2 = check_variance("sigma_w2", sigma_w2), check_variance("sigma_e2", sigma_e2)
    a = check_real("momentum", momentum, -1.0, 1.0, low_open=True, high_open=True)
    rho = check_real("innovation_corr", innovation_corr, -1.0, 1.0, low_open=True, high_open=True)
    c2 = sigma_e2 * (1.0 - rho * rho)
    F = np.array([[gamma + a, -a, rho], [1.0, 0.0, 0.0], [0.0, 0.0, rho]])
    G = np.array([[c2, 0.0, c2], [0.0, 0.0, 0.0], [c2, 0.0, c2]])
    P = np.array([[sigma_w2, sigma_w2, 0.0], [sigma_w2, sigma_w2, 0.0], [0.0, 0.0, sigma_e2]])
    Ps = np.empty((n + 1, 3, 3))
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(n + 1):                       # P_i = F P_{i-1} Fᵀ + G, i = 1..n+1
            P = F @ P @ F.T + G
            Ps[i] = P
        K = np.empty((n + 1, n + 1))
        M = Ps.copy()                                # M_i = F^ℓ P_i: Cov(s_{i+ℓ}, s_i)
        for lag in range(n + 1):
            idx = np.arange(n + 1 - lag)
            K[idx + lag, idx] = M[:n + 1 - lag, 0, 0]
            K[idx, idx + lag] = M[:n + 1 - lag, 0, 0]
            M = F @ M[:n - lag] if lag < n else M
    return ensure_finite(K, "the drift covariance", n=n, gamma=gamma, sigma_w2=sigma_w2, sigma_e2=sigma_e2, momentum=a,
                         innovation_corr=rho)


def check_covariance(K):
    K = check_array("K", K, ndim=2)
    if K.shape[0] != K.shape[1] or K.shape[0] < 2:
        raise ValueError(f"K must be a square (n + 1) x (n + 1) covariance with n >= 1, got shape {K.shape}")
    if np.max(np.abs(K - K.T)) > 1e-10 * max(1.0, float(np.max(np.abs(K)))) or np.any(np.diag(K) < 0):
        raise ValueError("K must be a symmetric covariance matrix with a non-negative diagonal")
    return K


def train_error_from_covariance(lam, K, d, noise=0.0) -> float:
    r"""Exact train error :math:`\min_\Gamma E[(\hat y-y_{n+1})^2]` (Λ = I_d, Gaussian inputs) for *any* isotropic
    Gaussian weight process with per-coordinate covariance ``K`` over tokens 1..n+1 (e.g. :func:`drift_covariance`).

    The derivation of :func:`train_error` uses the weights only through :math:`K`: with :math:`p_i=\lambda^{n+1-i}`,
    :math:`D_1=\sum_ip_iK_{i,n+1}`, :math:`B=\sum_ip_i^2K_{ii}`, :math:`A_2=\sum_{i,j\le n}p_ip_jK_{ij}`,
    :math:`N_0=\sum_ip_i^2` and :math:`L^*=d\,K_{n+1,n+1}+\sigma^2-d\,D_1^2/(A_2+(d+1)B+\sigma^2N_0)`.

    >>> from theorycheck.papers.gla.theory.errors import train_error
    >>> K = drift_covariance(30, 0.8, 1.0, 0.1)
    >>> abs(train_error_from_covariance(0.7, K, 4) - train_error(0.7, 0.8, 30, 4, 1.0, 0.1)) < 1e-12
    True
    """
    lam = check_lam(lam)
    K = check_covariance(K)
    return covariance_error(lam, K, check_int("d", d, minimum=1), check_variance("noise", noise))


def covariance_error(lam, K, d, noise) -> float:
    """:func:`train_error_from_covariance` for checked inputs."""
    n = K.shape[0] - 1
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        p = lam ** np.arange(n - 1, -1, -1.0)        # λ^{n−i} = p_i / λ (the ratio below is invariant)
        Kp = K[:n, :n] @ p
        D1, B, A2, N0 = float(p @ K[:n, n]), float(p * p @ np.diag(K)[:n]), float(p @ Kp), float(p @ p)
        D2 = A2 + (d + 1) * B + noise * N0
        val = d * float(K[n, n]) + noise - (d * D1 * D1 / D2 if D2 > 0 else 0.0)
    return ensure_finite(val, "the train error", lam=lam, d=d, noise=noise, max_K=float(np.max(np.abs(K))))


def optimal_lambda_from_covariance(K, d, noise=0.0, grid_size=401) -> LambdaOpt:
    r"""Minimiser λ* over (0, 1] of :func:`train_error_from_covariance` (grid scan + bounded Brent, as
    :func:`optimal_lambda`).

    >>> from theorycheck.papers.gla.theory.errors import optimal_lambda
    >>> K = drift_covariance(100, 0.9, 1.0, 0.01)
    >>> abs(optimal_lambda_from_covariance(K, 10).lam - optimal_lambda(0.9, 100, 10, 1.0, 0.01).lam) < 1e-6
    True
    """
    K = check_covariance(K)
    d = check_int("d", d, minimum=1)
    noise = check_variance("noise", noise)
    grid_size = check_int("grid_size", grid_size, minimum=11, maximum=MAX_GRID)
    return minimise_over_gate(lambda lam: covariance_error(float(lam), K, d, noise), grid_size)


# ------------------------------------------------------------------ λ-dependence summaries
def lambda_importance(gamma, n, d, sigma_w2, sigma_e2, noise=0.0, delta=0.05, grid_size=201) -> dict:
    r"""How much the choice of λ matters at one setting (Λ = I_d), three measures:

    ``gain`` — relative gain of the optimum over linear attention, :math:`1-L^*(\lambda^*)/L^*(1)`;
    ``sensitivity`` — relative error increase when λ is off by ``delta``,
    :math:`\max_\pm L^*(\lambda^*\pm\delta)/L^*(\lambda^*)-1` (only the offsets inside (0, 1]);
    ``forgetting`` — :math:`1-\lambda^*`.

    >>> r = lambda_importance(0.8, 100, 10, 1.0, 0.01)
    >>> 0 < r["gain"] < 1, round(r["forgetting"], 3)
    (True, 0.259)
    """
    delta = check_real("delta", delta, 0.0, 1.0, low_open=True, high_open=True)
    gamma, n, d = check_gamma(gamma), check_n(n), check_int("d", d, minimum=1)
    grid_size = check_int("grid_size", grid_size, minimum=11, maximum=MAX_GRID)
    sigma_w2, sigma_e2 = check_variance("sigma_w2", sigma_w2), check_variance("sigma_e2", sigma_e2)
    noise = check_variance("noise", noise)
    r = lambda_opt(gamma, n, d, sigma_w2, sigma_e2, noise, grid_size)
    offs = [x for x in (r.lam - delta, r.lam + delta) if 0.0 < x <= 1.0]
    worst = max(error_at(x, gamma, n, d, sigma_w2, sigma_e2, noise) for x in offs)
    return {"lam_star": r.lam, "gain": 1.0 - r.error / r.error_linear_attention,
            "sensitivity": worst / r.error - 1.0, "forgetting": 1.0 - r.lam}


def drift_statistics(gamma, n, sigma_w2, sigma_e2) -> dict:
    r"""How much the AR(1) weights move within one prompt (per coordinate, exact).

    ``step`` — relative drift of the last step, :math:`E\|w_{n+1}-w_n\|^2/E\|w_{n+1}\|^2`;
    ``total`` — relative drift over the prompt, :math:`E\|w_{n+1}-w_1\|^2/E\|w_{n+1}\|^2`.
    Uses :math:`\mathrm{Cov}(w_i,w_j)=\gamma^{j-i}s_i` (i ≤ j). Zero drift is the stationary
    (fixed-task) setting.

    >>> drift_statistics(1.0, 10, 1.0, 0.0)["total"]
    0.0
    """
    s = ar1_variances(gamma, n, sigma_w2, sigma_e2)
    sq = float(s[n + 1])
    if sq <= 0:
        raise ValueError("sigma_w2 and sigma_e2 must not both be 0 (the weights vanish)")
    step = (s[n + 1] + s[n] - 2 * gamma * s[n]) / sq
    total = (s[n + 1] + s[1] - 2 * gamma ** n * s[1]) / sq
    return {"step": float(step), "total": float(total)}


