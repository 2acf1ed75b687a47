"""The claims of paper 001, one module per section of the seed; :data:`SECTIONS` is their seed order (the order of the
claims: by section, then by definition line inside a section).

- :mod:`.background`: background and motivation (lines 21–27)
- :mod:`.ar_reduction`: key design 1, the reduction to AR(s) least squares (lines 46–50)
- :mod:`.lemma41`: key design 2, the banded structure of the optimality condition, Lemma 4.1 (line 54)
- :mod:`.theorem41`: key design 3, the closed-form AR(1) optimum, Theorem 4.1 (lines 58–62)
- :mod:`.pcg_interpretation`: key design 4, the PCG / Krylov reading for s ≥ 2 (lines 66–70)
- :mod:`.experiments`: the experiments (lines 84–93)
- :mod:`.insights`: highlights and insights (lines 98–100)
- :mod:`.limitations`: limitations (line 104)
"""
from . import ar_reduction, background, experiments, insights, lemma41, limitations, pcg_interpretation, theorem41

SECTIONS = [background, ar_reduction, lemma41, theorem41, pcg_interpretation, experiments, insights, limitations]
