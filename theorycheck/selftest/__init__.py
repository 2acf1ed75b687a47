r"""Self-test of the toolkit: deliberate mistakes (mutants) must change a verdict or trip a self-check.

A **mutant** is a realistic mistake in the real code (a dropped Isserlis pairing, a shifted GLA
exponent, κ → 2κ in the linear ICL error, …), installed for one run by monkeypatching
(:class:`~theorycheck.selftest.patch.Patcher`; nothing is written to the source). Mutants live next
to the code they mutate: each paper's in ``theorycheck/papers/<key>/mutants.py`` (a list
``MUTANTS`` of :class:`Mutant`), the engines' in :mod:`theorycheck.selftest.engines`.

A paper mutant names the claims it must affect. :func:`run_paper_mutants` runs those claims on
the clean code and under the mutant (quick sizes, a fixed seed, in this process) and records the
mutant as **caught** when a listed claim's verdict changes, one of its self-checks fails, or it
raises. A mutant that changes nothing is a hole in the suite, reported as such.

>>> Mutant("x", "a mistake", ("004-hermite-basis",), lambda p: None).claims
('004-hermite-basis',)
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..papers.api import Mutant
from .patch import Patcher, clear_caches

__all__ = ["Mutant", "MutantOutcome", "Patcher", "clear_caches", "run_paper_mutants", "paper_mutants", "SELFTEST_SEED"]

#: Run seed of every self-test run (fixed: the self-test is a property of the code, not of a run).
SELFTEST_SEED = 20261129


@dataclass
class MutantOutcome:
    id: str
    mistake: str
    claims: list
    caught: bool
    how: list = field(default_factory=list)       # e.g. "004-result1: confirmed -> refuted"

    def as_dict(self) -> dict:
        return {"id": self.id, "mistake": self.mistake, "claims": list(self.claims), "caught": self.caught,
                "how": list(self.how)}


def paper_mutants(key: str) -> list[Mutant]:
    """The mutants declared by paper ``key`` (empty when it declares none)."""
    import importlib
    from .. import papers
    paper = papers.load(key)
    if not paper.mutants:
        return []
    mod = importlib.import_module(paper.mutants)
    out = list(getattr(mod, "MUTANTS", []))
    for m in out:
        if not isinstance(m, Mutant):
            raise TypeError(f"{paper.mutants}.MUTANTS must hold theorycheck.selftest.Mutant objects")
    return out


def _state(led) -> dict:
    out = {}
    for c in led.claims:
        failed = [s.name for s in c.self_checks if s.passed is False]
        out[c.id] = {"verdict": c.verdict, "error": bool(c.error), "failed_self_checks": failed,
                     "subclaims": {s.id: s.verdict for s in c.subclaims}}
    return out


def run_paper_mutants(key: str, mutants=None, seed: int = SELFTEST_SEED, mode: str = "quick") -> dict:
    """Run the clean claims and every mutant of paper ``key``; return a JSON-ready summary."""
    from ..run import run_papers
    muts = list(mutants if mutants is not None else paper_mutants(key))
    needed = sorted({c for m in muts for c in m.claims})
    if not needed:
        return {"paper": key, "clean": {}, "mutants": [], "caught": 0, "total": 0}
    with Patcher():
        clean = _state(run_papers([key], mode, seed, jobs=1, claim_ids=needed).ledgers[key])
    bad_clean = [c for c, s in clean.items() if s["error"] or s["failed_self_checks"]]
    outcomes = []
    for m in muts:
        with Patcher() as p:
            m.apply(p)
            st = _state(run_papers([key], mode, seed, jobs=1, claim_ids=list(m.claims)).ledgers[key])
        how = []
        for cid in m.claims:
            a, b = clean[cid], st[cid]
            if b["error"]:
                how.append(f"{cid}: raised")
            if b["failed_self_checks"]:
                how.append(f"{cid}: self-check failed ({'; '.join(b['failed_self_checks'])})")
            if a["verdict"] != b["verdict"]:
                how.append(f"{cid}: verdict {a['verdict']} -> {b['verdict']}")
            else:
                changed = [f"{sid}: {v} -> {b['subclaims'].get(sid)}" for sid, v in a["subclaims"].items()
                           if b["subclaims"].get(sid) != v]
                how += [f"sub-claim {x}" for x in changed]
        outcomes.append(MutantOutcome(m.id, m.mistake, list(m.claims), bool(how), how))
    return {"paper": key, "seed": seed, "mode": mode, "clean": clean, "clean_problems": bad_clean,
            "mutants": [o.as_dict() for o in outcomes], "caught": sum(o.caught for o in outcomes),
            "total": len(outcomes)}
