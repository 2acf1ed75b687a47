r"""The Isserlis moments of Theorem 4.1 and their exact prior averages (paper 001).

Per system, :math:`N=E[y_{T-1}y_TS]` and :math:`D=E[y_{T-1}^2S^2]`, :math:`S=\sum_{i=1}^{T-2}y_iy_{i+1}=y^\top My`
(:func:`lag1_matrix`), are Gaussian moments of the autocovariance K (:func:`wqk_star_moments`, Isserlis through
:func:`theorycheck.gaussian.expect_products`); :math:`W^*_{QK,11}=(T-2)E[N]/E[D]` (:func:`wqk_ratio`).

Over the prior, :func:`exact_component_average` averages any form homogeneous of degree 1, 2 or 3 in K exactly for
the priors whose output is a sum of scalar AR(1) components with independent eigenvalues — settings (a), (c) with
diagonal :math:`\Sigma_w`, the control priors, and setting (b) through its exchangeable-component form (Haar Q makes
:math:`Qc` uniform on the sphere).

>>> from theorycheck.models.dynamics import DiagonalLDSPrior
>>> Nf, Df = moment_functions(6)
>>> N, D = exact_component_average(6, DiagonalLDSPrior(2, 0.9, 1.0, 0.5, 0.3), [(2, Nf), (3, Df)])
>>> bool(N > 0 and D > 0)
True
"""
from __future__ import annotations

import numpy as np

from .... import gaussian
from ....models.dynamics import (MAX_T, AnisotropicNoiseLDSPrior, DiagonalLDSPrior, LDSBatch, OneSidedDiagonalLDSPrior,
                                 OrthogonalLDSPrior, SkewedDiagonalLDSPrior, check_prior, lds_autocovariance)
from ....validate import ParameterTypeError, check_array, check_callable, check_finite_result, check_int, check_memory

__all__ = ["lag1_matrix", "wqk_star_moments", "exact_component_average"]


def lag1_matrix(T: int) -> np.ndarray:
    r"""Symmetric :math:`M` with :math:`y^\top My=\sum_{i=1}^{T-2}y_iy_{i+1}` (T x T)."""
    T = check_int("T", T, minimum=3, maximum=MAX_T)
    check_memory("T", T, 8.0 * T * T, f"the {T} x {T} matrix")
    return gaussian.quadratic_form_matrix([(i, i + 1) for i in range(T - 2)], T)


def wqk_star_moments(K: np.ndarray):
    r"""Exact per-system :math:`N=E[y_{T-1}y_TS]` and :math:`D=E[y_{T-1}^2S^2]` (Isserlis on K,
    via :func:`theorycheck.gaussian.expect_product`); ``K`` (B, T, T) → two arrays (B,)."""
    K = check_autocovariances(K, 3)
    T = K.shape[-1]
    N, D = gaussian.expect_products(K, list(_wqk_factors(T)))    # one PSD validation for both
    return np.atleast_1d(N), np.atleast_1d(D)


def check_autocovariances(K, t_min: int) -> np.ndarray:
    """A batch (B, T, T) of autocovariances (a single (T, T) is promoted), T >= ``t_min``; PSD is checked by the
    Isserlis engine. (The check of the public functions taking ``K``.)"""
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


def moment_functions(T):
    """The forms ``K -> N(K)`` (degree 2) and ``K -> D(K)`` (degree 3) of :func:`wqk_star_moments`, one at a time
    (arguments of :func:`exact_component_average`). A helper: ``T`` is trusted (3 <= T <= 400)."""
    (lin_n, quad_n), (lin_d, quad_d) = _wqk_factors(T)

    def Nf(K):
        return np.atleast_1d(gaussian.expect_product(K, linear=lin_n, quadratic=quad_n))

    def Df(K):
        return np.atleast_1d(gaussian.expect_product(K, linear=lin_d, quadratic=quad_d))
    return Nf, Df


def wqk_ratio(T, N, D, where):
    """:math:`W^*_{QK,11}=(T-2)N/D` of prior-averaged moments N, D, with a clear error (naming ``where``) when the
    moments are not finite or D = 0 (the prior gives y = 0). A helper: ``T`` is trusted."""
    if not (np.isfinite(N) and np.isfinite(D)):
        raise ValueError(f"{where}: the moments are not finite (N = {N}, D = {D}); check the prior's variances")
    if D <= 0:
        raise ValueError(f"{where}: E[y_(T-1)^2 S^2] = 0, the ratio is 0/0 — the prior gives y = 0 "
                         "(sigma0, sigma_w, sigma_v must not all be 0)")
    return (T - 2) * N / D


# ----------------------------------------------------------------------------- exact prior averages
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
            return _polarised(f, _polarisation_arguments(P, Q))
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


def has_exact_route(prior) -> bool:
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
    out = _independent_average(T, prior, forms, laws)
    return [_finite(v, "exact_component_average", T=T, prior=prior) for v in out]


def _independent_average(T, prior, forms, laws) -> list:
    """The expansions of :func:`exact_component_average` over independent components (``laws``), form by form."""
    wts, comps = _component_nodes(T, prior, laws)
    Mtot = sum(m * mult for _, m, mult in comps)
    # the arguments of the forms, built once and passed to every form (the same arrays each time, so forms that
    # cache by their argument see the same values): Mtot[None], per component m[None], and the five arguments
    # (2X + Y, 2X, X + Y, X, Y) of each polarisation Ft(X, Y) below, only when a form of degree 3 asks for them
    Mt1 = Mtot[None]
    m1s = [m[None] for _, m, _ in comps]
    ft_args: dict = {}

    def polar(key, X, Y):                  # key = (component index, 0 | 1): the arguments by their position
        hit = ft_args.get(key)
        if hit is None:
            hit = ft_args[key] = _polarisation_arguments(X, Y)
        return hit
    out = []
    for deg, F in forms:

        def f1(K):
            return np.atleast_1d(F(K))
        if deg == 1:
            out.append(float(f1(Mt1)[0]))
        elif deg == 2:
            out.append(_degree2_average(f1, wts, comps, m1s, Mt1))
        else:
            out.append(_degree3_average(f1, wts, comps, m1s, Mtot, Mt1, polar))
    return out


def _degree2_average(f1, wts, comps, m1s, Mt1) -> float:
    r""":math:`\sum_k E F(X_k) + F(M) - \sum_k F(m_k)` (each component counted with its multiplicity)."""
    tot = float(f1(Mt1)[0])
    for (X, m, mult), m1 in zip(comps, m1s):
        eF = float(f1(m1)[0]) if X is None else float(wts @ f1(X))
        tot += mult * (eF - float(f1(m1)[0]))
    return tot


def _degree3_average(f1, wts, comps, m1s, Mtot, Mt1, polar) -> float:
    r""":math:`\sum_k E F(X_k) + 3\sum_k E\tilde F(X_k,X_k,M-m_k) + F(M) - 3\sum_k\tilde F(m_k,m_k,M)
    + 2\sum_kF(m_k)`, :math:`\tilde F` by polarisation on the arguments ``polar`` builds once."""

    def Ft(args):          # F~(X, X, Y) by polarisation, args = polar(·, X, Y)
        return _polarised(f1, args)
    tot = float(f1(Mt1)[0])
    for c, ((X, m, mult), m1) in enumerate(zip(comps, m1s)):
        if X is None:
            eF, eFt = float(f1(m1)[0]), float(Ft(polar((c, 0), m1, Mtot - m))[0])
        else:
            eF, eFt = float(wts @ f1(X)), float(wts @ Ft(polar((c, 0), X, Mtot - m)))
        tot += mult * (eF + 3 * eFt - 3 * float(Ft(polar((c, 1), m1, Mtot))[0]) + 2 * float(f1(m1)[0]))
    return tot


def _polarisation_arguments(X, Y) -> tuple:
    """The five arguments ``(2X + Y, 2X, X + Y, X, Y)`` of :func:`_polarised` (Y broadcast to X's shape)."""
    Y = np.broadcast_to(Y, X.shape)
    return (2 * X + Y, 2 * X, X + Y, X, Y)


def _polarised(f, args):
    r"""The symmetric trilinear form of a cubic form f at (X, X, Y) by polarisation,
    :math:`\tilde F(X,X,Y)=[F(2X+Y)-F(2X)-2F(X+Y)+2F(X)+F(Y)]/6`, from ``args`` =
    :func:`_polarisation_arguments` (X, Y) — the one polarisation of both exact prior averages.

    >>> cube = lambda K: np.atleast_1d(np.sum(K) ** 3)
    >>> float(_polarised(cube, _polarisation_arguments(np.ones((1, 1)), 2 * np.ones((1, 1))))[0])   # 1·1·2
    2.0
    """
    return (f(args[0]) - f(args[1]) - 2 * f(args[2]) + 2 * f(args[3]) + f(args[4])) / 6


def _finite(v, what, **inputs) -> float:
    return float(check_finite_result(v, what, **inputs))
