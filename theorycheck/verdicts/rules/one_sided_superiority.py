"""Rule ``superiority``: "A beats B", a one-sided test of the estimated difference against a declared margin."""
from __future__ import annotations

from ...claims import SubClaim
from ...validate import check_real, check_str
from ..estimate import Estimate, as_estimate
from ..finding import Comparison, Finding, ci_text, settings_tail, statement_parts, statistical_sure
from ..text import estimate_text, fmt, p_text
from .common import (
    CALIBRATION_ALPHA,
    FAMILY_ALPHA,
    cdf,
    check_scale,
    common_kwargs,
    decide_exactly,
    log10_cdf,
    log10_sf,
    p_side,
    quantile,
    sample_mean,
    sf,
    statistical_subclaim,
)
from .registry import Rule, register


def superiority(statement: str, difference, *, margin: float = 0.0, relative_to: float | None = None,
                **kw) -> SubClaim:
    r""""A beats B": the estimated difference (oriented so that the claim means difference > margin).

    Hypotheses: *for* — :math:`\delta \le m` vs :math:`\delta > m` (one-sided t, small p
    confirms); *against* — :math:`\delta \ge m` vs :math:`\delta < m` (one-sided t in the other
    direction, small p refutes). Declared margin ``m`` (default 0). For paired designs pass the
    estimate of the paired differences (common random numbers). Exact differences (se = 0) decide
    deterministically. ``details['mdd80']`` is the smallest true margin excess detected with 80 %
    power at the unadjusted α. ``relative_to``: the margin is ``margin × |relative_to|`` (a declared fraction
    of a reference level, e.g. 0.1 % of the loss).

    >>> from theorycheck.verdicts.estimate import Estimate
    >>> s = superiority("GLA beats LMS", Estimate(0.02, 0.004, 10_000, 9_999))
    >>> s.p_value["for"] < 1e-5, s.p_value["against"] > 0.99
    (True, True)
    """
    c = common_kwargs(kw)
    statement = check_str("statement", statement)
    est = as_estimate(difference, "difference")
    m = check_real("margin", margin)
    if relative_to is not None:
        ref = check_real("relative_to", relative_to)
        c["details"]["relative_margin"] = {"fraction": m, "of": ref}
        m = m * abs(ref)
    check_scale(margin=m, difference=abs(est.mean) + est.se)
    if est.se == 0:
        sc = SubClaim(statement, "superiority", estimate=est.mean, target=m, margin=m,
                      statistic=est.mean - m, statistic_name="difference - margin (exact)", **c)
        return decide_exactly(sc, est.mean > m)
    t = (est.mean - m) / est.se
    c["details"]["mdd80"] = (quantile(FAMILY_ALPHA, est.df) + quantile(0.2, est.df)) * est.se
    return statistical_subclaim(statement, "superiority", est, sf(t, est.df), cdf(t, est.df), target=m, margin=m,
                        statistic=t, statistic_name="t",
                        log10={"for": lambda: log10_sf(t, est.df), "against": lambda: log10_cdf(t, est.df)}, **c)


def explain(sc) -> str:
    if sc.statistical:
        return f"difference {estimate_text(sc)} against margin {fmt(sc.margin)}; {p_text(sc)}"
    return f"exact difference {fmt(sc.estimate)} against margin {fmt(sc.margin)}"


def finding(sc) -> Finding:
    """Where the advantage lies against its margin: "the advantage −0.1287 (95 % CI …) lies below 0"."""
    L, m = float(sc.estimate), float(sc.margin or 0.0)
    p = statement_parts(sc.statement, m)
    bare = p["op"] == ">" and p["right"].replace(".", "", 1).isdigit() and float(p["right"]) == m
    label = (sc.details or {}).get("quantity") or (p["left"] if bare else "the advantage")
    rel = "above" if L > m else "below" if L < m else "equals"
    c = Comparison(rel, L, m, left_label=label, right_label="the margin" if m else "", ci=ci_text(sc))
    return Finding(c.text + settings_tail(sc), statistical_sure(sc) if sc.statistical else "exact", (c,))


def _sup_null(rng):          # no difference: must not confirm superiority
    return p_side(superiority("x", sample_mean(rng, 12, 0.0)), "for") < CALIBRATION_ALPHA


def _sup_null_against(rng):  # no difference: must not refute (margin 0, boundary)
    return p_side(superiority("x", sample_mean(rng, 12, 0.0)), "against") < CALIBRATION_ALPHA


def _sup_power(rng):         # effect of one sd, n = 12
    return p_side(superiority("x", sample_mean(rng, 12, 1.0)), "for") < CALIBRATION_ALPHA


RULE = register(Rule("superiority", superiority, explain, finding=finding, calibration={
    "superiority: false confirmation (no difference)": ("bound", _sup_null),
    "superiority: false refutation (no difference, margin 0)": ("bound", _sup_null_against),
    "superiority: power (effect 1 sd, n = 12)": ("power", _sup_power),
}, fuzz=(dict(kwargs=dict(statement="s", difference=Estimate(1.0, 0.1, 50, 49), margin=0.0)),)))
