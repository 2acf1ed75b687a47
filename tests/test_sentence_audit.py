"""Test what the sentence says (issue 21): the verdict engine enforces clause coverage, conditions' resolution,
trivial baselines, provenance-typed parameters, negatives, readings, extents and figure overlays — whatever the
claim's author forgot to declare."""
import json

import pytest

from theorycheck.claims import Claim, Clause, Ledger, Param, SubClaim
from theorycheck.papers.api import Claims, Paper
from theorycheck.verdicts import Estimate, finalize, rules
from theorycheck.verdicts.rules.trivial import against_trivial
from theorycheck.verdicts.schema import validate_results

SIGMA = Param("sigma_w2", 1.0, "chosen", "the seed gives no prior scale", admissible=(0.01, 100.0))
GAMMA = Param("gamma", 0.8, "stated", "line 60")


def _claim(subs, clauses=(), readings=None, cid="t-1"):
    cl = [{"id": c.id, "text": c.text, "kind": c.kind, "asserted": c.asserted, "untested": c.untested,
           "subclaims": [], "verdict": None, "reason": ""} for c in clauses]
    return Claim(id=cid, paper="t", lines=(1, 1), statement="s", title="t", quote="q", subclaims=list(subs), clauses=cl,
                 readings=dict(readings or {}))


def _decide(claim):
    led = Ledger("t", "t", "T", mode="quick", seed=1)
    led.add(claim)
    finalize(led)
    return claim


def test_refutation_on_a_chosen_param_without_extent_is_not_reproduced():
    bad = rules.identity("train error at the stated γ", 1.0, 2.0, params=[SIGMA, GAMMA])
    assert bad.chosen == {"sigma_w2": 1.0} and bad.params["gamma"]["provenance"] == "stated"
    c = _decide(_claim([bad]))
    assert c.verdict == "not reproduced"
    partial = rules.identity("x", 1.0, 2.0, params=[SIGMA],
                             extent={"searched": {"sigma_w2": [0.1, 100.0]}, "holds_throughout": True})
    assert _decide(_claim([partial])).verdict == "not reproduced"      # the search missed part of the range
    whole = rules.identity("x", 1.0, 2.0, params=[SIGMA],
                           extent={"searched": {"sigma_w2": [0.01, 100.0]}, "holds_throughout": True})
    assert _decide(_claim([whole])).verdict == "refuted"


def test_schema_rejects_a_refutation_on_chosen_values_without_extent():
    from theorycheck.report import results_document
    sc = rules.identity("x", 1.0, 2.0, chosen={"a": 1})
    c = _claim([sc])
    led = finalize(Ledger("t", "t", "T", mode="quick", seed=1).add(c))
    assert c.verdict == "not reproduced"
    validate_results(results_document({"t": led}))
    sc.verdict = c.verdict = "refuted"          # as a hand-edited or foreign results.json would have it
    with pytest.raises(ValueError, match="extent"):
        validate_results(results_document({"t": led}))
    sc.extent = {"searched": {"a": [1, 1]}, "holds_throughout": True}
    validate_results(results_document({"t": led}))


def test_an_untested_asserted_clause_cannot_be_confirmed():
    ok = rules.identity("a", 1, 1, clauses="c1")
    c = _decide(_claim([ok], [Clause("c1", "A holds", "assertion"), Clause("c2", "so B", "inference")]))
    assert c.verdict == "inconclusive" and "c2" in c.reason and "not tested" in c.reason
    c = _decide(_claim([rules.identity("a", 1, 1, clauses="c1")],
                       [Clause("c1", "A holds"), Clause("c2", "so B", "inference", untested="needs the data")]))
    assert c.verdict == "inconclusive" and "needs the data" in c.reason
    c = _decide(_claim([rules.identity("a", 1, 1, clauses="c1")],
                       [Clause("c1", "A holds"), Clause("c2", "as in [3]", asserted=False)]))
    assert c.verdict == "confirmed"


def test_a_narrower_confirmation_does_not_confirm_the_clause():
    s = rules.identity("a at γ ≥ 0.9", 1, 1, narrowed="γ ≥ 0.9 only; the sentence states no range")
    c = _decide(_claim([s], [Clause("c1", "A holds")]))
    assert c.verdict == "inconclusive" and "narrower" in c.reason


def test_a_negative_cannot_be_confirmed():
    s = rules.identity("the unconstrained optimum is not realisable", 1, 1)
    c = _decide(_claim([s], [Clause("c1", "no closed form", "negative")]))
    assert c.verdict == "inconclusive" and "cannot be confirmed by computation" in c.reason


def test_a_comparison_whose_contenders_do_not_beat_the_trivial_alternative_is_not_confirmed():
    gap_rls = against_trivial("RLS", "predict zero", Estimate(-0.0038, 0.001, 400, 399), reference=0.2778,
                              relative_margin=0.02)
    gap_gla = against_trivial("GLA", "predict zero", Estimate(0.1, 0.001, 400, 399), reference=0.2778,
                              relative_margin=0.02)
    s = rules.superiority("GLA beats RLS", Estimate(0.1, 0.001, 400, 399), trivial=[gap_gla, gap_rls])
    c = _decide(_claim([s]))
    assert s.verdict == "inconclusive" and "RLS vs predict zero" in s.reason and "does not beat it" in s.reason
    assert c.verdict == "inconclusive"
    g_gla, g_rls = s.trivial
    assert g_gla["beats"] is True and g_rls["beats"] is False and g_rls["p_adjusted"] >= g_rls["p"]
    s2 = rules.superiority("GLA beats RLS", Estimate(0.1, 0.001, 400, 399), trivial=[gap_gla])
    assert _decide(_claim([s2])).verdict == "confirmed"


def test_a_grid_coarser_than_its_declared_resolution_is_rejected():
    xs = [0.0, 0.5, 1.0]
    with pytest.raises(ValueError, match="coarser than the declared resolution"):
        rules.shape("U", xs, [1.0, 0.5, 0.8], shape="unimodal-minimum", resolution=1e-4)
    s = rules.shape("U", xs, [1.0, 0.5, 0.8], shape="unimodal-minimum", resolution=0.5)
    assert s.details["x_argmin"] == 0.5
    assert "minimum at x = 0.5" in _decide(_claim([s])).subclaims[0].reason


def test_a_stress_path_coarser_than_its_resolution_is_rejected():
    from theorycheck.assumptions import StressSpec
    st = StressSpec("c", "a", "p", "v", [0.0, 0.1, 0.5], resolution=0.1)
    with pytest.raises(ValueError, match="coarser than the declared resolution"):
        st.value_list(None)


def test_a_ruled_out_reading_does_not_vote_and_equal_readings_are_one():
    raw = rules.identity("raw MSE U-shaped", 1, 2, reading="raw MSE")
    a1 = rules.shape("÷a₁²", [0, 1, 2], [1.0, 0.5, 0.8], shape="unimodal-minimum", reading="÷a₁²")
    ey = rules.shape("÷E[y²]", [0, 1, 2], [1.0, 0.5, 0.8], shape="unimodal-minimum", reading="÷E[y²]")
    c = _decide(_claim([raw, a1, ey], readings={"raw MSE": "ruled out: the revision note excludes raw MSE"}))
    assert c.verdict == "confirmed"
    assert c.readings == {"raw MSE": "ruled out: the revision note excludes raw MSE", "÷a₁²": "votes",
                          "÷E[y²]": "same estimate as ÷a₁²"}
    c = _decide(_claim([rules.identity("raw", 1, 2, reading="raw MSE"), rules.identity("b", 1, 1, reading="b")]))
    assert c.verdict == "inconclusive" and "disagree" in c.reason      # without the declaration both vote


def _tiny_paper(tmp_path, **claim_kw):
    seed = tmp_path / "seed.txt"
    seed.write_text("Title line\n\nThe fourth moment is 3, so the tails are light. It is new.\n", encoding="utf-8")
    cl = Claims()

    @cl.claim("t-1", lines=(3, 3), fragment="The fourth moment is 3, so the tails are light.", title="Fourth moment",
              weight="main", **claim_kw)
    def one(ctx):
        """E[g⁴] = 3."""
        yield rules.identity("E[g⁴] = 3", 3, 3)
    return Paper(key="tiny", seed_id="tiny", title="Tiny", claims=cl, seed=seed), cl


def test_clauses_must_cover_the_fragment_verbatim(tmp_path):
    p, _ = _tiny_paper(tmp_path, clauses=[Clause("c1", "The fourth moment is 3")])
    with pytest.raises(ValueError, match="do not cover the fragment"):
        p.validate()
    p, _ = _tiny_paper(tmp_path, clauses=[Clause("c1", "The fourth moment is three")])
    with pytest.raises(ValueError, match="not a verbatim substring"):
        p.validate()
    p, _ = _tiny_paper(tmp_path, clauses=[Clause("c1", "The fourth moment is 3"),
                                          Clause("c2", "so the tails are light", "inference")])
    p.validate()


def test_a_figure_overlay_without_its_agreement_subclaim_fails(tmp_path):
    from theorycheck.context import RunContext
    from theorycheck.papers.api import run_claim
    p, cl = _tiny_paper(tmp_path, overlays=["Figure 2: theory curve over the simulation"])
    claim = run_claim(p, cl.get("t-1"), RunContext(), {})
    assert claim.error and "no agreement sub-claim" in claim.error


def test_seed_coverage_lists_every_unassigned_sentence(tmp_path):
    p, cl = _tiny_paper(tmp_path)
    cov = p.coverage()
    assert cov["sentences"] == 3 and [u["text"] for u in cov["unassigned"]] == ["Title line", "It is new."]
    cl.not_a_claim(1, "heading or metadata")
    cl.restates(3, "t-1", fragment="It is new.")
    p.validate()
    assert p.coverage()["unassigned"] == []
    with pytest.raises(ValueError, match="reason must be one of"):
        cl.not_a_claim(1, "boring")


def test_params_declare_their_provenance():
    with pytest.raises(ValueError, match="admissible range"):
        Param("s", 1.0, "chosen", "why")
    with pytest.raises(ValueError, match="provenance"):
        Param("s", 1.0, "guessed", "why")
    assert json.dumps(SIGMA.as_dict())


def test_reproduction_takes_params_and_derives_chosen():
    """The printed-number rule accepts Params like every rule (it delegates to the equivalence rule)."""
    p = Param("mu", 0.1, "chosen", "the seed gives no step size", admissible=(0.0, 1.0))
    s = rules.reproduction("LMS = 0.264", Estimate(0.2642, 0.0001, 10_000, 9_999), "0.264", params=[p])
    assert s.chosen == {"mu": 0.1} and s.params["mu"]["provenance"] == "chosen"
    assert s.details["stated"] == "0.264" and s.rule == "reproduction"
@pytest.mark.parametrize("kw,message", [
    ({"title": "", "weight": "main"}, "title is required"),
    ({"title": "x" * 91, "weight": "main"}, "title is required"),
    ({"title": "Fourth moment", "weight": None}, "weight is required"),
    ({"title": "Fourth moment", "weight": "major"}, "weight is required"),
])
def test_title_and_weight_are_required(kw, message):
    """Every claim declares a title of at most 90 characters (never cut from the statement) and a weight."""
    cl = Claims()
    with pytest.raises(ValueError, match=message):
        cl.claim("t-1", lines=(1, 1), **kw)


def test_a_claim_record_without_title_is_refused():
    with pytest.raises(ValueError, match="title is required"):
        Claim(id="t-1", paper="t", lines=(1, 1), statement="The fourth moment is 3. It is new.")
