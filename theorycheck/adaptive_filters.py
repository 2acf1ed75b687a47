r"""Classical adaptive filters on AR(1)-drifting regression streams (the baselines of paper 000) — a
re-export of their earlier home: the filters live in :mod:`theorycheck.models.filters`, the streams in
:mod:`theorycheck.models.prompts`, the streaming GLA predictor in :mod:`theorycheck.models.attention`.

>>> import numpy as np
>>> X, Y = ar1_stream(np.random.default_rng(0), runs=20, T=50, d=2, gamma=0.9, sigma_w2=1.0, sigma_e2=0.1)
>>> lms_errors(X, Y, 0.05).shape
(50, 20)
"""
from __future__ import annotations


from .deprecation import moved

moved(__name__, "theorycheck.models.filters, theorycheck.models.prompts and theorycheck.models.attention")
__all__ = ["ar1_stream", "lms_errors", "rls_errors", "kalman_errors", "gla_stream_errors"]

from .models.attention import gla_stream_errors  # noqa: E402,F401  (moved to theorycheck.models; re-exported)
from .models.filters import kalman_errors, lms_errors, rls_errors  # noqa: E402
from .models.prompts import ar1_stream  # noqa: E402
