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
``theorycheck selftest`` writes it to ``calibration.md``.

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

from . import rules
from .estimate import Estimate

__all__ = ["calibrate", "CASES", "ALPHA", "FWER", "POWER", "CRITERION"]

ALPHA = 0.05          # the unadjusted level at which each rule is applied to each dataset
FWER = 0.05           # family-wise level of the selftest's own pass/fail decision over the cases
POWER = 0.8           # a power case must decide correctly at least this often
CRITERION = ("bound case: one-sided exact binomial test of rate ≤ α; power case: of rate ≥ 0.8; a case fails when "
             "its test rejects after Holm's adjustment over all bound and power cases at family-wise level 0.05 "
             "(declared 2026-12-01; until then a bound case failed when the lower end of its unadjusted 95 % "
             "Clopper–Pearson interval exceeded α, a ≈ 20 % family-wise false-alarm rate over nine bound cases). "
             "Contrast case: must show inflation, one-sided test of rate ≤ α rejected at 5 %, unadjusted.")


def _mean(rng, n, mu, sd=1.0):
    return Estimate.from_samples(rng.normal(mu, sd, n))


def _p(sc, side):
    return sc.p_value[side]


def _agree_null(rng):        # exact formula true: point null holds
    return _p(rules.agreement("x", _mean(rng, 10, 1.0), 1.0, margin=0.5), "against") < ALPHA


def _agree_z(rng):           # the old practice: a normal (z) reference with n = 10 — anti-conservative
    e = _mean(rng, 10, 1.0)
    return _p(rules.agreement("x", Estimate(e.mean, e.se, e.n, None), 1.0, margin=0.5), "against") < ALPHA


def _agree_boundary(rng):    # true deviation exactly the margin: TOST must not confirm
    return _p(rules.agreement("x", _mean(rng, 10, 1.5), 1.0, margin=0.5), "for") < ALPHA


def _agree_power(rng):       # formula exact, n = 30, margin 1 sd: TOST confirms
    return _p(rules.agreement("x", _mean(rng, 30, 1.0), 1.0, margin=1.0), "for") < ALPHA


def _equiv_inside(rng):      # true difference on the margin: must not refute
    return _p(rules.equivalence("x", _mean(rng, 8, 0.3), 0.0, margin=0.3), "against") < ALPHA


def _equiv_outside(rng):     # true difference on the margin: must not confirm
    return _p(rules.equivalence("x", _mean(rng, 8, 0.3), 0.0, margin=0.3), "for") < ALPHA


def _sup_null(rng):          # no difference: must not confirm superiority
    return _p(rules.superiority("x", _mean(rng, 12, 0.0)), "for") < ALPHA


def _sup_null_against(rng):  # no difference: must not refute (margin 0, boundary)
    return _p(rules.superiority("x", _mean(rng, 12, 0.0)), "against") < ALPHA


def _sup_power(rng):         # effect of one sd, n = 12
    return _p(rules.superiority("x", _mean(rng, 12, 1.0)), "for") < ALPHA


def _joint_null(rng):        # 3 independent components, all exact
    m = [Estimate.from_samples(rng.normal(0.0, 1.0, 400)) for _ in range(3)]
    # the SEs are estimated (399 df each): the rule is given the estimates' degrees of freedom, as every paper
    # claim does; the chi^2 law (df=None) treats them as known and ran at ~5.4 % here (selftest, 2026-12-01)
    return _p(rules.joint_agreement("x", [e.mean for e in m], [0, 0, 0], ses=[e.se for e in m],
                                    margin=0.5, relative=False, df=min(e.df for e in m)), "against") < ALPHA


def _asym_data(rng, limit_shift):
    ds = np.array([8.0, 16.0, 32.0, 64.0])
    trials = 6
    means, ses = [], []
    for d in ds:
        e = Estimate.from_samples(rng.normal(1.0 + limit_shift + 2.0 / d, 0.05, trials))
        means.append(e.mean)
        ses.append(e.se)
    return ds, means, ses, trials - 1


def _asym_null(rng):         # data follow L + b/d with the stated L: must not refute
    ds, m, s, df = _asym_data(rng, 0.0)
    return _p(rules.asymptotic("x", ds, m, s, 1.0, margin=0.05, dfs=[df] * 4, laws={"1/d": (1.0,)}), "against") < ALPHA


def _shape_null(rng):        # flat curve: "increasing" must not be confirmed
    y = [Estimate.from_samples(rng.normal(0.0, 1.0, 10)) for _ in range(4)]
    return _p(rules.shape("x", range(4), [e.mean for e in y], shape="increasing", ses=[e.se for e in y], df=9),
              "for") < ALPHA


CASES = {
    "agreement: false refutation": ("bound", _agree_null),
    "agreement with a normal (z) reference at n = 10 (the old test): false refutation": ("contrast", _agree_z),
    "agreement: false confirmation at the margin": ("bound", _agree_boundary),
    "agreement: power to confirm (margin = 1 sd, n = 30)": ("power", _agree_power),
    "equivalence: false refutation at the margin": ("bound", _equiv_inside),
    "equivalence: false confirmation at the margin": ("bound", _equiv_outside),
    "superiority: false confirmation (no difference)": ("bound", _sup_null),
    "superiority: false refutation (no difference, margin 0)": ("bound", _sup_null_against),
    "superiority: power (effect 1 sd, n = 12)": ("power", _sup_power),
    "joint agreement: false refutation (3 components)": ("bound", _joint_null),
    "asymptotic: false refutation (1/d law true)": ("bound", _asym_null),
    "shape: false confirmation of 'increasing' (flat curve)": ("bound", _shape_null),
}


def calibrate(datasets: int = 2000, seed: int = 20261201, cases=None) -> list[dict]:
    """Rates of each case over ``datasets`` simulated datasets, with 95 % Clopper–Pearson intervals.

    Each row carries the one-sided p-value of its hypothesis (``p``), the Holm-adjusted p-value over
    the bound and power cases run together (``p_holm``) and ``ok`` per :data:`CRITERION`.
    """
    from statsmodels.stats.multitest import multipletests
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


def write_calibration(out, datasets: int = 20000, seed: int = 20261201) -> list[dict]:
    """``calibration.md`` / ``calibration.json``: the table of :func:`calibrate` (deterministic)."""
    import json
    from pathlib import Path
    from ..report.common import write_if_changed
    rows = calibrate(datasets, seed)
    L = ["# Calibration of the decision rules", "",
         f"Generated by `theorycheck selftest`: each rule applied to {datasets} simulated datasets per case where the "
         f"truth is known, at the unadjusted level α = {ALPHA} (multiplicity is a separate layer), with exact "
         "(Clopper–Pearson) 95 % intervals of the observed rate. *bound* cases must not exceed α; *power* cases must "
         "decide correctly in at least 80 % of datasets; the *contrast* case shows what a normal (z) reference instead "
         "of Student t does at n = 10 — the reason every rule uses the estimate's degrees of freedom.", "",
         f"**Pass/fail rule** (declared before the data): {CRITERION}", "",
         "**Rule change, 2026-12-01.** Under the earlier per-case criterion the 4 000-dataset table of 2026-11-29 "
         "flagged *joint agreement: false refutation* (239/4000 = 5.98 %, one-sided p = 0.0032 — still below "
         "Holm's first threshold 0.05/11 = 0.0045, so the new rule would also have flagged that table). Three "
         "independent streams of 8 000 datasets gave 4.89 %, 4.91 %, 5.04 % (pooled 4.95 % of 24 000). The rule was "
         "changed for its family-wise error, not for this case, and the table was re-run once with 20 000 datasets per "
         "case (the precision to see a 0.5-point excess) at the same declared seed. That run found a real defect of a "
         "rule: *asymptotic: false refutation* at 5.52 % (1104/20000, Holm p = 0.005; 5.39 % and 5.43 % on two more "
         "seeds) — the weights of its WLS fit are estimated from the same data, so the plug-in SE of the intercept is "
         "optimistic. The rule now takes its t degrees of freedom from a parametric bootstrap of the studentised "
         "intercept (`rules.bootstrap_df`), and this table was run again with the same seed and size; it is the "
         "record below. Every paper report was re-run with the changed rule.", "",
         "| case | kind | rate | 95 % CI | datasets | one-sided p | Holm p | meets its bound |",
         "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        L.append(f"| {r['case']} | {r['kind']} | {r['rate']:.4f} | [{r['ci95'][0]:.4f}, {r['ci95'][1]:.4f}] | "
                 f"{r['datasets']} | {r['p']:.3g} | {'—' if r['p_holm'] is None else format(r['p_holm'], '.3g')} | "
                 f"{'yes' if r['ok'] else 'NO'} |")
    out = Path(out)
    write_if_changed(out / "calibration.md", "\n".join(L) + "\n")
    write_if_changed(out / "calibration.json", json.dumps(rows, indent=1, sort_keys=True) + "\n")
    return rows
