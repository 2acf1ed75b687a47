r"""Seed and clause coverage: every sentence of a seed is assigned, every clause is a verbatim piece of its claim.

A seed sentence nobody quoted escapes review. So every sentence of a paper's seed must be **assigned**: quoted by a
claim (its fragment), declared to restate a claim (:meth:`~theorycheck.papers.api.Claims.restates`), or declared not
a claim for one of the reasons of the closed list :data:`NOT_A_CLAIM_REASONS`
(:meth:`~theorycheck.papers.api.Claims.not_a_claim`). Coverage is counted on *content characters* (letters, digits,
CJK ideographs; not spaces, punctuation or markup): a sentence is assigned when at most :data:`SLACK` of its content
characters lie outside every declared span (connectives such as "并且" or "and" between two quoted pieces).

Each claim's fragment is split into **clauses** (:class:`~theorycheck.claims.Clause`), each a verbatim substring of
the fragment; :func:`uncovered_runs` lists what of the fragment no clause covers, with the same slack.

>>> sentences(["第一句。第二句! 3rd one. ", "", "## 标题¶"])
[(1, 0, 4, '第一句。'), (1, 4, 8, '第二句!'), (1, 9, 17, '3rd one.'), (3, 0, 6, '## 标题¶')]
>>> uncovered_runs("λ* 随 γ 增大，并且趋于 1", ["λ* 随 γ 增大", "趋于 1"])
[]
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

__all__ = ["NOT_A_CLAIM_REASONS", "SLACK", "SeedSpan", "sentences", "content_chars", "uncovered_runs",
           "coverage_report"]

#: Why a sentence of a seed is not a claim (closed list): it cites, rates, states a limitation as such, describes
#: the method, is a heading or metadata line, or tells the background of other work.
NOT_A_CLAIM_REASONS = ("bibliography", "rating", "limitation stated as such", "method description",
                       "heading or metadata", "background of other work")
#: Content characters a sentence (or a fragment) may leave outside every declared span (connectives).
SLACK = 4
_END = re.compile(r"(?<=[。！？；!?])|(?<=[.;])(?=\s)")


@dataclass(frozen=True)
class SeedSpan:
    """A declared piece of the seed that is not a claim (``kind="not a claim"``, ``reason`` from the closed list)
    or restates a claim (``kind="restates"``, ``claim`` its id); ``lines`` 1-based inclusive, ``fragment`` the
    exact text (all of the lines when empty)."""

    lines: tuple
    kind: str
    reason: str = ""
    claim: str = ""
    fragment: str = ""


def content_chars(text: str) -> int:
    """The number of content characters of ``text``: letters, digits and ideographs."""
    return sum(1 for ch in text if unicodedata.category(ch)[0] in "LN")


def sentences(lines) -> list[tuple[int, int, int, str]]:
    """``(line, start, end, text)`` of every sentence of ``lines`` (1-based line numbers, character offsets
    within the line): a line splits after 。！？；!? and after . ; followed by a space. Sentences without content
    characters are skipped."""
    out = []
    for i, line in enumerate(lines, 1):
        pos = 0
        for piece in _END.split(line):
            start = pos + (len(piece) - len(piece.lstrip()))
            pos += len(piece)
            text = piece.strip()
            if text and content_chars(text):
                out.append((i, start, start + len(text), text))
    return out


def _uncovered(text: str, spans) -> list[str]:
    mask = [False] * len(text)
    for a, b in spans:
        for k in range(max(0, a), min(len(text), b)):
            mask[k] = True
    runs, cur = [], []
    for ch, m in zip(text, mask):
        if m:
            if cur:
                runs.append("".join(cur))
                cur = []
        else:
            cur.append(ch)
    if cur:
        runs.append("".join(cur))
    return [r.strip() for r in runs if content_chars(r) > SLACK]


def uncovered_runs(fragment: str, clause_texts) -> list[str]:
    """The pieces of ``fragment`` (more than :data:`SLACK` content characters each) that no clause text covers.
    ``ValueError`` when a clause text is not a verbatim substring of the fragment."""
    spans = []
    for t in clause_texts:
        i = fragment.find(t)
        if i < 0:
            raise ValueError(f"clause text {t!r} is not a verbatim substring of the claim's fragment")
        spans.append((i, i + len(t)))
    return _uncovered(fragment, spans)


def coverage_report(paper) -> dict:
    """How much of ``paper``'s seed is assigned: ``{"sentences", "assigned", "unassigned": [{line, text,
    uncovered}], "by": {claim: n, "restates": n, "not a claim": n}}``."""
    lines = paper.seed_lines()
    offsets = [0]
    for ln in lines:
        offsets.append(offsets[-1] + len(ln) + 1)
    spans = [paper.span(s.lines, s.fragment) for s in paper.claims]
    spans += [paper.span(x.lines, x.fragment) for x in paper.claims.seed_spans]
    total, unassigned = 0, []
    for line, a, b, text in sentences(lines):
        total += 1
        g0 = offsets[line - 1] + a
        local = [(max(sa, g0) - g0, min(sb, g0 + len(text)) - g0) for sa, sb in spans if sa < g0 + len(text) and sb > g0]
        rest = _uncovered(text, local)
        if rest:
            unassigned.append({"line": line, "text": text, "uncovered": rest})
    by = {"claims": len(paper.claims.specs),
          "restates": sum(1 for x in paper.claims.seed_spans if x.kind == "restates"),
          "not a claim": sum(1 for x in paper.claims.seed_spans if x.kind == "not a claim")}
    return {"sentences": total, "assigned": total - len(unassigned), "unassigned": unassigned, "declared": by}
