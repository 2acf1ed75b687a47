"""The run engine: task plans, fixtures, error isolation, identical results for any number of workers."""
import re
import json

import pytest

from theorycheck import papers
from theorycheck.report import results_document
from theorycheck.run import plan, run_papers


def test_plan_orders_fixtures_before_claims(fake_plugin):
    ts = plan([papers.load("fake")], "quick")
    assert [t.kind for t in ts] == ["fixture", "claim", "claim"] + ["stress"] * 5 + ["path"]
    assert ts[1].deps == (ts[0].id,) and ts[0].id == "fake:fixture:draws"
    assert ts[-1].deps == tuple(t.id for t in ts[3:8])          # the path is decided from its five points


def test_run_fake_paper(fake_plugin):
    out = run_papers(["fake"], "quick", 5)
    led = out.ledgers["fake"]
    assert [c.verdict for c in led.claims] == ["confirmed", "confirmed"]
    assert not out.failed and len(out.figures["fake"]) == 2
    assert out.figures["fake"][0]["caption"].startswith("Histogram of 40000")
    assert led.parameters == {"n": 40000} and led.preliminary


def test_an_error_is_isolated_and_fails_the_run(fake_plugin):
    fake_plugin.BEHAVIOUR["mode"] = "raise"
    out = run_papers(["fake"], "quick", 5)
    led = out.ledgers["fake"]
    g2, g4 = led.claims
    assert g2.withheld and "boom" in g2.error and g4.verdict == "confirmed" and out.failed


def test_failed_self_check_fails_the_run(fake_plugin):
    fake_plugin.BEHAVIOUR["mode"] = "selfcheck-fails"
    out = run_papers(["fake"], "quick", 5)
    assert out.ledgers["fake"].self_check_failed and out.failed and out.ledgers["fake"].claims[0].withheld


def test_refutation_is_a_result_not_a_failure(fake_plugin):
    fake_plugin.BEHAVIOUR["mode"] = "refuted"
    out = run_papers(["fake"], "quick", 5)
    assert out.ledgers["fake"].claims[0].verdict == "refuted" and not out.failed


def test_claim_selection_runs_needed_fixtures_only(fake_plugin):
    out = run_papers(["fake"], "quick", 5, claim_ids=["fk-g4"])
    assert list(out.tasks) == ["fake:claim:fk-g4"]
    with pytest.raises(ValueError, match="unknown claim"):
        run_papers(["fake"], "quick", 5, claim_ids=["nope"])


def _results(keys, jobs, claim_ids=None):
    out = run_papers(keys, "quick", 11, jobs=jobs, claim_ids=claim_ids)
    return json.dumps(results_document(out.ledgers), sort_keys=True)


def test_results_identical_for_any_number_of_workers():
    key = "nonlinear"
    ids = [s.id for s in papers.load(key).claims][:4]
    assert _results([key], 1, ids) == _results([key], 2, ids)


def test_assumption_map_finds_the_planted_breaking_point(fake_plugin):
    out = run_papers(["fake"], "quick", 5)
    g2 = out.ledgers["fake"].claims[0]
    (a,) = g2.assumptions
    (decl,) = out.ledgers["fake"].claims[1].assumptions          # declared, not stressed: still listed
    assert decl == {"name": "g is Gaussian", "stated": True, "seed_lines": [3, 3], "uses": "Isserlis", "path": None}
    assert a["breaking_point"] == {"status": "breaks", "value": 0.15, "bracket": [0.08, 0.15]}
    assert not a["stated"] and not a["necessary"] and not a["finding"]
    assert [p["verdict"] for p in a["points"]] == ["confirmed"] * 3 + ["refuted"] * 2
    assert g2.verdict == "confirmed"             # an assumption map never changes the claim's verdict
    assert any(f["stem"].startswith("assume_fk_g2_unit_variance_of_g_1_") for f in out.figures["fake"])
    # a non-ASCII assumption name ("σ²") still gives a stem LaTeX can include
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+", f["stem"]) for f in out.figures["fake"])


def test_a_failed_stress_point_is_recorded_on_its_claim(fake_plugin):
    fake_plugin.BEHAVIOUR["mode"] = "stress-raises"
    out = run_papers(["fake"], "quick", 5)
    g2 = out.ledgers["fake"].claims[0]
    (a,) = g2.assumptions
    assert a["name"] == "unit variance of g (σ² = 1)" and a["path"] == "g with variance 1 + v"
    assert not a["stated"] and a["seed_lines"] is None and "stress boom" in a["error"]
    assert g2.verdict == "confirmed"             # the claim's own verdict is unaffected


def test_reconciliation_recovers_a_planted_setting(fake_plugin):
    out = run_papers(["fake"], "quick", 5)
    (rec,) = out.ledgers["fake"].claims[1].reconciliations
    assert rec["found"] and abs(rec["best"]["a"] - 1.5) < 0.05 and rec["evaluations"] <= 60


def test_stress_paths_must_return_a_subclaim_and_reference_declared_assumptions(fake_plugin):
    from theorycheck.papers.api import Claims
    cl = Claims()
    import pytest as _pt
    with _pt.raises(ValueError, match="seed lines"):
        cl.assumption("x", "y", stated=True)


def test_a_fixture_selects_the_parameters_of_another_it_reads():
    """``select``: the task of parameter p depends on, receives and is keyed by only the selected pieces."""
    from theorycheck.context import RunContext
    from theorycheck.papers.api import Claims
    from theorycheck.run.tasks import TaskResult, _inputs

    claims = Claims()

    @claims.fixture(params=[(d, j) for d in (1, 2) for j in range(3)])
    def bank(ctx, param):
        return param

    @claims.fixture(params=[1, 2, 3], needs=("bank",), select={"bank": lambda d, q: q[0] == d})
    def search(ctx, d, bank):
        return sorted(bank)

    @claims.claim("x-1", lines=1, needs=("search",), title="t", weight="main")
    def c(ctx, search):
        """s."""

    class Stub:                                   # what plan() reads of a paper
        key = "stub"

        def __init__(self, claims):
            self.claims = claims

        def validate(self):
            pass

    from theorycheck.run.tasks import plan as task_plan
    ts = {t.id: t for t in task_plan([Stub(claims)], "quick")}
    assert ts["stub:fixture:search[1]"].deps == tuple(f"stub:fixture:bank[(1, {j})]" for j in range(3))
    assert ts["stub:fixture:search[3]"].deps == ()                  # nothing selected: {} (no task to wait for)
    assert len(ts["stub:claim:x-1"].deps) == 3                      # a claim gets every parameter
    deps = {i: TaskResult(i, value=((1, j), f"v{j}")) for j in range(3) for i in [f"stub:fixture:bank[(1, {j})]"]}
    kw = _inputs(Stub(claims), claims.fixtures["search"], 1, deps, RunContext(mode="quick"))
    assert kw == {"bank": {(1, 0): "v0", (1, 1): "v1", (1, 2): "v2"}}
    assert _inputs(Stub(claims), claims.fixtures["search"], 3, {}, RunContext(mode="quick")) == {"bank": {}}
    with pytest.raises(TypeError, match="select must map"):
        claims.fixture(lambda ctx: 0, name="bad", select={"bank": 3})


def test_select_is_validated_by_the_paper(fake_plugin):
    p = papers.load("fake")
    p.claims.fixture(lambda ctx, draws: 0, name="sel", params=[1], needs=("draws",), select={"draws": lambda a, b: 1})
    try:
        with pytest.raises(ValueError, match="select needs parameters on both sides"):
            p.validate()
        p.claims.fixtures["sel"].select = {"other": lambda a, b: 1}
        with pytest.raises(ValueError, match="selects parameters of 'other', which it does not need"):
            p.validate()
    finally:
        del p.claims.fixtures["sel"]
