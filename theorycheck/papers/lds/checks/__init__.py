"""The paper's self-test material: :mod:`.mutants` (realistic mistakes, ``Paper(mutants=...)``) and :mod:`.fuzz`
(reliability baselines, ``Paper(fuzz=...)``)."""
