"""Paper 001: one of each thing — every quantity with several routes has a named reference route, and every other
route (and every hand-written form) is tested against it here; validated-once boundaries of the theory helpers."""
import math

import numpy as np
import pytest
from scipy import stats

from theorycheck.models.attention import attention_predict, effective_coefficients
from theorycheck.models.dynamics import DiagonalLDSPrior, LDSBatch, lds_autocovariance, make_prior
from theorycheck.papers.lds import assumptions
from theorycheck.papers.lds.generated import lds_scalar as gs
from theorycheck.papers.lds.theory import gd, nonnormal, pcg, stationarity, support, wqk
from theorycheck.papers.lds.theory.isserlis import lag1_matrix, wqk_star_moments

PR1 = DiagonalLDSPrior(1, 0.9, 1.0, 0.5, 0.4)


# ----------------------------------------------------------------------------- W*_QK: ROUTES vs REFERENCE_ROUTE
#: a prior each route applies to (the reference applies to all)
_ROUTE_PRIOR = {"polynomial": PR1, "quadrature": PR1, "exact-components": make_prior("b", d=3),
                "coupling-rqmc": make_prior("d", d=3)}


@pytest.mark.parametrize("route", sorted(set(wqk.ROUTES) - {wqk.REFERENCE_ROUTE}))
def test_every_wqk_route_agrees_with_the_reference_route(route):
    """Each route of the table against the reference (Rao-Blackwell average over sampled systems): two-sided
    Student t over the reference's batch ratios (combined with the route's own SE), alpha = 1e-3."""
    assert wqk.REFERENCE_ROUTE == "rao-blackwell" and set(_ROUTE_PRIOR) | {wqk.REFERENCE_ROUTE} == set(wqk.ROUTES)
    T, pr = 10, _ROUTE_PRIOR[route]
    w = wqk.wqk_star(T, pr, method=route)
    ref = wqk.wqk_star(T, pr, method=wqk.REFERENCE_ROUTE, n_systems=40_000, batch=2000, seed=17)
    b = np.asarray(ref.extra["batch_ratios"])
    t = (b.mean() - w.value) / math.hypot(b.std(ddof=1) / math.sqrt(b.size), w.se)
    assert 2 * stats.t.sf(abs(t), b.size - 1) > 1e-3, (route, w.value, b.mean(), t)


def test_wqk_validates_n_systems_once_at_the_boundary():
    with pytest.raises(ValueError, match="n_systems must be"):
        wqk.wqk_star(6, PR1, method="rao-blackwell", n_systems=1)
    with pytest.raises(ValueError, match="n_systems must be >= 4"):
        wqk.wqk_star(6, make_prior("d", d=2), method="coupling-rqmc", n_systems=3)


def test_theorem_feature_is_the_lag_one_statistic():
    Y = np.random.default_rng(0).standard_normal((5, 9))
    S = np.sum(Y[:, :-2] * Y[:, 1:-1], axis=1)
    np.testing.assert_allclose(wqk.theorem_feature(Y), Y[:, -2] * S / (9 - 2), rtol=1e-12)
    W, V = gd.gd_step_weights(1, 1.0)
    assert np.array_equal(W, wqk.THEOREM_WQK_UNIT) and np.array_equal(V, wqk.THEOREM_WV)


# ----------------------------------------------------------------------------- stationarity moments
def test_stationarity_routes_and_the_per_system_rhs():
    """The routes table of stationarity_moments: the per-system right-hand side (stationarity_rhs) averaged over a
    family equals the reference route on that family exactly; the exact route agrees with the reference on sampled
    systems (z-scores, setting (a))."""
    assert stationarity.REFERENCE_ROUTE == "rao-blackwell" and set(stationarity.ROUTES) == {"rao-blackwell",
                                                                                          "exact-components"}
    T, s = 9, 2
    fam = make_prior("c", d=3).sample(np.random.default_rng(1), 40)
    per = stationarity.stationarity_rhs(lds_autocovariance(fam, T), s)
    ref = stationarity.stationarity_moments(T, s, make_prior("c", d=3), systems=fam)
    assert ref["method"] == stationarity.REFERENCE_ROUTE
    np.testing.assert_allclose(ref["R"], per.mean(0), rtol=1e-10, atol=1e-14)
    pr = make_prior("a", d=3)
    ex = stationarity.stationarity_moments(T, s, pr, method="exact-components")
    rb = stationarity.stationarity_moments(T, s, pr, method=stationarity.REFERENCE_ROUTE, n_systems=20_000, seed=4)
    ok = rb["R_se"] > 0
    assert np.max(np.abs((ex["R"] - rb["R"])[ok] / rb["R_se"][ok])) < 4.5


# ----------------------------------------------------------------------------- hand-written Isserlis forms
@pytest.mark.parametrize("T", [5, 12, 30])
def test_written_out_isserlis_forms_equal_the_generated_reference(T):
    """nonnormal._N2 / _D3 (the Isserlis forms written out for the setting-(d) route) on scalar autocovariances equal
    the SymPy-generated polynomials of generated/lds_scalar.py (the reference) and the Isserlis engine; their
    polarisations are the symmetric multilinear forms (checked on sums of PSD matrices)."""
    a = np.array([-0.9, -0.2, 0.5, 0.85])
    K = lds_autocovariance(wqk.scalar_batch(PR1, a), T)
    p = nonnormal._Prep(K, lag1_matrix(T), T)
    Np, Dp = wqk.poly_eval_moments(gs.POLY[T], a, PR1.sigma0, PR1.sigma_w, PR1.sigma_v)
    np.testing.assert_allclose(nonnormal._N2(p, p), Np, rtol=1e-11)
    np.testing.assert_allclose(nonnormal._D3(p, p, p), Dp, rtol=1e-11)
    N, D = wqk_star_moments(K)
    np.testing.assert_allclose(nonnormal._N2(p, p), N, rtol=1e-12)
    X, Y = K[:2], K[2:]                       # bilinear / trilinear by polarisation of the engine's N, D
    px, py = (nonnormal._Prep(Z, lag1_matrix(T), T) for Z in (X, Y))
    Nxy = (wqk_star_moments(X + Y)[0] - wqk_star_moments(X)[0] - wqk_star_moments(Y)[0]) / 2
    np.testing.assert_allclose(nonnormal._N2(px, py), Nxy, rtol=1e-9)
    Dxxy = (wqk_star_moments(2 * X + Y)[1] - wqk_star_moments(2 * X)[1] - 2 * wqk_star_moments(X + Y)[1]
            + 2 * wqk_star_moments(X)[1] + wqk_star_moments(Y)[1]) / 6
    np.testing.assert_allclose(nonnormal._D3(px, px, py), Dxxy, rtol=1e-8)


def test_pairwise_components_rebuild_the_autocovariance_of_setting_d():
    """K = σ_v²I + Σ_k C_kk Φ(a_k, a_k) + Σ_{k<l} C_kl S(a_k, a_l) (nonnormal._pair_autocov, the reference of the
    pair components; _sym_pair, _diag_pair and _half_pair are checked against it in their doctests and here) equals
    lds_autocovariance of A = P⁻¹diag(a)P."""
    T, d = 7, 3
    pr = make_prior("d", d=d)
    a = np.array([0.8, -0.5, 0.3])
    U = np.random.default_rng(2).uniform(size=(1, d * (d - 1) // 2))
    iu = np.triu_indices(d, 1)
    P = np.eye(d)
    P[iu] += pr.coupling * (2 * U[0] - 1)
    A = np.linalg.solve(P, np.diag(a) @ P)
    Kref = lds_autocovariance(LDSBatch(A[None], np.ones((1, d)), pr.sigma_w ** 2 * np.eye(d)[None], pr.sigma0,
                                       pr.sigma_v), T)[0]
    C = nonnormal._coupling_weights(pr, U)[0]
    phi = nonnormal._pair_autocov(a, a, T, pr.sigma0, pr.sigma_w)               # (d, d, T, T)
    K = pr.sigma_v ** 2 * np.eye(T) + sum(C[1 + k] * phi[k, k] for k in range(d))
    K = K + sum(C[1 + d + i] * (phi[k, l] + phi[l, k]) for i, (k, l) in enumerate(zip(*iu)))
    np.testing.assert_allclose(K, Kref, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(nonnormal._diag_pair(a, T, pr.sigma0, pr.sigma_w), phi[np.arange(d), np.arange(d)],
                               rtol=1e-12)
    np.testing.assert_allclose(nonnormal._sym_pair(a, a, T, pr.sigma0, pr.sigma_w), phi + phi.swapaxes(0, 1),
                               rtol=1e-12)


# ----------------------------------------------------------------------------- GD helpers, PCG, supports
def test_gd_helpers_validate_once_and_agree_with_the_definitions():
    m = stationarity.stationarity_moments(8, 2, make_prior("a", d=2), gram=True)
    W, V = np.random.default_rng(3).standard_normal((2, 3, 3))
    c = gd.feature_vector(effective_coefficients(W, V), m["features"])
    L = 0.5 * (m["Eyy"] - 2 * c @ m["b"] + c @ m["gram"] @ c)
    assert gd.exact_halved_loss(W, V, m) == pytest.approx(L, rel=1e-14)
    eta, Lgd = gd.best_gd_step(2, m)
    assert Lgd == pytest.approx(gd.exact_halved_loss(*gd.gd_step_weights(2, eta), m), rel=1e-14)
    with pytest.raises(ValueError, match="moments"):
        gd.exact_halved_loss(W, V, {"features": m["features"]})
    with pytest.raises(ValueError, match="features"):
        gd.exact_halved_loss(W, V, {**m, "features": [(1, 1, 9)] * len(m["features"])})


def test_pcg_from_a_start_point_and_the_span_residuals():
    W, V = np.random.default_rng(4).standard_normal((2, 4, 4))
    Y = np.random.default_rng(5).standard_normal((30, 14))
    q0 = pcg.pcg_quantities(W, V, Y)
    qz = pcg.pcg_quantities(W, V, Y, w0=np.zeros(3))
    np.testing.assert_allclose(qz["w_pcg"], q0["w_pcg"], rtol=1e-12)
    res, coef = pcg.span_residuals(q0)
    assert res.max() < 1e-9 and coef.shape == (30, 2)
    res1, _ = pcg.span_residuals(pcg.pcg_quantities(W, V, Y, w0=np.ones(3)))
    assert np.median(res1) > 1e-3                      # from w0 ≠ 0 the iterate leaves the span
    with pytest.raises(ValueError, match="w0 must have shape"):
        pcg.pcg_quantities(W, V, Y, w0=np.ones(4))
    u = np.random.default_rng(6).standard_normal((7, 3))
    np.testing.assert_allclose(pcg.cosine(u, u), 1.0, rtol=1e-12)
    with pytest.raises(ValueError, match="u and w"):
        pcg.cosine(u, np.ones(4))


def test_support_masks_and_structured_weights():
    for s in (1, 2, 3, 4):
        mq, mv = support.support_masks(s)
        sv, sw = support.predicted_support(s)
        assert mq[:, :s].tolist() == sw.tolist() and mv[s].tolist() == sv.tolist()
        assert not mq[:, s].any() and not mv[:s].any()
        W, V = support.structured_weights(np.random.default_rng(s), s)
        C = np.transpose(effective_coefficients(W, V), (2, 0, 1))
        assert np.all(C[support.parity_zero_pattern(s)] == 0)
        assert support.offpattern_energy(W, V) == 0.0
    with pytest.raises(ValueError, match="rng"):
        support.structured_weights(3, 2)


def test_leaky_attention_at_zero_leak_is_the_model():
    """The stress paths' leaky-mask attention (assumptions._leaky_predict) is the model's forward pass at m = 0."""
    W, V = np.random.default_rng(7).standard_normal((2, 3, 3))
    Y = np.random.default_rng(8).standard_normal((6, 11))
    np.testing.assert_allclose(assumptions._leaky_predict(W, V, Y, 0.0), attention_predict(W, V, Y), rtol=1e-12)
