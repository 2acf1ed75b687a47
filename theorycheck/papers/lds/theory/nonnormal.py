r"""Setting (d) of paper 001, :math:`A=P^{-1}\mathrm{diag}(a)P`: the prior average of the Theorem 4.1 moments exact
over the eigenvalues and the noises, randomised quasi-Monte Carlo over the coupling matrix P (:func:`nonnormal_wqk`).

In the coordinates :math:`x'=Px` the state components are scalar AR(1) processes with eigenvalues :math:`a_k` and
noise covariance :math:`PP^\top`, read through :math:`g=P^{-\top}c`, so :math:`K=\sigma_v^2I+\sum_{k,l}C_{kl}
\Phi(a_k,a_l)` (:func:`_pair_autocov`). N and D are bilinear / trilinear in K (their symmetric forms on prepared
matrices: :func:`_N2`, :func:`_D3`); the expectation over the i.i.d. eigenvalues of each product of terms depends only
on the pattern of coinciding indices (:func:`_canon`), and these pattern integrals are exact Gauss–Legendre rules
(:func:`_nn_pattern_integrals`); the weights C of the coupling matrix (:func:`_coupling_weights`) are averaged by
scrambled Sobol points. Memos (:mod:`theorycheck.memo`, keyed by value): the index tables, Gauss–Legendre rules,
canonical patterns, pattern integrals and their index tensors.

One of each thing: :func:`_N2` and :func:`_D3` are the Isserlis forms of N and D written out (trace forms) for speed;
they are not generated code, so ``tests/test_lds_routes.py`` checks them against the generated reference
(``generated/lds_scalar.py``, the SymPy polynomials) and against the Isserlis engine
(:func:`~.isserlis.wqk_star_moments`), their multilinear polarisations included. The pair components
(:func:`_sym_pair`, :func:`_diag_pair`, :func:`_half_pair`) are checked against the definition :func:`_pair_autocov`
(doctests and tests), which is checked against :func:`theorycheck.models.dynamics.lds_autocovariance`.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view
from scipy.stats import norm, qmc
from threadpoolctl import threadpool_limits

from ....memo import memoize
from ....validate import check_memory
from .isserlis import lag1_matrix, wqk_ratio

__all__: list[str] = []


@memoize("lds.nonnormal.index_tables", maxsize=16)
def _index_tables(T):
    """0-based (min(s, t), |s − t|) as two (T, T) integer tables."""
    k = np.arange(T)
    return np.minimum.outer(k, k), np.abs(k[:, None] - k[None, :])


def _h_table(p, T, sigma0, sigma_w):
    r""":math:`h_s(p)=\sigma_0^2p^s+\sigma_w^2\sum_{r<s}p^r` for s = 1..T at every entry of p: (…, T), index
    s − 1."""
    p = np.asarray(p, float)
    h = np.empty(p.shape + (T,))
    cur = np.full(p.shape, sigma0 ** 2)
    for s in range(T):
        cur = p * cur + sigma_w ** 2
        h[..., s] = cur
    return h


def _pair_autocov(x, y, T, sigma0, sigma_w, diagonal: bool = False):
    r""":math:`\Phi(x_i, y_j)` for node vectors x (n,), y (m,): (n, m, T, T) (``diagonal``: x and y of equal length,
    :math:`\Phi(x_i, y_i)`, (n, T, T)) — the cross-covariance of two scalar AR(1) state components with eigenvalues
    x, y driven by the same unit-correlated noise: for 1-based s ≤ t, :math:`\Phi_{st}=y^{t-s}h_s(xy)`,
    :math:`h_s(p)=\sigma_0^2p^s+\sigma_w^2\sum_{r<s}p^r`; :math:`\Phi_{st}=x^{s-t}h_t(xy)` for s > t.

    >>> P = _pair_autocov(np.array([0.5]), np.array([-0.3]), 3, 1.0, 0.5)[0, 0]
    >>> bool(np.isclose(P[0, 2], (-0.3) ** 2 * (1.0 * -0.15 + 0.25)))
    True
    """
    x, y = np.asarray(x, float), np.asarray(y, float)
    if not diagonal:
        x, y = x[:, None], y[None, :]
    mn, ad = _index_tables(T)
    up = np.arange(T)[:, None] <= np.arange(T)[None, :]                 # s <= t
    px = x[..., None, None] ** np.where(up, 0, ad)                      # x^{(s-t)+}
    py = y[..., None, None] ** np.where(up, ad, 0)                      # y^{(t-s)+}
    return _h_table(x * y, T, sigma0, sigma_w)[..., mn] * px * py


def _powers(x, T):
    return np.asarray(x, float)[:, None] ** np.arange(T)


def _sym_pair(x, y, T, sigma0, sigma_w):
    r""":math:`S(x_i,y_j)=\Phi(x_i,y_j)+\Phi(y_j,x_i)` on the product grid, (n, m, T, T):
    :math:`S_{st}=h_{s\wedge t}(xy)\,(x^{|s-t|}+y^{|s-t|})` (symmetric in x, y and as a matrix).

    >>> x, y = np.array([0.5, -0.2]), np.array([0.7])
    >>> S = _sym_pair(x, y, 4, 1.0, 0.5); P = _pair_autocov(x, y, 4, 1.0, 0.5)
    >>> bool(np.allclose(S, P + P.swapaxes(-1, -2)))          # Φ(y, x) = Φ(x, y)ᵀ
    True
    """
    pk = np.add(_powers(x, T)[:, None], _powers(y, T)[None])                      # (n, m, T): x^k + y^k
    out = np.take(_h_table(np.multiply.outer(x, y), T, sigma0, sigma_w), _index_tables(T)[0].ravel(), axis=-1)
    out = out.reshape(pk.shape[:-1] + (T, T))                                      # h_{min(s,t)}(xy)
    out *= sliding_window_view(np.concatenate([pk[..., :0:-1], pk], -1), T, axis=-1)[..., ::-1, :]  # pk_{|s-t|}
    return out


def _diag_pair(x, T, sigma0, sigma_w):
    r""":math:`\Phi(x_i,x_i)=h_{s\wedge t}(x^2)\,x^{|s-t|}`, (n, T, T)."""
    mn, ad = _index_tables(T)
    return _h_table(np.asarray(x, float) ** 2, T, sigma0, sigma_w)[:, mn] * _powers(x, T)[:, ad]


def _half_pair(x, rule, T, sigma0, sigma_w):
    r""":math:`E_z S(x_i,z)` with z integrated by ``rule`` = (nodes, weights), (n, T, T): with
    :math:`A_m=E_z h_m(xz)`, :math:`B_{mk}=E_z h_m(xz)z^k`,
    :math:`E_zS_{st}=A_{s\wedge t}x^{|s-t|}+B_{s\wedge t,|s-t|}`.

    >>> x, z, wz = np.array([0.3, -0.8]), np.array([-0.5, 0.1, 0.6]), np.array([0.2, 0.5, 0.3])
    >>> avg = np.einsum("xzst,z->xst", _sym_pair(x, z, 5, 1.0, 0.5), wz)
    >>> bool(np.allclose(_half_pair(x, (z, wz), 5, 1.0, 0.5), avg))
    True
    """
    z, wz = rule
    mn, ad = _index_tables(T)
    h = _h_table(np.multiply.outer(x, z), T, sigma0, sigma_w)              # (n, nz, T)
    A = np.einsum("xzm,z->xm", h, wz)
    B = np.tensordot(h, wz[:, None] * _powers(z, T), axes=([1], [0]))     # (n, T, T): [x, m, k]
    return A[:, mn] * _powers(x, T)[:, ad] + B[:, mn, ad]


class _Prep:
    """The pieces of a (batch of) symmetric matrix X that the Isserlis forms of N and D use (broadcastable over the
    leading axes): XM, tr(XM), the columns τ and T (and M times them), X_ττ, X_τT; X itself is not kept."""

    def __init__(self, X, M, T):
        tau, last = T - 2, T - 1
        self.XM = X @ M
        self.tr = np.trace(self.XM, axis1=-2, axis2=-1)
        self.ct, self.cT = X[..., :, tau].copy(), X[..., :, last].copy()
        self.Mct, self.McT = self.ct @ M, self.cT @ M
        self.tt, self.tT = X[..., tau, tau].copy(), X[..., tau, last].copy()

    def placed(self, lead):
        """The same pieces with the leading axes reshaped to ``lead`` (views)."""
        out = object.__new__(_Prep)
        for k, v in vars(self).items():
            trail = 2 if k == "XM" else 1 if k in ("ct", "cT", "Mct", "McT") else 0
            setattr(out, k, v.reshape(tuple(lead) + v.shape[v.ndim - trail:]))
        return out


def _dot(u, v):
    return np.einsum("...i,...i->...", u, v)


def _trXMXM(a, b):
    return np.einsum("...ij,...ji->...", a.XM, b.XM)


def _xMbMx(a, b, c):
    return _dot(a.Mct, np.matmul(b.XM, c.ct[..., None])[..., 0])              # (Mk_a)ᵀ X_b M k_c


def _N2(a, b):
    """Symmetric bilinear form of N(K) = K_{τT} tr(KM) + 2 k_τᵀMk_T (τ = T − 1, 1-based) on prepared matrices."""
    return 0.5 * (a.tT * b.tr + b.tT * a.tr) + _dot(a.ct, b.McT) + _dot(b.ct, a.McT)


def _D3(a, b, c):
    """Symmetric trilinear form of D(K) = K_ττ[(tr KM)² + 2 tr(KMKM)] + 4 (k_τᵀMk_τ) tr(KM) + 8 k_τᵀMKMk_τ (Isserlis
    written out; valid for any symmetric, not necessarily PSD, matrices) on prepared matrices; a contraction shared
    by repeated arguments is computed once (a per-call table keyed by argument positions; an argument passed again
    counts as its first position)."""
    args = (a, b, c)
    first = (0, 0 if b is a else 1, 0 if c is a else 1 if c is b else 2)
    memo = {}

    def once(f, *idx):                   # f symmetric in its outer arguments; idx: the positions of its arguments
        key = (f, first[idx[1]] if f is _xMbMx else None, frozenset(first[i] for i in (idx[0], idx[-1])))
        if key not in memo:
            memo[key] = f(*(args[i] for i in idx))
        return memo[key]
    t1 = 2 * (a.tt * b.tr * c.tr + b.tt * a.tr * c.tr + c.tt * a.tr * b.tr)
    t2 = 4 * (a.tt * once(_trXMXM, 1, 2) + b.tt * once(_trXMXM, 0, 2) + c.tt * once(_trXMXM, 0, 1))
    t3 = 8 * (once(_dM, 0, 1) * c.tr + once(_dM, 0, 2) * b.tr + once(_dM, 1, 2) * a.tr)
    t4 = 16 * (once(_xMbMx, 0, 1, 2) + once(_xMbMx, 1, 0, 2) + once(_xMbMx, 0, 2, 1))
    return (t1 + t2 + t3 + t4) / 6


def _dM(a, b):
    """k_τ(a)ᵀ M k_τ(b)."""
    return _dot(a.ct, b.Mct)


def _canon(tup):
    """Canonical form of a tuple of terms (None = V, (k, l) = component pair) under relabelling of the components and
    permutation of the positions: the symmetric multilinear forms' expectation over i.i.d. eigenvalues depends on this
    pattern only (the least relabelled ordering, labels numbered by first appearance)."""
    return _canonical_pattern(tuple(sorted(tup, key=lambda t: (-1, -1) if t is None else t)))


@memoize("lds.nonnormal.canonical_patterns", maxsize=4096)
def _canonical_pattern(key):
    """:func:`_canon` of terms already sorted (memoised by value: one computation per multiset of terms)."""
    return min(_relabel(perm) for perm in set(itertools.permutations(key)))


def _relabel(terms):
    lab, out = {}, []
    for t in terms:
        if t is None:
            out.append((-1, -1))
        else:
            a, b = lab.setdefault(t[0], len(lab)), lab.setdefault(t[1], len(lab))
            out.append((a, b) if a <= b else (b, a))
    return tuple(out)


class _EigenLaw:
    """Gauss–Legendre on [lo, hi] (uniform eigenvalue law) exact for polynomials of the given degree; ``half=True``
    (a law symmetric about 0 only) keeps the nonnegative nodes with doubled weights (a node at 0 once): the same sum
    for every even integrand.

    >>> q = _EigenLaw(-0.9, 0.9); (x, w), (xh, wh) = q(8), q(8, half=True)
    >>> x.size, xh.size, bool(np.isclose(w @ x ** 8, wh @ xh ** 8)), bool(np.isclose(w @ x ** 8, 0.9 ** 8 / 9))
    (5, 3, True, True)
    """

    def __init__(self, lo, hi):
        self.lo, self.hi = lo, hi
        self.symmetric = lo == -hi

    def __call__(self, degree, half=False):
        x, w = _leggauss(int(degree) // 2 + 1)
        x, w = self.lo + (self.hi - self.lo) * (x + 1) / 2, w / 2
        if not half:
            return x, w
        n = x.size
        wh = 2 * w[n // 2:]
        if n % 2:
            wh[0] = w[n // 2]
        return x[n // 2:], wh


@memoize("lds.nonnormal.leggauss", maxsize=64)
def _leggauss(n):
    return np.polynomial.legendre.leggauss(n)


@memoize("lds.nonnormal.pattern_integrals", maxsize=8)
def _nn_pattern_integrals(T, prior_key):
    """I_π = E over i.i.d. eigenvalues of N̄ / D̄ of the pattern's position matrices (see :func:`nonnormal_wqk`), and
    the terms (None = V, (k, k), (k, l) for k < l).

    >>> I, terms = _nn_pattern_integrals(6, (-0.9, 0.9, 1.0, 0.5, 0.5, 2, "d")); len(I), terms
    (20, [None, (0, 0), (1, 1), (0, 1)])
    """
    lo, hi, sigma0, sigma_w, sigma_v, d, kind = prior_key
    q = _EigenLaw(lo, hi)
    xm, wm = q(T)                                        # one slot: degree <= T
    xd, wd = q(2 * T)                                    # (x, x) in one position: degree <= 2T
    const = {"V": sigma_v ** 2 * np.eye(T), "m_d": np.einsum("g,gst->st", wd, _diag_pair(xd, T, sigma0, sigma_w)),
             "m_o": np.einsum("g,gst->st", wm, _half_pair(xm, (xm, wm), T, sigma0, sigma_w))}
    ctx = {"q": q, "M": lag1_matrix(T), "T": T, "sigma0": sigma0, "sigma_w": sigma_w, "const": const, "preps": {}}
    terms = [None] + [(k, k) for k in range(d)] + [(k, l) for k in range(d) for l in range(k + 1, d)]
    out = {}
    for p in (2, 3):
        for pat in sorted({_canon(t) for t in itertools.combinations_with_replacement(terms, p)}):
            out[pat] = _pattern_value(pat, ctx, _N2 if p == 2 else _D3)
    return out, terms


def _links(pat):
    """The eigenvalue labels of a pattern shared by two or more positions (sorted) and every label's count."""
    pos, cnt = {}, {}
    for i, t in enumerate(pat):
        if t != (-1, -1):
            for x in t:
                pos.setdefault(x, set()).add(i)
                cnt[x] = cnt.get(x, 0) + 1
    return sorted(x for x in pos if len(pos[x]) >= 2), cnt


def _pattern_value(pat, c, form):
    """E over i.i.d. eigenvalues of ``form`` at the pattern's position matrices: Gauss–Legendre over the eigenvalues
    shared by two positions (exact: a label counted m times gives degree ≤ mT; each position built on its own grid
    axes, broadcast over the others), inner averages over the rest; the triangle (three shared eigenvalues) by
    contractions. The integrand is even under a ↦ −a jointly (every position matrix X ↦ DXD, D = diag((−1)^t), and
    N, D are invariant: central symmetry), so on a symmetric law the largest grid keeps its nonnegative half."""
    T, q = c["T"], c["q"]
    link, cnt = _links(pat)
    if len(link) == 3:                                    # the triangle (x, y), (y, z), (z, x)
        return _triangle(c, q(2 * T))
    rules = [(cnt[x] * T, False) for x in link]
    if link and q.symmetric:
        k = max(range(len(link)), key=lambda i: rules[i][0])
        rules[k] = (rules[k][0], True)
    W = np.ones(())
    for r in rules:
        W = np.multiply.outer(W, q(*r)[1])
    vals = form(*[_position(t, link, rules, c) for t in pat])
    return float(np.sum(W * np.broadcast_to(vals, W.shape)))


def _position(t, link, rules, c):
    """The prepared matrix of one pattern term, placed on the pattern's grid axes (built once per rule and cached
    across patterns): V = σ_v²I, Φ(x, x), S(x, y), or their averages over the eigenvalues no other position
    shares."""
    T, q, s0, sw = c["T"], c["q"], c["sigma0"], c["sigma_w"]
    ax = [] if t == (-1, -1) else sorted({link.index(v) for v in t if v in link})
    r = [rules[a] for a in ax]
    if t == (-1, -1) or not ax:
        key = ("V",) if t == (-1, -1) else ("m_d",) if t[0] == t[1] else ("m_o",)
    else:
        key = ("diag" if t[0] == t[1] else "S" if len(ax) == 2 else "half",) + tuple(r)
    if key not in c["preps"]:
        if len(key) == 1:
            X = c["const"][key[0]]
        elif key[0] == "diag":
            X = _diag_pair(q(*r[0])[0], T, s0, sw)
        elif key[0] == "S":
            X = _sym_pair(q(*r[0])[0], q(*r[1])[0], T, s0, sw)
        else:
            X = _half_pair(q(*r[0])[0], q(T), T, s0, sw)
        c["preps"][key] = _Prep(X, c["M"], T)
    lead = [1] * len(link)
    for a, n in zip(ax, c["preps"][key].XM.shape):
        lead[a] = n
    if (key, tuple(lead)) not in c["preps"]:           # one object per placement: repeated terms share contractions
        c["preps"][key, tuple(lead)] = c["preps"][key].placed(lead)
    return c["preps"][key, tuple(lead)]


def _triangle(c, grid):
    """I of D̄(S(x, y), S(y, z), S(z, x)) over i.i.d. x, y, z (S(a, b) = Φ(a, b) + Φ(b, a)): every term of the
    trilinear form is a contraction over the three node indices, done as matrix products (no triple loop)."""
    T, M = c["T"], c["M"]
    a, w = grid
    n, tau = a.size, T - 2
    S = _sym_pair(a, a, T, c["sigma0"], c["sigma_w"])     # S[x, y] = S[y, x], each a symmetric matrix
    SM = S @ M
    al = S[:, :, tau, tau]                                 # A_ττ
    be = np.trace(SM, axis1=2, axis2=3)                    # tr(SM)
    kv = S[:, :, :, tau]                                   # S e_τ
    Mk = kv @ M
    # the triangle is invariant under permutations of its three positions: every ordering of the trilinear form's
    # term gives the same sum, so D̄ = t(S_xy, S_yz, S_zx) summed once
    wa, wb = w[:, None] * al, w[:, None] * be
    t1 = float(np.einsum("xy,yz,zx->", wa, wb, wb))                          # Σ w w w A_ττ tr(BM) tr(CM)
    Q, F = np.zeros((n, n)), np.zeros((n, T, n))
    for z in range(n):                                    # matrix products over the node axes, no large copies
        Q += w[z] * (SM[:, z].reshape(n, -1) @ SM[:, z].swapaxes(1, 2).reshape(n, -1).T)
        F += S[:, z] @ (w[z] * Mk[z].T)
    t2 = float(np.sum(wa * Q * w[None, :]))               # Q[y, x] = Σ_z w_z tr(S(y,z)M S(z,x)M) (symmetric)
    R = (kv * w[None, :, None]).reshape(n, -1) @ Mk.transpose(0, 2, 1).reshape(-1, n)
    t3 = float(np.sum(R * wb.T * w[:, None]))             # R[x, z] = Σ_y w_y k(x,y)ᵀ M k(y,z)
    t4 = float(np.einsum("x,xyi,yix->", w, Mk * w[None, :, None], F))        # F[y,:,x] = Σ_z w_z S(y,z) M k(z,x)
    return float(t1 + 2 * t2 + 4 * t3 + 8 * t4)


def _coupling_uniforms(prior, n, seed, scramble_index):
    dim = prior.d * (prior.d - 1) // 2
    if dim == 0:                                          # d = 1: no coupling, P = 1
        return np.zeros((1, 0))
    m = max(1, int(math.ceil(math.log2(max(n, 2)))))
    return qmc.Sobol(dim, scramble=True, seed=np.random.default_rng([seed, scramble_index])).random_base2(m)


@memoize("lds.nonnormal.index_tensors", maxsize=8)
def _nn_index_tensors(T, key):
    """The pattern integrals arranged over ordered pairs / triples of terms: ``M2`` (nt, nt) and ``M3u`` (nt, npairs),
    the triples (a ≤ b, c) with the multiplicity of (a, b) folded in, so that Σ_abc M3_abc C_aC_bC_c =
    Σ_c Σ_{a≤b} M3u[c, (a, b)] C_aC_bC_c; ``pairs`` = the index arrays (a, b) of the unordered pairs."""
    I, terms = _nn_pattern_integrals(T, key)
    nt = len(terms)
    M2, M3 = np.zeros((nt, nt)), np.zeros((nt, nt, nt))
    for idx in itertools.combinations_with_replacement(range(nt), 2):
        M2[idx] = I[_canon(tuple(terms[i] for i in idx))]
    for idx in itertools.combinations_with_replacement(range(nt), 3):
        M3[idx] = I[_canon(tuple(terms[i] for i in idx))]
    o = np.sort(np.stack(np.meshgrid(*[np.arange(nt)] * 3, indexing="ij"), -1), -1)   # every ordered triple, sorted
    M3 = M3[o[..., 0], o[..., 1], o[..., 2]]                                              # symmetric
    M2 = M2 + np.triu(M2, 1).T
    ia, ib = np.triu_indices(nt)
    return M2, M3[ia, ib].T * np.where(ia == ib, 1.0, 2.0), (ia, ib), len(I)


def _coupling_weights(prior, U):
    """C_τ for the terms (V, (k, k), (k < l)) of K = V + Σ_kl C_kl Φ(a_k, a_l): C_kl = g_k g_l (PPᵀ)_kl with
    g = P⁻ᵀ c, c = 1, for P = I + κ·(strict upper triangle of the coupling entries); (n, 1 + d + d(d−1)/2).

    >>> from theorycheck.models.dynamics import NonNormalLDSPrior
    >>> _coupling_weights(NonNormalLDSPrior(3, 0.9, 1.0, 0.5, 0.5, coupling=0.0), np.full((1, 3), 0.3))  # P = I
    array([[1., 1., 1., 1., 0., 0., 0.]])
    """
    d, n = prior.d, U.shape[0]
    iu, k = np.triu_indices(d, 1), np.arange(d)
    P = np.zeros((d, d, n))                               # entry-major: every (k, l) a contiguous row over the points
    P[k, k] = 1.0
    P[iu] = prior.coupling * ((2 * U - 1) if prior.coupling_law == "uniform" else norm.ppf(U)).T
    g = np.ones((d, n))                                   # Pᵀg = 1 by forward substitution (P unit upper triangular)
    for j in range(1, d):
        g[j] -= np.einsum("in,in->n", P[:j, j], g[:j])
    C = g[:, None] * g[None, :] * np.einsum("kmn,lmn->kln", P, P)
    return np.concatenate([np.ones((1, n)), C[k, k], C[iu]]).T


def _one_blas_thread():
    """One BLAS thread inside a block (the toolkit's convention, see theorycheck/__init__.py, also when NumPy was
    imported first): reductions reproducible to the last digit, no oversubscribed threads on small products."""
    return threadpool_limits(1, user_api="blas")


def nonnormal_wqk(T, prior, n_coupling: int, replicates: int, seed: int) -> dict:
    r"""W* for setting (d), :math:`A=P^{-1}\mathrm{diag}(a)P`: in the coordinates :math:`x'=Px` the state
    components are scalar AR(1) processes with eigenvalues :math:`a_k` and noise covariance :math:`PP^\top`, read
    through :math:`g=P^{-\top}c`, so :math:`K=\sigma_v^2I+\sum_{k,l}C_{kl}\Phi(a_k,a_l)`,
    :math:`C_{kl}=g_kg_l(PP^\top)_{kl}` (:func:`_pair_autocov`). N and D are bilinear / trilinear in K: expanding
    over ordered pairs / triples of terms, the expectation over the i.i.d. eigenvalues of each product depends only
    on the pattern of coinciding indices; these pattern integrals are exact (Gauss–Legendre in the eigenvalues that
    link two terms — the largest rule of each pattern halved by the central symmetry —, inner averages for the
    others, matrix products for the triangle), and the average over the coupling matrix P of the products of the
    weights C is a randomised quasi-Monte Carlo integral (scrambled Sobol, ``replicates`` independent scramblings of
    ``n_coupling`` points) of a smooth polynomial. One BLAS thread (:func:`_one_blas_thread`). Returns the replicate
    values of W* (for a Student-t SE), the replicate moments N and D, the number of patterns and of points.

    >>> from theorycheck.models.dynamics import NonNormalLDSPrior
    >>> r = nonnormal_wqk(6, NonNormalLDSPrior(2, 0.9, 1.0, 0.5, 0.5), 64, 4, 0)
    >>> r["values"].shape, r["points"], r["patterns"]
    ((4,), 64, 20)
    """
    check_memory("T", T, 8.0 * 12 * (2 * T + 2) ** 2 * T * T, "the pattern integrals of the exact eigenvalue average")
    key = (-prior.a_max, prior.a_max, prior.sigma0, prior.sigma_w, prior.sigma_v, prior.d, "d")
    with _one_blas_thread():
        M2, M3u, (ia, ib), n_pat = _nn_index_tensors(T, key)
        U = np.concatenate([_coupling_uniforms(prior, n_coupling, seed, r) for r in range(replicates)])
        C_all = _coupling_weights(prior, U).reshape(replicates, -1, M2.shape[0])
        vals, Ns, Ds = [], [], []
        for Cw in C_all:                                  # Σ_ab E[C_a C_b] I_ab and Σ_abc E[C_a C_b C_c] I_abc
            Ns.append(float(np.mean(np.einsum("na,na->n", Cw @ M2, Cw))))
            Ds.append(float(np.sum(((Cw[:, ia] * Cw[:, ib]).T @ Cw) * M3u.T)) / Cw.shape[0])
            vals.append(wqk_ratio(T, Ns[-1], Ds[-1], "wqk_star"))
    return {"values": np.array(vals), "N": np.array(Ns), "D": np.array(Ds), "patterns": n_pat,
            "points": C_all.shape[1]}

