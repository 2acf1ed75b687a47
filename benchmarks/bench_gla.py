"""Timings for paper 000 (GLA) — benchmarks only; never used as evidence.

Rows ``{"name", "value", "unit", "note"}``:

* exact sums / train error (closed form vs direct O(n) sums) at n = 100 and n = 1000;
* ``optimal_lambda`` at the experiment's sizes (d = 10, n = 100);
* ``simulate_gla`` (the GLA recursion) per prompt at d = 10, n = 100, measured side by side (interleaved, best of
  several) with the bare random-number draws it consumes — the row with unit ``"sim/draws"`` is their ratio
  (issue 11: within 2×);
* ``gradient_flow`` (reduced parameters) at d = 3 and d = 10;
* LMS / RLS / Kalman per stream at d = 10, T = 1000, and the multi-channel RLS residuals of the reconciliation;
* the paper's quick run (``theorycheck.run.run_papers``, one process; full with ``--full``).

Run: ``python benchmarks/bench_gla.py [--full]``.
"""
from __future__ import annotations

import json
import sys
import time

import numpy as np

from theorycheck import adaptive_filters as af
from theorycheck.papers.gla import theory as gla
from theorycheck.montecarlo import rngs
from theorycheck.timing import best_time


def _draws(n_samples, n, d, seed=1, batch=5000):
    """The standard normals simulate_gla consumes (inputs, w₀, innovations, label noise), drawn in the same
    chunks from the same generators, and nothing else."""
    left = n_samples
    for g in rngs(seed, -(-n_samples // batch)):
        size = min(batch, left)
        g.standard_normal((size * (n + 1), d))
        g.standard_normal((size, d))
        for _ in range(n + 1):
            g.standard_normal((size, d))
            g.standard_normal(size)
        left -= size


def sim_vs_draws(n_samples=20000, n=100, d=10, repeat=5) -> tuple[float, float]:
    """Best times of simulate_gla and of its bare draws, interleaved (same machine state)."""
    L = np.eye(d)
    ts, td = float("inf"), float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        _draws(n_samples, n, d)
        td = min(td, time.perf_counter() - t0)
        t0 = time.perf_counter()
        gla.simulate_gla(0.74, 0.8, n, L, 1.0, 0.01, n_samples=n_samples, seed=1)
        ts = min(ts, time.perf_counter() - t0)
    return ts, td


def run(quick: bool = True) -> list[dict]:
    try:
        from threadpoolctl import threadpool_limits
        threadpool_limits(1)
    except ImportError:  # pragma: no cover
        pass
    rows = []
    for n in (100, 1000):
        t, _ = best_time(lambda: gla.moment_sums(0.6, 0.8, n, 1.0, 0.01, method="closed"), 5)
        rows.append({"name": f"moment_sums closed form n={n}", "value": t * 1e3, "unit": "ms", "note": "generated SymPy code"})
        t, _ = best_time(lambda: gla.moment_sums(0.6, 0.8, n, 1.0, 0.01, method="direct"), 5)
        rows.append({"name": f"moment_sums direct n={n}", "value": t * 1e3, "unit": "ms", "note": "O(n) sums (lfilter)"})
    t, _ = best_time(lambda: gla.optimal_lambda(0.8, 100, 10, 1.0, 0.01), 2)
    rows.append({"name": "optimal_lambda d=10 n=100", "value": t, "unit": "s", "note": "401-point grid + Brent"})
    ns = 10000 if quick else 40000
    ts, td = sim_vs_draws(ns, repeat=3 if quick else 5)
    rows.append({"name": "simulate_gla d=10 n=100", "value": ts / ns * 1e6, "unit": "us/prompt",
                 "note": f"{ns} prompts, projected recursion (the read-out row of the state)"})
    rows.append({"name": "simulate_gla draws d=10 n=100", "value": td / ns * 1e6, "unit": "us/prompt",
                 "note": "the standard normals it consumes, same generators and chunks"})
    rows.append({"name": "simulate_gla / its draws d=10 n=100", "value": ts / td, "unit": "sim/draws",
                 "note": f"best of interleaved runs, {ns} prompts (target <= 2; 3.7 before round 2)"})
    for d in (3, 10):
        t, fr = best_time(lambda: gla.gradient_flow(0.7, 0.8, 20 if d == 3 else 100, np.eye(d), 1.0, 0.1 if d == 3 else 0.01,
                                                init="random", seed=1), 1)
        rows.append({"name": f"gradient_flow random init d={d}", "value": t, "unit": "s",
                     "note": f"final rel. distance {fr.extra['final_rel_dist']:.1e}"})
    runs = 500 if quick else 5000
    X, Y = af.ar1_stream(np.random.default_rng(0), runs, 1000, 10, 0.9, 1.0, 0.01)
    for name, fn in (("LMS", lambda: af.lms_errors(X, Y, 0.02)), ("RLS", lambda: af.rls_errors(X, Y, 0.95)),
                     ("Kalman", lambda: af.kalman_errors(X, Y, 0.9, 1.0, 0.01))):
        t, _ = best_time(fn, 1)
        rows.append({"name": f"{name} d=10 T=1000", "value": t / runs * 1e3, "unit": "ms/stream", "note": f"{runs} streams batched"})
    from theorycheck.models.filters import rls_residuals
    Y3 = np.stack([Y, 0.5 * Y, -Y], axis=2)
    t, _ = best_time(lambda: rls_residuals(X, Y3, 0.95), 1)
    rows.append({"name": "RLS residuals, 3 label channels, d=10 T=1000", "value": t / runs * 1e3, "unit": "ms/stream",
                 "note": "shared gain (the reconciliation's model)"})
    from theorycheck.run import run_papers
    t0 = time.perf_counter()
    out = run_papers(["gla"], "quick" if quick else "full", 20261129, jobs=1)
    rows.append({"name": f"papers.gla run ({'quick' if quick else 'full'})", "value": time.perf_counter() - t0,
                 "unit": "s", "note": f"all claims, fixtures and stress paths, one process; failed = {out.failed}"})
    return rows


if __name__ == "__main__":
    for r in run(quick="--full" not in sys.argv):
        print(json.dumps(r, ensure_ascii=False))
