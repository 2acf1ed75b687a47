r"""The referee letter: the first page of a paper's report, the page a referee would send to the authors.

Generated from the evidence only — never hand-written. Each point says, in this order:

- **what the paper states**: the seed's words, quoted — the clause(s) concerned (or the fragment), with their
  lines — and the claim's title as a gloss;
- **what we find** (instead, when it is not a confirmation): the finding of the deciding sub-claims, a sentence
  generated from their numbers by their rule (:func:`theorycheck.verdicts.aggregate.finding_of`), never the tested
  statement; sub-claims that differ only by their settings are one finding with the range of settings;
- **how sure**: n, the 95 % CI and the Holm-adjusted p, or "exact" — and the setting;
- **what would fix the paper**, when the claim computed it (:class:`theorycheck.papers.api.Remedy`), with the
  numbers it rests on.

Sections: **Major points** (claims of weight ``main`` refuted, inconsistent or not reproduced), **Minor points**
(the same on ``supporting`` claims, and every inconclusive claim), **Confirmations worth stating** (main claims
confirmed, and the paper's own numbers that agree with each other) and **What could not be checked, and why**. A
claim without a declared weight counts as ``main``. :func:`points` gives the structured points (each finding with its
:class:`~theorycheck.verdicts.finding.Comparison`\ s, so the tests can check every verb against its numbers);
:func:`letter_points` their texts.

>>> from theorycheck.claims import Claim, Ledger, SubClaim
>>> subs = [SubClaim(f"inverted-U in λ (γ = {g}, σ² = 0.01)", "shape", verdict="refuted") for g in (0.5, 0.8)]
>>> c = Claim(id="000-x", paper="000", lines=(40, 41), statement="s", title="The train error is inverted-U in λ",
...           quote="q", subclaims=subs, verdict="refuted", weight="main", reason="2 of 2 sub-claim(s) refuted")
>>> "— refuted at all 2 settings: γ ∈ {0.5, 0.8}" in "\n".join(letter(Ledger("gla", "000", "T").add(c)))
True
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..claims import CONFIRMED, INCONCLUSIVE, INCONSISTENT, NOT_REPRODUCED, REFUTED, UNDERSPECIFIED
from ..verdicts.aggregate import finding_of
from ..verdicts.text import fmt, shorten
from ..verdicts.vote import per_reading
from .common import BADGE, VERDICT_ORDER

__all__ = ["letter", "letter_points", "points", "collapse", "Point", "INTRO"]

_BAD = (REFUTED, INCONSISTENT, NOT_REPRODUCED)
_NUM = r"[-+−]?\d[\d.]*(?:e[-+]?\d+)?"
#: A setting "name = number" inside a statement's settings.
_SETTING = re.compile(r"([^\s(),;=]+(?:\s[^\s(),;=]+)?)\s*=\s*(" + _NUM + ")")
#: A leading setting of a statement: "(a) " (a setting's label) or "s = 2: " (a parameter).
_LEAD = re.compile(r"^(?:\(([a-z])\)\s+|([^\s(),;:=]+\s*=\s*" + _NUM + r"):\s+)")
#: At most this many findings are written in one point, and no more once they reach _LONG characters (the claim's
#: section has them all).
_FINDINGS, _LONG = 3, 600
#: What the letter's opening paragraph says about its points (Markdown and LaTeX).
INTRO = ("Generated from the evidence below (never hand-written). Each point quotes what the paper states (the seed's "
         "words, with their lines; the claim's title follows as a gloss), says what we find — a sentence generated "
         "from the numbers by the rule that decided it, never the tested statement — and how sure (n, 95 % CI and "
         "Holm-adjusted p at the report's family-wise α, or exact), and, where the claim computed it, what would fix "
         "the paper. For a comparison \"A beats B\", the advantage is the difference oriented so that the statement "
         "means it lies above its margin. Links go to the claim's section.")


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


def _variation(statements: list[str]) -> tuple[list, list]:
    """``(varying, common)`` settings of statements that share their head: what varies — numeric settings as sets
    (``γ ∈ {0.5, 0.8}``), the labels ``(a), (b)``, the other settings that differ — and what they all share."""
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
    return parts + ([f"and {'; '.join(others)}"] if len(others) > 1 else []), common


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
    parts, common = _variation(statements)
    head = heads.pop() + (f" ({', '.join(common)})" if common else "")
    return f"{head} — at all {len(statements)} settings" + (", " + ", ".join(parts) if parts else "")


@dataclass
class Point:
    """One point of the letter: ``states`` (what the paper states, quoted), ``findings`` (``(lead, Finding)``: what we
    find, each with its comparisons; ``lead`` says under which reading or clause), ``notes`` (what was found without
    numbers: an untested clause, a negative), ``sure`` (how sure, with the setting), ``extent``, ``fixes`` (what
    would fix the paper, from the claim's remedies)."""

    claim: object
    kind: str
    states: str
    findings: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    sure: str = ""
    extent: str = ""
    fixes: list = field(default_factory=list)

    @property
    def found(self) -> str:
        """The "we find" text: the findings, then the notes."""
        parts = [lead + f.text for lead, f in self.findings] + list(self.notes)
        return "; ".join(p for p in parts if p)

    @property
    def text(self) -> str:
        c = self.claim
        if self.kind == "unchecked":
            return f"{self.states} **Not checked:** {self.found}."
        head = "**We confirm:**" if self.kind == "confirmed" else f"**We find instead** ({BADGE[c.verdict]}):"
        out = f"{self.states} {head} {self.found}."
        if self.sure:
            out += f" **How sure:** {self.sure}."
        if self.extent:
            out += f" **Extent:** {self.extent}."
        if self.fixes:
            out += " **What would fix it:** " + "; ".join(self.fixes) + "."
        return out


def _lines(c) -> str:
    a, b = c.lines
    return f"Line {a}" if a == b else f"Lines {a}–{b}"


def _states(c, clauses) -> str:
    """``Line 50 states «…» (title).``: the clause(s) concerned, else the fragment, else the quoted lines."""
    quoted = [cl["text"] for cl in clauses if cl and cl.get("text")]
    if not quoted:
        quoted = [c.fragment or c.quote]
    verb = "state" if c.lines[0] != c.lines[1] else "states"
    return (f"{_lines(c)} {verb} " + " and ".join(f"«{shorten(q, 140)}»" for q in quoted[:2])
            + f" ({c.title.rstrip('.')}).")


def _worst_clauses(c) -> list:
    if not c.clauses:
        return [None]
    asserted = [cl for cl in c.clauses if cl.get("asserted", True)]
    return [cl for cl in asserted if cl.get("verdict") == c.verdict] or asserted[:1] or [None]


def _voting(c, subs) -> list:
    return [s for s in subs if s.reading is None or (c.readings or {}).get(s.reading, "votes") == "votes"]


def _groups(bad, subs, verdict) -> list:
    """``(lead, Finding, sub)`` per group of ``bad`` sub-claims that differ only by their settings: the decisive one's
    finding (``details["decisive"]`` first, else the first), with how many settings share the verdict."""
    groups: dict = {}
    for s in bad:
        groups.setdefault((_head(s.statement), s.rule), []).append(s)
    out = []
    for (head, rule), g in groups.items():
        s = next((x for x in g if (x.details or {}).get("decisive")), g[0])
        total = [x for x in subs if (_head(x.statement), x.rule) == (head, rule)]
        note = ""
        if len(total) > 1:
            parts, _ = _variation([x.statement for x in g]) if len(g) > 1 else ([], [])
            if len(parts) == 1 and parts[0].startswith("and "):
                parts = [parts[0][4:]]
            where = f"at all {len(total)} settings" if len(g) == len(total) else f"at {len(g)} of {len(total)} settings"
            note = f"{verdict} {where}" + (": " + ", ".join(parts) if parts else "")
        out.append(("", finding_of(s, note), s))
    return out


def reading_verdicts(c) -> dict:
    """``{reading: verdict}`` of a claim's voting readings (each reading aggregated alone with the common
    sub-claims, as the readings rule does); empty without readings."""
    return per_reading(_voting(c, c.subclaims))


def refuted_reading(c) -> bool:
    """An inconclusive claim whose readings disagree and one of them is refuted or inconsistent: a referee raises it
    as strongly as a refutation (the sentence is false as it is naturally read, true under another)."""
    return c.verdict == INCONCLUSIVE and any(v in (REFUTED, INCONSISTENT) for v in reading_verdicts(c).values())


def _by_reading(c, votes) -> tuple[list, list]:
    """When the readings disagree: the finding of each reading that does not confirm, and the readings that do."""
    verdicts = per_reading(votes)
    out = []
    for r, v in sorted(verdicts.items(), key=lambda rv: VERDICT_ORDER.get(rv[1], len(VERDICT_ORDER))):
        if v == CONFIRMED:
            continue
        bad = [s for s in votes if s.reading == r and s.verdict == v]
        out += [(f"under the reading «{r}» ({v}): ", f, s) for _, f, s in _groups(bad, bad, v)[:1]]
    held = [r for r, v in verdicts.items() if v == CONFIRMED]
    return out, ([f"under «{'», «'.join(held)}» it holds"] if held and out else [])


def _clause_findings(c, cl) -> tuple[list, list]:
    """``(findings, notes)`` for one clause of ``c`` (the whole claim when ``cl`` is None)."""
    subs = [s for s in c.subclaims if cl is None or s.id in (cl.get("subclaims") or [])]
    if cl is not None and cl.get("untested"):
        return [], [f"clause «{shorten(cl['text'], 60)}» is not tested — {cl['untested']}"]
    if not subs:
        return [], ["no sub-claim tests it"]
    verdict = (cl or {}).get("verdict") or c.verdict
    votes = _voting(c, subs)
    found, notes = _by_reading(c, votes) if verdict == INCONCLUSIVE else ([], [])
    if found:                 # readings that disagree: what each reading that fails finds, then which ones hold
        return found, notes
    bad = [s for s in votes if s.verdict == verdict]
    if bad:
        return _groups(bad, subs, verdict), []
    found, notes = _by_reading(c, votes)
    if found:
        return found, notes
    kind = (cl or {}).get("kind")
    if kind in ("negative", "priority"):
        return [("e.g. ", finding_of(votes[0]), votes[0])] if votes else [], [
            f"a {kind} cannot be confirmed by computation; nothing contrary was found in the {len(votes)} check(s) "
            "tried"]
    if any(s.narrowed for s in votes):
        scopes = sorted({s.narrowed for s in votes if s.narrowed})
        return [], ["confirmed only in a narrower scope than the sentence: " + "; ".join(scopes)]
    return [], [shorten((cl or {}).get("reason") or c.reason, 300)]


def _extent(subs) -> str:
    items = []
    for s in subs:
        ext = {k: v for k, v in (s.extent or {}).items() if k not in ("searched", "holds_throughout")}
        if "where" in ext:
            items.append(str(ext["where"]))
            continue
        for k, v in ext.items():
            if isinstance(v, (dict, list)) and not v:
                continue
            if isinstance(v, (dict, list)):
                items.append(f"{k}: {len(v)} entr{'y' if len(v) == 1 else 'ies'} (see the claim)")
            else:
                items.append(f"{k} = {v if not isinstance(v, float) else fmt(v)}")
    return shorten("; ".join(dict.fromkeys(items)), 300)


def _fixes(c, clauses) -> list:
    ids = {cl["id"] for cl in clauses if cl}
    return [r["text"] for r in (c.remedies or []) if not r.get("clauses") or not ids or ids & set(r["clauses"])]


def _sure(f, s) -> str:
    scope = s.scope or ""
    return "; ".join(x for x in (f.sure, f"setting: {shorten(scope, 220)}" if scope else "") if x)


def _point(c, kind: str) -> Point:
    clauses = _worst_clauses(c)
    findings, notes = [], []
    for cl in clauses:
        f, n = _clause_findings(c, cl)
        findings += [x for x in f if all(x[2] is not y[2] for y in findings)]
        notes += [x for x in n if x not in notes]
    shown, size = [], 0
    for x in findings:                        # at most _FINDINGS, and no more once the point is long
        if len(shown) == _FINDINGS or (shown and size + len(x[1].text) > _LONG):
            break
        shown.append(x)
        size += len(x[1].text)
    if len(findings) > len(shown):
        notes.append(f"and {len(findings) - len(shown)} more finding(s) (see the claim)")
    sure = _sure(shown[0][1], shown[0][2]) if shown else ""
    extent = _extent([s for _, _, s in findings]) if c.verdict in _BAD else ""
    return Point(c, kind, _states(c, clauses), [(lead, f) for lead, f, _ in shown], notes, sure, extent,
                 _fixes(c, clauses))


def _confirmed(c) -> Point:
    first = next((cl for cl in c.clauses if cl.get("asserted", True)), None) if c.clauses else None
    subs = [s for s in c.subclaims if first is None or s.id in (first.get("subclaims") or [])] or c.subclaims
    subs = [s for s in _voting(c, subs) if s.verdict == CONFIRMED] or subs
    found = _groups(subs, subs, CONFIRMED)
    shown = found[:2]
    n_ok = sum(s.verdict == CONFIRMED for s in c.subclaims)
    notes = [f"{n_ok} of the claim's {len(c.subclaims)} checks confirmed"] if len(c.subclaims) > 1 else []
    return Point(c, "confirmed", _states(c, [first]), [(lead, f) for lead, f, _ in shown], notes,
                 _sure(shown[0][1], shown[0][2]), "", _fixes(c, [first]))


def points(led) -> dict:
    """``{"major": [...], "minor": [...], "confirmed": [...], "unchecked": [...]}`` of the ledger's claims, each a
    list of :class:`Point`."""
    out = {"major": [], "minor": [], "confirmed": [], "unchecked": []}
    for c in led.claims:
        main = c.weight in (None, "main")
        if c.verdict in _BAD or (main and refuted_reading(c)):
            out["major" if main else "minor"].append(_point(c, "major" if main else "minor"))
        elif c.verdict == INCONCLUSIVE:
            out["minor"].append(_point(c, "minor"))
        elif c.verdict == UNDERSPECIFIED:
            missing = sorted({m for s in c.subclaims for m in s.missing})
            out["unchecked"].append(Point(c, "unchecked", _states(c, _worst_clauses(c)),
                                          notes=["the source does not give " + "; ".join(missing)]))
        elif c.verdict == CONFIRMED and main:
            out["confirmed"].append(_confirmed(c))
        for cl in c.clauses or []:
            if cl.get("untested") and c.verdict != UNDERSPECIFIED:
                out["unchecked"].append(Point(c, "unchecked", f"{_lines(c)}, clause «{shorten(cl['text'], 140)}».",
                                              notes=[f"not tested — {cl['untested']}"]))
        agree = [s for s in c.subclaims if s.rule == "consistency" and s.verdict == CONFIRMED]
        if agree and c.verdict != CONFIRMED:
            out["confirmed"].append(Point(c, "confirmed", f"{_lines(c)}: the paper's own numbers agree.",
                                          [("", finding_of(s)) for s in agree[:2]], sure="exact"))
    return out


def letter_points(led) -> dict:
    """``{"major": [...], "minor": [...], "confirmed": [...], "unchecked": [...]}`` of the ledger's claims, each a
    list of ``(claim, text)`` (the texts of :func:`points`)."""
    return {k: [(p.claim, p.text) for p in v] for k, v in points(led).items()}


def letter(led) -> list[str]:
    """The Markdown lines of the referee letter of one finalized ledger."""
    pts = letter_points(led)
    L = ["## Referee letter", "", INTRO, ""]
    titles = {"major": "Major points", "minor": "Minor points", "confirmed": "Confirmations worth stating",
              "unchecked": "What could not be checked, and why"}
    n = 0
    for key in ("major", "minor", "confirmed", "unchecked"):
        L += [f"### {titles[key]}", ""]
        if not pts[key]:
            L += ["None." if key != "major" else "None: no main claim is refuted, inconsistent or not reproduced, or refuted under one of its readings.", ""]
            continue
        for c, text in pts[key]:
            n += 1
            L.append(f"{n}. [`{c.id}`](#{c.id}) {text}")
        L.append("")
    return L
