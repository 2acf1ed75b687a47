r"""How decided sub-claims vote for a clause and clauses for a claim — the one aggregation rule, with readings.

**Conjunction.** A set of sub-claims takes the first verdict of :data:`PRECEDENCE`
(inconsistent > refuted > not reproduced > inconclusive > underspecified > confirmed) held by any of them.

**Readings** (alternative interpretations of an ambiguous sentence; ``SubClaim.reading``). Each reading is
aggregated alone (with the sub-claims common to all readings); readings that agree give their verdict, readings
that disagree give *inconclusive*. Two refinements (issue 21, item 7): a reading the report itself rules out
(``Claim.readings[r] = "ruled out: <why>"``, declared before the data) is shown but **does not vote**; readings whose
sub-claims compute the same estimates (same rule, estimate, target and verdict) are **one reading** — the later one
is marked ``"same estimate as <first>"`` and does not vote twice.

**Clauses** (``Claim.clauses``, declared with the claim). Each sub-claim names the clause(s) it tests; each clause
is voted on by its own sub-claims; the claim takes the worst verdict of its *asserted* clauses. A clause is at
most *inconclusive* when it is not tested (no sub-claim, or ``untested="why"``), when every confirmation of it was
obtained in a scope narrower than the sentence (``SubClaim.narrowed``), or when it is a negative or a priority
("no closed form", "the first"), which computation can only scope, never confirm. A claim that declares no
clause has one implicit clause — its whole fragment — tested by all its sub-claims.

>>> from theorycheck.claims import SubClaim
>>> subs = [SubClaim("a", "identity", verdict="confirmed"), SubClaim("b", "identity", verdict="refuted")]
>>> conjunction(subs)
'refuted'
"""
from __future__ import annotations

from ..claims import CONFIRMED, INCONCLUSIVE, INCONSISTENT, NOT_REPRODUCED, REFUTED, UNDERSPECIFIED
from .text import shorten

__all__ = ["PRECEDENCE", "conjunction", "per_reading", "reading_statuses", "vote", "vote_clauses"]

PRECEDENCE = (INCONSISTENT, REFUTED, NOT_REPRODUCED, INCONCLUSIVE, UNDERSPECIFIED, CONFIRMED)
VOTES = "votes"


def conjunction(subs) -> str:
    """The first verdict of :data:`PRECEDENCE` held by any of ``subs`` (confirmed when there is none)."""
    verdicts = {s.verdict for s in subs}
    return next((v for v in PRECEDENCE if v in verdicts), CONFIRMED)


def _round(x):
    return None if x is None else float(f"{float(x):.12g}")


def _signature(subs, reading) -> tuple:
    return tuple(sorted((s.rule, _round(s.estimate), _round(s.target), s.verdict)
                        for s in subs if s.reading == reading))


def reading_statuses(subs, declared: dict | None = None) -> dict:
    """``{reading: status}`` for every reading of ``subs``: ``"votes"``, the declared ``"ruled out: …"``, or
    ``"same estimate as <reading>"`` for a reading whose sub-claims repeat an earlier reading's estimates."""
    declared = dict(declared or {})
    names = []
    for s in subs:
        if s.reading is not None and s.reading not in names:
            names.append(s.reading)
    unknown = [r for r in declared if r not in names]
    bad = {r: st for r, st in declared.items() if not (st == VOTES or str(st).startswith("ruled out"))}
    if bad:
        raise ValueError(f"readings: a status is 'votes' or 'ruled out: <why>', got {bad}")
    status = {r: declared.get(r, VOTES) for r in names}
    status.update({r: declared[r] for r in unknown})         # declared but not computed: shown, never votes
    first = {}
    for r in names:
        if status[r] != VOTES:
            continue
        sig = _signature(subs, r)
        if sig in first:
            status[r] = f"same estimate as {first[sig]}"
        else:
            first[sig] = r
    return status


def per_reading(subs, readings=None) -> dict:
    """``{reading: verdict}``: each reading's sub-claims with the common ones (``reading is None``), conjoined —
    the readings rule's verdict of every reading. ``readings``: which ones (default: those the sub-claims name, in
    their order).

    >>> from types import SimpleNamespace as S
    >>> per_reading([S(reading="a", verdict=CONFIRMED), S(reading="b", verdict=REFUTED), S(reading=None, verdict=CONFIRMED)])
    {'a': 'confirmed', 'b': 'refuted'}
    """
    if readings is None:
        readings = list(dict.fromkeys(s.reading for s in subs if s.reading is not None))
    common = [s for s in subs if s.reading is None]
    return {r: conjunction([s for s in subs if s.reading == r] + common) for r in readings}


def vote(subs, declared_readings: dict | None = None) -> tuple[str, str, dict]:
    """``(verdict, reason, statuses)`` of a set of decided sub-claims under the readings rule."""
    statuses = reading_statuses(subs, declared_readings)
    voting = [r for r, st in statuses.items() if st == VOTES]
    silent = [f"{r} ({st})" for r, st in statuses.items() if st != VOTES]
    common = [s for s in subs if s.reading is None]
    if not statuses:
        return conjunction(subs), "", statuses
    note = ("; not voting: " + "; ".join(silent)) if silent else ""
    if not voting:
        if not common:
            return INCONCLUSIVE, "no reading votes" + note + ".", statuses
        return conjunction(common), "only the sub-claims common to every reading vote" + note + ".", statuses
    per = per_reading(subs, voting)
    vals = set(per.values())
    if len(vals) == 1:
        v = vals.pop()
        return v, f"every reading gives {v} (" + ", ".join(voting) + ")" + note + ".", statuses
    return (INCONCLUSIVE, "the readings disagree: " + "; ".join(f"{r} → {v}" for r, v in per.items()) +
            " — the verdict depends on how the sentence is read" + note + ".", statuses)


def _clause_verdict(cl: dict, subs, declared_readings) -> tuple[str | None, str]:
    """The verdict of one clause (a dict with id, text, kind, asserted, untested) from its sub-claims."""
    if cl.get("untested"):
        return (INCONCLUSIVE if cl["asserted"] else None), f"not tested: {cl['untested']}"
    if not subs:
        return (INCONCLUSIVE if cl["asserted"] else None), "not tested: no sub-claim tests it"
    v, why, _ = vote(subs, declared_readings)
    confirming = [s for s in subs if s.verdict == CONFIRMED]
    if v == CONFIRMED and confirming and all(s.narrowed for s in confirming):
        scopes = sorted({s.narrowed for s in confirming})
        return INCONCLUSIVE, "confirmed only in a narrower scope than the sentence: " + "; ".join(scopes)
    if v == CONFIRMED and cl["kind"] in ("negative", "priority"):
        return INCONCLUSIVE, (f"a {cl['kind']} cannot be confirmed by computation; nothing contrary was found in what "
                              "was tried: " + "; ".join(s.statement for s in subs))
    if v == CONFIRMED:
        return v, why or f"{len(subs)} sub-claim(s) confirmed"
    bad = [s.statement for s in subs if s.verdict == v]
    return v, why or (f"{len(bad)} of {len(subs)} sub-claim(s) {v}: " + "; ".join(bad))


def vote_clauses(claim) -> tuple[str, str]:
    """Decide every declared clause of ``claim`` (filling ``claim.clauses[*]["verdict"/"reason"/"subclaims"]``);
    return the claim's ``(verdict, reason)``: the worst verdict of its asserted clauses."""
    ids = [c["id"] for c in claim.clauses]
    for s in claim.subclaims:
        if not s.clauses:
            if len(ids) != 1:
                raise ValueError(f"claim {claim.id}: sub-claim {s.id or s.statement!r} does not say which of the "
                                 f"clauses {ids} it tests (clauses=...)")
            s.clauses = list(ids)
        unknown = [c for c in s.clauses if c not in ids]
        if unknown:
            raise ValueError(f"claim {claim.id}: sub-claim {s.id or s.statement!r} names unknown clause(s) {unknown}; "
                             f"the claim's clauses are {ids}")
    for cl in claim.clauses:
        subs = [s for s in claim.subclaims if cl["id"] in s.clauses]
        cl["subclaims"] = [s.id for s in subs]
        cl["verdict"], cl["reason"] = _clause_verdict(cl, subs, claim.readings)
    asserted = [cl for cl in claim.clauses if cl["asserted"]]
    verdict = next((v for v in PRECEDENCE if any(cl["verdict"] == v for cl in asserted)), CONFIRMED)
    if verdict == CONFIRMED:
        return verdict, f"every asserted clause ({len(asserted)}) confirmed by its sub-claims."
    bad = [cl for cl in asserted if cl["verdict"] == verdict]
    return verdict, "; ".join(f"clause {cl['id']} “{shorten(cl['text'])}” {verdict}: {cl['reason']}" for cl in bad) + "."


