"""Run tasks on this machine: in this process (``jobs=1``) or in a pool of worker processes.

The pool submits every task whose dependencies are done (longest declared cost first among the
ready ones) and collects results as they finish; the results do not depend on the number of
workers or the order of completion (each task is seeded from the run seed and its own names).

>>> from theorycheck.run.tasks import Task
>>> run_tasks([], "quick", 1, jobs=1)
{}
"""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os

from .tasks import Task, TaskResult, execute

__all__ = ["run_tasks", "default_jobs"]


def default_jobs() -> int:
    """The cores this process may use (``os.sched_getaffinity`` where available)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS / Windows
        return max(1, os.cpu_count() or 1)


def run_tasks(tasks: list[Task], mode: str, seed: int, jobs: int = 1, progress=None) -> dict[str, TaskResult]:
    """Run ``tasks`` (in dependency order) and return ``{task id: TaskResult}``."""
    results: dict[str, TaskResult] = {}
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            results[t.id] = execute(t, mode, seed, {d: results[d] for d in t.deps})
            if progress:
                progress(t, results[t.id])
        return results
    pending = list(tasks)
    running: dict[cf.Future, Task] = {}
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in multiprocessing.get_all_start_methods()
                                      else "spawn")
    with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        while pending or running:
            ready = [t for t in pending if all(d in results for d in t.deps)]
            for t in ready:
                pending.remove(t)
                running[pool.submit(execute, t, mode, seed, {d: results[d] for d in t.deps})] = t
            if not running:
                raise RuntimeError("task graph has unmet dependencies: " + ", ".join(t.id for t in pending))
            done, _ = cf.wait(list(running), return_when=cf.FIRST_COMPLETED)
            for f in done:
                t = running.pop(f)
                try:
                    results[t.id] = f.result()
                except Exception as exc:  # a worker died (out of memory, killed)
                    results[t.id] = TaskResult(t.id, error=f"worker process failed: {exc!r}")
                if progress:
                    progress(t, results[t.id])
    return results
