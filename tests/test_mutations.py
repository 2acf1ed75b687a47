"""Fault injection: every deliberate mistake of theorycheck.selftest.MUTANTS must be caught.

Each mutant monkeypatches the real code for the duration of one run (theorycheck.selftest.Patcher,
restored afterwards); the consistency checks (exact vs Monte Carlo, identities, limits, known
values) are then run on the mutated code. On the unmutated code every check must pass — otherwise
the check itself would be a false alarm. The false-alarm calibration of the Monte Carlo comparisons
is tested at the end (binomial test of the observed rate against the nominal alpha).
"""
from __future__ import annotations

import importlib

import numpy as np
import pytest
from scipy import stats

from theorycheck import selftest as st

MUTANT_IDS = [m.id for m in st.MUTANTS]
CHECK_NAMES = list(st.CHECKS)


def test_catalogue_size_and_coverage():
    assert len(st.MUTANTS) >= 12
    assert len(set(MUTANT_IDS)) == len(MUTANT_IDS)
    papers = {m.paper for m in st.MUTANTS}
    assert {"000", "001", "004", "engine"} <= papers
    for m in st.MUTANTS:
        assert m.checks and all(c in st.CHECKS for c in m.checks), m.id


@pytest.mark.parametrize("name", CHECK_NAMES)
def test_check_passes_on_unmutated_code(name):
    r = st.run_check(name)
    if not r.available:
        pytest.skip(r.detail)
    assert r.passed, f"{name}: {r.detail} {r.error}"


@pytest.mark.parametrize("mid", MUTANT_IDS)
def test_mutant_is_caught(mid):
    res = st.run_mutant(mid)
    if not res.available:
        pytest.skip(res.note)
    assert res.caught, f"mutant {mid} ({res.mistake}) escaped every check: " + "; ".join(
        f"{r.name}: {r.detail}" for r in res.results)


def _snapshot():
    """Identity of every public function/class attribute of the engines (to prove restoration)."""
    out = {}
    for modname in ("theorycheck.gaussian", "theorycheck.montecarlo", "theorycheck.hermite",
                    "theorycheck.nonlinear", "theorycheck.lds", "theorycheck.gla"):
        try:
            mod = importlib.import_module(modname)
        except ImportError:
            continue
        for k, v in vars(mod).items():
            out[(modname, k)] = v
            if isinstance(v, type):
                for k2, v2 in vars(v).items():
                    out[(modname, f"{k}.{k2}")] = v2
    return out


def test_patcher_restores_everything():
    before = _snapshot()
    for mid in MUTANT_IDS:
        m = st.MUTANTS_BY_ID[mid]
        ok, _ = st._available(m.needs)
        if not ok:
            continue
        with st.Patcher() as p:
            m.apply(p)
    after = _snapshot()
    changed = [k for k in before if before[k] is not after.get(k)]
    assert not changed, changed


def test_exception_under_mutant_counts_as_detection():
    import theorycheck.validate as v

    def boom(*a, **k):
        raise RuntimeError("mutated")
    with st.Patcher() as p:
        p.replace(v, "check_int", boom)
        r = st.run_check("gaussian.moment-vs-enumeration")
    assert not r.passed and "RuntimeError" in r.error
    assert st.run_check("gaussian.moment-vs-enumeration").passed


def test_report_is_deterministic(tmp_path):
    subset = [st.MUTANTS_BY_ID[i] for i in ("montecarlo-se-is-sd", "montecarlo-ddof0", "gaussian-cycle-factor")]
    a, b = tmp_path / "a", tmp_path / "b"
    st.write_selftest_report(a, st.run_selftest(subset))
    st.write_selftest_report(b, st.run_selftest(subset))
    for name in ("selftest.md", "selftest.json"):
        assert (a / name).read_bytes() == (b / name).read_bytes()
    text = (a / "selftest.md").read_text()
    assert "Catch rate: 3 / 3" in text and "`montecarlo-ddof0`" in text


# --------------------------------------------------------------------------- calibration
WELL_BEHAVED = ["gaussian.moment E[X0^2 X1 X2]", "gaussian.expect_product E[y_5^2 S^2]",
                "gla.train_error vs simulate_gla", "lds per-system moment N vs Monte Carlo",
                "nonlinear rho_nl vs Monte Carlo"]


def _case(name):
    for c in st.CALIBRATION_CASES:
        if c.name == name:
            return c
    raise KeyError(name)


def _binom_ok(k, n, alpha, level=1e-3):
    return stats.binomtest(k, n, alpha).pvalue >= level


@pytest.mark.parametrize("name", WELL_BEHAVED)
def test_false_alarm_rate_is_nominal(name):
    """200 seeds at small sizes; false alarms at alpha = 0.05 are Binomial(200, 0.05) if calibrated;
    the p-values must also be uniform (KS). Rejection level 1e-3 for both tests."""
    case = _case(name)
    ok, missing = st._available(case.needs)
    if not ok:
        pytest.skip(missing)
    data = st.calibrate(200, cases=[case])
    c = data["cases"][0]
    row = {r["alpha"]: r for r in c["rows"]}
    assert _binom_ok(row[0.05]["alarms"], 200, 0.05), row[0.05]
    assert c["ks_p"] >= 1e-3, c


@pytest.mark.xfail(reason="known: the delta-method z-test of the W_QK* ratio of heavy-tailed 4th/6th-order "
                          "products is anti-conservative at n = 4000 (z variance ~1.8, bias ~+0.4 SE); "
                          "see reports/calibration.md", strict=False)
def test_false_alarm_rate_lds_ratio_small_n():
    case = _case("lds.wqk_star vs simulate_wqk_star (n = 4000)")
    ok, missing = st._available(case.needs)
    if not ok:
        pytest.skip(missing)
    c = st.calibrate(200, cases=[case])["cases"][0]
    row = {r["alpha"]: r for r in c["rows"]}
    assert _binom_ok(row[0.05]["alarms"], 200, 0.05)


def test_calibration_report(tmp_path):
    data = st.calibrate(20, cases=[_case("nonlinear rho_nl vs Monte Carlo")])
    md, js = st.write_calibration_report(tmp_path, data)
    text = md.read_text()
    assert "| 0.05 |" in text and "Pooled" in text
    assert np.isfinite(data["pooled"][0]["rate"])


@pytest.mark.slow
def test_paper_level_detection_gla(tmp_path):
    """The GLA paper's own ledger notices the halved-loss mutant (a verdict changes)."""
    try:
        from theorycheck import papers
        papers.load("gla")
    except Exception as e:  # noqa: BLE001
        pytest.skip(f"paper module gla not available: {e}")
    data = st.paper_level([st.MUTANTS_BY_ID["gla-halved-loss"]], progress=False)
    rec = data["mutants"][0]
    assert rec["available"] and rec["noticed"], rec
    md, _ = st.write_paper_level_report(tmp_path, data)
    assert "gla-halved-loss" in md.read_text()
