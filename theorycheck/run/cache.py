r"""The task cache: finished tasks on disk, by content key, so that a run computes only what changed.

Every task of a run has a content key (:class:`theorycheck.run.keys.KeyBuilder`: its source, the static import
closure of its module, the seed text, the library versions, the run's mode and seed, the keys of the fixtures it
consumes). When a task finishes, the driver writes its result under that key at once (:meth:`TaskCache.store`),
so an interrupted or killed run loses at most the tasks in flight; a later run with the same key reads the result
instead of computing it (:meth:`TaskCache.load`). Any change of any input gives another key: the task runs again.

An entry is one file ``<folder>/tasks/<k[:2]>/<key>.tce``: a header line (the key, the task, the payload's
length and SHA-256, its compute time) and the payload (the pickled :class:`~theorycheck.run.tasks.TaskResult`).
It is written to a temporary file and renamed into place (atomic); a truncated or corrupted entry fails its
length or checksum, is deleted and counts as a miss — it is never unpickled. The folder is bounded
(``THEORYCHECK_CACHE_MAX_GB``, default 4): the least recently used entries (a read touches its entry) are evicted
first. Failed tasks are never stored (they run again).

The folder is ``$THEORYCHECK_CACHE_DIR``, else ``$XDG_CACHE_HOME/theorycheck``, else ``~/.cache/theorycheck``
(:func:`theorycheck.run.passed.cache_dir`), created private to the user (a pickle is code: nobody else may write
there). ``theorycheck cache info`` and ``theorycheck cache clear`` show and empty it; ``--no-cache`` runs without.

**Patched code never meets the cache.** A mutant changes a function in memory without changing its source, so a
cached result would hide it. While any :func:`suspended` block is open in a process — the self-test's
:class:`~theorycheck.selftest.Patcher` opens one for as long as it is installed — every cache of that process
reads nothing and writes nothing; and :func:`theorycheck.run.run_papers` uses a cache only when given one.

>>> import tempfile
>>> from theorycheck.run.tasks import TaskResult
>>> c = TaskCache(tempfile.mkdtemp())
>>> c.store("ab" * 32, TaskResult("p:claim:x", value=42, wall_s=1.5))
True
>>> c.load("ab" * 32).value, c.load("ab" * 32).cached, c.peek("ab" * 32)["wall_s"]
(42, True, 1.5)
>>> with suspended():
...     c.load("ab" * 32) is None
True
"""
from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import shutil
import threading
import time
from pathlib import Path

from .passed import cache_dir
from .tasks import TaskResult

__all__ = ["TaskCache", "suspended", "is_suspended", "DEFAULT_MAX_GB", "MAGIC"]

MAGIC = b"theorycheck-task-cache 1\n"
DEFAULT_MAX_GB = 4.0
SUFFIX = ".tce"
_STATE = {"suspended": 0}
_LOCK = threading.Lock()


@contextlib.contextmanager
def suspended():
    """Within this block no cache of this process reads or writes (patched code is running)."""
    with _LOCK:
        _STATE["suspended"] += 1
    try:
        yield
    finally:
        with _LOCK:
            _STATE["suspended"] -= 1


def is_suspended() -> bool:
    """True while a :func:`suspended` block is open in this process."""
    return _STATE["suspended"] > 0


def _max_bytes(max_gb) -> int:
    if max_gb is None:
        raw = os.environ.get("THEORYCHECK_CACHE_MAX_GB", "")
        try:
            max_gb = float(raw) if raw else DEFAULT_MAX_GB
        except ValueError:
            raise ValueError(f"THEORYCHECK_CACHE_MAX_GB must be a positive number of GiB, got {raw!r}") from None
    if not (isinstance(max_gb, (int, float)) and max_gb > 0):
        raise ValueError(f"max_gb must be a positive number of GiB, got {max_gb!r}")
    return int(max_gb * 2 ** 30)


class TaskCache:
    """Task results on disk by content key (see the module docstring). ``folder``: the cache folder (default
    :func:`~theorycheck.run.passed.cache_dir`); ``max_gb``: its bound (default ``THEORYCHECK_CACHE_MAX_GB`` or 4).

    Counters of this instance: ``hits``, ``misses``, ``stored``, ``corrupt`` (entries found broken and deleted),
    ``evicted``. A folder that cannot be written turns the cache off (``usable`` False) — the run goes on."""

    def __init__(self, folder=None, max_gb: float | None = None):
        self.root = Path(folder) if folder is not None else cache_dir()
        self.folder = self.root / "tasks"
        self.max_bytes = _max_bytes(max_gb)
        self.hits = self.misses = self.stored = self.corrupt = self.evicted = 0
        self.usable = True
        self._size: int | None = None
        try:
            self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
            self.folder.mkdir(exist_ok=True, mode=0o700)
        except OSError:
            self.usable = False

    def __repr__(self):
        return f"TaskCache({str(self.root)!r}, hits={self.hits}, stored={self.stored})"

    @property
    def active(self) -> bool:
        """Whether this cache reads and writes now (usable, and no patched code in this process)."""
        return self.usable and not is_suspended()

    def path(self, key: str) -> Path:
        if not (isinstance(key, str) and len(key) == 64 and all(c in "0123456789abcdef" for c in key)):
            raise ValueError(f"key must be a SHA-256 hex digest, got {key!r}")
        return self.folder / key[:2] / f"{key}{SUFFIX}"

    # ------------------------------------------------------------------ entries
    def peek(self, key: str) -> dict | None:
        """The header of the entry ``key`` when the entry is whole (its length matches), else None — the payload
        is not read (a task whose result is not needed)."""
        if not self.active:
            return None
        p = self.path(key)
        try:
            with open(p, "rb") as fh:
                head = _header(fh)
                size = os.fstat(fh.fileno()).st_size
        except (OSError, ValueError):
            return None
        if head is None or head.get("key") != key or size != head["offset"] + head["length"]:
            return None
        return head

    def load(self, key: str) -> TaskResult | None:
        """The stored result of ``key`` (``cached`` True), or None: absent, or broken (then deleted)."""
        if not self.active:
            return None
        p = self.path(key)
        try:
            data = p.read_bytes()
        except OSError:
            self.misses += 1
            return None
        res = _decode(data, key)
        if res is None:
            self.corrupt += 1
            self.misses += 1
            with contextlib.suppress(OSError):
                p.unlink()
            return None
        with contextlib.suppress(OSError):
            os.utime(p)                            # least recently used goes first
        res.cached = True
        self.hits += 1
        return res

    def store(self, key: str, result: TaskResult) -> bool:
        """Write ``result`` under ``key`` (atomic); False when not stored (inactive cache, failed task, not
        picklable, disk error)."""
        if not self.active or _failed(result):
            return False
        try:
            payload = pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - an unpicklable value is computed again next time, never fatal
            return False
        head = {"key": key, "task": result.task, "length": len(payload), "sha256": hashlib.sha256(payload).hexdigest(),
                "wall_s": result.wall_s, "peak_rss_mb": result.peak_rss_mb,
                "when": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())}
        p = self.path(key)
        tmp = p.with_name(f".{p.name}.{os.getpid()}.tmp")
        try:
            p.parent.mkdir(exist_ok=True, mode=0o700)
            with open(tmp, "wb") as fh:
                fh.write(MAGIC + json.dumps(head, sort_keys=True).encode() + b"\n" + payload)
            os.replace(tmp, p)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()
            return False
        self.stored += 1
        if self._size is not None:
            self._size += len(payload)
        if self._size is None or self._size > self.max_bytes:
            self.trim()
        return True

    # ------------------------------------------------------------------ the folder
    def _entries(self) -> list[tuple[float, int, Path]]:
        out = []
        for sub in (self.folder.iterdir() if self.folder.is_dir() else ()):
            if not sub.is_dir():
                continue
            for f in sub.iterdir():
                with contextlib.suppress(OSError):
                    st = f.stat()
                    if f.suffix == SUFFIX:
                        out.append((st.st_mtime, st.st_size, f))
                    elif f.name.endswith(".tmp") and not _pid_alive(f.name.rsplit(".", 2)[-2]):
                        f.unlink()                 # left by a killed writer
        return out

    def trim(self) -> int:
        """Evict the least recently used entries until the folder is at most 90 % of its bound (only when it is
        over the bound); return how many were evicted."""
        entries = self._entries()
        total = sum(s for _, s, _ in entries)
        n = 0
        if total > self.max_bytes:
            for _, size, f in sorted(entries):
                if total <= 0.9 * self.max_bytes:
                    break
                with contextlib.suppress(OSError):
                    f.unlink()
                    total -= size
                    n += 1
        self._size = total
        self.evicted += n
        return n

    def info(self) -> dict:
        """``{"folder", "entries", "bytes", "max_bytes", "oldest", "newest"}`` (times as UTC text)."""
        entries = self._entries()
        when = [t for t, _, _ in entries]
        fmt = lambda t: time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(t))  # noqa: E731
        return {"folder": str(self.folder), "entries": len(entries), "bytes": sum(s for _, s, _ in entries),
                "max_bytes": self.max_bytes, "oldest": fmt(min(when)) if when else None,
                "newest": fmt(max(when)) if when else None}

    def clear(self) -> int:
        """Delete every entry (and the stored analyses of sources); return how many task entries there were."""
        n = len(self._entries())
        for sub in ("tasks", "sources"):
            shutil.rmtree(self.root / sub, ignore_errors=True)
        with contextlib.suppress(OSError):
            self.folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._size = 0
        return n


def _failed(result: TaskResult) -> bool:
    """A task that raised, or a claim whose function raised: run again next time (it may have been the machine)."""
    return bool(result.error) or bool(getattr(result.value, "error", None))


def _header(fh) -> dict | None:
    if fh.read(len(MAGIC)) != MAGIC:
        return None
    line = fh.readline(1 << 16)
    if not line.endswith(b"\n"):
        return None
    head = json.loads(line)
    head["offset"] = len(MAGIC) + len(line)
    return head if isinstance(head.get("length"), int) and isinstance(head.get("sha256"), str) else None


def _decode(data: bytes, key: str) -> TaskResult | None:
    """The result in an entry's bytes, or None when the entry is not whole and exact (never unpickled then)."""
    if not data.startswith(MAGIC):
        return None
    nl = data.find(b"\n", len(MAGIC))
    if nl < 0:
        return None
    try:
        head = json.loads(data[len(MAGIC):nl])
    except ValueError:
        return None
    payload = data[nl + 1:]
    if not isinstance(head, dict) or head.get("key") != key or head.get("length") != len(payload) \
            or head.get("sha256") != hashlib.sha256(payload).hexdigest():
        return None
    try:
        res = pickle.loads(payload)
    except Exception:  # noqa: BLE001 - a class that no longer unpickles: computed again
        return None
    return res if isinstance(res, TaskResult) else None


def _pid_alive(pid: str) -> bool:
    try:
        os.kill(int(pid), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True
