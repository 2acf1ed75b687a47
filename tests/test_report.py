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
    led.add(Claim(id="004-demo", paper="004", lines=(158, 160), title=LONG_TITLE, statement=LONG_TITLE, quote=quote,
                  subclaims=[s1], self_checks=[selfcheck.identity("ours", 1.0, 1.0)], conventions=["C1"],
                  revision={"previous": "confirmed", "why": "rule changed"}))
    led.add(Claim(id="004-under", paper="004", lines=(172, 181), title="Error bars undefined", statement="Error bars undefined", quote="误差棒",
                  subclaims=[s2]))
    led.add(Claim(id="004-ok", paper="004", lines=(183, 183), title="a₁ = e^{-1/2}; Gram (1/n) Σ_t ȳ_t ȳ_tᵀ; naïve", statement="a₁ = e^{-1/2}; Gram (1/n) Σ_t ȳ_t ȳ_tᵀ; naïve",
                  quote="图",
                  subclaims=[rules.identity("a1", 1, 1)]))
    return finalize(led)


def test_markdown_findings_first_full_titles_conventions_once():
    led = _ledger()
    md = markdown_report(led, {})
    assert md.index("## Referee letter") < md.index("### Major points") < md.index("## Summary of findings")
    head = md[md.index("## Summary of findings"):md.index("## Verdicts")]
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
    assert tex_text("$x_1$ and `a_b`") == r"$x_1$ and \texttt{a\_\allowbreak{}b}"     # code may break after _
    assert r"\ensuremath{\tilde{\Lambda}}" in tex_text("Λ̃")
    # precomposed accents never reach math mode raw (inputenc would emit the text accent \= there)
    assert tex_text("ȳ_t") == r"\ensuremath{\bar{y}_{t}}" and tex_text("ȳ") == r"\ensuremath{\bar{y}}"
    assert tex_text("G₁₂y") == r"G\ensuremath{_{12}}y"          # one subscript, not the double subscript _1_2
    assert tex_text("(A)^{2s}") == r"(A)\ensuremath{^{2s}}"           # scripts after a bracket are math too
    assert "[U+" not in tex_text("«quoted» ⟂ ∓ ½ x⁻¹ C₁₁")     # every symbol the reports use has a TeX form


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


def test_diff_lists_verdict_changes_and_moved_estimates():
    from theorycheck import diff
    a, b = _ledger(), _ledger()
    s = b.claims[0].subclaims[0]
    s.estimate, s.ci = 1.9, [1.88, 1.92]
    b.claims[2].verdict = "refuted"
    d = diff({"demo": a}, {"demo": b})
    kinds = {r[1] for r in d.rows}
    assert {"estimate moved", "verdict changed"} <= kinds and "| demo |" in d._repr_markdown_()
    assert diff({"demo": a}, {"demo": _ledger()}).empty


def test_report_check_detects_stale_sources_and_edits(tmp_path, fake_plugin, monkeypatch):
    from theorycheck import cli
    from theorycheck.report import check as chk
    out = tmp_path / "r"
    assert cli.main(["run", "--paper", "fake", "--quick", "--out", str(out), "--no-pdf", "--jobs", "1",
                     "--quiet"]) == 0
    assert cli.main(["report", "--check", "--out", str(out), "--quiet"]) == 0
    (out / "fake.md").write_text((out / "fake.md").read_text() + "edited by hand\n")
    assert any("fake.md differs" in p for p in chk.check_reports(out))
    assert cli.main(["report", "--out", str(out), "--no-pdf", "--quiet"]) == 0          # regenerate
    assert chk.check_reports(out) == []
    # a source file changes: the recorded digests no longer match
    monkeypatch.setattr(chk, "_digests", lambda key: {"theorycheck": "0" * 64})
    assert any("sources of theorycheck changed" in p for p in chk.check_reports(out))


def test_report_check_fails_after_a_source_edit_in_a_copy(tmp_path):
    """In a temporary copy of the repository (the copy's package is the one imported), reports written by the
    copy are fresh; after editing one source file they are stale."""
    import subprocess
    import sys
    from theorycheck.cli import repo_root
    if not (repo_root() / ".git").exists() or shutil.which("git") is None:
        pytest.skip("needs a git checkout")
    copy = tmp_path / "repo"
    subprocess.run(["git", "clone", "--quiet", str(repo_root()), str(copy)], check=True)
    make = ("import sys; from pathlib import Path; from theorycheck.claims import Claim, Ledger; "
            "from theorycheck.verdicts import finalize, rules; from theorycheck.report import write_reports; "
            "from theorycheck.report.stamp import write_stamp; from theorycheck.report.check import _digests; "
            "import theorycheck; assert Path(theorycheck.__file__).parent.parent == Path.cwd(), theorycheck.__file__; "
            "led = Ledger('nonlinear', '004', 't', mode='full', seed=1); "
            "led.add(Claim(id='004-x', paper='004', lines=(1, 1), title='t', statement='s', quote='q', "
            "subclaims=[rules.identity('a', 1, 1)])); finalize(led); out = Path(sys.argv[1]); "
            "write_reports({'nonlinear': led}, out, pdf=False); "
            "write_stamp(out, {'nonlinear': {'source_sha256': _digests('nonlinear')}}, 'test', 0.0)")
    check = "import sys; from theorycheck.cli import main; sys.exit(main(['report', '--check', '--out', sys.argv[1]]))"
    out = tmp_path / "r"
    subprocess.run([sys.executable, "-c", make, str(out)], cwd=copy, check=True)
    assert subprocess.run([sys.executable, "-c", check, str(out)], cwd=copy).returncode == 0
    src = copy / "theorycheck" / "gaussian" / "isserlis.py"
    src.write_text(src.read_text() + "\n# an edit\n")
    r = subprocess.run([sys.executable, "-c", check, str(out)], cwd=copy, capture_output=True, text=True)
    assert r.returncode == 1 and "sources of theorycheck changed" in r.stderr


def test_first_80_lines_name_every_claim_not_plainly_confirmed():
    from theorycheck.report.common import plainly_confirmed
    led = _ledger()
    led.claims[2].subclaims[0].chosen = {"sigma_w2": 1.0}           # a confirmation resting on a toolkit choice
    head = "\n".join(markdown_report(led, {}).splitlines()[:80])
    for c in led.claims:
        assert (c.id in head) == (not plainly_confirmed(c)), c.id
    assert "with a caveat" in head and "sigma_w2" in head


def test_diff_reads_the_previous_schema_and_follows_renames(tmp_path):
    from theorycheck import diff
    old = {"schema": 1, "papers": {"demo": {"paper": "004", "title": "t", "parameters": {"mode": "full"}, "claims": [
        {"id": "004-old", "paper": "004", "lines": [158, 160], "paraphrase": "p", "verdict": "confirmed"},
        {"id": "004-ok", "paper": "004", "lines": [183, 183], "paraphrase": "p", "verdict": "confirmed"}]}}}
    (tmp_path / "results.json").write_text(json.dumps(old))
    new = _ledger("full")
    new.claims[0].revision = {"previous": "confirmed", "previous_id": "004-old", "why": "split"}
    d = diff(tmp_path, {"demo": new})
    kinds = {(r[1], r[2]) for r in d.rows}
    assert ("claim renamed or split", "004-old → 004-demo") in kinds and ("claim added", "004-under") in kinds


def test_a_failed_compile_leaves_no_stale_pdf(tmp_path, monkeypatch):
    """A PDF of an older source must not stand for the current one: the unchanged-source shortcut trusts a PDF only
    if it is newer than its source, and a failed compile removes the old PDF."""
    import theorycheck.report as report
    write_reports({"demo": _ledger()}, tmp_path, pdf=False)
    pdf = tmp_path / "demo.pdf"
    pdf.write_bytes(b"%PDF-1.5 stale")
    os.utime(pdf, (0, 0))                                    # older than demo.tex
    monkeypatch.setattr(report, "compile_pdf", lambda tex: (False, "! Undefined control sequence."))
    status = write_reports({"demo": _ledger()}, tmp_path, pdf=True)
    assert status["demo"]["pdf"] is False and not pdf.exists()


def test_generated_sentences_typeset_quoted_seed_formulas():
    """A clause quoted in our own sentences (clause table, findings, letter) is set as mathematics like the seed
    text, and a quote cut short never cuts a formula in half."""
    from theorycheck.report.texmath import prose_tex
    from theorycheck.verdicts.text import shorten

    class Fits:
        def verdict(self, f):
            from theorycheck.report.texcheck import Verdict
            return Verdict(True, "fits")
    tex = prose_tex(r"clause c2 “在 \(\rho(A)\le1\) 下” refuted: 1 of 1", Fits())
    assert r"\(\rho(A)\le1\)" in tex and "textbackslash" not in tex
    cut = shorten(r"由此得 $$\boxed{W^\star = \frac{\mathbb{E}[y_1 y_2]}{\mathbb{E}[y_1^2]}}$$ 其中" + "很长" * 40, 30)
    assert cut.count("$$") == 2 and cut.endswith("…")
    assert "\\textbackslash" not in prose_tex(cut, Fits())


def test_letter_collapses_by_settings_and_keeps_the_head_whole():
    """Sub-claims that differ only by their settings collapse into one sentence; parentheses inside the statement stay
    in it ("ξ increases on (0, γ)" is not a setting); leading labels "(a) " and "s = 2: " are settings too."""
    from theorycheck.report.letter import collapse
    assert collapse([f"ξ increases on (0, γ) (γ = {g})" for g in (0.5, 0.8)]) == \
        "ξ increases on (0, γ) — at all 2 settings, γ ∈ {0.5, 0.8}"
    assert collapse([f"s = {s}: PCG iterate ∈ span (relative residual 0)" for s in (2, 3)]) == \
        "PCG iterate ∈ span (relative residual 0) — at all 2 settings, s ∈ {2, 3}"
    assert collapse([f"({x}) mean cos(p, mode) exceeds 0.42" for x in "ab"]) == \
        "mean cos(p, mode) exceeds 0.42 — at all 2 settings, (a), (b)"
    assert collapse(["x grows (γ = 0.5)", "y falls (γ = 0.8)"]) == "x grows (γ = 0.5); y falls (γ = 0.8)"


def test_index_is_rendered_from_the_recorded_results(tmp_path):
    """The index renders from results.json as recorded (sorted keys), like the paper reports: a refutation's extent
    written in another key order must not make `report --check` call a fresh index stale."""
    from theorycheck.report.check import check_reports
    led = Ledger("demo", "004", "Demo", mode="full", seed=5, seed_file="004_demo.txt")
    s = rules.identity("x = 1 (γ = 0.5)", 2.0, 1.0)
    s.extent = {"where": "everywhere searched", "points": 12, "holds_throughout": True}
    led.add(Claim(id="004-demo", paper="004", lines=(1, 1), title="x is one", statement="x = 1", quote="x = 1",
                  subclaims=[s], weight="main"))
    write_reports({"demo": finalize(led)}, tmp_path, pdf=False)
    assert "Extent:" in (tmp_path / "index.md").read_text()
    assert not [p for p in check_reports(tmp_path) if "index.md" in p]
