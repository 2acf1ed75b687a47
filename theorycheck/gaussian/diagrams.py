r"""The connected-diagram engine behind :func:`theorycheck.gaussian.expect_product` (one covariance, one set of
linear and quadratic factors, numeric or SymPy through :mod:`theorycheck.gaussian.backends`).

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

>>> import numpy as np
>>> from theorycheck.gaussian.backends import backend_for
>>> be, _ = backend_for(np.eye(2))
>>> P = [be.sigma_times(be.mat("M", np.eye(2)))] * 2             # two factors X'X, keys name equal factors
>>> DiagramEngine(be, [], P, [], ["M", "M"]).moment(0, 0b11).tolist()   # E[|X|^4] = tr^2 + 2 tr(P^2) = 8
[8.0]
"""
from __future__ import annotations

__all__ = ["DiagramEngine"]


class DiagramEngine:
    """Diagram evaluation for one covariance and one set of factors (shared caches).

    The caches are keyed by the *ordered* factors a value depends on — ``lkeys[a]`` / ``qkeys[j]`` name factor a / j
    (``_prepare`` in :mod:`theorycheck.gaussian.expectations`) and a mask stands for the tuple of the keys of its bits in increasing order — because
    every recursion below depends only on those ordered factors (the submasks of a mask are visited in the same
    relative order under any order-preserving relabelling of its bits). Engines of several products on one
    covariance can therefore share ``caches`` (four dicts) when equal keys name equal factors
    (:func:`theorycheck.gaussian.expect_products`): a sub-diagram common to several products is evaluated once, by the same operations
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
