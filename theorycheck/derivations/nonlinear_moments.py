"""Re-export: the derivation now lives in :mod:`theorycheck.papers.nonlinear.derivations.nonlinear_moments`;
``python -m theorycheck.derivations.nonlinear_moments`` still runs it."""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.nonlinear.derivations.nonlinear_moments")
from theorycheck.papers.nonlinear.derivations.nonlinear_moments import *  # noqa: F401,F403
from theorycheck.papers.nonlinear.derivations.nonlinear_moments import main

if __name__ == "__main__":
    main()
