r"""The report folder of a run: one writer at a time, and never half-written.

:class:`OutputLock` — a run holds ``<out>/.theorycheck.lock`` (an exclusive ``flock`` on a file holding its PID)
from before its first task to its last file; a second run into the same folder is refused with
:class:`FolderBusy` naming the first one's PID. The kernel releases the lock when its holder dies, so the lock of
a killed run is simply taken over.

:func:`staged` — reports are rendered into a temporary copy of the folder *beside* it (same file system), then
the files that changed are renamed into the folder one by one (each rename atomic), Ctrl-C held back for those
few milliseconds; files whose bytes did not change are never touched (their modification times stay), and files
of other papers stay as they are. An interrupted or failed rendering leaves the folder exactly as it was (the
temporary copy is removed; one left by a killed run is removed by the next run that holds the lock).

>>> import tempfile, pathlib
>>> out = pathlib.Path(tempfile.mkdtemp()) / "reports"
>>> with OutputLock(out):
...     with staged(out) as tmp:
...         _ = (tmp / "a.md").write_text("new\n")
...     (out / "a.md").read_text()
'new\n'
"""
from __future__ import annotations

import contextlib
import os
import shutil
import signal
import threading
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: the PID in the file decides
    fcntl = None

__all__ = ["OutputLock", "FolderBusy", "staged", "LOCK_NAME", "STAGE_TAG"]

LOCK_NAME = ".theorycheck.lock"
STAGE_TAG = ".theorycheck-staging-"


class FolderBusy(RuntimeError):
    """Another theorycheck process is writing the folder (``pid``: its process id, when known)."""

    def __init__(self, folder, pid):
        super().__init__(f"another theorycheck run (PID {pid or '?'}) is writing to {folder}; wait for it to finish "
                         "or choose another --out")
        self.folder, self.pid = folder, pid


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover
        return True
    return True


def _read_pid(path: Path) -> int | None:
    try:
        return int(path.read_text(encoding="ascii").split()[0])
    except (OSError, ValueError, IndexError):
        return None


class OutputLock:
    """Exclusive right to write the folder ``out`` (a context manager; see the module docstring)."""

    def __init__(self, out):
        self.out = Path(out)
        self.path = self.out / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> "OutputLock":
        self.out.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            if not self._lock(fd):
                os.close(fd)
                raise FolderBusy(self.out, _read_pid(self.path))
            try:                                   # the file we locked is still the one at the path?
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)                           # its holder removed it meanwhile: lock the new one
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        _remove_stale_stages(self.out)
        return self

    def _lock(self, fd: int) -> bool:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False
            return True
        pid = _read_pid(self.path)  # pragma: no cover - no flock: a live PID in the file holds it
        return pid is None or pid == os.getpid() or not _pid_alive(pid)

    def release(self) -> None:
        if self._fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)                   # while still locked: a waiter re-checks the inode
        os.close(self._fd)
        self._fd = None

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()
        return False


def _stage_dirs(out: Path) -> list[Path]:
    places = [out.parent, out]
    return [p for d in places if d.is_dir() for p in d.iterdir()
            if p.is_dir() and p.name.startswith(STAGE_TAG + out.name + "-")]


def _remove_stale_stages(out: Path) -> None:
    """Remove temporary copies left by killed runs (their PID, at the end of the name, is gone)."""
    for d in _stage_dirs(out):
        try:
            pid = int(d.name.rsplit("-", 1)[1])
        except ValueError:
            continue
        if pid != os.getpid() and not _pid_alive(pid):
            shutil.rmtree(d, ignore_errors=True)


def _stage_path(out: Path) -> Path:
    name = f"{STAGE_TAG}{out.name}-{os.getpid()}"
    return out.parent / name if os.access(out.parent, os.W_OK) else out / name


def _ignore(out: Path):
    def ignore(folder, names):
        return [n for n in names if n == LOCK_NAME or n.startswith(STAGE_TAG)] if Path(folder) == out else []
    return ignore


@contextlib.contextmanager
def staged(out):
    """Yield a temporary copy of the folder ``out`` to write into; on success move the changed files into ``out``
    (see the module docstring); on an exception (Ctrl-C included) discard the copy and leave ``out`` as it was."""
    out = Path(out)
    tmp = _stage_path(out)
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(out, tmp, copy_function=shutil.copy2, ignore=_ignore(out), symlinks=True)
    try:
        yield tmp
        with _held_interrupts():
            _commit(tmp, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _commit(tmp: Path, out: Path) -> list[Path]:
    """Rename every file of ``tmp`` that is new or differs (size or modification time) from its copy in ``out``
    into ``out``; return the files moved."""
    moved = []
    files = [p for p in sorted(tmp.rglob("*")) if p.is_file() or p.is_symlink()]
    last = ("results.json", "index.md", "STAMP.json")       # what points at the rest goes last
    files.sort(key=lambda p: (p.parent == tmp and p.name in last, last.index(p.name) if p.name in last else 0))
    for src in files:
        dst = out / src.relative_to(tmp)
        s = src.lstat()
        try:
            d = dst.lstat()
            if (d.st_size, d.st_mtime_ns) == (s.st_size, s.st_mtime_ns):
                continue
        except FileNotFoundError:
            pass
        dst.parent.mkdir(parents=True, exist_ok=True)
        os.replace(src, dst)
        moved.append(dst)
    return moved


@contextlib.contextmanager
def _held_interrupts():
    """Hold Ctrl-C back until the block is done (then raise it); a no-op outside the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got = []
    old = signal.signal(signal.SIGINT, lambda *a: got.append(a))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)
    if got:
        raise KeyboardInterrupt
