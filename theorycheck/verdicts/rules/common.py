"""What every rule shares: the declared levels and laws, the t-test primitives, the keyword arguments every rule
takes, and the way a sub-claim is built (an engine room of :mod:`theorycheck.verdicts.rules`; no rule lives here).

>>> round(tost_p(0.0, 1.0, 3.0, None), 5), round(sf(1.96, None), 4)
(0.00135, 0.025)
"""
from __future__ import annotations

import math

from scipy import stats

from ...claims import CONFIRMED, REFUTED, Param, SubClaim
from ...validate import ParameterTypeError, check_real, check_str
from ..estimate import Estimate, as_estimate

__all__ = ["FAMILY_ALPHA", "SELF_CHECK_ALPHA", "GOF_ALPHA", "FINITE_SIZE_LAWS", "SHAPES", "sf", "cdf", "quantile",
           "common_kwargs", "scaled_margin", "check_scale", "tost_p", "outside_p", "equivalence_power", "ci95",
           "decide_exactly", "statistical_subclaim", "compared_to_target", "exact_difference", "log10_sf", "log10_cdf", "log10_tost", "log10_outside", "CALIBRATION_ALPHA", "sample_mean", "p_side"]

#: Family-wise error rate of the verdicts of one report (Holm over every statistical sub-claim).
FAMILY_ALPHA = 0.01
#: Family-wise error rate of the self-checks of one paper (Holm); a failure stops the run.
SELF_CHECK_ALPHA = 1e-3
#: Goodness-of-fit level below which a declared finite-size law is rejected for the data.
GOF_ALPHA = 0.01
#: Finite-size laws y(d) = L + Σ_k b_k d^{-p_k}: name -> exponents p_k. Declared in code, applied to every
#: asymptotic sub-claim. History: v0.2 started with {1/d, 1/sqrt(d)}; the two-term 1/d + 1/d² law (the next term
#: of the usual 1/d expansion) was added during the first re-audit, after a paper's data showed curvature in 1/d.
#: Adding a law can only move a verdict towards *inconclusive* (intersection–union: every accepted law must agree),
#: never create a confirmation or a refutation.
FINITE_SIZE_LAWS = {"1/d": (1.0,), "1/sqrt(d)": (0.5,), "1/d + 1/d^2": (1.0, 2.0)}

SHAPES = ("increasing", "decreasing", "interior-minimum", "interior-maximum", "unimodal-minimum",
          "unimodal-maximum")


def sf(t: float, df) -> float:
    return float(stats.t.sf(t, df) if df else stats.norm.sf(t))


def cdf(t: float, df) -> float:
    return float(stats.t.cdf(t, df) if df else stats.norm.cdf(t))


def log10_sf(t: float, df) -> float:
    r"""log₁₀ of :func:`sf`, computed on the log scale (``logsf``): finite where ``sf`` underflows to 0. Where even
    SciPy's Student-t ``logsf`` underflows, the tail is the regularised incomplete beta function
    :math:`\tfrac12 I_{\nu/(\nu+t^2)}(\nu/2, 1/2)`, evaluated with mpmath (its exponent range is unbounded).

    >>> int(log10_sf(1e4, 999)), int(log10_sf(40.0, None))      # p = 1e-2499 and 1e-349: below the double range
    (-2499, -349)
    """
    v = float(stats.t.logsf(t, df) if df else stats.norm.logsf(t)) / math.log(10)
    if math.isfinite(v) or not df or t <= 0:
        return v
    if math.isinf(t):
        return -math.inf
    import mpmath  # heavy: only for Student-t tails beyond the double range
    # I_x(a, b) = x^a (1-x)^b / (a B(a, b)) 2F1(a+b, 1; a+1; x) (DLMF 8.17.8), on the log scale: exact, and the
    # series converges fast for the small x = ν/(ν+t²) met here (mpmath's betainc can fail to converge there)
    # (for a huge ν and a moderate t, x is close to 1 and the series may not converge: then the value is not
    # known beyond "below the double range" and nan is returned; the report prints p < 1e−300)
    a, b = mpmath.mpf(df) / 2, mpmath.mpf(1) / 2
    x = mpmath.mpf(df) / (mpmath.mpf(df) + mpmath.mpf(t) ** 2)
    try:
        series = mpmath.hyp2f1(a + b, 1, a + 1, x, maxterms=10 ** 5)
    except (ValueError, mpmath.libmp.NoConvergence):
        return math.nan
    log_i = (a * mpmath.log(x) + b * mpmath.log1p(-x) - mpmath.log(a) - mpmath.loggamma(a) - mpmath.loggamma(b)
             + mpmath.loggamma(a + b) + mpmath.log(series))
    return float((log_i - mpmath.log(2)) / mpmath.log(10))


def log10_cdf(t: float, df) -> float:
    """log₁₀ of :func:`cdf`, computed on the log scale (by symmetry, :func:`log10_sf` of ``-t``)."""
    return log10_sf(-t, df)


def log10_tost(diff: float, se: float, m: float, df) -> float:
    """log₁₀ of :func:`tost_p`."""
    return max(log10_sf((diff + m) / se, df), log10_cdf((diff - m) / se, df))


def log10_outside(diff: float, se: float, m: float, df) -> float:
    """log₁₀ of :func:`outside_p` (below its cap at 1)."""
    return math.log10(2) + min(log10_sf((diff - m) / se, df), log10_cdf((diff + m) / se, df))


def quantile(p: float, df) -> float:
    return float(stats.t.isf(p, df) if df else stats.norm.isf(p))


def common_kwargs(kw: dict) -> dict:
    """The keyword arguments every rule takes, checked once (``TypeError`` for any other):

    ``scope``, ``slug``, ``reading``, ``narrowed``, ``overlay`` (strings); ``chosen``, ``details``, ``data``,
    ``extent`` (dicts); ``clauses`` (a clause id or a list of them); ``params`` (a list of
    :class:`~theorycheck.claims.Param` — the chosen ones are added to ``chosen``); ``trivial`` (a list of
    :func:`~theorycheck.verdicts.rules.trivial.against_trivial` records)."""
    out = {}
    for k in ("scope", "slug", "reading", "narrowed", "overlay"):
        if k in kw:
            v = kw.pop(k)
            if v is not None and not isinstance(v, str):
                raise ParameterTypeError(f"{k} must be a string or None, got {type(v).__name__}")
            out[k] = v
    for k in ("chosen", "details", "data", "extent"):
        v = kw.pop(k, None)
        if v is not None and not isinstance(v, dict):
            raise ParameterTypeError(f"{k} must be a dict or None, got {type(v).__name__}")
        out[k] = dict(v or {})
    if not out["extent"]:
        del out["extent"]
    if "clauses" in kw:
        out["clauses"] = _clause_ids(kw.pop("clauses"))
    if "params" in kw:
        out["params"] = _params(kw.pop("params"), out["chosen"])
    if "trivial" in kw:
        out["trivial"] = _trivial(kw.pop("trivial"))
    if kw:
        raise TypeError(f"unexpected keyword arguments: {sorted(kw)}")
    return out


def _clause_ids(v) -> list:
    ids = [v] if isinstance(v, str) else v
    if not isinstance(ids, (list, tuple)) or not ids or not all(isinstance(x, str) and x for x in ids):
        raise ParameterTypeError(f"clauses must be a clause id or a non-empty list of clause ids, got {v!r}")
    return list(ids)


def _params(v, chosen: dict) -> dict:
    ps = list(v.values()) if isinstance(v, dict) else v
    if not isinstance(ps, (list, tuple)) or not all(isinstance(p, Param) for p in ps):
        raise ParameterTypeError(f"params must be a list of theorycheck.claims.Param, got {v!r}")
    names = [p.name for p in ps]
    if len(set(names)) != len(names):
        raise ValueError(f"params: each parameter once, got {names}")
    for p in ps:
        if p.chosen:
            chosen.setdefault(p.name, p.value)
    return {p.name: p.as_dict() for p in ps}


def _trivial(v) -> list:
    if not isinstance(v, (list, tuple)) or not v or not all(isinstance(x, dict) and "p" in x and "contender" in x
                                                            for x in v):
        raise ParameterTypeError("trivial must be a non-empty list of rules.trivial.against_trivial(...) records, "
                                 f"got {v!r}")
    return [dict(x) for x in v]


def scaled_margin(name: str, margin: float, target: float, relative: bool) -> float:
    m = check_real(name, margin, low=0.0)
    if relative:
        if target == 0:
            raise ValueError(f"{name}: a relative margin needs a non-zero target; use an absolute margin "
                             "(relative=False) for an exact-zero target")
        m = m * abs(target)
        if not math.isfinite(m):
            raise ValueError(f"{name} times |target| overflows; give an absolute margin")
    return m


def check_scale(**values) -> None:
    """Statistics need the estimate, target and margin within the floating range: |x| <= 1e150."""
    for name, v in values.items():
        if abs(v) > 1e150:
            raise ValueError(f"{name} is beyond 1e150 in magnitude: rescale the quantity (the test statistic would "
                             "overflow)")


def tost_p(diff: float, se: float, m: float, df) -> float:
    """p of the two one-sided tests of |diff| >= m (small = inside the margin)."""
    return max(sf((diff + m) / se, df), cdf((diff - m) / se, df))


def outside_p(diff: float, se: float, m: float, df) -> float:
    """p of the test of |diff| <= m (small = significantly outside the margin); two sides, Bonferroni."""
    return min(1.0, 2 * min(sf((diff - m) / se, df), cdf((diff + m) / se, df)))


def equivalence_power(se: float, m: float, df, alpha: float = FAMILY_ALPHA) -> float:
    """Probability that TOST at level ``alpha`` confirms when the true difference is 0."""
    if se == 0:
        return 1.0
    q = quantile(alpha, df)
    return max(0.0, 1.0 - 2.0 * sf(m / se - q, df))


def ci95(est: Estimate, level: float = 0.95) -> list:
    return list(est.ci(level))


def compared_to_target(statement, estimate, target, margin, relative: bool) -> tuple:
    """The checked arguments of a rule that compares an estimate with a target within a margin:
    ``(statement, estimate, target, absolute margin, estimate − target)``."""
    statement = check_str("statement", statement)
    est = as_estimate(estimate, "estimate")
    target = check_real("target", target)
    m = scaled_margin("margin", margin, target, relative)
    check_scale(target=target, margin=m, estimate=abs(est.mean) + est.se)
    return statement, est, target, m, est.mean - target


def exact_difference(statement: str, rule: str, est, target: float, m: float, c: dict) -> SubClaim:
    """The sub-claim of an exact estimate (se = 0) against a target: the absolute difference as its statistic."""
    return SubClaim(statement, rule, estimate=est.mean, target=target, margin=m, statistic=abs(est.mean - target),
                    statistic_name="|estimate - target| (exact)", **c)


def decide_exactly(sc: SubClaim, ok: bool, bad: str = REFUTED) -> SubClaim:
    sc.verdict = CONFIRMED if ok else bad
    return sc


def statistical_subclaim(statement, rule, est: Estimate, p_for, p_against, *, target=None, margin=None, statistic=None,
                         statistic_name=None, log10=None, **c) -> SubClaim:
    """A statistical sub-claim; ``log10``: ``{"for"/"against": () -> log₁₀ p}`` computed on the log scale, recorded in
    ``details["log10_p"]`` for a p-value that underflows to 0 (so the report can print ``p < 1e−k``)."""
    sc = SubClaim(statement, rule, n=est.n, df=est.df, estimate=est.mean, target=target, margin=margin,
                  statistic=statistic, statistic_name=statistic_name, ci=ci95(est), ci_level=0.95,
                  p_value={"for": float(p_for), "against": float(p_against)}, **c)
    logs = {k: float(f()) for k, f in (log10 or {}).items() if sc.p_value[k] == 0.0}
    logs = {k: v for k, v in logs.items() if math.isfinite(v)}        # t = ±inf (zero spread): printed "< 1e−300"
    if logs:
        sc.details["log10_p"] = logs
    return sc


#: The unadjusted level at which each rule is applied to each simulated dataset of its calibration cases.
CALIBRATION_ALPHA = 0.05


def sample_mean(rng, n, mu, sd=1.0) -> Estimate:
    """The estimate of the mean of ``n`` normal draws (a calibration dataset)."""
    return Estimate.from_samples(rng.normal(mu, sd, n))


def p_side(sc, side: str) -> float:
    """The raw p-value ``side`` (``"for"`` or ``"against"``) of a sub-claim."""
    return sc.p_value[side]
