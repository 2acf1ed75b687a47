"""User-facing entry point: runs :mod:`theorycheck.derivations.lds_identities` (the derivation ships in the package)."""
from theorycheck.derivations.lds_identities import main

if __name__ == "__main__":
    main()
