r"""Claims of paper 004, seed lines 192–219: Figure 2 (tanh teacher, task-diversity transition), its overlay of
theory with the finite-size analysis, the table of sizes, the transition, the raised floor and the tanh numbers, in
seed order."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp
from scipy.optimize import brentq, minimize_scalar

from ....claims import Clause
from ....verdicts import FINITE_SIZE_LAWS, Estimate, rules, selfcheck
from ....verdicts.rules.trivial import against_trivial
from ...api import Derivation, Remedy
from .. import theory as nl
from ..fixtures import fig2_curves
from ..registry import claims
from ..settings import FIG2, FIG2_FINITE_KAPPAS, FIG2_KAPPAS, RHO, mc_param, params, sizes
from ._helpers import assumption_note, plot_fig2, scan_estimates

#: "equal" for Figure 2's overlay and its finite-size limit: 5 % of the theory's value (the margin of 004-result1)
MARGIN_REL = 0.05


def _fig2_params(ctx) -> list:
    sz, P = sizes(ctx), params(ctx)
    return [P["rho"], P["fig2_f"], P["fig2_d"], P["fig2_alpha_tau"], P["fig2_kappas"], P["lambda0"], P["tasks"],
            mc_param(sz["fig2_trials"], sz["fig2_ntest"])]


def _overlay_name(a) -> str:
    return f"Figure 2, α = {a:g}: Result 1 (dashed) over the simulated points"


# ================================================================================ Figure 2's overlay of theory
@claims.claim("004-fig2-overlay", lines=(198, 198), conventions=["C3", "C4", "C5"],
              needs=("fig2_runs", "fig2_finite_size"), weight="supporting",
              fragment="蓝色菱形对应 $\\alpha=20$,紫色圆点对应 $\\alpha=40$;点是模拟,虚线是理论。",
              title="Figure 2's theory curves against its simulated points, at d = 32 and as d grows",
              clauses=[Clause("c1", r"蓝色菱形对应 $\alpha=20$,紫色圆点对应 $\alpha=40$;", asserted=False),
                       Clause("c2", "点是模拟,虚线是理论。")],
              overlays=[_overlay_name(a) for a in FIG2["alphas"]])
def fig2_overlay(ctx, fig2_runs, fig2_finite_size):
    """Figure 2 overlays Result 1 (dashed, d → ∞ at the figure's α and τ = α/2) on the simulated points (d = 32):
    the points lie on the curves within 5 % at every κ of the figure (decided at the worst κ, issue 29), and the gap
    vanishes as d → ∞ (finite size)."""
    curves = fig2_curves(fig2_runs)
    ps = _fig2_params(ctx)
    grid = {}
    for a, run in curves.items():
        tr, tau = run["trials"], run["tau"]
        th = [nl.e_icl_nonlinear(FIG2["f"], tau, a, k, RHO) for k in run["kappas"]]
        est = [Estimate.from_samples(x) for x in tr]
        rel = [e.mean / t - 1 for e, t in zip(est, th)]
        off = [k for k, r in zip(run["kappas"], rel) if abs(r) > MARGIN_REL]
        extent = {"searched": {"κ grid (Figure 2)": [min(FIG2_KAPPAS), max(FIG2_KAPPAS)]}, "holds_throughout": not off,
                  "relative gap by κ": {f"{k:g}": round(r, 4) for k, r in zip(run["kappas"], rel)},
                  "fails": f"κ ∈ {off}" if off else "nowhere on the grid"}
        grid[a] = sc = rules.grid_equivalence(
                                     f"α = {a:g}: the simulated points lie on the dashed curve at every κ of the grid "
                                     "(within 5 %)", est, th, margin=MARGIN_REL, relative=True,
                                     labels=[f"κ = {k:g}" for k in run["kappas"]], verb="approximates",
                                     overlay=_overlay_name(a), clauses="c2", params=ps, extent=extent,
                                     details={"quantity": f"the simulated error (α = {a:g})",
                                              "reference": "the d → ∞ curve"},
                                     scope=f"actual model, tanh, ρ = 0.1, d = {run['d']} (the figure's size; finite d "
                                           f"against the d → ∞ curve), α = {a:g}, τ = {tau:g}, {tr.shape[1]} trials "
                                           "per κ")
    a = max(grid, key=lambda x: max(abs(r) for r in grid[x].details["deviations"]))     # the worst α decides
    grid[a].details["decisive"] = True
    yield from grid.values()
    limits = yield from _fig2_finite_size(ctx, curves, fig2_finite_size)
    if max(sc.details["upper_bound"] for sc in grid.values()) > MARGIN_REL:       # not shown within 5 % everywhere
        devs = grid[a].details["deviations"]
        j = max(range(len(devs)), key=lambda i: abs(devs[i]))
        yield Remedy("quote the overlay with its size at d = {d}: the points lie up to {x} % off the d → ∞ curve (α = "
                     "{a}, κ = {k}), every point within {ub} % (simultaneous upper bound); extrapolated under the 1/d "
                     "law, the gap at the κ checked is at most {y} % of Result 1", d=curves[a]["d"], x=100 * abs(devs[j]),
                     a=a, k=curves[a]["kappas"][j],
                     ub=100 * max(sc.details["upper_bound"] for sc in grid.values()), y=100 * max(limits),
                     clauses=["c2"])


def _fig2_finite_size(ctx, curves, finite):
    """Is the overlay's gap finite-size? Simulation − Result 1 over d (the smaller sizes and the figure's own
    d = 32), extrapolated to d → ∞ under every declared finite-size law."""
    P = params(ctx)
    ps = [P["rho"], P["fig2_f"], P["fig2_alpha_tau"], P["fig2_ext_ds"], P["lambda0"], P["tasks"]]
    limits = []
    for a in FIG2["alphas"]:
        for k in FIG2_FINITE_KAPPAS:
            small, run = finite[f"{a}/{k}"], curves[a]
            th = nl.e_icl_nonlinear(FIG2["f"], a / 2, a, k, RHO)
            ds = small["ds"] + [run["d"]]
            samples = [x - th for x in small["trials"]] + [run["trials"][run["kappas"].index(k)] - th]
            m, se, dfs = scan_estimates(samples)
            sc = rules.asymptotic(f"finite-size analysis, α = {a:g}, κ = {k:g}: simulation − Result 1 → 0 as d → ∞",
                                  ds, m, se, 0.0, margin=MARGIN_REL * th, dfs=dfs, clauses="c2",
                                  params=ps + [P["fig2_kappas"]],
                                  details={"quantity": f"simulation − Result 1 (α = {a:g}, κ = {k:g})"},
                                  scope=f"actual model, tanh, ρ = 0.1, α = {a:g}, τ = {a / 2:g}, κ = {k:g}, d ∈ {ds}, "
                                        f"finite-size laws {list(FINITE_SIZE_LAWS)}")
            limits.append(abs(sc.details["laws"]["1/d"]["intercept"]) / th)
            yield sc
    return limits


# ================================================================================ the table of sizes
@claims.claim("004-fig2-table", lines=(200, 206), conventions=["C4"], weight="supporting",
              title="Figure 2's sizes: ℓ, τ and n for α = 20 and 40, and what the comparison confounds",
              clauses=[Clause("c1", r"设置为 $d=32$、$f(g)=\tanh g$、$\rho=0.1$、$\tau=\alpha/2$,对应 Sec. 3 的各向同性任务讨论。",
                              "condition", asserted=False),
                       Clause("c2", "两组上下文与预训练规模分别是:", asserted=False),
                       Clause("c3", r"$\alpha$$\ell=\alpha d$$\tau$$n=\tau d^2$", asserted=False),
                       Clause("c4", "206401010,240", "number"), Clause("c5", "401,2802020,480", "number"),
                       Clause("c6", "这张表由图注比例换算而来。", asserted=False),
                       Clause("c7", "两条曲线的比较同时增加了上下文长度和预训练序列数,不能归因于单独增加上下文。", "inference")])
def fig2_table(ctx):
    """Figure 2: d = 32, tanh, ρ = 0.1, τ = α/2; α = 20: ℓ = 640, τ = 10, n = 10,240; α = 40: ℓ = 1,280, τ = 20,
    n = 20,480. The two curves change context length and pretraining size together, so their gap cannot be
    attributed to the context alone."""
    d = FIG2["d"]
    for cid, (a, ell, tau, n) in (("c4", (20, "640", "10", "10240")), ("c5", (40, "1280", "20", "20480"))):
        yield rules.reproduction(f"α = {a}: ℓ = αd = {ell}", a * d, ell, clauses=cid, scope="d = 32 (stated)")
        yield rules.reproduction(f"α = {a}: τ = α/2 = {tau}", a / 2, tau, clauses=cid, scope="τ = α/2 (stated)")
        yield rules.reproduction(f"α = {a}: n = τd² = {n}", (a / 2) * d * d, n, clauses=cid, scope="d = 32 (stated)")
    e = {(a, t): nl.e_icl_nonlinear("tanh", t, a, 2.0, RHO) for a, t in ((20, 10), (40, 10), (40, 20))}
    scope = "Result 1 (exact), tanh, ρ = 0.1, κ = 2"
    yield rules.inequality("longer context alone lowers the error: e(α = 20, τ = 10) > e(α = 40, τ = 10)",
                           e[(20, 10)], ">", e[(40, 10)], clauses="c7", scope=scope)
    yield rules.inequality("more sequences alone lower the error too: e(α = 40, τ = 10) > e(α = 40, τ = 20)",
                           e[(40, 10)], ">", e[(40, 20)], clauses="c7", scope=scope)
    share = (e[(40, 10)] - e[(40, 20)]) / (e[(20, 10)] - e[(40, 20)])
    yield rules.inequality(f"the doubled τ explains a share {share:.1%} of the gap between the curves (> 10 %)", share,
                           ">", 0.10, clauses="c7", scope=scope)


# ================================================================================ the transition
_TD_CLAUSES = [
    Clause("c1", r"原文承接已有线性理论指出,当 $\alpha,\tau\to\infty$ 且 $\tau\propto\alpha$ 时,在 "
                 r"$\kappa=\operatorname{rank}(C_{\mathrm{train}})/d$ 附近存在任务多样性的转变。"),
    Clause("c2", r"对于 $C_{\mathrm{train}}=C_{\mathrm{test}}=I_d$,阈值为 $\kappa=1$。", "number"),
    Clause("c3", "训练任务较少时难以覆盖新的任务方向;"),
    Clause("c4", "任务足够多时,模型能够把一阶规则推广到新任务,"),
    Clause("c5", r"但对于 $a_1\ne0$,其极限仍是"),
    Clause("c6", r"$$ e_{\mathrm{ICL}}\longrightarrow\rho_{\mathrm{nonlinear}}, \qquad \kappa>1,\quad\alpha,\tau\to\infty. $$")]


@claims.claim("004-task-diversity-transition", lines=(208, 210), conventions=["C2", "C3"], weight="main",
              title="Task-diversity transition at κ = rank(C_train)/d; the floor ρ_nl beyond it",
              clauses=_TD_CLAUSES)
def task_diversity_transition(ctx):
    """As α, τ → ∞ with τ ∝ α there is a task-diversity transition at κ = rank(C_train)/d (κ = 1 for C = I): with
    few tasks the error stays above ρ_nl; with κ > 1 the first-order rule generalises (the error beats predicting zero
    by a₁²) and tends to ρ_nl (a₁ ≠ 0)."""
    ALPHA, RESOLUTION = 1e8, 1e-3      # α standing for ∞ (τ = α/2); the transition located to 1e-3 in κ
    LIMIT_TOL, GAP_MIN, REACH = 1e-5, 0.01, 1e-4
    f, rnl = "tanh", float(nl.rho_nonlinear("tanh", RHO))
    rf = float(nl.rho_f("tanh", RHO))
    scope = "Result 1 (exact), tanh, ρ = 0.1, α = 1e8, τ = α/2"
    k_star = brentq(lambda k: nl.e_icl_nonlinear(f, ALPHA / 2, ALPHA, k, RHO) - rnl - REACH, 0.5, 2.0, xtol=1e-9)
    yield rules.identity(f"C = I: the error reaches the floor (within {REACH:g}) from κ* = {k_star:.5f} on (root "
                         "finding): the transition is at κ = 1", k_star, 1.0, atol=RESOLUTION, rtol=0.0,
                         clauses=["c1", "c2"], details={"kappa_star": k_star, "resolution": RESOLUTION}, scope=scope)
    dd, r = 200, 100
    C = np.r_[np.full(r, dd / r), np.zeros(dd - r)]
    k_half = brentq(lambda k: nl.e_icl_linear_general(1e5, 2e5, k, RHO, C, C) - RHO - REACH, 0.2, 1.0, xtol=1e-9)
    yield rules.identity(f"rank(C)/d = 1/2: the transition is at κ* = {k_half:.5f} ≈ 1/2 (root finding)", k_half, 0.5,
                         atol=10 * RESOLUTION, rtol=0.0, clauses="c1",
                         scope="linear-teacher theory (exact), C = 2·diag(1_{d/2}, 0), d = 200, α = 2e5, τ = 1e5 (the "
                               "residual O(1/α) shifts κ* by about 1e-3)")
    below = (0.5, 0.9)
    yield rules.inequality(f"κ ∈ {below}: e_ICL − ρ_nl ≥ {GAP_MIN} (the uncovered task directions)",
                           [nl.e_icl_nonlinear(f, ALPHA / 2, ALPHA, k, RHO) - rnl for k in below], ">=", GAP_MIN,
                           clauses="c3", scope=scope)
    above = (1.1, 1.5, 2.0, 4.0)
    e_above = [nl.e_icl_nonlinear(f, ALPHA / 2, ALPHA, k, RHO) for k in above]
    trivial = [against_trivial(f"trained predictor (κ = {k:g})", "predict zero (E[y²] = ρ_f)", Estimate.exact(rf - e),
                               reference=rf, relative_margin=0.1) for k, e in zip(above, e_above)]
    yield rules.identity(f"κ ∈ {above}: the error beats predicting zero by the whole first-order signal a₁², "
                         "ρ_f − e_ICL → a₁²", [rf - e for e in e_above],
                         [float(nl.teacher_moments(f)["a1"]) ** 2] * len(above), atol=LIMIT_TOL, rtol=0.0,
                         clauses="c4", trivial=trivial, scope=scope)
    yield rules.identity(f"κ ∈ {above}: e_ICL → ρ_nl", e_above, [rnl] * len(above), atol=LIMIT_TOL, rtol=0.0,
                         clauses=["c5", "c6"], scope=scope)
    yield rules.inequality("a₁ ≠ 0: the limit ρ_nl lies above ρ (the floor is raised)", rnl, ">", RHO, clauses="c5",
                           scope="exact, tanh, ρ = 0.1")
    I = np.ones(200)
    pts = [(1.5, 2.0, k) for k in (0.5, 0.9, 1.5, 4.0)] + [(0.5, 2.0, 2.0)]
    yield assumption_note("004-task-diversity-transition")
    yield selfcheck.identity("e_lin: isotropic closed form = Silverstein general form at C = I (κ ∈ {0.5, 0.9, 1.5, 4})",
                             [nl.e_icl_linear(t, a, k, RHO) for t, a, k in pts],
                             [nl.e_icl_linear_general(t, a, k, RHO, I, I) for t, a, k in pts], rtol=1e-9)


# ================================================================================ Figure 2: what the simulation shows
_FIG2_SIM = ("图中有限维曲线在 $\\kappa\\approx1$ 一带快速下降,而非出现不连续跳变;大 $\\kappa$ 时两组曲线仍高于绿色下限,"
             "符合有限上下文与有限训练规模尚有估计误差的解释。")


@claims.claim("004-fig2-simulation", lines=(212, 212), fragment=_FIG2_SIM, conventions=["C3", "C4", "C5"],
              needs=("fig2_runs",), weight="main",
              title="Figure 2: a fast fall around κ ≈ 1 and curves above the floor at large κ",
              clauses=[Clause("c1", r"图中有限维曲线在 $\kappa\approx1$ 一带快速下降,"),
                       Clause("c2", "而非出现不连续跳变;", "negative"),
                       Clause("c3", r"大 $\kappa$ 时两组曲线仍高于绿色下限,"),
                       Clause("c4", "符合有限上下文与有限训练规模尚有估计误差的解释。", "inference")])
def fig2_simulation(ctx, fig2_runs):
    """Figure 2: the finite-d curves fall quickly around κ ≈ 1 (the steepest fall within a factor 1.5 of κ = 1) rather
    than jumping; at large κ both stay above the green line ρ_nl, by the estimation error that finite context and
    finite pretraining leave (Result 1 at the figure's α, τ), which shrinks as α, τ grow."""
    BAND, RESOLUTION, EXCESS_REL = math.log(1.5), 0.5, 0.25
    sz = sizes(ctx)
    rnl = float(nl.rho_nonlinear(FIG2["f"], RHO))
    # "around κ ≈ 1" (κ≈1 一带): the band within the factor 1.5 of κ = 1 that the steepest-point test declares
    FALL = tuple(k for k in FIG2_KAPPAS if abs(math.log(k)) <= BAND + 1e-12)
    ps = _fig2_params(ctx)
    curves, theory, excess = {}, {}, {}
    for a, run in fig2_curves(fig2_runs).items():
        tr, tau, T = run["trials"], run["tau"], run["trials"].shape[1]
        scope = f"actual model, tanh, ρ = 0.1, d = {run['d']}, α = {a:g}, τ = {tau:g}, {T} trials per κ"
        est = [Estimate.from_samples(tr[run["kappas"].index(k)]) for k in FALL]
        yield rules.shape(f"α = {a:g}: the simulated error falls across the band around κ ≈ 1 (κ = {FALL[0]:g} → "
                          f"{FALL[-1]:g})", FALL, [e.mean for e in est], ses=[e.se for e in est], df=T - 1,
                          shape="decreasing", resolution=RESOLUTION, clauses="c1", scope=scope, params=ps,
                          details={"x_name": "κ"})
        e_of = lambda lk, a=a, tau=tau: nl.e_icl_nonlinear(FIG2["f"], tau, a, math.exp(lk), RHO)   # noqa: E731
        slope = lambda lk: (e_of(lk + 1e-4) - e_of(lk - 1e-4)) / 2e-4                          # noqa: E731
        steep = minimize_scalar(slope, bounds=(math.log(0.1), math.log(10.0)), method="bounded", options={"xatol": 1e-6})
        yield rules.inequality(f"α = {a:g}: Result 1's steepest fall is at κ = {math.exp(steep.x):.4g}, within a factor "
                               "1.5 of κ = 1", abs(steep.x), "<=", BAND, clauses="c1",
                               details={"kappa_steepest": math.exp(steep.x), "slope_per_ln_kappa": float(steep.fun)},
                               scope=f"Result 1 (exact), α = {a:g}, τ = {tau:g}, steepest point by optimisation over ln κ")
        step = 1e-2 if ctx.quick else 1e-3             # issue 31: a coarser grid in quick mode (a negative: capped)
        fine = np.exp(np.arange(math.log(0.2), math.log(5.0), step))
        ef = np.array([nl.e_icl_nonlinear(FIG2["f"], tau, a, k, RHO) for k in fine])
        yield rules.inequality(f"α = {a:g}: no jump in Result 1 — the largest change between neighbours on a ln κ grid of "
                               f"step {'1e-2' if ctx.quick else '1e-3'} is below 1 % of the whole fall",
                               float(np.max(np.abs(np.diff(ef)))), "<",
                               0.01 * float(ef[0] - ef[-1]), clauses="c2",
                               details={"decisive": True, "quantity": "the largest change of Result 1 between "
                                        "neighbours on the ln κ grid", "reference": "1 % of the whole fall"},
                               scope=f"Result 1 (exact), α = {a:g}, τ = {tau:g}, κ ∈ [0.2, 5]")
        big = tr[run["kappas"].index(max(FIG2_KAPPAS))]
        excess[a] = Estimate.from_samples(big - rnl)
        yield rules.superiority(f"α = {a:g}: at κ = {max(FIG2_KAPPAS):g} the error stays above ρ_nl = {rnl:.4f}",
                                excess[a], margin=0.0, clauses="c3", scope=scope, params=ps)
        th_big = nl.e_icl_nonlinear(FIG2["f"], tau, a, max(FIG2_KAPPAS), RHO)
        yield rules.equivalence(f"α = {a:g}: the excess over ρ_nl at κ = {max(FIG2_KAPPAS):g} is Result 1's finite-(α, τ) "
                                f"estimation error {th_big - rnl:.4f} (within 25 %)", excess[a], th_big - rnl,
                                margin=EXCESS_REL, relative=True, clauses="c4", scope=scope, params=ps)
        curves[f"α = {a:g}"] = (tr.mean(1), tr.std(1, ddof=1) / math.sqrt(T))
        theory[f"α = {a:g}"] = [nl.e_icl_nonlinear(FIG2["f"], tau, a, k, RHO) for k in run["kappas"]]
    a20, a40 = FIG2["alphas"]
    yield rules.superiority("the excess shrinks as α and τ grow: excess(α = 20) − excess(α = 40) > 0 at κ = 4",
                            Estimate.difference(excess[a20], excess[a40]), margin=0.0, clauses="c4",
                            scope="actual model, d = 32, independent runs (Welch)", params=ps)
    ctx.save_figure(*plot_fig2(list(FIG2_KAPPAS), curves, theory, rnl, RHO, sz["fig2_d"], sz["fig2_trials"]))


@claims.claim("004-floor-finite-kappa", lines=(212, 212), conventions=["C2", "C3"], weight="supporting",
              fragment="达到该各向同性下限的条件是任务覆盖充分且 $\\alpha,\\tau$ 增大,不要求 $\\kappa$ 本身也必须趋于无穷。",
              title="Reaching the floor needs enough tasks and growing α, τ, not κ → ∞",
              clauses=[Clause("c1", r"达到该各向同性下限的条件是任务覆盖充分且 $\alpha,\tau$ 增大,", "condition"),
                       Clause("c2", r"不要求 $\kappa$ 本身也必须趋于无穷。")])
def floor_finite_kappa(ctx):
    """Reaching the isotropic floor ρ_nl needs enough tasks (any κ > 1, even 1.01) and growing α, τ, not κ → ∞;
    below the threshold (κ = 0.95) or at finite α, τ (even κ = ∞) the floor is not reached."""
    LIMIT_TOL, GAP_MIN = 1e-5, 0.01
    f = "tanh"
    rnl = float(nl.rho_nonlinear(f, RHO))
    scope = "Result 1 (exact), tanh, ρ = 0.1, α = 1e8, τ = α/2"
    yield rules.identity("κ ∈ {1.01, 1.5} fixed, α → ∞ (τ = α/2): e_ICL → ρ_nl", [nl.e_icl_nonlinear(f, 5e7, 1e8, k, RHO)
                         for k in (1.01, 1.5)], [rnl, rnl], atol=LIMIT_TOL, rtol=0.0, clauses=["c1", "c2"], scope=scope)
    yield rules.inequality(f"enough tasks are needed: κ = 0.95, α → ∞ stays ≥ {GAP_MIN} above ρ_nl",
                           nl.e_icl_nonlinear(f, 5e7, 1e8, 0.95, RHO) - rnl, ">=", GAP_MIN, clauses="c1", scope=scope)
    yield rules.inequality(f"growing α, τ are needed: κ → ∞ alone (α = 20, τ = 10) stays ≥ {GAP_MIN} above ρ_nl",
                           nl.e_icl_nonlinear(f, 10.0, 20.0, math.inf, RHO) - rnl, ">=", GAP_MIN, clauses="c1",
                           scope="Result 1 (exact), tanh, ρ = 0.1")


_TANH = ("为解释绿色水平线,本次按论文定义对高斯期望作数值积分,得到\n\n"
         "$$ a_1=\\mathbb E[g\\tanh g]\\approx0.605706,\\qquad \\mathbb E[\\tanh^2g]\\approx0.394294, $$\n"
         "$$ \\rho_{\\mathrm{nonlinear}} =0.1+0.394294-0.605706^2 \\approx0.127415. $$\n\n"
         "也就是说,下限相对原噪声水平多出约 $0.027415$ 的平方误差。这些小数是由公式补充计算的,不是原文表格报告值或从图像读出的精确实验数据。"
         "它们解释了为何绿色线在 $0.1$ 上方,也说明剩余误差不全来自有限任务覆盖。")


@claims.claim("004-tanh-numbers", lines=(214, 219), fragment=_TANH, conventions=["C1", "C2"], weight="supporting",
              title="tanh at ρ = 0.1: a₁ ≈ 0.605706, E tanh² ≈ 0.394294, ρ_nl ≈ 0.127415",
              clauses=[Clause("c1", "为解释绿色水平线,本次按论文定义对高斯期望作数值积分,得到", asserted=False),
                       Clause("c2", r"$$ a_1=\mathbb E[g\tanh g]\approx0.605706,\qquad", "number"),
                       Clause("c3", r"\mathbb E[\tanh^2g]\approx0.394294, $$", "number"),
                       Clause("c4", r"$$ \rho_{\mathrm{nonlinear}} =0.1+0.394294-0.605706^2 \approx0.127415. $$", "number"),
                       Clause("c5", "也就是说,下限相对原噪声水平多出约 $0.027415$ 的平方误差。", "number"),
                       Clause("c6", "这些小数是由公式补充计算的,不是原文表格报告值或从图像读出的精确实验数据。", asserted=False),
                       Clause("c7", "它们解释了为何绿色线在 $0.1$ 上方,", "inference"),
                       Clause("c8", "也说明剩余误差不全来自有限任务覆盖。", "inference")])
def tanh_numbers(ctx):
    """a₁ = E[g tanh g] ≈ 0.605706, E[tanh² g] ≈ 0.394294, ρ_nl = 0.1 + 0.394294 − 0.605706² ≈ 0.127415, about
    0.027415 above ρ; this is why the green line lies above 0.1, and even unlimited tasks leave that excess."""
    m = nl.teacher_moments("tanh")
    a1, ef2 = float(_mp(m["a1"])), float(_mp(m["Ef2"]))
    rnl = float(nl.rho_nonlinear("tanh", RHO))
    scope = "mpmath quadrature at 30 digits, ρ = 0.1"
    for cid, stmt, val, printed in (("c2", "a₁ ≈ 0.605706", a1, "0.605706"), ("c3", "E[tanh² g] ≈ 0.394294", ef2, "0.394294"),
                                    ("c4", "ρ_nl ≈ 0.127415", rnl, "0.127415"),
                                    ("c5", "ρ_nl − ρ ≈ 0.027415", rnl - RHO, "0.027415")):
        yield rules.reproduction(stmt, val, printed, clauses=cid, scope=scope)
    ROUND = 5e-7 * (1 + 1 + 2 * 0.605706)     # half a printed unit of ρ_nl and of E tanh², and 2a₁ × that of a₁
    yield rules.consistency("the printed ρ_nl agrees with the printed numbers it combines, 0.1 + 0.394294 − 0.605706²",
                            0.127415, 0.1 + 0.394294 - 0.605706 ** 2, atol=ROUND, rtol=0.0, a_label="printed ρ_nl",
                            b_label="combination of the printed a₁ and E tanh²", clauses="c4",
                            scope="the seed's own numbers; tolerance = their printed digits propagated (1.6e-6)")
    yield rules.inequality("the floor ρ_nl lies above ρ = 0.1", rnl, ">", RHO, clauses="c7", scope=scope)
    yield rules.identity("with unlimited tasks (κ = ∞) and α, τ → ∞ the error still exceeds ρ by ρ_nl − ρ = 0.027415",
                         nl.e_icl_nonlinear("tanh", 5e7, 1e8, math.inf, RHO) - RHO, rnl - RHO, atol=1e-5, rtol=0.0,
                         clauses="c8", scope="Result 1 (exact), α = 1e8, τ = α/2, κ = ∞")
    with mpmath.workdps(30):
        stein = mpmath.quad(lambda x: (1 - mpmath.tanh(x) ** 2) * mpmath.npdf(x), [-mpmath.inf, 0, mpmath.inf])
    yield selfcheck.identity("Stein: E[tanh′(g)] = a₁", float(stein), a1, rtol=1e-13)
    yield Derivation(r"\rho_{\rm nl}=\rho+\mathbb E[\tanh^2g]-(\mathbb E[g\tanh g])^2")


def _mp(x):
    return mpmath.mpf(sp.N(x, 30)) if isinstance(x, sp.Basic) else mpmath.mpf(x)
