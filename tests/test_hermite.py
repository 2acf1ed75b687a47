"""theorycheck.hermite: orthonormal probabilists' Hermite expansions under N(0,1).

Oracles: SymPy's hermite_prob, NumPy's Gauss–Hermite_e quadrature, closed forms
(characteristic function for sin/exp, half-line integrals for ReLU/|g|/sign), Parseval for
polynomials, Stein's identity, and the closed form E|g - c| = 2φ(c) + c(2Φ(c) - 1).
"""
import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings, strategies as st

from theorycheck.hermite import (find_kinks, gaussian_expectation, hermite_coefficients, hermite_h,
                                 stein_check)

g = sp.Symbol("g", real=True)


def test_hermite_h_matches_sympy_and_is_orthonormal():
    x, w = np.polynomial.hermite_e.hermegauss(60)
    w = w / math.sqrt(2 * math.pi)
    H = np.array([hermite_h(m, x) for m in range(12)])
    np.testing.assert_allclose((H * w) @ H.T, np.eye(12), atol=1e-11)
    for m in range(7):
        ref = sp.hermite_prob(m, g) / sp.sqrt(sp.factorial(m))
        assert sp.expand(hermite_h(m, g) - ref) == 0
        for t in (-1.3, 0.0, 0.7, 2.5):
            assert abs(hermite_h(m, t) - float(ref.subs(g, t))) < 1e-12
            assert abs(hermite_h(m, mpmath.mpf(t)) - float(ref.subs(g, t))) < 1e-12


def test_hermite_h_conventions():
    # h2 = (g^2-1)/sqrt 2 (probabilists'), NOT the physicists' H_2 = 4x^2 - 2
    assert sp.expand(hermite_h(2, g) - (g ** 2 - 1) / sp.sqrt(2)) == 0
    # mpmath's hermite is the physicists' H_m: He_m(x) = 2^{-m/2} H_m(x/sqrt 2)
    x = 0.83
    for m in range(6):
        he = float(mpmath.hermite(m, x / math.sqrt(2))) * 2 ** (-m / 2)
        assert abs(hermite_h(m, x) * math.sqrt(math.factorial(m)) - he) < 1e-12


@pytest.mark.parametrize("m_max", [6])
def test_closed_forms(m_max):
    # sin: E[sin(g) He_m] = Im E[e^{ig} He_m] = Im(i^m) e^{-1/2}
    a = hermite_coefficients(sp.sin(g), m_max)
    for m in range(m_max + 1):
        want = sp.im(sp.I ** m) * sp.exp(-sp.Rational(1, 2)) / sp.sqrt(sp.factorial(m))
        assert sp.simplify(a[m] - want) == 0
    # exp(g/2): a_m = t^m e^{t^2/2}/sqrt(m!)
    t = sp.Rational(1, 2)
    a = hermite_coefficients(sp.exp(t * g), 4)
    for m in range(5):
        assert sp.simplify(a[m] - t ** m * sp.exp(t ** 2 / 2) / sp.sqrt(sp.factorial(m))) == 0
    # ReLU, |g|, sign low orders
    assert hermite_coefficients(sp.Max(0, g), 2) == [1 / sp.sqrt(2 * sp.pi), sp.Rational(1, 2), 1 / (2 * sp.sqrt(sp.pi))] \
        or all(sp.simplify(u - v) == 0 for u, v in zip(hermite_coefficients(sp.Max(0, g), 2),
                                                         [1 / sp.sqrt(2 * sp.pi), sp.Rational(1, 2), 1 / (2 * sp.sqrt(sp.pi))]))
    a = hermite_coefficients(sp.Abs(g), 2)
    assert sp.simplify(a[0] - sp.sqrt(2 / sp.pi)) == 0 and a[1] == 0 and sp.simplify(a[2] - 1 / sp.sqrt(sp.pi)) == 0
    a = hermite_coefficients(sp.sign(g), 1)
    assert a[0] == 0 and sp.simplify(a[1] - sp.sqrt(2 / sp.pi)) == 0


def test_callable_matches_exact_and_tanh_known_value():
    ex = hermite_coefficients(sp.sin(g), 5)
    nu = hermite_coefficients(mpmath.sin, 5, dps=30)
    for a, b in zip(ex, nu):
        assert abs(float(sp.N(a, 30)) - float(b)) < 1e-25 or abs(sp.N(a, 35) - sp.Float(mpmath.nstr(b, 35), 35)) < 1e-25
    a1 = hermite_coefficients(mpmath.tanh, 1, dps=30)[1]
    # Stein: a1 = E[sech^2 g]
    e = gaussian_expectation(lambda x: mpmath.sech(x) ** 2, dps=30)
    assert abs(a1 - e) < mpmath.mpf(10) ** -25
    assert abs(float(a1) - 0.6057055096021588) < 1e-15      # seed: 0.605706


def test_kink_breakpoints_off_zero():
    c = 1.0
    assert find_kinks(sp.Abs(g - 1)) == [1.0]
    a0 = hermite_coefficients(lambda x: abs(x - 1), 0, dps=30, breakpoints=[1.0])[0]
    with mpmath.workdps(30):
        want = 2 * mpmath.npdf(c) + c * (2 * mpmath.ncdf(c) - 1)
        assert abs(a0 - want) < mpmath.mpf(10) ** -25
    a0s = hermite_coefficients(sp.Abs(g - 1), 0)[0]          # SymPy input, kink found automatically
    assert abs(mpmath.mpf(sp.N(a0s, 30)) - want) < 1e-14


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(min_value=-3, max_value=3), min_size=1, max_size=5))
def test_parseval_exact_for_polynomials(coeffs):
    f = sum(c * g ** k for k, c in enumerate(coeffs))
    deg = len(coeffs) - 1
    a = hermite_coefficients(sp.expand(f), deg + 2)
    assert all(x == 0 for x in a[deg + 1:])
    assert sp.simplify(sum(x ** 2 for x in a) - gaussian_expectation(sp.expand(f ** 2))) == 0


def test_stein():
    for f in (sp.tanh(g), sp.Abs(g), sp.Max(0, g), g ** 3):
        assert stein_check(f)["abs_diff"] < mpmath.mpf(10) ** -25
    assert stein_check(mpmath.sin)["abs_diff"] < mpmath.mpf(10) ** -25
    # jump: pointwise derivative misses 2 delta; the failure equals 2 phi(0)
    r = stein_check(sp.sign(g))
    with mpmath.workdps(30):
        assert abs(r["abs_diff"] - 2 / mpmath.sqrt(2 * mpmath.pi)) < 1e-25


def test_constants_and_gaussian_expectation():
    assert hermite_coefficients(sp.Integer(3), 2) == [3, 0, 0]
    assert sp.simplify(gaussian_expectation(sp.sin(g) ** 2) - (1 - sp.exp(-2)) / 2) == 0
    assert abs(float(hermite_coefficients(2.5, 1)[0]) - 2.5) < 1e-25


@pytest.mark.parametrize("bad, match", [
    (sp.exp(g ** 2), "square-integrable"),
    (lambda x: mpmath.exp(x ** 2), "square-integrable"),
    (lambda x: float("nan"), "square-integrable|finite"),
    ("sin", "SymPy expression, a real number or a callable"),
    (lambda x: "a", "real number"),
    (sp.Symbol("x") * sp.Symbol("y"), "one symbol"),
    (sp.I * g, "real"),
    (lambda x: 1 / 0, "could not be evaluated"),
])
def test_bad_f(bad, match):
    with pytest.raises(ValueError, match=match):
        hermite_coefficients(bad, 2)


@settings(max_examples=20, deadline=None)
@given(st.one_of(st.integers(max_value=-1), st.floats(allow_nan=True).filter(lambda v: not float(v).is_integer()
                                                                             if math.isfinite(v) else True),
                 st.text(max_size=3), st.none()))
def test_bad_m_max(m):
    with pytest.raises(ValueError, match="m_max"):
        hermite_coefficients(sp.sin(g), m)


def test_bad_other_args():
    with pytest.raises(ValueError, match="dps"):
        hermite_coefficients(sp.sin(g), 2, dps=5)
    with pytest.raises(ValueError, match="breakpoints"):
        hermite_coefficients(math.sin, 2, breakpoints=["a"])
    with pytest.raises(ValueError, match="m must"):
        hermite_h(-1, 0.3)
