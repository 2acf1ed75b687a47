r"""The stationarity condition of the AR(s) attention (paper 001, Lemma 4.1): exact moments of the features
:math:`f_{klj}=G_{kl}q_j` and of the target, per system and over the prior, and batch Monte Carlo of second moments.

:func:`stationarity_moments` gives :math:`R_{klj}=E[G_{kl}q_jy_T]` (the right-hand side), the Gram matrix
:math:`E[ff^\top]` and :math:`E[y_T^2]` — exact over the prior for settings (a)–(c)
(:func:`~theorycheck.papers.lds.theory.isserlis.exact_component_average`), or averaged over sampled / given systems;
:func:`stationarity_rhs` gives R per system; :func:`autocovariance_batch_mc` checks the autocovariance K (the only
input of the Isserlis engine) against simulated second moments.

>>> from theorycheck.models.dynamics import DiagonalLDSPrior
>>> m = stationarity_moments(6, 1, DiagonalLDSPrior(1, 0.8, 1.0, 0.5, 0.5), gram=True)
>>> m["method"], m["R"].shape, m["gram"].shape
('exact-components', (1, 2, 2), (3, 3))
"""
from __future__ import annotations

import math
from collections import defaultdict

import numpy as np

from .... import gaussian
from ....models.dynamics import MAX_T, LDSBatch, check_prior, check_systems, lds_autocovariance
from ....memo import Memo, key
from ....montecarlo import rngs
from ....validate import MAX_COUNT, ParameterTypeError, check_bool, check_choice, check_int, check_memory
from .isserlis import check_autocovariances, exact_component_average, has_exact_route

__all__ = ["stationarity_moments", "stationarity_rhs", "autocovariance_batch_mc", "ROUTES", "REFERENCE_ROUTE"]


def _feature_forms(T: int, s: int):
    """Quadratic-form matrices of n G_kl (k <= l, 1-based) and the query / target indices."""
    n = T - s - 1
    feats = []
    mats = {}
    for k in range(1, s + 2):
        for l in range(k, s + 2):
            mats[(k, l)] = gaussian.quadratic_form_matrix([(i + k - 1, i + l - 1) for i in range(n)], T)
    for j in range(1, s + 1):
        for k in range(1, s + 2):
            for l in range(k, s + 2):
                feats.append((k, l, j))
    qidx = {j: T - s + j - 2 for j in range(1, s + 1)}        # 0-based index of q_j = y_{T-s+j-1}
    return n, feats, mats, qidx


class _SharedIsserlisForms:
    """Isserlis forms ``K -> expect_product(K, *product) / divisor`` (batched K) sharing their evaluation: the first
    form of a group called on a given K evaluates every product of its group on that K with one
    :func:`theorycheck.gaussian.expect_products` call (one PSD validation of K); the other forms of the group then
    read their value for the same K from a per-call table. Each value is computed exactly as ``expect_product``
    computes it alone.

    The table is an owned memo (:class:`theorycheck.memo.Memo`, bounded by ``max_bytes``, emptied by
    ``memo.clear_all``), keyed by value, never by object identity: a K is "the same" when its shape, strides, dtype
    and every bit of its entries are equal (same values and layout: same computation). A few sampled entries key a
    bucket of kept copies; a candidate is confirmed by comparing all bits (cheaper than a digest of every K at every
    form)."""

    def __init__(self, max_bytes: float = 256e6):
        self.products = defaultdict(list)       # group -> list of (linear, quadratic): the forms, registered once
        self._table = Memo(None, maxsize=1_000_000, maxbytes=int(max_bytes))   # probe -> [(copy of K, {group: values})]

    def clear(self):
        self._table.clear()

    def form(self, group, product, divisor):
        """The form computing ``expect_product(K, *product) / divisor`` through the group ``group``."""
        prods = self.products[group]
        prods.append(product)
        i = len(prods) - 1
        return lambda K: self._values(group, K)[i] / divisor

    def _values(self, group, K):
        K = np.asarray(K)
        probe = (K.item(0), K.item(K.size // 2), K.item(K.size - 1)) if K.size else ()
        k = key(K.shape, K.strides, K.dtype.str, repr(probe))
        bucket = self._table.get(k) or []
        entry = next((e for e in bucket if _same_bits(e[0], K)), None)
        if entry is None:
            entry = (np.array(K, copy=True), {})
            bucket.append(entry)
        values = entry[1]
        if group not in values:
            values[group] = gaussian.expect_products(K, self.products[group])
            self._table.put(k, bucket)          # (re)kept with its size: the bound counts copies and values
        return values[group]


def _same_bits(a, b) -> bool:
    """Every bit of the entries of ``a`` and ``b`` (equal shape and dtype) is equal."""
    if a.dtype.kind == "f" and a.dtype.itemsize in (2, 4, 8):
        ints = f"i{a.dtype.itemsize}"
        return bool((a.view(ints) == b.view(ints)).all())
    return a.tobytes() == b.tobytes()


def _moment_forms(T, s, n, feats, mats, qidx, gram, isserlis):
    """The Isserlis forms of R (degree 2), and with ``gram`` of the Gram matrix (degree 3) and of E y_T² (degree 1);
    every form of one degree is evaluated on a given K by one ``expect_products`` call (one PSD validation of K
    instead of one per form; the same per-form computation as ``expect_product``). Returns (forms, Gram pairs)."""
    e = np.eye(T)
    forms = []
    for (k, l, j) in feats:
        forms.append((2, isserlis.form(2, ([e[qidx[j]], e[T - 1]], [mats[(k, l)]]), n)))
    pairs = []
    if gram:
        for a in range(len(feats)):
            for b in range(a, len(feats)):
                (k, l, j), (k2, l2, j2) = feats[a], feats[b]
                pairs.append((a, b))
                forms.append((3, isserlis.form(3, ([e[qidx[j]], e[qidx[j2]]], [mats[(k, l)], mats[(k2, l2)]]),
                                               n ** 2)))
        forms.append((1, lambda K: K[:, T - 1, T - 1]))
    return forms, pairs


def _sampled_average(T, prior, forms, isserlis, n_systems, seed, antithetic, systems):
    """Rao-Blackwellised average of the forms over sampled systems (or the given ``systems``), antithetic pairs as
    one unit: (values, standard errors, number of systems or pairs)."""
    if systems is not None:
        if not isinstance(systems, LDSBatch) or len(systems) < 2:
            raise ValueError("systems must be an LDSBatch of at least 2 systems")
        batches = [systems.subset(slice(i, i + 2000)) for i in range(0, len(systems), 2000)]
        n_systems = len(systems)
    else:
        n_systems = check_int("n_systems", n_systems, minimum=2, maximum=MAX_COUNT)
        batches = (prior.sample(g, min(2000, n_systems - 2000 * b))
                   for b, g in enumerate(rngs(check_int("seed", seed, minimum=0), math.ceil(n_systems / 2000))))
    samples = []
    for sysm in batches:
        vals_ = [np.stack([np.atleast_1d(F(K)) for _, F in forms], axis=1)
                 for K in [lds_autocovariance(sy, T) for sy in ((sysm, sysm.negate()) if antithetic else (sysm,))]]
        samples.append(vals_[0] if len(vals_) == 1 else 0.5 * (vals_[0] + vals_[1]))   # a pair is one unit
        isserlis.clear()                            # this batch's K are not used again
    S = np.concatenate(samples)
    return S.mean(0), S.std(0, ddof=1) / math.sqrt(S.shape[0]), n_systems


def _exact_route(T, prior, forms, isserlis, n_systems, seed, antithetic, systems):
    """Exact prior average (:func:`~.isserlis.exact_component_average`): (values, None, n_systems)."""
    return np.array(exact_component_average(T, prior, forms)), None, n_systems


#: The routes of :func:`stationarity_moments` by name: ``route(T, prior, forms, isserlis, n_systems, seed,
#: antithetic, systems) -> (values, standard errors or None, number of systems)``. The reference is the definition
#: itself, the Rao-Blackwellised average of exact per-system moments over sampled (or given) systems, valid for every
#: prior; the exact route is tested against it (``tests/test_lds.py``).
ROUTES = {"exact-components": _exact_route, "rao-blackwell": _sampled_average}
REFERENCE_ROUTE = "rao-blackwell"


def stationarity_moments(T: int, s: int, prior, gram: bool = False, method: str = "auto",
                         n_systems: int = 4000, seed: int = 0, antithetic: bool = False,
                         systems: LDSBatch | None = None) -> dict:
    r"""Exact moments of the features :math:`f_{klj}=G_{kl}q_j` (k ≤ l) of the attention output.

    ``R[j-1, k-1, l-1]`` :math:`=E[G_{kl}q_jy_T]` (the right-hand side of the stationarity
    condition; symmetric in k, l) and, with ``gram=True``, the Gram matrix
    :math:`E[f f^\top]` over the feature list ``features`` and :math:`E[y_T^2]`. Per system by
    Isserlis (:func:`theorycheck.gaussian.expect_product`); over the prior by
    :func:`~theorycheck.papers.lds.theory.isserlis.exact_component_average` (``method="exact-components"``) or a
    Rao-Blackwellised average over ``n_systems`` sampled systems (``"rao-blackwell"``, returns ``R_se`` too). With
    ``antithetic=True`` every sampled system A is paired with -A (``n_systems`` pairs): the average
    is then over a finite, exactly centrally symmetric family of systems, so every moment that is odd
    under :math:`y_t\mapsto(-1)^ty_t` vanishes to rounding in the average. ``systems`` (an
    :class:`LDSBatch`) averages over exactly those systems instead of sampling (Rao-Blackwell route).
    """
    T = check_int("T", T, minimum=4, maximum=200)
    s = check_int("s", s, minimum=1, maximum=T - 3)
    prior = check_prior(prior)
    gram = check_bool("gram", gram)
    check_choice("method", method, ("auto",) + tuple(ROUTES))
    antithetic = check_bool("antithetic", antithetic)
    n, feats, mats, qidx = _feature_forms(T, s)
    isserlis = _SharedIsserlisForms()
    forms, pairs = _moment_forms(T, s, n, feats, mats, qidx, gram, isserlis)
    if method == "auto":      # a given family of systems, or antithetic sampling, asks for the sampled average
        method = ("exact-components" if has_exact_route(prior) and systems is None and antithetic is False
                  else REFERENCE_ROUTE)
    vals, se, n_systems = ROUTES[method](T, prior, forms, isserlis, n_systems, seed, antithetic, systems)
    out = {"R": _rhs_array(s, feats, vals), "R_se": None if se is None else _rhs_array(s, feats, se),
           "features": feats, "method": method, "n": n,
           "n_systems": None if method == "exact-components" else (2 * n_systems if antithetic else n_systems)}
    if gram:
        Gm = np.zeros((len(feats), len(feats)))
        for idx, (a, b) in enumerate(pairs):
            Gm[a, b] = Gm[b, a] = vals[len(feats) + idx]
        out["gram"] = Gm
        out["b"] = vals[:len(feats)]
        out["Eyy"] = float(vals[-1])
    return out


def _rhs_array(s, feats, vals) -> np.ndarray:
    """The feature values ``vals`` placed as ``R[j-1, k-1, l-1]`` (symmetric in k, l)."""
    R = np.zeros((s, s + 1, s + 1))
    for idx, (k, l, j) in enumerate(feats):
        R[j - 1, k - 1, l - 1] = R[j - 1, l - 1, k - 1] = vals[idx]
    return R


def stationarity_rhs(K, s: int) -> np.ndarray:
    r"""Per-system :math:`R_{klj}=E[G_{kl}q_jy_T\mid\text{system}]` from the autocovariance ``K``
    (B, T, T) by Isserlis; returns (B, s, s+1, s+1) indexed ``[b, j-1, k-1, l-1]``."""
    K = check_autocovariances(K, 4)
    T = K.shape[-1]
    s = check_int("s", s, minimum=1, maximum=T - 3)
    n, feats, mats, qidx = _feature_forms(T, s)
    e = np.eye(T)
    R = np.zeros((K.shape[0], s, s + 1, s + 1))
    # one expect_products call: one PSD validation of K for all features (values as expect_product gives them)
    vals = gaussian.expect_products(K, [([e[qidx[j]], e[T - 1]], [mats[(k, l)]]) for (k, l, j) in feats])
    for (k, l, j), v in zip(feats, vals):
        val = np.atleast_1d(v) / n
        R[:, j - 1, k - 1, l - 1] = R[:, j - 1, l - 1, k - 1] = val
    return R


def autocovariance_batch_mc(systems: LDSBatch, T: int, entries, n_batches: int, per_batch: int, seed: int) -> dict:
    r"""Second moments :math:`E[y_iy_j]` (1-based ``entries``) of each system of ``systems``, exact
    (:func:`lds_autocovariance`) and by simulation: every batch simulates ``per_batch`` fresh trajectories of
    each system; per-batch, per-system averages for batch means. Returns ``{"exact": (n_systems·k,),
    "batch_values": (n_batches, n_systems·k)}`` in system-major order.

    >>> from theorycheck.models.dynamics import DiagonalLDSPrior
    >>> fam = DiagonalLDSPrior(2, 0.9, 1.0, 0.5, 0.3).sample(np.random.default_rng(0), 3)
    >>> r = autocovariance_batch_mc(fam, 6, [(5, 6), (6, 6)], 4, 100, 1)
    >>> r["batch_values"].shape, r["exact"].shape
    ((4, 6), (6,))
    """
    systems = check_systems(systems)
    T = check_int("T", T, minimum=1, maximum=MAX_T)
    n_batches = check_int("n_batches", n_batches, minimum=2, maximum=MAX_COUNT)
    per_batch = check_int("per_batch", per_batch, minimum=2, maximum=MAX_COUNT)
    check_memory("per_batch", per_batch, 8.0 * len(systems) * per_batch * (T + 3 * systems.d ** 2 + 2 * T * systems.d),
                 f"{per_batch} trajectories of each of {len(systems)} systems")
    if isinstance(entries, (str, bytes)) or not isinstance(entries, (list, tuple)) or not entries:
        raise ParameterTypeError(f"entries must be a non-empty list of 1-based (i, j) pairs, got {entries!r:.60}")
    ent = []
    for k, e in enumerate(entries):
        if not isinstance(e, (list, tuple)) or len(e) != 2:
            raise ParameterTypeError(f"entries[{k}] must be an (i, j) pair, got {e!r:.40}")
        ent.append((check_int(f"entries[{k}] row", e[0], minimum=1, maximum=T),
                    check_int(f"entries[{k}] column", e[1], minimum=1, maximum=T)))
    n = len(systems)
    K = lds_autocovariance(systems, T)
    rep = systems.subset(np.repeat(np.arange(n), per_batch))
    vals = []
    for g in rngs(check_int("seed", seed, minimum=0), n_batches):
        Y = rep.simulate(T, g).reshape(n, per_batch, T)
        vals.append([float(np.mean(Y[b, :, i - 1] * Y[b, :, j - 1])) for b in range(n) for i, j in ent])
    return {"exact": np.array([K[b, i - 1, j - 1] for b in range(n) for i, j in ent]), "batch_values": np.array(vals)}

