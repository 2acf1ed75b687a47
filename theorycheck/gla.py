"""Re-export: the theory of paper 000 (gated linear attention under AR(1) drift) now lives in the paper's package,
:mod:`theorycheck.papers.gla.theory` (modules ``law``, ``sums``, ``errors``, ``drift``, ``flows``, ``simulate``).
This module keeps the old import path ``theorycheck.gla`` working; it holds no code."""
from .deprecation import moved

moved(__name__, "theorycheck.papers.gla.theory")
from .papers.gla.theory import *  # noqa: F401,F403  (re-export of the public names, __all__ below)
from .papers.gla.theory import __all__  # noqa: F401
