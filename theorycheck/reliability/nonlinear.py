"""Re-export: the reliability baselines of paper 004 now live in the paper's own fuzz module,
:mod:`theorycheck.papers.nonlinear.checks.fuzz` (``Paper(fuzz=...)``)."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.nonlinear.checks.fuzz")
from theorycheck.papers.nonlinear.checks.fuzz import BASELINES, MODULES  # noqa: F401,E402
