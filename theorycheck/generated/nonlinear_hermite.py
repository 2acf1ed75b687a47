"""Re-export (hand-written, not generated): the generated code of paper 004 now lives in
:mod:`theorycheck.papers.nonlinear.generated.nonlinear_hermite`, written by ``theorycheck derive --paper nonlinear``."""
from theorycheck.papers.nonlinear.generated.nonlinear_hermite import *  # noqa: F401,F403
