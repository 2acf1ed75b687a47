"""The claims of paper 000, one module per part of the seed, in seed order (:data:`SECTIONS`): the one-line summary
and the core idea (lines 13–25), the model and the GLA recursion (44–46), Theorems 1 and 2 (48–50), the shape of the
error in λ, λ* and Theorem 3 (50–57), the experiments (58–66), the findings, highlights and limitations (70–89).
Helpers the sections share: :mod:`._helpers`."""
from . import experiments, findings, forgetting, setup, summary, theorems

SECTIONS = [summary, setup, theorems, forgetting, experiments, findings]
