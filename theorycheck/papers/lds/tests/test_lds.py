"""Tests of paper 001 (LDS in context): Isserlis moments, GD identity, exact vs Monte Carlo,
parity structure, gradients, training, input validation. The paper plugin itself: :mod:`.test_lds_paper`."""
import math

import numpy as np
import pytest
import sympy as sp
from scipy import stats

from theorycheck import gaussian
from theorycheck.models.attention import gram_query
from theorycheck.models import attention
from theorycheck.models import dynamics
from theorycheck.models import training
from . import lds_names as lds
from theorycheck.papers.lds.generated import lds_identities as gi
from theorycheck.papers.lds.generated import lds_scalar as gs
from theorycheck.papers.lds.theory.wqk import poly_eval_moments, scalar_batch
from theorycheck.montecarlo import MeanEstimate, compare, from_samples

PR1 = dynamics.DiagonalLDSPrior(1, 0.9, 1.0, 0.5, 0.4)


def _scalar(a, prior=PR1):
    return scalar_batch(prior, np.atleast_1d(np.asarray(a, float)))


# ----------------------------------------------------------------------------- Isserlis
def test_isserlis_engine_vs_bruteforce_vs_hafnian():
    """N and D from the engine's trace forms equal the explicit pairing sums (gaussian.moment) and
    the hafnian of thewalrus (independent oracle)."""
    from thewalrus import hafnian  # optional: thewalrus (an independent oracle) is a test extra
    T = 6
    K = dynamics.lds_autocovariance(_scalar([-0.7, 0.3, 0.85]), T)
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
    K = dynamics.lds_autocovariance(sysm, T)
    N, D = lds.wqk_star_moments(K)
    rng = np.random.default_rng(11)
    big = dynamics.LDSBatch(np.repeat(sysm.A, 200_000, 0), np.repeat(sysm.c, 200_000, 0),
                       np.repeat(sysm.Sigma_w, 200_000, 0), sysm.sigma0, sysm.sigma_v)
    Y = big.simulate(T, rng)
    S = np.sum(Y[:, :-2] * Y[:, 1:-1], axis=1)
    assert compare(N[0], from_samples(Y[:, -2] * Y[:, -1] * S)).agrees
    assert compare(D[0], from_samples(Y[:, -2] ** 2 * S ** 2)).agrees


@pytest.mark.parametrize("T", [3, 5, 12, 30])
def test_generated_polynomials_match_engine(T):
    a = np.array([-1.0, -0.6, 0.1, 0.5, 0.97])
    for (s0, sw, sv) in [(1.0, 0.5, 0.4), (0.3, 1.2, 0.0)]:
        pr = dynamics.DiagonalLDSPrior(1, 0.9, s0, sw, sv)
        Np, Dp = poly_eval_moments(gs.POLY[T], a, s0, sw, sv)
        Ne, De = lds.wqk_star_moments(dynamics.lds_autocovariance(scalar_batch(pr, a), T))
        np.testing.assert_allclose(Np, Ne, rtol=1e-11, atol=1e-13)
        np.testing.assert_allclose(Dp, De, rtol=1e-11)


@pytest.mark.parametrize("T", [3, 9, 45])
def test_symbolic_T_closed_form_of_N(T):
    a = np.array([-0.9, -0.2, 0.35, 0.99])
    pr = dynamics.DiagonalLDSPrior(1, 0.9, 1.2, 0.5, 0.4)
    N, _ = lds.wqk_star_moments(dynamics.lds_autocovariance(scalar_batch(pr, a), T))
    np.testing.assert_allclose(gs.N_scalar_closed(a, T, 1.2, 0.5, 0.4), N, rtol=1e-9)


def test_generated_scalar_autocovariance():
    a, s0, sw = 0.7, 1.3, 0.6
    pr = dynamics.DiagonalLDSPrior(1, 0.9, s0, sw, 0.0)
    K = dynamics.lds_autocovariance(scalar_batch(pr, [a]), 9)[0]
    for s in range(1, 10):
        assert math.isclose(gs.P_scalar(a, s, s0, sw), K[s - 1, s - 1], rel_tol=1e-12)
        for t in range(s, 10):
            assert math.isclose(gs.K_scalar_upper(a, s, t, s0, sw), K[s - 1, t - 1], rel_tol=1e-12)


def test_autocovariance_vs_simulation_all_settings():
    rng = np.random.default_rng(3)
    for st in "abcd":
        pr = dynamics.make_prior(st, d=3)
        sysm = pr.sample(rng, 1)
        K = sysm.autocovariance(5)[0]
        rep = dynamics.LDSBatch(np.repeat(sysm.A, 100_000, 0), np.repeat(sysm.c, 100_000, 0),
                           np.repeat(sysm.Sigma_w, 100_000, 0), sysm.sigma0, sysm.sigma_v)
        Y = rep.simulate(5, rng)
        prods = np.einsum("ni,nj->nij", Y, Y).reshape(len(Y), -1)
        est = from_samples(prods)
        z = (est.mean - K.ravel()) / est.se
        assert np.max(np.abs(z)) < 4.5, (st, np.max(np.abs(z)))     # 25 entries, ~Bonferroni 1e-4


def test_kalman_equals_schur_complement():
    rng = np.random.default_rng(4)
    for st in "abcd":
        sysm = dynamics.make_prior(st, d=3).sample(rng, 20)
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
    att = attention.attention_predict(np.array([[0.37, 0], [0, 0]]), np.array([[0, 0], [0, 1.0]]), Y)
    np.testing.assert_allclose(att, lds.ar_gd_step_prediction(Y, 1, 0.37), rtol=1e-12)


def test_forward_pass_matches_effective_coefficients():
    rng = np.random.default_rng(1)
    for s in (1, 2, 3):
        W, V = rng.standard_normal((2, s + 1, s + 1))
        Y = rng.standard_normal((7, 12))
        C = attention.effective_coefficients(W, V)
        G, q = gram_query(Y, s)
        pred = np.einsum("klj,bkl,bj->b", C, G, q[:, :s])
        np.testing.assert_allclose(attention.attention_predict(W, V, Y), pred, rtol=1e-10)
        # the sympy forward pass agrees with the numpy one
        ys = lds.sym_observations(8)
        vals = dict(zip(ys, rng.standard_normal(8)))
        out = lds.sym_attention_forward(sp.Matrix(W), sp.Matrix(V), lds.sym_token_matrix(ys, s)).subs(vals)
        num = attention.attention_forward(W, V, attention.token_matrix(np.array([[vals[v] for v in ys]]), s))[0]
        np.testing.assert_allclose(np.array(out, dtype=float), num, rtol=1e-10)


# ----------------------------------------------------------------------------- W_QK*
def test_wqk_exact_vs_trajectory_mc_small_T():
    """Exact W* against the simulated model's best scalar, batch means (Student t, df = B - 1), two-sided 1e-3."""
    T = 6
    for prior in (PR1, dynamics.make_prior("a", d=3)):
        ex = lds.wqk_star(T, prior)
        mc = lds.wqk_star_batch_mc(T, prior, 20, 10_000, seed=5)
        b = mc["batch_values"]
        t = (mc["value"] - ex.value) / (b.std(ddof=1) / math.sqrt(b.size))
        assert 2 * stats.t.sf(abs(t), b.size - 1) > 1e-3, (ex.value, mc["value"], t)
        legacy = lds.simulate_wqk_star(T, prior, 200_000, seed=5)       # the delta-method route still agrees here
        assert compare(ex.value, MeanEstimate(legacy.value, legacy.se, legacy.n_systems)).agrees


def test_d1_routes_agree_and_rao_blackwell():
    T = 12
    vals = [lds.wqk_star(T, PR1, method=m).value for m in ("polynomial", "quadrature", "exact-components")]
    assert max(vals) - min(vals) < 1e-12 * abs(vals[0])
    rb = lds.wqk_star(T, PR1, method="rao-blackwell", n_systems=20_000, seed=2)
    assert rb.se > 0 and abs(rb.value - vals[0]) < 4 * rb.se


def test_exact_components_vs_rao_blackwell_multid():
    for st in "ac":
        pr = dynamics.make_prior(st, d=3)
        ex = lds.wqk_star(10, pr)
        rb = lds.wqk_star(10, pr, method="rao-blackwell", n_systems=20_000, seed=3)
        assert ex.method == "exact-components"
        assert abs(ex.value - rb.value) < 4 * rb.se, (st, ex.value, rb.value, rb.se)


def test_ratio_of_expectations_is_the_minimiser():
    """The average of per-system ratios is a different number, and its exact population loss is higher."""
    T = 10
    ex = lds.wqk_star(T, PR1)
    avg = lds.per_system_ratio_average(T, PR1, 4000, seed=1)
    assert abs(avg.mean - ex.value) > 5 * avg.se
    mom = lds.stationarity_moments(T, 1, PR1, gram=True)
    V = np.array([[0.0, 0.0], [0.0, 1.0]])
    loss = [lds.exact_halved_loss(np.array([[c, 0.0], [0.0, 0.0]]), V, mom) for c in (ex.value, avg.mean)]
    assert loss[1] > loss[0]


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
        sysm = dynamics.make_prior(st, d=3).sample(rng, 8)
        for s in (2, 3, 4):
            z = lds.parity_zero_pattern(s)
            Rp = lds.stationarity_rhs(sysm.autocovariance(T), s)
            Rm = lds.stationarity_rhs(sysm.negate().autocovariance(T), s)
            sc = np.abs(Rp).max()
            assert np.abs(Rp + Rm)[:, z].max() <= 1e-12 * sc
            assert np.abs(Rp - Rm)[:, ~z].max() <= 1e-12 * sc
    R = lds.stationarity_moments(T, 2, dynamics.make_prior("a", d=2))["R"]
    z = lds.parity_zero_pattern(2)
    assert np.abs(R[z]).max() < 1e-12 * np.abs(R).max() and np.abs(R[~z]).min() > 1e-6 * np.abs(R).max()


def test_ar1_normal_equations_give_theorem():
    T = 10
    pr = dynamics.make_prior("a", d=2)
    mom = lds.stationarity_moments(T, 1, pr, gram=True)
    c = np.linalg.solve(mom["gram"], mom["b"])
    w = lds.wqk_star(T, pr).value
    assert abs(c[1] / w - 1) < 1e-10 and max(abs(c[0]), abs(c[2])) < 1e-10 * abs(c[1])


# ----------------------------------------------------------------------------- training
def test_gradient_check():
    rng = np.random.default_rng(2)
    W, V = 0.3 * rng.standard_normal((2, 4, 4))
    Y = dynamics.make_prior("a").sample(rng, 40).simulate(11, rng)
    _, gq, gv = attention.attention_loss_and_grad(W, V, Y)
    h = 1e-6
    for M, g, first in ((W, gq, True), (V, gv, False)):
        num = np.zeros_like(M)
        for i in range(4):
            for j in range(4):
                Mp, Mm = M.copy(), M.copy()
                Mp[i, j] += h
                Mm[i, j] -= h
                lp = attention.attention_loss_and_grad(Mp, V, Y)[0] if first else attention.attention_loss_and_grad(W, Mp, Y)[0]
                lm = attention.attention_loss_and_grad(Mm, V, Y)[0] if first else attention.attention_loss_and_grad(W, Mm, Y)[0]
                num[i, j] = (lp - lm) / (2 * h)
        np.testing.assert_allclose(g, num, rtol=1e-5, atol=1e-8)


def test_small_training_converges_to_theorem():
    T = 10
    pr = dynamics.DiagonalLDSPrior(2, 0.95, 1.0, 0.5, 0.3)
    w = lds.wqk_star(T, pr).value
    r = training.train_linear_attention(T, 1, pr, steps=1500, batch=400, seed=0)
    C = attention.effective_coefficients(r.W_QK, r.W_V)[:, :, 0]
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
    r = training.train_linear_attention(8, s, dynamics.make_prior("a", d=2), steps=20, batch=50, seed=1, support=(mq, mv))
    assert np.all(r.W_QK[~mq] == 0) and np.all(r.W_V[~mv] == 0)


# ----------------------------------------------------------------------------- misc
def test_jaccard_and_support():
    assert lds.jaccard_distance([1, 0, 1], [1, 0, 1]) == 0.0
    sv, sw = lds.predicted_support(2)
    assert sv.tolist() == [True, False, True]
    assert sw.tolist() == [[True, False], [False, True], [True, False]]


def test_pcg_reconstruction_exact():
    rng = np.random.default_rng(9)
    Y = dynamics.make_prior("b").sample(rng, 100).simulate(20, rng)
    W, V = rng.standard_normal((2, 5, 5))
    q = lds.pcg_quantities(W, V, Y)
    np.testing.assert_allclose(q["pred_att"], attention.attention_predict(W, V, Y), rtol=1e-9, atol=1e-9)


def test_closed_loop_radius_below_one():
    sysm = dynamics.make_prior("d").sample(np.random.default_rng(0), 50)
    assert np.all(lds.steady_state_closed_loop_radius(sysm) < 1)


@pytest.mark.parametrize("call, match", [
    (lambda: dynamics.DiagonalLDSPrior(0, 0.5, 1, 1, 1), "d must be"),
    (lambda: dynamics.DiagonalLDSPrior(2, 1.5, 1, 1, 1), "a_max must be"),
    (lambda: dynamics.DiagonalLDSPrior(2, 0.5, -1, 1, 1), "sigma0 must be"),
    (lambda: dynamics.make_prior("e"), "setting must be"),
    (lambda: lds.wqk_star(2, PR1), "T must be"),
    (lambda: lds.wqk_star(10, "prior"), "prior must be"),
    (lambda: lds.wqk_star(10, PR1, rtol=0), "rtol must be"),
    (lambda: lds.wqk_star(10, dynamics.make_prior("b"), method="polynomial"), "needs a DiagonalLDSPrior"),
    (lambda: lds.simulate_wqk_star(10, PR1, 1, 0), "samples must be"),
    (lambda: training.train_linear_attention(10, 0, PR1, 10, 10, 0), "s must be"),
    (lambda: training.train_linear_attention(10, 1, PR1, 10, 10, 0, lr=-1), "lr must be"),
    (lambda: attention.attention_predict(np.eye(2), np.eye(3), np.ones((1, 8))), "W_V must have"),
    (lambda: attention.attention_predict(np.eye(2), np.eye(2), np.ones((1, 3))), "Y must have"),
    (lambda: attention.attention_predict(np.eye(2), np.eye(2), np.full((1, 8), np.nan)), "Y must be finite"),
    (lambda: attention.token_matrix(np.ones(6), 0), "s must be"),
    (lambda: dynamics.AnisotropicNoiseLDSPrior(2, 0.5, 1, 1, 1, Sigma_w=-np.eye(2)), "Sigma_w must be"),
    (lambda: lds.parity_zero_pattern(0), "s must be"),
    (lambda: lds.wqk_star(6, dynamics.DiagonalLDSPrior(2, 0.5, 0.0, 0.0, 0.0)), "0/0"),
    (lambda: lds.wqk_star(6, dynamics.make_prior("b", d=2, sigma0=0.0, sigma_w=0.0, sigma_v=0.0), n_systems=10), "0/0"),
    (lambda: lds.simulate_wqk_star(6, dynamics.DiagonalLDSPrior(2, 0.5, 0.0, 0.0, 0.0), 10, 0), "y = 0"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_realisable_coefficients_have_indefinite_rank2_blocks():
    """S_j = (v w^T + w v^T)/2 never has two eigenvalues of the same sign (basis of 001-ar2-constrained-optimum)."""
    rng = np.random.default_rng(12)
    for _ in range(20):
        s = 3
        W, V = rng.standard_normal((2, s + 1, s + 1))
        C = attention.effective_coefficients(W, V)
        for j in range(s):
            S = np.triu(C[:, :, j], 1) / 2
            S = S + S.T + np.diag(np.diag(C[:, :, j]))
            ev = np.linalg.eigvalsh(S)
            tol = 1e-10 * np.abs(ev).max()
            assert np.sum(ev > tol) <= 1 and np.sum(ev < -tol) <= 1


# ----------------------------------------------------------------------------- helpers added for the claims
def test_one_sided_prior_and_exact_components():
    """The control prior's exact prior average (Gauss-Legendre on [0, a_max]) equals Rao-Blackwell over samples."""
    pr = dynamics.OneSidedDiagonalLDSPrior(2, 0.9, 1.0, 0.5, 0.4)
    assert pr.eigenvalue_interval == (0.0, 0.9) and not pr.central_symmetric
    assert dynamics.make_prior("a").central_symmetric
    ex = lds.wqk_star(8, pr)
    rb = lds.wqk_star(8, pr, method="rao-blackwell", n_systems=20_000, seed=4)
    assert ex.method == "exact-components" and abs(ex.value - rb.value) < 4 * rb.se
    R = lds.stationarity_moments(12, 2, pr)["R"]
    z = lds.parity_zero_pattern(2)
    assert np.abs(R[z]).min() > 1e-3 * np.abs(R).max()           # no parity zeros without central symmetry


def test_antithetic_family_kills_odd_moments_and_systems_argument():
    pr = dynamics.make_prior("b", d=3)
    sysm = pr.sample(np.random.default_rng(0), 30)
    assert len(sysm.subset(slice(5, 12))) == 7
    m = lds.stationarity_moments(12, 2, pr, systems=sysm, antithetic=True)
    z = lds.parity_zero_pattern(2)
    assert np.abs(m["R"][z]).max() <= 1e-13 * np.abs(m["R"]).max() and m["n_systems"] == 60
    one_sided = lds.stationarity_moments(12, 2, pr, systems=sysm)
    assert np.abs(one_sided["R"][z]).max() > 1e-6 * np.abs(one_sided["R"]).max()
    # the same family by hand
    Rp = lds.stationarity_rhs(sysm.autocovariance(12), 2).mean(0)
    Rm = lds.stationarity_rhs(sysm.negate().autocovariance(12), 2).mean(0)
    np.testing.assert_allclose(m["R"], 0.5 * (Rp + Rm), rtol=1e-10, atol=1e-14)


def test_rao_blackwell_batch_ratios():
    w = lds.wqk_star(10, dynamics.make_prior("d", d=2), method="rao-blackwell", n_systems=4000, batch=500, seed=3)
    b = np.asarray(w.extra["batch_ratios"])
    assert b.size == 8 and abs(b.mean() - w.value) < 5 * b.std(ddof=1) / math.sqrt(b.size)


def test_exact_loss_gradient_and_gd_helpers():
    """Exact population loss vs Monte Carlo of the model; analytic gradient vs central differences;
    the GD weights predict exactly one GD step."""
    T, s = 10, 2
    pr = dynamics.make_prior("a", d=2)
    mom = lds.stationarity_moments(T, s, pr, gram=True)
    rng = np.random.default_rng(5)
    W, V = 0.4 * rng.standard_normal((2, s + 1, s + 1))
    Y = pr.sample(rng, 200_000).simulate(T, rng)
    e = 0.5 * (attention.attention_predict(W, V, Y) - Y[:, -1]) ** 2
    assert abs(e.mean() - lds.exact_halved_loss(W, V, mom)) < 5 * e.std() / math.sqrt(e.size)
    gW, gV = lds.exact_loss_gradient(W, V, mom)
    h = 1e-6
    for M, g, first in ((W, gW, True), (V, gV, False)):
        for i, j in [(0, 0), (1, 2), (2, 1), (2, 2)]:
            Mp, Mm = M.copy(), M.copy()
            Mp[i, j] += h
            Mm[i, j] -= h
            f = (lambda X: lds.exact_halved_loss(X, V, mom)) if first else (lambda X: lds.exact_halved_loss(W, X, mom))
            assert math.isclose((f(Mp) - f(Mm)) / (2 * h), g[i, j], rel_tol=1e-5, abs_tol=1e-9)
    eta, L = lds.best_gd_step(s, mom)
    Wg, Vg = lds.gd_step_weights(s, eta)
    np.testing.assert_allclose(attention.attention_predict(Wg, Vg, Y[:50]), lds.ar_gd_step_prediction(Y[:50], s, eta), rtol=1e-12)
    assert math.isclose(L, lds.exact_halved_loss(Wg, Vg, mom), rel_tol=1e-14)
    assert all(lds.exact_halved_loss(*lds.gd_step_weights(s, eta * f), mom) > L for f in (0.9, 1.1))


def test_coefficient_inertia_known_answer():
    F = [(1, 1, 1), (1, 2, 1), (2, 2, 1)]
    inert = lds.coefficient_inertia(np.array([1.0, 0.0, 1.0]), F, 1)      # S = I: two positive eigenvalues
    assert (inert[1]["n_pos"], inert[1]["n_neg"]) == (2, 0)
    inert = lds.coefficient_inertia(np.array([0.0, 2.0, 0.0]), F, 1)      # S = [[0,1],[1,0]]: +1, -1
    assert (inert[1]["n_pos"], inert[1]["n_neg"]) == (1, 1)


def test_support_jaccard_and_offpattern_energy():
    s = 3
    for k0 in (0, 1):
        sv, sw = lds.predicted_support(s, k0)
        W = np.zeros((s + 1, s + 1))
        W[:, :s] = sw * 2.0
        V = np.zeros((s + 1, s + 1))
        V[s] = sv
        assert lds.support_jaccard(W, V, 0.1) == {"distance": 0.0, "k0_parity": k0}
        assert lds.offpattern_energy(W, V) == 0.0
        W2 = W.copy()
        W2[~np.pad(sw, ((0, 0), (0, 1)))] = 1.0                   # fill every off-support entry of W_QK[:, :s]
        assert lds.support_jaccard(W2, V, 0.1)["distance"] > 0 and lds.offpattern_energy(W2, V) > 0
    with pytest.raises(ValueError, match="threshold must be"):
        lds.support_jaccard(np.eye(3), np.eye(3), 1.5)


def test_decay_exponents_known_answer():
    """Synthetic gaps c·rho^(2s) give kappa = 1 exactly; rho^(4s) gives 2; too few points give NaN."""
    sv = np.arange(1, 13)
    rho = np.array([0.8, 0.5, 0.05])
    kf = np.ones(3)
    gaps = np.stack([3.0 * rho[0] ** (2 * sv), 0.2 * rho[1] ** (4 * sv), rho[2] ** (2 * sv)])
    k = lds.decay_exponents(gaps, sv, rho, kf, rel_floor=1e-10)
    assert math.isclose(k[0], 1.0, rel_tol=1e-10) and math.isclose(k[1], 2.0, rel_tol=1e-10) and np.isnan(k[2])


def test_ar_gaps_are_nonnegative_and_vanish_at_full_window():
    sysm = dynamics.make_prior("c", d=3).sample(np.random.default_rng(2), 20)
    kf, gaps = lds.ar_gaps(sysm, 12, [1, 3, 11])
    assert np.all(gaps >= -1e-12) and np.max(np.abs(gaps[:, -1])) < 1e-10 and np.all(np.diff(gaps, axis=1) <= 1e-12)


def test_pcg_init_q_known_answer():
    """With symmetric positive definite P and q equal to the first preconditioned residual, the 'q' variant is
    standard PCG; for s = 1 both reach the 1-D least-squares solution."""
    rng = np.random.default_rng(8)
    Y = dynamics.make_prior("a").sample(rng, 40).simulate(16, rng)
    s = 3
    A = rng.standard_normal((s, s))
    P = A @ A.T + s * np.eye(s)
    W = np.zeros((s + 1, s + 1))
    W[:s, :s] = P.T
    V = np.zeros((s + 1, s + 1))
    std = lds.pcg_quantities(W, V, Y)
    for b in range(3):                                        # q must be a single vector: one prompt at a time
        V[s, :s] = std["w_pcg1"][b] / np.linalg.norm(std["w_pcg1"][b])
        qv = lds.pcg_quantities(W, V, Y[b:b + 1], init="q")
        np.testing.assert_allclose(qv["w_pcg"][0], std["w_pcg"][b], rtol=1e-8, atol=1e-12)
    W1 = rng.standard_normal((2, 2))
    for init in ("residual", "q"):
        q1 = lds.pcg_quantities(W1, np.array([[0.0, 0.0], [0.7, 0.2]]), Y, init=init)
        np.testing.assert_allclose(q1["w_pcg"][:, 0], -q1["g0"][:, 0] / q1["H"][:, 0, 0], rtol=1e-9)
    with pytest.raises(ValueError, match="init must be"):
        lds.pcg_quantities(W1, W1, Y, init="zero")


@pytest.mark.parametrize("call, match", [
    (lambda: lds.feature_vector(np.zeros((3, 3)), [(1, 1, 1)]), "C must have shape"),
    (lambda: lds.feature_vector(np.zeros((2, 2, 1)), [(1, 3, 1)]), "features must be"),
    (lambda: lds.exact_halved_loss(np.eye(2), np.eye(2), {"gram": 1}), "moments must be"),
    (lambda: lds.gd_step_weights(2, float("nan")), "eta must be"),
    (lambda: lds.coefficient_inertia([1.0, 2.0], [(1, 1, 1), (1, 2, 1), (2, 2, 1)], 1), "c must have"),
    (lambda: lds.decay_exponents(np.ones((2, 3)), [1, 2], [0.5, 0.5], [1, 1]), "gaps must be"),
])
def test_bad_input_helpers(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_family_level_monte_carlo_helpers():
    """On a fixed family of systems, the simulated best scalar estimates (T-2) sum N / sum D of that family, and the
    simulated second moments estimate each system's autocovariance (batch means, two-sided 1e-3)."""
    T = 8
    fam = dynamics.make_prior("d", d=2).sample(np.random.default_rng(6), 200)
    N, D = lds.wqk_star_moments(fam.autocovariance(T))
    mc = lds.wqk_star_batch_mc(T, dynamics.make_prior("d", d=2), 30, 2, 7, systems=fam)
    assert mc["n"] == 30 * 200
    b = mc["batch_values"]
    t = (mc["value"] - (T - 2) * N.sum() / D.sum()) / (b.std(ddof=1) / math.sqrt(b.size))
    assert 2 * stats.t.sf(abs(t), b.size - 1) > 1e-3
    ac = lds.autocovariance_batch_mc(fam.subset(slice(0, 2)), T, [(7, 8), (8, 8)], 30, 500, 8)
    z = (ac["batch_values"].mean(0) - ac["exact"]) / (ac["batch_values"].std(0, ddof=1) / math.sqrt(30))
    assert np.all(2 * stats.t.sf(np.abs(z), 29) > 1e-3 / z.size), z


def test_wqk_star_batch_mc_validation():
    with pytest.raises(ValueError, match="n_batches must be"):
        lds.wqk_star_batch_mc(6, PR1, 1, 100, 0)
    with pytest.raises(ValueError, match="prior must be"):
        lds.wqk_star_batch_mc(6, "a", 4, 100, 0)
    with pytest.raises(ValueError, match="systems must be"):
        lds.stationarity_moments(8, 1, PR1, method="rao-blackwell", systems="x")
    with pytest.raises(ValueError, match="systems must be"):
        lds.wqk_star_batch_mc(6, PR1, 4, 100, 0, systems=np.eye(2))
    with pytest.raises(ValueError, match="per_batch must be"):
        lds.autocovariance_batch_mc(PR1.sample(np.random.default_rng(0), 2), 6, [(1, 1)], 4, 1, 0)
