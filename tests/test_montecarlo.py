"""Monte Carlo engine: reproducibility, streaming = batch statistics, calibrated z-tests."""
import math

import numpy as np
import pytest
from scipy import stats

from theorycheck import montecarlo as mc


def chi2_sampler(rng, size):
    return rng.standard_normal(size) ** 2          # mean 1, variance 2


def test_same_seed_same_numbers_and_batch_independent_of_history():
    a = mc.mean(chi2_sampler, 5000, seed=3, batch=700)
    mc.mean(chi2_sampler, 100, seed=99)              # unrelated run in between
    b = mc.mean(chi2_sampler, 5000, seed=3, batch=700)
    assert (a.mean, a.se) == (b.mean, b.se)
    c = mc.mean(chi2_sampler, 5000, seed=4, batch=700)
    assert c.mean != a.mean


def test_streaming_equals_numpy():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1000, 3))
    rm = mc.RunningMean()
    for chunk in np.array_split(x, 7):
        rm.update(chunk)
    est = rm.estimate()
    np.testing.assert_allclose(est.mean, x.mean(0), rtol=1e-12)
    np.testing.assert_allclose(est.se, x.std(0, ddof=1) / math.sqrt(1000), rtol=1e-12)


def test_standard_error_matches_theory():
    est = mc.mean(chi2_sampler, 40_000, seed=1)
    assert abs(est.se - math.sqrt(2 / 40_000)) / math.sqrt(2 / 40_000) < 0.05


def test_compare_verdicts():
    est = mc.MeanEstimate(1.0, 0.01, 1000)
    assert mc.compare(1.0, est).verdict == "agree"
    far = mc.compare(1.05, est)
    assert far.verdict == "disagree" and far.z == pytest.approx(-5.0) and far.p_value < 1e-5
    assert mc.compare(1.02, est, alpha=0.1).verdict == "disagree"


def test_false_alarm_rate_is_nominal():
    # 400 independent exact-vs-MC comparisons of a true null at alpha = 0.05:
    # the number of false alarms is Binomial(400, 0.05); accept its central 99.9% range.
    alarms = sum(not mc.compare(1.0, mc.mean(chi2_sampler, 2000, seed=s, batch=2000), alpha=0.05).agrees
                 for s in range(400))
    lo, hi = stats.binom.ppf([0.0005, 0.9995], 400, 0.05)
    assert lo <= alarms <= hi


def test_ratio_delta_method_coverage():
    # E[2X²]/E[X²+1] = 2/2 = 1; the delta-method 95% CI should cover in ~95% of 300 repetitions
    cover = 0
    for s in range(300):
        rng = np.random.default_rng(s)
        x = rng.standard_normal(500)
        r = mc.ratio(2 * x ** 2, x ** 2 + 1)
        lo, hi = r.ci(0.95)
        cover += lo <= 1.0 <= hi
    lo_b, hi_b = stats.binom.ppf([0.0005, 0.9995], 300, 0.95)
    assert lo_b <= cover <= hi_b


@pytest.mark.parametrize("kw", [dict(n=1), dict(n=10, batch=0), dict(n=10, seed=-1), dict(n=2.5)])
def test_bad_arguments(kw):
    args = dict(n=10, seed=0)
    args.update(kw)
    with pytest.raises(ValueError):
        mc.mean(chi2_sampler, **args)


def test_nan_samples_raise():
    with pytest.raises(ValueError, match="samples must be finite"):
        mc.mean(lambda rng, size: np.full(size, np.nan), 10, seed=0)


def test_sampler_shape_checked():
    with pytest.raises(ValueError, match="first axis"):
        mc.mean(lambda rng, size: np.ones(size + 1), 10, seed=0)


def test_compare_rejects_nonfinite_and_bad_alpha():
    est = mc.MeanEstimate(1.0, 0.1, 10)
    with pytest.raises(ValueError):
        mc.compare(float("nan"), est)
    with pytest.raises(ValueError, match="alpha"):
        mc.compare(1.0, est, alpha=1.5)


def test_progress_silent_when_not_a_tty(capsys, monkeypatch):
    monkeypatch.delenv("THEORYCHECK_PROGRESS", raising=False)
    mc.mean(chi2_sampler, 100, seed=0, batch=10, progress=True)
    assert capsys.readouterr().err == ""
