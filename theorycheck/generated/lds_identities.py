"""Re-export (hand-written, not generated): the generated code of paper 001's symbolic identities now lives in
:mod:`theorycheck.papers.lds.generated.lds_identities`; this module keeps the old import path."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.lds.generated.lds_identities")
from theorycheck.papers.lds.generated.lds_identities import (
    BLOCK_CASES, GD_IDENTITY_SYMBOLIC_T, gd_step_size, GD_T_VALUES, LATEX, PREDICTOR_FORM_CASES, ZERO_PATTERN)

__all__ = ["BLOCK_CASES", "GD_IDENTITY_SYMBOLIC_T", "gd_step_size", "GD_T_VALUES", "LATEX", "PREDICTOR_FORM_CASES",
           "ZERO_PATTERN"]
