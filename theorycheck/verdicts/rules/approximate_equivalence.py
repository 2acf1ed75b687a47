"""Rule ``equivalence``: an approximate statement ("≈", "matches") within a declared margin (TOST)."""
from __future__ import annotations

from ...claims import SubClaim
from ..estimate import Estimate
from ..finding import Finding, value_finding
from ..text import value_comparison_text
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
    sample_mean,
    statistical_subclaim,
    tost_p,
)
from .registry import Rule, register


def equivalence(statement: str, estimate, target: float, *, margin: float, relative: bool = False, **kw) -> SubClaim:
    r"""An approximate statement ("≈", "matches", "close to") within a declared margin.

    Hypotheses: *for* — TOST of :math:`|\mu-\text{target}| \ge m` (small p confirms that the
    difference is inside ±m); *against* — :math:`|\mu-\text{target}| \le m`, rejected when the
    estimate is significantly outside the margin on either side (two one-sided tests, Bonferroni
    ×2). Student t with the estimate's df. Exact estimates (se = 0) decide deterministically.
    Power to confirm at a true difference of 0 in ``details['power']``.

    >>> from theorycheck.verdicts.estimate import Estimate
    >>> s = equivalence("≈ 0.5", Estimate(0.52, 0.005, 400, 399), 0.5, margin=0.05)
    >>> s.p_value["for"] < 1e-6, s.p_value["against"] == 1.0
    (True, True)
    """
    c = common_kwargs(kw)
    statement, est, target, m, diff = compared_to_target(statement, estimate, target, margin, relative)
    c["details"].update({"relative_margin": float(margin) if relative else None})
    if est.se == 0:
        return decide_exactly(exact_difference(statement, "equivalence", est, target, m, c), abs(diff) <= m)
    c["details"]["power"] = equivalence_power(est.se, m, est.df)
    return statistical_subclaim(statement, "equivalence", est, tost_p(diff, est.se, m, est.df),
                        outside_p(diff, est.se, m, est.df), target=target, margin=m,
                        statistic=diff / est.se, statistic_name="t",
                        log10={"for": lambda: log10_tost(diff, est.se, m, est.df),
                               "against": lambda: log10_outside(diff, est.se, m, est.df)}, **c)


def explain(sc) -> str:
    return value_comparison_text(sc, "target")


def _equiv_inside(rng):      # true difference on the margin: must not refute
    return p_side(equivalence("x", sample_mean(rng, 8, 0.3), 0.0, margin=0.3), "against") < CALIBRATION_ALPHA


def _equiv_outside(rng):     # true difference on the margin: must not confirm
    return p_side(equivalence("x", sample_mean(rng, 8, 0.3), 0.0, margin=0.3), "for") < CALIBRATION_ALPHA


def finding(sc) -> Finding:
    return value_finding(sc, "the claimed")


RULE = register(Rule("equivalence", equivalence, explain, finding=finding, calibration={
    "equivalence: false refutation at the margin": ("bound", _equiv_inside),
    "equivalence: false confirmation at the margin": ("bound", _equiv_outside),
}, fuzz=(dict(kwargs=dict(statement="s", estimate=Estimate(1.0, 0.1, 50, 49), target=1.0, margin=0.1)),)))
