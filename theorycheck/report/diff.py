"""``theorycheck diff OLD NEW``: what changed between two results (seeds, sizes, versions of the toolkit).

Each argument is a ``results.json`` or a report folder holding one. The diff lists, per paper: claims
added or removed; claims whose verdict changed; sub-claims whose verdict changed; and sub-claim
estimates that moved beyond their error bars — :math:`|\\Delta| > 3\\sqrt{s_a^2+s_b^2}`, with each
standard error recovered from the recorded 95 % interval (exact values: any change counts).

>>> d = Diff({}, {})
>>> d.empty
True
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from pathlib import Path

from ..claims import Claim, Ledger, load_results

__all__ = ["Diff", "diff_results", "load_any", "direction_conflicts"]

MOVE_SIGMAS = 3.0


def load_any(path) -> dict:
    """``{key: Ledger}`` from a ``results.json`` file or a folder holding one (schema 1 of theorycheck 0.1
    is read too: its claims carry an id, lines, paraphrase and verdict, no sub-claims)."""
    p = Path(path)
    if p.is_dir():
        p = p / "results.json"
    if not p.exists():
        raise ValueError(f"no results.json at {p}")
    data = json.loads(p.read_text(encoding="utf-8"))
    if data.get("schema") == 1:
        out = {}
        for k, v in data.get("papers", {}).items():
            led = Ledger(k, v["paper"], v["title"], mode=v.get("parameters", {}).get("mode", "quick"))
            for c in v["claims"]:
                led.claims.append(Claim(id=c["id"], paper=c["paper"], lines=tuple(c["lines"]),
                                        statement=c.get("paraphrase", c["id"]), title=c.get("title") or c["id"],
                                        verdict=c["verdict"], reason=c.get("summary", "")))
            out[k] = led
        return out
    return load_results(p)


def _se(s) -> float | None:
    if s.ci is None or s.ci[0] is None or s.ci[1] is None:
        return None
    lo, hi = float(s.ci[0]), float(s.ci[1])
    return (hi - lo) / (2 * 1.959963984540054) if hi > lo else 0.0


@dataclass
class Diff:
    old: dict
    new: dict
    rows: list = field(default_factory=list)      # (paper, kind, id, old, new, note)

    def __post_init__(self):
        if not self.rows:
            self.rows = _compare(self.old, self.new)

    @property
    def empty(self) -> bool:
        return not self.rows

    def markdown(self) -> str:
        if not self.rows:
            return "No differences: same claims, same verdicts, no estimate moved beyond its error bars.\n"
        L = ["| paper | change | id | old | new | note |", "|---|---|---|---|---|---|"]
        for r in self.rows:
            L.append("| " + " | ".join(str(x).replace("|", "\\|") for x in r) + " |")
        return "\n".join(L) + "\n"

    _repr_markdown_ = markdown

    def __str__(self):
        return self.markdown()


def _compare(old: dict, new: dict) -> list:
    rows = []
    for key in sorted(set(old) | set(new)):
        if key not in new:
            rows.append((key, "paper removed", key, "", "", ""))
            continue
        if key not in old:
            rows.append((key, "paper added", key, "", "", ""))
            continue
        oc = {c.id: c for c in old[key].claims}
        nc = {c.id: c for c in new[key].claims}
        renamed = {}            # old id -> new ids that name it in revision["previous_id"]
        for c in new[key].claims:
            pid = (c.revision or {}).get("previous_id")
            for p in ([pid] if isinstance(pid, str) else list(pid or [])):
                for x in str(p).replace(";", ",").split(","):
                    if x.strip():
                        renamed.setdefault(x.strip(), []).append(c.id)
        for cid in sorted(set(oc) - set(nc)):
            if cid in renamed:
                for nid in renamed[cid]:
                    rows.append((key, "claim renamed or split", f"{cid} → {nid}", oc[cid].verdict,
                                 nc[nid].verdict or "withheld", (nc[nid].revision or {}).get("why", "")))
            else:
                rows.append((key, "claim removed", cid, oc[cid].verdict, "", ""))
        for cid in sorted(set(nc) - set(oc)):
            if not any(cid in v for v in renamed.values()):
                rows.append((key, "claim added", cid, "", nc[cid].verdict, (nc[cid].revision or {}).get("why", "")))
        for cid in [c for c in nc if c in oc]:
            a, b = oc[cid], nc[cid]
            if a.verdict != b.verdict:
                rows.append((key, "verdict changed", cid, a.verdict or "withheld", b.verdict or "withheld",
                             (b.revision or {}).get("why", "") or "NO REVISION NOTE: the claim does not say why"))
            os_ = {s.id: s for s in a.subclaims}
            for s in b.subclaims:
                t = os_.get(s.id)
                if t is None:
                    continue
                if t.verdict != s.verdict:
                    rows.append((key, "sub-claim verdict changed", s.id, t.verdict, s.verdict, ""))
                if t.estimate is None or s.estimate is None:
                    continue
                x, y = float(t.estimate), float(s.estimate)
                sa, sb = _se(t), _se(s)
                if sa is None or sb is None or (sa == 0 and sb == 0):
                    moved = x != y
                    note = "exact value changed" if moved else ""
                else:
                    sd = math.hypot(sa, sb)
                    moved = abs(y - x) > MOVE_SIGMAS * sd
                    note = f"|Δ| = {abs(y - x):.4g} = {abs(y - x) / sd:.1f} σ" if moved else ""
                if moved:
                    rows.append((key, "estimate moved", s.id, f"{x:.6g}", f"{y:.6g}", note))
    return rows


def diff_results(old, new) -> Diff:
    """The :class:`Diff` between two results (paths or ``{key: Ledger}`` dicts)."""
    a = old if isinstance(old, dict) else load_any(old)
    b = new if isinstance(new, dict) else load_any(new)
    return Diff(a, b)


#: Verdicts that decide a claim's direction: a quick run may leave a claim inconclusive (or underspecified) where the
#: record decides it, but never decide it the other way.
_AGAINST = {"refuted", "not reproduced", "inconsistent"}


def direction_conflicts(quick: dict, record: dict) -> list[str]:
    """The claims a quick run decides in the opposite direction to the record of the paper-scale run: confirmed where
    the record refutes, is not reproduced or inconsistent, or the reverse (``quick`` and ``record``: ``{key:
    Ledger}``, e.g. from :func:`load_any`). Inconclusive in either is no conflict: quick sizes may lack the power.

    >>> from theorycheck.claims import Claim, Ledger
    >>> q, r = Ledger("p", "1", "t"), Ledger("p", "1", "t")
    >>> _ = q.add(Claim(id="x", paper="1", lines=(1, 1), statement="s", title="T", verdict="confirmed"))
    >>> _ = r.add(Claim(id="x", paper="1", lines=(1, 1), statement="s", title="T", verdict="refuted"))
    >>> direction_conflicts({"p": q}, {"p": r})
    ['p:x: quick confirmed, record refuted']
    """
    out = []
    for key, led in quick.items():
        if key not in record:
            continue
        rec = {c.id: c.verdict for c in record[key].claims}
        for c in led.claims:
            a, b = c.verdict, rec.get(c.id)
            if (a == "confirmed" and b in _AGAINST) or (a in _AGAINST and b == "confirmed"):
                out.append(f"{key}:{c.id}: quick {a}, record {b}")
    return out
