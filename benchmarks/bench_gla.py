"""Timings for paper 000 (GLA) — benchmarks only; never used as evidence.

Rows ``{"name", "value", "unit", "note"}``:

* exact sums / train error (closed form vs direct O(n) sums) at n = 100 and n = 1000;
* ``optimal_lambda`` at the experiment's sizes (d = 10, n = 100);
* ``simulate_gla`` (the GLA recursion) per prompt at d = 10, n = 100;
* ``gradient_flow`` (reduced parameters) at d = 3 and d = 10;
* LMS / RLS / Kalman per stream at d = 10, T = 1000;
* the paper module's quick build (full build with ``--full``).

Run: ``python benchmarks/bench_gla.py [--full]``.
"""
from __future__ import annotations

import json
import sys
import tempfile
import time

import numpy as np

from theorycheck import adaptive_filters as af
from theorycheck import gla
from theorycheck.timing import best_time




def run(quick: bool = True) -> list[dict]:
    rows = []
    for n in (100, 1000):
        t, _ = best_time(lambda: gla.moment_sums(0.6, 0.8, n, 1.0, 0.01, method="closed"), 5)
        rows.append({"name": f"moment_sums closed form n={n}", "value": t * 1e3, "unit": "ms", "note": "generated SymPy code"})
        t, _ = best_time(lambda: gla.moment_sums(0.6, 0.8, n, 1.0, 0.01, method="direct"), 5)
        rows.append({"name": f"moment_sums direct n={n}", "value": t * 1e3, "unit": "ms", "note": "O(n) sums (lfilter)"})
    t, _ = best_time(lambda: gla.optimal_lambda(0.8, 100, 10, 1.0, 0.01), 2)
    rows.append({"name": "optimal_lambda d=10 n=100", "value": t, "unit": "s", "note": "401-point grid + Brent"})
    ns = 2000 if quick else 20000
    t, _ = best_time(lambda: gla.simulate_gla(0.74, 0.8, 100, np.eye(10), 1.0, 0.01, n_samples=ns, seed=1), 1)
    rows.append({"name": "simulate_gla d=10 n=100", "value": t / ns * 1e6, "unit": "us/prompt", "note": f"{ns} prompts"})
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
    from theorycheck.context import RunContext
    from theorycheck.papers import gla as paper
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        paper.build(RunContext(mode="quick" if quick else "full", out=tmp, progress=False))
        rows.append({"name": f"papers.gla build ({'quick' if quick else 'full'})", "value": time.perf_counter() - t0,
                     "unit": "s", "note": "all claims, figures to a temp folder"})
    return rows


if __name__ == "__main__":
    for r in run(quick="--full" not in sys.argv):
        print(json.dumps(r, ensure_ascii=False))
