r"""Expectations of products of linear and quadratic forms of a centred Gaussian vector:
:func:`expect_product`, :func:`expect_products` (several, one validation, shared sub-diagrams) and
:func:`expect_polynomial` (a linear combination), all through :class:`theorycheck.gaussian.diagrams.DiagramEngine`.

Quadratic forms :math:`X^\top M X` only see the symmetric part :math:`M_s = (M + M^\top)/2`.

>>> import numpy as np
>>> round(expect_product(np.eye(2), [], [np.eye(2)]), 12)                       # E[|X|^2] = tr(Σ)
2.0
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from ..validate import check_real
from .backends import backend_for
from .covariance import BAD_SYMPY, check_finite_result
from .diagrams import DiagramEngine

__all__ = ["expect_product", "expect_products", "expect_polynomial", "MAX_FACTORS", "SHARED_MAX_BYTES"]


def _as_list(name, x):
    if isinstance(x, (list, tuple)):
        return list(x)
    raise ValueError(f"{name} must be a list or tuple (possibly empty), got {type(x).__name__}")


MAX_FACTORS = 14
#: bound on the memory of the factors and sub-diagrams that the products of one :func:`expect_products` call share
SHARED_MAX_BYTES = 2 ** 26


def _prepare(be, linear, quadratic, where="", shared=None):
    """Validated factors ``(lin, P, lkeys, qkeys)`` (``P[j]`` = Σ M_j) and their keys for :class:`DiagramEngine`: equal
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
    check_finite_result(val)
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
    be, batched = backend_for(cov)
    with np.errstate(over="ignore", invalid="ignore"):
        val = _expect(be, *_prepare(be, linear, quadratic))
    return _finish(be, batched, val)


def _expect(be, lin, P, lkeys, qkeys, caches=None):
    nl, nq = len(lin), len(P)
    if nl % 2:
        return be.zero()
    eng = DiagramEngine(be, lin, P, lkeys, qkeys, caches)
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
    be, batched = backend_for(cov)
    if not isinstance(products, (list, tuple)):
        raise ValueError(f"products must be a list of (linear, quadratic) pairs, got {type(products).__name__}")
    out = []
    # the products share their validated factors and their common sub-diagrams (see DiagramEngine): each value is
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
    be, batched = backend_for(cov)
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
            if coef.has(*BAD_SYMPY):
                raise ValueError(f"terms[{t}] coef must be finite, got {coef}")
        else:
            coef = check_real(f"terms[{t}] coef", coef)
        with np.errstate(over="ignore", invalid="ignore"):
            total = total + coef * _expect(be, *_prepare(be, linear, quadratic, where=f"terms[{t}] "))
    return _finish(be, batched, total)
