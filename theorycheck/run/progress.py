r"""Progress of a run: a bar on a terminal, a status line at most every 30 s in a log.

On a terminal (stderr is a TTY) a tqdm bar counts the tasks. Anywhere else — a file, a CI log — a status line
is printed at most every ``interval`` seconds (``THEORYCHECK_PROGRESS_INTERVAL``, default 30; none at all with
``THEORYCHECK_PROGRESS=0``), also while no task finishes, so a log shows the run is alive::

    progress  120/372 tasks done (95 from the cache), 2m10s elapsed, about 3m left

The time left is the expected cost of the tasks not yet done — their wall times in the previous run's
``STAMP.json`` (``costs``; a task without one counts as the median) — divided by the number of workers.

>>> import io
>>> from theorycheck.run.tasks import Task, TaskResult
>>> ts = [Task("a", "p", "claim", "a"), Task("b", "p", "claim", "b")]
>>> pr = Progress(ts, "check quick", costs={"a": 60.0, "b": 120.0}, stream=io.StringIO(), tty=False)
>>> pr(ts[0], TaskResult("a", cached=True))
>>> pr.status_line(elapsed=5.0)
'progress  1/2 tasks done (1 from the cache), 5s elapsed, about 2m00s left'
>>> pr.close()
"""
from __future__ import annotations

import os
import sys
import threading
import time

try:
    from tqdm import tqdm
except ImportError:  # pragma: no cover - tqdm is a dependency
    tqdm = None

__all__ = ["Progress", "DEFAULT_INTERVAL", "format_seconds"]

DEFAULT_INTERVAL = 30.0


def format_seconds(s: float) -> str:
    """``"45s"``, ``"2m10s"``, ``"1h05m"``.

    >>> format_seconds(5.2), format_seconds(130), format_seconds(3900)
    ('5s', '2m10s', '1h05m')
    """
    s = int(round(s))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{(s % 3600) // 60:02d}m"


def _interval() -> float:
    raw = os.environ.get("THEORYCHECK_PROGRESS_INTERVAL", "")
    try:
        v = float(raw) if raw else DEFAULT_INTERVAL
    except ValueError:
        raise ValueError(f"THEORYCHECK_PROGRESS_INTERVAL must be a positive number of seconds, got {raw!r}") from None
    if v <= 0:
        raise ValueError(f"THEORYCHECK_PROGRESS_INTERVAL must be a positive number of seconds, got {raw!r}")
    return v


class Progress:
    """A ``progress(task, result)`` callback of :func:`theorycheck.run.run_papers` for ``tasks`` (see the module
    docstring). ``quiet``: show nothing; ``tty``: force the terminal (True) or log (False) behaviour; ``jobs``:
    the workers the time left is shared by. Call :meth:`close` at the end."""

    def __init__(self, tasks, label: str, quiet: bool = False, costs: dict | None = None, jobs: int = 1,
                 stream=None, tty: bool | None = None):
        self.stream = stream if stream is not None else sys.stderr
        self.ids = [t.id for t in tasks]
        self.done: set = set()
        self.cached = 0
        self.failed: list = []
        self.jobs = max(1, jobs)
        known = sorted(v for v in (costs or {}).values() if v > 0)
        self.costs = dict(costs or {})
        self.default_cost = known[len(known) // 2] if known else None
        self.t0 = time.monotonic()
        self.quiet = quiet
        tty = self.stream.isatty() if tty is None else tty
        self.bar = tqdm(total=len(self.ids), desc=label, unit="task", file=self.stream) \
            if tty and not quiet and tqdm is not None else None
        self._stop = threading.Event()
        self._thread = None
        if not tty and not quiet and os.environ.get("THEORYCHECK_PROGRESS") != "0":
            self.interval = _interval()
            self._thread = threading.Thread(target=self._tick, name="theorycheck-progress", daemon=True)
            self._thread.start()

    def __call__(self, task, result) -> None:
        if task.id in self.done:
            return
        self.done.add(task.id)
        self.cached += bool(getattr(result, "cached", False))
        if result.error:
            self.failed.append(task.id)
        if self.bar is not None:
            self.bar.update(1)
            if result.error and not self.quiet:
                self.bar.write(f"task {task.id} FAILED")

    def status_line(self, elapsed: float | None = None) -> str:
        """The log line for now (or for ``elapsed`` seconds since the start)."""
        elapsed = time.monotonic() - self.t0 if elapsed is None else elapsed
        line = (f"progress  {len(self.done)}/{len(self.ids)} tasks done ({self.cached} from the cache), "
                f"{format_seconds(elapsed)} elapsed")
        if self.default_cost is not None:
            left = sum(self.costs.get(t, self.default_cost) for t in self.ids if t not in self.done) / self.jobs
            line += f", about {format_seconds(left)} left"
        return line

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            print(self.status_line(), file=self.stream, flush=True)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self.bar is not None:
            self.bar.close()
