r"""Gated linear attention (GLA) in context under AR(1)-drifting regression weights (paper 000).

Model and conventions
---------------------
* :math:`w_0\sim\mathcal N(0,\sigma_w^2 I_d)`; for :math:`i=1..n+1`:
  :math:`w_i=\gamma w_{i-1}+e_i`, :math:`e_i\sim\mathcal N(0,\sigma_e^2 I_d)` (``sigma_w2``,
  ``sigma_e2`` are the *variances*). The marginal variance per coordinate is
  :math:`s_i=\gamma^{2i}\sigma_w^2+\sigma_e^2\sum_{j<i}\gamma^{2j}`; it is constant only when
  :math:`\sigma_w^2=\sigma_e^2/(1-\gamma^2)`.
* :math:`x_i\sim\mathcal N(0,\Lambda)`, :math:`y_i=\langle w_i,x_i\rangle+\varepsilon_i`,
  :math:`\operatorname{Var}\varepsilon_i=` ``noise``. Tokens :math:`z_i=(x_i,y_i)` for
  :math:`i\le n` (the prompt), query :math:`z_{n+1}=(x_{n+1},0)`.
* GLA: :math:`S_i=\lambda S_{i-1}+v_ik_i^\top`, output
  :math:`o_{n+1}=W_V\big(\sum_{i=1}^{n+1}\lambda^{n+1-i}z_iz_i^\top\big)W_{KQ}z_{n+1}`,
  prediction :math:`\hat y=(o_{n+1})_{d+1}`. The query token's own term (:math:`i=n+1`) is in the
  sum; with :math:`W_V` last row :math:`(u^\top, v)` and :math:`W_{KQ}[:, :d]=[A; b^\top]`,

  .. math:: \hat y = x_{n+1}^\top(vA^\top+bu^\top)h + T_1 + T_2,\quad
            h=\sum_{i=1}^n\lambda^{n+1-i}y_ix_i,

  :math:`T_1=\sum_{i=1}^{n+1}\lambda^{n+1-i}(u^\top x_i)(x_i^\top Ax_{n+1})` (contains the query
  term), :math:`T_2=v\sum_{i\le n}\lambda^{n+1-i}y_i^2\,b^\top x_{n+1}`. :math:`T_1+T_2` is even in
  :math:`w` while :math:`y_{n+1}` and :math:`x^\top\Gamma h` are odd, so the MSE is
  :math:`E[(x^\top\Gamma h-y)^2]+E[(T_1+T_2)^2]` and its minimum over the full parameters equals
  the minimum of the *reduced* predictor :math:`\hat y=x_{n+1}^\top\Gamma h` (attained at
  :math:`u=0,b=0,\Gamma=vA^\top`). With :math:`u=0` the query token contributes nothing.
* Loss: population MSE :math:`L=E[(\hat y-y_{n+1})^2]`, **not halved** (``halved=True`` gives
  :math:`L/2`). "Train error" = :math:`\min_\Gamma L`.

Results (derived in :mod:`theorycheck.papers.gla.derivations.gla_loss`; sums over ages :math:`k=n+1-i=1..n`)

.. math::
   D_1=\sum_k(\lambda\gamma)^ks_{n+1-k},\ B=\sum_k\lambda^{2k}s_{n+1-k},\ N_0=\sum_k\lambda^{2k},\
   A_2=\sum_{i,j\le n}\lambda^{2n+2-i-j}\gamma^{|i-j|}s_{\min(i,j)},

   \Gamma^*=\tfrac{D_1}{A_2}\tilde\Lambda^{-1},\quad
   \tilde\Lambda=(1+\tfrac{B}{A_2})\Lambda+\tfrac{B\operatorname{tr}\Lambda+\sigma^2N_0}{A_2}I,

   L^*=s_{n+1}\operatorname{tr}\Lambda+\sigma^2-D_1^2\sum_k\frac{\mu_k^2}{(A_2+B)\mu_k+B\operatorname{tr}\Lambda+\sigma^2N_0}

(:math:`\mu_k` eigenvalues of :math:`\Lambda`). For :math:`\Lambda=I_d`:
:math:`L^*=d\,(s_{n+1}-\xi)+\sigma^2` with :math:`\xi=D_1^2/D_2`,
:math:`D_2=A_2+(d+1)B+\sigma^2N_0` — the error is a constant minus :math:`d\xi`.

The derivation uses the weights only through their per-coordinate covariance
:math:`K_{ij}=\operatorname{Cov}(w_i,w_j)`: :func:`drift_covariance` gives K for drifts beyond AR(1) (AR(2) momentum,
innovations correlated across steps) and :func:`train_error_from_covariance` /
:func:`optimal_lambda_from_covariance` the exact train error and λ* for any such K (the stress paths of the paper).

Where each quantity lives (one job per module): :mod:`.law` (checks of λ, γ, n, the variances and Λ; resource
budgets), :mod:`.sums` (the AR(1) variances and the moment sums, closed form and direct), :mod:`.errors` (ξ, the train
error and λ*; for general Λ: Γ*, the loss at any Γ, the test error, the floor), :mod:`.drift` (drift laws beyond AR(1)
and summaries of the λ-dependence), :mod:`.flows` (gradient flows, the full-parameter loss, landscape probes),
:mod:`.simulate` (the GLA recursion, the multi-layer stack trainer, the filter benchmark), :mod:`.learning` (the gate
learned with the weights; the best token weighting of the prompt), :mod:`.benchmark` (GLA against LMS, RLS, the
Kalman filter and predicting 0, in separable steps). The old import path
:mod:`theorycheck.gla` re-exports this package.

Validated once, one route each: every public function checks its arguments once (:mod:`.law`) and hands the checked
values to the one route of its quantity (``sums.sums_for``, ``errors.error_at``, ``errors.optimum``, ...), which
trusts them. Quantities with several routes name their reference: the moment sums (:data:`.sums.ROUTES`, reference
the direct O(n) sums) and the train error (:data:`.errors.TRAIN_ERROR_ROUTES`, reference the generated closed form);
``tests/test_gla_routes.py`` tests every route against its reference and the hand-written full-parameter loss against
the exact expectation of the predictor.

Resource guards: every function sized by a user parameter refuses, before any work, a call past the memory budget
(:func:`theorycheck.validate.check_memory`) or the work budgets of :mod:`.law` (:data:`MAX_SIM_WORK`,
:data:`MAX_DENSE_DIM`, :data:`MAX_GRID`, :data:`MAX_FLOW_POINTS`, :data:`MAX_FLOW_DIM`), naming the parameter; a
result that overflows the floating-point range raises an error naming the inputs.

>>> round(train_error(1.0, 1.0, 20, 5, 1.0, 0.0), 12) == round(5 * 6 / 26, 12)   # Zhang-Frei-Bartlett
True
>>> r = optimal_lambda(0.8, 100, 10, 1.0, 0.01)
>>> 0.7 < r.lam < 0.8, r.at_boundary
(True, False)
"""
from __future__ import annotations

from .benchmark import assemble_benchmark, best_value, filter_evaluation, filter_scan
from .drift import (drift_covariance, drift_statistics, lambda_importance, optimal_lambda_from_covariance,
                    train_error_from_covariance)
from .errors import (LambdaOpt, OptimalGLA, effective_covariance, irreducible_floor, lambda_star_large_d_correction,
                     optimal_lambda, optimal_parameters, population_loss, test_error, train_error,
                     train_error_general, xi, xi_large_d)
from .flows import (FlowResult, classify_full_flow, full_gradient_flow, full_parameter_loss, gradient_flow,
                    probe_local_minimum, search_full_minima)
from .learning import learn_gate, optimal_token_weights
from .law import (FLOW_VARIANCE_MAX, MAX_DENSE_DIM, MAX_FLOW_DIM, MAX_FLOW_POINTS, MAX_GRID, MAX_INIT_SCALE,
                  MAX_SIM_WORK, MAX_TRAIN_WORK)
from .simulate import (StackRun, TrainingDiverged, geometric_rate_stability, gla_squared_errors, squared_errors_from,
                       simulate_filter_benchmark, simulate_gla, train_gla_stack)
from .sums import CLOSED_FORM_GAP, GLASums, ar1_variances, moment_sums

__all__ = ["GLASums", "ar1_variances", "moment_sums", "xi", "xi_large_d", "train_error",
           "train_error_general", "optimal_lambda", "LambdaOpt", "effective_covariance",
           "optimal_parameters", "OptimalGLA", "population_loss", "test_error",
           "irreducible_floor", "simulate_gla", "gradient_flow", "FlowResult",
           "lambda_star_large_d_correction", "full_parameter_loss", "full_gradient_flow",
           "probe_local_minimum", "classify_full_flow", "lambda_importance", "drift_statistics", "StackRun",
           "train_gla_stack", "geometric_rate_stability", "simulate_filter_benchmark", "gla_squared_errors", "squared_errors_from",
           "drift_covariance", "train_error_from_covariance", "optimal_lambda_from_covariance", "TrainingDiverged",
           "learn_gate", "optimal_token_weights", "filter_scan", "filter_evaluation", "assemble_benchmark", "best_value",
           "search_full_minima", "CLOSED_FORM_GAP", "MAX_SIM_WORK", "MAX_DENSE_DIM", "FLOW_VARIANCE_MAX", "MAX_GRID", "MAX_FLOW_POINTS",
           "MAX_FLOW_DIM", "MAX_INIT_SCALE", "MAX_TRAIN_WORK"]
