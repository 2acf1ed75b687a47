"""Re-export: the reliability baselines of paper 001 now live in :mod:`theorycheck.papers.lds.fuzz` (found through
``Paper(fuzz=...)``); this module keeps the old import path."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.lds.fuzz")
from ..papers.lds.fuzz import BASELINES, MODULES

__all__ = ["BASELINES", "MODULES"]
