r"""Sample-size planning: the n at which a statistical rule decides its declared margin with power 0.9.

Given a **pilot** estimate (an :class:`~theorycheck.verdicts.estimate.Estimate` from a small run: its SE and n give
the per-unit standard deviation :math:`s = \mathrm{SE}\sqrt n` — a unit is a sample, or a batch for batch means) and
the rule's declared parameters, :func:`plan` returns the smallest n for which the rule reaches its decision with
probability at least ``power`` when the truth is the assumed difference:

- ``agreement`` (assumed: the formula is exact, δ = 0), ``equivalence`` and ``reproduction`` (assumed: δ = the
  pilot's difference from the target; δ = 0 with ``assume="exact"``): the TOST *for* test confirms,
  :math:`P(|\hat\delta|+q\,\mathrm{SE}<m)\ \ge` power;
- ``superiority``: the one-sided *for* test confirms at the pilot's difference δ > m;
- ``difference``: the two-sided *for* test rejects "no difference" at the pilot's difference;
- ``joint agreement``: every component's TOST confirms (the largest per-component n).

The level is the report's family-wise α divided by the number of hypotheses the report will test (``hypotheses``,
Bonferroni: Holm's first step, the hardest one), Student t with n − 1 degrees of freedom. The answer is a plan, not a
verdict: a rule still decides on the data of the real run.

>>> from theorycheck.verdicts.estimate import Estimate
>>> p = plan("agreement", Estimate(1.01, 0.02, 100, 99), target=1.0, margin=0.01)
>>> p["n"] > 100 * (0.02 / 0.01) ** 2, p["assumed_difference"]
(True, 0.0)
"""
from __future__ import annotations

import math

from scipy import stats

from ..validate import check_choice, check_int, check_real
from .estimate import as_estimate
from .rules.common import FAMILY_ALPHA

__all__ = ["plan", "PLAN_POWER", "PLANNED_RULES", "n_tost", "n_one_sided"]

#: The power a plan aims at.
PLAN_POWER = 0.9
PLANNED_RULES = ("agreement", "equivalence", "reproduction", "superiority", "difference", "joint agreement")
_N_MAX = 10 ** 12


def _q(p: float, df: float) -> float:
    return float(stats.t.isf(p, df))


def _power_tost(n: int, sd: float, delta: float, m: float, alpha: float) -> float:
    se, df = sd / math.sqrt(n), n - 1
    q = _q(alpha, df)
    hi, lo = (m - abs(delta)) / se - q, (-m - abs(delta)) / se + q
    return max(0.0, float(stats.t.cdf(hi, df) - stats.t.cdf(lo, df))) if hi > lo else 0.0


def _power_one_sided(n: int, sd: float, delta: float, m: float, alpha: float) -> float:
    se, df = sd / math.sqrt(n), n - 1
    return float(stats.t.sf(_q(alpha, df) - (delta - m) / se, df))


def _smallest_n(power_at, power: float) -> int | None:
    """The smallest n ≥ 2 with ``power_at(n) ≥ power`` (doubling, then bisection); None beyond 10¹²."""
    lo, hi = 1, 2
    while power_at(hi) < power:
        lo, hi = hi, hi * 2
        if hi > _N_MAX:
            return None
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if power_at(mid) >= power:
            hi = mid
        else:
            lo = mid
    return hi


def n_tost(sd: float, delta: float, margin: float, alpha: float, power: float = PLAN_POWER) -> int | None:
    """Smallest n at which TOST within ±``margin`` confirms with probability ``power`` when the true difference is
    ``delta`` (None: never — |δ| ≥ margin)."""
    if abs(delta) >= margin:
        return None
    return _smallest_n(lambda n: _power_tost(n, sd, delta, margin, alpha), power)


def n_one_sided(sd: float, delta: float, margin: float, alpha: float, power: float = PLAN_POWER) -> int | None:
    """Smallest n at which the one-sided test of "difference > margin" confirms with probability ``power`` when the
    true difference is ``delta`` (None: never — δ ≤ margin)."""
    if delta <= margin:
        return None
    return _smallest_n(lambda n: _power_one_sided(n, sd, delta, margin, alpha), power)


def plan(rule: str, pilot, *, target: float = 0.0, margin: float, relative: bool = False, power: float = PLAN_POWER,
         alpha: float = FAMILY_ALPHA, hypotheses: int = 1, assume: str = "pilot") -> dict:
    """The sample-size plan of ``rule`` for its declared ``margin`` (relative to ``|target|`` when ``relative``) from
    a ``pilot`` estimate: ``{"rule", "n", "pilot_n", "sd", "assumed_difference", "margin", "alpha", "power",
    "note"}``; ``n`` is None when the assumed difference can never be decided in favour of the statement."""
    rule = check_choice("rule", rule, PLANNED_RULES)
    power = check_real("power", power, 0.0, 1.0, low_open=True, high_open=True)
    alpha = check_real("alpha", alpha, 0.0, 1.0, low_open=True, high_open=True)
    hypotheses = check_int("hypotheses", hypotheses, minimum=1)
    assume = check_choice("assume", assume, ("pilot", "exact"))
    target = check_real("target", target)
    tost = rule in ("agreement", "equivalence", "reproduction", "joint agreement")
    m = check_real("margin", margin, low=0.0, low_open=tost) * (abs(target) if relative else 1.0)
    if rule == "joint agreement":
        return _plan_joint(pilot, target, m, power, alpha / hypotheses)
    est = as_estimate(pilot, "pilot")
    if est.se <= 0 or est.n < 2:
        raise ValueError("pilot must be a Monte Carlo estimate with se > 0 and n >= 2")
    sd = est.se * math.sqrt(est.n)
    a = alpha / hypotheses
    delta = 0.0 if (rule == "agreement" or assume == "exact") else est.mean - target
    if rule == "superiority":
        delta = est.mean
        n = n_one_sided(sd, delta, m, a, power)
    elif rule == "difference":
        n = n_one_sided(sd, abs(delta), 0.0, a / 2, power)
    else:
        n = n_tost(sd, delta, m, a, power)
    note = ("never: the assumed difference is not inside the margin (TOST cannot confirm it)" if n is None and rule in
            ("agreement", "equivalence", "reproduction") else "never: the assumed difference does not exceed the margin"
            if n is None else f"n = {n} units (the pilot's unit: {est.n} gave SE {est.se:.4g})")
    return {"rule": rule, "n": n, "pilot_n": est.n, "sd": sd, "assumed_difference": delta, "margin": m, "alpha": a,
            "power": power, "note": note}


def _plan_joint(pilot, target, m, power, a) -> dict:
    """Every component of a joint agreement must pass its TOST: the largest per-component n (``pilot``: a list of
    component estimates; ``target``: the common exact value, or use a list of estimates of differences)."""
    comps = [as_estimate(p, "pilot") for p in pilot]
    ns = []
    for e in comps:
        if e.se <= 0 or e.n < 2:
            raise ValueError("pilot components must be Monte Carlo estimates with se > 0 and n >= 2")
        ns.append(n_tost(e.se * math.sqrt(e.n), 0.0, m, a, power))
    n = None if any(x is None for x in ns) else max(ns)
    return {"rule": "joint agreement", "n": n, "pilot_n": min(e.n for e in comps), "sd": None,
            "assumed_difference": 0.0, "margin": m, "alpha": a, "power": power,
            "note": f"largest of the {len(comps)} components' TOST sample sizes: {ns}"}
