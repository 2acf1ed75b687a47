r"""The a₁ = 0 branch of paper 004 (seed lines 154–164, App. C): when the teacher has no first Hermite
component, pretraining is ridge regression of a label without linear signal on :math:`p\simeq d^2` isotropic
features with :math:`n=\tau d^2` samples — the fixed point :math:`\chi_0`, the asymptotic risk (the boxed
Eq. (10) in its ridgeless limit) and the variance factor of pure-noise ridge regression (an independent route).
The SymPy derivation :mod:`theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero` is the reference: its
generated code (:mod:`theorycheck.papers.nonlinear.generated.nonlinear_a1_zero`: ``chi0``, ``lam_tilde``,
``risk_ridge``, ``risk_ridgeless_below/above``) is what the closed forms here are tested against
(the paper's ``tests/test_theory.py``, the self-checks of ``004-a1zero-fixed-point``); :func:`ridge_risk_pure_noise`
and the finite-p Wishart formula (:func:`~.appendix.pure_noise_ridgeless_exact`) are independent routes to the same risk.
Each public function validates its arguments once; :func:`pure_noise_error` takes a validated
:class:`~.setting.Setting` (the a₁ = 0 branch of Result 1 calls it).

>>> round(risk_a1_zero(0.5, 1.0), 12), round(risk_a1_zero(2.0, 1.0), 12)
(2.0, 2.0)
"""
from __future__ import annotations

import math

from ....validate import ParameterTypeError, check_real
from .setting import Setting, setting

__all__ = ["a1_zero_fixed_point", "risk_a1_zero", "pure_noise_error", "ridge_risk_pure_noise"]


def a1_zero_fixed_point(tau, q, lam) -> float:
    r""":math:`\chi_0>0` solving :math:`\chi_0=q/(q\tau/(1+\chi_0)+\tau\lambda)` (seed, App. C), for
    :math:`\lambda>0`; equivalently :math:`\chi_0=g/\tau` with :math:`g` the Marchenko–Pastur
    Stieltjes transform at ratio :math:`p/n=1/\tau` evaluated at :math:`\lambda/q`.

    Closed form (positive root of :math:`\tau\mu\chi^2+(\tau\mu+\tau-1)\chi-1=0`, :math:`\mu=\lambda/q`).

    >>> chi = a1_zero_fixed_point(0.5, 1.0, 0.1); abs(chi - 1/(0.5/(1+chi) + 0.05)) < 1e-12
    True
    """
    tau = check_real("tau", tau, low=0.0, low_open=True)
    q = check_real("q", q, low=0.0, low_open=True)
    lam = check_real("lam", lam, low=0.0, low_open=True)
    return _chi0(tau, q, lam)


def _chi0(tau: float, q: float, lam: float) -> float:
    """:func:`a1_zero_fixed_point` of validated arguments."""
    mu = lam / q
    a, b = tau * mu, tau * mu + tau - 1
    if a == 0.0:
        raise ValueError(f"lam/q underflows for lam = {lam!r}, q = {q!r}; χ₀ = q/(qτ/(1+χ₀) + τλ) is beyond the "
                         "floating range (λ → 0 is the limit of risk_a1_zero with lam = 0)")
    chi = (-b + math.sqrt(b * b + 4 * a)) / (2 * a) if b < 0 else 2.0 / (b + math.sqrt(b * b + 4 * a))
    if not math.isfinite(chi):
        raise ValueError(f"χ₀ overflows for tau = {tau!r}, q = {q!r}, lam = {lam!r} (lam/q too small); use a larger "
                         "lam or risk_a1_zero with lam = 0")
    return chi


def risk_a1_zero(tau, rho_nl, alpha=1.0, lam=0.0) -> float:
    r"""Asymptotic ICL error when :math:`a_1=0`: pure-noise ridge regression on
    :math:`p\simeq d^2` isotropic features with :math:`n=\tau d^2` samples.

    With :math:`q=\rho_{\rm nl}/\alpha`, :math:`\chi_0` from :func:`a1_zero_fixed_point`,
    :math:`\tilde\lambda=\lambda(1+\chi_0)` and :math:`\kappa_e=\tilde\lambda/q`:

    .. math:: e=\rho_{\rm nl}\Big(1+\frac{\tau^{-1}(1+\kappa_e)^{-2}}{1-\tau^{-1}(1+\kappa_e)^{-2}}\Big)
              =\rho_{\rm nl}\frac{\tau(1+\kappa_e)^2}{\tau(1+\kappa_e)^2-1}

    (the standard variance term :math:`\sigma^2\,\mathrm{df}_2/(n-\mathrm{df}_2)` of ridge regression
    with :math:`\mathrm{df}_2=p/(1+\kappa_e)^2`). :math:`\lambda=0`: :math:`\rho_{\rm nl}/(1-\tau)` for
    :math:`\tau<1`, :math:`\rho_{\rm nl}\tau/(\tau-1)` for :math:`\tau>1`, ``inf`` at :math:`\tau=1`.
    Ranges: those of :func:`~.setting.setting` (τ, α in [1e-8, 1e16]; ρ_nl, λ in [0, 1e16]).

    >>> round(risk_a1_zero(0.9, 1.0), 9)
    10.0
    """
    return pure_noise_error(setting(tau, alpha, math.inf, rho_nl, lam, rho_name="rho_nl"))


def pure_noise_error(s: Setting) -> float:
    """:func:`risk_a1_zero` of a validated :class:`~.setting.Setting` (``s.rho`` is ρ_nl; κ does not enter).

    >>> pure_noise_error(setting(2.0, 1.0, math.inf, 1.0))
    2.0
    """
    if not isinstance(s, Setting):
        raise ParameterTypeError(f"s must be a theory.setting.Setting (built by setting(...)), got {type(s).__name__}")
    tau, rho_nl, lam = s.tau, s.rho, s.lam
    if rho_nl == 0:
        return 0.0
    if lam == 0:
        if tau == 1:
            return math.inf
        return rho_nl / (1 - tau) if tau < 1 else rho_nl * tau / (tau - 1)
    q = rho_nl / s.alpha
    if q == 0.0:
        raise ValueError(f"rho_nl/alpha underflows (rho_nl = {rho_nl!r}, alpha = {s.alpha!r}); the ridge fixed point "
                         "needs q = rho_nl/alpha > 0")
    chi = _chi0(tau, q, lam)
    ke = lam * (1 + chi) / q
    # e = rho_nl / (1 - 1/t), t = tau (1 + ke)^2, evaluated without cancellation (t -> 1 at tau = 1,
    # lam -> 0) or overflow (ke -> inf):  1 - 1/t = ((tau - 1) + tau ke (2 + ke)) / t.
    u = 1.0 / (1.0 + ke)
    if ke < 1e-4:
        one_minus_inv_t = ((tau - 1) + tau * ke * (2 + ke)) * u * u / tau
    else:
        one_minus_inv_t = 1.0 - u * u / tau
    return rho_nl / one_minus_inv_t


def ridge_risk_pure_noise(gamma_ratio, mu) -> float:
    r"""Variance factor :math:`V=\frac1n\mathbb E\operatorname{tr}[S(S+\mu)^{-2}]\cdot n/n` of ridge
    regression on pure noise with isotropic features: :math:`e=\sigma^2(1+V)`,
    :math:`V=\gamma/((1+\kappa_e)^2-\gamma)`, :math:`\kappa_e(1-\gamma/(1+\kappa_e))=\mu`,
    :math:`\gamma=p/n`. Used to cross-check :func:`risk_a1_zero` (independent route).

    >>> round(ridge_risk_pure_noise(0.5, 0.0), 12)    # gamma<1, ridgeless: gamma/(1-gamma)
    1.0
    """
    gam = check_real("gamma_ratio", gamma_ratio, low=0.0, low_open=True)
    mu = check_real("mu", mu, low=0.0)
    if mu == 0:
        if gam == 1:
            return math.inf
        ke = 0.0 if gam < 1 else gam - 1
    else:
        # kappa^2 + (1 - gam - mu) kappa - mu = 0, positive root
        b = 1 - gam - mu
        ke = (-b + math.sqrt(b * b + 4 * mu)) / 2
    return gam / ((1 + ke) ** 2 - gam)
