"""Generated code of paper 001 (written by its derivations, :mod:`theorycheck.papers.lds.derivations`; never
edited by hand: ``theorycheck derive --paper lds`` regenerates it, ``theorycheck derive --check`` compares it)."""
