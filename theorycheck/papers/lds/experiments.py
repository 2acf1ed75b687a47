r"""Claims of paper 001 about its experiments and insights (seed lines 84–104), in seed order.

Trained weights come from the parametrised fixture ``training`` (:mod:`.fixtures`); every rule whose evidence depends
on the toolkit's training recipe or priors lists them as Params (:mod:`.settings`, provenance chosen), so a failure
there is "not reproduced". MSEs in the Kalman comparison are not halved (C4). Seed lines 74 (the training method) and
110–113 (ratings) are not claims (:mod:`.seedmap`); their former claim functions stay importable.
"""
from __future__ import annotations

import math

import numpy as np

from ...claims import Clause, Param
from ...figures import new_figure
from ...models.attention import attention_predict, effective_coefficients
from ...models.dynamics import OneSidedDiagonalLDSPrior
from ...models.filters import kalman_one_step_mse, oracle_ar_mse
from ...verdicts import Estimate, rules, selfcheck
from ...verdicts.rules.trivial import against_trivial
from ..api import Note
from . import reconciliation as rc
from .fixtures import runs_of
from .reconciliation import reading_params
from .registry import claims
from .settings import (MATCH_MARGIN, PRIOR_DEFAULTS, RECIPE, S_PCG, SETTINGS, T_STATED, config, prior, prior_params,
                       prior_scope, recipe_params, rng_for, seed_line, test_set)
from .theory.gd import ar_least_squares_predict, coefficient_inertia, exact_halved_loss
from .theory.kalman import trivial_predictor_mse
from .theory.optimum import theorem_branch_shares
from .theory.stationarity import stationarity_moments
from .theory.support import offpattern_energy, parity_zero_pattern, predicted_support, support_jaccard
from .theory.wqk import wqk_star


def training_setup(ctx):
    """Not a claim since the re-audit of issue 21: seed line 74 describes the training method (declared a method
    description in :mod:`.seedmap`; its stated values are the Params of :mod:`.settings`). Kept importable (public
    API); yields what the former claim 001-training-setup yielded."""
    yield rules.underspecified("the paper's training setup can be matched", [
        "learning rate and warm-up length", "weight decay", "gradient-clip threshold", "batch sizes for s ≥ 2",
        "initialisation", "laws of the eigenvalues of A, of x₀, Σ_w and σ_v"], scope="not attempted; the toolkit's "
        "recipe (C8) and sizes are in the run parameters")


# ============================================================================ lines 84–87 (Lemma 4.1, trained)
_ROWS = {"a": 84, "b": 85, "c": 86, "d": 87}


@claims.claim("001-lemma41-trained-support", lines=(84, 87), needs=("training", "exact_optima"),
              conventions=["C3", "C8", "C9"], weight="main",
              title="Trained AR(s) weights fall on the Lemma 4.1 parity pattern in all four settings",
              clauses=[Clause(f"c{st}", seed_line(n), "assertion") for st, n in _ROWS.items()],
              revision={"previous": "inconclusive",
                        "why": "re-audited (issue 21): each table row is a clause (rows b–d include their AR(1) runs, "
                               "whose forced zeros are C₁₁ = C₂₂ = 0); the training recipe and prior are Params (chosen), "
                               "the comparison of free and restricted training carries the trivial alternative "
                               "(predicting zero); a multi-start search of the exact loss shows certified local minima "
                               "off the pattern (s = 2, 3), which explains seeds that end off it. (Round 2: paired over "
                               "training seeds.)"})
def lemma41_trained_support(ctx, training, exact_optima):
    """In every setting and window of the table (a: AR(2–4); b: AR(1–4); c, d: AR(1–3)) the trained weights fall on
    the banded parity sparsity pattern of Lemma 4.1 (the paper measures it by the Jaccard distance of supports), and
    training restricted to that pattern loses nothing."""
    ENERGY_MAX = 0.01    # "falls on the pattern": < 1 % of the effective-coefficient energy (10 % in norm) off it
    THRESHOLD = 0.1      # Jaccard (reported): support = entries above 10 % of the largest |entry| of their block
    LOSS_MARGIN = 1e-3   # restricted training may lose at most 0.1 % of the halved loss (immaterial)
    TRIVIAL = 0.05       # both trainings must beat predicting zero by 5 % of its halved loss
    cfg = config(ctx)
    T = cfg["train_T"]
    yield Note("Decision statistic: the share of the effective coefficients' energy on the parity-forced zeros (C3, "
               "C9) — loss-relevant, invariant under the weight symmetries and free of a support threshold, Student t "
               "over training seeds. The paper's Jaccard distance of supports (threshold 10 % of the largest entry of v "
               "resp. W_QK[:, :s], better parity branch k₀) is recorded per seed. " + _landscape_note(exact_optima))
    for (st, s), n in cfg["runs"].items():
        if st == "a" and s == 1:
            continue                      # row (a) AR(1) is line 83 (Theorem 4.1): 001-thm41-trained
        runs = runs_of(training, st, s)
        phi = np.array([offpattern_energy(r["W_QK"], r["W_V"]) for r in runs])
        yield rules.superiority(f"({st}) AR({s}): mean off-pattern energy share < {ENERGY_MAX}",
                                Estimate.from_samples(ENERGY_MAX - phi), scope=f"{prior_scope(st)}, T = {T}",
                                clauses=[f"c{st}"], params=recipe_params(cfg, st, s, n),
                                details={"offpattern_energy_per_seed": phi, "jaccard_per_seed":
                                         [support_jaccard(r["W_QK"], r["W_V"], THRESHOLD)["distance"]
                                          for r in runs], "jaccard_support_threshold": THRESHOLD})
    for s in cfg["masked"]:
        _, Y = test_set(ctx, "a", T, cfg["test_n"], f"support-test-s{s}")
        masked, free = runs_of(training, "a", s, "masked"), runs_of(training, "a", s)
        zero = 0.5 * Y[:, -1] ** 2

        def losses(r):
            return 0.5 * (attention_predict(r["W_QK"], r["W_V"], Y) - Y[:, -1]) ** 2
        l_struct = np.array([float(np.mean(losses(r))) for r in masked])
        l_free = np.array([float(np.mean(losses(free[i]))) for i in range(len(masked))])
        gap = {k: Estimate.from_samples(np.mean(zero) - v) for k, v in (("free", l_free), ("restricted", l_struct))}
        yield rules.superiority(f"(a) AR({s}): free training beats checkerboard-restricted training by less than "
                                f"{LOSS_MARGIN:.1%} of the loss", Estimate.from_samples(l_free - l_struct),
                                margin=-LOSS_MARGIN * float(l_struct.mean()), clauses=["ca"],
                                scope=f"{prior_scope('a')}, T = {T}, {len(masked)} pairs of training runs (free and "
                                      f"restricted with the same seed), halved loss on {cfg['test_n']} common test "
                                      "prompts; Student t over the pairs",
                                params=[*recipe_params(cfg, "a", s), Param("restricted runs", len(masked), "chosen",
                                        "seeds of the restricted training (common random numbers with the free runs)",
                                        admissible=(2, 20))],
                                trivial=[against_trivial(f"{k} training", "predict zero", g,
                                                         reference=float(np.mean(zero)), relative_margin=TRIVIAL)
                                         for k, g in gap.items()],
                                details={"halved_loss_structured": l_struct.tolist(),
                                         "halved_loss_free": l_free.tolist()})
    ctx.save_figure(_support_figure(training, cfg), "lds_trained_support",
                    f"|W_QK[:, :s]ᵀ| (rows j) and |v| (last row), normalised, of the seed-0 AR(s) runs in setting (a), "
                    f"T = {T}: free training (top) and checkerboard-restricted training (bottom); red circles: the "
                    f"Lemma 4.1 support.")


def _landscape_note(exact_optima) -> str:
    parts = []
    for s, o in sorted(exact_optima.items()):
        if s < 2:
            continue
        best = min(p["loss"] for p in o["free"])
        off = sorted({(round(p["loss"], 6), round(p["offpattern"], 3)) for p in o["free"]
                      if p["offpattern"] > 1e-6 and p["min_hessian"] > 0 and p["gradient_norm"] < 1e-6})
        share = sum(p["offpattern"] > 1e-6 for p in o["free"]) / len(o["free"])
        parts.append(f"s = {s}: optimum {best:.6f} on the pattern; certified local minima off it at "
                     + (", ".join(f"{L} (off-pattern share {e})" for L, e in off) or "none found")
                     + f"; {share:.0%} of {len(o['free'])} random starts end off the pattern")
    return ("Exact loss landscape (setting a, T = 30, multi-start L-BFGS, gradient and Hessian certified): "
            + "; ".join(parts) + ". Training from random initialisations can therefore end off the pattern "
            "whatever the optimiser; whether the paper's runs did is not knowable from the seed.")


def _support_figure(training, cfg):
    ss = list(cfg["masked"])
    fig, axes = new_figure(ncols=len(ss), nrows=2, width=3.0, height=2.8)
    for col, s in enumerate(ss):
        for row, kind in enumerate(("free", "masked")):
            ax = axes[row][col]
            r = runs_of(training, "a", s, kind)[0]
            mat = np.vstack([r["W_QK"][:, :s].T, r["W_V"][s][None, :]])
            ax.imshow(np.abs(mat) / np.max(np.abs(mat)), cmap="Greys", vmin=0, vmax=1)
            sv, sw = predicted_support(s)
            yy, xx = np.nonzero(np.vstack([sw.T, sv[None, :]]))
            ax.scatter(xx, yy, marker="o", facecolors="none", edgecolors="r", s=60)
            ax.set_title(f"AR({s}) {'trained' if kind == 'free' else 'restricted'}", fontsize=8)
            ax.set_xticks([])
            ax.set_yticks([])
            ax.grid(False)
    return fig


# ============================================================================ line 91 (Theorem 4.1, trained)
@claims.claim("001-thm41-trained", lines=(91, 91), needs=("training", "recipe_runs"), conventions=["C3", "C5", "C8"],
              weight="main",
              title="Trained AR(1) attention converges to the Theorem 4.1 weights in all four settings",
              clauses=[Clause("c1", "AR(1) 闭式解可被训练复现"), Clause("c2", "在所有四种数据设定下", "quantifier"),
                       Clause("c3", r"AdamW 训练出的 \(W^\star_{QK}\)/\(W^\star_V\) 都收敛到 Theorem 4.1 的结构"),
                       Clause("c4", "说明「最优=一步 GD」不只是理论存在性，而是优化器实际能找到的解", "inference")],
              revision={"previous": "inconclusive",
                        "why": "re-audited (issue 21): the whole sentence is quoted (its inference 'so the optimum = one "
                               "GD step is what an optimiser actually finds' is tested by the exact population loss of "
                               "the trained weights against the optimum, and against predicting zero); 'converges to "
                               "the Theorem 4.1 structure' is tested on the weights themselves (the share of C₁₂ carried "
                               "by the Theorem's parity branch, not the swapped one) as well as on the effective "
                               "coefficients; the recipe (Adam without weight decay, fewer steps than the stated 8000) "
                               "is in chosen. (Round 1: equivalence and superiority instead of an underspecified "
                               "rule.) Rule changed after the data (the 20-seed stability run): the branch share was "
                               "tested by a t-test on its mean over the runs, which flipped between confirmed and not "
                               "reproduced across quick seeds — a run lands on one branch or the other (share ≈ 1 or "
                               "≈ 0), so the mean of 2–10 runs is not a sample the t law fits; 'every run converges' "
                               "is now a counterexample search over the runs (a run certified on the swapped branch at "
                               "the optimum's loss), which can refute but never confirm."})
def thm41_trained(ctx, training, recipe_runs):
    """In all four settings, AdamW-trained AR(1) attention converges to the Theorem 4.1 structure and value: effective
    coefficients (C₁₁, C₁₂, C₂₂) = (0, W*, 0), carried by the Theorem's parity branch (W_QK,11 and W_V,22); its exact
    population loss is within 0.1 % of the optimum (so the optimum is what the optimiser finds), far below predicting
    zero."""
    cfg = config(ctx)
    T = cfg["train_T"]
    pts = list(recipe_runs.values())
    yield Note(f"Reconciliation of the training recipe (also for the checkerboard of 001-lemma41-trained-support): a "
               f"declared grid of {len(pts)} recipes (learning rate, initial scale, steps; T = {T}, batch "
               f"{cfg['recipe_batch']}, Adam with 5 % warm-up and cosine decay, one AR(1) and one AR(2) run of setting "
               "(a) per recipe, the same seed at every recipe) searched for one that gives the theorem's exact values "
               "jointly; the sub-claims below use the toolkit's recipe (C8) with several seeds.")
    yield rc.recipe_reconcile(recipe_runs, ctx.quick, ctx.seed_for("recipe-grid"),
                              fixed={"T": T, "batch": cfg["recipe_batch"], "optimiser": RECIPE["optimiser"],
                                     "schedule": f"{RECIPE['warmup']} warm-up, {RECIPE['schedule']}",
                                     "diverged recipes": [p["label"] for p in pts if "diverged" in p]},
                              T=T, batch=cfg["recipe_batch"], w_star=pts[0]["W_star"], prior=prior("a"))
    yield Note("Compared up to the loss-invariant symmetries through the effective coefficients (C3): the theorem's "
               "weights give (C₁₁, C₁₂, C₂₂) = (0, W*, 0). W* is exact in settings (a)–(c); in (d) it is exact over "
               "the eigenvalues and noises and a randomised quasi-Monte Carlo average over the coupling matrix, whose "
               "SE over independent scramblings is combined with the SE over training seeds (Welch–Satterthwaite "
               "df). The weights themselves: C₁₂ = v₂W₁₁ + v₁W₂₁ is carried by the Theorem's branch (v₂W₁₁) or by the "
               "swapped one (v₁W₂₁), which has the same loss (001-thm41-global-optimum). The entries that do not enter "
               "the loss (W_V's first row, W_QK's second column) get no gradient and keep their initial values under "
               "Adam without weight decay: they are not compared.")
    for st in SETTINGS:
        yield from _trained_setting(ctx, training, st)


def _trained_setting(ctx, training, st):
    MARGIN = 0.05        # relative error of the trained C₁₂ against W*: within ±5 %
    OFF_MAX = 0.05       # off-structure |C₁₁|, |C₂₂| below 5 % of |C₁₂|
    BRANCH_MIN = 0.95    # the Theorem's branch carries at least 95 % of |v₂W₁₁| + |v₁W₂₁|
    EXCESS_MAX = 1e-3    # exact population loss of the trained weights within 0.1 % of the optimum
    TRIVIAL = 0.05       # and below predicting zero by 5 % of its loss
    cfg = config(ctx)
    T = cfg["train_T"]
    w = wqk_star(T, prior(st), n_systems=cfg["rb_systems"], batch=cfg["rb_systems"] // 20,
                 seed=ctx.seed_for(f"trained-wqk-{st}"))
    runs = runs_of(training, st, 1)
    C = [effective_coefficients(r["W_QK"], r["W_V"])[:, :, 0] for r in runs]
    rel = np.array([c[0, 1] / w.value - 1 for c in C])
    off = np.array([max(abs(c[0, 0]), abs(c[1, 1])) / abs(c[0, 1]) for c in C])
    branch = np.array([theorem_branch_shares(r["W_QK"], r["W_V"])[0] for r in runs])
    e = Estimate.from_samples(rel)
    if w.se > 0:            # W* itself is estimated: subtract an independent zero-mean estimate of its relative error
        b = np.asarray(w.extra["batch_ratios"])
        e = Estimate.difference(e, Estimate(0.0, b.std(ddof=1) / math.sqrt(b.size) / w.value, w.n_systems,
                                            b.size - 1))
    scope = f"{prior_scope(st)}, T = {T}, {len(runs)} training seeds"
    params = recipe_params(cfg, st, 1, len(runs))
    yield rules.equivalence(f"({st}) trained C₁₂ = W* within ±{MARGIN:.0%} (relative error)", e, 0.0, margin=MARGIN,
                            scope=scope, clauses=["c1", "c2", "c3"], params=params,
                            details={"W_star": w.value, "W_star_method": w.method, "rel_err_per_seed": rel})
    yield rules.superiority(f"({st}) off-structure |C₁₁|, |C₂₂| < {OFF_MAX:.0%} of |C₁₂|",
                            Estimate.from_samples(OFF_MAX - off), scope=scope, clauses=["c2", "c3"], params=params,
                            details={"offstructure_per_seed": off})
    m = _ar1_moments(ctx, st, T)
    L = np.array([exact_halved_loss(r["W_QK"], r["W_V"], m) for r in runs])
    c_opt = np.linalg.solve(m["gram"], m["b"])
    L_opt, L_zero = float(0.5 * (m["Eyy"] - c_opt @ m["b"])), 0.5 * float(m["Eyy"])
    # "都收敛到 Theorem 4.1 的结构": every run. A run's branch share is bimodal (≈ 1 or ≈ 0: the two branches have
    # the same loss), so the sentence is a universal over runs, decided by counterexamples: a run certified on the
    # swapped branch (share < 1 − BRANCH_MIN) at the optimum's loss (excess ≤ EXCESS_MAX)
    swapped = (branch < 1.0 - BRANCH_MIN) & (L / L_opt - 1 <= EXCESS_MAX)
    yield rules.search(f"({st}) every training run converges to the Theorem's branch (v₂W₁₁ carries > {BRANCH_MIN:.0%} "
                       "of C₁₂), not the swapped v₁W₂₁", found=int(swapped.sum()), tried=len(runs), scope=scope,
                       clauses=["c2", "c3"], params=params,
                       details={"theorem_branch_share_per_seed": branch, "certified_swapped_runs": np.flatnonzero(
                           swapped).tolist(), "certificate": f"share < {1 - BRANCH_MIN:.0%} and exact loss within "
                                                             f"{EXCESS_MAX:.1%} of the optimum"})
    yield rules.superiority(f"({st}) the trained weights' exact loss is within {EXCESS_MAX:.1%} of the optimum",
                            Estimate.from_samples(EXCESS_MAX - (L / L_opt - 1)), scope=scope + ", exact population "
                            "loss (" + m["method"] + ")", clauses=["c1", "c4"], params=params,
                            trivial=[against_trivial("trained attention", "predict zero", Estimate.from_samples(
                                L_zero - L), reference=L_zero, relative_margin=TRIVIAL)],
                            details={"loss_per_seed": L, "loss_optimum": L_opt, "loss_zero": L_zero})


def _ar1_moments(ctx, st, T):
    """Exact AR(1) feature moments of setting ``st`` (settings a–c: exact prior average; d: a finite family closed under
    A → −A, as in 001-thm41-global-optimum)."""
    if st != "d":
        return stationarity_moments(T, 1, prior(st), gram=True)
    sysm = prior(st).sample(rng_for(ctx, f"trained-moments-{st}"), config(ctx)["antithetic_pairs"])
    return stationarity_moments(T, 1, prior(st), gram=True, method="rao-blackwell", systems=sysm, antithetic=True)


# ============================================================================ line 93
@claims.claim("001-pcg-reading-supported", lines=(93, 93), needs=("pcg_reconciliation",), conventions=["C3", "C8", "C10"],
              weight="main",
              title="The cosines support the reading 'attention runs a PCG-type Krylov iteration'",
              clauses=[Clause("c1", "PCG 解释有数值支撑"),
                       Clause("c2", r"AR(4) 上注意力预测方向与两步 PCG 方向余弦相似度 \(0.88\sim0.93\)", "number"),
                       Clause("c3", r"修正向量 \(p\) 与残差方向余弦 \(\approx-0.99\)", "number"),
                       Clause("c4", "说明「注意力在做 PCG 型 Krylov 迭代」这一解释站得住脚", "inference")])
def pcg_reading_supported(ctx, pcg_reconciliation):
    """The numbers of line 93 restate those of line 70 (0.88–0.93, −0.99), and they support the PCG reading: the
    trained AR(4) predictor is closer in direction to the two-step PCG predictor than to the simpler directions the
    reading contrasts with (one GD step, the least-squares solution), by more than 0.05 in mean cosine."""
    MARGIN = 0.05        # the PCG direction must beat each simpler direction by 0.05 in mean cosine
    cfg = config(ctx)
    fx = pcg_reconciliation
    best = fx["rec"].best
    for lo_hi, stated, cl in ((("0.88", "0.93"), ("0.88 (a)", "0.93 (b)"), "c2"), (("-0.99",), ("-0.99",), "c3")):
        for val, st in zip(lo_hi, stated):
            yield rules.consistency(f"line 93's {val} = line 70's {st}", float(val), float(st.split()[0]), clauses=[cl],
                                    a_label="line 93", b_label="line 70", scope="the seed's own numbers")
    yield Note("Line 93 says 'residual direction' where line 70 says 'preconditioned residual direction'; the two "
               "differ (cos(p, r₀) changes sign under the loss-invariant symmetry (W_QK, W_V) → (−W_QK, −W_V), so only "
               "the preconditioned reading is a property of the predictor — see 001-pcg-p-residual).")
    if best["compared vectors"] != "predictors":
        yield rules.underspecified("the PCG direction beats the simpler directions", [
            "a reading of the cosines that compares predictors (the reconciled reading compares first terms)"],
            clauses=["c1", "c4"], scope="not attempted at this reading")
        return
    for st in ("a", "b"):
        cos = np.array(fx["cos"][st])
        for name, key in (("one GD step −∇L(0)", "gd"), ("least-squares solution", "ls")):
            alt = np.array(fx["baselines"][st][key])
            yield rules.superiority(f"({st}) the attention direction is closer to the PCG direction than to the {name} "
                                    f"(mean cosine higher by > {MARGIN})", Estimate.from_samples(cos - alt),
                                    margin=MARGIN, clauses=["c1", "c4"],
                                    params=[*recipe_params(cfg, st, 4, len(cos)), S_PCG, *reading_params(best)],
                                    scope=f"AR(4), {prior_scope(st)}, T = {cfg['train_T']}, the reconciled reading, "
                                          "fresh test prompts, paired over training seeds",
                                    details={"cos_pcg_per_seed": cos, f"cos_{key}_per_seed": alt})


# ============================================================================ line 98
@claims.claim("001-symmetry-needed", lines=(98, 98), conventions=["C1", "C9"], weight="supporting",
              fragment=r"中心对称性 → 带状结构：把 \(A\) 分布的对称性这个看似纯技术的假设，转化成最优性条件里可利用的稀疏零模式",
              title="The zero pattern comes from the central symmetry of A's law",
              clauses=[Clause("c1", "中心对称性 → 带状结构"),
                       Clause("c2", r"把 \(A\) 分布的对称性这个看似纯技术的假设，转化成最优性条件里可利用的稀疏零模式")],
              revision={"previous": "confirmed",
                        "why": "re-audited (issue 21): the quote includes 'central symmetry → banded structure'; both "
                               "directions are tested (zeros with the symmetric prior, none without it). (Round 1: the "
                               "exact prior average under the one-sided control prior.)"})
def symmetry_needed(ctx):
    """The banded zero pattern comes from the central symmetry of A's law: with it the predicted zeros of the
    stationarity right-hand side vanish, without it (a one-sided control prior) they do not."""
    NONZERO_MIN = 1e-6   # clearly non-zero: 10⁶ × floating-point rounding, relative to the largest entry
    ZERO_RTOL = 1e-12
    T = config(ctx)["symmetry_T"]
    ctrl = OneSidedDiagonalLDSPrior(**PRIOR_DEFAULTS)
    yield Note("Control prior (not a setting of the paper): setting (a) with eigenvalues a_k ~ U[0, 0.95], so A and −A "
               "are not equally likely; R is its exact prior average (independent components, Gauss–Legendre).")
    for s in (2, 3, 4):
        z = parity_zero_pattern(s)
        R = stationarity_moments(T, s, ctrl)["R"]
        yield rules.inequality(f"s = {s}: without central symmetry, |R| on the predicted zeros > {NONZERO_MIN:g}·max|R|",
                               np.abs(R[z]) / np.max(np.abs(R)), ">", NONZERO_MIN, clauses=["c1", "c2"],
                               scope=f"one-sided control prior (eigenvalues U[0, {PRIOR_DEFAULTS['a_max']}]), d = "
                                     f"{PRIOR_DEFAULTS['d']}, T = {T}, exact prior average")
        Rs = stationarity_moments(T, s, prior("a"))["R"]
        yield rules.identity(f"s = {s}: with central symmetry, R = 0 on the predicted zeros", np.abs(Rs[z]) /
                             np.max(np.abs(Rs)), np.zeros(int(z.sum())), atol=ZERO_RTOL, clauses=["c1"],
                             params=prior_params("a"), scope=f"{prior_scope('a')}, T = {T}, exact prior average")


# ============================================================================ line 100
@claims.fixture(needs=("training",))
def kf_test(ctx, training):
    """Common test set of setting (a) at the training horizon: per-prompt squared errors of the trained attention
    (averaged over training seeds) for every trained window, and the exact Kalman MSE of each prompt's system."""
    cfg = config(ctx)
    T = cfg["train_T"]
    sysm, Y = test_set(ctx, "a", T, cfg["kf_test_n"], "kf-test")
    windows = sorted(s for (st, s) in cfg["runs"] if st == "a")
    err = {s: np.mean([(attention_predict(r["W_QK"], r["W_V"], Y) - Y[:, -1]) ** 2
                       for r in runs_of(training, "a", s)], axis=0) for s in windows}
    sub = sysm.subset(slice(0, min(len(sysm), 20_000)))            # baselines of the figure on a subset
    Ys = Y[:len(sub)]
    s_or = list(range(1, 9))
    oracle = {s: float(oracle_ar_mse(sub, T, s).mean()) for s in s_or}
    ls = {s: float(np.mean((ar_least_squares_predict(Ys, s) - Ys[:, -1]) ** 2)) for s in s_or if T - s - 1 >= s + 1}
    return {"T": T, "n": len(sysm), "err": err, "kf": kalman_one_step_mse(sysm, T), "oracle": oracle, "ls": ls,
            "n_baselines": len(sub), "zero": Y[:, -1] ** 2, "last": (Y[:, -1] - Y[:, -2]) ** 2}


@claims.claim("001-window-stronger", lines=(100, 100), needs=("kf_test", "exact_optima"), conventions=["C2", "C4", "C8"],
              fragment="窗口越大，注意力实现的隐式优化越强（GD→PCG→Krylov）", weight="supporting",
              title="A larger window gives attention a stronger implicit optimiser (GD → PCG → Krylov)",
              clauses=[Clause("c1", "窗口越大，注意力实现的隐式优化越强（GD→PCG→Krylov）")],
              revision={"previous": "inconclusive",
                        "why": "re-audited (issue 21): besides the trained test errors (recipe in chosen), the exact "
                               "optimal loss of the attention for each window (multi-start minimisation of the exact "
                               "population loss) is compared: the statement is about what the optimal layer "
                               "implements. (Split from 001-kf-one-layer in round 1.)"})
def window_stronger(ctx, kf_test, exact_optima):
    """A larger window gives a stronger implicit algorithm (GD → PCG → Krylov): the exact optimal loss of the attention
    decreases with the window s, and so does the trained attention's test error."""
    cfg = config(ctx)
    ss = sorted(exact_optima)
    best = [min(p["loss"] for p in exact_optima[s]["free"]) for s in ss]
    yield rules.shape("(a) the exact optimal halved loss of the attention decreases with the window s", ss, best,
                      shape="decreasing", resolution=1, clauses=["c1"], params=[T_STATED, *prior_params("a")],
                      scope=f"{prior_scope('a')}, T = {cfg['T']}, s = {ss[0]}..{ss[-1]} (every integer window), exact "
                            "population loss, best of a multi-start search")
    err = kf_test["err"]
    ws = sorted(err)
    diff_ses = [Estimate.from_samples(err[b] - err[a]).se for a, b in zip(ws, ws[1:])]
    yield rules.shape("(a) test MSE of trained attention decreases with the window s", ws, [err[s].mean() for s in ws],
                      shape="decreasing", diff_ses=diff_ses, resolution=1, clauses=["c1"],
                      params=recipe_params(cfg, "a", 2),
                      scope=f"{prior_scope('a')}, T = {cfg['train_T']}, s = {ws[0]}..{ws[-1]}, {cfg['kf_test_n']} common "
                            "test prompts, errors averaged over training seeds (AR(1) runs with lr 0.003)")


@claims.claim("001-kf-one-layer", lines=(100, 100), needs=("kf_test", "exact_optima"), conventions=["C2", "C4", "C8"],
              fragment="为「单层注意力为何能逼平 KF」给出了算法层面的解释", weight="main",
              title="The algorithmic reading explains why one-layer attention can match the Kalman filter",
              clauses=[Clause("c1", "为「单层注意力为何能逼平 KF」"),
                       Clause("c2", "给出了算法层面的解释", "inference",
                              untested="whether a reading 'explains' a phenomenon is not a computable statement")],
              revision={"previous": "not reproduced",
                        "why": "re-audited (issue 21): the premise 'one-layer attention can match the KF' is now also "
                               "tested at the exact optimum of the attention (s = 1..3, exact population loss, not "
                               "training), and every comparison carries the trivial predictors (zero and the last value; "
                               "at the exact optimum also the oracle AR(1) with the system known); the 5 % criterion "
                               "is a chosen Param. 'Gives an algorithmic explanation' is not computable (untested)."})
def kf_one_layer(ctx, kf_test, exact_optima):
    """Single-layer linear attention can match the Kalman filter (its MSE within 5 % of the Kalman MSE) — the trained
    attention with the largest window, and the exact optimum of the attention for each window. Each contender must
    beat the trivial predictors (zero, the last value; at the exact optimum also the oracle AR(1), system known)."""
    TRIVIAL = 0.05       # each contender must beat each trivial predictor by 5 % of that predictor's MSE
    cfg = config(ctx)
    T = cfg["train_T"]
    err, kf = kf_test["err"], kf_test["kf"]
    s_max = max(err)
    zero = kf_test["zero"]
    m = MATCH_MARGIN.value
    yield rules.superiority(f"(a) AR({s_max}) trained attention MSE < (1 + {m:.0%}) × Kalman MSE",
                            Estimate.from_samples((1 + m) * kf - err[s_max]), clauses=["c1"],
                            params=[*recipe_params(cfg, "a", s_max), MATCH_MARGIN],
                            trivial=[against_trivial(f"AR({s_max}) attention", name, Estimate.from_samples(
                                mse - err[s_max]), reference=float(mse.mean()), relative_margin=TRIVIAL)
                                     for name, mse in (("predict zero", zero),
                                                       ("predict the last value", kf_test["last"]))],
                            scope=f"{prior_scope('a')}, T = {T}, {cfg['kf_test_n']} test prompts with their systems' "
                                  "exact Kalman MSE (paired)",
                            extent=_match_extent(float(err[s_max].mean() / kf.mean() - 1)),
                            details={"attention_mse": {s: float(e.mean()) for s, e in err.items()},
                                     "kalman_mse": float(kf.mean()), "zero_mse": float(zero.mean()),
                                     "excess_ratio": float(err[s_max].mean() / kf.mean() - 1)})
    yield from _kf_exact(ctx, exact_optima, m, TRIVIAL)
    ctx.save_figure(_kf_figure(kf_test), "lds_kf_baseline",
                    f"One-step MSE (not halved) in setting (a), d = {PRIOR_DEFAULTS['d']}, T = {T}: Kalman filter "
                    f"(known system) and trained one-layer attention (mean over seeds) on {kf_test['n']} test prompts; "
                    f"oracle AR(s) (known system) and in-context AR(s) least squares on {kf_test['n_baselines']} of "
                    "them; against the window s.")


def _match_extent(excess: float) -> dict:
    """Where the failure of 'matches' holds along the admissible range of the chosen margin."""
    lo, hi = MATCH_MARGIN.admissible
    return {"searched": {MATCH_MARGIN.name: [lo, hi]}, "holds_throughout": excess > hi,
            "where": f"margins below the measured excess {excess:.3f}", "stops": f"at a margin of {excess:.3f}"}


def _kf_exact(ctx, exact_optima, m, trivial_margin):
    """The exact optimum of the attention for each window against the Kalman filter (exact per system, averaged over
    sampled systems), setting (a), T = config['T']."""
    cfg = config(ctx)
    T = cfg["T"]
    sysm = prior("a").sample(rng_for(ctx, "kf-exact-systems"), cfg["kf_exact_n"])
    kf = kalman_one_step_mse(sysm, T)
    chunks = [trivial_predictor_mse(sysm.subset(slice(i, i + 2000)), T) for i in range(0, len(sysm), 2000)]  # memory
    trivial = {name: np.concatenate([c[name] for c in chunks]) for name in chunks[0]}
    zero = trivial["predict zero"]
    for s, o in sorted(exact_optima.items()):
        mse = 2 * min(p["loss"] for p in o["free"])              # the halved population loss, not halved
        yield rules.superiority(f"(a) AR({s}) exact optimal attention MSE < (1 + {m:.0%}) × Kalman MSE",
                                Estimate.from_samples((1 + m) * kf - mse), clauses=["c1"],
                                params=[T_STATED, *prior_params("a"), MATCH_MARGIN],
                                trivial=[against_trivial(f"AR({s}) optimal attention", name,
                                                         Estimate.from_samples(t - mse), reference=float(t.mean()),
                                                         relative_margin=trivial_margin)
                                         for name, t in trivial.items()],
                                extent=_match_extent(mse / float(kf.mean()) - 1),
                                scope=f"{prior_scope('a')}, T = {T}, exact optimum (multi-start), Kalman MSE exact per "
                                      f"system over {cfg['kf_exact_n']} sampled systems",
                                details={"optimal_attention_mse": mse, "kalman_mse": float(kf.mean()),
                                         "excess_ratio": mse / float(kf.mean()) - 1, "zero_mse": float(zero.mean())})


def _kf_figure(kt):
    fig, ax = new_figure()
    err, kf = kt["err"], kt["kf"]
    ax.axhline(kf.mean(), color="k", ls="--", label="Kalman filter (known system)")
    ax.plot(list(kt["oracle"]), list(kt["oracle"].values()), "o-", label="oracle AR(s) (known system)")
    ax.plot(list(kt["ls"]), list(kt["ls"].values()), "s-", label="in-context AR(s) least squares")
    ax.plot(sorted(err), [err[s].mean() for s in sorted(err)], "^-", label="trained linear attention")
    ax.set_ylim(0.97 * kf.mean(), 1.35 * max(e.mean() for e in err.values()))
    ax.set_xlabel("window s")
    ax.set_ylabel("one-step MSE (not halved)")
    ax.legend(fontsize=7)
    return fig


# ============================================================================ line 104
@claims.claim("001-ar2-constrained-optimum", lines=(104, 104), needs=("exact_optima",), conventions=["C3", "C4"],
              fragment=r"AR(s)（\(s\ge2\)）只有结构刻画 + 经验解释，没有闭式最优解", weight="supporting",
              title="For s ≥ 2 there is no closed-form optimum (the paper's stated limitation)",
              clauses=[Clause("c1", r"AR(s)（\(s\ge2\)）只有结构刻画 + 经验解释", "assertion", asserted=False),
                       Clause("c2", "没有闭式最优解", "negative")],
              revision={"previous": "confirmed",
                        "why": "re-audited (issue 21, the example named there): 'no closed form' is a negative, which "
                               "computation cannot confirm; it is scoped to what was tried — the route of Theorem 4.1 "
                               "(the unconstrained optimum of a linear solve) is not realisable by one layer at s = 2 "
                               "and 3, and the optimum found by a multi-start search is strictly worse than it."})
def ar2_constrained_optimum(ctx, exact_optima):
    """For s ≥ 2 there is no closed-form optimum like Theorem 4.1. What was tried: at s = 2 and 3 the unconstrained
    optimum over the effective coefficients (the linear solve that gives Theorem 4.1) is not realisable by one attention
    layer, and the best realisable loss found is strictly above it."""
    yield Note("Realisable coefficients have S_j = (v wᵀ + w vᵀ)/2 for each query index j (C3), with at most one "
               "positive and one negative eigenvalue; S_kk = C_kkj, S_kl = C_klj/2. A negative ('no closed form') "
               "cannot be confirmed by computation: the sub-claims scope it to what was tried.")
    rng = rng_for(ctx, "ar2-bound")
    for s, o in sorted(exact_optima.items()):
        if s < 2:
            continue
        m = o["moments"]
        c = np.asarray(o["C_unconstrained"])
        inertia = coefficient_inertia(c, m["features"], s)
        worst = max(max(v["n_pos"], v["n_neg"]) for v in inertia.values())
        scope = f"{prior_scope('a')}, T = {o['T']}, exact moments, s = {s}"
        params = [T_STATED, *prior_params("a")]
        yield rules.inequality(f"s = {s}: some S_j of the unconstrained optimum has ≥ 2 eigenvalues of one sign (not "
                               "realisable)", worst, ">=", 2, clauses=["c2"], params=params, scope=scope,
                               details={"inertia": {j: (v["n_pos"], v["n_neg"]) for j, v in inertia.items()},
                                        "halved_loss_unconstrained": o["unconstrained"]})
        best = min(p["loss"] for p in o["free"])
        yield rules.inequality(f"s = {s}: the best realisable loss found (multi-start) is above the unconstrained "
                               "optimum", best, ">", o["unconstrained"] * (1 + 1e-9), clauses=["c2"], params=params,
                               scope=scope, details={"loss_found": best, "loss_unconstrained": o["unconstrained"]})
        excess = []
        for _ in range(20):
            W, V = rng.standard_normal((2, s + 1, s + 1)) * 0.3
            excess.append(max(0.0, o["unconstrained"] - exact_halved_loss(W, V, m)))
        yield selfcheck.identity(f"s = {s}: realisable weights never beat the unconstrained optimum", np.array(excess),
                                 np.zeros(len(excess)), atol=1e-12 * abs(o["unconstrained"]))


# ============================================================================ lines 110–113
def ratings(ctx):
    """Not a claim since the re-audit of issue 21: seed lines 110–113 are ratings (declared in :mod:`.seedmap`).
    Kept importable (public API); yields what the former claim 001-ratings yielded."""
    yield rules.underspecified("star ratings", ["a measurable statement (opinions of the summary's author)"],
                               scope="not attempted")
