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
from .finding import Finding, settings_tail
from .multiplicity import holm
from .rules import FAMILY_ALPHA, SELF_CHECK_ALPHA, registry
from .sequential import check_family, n_text
from .text import chosen_text, fmt, p_value_text
from .vote import PRECEDENCE, reading_statuses, vote, vote_clauses

__all__ = ["decide", "aggregate", "finalize", "explain", "finding_of", "PRECEDENCE", "AGGREGATION", "fmt",
           "extent_covers_chosen"]

AGGREGATION = ("conjunction: the claim takes the first verdict of inconsistent > refuted > not reproduced > "
               "inconclusive > underspecified > confirmed held by any sub-claim; with readings, each reading is "
               "aggregated alone and disagreeing readings make the claim inconclusive (a reading the report rules out "
               "does not vote; readings computing the same estimates are one); with clauses, each clause is voted on "
               "by its sub-claims and the claim takes the worst verdict of its asserted clauses — an untested "
               "clause, a confirmation only in a narrower scope, or a negative make a clause at most inconclusive")


# --------------------------------------------------------------------------- decision
def decide(sc, alpha: float = FAMILY_ALPHA, family: int = 1) -> str:
    """The verdict of one sub-claim once its p-values are adjusted (deterministic ones keep theirs).

    Then the caps that no evidence for the statement itself can lift: a comparison whose contenders do not all beat
    the trivial alternative (``sc.trivial``) is at most inconclusive; a refutation that rests on a chosen value
    (``sc.chosen``) is *not reproduced* unless ``sc.extent`` records a search over the whole admissible range of
    every chosen Param with the failure found throughout. A vague verb (``details['margin_table']``, see
    :mod:`theorycheck.verdicts.margins`) is refuted only outside the widest margin of its table at the family's
    Bonferroni level ``alpha / family`` (Holm keeps every such rejection); a failure at the chosen margin alone is
    *not reproduced*."""
    if sc.statistical:
        pa = sc.p_adjusted or sc.p_value
        if pa["for"] < alpha:
            v = CONFIRMED
        elif pa["against"] < alpha:
            v = REFUTED
        else:
            v = INCONCLUSIVE
        sc.verdict = v
    if sc.trivial:
        for t in sc.trivial:
            t["beats"] = (t["p_adjusted"] if t["p_adjusted"] is not None else t["p"]) < alpha
        losers = [t for t in sc.trivial if not t["beats"]]
        if losers and sc.verdict == CONFIRMED:
            sc.verdict = INCONCLUSIVE
            sc.details["capped"] = ("not every contender beats the trivial alternative by the declared margin: " +
                                    "; ".join(f"{t['contender']} vs {t['trivial']}" for t in losers))
    if sc.verdict == REFUTED and sc.statistical and sc.details.get("margin_table") and \
            sc.details["p_outside_widest"] >= alpha / max(1, family):
        sc.verdict = NOT_REPRODUCED
        sc.details.update({"capped_margin": "outside the chosen margin, but not significantly outside the widest "
                                            "admissible margin of the verb", "family": family})
    if sc.verdict == REFUTED and sc.chosen and not extent_covers_chosen(sc):
        sc.verdict = NOT_REPRODUCED
    return sc.verdict


def extent_covers_chosen(sc) -> bool:
    """True when ``sc.extent`` shows the failure over the whole admissible range of every chosen parameter:
    ``extent["searched"]`` names each of them with a range containing its admissible range (or every admissible
    value) and ``extent["holds_throughout"]`` is true. Values chosen without a declared Param can never be covered."""
    ext = sc.extent or {}
    searched = ext.get("searched") or {}
    if ext.get("holds_throughout") is not True:
        return False
    for name in sc.chosen:
        p = sc.params.get(name)
        if p is None or p.get("provenance") != "chosen" or name not in searched:
            return False
        adm, got = list(p.get("admissible") or []), list(searched[name])
        if len(adm) == 2 and len(got) == 2 and all(isinstance(x, (int, float)) for x in adm + got):
            if not (got[0] <= adm[0] and got[1] >= adm[1]):
                return False
        elif not set(map(str, adm)) <= set(map(str, got)):
            return False
    return True


def _first(verdicts) -> str:
    for v in PRECEDENCE:
        if v in verdicts:
            return v
    return CONFIRMED


def aggregate(claim: Claim) -> str:
    """Set and return the claim's verdict, scope and reason from its (decided) sub-claims
    (:mod:`theorycheck.verdicts.vote`: clauses, readings, conjunction)."""
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
    if claim.clauses:
        claim.aggregation = "clauses: " + AGGREGATION
        claim.verdict, claim.reason = vote_clauses(claim)
        claim.readings = {**claim.readings, **reading_statuses(subs, claim.readings)}
    elif any(s.reading is not None for s in subs):
        claim.aggregation = "readings: " + AGGREGATION
        claim.verdict, claim.reason, statuses = vote(subs, claim.readings)
        claim.readings = statuses
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
def _trivial_text(sc) -> str:
    if not sc.trivial:
        return ""
    parts = []
    for t in sc.trivial:
        gap = fmt(t["gap"]) + ("" if not t["gap_se"] else f" ± {fmt(t['gap_se'])}")
        p = t["p_adjusted"] if t["p_adjusted"] is not None else t["p"]
        parts.append(f"{t['contender']} vs {t['trivial']}: gap {gap} (margin {fmt(t['margin'])} = "
                     f"{fmt(t['relative_margin'])} × {fmt(t['reference'])}, one-sided Holm p {fmt(p)}: "
                     f"{'beats it' if t['beats'] else 'does not beat it'})")
    return "; against the trivial alternative — " + "; ".join(parts)


def _conclusion(sc, alpha) -> str:
    v = sc.verdict
    if sc.details.get("capped") and v == INCONCLUSIVE:
        return f" → inconclusive: {sc.details['capped']}."
    if not sc.statistical and v == INCONCLUSIVE and sc.details.get("undecided"):
        return f" → inconclusive: {sc.details['undecided']}."
    if not sc.statistical:
        tail = {CONFIRMED: "confirmed", REFUTED: "refuted", INCONSISTENT: "inconsistent",
                NOT_REPRODUCED: "not reproduced under the toolkit's choices " + chosen_text(sc),
                UNDERSPECIFIED: "underspecified"}.get(v, v)
        return f" → {tail}."
    adj = sc.p_adjusted is not None
    if v == CONFIRMED:
        return f" → confirmed (adjusted p(for) {p_value_text(sc, 'for', adjusted=adj)} < α = {alpha})."
    if v == REFUTED:
        return f" → refuted (adjusted p(against) {p_value_text(sc, 'against', adjusted=adj)} < α = {alpha})."
    if v == NOT_REPRODUCED and sc.details.get("capped_margin"):
        return (f" → not reproduced: outside the chosen margin (adjusted p(against) "
                f"{p_value_text(sc, 'against', adjusted=adj)} < α = {alpha}), but not significantly outside the "
                f"widest admissible margin of '{sc.details['verb']}' (p {fmt(sc.details['p_outside_widest'])} ≥ "
                f"α/m = {fmt(alpha / max(1, sc.details.get('family', 1)))}); the margin is our choice, so this "
                "cannot refute.")
    if v == NOT_REPRODUCED:
        return (f" → not reproduced (adjusted p(against) {p_value_text(sc, 'against', adjusted=adj)} < α = {alpha}) "
                f"under the toolkit's "
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
    narrowed = f" [narrower than the sentence: {sc.narrowed}]" if sc.narrowed else ""
    seq = f" [sequential: {n_text(sc)}; stage-wise p-values, 95 % repeated CI]" if n_text(sc) else ""
    return body + _trivial_text(sc) + scope + narrowed + seq + _conclusion(sc, alpha)


def finding_of(sc, note: str = "") -> Finding:
    """What a decided sub-claim found (its rule's ``finding``), with what kept it from deciding: a comparison whose
    contenders do not beat the trivial alternative, sizes that cannot decide it, a narrower scope than the sentence,
    or the toolkit's choices a failure rests on (``note``, e.g. how many settings share the verdict, goes before
    these). A rule without a ``finding`` (or a results.json of another version) gives its ``explain`` body."""
    rule = registry.REGISTRY.get(sc.rule)
    if rule is not None and rule.finding is not None:
        f = rule.finding(sc)
    else:
        f = Finding((rule.explain(sc) if rule is not None else f"rule {sc.rule}") + settings_tail(sc))
    d, extra = sc.details or {}, []
    if d.get("capped") and sc.verdict == INCONCLUSIVE:
        extra.append(f"not decided: {d['capped']}")
    if d.get("undecided") and sc.verdict == INCONCLUSIVE:
        extra.append(f"not decided: {d['undecided']}")
    if sc.narrowed:
        extra.append(f"in a narrower scope than the sentence: {sc.narrowed}")
    if sc.verdict == NOT_REPRODUCED and sc.chosen:
        extra.append(f"under the toolkit's choice of {', '.join(sc.chosen)} (the source does not state it), so not a "
                     "refutation")
    sure = f.sure
    if n_text(sc):                       # a sequential sub-claim: the n it used out of its maximum
        seq = sc.details["sequential"]
        used = f"n = {sc.n} of its maximum {seq['n_max']}"
        sure = sure.replace(f"n = {sc.n}", used, 1) if f"n = {sc.n}" in sure else f"{used}, {sure}"
    return Finding(f.text + "".join(f" — {e}" for e in ([note] if note else []) + extra), sure, f.comparisons)


# --------------------------------------------------------------------------- finalize
def finalize(ledger: Ledger, alpha: float = FAMILY_ALPHA, self_alpha: float = SELF_CHECK_ALPHA) -> Ledger:
    """Adjust, decide, explain and aggregate every claim of ``ledger`` (in place); return it."""
    # every tested hypothesis is in the family, also those yielded by a claim that later raised (its verdict is
    # withheld; counting them only makes the adjustment stricter, and every sub-claim gets its adjusted p)
    stat = [s for c in ledger.claims for s in c.subclaims if s.statistical]
    gaps = [t for c in ledger.claims for s in c.subclaims for t in s.trivial if t["t"] is not None]
    adj = holm([s.p_value[k] for s in stat for k in ("for", "against")] + [t["p"] for t in gaps])
    for i, s in enumerate(stat):
        s.p_adjusted = {"for": adj[2 * i], "against": adj[2 * i + 1]}
    for t, q in zip(gaps, adj[2 * len(stat):]):
        t["p_adjusted"] = q
    checks = [c for c in ledger.self_checks if c.p_value is not None]
    for c, q in zip(checks, holm([c.p_value for c in checks])):
        c.p_adjusted = q
        c.passed = q >= self_alpha
    family = 2 * len(stat) + len(gaps)
    check_family(stat, family, alpha)          # an early stop was decided at α/m_plan: Holm keeps it only if m ≤ m_plan
    for c in ledger.claims:
        for s in c.subclaims:
            decide(s, alpha, family)
            s.reason = explain(s, alpha)
        aggregate(c)
    ledger.decision = {"family_alpha": alpha, "self_check_alpha": self_alpha, "multiplicity": "holm",
                       "statistical_subclaims": len(stat), "hypotheses": 2 * len(stat) + len(gaps),
                       "self_checks": len(ledger.self_checks), "aggregation": AGGREGATION}
    return ledger
