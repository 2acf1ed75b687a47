r"""Paper 001 — one-layer linear attention trained in context on linear dynamical systems.

Model and conventions (stated in every claim that uses them)
-------------------------------------------------------------
*System.* :math:`x_0\sim\mathcal N(0,\sigma_0^2 I_d)`; for :math:`t=1..T`:
:math:`x_t = A x_{t-1} + w_t`, :math:`w_t\sim\mathcal N(0,\Sigma_w)`;
:math:`y_t = c^\top x_t + v_t`, :math:`v_t\sim\mathcal N(0,\sigma_v^2)`; all noises independent.
Per system, :math:`(y_1..y_T)` is centred Gaussian with autocovariance (1-based, :math:`s\le t`)

.. math:: K(s,t) = c^\top A^{t-s} P_s c + \sigma_v^2\delta_{st},\qquad
          P_0=\sigma_0^2 I,\; P_s = A P_{s-1}A^\top + \Sigma_w .

*Priors* (the paper's four settings; the laws of eigenvalues, :math:`x_0`, :math:`\Sigma_w`,
:math:`\sigma_v` are not given in the source, so every one is a parameter):
(a) :class:`DiagonalLDSPrior` :math:`A=\mathrm{diag}(a_k)`, :math:`a_k` i.i.d.
:math:`U[-a_{\max},a_{\max}]`, :math:`c=\mathbf 1`, :math:`\Sigma_w=\sigma_w^2 I`;
(b) :class:`OrthogonalLDSPrior` :math:`A=Q^\top\mathrm{diag}(a_k)Q`, :math:`Q` Haar orthogonal;
(c) :class:`AnisotropicNoiseLDSPrior` diagonal :math:`A`, :math:`\Sigma_w` not isotropic;
(d) :class:`NonNormalLDSPrior` :math:`A=P^{-1}\mathrm{diag}(a_k)P`, :math:`P=I+\kappa U`,
:math:`U` strictly upper triangular with i.i.d. :math:`U[-1,1]` entries (``coupling_law="gaussian"``:
:math:`\mathcal N(0,1)`). All are centrally symmetric (:math:`A` and :math:`-A` equally likely), hence the mixture
law of :math:`(y_t)` is invariant under :math:`y_t\mapsto(-1)^t y_t`. :class:`OneSidedDiagonalLDSPrior` and
:class:`SkewedDiagonalLDSPrior` (eigenvalue signs skewed by δ) are control / stress priors that are not.

*Prior averages* of the Isserlis moments (:func:`wqk_star`, :func:`stationarity_moments`): exact for settings
(a), (c) (independent scalar components) and (b) (Haar Q makes :math:`Qc` uniform on the sphere: independent
components with exchangeable Dirichlet weights, :func:`exact_component_average`); for setting (d) exact over the
eigenvalues and noises with a randomised quasi-Monte Carlo average over the coupling matrix only
(:func:`_nonnormal_wqk`, ``method="coupling-rqmc"``); Rao–Blackwell averages over sampled systems for any prior.

*Tokens and attention* (reconstruction, not verified against the paper's text): window
:math:`s`, :math:`\bar y_i=[y_i..y_{i+s-1}]^\top`, tokens :math:`z_i=[\bar y_i; y_{i+s}]` for
:math:`i=1..n`, :math:`n=T-s-1`, query column :math:`[\bar y_{T-s};0]`; :math:`Y_0\in
\mathbb R^{(s+1)\times(T-s)}`,

.. math:: T_\theta(Y_0) = Y_0 + \tfrac1n W_V Y_0 M (Y_0^\top W_{QK} Y_0),\qquad
          M=\mathrm{diag}(1,..,1,0),

and :math:`\hat y_T = T_\theta(Y_0)_{s+1,T-s}`. Loss :math:`L=\tfrac12E[(\hat y_T-y_T)^2]`
(halved). Writing :math:`G=\tfrac1n\sum_i z_iz_i^\top`, :math:`v` the last row of :math:`W_V`
and :math:`q` the query column, :math:`\hat y_T = v^\top G\,W_{QK}\,q`: only the last row of
:math:`W_V` and the first :math:`s` columns of :math:`W_{QK}` matter, and
:math:`(v,W_{QK})\mapsto(cv,W_{QK}/c)` leaves it unchanged.

*Theorem 4.1 scalar* (s = 1, :math:`W_V^*=e_2e_2^\top`):
:math:`w^* = (T-2)E[y_{T-1}y_TS]/E[y_{T-1}^2S^2]`, :math:`S=\sum_{i=1}^{T-2}y_iy_{i+1}`,
expectations over noise *and* system prior (a ratio of expectations).

*Helpers of the paper's claims* (reusable): :func:`wqk_star_batch_mc` (the simulated model's best
scalar, per batch, for batch-means standard errors), :func:`exact_halved_loss` /
:func:`exact_loss_gradient` (population loss of any weights from exact feature moments),
:func:`gd_step_weights` / :func:`best_gd_step` (standard one-step GD realised by the layer),
:func:`coefficient_inertia` (realisability of effective coefficients), :func:`support_jaccard` /
:func:`offpattern_energy` (distance of trained weights from the Lemma 4.1 class), :func:`ar_gaps` /
:func:`decay_exponents` (oracle AR(s) vs Kalman), and ``antithetic`` / ``systems`` options of
:func:`stationarity_moments` (averages over finite centrally symmetric families).
:class:`OneSidedDiagonalLDSPrior` is a control prior that is *not* centrally symmetric.

Example
-------
>>> prior = DiagonalLDSPrior(d=1, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.3)
>>> w = wqk_star(6, prior)
>>> w.method, round(w.value, 6) == round(wqk_star(6, prior, method="quadrature").value, 6)
('polynomial', True)
"""
from __future__ import annotations

import contextlib
import functools
import itertools
import math
import weakref
from dataclasses import dataclass, field

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from . import gaussian
from .montecarlo import MeanEstimate, ratio as mc_ratio, rngs
from .models.attention import (check_weights, check_series, gram_query, attention_forward, attention_loss_and_grad,
                               attention_predict, effective_coefficients, token_matrix)
from .models.dynamics import (MAX_T, SETTINGS, AnisotropicNoiseLDSPrior, DiagonalLDSPrior, LDSBatch,
                              NonNormalLDSPrior, OneSidedDiagonalLDSPrior, OrthogonalLDSPrior, SkewedDiagonalLDSPrior,
                              check_prior, check_systems, lds_autocovariance, make_prior, simulate_lds)
from .models.filters import kalman_one_step_mse, oracle_ar_mse, steady_state_closed_loop_radius
from .models.training import TrainResult, train_linear_attention
from .validate import (MAX_COUNT, ParameterTypeError, check_array, check_bool, check_callable, check_choice,
                       check_finite_result, check_int, check_memory, check_real)

__all__ = [
    "LDSBatch", "DiagonalLDSPrior", "OneSidedDiagonalLDSPrior", "SkewedDiagonalLDSPrior", "OrthogonalLDSPrior", "AnisotropicNoiseLDSPrior",
    "NonNormalLDSPrior", "SETTINGS", "make_prior", "lds_autocovariance", "simulate_lds",
    "token_matrix", "attention_forward", "attention_predict", "attention_loss_and_grad",
    "effective_coefficients", "lag1_matrix", "exact_component_average", "stationarity_moments", "wqk_star_moments", "WqkStar", "wqk_star",
    "per_system_ratio_average", "simulate_wqk_star", "ar_gd_step_prediction", "ar_least_squares_predict",
    "TrainResult", "train_linear_attention", "parity_zero_pattern", "predicted_support",
    "jaccard_distance", "kalman_one_step_mse", "oracle_ar_mse", "pcg_quantities", "stationarity_rhs",
    "steady_state_closed_loop_radius", "sym_observations", "sym_token_matrix", "sym_attention_forward", "sym_ar_loss",
    "wqk_star_batch_mc", "autocovariance_batch_mc", "feature_vector", "exact_halved_loss", "exact_loss_gradient", "gd_step_weights",
    "best_gd_step", "coefficient_inertia", "support_jaccard", "offpattern_energy", "ar_gaps", "decay_exponents",
]


# ----------------------------------------------------------------------------- systems


# ----------------------------------------------------------------------------- attention


# ----------------------------------------------------------------------------- Theorem 4.1
def lag1_matrix(T: int) -> np.ndarray:
    r"""Symmetric :math:`M` with :math:`y^\top My=\sum_{i=1}^{T-2}y_iy_{i+1}` (T x T)."""
    T = check_int("T", T, minimum=3, maximum=MAX_T)
    check_memory("T", T, 8.0 * T * T, f"the {T} x {T} matrix")
    return gaussian.quadratic_form_matrix([(i, i + 1) for i in range(T - 2)], T)


def wqk_star_moments(K: np.ndarray):
    r"""Exact per-system :math:`N=E[y_{T-1}y_TS]` and :math:`D=E[y_{T-1}^2S^2]` (Isserlis on K,
    via :func:`theorycheck.gaussian.expect_product`); ``K`` (B, T, T) → two arrays (B,)."""
    K = _check_K(K, 3)
    T = K.shape[-1]
    N, D = gaussian.expect_products(K, list(_wqk_factors(T)))    # one PSD validation for both
    return np.atleast_1d(N), np.atleast_1d(D)


def _check_K(K, t_min: int) -> np.ndarray:
    """A batch (B, T, T) of autocovariances (a single (T, T) is promoted), T >= ``t_min``; PSD is checked by the
    Isserlis engine."""
    K = check_array("K", K, ndim=(2, 3))
    if K.ndim == 2:
        K = K[None]
    if K.shape[0] < 1 or K.shape[1] != K.shape[2] or K.shape[-1] < t_min:
        raise ValueError(f"K must be a (B, T, T) batch of square matrices with B >= 1 and T >= {t_min}, got shape "
                         f"{K.shape}")
    if K.shape[-1] > 400:
        raise ValueError(f"K must have T <= 400 (the moment forms are T x T dense), got T = {K.shape[-1]}")
    return K


def _wqk_factors(T):
    """The (linear, quadratic) factor lists of N = E[y_{T-1} y_T S] and D = E[y_{T-1}^2 S^2]."""
    M = lag1_matrix(T)
    e = np.eye(T)
    return ([e[T - 2], e[T - 1]], [M]), ([e[T - 2], e[T - 2]], [M, M])


@dataclass(frozen=True)
class WqkStar:
    """Value of :math:`W^*_{QK,11}` with its standard error (0 for deterministic routes)."""

    value: float
    se: float
    n_systems: int
    method: str
    T: int
    numerator: float = float("nan")     # E[y_{T-1} y_T S] over the prior
    denominator: float = float("nan")   # E[y_{T-1}^2 S^2] over the prior
    extra: dict = field(default_factory=dict)

    def as_dict(self):
        return {"value": self.value, "se": self.se, "n_systems": self.n_systems,
                "method": self.method, "T": self.T, "numerator": self.numerator,
                "denominator": self.denominator, **self.extra}


def _scalar_poly(T):
    try:
        from .generated import lds_scalar as g
    except ImportError:                       # pragma: no cover - before derivations ran
        return None
    return g.POLY.get(T)


def _poly_eval_moments(coef, a, sigma0, sigma_w, sigma_v):
    """Evaluate the generated d = 1 polynomials: coef = {'N'|'D': {(i,j,k): [c_0, c_1, ...]}}
    with term  c_m a^{2m} sigma0^{2i} sigma_w^{2j} sigma_v^{2k} / coef['N_scale'|'D_scale']."""
    out = {}
    a2 = np.asarray(a, dtype=float) ** 2
    for key in ("N", "D"):
        tot = 0.0
        for (i, j, k), cs in coef[key].items():
            tot = tot + np.polynomial.polynomial.polyval(a2, np.array(cs, dtype=float)) * \
                sigma0 ** (2 * i) * sigma_w ** (2 * j) * sigma_v ** (2 * k)
        out[key] = tot / coef[key + "_scale"]
    return out["N"], out["D"]


def _poly_prior_average(coef, a_max, sigma0, sigma_w, sigma_v):
    """Exact average over a ~ U[-a_max, a_max]:  E[a^{2m}] = a_max^{2m} / (2m + 1)."""
    out = {}
    for key in ("N", "D"):
        tot = 0.0
        for (i, j, k), cs in coef[key].items():
            m = np.arange(len(cs))
            tot += float(np.sum(np.array(cs, dtype=float) * a_max ** (2.0 * m) / (2 * m + 1))) * \
                sigma0 ** (2 * i) * sigma_w ** (2 * j) * sigma_v ** (2 * k)
        out[key] = tot / coef[key + "_scale"]
    return out["N"], out["D"]


def _component_laws(prior):
    """Independent scalar components of y for priors with diagonal A, c = 1 and diagonal
    Sigma_w: list of (sigma_w_k, multiplicity); None when the components are not independent."""
    if type(prior) in (DiagonalLDSPrior, OneSidedDiagonalLDSPrior, SkewedDiagonalLDSPrior):
        return [(prior.sigma_w, prior.d)]
    if type(prior) is AnisotropicNoiseLDSPrior:
        S = prior.Sigma_w
        if np.any(S != np.diag(np.diag(S))):
            return None
        out = {}
        for sw in np.sqrt(np.diag(S)):
            out[float(sw)] = out.get(float(sw), 0) + 1
        return sorted(out.items())
    return None


def _moment_functions(T):
    (lin_n, quad_n), (lin_d, quad_d) = _wqk_factors(T)

    def Nf(K):
        return np.atleast_1d(gaussian.expect_product(K, linear=lin_n, quadratic=quad_n))

    def Df(K):
        return np.atleast_1d(gaussian.expect_product(K, linear=lin_d, quadratic=quad_d))
    return Nf, Df


def _component_nodes(T, prior, laws):
    a, wts = prior.eigenvalue_quadrature(3 * T + 2)      # exact for polynomials of degree <= 6T + 3 in a
    comps = []       # (X at the nodes (G,T,T) or None, mean (T,T), multiplicity)
    for sw, mult in laws:
        sysm = LDSBatch(a.reshape(-1, 1, 1), np.ones((a.size, 1)), np.full((a.size, 1, 1), sw ** 2),
                        prior.sigma0, 0.0)
        X = lds_autocovariance(sysm, T)
        comps.append((X, np.einsum("g,gij->ij", wts, X), mult))
    V = prior.sigma_v ** 2 * np.eye(T)
    comps.append((None, V, 1))
    return wts, comps


def _orthogonal_weight_moments(d: int) -> dict:
    r"""Joint moments of the component weights :math:`w_k=(Qc)_k^2` of setting (b) (:math:`c=\mathbf 1`, Q Haar):
    :math:`Qc` is uniform on the sphere of radius :math:`\sqrt d`, so :math:`w=d\,u` with
    :math:`u\sim\mathrm{Dirichlet}(\tfrac12,\dots,\tfrac12)`. Keys: ``m1`` = E w₁, ``m2`` = E w₁², ``m11`` = E w₁w₂,
    ``m3``, ``m21`` = E w₁²w₂, ``m111`` = E w₁w₂w₃."""
    D2, D3 = d * (d + 2), d * (d + 2) * (d + 4)
    return {"m1": 1.0, "m2": 3.0 * d * d / D2, "m11": 1.0 * d * d / D2, "m3": 15.0 * d ** 3 / D3,
            "m21": 3.0 * d ** 3 / D3, "m111": 1.0 * d ** 3 / D3}


def _exchangeable_average(T, prior, forms, mom):
    r"""Exact prior averages for :math:`K=\sigma_v^2I+\sum_{k=1}^dw_kX(a_k)`, :math:`a_k` i.i.d., weights
    :math:`w` exchangeable and independent of the :math:`a_k` with joint moments ``mom``
    (:func:`_orthogonal_weight_moments`); X(a) the autocovariance of the scalar system (a, σ₀, σ_w, σ_v = 0).

    Expanding a form of degree ≤ 3 by multilinearity over ordered index tuples and grouping them by which indices
    coincide (V = σ_v²I is index 0): with m = E X(a), B / C the symmetric bi- / trilinear forms of F,

    * degree 2: F(V) + 2d m₁ B(V, m) + d m₂ E F(X) + d(d−1) m₁₁ F(m);
    * degree 3: F(V) + 3d m₁ C(V, V, m) + 3d m₂ E C(V, X, X) + 3d(d−1) m₁₁ C(V, m, m) + d m₃ E F(X)
      + 3d(d−1) m₂₁ E C(X, X, m) + d(d−1)(d−2) m₁₁₁ F(m),

    every E over one eigenvalue by the prior's Gauss–Legendre rule (exact: polynomial integrands)."""
    d = prior.d
    a, wts = prior.eigenvalue_quadrature(3 * T + 2)
    X = lds_autocovariance(LDSBatch(a.reshape(-1, 1, 1), np.ones((a.size, 1)), np.full((a.size, 1, 1),
                                                                                          prior.sigma_w ** 2),
                                    prior.sigma0, 0.0), T)
    m = np.einsum("g,gij->ij", wts, X)
    V = prior.sigma_v ** 2 * np.eye(T)
    out = []
    for deg, F in forms:
        def f(K):
            return np.atleast_1d(F(K if K.ndim == 3 else K[None]))

        def c3(P, Q):                     # C(P, P, Q) by polarisation (P batched or not)
            Q = np.broadcast_to(Q, P.shape)
            return (f(2 * P + Q) - f(2 * P) - 2 * f(P + Q) + 2 * f(P) + f(Q)) / 6
        fV, fm = float(f(V)[0]), float(f(m)[0])
        if deg == 1:
            out.append(fV + d * mom["m1"] * fm)
        elif deg == 2:
            bVm = float((f(V + m) - f(V) - f(m))[0]) / 2
            out.append(fV + 2 * d * mom["m1"] * bVm + d * mom["m2"] * float(wts @ f(X))
                       + d * (d - 1) * mom["m11"] * fm)
        else:
            out.append(fV + 3 * d * mom["m1"] * float(c3(V, m)[0]) + 3 * d * mom["m2"] * float(wts @ c3(X, V))
                       + 3 * d * (d - 1) * mom["m11"] * float(c3(m, V)[0]) + d * mom["m3"] * float(wts @ f(X))
                       + 3 * d * (d - 1) * mom["m21"] * float(wts @ c3(X, m))
                       + d * (d - 1) * (d - 2) * mom["m111"] * fm)
    return out


def _has_exact_route(prior) -> bool:
    """True when :func:`exact_component_average` averages exactly over ``prior``."""
    return _component_laws(prior) is not None or type(prior) is OrthogonalLDSPrior


def _check_forms(forms) -> list:
    if isinstance(forms, (str, bytes)) or not isinstance(forms, (list, tuple)) or not forms:
        raise ParameterTypeError(f"forms must be a non-empty list of (degree, F) pairs, got {forms!r:.60}")
    out = []
    for i, fm in enumerate(forms):
        if not isinstance(fm, (list, tuple)) or len(fm) != 2:
            raise ParameterTypeError(f"forms[{i}] must be a (degree, F) pair, got {fm!r:.60}")
        deg = check_int(f"forms[{i}] degree", fm[0], minimum=1, maximum=3)
        out.append((deg, check_callable(f"forms[{i}] F", fm[1])))
    return out


def exact_component_average(T: int, prior, forms) -> list[float]:
    r"""Exact prior averages :math:`E_{sys}[F(K)]` of forms homogeneous of degree 1, 2 or 3 in the
    autocovariance K, for priors whose output is a sum of scalar AR(1) components with independent eigenvalues:
    settings (a), (c) with diagonal :math:`\Sigma_w`, the control priors (one-sided, skewed), and setting (b).

    ``forms`` is a list of ``(degree, F)`` with ``F`` mapping a batch (B, T, T) to (B,) and
    homogeneous of that degree (e.g. an Isserlis moment of that order / 2); ``F`` must not modify its argument
    (the same argument arrays are passed to every form). With
    :math:`K=\sum_kX_k` (:math:`X_0=\sigma_v^2I` deterministic, :math:`X_k` the autocovariance of
    component k, a function of its own :math:`a_k`), :math:`m_k=EX_k`, :math:`M=\sum_km_k`, and
    the symmetric multilinear forms of F, independence gives

    * degree 1: :math:`F(M)`;
    * degree 2: :math:`\sum_k E F(X_k) + F(M) - \sum_k F(m_k)`;
    * degree 3: :math:`\sum_k E F(X_k) + 3\sum_k E\tilde F(X_k,X_k,M-m_k) + F(M)
      - 3\sum_k\tilde F(m_k,m_k,M) + 2\sum_kF(m_k)`,

    with the polarisation :math:`\tilde F(X,X,Y)=[F(2X+Y)-F(2X)-2F(X+Y)+2F(X)+F(Y)]/6`. The
    one-dimensional averages over :math:`a_k` use the prior's eigenvalue quadrature
    (:meth:`~theorycheck.models.dynamics.DiagonalLDSPrior.eigenvalue_quadrature`, Gauss–Legendre with 3T + 2
    nodes per interval), exact because every integrand is a polynomial of degree ≤ 6T in :math:`a_k`.

    Setting (b), :math:`A=Q^\top\mathrm{diag}(a)Q` with Q Haar, isotropic :math:`x_0` and :math:`\Sigma_w`:
    in the coordinates :math:`x'=Qx` the components are independent scalar AR(1) processes read through
    :math:`c'=Qc`, uniform on the sphere of radius :math:`|c|=\sqrt d`, so
    :math:`K=\sigma_v^2I+\sum_k w_kX(a_k)` with weights :math:`w_k=c_k'^2` (d times a Dirichlet(½, …, ½) vector)
    independent of the eigenvalues: the same expansion with the weights' joint moments
    (:func:`_exchangeable_average`) — exact, no sampling.
    """
    T = check_int("T", T, minimum=1, maximum=MAX_T)
    prior = check_prior(prior)
    forms = _check_forms(forms)
    check_memory("T", T, 8.0 * 16 * (3 * T + 2) * T * T, f"the quadrature nodes' {T} x {T} autocovariances")
    if type(prior) is OrthogonalLDSPrior:
        out = _exchangeable_average(T, prior, forms, _orthogonal_weight_moments(prior.d))
        return [_finite(v, "exact_component_average", T=T, prior=prior) for v in out]
    laws = _component_laws(prior)
    if laws is None:
        raise ValueError(f"prior must have independent scalar components (settings a, b, or c with diagonal "
                         f"Sigma_w), got {prior!r}")
    wts, comps = _component_nodes(T, prior, laws)
    Mtot = sum(m * mult for _, m, mult in comps)
    # the arguments of the forms, built once and passed to every form (the same arrays each time, so forms that
    # cache by their argument see the same objects): Mtot[None], per component m[None], and the five arguments
    # (2X + Y, 2X, X + Y, X, Y) of each polarisation Ft(X, Y) below, only when a form of degree 3 asks for them
    Mt1 = Mtot[None]
    m1s = [m[None] for _, m, _ in comps]
    ft_args: dict = {}

    def polar(key, X, Y):
        hit = ft_args.get(key)
        if hit is None:
            Y = np.broadcast_to(Y, X.shape)
            hit = ft_args[key] = (2 * X + Y, 2 * X, X + Y, X, Y)
        return hit
    out = []
    for deg, F in forms:

        def f1(K):
            return np.atleast_1d(F(K))
        if deg == 1:
            out.append(float(f1(Mt1)[0]))
            continue
        if deg == 2:
            tot = float(f1(Mt1)[0])
            for (X, m, mult), m1 in zip(comps, m1s):
                eF = float(f1(m1)[0]) if X is None else float(wts @ f1(X))
                tot += mult * (eF - float(f1(m1)[0]))
            out.append(tot)
            continue

        def Ft(args):          # F~(X, X, Y) by polarisation, args = polar(·, X, Y)
            return (f1(args[0]) - f1(args[1]) - 2 * f1(args[2]) + 2 * f1(args[3]) + f1(args[4])) / 6
        tot = float(f1(Mt1)[0])
        for c, ((X, m, mult), m1) in enumerate(zip(comps, m1s)):
            if X is None:
                eF, eFt = float(f1(m1)[0]), float(Ft(polar((c, 0), m1, Mtot - m))[0])
            else:
                eF, eFt = float(wts @ f1(X)), float(wts @ Ft(polar((c, 0), X, Mtot - m)))
            tot += mult * (eF + 3 * eFt - 3 * float(Ft(polar((c, 1), m1, Mtot))[0]) + 2 * float(f1(m1)[0]))
        out.append(tot)
    return [_finite(v, "exact_component_average", T=T, prior=prior) for v in out]


def _finite(v, what, **inputs) -> float:
    return float(check_finite_result(v, what, **inputs))


# ----------------------------------------------------------------------------- setting (d): exact over a, RQMC over P
@functools.lru_cache(maxsize=16)
def _index_tables(T):
    """0-based (min(s, t), |s − t|) as two (T, T) integer tables."""
    k = np.arange(T)
    return np.minimum.outer(k, k), np.abs(k[:, None] - k[None, :])


def _h_table(p, T, sigma0, sigma_w):
    r""":math:`h_s(p)=\sigma_0^2p^s+\sigma_w^2\sum_{r<s}p^r` for s = 1..T at every entry of p: (…, T), index
    s − 1."""
    p = np.asarray(p, float)
    h = np.empty(p.shape + (T,))
    cur = np.full(p.shape, sigma0 ** 2)
    for s in range(T):
        cur = p * cur + sigma_w ** 2
        h[..., s] = cur
    return h


def _pair_autocov(x, y, T, sigma0, sigma_w, diagonal: bool = False):
    r""":math:`\Phi(x_i, y_j)` for node vectors x (n,), y (m,): (n, m, T, T) (``diagonal``: x and y of equal length,
    :math:`\Phi(x_i, y_i)`, (n, T, T)) — the cross-covariance of two scalar AR(1) state components with eigenvalues
    x, y driven by the same unit-correlated noise: for 1-based s ≤ t, :math:`\Phi_{st}=y^{t-s}h_s(xy)`,
    :math:`h_s(p)=\sigma_0^2p^s+\sigma_w^2\sum_{r<s}p^r`; :math:`\Phi_{st}=x^{s-t}h_t(xy)` for s > t.

    >>> P = _pair_autocov(np.array([0.5]), np.array([-0.3]), 3, 1.0, 0.5)[0, 0]
    >>> bool(np.isclose(P[0, 2], (-0.3) ** 2 * (1.0 * -0.15 + 0.25)))
    True
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    if not diagonal:
        x, y = x[:, None], y[None, :]
    mn, ad = _index_tables(T)
    up = np.arange(T)[:, None] <= np.arange(T)[None, :]                 # s <= t
    px = x[..., None, None] ** np.where(up, 0, ad)                      # x^{(s-t)+}
    py = y[..., None, None] ** np.where(up, ad, 0)                      # y^{(t-s)+}
    return _h_table(x * y, T, sigma0, sigma_w)[..., mn] * px * py


def _powers(x, T):
    return np.asarray(x, float)[:, None] ** np.arange(T)


def _sym_pair(x, y, T, sigma0, sigma_w):
    r""":math:`S(x_i,y_j)=\Phi(x_i,y_j)+\Phi(y_j,x_i)` on the product grid, (n, m, T, T):
    :math:`S_{st}=h_{s\wedge t}(xy)\,(x^{|s-t|}+y^{|s-t|})` (symmetric in x, y and as a matrix).

    >>> x, y = np.array([0.5, -0.2]), np.array([0.7])
    >>> S = _sym_pair(x, y, 4, 1.0, 0.5); P = _pair_autocov(x, y, 4, 1.0, 0.5)
    >>> bool(np.allclose(S, P + P.swapaxes(-1, -2)))          # Φ(y, x) = Φ(x, y)ᵀ
    True
    """
    pk = np.add(_powers(x, T)[:, None], _powers(y, T)[None])                      # (n, m, T): x^k + y^k
    out = np.take(_h_table(np.multiply.outer(x, y), T, sigma0, sigma_w), _index_tables(T)[0].ravel(), axis=-1)
    out = out.reshape(pk.shape[:-1] + (T, T))                                      # h_{min(s,t)}(xy)
    out *= sliding_window_view(np.concatenate([pk[..., :0:-1], pk], -1), T, axis=-1)[..., ::-1, :]  # pk_{|s-t|}
    return out


def _diag_pair(x, T, sigma0, sigma_w):
    r""":math:`\Phi(x_i,x_i)=h_{s\wedge t}(x^2)\,x^{|s-t|}`, (n, T, T)."""
    mn, ad = _index_tables(T)
    return _h_table(np.asarray(x, float) ** 2, T, sigma0, sigma_w)[:, mn] * _powers(x, T)[:, ad]


def _half_pair(x, rule, T, sigma0, sigma_w):
    r""":math:`E_z S(x_i,z)` with z integrated by ``rule`` = (nodes, weights), (n, T, T): with
    :math:`A_m=E_z h_m(xz)`, :math:`B_{mk}=E_z h_m(xz)z^k`,
    :math:`E_zS_{st}=A_{s\wedge t}x^{|s-t|}+B_{s\wedge t,|s-t|}`.

    >>> x, z, wz = np.array([0.3, -0.8]), np.array([-0.5, 0.1, 0.6]), np.array([0.2, 0.5, 0.3])
    >>> avg = np.einsum("xzst,z->xst", _sym_pair(x, z, 5, 1.0, 0.5), wz)
    >>> bool(np.allclose(_half_pair(x, (z, wz), 5, 1.0, 0.5), avg))
    True
    """
    z, wz = rule
    mn, ad = _index_tables(T)
    h = _h_table(np.multiply.outer(x, z), T, sigma0, sigma_w)              # (n, nz, T)
    A = np.einsum("xzm,z->xm", h, wz)
    B = np.tensordot(h, wz[:, None] * _powers(z, T), axes=([1], [0]))     # (n, T, T): [x, m, k]
    return A[:, mn] * _powers(x, T)[:, ad] + B[:, mn, ad]


class _Prep:
    """The pieces of a (batch of) symmetric matrix X that the Isserlis forms of N and D use (broadcastable over the
    leading axes): XM, tr(XM), the columns τ and T (and M times them), X_ττ, X_τT; X itself is not kept."""

    def __init__(self, X, M, T):
        tau, last = T - 2, T - 1
        self.XM = X @ M
        self.tr = np.trace(self.XM, axis1=-2, axis2=-1)
        self.ct, self.cT = X[..., :, tau].copy(), X[..., :, last].copy()
        self.Mct, self.McT = self.ct @ M, self.cT @ M
        self.tt, self.tT = X[..., tau, tau].copy(), X[..., tau, last].copy()

    def placed(self, lead):
        """The same pieces with the leading axes reshaped to ``lead`` (views)."""
        out = object.__new__(_Prep)
        for k, v in vars(self).items():
            trail = 2 if k == "XM" else 1 if k in ("ct", "cT", "Mct", "McT") else 0
            setattr(out, k, v.reshape(tuple(lead) + v.shape[v.ndim - trail:]))
        return out


def _dot(u, v):
    return np.einsum("...i,...i->...", u, v)


def _trXMXM(a, b):
    return np.einsum("...ij,...ji->...", a.XM, b.XM)


def _xMbMx(a, b, c):
    return _dot(a.Mct, np.matmul(b.XM, c.ct[..., None])[..., 0])              # (Mk_a)ᵀ X_b M k_c


def _N2(a, b):
    """Symmetric bilinear form of N(K) = K_{τT} tr(KM) + 2 k_τᵀMk_T (τ = T − 1, 1-based) on prepared matrices."""
    return 0.5 * (a.tT * b.tr + b.tT * a.tr) + _dot(a.ct, b.McT) + _dot(b.ct, a.McT)


def _D3(a, b, c):
    """Symmetric trilinear form of D(K) = K_ττ[(tr KM)² + 2 tr(KMKM)] + 4 (k_τᵀMk_τ) tr(KM) + 8 k_τᵀMKMk_τ (Isserlis
    written out; valid for any symmetric, not necessarily PSD, matrices) on prepared matrices; a contraction shared
    by repeated arguments is computed once."""
    memo = {}

    def once(f, *args):                  # f symmetric in its outer arguments
        key = (f, id(args[1]) if f is _xMbMx else None, frozenset(map(id, (args[0], args[-1]))))
        if key not in memo:
            memo[key] = f(*args)
        return memo[key]
    t1 = 2 * (a.tt * b.tr * c.tr + b.tt * a.tr * c.tr + c.tt * a.tr * b.tr)
    t2 = 4 * (a.tt * once(_trXMXM, b, c) + b.tt * once(_trXMXM, a, c) + c.tt * once(_trXMXM, a, b))
    t3 = 8 * (once(_dM, a, b) * c.tr + once(_dM, a, c) * b.tr + once(_dM, b, c) * a.tr)
    t4 = 16 * (once(_xMbMx, a, b, c) + once(_xMbMx, b, a, c) + once(_xMbMx, a, c, b))
    return (t1 + t2 + t3 + t4) / 6


def _dM(a, b):
    """k_τ(a)ᵀ M k_τ(b)."""
    return _dot(a.ct, b.Mct)


_CANON = {}


def _canon(tup):
    """Canonical form of a tuple of terms (None = V, (k, l) = component pair) under relabelling of the components and
    permutation of the positions: the symmetric multilinear forms' expectation over i.i.d. eigenvalues depends on this
    pattern only (the least relabelled ordering, labels numbered by first appearance)."""
    key = tuple(sorted(tup, key=lambda t: (-1, -1) if t is None else t))
    got = _CANON.get(key)
    if got is None:
        got = _CANON[key] = min(_relabel(perm) for perm in set(itertools.permutations(key)))
    return got


def _relabel(terms):
    lab, out = {}, []
    for t in terms:
        if t is None:
            out.append((-1, -1))
        else:
            a, b = lab.setdefault(t[0], len(lab)), lab.setdefault(t[1], len(lab))
            out.append((a, b) if a <= b else (b, a))
    return tuple(out)


class _EigenLaw:
    """Gauss–Legendre on [lo, hi] (uniform eigenvalue law) exact for polynomials of the given degree; ``half=True``
    (a law symmetric about 0 only) keeps the nonnegative nodes with doubled weights (a node at 0 once): the same sum
    for every even integrand.

    >>> q = _EigenLaw(-0.9, 0.9); (x, w), (xh, wh) = q(8), q(8, half=True)
    >>> x.size, xh.size, bool(np.isclose(w @ x ** 8, wh @ xh ** 8)), bool(np.isclose(w @ x ** 8, 0.9 ** 8 / 9))
    (5, 3, True, True)
    """

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi
        self.symmetric = lo == -hi

    def __call__(self, degree, half=False):
        x, w = _leggauss(int(degree) // 2 + 1)
        x, w = self.lo + (self.hi - self.lo) * (x + 1) / 2, w / 2
        if not half:
            return x, w
        n = x.size
        wh = 2 * w[n // 2:]
        if n % 2:
            wh[0] = w[n // 2]
        return x[n // 2:], wh


@functools.lru_cache(maxsize=64)
def _leggauss(n):
    return np.polynomial.legendre.leggauss(n)


@functools.lru_cache(maxsize=8)
def _nn_pattern_integrals(T, prior_key):
    """I_π = E over i.i.d. eigenvalues of N̄ / D̄ of the pattern's position matrices (see :func:`_nonnormal_wqk`), and
    the terms (None = V, (k, k), (k, l) for k < l).

    >>> I, terms = _nn_pattern_integrals(6, (-0.9, 0.9, 1.0, 0.5, 0.5, 2, "d")); len(I), terms
    (20, [None, (0, 0), (1, 1), (0, 1)])
    """
    lo, hi, sigma0, sigma_w, sigma_v, d, kind = prior_key
    q = _EigenLaw(lo, hi)
    xm, wm = q(T)                                        # one slot: degree <= T
    xd, wd = q(2 * T)                                    # (x, x) in one position: degree <= 2T
    const = {"V": sigma_v ** 2 * np.eye(T), "m_d": np.einsum("g,gst->st", wd, _diag_pair(xd, T, sigma0, sigma_w)),
             "m_o": np.einsum("g,gst->st", wm, _half_pair(xm, (xm, wm), T, sigma0, sigma_w))}
    ctx = {"q": q, "M": lag1_matrix(T), "T": T, "sigma0": sigma0, "sigma_w": sigma_w, "const": const, "preps": {}}
    terms = [None] + [(k, k) for k in range(d)] + [(k, l) for k in range(d) for l in range(k + 1, d)]
    out = {}
    for p in (2, 3):
        for pat in sorted({_canon(t) for t in itertools.combinations_with_replacement(terms, p)}):
            out[pat] = _pattern_value(pat, ctx, _N2 if p == 2 else _D3)
    return out, terms


def _links(pat):
    """The eigenvalue labels of a pattern shared by two or more positions (sorted) and every label's count."""
    pos, cnt = {}, {}
    for i, t in enumerate(pat):
        if t != (-1, -1):
            for x in t:
                pos.setdefault(x, set()).add(i)
                cnt[x] = cnt.get(x, 0) + 1
    return sorted(x for x in pos if len(pos[x]) >= 2), cnt


def _pattern_value(pat, c, form):
    """E over i.i.d. eigenvalues of ``form`` at the pattern's position matrices: Gauss–Legendre over the eigenvalues
    shared by two positions (exact: a label counted m times gives degree ≤ mT; each position built on its own grid
    axes, broadcast over the others), inner averages over the rest; the triangle (three shared eigenvalues) by
    contractions. The integrand is even under a ↦ −a jointly (every position matrix X ↦ DXD, D = diag((−1)^t), and
    N, D are invariant: central symmetry), so on a symmetric law the largest grid keeps its nonnegative half."""
    T, q = c["T"], c["q"]
    link, cnt = _links(pat)
    if len(link) == 3:                                    # the triangle (x, y), (y, z), (z, x)
        return _triangle(c, q(2 * T))
    rules = [(cnt[x] * T, False) for x in link]
    if link and q.symmetric:
        k = max(range(len(link)), key=lambda i: rules[i][0])
        rules[k] = (rules[k][0], True)
    W = np.ones(())
    for r in rules:
        W = np.multiply.outer(W, q(*r)[1])
    vals = form(*[_position(t, link, rules, c) for t in pat])
    return float(np.sum(W * np.broadcast_to(vals, W.shape)))


def _position(t, link, rules, c):
    """The prepared matrix of one pattern term, placed on the pattern's grid axes (built once per rule and cached
    across patterns): V = σ_v²I, Φ(x, x), S(x, y), or their averages over the eigenvalues no other position
    shares."""
    T, q, s0, sw = c["T"], c["q"], c["sigma0"], c["sigma_w"]
    ax = [] if t == (-1, -1) else sorted({link.index(v) for v in t if v in link})
    r = [rules[a] for a in ax]
    if t == (-1, -1) or not ax:
        key = ("V",) if t == (-1, -1) else ("m_d",) if t[0] == t[1] else ("m_o",)
    else:
        key = ("diag" if t[0] == t[1] else "S" if len(ax) == 2 else "half",) + tuple(r)
    if key not in c["preps"]:
        if len(key) == 1:
            X = c["const"][key[0]]
        elif key[0] == "diag":
            X = _diag_pair(q(*r[0])[0], T, s0, sw)
        elif key[0] == "S":
            X = _sym_pair(q(*r[0])[0], q(*r[1])[0], T, s0, sw)
        else:
            X = _half_pair(q(*r[0])[0], q(T), T, s0, sw)
        c["preps"][key] = _Prep(X, c["M"], T)
    lead = [1] * len(link)
    for a, n in zip(ax, c["preps"][key].XM.shape):
        lead[a] = n
    if (key, tuple(lead)) not in c["preps"]:           # one object per placement: repeated terms share contractions
        c["preps"][key, tuple(lead)] = c["preps"][key].placed(lead)
    return c["preps"][key, tuple(lead)]


def _triangle(c, grid):
    """I of D̄(S(x, y), S(y, z), S(z, x)) over i.i.d. x, y, z (S(a, b) = Φ(a, b) + Φ(b, a)): every term of the
    trilinear form is a contraction over the three node indices, done as matrix products (no triple loop)."""
    T, M = c["T"], c["M"]
    a, w = grid
    n, tau = a.size, T - 2
    S = _sym_pair(a, a, T, c["sigma0"], c["sigma_w"])     # S[x, y] = S[y, x], each a symmetric matrix
    SM = S @ M
    al = S[:, :, tau, tau]                                 # A_ττ
    be = np.trace(SM, axis1=2, axis2=3)                    # tr(SM)
    kv = S[:, :, :, tau]                                   # S e_τ
    Mk = kv @ M
    # the triangle is invariant under permutations of its three positions: every ordering of the trilinear form's
    # term gives the same sum, so D̄ = t(S_xy, S_yz, S_zx) summed once
    wa, wb = w[:, None] * al, w[:, None] * be
    t1 = float(np.einsum("xy,yz,zx->", wa, wb, wb))                          # Σ w w w A_ττ tr(BM) tr(CM)
    Q, F = np.zeros((n, n)), np.zeros((n, T, n))
    for z in range(n):                                    # matrix products over the node axes, no large copies
        Q += w[z] * (SM[:, z].reshape(n, -1) @ SM[:, z].swapaxes(1, 2).reshape(n, -1).T)
        F += S[:, z] @ (w[z] * Mk[z].T)
    t2 = float(np.sum(wa * Q * w[None, :]))               # Q[y, x] = Σ_z w_z tr(S(y,z)M S(z,x)M) (symmetric)
    R = (kv * w[None, :, None]).reshape(n, -1) @ Mk.transpose(0, 2, 1).reshape(-1, n)
    t3 = float(np.sum(R * wb.T * w[:, None]))             # R[x, z] = Σ_y w_y k(x,y)ᵀ M k(y,z)
    t4 = float(np.einsum("x,xyi,yix->", w, Mk * w[None, :, None], F))        # F[y,:,x] = Σ_z w_z S(y,z) M k(z,x)
    return float(t1 + 2 * t2 + 4 * t3 + 8 * t4)


def _coupling_uniforms(prior, n, seed, scramble_index):
    from scipy.stats import qmc
    dim = prior.d * (prior.d - 1) // 2
    if dim == 0:                                          # d = 1: no coupling, P = 1
        return np.zeros((1, 0))
    m = max(1, int(math.ceil(math.log2(max(n, 2)))))
    return qmc.Sobol(dim, scramble=True, seed=np.random.default_rng([seed, scramble_index])).random_base2(m)


@functools.lru_cache(maxsize=8)
def _nn_index_tensors(T, key):
    """The pattern integrals arranged over ordered pairs / triples of terms: ``M2`` (nt, nt) and ``M3u`` (nt, npairs),
    the triples (a ≤ b, c) with the multiplicity of (a, b) folded in, so that Σ_abc M3_abc C_aC_bC_c =
    Σ_c Σ_{a≤b} M3u[c, (a, b)] C_aC_bC_c; ``pairs`` = the index arrays (a, b) of the unordered pairs."""
    I, terms = _nn_pattern_integrals(T, key)
    nt = len(terms)
    M2, M3 = np.zeros((nt, nt)), np.zeros((nt, nt, nt))
    for idx in itertools.combinations_with_replacement(range(nt), 2):
        M2[idx] = I[_canon(tuple(terms[i] for i in idx))]
    for idx in itertools.combinations_with_replacement(range(nt), 3):
        M3[idx] = I[_canon(tuple(terms[i] for i in idx))]
    o = np.sort(np.stack(np.meshgrid(*[np.arange(nt)] * 3, indexing="ij"), -1), -1)   # every ordered triple, sorted
    M3 = M3[o[..., 0], o[..., 1], o[..., 2]]                                              # symmetric
    M2 = M2 + np.triu(M2, 1).T
    ia, ib = np.triu_indices(nt)
    return M2, M3[ia, ib].T * np.where(ia == ib, 1.0, 2.0), (ia, ib), len(I)


def _coupling_weights(prior, U):
    """C_τ for the terms (V, (k, k), (k < l)) of K = V + Σ_kl C_kl Φ(a_k, a_l): C_kl = g_k g_l (PPᵀ)_kl with
    g = P⁻ᵀ c, c = 1, for P = I + κ·(strict upper triangle of the coupling entries); (n, 1 + d + d(d−1)/2).

    >>> _coupling_weights(NonNormalLDSPrior(3, 0.9, 1.0, 0.5, 0.5, coupling=0.0), np.full((1, 3), 0.3))  # P = I
    array([[1., 1., 1., 1., 0., 0., 0.]])
    """
    from scipy.stats import norm
    d, n = prior.d, U.shape[0]
    iu, k = np.triu_indices(d, 1), np.arange(d)
    P = np.zeros((d, d, n))                               # entry-major: every (k, l) a contiguous row over the points
    P[k, k] = 1.0
    P[iu] = prior.coupling * ((2 * U - 1) if prior.coupling_law == "uniform" else norm.ppf(U)).T
    g = np.ones((d, n))                                   # Pᵀg = 1 by forward substitution (P unit upper triangular)
    for j in range(1, d):
        g[j] -= np.einsum("in,in->n", P[:j, j], g[:j])
    C = g[:, None] * g[None, :] * np.einsum("kmn,lmn->kln", P, P)
    return np.concatenate([np.ones((1, n)), C[k, k], C[iu]]).T


def _one_blas_thread():
    """One BLAS thread inside a block (the toolkit's convention, see theorycheck/__init__.py, also when NumPy was
    imported first): reductions reproducible to the last digit, no oversubscribed threads on small products."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - threadpoolctl is a dependency
        return contextlib.nullcontext()
    return threadpool_limits(1, user_api="blas")


def _nonnormal_wqk(T, prior, n_coupling: int, replicates: int, seed: int) -> dict:
    r"""W* for setting (d), :math:`A=P^{-1}\mathrm{diag}(a)P`: in the coordinates :math:`x'=Px` the state
    components are scalar AR(1) processes with eigenvalues :math:`a_k` and noise covariance :math:`PP^\top`, read
    through :math:`g=P^{-\top}c`, so :math:`K=\sigma_v^2I+\sum_{k,l}C_{kl}\Phi(a_k,a_l)`,
    :math:`C_{kl}=g_kg_l(PP^\top)_{kl}` (:func:`_pair_autocov`). N and D are bilinear / trilinear in K: expanding
    over ordered pairs / triples of terms, the expectation over the i.i.d. eigenvalues of each product depends only
    on the pattern of coinciding indices; these pattern integrals are exact (Gauss–Legendre in the eigenvalues that
    link two terms — the largest rule of each pattern halved by the central symmetry —, inner averages for the
    others, matrix products for the triangle), and the average over the coupling matrix P of the products of the
    weights C is a randomised quasi-Monte Carlo integral (scrambled Sobol, ``replicates`` independent scramblings of
    ``n_coupling`` points) of a smooth polynomial. One BLAS thread (:func:`_one_blas_thread`). Returns the replicate
    values of W* (for a Student-t SE), the replicate moments N and D, the number of patterns and of points.

    >>> r = _nonnormal_wqk(6, NonNormalLDSPrior(2, 0.9, 1.0, 0.5, 0.5), 64, 4, 0)
    >>> r["values"].shape, r["points"], r["patterns"]
    ((4,), 64, 20)
    """
    check_memory("T", T, 8.0 * 12 * (2 * T + 2) ** 2 * T * T, "the pattern integrals of the exact eigenvalue average")
    key = (-prior.a_max, prior.a_max, prior.sigma0, prior.sigma_w, prior.sigma_v, prior.d, "d")
    with _one_blas_thread():
        M2, M3u, (ia, ib), n_pat = _nn_index_tensors(T, key)
        U = np.concatenate([_coupling_uniforms(prior, n_coupling, seed, r) for r in range(replicates)])
        C_all = _coupling_weights(prior, U).reshape(replicates, -1, M2.shape[0])
        vals, Ns, Ds = [], [], []
        for Cw in C_all:                                  # Σ_ab E[C_a C_b] I_ab and Σ_abc E[C_a C_b C_c] I_abc
            Ns.append(float(np.mean(np.einsum("na,na->n", Cw @ M2, Cw))))
            Ds.append(float(np.sum(((Cw[:, ia] * Cw[:, ib]).T @ Cw) * M3u.T)) / Cw.shape[0])
            vals.append(_ratio_or_raise(T, Ns[-1], Ds[-1], "wqk_star"))
    return {"values": np.array(vals), "N": np.array(Ns), "D": np.array(Ds), "patterns": n_pat,
            "points": C_all.shape[1]}


def _exact_components(T, prior, laws):
    Nf, Df = _moment_functions(T)
    N, D = exact_component_average(T, prior, [(2, Nf), (3, Df)])
    return N, D


def _ratio_or_raise(T, N, D, where):
    if not (np.isfinite(N) and np.isfinite(D)):
        raise ValueError(f"{where}: the moments are not finite (N = {N}, D = {D}); check the prior's variances")
    if D <= 0:
        raise ValueError(f"{where}: E[y_(T-1)^2 S^2] = 0, the ratio is 0/0 — the prior gives y = 0 "
                         "(sigma0, sigma_w, sigma_v must not all be 0)")
    return (T - 2) * N / D


def _scalar_batch(prior, a):
    a = np.asarray(a, dtype=float)
    B = a.size
    return LDSBatch(a.reshape(B, 1, 1), np.ones((B, 1)),
                    np.full((B, 1, 1), prior.sigma_w ** 2), prior.sigma0, prior.sigma_v)


def wqk_star(T: int, prior, rtol: float = 1e-6, method: str = "auto", n_systems: int | None = None,
             seed: int = 0, batch: int = 2000) -> WqkStar:
    r""":math:`W^*_{QK,11}=(T-2)\,E[y_{T-1}y_TS]/E[y_{T-1}^2S^2]`, :math:`S=\sum_{i=1}^{T-2}y_iy_{i+1}`,
    both expectations over noise and system prior (ratio of expectations).

    Routes (``method``):

    * ``"polynomial"`` (d = 1, setting (a), T in the generated range): per-system moments are the
      SymPy-derived polynomials in :math:`a^2` (``theorycheck.generated.lds_scalar``), averaged over
      :math:`a\sim U[-a_{\max},a_{\max}]` term by term (:math:`E a^{2m}=a_{\max}^{2m}/(2m+1)`): exact
      up to floating-point rounding.
    * ``"quadrature"`` (d = 1, setting (a)): Gauss–Legendre on :math:`a` with the per-system
      moments from :func:`theorycheck.gaussian.expect_product`; nodes doubled from 16 until the
      relative change is below ``rtol`` (both moments are polynomials of degree ≤ 6T in a, so
      3T + 1 nodes are already exact).
    * ``"rao-blackwell"`` (any prior): exact per-system moments (Isserlis on K) averaged over
      sampled systems, in batches of ``batch`` until the delta-method relative SE is below ``rtol``
      or ``n_systems`` systems (default 20 000) were used; ``se`` is the delta-method SE
      (:func:`theorycheck.montecarlo.ratio`).

    * ``"exact-components"`` (settings (a) and (c) with diagonal :math:`\Sigma_w`, any d): y is a
      sum of independent scalar components; the quadratic/cubic moment forms are expanded by
      multilinearity and independence into one-dimensional Gauss–Legendre averages (see
      ``_exact_components``): exact up to rounding, no sampling.

    * ``"coupling-rqmc"`` (setting (d)): exact over the eigenvalues and the noise, randomised quasi-Monte Carlo
      over the coupling matrix P (:func:`_nonnormal_wqk`): ``n_systems`` coupling matrices in scramblings of
      ``batch`` (rounded up to a power of two) Sobol points; ``se`` from the independent scramblings
      (``extra["batch_ratios"]``, Student t with replicates − 1 df); computed with one BLAS thread.

    ``"auto"``: polynomial, else exact-components (settings a, b, c), else coupling-rqmc (setting d), else
    Rao-Blackwell.
    """
    T = check_int("T", T, minimum=3, maximum=400)
    prior = check_prior(prior)
    rtol = check_real("rtol", rtol, 0.0, 1.0, low_open=True)
    check_choice("method", method, ("auto", "polynomial", "quadrature", "exact-components", "coupling-rqmc",
                                    "rao-blackwell"))
    seed = check_int("seed", seed, minimum=0)
    batch = check_int("batch", batch, minimum=2, maximum=MAX_COUNT)
    scalar_a = isinstance(prior, DiagonalLDSPrior) and type(prior) is DiagonalLDSPrior and prior.d == 1
    exact = _has_exact_route(prior)
    if method == "auto":
        method = "polynomial" if (scalar_a and _scalar_poly(T) is not None) else \
            "exact-components" if exact else "coupling-rqmc" if type(prior) is NonNormalLDSPrior else "rao-blackwell"
    if method == "coupling-rqmc":
        if type(prior) is not NonNormalLDSPrior:
            raise ValueError(f"method='coupling-rqmc' needs a NonNormalLDSPrior (setting d), got {prior!r}")
        total = 8 * 4096 if n_systems is None else check_int("n_systems", n_systems, minimum=4, maximum=MAX_COUNT)
        per = 2 ** max(1, int(math.ceil(math.log2(max(2, min(batch, total))))))
        reps = max(2, total // per)
        check_memory("batch", per, 8.0 * per * 17 * 3, f"{per} coupling matrices per replicate")
        r = _nonnormal_wqk(T, prior, per, reps, seed)
        v = r["values"]
        return WqkStar(float(v.mean()), float(v.std(ddof=1) / math.sqrt(v.size)), reps * r["points"],
                       "coupling-rqmc", T, float(r["N"].mean()), float(r["D"].mean()),
                       {"seed": seed, "batch": r["points"], "batch_ratios": v.tolist(), "replicates": reps,
                        "patterns": r["patterns"]})
    if method == "exact-components":
        if not exact:
            raise ValueError(f"method='exact-components' needs independent components (settings a, b, or c with "
                             f"diagonal Sigma_w), got {prior!r}")
        N, D = _exact_components(T, prior, None)
        return WqkStar(_ratio_or_raise(T, N, D, "wqk_star"), 0.0, 0, "exact-components", T, N, D,
                       {"nodes": 3 * T + 2})
    if method in ("polynomial", "quadrature") and not scalar_a:
        raise ValueError(f"method={method!r} needs a DiagonalLDSPrior with d = 1, got {prior!r}")
    if method == "polynomial":
        coef = _scalar_poly(T)
        if coef is None:
            raise ValueError(f"T must be in the generated range for method='polynomial', got {T}")
        if prior.a_max == 0:
            N, D = _poly_eval_moments(coef, 0.0, prior.sigma0, prior.sigma_w, prior.sigma_v)
            N, D = float(N), float(D)
        else:
            N, D = _poly_prior_average(coef, prior.a_max, prior.sigma0, prior.sigma_w, prior.sigma_v)
        return WqkStar(_ratio_or_raise(T, N, D, "wqk_star"), 0.0, 0, "polynomial", T, N, D)
    if method == "quadrature":
        prev = None
        nodes = 16
        while True:
            x, wts = np.polynomial.legendre.leggauss(nodes)
            a = prior.a_max * x
            Nn, Dn = wqk_star_moments(lds_autocovariance(_scalar_batch(prior, a), T))
            N, D = float(wts @ Nn) / 2, float(wts @ Dn) / 2
            val = _ratio_or_raise(T, N, D, "wqk_star")
            if prev is not None and abs(val - prev) <= rtol * abs(val):
                return WqkStar(val, 0.0, 0, "quadrature", T, N, D, {"nodes": nodes})
            if nodes > 6 * T + 64:
                raise RuntimeError("Gauss-Legendre quadrature did not converge")  # pragma: no cover
            prev = val
            nodes *= 2
    n_max = 20_000 if n_systems is None else check_int("n_systems", n_systems, minimum=2, maximum=MAX_COUNT)
    check_memory("batch", batch, 8.0 * min(batch, n_max) * (T * T + 3 * prior.d * prior.d) * 3,
                 f"the autocovariances of {min(batch, n_max)} systems")
    Ns, Ds = [], []
    used = 0
    rng_list = rngs(seed, math.ceil(n_max / batch))
    for g in rng_list:
        size = min(batch, n_max - used)
        if size <= 0:
            break
        if size < 2 and used == 0:
            size = 2
        Nb, Db = wqk_star_moments(lds_autocovariance(prior.sample(g, size), T))
        Ns.append(Nb)
        Ds.append(Db)
        used += size
        _ratio_or_raise(T, float(np.mean(np.concatenate(Ns))), float(np.mean(np.concatenate(Ds))), "wqk_star")
        if used >= 2:
            est = mc_ratio(np.concatenate(Ns), np.concatenate(Ds))
            if est.se <= rtol * abs(est.mean):
                break
    Nall, Dall = np.concatenate(Ns), np.concatenate(Ds)
    est = mc_ratio(Nall, Dall)
    # per-batch ratios (T-2) mean(N_b)/mean(D_b): for a batch-means standard error (heavy-tailed
    # per-system moments make the delta-method SE of the whole sample unreliable)
    batch_ratios = [(T - 2) * float(np.mean(n_)) / float(np.mean(d_)) for n_, d_ in zip(Ns, Ds)
                    if n_.size == batch]
    return WqkStar((T - 2) * est.mean, (T - 2) * est.se, Nall.size, "rao-blackwell", T,
                   float(Nall.mean()), float(Dall.mean()), {"seed": seed, "batch": batch,
                                                            "batch_ratios": batch_ratios})


def per_system_ratio_average(T: int, prior, n_systems: int = 20_000, seed: int = 0) -> MeanEstimate:
    r"""The *wrong* estimator :math:`E_{sys}[(T-2)N(A)/D(A)]` (average of per-system optimal
    scalars), with its Monte Carlo SE over sampled systems — for comparison with
    :func:`wqk_star`."""
    T = check_int("T", T, minimum=3, maximum=400)
    prior = check_prior(prior)
    n_systems = check_int("n_systems", n_systems, minimum=2, maximum=MAX_COUNT)
    vals = []
    left = n_systems
    for g in rngs(check_int("seed", seed, minimum=0), math.ceil(n_systems / 2000)):
        size = min(2000, left)
        N, D = wqk_star_moments(lds_autocovariance(prior.sample(g, size), T))
        if np.any(D <= 0):
            raise ValueError("per_system_ratio_average: a system has E[y_(T-1)^2 S^2] = 0 (y = 0)")
        vals.append((T - 2) * N / D)
        left -= size
    from .montecarlo import from_samples
    return from_samples(np.concatenate(vals), seed=seed)


def simulate_wqk_star(T: int, prior, samples: int, seed: int, batch: int = 20_000) -> WqkStar:
    r"""Plain trajectory Monte Carlo of :math:`W^*_{QK,11}`: sample a system and one trajectory per
    sample, run the attention with :math:`W_{QK}=e_1e_1^\top`, :math:`W_V=e_2e_2^\top`
    (so :math:`f=\hat y_T=y_{T-1}S/(T-2)`), and return the least-squares scalar
    :math:`E[y_Tf]/E[f^2]` (identical to the Theorem 4.1 ratio) with its delta-method SE."""
    T = check_int("T", T, minimum=3, maximum=400)
    prior = check_prior(prior)
    samples = check_int("samples", samples, minimum=2, maximum=MAX_COUNT)
    seed = check_int("seed", seed, minimum=0)
    batch = check_int("batch", batch, minimum=1, maximum=MAX_COUNT)
    check_memory("batch", batch, 8.0 * min(batch, samples) * (8 * T + 3 * prior.d * prior.d),
                 f"a batch of {min(batch, samples)} trajectories")
    Wq = np.array([[1.0, 0.0], [0.0, 0.0]])
    Wv = np.array([[0.0, 0.0], [0.0, 1.0]])
    num, den = [], []
    left = samples
    for g in rngs(seed, math.ceil(samples / batch)):
        size = min(batch, left)
        Y = prior.sample(g, size).simulate(T, g)
        f = attention_predict(Wq, Wv, Y)
        num.append(Y[:, -1] * f)
        den.append(f * f)
        left -= size
    if not np.any(np.concatenate(den) > 0):
        raise ValueError("simulate_wqk_star: every simulated feature is 0 (the prior gives y = 0); "
                         "sigma0, sigma_w, sigma_v must not all be 0")
    est = mc_ratio(np.concatenate(num), np.concatenate(den))
    return WqkStar(est.mean, est.se, samples, "trajectory-mc", T,
                   float(np.mean(np.concatenate(num))), float(np.mean(np.concatenate(den))),
                   {"seed": seed, "batch": batch})


def ar_gd_step_prediction(Y, s: int, eta: float) -> np.ndarray:
    r"""Prediction :math:`w_1^\top\bar y_{T-s}` after one GD step of size ``eta`` from
    :math:`w_0=0` on :math:`L_{AR(s)}(w)=\frac1{2(T-s-1)}\sum_{t=1}^{T-s-1}(y_{t+s}-w^\top\bar y_t)^2`.
    """
    s = check_int("s", s, minimum=1, maximum=10_000)
    Y = check_series(Y, s)
    eta = check_real("eta", eta)
    G, q = gram_query(Y, s)
    grad0 = -G[:, :s, s]                      # ∇L(0) = -(1/n) Σ ȳ_t y_{t+s}
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.einsum("bi,bi->b", -eta * grad0, q[:, :s])
    return check_finite_result(out, "the one-step GD prediction", eta=eta, s=s)


def ar_least_squares_predict(Y, s: int, ridge: float = 0.0) -> np.ndarray:
    r"""In-context AR(s) least squares: :math:`\hat w=\arg\min L_{AR(s)}(w)` (+ ``ridge``·|w|²/2)
    on :math:`y_1..y_{T-1}`, prediction :math:`\hat w^\top\bar y_{T-s}`."""
    s = check_int("s", s, minimum=1, maximum=10_000)
    Y = check_series(Y, s)
    ridge = check_real("ridge", ridge, 0.0, 1e150)
    G, q = gram_query(Y, s)
    H = G[:, :s, :s] + ridge * np.eye(s)
    b = G[:, :s, s]
    w = np.linalg.solve(H + 1e-12 * np.eye(s), b[..., None])[..., 0]
    return np.einsum("bi,bi->b", w, q[:, :s])


# ----------------------------------------------------------------------------- training


# ----------------------------------------------------------------------------- Lemma 4.1 parity
def parity_zero_pattern(s: int) -> np.ndarray:
    r"""Entries of the stationarity right-hand side :math:`R_{klj}=E[G_{kl}q_jy_T]` forced to zero
    by the central symmetry (shape (s, s+1, s+1), index ``[j-1, k-1, l-1]``, 1-based k, l, j).

    Under :math:`y_t\mapsto(-1)^ty_t`: :math:`G_{kl}\mapsto(-1)^{k+l}G_{kl}`,
    :math:`q_j=y_{T-s+j-1}\mapsto(-1)^{T-s+j-1}q_j`, :math:`y_T\mapsto(-1)^Ty_T`, so
    :math:`R_{klj}=(-1)^{k+l+j+s+1}R_{klj}` and :math:`R_{klj}=0` whenever :math:`k+l+j+s` is even:
    the checkerboard :math:`B_0` (zeros where k + l even) when s + j is even, :math:`B_1` (zeros
    where k + l odd) when s + j is odd.

    >>> parity_zero_pattern(1)[0].astype(int)
    array([[1, 0],
           [0, 1]])
    """
    s = check_int("s", s, minimum=1, maximum=64)
    k = np.arange(1, s + 2)
    j = np.arange(1, s + 1)
    return ((k[None, :, None] + k[None, None, :] + j[:, None, None] + s) % 2) == 0


def predicted_support(s: int, k0_parity: int | None = None):
    r"""Predicted support of the loss-relevant weights for the parity-structured stationary points:
    :math:`v` (last row of :math:`W_V`) supported on indices :math:`k\equiv k_0` (mod 2) and
    :math:`W_{QK}[:, :s]` on :math:`\{(l,j): l+j+k_0+s \text{ odd}\}` (1-based). ``k0_parity``
    defaults to the parity of :math:`s+1` (the Theorem 4.1 choice :math:`v=e_{s+1}`).
    Returns ``(support_v (s+1,), support_W (s+1, s))`` booleans.

    >>> sv, sw = predicted_support(1); sv.astype(int), sw.astype(int).ravel()
    (array([0, 1]), array([1, 0]))
    """
    s = check_int("s", s, minimum=1, maximum=64)
    k0 = (s + 1) % 2 if k0_parity is None else check_int("k0_parity", k0_parity, minimum=0, maximum=1)
    k = np.arange(1, s + 2)
    j = np.arange(1, s + 1)
    sv = (k % 2) == k0
    sw = ((k[:, None] + j[None, :] + k0 + s) % 2) == 1
    return sv, sw


def jaccard_distance(a, b) -> float:
    """:math:`1-|a\\cap b|/|a\\cup b|` of two boolean supports (0 if both are empty).

    >>> jaccard_distance([True, False, True], [True, True, False])
    0.6666666666666667
    """
    a = np.asarray(a, dtype=bool).ravel()
    b = np.asarray(b, dtype=bool).ravel()
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same size, got {a.size} and {b.size}")
    u = np.sum(a | b)
    return 0.0 if u == 0 else float(1 - np.sum(a & b) / u)


# ----------------------------------------------------------------------------- Kalman baseline


# ----------------------------------------------------------------------------- PCG reading
def pcg_quantities(W_QK, W_V, Y, preconditioner: str = "P", init: str = "residual") -> dict:
    r"""Reconstruction of the seed's Eqs. 16–18 for trained AR(s) weights, per sequence.

    Block structure (Eq. 16): :math:`G=\frac1n\sum_iz_iz_i^\top=\begin{pmatrix}H&-g_0\\-g_0^\top&\gamma
    \end{pmatrix}` with :math:`H=\nabla^2L_{AR(s)}`, :math:`g_0=\nabla L_{AR(s)}(0)`.
    Writing :math:`W_{QK}[:, :s]=\begin{pmatrix}\tilde W\\ p^\top\end{pmatrix}`,
    :math:`v=(q;v_{s+1})`, the attention predictor is :math:`\hat y=w_{att}^\top\bar y_{T-s}` with

    .. math:: w_{att}=P H q+\xi_1Pg_0+\xi_2p,\quad P=\tilde W^\top,\ \xi_1=-v_{s+1},\
              \xi_2=\gamma v_{s+1}-g_0^\top q .

    Two PCG steps on :math:`L_{AR(s)}` from 0 with preconditioned residual :math:`z=P r`
    (:math:`r=-\nabla L`), exact line search, Fletcher–Reeves-type
    :math:`\beta=r_1^\top z_1/r_0^\top z_0` give :math:`w_{PCG}\in\mathrm{span}\{Pg_0, PHPg_0\}`.
    Returns per-sequence arrays: ``cos_att_pcg`` (cos of :math:`w_{att}` and :math:`w_{PCG}`),
    ``cos_first_terms`` (cos of :math:`PHq` and :math:`PHPg_0`), ``cos_p_z0`` (cos of :math:`p` and
    the preconditioned residual at 0, :math:`-Pg_0`) and ``cos_p_z2`` (at :math:`w_{PCG}`), and
    ``cos_p_r0`` (cos of :math:`p` and :math:`-g_0`), ``cos_p_z1`` (after one step); the vectors themselves
    (``z0``, ``z1``, ``z2``, ``first_att`` = :math:`PHq`, ``first_pcg`` = :math:`PHPg_0`). ``preconditioner``
    chooses the matrix applied to residuals in the PCG steps: ``"P"`` (Eq. 18 as written, :math:`P^{-1}` the
    preconditioner, :math:`z=Pr`), ``"PT"`` (:math:`P^\top`), ``"Psym"`` (:math:`(P+P^\top)/2`) or ``"Pinv"``
    (:math:`z=P^{-1}r`: P itself the preconditioner) — the seed does not say how a non-symmetric P enters PCG.
    ``init`` is the first conjugate direction: ``"residual"`` (standard PCG, :math:`d_0=z_0`,
    Fletcher–Reeves :math:`\beta`) or ``"q"`` (the seed's variant "conjugate direction initialised
    at q": :math:`d_0=q`, then :math:`d_1=z_1+\beta d_0` made H-conjugate to :math:`d_0`,
    :math:`\beta=-z_1^\top Hd_0/d_0^\top Hd_0`); exact line search in both.
    """
    check_choice("preconditioner", preconditioner, ("P", "PT", "Psym", "Pinv"))
    check_choice("init", init, ("residual", "q"))
    W_QK, W_V, s = check_weights(W_QK, W_V)
    Y = check_series(Y, s)
    G, q = gram_query(Y, s)
    H = G[:, :s, :s]
    g0 = -G[:, :s, s]
    gam = G[:, s, s]
    Wt = W_QK[:s, :s]
    p = W_QK[s, :s]
    P = Wt.T
    qv = W_V[s, :s]
    vs = W_V[s, s]
    x = q[:, :s]
    xi1 = -vs
    xi2 = gam * vs - g0 @ qv
    Hq = np.einsum("bij,j->bi", H, qv)
    w_att = Hq @ P.T + xi1 * (g0 @ P.T) + xi2[:, None] * p[None, :]
    # two PCG steps from w = 0, preconditioner applied as z = Pc r
    if preconditioner == "Pinv":
        if not np.all(np.isfinite(P)) or abs(np.linalg.det(P)) <= 1e-300 or np.linalg.cond(P) > 1e12:
            raise ValueError("preconditioner 'Pinv' needs an invertible P = W_QK[:s, :s]ᵀ (condition number "
                             f"{np.linalg.cond(P):.3g})")
        Pc = np.linalg.inv(P)
    else:
        Pc = {"P": P, "PT": P.T, "Psym": 0.5 * (P + P.T)}[preconditioner]
    r0 = -g0
    z0 = r0 @ Pc.T
    d0 = z0 if init == "residual" else np.broadcast_to(qv, z0.shape).copy()
    Hd0 = np.einsum("bij,bj->bi", H, d0)
    def sdiv(a, b):       # a / b, 0 where b == 0 (PCG already converged)
        out = np.zeros_like(a)
        np.divide(a, b, out=out, where=np.abs(b) > 1e-300)
        return out
    rz0 = np.sum(r0 * z0, 1)
    dHd0 = np.sum(d0 * Hd0, 1)
    al0 = sdiv(np.sum(r0 * d0, 1), dHd0)          # exact line search along d0 (= rz0 / d0'Hd0 when d0 = z0)
    w1 = al0[:, None] * d0
    r1 = r0 - al0[:, None] * Hd0
    z1 = r1 @ Pc.T
    beta = sdiv(np.sum(r1 * z1, 1), rz0) if init == "residual" else -sdiv(np.sum(z1 * Hd0, 1), dHd0)
    d1 = z1 + beta[:, None] * d0
    Hd1 = np.einsum("bij,bj->bi", H, d1)
    rel = np.linalg.norm(r1, axis=1) <= 1e-12 * np.maximum(np.linalg.norm(r0, axis=1), 1e-300)
    al1 = np.where(rel, 0.0, sdiv(np.sum(r1 * d1, 1), np.sum(d1 * Hd1, 1)))
    w2 = w1 + al1[:, None] * d1
    r2 = r1 - al1[:, None] * Hd1
    z2 = r2 @ Pc.T

    def cos(u, w):
        nu = np.linalg.norm(u, axis=-1)
        nw = np.linalg.norm(w, axis=-1)
        return np.sum(u * w, -1) / np.maximum(nu * nw, 1e-300)

    PHPg = np.einsum("bij,bj->bi", H, g0 @ P.T) @ P.T
    pb = np.broadcast_to(p, w_att.shape)
    pred_att = np.einsum("bi,bi->b", w_att, x)
    return {"w_att": w_att, "w_pcg": w2, "w_pcg1": w1, "pred_att": pred_att, "g0": g0, "H": H, "P": P,
            "z0": z0, "z1": z1, "z2": z2, "r0": r0, "p": p, "first_att": Hq @ P.T, "first_pcg": PHPg,
            "cos_att_pcg": cos(w_att, w2), "cos_first_terms": cos(Hq @ P.T, PHPg),
            "cos_p_z0": cos(pb, z0), "cos_p_z1": cos(pb, z1), "cos_p_z2": cos(pb, z2), "cos_p_r0": cos(pb, r0)}


# ----------------------------------------------------------------------------- SymPy versions
def _check_sym_seq(name, y):
    import sympy as sp
    if isinstance(y, (str, bytes)) or not isinstance(y, (list, tuple, sp.MatrixBase)):
        raise ParameterTypeError(f"{name} must be a sequence of SymPy expressions (e.g. sym_observations(T)), got "
                                 f"{type(y).__name__}")
    out = []
    for i, v in enumerate(list(y)):
        try:
            e = sp.sympify(v, strict=True)
        except (sp.SympifyError, TypeError, ValueError):
            raise ParameterTypeError(f"{name}[{i}] must be a SymPy expression or a number, got {v!r:.40}") from None
        if e.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            raise ValueError(f"{name}[{i}] must be finite, got {e}")
        out.append(e)
    if not out:
        raise ValueError(f"{name} must not be empty")
    return tuple(out)


def _check_sym_matrix(name, M):
    import sympy as sp
    if not isinstance(M, sp.MatrixBase):
        raise ParameterTypeError(f"{name} must be a SymPy Matrix, got {type(M).__name__}")
    if any(e.has(sp.nan, sp.zoo, sp.oo, -sp.oo) for e in M):
        raise ValueError(f"{name} must have finite entries")
    return M


def sym_observations(T: int):
    """SymPy symbols ``y_1..y_T`` (real)."""
    import sympy as sp
    T = check_int("T", T, minimum=1, maximum=10_000)
    return sp.symbols(f"y_1:{T + 1}", real=True)


def sym_token_matrix(y, s: int):
    """SymPy :math:`Y_0` (same layout as :func:`token_matrix`)."""
    import sympy as sp
    y = _check_sym_seq("y", y)
    s = check_int("s", s, minimum=1, maximum=10_000)
    T = len(y)
    if T < s + 3:
        raise ValueError(f"y must have at least s + 3 = {s + 3} entries, got {T}")
    N = T - s
    return sp.Matrix(s + 1, N, lambda k, i: 0 if (k == s and i == N - 1) else y[i + k])


def sym_attention_forward(W_QK, W_V, Y0):
    r"""SymPy :math:`T_\theta(Y_0)=Y_0+\frac1nW_VY_0M(Y_0^\top W_{QK}Y_0)`, :math:`n=N-1`."""
    import sympy as sp
    Y0 = _check_sym_matrix("Y0", Y0)
    W_QK, W_V = _check_sym_matrix("W_QK", W_QK), _check_sym_matrix("W_V", W_V)
    D, N = Y0.shape
    if N < 2:
        raise ValueError(f"Y0 must have at least 2 columns (tokens and the query), got shape {Y0.shape}")
    for name, W in (("W_QK", W_QK), ("W_V", W_V)):
        if W.shape != (D, D):
            raise ValueError(f"{name} must be {D} x {D} (the token dimension of Y0), got shape {W.shape}")
    M = sp.diag(*([1] * (N - 1) + [0]))
    return Y0 + sp.Rational(1, N - 1) * W_V * Y0 * M * (Y0.T * W_QK * Y0)


def sym_ar_loss(y, s: int, w):
    r"""SymPy :math:`L_{AR(s)}(w)=\frac1{2(T-s-1)}\sum_{t=1}^{T-s-1}(y_{t+s}-w^\top\bar y_t)^2`."""
    import sympy as sp
    y = _check_sym_seq("y", y)
    T = len(y)
    s = check_int("s", s, minimum=1, maximum=max(1, T - 2))
    w = _check_sym_seq("w", w)
    if len(w) < s:
        raise ValueError(f"w must have at least s = {s} entries, got {len(w)}")
    n = T - s - 1
    return sp.Rational(1, 2 * n) * sum((y[t + s] - sum(w[k] * y[t + k] for k in range(s))) ** 2
                                       for t in range(n))


# ----------------------------------------------------------------------------- stationarity
def _feature_forms(T: int, s: int):
    """Quadratic-form matrices of n G_kl (k <= l, 1-based) and the query / target indices."""
    n = T - s - 1
    feats = []
    mats = {}
    for k in range(1, s + 2):
        for l in range(k, s + 2):
            mats[(k, l)] = gaussian.quadratic_form_matrix([(i + k - 1, i + l - 1) for i in range(n)], T)
    for j in range(1, s + 1):
        for k in range(1, s + 2):
            for l in range(k, s + 2):
                feats.append((k, l, j))
    qidx = {j: T - s + j - 2 for j in range(1, s + 1)}        # 0-based index of q_j = y_{T-s+j-1}
    return n, feats, mats, qidx


class _SharedIsserlisForms:
    """Isserlis forms ``K -> expect_product(K, *product) / divisor`` (batched K) sharing their evaluation: the first
    form of a group called on a given K evaluates every product of its group on that K with one
    :func:`theorycheck.gaussian.expect_products` call (one PSD validation of K); the other forms of the group then
    read their value for the same K (equal shape, strides and bytes) from a cache. Each value is computed exactly as
    ``expect_product`` computes it alone. The cache is dropped when its keys and values would exceed ``max_bytes``
    (and by :meth:`clear`). The key of a live array object seen before is found by its identity (a weak
    reference confirms it is the same object): the forms are only called, inside :func:`stationarity_moments`, on
    arrays that are never modified after they are built (autocovariances, and the arguments
    :func:`exact_component_average` builds)."""

    def __init__(self, max_bytes: float = 256e6):
        self.products: dict = {}        # group -> list of (linear, quadratic)
        self.cache: dict = {}           # (group, shape, strides, dtype, bytes of K) -> list of values
        self.keys: dict = {}            # id(K) -> (weak reference to K, its key (shape, strides, dtype, bytes))
        self.interned: dict = {}        # key -> the same key (one bytes object per content)
        self.size, self.max_bytes = 0, max_bytes

    def clear(self):
        self.cache.clear()
        self.keys.clear()
        self.interned.clear()
        self.size = 0

    def _key(self, K):
        seen = self.keys.get(id(K))
        if seen is not None and seen[0]() is K:
            return seen[1]
        kkey = (K.shape, K.strides, K.dtype.str, K.tobytes())      # same values and layout: same computation
        hit = self.interned.get(kkey)
        if hit is None:
            if self.size + K.nbytes > self.max_bytes:
                self.clear()
            hit = self.interned[kkey] = kkey
            self.size += K.nbytes
        try:
            self.keys[id(K)] = (weakref.ref(K), hit)
        except TypeError:               # an object without weak references: found by its contents every time
            pass
        return hit

    def form(self, group, product, divisor):
        """The form computing ``expect_product(K, *product) / divisor`` through the group ``group``."""
        prods = self.products.setdefault(group, [])
        prods.append(product)
        i = len(prods) - 1
        return lambda K: self._values(group, K)[i] / divisor

    def _values(self, group, K):
        K = np.asarray(K)
        key = (group, self._key(K))
        hit = self.cache.get(key)
        if hit is None:
            hit = gaussian.expect_products(K, self.products[group])
            nbytes = sum(np.asarray(v).nbytes for v in hit)
            if self.size + nbytes > self.max_bytes:
                self.clear()
                key = (group, self._key(K))
            self.cache[key] = hit
            self.size += nbytes
        return hit


def stationarity_moments(T: int, s: int, prior, gram: bool = False, method: str = "auto",
                         n_systems: int = 4000, seed: int = 0, antithetic: bool = False,
                         systems: LDSBatch | None = None) -> dict:
    r"""Exact moments of the features :math:`f_{klj}=G_{kl}q_j` (k ≤ l) of the attention output.

    ``R[j-1, k-1, l-1]`` :math:`=E[G_{kl}q_jy_T]` (the right-hand side of the stationarity
    condition; symmetric in k, l) and, with ``gram=True``, the Gram matrix
    :math:`E[f f^\top]` over the feature list ``features`` and :math:`E[y_T^2]`. Per system by
    Isserlis (:func:`theorycheck.gaussian.expect_product`); over the prior by
    :func:`exact_component_average` (``method="exact-components"``) or a Rao-Blackwellised average
    over ``n_systems`` sampled systems (``"rao-blackwell"``, returns ``R_se`` too). With
    ``antithetic=True`` every sampled system A is paired with -A (``n_systems`` pairs): the average
    is then over a finite, exactly centrally symmetric family of systems, so every moment that is odd
    under :math:`y_t\mapsto(-1)^ty_t` vanishes to rounding in the average. ``systems`` (an
    :class:`LDSBatch`) averages over exactly those systems instead of sampling (Rao-Blackwell route).
    """
    T = check_int("T", T, minimum=4, maximum=200)
    s = check_int("s", s, minimum=1, maximum=T - 3)
    prior = check_prior(prior)
    gram = check_bool("gram", gram)
    check_choice("method", method, ("auto", "exact-components", "rao-blackwell"))
    n, feats, mats, qidx = _feature_forms(T, s)
    e = np.eye(T)
    # every Isserlis form of one degree is evaluated on a given K by one expect_products call (one PSD validation
    # of K instead of one per form; the same per-form computation as expect_product)
    isserlis = _SharedIsserlisForms()
    forms = []
    for (k, l, j) in feats:
        forms.append((2, isserlis.form(2, ([e[qidx[j]], e[T - 1]], [mats[(k, l)]]), n)))
    pairs = []
    if gram:
        for a in range(len(feats)):
            for b in range(a, len(feats)):
                (k, l, j), (k2, l2, j2) = feats[a], feats[b]
                pairs.append((a, b))
                forms.append((3, isserlis.form(3, ([e[qidx[j]], e[qidx[j2]]], [mats[(k, l)], mats[(k2, l2)]]),
                                               n ** 2)))
        forms.append((1, lambda K: K[:, T - 1, T - 1]))
    if method == "auto":      # a given family of systems, or antithetic sampling, asks for the sampled average
        method = ("exact-components" if _has_exact_route(prior) and systems is None and antithetic is False
                  else "rao-blackwell")
    se = None
    if method == "exact-components":
        vals = np.array(exact_component_average(T, prior, forms))
    else:
        antithetic = check_bool("antithetic", antithetic)
        if systems is not None:
            if not isinstance(systems, LDSBatch) or len(systems) < 2:
                raise ValueError("systems must be an LDSBatch of at least 2 systems")
            batches = [systems.subset(slice(i, i + 2000)) for i in range(0, len(systems), 2000)]
            n_systems = len(systems)
        else:
            n_systems = check_int("n_systems", n_systems, minimum=2, maximum=MAX_COUNT)
            batches = (prior.sample(g, min(2000, n_systems - 2000 * b))
                       for b, g in enumerate(rngs(check_int("seed", seed, minimum=0), math.ceil(n_systems / 2000))))
        samples = []
        for sysm in batches:
            vals_ = [np.stack([np.atleast_1d(F(K)) for _, F in forms], axis=1)
                     for K in [lds_autocovariance(sy, T) for sy in ((sysm, sysm.negate()) if antithetic else (sysm,))]]
            samples.append(vals_[0] if len(vals_) == 1 else 0.5 * (vals_[0] + vals_[1]))   # a pair is one unit
            isserlis.clear()                            # this batch's K are not used again
        S = np.concatenate(samples)
        vals = S.mean(0)
        se = S.std(0, ddof=1) / math.sqrt(S.shape[0])
    R = np.zeros((s, s + 1, s + 1))
    Rse = np.zeros((s, s + 1, s + 1)) if se is not None else None
    for idx, (k, l, j) in enumerate(feats):
        R[j - 1, k - 1, l - 1] = R[j - 1, l - 1, k - 1] = vals[idx]
        if se is not None:
            Rse[j - 1, k - 1, l - 1] = Rse[j - 1, l - 1, k - 1] = se[idx]
    out = {"R": R, "R_se": Rse, "features": feats, "method": method, "n": n,
           "n_systems": None if method == "exact-components" else (2 * n_systems if antithetic else n_systems)}
    if gram:
        Gm = np.zeros((len(feats), len(feats)))
        for idx, (a, b) in enumerate(pairs):
            Gm[a, b] = Gm[b, a] = vals[len(feats) + idx]
        out["gram"] = Gm
        out["b"] = vals[:len(feats)]
        out["Eyy"] = float(vals[-1])
    return out


def stationarity_rhs(K, s: int) -> np.ndarray:
    r"""Per-system :math:`R_{klj}=E[G_{kl}q_jy_T\mid\text{system}]` from the autocovariance ``K``
    (B, T, T) by Isserlis; returns (B, s, s+1, s+1) indexed ``[b, j-1, k-1, l-1]``."""
    K = _check_K(K, 4)
    T = K.shape[-1]
    s = check_int("s", s, minimum=1, maximum=T - 3)
    n, feats, mats, qidx = _feature_forms(T, s)
    e = np.eye(T)
    R = np.zeros((K.shape[0], s, s + 1, s + 1))
    # one expect_products call: one PSD validation of K for all features (values as expect_product gives them)
    vals = gaussian.expect_products(K, [([e[qidx[j]], e[T - 1]], [mats[(k, l)]]) for (k, l, j) in feats])
    for (k, l, j), v in zip(feats, vals):
        val = np.atleast_1d(v) / n
        R[:, j - 1, k - 1, l - 1] = R[:, j - 1, l - 1, k - 1] = val
    return R



# ----------------------------------------------------------------------------- helpers of the paper's claims
def wqk_star_batch_mc(T: int, prior, n_batches: int, batch: int, seed: int, systems: LDSBatch | None = None) -> dict:
    r"""Trajectory Monte Carlo of the best scalar of the *actual* attention model along the
    Theorem 4.1 direction (:math:`W_{QK}=c\,e_1e_1^\top`, :math:`W_V=e_2e_2^\top`): per batch of
    ``batch`` fresh (system, trajectory) pairs, the least-squares scalar
    :math:`\sum_b y_Tf/\sum_b f^2` with :math:`f` the attention output at :math:`c=1`.

    Returns ``{"value": pooled ratio, "batch_values": per-batch ratios, "n": samples}`` — the batch
    values give a batch-means standard error (Student t, B − 1 df), robust to the heavy tails of the
    6th-order products (a delta-method SE over single samples is anti-conservative here). With
    ``systems`` (an :class:`LDSBatch`) every batch simulates one fresh trajectory of each of those
    systems instead of sampling systems from the prior: the target is then the ratio of expectations
    over that finite family (``batch`` is ignored).

    >>> r = wqk_star_batch_mc(6, DiagonalLDSPrior(1, 0.9, 1.0, 0.5, 0.3), 4, 500, 1)
    >>> len(r["batch_values"]), r["n"]
    (4, 2000)
    """
    T = check_int("T", T, minimum=3, maximum=400)
    prior = check_prior(prior)
    n_batches = check_int("n_batches", n_batches, minimum=2, maximum=MAX_COUNT)
    batch = check_int("batch", batch, minimum=2, maximum=MAX_COUNT)
    seed = check_int("seed", seed, minimum=0)
    per = batch if systems is None else (len(systems) if isinstance(systems, LDSBatch) else 0)
    check_memory("batch", batch, 8.0 * per * (8 * T + 3 * prior.d * prior.d), f"a batch of {per} trajectories")
    Wq = np.array([[1.0, 0.0], [0.0, 0.0]])
    Wv = np.array([[0.0, 0.0], [0.0, 1.0]])
    if systems is not None and not isinstance(systems, LDSBatch):
        raise ValueError(f"systems must be an LDSBatch or None, got {type(systems).__name__}")
    num, den = [], []
    for g in rngs(seed, n_batches):
        Y = (prior.sample(g, batch) if systems is None else systems).simulate(T, g)
        f = attention_predict(Wq, Wv, Y)
        num.append(float(np.sum(Y[:, -1] * f)))
        den.append(float(np.sum(f * f)))
    num, den = np.array(num), np.array(den)
    if np.any(den <= 0):
        raise ValueError("wqk_star_batch_mc: a batch has f = 0 everywhere (the prior gives y = 0)")
    per = batch if systems is None else len(systems)
    return {"value": float(num.sum() / den.sum()), "batch_values": num / den, "n": n_batches * per}


def autocovariance_batch_mc(systems: LDSBatch, T: int, entries, n_batches: int, per_batch: int, seed: int) -> dict:
    r"""Second moments :math:`E[y_iy_j]` (1-based ``entries``) of each system of ``systems``, exact
    (:func:`lds_autocovariance`) and by simulation: every batch simulates ``per_batch`` fresh trajectories of
    each system; per-batch, per-system averages for batch means. Returns ``{"exact": (n_systems·k,),
    "batch_values": (n_batches, n_systems·k)}`` in system-major order.

    >>> fam = DiagonalLDSPrior(2, 0.9, 1.0, 0.5, 0.3).sample(np.random.default_rng(0), 3)
    >>> r = autocovariance_batch_mc(fam, 6, [(5, 6), (6, 6)], 4, 100, 1)
    >>> r["batch_values"].shape, r["exact"].shape
    ((4, 6), (6,))
    """
    systems = check_systems(systems)
    T = check_int("T", T, minimum=1, maximum=MAX_T)
    n_batches = check_int("n_batches", n_batches, minimum=2, maximum=MAX_COUNT)
    per_batch = check_int("per_batch", per_batch, minimum=2, maximum=MAX_COUNT)
    check_memory("per_batch", per_batch, 8.0 * len(systems) * per_batch * (T + 3 * systems.d ** 2 + 2 * T * systems.d),
                 f"{per_batch} trajectories of each of {len(systems)} systems")
    if isinstance(entries, (str, bytes)) or not isinstance(entries, (list, tuple)) or not entries:
        raise ParameterTypeError(f"entries must be a non-empty list of 1-based (i, j) pairs, got {entries!r:.60}")
    ent = []
    for k, e in enumerate(entries):
        if not isinstance(e, (list, tuple)) or len(e) != 2:
            raise ParameterTypeError(f"entries[{k}] must be an (i, j) pair, got {e!r:.40}")
        ent.append((check_int(f"entries[{k}] row", e[0], minimum=1, maximum=T),
                    check_int(f"entries[{k}] column", e[1], minimum=1, maximum=T)))
    n = len(systems)
    K = lds_autocovariance(systems, T)
    rep = systems.subset(np.repeat(np.arange(n), per_batch))
    vals = []
    for g in rngs(check_int("seed", seed, minimum=0), n_batches):
        Y = rep.simulate(T, g).reshape(n, per_batch, T)
        vals.append([float(np.mean(Y[b, :, i - 1] * Y[b, :, j - 1])) for b in range(n) for i, j in ent])
    return {"exact": np.array([K[b, i - 1, j - 1] for b in range(n) for i, j in ent]), "batch_values": np.array(vals)}


def feature_vector(C: np.ndarray, features) -> np.ndarray:
    """The effective coefficients ``C`` (from :func:`effective_coefficients`) in the order of the
    feature list of :func:`stationarity_moments` (1-based ``(k, l, j)``, k ≤ l)."""
    C = check_array("C", C)
    if C.ndim != 3 or C.shape[0] != C.shape[1] or C.shape[2] != C.shape[0] - 1 or C.shape[2] < 1:
        raise ValueError(f"C must have shape (s+1, s+1, s), got {C.shape}")
    s = C.shape[2]
    feats = _check_features(features, s)
    return np.array([C[k - 1, l - 1, j - 1] for (k, l, j) in feats])


def _check_features(features, s: int) -> list:
    if isinstance(features, (str, bytes)) or not isinstance(features, (list, tuple)) or not features:
        raise ParameterTypeError(f"features must be a non-empty list of 1-based (k, l, j) triples, got "
                                 f"{features!r:.60}")
    out = []
    for f in features:
        if not isinstance(f, (list, tuple, np.ndarray)) or len(f) != 3:
            raise ParameterTypeError(f"features must hold 1-based (k, l, j) triples, got {f!r:.40}")
        k, l, j = (check_int("features entry", x) for x in f)
        if not (1 <= k <= l <= s + 1 and 1 <= j <= s):
            raise ValueError(f"features must be 1-based (k, l, j) with 1 <= k <= l <= {s + 1}, 1 <= j <= {s}; got {f}")
        out.append((k, l, j))
    return out


def _check_moments(moments) -> dict:
    if not isinstance(moments, dict) or any(k not in moments for k in ("features", "gram", "b", "Eyy")):
        raise ValueError("moments must be the dict of stationarity_moments(..., gram=True) (keys features, gram, b, Eyy)")
    n = len(moments["features"])
    if np.shape(moments["gram"]) != (n, n) or np.shape(moments["b"]) != (n,):
        raise ValueError(f"moments: gram must be {n}x{n} and b of length {n} for {n} features")
    return moments


def exact_halved_loss(W_QK, W_V, moments: dict) -> float:
    r"""Population halved loss :math:`\tfrac12E[(\hat y_T-y_T)^2]=\tfrac12(E y_T^2-2c^\top b+c^\top\Gamma c)`
    of the weights, with the exact feature moments ``moments`` (:func:`stationarity_moments` with
    ``gram=True``) and ``c`` their effective coefficients."""
    moments = _check_moments(moments)
    c = feature_vector(effective_coefficients(W_QK, W_V), moments["features"])
    return float(0.5 * (moments["Eyy"] - 2 * c @ moments["b"] + c @ moments["gram"] @ c))


def exact_loss_gradient(W_QK, W_V, moments: dict) -> tuple[np.ndarray, np.ndarray]:
    r"""Gradient of :func:`exact_halved_loss` with respect to ``W_QK`` and ``W_V``.

    The coefficients are bilinear in (v, W), so each is linear in W for fixed v and in v for fixed
    W; the Jacobians are built column by column from basis matrices (exact), and the gradient is
    :math:`J^\top(\Gamma c-b)`."""
    W_QK, W_V, s = check_weights(W_QK, W_V)
    F, Gm, b = _check_moments(moments)["features"], moments["gram"], moments["b"]
    c = feature_vector(effective_coefficients(W_QK, W_V), F)
    r = Gm @ c - b
    gW = np.zeros_like(W_QK)
    gV = np.zeros_like(W_V)
    for i in range(s + 1):
        for j in range(s + 1):
            E = np.zeros_like(W_QK)
            E[i, j] = 1.0
            gW[i, j] = feature_vector(effective_coefficients(E, W_V), F) @ r
            gV[i, j] = feature_vector(effective_coefficients(W_QK, E), F) @ r
    return gW, gV


def gd_step_weights(s: int, eta: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Weights whose forward pass is one step of *standard* gradient descent of size ``eta`` from
    :math:`w_0=0` on :math:`L_{AR(s)}`: :math:`W_{QK}=\eta\begin{pmatrix}I_s&0\\0&0\end{pmatrix}`,
    :math:`W_V=e_{s+1}e_{s+1}^\top` (prediction :math:`\eta\,\bar y_{T-s}^\top\tfrac1n\sum_t\bar y_ty_{t+s}`)."""
    s = check_int("s", s, minimum=1)
    eta = check_real("eta", eta)
    W = np.zeros((s + 1, s + 1))
    W[:s, :s] = eta * np.eye(s)
    V = np.zeros((s + 1, s + 1))
    V[s, s] = 1.0
    return W, V


def best_gd_step(s: int, moments: dict) -> tuple[float, float]:
    r"""The best step size of one standard GD step from 0 (exact 1-D least squares in the population
    loss) and its halved loss: ``(eta*, L(eta*))``."""
    moments = _check_moments(moments)
    W1, V1 = gd_step_weights(s, 1.0)
    phi = feature_vector(effective_coefficients(W1, V1), moments["features"])
    eta = float(phi @ moments["b"] / (phi @ moments["gram"] @ phi))
    W, V = gd_step_weights(s, eta)
    return eta, exact_halved_loss(W, V, moments)


def coefficient_inertia(c, features, s: int, rtol: float = 1e-9) -> dict:
    r"""For each query index j, the symmetric matrix :math:`S_j` (:math:`S_{kk}=c_{kkj}`,
    :math:`S_{kl}=c_{klj}/2`) and its numbers of positive / negative eigenvalues. Realisable
    coefficients have :math:`S_j=(vw^\top+wv^\top)/2` (at most one eigenvalue of each sign)."""
    s = check_int("s", s, minimum=1, maximum=64)
    features = _check_features(features, s)
    rtol = check_real("rtol", rtol, 0.0, 1.0)
    c = check_array("c", c, ndim=1)
    if c.shape != (len(features),):
        raise ValueError(f"c must have one entry per feature ({len(features)}), got shape {c.shape}")
    out = {}
    for j in range(1, s + 1):
        S = np.zeros((s + 1, s + 1))
        for (k, l, jj), ci in zip(features, c):
            if jj == j:
                if k == l:
                    S[k - 1, k - 1] = ci
                else:
                    S[k - 1, l - 1] = S[l - 1, k - 1] = ci / 2
        ev = np.linalg.eigvalsh(S)
        tol = rtol * np.max(np.abs(ev))
        out[j] = {"eigenvalues": ev, "n_pos": int(np.sum(ev > tol)), "n_neg": int(np.sum(ev < -tol))}
    return out


def support_jaccard(W_QK, W_V, threshold: float) -> dict:
    r"""Jaccard distance between the learned support of the loss-relevant weights (:math:`v` = last
    row of :math:`W_V`, :math:`W_{QK}[:, :s]`; an entry is in the support when its modulus exceeds
    ``threshold`` times the largest modulus of its block) and the Lemma 4.1 support
    (:func:`predicted_support`), the smaller over the two parity branches :math:`k_0`.

    >>> sv, sw = predicted_support(2); W = np.zeros((3, 3)); W[:, :2] = sw; V = np.zeros((3, 3)); V[2] = sv
    >>> support_jaccard(W, V, 0.1)["distance"]
    0.0
    """
    W_QK, W_V, s = check_weights(W_QK, W_V)
    threshold = check_real("threshold", threshold, 0.0, 1.0, low_open=True, high_open=True)
    v, W = np.abs(W_V[s]), np.abs(W_QK[:, :s])
    learned = np.concatenate([v > threshold * v.max(), (W > threshold * W.max()).ravel()])
    best = None
    for k0 in (0, 1):
        sv, sw = predicted_support(s, k0)
        jd = jaccard_distance(learned, np.concatenate([sv, sw.ravel()]))
        if best is None or jd < best["distance"]:
            best = {"distance": jd, "k0_parity": k0}
    return best


def offpattern_energy(W_QK, W_V) -> float:
    r"""Share :math:`\sum_{\rm zeros}C^2/\sum C^2` of the effective coefficients on the entries that
    the parity structure forces to zero (:func:`parity_zero_pattern`) — a threshold-free,
    loss-relevant measure of the distance from the Lemma 4.1 class."""
    C = effective_coefficients(W_QK, W_V)
    s = C.shape[2]
    z = np.transpose(parity_zero_pattern(s), (1, 2, 0))          # [k, l, j]
    iu = np.triu(np.ones((s + 1, s + 1), bool))[:, :, None] & np.ones(s, bool)[None, None, :]
    tot = float(np.sum(C[iu] ** 2))
    return 0.0 if tot == 0 else float(np.sum(C[iu & z] ** 2) / tot)


def ar_gaps(systems: LDSBatch, T: int, s_values) -> tuple[np.ndarray, np.ndarray]:
    r"""Kalman MSE per system (B,) and the gaps :math:`\mathrm{MSE}_{AR(s)}-\mathrm{MSE}_{KF}` of the
    oracle AR(s) predictors (B, len(s_values)), exact from the autocovariance (not halved)."""
    systems = check_systems(systems)
    T = check_int("T", T, minimum=2, maximum=400)
    if isinstance(s_values, (str, bytes)) or not hasattr(s_values, "__iter__"):
        raise ParameterTypeError(f"s_values must be a list of windows, got {s_values!r:.40}")
    s_values = [check_int("s_values entry", x, minimum=1, maximum=T - 1) for x in s_values]
    if not s_values:
        raise ValueError("s_values must not be empty")
    kf = kalman_one_step_mse(systems, T)
    gaps = np.stack([oracle_ar_mse(systems, T, int(s)) - kf for s in s_values], axis=1)
    return kf, gaps


def decay_exponents(gaps, s_values, rho, kf, rel_floor: float = 1e-10, min_points: int = 4) -> np.ndarray:
    r"""Per system, the slope of :math:`\log\mathrm{gap}(s)` against s (least squares over the s whose
    gap exceeds ``rel_floor`` times the Kalman MSE, at least ``min_points`` of them) divided by
    :math:`2\log\rho`: the decay exponent :math:`\kappa` with :math:`\mathrm{gap}\propto\rho^{2\kappa s}`
    (:math:`\kappa=1`: exactly the Tsiamis–Pappas rate; NaN where too few points are above the floor)."""
    gaps = check_array("gaps", gaps, ndim=2)
    sv = check_array("s_values", s_values, ndim=1)
    rho, kf = check_array("rho", rho, ndim=1), check_array("kf", kf, ndim=1)
    rel_floor = check_real("rel_floor", rel_floor, 0.0, 1.0)
    if gaps.ndim != 2 or gaps.shape[1] != sv.size or rho.shape != (gaps.shape[0],) or kf.shape != rho.shape:
        raise ValueError(f"gaps must be (B, len(s_values)) and rho, kf of length B; got {gaps.shape}, {sv.shape}, "
                         f"{rho.shape}, {kf.shape}")
    min_points = check_int("min_points", min_points, minimum=2, maximum=max(2, sv.size))
    out = np.full(gaps.shape[0], np.nan)
    for b in range(gaps.shape[0]):
        m = gaps[b] > rel_floor * kf[b]
        if m.sum() >= min_points and 0 < rho[b] < 1:
            slope = np.polyfit(sv[m], np.log(gaps[b, m]), 1)[0]
            out[b] = slope / (2 * math.log(rho[b]))
    return out
