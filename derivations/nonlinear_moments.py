"""User-facing entry point: runs :mod:`theorycheck.papers.nonlinear.derivations.nonlinear_moments`
(the derivation ships in the package)."""
from theorycheck.papers.nonlinear.derivations.nonlinear_moments import main

if __name__ == "__main__":
    main()
