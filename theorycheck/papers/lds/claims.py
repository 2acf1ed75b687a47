r"""Claims of paper 001 from the background to the AR(s) / PCG reading (seed lines 21–70), in seed order.

Each claim quotes its seed lines (and fragment), declares its rule's constants before computing,
computes its evidence with the paper's mathematics (:mod:`.theory`), :mod:`theorycheck.models` and the derivations
(:mod:`.derivations`, their generated code :mod:`.generated`), and hands it to :mod:`theorycheck.verdicts.rules`.
The claims are registered in seed order by importing, in this order, :mod:`.claims_background` (lines 21–54),
:mod:`.claims_theorem41` (lines 58–62) and :mod:`.claims_pcg` (lines 66–70); every claim function stays importable
from here. The experimental claims (lines 74–113) are in :mod:`.experiments`; sizes and choices in
:mod:`.settings`; shared computations in :mod:`.fixtures`.
"""
from __future__ import annotations

from . import fixtures  # noqa: F401  (registers the fixtures first)
# the claims, registered in seed order by these imports (lines 21–54, 58–62, 66–70)
from .claims_background import (ar_approaches_kf, ar_approximation_exponential, ar_loss_convex, core_idea_proved,
                                gpt2_matches_kf, kf_optimal, lemma41_parity, lemma41_reduces_search,
                                lemma41_structured_class)
from .claims_theorem41 import (first_optimality, gd_identity, isserlis_moments, thm41_global_optimum,
                               thm41_ratio_of_expectations)
from .claims_pcg import (eq16_block_structure, eq17_form, eq18_pcg_form, p_correction, pcg_cosines, pcg_covers_ar1,
                         pcg_p_residual, sge2_not_gd)
from .reconciliation import P_RESIDUAL_MARGIN
from .settings import SETTINGS

CONVENTIONS = [
    ("C1", "System: x₀ ~ N(0, σ₀² I_d); for t = 1..T: x_t = A x_{t−1} + w_t, w_t ~ N(0, Σ_w); y_t = cᵀx_t + v_t, "
           "v_t ~ N(0, σ_v²); all noises independent."),
    ("C2", "Priors (the paper gives none; ours): d = 5, eigenvalues a_k i.i.d. U[−0.95, 0.95], σ₀ = 1, σ_w = 0.5, "
           "σ_v = 0.5, c = 1. (a) A = diag(a); (b) A = Qᵀdiag(a)Q, Q Haar; (c) diagonal A, Σ_w = diag of variances "
           "spread 16-fold around σ_w² (geometric); (d) A = P⁻¹diag(a)P, P = I + 0.5·U, U strictly upper triangular with "
           "i.i.d. U[−1, 1] entries (bounded transient growth; Gaussian entries make prior averages of 6th-order "
           "moments dominated by rare systems). All centrally symmetric (A and −A equally likely)."),
    ("C3", "Tokens (reconstructed): z_i = [y_i..y_{i+s−1}; y_{i+s}], i = 1..n, n = T−s−1, query [y_{T−s}..y_{T−1}; 0]; "
           "T_θ(Y₀) = Y₀ + (1/n) W_V Y₀ M (Y₀ᵀ W_QK Y₀), M masks the query column; prediction ŷ_T = entry (s+1, T−s). "
           "Only the last row v of W_V and the first s columns of W_QK affect ŷ_T, through the effective coefficients "
           "C_klj = v_k W_lj + v_l W_kj (k < l), C_kkj = v_k W_kj of the features G_kl q_j, G = (1/n) Σ_i z_i z_iᵀ."),
    ("C4", "Loss halved, L = ½E[(ŷ_T − y_T)²] over noise and system prior; MSEs in the Kalman comparisons are NOT "
           "halved."),
    ("C5", "W*_QK,11 = (T−2) E[y_{T−1} y_T S] / E[y_{T−1}² S²], S = Σ_{i=1}^{T−2} y_i y_{i+1}: a ratio of "
           "expectations over noise and prior."),
    ("C6", "L_AR(s)(w) = 1/(2(T−s−1)) Σ_{t=1}^{T−s−1} (y_{t+s} − wᵀȳ_t)², ȳ_t = [y_t..y_{t+s−1}] (seed line 48)."),
    ("C7", "Indices 1-based in the text (k, l over token rows, j over query entries), 0-based in arrays."),
    ("C8", "Training (ours where the seed is silent): Adam without weight decay or clipping, lr 0.003 (AR(1)) / "
           "0.01 (s ≥ 2), 5 % linear warm-up, cosine decay to 0, init N(0, 0.1²), fresh systems every step; sizes "
           "in the run parameters."),
    ("C9", "Stationarity right-hand side R_klj = E[G_kl q_j y_T], q_j = y_{T−s+j−1}; the parity-forced zeros are "
           "the (k, l, j) with k + l + j + s even (y_t → (−1)^t y_t flips their sign)."),
    ("C10", "Eq. 17 reconstruction (the seed does not define P, q, p, ξ): P = (W_QK[:s, :s])ᵀ, q = W_V[s, :s], "
            "p = W_QK[s, :s], ξ₁ = −W_V[s, s], ξ₂ = γ W_V[s, s] − ∇L(0)ᵀq (0-based rows); PCG on L_AR(s) from 0 "
            "with preconditioned residual z = P r, exact line search."),
]


__all__ = ["CONVENTIONS", "P_RESIDUAL_MARGIN", "SETTINGS", "gpt2_matches_kf", "kf_optimal", "core_idea_proved",
           "ar_approximation_exponential", "ar_loss_convex", "ar_approaches_kf", "lemma41_parity",
           "lemma41_structured_class", "lemma41_reduces_search", "isserlis_moments", "thm41_global_optimum",
           "thm41_ratio_of_expectations", "gd_identity", "first_optimality", "sge2_not_gd", "eq16_block_structure",
           "eq17_form", "eq18_pcg_form", "pcg_cosines", "p_correction", "pcg_p_residual", "pcg_covers_ar1"]
