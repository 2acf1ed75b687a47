r"""Group-sequential boundaries by recursive numerical integration (an engine room of
:mod:`theorycheck.verdicts.sequential`: no rule, no sampling here).

The standardised statistics :math:`Z_1,\dots,Z_K` of a sample mean at the information fractions
:math:`0 < t_1 < \dots < t_K = 1` are those of a Brownian motion observed at the looks: with the score
:math:`S_k = Z_k\sqrt{t_k}`, the increments :math:`S_k - S_{k-1} \sim N(\theta\,\Delta_k, \Delta_k)`,
:math:`\Delta_k = t_k - t_{k-1}`, are independent (the canonical joint distribution; :math:`\theta` is the drift,
the mean of :math:`Z` at :math:`t = 1`). The sub-density of :math:`S_k` on the paths that have not crossed a
boundary before look :math:`k` is propagated from look to look by one convolution with the normal kernel
(Armitage, McPherson & Rowe 1969; Jennison & Turnbull 2000, ch. 19), here with composite Gauss–Legendre quadrature
on the continuation interval of each look (panels of width ≤ 0.15·√Δ, 8 nodes each; the lower edge of a one-sided
design at 10 standard deviations), and each boundary is the root (``brentq``) of "the probability of first crossing
at look k equals the α spent at look k".

* :func:`obf_spending` — the Lan–DeMets (1983) O'Brien–Fleming-type spending function
  :math:`\alpha(t) = 2 - 2\Phi(z_{1-\alpha/2}/\sqrt t)` (one- or two-sided total α);
* :func:`design` — the boundaries of a spending design (memoised by value: ``theorycheck.memo``);
* :func:`constant_boundaries` — the classical shapes (O'Brien–Fleming :math:`c_k = C/\sqrt{t_k}`, Pocock
  :math:`c_k = C`), used to test the integration against published constants;
* :func:`exit_probabilities` — first-crossing probabilities of given boundaries under a drift (power);
* :meth:`Design.stagewise_p` — the p-value of the stage-wise ordering (Fairbanks & Madsen 1982; Jennison &
  Turnbull §8.4): first crossing earlier is more extreme, at the same look a larger statistic;
* :func:`sequential_power` — the power of a one-sided component whose run to the maximum is decided at a final
  threshold ``u`` (see :mod:`theorycheck.verdicts.sequential` for why this is the power that matters here).

>>> d = design(0.05, (0.25, 0.5, 0.75, 1.0), sides=2)
>>> [round(c, 3) for c in d.bounds]          # Lan–DeMets O'Brien–Fleming, two-sided α = 0.05, K = 4
[4.333, 2.963, 2.359, 2.014]
>>> round(d.stagewise_p(4, d.bounds[3]), 4)  # on the last boundary: the whole α
0.05
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import stats
from scipy.optimize import brentq
from scipy.special import ndtr

from ...memo import Memo, key
from ...validate import check_real

__all__ = ["Design", "obf_spending", "design", "constant_boundaries", "exit_probabilities", "sequential_power",
           "check_fractions"]

_NODES, _WEIGHTS = np.polynomial.legendre.leggauss(8)
_PANEL = 0.15          # panel width in units of the smallest √Δ
_LOWER = 10.0          # lower edge of a one-sided continuation region, in standard deviations below the drift


def obf_spending(t, alpha: float) -> float:
    r"""α spent by information fraction ``t`` under the Lan–DeMets O'Brien–Fleming-type function
    :math:`2 - 2\Phi(z_{1-\alpha/2}/\sqrt t)` (``alpha`` at ``t = 1``, 0 at ``t = 0``).

    >>> obf_spending(1.0, 0.05) == 0.05 or round(obf_spending(1.0, 0.05), 12)
    0.05
    """
    if t <= 0:
        return 0.0
    return float(2.0 * stats.norm.sf(stats.norm.isf(alpha / 2.0) / math.sqrt(t)))


def _spend(t, alpha, sides):
    """The total α spent by ``t``: a two-sided design spends α/2 on each side, by the function of level α/2
    (Lan & DeMets 1983; the convention of ld98, Reboussin et al. 2000)."""
    return obf_spending(t, alpha) if sides == 1 else 2.0 * obf_spending(t, alpha / 2.0)


def check_fractions(fractions) -> tuple:
    """Information fractions: increasing, in (0, 1], the last one 1."""
    f = tuple(float(x) for x in fractions)
    if not f or f[-1] != 1.0 or any(not 0 < x <= 1 for x in f) or any(b <= a for a, b in zip(f, f[1:])):
        raise ValueError(f"fractions must increase in (0, 1] and end at 1, got {fractions!r}")
    return f


def _grid(lo: float, hi: float, width: float):
    """Composite Gauss–Legendre nodes and weights on [lo, hi] (panels no wider than ``width``)."""
    panels = max(1, int(math.ceil((hi - lo) / width)))
    edges = np.linspace(lo, hi, panels + 1)
    half = np.diff(edges)[:, None] / 2.0
    mid = (edges[:-1, None] + edges[1:, None]) / 2.0
    return (mid + half * _NODES).ravel(), (half * _WEIGHTS).ravel()


def _crossing(dens, nodes, wts, c, tk, dk, sides, drift):
    """(upper, lower) first-crossing probabilities at a look of fraction ``tk`` with boundary ``c`` (z scale),
    given the sub-density ``dens`` of the previous look's score at ``nodes`` (None: the first look)."""
    if dens is None:
        up = float(stats.norm.sf(c - drift * math.sqrt(tk)))
        lo = float(stats.norm.cdf(-c - drift * math.sqrt(tk))) if sides == 2 else 0.0
        return up, lo
    sd = math.sqrt(dk)
    mass = dens * wts
    up = float(mass @ ndtr(-(c * math.sqrt(tk) - nodes - drift * dk) / sd))
    lo = float(mass @ ndtr((-c * math.sqrt(tk) - nodes - drift * dk) / sd)) if sides == 2 else 0.0
    return up, lo


def _propagate(dens, nodes, wts, c, tk, dk, sides, drift, width):
    """The sub-density of the score at look ``tk`` on its continuation region, on a new grid."""
    s = math.sqrt(tk)
    lo = -c * s if sides == 2 else drift * tk - _LOWER * s
    new_nodes, new_wts = _grid(lo, c * s, width)
    if dens is None:
        new = stats.norm.pdf(new_nodes, drift * tk, s)
    else:
        sd = math.sqrt(dk)
        x = (new_nodes[:, None] - nodes[None, :] - drift * dk) / sd
        new = (np.exp(-0.5 * x * x) / (sd * math.sqrt(2.0 * math.pi))) @ (dens * wts)
    return new, new_nodes, new_wts


def _width(fractions) -> float:
    return _PANEL * math.sqrt(min(np.diff((0.0,) + tuple(fractions))))


@dataclass(frozen=True)
class Design:
    """Boundaries ``bounds`` (z scale, one per look) of total level ``alpha`` at ``fractions``; ``sides`` 1
    (reject when :math:`Z_k \\ge c_k`) or 2 (:math:`|Z_k| \\ge c_k`); ``spent`` the cumulative first-crossing
    probabilities under the null (computed, equal to the spending function at the looks up to the root's tolerance);
    ``grids`` the null sub-densities after each look but the last (for :meth:`stagewise_p`)."""

    alpha: float
    fractions: tuple
    sides: int
    bounds: tuple
    spent: tuple
    grids: tuple = field(repr=False, compare=False, default=())

    def nominal(self, look: int) -> float:
        """The nominal (fixed-sample) level of look ``look`` (1-based): the p-value of its boundary alone."""
        c = self.bounds[look - 1]
        return float(self.sides * stats.norm.sf(c))

    def stagewise_p(self, look: int, z: float) -> float:
        """The stage-wise-ordering p-value of first crossing at ``look`` with statistic ``z`` (two-sided: ``|z|``);
        at the last look ``z`` may lie inside the continuation region. Exactly uniform under the null."""
        if not 1 <= look <= len(self.bounds):
            raise ValueError(f"look must be in 1..{len(self.bounds)}, got {look}")
        z = abs(z) if self.sides == 2 else z
        if math.isinf(z) and z > 0:
            tail = 0.0
        else:
            prev = self.grids[look - 2] if look > 1 else (None, None, None)
            tk = self.fractions[look - 1]
            dk = tk - (self.fractions[look - 2] if look > 1 else 0.0)
            tail = sum(_crossing(prev[0], prev[1], prev[2], z, tk, dk, self.sides, 0.0))
        before = self.spent[look - 2] if look > 1 else 0.0
        return float(min(1.0, before + tail))


def _root(target, dens, nodes, wts, tk, dk, sides):
    """The boundary whose first-crossing probability at this look is ``target``."""
    if target <= 0:
        return math.inf
    if dens is None:
        return float(stats.norm.isf(target / sides))

    def gap(c):
        p = sum(_crossing(dens, nodes, wts, c, tk, dk, sides, 0.0))
        return math.log(max(p, 1e-320)) - math.log(target)

    hi = 1.0
    while gap(hi) > 0 and hi < 60:
        hi *= 1.5
    lo = 0.0 if sides == 1 else 1e-9
    if gap(lo) <= 0:
        return lo
    return float(brentq(gap, lo, hi, xtol=1e-12, rtol=1e-12))


def _build(alpha: float, fractions: tuple, sides: int) -> Design:
    width, bounds, spent, grids = _width(fractions), [], [], []
    dens = nodes = wts = None
    prev_t, cum = 0.0, 0.0
    for k, tk in enumerate(fractions):
        dk = tk - prev_t
        target = _spend(tk, alpha, sides) - _spend(prev_t, alpha, sides)
        c = _root(target, dens, nodes, wts, tk, dk, sides)
        cum += sum(_crossing(dens, nodes, wts, c, tk, dk, sides, 0.0)) if math.isfinite(c) else 0.0
        bounds.append(c)
        spent.append(cum)
        if k < len(fractions) - 1:
            dens, nodes, wts = _propagate(dens, nodes, wts, c, tk, dk, sides, 0.0, width)
            grids.append((dens, nodes, wts))
        prev_t = tk
    return Design(alpha, fractions, sides, tuple(bounds), tuple(spent), tuple(grids))


_DESIGNS = Memo("verdicts.sequential.design", maxsize=64)


def design(alpha: float, fractions, sides: int = 1) -> Design:
    """The Lan–DeMets O'Brien–Fleming design of total level ``alpha`` at ``fractions`` (``sides`` 1 or 2)."""
    alpha = check_real("alpha", alpha, 0.0, 0.5, low_open=True)
    fractions = check_fractions(fractions)
    if sides not in (1, 2):
        raise ValueError(f"sides must be 1 or 2, got {sides!r}")
    return _DESIGNS.get_or_compute(key(alpha, fractions, sides), lambda: _build(alpha, fractions, sides))


def exit_probabilities(bounds, fractions, sides: int = 1, drift: float = 0.0) -> list:
    """``[(upper, lower), …]``: the probability of first crossing at each look (no boundary may be infinite
    but the last's lower side of a one-sided design, which is never crossed)."""
    fractions = check_fractions(fractions)
    if len(bounds) != len(fractions):
        raise ValueError("bounds and fractions must have one entry per look")
    width, out = _width(fractions), []
    dens = nodes = wts = None
    prev_t = 0.0
    for k, (c, tk) in enumerate(zip(bounds, fractions)):
        dk = tk - prev_t
        out.append(_crossing(dens, nodes, wts, c, tk, dk, sides, drift))
        if k < len(fractions) - 1:
            dens, nodes, wts = _propagate(dens, nodes, wts, c, tk, dk, sides, drift, width)
        prev_t = tk
    return out


def constant_boundaries(shape: str, alpha: float, fractions, sides: int = 2) -> list:
    """Classical boundaries of total level ``alpha``: ``"obrien-fleming"`` (:math:`c_k = C/\\sqrt{t_k}`) or
    ``"pocock"`` (:math:`c_k = C`), the constant found by root finding."""
    fractions = check_fractions(fractions)
    scale = {"obrien-fleming": [1 / math.sqrt(t) for t in fractions], "pocock": [1.0] * len(fractions)}.get(shape)
    if scale is None:
        raise ValueError(f"shape must be 'obrien-fleming' or 'pocock', got {shape!r}")

    def gap(C):
        return sum(sum(p) for p in exit_probabilities([C * s for s in scale], fractions, sides)) - alpha

    C = brentq(gap, 0.5, 10.0, xtol=1e-10)
    return [C * s for s in scale]


def sequential_power(d: Design, drift: float, threshold: float) -> float:
    """The probability that a one-sided component of design ``d`` is rejected at level ``threshold`` (≥ the design's
    α): it crosses a boundary before the last look (its stage-wise p is then ≤ α), or at the last look its stage-wise
    p is ≤ ``threshold``. Compare :math:`\\bar\\Phi(z_{threshold} - \\text{drift})`, the fixed-sample power."""
    if d.sides != 1:
        raise ValueError("sequential_power is for one-sided designs")
    if threshold < d.alpha:
        raise ValueError("threshold must be at least the design's alpha")
    K = len(d.bounds)
    before = d.spent[K - 2] if K > 1 else 0.0
    tail = threshold - before        # the null probability left for the last look: P0(no cross, Z_K ≥ z) = tail
    z = brentq(lambda x: d.stagewise_p(K, x) - threshold, -12.0, 40.0, xtol=1e-12) if tail < 1 else -math.inf
    bounds = list(d.bounds[:-1]) + [z]
    return float(sum(up for up, _ in exit_probabilities(bounds, d.fractions, 1, drift)))
