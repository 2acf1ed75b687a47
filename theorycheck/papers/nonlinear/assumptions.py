r"""Assumption maps of paper 004: what Result 1, the a₁ = 0 branch, Lemma 1 (Appendix B) and the
task-diversity transition rest on, and where each breaks.

Every result lists its assumptions — the ones the seed states (quoted by line) and the implicit ones its
derivation uses — and, for the most consequential ones, a **stress path**: a family of settings from "holds"
(the first value) to "violated", each decided by a declared rule. Simulated paths compare, at one finite d,
the actual model under the violated law with the *same-d* model on the un-violated path, on shared random
numbers (the standard-normal streams are identical; the violation's scale draws come from a second generator,
:func:`.theory.simulate.simulate_icl_sweep`), so the finite-size offset of the theory cancels and the
statistic is ~0 exactly when the violation changes nothing. The first point of such a path is the baseline run
itself (difference 0 by construction: the anchor of the path, not evidence). Sizes are the toolkit's choices
(``chosen``): a failure is *not reproduced*, never *refuted*.

Declared before the data: the margin :data:`MARGIN_REL` (5 % of the theory's value, the margin of
``004-result1``), the path values, the configurations (:data:`STRESS_CONFIG`, :data:`RANK_CONFIG`). A claim shows
its result's map as a method note (``assumption_note`` of the claims' shared helpers).
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp

from ...memo import Memo, key
from ...verdicts import Estimate, rules
from . import theory as nl
from .registry import claims
from .settings import RANK, RHO, sizes

#: "unchanged" along a path: within 5 % of the theory's value (the margin of 004-result1 and 004-a1zero-boxed).
MARGIN_REL = 0.05
#: Result 1 configuration of the simulated paths (the first RESULT1_CONFIGS entry): sin, α = κ = 2, τ = 2.
STRESS_CONFIG = ("sin", 2.0, 2.0, 2.0)
#: the effective-rank path runs where the rank matters: large α, τ, fresh tasks (004-effective-rank's setting).
RANK_CONFIG = (RANK["f"], RANK["alpha"], RANK["kappa"], RANK["tau"])
#: a₁ = 0 configuration: He₂, α = κ = 2, τ = 2 (a point of 004-a1zero-boxed).
A1ZERO_CONFIG = ("he2", 2.0, 2.0, 2.0)
#: 1/ν along the Student-t paths (0 = Gaussian; ν = 30, 10, 6, 4, 3, 2.5); kurtosis is infinite from ν = 4 on.
INV_NU = (0.0, 0.0333, 0.1, 0.1667, 0.25, 0.3333, 0.4)
#: 1/ν for the a₁ = 0 branch (ν = ∞, 100, 30, 20, 10, 6): its labels He₂(xᵀw) have no finite variance of the
#: error estimate once E[(xᵀw)⁸] diverges (ν ≤ 8), so the grid stops at ν = 6.
INV_NU_A0 = (0.0, 0.01, 0.0333, 0.05, 0.1, 0.1667)
#: ridge λ along the "ridgeless" paths.
LAMBDAS = (0.0, 1e-4, 1e-3, 3e-3, 1e-2, 3e-2, 1e-1)
#: the resolutions the breaking points are located to (declared with the paths; in the violation's own units): 1/ν to
#: 0.1, λ to 0.1 on the ridge paths (rank: 1/r to 0.5, ε to 0.2, ω to 0.5, 1/α to 0.025, the fixed point's λ to 0.2)
RES_INV_NU, RES_LAMBDA = 0.1, 0.1
#: first Hermite coefficient added to He₂ along the "a₁ = 0" path (f = He₂ + ε g).
EPSILONS = (0.0, 0.05, 0.1, 0.2, 0.3, 0.5)
#: ‖w‖²/d along the task-norm path of Lemma 1.
OMEGAS = (1.0, 1.02, 1.05, 1.1, 1.2, 1.5, 2.0)
#: 1/α along the transition's "α, τ → ∞" path (α = 1e8 … 20, τ = α/2).
INV_ALPHA = (1e-8, 1e-4, 1e-3, 0.0033, 0.01, 0.025, 0.05)


def _fmt_nu(v):
    return "∞" if v == 0 else f"{1 / v:.3g}"


def _chosen(sz, d, trials, **extra):
    out = {"d": d, "trials": trials, "test prompts per trial": sz["stress_ntest"], "seed": "shared along the path"}
    out.update(extra)
    return out


#: per-trial errors of :func:`_teacher_runs` by all of its simulation arguments (seed and arrays such as ``C_train``
#: included, by value): every point of a stress path simulates the path's baseline on the same seed, so one process
#: computes it once; a registered memo, cleared by the self-test
_RUNS = Memo("papers.nonlinear.assumptions.teacher_runs", maxsize=256, maxbytes=64 * 2 ** 20)


def _teacher_runs(ctx, path, f, d, alpha, kappa, tau, trials, n_test, **kw):
    """Per-trial errors of teacher ``f`` (ρ = 0.1) at one τ, on the path's shared seed (a fresh array per call)."""
    seed = ctx.seed_for(f"stress/{path}")
    tk = nl.teacher_key(f)
    if tk is None:
        return _simulate_runs(f, d, alpha, kappa, tau, trials, seed, n_test, kw)
    k = key(tk, d, alpha, kappa, tau, trials, seed, n_test, kw)
    return _RUNS.get_or_compute(k, lambda: _simulate_runs(f, d, alpha, kappa, tau, trials, seed, n_test, kw)).copy()


def _simulate_runs(f, d, alpha, kappa, tau, trials, seed, n_test, kw):
    r = nl.simulate_icl_sweep(f, d, alpha, kappa, [tau], RHO, trials=trials, seed=seed, n_test=n_test, **kw)
    return r.trial_means[:, 0]


def _law_point(ctx, path, v, key, kind, statement, claim_cfg, what):
    """Teacher error under a Student-t law (1/ν = v) minus the same-d run with ν = ∞ (same code, same draws)."""
    sz = sizes(ctx)
    f, al, ka, tau = claim_cfg
    d, T, nt = sz["stress_d"], sz["stress_trials"], sz["stress_ntest"]
    th = nl.e_icl_nonlinear(f, tau, al, ka, RHO)
    nu = math.inf if v == 0 else 1.0 / v
    base = _teacher_runs(ctx, path, f, d, al, ka, tau, T, nt, **{key: (kind, math.inf)})
    x = base if v == 0 else _teacher_runs(ctx, path, f, d, al, ka, tau, T, nt, **{key: (kind, nu)})
    est = Estimate.from_samples(x - base)
    return rules.equivalence(statement.format(nu=_fmt_nu(v)), est, 0.0, margin=MARGIN_REL * th,
                             scope=f"actual model, {f}, α = {al:g}, κ = {ka:g}, τ = {tau:g}, ρ = 0.1, d = {d}, {T} "
                                   f"paired trials; {what} with ν = {_fmt_nu(v)} vs ν = ∞ (same draws); margin "
                                   f"{MARGIN_REL:.0%} of the theory's {th:.4g}",
                             chosen=_chosen(sz, d, T))


# ================================================================================ Result 1
R1 = "004-result1"
claims.assumption(R1, "a₁ ≠ 0", stated=True, lines=(140, 140),
                  uses="the surrogate ỹ = a₁xᵀw + ε̃ carries the whole learnable signal")
claims.assumption(R1, "Gaussian inputs x ~ N(0, I_d/d)", stated=True, lines=(49, 49),
                  uses="xᵀw ~ N(0, ‖w‖²/d) exactly; the Appendix-B moments are Gaussian integrals")
claims.assumption(R1, "the projection xᵀw replaced by a standard Gaussian (Appendix A)", stated=True, lines=(123, 123),
                  uses="a₁ = E[g f(g)] and ρ_nl are moments under N(0, 1)")
claims.assumption(R1, "Gaussian tasks w ~ N(0, C)", stated=True, lines=(49, 49),
                  uses="σ_w = ‖w‖²/d has mean tr C/d and variance 2 tr C²/d²")
claims.assumption(R1, "tr C = d", stated=True, lines=(119, 121), uses="E σ_w = 1: the signal strength is a₁²")
claims.assumption(R1, "tr C² = o(d²) (effective rank → ∞)", stated=True, lines=(121, 123),
                  uses="σ_w → 1 so that f(xᵀw) has the Hermite coefficients of f(g)")
claims.assumption(R1, "f grows at most polynomially", stated=True, lines=(123, 123),
                  uses="dominated convergence when the projection is replaced by g")
claims.assumption(R1, "proportional limit d → ∞ with α, κ, τ = O(1)", stated=True, lines=(59, 59),
                  uses="the random-matrix (resolvent) analysis of the linear theory")
claims.assumption(R1, "ridgeless (λ → 0)", stated=True, lines=(150, 150),
                  uses="the ridgeless branches of the linear-theory error")
claims.assumption(R1, "finite-ℓ terms of Appendix B dropped", stated=True, lines=(136, 136),
                  uses="only ρ_f and a₁ enter the feature second moments")
claims.assumption(R1, "Gaussian label noise", stated=False,
                  uses="the fourth label moment μ₄ = E f⁴ + 6ρ E f² + 3ρ² of Appendix B's finite-ℓ terms; only the "
                       "noise variance ρ is stated (line 49)")


@claims.stress(R1, "Gaussian inputs x ~ N(0, I_d/d)", path="independent Student-t input coordinates, unit variance",
               violation="1/ν (0 = Gaussian)", values=list(INV_NU), resolution=RES_INV_NU)
def r1_iid_t(ctx, v):
    return _law_point(ctx, "r1-iid-t", v, "input_law", "iid-t",
                      "Result 1 with iid Student-t inputs (ν = {nu}): the error equals the Gaussian-input error",
                      STRESS_CONFIG, "independent t coordinates")


@claims.stress(R1, "the projection xᵀw replaced by a standard Gaussian (Appendix A)",
               path="elliptical (multivariate) Student-t inputs: xᵀw a Gaussian scale mixture", violation="1/ν (0 = Gaussian)",
               values=list(INV_NU), resolution=RES_INV_NU)
def r1_elliptical_t(ctx, v):
    return _law_point(ctx, "r1-elliptical-t", v, "input_law", "elliptical-t",
                      "Result 1 with elliptical Student-t inputs (ν = {nu}): the error equals the Gaussian-input error",
                      STRESS_CONFIG, "multivariate t inputs (one scale per input vector)")


@claims.stress(R1, "Gaussian label noise", path="Student-t label noise of variance ρ", violation="1/ν (0 = Gaussian)",
               values=list(INV_NU), resolution=RES_INV_NU)
def r1_noise_t(ctx, v):
    return _law_point(ctx, "r1-noise-t", v, "noise_law", "t",
                      "Result 1 with Student-t label noise (ν = {nu}): the error equals the Gaussian-noise error",
                      STRESS_CONFIG, "t label noise")


def _reduction_gap(ctx, lam):
    """Per-trial teacher − surrogate error at ridge ``lam`` on the λ path's shared draws (sin, STRESS_CONFIG)."""
    sz = sizes(ctx)
    f, al, ka, tau = STRESS_CONFIG
    d, T, nt = sz["stress_d"], sz["stress_trials"], sz["stress_ntest"]
    seed = ctx.seed_for("stress/r1-lambda")

    def run():
        res = nl.simulate_teachers({"teacher": (f, RHO), "surrogate": nl.surrogate_teacher(f, RHO)}, d, al, ka, [tau],
                                   T, seed, n_test=nt, lam=lam)
        return res["teacher"].trial_means[:, 0] - res["surrogate"].trial_means[:, 0]
    return _RUNS.get_or_compute(key("r1-lambda", d, al, ka, tau, T, seed, nt, lam), run).copy()


@claims.stress(R1, "ridgeless (λ → 0)", path="ridge penalty (n/d)λ‖Γ‖², λ > 0: teacher − surrogate",
               violation="λ", values=list(LAMBDAS), resolution=RES_LAMBDA)
def r1_lambda(ctx, lam):
    """Is 'ridgeless' the operative condition of the reduction? [teacher − surrogate](λ) − [teacher − surrogate](0)
    on shared draws: 0 when the surrogate still stands for the teacher under ridge λ."""
    sz = sizes(ctx)
    f, al, ka, tau = STRESS_CONFIG
    d, T = sz["stress_d"], sz["stress_trials"]
    th = nl.e_icl_nonlinear(f, tau, al, ka, RHO)
    base = _reduction_gap(ctx, 0.0)
    est = Estimate.from_samples((_reduction_gap(ctx, lam) if lam else base) - base)
    return rules.equivalence(f"Result 1's reduction (teacher = surrogate) holds with ridge λ = {lam:g} as at λ = 0",
                             est, 0.0, margin=MARGIN_REL * th,
                             scope=f"actual model, {f}, α = {al:g}, κ = {ka:g}, τ = {tau:g}, ρ = 0.1, d = {d}, {T} "
                                   f"paired trials; (teacher − surrogate) at λ = {lam:g} minus at λ = 0 (same draws); "
                                   f"margin {MARGIN_REL:.0%} of the theory's {th:.4g}",
                             chosen=_chosen(sz, d, T))


def _rank_values(ctx):
    d = sizes(ctx)["stress_rank_d"]
    out, r = [], d
    while r >= 1:
        out.append(1.0 / r)
        r //= 2
    return out


@claims.stress(R1, "tr C² = o(d²) (effective rank → ∞)", path="rank-r task covariance (d/r)·diag(1_r, 0), tr C = d",
               violation="1/r_eff (1/d = isotropic)", values=_rank_values, resolution=0.5)
def r1_rank(ctx, v):
    """[teacher(C) − teacher(I)] − [Result 1(C) − Result 1(I)] on shared draws: 0 when Result 1 in its
    general-covariance form (a₁²C, ρ_nl) tracks the change of C."""
    sz = sizes(ctx)
    f, al, ka, tau = RANK_CONFIG
    d, T, nt = sz["stress_rank_d"], sz["stress_rank_trials"], sz["stress_ntest"]
    r = int(round(1.0 / v))
    a1sq = float(nl.teacher_moments(f)["a1"]) ** 2
    rnl = float(nl.rho_nonlinear(f, RHO))
    iso = np.ones(d)
    ev = np.r_[np.full(r, d / r), np.zeros(d - r)]
    th_iso = nl.e_icl_linear_general(tau, al, ka, rnl, a1sq * iso, a1sq * iso)
    th_c = nl.e_icl_linear_general(tau, al, ka, rnl, a1sq * ev, a1sq * ev)
    base = _teacher_runs(ctx, "r1-rank", f, d, al, ka, tau, T, nt)
    x = base if r == d else _teacher_runs(ctx, "r1-rank", f, d, al, ka, tau, T, nt, C_train=ev, C_test=ev)
    est = Estimate.from_samples((x - base) - (th_c - th_iso))
    return rules.equivalence(f"Result 1 (general-covariance form) tracks the model with rank-{r} tasks (r_eff = {r})",
                             est, 0.0, margin=MARGIN_REL * th_iso,
                             scope=f"actual model, {f}, α = {al:g}, κ = {'∞' if math.isinf(ka) else ka}, τ = {tau:g}, "
                                   f"ρ = 0.1, d = {d}, {T} paired trials; rank-{r} C vs C = I (same draws) minus the "
                                   f"change Result 1 predicts ({th_c - th_iso:+.4g}); margin {MARGIN_REL:.0%} of "
                                   f"{th_iso:.4g}",
                             chosen=_chosen(sz, d, T))


# ================================================================================ the a₁ = 0 branch
A0 = "004-a1zero-boxed"
claims.assumption(A0, "a₁ = 0", stated=True, lines=(154, 154),
                  uses="the label–feature cross moment and the task terms of the feature moments vanish")
claims.assumption(A0, "ridgeless (λ → 0)", stated=True, lines=(158, 158),
                  uses="λ̃ → q(1 − τ)/τ or 0 in the fixed point, giving the two branches")
claims.assumption(A0, "Gaussian inputs x ~ N(0, I_d/d)", stated=True, lines=(49, 49),
                  uses="the pure-noise features are treated as isotropic with variance q/d")
claims.assumption(A0, "proportional limit d → ∞ with α, κ, τ = O(1)", stated=True, lines=(59, 59),
                  uses="the Marchenko–Pastur fixed point of Appendix C")
claims.assumption(A0, "pure-noise features behave like i.i.d. isotropic features", stated=False,
                  uses="Appendix C's resolvent for x ⊗ [u; s] features (Kronecker-structured rows, an s column of a "
                       "different scale) is that of i.i.d. isotropic features")
claims.assumption("004-a1zero-fixed-point", "ridgeless (λ → 0)", stated=True, lines=(158, 158),
                  uses="the limits λ̃ → q(1 − τ)/τ (τ < 1) and 0 (τ > 1)")
claims.assumption("004-a1zero-fixed-point", "q = ρ_nl/α, a₁ = 0", stated=True, lines=(154, 154),
                  uses="the auxiliary equation of Appendix C")


#: λ along the fixed point's "λ → 0" path (τ = 0.5, q = ρ_nl/α for He₂ at α = 2).
FP_LAMBDAS = (1e-8, 1e-4, 1e-3, 1e-2, 3e-2, 1e-1, 3e-1)


@claims.stress("004-a1zero-fixed-point", "ridgeless (λ → 0)", path="λ > 0 in χ₀ = q/(qτ/(1+χ₀) + τλ), τ = 0.5",
               violation="λ", values=list(FP_LAMBDAS), resolution=0.2)
def fp_lambda(ctx, lam):
    """λ̃ = λ(1 + χ₀) against its λ → 0 limit q(1 − τ)/τ (exact, the toolkit's fixed-point solver)."""
    tau, al = 0.5, 2.0
    q = float(nl.rho_nonlinear("he2", RHO)) / al
    lt = lam * (1 + nl.a1_zero_fixed_point(tau, q, lam))
    lim = q * (1 - tau) / tau
    return rules.equivalence(f"λ̃ = λ(1 + χ₀) equals its λ → 0 limit q(1 − τ)/τ = {lim:.4g} at λ = {lam:g}",
                             Estimate.exact(lt), lim, margin=MARGIN_REL * lim,
                             scope=f"exact fixed point, τ = {tau:g}, q = ρ_nl/α = {q:.4g} (He₂, α = {al:g}, ρ = 0.1); "
                                   f"margin {MARGIN_REL:.0%} of the limit")


def _a0_point(ctx, path, statement, scope_tail, spec):
    """``spec = (baseline kwargs, kwargs of the point, teacher of the point)``; He₂'s baseline on the same seed."""
    sz = sizes(ctx)
    f, al, ka, tau = A1ZERO_CONFIG
    d, T, nt = sz["stress_d"], sz["stress_trials"], sz["stress_ntest"]
    box = nl.e_icl_nonlinear(f, tau, al, ka, RHO)
    base_kw, kw, teach = spec
    base = _teacher_runs(ctx, path, f, d, al, ka, tau, T, nt, **base_kw)
    x = _teacher_runs(ctx, path, teach, d, al, ka, tau, T, nt, **kw)
    est = Estimate.from_samples(x - base)
    return rules.equivalence(statement, est, 0.0, margin=MARGIN_REL * box,
                             scope=f"actual model, He₂ (a₁ = 0), α = {al:g}, κ = {ka:g}, τ = {tau:g}, ρ = 0.1, d = {d}, "
                                   f"{T} paired trials; {scope_tail}; margin {MARGIN_REL:.0%} of the boxed value "
                                   f"{box:.4g}",
                             chosen=_chosen(sz, d, T))


@claims.stress(A0, "ridgeless (λ → 0)", path="ridge penalty (n/d)λ‖Γ‖² with λ > 0", violation="λ", values=list(LAMBDAS),
               resolution=RES_LAMBDA)
def a0_lambda(ctx, lam):
    return _a0_point(ctx, "a0-lambda", f"the ridgeless boxed formula describes the ridge-λ model (λ = {lam:g})",
                     f"ridge λ = {lam:g} vs λ = 0 on the same data", ({}, {"lam": lam}, A1ZERO_CONFIG[0]))


@claims.stress(A0, "a₁ = 0", path="f = He₂ + ε·g (a₁ = ε; ρ_nl = ρ + Σ_{m≠1} a_m² unchanged)", violation="a₁ = ε",
               values=list(EPSILONS), resolution=0.2)
def a0_epsilon(ctx, eps):
    f = A1ZERO_CONFIG[0] if eps == 0 else nl.TEACHERS["he2"] + sp.nsimplify(eps) * nl.G
    return _a0_point(ctx, "a0-epsilon", f"the a₁ = 0 formula ρ_nl τ/(τ − 1) describes f = He₂ + {eps:g}·g",
                     f"f = He₂ + {eps:g}·g vs He₂ (same draws)", ({}, {}, f))


@claims.stress(A0, "Gaussian inputs x ~ N(0, I_d/d)", path="independent Student-t input coordinates, unit variance",
               violation="1/ν (0 = Gaussian)", values=list(INV_NU_A0), resolution=RES_INV_NU)
def a0_iid_t(ctx, v):
    nu = math.inf if v == 0 else 1.0 / v
    return _a0_point(ctx, "a0-iid-t", f"the a₁ = 0 formula holds with iid Student-t inputs (ν = {_fmt_nu(v)}): the "
                     "error equals the Gaussian-input error", f"iid t inputs with ν = {_fmt_nu(v)} vs ν = ∞ (same draws)",
                     ({"input_law": ("iid-t", math.inf)}, {"input_law": ("iid-t", nu)}, A1ZERO_CONFIG[0]))


# ================================================================================ Lemma 1 (Appendix B)
LB = "004-appendix-b-moments"
claims.assumption(LB, "ω = ‖w‖²/d → 1 (task-norm concentration)", stated=True, lines=(127, 127),
                  uses="E[yx | w] = (w/d) E[g f(g)] needs xᵀw ~ N(0, 1)")
claims.assumption(LB, "Gaussian inputs x ~ N(0, I_d/d)", stated=True, lines=(49, 49),
                  uses="the parallel/perpendicular split of x and the Gaussian integrals")
claims.assumption(LB, "finite-ℓ terms dropped", stated=True, lines=(136, 136),
                  uses="the leading forms keep only ρ_f and a₁")
claims.assumption(LB, "Gaussian label noise", stated=False,
                  uses="μ₄ = E f⁴ + 6ρ E f² + 3ρ² and μ₂₂ = E[g²f²] + ρ in the finite-ℓ terms")


@claims.stress(LB, "ω = ‖w‖²/d → 1 (task-norm concentration)", path="tasks with ‖w‖²/d = ω ≠ 1 (f = sin)",
               violation="ω", values=list(OMEGAS), resolution=0.5)
def lb_omega(ctx, omega):
    """E[u | w] = (E[t f(t)]/ω) w with t ~ N(0, ω): the leading form a₁w holds while a₁(ω) ≈ a₁."""
    g = nl.G
    om = sp.nsimplify(omega)
    a1_omega = sp.simplify(sp.integrate(g * sp.sin(sp.sqrt(om) * g) * sp.exp(-g ** 2 / 2), (g, -sp.oo, sp.oo))
                           / sp.sqrt(2 * sp.pi) / sp.sqrt(om))
    a1 = float(nl.teacher_moments("sin")["a1"])
    return rules.equivalence(f"E[u | w] = a₁w at ‖w‖²/d = {omega:g} (coefficient {float(a1_omega):.4f} vs a₁ = "
                             f"{a1:.4f})", Estimate.exact(float(a1_omega)), a1, margin=MARGIN_REL * a1,
                             scope=f"exact (SymPy), f = sin, ‖w‖²/d = {omega:g}; margin {MARGIN_REL:.0%} of a₁")


# ================================================================================ Eq. (11), the transition
TD = "004-task-diversity-transition"
claims.assumption(TD, "α, τ → ∞ with τ ∝ α", stated=True, lines=(208, 208),
                  uses="the estimation error of the first-order rule vanishes, leaving ρ_nl")
claims.assumption(TD, "C_train = C_test = I_d", stated=True, lines=(208, 208), uses="the threshold κ = rank(C)/d = 1")
claims.assumption(TD, "a₁ ≠ 0", stated=True, lines=(210, 210), uses="the floor is ρ_nl, not the a₁ = 0 branch")


@claims.stress(TD, "α, τ → ∞ with τ ∝ α", path="finite α with τ = α/2, κ = 1.5 > 1 (tanh)", violation="1/α",
               values=list(INV_ALPHA), resolution=0.025)
def td_alpha(ctx, inv_alpha):
    alpha = 1.0 / inv_alpha
    rnl = float(nl.rho_nonlinear("tanh", RHO))
    e = nl.e_icl_nonlinear("tanh", alpha / 2, alpha, 1.5, RHO)
    return rules.equivalence(f"κ = 1.5 > 1 reaches the floor ρ_nl at α = {alpha:.3g}, τ = α/2 (e = {e:.4g})",
                             Estimate.exact(e), rnl, margin=MARGIN_REL * rnl,
                             scope=f"Result 1 (exact), tanh, ρ = 0.1, α = {alpha:.3g}, τ = α/2, κ = 1.5; margin "
                                   f"{MARGIN_REL:.0%} of ρ_nl = {rnl:.4f}")
