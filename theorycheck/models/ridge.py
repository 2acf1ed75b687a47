r"""Ridge and ridgeless (minimum-norm) least squares, as the papers train their predictors.
"""
from __future__ import annotations

import numpy as np
import scipy.linalg as sla

__all__ = ["fit_prefixes"]


def fit_prefixes(X, y, ns, d, lam):
    r"""Ridge / minimum-norm least-squares fits on the prefixes ``X[:n]`` for each ``n`` in ``ns`` (ascending).

    Penalty :math:`(n/d)\lambda\|\gamma\|^2` on the unhalved squared loss (the paper-004 convention,
    Eq. (6)): :math:`\gamma^*=(\tfrac nd\lambda I+X_n^\top X_n)^{-1}X_n^\top y_n`, solved in the smaller of the
    n- and p-dimensional spaces (dual :math:`X_n^\top(\tfrac nd\lambda I+X_nX_n^\top)^{-1}y_n` for
    :math:`n\le p`, one kernel matrix shared by all dual prefixes; primal with the Gram matrix accumulated
    once for :math:`n>p`); symmetric positive-definite systems by Cholesky, least squares if that fails.
    :math:`\lambda=0` gives the minimum-norm solution. Returns the list of γ.

    >>> X = np.eye(3); y = np.array([1.0, 2.0, 3.0])
    >>> [g.round(3).tolist() for g in fit_prefixes(X, y, [2, 3], d=1, lam=0.0)]
    [[1.0, 2.0, 0.0], [1.0, 2.0, 3.0]]
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    if X.ndim != 2 or y.shape != (X.shape[0],):
        raise ValueError(f"X must be (n, p) and y (n,), got {X.shape} and {y.shape}")
    ns = [int(n) for n in ns]
    if any(b < a for a, b in zip(ns, ns[1:])) or (ns and (ns[0] < 1 or ns[-1] > X.shape[0])):
        raise ValueError(f"ns must be ascending integers in [1, {X.shape[0]}], got {ns}")
    if not (np.isfinite(lam) and lam >= 0):
        raise ValueError(f"lam must be a finite number >= 0, got {lam!r}")
    p = X.shape[1]
    dual = [n for n in ns if n <= p]
    K = None
    if dual:
        Xd = X[:max(dual)]
        K = Xd @ Xd.T
    out = []
    G = np.zeros((p, p)) if any(n > p for n in ns) else None
    r = np.zeros(p)
    done = 0
    for n in ns:
        pen = (n / d) * lam
        if n <= p:
            Kn = K[:n, :n].copy()
            Kn[np.diag_indices_from(Kn)] += pen
            out.append(X[:n].T @ _spd_solve(Kn, y[:n], X[:n].T, y[:n]))
        else:
            if done < n:
                blk = X[done:n]
                G += blk.T @ blk
                r += blk.T @ y[done:n]
                done = n
            A = G.copy()
            A[np.diag_indices_from(A)] += pen
            out.append(_spd_solve(A, r, X[:n], y[:n], primal=True))
    return out


def _spd_solve(A, b, Xn, yn, primal=False):
    """Solve the symmetric positive-(semi)definite system ``A x = b`` by Cholesky; if ``A`` is numerically
    singular, fall back to the least-squares / minimum-norm route on the data itself."""
    try:
        return sla.cho_solve(sla.cho_factor(A, lower=True, check_finite=False), b, check_finite=False)
    except (np.linalg.LinAlgError, sla.LinAlgError):
        if primal:
            return sla.lstsq(Xn, yn)[0]
        return sla.lstsq(A, b)[0]
