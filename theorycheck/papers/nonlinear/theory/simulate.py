r"""Simulation of the actual model of paper 004: the reduced linear-attention predictor
:math:`\hat y=x_{\rm test}^\top(Au+sb)` fitted by ridge regression (minimum norm at λ = 0) on :math:`n=\tau d^2`
pretraining prompts, tested on fresh tasks — never the formula re-typed.

:func:`simulate_icl_sweep` runs several τ on nested prefixes of one training set per trial, :func:`simulate_icl`
one τ, :func:`simulate_teachers` several teachers on common random numbers. The simulator also draws non-Gaussian
laws for the assumption maps of paper 004 (``input_law``: independent or elliptical Student-t inputs;
``noise_law``: Student-t label noise), coupled to their Gaussian baseline, and refuses up front a call beyond the
memory budget or :data:`WORK_BUDGET`, naming the parameters that size it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from ....models.prompts import check_law, context_statistics, draw_inputs, draw_noise, draw_tasks
from ....models.ridge import fit_prefixes_factored
from ....montecarlo import MeanEstimate
from ....validate import (MAX_COUNT, ParameterTypeError, check_array, check_bool, check_choice, check_int,
                          check_real, memory_budget_bytes)
from ....verdicts.estimate import Estimate
from .ranges import MAX_VALUE
from .teachers import teacher

__all__ = ["SimResult", "WORK_BUDGET", "simulate_icl_sweep", "simulate_icl", "simulate_teachers"]


@dataclass
class SimResult:
    r"""Monte Carlo test error of the fitted predictor.

    ``trial_means`` (trials × n_τ): the test MSE of each independently trained predictor, averaged over
    ``n_test`` fresh test prompts. Trials are i.i.d., so the statistics are Student t over trials:
    ``mean`` = average of the trial means, ``se`` = their sample SD / √trials (``nan`` for one trial),
    ``df`` = trials − 1. ``se_within``: the test-prompt-only SE (ignores the training randomness, which
    dominates; reported, never used for a decision). Arrays when several τ were simulated.
    """

    mean: np.ndarray
    se: np.ndarray
    se_within: np.ndarray
    trial_means: np.ndarray       # (trials, n_tau)
    taus: np.ndarray
    n: np.ndarray
    p: int
    d: int
    ell: int
    k: int | None
    trials: int
    n_test: int
    params: dict = field(default_factory=dict)

    @property
    def df(self) -> int:
        """Degrees of freedom of ``se``: trials − 1."""
        return self.trials - 1

    def estimate(self, i: int = 0):
        """:class:`~theorycheck.verdicts.estimate.Estimate` (Student t, df = trials − 1) for the i-th τ."""
        return Estimate.from_samples(self.trial_means[:, i], label=f"d={self.d}, tau={self.taus[i]:g}")


#: work budget of one simulator call (elementary floating-point operations and random draws, estimated up front)
WORK_BUDGET = 5e13


def _sim_resources(d, p, ell, ns, k, trials, n_test, n_query, direct_inputs):
    """``(bytes, work)`` estimates of one :func:`simulate_icl_sweep` call (peak memory, total operations)."""
    nmax = float(max(ns))
    dual = [float(n) for n in ns if n <= p]
    primal = [float(n) for n in ns if n > p]
    nd = max(dual) if dual else 0.0
    ctx = (ell * d) if direct_inputs else (ell + d)
    mem = 8.0 * (5 * nmax * (d + 1) + 3 * nd * nd + (2 * p * p + 2048 * p if primal else 0)
                 + n_test * (4 * (d + 1) + 2 * n_query + (n_query * d if direct_inputs else 0))
                 + (min(nmax, 2048) * ell * (d if direct_inputs else 3)))
    work = (nmax * (ctx + 3 * d) + nd * nd * (2 * d + 1) + nd ** 3 / 3.0 + len(dual) * nd * nd
            + (nmax * p * p + len(primal) * p ** 3 / 3.0 if primal else 0.0)
            + n_test * (ctx + len(ns) * (d * (d + 1) + n_query * (d if direct_inputs else 2)))) * trials
    return mem, work


def _trial_streams(seed, trials, aux):
    """Per trial: the main generator (identical to ``montecarlo.rngs(seed, trials)[i]``) and, when ``aux``, a
    second independent generator for the scale draws of non-Gaussian laws (so the standard-normal streams of a
    stress path stay coupled to its Gaussian baseline)."""
    for s in np.random.SeedSequence(seed).spawn(trials):
        yield np.random.default_rng(s), (np.random.default_rng(s.spawn(1)[0]) if aux else None)


def simulate_icl_sweep(f, d, alpha, kappa, taus, rho, lam=0.0, trials=2, seed=0, n_test=2000,
                       normalize_tasks=False, method="projected", C_train=None, C_test=None,
                       n_query=32, input_law=None, noise_law=None) -> SimResult:
    r"""Monte Carlo of the actual predictor for several τ (nested prefixes of one training set
    per trial: the τ points of one trial share data, each point is an unbiased estimate).

    Per trial: draw :math:`k=\mathrm{round}(\kappa d)` tasks (or a fresh task per prompt if κ = ∞; a
    :math:`k` beyond the number of prompts is the same law as κ = ∞ and is capped), assign them round-robin to
    :math:`n_{\max}=\mathrm{round}(\tau_{\max}d^2)` prompts, build :math:`u,s` (:func:`context_statistics`),
    the query :math:`x\sim\mathcal N(0,I_d/d)`, label :math:`y=f(x^\top w)+\varepsilon`, features
    :math:`\mathrm{vec}(x[u^\top,s])`; fit Γ on each prefix (min-norm / ridge,
    :func:`~theorycheck.models.ridge.fit_prefixes_factored`: dual kernel as a Hadamard product, one Cholesky
    factor for every ridgeless dual prefix). Test on ``n_test`` prompts with fresh tasks
    :math:`w\sim\mathcal N(0,C_{\rm test})`: given :math:`v=Au+sb` and the task, the query error is averaged over
    ``n_query`` draws of :math:`t=x^\top w` and *exactly* over the query's component orthogonal to :math:`w` and
    the label noise: :math:`\mathrm{err}=\overline{(f(t)-\beta t)^2}+\rho+\|P_\perp v\|^2/d`,
    :math:`\beta=w^\top v/\|w\|^2` (Rao–Blackwellised; unbiased for the query MSE).

    ``C_train``/``C_test``: optional 1-D arrays of task-covariance eigenvalues (diagonal
    covariances; default identity).

    Stress laws (the assumption maps of paper 004): ``input_law`` ``("iid-t", ν)`` or ``("elliptical-t", ν)``
    draws every input (contexts, queries, test queries) from :func:`~theorycheck.models.prompts.draw_inputs`
    through the direct sampler, and the test error is then averaged over ``n_query`` drawn queries
    :math:`\overline{(f(x^\top w)-x^\top v)^2}+\rho` (no Gaussian projection); ``noise_law`` ``("t", ν)`` draws
    Student-t label noise of variance ρ. ν = ∞ runs the same code with Gaussian draws (the coupled baseline:
    the standard-normal streams are identical, the scales come from a second generator).

    Resources are estimated up front: a call beyond the memory budget (``THEORYCHECK_MEMORY_GB``) or
    :data:`WORK_BUDGET` is refused at once, naming the parameters that size it.
    """
    args = _check_sweep(d, alpha, kappa, taus, rho, lam, trials, seed, n_test, n_query, normalize_tasks, method,
                        input_law, noise_law)
    return _run_sweep(f, args, method, C_train, C_test)


class _SweepArgs(NamedTuple):
    """The validated arguments of :func:`simulate_icl_sweep` (but the teacher and the task covariances)."""

    d: int
    alpha: float
    kappa: float
    rho: float
    lam: float
    trials: int
    seed: int
    n_test: int
    n_query: int
    normalize_tasks: bool
    input_law: tuple | None
    noise_law: tuple | None
    taus: np.ndarray


def _run_sweep(f, args: _SweepArgs, method, C_train, C_test) -> SimResult:
    """:func:`simulate_icl_sweep` of validated arguments (the teacher and the covariances are resolved here)."""
    d, alpha, kappa, rho, lam, trials, seed, n_test, n_query, normalize_tasks, input_law, noise_law, taus = args
    _, fn = teacher(f)
    s = _sweep_setting(f, fn, d, alpha, kappa, taus, rho, lam, trials, n_test, n_query, normalize_tasks, method,
                       C_train, C_test, input_law, noise_law)
    tm = np.zeros((trials, taus.size))
    wv = np.zeros((trials, taus.size))
    for t_i, (rng, aux) in enumerate(_trial_streams(seed, trials, input_law is not None or noise_law is not None)):
        gams = _pretrain(s, rng, aux)
        _test(s, gams, rng, aux, tm[t_i], wv[t_i])
    if not np.all(np.isfinite(tm)):
        raise ValueError(f"the simulated test error is not finite for f = {f!r}, rho = {rho!r}, lam = {lam!r} "
                         "(overflow); rescale the teacher")
    mean = tm.mean(axis=0)
    within = wv.mean(axis=0) / n_test
    se = np.sqrt(tm.var(axis=0, ddof=1) / trials) if trials > 1 else np.full(taus.size, np.nan)
    return SimResult(mean, se, np.sqrt(within / trials), tm, taus, s.ns, s.p, d, s.ell, s.k, trials, n_test,
                     {"alpha": alpha, "kappa": kappa if math.isfinite(kappa) else "inf", "rho": rho, "lam": lam,
                      "seed": seed, "normalize_tasks": normalize_tasks, "method": method, "n_query": n_query,
                      "input_law": None if input_law is None else list(input_law)[:1] + [str(input_law[1])],
                      "noise_law": None if noise_law is None else list(noise_law)[:1] + [str(noise_law[1])]})


def _check_sweep(d, alpha, kappa, taus, rho, lam, trials, seed, n_test, n_query, normalize_tasks, method, input_law,
                 noise_law):
    """The arguments of :func:`simulate_icl_sweep`, validated (a ``ValueError`` naming the first bad one)."""
    d = check_int("d", d, minimum=2, maximum=10 ** 6)
    alpha = check_real("alpha", alpha, low=0.0, low_open=True)
    kappa = check_real("kappa", kappa, low=0.0, low_open=True, allow_inf=True)
    rho = check_real("rho", rho, low=0.0, high=MAX_VALUE)
    lam = check_real("lam", lam, low=0.0, high=MAX_VALUE)
    trials = check_int("trials", trials, minimum=1, maximum=MAX_COUNT)
    seed = check_int("seed", seed, minimum=0)
    n_test = check_int("n_test", n_test, minimum=2, maximum=MAX_COUNT)
    n_query = check_int("n_query", n_query, minimum=1, maximum=MAX_COUNT)
    normalize_tasks = check_bool("normalize_tasks", normalize_tasks)
    check_choice("method", method, ("projected", "direct"))
    input_law = check_law("input_law", input_law, ("iid-t", "elliptical-t"))
    noise_law = check_law("noise_law", noise_law, ("t",))
    if isinstance(taus, (str, bytes, bool, dict)) or taus is None:
        raise ParameterTypeError(f"tau/taus must be positive real numbers, got {taus!r}")
    try:
        taus = np.atleast_1d(np.asarray(taus, dtype=float))
    except (TypeError, ValueError):
        raise ParameterTypeError(f"tau/taus must be positive real numbers, got {taus!r}") from None
    if taus.ndim != 1 or taus.size == 0 or not np.all(np.isfinite(taus)) or np.any(taus <= 0):
        raise ValueError("tau/taus must be a non-empty list of finite positive numbers")
    if taus.size > 1000:
        raise ValueError(f"taus must hold at most 1000 values, got {taus.size}")
    if alpha * d > MAX_COUNT:
        raise ValueError(f"alpha = {alpha:g} with d = {d} gives a context length ℓ = αd above {MAX_COUNT:.0e}; "
                         "reduce alpha or d")
    if float(taus.max()) * d * d > MAX_COUNT:
        raise ValueError(f"tau = {float(taus.max()):g} with d = {d} gives n = τd² pretraining prompts above "
                         f"{MAX_COUNT:.0e}; reduce tau or d")
    return _SweepArgs(d, alpha, kappa, rho, lam, trials, seed, n_test, n_query, normalize_tasks, input_law, noise_law,
                      taus)


@dataclass
class _Sweep:
    """The setting one :func:`simulate_icl_sweep` call shares between its trials: the teacher, the sizes (context
    length ℓ, feature count p, prefix sizes n, their increasing order, the largest n, the number k of pretraining
    tasks or None for a fresh task per prompt), the task scales (square roots of the covariance eigenvalues, None
    for the identity), the context sampler and the laws."""

    f: object
    fn: object
    d: int
    ell: int
    p: int
    ns: np.ndarray
    order: np.ndarray
    nmax: int
    k: int | None
    rho: float
    lam: float
    cs_tr: np.ndarray | None
    cs_te: np.ndarray | None
    normalize_tasks: bool
    ctx_method: str
    input_law: tuple | None
    noise_law: tuple | None
    n_test: int
    n_query: int

    @property
    def direct(self) -> bool:
        """Inputs drawn directly (a non-Gaussian input law): no Gaussian projection of the test query."""
        return self.input_law is not None


def _sweep_setting(f, fn, d, alpha, kappa, taus, rho, lam, trials, n_test, n_query, normalize_tasks, method,
                   C_train, C_test, input_law, noise_law) -> _Sweep:
    """Sizes, resource guards and task scales of one :func:`simulate_icl_sweep` call (arguments validated)."""
    ell = max(1, int(round(alpha * d)))
    ns = np.array([max(1, int(round(t * d * d))) for t in taus])
    nmax = int(ns.max())
    k = None if math.isinf(kappa) or kappa * d >= nmax else max(1, int(round(kappa * d)))
    order = np.argsort(ns, kind="stable")
    p = d * (d + 1)
    direct = input_law is not None
    _check_resources(d, p, ell, ns, nmax, k, trials, n_test, n_query, direct, taus, alpha)
    cs_tr = None if C_train is None else np.sqrt(_eig_arg("C_train", C_train, d))
    cs_te = None if C_test is None else np.sqrt(_eig_arg("C_test", C_test, d))
    for name, cs in (("C_train", cs_tr), ("C_test", cs_te)):
        if cs is not None and not np.any(cs > 0):
            raise ValueError(f"{name} must have a positive eigenvalue (a zero task covariance has no tasks)")
    ctx_method = "direct" if direct else method
    return _Sweep(f, fn, d, ell, p, ns, order, nmax, k, rho, lam, cs_tr, cs_te, normalize_tasks, ctx_method,
                  input_law, noise_law, n_test, n_query)


def _check_resources(d, p, ell, ns, nmax, k, trials, n_test, n_query, direct, taus, alpha) -> None:
    """Refuse at once a call beyond the memory budget or :data:`WORK_BUDGET`, naming the parameter that sizes it."""
    mem, work = _sim_resources(d, p, ell, [int(x) for x in ns], k, trials, n_test, n_query, direct)
    budget = memory_budget_bytes()
    if mem > budget:
        parts = [("n_test", n_test * (4 * (d + 1) + 2 * n_query + (n_query * d if direct else 0))),
                 ("n_query", n_test * n_query * (2 + (d if direct else 0))),
                 ("tau", 5 * nmax * (d + 1) + 3 * max([n for n in ns if n <= p], default=0) ** 2),
                 ("d", 2 * p * p + 2048 * p if nmax > p else 0)]
        name = max(parts, key=lambda x: x[1])[0]
        raise ValueError(f"{name} = {dict(n_test=n_test, n_query=n_query, tau=float(taus.max()), d=d)[name]:g} needs "
                         f"about {mem / 2 ** 30:.1f} GiB (d = {d}, τ_max = {float(taus.max()):g}, n_test = {n_test}, "
                         f"n_query = {n_query}), above the memory budget of {budget / 2 ** 30:g} GiB (set "
                         f"THEORYCHECK_MEMORY_GB to raise it, or reduce {name})")
    if work > WORK_BUDGET:
        raise ValueError(f"trials = {trials} at d = {d}, τ_max = {float(taus.max()):g}, α = {alpha:g}, n_test = "
                         f"{n_test} needs about {work:.2g} operations, above the work budget {WORK_BUDGET:.0e} of one "
                         "call; reduce trials (or d, tau, alpha, n_test)")


def _pretrain(s: _Sweep, rng, aux) -> list:
    """One trial's pretraining: k tasks round-robin over n_max prompts (a fresh task per prompt when k is None),
    their context statistics u, s, the queries and their labels; Γ fitted on every prefix, in increasing n."""
    if s.k is None:
        Wp = draw_tasks(rng, s.nmax, s.d, s.cs_tr, s.normalize_tasks)
    else:
        Wk = draw_tasks(rng, s.k, s.d, s.cs_tr, s.normalize_tasks)
        Wp = Wk[np.arange(s.nmax) % s.k]
    U, S = context_statistics(s.fn, Wp, s.ell, s.rho, rng, s.ctx_method, input_law=s.input_law,
                              noise_law=s.noise_law, scale_rng=aux)
    xq = draw_inputs(rng, (s.nmax,), s.d, s.input_law, aux)
    yq = s.fn(np.einsum("nd,nd->n", xq, Wp)) + draw_noise(rng, s.nmax, s.rho, s.noise_law, aux)
    if not (np.all(np.isfinite(yq)) and np.max(np.abs(S), initial=0.0) < 1e100):
        raise ValueError(f"the labels of the teacher f = {s.f!r} overflow (|y|² beyond 1e100 at rho = {s.rho!r}); "
                         "rescale the teacher")
    Z = np.concatenate([U, S[:, None]], axis=1)
    del U, S
    return fit_prefixes_factored(xq, Z, yq, [int(s.ns[j]) for j in s.order], s.d, s.lam)


def _test(s: _Sweep, gams, rng, aux, tm_row, wv_row) -> None:
    """One trial's test set, shared across its τ's: for the fit of each prefix, the mean query error over
    ``n_test`` fresh tasks into ``tm_row`` and its variance into ``wv_row`` (Rao–Blackwellised over the query's
    component orthogonal to w and the label noise, unless the inputs are drawn directly)."""
    d, rho = s.d, s.rho
    Wt = draw_tasks(rng, s.n_test, d, s.cs_te, s.normalize_tasks)
    Ut, St = context_statistics(s.fn, Wt, s.ell, rho, rng, s.ctx_method, input_law=s.input_law,
                                noise_law=s.noise_law, scale_rng=aux)
    if s.direct:
        Xt = draw_inputs(rng, (s.n_test, s.n_query), d, s.input_law, aux)
        tq = np.einsum("tqd,td->tq", Xt, Wt)
    else:
        nw2 = np.sum(Wt * Wt, axis=1)
        tq = rng.standard_normal((s.n_test, s.n_query)) * np.sqrt(nw2 / d)[:, None]
    ft = s.fn(tq)
    for jj, j in enumerate(s.order):
        Gm = gams[jj].reshape(d, d + 1)
        V = Ut @ Gm[:, :d].T + St[:, None] * Gm[:, d][None, :]
        if s.direct:
            err = np.mean((ft - np.einsum("tqd,td->tq", Xt, V)) ** 2, axis=1) + rho
        else:
            beta = np.sum(V * Wt, axis=1) / np.where(nw2 > 0, nw2, 1.0)
            perp2 = np.sum(V * V, axis=1) - beta * beta * nw2
            err = np.mean((ft - beta[:, None] * tq) ** 2, axis=1) + rho + perp2 / d
        tm_row[j] = err.mean()
        wv_row[j] = err.var(ddof=1)


def _eig_arg(name, C, d):
    a = check_array(name, C, ndim=1)
    if a.size != d or np.any(a < 0):
        raise ValueError(f"{name} must be a 1-D array of {d} finite non-negative eigenvalues")
    return a


def simulate_icl(f, d, alpha, kappa, tau, rho, lam=0.0, trials=2, seed=0, n_test=2000,
                 normalize_tasks=False, method="projected", C_train=None, C_test=None, input_law=None,
                 noise_law=None) -> MeanEstimate:
    r"""Monte Carlo test MSE of the actual reduced linear-attention predictor at one τ.

    Returns a :class:`~theorycheck.montecarlo.MeanEstimate` (``mean``, ``se`` as in
    :class:`SimResult`: Student t over the ``n`` = ``trials`` independent training sets, df = trials − 1;
    ``se`` is ``nan`` for one trial). See :func:`simulate_icl_sweep` for the protocol and the resource guards.

    >>> est = simulate_icl("linear", d=8, alpha=2, kappa=math.inf, tau=3, rho=0.1, trials=2, n_test=500)
    >>> 0.2 < est.mean < 2.0
    True
    """
    if isinstance(tau, (list, tuple, np.ndarray)):
        raise ParameterTypeError(f"tau must be one positive real number (use simulate_icl_sweep for several), got "
                                 f"{tau!r}")
    res = simulate_icl_sweep(f, d, alpha, kappa, [tau], rho, lam, trials, seed, n_test,
                             normalize_tasks, method, C_train, C_test, input_law=input_law, noise_law=noise_law)
    return MeanEstimate(float(res.mean[0]), float(res.se[0]), res.trials, seed=res.params["seed"],
                        label=f"simulate_icl d={d} tau={tau}")


def simulate_teachers(teachers: dict, d, alpha, kappa, taus, trials, seed, n_test=2000, **kw) -> dict:
    r"""``{name: SimResult}`` for ``teachers = {name: (f, rho)}``, all with the same ``seed``.

    Same seed = common random numbers: the i-th trial of every teacher draws the same tasks, inputs,
    standard-normal label noise and test prompts, so per-trial differences between teachers are paired
    (their spread, not the sum of the two spreads, sets the SE).
    """
    if not isinstance(teachers, dict):
        raise ParameterTypeError(f"teachers must be a dict {{name: (f, rho)}}, got {type(teachers).__name__}")
    if not teachers:
        raise ValueError("teachers must name at least one (f, rho) pair")
    for name, v in teachers.items():
        if not (isinstance(v, tuple) and len(v) == 2):
            raise ValueError(f"teachers[{name!r}] must be a pair (f, rho), got {v!r}")
    unknown = sorted(set(kw) - set(_SWEEP_OPTIONS))
    if unknown:
        raise TypeError(f"simulate_teachers() got unexpected keyword arguments {unknown}")
    o = {**_SWEEP_OPTIONS, **kw}
    args = _check_sweep(d, alpha, kappa, taus, 0.0, o["lam"], trials, seed, n_test, o["n_query"],
                        o["normalize_tasks"], o["method"], o["input_law"], o["noise_law"])
    return {name: _run_sweep(f, args._replace(rho=check_real("rho", rho, low=0.0, high=MAX_VALUE)), o["method"],
                             o["C_train"], o["C_test"]) for name, (f, rho) in teachers.items()}


#: the keyword options of :func:`simulate_teachers` (those of :func:`simulate_icl_sweep`) and their defaults
_SWEEP_OPTIONS = {"lam": 0.0, "normalize_tasks": False, "method": "projected", "C_train": None, "C_test": None,
                  "n_query": 32, "input_law": None, "noise_law": None}
