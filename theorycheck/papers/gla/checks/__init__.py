"""The self-test's view of paper 000: :mod:`.mutants` (realistic mistakes, each wrapping the real function where it
can) and :mod:`.fuzz` (baselines of the reliability fuzzing)."""
