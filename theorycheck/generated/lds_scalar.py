"""Re-export (hand-written, not generated): the generated scalar-LDS Isserlis closed forms of paper 001 now live
in :mod:`theorycheck.papers.lds.generated.lds_scalar`; this module keeps the old import path."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.lds.generated.lds_scalar")
from theorycheck.papers.lds.generated.lds_scalar import (
    D_ISSERLIS_TERMS, K_scalar_upper, LATEX, N_ISSERLIS_TERMS, N_scalar_closed, P_scalar, POLY,
    SYMBOLIC_CROSS_CHECK_T, T_VALUES)

__all__ = ["D_ISSERLIS_TERMS", "K_scalar_upper", "LATEX", "N_ISSERLIS_TERMS", "N_scalar_closed", "P_scalar", "POLY",
           "SYMBOLIC_CROSS_CHECK_T", "T_VALUES"]
