"""The papers the toolkit checks, discovered through the ``theorycheck.papers`` entry-point group.

Every paper — built in or from an installed third-party package — declares itself the same way:
an entry point in the group :data:`ENTRY_POINT_GROUP` naming a :class:`~theorycheck.papers.api.Paper`
object. The built-in papers are declared in this project's ``setup.cfg``::

    [options.entry_points]
    theorycheck.papers =
        gla = theorycheck.papers.gla:PAPER

and a plugin package does the same in its own ``pyproject.toml`` (``theorycheck new-paper`` writes
one). Nothing is registered by hand anywhere else.

>>> sorted(keys())[:3]
['gla', 'lds', 'nonlinear']
>>> load("nonlinear").seed_id
'004'
"""
from __future__ import annotations

import warnings
from importlib import metadata

from .api import Claims, Paper

__all__ = ["ENTRY_POINT_GROUP", "registry", "keys", "load", "by_seed", "refresh", "load_errors", "Paper", "Claims",
           "PluginWarning"]

ENTRY_POINT_GROUP = "theorycheck.papers"


class PluginWarning(UserWarning):
    """A paper plugin was found but could not be loaded (the other papers still work)."""

_REGISTRY: dict | None = None
_ERRORS: dict = {}


def refresh() -> None:
    """Forget the discovered papers (the next call re-reads the installed entry points)."""
    global _REGISTRY
    _REGISTRY = None
    _ERRORS.clear()


def registry() -> dict[str, Paper]:
    """``{key: Paper}`` for every installed paper, sorted by key. A plugin that fails to load is
    skipped with a warning (see :func:`load_errors`) so one broken plugin cannot stop the others."""
    global _REGISTRY
    if _REGISTRY is None:
        found: dict[str, Paper] = {}
        for ep in sorted(metadata.entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            try:
                paper = ep.load()
                if not isinstance(paper, Paper):
                    raise TypeError(f"entry point {ep.value} must name a theorycheck Paper, got {type(paper).__name__}")
                if paper.key != ep.name:
                    raise ValueError(f"entry point name {ep.name!r} differs from the paper key {paper.key!r}")
                if paper.key in found:
                    raise ValueError(f"paper key {paper.key!r} is declared twice")
                seeds = {p.seed_id: k for k, p in found.items()}
                if paper.seed_id in seeds:
                    raise ValueError(f"seed id {paper.seed_id!r} of {paper.key} is already used by {seeds[paper.seed_id]}")
                found[paper.key] = paper
            except Exception as exc:  # noqa: BLE001 - reported, never silently ignored
                _ERRORS[ep.name] = f"{type(exc).__name__}: {exc}"
                warnings.warn(f"theorycheck: paper plugin {ep.name!r} ({ep.value}) could not be loaded: {exc}",
                              PluginWarning, stacklevel=2)
        if not found and not _ERRORS:
            raise RuntimeError("no theorycheck papers are installed (entry-point group 'theorycheck.papers' is "
                               "empty): install the package with `pip install -e .` or `pip install .`")
        _REGISTRY = found
    return _REGISTRY


def load_errors() -> dict[str, str]:
    """Plugins that were found but could not be loaded: ``{name: error}``."""
    registry()
    return dict(_ERRORS)


def keys() -> list[str]:
    return list(registry())


def load(key: str) -> Paper:
    """The :class:`Paper` registered as ``key`` (``ValueError`` naming the known keys otherwise)."""
    reg = registry()
    if key not in reg:
        raise ValueError(f"paper must be one of {sorted(reg)}, got {key!r}")
    return reg[key]


def by_seed(seed_id: str) -> Paper:
    """The paper whose seed id is ``seed_id``."""
    for p in registry().values():
        if p.seed_id == seed_id:
            return p
    raise ValueError(f"seed id must be one of {sorted(p.seed_id for p in registry().values())}, got {seed_id!r}")
