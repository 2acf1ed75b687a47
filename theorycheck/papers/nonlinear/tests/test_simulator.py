"""The simulator of paper 004's actual predictor (:mod:`theorycheck.papers.nonlinear.theory`) and the models it
runs on (:mod:`theorycheck.models`): samplers and laws, the ridge solvers, resource guards and the reliability of the
area. Monte Carlo comparisons are Student t at a stated α (df from the number of independent trials or samples).

Oracles: the exact finite-ℓ moments of Appendix B; brute-force context construction against the projected sampler;
explicit features against the factored solver; a duplicated-row design for the singular-kernel fallback.
"""
import math
import time

import numpy as np
import pytest
import sympy as sp
from scipy import integrate, stats

from theorycheck.models.attention import reduced_features
from theorycheck.models.prompts import context_statistics, draw_inputs, draw_noise, draw_tasks
from theorycheck.models.ridge import fit_prefixes, fit_prefixes_factored
from theorycheck.selftest import reliability as R
from theorycheck.verdicts import Estimate, rules, selfcheck

from .. import theory as nl

G = nl.G
RHO = 0.1

# ----------------------------------------------------------------------------------- simulator
def test_context_statistics_projected_equals_direct_in_law():
    """Both samplers against the exact finite-ℓ moments (one joint Hotelling test each, α = 1e-3)."""
    for method, seed in (("direct", 11), ("projected", 12)):
        names, smp, exact = nl.appendix_b_samples("sin", 8, 3.0, RHO, 6000, np.random.default_rng(seed), method=method)
        chk = selfcheck.components(method, smp.mean(0), exact, np.cov(smp.T) / smp.shape[0], n=smp.shape[0],
                                   df=smp.shape[0] - 1)
        assert chk.p_value > 1e-3, (method, chk.details)


def test_appendix_b_exact_values_linear_teacher():
    """Known answers for f = g, ρ = 0: a₁ = 1, ρ_f = 1, μ₂₂ = E g⁴ = 3, μ₃₁ = 3, μ₄ = 3."""
    m = nl.label_moments("linear", 0.0)
    assert (m["a1"], m["rho_f"], m["mu22"], m["mu31"], m["mu4"]) == (1.0, 1.0, 3.0, 3.0, 3.0)
    names, smp, exact = nl.appendix_b_samples("linear", 4, 2.0, 0.0, 3, np.random.default_rng(0))
    # ℓ = 8, αd = 8: E[(wᵀu)²]/d² = ρ_f/(αd) + a₁² + (μ₂₂ − ρ_f − a₁²)/(αd) = 1/8 + 1 + 1/8
    assert exact[names.index("E[(wᵀu)²]/d² (a₁² + O(1/ℓ))")] == pytest.approx(1.25)
    assert exact[names.index("E[s²|w] (ρ_f² + O(1/ℓ))")] == pytest.approx(1 + 2 / 8)
    with pytest.raises(ValueError, match="method"):
        nl.appendix_b_samples("linear", 4, 2.0, 0.0, 3, np.random.default_rng(0), method="x")


def test_rao_blackwell_query_error():
    """E_x[(f(xᵀw) + ε − xᵀv)²] = E_t[(f(t) − βt)²] + ρ + |P⊥v|²/d: two Monte Carlo routes, Welch t at α = 1e-4."""
    rng = np.random.default_rng(5)
    d = 10
    w, v = rng.standard_normal(d), rng.standard_normal(d) * 0.5
    _, fn = nl.teacher("tanh")
    X = rng.standard_normal((400000, d)) / math.sqrt(d)
    naive = Estimate.from_samples((fn(X @ w) + math.sqrt(RHO) * rng.standard_normal(X.shape[0]) - X @ v) ** 2)
    nw2 = w @ w
    beta = w @ v / nw2
    t = rng.standard_normal(400000) * math.sqrt(nw2 / d)
    rb = Estimate.from_samples((fn(t) - beta * t) ** 2 + RHO + (v @ v - beta ** 2 * nw2) / d)
    diff = Estimate.difference(naive, rb)
    assert abs(diff.mean) < stats.t.isf(1e-4 / 2, diff.df) * diff.se, (naive, rb)


def test_simulation_reproducible_and_seed_sensitive():
    a = nl.simulate_icl("sin", 8, 2, 2, 2.0, RHO, trials=2, seed=4, n_test=200)
    b = nl.simulate_icl("sin", 8, 2, 2, 2.0, RHO, trials=2, seed=4, n_test=200)
    c = nl.simulate_icl("sin", 8, 2, 2, 2.0, RHO, trials=2, seed=5, n_test=200)
    assert a.mean == b.mean and a.se == b.se and a.mean != c.mean


def test_simulation_trend_to_theory_linear_teacher():
    """Linear teacher, κ = ∞, α = 2, τ = 3 over d = 8..24: the engine's asymptotic rule (both declared
    finite-size laws, Student t with the smallest per-size df) must not reject the linear ICL formula at
    α = 1e-3, and the finite-d excess shrinks from the smallest to the largest d by more than 3 SEs."""
    ds, means, ses, dfs = [], [], [], []
    for d, T in ((8, 24), (12, 16), (16, 12), (24, 8)):
        e = nl.simulate_icl_sweep("linear", d, 2.0, math.inf, [3.0], RHO, trials=T, seed=100 + d, n_test=600).estimate(0)
        ds.append(d), means.append(e.mean), ses.append(e.se), dfs.append(e.df)
    th = nl.e_icl_linear(3.0, 2.0, math.inf, RHO)
    s = rules.asymptotic("linear teacher → e_lin", ds, means, ses, th, margin=0.05, relative=True, dfs=dfs)
    assert s.p_value["against"] > 1e-3, s.details["laws"]
    assert means[0] - means[-1] > 3 * math.hypot(ses[0], ses[-1])


def test_task_laws():
    """Gaussian tasks: E‖w‖²/d = 1 (Student t); normalised tasks: ‖w‖² = d exactly; C scales coordinates."""
    rng = np.random.default_rng(2)
    W = draw_tasks(rng, 4000, 16, None, False)
    est = Estimate.from_samples(np.sum(W * W, axis=1) / 16)
    assert abs(est.mean - 1.0) < stats.t.isf(5e-4, est.df) * est.se
    Wn = draw_tasks(rng, 50, 16, None, True)
    assert np.allclose(np.sum(Wn * Wn, axis=1), 16.0, rtol=1e-13)
    c = np.r_[np.full(4, 2.0), np.zeros(12)]
    assert np.all(draw_tasks(rng, 10, 16, c, False)[:, 4:] == 0)


def test_simresult_statistics_are_student_t_over_trials():
    r = nl.simulate_icl_sweep("sin", 8, 2, 2, [0.5, 2.0], RHO, trials=5, seed=3, n_test=100)
    assert r.df == 4
    assert np.allclose(r.se, r.trial_means.std(axis=0, ddof=1) / math.sqrt(5))
    e = r.estimate(1)
    assert e.mean == pytest.approx(r.mean[1]) and e.se == pytest.approx(r.se[1]) and e.df == 4
    one = nl.simulate_icl_sweep("sin", 8, 2, 2, [2.0], RHO, trials=1, seed=3, n_test=100)
    assert np.isnan(one.se[0]) and one.df == 0


def test_label_rescaling_equivariance_is_exact_above_threshold():
    """n > p: labels ÷ a₁ (noise ρ/a₁²) gives exactly the MSE ÷ a₁² trial by trial (same random numbers)."""
    a1 = math.exp(-0.5)
    kw = dict(trials=2, seed=4, n_test=100)
    a = nl.simulate_icl_sweep("sin", 6, 2.0, 2.0, [2.0, 3.0], RHO, **kw)
    b = nl.simulate_icl_sweep(sp.sin(G) / sp.exp(-sp.S.Half), 6, 2.0, 2.0, [2.0, 3.0], RHO / a1 ** 2, **kw)
    assert np.allclose(b.trial_means * a1 ** 2, a.trial_means, rtol=1e-8, atol=0)


def test_fit_prefixes_shared_kernel_equals_separate_solves():
    rng = np.random.default_rng(5)
    X, y = rng.standard_normal((60, 20)), rng.standard_normal(60)
    ns = [5, 12, 20, 33, 60]
    for lam in (0.0, 0.2):
        for n, g_ in zip(ns, fit_prefixes(X, y, ns, 4, lam)):
            ref = np.linalg.pinv(X[:n]) @ y[:n] if lam == 0 else np.linalg.solve(
                (n / 4) * lam * np.eye(20) + X[:n].T @ X[:n], X[:n].T @ y[:n])
            assert np.allclose(g_, ref, rtol=1e-8, atol=1e-10)
    with pytest.raises(ValueError, match="ascending"):
        fit_prefixes(X, y, [12, 5], 4, 0.0)
    with pytest.raises(ValueError, match="lam"):
        fit_prefixes(X, y, [5], 4, -1.0)


def test_helpers_known_answers():
    e, r = nl.surrogate_teacher("sin", RHO)
    assert abs(float(e.coeff(G)) - math.exp(-0.5)) < 1e-15 and r == pytest.approx(0.164452917210251, abs=1e-14)
    # rank-1 floor by direct quadrature: σ = |z|, z ~ N(0, 1), of the inner closed forms
    def inner(z):
        return (0.5 * (1 - math.exp(-2 * z * z)) - z * z * math.exp(-z * z)) * math.exp(-z * z / 2) / math.sqrt(2 * math.pi)
    q = integrate.quad(inner, -np.inf, np.inf, epsabs=1e-13)[0]
    assert nl.rank_floor_sin(1, RHO) == pytest.approx(RHO + q, abs=1e-12)
    est = Estimate.from_samples(nl.rank_floor_samples("sin", 4, RHO, 20000, np.random.default_rng(1)))
    assert abs(est.mean - nl.rank_floor_sin(4, RHO)) < 4.5 * est.se
    with pytest.raises(ValueError, match="r must"):
        nl.rank_floor_sin(0, RHO)


def test_sweep_prefix_matches_single_tau():
    """The τ's of one sweep share a training set: the τ = 2 point of a two-τ sweep equals a one-τ run with
    the same seed (same n_max, so the same draws)."""
    s = nl.simulate_icl_sweep("sin", 8, 2, 2, [0.5, 2.0], RHO, trials=2, seed=9, n_test=300)
    one = nl.simulate_icl_sweep("sin", 8, 2, 2, [2.0], RHO, trials=2, seed=9, n_test=300)
    assert s.mean.shape == (2,) and np.all(s.mean > RHO)
    assert np.allclose(s.trial_means[:, 1], one.trial_means[:, 0], rtol=1e-10)


# ----------------------------------------------------------------------------------- round 2: solver, sampler, laws
@pytest.mark.parametrize("lam", [0.0, 0.25])
def test_factored_fit_equals_design_matrix_fit(lam):
    """Hadamard dual kernel, one shared Cholesky factor, unique-product primal Gram: the same solutions as
    fit_prefixes on the explicit features (dual and primal prefixes, and a duplicated-row design whose kernel is
    singular, which takes the fallback route)."""
    rng = np.random.default_rng(3)
    d = 5
    for n, ns in ((70, [10, 29, 30, 31, 70]), (40, [40])):
        x, U, S, y = (rng.standard_normal((n, d)), rng.standard_normal((n, d)), rng.standard_normal(n),
                      rng.standard_normal(n))
        H = reduced_features(x, U, S)
        a = fit_prefixes_factored(x, np.column_stack([U, S]), y, ns, d, lam)
        b = fit_prefixes(H, y, ns, d, lam)
        for u, v in zip(a, b):
            assert np.allclose(u, v, rtol=1e-8, atol=1e-10)
    x = np.repeat(rng.standard_normal((6, d)), 2, axis=0)          # duplicated rows: singular kernel
    Z = np.repeat(rng.standard_normal((6, d + 1)), 2, axis=0)
    y = np.repeat(rng.standard_normal(6), 2)
    H = (x[:, :, None] * Z[:, None, :]).reshape(12, -1)
    got = fit_prefixes_factored(x, Z, y, [12], d, lam)[0]
    want = np.linalg.pinv(H) @ y if lam == 0 else np.linalg.solve((12 / d) * lam * np.eye(H.shape[1]) + H.T @ H,
                                                                  H.T @ y)
    assert np.allclose(H @ got, H @ want, atol=1e-8) and np.allclose(got, want, atol=1e-6)


@pytest.mark.parametrize("f", ["linear", "sin"])
@pytest.mark.parametrize("ell", [1, 2, 5])
def test_projected_sampler_noise_statistics_match_direct(f, ell):
    """The projected sampler draws the label noise through its sufficient statistics (two normals and a
    χ²_{ℓ−2}); the joint law of (s, ŵᵀu, s², (ŵᵀu)², s·ŵᵀu) must equal the direct sampler's (one Hotelling test,
    α = 1e-4; f = g makes span{t, f(t)} one-dimensional, ℓ = 1, 2 are the edge cases)."""
    _, fn = nl.teacher(f)
    d, n = 6, 40000
    w = np.random.default_rng(0).standard_normal(d)
    w *= math.sqrt(d) / np.linalg.norm(w)
    W = np.tile(w, (n, 1))
    feats = []
    for method, seed in (("projected", 1), ("direct", 2)):
        U, S = context_statistics(fn, W, ell, 0.3, np.random.default_rng(seed), method)
        p = U @ w / math.sqrt(d)
        feats.append(np.column_stack([S, p, S * S, p * p, S * p]))
    a, b = feats
    diff = a.mean(0) - b.mean(0)
    cov = np.cov(a.T) / n + np.cov(b.T) / n
    t2 = float(diff @ np.linalg.solve(cov, diff))
    assert stats.chi2.sf(t2, diff.size) > 1e-4, (diff, t2)


def test_input_and_noise_laws():
    """Unit-variance Student-t laws; ν = ∞ is the Gaussian drawn through the same code (identical standard-normal
    stream); elliptical inputs make xᵀw heavy-tailed even at large d, independent coordinates do not."""
    d, n = 64, 40000
    for law in (("iid-t", 5.0), ("elliptical-t", 5.0)):
        x = draw_inputs(np.random.default_rng(1), (n,), d, law, np.random.default_rng(2))
        assert abs(np.mean(np.sum(x * x, axis=1)) - 1.0) < 0.03                  # E‖x‖² = tr(I/d) = 1
    w = np.ones(d)
    k_iid = stats.kurtosis(draw_inputs(np.random.default_rng(1), (n,), d, ("iid-t", 5.0), np.random.default_rng(2)) @ w)
    k_ell = stats.kurtosis(draw_inputs(np.random.default_rng(1), (n,), d, ("elliptical-t", 5.0),
                                       np.random.default_rng(2)) @ w)
    assert abs(k_iid) < 0.5 and k_ell > 2.0                                      # t₅: excess kurtosis 6
    g = draw_inputs(np.random.default_rng(4), (3,), d)
    assert np.array_equal(draw_inputs(np.random.default_rng(4), (3,), d, ("iid-t", math.inf), np.random.default_rng(9)), g)
    e = draw_noise(np.random.default_rng(5), 200000, 0.3, ("t", 4.5), np.random.default_rng(6))
    assert abs(e.var() - 0.3) < 0.03
    with pytest.raises(ValueError, match="nu"):
        draw_inputs(np.random.default_rng(0), (2,), 3, ("iid-t", 2.0))
    with pytest.raises(ValueError, match="kind"):
        draw_inputs(np.random.default_rng(0), (2,), 3, ("cauchy", 5.0))


def test_stress_laws_are_coupled_to_their_baseline():
    """A law with ν → ∞ reproduces its ν = ∞ baseline trial by trial (shared standard-normal streams): the
    stress paths' paired differences are exactly 0 at the anchor and small near it."""
    base = nl.simulate_icl_sweep("sin", 6, 2, 2, [1.5], RHO, trials=3, seed=3, n_test=50, input_law=("iid-t", math.inf))
    near = nl.simulate_icl_sweep("sin", 6, 2, 2, [1.5], RHO, trials=3, seed=3, n_test=50, input_law=("iid-t", 1e9))
    assert np.allclose(base.trial_means, near.trial_means, rtol=2e-3)          # scales 1 ± O(ν^-1/2)
    nb = nl.simulate_icl_sweep("sin", 6, 2, 2, [1.5], RHO, trials=3, seed=3, n_test=50, noise_law=("t", math.inf))
    nn = nl.simulate_icl_sweep("sin", 6, 2, 2, [1.5], RHO, trials=3, seed=3, n_test=50, noise_law=("t", 1e9))
    assert np.allclose(nb.trial_means, nn.trial_means, rtol=2e-3)
    with pytest.raises(ValueError, match="input_law"):
        nl.simulate_icl_sweep("sin", 6, 2, 2, [1.5], RHO, input_law=("iid-t", 1.5))


def test_resource_guards_refuse_instantly_and_name_the_parameter():
    cases = [(dict(n_test=10 ** 10), "n_test"), (dict(tau=3000.0, d=64), "tau"), (dict(d=400), "d = 400"),
             (dict(trials=10 ** 9), "trials"), (dict(tau=1e300), "tau"), (dict(alpha=1e300), "alpha")]
    for kw, name in cases:
        args = dict(f="sin", d=8, alpha=2.0, kappa=2.0, tau=2.0, rho=0.1, trials=2, seed=0, n_test=100)
        args.update(kw)
        t0 = time.perf_counter()
        with pytest.raises(ValueError, match=name) as exc:
            nl.simulate_icl(**args)
        assert time.perf_counter() - t0 < 0.5, kw
        assert "n_max" not in str(exc.value) and "* p" not in str(exc.value)      # the user's parameters, not internals
    with pytest.raises(ValueError, match="ell"):
        context_statistics(np.sin, np.ones((2, 3)), 10 ** 10, 0.1, np.random.default_rng(0))
    with pytest.raises(ValueError, match="reps"):
        nl.pure_noise_ridge_samples(1000, 1000, 1.0, 1.0, 0.0, 10 ** 9, np.random.default_rng(0))


def test_reliability_of_the_area_and_its_coverage():
    """Every public function of paper 004's theory and of its models has a baseline, and the fuzz of the
    area finds no failure (no unnamed error, NaN, stray exception, hang or runaway allocation)."""
    mine = [f for f in R.public_functions() if f.startswith("theorycheck.papers.nonlinear.theory.")
            or f in ("theorycheck.models.prompts.draw_tasks", "theorycheck.models.prompts.context_statistics",
                     "theorycheck.models.prompts.draw_inputs", "theorycheck.models.prompts.draw_noise",
                     "theorycheck.models.prompts.t_scales", "theorycheck.models.ridge.fit_prefixes",
                     "theorycheck.models.ridge.fit_prefixes_factored", "theorycheck.models.attention.reduced_features")]
    covered = {b.fn for b in R.baselines(("nonlinear",))}
    assert len(mine) >= 30 and set(mine) <= covered, sorted(set(mine) - covered)
    res = R.fuzz(("nonlinear",), jobs=2)
    assert res["failures"] == [], "\n".join(f"{f['fn']}({f['param']}={f['value']}): {f['class']} {f['detail']}"
                                            for f in res["failures"][:40])
