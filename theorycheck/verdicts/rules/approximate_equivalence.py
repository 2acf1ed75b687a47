"""Rule ``equivalence``: an approximate statement ("≈", "matches") within a declared margin (TOST)."""
from __future__ import annotations

from ...claims import NOT_REPRODUCED, REFUTED, SubClaim
from ..estimate import Estimate
from ..finding import Finding, value_finding
from ..margins import VERBS, margin_table, smallest_margin
from ..text import fmt, value_comparison_text
from .common import (
    CALIBRATION_ALPHA,
    common_kwargs,
    compared_to_target,
    decide_exactly,
    equivalence_power,
    exact_difference,
    log10_outside,
    log10_tost,
    outside_p,
    p_side,
    quantile,
    sample_mean,
    statistical_subclaim,
    tost_p,
)
from .registry import Rule, register


def equivalence(statement: str, estimate, target: float, *, margin: float, relative: bool = False,
                verb: str | None = None, **kw) -> SubClaim:
    r"""An approximate statement ("≈", "matches", "close to") within a declared margin.

    Hypotheses: *for* — TOST of :math:`|\mu-\text{target}| \ge m` (small p confirms that the
    difference is inside ±m); *against* — :math:`|\mu-\text{target}| \le m`, rejected when the
    estimate is significantly outside the margin on either side (two one-sided tests, Bonferroni
    ×2). Student t with the estimate's df. Exact estimates (se = 0) decide deterministically.
    Power to confirm at a true difference of 0 in ``details['power']``.

    ``verb``: the vague verb of the sentence (a key of :data:`theorycheck.verdicts.margins.MARGIN_TABLES`): the
    margin is then our choice, and the sub-claim also records the verb's whole table of admissible margins — it is
    refuted only outside the widest of them at the family's Bonferroni level, *not reproduced* when it fails at
    ``margin`` only, and its finding states the smallest margin at which it holds (95 % upper confidence bound).

    >>> s = equivalence("≈ 1", Estimate(1.08, 0.01, 400, 399), 1.0, margin=0.05, relative=True, verb="approximates")
    >>> s.details["holds_at"], round(s.details["upper_bound"], 4)
    (0.1, 0.0997)

    >>> from theorycheck.verdicts.estimate import Estimate
    >>> s = equivalence("≈ 0.5", Estimate(0.52, 0.005, 400, 399), 0.5, margin=0.05)
    >>> s.p_value["for"] < 1e-6, s.p_value["against"] == 1.0
    (True, True)
    """
    c = common_kwargs(kw)
    statement, est, target, m, diff = compared_to_target(statement, estimate, target, margin, relative)
    c["details"].update({"relative_margin": float(margin) if relative else None})
    if verb is not None:
        c["details"].update(verb_table(verb, est, target, diff))
    if est.se == 0:
        sc = decide_exactly(exact_difference(statement, "equivalence", est, target, m, c), abs(diff) <= m)
        if verb is not None and sc.verdict == REFUTED and abs(diff) <= c["details"]["widest_margin"]:
            sc.verdict = NOT_REPRODUCED            # outside our margin, inside the verb's widest: our choice
        return sc
    c["details"]["power"] = equivalence_power(est.se, m, est.df)
    return statistical_subclaim(statement, "equivalence", est, tost_p(diff, est.se, m, est.df),
                        outside_p(diff, est.se, m, est.df), target=target, margin=m,
                        statistic=diff / est.se, statistic_name="t",
                        log10={"for": lambda: log10_tost(diff, est.se, m, est.df),
                               "against": lambda: log10_outside(diff, est.se, m, est.df)}, **c)


def verb_table(verb: str, est: Estimate, target: float, diff: float) -> dict:
    """What ``details`` records for a vague verb: its table, the widest margin (absolute), the p-value of being
    outside it, the 95 % upper confidence bound of the relative difference and the smallest margin at or above it."""
    table = margin_table(verb)
    if target == 0:
        raise ValueError("verb: a vague verb's margins are relative to the target; the target must be non-zero")
    widest = max(table) * abs(target)
    half = 0.0 if est.se == 0 else quantile(0.025, est.df) * est.se          # upper 2.5 % point of t
    ub = (abs(diff) + half) / abs(target)
    return {"verb": VERBS.get(verb, verb), "margin_table": list(table), "widest_margin": widest,
            "p_outside_widest": 0.0 if est.se == 0 and abs(diff) > widest else
            1.0 if est.se == 0 else outside_p(diff, est.se, widest, est.df),
            "upper_bound": ub, "holds_at": smallest_margin(ub, verb)}


def explain(sc) -> str:
    text = value_comparison_text(sc, "target")
    d = sc.details
    if d.get("margin_table"):
        holds = (f"it holds at margins ≥ {fmt(100 * d['holds_at'])} % of the target" if d["holds_at"] is not None
                 else f"it holds at none of the admissible margins (up to {fmt(100 * max(d['margin_table']))} %)")
        text += (f"; the verb '{d['verb']}' admits margins {', '.join(fmt(100 * x) + ' %' for x in d['margin_table'])}"
                 f": the relative difference is at most {fmt(100 * d['upper_bound'])} % (95 % upper confidence bound),"
                 f" so {holds}")
    return text


def _equiv_inside(rng):      # true difference on the margin: must not refute
    return p_side(equivalence("x", sample_mean(rng, 8, 0.3), 0.0, margin=0.3), "against") < CALIBRATION_ALPHA


def _equiv_outside(rng):     # true difference on the margin: must not confirm
    return p_side(equivalence("x", sample_mean(rng, 8, 0.3), 0.0, margin=0.3), "for") < CALIBRATION_ALPHA


def _verb_widest(rng):       # true difference on the widest margin of the verb's table: must not refute
    sc = equivalence("x", sample_mean(rng, 8, 1.2, 1.0), 1.0, margin=0.05, relative=True, verb="matches")
    return sc.details["p_outside_widest"] < CALIBRATION_ALPHA


def finding(sc) -> Finding:
    f = value_finding(sc, "the claimed")
    d = sc.details
    if not d.get("margin_table"):
        return f
    holds = (f"it holds at the verb's margins ≥ {fmt(100 * d['holds_at'])} %" if d["holds_at"] is not None else
             f"it holds at none of the verb's admissible margins (up to {fmt(100 * max(d['margin_table']))} %)")
    return Finding(f"{f.text}; the relative difference is at most {fmt(100 * d['upper_bound'])} % (95 % upper "
                   f"confidence bound): {holds}", f.sure, f.comparisons)


RULE = register(Rule("equivalence", equivalence, explain, finding=finding, calibration={
    "equivalence: false refutation at the margin": ("bound", _equiv_inside),
    "equivalence: false confirmation at the margin": ("bound", _equiv_outside),
    "equivalence (vague verb): false refutation at the widest admissible margin": ("bound", _verb_widest),
}, fuzz=(dict(kwargs=dict(statement="s", estimate=Estimate(1.0, 0.1, 50, 49), target=1.0, margin=0.1)),)))
