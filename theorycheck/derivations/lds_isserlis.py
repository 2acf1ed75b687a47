"""Re-export: the derivation of paper 001's Isserlis expansions and scalar-LDS closed forms now lives in
:mod:`theorycheck.papers.lds.derivations.lds_isserlis`; this module keeps the old import path."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.lds.derivations.lds_isserlis")
from theorycheck.papers.lds.derivations.lds_isserlis import (
    BITS, check_N_symbolic_T, check_trace_forms, GENERATED_PACKAGE, isserlis_expansions, main, scalar_autocovariance,
    scalar_N_symbolic_T, scalar_tables, SCRIPT, symbolic_cross_check, T_VALUES, trace_form_sides)

__all__ = ["BITS", "check_N_symbolic_T", "check_trace_forms", "GENERATED_PACKAGE", "isserlis_expansions", "main",
           "scalar_autocovariance", "scalar_N_symbolic_T", "scalar_tables", "SCRIPT", "symbolic_cross_check",
           "T_VALUES", "trace_form_sides"]

if __name__ == "__main__":
    main()
