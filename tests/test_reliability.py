"""Bad input everywhere: every public function with a baseline answers every invalid or extreme argument
with an error naming the parameter or a finite result — no hang, no NaN, no stray exception type.

The theory and model baselines (``theorycheck/reliability/theory.py``, ``models.py``) are fuzzed too once
declared; the coverage test lists the public functions still without one."""
import pytest

from theorycheck.selftest import reliability as R
from theorycheck.validate import check_memory


@pytest.mark.parametrize("part", ["engines", "verdicts"])
def test_no_failures(part):
    res = R.fuzz((part,), jobs=2)
    assert res["functions"] > 10 and res["calls"] > 500
    assert res["failures"] == [], "\n".join(f"{f['fn']}({f['param']}={f['value']}): {f['class']} {f['detail']}"
                                            for f in res["failures"][:40])


def test_every_public_function_has_a_baseline():
    covered = {b.fn for b in R.baselines()}
    assert [f for f in R.public_functions() if f not in covered] == []


def test_classifier_knows_a_hang_a_nan_and_a_stray_exception(monkeypatch):
    monkeypatch.setattr(R, "CALL_LIMIT_S", 0.5)
    import time

    def slow(secs):
        time.sleep(secs)
        return 1.0
    b = R.Baseline(slow, dict(secs=0.0))
    assert R.classify_call(b, "secs", 5.0)[0] == "timeout"
    b = R.Baseline(lambda x: x * 2, dict(x=4.0))
    assert R.classify_call(b, "x", float("nan"))[0] == "nonfinite"
    b = R.Baseline(lambda a, b: a / b, dict(a=1.0, b=2.0))
    assert R.classify_call(b, "b", 0)[0] == "exception"           # ZeroDivisionError is not documented


def test_memory_guard_names_the_parameter(monkeypatch):
    monkeypatch.setenv("THEORYCHECK_MEMORY_GB", "0.001")
    with pytest.raises(ValueError, match=r"n_samples = 1000000 needs about .* THEORYCHECK_MEMORY_GB"):
        check_memory("n_samples", 10 ** 6, 8e6, "the samples")
