"""User-facing entry point: runs :mod:`theorycheck.papers.nonlinear.derivations.nonlinear_hermite`
(the derivation ships in the package)."""
from theorycheck.papers.nonlinear.derivations.nonlinear_hermite import main

if __name__ == "__main__":
    main()
