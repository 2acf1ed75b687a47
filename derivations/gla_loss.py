"""User-facing entry point: runs :mod:`theorycheck.papers.gla.derivations.gla_loss` (the derivation ships in the
paper's package)."""
from theorycheck.papers.gla.derivations.gla_loss import main

if __name__ == "__main__":
    main()
