"""Tests of paper 001 (LDS in context): Isserlis moments, GD identity, exact vs Monte Carlo,
parity structure, gradients, training, input validation."""
import math

import numpy as np
import pytest
import sympy as sp

from theorycheck import gaussian, lds
from theorycheck.generated import lds_identities as gi
from theorycheck.generated import lds_scalar as gs
from theorycheck.montecarlo import MeanEstimate, compare, from_samples

PR1 = lds.DiagonalLDSPrior(1, 0.9, 1.0, 0.5, 0.4)


def _scalar(a, prior=PR1):
    return lds._scalar_batch(prior, np.atleast_1d(np.asarray(a, float)))


# ----------------------------------------------------------------------------- Isserlis
def test_isserlis_engine_vs_bruteforce_vs_hafnian():
    """N and D from the engine's trace forms equal the explicit pairing sums (gaussian.moment) and
    the hafnian of thewalrus (independent oracle)."""
    from thewalrus import hafnian
    T = 6
    K = lds.lds_autocovariance(_scalar([-0.7, 0.3, 0.85]), T)
    N, D = lds.wqk_star_moments(K)
    for b in range(3):
        Nb = sum(gaussian.moment(K[b], (T - 2, T - 1, i, i + 1)) for i in range(T - 2))
        Db = sum(gaussian.moment(K[b], (T - 2, T - 2, i, i + 1, j, j + 1))
                 for i in range(T - 2) for j in range(T - 2))
        idx = [T - 2, T - 2, 1, 2, 3, 4]
        Dh = float(np.real(hafnian(K[b][np.ix_(idx, idx)])))
        assert math.isclose(N[b], Nb, rel_tol=1e-12)
        assert math.isclose(D[b], Db, rel_tol=1e-12)
        assert math.isclose(gaussian.moment(K[b], tuple(idx)), Dh, rel_tol=1e-10)


def test_isserlis_vs_monte_carlo():
    T = 7
    sysm = _scalar([0.8])
    K = lds.lds_autocovariance(sysm, T)
    N, D = lds.wqk_star_moments(K)
    rng = np.random.default_rng(11)
    big = lds.LDSBatch(np.repeat(sysm.A, 200_000, 0), np.repeat(sysm.c, 200_000, 0),
                       np.repeat(sysm.Sigma_w, 200_000, 0), sysm.sigma0, sysm.sigma_v)
    Y = big.simulate(T, rng)
    S = np.sum(Y[:, :-2] * Y[:, 1:-1], axis=1)
    assert compare(N[0], from_samples(Y[:, -2] * Y[:, -1] * S)).agrees
    assert compare(D[0], from_samples(Y[:, -2] ** 2 * S ** 2)).agrees


@pytest.mark.parametrize("T", [3, 5, 12, 30])
def test_generated_polynomials_match_engine(T):
    a = np.array([-1.0, -0.6, 0.1, 0.5, 0.97])
    for (s0, sw, sv) in [(1.0, 0.5, 0.4), (0.3, 1.2, 0.0)]:
        pr = lds.DiagonalLDSPrior(1, 0.9, s0, sw, sv)
        Np, Dp = lds._poly_eval_moments(gs.POLY[T], a, s0, sw, sv)
        Ne, De = lds.wqk_star_moments(lds.lds_autocovariance(lds._scalar_batch(pr, a), T))
        np.testing.assert_allclose(Np, Ne, rtol=1e-11, atol=1e-13)
        np.testing.assert_allclose(Dp, De, rtol=1e-11)


@pytest.mark.parametrize("T", [3, 9, 45])
def test_symbolic_T_closed_form_of_N(T):
    a = np.array([-0.9, -0.2, 0.35, 0.99])
    pr = lds.DiagonalLDSPrior(1, 0.9, 1.2, 0.5, 0.4)
    N, _ = lds.wqk_star_moments(lds.lds_autocovariance(lds._scalar_batch(pr, a), T))
    np.testing.assert_allclose(gs.N_scalar_closed(a, T, 1.2, 0.5, 0.4), N, rtol=1e-9)


def test_generated_scalar_autocovariance():
    a, s0, sw = 0.7, 1.3, 0.6
    pr = lds.DiagonalLDSPrior(1, 0.9, s0, sw, 0.0)
    K = lds.lds_autocovariance(lds._scalar_batch(pr, [a]), 9)[0]
    for s in range(1, 10):
        assert math.isclose(gs.P_scalar(a, s, s0, sw), K[s - 1, s - 1], rel_tol=1e-12)
        for t in range(s, 10):
            assert math.isclose(gs.K_scalar_upper(a, s, t, s0, sw), K[s - 1, t - 1], rel_tol=1e-12)


def test_autocovariance_vs_simulation_all_settings():
    rng = np.random.default_rng(3)
    for st in "abcd":
        pr = lds.make_prior(st, d=3)
        sysm = pr.sample(rng, 1)
        K = sysm.autocovariance(5)[0]
        rep = lds.LDSBatch(np.repeat(sysm.A, 100_000, 0), np.repeat(sysm.c, 100_000, 0),
                           np.repeat(sysm.Sigma_w, 100_000, 0), sysm.sigma0, sysm.sigma_v)
        Y = rep.simulate(5, rng)
        prods = np.einsum("ni,nj->nij", Y, Y).reshape(len(Y), -1)
        est = from_samples(prods)
        z = (est.mean - K.ravel()) / est.se
        assert np.max(np.abs(z)) < 4.5, (st, np.max(np.abs(z)))     # 25 entries, ~Bonferroni 1e-4


def test_kalman_equals_schur_complement():
    rng = np.random.default_rng(4)
    for st in "abcd":
        sysm = lds.make_prior(st, d=3).sample(rng, 20)
        np.testing.assert_allclose(lds.kalman_one_step_mse(sysm, 12), lds.oracle_ar_mse(sysm, 12, 11), rtol=1e-9)


# ----------------------------------------------------------------------------- GD identity
def test_gd_identity_symbolic_and_numeric():
    T = 6
    y = lds.sym_observations(T)
    eta = sp.Symbol("eta")
    out = lds.sym_attention_forward(sp.Matrix([[eta, 0], [0, 0]]), sp.Matrix([[0, 0], [0, 1]]),
                                    lds.sym_token_matrix(y, 1))
    w = sp.Symbol("w")
    L = lds.sym_ar_loss(y, 1, [w])
    w1 = -eta * sp.diff(L, w).subs(w, 0)
    assert sp.expand(out[1, T - 2] - w1 * y[T - 2]) == 0
    assert gi.GD_IDENTITY_SYMBOLIC_T and gi.GD_T_VALUES[0] <= 4
    rng = np.random.default_rng(0)
    Y = rng.standard_normal((50, 13))
    att = lds.attention_predict(np.array([[0.37, 0], [0, 0]]), np.array([[0, 0], [0, 1.0]]), Y)
    np.testing.assert_allclose(att, lds.ar_gd_step_prediction(Y, 1, 0.37), rtol=1e-12)


def test_forward_pass_matches_effective_coefficients():
    rng = np.random.default_rng(1)
    for s in (1, 2, 3):
        W, V = rng.standard_normal((2, s + 1, s + 1))
        Y = rng.standard_normal((7, 12))
        C = lds.effective_coefficients(W, V)
        G, q = lds._gram_query(Y, s)
        pred = np.einsum("klj,bkl,bj->b", C, G, q[:, :s])
        np.testing.assert_allclose(lds.attention_predict(W, V, Y), pred, rtol=1e-10)
        # the sympy forward pass agrees with the numpy one
        ys = lds.sym_observations(8)
        vals = dict(zip(ys, rng.standard_normal(8)))
        out = lds.sym_attention_forward(sp.Matrix(W), sp.Matrix(V), lds.sym_token_matrix(ys, s)).subs(vals)
        num = lds.attention_forward(W, V, lds.token_matrix(np.array([[vals[v] for v in ys]]), s))[0]
        np.testing.assert_allclose(np.array(out, dtype=float), num, rtol=1e-10)


# ----------------------------------------------------------------------------- W_QK*
def test_wqk_exact_vs_trajectory_mc_small_T():
    T = 6
    for prior in (PR1, lds.make_prior("a", d=3)):
        ex = lds.wqk_star(T, prior)
        mc = lds.simulate_wqk_star(T, prior, 200_000, seed=5)
        assert compare(ex.value, MeanEstimate(mc.value, mc.se, mc.n_systems)).agrees, (ex, mc)


def test_d1_routes_agree_and_rao_blackwell():
    T = 12
    vals = [lds.wqk_star(T, PR1, method=m).value for m in ("polynomial", "quadrature", "exact-components")]
    assert max(vals) - min(vals) < 1e-12 * abs(vals[0])
    rb = lds.wqk_star(T, PR1, method="rao-blackwell", n_systems=20_000, seed=2)
    assert rb.se > 0 and abs(rb.value - vals[0]) < 4 * rb.se


def test_exact_components_vs_rao_blackwell_multid():
    for st in "ac":
        pr = lds.make_prior(st, d=3)
        ex = lds.wqk_star(10, pr)
        rb = lds.wqk_star(10, pr, method="rao-blackwell", n_systems=20_000, seed=3)
        assert ex.method == "exact-components"
        assert abs(ex.value - rb.value) < 4 * rb.se, (st, ex.value, rb.value, rb.se)


def test_ratio_of_expectations_is_the_minimiser():
    """The average of per-system ratios is a different (worse) number."""
    T = 10
    ex = lds.wqk_star(T, PR1)
    avg = lds.per_system_ratio_average(T, PR1, 4000, seed=1)
    assert abs(avg.mean - ex.value) > 5 * avg.se


# ----------------------------------------------------------------------------- parity
@pytest.mark.parametrize("s", [1, 2, 3, 4])
def test_parity_pattern_formula_equals_symbolic(s):
    z = lds.parity_zero_pattern(s)
    derived = np.zeros_like(z)
    for (k, l, j) in gi.ZERO_PATTERN[s]:
        derived[j - 1, k - 1, l - 1] = True
    assert np.array_equal(z, derived)


def test_parity_zeros_numeric():
    T = 12
    rng = np.random.default_rng(7)
    for st in "abcd":
        sysm = lds.make_prior(st, d=3).sample(rng, 8)
        for s in (2, 3, 4):
            z = lds.parity_zero_pattern(s)
            Rp = lds.stationarity_rhs(sysm.autocovariance(T), s)
            Rm = lds.stationarity_rhs(sysm.negate().autocovariance(T), s)
            sc = np.abs(Rp).max()
            assert np.abs(Rp + Rm)[:, z].max() <= 1e-12 * sc
            assert np.abs(Rp - Rm)[:, ~z].max() <= 1e-12 * sc
    R = lds.stationarity_moments(T, 2, lds.make_prior("a", d=2))["R"]
    z = lds.parity_zero_pattern(2)
    assert np.abs(R[z]).max() < 1e-12 * np.abs(R).max() and np.abs(R[~z]).min() > 1e-6 * np.abs(R).max()


def test_ar1_normal_equations_give_theorem():
    T = 10
    pr = lds.make_prior("a", d=2)
    mom = lds.stationarity_moments(T, 1, pr, gram=True)
    c = np.linalg.solve(mom["gram"], mom["b"])
    w = lds.wqk_star(T, pr).value
    assert abs(c[1] / w - 1) < 1e-10 and max(abs(c[0]), abs(c[2])) < 1e-10 * abs(c[1])


# ----------------------------------------------------------------------------- training
def test_gradient_check():
    rng = np.random.default_rng(2)
    W, V = 0.3 * rng.standard_normal((2, 4, 4))
    Y = lds.make_prior("a").sample(rng, 40).simulate(11, rng)
    _, gq, gv = lds.attention_loss_and_grad(W, V, Y)
    h = 1e-6
    for M, g, first in ((W, gq, True), (V, gv, False)):
        num = np.zeros_like(M)
        for i in range(4):
            for j in range(4):
                Mp, Mm = M.copy(), M.copy()
                Mp[i, j] += h
                Mm[i, j] -= h
                lp = lds.attention_loss_and_grad(Mp, V, Y)[0] if first else lds.attention_loss_and_grad(W, Mp, Y)[0]
                lm = lds.attention_loss_and_grad(Mm, V, Y)[0] if first else lds.attention_loss_and_grad(W, Mm, Y)[0]
                num[i, j] = (lp - lm) / (2 * h)
        np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-8)


def test_small_training_converges_to_theorem():
    T = 10
    pr = lds.DiagonalLDSPrior(2, 0.95, 1.0, 0.5, 0.3)
    w = lds.wqk_star(T, pr).value
    r = lds.train_linear_attention(T, 1, pr, steps=1500, batch=400, seed=0)
    C = lds.effective_coefficients(r.W_QK, r.W_V)[:, :, 0]
    assert abs(C[0, 1] / w - 1) < 0.1, (C, w)
    assert max(abs(C[0, 0]), abs(C[1, 1])) < 0.1 * abs(C[0, 1])
    assert np.mean(r.losses[-100:]) < np.mean(r.losses[:20])


def test_masked_training_keeps_support():
    s = 2
    sv, sw = lds.predicted_support(s)
    mq = np.zeros((3, 3), bool)
    mq[:, :s] = sw
    mv = np.zeros((3, 3), bool)
    mv[s] = sv
    r = lds.train_linear_attention(8, s, lds.make_prior("a", d=2), steps=20, batch=50, seed=1, support=(mq, mv))
    assert np.all(r.W_QK[~mq] == 0) and np.all(r.W_V[~mv] == 0)


# ----------------------------------------------------------------------------- misc
def test_jaccard_and_support():
    assert lds.jaccard_distance([1, 0, 1], [1, 0, 1]) == 0.0
    sv, sw = lds.predicted_support(2)
    assert sv.tolist() == [True, False, True]
    assert sw.tolist() == [[True, False], [False, True], [True, False]]


def test_pcg_reconstruction_exact():
    rng = np.random.default_rng(9)
    Y = lds.make_prior("b").sample(rng, 100).simulate(20, rng)
    W, V = rng.standard_normal((2, 5, 5))
    q = lds.pcg_quantities(W, V, Y)
    np.testing.assert_allclose(q["pred_att"], lds.attention_predict(W, V, Y), rtol=1e-9, atol=1e-9)


def test_closed_loop_radius_below_one():
    sysm = lds.make_prior("d").sample(np.random.default_rng(0), 50)
    assert np.all(lds.steady_state_closed_loop_radius(sysm) < 1)


@pytest.mark.parametrize("call, match", [
    (lambda: lds.DiagonalLDSPrior(0, 0.5, 1, 1, 1), "d must be"),
    (lambda: lds.DiagonalLDSPrior(2, 1.5, 1, 1, 1), "a_max must be"),
    (lambda: lds.DiagonalLDSPrior(2, 0.5, -1, 1, 1), "sigma0 must be"),
    (lambda: lds.make_prior("e"), "setting must be"),
    (lambda: lds.wqk_star(2, PR1), "T must be"),
    (lambda: lds.wqk_star(10, "prior"), "prior must be"),
    (lambda: lds.wqk_star(10, PR1, rtol=0), "rtol must be"),
    (lambda: lds.wqk_star(10, lds.make_prior("b"), method="polynomial"), "needs a DiagonalLDSPrior"),
    (lambda: lds.simulate_wqk_star(10, PR1, 1, 0), "samples must be"),
    (lambda: lds.train_linear_attention(10, 0, PR1, 10, 10, 0), "s must be"),
    (lambda: lds.train_linear_attention(10, 1, PR1, 10, 10, 0, lr=-1), "lr must be"),
    (lambda: lds.attention_predict(np.eye(2), np.eye(3), np.ones((1, 8))), "W_V must have"),
    (lambda: lds.attention_predict(np.eye(2), np.eye(2), np.ones((1, 3))), "Y must have"),
    (lambda: lds.attention_predict(np.eye(2), np.eye(2), np.full((1, 8), np.nan)), "Y must be finite"),
    (lambda: lds.token_matrix(np.ones(6), 0), "s must be"),
    (lambda: lds.AnisotropicNoiseLDSPrior(2, 0.5, 1, 1, 1, Sigma_w=-np.eye(2)), "Sigma_w must be"),
    (lambda: lds.parity_zero_pattern(0), "s must be"),
    (lambda: lds.wqk_star(6, lds.DiagonalLDSPrior(2, 0.5, 0.0, 0.0, 0.0)), "0/0"),
    (lambda: lds.wqk_star(6, lds.make_prior("b", d=2, sigma0=0.0, sigma_w=0.0, sigma_v=0.0), n_systems=10), "0/0"),
    (lambda: lds.simulate_wqk_star(6, lds.DiagonalLDSPrior(2, 0.5, 0.0, 0.0, 0.0), 10, 0), "y = 0"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.slow
def test_build_quick_runs(tmp_path):
    from theorycheck.context import RunContext
    from theorycheck.papers import lds as paper
    led = paper.build(RunContext(mode="quick", out=tmp_path))   # never write figures into reports/
    ids = [c.id for c in led.claims]
    assert len(ids) == len(set(ids)) >= 15
    by = {c.id: c.verdict for c in led.claims}
    assert by["001-thm41-exact-vs-mc"] == "confirmed"
    assert by["001-gd-identity"] == "confirmed"
    assert by["001-lemma41-parity"] == "confirmed"
    rva = next(c for c in led.claims if c.id == "001-thm41-ratio-of-expectations")
    lost = [st for st, r in rva.evidence["settings"].items() if r["z_test_loss"] < -3.09]
    assert rva.verdict == ("refuted" if lost else "confirmed")


def test_realisable_coefficients_have_indefinite_rank2_blocks():
    """S_j = (v w^T + w v^T)/2 never has two eigenvalues of the same sign (basis of 001-ar2-constrained-optimum)."""
    rng = np.random.default_rng(12)
    for _ in range(20):
        s = 3
        W, V = rng.standard_normal((2, s + 1, s + 1))
        C = lds.effective_coefficients(W, V)
        for j in range(s):
            S = np.triu(C[:, :, j], 1) / 2
            S = S + S.T + np.diag(np.diag(C[:, :, j]))
            ev = np.linalg.eigvalsh(S)
            tol = 1e-10 * np.abs(ev).max()
            assert np.sum(ev > tol) <= 1 and np.sum(ev < -tol) <= 1
