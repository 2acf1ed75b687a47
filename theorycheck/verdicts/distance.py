r"""How far a stated value lies outside our confidence interval, in standard errors — a *described distance*, never a
verdict.

A printed number that is not reproduced (rule ``reproduction``) is decided by that rule; when it lies far outside
the interval, a referee also wants to know how far. :func:`distance_beyond` measures the distance from the estimate
to the nearer edge of the stated value's tolerance band in standard errors and puts it beside the critical value a
verdict at the report's family-wise level would need (the Bonferroni critical value of Student t for the report's
m hypotheses at α): "lies k SE beyond its tolerance band (a refutation at the family's level would need k*)". It is
declared as a description: the verdict stays the rule's. A stated number that the model cannot reach at all is
decided by a sub-claim of its own (a bound over the prior, the parameter range or the family of predictors).

>>> from theorycheck.verdicts.estimate import Estimate
>>> d = distance_beyond(Estimate(-0.13, 0.132, 10, 9), -0.99, 0.005, family=200)
>>> round(d["se_beyond"], 2), round(d["critical"], 2), d["beyond_critical"]
(6.48, 7.22, False)
"""
from __future__ import annotations

from scipy import stats

from .estimate import as_estimate
from .rules import FAMILY_ALPHA
from .text import fmt

__all__ = ["distance_beyond"]


def distance_beyond(estimate, stated: float, tolerance: float, family: int, alpha: float = FAMILY_ALPHA) -> dict:
    """``{"se_from_value", "se_beyond", "critical", "beyond_critical", "text"}`` for a stated value with its tolerance
    band ``stated ± tolerance`` against ``estimate``; ``family``: the report's number of hypotheses."""
    est = as_estimate(estimate, "estimate")
    if est.se == 0:
        raise ValueError("estimate: a distance in standard errors needs se > 0")
    gap = abs(est.mean - stated)
    beyond = max(0.0, gap - tolerance) / est.se
    q = alpha / (2 * max(1, int(family)))
    crit = float(stats.t.isf(q, est.df) if est.df else stats.norm.isf(q))
    text = (f"the stated {fmt(stated)} lies {fmt(gap / est.se, 3)} SE from the estimate {fmt(est.mean)} and "
            f"{fmt(beyond, 3)} SE beyond its tolerance band ±{fmt(tolerance)} (SE {fmt(est.se)}, n = {est.n}); a "
            f"refutation at the report's family-wise level would need {fmt(crit, 3)} SE (Bonferroni over "
            f"{family} hypotheses, α = {alpha}) — a described distance, not a verdict")
    return {"se_from_value": gap / est.se, "se_beyond": beyond, "critical": crit, "beyond_critical": beyond > crit,
            "text": text}
