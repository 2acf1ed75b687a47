"""Rule ``difference``: "A differs from B", a two-sided test (confirms) or equivalence within a margin (refutes)."""
from __future__ import annotations

import math

from ...claims import SubClaim
from ..estimate import Estimate
from ..finding import Comparison, Finding, ci_text, settings_tail, statistical_sure
from ..text import estimate_text, fmt, p_text
from .common import (
    common_kwargs,
    compared_to_target,
    decide_exactly,
    exact_difference,
    log10_sf,
    log10_tost,
    sf,
    statistical_subclaim,
    tost_p,
)
from .registry import Rule, register


def difference(statement: str, estimate, target: float = 0.0, *, margin: float, **kw) -> SubClaim:
    r""""A differs from B" / "X is not Y": the estimated quantity differs from ``target`` (e.g. a paired
    difference from 0).

    Hypotheses: *for* — point null :math:`\mu = \text{target}` (two-sided t; rejecting it confirms a
    difference); *against* — TOST of :math:`|\mu-\text{target}| \ge m` (rejecting it shows the two are
    equal within the declared margin ``m``, which refutes "they differ"). Student t with the estimate's df.

    >>> from theorycheck.verdicts.estimate import Estimate
    >>> s = difference("teacher ≠ surrogate at d = 16", Estimate(0.05, 0.01, 8, 7), margin=0.01)
    >>> s.p_value["for"] < 0.01, s.p_value["against"] > 0.5
    (True, True)
    """
    c = common_kwargs(kw)
    statement, est, target, m, diff = compared_to_target(statement, estimate, target, margin, False)
    if est.se == 0:
        return decide_exactly(exact_difference(statement, "difference", est, target, m, c), diff != 0)
    t = diff / est.se
    return statistical_subclaim(statement, "difference", est, min(1.0, 2 * sf(abs(t), est.df)), tost_p(diff, est.se, m, est.df),
                        target=target, margin=m, statistic=t, statistic_name="t",
                        log10={"for": lambda: math.log10(2) + log10_sf(abs(t), est.df),
                               "against": lambda: log10_tost(diff, est.se, m, est.df)}, **c)


def explain(sc) -> str:
    if sc.statistical:
        return f"estimate {estimate_text(sc)} vs {fmt(sc.target)} (equivalence margin ±{fmt(sc.margin)}); {p_text(sc)}"
    return f"exact value {fmt(sc.estimate)} vs {fmt(sc.target)}"


def finding(sc) -> Finding:
    """The difference against its target: differs (by how much), or within the equivalence margin."""
    L, R, m = float(sc.estimate), float(sc.target), float(sc.margin or 0.0)
    label = (sc.details or {}).get("quantity") or "the difference"
    ci = ci_text(sc)
    if sc.verdict in ("refuted", "not reproduced") and abs(L - R) <= m:
        c = Comparison("within", L, R, m, left_label=label, ci=ci)
    elif L == R:
        c = Comparison("equals", L, R, left_label=label, ci=ci)
    else:
        c = Comparison("below" if L < R else "above", L, R, left_label=label, ci=ci, gap=True, margin=m)
    return Finding(c.text + settings_tail(sc), statistical_sure(sc) if sc.statistical else "exact", (c,))


RULE = register(Rule("difference", difference, explain, finding=finding, fuzz=(
    dict(kwargs=dict(statement="s", estimate=Estimate(1.0, 0.1, 50, 49), target=0.0, margin=0.1)),)))
