"""The run engine: plan tasks, run them (one process, a local pool, or a Dask cluster), assemble ledgers.

With a task cache (:class:`~theorycheck.run.cache.TaskCache`, ``cache=``) a run computes only the tasks whose
content key (:mod:`theorycheck.run.keys`) has no entry: it walks the plan from the claims and stress paths back
to the fixtures, reads what the cache has, computes the rest (with the cached fixtures they consume) and stores
each result as it finishes. A fixture whose consumers all come from the cache is not even read. Library calls
use no cache unless given one (the command line gives one; a mutant, a stability run or a test that patches code
never does).

>>> from theorycheck.run import run_papers
>>> out = run_papers(["nonlinear"], mode="quick", seed=1, jobs=1, claim_ids=["004-hermite-basis"])  # doctest: +SKIP
"""
from __future__ import annotations

import json

from .. import papers
from ..claims import Ledger
from ..context import DEFAULT_SEED, RunContext
from ..verdicts.aggregate import finalize
from .cache import TaskCache
from .dask import SchedulerLost, run_tasks_dask
from .keys import KeyBuilder
from .local import default_jobs, run_tasks
from .tasks import Task, TaskResult, execute, failed_path_record, plan

__all__ = ["run_papers", "assemble", "plan", "execute", "run_tasks", "default_jobs", "Task", "TaskResult", "RunOutput",
           "previous_costs", "RunInterrupted", "SchedulerLost", "TaskCache", "select_tasks"]


class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`run_papers`: the workers were stopped; ``finished`` of ``total`` tasks had finished
    (with a cache, all of them are kept there: the same call resumes)."""

    def __init__(self, finished: int, total: int):
        super().__init__(f"interrupted after {finished} of {total} tasks")
        self.finished, self.total = finished, total


def previous_costs(stamp_path, mode: str) -> dict[str, float]:
    """Per-task wall seconds of an earlier run of the same ``mode`` from its ``STAMP.json`` (empty when
    there is none or it cannot be read): the scheduling hint of :func:`run_papers`."""
    try:
        st = json.loads(open(stamp_path, encoding="utf-8").read())
        return {t: float(v["wall_s"]) for p in st.get("papers", {}).values() if p.get("mode") == mode
                for t, v in p.get("tasks", {}).items()}
    except (OSError, ValueError, TypeError, AttributeError, KeyError):
        return {}


class RunOutput:
    """What a run produced: ``ledgers`` ({key: finalized Ledger}), ``figures`` ({key: [figure dicts
    with png/pdf bytes]}), ``tasks`` ({task id: {wall_s, peak_rss_mb, error, status}}) — ``status``: ``computed``
    by this run, ``cached`` (read from the task cache, or not needed because every task consuming it was; its
    ``wall_s`` is the time it took when computed) or ``skipped`` (not needed, and not in the cache)."""

    def __init__(self, ledgers, figures, tasks):
        self.ledgers, self.figures, self.tasks = ledgers, figures, tasks

    @property
    def failed(self) -> bool:
        return any(t["error"] for t in self.tasks.values()) or any(
            led.self_check_failed or led.errors for led in self.ledgers.values())


def assemble(paper, mode: str, seed: int, results: dict) -> tuple[Ledger, list]:
    """The finalized ledger of ``paper`` and its figures from the task results."""
    led = Ledger(paper.key, paper.seed_id, paper.title, paper.conventions, paper.parameters(RunContext(mode, seed)),
                 mode=mode, seed=seed, seed_file=paper.seed_name)
    figs = []
    for spec in paper.claims:
        r = results.get(f"{paper.key}:claim:{spec.id}")
        if r is None:
            continue
        if r.error or r.value is None:
            claim = paper.new_claim(spec)
            claim.error = r.error or "task produced no result"
        else:
            claim = r.value
        led.add(claim)
        figs += r.figures
    finalize(led)
    led.coverage = paper.coverage()
    figs += _assumption_maps(paper, led, results)
    return led, figs


def _assumption_maps(paper, led, results) -> list:
    """Attach every decided stress path of ``paper`` (its ``path`` task) to its claim; return the path figures."""
    by_id = {c.id: c for c in led.claims}
    figs = []
    for st in paper.claims.stresses:
        r = results.get(f"{paper.key}:path:{st.key}")
        claim = by_id.get(st.claim)
        if r is None or claim is None:
            continue
        if r.error:                                   # the deciding task itself failed: recorded on the claim
            claim.assumptions.append(failed_path_record(paper, st, r.error))
            continue
        claim.assumptions.append(r.value)
        figs += r.figures
    stressed = {(st.claim, st.assumption) for st in paper.claims.stresses}
    for a in paper.claims.assumptions:              # declared, not stressed: listed all the same
        if (a.claim, a.name) not in stressed and a.claim in by_id:
            by_id[a.claim].assumptions.append({"name": a.name, "stated": a.stated,
                                               "seed_lines": list(a.lines) if a.lines else None, "uses": a.uses,
                                               "path": None})
    return figs


def select_tasks(tasks: list[Task], claim_ids) -> list[Task]:
    """The tasks of the claims ``claim_ids`` and the tasks they need (all tasks when ``claim_ids`` is None)."""
    if claim_ids is None:
        return tasks
    want = {t.id for t in tasks if t.kind == "claim" and t.name in set(claim_ids)}
    unknown = set(claim_ids) - {t.name for t in tasks if t.kind == "claim"}
    if unknown:
        raise ValueError(f"unknown claim id(s): {sorted(unknown)}")
    by_id = {t.id: t for t in tasks}
    stack = list(want)
    while stack:
        for d in by_id[stack.pop()].deps:
            if d not in want:
                want.add(d)
                stack.append(d)
    return [t for t in tasks if t.id in want]


def _from_cache(tasks: list[Task], keys: dict, cache) -> tuple[dict, list, dict]:
    """``(known, todo, meta)``: results read from ``cache``, the tasks to compute (in plan order), and the
    status of the tasks that are not needed (every consumer known)."""
    consumed = {d for t in tasks for d in t.deps}
    needed = {t.id for t in tasks if t.id not in consumed}
    known, todo = {}, []
    for t in reversed(tasks):
        if t.id not in needed:
            continue
        r = cache.load(keys[t.id]) if keys.get(t.id) else None
        if r is not None:
            known[t.id] = r
        else:
            todo.append(t)
            needed.update(t.deps)
    meta = {}
    for t in tasks:
        if t.id not in needed:
            head = cache.peek(keys[t.id]) if keys.get(t.id) else None
            meta[t.id] = {"wall_s": head["wall_s"] if head else 0.0, "peak_rss_mb": head["peak_rss_mb"] if head else 0.0,
                          "error": None, "status": "cached" if head else "skipped"}
    return known, todo[::-1], meta


def run_papers(keys, mode: str = "quick", seed: int = DEFAULT_SEED, jobs: int = 1, scheduler=None,
               claim_ids=None, progress=None, costs: dict | None = None, cache: TaskCache | None = None) -> RunOutput:
    """Run the claims of the papers ``keys`` (all claims, or only ``claim_ids`` and the fixtures they need);
    ``costs`` (expected seconds per task id, e.g. :func:`previous_costs`) only orders a local pool; ``cache``: a
    :class:`~theorycheck.run.cache.TaskCache` to read finished tasks from and write them to (None: compute
    everything, store nothing). ``progress(task, result)`` is called for every task read or computed.

    Ctrl-C raises :class:`RunInterrupted` (the workers stopped; finished tasks stored), a lost Dask scheduler
    :class:`~theorycheck.run.dask.SchedulerLost`."""
    plist = [papers.load(k) for k in keys]
    tasks = select_tasks(plan(plist, mode), claim_ids)
    use = cache is not None and cache.active
    content = KeyBuilder(plist, mode, seed, store=cache.root / "sources").keys(tasks) if use else {}
    known, todo, meta = _from_cache(tasks, content, cache) if use else ({}, list(tasks), {})
    if progress:
        for t in tasks:
            if t.id in known or t.id in meta:
                progress(t, known.get(t.id) or TaskResult(t.id, wall_s=meta[t.id]["wall_s"], cached=True))
    count = [len(known)]

    def finished(t, r):
        if use and content.get(t.id):
            cache.store(content[t.id], r)
        count[0] += 1
        if progress:
            progress(t, r)
    try:
        if scheduler is not None:
            computed = run_tasks_dask(todo, mode, seed, scheduler, finished, done=known, keys=content)
        else:
            computed = run_tasks(todo, mode, seed, jobs, finished, costs, done=known)
    except KeyboardInterrupt:
        raise RunInterrupted(count[0] + len(meta), len(tasks)) from None
    except SchedulerLost as exc:
        exc.finished = count[0] + len(meta)
        raise
    results = {**known, **computed}
    ledgers, figures = {}, {}
    for p in plist:
        ledgers[p.key], figures[p.key] = assemble(p, mode, seed, results)
    for tid, r in results.items():
        meta[tid] = {"wall_s": r.wall_s, "peak_rss_mb": r.peak_rss_mb, "error": r.error,
                     "status": "cached" if r.cached else "computed"}
    return RunOutput(ledgers, figures, {t.id: meta[t.id] for t in tasks})
