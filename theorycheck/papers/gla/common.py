"""Small helpers shared by the claim modules of paper 000 (estimates, settings, figures, exact curves)."""
from __future__ import annotations

import numpy as np

from ...verdicts import Estimate
from .settings import D_EXP, N_EXP, SE2, SW2
from .theory import train_error

__all__ = ["batch_estimate", "fmt_grid", "error_curve"]


def batch_estimate(x, batches: int = 40) -> Estimate:
    """Batch-means estimate of the mean of ``x`` (C5): ``batches`` contiguous batches, df = batches − 1.

    >>> batch_estimate(np.arange(80.0), 4).df
    3
    """
    x = np.asarray(x, dtype=float).ravel()
    if x.size < 2 * batches:
        raise ValueError(f"x must hold at least 2 * batches = {2 * batches} values, got {x.size}")
    m = x.size // batches
    return Estimate.from_batches(x[:m * batches].reshape(batches, m).mean(axis=1), n_per_batch=m)


def fmt_grid(values) -> str:
    """``{0.5, 0.8}``-style text for a grid in a scope."""
    return "{" + ", ".join(f"{v:g}" for v in values) + "}"


def error_curve(g, n=N_EXP, d=D_EXP, sw2=SW2, se2=SE2, m=100):
    """``(lams, errors)``: the exact train error (Λ = I_d, no label noise, not halved) at the ``m`` gates
    λ = 1/m, 2/m, …, 1 for drift factor ``g`` (defaults: the experiments' d = 10, n = 100, σ_w² = 1, σ_e² = 0.01).

    >>> lams, err = error_curve(0.9, m=4)
    >>> lams.tolist(), bool(err[2] < err[3])
    ([0.25, 0.5, 0.75, 1.0], True)
    """
    lams = np.linspace(1.0 / m, 1.0, m)
    return lams, np.array([train_error(x, g, n, d, sw2, se2) for x in lams])
