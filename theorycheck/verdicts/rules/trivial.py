r"""The trivial alternative of a comparison: does each contender beat it by a declared margin?

A statement that one method "beats", "matches", "is aligned with" or "is optimal among" others says little when
every contender does no better than a trivial alternative — predicting zero or the mean, the prior-optimal
constant, a random direction for a cosine, the simpler method the sentence contrasts with. Every comparison
sub-claim therefore carries, for each contender, the gap to the trivial alternative (:func:`against_trivial`),
oriented so that a positive gap means "the contender is better". Hypotheses: :math:`H_0:\ \text{gap}\le m` against
:math:`H_1:\ \text{gap}>m` with :math:`m=` ``relative_margin`` :math:`\times|\text{reference}|` (the reference is the
trivial alternative's own level, e.g. its loss :math:`E[y^2]`), one-sided Student t with the gap's degrees of
freedom; an exact gap (se = 0) decides at once. The p-values join the report's Holm family
(:func:`theorycheck.verdicts.aggregate.finalize`); a contender beats the trivial alternative when its adjusted p is
below the family-wise α. If any contender does not, the comparison is at most *inconclusive*
(:func:`theorycheck.verdicts.aggregate.decide`).

>>> from theorycheck.verdicts.estimate import Estimate
>>> g = against_trivial("RLS", "predict zero", Estimate(-0.0038, 0.001, 400, 399), reference=0.2778,
...                     relative_margin=0.02)
>>> g["margin"] == 0.02 * 0.2778, g["p"] > 0.99
(True, True)
"""
from __future__ import annotations

from ...validate import check_real, check_str
from ..estimate import as_estimate
from .common import sf

__all__ = ["against_trivial"]


def against_trivial(contender: str, trivial: str, gap, *, reference: float, relative_margin: float) -> dict:
    """The record of "``contender`` beats ``trivial`` by more than ``relative_margin`` × |``reference``|".

    ``gap``: an :class:`~theorycheck.verdicts.estimate.Estimate` (or an exact number) of the advantage of the
    contender over the trivial alternative (trivial's loss − contender's loss; contender's cosine − the random
    direction's), paired on common random numbers where possible. The margin is declared before the data."""
    contender, trivial = check_str("contender", contender), check_str("trivial", trivial)
    est = as_estimate(gap, "gap")
    ref = check_real("reference", reference)
    rm = check_real("relative_margin", relative_margin, low=0.0)
    m = rm * abs(ref)
    if est.se == 0:
        p = 0.0 if est.mean > m else 1.0
        t = None
    else:
        t = (est.mean - m) / est.se
        p = sf(t, est.df)
    return {"contender": contender, "trivial": trivial, "gap": est.mean, "gap_se": est.se, "n": est.n, "df": est.df,
            "reference": ref, "relative_margin": rm, "margin": m, "t": t, "p": float(p), "p_adjusted": None,
            "beats": None}
