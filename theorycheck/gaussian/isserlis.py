r"""Plain Gaussian moments :math:`E[\prod_k X_{i_k}]` by Isserlis' theorem (the hafnian of :math:`\Sigma[idx][:, idx]`).

Recursion
---------
Pair the first remaining index with each other one. On the *multiset* of remaining indices — multiplicities
:math:`c = (c_1, \dots, c_k)` of the distinct indices :math:`v_1 < \dots < v_k` — this reads

.. math:: m(c) = \sum_{q \ge p,\ c'_q > 0} c'_q\,\Sigma_{v_p v_q}\, m(c' - e_q), \qquad c' = c - e_p,\quad m(0) = 1,

with :math:`p` the first index with :math:`c_p > 0` (so :math:`E[X^{12}]` takes 6 steps, and 12 distinct indices
at most :math:`2^{12}` states).

Evaluation
----------
The multisets reachable from the full one form a graph with one *level* per pair removed; it depends on the
multiplicities only, not on :math:`\Sigma`. :func:`isserlis_plan` builds it once per multiplicity tuple
(vectorised over a level, multisets named by mixed-radix codes) and the memo ``gaussian.isserlis_plan`` keeps it.
A numeric moment is then evaluated level by level from the empty multiset up, all states of a level (and all
covariances of a batch) at once: each state's terms are summed in increasing :math:`q`, with the same
operations in the same order as the state-by-state recursion, so the float result is bit for bit the
recursion's (see :func:`evaluate_plan`). A SymPy covariance runs the same plan state by state and expands the
exact sum. Distinct indices: level :math:`j` of an order-:math:`n` moment has :math:`\binom{n-1-j}{j}` states;
:math:`n = 16` has 1596 states and 10 226 terms.

>>> import numpy as np
>>> moment(np.eye(2), [0, 0, 1, 1])
1.0
>>> [lv.mult.tolist() for lv in isserlis_plan((1, 1, 1, 1))]  # E[X0 X1 X2 X3]: 1 state, 3 terms; 3 states, 1 each
[[[1, 1, 1]], [[1, 0], [0, 1], [0, 1]]]
"""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
import sympy as sp

from ..memo import memoize
from .covariance import check_finite_result, check_idx, check_numeric_cov, check_sympy_cov, is_sympy

__all__ = ["moment", "MOMENT_MAX_STATES", "Level", "isserlis_plan", "evaluate_plan", "evaluate_plan_scalar"]

MOMENT_MAX_STATES = 2 ** 22
#: at most this many float64 terms of a level are formed at once (rows of a level are taken in chunks beyond it)
CHUNK_TERMS = 2 ** 21
#: one covariance and a plan of at most this many term slots: evaluated on Python floats, state by state
SCALAR_MAX_TERMS = 256


def moment(cov, idx):
    r"""Isserlis/Wick moment :math:`E[\prod_k X_{idx[k]}]` for :math:`X\sim\mathcal N(0,\Sigma)`.

    Equals the hafnian of :math:`\Sigma[idx][:, idx]`. ``cov``: SymPy Matrix (exact, expanded
    result), NumPy ``(n, n)`` (``float``) or ``(B, n, n)`` (array ``(B,)``). ``idx``: sequence
    of integers in ``[0, n-1]``, repeats allowed. Odd length gives exactly 0, empty gives 1.
    The recursion has at most :math:`\prod_v (c_v + 1)` states (:math:`c_v` the multiplicity of
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
        sub = cov[:, d[:, None], d[None, :]]                     # (B, k, k)

    plan = isserlis_plan(counts0)
    if symbolic:
        return sp.expand(evaluate_plan_scalar(plan, [x for row in sub for x in row]))
    with np.errstate(over="ignore", invalid="ignore"):
        if sub.shape[0] == 1 and sum(lv.pq.size for lv in plan) <= SCALAR_MAX_TERMS:
            res = np.array([evaluate_plan_scalar(plan, sub.ravel().tolist())])     # Python floats: the same IEEE ops
        else:
            res = evaluate_plan(plan, sub)
    check_finite_result(res)
    return res if batched else float(res[0])


class Level(NamedTuple):
    """One level of the recursion's graph: its ``s`` states (multisets of equal size) and ``w`` term slots each.

    Term ``j`` of state ``r`` is ``mult[r, j] * Σ_flat[pq[r, j]] * m_below[child[r, j]]`` with ``pq = p * k + q``;
    an absent term has ``mult = 0`` and points at the extra last row (zero) of the level below. ``weight`` is
    ``mult`` as floats, shaped ``(s, w, 1)`` for a batch; ``terms`` the present terms ``(pq, child, mult)`` of each
    state as Python ints, for the state-by-state evaluation (kept for small plans only, else ``None``)."""

    pq: np.ndarray          # (s, w) flat index p k + q of Σ_{v_p v_q}
    child: np.ndarray       # (s, w) row of m(c' - e_q) in the level below
    mult: np.ndarray        # (s, w) multiplicity c'_q (int), 0 for an absent term
    weight: np.ndarray      # (s, w, 1) the same as float64
    terms: tuple | None


@memoize("gaussian.isserlis_plan", maxsize=256, maxbytes=2 ** 26)
def isserlis_plan(counts: tuple) -> tuple:
    """The levels (:class:`Level`) of the recursion for the multiplicities ``counts`` (positive ints), the full
    multiset first; the level below the last is the empty multiset.

    >>> [lv.mult.tolist() for lv in isserlis_plan((4,))]        # E[X^4] = 3 Σ (1 Σ)
    [[[3]], [[1]]]
    """
    k = len(counts)
    top = np.asarray(counts, dtype=np.int64)
    radix = np.cumprod(np.concatenate(([1], top[:-1] + 1)))        # multiset c <-> code c . radix
    states, levels = top[None, :], []
    for _ in range(int(top.sum()) // 2):
        p = np.argmax(states > 0, axis=1)                            # first index still present
        rest = states.copy()
        rest[np.arange(len(states)), p] -= 1                         # c' = c - e_p
        present = (np.arange(k) >= p[:, None]) & (rest > 0)         # partners q >= p with c'_q > 0
        cols = np.flatnonzero(present.any(axis=0))
        present = present[:, cols]
        codes = (rest @ radix)[:, None] - radix[cols]               # code of c' - e_q
        below, where = np.unique(codes[present], return_inverse=True)
        child = np.full(present.shape, len(below), dtype=np.intp)
        child[present] = where
        levels.append((p[:, None] * k + cols, child, np.where(present, rest[:, cols], 0)))
        states = below[:, None] // radix % (top + 1)
    small = sum(pq.size for pq, _, _ in levels) <= SCALAR_MAX_TERMS
    return tuple(Level(pq, child, mult, mult[:, :, None].astype(float), _terms(pq, child, mult) if small else None)
                 for pq, child, mult in levels)


def _terms(pq: np.ndarray, child: np.ndarray, mult: np.ndarray) -> tuple:
    return tuple(tuple((a, b, c) for a, b, c in zip(*row) if c)
                 for row in zip(pq.tolist(), child.tolist(), mult.tolist()))


def evaluate_plan(plan: tuple, sigma: np.ndarray) -> np.ndarray:
    """The moment of ``plan`` (:func:`isserlis_plan`) for the ``(B, k, k)`` covariances ``sigma`` of the distinct
    indices: an array ``(B,)``.

    Bit for bit the state-by-state recursion ``total = 0; total = total + mult * Σ_pq * m(child)`` over
    increasing ``q``: every product is formed in that order, and a state's terms are summed by ``cumsum`` (a
    running sum, in order) plus ``0.0`` — which equals the recursion's ``0 + t_0 + t_1 + ...`` exactly (the two
    running sums differ at most by the sign of a zero, which the final ``+ 0.0`` makes ``+0``; the recursion's is
    never ``-0``). Absent terms are ``(0 * Σ_pq) * 0.0 = ±0`` and change no sum. A level of more than
    ``CHUNK_TERMS`` terms (over the batch) is taken in chunks of states.

    >>> evaluate_plan(isserlis_plan((2, 2)), np.array([[[2.0, 0.5], [0.5, 1.0]]])).tolist()   # ab + 2c^2
    [2.5]
    """
    B, k = sigma.shape[0], sigma.shape[-1]
    flat = sigma.reshape(B, k * k).T                                # (k k, B)
    m = np.zeros((2, B))
    m[0] = 1.0                                                      # the empty multiset; row 1: absent terms
    for lv in reversed(plan):
        s, w = lv.pq.shape
        up = np.empty((s + 1, B))
        up[s] = 0.0
        step = max(1, CHUNK_TERMS // (w * B))
        for a in range(0, s, step):
            r = slice(a, min(a + step, s))
            terms = lv.weight[r] * flat[lv.pq[r]] * m[lv.child[r]]
            np.add(terms.cumsum(axis=1)[:, -1], 0.0, out=up[r])
        m = up
    return m[0]


def evaluate_plan_scalar(plan: tuple, entries: list):
    """The plan's recursion state by state on the ``k*k`` entries (row-major) of the covariance of the distinct
    indices — SymPy expressions (exact) or Python floats (for one small covariance, faster than the vectorised
    :func:`evaluate_plan` and bit for bit equal to it: the same products and sums in the same order).

    >>> evaluate_plan_scalar(isserlis_plan((2, 2)), [2.0, 0.5, 0.5, 1.0])
    2.5
    """
    m = [1]
    for lv in reversed(plan):
        up = []
        for row in (lv.terms if lv.terms is not None else _terms(lv.pq, lv.child, lv.mult)):
            total = 0
            for pq, child, c in row:
                total = total + c * entries[pq] * m[child]
            up.append(total)
        m = up
    return m[0]
