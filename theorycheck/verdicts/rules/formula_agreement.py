"""Rule ``agreement``: a quantity the source states exactly (a formula) against a Monte Carlo estimate."""
from __future__ import annotations

import math

from ...claims import SubClaim
from ...validate import check_real, check_str
from ..estimate import Estimate, as_estimate
from ..finding import Finding, value_finding
from ..text import value_comparison_text
from .common import (
    CALIBRATION_ALPHA,
    check_scale,
    common_kwargs,
    equivalence_power,
    log10_sf,
    log10_tost,
    p_side,
    sample_mean,
    scaled_margin,
    sf,
    statistical_subclaim,
    tost_p,
)
from .registry import Rule, register


def agreement(statement: str, estimate, exact: float, *, margin: float, relative: bool = True, **kw) -> SubClaim:
    r"""A quantity the source states *exactly* (a formula) against a Monte Carlo estimate of the model.

    Hypotheses: *against* — point null :math:`\mu = \text{exact}` (two-sided t-test, statistic
    :math:`t=(\hat\mu-\text{exact})/\mathrm{SE}`); rejecting it refutes the formula at any
    size of deviation, because the statement is exact. *for* — TOST of
    :math:`|\mu-\text{exact}| \ge m` with the declared margin ``m`` (relative to ``|exact|`` by
    default); rejecting it confirms "agrees to within m". α: the report's Holm family
    (:data:`FAMILY_ALPHA`). Power: the probability of confirming when the formula is exact,
    :math:`1-2\,\bar F_t(m/\mathrm{SE}-t_{1-α})`, is recorded in ``details['power']``; below
    that, the sub-claim is inconclusive. Exact-zero targets need an absolute margin.

    >>> from theorycheck.verdicts.estimate import Estimate
    >>> agreement("x = 0", Estimate(0.001, 0.01, 100, 99), 0.0, margin=0.05, relative=False).margin
    0.05
    """
    c = common_kwargs(kw)
    statement = check_str("statement", statement)
    est = as_estimate(estimate, "estimate")
    exact = check_real("exact", exact)
    if est.se == 0:
        raise ValueError("estimate: agreement needs a Monte Carlo estimate (se > 0); use identity for exact values")
    m = scaled_margin("margin", margin, exact, relative)
    check_scale(exact=exact, margin=m, estimate=abs(est.mean) + est.se)
    diff = est.mean - exact
    t = diff / est.se
    c["details"].update({"relative_margin": float(margin) if relative else None,
                         "power": equivalence_power(est.se, m, est.df),
                         "relative_difference": diff / abs(exact) if exact else None})
    return statistical_subclaim(statement, "agreement", est, tost_p(diff, est.se, m, est.df),
                        min(1.0, 2 * sf(abs(t), est.df)), target=exact, margin=m, statistic=t,
                        statistic_name="t", log10={"for": lambda: log10_tost(diff, est.se, m, est.df),
                                                   "against": lambda: math.log10(2) + log10_sf(abs(t), est.df)}, **c)


def explain(sc) -> str:
    return value_comparison_text(sc, "exact value")


def _agree_null(rng):        # exact formula true: point null holds
    return p_side(agreement("x", sample_mean(rng, 10, 1.0), 1.0, margin=0.5), "against") < CALIBRATION_ALPHA


def _agree_z(rng):           # the old practice: a normal (z) reference with n = 10 — anti-conservative
    e = sample_mean(rng, 10, 1.0)
    return p_side(agreement("x", Estimate(e.mean, e.se, e.n, None), 1.0, margin=0.5), "against") < CALIBRATION_ALPHA


def _agree_boundary(rng):    # true deviation exactly the margin: TOST must not confirm
    return p_side(agreement("x", sample_mean(rng, 10, 1.5), 1.0, margin=0.5), "for") < CALIBRATION_ALPHA


def _agree_power(rng):       # formula exact, n = 30, margin 1 sd: TOST confirms
    return p_side(agreement("x", sample_mean(rng, 30, 1.0), 1.0, margin=1.0), "for") < CALIBRATION_ALPHA


def finding(sc) -> Finding:
    return value_finding(sc, "the formula's", point_null=True)


RULE = register(Rule("agreement", agreement, explain, finding=finding, calibration={
    "agreement: false refutation": ("bound", _agree_null),
    "agreement with a normal (z) reference at n = 10 (the old test): false refutation": ("contrast", _agree_z),
    "agreement: false confirmation at the margin": ("bound", _agree_boundary),
    "agreement: power to confirm (margin = 1 sd, n = 30)": ("power", _agree_power),
}, fuzz=(dict(kwargs=dict(statement="s", estimate=Estimate(1.0, 0.1, 50, 49), exact=1.0, margin=0.1)),)))
