r"""Rule ``share``: an explanation ("this term is what makes it work", "the value lies in …") tested by the share
of the gain that the named term carries.

The gain of a predictor is how much lower its loss is than the trivial alternative's (predicting zero, the mean,
the simpler method the sentence contrasts with). The *share* of a term is the part of that gain lost when the term
is removed and everything else is fitted again:

.. math:: \text{share} = \frac{L_{\text{without}} - L^*}{L_{\text{trivial}} - L^*} .

When the best loss :math:`L^*` is only bracketed (``full=(lo, hi)``: a lower bound and a certified attained
value), the share is an exact interval (it decreases in :math:`L^*`). Declared before the data: the threshold at
which a term counts as what the sentence says it is (e.g. 5 %). Exact: confirmed when the whole interval is at or
above the threshold, refuted when it is below, inconclusive when it straddles it.

>>> sc = share("the Krylov term carries the gain", full=1.0537, without=1.0542, baseline=1.3295, threshold=0.05)
>>> sc.verdict, round(sc.details["share_high"], 4)
('refuted', 0.0018)
"""
from __future__ import annotations

from ...claims import INCONCLUSIVE, SubClaim
from ...validate import check_real, check_str
from ..finding import Comparison, Finding
from ..text import fmt
from .common import check_scale, common_kwargs, decide_exactly
from .registry import Rule, register


def share(statement: str, *, full, without: float, baseline: float, threshold: float, **kw) -> SubClaim:
    """The share of the gain over ``baseline`` that a term carries (see the module docstring); ``full`` is the best
    loss with the term, a number or a bracket ``(lower bound, attained)``; ``without`` the best loss without it."""
    c = common_kwargs(kw)
    statement = check_str("statement", statement)
    if isinstance(full, (tuple, list)) and len(full) != 2:
        raise ValueError(f"full must be a number or a bracket (lower bound, attained), got {full!r}")
    lo, hi = (full, full) if not isinstance(full, (tuple, list)) else tuple(full)
    lo, hi = check_real("full (lower)", lo), check_real("full (attained)", hi)
    without, baseline = check_real("without", without), check_real("baseline", baseline)
    check_scale(full=lo, without=without, baseline=baseline)
    threshold = check_real("threshold", threshold, low=0.0, high=1.0, low_open=True)
    if lo > hi:
        raise ValueError(f"full: the lower bound {lo} exceeds the attained loss {hi}")
    if not baseline > hi:
        raise ValueError(f"baseline ({baseline}) must exceed the best loss ({hi}): no gain to share")
    if without < lo:
        raise ValueError(f"without ({without}) is below the best loss's lower bound ({lo})")
    s_hi = (without - lo) / (baseline - lo)
    s_lo = max(0.0, (without - hi) / (baseline - hi))
    c["details"].update({"share_low": s_lo, "share_high": s_hi, "threshold": threshold, "full": [lo, hi],
                         "without": without, "baseline": baseline})
    sc = SubClaim(statement, "share", statistic=s_hi, statistic_name="share of the gain (upper end)",
                  estimate=0.5 * (s_lo + s_hi), target=threshold, n=1, **c)
    if s_lo < threshold <= s_hi:
        sc.verdict = INCONCLUSIVE
        sc.details["undecided"] = "the share's exact interval straddles the threshold"
        return sc
    return decide_exactly(sc, s_lo >= threshold)


def explain(sc) -> str:
    d = sc.details
    share_text = (f"{fmt(100 * d['share_low'])} %" if d["share_low"] == d["share_high"] else
                  f"{fmt(100 * d['share_low'])}–{fmt(100 * d['share_high'])} % (exact interval)")
    return (f"the term carries {share_text} of the gain over the trivial alternative (loss {fmt(d['baseline'])} → "
            f"{fmt(d['full'][1])}; {fmt(d['without'])} without the term), against the declared threshold "
            f"{fmt(100 * d['threshold'])} %")


def finding(sc) -> Finding:
    """"the term carries x % (a–b %) of the gain …, below / at least the threshold t %"."""
    d = sc.details
    lo, hi, t = 100 * d["share_low"], 100 * d["share_high"], 100 * d["threshold"]
    rel = "at least" if lo >= t else "below" if hi < t else "within"
    c = (Comparison(rel, hi if rel == "below" else lo, t, left_label=f"its {'upper' if rel == 'below' else 'lower'} "
                    "end (in %)", right_label="the declared threshold") if rel != "within" else
         Comparison("within", 0.5 * (lo + hi), t, 0.5 * (hi - lo) + abs(0.5 * (lo + hi) - t),
                    left_label="its midpoint (in %)", right_label="the declared threshold"))
    span = f"{fmt(lo)} %" if lo == hi else f"{fmt(lo)}–{fmt(hi)} % (exact interval)"
    text = (f"the term carries {span} of the gain over the trivial alternative (loss {fmt(d['baseline'])} → "
            f"{fmt(d['full'][1])}, {fmt(d['without'])} without it): {c.text}")
    return Finding(text, "exact (an exact interval from the bracketed optimum)", (c,))


RULE = register(Rule("share", share, explain, finding=finding, fuzz=(
    dict(kwargs=dict(statement="s", full=1.0, without=1.1, baseline=2.0, threshold=0.05)),)))
