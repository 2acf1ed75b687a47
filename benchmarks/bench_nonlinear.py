"""Timings of paper 004's theory (theorycheck.papers.nonlinear.theory) / theorycheck.hermite (benchmarks only;
never used as evidence).

Rows ``{"name", "value", "unit", "note"}``:

* the paper-scale Figure 1 sweep: one training trial at d = 64 (p = 4160), alpha = kappa = 2,
  nine tau values up to 3 (n up to 12 288) sharing nested prefixes, 2000 test prompts
  (quick: d = 32);
* feature construction alone (vectorised kron of x_test and [u; s]) at the same size;
* context statistics, projected O(l + d) sampler vs brute force O(l d), for Figure 2 sizes
  (d = 32, l = 1280; quick: 2000 prompts);
* e_icl_linear (ridgeless, ridge) and e_icl_linear_general (d = 400) per call;
* hermite_coefficients for tanh (mpmath, 30 digits, a_0..a_6) and sin (exact SymPy);
* the solver of the simulator: fit_prefixes on the explicit d(d+1) features against fit_prefixes_factored
  (Hadamard dual kernel, one shared Cholesky factor, unique-product primal Gram) on Figure 1's prefixes;
* cost growth of simulate_icl with d (alpha = kappa = 2, tau = 2, one trial, 500 test prompts), one row per d
  and the least-squares log-log slope (the work is O(d^6) for n = tau d^2 prompts and p = d(d+1) features:
  Gram n p^2 and Cholesky p^3; small d are dominated by sampling, O(d^3) to O(d^4)).

Run: ``python benchmarks/bench_nonlinear.py [--full]``. Set OPENBLAS_NUM_THREADS=1 on a
machine shared with other jobs: small dense solves are much slower with oversubscribed BLAS threads.
"""
from __future__ import annotations

import json
import math
import sys

import numpy as np
import sympy as sp

from theorycheck.hermite import hermite_coefficients
from theorycheck.models.attention import reduced_features
from theorycheck.models.prompts import context_statistics
from theorycheck.papers.nonlinear import theory as nl
from theorycheck.timing import best_time




def run(quick: bool = True) -> list[dict]:
    rows = []
    d = 32 if quick else 64
    taus = [0.25, 0.5, 0.75, 0.9, 1.1, 1.25, 1.5, 2.0, 3.0]
    t = best_time(lambda: nl.simulate_icl_sweep("sin", d, 2.0, 2.0, taus, 0.1, trials=1, seed=1, n_test=2000), 1)[0]
    rows.append({"name": f"fig1_sweep_one_trial_d{d}", "value": t, "unit": "s",
                 "note": f"p = {d * (d + 1)}, n_max = {int(3 * d * d)}, 9 taus, 2000 test prompts"})
    n = int(3 * d * d)
    rng = np.random.default_rng(0)
    xq = rng.standard_normal((n, d))
    U = rng.standard_normal((n, d))
    S = rng.standard_normal(n)
    t = best_time(lambda: reduced_features(xq, U, S), repeat=2)[0]
    rows.append({"name": f"features_d{d}", "value": t, "unit": "s", "note": f"{n} x {d * (d + 1)} design matrix"})
    _, fn = nl.teacher("tanh")
    m = 500 if quick else 2000
    W = rng.standard_normal((m, 32))
    for method in ("projected", "direct"):
        t = best_time(lambda: context_statistics(fn, W, 1280, 0.1, np.random.default_rng(1), method), 1)[0]
        rows.append({"name": f"context_statistics_{method}", "value": t, "unit": "s",
                     "note": f"{m} prompts, d = 32, l = 1280 (Figure 2, alpha = 40)"})
    t = best_time(lambda: [nl.e_icl_linear(tau, 2.0, 2.0, 0.1) for tau in np.linspace(0.1, 3, 100) if tau != 1], 2)[0]
    rows.append({"name": "e_icl_linear_ridgeless", "value": t / 100 * 1e3, "unit": "ms/call", "note": ""})
    t = best_time(lambda: [nl.e_icl_linear(tau, 2.0, 2.0, 0.1, 0.01) for tau in np.linspace(0.1, 3, 100)], 2)[0]
    rows.append({"name": "e_icl_linear_ridge", "value": t / 100 * 1e3, "unit": "ms/call", "note": "lam = 0.01"})
    ev = np.ones(400)
    t = best_time(lambda: nl.e_icl_linear_general(2.0, 2.0, 2.0, 0.1, ev, ev), 2)[0]
    rows.append({"name": "e_icl_linear_general_d400", "value": t * 1e3, "unit": "ms/call", "note": "diagonal C"})
    g = sp.Symbol("g", real=True)
    t = best_time(lambda: hermite_coefficients(sp.tanh(g), 6, dps=30), 1)[0]
    rows.append({"name": "hermite_tanh_a0_a6", "value": t, "unit": "s", "note": "mpmath quadrature, 30 digits"})
    t = best_time(lambda: hermite_coefficients(sp.sin(g), 6), 1)[0]
    rows.append({"name": "hermite_sin_a0_a6_exact", "value": t, "unit": "s", "note": "SymPy (iterated Stein)"})
    # the simulator's solver against the explicit design matrix (same solutions, see tests/test_nonlinear.py)
    from theorycheck.models.ridge import fit_prefixes, fit_prefixes_factored
    ns = sorted({int(round(t * d * d)) for t in (0.5, 0.75, 0.9, 1.1, 1.5, 2.0)})
    Z = np.column_stack([U[:max(ns)], S[:max(ns)]])
    t_exp = best_time(lambda: fit_prefixes(reduced_features(xq[:max(ns)], U[:max(ns)], S[:max(ns)]), S[:max(ns)], ns, d,
                                           0.0), 1)[0]
    t_fac = best_time(lambda: fit_prefixes_factored(xq[:max(ns)], Z, S[:max(ns)], ns, d, 0.0), 1)[0]
    rows.append({"name": f"solver_explicit_features_d{d}", "value": t_exp, "unit": "s",
                 "note": f"fit_prefixes on reduced_features, prefixes {ns} (Figure 1's tau grid)"})
    rows.append({"name": f"solver_factored_d{d}", "value": t_fac, "unit": "s",
                 "note": "fit_prefixes_factored, same prefixes (the simulator's solver)"})
    rows.append({"name": f"solver_speedup_d{d}", "value": t_exp / t_fac, "unit": "x", "note": "explicit / factored"})
    # cost growth of simulate_icl with d
    ds = (8, 12, 16, 24, 32) if quick else (8, 12, 16, 24, 32, 48, 64)
    times = []
    for dd in ds:
        t = best_time(lambda: nl.simulate_icl_sweep("sin", dd, 2.0, 2.0, [2.0], 0.1, trials=1, seed=2, n_test=500),
                      2 if dd <= 24 else 1)[0]
        times.append(t)
        rows.append({"name": f"simulate_icl_d{dd}", "value": t, "unit": "s",
                     "note": f"one trial, alpha = kappa = 2, tau = 2: n = {2 * dd * dd}, p = {dd * (dd + 1)}"})
    big = [(math.log(dd), math.log(t)) for dd, t in zip(ds, times) if dd >= 16]
    xs, ys = np.array([b[0] for b in big]), np.array([b[1] for b in big])
    slope = float(np.polyfit(xs, ys, 1)[0])
    rows.append({"name": "simulate_icl_loglog_slope", "value": slope, "unit": "",
                 "note": f"least-squares slope of log time on log d over d in {[dd for dd in ds if dd >= 16]} "
                         "(asymptotically 6: Gram and Cholesky)"})
    return rows


if __name__ == "__main__":
    print(json.dumps(run(quick="--full" not in sys.argv), indent=1))
