"""Re-export: the theory of paper 004 (linear attention with nonlinear teachers) now lives in the paper's package,
:mod:`theorycheck.papers.nonlinear.theory` (teachers and Hermite moments, e_ICL and Result 1, the a₁ = 0 branch,
the simulation of the actual model, Appendix-B and pure-noise samplers, finite-size extrapolation). The public
names of earlier versions (and the teacher symbol ``G``) stay importable from here."""
from .deprecation import moved

moved(__name__, "theorycheck.papers.nonlinear.theory")
from theorycheck.models.prompts import context_statistics
from theorycheck.papers.nonlinear.theory import G  # noqa: F401  (the teacher symbol, kept importable)
from theorycheck.papers.nonlinear.theory import (TEACHERS, WORK_BUDGET, SimResult, a1_zero_fixed_point,
                                                 appendix_b_samples, e_icl_linear, e_icl_linear_general,
                                                 e_icl_nonlinear, extrapolate, extrapolate_models, label_moments,
                                                 mp_resolvent, pure_noise_ridge_samples, pure_noise_ridgeless_exact,
                                                 rank_floor_samples, rank_floor_sin, rho_f, rho_nonlinear,
                                                 ridge_risk_pure_noise, risk_a1_zero, simulate_icl, simulate_icl_sweep,
                                                 simulate_teachers, surrogate_teacher, teacher, teacher_moments)

__all__ = ["TEACHERS", "teacher", "teacher_moments", "rho_nonlinear", "rho_f", "mp_resolvent",
           "e_icl_linear", "e_icl_linear_general", "e_icl_nonlinear", "risk_a1_zero",
           "a1_zero_fixed_point", "simulate_icl", "simulate_icl_sweep", "SimResult",
           "context_statistics", "ridge_risk_pure_noise", "extrapolate",
           "extrapolate_models", "surrogate_teacher", "simulate_teachers", "label_moments",
           "appendix_b_samples", "rank_floor_sin", "rank_floor_samples", "pure_noise_ridge_samples",
           "pure_noise_ridgeless_exact", "WORK_BUDGET"]
