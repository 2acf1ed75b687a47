"""``theorycheck report --check``: are the reports in a folder what the current sources would produce?

Stale when, for any paper of the folder's ``results.json``: the paper is no longer installed; the
SHA-256 digests of the sources recorded in ``STAMP.json`` differ from the current sources (the
theorycheck package and the paper's own package — any change can change a number); or the Markdown,
LaTeX, index or data files differ from what the current report code renders from ``results.json``
(a hand-edited report, or a report generator changed without regenerating).

The LaTeX is re-rendered with the formula verdicts recorded in the folder's ``formulas.json`` (whether each formula
compiles and fits, decided by the TeX of the machine that wrote the reports), never by running the local TeX: the
check gives the same answer with or without ``pdflatex``. A folder without that record (written before it existed)
is checked with the local TeX, and a differing ``.tex`` says so.
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from .. import papers
from ..claims import load_results
from ..provenance import paper_sources
from ..verdicts.rules import RULES
from . import EXTRA_REPORTS, read_formula_record
from .common import data_files
from .latex import latex_report
from .markdown import markdown_index, markdown_report
from .texcheck import RECORD, FormulaCheck

__all__ = ["check_reports"]


def _digests(key: str) -> dict:
    return paper_sources(papers.load(key))


def _rendered(out: Path, key: str, led, files: dict, record: dict) -> list[str]:
    """Why ``key``'s Markdown or LaTeX differs from what the report code renders from results.json."""
    if key in record:
        check = FormulaCheck(exe=None, record=record[key])
        why = ""
    else:
        check = FormulaCheck()
        why = (f" (no {RECORD} entry for {key}: the formula verdicts come from this machine's TeX"
               + (", which is not installed — formulas unchecked" if check.exe is None else "")
               + ", so the difference may be the TeX installation's alone)")
    problems = []
    for name, text in ((f"{key}.md", markdown_report(led, files)), (f"{key}.tex", latex_report(led, files, check))):
        f = out / name
        if not f.exists() or f.read_text(encoding="utf-8") != text:
            problems.append(f"{name} differs from what the current report code renders from results.json"
                            + (why if name.endswith(".tex") else ""))
    if check.unrecorded:
        problems.append(f"{key}.tex sets {len(check.unrecorded)} formula(s) that {RECORD} has no verdict for (the "
                        "report code changed what it typesets; render the reports again: theorycheck report)")
    return problems


def check_reports(out: Path) -> list[str]:
    """Reasons why the reports in ``out`` are stale (empty list: fresh)."""
    out = Path(out)
    ledgers = load_results(out / "results.json")
    if not ledgers:
        return [f"no results.json in {out}"]
    stamp_path = out / "STAMP.json"
    stamp = json.loads(stamp_path.read_text(encoding="utf-8")) if stamp_path.exists() else {}
    problems = []
    installed = set(papers.keys())
    for key in sorted(ledgers):
        if key not in installed:
            problems.append(f"{key}: the paper is not installed any more")
            continue
        rec = stamp.get("papers", {}).get(key, {}).get("source_sha256")
        if not rec:
            problems.append(f"{key}: STAMP.json records no source digests")
        else:
            now = _digests(key)
            for pkg, h in sorted(now.items()):
                if rec.get(pkg) != h:
                    problems.append(f"{key}: the sources of {pkg} changed since these reports were produced "
                                    "(regenerate: theorycheck run)")
    record = read_formula_record(out)
    with tempfile.TemporaryDirectory(prefix="theorycheck-report-check-") as tmp:
        tmp = Path(tmp)
        for key, led in ledgers.items():
            files = data_files(led, tmp)
            problems += _rendered(out, key, led, files, record)
            for p in sorted(tmp.rglob("*")):
                if p.is_file():
                    rel = p.relative_to(tmp)
                    if not (out / rel).exists() or (out / rel).read_bytes() != p.read_bytes():
                        problems.append(f"{rel} differs from the data in results.json")
        extra = [e for e in EXTRA_REPORTS if (out / e).exists()]
        idx = markdown_index(ledgers, out, RULES, extra)
        if not (out / "index.md").exists() or (out / "index.md").read_text(encoding="utf-8") != idx:
            problems.append("index.md differs from what the current report code renders")
    return problems
