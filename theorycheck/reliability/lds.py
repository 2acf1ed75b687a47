"""Re-export: the reliability baselines of paper 001 now live in the paper's package,
:mod:`theorycheck.papers.lds.checks.fuzz` (found through ``Paper(fuzz=...)``). This module keeps the old import path
working; it holds no code."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.lds.checks.fuzz")
from ..papers.lds.checks.fuzz import BASELINES, MODULES  # noqa: F401,E402
