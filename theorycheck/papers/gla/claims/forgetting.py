r"""Claims of paper 000 on how much to forget: the shape of the error in λ, the optimal λ* and Theorem 3 (seed line 50,
after the monotonicity of ξ) and the experiment row on λ (line 57), in seed order. Conventions as in :mod:`.summary`."""
from __future__ import annotations

import numpy as np
from scipy.optimize import minimize_scalar

from ....claims import Clause, Param
from ....figures import new_figure
from ....verdicts import rules, selfcheck
from ...api import Derivation, Note, Remedy
from .. import theory as gla
from ..derivations import gla_loss as dgl
from ..fixtures import DRIFT_GAMMAS, DRIFT_SEARCH_TASKS, filter_params
from ..generated import gla_loss as gen
from ..registry import claims
from ..theory.sums import scaled_sums
from ..settings import (D_EXP, LAM_RESOLUTION, N_EXP, P_D, P_LAMBDA, P_N, P_NOISE, P_SE2, P_SE2_STATIONARY, P_SW2, SE2,
                        SE2_RANGE, SW2, gamma_param, params_exp, quick_undecided, sizes)
from ._helpers import (batch_estimate, error_curve, filter_trivial, filters_scope, fmt_grid, inverted_u_search, opt,
                       paired)

EXP = f"d = {D_EXP}, n = {N_EXP}"
# ============================================================================ line 50
@claims.claim("000-inverted-u", lines=(50, 50), weight="main",
              title="The train error is an inverted U in λ, with the optimum λ* < 1 rather than λ = 1",
              fragment="即误差对 $\\lambda$ 呈倒 U 形，最优遗忘因子取在 $\\lambda^*<1$ 而非 $\\lambda=1$",
              clauses=[Clause("c1", "即误差对 $\\lambda$ 呈倒 U 形", "inference"),
                       Clause("c2", "最优遗忘因子取在 $\\lambda^*<1$ 而非 $\\lambda=1$")],
              conventions=["C1", "C4", "C10"])
def inverted_u(ctx):
    """The error is an inverted-U function of λ, and the optimal forgetting factor is λ* < 1 rather than λ = 1."""
    GAMMAS = (0.5, 0.8, 0.95)
    _, _, ext = inverted_u_search(ctx, "000-inverted-u/search", 2 if ctx.quick else 7)
    for g in GAMMAS:
        for label, se2, p in (("σ_e² = 0.01", SE2, P_SE2), ("stationary σ_e² = 1 − γ²", 1 - g * g, P_SE2_STATIONARY)):
            lams, err = error_curve(g, se2=se2)
            yield rules.shape(f"the train error is inverted-U in λ (γ = {g}, {label})", lams, err,
                              shape="unimodal-maximum", resolution=0.01, clauses="c1", details={"x_name": "λ"},
                              params=[P_D, P_N, P_NOISE, P_SW2, P_LAMBDA, gamma_param(g), p], extent=ext,
                              scope=f"{EXP}, σ_w² = 1, {label}, λ grid 0.01..1 (step 0.01), exact")
    fig, axes = new_figure(2, 1, width=4.4)
    axes = axes.ravel()
    for g in GAMMAS:
        lams, err = error_curve(g)
        axes[0].plot(lams, err, label=f"γ={g}")
        axes[1].plot(lams, [gla.xi(x, g, N_EXP, D_EXP, SW2, SE2) for x in lams], label=f"γ={g}")
    axes[0].set(xlabel="λ", ylabel="train error (not halved)")
    axes[1].set(xlabel="λ", ylabel="ξ(λ) = D₁²/D₂")
    axes[0].legend(fontsize=7)
    ctx.save_figure(fig, "gla_error_and_xi_vs_lambda",
                    f"Exact train error (left) and ξ = D₁²/D₂ (right) against λ on a grid of 100 points, {EXP}, "
                    f"σ_w² = 1, σ_e² = 0.01, γ ∈ {fmt_grid(GAMMAS)}.")
    opts = [opt(g) for g in GAMMAS] + [opt(g, se2=1 - g * g) for g in GAMMAS]
    yield rules.inequality("λ* < 1 with a lower error than λ = 1", [r.error for r in opts], "<",
                           [r.error_linear_attention for r in opts], clauses="c2",
                           params=[P_D, P_N, P_NOISE, P_SW2, P_LAMBDA, gamma_param(GAMMAS), P_SE2],
                           scope=f"{EXP}, σ_w² = 1, σ_e² ∈ {{0.01, 1 − γ²}}, γ ∈ {fmt_grid(GAMMAS)}, exact")
    yield Remedy("describe the error as U-shaped in λ and ξ as the inverted U: the error's minimum is at λ* = {l5}, "
                 "{l8} and {l95} (γ = 0.5, 0.8, 0.95; d = 10, n = 100) and its largest value at an end of (0, 1]",
                 clauses=["c1"], l5=opts[0].lam, l8=opts[1].lam, l95=opts[2].lam)
    yield Note("For Λ = I the train error is d(s_{n+1} − ξ) + σ² (000-thm2-xi): the error and ξ have mirrored shapes — "
               "ξ is the inverted U, the error a U with its minimum at λ*. The extent search samples the whole "
               "admissible range of γ, σ_e², n and d and finds no interior maximum anywhere.")


@claims.claim("000-faster-drift-more-forgetting", lines=(50, 50), weight="main", needs=("drift_search",),
              title="A quantitative answer to how much to forget: the faster the drift, the smaller λ*",
              fragment="这给\"为什么要遗忘、遗忘多少\"一个定量答案：漂移越快（$\\gamma$ 越小）越该多遗忘",
              clauses=[Clause("c1", "这给\"为什么要遗忘、遗忘多少\"一个定量答案"),
                       Clause("c2", "漂移越快（$\\gamma$ 越小）越该多遗忘")],
              conventions=["C1", "C4", "C10"])
def faster_drift_more_forgetting(ctx, drift_search):
    """This gives a quantitative answer to why and how much to forget: the faster the drift (the smaller γ), the more
    one should forget — λ* is unique and increases with γ."""
    GAMMAS = DRIFT_GAMMAS[::5] if ctx.quick else DRIFT_GAMMAS        # quick: the fixture's coarser γ grid
    pts = [r for k in sorted(drift_search) for r in drift_search[k]]       # the search, in DRIFT_SEARCH_TASKS tasks
    steps, minima = [r["step"] for r in pts], [r["minima"] for r in pts]
    searched = [P_SW2, P_NOISE, P_LAMBDA, Param("gamma", "grid 0.05..0.995", "chosen", "γ grid of step 0.01",
                                                 admissible=(0.05, 0.995)),
                Param("sigma_e2", "sample", "chosen", "Sobol (log)", admissible=SE2_RANGE),
                Param("n", "sample", "chosen", "Sobol (log)", admissible=(2, 1000)),
                Param("d", "sample", "chosen", "Sobol (log)", admissible=(1, 100))]
    yield rules.inequality("a quantitative answer: the error has one minimum in λ (λ* unique) at every point",
                           minima, "<=", 1, clauses="c1", params=searched, undecided=quick_undecided(ctx),
                           scope=f"{len(pts)} points (Sobol + corners) of σ_e² ∈ [1e-4, 1], n ∈ [2, 1000], d ∈ [1, 100], "
                                 f"each on the γ grid 0.05..0.995 (step 0.01); strict local minima on a 101-point λ scan")
    yield rules.inequality("λ*(γ) increases with γ at every point of the search (smallest step of λ* over the γ grid "
                           "> 0)", steps, ">", 0.0, clauses="c2", params=searched, undecided=quick_undecided(ctx),
                           scope=f"the same {len(pts)} points, γ step 0.01, λ* by Brent (1e-10), exact")
    for d in ((D_EXP,) if ctx.quick else (1, D_EXP, 100)):
        for label, f, p in (("σ_e² = 0.01", lambda g: SE2, P_SE2), ("stationary σ_e² = 1 − γ²", lambda g: 1 - g * g,
                                                                      P_SE2_STATIONARY)):
            lam = [opt(g, d=d, se2=f(g)).lam for g in GAMMAS]
            yield rules.shape(f"λ*(γ) increases (d = {d}, {label})", GAMMAS, lam, shape="increasing",
                              resolution=0.05 if ctx.quick else 0.01,
                              clauses="c2", params=[P_N, P_NOISE, P_SW2, P_LAMBDA, Param(
                                  "gamma", "0.05..0.995 step 0.01", "chosen", "γ grid", admissible=(0.05, 0.995)), p],
                              scope=f"d = {d}, n = {N_EXP}, σ_w² = 1, {label}, γ grid 0.05..0.995 (step 0.01), exact")
    yield Note(f"Tasks: the search over (σ_e², n, d) runs as {DRIFT_SEARCH_TASKS} tasks (every "
               f"{DRIFT_SEARCH_TASKS}-th Sobol point each; the points and the numbers are those of one task).")


@claims.claim("000-lambda-equals-gamma-not-optimal", lines=(50, 50), weight="supporting",
              title="Despite the λ/γ symmetry, λ = γ is not necessarily optimal: a noise–trace balance",
              fragment="尽管 $\\lambda,\\gamma$ 在公式里结构对称，最优却不一定取 $\\lambda=\\gamma$，因为噪声项与 $\\tilde\\Lambda^{-1}$ "
                       "的 trace 项之间存在微妙平衡",
              clauses=[Clause("c1", "尽管 $\\lambda,\\gamma$ 在公式里结构对称", "condition"),
                       Clause("c2", "最优却不一定取 $\\lambda=\\gamma$"),
                       Clause("c3", "因为噪声项与 $\\tilde\\Lambda^{-1}$ 的 trace 项之间存在微妙平衡", "inference")],
              readings={},
              conventions=["C1", "C4", "C7", "C10"])
def lambda_equals_gamma_not_optimal(ctx):
    """Despite the λ/γ symmetry of the formulas, the optimum is not necessarily λ = γ, because of a subtle balance
    between the noise term and the trace term of Λ̃⁻¹."""
    gs = (0.8, 0.9, 0.95)
    s = 0.5                                      # stationary per-coordinate variance, σ_e² = s(1 − γ²)
    d1 = [gla.moment_sums(a, b, 30, s, s * (1 - b * b)).D1 for a, b in ((0.6, 0.8), (0.8, 0.6))]
    yield rules.identity("the symmetric structure: at stationarity D₁ = s Σ_k (λγ)^k is symmetric in λ ↔ γ", d1[0], d1[1],
                         rtol=1e-10, clauses="c1", scope="(λ, γ) = (0.6, 0.8) and (0.8, 0.6), n = 30, stationary "
                                                         "variance s = 0.5, exact")
    offs = [abs(opt(g).lam - g) for g in gs]
    yield rules.inequality("λ* differs from γ by more than the resolution 1e-4", offs, ">", LAM_RESOLUTION, clauses="c2",
                           params=params_exp(gs), scope=f"{EXP}, γ ∈ {fmt_grid(gs)}, λ* by Brent (1e-10), exact")
    noise_free = {se2: gla.optimal_lambda(0.8, N_EXP, D_EXP, SW2, se2, grid_size=201).lam - 0.8
                  for se2 in (SE2_RANGE[0], SE2, SE2_RANGE[1])}
    ext = {"searched": {"sigma_e2": list(SE2_RANGE)},
           "holds_throughout": all(abs(v) > LAM_RESOLUTION for v in noise_free.values()),
           "values": {f"{k:g}": v for k, v in noise_free.items()}}
    yield rules.inequality("the offset needs the label-noise term σ²N₀: without label noise λ* = γ", abs(noise_free[SE2]),
                           "<=", LAM_RESOLUTION, clauses="c3", reading="noise term = the label noise σ²N₀ of Λ̃",
                           params=params_exp([0.8]), extent=ext,
                           scope=f"{EXP}, γ = 0.8, σ² = 0 (the seed's model): λ* − γ = {noise_free[SE2]:.4f}")
    # class 4 (issue 29): the cause is tested by the share of the effect the named term carries, exactly, at the
    # experiments' d = 10. Share = part of the gain of moving off the symmetric guess λ = γ (L(γ) → L(λ*)) that is
    # lost when λ is chosen by ξ without the term (λ*₋), everything evaluated on the true train error L. 'Because of'
    # = the term carries the majority of the effect: threshold 0.5, declared here before the data.
    BECAUSE = 0.5
    G0, NOISY = 0.8, 0.1                  # γ of the claim; a label-noise level at which the σ²N₀ term is present
    rows = {}
    for label, a2, nz, noise in (("A₂ (+ σ²N₀), σ² = 0", 0.0, 1.0, 0.0), ("σ²N₀, σ² = 0", 1.0, 0.0, 0.0),
                                  (f"σ²N₀, σ² = {NOISY:g}", 1.0, 0.0, NOISY)):
        full = gla.optimal_lambda(G0, N_EXP, D_EXP, SW2, SE2, noise, grid_size=201)
        minus = _argmax_xi_without(G0, a2, nz, noise)
        loss = lambda x: gla.train_error(x, G0, N_EXP, D_EXP, SW2, SE2, noise)      # noqa: E731
        rows[label] = {"full": full.error, "without": loss(minus), "baseline": loss(G0), "lam": full.lam,
                       "lam_without": minus}
    r = rows["A₂ (+ σ²N₀), σ² = 0"]
    yield rules.share("the offset of λ* from γ is carried by A₂ + σ²N₀ (without it the optimum is λ = γ)",
                      full=r["full"], without=r["without"], baseline=r["baseline"], threshold=BECAUSE, clauses="c3",
                      reading="noise term = A₂ + σ²N₀ (everything in Λ̃ but the trace term)",
                      params=params_exp([G0]),
                      details={"lam_star": r["lam"], "lam_without_term": r["lam_without"]},
                      scope=f"{EXP}, γ = {G0}, σ_e² = 0.01, exact: λ* = {r['lam']:.4f}; without A₂ the maximiser of ξ is "
                            f"{r['lam_without']:.6f}; baseline: the symmetric guess λ = γ")
    for label in ("σ²N₀, σ² = 0", f"σ²N₀, σ² = {NOISY:g}"):
        q = rows[label]
        yield rules.share(f"the offset of λ* from γ is carried by the label-noise term σ²N₀ ({label.split(', ')[1]})",
                          full=q["full"], without=q["without"], baseline=q["baseline"], threshold=BECAUSE,
                          clauses="c3", reading="noise term = the label noise σ²N₀ of Λ̃",
                          params=params_exp([G0]) if label.endswith("= 0") else
                          [*params_exp([G0])[:2], *params_exp([G0])[3:], Param(
                              "label_noise", NOISY, "chosen", "a label noise at which the σ²N₀ term is present",
                              admissible=(0.0, 10.0))],
                          details={"lam_star": q["lam"], "lam_without_term": q["lam_without"]},
                          scope=f"{EXP}, γ = {G0}, σ_e² = 0.01, {label.split(', ')[1]}, exact: λ* = {q['lam']:.4f}; "
                                f"without σ²N₀ the maximiser of ξ is {q['lam_without']:.4f}")
    offs = {}
    for d in (10, 100, 1000):
        exact = gla.optimal_lambda(0.8, N_EXP, d, SW2, SE2, grid_size=201).lam - 0.8
        offs[d] = exact
        if d == 1000:     # our first-order formula against our exact optimum: a self-check, not evidence
            pred = gla.lambda_star_large_d_correction(0.8, N_EXP, d, SW2, SE2)["lam_pred"] - 0.8
            yield selfcheck.identity("first-order law G′(γ)/((d + 1)F″(γ)) = the exact offset λ* − γ to 5 % (d = 1000)",
                                     exact, pred, rtol=0.05)
    yield Remedy("say that λ* < γ at finite d because of the A₂ term (it carries {share} % of the offset; label noise "
                 "shrinks it, to {o_noisy} at σ² = {nz}); the offset vanishes like 1/d: {o10}, {o100}, {o1000} at "
                 "d = 10, 100, 1000", clauses=["c3"],
                 share=100 * (r["without"] - r["full"]) / (r["baseline"] - r["full"]),
                 o_noisy=rows[f"σ²N₀, σ² = {NOISY:g}"]["lam"] - G0, nz=NOISY,
                 o10=offs[10], o100=offs[100], o1000=offs[1000])
    yield Note("G = (A₂ + σ²N₀)/B and F = log(D₁²/B) (theorycheck.gla.lambda_star_large_d_correction). As d → ∞ only "
               "the trace term remains and λ* = γ (000-monotonicity-regimes); at finite d the A₂ term pulls λ* below "
               "γ even without label noise. The seed does not define its 'noise term'; in its model (no label noise) "
               "every term of Λ̃ is built from the AR(1) covariance that the drift noise drives, so no word of the "
               "sentence rules the A₂ reading out.")


def _argmax_xi_without(gamma, a2, nz, noise):
    """The maximiser over λ of ξ = D₁²/(a2·A₂ + (d + 1)B + nz·σ²N₀) at the experiments' d, n (a term removed by a
    zero coefficient): bounded Brent, xatol 1e-11."""
    def neg(x):
        _, sm, nzc = scaled_sums(x, gamma, N_EXP, SW2, SE2, noise)
        return -sm.D1 ** 2 / (a2 * sm.A2 + (D_EXP + 1) * sm.B + nz * nzc * sm.N0)
    return float(minimize_scalar(neg, bounds=(1e-3, 1.0), method="bounded", options={"xatol": 1e-11}).x)


@claims.claim("000-thm3-test-error", lines=(50, 50), weight="main",
              title="Theorem 3: the exact generalisation error when train and test laws differ",
              fragment="定理 3 进一步把分析延伸到训练/测试分布不同（序列长度、动态、分布都可变）的泛化误差",
              clauses=[Clause("c1", "定理 3 进一步把分析延伸到训练/测试分布不同（序列长度、动态、分布都可变）的泛化误差")],
              conventions=["C1", "C4", "C5"])
def thm3_test_error(ctx):
    """Theorem 3 characterises the test error exactly when the train and test distributions differ (sequence length,
    dynamics, input distribution)."""
    sz = sizes(ctx)
    blocks = dgl.isserlis_blocks(2)["pairs"]
    for name, (got, want) in blocks.items():
        yield rules.identity(f"Isserlis block '{name}' of the loss at any fixed Γ has the closed form", got, want,
                             clauses="c1",
                             scope="SymPy, d = 2, symbolic Λ, s_i, ρ_ij, σ² (any test law of the model family)")
    yield Derivation(gen.LATEX["loss"])
    shifts = [("sequence length n 20 → 40", (0.7, 0.8, 20, np.eye(3), 1.0, 0.1, 0.0), dict(test_n=40)),
              ("dynamics γ 0.8 → 0.95 and inputs Λ → diag(2, 1, 0.5)", (0.7, 0.8, 20, np.eye(3), 1.0, 0.1, 0.0),
               dict(test_gamma=0.95, test_Lambda=np.diag([2.0, 1.0, 0.5]))),
              ("law σ_w² 1 → 0.3, σ_e² 0.05 → 0.2, σ² 0 → 0.5", (0.9, 0.9, 30, np.eye(2), 1.0, 0.05, 0.0),
               dict(test_sigma_w2=0.3, test_sigma_e2=0.2, test_noise=0.5))]
    for k, (name, (lam, g, n, L, sw2, se2, noise), te) in enumerate(shifts):
        o = gla.optimal_parameters(lam, g, n, L, sw2, se2, noise)
        exact = gla.test_error(lam, g, n, L, sw2, se2, noise, **te)
        e = gla.gla_squared_errors(lam, te.get("test_gamma", g), te.get("test_n", n), te.get("test_Lambda", L),
                                   te.get("test_sigma_w2", sw2), te.get("test_sigma_e2", se2), te.get("test_noise", noise),
                                   W_KQ=o.W_KQ, W_V=o.W_V, n_samples=sz["stress_mc_prompts"],
                                   seed=ctx.seed_for(f"000-thm3/{k}"))
        # our closed form against our simulation of the recursion: a self-check, never a vote (issue 29)
        yield selfcheck.agreement(f"test error under a shift of the {name} = the exact expression (train λ = {lam}, "
                                  f"γ = {g}, n = {n}, d = {L.shape[0]}; {e.size} test prompts)",
                                  batch_estimate(e, sz["mc_batches"]), exact)
    yield Note("Theorem 3's characterisation is decided by the exact derivation (the Isserlis blocks of the loss at any "
               "fixed Γ, under any test law of the model family: length, dynamics, input and noise law); the Monte Carlo "
               "of the recursion under each named shift is our closed form against our simulation, a self-check.")


@claims.claim("000-thm3-floor", lines=(50, 50), weight="supporting",
              title="Theorem 3: because of the task-evolution noise the test error has an irreducible floor",
              fragment="并指出由于任务演化噪声的存在，测试误差存在不可约下界",
              clauses=[Clause("c1", "并指出由于任务演化噪声的存在，测试误差存在不可约下界")],
              conventions=["C1", "C4"])
def thm3_floor(ctx):
    """Because of the task-evolution noise the test error has an irreducible lower bound (σ_e² tr Λ + σ² > 0)."""
    lhs, rhs = [], []
    for g in (0.8, 0.95):
        r = opt(g)
        for tg in (0.5, 0.8, 0.95, 1.0):
            for tn in (20, 100, 1000, 10000):
                for tse in (0.001, 0.01, 0.1):
                    lhs.append(gla.test_error(r.lam, g, N_EXP, np.eye(D_EXP), SW2, SE2, test_gamma=tg, test_n=tn,
                                              test_sigma_e2=tse))
                    rhs.append(gla.irreducible_floor(np.eye(D_EXP), tse))
    yield rules.inequality("test error ≥ σ_e² tr Λ (train-optimal GLA, any test length and drift)", lhs, ">=", rhs,
                           params=[*params_exp((0.8, 0.95)), Param("test_law", "grid", "chosen", "test γ, n, σ_e² grid",
                                                                   admissible=("any",))],
                           scope=f"{EXP} in training (γ ∈ {{0.8, 0.95}}, σ_w² = 1, σ_e² = 0.01, λ*), test γ ∈ "
                                 "{0.5, 0.8, 0.95, 1}, test n ∈ {20, 100, 1000, 10000}, test σ_e² ∈ {0.001, 0.01, 0.1}, exact")
    yield rules.inequality("the bound is positive whenever there is drift noise", rhs, ">", 0.0,
                           scope="test σ_e² ∈ {0.001, 0.01, 0.1}, Λ = I_10")
    # 'irreducible': the best GLA for the test law itself (min over λ and Γ of the exact loss) stays above the floor;
    # random laws, declared before the data
    rng = np.random.default_rng(ctx.seed_for("000-thm3-floor/random-laws"))
    best, floor = [], []
    for _ in range(12):
        g, n, d = rng.uniform(0.05, 1.0), int(np.exp(rng.uniform(np.log(2), np.log(10_000)))), int(rng.integers(1, 20))
        se2, nz = np.exp(rng.uniform(np.log(1e-4), 0.0)), rng.choice([0.0, 0.1])
        best.append(gla.optimal_lambda(g, n, d, SW2, se2, nz, grid_size=101).error)
        floor.append(gla.irreducible_floor(np.eye(d), se2, nz))
    yield rules.inequality("min over λ and Γ of the exact error ≥ σ_e² tr Λ + σ² (the best GLA for the law itself)",
                           best, ">=", floor, clauses="c1",
                           params=[P_SW2, P_LAMBDA, Param("law", "12 random draws", "chosen", "random laws across the "
                                                          "admissible ranges", admissible=("any",))],
                           scope="12 random laws: γ ∈ U(0.05, 1), n ∈ [2, 10⁴] (log-uniform), d ∈ [1, 20), σ_e² ∈ "
                                 "[1e-4, 1] (log-uniform), σ² ∈ {0, 0.1}, σ_w² = 1, exact")
    # 'because of the drift noise': without drift the error vanishes with n (declared: L*(n = 10⁵) ≤ 1e-3 tr Λ)
    static = gla.train_error(1.0, 1.0, 100_000, D_EXP, SW2, 0.0)
    yield rules.inequality("without drift (σ_e² = 0, γ = 1) there is no floor: L*(λ = 1, n = 10⁵) ≤ 1e-3 tr Λ", static,
                           "<=", 1e-3 * D_EXP, clauses="c1", params=[P_D, P_SW2, P_LAMBDA, P_NOISE],
                           scope=f"d = {D_EXP}, γ = 1, σ_e² = 0, no label noise, n = 10⁵, exact (d(d+1)/(n+d+1))")
    yield Note("The bound holds for any predictor: the innovation e_{n+1} is independent of the prompt and x_{n+1} "
               "(theorycheck.gla.irreducible_floor).")


@claims.claim("000-floor-favours-soft-integration", lines=(50, 50), weight="supporting", needs=("filters",),
              title="The floor is where GLA's soft integration beats hard updates (LMS/RLS)",
              fragment="这恰恰是 GLA 软性整合历史信息相对硬参数更新（LMS/RLS）的价值所在",
              clauses=[Clause("c1", "这恰恰是 GLA 软性整合历史信息相对硬参数更新（LMS/RLS）的价值所在", "inference")],
              conventions=["C1", "C4", "C6"],
              readings={"the floor itself favours GLA": "ruled out by the words «相对硬参数更新（LMS/RLS）的价值»: a value "
                                                        "relative to LMS/RLS, which a floor common to every predictor "
                                                        "(LMS, RLS and GLA alike, see the note) cannot carry"})
def floor_favours_soft_integration(ctx, filters):
    """The irreducible floor is exactly where the value of GLA's soft integration of the history, relative to the hard
    parameter updates of LMS/RLS, lies."""
    floor = gla.irreducible_floor(np.eye(D_EXP), SE2)
    for g in sorted(filters):
        f = filters[g]
        for name in ("lms", "rls"):
            yield rules.superiority(f"above the common floor σ_e² tr Λ = {floor:g}, GLA's excess is smaller than "
                                    f"{name.upper()}'s (γ = {g})", paired(f, name, "gla"), clauses="c1",
                                    reading="the value of soft integration = GLA's smaller excess error over the floor "
                                            "every predictor shares", params=filter_params(f),
                                    trivial=filter_trivial(f), details={"floor": floor},
                                    scope=filters_scope(f) + f"; floor σ_e² tr Λ = {floor:g} (exact)")
    f9 = filters[max(filters)]
    gap = {k: -paired(f9, k, "gla").mean for k in ("lms", "rls")}
    if min(gap.values()) > 0:
        yield Remedy("state the setting (d, σ_e², σ_w²) under which GLA comes closer to the floor than tuned filters: at "
                     "d = 10, γ = {g} GLA's error exceeds LMS's by {lms} and RLS's by {rls}", clauses=["c1"],
                     g=max(filters), lms=gap["lms"], rls=gap["rls"])
    yield Note("The floor bounds every predictor of y_{n+1} from the past alike (GLA, LMS, RLS, the Kalman filter): the "
               "innovation e_{n+1} is independent of all they see. So the floor itself cannot separate GLA from LMS/RLS "
               "(an inference whose premise also holds for the alternative it contrasts with); the sentence is read as "
               "'GLA comes closer to the common floor', the same paired comparison as 000-gla-below-filters.")


# ============================================================================ line 57
@claims.claim("000-experiment-inverted-u", lines=(57, 57), weight="supporting",
              title="Experiment (d = 10, n = 100): train/test loss an inverted U in λ, optimum λ* < 1",
              fragment="训练/测试损失随 $\\lambda$ 呈倒 U 形，最优 $\\lambda^*<1$",
              clauses=[Clause("c1", "训练/测试损失随 $\\lambda$ 呈倒 U 形"), Clause("c2", "最优 $\\lambda^*<1$")],
              conventions=["C1", "C4", "C5", "C7", "C10"])
def experiment_inverted_u(ctx):
    """(d = 10, n = 100) The train and test losses are inverted-U functions of λ, with optimum λ* < 1."""
    LAMS_MC = (0.2, 0.5, 0.8, 1.0)     # Monte Carlo checkpoints of the exact curve
    sz = sizes(ctx)
    _, _, ext = inverted_u_search(ctx, "000-experiment-inverted-u/search", 2 if ctx.quick else 7)
    for g in (0.8, 0.95):
        lams, err = error_curve(g)
        yield rules.shape(f"train / test loss inverted-U in λ (γ = {g})", lams, err, shape="unimodal-maximum",
                          resolution=0.01, clauses="c1", params=params_exp([g]), extent=ext, details={"x_name": "λ"},
                          scope=f"{EXP}, γ = {g}, λ grid 0.01..1 (100 points), exact population loss of the "
                                "train-optimal weights (= the test loss on fresh prompts of the training law)")
        r = opt(g)
        yield rules.inequality(f"λ* < 1 (γ = {g})", r.lam, "<", 1.0, clauses="c2", params=params_exp([g]),
                               scope=f"{EXP}, γ = {g}, λ* = {r.lam:.4f} (Brent), exact")
        for lam in LAMS_MC:
            e = gla.gla_squared_errors(lam, g, N_EXP, np.eye(D_EXP), SW2, SE2, n_samples=sz["mc_prompts"],
                                       seed=ctx.seed_for(f"000-exp-u/{g}/{lam}"))
            yield selfcheck.agreement(f"test MSE of the recursion = exact loss curve (γ = {g}, λ = {lam})",
                                      batch_estimate(e, sz["mc_batches"]), gla.train_error(lam, g, N_EXP, D_EXP, SW2, SE2))
    yield Remedy("describe the train/test loss as U-shaped in λ: at d = 10, n = 100 its minimum is at λ* = {l8} "
                 "(γ = 0.8) and {l95} (γ = 0.95), its largest value at λ = 1", clauses=["c1"], l8=opt(0.8).lam,
                 l95=opt(0.95).lam)
    yield Note("In the population (train on the law, test on fresh prompts of the same law) the train and the test "
               "loss at a fixed λ are the same function of λ; the Monte Carlo checkpoints test that curve on the "
               "actual recursion. The loss is a U (an interior minimum at λ*), not an inverted U, wherever searched.")


_READ_METRIC = {"gain": "need = relative gain of λ* over λ = 1",
                "sensitivity": "need = relative error increase when λ is off by 0.05",
                "forgetting": "need = amount of forgetting 1 − λ*"}
_READ_NOISE = {"drift": "noise = drift noise σ_e² (relative to σ_w²)", "label": "noise = label noise σ²"}


#: the extent search of 000-lambda-importance (declared before the data): σ_e² on a log grid over SE2_RANGE, label
#: noise σ² on [0, 10] (its admissible range), both ends included
IMPORTANCE_SE2 = tuple(float(x) for x in np.logspace(-4, 0, 25))
IMPORTANCE_LABEL = tuple(float(x) for x in np.concatenate([[0.0], np.logspace(-3, 1, 17)]))
IMPORTANCE_SE2_LABEL = tuple(float(x) for x in np.logspace(-4, 0, 9))


#: a rise of the need smaller than this (relative to the measure) is below the resolution of λ* (Brent's search, xatol
#: 1e-10, leaves λ* noisy at ~1e-8 where it does not depend on the noise level). Added after the first search, which
#: counted such 1e-8 wiggles of a constant measure as rises.
RISE_RESOLUTION = 1e-6


def _rises(vals) -> list:
    """Indices i where vals[i + 1] exceeds vals[i] by more than RISE_RESOLUTION (relative): the need grows."""
    return [i for i in range(len(vals) - 1) if vals[i + 1] - vals[i] > RISE_RESOLUTION * max(abs(vals[i]), 1e-12)]


def _gamma_extent(table, mk, se2s=IMPORTANCE_SE2) -> dict:
    """Extent of a failure of 'the need for λ grows as γ decreases' on the seed's own γ's (0.8: line 58, 0.95: line
    65): at every σ_e² of the search, the measure at γ = 0.95 exceeds that at γ = 0.8 (by more than the resolution).
    The γ's are stated there, so only σ_e² (chosen) needs covering. (On the toolkit's grid, which adds chosen γ's, no
    such coverage is claimed: a grid of chosen γ's near 1 can show the need growing as γ decreases.)"""
    bad = [se2 for se2 in se2s if not _rises([table[(0.8, se2)][mk], table[(0.95, se2)][mk]])]
    return {"searched": {"sigma_e2": [SE2_RANGE[0], SE2_RANGE[1]]},
            "holds_throughout": not bad, "samples": len(se2s),
            "criterion": f"{mk}(γ = 0.95) > {mk}(γ = 0.8) at every σ_e² of a {len(se2s)}-point log grid over "
                         f"[{SE2_RANGE[0]:g}, {SE2_RANGE[1]:g}]",
            "no_counterexample_at_sigma_e2": "everywhere searched" if len(bad) == len(se2s) else bad}


def _noise_extent(curves, levels, name, lo, hi) -> dict:
    """Extent of a failure of 'the need for λ grows with the noise': the need never rises between neighbouring
    samples of the noise level over its admissible range (for each value of the other chosen parameter in
    ``curves``), so no admissible grid of levels shows it growing; else where it rises."""
    rises = {k: [(levels[i], levels[i + 1]) for i in _rises(v)] for k, v in curves.items()}
    searched = {name: [lo, hi]}
    if name == "label_noise":
        searched["sigma_e2"] = [SE2_RANGE[0], SE2_RANGE[1]]
    return {"searched": searched, "holds_throughout": not any(rises.values()), "samples": len(levels),
            "rises_between": {str(k): v for k, v in rises.items() if v}}


@claims.claim("000-lambda-importance", lines=(57, 57), weight="supporting",
              title="The smaller γ and the larger the noise, the more an appropriate λ matters",
              fragment="$\\gamma$ 越小、噪声影响越大，越需要合适的 $\\lambda$",
              clauses=[Clause("c1", "$\\gamma$ 越小", "condition"), Clause("c2", "、噪声影响越大", "condition"),
                       Clause("c3", "，越需要合适的 $\\lambda$")],
              conventions=["C1", "C4", "C7", "C10"])
def lambda_importance(ctx):
    """The smaller γ and the larger the noise's influence, the more an appropriate λ is needed."""
    GAMMAS = (0.5, 0.8, 0.9, 0.95, 0.975)
    SEED_GAMMAS = (0.8, 0.95, 0.975)      # the γ's the seed names (stated)
    DRIFT = (0.001, 0.01, 0.1)            # σ_e² with σ_w² = 1
    LABEL = (0.0, 0.1, 1.0)               # σ² with σ_e² = 0.01
    DELTA = 0.05
    p_drift = Param("sigma_e2", DRIFT, "chosen", "levels of drift noise (σ_w² = 1)", admissible=SE2_RANGE)
    p_label = Param("label_noise", LABEL, "chosen", "levels of label noise (the seed's model has none)",
                    admissible=(0.0, 10.0))
    base = {g: gla.lambda_importance(g, N_EXP, D_EXP, SW2, SE2, 0.0, DELTA) for g in GAMMAS}
    drift = {(g, s): gla.lambda_importance(g, N_EXP, D_EXP, SW2, s, 0.0, DELTA) for g in (0.8, 0.95) for s in DRIFT}
    label = {(g, s): gla.lambda_importance(g, N_EXP, D_EXP, SW2, SE2, s, DELTA) for g in (0.8, 0.95) for s in LABEL}
    # the extent search (rule above: _gamma_extent, _noise_extent), exact
    se2s = IMPORTANCE_SE2[::6] if ctx.quick else IMPORTANCE_SE2            # quick: a coarser extent search
    se2_label = IMPORTANCE_SE2_LABEL[::4] if ctx.quick else IMPORTANCE_SE2_LABEL
    labels = IMPORTANCE_LABEL[::4] if ctx.quick else IMPORTANCE_LABEL
    dense = {(g, s): gla.lambda_importance(g, N_EXP, D_EXP, SW2, s, 0.0, DELTA) for g in (0.8, 0.95) for s in se2s}
    dense_label = {(g, e, s): gla.lambda_importance(g, N_EXP, D_EXP, SW2, e, s, DELTA) for g in (0.8, 0.95)
                   for e in se2_label for s in labels}
    for mk, mtext in _READ_METRIC.items():
        for nk, ntext in _READ_NOISE.items():
            reading = f"{mtext}; {ntext}"
            yield rules.shape(f"the need for λ grows as γ decreases ({mk})", GAMMAS, [base[g][mk] for g in GAMMAS],
                              shape="decreasing", reading=reading, clauses=["c1", "c3"], params=params_exp(GAMMAS),
                              scope=f"{EXP}, γ ∈ {fmt_grid(GAMMAS)}, exact")
            yield rules.shape(f"the need for λ grows as γ decreases, the seed's γ's ({mk})", SEED_GAMMAS,
                              [base[g][mk] for g in SEED_GAMMAS], shape="decreasing", reading=reading,
                              clauses=["c1", "c3"], params=params_exp(SEED_GAMMAS), extent=_gamma_extent(dense, mk, se2s),
                              scope=f"{EXP}, γ ∈ {fmt_grid(SEED_GAMMAS)} (lines 58, 65, 72), exact")
            levels, table = (DRIFT, drift) if nk == "drift" else (LABEL, label)
            for g in (0.8, 0.95):
                ps = [P_D, P_N, P_SW2, P_LAMBDA, gamma_param(g)] + ([p_drift, P_NOISE] if nk == "drift" else
                                                                    [P_SE2, p_label])
                ext = (_noise_extent({"": [dense[(g, s)][mk] for s in se2s]}, se2s, "sigma_e2",
                                     *SE2_RANGE) if nk == "drift" else
                       _noise_extent({f"σ_e² = {e:.3g}": [dense_label[(g, e, s)][mk] for s in labels]
                                      for e in se2_label}, labels, "label_noise", 0.0, 10.0))
                yield rules.shape(f"the need for λ grows with the {nk} noise (γ = {g}, {mk})", levels,
                                  [table[(g, s)][mk] for s in levels], shape="increasing", reading=reading,
                                  clauses=["c2", "c3"], params=ps, extent=ext,
                                  scope=f"{EXP}, γ = {g}, " + (f"σ_w² = 1, σ_e² ∈ {fmt_grid(levels)}" if nk == "drift"
                                                               else f"σ_e² = 0.01, σ² ∈ {fmt_grid(levels)}") + ", exact")
    yield Remedy("say 'the smaller γ, the more one should forget' (1 − λ* = {f8} at γ = 0.8, {f975} at γ = 0.975): the "
                 "gain from tuning λ grows with γ ({g8} % → {g975} %) and does not grow with the noise (at γ = 0.8 it is "
                 "{gl0} % without label noise and {gl1} % at σ² = 1)", clauses=["c1", "c2", "c3"],
                 f8=base[0.8]["forgetting"], f975=base[0.975]["forgetting"], g8=100 * base[0.8]["gain"],
                 g975=100 * base[0.975]["gain"], gl0=100 * label[(0.8, 0.0)]["gain"], gl1=100 * label[(0.8, 1.0)]["gain"])
    yield Note("Measures (theorycheck.gla.lambda_importance): gain = 1 − L*(λ*)/L*(1); sensitivity = "
               "max± L*(λ* ± 0.05)/L*(λ*) − 1; forgetting = 1 − λ*. The seed's model has no label noise (C1); the "
               "label-noise reading extends it.")
