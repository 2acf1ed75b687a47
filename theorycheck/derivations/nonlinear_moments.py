"""Re-export: the derivation now lives in :mod:`theorycheck.papers.nonlinear.derivations.nonlinear_moments`;
``python -m theorycheck.derivations.nonlinear_moments`` still runs it."""
from theorycheck.papers.nonlinear.derivations.nonlinear_moments import *  # noqa: F401,F403
from theorycheck.papers.nonlinear.derivations.nonlinear_moments import main

if __name__ == "__main__":
    main()
