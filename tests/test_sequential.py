"""Sequential decisions (``theorycheck.verdicts.sequential``): boundaries against published values, the stage-wise
p-value and the repeated CIs, the prefix of one stream, which rules stop, the family check, the calibration cases,
the report's "n used of its maximum"."""
import json
import math

import numpy as np
import pytest
from scipy import stats

from theorycheck.claims import CONFIRMED, INCONCLUSIVE, REFUTED, Claim, Ledger
from theorycheck.report import markdown_report, results_document
from theorycheck.verdicts import calibration, finalize, rules, sequential
from theorycheck.verdicts.aggregate import finding_of
from theorycheck.verdicts.estimate import Estimate
from theorycheck.verdicts.rules import registry
from theorycheck.verdicts.rules.trivial import against_trivial
from theorycheck.verdicts.schema import validate_results
from theorycheck.verdicts.sequential import (NOT_STOPPING, STOPPING, constant_boundaries, design, exit_probabilities,
                                             look_sizes, sequential_estimate, sequential_power)

EQ4 = (0.25, 0.5, 0.75, 1.0)


# --------------------------------------------------------------------------- boundaries
def test_lan_demets_obrien_fleming_boundaries_match_published_values():
    """Two-sided α = 0.05, K = 4: 4.333, 2.963, 2.359, 2.014 (Lan–DeMets O'Brien–Fleming; the ld98 values used in
    rpahl/GroupSeq inst/tinytest/test-legacy_code.R: 4.332634, 2.963129, 2.35902, 2.014057). One-sided α = 0.05:
    PharmCat/SeqBounds.jl README (K = 4) and GroupSeq (K = 3, with its exit probabilities)."""
    two = design(0.05, EQ4, sides=2)
    assert [round(c, 3) for c in two.bounds] == [4.333, 2.963, 2.359, 2.014]
    assert np.allclose(two.bounds, [4.332634, 2.963129, 2.35902, 2.014057], atol=5e-5)
    assert abs(two.spent[-1] - 0.05) < 1e-10
    one = design(0.05, EQ4, sides=1)
    assert np.allclose(one.bounds, [3.74955, 2.53993, 2.01604, 1.72014], atol=5e-5)
    three = design(0.05, (1 / 3, 2 / 3, 1.0), sides=1)
    assert np.allclose(three.bounds, [3.200102, 2.140797, 1.694775], atol=5e-5)
    assert np.allclose(three.spent, [0.0006868949, 0.0163746665, 0.05], atol=1e-9)


def test_classical_obrien_fleming_and_pocock_constants():
    """Jennison & Turnbull (2000) Tables 2.3 and 2.1, K = 4, two-sided α = 0.05: C_B = 2.024 (boundaries 4.049, 2.863,
    2.337, 2.024) and C_P = 2.361; GroupSeq's one-sided Pocock 2.06739 (α = 0.05) and 2.361263 (α = 0.025)."""
    assert [round(c, 3) for c in constant_boundaries("obrien-fleming", 0.05, EQ4)] == [4.049, 2.863, 2.337, 2.024]
    assert round(constant_boundaries("pocock", 0.05, EQ4)[0], 3) == 2.361
    assert abs(constant_boundaries("pocock", 0.05, EQ4, sides=1)[0] - 2.06739) < 1e-4
    assert abs(constant_boundaries("pocock", 0.025, EQ4, sides=1)[0] - 2.361263) < 1e-4


def test_exit_probabilities_under_a_drift_match_the_multivariate_normal_integral():
    c, drift = [4.332634, 2.963129, 2.35902, 2.014057], 0.5
    got = exit_probabilities(c, EQ4, sides=2, drift=drift)
    t = np.array(EQ4)
    cov = np.sqrt(np.minimum.outer(t, t) / np.maximum.outer(t, t))
    for k in (2, 3):
        mv = stats.multivariate_normal(drift * np.sqrt(t[:k]), cov[:k, :k], maxpts=10 ** 6, abseps=1e-11, releps=1e-9)
        up = mv.cdf(np.r_[c[:k - 1], 40.0], lower_limit=np.r_[-np.array(c[:k - 1]), c[k - 1]])
        lo = mv.cdf(np.r_[c[:k - 1], -c[k - 1]], lower_limit=np.r_[-np.array(c[:k - 1]), -40.0])
        assert abs(got[k - 1][0] - up) < 1e-9 and abs(got[k - 1][1] - lo) < 1e-9


def test_stagewise_p_is_uniform_and_close_to_the_fixed_p_at_the_maximum():
    """Under the null the stage-wise p of simulated Brownian paths is uniform; at the first look it is the fixed p;
    at the last look without an earlier crossing it lies in [p_fixed, p_fixed + α spent before the last look]."""
    d = design(0.05, EQ4, sides=1)
    rng = np.random.default_rng(1)
    S = np.cumsum(rng.normal(0.0, math.sqrt(0.25), (4000, 4)), axis=1)
    Z = S / np.sqrt(EQ4)
    ps = []
    for z in Z:
        k = next((j for j in range(4) if z[j] >= d.bounds[j]), 3)
        ps.append(d.stagewise_p(k + 1, z[k]))
    assert stats.kstest(ps, "uniform").pvalue > 0.01
    assert abs(d.stagewise_p(1, 3.9) - stats.norm.sf(3.9)) < 1e-15
    for z in (-1.0, 0.5, 1.5, 1.7):
        p_fixed = stats.norm.sf(z)
        assert p_fixed - 1e-12 <= d.stagewise_p(4, z) <= p_fixed + d.spent[2] + 1e-12


def test_repeated_cis_cover_simultaneously():
    """The 95 % repeated CIs of four looks cover the mean at every look at once in ≥ 95 % of paths (the naive CI at
    every look does not)."""
    rng = np.random.default_rng(2)
    x = rng.normal(0.0, 1.0, (4000, 400))
    sizes = look_sizes(400)
    fr = tuple(n / 400 for n in sizes)
    miss_rci = np.zeros(len(x), bool)
    miss_naive = np.zeros(len(x), bool)
    for k, n in enumerate(sizes, 1):
        m, se = x[:, :n].mean(1), x[:, :n].std(1, ddof=1) / math.sqrt(n)
        miss_rci |= np.abs(m) > sequential.repeated_half_width(1.0, n - 1, fr, k) * se
        miss_naive |= np.abs(m) > stats.t.isf(0.025, n - 1) * se
    assert miss_rci.mean() <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / len(x)) and miss_naive.mean() > 0.07


def test_power_at_the_maximum_is_kept_within_a_tenth_of_a_point():
    d = design(0.01 / sequential.M_PLAN, EQ4, sides=1)
    for u in (d.alpha, 0.01 / 187):
        for power in (0.5, 0.8, 0.9, 0.99):
            drift = stats.norm.isf(u) + stats.norm.isf(1 - power)
            assert power - 1e-3 <= sequential_power(d, drift, u) <= power + 1e-9


# --------------------------------------------------------------------------- staged sampling
def _normal(mu, sd=1.0, cols=None):
    return lambda rng, k0, k1: rng.normal(mu, sd, (k1 - k0,) if cols is None else (k1 - k0, cols))


def test_a_run_to_the_maximum_is_the_one_shot_draw_bit_for_bit():
    """precision 0 forces the run to the maximum: its estimate is the fixed-sample estimate of one call draw(rng, 0,
    n max) bit for bit, its fixed-sample p-values are today's and its p-values move by at most p_shift_bound."""
    draw = lambda rng, k0, k1: (rng.standard_normal((k1 - k0, 5)) ** 2).sum(axis=1) / 5 + 1e-3    # E = 1.001
    decide = lambda e: rules.agreement("E = 1", e, 1.0, margin=0.05)
    got = {}
    sc = sequential_estimate(draw, 10_000, rng=np.random.default_rng(11), decide=decide, precision=1e-12, out=got)
    x = draw(np.random.default_rng(11), 0, 10_000)
    assert got["samples"].tobytes() == x.tobytes()
    one = decide(Estimate.from_samples(x))
    seq = sc.details["sequential"]
    assert seq["n_used"] == seq["n_max"] == 10_000 and seq["look"] == 4 and seq["stopped"] is None
    assert sc.estimate == one.estimate and sc.df == one.df and sc.statistic == one.statistic
    assert seq["ci_fixed"] == one.ci and seq["p_fixed"] == one.p_value
    for side in ("for", "against"):
        assert one.p_value[side] - 1e-12 <= sc.p_value[side] <= one.p_value[side] + seq["p_shift_bound"] + 1e-12
    lo, hi = sc.ci
    assert lo < one.ci[0] and hi > one.ci[1] and (hi - lo) / (one.ci[1] - one.ci[0]) < 1.03     # the repeated CI


def test_stages_are_deterministic_and_batches_stay_whole():
    def run():
        return sequential_estimate(_normal(0.3, cols=8), 4000, rng=np.random.default_rng(5), unit=40,
                                   estimator=lambda x: Estimate.from_batches(x.mean(1).reshape(-1, 40).mean(1), 40),
                                   decide=lambda e: rules.superiority("beats", e), precision=0.05).as_dict()
    a, b = run(), run()
    assert json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True, default=str)
    assert all(n % 40 == 0 for n in a["details"]["sequential"]["sizes"])
    with pytest.raises(ValueError, match="multiple of unit"):
        look_sizes(1000, 4, unit=7)
    with pytest.raises(ValueError, match="samples along its first axis"):
        sequential_estimate(lambda rng, k0, k1: rng.normal(size=3), 100, rng=np.random.default_rng(0),
                            decide=lambda e: rules.superiority("x", e), precision=1.0)


def _fixed(decide, draw, n, seed, family=2):
    """The fixed-sample verdict at n (one sub-claim in a family of ``family`` hypotheses)."""
    return _verdict(decide(Estimate.from_samples(draw(np.random.default_rng(seed), 0, n))), family)


def _verdict(sc, family=2):
    led = Ledger("t", "t", "t", mode="quick", seed=1)
    led.add(Claim(id="t-c", paper="t", lines=(1, 1), title="T", statement="s", subclaims=[sc]))
    finalize(led)
    assert led.decision["hypotheses"] == family
    return sc.verdict


@pytest.mark.parametrize("label, mu, decide, stopped, verdict", [
    ("superiority, a clear effect", 0.5, lambda e: rules.superiority("beats", e), "confirm", CONFIRMED),
    ("superiority, a clear loss", -0.5, lambda e: rules.superiority("beats", e), "refute", REFUTED),
    ("agreement, exact formula", 1.0, lambda e: rules.agreement("= 1", e, 1.0, margin=0.2), "confirm", CONFIRMED),
    ("agreement, far outside the margin", 2.0, lambda e: rules.agreement("= 1", e, 1.0, margin=0.2), "refute",
     REFUTED),
    ("agreement, off but inside the margin", 1.1, lambda e: rules.agreement("= 1", e, 1.0, margin=0.3), "confirm",
     CONFIRMED),
    ("equivalence inside", 0.5, lambda e: rules.equivalence("≈ 0.5", e, 0.5, margin=0.2), "confirm", CONFIRMED),
    ("equivalence outside", 1.2, lambda e: rules.equivalence("≈ 0.5", e, 0.5, margin=0.2), "refute", REFUTED),
    ("difference", 0.6, lambda e: rules.difference("differs", e, 0.0, margin=0.1), "confirm", CONFIRMED),
])
def test_a_stopped_decision_is_the_fixed_sample_decision(label, mu, decide, stopped, verdict):
    draw = _normal(mu)
    sc = sequential_estimate(draw, 8000, rng=np.random.default_rng(3), decide=decide, precision=0.2)
    seq = sc.details["sequential"]
    assert seq["stopped"] == stopped and seq["look"] < 4, (label, seq["reason"])
    assert _verdict(sc) == verdict == _fixed(decide, draw, 8000, 3), label
    assert sc.p_value["for" if stopped == "confirm" else "against"] <= seq["alpha_design"]     # Holm keeps it


def test_what_never_stops_early_runs_to_the_maximum():
    """Inconclusive runs to the maximum; a difference never stops to refute; a vague verb never stops to refute;
    a decision without its precision does not stop."""
    cases = [(_normal(0.2, 1.0), lambda e: rules.agreement("= 0", e, 0.0, margin=0.2, relative=False), 1.0),  # margin
             (_normal(0.0, 0.01), lambda e: rules.difference("differs", e, 0.0, margin=0.5), 1.0),
             (_normal(1.5, 0.01), lambda e: rules.equivalence("≈ 1", e, 1.0, margin=0.05, relative=True,
                                                               verb="matches"), 1.0),
             (_normal(0.5), lambda e: rules.superiority("beats", e), 1e-4)]
    for draw, decide, precision in cases:
        sc = sequential_estimate(draw, 4000, rng=np.random.default_rng(4), decide=decide, precision=precision)
        assert sc.details["sequential"]["n_used"] == 4000 and sc.details["sequential"]["look"] == 4
    decide = lambda e: rules.agreement("= 0", e, 0.0, margin=0.05, relative=False)
    sc = sequential_estimate(_normal(0.02), 4000, rng=np.random.default_rng(4), decide=decide, precision=1.0)
    assert sc.details["sequential"]["look"] == 4
    assert _verdict(sc) == INCONCLUSIVE == _fixed(decide, _normal(0.02), 4000, 4)


def test_trivial_gaps_are_tested_at_the_same_looks():
    """A comparison stops to confirm only when every contender also beats its trivial alternative at the boundary;
    the records carry sequential p-values."""
    def draw2(rng, k0, k1):
        return rng.normal([0.5, 0.3], 1.0, (k1 - k0, 2))
    gap = lambda x: [against_trivial("A", "zero", Estimate.from_samples(x[:, 1]), reference=1.0, relative_margin=0.0)]
    sc = sequential_estimate(draw2, 8000, rng=np.random.default_rng(6), estimator=lambda x: Estimate.from_samples(
        x[:, 0]), decide=lambda e: rules.superiority("A beats B", e), trivial=gap, precision=0.2)
    assert sc.details["sequential"]["stopped"] == "confirm" and len(sc.trivial) == 1
    assert sc.trivial[0]["p"] <= sc.details["sequential"]["alpha_design"]
    assert len(sc.details["sequential"]["trivial_p_fixed"]) == 1
    weak = lambda x: [against_trivial("A", "zero", Estimate.from_samples(x[:, 1] - 0.29), reference=1.0,
                                      relative_margin=0.0)]
    sc = sequential_estimate(draw2, 8000, rng=np.random.default_rng(6), estimator=lambda x: Estimate.from_samples(
        x[:, 0]), decide=lambda e: rules.superiority("A beats B", e), trivial=weak, precision=0.2)
    assert sc.details["sequential"]["look"] == 4          # the contender does not clearly beat the trivial one


# --------------------------------------------------------------------------- rules, family, report
def test_every_registered_rule_says_whether_it_stops():
    names = set(registry.names())
    assert set(STOPPING) | set(NOT_STOPPING) == names and not set(STOPPING) & set(NOT_STOPPING)
    assert all(s.why for s in STOPPING.values()) and all(NOT_STOPPING.values())
    fake = rules.superiority("x", Estimate(1.0, 0.1, 50, 49))
    fake.rule = "asymptotic"
    with pytest.raises(ValueError, match="bootstrap"):
        sequential_estimate(_normal(1.0), 100, rng=np.random.default_rng(0), decide=lambda e: fake, precision=1.0)


def test_finalize_fails_loudly_when_the_family_exceeds_m_plan():
    sc = sequential_estimate(_normal(0.5), 4000, rng=np.random.default_rng(3), m_plan=1,
                             decide=lambda e: rules.superiority("beats", e), precision=1.0)
    led = Ledger("t", "t", "t", mode="quick", seed=1)
    led.add(Claim(id="t-c", paper="t", lines=(1, 1), title="T", statement="s", subclaims=[sc]))
    with pytest.raises(ValueError, match="m_plan = 1"):
        finalize(led)


def test_the_report_and_the_letter_state_n_used_of_its_maximum():
    sc = sequential_estimate(_normal(0.5), 8000, rng=np.random.default_rng(3), precision=0.2,
                             decide=lambda e: rules.superiority("A beats B", e))
    led = Ledger("t", "t", "title", mode="quick", seed=1)
    led.add(Claim(id="t-c", paper="t", lines=(1, 1), title="T", statement="s", quote="q", subclaims=[sc]))
    finalize(led)
    assert "n used 2000 of its maximum 8000 (stopped at look 1 of 4)" in markdown_report(led, {})
    assert "repeated CI" in sc.reason and "n = 2000 of its maximum 8000" in finding_of(sc).sure
    validate_results(json.loads(json.dumps(results_document({"t": led}))))


def test_the_declared_power_drift_of_the_calibration_case_has_design_power_09():
    d = design(0.05, tuple(n / sequential.cases.N_MAX for n in look_sizes(sequential.cases.N_MAX)), sides=1)
    assert abs(sequential_power(d, sequential.cases.POWER_DRIFT, 0.05) - 0.9) < 1e-4


def test_calibration_cases_are_registered_after_the_fixed_sample_cases_and_hold():
    cases = list(calibration.CASES)
    seq = list(sequential.CASES)
    assert cases[-len(seq):] == seq and len(seq) == 6
    for name in ("agreement", "equivalence", "superiority"):
        assert set(sequential.cases.BY_RULE[name]) <= set(registry.get(name).calibration)
    rows = calibration.calibrate(datasets=200, seed=3, cases=seq)
    for r in rows:
        if r["kind"] == "bound":
            assert r["rate"] <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / 200), r
        elif r["kind"] == "power":
            assert r["rate"] >= 0.8, r
        else:
            assert r["rate"] > 0.08, r
