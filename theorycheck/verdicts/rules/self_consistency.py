"""Rule ``consistency``: two statements of the source about the same quantity (consistent or inconsistent)."""
from __future__ import annotations

from ...claims import INCONSISTENT, SubClaim
from ...validate import check_real, check_str
from ..finding import Comparison, Finding
from ..text import fmt
from .common import common_kwargs, decide_exactly
from .registry import Rule, register


def consistency(statement: str, a, b, *, atol: float = 0.0, rtol: float = 1e-9, a_label: str = "first",
                b_label: str = "second", categories: dict | None = None, **kw) -> SubClaim:
    """Two statements of the source about the same quantity: consistent or ``inconsistent``.

    Hypothesis: the values ``a`` (what the source says in one place) and ``b`` (in another place,
    or what its own definitions give) agree within ``atol + rtol |b|``. Confirmed (consistent) if
    they do; ``inconsistent`` otherwise — the source contradicts itself. Deterministic.

    ``categories`` (value → words, e.g. ``{1: "proved", 0: "not proved"}``): the two values encode statements, not
    quantities; the finding then quotes the words ("line 27: 'proved'; lines 38, 104–105: 'not proved'"),
    never the codes.

    >>> consistency("legend noise = caption formula", 0.447, 1.447, atol=5e-4).verdict
    'inconsistent'
    >>> sc = consistency("proved?", 1, 0, a_label="line 27", b_label="lines 38, 104–105",
    ...                  categories={1: "proved", 0: "not proved"})
    >>> finding(sc).text
    "line 27: 'proved'; lines 38, 104–105: 'not proved' — the source contradicts itself"
    """
    c = common_kwargs(kw)
    statement = check_str("statement", statement)
    a, b = check_real("a", a), check_real("b", b)
    atol, rtol = check_real("atol", atol, low=0.0), check_real("rtol", rtol, low=0.0)
    tol = atol + rtol * abs(b)
    if categories is not None:
        missing = [v for v in (a, b) if v not in categories]
        if missing:
            raise ValueError(f"categories must name every value of a and b; missing {missing}")
        c["details"]["categories"] = {"a": str(categories[a]), "b": str(categories[b])}
    c["details"].update({"a_label": a_label, "b_label": b_label})
    sc = SubClaim(statement, "consistency", statistic=abs(a - b), statistic_name="|a - b|", margin=tol,
                  estimate=a, target=b, **c)
    return decide_exactly(sc, abs(a - b) <= tol, bad=INCONSISTENT)


def explain(sc) -> str:
    d = sc.details
    if "categories" in d:
        return f"{d.get('a_label')}: '{d['categories']['a']}'; {d.get('b_label')}: '{d['categories']['b']}'"
    return (f"{d.get('a_label')} = {fmt(sc.estimate)}, {d.get('b_label')} = {fmt(sc.target)}; "
            f"|difference| = {fmt(sc.statistic)} against tolerance {fmt(sc.margin)}")


def finding(sc) -> Finding:
    """The source's two values, equal or not: "<a_label> 0.447 differs from <b_label> 1.447 by 1"."""
    d, tol = sc.details, float(sc.margin or 0.0)
    ok = abs(sc.estimate - sc.target) <= tol
    if "categories" in d:
        w = d["categories"]
        verb = "the two agree" if ok else "the source contradicts itself"
        return Finding(f"{d.get('a_label')}: '{w['a']}'; {d.get('b_label')}: '{w['b']}' — {verb}",
                       "exact: the paper's own words", ())
    c = Comparison("equals" if ok else "differs", sc.estimate, sc.target, tol, left_label=d.get("a_label", "one value"),
                   right_label=d.get("b_label", "the other"), gap=not ok, percent=False)
    return Finding(c.text, "exact: the paper's own numbers" + ("" if not ok or not tol else f" (tolerance {fmt(tol)})"),
                   (c,))


RULE = register(Rule("consistency", consistency, explain, finding=finding, fuzz=(dict(kwargs=dict(statement="s", a=1.0, b=1.0)),)))
