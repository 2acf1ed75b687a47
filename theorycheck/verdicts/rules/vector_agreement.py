"""Rule ``joint agreement``: a vector of components stated exactly, against Monte Carlo estimates (one joint test)."""
from __future__ import annotations

import numpy as np

from ...claims import SubClaim
from ...validate import check_str
from ..estimate import Estimate, joint_test
from ..finding import Finding, settings_tail, statistical_sure
from ..text import fmt, p_text
from .common import CALIBRATION_ALPHA, common_kwargs, p_side, scaled_margin, tost_p
from .registry import Rule, register


def joint_agreement(statement: str, means, exact, cov=None, *, ses=None, n: int | None = None, df=None,
                    margin: float, relative: bool = True, **kw) -> SubClaim:
    r"""A vector of components stated exactly, against Monte Carlo estimates (one joint test).

    *against*: Hotelling/χ² test of :math:`\mu = \text{exact}` with statistic
    :math:`T^2 = \Delta^\top \Sigma^{-1}\Delta` (Σ the covariance of the estimated means; ``ses``
    alone means independent components); :math:`\chi^2_k` when ``df`` is ``None``, otherwise the
    Hotelling :math:`F_{k,\,df-k+1}` law. *for*: intersection–union of the per-component TOST
    tests within the margin (max of their p-values) — all components must be inside.

    >>> s = joint_agreement("two moments", [1.01, 2.99], [1.0, 3.0], ses=[0.01, 0.02], margin=0.05)
    >>> s.rule, s.n is None, round(s.statistic, 2)
    ('joint agreement', True, 1.25)
    """
    c = common_kwargs(kw)
    statement = check_str("statement", statement)
    jt = joint_test(means, exact, cov, ses, df)
    m_, e_, cov, t2, p_against, law, k = (jt[x] for x in ("means", "exact", "cov", "t2", "p", "law", "k"))
    d = m_ - e_
    se = np.sqrt(np.diag(cov))
    ms = np.array([scaled_margin("margin", margin, x, relative) for x in e_])
    p_for = max(tost_p(float(di), float(si), float(mi), df) for di, si, mi in zip(d, se, ms))
    c["details"].update({"components": int(k), "law": law, "relative_margin": float(margin) if relative else None,
                         "max_abs_component_t": float(np.max(np.abs(d / se)))})
    c["data"].setdefault("components", {"estimate": m_, "exact": e_, "se": se, "margin": ms})
    return SubClaim(statement, "joint agreement", n=n, df=df, statistic=t2, statistic_name="T²",
                    margin=float(np.max(ms)), p_value={"for": p_for, "against": p_against}, **c)


def explain(sc) -> str:
    d = sc.details
    return (f"{d.get('components')} components, {d.get('law')}: T² = {fmt(sc.statistic)} (largest |t| of a "
            f"component {fmt(d.get('max_abs_component_t'))}), margin ±{fmt(sc.margin)}; {p_text(sc)}")


def finding(sc) -> Finding:
    d = sc.details
    return Finding(f"{d.get('components')} components against their exact values: T² = {fmt(sc.statistic)} "
                   f"({d.get('law')}), the largest |t| of a component {fmt(d.get('max_abs_component_t'))}, each "
                   f"margin ±{fmt(sc.margin)}" + settings_tail(sc), statistical_sure(sc))


def _joint_null(rng):        # 3 independent components, all exact
    m = [Estimate.from_samples(rng.normal(0.0, 1.0, 400)) for _ in range(3)]
    # the SEs are estimated (399 df each): the rule is given the estimates' degrees of freedom, as every paper
    # claim does; the chi^2 law (df=None) treats them as known and ran at ~5.4 % here (selftest, 2026-12-01)
    return p_side(joint_agreement("x", [e.mean for e in m], [0, 0, 0], ses=[e.se for e in m],
                                  margin=0.5, relative=False, df=min(e.df for e in m)), "against") < CALIBRATION_ALPHA


RULE = register(Rule("joint agreement", joint_agreement, explain, finding=finding, calibration={
    "joint agreement: false refutation (3 components)": ("bound", _joint_null),
}, fuzz=(dict(kwargs=dict(statement="s", means=[1.0, 2.0], exact=[1.0, 2.0], ses=[0.1, 0.1], margin=0.1)),)))
