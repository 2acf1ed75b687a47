r"""Does each formula compile, and does it fit the line? Decided per formula before the report is written.

:class:`FormulaCheck` sets every formula it is asked about in one check document — the report's own
preamble, each formula alone in its own group and context (a quote or plain text, so the line width is the
report's), between ``\typeout`` markers — and runs ``pdflatex -draftmode`` once. The log says, per formula,
whether TeX raised an error (``! …``) or had to let a line pass the margin (``Overfull \hbox``). A formula
with an error fails; the formulas after the first failure are checked again without it (an error can
disturb what follows), so ``k`` failing formulas take ``k + 1`` runs. Verdicts are cached in the object: one
:class:`FormulaCheck` serves one ``write_reports`` call. Without ``pdflatex`` every verdict is
``compiles=None`` (not checked) and formulas are set as mathematics.

The verdicts depend on the TeX installation that decided them, so the report folder keeps them:
``write_reports`` writes ``formulas.json`` (:func:`record_of`: per paper, each formula's key — a digest of its
body, style and context — and its verdict, with the digest of the preamble they were decided under). A
:class:`FormulaCheck` given that ``record`` and no ``pdflatex`` (``exe=None``) takes every verdict from it: this is
how ``theorycheck report --check`` re-renders the LaTeX without depending on the local TeX, and how
``theorycheck report`` on a machine without TeX reproduces the recorded typesetting.

>>> FormulaCheck(exe=None).verdict(Formula("x", False))
Verdict(compiles=None, fit='fits', error='')
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .texmath import CONTEXTS, PREAMBLE, Formula, breakable

__all__ = ["Verdict", "FormulaCheck", "check_document", "formula_key", "record_of", "PREAMBLE_SHA256", "RECORD"]

#: The file of the report folder that keeps the formula verdicts (see the module's docstring).
RECORD = "formulas.json"
#: The digest of the preamble under which verdicts are decided: a record of another preamble is not used.
PREAMBLE_SHA256 = hashlib.sha256("\n".join(PREAMBLE).encode("utf-8")).hexdigest()


def formula_key(f: Formula) -> str:
    """A formula's key in the record: the first 16 hex digits of the SHA-256 of its context, style and body."""
    return hashlib.sha256(f"{f.context}\0{int(f.display)}\0{f.body}".encode("utf-8")).hexdigest()[:16]

_BEGIN, _END = "@@TC<", "@@TC>"


@dataclass(frozen=True)
class Verdict:
    """``compiles``: True, False, or None when not checked; ``fit``: ``"fits"`` (set as is, broken across lines
    when wide) or ``"scaled"`` (would pass the margin even when broken); ``error``: TeX's first error line."""
    compiles: bool | None
    fit: str = "fits"
    error: str = ""


def _check_tex(f: Formula) -> str:
    """A formula as the report sets it, in its context; its body on a line of its own (TeX's error context)."""
    opening, closing = CONTEXTS[f.context]
    body = (r"\tcdisplay{" + "\n" + f.tex + "\n}{" + breakable(f.tex) + "}" if f.display
            else r"\noindent\(" + "\n" + f.tex + "\n" + r"\)\par")
    return opening + body + closing


def check_document(formulas: list) -> str:
    """The check document: the report's preamble, then each formula between ``\\typeout`` markers."""
    L = list(PREAMBLE) + [r"\begin{document}", r"\begin{CJK}{UTF8}{gbsn}"]
    for i, f in enumerate(formulas):
        L += [r"\typeout{" + _BEGIN + f"{i}" + "}", r"\begingroup", _check_tex(f), r"\par\endgroup",
              r"\typeout{" + _END + f"{i}" + "}"]
    return "\n".join(L + [r"\end{CJK}", r"\end{document}"]) + "\n"


def _read_log(log: str) -> tuple[dict, dict, set]:
    """Per formula index: the first error (TeX's message and where it stopped), whether a line overflowed,
    and which formulas finished."""
    errors, overfull, done, current, context_of = {}, {}, set(), None, None
    for line in log.splitlines():
        if context_of is not None and line.startswith(("l.", "<argument>")):   # TeX's input up to the error
            errors[context_of] += " At: " + line.split(" ", 1)[-1].strip()[-40:]
            context_of = None
        elif line.startswith(_BEGIN):
            current = int(line[len(_BEGIN):])
        elif line.startswith(_END):
            done.add(int(line[len(_END):]))
            current = None
        elif current is not None and line.startswith("! ") and current not in errors:
            errors[current], context_of = line[2:].strip(), current
        elif current is not None and line.startswith("Overfull \\hbox"):
            overfull[current] = True
    return errors, overfull, done


class FormulaCheck:
    """Compile verdicts of formulas (:class:`~theorycheck.report.texmath.Formula`), cached for one report run.

    ``exe``: the ``pdflatex`` to run (``"auto"``: the one on ``PATH``; None: do not check); ``timeout``: seconds
    per run (a batch of a few hundred formulas takes about one; a run that times out blames the formula it was
    in). ``runs`` and ``seconds`` count the pdflatex runs and their time.
    """

    def __init__(self, exe: str | None = "auto", timeout: int = 60, record: dict | None = None):
        self.exe = shutil.which("pdflatex") if exe == "auto" else exe
        self.timeout = timeout
        self.runs, self.seconds = 0, 0.0
        self._verdicts: dict = {}
        #: verdicts taken from a record (``{formula key: {"compiles", "fit", "error"}}``), used only without pdflatex
        self.record = dict(record or {}) if self.exe is None else {}
        self.unrecorded: set = set()

    def verdict(self, f: Formula) -> Verdict:
        """The verdict of ``f`` (checked now when not yet known)."""
        if f not in self._verdicts:
            self.check([f])
        return self._verdicts[f]

    def check(self, formulas) -> None:
        """Decide every formula of ``formulas`` not yet decided (one batch, re-run after each failure)."""
        pending = [f for f in dict.fromkeys(formulas) if f not in self._verdicts]
        if self.exe is None:
            for f in pending:
                r = self.record.get(formula_key(f))
                if r is None and self.record:
                    self.unrecorded.add(f)
                self._verdicts[f] = Verdict(None) if r is None else Verdict(r["compiles"], r["fit"], r["error"])
            return
        while pending:
            pending = self._decide(pending)

    def _decide(self, pending: list) -> list:
        """One run over ``pending``: decide the formulas up to the first failure; return those still pending."""
        log = self._run(check_document(pending))
        errors, overfull, done = _read_log(log)
        for i, f in enumerate(pending):
            if i in errors or i not in done:
                error = errors.get(i) or _last_words(log)
                if i == 0 and i not in done and not any(ln.startswith(_BEGIN) for ln in log.splitlines()):
                    # the preamble itself failed: nothing can be checked; the report's compile will say why
                    self._verdicts.update({g: Verdict(None, error=error) for g in pending})
                    return []
                self._verdicts[f] = Verdict(False, error=error)
                return pending[i + 1:]
            self._verdicts[f] = Verdict(True, "scaled" if overfull.get(i) else "fits")
        return []

    def _run(self, source: str) -> str:
        env = dict(os.environ, max_print_line="100000", error_line="254", half_error_line="238")
        start = time.perf_counter()
        with tempfile.TemporaryDirectory(prefix="theorycheck-formulas-") as tmp:
            (Path(tmp) / "check.tex").write_text(source, encoding="utf-8")
            try:
                subprocess.run([self.exe, "-interaction=nonstopmode", "-draftmode", "check.tex"], cwd=tmp,
                               capture_output=True, timeout=self.timeout, env=env)
            except subprocess.TimeoutExpired:
                pass
            log_path = Path(tmp) / "check.log"
            log = log_path.read_text(encoding="utf-8", errors="replace") if log_path.exists() else ""
        self.runs += 1
        self.seconds += time.perf_counter() - start
        return log


def record_of(check: FormulaCheck, formulas) -> dict:
    """``{formula key: {"compiles", "fit", "error"}}`` of ``formulas`` as ``check`` decided them (sorted keys)."""
    out = {}
    for f in formulas:
        v = check.verdict(f)
        out[formula_key(f)] = {"compiles": v.compiles, "fit": v.fit, "error": v.error}
    return dict(sorted(out.items()))


def _last_words(log: str) -> str:
    """Why TeX stopped without naming an error (the log's last non-empty line)."""
    lines = [ln for ln in log.splitlines() if ln.strip()]
    return lines[-1].strip() if lines else "pdflatex stopped"
