r"""Claims of paper 000 from the filter experiment to the limitations (seed lines 58–89), in seed order.

The experiments' settings the seed leaves open (d of the filter experiment, σ_w², σ_e², filter
grids, the multi-layer architecture and its training, initialisation scales) are the toolkit's
choices (convention C7) and are passed as ``chosen``: a failure under them is "not reproduced".
"""
from __future__ import annotations

import numpy as np

from ...figures import new_figure
from ...models.attention import gla_stack_loss_and_grad
from ...models.filters import kalman_errors, lms_errors, lms_reference_errors, rls_direct_errors, rls_errors
from ...models.prompts import ar1_stream
from ...verdicts import Estimate, rules, selfcheck
from ..api import Note
from . import fixtures  # noqa: F401  (registers the fixtures)
from . import theory as gla
from .claims import full_loss_selfchecks
from .common import error_curve, fmt_grid
from .fixtures import LANDSCAPE_MODEL
from .reconciliation import DIVERGED, MODEL_MARGIN_REL, FilterModel
from .registry import claims
from .settings import (CHOSEN_SIGMAS, D_EXP, D_STACK, GAMMA_DEPTH, GAMMA_FILTER, LAM_MULTI, N_EXP, N_STACK,
                       NOISE_FREE_SCOPE, SE2, SW2, T_FILTER, noise_free_grid, sizes)

__all__ = ["claims"]


def _filters_chosen(f):
    return {**CHOSEN_SIGMAS, "d": f["d"], "mu_grid": sorted(f["scan_lms"]), "beta_grid": sorted(f["scan_rls"]),
            "rls_delta": 1.0, "error": f"a priori, per-run mean over t = {f['window'][0]}..{f['window'][1]}"}


def _filters_scope(f):
    return (f"T = {f['T']}, γ = {f['gamma']}, {f['runs_eval']} evaluation streams shared by all methods (paired), "
            f"μ = {f['best_mu']:g}, β = {f['best_beta']:g} tuned on {f['runs_scan']} other streams, GLA at λ* = "
            f"{f['gla_lam']:.4f} with its population-optimal Γ")


def _paired(f, a, b):
    return Estimate.from_samples(f["eval"][a] - f["eval"][b])


# ============================================================================ line 58
@claims.claim("000-gla-vs-lms-rls", lines=(58, 58), fragment="GLA 训练误差更低", needs=("filters",),
              conventions=["C1", "C6", "C7"],
              revision={"previous": "refuted",
                        "why": "decided at γ = 0.8, the one setting line 58 gives numbers for, by a paired one-sided "
                               "t-test per filter; d, σ's and the filter grids are the toolkit's choices (chosen). The "
                               "previous refutation rested on γ = 0.975 (line 72's claim) under those choices."})
def gla_vs_lms_rls(ctx, filters):
    """Single-layer GLA has a lower error than LMS and RLS (sequence length 1000, 10,000 Monte Carlo runs)."""
    f = filters[0.8]
    for name in ("lms", "rls"):
        yield rules.superiority(f"{name.upper()} error − GLA error > 0 (γ = 0.8)", _paired(f, name, "gla"),
                                scope=_filters_scope(f), chosen=_filters_chosen(f))
    yield selfcheck.agreement("GLA streaming MSE (t > T/2) = exact train error for n = T − 1",
                              Estimate.from_samples(f["eval"]["gla"]), f["gla_exact"])
    rng = np.random.default_rng(ctx.seed_for("000-filters/reference"))
    X, Y = ar1_stream(rng, 2, 120, D_EXP, 0.8, SW2, SE2)
    yield selfcheck.identity("batched LMS = run-by-run LMS", lms_errors(X, Y, 0.01), lms_reference_errors(X, Y, 0.01),
                             rtol=1e-10)
    yield selfcheck.identity("RLS recursion = direct weighted least squares", rls_errors(X, Y, 0.95),
                             rls_direct_errors(X, Y, 0.95), rtol=1e-8)
    X, Y = ar1_stream(rng, sizes(ctx)["kalman_runs"] // 2, 200, D_EXP, 0.8, SW2, SE2)
    E, S = kalman_errors(X, Y, 0.8, SW2, SE2, return_variance=True)
    yield selfcheck.agreement("Kalman filter: E[e_t²] = E[S_t] (its own innovation variance)",
                              Estimate.from_samples((E - S)[100:].mean(axis=0)), 0.0)
    yield Note("Each method's error is its one-step-ahead squared error averaged over the second half of every "
               "stream (C6); GLA is the single-layer optimum for prompt length T − 1 run as a streaming predictor.")


_NOT_FOUND = ("No setting within the declared ranges reproduced the three stated numbers jointly (see the "
              "Reconciliation section: its smallest joint residual is the finding); the statements that depend on the "
              "experiment's setting (GLA lower, the trends with γ) are therefore not decided at the closest setting, "
              "which does not reproduce the numbers. The numbers themselves are re-evaluated there on fresh streams.")


def _rec_scope(rf, gamma):
    rec, sz = rf["rec"], rf["sizes"]
    return (f"T = {T_FILTER}, γ = {gamma}, the setting of the joint search ({'found' if rec.found else 'closest, not found'}"
            f"; {rec.evaluations} evaluations on {sz['runs']} common-random-number streams), evaluated on "
            f"{sz['heldout_runs']} fresh streams shared by LMS, RLS and GLA (paired; GLA at λ* = "
            f"{rf['heldout'][gamma]['gla_lam']:.4f} with its population-optimal Γ for n = T − 1)")


def _rec_chosen(rf):
    return {**rf["rec"].best, "setting": "reconciled (seed lines 58, 72 jointly)" if rf["rec"].found else
            "closest to the stated numbers (no setting reproduces them jointly)"}


def _held(v):
    """Per-run values of a held-out method (None: a run diverged → the stand-in error, exact)."""
    return Estimate.exact(DIVERGED, label="diverged") if v is None else Estimate.from_samples(v)


def _held_diff(a, b):
    if a is None or b is None:
        return Estimate.exact(DIVERGED if a is None else -DIVERGED)
    return Estimate.from_samples(a - b)


def _channel_selfchecks(ctx, best):
    """The reconciliation's model = the filters run on the combined labels (the channel decomposition is exact)."""
    d = int(best["d"])
    fm = FilterModel(8 * d / 10.0)                         # 8 streams at the setting's d
    p = dict(best, window="all steps", normalisation="raw", rls_delta=0.01)   # P₀ = 100 I: the initialisation matters
    seed = ctx.seed_for("000-reconcile/selfcheck")
    for g in (0.8, 0.975):
        X, Yc, _ = fm.channels(seed, g, d)
        Y = Yc @ fm.coefficients(p, g)[0]
        for name, direct in (("lms", lambda: lms_errors(X, Y, p["mu"])), ("rls", lambda: rls_errors(X, Y, p["beta"],
                                                                                                        p["rls_delta"]))):
            got, want = fm.per_run(p, seed, name, g), direct().mean(axis=0)
            if got is None or not np.all(np.isfinite(want)):
                continue                                     # a diverged filter: nothing to compare
            yield selfcheck.identity(f"reconciliation model: {name.upper()} channels = {name.upper()} on the combined "
                                     f"labels (γ = {g})", got, want, rtol=1e-8)


@claims.claim("000-lms-rls-numbers", lines=(58, 58), fragment="如 $\\gamma{=}0.8$ 时 LMS=0.264、RLS=0.256，GLA 更低",
              needs=("reconciled_filters",), conventions=["C1", "C6", "C7"],
              revision={"previous": "not reproduced",
                        "why": "the printed numbers are now decided at the setting of a joint search over every "
                               "parameter the seed leaves open (σ's, label noise, d, μ, β, P₀, normalisation, "
                               "averaging window; reconciliation), re-evaluated on fresh streams, instead of under "
                               "the toolkit's a priori choices; 'GLA is lower' is decided at that same setting."})
def lms_rls_numbers(ctx, reconciled_filters):
    """At γ = 0.8: LMS = 0.264 and RLS = 0.256, and GLA is lower."""
    rf = reconciled_filters
    yield rf["rec"]
    h = rf["heldout"][0.8]
    for name, key, val in (("LMS", "lms", "0.264"), ("RLS", "rls", "0.256")):
        yield rules.reproduction(f"{name} = {val} at γ = 0.8 (fresh streams at the reconciled setting)", _held(h[key]),
                                 val, model_margin=MODEL_MARGIN_REL, relative_model_margin=True,
                                 scope=_rec_scope(rf, 0.8), chosen=_rec_chosen(rf))
    if rf["rec"].found:            # the dependent statement, at a setting that reproduces the numbers
        for name, key in (("LMS", "lms"), ("RLS", "rls")):
            yield rules.superiority(f"{name} error − GLA error > 0 at γ = 0.8 (reconciled setting)",
                                    _held_diff(h[key], h["gla"]), scope=_rec_scope(rf, 0.8), chosen=_rec_chosen(rf))
    else:
        yield Note(_NOT_FOUND)
    yield from _channel_selfchecks(ctx, rf["rec"].best)
    yield Note("The search (theorycheck.reconcile, differential evolution over the declared ranges and choices, "
               "theorycheck.papers.gla.reconciliation) runs the actual LMS and RLS recursions on streams drawn once "
               "from its seed; the setting it returns is then re-evaluated on fresh streams, so the reproduction "
               "sub-claims are out-of-sample. Every parameter of that setting is the toolkit's choice (chosen).")


# ============================================================================ lines 59, 60
@claims.claim("000-sst2", lines=(59, 59), fragment="$\\lambda{=}0.9$ 的 GLA 在准确率与置信度上均明显优于 LA")
def sst2(ctx):
    """GatedLinearGPT2 with λ = 0.9 clearly beats LinearGPT2 in accuracy and confidence on SST-2 (K ∈ {1,5,10,15,20})."""
    yield rules.underspecified("GLA (λ = 0.9) beats linear attention on SST-2",
                               ["the SST-2 prompts and data split", "GPT-2 with softmax replaced by (gated) linear "
                                "attention, and its training", "accuracy / confidence numbers"],
                               scope="GPT-2 with (gated) linear attention on SST-2, K ∈ {1, 5, 10, 15, 20} demonstrations "
                                     "(as stated); not attempted")


@claims.claim("000-mnli", lines=(60, 60), fragment="GLA 一致地获得更高准确率与置信度")
def mnli(ctx):
    """GatedLinearGPT2 consistently achieves higher accuracy and confidence than LinearGPT2 on MNLI (K ∈ {1,3,5,7,10})."""
    yield rules.underspecified("GLA beats linear attention on MNLI",
                               ["the MNLI prompts and data split", "the modified GPT-2 models and their training",
                                "accuracy / confidence numbers"],
                               scope="GPT-2 with (gated) linear attention on MNLI, K ∈ {1, 3, 5, 7, 10} (as stated); "
                                     "not attempted")


# ============================================================================ lines 65, 66
def _stack_chosen(ctx, s):
    c = s["config"]
    return {**CHOSEN_SIGMAS, "d": D_STACK, "n": N_STACK, "lambda_per_layer": LAM_MULTI, "n_train": c["n_train"],
            "optimiser": f"Adam on fresh batches of {c['adam_batch']} (lr {c['adam_lr']}, {c['schedule']}, "
                         f"{c['adam_steps']} steps) then full-batch Armijo GD ({c['gd_steps']} steps), best of "
                         f"{c['restarts']} initialisations", "init": f"N(0, {c['init_scale']}²)",
            "diverged_restarts": len(c.get("diverged_restarts", [])),
            "architecture": "C8"}


@claims.claim("000-depth-ablation", lines=(65, 65), fragment="层数增加，训练/测试性能持续提升", needs=("stack",),
              conventions=["C1", "C4", "C5", "C8"],
              revision={"previous": "underspecified",
                        "why": "a small multi-layer GLA (residual stack, C8) is now built and trained under declared "
                               "choices; the statement is decided by a paired shape test instead of being left "
                               "unattempted."})
def depth_ablation(ctx, stack):
    """(γ = 0.95) As the number of GLA layers grows, train and test performance improve steadily."""
    depths = sorted(stack)
    rng = np.random.default_rng(ctx.seed_for("000-depth-ablation/gradcheck"))
    X, Y = rng.standard_normal((6, 5, D_STACK)), rng.standard_normal((6, 5))
    Ws = [0.3 * rng.standard_normal((D_STACK + 1, D_STACK + 1)) for _ in range(4)]
    _, gK, gV = gla_stack_loss_and_grad(X, Y, [0.6, 0.85], Ws[:2], Ws[2:], True)
    fd, an, h = [], [], 1e-6
    for k in range(4):
        for i, j in ((0, 0), (1, D_STACK), (D_STACK, 2)):
            P, M = [w.copy() for w in Ws], [w.copy() for w in Ws]
            P[k][i, j] += h
            M[k][i, j] -= h
            fd.append((gla_stack_loss_and_grad(X, Y, [0.6, 0.85], P[:2], P[2:], True)[0]
                       - gla_stack_loss_and_grad(X, Y, [0.6, 0.85], M[:2], M[2:], True)[0]) / (2 * h))
            an.append((gK + gV)[k][i, j])
    yield selfcheck.identity("multi-layer gradient = central finite differences (2 layers, 12 entries)", an, fd,
                             rtol=1e-6, atol=1e-8)
    fig, ax = new_figure()
    for split, key in (("train", "train_sq"), ("test", "test_sq")):
        est = [Estimate.from_samples(stack[k][key]) for k in depths]
        ax.errorbar(depths, [e.mean for e in est], yerr=[2 * e.se for e in est], marker="o", label=split)
    ax.set(xlabel="layers", ylabel="MSE (not halved)", title=f"GLA stack, γ = {GAMMA_DEPTH}, λ = {LAM_MULTI}")
    ax.legend(fontsize=7)
    ctx.save_figure(fig, "gla_depth_ablation",
                    f"Train ({stack[depths[0]]['train_sq'].size} prompts) and test ({stack[depths[0]]['test_sq'].size} "
                    f"prompts) MSE ± 2 SE of the trained GLA stack against depth {depths}; d = {D_STACK}, n = {N_STACK}, "
                    f"γ = {GAMMA_DEPTH}, σ_w² = 1, σ_e² = 0.01.")
    chosen = {**_stack_chosen(ctx, stack[depths[0]]),
              "diverged_restarts": sum(len(stack[k]["config"].get("diverged_restarts", [])) for k in depths)}
    for split, key in (("train", "train_sq"), ("test", "test_sq")):
        M = np.array([stack[k][key] for k in depths])                   # (depths, prompts): paired across depths
        n = M.shape[1]
        yield rules.shape(f"{split} error decreases with depth", depths, M.mean(axis=1), shape="decreasing",
                          cov=np.cov(M, ddof=1) / n, df=n - 1, chosen=chosen,
                          scope=f"γ = {GAMMA_DEPTH}, depths {depths}, {n} {split} prompts shared by all depths (paired: "
                                "covariance of the points)")


@claims.claim("000-linear-convergence", lines=(66, 66), fragment="单层与多层均呈线性收敛", needs=("stack",),
              conventions=["C4", "C8", "C9"],
              revision={"previous": "confirmed", "previous_id": "000-linear-convergence-single-layer",
                        "why": "the multi-layer half (previously untested) is now tested on a trained GLA stack; the "
                               "single-layer half keeps the gradient-flow evidence, now decided by a declared rate rule."})
def linear_convergence(ctx, stack):
    """Convergence: single-layer GLA (optimal λ) and multi-layer GLA (λ = 0.85) both converge linearly."""
    RATIO_MIN = 0.5        # geometric decay keeps its rate (late/early ≈ 1); v ∝ 1/t gives ≈ 0.23
    REDUCTION_MAX = 1e-3   # and the decaying quantity must fall at least 1000-fold in the fitted window
    # A trained stack's rate is judged on a window of at least 400 GD steps (the paper-scale window). Declared
    # 2026-12-01 after the 20-seed stability study: on the 100-step quick window the late/early ratio ranged over
    # −0.12–0.61 with the seed (confirmed x3, not reproduced x17) — the transient after the Adam→GD switch dominates.
    MIN_GD_WINDOW = 400
    lam = gla.optimal_lambda(GAMMA_DEPTH, N_STACK, D_STACK, SW2, SE2).lam
    fr = gla.gradient_flow(lam, GAMMA_DEPTH, N_STACK, np.eye(D_STACK), SW2, SE2, init="random", sigma=0.1,
                           seed=ctx.seed_for("000-linear-convergence/flow"))
    st = gla.geometric_rate_stability(fr.dist_gamma[1:], floor=1e-10, times=fr.times[1:])
    tail = gla.geometric_rate_stability(fr.dist_gamma[len(fr.times) // 2:], floor=1e-10, times=fr.times[len(fr.times) // 2:])
    chosen1 = {**CHOSEN_SIGMAS, "d": D_STACK, "n": N_STACK, "dynamics": "gradient flow of the population loss (C9)",
               "initialisation": "random, σ = 0.1"}
    scope1 = f"single layer, γ = {GAMMA_DEPTH}, λ* = {lam:.4f}, d = {D_STACK}, n = {N_STACK}, ‖Γ(t) − Γ*‖ over the second half of the flow"
    yield rules.inequality("single layer: the distance to the optimum decays at a constant rate (late/early ≥ 0.5)",
                           tail["ratio"], ">=", RATIO_MIN, scope=scope1, chosen=chosen1)
    yield rules.inequality("single layer: the distance falls at least 1000-fold", st["reduction"], "<=", REDUCTION_MAX,
                           scope=scope1, chosen=chosen1)
    deep = max(stack)
    s = stack[deep]
    g = s["grad_norms"][s["phase_switch"]:]
    stg = gla.geometric_rate_stability(g, floor=1e-10)
    scope2 = f"{deep} layers, λ = {LAM_MULTI} each, γ = {GAMMA_DEPTH}, gradient norm over the {g.size} GD steps"
    short = (f"window of {g.size} GD steps < {MIN_GD_WINDOW}: too short to judge a convergence rate (quick sizes); "
             "decided at paper scale" if g.size < MIN_GD_WINDOW else None)
    yield rules.inequality("multi-layer: the gradient norm decays at a constant rate (late/early ≥ 0.5)", stg["ratio"],
                           ">=", RATIO_MIN, scope=scope2, chosen=_stack_chosen(ctx, s), undecided=short)
    yield rules.inequality("multi-layer: the gradient norm falls at least 1000-fold", stg["reduction"], "<=",
                           REDUCTION_MAX, scope=scope2, chosen=_stack_chosen(ctx, s), undecided=short)
    yield Note("Linear convergence = geometric decay of the distance to the optimum (single layer, where the optimum "
               "is known) or of the gradient norm (multi-layer, where it is not): the log is fitted by a line on the "
               "first and second half of the window (theorycheck.gla.geometric_rate_stability). The multi-layer "
               f"rate is judged only on a window of at least {MIN_GD_WINDOW} GD steps (rule declared 2026-12-01 "
               "after the 20-seed stability study of the quick verdicts: on 100 steps the late/early ratio ranged "
               "over −0.12 to 0.61 with the seed, ≥ 0.5 under 3 of 20 seeds); on a shorter window both multi-layer sub-claims are inconclusive.")


# ============================================================================ line 70
@claims.claim("000-lambda-star-below-1", lines=(70, 70), fragment="最优 $\\lambda^*$ 显著小于 1", conventions=["C1", "C4", "C7"])
def lambda_star_below_1(ctx):
    """The optimal forgetting factor λ* is markedly smaller than 1."""
    GAMMAS = (0.8, 0.9, 0.95, 0.975)        # the γ's of the experiments (lines 58, 65, 72)
    marked = 1.0 - 1.0 / N_EXP               # 'markedly': memory 1/(1 − λ*) shorter than the prompt (n tokens)
    res = [gla.optimal_lambda(p["gamma"], p["n"], p["d"], p["sigma_w2"], p["sigma_e2"], grid_size=101)
           for p in noise_free_grid()]
    yield rules.inequality("λ* < 1, with a lower error than λ = 1", [r.error for r in res], "<",
                           [r.error_linear_attention for r in res], scope=NOISE_FREE_SCOPE)
    lams = [gla.optimal_lambda(g, N_EXP, D_EXP, SW2, SE2, grid_size=201).lam for g in GAMMAS]
    yield rules.inequality("markedly: λ* < 1 − 1/n (effective memory 1/(1 − λ*) shorter than the prompt)", lams, "<",
                           marked, scope=f"d = {D_EXP}, n = {N_EXP}, γ ∈ {fmt_grid(GAMMAS)}, exact",
                           chosen=CHOSEN_SIGMAS)


@claims.claim("000-lambda-star-monotone-in-gamma", lines=(70, 70),
              fragment="且随任务漂移加剧（$\\gamma$ 减小）而减小——理论与实验一致", conventions=["C1", "C4"])
def lambda_star_monotone(ctx):
    """λ* decreases as the drift intensifies (γ decreases), in agreement between theory and experiment."""
    GAMMAS = (0.5, 0.7, 0.8, 0.9, 0.95, 0.975, 0.99)
    for d in (1, 3, 10, 30, 100):
        for label, f in (("σ_e² = 0.01", lambda g: SE2), ("stationary σ_e² = 1 − γ²", lambda g: 1 - g * g)):
            lam = [gla.optimal_lambda(g, N_EXP, d, SW2, f(g), grid_size=201).lam for g in GAMMAS]
            yield rules.shape(f"λ*(γ) increases (d = {d}, {label})", GAMMAS, lam, shape="increasing",
                              scope=f"d = {d}, n = {N_EXP}, σ_w² = 1, {label}, γ ∈ {fmt_grid(GAMMAS)}, exact")
    yield Note("The seed gives no experimental λ* values, so 'theory and experiment agree' is tested through the "
               "theory only.")


# ============================================================================ line 71
@claims.claim("000-gla-below-filters", lines=(71, 71), fragment="误差低于需逐序列重训的 LMS/RLS", needs=("filters",),
              conventions=["C1", "C6", "C7"])
def gla_below_filters(ctx, filters):
    """Single-layer GLA has a lower error than LMS/RLS, which must be retrained on every sequence."""
    for g in GAMMA_FILTER:
        f = filters[g]
        for name in ("lms", "rls"):
            yield rules.superiority(f"{name.upper()} error − GLA error > 0 (γ = {g})", _paired(f, name, "gla"),
                                    scope=_filters_scope(f), chosen=_filters_chosen(f))


# ============================================================================ line 72
@claims.claim("000-drift-gap-trend", lines=(72, 72), needs=("reconciled_filters",), conventions=["C1", "C6", "C7"],
              revision={"previous": "inconsistent",
                        "why": "the filter statements (LMS/RLS deteriorate, RLS = 1.29, GLA stays lower, the gap grows) "
                               "are now decided at the reconciled setting of the filter experiment (the setting "
                               "chosen to reproduce the seed's three numbers jointly) on fresh streams, instead of "
                               "tuned filters under the toolkit's a priori choices; the direction-of-drift "
                               "consistency sub-claim is unchanged."})
def drift_gap_trend(ctx, reconciled_filters):
    """The stronger the drift the larger the gap: as γ rises from 0.8 to 0.975 the LMS/RLS errors deteriorate quickly
    (RLS reaches 1.29 at γ = 0.975) while GLA keeps a lower error."""
    rf = reconciled_filters
    s8 = gla.drift_statistics(0.8, N_EXP, SW2, SE2)["step"]
    s9 = gla.drift_statistics(0.975, N_EXP, SW2, SE2)["step"]
    yield rules.consistency("γ 0.8 → 0.975 is the direction of stronger drift", float(np.sign(s9 - s8)), 1.0,
                            a_label="sign of the change of per-step relative drift (γ 0.8 → 0.975) in the model of line 44",
                            b_label="sign line 72 gives it ('漂移越剧烈' as γ rises)",
                            scope=f"σ_w² = 1, σ_e² = 0.01, n = {N_EXP}, exact drift statistics")
    h8, h9 = rf["heldout"][0.8], rf["heldout"][0.975]
    chosen = _rec_chosen(rf)
    both = (f"T = {T_FILTER}, γ ∈ {{0.8, 0.975}}, fresh streams at the reconciled setting, the same inputs and "
            "innovations at both γ (paired across γ)")
    for name, key in ((("LMS", "lms"), ("RLS", "rls")) if rf["rec"].found else ()):
        yield rules.superiority(f"{name} error rises from γ = 0.8 to γ = 0.975", _held_diff(h9[key], h8[key]),
                                scope=both, chosen=chosen)
        yield rules.superiority(f"{name} error − GLA error > 0 at γ = 0.975", _held_diff(h9[key], h9["gla"]),
                                scope=_rec_scope(rf, 0.975), chosen=chosen)
        gap = (None if h9[key] is None or h8[key] is None else (h9[key] - h9["gla"]) - (h8[key] - h8["gla"]))
        yield rules.superiority(f"the gap {name} − GLA is larger at γ = 0.975 than at γ = 0.8",
                                _held(gap) if gap is not None else _held_diff(None, h9["gla"]), scope=both, chosen=chosen)
    yield rules.reproduction("RLS = 1.29 at γ = 0.975 (fresh streams at the reconciled setting)", _held(h9["rls"]), "1.29",
                             model_margin=MODEL_MARGIN_REL, relative_model_margin=True, scope=_rec_scope(rf, 0.975),
                             chosen=chosen)
    if not rf["rec"].found:
        yield Note(_NOT_FOUND)


# ============================================================================ line 73
@claims.claim("000-real-language-transfer", lines=(73, 73))
def real_language_transfer(ctx):
    """Replacing GPT-2's softmax attention by GLA beats linear attention on SST-2 / MNLI, so the non-stationarity →
    recency-gating insight extends beyond the toy model."""
    yield rules.underspecified("the insight transfers to real language tasks",
                               ["the SST-2 / MNLI experiments (data, modified models, training protocol, numbers)"],
                               scope="real language tasks (SST-2, MNLI) with GPT-2; not attempted")


# ============================================================================ line 74
@claims.claim("000-test-error-floor", lines=(74, 74),
              fragment="测试误差有不可约下界：任务演化噪声使 $\\mathbb E[(\\tilde y_{m+1}-y_{m+1})^2]$ 天然非零",
              conventions=["C1", "C6", "C7"])
def test_error_floor(ctx):
    """The test error has an irreducible floor: the task-evolution noise makes E[(ỹ_{m+1} − y_{m+1})²] nonzero for any
    predictor, even the Bayes-optimal one."""
    runs = sizes(ctx)["kalman_runs"]
    floor = gla.irreducible_floor(np.eye(D_EXP), SE2)
    for g in (0.8, 0.9, 0.975):
        X, Y = ar1_stream(np.random.default_rng(ctx.seed_for(f"000-floor/{g}")), runs, N_EXP + 1, D_EXP, g, SW2, SE2)
        E, S = kalman_errors(X, Y, g, SW2, SE2, return_variance=True)
        yield rules.superiority(f"Bayes-optimal (Kalman) error at the query − σ_e² tr Λ > 0 (γ = {g})",
                                Estimate.from_samples(E[-1] - floor), chosen=CHOSEN_SIGMAS,
                                scope=f"d = {D_EXP}, n = {N_EXP} (query at position n + 1), {runs} streams")
        yield selfcheck.agreement(f"Kalman filter: E[e²] = E[S] at the query (γ = {g})", Estimate.from_samples(E[-1] - S[-1]), 0.0)
    yield Note("σ_e² tr Λ + σ² bounds every predictor's error from below (the innovation e_{m+1} is independent of "
               "the prompt); the Kalman filter with the true parameters is the Bayes-optimal predictor.")


# ============================================================================ line 75
def _landscape_runs(landscape):
    return [r for key in sorted(landscape) for r in landscape[key]]


def _landscape_scope(runs):
    m = LANDSCAPE_MODEL
    dims = sorted({r["d"] for r in runs})
    sig = sorted({r["sigma"] for r in runs})
    return (f"single-layer GLA, full parameters (C3), Λ = I, exact population loss, gradient flow (C9) from "
            f"{len(runs)} i.i.d. Gaussian initialisations of relative scale σ ∈ {fmt_grid(sig)}, d ∈ {dims}, "
            f"λ = {m['lam']}, γ = {m['gamma']}, n = {m['n']}, σ_w² = {m['sigma_w2']}, σ_e² = {m['sigma_e2']}, no label noise")


def _reduced_random_flows(ctx):
    out = []
    for k, (lam, g, n, L) in enumerate([(0.7, 0.8, 20, np.eye(3)), (0.7, 0.8, 20, np.diag([2.0, 1.0, 0.5])),
                                        (0.74, 0.8, N_EXP, np.eye(D_EXP))]):
        for sig in (0.01, 0.3):
            fr = gla.gradient_flow(lam, g, n, L, SW2, SE2, init="random", sigma=sig,
                                   seed=ctx.seed_for(f"000-random-init/reduced/{k}/{sig}"))
            out.append(fr.extra["final_rel_dist"])
    return out


@claims.claim("000-random-init", lines=(75, 75), needs=("landscape",), conventions=["C1", "C3", "C4", "C9"],
              revision={"previous": "confirmed",
                        "why": "000-random-init (reduced parameters, confirmed) and 000-random-init-full (full "
                               "parameters, underspecified) tested the same sentence; they are merged into one claim "
                               "with one reading per parametrisation, each decided under declared choices.",
                        "previous_id": "000-random-init; 000-random-init-full"})
def random_init(ctx, landscape):
    """Experiments with random Gaussian initialisation already reproduce the theoretical predictions, so the
    initialisation condition of the theorem is not needed in practice."""
    TOL = 1e-6       # the flow reached the global minimum: relative distance (reduced) / loss gap (full)
    red = _reduced_random_flows(ctx)
    yield rules.inequality("every random initialisation reaches the closed-form optimum", red, "<=", TOL,
                           reading="reduced parameters (v, A), Γ = vAᵀ",
                           scope="single-layer GLA, Γ = vAᵀ, gradient flow of the population loss (C9), Λ ∈ {I₃, "
                                 "diag(2, 1, 0.5), I₁₀}, λ ∈ {0.7, 0.74}, γ = 0.8",
                           chosen={**CHOSEN_SIGMAS, "initialisation": "i.i.d. Gaussian, relative scale σ ∈ {0.01, 0.3}"})
    runs = _landscape_runs(landscape)
    yield from full_loss_selfchecks(ctx, "000-random-init")
    yield rules.inequality("every random initialisation reaches the global minimum (relative loss gap ≤ 1e-6)",
                           [r["rel_gap"] for r in runs], "<=", TOL, reading="full parameters (W_V last row, W_KQ first d columns)",
                           scope=_landscape_scope(runs),
                           chosen={**LANDSCAPE_MODEL, "initialisation scales": sorted({r["sigma"] for r in runs}),
                                   "dimensions": sorted({r["d"] for r in runs})})


# ============================================================================ line 80
@claims.claim("000-inverted-u-highlight", lines=(80, 80), conventions=["C1", "C4"],
              fragment="倒 U 形误差曲线是最漂亮的定量结论：它告诉你\"既不能不遗忘（$\\lambda{=}1$），也不能遗忘过头\"，最优点由任务漂移速度决定")
def inverted_u_highlight(ctx):
    """The inverted-U error curve says: neither no forgetting (λ = 1) nor too much forgetting; the optimum is set by
    the drift speed."""
    yield rules.consistency("the best λ of an 'inverted-U error curve' lies strictly inside (0, 1)", 0.0, 1.0,
                            a_label="interior minima of an inverted-U (single interior maximum) curve",
                            b_label="interior minima implied by 'neither λ = 1 nor too much forgetting'",
                            scope="the sentence itself")
    for g in (0.8, 0.95):
        lams, err = error_curve(g)
        yield rules.shape(f"the train error is inverted-U in λ (γ = {g})", lams, err, shape="unimodal-maximum",
                          scope=f"d = {D_EXP}, n = {N_EXP}, σ_w² = 1, σ_e² = 0.01 (signal-dominated), λ grid 0.01..1, exact")
    gs = (0.5, 0.8, 0.9, 0.95, 0.975)
    yield rules.shape("the optimum λ* is set by the drift: it increases with γ", gs,
                      [gla.optimal_lambda(g, N_EXP, D_EXP, SW2, SE2, grid_size=201).lam for g in gs], shape="increasing",
                      scope=f"d = {D_EXP}, n = {N_EXP}, σ_w² = 1, σ_e² = 0.01, γ ∈ {fmt_grid(gs)}, exact")
    yield Note("The consistency sub-claim compares the two halves of the sentence: an inverted-U curve has a single "
               "interior maximum, so its minimum lies at an end of (0, 1]; 'neither λ = 1 nor too much forgetting' "
               "places the best λ inside.")


# ============================================================================ line 81
@claims.claim("000-filters-optimal-forgetting", lines=(81, 81), fragment="同一个最优遗忘因子现象，两种实现",
              needs=("filters",), conventions=["C1", "C6", "C7"],
              revision={"previous": "confirmed",
                        "why": "decided by a noisy interior-optimum test on the scans of both filters (LMS step and "
                               "RLS forgetting factor) and the exact GLA curve, under declared choices, instead of the "
                               "grid position of the RLS optimum alone."})
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
            yield rules.shape(f"{name}: the error has an interior optimum (γ = {g})", x, M.mean(axis=1),
                              shape="interior-minimum", cov=np.cov(M, ddof=1) / M.shape[1], df=f["runs_scan"] - 1,
                              chosen=_filters_chosen(f),
                              scope=f"T = {f['T']}, γ = {g}, {f['runs_scan']} scan streams shared by every grid value "
                                    f"(paired: covariance of the points), grid {fmt_grid(x)} (values with a diverged run "
                                    "left out)")
        lams = np.linspace(0.01, 1.0, 100)
        err = [gla.train_error(x, g, f["T"] - 1, f["d"], SW2, SE2) for x in lams]
        yield rules.shape(f"GLA: the error has a single interior optimum in λ (γ = {g})", lams, err,
                          shape="unimodal-minimum", chosen=CHOSEN_SIGMAS,
                          scope=f"d = {f['d']}, n = {f['T'] - 1}, λ grid 0.01..1 (100 points), exact")


# ============================================================================ line 89
@claims.claim("000-benign-landscape", lines=(89, 89),
              fragment="随机高斯初始化即收敛全局最优（即便违反理论初始化条件），暗示存在良性景观",
              needs=("landscape",), conventions=["C1", "C3", "C4", "C9"],
              revision={"previous": "refuted",
                        "why": "the search for spurious minima is decided by the search rule (a certified "
                               "counterexample refutes; finding none cannot confirm a universal statement), with its "
                               "scope (single-layer GLA, full parameters, Λ = I, exact population loss, Gaussian "
                               "initialisations, the seed's noise-free model) and certified end points only."})
def benign_landscape(ctx, landscape):
    """Random Gaussian initialisation converges to the global optimum (even violating the theorem's initialisation
    condition), which suggests a benign optimisation landscape (no spurious local minima)."""
    TOL, HESS_TOL = 1e-6, -1e-8   # global: relative gap ≤ 1e-6; local minimum: λ_min(H)/λ_max(H) ≥ −1e-8 and no probe descends
    runs = _landscape_runs(landscape)
    yield from full_loss_selfchecks(ctx, "000-benign-landscape")
    spurious = [r for r in runs if r["status"] == "critical" and r["hess_min_rel"] >= HESS_TOL
                and all(v["fraction_nonnegative"] == 1.0 for v in r["probe"].values()) and r["rel_gap"] > TOL]
    yield rules.search("no spurious local minimum: every local minimum reached from a random initialisation is global",
                       found=len(spurious), tried=len(runs),
                       scope=_landscape_scope(runs) + "; a counterexample is an end point certified as a local minimum "
                             "(gradient reduced ≥ 10⁶-fold, Hessian without negative curvature beyond 1e-8 relative, 600 "
                             "random probes at relative radii 1e-3..1e-1 never lower the loss) whose loss exceeds the "
                             "global minimum by more than 1e-6 relative",
                       details={"relative_excess_of_counterexamples": sorted(r["rel_gap"] for r in spurious),
                                "end_points": {k: sum(r["status"] == k for r in runs) for k in ("global", "critical",
                                                                                                "moving")}})
    red = _reduced_random_flows(ctx)
    yield rules.search("reduced parameters (v, A): no spurious minimum (every random initialisation reaches the global "
                       "minimum)", found=0, tried=len(red),
                       scope="single-layer GLA, Γ = vAᵀ, gradient flow of the population loss, Λ ∈ {I₃, diag(2, 1, 0.5), "
                             "I₁₀}, γ = 0.8, σ_w² = 1, σ_e² = 0.01, init scales {0.01, 0.3}; no end point is certified "
                             "as a spurious minimum here (flows that end away from Γ* are counted in the details)",
                       details={"flows_ending_away_from_optimum": int(sum(x > TOL for x in red)),
                                "final_relative_distances": list(map(float, red))})
