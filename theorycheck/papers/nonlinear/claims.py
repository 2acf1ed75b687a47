r"""Claims of paper 004, registered in seed order from one module per section of the seed:
:mod:`.claims_setup` (lines 6–81: metadata, the contribution, the data ratios, the predictor and its fit),
:mod:`.claims_hermite` (85–109: Hermite decomposition, the two noise levels), :mod:`.claims_moments` (115–136: task
norms, the effective rank, Appendix B), :mod:`.claims_theory` (140–164: Result 1, the a₁ = 0 branch),
:mod:`.claims_fig1` (170–190: Figure 1) and :mod:`.claims_fig2` (192–219: Figure 2); every other sentence of the seed
is assigned in :mod:`.seed_map` (restates a claim, or not a claim and why).

Each claim quotes its seed lines (and fragment), splits the fragment into clauses (:class:`~theorycheck.claims.Clause`),
declares its title and weight, its margins, resolutions and parameters (:func:`.settings.params`, with provenance)
before computing its evidence with the paper's theory :mod:`.theory`, the engines and the models, and hands the
evidence to the verdict rules. The names of earlier versions stay importable from here.
"""
from __future__ import annotations

from . import claims_setup, claims_hermite, claims_moments, claims_theory, claims_fig1, claims_fig2  # noqa: F401  (seed order)
from . import seed_map  # noqa: F401  (every other sentence of the seed)
from .claims_common import PHI, g  # noqa: F401  (kept importable)
from .claims_hermite import (hermite_basis, residual_not_independent, rho_definitions,  # noqa: F401
                             rho_nl_includes_m0, teaching_table)
from .claims_moments import appendix_b_moments, effective_rank, task_norm_variance  # noqa: F401
from .claims_setup import floor, metadata, predictor_and_ridge, scalings  # noqa: F401
from .settings import OFFSET, RANK, RHO  # noqa: F401  (kept importable)
from .theory import G  # noqa: F401  (kept importable)
