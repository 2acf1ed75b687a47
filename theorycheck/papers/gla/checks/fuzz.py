"""Reliability baselines of paper 000 (GLA under AR(1) drift): a cheap valid call (well under a second) of every
public function of the paper's theory (:mod:`theorycheck.papers.gla.theory`: ``BASELINES`` names each by the module
that defines it) and of the paper's functions in :mod:`theorycheck.models` (GLA forward passes, AR(1) samplers,
LMS / RLS / Kalman filters). ``MODULES``: the paper's public theory modules, whose ``__all__`` callables must each
have a baseline (:func:`theorycheck.selftest.reliability.public_functions`); ``theorycheck selftest`` fuzzes them."""
import numpy as np

from ....models.prompts import ar1_drift_prompts, ar1_stream
from ...api import Baseline
from ..theory import drift_covariance, filter_evaluation, filter_scan, optimal_parameters

__all__ = ["BASELINES", "MODULES"]

_T = "theorycheck.papers.gla.theory."
MODULES = tuple(_T + m for m in ("law", "sums", "errors", "drift", "flows", "simulate", "benchmark", "learning"))
_S, _E, _D, _FL, _SIM, _BEN, _LRN = (_T + m + "." for m in ("sums", "errors", "drift", "flows", "simulate", "benchmark",
                                                          "learning"))
_A = "theorycheck.models.attention."
_PR = "theorycheck.models.prompts."
_F = "theorycheck.models.filters."

_L2 = np.eye(2)


def _stream(T=8, runs=3, d=2, seed=0):
    return ar1_stream(np.random.default_rng(seed), runs, T, d, 0.9, 1.0, 0.1, 0.05)


def _prompts(size=4, n=5, d=2, seed=0):
    return ar1_drift_prompts(np.random.default_rng(seed), size, 0.9, n, np.eye(d), 1.0, 0.1, 0.05)


def _stream_kw(**extra):
    def f():
        X, Y = _stream()
        return dict(X=X, Y=Y, **extra)
    return f


def _prompt_kw(**extra):
    def f():
        X, Y = _prompts()
        return dict(X=X, Y=Y, **extra)
    return f


def _stack_kw():
    X, Y = _prompts(size=6, n=4, d=2)
    rng = np.random.default_rng(1)
    W = [0.3 * rng.standard_normal((3, 3)) for _ in range(4)]
    return dict(X=X, Y=Y, lams=[0.6, 0.8], W_KQs=W[:2], W_Vs=W[2:], normalise=True)


def _train_kw():
    X, Y = _prompts(size=8, n=4, d=2)
    return dict(depth=1, lams=0.8, X=X, Y=Y, adam_steps=3, gd_steps=2, adam_lr=0.02, gd_lr=0.05, init_scale=0.1,
                seed=0, normalise=True, batch=4, schedule="constant")


def _probe_kw():
    o = optimal_parameters(0.8, 0.9, 6, np.eye(2), 1.0, 0.1)
    th = np.concatenate([np.zeros(2), [1.0], o.Gamma.T.ravel(), np.zeros(2)])
    return dict(theta=th, lam=0.8, gamma=0.9, n=6, d=2, sigma_w2=1.0, sigma_e2=0.1, noise=0.0, radii=(1e-2,),
                directions=5, seed=0)


def _assemble_kw():
    kw = dict(gamma=0.9, d=2, T=12, sigma_w2=1.0, sigma_e2=0.1, noise=0.0)
    scans = {"lms": filter_scan(**kw, method="lms", values=(0.05,), runs=3, seed=0),
             "rls": filter_scan(**kw, method="rls", values=(0.95,), runs=3, seed=0)}
    ev = filter_evaluation(**kw, mu=0.05, beta=0.95, runs=3, seed=1)
    return dict(**kw, scan_runs=scans, evaluation=ev, runs_scan=3, runs_eval=3)


def _labels_kw():
    X, _ = _stream()
    return dict(rng=np.random.default_rng(0), X=X, gamma=0.9, sigma_w2=1.0, sigma_e2=0.1, noise=0.05)


_GLA = [
    Baseline(_S + "ar1_variances", dict(gamma=0.9, n=5, sigma_w2=1.0, sigma_e2=0.1)),
    Baseline(_S + "moment_sums", dict(lam=0.7, gamma=0.9, n=10, sigma_w2=1.0, sigma_e2=0.1, method="auto")),
    Baseline(_E + "xi", dict(lam=0.5, gamma=0.9, n=10, d=5, sigma_w2=1.0, sigma_e2=0.1, noise=0.0)),
    Baseline(_E + "xi_large_d", dict(lam=0.5, gamma=0.9, n=10, sigma_w2=1.0, sigma_e2=0.1)),
    Baseline(_E + "train_error", dict(lam=0.7, gamma=0.9, n=10, d=3, sigma_w2=1.0, sigma_e2=0.1, noise=0.1,
                                      halved=False)),
    Baseline(_E + "train_error_general", dict(lam=0.7, gamma=0.9, n=10, Lambda=np.diag([1.0, 0.5]), sigma_w2=1.0,
                                              sigma_e2=0.1, noise=0.1)),
    Baseline(_E + "optimal_lambda", dict(gamma=0.9, n=10, d=3, sigma_w2=1.0, sigma_e2=0.1, noise=0.0, grid_size=21)),
    Baseline(_E + "lambda_star_large_d_correction", dict(gamma=0.8, n=20, d=10, sigma_w2=1.0, sigma_e2=0.01,
                                                         noise=0.0)),
    Baseline(_E + "effective_covariance", dict(lam=0.7, gamma=0.9, n=10, Lambda=_L2, sigma_w2=1.0, sigma_e2=0.1,
                                               noise=0.0)),
    Baseline(_E + "optimal_parameters", dict(lam=0.7, gamma=0.9, n=10, Lambda=_L2, sigma_w2=1.0, sigma_e2=0.1,
                                             noise=0.0, v=1.0)),
    Baseline(_E + "population_loss", dict(Gamma=0.1 * _L2, lam=0.7, gamma=0.9, n=10, Lambda=_L2, sigma_w2=1.0,
                                          sigma_e2=0.1, noise=0.0)),
    Baseline(_E + "test_error", dict(lam=0.7, gamma=0.9, n=10, Lambda=_L2, sigma_w2=1.0, sigma_e2=0.1, noise=0.0,
                                     test_gamma=0.8, test_n=12, test_Lambda=np.diag([2.0, 0.5]), test_sigma_w2=0.5,
                                     test_sigma_e2=0.2, test_noise=0.1)),
    Baseline(_E + "irreducible_floor", dict(Lambda=_L2, sigma_e2=0.1, noise=0.05)),
    Baseline(_SIM + "simulate_gla", dict(lam=0.7, gamma=0.9, n=5, Lambda=_L2, sigma_w2=1.0, sigma_e2=0.1, noise=0.0,
                                         n_samples=50, seed=0, batch=20)),
    Baseline(_SIM + "gla_squared_errors", dict(lam=0.7, gamma=0.9, n=5, Lambda=_L2, sigma_w2=1.0, sigma_e2=0.1,
                                               noise=0.0, n_samples=50, seed=0, chunk=20)),
    Baseline(_SIM + "squared_errors_from", factory=lambda: dict(rng=np.random.default_rng(0), size=50, lam=0.7, gamma=0.9,
                                                                n=5, Lambda=_L2, sigma_w2=1.0, sigma_e2=0.1, noise=0.0)),
    Baseline(_FL + "gradient_flow", dict(lam=0.7, gamma=0.8, n=5, Lambda=_L2, sigma_w2=1.0, sigma_e2=0.1, noise=0.0,
                                         init="random", sigma=0.1, seed=0, n_points=20)),
    Baseline(_FL + "full_parameter_loss", dict(u=np.zeros(2), v=1.0, A=0.1 * _L2, b=np.zeros(2), lam=0.7, gamma=0.9,
                                               n=5, d=2, sigma_w2=1.0, sigma_e2=0.1, noise=0.0)),
    Baseline(_FL + "full_gradient_flow", dict(lam=0.7, gamma=0.9, n=4, d=1, sigma_w2=1.0, sigma_e2=0.1, noise=0.0,
                                              sigma=0.1, seed=0, n_points=10)),
    Baseline(_FL + "probe_local_minimum", factory=_probe_kw),
    Baseline(_FL + "classify_full_flow", dict(fr={"loss_gap": [1.0, 0.0], "loss_star": 1.0, "grad_norm_final": 0.0,
                                                  "grad_norm_initial": 1.0}, rel_tol=1e-6, grad_reduction=1e-6)),
    Baseline(_D + "lambda_importance", dict(gamma=0.9, n=10, d=3, sigma_w2=1.0, sigma_e2=0.1, noise=0.0, delta=0.05,
                                            grid_size=21)),
    Baseline(_D + "drift_statistics", dict(gamma=0.9, n=10, sigma_w2=1.0, sigma_e2=0.1)),
    Baseline(_SIM + "train_gla_stack", factory=_train_kw, skip=("sampler",)),
    Baseline(_SIM + "geometric_rate_stability", factory=lambda: dict(values=0.9 ** np.arange(20.0), floor=1e-10)),
    Baseline(_D + "drift_covariance", dict(n=6, gamma=0.9, sigma_w2=1.0, sigma_e2=0.1, momentum=0.3,
                                           innovation_corr=0.2)),
    Baseline(_D + "train_error_from_covariance",
             factory=lambda: dict(lam=0.7, K=drift_covariance(6, 0.9, 1.0, 0.1, 0.3), d=3, noise=0.1)),
    Baseline(_D + "optimal_lambda_from_covariance",
             factory=lambda: dict(K=drift_covariance(6, 0.9, 1.0, 0.1, 0.3), d=3, noise=0.1, grid_size=21)),
    Baseline(_BEN + "simulate_filter_benchmark", dict(gamma=0.9, d=2, T=12, sigma_w2=1.0, sigma_e2=0.1, noise=0.0,
                                                      mus=(0.05,), betas=(0.95,), runs_scan=3, runs_eval=3,
                                                      seed_scan=0, seed_eval=1, delta=1.0)),
    Baseline(_BEN + "filter_scan", dict(gamma=0.9, d=2, T=12, sigma_w2=1.0, sigma_e2=0.1, noise=0.0, method="rls",
                                        values=(0.9, 0.95), runs=3, seed=0, delta=1.0), allow_inf=True),
    Baseline(_BEN + "filter_evaluation", dict(gamma=0.9, d=2, T=12, sigma_w2=1.0, sigma_e2=0.1, noise=0.0, mu=0.05,
                                              beta=0.95, runs=3, seed=0, delta=1.0), allow_inf=True),
    # assembly steps of the benchmark's tasks: their inputs are the outputs of the two functions above (no fuzzing)
    Baseline(_BEN + "best_value", factory=lambda: dict(scan={0.9: np.ones(3), 0.95: np.zeros(3)}), only=()),
    Baseline(_BEN + "assemble_benchmark", factory=_assemble_kw, only=()),
    Baseline(_FL + "search_full_minima", dict(lam=0.8, gamma=0.9, n=4, d=1, sigma_w2=1.0, sigma_e2=0.1, noise=0.0,
                                              starts=1, scales=(0.3,), seed=0, directions=3)),
    Baseline(_LRN + "learn_gate", dict(gamma=0.9, n=5, d=2, sigma_w2=1.0, sigma_e2=0.1, noise=0.0, lam0=0.5, seed=0,
                                       scale=0.1)),
    Baseline(_LRN + "optimal_token_weights", factory=lambda: dict(K=drift_covariance(5, 0.9, 1.0, 0.1, 0.0), d=2,
                                                                  noise=0.0)),
]

_MODELS = [
    Baseline(_A + "gla_forward", factory=_prompt_kw(lam=0.8, W_KQ=np.eye(3), W_V=np.eye(3))),
    Baseline(_A + "gla_stream_errors", factory=_stream_kw(lam=0.8, Gamma=0.1 * _L2)),
    Baseline(_A + "gla_stack_forward", factory=_stack_kw),
    Baseline(_A + "gla_stack_loss_and_grad", factory=_stack_kw),
    Baseline(_PR + "drift_labels", factory=_labels_kw, skip=("rng",)),
    Baseline(_PR + "ar1_stream", factory=lambda: dict(rng=np.random.default_rng(0), runs=3, T=5, d=2, gamma=0.9,
                                                      sigma_w2=1.0, sigma_e2=0.1, noise=0.0, Lambda=_L2),
             skip=("rng",)),
    Baseline(_PR + "ar1_drift_prompts", factory=lambda: dict(rng=np.random.default_rng(0), size=3, gamma=0.9, n=4,
                                                             L=_L2, sigma_w2=1.0, sigma_e2=0.1, noise=0.0),
             skip=("rng",)),
    Baseline(_F + "check_streams", factory=_stream_kw()),
    # diverged runs are documented as inf errors (never NaN)
    Baseline(_F + "lms_errors", factory=_stream_kw(mu=0.05), allow_inf=True),
    Baseline(_F + "rls_errors", factory=_stream_kw(beta=0.95, delta=1.0), allow_inf=True),
    Baseline(_F + "lms_residuals", factory=_stream_kw(mu=0.05), allow_inf=True),
    Baseline(_F + "rls_residuals", factory=_stream_kw(beta=0.95, delta=1.0), allow_inf=True),
    Baseline(_F + "kalman_errors", factory=_stream_kw(gamma=0.9, sigma_w2=1.0, sigma_e2=0.1, noise=0.05,
                                                      return_variance=False)),
    Baseline(_F + "lms_reference_errors", factory=_stream_kw(mu=0.05), allow_inf=True),
    Baseline(_F + "rls_direct_errors", factory=_stream_kw(beta=0.95, delta=1.0), allow_inf=True),
]

BASELINES = _GLA + _MODELS
