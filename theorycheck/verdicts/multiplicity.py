r"""Multiplicity control: Holm's step-down adjustment over one family of hypotheses.

The family of a report is every hypothesis its statistical sub-claims test — the *for* and the
*against* test of each (:mod:`theorycheck.verdicts.rules`) — so the probability that any verdict of
the report is a false confirmation or a false refutation is at most the family-wise α.
Self-checks form their own family per paper. The adjustment is statsmodels'
``multipletests(method="holm")``; both raw and adjusted p-values are recorded.

>>> holm([0.01, 0.04, 0.03])
[0.03, 0.06, 0.06]
>>> holm([])
[]
"""
from __future__ import annotations

import gc
import math

import numpy as np

__all__ = ["holm"]


def holm(pvalues) -> list[float]:
    """Holm-adjusted p-values (same order as the input), each capped at 1."""
    p = np.asarray(list(pvalues), dtype=float)
    if p.size == 0:
        return []
    if not np.all((p >= 0) & (p <= 1)) or any(math.isnan(x) for x in p):
        raise ValueError("p-values must lie in [0, 1]")
    from statsmodels.stats.multitest import multipletests  # heavy: statsmodels takes ~1 s to import
    gc.freeze()            # multipletests' Holm branch calls gc.collect(): with the heap frozen it does not walk
    try:                   # every object of the process (0.1–0.6 s per call in a run's main process)
        adj = multipletests(p, alpha=0.05, method="holm")[1]
    finally:
        gc.unfreeze()
    return [float(min(1.0, x)) for x in adj]
