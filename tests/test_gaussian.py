"""Tests of theorycheck.gaussian against independent oracles.

Oracles: a naive permutation-sum hafnian written here (no use of the module's recursion),
``thewalrus.hafnian`` (numeric) and ``thewalrus.reference.hafnian`` (SymPy), textbook closed
forms, expansion of products of linear/quadratic forms by multilinearity into coordinate
moments, and seeded Monte Carlo (z-test via theorycheck.montecarlo.compare, alpha = 1e-3).
"""
from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from theorycheck import montecarlo
from theorycheck.gaussian.isserlis import evaluate_plan, evaluate_plan_scalar, isserlis_plan
from theorycheck.gaussian import (expect_polynomial, expect_product, expect_products, moment,
                                  pairings, quadratic_form_matrix, sample)



def tw_hafnian(A):
    """thewalrus' numeric hafnian (an independent oracle; a test extra). Only the tests that use it are
    skipped when it is missing — never the whole module."""
    return pytest.importorskip("thewalrus").hafnian(A)


def tw_reference_hafnian(A):
    pytest.importorskip("thewalrus")
    from thewalrus.reference import hafnian
    return hafnian(A)


def _double_factorial(k: int) -> int:
    return math.prod(range(k, 0, -2)) if k > 0 else 1


def _random_cov(rng, n, rank=None):
    rank = n if rank is None else rank
    A = rng.standard_normal((n, rank))
    return A @ A.T + (0.1 * np.eye(n) if rank == n else 0.0)


def _naive_moment(cov, idx):
    """Hafnian by brute force over all orderings: haf(A) = 1/(2^k k!) sum_perm prod A[p0,p1]..."""
    m = len(idx)
    if m % 2:
        return 0
    if m == 0:
        return 1
    k = m // 2
    total = 0
    for perm in itertools.permutations(range(m)):
        term = 1
        for t in range(k):
            term = term * cov[idx[perm[2 * t]], idx[perm[2 * t + 1]]]
        total = total + term
    return total / (2 ** k * math.factorial(k)) if not isinstance(total, sp.Basic) \
        else sp.expand(total / (2 ** k * math.factorial(k)))


def _expand_product(cov, linear, quadratic):
    """E[prod (a^T X) prod (X^T M X)] by multilinearity: sum of coefficient * moment(idx)."""
    n = len(cov) if not isinstance(cov, sp.MatrixBase) else cov.rows
    choices = [[((i,), a[i]) for i in range(n) if a[i] != 0] for a in linear]
    choices += [[((i, k), M[i, k]) for i in range(n) for k in range(n) if M[i, k] != 0]
                for M in quadratic]
    total = 0
    for combo in itertools.product(*choices):
        coef = 1
        idx = ()
        for ix, w in combo:
            coef = coef * w
            idx += ix
        total = total + coef * moment(cov, idx)
    return sp.expand(total) if isinstance(cov, sp.MatrixBase) else total


# ------------------------------------------------------------------------- pairings
@pytest.mark.parametrize("n", range(0, 12))
def test_pairings_count_disjoint_cover(n):
    ps = pairings(n)
    if n % 2:
        assert ps == []
        return
    assert len(ps) == _double_factorial(n - 1)
    assert len(set(ps)) == len(ps)
    for p in ps:
        assert len(p) == n // 2
        flat = [i for pr in p for i in pr]
        assert sorted(flat) == list(range(n))          # disjoint and covering
        assert all(i < j for i, j in p)


def test_pairings_small_explicit():
    assert pairings(0) == [()]
    assert pairings(2) == [((0, 1),)]
    assert pairings(4) == [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]


@pytest.mark.parametrize("bad", [-1, -5, 15, 2.5, "4", None, True])
def test_pairings_bad(bad):
    with pytest.raises(ValueError, match="n must be"):
        pairings(bad)


# ------------------------------------------------------------------------- moment
def test_moment_vs_naive_and_pairings_numeric():
    rng = np.random.default_rng(11)
    for _ in range(25):
        n = int(rng.integers(1, 6))
        S = _random_cov(rng, n)
        m = int(rng.choice([2, 4, 6, 8]))
        idx = tuple(int(i) for i in rng.integers(0, n, size=m))
        got = moment(S, idx)
        assert isinstance(got, float)
        naive = _naive_moment(S, idx)
        via_pairings = sum(math.prod(S[idx[i], idx[j]] for i, j in p) for p in pairings(m))
        assert got == pytest.approx(naive, rel=1e-10, abs=1e-10)
        assert got == pytest.approx(via_pairings, rel=1e-10, abs=1e-10)


def test_moment_vs_thewalrus_hafnian():
    rng = np.random.default_rng(12)
    for _ in range(30):
        n = int(rng.integers(1, 8))
        S = _random_cov(rng, n)
        m = int(rng.choice([2, 4, 6, 8, 10, 12]))
        idx = list(int(i) for i in rng.integers(0, n, size=m))
        ref = tw_hafnian(S[np.ix_(idx, idx)])
        assert moment(S, idx) == pytest.approx(float(np.real(ref)), rel=1e-9, abs=1e-9)


def test_moment_length12_distinct():
    rng = np.random.default_rng(13)
    S = _random_cov(rng, 12)
    assert moment(S, range(12)) == pytest.approx(float(np.real(tw_hafnian(S))), rel=1e-9)


def test_moment_symbolic_vs_thewalrus_reference():
    syms = sp.symbols("s0:10")
    S = sp.Matrix(4, 4, lambda i, j: syms[min(i, j) * 4 - min(i, j) * (min(i, j) - 1) // 2 + abs(i - j)])
    assert S == S.T
    for idx in [(0, 1, 2, 3), (0, 0, 1, 2), (0, 1, 1, 2, 3, 3), (2, 2, 2, 2)]:
        sub = S.extract(list(idx), list(idx))
        ref = sp.expand(tw_reference_hafnian(sub))
        assert sp.expand(moment(S, idx) - ref) == 0
        assert sp.expand(moment(S, idx) - _naive_moment(S, idx)) == 0


def test_moment_closed_forms():
    s = sp.Symbol("sigma", positive=True)
    one = sp.Matrix([[s ** 2]])
    assert moment(one, [0] * 4) == 3 * s ** 4
    assert moment(one, [0] * 6) == 15 * s ** 6
    assert moment(one, [0] * 12) == _double_factorial(11) * s ** 12
    s11, s12, s22 = sp.symbols("sigma11 sigma12 sigma22")
    S = sp.Matrix([[s11, s12], [s12, s22]])
    assert sp.expand(moment(S, [0, 0, 1, 1]) - (s11 * s22 + 2 * s12 ** 2)) == 0
    assert sp.expand(moment(S, [0, 0, 0, 1]) - 3 * s11 * s12) == 0
    assert moment(np.array([[2.0]]), [0] * 6) == pytest.approx(15 * 8.0)


def test_odd_and_empty_moments_exact():
    s = sp.Symbol("s")
    S = sp.Matrix([[s, 0], [0, 1]])
    z = moment(S, [0, 1, 1])
    assert z == 0 and isinstance(z, sp.Integer)
    e = moment(S, [])
    assert e == 1 and isinstance(e, sp.Integer)
    x = moment(np.eye(2), [0, 0, 0])
    assert x == 0.0 and isinstance(x, float)
    assert moment(np.eye(2), []) == 1.0
    assert np.array_equal(moment(np.stack([np.eye(2)] * 3), [1]), np.zeros(3))
    assert np.array_equal(moment(np.stack([np.eye(2)] * 3), ()), np.ones(3))


def test_moment_exact_rational():
    S = sp.Matrix([[2, sp.Rational(1, 2)], [sp.Rational(1, 2), 1]])
    assert moment(S, [0, 0, 1, 1]) == 2 + 2 * sp.Rational(1, 4)


def test_moment_batch_equals_loop():
    rng = np.random.default_rng(14)
    covs = np.stack([_random_cov(rng, 4) for _ in range(7)])
    for idx in [(0, 1), (0, 0, 1, 2, 3, 3), (1, 1, 1, 1, 2, 2, 0, 3)]:
        got = moment(covs, idx)
        assert got.shape == (7,)
        np.testing.assert_allclose(got, [moment(c, idx) for c in covs], rtol=1e-12)


def test_moment_symbolic_matches_numeric_substitution():
    a, b, c = sp.symbols("a b c")
    S = sp.Matrix([[a, c], [c, b]])
    vals = {a: 2.0, b: 1.5, c: -0.7}
    num = np.array(S.subs(vals), dtype=float)
    for idx in [(0, 0, 1, 1, 1, 1), (0, 1, 0, 1, 0, 1, 1, 1)]:
        assert float(moment(S, idx).subs(vals)) == pytest.approx(moment(num, idx), rel=1e-12)


# ------------------------------------------------------------------------- expect_product
def _rand_factors(rng, n, nl, nq, integer=False):
    if integer:
        lin = [rng.integers(-2, 3, size=n).astype(float) for _ in range(nl)]
        quad = [rng.integers(-2, 3, size=(n, n)).astype(float) for _ in range(nq)]
    else:
        lin = [rng.standard_normal(n) for _ in range(nl)]
        quad = [rng.standard_normal((n, n)) for _ in range(nq)]     # not symmetric on purpose
    return lin, quad


@pytest.mark.parametrize("n,nl,nq", [(3, 0, 1), (3, 0, 2), (3, 0, 3), (3, 2, 0), (3, 2, 1),
                                     (3, 2, 2), (3, 2, 3), (4, 2, 2), (4, 0, 3), (5, 2, 1),
                                     (5, 0, 2), (3, 1, 2), (4, 3, 1), (4, 4, 0), (3, 4, 1)])
def test_expect_product_vs_moment_expansion(n, nl, nq):
    rng = np.random.default_rng(100 * n + 10 * nl + nq)
    S = _random_cov(rng, n)
    lin, quad = _rand_factors(rng, n, nl, nq)
    got = expect_product(S, lin, quad)
    ref = _expand_product(S, lin, quad)
    assert got == pytest.approx(ref, rel=1e-9, abs=1e-9)
    if nl % 2:
        assert got == 0.0


def test_expect_product_symbolic_vs_expansion():
    a, b, c = sp.symbols("a b c")
    S = sp.Matrix([[a, c], [c, b]])
    rng = np.random.default_rng(21)
    for nl, nq in [(0, 1), (0, 2), (2, 0), (2, 1), (2, 2), (0, 3)]:
        lin_f, quad_f = _rand_factors(rng, 2, nl, nq, integer=True)
        lin = [sp.Matrix([int(v) for v in x]) for x in lin_f]
        quad = [sp.Matrix(2, 2, [int(v) for v in M.ravel()]) for M in quad_f]
        got = expect_product(S, lin, quad)
        ref = _expand_product(S, lin, quad)
        assert sp.expand(got - ref) == 0, (nl, nq)
        # and the float path agrees after substitution
        vals = {a: 1.3, b: 0.8, c: 0.4}
        num = expect_product(np.array(S.subs(vals), dtype=float), lin_f, quad_f)
        assert float(got.subs(vals)) == pytest.approx(num, rel=1e-10, abs=1e-10)


def test_expect_product_symbolic_entries_in_factors():
    u, v, s = sp.symbols("u v s")
    S = sp.Matrix([[s]])
    # E[(uX)(vX)(X^2)] = 3 u v s^2
    assert sp.expand(expect_product(S, [[u], [v]], [sp.Matrix([[1]])]) - 3 * u * v * s ** 2) == 0
    # cumulants of a chi-square-like form: E[Q^3] for Q = X^2 (X ~ N(0, s)) = 15 s^3
    assert expect_product(S, [], [sp.Matrix([[1]])] * 3) == 15 * s ** 3


def test_expect_product_cumulant_closed_forms():
    """κ_r(XᵀMX) = 2^{r-1}(r-1)! tr((ΣM)^r): check E[Q^2], E[Q^3] against cumulant sums."""
    rng = np.random.default_rng(22)
    S = _random_cov(rng, 4)
    M = rng.standard_normal((4, 4))
    Ms = (M + M.T) / 2
    P = S @ Ms
    k1, k2, k3 = np.trace(P), 2 * np.trace(P @ P), 8 * np.trace(P @ P @ P)
    assert expect_product(S, [], [M, M]) == pytest.approx(k2 + k1 ** 2, rel=1e-12)
    assert expect_product(S, [], [M, M, M]) == pytest.approx(k3 + 3 * k2 * k1 + k1 ** 3, rel=1e-12)


def test_lds_shaped_moments_vs_moment_sum():
    """E[y_a y_b Σ y_i y_{i+1}] and E[y_a^2 (Σ y_i y_{i+1})^2] vs explicit sums of 6th moments."""
    rng = np.random.default_rng(23)
    T = 7
    rho = 0.6
    lag = np.abs(np.subtract.outer(np.arange(T), np.arange(T)))
    S = rho ** lag / (1 - rho ** 2) + 0.05 * np.eye(T)
    pairs = [(i, i + 1) for i in range(T - 2)]          # Σ_{i=1}^{T-2} y_i y_{i+1} (1-based)
    M = quadratic_form_matrix(pairs, T)
    e = np.eye(T)
    a, b = T - 2, T - 1
    ref1 = sum(moment(S, (a, b, i, j)) for i, j in pairs)
    ref2 = sum(moment(S, (a, a, i, j, k, l)) for i, j in pairs for k, l in pairs)
    assert expect_product(S, [e[a], e[b]], [M]) == pytest.approx(ref1, rel=1e-11)
    assert expect_product(S, [e[a], e[a]], [M, M]) == pytest.approx(ref2, rel=1e-11)
    # batch of covariances, vectors given per batch element
    covs = np.stack([S, 2 * S, S + np.eye(T)])
    got = expect_product(covs, [np.stack([e[a]] * 3), e[a]], [M, np.stack([M] * 3)])
    np.testing.assert_allclose(got, [expect_product(c, [e[a], e[a]], [M, M]) for c in covs],
                               rtol=1e-12)
    del rng


def test_expect_product_batch_equals_loop():
    rng = np.random.default_rng(24)
    B, n = 5, 4
    covs = np.stack([_random_cov(rng, n) for _ in range(B)])
    A = rng.standard_normal((B, n))
    b = rng.standard_normal(n)
    Ms = rng.standard_normal((B, n, n))
    M = rng.standard_normal((n, n))
    got = expect_product(covs, [A, b], [Ms, M])
    assert got.shape == (B,)
    loop = [expect_product(covs[k], [A[k], b], [Ms[k], M]) for k in range(B)]
    np.testing.assert_allclose(got, loop, rtol=1e-12)


def test_expect_product_empty_and_odd():
    assert expect_product(np.eye(2)) == 1.0
    assert expect_product(np.eye(2), [np.ones(2)], [np.eye(2)]) == 0.0
    assert expect_product(sp.eye(2), [[1, 0]]) == 0 and \
        isinstance(expect_product(sp.eye(2), [[1, 0]]), sp.Integer)
    assert np.array_equal(expect_product(np.stack([np.eye(2)] * 2)), np.ones(2))


def test_expect_polynomial():
    rng = np.random.default_rng(25)
    S = _random_cov(rng, 3)
    (a, b), (M, N) = _rand_factors(rng, 3, 2, 2)
    terms = [(2.0, [a, b], [M]), (-0.5, [], [M, N]), (3.0, [a], []), (1.5, [], [])]
    ref = (2.0 * expect_product(S, [a, b], [M]) - 0.5 * expect_product(S, [], [M, N]) + 1.5)
    assert expect_polynomial(S, terms) == pytest.approx(ref, rel=1e-12)
    x = sp.Symbol("x")
    got = expect_polynomial(sp.Matrix([[x]]), [(1, [[1]] * 4, []), (-3 * x, [[1], [1]], [])])
    assert got == 0            # E[X^4] - 3 s E[X^2] = 0


def test_quadratic_form_matrix():
    rng = np.random.default_rng(26)
    pairs = [(0, 1), (1, 2), (2, 2), (3, 0), (1, 2)]
    M = quadratic_form_matrix(pairs, 4)
    assert np.array_equal(M, M.T)
    for _ in range(5):
        x = rng.standard_normal(4)
        assert x @ M @ x == pytest.approx(sum(x[i] * x[j] for i, j in pairs), rel=1e-12)
    Me = quadratic_form_matrix(pairs, 4, exact=True)
    assert isinstance(Me, sp.MatrixBase) and Me[0, 1] == sp.Rational(1, 2) and Me[1, 2] == 1
    with pytest.raises(ValueError, match="pairs"):
        quadratic_form_matrix([(0, 4)], 4)
    with pytest.raises(ValueError, match="n must be"):
        quadratic_form_matrix([], 0)


# ------------------------------------------------------------------------- Monte Carlo
MC_N = 400_000


@pytest.mark.parametrize("case", ["chain2", "cycle3", "lin4", "mixed"])
def test_expect_product_vs_monte_carlo(case):
    """Seeded z-test at alpha = 1e-3 with n = 400 000 samples (batches of 50 000)."""
    rng = np.random.default_rng(31)
    n = 4
    S = _random_cov(rng, n) / 2
    a, b = rng.standard_normal(n), rng.standard_normal(n)
    M1, M2, M3 = (rng.standard_normal((n, n)) for _ in range(3))
    lin, quad = {"chain2": ([a, b], [M1, M2]), "cycle3": ([], [M1, M2, M3]),
                 "lin4": ([a, b, a, b], []), "mixed": ([a, a], [M1])}[case]
    exact = expect_product(S, lin, quad)

    def sampler(g, size):
        x = sample(S, size, g)
        out = np.ones(size)
        for v in lin:
            out *= x @ v
        for M in quad:
            out *= np.einsum("si,ij,sj->s", x, M, x)
        return out

    est = montecarlo.mean(sampler, n=MC_N, seed=2024, batch=50_000, progress=False)
    cmp = montecarlo.compare(exact, est, alpha=1e-3)
    assert est.n == MC_N
    assert cmp.verdict == "agree", cmp.as_dict()


def test_sample_covariance_and_determinism():
    rng = np.random.default_rng(32)
    S = _random_cov(rng, 3)
    x = sample(S, 200_000, 5)
    assert x.shape == (200_000, 3)
    assert np.array_equal(x, sample(S, 200_000, np.random.default_rng(5)))
    # z-test of each covariance entry
    for i, j in [(0, 0), (0, 1), (1, 2), (2, 2)]:
        est = montecarlo.from_samples(x[:, i] * x[:, j])
        assert montecarlo.compare(S[i, j], est, alpha=1e-3).agrees
    # singular PSD: eigh fallback reproduces the covariance exactly in distribution
    v = np.array([1.0, 2.0, -1.0])
    sing = np.outer(v, v)
    y = sample(sing, 1000, 1)
    assert np.allclose(np.cross(y, v[None, :]), 0.0, atol=1e-8)   # all draws on span(v)
    batch = sample(np.stack([S, sing]), 10, 2)
    assert batch.shape == (10, 2, 3)


# ------------------------------------------------------------------------- bad input
SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])

finite = st.floats(-5, 5, allow_nan=False, allow_infinity=False)


@SETTINGS
@given(n=st.integers(1, 4), m=st.integers(1, 4), data=st.data())
def test_bad_nonsquare(n, m, data):
    if n == m:
        m += 1
    arr = np.array(data.draw(st.lists(finite, min_size=n * m, max_size=n * m))).reshape(n, m)
    for call in (lambda: moment(arr, [0, 0]), lambda: expect_product(arr, [], []),
                 lambda: sample(arr, 3, 0)):
        with pytest.raises(ValueError, match="cov must be square"):
            call()
    with pytest.raises(ValueError, match="cov must be square"):
        moment(sp.Matrix(arr.tolist()), [0, 0])


@SETTINGS
@given(n=st.integers(2, 4), data=st.data(), eps=st.floats(1e-3, 10))
def test_bad_nonsymmetric(n, data, eps):
    A = np.array(data.draw(st.lists(finite, min_size=n * n, max_size=n * n))).reshape(n, n)
    S = A @ A.T + np.eye(n)
    S[0, 1] += eps
    with pytest.raises(ValueError, match="symmetric"):
        moment(S, [0, 1])
    with pytest.raises(ValueError, match="symmetric"):
        expect_product(np.stack([S, S]), [np.ones(n)] * 2)
    with pytest.raises(ValueError, match="symmetric"):
        moment(sp.Matrix(n, n, lambda i, j: sp.Symbol(f"s{i}{j}")), [0, 1])


@SETTINGS
@given(n=st.integers(1, 4), neg=st.floats(1e-3, 100), data=st.data())
def test_bad_not_psd(n, neg, data):
    d = np.array(data.draw(st.lists(st.floats(0, 5), min_size=n, max_size=n)))
    d[0] = -neg
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    S = (Q * d) @ Q.T
    S = (S + S.T) / 2
    for call in (lambda: moment(S, [0, 0]), lambda: expect_product(S, [], [np.eye(n)]),
                 lambda: sample(S, 2, 0), lambda: moment(np.stack([np.eye(n), S]), [0, 0])):
        with pytest.raises(ValueError, match="positive semi-definite"):
            call()
    with pytest.raises(ValueError, match="positive semi-definite"):
        moment(sp.Matrix(np.round(S, 6).tolist()).applyfunc(sp.nsimplify), [0, 0])


@SETTINGS
@given(n=st.integers(1, 4), bad=st.sampled_from([np.nan, np.inf, -np.inf]),
       i=st.integers(0, 3), j=st.integers(0, 3))
def test_bad_nonfinite(n, bad, i, j):
    S = np.eye(n)
    S[i % n, j % n] = bad
    S[j % n, i % n] = bad
    with pytest.raises(ValueError, match="finite"):
        moment(S, [0, 0])
    with pytest.raises(ValueError, match="finite"):
        expect_product(S, [np.ones(n)] * 2)
    with pytest.raises(ValueError, match="finite"):
        expect_product(np.eye(n), [np.full(n, bad), np.ones(n)])
    with pytest.raises(ValueError, match="finite"):
        expect_product(np.eye(n), [], [np.full((n, n), bad)])
    with pytest.raises(ValueError, match="finite"):
        moment(sp.Matrix(n, n, lambda a, b: sp.nan if (a, b) == (0, 0) else int(a == b)), [0, 0])


@SETTINGS
@given(n=st.integers(1, 5), idx=st.lists(st.integers(-10, 10), min_size=1, max_size=6))
def test_bad_index_range(n, idx):
    if all(0 <= i < n for i in idx):
        idx = idx + [n]
    with pytest.raises(ValueError, match=r"idx\[\d+\] must be an integer in \[0, "):
        moment(np.eye(n), idx)
    with pytest.raises(ValueError, match=r"idx\[\d+\]"):
        moment(sp.eye(n), idx)


@SETTINGS
@given(bad=st.one_of(st.floats(0.1, 0.9).map(lambda x: x + 1), st.just("a"), st.none(),
                     st.just(float("nan")), st.just([0])))
def test_bad_index_type(bad):
    with pytest.raises(ValueError, match="idx"):
        moment(np.eye(3), [0, bad])


@pytest.mark.parametrize("bad", [None, 3, "01", 1.5])
def test_bad_idx_container(bad):
    with pytest.raises(ValueError, match="idx"):
        moment(np.eye(3), bad)


@SETTINGS
@given(n=st.one_of(st.integers(-1000, -1), st.integers(15, 10 ** 9)))
def test_bad_pairings_range(n):
    with pytest.raises(ValueError, match=r"n must be an integer in \[0, 14\]"):
        pairings(n)


@SETTINGS
@given(n=st.integers(2, 4), extra=st.integers(1, 2))
def test_bad_factor_shapes(n, extra):
    S = np.eye(n)
    with pytest.raises(ValueError, match=r"linear\[0\]"):
        expect_product(S, [np.ones(n + extra), np.ones(n)])
    with pytest.raises(ValueError, match=r"quadratic\[0\]"):
        expect_product(S, [], [np.ones((n, n + extra))])
    with pytest.raises(ValueError, match=r"linear\[1\]"):
        expect_product(np.stack([S] * 3), [np.ones(n), np.ones((3 + extra, n))])
    with pytest.raises(ValueError, match="linear must be a list"):
        expect_product(S, np.ones(n))
    with pytest.raises(ValueError, match=r"linear\[0\]"):
        expect_product(sp.eye(n), [[1] * (n + extra), [1] * n])
    with pytest.raises(ValueError, match="terms"):
        expect_polynomial(S, [(1.0, [])])
    with pytest.raises(ValueError, match="coef"):
        expect_polynomial(S, [(float("nan"), [], [])])


@pytest.mark.parametrize("kw", [dict(size=0, rng=0), dict(size=-1, rng=0), dict(size=3, rng=-1),
                                dict(size=3, rng=None), dict(size=3, rng="seed"),
                                dict(size=2.5, rng=0)])
def test_bad_sample_args(kw):
    with pytest.raises(ValueError, match="size|rng"):
        sample(np.eye(2), **kw)


def test_bad_sample_symbolic():
    with pytest.raises(ValueError, match="numeric"):
        sample(sp.Matrix([[sp.Symbol("s")]]), 3, 0)


@SETTINGS
@given(scale=st.floats(1e-300, 1e300), order=st.sampled_from([2, 4, 8, 12]))
def test_extreme_scale_never_nan(scale, order):
    """Huge or tiny finite covariances: a finite float or a clear ValueError, never NaN/inf."""
    S = scale * np.array([[1.0, 0.3], [0.3, 2.0]])
    for call in (lambda: moment(S, [0, 1] * (order // 2)),
                 lambda: expect_product(S, [np.ones(2)] * 2, [S] * (order // 4))):
        try:
            val = call()
        except ValueError as err:
            assert "overflowed" in str(err)
        else:
            assert math.isfinite(val)


def test_bad_idx_2d_array():
    with pytest.raises(ValueError, match="1-D"):
        moment(np.eye(2), np.zeros((2, 2), dtype=int))
    assert moment(np.eye(2), np.array([0, 0, 1, 1])) == 1.0


def test_expect_products_matches_single_calls():
    rng = np.random.default_rng(27)
    covs = np.stack([_random_cov(rng, 3) for _ in range(4)])
    (a, b), (M, N) = _rand_factors(rng, 3, 2, 2)
    prods = [([a, b], [M]), ([], [M, N]), ([a], [N]), ([], [])]
    got = expect_products(covs, prods)
    for g, (lin, quad) in zip(got, prods):
        np.testing.assert_allclose(g, expect_product(covs, lin, quad), rtol=1e-13)
    with pytest.raises(ValueError, match="products"):
        expect_products(covs, [([a],)])


def test_size_caps_refuse_instead_of_hanging():
    with pytest.raises(ValueError, match="too many distinct indices"):
        moment(np.eye(24), range(24))
    assert moment(np.eye(1), [0] * 40) == float(_double_factorial(39))   # repeats stay cheap
    with pytest.raises(ValueError, match="at most 14 factors"):
        expect_product(np.eye(2), [], [np.eye(2)] * 15)


def test_sympy_vectors_on_float_path():
    S = np.array([[2.0, 0.5], [0.5, 1.0]])
    col, row = sp.Matrix([1, 0]), sp.Matrix([[0, 1]])
    assert expect_product(S, [col, row]) == pytest.approx(0.5)
    with pytest.raises(ValueError, match=r"linear\[0\]"):
        expect_product(S, [sp.Matrix([sp.Symbol("u"), 0]), col])


def _recursion(sigma, counts):
    """The state-by-state Isserlis recursion on a ``(k, k)`` float covariance (the previous implementation of
    :func:`moment`, kept here as the bit-for-bit reference of the level-wise plan)."""
    k, memo = len(counts), {}

    def rec(c):
        if c in memo:
            return memo[c]
        p = next((i for i, x in enumerate(c) if x), None)
        if p is None:
            return 1
        c1 = list(c)
        c1[p] -= 1
        total = 0
        for q in range(p, k):
            if c1[q]:
                mult = c1[q]
                c1[q] -= 1
                total = total + mult * sigma[p][q] * rec(tuple(c1))
                c1[q] += 1
        memo[c] = total
        return total

    return rec(tuple(counts))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 4), min_size=1, max_size=6), st.integers(0, 2 ** 32 - 1))
def test_plan_is_bit_for_bit_the_recursion(counts, seed):
    """Both evaluations of the level-wise plan (vectorised over a batch, and state by state on Python floats)
    equal the state-by-state recursion bit for bit, including with negative covariances (cancellations)."""
    if sum(counts) % 2:
        counts = counts[:-1] + [counts[-1] + 1]
    rng = np.random.default_rng(seed)
    k = len(counts)
    a = rng.standard_normal((3, k, k + 1))
    sig = a @ a.transpose(0, 2, 1) / (k + 1)                    # PSD, generic signs off the diagonal
    plan = isserlis_plan(tuple(counts))
    batch = evaluate_plan(plan, sig)
    for b in range(3):
        ref = _recursion(sig[b].tolist(), counts)
        assert batch[b] == ref or (batch[b] == 0 and ref == 0)
        assert evaluate_plan_scalar(plan, sig[b].ravel().tolist()) == ref
