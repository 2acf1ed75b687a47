"""SymPy derivations of paper 001: each re-derives key quantities and writes generated NumPy code into
:mod:`theorycheck.papers.lds.generated` (``main()``; ``theorycheck derive --paper lds``)."""
