"""The real models, shared by every paper: what the toolkit simulates (never the formula re-typed), organised by
what a model is.

Layer
    :mod:`~theorycheck.models.icl` — :class:`~theorycheck.models.icl.ICLLayer`, one in-context linear-attention
    layer on tokens of any shape (query in the key–value sum or not, 1/n or not, forgetting λ, read-out slot):
    prediction, halved loss, exact gradient; the GLA, LDS and Zhang–Frei–Bartlett parameterisations.
    :mod:`~theorycheck.models.attention` — the papers' own routes of that layer (the GLA recursion, linear attention
    on a scalar series, tested against it) and what goes beyond one layer: the multi-layer GLA stack, the streaming
    GLA predictor, the reduced linear-attention features of paper 004.
Samplers
    :mod:`~theorycheck.models.samplers` — prompts named by what they sample, one calling convention
    (``draw(rng, size)``, ``sampler(rng, size) -> (Z, y)``): static Gaussian regression, single-index teachers,
    AR(1)-drift regression, LDS trajectories. :mod:`~theorycheck.models.prompts` — the papers' sampling functions
    (AR(1) streams and prompts, task and input draws, the context statistics of paper 004).
Dynamics
    :mod:`~theorycheck.models.dynamics` — linear dynamical systems, the four system priors, trajectories,
    autocovariances.
Filters
    :mod:`~theorycheck.models.filters` — LMS, RLS, Kalman (AR(1) drift and LDS), oracle AR(s) predictors.
Ridge
    :mod:`~theorycheck.models.ridge` — ridge / minimum-norm fits on nested prefixes.
Training
    :mod:`~theorycheck.models.training` — :func:`~theorycheck.models.icl.train_icl` (the generic layer: gradient
    flow, mini-batch and online SGD, support masks) and ``train_linear_attention`` (Adam/AdamW on LDS trajectories,
    clipping, warm-up, cosine decay).

Models import the engines (:mod:`theorycheck.gaussian`, :mod:`theorycheck.validate`, :mod:`theorycheck.memo`) only.
"""
from . import attention, dynamics, filters, icl, prompts, ridge, samplers, training

__all__ = ["icl", "attention", "samplers", "prompts", "dynamics", "filters", "ridge", "training"]
