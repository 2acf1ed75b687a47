r"""LaTeX reports (compiled to PDF with pdflatex): the same content as the Markdown report.

Our prose goes through :func:`~theorycheck.report.tex.tex_text` (math stays math, scripts and Unicode become
math); the quoted seed text through :func:`~theorycheck.report.texmath.seed_tex`, which typesets the seed's
own formulas (``$…$``, ``$$…$$``, ``\(…\)``, ``\[…\]``) once :class:`~theorycheck.report.texcheck.FormulaCheck`
has compiled each alone: a formula that does not compile is shown as its TeX source, with a note there and a
count in the section *Typesetting*. Display formulas and derivations too wide for the line are broken across
lines or scaled to it; tables have wrapping columns that add up to the line width; identifiers may break.
The Chinese seed text is set with ``CJKutf8`` (font ``gbsn``, installed by the project's set-up). Summary and
details are linked.

>>> print(tex_table([("p", 0.6), ("l", None)], ["claim", "lines"]).splitlines()[0])
{\small\begin{longtable}{>{\raggedright\arraybackslash}p{\dimexpr 0.600\linewidth-2\tabcolsep}l}
"""
from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

from ..claims import PRELIMINARY, VERDICTS
from ..verdicts.aggregate import fmt
from ..verdicts.sequential import n_text
from .common import CLAUSES_NOTE, LEGEND, extra_findings, fmt_setting, summary_items
from .letter import INTRO, letter_points
from .tex import tex_code, tex_escape, tex_text
from .texcheck import FormulaCheck, Verdict
from .texmath import PREAMBLE, Formula, formula_tex, formulas_in, prose_tex, seed_tex, source_tex

__all__ = ["latex_report", "compile_pdf", "tex_escape", "tex_text", "tex_table", "report_formulas"]


_COLOUR = {"confirmed": "green!45!black", "refuted": "red!70!black", "inconsistent": "orange!80!black",
           "not reproduced": "orange!70!black", "inconclusive": "blue!60!black", "underspecified": "gray",
           None: "red"}


def _v(verdict) -> str:
    return r"\textcolor{" + _COLOUR[verdict] + r"}{\textbf{" + (verdict or "withheld") + "}}"


def _anchor(cid: str) -> str:
    return "claim:" + cid


_TABLE_END = [r"\bottomrule", r"\end{longtable}}"]


def tex_table(columns: list, header: list) -> str:
    r"""The opening of a ``longtable`` (``\small``) whose columns wrap and add up to the line width.

    ``columns``: ``(kind, fraction)`` per column, ``kind`` ``"p"`` (a ragged-right paragraph column taking
    ``fraction`` of ``\linewidth``, padding included) or a fixed column letter (``"l"``, ``"r"``, fraction None);
    ``header``: the column titles (plain text). The header repeats on every page.
    """
    spec = "".join(r">{\raggedright\arraybackslash}p{\dimexpr " + f"{w:.3f}" + r"\linewidth-2\tabcolsep}"
                   if kind == "p" else kind for kind, w in columns)
    return "\n".join([r"{\small\begin{longtable}{" + spec + "}", r"\toprule",
                      " & ".join(tex_escape(h) for h in header) + r"\\", r"\midrule", r"\endhead"])


def report_formulas(led) -> list:
    """``(claim id, kind, formula)`` for every formula the LaTeX report of ``led`` typesets: ``kind``
    ``"seed"`` (the quoted seed text and the fragment checked) or ``"derivation"`` (the claim's derivations)."""
    out = []
    for c in led.claims:
        for line in c.quote.split("\n"):
            out += [(c.id, "seed", f) for f in formulas_in(line, "quote")]
        out += [(c.id, "seed", f) for f in formulas_in(c.fragment or "", "text")]
        out += [(c.id, "derivation", _derivation(eq)) for eq in c.derivation]
    return out


def _derivation(eq: str) -> Formula:
    body = r"\begin{aligned}" + eq + r"\end{aligned}" if r"\\" in eq else eq
    return Formula(body, True, "text", eq)


def _subclaims_tex(c, files, check) -> list:
    L = [tex_table([("p", 0.25), ("p", 0.14), ("p", 0.17), ("p", 0.44)], ["sub-claim", "rule", "verdict", "finding"])]
    for s in c.subclaims:
        st = prose_tex(s.statement, check) + (r" \emph{(reading: " + prose_tex(s.reading, check) + ")}" if s.reading else "")
        st += r" \emph{(" + prose_tex(n_text(s), check) + ")}" if n_text(s) else ""
        if files.get(s.id):
            st += r" \emph{Data:} " + ", ".join(tex_code(Path(p).name) for p in files[s.id])
        L.append(f"{st} & {tex_escape(s.rule)} & {_v(s.verdict)} & {prose_tex(s.reason, check)}\\\\")
    return L + _TABLE_END


def _letter_tex(led, check) -> list:
    """The referee letter (:mod:`theorycheck.report.letter`) right after the front matter."""
    pts = letter_points(led)
    titles = {"major": "Major points", "minor": "Minor points", "confirmed": "Confirmations worth stating",
              "unchecked": "What could not be checked, and why"}
    L = [r"\subsection*{Referee letter}", prose_tex(INTRO.replace(" Links go to the claim's section.", ""), check), ""]
    n = 0
    for key in ("major", "minor", "confirmed", "unchecked"):
        L.append(r"\paragraph{" + titles[key] + "}")
        if not pts[key]:
            L += ["None.", ""]
            continue
        L.append(r"\begin{enumerate}\setcounter{enumi}{" + str(n) + "}")
        for c, text in pts[key]:
            n += 1
            L.append(r"\item \hyperlink{" + _anchor(c.id) + "}{" + tex_code(c.id) + "} " + prose_tex(text, check))
        L.append(r"\end{enumerate}")
    return L + [""]


def _clauses_tex(c, check) -> list:
    """The clauses of the fragment, their verdicts and what tested them; parameters with their provenance."""
    L = []
    if c.clauses:
        L += [r"\textbf{Clauses.}", tex_table([("p", 0.34), ("p", 0.12), ("p", 0.16), ("p", 0.38)],
                                               ["clause", "kind", "verdict", "why"])]
        for cl in c.clauses:
            v = _v(cl["verdict"]) if cl.get("verdict") else "(not asserted)"
            L.append(f"{cl['id']}: «{prose_tex(cl['text'], check)}» & {tex_escape(cl['kind'])} & {v} & "
                     f"{prose_tex(cl.get('reason', ''), check)}\\\\")
        L += _TABLE_END
    params = {}
    for s in c.subclaims:
        for name, p in s.params.items():
            params.setdefault(name, p)
    if params:
        L += [r"\textbf{Parameters.} " + prose_tex("; ".join(
            f"{name} = {p['value']} ({p['provenance']}: {p['source']}"
            + (f"; admissible {p['admissible']}" if p.get("admissible") else "") + ")" for name, p in params.items()), check),
              ""]
    silent = {r: st for r, st in (c.readings or {}).items() if st != "votes"}
    if silent:
        L += [r"\textbf{Readings that do not vote.} " + prose_tex("; ".join(f"{r}: {st}" for r, st in silent.items()), check),
              ""]
    return L


def _claim_tex(i, c, files, check) -> list:
    L = [r"\subsection*{\hypertarget{" + _anchor(c.id) + "}{}" + f"{i}. " + prose_tex(c.title, check) + "}",
         r"\textbf{Verdict:} " + _v(c.verdict) + r" --- id " + tex_code(c.id) + " --- seed lines "
         + f"{c.lines[0]}--{c.lines[1]}" + (" --- conventions " + tex_escape(", ".join(c.conventions))
                                            if c.conventions else "") + (f" --- weight {c.weight}" if c.weight else ""),
         ""]
    if c.scope:
        L += [r"\textbf{Scope.} " + prose_tex(c.scope, check), ""]
    L += [r"\textit{Seed text (verbatim):}", r"\begin{quote}\small"]
    L += [seed_tex(line, check, "quote") + r"\par" for line in c.quote.split("\n") if line.strip()]
    L += [r"\end{quote}"]
    if c.fragment:
        L += [r"Fragment checked: «" + seed_tex(c.fragment, check, "text") + "»", ""]
    L += [r"\textbf{Statement as tested.} " + prose_tex(c.statement, check), "",
          r"\textbf{Finding.} " + prose_tex(c.reason, check), ""]
    L += _clauses_tex(c, check)
    if c.error:
        L += [r"\textbf{Error while computing this claim} (see results.json).", ""]
    if c.subclaims:
        L += _subclaims_tex(c, files, check)
    if c.self_checks:
        L += [r"\textbf{Self-checks.} " + prose_tex("; ".join(
            f"{s.name}: {'passed' if s.passed else 'FAILED'} ({s.statistic_name} = {fmt(s.statistic)}"
            + (f", p = {fmt(s.p_value)}" if s.p_value is not None else "") + ")" for s in c.self_checks), check), ""]
    if c.derivation:
        L += [r"\textbf{Derivation.}"] + [formula_tex(f, check.verdict(f)) for f in map(_derivation, c.derivation)]
    if c.notes:
        L += [r"\textbf{Method.} " + prose_tex(" ".join(c.notes), check), ""]
    for f in c.figures:
        L += [r"\begin{center}\includegraphics[width=0.85\linewidth]{figures/" + f["stem"] + r".pdf}",
              r"\captionof{figure}{" + prose_tex(f.get("caption", ""), check) + r"}\end{center}"]
    if c.revision:
        r = c.revision
        L += [r"\emph{Revision:} " + prose_tex(f"previously {r.get('previous', '?')}. {r.get('why', '')}", check), ""]
    return L


def _reconciliation_tex(led, check) -> list:
    recs = [(c, r) for c in led.claims for r in c.reconciliations]
    if not recs:
        return []
    L = [r"\subsection*{Reconciliation}"]
    for c, r in recs:
        L += [r"\textbf{\hyperlink{" + _anchor(c.id) + "}{" + prose_tex(c.title, check) + "}}" +
              (" --- " + prose_tex(r["label"], check) if r.get("label") else "") + ": "
              + prose_tex(("found" if r["found"] else "not found") + f" ({r['evaluations']} evaluations). "
                         + r["interpretation"] + " Best setting: " + fmt_setting(r["best"]) + ".", check), "",
              tex_table([("p", 0.3)] + [("p", 0.14)] * 5,
                        ["target", "stated", "estimate", "residual", "tolerance", "ratio"])]
        L += [f"{prose_tex(x['target'], check)} & {tex_escape(x['stated'])} & {fmt(x['estimate'])} & {fmt(x['residual'])} & "
              f"{fmt(x['tolerance'])} & {fmt(x['in_tolerance_units'], 3)}\\\\" for x in r["residuals"]]
        L += _TABLE_END
    return L


def _breaks_tex(led, check) -> list:
    maps = [(c, a) for c in led.claims for a in c.assumptions if not a.get("error") and a.get("path")]
    if not maps:
        return []
    L = [r"\subsection*{Where it breaks}",
         tex_table([("p", 0.17), ("p", 0.22), ("p", 0.08), ("p", 0.28), ("p", 0.25)],
                   ["claim", "assumption", "stated", "path", "breaking point"])]
    for c, a in maps:
        bp = a["breaking_point"]
        where = (f"breaks at {a['violation']} = {bp['value']}" if bp["status"] == "breaks" else bp["status"])
        L.append(r"\hyperlink{" + _anchor(c.id) + "}{" + tex_code(c.id) + "} & " + prose_tex(a["name"], check) + " & "
                 + ("yes" if a["stated"] else "no") + " & " + prose_tex(a["path"], check) + " & " + prose_tex(where, check) + r"\\")
    L += _TABLE_END
    for c, a in maps:
        if a.get("figure"):
            f = a["figure"]
            L += [r"\begin{center}\includegraphics[width=0.7\linewidth]{figures/" + f["stem"] + r".pdf}",
                  r"\captionof{figure}{" + prose_tex(f["caption"], check) + r"}\end{center}"]
    return L


def _typesetting_tex(led, check, quoted=()) -> list:
    """The section that says how the seed's mathematics was set: counts, and each formula shown as source.
    ``quoted``: every formula the report sets (from its dry pass); those not in the seed text or the derivations are
    the seed formulas our own sentences quote (clauses, findings, letter points)."""
    found = report_formulas(led)
    known = {f for _, _, f in found}
    found += [("(our sentences)", "quoted", f) for f in quoted if f not in known]     # every occurrence, as set
    seed = [f for _, kind, f in found if kind == "seed"]
    if not found:
        return []
    verdicts = [(cid, kind, f, check.verdict(f)) for cid, kind, f in found]
    failed = [(cid, kind, f, v) for cid, kind, f, v in verdicts if v.compiles is False]
    scaled = sum(v.compiles is not False and v.fit == "scaled" for *_, v in verdicts)
    n_der = sum(kind == "derivation" for _, kind, _ in found)
    n_quoted = len(found) - len(seed) - n_der
    text = (f"The quoted seed text holds {len(seed)} formulas ({len(set(seed))} distinct); with the "
            f"{n_der} derivation lines and the {n_quoted} further formulas our own sentences quote from the seed "
            "(clauses, findings, letter points; a clause that cuts a formula quotes a piece of it), each was compiled "
            "on its own (one group each, in one batch "
            "document) before this report was written. ")
    if all(v.compiles is None for *_, v in verdicts):
        why = next((f"the check document did not compile (TeX: {v.error})" for *_, v in verdicts if v.error),
                   "pdflatex was not found")
        text = f"The quoted seed text holds {len(seed)} formulas; {why}, so they are typeset without a compile check. "
    text += (f"{len(failed)} formula(s) shown as TeX source because they do not compile. Formulas wider than the "
             f"line are broken across lines; {scaled} could not be broken within the line and are scaled to it.")
    L = [r"\subsection*{Typesetting}", tex_escape(text), ""]
    if failed:
        L += [r"\begin{itemize}"] + [
            r"\item " + tex_code(cid) + f" ({kind}): " + r"\tcsrc{" + source_tex(f) + "} --- TeX: " + tex_escape(v.error)
            for cid, kind, f, v in failed] + [r"\end{itemize}"]
    return L


def _front_tex(led, check) -> list:
    """Title, preliminary banner and provenance line (a referee letter goes right after these)."""
    L = [r"\section*{" + prose_tex(led.title, check) + "}"]
    if led.preliminary:
        L += [r"\fbox{\parbox{0.95\linewidth}{\textbf{" + tex_escape(PRELIMINARY.capitalize()) + r".} This report "
              r"comes from a quick run (small sizes); the verdicts of record are the paper-scale run's.}}", ""]
    return L + [prose_tex(f"Seed summary `{led.seed_file}` (paper {led.paper}), key `{led.key}`, mode `{led.mode}`, "
                         f"run seed `{led.seed}`. Generated by `theorycheck` --- regenerate, do not edit.", check), ""]


def _summary_tex(led, check) -> list:
    cnt = led.counts()
    L = [r"\subsection*{Summary of findings}",
         tex_escape(f"{len(led.claims)} claims: " + ", ".join(f"{cnt[v]} {v}" for v in VERDICTS if cnt[v])
                    + (f", {cnt['withheld']} withheld" if cnt["withheld"] else "") + "."), ""]
    items = summary_items(led)
    if items:
        L += [r"\begin{itemize}"]
        for c, s in items:
            L.append(r"\item " + _v(c.verdict) + r" --- \hyperlink{" + _anchor(c.id) + "}{" + prose_tex(c.title, check)
                     + "} (lines " + f"{c.lines[0]}--{c.lines[1]}): " + prose_tex(c.reason, check))
        L += [r"\end{itemize}"]
    else:
        L += ["Every claim is confirmed in its stated scope.", ""]
    extra = extra_findings(led)
    if extra:
        L += [r"Beyond the verdicts:", r"\begin{itemize}"]
        L += [r"\item " + tex_escape(kind) + r" --- \hyperlink{" + _anchor(c.id) + "}{" + prose_tex(c.title, check) + "}: "
              + prose_tex(text, check) for c, kind, text in extra] + [r"\end{itemize}"]
    L += [r"\subsection*{Verdicts}",
          tex_table([("p", 0.05), ("p", 0.40), ("p", 0.09), ("p", 0.17), ("p", 0.29)],
                    ["#", "claim", "lines", "verdict", "scope"])]
    for i, c in enumerate(led.claims, 1):
        L.append(f"{i} & " + r"\hyperlink{" + _anchor(c.id) + "}{" + prose_tex(c.title, check) + "} & "
                 + f"{c.lines[0]}--{c.lines[1]} & {_v(c.verdict)} & {prose_tex(c.scope or '', check)}\\\\")
    return L + _TABLE_END


def _decision_tex(led, check) -> list:
    L = []
    clauses = any(c.clauses for c in led.claims)
    if led.conventions or clauses:
        L += [r"\subsection*{Conventions}"]
    if led.conventions:
        L += [r"\begin{description}"]
        L += [r"\item[" + i + "] " + prose_tex(t, check) for i, t in led.conventions] + [r"\end{description}"]
    if clauses:
        L += [prose_tex(CLAUSES_NOTE, check), ""]
    d = led.decision
    if d:
        L += [r"\subsection*{How verdicts were decided}",
              prose_tex(f"{d.get('hypotheses')} hypotheses ({d.get('statistical_subclaims')} statistical sub-claims, "
                       f"each with a for and an against test) form one family, Holm-adjusted at family-wise "
                       f"alpha = {d.get('family_alpha')}. A refutation resting on parameters the source does not "
                       f"state is reported as not reproduced. Aggregation: {d.get('aggregation')}. Self-checks: "
                       f"{d.get('self_checks')}, Holm at alpha = {d.get('self_check_alpha')}.", check), "",
              r"\begin{description}"] + [r"\item[" + tex_escape(v) + "] " + prose_tex(t, check) for v, t in LEGEND] + \
             [r"\end{description}"]
    revs = [c for c in led.claims if c.revision]
    if revs:
        L += [r"\subsection*{Changes since the previous audit}", r"\begin{itemize}"]
        L += [r"\item \hyperlink{" + _anchor(c.id) + "}{" + tex_code(c.id) + "}: "
              + prose_tex(f"{c.revision.get('previous', '?')} → {c.verdict or 'withheld'}. {c.revision.get('why', '')}", check)
              for c in revs] + [r"\end{itemize}"]
    return L


def latex_report(led, files: dict | None = None, check: FormulaCheck | None = None,
                 used: list | None = None) -> str:
    """The LaTeX source of one finalized ledger's report.

    ``check``: the :class:`~theorycheck.report.texcheck.FormulaCheck` deciding how each formula is set (one
    is made for this report when None; ``write_reports`` shares one across its reports); ``used``: a list that
    receives every formula the report sets (for the record of their verdicts).
    """
    files = files or {}
    check = check if check is not None else FormulaCheck()
    seen = _Recorder()
    _body(led, files, seen, [])          # a dry pass: every formula the report sets, seed, derivation or quoted
    check.check(seen.formulas)
    if used is not None:
        used.extend(dict.fromkeys(seen.formulas))
    L = list(PREAMBLE) + [r"\begin{document}", r"\begin{CJK}{UTF8}{gbsn}"]
    L += _body(led, files, check, seen.formulas) + [r"\end{CJK}", r"\end{document}"]
    return "\n".join(L) + "\n"


class _Recorder:
    """A stand-in :class:`FormulaCheck` for the dry pass: records every formula asked about."""

    def __init__(self):
        self.formulas: list = []

    def verdict(self, f: Formula) -> Verdict:
        self.formulas.append(f)
        return Verdict(True, "fits")


def _body(led, files, check, quoted) -> list:
    L = _front_tex(led, check) + _letter_tex(led, check) + _summary_tex(led, check) + _decision_tex(led, check)
    L += _reconciliation_tex(led, check) + _breaks_tex(led, check) + _typesetting_tex(led, check, quoted)
    L += [r"\section*{Claims}"]
    for i, c in enumerate(led.claims, 1):
        L += _claim_tex(i, c, files, check)
    return L


def compile_pdf(tex_path: Path, timeout: int = 300) -> tuple[bool, str]:
    """Run pdflatex twice in the report folder; return (ok, last lines of the log)."""
    exe = shutil.which("pdflatex")
    if exe is None:
        return False, "pdflatex not found"
    tex_path = Path(tex_path)
    # fixed dates so the PDF bytes depend only on the source (pdfTeX honours these)
    env = dict(os.environ, SOURCE_DATE_EPOCH="1767225600", FORCE_SOURCE_DATE="1")
    cmd = [exe, "-interaction=nonstopmode", "-halt-on-error", tex_path.name]
    log = ""
    for _ in range(2):
        try:
            r = subprocess.run(cmd, cwd=tex_path.parent, capture_output=True, text=True, timeout=timeout,
                               errors="replace", env=env)
        except subprocess.TimeoutExpired:
            return False, "pdflatex timed out"
        log = r.stdout[-3000:]
        if r.returncode != 0:
            return False, log
    for ext in (".aux", ".log", ".out", ".toc"):
        p = tex_path.with_suffix(ext)
        if p.exists():
            p.unlink()
    return True, log


