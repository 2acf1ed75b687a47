"""User-facing entry point: runs :mod:`theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero`
(the derivation ships in the package)."""
from theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero import main

if __name__ == "__main__":
    main()
