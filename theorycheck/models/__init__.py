"""The real models, shared by every paper: what the toolkit simulates (never the formula re-typed).

:mod:`~theorycheck.models.attention`
    gated linear attention (full recursion and reduced streaming predictor), one-layer linear
    self-attention on sequence tokens, the reduced linear-attention features of context statistics.
:mod:`~theorycheck.models.prompts`
    AR(1)-drift regression streams and prompts, single-index teacher tasks and context statistics.
:mod:`~theorycheck.models.dynamics`
    linear dynamical systems, the four system priors, trajectories.
:mod:`~theorycheck.models.filters`
    LMS, RLS, Kalman (AR(1) drift and LDS), oracle AR(s) predictors.
:mod:`~theorycheck.models.ridge`
    ridge / minimum-norm fits on nested prefixes.
:mod:`~theorycheck.models.training`
    training loops (Adam/AdamW, clipping, warm-up, cosine decay) on freshly sampled data.

Models import the engines (:mod:`theorycheck.gaussian`, :mod:`theorycheck.validate`) only.
"""
from . import attention, dynamics, filters, prompts, ridge, training

__all__ = ["attention", "dynamics", "filters", "prompts", "ridge", "training"]
