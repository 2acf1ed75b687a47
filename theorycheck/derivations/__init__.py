"""SymPy derivations of the built-in papers, shipped in the package.

Each module re-derives a paper's key quantities and writes generated NumPy code through
:func:`theorycheck.codegen.write_module`; ``main()`` returns the written paths. Run them with
``theorycheck derive`` (all, or ``--paper KEY``), or ``python -m theorycheck.derivations.<name>``;
``theorycheck derive --check`` regenerates into a temporary folder and fails when the shipped
generated code differs. The top-level ``derivations/`` folder of a source checkout holds thin
entry points with the same names.
"""
from ..deprecation import moved

moved(__name__, "theorycheck.papers.<key>.derivations (or run `theorycheck derive`)")
