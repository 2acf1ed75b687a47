"""The names the paper's tests use, from their homes (the mathematics in :mod:`theorycheck.papers.lds.theory`, the
models in :mod:`theorycheck.models`): what the old path ``theorycheck.lds`` gathered, without importing it."""
from theorycheck.models.attention import (attention_forward, attention_loss_and_grad, attention_predict, effective_coefficients,
                               token_matrix)
from theorycheck.models.dynamics import (SETTINGS, AnisotropicNoiseLDSPrior, DiagonalLDSPrior, LDSBatch, NonNormalLDSPrior,
                              OneSidedDiagonalLDSPrior, OrthogonalLDSPrior, SkewedDiagonalLDSPrior, lds_autocovariance,
                              make_prior, simulate_lds)
from theorycheck.models.filters import kalman_one_step_mse, oracle_ar_mse, steady_state_closed_loop_radius
from theorycheck.models.training import TrainResult, train_linear_attention
from theorycheck.papers.lds.theory.gd import (ar_gd_step_prediction, ar_least_squares_predict, best_gd_step, coefficient_inertia,
                                   exact_halved_loss, exact_loss_gradient, feature_vector, gd_step_weights)
from theorycheck.papers.lds.theory.isserlis import exact_component_average, lag1_matrix, wqk_star_moments
from theorycheck.papers.lds.theory.pcg import pcg_quantities
from theorycheck.papers.lds.theory.stationarity import autocovariance_batch_mc, stationarity_moments, stationarity_rhs
from theorycheck.papers.lds.theory.support import (ar_gaps, decay_exponents, jaccard_distance, offpattern_energy,
                                        parity_zero_pattern, predicted_support, support_jaccard)
from theorycheck.papers.lds.theory.symbolic import sym_ar_loss, sym_attention_forward, sym_observations, sym_token_matrix
from theorycheck.papers.lds.theory.wqk import WqkStar, per_system_ratio_average, simulate_wqk_star, wqk_star, wqk_star_batch_mc

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
