"""Small helpers shared by the claim modules of paper 000 (estimates, settings, figures)."""
from __future__ import annotations

import numpy as np

from ...verdicts import Estimate

__all__ = ["batch_estimate", "fmt_grid"]


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
