"""Re-export: the derivation of paper 001's symbolic identities now lives in
:mod:`theorycheck.papers.lds.derivations.lds_identities`; this module keeps the old import path."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.lds.derivations.lds_identities")
from theorycheck.papers.lds.derivations.lds_identities import (
    BLOCK_CASES, block_sides, block_structure, gd_identity, gd_identity_sides, gd_identity_symbolic_T,
    gd_symbolic_T_sides, GD_T_VALUES, GENERATED_PACKAGE, main, parity_pattern, PARITY_S, predictor_form,
    predictor_sides, SCRIPT)

__all__ = ["BLOCK_CASES", "block_sides", "block_structure", "gd_identity", "gd_identity_sides",
           "gd_identity_symbolic_T", "gd_symbolic_T_sides", "GD_T_VALUES", "GENERATED_PACKAGE", "main",
           "parity_pattern", "PARITY_S", "predictor_form", "predictor_sides", "SCRIPT"]

if __name__ == "__main__":
    main()
