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
5. **Explanations** (:func:`explain`): every sentence of a finding is generated from the numbers that
   decided it — the rule's own ``explain`` (:mod:`theorycheck.verdicts.rules.registry`) writes the body, this
   module the scope and the conclusion.
"""
from __future__ import annotations

from ..claims import (CONFIRMED, INCONCLUSIVE, INCONSISTENT, NOT_REPRODUCED, REFUTED, UNDERSPECIFIED,
                      Claim, Ledger)
from .multiplicity import holm
from .rules import FAMILY_ALPHA, SELF_CHECK_ALPHA, registry
from .text import chosen_text, fmt

__all__ = ["decide", "aggregate", "finalize", "explain", "PRECEDENCE", "AGGREGATION", "fmt"]

PRECEDENCE = (INCONSISTENT, REFUTED, NOT_REPRODUCED, INCONCLUSIVE, UNDERSPECIFIED, CONFIRMED)
AGGREGATION = ("conjunction: the claim takes the first verdict of inconsistent > refuted > not reproduced > "
               "inconclusive > underspecified > confirmed held by any sub-claim; with readings, each reading is "
               "aggregated alone and disagreeing readings make the claim inconclusive")


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
def _conclusion(sc, alpha) -> str:
    v = sc.verdict
    if not sc.statistical and v == INCONCLUSIVE and sc.details.get("undecided"):
        return f" → inconclusive: {sc.details['undecided']}."
    if not sc.statistical:
        tail = {CONFIRMED: "confirmed", REFUTED: "refuted", INCONSISTENT: "inconsistent",
                NOT_REPRODUCED: "not reproduced under the toolkit's choices " + chosen_text(sc),
                UNDERSPECIFIED: "underspecified"}.get(v, v)
        return f" → {tail}."
    q = sc.p_adjusted or sc.p_value
    if v == CONFIRMED:
        return f" → confirmed (adjusted p(for) {fmt(q['for'])} < α = {alpha})."
    if v == REFUTED:
        return f" → refuted (adjusted p(against) {fmt(q['against'])} < α = {alpha})."
    if v == NOT_REPRODUCED:
        return (f" → not reproduced (adjusted p(against) {fmt(q['against'])} < α = {alpha}) under the toolkit's "
                f"choices {chosen_text(sc)}; the source does not state them, so this cannot refute.")
    pw = sc.details.get("power")
    extra = f"; power to confirm at zero difference {fmt(pw, 2)}" if pw is not None else ""
    return f" → inconclusive (neither adjusted p below α = {alpha}{extra})."


def explain(sc, alpha: float = FAMILY_ALPHA) -> str:
    """The generated sentence for a decided sub-claim (every number comes from its fields)."""
    try:
        body = registry.get(sc.rule).explain(sc)
    except ValueError:                       # a rule that is not registered (a results.json of another version)
        body = f"rule {sc.rule}"
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
