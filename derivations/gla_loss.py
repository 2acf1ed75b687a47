"""User-facing entry point: runs :mod:`theorycheck.derivations.gla_loss` (the derivation ships in the package)."""
from theorycheck.derivations.gla_loss import main

if __name__ == "__main__":
    main()
