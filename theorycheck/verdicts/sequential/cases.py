"""Calibration cases of the sequential rules (a room of :mod:`theorycheck.verdicts.sequential`), run by
:func:`theorycheck.verdicts.calibration.calibrate` like every rule's own cases and written to ``calibration.md``.

Each case applies :func:`~theorycheck.verdicts.sequential.sequential_estimate` to one simulated stream of normal
draws — 4 looks of 10 (n max = 40: Student t with 9 df at the first look, where the significance-level conversion of
t to the design's z scale is least exact), ``precision = inf`` (the most eager stopping rule) — with the design's
level α/m_plan = the calibration level α = 0.05 (``m_plan = 1``), and counts a rejection whenever the sequential
p-value it reports is below α, at an early stop or at the maximum. The cases are registered in their rules'
``calibration`` dicts (so every table still follows the registry); the calibration table lists them after the
fixed-sample cases, whose seeds they therefore leave unchanged.

>>> sorted(CASES)[0]
'sequential agreement: false refutation (formula exact, 4 looks of 10)'
"""
from __future__ import annotations

import math

from scipy import stats

from .. import rules
from ..estimate import Estimate
from ..rules.common import CALIBRATION_ALPHA
from .stopping import look_sizes, sequential_estimate

__all__ = ["CASES", "BY_RULE", "POWER_DRIFT", "N_MAX"]

N_MAX, LOOKS = 40, 4


def _draw(mu):
    return lambda rng, k0, k1: rng.normal(mu, 1.0, k1 - k0)


def _run(rng, mu, decide):
    return sequential_estimate(_draw(mu), N_MAX, rng=rng, decide=decide, precision=math.inf, looks=LOOKS, m_plan=1,
                               alpha=CALIBRATION_ALPHA)


def _agree_null(rng):        # formula exact: the point null holds — must refute at most α of the time
    sc = _run(rng, 1.0, lambda e: rules.agreement("x", e, 1.0, margin=0.5))
    return sc.p_value["against"] < CALIBRATION_ALPHA


def _equiv_margin_for(rng):  # true difference on the margin: TOST must confirm at most α of the time
    sc = _run(rng, 0.3, lambda e: rules.equivalence("x", e, 0.0, margin=0.3))
    return sc.p_value["for"] < CALIBRATION_ALPHA


def _equiv_margin_against(rng):   # true difference on the margin: "outside the margin" must refute at most α
    sc = _run(rng, 0.3, lambda e: rules.equivalence("x", e, 0.0, margin=0.3))
    return sc.p_value["against"] < CALIBRATION_ALPHA


def _sup_null(rng):          # no difference: superiority must confirm at most α of the time
    sc = _run(rng, 0.0, lambda e: rules.superiority("x", e))
    return sc.p_value["for"] < CALIBRATION_ALPHA


def _sup_power(rng):         # the effect of design power 0.9: confirms (≥ 80 % of the time)
    sc = _run(rng, POWER_DRIFT / math.sqrt(N_MAX), lambda e: rules.superiority("x", e))
    return sc.p_value["for"] < CALIBRATION_ALPHA


def _naive_looks(rng):       # contrast: the fixed-sample test at every look, no spending — inflated false refutation
    x = rng.normal(1.0, 1.0, N_MAX)
    for n in look_sizes(N_MAX, LOOKS):
        e = Estimate.from_samples(x[:n])
        if 2 * stats.t.sf(abs(e.mean - 1.0) / e.se, e.df) < CALIBRATION_ALPHA:
            return True
    return False


#: The drift (mean of the final z) at which the sequential superiority design of these cases (one-sided, α = 0.05,
#: 4 looks of 10) has power 0.9 under the normal model, declared (``tests/test_sequential.py`` recomputes it with
#: :func:`~theorycheck.verdicts.sequential.design.sequential_power`); its case checks that the t-based rule keeps power
#: ≥ 0.8 there (the calibration's criterion for power cases). The fixed-sample test would need 2.9264.
POWER_DRIFT = 2.96533


#: rule -> {case: (kind, fn(rng) -> bool)}: the sequential cases, by the rule they calibrate
BY_RULE = {
    "agreement": {"sequential agreement: false refutation (formula exact, 4 looks of 10)": ("bound", _agree_null)},
    "equivalence": {
        "sequential equivalence: false confirmation at the margin (4 looks of 10)": ("bound", _equiv_margin_for),
        "sequential equivalence: false refutation at the margin (4 looks of 10)": ("bound", _equiv_margin_against)},
    "superiority": {
        "sequential superiority: false confirmation (no difference, 4 looks of 10)": ("bound", _sup_null),
        "sequential superiority: power at the effect of design power 0.9 (4 looks of 10)": ("power", _sup_power),
        "sequential looks without spending (the fixed-sample test at each of 4 looks of 10): false refutation":
            ("contrast", _naive_looks)},
}
#: case -> (kind, fn): every sequential case, in the order of the rule registry
CASES = {case: spec for name in rules.registry.names() for case, spec in BY_RULE.get(name, {}).items()}
for _name, _cases in BY_RULE.items():
    rules.registry.get(_name).calibration.update(_cases)
