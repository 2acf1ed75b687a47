"""Re-export (hand-written, not generated): the generated code of paper 000 now lives in
:mod:`theorycheck.papers.gla.generated.gla_loss`, written by :mod:`theorycheck.papers.gla.derivations.gla_loss`."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.gla.generated.gla_loss")
from ..papers.gla.generated.gla_loss import *  # noqa: F401,F403
