"""The referee letter says what the numbers say (issue 29, class 7).

Every point quotes what the paper states, says what we find — a sentence generated from the numbers by the deciding
rule's ``finding``, built from structured comparisons (relation, left value, right value, tolerance, margin) — how
sure, and, when the claim yields a :class:`~theorycheck.papers.api.Remedy`, what would fix the paper. Known answers on
small ledgers; then the letters rendered by the current code from the committed ``reports/results.json``: no verb
contradicts its numbers, no finding starts with a tested statement, the explanatory paragraphs are said once.
"""
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from theorycheck.claims import Claim, Ledger, load_results
from theorycheck.report import markdown_report, write_reports
from theorycheck.report.common import CLAUSES_NOTE
from theorycheck.report.letter import letter, letter_points, points
from theorycheck.verdicts import Estimate, finalize, rules
from theorycheck.verdicts.aggregate import finding_of
from theorycheck.verdicts.finding import Comparison, Remedy, contradictions, statement_parts
from theorycheck.verdicts.rules import registry
from theorycheck.verdicts.schema import validate_results

REPORTS = Path(__file__).resolve().parents[1] / "reports"
#: The only major point of paper 004 in the letter before this change: the verb says "gives", the numbers differ.
OLD_004 = ("Lines 188–188 state: «Figure 1's caption gives noise 1.447 where the legend's 0.447 is the equivalent "
           "noise». Instead (⚠️ inconsistent): the caption's formula gives the legend's noise 0.447. Decisive numbers: "
           "legend noise (Fig. 1) = 0.447 vs caption formula (a₁² + ρ_nl)/a₁² = 1.447 [exact (SymPy), f = sin, "
           "ρ = 1/10; tolerance = printed digits].")


def _claim(cid, subs, verdict_weight="main", clauses=None, lines=(1, 1), title="T", **kw):
    return Claim(id=cid, paper="004", lines=lines, title=title, statement=title, quote="原文", subclaims=subs,
                 weight=verdict_weight, clauses=clauses or [], **kw)


def _ledger(*claims):
    led = Ledger("demo", "004", "Demo", mode="full", seed=1, seed_file="004_demo.txt")
    for c in claims:
        led.add(c)
    return finalize(led)


def _only_point(led):
    pts = [p for v in points(led).values() for p in v]
    assert len(pts) == 1, [p.text for p in pts]
    return pts[0]


# --------------------------------------------------------------------------- comparisons and the text check
@pytest.mark.parametrize("rel, left, right, tol, holds", [
    ("equals", 1.0, 1.0, 0.0, True), ("equals", 1.447, 0.447, 5e-4, False), ("within", 0.52, 0.5, 0.05, True),
    ("within", 0.6, 0.5, 0.05, False), ("differs", 1.447, 0.447, 5e-4, True), ("differs", 1.0, 1.0, 0.0, False),
    ("above", 2.0, 1.0, 0.0, True), ("above", 1.0, 2.0, 0.0, False), ("below", 1.98, 2.2, 0.0, True),
    ("below", 2.25, 2.2, 0.0, False), ("at least", 1.0, 1.0, 0.0, True), ("at most", 1.1, 1.0, 0.0, False)])
def test_a_comparison_holds_exactly_when_its_relation_does_and_the_text_check_agrees(rel, left, right, tol, holds):
    c = Comparison(rel, left, right, tol, left_label="x", right_label="the claimed")
    assert c.holds() is holds
    assert (contradictions(c.text) == []) is holds, c.text


def test_printed_digits_keep_the_relation_and_the_margin_phrase():
    c = Comparison("below", 0.461501, 0.461512, gap=True, margin=1e-5)
    assert c.holds() and contradictions(c.text) == [] and "0.461501 lies below 0.461512" in c.text
    assert "beyond the margin" in c.text
    c = Comparison("above", 2.0, 1.0, margin=5.0)
    assert "inside the margin ±5" in c.text and contradictions(c.text) == []
    # a margin phrase that does not fit its numbers is caught in a rendered text
    assert contradictions("the limit 1.983 lies below the claimed 2.2 by 0.2175 (9.9 %), inside the margin ±0.11")


def test_the_old_letter_point_of_004_is_caught_and_the_new_one_says_differs():
    assert any("equality words" in x for x in contradictions(OLD_004))
    s = rules.consistency("the caption's formula gives the legend's noise 0.447", 0.447, 1.447, atol=5e-4,
                          a_label="legend noise (Fig. 1)", b_label="caption formula (a₁² + ρ_nl)/a₁²",
                          scope="exact (SymPy), f = sin, ρ = 1/10")
    p = _only_point(_ledger(_claim("004-fig1-caption-vs-legend", [s], lines=(188, 188),
                                   title="Figure 1's caption gives noise 1.447 where the legend's 0.447 is the noise")))
    assert "legend noise (Fig. 1) 0.447 differs from caption formula (a₁² + ρ_nl)/a₁² 1.447 by 1" in p.text
    assert contradictions(p.text.replace("by 1 (tolerance 5.000e-04)", "by 1 (tolerance 2)"))   # tolerance read
    assert "⚠️ inconsistent" in p.text and "by 1 (tolerance 5.000e-04)" in p.text
    assert contradictions(p.text) == [] and "gives the legend's noise" not in p.found
    (c,) = p.findings[0][1].comparisons
    assert (c.relation, c.left, c.right) == ("differs", 0.447, 1.447) and c.tolerance == pytest.approx(5e-4, rel=1e-4)
    assert c.holds()


# --------------------------------------------------------------------------- known answers, rule by rule
def test_a_refuted_inverted_u_reads_u_shaped_with_its_optimum():
    lam = np.round(np.linspace(0.01, 1, 100), 2)
    subs = [rules.shape(f"the train error is inverted-U in λ (γ = {g})", lam, (lam - m) ** 2, shape="unimodal-maximum",
                        scope="exact, λ grid 0.01..1") for g, m in ((0.5, 0.46), (0.8, 0.74))]
    p = _only_point(_ledger(_claim("000-inverted-u", subs, title="The train error is an inverted U in λ")))
    assert "the minimum 0 is at λ = 0.46 and the maximum" in p.found and "at λ = 1 (an end of the range)" in p.found
    assert "the curve is U-shaped" in p.found and "refuted at all 2 settings: γ ∈ {0.5, 0.8}" in p.found
    assert not p.found.startswith("the train error is inverted-U") and "How sure:** exact" in p.text


def test_a_limit_below_the_stated_value_says_by_how_much_under_each_law():
    ds = np.array([12.0, 16, 24, 32, 40])
    s = rules.asymptotic("he2, τ = 0.5: error → 2.2", ds, 1.98 + 3.0 / ds, [0.01] * 5, 2.2, margin=0.11,
                         dfs=[40] * 5, laws={"1/d": (1.0,)})
    f = finding_of(finalize(Ledger("d", "004", "D").add(_claim("004-a", [s]))).claims[0].subclaims[0])
    assert f.text.startswith("extrapolated to d → ∞ from d ∈ {12, 16, 24, 32, 40}: the limit of error 1.98")
    assert "lies below the claimed 2.2 by 0.22" in f.text and "beyond the margin ±0.11 under the 1/d law" in f.text
    assert f.text.endswith("(he2, τ = 0.5)") and "Holm-adjusted" in f.sure and not f.contradicted()


def test_a_printed_number_not_reproduced_says_below_the_printed_value_and_why_not_refuted():
    s = rules.reproduction("LMS = 0.264 at γ = 0.8", Estimate(0.2551, 0.0011, 2000, 1999), "0.264",
                           model_margin=0.00264, chosen={"mu": 0.08})
    f = finding_of(_ledger(_claim("000-n", [s])).claims[0].subclaims[0])
    assert "LMS 0.2551 (95 % CI [" in f.text and "lies below the printed 0.264 by 0.0089 (3.4 %)" in f.text
    assert "beyond the margin ±0.00314" in f.text and "under the toolkit's choice of mu" in f.text
    assert "Holm-adjusted p(against)" in f.sure


def test_superiority_identity_inequality_and_search_findings():
    led = _ledger(_claim("000-s", [rules.superiority("LMS error − GLA error > 0 (γ = 0.975)",
                                                     Estimate(-0.1287, 0.001, 10_000, 9_999))]),
                  _claim("000-i", [rules.identity("the optimal λ* equals β* (γ = 0.8)", 0.7405, 0.995, atol=0.02)]),
                  _claim("000-q", [rules.inequality("ρ(A) < 1", [0.5, 0.9496], "<", 1.0)]),
                  _claim("000-f", [rules.search("no spurious minimum", found=28, tried=96)]))
    texts = {c.id: finding_of(c.subclaims[0]).text for c in led.claims}
    assert texts["000-s"].startswith("LMS error − GLA error -0.1287 (95 % CI [") and "lies below 0" in texts["000-s"]
    assert texts["000-i"] == "the optimal λ* 0.7405 differs from β* 0.995 by 0.2545 (26 %) (tolerance 0.02) (γ = 0.8)"
    assert texts["000-q"] == "it holds at all 2 points; at the tightest, ρ(A) 0.9496 lies below the bound 1"
    assert texts["000-f"] == "28 certified counterexample(s) in 96 search(es)"


def test_a_setting_is_not_read_as_the_statements_relation():
    assert statement_parts("no drift within the prompt at γ = 1", 0.0)["op"] is None
    assert statement_parts("LMS = 0.264 at γ = 0.8", 0.264)["left"] == "LMS"
    assert statement_parts("GLA at λ* approximates the Bayes predictor: error within 10 % (γ = 0.95)")["prefix"] == ""


def test_every_registered_rule_has_a_finding():
    assert [n for n, r in registry.REGISTRY.items() if r.finding is None] == []


# --------------------------------------------------------------------------- remedies
def test_a_remedy_cites_its_numbers_and_reaches_the_letter_and_results_json():
    r = Remedy("describe the error as U-shaped: its minimum is at λ* = {lam}, its maximum at λ = {end}", lam=0.7405,
               end=1.0, clauses=["c1"])
    assert r.text == "describe the error as U-shaped: its minimum is at λ* = 0.7405, its maximum at λ = 1"
    for bad in (lambda: Remedy("no numbers"), lambda: Remedy("{a}", a=1.0, b=2.0), lambda: Remedy("{a} {b}", a=1.0),
                lambda: Remedy("{a}", a=math.nan), lambda: Remedy("{a}", a=True)):
        with pytest.raises(ValueError):
            bad()
    s = rules.identity("λ* = 1", 0.7405, 1.0, clauses=["c1"])
    c = _claim("000-r", [s], clauses=[{"id": "c1", "text": "原文", "kind": "assertion", "asserted": True,
                                       "untested": None, "subclaims": [], "verdict": None, "reason": ""}],
               remedies=[r.as_dict()])
    led = _ledger(c)
    assert "**What would fix it:** describe the error as U-shaped: its minimum is at λ* = 0.7405" in \
        "\n".join(letter(led))
    doc = json.loads(json.dumps({"schema_version": "3.0.0", "generator": "t", "verdicts": [], "rules": {},
                                 "aggregation": "", "papers": {"demo": led.as_dict()}}))
    validate_results(doc)
    assert Claim.from_dict(doc["papers"]["demo"]["claims"][0]).remedies == [r.as_dict()]
    assert "remedies" not in _claim("000-n", [rules.identity("a", 1, 1)]).as_dict()      # old files keep their bytes


def test_run_claim_collects_a_remedy(tmp_path):
    from theorycheck.context import RunContext
    from theorycheck.papers.api import Claims, Paper, run_claim
    (tmp_path / "seed.txt").write_text("x = 1\n", encoding="utf-8")
    claims = Claims()

    @claims.claim("004-x", lines=(1, 1), title="x is one", weight="main")
    def x_is_one(ctx):
        """x = 1."""
        yield rules.identity("x = 1", 2.0, 1.0)
        yield Remedy("state x = {x}", x=2.0)
    paper = Paper(key="demo", seed_id="004", title="Demo", seed=tmp_path / "seed.txt", claims=claims)
    claim = run_claim(paper, claims.specs[0], RunContext(mode="quick", seed=1), {})
    assert claim.error is None, claim.error
    assert claim.remedies == [{"text": "state x = 2", "numbers": {"x": 2.0}, "clauses": []}]


# --------------------------------------------------------------------------- the letters of record, re-rendered
def _record():
    if not (REPORTS / "results.json").exists():
        pytest.skip("reports/results.json absent")
    return load_results(REPORTS / "results.json")


def _statements(c) -> list:
    return [s.statement for s in c.subclaims]


@pytest.mark.parametrize("key", ["gla", "lds", "nonlinear"])
def test_no_point_of_the_letters_of_record_contradicts_its_numbers(key):
    led = _record()[key]
    pts = [p for v in points(led).values() for p in v]
    assert pts
    for p in pts:
        assert contradictions(p.text) == [], (p.claim.id, p.text)
        for lead, f in p.findings:
            assert f.contradicted() == [], (p.claim.id, f.text)
            assert all(c.text in f.text for c in f.comparisons), (p.claim.id, f.text)
            assert f.text in p.text
            for st in _statements(p.claim):
                assert not f.text.startswith(st) and not (lead + f.text).startswith(st), (p.claim.id, st)
        if p.kind in ("major", "minor"):
            assert "**We find instead**" in p.text and "Instead (" not in p.text
            assert re.match(r"Lines? \d+(–\d+)? states? «", p.text), p.text[:80]
    letter_md = "\n".join(letter(led))
    assert contradictions(letter_md) == []
    assert "Decisive numbers" not in letter_md


def test_the_caption_point_of_004_now_says_the_numbers_differ():
    major = {c.id: text for c, text in letter_points(_record()["nonlinear"])["major"]}
    text = major["004-fig1-caption-vs-legend"]
    assert "0.447 differs from caption formula (a₁² + ρ_nl)/a₁² 1.447 by 1" in text and contradictions(text) == []


def test_a_main_claim_refuted_under_one_reading_is_a_major_point_that_leads_with_that_reading():
    subs = [rules.inequality("ξ rises on (0, γ) at d = 10", [0.06], "<=", 1e-3, reading="as written"),
            rules.inequality("ξ rises on (0, γ) as d → ∞", [1e-9], "<=", 1e-3, reading="d large")]
    led = _ledger(_claim("004-two-readings", subs, readings={"as written": "votes", "d large": "votes"}))
    c = led.claims[0]
    assert c.verdict == "inconclusive"
    (p,), minor = points(led)["major"], points(led)["minor"]
    assert not minor and "under the reading «as written» (refuted)" in p.text
    assert p.text.index("«as written»") < p.text.index("«d large»") and contradictions(p.text) == []
    sub = _claim("004-two-readings-supporting", subs, verdict_weight="supporting",
                 readings={"as written": "votes", "d large": "votes"})
    assert [q.claim.id for q in points(_ledger(sub))["minor"]] == ["004-two-readings-supporting"]


@pytest.mark.parametrize("key", ["gla", "lds", "nonlinear"])
def test_the_clause_paragraph_is_said_once_where_the_conventions_are(key):
    md = markdown_report(_record()[key], {})
    assert md.count(CLAUSES_NOTE) == 1 and "Each clause of the fragment" not in md
    assert md.index("## Conventions") < md.index(CLAUSES_NOTE) < md.index("## Claims")
    assert md.count("**Clauses.**") == sum(bool(c.clauses) for c in _record()[key].claims)


def test_index_major_points_have_the_letter_shape(tmp_path):
    led = _ledger(_claim("004-m", [rules.consistency("a = b", 0.447, 1.447, atol=5e-4)]))
    write_reports({"demo": led}, tmp_path, pdf=False)
    idx = (tmp_path / "index.md").read_text(encoding="utf-8")
    assert "**We find instead** (⚠️ inconsistent): first 0.447 differs from second 1.447 by 1" in idx
