"""The words of a finding: numbers for sentences and the recurring phrases every rule's explanation uses.

Every sentence of a finding is generated from the numbers that decided it (:func:`theorycheck.verdicts.aggregate.
explain` and each rule's own ``explain``); this module only formats them.

>>> fmt(0.000012345), fmt(12.3456), fmt(None), fmt(3)
('1.234e-05', '12.35', 'n/a', '3')
"""
from __future__ import annotations

import math
import re

__all__ = ["fmt", "shorten", "formula_spans", "TEX_TOKEN", "GROUP_OPEN", "GROUP_CLOSE", "estimate_text", "p_text", "p_value_text", "chosen_text", "value_comparison_text"]


#: TeX tokens: a command (``\\frac``, ``\\begin``), an escaped character, a run of spaces or one character.
TEX_TOKEN = re.compile(r"\\[A-Za-z]+\*?|\\.|\s+|.", re.S)
#: The tokens that open and close a group of a formula's body.
GROUP_OPEN, GROUP_CLOSE = frozenset({"{", r"\begin"}), frozenset({"}", r"\end"})
#: How far past the limit a formula may run to be kept whole (longer ones are dropped from the cut text).
_SLACK = 60


def formula_spans(text: str):
    r"""The formulas of ``text``, in order, as ``(start, end, body, display)``: delimited by ``$$…$$``, ``\[…\]``,
    ``\(…\)`` or ``$…$`` (pandoc's rule for a single ``$``: no space inside the delimiters and no digit right after
    the closing one, so "$5 and $6" is no formula; ``\$`` is a dollar sign). A body whose groups (``{…}``,
    ``\begin…\end``) do not balance is no formula (e.g. a quote cut short inside one). The one formula finder of
    the toolkit: :func:`shorten` and the LaTeX report's :func:`theorycheck.report.texmath.split_math` use it.

    >>> [(b, disp) for _, _, b, disp in formula_spans(r"令 $x_i$，则 $$y=1$$ 且 $5 和 $6, \(z\)")]
    [('x_i', False), ('y=1', True), ('z', False)]
    """
    text, k = str(text), 0
    while k < len(text):
        if text.startswith("\\$", k):
            k += 2
            continue
        found = _formula_at(text, k) if text[k] in "$\\" else None
        if found is None:
            k += 1
            continue
        body, display, end = found
        yield k, end, body, display
        k = end


def _formula_at(text: str, k: int):
    """``(body, display, end)`` when a formula starts at ``text[k]``, else None."""
    found = None
    if text.startswith(("\\(", "\\["), k):
        close = "\\)" if text[k + 1] == "(" else "\\]"
        j = text.find(close, k + 2)
        found = (text[k + 2:j], close == "\\]", j + 2) if j > k + 2 else None
    elif text.startswith("$$", k):
        j = text.find("$$", k + 2)
        found = (text[k + 2:j], True, j + 2) if j > k + 2 and text[k + 2:j].strip() else None
    elif text[k] == "$":
        j = _closing_dollar(text, k + 1)
        found = (text[k + 1:j], False, j + 1) if j > 0 else None
    return found if found is not None and _balanced(found[0]) else None


def _closing_dollar(text: str, start: int) -> int:
    """Index of the ``$`` closing an inline formula opened at ``start - 1`` (pandoc's rule), or -1."""
    if start >= len(text) or text[start].isspace():
        return -1
    k = start
    while k < len(text):
        if text[k] == "\\":
            k += 2
            continue
        if text[k] == "$":
            ok = not text[k - 1].isspace() and not (k + 1 < len(text) and text[k + 1].isdigit())
            return k if ok and k > start else -1
        k += 1
    return -1


def _balanced(body: str) -> bool:
    """Do the groups of ``body`` open and close in order?"""
    depth = 0
    for tok in TEX_TOKEN.findall(body):
        depth += (tok in GROUP_OPEN) - (tok in GROUP_CLOSE)
        if depth < 0:
            return False
    return depth == 0


def shorten(text: str, limit: int = 70) -> str:
    r"""``text`` on one line, cut to about ``limit`` characters with "…" — never inside a formula
    (:func:`formula_spans`): a formula the cut would split is kept whole when it ends within ``_SLACK`` characters
    of the limit, else the cut falls before it (a quoted clause is typeset as mathematics in the reports; half a
    formula is not mathematics).

    >>> shorten("short")
    'short'
    >>> shorten("令 $x_i$ 为输入，则 $$\\boxed{y = \\sum_{i=1}^{n} x_i}$$ 成立", limit=20)
    '令 $x_i$ 为输入，则 $$\\boxed{y = \\sum_{i=1}^{n} x_i}$$…'
    >>> shorten("令 $x_i$ 为输入，则 $$" + "a+" * 60 + "b$$ 成立", limit=20)
    '令 $x_i$ 为输入，则…'
    """
    t = " ".join(str(text).split())
    if len(t) <= limit:
        return t
    cut = limit - 1
    for start, end, _, _ in formula_spans(t):
        if start < cut < end:
            cut = end if end <= limit + _SLACK else start
            break
        if start >= cut:
            break
    if cut >= len(t):
        return t
    return t[:cut].rstrip() + "…"


def fmt(x, digits: int = 4) -> str:
    """Numbers for sentences: 4 significant digits, p-values in scientific notation when small.

    >>> fmt(0.000012345), fmt(12.3456), fmt(None), fmt(3)
    ('1.234e-05', '12.35', 'n/a', '3')
    """
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x)
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e5):
        return f"{x:.{digits - 1}e}"
    return f"{x:.{digits}g}"


def estimate_text(sc, digits: int = 4) -> str:
    """``estimate, 95% CI [lo, hi] (n = …, df = …)`` of a sub-claim."""
    ci = "" if sc.ci is None or sc.ci[0] == sc.ci[1] else \
        f", 95% CI [{fmt(sc.ci[0], digits)}, {fmt(sc.ci[1], digits)}]"
    dfs = "" if sc.df is None else f", df = {fmt(sc.df, 3)}"
    n = "" if sc.n is None else f"n = {sc.n}"
    inner = ", ".join(x for x in (n,) if x) + dfs
    return f"{fmt(sc.estimate, digits)}{ci}" + (f" ({inner.lstrip(', ')})" if inner.strip(", ") else "")


def p_text(sc) -> str:
    """Both raw p-values of a statistical sub-claim with their Holm-adjusted values. A p-value that underflows to 0
    is printed as a bound from its log-scale value (``details["log10_p"]``): ``p < 1e−k (log₁₀ p = …, t = …, df = …)``;
    its Holm-adjusted value (at most p times the number of hypotheses) as ``< 1e−300``."""
    p, q = sc.p_value, sc.p_adjusted or sc.p_value
    return (f"p(for) = {p_value_text(sc, 'for', p)} (Holm {p_value_text(sc, 'for', q, adjusted=True)}), "
            f"p(against) = {p_value_text(sc, 'against', p)} (Holm {p_value_text(sc, 'against', q, adjusted=True)})")


def p_value_text(sc, side: str, ps: dict | None = None, adjusted: bool = False) -> str:
    """One p-value (``side`` "for" or "against") of ``ps`` (default: the adjusted ones, else the raw ones), with
    the log-scale bound when it underflows."""
    ps = ps if ps is not None else (sc.p_adjusted or sc.p_value)
    if ps[side] != 0:
        return fmt(ps[side])
    logs = (sc.details or {}).get("log10_p", {})
    if adjusted or side not in logs:
        return "< 1e−300"
    lg = logs[side]
    stat = "" if sc.statistic is None else f", {sc.statistic_name or 'statistic'} = {fmt(sc.statistic)}"
    df = "" if sc.df is None else f", df = {fmt(sc.df, 3)}"
    return f"< 1e−{int(math.floor(-lg))} (log₁₀ p = {lg:.1f}{stat}{df})"


def chosen_text(sc) -> str:
    """``(name = value, …)`` of the toolkit's choices of a sub-claim, or ``(none)``."""
    return "(" + ", ".join(f"{k} = {v}" for k, v in sc.chosen.items()) + ")" if sc.chosen else "(none)"


def value_comparison_text(sc, what: str) -> str:
    """An estimate (or exact value) against a stated value within a margin: the body shared by agreement,
    equivalence and reproduction (``what``: "exact value", "target", "stated value")."""
    d = sc.details
    tgt = d.get("stated") or fmt(sc.target)
    # show the estimate to (at least) the precision at which it is compared
    prec = 4
    if d.get("stated"):
        digits = sum(ch.isdigit() for ch in str(d["stated"]).lstrip("≈~-−0.").split("e")[0])
        prec = min(12, max(4, digits + 2))
    mtxt = f"±{fmt(sc.margin)}"
    if sc.rule == "reproduction":
        mtxt += f" (printed digits {fmt(d.get('printed_tolerance'))} + model margin {fmt(d.get('model_margin'))})"
    if sc.statistical:
        return f"estimate {estimate_text(sc, prec)} vs {what} {tgt}, margin {mtxt}; {p_text(sc)}"
    return f"exact value {fmt(sc.estimate, prec)} vs {what} {tgt}, margin {mtxt}"
