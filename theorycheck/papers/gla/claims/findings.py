r"""Claims of paper 000 from the key findings to the limitations (seed lines 70–89), in seed order.

The experiments' settings the seed leaves open (d of the filter experiment, σ_w², σ_e², filter
grids, the multi-layer architecture and its training, initialisation scales) are the toolkit's
choices (convention C7) and are passed as ``chosen``: a failure under them is "not reproduced".
"""
from __future__ import annotations

import numpy as np

from ....claims import Clause, Param
from ....figures import new_figure
from ....models.filters import kalman_errors
from ....models.prompts import ar1_stream
from ....verdicts import Estimate, rules, selfcheck
from ...api import Note, Remedy
from .. import theory as gla
from ..fixtures import GRADIENT_ROUTE_NOTE, LANDSCAPE_MODEL, filter_params, rec_params
from ..reconciliation import MODEL_MARGIN_REL
from ..registry import claims
from ..settings import (D_EXP, D_RANGE, GAMMA_FILTER, GAMMA_RANGE, LAM_MULTI, N_EXP, N_RANGE, NOISE_FREE_SCOPE, P_D, P_LAMBDA,
                        P_N, P_NOISE, P_SE2, P_SE2_STATIONARY, P_SW2, SE2, SE2_RANGE, SW2, T_FILTER, gamma_param,
                        noise_free_grid, params_exp, sizes)
from ._helpers import (GAIN_RESOLUTION, NOT_FOUND, bayes_approximation, bayes_row, error_curve, exact_slope_at_1,
                       filter_trivial, filters_scope, fmt_grid, full_loss_selfchecks, held, held_diff, inverted_u_search,
                       paired, rec_scope)


# ============================================================================ line 70
@claims.claim("000-lambda-star-below-1", lines=(70, 70), fragment="最优 $\\lambda^*$ 显著小于 1", conventions=["C1", "C4", "C7"],
              weight="main", title="Forgetting has an optimal amount: λ* is markedly below 1",
              clauses=[Clause("c1", "最优 $\\lambda^*$ 显著小于 1")])
def lambda_star_below_1(ctx):
    """The optimal forgetting factor λ* is markedly smaller than 1."""
    # 'markedly' (a degree word, issue 29 class 2) is decided at the worst case of the domain each reading states: it
    # holds when 1 − λ* ≥ c/n (c = 1: the memory 1/(1 − λ*) is shorter than the prompt, the existing threshold); a
    # point of the seed's model where even c = 0.1 fails is a counterexample. Declared in the audit plan (rule G3).
    C_MARKED, C_FAIL = 1.0, 0.1
    R_EXP = "the experiments' setting (d = 10, n = 100, the seed's γ's 0.8, 0.95, 0.975)"
    R_MODEL = "the seed's model (any γ ∈ (0, 1], drift noise, n ≥ 2, d)"
    grid = noise_free_grid()[::4] if ctx.quick else noise_free_grid()          # quick: every 4th point
    res = [gla.optimal_lambda(p["gamma"], p["n"], p["d"], p["sigma_w2"], p["sigma_e2"], grid_size=101) for p in grid]
    gains = [1 - r.error / r.error_linear_attention for r in res]
    ok = [k for k, gn in enumerate(gains) if gn >= GAIN_RESOLUTION]
    low = [k for k, gn in enumerate(gains) if gn < GAIN_RESOLUTION]
    yield rules.inequality("λ* < 1, with a lower error than λ = 1 (relative gain > 0)", [gains[k] for k in ok], ">", 0.0,
                           clauses="c1", details={"quantity": "the relative gain 1 − L(λ*)/L(1)"},
                           scope=NOISE_FREE_SCOPE + f"; the {len(ok)} of {len(grid)} points whose gain float64 resolves "
                                                    f"(≥ {GAIN_RESOLUTION:g})")
    if low:
        slopes = [float(exact_slope_at_1(grid[k]["gamma"], grid[k]["n"], grid[k]["d"], grid[k]["sigma_w2"],
                                         grid[k]["sigma_e2"])) for k in low]
        yield rules.inequality("λ* < 1 with a lower error, where float64 cannot resolve the gain: dL/dλ > 0 at λ = 1 "
                               "exactly", slopes, ">", 0.0, clauses="c1",
                               details={"quantity": "the exact slope dL/dλ at λ = 1", "unresolved_points": [grid[k] for k in low]},
                               scope=f"the {len(low)} points of the grid above with a relative gain below "
                                     f"{GAIN_RESOLUTION:g} (smallest {min(gains[k] for k in low):.2g}); exact rational "
                                     "arithmetic from the float inputs")
    gammas, se2s = (0.8, 0.95, 0.975), tuple(float(x) for x in np.geomspace(*SE2_RANGE, 3 if ctx.quick else 9))
    lam_exp = {(g, e): gla.optimal_lambda(g, N_EXP, D_EXP, SW2, e, grid_size=201).lam for g in gammas for e in se2s}
    worst = max(lam_exp, key=lam_exp.get)
    yield rules.inequality(f"markedly: 1 − λ* ≥ {C_MARKED:g}/n (memory 1/(1 − λ*) shorter than the prompt) at every "
                           "drift level", [lam_exp[k] for k in sorted(lam_exp)], "<", 1.0 - C_MARKED / N_EXP,
                           clauses="c1", reading=R_EXP,
                           params=[P_D, P_N, P_NOISE, P_SW2, P_LAMBDA, gamma_param(gammas), Param(
                               "sigma_e2", f"{len(se2s)} log points", "chosen", "the seed gives no drift-noise level: its whole "
                               "admissible range", admissible=SE2_RANGE)],
                           details={"quantity": "λ*", "worst": {"gamma": worst[0], "sigma_e2": worst[1]}},
                           scope=f"d = {D_EXP}, n = {N_EXP}, γ ∈ {fmt_grid(gammas)}, σ_e² on {len(se2s)} log points of "
                                 f"[{SE2_RANGE[0]:g}, {SE2_RANGE[1]:g}], exact (Brent, 1e-10): the largest λ* is "
                                 f"{lam_exp[worst]:.4f} (γ = {worst[0]}, σ_e² = {worst[1]:.2g})")
    bad = [(p, r.lam) for p, r in zip(grid, res) if 1.0 - r.lam < C_FAIL / p["n"]]
    per_g = {f"{g:g}": sum(p["gamma"] == g for p, _ in bad) for g in sorted({p["gamma"] for p in grid})}
    yield rules.search(f"markedly, anywhere in the seed's model: no point with 1 − λ* < {C_FAIL:g}/n (memory longer "
                       "than ten prompts)", found=len(bad), tried=len(grid), clauses="c1", reading=R_MODEL,
                       extent={"searched": {"gamma": [0.5, 1.0], "n": [2, 100], "d": [1, 10]},
                               "holds_throughout": False, "counterexamples_per_gamma": per_g,
                               "where": "only at γ ≥ 0.99 (slow drift); none at γ ≤ 0.9"},
                       details={"counterexamples": [f"γ = {p['gamma']:g}, n = {p['n']}, d = {p['d']}, σ_w² = "
                                                    f"{p['sigma_w2']:g}, σ_e² = {p['sigma_e2']:.3g}: 1 − λ* = {1 - lam:.2g}"
                                                    for p, lam in bad[:6]],
                                "magnitude": (f"1 − λ* down to {min(1 - lam for _, lam in bad):.2g}" if bad else "")},
                       scope=NOISE_FREE_SCOPE + f"; a counterexample: 1 − λ* < {C_FAIL:g}/n (λ* by Brent, grid 101)")
    ref = next((lam for p, lam in bad if p["n"] == N_EXP and p["d"] == D_EXP and p["sigma_w2"] == 1.0), None)
    if ref is not None:
        yield Remedy("say 'markedly below 1 when the drift is fast relative to the prompt': at d = 10, n = 100 λ* ≤ "
                     "{lmax} for γ ≤ 0.975 at every drift level, but 1 − λ* = {gap} at γ = 1, σ_e² = 10⁻⁴ (a slow random "
                     "walk)", clauses=["c1"], lmax=lam_exp[worst], gap=1.0 - ref)


@claims.claim("000-lambda-star-monotone-in-gamma", lines=(70, 70),
              fragment="且随任务漂移加剧（$\\gamma$ 减小）而减小——理论与实验一致", conventions=["C1", "C4"],
              weight="main", title="λ* decreases as the drift intensifies (γ decreases); theory and experiment agree",
              clauses=[Clause("c1", "且随任务漂移加剧（$\\gamma$ 减小）而减小"),
                       Clause("c2", "——理论与实验一致",
                              untested="the seed gives no experimental λ* values to compare the theory with")])
def lambda_star_monotone(ctx):
    """λ* decreases as the drift intensifies (γ decreases), in agreement between theory and experiment."""
    GAMMAS = (0.5, 0.7, 0.8, 0.9, 0.95, 0.975, 0.99)
    for d in ((1, 10) if ctx.quick else (1, 3, 10, 30, 100)):
        for label, f in (("σ_e² = 0.01", lambda g: SE2), ("stationary σ_e² = 1 − γ²", lambda g: 1 - g * g)):
            lam = [gla.optimal_lambda(g, N_EXP, d, SW2, f(g), grid_size=201).lam for g in GAMMAS]
            yield rules.shape(f"λ*(γ) increases (d = {d}, {label})", GAMMAS, lam, shape="increasing", clauses="c1",
                              params=[P_N, P_NOISE, P_SW2, P_LAMBDA, gamma_param(GAMMAS),
                                      P_SE2 if label.startswith("σ_e² = 0.01") else P_SE2_STATIONARY,
                                      Param("d", d, "chosen", "dimensions spanning 1..100", admissible=(1, 100))],
                              scope=f"d = {d}, n = {N_EXP}, σ_w² = 1, {label}, γ ∈ {fmt_grid(GAMMAS)}, exact")
    yield Note("The seed gives no experimental λ* values, so 'theory and experiment agree' is tested through the "
               "theory only.")


# ============================================================================ line 71
@claims.claim("000-gla-below-filters", lines=(71, 71), fragment="误差低于需逐序列重训的 LMS/RLS", needs=("filters",),
              weight="main", title="GLA's error is below LMS/RLS retrained on every sequence (γ = 0.8 and 0.975)",
              clauses=[Clause("c1", "误差低于需逐序列重训的 LMS/RLS")],
              conventions=["C1", "C6", "C7", "C11"])
def gla_below_filters(ctx, filters):
    """Single-layer GLA has a lower error than LMS/RLS, which must be retrained on every sequence."""
    for g in GAMMA_FILTER:
        f = filters[g]
        for name in ("lms", "rls"):
            yield rules.superiority(f"{name.upper()} error − GLA error > 0 (γ = {g})", paired(f, name, "gla"),
                                    clauses="c1", params=filter_params(f), trivial=filter_trivial(f),
                                    scope=filters_scope(f) + f"; predicting 0: {np.mean(f['eval']['zero']):.4g}")
    f9 = filters[max(GAMMA_FILTER)]
    m = {k: float(np.mean(f9["eval"][k])) for k in ("gla", "lms", "rls")}
    if min(m["lms"], m["rls"]) < m["gla"]:
        yield Remedy("state the setting (d, σ's) of the comparison: at d = 10, γ = {g9} the tuned filters' errors (RLS "
                     "{r9}, LMS {l9}) are below GLA's ({a9})", clauses=["c1"], g9=f9["gamma"], r9=m["rls"], l9=m["lms"],
                     a9=m["gla"])


# ============================================================================ line 72
@claims.claim("000-drift-gap-trend", lines=(72, 72), needs=("reconciled_filters", "filters"), conventions=["C1", "C6", "C7"],
              weight="supporting", title="The stronger the drift the larger the gap: LMS/RLS degrade (RLS 1.29), GLA stays lower",
              clauses=[Clause("c1", "漂移越剧烈差距越大"), Clause("c2", "随 $\\gamma$ 从 0.8 升到 0.975", "condition"),
                       Clause("c3", "LMS/RLS 误差快速恶化"), Clause("c4", "（如 RLS 在 $\\gamma{=}0.975$ 升至 1.29）", "number"),
                       Clause("c5", "而 GLA 凭跨序列共享与门控仍保持更低误差"),
                       Clause("c6", "体现其在强非平稳下的鲁棒性", "inference",
                              untested="a reading of the other clauses (robustness), not a further computation")])
def drift_gap_trend(ctx, reconciled_filters, filters):
    """The stronger the drift the larger the gap: as γ rises from 0.8 to 0.975 the LMS/RLS errors deteriorate quickly
    (RLS reaches 1.29 at γ = 0.975) while GLA keeps a lower error."""
    rf = reconciled_filters
    s8 = gla.drift_statistics(0.8, N_EXP, SW2, SE2)["step"]
    s9 = gla.drift_statistics(0.975, N_EXP, SW2, SE2)["step"]
    yield rules.consistency("γ 0.8 → 0.975 is the direction of stronger drift", float(np.sign(s9 - s8)), 1.0,
                            details={"per_step_drift": {"0.8": s8, "0.975": s9}},
                            a_label=f"sign of the change of per-step relative drift (γ 0.8 → 0.975: {s8:.3g} → {s9:.3g}) "
                                    "in the model of line 44",
                            b_label="sign line 72 gives it ('漂移越剧烈' as γ rises)",
                            scope=f"σ_w² = 1, σ_e² = 0.01, n = {N_EXP}, exact drift statistics", clauses=["c1", "c2"])
    h8, h9 = rf["heldout"][0.8], rf["heldout"][0.975]
    ps = rec_params(rf)
    both = (f"T = {T_FILTER}, γ ∈ {{0.8, 0.975}}, fresh streams at the reconciled setting, the same inputs and "
            "innovations at both γ (paired across γ)")
    for name, key in ((("LMS", "lms"), ("RLS", "rls")) if rf["rec"].found else ()):
        yield rules.superiority(f"{name} error rises from γ = 0.8 to γ = 0.975", held_diff(h9[key], h8[key]),
                                scope=both, params=ps, clauses="c3")
        yield rules.superiority(f"{name} error − GLA error > 0 at γ = 0.975", held_diff(h9[key], h9["gla"]),
                                scope=rec_scope(rf, 0.975), params=ps, clauses="c5")
        gap = (None if h9[key] is None or h8[key] is None else (h9[key] - h9["gla"]) - (h8[key] - h8["gla"]))
        yield rules.superiority(f"the gap {name} − GLA is larger at γ = 0.975 than at γ = 0.8",
                                held(gap) if gap is not None else held_diff(None, h9["gla"]), scope=both, params=ps, clauses="c1")
    # c3 and c5 at the toolkit's filter setting (d = 10, tuned μ, β: chosen), where they are decidable (issue 29)
    fa, fb = filters[min(GAMMA_FILTER)], filters[max(GAMMA_FILTER)]
    for name, key in (("LMS", "lms"), ("RLS", "rls")):
        a, b = Estimate.from_samples(fa["eval"][key]), Estimate.from_samples(fb["eval"][key])
        yield rules.superiority(f"{name} error rises from γ = 0.8 to γ = 0.975 (tuned filters, d = 10)",
                                Estimate(b.mean - a.mean, float(np.hypot(a.se, b.se)), min(a.n, b.n),
                                         min(a.df or a.n - 1, b.df or b.n - 1)), clauses="c3", params=filter_params(fb),
                                details={"predict_0": {"0.8": float(np.mean(fa["eval"]["zero"])),
                                                       "0.975": float(np.mean(fb["eval"]["zero"]))}},
                                scope=filters_scope(fb) + f"; against the γ = 0.8 benchmark (independent streams); "
                                      f"predicting 0 rises too, {np.mean(fa['eval']['zero']):.4g} → "
                                      f"{np.mean(fb['eval']['zero']):.4g}")
        yield rules.superiority(f"{name} error − GLA error > 0 at γ = 0.975 (tuned filters, d = 10)",
                                paired(fb, key, "gla"), clauses="c5", params=filter_params(fb),
                                trivial=filter_trivial(fb), scope=filters_scope(fb))
    yield Remedy("write 漂移越缓慢 (or let γ fall from 0.975 to 0.8): by line 44 the per-step drift falls from {s8} at "
                 "γ = 0.8 to {s9} at γ = 0.975", clauses=["c1", "c2"], s8=s8, s9=s9)
    yield rules.reproduction("RLS = 1.29 at γ = 0.975 (fresh streams at the reconciled setting)", held(h9["rls"]), "1.29",
                             model_margin=MODEL_MARGIN_REL, relative_model_margin=True, scope=rec_scope(rf, 0.975),
                             params=ps, clauses="c4")
    if not rf["rec"].found:
        yield Note(NOT_FOUND)


# ============================================================================ line 73
@claims.claim("000-real-language-transfer", lines=(73, 73), weight="supporting",
              title="The conclusion transfers to real language tasks (GPT-2 with GLA on SST-2 / MNLI)",
              clauses=[Clause("c1", "结论迁移到真实语言任务"),
                       Clause("c2", "在 SST-2 / MNLI 上把 GPT-2 的 softmax 注意力换成 GLA 即胜过线性注意力"),
                       Clause("c3", "说明\"非平稳→需要近因门控\"的洞察不止于玩具模型", "inference")])
def real_language_transfer(ctx):
    """Replacing GPT-2's softmax attention by GLA beats linear attention on SST-2 / MNLI, so the non-stationarity →
    recency-gating insight extends beyond the toy model."""
    yield rules.underspecified("the insight transfers to real language tasks",
                               ["the SST-2 / MNLI experiments (data, modified models, training protocol, numbers)"],
                               scope="real language tasks (SST-2, MNLI) with GPT-2; not attempted",
                               clauses=["c1", "c2", "c3"])


# ============================================================================ line 74
@claims.claim("000-test-error-floor", lines=(74, 74), needs=("bayes",),
              fragment="测试误差有不可约下界：任务演化噪声使 $\\mathbb E[(\\tilde y_{m+1}-y_{m+1})^2]$ 天然非零，这正解释了为何需要软性"
                       "门控来逼近（而非追求零误差）",
              conventions=["C1", "C6", "C7", "C11"], weight="supporting",
              title="An irreducible test-error floor from the drift noise, which soft gating approaches",
              clauses=[Clause("c1", "测试误差有不可约下界"),
                       Clause("c2", "任务演化噪声使 $\\mathbb E[(\\tilde y_{m+1}-y_{m+1})^2]$ 天然非零"),
                       Clause("c3", "这正解释了为何需要软性门控来逼近（而非追求零误差）", "inference")])
def test_error_floor(ctx, bayes):
    """The test error has an irreducible floor: the task-evolution noise makes E[(ỹ_{m+1} − y_{m+1})²] nonzero for any
    predictor, even the Bayes-optimal one; this explains why soft gating is needed to approach it (rather than aiming
    at zero error)."""
    APPROX = 0.10          # 逼近: our margin; the verb's declared table decides a refutation (as in claim line 25)
    runs = sizes(ctx)["kalman_runs"]
    floor = gla.irreducible_floor(np.eye(D_EXP), SE2)
    for g in (0.8, 0.9, 0.975):
        X, Y = ar1_stream(np.random.default_rng(ctx.seed_for(f"000-floor/{g}")), runs, N_EXP + 1, D_EXP, g, SW2, SE2)
        E, S = kalman_errors(X, Y, g, SW2, SE2, return_variance=True)
        est = Estimate.from_samples(E[-1])
        yield rules.superiority(f"the irreducible (Bayes, Kalman) error at the query exceeds the innovation bound "
                                f"σ_e² tr Λ = {floor:g} (γ = {g})", Estimate.from_samples(E[-1] - floor),
                                clauses=["c1", "c2"], params=params_exp([g]),
                                details={"quantity": "the Bayes (Kalman) error minus σ_e² tr Λ",
                                         "bayes_error": est.mean, "times_the_bound": est.mean / floor},
                                scope=f"d = {D_EXP}, n = {N_EXP} (query at position n + 1), {runs} streams; the Bayes "
                                      f"error {est.mean:.4g} is {est.mean / floor:.3g} × the innovation bound {floor:g}: "
                                      "the bound is not tight")
        yield selfcheck.agreement(f"Kalman filter: E[e²] = E[S] at the query (γ = {g})", Estimate.from_samples(E[-1] - S[-1]), 0.0)
    # c3: the valid half (a nonzero floor: approach it, not zero) is c1/c2; the presupposed half — the soft gate
    # approaches the attainable (Bayes) error — is the verb 逼近, decided at the seed's γ's (lines 58, 65, 72)
    yield from bayes_approximation(bayes, APPROX, "c3", "the soft gate (GLA at λ*) approaches the irreducible Bayes error",
                                   gammas=(0.8, 0.95, 0.975))
    rows = {g: bayes_row(bayes, g) for g in (0.8, 0.95, 0.975)}
    yield Remedy("name the Bayes (Kalman) error as the floor — {lo} to {hi} times σ_e² tr Λ at γ = 0.8 to 0.975 — and "
                 "state GLA's distance to it: {e8} % at γ = 0.8, {e95} % at γ = 0.95 and {e975} % at γ = 0.975",
                 clauses=["c1", "c3"], lo=rows[0.8]["kalman"].mean / floor, hi=rows[0.975]["kalman"].mean / floor,
                 e8=100 * rows[0.8]["excess"], e95=100 * rows[0.95]["excess"], e975=100 * rows[0.975]["excess"])
    yield Note("σ_e² tr Λ + σ² bounds every predictor's error from below (the innovation e_{m+1} is independent of "
               "the prompt); the Kalman filter with the true parameters is the Bayes-optimal predictor. The floor bounds "
               "GLA, LMS, RLS and the Kalman filter alike, so by itself it cannot say why a soft gate rather than any "
               "predictor is needed (a premise the alternatives share); clause c3 is therefore decided on what it "
               "presupposes, that the soft gate approaches the attainable error.")


# ============================================================================ line 75
def _landscape_runs(landscape):
    return [landscape[key] for key in sorted(landscape)]


def _landscape_scope(runs):
    m = LANDSCAPE_MODEL
    dims = sorted({r["d"] for r in runs})
    sig = sorted({r["sigma"] for r in runs})
    return (f"single-layer GLA, full parameters (C3), Λ = I, exact population loss, gradient flow (C9) from "
            f"{len(runs)} i.i.d. Gaussian initialisations of relative scale σ ∈ {fmt_grid(sig)}, d ∈ {dims}, "
            f"λ = {m['lam']}, γ = {m['gamma']}, n = {m['n']}, σ_w² = {m['sigma_w2']}, σ_e² = {m['sigma_e2']}, no label noise")


def _landscape_params_of(runs) -> list:
    """The Params of the landscape flows (fixtures.LANDSCAPE_MODEL, every value chosen: line 75 names none)."""
    m, why = LANDSCAPE_MODEL, "the landscape experiment's model (fixtures.LANDSCAPE_MODEL); line 75 names no value"
    return [P_SW2, P_NOISE, P_LAMBDA,
            Param("sigma_e2", m["sigma_e2"], "chosen", why, admissible=SE2_RANGE),
            Param("gamma", m["gamma"], "chosen", why, admissible=GAMMA_RANGE),
            Param("lambda", m["lam"], "chosen", why, admissible=(0.0, 1.0)),
            Param("n", m["n"], "chosen", why, admissible=N_RANGE),
            Param("d", tuple(sorted({r["d"] for r in runs})), "chosen", why, admissible=D_RANGE),
            Param("init_scale", tuple(sorted({r["sigma"] for r in runs})), "chosen", "i.i.d. Gaussian "
                  "initialisation (C9), relative scales", admissible=(0.001, 10.0))]


def _reduced_random_flows(ctx):
    out = []
    for k, (lam, g, n, L) in enumerate([(0.7, 0.8, 20, np.eye(3)), (0.7, 0.8, 20, np.diag([2.0, 1.0, 0.5])),
                                        (0.74, 0.8, N_EXP, np.eye(D_EXP))]):
        for sig in (0.01, 0.3):
            fr = gla.gradient_flow(lam, g, n, L, SW2, SE2, init="random", sigma=sig,
                                   seed=ctx.seed_for(f"000-random-init/reduced/{k}/{sig}"))
            out.append(fr.extra["final_rel_dist"])
    return out


_EXP_FLOW_REASON = ("the flows at the experiment's setting (d = 10, n = 100) run at paper scale only (tens of seconds "
                    "each): quick sizes")


def _experiment_flow_params(rows) -> list:
    return [P_D, P_N, P_SW2, P_SE2, P_NOISE, P_LAMBDA, gamma_param(sorted({r["gamma"] for r in rows}) or [0.8]),
            Param("lambda", "λ*", "convention", "the trained gate of the experiment: its optimum"),
            Param("init_scale", tuple(sorted({r["sigma"] for r in rows})) or (0.3, 1.0), "chosen",
                  "i.i.d. Gaussian initialisation (C9), relative scales; line 75 names none", admissible=(0.001, 10.0))]


def _certified(r, tol=1e-6, hess_tol=-1e-8):
    """A flow or search end point certified as a spurious local minimum (gradient reduced ≥ 10⁶-fold, no negative
    curvature beyond 1e-8 relative, no probe descends, gap above ``tol``)."""
    return (r["status"] == "critical" and r["hess_min_rel"] >= hess_tol and r["probe"] is not None
            and all(v["fraction_nonnegative"] == 1.0 for v in r["probe"].values()) and r["rel_gap"] > tol)


@claims.claim("000-random-init", lines=(75, 75), needs=("experiment_flows",), conventions=["C1", "C3", "C4", "C9"],
              weight="supporting", title="Random Gaussian initialisation already reproduces the theory's predictions",
              clauses=[Clause("c1", "实验用随机高斯初始化即复现理论预测"),
                       Clause("c2", "说明定理对初始化的限制在实践中并非必要", "inference")])
def random_init(ctx, experiment_flows):
    """Experiments with random Gaussian initialisation already reproduce the theoretical predictions, so the
    initialisation condition of the theorem is not needed in practice."""
    TOL = 1e-6       # the reduced flow reached the closed-form optimum: relative distance
    REPRODUCE = 0.02  # 复现 'reproduces the prediction': our margin on the loss; the verb table of 'matches' decides
    red = _reduced_random_flows(ctx)
    yield rules.inequality("every random initialisation reaches the closed-form optimum", red, "<=", TOL,
                           reading="reduced parameters (v, A), Γ = vAᵀ", clauses=["c1", "c2"],
                           scope="single-layer GLA, Γ = vAᵀ, gradient flow of the population loss (C9), Λ ∈ {I₃, "
                                 "diag(2, 1, 0.5), I₁₀}, λ ∈ {0.7, 0.74}, γ = 0.8",
                           params=[P_SW2, P_SE2, P_NOISE, gamma_param(0.8),
                                   Param("Lambda", "I₃, diag(2, 1, 0.5), I₁₀", "chosen", "line 75 names no input "
                                         "covariance: identity and a spread spectrum", admissible=("any Λ ≻ 0",)),
                                   Param("lambda", (0.7, 0.74), "chosen", "line 75 names no λ: near λ*(γ = 0.8)",
                                         admissible=(0.0, 1.0)),
                                   Param("init_scale", (0.01, 0.3), "chosen", "i.i.d. Gaussian initialisation (C9) "
                                         "at a small and a moderate relative scale", admissible=(0.001, 10.0))])
    yield from full_loss_selfchecks(ctx, "000-random-init")
    rows = [experiment_flows[k] for k in sorted(experiment_flows)]
    stmt = "random Gaussian initialisations reproduce the predicted (global-minimum) loss, full parameters"
    read = "full parameters (W_V last row, W_KQ first d columns)"
    if not rows:
        yield rules.inequality(stmt, [0.0], "<=", REPRODUCE, undecided=_EXP_FLOW_REASON, reading=read,
                               clauses=["c1", "c2"], params=_experiment_flow_params(rows),
                               scope=f"single-layer GLA, full parameters (C3), d = {D_EXP}, n = {N_EXP}: not run")
    else:
        moving = [r for r in rows if r["status"] == "moving" and r["rel_gap"] > REPRODUCE]
        kw = dict(reading=read, clauses=["c1", "c2"], params=_experiment_flow_params(rows),
                  scope=f"single-layer GLA, full parameters (C3), Λ = I, d = {D_EXP}, n = {N_EXP}, λ = λ*, σ_e² = 0.01, "
                        f"gradient flow (C9) of the exact loss to 10× the default horizon from {len(rows)} i.i.d. "
                        f"Gaussian starts (γ ∈ {fmt_grid(sorted({r['gamma'] for r in rows}))}, relative scales "
                        f"{fmt_grid(sorted({r['sigma'] for r in rows}))}); end points: "
                        + ", ".join(f"{k} {sum(r['status'] == k for r in rows)}" for k in ("global", "critical", "moving")))
        if moving:
            yield rules.inequality(stmt, [r["rel_gap"] for r in rows], "<=", REPRODUCE, undecided=(
                f"{len(moving)} flow(s) still moving at the horizon with a loss gap above {100 * REPRODUCE:g} %"), **kw)
        else:
            yield rules.grid_equivalence(stmt, [r["loss_star"] * (1 + r["rel_gap"]) for r in rows],
                                         [r["loss_star"] for r in rows], margin=REPRODUCE, relative=True, verb="matches",
                                         labels=[f"γ = {r['gamma']}, σ = {r['sigma']}, seed {r['seed_index']}"
                                                 for r in rows],
                                         details={"quantity": "the loss at the flow's end",
                                                  "reference": "the global minimum (the theory's prediction)"}, **kw)
    yield Note(GRADIENT_ROUTE_NOTE)


# ============================================================================ line 80
@claims.claim("000-inverted-u-highlight", lines=(80, 80), conventions=["C1", "C4", "C10"], weight="supporting",
              title="The inverted-U curve: neither never forget nor over-forget; drift speed sets the optimum",
              clauses=[Clause("c1", "倒 U 形误差曲线是最漂亮的定量结论"),
                       Clause("c2", "它告诉你\"既不能不遗忘（$\\lambda{=}1$），也不能遗忘过头\""),
                       Clause("c3", "最优点由任务漂移速度决定")],
              fragment="倒 U 形误差曲线是最漂亮的定量结论：它告诉你\"既不能不遗忘（$\\lambda{=}1$），也不能遗忘过头\"，最优点由任务漂移速度决定")
def inverted_u_highlight(ctx):
    """The inverted-U error curve says: neither no forgetting (λ = 1) nor too much forgetting; the optimum is set by
    the drift speed."""
    yield rules.consistency("the best λ of an 'inverted-U error curve' lies strictly inside (0, 1)", 0.0, 1.0,
                            a_label="interior minima of an inverted-U (single interior maximum) curve",
                            b_label="interior minima implied by 'neither λ = 1 nor too much forgetting'",
                            scope="the sentence itself", clauses=["c1", "c2"])
    _, _, ext = inverted_u_search(ctx, "000-inverted-u-highlight/search", 2 if ctx.quick else 7)
    for g in (0.8, 0.95):
        lams, err = error_curve(g)
        yield rules.shape(f"the train error is inverted-U in λ (γ = {g})", lams, err, shape="unimodal-maximum",
                          resolution=0.01, clauses="c1", params=params_exp([g]), extent=ext,
                          scope=f"d = {D_EXP}, n = {N_EXP}, σ_w² = 1, σ_e² = 0.01, λ grid 0.01..1 (step 0.01), exact")
    gs = (0.5, 0.8, 0.9, 0.95, 0.975)
    yield rules.shape("the optimum λ* is set by the drift: it increases with γ", gs,
                      [gla.optimal_lambda(g, N_EXP, D_EXP, SW2, SE2, grid_size=201).lam for g in gs], shape="increasing",
                      clauses="c3", params=params_exp(gs),
                      scope=f"d = {D_EXP}, n = {N_EXP}, σ_w² = 1, σ_e² = 0.01, γ ∈ {fmt_grid(gs)}, exact")
    yield Remedy("call the curve U-shaped: 'neither λ = 1 nor too much forgetting' needs an interior minimum, which "
                 "the exact error has at λ* = {l8} (γ = 0.8) and {l95} (γ = 0.95), d = 10, n = 100", clauses=["c1", "c2"],
                 l8=gla.optimal_lambda(0.8, N_EXP, D_EXP, SW2, SE2, grid_size=201).lam,
                 l95=gla.optimal_lambda(0.95, N_EXP, D_EXP, SW2, SE2, grid_size=201).lam)
    yield Note("The consistency sub-claim compares the two halves of the sentence: an inverted-U curve has a single "
               "interior maximum, so its minimum lies at an end of (0, 1]; 'neither λ = 1 nor too much forgetting' "
               "places the best λ inside.")


# ============================================================================ line 81
@claims.claim("000-filters-optimal-forgetting", lines=(81, 81), fragment="同一个最优遗忘因子现象，两种实现",
              needs=("filters",), weight="supporting",
              title="GLA and LMS/RLS: one optimal-forgetting phenomenon, two implementations",
              clauses=[Clause("c1", "同一个最优遗忘因子现象，两种实现")],
              conventions=["C1", "C6", "C7", "C11"])
def filters_optimal_forgetting(ctx, filters):
    """GLA (implicit adaptation) and LMS/RLS (explicit updates) show the same optimal-forgetting-factor phenomenon."""
    fig, axes = new_figure(2, 1, width=4.4)
    axes = axes.ravel()
    for ax, g in zip(axes, GAMMA_FILTER):
        f = filters[g]
        for key, lab, tr in (("scan_lms", "LMS (x = μ)", lambda k: k), ("scan_rls", "RLS (x = 1 − β + 1e-4)", lambda k: 1 - k + 1e-4)):
            pts = sorted((k, v) for k, v in f[key].items() if v["diverged_runs"] == 0)
            ax.errorbar([tr(k) for k, _ in pts], [v["mean"] for _, v in pts], yerr=[2 * v["se"] for _, v in pts],
                        marker="o", ms=3, label=lab)
        ax.axhline(f["gla_exact"], color="k", lw=1, label=f"GLA λ* = {f['gla_lam']:.3f} (exact)")
        ax.set(xscale="log", xlabel="μ or 1 − β", ylabel="MSE, t > T/2", title=f"γ = {g}")
        ax.legend(fontsize=6)
    ctx.save_figure(fig, "gla_filter_scans",
                    f"Mean one-step-ahead error (± 2 SE) of LMS and RLS over their hyper-parameter grids on "
                    f"{filters[GAMMA_FILTER[0]]['runs_scan']} scan streams of length {T_FILTER} (d = {D_EXP}, σ_w² = 1, "
                    f"σ_e² = 0.01), and GLA's exact error at its optimal λ, for γ ∈ {fmt_grid(GAMMA_FILTER)}.")
    for g in GAMMA_FILTER:
        f = filters[g]
        for name, key, method in (("RLS forgetting factor β", "scan_rls", "rls"), ("LMS step μ", "scan_lms", "lms")):
            pts = sorted((k, v) for k, v in f[key].items() if v["diverged_runs"] == 0)
            x = [k for k, _ in pts]
            M = np.array([f["scan_runs"][method][k] for k in x])          # (grid, runs): the same streams at every value
            best = x[int(np.argmin(M.mean(axis=1)))]
            yield rules.shape(f"{name}: the error has an interior optimum (γ = {g})", x, M.mean(axis=1),
                              shape="interior-minimum", cov=np.cov(M, ddof=1) / M.shape[1], df=f["runs_scan"] - 1,
                              clauses="c1", params=filter_params(f), trivial=filter_trivial(f, (method,)),
                              scope=f"T = {f['T']}, γ = {g}, {f['runs_scan']} scan streams shared by every grid value "
                                    f"(paired: covariance of the points), grid {fmt_grid(x)} (values with a diverged run "
                                    f"left out); best {best:g} (grid edges {x[0]:g}, {x[-1]:g}); the "
                                    "trivial comparison is the tuned filter on the evaluation streams")
        lams = np.linspace(0.01, 1.0, 100)
        err = [gla.train_error(x, g, f["T"] - 1, f["d"], SW2, SE2) for x in lams]
        yield rules.shape(f"GLA: the error has a single interior optimum in λ (γ = {g})", lams, err,
                          shape="unimodal-minimum", resolution=0.01, clauses="c1", params=filter_params(f),
                          trivial=filter_trivial(f, ("gla",)),
                          scope=f"d = {f['d']}, n = {f['T'] - 1}, λ grid 0.01..1 (100 points), exact; λ* = "
                                f"{f['gla_lam']:.4f}")
    fa, fb = filters[min(GAMMA_FILTER)], filters[max(GAMMA_FILTER)]
    if (fb["best_beta"] - fa["best_beta"]) * (fb["gla_lam"] - fa["gla_lam"]) < 0:     # the optima move apart
        yield Remedy("say how the optima relate: as γ goes from {ga} to {gb} the best RLS forgetting factor moves from "
                     "{ba} to {bb} while GLA's λ* moves from {la} to {lb}, the other way", clauses=["c1"], ga=fa["gamma"],
                     gb=fb["gamma"], ba=fa["best_beta"], bb=fb["best_beta"], la=fa["gla_lam"], lb=fb["gla_lam"])
    yield Note("The grids reach past the optimum on both sides (μ from 1e-5, where LMS stays near w = 0 and predicts ≈ "
               "0, to the stability bound; β from 0.7 to 1, no forgetting), so an optimum at a grid edge is a finding, "
               "not an artefact. A filter whose optimum does no better than predicting 0 shows no optimal-forgetting "
               "phenomenon worth the name: each shape sub-claim carries that comparison (C11).")


# ============================================================================ line 82
@claims.claim("000-multi-timescale-layers", lines=(82, 82), weight="supporting",
              title="Each layer is a filter at its own time scale; a stack sees short and long trends",
              fragment="多时间尺度解释多层增益：每层 GLA 是一个特定时间尺度的自适应滤波器，堆叠即同时建模短期波动与长期趋势，"
                       "这为\"为什么深度 GLA 更适合非平稳序列\"给出了直观且可验证的说法",
              clauses=[Clause("c1", "多时间尺度解释多层增益", "inference",
                              untested="an explanation of the depth gain, which 000-depth-ablation decides"),
                       Clause("c2", "每层 GLA 是一个特定时间尺度的自适应滤波器"),
                       Clause("c3", "堆叠即同时建模短期波动与长期趋势"),
                       Clause("c4", "这为\"为什么深度 GLA 更适合非平稳序列\"给出了直观且可验证的说法", "inference",
                              untested="a judgement of the explanation (intuitive, verifiable): not a computation")],
              conventions=["C8"])
def multi_timescale_layers(ctx):
    """Multi-time-scale explanation of the depth gain: each GLA layer is an adaptive filter at a specific time scale, and
    the stack models short-term fluctuations and long-term trends at once."""
    scales = {1 / (1 - LAM_MULTI)}       # the seed's only multi-layer setting: λ = 0.85 in every layer (line 66)
    yield rules.consistency("the layers of the seed's multi-layer GLA have distinct time scales (short and long)",
                            float(len(scales)), 2.0, clauses=["c2", "c3"],
                            reading="a layer's time scale = its gate's memory 1/(1 − λ_ℓ)",
                            a_label=f"distinct gate memories 1/(1 − λ_ℓ) in the seed's multi-layer setting (λ = "
                                    f"{LAM_MULTI} in every layer, line 66: {1 / (1 - LAM_MULTI):.3g} tokens each)",
                            b_label="time scales the sentence needs (short-term fluctuations and long-term trends: at "
                                    "least 2)", scope="the seed's lines 66 and 82")
    yield rules.underspecified("each layer is an adaptive filter at its own time scale; the stack covers short and long "
                               "scales", ["what a layer's time scale is (its gate's memory 1/(1 − λ_ℓ), or the memory of "
                                          "its output after the layers below)", "the multi-layer architecture and the "
                                          "λ of each layer in the depth experiment (line 66 gives λ = 0.85 for the "
                                          "multi-layer convergence run only)", "a measured time scale per layer"],
                               clauses=["c2", "c3"], reading="a layer's time scale = the memory of its output after the "
                                                             "layers below", scope="multi-layer GLA on AR(1) drift; "
                                                                                   "not attempted")
    yield Note("Under the reading 'a layer's time scale is its gate's memory 1/(1 − λ_ℓ)', the seed's own multi-layer "
               f"setting (λ = {LAM_MULTI} in every layer, line 66) gives every layer the same time scale "
               f"{1 / (1 - LAM_MULTI):.3g} tokens; distinct scales would need per-layer gates, which the seed does not "
               "give. The toolkit's stack (C8) uses the stated λ in every layer, so it cannot test the sentence.")


# ============================================================================ line 89
@claims.claim("000-benign-landscape", lines=(89, 89),
              fragment="随机高斯初始化即收敛全局最优（即便违反理论初始化条件），暗示存在良性景观",
              needs=("landscape", "landscape_search", "experiment_flows"), conventions=["C1", "C3", "C4", "C9"],
              weight="supporting", title="Random Gaussian initialisations reach the global optimum: a benign landscape",
              clauses=[Clause("c1", "随机高斯初始化即收敛全局最优"), Clause("c2", "（即便违反理论初始化条件）", "condition",
                                     untested="holds by construction: i.i.d. Gaussian initialisations are not the "
                                              "structured low-rank initialisation of Assumption 1 (C9)"),
                       Clause("c3", "暗示存在良性景观", "inference")])
def benign_landscape(ctx, landscape, landscape_search, experiment_flows):
    """Random Gaussian initialisation converges to the global optimum (even violating the theorem's initialisation
    condition), which suggests a benign optimisation landscape (no spurious local minima)."""
    TOL = 1e-6    # global: relative gap ≤ 1e-6
    # G6 (audit plan): a counterexample to 'benign' counts only if robust — its excess is ≥ 1e-3, three orders above
    # the classification tolerance (end points at 1e-6..1e-4 moved with the gradient route, issue 23)
    ROBUST = 1e-3
    flows = _landscape_runs(landscape)
    runs = flows + [r for d in sorted(landscape_search) for r in landscape_search[d]]
    yield from full_loss_selfchecks(ctx, "000-benign-landscape")
    # c1 speaks of the paper's experiment: decided at its setting (d = 10, n = 100, λ*) — issue 29, class 5
    rows = [experiment_flows[k] for k in sorted(experiment_flows)]
    if not rows:
        yield rules.inequality("random Gaussian initialisations at the experiment's setting converge to the global "
                               "optimum", [0.0], "<=", TOL, undecided=_EXP_FLOW_REASON, clauses="c1",
                               params=_experiment_flow_params(rows), scope=f"d = {D_EXP}, n = {N_EXP}: not run")
    else:
        bad = [r for r in rows if _certified(r, TOL)]
        moving = [r for r in rows if r["status"] == "moving"]
        yield rules.search("random Gaussian initialisations at the experiment's setting converge to the global optimum "
                           "(no start ends at a certified spurious minimum)", found=len(bad), tried=len(rows),
                           clauses="c1", params=_experiment_flow_params(rows),
                           details={"end_points": {k: sum(r["status"] == k for r in rows)
                                                   for k in ("global", "critical", "moving")},
                                    "flows_still_moving": len(moving),
                                    "counterexamples": [f"γ = {r['gamma']}, σ = {r['sigma']}: excess {r['rel_gap']:.2g}"
                                                        for r in bad],
                                    "magnitude": f"relative excess up to {max((r['rel_gap'] for r in bad), default=0):.2g}"},
                           scope=f"single-layer GLA, full parameters (C3), Λ = I, d = {D_EXP}, n = {N_EXP}, λ = λ*, "
                                 f"σ_e² = 0.01, {len(rows)} gradient flows (C9) to 10× the default horizon")
    spurious = [r for r in runs if _certified(r, TOL)]
    robust = [r for r in spurious if r["rel_gap"] >= ROBUST]
    dims = sorted({r["d"] for r in runs})
    per_d = {str(d): {"starts": sum(r["d"] == d for r in runs), "robust_spurious": sum(r["d"] == d for r in robust),
                      "certified_spurious": sum(r["d"] == d for r in spurious),
                      "global": sum(r["d"] == d and r["rel_gap"] <= TOL for r in runs)} for d in dims}
    found_at = [d for d in dims if per_d[str(d)]["robust_spurious"]]
    ext = {"searched": {"d": [dims[0], dims[-1]]}, "holds_throughout": len(found_at) == len(dims), "per_d": per_d,
           "where": (f"robust spurious minima (excess ≥ {ROBUST:g}) at d ∈ {found_at}; none at d ∈ "
                     f"{[d for d in dims if d not in found_at]}" if found_at else "no robust one at any d searched")}
    yield rules.search("the landscape is benign: no robust spurious local minimum (excess ≥ 1e-3) in the model's "
                       "full-parameter loss", found=len(robust), tried=len(runs), clauses="c3", extent=ext,
                       params=_landscape_params_of(flows),
                       scope=_landscape_scope(flows) + f"; and quasi-Newton (L-BFGS, exact gradient) random starts at "
                             f"d ∈ {sorted({k[0] for k in landscape_search})}; a counterexample is an end point certified as a local "
                             "minimum (gradient reduced ≥ 10⁶-fold, Hessian without negative curvature beyond 1e-8 "
                             "relative — zero modes are the symmetries Γ = vAᵀ + buᵀ — and 600 random probes at relative "
                             "radii 1e-3..1e-1 never lower the loss) whose loss exceeds the global minimum by 1e-3 "
                             "relative or more (robust; smaller excesses moved with the gradient route)",
                       details={"relative_excess_of_counterexamples": sorted(r["rel_gap"] for r in robust),
                                "not_robust_excesses": sorted(r["rel_gap"] for r in spurious if r["rel_gap"] < ROBUST),
                                "model": dict(LANDSCAPE_MODEL),
                                "magnitude": (f"relative excess {min(r['rel_gap'] for r in robust):.2g} to "
                                              f"{max(r['rel_gap'] for r in robust):.2g}" if robust else ""),
                                "end_points": {k: sum(r["status"] == k for r in runs) for k in ("global", "critical",
                                                                                                "moving")}})
    yield Note(GRADIENT_ROUTE_NOTE)
    red = _reduced_random_flows(ctx)
    yield rules.search("reduced parameters (v, A): no spurious minimum (every random initialisation reaches the global "
                       "minimum)", found=0, tried=len(red), clauses="c1",
                       scope="single-layer GLA, Γ = vAᵀ, gradient flow of the population loss, Λ ∈ {I₃, diag(2, 1, 0.5), "
                             "I₁₀}, γ = 0.8, σ_w² = 1, σ_e² = 0.01, init scales {0.01, 0.3}; no end point is certified "
                             "as a spurious minimum here (flows that end away from Γ* are counted in the details)",
                       details={"flows_ending_away_from_optimum": int(sum(x > TOL for x in red)),
                                "final_relative_distances": list(map(float, red))})
    if robust:
        yield Remedy("say 'benign for small initialisations' or give the initialisation: the model's full-parameter loss "
                     "has certified local minima {lo} to {hi} above the global one (relative)", clauses=["c3"],
                     lo=min(r["rel_gap"] for r in robust), hi=max(r["rel_gap"] for r in robust))
