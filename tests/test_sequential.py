"""Sequential decisions (theorycheck.verdicts.sequential): published boundaries, prefixes of one stream, valid
p-values, decisions that agree with the fixed-sample rule, the family guard."""
import numpy as np
import pytest

from theorycheck.claims import Claim, Ledger
from theorycheck.verdicts import Estimate, finalize, rules
from theorycheck.verdicts import sequential as S


def test_boundaries_match_published_values():
    # gsDesign sfLDOF (one-sided 0.025 per side), four equally spaced looks: 4.333, 2.963, 2.359, 2.014
    assert [round(c, 3) for c in S.boundaries(0.05)] == [4.333, 2.963, 2.359, 2.014]
    # Jennison & Turnbull, Table 2.3 / 2.1: O'Brien–Fleming C_B(K, 0.05) and Pocock C_P(K, 0.05)
    assert round(S.constant_boundary(0.05, 2), 3) == 1.977 and round(S.constant_boundary(0.05, 4), 3) == 2.024
    assert round(S.constant_boundary(0.05, 4, "pocock"), 3) == 2.361
    assert round(S.constant_boundary(0.05, 5, "pocock"), 3) == 2.413


def test_a_run_to_the_maximum_is_the_one_shot_draw():
    """Stages are prefixes of one stream: the estimate at n_max is exactly the one-shot estimate, and its p-values
    differ from the fixed-sample ones by at most what the early looks spent."""
    draw = lambda r, k: r.normal(0.0, 1.0, k)            # noqa: E731  (a margin too narrow to confirm early)
    sc = S.staged(rules.agreement, "x", draw, np.random.default_rng(5), 400, 0.0, margin=0.05, relative=False)
    fixed = rules.agreement("x", Estimate.from_samples(np.random.default_rng(5).normal(0.0, 1.0, 400)), 0.0,
                            margin=0.05, relative=False)
    q = sc.details["sequential"]
    assert q["n_used"] == q["n_max"] == 400 and not q["stopped_early"]
    assert sc.estimate == fixed.estimate and sc.n == fixed.n
    assert q["p_fixed"] == fixed.p_value
    assert all(0 <= sc.p_value[k] - fixed.p_value[k] <= q["spent_before"] + 1e-15 for k in fixed.p_value)


def test_an_early_stop_decides_as_the_full_sample_would():
    rng = np.random.default_rng(2)
    sc = S.staged(rules.superiority, "A beats B", lambda r, k: r.normal(1.0, 1.0, k), rng, 4000, margin=0.1,
                  precision=0.2)
    full = rules.superiority("A beats B", Estimate.from_samples(np.random.default_rng(2).normal(1.0, 1.0, 4000)),
                             margin=0.1)
    assert sc.details["sequential"]["stopped_early"] and sc.details["sequential"]["n_used"] == 1000
    assert sc.p_value["for"] < S.nominal_levels()[0] and full.p_value["for"] < 1e-10
    first = Estimate.from_samples(np.random.default_rng(2).normal(1.0, 1.0, 1000))
    assert sc.estimate == first.mean                              # the numbers of the stopping look
    assert (sc.ci[1] - sc.ci[0]) / 2 == pytest.approx(S.boundaries()[0] * first.se)   # the repeated CI, not ±1.96 SE


def test_the_declared_precision_holds_a_decided_sub_claim_back():
    """Decided at the first look (p far below its level) but quoted too imprecisely: it goes on until the repeated
    CI's half-width is at most the declared precision (default: half the margin)."""
    sc = S.staged(rules.superiority, "A beats B", lambda r, k: r.normal(1.0, 1.0, k), np.random.default_rng(2),
                  4000, margin=0.1)
    q = sc.details["sequential"]
    assert q["look"] == 3 and (sc.ci[1] - sc.ci[0]) / 2 <= 0.05 < S.boundaries()[1] * (1 / 2000) ** 0.5


def test_only_the_rules_that_may_stop_are_staged_and_bad_sizes_are_refused():
    with pytest.raises(ValueError, match="rule must be one of"):
        S.staged(rules.asymptotic, "x", lambda r, k: r.normal(size=k), np.random.default_rng(0), 100)
    with pytest.raises(ValueError, match="n_max"):
        S.staged(rules.agreement, "x", lambda r, k: r.normal(size=k), np.random.default_rng(0), 4, 0.0, margin=1.0)
    with pytest.raises(ValueError, match="must return k values"):
        S.staged(rules.agreement, "x", lambda r, k: r.normal(size=k + 1), np.random.default_rng(0), 100, 0.0,
                 margin=1.0)


def test_an_early_stop_in_a_family_larger_than_planned_fails_loudly():
    sc = S.staged(rules.superiority, "A beats B", lambda r, k: r.normal(1.0, 1.0, k), np.random.default_rng(2),
                  4000, margin=0.1, m_plan=1)
    assert sc.details["sequential"]["stopped_early"]
    led = Ledger("t", "t", "T", mode="quick", seed=1)
    led.claims.append(Claim(id="c", paper="t", lines=(1, 1), title="T", statement="s", subclaims=[sc]))
    with pytest.raises(ValueError, match="m_plan = 1"):
        finalize(led)


def test_the_report_states_the_n_used_of_the_maximum():
    sc = S.staged(rules.agreement, "E[g²] = 1", lambda r, k: r.standard_normal(k) ** 2, np.random.default_rng(1),
                  40_000, 1.0, margin=0.2)
    led = Ledger("t", "t", "T", mode="quick", seed=1)
    led.claims.append(Claim(id="c", paper="t", lines=(1, 1), title="T", statement="s", subclaims=[sc]))
    finalize(led)
    assert "n = 10000 of at most 40000, stopped at look 1 of 4" in sc.reason and "repeated CI" in sc.reason
