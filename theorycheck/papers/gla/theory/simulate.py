r"""Simulations of paper 000: the actual models, run at the theory's optimum or trained (conventions of
:mod:`theorycheck.papers.gla.theory`; errors not halved).

* :func:`simulate_gla`, :func:`gla_squared_errors`: Monte Carlo of the GLA recursion
  (:func:`theorycheck.models.attention.gla_forward`) on fresh AR(1) prompts, by default at the optimal embedded
  weights of :func:`~theorycheck.papers.gla.theory.errors.optimal_parameters`;
* :func:`train_gla_stack`: a multi-layer GLA stack trained by Adam, then Armijo gradient descent (the depth
  experiments); :func:`geometric_rate_stability`: is a convergence curve geometric?
* :func:`simulate_filter_benchmark` (from :mod:`.benchmark`, re-exported): GLA at its exact optimum against tuned LMS,
  RLS and the Kalman filter on AR(1) streams (paired, tuned on other streams than those evaluated).

>>> r = geometric_rate_stability(0.5 ** np.arange(40.0))
>>> round(r["ratio"], 6), round(r["rate_late"], 4)
(1.0, 0.6931)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ....models.attention import (gla_forward, gla_stack_core, gla_stack_loss_and_grad, gla_stack_params,
                                  gla_tokens)
from ....models.prompts import ar1_drift_prompts
from ....montecarlo import MeanEstimate, RunningMean, rngs
from ....validate import (MAX_COUNT, ParameterTypeError, check_array, check_bool, check_callable, check_int,
                          check_memory, check_real)
from .benchmark import simulate_filter_benchmark
from .errors import optimum
from .law import (MAX_SIM_WORK, MAX_TRAIN_WORK, check_lambda_matrix, check_law, ensure_finite)

__all__ = ["simulate_gla", "gla_squared_errors", "TrainingDiverged", "StackRun", "train_gla_stack",
           "geometric_rate_stability", "simulate_filter_benchmark"]


# ------------------------------------------------------------------ Monte Carlo of the recursion
def simulate_gla(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0, W_KQ=None, W_V=None,
                 n_samples=20_000, seed=0, batch=5_000) -> MeanEstimate:
    r"""Monte Carlo MSE of the actual GLA recursion on fresh AR(1) prompts.

    Runs :math:`S_i=\lambda S_{i-1}+v_ik_i^\top` over tokens :math:`i=1..n+1` (query included,
    its label slot 0) with :math:`v_i=W_Vz_i`, :math:`k_i=z_i`, query vector :math:`W_{KQ}z_{n+1}`
    (i.e. :math:`W_K=I`, :math:`W_Q=W_{KQ}`), predicts :math:`\hat y=(S_{n+1}W_{KQ}z_{n+1})_{d+1}`
    and averages :math:`(\hat y-y_{n+1})^2` (not halved). Defaults for ``W_KQ``/``W_V``: the
    optimal embedded ones (:func:`optimal_parameters`). Returns a
    :class:`~theorycheck.montecarlo.MeanEstimate` (mean, SE, n, seed, batch).

    >>> from theorycheck.papers.gla.theory.errors import train_error
    >>> est = simulate_gla(0.8, 0.9, 10, np.eye(2), 1.0, 0.1, n_samples=2000, seed=1)
    >>> abs(est.mean - train_error(0.8, 0.9, 10, 2, 1.0, 0.1)) < 5 * est.se
    True
    """
    lam, gamma, n, sigma_w2, sigma_e2, noise = check_law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    L = check_lambda_matrix(Lambda)
    n_samples = check_int("n_samples", n_samples, minimum=2, maximum=MAX_COUNT)
    batch = check_int("batch", batch, minimum=1, maximum=MAX_COUNT)
    seed = check_int("seed", seed, minimum=0)
    d = L.shape[0]
    _sim_budget(n_samples, min(batch, n_samples), n, d, "n_samples", "batch")
    W_KQ, W_V = _sim_weights(W_KQ, W_V, lam, gamma, n, L, sigma_w2, sigma_e2, noise)
    nb = math.ceil(n_samples / batch)
    rm = RunningMean()
    left = n_samples
    for g in rngs(seed, nb):
        size = min(batch, left)
        rm.update(_chunk_errors(g, size, lam, gamma, n, L, sigma_w2, sigma_e2, noise, W_KQ, W_V))
        left -= size
    return rm.estimate(seed=seed, batch=batch, label="GLA recursion MSE")


def _chunk_errors(rng, size, lam, gamma, n, L, sigma_w2, sigma_e2, noise, W_KQ, W_V):
    """The squared errors (ŷ − y_{n+1})² of the GLA recursion on ``size`` fresh prompts drawn from ``rng`` (checked
    inputs): the one Monte Carlo route of :func:`simulate_gla` and :func:`gla_squared_errors`."""
    X, Y = ar1_drift_prompts(rng, size, gamma, n, L, sigma_w2, sigma_e2, noise)
    with np.errstate(over="ignore", invalid="ignore"):
        err = (gla_forward(X, Y, lam, W_KQ, W_V) - Y[:, -1]) ** 2
    return ensure_finite(err, "the squared error of the GLA recursion", sigma_w2=sigma_w2, sigma_e2=sigma_e2,
                         noise=noise, max_abs_W_KQ=float(np.max(np.abs(W_KQ))), max_abs_W_V=float(np.max(np.abs(W_V))))


def _sim_budget(n_samples, chunk, n, d, name, chunk_name):
    """Refuse a Monte Carlo of the recursion past :data:`MAX_SIM_WORK` or a chunk past the memory budget."""
    work = float(n_samples) * float(n + 1) * float(d + 1)
    if work > MAX_SIM_WORK:
        raise ValueError(f"{name} = {n_samples} prompts of n + 1 = {n + 1} tokens in d = {d} is about {work:.2g} "
                         f"token-dimensions of work, above the budget of {MAX_SIM_WORK:.2g} (about a minute of one "
                         f"core); reduce {name}, n or d")
    check_memory(chunk_name, chunk, 8.0 * float(chunk) * float(n + 1) * (3.0 * d + 6.0),
                 f"one chunk of {chunk} prompts")


def _sim_weights(W_KQ, W_V, lam, gamma, n, L, sigma_w2, sigma_e2, noise):
    d = L.shape[0]
    if W_KQ is None or W_V is None:
        opt = optimum(lam, gamma, n, L, sigma_w2, sigma_e2, noise)
        W_KQ = opt.W_KQ if W_KQ is None else W_KQ
        W_V = opt.W_V if W_V is None else W_V
    out = []
    for name, M in (("W_KQ", W_KQ), ("W_V", W_V)):
        if M is None or isinstance(M, (str, bytes, bool, np.bool_)) or np.ndim(M) != 2:
            raise ParameterTypeError(f"{name} must be a finite ({d + 1}, {d + 1}) matrix, got {type(M).__name__}")
        M = check_array(name, M, ndim=2)
        if M.shape != (d + 1, d + 1):
            raise ValueError(f"{name} must be a finite ({d + 1}, {d + 1}) matrix, got shape {M.shape}")
        out.append(M)
    return out


# ------------------------------------------------------------------ multi-layer GLA (depth experiments)
class TrainingDiverged(FloatingPointError, ValueError):
    """The training of a GLA stack left the floating-point range; the message names the step sizes and
    initialisation scale (a ``FloatingPointError``, and a ``ValueError`` for input-checking callers)."""


@dataclass
class StackRun:
    """A trained GLA stack (:func:`train_gla_stack`): weights, gates and the training history."""

    W_KQs: list
    W_Vs: list
    lams: list
    losses: np.ndarray            # training loss (MSE, not halved) before each step
    grad_norms: np.ndarray        # global gradient norm before each step
    phase_switch: int             # first GD step (after the Adam phase)
    config: dict = field(default_factory=dict)


def train_gla_stack(depth, lams, X, Y, *, adam_steps, gd_steps, adam_lr=0.02, gd_lr=0.05, init_scale=0.1,
                    seed=0, normalise=True, sampler=None, batch=256, schedule="constant", init=None) -> StackRun:
    r"""Train all entries of every layer's :math:`W_{KQ},W_V` ((d+1)×(d+1)) of a GLA stack
    (:func:`theorycheck.models.attention.gla_stack_forward`) on the MSE (not halved).

    ``adam_steps`` of Adam (β = 0.9, 0.999, ε = 1e-8, step ``adam_lr``, constant or — ``schedule="cosine"`` —
    decayed to 0 along a half cosine) — on fresh batches of
    ``batch`` prompts ``sampler(rng, batch) -> (X, Y)`` when a sampler is given (training on the
    law), else on the fixed prompts ``X, Y`` — then ``gd_steps`` of full-batch gradient descent on the
    fixed training prompts ``X, Y`` (where convergence rates are read)
    with an Armijo backtracking step: start from twice the previous step (first: ``gd_lr``), halve
    until :math:`L(\theta-\eta g)\le L(\theta)-\tfrac12\eta\|g\|^2` (at most 60 halvings). Initial
    weights i.i.d. :math:`\mathcal N(0,\text{init\_scale}^2)` from ``SeedSequence(seed)``. ``lams``: one
    gate per layer (or one for all). ``losses`` / ``grad_norms`` are those of the batch each step used. ``init``: the
    starting weights instead (the depth W_KQ's then the depth W_V's, each (d+1)×(d+1)), e.g. a trained shallower
    stack with one more layer whose W_V is 0 (the same predictor: a nested start).
    """
    depth, lams, X, Y, adam_steps, gd_steps, adam_lr, gd_lr, init_scale, normalise, seed, batch = _stack_setting(
        depth, lams, X, Y, adam_steps, gd_steps, adam_lr, gd_lr, init_scale, seed, normalise, sampler, batch,
        schedule)
    D = X.shape[2] + 1
    rng = np.random.default_rng(seed)
    data_rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    P = [init_scale * rng.standard_normal((D, D)) for _ in range(2 * depth)]
    if init is not None:
        if len(init) != 2 * depth or any(np.shape(w) != (D, D) for w in init):
            raise ValueError(f"init must hold {2 * depth} matrices of shape ({D}, {D})")
        P = [check_array(f"init[{k}]", w, ndim=2).copy() for k, w in enumerate(init)]
    m1 = [np.zeros((D, D)) for _ in P]
    m2 = [np.zeros((D, D)) for _ in P]
    loss_at = _stack_loss(gla_tokens(X, Y), Y, lams, depth, D, normalise)
    losses, gnorms = [], []
    eta = gd_lr / 2
    for it in range(adam_steps + gd_steps):
        Xb, Yb = sampler(data_rng, batch) if (sampler is not None and it < adam_steps) else (X, Y)
        with np.errstate(over="ignore", invalid="ignore"):
            loss, gK, gV = gla_stack_loss_and_grad(Xb, Yb, lams, P[:depth], P[depth:], normalise)
        g = gK + gV
        if not (math.isfinite(loss) and all(np.all(np.isfinite(x)) for x in g)):
            raise TrainingDiverged(f"GLA stack training diverged at step {it} (depth {depth}; adam_lr = {adam_lr!r}, "
                                   f"gd_lr = {gd_lr!r}, init_scale = {init_scale!r})")
        losses.append(loss)
        g2 = sum(float(np.sum(x * x)) for x in g)
        gnorms.append(math.sqrt(g2))
        if it < adam_steps:
            lr = adam_lr * (0.5 * (1 + math.cos(math.pi * it / adam_steps)) if schedule == "cosine" else 1.0)
            _adam_step(P, m1, m2, g, lr, it)
        else:
            eta, P = _armijo_step(loss_at, P, g, g2, loss, eta)
    return StackRun(P[:depth], P[depth:], lams, np.array(losses), np.array(gnorms), adam_steps,
                    {"depth": depth, "adam_steps": adam_steps, "gd_steps": gd_steps, "adam_lr": adam_lr,
                     "gd_lr": gd_lr, "init_scale": init_scale, "seed": seed, "normalise": normalise,
                     "n_train": int(X.shape[0]), "adam_batch": batch if sampler is not None else None,
                     "schedule": schedule, "nested_start": init is not None})


def _stack_setting(depth, lams, X, Y, adam_steps, gd_steps, adam_lr, gd_lr, init_scale, seed, normalise, sampler,
                   batch, schedule):
    """The checked inputs of :func:`train_gla_stack` (``lams``: one gate per layer), refused past
    :data:`MAX_TRAIN_WORK`."""
    depth = check_int("depth", depth, minimum=1, maximum=64)
    batch = check_int("batch", batch, minimum=2, maximum=MAX_COUNT)
    if not isinstance(schedule, str) or schedule not in ("constant", "cosine"):
        raise ValueError(f"schedule must be one of ['constant', 'cosine'], got {schedule!r}")
    lam_arr = check_array("lams", lams, ndim=(0, 1))
    if lam_arr.ndim == 1 and lam_arr.size not in (1, depth):
        raise ValueError(f"lams must hold one gate or one per layer ({depth}), got {lam_arr.size}")
    lams = [check_real(f"lams[{k}]", x, 0.0, 1.0, low_open=True)
            for k, x in enumerate(np.broadcast_to(np.atleast_1d(lam_arr), (depth,)))]
    adam_steps = check_int("adam_steps", adam_steps, minimum=0, maximum=MAX_COUNT)
    gd_steps = check_int("gd_steps", gd_steps, minimum=0, maximum=MAX_COUNT)
    adam_lr = check_real("adam_lr", adam_lr, 0.0, low_open=True)
    gd_lr = check_real("gd_lr", gd_lr, 0.0, low_open=True)
    init_scale = check_real("init_scale", init_scale, 0.0, low_open=True)
    normalise = check_bool("normalise", normalise)
    seed = check_int("seed", seed, minimum=0)
    if sampler is not None:
        check_callable("sampler", sampler)
    X = check_array("X", X, ndim=3)
    if X.shape[0] < 1 or X.shape[1] < 2 or X.shape[2] < 1:
        raise ValueError(f"X must have shape (B, n+1, d) with B, d >= 1 and n >= 1, got {X.shape}")
    Y = check_array("Y", Y, ndim=2, shape=X.shape[:2])
    D = X.shape[2] + 1
    T_ = X.shape[1]
    per_prompt = float(depth) * float(T_) * float(T_ + D) * D * 6.0      # one forward + backward pass
    # Adam: one pass on a batch per step; GD: one pass plus (typically) two Armijo trial forwards on the training set
    work = (float(adam_steps) * (batch if sampler is not None else X.shape[0]) + float(gd_steps) * X.shape[0] * 3.0) \
        * per_prompt
    if work > MAX_TRAIN_WORK:
        raise ValueError(f"adam_steps = {adam_steps}, gd_steps = {gd_steps} on {X.shape[0]} prompts of {T_} tokens and "
                         f"depth {depth} is about {work:.2g} operations, above the budget of {MAX_TRAIN_WORK:.2g} "
                         "(about 3 minutes of one core); reduce adam_steps, gd_steps, the prompts or the depth")
    return depth, lams, X, Y, adam_steps, gd_steps, adam_lr, gd_lr, init_scale, normalise, seed, batch


def _stack_loss(Z_train, Y, lams, depth, D, normalise):
    """``loss_at(Q)``: the training MSE of the stack with weights ``Q`` (``Q[:depth]`` the W_KQ's, ``Q[depth:]`` the
    W_V's) on the training prompts' tokens ``Z_train`` (built once for the Armijo trials); ``inf`` if it overflows."""
    def loss_at(Q):                                  # gla_stack_forward(X, Y, lams, Q[:depth], Q[depth:], normalise)
        _, W_KQs, W_Vs = gla_stack_params(lams, Q[:depth], Q[depth:], D)     # its checks of the trial weights
        with np.errstate(over="ignore", invalid="ignore"):
            r = gla_stack_core(Z_train, lams, W_KQs, W_Vs, normalise, keep=True) - Y[:, -1]
            val = float(np.mean(r * r))
        return val if math.isfinite(val) else math.inf
    return loss_at


def _adam_step(P, m1, m2, g, lr, it):
    """One Adam step (β = 0.9, 0.999, ε = 1e-8) of step ``lr`` at iteration ``it``, in place on the weights ``P``
    and the moment estimates ``m1``, ``m2``."""
    for k in range(len(P)):
        m1[k] = 0.9 * m1[k] + 0.1 * g[k]
        m2[k] = 0.999 * m2[k] + 0.001 * g[k] ** 2
        P[k] = P[k] - lr * (m1[k] / (1 - 0.9 ** (it + 1))) / (np.sqrt(m2[k] / (1 - 0.999 ** (it + 1))) + 1e-8)


def _armijo_step(loss_at, P, g, g2, loss, eta):
    r"""One gradient step with Armijo backtracking: from twice the previous step ``eta``, halve (at most 60 times)
    until :math:`L(\theta-\eta g)\le L(\theta)-\tfrac12\eta\|g\|^2`; returns ``(eta, new weights)``."""
    eta *= 2
    for _ in range(60):
        Q = [P[k] - eta * g[k] for k in range(len(P))]
        if loss_at(Q) <= loss - 0.5 * eta * g2:
            break
        eta /= 2
    return eta, Q


def geometric_rate_stability(values, floor: float = 1e-10, times=None) -> dict:
    r"""Is a decreasing sequence geometric? Fits :math:`\log v_t` by a line in t (``times``, default
    0, 1, 2, …) on the first and on the second half of the points above ``floor``·v₀ and returns
    both decay rates (per unit of t), their ratio (late/early: ≈ 1 for geometric — linear —
    convergence, → 0 for sublinear, e.g. :math:`v_t\propto1/t`) and the total reduction
    :math:`v_{\rm last}/v_0` over the fitted points. With ``times`` the halves split the time span.

    >>> r = geometric_rate_stability(0.9 ** np.arange(200))
    >>> round(r["ratio"], 6), round(r["rate_early"], 4)
    (1.0, 0.1054)
    >>> round(geometric_rate_stability(1.0 / np.arange(1, 2001))["ratio"], 2)     # sublinear
    0.23
    """
    v = check_array("values", values, finite=False)
    if v.ndim != 1 or v.size < 4 or not np.all(np.isfinite(v)) or np.any(v <= 0):
        raise ValueError("values must be a 1-D array of at least 4 positive finite numbers")
    floor = check_real("floor", floor, 0.0, 1.0, high_open=True)
    tt = np.arange(v.size, dtype=float) if times is None else check_array("times", times)
    if tt.shape != v.shape or np.any(np.diff(tt) <= 0):
        raise ValueError("times must be increasing and as long as values")
    keep = v >= floor * v[0]
    idx = np.flatnonzero(keep)
    last = int(idx[-1]) if idx.size else 0
    t = tt[:last + 1]
    lv = np.log(v[:last + 1])
    if last + 1 < 4:                  # too few points above the floor for two fits: no rates (None, never NaN)
        return {"rate_early": None, "rate_late": None, "ratio": 0.0,
                "reduction": float(v[last] / v[0]), "points": int(last + 1)}
    h = (last + 1) // 2 if times is None else int(np.searchsorted(t, (t[0] + t[-1]) / 2))
    h = min(max(h, 2), last - 1)
    r1 = -float(np.polyfit(t[:h], lv[:h], 1)[0])
    r2 = -float(np.polyfit(t[h:], lv[h:], 1)[0])
    ratio = r2 / r1 if r1 > 0 else 0.0
    return {"rate_early": r1, "rate_late": r2, "ratio": float(ratio), "reduction": float(v[last] / v[0]),
            "points": int(last + 1)}


def squared_errors_from(rng, size, lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0, W_KQ=None,
                        W_V=None) -> np.ndarray:
    r"""The squared errors :math:`(\hat y-y_{n+1})^2` of the GLA recursion on ``size`` fresh AR(1) prompts drawn
    from the generator ``rng`` (consumed in order): one chunk of :func:`gla_squared_errors`, for a sampler that draws
    in stages from one stream (:func:`theorycheck.verdicts.sequential.sequential_estimate`). Calls on one
    generator with sizes c, c, … give the prompts of ``gla_squared_errors(..., seed=s, chunk=c)`` from
    ``np.random.default_rng(s)``. Defaults for the weights: the optimal embedded ones. Not halved.

    >>> a = gla_squared_errors(0.8, 0.9, 10, np.eye(2), 1.0, 0.1, n_samples=200, seed=3, chunk=100)
    >>> r = np.random.default_rng(3)
    >>> b = np.concatenate([squared_errors_from(r, 100, 0.8, 0.9, 10, np.eye(2), 1.0, 0.1) for _ in range(2)])
    >>> bool(np.array_equal(a, b))
    True
    """
    if not isinstance(rng, np.random.Generator):
        raise ParameterTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    lam, gamma, n, sigma_w2, sigma_e2, noise = check_law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    L = check_lambda_matrix(Lambda)
    size = check_int("size", size, minimum=1, maximum=MAX_COUNT)
    _sim_budget(size, size, n, L.shape[0], "size", "size")
    W_KQ, W_V = _sim_weights(W_KQ, W_V, lam, gamma, n, L, sigma_w2, sigma_e2, noise)
    return _chunk_errors(rng, size, lam, gamma, n, L, sigma_w2, sigma_e2, noise, W_KQ, W_V)


def gla_squared_errors(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0, W_KQ=None, W_V=None,
                       n_samples=4000, seed=0, chunk=5000) -> np.ndarray:
    r"""Per-prompt squared errors :math:`(\hat y-y_{n+1})^2` of the actual GLA recursion on
    ``n_samples`` fresh AR(1) prompts drawn from ``np.random.default_rng(seed)`` in chunks of ``chunk``
    (so two calls with the same law, seed and chunk see the same prompts: paired comparisons). Defaults for the weights: the
    optimal embedded ones. Not halved.

    >>> from theorycheck.papers.gla.theory.errors import train_error
    >>> e = gla_squared_errors(0.8, 0.9, 10, np.eye(2), 1.0, 0.1, n_samples=3000, seed=1)
    >>> bool(abs(e.mean() - train_error(0.8, 0.9, 10, 2, 1.0, 0.1)) < 5 * e.std() / np.sqrt(e.size))
    True
    """
    lam, gamma, n, sigma_w2, sigma_e2, noise = check_law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    L = check_lambda_matrix(Lambda)
    n_samples = check_int("n_samples", n_samples, minimum=2, maximum=MAX_COUNT)
    chunk = check_int("chunk", chunk, minimum=1, maximum=MAX_COUNT)
    d = L.shape[0]
    _sim_budget(n_samples, min(chunk, n_samples), n, d, "n_samples", "chunk")
    check_memory("n_samples", n_samples, 8.0 * n_samples, "the squared errors")
    W_KQ, W_V = _sim_weights(W_KQ, W_V, lam, gamma, n, L, sigma_w2, sigma_e2, noise)
    rng = np.random.default_rng(check_int("seed", seed, minimum=0))
    out = []
    left = n_samples
    while left > 0:
        size = min(chunk, left)
        out.append(_chunk_errors(rng, size, lam, gamma, n, L, sigma_w2, sigma_e2, noise, W_KQ, W_V))
        left -= size
    return np.concatenate(out)
