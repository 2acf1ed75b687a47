"""Rule ``search``: a universal statement tested by a finite search for certified counterexamples."""
from __future__ import annotations

from ...claims import INCONCLUSIVE, REFUTED, SubClaim
from ...validate import check_int, check_str
from ..finding import Finding, settings_tail
from .common import common_kwargs
from .registry import Rule, register


def search(statement: str, found: int, tried: int, **kw) -> SubClaim:
    """A universal statement ("no spurious minimum", "always converges") tested by a finite search.

    Refuted when the search found at least one *certified* counterexample (``found`` ≥ 1; the
    certification — e.g. a local-minimum test — is the caller's evidence, recorded in ``details``);
    otherwise **inconclusive**: a finite search cannot prove that no counterexample exists. Deterministic.

    >>> search("no spurious minima", found=0, tried=20).verdict
    'inconclusive'
    >>> search("no spurious minima", found=3, tried=20).verdict
    'refuted'
    """
    c = common_kwargs(kw)
    statement = check_str("statement", statement)
    tried = check_int("tried", tried, minimum=1)
    found = check_int("found", found, minimum=0, maximum=tried)
    c["details"].update({"found": found, "tried": tried})
    return SubClaim(statement, "search", verdict=REFUTED if found else INCONCLUSIVE, n=tried, statistic=float(found),
                    statistic_name="certified counterexamples", **c)


def explain(sc) -> str:
    d = sc.details
    size = f" (size of the failure: {d['magnitude']})" if d.get("found") and d.get("magnitude") else ""
    return (f"{d.get('found')} certified counterexample(s) in {d.get('tried')} search(es)" + size +
            ("" if d.get("found") else " — a finite search cannot prove that none exists"))


def finding(sc) -> Finding:
    """How many certified counterexamples the search found, and which (when the claim names them)."""
    d = sc.details
    found, tried = d.get("found"), d.get("tried")
    named = d.get("counterexamples")
    if found:
        text = f"{found} certified counterexample(s) in {tried} search(es)"
        if isinstance(named, list) and named and all(isinstance(x, str) for x in named):
            text += ": " + "; ".join(named[:3])
    else:
        text = f"no certified counterexample in {tried} search(es) — a finite search cannot prove that none exists"
    return Finding(text + settings_tail(sc), f"a finite search ({tried} tries, each end point certified)")


RULE = register(Rule("search", search, explain, finding=finding, fuzz=(dict(kwargs=dict(statement="s", found=1, tried=3)),)))
