"""Run tasks on this machine: in this process (``jobs=1``) or in a pool of worker processes.

The pool keeps every worker busy with a ready task (dependencies done), choosing the one with the
longest *critical path* first: its own expected cost plus the longest chain of tasks waiting on it
(upward rank, as in HEFT list scheduling). Expected costs are the wall times of a previous run
(``costs``, e.g. read from its ``STAMP.json``); a task without one counts as the median known cost,
or 1 when nothing is known — then the rank is the length of the chain behind the task, so
fixtures that many claims wait on go first. The order changes only how soon the run finishes: the
results do not depend on the number of workers or the order of completion (each task is seeded
from the run seed and its own names).

>>> from theorycheck.run.tasks import Task
>>> run_tasks([], "quick", 1, jobs=1)
{}
"""
from __future__ import annotations

import concurrent.futures as cf
import contextlib
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from multiprocessing import forkserver

from .tasks import Task, TaskResult, execute

__all__ = ["run_tasks", "default_jobs", "critical_path", "worker_context", "start_worker_server", "PRELOAD",
           "preload_modules",
           "worker_init", "new_pool", "stop_pool", "WORKER_RETRIES"]


#: modules the fork server imports once, so that every worker forked from it starts with them loaded — with the
#: module of every installed paper's entry point (:func:`preload_modules`; not the registry itself: plugins installed
#: later are still found by the workers)
PRELOAD = ("theorycheck.run.tasks", "matplotlib.pyplot")


def preload_modules() -> list[str]:
    """:data:`PRELOAD` and :mod:`theorycheck.run.preload`, which imports the module of every entry point of the
    ``theorycheck.papers`` group that imports cleanly (a broken plugin must not kill the fork server and with it
    the other papers' runs; the parent reports it). Nothing is imported here: no paper is named in the core."""
    return list(PRELOAD) + ["theorycheck.run.preload"]


def worker_context():
    """The ``multiprocessing`` context of every pool of worker processes (checks, derivations, stability,
    reliability): ``forkserver`` where available — workers are forked from a clean server process that has
    imported :data:`PRELOAD` once, instead of each worker importing NumPy, SciPy, SymPy and matplotlib itself —
    else ``spawn``. (The preload list takes effect when the server starts, i.e. at the first pool.)"""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(preload_modules())
        return ctx
    return multiprocessing.get_context("spawn")  # pragma: no cover - Windows / macOS without forkserver


def start_worker_server() -> None:
    """Start the fork server now, so that it imports :data:`PRELOAD` while the caller does its own start-up
    work (nothing to do where the start method is ``spawn``)."""
    if worker_context().get_start_method() == "forkserver":
        forkserver.ensure_running()


def default_jobs() -> int:
    """The cores this process may use (``os.sched_getaffinity`` where available)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - macOS / Windows
        return max(1, os.cpu_count() or 1)


def critical_path(tasks: list[Task], costs: dict | None = None) -> dict[str, float]:
    """Upward rank of every task: its expected cost plus the largest rank among the tasks that need it.

    >>> a, b, c = Task("a", "p", "fixture", "a"), Task("b", "p", "claim", "b", deps=("a",)), Task("c", "p", "claim", "c")
    >>> critical_path([a, b, c], {"a": 2.0, "b": 3.0, "c": 4.0})
    {'c': 4.0, 'b': 3.0, 'a': 5.0}
    """
    known = sorted(v for v in (costs or {}).values() if v > 0)
    default = known[len(known) // 2] if known else 1.0
    children: dict[str, list[str]] = {t.id: [] for t in tasks}
    for t in tasks:
        for d in t.deps:
            if d in children:
                children[d].append(t.id)
    rank: dict[str, float] = {}
    for t in reversed(tasks):                      # tasks come in dependency order: children are ranked first
        rank[t.id] = (costs or {}).get(t.id, default) + max((rank[c] for c in children[t.id]), default=0.0)
    return rank


def worker_init(driver_pid: int) -> None:
    """Set up a worker process of a pool: Ctrl-C is the driver's to handle (it stops the workers), and the worker
    exits on its own when the driver is gone (killed with ``kill -9``: no orphan keeps computing)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()

    def watch():
        while True:
            time.sleep(1.0)
            if os.getppid() != parent or not _alive(driver_pid):
                os._exit(1)
    threading.Thread(target=watch, name="theorycheck-driver-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - another user's process with that id
        return True
    return True


def new_pool(jobs: int, **kw) -> cf.ProcessPoolExecutor:
    """A pool of ``jobs`` worker processes forked from the fork server (:func:`worker_context`), each set up by
    :func:`worker_init`."""
    return cf.ProcessPoolExecutor(max_workers=jobs, mp_context=worker_context(), initializer=worker_init,
                                  initargs=(os.getpid(),), **kw)


def stop_pool(pool: cf.ProcessPoolExecutor) -> None:
    """Stop ``pool`` now: cancel what waits and end the worker processes that are computing."""
    kill = getattr(pool, "terminate_workers", None)          # Python >= 3.14
    if kill is not None:
        kill()
    else:
        for proc in list((getattr(pool, "_processes", None) or {}).values()):
            with contextlib.suppress(Exception):
                proc.terminate()
    pool.shutdown(wait=False, cancel_futures=True)


#: How often a task whose worker process died is submitted again (a worker killed from outside, or by the
#: kernel for memory) before it is recorded as failed.
WORKER_RETRIES = 1


def run_tasks(tasks: list[Task], mode: str, seed: int, jobs: int = 1, progress=None,
              costs: dict | None = None, done: dict | None = None) -> dict[str, TaskResult]:
    """Run ``tasks`` (in dependency order) and return ``{task id: TaskResult}`` of these tasks; ``costs``: expected
    seconds per task id (only the scheduling order depends on them); ``done``: results known already (e.g. read
    from the task cache) that ``tasks`` may consume. ``progress(task, result)`` is called as each task finishes.

    Ctrl-C (``KeyboardInterrupt``) stops the workers at once and propagates; every result handed to ``progress``
    before stays handed. A worker process that dies takes its tasks with it: they are submitted again
    (:data:`WORKER_RETRIES`) in a fresh pool, then recorded as failed."""
    results: dict[str, TaskResult] = dict(done or {})
    if jobs <= 1 or len(tasks) <= 1:
        for t in tasks:
            results[t.id] = execute(t, mode, seed, {d: results[d] for d in t.deps})
            if progress:
                progress(t, results[t.id])
        return {t.id: results[t.id] for t in tasks}
    rank = critical_path(tasks, costs)
    pending = sorted(tasks, key=lambda t: -rank[t.id])
    box = [new_pool(jobs)]
    try:
        _drive(box, pending, results, mode, seed, jobs, progress)
    except BaseException:
        stop_pool(box[0])
        raise
    box[0].shutdown(wait=True)
    return {t.id: results[t.id] for t in tasks}


def _drive(box: list, pending: list, results: dict, mode: str, seed: int, jobs: int, progress) -> None:
    """Keep the pool ``box[0]`` busy with ready tasks of ``pending`` until all have results; a broken pool is
    replaced in ``box`` (see :func:`run_tasks`)."""
    running: dict[cf.Future, Task] = {}
    tries: dict[str, int] = {}
    while pending or running:
        for t in [t for t in pending if all(d in results for d in t.deps)][:max(0, jobs + 1 - len(running))]:
            pending.remove(t)           # one queued beyond the workers, so none waits on the parent
            running[box[0].submit(execute, t, mode, seed, {d: results[d] for d in t.deps})] = t
        if not running:
            raise RuntimeError("task graph has unmet dependencies: " + ", ".join(t.id for t in pending))
        finished, _ = cf.wait(list(running), return_when=cf.FIRST_COMPLETED)
        lost = []
        for f in finished:
            t = running.pop(f)
            try:
                results[t.id] = f.result()
            except BrokenProcessPool as exc:          # a worker died: every task in flight is lost
                lost.append((t, exc))
                continue
            except Exception as exc:  # noqa: BLE001 - e.g. a result that cannot be sent back
                results[t.id] = TaskResult(t.id, error=f"worker process failed: {exc!r}")
            if progress:
                progress(t, results[t.id])
        if lost:
            lost += [(t, None) for t in running.values()]
            running.clear()
            stop_pool(box[0])
            box[0] = new_pool(jobs)
            for t, exc in lost:
                tries[t.id] = tries.get(t.id, 0) + 1
                if tries[t.id] > WORKER_RETRIES:
                    results[t.id] = TaskResult(t.id, error=f"worker process failed: {exc!r}")
                    if progress:
                        progress(t, results[t.id])
                else:
                    pending.insert(0, t)
