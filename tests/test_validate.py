"""Unit tests of theorycheck.validate: every check returns the normalised value or raises a
ValueError naming the parameter and the allowed range."""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from theorycheck.validate import check_array, check_bool, check_choice, check_int, check_psd, check_real

FAST = settings(max_examples=60, deadline=2000, derandomize=True)


# ----------------------------------------------------------------------------- check_int
@pytest.mark.parametrize("value,expected", [(3, 3), (np.int64(4), 4), (5.0, 5), (np.float64(2.0), 2), (0, 0)])
def test_check_int_accepts_and_normalises(value, expected):
    out = check_int("n", value, minimum=0)
    assert out == expected and type(out) is int


@pytest.mark.parametrize("value", [2.5, "3", None, True, False, float("nan"), float("inf"), [1], 1 + 0j])
def test_check_int_rejects_non_integers(value):
    with pytest.raises(ValueError, match=r"^n must be an integer, got"):
        check_int("n", value)


def test_check_int_range_message():
    with pytest.raises(ValueError, match=r"^d must be an integer in \[1, inf\], got 0$"):
        check_int("d", 0, minimum=1)
    with pytest.raises(ValueError, match=r"^m must be an integer in \[-inf, 16\], got 17$"):
        check_int("m", 17, maximum=16)
    with pytest.raises(ValueError, match=r"^T must be an integer in \[3, 400\], got 401$"):
        check_int("T", 401, minimum=3, maximum=400)
    assert check_int("T", 400, minimum=3, maximum=400) == 400


@FAST
@given(v=st.integers(-10 ** 30, 10 ** 30), lo=st.integers(-100, 100), width=st.integers(0, 100))
def test_check_int_property(v, lo, width):
    hi = lo + width
    if lo <= v <= hi:
        assert check_int("x", v, lo, hi) == v
    else:
        with pytest.raises(ValueError, match=r"^x must be an integer in"):
            check_int("x", v, lo, hi)


# ----------------------------------------------------------------------------- check_real
def test_check_real_intervals_and_messages():
    assert check_real("lam", 1.0, 0.0, 1.0, low_open=True) == 1.0
    with pytest.raises(ValueError, match=r"^lam must be in \(0, 1\], got 0$"):
        check_real("lam", 0.0, 0.0, 1.0, low_open=True)
    with pytest.raises(ValueError, match=r"^x must be in \[0, 1\), got 1$"):
        check_real("x", 1.0, 0.0, 1.0, high_open=True)
    with pytest.raises(ValueError, match=r"^rho must be in \[0, inf\), got -0.5$"):
        check_real("rho", -0.5, low=0.0)
    assert check_real("x", -1e300) == -1e300
    assert type(check_real("x", np.float32(0.5))) is float


@pytest.mark.parametrize("value", ["a", None, [1.0], object(), True, 1j])
def test_check_real_rejects_non_numbers(value):
    with pytest.raises(ValueError, match=r"^x must be a real number, got"):
        check_real("x", value)


def test_check_real_nan_and_inf():
    with pytest.raises(ValueError, match=r"^x must be in .*, got nan$"):
        check_real("x", float("nan"))
    with pytest.raises(ValueError, match="finite"):
        check_real("x", float("inf"))
    with pytest.raises(ValueError, match="finite"):
        check_real("x", float("-inf"), allow_inf=True)             # only +inf may be allowed
    with pytest.raises(ValueError, match="finite"):
        check_real("x", float("inf"), high=10.0, allow_inf=True)    # not with a finite upper end
    assert check_real("kappa", math.inf, low=0.0, low_open=True, allow_inf=True) == math.inf


@FAST
@given(v=st.floats(allow_nan=True, allow_infinity=True), lo=st.floats(-10, 10), width=st.floats(0, 10),
       lo_open=st.booleans(), hi_open=st.booleans())
def test_check_real_property(v, lo, width, lo_open, hi_open):
    hi = lo + width
    inside = (math.isfinite(v) and (v > lo if lo_open else v >= lo) and (v < hi if hi_open else v <= hi))
    if inside:
        assert check_real("x", v, lo, hi, lo_open, hi_open) == v
    else:
        with pytest.raises(ValueError, match=r"^x must be"):
            check_real("x", v, lo, hi, lo_open, hi_open)


# ----------------------------------------------------------------------------- check_choice / check_bool
def test_check_choice():
    assert check_choice("mode", "quick", ("quick", "full")) == "quick"
    with pytest.raises(ValueError, match=r"^mode must be one of \['full', 'quick'\], got 'fast'$"):
        check_choice("mode", "fast", ("quick", "full"))


@pytest.mark.parametrize("value", [True, False, np.bool_(True)])
def test_check_bool_accepts(value):
    assert check_bool("halved", value) is bool(value)


@pytest.mark.parametrize("value", [0, 1, "True", None, 1.0])
def test_check_bool_rejects(value):
    with pytest.raises(ValueError, match=r"^halved must be True or False"):
        check_bool("halved", value)


# ----------------------------------------------------------------------------- check_psd
@pytest.mark.parametrize("lam_min, ok", [(0.0, True), (-0.5e-8, True), (-2e-8, False), (-1.0, False)])
def test_check_psd_tolerance_is_the_smallest_eigenvalue(lam_min, ok):
    """PSD-ness is "smallest eigenvalue >= -1e-8 max(1, max |a_ij|)", decided by a Cholesky factorisation of the
    shifted matrix (eigenvalues at the margin): a rotated diagonal matrix with a planted smallest eigenvalue."""
    Q = np.linalg.qr(np.random.default_rng(3).standard_normal((6, 6)))[0]
    a = Q @ np.diag([lam_min, 0.1, 0.5, 1.0, 2.0, 3.0]) @ Q.T
    a = 0.5 * (a + a.T)
    batch = np.stack([np.eye(6), a])
    if ok:
        assert check_psd("cov", a).shape == (6, 6) and check_psd("cov", batch, batch=True).shape == (2, 6, 6)
    else:
        for args in ((a,), (batch,)):
            with pytest.raises(ValueError, match="positive semi-definite"):
                check_psd("cov", *args, batch=args[0].ndim == 3)


def test_check_psd_accepts_and_returns_float_array():
    a = check_psd("cov", [[2, 1], [1, 2]])
    assert a.dtype == float and a.shape == (2, 2)
    assert check_psd("cov", np.zeros((3, 3))).shape == (3, 3)          # PSD, singular
    assert check_psd("cov", np.zeros((0, 0))).shape == (0, 0)
    b = check_psd("covs", np.stack([np.eye(2), 2 * np.eye(2)]), batch=True)
    assert b.shape == (2, 2, 2)


@pytest.mark.parametrize("mat,msg", [
    (np.ones((2, 3)), r"square with shape \(n, n\)"),
    (np.ones(3), r"square with shape \(n, n\)"),
    (np.array([[1.0, 2.0], [0.0, 1.0]]), "symmetric"),
    (np.array([[1.0, 2.0], [2.0, 1.0]]), "positive semi-definite"),
    (np.array([[np.nan, 0.0], [0.0, 1.0]]), "finite"),
    (np.array([[np.inf, 0.0], [0.0, 1.0]]), "finite"),
    ("abc", "numeric matrix"),
    ([[1, 2], [3]], "numeric matrix"),
])
def test_check_psd_rejects(mat, msg):
    with pytest.raises(ValueError, match=r"^cov must"):
        check_psd("cov", mat)
    with pytest.raises(ValueError, match=msg):
        check_psd("cov", mat)


def test_check_psd_batch_shape_and_member():
    with pytest.raises(ValueError, match=r"\(B, n, n\)"):
        check_psd("covs", np.eye(2), batch=True)
    bad = np.stack([np.eye(2), np.array([[1.0, 2.0], [2.0, 1.0]])])
    with pytest.raises(ValueError, match="positive semi-definite"):
        check_psd("covs", bad, batch=True)


def test_check_psd_relative_tolerances():
    # a PSD matrix with round-off asymmetry at the 1e-14 level and a tiny negative eigenvalue
    rng = np.random.default_rng(0)
    A = rng.standard_normal((5, 3))
    S = A @ A.T                       # rank 3: eigenvalues ~ -1e-15
    S[0, 1] += 1e-14
    check_psd("cov", S)
    check_psd("cov", 1e12 * S)        # scale invariance of both tolerances
    with pytest.raises(ValueError, match="symmetric"):
        check_psd("cov", S + np.triu(np.full((5, 5), 1e-3), 1))


@FAST
@given(n=st.integers(1, 6), seed=st.integers(0, 10 ** 6), shift=st.floats(-3, 3))
def test_check_psd_property(n, seed, shift):
    rng = np.random.default_rng(seed)
    B = rng.standard_normal((n, n))
    S = (B + B.T) / 2 + shift * np.eye(n)
    lam_min = np.linalg.eigvalsh(S).min()
    scale = max(1.0, float(np.max(np.abs(S))))
    if lam_min >= 1e-6 * scale:
        np.testing.assert_array_equal(check_psd("cov", S), S)
    elif lam_min < -1e-6 * scale:
        with pytest.raises(ValueError, match="positive semi-definite"):
            check_psd("cov", S)


def test_bad_options_of_the_validators_and_helpers_are_named():
    """Found by the reliability baselines of 2026-12-01: each used to fail with an error that named nothing."""
    import numpy as np
    from theorycheck import codegen
    from theorycheck.montecarlo import RunningMean
    from theorycheck.validate import check_array
    from theorycheck.verdicts import rules
    from theorycheck.verdicts.estimate import joint_test
    from theorycheck.verdicts.selfcheck import inequality
    for kw, name in ((dict(ndim=2.5), "ndim"), (dict(min_size=-1), "min_size"), (dict(shape=2), "shape"),
                     (dict(finite="yes"), "finite")):
        with pytest.raises(ValueError, match=name):
            check_array("data", [1.0], **kw)
    with pytest.raises(ValueError, match="root"):
        with codegen.output_root(None):
            pass
    with pytest.raises(ValueError, match="module"):
        codegen.write_module(None, {}, "s")
    rm = RunningMean()
    rm.update(np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="overflow"):
        rm.update(1e308)
    with pytest.raises(ValueError, match="samples"):
        RunningMean().update("x")
    for df in (float("nan"), -1, "x", 1):
        with pytest.raises(ValueError, match="df"):
            joint_test([1.0, 2.0], [1.0, 2.0], ses=[0.1, 0.1], df=df)
    assert joint_test([1.0, 2.0], [1.0, 2.0], ses=[0.1, 0.1], df=float("inf"))["law"].startswith("χ²")
    with pytest.raises(ValueError, match="empty"):
        inequality("n", [], "<", 1.0)
    for kw, name in ((dict(ses=[-1.0] * 4), "ses"), (dict(exponents=[]), "exponents"), (dict(replicates=0), "replicates"),
                     (dict(dfs=[0] * 4), "dfs")):
        args = dict(sizes=[8, 16, 32, 64], ses=[0.1] * 4, dfs=[5] * 4, exponents=(1.0,)) | kw
        with pytest.raises(ValueError, match=name):
            rules.bootstrap_df(**args)


def test_check_array_fast_path_returns_the_array_and_keeps_every_error():
    """A finite float64 ndarray that passes every check is returned as is; any failing check still goes through
    the general path, with the same error as for any other input."""
    a = np.arange(6.0).reshape(2, 3)
    assert check_array("a", a, ndim=2, shape=(2, 3), min_size=6) is a
    assert check_array("a", a) is a and check_array("a", a[:, ::2], ndim=2) is not None
    for kw, msg in (({"ndim": 1}, "dimension"), ({"ndim": (1, 3)}, "dimension"), ({"shape": (3, 2)}, "shape"),
                    ({"min_size": 7}, "at least 7"), ({"ndim": 40}, "ndim"), ({"min_size": -1}, "min_size"),
                    ({"shape": (2, -3)}, "shape"), ({"ndim": True}, "ndim")):
        with pytest.raises(ValueError, match=msg):
            check_array("a", a, **kw)
    bad = a.copy()
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match="a must have finite entries"):
        check_array("a", bad)
    assert np.isnan(check_array("a", bad, finite=False)[1, 2])
    with pytest.raises(ValueError, match="finite must be"):
        check_array("a", a, finite=1)
    m = np.ma.masked_array(a)               # a subclass: converted to a plain ndarray, as before
    assert type(check_array("a", m)) is np.ndarray
    assert check_array("a", a.astype(np.float32)).dtype == np.float64
