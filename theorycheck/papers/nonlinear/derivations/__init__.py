"""SymPy derivations of paper 004 (each ``main()`` writes its generated code into
:mod:`theorycheck.papers.nonlinear.generated` through :func:`theorycheck.codegen.write_module`): the Hermite table
and the two noise levels (:mod:`.nonlinear_hermite`), the moments of Appendix B (:mod:`.nonlinear_moments`), the
a₁ = 0 branch (:mod:`.nonlinear_a1_zero`). Run them with ``theorycheck derive --paper nonlinear``;
``theorycheck derive --check`` compares the shipped code with a fresh derivation."""
