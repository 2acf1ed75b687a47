"""Small helpers shared by the claim modules of paper 000 (estimates, settings, figures, exact curves, the trivial
predictor, samples of a parameter box)."""
from __future__ import annotations

import math

import numpy as np
from scipy.stats import qmc

from ...verdicts import Estimate
from ...verdicts.rules.trivial import against_trivial
from .settings import D_EXP, N_EXP, SE2, SW2, TRIVIAL_MARGIN
from .theory import moment_sums, train_error

__all__ = ["batch_estimate", "fmt_grid", "error_curve", "prior_error", "beats_zero", "box_points"]


def batch_estimate(x, batches: int = 40) -> Estimate:
    """Batch-means estimate of the mean of ``x`` (C5): ``batches`` contiguous batches, df = batches − 1.

    >>> batch_estimate(np.arange(80.0), 4).df
    3
    """
    x = np.asarray(x, dtype=float).ravel()
    if x.size < 2 * batches:
        raise ValueError(f"x must hold at least 2 * batches = {2 * batches} values, got {x.size}")
    m = x.size // batches
    return Estimate.from_batches(x[:m * batches].reshape(batches, m).mean(axis=1), n_per_batch=m)


def fmt_grid(values) -> str:
    """``{0.5, 0.8}``-style text for a grid in a scope."""
    return "{" + ", ".join(f"{v:g}" for v in values) + "}"


def error_curve(g, n=N_EXP, d=D_EXP, sw2=SW2, se2=SE2, m=100):
    """``(lams, errors)``: the exact train error (Λ = I_d, no label noise, not halved) at the ``m`` gates
    λ = 1/m, 2/m, …, 1 for drift factor ``g`` (defaults: the experiments' d = 10, n = 100, σ_w² = 1, σ_e² = 0.01).

    >>> lams, err = error_curve(0.9, m=4)
    >>> lams.tolist(), bool(err[2] < err[3])
    ([0.25, 0.5, 0.75, 1.0], True)
    """
    lams = np.linspace(1.0 / m, 1.0, m)
    return lams, np.array([train_error(x, g, n, d, sw2, se2) for x in lams])


def prior_error(gamma, n, d, sigma_w2=SW2, sigma_e2=SE2, noise=0.0) -> float:
    """E[y_{n+1}²] = d s_{n+1} + σ² (Λ = I_d): the error of the trivial predictor 0, the prior mean of the label and
    the prior-optimal constant (C11).

    >>> round(prior_error(0.5, 2, 3, 1.0, 0.75), 12)
    3.0
    """
    return d * moment_sums(1.0, gamma, n, sigma_w2, sigma_e2).s_q + noise


def beats_zero(contender: str, gap, reference: float) -> dict:
    """The C11 record "``contender`` beats predicting 0": ``gap`` = the trivial predictor's error − the contender's
    (an Estimate, paired, or an exact number), ``reference`` = the trivial predictor's error E[y²]; margin
    TRIVIAL_MARGIN × E[y²]."""
    return against_trivial(contender, "predict 0", gap, reference=reference, relative_margin=TRIVIAL_MARGIN)


def box_points(box: dict, m: int, seed: int, corners: bool = True) -> list[dict]:
    """A scrambled Sobol sample of 2^m points of the box ``{name: (low, high, scale)}`` (scale ``"lin"``, ``"log"``,
    ``"int"`` or ``"logint"``) plus, with ``corners``, its 2^k corners: the dense sample of a condition's range.

    >>> pts = box_points({"g": (0.1, 1.0, "lin"), "n": (2, 100, "logint")}, 3, seed=1)
    >>> len(pts), min(p["n"] for p in pts), max(p["g"] for p in pts)
    (12, 2, 1.0)
    """
    names = list(box)
    u = qmc.Sobol(len(names), scramble=True, seed=seed).random_base2(m)
    if corners:
        u = np.vstack([u, [[(k >> j) & 1 for j in range(len(names))] for k in range(2 ** len(names))]])
    out = []
    for row in u:
        pt = {}
        for name, x in zip(names, row):
            lo, hi, scale = box[name]
            if scale in ("log", "logint"):
                v = math.exp(math.log(lo) + x * (math.log(hi) - math.log(lo)))
            else:
                v = lo + x * (hi - lo)
            pt[name] = int(round(v)) if scale in ("int", "logint") else float(v)
        out.append(pt)
    return out
