r"""Isserlis/Wick moments of centred jointly Gaussian vectors — exact (SymPy), float and batched.

Conventions
-----------
* :math:`X \sim \mathcal N(0, \Sigma)` is centred; ``cov`` is :math:`\Sigma`. Indices are
  0-based: ``moment(cov, (0, 0, 1))`` is :math:`E[X_0^2 X_1]`.
* ``cov`` may be

  - a SymPy ``Matrix`` (entries numbers or symbols): results are exact SymPy expressions,
    expanded (``sympy.expand``); odd orders give ``sympy.Integer(0)``, the empty product
    ``sympy.Integer(1)``. Symmetry is checked symbolically; positive semi-definiteness only
    when the matrix has no free symbols (otherwise it is the caller's assumption).
  - a NumPy array of shape ``(n, n)``: results are Python ``float``;
  - a batch of shape ``(B, n, n)``: results are arrays of shape ``(B,)``, one per covariance.

  Numeric covariances must be finite, symmetric and PSD
  (:func:`theorycheck.validate.check_psd`, relative tolerance ``1e-10`` for symmetry).
* Quadratic forms :math:`X^\top M X` only see the symmetric part
  :math:`M_s = (M + M^\top)/2`; every formula below uses :math:`M_s`.

Public API
----------
``pairings(n)``
    All perfect matchings of ``range(n)`` as tuples of pairs, :math:`(n-1)!!` of them for even
    ``n`` (``[()]`` for ``n = 0``, ``[]`` for odd ``n``). Capped at ``n <= 14``
    (135 135 matchings, ~0.4 s) so it can never exhaust memory.
``moment(cov, idx)``
    Isserlis' theorem: :math:`E[\prod_k X_{i_k}] = \sum_{\text{pairings } p}\prod_{\{k,l\}\in p}
    \Sigma_{i_k i_l} = \operatorname{haf}(\Sigma[idx][:, idx])`. Computed by pairing the first
    remaining index with each other one, memoised on the *multiset* of remaining indices
    (so :math:`E[X^{12}]` takes 6 steps, and 12 distinct indices at most :math:`2^{12}` states).
``expect_product(cov, linear=(), quadratic=())``
    :math:`E[\prod_k (a_k^\top X)\prod_j (X^\top M_j X)]` through connected Wick diagrams
    (derivation below); never enumerates pairings of coordinates.
``expect_products(cov, products)``
    A list of such expectations for ``products = [(linear, quadratic), ...]``, validating
    ``cov`` once (the batched PSD check dominates the cost for large batches).
``expect_polynomial(cov, terms)``
    :math:`\sum_t c_t\, E[\prod_k (a_{tk}^\top X)\prod_j (X^\top M_{tj} X)]` for
    ``terms = [(c_t, [a_t1, ...], [M_t1, ...]), ...]``.
``quadratic_form_matrix(pairs, n, exact=False)``
    The symmetric :math:`M` with :math:`X^\top M X = \sum_{(i,j)\in\text{pairs}} X_i X_j`.
``sample(cov, size, rng)``
    ``size`` draws of :math:`\mathcal N(0,\Sigma)` (Cholesky, falling back to a clipped
    eigendecomposition for singular PSD matrices), shape ``(size, n)`` or ``(size, B, n)``.

Derivation of the diagram formulas used by :func:`expect_product`
-----------------------------------------------------------------
Write every factor as a multilinear form with "legs": :math:`L_a = \sum_i a_i X_i` has one
leg, :math:`Q_j = \sum_{i,k} (M_j)_{ik} X_i X_k` has two. By multilinearity and Isserlis,

.. math:: E\Big[\prod L \prod Q\Big] = \sum_{\text{perfect matchings } m \text{ of the legs}}
          w(m),

where a matched pair of legs contributes a factor :math:`\Sigma` contracted with the
coefficients of the two legs. A matching defines a multigraph on the *factors* in which every
vertex has degree 1 (an :math:`L`) or 2 (a :math:`Q`); its connected components are therefore

* **cycles** through :math:`r \ge 1` quadratic factors (a self-loop when :math:`r = 1`), and
* **paths** :math:`L_a - Q_{\sigma(1)} - \dots - Q_{\sigma(r)} - L_b` with both ends linear.

The weight factorises over components, so grouping the matchings by the set partition
:math:`\pi` of the factors into components gives the moment–cumulant formula
:math:`E[\prod F] = \sum_\pi \prod_{B\in\pi} \kappa(B)` with :math:`\kappa(B)` the sum over
*connected* matchings of the legs of :math:`B` — by uniqueness of the Möbius inversion on the
partition lattice this is the joint cumulant. Counting the connected matchings:

* Cycle through :math:`Q_1,\dots,Q_r`: fix :math:`Q_1`, order the others
  (:math:`(r-1)!` orders, each undirected cycle counted twice for :math:`r \ge 3`, once
  per direction), and choose for every :math:`Q` which leg points forward (:math:`2^r`).
  Both directions give the same trace because :math:`\Sigma, M_s` are symmetric, hence

  .. math:: \kappa(Q_1,\dots,Q_r) = 2^{r-1}\sum_{\sigma\in S(\{2..r\})}
            \operatorname{tr}(\Sigma M_1 \Sigma M_{\sigma(2)}\cdots\Sigma M_{\sigma(r)}).

  (:math:`r=1`: :math:`\operatorname{tr}(\Sigma M)`; :math:`r=2`:
  :math:`2\operatorname{tr}(\Sigma M_1\Sigma M_2)`; equal :math:`M`:
  :math:`2^{r-1}(r-1)!\operatorname{tr}((\Sigma M)^r)`, the classical cumulants of a Gaussian
  quadratic form.)
* Path from :math:`L_a` to :math:`L_b`: :math:`r!` orders of the interior, :math:`2^r` leg
  orientations:

  .. math:: \kappa(L_a, Q_1,\dots,Q_r, L_b) = 2^r\sum_{\sigma\in S_r}
            a^\top\Sigma M_{\sigma(1)}\Sigma\cdots\Sigma M_{\sigma(r)}\Sigma b
            \qquad(r = 0:\ a^\top\Sigma b).

* Every other block (one linear factor, or more than two) has no connected matching: 0.
  In particular any product with an odd number of linear factors has expectation 0.

Evaluation: :math:`E` over the factor set :math:`S` obeys
:math:`m(S) = \sum_{B\ni s_0,\,B\subseteq S}\kappa(B)\,m(S\setminus B)` (:math:`s_0` the first
factor), memoised on bitmasks. The permutation sums are done by a subset dynamic programme
(:math:`W(T) = \sum_{j\in T} W(T\setminus j)\,\Sigma M_j`), i.e. :math:`O(2^r r)` matrix
products instead of :math:`r!`; chains only need vector–matrix products. For the LDS moment
:math:`E[y_a^2(\sum_i y_iy_{i+1})^2]` with :math:`T = 30` this is a handful of
:math:`30\times 30` products per covariance.

Examples
--------
>>> import sympy as sp, numpy as np
>>> s = sp.Symbol("sigma", positive=True)
>>> moment(sp.Matrix([[s**2]]), [0] * 6)
15*sigma**6
>>> a, b, c = sp.symbols("a b c")
>>> moment(sp.Matrix([[a, c], [c, b]]), [0, 0, 1, 1])
a*b + 2*c**2
>>> moment(np.array([[2.0, 0.5], [0.5, 1.0]]), [0, 1, 1])
0.0
>>> len(pairings(6)), pairings(4)[0]
(15, ((0, 1), (2, 3)))
>>> M = quadratic_form_matrix([(0, 1), (1, 2)], 3)      # X0 X1 + X1 X2
>>> cov = np.eye(3)
>>> e1 = np.eye(3)[1]          # E[X1^2 (X0X1 + X1X2)^2] = E[X1^4] E[(X0+X2)^2] = 3 * 2
>>> round(expect_product(cov, linear=[e1, e1], quadratic=[M, M]), 12)
6.0
"""
from __future__ import annotations

import math
import numbers

import numpy as np
import sympy as sp

from .validate import check_int, check_psd, check_real, check_memory

__all__ = ["pairings", "moment", "expect_product", "expect_products", "expect_polynomial",
           "quadratic_form_matrix", "sample"]

PAIRINGS_MAX_N = 14
MOMENT_MAX_STATES = 2 ** 22


# --------------------------------------------------------------------------- pairings
def pairings(n) -> list[tuple[tuple[int, int], ...]]:
    r"""All perfect matchings of ``range(n)``; :math:`(n-1)!!` of them for even ``n``.

    Each matching is a tuple of pairs ``(i, j)`` with ``i < j``, pairs sorted by their first
    element; the list is in lexicographic order. ``n = 0`` gives ``[()]`` (one empty matching),
    odd ``n`` gives ``[]``. ``n`` must be an integer in ``[0, 14]``.

    >>> pairings(4)
    [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
    >>> pairings(3), pairings(0)
    ([], [()])
    """
    n = check_int("n", n, minimum=0, maximum=PAIRINGS_MAX_N)
    if n % 2:
        return []
    return list(_pairings(tuple(range(n))))


def _pairings(items: tuple[int, ...]):
    if not items:
        yield ()
        return
    first, rest = items[0], items[1:]
    for k, partner in enumerate(rest):
        remaining = rest[:k] + rest[k + 1:]
        for tail in _pairings(remaining):
            yield ((first, partner),) + tail


# --------------------------------------------------------------------------- validation
_BAD_SYMPY = (sp.nan, sp.zoo, sp.oo, -sp.oo)


def _is_sympy(x) -> bool:
    return isinstance(x, sp.MatrixBase)


def _check_sympy_cov(name: str, cov: sp.MatrixBase) -> sp.Matrix:
    if cov.rows != cov.cols:
        raise ValueError(f"{name} must be square with shape (n, n), got shape {cov.shape}")
    n = cov.rows
    for i in range(n):
        for j in range(n):
            e = cov[i, j]
            if e.has(*_BAD_SYMPY):
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


def _check_numeric_cov(name: str, cov) -> tuple[np.ndarray, bool]:
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


def _check_idx(idx, n: int) -> tuple[int, ...]:
    if isinstance(idx, (str, bytes)) or not hasattr(idx, "__iter__"):
        raise ValueError(f"idx must be a sequence of integers in [0, {n - 1}], got {idx!r}")
    if isinstance(idx, np.ndarray) and idx.ndim != 1:
        raise ValueError(f"idx must be a 1-D sequence of integers in [0, {n - 1}], got shape {idx.shape}")
    try:
        items = list(idx)
    except TypeError:
        raise ValueError(f"idx must be a sequence of integers in [0, {n - 1}], got {idx!r}") from None
    out = []
    for k, v in enumerate(items):
        if isinstance(v, sp.Basic) and v.is_Integer:
            v = int(v)
        if n == 0:
            raise ValueError(f"idx[{k}] must be an index into an empty covariance; idx must be empty")
        out.append(check_int(f"idx[{k}]", v, minimum=0, maximum=n - 1))
    return tuple(out)


# --------------------------------------------------------------------------- moment
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
    symbolic = _is_sympy(cov)
    if symbolic:
        cov = _check_sympy_cov("cov", cov)
        n = cov.rows
    else:
        cov, batched = _check_numeric_cov("cov", cov)
        n = cov.shape[-1]
    idx = _check_idx(idx, n)
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
    _check_finite_result(res)
    return res if batched else float(res[0])


def _check_finite_result(res: np.ndarray) -> None:
    if not np.all(np.isfinite(res)):
        raise ValueError("result overflowed float64: the entries of cov (and of the factors) are too "
                         "large for a moment of this order; rescale them or use a SymPy cov")


# --------------------------------------------------------------------------- expect_product
class _NumBackend:
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


class _SymBackend:
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
            if x.has(*_BAD_SYMPY):
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
        if any(x.has(*_BAD_SYMPY) for x in a):
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


def _backend(cov):
    if _is_sympy(cov):
        return _SymBackend(_check_sympy_cov("cov", cov)), None
    arr, batched = _check_numeric_cov("cov", cov)
    return _NumBackend(arr), batched


def _as_list(name, x):
    if isinstance(x, (list, tuple)):
        return list(x)
    raise ValueError(f"{name} must be a list or tuple (possibly empty), got {type(x).__name__}")


class _Engine:
    """Diagram evaluation for one covariance and one set of factors (shared caches).

    The caches are keyed by the *ordered* factors a value depends on — ``lkeys[a]`` / ``qkeys[j]`` name factor a / j
    (:func:`_prepare`) and a mask stands for the tuple of the keys of its bits in increasing order — because
    every recursion below depends only on those ordered factors (the submasks of a mask are visited in the same
    relative order under any order-preserving relabelling of its bits). Engines of several products on one
    covariance can therefore share ``caches`` (four dicts) when equal keys name equal factors
    (:func:`expect_products`): a sub-diagram common to several products is evaluated once, by the same operations
    in the same order, so every value is exactly what a separate engine computes."""

    def __init__(self, be, linear, quadratic, lkeys, qkeys, caches=None):
        self.be = be
        self.lin = linear                 # list of row vectors
        self.P = quadratic                # list of Σ M_j
        self.nl, self.nq = len(linear), len(quadratic)
        self._lk, self._qk = tuple(lkeys), tuple(qkeys)
        self._lt: dict = {}               # lmask -> ordered keys of its factors
        self._qt: dict = {}               # qmask -> ordered keys of its factors
        if caches is None:
            caches = ({}, {}, {}, {})
        self._chain, self._cyc, self._kappa, self._m = caches
        # _chain: (a, qmask) -> Σ_orders aᵀ ΣM..ΣM (row vector); _cyc: (first, qmask) -> Σ_orders P_first P_.. (matrix)

    def _ltup(self, lmask: int) -> tuple:
        t = self._lt.get(lmask)
        if t is None:
            t = self._lt[lmask] = tuple(self._lk[j] for j in _bits(lmask))
        return t

    def _qtup(self, qmask: int) -> tuple:
        t = self._qt.get(qmask)
        if t is None:
            t = self._qt[qmask] = tuple(self._qk[j] for j in _bits(qmask))
        return t

    # W_a(T) = Σ_{orders of T} aᵀ P_{σ1} ... P_{σ|T|}
    def chain(self, a: int, qmask: int):
        key = (self._lk[a], self._qtup(qmask))
        hit = self._chain.get(key)
        if hit is not None:
            return hit
        if qmask == 0:
            val = self.lin[a]
        else:
            val = None
            for j in _bits(qmask):
                term = self.be.row_times(self.chain(a, qmask & ~(1 << j)), self.P[j])
                val = term if val is None else val + term
        self._chain[key] = val
        return val

    # C_f(T) = Σ_{orders of T} P_f P_{σ1} ... P_{σ|T|}
    def cyc(self, f: int, qmask: int):
        key = (self._qk[f], self._qtup(qmask))
        hit = self._cyc.get(key)
        if hit is not None:
            return hit
        if qmask == 0:
            val = self.P[f]
        else:
            val = None
            for j in _bits(qmask):
                term = self.be.matmul(self.cyc(f, qmask & ~(1 << j)), self.P[j])
                val = term if val is None else val + term
        self._cyc[key] = val
        return val

    def kappa(self, lmask: int, qmask: int):
        key = (self._ltup(lmask), self._qtup(qmask))
        if key in self._kappa:
            return self._kappa[key]
        ls = list(_bits(lmask))
        r = _popcount(qmask)
        if len(ls) == 2:
            a, b = ls
            val = (2 ** r) * self.be.bilinear(self.chain(a, qmask), self.lin[b])
        elif len(ls) == 0 and r >= 1:
            qs = list(_bits(qmask))
            f, rest = qs[0], qmask & ~(1 << qs[0])
            if r == 1:
                val = self.be.trace(self.P[f])
            else:   # Σ over the last factor j of tr(C_f(rest \ j) P_j): avoids one matmul level
                val = None
                for j in _bits(rest):
                    term = self.be.trace_prod(self.cyc(f, rest & ~(1 << j)), self.P[j])
                    val = term if val is None else val + term
                val = (2 ** (r - 1)) * val
        else:
            val = None                     # structurally zero
        self._kappa[key] = val
        return val

    def moment(self, lmask: int, qmask: int):
        if lmask == 0 and qmask == 0:
            return self.be.one()
        key = (self._ltup(lmask), self._qtup(qmask))
        if key in self._m:
            return self._m[key]
        total = None
        # the block containing the first remaining factor (linear first, then quadratic)
        if lmask:
            s0 = _lowbit(lmask)
            lrest = lmask & ~(1 << s0)
            # a nonzero block holds s0 and exactly one other linear factor b
            for b in _bits(lrest):
                for qsub in _submasks(qmask):
                    k = self.kappa((1 << s0) | (1 << b), qsub)
                    if k is None:
                        continue
                    m = self.moment(lrest & ~(1 << b), qmask & ~qsub)
                    if m is None:
                        continue
                    term = k * m
                    total = term if total is None else total + term
        else:
            f = _lowbit(qmask)
            qrest = qmask & ~(1 << f)
            for qsub in _submasks(qrest):
                k = self.kappa(0, qsub | (1 << f))
                m = self.moment(0, qrest & ~qsub)
                term = k * m
                total = term if total is None else total + term
        self._m[key] = total
        return total


def _bits(mask: int):
    j = 0
    while mask:
        if mask & 1:
            yield j
        mask >>= 1
        j += 1


def _lowbit(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


def _submasks(mask: int):
    """All submasks of ``mask`` including 0 and ``mask``."""
    sub = mask
    while True:
        yield sub
        if sub == 0:
            return
        sub = (sub - 1) & mask


MAX_FACTORS = 14
#: bound on the memory of the factors and sub-diagrams that the products of one :func:`expect_products` call share
SHARED_MAX_BYTES = 2 ** 26


def _prepare(be, linear, quadratic, where="", shared=None):
    """Validated factors ``(lin, P, lkeys, qkeys)`` (``P[j]`` = Σ M_j) and their keys for :class:`_Engine`: equal
    keys name equal validated factors. ``shared``: a dict that lives while the caller holds every factor object
    (e.g. across the products of one :func:`expect_products` call; a fresh one by default, for one product)."""
    linear = _as_list(f"{where}linear", linear)
    quadratic = _as_list(f"{where}quadratic", quadratic)
    if len(linear) + len(quadratic) > MAX_FACTORS:
        raise ValueError(f"{where}linear and quadratic may hold at most {MAX_FACTORS} factors in total, "
                         f"got {len(linear) + len(quadratic)}")
    if shared is None:
        shared = {}
    # a vector is named by its contents when it is a float64 NumPy array of shape (n,) (vec() of equal contents
    # gives equal values), otherwise by its object; a matrix by its object (Σ M_j once per distinct matrix object:
    # repeated factors like (Σ y_i y_{i+1})^2 share it)
    lin, lkeys, P, qkeys = [], [], [], []
    for k, a in enumerate(linear):
        if (not be.symbolic and type(a) is np.ndarray and a.dtype == np.float64 and a.ndim == 1
                and a.shape[0] == be.n):
            key = ("v", a.tobytes())
        else:
            key = ("o", id(a))
        hit = shared.get(key)
        if hit is None:
            hit = shared[key] = (be.vec(f"{where}linear[{k}]", a), a)     # (keeps the object, so its id stays unique)
        lin.append(hit[0])
        lkeys.append(key)
    for j, m in enumerate(quadratic):
        key = ("m", id(m))
        hit = shared.get(key)
        if hit is None:
            hit = shared[key] = (be.sigma_times(be.mat(f"{where}quadratic[{j}]", m)), m)
        P.append(hit[0])
        qkeys.append(key)
    return lin, P, lkeys, qkeys


def _finish(be, batched, val):
    if be.symbolic:
        return sp.expand(val)
    val = np.asarray(val, dtype=float)
    _check_finite_result(val)
    return val if batched else float(val[0])


def expect_product(cov, linear=(), quadratic=()):
    r""":math:`E[\prod_k (a_k^\top X)\prod_j (X^\top M_j X)]` for :math:`X\sim\mathcal N(0,\Sigma)`.

    Uses the connected-diagram (cumulant) expansion derived in the module docstring:
    the only nonzero joint cumulants are the cycles
    :math:`\kappa(Q_1..Q_r) = 2^{r-1}\sum_{\sigma}\operatorname{tr}(\Sigma M_1\Sigma M_{\sigma(2)}\cdots)`
    and the paths :math:`\kappa(L_a,Q_1..Q_r,L_b) = 2^r\sum_\sigma a^\top\Sigma M_{\sigma(1)}\Sigma\cdots\Sigma b`.

    Parameters
    ----------
    cov : SymPy Matrix (exact result), NumPy ``(n, n)`` (float) or ``(B, n, n)`` (array ``(B,)``).
    linear : list of vectors :math:`a_k`, each of shape ``(n,)`` (or ``(B, n)`` with a batch).
    quadratic : list of matrices :math:`M_j`, each ``(n, n)`` (or ``(B, n, n)``); only the
        symmetric part matters. At most 14 factors in total (cost grows like
        :math:`3^{\#\text{factors}}` scalar steps plus :math:`2^r r` matrix products).

    >>> import numpy as np
    >>> S = np.array([[2.0, 0.5], [0.5, 1.0]])
    >>> e0, e1 = np.eye(2)
    >>> expect_product(S, [e0, e1])            # Σ_01
    0.5
    >>> round(expect_product(S, [], [np.eye(2), np.eye(2)]), 12)   # E[|X|^4] = tr(S)^2 + 2 tr(S^2)
    20.0
    """
    be, batched = _backend(cov)
    with np.errstate(over="ignore", invalid="ignore"):
        val = _expect(be, *_prepare(be, linear, quadratic))
    return _finish(be, batched, val)


def _expect(be, lin, P, lkeys, qkeys, caches=None):
    nl, nq = len(lin), len(P)
    if nl % 2:
        return be.zero()
    eng = _Engine(be, lin, P, lkeys, qkeys, caches)
    val = eng.moment((1 << nl) - 1, (1 << nq) - 1)
    return be.zero() if val is None else val


def expect_products(cov, products):
    r"""Several expectations :math:`E[\prod_k (a_k^\top X)\prod_j (X^\top M_j X)]` with one validation.

    ``products`` is a list of ``(linear_list, quadratic_list)``; returns a list of results
    (each as :func:`expect_product` would return it). Worth it for large batches, where the
    PSD check of ``cov`` (a batched ``eigvalsh``) costs more than the moments themselves, and for products
    sharing factors: equal factors are validated once and a sub-diagram common to several products is evaluated
    once (by the same operations, so each value is exactly the one :func:`expect_product` returns).

    >>> import numpy as np
    >>> e0 = np.array([1.0])
    >>> expect_products(np.array([[2.0]]), [([e0, e0], []), ([], [np.eye(1)] * 2)])
    [2.0, 12.0]
    """
    be, batched = _backend(cov)
    if not isinstance(products, (list, tuple)):
        raise ValueError(f"products must be a list of (linear, quadratic) pairs, got {type(products).__name__}")
    out = []
    # the products share their validated factors and their common sub-diagrams (see _Engine): each value is
    # computed by the same operations as expect_product computes it alone
    # (numeric covariances: the shared values are dropped, and then rebuilt as needed, whenever a bound on their
    # size exceeds SHARED_MAX_BYTES, so large batches do not hold more memory than a few products do)
    shared: dict = {}
    caches = ({}, {}, {}, {})
    if not be.symbolic:
        mat_b, vec_b = 8.0 * be.B * be.n * be.n, 8.0 * be.B * be.n
    for t, prod in enumerate(products):
        if not isinstance(prod, (list, tuple)) or len(prod) != 2:
            raise ValueError(f"products[{t}] must be a (linear, quadratic) pair, got {prod!r}")
        with np.errstate(over="ignore", invalid="ignore"):
            val = _expect(be, *_prepare(be, prod[0], prod[1], where=f"products[{t}] ", shared=shared), caches)
        res = _finish(be, batched, val)
        out.append(res.copy() if isinstance(res, np.ndarray) else res)    # no two results share an array
        if not be.symbolic and ((len(shared) + len(caches[1])) * mat_b + len(caches[0]) * vec_b
                                + (len(caches[2]) + len(caches[3])) * 8.0 * be.B) > SHARED_MAX_BYTES:
            shared.clear()
            for c in caches:
                c.clear()
    return out


def expect_polynomial(cov, terms):
    r""":math:`\sum_t c_t\,E[\prod_k (a_{tk}^\top X)\prod_j (X^\top M_{tj} X)]`.

    ``terms`` is a list of ``(coef, linear_list, quadratic_list)``; ``coef`` a real number
    (or SymPy expression for a SymPy ``cov``). Same shapes and return types as
    :func:`expect_product`.

    >>> import numpy as np
    >>> e0 = np.array([1.0])
    >>> expect_polynomial(np.array([[1.0]]), [(1.0, [e0] * 4, []), (-3.0, [e0, e0], [])])  # E[X^4 - 3X^2]
    0.0
    """
    be, batched = _backend(cov)
    if not isinstance(terms, (list, tuple)):
        raise ValueError(f"terms must be a list of (coef, linear, quadratic) triples, got {type(terms).__name__}")
    total = be.zero()
    for t, term in enumerate(terms):
        if not isinstance(term, (list, tuple)) or len(term) != 3:
            raise ValueError(f"terms[{t}] must be a (coef, linear, quadratic) triple, got {term!r}")
        coef, linear, quadratic = term
        if be.symbolic:
            try:
                coef = sp.sympify(coef)
            except (sp.SympifyError, TypeError):
                raise ValueError(f"terms[{t}] coef must be a number or SymPy expression") from None
            if coef.has(*_BAD_SYMPY):
                raise ValueError(f"terms[{t}] coef must be finite, got {coef}")
        else:
            coef = check_real(f"terms[{t}] coef", coef)
        with np.errstate(over="ignore", invalid="ignore"):
            total = total + coef * _expect(be, *_prepare(be, linear, quadratic, where=f"terms[{t}] "))
    return _finish(be, batched, total)


# --------------------------------------------------------------------------- helpers
def quadratic_form_matrix(pairs, n, exact: bool = False):
    r"""Symmetric :math:`M` with :math:`X^\top M X = \sum_{(i,j)\in \text{pairs}} X_i X_j`.

    Off-diagonal pairs put 1/2 at ``(i, j)`` and ``(j, i)``; ``(i, i)`` puts 1 on the diagonal;
    repeated pairs add up. ``exact=True`` returns a SymPy Matrix with rational entries.
    Example: the lag-1 sum :math:`\sum_{i=0}^{n-2} X_i X_{i+1}`:

    >>> quadratic_form_matrix([(i, i + 1) for i in range(2)], 3)
    array([[0. , 0.5, 0. ],
           [0.5, 0. , 0.5],
           [0. , 0.5, 0. ]])
    """
    n = check_int("n", n, minimum=1)
    if isinstance(pairs, (str, bytes)) or not hasattr(pairs, "__iter__"):
        raise ValueError("pairs must be a sequence of (i, j) index pairs")
    M = sp.zeros(n, n) if exact else np.zeros((n, n))
    half = sp.Rational(1, 2) if exact else 0.5
    for k, pr in enumerate(pairs):
        try:
            i, j = pr
        except (TypeError, ValueError):
            raise ValueError(f"pairs[{k}] must be an (i, j) pair, got {pr!r}") from None
        i = check_int(f"pairs[{k}][0]", i, minimum=0, maximum=n - 1)
        j = check_int(f"pairs[{k}][1]", j, minimum=0, maximum=n - 1)
        if i == j:
            M[i, i] += 1
        else:
            M[i, j] += half
            M[j, i] += half
    return M


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
    if _is_sympy(cov):
        if cov.free_symbols:
            raise ValueError("cov must be numeric to sample from, got symbols "
                             f"{sorted(map(str, cov.free_symbols))}")
        cov = np.array(cov.evalf(), dtype=float)
    arr, batched = _check_numeric_cov("cov", cov)
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
