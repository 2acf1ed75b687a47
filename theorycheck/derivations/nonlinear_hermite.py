"""Re-export: the derivation now lives in :mod:`theorycheck.papers.nonlinear.derivations.nonlinear_hermite`;
``python -m theorycheck.derivations.nonlinear_hermite`` still runs it."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.nonlinear.derivations.nonlinear_hermite")
from theorycheck.papers.nonlinear.derivations.nonlinear_hermite import *  # noqa: F401,F403
from theorycheck.papers.nonlinear.derivations.nonlinear_hermite import main

if __name__ == "__main__":
    main()
