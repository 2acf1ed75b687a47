"""The run engine: plan tasks, run them (one process, a local pool, or a Dask cluster), assemble ledgers.

>>> from theorycheck.run import run_papers
>>> out = run_papers(["nonlinear"], mode="quick", seed=1, jobs=1, claim_ids=["004-hermite-basis"])  # doctest: +SKIP
"""
from __future__ import annotations

from ..claims import Ledger
from ..context import RunContext
from ..verdicts.aggregate import finalize
from .local import default_jobs, run_tasks
from .tasks import Task, TaskResult, execute, failed_path_record, plan

__all__ = ["run_papers", "assemble", "plan", "execute", "run_tasks", "default_jobs", "Task", "TaskResult", "RunOutput",
           "previous_costs"]


def previous_costs(stamp_path, mode: str) -> dict[str, float]:
    """Per-task wall seconds of an earlier run of the same ``mode`` from its ``STAMP.json`` (empty when
    there is none or it cannot be read): the scheduling hint of :func:`run_papers`."""
    import json
    try:
        st = json.loads(open(stamp_path, encoding="utf-8").read())
        return {t: float(v["wall_s"]) for p in st.get("papers", {}).values() if p.get("mode") == mode
                for t, v in p.get("tasks", {}).items()}
    except (OSError, ValueError, TypeError, AttributeError, KeyError):
        return {}


class RunOutput:
    """What a run produced: ``ledgers`` ({key: finalized Ledger}), ``figures`` ({key: [figure dicts
    with png/pdf bytes]}), ``tasks`` ({task id: {wall_s, peak_rss_mb, error}})."""

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


def run_papers(keys, mode: str = "quick", seed: int = 20261129, jobs: int = 1, scheduler=None,
               claim_ids=None, progress=None, costs: dict | None = None) -> RunOutput:
    """Run the claims of the papers ``keys`` (all claims, or only ``claim_ids`` and the fixtures they need);
    ``costs`` (expected seconds per task id, e.g. :func:`previous_costs`) only orders a local pool."""
    from .. import papers
    plist = [papers.load(k) for k in keys]
    tasks = plan(plist, mode)
    if claim_ids is not None:
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
        tasks = [t for t in tasks if t.id in want]
    if scheduler is not None:
        from .dask import run_tasks_dask
        results = run_tasks_dask(tasks, mode, seed, scheduler, progress)
    else:
        results = run_tasks(tasks, mode, seed, jobs, progress, costs)
    ledgers, figures = {}, {}
    for p in plist:
        ledgers[p.key], figures[p.key] = assemble(p, mode, seed, results)
    meta = {tid: {"wall_s": r.wall_s, "peak_rss_mb": r.peak_rss_mb, "error": r.error} for tid, r in results.items()}
    return RunOutput(ledgers, figures, meta)
