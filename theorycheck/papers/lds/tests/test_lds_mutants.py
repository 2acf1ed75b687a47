"""The formula copies of paper 001's mutants (:mod:`theorycheck.papers.lds.checks.mutants`): a copy without its
mistake equals the real function on random inputs (so the copy cannot drift from what it mutates), and with it it
differs."""
import numpy as np

from theorycheck.models.attention import effective_coefficients
from theorycheck.models.dynamics import lds_autocovariance, make_prior
from theorycheck.models.filters import kalman_one_step_mse
from theorycheck.papers.lds.checks import mutants
from theorycheck.papers.lds.theory import kalman, pcg


def test_coefficients_copy_without_its_mistake_is_effective_coefficients():
    rng = np.random.default_rng(0)
    for s in (1, 2, 3, 4):
        W, V = rng.standard_normal((2, s + 1, s + 1))
        np.testing.assert_allclose(mutants.coefficients_copy(W, V, mistake=False), effective_coefficients(W, V),
                                   rtol=1e-14, atol=0)
        assert not np.allclose(mutants.coefficients_copy(W, V), effective_coefficients(W, V))


def test_kalman_copy_without_its_mistake_is_the_kalman_mse():
    rng = np.random.default_rng(1)
    for setting in ("a", "b", "c", "d"):
        systems = make_prior(setting, d=3).sample(rng, 50)
        for T in (1, 2, 7, 30):
            np.testing.assert_allclose(mutants.kalman_copy(systems, T, mistake=False), kalman_one_step_mse(systems, T),
                                       rtol=1e-10)
        assert not np.allclose(mutants.kalman_copy(systems, 30), kalman_one_step_mse(systems, 30))


def test_last_value_copy_without_its_mistake_is_the_trivial_predictor():
    rng = np.random.default_rng(2)
    for setting in ("a", "d"):
        systems = make_prior(setting, d=3).sample(rng, 50)
        K = lds_autocovariance(systems, 12)
        real = kalman.trivial_predictor_mse(systems, 12)["predict the last value"]
        np.testing.assert_allclose(mutants.last_value_mse_copy(K, mistake=False), real, rtol=1e-12)
        assert not np.allclose(mutants.last_value_mse_copy(K), real)


def test_pcg_steps_copy_without_its_mistake_is_the_two_pcg_steps():
    rng = np.random.default_rng(3)
    for s in (2, 3, 4):
        B = 40
        X = rng.standard_normal((B, s, 3 * s))
        H = np.einsum("bik,bjk->bij", X, X) / (3 * s)                      # positive definite Hessians
        g0 = rng.standard_normal((B, s))
        Pc = rng.standard_normal((s, s)) + 3 * np.eye(s)
        qv = rng.standard_normal(s)
        for init in ("residual", "q"):
            for w0 in (None, rng.standard_normal((B, s))):
                real = pcg._two_pcg_steps(H, g0, Pc, qv, init, w0)
                copy = mutants.pcg_steps_copy(H, g0, Pc, qv, init, w0, mistake=False)
                for a, b in zip(copy, real):
                    np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-12)
                assert not np.allclose(mutants.pcg_steps_copy(H, g0, Pc, qv, init, w0)[-1], real[-1])
