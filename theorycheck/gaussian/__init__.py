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
    (derivation in :mod:`theorycheck.gaussian.diagrams`); never enumerates pairings of coordinates.
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

Modules (one job each)
----------------------
* ``matchings`` — :func:`pairings`;
* ``covariance`` — validation of covariances, index tuples and float results;
* ``isserlis`` — :func:`moment`, the plain moments;
* ``backends`` — the numeric and SymPy linear algebra of the diagram engine;
* ``diagrams`` — the connected-diagram engine and the derivation of its formulas;
* ``expectations`` — :func:`expect_product`, :func:`expect_products`, :func:`expect_polynomial`;
* ``forms`` — :func:`quadratic_form_matrix`; ``sampling`` — :func:`sample` and :func:`psd_factor`.

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

from .expectations import MAX_FACTORS, SHARED_MAX_BYTES, expect_polynomial, expect_product, expect_products
from .forms import quadratic_form_matrix
from .isserlis import MOMENT_MAX_STATES, moment
from .matchings import PAIRINGS_MAX_N, pairings
from .sampling import psd_factor, sample

__all__ = ["pairings", "moment", "expect_product", "expect_products", "expect_polynomial",
           "quadratic_form_matrix", "sample"]
