r"""From sub-claims to a claim's verdict: the decision, the aggregation rule, the explanations.

:func:`finalize` is run once per paper ledger after every claim has been computed:

1. **Multiplicity.** The *for* and *against* p-values of every statistical sub-claim of the report
   form one family, adjusted by Holm (:func:`~theorycheck.verdicts.multiplicity.holm`) at the
   family-wise ``alpha`` (default :data:`~theorycheck.verdicts.rules.FAMILY_ALPHA`). The statistical
   self-checks form a second family at ``self_alpha``.
2. **Decision** (:func:`decide`): confirmed if the adjusted *for* p < α; refuted if the adjusted
   *against* p < α; otherwise inconclusive. Any sub-claim whose setting holds toolkit choices for
   parameters the source leaves open (``chosen``) cannot refute: ``refuted`` becomes
   ``not reproduced``.
3. **Aggregation** (:func:`aggregate`), the one documented rule :data:`AGGREGATION`: a claim is the
   conjunction of its sub-claims, so its verdict is the first of
   ``inconsistent > refuted > not reproduced > inconclusive > underspecified > confirmed`` that
   any sub-claim has (all confirmed → confirmed). When sub-claims carry *readings* (alternative
   interpretations of an ambiguous sentence), each reading is aggregated on its own; if all
   readings agree that is the verdict, otherwise the claim is ``inconclusive`` and the reason lists
   the verdict of each reading.
4. **Withholding.** A claim that raised an error, or whose self-check failed, gets no verdict
   (``withheld``); the run fails.
5. **Explanations** (:func:`explain`): every sentence of a finding is generated here from the
   numbers that decided it.
"""
from __future__ import annotations

import math

from ..claims import (CONFIRMED, INCONCLUSIVE, INCONSISTENT, NOT_REPRODUCED, REFUTED, UNDERSPECIFIED,
                      Claim, Ledger)
from .multiplicity import holm
from .rules import FAMILY_ALPHA, SELF_CHECK_ALPHA

__all__ = ["decide", "aggregate", "finalize", "explain", "PRECEDENCE", "AGGREGATION", "fmt"]

PRECEDENCE = (INCONSISTENT, REFUTED, NOT_REPRODUCED, INCONCLUSIVE, UNDERSPECIFIED, CONFIRMED)
AGGREGATION = ("conjunction: the claim takes the first verdict of inconsistent > refuted > not reproduced > "
               "inconclusive > underspecified > confirmed held by any sub-claim; with readings, each reading is "
               "aggregated alone and disagreeing readings make the claim inconclusive")


def fmt(x, digits: int = 4) -> str:
    """Numbers for sentences: 4 significant digits, p-values in scientific notation when small.

    >>> fmt(0.000012345), fmt(12.3456), fmt(None), fmt(3)
    ('1.234e-05', '12.35', 'n/a', '3')
    """
    if x is None:
        return "n/a"
    if isinstance(x, bool):
        return str(x)
    if isinstance(x, int):
        return str(x)
    x = float(x)
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    if x != 0 and (abs(x) < 1e-3 or abs(x) >= 1e5):
        return f"{x:.{digits - 1}e}"
    return f"{x:.{digits}g}"


# --------------------------------------------------------------------------- decision
def decide(sc, alpha: float = FAMILY_ALPHA) -> str:
    """The verdict of one sub-claim once its p-values are adjusted (deterministic ones keep theirs)."""
    if sc.statistical:
        pa = sc.p_adjusted or sc.p_value
        if pa["for"] < alpha:
            v = CONFIRMED
        elif pa["against"] < alpha:
            v = REFUTED
        else:
            v = INCONCLUSIVE
        sc.verdict = v
    if sc.verdict == REFUTED and sc.chosen:
        sc.verdict = NOT_REPRODUCED
    return sc.verdict


def _first(verdicts) -> str:
    for v in PRECEDENCE:
        if v in verdicts:
            return v
    return CONFIRMED


def aggregate(claim: Claim) -> str:
    """Set and return the claim's verdict, scope and reason from its (decided) sub-claims."""
    if claim.error:
        claim.verdict, claim.withheld = None, True
        claim.reason = "the claim's computation raised an error (see the run log); no verdict."
        return None
    failed = [c.name for c in claim.self_checks if c.passed is False]
    if failed:
        claim.verdict, claim.withheld = None, True
        claim.reason = ("verdict withheld: the toolkit's own self-check(s) " + "; ".join(failed) +
                        " failed — our derivation and our simulation disagree, which is our bug, not the paper's.")
        return None
    subs = claim.subclaims
    if not subs:
        raise ValueError(f"claim {claim.id} has no sub-claims: every claim must be decided by at least one rule")
    if any(s.verdict is None for s in subs):
        raise ValueError(f"claim {claim.id}: undecided sub-claims (run finalize on the ledger)")
    readings = sorted({s.reading for s in subs if s.reading is not None})
    common = [s for s in subs if s.reading is None]
    if readings:
        per = {r: _first([s.verdict for s in subs if s.reading == r] + [s.verdict for s in common]) for r in readings}
        vals = set(per.values())
        claim.aggregation = "readings: " + AGGREGATION
        if len(vals) == 1:
            claim.verdict = vals.pop()
            claim.reason = f"every reading gives {claim.verdict} (" + ", ".join(readings) + ")."
        else:
            claim.verdict = INCONCLUSIVE
            claim.reason = ("the readings disagree: " + "; ".join(f"{r} → {v}" for r, v in per.items()) +
                            " — the verdict depends on how the sentence is read.")
    else:
        claim.aggregation = AGGREGATION
        claim.verdict = _first([s.verdict for s in subs])
        n = len(subs)
        if claim.verdict == CONFIRMED:
            claim.reason = f"all {n} sub-claim(s) confirmed." if n > 1 else "its one sub-claim is confirmed."
        else:
            bad = [s for s in subs if s.verdict == claim.verdict]
            claim.reason = (f"{len(bad)} of {n} sub-claim(s) {claim.verdict}: " +
                            "; ".join(s.statement for s in bad) + ".")
    if not claim.scope:
        scopes = []
        for s in subs:
            if s.scope and s.scope not in scopes:
                scopes.append(s.scope)
        if len(scopes) > 3:
            claim.scope = f"{len(scopes)} settings — see each sub-claim's scope"
        else:
            claim.scope = "; ".join(scopes) if scopes else None
    return claim.verdict


# --------------------------------------------------------------------------- explanations
def _est(sc, digits: int = 4) -> str:
    ci = "" if sc.ci is None or sc.ci[0] == sc.ci[1] else \
        f", 95% CI [{fmt(sc.ci[0], digits)}, {fmt(sc.ci[1], digits)}]"
    dfs = "" if sc.df is None else f", df = {fmt(sc.df, 3)}"
    n = "" if sc.n is None else f"n = {sc.n}"
    inner = ", ".join(x for x in (n,) if x) + dfs
    return f"{fmt(sc.estimate, digits)}{ci}" + (f" ({inner.lstrip(', ')})" if inner.strip(", ") else "")


def _p(sc) -> str:
    p, q = sc.p_value, sc.p_adjusted or sc.p_value
    return (f"p(for) = {fmt(p['for'])} (Holm {fmt(q['for'])}), p(against) = {fmt(p['against'])} "
            f"(Holm {fmt(q['against'])})")


def _conclusion(sc, alpha) -> str:
    v = sc.verdict
    if not sc.statistical and v == INCONCLUSIVE and sc.details.get("undecided"):
        return f" → inconclusive: {sc.details['undecided']}."
    if not sc.statistical:
        tail = {CONFIRMED: "confirmed", REFUTED: "refuted", INCONSISTENT: "inconsistent",
                NOT_REPRODUCED: "not reproduced under the toolkit's choices " + _chosen(sc),
                UNDERSPECIFIED: "underspecified"}.get(v, v)
        return f" → {tail}."
    q = sc.p_adjusted or sc.p_value
    if v == CONFIRMED:
        return f" → confirmed (adjusted p(for) {fmt(q['for'])} < α = {alpha})."
    if v == REFUTED:
        return f" → refuted (adjusted p(against) {fmt(q['against'])} < α = {alpha})."
    if v == NOT_REPRODUCED:
        return (f" → not reproduced (adjusted p(against) {fmt(q['against'])} < α = {alpha}) under the toolkit's "
                f"choices {_chosen(sc)}; the source does not state them, so this cannot refute.")
    pw = sc.details.get("power")
    extra = f"; power to confirm at zero difference {fmt(pw, 2)}" if pw is not None else ""
    return f" → inconclusive (neither adjusted p below α = {alpha}{extra})."


def _chosen(sc) -> str:
    return "(" + ", ".join(f"{k} = {v}" for k, v in sc.chosen.items()) + ")" if sc.chosen else "(none)"


def explain(sc, alpha: float = FAMILY_ALPHA) -> str:
    """The generated sentence for a decided sub-claim (every number comes from its fields)."""
    r, d = sc.rule, sc.details
    if r == "identity":
        if d.get("method") == "sympy.simplify":
            body = f"SymPy: simplify(lhs − rhs) = {d.get('simplified_difference')}"
        else:
            body = f"max |lhs − rhs| = {fmt(sc.statistic)} against the numerical tolerance {fmt(sc.margin)}"
    elif r == "inequality":
        v = d.get("violations", 0)
        body = ((f"holds at all {d['points']} point(s)" if not v else f"fails at {v} of {d['points']} point(s)") +
                f" (smallest slack {fmt(sc.statistic)}: {fmt(sc.estimate)} {d['op']} {fmt(sc.target)})")
    elif r == "search":
        body = (f"{d.get('found')} certified counterexample(s) in {d.get('tried')} search(es)" +
                ("" if d.get("found") else " — a finite search cannot prove that none exists"))
    elif r == "consistency":
        body = (f"{d.get('a_label')} = {fmt(sc.estimate)}, {d.get('b_label')} = {fmt(sc.target)}; "
                f"|difference| = {fmt(sc.statistic)} against tolerance {fmt(sc.margin)}")
    elif r == "underspecified":
        body = "cannot be attempted: the source does not give " + "; ".join(sc.missing)
    elif r in ("agreement", "equivalence", "reproduction"):
        tgt = d.get("stated") or fmt(sc.target)
        # show the estimate to (at least) the precision at which it is compared
        prec = 4
        if d.get("stated"):
            digits = sum(ch.isdigit() for ch in str(d["stated"]).lstrip("≈~-−0.").split("e")[0])
            prec = min(12, max(4, digits + 2))
        what = {"agreement": "exact value", "equivalence": "target", "reproduction": "stated value"}[r]
        mtxt = f"±{fmt(sc.margin)}"
        if r == "reproduction":
            mtxt += f" (printed digits {fmt(d.get('printed_tolerance'))} + model margin {fmt(d.get('model_margin'))})"
        if sc.statistical:
            body = f"estimate {_est(sc, prec)} vs {what} {tgt}, margin {mtxt}; {_p(sc)}"
        else:
            body = f"exact value {fmt(sc.estimate, prec)} vs {what} {tgt}, margin {mtxt}"
    elif r == "difference":
        if sc.statistical:
            body = f"estimate {_est(sc)} vs {fmt(sc.target)} (equivalence margin ±{fmt(sc.margin)}); {_p(sc)}"
        else:
            body = f"exact value {fmt(sc.estimate)} vs {fmt(sc.target)}"
    elif r == "superiority":
        if sc.statistical:
            body = f"difference {_est(sc)} against margin {fmt(sc.margin)}; {_p(sc)}"
        else:
            body = f"exact difference {fmt(sc.estimate)} against margin {fmt(sc.margin)}"
    elif r == "joint agreement":
        body = (f"{d.get('components')} components, {d.get('law')}: T² = {fmt(sc.statistic)} (largest |t| of a "
                f"component {fmt(d.get('max_abs_component_t'))}), margin ±{fmt(sc.margin)}; {_p(sc)}")
    elif r == "asymptotic":
        laws = "; ".join(
            f"{name}: intercept {fmt(v['intercept'])} ± {fmt(v['intercept_se'])} "
            f"(GOF p {fmt(v['p_gof'])}{'' if v['accepted'] else ', law rejected'}, t = {fmt(v['t'], 3)}"
            + ("" if v.get("df") is None else f", df = {fmt(v['df'], 3)}") + ")"
            for name, v in d.get("laws", {}).items())
        body = (f"extrapolation {d.get('size_name', 'd')} → ∞ over {d.get('size_name', 'd')} ∈ "
                f"{[int(x) if float(x).is_integer() else x for x in d.get('sizes', [])]}: {laws}; limit {fmt(sc.target)}, "
                f"margin ±{fmt(sc.margin)}; {_p(sc)}")
    elif r == "shape":
        if sc.statistical:
            body = f"{d.get('shape')} on {sc.n} points (noisy): {_p(sc)}"
        else:
            body = (f"{d.get('shape')} on the exact grid of {sc.n} points: "
                    f"{'holds' if sc.verdict == CONFIRMED else 'does not hold'} "
                    f"(argmin {d.get('argmin')}, argmax {d.get('argmax')}, {d.get('n_sign_changes')} sign change(s) "
                    "of the differences)")
    else:
        body = f"rule {r}"
    scope = f" [scope: {sc.scope}]" if sc.scope else ""
    return body + scope + _conclusion(sc, alpha)


# --------------------------------------------------------------------------- finalize
def finalize(ledger: Ledger, alpha: float = FAMILY_ALPHA, self_alpha: float = SELF_CHECK_ALPHA) -> Ledger:
    """Adjust, decide, explain and aggregate every claim of ``ledger`` (in place); return it."""
    stat = [s for c in ledger.claims if not c.error for s in c.subclaims if s.statistical]
    adj = holm([s.p_value[k] for s in stat for k in ("for", "against")])
    for i, s in enumerate(stat):
        s.p_adjusted = {"for": adj[2 * i], "against": adj[2 * i + 1]}
    checks = [c for c in ledger.self_checks if c.p_value is not None]
    for c, q in zip(checks, holm([c.p_value for c in checks])):
        c.p_adjusted = q
        c.passed = q >= self_alpha
    for c in ledger.claims:
        for s in c.subclaims:
            decide(s, alpha)
            s.reason = explain(s, alpha)
        aggregate(c)
    ledger.decision = {"family_alpha": alpha, "self_check_alpha": self_alpha, "multiplicity": "holm",
                       "statistical_subclaims": len(stat), "hypotheses": 2 * len(stat),
                       "self_checks": len(ledger.self_checks), "aggregation": AGGREGATION}
    return ledger
