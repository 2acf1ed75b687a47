r"""The two backends of the diagram engine: batched float linear algebra and exact SymPy.

Both offer the same operations on the objects of :class:`theorycheck.gaussian.diagrams.DiagramEngine` —
row vectors :math:`a^\top`, matrices :math:`P = \Sigma M`, scalars — so the engine is written once:
``vec``/``mat`` validate a factor (a quadratic form's matrix is replaced by its symmetric part
:math:`M_s = (M + M^\top)/2`), ``sigma_times`` is :math:`\Sigma M`, ``row_times`` :math:`u^\top P`, ``matmul``
:math:`WP`, ``trace`` and ``trace_prod`` :math:`\operatorname{tr} W` and :math:`\operatorname{tr}(WP)`,
``bilinear`` :math:`u^\top\Sigma b`. Numeric values carry a leading batch axis ``B`` (matrices ``(B, n, n)``,
vectors ``(B, n)``, scalars ``(B,)``).

>>> import numpy as np
>>> be, batched = backend_for(np.eye(2))
>>> be.B, be.n, batched, be.trace(be.sigma_times(be.mat("M", np.eye(2)))).tolist()
(1, 2, False, [2.0])
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from .covariance import BAD_SYMPY, check_numeric_cov, check_sympy_cov, is_sympy

__all__ = ["NumericBackend", "SymbolicBackend", "backend_for"]


class NumericBackend:
    """Batched float linear algebra: matrices (B, n, n), vectors (B, n), scalars (B,)."""

    symbolic = False

    def __init__(self, cov: np.ndarray):
        self.cov = cov                     # (B, n, n)
        self.B, self.n = cov.shape[0], cov.shape[-1]

    def vec(self, name, a):
        if isinstance(a, sp.MatrixBase) and 1 in a.shape:
            a = list(a)                          # SymPy row/column vector with numeric entries
        try:
            v = np.asarray(a, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be a numeric vector of length {self.n}") from None
        if v.shape == (self.n,):
            v = np.broadcast_to(v, (self.B, self.n))
        elif v.shape != (self.B, self.n):
            raise ValueError(f"{name} must have shape ({self.n},) or ({self.B}, {self.n}), got {v.shape}")
        if not np.all(np.isfinite(v)):
            raise ValueError(f"{name} must have finite entries")
        return v

    def mat(self, name, m):
        try:
            a = np.asarray(m, dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must be a numeric ({self.n}, {self.n}) matrix") from None
        if a.shape not in ((self.n, self.n), (self.B, self.n, self.n)):
            raise ValueError(f"{name} must have shape ({self.n}, {self.n}) or "
                             f"({self.B}, {self.n}, {self.n}), got {a.shape}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"{name} must have finite entries")
        return 0.5 * (a + np.swapaxes(a, -1, -2))

    def sigma_times(self, m):                    # Σ M  -> (B, n, n)
        return np.matmul(self.cov, m)

    def row_times(self, u, p):                   # uᵀ P -> (B, n)
        return np.einsum("bi,bij->bj", u, p)

    def matmul(self, w, p):
        return np.matmul(w, p)

    def trace(self, w):
        return np.trace(w, axis1=-2, axis2=-1)

    def trace_prod(self, w, p):                  # tr(W P) without forming W P
        return np.einsum("bij,bji->b", w, p)

    def bilinear(self, u, b):                    # uᵀ Σ b
        return np.einsum("bi,bij,bj->b", u, self.cov, b)

    def zero(self):
        return np.zeros(self.B)

    def one(self):
        return np.ones(self.B)


class SymbolicBackend:
    symbolic = True

    def __init__(self, cov: sp.Matrix):
        self.cov = cov
        self.n = cov.rows

    def vec(self, name, a):
        if isinstance(a, sp.MatrixBase):
            if a.shape not in ((self.n, 1), (1, self.n)):
                raise ValueError(f"{name} must have length {self.n}, got shape {a.shape}")
            items = list(a)
        else:
            arr = np.asarray(a, dtype=object)
            if arr.shape != (self.n,):
                raise ValueError(f"{name} must have shape ({self.n},) for a SymPy cov, got {arr.shape}")
            items = list(arr)
        try:
            items = [sp.sympify(x) for x in items]
        except (sp.SympifyError, TypeError):
            raise ValueError(f"{name} entries must be numbers or SymPy expressions") from None
        for x in items:
            if x.has(*BAD_SYMPY):
                raise ValueError(f"{name} must have finite entries")
        return sp.Matrix(1, self.n, items)          # row vector

    def mat(self, name, m):
        if isinstance(m, sp.MatrixBase):
            a = sp.Matrix(m)
        else:
            arr = np.asarray(m, dtype=object)
            if arr.ndim != 2:
                raise ValueError(f"{name} must have shape ({self.n}, {self.n}), got {arr.shape}")
            try:
                a = sp.Matrix(arr.tolist())
            except (sp.SympifyError, TypeError, ValueError):
                raise ValueError(f"{name} entries must be numbers or SymPy expressions") from None
        if a.shape != (self.n, self.n):
            raise ValueError(f"{name} must have shape ({self.n}, {self.n}), got {a.shape}")
        if any(x.has(*BAD_SYMPY) for x in a):
            raise ValueError(f"{name} must have finite entries")
        return (a + a.T) / 2

    def sigma_times(self, m):
        return self.cov * m

    def row_times(self, u, p):
        return u * p

    def matmul(self, w, p):
        return w * p

    def trace(self, w):
        return w.trace()

    def trace_prod(self, w, p):
        return sum((w[i, j] * p[j, i] for i in range(self.n) for j in range(self.n)), sp.Integer(0))

    def bilinear(self, u, b):
        return (u * self.cov * b.T)[0, 0]

    def zero(self):
        return sp.Integer(0)

    def one(self):
        return sp.Integer(1)


def backend_for(cov):
    if is_sympy(cov):
        return SymbolicBackend(check_sympy_cov("cov", cov)), None
    arr, batched = check_numeric_cov("cov", cov)
    return NumericBackend(arr), batched
