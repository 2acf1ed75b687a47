r"""The claims of paper 004, one module per section of the seed, in seed order (:data:`SECTIONS`):
:mod:`.setup` (lines 6–81: metadata, the contribution, the data ratios, the predictor and its fit),
:mod:`.hermite` (85–109: the Hermite decomposition, the two noise levels), :mod:`.moments` (115–136: task norms,
the effective rank, Appendix B), :mod:`.results` (140–164: Result 1, the a₁ = 0 branch), :mod:`.figure1`
(170–190: Figure 1) and :mod:`.figure2` (192–219: Figure 2); what they share is in :mod:`._helpers`. Every other
sentence of the seed is assigned in :mod:`..seedmap` (restates a claim, or not a claim and why).

Each claim quotes its seed lines (and fragment), splits the fragment into clauses (:class:`~theorycheck.claims.Clause`),
declares its title and weight, its margins, resolutions and parameters (:func:`..settings.params`, with provenance)
before computing its evidence with the paper's theory (:mod:`..theory`), the engines and the models, and hands the
evidence to the verdict rules. Its audit history is in ``revisions.json``.
"""
from __future__ import annotations

from . import setup, hermite, moments, results, figure1, figure2

SECTIONS = [setup, hermite, moments, results, figure1, figure2]
