"""Re-export (hand-written, not generated): the generated code of paper 004 now lives in
:mod:`theorycheck.papers.nonlinear.generated.nonlinear_moments`, written by ``theorycheck derive --paper nonlinear``."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.nonlinear.generated.nonlinear_moments")
from theorycheck.papers.nonlinear.generated.nonlinear_moments import *  # noqa: F401,F403
