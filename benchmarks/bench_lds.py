"""Benchmark for paper 001: Theorem 4.1's W*_QK at T = 30 — exact routes vs trajectory Monte Carlo.

For every Monte Carlo route the time to reach a relative standard error of 1e-3 is EXTRAPOLATED
from a measured run: rel. SE scales as n^(-1/2), so n_needed = n * (relSE / 1e-3)^2 and
time_needed = time * n_needed / n (per-sample cost measured, variance per sample estimated from
the same run). The exact routes are timed directly (best of 3).

Rows: {"name", "value", "unit", "note"}. Run: ``python benchmarks/bench_lds.py [--full]``.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from theorycheck import lds  # noqa: E402
from theorycheck.timing import best_time

TARGET = 1e-3
T = 30




def run(quick: bool = True) -> list[dict]:
    rows = []
    prior5 = lds.make_prior("a", d=5, a_max=0.95, sigma0=1.0, sigma_w=0.5, sigma_v=0.5)
    prior1 = lds.DiagonalLDSPrior(1, 0.95, 1.0, 0.5, 0.5)
    n_mc = 100_000 if quick else 1_000_000
    n_rb = 4000 if quick else 20_000

    # --- d = 5, setting (a)
    t_ex, ex = best_time(lambda: lds.wqk_star(T, prior5, method="exact-components"))
    rows.append({"name": "wqk_star_exact_components_d5", "value": t_ex, "unit": "s",
                 "note": f"setting (a), d = 5, T = {T}: exact (1-D Gauss-Legendre, 3T+2 nodes); value {ex.value:.6f}"})
    t0 = time.perf_counter()
    rb = lds.wqk_star(T, prior5, method="rao-blackwell", n_systems=n_rb, seed=1)
    t_rb = time.perf_counter() - t0
    rel_rb = rb.se / abs(rb.value)
    t_rb_target = t_rb * (rel_rb / TARGET) ** 2
    rows.append({"name": "wqk_star_rao_blackwell_d5_time_to_1e-3", "value": t_rb_target, "unit": "s",
                 "note": f"extrapolated from n = {n_rb} systems in {t_rb:.2f} s (rel SE {rel_rb:.2e})"})
    t0 = time.perf_counter()
    mc = lds.simulate_wqk_star(T, prior5, n_mc, seed=2)
    t_mc = time.perf_counter() - t0
    rel_mc = mc.se / abs(mc.value)
    t_mc_target = t_mc * (rel_mc / TARGET) ** 2
    rows.append({"name": "wqk_star_trajectory_mc_d5_time_to_1e-3", "value": t_mc_target, "unit": "s",
                 "note": f"extrapolated from n = {n_mc} trajectories in {t_mc:.2f} s (rel SE {rel_mc:.2e}); "
                         f"needs ~{n_mc * (rel_mc / TARGET) ** 2:.2e} trajectories"})
    rows.append({"name": "speedup_exact_vs_trajectory_mc_d5", "value": t_mc_target / t_ex, "unit": "x",
                 "note": "time of trajectory MC to rel SE 1e-3 (extrapolated) / time of the exact route (target >= 100x)"})
    rows.append({"name": "speedup_rao_blackwell_vs_trajectory_mc_d5", "value": t_mc_target / t_rb_target, "unit": "x",
                 "note": "both extrapolated to rel SE 1e-3 (Rao-Blackwell is the route for settings b and d)"})

    # --- d = 1
    t_poly, p = best_time(lambda: lds.wqk_star(T, prior1, method="polynomial"))
    t_quad, _ = best_time(lambda: lds.wqk_star(T, prior1, method="quadrature"))
    t0 = time.perf_counter()
    mc1 = lds.simulate_wqk_star(T, prior1, n_mc, seed=3)
    t_mc1 = time.perf_counter() - t0
    rel1 = mc1.se / abs(mc1.value)
    t_mc1_target = t_mc1 * (rel1 / TARGET) ** 2
    rows.append({"name": "wqk_star_polynomial_d1", "value": t_poly, "unit": "s",
                 "note": f"generated SymPy polynomials, exact prior average; value {p.value:.6f}"})
    rows.append({"name": "wqk_star_quadrature_d1", "value": t_quad, "unit": "s", "note": "Gauss-Legendre + engine"})
    rows.append({"name": "wqk_star_trajectory_mc_d1_time_to_1e-3", "value": t_mc1_target, "unit": "s",
                 "note": f"extrapolated from n = {n_mc} in {t_mc1:.2f} s (rel SE {rel1:.2e})"})
    rows.append({"name": "speedup_polynomial_vs_trajectory_mc_d1", "value": t_mc1_target / t_poly, "unit": "x",
                 "note": "target >= 100x"})
    # --- training throughput
    t0 = time.perf_counter()
    steps = 50 if quick else 200
    lds.train_linear_attention(T, 1, prior5, steps=steps, batch=3000, seed=0)
    rows.append({"name": "train_step_time_T30_batch3000", "value": (time.perf_counter() - t0) / steps, "unit": "s",
                 "note": "one Adam step incl. sampling 3000 fresh systems and trajectories (setting a, d = 5)"})
    return rows


if __name__ == "__main__":
    for r in run(quick="--full" not in sys.argv):
        print(f"{r['name']:45s} {r['value']:12.4g} {r['unit']:3s}  {r['note']}")
