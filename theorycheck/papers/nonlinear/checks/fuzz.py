"""Reliability baselines of paper 004: its theory (:mod:`theorycheck.papers.nonlinear.theory`) and its models
(:func:`theorycheck.models.prompts.draw_tasks`, :func:`~theorycheck.models.prompts.context_statistics`,
:func:`~theorycheck.models.prompts.draw_inputs`, :func:`~theorycheck.models.prompts.draw_noise`,
:func:`~theorycheck.models.prompts.t_scales`, :func:`theorycheck.models.ridge.fit_prefixes`,
:func:`~theorycheck.models.ridge.fit_prefixes_factored`, :func:`theorycheck.models.attention.reduced_features`).

Every baseline is a cheap valid call (milliseconds); :func:`theorycheck.reliability.fuzz` replaces one
parameter at a time by each bad value. Random generators and callables are built by factories and not fuzzed.
:data:`MODULES`: the paper's public theory modules, every callable of whose ``__all__`` must have a baseline here.
"""
import numpy as np
import sympy as sp

from ...api import Baseline
from ..theory.setting import setting

_TH = "theorycheck.papers.nonlinear.theory."
_TEACHERS, _ICL, _A1ZERO, _SETTING = _TH + "teachers.", _TH + "icl.", _TH + "a1zero.", _TH + "setting."
_SIMULATE, _APPENDIX, _EXTRAPOLATE = _TH + "simulate.", _TH + "appendix.", _TH + "extrapolate."

#: the public theory modules of paper 004 (their ``__all__`` callables each need a baseline)
MODULES = tuple(_TH + m for m in ("setting", "teachers", "icl", "a1zero", "simulate", "appendix", "extrapolate"))


def _rng():
    return np.random.default_rng(0)


def _features():
    rng = _rng()
    return dict(xq=rng.standard_normal((5, 3)), U=rng.standard_normal((5, 3)), S=rng.standard_normal(5))


def _fit():
    rng = _rng()
    return dict(X=rng.standard_normal((6, 4)), y=rng.standard_normal(6), ns=[3, 6], d=2, lam=0.0)


def _ctx_stats():
    rng = _rng()
    return dict(fn=np.sin, W=rng.standard_normal((3, 4)), ell=5, rho=0.1, rng=rng, method="projected", chunk=2)


def _fit_factored():
    rng = _rng()
    return dict(xq=rng.standard_normal((9, 2)), Z=rng.standard_normal((9, 3)), y=rng.standard_normal(9), ns=[4, 9],
                d=2, lam=0.0)


def _draw_inputs():
    return dict(rng=_rng(), shape=(3,), d=4, law=("iid-t", 5.0), scale_rng=_rng())


def _draw_noise():
    return dict(rng=_rng(), shape=(3,), rho=0.1, law=("t", 5.0), scale_rng=_rng())


def _t_scales():
    return dict(nu=5.0, shape=(3,), rng=_rng())


def _draw_tasks():
    return dict(rng=_rng(), k=3, d=4, c_sqrt=None, normalize=False)


def _appendix_b():
    return dict(f="sin", d=4, alpha=2.0, rho=0.1, n=8, rng=_rng(), method="direct")


def _rank_samples():
    return dict(f="sin", r=4.0, rho=0.1, n=8, rng=_rng(), nodes=12)


def _pure_noise():
    return dict(p=12, n=6, q=1.0, sigma2=1.0, lam=0.0, reps=3, rng=_rng())


def _pure_noise_setting():
    return dict(s=setting(2.0, 2.0, float("inf"), 1.1, 0.1))


def _polynomial():
    g = sp.Symbol("g", real=True)
    return dict(expr=g ** 4 - 2 * g + 1, g=g)


def _teacher_expr():
    return dict(f=sp.tanh(sp.Symbol("g", real=True)))


_SIM = dict(f="sin", d=4, alpha=2.0, kappa=2.0, tau=1.5, rho=0.1, lam=0.0, trials=2, seed=0, n_test=8,
            normalize_tasks=False, method="projected", C_train=None, C_test=None)
_SWEEP = dict(f="sin", d=4, alpha=2.0, kappa=2.0, taus=[0.5, 1.5], rho=0.1, lam=0.0, trials=2, seed=0, n_test=8,
              normalize_tasks=False, method="projected", C_train=None, C_test=None, n_query=4)

BASELINES = [
    # --- theory: moments and noise levels
    Baseline(_TEACHERS + "teacher", dict(f="sin")),
    Baseline(_TEACHERS + "teacher_key", dict(f="sin")),
    Baseline(_TEACHERS + "teacher_moments", dict(f="sin", dps=30)),
    Baseline(_TEACHERS + "rho_nonlinear", dict(f="sin", rho=0.1)),
    Baseline(_TEACHERS + "rho_f", dict(f="sin", rho=0.1)),
    Baseline(_TEACHERS + "surrogate_teacher", dict(f="sin", rho=0.1)),
    Baseline(_TEACHERS + "label_moments", dict(f="sin", rho=0.1)),
    Baseline(_TEACHERS + "polynomial_expectation", factory=_polynomial),
    Baseline(_TEACHERS + "label_expectations", factory=_teacher_expr),
    # --- theory: linear ICL, Result 1, the a1 = 0 branch
    Baseline(_ICL + "mp_resolvent", dict(z=0.5, kappa=2.0, c=1.0)),
    Baseline(_ICL + "e_icl_linear", dict(tau=2.0, alpha=2.0, kappa=2.0, rho=0.1, lam=0.0), allow_inf=True),
    Baseline(_ICL + "e_icl_linear_general",
             dict(tau=2.0, alpha=2.0, kappa=2.0, rho=0.1, C_train=np.ones(8), C_test=np.ones(8), alpha_test=2.0),
             allow_inf=True),
    Baseline(_ICL + "e_icl_nonlinear",
             dict(f="sin", tau=2.0, alpha=2.0, kappa=2.0, rho=0.1, lam=0.0, method="rescale"), allow_inf=True),
    Baseline(_SETTING + "setting", dict(tau=2.0, alpha=2.0, kappa=2.0, rho=0.1, lam=0.0), allow_inf=True),
    Baseline(_A1ZERO + "risk_a1_zero", dict(tau=2.0, rho_nl=1.1, alpha=2.0, lam=0.0), allow_inf=True),
    Baseline(_A1ZERO + "pure_noise_error", factory=_pure_noise_setting, allow_inf=True),
    Baseline(_A1ZERO + "a1_zero_fixed_point", dict(tau=0.5, q=1.0, lam=0.1)),
    Baseline(_A1ZERO + "ridge_risk_pure_noise", dict(gamma_ratio=0.5, mu=0.1), allow_inf=True),
    Baseline(_APPENDIX + "rank_floor_sin", dict(r=4.0, rho=0.1)),
    Baseline(_APPENDIX + "pure_noise_ridgeless_exact", dict(p=100, n=50, sigma2=1.0), allow_inf=True),
    # --- simulators and samplers
    Baseline(_SIMULATE + "simulate_icl", dict(_SIM)),
    Baseline(_SIMULATE + "simulate_icl_sweep", dict(_SWEEP), aliases={"taus": "tau"}),
    Baseline(_SIMULATE + "simulate_teachers",
             dict(teachers={"a": ("sin", 0.1), "b": ("linear", 0.2)}, d=4, alpha=2.0, kappa=2.0, taus=[1.5], trials=2,
                  seed=0, n_test=8), aliases={"taus": "tau"}),
    Baseline(_APPENDIX + "appendix_b_samples", factory=_appendix_b, skip=("rng",)),
    Baseline(_APPENDIX + "rank_floor_samples", factory=_rank_samples, skip=("rng",)),
    Baseline(_APPENDIX + "pure_noise_ridge_samples", factory=_pure_noise, skip=("rng",)),
    # --- exploration helpers (never used for verdicts)
    Baseline(_EXTRAPOLATE + "extrapolate",
             dict(ds=[8, 16, 32], means=[1.5, 1.25, 1.125], ses=[0.01] * 3, power=1.0, powers=None)),
    Baseline(_EXTRAPOLATE + "extrapolate_models",
             dict(ds=[8, 16, 32, 64], means=[1.5, 1.25, 1.125, 1.0625], ses=[0.01] * 4, target=1.0, p_min=1e-3)),
    # --- the models of paper 004
    Baseline("theorycheck.models.prompts.draw_tasks", factory=_draw_tasks, skip=("rng",)),
    Baseline("theorycheck.models.prompts.context_statistics", factory=_ctx_stats, skip=("rng",)),
    Baseline("theorycheck.models.ridge.fit_prefixes", factory=_fit),
    Baseline("theorycheck.models.ridge.fit_prefixes_factored", factory=_fit_factored),
    Baseline("theorycheck.models.prompts.draw_inputs", factory=_draw_inputs, skip=("rng", "scale_rng")),
    Baseline("theorycheck.models.prompts.draw_noise", factory=_draw_noise, skip=("rng", "scale_rng")),
    Baseline("theorycheck.models.prompts.t_scales", factory=_t_scales, skip=("rng",)),
    Baseline("theorycheck.models.attention.reduced_features", factory=_features),
]
