r"""Rule ``grid equivalence``: a clause about a set of points ("the points are close to the curve", "on the curve at
every τ") decided at its worst point, simultaneously over the grid.

Each point i has an estimate and a target; the clause says every point lies within the declared margin.
Hypotheses: *for* — every point is within the margin: the intersection–union test, p = the largest of the points'
TOST p-values (valid without a correction); *against* — some point lies outside the margin: the union–intersection
test, p = k × the smallest of the points' "outside" p-values (Bonferroni within the grid, what Holm gives its first
step). Student t with each estimate's df. The report's Holm family then adjusts both, as for every rule. Exact
points (se = 0) decide themselves. Recorded per point: the adjusted "outside" p (Holm within the grid), which points
are significantly outside, the worst point, and the **smallest margin at which the clause holds** — the simultaneous
95 % upper confidence bound of max |deviation| (Bonferroni-t over the k points). With ``verb=`` the verb's table of
admissible margins decides as for :func:`~theorycheck.verdicts.rules.equivalence` (refuted only outside the widest
at the family's Bonferroni level; not reproduced when it fails at our margin only).

>>> from theorycheck.verdicts.estimate import Estimate
>>> sc = grid_equivalence("on the curve", [Estimate(1.01, 0.01, 50, 49), Estimate(2.3, 0.02, 50, 49)], [1.0, 2.0],
...                       margin=0.05, relative=True, labels=["τ = 0.5", "τ = 2"])
>>> sc.details["worst"], sc.details["outside"], round(sc.details["upper_bound"], 3)
('τ = 2', ['τ = 2'], 0.173)
"""
from __future__ import annotations

from ...claims import CONFIRMED, NOT_REPRODUCED, REFUTED, SubClaim
from ...validate import ParameterTypeError, check_real, check_str
from ..estimate import Estimate, as_estimate
from ..margins import VERBS, margin_table, smallest_margin
from ..multiplicity import holm
from ..finding import Comparison, Finding, statistical_sure
from ..text import fmt
from .common import CALIBRATION_ALPHA, FAMILY_ALPHA, check_scale, common_kwargs, ci95, decide_exactly, outside_p, p_side, quantile, sample_mean, tost_p
from .registry import Rule, register


def grid_equivalence(statement: str, estimates, targets, *, margin: float, relative: bool = False, labels=None,
                     verb: str | None = None, **kw) -> SubClaim:
    """Every point of a grid within ``margin`` of its target (see the module docstring); ``labels`` name the points
    (default ``"point i"``); ``margin`` is relative to each target when ``relative``."""
    c = common_kwargs(kw)
    statement = check_str("statement", statement)
    for name, v in (("estimates", estimates), ("targets", targets)):
        if isinstance(v, (str, bytes, dict)) or not hasattr(v, "__len__") or not hasattr(v, "__iter__"):
            raise ParameterTypeError(f"{name} must be a sequence (one per point of the grid), got {type(v).__name__}")
    ests = [as_estimate(e, f"estimates[{i}]") for i, e in enumerate(estimates)]
    tgts = [check_real(f"targets[{i}]", t) for i, t in enumerate(targets)]
    check_scale(**{f"targets[{i}]": t for i, t in enumerate(tgts)},
                **{f"estimates[{i}]": abs(e.mean) + e.se for i, e in enumerate(ests)})
    if not ests or len(ests) != len(tgts):
        raise ValueError(f"estimates and targets must be non-empty and of equal length, got {len(ests)} and "
                         f"{len(tgts)}")
    labels = [f"point {i}" for i in range(len(ests))] if labels is None else [check_str("labels", x) for x in labels]
    if len(labels) != len(ests):
        raise ValueError(f"labels: one per point, got {len(labels)} for {len(ests)} points")
    m = check_real("margin", margin, low=0.0, low_open=True)
    scale = [abs(t) if relative else 1.0 for t in tgts]
    if relative and min(scale) == 0:
        raise ValueError("relative margin: every target must be non-zero")
    k = len(ests)
    diffs = [e.mean - t for e, t in zip(ests, tgts)]
    rel = [d / s for d, s in zip(diffs, scale)]
    p_in = [_p_in(e, d, m * s) for e, d, s in zip(ests, diffs, scale)]
    p_out = [_p_out(e, d, m * s) for e, d, s in zip(ests, diffs, scale)]
    adj = holm(p_out)
    crit = quantile(0.025 / k, min((e.df for e in ests if e.df), default=None)) if any(e.se for e in ests) else 0.0
    ub = max((abs(d) + crit * e.se) / s for e, d, s in zip(ests, diffs, scale))
    worst = max(range(k), key=lambda i: abs(rel[i]))
    c["details"].update({"labels": labels, "relative_margin": m if relative else None, "points": k,
                         "deviations": rel, "p_outside_adjusted": adj, "worst": labels[worst],
                         "outside": [labels[i] for i in range(k) if adj[i] < FAMILY_ALPHA],
                         "p_inside": p_in, "not_shown": [labels[i] for i in range(k) if p_in[i] >= FAMILY_ALPHA],
                         "upper_bound": ub, "correction": "Holm within the grid; max-p (intersection–union) for"})
    if verb is not None:
        table = margin_table(verb)
        c["details"].update({"verb": VERBS.get(verb, verb), "margin_table": list(table), "holds_at":
                             smallest_margin(ub, verb),
                             "p_outside_widest": min(1.0, k * min(_p_out(e, d, max(table) * s)
                                                                  for e, d, s in zip(ests, diffs, scale)))})
    est = ests[worst]
    sc = SubClaim(statement, "grid equivalence", n=sum(e.n or 1 for e in ests), df=est.df, estimate=est.mean,
                  target=tgts[worst], margin=m * scale[worst], statistic=rel[worst],
                  statistic_name="largest deviation" + (" (relative)" if relative else ""), ci=ci95(est), ci_level=0.95,
                  p_value={"for": max(p_in), "against": min(1.0, k * min(p_out))}, **c)
    if all(e.se == 0 for e in ests):                      # every point exact: decided without α
        sc.p_value = None
        decide_exactly(sc, all(abs(r) <= m for r in rel))
        if sc.verdict == REFUTED and verb is not None and max(abs(r) for r in rel) <= max(margin_table(verb)):
            sc.verdict = NOT_REPRODUCED             # outside our margin, inside the verb's widest: our choice
    return sc


def _p_in(e: Estimate, d: float, m: float) -> float:
    return (0.0 if abs(d) <= m else 1.0) if e.se == 0 else tost_p(d, e.se, m, e.df)


def _p_out(e: Estimate, d: float, m: float) -> float:
    return (0.0 if abs(d) > m else 1.0) if e.se == 0 else outside_p(d, e.se, m, e.df)


def explain(sc) -> str:
    d = sc.details
    rel = "%" if d.get("relative_margin") is not None else ""
    pct = (lambda x: f"{fmt(100 * x)} %") if rel else fmt
    out = d.get("outside") or []
    text = (f"{d['points']} points, margin ±{pct(d['relative_margin']) if rel else fmt(sc.margin)}: the worst is "
            f"{d['worst']} (deviation {pct(sc.statistic)}); "
            + (f"{len(out)} point(s) significantly outside (Holm within the grid): {', '.join(out[:6])}"
               + (" …" if len(out) > 6 else "") if out else "no point significantly outside")
            + f"; every point is within {pct(d['upper_bound'])} (simultaneous 95 % upper confidence bound)")
    if d.get("margin_table"):
        text += (f"; the verb '{d['verb']}' admits margins up to {pct(max(d['margin_table']))}: it holds at "
                 + (f"margins ≥ {pct(d['holds_at'])}" if d["holds_at"] is not None else "none of them"))
    return text


def finding(sc) -> Finding:
    """The worst point's deviation against the margin, the points significantly outside, and the smallest margin at
    which every point is within (the simultaneous upper bound)."""
    d = sc.details
    relm = d.get("relative_margin")
    scale = 100.0 if relm is not None else 1.0
    worst = abs(sc.statistic) * scale
    m = (relm if relm is not None else sc.margin) * scale
    unit = " %" if relm is not None else ""
    c = Comparison("at most" if worst <= m else "above", worst, m, left_label=f"the largest deviation ({d['worst']},"
                   f" in{unit or ' absolute terms'})", right_label="the margin")
    out = d.get("outside") or []
    text = (f"over {d['points']} points {c.text}; "
            + (f"{len(out)} point(s) lie significantly outside (Holm within the grid): {', '.join(out[:4])}"
               + (" …" if len(out) > 4 else "") if out else "no point lies significantly outside")
            + f"; every point is within {fmt(scale * d['upper_bound'])}{unit} (simultaneous 95 % upper bound)")
    weak = d.get("not_shown") or []
    if weak and sc.verdict != CONFIRMED and not out:
        pmax = max(d["p_inside"])
        text += (f"; closeness within the margin is not shown at {', '.join(weak[:4])}" + (" …" if len(weak) > 4 else "")
                 + f" (largest p(for) {fmt(pmax)}, unadjusted)")
    if d.get("quantity"):
        text = f"{d['quantity']}: {text}"
    # a relative grid: the worst point's CI in raw units would sit beside deviations in % — leave it out
    return Finding(text, statistical_sure(sc, ci=relm is None) if sc.statistical else "exact", (c,))


def _grid_inside(rng):        # every point exactly on the margin: must not refute
    ests = [sample_mean(rng, 8, 0.3) for _ in range(3)]
    return p_side(grid_equivalence("x", ests, [0.0] * 3, margin=0.3), "against") < CALIBRATION_ALPHA


def _grid_outside(rng):       # one point on the margin, the others at 0: must not confirm
    ests = [sample_mean(rng, 8, 0.3)] + [sample_mean(rng, 8, 0.0) for _ in range(2)]
    return p_side(grid_equivalence("x", ests, [0.0] * 3, margin=0.3), "for") < CALIBRATION_ALPHA


RULE = register(Rule("grid equivalence", grid_equivalence, explain, finding=finding, calibration={
    "grid equivalence: false refutation with every point on the margin": ("bound", _grid_inside),
    "grid equivalence: false confirmation with one point on the margin": ("bound", _grid_outside),
}, fuzz=(dict(kwargs=dict(statement="s", estimates=[Estimate(1.0, 0.1, 50, 49)], targets=[1.0], margin=0.1)),)))
