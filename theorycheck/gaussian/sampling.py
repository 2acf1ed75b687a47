r"""Draws of :math:`\mathcal N(0, \Sigma)` through a factor :math:`F F^\top = \Sigma` (Cholesky, or a clipped
eigendecomposition for singular PSD matrices).

>>> sample(np.eye(2), 4, 0).shape
(4, 2)
"""
from __future__ import annotations

import numbers

import numpy as np

from ..validate import check_int, check_memory
from .covariance import check_numeric_cov, is_sympy

__all__ = ["sample", "psd_factor"]


def psd_factor(c: np.ndarray) -> np.ndarray:
    """A factor F with F Fᵀ = c for a validated PSD matrix ``c``: Cholesky, or (singular ``c``) V·sqrt(w) from the
    eigendecomposition, eigenvalues within roundoff of 0 (``|w| <= n eps max|w|``) taken as exact zeros."""
    try:
        return np.linalg.cholesky(c)
    except np.linalg.LinAlgError:
        w, V = np.linalg.eigh(c)
        w = np.where(w > c.shape[0] * np.finfo(float).eps * np.max(np.abs(w)), w, 0.0)
        return V * np.sqrt(w)


def sample(cov, size, rng):
    r"""``size`` independent draws of :math:`\mathcal N(0,\Sigma)`.

    ``cov`` numeric ``(n, n)`` → array ``(size, n)``; ``(B, n, n)`` → ``(size, B, n)``.
    ``rng`` is a :class:`numpy.random.Generator` or a non-negative integer seed. The factor
    :math:`L` with :math:`LL^\top=\Sigma` is the Cholesky factor, or
    :math:`V\operatorname{diag}(\sqrt{w})` from ``eigh`` when Cholesky fails (singular PSD);
    eigenvalues below :math:`n\,\epsilon\max|w|` are set to 0 (roundoff of a PSD matrix).

    >>> x = sample(np.array([[1.0, 0.0], [0.0, 0.0]]), 3, 0)
    >>> x.shape, bool(np.all(x[:, 1] == 0))
    ((3, 2), True)
    """
    if is_sympy(cov):
        if cov.free_symbols:
            raise ValueError("cov must be numeric to sample from, got symbols "
                             f"{sorted(map(str, cov.free_symbols))}")
        cov = np.array(cov.evalf(), dtype=float)
    arr, batched = check_numeric_cov("cov", cov)
    size = check_int("size", size, minimum=1)
    check_memory("size", size, 8.0 * size * arr.shape[0] * arr.shape[-1], "the samples")
    if isinstance(rng, (numbers.Integral, np.integer)) and not isinstance(rng, bool):
        rng = np.random.default_rng(check_int("rng", rng, minimum=0))
    elif not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator or a non-negative integer seed, got {rng!r}")
    L = np.stack([psd_factor(c) for c in arr])               # (B, n, n)
    n = arr.shape[-1]
    z = rng.standard_normal((size, arr.shape[0], n))
    x = np.einsum("bij,sbj->sbi", L, z)
    return x if batched else x[:, 0, :]
