"""Rule ``reproduction``: a number printed in the source, within its printed digits plus a declared margin."""
from __future__ import annotations

import decimal

from ...claims import SubClaim
from ...validate import ParameterTypeError, check_real, check_str
from ..estimate import Estimate
from ..finding import Finding, value_finding
from ..text import value_comparison_text
from .approximate_equivalence import equivalence
from .common import check_scale
from .registry import Rule, register


def printed_tolerance(stated: str) -> tuple[float, float]:
    """``(value, half unit of the last printed digit)`` of a number as printed.

    >>> printed_tolerance("0.264")
    (0.264, 0.0005)
    >>> printed_tolerance("1.29")
    (1.29, 0.005)
    >>> printed_tolerance("2e-3")
    (0.002, 0.0005)
    """
    if isinstance(stated, bool) or not isinstance(stated, (str, int, float)):
        raise ParameterTypeError(f"stated must be a number as printed (a string such as '0.264'), got {stated!r}")
    s = str(stated).strip().lstrip("≈~").replace("−", "-")
    try:
        dec = decimal.Decimal(s)
    except decimal.InvalidOperation:
        raise ValueError(f"stated must be a number as printed (e.g. '0.264'), got {stated!r}") from None
    if not dec.is_finite():
        raise ValueError(f"stated must be finite, got {stated!r}")
    exp = dec.as_tuple().exponent
    return float(dec), 0.5 * 10.0 ** exp


def reproduction(statement: str, estimate, stated: str, *, model_margin: float = 0.0, relative_model_margin=False,
                 **kw) -> SubClaim:
    r"""A number printed in the source, reproduced by the toolkit.

    The margin is the tolerance implied by the printed digits (half a unit of the last digit,
    :func:`printed_tolerance`) plus a declared ``model_margin`` (relative to the stated value when
    ``relative_model_margin``). Then as :func:`equivalence`: TOST confirms, a significant excess
    over the margin refutes — or gives ``not reproduced`` when the setting needed toolkit choices
    (``chosen``), which is the usual case for experiments whose parameters are unstated.

    >>> from theorycheck.verdicts.estimate import Estimate
    >>> s = reproduction("LMS = 0.264", Estimate(0.2642, 0.0001, 10_000, 9_999), "0.264")
    >>> s.margin, s.p_value["for"] < 0.01
    (0.0005, True)
    """
    statement = check_str("statement", statement)
    value, tol = printed_tolerance(stated)
    check_scale(stated=value)
    mm = check_real("model_margin", model_margin, low=0.0) * (abs(value) if relative_model_margin else 1.0)
    if kw.get("details") is None or isinstance(kw["details"], dict):      # anything else: equivalence refuses it
        kw["details"] = {**(kw.get("details") or {}), "stated": str(stated), "printed_tolerance": tol,
                         "model_margin": mm}
    sc = equivalence(statement, estimate, value, margin=tol + mm, **kw)     # validates the common keywords once
    sc.rule = "reproduction"
    return sc


def explain(sc) -> str:
    return value_comparison_text(sc, "stated value")


def finding(sc) -> Finding:
    return value_finding(sc, "the printed")


RULE = register(Rule("reproduction", reproduction, explain, finding=finding, fuzz=(
    dict(kwargs=dict(statement="s", estimate=Estimate(1.0, 0.1, 50, 49), stated="1.0")),
    dict(fn="printed_tolerance", kwargs=dict(stated="0.264")))))
