r"""The referee letter: the first page of a paper's report, the page a referee would send to the authors.

Generated from the evidence only — never hand-written. Points, numbered, each at most three sentences: what the paper
says (its seed lines and words), what holds instead, and the decisive numbers (the stated value, the toolkit's
estimate with its 95 % CI or the exact value, the setting). Sections:

- **Major points** — every claim of weight ``main`` that is refuted, inconsistent or not reproduced;
- **Minor points** — the same verdicts on ``supporting`` claims, and every claim left inconclusive;
- **Confirmations worth stating** — main claims confirmed (with their decisive numbers), and places where the
  paper's own numbers agree with each other (``consistency`` sub-claims);
- **What could not be checked, and why** — underspecified claims and untested clauses, with their reasons.

Sub-claims that differ only by their parameters (``γ = 0.5`` vs ``γ = 0.8``) collapse into one sentence with the
range of settings. A claim without a declared weight counts as ``main`` (the conservative reading).

>>> from theorycheck.claims import Claim, Ledger, SubClaim
>>> subs = [SubClaim(f"inverted-U in λ (γ = {g}, σ² = 0.01)", "shape", verdict="refuted") for g in (0.5, 0.8)]
>>> c = Claim(id="000-x", paper="000", lines=(40, 41), statement="s", title="The train error is inverted-U in λ",
...           quote="q", subclaims=subs, verdict="refuted", weight="main", reason="2 of 2 sub-claim(s) refuted")
>>> "γ ∈ {0.5, 0.8}" in "\n".join(letter(Ledger("gla", "000", "T").add(c)))
True
"""
from __future__ import annotations

import re

from ..claims import CONFIRMED, INCONCLUSIVE, INCONSISTENT, NOT_REPRODUCED, REFUTED, UNDERSPECIFIED
from ..verdicts.text import fmt, shorten
from .common import BADGE

__all__ = ["letter", "letter_points", "collapse"]

_BAD = (REFUTED, INCONSISTENT, NOT_REPRODUCED)
_NUM = r"[-+−]?\d[\d.]*(?:e[-+]?\d+)?"
#: A setting "name = number" inside a statement's settings.
_SETTING = re.compile(r"([^\s(),;=]+(?:\s[^\s(),;=]+)?)\s*=\s*(" + _NUM + ")")
#: A leading setting of a statement: "(a) " (a setting's label) or "s = 2: " (a parameter).
_LEAD = re.compile(r"^(?:\(([a-z])\)\s+|([^\s(),;:=]+\s*=\s*" + _NUM + r"):\s+)")
#: At most this many groups of sub-claims are named in one point (the claim's section lists them all).
_GROUPS = 3


def _split(statement: str) -> tuple[str, str]:
    """``(head, settings)``: a statement's trailing parenthesised group is its settings (``… (γ = 0.5, σ² = 0.01)``);
    a statement without one is all head. Parentheses inside the head (``ξ increases on (0, γ)``) stay in the head."""
    s = statement.rstrip()
    lead = _LEAD.match(s)
    prefix = ""
    if lead:                                     # "(a) AR(2): …", "s = 2: …": a leading setting
        prefix, s = lead.group(1) or lead.group(2), s[lead.end():]
    if not s.endswith(")"):
        return s, prefix
    depth = 0
    for k in range(len(s) - 1, -1, -1):
        depth += (s[k] == ")") - (s[k] == "(")
        if depth == 0:
            return s[:k].rstrip(), ", ".join(x for x in (prefix, s[k + 1:-1]) if x)
    return s, prefix


def _head(statement: str) -> str:
    return _split(statement)[0]


def collapse(statements: list[str]) -> str:
    """One sentence for statements that differ only by their settings: the shared text, then the numeric settings
    that vary as sets (``γ ∈ {0.5, 0.8}``) and any other settings listed once; a single statement is returned as
    it is."""
    statements = list(dict.fromkeys(statements))
    if len(statements) == 1:
        return statements[0]
    heads = {_head(s) for s in statements}
    if len(heads) != 1:
        return "; ".join(statements)
    values: dict = {}
    rest = []                                    # per statement: its settings that are not "name = number"
    for s in statements:
        sett = _split(s)[1]
        for name, v in _SETTING.findall(sett):
            values.setdefault(name.strip(), [])
            if v not in values[name.strip()]:
                values[name.strip()].append(v)
        parts = [re.sub(r"\s+", " ", x).strip(" ()") for x in re.sub(_SETTING, "", sett).split(",")]
        rest.append([x for x in parts if x and x != "="])
    varying = [f"{k} ∈ {{{', '.join(v)}}}" for k, v in values.items() if len(v) > 1]
    common = [x for x in rest[0] if all(x in r for r in rest)]
    labels = sorted({x for r in rest for x in r if re.fullmatch(r"[a-z]", x)})
    others = sorted({"; ".join(x for x in r if x not in common and x not in labels) for r in rest} - {""})
    parts = varying + ([', '.join(f'({x})' for x in labels)] if len(labels) > 1 else [])
    parts += [f"and {'; '.join(others)}"] if len(others) > 1 else []
    head = heads.pop() + (f" ({', '.join(common)})" if common else "")
    return f"{head} — at all {len(statements)} settings" + (", " + ", ".join(parts) if parts else "")


def _numbers(s) -> str:
    """The decisive numbers of one sub-claim: estimate (CI) against the stated or exact value, or the exact curve's
    optimum, or the source's two values."""
    d = s.details or {}
    target = d.get("stated") or (None if s.target is None else fmt(s.target))
    if s.rule == "consistency":
        return f"{d.get('a_label', 'one')} = {fmt(s.estimate)} vs {d.get('b_label', 'other')} = {fmt(s.target)}"
    if s.rule == "shape":
        capped = f"; {d['capped']}" if d.get("capped") else ""
        if "x_argmin" in d:
            return (f"on the exact curve the minimum is at x = {fmt(d['x_argmin'])}, the maximum at x = "
                    f"{fmt(d['x_argmax'])}{capped}")
        if d.get("x_optimum") is not None:
            best = "smallest" if d.get("shape") in ("interior-minimum", "decreasing") else "largest"
            stat = "" if s.statistic_name == "index of the optimum" else f" ({s.statistic_name} = {fmt(s.statistic)})"
            return f"{d.get('shape')}: the {best} value {fmt(s.estimate)} is at x = {fmt(d['x_optimum'])}{stat}{capped}"
        return f"shape {d.get('shape')} ({s.statistic_name} = {fmt(s.statistic)}){capped}"
    if s.estimate is None:
        return shorten(re.split(r"\s*\[scope:", s.reason.split(" → ")[0])[0], 240)
    ci = "" if not s.ci or s.ci[0] == s.ci[1] else f" (95 % CI [{fmt(s.ci[0])}, {fmt(s.ci[1])}])"
    vs = "" if target is None else f" vs {'stated' if d.get('stated') else 'exact/target'} {target}"
    return f"estimate {fmt(s.estimate)}{ci}{vs}"


def _grouped(subs) -> str:
    """The sub-claims' statements, those differing only by their settings collapsed into one (:func:`collapse`), at
    most :data:`_GROUPS` of them named."""
    groups: dict = {}
    for s in subs:
        groups.setdefault((_head(s.statement), s.rule), []).append(s)
    found = [collapse([s.statement for s in g]) for g in groups.values()]
    return "; ".join(found[:_GROUPS]) + (f"; and {len(found) - _GROUPS} more (see the claim)"
                                         if len(found) > _GROUPS else "")


def _point(c, kind: str) -> str:
    """One numbered point (at most three sentences) for claim ``c``."""
    bad = [s for s in c.subclaims if s.verdict == c.verdict] or c.subclaims
    says = f"Lines {c.lines[0]}–{c.lines[1]} state: «{c.title}»."
    if kind == "confirmed":
        s = bad[0]
        numbers, scope = _numbers(s), s.scope or c.scope or ""
        return f"{says} Confirmed: {_grouped(bad)}; {numbers}" + (
            f" [{scope}]." if scope and scope not in numbers else ".")
    found = _grouped(bad)
    worst = bad[0]
    extent = ""
    if c.verdict == REFUTED and any(s.extent for s in bad):
        items = dict.fromkeys(f"{k} = {v}" for s in bad for k, v in (s.extent or {}).items()
                              if k not in ("searched", "holds_throughout"))
        extent = " Extent: " + shorten("; ".join(items), 300) + "."
    numbers = _numbers(worst)
    scope = f" [{worst.scope}]" if worst.scope and worst.scope not in numbers else ""
    return f"{says} Instead ({BADGE[c.verdict]}): {found}. Decisive numbers: {numbers}{scope}.{extent}"


def letter_points(led) -> dict:
    """``{"major": [...], "minor": [...], "confirmed": [...], "unchecked": [...]}`` of the ledger's claims, each a
    list of ``(claim, text)``."""
    out = {"major": [], "minor": [], "confirmed": [], "unchecked": []}
    for c in led.claims:
        main = c.weight in (None, "main")
        if c.verdict in _BAD:
            out["major" if main else "minor"].append((c, _point(c, "bad")))
        elif c.verdict == INCONCLUSIVE:
            out["minor"].append((c, _point(c, "bad")))
        elif c.verdict == UNDERSPECIFIED:
            missing = sorted({m for s in c.subclaims for m in s.missing})
            out["unchecked"].append((c, f"Lines {c.lines[0]}–{c.lines[1]} («{c.title}»): the source does not give "
                                        + "; ".join(missing) + "."))
        elif c.verdict == CONFIRMED and main:
            out["confirmed"].append((c, _point(c, "confirmed")))
        for cl in c.clauses or []:
            if cl.get("untested") and c.verdict != UNDERSPECIFIED:
                out["unchecked"].append((c, f"Lines {c.lines[0]}–{c.lines[1]}, clause «{cl['text']}»: not tested — "
                                            f"{cl['untested']}."))
        agree = [s for s in c.subclaims if s.rule == "consistency" and s.verdict == CONFIRMED]
        if agree and c.verdict != CONFIRMED:
            out["confirmed"].append((c, f"The paper's own numbers agree: {collapse([s.statement for s in agree])}."))
    return out


def letter(led) -> list[str]:
    """The Markdown lines of the referee letter of one finalized ledger."""
    pts = letter_points(led)
    L = ["## Referee letter", "",
         "Generated from the evidence below (never hand-written): what the paper says, what holds instead, and the "
         "numbers that decide it. Links go to the claim's section.", ""]
    titles = {"major": "Major points", "minor": "Minor points", "confirmed": "Confirmations worth stating",
              "unchecked": "What could not be checked, and why"}
    n = 0
    for key in ("major", "minor", "confirmed", "unchecked"):
        L += [f"### {titles[key]}", ""]
        if not pts[key]:
            L += ["None." if key != "major" else "None: no main claim is refuted, inconsistent or not reproduced.", ""]
            continue
        for c, text in pts[key]:
            n += 1
            L.append(f"{n}. [`{c.id}`](#{c.id}) {text}")
        L.append("")
    return L
