r"""Training loops of the actual models on sampled data.

* :func:`train_icl` (from :mod:`theorycheck.models.icl`): the generic in-context layer on any tokens — full-batch
  gradient descent (gradient flow), mini-batch or online SGD, support masks.
* :func:`train_linear_attention` trains one-layer linear attention on LDS trajectories (paper 001) with Adam /
  AdamW, optional gradient clipping, warm-up and cosine decay, fresh batches every step.

(The GLA gradient flows of paper 000 integrate the *exact population loss* and live with that theory in
:mod:`theorycheck.papers.gla.theory`; its multi-layer stack is trained by
:func:`theorycheck.papers.gla.theory.simulate.train_gla_stack`.)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..validate import MAX_COUNT, ParameterTypeError, check_choice, check_int, check_memory, check_real
from .attention import attention_loss_and_grad
from .dynamics import check_prior
from .icl import ICLTrainResult, check_support, train_icl

__all__ = ["TrainResult", "train_linear_attention", "ICLTrainResult", "train_icl"]


@dataclass
class TrainResult:
    """Trained weights and the loss history (halved loss, mean over each fresh batch)."""

    W_QK: np.ndarray
    W_V: np.ndarray
    losses: np.ndarray
    config: dict
    #: the state to resume from, for a run stopped before its last step (``until``), else None
    state: dict | None = None

    def as_dict(self):
        return {"W_QK": self.W_QK, "W_V": self.W_V, "final_loss": float(np.mean(self.losses[-50:])),
                **self.config}

def train_linear_attention(T: int, s: int, prior, steps: int, batch: int, seed: int, lr: float = 0.01,
                           weight_decay: float = 0.0, clip: float | None = 1.0, warmup: int | None = None,
                           schedule: str = "cosine", init_scale: float = 0.1,
                           betas=(0.9, 0.999), eps: float = 1e-8, support=None, until: int | None = None,
                           resume: dict | None = None) -> TrainResult:
    r"""Train all entries of :math:`W_{QK}` and :math:`W_V` ((s+1)x(s+1) each) on the halved loss
    :math:`\frac12E[(\hat y_T-y_T)^2]`, fresh systems and trajectories every step.

    Optimiser: Adam(W) with decoupled weight decay ``weight_decay``, global-norm gradient clipping
    at ``clip`` (``None`` = off), linear warm-up for ``warmup`` steps (default 5 % of ``steps``)
    then cosine decay to 0 (``schedule="cosine"``) or constant. Initial weights i.i.d.
    :math:`\mathcal N(0, \text{init\_scale}^2)`. NumPy only; gradients analytic
    (:func:`attention_loss_and_grad`). Randomness: ``SeedSequence(seed)`` → init and data streams
    (the data stream is that of :class:`theorycheck.models.samplers.LDSPrompts`).
    ``support=(mask_QK, mask_V)`` (boolean (s+1)x(s+1) each) restricts training to those entries
    (the others are held at 0) — used to compare the loss of structured and unstructured optima.
    (The generic layer's trainer, plain gradient descent and SGD on any tokens, is
    :func:`theorycheck.models.icl.train_icl`.)

    A run in pieces (a chain of tasks): ``until=k`` stops after step ``k``, its :attr:`TrainResult.state` holding
    weights, Adam moments, losses so far and the data stream's generator state; the same call with ``resume=state``
    continues from step ``k`` with the same draws and arithmetic: the uninterrupted run, bit for bit (a state of
    other settings is refused).

    >>> from theorycheck.models.dynamics import make_prior
    >>> p = make_prior("a", d=2)
    >>> whole = train_linear_attention(8, 1, p, steps=6, batch=4, seed=3)
    >>> head = train_linear_attention(8, 1, p, steps=6, batch=4, seed=3, until=2)
    >>> tail = train_linear_attention(8, 1, p, steps=6, batch=4, seed=3, resume=head.state)
    >>> bool(np.array_equal(whole.W_QK, tail.W_QK) and np.array_equal(whole.losses, tail.losses))
    True
    """
    T = check_int("T", T, minimum=4, maximum=400)
    s = check_int("s", s, minimum=1, maximum=T - 3)
    prior = check_prior(prior)
    steps = check_int("steps", steps, minimum=1, maximum=MAX_COUNT)
    batch = check_int("batch", batch, minimum=2, maximum=MAX_COUNT)
    check_memory("batch", batch, 8.0 * batch * (T * (2 * prior.d + 4 * (s + 1)) + 3 * prior.d * prior.d),
                 f"one batch of {batch} systems and trajectories")
    check_memory("steps", steps, 8.0 * steps, "the loss history")
    seed = check_int("seed", seed, minimum=0)
    adam = _Adam.checked(lr, weight_decay, clip, steps, warmup, schedule, betas, eps)
    init_scale = check_real("init_scale", init_scale, 0.0, 1e3, low_open=True)
    masks = check_support(support, s + 1)
    until = steps if until is None else check_int("until", until, minimum=1, maximum=steps)
    cfg = {"T": T, "s": s, "steps": steps, "batch": batch, "seed": seed, "lr": adam.lr,
           "weight_decay": adam.weight_decay, "clip": adam.clip, "warmup": adam.warmup, "schedule": adam.schedule,
           "init_scale": init_scale, "betas": [adam.b1, adam.b2], "prior": prior.describe(),
           "restricted_support": masks is not None}
    if resume is None:
        ss = np.random.SeedSequence(seed)
        init_rng, data_rng = (np.random.default_rng(x) for x in ss.spawn(2))
        params = [init_scale * init_rng.standard_normal((s + 1, s + 1)) for _ in range(2)]
        if masks is not None:
            params = [p * mk for p, mk in zip(params, masks)]
        m = [np.zeros_like(p) for p in params]
        v2 = [np.zeros_like(p) for p in params]
        losses = np.empty(steps)
        start = 0
    else:
        start, params, m, v2, losses, data_rng = _resumed(resume, cfg, until)
    batches = prior.trajectory_batches(data_rng, batch, T)      # = prior.sample(data_rng, batch).simulate(T, data_rng)
    for k in range(start, until):
        Y = next(batches)
        try:
            loss, gq, gv = attention_loss_and_grad(params[0], params[1], Y)
        except ValueError:          # the weights overflowed: the run diverged
            params[0] = params[0] * np.nan
        if not np.isfinite(params[0]).all():
            raise ValueError(adam.diverged(k, init_scale))
        losses[k] = loss
        grads = [gq, gv] if masks is None else [gq * masks[0], gv * masks[1]]
        params = adam.step(k, params, grads, m, v2)
        if not np.isfinite(params[0]).all() or not np.isfinite(params[1]).all():
            raise ValueError(adam.diverged(k, init_scale))
    if until < steps:
        state = {"step": until, "config": cfg, "params": params, "m": m, "v2": v2, "losses": losses[:until].copy(),
                 "rng": data_rng.bit_generator.state}
        return TrainResult(params[0], params[1], losses[:until], cfg, state)
    return TrainResult(params[0], params[1], losses, cfg)


def _resumed(state, cfg, until):
    """``(start, params, m, v2, losses, data generator)`` of a run stopped by ``until`` (its ``state``), after
    checking that it is a state of the same settings (``cfg``) and stopped before ``until``."""
    if not isinstance(state, dict) or set(state) != {"step", "config", "params", "m", "v2", "losses", "rng"}:
        raise ParameterTypeError("resume must be the state of a stopped run (TrainResult.state)")
    if state["config"] != cfg:
        diff = sorted(k for k in cfg if state["config"].get(k) != cfg[k])
        raise ValueError(f"resume: the state is of a run with other settings ({', '.join(diff)})")
    start = state["step"]
    if not 1 <= start < until:
        raise ValueError(f"resume: the state stopped after step {start}; until must be in ({start}, {cfg['steps']}], "
                         f"got {until}")
    losses = np.empty(cfg["steps"])
    losses[:start] = state["losses"]
    rng = np.random.Generator(np.random.PCG64())
    rng.bit_generator.state = state["rng"]
    copy = [[np.array(a, dtype=float) for a in state[k]] for k in ("params", "m", "v2")]
    return (start, *copy, losses, rng)


@dataclass(frozen=True)
class _Adam:
    """Adam(W) with global-norm clipping, linear warm-up and cosine or constant decay (validated options)."""

    lr: float
    weight_decay: float
    clip: float | None
    steps: int
    warmup: int
    schedule: str
    b1: float
    b2: float
    eps: float

    @classmethod
    def checked(cls, lr, weight_decay, clip, steps, warmup, schedule, betas, eps):
        lr = check_real("lr", lr, 0.0, 10.0, low_open=True)
        weight_decay = check_real("weight_decay", weight_decay, 0.0, 100.0)
        if clip is not None:
            clip = check_real("clip", clip, 0.0, low_open=True)
        warmup = max(1, steps // 20) if warmup is None else check_int("warmup", warmup, minimum=0, maximum=steps)
        check_choice("schedule", schedule, ("cosine", "constant"))
        eps = check_real("eps", eps, 0.0, 1.0, low_open=True)
        if isinstance(betas, (str, bytes)) or not hasattr(betas, "__len__") or len(betas) != 2:
            raise ParameterTypeError(f"betas must be a pair (beta1, beta2), got {betas!r:.60}")
        b1, b2 = (check_real("betas[0]", betas[0], 0.0, 1.0, high_open=True),
                  check_real("betas[1]", betas[1], 0.0, 1.0, high_open=True))
        return cls(lr, weight_decay, clip, steps, warmup, schedule, b1, b2, eps)

    def rate(self, k):
        """The learning rate of step ``k``: linear warm-up, then cosine decay to 0 or constant."""
        if k < self.warmup:
            return self.lr * (k + 1) / self.warmup
        if self.schedule == "cosine":
            return self.lr * 0.5 * (1 + math.cos(math.pi * (k - self.warmup) / max(self.steps - self.warmup, 1)))
        return self.lr

    def step(self, k, params, grads, m, v2):
        """The parameters after step ``k`` (moments ``m``, ``v2`` updated in place)."""
        if self.clip is not None:
            gn = math.sqrt(sum(float(np.sum(g * g)) for g in grads))
            if gn > self.clip:
                grads = [g * (self.clip / gn) for g in grads]
        lr_k = self.rate(k)
        b1, b2 = self.b1, self.b2
        out = []
        for i in range(len(params)):
            m[i] = b1 * m[i] + (1 - b1) * grads[i]
            v2[i] = b2 * v2[i] + (1 - b2) * grads[i] ** 2
            mh = m[i] / (1 - b1 ** (k + 1))
            vh = v2[i] / (1 - b2 ** (k + 1))
            out.append(params[i] - lr_k * (mh / (np.sqrt(vh) + self.eps) + self.weight_decay * params[i]))
        return out

    def diverged(self, k, init_scale):
        return (f"training diverged at step {k} with lr = {self.lr:g}, init_scale = {init_scale:g}, "
                f"weight_decay = {self.weight_decay:g}, eps = {self.eps:g}, betas = ({self.b1:g}, {self.b2:g}): lower "
                "lr or init_scale")
