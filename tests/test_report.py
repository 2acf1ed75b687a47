"""Reports: findings first, nothing truncated, PDFs that keep math and Chinese, valid results.json.

The PDF tests need pdflatex with the CJK package (Debian: texlive-latex-base, texlive-latex-recommended,
latex-cjk-chinese, latex-cjk-chinese-arphic-gbsn00lp); ``.ci/run`` installs them. Outside CI they are
skipped when pdflatex is missing; in CI (``CI=true``) a missing TeX fails.
"""
import json
import os
import shutil

import pytest

from theorycheck.claims import Claim, Ledger
from theorycheck.report import compile_pdf, latex_report, markdown_report, results_document, tex_text, write_reports
from theorycheck.verdicts import Estimate, finalize, rules, selfcheck
from theorycheck.verdicts.schema import validate_results

HAVE_TEX = shutil.which("pdflatex") is not None
needs_tex = pytest.mark.skipif(not HAVE_TEX and not os.environ.get("CI"),
                               reason="pdflatex not installed (CI installs it)")
LONG_TITLE = ("The optimum has W_KQ ∝ Λ̃⁻¹ with an effective covariance Λ̃ determined by λ, γ and the noise "
              "statistics, which reduces to the stationary result")


def _ledger(mode="quick"):
    led = Ledger("demo", "004", "Demo — λ, ρ & 50%", conventions=["$h_m$ orthonormal; ρ ≥ 0", "W_KQ halved"],
                 parameters={"d": 16}, mode=mode, seed=5, seed_file="004_50ac83a765c0b948.txt")
    quote = "定义 $\\widetilde\\lambda=\\lambda(1+\\chi_0)$,在 $\\lambda\\to0$ 下"
    s1 = rules.agreement("E[x] = 1 for W_KQ", Estimate(1.3, 0.01, 100, 99), 1.0, margin=0.05, scope="d = 16",
                         data={"curve": {"x": list(range(40)), "y": [0.5 * i for i in range(40)]}})
    s2 = rules.underspecified("error bars", ["statistical definition of the error bars"])
    led.add(Claim(id="004-demo", paper="004", lines=(158, 160), statement=LONG_TITLE, quote=quote,
                  subclaims=[s1], self_checks=[selfcheck.identity("ours", 1.0, 1.0)], conventions=["C1"],
                  revision={"previous": "confirmed", "why": "rule changed"}))
    led.add(Claim(id="004-under", paper="004", lines=(172, 181), statement="Error bars undefined", quote="误差棒",
                  subclaims=[s2]))
    led.add(Claim(id="004-ok", paper="004", lines=(183, 183), statement="a₁ = e^{-1/2}", quote="图",
                  subclaims=[rules.identity("a1", 1, 1)]))
    return finalize(led)


def test_markdown_findings_first_full_titles_conventions_once():
    led = _ledger()
    md = markdown_report(led, {})
    head = md[:md.index("## Verdicts")]
    assert "❌ refuted" in head and "❔ underspecified" in head and "004-ok" not in head      # findings first
    assert head.index("refuted") < head.index("underspecified")
    assert LONG_TITLE in md                                                          # never cut
    assert md.count("orthonormal; ρ ≥ 0") == 1 and "- **C1** $h_m$" in md           # conventions once, numbered
    assert "Preliminary (quick sizes)" in md and "## Changes since the previous audit" in md
    assert "confirmed → refuted. rule changed" in md
    assert "Preliminary" not in markdown_report(_ledger("full"), {})


def test_long_data_go_to_files_beside_the_report(tmp_path):
    write_reports({"demo": _ledger()}, tmp_path, pdf=False)
    csv = tmp_path / "demo-data" / "004-demo" / "e-x-1-for-w-kq.curve.csv"
    assert csv.read_text().splitlines()[:2] == ["x,y", "0,0.0"]
    md = (tmp_path / "demo.md").read_text()
    assert "(demo-data/004-demo/e-x-1-for-w-kq.curve.csv)" in md and "..." not in md.replace("...", "", 0)


def test_reports_are_byte_identical(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        write_reports({"demo": _ledger()}, out, pdf=False)
    for name in ("demo.md", "demo.tex", "results.json", "index.md"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_results_json_validates_and_schema_catches_violations():
    doc = json.loads(json.dumps(results_document({"demo": _ledger()})))
    validate_results(doc)
    bad = json.loads(json.dumps(doc))
    bad["papers"]["demo"]["claims"][0]["subclaims"][0]["verdict"] = "probably"
    with pytest.raises(ValueError, match="schema"):
        validate_results(bad)
    bad = json.loads(json.dumps(doc))
    bad["papers"]["demo"]["mode"] = "full"                       # full runs are never 'preliminary'
    with pytest.raises(ValueError, match="preliminary"):
        validate_results(bad)


def test_index_has_legend_rules_and_findings(tmp_path):
    write_reports({"demo": _ledger()}, tmp_path, pdf=False)
    idx = (tmp_path / "index.md").read_text()
    for word in ("## Findings", "## Verdict vocabulary", "not reproduced", "## Decision rules", "**asymptotic**"):
        assert word in idx
    assert "[pdf]" not in idx


def test_tex_text_keeps_math():
    assert tex_text("W_KQ") == r"\ensuremath{W_{KQ}}"
    assert tex_text("$x_1$ and `a_b`") == r"$x_1$ and \texttt{a\_b}"
    assert r"\ensuremath{\tilde{\Lambda}}" in tex_text("Λ̃")


@needs_tex
def test_pdf_keeps_subscripts_and_chinese(tmp_path):
    pypdf = pytest.importorskip("pypdf")
    write_reports({"demo": _ledger()}, tmp_path, pdf=True)
    text = "".join(p.extract_text() for p in pypdf.PdfReader(str(tmp_path / "demo.pdf")).pages)
    assert "WKQ" in text and "W KQ" not in text and "W_{KQ}" not in text and "W\\_KQ" not in text
    assert "定义" in text and "误差棒" in text
    assert (tmp_path / "demo.pdf").exists() and "[pdf](demo.pdf)" in (tmp_path / "index.md").read_text()


@needs_tex
def test_pdf_bytes_are_reproducible(tmp_path):
    tex = tmp_path / "demo.tex"
    tex.write_text(latex_report(_ledger()), encoding="utf-8")
    assert compile_pdf(tex)[0]
    first = (tmp_path / "demo.pdf").read_bytes()
    assert compile_pdf(tex)[0]
    assert (tmp_path / "demo.pdf").read_bytes() == first
