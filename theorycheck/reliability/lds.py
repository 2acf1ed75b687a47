"""Re-export: the reliability baselines of paper 001 now live in :mod:`theorycheck.papers.lds.checks.fuzz` (found
through ``Paper(fuzz=...)``); this module keeps the old import path."""
from ..papers.lds.checks.fuzz import BASELINES, MODULES

__all__ = ["BASELINES", "MODULES"]
