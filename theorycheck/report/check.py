"""``theorycheck report --check``: are the reports in a folder what the current sources would produce?

Stale when, for any paper of the folder's ``results.json``: the paper is no longer installed; the
SHA-256 digests of the sources recorded in ``STAMP.json`` differ from the current sources (the
theorycheck package and the paper's own package — any change can change a number); or the Markdown,
LaTeX, index or data files differ from what the current report code renders from ``results.json``
(a hand-edited report, or a report generator changed without regenerating).
"""
from __future__ import annotations

import json
import tempfile
from pathlib import Path

from .. import papers
from ..claims import load_results
from ..provenance import paper_sources
from ..verdicts.rules import RULES
from . import EXTRA_REPORTS
from .common import data_files
from .latex import latex_report
from .markdown import markdown_index, markdown_report

__all__ = ["check_reports"]


def _digests(key: str) -> dict:
    return paper_sources(papers.load(key))


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
    with tempfile.TemporaryDirectory(prefix="theorycheck-report-check-") as tmp:
        tmp = Path(tmp)
        for key, led in ledgers.items():
            files = data_files(led, tmp)
            for name, text in ((f"{key}.md", markdown_report(led, files)), (f"{key}.tex", latex_report(led, files))):
                f = out / name
                if not f.exists() or f.read_text(encoding="utf-8") != text:
                    problems.append(f"{name} differs from what the current report code renders from results.json")
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
