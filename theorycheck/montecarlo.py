r"""Seeded, batched, streaming Monte Carlo estimators and their comparison with exact values.

Conventions
-----------
* Randomness comes only from :class:`numpy.random.SeedSequence`; batch ``b`` of a run
  with seed ``s`` uses ``SeedSequence(s).spawn(...)[b]``, so the same seed gives
  identical numbers whatever else ran before, and the batch size is part of the
  reproducibility key (stated in every :class:`MeanEstimate`).
* The standard error is the sample standard deviation (ddof = 1) over ``\sqrt{n}``;
  confidence intervals are normal-approximation intervals (stated level).
* :func:`compare` uses a two-sided z-test of ``H_0: E[\hat\mu] = \text{exact}``; the
  default threshold ``alpha = 1e-3`` is the per-comparison false-alarm rate.

Example
-------
>>> def sampler(rng, size):
...     return rng.standard_normal(size) ** 2        # E = 1
>>> est = mean(sampler, n=20_000, seed=1)
>>> est.n, round(est.mean, 1)
(20000, 1.0)
>>> compare(1.0, est).verdict
'agree'
"""
from __future__ import annotations

import math
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from scipy import stats

from .validate import MAX_COUNT, ParameterTypeError, check_array, check_callable, check_int, check_real, check_str

__all__ = ["MeanEstimate", "RunningMean", "Comparison", "mean", "ratio", "compare",
           "rngs", "Progress", "from_samples"]


@dataclass(frozen=True)
class MeanEstimate:
    """A Monte Carlo mean with its standard error; ``mean``/``se`` may be arrays."""

    mean: float | np.ndarray
    se: float | np.ndarray
    n: int
    seed: int | None = None
    batch: int | None = None
    label: str = ""

    def ci(self, level: float = 0.95):
        """Normal-approximation confidence interval ``(lo, hi)`` at ``level``."""
        level = check_real("level", level, 0.0, 1.0, low_open=True, high_open=True)
        zc = stats.norm.ppf(0.5 + level / 2)
        return self.mean - zc * self.se, self.mean + zc * self.se

    @property
    def rel_se(self):
        return np.abs(self.se) / np.abs(self.mean)

    def as_dict(self) -> dict:
        lo, hi = self.ci(0.95)
        return {"mean": self.mean, "se": self.se, "n": self.n, "ci95": [lo, hi],
                "seed": self.seed, "batch": self.batch}


class RunningMean:
    """Streaming mean / variance (Chan–Golub–LeVeque merge of batches), vector-valued.

    >>> rm = RunningMean()
    >>> rm.update(np.array([1.0, 2.0])); rm.update(np.array([3.0]))
    >>> float(rm.mean), float(rm.var)
    (2.0, 1.0)
    """

    def __init__(self):
        self.n = 0
        self.mean = None
        self._m2 = None

    def update(self, samples) -> None:
        """Merge a batch (first axis = sample; a scalar is one sample) into the running mean and variance."""
        if samples is None:
            raise ParameterTypeError("samples must be a numeric array, got None")
        x = check_array("samples", samples, finite=False)
        if x.ndim == 0:
            x = x[None]
        nb = x.shape[0]
        if nb == 0:
            return
        if not np.all(np.isfinite(x)):
            raise ValueError("samples must be finite: the Monte Carlo sample contains NaN or inf")
        if self.n and np.shape(x)[1:] != np.shape(self.mean):
            raise ValueError(f"samples must have per-sample shape {np.shape(self.mean)}, got {x.shape[1:]}")
        with np.errstate(over="ignore", invalid="ignore"):
            mb = x.mean(axis=0)
            m2b = ((x - mb) ** 2).sum(axis=0)
            if self.n == 0:
                mean, m2, n = mb, m2b, nb
            else:
                n = self.n + nb
                delta = mb - self.mean
                mean = self.mean + delta * nb / n
                m2 = self._m2 + m2b + delta ** 2 * self.n * nb / n
        if not (np.all(np.isfinite(mean)) and np.all(np.isfinite(m2))):
            raise ValueError("samples: the running mean or variance overflows (magnitudes near 1e308); rescale the "
                             "quantity before averaging")
        self.n, self.mean, self._m2 = n, mean, m2

    @property
    def var(self):
        return self._m2 / (self.n - 1) if self.n > 1 else np.full_like(self.mean, np.nan)

    def estimate(self, **meta) -> MeanEstimate:
        if self.n < 2:
            raise ValueError("need at least 2 samples for a standard error")
        m = self.mean
        se = np.sqrt(self.var / self.n)
        if np.ndim(m) == 0:
            m, se = float(m), float(se)
        return MeanEstimate(m, se, self.n, **meta)


def from_samples(samples, **meta) -> MeanEstimate:
    """Estimate from an array of i.i.d. samples (first axis = sample)."""
    if samples is None or isinstance(samples, (str, bytes, bool)):
        raise ParameterTypeError(f"samples must be an array of numbers, got {type(samples).__name__}")
    try:
        arr = np.asarray(samples, dtype=float)
    except (TypeError, ValueError):
        raise ParameterTypeError(f"samples must be an array of numbers, got {type(samples).__name__}") from None
    rm = RunningMean()
    rm.update(arr)
    return rm.estimate(**meta)


def rngs(seed: int, count: int) -> list[np.random.Generator]:
    """``count`` independent generators spawned from ``SeedSequence(seed)``."""
    seed = check_int("seed", seed, minimum=0)
    count = check_int("count", count, minimum=1, maximum=10 ** 7)
    return [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(count)]


class Progress:
    """A minimal progress bar on stderr; silent unless stderr is a terminal.

    Set ``THEORYCHECK_PROGRESS=1`` to force it on, ``0`` to force it off.
    """

    def __init__(self, total: int, label: str = ""):
        self.total = max(check_int("total", total, minimum=0), 1)
        self.label = check_str("label", label, nonempty=False)
        env = os.environ.get("THEORYCHECK_PROGRESS")
        self.enabled = (env == "1") or (env != "0" and sys.stderr.isatty())
        self.done = 0
        self._t0 = time.monotonic()
        self._last = 0.0

    def step(self, k: int = 1) -> None:
        self.done += k
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < 0.2 and self.done < self.total:
            return
        self._last = now
        frac = min(self.done / self.total, 1.0)
        bar = "#" * int(30 * frac)
        el = now - self._t0
        eta = el / frac - el if frac > 0 else float("nan")
        sys.stderr.write(f"\r{self.label[:30]:30s} [{bar:30s}] {100 * frac:5.1f}% eta {eta:6.1f}s")
        if self.done >= self.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def mean(sampler: Callable[[np.random.Generator, int], np.ndarray], n: int, seed: int,
         batch: int = 10_000, label: str = "", progress: bool = True) -> MeanEstimate:
    """Monte Carlo mean of ``sampler(rng, size)`` over ``n`` samples in batches.

    ``sampler`` returns an array whose first axis has length ``size`` (scalar or
    vector samples). Batch ``b`` uses the ``b``-th spawned child of
    ``SeedSequence(seed)``.
    """
    check_callable("sampler", sampler)
    n = check_int("n", n, minimum=2, maximum=MAX_COUNT)
    batch = check_int("batch", batch, minimum=1)
    if math.ceil(n / batch) > 10 ** 7:
        raise ValueError(f"n / batch = {math.ceil(n / batch)} batches is more than 10^7; raise batch")
    seed = check_int("seed", seed, minimum=0)
    nb = math.ceil(n / batch)
    gens = rngs(seed, nb)
    rm = RunningMean()
    bar = Progress(nb, label) if progress else None
    left = n
    for g in gens:
        size = min(batch, left)
        out = np.asarray(sampler(g, size), dtype=float)
        if out.shape[:1] != (size,):
            raise ValueError(f"sampler must return an array with first axis {size}, got shape {out.shape}")
        rm.update(out)
        left -= size
        if bar:
            bar.step()
    return rm.estimate(seed=seed, batch=batch, label=label)


def ratio(num: MeanEstimate | np.ndarray, den: np.ndarray | None = None, **meta) -> MeanEstimate:
    r"""Ratio of means :math:`\bar a/\bar b` from paired samples, delta-method SE.

    ``ratio(a_samples, b_samples)``; the SE uses the sample covariance of (a, b):
    :math:`\mathrm{SE}^2 = (\mathrm{Var}\,a - 2R\,\mathrm{Cov}(a,b) + R^2\,\mathrm{Var}\,b)/(n\,\bar b^2)`.

    >>> rng = np.random.default_rng(0); x = rng.standard_normal(100_000)
    >>> r = ratio(2 * x**2, x**2); round(r.mean, 6), r.se < 1e-9
    (2.0, True)
    """
    for nm, v in (("num", num), ("den", den)):
        if isinstance(v, MeanEstimate) or v is None or isinstance(v, (str, bytes)):
            raise ParameterTypeError(f"{nm} must be a 1-D array of paired samples (ratio of means of paired samples), "
                                     f"got {type(v).__name__}")
    try:
        a = np.asarray(num, dtype=float)
        b = np.asarray(den, dtype=float)
    except (TypeError, ValueError):
        raise ParameterTypeError("num and den must be 1-D arrays of real samples") from None
    if a.shape != b.shape or a.ndim != 1 or a.size < 2:
        raise ValueError("num and den must be 1-D sample arrays of equal length >= 2")
    n = a.size
    ma, mb = a.mean(), b.mean()
    if mb == 0:
        raise ValueError("den must have a non-zero mean (the ratio of means is undefined)")
    r = ma / mb
    va, vb = a.var(ddof=1), b.var(ddof=1)
    cab = np.cov(a, b, ddof=1)[0, 1]
    var = max(va - 2 * r * cab + r * r * vb, 0.0) / (n * mb * mb)
    return MeanEstimate(float(r), float(math.sqrt(var)), n, **meta)


@dataclass(frozen=True)
class Comparison:
    """Outcome of an exact-vs-Monte-Carlo z-test."""

    exact: float
    mean: float
    se: float
    n: int
    z: float
    p_value: float
    alpha: float
    verdict: str              # "agree" | "disagree"
    rel_diff: float
    extra: dict = field(default_factory=dict)

    @property
    def agrees(self) -> bool:
        return self.verdict == "agree"

    def as_dict(self) -> dict:
        d = {k: getattr(self, k) for k in ("exact", "mean", "se", "n", "z", "p_value", "alpha",
                                            "verdict", "rel_diff")}
        d.update(self.extra)
        return d


def compare(exact: float, estimate: MeanEstimate, alpha: float = 1e-3, se_floor: float = 0.0) -> Comparison:
    r"""Two-sided z-test of ``exact`` against a Monte Carlo ``estimate``.

    :math:`z = (\hat\mu - \text{exact})/\mathrm{SE}`, :math:`p = 2\Phi(-|z|)`;
    ``verdict`` is ``"disagree"`` when ``p < alpha``. ``se_floor`` (default 0)
    can only be used to state a *modelled* systematic error (e.g. a known
    finite-size bias); it is recorded in the result, never applied silently.
    """
    alpha = check_real("alpha", alpha, 0.0, 1.0, low_open=True, high_open=True)
    if not isinstance(estimate, MeanEstimate):
        raise ParameterTypeError(f"estimate must be a MeanEstimate, got {type(estimate).__name__}")
    ex = check_real("exact", exact)
    se_floor = check_real("se_floor", se_floor, low=0.0)
    try:
        m = float(np.asarray(estimate.mean))
        se = float(np.asarray(estimate.se))
    except (TypeError, ValueError):
        raise ValueError("estimate must hold a scalar mean and se") from None
    if not (math.isfinite(m) and math.isfinite(se)):
        raise ValueError("estimate mean and se must be finite")
    if max(abs(m), abs(ex), se) > 1e150:
        raise ValueError("exact and estimate must be below 1e150 in magnitude (rescale the quantity)")
    se_tot = math.hypot(se, se_floor)
    if se_tot == 0:
        z = 0.0 if m == ex else math.copysign(math.inf, m - ex)
    else:
        z = (m - ex) / se_tot
    p = float(2 * stats.norm.sf(abs(z)))
    rel = (m - ex) / abs(ex) if ex != 0 else m - ex        # exact zero: the absolute difference
    extra = {"se_floor": se_floor} if se_floor else {}
    return Comparison(ex, m, se, estimate.n, float(z), p, alpha,
                      "disagree" if p < alpha else "agree", float(rel), extra)
