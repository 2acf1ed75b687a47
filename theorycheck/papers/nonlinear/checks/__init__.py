"""The self-test's view of paper 004: fault-injection mutants (:mod:`.mutants`, ``Paper(mutants=...)``) and the
baselines of the reliability fuzzing (:mod:`.fuzz`, ``Paper(fuzz=...)``)."""
