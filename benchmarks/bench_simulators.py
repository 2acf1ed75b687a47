"""Throughput of the Monte Carlo simulators vs a BLAS-bound estimate of the same arithmetic.

For each simulator we time the real public function at a fixed, small configuration and report
samples per second, then time **on this machine** a dense (batched) matrix product that performs
the simulator's core floating-point work in BLAS, and report the ratio
``simulator time / BLAS-bound time`` (1 = as fast as BLAS can go; larger = overhead: Python
loops, random-number generation, memory traffic). Timings are best of ``repeat`` runs
(``time.perf_counter``); they live only here, never in claim evidence.

* **Reduced linear attention** (``theorycheck.papers.nonlinear.theory.simulate_icl``, one trial): a sample is
  one prompt (pretraining or test). Core arithmetic: the ridge / min-norm fit on
  ``n = tau d^2`` feature rows of length ``p = d(d+1)`` — a Gram matrix in the smaller of the two
  spaces (``2 n p min(n, p)`` flops) and its Cholesky solve (``min(n,p)^3 / 3``); the BLAS-bound
  estimate times exactly those two operations with NumPy/SciPy.
* **GLA recursion** (``theorycheck.papers.gla.theory.simulate.simulate_gla``): a sample is one prompt of ``n + 1``
  tokens. The recursion ``S_i = lam S_{i-1} + v_i k_i^T`` is, unrolled, a weighted sum of outer
  products, i.e. one batched GEMM ``(B, d+1, n+1) @ (B, n+1, d+1)`` (``2 (n+1)(d+1)^2`` flops per
  sample); the estimate times that batched matmul (token generation not included).
* **LDS trajectories** (``theorycheck.lds.simulate_wqk_star``): a sample is one system + one
  trajectory of length ``T`` and the attention output. The cheapest dense route to Gaussian
  trajectories of a given system is ``y = L z`` with ``L`` the Cholesky factor of the
  autocovariance (``2 T^2`` flops per sample); the estimate times ``Z @ L^T`` for the same number
  of samples (system sampling not included).
* **Model layers** (``theorycheck.models``): the papers' routes of one in-context linear-attention layer against the
  generic layer :class:`theorycheck.models.icl.ICLLayer` in the same parameterisation, on the same inputs —
  ``gla_forward`` (paper 000's recursion) vs ``ICLLayer.gla(lam).predict``, ``attention_predict`` and
  ``attention_loss_and_grad`` (paper 001) vs ``ICLLayer.lds()``, and one full-batch step of ``train_icl`` in
  Zhang–Frei–Bartlett's parameterisation. Rows ``model_*``: prompts per second of each route and the ratio
  ``paper route time / generic time`` (the papers keep their routes for bit-identical numbers).
* ``blas_dgemm_gflops``: the machine's dense double-precision GEMM rate (n = 1024 or 2048).
* (The W_QK* exact-vs-trajectory-Monte-Carlo time-to-precision benchmark lives in
  ``bench_lds.py``.)

Run: ``python benchmarks/bench_simulators.py [--full]``.
"""
from __future__ import annotations

import json
import math
import sys
import time

import numpy as np
import scipy.linalg as sla
from theorycheck.timing import best_time




def _gemm_rate(n):
    rng = np.random.default_rng(0)
    A, B = rng.standard_normal((n, n)), rng.standard_normal((n, n))
    t, _ = best_time(lambda: A @ B)
    return 2.0 * n ** 3 / t / 1e9


def _icl_rows(quick):
    from theorycheck.papers.nonlinear import theory as N
    d, alpha, kappa, tau, n_test = (24, 2.0, 2.0, 2.0, 1000) if quick else (40, 2.0, 2.0, 2.0, 2000)
    n, p = int(round(tau * d * d)), d * (d + 1)
    t_sim, _ = best_time(lambda: N.simulate_icl("sin", d, alpha, kappa, tau, 0.1, trials=1, seed=1, n_test=n_test),
                     repeat=2)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((n, p))
    y = rng.standard_normal(n)
    m = min(n, p)

    def blas():
        K = X @ X.T if n <= p else X.T @ X
        K[np.diag_indices_from(K)] += 1e-3
        return sla.cho_solve(sla.cho_factor(K, check_finite=False), (y if n <= p else X.T @ y)[:m],
                             check_finite=False)
    t_blas, _ = best_time(blas)
    flops = 2.0 * n * p * m + m ** 3 / 3.0
    samples = n + n_test
    return [
        {"name": "sim_icl_samples_per_s", "value": samples / t_sim, "unit": "prompts/s",
         "note": f"simulate_icl sin, d={d}, alpha={alpha}, kappa={kappa}, tau={tau} (n={n} train, {n_test} test "
                 f"prompts, p={p}), one trial, {t_sim:.3g} s"},
        {"name": "sim_icl_vs_blas_bound", "value": t_sim / t_blas, "unit": "ratio",
         "note": f"simulator time / time of its Gram+Cholesky fit alone ({flops / 1e9:.3g} GFLOP, {t_blas:.3g} s)"},
    ]


def _gla_rows(quick):
    from theorycheck.papers.gla.theory import simulate as G
    d, n, ns = (5, 50, 20_000) if quick else (10, 100, 100_000)
    L = np.eye(d)
    t_sim, _ = best_time(lambda: G.simulate_gla(0.8, 0.9, n, L, 1.0, 0.1, 0.05, n_samples=ns, seed=1, batch=5000),
                     repeat=2)
    rng = np.random.default_rng(0)
    B = 5000
    Zt = rng.standard_normal((B, d + 1, n + 1))
    Z = rng.standard_normal((B, n + 1, d + 1))
    t_b, _ = best_time(lambda: np.matmul(Zt, Z))
    t_blas = t_b * ns / B
    return [
        {"name": "sim_gla_samples_per_s", "value": ns / t_sim, "unit": "prompts/s",
         "note": f"simulate_gla d={d}, n={n}, {ns} prompts (tokens generated + recursion), {t_sim:.3g} s"},
        {"name": "sim_gla_vs_blas_bound", "value": t_sim / t_blas, "unit": "ratio",
         "note": f"simulator time / batched GEMM (B,{d + 1},{n + 1})@(B,{n + 1},{d + 1}) doing the unrolled "
                 f"recursion's {2 * (n + 1) * (d + 1) ** 2} flops/prompt ({t_blas:.3g} s for {ns} prompts)"},
    ]


def _lds_rows(quick):
    from theorycheck import lds as Lm
    d, T, ns = (5, 30, 100_000) if quick else (5, 30, 1_000_000)
    prior = Lm.DiagonalLDSPrior(d=d, a_max=0.95, sigma0=1.0, sigma_w=0.5, sigma_v=0.5)
    t_sim, _ = best_time(lambda: Lm.simulate_wqk_star(T, prior, ns, seed=1), repeat=2)
    sysm = prior.sample(np.random.default_rng(0), 1)
    K = Lm.lds_autocovariance(sysm, T)[0]
    Lc = np.linalg.cholesky(K)
    rng = np.random.default_rng(1)
    B = min(ns, 100_000)
    Zs = rng.standard_normal((B, T))
    t_b, _ = best_time(lambda: Zs @ Lc.T)
    t_blas = t_b * ns / B
    return [
        {"name": "sim_lds_samples_per_s", "value": ns / t_sim, "unit": "trajectories/s",
         "note": f"simulate_wqk_star setting (a), d={d}, T={T}, {ns} systems x 1 trajectory + attention, {t_sim:.3g} s"},
        {"name": "sim_lds_vs_blas_bound", "value": t_sim / t_blas, "unit": "ratio",
         "note": f"simulator time / Z @ chol(K)^T for the same number of length-{T} trajectories "
                 f"({2 * T * T} flops each, {t_blas:.3g} s)"},
    ]


def _model_rows(quick):
    from theorycheck.models import attention as A
    from theorycheck.models.icl import ICLLayer, train_icl
    from theorycheck.models.samplers import GaussianRegressionPrompts, regression_tokens, series_tokens
    rng = np.random.default_rng(0)
    rows = []

    def pair(name, B, paper, generic, note):
        t_p, _ = best_time(paper, repeat=5)
        t_g, _ = best_time(generic, repeat=5)
        rows.append({"name": f"model_{name}_prompts_per_s", "value": B / t_p, "unit": "prompts/s",
                     "note": f"{note}: paper route {t_p * 1e3:.3g} ms, generic {t_g * 1e3:.3g} ms"})
        rows.append({"name": f"model_{name}_paper_vs_generic", "value": t_p / t_g, "unit": "ratio", "note": note})

    B, n, d = (5000, 50, 5) if quick else (5000, 100, 10)
    X, Y = rng.standard_normal((B, n + 1, d)), rng.standard_normal((B, n + 1))
    W, V = rng.standard_normal((2, d + 1, d + 1))
    Z, _ = regression_tokens(X, Y)
    pair("gla", B, lambda: A.gla_forward(X, Y, 0.9, W, V), lambda: ICLLayer.gla(0.9).predict(Z, W, V),
         f"gla_forward vs ICLLayer.gla(0.9).predict, B={B}, n={n}, d={d} (tokens built beforehand for the generic)")
    B, T, s = (100_000, 30, 1) if quick else (100_000, 30, 3)
    Ys = rng.standard_normal((B, T))
    W, V = rng.standard_normal((2, s + 1, s + 1))
    Zs, ys = series_tokens(Ys, s)
    pair("lds_predict", B, lambda: A.attention_predict(W, V, Ys), lambda: ICLLayer.lds().predict(Zs, W, V),
         f"attention_predict vs ICLLayer.lds().predict, B={B}, T={T}, s={s} (tokens built beforehand for the "
         "generic; attention_predict builds Y0)")
    pair("lds_grad", B, lambda: A.attention_loss_and_grad(W, V, Ys), lambda: ICLLayer.lds().loss_and_grad(Zs, ys, W, V),
         f"attention_loss_and_grad vs ICLLayer.lds().loss_and_grad, B={B}, T={T}, s={s} (tokens built beforehand "
         "for the generic)")
    M, n, d, steps = 3000, 10, 3, 50
    Zz, yz = GaussianRegressionPrompts(d=d, n=n)(rng, M)
    W0, V0 = 0.1 * np.eye(d + 1), 0.1 * np.eye(d + 1)
    t, _ = best_time(lambda: train_icl(ICLLayer.zfb(), (Zz, yz), W0, V0, steps=steps, lr=0.1), repeat=3)
    rows.append({"name": "model_zfb_gd_steps_per_s", "value": steps / t, "unit": "steps/s",
                 "note": f"train_icl full-batch GD, ICLLayer.zfb(), M={M} prompts, n={n}, d={d}, {steps} steps "
                         f"in {t:.3g} s"})
    return rows


def run(quick: bool = True) -> list[dict]:
    rows = [{"name": "blas_dgemm_gflops", "value": _gemm_rate(1024 if quick else 2048), "unit": "GFLOP/s",
             "note": f"numpy float64 A @ B, n = {1024 if quick else 2048}, best of 3"}]
    for part in (_icl_rows, _gla_rows, _lds_rows, _model_rows):
        try:
            rows += part(quick)
        except Exception as e:  # noqa: BLE001 - report, do not hide
            rows.append({"name": part.__name__.strip("_").replace("_rows", ""), "value": None, "unit": "",
                         "note": f"FAILED: {type(e).__name__}: {e}"})
    return rows


if __name__ == "__main__":
    for row in run(quick="--full" not in sys.argv):
        print(json.dumps(row))
