"""Run the same tasks on a Dask distributed cluster (``pip install "theorycheck[distributed]"``).

Each task is submitted with ``Client.submit(execute, task, mode, seed, deps)`` where ``deps`` holds
the futures of its dependencies (Dask resolves them on the worker), under a key derived from the
run (``theorycheck-<mode>-<seed>-<task id>``). Workers need the same theorycheck (and plugin
papers) installed. Results are byte-identical to a local run: every task draws its random
streams from the run seed and its own names, and BLAS runs single-threaded inside each task.

Start a cluster::

    dask scheduler                      # prints tcp://HOST:8786
    dask worker tcp://HOST:8786 --nworkers 4 --nthreads 1
    theorycheck run --scheduler tcp://HOST:8786
"""
from __future__ import annotations

from .tasks import Task, TaskResult, execute

__all__ = ["run_tasks_dask"]


def run_tasks_dask(tasks: list[Task], mode: str, seed: int, scheduler, progress=None) -> dict[str, TaskResult]:
    """Run ``tasks`` on the Dask scheduler at ``scheduler`` (an address or a ``distributed.Client``)."""
    try:
        from distributed import Client, as_completed
    except ImportError as exc:  # pragma: no cover - optional dependency
        raise RuntimeError('a Dask cluster needs the distributed extra: pip install "theorycheck[distributed]"') from exc
    own = not isinstance(scheduler, Client)
    client = Client(scheduler) if own else scheduler
    try:
        futures = {}
        for t in tasks:
            deps = {d: futures[d] for d in t.deps}
            futures[t.id] = client.submit(execute, t, mode, seed, deps, key=f"theorycheck-{mode}-{seed}-{t.id}",
                                          pure=False, retries=0)
        by_key = {f.key: tid for tid, f in futures.items()}
        results: dict[str, TaskResult] = {}
        for fut in as_completed(list(futures.values())):
            tid = by_key[fut.key]
            try:
                results[tid] = fut.result()
            except Exception as exc:  # worker lost
                results[tid] = TaskResult(tid, error=f"Dask task failed: {exc!r}")
            if progress:
                progress(next(t for t in tasks if t.id == tid), results[tid])
        return {t.id: results[t.id] for t in tasks}
    finally:
        if own:
            client.close()
