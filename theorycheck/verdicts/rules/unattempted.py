"""Rule ``underspecified``: the statement cannot be attempted; names what the source does not give."""
from __future__ import annotations

from typing import Sequence

from ...claims import UNDERSPECIFIED, SubClaim
from ...validate import ParameterTypeError, check_str
from ..finding import Finding
from .common import common_kwargs
from .registry import Rule, register


def underspecified(statement: str, missing: Sequence[str], **kw) -> SubClaim:
    """Cannot be attempted: ``missing`` names what the source does not give.

    >>> underspecified("SST-2 accuracy", ["data", "models"]).verdict
    'underspecified'
    """
    c = common_kwargs(kw)
    statement = check_str("statement", statement)
    if isinstance(missing, (str, bytes)) or not isinstance(missing, (list, tuple)) or \
            not all(isinstance(m, str) and m.strip() for m in missing):
        raise ParameterTypeError(f"missing must be a list of non-empty strings, got {missing!r}")
    missing = list(missing)
    if not missing:
        raise ValueError("missing must name at least one thing the source does not give")
    return SubClaim(statement, "underspecified", verdict=UNDERSPECIFIED, missing=missing, **c)


def explain(sc) -> str:
    return "cannot be attempted: the source does not give " + "; ".join(sc.missing)


def finding(sc) -> Finding:
    return Finding("the source does not give " + "; ".join(sc.missing), "not attempted")


RULE = register(Rule("underspecified", underspecified, explain, finding=finding, fuzz=(
    dict(kwargs=dict(statement="s", missing=["x"])),)))
