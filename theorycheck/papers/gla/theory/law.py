r"""The validated law of a GLA prompt (paper 000): the checks of the gate λ, the drift factor γ, the length n, the
variances σ_w², σ_e², σ² and the input covariance Λ, and the resource budgets of the theory.

Conventions (see :mod:`theorycheck.papers.gla.theory`): gates λ, γ in (0, 1]; variances finite and >= 0; ``n`` an
integer in [1, ``MAX_COUNT``]; Λ a positive semi-definite matrix (a diagonal Λ is checked without an
eigendecomposition). Every check returns the value it checked (as ``float`` / ``int`` / a float array) and raises a
``ValueError`` naming the parameter and its allowed range otherwise. The public functions of the theory call these
checks once, at their boundary, and hand the checked values to the one route of each quantity (no second check, no
fast path beside the checks).

The helpers without a leading underscore are shared by the modules of :mod:`theorycheck.papers.gla.theory`; the
public names of the law are its budgets (``__all__``).

>>> check_law(0.5, 0.9, 10, 1.0, 0.1, 0.0)
(0.5, 0.9, 10, 1.0, 0.1, 0.0)
"""
from __future__ import annotations

import math

import numpy as np

from ....validate import (MAX_COUNT, ParameterTypeError, check_array, check_finite_result, check_int, check_memory,
                          check_psd, check_real)

__all__ = ["MAX_SIM_WORK", "MAX_DENSE_DIM", "FLOW_VARIANCE_MAX", "MAX_GRID", "MAX_FLOW_POINTS", "MAX_FLOW_DIM",
           "MAX_INIT_SCALE", "MAX_TRAIN_WORK"]

#: work budget of one Monte Carlo call, in token-dimensions (prompts × tokens × (d + 1)): about a minute of one core
#: at the measured ~3·10⁷ per second of the recursion with its random draws (benchmarks/bench_gla.py)
MAX_SIM_WORK = 2e9
#: largest dimension of a dense (non-diagonal) Λ: its eigendecompositions and inverse cost O(d³) (~2 s at 2000)
MAX_DENSE_DIM = 2000
#: largest variance (σ_w², σ_e², σ²) the gradient flows accept: their time scale is 1/variance and the full loss
#: holds squares of variances, which must stay in the floating-point range
FLOW_VARIANCE_MAX = 1e100
#: largest λ grid of optimal_lambda (each point is one exact train error, ~30 µs)
MAX_GRID = 10 ** 5
#: largest number of output points of a gradient flow (each is one exact loss evaluation)
MAX_FLOW_POINTS = 10 ** 5
#: largest dimension of a gradient flow (d² + 1 states; its linearisation at the limit costs O(d⁷))
MAX_FLOW_DIM = 32
#: largest relative initialisation scale σ of a gradient flow
MAX_INIT_SCALE = 1e3
#: work budget of one training of a GLA stack or one filter benchmark, in floating-point operations (≈ 3 minutes of
#: one core at the measured ≈ 2·10⁹ per second; the paper's full-mode stack of depth 3 needs ≈ 6·10¹⁰)
MAX_TRAIN_WORK = 3e11


# ------------------------------------------------------------------ validation helpers
def check_lam(lam):
    """The gate λ, a real number in (0, 1]."""
    return check_real("lam", lam, 0.0, 1.0, low_open=True)


def check_gamma(gamma, name="gamma"):
    """The drift factor γ (or another gate named ``name``), a real number in (0, 1]."""
    return check_real(name, gamma, 0.0, 1.0, low_open=True)


def check_variance(name, v):
    """A variance ``name``, a finite real number >= 0."""
    return check_real(name, v, 0.0)


def check_n(n, name="n"):
    """A prompt length ``name``, an integer in [1, MAX_COUNT]."""
    return check_int(name, n, minimum=1, maximum=MAX_COUNT)


def check_law(lam, gamma, n, sigma_w2, sigma_e2, noise):
    """The checked law of a GLA prompt: gate, drift factor, length and the three variances."""
    return (check_lam(lam), check_gamma(gamma), check_n(n), check_variance("sigma_w2", sigma_w2),
            check_variance("sigma_e2", sigma_e2), check_variance("noise", noise))


def check_n_direct(n, name="n"):
    """``n`` for the O(n) sums over the prompt: refused past the memory budget (a few arrays of n floats)."""
    return guard_n_memory(check_n(n, name), name)


def guard_n_memory(n, name="n"):
    """The memory guard of :func:`check_n_direct` alone, for an ``n`` already checked."""
    check_memory(name, n, 64.0 * (n + 2), "the O(n) sums over the prompt")
    return n


def check_flow_variances(sigma_w2, sigma_e2, noise):
    """The three variances of a gradient flow: each in [0, FLOW_VARIANCE_MAX], σ_w² and σ_e² not both 0."""
    out = tuple(check_real(k, v, 0.0, FLOW_VARIANCE_MAX)
                for k, v in (("sigma_w2", sigma_w2), ("sigma_e2", sigma_e2), ("noise", noise)))
    if out[0] == 0 and out[1] == 0:
        raise ValueError("sigma_w2 and sigma_e2 must not both be 0 for a gradient flow (no signal: the optimum is 0)")
    return out


def ensure_finite(value, what, **inputs):
    """``value`` if finite, else a ``ValueError`` naming the inputs (an overflow of the floating-point range)."""
    if type(value) is float:                         # the common case, fast (the same test)
        if math.isfinite(value):
            return value
    try:
        ok = bool(np.all(np.isfinite(np.asarray(value, dtype=float))))
    except (TypeError, ValueError):
        ok = True
    if not ok:
        check_finite_result(value, what, **inputs)
    return value


def check_lambda_matrix(Lambda, d=None, name="Lambda"):
    """Λ as a float array: PSD (a diagonal Λ is checked without an eigendecomposition); a dense Λ is refused past
    :data:`MAX_DENSE_DIM`."""
    if Lambda is None:
        if d is None:
            raise ValueError(f"{name} must be given")
        return np.eye(d)
    if isinstance(Lambda, (str, bytes, bool, np.bool_)):
        raise ParameterTypeError(f"{name} must be a numeric matrix, got {Lambda!r} ({type(Lambda).__name__})")
    L = check_array(name, Lambda, ndim=2)
    if L.shape[0] != L.shape[1] or L.shape[0] < 1:
        raise ValueError(f"{name} must be square with shape (n, n), n >= 1, got shape {L.shape}")
    dg = np.diag(L)
    if np.count_nonzero(L - np.diag(dg)) == 0:
        if np.any(dg < 0):
            raise ValueError(f"{name} must be positive semi-definite (smallest eigenvalue {float(dg.min()):.3g})")
        return L
    if L.shape[0] > MAX_DENSE_DIM:
        raise ValueError(f"{name} must be at most {MAX_DENSE_DIM}x{MAX_DENSE_DIM} when it is not diagonal (its "
                         f"eigendecompositions cost O(d^3)), got {L.shape[0]}x{L.shape[0]}")
    return check_psd(name, L)


def eigenvalues(L):
    """Eigenvalues of a validated Λ (the diagonal for a diagonal Λ)."""
    dg = np.diag(L)
    if np.count_nonzero(L - np.diag(dg)) == 0:
        return np.sort(dg.astype(float))
    return np.linalg.eigvalsh(L)


def solve_psd(M, B):
    """``M⁻¹ B`` (``B`` a matrix) for a validated positive definite ``M``; elementwise for a diagonal ``M``."""
    dg = np.diag(M)
    if np.count_nonzero(M - np.diag(dg)) == 0:
        return B / dg[:, None]
    return np.linalg.solve(M, B)

