"""SymPy versions of the attention construction of paper 001 (symbolic observations, token matrix, forward pass,
AR(s) loss): the input of the derivations ``theorycheck.papers.lds.derivations.lds_identities``.

>>> y = sym_observations(4)
>>> sym_token_matrix(y, 1).shape
(2, 3)
"""
from __future__ import annotations

import sympy as sp

from ....validate import ParameterTypeError, check_int

__all__ = ["sym_observations", "sym_token_matrix", "sym_attention_forward", "sym_ar_loss"]


def _check_sym_seq(name, y):
    if isinstance(y, (str, bytes)) or not isinstance(y, (list, tuple, sp.MatrixBase)):
        raise ParameterTypeError(f"{name} must be a sequence of SymPy expressions (e.g. sym_observations(T)), got "
                                 f"{type(y).__name__}")
    out = []
    for i, v in enumerate(list(y)):
        try:
            e = sp.sympify(v, strict=True)
        except (sp.SympifyError, TypeError, ValueError):
            raise ParameterTypeError(f"{name}[{i}] must be a SymPy expression or a number, got {v!r:.40}") from None
        if e.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            raise ValueError(f"{name}[{i}] must be finite, got {e}")
        out.append(e)
    if not out:
        raise ValueError(f"{name} must not be empty")
    return tuple(out)


def _check_sym_matrix(name, M):
    if not isinstance(M, sp.MatrixBase):
        raise ParameterTypeError(f"{name} must be a SymPy Matrix, got {type(M).__name__}")
    if any(e.has(sp.nan, sp.zoo, sp.oo, -sp.oo) for e in M):
        raise ValueError(f"{name} must have finite entries")
    return M


def sym_observations(T: int):
    """SymPy symbols ``y_1..y_T`` (real)."""
    T = check_int("T", T, minimum=1, maximum=10_000)
    return sp.symbols(f"y_1:{T + 1}", real=True)


def sym_token_matrix(y, s: int):
    """SymPy :math:`Y_0` (same layout as :func:`token_matrix`)."""
    y = _check_sym_seq("y", y)
    s = check_int("s", s, minimum=1, maximum=10_000)
    T = len(y)
    if T < s + 3:
        raise ValueError(f"y must have at least s + 3 = {s + 3} entries, got {T}")
    N = T - s
    return sp.Matrix(s + 1, N, lambda k, i: 0 if (k == s and i == N - 1) else y[i + k])


def sym_attention_forward(W_QK, W_V, Y0):
    r"""SymPy :math:`T_\theta(Y_0)=Y_0+\frac1nW_VY_0M(Y_0^\top W_{QK}Y_0)`, :math:`n=N-1`."""
    Y0 = _check_sym_matrix("Y0", Y0)
    W_QK, W_V = _check_sym_matrix("W_QK", W_QK), _check_sym_matrix("W_V", W_V)
    D, N = Y0.shape
    if N < 2:
        raise ValueError(f"Y0 must have at least 2 columns (tokens and the query), got shape {Y0.shape}")
    for name, W in (("W_QK", W_QK), ("W_V", W_V)):
        if W.shape != (D, D):
            raise ValueError(f"{name} must be {D} x {D} (the token dimension of Y0), got shape {W.shape}")
    M = sp.diag(*([1] * (N - 1) + [0]))
    return Y0 + sp.Rational(1, N - 1) * W_V * Y0 * M * (Y0.T * W_QK * Y0)


def sym_ar_loss(y, s: int, w):
    r"""SymPy :math:`L_{AR(s)}(w)=\frac1{2(T-s-1)}\sum_{t=1}^{T-s-1}(y_{t+s}-w^\top\bar y_t)^2`."""
    y = _check_sym_seq("y", y)
    T = len(y)
    s = check_int("s", s, minimum=1, maximum=max(1, T - 2))
    w = _check_sym_seq("w", w)
    if len(w) < s:
        raise ValueError(f"w must have at least s = {s} entries, got {len(w)}")
    n = T - s - 1
    return sp.Rational(1, 2 * n) * sum((y[t + s] - sum(w[k] * y[t + k] for k in range(s))) ** 2
                                       for t in range(n))
