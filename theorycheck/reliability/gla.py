"""Re-export: the reliability baselines of paper 000 now live in the paper's package,
:mod:`theorycheck.papers.gla.checks.fuzz` (found through ``Paper(fuzz=...)``). This module keeps the old import path
working; it holds no code."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.gla.checks.fuzz")
from ..papers.gla.checks.fuzz import BASELINES, MODULES  # noqa: F401,E402
