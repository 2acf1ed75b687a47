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
_SETTING = re.compile(r"([^\s(),;=]+(?:\s[^\s(),;=]+)?)\s*=\s*([-+−]?\d[\d.]*(?:e[-+]?\d+)?)")
_NUMBER = re.compile(r"[-+−]?\d[\d.]*(?:e[-+]?\d+)?")


def _head(statement: str) -> str:
    return re.split(r"\s*\(", statement, maxsplit=1)[0].strip()


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
    for s in statements:
        for name, v in _SETTING.findall(s):
            values.setdefault(name.strip(), [])
            if v not in values[name.strip()]:
                values[name.strip()].append(v)
    varying = [f"{k} ∈ {{{', '.join(v)}}}" for k, v in values.items() if len(v) > 1]
    others = {re.sub(_SETTING, "", s[len(_head(s)):]).strip(" ()") for s in statements}
    others = sorted(o for o in {re.sub(r"\s*,\s*(,\s*)+", ", ", x).strip(" ,;") for x in others} if o)
    parts = varying + ([f"and {'; '.join(others)}"] if others and len(others) > 1 else [])
    return f"{heads.pop()} — at all {len(statements)} settings" + (", " + ", ".join(parts) if parts else "")


def _numbers(s) -> str:
    """The decisive numbers of one sub-claim: estimate (CI) against the stated or exact value, or the exact curve's
    optimum, or the source's two values."""
    d = s.details or {}
    target = d.get("stated") or (None if s.target is None else fmt(s.target))
    if s.rule == "consistency":
        return f"{d.get('a_label', 'one')} = {fmt(s.estimate)} vs {d.get('b_label', 'other')} = {fmt(s.target)}"
    if s.rule == "shape":
        if "x_argmin" in d:
            return f"on the exact curve the minimum is at x = {fmt(d['x_argmin'])}, the maximum at x = {fmt(d['x_argmax'])}"
        return f"shape {d.get('shape')} ({s.statistic_name} = {fmt(s.statistic)})"
    if s.estimate is None:
        return shorten(s.reason.split(" → ")[0], 240)
    ci = "" if not s.ci or s.ci[0] == s.ci[1] else f" (95 % CI [{fmt(s.ci[0])}, {fmt(s.ci[1])}])"
    vs = "" if target is None else f" vs {'stated' if d.get('stated') else 'exact/target'} {target}"
    return f"estimate {fmt(s.estimate)}{ci}{vs}"


def _point(c, kind: str) -> str:
    """One numbered point (at most three sentences) for claim ``c``."""
    bad = [s for s in c.subclaims if s.verdict == c.verdict] or c.subclaims
    says = f"Lines {c.lines[0]}–{c.lines[1]} state: «{c.title}»."
    if kind == "confirmed":
        s = bad[0]
        return f"{says} Confirmed: {collapse([x.statement for x in bad])}; {_numbers(s)} [{s.scope or c.scope or ''}]."
    groups: dict = {}
    for s in bad:
        groups.setdefault((_head(s.statement), s.rule), []).append(s)
    found = "; ".join(collapse([s.statement for s in g]) for g in groups.values())
    worst = bad[0]
    extent = ""
    if c.verdict == REFUTED and any(s.extent for s in bad):
        extent = " Extent: " + shorten("; ".join(f"{k} = {v}" for s in bad for k, v in (s.extent or {}).items()
                                                 if k not in ("searched", "holds_throughout")), 300) + "."
    return (f"{says} Instead ({BADGE[c.verdict]}): {found}. Decisive numbers: {_numbers(worst)}"
            + (f" [{worst.scope}]" if worst.scope else "") + f".{extent}")


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
