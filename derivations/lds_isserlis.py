"""User-facing entry point: runs :mod:`theorycheck.papers.lds.derivations.lds_isserlis` (the derivation ships in the package)."""
from theorycheck.papers.lds.derivations.lds_isserlis import main

if __name__ == "__main__":
    main()
