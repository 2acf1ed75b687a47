"""Generated NumPy code of paper 000, written by its SymPy derivations (:mod:`theorycheck.papers.gla.derivations`)
through :func:`theorycheck.codegen.write_module` — never edited by hand; ``theorycheck derive --paper gla``
regenerates it and ``theorycheck derive --check`` compares it with what the derivations produce."""
