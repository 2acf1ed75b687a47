r"""The mathematics of paper 004: linear attention with nonlinear (single-index) teachers — Hermite reduction,
:math:`e_{\rm ICL}`, simulation of the actual model.

Setting (seed 004, same as the linear theory of Lu, Letey, Zavatone-Veth, Maiti & Pehlevan,
arXiv 2405.11751)
------------------------------------------------------------------------------------------------
* inputs :math:`x\sim\mathcal N(0,I_d/d)`; labels :math:`y=f(x^\top w)+\varepsilon`,
  :math:`\operatorname{Var}\varepsilon=\rho` (a *variance*);
* tasks :math:`w\sim\mathcal N(0,C)`, :math:`\operatorname{tr}C=d` (isotropic: :math:`C=I_d`);
  ``normalize_tasks=True`` instead rescales every task to :math:`\|w\|^2=d` (the authors'
  simulation protocol);
* context length :math:`\ell=\alpha d`, :math:`k=\kappa d` distinct pretraining tasks assigned
  round-robin to the :math:`n=\tau d^2` pretraining prompts (:math:`\kappa=\infty`: a fresh task
  per prompt);
* statistics :math:`u=\frac d\ell\sum_i y_ix_i`, :math:`s=\frac1\ell\sum_i y_i^2`, features
  :math:`H=x_{\rm test}[u^\top,s]\in\mathbb R^{d\times(d+1)}`, prediction
  :math:`\hat y=\langle\Gamma,H\rangle_F=x_{\rm test}^\top(Au+sb)`;
* :math:`\Gamma` by ridge regression with penalty :math:`\frac nd\lambda\|\Gamma\|_F^2` on the
  *unhalved* squared loss :math:`\sum_\mu(y^\mu_{\rm test}-\langle\Gamma,H^\mu\rangle)^2`;
  :math:`\lambda=0` means the minimum-norm least-squares solution (its :math:`\lambda\to0^+` limit);
* :math:`e_{\rm ICL}` is the test MSE :math:`\mathbb E[(y_{\rm test}-\hat y)^2]` on fresh tasks
  (label noise included, *not* halved), :math:`d\to\infty` at fixed :math:`\alpha,\kappa,\tau`.
* Hermite conventions of :mod:`theorycheck.hermite` (orthonormal probabilists'):
  :math:`a_m=\mathbb E[f(g)h_m(g)]`, :math:`\rho_f=\rho+\mathbb E[f^2]`,
  :math:`\rho_{\rm nl}=\rho+\sum_{m\ne1}a_m^2=\rho_f-a_1^2` (includes :math:`m=0`).

Modules, by area
----------------
* :mod:`.teachers` — the teachers, their Hermite moments, :math:`\rho_f`, :math:`\rho_{\rm nl}`, Result 1's
  surrogate linear teacher, the label moments of Appendix B;
* :mod:`.setting` — the validated point (τ, α, κ, ρ, λ) the closed forms take (:func:`setting` validates once);
* :mod:`.icl` — the Marchenko–Pastur resolvent, the linear :math:`e_{\rm ICL}` (isotropic and general task
  covariances) and Result 1 (:func:`e_icl_nonlinear`; its routes :data:`RESULT1_ROUTES`, reference
  :data:`REFERENCE_ROUTE`);
* :mod:`.a1zero` — the a₁ = 0 branch: fixed point :math:`\chi_0`, risk, pure-noise ridge variance;
* :mod:`.simulate` — the actual model: :func:`simulate_icl_sweep`, :func:`simulate_icl`,
  :func:`simulate_teachers`, :class:`SimResult`;
* :mod:`.appendix` — Appendix-B moment samples, rank-r floors, pure-noise regression samples;
* :mod:`.extrapolate` — finite-size extrapolation (exploration only);
* :mod:`.ranges` — the supported parameter ranges.

Every public name of these modules is importable from here (and, for the names of earlier versions, from
:mod:`theorycheck.nonlinear`).

>>> round(float(rho_nonlinear("sin", 0.1)), 6)
0.164453
"""
from .a1zero import a1_zero_fixed_point, pure_noise_error, ridge_risk_pure_noise, risk_a1_zero
from .appendix import (appendix_b_samples, pure_noise_ridge_samples, pure_noise_ridgeless_exact, rank_floor_samples,
                       rank_floor_sin)
from .extrapolate import extrapolate, extrapolate_models
from .icl import REFERENCE_ROUTE, RESULT1_ROUTES, e_icl_linear, e_icl_linear_general, e_icl_nonlinear, mp_resolvent
from .setting import Setting, setting
from .simulate import WORK_BUDGET, SimResult, simulate_icl, simulate_icl_sweep, simulate_teachers
from .teachers import (G, TEACHERS, label_moments, polynomial_expectation, rho_f, rho_nonlinear, surrogate_teacher,
                       teacher, teacher_key, teacher_moments)

__all__ = ["G", "TEACHERS", "teacher", "teacher_key", "teacher_moments", "rho_f", "rho_nonlinear",
           "surrogate_teacher", "label_moments", "polynomial_expectation",
           "Setting", "setting",
           "mp_resolvent", "e_icl_linear", "e_icl_linear_general", "e_icl_nonlinear", "RESULT1_ROUTES",
           "REFERENCE_ROUTE",
           "a1_zero_fixed_point", "risk_a1_zero", "pure_noise_error", "ridge_risk_pure_noise",
           "SimResult", "WORK_BUDGET", "simulate_icl_sweep", "simulate_icl", "simulate_teachers",
           "appendix_b_samples", "rank_floor_sin", "rank_floor_samples", "pure_noise_ridgeless_exact",
           "pure_noise_ridge_samples",
           "extrapolate", "extrapolate_models"]
