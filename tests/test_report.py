"""Reports: Markdown/LaTeX content, deterministic bytes, PDF compilation.

The PDF test needs pdflatex with the CJK package (Debian: texlive-latex-base,
texlive-latex-recommended, latex-cjk-chinese); ``.ci/run`` installs them. Outside CI
the test is skipped when pdflatex is missing; in CI (``CI=true``) a missing TeX fails.
"""
import os
import shutil
from pathlib import Path

import pytest
import sympy as sp

from theorycheck.claims import Claim, Ledger
from theorycheck.context import RunContext
from theorycheck.figures import new_figure
from theorycheck.report import compile_pdf, latex_report, markdown_report, tex_escape, write_reports
from theorycheck.cli import repo_root

HAVE_TEX = shutil.which("pdflatex") is not None
needs_tex = pytest.mark.skipif(not HAVE_TEX and not os.environ.get("CI"),
                               reason="pdflatex not installed (CI installs it)")


def _ledger(tmp_path):
    ctx = RunContext(out=tmp_path, seed=5)
    fig, ax = new_figure()
    ax.plot([0, 1], [1, 0])
    ctx.save_figure(fig, "demo_fig")
    led = Ledger("nonlinear", "004", "Demo — λ, ρ & 50%", conventions=["$h_m$ orthonormal; ρ ≥ 0"],
                 parameters={"mode": "quick", "seed": 5, "d": 16})
    led.add(Claim(id="004-demo", paper="004", lines=(158, 160), paraphrase="Branch ρ_nl/(1−τ). Then more.",
                  conventions=["λ → 0⁺", "`code` and **bold** and $\\tilde\\lambda$"],
                  check="exact vs Monte Carlo", verdict="refuted",
                  summary="z = 4.2 (p = 2.7e-05), n = 10⁴ prompts; 100% off; a_1^2 # & _ ~",
                  evidence={"exact": sp.Rational(1, 3), "mc": {"mean": 0.4, "se": 0.01, "n": 10000},
                            "curve": list(range(20))},
                  derivation=[sp.latex(sp.Symbol("rho") / (1 - sp.Symbol("tau"))),
                              r"a &= b \\ c &= d"], figures=["demo_fig"]))
    led.add(Claim(id="004-under", paper="004", lines=(172, 181), paraphrase="Error bars undefined",
                  conventions=[], check="qualitative shape", verdict="underspecified",
                  missing=["statistical definition of the error bars"], summary="cannot check"))
    return led


def test_markdown_has_table_quote_and_sections(tmp_path):
    md = markdown_report(_ledger(tmp_path), "quick", 5)
    assert "| 1 | [Branch ρ_nl/(1−τ)](#004-demo) | 158–160 | exact vs Monte Carlo | ❌ refuted |" in md
    assert "> 定义 $\\widetilde\\lambda=" in md           # verbatim seed quote (original language)
    assert "![demo_fig](figures/demo_fig.png)" in md
    assert "**Missing from the source:** statistical definition of the error bars" in md
    assert "| `mc.mean` |" not in md or "0.4" in md


def test_reports_are_byte_identical(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    for out in (a, b):
        write_reports({"nonlinear": _ledger(out)}, out, pdf=False)
    for name in ("nonlinear.md", "nonlinear.tex", "results.json", "index.md", "figures/demo_fig.png",
                 "figures/demo_fig.pdf"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_tex_escape_specials():
    assert tex_escape("50% & $x_1$ #") == r"50\% \& \$x\_1\$ \#"
    assert "[U+" in tex_escape("\u2603")        # unknown symbols are marked, never break the build


@needs_tex
def test_synthetic_report_compiles(tmp_path):
    led = _ledger(tmp_path)
    tex = tmp_path / "nonlinear.tex"
    tex.write_text(latex_report(led, "quick", 5), encoding="utf-8")
    ok, log = compile_pdf(tex)
    assert ok, log
    assert (tmp_path / "nonlinear.pdf").stat().st_size > 10_000


@needs_tex
def test_committed_reports_compile(tmp_path):
    src = repo_root() / "reports"
    texs = sorted(src.glob("*.tex"))
    if not texs:
        pytest.skip("no committed LaTeX reports yet")
    shutil.copytree(src, tmp_path / "r")
    for t in texs:
        ok, log = compile_pdf(tmp_path / "r" / t.name)
        assert ok, f"{t.name}:\n{log}"


@needs_tex
def test_pdf_bytes_are_reproducible(tmp_path):
    tex = tmp_path / "nonlinear.tex"
    tex.write_text(latex_report(_ledger(tmp_path), "quick", 5), encoding="utf-8")
    assert compile_pdf(tex)[0]
    first = (tmp_path / "nonlinear.pdf").read_bytes()
    assert compile_pdf(tex)[0]
    assert (tmp_path / "nonlinear.pdf").read_bytes() == first
