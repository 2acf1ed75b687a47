"""Paper 001, the theory behind the re-audit of issue 21: exact minimisation of the attention's population loss, the
steady-state Kalman truncation bias, the PCG diagnostics, and the provenance of every parameter."""
import math

import numpy as np
import pytest

from theorycheck.models.attention import effective_coefficients
from theorycheck.models.dynamics import DiagonalLDSPrior, make_prior
from theorycheck.models.filters import steady_state_closed_loop_radius
from theorycheck.papers.lds import assumptions as asm
from theorycheck.papers.lds import settings
from theorycheck.papers.lds.claims._helpers import share_bounds
from theorycheck.papers.lds.theory import kalman, optimum, pcg
from theorycheck.papers.lds.theory.ablation import family_losses, realising_weights
from theorycheck.papers.lds.theory.gd import exact_halved_loss, exact_loss_gradient
from theorycheck.papers.lds.theory.stationarity import stationarity_moments
from theorycheck.papers.lds.theory.support import offpattern_energy


@pytest.fixture(scope="module")
def mom2():
    return stationarity_moments(10, 2, make_prior("a", d=3), gram=True)


# ----------------------------------------------------------------------------- exact optimum
def test_loss_gradient_and_hessian_match_the_definitions(mom2):
    """The vectorised loss and gradient equal exact_halved_loss / exact_loss_gradient (the weights' route); the
    analytic Hessian equals central differences of the gradient."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal(9)
    W, V = optimum.weights_of(x, 2)
    L, g = optimum.loss_and_gradient(x, 2, mom2)
    assert L == pytest.approx(exact_halved_loss(W, V, mom2), rel=1e-12)
    gW, gV = exact_loss_gradient(W, V, mom2)
    np.testing.assert_allclose(g, optimum.point_of(gW, gV), rtol=1e-10, atol=1e-12)
    H = optimum.hessian(x, 2, mom2)
    h = 1e-6
    fd = np.array([(optimum.loss_and_gradient(x + h * e, 2, mom2)[1] - optimum.loss_and_gradient(x - h * e, 2, mom2)[1])
                   / (2 * h) for e in np.eye(9)])
    np.testing.assert_allclose(H, fd, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(H, H.T, atol=1e-12)


def test_ar1_optimum_has_two_branches_with_the_same_loss():
    """s = 1: the global minimum over all weights is the C-space optimum (Theorem 4.1); restricted to each parity
    branch the search finds it too — on the Theorem's branch (v₂W₁₁) and on the swapped one (v₁W₂₁)."""
    m = stationarity_moments(8, 1, DiagonalLDSPrior(2, 0.9, 1.0, 0.5, 0.5), gram=True)
    c = np.linalg.solve(m["gram"], m["b"])
    L_star = 0.5 * (m["Eyy"] - c @ m["b"])
    rng = np.random.default_rng(1)
    free = optimum.minimise(m, 1, 6, rng)
    assert min(p["loss"] for p in free) == pytest.approx(L_star, rel=1e-10)
    for k0, branch in ((0, "theorem"), (1, "swapped")):
        pts = optimum.minimise(m, 1, 3, rng, k0_parity=k0)
        best = min(pts, key=lambda p: p["loss"])
        assert best["loss"] == pytest.approx(L_star, rel=1e-10) and best["branch"] == branch
        assert best["gradient_norm"] < 1e-8 and best["min_hessian"] > 0
        assert optimum.theorem_branch_shares(best["W_QK"], best["W_V"])[0 if branch == "theorem" else 1] == 1.0
        C = effective_coefficients(best["W_QK"], best["W_V"])[:, :, 0]
        np.testing.assert_allclose([C[0, 0], C[0, 1], C[1, 1]], c, rtol=1e-6, atol=1e-9)


def test_ar2_optimum_lies_in_the_structured_class_and_spurious_minima_exist_off_it(mom2):
    pts = optimum.minimise(mom2, 2, 16, np.random.default_rng(2))
    best = min(pts, key=lambda p: p["loss"])
    assert offpattern_energy(best["W_QK"], best["W_V"]) < 1e-9
    struct = min(p["loss"] for k0 in (0, 1) for p in optimum.minimise(mom2, 2, 6, np.random.default_rng(3), k0))
    assert best["loss"] == pytest.approx(struct, rel=1e-9)
    c = np.linalg.solve(mom2["gram"], mom2["b"])
    assert best["loss"] > 0.5 * (mom2["Eyy"] - c @ mom2["b"])            # the C-space optimum is not realisable


def test_optimum_validation():
    with pytest.raises(ValueError, match="x must have shape"):
        optimum.weights_of(np.ones(5), 1)
    with pytest.raises(ValueError, match="rng"):
        optimum.minimise({}, 1, 2, 0)
    with pytest.raises(ValueError, match="moments"):
        optimum.loss_and_gradient(np.ones(4), 1, {"gram": 1})


# ----------------------------------------------------------------------------- steady-state Kalman truncation
@pytest.mark.parametrize("setting", ["a", "b", "c", "d"])
def test_truncation_profile_against_independent_routes(setting):
    """ρ(A − kcᵀ) from SciPy's Riccati solution = the models' iterated Riccati; the truncated predictor's MSE (second
    route) = Kalman MSE + bias variance; excess MSE ≤ bias; both vanish as s grows; the excess at s = 1 equals the
    stationary oracle AR(1) gap."""
    sysm = make_prior(setting, d=3).sample(np.random.default_rng(4), 30)
    sv = [1, 2, 4, 8, 40]
    pr = kalman.truncation_profile(sysm, sv)
    np.testing.assert_allclose(pr["rho_cl"], steady_state_closed_loop_radius(sysm), rtol=1e-9)
    for i, s in enumerate(sv[:3]):
        np.testing.assert_allclose(kalman.truncated_kalman_mse(sysm, s), pr["mse_kf"] + pr["bias"][:, i], rtol=1e-9)
    assert np.all(pr["gaps"] <= pr["bias"] + 1e-12 * pr["mse_kf"][:, None])
    assert np.all(pr["gaps"] >= -1e-12 * pr["mse_kf"][:, None])
    assert np.all(pr["bias"][:, -1] < 1e-6 * pr["mse_kf"])


def test_truncation_profile_requires_a_stationary_law():
    bad = DiagonalLDSPrior(2, 1.0, 1.0, 0.5, 0.5).sample(np.random.default_rng(5), 3)
    bad.A[0, 0, 0] = 1.0
    with pytest.raises(ValueError, match="stable"):
        kalman.truncation_profile(bad, [1])


def test_trivial_predictor_mses_by_simulation():
    """The exact trivial MSEs against simulated trajectories (three-sigma, 200 000 trajectories)."""
    sysm = make_prior("a", d=2).sample(np.random.default_rng(6), 1)
    T = 12
    m = kalman.trivial_predictor_mse(sysm, T)
    rep = sysm.subset(np.zeros(200_000, int))
    Y = rep.simulate(T, np.random.default_rng(7))
    for name, e in (("predict zero", Y[:, -1] ** 2), ("predict the last value", (Y[:, -1] - Y[:, -2]) ** 2)):
        assert abs(e.mean() - m[name][0]) < 4 * e.std() / math.sqrt(e.size), name
    assert m["oracle AR(1) (known system)"][0] <= m["predict zero"][0]


# ----------------------------------------------------------------------------- PCG diagnostics
def test_pcg_diagnostics_against_direct_computations():
    rng = np.random.default_rng(8)
    W, V = rng.standard_normal((2, 4, 4))
    Y = rng.standard_normal((20, 15))
    d = pcg.pcg_diagnostics(W, V, Y)
    q = pcg.pcg_quantities(W, V, Y)
    s, n = 3, 15 - 3 - 1
    for b in range(3):                                 # in-context loss by its definition
        L = 0.5 * np.mean([(Y[b, t + s] - q["w_att"][b] @ Y[b, t:t + s]) ** 2 for t in range(n)])
        assert d["loss_with_p"][b] == pytest.approx(L, rel=1e-10)
    np.testing.assert_allclose(d["cos_att_gd"], pcg.cosine(q["w_att"], -q["g0"]), rtol=1e-12)
    u = np.random.default_rng(9).standard_normal((200_000, 4))
    mc = np.mean(np.abs(u[:, 0]) / np.linalg.norm(u, axis=1))
    assert pcg.random_direction_abs_cosine(4) == pytest.approx(mc, abs=3e-3)
    assert pcg.random_direction_abs_cosine(1) == pytest.approx(1.0)


# ----------------------------------------------------------------------------- provenance
def test_params_declare_what_is_stated_and_what_is_chosen():
    assert settings.T_STATED.provenance == "stated" and settings.T_STATED.value == 30
    assert {p.provenance for p in settings.PRIOR_PARAMS} == {"chosen"}
    names = [p.name for p in settings.recipe_params(settings.config(_Ctx()), "a", 1, 3)]
    assert len(names) == len(set(names)) and "optimiser" in names and "steps" in names
    corners = settings.corner_priors("a")
    assert len(corners) == 16 and len({tuple(sorted(c.items())) for c, _ in corners}) == 16
    box = settings.searched_box()
    assert set(box) == {p.name for p in settings.PRIOR_PARAMS}
    assert settings.seed_line(74).startswith("训练在线生成数据")


class _Ctx:
    quick = False


# ----------------------------------------------------------------------------- the re-audit of issue 29
def test_restricted_families_are_ordered_and_realised(mom2):
    """Dropping feature blocks can only raise the exact best loss; the layer W_V = e e ᵀ with the no-Krylov
    coefficients attains its family's least-squares loss exactly (the families are realisable, not bounds)."""
    f = family_losses(mom2, 2)
    assert f["zero"] > f["scalar_gd"] >= f["preconditioned_gd"] >= f["no_hessian"] >= f["unconstrained"]
    W, V = realising_weights(f["coefficients"]["no_hessian"], mom2["features"], 2)
    assert exact_halved_loss(W, V, mom2) == pytest.approx(f["no_hessian"], rel=1e-10)
    with pytest.raises(ValueError, match="Hessian-block"):
        realising_weights(np.ones(len(mom2["features"])), mom2["features"], 2)


def test_polish_and_exact_adam_descend(mom2):
    """L-BFGS from any point ends at a certified stationary point no worse than the start; Adam on the exact loss
    lowers it (both on the same exact loss as minimise)."""
    rng = np.random.default_rng(3)
    x0 = rng.standard_normal(9) * 0.3
    L0 = optimum.loss_and_gradient(x0, 2, mom2)[0]
    p = optimum.polish(mom2, 2, x0)
    assert p["loss"] <= L0 and p["gradient_norm"] < 1e-6
    best = min(q["loss"] for q in optimum.minimise(mom2, 2, 4, np.random.default_rng(0)))
    assert p["loss"] >= best * (1 - 1e-9)
    x = optimum.adam_on_exact_loss(mom2, 2, x0, 0.01, 200)
    assert optimum.loss_and_gradient(x, 2, mom2)[0] < L0


def test_krylov_share_bounds_bracket_the_point_value():
    """The share of the gain is an interval that shrinks to the point value when the optimum is known exactly."""
    lo, hi = share_bounds((0.99, 1.0), 1.1, 2.0)
    assert 0 <= lo <= (1.1 - 1.0) / (2.0 - 1.0) <= hi
    assert share_bounds((1.0, 1.0), 1.1, 2.0) == pytest.approx(((1.1 - 1) / 1.0, (1.1 - 1) / 1.0))


def test_quick_stress_values_keep_the_ends():
    """Quick stress paths use a sub-list of the paper's values with the same ends (holds, violated)."""
    class Ctx:
        def __init__(self, quick):
            self.quick = quick
    for path in (asm.SKEWS, asm.INV_NU, asm.A_MAX, asm.LEAK, asm.W0, asm.WINDOWS):
        full, quick = path(Ctx(False)), path(Ctx(True))
        assert set(quick) <= set(full) and quick[0] == full[0] and quick[-1] == full[-1] and len(quick) < len(full)
