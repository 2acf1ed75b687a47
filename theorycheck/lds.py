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
:math:`U` strictly upper triangular with i.i.d. :math:`\mathcal N(0,1)` entries.
All are centrally symmetric (:math:`A` and :math:`-A` equally likely), hence the mixture law of
:math:`(y_t)` is invariant under :math:`y_t\mapsto(-1)^t y_t`.

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

import math
from dataclasses import dataclass, field

import numpy as np

from . import gaussian
from .montecarlo import MeanEstimate, ratio as mc_ratio, rngs
from .models.attention import (_check_weights, _check_Y, _gram_query, attention_forward, attention_loss_and_grad,
                               attention_predict, effective_coefficients, token_matrix)
from .models.dynamics import (SETTINGS, AnisotropicNoiseLDSPrior, DiagonalLDSPrior, LDSBatch, NonNormalLDSPrior,
                              OneSidedDiagonalLDSPrior, OrthogonalLDSPrior, _check_prior, lds_autocovariance,
                              make_prior, simulate_lds)
from .models.filters import kalman_one_step_mse, oracle_ar_mse, steady_state_closed_loop_radius
from .models.training import TrainResult, train_linear_attention
from .validate import check_bool, check_choice, check_int, check_real

__all__ = [
    "LDSBatch", "DiagonalLDSPrior", "OneSidedDiagonalLDSPrior", "OrthogonalLDSPrior", "AnisotropicNoiseLDSPrior",
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
    T = check_int("T", T, minimum=3)
    return gaussian.quadratic_form_matrix([(i, i + 1) for i in range(T - 2)], T)


def wqk_star_moments(K: np.ndarray):
    r"""Exact per-system :math:`N=E[y_{T-1}y_TS]` and :math:`D=E[y_{T-1}^2S^2]` (Isserlis on K,
    via :func:`theorycheck.gaussian.expect_product`); ``K`` (B, T, T) → two arrays (B,)."""
    K = np.asarray(K, dtype=float)
    if K.ndim == 2:
        K = K[None]
    T = K.shape[-1]
    if T < 3:
        raise ValueError(f"K must be at least 3 x 3 (T >= 3), got T = {T}")
    N, D = gaussian.expect_products(K, list(_wqk_factors(T)))    # one PSD validation for both
    return np.atleast_1d(N), np.atleast_1d(D)


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
    if type(prior) in (DiagonalLDSPrior, OneSidedDiagonalLDSPrior):
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
    x, wts = np.polynomial.legendre.leggauss(3 * T + 2)
    lo, hi = prior.eigenvalue_interval
    a = lo + (hi - lo) * (x + 1) / 2          # uniform law on [lo, hi]: weights wts / 2
    comps = []       # (X at the nodes (G,T,T) or None, mean (T,T), multiplicity)
    for sw, mult in laws:
        sysm = LDSBatch(a.reshape(-1, 1, 1), np.ones((a.size, 1)), np.full((a.size, 1, 1), sw ** 2),
                        prior.sigma0, 0.0)
        X = lds_autocovariance(sysm, T)
        comps.append((X, np.einsum("g,gij->ij", wts / 2, X), mult))
    V = prior.sigma_v ** 2 * np.eye(T)
    comps.append((None, V, 1))
    return wts / 2, comps


def exact_component_average(T: int, prior, forms) -> list[float]:
    r"""Exact prior averages :math:`E_{sys}[F(K)]` of forms homogeneous of degree 1, 2 or 3 in the
    autocovariance K, for priors whose output is a sum of independent scalar components
    (setting (a); setting (c) with diagonal :math:`\Sigma_w`).

    ``forms`` is a list of ``(degree, F)`` with ``F`` mapping a batch (B, T, T) to (B,) and
    homogeneous of that degree (e.g. an Isserlis moment of that order / 2). With
    :math:`K=\sum_kX_k` (:math:`X_0=\sigma_v^2I` deterministic, :math:`X_k` the autocovariance of
    component k, a function of its own :math:`a_k`), :math:`m_k=EX_k`, :math:`M=\sum_km_k`, and
    the symmetric multilinear forms of F, independence gives

    * degree 1: :math:`F(M)`;
    * degree 2: :math:`\sum_k E F(X_k) + F(M) - \sum_k F(m_k)`;
    * degree 3: :math:`\sum_k E F(X_k) + 3\sum_k E\tilde F(X_k,X_k,M-m_k) + F(M)
      - 3\sum_k\tilde F(m_k,m_k,M) + 2\sum_kF(m_k)`,

    with the polarisation :math:`\tilde F(X,X,Y)=[F(2X+Y)-F(2X)-2F(X+Y)+2F(X)+F(Y)]/6`. The
    one-dimensional averages over :math:`a_k\sim U[-a_{\max},a_{\max}]` use Gauss–Legendre with
    3T + 2 nodes, exact because every integrand is a polynomial of degree ≤ 6T in :math:`a_k`.
    The eigenvalue law is uniform on the prior's ``eigenvalue_interval`` (:math:`[-a_{\max},a_{\max}]`,
    or :math:`[0,a_{\max}]` for the one-sided control prior :class:`OneSidedDiagonalLDSPrior`).
    """
    T = check_int("T", T, minimum=1)
    laws = _component_laws(_check_prior(prior))
    if laws is None:
        raise ValueError(f"prior must have independent scalar components (setting a, or c with diagonal "
                         f"Sigma_w), got {prior!r}")
    wts, comps = _component_nodes(T, prior, laws)
    Mtot = sum(m * mult for _, m, mult in comps)
    out = []
    for deg, F in forms:
        check_int("degree", deg, minimum=1, maximum=3)

        def f1(K):
            return np.atleast_1d(F(K))
        if deg == 1:
            out.append(float(f1(Mtot[None])[0]))
            continue
        if deg == 2:
            tot = float(f1(Mtot[None])[0])
            for X, m, mult in comps:
                eF = float(f1(m[None])[0]) if X is None else float(wts @ f1(X))
                tot += mult * (eF - float(f1(m[None])[0]))
            out.append(tot)
            continue

        def Ft(X, Y):
            Y = np.broadcast_to(Y, X.shape)
            return (f1(2 * X + Y) - f1(2 * X) - 2 * f1(X + Y) + 2 * f1(X) + f1(Y)) / 6
        tot = float(f1(Mtot[None])[0])
        for X, m, mult in comps:
            if X is None:
                eF, eFt = float(f1(m[None])[0]), float(Ft(m[None], Mtot - m)[0])
            else:
                eF, eFt = float(wts @ f1(X)), float(wts @ Ft(X, Mtot - m))
            tot += mult * (eF + 3 * eFt - 3 * float(Ft(m[None], Mtot)[0]) + 2 * float(f1(m[None])[0]))
        out.append(tot)
    return out


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

    ``"auto"``: polynomial, else exact-components when the components are independent, else
    Rao-Blackwell.
    """
    T = check_int("T", T, minimum=3, maximum=400)
    prior = _check_prior(prior)
    rtol = check_real("rtol", rtol, 0.0, 1.0, low_open=True)
    check_choice("method", method, ("auto", "polynomial", "quadrature", "exact-components", "rao-blackwell"))
    seed = check_int("seed", seed, minimum=0)
    batch = check_int("batch", batch, minimum=2)
    scalar_a = isinstance(prior, DiagonalLDSPrior) and type(prior) is DiagonalLDSPrior and prior.d == 1
    laws = _component_laws(prior)
    if method == "auto":
        method = "polynomial" if (scalar_a and _scalar_poly(T) is not None) else \
            "exact-components" if laws is not None else "rao-blackwell"
    if method == "exact-components":
        if laws is None:
            raise ValueError(f"method='exact-components' needs independent components (setting a, or c with "
                             f"diagonal Sigma_w), got {prior!r}")
        N, D = _exact_components(T, prior, laws)
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
    n_max = 20_000 if n_systems is None else check_int("n_systems", n_systems, minimum=2)
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
    prior = _check_prior(prior)
    n_systems = check_int("n_systems", n_systems, minimum=2)
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
    prior = _check_prior(prior)
    samples = check_int("samples", samples, minimum=2)
    seed = check_int("seed", seed, minimum=0)
    batch = check_int("batch", batch, minimum=1)
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
    s = check_int("s", s, minimum=1)
    Y = _check_Y(Y, s)
    eta = check_real("eta", eta)
    G, q = _gram_query(Y, s)
    grad0 = -G[:, :s, s]                      # ∇L(0) = -(1/n) Σ ȳ_t y_{t+s}
    w1 = -eta * grad0
    return np.einsum("bi,bi->b", w1, q[:, :s])


def ar_least_squares_predict(Y, s: int, ridge: float = 0.0) -> np.ndarray:
    r"""In-context AR(s) least squares: :math:`\hat w=\arg\min L_{AR(s)}(w)` (+ ``ridge``·|w|²/2)
    on :math:`y_1..y_{T-1}`, prediction :math:`\hat w^\top\bar y_{T-s}`."""
    s = check_int("s", s, minimum=1)
    Y = _check_Y(Y, s)
    ridge = check_real("ridge", ridge, 0.0)
    G, q = _gram_query(Y, s)
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
    ``cos_p_r0`` (cos of :math:`p` and :math:`-g_0`). ``preconditioner`` chooses the matrix applied
    to residuals in the PCG steps: ``"P"`` (Eq. 18 as written), ``"PT"`` (:math:`P^\top`) or ``"Psym"``
    (:math:`(P+P^\top)/2`) — the seed does not say how a non-symmetric P enters PCG.
    ``init`` is the first conjugate direction: ``"residual"`` (standard PCG, :math:`d_0=z_0`,
    Fletcher–Reeves :math:`\beta`) or ``"q"`` (the seed's variant "conjugate direction initialised
    at q": :math:`d_0=q`, then :math:`d_1=z_1+\beta d_0` made H-conjugate to :math:`d_0`,
    :math:`\beta=-z_1^\top Hd_0/d_0^\top Hd_0`); exact line search in both.
    """
    check_choice("preconditioner", preconditioner, ("P", "PT", "Psym"))
    check_choice("init", init, ("residual", "q"))
    W_QK, W_V, s = _check_weights(W_QK, W_V)
    Y = _check_Y(Y, s)
    G, q = _gram_query(Y, s)
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
            "cos_att_pcg": cos(w_att, w2), "cos_first_terms": cos(Hq @ P.T, PHPg),
            "cos_p_z0": cos(pb, z0), "cos_p_z2": cos(pb, z2), "cos_p_r0": cos(pb, r0)}


# ----------------------------------------------------------------------------- SymPy versions
def sym_observations(T: int):
    """SymPy symbols ``y_1..y_T`` (real)."""
    import sympy as sp
    T = check_int("T", T, minimum=1)
    return sp.symbols(f"y_1:{T + 1}", real=True)


def sym_token_matrix(y, s: int):
    """SymPy :math:`Y_0` (same layout as :func:`token_matrix`)."""
    import sympy as sp
    s = check_int("s", s, minimum=1)
    T = len(y)
    if T < s + 3:
        raise ValueError(f"y must have at least s + 3 = {s + 3} entries, got {T}")
    N = T - s
    return sp.Matrix(s + 1, N, lambda k, i: 0 if (k == s and i == N - 1) else y[i + k])


def sym_attention_forward(W_QK, W_V, Y0):
    r"""SymPy :math:`T_\theta(Y_0)=Y_0+\frac1nW_VY_0M(Y_0^\top W_{QK}Y_0)`, :math:`n=N-1`."""
    import sympy as sp
    N = Y0.shape[1]
    M = sp.diag(*([1] * (N - 1) + [0]))
    return Y0 + sp.Rational(1, N - 1) * W_V * Y0 * M * (Y0.T * W_QK * Y0)


def sym_ar_loss(y, s: int, w):
    r"""SymPy :math:`L_{AR(s)}(w)=\frac1{2(T-s-1)}\sum_{t=1}^{T-s-1}(y_{t+s}-w^\top\bar y_t)^2`."""
    import sympy as sp
    T = len(y)
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
    prior = _check_prior(prior)
    gram = check_bool("gram", gram)
    check_choice("method", method, ("auto", "exact-components", "rao-blackwell"))
    n, feats, mats, qidx = _feature_forms(T, s)
    e = np.eye(T)
    forms = []
    for (k, l, j) in feats:
        forms.append((2, lambda K, k=k, l=l, j=j: gaussian.expect_product(
            K, linear=[e[qidx[j]], e[T - 1]], quadratic=[mats[(k, l)]]) / n))
    pairs = []
    if gram:
        for a in range(len(feats)):
            for b in range(a, len(feats)):
                (k, l, j), (k2, l2, j2) = feats[a], feats[b]
                pairs.append((a, b))
                forms.append((3, lambda K, k=k, l=l, j=j, k2=k2, l2=l2, j2=j2: gaussian.expect_product(
                    K, linear=[e[qidx[j]], e[qidx[j2]]], quadratic=[mats[(k, l)], mats[(k2, l2)]]) / n ** 2))
        forms.append((1, lambda K: K[:, T - 1, T - 1]))
    laws = _component_laws(prior)
    if method == "auto":
        method = "exact-components" if laws is not None else "rao-blackwell"
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
            n_systems = check_int("n_systems", n_systems, minimum=2)
            batches = (prior.sample(g, min(2000, n_systems - 2000 * b))
                       for b, g in enumerate(rngs(check_int("seed", seed, minimum=0), math.ceil(n_systems / 2000))))
        samples = []
        for sysm in batches:
            vals_ = [np.stack([np.atleast_1d(F(K)) for _, F in forms], axis=1)
                     for K in [lds_autocovariance(sy, T) for sy in ((sysm, sysm.negate()) if antithetic else (sysm,))]]
            samples.append(vals_[0] if len(vals_) == 1 else 0.5 * (vals_[0] + vals_[1]))   # a pair is one unit
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
    K = np.asarray(K, dtype=float)
    if K.ndim == 2:
        K = K[None]
    T = K.shape[-1]
    s = check_int("s", s, minimum=1, maximum=T - 3)
    n, feats, mats, qidx = _feature_forms(T, s)
    e = np.eye(T)
    R = np.zeros((K.shape[0], s, s + 1, s + 1))
    for (k, l, j) in feats:
        val = np.atleast_1d(gaussian.expect_product(K, linear=[e[qidx[j]], e[T - 1]], quadratic=[mats[(k, l)]])) / n
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
    prior = _check_prior(prior)
    n_batches = check_int("n_batches", n_batches, minimum=2)
    batch = check_int("batch", batch, minimum=2)
    seed = check_int("seed", seed, minimum=0)
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
    if not isinstance(systems, LDSBatch):
        raise ValueError(f"systems must be an LDSBatch, got {type(systems).__name__}")
    T = check_int("T", T, minimum=1)
    n_batches = check_int("n_batches", n_batches, minimum=2)
    per_batch = check_int("per_batch", per_batch, minimum=2)
    ent = [(check_int("entry row", i, minimum=1, maximum=T), check_int("entry column", j, minimum=1, maximum=T))
           for i, j in entries]
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
    C = np.asarray(C, dtype=float)
    if C.ndim != 3 or C.shape[0] != C.shape[1] or C.shape[2] != C.shape[0] - 1:
        raise ValueError(f"C must have shape (s+1, s+1, s), got {C.shape}")
    s = C.shape[2]
    for f in features:
        k, l, j = f
        if not (1 <= k <= l <= s + 1 and 1 <= j <= s):
            raise ValueError(f"features must be 1-based (k, l, j) with 1 <= k <= l <= {s + 1}, 1 <= j <= {s}; got {f}")
    return np.array([C[k - 1, l - 1, j - 1] for (k, l, j) in features])


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
    W_QK, W_V, s = _check_weights(W_QK, W_V)
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
    s = check_int("s", s, minimum=1)
    c = np.asarray(c, dtype=float)
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
    W_QK, W_V, s = _check_weights(W_QK, W_V)
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
    kf = kalman_one_step_mse(systems, T)
    gaps = np.stack([oracle_ar_mse(systems, T, int(s)) - kf for s in s_values], axis=1)
    return kf, gaps


def decay_exponents(gaps, s_values, rho, kf, rel_floor: float = 1e-10, min_points: int = 4) -> np.ndarray:
    r"""Per system, the slope of :math:`\log\mathrm{gap}(s)` against s (least squares over the s whose
    gap exceeds ``rel_floor`` times the Kalman MSE, at least ``min_points`` of them) divided by
    :math:`2\log\rho`: the decay exponent :math:`\kappa` with :math:`\mathrm{gap}\propto\rho^{2\kappa s}`
    (:math:`\kappa=1`: exactly the Tsiamis–Pappas rate; NaN where too few points are above the floor)."""
    gaps = np.asarray(gaps, dtype=float)
    sv = np.asarray(s_values, dtype=float)
    rho, kf = np.asarray(rho, dtype=float), np.asarray(kf, dtype=float)
    if gaps.ndim != 2 or gaps.shape[1] != sv.size or rho.shape != (gaps.shape[0],) or kf.shape != rho.shape:
        raise ValueError(f"gaps must be (B, len(s_values)) and rho, kf of length B; got {gaps.shape}, {sv.shape}, "
                         f"{rho.shape}, {kf.shape}")
    min_points = check_int("min_points", min_points, minimum=2)
    out = np.full(gaps.shape[0], np.nan)
    for b in range(gaps.shape[0]):
        m = gaps[b] > rel_floor * kf[b]
        if m.sum() >= min_points and 0 < rho[b] < 1:
            slope = np.polyfit(sv[m], np.log(gaps[b, m]), 1)[0]
            out[b] = slope / (2 * math.log(rho[b]))
    return out
