r"""Consistency checks of paper 001's theory that the self-test's *engine* mutants name (an Isserlis engine whose
cycle or path factors are wrong must show in W*_QK and in the Theorem 4.1 moments too).

Each compares the paper's exact route with a Monte Carlo of the actual system — trajectories of
:func:`theorycheck.models.dynamics.simulate_lds`, the statistic summed in the check itself — by a two-sided z-test at
α = 1e-3 (the engine checks' level), and returns ``(passed, |z|, critical z, detail)``. Found by
:func:`theorycheck.selftest.engine_checks.registered_checks` through ``CHECKS`` of the paper's mutants module.
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from ....models.dynamics import DiagonalLDSPrior, LDSBatch, lds_autocovariance, simulate_lds
from ....montecarlo import MeanEstimate, compare, mean
from ...api import ConsistencyCheck
from ..theory.isserlis import wqk_star_moments
from ..theory.wqk import simulate_wqk_star, wqk_star

__all__ = ["CHECKS"]

ALPHA = 1e-3
Z_CRIT = float(stats.norm.isf(ALPHA / 2))
#: (label, T, prior, trajectories, seed)
CASES = [("d=1, a_max=0.9, T=6", 6, dict(d=1, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.3), 200_000, 3101),
         ("d=2, a_max=0.95, T=8", 8, dict(d=2, a_max=0.95, sigma0=1.0, sigma_w=0.5, sigma_v=0.3), 200_000, 3102)]


def _z(exact: float, est: MeanEstimate, label: str) -> tuple:
    c = compare(exact, est, alpha=ALPHA)
    return (c.agrees, abs(c.z), Z_CRIT,
            f"{label}: exact {exact:.6g}, MC {c.mean:.6g} ± {c.se:.2g} (n = {c.n}), z = {c.z:.2f}")


def _wqk_exact_vs_mc() -> tuple:
    outs = []
    for label, T, kw, n, seed in CASES:
        prior = DiagonalLDSPrior(**kw)
        ex = wqk_star(T, prior)
        sim = simulate_wqk_star(T, prior, n, seed=seed)
        outs.append(_z(ex.value, MeanEstimate(sim.value, sim.se, n), f"W_QK* {label} ({ex.method})"))
    return max(outs, key=lambda o: o[1])


def _system(B: int) -> LDSBatch:
    return LDSBatch(np.broadcast_to(np.diag([0.9, -0.6]), (B, 2, 2)).copy(), np.ones((B, 2)),
                    np.broadcast_to(0.25 * np.eye(2), (B, 2, 2)).copy(), 1.0, 0.3)


def _moments_vs_mc() -> tuple:
    T = 8
    N, D = wqk_star_moments(lds_autocovariance(_system(1), T))

    def sampler(rng, size):
        Y = simulate_lds(_system(size), T, rng)
        S = np.sum(Y[:, :T - 2] * Y[:, 1:T - 1], axis=1)          # sum_{i=1}^{T-2} y_i y_{i+1}
        return np.stack([Y[:, T - 2] * Y[:, T - 1] * S, Y[:, T - 2] ** 2 * S ** 2], axis=1)
    est = mean(sampler, 200_000, seed=3201, batch=50_000, progress=False)
    outs = [_z(float(ex), MeanEstimate(float(est.mean[i]), float(est.se[i]), est.n), lab)
            for i, (lab, ex) in enumerate((("N", N[0]), ("D", D[0])))]
    return max(outs, key=lambda o: o[1])


CHECKS = [
    ConsistencyCheck("lds.wqk-exact-vs-mc", "exact vs Monte Carlo",
                     "wqk_star (exact route: Isserlis moments averaged over the prior) vs simulate_wqk_star (trajectory "
                     "Monte Carlo of the attention output, ratio of means with delta-method SE), setting (a), d = 1 "
                     "(T = 6) and d = 2 (T = 8), 200 000 trajectories each", _wqk_exact_vs_mc),
    ConsistencyCheck("lds.moments-vs-mc", "exact vs Monte Carlo",
                     "per-system Theorem 4.1 moments N = E[y_{T-1} y_T S], D = E[y_{T-1}^2 S^2] (wqk_star_moments on "
                     "lds_autocovariance) for one fixed system (d = 2, A = diag(0.9, -0.6), T = 8) vs Monte Carlo over "
                     "simulate_lds trajectories with S summed in the check itself (n = 200 000)", _moments_vs_mc),
]
