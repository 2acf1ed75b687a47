"""User-facing entry point: runs :mod:`theorycheck.papers.lds.derivations.lds_isserlis` (the derivation ships in the package)."""
import warnings

from theorycheck.papers.lds.derivations.lds_isserlis import main

warnings.warn("derivations/lds_isserlis.py is an old entry point: run `theorycheck derive --paper lds` or "
              "`python -m theorycheck.papers.lds.derivations.lds_isserlis` instead (it will be removed)",
              DeprecationWarning, stacklevel=1)

if __name__ == "__main__":
    main()
