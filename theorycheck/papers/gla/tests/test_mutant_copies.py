"""The copies of formulas the mutants of paper 000 run (:mod:`theorycheck.papers.gla.checks.mutants`): where a
mistake sits inside a formula the mutant re-types it with a switch ``bug``; without its bug each copy must be the real
function, on random inputs — otherwise the mutant would test a formula the paper does not use."""
from __future__ import annotations

import numpy as np
import pytest

from theorycheck.models import attention as A
from theorycheck.models import filters as F
from theorycheck.models.prompts import ar1_stream
from theorycheck.papers.gla.checks import mutants as M
from theorycheck.papers.gla.theory import errors


def _spd(rng, d):
    Q = rng.standard_normal((d, d))
    return Q @ Q.T / d + 0.2 * np.eye(d)


@pytest.mark.parametrize("seed", range(6))
def test_effective_covariance_copy_is_effective_cov(seed):
    rng = np.random.default_rng(seed)
    lam, gamma, n = float(rng.uniform(0.05, 1.0)), float(rng.uniform(0.05, 1.0)), int(rng.integers(1, 60))
    L = _spd(rng, int(rng.integers(1, 6)))
    sw2, se2, noise = float(rng.uniform(0.1, 3.0)), float(rng.uniform(0.0, 1.0)), float(rng.uniform(0.0, 1.0))
    want = errors.effective_cov(lam, gamma, n, L, sw2, se2, noise)
    assert np.allclose(M.effective_cov_copy(lam, gamma, n, L, sw2, se2, noise, bug=False), want, rtol=1e-12, atol=0)
    assert not np.allclose(M.effective_cov_copy(lam, gamma, n, L, sw2, se2, noise), want, rtol=1e-6)


@pytest.mark.parametrize("seed", range(4))
def test_gla_forward_copy_is_gla_forward(seed):
    rng = np.random.default_rng(seed)
    B, n, d = int(rng.integers(1, 30)), int(rng.integers(1, 12)), int(rng.integers(1, 6))
    X, Y = rng.standard_normal((B, n + 1, d)), rng.standard_normal((B, n + 1))
    WKQ, WV = rng.standard_normal((d + 1, d + 1)), rng.standard_normal((d + 1, d + 1))
    lam = float(rng.uniform(0.05, 1.0))
    want = A.gla_forward(X, Y, lam, WKQ, WV)
    assert np.allclose(M.gla_forward_copy(X, Y, lam, WKQ, WV, bug=False), want, rtol=1e-10, atol=1e-12)
    assert not np.allclose(M.gla_forward_copy(X, Y, lam, WKQ, WV), want, rtol=1e-6)


@pytest.mark.parametrize("seed", range(3))
def test_lms_copy_is_lms_errors(seed):
    rng = np.random.default_rng(seed)
    X, Y = ar1_stream(rng, 7, 80, int(rng.integers(1, 6)), 0.9, 1.0, 0.05, 0.1)
    mu = float(rng.uniform(0.005, 0.1))
    assert np.allclose(M.lms_errors_copy(X, Y, mu, bug=False), F.lms_errors(X, Y, mu), rtol=1e-12, atol=0)


@pytest.mark.parametrize("seed", range(3))
def test_kalman_copy_is_kalman_errors(seed):
    rng = np.random.default_rng(seed)
    gamma, sw2, se2, noise = float(rng.uniform(0.5, 1.0)), float(rng.uniform(0.5, 2.0)), 0.05, 0.1
    X, Y = ar1_stream(rng, 6, 60, int(rng.integers(1, 5)), gamma, sw2, se2, noise)
    E, S = F.kalman_errors(X, Y, gamma, sw2, se2, noise, return_variance=True)
    E2, S2 = M.kalman_errors_copy(X, Y, gamma, sw2, se2, noise, return_variance=True, bug=False)
    assert np.allclose(E2, E, rtol=1e-10, atol=1e-14) and np.allclose(S2, S, rtol=1e-10, atol=1e-14)
    assert np.allclose(M.kalman_errors_copy(X, Y, gamma, sw2, se2, noise, bug=False),
                       F.kalman_errors(X, Y, gamma, sw2, se2, noise), rtol=1e-10, atol=1e-14)


@pytest.mark.parametrize("seed,normalise", [(0, False), (1, True), (2, False)])
def test_stack_copy_is_gla_stack_loss_and_grad(seed, normalise):
    rng = np.random.default_rng(seed)
    B, n, d, depth = 5, int(rng.integers(2, 8)), int(rng.integers(1, 4)), int(rng.integers(1, 4))
    X, Y = rng.standard_normal((B, n + 1, d)), rng.standard_normal((B, n + 1))
    lams = list(rng.uniform(0.3, 0.95, depth))
    WK = [0.3 * rng.standard_normal((d + 1, d + 1)) for _ in range(depth)]
    WV = [0.3 * rng.standard_normal((d + 1, d + 1)) for _ in range(depth)]
    loss, gK, gV = A.gla_stack_loss_and_grad(X, Y, lams, WK, WV, normalise)
    loss2, gK2, gV2 = M.gla_stack_loss_and_grad_copy(X, Y, lams, WK, WV, normalise, bug=False)
    assert loss2 == pytest.approx(loss, rel=1e-12)
    for a, b in zip(gK2 + gV2, gK + gV):
        assert np.allclose(a, b, rtol=1e-9, atol=1e-13)
