r"""Signs over a grid of noisy estimates, decided simultaneously: how many points of a grid show an effect.

A finding "more context raises the error at 80 of 240 (τ, κ) points" counts points; over a grid of noisy
estimates a point counts only when its sign is significant **simultaneously** — the two-sided t-test of "no
effect" at each point, adjusted by Holm *within the grid* at the family-wise α (valid under any dependence between
the points) — or exact (an estimate with se = 0 has the sign of its value). :func:`grid_signs` gives the points
that are significantly positive, significantly negative and undecided, and a sentence that says so. Use its counts
in a sub-claim (e.g. ``rules.inequality`` on a count, or a ``search`` whose counterexamples are the significant
points) rather than the raw signs of the estimates.

>>> from theorycheck.verdicts.estimate import Estimate
>>> g = grid_signs([Estimate(0.5, 0.05, 30, 29), Estimate(0.01, 0.05, 30, 29), Estimate(-1.0, 0.0)])
>>> g.positive, g.negative, g.undecided
([0], [2], [1])
>>> g.text("rises", "falls", "points")
'rises at 1 of 3 points, falls at 1, undecided at 1 (Holm within the grid, α = 0.01; exact where se = 0)'
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .estimate import as_estimate
from .multiplicity import holm
from .rules import FAMILY_ALPHA
from .rules.common import sf

__all__ = ["GridSigns", "grid_signs"]


@dataclass
class GridSigns:
    """The points (indices) of a grid whose effect is significantly positive, negative or undecided."""

    positive: list = field(default_factory=list)
    negative: list = field(default_factory=list)
    undecided: list = field(default_factory=list)
    p_adjusted: list = field(default_factory=list)
    alpha: float = FAMILY_ALPHA

    @property
    def points(self) -> int:
        return len(self.positive) + len(self.negative) + len(self.undecided)

    def text(self, up: str, down: str, what: str = "points") -> str:
        """``"<up> at k of n <what>, <down> at j, undecided at u (…)"``."""
        return (f"{up} at {len(self.positive)} of {self.points} {what}, {down} at {len(self.negative)}, undecided at "
                f"{len(self.undecided)} (Holm within the grid, α = {self.alpha}; exact where se = 0)")

    def as_dict(self) -> dict:
        return {"positive": list(self.positive), "negative": list(self.negative), "undecided": list(self.undecided),
                "alpha": self.alpha, "method": "two-sided t per point, Holm within the grid; exact where se = 0"}


def grid_signs(estimates, alpha: float = FAMILY_ALPHA) -> GridSigns:
    """Simultaneous signs of ``estimates`` (a list of :class:`~theorycheck.verdicts.Estimate` or numbers: exact)."""
    ests = [as_estimate(e, f"estimates[{i}]") for i, e in enumerate(estimates)]
    noisy = [i for i, e in enumerate(ests) if e.se > 0]
    adj = holm([min(1.0, 2 * sf(abs(ests[i].mean) / ests[i].se, ests[i].df)) for i in noisy])
    p = {i: q for i, q in zip(noisy, adj)}
    out = GridSigns(alpha=alpha)
    for i, e in enumerate(ests):
        significant = (e.se == 0 and e.mean != 0) or (e.se > 0 and p[i] < alpha)
        (out.positive if significant and e.mean > 0 else out.negative if significant else out.undecided).append(i)
        out.p_adjusted.append(0.0 if e.se == 0 else p[i])
    return out
