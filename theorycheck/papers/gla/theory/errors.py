r"""The exact errors of paper 000 (population MSE, **not halved**; conventions of :mod:`theorycheck.papers.gla.theory`).

For :math:`\Lambda=I_d`: :math:`\xi=D_1^2/D_2`, :math:`D_2=A_2+(d+1)B+\sigma^2N_0`, the train error
:math:`L^*=d\,(s_{n+1}-\xi)+\sigma^2` (the generated ``train_error_from_sums``), its minimiser λ* over (0, 1] (grid
scan + bounded Brent) and the first-order finite-d shift of λ* away from γ. For a general Gaussian Λ:

.. math::
   \Gamma^*=\tfrac{D_1}{A_2}\tilde\Lambda^{-1},\quad
   \tilde\Lambda=(1+\tfrac{B}{A_2})\Lambda+\tfrac{B\operatorname{tr}\Lambda+\sigma^2N_0}{A_2}I,\quad
   L(\Gamma)=\operatorname{tr}(\Gamma^\top\Lambda\Gamma H)-2D_1\operatorname{tr}(\Lambda\Gamma\Lambda)
   +s_{n+1}\operatorname{tr}\Lambda+\sigma^2,

the train error :math:`L(\Gamma^*)` from the eigenvalues of Λ, the test error of :math:`\Gamma^*` on another law of
the family (Theorem 3) and the floor :math:`\sigma_e^2\operatorname{tr}\Lambda+\sigma^2` of any predictor. Every
error is evaluated on :func:`~theorycheck.papers.gla.theory.sums.scaled_sums` (variances divided by their maximum).

>>> o = optimal_parameters(0.8, 0.9, 20, np.eye(2), 1.0, 0.1)
>>> abs(o.train_error - train_error(0.8, 0.9, 20, 2, 1.0, 0.1)) < 1e-12
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import optimize

from ....validate import check_array, check_bool, check_int, check_real
from ..generated import gla_loss as gen
from .law import (MAX_GRID, check_gamma, check_lambda_matrix, check_law, check_n, check_n_direct, check_variance,
                  eigenvalues, ensure_finite, solve_psd)
from .sums import scaled, sums_for

__all__ = ["xi", "xi_large_d", "train_error", "LambdaOpt", "optimal_lambda", "lambda_star_large_d_correction",
           "effective_covariance", "OptimalGLA", "optimal_parameters", "population_loss", "train_error_general",
           "test_error", "irreducible_floor", "TRAIN_ERROR_ROUTES", "TRAIN_ERROR_REFERENCE"]

#: The routes to the train error L* that the toolkit computes (each tested against the reference in
#: ``tests/test_gla.py::test_train_error_routes_agree_with_the_reference``): the reference is the generated closed form
#: ``train_error_from_sums`` of the SymPy derivation, evaluated on the moment sums (:func:`train_error`, Λ = I_d).
TRAIN_ERROR_ROUTES = {
    "generated closed form (Λ = I)": "train_error",
    "eigenvalues of Λ (general Λ)": "train_error_general",
    "loss L(Γ*) at the closed-form optimum": "population_loss(optimal_parameters(...).Gamma, ...)",
    "covariance K of the weights": "theorycheck.papers.gla.theory.drift.train_error_from_covariance",
    "full-parameter loss at u = b = 0, Γ = Γ*": "theorycheck.papers.gla.theory.flows.full_parameter_loss",
}
TRAIN_ERROR_REFERENCE = "generated closed form (Λ = I)"


# ------------------------------------------------------------------ Λ = I
def xi(lam, gamma, n, d, sigma_w2, sigma_e2, noise=0.0) -> float:
    r""":math:`\xi(\lambda)=D_1^2/D_2`, :math:`D_2=A_2+(d+1)B+\sigma^2N_0` (Λ = I_d).

    The train error is :math:`d(s_{n+1}-\xi)+\sigma^2`.

    >>> round(xi(1.0, 1.0, 4, 1, 1.0, 0.0), 12)    # 16 / (16 + 2*4)
    0.666666666667
    """
    d = check_int("d", d, minimum=1)
    lam, gamma, n, sigma_w2, sigma_e2, noise = check_law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    c, s, nz = scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    with np.errstate(over="ignore"):
        D2 = s.A2 + (d + 1) * s.B + nz * s.N0
        val = c * s.D1 ** 2 / D2 if D2 > 0 else 0.0
    return ensure_finite(float(val), "xi", lam=lam, gamma=gamma, n=n, d=d, sigma_w2=sigma_w2, sigma_e2=sigma_e2,
                         noise=noise)


def xi_large_d(lam, gamma, n, sigma_w2, sigma_e2) -> float:
    r"""Large-d limit :math:`\lim_{d\to\infty} d\,\xi = D_1^2/B` (maximised exactly at λ = γ).

    >>> xi_large_d(0.8, 0.8, 50, 1.0, 0.1) >= xi_large_d(0.7, 0.8, 50, 1.0, 0.1)
    True
    """
    lam, gamma, n, sigma_w2, sigma_e2, _ = check_law(lam, gamma, n, sigma_w2, sigma_e2, 0.0)
    c, s, _ = scaled(lam, gamma, n, sigma_w2, sigma_e2, 0.0)
    with np.errstate(over="ignore"):
        val = c * s.D1 ** 2 / s.B if s.B > 0 else 0.0
    return ensure_finite(float(val), "the large-d limit of d xi", lam=lam, gamma=gamma, n=n, sigma_w2=sigma_w2,
                         sigma_e2=sigma_e2)


def train_error(lam, gamma, n, d, sigma_w2, sigma_e2, noise=0.0, halved=False) -> float:
    r"""Exact train error :math:`\min_\Gamma E[(\hat y-y_{n+1})^2]` for :math:`\Lambda=I_d`.

    :math:`L^*=d\,s_{n+1}+\sigma^2-d\,D_1^2/(A_2+(d+1)B+\sigma^2N_0)`; ``halved`` returns
    :math:`L^*/2`.

    >>> round(train_error(1.0, 1.0, 10, 3, 1.0, 0.0), 12) == round(3 * 4 / 14, 12)
    True
    """
    d = check_int("d", d, minimum=1)
    halved = check_bool("halved", halved)
    lam, gamma, n, sigma_w2, sigma_e2, noise = check_law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    val = error_at(lam, gamma, n, d, sigma_w2, sigma_e2, noise)
    return val / 2 if halved else val


def error_at(lam, gamma, n, d, sigma_w2, sigma_e2, noise) -> float:
    """:func:`train_error` (not halved) for checked inputs: the one route of the Λ = I train error (the generated
    ``train_error_from_sums`` on the scaled sums)."""
    c, s, nz = scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    # Python floats throughout: an overflow is an inf (caught below), never a NumPy warning
    if s.A2 + (d + 1) * s.B + nz * s.N0 <= 0:           # no signal and no noise: Γ irrelevant
        val = float(d * s.s_q + nz)
    else:
        val = float(gen.train_error_from_sums(s.D1, s.B, s.A2, s.N0, s.s_q, d, nz))
    val *= c
    if not math.isfinite(val):
        ensure_finite(val, "the train error", lam=lam, gamma=gamma, n=n, d=d, sigma_w2=sigma_w2, sigma_e2=sigma_e2,
                      noise=noise)
    return val


@dataclass(frozen=True)
class LambdaOpt:
    """Result of :func:`optimal_lambda` (errors not halved)."""

    lam: float
    error: float
    at_boundary: bool              # minimiser at λ = 1 (the closed end of (0, 1])
    error_linear_attention: float  # error at λ = 1
    grid_lam: float                # best point of the grid scan
    n_local_minima: int            # strict local minima on the scan grid

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def minimise_over_gate(f, grid_size=401) -> LambdaOpt:
    """The minimiser over λ ∈ (0, 1] of an error curve ``f`` (checked callers only): a scan of ``grid_size`` points
    locates the basin, a bounded Brent search (xatol 1e-10) refines it; the strict local minima of the scan are
    counted."""
    grid = np.linspace(1.0 / grid_size, 1.0, grid_size)
    vals = np.array([f(x) for x in grid])
    k = int(np.argmin(vals))
    interior = (vals[1:-1] < vals[:-2]) & (vals[1:-1] < vals[2:])
    nmin = int(np.sum(interior)) + int(vals[-1] < vals[-2]) + int(vals[0] < vals[1])
    lo = grid[max(k - 1, 0)] if k > 0 else grid[0] / 2
    hi = grid[min(k + 1, grid.size - 1)]
    res = optimize.minimize_scalar(f, bounds=(lo, hi), method="bounded",
                                   options={"xatol": 1e-10, "maxiter": 500})
    cands = [(float(vals[k]), float(grid[k])), (float(res.fun), float(res.x))]
    if k == grid.size - 1:
        cands.append((float(f(1.0)), 1.0))
    lam, err = min(cands)[1], min(cands)[0]
    e1 = f(1.0)
    return LambdaOpt(lam, err, bool(lam >= 1.0 - 1e-9 or e1 <= err), e1, float(grid[k]), nmin)


def optimal_lambda(gamma, n, d, sigma_w2, sigma_e2, noise=0.0, grid_size=401) -> LambdaOpt:
    r"""Minimiser :math:`\lambda^*` of the train error over :math:`\lambda\in(0,1]` (Λ = I_d).

    A grid scan (``grid_size`` points) locates the basin, a bounded Brent search refines it; the
    number of strict local minima on the grid is reported. ``at_boundary`` is True when the
    minimiser is λ = 1 (plain linear attention is optimal).

    >>> r = optimal_lambda(0.9, 100, 10, 1.0, 0.01)
    >>> round(r.lam, 3), r.error < r.error_linear_attention
    (0.84, True)
    """
    gamma = check_gamma(gamma)
    n = check_n(n)
    d = check_int("d", d, minimum=1)
    grid_size = check_int("grid_size", grid_size, minimum=11, maximum=MAX_GRID)
    sigma_w2, sigma_e2 = check_variance("sigma_w2", sigma_w2), check_variance("sigma_e2", sigma_e2)
    return lambda_opt(gamma, n, d, sigma_w2, sigma_e2, check_variance("noise", noise), grid_size)


def lambda_opt(gamma, n, d, sigma_w2, sigma_e2, noise=0.0, grid_size=401) -> LambdaOpt:
    """:func:`optimal_lambda` for checked inputs."""
    return minimise_over_gate(lambda lam: error_at(float(lam), gamma, n, d, sigma_w2, sigma_e2, noise), grid_size)


def xi_argmax(gamma, n, d, sigma_w2, sigma_e2) -> float:
    """The maximiser of ξ over λ ∈ (0, 1] (no label noise): λ* of the train error at finite ``d``
    (:func:`optimal_lambda`, grid of 201, Brent to 1e-10), the maximiser of D₁²/B as d → ∞ (``d=None``: bounded Brent
    on :func:`xi_large_d`, xatol 1e-12). The functions it calls check the arguments.

    >>> round(xi_argmax(0.8, 50, None, 1.0, 0.1), 6)
    0.8
    """
    if d is not None:
        return optimal_lambda(gamma, n, d, sigma_w2, sigma_e2, grid_size=201).lam
    res = optimize.minimize_scalar(lambda x: -xi_large_d(x, gamma, n, sigma_w2, sigma_e2), bounds=(1e-4, 1.0),
                                   method="bounded", options={"xatol": 1e-12, "maxiter": 1000})
    return float(res.x)


def lambda_star_large_d_correction(gamma, n, d, sigma_w2, sigma_e2, noise=0.0) -> dict:
    r"""First-order finite-d shift of :math:`\lambda^*` away from γ.

    :math:`\log\xi = F(\lambda) - \log(d+1) - \log(1+G/(d+1))` with :math:`F=\log(D_1^2/B)`
    (maximal at γ) and :math:`G=(A_2+\sigma^2N_0)/B`, hence
    :math:`\lambda^*\approx\gamma+G'(\gamma)/((d+1)F''(\gamma))`. Derivatives by central
    differences of the exact sums (step 1e-4). Returns the prediction and its pieces. The variances are
    divided by their maximum c first (F shifts by −log c and G is unchanged, so the derivatives are the same
    and huge variances do not overflow).
    """
    gamma = check_gamma(gamma)
    n = check_n_direct(n)
    d = check_int("d", d, minimum=1)
    noise = check_variance("noise", noise)
    if gamma >= 1.0 - 2e-4:
        raise ValueError("gamma must be in (0, 0.9998] for the perturbative shift (λ ≤ 1 constraint)")
    sigma_w2, sigma_e2 = check_variance("sigma_w2", sigma_w2), check_variance("sigma_e2", sigma_e2)
    if sigma_w2 == 0 and sigma_e2 == 0:
        raise ValueError("sigma_w2 and sigma_e2 must not both be 0 (no signal: lambda* is undefined)")
    c = max(sigma_w2, sigma_e2, noise)
    sw, se, nz = sigma_w2 / c, sigma_e2 / c, noise / c
    h = 1e-4

    def F(x):
        s = sums_for(x, gamma, n, sw, se, "direct sum")
        return math.log(s.D1 ** 2 / s.B)

    def G(x):
        s = sums_for(x, gamma, n, sw, se, "direct sum")
        return (s.A2 + nz * s.N0) / s.B

    with np.errstate(over="ignore", invalid="ignore"):
        F2 = (F(gamma + h) - 2 * F(gamma) + F(gamma - h)) / h ** 2
        G1 = (G(gamma + h) - G(gamma - h)) / (2 * h)
        # the expansion log(1 + G/(d+1)) ≈ G/(d+1) needs G(γ)/(d+1) ≪ 1
        out = {"lam_pred": gamma + G1 / ((d + 1) * F2), "F2": F2, "G1": G1,
               "expansion_parameter": G(gamma) / (d + 1)}
    return ensure_finite(list(out.values()), "the finite-d shift of lambda*", gamma=gamma, n=n, d=d, sigma_w2=sigma_w2,
                         sigma_e2=sigma_e2, noise=noise) and out


# ------------------------------------------------------------------ general Λ

def effective_covariance(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0) -> np.ndarray:
    r"""Effective covariance :math:`\tilde\Lambda` with :math:`\Gamma^*=(D_1/A_2)\tilde\Lambda^{-1}`.

    :math:`\tilde\Lambda=(1+B/A_2)\Lambda+\frac{B\operatorname{tr}\Lambda+\sigma^2N_0}{A_2}I`
    (normalised like Zhang–Frei–Bartlett's :math:`(1+1/N)\Lambda+\operatorname{tr}\Lambda/N\,I`,
    which it equals at λ = γ = 1, σ_e = σ = 0). Exact for every Gaussian Λ and finite d.

    >>> np.allclose(effective_covariance(1.0, 1.0, 4, np.eye(2), 1.0, 0.0), 1.25 * np.eye(2) + 0.5 * np.eye(2))
    True
    """
    L = check_lambda_matrix(Lambda)
    lam, gamma, n, sigma_w2, sigma_e2, noise = check_law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    return effective_cov(lam, gamma, n, L, sigma_w2, sigma_e2, noise)


def effective_cov(lam, gamma, n, L, sigma_w2, sigma_e2, noise) -> np.ndarray:
    """:func:`effective_covariance` for checked inputs."""
    c, s, nz = scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    if s.A2 <= 0:
        raise ValueError("sigma_w2 and sigma_e2 must not both be 0 (no signal: the effective covariance is undefined)")
    with np.errstate(over="ignore", invalid="ignore"):
        kappa = s.B * float(np.trace(L)) + nz * s.N0
        out = (1.0 + s.B / s.A2) * L + (kappa / s.A2) * np.eye(L.shape[0])
    return ensure_finite(out, "the effective covariance", lam=lam, gamma=gamma, n=n, sigma_w2=sigma_w2,
                         sigma_e2=sigma_e2, noise=noise, max_abs_Lambda=float(np.max(np.abs(L))))


@dataclass(frozen=True)
class OptimalGLA:
    """Optimal parameters: Γ*, the embedded full matrices and the train error."""

    Gamma: np.ndarray
    W_KQ: np.ndarray
    W_V: np.ndarray
    Lambda_tilde: np.ndarray
    scale: float          # D1 / A2, Γ* = scale · Λ̃⁻¹
    train_error: float


def optimal_parameters(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0, v=1.0) -> OptimalGLA:
    r"""Γ* and an embedding into full :math:`(d+1)\times(d+1)` matrices.

    :math:`W_V` has last row :math:`(0,\dots,0,v)` (all other rows 0), :math:`W_{KQ}` has
    top-left block :math:`A=\Gamma^{*\top}/v` (the rest 0), so :math:`vA^\top=\Gamma^*`.

    >>> o = optimal_parameters(1.0, 1.0, 4, np.eye(2), 1.0, 0.0)
    >>> o.W_KQ.shape, round(o.train_error, 12) == round(2 * 3 / 7, 12)
    ((3, 3), True)
    """
    L = check_lambda_matrix(Lambda)
    v = check_real("v", v)
    if v == 0:
        raise ValueError("v must be nonzero, got 0")
    lam, gamma, n, sigma_w2, sigma_e2, noise = check_law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    return optimum(lam, gamma, n, L, sigma_w2, sigma_e2, noise, v)


def optimum(lam, gamma, n, L, sigma_w2, sigma_e2, noise, v=1.0) -> OptimalGLA:
    """:func:`optimal_parameters` for checked inputs."""
    Lt = effective_cov(lam, gamma, n, L, sigma_w2, sigma_e2, noise)
    _, s, _ = scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        scale = s.D1 / (s.A2 * lam)               # = D1 / A2 (invariant under the variance scale)
        try:
            G = scale * solve_psd(Lt, np.eye(L.shape[0]))
        except np.linalg.LinAlgError:
            G = np.full(L.shape, np.inf)
    if not np.all(np.isfinite(G)):
        raise ValueError(f"lam must not be so small that the optimal Gamma (~1/lam) overflows, got {lam!r} (or "
                         "Lambda is singular with no noise floor)")
    d = L.shape[0]
    WV = np.zeros((d + 1, d + 1))
    WV[d, d] = v
    WKQ = np.zeros((d + 1, d + 1))
    with np.errstate(over="ignore"):
        WKQ[:d, :d] = G.T / v
    ensure_finite(WKQ, "the embedded W_KQ = Gamma*^T / v", v=v, lam=lam)
    err = general_error(lam, gamma, n, L, sigma_w2, sigma_e2, noise)
    return OptimalGLA(G, WKQ, WV, Lt, scale, err)


def population_loss(Gamma, lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0) -> float:
    r"""Exact :math:`L(\Gamma)=\operatorname{tr}(\Gamma^\top\Lambda\Gamma H)-2D_1\operatorname{tr}(\Lambda\Gamma\Lambda)+s_{n+1}\operatorname{tr}\Lambda+\sigma^2`.

    (Reduced predictor :math:`\hat y=x_{n+1}^\top\Gamma h`; not halved.)

    >>> round(population_loss(np.zeros((2, 2)), 0.5, 0.8, 10, np.eye(2), 1.0, 0.0), 12) == round(2 * 0.64 ** 11, 12)
    True
    """
    lam, gamma, n, sigma_w2, sigma_e2, noise = check_law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    L = check_lambda_matrix(Lambda)
    G = check_array("Gamma", Gamma, ndim=2, shape=L.shape)
    return loss_at(G, lam, gamma, n, L, sigma_w2, sigma_e2, noise)


def loss_at(G, lam, gamma, n, L, sigma_w2, sigma_e2, noise) -> float:
    """:func:`population_loss` for checked inputs."""
    c, s, nz = scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    with np.errstate(over="ignore", invalid="ignore"):
        kappa = s.B * float(np.trace(L)) + nz * s.N0
        H = L @ ((s.A2 + s.B) * L + kappa * np.eye(L.shape[0]))
        Gs = lam * G                                   # weights were divided by λ
        val = float(c * (np.trace(Gs.T @ L @ Gs @ H) - 2 * s.D1 * np.trace(L @ Gs @ L)
                         + s.s_q * np.trace(L) + nz))
    return ensure_finite(val, "the population loss", lam=lam, gamma=gamma, n=n, sigma_w2=sigma_w2, sigma_e2=sigma_e2,
                         noise=noise, max_abs_Gamma=float(np.max(np.abs(G))))


def train_error_general(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0) -> float:
    r"""Train error for general Λ: :math:`s_{n+1}\operatorname{tr}\Lambda+\sigma^2-D_1^2\sum_k\mu_k^2/((A_2+B)\mu_k+B\operatorname{tr}\Lambda+\sigma^2N_0)`.

    >>> abs(train_error_general(0.7, 0.8, 20, np.eye(3), 1.0, 0.1) - train_error(0.7, 0.8, 20, 3, 1.0, 0.1)) < 1e-12
    True
    """
    L = check_lambda_matrix(Lambda)
    lam, gamma, n, sigma_w2, sigma_e2, noise = check_law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    return general_error(lam, gamma, n, L, sigma_w2, sigma_e2, noise)


def general_error(lam, gamma, n, L, sigma_w2, sigma_e2, noise) -> float:
    """:func:`train_error_general` for checked inputs."""
    c, s, nz = scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    mu = np.clip(eigenvalues(L), 0.0, None)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        kappa = s.B * float(np.sum(np.diag(L))) + nz * s.N0
        den = (s.A2 + s.B) * mu + kappa
        terms = np.where(den > 0, mu ** 2 / np.where(den > 0, den, 1.0), 0.0)
        val = float(c * (s.s_q * mu.sum() + nz - s.D1 ** 2 * terms.sum()))
    return ensure_finite(val, "the train error", lam=lam, gamma=gamma, n=n, sigma_w2=sigma_w2, sigma_e2=sigma_e2,
                         noise=noise, max_abs_Lambda=float(np.max(np.abs(L))))


def test_error(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0, *, test_gamma=None,
               test_n=None, test_Lambda=None, test_sigma_w2=None, test_sigma_e2=None,
               test_noise=None, Gamma=None) -> float:
    r"""Test error (Theorem 3 setting): train-optimal :math:`\Gamma^*` on a different distribution.

    :math:`\Gamma^*` is optimal for (λ, γ, n, Λ, σ's) (or ``Gamma`` if given); it is evaluated
    exactly on prompts of length ``test_n`` with ``test_gamma``, ``test_Lambda``, ... (each
    defaults to the training value), same λ. Not halved.

    >>> e_tr = train_error(0.8, 0.9, 50, 4, 1.0, 0.05)
    >>> abs(test_error(0.8, 0.9, 50, np.eye(4), 1.0, 0.05) - e_tr) < 1e-12
    True
    """
    L = check_lambda_matrix(Lambda)
    lam, gamma, n, sigma_w2, sigma_e2, noise = check_law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    G = optimum(lam, gamma, n, L, sigma_w2, sigma_e2, noise).Gamma if Gamma is None else \
        check_array("Gamma", Gamma, ndim=2, shape=L.shape)
    tg = gamma if test_gamma is None else check_gamma(test_gamma, "test_gamma")
    tn = n if test_n is None else check_n(test_n, "test_n")
    tL = L if test_Lambda is None else check_lambda_matrix(test_Lambda, name="test_Lambda")
    if tL.shape != L.shape:
        raise ValueError(f"test_Lambda must have shape {L.shape}, got {tL.shape}")
    tw = sigma_w2 if test_sigma_w2 is None else check_variance("test_sigma_w2", test_sigma_w2)
    te = sigma_e2 if test_sigma_e2 is None else check_variance("test_sigma_e2", test_sigma_e2)
    tz = noise if test_noise is None else check_variance("test_noise", test_noise)
    try:
        return loss_at(G, lam, tg, tn, tL, tw, te, tz)
    except ValueError as exc:
        if "not finite" in str(exc):
            raise ValueError(f"the test error is not finite for test_gamma={tg!r}, test_n={tn!r}, "
                             f"test_sigma_w2={tw!r}, test_sigma_e2={te!r}, test_noise={tz!r} (overflow); use inputs "
                             "of a smaller magnitude") from None
        raise


test_error.__test__ = False   # not a pytest test despite the name


def irreducible_floor(Lambda, sigma_e2, noise=0.0) -> float:
    r"""Lower bound :math:`\sigma_e^2\operatorname{tr}\Lambda+\sigma^2` on the error of *any* predictor.

    The fresh innovation :math:`e_{n+1}` and :math:`\varepsilon_{n+1}` are independent of the
    prompt and of :math:`x_{n+1}`, so :math:`E[(\hat y-y_{n+1})^2]\ge E[(e_{n+1}^\top x_{n+1})^2]+\sigma^2`.

    >>> irreducible_floor(np.eye(3), 0.1, 0.5)
    0.8
    """
    L = check_lambda_matrix(Lambda)
    sigma_e2, noise = check_variance("sigma_e2", sigma_e2), check_variance("noise", noise)
    with np.errstate(over="ignore"):
        val = float(sigma_e2 * np.trace(L) + noise)
    return ensure_finite(val, "the irreducible floor", sigma_e2=sigma_e2, noise=noise,
                         max_abs_Lambda=float(np.max(np.abs(L))))


