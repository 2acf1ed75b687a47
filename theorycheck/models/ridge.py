r"""Ridge and ridgeless (minimum-norm) least squares, as the papers train their predictors.

:func:`fit_prefixes` fits a design matrix on nested prefixes; :func:`fit_prefixes_factored` does the same for
the Kronecker-structured features of the reduced linear-attention predictor (paper 004), rows
:math:`h_\mu=x_\mu\otimes z_\mu`, without forming the full design matrix for the dual solves: the kernel is the
Hadamard product :math:`(XX^\top)\circ(ZZ^\top)` (cost :math:`n^2(2d+1)` instead of :math:`n^2d(d+1)`) and, when
:math:`\lambda=0`, one Cholesky factor serves every dual prefix (the factor of a leading principal block is the
leading block of the factor).
"""
from __future__ import annotations

import math

import numpy as np
import scipy.linalg as sla

from ..memo import memoize
from ..validate import ParameterTypeError, check_array, check_memory, check_real

__all__ = ["fit_prefixes", "fit_prefixes_factored"]

#: rows of the feature blocks accumulated into the primal Gram matrix
_BLOCK_ROWS = 2048


def _check_ns(ns, n_rows: int) -> list[int]:
    if isinstance(ns, (str, bytes, bool)) or not hasattr(ns, "__iter__"):
        raise ParameterTypeError(f"ns must be a list of prefix lengths (ascending integers), got {ns!r}")
    out = []
    for v in ns:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer, float, np.floating)) or \
                not math.isfinite(float(v)) or float(v) != int(v):
            raise ValueError(f"ns must be ascending integers in [1, {n_rows}], got {list(ns)!r}")
        out.append(int(v))
    if not out or any(b < a for a, b in zip(out, out[1:])) or out[0] < 1 or out[-1] > n_rows:
        raise ValueError(f"ns must be a non-empty list of ascending integers in [1, {n_rows}], got {out}")
    return out


def _check_common(y, n_rows, ns, d, lam):
    y = check_array("y", y, ndim=1)
    if y.shape != (n_rows,):
        raise ValueError(f"y must have shape ({n_rows},) (one label per row), got {y.shape}")
    ns = _check_ns(ns, n_rows)
    d = check_real("d", d, low=0.0, low_open=True)
    lam = check_real("lam", lam, low=0.0)
    return y, ns, d, lam


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
    X = check_array("X", X, ndim=2)
    if X.shape[0] < 1 or X.shape[1] < 1:
        raise ValueError(f"X must be a non-empty (n, p) matrix, got shape {X.shape}")
    y, ns, d, lam = _check_common(y, X.shape[0], ns, d, lam)
    p = X.shape[1]
    dual = [n for n in ns if n <= p]
    check_memory("X", X.shape, 8.0 * (max(dual) ** 2 if dual else 0) + 8.0 * (p * p if len(dual) < len(ns) else 0),
                 "the kernel / Gram matrices")
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
    return _finite_fits(out, lam)


def fit_prefixes_factored(xq, Z, y, ns, d, lam):
    r""":func:`fit_prefixes` for the features :math:`h_\mu=x_\mu\otimes z_\mu` (rows of
    :func:`theorycheck.models.attention.reduced_features` with ``Z = [U, S]``), without the full design matrix.

    Dual prefixes (:math:`n\le p=d_x d_z`): kernel :math:`K=(X X^\top)\circ(ZZ^\top)`,
    :math:`\gamma=\mathrm{vec}(X_n^\top\mathrm{diag}(\alpha)Z_n)` with :math:`\alpha=(K_n+\tfrac nd\lambda I)^{-1}y_n`;
    at :math:`\lambda=0` one Cholesky factor of the largest dual kernel serves every dual prefix. Primal prefixes
    (:math:`n>p`): the Gram matrix is accumulated from feature blocks of :data:`_BLOCK_ROWS` rows. Same solutions
    as :func:`fit_prefixes` on ``reduced_features(xq, U, S)`` up to round-off.

    >>> rng = np.random.default_rng(0)
    >>> x, z, y = rng.standard_normal((9, 2)), rng.standard_normal((9, 3)), rng.standard_normal(9)
    >>> H = (x[:, :, None] * z[:, None, :]).reshape(9, 6)
    >>> a, b = fit_prefixes_factored(x, z, y, [4, 9], 2, 0.0), fit_prefixes(H, y, [4, 9], 2, 0.0)
    >>> all(np.allclose(u, v) for u, v in zip(a, b))
    True
    """
    xq = check_array("xq", xq, ndim=2)
    Z = check_array("Z", Z, ndim=2)
    n_rows, dx = xq.shape
    if Z.shape[0] != n_rows or n_rows < 1 or dx < 1 or Z.shape[1] < 1:
        raise ValueError(f"xq (n, d_x) and Z (n, d_z) must be non-empty with the same number of rows, got {xq.shape} "
                         f"and {Z.shape}")
    y, ns, d, lam = _check_common(y, n_rows, ns, d, lam)
    dz = Z.shape[1]
    p = dx * dz
    dual = [n for n in ns if n <= p]
    primal = [n for n in ns if n > p]
    check_memory("xq", xq.shape, 8.0 * 2 * (max(dual) ** 2 if dual else 0) + 8.0 * (p * p if primal else 0),
                 "the kernel / Gram matrices")
    out = []
    if dual:
        m = max(dual)
        K = xq[:m] @ xq[:m].T
        K *= Z[:m] @ Z[:m].T
        L = None
        if lam == 0:
            try:
                # K is exactly symmetric (both Gram factors are), so its transpose is the same matrix in Fortran
                # order: LAPACK factors it in place of a slow C-to-Fortran copy.
                L = sla.cholesky(K.T, lower=True, check_finite=False)
            except (np.linalg.LinAlgError, sla.LinAlgError):
                L = None
        for n in dual:
            if L is not None:
                Ln = L[:n, :n]
                al = sla.solve_triangular(Ln, y[:n], lower=True, check_finite=False)
                al = sla.solve_triangular(Ln.T, al, lower=False, check_finite=False)
            else:
                Kn = K[:n, :n].copy()
                Kn[np.diag_indices_from(Kn)] += (n / d) * lam
                al = _spd_solve(Kn, y[:n], None, None, kernel=True)
            out.append((xq[:n].T @ (al[:, None] * Z[:n])).ravel())
    if primal:
        # G = Σ_μ (x_μx_μᵀ) ⊗ (z_μz_μᵀ) from the unique products: M = Pᵀ Q with P_μ = (x_μi x_μk)_{i≤k},
        # Q_μ = (z_μj z_μl)_{j≤l} — half the multiply-adds of HᵀH — then unpacked by index maps.
        tx, tz = _sym_index(dx), _sym_index(dz)
        M = np.zeros((dx * (dx + 1) // 2, dz * (dz + 1) // 2))
        r = np.zeros((dx, dz))
        done = 0
        for n in primal:
            for a in range(done, n, _BLOCK_ROWS):
                b = min(n, a + _BLOCK_ROWS)
                xb, zb = np.asfortranarray(xq[a:b]), np.asfortranarray(Z[a:b])
                M += _sym_products(xb).T @ _sym_products(zb)
                r += xb.T @ (y[a:b, None] * zb)
            done = n
            A = _unpack(M, tx, tz)
            A[np.diag_indices_from(A)] += (n / d) * lam
            try:
                # A is exactly symmetric (A[(i,j),(k,l)] = M[t(i,k), t(j,l)]): A.T is A in Fortran order
                out.append(sla.cho_solve(sla.cho_factor(A.T, lower=True, overwrite_a=True, check_finite=False),
                                         r.ravel(), check_finite=False))
            except (np.linalg.LinAlgError, sla.LinAlgError):
                H = (xq[:n, :, None] * Z[:n, None, :]).reshape(n, p)
                out.append(sla.lstsq(H, y[:n])[0])
    return _finite_fits(out, lam)


@memoize("models.ridge.sym_index", maxsize=64)
def _sym_index(m: int) -> np.ndarray:
    """``t[i, k]`` = position of the pair (min(i,k), max(i,k)) in the row-major upper-triangle order (memoised
    per ``m``; the array is read-only)."""
    i, k = np.triu_indices(m)
    t = np.empty((m, m), dtype=np.intp)
    t[i, k] = np.arange(i.size)
    t[k, i] = np.arange(i.size)
    t.flags.writeable = False
    return t


def _unpack(M: np.ndarray, tx: np.ndarray, tz: np.ndarray) -> np.ndarray:
    """The (p, p) Gram matrix ``A[(i,j),(k,l)] = M[tx[i,k], tz[j,l]]`` from the unique products ``M`` (a pure
    gather, row block by row block: ``A[i, :, k, :] = M[tx[i,k]][tz]``, cache-friendly)."""
    dx, dz = tx.shape[0], tz.shape[0]
    A = np.empty((dx, dz, dx, dz))
    for i in range(dx):
        A[i] = M.take(tx[i], axis=0).take(tz, axis=1).transpose(1, 0, 2)
    return A.reshape(dx * dz, dx * dz)


def _sym_products(A: np.ndarray) -> np.ndarray:
    """Rows ``(A_i A_k)_{i<=k}`` (upper-triangle order), column-major for the BLAS product that follows."""
    n, m = A.shape
    out = np.empty((n, m * (m + 1) // 2), order="F")
    o = 0
    for i in range(m):
        np.multiply(A[:, i:i + 1], A[:, i:], out=out[:, o:o + m - i])
        o += m - i
    return out


def _finite_fits(out, lam):
    if not all(np.all(np.isfinite(g)) for g in out):
        raise ValueError(f"the fit is not finite for lam={lam!r}: X or y overflow in the normal equations (rescale "
                         "the features or the labels)")
    return out


def _spd_solve(A, b, Xn, yn, primal=False, kernel=False):
    """Solve the symmetric positive-(semi)definite system ``A x = b`` by Cholesky; if ``A`` is numerically
    singular, fall back to the least-squares / minimum-norm route on the data itself."""
    try:
        return sla.cho_solve(sla.cho_factor(A, lower=True, check_finite=False), b, check_finite=False)
    except (np.linalg.LinAlgError, sla.LinAlgError):
        if primal:
            return sla.lstsq(Xn, yn)[0]
        return sla.lstsq(A, b)[0]
