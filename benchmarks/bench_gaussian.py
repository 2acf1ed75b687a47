"""Timings of theorycheck.gaussian (benchmarks only; never used as evidence).

Rows ``{"name", "value", "unit", "note"}``:

* the two LDS moments for T = 30 — E[y_{T-1} y_T S] and E[y_{T-1}^2 S^2] with
  S = sum_{i=1}^{T-2} y_i y_{i+1}, y ~ N(0, Sigma) and Sigma the AR(1) autocovariance
  rho^{|i-j|}/(1 - rho^2) — for one covariance and for a batch of B = 1000 (quick: 200);
* ``moment`` for 12 distinct indices (float, batched float, exact SymPy with 78 symbols);
* ``moment`` against ``thewalrus.hafnian`` (orders 8, 12, 16 with distinct indices);
* ``moment`` against ``sympy.stats.E`` on products of k correlated normals X = L Z
  (Z independent standard normals, L fixed rational lower-triangular), k = 4, 6, 8. Each
  ``sympy.stats`` call runs in a child process capped at ``cap`` seconds (20 s; quick 10 s);
  a capped call is reported as a lower bound.

Run: ``python benchmarks/bench_gaussian.py [--full]``.
"""
from __future__ import annotations

import json
import multiprocessing as mp
import sys
import time

import numpy as np
import sympy as sp

from theorycheck.gaussian import expect_product, expect_products, moment, quadratic_form_matrix
from theorycheck.timing import best_time




def _ar1_cov(rho, T):
    lag = np.abs(np.subtract.outer(np.arange(T), np.arange(T)))
    r = np.asarray(rho, dtype=float)[..., None, None]
    return r ** lag / (1 - r ** 2)


def _lds_rows(B):
    T = 30
    rng = np.random.default_rng(0)
    covs = _ar1_cov(rng.uniform(-0.9, 0.9, B), T)
    M = quadratic_form_matrix([(i, i + 1) for i in range(T - 2)], T)
    e = np.eye(T)
    a, b = T - 2, T - 1
    rows = []
    t1, _ = best_time(lambda: expect_product(covs[0], [e[a], e[b]], [M]))
    t2, _ = best_time(lambda: expect_product(covs[0], [e[a], e[a]], [M, M]))
    rows.append({"name": "lds_T30_single_both_moments", "value": 1e3 * (t1 + t2), "unit": "ms",
                 "note": "E[y_{T-1}y_T S] + E[y_{T-1}^2 S^2], one 30x30 covariance (best of 3)"})
    t3, _ = best_time(lambda: expect_product(covs, [e[a], e[b]], [M]))
    t4, _ = best_time(lambda: expect_product(covs, [e[a], e[a]], [M, M]))
    rows.append({"name": f"lds_T30_batch{B}_both_moments", "value": 1e3 * (t3 + t4), "unit": "ms",
                 "note": f"batched over B={B} AR(1) autocovariances incl. PSD validation (best of 3)"})
    t5, _ = best_time(lambda: expect_products(covs, [([e[a], e[b]], [M]), ([e[a], e[a]], [M, M])]))
    rows.append({"name": f"lds_T30_batch{B}_expect_products", "value": 1e3 * t5, "unit": "ms",
                 "note": "same two moments through expect_products (one PSD validation)"})
    return rows


def _moment_rows(B):
    rng = np.random.default_rng(1)
    A = rng.standard_normal((B, 12, 12))
    C = A @ np.swapaxes(A, 1, 2)
    rows = []
    t, _ = best_time(lambda: moment(C[0], range(12)))
    rows.append({"name": "moment_12_distinct_float", "value": 1e3 * t, "unit": "ms",
                 "note": "hafnian of a 12x12 covariance, 10395 pairings"})
    t, _ = best_time(lambda: moment(C, range(12)))
    rows.append({"name": f"moment_12_distinct_batch{B}", "value": 1e3 * t, "unit": "ms",
                 "note": f"B={B}"})
    syms = iter(sp.symbols("s0:78"))
    S = sp.zeros(12, 12)
    for i in range(12):
        for j in range(i, 12):
            S[i, j] = S[j, i] = next(syms)
    t0 = time.perf_counter()
    expr = moment(S, range(12))
    rows.append({"name": "moment_12_distinct_sympy", "value": time.perf_counter() - t0, "unit": "s",
                 "note": f"78 symbols, expanded result has {len(expr.args)} terms (expected 10395)"})
    return rows


def _walrus_rows():
    try:
        from thewalrus import hafnian
    except ImportError:                                        # test-only dependency
        return [{"name": "thewalrus", "value": None, "unit": "", "note": "thewalrus not installed"}]
    rng = np.random.default_rng(2)
    rows = []
    for m in (8, 12, 16):
        A = rng.standard_normal((m, m))
        S = A @ A.T
        t_ours, ours = best_time(lambda: moment(S, range(m)))
        t_tw, ref = best_time(lambda: hafnian(S))
        rel = abs(ours - float(np.real(ref))) / abs(float(np.real(ref)))
        rows.append({"name": f"moment_vs_thewalrus_order{m}", "value": t_ours / t_tw, "unit": "ratio",
                     "note": f"ours {1e3 * t_ours:.3g} ms, thewalrus {1e3 * t_tw:.3g} ms, rel diff {rel:.1e}"})
    return rows


def _stats_child(k, q):
    from sympy.stats import E, Normal
    Z = [Normal(f"Z{i}", 0, 1) for i in range(k)]
    L = _bench_L(k)
    X = L * sp.Matrix(Z)
    t0 = time.perf_counter()
    val = sp.nsimplify(E(sp.prod(list(X))))
    q.put((str(val), time.perf_counter() - t0))


def _bench_L(k):
    return sp.Matrix(k, k, lambda i, j: sp.Rational(1 + i + j, 2 + i) if j <= i else 0)


def _sympy_stats_rows(orders, cap):
    rows = []
    ctx = mp.get_context("fork")
    for k in orders:
        L = _bench_L(k)
        t0 = time.perf_counter()
        ours = moment(L * L.T, range(k))
        t_ours = time.perf_counter() - t0
        q = ctx.Queue()
        proc = ctx.Process(target=_stats_child, args=(k, q))
        proc.start()
        proc.join(cap)
        if proc.is_alive():
            proc.terminate()
            proc.join()
            rows.append({"name": f"sympy_stats_E_order{k}", "value": cap, "unit": "s",
                         "note": f"TIMED OUT (> {cap} s, lower bound); theorycheck moment "
                                 f"{1e3 * t_ours:.3g} ms, value {ours}"})
            continue
        val, t_stats = q.get()
        agree = sp.simplify(sp.sympify(val) - ours) == 0
        rows.append({"name": f"sympy_stats_E_order{k}", "value": t_stats, "unit": "s",
                     "note": f"theorycheck moment {1e3 * t_ours:.3g} ms; values "
                             f"{'agree exactly' if agree else 'DISAGREE'} ({ours} vs {val})"})
    return rows


def run(quick: bool = True) -> list[dict]:
    B = 200 if quick else 1000
    rows = _lds_rows(B) + _moment_rows(B) + _walrus_rows()
    rows += _sympy_stats_rows((4, 6, 8), cap=10.0 if quick else 20.0)
    return rows


if __name__ == "__main__":
    for row in run(quick="--full" not in sys.argv):
        print(json.dumps(row))
