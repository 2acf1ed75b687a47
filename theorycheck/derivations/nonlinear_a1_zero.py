"""Re-export: the derivation now lives in :mod:`theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero`;
``python -m theorycheck.derivations.nonlinear_a1_zero`` still runs it."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero")
from theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero import *  # noqa: F401,F403
from theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero import main

if __name__ == "__main__":
    main()
