"""Shared pieces of the Markdown and LaTeX reports: verdict badges, summaries, data files.

Every sentence the reports show about a claim comes from the ledger (the verdict engine's
generated reasons); nothing here states a result of its own.
"""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from ..claims import CONFIRMED, VERDICTS, clean_evidence

__all__ = ["BADGE", "LEGEND", "CLAUSES_NOTE", "summary_items", "caveat", "plainly_confirmed", "data_files", "write_if_changed", "md_cell", "claim_anchor",
           "VERDICT_ORDER", "extra_findings", "fmt_setting"]

BADGE = {"confirmed": "✅ confirmed", "refuted": "❌ refuted", "inconsistent": "⚠️ inconsistent",
         "not reproduced": "🟠 not reproduced", "inconclusive": "❓ inconclusive",
         "underspecified": "❔ underspecified", None: "⛔ withheld"}

#: Said once, with the conventions: how to read the clause table of a claim's section.
CLAUSES_NOTE = ("In each claim's section, the **Clauses** table lists each clause of the fragment, what it does "
                "(assertion, condition, quantifier, number, inference, negative, priority), its verdict and the "
                "sub-claims that test it; the claim takes the worst verdict of its asserted clauses.")

VERDICT_ORDER = {v: i for i, v in enumerate(("refuted", "inconsistent", "not reproduced", "inconclusive",
                                             "underspecified", "confirmed"))}

LEGEND = [
    ("confirmed", "the statement holds in the stated scope, decided by a rule declared before the data."),
    ("refuted", "the statement is false in a setting the source states (test, numbers and p-values given)."),
    ("inconsistent", "the source contradicts itself (both statements and their values given)."),
    ("not reproduced", "a stated number, curve or statement the toolkit could not reproduce under the stated "
                       "setting plus documented choices for what the source leaves open; missing parameters "
                       "cannot refute."),
    ("inconclusive", "tested, but the test has too little power for the declared margin, or the readings / "
                     "finite-size laws disagree."),
    ("underspecified", "cannot be attempted: the source does not give what is needed."),
    ("withheld", "no verdict: the claim's computation failed or one of the toolkit's own self-checks failed "
                 "(the run exits non-zero)."),
]


def md_cell(s) -> str:
    return str(s).replace("|", "\\|").replace("\n", " ")


def claim_anchor(cid: str) -> str:
    return cid


def caveat(c) -> str:
    """Why a confirmed claim is confirmed only with a caveat ('' if plainly confirmed)."""
    if any(s.chosen for s in c.subclaims):
        names = sorted({k for s in c.subclaims for k in s.chosen})
        return "confirmed under the toolkit's choices for what the source leaves open (" + ", ".join(names) + ")"
    if any(s.reading for s in c.subclaims):
        return "confirmed under every reading of an ambiguous sentence"
    return ""


def plainly_confirmed(c) -> bool:
    """Confirmed without caveat: every sub-claim confirmed, none resting on toolkit choices or readings."""
    return (c.verdict == CONFIRMED and not c.withheld and all(s.verdict == CONFIRMED for s in c.subclaims)
            and not caveat(c))


def summary_items(led) -> list:
    """Claims that are not plainly confirmed, worst first, with their one-sentence finding."""
    items = []
    for c in led.claims:
        if plainly_confirmed(c):
            continue
        # the sub-claim that decides: one named decisive among those with the claim's verdict, else the first of
        # them; when none has it (readings that disagree) the one named decisive, else the worst
        same = [s for s in c.subclaims if s.verdict == c.verdict]
        named = [s for s in c.subclaims if (s.details or {}).get("decisive")]
        worst = sorted(c.subclaims, key=lambda s: VERDICT_ORDER.get(s.verdict, len(VERDICT_ORDER)))
        decisive = ([s for s in same if any(s is n for n in named)] or same) if same else (named or worst)
        items.append((VERDICT_ORDER.get(c.verdict, -1), c, decisive[0] if decisive else None))
    items.sort(key=lambda t: t[0])
    return [(c, s) for _, c, s in items]


def fmt_setting(d: dict) -> str:
    out = []
    for k, v in d.items():
        out.append(f"{k} = {v:.4g}" if isinstance(v, float) else f"{k} = {v}")
    return ", ".join(out)


def extra_findings(led) -> list:
    """Findings beyond the claim verdicts: reconciliations that found no setting, necessary implicit assumptions."""
    out = []
    for c in led.claims:
        for r in c.reconciliations:
            if not r.get("found"):
                out.append((c, "reconciliation", r.get("interpretation", "")))
        for a in c.assumptions:
            if a.get("finding") and a.get("breaking_point"):
                bp = a["breaking_point"]
                out.append((c, "assumption", f"the implicit assumption '{a['name']}' (not stated by the source) is "
                                             f"necessary: along '{a['path']}' the statement already fails at the first "
                                             f"violation, {a['violation']} = {bp['value']}."))
    return out


def _csv(rows: dict) -> str | None:
    """Columns of equal length → CSV text (None when the dict is not a table)."""
    cols = {k: v for k, v in rows.items() if isinstance(v, list)}
    if not cols:
        return None
    lens = {len(v) for v in cols.values()}
    if len(lens) != 1 or any(isinstance(x, (list, dict)) for v in cols.values() for x in v):
        return None
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    names = list(cols)
    w.writerow(names)
    for i in range(lens.pop()):
        w.writerow([cols[n][i] for n in names])
    return buf.getvalue()


def data_files(led, folder: Path) -> dict:
    """Write every sub-claim's ``data`` beside the report (CSV for tables, JSON otherwise).

    Returns ``{subclaim id: [relative paths]}``. Paths are ``<key>-data/<claim id>/<slug>.<name>.csv|json``.
    """
    out = {}
    base = Path(folder)
    for c in led.claims:
        for s in c.subclaims:
            if not s.data:
                continue
            paths = []
            for name, val in clean_evidence(s.data).items():
                stem = f"{led.key}-data/{c.id}/{s.id.rsplit('/', 1)[-1]}.{name}"
                text = _csv(val) if isinstance(val, dict) else None
                rel = stem + (".csv" if text is not None else ".json")
                if text is None:
                    text = json.dumps(val, indent=1, ensure_ascii=False, sort_keys=True) + "\n"
                write_if_changed(base / rel, text)
                paths.append(rel)
            out[s.id] = paths
    return out


def write_if_changed(path: Path, text: str | bytes) -> bool:
    """Write ``text`` to ``path`` only if the content differs (keeps mtimes and git clean); True if written."""
    path = Path(path)
    data = text.encode("utf-8") if isinstance(text, str) else text
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


assert set(BADGE) - {None} == set(VERDICTS)
