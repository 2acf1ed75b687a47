"""Reversible monkeypatching of the real code, for fault injection (mutants): :class:`Patcher` (example there)."""
from __future__ import annotations

import importlib
import sys

from .. import memo
from ..run.cache import suspended

__all__ = ["Patcher", "clear_caches"]


class Patcher:
    """Reversible monkeypatching of the real code (like pytest's ``monkeypatch``).

    :meth:`replace` rebinds ``module.attr`` **and every other binding of the same object** in the
    loaded ``theorycheck`` modules (``from .gaussian import moment`` creates a second binding that
    a plain ``setattr`` would miss). :meth:`setattr` patches one attribute (e.g. a method on a
    class). Every memo of ``theorycheck`` (:mod:`theorycheck.memo`) is cleared on entry and exit, so a memoised
    correct value can neither hide a mutant nor leak a mutated one. While a patcher is entered or
    holds a patch, the task cache of this process reads and writes nothing
    (:func:`theorycheck.run.cache.suspended`): patched code changes no source, so its results must never be
    stored under — or answered from — the key of the real code.

    >>> from theorycheck.run.cache import is_suspended
    >>> with Patcher():
    ...     is_suspended()
    True
    >>> is_suspended()
    False

    >>> import theorycheck.validate as v
    >>> orig = v.check_int
    >>> with Patcher() as p:
    ...     _ = p.replace(v, "check_int", lambda *a, **k: 42)
    ...     v.check_int("n", 3)
    42
    >>> v.check_int is orig
    True
    """

    def __init__(self):
        self._undo: list[tuple[object, str, object, bool]] = []
        self._entered = False
        self._no_cache = None

    def _suspend_cache(self) -> None:
        if self._no_cache is None:
            self._no_cache = suspended()
            self._no_cache.__enter__()

    def _resume_cache(self) -> None:
        if self._no_cache is not None and not self._undo and not self._entered:
            self._no_cache.__exit__(None, None, None)
            self._no_cache = None

    def __enter__(self):
        self._entered = True
        self._suspend_cache()
        clear_caches()
        return self

    def __exit__(self, *exc):
        self._entered = False
        self.undo()
        return False

    def setattr(self, obj, name: str, value) -> object:
        self._suspend_cache()
        had = name in vars(obj) if hasattr(obj, "__dict__") else hasattr(obj, name)
        old = vars(obj).get(name) if hasattr(obj, "__dict__") else getattr(obj, name)
        self._undo.append((obj, name, old, had))
        setattr(obj, name, value)
        clear_caches()
        return old

    def replace(self, module, name: str, new) -> object:
        """Rebind ``module.name`` and every identical binding in other theorycheck modules;
        return the original object."""
        if isinstance(module, str):
            module = importlib.import_module(module)
        orig = getattr(module, name)
        self.setattr(module, name, new)
        for modname, mod in list(sys.modules.items()):
            if mod is None or mod is module or not modname.startswith("theorycheck"):
                continue
            for attr, val in list(vars(mod).items()):
                if val is orig:
                    self.setattr(mod, attr, new)
        return orig

    def undo(self) -> None:
        while self._undo:
            obj, name, old, had = self._undo.pop()
            if had:
                setattr(obj, name, old)
            else:
                try:
                    delattr(obj, name)
                except AttributeError:  # pragma: no cover
                    pass
        clear_caches()
        self._resume_cache()


def clear_caches() -> None:
    """Empty every memo of theorycheck: they are all registered with the one memo facility
    (:func:`theorycheck.memo.clear_all`; ``tests/test_architecture.py`` checks that no other kind exists)."""
    memo.clear_all()
