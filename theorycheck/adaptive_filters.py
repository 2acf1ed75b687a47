r"""Classical adaptive filters on AR(1)-drifting linear regression streams (baselines for paper 000).

The filters now live in :mod:`theorycheck.models.filters` (streams in :mod:`theorycheck.models.prompts`,
the GLA stream in :mod:`theorycheck.models.attention`); this module re-exports them under their old names.

Stream (same model as :mod:`theorycheck.gla`): :math:`w_0\sim\mathcal N(0,\sigma_w^2I_d)`,
:math:`w_t=\gamma w_{t-1}+e_t`, :math:`x_t\sim\mathcal N(0,\Lambda)`,
:math:`y_t=\langle w_t,x_t\rangle+\varepsilon_t` for :math:`t=1..T`.

Every filter here is run *batched* over independent runs (axis 1) and returns the **a priori**
(one-step-ahead) squared errors :math:`(y_t-\hat w_{t-1}^\top x_t)^2`, shape ``(T, runs)``: the
prediction of :math:`y_t` uses only :math:`(x_s,y_s)_{s<t}` and :math:`x_t`, exactly like the
GLA query. Conventions of the filters (all start from :math:`\hat w_0=0`):

* LMS, step :math:`\mu`: :math:`\hat w_t=\hat w_{t-1}+\mu e_tx_t` (padasip ``FilterLMS(mu)``).
* RLS, forgetting factor :math:`\beta\in(0,1]` and :math:`P_0=\delta^{-1}I`:
  :math:`k_t=P_{t-1}x_t/(\beta+x_t^\top P_{t-1}x_t)`, :math:`\hat w_t=\hat w_{t-1}+k_te_t`,
  :math:`P_t=(P_{t-1}-k_tx_t^\top P_{t-1})/\beta` (padasip ``FilterRLS(mu=β, eps=δ)``).
  For :math:`\beta` small (effective window :math:`1/(1-\beta)` not much larger than d) the
  recursion is numerically unstable; runs whose estimate leaves the finite range get ``inf``
  errors (never NaN) and are reported as diverged by the callers (never silently dropped).
* Kalman filter with the true (γ, σ_w², σ_e², noise): the Bayes-optimal one-step predictor
  (a lower bound for every method, given the true model).
* GLA stream: :math:`\hat y_t=x_t^\top\Gamma h_t`, :math:`h_t=\sum_{s<t}\lambda^{t-s}y_sx_s`
  with a fixed Γ (the trained one for prompt length ``T-1`` by default).

>>> rng = np.random.default_rng(0)
>>> X, Y = ar1_stream(rng, runs=200, T=50, d=2, gamma=0.9, sigma_w2=1.0, sigma_e2=0.1)
>>> lms_errors(X, Y, 0.05).shape
(50, 200)
"""
from __future__ import annotations

import numpy as np  # noqa: F401  (doctest namespace)

__all__ = ["ar1_stream", "lms_errors", "rls_errors", "kalman_errors", "gla_stream_errors"]

from .models.attention import gla_stream_errors  # noqa: E402,F401  (moved to theorycheck.models; re-exported)
from .models.filters import kalman_errors, lms_errors, rls_errors  # noqa: E402
from .models.prompts import ar1_stream  # noqa: E402
