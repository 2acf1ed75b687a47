"""Run the same tasks on a Dask distributed cluster (``pip install "theorycheck[distributed]"``).

Each task is submitted with ``Client.submit(execute, task, mode, seed, deps)`` where ``deps`` holds
the futures of its dependencies (Dask resolves them on the worker) or their results when known already (read
from the task cache), under a *pure* key: ``theorycheck-<content key>`` when the run has content keys
(:mod:`theorycheck.run.keys`), else ``theorycheck-<mode>-<seed>-<task id>``. Workers need the same theorycheck
(and plugin papers) installed. Results are byte-identical to a local run: every task draws its random
streams from the run seed and its own names, and BLAS runs single-threaded inside each task.

Faults: a worker that dies has its tasks run again on another worker by the scheduler (up to Dask's
``distributed.scheduler.allowed-failures``), a task that raises on a worker is tried ``retries`` more times, and
the results are the same (each task is a pure function of its inputs). A lost scheduler ends the run with
:class:`SchedulerLost` — the driver has handed every finished result to ``progress`` (the task cache keeps them).

Start a cluster::

    dask scheduler                      # prints tcp://HOST:8786
    dask worker tcp://HOST:8786 --nworkers 4 --nthreads 1
    theorycheck run --scheduler tcp://HOST:8786
"""
from __future__ import annotations

import asyncio
import concurrent.futures as cf
import logging

from .tasks import Task, TaskResult, execute

__all__ = ["run_tasks_dask", "SchedulerLost", "DASK_RETRIES"]

#: How often a task that raised on a worker (outside the task's own error handling) is tried again.
DASK_RETRIES = 2


class SchedulerLost(RuntimeError):
    """The connection to the Dask scheduler was lost during a run (``finished``: tasks that had finished)."""

    def __init__(self, message: str, finished: int = 0):
        super().__init__(message)
        self.finished = finished


class _QuietWhenLost(logging.Filter):
    """Drops the client's log records once its connection is no longer up (reconnection attempts, the traceback
    of an attempt cut short): a lost scheduler is said once, by :class:`SchedulerLost`."""

    def __init__(self, client):
        super().__init__()
        self.client = client

    def filter(self, record) -> bool:
        return self.client.status == "running"


def _dask_key(task: Task, mode: str, seed: int, keys: dict | None) -> str:
    k = (keys or {}).get(task.id)
    return f"theorycheck-{k}" if k else f"theorycheck-{mode}-{seed}-{task.id}"


def run_tasks_dask(tasks: list[Task], mode: str, seed: int, scheduler, progress=None, done: dict | None = None,
                   keys: dict | None = None, retries: int = DASK_RETRIES) -> dict[str, TaskResult]:
    """Run ``tasks`` on the Dask scheduler at ``scheduler`` (an address or a ``distributed.Client``); ``done``:
    results known already that ``tasks`` may consume; ``keys``: content keys by task id (pure Dask keys)."""
    try:
        from distributed import Client, as_completed  # optional: the distributed extra
    except ImportError as exc:  # pragma: no cover - optional dependency
        raise RuntimeError('a Dask cluster needs the distributed extra: pip install "theorycheck[distributed]"') from exc
    own = not isinstance(scheduler, Client)
    client = Client(scheduler) if own else scheduler
    done = done or {}
    futures: dict = {}
    quiet = _QuietWhenLost(client)
    if own:                       # our own connection: the one line of SchedulerLost says its loss
        logging.getLogger("distributed.client").addFilter(quiet)
    try:
        for t in tasks:
            deps = {d: futures[d] if d in futures else done[d] for d in t.deps}
            futures[t.id] = client.submit(execute, t, mode, seed, deps, key=_dask_key(t, mode, seed, keys),
                                          pure=True, retries=retries)
        results = _collect(client, futures, {t.id: t for t in tasks}, progress, as_completed)
        return {t.id: results[t.id] for t in tasks}
    except KeyboardInterrupt:
        if client.status == "running":
            client.cancel(list(futures.values()))
        raise
    finally:
        if own:
            client.close()
            logging.getLogger("distributed.client").removeFilter(quiet)


def _collect(client, futures: dict, by_id: dict, progress, as_completed) -> dict:
    """Results of ``futures`` as they finish, each handed to ``progress``; :class:`SchedulerLost` when the
    scheduler goes away."""
    by_key = {f.key: tid for tid, f in futures.items()}
    results: dict[str, TaskResult] = {}
    for fut in as_completed(list(futures.values())):
        tid = by_key[fut.key]
        try:
            results[tid] = fut.result()
        except Exception as exc:  # noqa: BLE001 - the scheduler, or the task's worker every time it was tried
            if client.status != "running" or isinstance(exc, (cf.CancelledError, asyncio.CancelledError)):
                raise SchedulerLost(f"the Dask scheduler {client.scheduler.address if client.scheduler else ''} "
                                    f"was lost ({type(exc).__name__})", len(results)) from None
            results[tid] = TaskResult(tid, error=f"Dask task failed: {exc!r}")
        if progress:
            progress(by_id[tid], results[tid])
    return results
