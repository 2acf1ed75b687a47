"""Imported once by the worker fork server: every installed paper's entry-point module, so that workers are forked
with the papers already loaded.

A paper module that fails to import is left out here — the fork server would otherwise die on it and take every
paper's run with it. The failure is never silent: the parent process loads the papers itself and reports each
plugin that could not be loaded, with its cause (:func:`theorycheck.papers.load_errors`, a ``PluginWarning``).
Nothing here names a paper: the modules come from the ``theorycheck.papers`` entry-point group.
"""
from __future__ import annotations

from importlib import import_module, metadata

#: the entry-point modules this process imported (the others failed: the parent reports them)
LOADED: list[str] = []

for _module in sorted({ep.module for ep in metadata.entry_points(group="theorycheck.papers")}):
    try:
        import_module(_module)
    except Exception:  # noqa: BLE001 - reported by the parent process (papers.load_errors), see the docstring
        continue
    LOADED.append(_module)
