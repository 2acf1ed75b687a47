"""Engine-level fault injection: every engine mutant is caught, the checks pass on clean code, and the
patching is fully undone. (Paper mutants are tested with each paper: they must change a verdict.)"""
from __future__ import annotations

import importlib

import pytest

from theorycheck.selftest import Mutant, Patcher, engines as st, run_paper_mutants

MUTANT_IDS = [m.id for m in st.MUTANTS]
CHECK_NAMES = list(st.CHECKS)


def test_catalogue_covers_every_engine():
    assert len(set(MUTANT_IDS)) == len(MUTANT_IDS) >= 10
    assert {"gaussian", "hermite", "montecarlo"} <= {m.area for m in st.MUTANTS}
    for m in st.MUTANTS:
        assert any(c in st.CHECKS for c in m.checks), m.id


@pytest.mark.parametrize("name", CHECK_NAMES)
def test_check_passes_on_unmutated_code(name):
    r = st.run_check(name)
    assert r.available and r.passed, f"{name}: {r.detail} {r.error}"


@pytest.mark.parametrize("mid", MUTANT_IDS)
def test_mutant_is_caught(mid):
    res = st.run_mutant(mid)
    assert res.available and res.caught, f"mutant {mid} ({res.mistake}) escaped every check: " + "; ".join(
        f"{r.name}: {r.detail}" for r in res.results)


def _snapshot():
    out = {}
    for modname in ("theorycheck.gaussian", "theorycheck.montecarlo", "theorycheck.hermite", "theorycheck.validate"):
        mod = importlib.import_module(modname)
        for k, v in vars(mod).items():
            out[(modname, k)] = v
            if isinstance(v, type):
                for k2, v2 in vars(v).items():
                    out[(modname, f"{k}.{k2}")] = v2
    return out


def test_patcher_restores_everything():
    before = _snapshot()
    for m in st.MUTANTS:
        with Patcher() as p:
            m.apply(p)
    after = _snapshot()
    assert not [k for k in before if before[k] is not after.get(k)]


def test_exception_under_mutant_counts_as_detection():
    import theorycheck.gaussian.isserlis as v

    def boom(*a, **k):
        raise RuntimeError("mutated")
    with Patcher() as p:
        p.replace(v, "isserlis_plan", boom)
        r = st.run_check("gaussian.moment-vs-enumeration")
    assert not r.passed and "RuntimeError" in r.error
    assert st.run_check("gaussian.moment-vs-enumeration").passed


def test_paper_mutant_runner_on_a_plugin(fake_plugin):
    """A mutant that changes the verdict is caught; one that changes nothing is reported as not caught."""
    def wrong_target(p):
        p.setattr(fake_plugin, "BEHAVIOUR", {"mode": "refuted"})
    res = run_paper_mutants("fake", [Mutant("fk-wrong", "targets 2", ("fk-g2",), wrong_target),
                                     Mutant("fk-noop", "changes nothing", ("fk-g4",), lambda p: None)])
    by = {m["id"]: m for m in res["mutants"]}
    assert by["fk-wrong"]["caught"] and "confirmed -> refuted" in by["fk-wrong"]["how"][0]
    assert not by["fk-noop"]["caught"] and res["caught"] == 1 and res["total"] == 2
