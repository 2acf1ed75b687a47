r"""Claims of paper 000 from the filter experiment to the depth ablation (seed lines 58–66), in seed order.

The experiments' settings the seed leaves open (d of the filter experiment, σ_w², σ_e², filter
grids, the multi-layer architecture and its training, initialisation scales) are the toolkit's
choices (convention C7) and are passed as chosen Params (``params=``): a failure under them is "not reproduced".
"""
from __future__ import annotations

import numpy as np

from ....claims import Clause
from ....figures import new_figure
from ....models.attention import gla_stack_loss_and_grad, gla_stream_errors
from ....models.filters import kalman_errors, lms_errors, lms_reference_errors, rls_direct_errors, rls_errors
from ....models.prompts import ar1_stream
from ....verdicts import Estimate, rules, selfcheck
from ....verdicts.distance import distance_beyond
from ...api import Note, Remedy
from .. import theory as gla
from ..fixtures import filter_params, rec_params
from ..reconciliation import MODEL_MARGIN_REL, FilterModel
from ..registry import claims
from ..settings import D_EXP, D_STACK, GAMMA_DEPTH, LAM_MULTI, N_STACK, SE2, SW2, flow_params, sizes, stack_params
from ._helpers import NOT_FOUND, filter_trivial, filters_scope, held, held_diff, paired, rec_scope


#: the report's family of hypotheses for a described distance (issue 29, class 3): the for/against hypotheses and the
#: trivial tests of the record (68 + 44), counted in the audit plan
FAMILY_FOR_DISTANCE = 112


# ============================================================================ line 58
@claims.claim("000-gla-vs-lms-rls", lines=(58, 58), fragment="GLA 训练误差更低", needs=("filters",), weight="main",
              title="Filter experiment: GLA's error is lower than tuned LMS and RLS (γ = 0.8)",
              clauses=[Clause("c1", "GLA 训练误差更低")],
              conventions=["C1", "C6", "C7", "C11"])
def gla_vs_lms_rls(ctx, filters):
    """Single-layer GLA has a lower error than LMS and RLS (sequence length 1000, 10,000 Monte Carlo runs)."""
    f = filters[0.8]
    for name in ("lms", "rls"):
        yield rules.superiority(f"{name.upper()} error − GLA error > 0 (γ = 0.8)", paired(f, name, "gla"), clauses="c1",
                                params=filter_params(f), trivial=filter_trivial(f),
                                scope=filters_scope(f) + f"; predicting 0: {np.mean(f['eval']['zero']):.4g}")
    zero = float(np.mean(f["eval"]["zero"]))
    weak = [t["contender"] for t in filter_trivial(f, ("lms", "rls")) if not t["beats"]]
    if weak:       # the fix the numbers show: the filters must beat the trivial predictor (C11) for 'lower' to mean much
        yield Remedy("give d and the noise levels of the filter experiment: at d = 10, γ = 0.8 (σ_e² = 0.01) the tuned "
                     "filters' errors (LMS {lms}, RLS {rls}) are within 2 % of predicting 0's ({zero}) or above it, so "
                     "GLA ({gla}) beating them does not separate the methods", clauses=["c1"],
                     lms=float(np.mean(f["eval"]["lms"])), rls=float(np.mean(f["eval"]["rls"])), zero=zero,
                     gla=float(np.mean(f["eval"]["gla"])))
    rng = np.random.default_rng(ctx.seed_for("000-filters/stream-identity"))
    Xs, Ys = ar1_stream(rng, 3, 12, 3, 0.8, SW2, SE2)
    G, lam = rng.standard_normal((3, 3)), 0.7
    h = [sum((lam ** (t - s) * Ys[s][:, None] * Xs[s] for s in range(t)), np.zeros((3, 3))) for t in range(12)]
    direct = np.array([(Ys[t] - np.einsum("ri,ij,rj->r", Xs[t], G, h[t])) ** 2 for t in range(12)])   # (runs, d) = (3, 3)
    yield selfcheck.identity("streaming GLA: ŷ_t = x_tᵀΓ Σ_{s<t} λ^{t−s} y_s x_s (direct sum)",
                             gla_stream_errors(Xs, Ys, lam, G), direct, rtol=1e-10)
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
    yield Note("Tasks: the LMS scan of each γ is one task, the RLS scan three (slices of its grid), on the same scan "
               "streams as one task would draw; the evaluation on fresh streams is two tasks per γ (two halves of the streams, "
               "each with its own seed, every method on the same streams within a half: paired).")
    yield Note("Each method's error is its one-step-ahead squared error averaged over the second half of every "
               "stream (C6); GLA is the single-layer optimum for prompt length T − 1 run as a streaming predictor.")


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
              needs=("reconciled_filters",), conventions=["C1", "C6", "C7"], weight="supporting",
              title="The filter experiment's numbers at γ = 0.8: LMS = 0.264, RLS = 0.256, GLA lower",
              clauses=[Clause("c1", "如 $\\gamma{=}0.8$ 时 LMS=0.264、RLS=0.256", "number"), Clause("c2", "GLA 更低")])
def lms_rls_numbers(ctx, reconciled_filters):
    """At γ = 0.8: LMS = 0.264 and RLS = 0.256, and GLA is lower."""
    rf = reconciled_filters
    yield rf["rec"]
    h = rf["heldout"][0.8]
    for name, key, val in (("LMS", "lms", "0.264"), ("RLS", "rls", "0.256")):
        est, det = held(h[key]), {}
        if est.se > 0:              # how far the stated value lies beyond its band: described, never a verdict
            det["distance"] = distance_beyond(est, float(val), 0.5 * 10 ** -(len(val.split(".")[1])) + MODEL_MARGIN_REL
                                              * float(val), family=FAMILY_FOR_DISTANCE)["text"]
        if h.get("gla") is not None:
            det["gla_at_this_setting"] = float(np.mean(h["gla"]))
        yield rules.reproduction(f"{name} = {val} at γ = 0.8 (fresh streams at the reconciled setting)", est,
                                 val, model_margin=MODEL_MARGIN_REL, relative_model_margin=True, clauses="c1",
                                 scope=rec_scope(rf, 0.8), params=rec_params(rf), details=det)
    if rf["rec"].found:            # the dependent statement, at a setting that reproduces the numbers
        for name, key in (("LMS", "lms"), ("RLS", "rls")):
            yield rules.superiority(f"{name} error − GLA error > 0 at γ = 0.8 (reconciled setting)",
                                    held_diff(h[key], h["gla"]), clauses="c2", scope=rec_scope(rf, 0.8),
                                    params=rec_params(rf))
    else:
        yield Note(NOT_FOUND)
    yield from _channel_selfchecks(ctx, rf["setting"])
    yield Note("Tasks: the joint search runs as two independent searches per filter dimension d ∈ {1, 2, 5, 10, 20} "
               "(each a task with a tenth of the budget; the best of the ten is kept), so its numbers change in "
               "distribution only against one search over every d.")
    yield Note("Every sub-claim carries the reconciled setting as Params (rec_params: each free parameter chosen, "
               "admissible over the range the joint search covered); whether the search found a setting that "
               "reproduces the numbers jointly is stated in each scope.")
    yield Note("The search (theorycheck.reconcile, differential evolution over the declared ranges and choices, "
               "theorycheck.papers.gla.reconciliation) runs the actual LMS and RLS recursions on streams drawn once "
               "from its seed; the setting it returns is then re-evaluated on fresh streams, so the reproduction "
               "sub-claims are out-of-sample. Every parameter of that setting is the toolkit's choice (chosen).")


# ============================================================================ lines 59, 60
@claims.claim("000-sst2", lines=(59, 59), fragment="$\\lambda{=}0.9$ 的 GLA 在准确率与置信度上均明显优于 LA",
              weight="supporting", title="SST-2: GLA (λ = 0.9) clearly beats linear attention in accuracy and confidence",
              clauses=[Clause("c1", "$\\lambda{=}0.9$ 的 GLA 在准确率与置信度上均明显优于 LA")])
def sst2(ctx):
    """GatedLinearGPT2 with λ = 0.9 clearly beats LinearGPT2 in accuracy and confidence on SST-2 (K ∈ {1,5,10,15,20})."""
    yield rules.underspecified("GLA (λ = 0.9) beats linear attention on SST-2",
                               ["the SST-2 prompts and data split", "GPT-2 with softmax replaced by (gated) linear "
                                "attention, and its training", "accuracy / confidence numbers"],
                               scope="GPT-2 with (gated) linear attention on SST-2, K ∈ {1, 5, 10, 15, 20} demonstrations "
                                     "(as stated); not attempted", clauses="c1")


@claims.claim("000-mnli", lines=(60, 60), fragment="GLA 一致地获得更高准确率与置信度", weight="supporting",
              title="MNLI: GLA consistently gets higher accuracy and confidence than linear attention",
              clauses=[Clause("c1", "GLA 一致地获得更高准确率与置信度")])
def mnli(ctx):
    """GatedLinearGPT2 consistently achieves higher accuracy and confidence than LinearGPT2 on MNLI (K ∈ {1,3,5,7,10})."""
    yield rules.underspecified("GLA beats linear attention on MNLI",
                               ["the MNLI prompts and data split", "the modified GPT-2 models and their training",
                                "accuracy / confidence numbers"],
                               scope="GPT-2 with (gated) linear attention on MNLI, K ∈ {1, 3, 5, 7, 10} (as stated); "
                                     "not attempted", clauses="c1")


# ============================================================================ lines 65, 66
def _diverged(*runs) -> dict:
    """The record of diverged training restarts (not a parameter: a fact about the runs)."""
    return {"diverged_restarts": sum(len(s["config"].get("diverged_restarts", [])) for s in runs)}


@claims.claim("000-depth-ablation", lines=(65, 65), fragment="层数增加，训练/测试性能持续提升", needs=("stack",),
              conventions=["C1", "C4", "C5", "C8"], weight="supporting",
              title="Depth ablation (γ = 0.95): train and test performance improve steadily with layers",
              clauses=[Clause("c1", "层数增加，训练/测试性能持续提升")])
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
    # the depth-L family contains the depth-(L − 1) stack (nested restart, fixtures.stack_nested): its training error
    # cannot end above the shallower one's on the same training set — a self-check of the training, not a vote
    tr_means = [float(np.mean(stack[k]["train_sq"])) for k in depths]
    yield selfcheck.inequality("nested depths: train error(L) ≤ train error(L − 1) on the shared training set",
                               tr_means[1:], "<=", [1.0000001 * x for x in tr_means[:-1]])
    ps, rec = stack_params(stack[depths[0]]["config"]), _diverged(*(stack[k] for k in depths))
    rec["nested_restart_chosen"] = {str(k): bool(stack[k]["config"].get("nested_start")) for k in depths}
    for split, key in (("train", "train_sq"), ("test", "test_sq")):
        M = np.array([stack[k][key] for k in depths])                   # (depths, prompts): paired across depths
        n = M.shape[1]
        if ctx.quick:           # a two-depth stack trained for a few steps: a smoke test, not evidence
            yield rules.inequality(f"{split} error decreases with depth", M.mean(axis=1)[1:], "<", M.mean(axis=1)[:-1],
                                   undecided="quick sizes: the stack is trained for a few steps only; decided at paper "
                                             "scale", params=ps, clauses="c1", scope=f"γ = {GAMMA_DEPTH}, depths {depths}")
            continue
        yield rules.shape(f"{split} error decreases with depth", depths, M.mean(axis=1), shape="decreasing",
                          cov=np.cov(M, ddof=1) / n, df=n - 1, params=ps, details=rec, clauses="c1",
                          scope=f"γ = {GAMMA_DEPTH}, depths {depths}, {n} {split} prompts shared by all depths (paired: "
                                "covariance of the points)")


@claims.claim("000-linear-convergence", lines=(66, 66), fragment="单层与多层均呈线性收敛", needs=("stack",),
              conventions=["C4", "C8", "C9"], weight="supporting",
              title="Single-layer and multi-layer GLA both converge linearly",
              clauses=[Clause("c1", "单层与多层均呈线性收敛")])
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
    ps1 = flow_params("i.i.d. Gaussian, relative scale σ = 0.1")
    scope1 = f"single layer, γ = {GAMMA_DEPTH}, λ* = {lam:.4f}, d = {D_STACK}, n = {N_STACK}, ‖Γ(t) − Γ*‖ over the second half of the flow"
    yield rules.inequality("single layer: the distance to the optimum decays at a constant rate (late/early ≥ 0.5)",
                           tail["ratio"], ">=", RATIO_MIN, scope=scope1, params=ps1, clauses="c1")
    yield rules.inequality("single layer: the distance falls at least 1000-fold", st["reduction"], "<=", REDUCTION_MAX,
                           scope=scope1, params=ps1, clauses="c1")
    deep = max(stack)
    s = stack[deep]
    g = s["grad_norms"][s["phase_switch"]:]
    stg = gla.geometric_rate_stability(g, floor=1e-10)
    scope2 = f"{deep} layers, λ = {LAM_MULTI} each, γ = {GAMMA_DEPTH}, gradient norm over the {g.size} GD steps"
    short = (f"window of {g.size} GD steps < {MIN_GD_WINDOW}: too short to judge a convergence rate (quick sizes); "
             "decided at paper scale" if g.size < MIN_GD_WINDOW else None)
    RATIO_TABLE = (0.5, 0.25, 0.1)      # admissible readings of 'constant rate' (late/early), declared in the audit plan
    held_at = next((r for r in RATIO_TABLE if stg["ratio"] >= r), None)
    yield rules.inequality("multi-layer: the gradient norm decays at a constant rate (late/early ≥ 0.5)", stg["ratio"],
                           ">=", RATIO_MIN, scope=scope2, params=stack_params(s["config"]),
                           details={**_diverged(s), "quantity": "the late/early rate ratio",
                                    "largest_ratio_threshold_it_meets": held_at}, undecided=short, clauses="c1")
    yield rules.inequality("multi-layer: the gradient norm falls at least 1000-fold", stg["reduction"], "<=",
                           REDUCTION_MAX, scope=scope2, params=stack_params(s["config"]), details=_diverged(s), undecided=short, clauses="c1")
    yield Note("Linear convergence = geometric decay of the distance to the optimum (single layer, where the optimum "
               "is known) or of the gradient norm (multi-layer, where it is not): the log is fitted by a line on the "
               "first and second half of the window (theorycheck.gla.geometric_rate_stability). The multi-layer "
               f"rate is judged only on a window of at least {MIN_GD_WINDOW} GD steps (rule declared 2026-12-01 "
               "after the 20-seed stability study of the quick verdicts: on 100 steps the late/early ratio ranged "
               "over −0.12 to 0.61 with the seed, ≥ 0.5 under 3 of 20 seeds); on a shorter window both multi-layer sub-claims are inconclusive.")


@claims.claim("000-gate-stabilises-gradients", lines=(66, 66), weight="supporting",
              title="The gate stabilises gradient propagation across layers (theory left for future work)",
              fragment="门控机制稳定了跨层梯度传播（多层收敛理论留待将来）",
              clauses=[Clause("c1", "门控机制稳定了跨层梯度传播", "inference"),
                       Clause("c2", "（多层收敛理论留待将来）", asserted=False)],
              conventions=["C8"])
def gate_stabilises_gradients(ctx):
    """The gating mechanism stabilises the propagation of gradients across layers (a theory of multi-layer convergence
    is left for future work)."""
    yield rules.underspecified("the gate stabilises gradient propagation across layers",
                               ["a measure of gradient stability across layers", "the ungated baseline it is compared "
                                "with (under the stack of C8, whose layer weights are (1 − λ)λ^{j−i}, λ = 1 is the zero "
                                "layer, so 'without the gate' is not a member of the family)", "numbers"],
                               clauses="c1", scope="multi-layer GLA (γ = 0.95, λ = 0.85 per layer); not attempted")
    yield Note("The sentence explains the linear convergence of 000-linear-convergence by the gate; the seed gives no "
               "gradient statistic and no ungated stack to compare with. The second clause is a limitation the source "
               "states (no multi-layer theory), not an assertion.")
