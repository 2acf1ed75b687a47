r"""Prompt samplers named by what they sample, with one calling convention.

Every sampler is a frozen parameter object (validated on construction) with

* ``draw(rng, size)``: the raw prompts — ``X (size, n+1, d), Y (size, n+1)`` for regression prompts (the last
  pair is the query and its target), the trajectories ``Y (size, T)`` for a dynamical system;
* ``sampler(rng, size)``: the tokens and targets ``(Z, y)`` of :class:`theorycheck.models.icl.ICLLayer`
  (``Z (size, n+1, D)`` with the query's label slot blank, ``y (size,)``) — the sampler protocol of
  :func:`theorycheck.models.icl.train_icl`;
* ``token_dim`` (D) and ``context_length`` (n).

Samplers
--------
:class:`GaussianRegressionPrompts`
    static linear regression: :math:`x_i\sim\mathcal N(0,\Lambda)`, one task :math:`w\sim\mathcal N(0,
    \sigma_w^2I_d)` per prompt, :math:`y_i=\langle w,x_i\rangle+\varepsilon_i`, :math:`\varepsilon_i\sim\mathcal
    N(0,\sigma^2)` (Zhang–Frei–Bartlett's data with ``noise = 0``).
:class:`SingleIndexPrompts`
    single-index teachers :math:`y_i=f(\langle w,x_i\rangle)+\varepsilon_i`, the same law of :math:`x, w,
    \varepsilon` (paper 004's inputs are ``Lambda = I/d``; its reduced predictor samples the context statistics
    directly, :func:`theorycheck.models.prompts.context_statistics`).
:class:`AR1DriftPrompts`
    linear regression with AR(1)-drifting weights within the prompt (paper 000):
    :func:`theorycheck.models.prompts.ar1_drift_prompts`, the same random stream.
:class:`LDSPrompts`
    trajectories of linear dynamical systems from a prior (paper 001; :mod:`theorycheck.models.dynamics`), the
    tokens the lagged windows of :func:`theorycheck.models.attention.token_matrix` — the stream of
    :func:`theorycheck.models.training.train_linear_attention`.

:func:`regression_tokens` and :func:`series_tokens` turn raw prompts into tokens.

>>> task = GaussianRegressionPrompts(d=2, n=5, noise=0.1)
>>> Z, y = task(np.random.default_rng(0), 3)
>>> Z.shape, y.shape, float(np.abs(Z[:, -1, -1]).max())
((3, 6, 3), (3,), 0.0)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..gaussian import psd_factor
from ..validate import MAX_COUNT, ParameterTypeError, check_callable, check_int, check_memory, check_psd, check_real
from .attention import gla_tokens, token_matrix
from .dynamics import MAX_T, check_prior
from .prompts import ar1_drift_prompts

__all__ = ["GaussianRegressionPrompts", "SingleIndexPrompts", "AR1DriftPrompts", "LDSPrompts", "regression_tokens",
           "series_tokens"]


def regression_tokens(X, Y):
    r"""Tokens :math:`z_i=(x_i,y_i)` with the query's label slot blank, and the targets :math:`y_{n+1}`:
    ``Z (B, n+1, d+1)``, ``y (B,)`` from ``X (B, n+1, d)``, ``Y (B, n+1)``.

    >>> Z, y = regression_tokens(np.ones((1, 2, 1)), np.array([[2.0, 5.0]]))
    >>> Z[0].tolist(), y.tolist()
    ([[1.0, 2.0], [1.0, 0.0]], [5.0])
    """
    Z = gla_tokens(X, Y)                                 # validates X and Y
    return Z, np.array(Y, dtype=float)[:, -1]


def series_tokens(Y, s: int):
    r"""Tokens of a scalar series: the columns of :func:`~theorycheck.models.attention.token_matrix` (windows
    :math:`[\bar y_i;y_{i+s}]`, the query :math:`[\bar y_{T-s};0]` last) as ``Z (B, T-s, s+1)``, and the targets
    :math:`y_T` ``(B,)``.

    >>> Z, y = series_tokens(np.arange(1.0, 6.0), 1)
    >>> Z[0].tolist(), y.tolist()
    ([[1.0, 2.0], [2.0, 3.0], [3.0, 4.0], [4.0, 0.0]], [5.0])
    """
    Y0 = token_matrix(Y, s)                              # validates Y and s
    return np.ascontiguousarray(Y0.transpose(0, 2, 1)), np.atleast_2d(np.asarray(Y, dtype=float))[:, -1].copy()


def _check_rng(rng):
    if not isinstance(rng, np.random.Generator):
        raise ParameterTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def _draw_index_prompts(task, rng, size, fn):
    """Inputs, one task per prompt, labels f(⟨w, x⟩) + ε (``fn=None``: the identity): see
    :class:`SingleIndexPrompts` for the law and the order of the random numbers."""
    _check_rng(rng)
    size = check_int("size", size, minimum=1, maximum=MAX_COUNT)
    n, d = task.n, task.d
    check_memory("size", size, 8.0 * float(size) * float(n + 1) * (2.0 * d + 4.0),
                 f"{size} prompts of {n + 1} tokens in d = {d}")
    X = rng.standard_normal((size * (n + 1), d))
    if task.Lambda is not None:                             # F Fᵀ = Λ (Cholesky), as gaussian.sample
        X = X @ psd_factor(task.Lambda).T
    X = X.reshape(size, n + 1, d)
    w = math.sqrt(task.sigma_w2) * rng.standard_normal((size, d))
    t = np.einsum("btd,bd->bt", X, w)
    eps = math.sqrt(task.noise) * rng.standard_normal((size, n + 1))
    with np.errstate(over="ignore", invalid="ignore"):
        Y = (t if fn is None else np.broadcast_to(fn(t), t.shape)) + eps
    if not np.all(np.isfinite(Y)):
        raise ValueError(f"the labels are not finite for sigma_w2 = {task.sigma_w2!r}, noise = {task.noise!r} and "
                         "the inputs and teacher given (overflow)")
    return X, Y


class _RegressionSampler:
    """What the regression samplers share: tokens ``(x_i, y_i)``, the calling convention of the module."""

    @property
    def token_dim(self) -> int:
        return self.d + 1

    @property
    def context_length(self) -> int:
        return self.n

    def __call__(self, rng, size):
        """Tokens and targets ``(Z, y)`` (:func:`regression_tokens`)."""
        return regression_tokens(*self.draw(rng, size))

    def _check_law(self):
        d = check_int("d", self.d, minimum=1, maximum=100_000)
        object.__setattr__(self, "d", d)
        object.__setattr__(self, "n", check_int("n", self.n, minimum=1, maximum=MAX_COUNT))
        object.__setattr__(self, "sigma_w2", check_real("sigma_w2", self.sigma_w2, 0.0, 1e16))
        object.__setattr__(self, "noise", check_real("noise", self.noise, 0.0, 1e16))
        if self.Lambda is not None:
            L = check_psd("Lambda", self.Lambda)
            if L.shape != (d, d):
                raise ValueError(f"Lambda must have shape ({d}, {d}), got {L.shape}")
            object.__setattr__(self, "Lambda", L)


@dataclass(frozen=True, eq=False)
class SingleIndexPrompts(_RegressionSampler):
    r"""Prompts of a single-index teacher: per prompt one task :math:`w\sim\mathcal N(0,\sigma_w^2I_d)`, inputs
    :math:`x_i\sim\mathcal N(0,\Lambda)` i.i.d. (``Lambda=None``: :math:`I_d`), labels
    :math:`y_i=f(\langle w,x_i\rangle)+\varepsilon_i`, :math:`\varepsilon_i\sim\mathcal N(0,\text{noise})`,
    :math:`i=1..n+1` (the last pair is the query and its target). ``fn`` (keyword) acts elementwise on an array;
    ``None`` is the identity (:class:`GaussianRegressionPrompts`).

    Random numbers, in this order: the inputs (``(size·(n+1), d)`` standard normals times :math:`F^\top`,
    :math:`FF^\top=\Lambda` the Cholesky factor), the tasks ``(size, d)``, the label noise ``(size, n+1)``.

    >>> X, Y = SingleIndexPrompts(d=3, n=4, fn=np.tanh).draw(np.random.default_rng(0), 2)
    >>> X.shape, Y.shape, bool(np.all(np.abs(Y) < 1))
    ((2, 5, 3), (2, 5), True)
    """

    d: int
    n: int
    Lambda: object = None
    sigma_w2: float = 1.0
    noise: float = 0.0
    fn: object = field(default=None, kw_only=True)

    def __post_init__(self):
        if self.fn is not None:
            check_callable("fn", self.fn)
        self._check_law()

    def draw(self, rng, size):
        """``X (size, n+1, d)``, ``Y (size, n+1)``."""
        return _draw_index_prompts(self, rng, size, self.fn)


@dataclass(frozen=True, eq=False)
class GaussianRegressionPrompts(SingleIndexPrompts):
    r"""Static Gaussian linear regression prompts: :math:`y_i=\langle w,x_i\rangle+\varepsilon_i`, the law of
    :class:`SingleIndexPrompts` with :math:`f` the identity (the same random numbers);
    :math:`E[y^2]=\sigma_w^2\operatorname{tr}\Lambda+\text{noise}`.

    >>> task = GaussianRegressionPrompts(d=2, n=3, Lambda=np.diag([1.0, 0.25]))
    >>> X, Y = task.draw(np.random.default_rng(0), 4)
    >>> X.shape, task.token_dim
    ((4, 4, 2), 3)
    """

    fn: object = field(default=None, init=False, repr=False)


@dataclass(frozen=True, eq=False)
class AR1DriftPrompts(_RegressionSampler):
    r"""Linear regression whose weights drift within the prompt (paper 000): :math:`w_0\sim\mathcal N(0,
    \sigma_w^2I)`, :math:`w_t=\gamma w_{t-1}+e_t`, :math:`e_t\sim\mathcal N(0,\sigma_e^2I)`,
    :math:`y_t=\langle w_t,x_t\rangle+\varepsilon_t` (``noise`` its variance), :math:`x_t\sim\mathcal N(0,\Lambda)`:
    :func:`~theorycheck.models.prompts.ar1_drift_prompts` (its law, checks and random stream).

    >>> task = AR1DriftPrompts(d=2, n=3, gamma=0.9, sigma_w2=1.0, sigma_e2=0.1)
    >>> Z, y = task(np.random.default_rng(0), 5)
    >>> Z.shape
    (5, 4, 3)
    """

    d: int
    n: int
    gamma: float
    sigma_w2: float
    sigma_e2: float
    noise: float = 0.0
    Lambda: object = None

    def __post_init__(self):
        self._check_law()
        object.__setattr__(self, "gamma", check_real("gamma", self.gamma, 0.0, 1.0, low_open=True))
        object.__setattr__(self, "sigma_e2", check_real("sigma_e2", self.sigma_e2, 0.0, 1e16))
        if self.Lambda is None:
            object.__setattr__(self, "Lambda", np.eye(self.d))

    def draw(self, rng, size):
        """``X (size, n+1, d)``, ``Y (size, n+1)``."""
        return ar1_drift_prompts(rng, size, self.gamma, self.n, self.Lambda, self.sigma_w2, self.sigma_e2,
                                 self.noise)


@dataclass(frozen=True, eq=False)
class LDSPrompts:
    r"""Trajectories :math:`y_1..y_T` of linear dynamical systems drawn from ``prior`` (one system per prompt,
    :mod:`theorycheck.models.dynamics`), tokenised with lag ``s``: the windows :math:`[\bar y_i;y_{i+s}]` of
    :func:`~theorycheck.models.attention.token_matrix`, ``n = T - s - 1`` context tokens, target :math:`y_T`.

    ``draw(rng, size)`` is ``prior.sample(rng, size).simulate(T, rng)``: the random stream of
    :func:`~theorycheck.models.training.train_linear_attention`.

    >>> from theorycheck.models.dynamics import make_prior
    >>> task = LDSPrompts(make_prior("a", d=2), T=8, s=2)
    >>> Z, y = task(np.random.default_rng(0), 3)
    >>> Z.shape, task.context_length
    ((3, 6, 3), 5)
    """

    prior: object
    T: int
    s: int

    def __post_init__(self):
        check_prior(self.prior)
        s = check_int("s", self.s, minimum=1, maximum=10_000)
        object.__setattr__(self, "s", s)
        object.__setattr__(self, "T", check_int("T", self.T, minimum=s + 3, maximum=MAX_T))

    @property
    def token_dim(self) -> int:
        return self.s + 1

    @property
    def context_length(self) -> int:
        return self.T - self.s - 1

    def draw(self, rng, size):
        """``Y (size, T)``: one trajectory per system."""
        _check_rng(rng)
        return self.prior.sample(rng, size).simulate(self.T, rng)

    def __call__(self, rng, size):
        """Tokens and targets ``(Z, y)`` (:func:`series_tokens`)."""
        return series_tokens(self.draw(rng, size), self.s)
