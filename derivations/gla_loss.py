"""User-facing entry point: runs :mod:`theorycheck.papers.gla.derivations.gla_loss` (the derivation ships in the
paper's package)."""
import warnings

from theorycheck.papers.gla.derivations.gla_loss import main

warnings.warn("derivations/gla_loss.py is an old entry point: run `theorycheck derive --paper gla` or "
              "`python -m theorycheck.papers.gla.derivations.gla_loss` instead (it will be removed)",
              DeprecationWarning, stacklevel=1)

if __name__ == "__main__":
    main()
