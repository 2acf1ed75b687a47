r"""Plain Gaussian moments :math:`E[\prod_k X_{i_k}]` by Isserlis' theorem (the hafnian of :math:`\Sigma[idx][:, idx]`).

The moment is computed by pairing the first remaining index with each other one, memoised on the *multiset*
of remaining indices (so :math:`E[X^{12}]` takes 6 steps, and 12 distinct indices at most :math:`2^{12}`
states). SymPy covariances give exact, expanded results; numeric ones floats (or arrays over a batch).

>>> import numpy as np
>>> moment(np.eye(2), [0, 0, 1, 1])
1.0
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp

from .covariance import check_finite_result, check_idx, check_numeric_cov, check_sympy_cov, is_sympy

__all__ = ["moment", "MOMENT_MAX_STATES"]

MOMENT_MAX_STATES = 2 ** 22


def moment(cov, idx):
    r"""Isserlis/Wick moment :math:`E[\prod_k X_{idx[k]}]` for :math:`X\sim\mathcal N(0,\Sigma)`.

    Equals the hafnian of :math:`\Sigma[idx][:, idx]`. ``cov``: SymPy Matrix (exact, expanded
    result), NumPy ``(n, n)`` (``float``) or ``(B, n, n)`` (array ``(B,)``). ``idx``: sequence
    of integers in ``[0, n-1]``, repeats allowed. Odd length gives exactly 0, empty gives 1.
    The memo has at most :math:`\prod_v (c_v + 1)` states (:math:`c_v` the multiplicity of
    index :math:`v`); more than :math:`2^{22}` is refused with a ValueError (e.g. > 22 distinct
    indices) rather than running for minutes.

    Recursion: :math:`m(S) = \sum_{j} c_j\,\Sigma_{s_0 j}\, m(S - s_0 - j)` over the distinct
    remaining indices :math:`j` with multiplicity :math:`c_j`, memoised on the multiset.

    >>> import numpy as np
    >>> moment(np.array([[[1.0]], [[2.0]]]), [0, 0, 0, 0])
    array([ 3., 12.])
    >>> import sympy as sp
    >>> moment(sp.Matrix([[1, 0], [0, 1]]), [])
    1
    """
    symbolic = is_sympy(cov)
    if symbolic:
        cov = check_sympy_cov("cov", cov)
        n = cov.rows
    else:
        cov, batched = check_numeric_cov("cov", cov)
        n = cov.shape[-1]
    idx = check_idx(idx, n)
    if len(idx) % 2:
        if symbolic:
            return sp.Integer(0)
        return np.zeros(cov.shape[0]) if batched else 0.0
    if not idx:
        if symbolic:
            return sp.Integer(1)
        return np.ones(cov.shape[0]) if batched else 1.0

    distinct = sorted(set(idx))
    counts0 = tuple(idx.count(v) for v in distinct)
    if math.prod(c + 1 for c in counts0) > MOMENT_MAX_STATES:
        raise ValueError(f"idx has too many distinct indices ({len(distinct)}): the memoised recursion "
                         f"would need more than {MOMENT_MAX_STATES} states (prod of (multiplicity+1) "
                         f"must be <= 2**22, e.g. at most 22 distinct indices)")
    k = len(distinct)
    if symbolic:
        sub = [[cov[distinct[p], distinct[q]] for q in range(k)] for p in range(k)]
    else:
        d = np.asarray(distinct)
        subarr = cov[:, d[:, None], d[None, :]]                  # (B, k, k)
        sub = [[subarr[:, p, q] for q in range(k)] for p in range(k)]

    memo: dict[tuple[int, ...], object] = {}

    def rec(counts: tuple[int, ...]):
        hit = memo.get(counts)
        if hit is not None:
            return hit
        p = next((i for i, c in enumerate(counts) if c), None)
        if p is None:
            return 1
        c = list(counts)
        c[p] -= 1
        total = 0
        for q in range(p, k):
            if c[q] == 0:
                continue
            mult = c[q]
            c[q] -= 1
            term = rec(tuple(c))
            c[q] += 1
            total = total + mult * sub[p][q] * term
        memo[counts] = total
        return total

    if symbolic:
        return sp.expand(rec(counts0))
    with np.errstate(over="ignore", invalid="ignore"):
        res = np.asarray(rec(counts0), dtype=float)
    check_finite_result(res)
    return res if batched else float(res[0])
