r"""The one memo facility: bounded, keyed by value, registered (an engine: imports nothing of theorycheck).

A memo remembers the results of a *pure* function of its arguments inside one process (a worker keeps them
between its tasks). Every memo of theorycheck is a :class:`Memo` made here, so that

- it is **bounded**: at most ``maxsize`` entries (and, with ``maxbytes``, at most that many bytes of NumPy
  arrays), the least recently used entry evicted first;
- it is **keyed by value** (:func:`key`): numbers by type and exact value (``float.hex``), strings, ``None``,
  tuples and lists element by element, dicts by their sorted items, NumPy arrays by dtype, shape and a
  BLAKE2b digest of their bytes, SymPy objects structurally. Never by ``id()``: an object freed and another
  allocated at the same address cannot be mistaken for it. An argument that has no value key raises
  ``TypeError`` — such a call must not be memoised;
- it is **registered** by name: :func:`registry` lists every memo and :func:`clear_all` empties them all (the
  self-test does, before and after each mutant, so a patched function is never answered from a memo). A memo that
  belongs to one object (``Memo(None, …)``: e.g. the filter runs of one reconciliation model) has no name and dies
  with its owner; :func:`clear_all` empties it too while it lives;
- it may be **per thread** (``per_thread=True``): each thread sees its own entries (scratch state of a pass that a
  Dask worker may run in several threads of one process at once); :func:`clear_all` empties every thread's.

Speed never buys a second copy of logic: the memoised function is the one route; the memo only remembers it.

>>> m = Memo("doc.square", maxsize=2)
>>> m.get_or_compute(key(3.0), lambda: 9.0), m.get_or_compute(key(3.0), lambda: -1.0)
(9.0, 9.0)
>>> key(1) == key(1.0), key(np.arange(3)) == key(np.arange(3))
(False, True)
>>> @memoize("doc.cube", maxsize=8)
... def cube(x):
...     return x ** 3
>>> cube(2), cube(2), registry()["doc.cube"].hits
(8, 8, 1)
>>> unregister("doc.square"), unregister("doc.cube")
(None, None)
"""
from __future__ import annotations

import functools
import hashlib
import itertools
import sys
import threading
import weakref
from collections import OrderedDict
from typing import Any, Callable

import numpy as np

__all__ = ["Memo", "key", "memoize", "registry", "clear_all", "unregister"]

_REGISTRY: dict[str, "Memo"] = {}
_OWNED: "weakref.WeakSet[Memo]" = weakref.WeakSet()      # the unnamed memos of live objects (cleared by clear_all)
_MISSING = object()


def _sympy_basic():
    sp = sys.modules.get("sympy")
    return sp.Basic if sp is not None else None


def key(*parts: Any) -> tuple:
    """A hashable key of ``parts`` by value (see the module docstring); ``TypeError`` for a part without one."""
    return tuple(_key(p) for p in parts)


def _key(x: Any):  # noqa: C901 - one case per kind of value
    if x is None or isinstance(x, (bool, str, bytes)):
        return (type(x).__name__, x)
    if isinstance(x, (int, np.integer)):
        return ("int", int(x))
    if isinstance(x, (float, np.floating)):
        return ("float", float(x).hex())
    if isinstance(x, complex):
        return ("complex", x.real.hex(), x.imag.hex())
    if isinstance(x, np.ndarray):
        if x.dtype == object:
            return ("ndarray-object", x.shape, tuple(_key(v) for v in x.ravel()))
        a = np.ascontiguousarray(x)
        return ("ndarray", a.dtype.str, a.shape, hashlib.blake2b(a.view(np.uint8).ravel(), digest_size=20).digest())
    if isinstance(x, (tuple, list)):
        return (type(x).__name__, tuple(_key(v) for v in x))
    if isinstance(x, (frozenset, set)):
        return (type(x).__name__, tuple(sorted((_key(v) for v in x), key=repr)))
    if isinstance(x, dict):
        return ("dict", tuple(sorted(((_key(k), _key(v)) for k, v in x.items()), key=repr)))
    basic = _sympy_basic()
    if basic is not None and isinstance(x, basic):
        return ("sympy", x)                      # SymPy's hash and == are structural
    raise TypeError(f"{type(x).__name__} has no value key; do not memoise calls with such an argument")


def _nbytes(v: Any) -> int:
    if isinstance(v, np.ndarray):
        return int(v.nbytes)
    if isinstance(v, (tuple, list)):
        return sum(_nbytes(x) for x in v)
    if isinstance(v, dict):
        return sum(_nbytes(x) for x in v.values())
    return 0


class _Store:
    """The entries of a memo (or of one thread's view of it)."""

    def __init__(self, generation: int = 0):
        self.data: OrderedDict = OrderedDict()
        self.sizes: dict = {}
        self.nbytes = 0
        self.generation = generation


class Memo:
    """A registered, bounded LRU map from value keys (:func:`key`) to results.

    ``name``: unique, dotted (``"<module>.<what>"``), or ``None`` for a memo owned by one object (unnamed, not in
    :func:`registry`, emptied by :func:`clear_all` while it lives); ``maxsize``: entries kept; ``maxbytes``: NumPy
    bytes kept (``None``: no byte bound); an entry larger than ``maxbytes`` — or than ``max_item_bytes`` — is returned
    but not kept; ``per_thread``: every thread has its own entries.

    >>> m = Memo(None, maxsize=1, per_thread=True)
    >>> import threading
    >>> _ = m.put(key(1), "main")
    >>> t = threading.Thread(target=lambda: m.put(key(1), "other")); t.start(); t.join()
    >>> m.get(key(1))
    'main'
    """

    def __init__(self, name: str | None, maxsize: int = 128, maxbytes: int | None = None, *,
                 max_item_bytes: int | None = None, per_thread: bool = False):
        if name is not None and (not isinstance(name, str) or not name):
            raise ValueError(f"name must be a non-empty string or None, got {name!r}")
        if name is not None and name in _REGISTRY:
            raise ValueError(f"a memo named {name!r} is already registered")
        if not isinstance(maxsize, int) or maxsize < 1:
            raise ValueError(f"maxsize must be a positive integer, got {maxsize!r}")
        for what, v in (("maxbytes", maxbytes), ("max_item_bytes", max_item_bytes)):
            if v is not None and (not isinstance(v, int) or v < 1):
                raise ValueError(f"{what} must be a positive integer or None, got {v!r}")
        self.name, self.maxsize, self.maxbytes = name, maxsize, maxbytes
        self.max_item_bytes, self.per_thread = max_item_bytes, bool(per_thread)
        self._shared = _Store()
        self._local = threading.local()
        self._generation = itertools.count(1)
        self._current = 0
        self._lock = threading.RLock()
        self.hits = self.misses = 0
        if name is None:
            _OWNED.add(self)
        else:
            _REGISTRY[name] = self

    def _store(self) -> _Store:
        if not self.per_thread:
            return self._shared
        st = getattr(self._local, "store", None)
        if st is None or st.generation != self._current:      # a clear() since this thread last looked
            st = self._local.store = _Store(self._current)
        return st

    def __len__(self) -> int:
        return len(self._store().data)

    def __repr__(self) -> str:
        return f"Memo({self.name!r}, {len(self)}/{self.maxsize} entries, {self._store().nbytes} array bytes)"

    def get(self, k, default=None):
        """The result kept under ``k`` (marked most recently used), else ``default``."""
        with self._lock:
            st = self._store()
            v = st.data.get(k, _MISSING)
            if v is _MISSING:
                self.misses += 1
                return default
            st.data.move_to_end(k)
            self.hits += 1
            return v

    def put(self, k, value):
        """Keep ``value`` under ``k`` (evicting the least recently used entries beyond the bounds); return it."""
        bounded = self.maxbytes is not None or self.max_item_bytes is not None
        size = _nbytes(value) if bounded else 0
        with self._lock:
            st = self._store()
            if k in st.data:
                st.nbytes -= st.sizes.pop(k, 0)
                del st.data[k]
            if (self.maxbytes is not None and size > self.maxbytes) or \
                    (self.max_item_bytes is not None and size > self.max_item_bytes):
                return value
            st.data[k] = value
            st.sizes[k] = size
            st.nbytes += size
            while len(st.data) > self.maxsize or (self.maxbytes is not None and st.nbytes > self.maxbytes):
                old, _ = st.data.popitem(last=False)
                st.nbytes -= st.sizes.pop(old, 0)
        return value

    def get_or_compute(self, k, compute: Callable[[], Any]):
        """The result under ``k``, computing and keeping ``compute()`` on a miss."""
        v = self.get(k, _MISSING)
        return self.put(k, compute()) if v is _MISSING else v

    def clear(self) -> None:
        """Forget every entry (of every thread, for a per-thread memo)."""
        with self._lock:
            self._shared = _Store()
            self._current = next(self._generation)


def memoize(name: str, maxsize: int = 128, maxbytes: int | None = None, *, copy: Callable | None = None):
    """Decorator: memoise a pure function by the value keys of its arguments in a registered :class:`Memo`.

    ``copy``: applied to the result handed out (e.g. ``dict`` or ``np.copy``) when callers may mutate it."""
    def deco(fn):
        memo = Memo(name, maxsize, maxbytes)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            k = key(args, kwargs) if kwargs else key(*args)
            v = memo.get(k, _MISSING)
            if v is _MISSING:
                v = memo.put(k, fn(*args, **kwargs))
            return copy(v) if copy is not None else v
        wrapper.memo = memo
        wrapper.__wrapped__ = fn
        return wrapper
    return deco


def registry() -> dict[str, Memo]:
    """Every registered memo, by name."""
    return dict(_REGISTRY)


def clear_all() -> None:
    """Empty every memo, named or owned (the self-test does, around each mutant)."""
    for m in [*_REGISTRY.values(), *list(_OWNED)]:
        m.clear()


def unregister(name: str) -> None:
    """Forget the memo ``name`` (for tests and examples that make throw-away memos)."""
    _REGISTRY.pop(name, None)
