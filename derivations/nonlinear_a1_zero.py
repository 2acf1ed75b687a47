"""User-facing entry point: runs :mod:`theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero`
(the derivation ships in the package)."""
import warnings

from theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero import main

warnings.warn("derivations/nonlinear_a1_zero.py is an old entry point: run `theorycheck derive --paper nonlinear` or "
              "`python -m theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero` instead (it will be removed)",
              DeprecationWarning, stacklevel=1)

if __name__ == "__main__":
    main()
