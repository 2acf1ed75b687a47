"""The PDF reports as a reader sees them: the seed's mathematics typeset, nothing past the margin, every claim.

Text is extracted with its positions by PyMuPDF (``pymupdf``, in the ``test`` extra): no raw TeX (``$$``,
``\\lambda``, ``\\frac``, …) outside a formula the report says it shows as source, no text span ending within 20
pt of a page's right edge, every claim id present. Checked on a small PDF rendered here from a tiny ledger
(default suite) and on the committed paper-scale PDFs in ``reports/`` (skipped when absent). Compiling needs
pdflatex with CJK (``.ci/run`` installs it); outside CI a missing pdflatex skips, in CI it fails.
"""
import json
import os
import re
import shutil
from pathlib import Path

import pytest

from theorycheck.claims import Claim, Ledger, load_results
from theorycheck.report import write_reports
from theorycheck.report.latex import latex_report, report_formulas
from theorycheck.report.pdfcheck import inspect_pdf
from theorycheck.report.texcheck import FormulaCheck
from theorycheck.report.texmath import Formula, breakable, split_math
from theorycheck.verdicts import finalize, rules

REPORTS = Path(__file__).resolve().parents[1] / "reports"
HAVE_TEX = shutil.which("pdflatex") is not None
needs_tex = pytest.mark.skipif(not HAVE_TEX and not os.environ.get("CI"),
                               reason="pdflatex not installed (CI installs it)")
BAD = [r"$\frac{1}{\undefinedmacro x}$", r"$x^2^3$"]           # an undefined macro, a double superscript
LONG_SUM = " + ".join(f"a_{{{i}}}\\sigma^{{{i}}}" for i in range(60))


def _tiny_ledger():
    led = Ledger("tiny", "004", "Tiny — λ & 50%", parameters={}, mode="quick", seed=1, seed_file="004_tiny.txt")
    quote = ("定义 $\\widetilde\\lambda=\\lambda(1+\\chi_0)$，坏公式 " + BAD[0] + " 与 " + BAD[1] + "，\n"
             "$$ \\boldsymbol u=\\frac d\\ell\\sum_{i=1}^{\\ell}y_i\\boldsymbol x_i\\in\\mathbb R^d,\\qquad "
             + LONG_SUM + " $$\n"
             "Unicode in math: $λ ≤ γ ∈ ℝ, σ² x̃$, \\(W^\\top\\) and \\[\\tilde\\Lambda^{-1}=\\operatorname{diag}(v)\\]")
    led.add(Claim(id="004-tiny-math", paper="004", lines=(1, 3), title="T", statement="The seed's formulas", quote=quote,
                  fragment="$\\boldsymbol u$", subclaims=[rules.identity("a1", 1, 1)],
                  derivation=[r"L=\frac{" + "+".join(f"x_{{{i}}}^2" for i in range(80)) + "}{2}"]))
    led.add(Claim(id="004-tiny-a-rather-long-identifier-that-must-break", paper="004", lines=(4, 4), title="T",
                  statement="A claim with a long id", quote="没有公式",
                  subclaims=[rules.identity("b", 1, 1)]))
    return finalize(led)


def _inspect(path):
    pytest.importorskip("pymupdf", reason="pymupdf not installed (pip install -e '.[test]')")
    return inspect_pdf(path)


def _stated_fallbacks(text: str) -> int:
    # the sentence may be hyphenated or cut by a page break (the page number between its lines)
    m = re.search(r"(\d+) formula\(s\)(?: \d+)? shown as TeX source", re.sub(r"\s+", " ", re.sub(r"-\n", "", text)))
    assert m, "the report states how many formulas it shows as TeX source"
    return int(m.group(1))


def _assert_reader_sees_math(pdf: Path, claim_ids) -> None:
    r = _inspect(pdf)
    assert r.raw_tex == [], f"raw TeX in {pdf.name}: {r.raw_tex[:10]}"
    assert r.near_edge == [], f"text at the right edge of {pdf.name}: {r.near_edge[:10]}"
    assert r.misencoded == [], f"Latin text that extracts as Chinese in {pdf.name}: {r.misencoded[:5]}"
    flat = re.sub(r"\s+", "", r.text)
    assert [c for c in claim_ids if c not in flat] == []
    assert r.fallback_notes == _stated_fallbacks(r.text)
    assert (r.fallback_tex == []) == (r.fallback_notes == 0)   # raw TeX only where a reported fallback puts it


def test_split_math_finds_every_delimiter_and_leaves_prose_alone():
    parts = split_math(r"$f(g)$$a_1$非 \(x\) 与 \[y\] $$z$$ costs \$5 or $5 and $ 6$")
    formulas = [(p.body, p.display, p.source) for p in parts if isinstance(p, Formula)]
    assert formulas == [("f(g)", False, "$f(g)$"), ("a_1", False, "$a_1$"), ("x", False, r"\(x\)"),
                        ("y", True, r"\[y\]"), ("z", True, "$$z$$")]
    assert parts[-1] == " costs $5 or $5 and $ 6$"


def test_breakable_keeps_the_mathematics_and_opens_long_fractions():
    long = r"\frac{" + "+".join(f"x_{i}" for i in range(60)) + "}{2 n}"
    out = breakable(long)
    assert out.startswith(r"\bigl(x_0+x_1") and out.endswith(r"\bigr)\big/\bigl(2 n\bigr)")
    assert breakable(r"\frac{a}{b}+c") == r"\frac{a}{b}+c"                      # short: as written
    assert r"\allowbreak" in breakable(r"a=1,\qquad b=2") and breakable(r"\{a\quad b\}").count("allowbreak") == 1


@needs_tex
def test_a_failing_formula_is_found_alone_and_only_it_falls_back():
    check = FormulaCheck()
    good = [Formula(r"\lambda_{%d}" % i, False, "quote", "") for i in range(5)]
    bad = Formula(r"\frac{1}{\undefinedmacro x}", False, "quote", BAD[0])
    check.check(good[:2] + [bad] + good[2:])
    assert check.runs == 2                               # one batch, one more for the formulas after the failure
    assert [check.verdict(f).compiles for f in good] == [True] * 5
    v = check.verdict(bad)
    assert v.compiles is False and "Undefined control sequence" in v.error and r"\undefinedmacro" in v.error
    check.verdict(Formula(r"\lambda_{0}", False, "quote", "$\\lambda_{0}$"))   # same formula: cached
    assert check.runs == 2
    wide = Formula(r"\rule{2\linewidth}{1pt}", True, "text", "")                # cannot be broken: scaled
    assert check.verdict(wide).fit == "scaled"


def test_without_pdflatex_formulas_are_typeset_unchecked():
    tex = latex_report(_tiny_ledger(), {}, FormulaCheck(exe=None))
    assert "pdflatex was not found" in tex and r"\tcsource{" not in tex
    assert r"\(\lambda \le \gamma \in \mathbb{R}, \sigma^{2} \tilde{x}\)" in tex        # Unicode mapped in math


@needs_tex
def test_tiny_report_pdf_typesets_math_within_the_margins(tmp_path):
    led = _tiny_ledger()
    status = write_reports({"tiny": led}, tmp_path, pdf=True)
    assert status["tiny"]["pdf"] is True, status
    tex = (tmp_path / "tiny.tex").read_text(encoding="utf-8")
    assert tex.count(r"\tcsource{") == 2 and "2 formula(s) shown as TeX source" in tex
    assert sum(f.source in BAD for _, _, f in report_formulas(led)) == 2
    _assert_reader_sees_math(tmp_path / "tiny.pdf", [c.id for c in led.claims])
    r = _inspect(tmp_path / "tiny.pdf")
    assert r.fallback_notes == 2 and {t for _, t in r.fallback_tex} == {r"\frac"}
    assert "λ" in r.text and "≤" in r.text and "定义" in r.text


@pytest.mark.parametrize("key", ["gla", "lds", "nonlinear"])
def test_committed_pdf_typesets_math_within_the_margins(key):
    pdf = REPORTS / f"{key}.pdf"
    if not pdf.exists() or not (REPORTS / "results.json").exists():
        pytest.skip(f"{pdf} or results.json absent (the paper-scale reports are not in this checkout)")
    led = load_results(REPORTS / "results.json")[key]
    _assert_reader_sees_math(pdf, [c.id for c in led.claims])


def test_a_check_document_that_does_not_compile_leaves_formulas_unchecked_and_says_why(tmp_path):
    fake = tmp_path / "fakelatex"                 # a "pdflatex" whose check document fails in the preamble
    fake.write_text("#!/bin/sh\necho '! LaTeX Error: File CJKutf8.sty not found.' > check.log\n")
    fake.chmod(0o755)
    check = FormulaCheck(exe=str(fake))
    assert check.verdict(Formula("x", False)).compiles is None
    tex = latex_report(_tiny_ledger(), {}, check)
    assert "the check document did not compile (TeX: ! LaTeX Error: File CJKutf8.sty not found.)" in tex
    assert r"\tcsource{" not in tex


def test_a_quote_cut_inside_a_formula_stays_prose():
    """A generated sentence that quotes a clause cut short ("…") inside ``$$ \\boxed{…`` has no formula there: its
    braces do not balance, so it is escaped as text instead of opening math that never closes."""
    parts = split_math("clause c5 ``$$ \\boxed{ e_{a}(C_{b},C…” inconclusive; clause c6 “x $$” done")
    assert not [p for p in parts if isinstance(p, Formula)]
    assert [p.body for p in split_math("ok $$ \\boxed{a} $$ and $x_{1}$") if isinstance(p, Formula)] == \
        [" \\boxed{a} ", "x_{1}"]


# the three clauses of 004-a1zero-boxed: pieces of one display formula (cases), quoted in our own sentences
CASES_PIECES = [r"$$ \boxed{ e_{\mathrm{ICL}}^{\mathrm{nonlinear}} =\rho_{\mathrm{nonlinear}} \begin{cases}",
                r"\dfrac1{1-\tau},&\tau<1,\\[2mm]", r"\dfrac{\tau}{\tau-1},&\tau>1. \end{cases}} $$"]


def _pieces_ledger():
    quote = "$$ \\boxed{ e =\\rho \\begin{cases}" + "".join(CASES_PIECES[1:]).replace(" $$", "") + " $$"
    led = Ledger("pieces", "004", "Pieces", mode="full", seed=1, seed_file="004_p.txt")
    clauses = [{"id": f"c{i}", "text": t, "kind": "assertion", "asserted": True, "untested": None, "subclaims": [],
                "verdict": None, "reason": ""} for i, t in enumerate(CASES_PIECES)]
    subs = [rules.identity(f"piece {i}", 1.0, 2.0 if i == 2 else 1.0, clauses=[f"c{i}"]) for i in range(3)]
    led.add(Claim(id="004-pieces", paper="004", lines=(1, 1), title="Pieces of a cases formula", statement="s",
                  quote=quote, subclaims=subs, clauses=clauses, weight="main"))
    return finalize(led)


def test_pieces_of_a_formula_in_our_sentences_are_made_whole_not_shown_as_source():
    from theorycheck.report.texmath import complete_fragment, prose_tex

    class Fits:
        def verdict(self, f):
            from theorycheck.report.texcheck import Verdict
            return Verdict(True, "fits")
    tex = prose_tex("clause c2 “" + CASES_PIECES[2] + "” refuted; clause c1 “" + CASES_PIECES[1] + "”", Fits())
    assert r"{\begin{cases}\dfrac{\tau}{\tau-1},&\tau>1. \end{cases}}" in tex
    assert r"\begin{aligned}\dfrac1{1-\tau},&\tau<1,\\[2mm]\end{aligned}" in tex and r"\textbackslash" not in tex
    assert complete_fragment(r"\rho_{\mathrm{nonli", cut=True) == r"\rho_{\mathrm{nonli}}"
    assert complete_fragment(r"x + \mathr", cut=True) == "x +"


@needs_tex
def test_a_report_quoting_pieces_of_a_formula_compiles_every_piece(tmp_path):
    led = _pieces_ledger()
    status = write_reports({"pieces": led}, tmp_path, pdf=True)
    assert status["pieces"]["pdf"] is True, status
    tex = (tmp_path / "pieces.tex").read_text(encoding="utf-8")
    assert r"\tcsource{" not in tex and "0 formula(s) shown as TeX source" in tex
    r = _inspect(tmp_path / "pieces.pdf")
    assert r.raw_tex == [] and r.fallback_tex == [] and r.fallback_notes == 0


def test_recorded_formula_verdicts_make_the_latex_independent_of_the_local_tex(tmp_path, monkeypatch):
    """``write_reports`` keeps the formula verdicts in ``formulas.json``; without pdflatex, ``theorycheck report``
    and ``report --check`` take them from there, so the LaTeX is the same with or without TeX."""
    import theorycheck.report.texcheck as texcheck
    from theorycheck.report import read_formula_record
    from theorycheck.report.check import check_reports
    from theorycheck.report.texcheck import formula_key
    led = _tiny_ledger()
    monkeypatch.setattr(texcheck.shutil, "which", lambda name: None)
    write_reports({"tiny": led}, tmp_path, pdf=False)
    record = read_formula_record(tmp_path)
    bad = Formula(r"x^2^3", False, "quote", BAD[1])
    assert formula_key(bad) in record["tiny"] and record["tiny"][formula_key(bad)]["compiles"] is None
    # as if a machine with TeX had decided them: the double superscript does not compile
    doc = json.loads((tmp_path / "formulas.json").read_text())
    doc["papers"]["tiny"][formula_key(bad)] = {"compiles": False, "fit": "fits", "error": "! Double superscript."}
    (tmp_path / "formulas.json").write_text(json.dumps(doc))
    write_reports({"tiny": led}, tmp_path, pdf=False)                   # no TeX here: the record decides
    tex = (tmp_path / "tiny.tex").read_text(encoding="utf-8")
    assert tex.count(r"\tcsource{") == 1 and "Double superscript" in tex
    assert not [p for p in check_reports(tmp_path) if ".tex" in p]
    (tmp_path / "formulas.json").unlink()                               # a folder without the record says why
    assert any("formulas.json" in p and "not installed" in p for p in check_reports(tmp_path) if ".tex" in p)


@needs_tex
def test_report_check_of_reports_written_with_tex_passes_without_it(tmp_path, monkeypatch):
    import theorycheck.report.texcheck as texcheck
    from theorycheck.report.check import check_reports
    write_reports({"tiny": _tiny_ledger()}, tmp_path, pdf=False)
    assert (tmp_path / "tiny.tex").read_text(encoding="utf-8").count(r"\tcsource{") == 2
    monkeypatch.setattr(texcheck.shutil, "which", lambda name: None)
    assert not [p for p in check_reports(tmp_path) if ".tex" in p or "formulas.json" in p]


@pytest.mark.parametrize("key", ["gla", "lds", "nonlinear"])
def test_committed_pdf_shows_no_formula_as_source_unless_it_does_not_compile(key):
    """Once the reports carry their formula record, a formula is shown as TeX source only if the record says it does
    not compile (the pieces of formulas our sentences quote are made whole)."""
    from theorycheck.report import read_formula_record
    pdf = REPORTS / f"{key}.pdf"
    record = read_formula_record(REPORTS).get(key)
    if not pdf.exists() or record is None:
        pytest.skip(f"{pdf} absent or written before formulas.json (regenerate: theorycheck report)")
    r = _inspect(pdf)
    failing = any(v["compiles"] is False for v in record.values())
    assert (r.fallback_notes == 0) == (not failing) and (r.fallback_tex == []) == (not failing)
