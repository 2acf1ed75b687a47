r"""The ICL error of the reduced linear-attention predictor: the Marchenko–Pastur resolvent of the sample task
covariance, the linear teacher's :math:`e_{\rm ICL}` (isotropic tasks, any ridge; general covariances, ridgeless)
and Result 1, the nonlinear teacher reduced to a linear one.

Linear theory (isotropic, from the reference notes; re-checked here numerically)
------------------------------------------------------------------------------
:math:`q=(1+\rho)/\alpha`; :math:`M_\kappa(z)=\lim\frac1d\operatorname{tr}(\hat S+z)^{-1}` for the
sample task covariance (Marchenko–Pastur, ratio :math:`1/\kappa`). Ridge: :math:`\xi>0` solves
:math:`1-\tau+\tau\lambda/\xi-\xi M_\kappa(q+\xi)=0`, :math:`\nu=q+\xi`, then

.. math:: c_e=\frac{\rho+\nu-\nu^2m-\xi(1-2\nu m-\nu^2m')}{1-2\xi m-\xi^2m'-\tau},\quad
          e=1+\rho-2(1-\nu m)+(1+q)[1-2\nu m-\nu^2m'-c_e(m+\xi m')].

Ridgeless branches for :math:`\tau<1`, :math:`\tau>1` (see :func:`e_icl_linear`); general
covariance via Silverstein's deterministic equivalent (:func:`e_icl_linear_general`).

Result 1 (:func:`e_icl_nonlinear`): :math:`e^{\rm nl}(C,\rho)=e^{\rm lin}(a_1^2C,\rho_{\rm nl})`, by one of
the routes of :data:`RESULT1_ROUTES` (a table, not string branches). The **reference route**
(:data:`REFERENCE_ROUTE` = ``"rescale"``) rescales the labels by :math:`1/a_1` (tasks back to
:math:`\operatorname{tr}C/d=1`, noise :math:`\rho_{\rm nl}/a_1^2`, penalty :math:`\lambda/a_1^2` on the :math:`A`
block) and multiplies the isotropic closed form's MSE by :math:`a_1^2`; ``"covariance"`` evaluates the
covariance-scaled general formula with :math:`C=a_1^2I` (ridgeless), tested against the reference in
the paper's ``tests/test_theory.py`` and by the self-checks of ``004-result1``. When :math:`a_1=0` it is the a₁ = 0 branch,
:func:`~theorycheck.papers.nonlinear.theory.a1zero.risk_a1_zero`.

One quantity, several routes, one reference: the linear error at :math:`C=I` is the isotropic closed form
(:func:`e_icl_linear`, the reference) or the Silverstein general form (:func:`e_icl_linear_general`, tested against
it); the resolvent is the closed form :func:`mp_resolvent` (reference) or Silverstein's fixed point at
:math:`C=cI` (inside :func:`e_icl_linear_general`). Every public function validates its arguments once
(:func:`~.setting.setting`); the closed forms behind them take the validated :class:`~.setting.Setting`.

>>> round(e_icl_linear(2.0, 1e6, math.inf, 0.1), 4)     # tau=2, alpha→∞: ρ τ/(τ-1)
0.2
"""
from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq

from ....validate import check_array, check_choice, check_psd, check_real
from .a1zero import pure_noise_error
from .ranges import MAX_VALUE
from .setting import Setting, setting
from .teachers import rho_nonlinear, teacher_moments

__all__ = ["mp_resolvent", "e_icl_linear", "e_icl_linear_general", "e_icl_nonlinear", "RESULT1_ROUTES",
           "REFERENCE_ROUTE"]


# ------------------------------------------------------------------------------------------------
# Marchenko–Pastur resolvent of the sample task covariance
# ------------------------------------------------------------------------------------------------
def mp_resolvent(z: float, kappa: float, c: float = 1.0) -> tuple[float, float]:
    r"""``(M, M')`` with :math:`M_\kappa(z)=\lim\frac1d\operatorname{tr}(\hat S+z)^{-1}`,
    :math:`\hat S=\frac1k\sum_{j\le k}w_jw_j^\top`, :math:`w_j\sim\mathcal N(0,cI_d)`, :math:`k=\kappa d`;
    :math:`M'=dM/dz`.

    :math:`M=2/(z+c-c/\kappa+\sqrt{(z+c-c/\kappa)^2+4cz/\kappa})`; :math:`\kappa=\infty`: :math:`1/(c+z)`.

    >>> M, dM = mp_resolvent(0.5, 2.0); abs(M - 1/(0.5 + 1/(1 + M/2))) < 1e-14
    True
    """
    z = check_real("z", z, low=0.0, low_open=True)
    kappa = check_real("kappa", kappa, low=0.0, low_open=True, allow_inf=True)
    c = check_real("c", c, low=0.0, low_open=True)
    return _resolvent(z, kappa, c)


def _resolvent(z: float, kappa: float, c: float = 1.0) -> tuple[float, float]:
    """:func:`mp_resolvent` of validated arguments."""
    if math.isinf(kappa):
        return 1.0 / (c + z), -1.0 / (c + z) ** 2
    b = z + c - c / kappa
    r = math.sqrt(b * b + 4 * c * z / kappa)
    M = 2.0 / (b + r)
    dM = -0.5 * M * M * (1.0 + (z + c + c / kappa) / r)
    return M, dM


# ------------------------------------------------------------------------------------------------
# isotropic linear e_ICL
# ------------------------------------------------------------------------------------------------
def _finite(v: float, what: str) -> float:
    if math.isnan(v):
        raise ValueError(f"{what} is numerically unstable for these parameters (got nan)")
    return v


def _ridge_xi(tau, q, kappa, lam):
    def F(xi):
        return 1 - tau + tau * lam / xi - xi * _resolvent(q + xi, kappa)[0]
    lo, hi = 1e-300, 1.0
    while F(hi) > 0:
        hi *= 2
        if hi > 1e12:
            raise ValueError("ridge fixed point not bracketed (lam too large?)")
    lo = min(hi / 2, 1.0)
    while F(lo) < 0:
        lo /= 2
        if lo < 1e-300:
            raise ValueError("ridge fixed point not bracketed (lam too small; use lam=0)")
    return brentq(F, lo, hi, xtol=1e-300, rtol=4 * np.finfo(float).eps, maxiter=500)


def e_icl_linear(tau, alpha, kappa, rho, lam=0.0) -> float:
    r"""Asymptotic ICL test MSE of the reduced linear-attention predictor, linear teacher,
    isotropic tasks :math:`C=I` (:math:`\operatorname{tr}C/d=1`).

    Parameters: ``tau`` :math:`=n/d^2>0`, ``alpha`` :math:`=\ell/d>0`, ``kappa`` :math:`=k/d>0`
    (``math.inf`` allowed), ``rho`` :math:`\ge0` noise variance, ``lam`` :math:`\ge0` ridge.

    :math:`\lambda>0`: ridge formula (module docstring). :math:`\lambda=0`, with
    :math:`q=(1+\rho)/\alpha`, :math:`m^*=M_\kappa(q)`, :math:`\mu^*=qM_{\kappa/\tau}(q)`:

    * :math:`\tau<1`: :math:`\frac{\tau(1+q)}{1-\tau}[1-\tau(1-\mu^*)^2+\mu^*(\rho/q-1)]-2\tau(1-\mu^*)+1+\rho`,
    * :math:`\tau>1`: :math:`(1+q)[1-2qm^*-q^2m^{*\prime}+m^*\frac{\rho+q-q^2m^*}{\tau-1}]-2(1-qm^*)+1+\rho`,
    * :math:`\tau=1`: ``math.inf`` (interpolation peak).

    >>> round(e_icl_linear(2.0, 2.0, math.inf, 0.1), 10) == round((0.1 + 0.55/1.55) * 2, 10)
    True
    """
    return _linear_error(setting(tau, alpha, kappa, rho, lam))


def _linear_error(s: Setting) -> float:
    """:func:`e_icl_linear` of a validated setting (the reference route of the linear error at C = I)."""
    tau, alpha, kappa, rho, lam = s.tau, s.alpha, s.kappa, s.rho, s.lam
    q = (1 + rho) / alpha
    if lam > 0:
        xi = _ridge_xi(tau, q, kappa, lam)
        nu = q + xi
        m, dm = _resolvent(nu, kappa)
        ce = (rho + nu - nu * nu * m - xi * (1 - 2 * nu * m - nu * nu * dm)) / ((1 - tau) - 2 * xi * m - xi * xi * dm)   # (1 - tau) first: no cancellation at tau = 1
        return _finite(1 + rho - 2 * (1 - nu * m) + (1 + q) * (1 - 2 * nu * m - nu * nu * dm - ce * (m + xi * dm)),
                       "e_icl_linear")
    if tau == 1.0:
        return math.inf
    if tau < 1:
        mu = q * _resolvent(q, kappa / tau)[0]
        return _finite(tau * (1 + q) / (1 - tau) * (1 - tau * (1 - mu) ** 2 + mu * (rho / q - 1))
                       - 2 * tau * (1 - mu) + 1 + rho, "e_icl_linear")
    m, dm = _resolvent(q, kappa)
    return _finite((1 + q) * (1 - 2 * q * m - q * q * dm + m * (rho + q - q * q * m) / (tau - 1))
                   - 2 * (1 - q * m) + 1 + rho, "e_icl_linear")


# ------------------------------------------------------------------------------------------------
# general covariance (ridgeless), Silverstein deterministic equivalent
# ------------------------------------------------------------------------------------------------
def _as_cov(name, C, d=None):
    """A validated covariance: a 1-D array of eigenvalues (diagonal covariance, kept 1-D: no d×d matrix is formed)
    or a d×d PSD matrix; ``d`` the size it must have."""
    a = check_array(name, C, ndim=(1, 2))
    if a.ndim == 1:
        if not np.all(np.isfinite(a)) or np.any(a < 0):
            raise ValueError(f"{name} (eigenvalues) must be finite and non-negative")
    else:
        a = check_psd(name, a)
    if a.shape[0] == 0:
        raise ValueError(f"{name} must be at least 1x1")
    if d is not None and a.shape[0] != d:
        shape = f"({d},) eigenvalues or ({d}, {d})"
        raise ValueError(f"{name} must have shape {shape}, got {a.shape}")
    return a


def _train_eigenbasis(Ctr: np.ndarray, Cte: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(eigenvalues of C_train, diagonal of C_test in C_train's eigenbasis)``: all the general form needs (it
    only takes traces of C_test against functions of C_train). Diagonal inputs (1-D) are their own eigenbasis."""
    if Ctr.ndim == 1:
        return np.clip(Ctr, 0.0, None), (Cte if Cte.ndim == 1 else np.diag(Cte).copy())
    evals, V = np.linalg.eigh(Ctr)
    te = np.sum(V * V * Cte[:, None], axis=0) if Cte.ndim == 1 else np.sum(V * (Cte @ V), axis=0)
    return np.clip(evals, 0.0, None), te


def _silverstein(z, evals, kappa):
    """M(z) = (1/d) tr (S_hat + z)^{-1} and M'(z) for k = kappa d draws of N(0, diag(evals))."""
    d = evals.size
    if math.isinf(kappa):
        return float(np.mean(1 / (evals + z))), float(-np.mean(1 / (evals + z) ** 2)), 0.0
    k = kappa * d

    def F(delta):
        return delta - np.sum(evals / (evals / (1 + delta) + z)) / k

    hi = 1.0
    while F(hi) < 0:
        hi *= 2
    delta = brentq(F, 0.0, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps)
    D = evals / (1 + delta) + z
    A = np.sum(evals / D ** 2) / k
    B = np.sum(evals ** 2 / ((1 + delta) ** 2 * D ** 2)) / k
    ddelta = -A / (1 - B)
    M = float(np.mean(1 / D))
    dM = float(-np.mean((1 - evals * ddelta / (1 + delta) ** 2) / D ** 2))
    return M, dM, delta


def e_icl_linear_general(tau, alpha, kappa, rho, C_train, C_test, alpha_test=None) -> float:
    r"""Ridgeless asymptotic ICL error for task covariances ``C_train``, ``C_test`` (d×d PSD,
    or 1-D eigenvalue arrays for diagonal covariances), linear teacher (arXiv 2509.26551 form).

    :math:`\rho_{tr}=\operatorname{tr}C_{tr}/d+\rho`, :math:`\rho_{te}=\operatorname{tr}C_{te}/d+\rho`,
    :math:`q=\rho_{tr}/\alpha`; :math:`M,M'` from Silverstein's fixed point
    :math:`\delta=\frac1k\operatorname{tr}[C_{tr}(C_{tr}/(1+\delta)+z)^{-1}]`,
    :math:`M(z)=\frac1d\operatorname{tr}(C_{tr}/(1+\delta)+z)^{-1}`. :math:`\xi=0` if :math:`\tau>1`,
    else :math:`\xi M(q+\xi)=1-\tau`; :math:`\nu=q+\xi`;
    :math:`F=[(1-\frac1\kappa+\frac\nu\kappa M)C_{tr}+\nu I]^{-1}`,
    :math:`F_2=F[(\frac M\kappa+\frac\nu\kappa M')C_{tr}+I]F`,
    :math:`c=\frac{\rho+\nu-\nu^2M-\xi(1-2\nu M-\nu^2M')}{\tau-(1-2\xi M-\xi^2M')}`,

    .. math:: e=\rho+\frac{\rho_{te}}{\alpha}[1+(c-2\nu)M+(\xi c-\nu^2)M']+c\,\tfrac1d\operatorname{tr}(C_{te}F)
              -(c\xi-\nu^2)\tfrac1d\operatorname{tr}(C_{te}F_2).

    At :math:`C=I` this is a second route to :func:`e_icl_linear` (the reference), tested against it.

    >>> I = np.ones(50)
    >>> abs(e_icl_linear_general(2.0, 2.0, 3.0, 0.1, I, I) - e_icl_linear(2.0, 2.0, 3.0, 0.1)) < 1e-10
    True
    """
    s = setting(tau, alpha, kappa, rho)
    alpha_test = s.alpha if alpha_test is None else check_real("alpha_test", alpha_test, low=0.0, low_open=True)
    Ctr = _as_cov("C_train", C_train)
    return _general_error(s, Ctr, _as_cov("C_test", C_test, Ctr.shape[0]), alpha_test)


def _general_error(s: Setting, Ctr: np.ndarray, Cte: np.ndarray, alpha_test: float) -> float:
    """:func:`e_icl_linear_general` of a validated setting and validated covariances (1-D eigenvalues or d×d)."""
    tau, alpha, kappa, rho = s.tau, s.alpha, s.kappa, s.rho
    d = Ctr.shape[0]
    if tau == 1.0:
        return math.inf
    evals, te = _train_eigenbasis(Ctr, Cte)
    rho_tr = float(np.sum(evals)) / d + rho
    rho_te = float(np.sum(te)) / d + rho
    q = rho_tr / alpha

    def M_of(z):
        return _silverstein(z, evals, kappa)

    if tau < 1:
        xi = brentq(lambda x: x * M_of(q + x)[0] - (1 - tau), 1e-14, 1e8, xtol=1e-15, rtol=1e-15)
    else:
        xi = 0.0
    nu = q + xi
    M, dM, _ = M_of(nu)
    kinv = 0.0 if math.isinf(kappa) else 1.0 / kappa
    f_diag = 1.0 / ((1 - kinv + nu * kinv * M) * evals + nu)
    f2_diag = f_diag * ((M * kinv + nu * kinv * dM) * evals + 1) * f_diag
    c = (rho + nu - nu * nu * M - xi * (1 - 2 * nu * M - nu * nu * dM)) / (tau - (1 - 2 * xi * M - xi * xi * dM))
    trF = float(np.sum(te * f_diag)) / d
    trF2 = float(np.sum(te * f2_diag)) / d
    return float(rho + rho_te / alpha_test * (1 + (c - 2 * nu) * M + (xi * c - nu * nu) * dM)
                 + c * trF - (c * xi - nu * nu) * trF2)


# ------------------------------------------------------------------------------------------------
# Result 1: a table of routes, one reference
# ------------------------------------------------------------------------------------------------
#: d of the covariance-scaled route's isotropic C = a₁²I (the Silverstein form at C = cI does not depend on d)
COVARIANCE_ROUTE_D = 400


def _rescale_route(s: Setting, a1sq: float, rho_nl: float) -> float:
    r"""Labels divided by :math:`a_1`: :math:`a_1^2\,e^{\rm lin}_{C=I}(\tau,\alpha,\kappa,\rho_{\rm nl}/a_1^2,
    \lambda/a_1^2)` — the :math:`\lambda/a_1^2` is exact for the :math:`A` block (the :math:`b` block, :math:`d` of
    :math:`d(d+1)` parameters, would take :math:`\lambda/a_1^4`; it does not enter the leading order)."""
    noise = rho_nl / a1sq
    if noise > MAX_VALUE:
        raise ValueError(f"f: a₁² = {a1sq:.3g} is too small for the rescaled route (ρ_nl/a₁² = {noise:.3g} beyond "
                         f"{MAX_VALUE:g}); the teacher is numerically an a₁ = 0 teacher")
    return a1sq * _linear_error(s.replace(rho=noise, lam=s.lam / a1sq))


def _covariance_route(s: Setting, a1sq: float, rho_nl: float) -> float:
    r""":func:`e_icl_linear_general` with :math:`C_{\rm train}=C_{\rm test}=a_1^2I` and noise :math:`\rho_{\rm nl}`
    (covariance-scaled resolvent; ridgeless only)."""
    if s.lam != 0:
        raise ValueError("method='covariance' is implemented for lam = 0 only")
    C = np.diag(np.full(COVARIANCE_ROUTE_D, a1sq))
    return _general_error(s.replace(rho=rho_nl), C, C, s.alpha)


#: The routes of Result 1: name -> ``route(setting, a₁², ρ_nl)``; :data:`REFERENCE_ROUTE` is the reference, the
#: others are tested against it.
RESULT1_ROUTES = {"rescale": _rescale_route, "covariance": _covariance_route}
REFERENCE_ROUTE = "rescale"


def e_icl_nonlinear(f, tau, alpha, kappa, rho, lam=0.0, method=REFERENCE_ROUTE) -> float:
    r"""Result 1: :math:`e^{\rm nl}=e^{\rm lin}(a_1^2C,a_1^2C,\rho_{\rm nl})` for isotropic tasks;
    if :math:`a_1=0`: :func:`~.a1zero.risk_a1_zero` with :math:`\rho_{\rm nl}=\rho_f`.

    ``method``: a route of :data:`RESULT1_ROUTES`. ``"rescale"`` (the reference, any λ ≥ 0): labels divided by
    :math:`a_1`, :math:`a_1^2\,e^{\rm lin}_{C=I}(\tau,\alpha,\kappa,\rho_{\rm nl}/a_1^2,\lambda/a_1^2)`;
    ``"covariance"`` (λ = 0 only): :func:`e_icl_linear_general` with :math:`C=a_1^2I`; the two agree.

    >>> a = e_icl_nonlinear("sin", 2.0, 2.0, 2.0, 0.1)
    >>> b = e_icl_nonlinear("sin", 2.0, 2.0, 2.0, 0.1, method="covariance")
    >>> abs(a - b) < 1e-9
    True
    """
    s = setting(tau, alpha, kappa, rho, lam)
    route = RESULT1_ROUTES[check_choice("method", method, tuple(sorted(RESULT1_ROUTES)))]
    mom = teacher_moments(f)
    a1 = float(mom["a1"])
    rnl = float(rho_nonlinear(f, s.rho))
    if (mom["exact"] and mom["a1"] == 0) or abs(a1) < 1e-25:
        return pure_noise_error(s.replace(rho=rnl))
    return route(s, a1 * a1, rnl)
