r"""GLA against adaptive filters on AR(1) streams (paper 000, the filter experiment of seed line 58).

The experiment in three steps, each usable alone (so a run can split it into tasks):

* :func:`filter_scan` — the per-run errors of LMS (steps μ) or RLS (forgetting factors β, :math:`P_0=I/\delta`) on
  ``runs`` scan streams, the same streams for every value (so scans can be compared pairwise);
* :func:`filter_evaluation` — LMS and RLS at the chosen μ, β, the Kalman filter with the true parameters
  (Bayes-optimal), GLA at its exact optimum (λ*, Γ*) for prompt length T − 1 as a streaming predictor
  (:func:`theorycheck.models.attention.gla_stream_errors`) and the trivial predictor 0, on *fresh* streams shared by
  all of them (paired);
* :func:`assemble_benchmark` — the scans summarised (mean, SE, diverged runs), the best μ and β (smallest scan mean; a
  value with a diverged run is never chosen) and the evaluation, in one dict; :func:`simulate_filter_benchmark` does
  all three.

Every method's error is its a priori one-step-ahead squared error averaged per run over :math:`t=T/2+1..T` (C6).

>>> b = simulate_filter_benchmark(0.9, 2, 40, 1.0, 0.05, mus=[0.05, 0.2], betas=[0.8, 0.95], runs_scan=4,
...                               runs_eval=4, seed_scan=1, seed_eval=2)
>>> sorted(b["eval"]), b["best_beta"] in (0.8, 0.95)
(['gla', 'kalman', 'lms', 'rls', 'zero'], True)
"""
from __future__ import annotations

import math

import numpy as np

from ....models.attention import gla_stream_errors
from ....models.filters import kalman_errors, lms_errors, rls_errors
from ....models.prompts import ar1_stream
from ....validate import MAX_COUNT, check_array, check_choice, check_int, check_memory, check_real
from .errors import lambda_opt, optimum
from .law import MAX_TRAIN_WORK, check_gamma, check_variance

__all__ = ["filter_scan", "filter_evaluation", "assemble_benchmark", "simulate_filter_benchmark", "best_value"]


def _setting(gamma, d, T, sigma_w2, sigma_e2, noise, runs, runs_name):
    T = check_int("T", T, minimum=4, maximum=MAX_COUNT)
    d = check_int("d", d, minimum=1, maximum=MAX_COUNT)
    gamma = check_gamma(gamma)
    sigma_w2, sigma_e2 = check_variance("sigma_w2", sigma_w2), check_variance("sigma_e2", sigma_e2)
    noise = check_variance("noise", noise)
    runs = check_int(runs_name, runs, minimum=2, maximum=MAX_COUNT)
    # the streams and the per-step errors (T x runs x (d + 6)), and RLS's d x d matrices per stream (x 4 copies)
    check_memory(runs_name, runs, 8.0 * runs * (float(T) * (d + 6.0) + 4.0 * d * d),
                 f"{runs} filter streams of length T = {T} in d = {d}")
    return gamma, d, T, sigma_w2, sigma_e2, noise, runs


def _budget(work):
    if work > MAX_TRAIN_WORK:
        raise ValueError(f"the filter runs are about {work:.2g} operations, above the budget of {MAX_TRAIN_WORK:.2g} "
                         "(about 3 minutes of one core); reduce T, the runs or the grids")


def window_means(E, T):
    """Per run, the mean of the squared errors ``E`` (T, runs) over t = T/2+1..T; ``inf`` for a run with a
    non-finite error (a diverged filter)."""
    fin = np.all(np.isfinite(E), axis=0)
    out = np.full(E.shape[1], np.inf)
    out[fin] = E[T // 2:, fin].mean(axis=0)
    return out


def filter_scan(gamma, d, T, sigma_w2, sigma_e2, noise=0.0, *, method, values, runs, seed, delta=1.0) -> dict:
    """``{value: per-run window errors}`` of LMS (``method="lms"``, ``values`` the steps μ) or RLS (``"rls"``, the
    forgetting factors β, P₀ = I/δ) on ``runs`` AR(1) streams drawn from ``numpy.random.default_rng(seed)``; a diverged
    run's error is ``inf`` (:func:`window_means`)."""
    gamma, d, T, sigma_w2, sigma_e2, noise, runs = _setting(gamma, d, T, sigma_w2, sigma_e2, noise, runs, "runs")
    method = check_choice("method", method, ("lms", "rls"))
    values = check_array("values", values, ndim=1, min_size=1)
    seed = check_int("seed", seed, minimum=0)
    delta = check_real("delta", delta, 0.0, low_open=True)
    _budget(10.0 * float(T) * d * runs * values.size * (d if method == "rls" else 1))
    X, Y = ar1_stream(np.random.default_rng(seed), runs, T, d, gamma, sigma_w2, sigma_e2, noise)
    if method == "lms":
        return {float(mu): window_means(lms_errors(X, Y, mu), T) for mu in values.tolist()}
    return {float(b): window_means(rls_errors(X, Y, b, delta), T) for b in values.tolist()}


def filter_evaluation(gamma, d, T, sigma_w2, sigma_e2, noise=0.0, *, mu, beta, runs, seed, delta=1.0) -> dict:
    """Per-run window errors of LMS (μ), RLS (β), the Kalman filter, GLA at (λ*, Γ*) for n = T − 1 and the trivial
    predictor 0 on ``runs`` fresh streams from ``numpy.random.default_rng(seed)`` (the same for all: paired);
    ``{"eval": {method: array}, "gla_lam", "gla_exact", "la_exact"}``; a diverged run's error is ``inf``."""
    gamma, d, T, sigma_w2, sigma_e2, noise, runs = _setting(gamma, d, T, sigma_w2, sigma_e2, noise, runs, "runs")
    mu, beta = check_real("mu", mu, 0.0, low_open=True), check_real("beta", beta, 0.0, 1.0, low_open=True)
    seed = check_int("seed", seed, minimum=0)
    delta = check_real("delta", delta, 0.0, low_open=True)
    _budget(10.0 * float(T) * d * runs * (3 + 2 * d))
    r = lambda_opt(gamma, T - 1, d, sigma_w2, sigma_e2, noise, grid_size=201)
    opt = optimum(r.lam, gamma, T - 1, np.eye(d), sigma_w2, sigma_e2, noise)
    X, Y = ar1_stream(np.random.default_rng(seed), runs, T, d, gamma, sigma_w2, sigma_e2, noise)
    ev = {"lms": window_means(lms_errors(X, Y, mu), T), "rls": window_means(rls_errors(X, Y, beta, delta), T),
          "kalman": window_means(kalman_errors(X, Y, gamma, sigma_w2, sigma_e2, noise), T),
          "gla": window_means(gla_stream_errors(X, Y, r.lam, opt.Gamma), T), "zero": window_means(Y * Y, T)}
    return {"eval": ev, "gla_lam": r.lam, "gla_exact": r.error, "la_exact": r.error_linear_attention}


def scan_summary(v) -> dict:
    """Mean, SE and diverged runs of one scan value's per-run errors (no SE for a divergent mean)."""
    ok = np.isfinite(v)
    if not ok.all():
        return {"mean": float("inf"), "se": None, "diverged_runs": int(np.sum(~ok))}
    return {"mean": float(v.mean()), "se": float(v.std(ddof=1) / math.sqrt(v.size)), "diverged_runs": 0}


def best_value(scan: dict) -> float:
    """The scan value with the smallest mean error (a value with a diverged run never wins)."""
    summ = {k: scan_summary(v) for k, v in scan.items()}
    return min(summ, key=lambda k: summ[k]["mean"])


def assemble_benchmark(gamma, d, T, sigma_w2, sigma_e2, noise, scan_runs, evaluation, runs_scan, runs_eval) -> dict:
    """One dict of the experiment from the scans ``{"lms": {μ: per-run}, "rls": {β: per-run}}`` and the
    evaluation of :func:`filter_evaluation`."""
    return {"gamma": gamma, "d": d, "T": T, "sigma_w2": sigma_w2, "sigma_e2": sigma_e2, "noise": noise,
            "scan_lms": {k: scan_summary(v) for k, v in scan_runs["lms"].items()},
            "scan_rls": {k: scan_summary(v) for k, v in scan_runs["rls"].items()}, "scan_runs": scan_runs,
            "best_mu": best_value(scan_runs["lms"]), "best_beta": best_value(scan_runs["rls"]),
            "gla_lam": evaluation["gla_lam"], "gla_exact": evaluation["gla_exact"], "la_exact": evaluation["la_exact"],
            "eval": evaluation["eval"], "runs_scan": runs_scan, "runs_eval": runs_eval, "window": (T // 2 + 1, T)}


def simulate_filter_benchmark(gamma, d, T, sigma_w2, sigma_e2, noise=0.0, *, mus, betas, runs_scan, runs_eval,
                              seed_scan, seed_eval, delta=1.0) -> dict:
    r"""GLA against tuned LMS and RLS (and the Kalman filter, and predicting 0) on AR(1) streams of length ``T``:
    :func:`filter_scan` of both filters on ``runs_scan`` streams from ``seed_scan``, then :func:`filter_evaluation` at
    the best μ and β on ``runs_eval`` fresh streams from ``seed_eval`` (no selection bias), assembled by
    :func:`assemble_benchmark`."""
    kw = dict(runs=runs_scan, seed=seed_scan, delta=delta)
    scans = {"lms": filter_scan(gamma, d, T, sigma_w2, sigma_e2, noise, method="lms", values=mus, **kw),
             "rls": filter_scan(gamma, d, T, sigma_w2, sigma_e2, noise, method="rls", values=betas, **kw)}
    ev = filter_evaluation(gamma, d, T, sigma_w2, sigma_e2, noise, mu=best_value(scans["lms"]),
                           beta=best_value(scans["rls"]), runs=runs_eval, seed=seed_eval, delta=delta)
    return assemble_benchmark(float(gamma), int(d), int(T), float(sigma_w2), float(sigma_e2), float(noise), scans, ev,
                              int(runs_scan), int(runs_eval))
