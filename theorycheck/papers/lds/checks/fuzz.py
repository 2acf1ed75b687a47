"""Reliability baselines of paper 001 (linear dynamical systems in context): the theory modules
:mod:`theorycheck.papers.lds.theory` (:data:`MODULES`) and the paper's functions in :mod:`theorycheck.models`
(:mod:`~theorycheck.models.dynamics` — systems, priors, trajectories; :mod:`~theorycheck.models.training`; the
one-layer attention of :mod:`~theorycheck.models.attention`: ``token_matrix``, ``attention_forward``,
``attention_predict``, ``attention_loss_and_grad``, ``effective_coefficients``; the LDS predictors of
:mod:`~theorycheck.models.filters`: ``kalman_one_step_mse``, ``oracle_ar_mse``, ``steady_state_closed_loop_radius``).

Every baseline is a cheap valid call (milliseconds, a few tenths of a second at most); systems, weights, moments and
generators are built by factories, so each call gets fresh objects. Callables (the forms of
:func:`~theorycheck.papers.lds.theory.isserlis.exact_component_average`) are fuzzed like any other argument: they
must be rejected by name.
"""
import numpy as np
import sympy as sp

from ....models.attention import effective_coefficients, token_matrix
from ....models.dynamics import DiagonalLDSPrior, make_prior
from ...api import Baseline
from ..theory.isserlis import moment_functions
from ..theory.stationarity import stationarity_moments
from ..theory.pcg import pcg_quantities
from ..theory.support import support_masks
from ..theory.symbolic import sym_observations, sym_token_matrix

#: This paper's public theory modules: every callable of their ``__all__`` has a baseline below.
MODULES = tuple(f"theorycheck.papers.lds.theory.{m}" for m in ("wqk", "isserlis", "nonnormal", "stationarity", "gd",
                                                              "support", "pcg", "symbolic", "optimum", "kalman"))

_IS = "theorycheck.papers.lds.theory.isserlis."
_WQ = "theorycheck.papers.lds.theory.wqk."
_ST = "theorycheck.papers.lds.theory.stationarity."
_GD = "theorycheck.papers.lds.theory.gd."
_SU = "theorycheck.papers.lds.theory.support."
_PC = "theorycheck.papers.lds.theory.pcg."
_SY = "theorycheck.papers.lds.theory.symbolic."
_OP = "theorycheck.papers.lds.theory.optimum."
_KA = "theorycheck.papers.lds.theory.kalman."
_A = "theorycheck.models.attention."
_D = "theorycheck.models.dynamics."
_F = "theorycheck.models.filters."
_TR = "theorycheck.models.training."


def _rng(seed=0):
    return np.random.default_rng(seed)


def _prior(setting="a", d=2):
    return make_prior(setting, d=d)


def _systems(n=3, d=2, setting="a"):
    return _prior(setting, d).sample(_rng(1), n)


def _Y(B=3, T=8, seed=2):
    return _rng(seed).standard_normal((B, T))


def _weights(s=2, seed=3):
    W, V = _rng(seed).standard_normal((2, s + 1, s + 1))
    return W, V


def _moments():
    return stationarity_moments(6, 1, DiagonalLDSPrior(1, 0.8, 1.0, 0.5, 0.5), gram=True)


def _with(**fixed):
    """A factory merging fresh objects (systems, weights, data) into fixed keyword arguments."""
    def f():
        out = {}
        for k, v in fixed.items():
            out[k] = v() if callable(v) and getattr(v, "_fresh", False) else v
        return out
    return f


def _new(fn):
    fn._fresh = True
    return fn


@_new
def _sys():
    return _systems()


@_new
def _y():
    return _Y()


@_new
def _mom():
    return _moments()


@_new
def _W():
    return _weights()[0]


@_new
def _V():
    return _weights()[1]


@_new
def _W1():
    return _weights(1)[0]


@_new
def _V1():
    return _weights(1)[1]


@_new
def _g():
    return _rng(4)


@_new
def _prior_a():
    return _prior("a")


@_new
def _prior_b():
    return _prior("b")


@_new
def _prior_d():
    return _prior("d")


@_new
def _prior_a1():
    return DiagonalLDSPrior(1, 0.8, 1.0, 0.5, 0.5)


@_new
def _K():
    return _systems().autocovariance(6)


@_new
def _forms():
    Nf, Df = moment_functions(6)
    return [(2, Nf), (3, Df)]


@_new
def _sym_y():
    return sym_observations(5)


@_new
def _sym_w():
    return sp.symbols("w_1:2", real=True)


@_new
def _sym_Y0():
    return sym_token_matrix(sym_observations(5), 1)


@_new
def _sym_eye():
    return sp.eye(2)


@_new
def _Y0():
    return token_matrix(_Y(), 2)


@_new
def _C():
    return effective_coefficients(*_weights(1))


@_new
def _gaps():
    return np.array([[0.5 ** s for s in range(1, 7)], [0.3 ** s for s in range(1, 7)]])


@_new
def _support():
    return support_masks(1)


@_new
def _pcg_q():
    return pcg_quantities(*_weights(), _Y())


@_new
def _x1():
    return _rng(6).standard_normal(4)


@_new
def _W22():
    return _rng(7).standard_normal((2, 2))


@_new
def _sys_b():
    return _systems(3, 2, "b")


@_new
def _vecs():
    return _rng(5).standard_normal((3, 2))


_THEORY = [
    Baseline(_IS + "lag1_matrix", dict(T=6)),
    Baseline(_IS + "wqk_star_moments", factory=_with(K=_K)),
    Baseline(_IS + "exact_component_average", factory=_with(T=6, prior=_prior_a, forms=_forms)),
    Baseline(_ST + "stationarity_moments", factory=_with(T=6, s=1, prior=_prior_a, gram=False, method="auto",
                                                        n_systems=20, seed=0, antithetic=False, systems=None)),
    Baseline(_ST + "stationarity_rhs", factory=_with(K=_K, s=1)),
    Baseline(_WQ + "wqk_star", factory=_with(T=6, prior=_prior_d, rtol=1e-6, method="auto", n_systems=20, seed=0,
                                            batch=10)),
    Baseline(_WQ + "per_system_ratio_average", factory=_with(T=6, prior=_prior_b, n_systems=10, seed=0)),
    Baseline(_WQ + "simulate_wqk_star", factory=_with(T=6, prior=_prior_a, samples=50, seed=0, batch=20)),
    Baseline(_GD + "ar_gd_step_prediction", factory=_with(Y=_y, s=1, eta=0.1)),
    Baseline(_GD + "ar_least_squares_predict", factory=_with(Y=_y, s=2, ridge=0.0)),
    Baseline(_SU + "parity_zero_pattern", dict(s=2)),
    Baseline(_SU + "predicted_support", dict(s=2, k0_parity=None)),
    Baseline(_SU + "jaccard_distance", dict(a=[True, False, True], b=[True, True, False])),
    Baseline(_PC + "pcg_quantities", factory=_with(W_QK=_W, W_V=_V, Y=_y, preconditioner="P", init="residual",
                                                  w0=None)),
    Baseline(_PC + "cosine", factory=_with(u=_vecs, w=_vecs)),
    Baseline(_PC + "span_residuals", factory=_with(q=_pcg_q)),
    Baseline(_SU + "support_masks", dict(s=2, k0_parity=None)),
    Baseline(_SU + "structured_weights", factory=_with(rng=_g, s=2, k0_parity=None)),
    Baseline(_WQ + "theorem_feature", factory=_with(Y=_y)),
    Baseline(_PC + "pcg_diagnostics", factory=_with(W_QK=_W, W_V=_V, Y=_y)),
    Baseline(_PC + "random_direction_abs_cosine", dict(s=4)),
    Baseline(_OP + "weights_of", factory=_with(x=_x1, s=1)),
    Baseline(_OP + "point_of", factory=_with(W_QK=_W, W_V=_V)),
    Baseline(_OP + "loss_and_gradient", factory=_with(x=_x1, s=1, moments=_mom)),
    Baseline(_OP + "hessian", factory=_with(x=_x1, s=1, moments=_mom)),
    Baseline(_OP + "minimise", factory=_with(moments=_mom, s=1, starts=2, rng=_g, k0_parity=None, init_scale=0.5)),
    Baseline(_OP + "theorem_branch_shares", factory=_with(W_QK=_W22, W_V=_W22)),
    Baseline(_OP + "polish", factory=_with(moments=_mom, s=1, x0=_x1)),
    Baseline(_OP + "adam_on_exact_loss", factory=_with(moments=_mom, s=1, x0=_x1, lr=0.01, steps=20, warmup=0.05)),
    Baseline(_KA + "steady_state_kalman", factory=_with(systems=_sys)),
    Baseline(_KA + "truncation_profile", factory=_with(systems=_sys_b, s_values=[1, 2, 3])),
    Baseline(_KA + "truncated_kalman_mse", factory=_with(systems=_sys, s=2)),
    Baseline(_KA + "trivial_predictor_mse", factory=_with(systems=_sys, T=6)),
    Baseline(_SY + "sym_observations", dict(T=5)),
    Baseline(_SY + "sym_token_matrix", factory=_with(y=_sym_y, s=1)),
    Baseline(_SY + "sym_attention_forward", factory=_with(W_QK=_sym_eye, W_V=_sym_eye, Y0=_sym_Y0)),
    Baseline(_SY + "sym_ar_loss", factory=_with(y=_sym_y, s=1, w=_sym_w)),
    Baseline(_WQ + "wqk_star_batch_mc", factory=_with(T=6, prior=_prior_a, n_batches=3, batch=20, seed=0,
                                                     systems=None)),
    Baseline(_ST + "autocovariance_batch_mc", factory=_with(systems=_sys, T=6, entries=[(5, 6)], n_batches=3,
                                                           per_batch=10, seed=0)),
    Baseline(_GD + "feature_vector", factory=_with(C=_C, features=[(1, 1, 1), (1, 2, 1)])),
    Baseline(_GD + "exact_halved_loss", factory=_with(W_QK=_W1, W_V=_V1, moments=_mom)),
    Baseline(_GD + "exact_loss_gradient", factory=_with(W_QK=_W1, W_V=_V1, moments=_mom)),
    Baseline(_GD + "gd_step_weights", dict(s=2, eta=0.1)),
    Baseline(_GD + "best_gd_step", factory=_with(s=1, moments=_mom)),
    Baseline(_GD + "coefficient_inertia", dict(c=[1.0, 2.0, -1.0], features=[(1, 1, 1), (1, 2, 1), (2, 2, 1)], s=1,
                                              rtol=1e-9)),
    Baseline(_SU + "support_jaccard", factory=_with(W_QK=_W, W_V=_V, threshold=0.1)),
    Baseline(_SU + "offpattern_energy", factory=_with(W_QK=_W, W_V=_V)),
    Baseline(_SU + "ar_gaps", factory=_with(systems=_sys, T=8, s_values=[1, 2])),
    Baseline(_SU + "decay_exponents", factory=_with(gaps=_gaps, s_values=[1, 2, 3, 4, 5, 6], rho=[0.5, 0.3],
                                                   kf=[1.0, 1.0], rel_floor=1e-10, min_points=4)),
]

_MODELS = [
    # dynamics
    Baseline(_D + "DiagonalLDSPrior", dict(d=2, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.5)),
    Baseline(_D + "OneSidedDiagonalLDSPrior", dict(d=2, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.5)),
    Baseline(_D + "SkewedDiagonalLDSPrior", dict(d=2, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.5, skew=0.3)),
    Baseline(_D + "OrthogonalLDSPrior", dict(d=2, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.5)),
    Baseline(_D + "AnisotropicNoiseLDSPrior", dict(d=2, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.5,
                                                   Sigma_w=None)),
    Baseline(_D + "NonNormalLDSPrior", dict(d=2, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.5, coupling=0.5,
                                            coupling_law="uniform")),
    Baseline(_D + "make_prior", dict(setting="a", d=2, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.5)),
    Baseline(_D + "lds_autocovariance", factory=_with(systems=_sys, T=6)),
    Baseline(_D + "simulate_lds", factory=_with(systems=_sys, T=6, rng=_g)),
    # attention (paper 001's functions)
    Baseline(_A + "token_matrix", factory=_with(Y=_y, s=2)),
    Baseline(_A + "attention_forward", factory=_with(W_QK=_W, W_V=_V, Y0=_Y0)),
    Baseline(_A + "attention_predict", factory=_with(W_QK=_W, W_V=_V, Y=_y)),
    Baseline(_A + "attention_loss_and_grad", factory=_with(W_QK=_W, W_V=_V, Y=_y)),
    Baseline(_A + "effective_coefficients", factory=_with(W_QK=_W, W_V=_V)),
    # filters (paper 001's functions)
    Baseline(_F + "kalman_one_step_mse", factory=_with(systems=_sys, T=6)),
    Baseline(_F + "oracle_ar_mse", factory=_with(systems=_sys, T=6, s=2)),
    Baseline(_F + "steady_state_closed_loop_radius", factory=_with(systems=_sys, iters=50)),
    # training
    Baseline(_TR + "train_linear_attention", factory=_with(T=6, s=1, prior=_prior_a, steps=3, batch=4, seed=0,
                                                           lr=0.01, weight_decay=0.0, clip=1.0, warmup=None,
                                                           schedule="cosine", init_scale=0.1, betas=(0.9, 0.999),
                                                           eps=1e-8, support=_support)),
]

BASELINES = _THEORY + _MODELS
