"""Rule ``inequality``: an exact inequality, elementwise for arrays."""
from __future__ import annotations

import numpy as np

from ...claims import INCONCLUSIVE, SubClaim
from ...validate import check_comparison, check_str
from ..finding import Comparison, Finding, quantity, reference, settings_tail
from ..text import fmt
from .common import common_kwargs, decide_exactly
from .registry import Rule, register


def inequality(statement: str, lhs, op: str, rhs, *, undecided: str | None = None, **kw) -> SubClaim:
    """Exact inequality ``lhs op rhs`` (``op`` in ``<, <=, >, >=``), elementwise for arrays.

    Hypothesis: it holds at every point given. Confirmed iff it does; refuted otherwise (the
    worst point is recorded). No α: both sides are computed exactly (closed forms or exact
    optimisation); use :func:`superiority` for Monte Carlo estimates. ``undecided``: the reason,
    fixed by the sizes before any data (e.g. "window shorter than the declared minimum"), why these
    points cannot decide the statement — the sub-claim is then *inconclusive*, with the inequality
    still evaluated and recorded (``details['holds']``).

    >>> inequality("λ* < 1", [0.7, 0.9], "<", 1.0).verdict
    'confirmed'
    >>> inequality("λ* < 1", [0.7, 1.0], "<", 1.0).details["violations"]
    1
    """
    c = common_kwargs(kw)
    statement = check_str("statement", statement)
    holds, a, b = check_comparison(lhs, op, rhs)
    slack = (b - a) if op in ("<", "<=") else (a - b)
    worst = int(np.argmin(slack)) if slack.size else 0
    c["details"].update({"op": op, "violations": int(np.sum(~holds)), "points": int(holds.size),
                         "worst_index": worst})
    sc = SubClaim(statement, "inequality", statistic=float(slack.ravel()[worst]) if slack.size else None,
                  statistic_name="smallest slack (positive = holds)",
                  estimate=float(a.ravel()[worst]) if a.size else None,
                  target=float(b.ravel()[worst]) if b.size else None, n=int(holds.size), **c)
    if undecided is not None:                      # decided by the sizes, not by the data: inconclusive
        sc.details.update({"undecided": check_str("undecided", undecided), "holds": bool(np.all(holds))})
        sc.verdict = INCONCLUSIVE
        return sc
    return decide_exactly(sc, bool(np.all(holds)))


def explain(sc) -> str:
    d = sc.details
    v = d.get("violations", 0)
    return ((f"holds at all {d['points']} point(s)" if not v else f"fails at {v} of {d['points']} point(s)") +
            f" (smallest slack {fmt(sc.statistic)}: {fmt(sc.estimate)} {d['op']} {fmt(sc.target)})")


_RELATION = {"<": "below", "<=": "at most", ">": "above", ">=": "at least"}
_NEGATION = {"<": "at least", "<=": "above", ">": "at most", ">=": "below"}


def finding(sc) -> Finding:
    """Where the inequality holds or fails, with the values at its tightest (or worst) point."""
    d = sc.details
    v, n = d.get("violations", 0), d.get("points", 0)
    if sc.estimate is None or sc.target is None:
        return Finding(explain(sc) + settings_tail(sc), "exact")
    a, b = float(sc.estimate), float(sc.target)
    rel = _RELATION[d["op"]] if Comparison(_RELATION[d["op"]], a, b).holds() else _NEGATION[d["op"]]
    c = Comparison(rel, a, b, left_label=quantity(sc, "the computed value"), right_label=reference(sc, "the bound"))
    head = "" if n <= 1 else (f"it holds at all {n} points; at the tightest, " if not v else
                              f"it fails at {v} of {n} points; at the worst, ")
    return Finding(head + c.text + settings_tail(sc), f"exact, at {n} point(s)", (c,))


RULE = register(Rule("inequality", inequality, explain, finding=finding, fuzz=(
    dict(kwargs=dict(statement="s", lhs=[0.5], op="<", rhs=1.0, undecided="too short")),)))
