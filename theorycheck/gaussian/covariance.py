r"""Validation shared by the Gaussian engines: covariances (SymPy or numeric, single or batched), index tuples,
float results.

Conventions: a numeric covariance is returned as a ``(B, n, n)`` float array together with a flag saying whether
the caller passed a batch; a SymPy covariance as a ``sympy.Matrix`` (symmetry checked symbolically, positive
semi-definiteness only when it has no free symbols). Errors are ``ValueError`` naming the parameter.

>>> import numpy as np
>>> a, batched = check_numeric_cov("cov", np.eye(2))
>>> a.shape, batched
((1, 2, 2), False)
>>> check_idx([1, 0, 1], 2)
(1, 0, 1)
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from ..validate import check_int, check_psd

__all__ = ["BAD_SYMPY", "is_sympy", "check_sympy_cov", "check_numeric_cov", "check_idx", "check_finite_result"]

BAD_SYMPY = (sp.nan, sp.zoo, sp.oo, -sp.oo)


def is_sympy(x) -> bool:
    """Is ``x`` a SymPy matrix (the exact route)?"""
    return isinstance(x, sp.MatrixBase)


def check_sympy_cov(name: str, cov: sp.MatrixBase) -> sp.Matrix:
    """``cov`` as a square, finite, symmetric SymPy Matrix (PSD checked numerically when it has no symbols)."""
    if cov.rows != cov.cols:
        raise ValueError(f"{name} must be square with shape (n, n), got shape {cov.shape}")
    n = cov.rows
    for i in range(n):
        for j in range(n):
            e = cov[i, j]
            if e.has(*BAD_SYMPY):
                raise ValueError(f"{name} must have finite entries, got {e} at ({i}, {j})")
            if j > i and e != cov[j, i] and sp.simplify(e - cov[j, i]) != 0:
                raise ValueError(f"{name} must be symmetric, entries ({i}, {j}) and ({j}, {i}) differ")
    if n and not cov.free_symbols:
        try:
            num = np.array(cov.evalf(), dtype=float)
        except (TypeError, ValueError):
            raise ValueError(f"{name} must have real entries") from None
        check_psd(name, num)
    return sp.Matrix(cov)


def check_numeric_cov(name: str, cov) -> tuple[np.ndarray, bool]:
    """Return (cov as (B, n, n) float array, batched?)."""
    try:
        a = np.asarray(cov, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a numeric (n, n) or (B, n, n) array or a SymPy Matrix, "
                         f"got {type(cov).__name__}") from None
    if a.ndim not in (2, 3) or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"{name} must be square with shape (n, n) or (B, n, n), got shape {a.shape}")
    if a.ndim == 3 and a.shape[0] == 0:
        raise ValueError(f"{name} batch size B must be >= 1, got shape {a.shape}")
    batched = a.ndim == 3
    a = check_psd(name, a, batch=batched)
    return (a if batched else a[None]), batched


def check_idx(idx, n: int) -> tuple[int, ...]:
    """``idx`` as a tuple of Python ints in ``[0, n-1]`` (a sequence; NumPy and SymPy integers accepted)."""
    if isinstance(idx, (str, bytes)) or not hasattr(idx, "__iter__"):
        raise ValueError(f"idx must be a sequence of integers in [0, {n - 1}], got {idx!r}")
    if isinstance(idx, np.ndarray) and idx.ndim != 1:
        raise ValueError(f"idx must be a 1-D sequence of integers in [0, {n - 1}], got shape {idx.shape}")
    try:
        items = list(idx)
    except TypeError:
        raise ValueError(f"idx must be a sequence of integers in [0, {n - 1}], got {idx!r}") from None
    if all(type(v) is int for v in items) and (not items or (n > 0 and 0 <= min(items) and max(items) < n)):
        return tuple(items)                       # the common case, fast; the loop below names a bad entry
    out = []
    for k, v in enumerate(items):
        if isinstance(v, sp.Basic) and v.is_Integer:
            v = int(v)
        if n == 0:
            raise ValueError(f"idx[{k}] must be an index into an empty covariance; idx must be empty")
        out.append(check_int(f"idx[{k}]", v, minimum=0, maximum=n - 1))
    return tuple(out)


def check_finite_result(res: np.ndarray) -> None:
    """Refuse a float result that overflowed (inf or nan) with a ValueError saying what to do."""
    if not np.all(np.isfinite(res)):
        raise ValueError("result overflowed float64: the entries of cov (and of the factors) are too "
                         "large for a moment of this order; rescale them or use a SymPy cov")
