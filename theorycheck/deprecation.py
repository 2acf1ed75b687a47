"""Old import paths: a module kept only so that earlier code still imports says where its names live now.

:func:`moved` is called once by such a module, at its top; it emits a :class:`DeprecationWarning` naming the new
path, attributed to the code that imports the old module (not to the import machinery), so Python's default filters
show it when that code is a script (``__main__``) and pytest shows it in a test run. Nothing of theorycheck itself
imports an old path (``tests/test_deprecation.py``).

>>> import warnings
>>> with warnings.catch_warnings(record=True) as w:
...     warnings.simplefilter("always")
...     moved("theorycheck.old", "theorycheck.new")
>>> str(w[0].message)
'theorycheck.old is an old import path: import from theorycheck.new instead (it will be removed)'
"""
from __future__ import annotations

import sys
import warnings

__all__ = ["moved", "OLD_PATHS"]

#: The old import paths of theorycheck (modules and packages that hold re-exports only), with where their names
#: live now.
OLD_PATHS = {
    "theorycheck.gla": "theorycheck.papers.gla.theory",
    "theorycheck.lds": "theorycheck.papers.lds.theory and theorycheck.models",
    "theorycheck.nonlinear": "theorycheck.papers.nonlinear.theory",
    "theorycheck.adaptive_filters": "theorycheck.models.filters, theorycheck.models.prompts and "
                                    "theorycheck.models.attention",
    "theorycheck.generated": "theorycheck.papers.<key>.generated",
    "theorycheck.derivations": "theorycheck.papers.<key>.derivations (or run `theorycheck derive`)",
    "theorycheck.reliability": "theorycheck.selftest.reliability, theorycheck.selftest.fuzz_engines, "
                               "theorycheck.selftest.fuzz_verdicts and theorycheck.papers.<key>.checks.fuzz",
}


def moved(old: str, new: str) -> None:
    """Warn that the module ``old`` is an old import path of ``new`` (a :class:`DeprecationWarning`, attributed to
    the first frame outside the import machinery and outside ``old`` itself)."""
    level, frame = 1, sys._getframe(1)
    while frame is not None and (frame.f_globals.get("__name__", "").startswith(old)
                                 or frame.f_code.co_filename.startswith("<frozen")):
        frame, level = frame.f_back, level + 1
    warnings.warn(f"{old} is an old import path: import from {new} instead (it will be removed)",
                  DeprecationWarning, stacklevel=level + 1)
