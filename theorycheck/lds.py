"""Re-export: the mathematics of paper 001 (linear attention in context on linear dynamical systems) now lives in
:mod:`theorycheck.papers.lds.theory` — :mod:`~theorycheck.papers.lds.theory.wqk` (W*_QK by five routes),
:mod:`~theorycheck.papers.lds.theory.isserlis`, :mod:`~theorycheck.papers.lds.theory.nonnormal`,
:mod:`~theorycheck.papers.lds.theory.stationarity`, :mod:`~theorycheck.papers.lds.theory.gd`,
:mod:`~theorycheck.papers.lds.theory.support`, :mod:`~theorycheck.papers.lds.theory.pcg`,
:mod:`~theorycheck.papers.lds.theory.symbolic` — and its models in :mod:`theorycheck.models`. This module keeps the
old import path ``theorycheck.lds`` and its public names (no code of its own)."""
from .deprecation import moved

moved(__name__, "theorycheck.papers.lds.theory and theorycheck.models")
from .models.attention import (attention_forward, attention_loss_and_grad, attention_predict, effective_coefficients,
                               token_matrix)
from .models.dynamics import (SETTINGS, AnisotropicNoiseLDSPrior, DiagonalLDSPrior, LDSBatch, NonNormalLDSPrior,
                              OneSidedDiagonalLDSPrior, OrthogonalLDSPrior, SkewedDiagonalLDSPrior, lds_autocovariance,
                              make_prior, simulate_lds)
from .models.filters import kalman_one_step_mse, oracle_ar_mse, steady_state_closed_loop_radius
from .models.training import TrainResult, train_linear_attention
from .papers.lds.theory.gd import (ar_gd_step_prediction, ar_least_squares_predict, best_gd_step, coefficient_inertia,
                                   exact_halved_loss, exact_loss_gradient, feature_vector, gd_step_weights)
from .papers.lds.theory.isserlis import exact_component_average, lag1_matrix, wqk_star_moments
from .papers.lds.theory.pcg import pcg_quantities
from .papers.lds.theory.stationarity import autocovariance_batch_mc, stationarity_moments, stationarity_rhs
from .papers.lds.theory.support import (ar_gaps, decay_exponents, jaccard_distance, offpattern_energy,
                                        parity_zero_pattern, predicted_support, support_jaccard)
from .papers.lds.theory.symbolic import sym_ar_loss, sym_attention_forward, sym_observations, sym_token_matrix
from .papers.lds.theory.wqk import WqkStar, per_system_ratio_average, simulate_wqk_star, wqk_star, wqk_star_batch_mc

__all__ = [
    "LDSBatch", "DiagonalLDSPrior", "OneSidedDiagonalLDSPrior", "SkewedDiagonalLDSPrior", "OrthogonalLDSPrior", "AnisotropicNoiseLDSPrior",
    "NonNormalLDSPrior", "SETTINGS", "make_prior", "lds_autocovariance", "simulate_lds",
    "token_matrix", "attention_forward", "attention_predict", "attention_loss_and_grad",
    "effective_coefficients", "lag1_matrix", "exact_component_average", "stationarity_moments", "wqk_star_moments", "WqkStar", "wqk_star",
    "per_system_ratio_average", "simulate_wqk_star", "ar_gd_step_prediction", "ar_least_squares_predict",
    "TrainResult", "train_linear_attention", "parity_zero_pattern", "predicted_support",
    "jaccard_distance", "kalman_one_step_mse", "oracle_ar_mse", "pcg_quantities", "stationarity_rhs",
    "steady_state_closed_loop_radius", "sym_observations", "sym_token_matrix", "sym_attention_forward", "sym_ar_loss",
    "wqk_star_batch_mc", "autocovariance_batch_mc", "feature_vector", "exact_halved_loss", "exact_loss_gradient", "gd_step_weights",
    "best_gd_step", "coefficient_inertia", "support_jaccard", "offpattern_energy", "ar_gaps", "decay_exponents",
]
