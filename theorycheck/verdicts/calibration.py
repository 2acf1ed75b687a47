r"""Known-answer calibration of the statistical rules: false alarms and power on simulated data.

For each statistical rule, many datasets are simulated where the truth is known, the rule is
applied at a fixed, *unadjusted* level α (multiplicity is a separate layer), and the rates of its
conclusions are counted with exact Clopper–Pearson intervals:

* **false refutation** — the statement is true (on the boundary of what the rule may refute)
  and the rule rejects it; must not exceed α;
* **false confirmation** — the statement is false (on the boundary of what the rule may confirm)
  and the rule confirms it; must not exceed α;
* **power** — the statement is true with room to spare (or clearly false) and the rule decides it;
* **contrast** — what a normal (z) reference instead of Student t does at n = 10: an inflated
  false-alarm rate (the reason the rules use the estimate's degrees of freedom).

Small samples on purpose (n = 5–30, 3–6 sizes for the asymptotic rule), where a normal instead of a
Student t reference would show up as an inflated false-alarm rate. :func:`calibrate` returns the table;
``theorycheck selftest`` writes it to ``calibration.md`` (:func:`theorycheck.selftest.calibration.write_calibration`).
The cases are declared by each rule in its own module (``Rule.calibration``); :data:`CASES` is derived from the
rule registry.

**When a case fails** (rule declared in :data:`CRITERION`): each *bound* case is a one-sided exact
binomial test of :math:`H_0:\ \text{rate}\le\alpha`, each *power* case of
:math:`H_0:\ \text{rate}\ge 0.8`; a case fails when its hypothesis is rejected after Holm's
step-down adjustment over all bound and power cases at family-wise level :data:`FWER` — a
perfectly calibrated rule set then raises a false alarm with probability at most 5 % per selftest,
instead of the ≈ 1 − 0.975⁹ ≈ 20 % of the earlier per-case criterion (lower end of an unadjusted
95 % interval above α). The *contrast* case must show its inflation: unadjusted one-sided test of
:math:`H_0:\ \text{rate}\le\alpha` rejected at 5 %.

>>> rows = calibrate(datasets=200, seed=1, cases=["agreement: false refutation"])
>>> rows[0]["case"], 0 <= rows[0]["rate"] <= 1
('agreement: false refutation', True)
"""
from __future__ import annotations

import numpy as np
from scipy import stats

from . import rules, sequential
from .rules.common import CALIBRATION_ALPHA

__all__ = ["calibrate", "CASES", "ALPHA", "FWER", "POWER", "CRITERION"]

ALPHA = CALIBRATION_ALPHA   # the unadjusted level at which each rule is applied to each dataset
FWER = 0.05           # family-wise level of the selftest's own pass/fail decision over the cases
POWER = 0.8           # a power case must decide correctly at least this often
CRITERION = ("bound case: one-sided exact binomial test of rate ≤ α; power case: of rate ≥ 0.8; a case fails when "
             "its test rejects after Holm's adjustment over all bound and power cases at family-wise level 0.05 "
             "(declared 2026-12-01; until then a bound case failed when the lower end of its unadjusted 95 % "
             "Clopper–Pearson interval exceeded α, a ≈ 20 % family-wise false-alarm rate over nine bound cases). "
             "Contrast case: must show inflation, one-sided test of rate ≤ α rejected at 5 %, unadjusted.")


#: case -> (kind, fn(rng) -> bool): every registered rule's calibration cases, in registry order — the fixed-sample
#: cases first, then the sequential ones (:mod:`theorycheck.verdicts.sequential.cases`, registered in their rules'
#: dicts too), so that adding them left the seeds (the case's index) of the earlier cases unchanged
CASES = {case: spec for rule in rules.registry.REGISTRY.values() for case, spec in rule.calibration.items()
         if case not in sequential.CASES}
CASES.update(sequential.CASES)


def calibrate(datasets: int = 2000, seed: int = 20261201, cases=None) -> list[dict]:
    """Rates of each case over ``datasets`` simulated datasets, with 95 % Clopper–Pearson intervals.

    Each row carries the one-sided p-value of its hypothesis (``p``), the Holm-adjusted p-value over
    the bound and power cases run together (``p_holm``) and ``ok`` per :data:`CRITERION`.
    """
    from statsmodels.stats.multitest import multipletests  # heavy: statsmodels takes ~1 s to import
    out = []
    for i, name in enumerate(cases or CASES):
        kind, fn = CASES[name]
        rng = np.random.default_rng(np.random.SeedSequence([seed, i]))
        hits = sum(bool(fn(rng)) for _ in range(datasets))
        ci = stats.binomtest(hits, datasets).proportion_ci(0.95, method="exact")
        if kind == "power":
            p = stats.binomtest(hits, datasets, POWER, alternative="less").pvalue
        else:
            p = stats.binomtest(hits, datasets, ALPHA, alternative="greater").pvalue
        out.append({"case": name, "kind": kind, "datasets": datasets, "hits": hits, "rate": hits / datasets,
                    "ci95": [float(ci.low), float(ci.high)], "alpha": ALPHA, "p": float(p), "p_holm": None})
    family = [r for r in out if r["kind"] in ("bound", "power")]
    if family:
        reject, p_holm, _, _ = multipletests([r["p"] for r in family], alpha=FWER, method="holm")
        for r, rej, ph in zip(family, reject, p_holm):
            r["p_holm"], r["ok"] = float(ph), not bool(rej)
    for r in out:
        if r["kind"] == "contrast":
            r["ok"] = r["p"] < 0.05
    return out
