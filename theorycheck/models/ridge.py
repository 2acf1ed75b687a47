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
    n- and p-dimensional spaces; :math:`\lambda=0` gives the minimum-norm solution. Returns the list of γ.

    >>> X = np.eye(3); y = np.array([1.0, 2.0, 3.0])
    >>> [g.round(3).tolist() for g in fit_prefixes(X, y, [2, 3], d=1, lam=0.0)]
    [[1.0, 2.0, 0.0], [1.0, 2.0, 3.0]]
    """
    p = X.shape[1]
    out = []
    G = np.zeros((p, p))
    r = np.zeros(p)
    done = 0
    for n in ns:
        pen = (n / d) * lam
        if n <= p:
            Xn = X[:n]
            K = Xn @ Xn.T
            K[np.diag_indices_from(K)] += pen
            try:
                a = np.linalg.solve(K, y[:n])
            except np.linalg.LinAlgError:
                a = sla.lstsq(K, y[:n])[0]
            out.append(Xn.T @ a)
        else:
            if done < n:
                blk = X[done:n]
                G += blk.T @ blk
                r += blk.T @ y[done:n]
                done = n
            A = G.copy()
            A[np.diag_indices_from(A)] += pen
            try:
                out.append(np.linalg.solve(A, r))
            except np.linalg.LinAlgError:
                out.append(sla.lstsq(X[:n], y[:n])[0])
    return out
