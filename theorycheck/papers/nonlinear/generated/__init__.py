"""Generated code of paper 004 (written by :mod:`theorycheck.papers.nonlinear.derivations`; never edited by hand)."""
