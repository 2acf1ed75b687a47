r"""Self-test of the toolkit: deliberate mistakes (mutants) must change a verdict or trip a self-check.

A **mutant** is a realistic mistake in the real code (a dropped Isserlis pairing, a shifted GLA
exponent, κ → 2κ in the linear ICL error, …), installed for one run by monkeypatching
(:class:`~theorycheck.selftest.patch.Patcher`; nothing is written to the source). Mutants live next
to the code they mutate: each paper's in ``theorycheck/papers/<key>/checks/mutants.py`` (a list
``MUTANTS`` of :class:`Mutant`), the engines' in :mod:`theorycheck.selftest.engines`.

A paper mutant names the claims it must affect. :func:`run_paper_mutants` runs those claims on
the clean code and under the mutant (quick sizes, a fixed seed) and records the
mutant as **caught** when a listed claim's verdict changes, one of its self-checks fails, or it
raises. A mutant that changes nothing is a hole in the suite, reported as such.

The clean run is the real code: it may read and write the task cache (``cache=``; a quick run with the same seed
has usually computed it already). Each mutant runs under a :class:`Patcher`, which switches the task cache of its
process off, and with ``jobs`` > 1 in its own worker process (the paper's own mutants, found by id there).

>>> Mutant("x", "a mistake", ("004-hermite-basis",), lambda p: None).claims
('004-hermite-basis',)
"""
from __future__ import annotations

import concurrent.futures as cf
import importlib
from dataclasses import dataclass, field

from .. import papers
from ..papers.api import Mutant
from ..run import run_papers
from ..run.local import new_pool, stop_pool
from .patch import Patcher, clear_caches

__all__ = ["Mutant", "MutantOutcome", "Patcher", "clear_caches", "run_paper_mutants", "paper_mutants", "SELFTEST_SEED",
           "mutant_state"]

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


def mutant_state(key: str, mutant, seed: int = SELFTEST_SEED, mode: str = "quick") -> dict:
    """The claims of ``mutant`` (a :class:`Mutant`, or the id of one of paper ``key``'s own) run under it in this
    process (never with the task cache: the :class:`Patcher` switches it off)."""
    if isinstance(mutant, str):
        mutant = next(m for m in paper_mutants(key) if m.id == mutant)
    with Patcher() as p:
        mutant.apply(p)
        return _state(run_papers([key], mode, seed, jobs=1, claim_ids=list(mutant.claims)).ledgers[key])


def _states(key: str, muts: list, seed: int, mode: str, jobs: int, own: bool) -> dict:
    """``{mutant id: state}``; the paper's ``own`` mutants in parallel, one worker process each."""
    if jobs <= 1 or len(muts) <= 1 or not own:
        return {m.id: mutant_state(key, m, seed, mode) for m in muts}
    try:
        pool = new_pool(min(jobs, len(muts)), max_tasks_per_child=1)
    except TypeError:  # pragma: no cover - Python 3.10: workers are reused (the Patcher undoes every patch)
        pool = new_pool(min(jobs, len(muts)))
    try:
        futs = {pool.submit(mutant_state, key, m.id, seed, mode): m.id for m in muts}
        out = {}
        for f in cf.as_completed(futs):
            try:
                out[futs[f]] = f.result()
            except Exception as exc:  # noqa: BLE001 - the mutant's process died: reported, not counted as caught
                out[futs[f]] = {"failed": f"mutant run failed: {exc!r}"}
    except BaseException:
        stop_pool(pool)
        raise
    pool.shutdown(wait=True)
    return out


def _how(m, clean: dict, st: dict) -> list:
    if "failed" in st:
        return []
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
    return how


def run_paper_mutants(key: str, mutants=None, seed: int = SELFTEST_SEED, mode: str = "quick", jobs: int = 1,
                      cache=None) -> dict:
    """Run the clean claims and every mutant of paper ``key``; return a JSON-ready summary.

    ``mutants``: default the paper's own (then, with ``jobs`` > 1, each in its own worker process); ``cache``: a
    task cache for the clean run only."""
    muts = list(mutants if mutants is not None else paper_mutants(key))
    needed = sorted({c for m in muts for c in m.claims})
    if not needed:
        return {"paper": key, "clean": {}, "mutants": [], "caught": 0, "total": 0}
    clear_caches()
    clean = _state(run_papers([key], mode, seed, jobs=jobs, claim_ids=needed, cache=cache).ledgers[key])
    bad_clean = [c for c, s in clean.items() if s["error"] or s["failed_self_checks"]]
    states = _states(key, muts, seed, mode, jobs, own=mutants is None)
    outcomes = []
    for m in muts:
        how = _how(m, clean, states[m.id])
        if "failed" in states[m.id]:
            how_shown = [states[m.id]["failed"]]
            outcomes.append(MutantOutcome(m.id, m.mistake, list(m.claims), False, how_shown))
        else:
            outcomes.append(MutantOutcome(m.id, m.mistake, list(m.claims), bool(how), how))
    return {"paper": key, "seed": seed, "mode": mode, "clean": clean, "clean_problems": bad_clean,
            "mutants": [o.as_dict() for o in outcomes], "caught": sum(o.caught for o in outcomes),
            "total": len(outcomes)}
