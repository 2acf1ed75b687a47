"""Wall-clock timing for the benchmarks (never used in claim evidence, which must be deterministic).

>>> t, out = best_time(lambda: sum(range(10)), repeat=2)
>>> out, t >= 0
(45, True)
"""
from __future__ import annotations

import time

__all__ = ["best_time"]


def best_time(fn, repeat: int = 3):
    """Best of ``repeat`` wall-clock timings of ``fn()``; returns ``(seconds, last result)``."""
    if repeat < 1:
        raise ValueError(f"repeat must be an integer >= 1, got {repeat}")
    best, out = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out
