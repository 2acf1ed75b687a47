"""Reports from finalized ledgers: Markdown and LaTeX/PDF per paper, the index, ``results.json``.

Output layout (``out`` is the report folder)::

    out/index.md               findings across papers, the paper table, verdict legend, decision rules
    out/<key>.md               per paper: summary of findings first, then verdicts, conventions, claims
    out/<key>.tex (.pdf)       the same in LaTeX (compiled when pdflatex is installed)
    out/<key>-data/…           long arrays and tables of the sub-claims (CSV / JSON), linked from the report
    out/results.json           every paper's ledger (validated against the shipped JSON Schema)
    out/formulas.json          how each formula of the LaTeX reports was typeset (compiles, fits), per paper
    out/STAMP.json             provenance (commands, times, source digests, versions)
    out/figures/*.png|pdf      figures (PNG for Markdown, PDF for LaTeX)

Writing one paper rewrites only that paper's files, ``results.json`` (its entry) and the index;
files whose bytes would not change are not touched.
"""
from __future__ import annotations

import json
from pathlib import Path

from .. import __version__
from ..claims import VERDICTS, load_results
from ..figures import write_figure
from ..verdicts.aggregate import AGGREGATION
from ..verdicts.rules import RULES
from ..verdicts.schema import SCHEMA_VERSION, validate_results
from .common import data_files, write_if_changed
from .latex import compile_pdf, latex_report, report_formulas, tex_escape, tex_text
from .texcheck import PREAMBLE_SHA256, RECORD, FormulaCheck, record_of
from .markdown import markdown_index, markdown_report
from .stamp import write_stamp

__all__ = ["write_reports", "results_document", "write_results_json", "markdown_report", "markdown_index",
           "latex_report", "compile_pdf", "tex_escape", "tex_text", "write_stamp", "EXTRA_REPORTS",
           "read_formula_record"]

#: Other generated reports the index links when they exist.
EXTRA_REPORTS = ("selftest.md", "stability.md", "calibration.md", "reliability.md")


def results_document(ledgers: dict) -> dict:
    return {"schema_version": SCHEMA_VERSION, "generator": f"theorycheck {__version__}", "verdicts": list(VERDICTS),
            "rules": dict(RULES), "aggregation": AGGREGATION,
            "papers": {k: ledgers[k].as_dict() for k in sorted(ledgers)}}


def write_results_json(ledgers: dict, out: Path) -> dict:
    """Merge ``ledgers`` into ``out/results.json`` (other papers kept), validate, write; return all ledgers."""
    out = Path(out)
    merged = load_results(out / "results.json") if (out / "results.json").exists() else {}
    merged.update(ledgers)
    doc = results_document(merged)
    validate_results(doc)
    write_if_changed(out / "results.json", json.dumps(doc, indent=1, ensure_ascii=False, sort_keys=True) + "\n")
    return merged


def write_reports(ledgers: dict, out: Path, figures: dict | None = None, pdf: bool = True) -> dict:
    """Write the reports of ``ledgers`` (and the merged ``results.json`` and index) into ``out``.

    ``figures``: ``{key: [{"stem", "png", "pdf", ...}]}`` rendered by the tasks. The formulas of all the LaTeX
    reports are compiled alone first, in one batch (:class:`~theorycheck.report.texcheck.FormulaCheck`), so a
    formula that does not compile is shown as its source instead of breaking the PDF. Returns
    ``{key: {"pdf": True | False | None, "log": str}}``.
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write_results_json(ledgers, out)
    # render from the ledgers exactly as results.json records them (tuples become lists, parameters ordered,
    # numbers rounded as recorded), so `report --check` re-renders every file byte for byte
    recorded = load_results(out / "results.json")
    ledgers = {k: recorded[k] for k in ledgers}
    status = {}
    record = read_formula_record(out)
    # every formula of every report compiled alone once, in one batch; without pdflatex, the recorded verdicts
    check = FormulaCheck(record={k: v for p in record.values() for k, v in p.items()})
    check.check(f for led in ledgers.values() for _, _, f in report_formulas(led))
    for key, figs in (figures or {}).items():
        for f in figs:
            write_figure(out / "figures", f["stem"], f["png"], f["pdf"])
    for key, led in ledgers.items():
        files = data_files(led, out)
        write_if_changed(out / f"{key}.md", markdown_report(led, files))
        tex, used = out / f"{key}.tex", []
        changed = write_if_changed(tex, latex_report(led, files, check, used))
        record[key] = record_of(check, used)
        pdf_path = out / f"{key}.pdf"
        if not pdf:
            status[key] = {"pdf": None, "log": ""}
        elif not changed and pdf_path.exists() and pdf_path.stat().st_mtime >= tex.stat().st_mtime:
            status[key] = {"pdf": True, "log": "unchanged"}
        else:
            ok, log = compile_pdf(tex)
            if not ok:                  # a PDF of another source must not stand for this one
                pdf_path.unlink(missing_ok=True)
            status[key] = {"pdf": ok, "log": "" if ok else log}
    record = {k: v for k, v in record.items() if k in recorded}
    write_if_changed(out / RECORD, json.dumps({"preamble_sha256": PREAMBLE_SHA256, "papers": record}, indent=1,
                                              sort_keys=True, ensure_ascii=False) + "\n")
    extra = [e for e in EXTRA_REPORTS if (out / e).exists()]
    write_if_changed(out / "index.md", markdown_index(recorded, out, RULES, extra))     # as recorded, like the rest
    return status


def read_formula_record(out: Path) -> dict:
    """``{paper key: {formula key: verdict}}`` of ``out/formulas.json`` (empty when absent, unreadable or decided
    under another preamble)."""
    try:
        doc = json.loads((Path(out) / RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(doc, dict) or doc.get("preamble_sha256") != PREAMBLE_SHA256:
        return {}
    return {k: dict(v) for k, v in (doc.get("papers") or {}).items() if isinstance(v, dict)}
