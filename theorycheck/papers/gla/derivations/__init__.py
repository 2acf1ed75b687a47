"""SymPy derivations of paper 000. Each module re-derives key quantities of the paper and writes generated NumPy code
into :mod:`theorycheck.papers.gla.generated` (``main()`` returns the written paths); run them with
``theorycheck derive --paper gla`` or ``python -m theorycheck.papers.gla.derivations.<name>``."""
