r"""Claims of paper 001 about its experiments and insights (seed lines 74–113), in seed order.

Trained weights come from the parametrised fixture ``training`` (:mod:`.fixtures`); every rule
whose evidence depends on the toolkit's training recipe or priors carries them in ``chosen``
(a failure is then "not reproduced"). MSEs in the Kalman comparison are not halved (C4).
"""
from __future__ import annotations

import math

import numpy as np

from ...figures import new_figure
from ...models.attention import attention_predict, effective_coefficients
from ...models.dynamics import OneSidedDiagonalLDSPrior
from ...models.filters import kalman_one_step_mse, oracle_ar_mse
from ...verdicts import Estimate, rules, selfcheck
from ..api import Note
from . import reconciliation as rc
from .fixtures import runs_of
from .registry import claims
from .settings import (PRIOR_DEFAULTS, RECIPE, SETTINGS, config, prior, prior_scope, recipe_chosen, rng_for,
                       test_set)
from .theory.gd import ar_least_squares_predict, coefficient_inertia, exact_halved_loss
from .theory.stationarity import stationarity_moments
from .theory.support import offpattern_energy, parity_zero_pattern, predicted_support, support_jaccard
from .theory.wqk import wqk_star


@claims.claim("001-training-setup", lines=(74, 74), conventions=["C8"])
def training_setup(ctx):
    """Training: online fresh LDS batches, T = 30, d = 5, AdamW + gradient clipping + linear warm-up + cosine
    annealing, 8000 steps, batch from 3000 (AR(1)) growing with the window, 3 seeds."""
    yield rules.underspecified("the paper's training setup can be matched", [
        "learning rate and warm-up length", "weight decay", "gradient-clip threshold", "batch sizes for s ≥ 2",
        "initialisation", "laws of the eigenvalues of A, of x₀, Σ_w and σ_v"], scope="not attempted; the toolkit's "
        "recipe (C8) and sizes are in the run parameters")


# ============================================================================ lines 84–87 (Lemma 4.1, trained)
@claims.claim("001-lemma41-trained-support", lines=(84, 87), needs=("training",), conventions=["C3", "C8", "C9"],
              revision={"previous": "inconclusive",
                        "why": "the restricted-vs-free comparison is now paired over training seeds (restricted and free "
                               "runs with the same seed, Student t over the pairs) instead of a t over the test prompts "
                               "of one restricted run, which left out the training noise and flipped between confirmed "
                               "and not reproduced across run seeds (quick sizes). (Round 1: decided by superiority "
                               "rules instead of a rule that could only return confirmed or underspecified.)"})
def lemma41_trained_support(ctx, training):
    """For AR(2–4) and in settings (b)–(d) the trained weights fall on the banded parity sparsity pattern of Lemma 4.1
    (the paper measures it by the Jaccard distance of supports), so training restricted to that pattern loses
    nothing."""
    ENERGY_MAX = 0.01    # "falls on the pattern": < 1 % of the effective-coefficient energy (10 % in norm) off it
    THRESHOLD = 0.1      # Jaccard (reported): support = entries above 10 % of the largest |entry| of their block
    LOSS_MARGIN = 1e-3   # restricted training may lose at most 0.1 % of the halved loss (immaterial)
    cfg = config(ctx)
    T = cfg["train_T"]
    yield Note("Decision statistic: the share of the effective coefficients' energy on the parity-forced zeros (C3, "
               "C9) — loss-relevant, invariant under the weight symmetries and free of a support threshold, Student t "
               "over training seeds. The paper's Jaccard distance of supports (threshold 10 % of the largest entry of v "
               "resp. W_QK[:, :s], better parity branch k₀) is recorded per seed; being discrete, it gives degenerate "
               "t statistics when seeds tie.")
    for (st, s), n in cfg["runs"].items():
        if s < 2:
            continue
        runs = runs_of(training, st, s)
        phi = np.array([offpattern_energy(r["W_QK"], r["W_V"]) for r in runs])
        yield rules.superiority(f"({st}) AR({s}): mean off-pattern energy share < {ENERGY_MAX}",
                                Estimate.from_samples(ENERGY_MAX - phi), scope=f"{prior_scope(st)}, T = {T}",
                                chosen=recipe_chosen(cfg, st, s, n),
                                details={"offpattern_energy_per_seed": phi, "jaccard_per_seed":
                                         [support_jaccard(r["W_QK"], r["W_V"], THRESHOLD)["distance"]
                                          for r in runs], "jaccard_support_threshold": THRESHOLD})
    for s in cfg["masked"]:
        _, Y = test_set(ctx, "a", T, cfg["test_n"], f"support-test-s{s}")
        masked, free = runs_of(training, "a", s, "masked"), runs_of(training, "a", s)

        def loss(r):
            return float(np.mean(0.5 * (attention_predict(r["W_QK"], r["W_V"], Y) - Y[:, -1]) ** 2))
        l_struct = np.array([loss(r) for r in masked])
        d = np.array([loss(free[i]) - l_struct[i] for i in range(len(masked))])     # paired by training seed
        yield rules.superiority(f"(a) AR({s}): free training beats checkerboard-restricted training by less than "
                                f"{LOSS_MARGIN:.1%} of the loss", Estimate.from_samples(d),
                                margin=-LOSS_MARGIN * float(l_struct.mean()),
                                scope=f"{prior_scope('a')}, T = {T}, {len(masked)} pairs of training runs (free and "
                                      f"restricted with the same seed), halved loss on {cfg['test_n']} common test "
                                      "prompts; Student t over the pairs",
                                chosen={**recipe_chosen(cfg, "a", s), "restricted runs": f"{len(masked)} seeds, "
                                        f"{cfg['masked_steps']} steps"},
                                details={"halved_loss_structured": l_struct.tolist(),
                                         "halved_loss_free": [loss(r) for r in free[:len(masked)]]})
    ctx.save_figure(_support_figure(training, cfg), "lds_trained_support",
                    f"|W_QK[:, :s]ᵀ| (rows j) and |v| (last row), normalised, of the seed-0 AR(s) runs in setting (a), "
                    f"T = {T}: free training (top) and checkerboard-restricted training (bottom); red circles: the "
                    f"Lemma 4.1 support.")


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
              fragment=r"AR(1) 闭式解可被训练复现：在所有四种数据设定下，AdamW 训练出的 \(W^\star_{QK}\)/\(W^\star_V\) 都收敛到 "
                       r"Theorem 4.1 的结构",
              revision={"previous": "underspecified",
                        "why": "decided by equivalence of the trained C₁₂ with W* (±5 %, Student t over training seeds) "
                               "and superiority for the off-structure coefficients, with the optimiser in chosen; the "
                               "old rule could only return confirmed or underspecified."})
def thm41_trained(ctx, training, recipe_runs):
    """In all four settings, AdamW-trained AR(1) attention converges to the Theorem 4.1 structure and value:
    effective coefficients (C₁₁, C₁₂, C₂₂) = (0, W*, 0)."""
    MARGIN = 0.05        # relative error of the trained C₁₂ against W*: within ±5 %
    OFF_MAX = 0.05       # off-structure |C₁₁|, |C₂₂| below 5 % of |C₁₂|
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
               "df).")
    for st in SETTINGS:
        w = wqk_star(T, prior(st), n_systems=cfg["rb_systems"], batch=cfg["rb_systems"] // 20,
                         seed=ctx.seed_for(f"trained-wqk-{st}"))
        runs = runs_of(training, st, 1)
        C = [effective_coefficients(r["W_QK"], r["W_V"])[:, :, 0] for r in runs]
        rel = np.array([c[0, 1] / w.value - 1 for c in C])
        off = np.array([max(abs(c[0, 0]), abs(c[1, 1])) / abs(c[0, 1]) for c in C])
        e = Estimate.from_samples(rel)
        if w.se > 0:            # W* itself is estimated: subtract an independent zero-mean estimate of its relative error
            b = np.asarray(w.extra["batch_ratios"])
            e = Estimate.difference(e, Estimate(0.0, b.std(ddof=1) / math.sqrt(b.size) / w.value, w.n_systems,
                                                b.size - 1))
        scope = f"{prior_scope(st)}, T = {T}, {len(runs)} training seeds"
        chosen = recipe_chosen(cfg, st, 1, len(runs))
        yield rules.equivalence(f"({st}) trained C₁₂ = W* within ±{MARGIN:.0%} (relative error)", e, 0.0, margin=MARGIN,
                                scope=scope, chosen=chosen,
                                details={"W_star": w.value, "W_star_method": w.method, "rel_err_per_seed": rel})
        yield rules.superiority(f"({st}) off-structure |C₁₁|, |C₂₂| < {OFF_MAX:.0%} of |C₁₂|",
                                Estimate.from_samples(OFF_MAX - off), scope=scope, chosen=chosen,
                                details={"offstructure_per_seed": off})


# ============================================================================ line 98
@claims.claim("001-symmetry-needed", lines=(98, 98), conventions=["C1", "C9"],
              revision={"previous": "confirmed", "why": "the Rao-Blackwell z > 5 threshold is replaced by the exact "
                                                        "prior average under the one-sided control prior (inequality)."},
              fragment=r"把 \(A\) 分布的对称性这个看似纯技术的假设，转化成最优性条件里可利用的稀疏零模式")
def symmetry_needed(ctx):
    """The banded zero pattern comes from the central symmetry of A's law: without it the predicted zeros of the
    stationarity right-hand side are not zero."""
    NONZERO_MIN = 1e-6   # clearly non-zero: 10⁶ × floating-point rounding, relative to the largest entry
    T = config(ctx)["symmetry_T"]
    ctrl = OneSidedDiagonalLDSPrior(**PRIOR_DEFAULTS)
    yield Note("Control prior (not a setting of the paper): setting (a) with eigenvalues a_k ~ U[0, 0.95], so A and −A "
               "are not equally likely; R is its exact prior average (independent components, Gauss–Legendre).")
    for s in (2, 3, 4):
        R = stationarity_moments(T, s, ctrl)["R"]
        z = parity_zero_pattern(s)
        yield rules.inequality(f"s = {s}: without central symmetry, |R| on the predicted zeros > {NONZERO_MIN:g}·max|R|",
                               np.abs(R[z]) / np.max(np.abs(R)), ">", NONZERO_MIN,
                               scope=f"one-sided control prior (eigenvalues U[0, {PRIOR_DEFAULTS['a_max']}]), d = "
                                     f"{PRIOR_DEFAULTS['d']}, T = {T}, exact prior average")


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
            "n_baselines": len(sub)}


@claims.claim("001-window-stronger", lines=(100, 100), needs=("kf_test",), conventions=["C2", "C4", "C8"],
              fragment="窗口越大，注意力实现的隐式优化越强（GD→PCG→Krylov）",
              revision={"previous": "underspecified", "previous_id": "001-kf-one-layer",
                        "why": "split from 001-kf-one-layer: the monotone-in-s statement is decided by the shape rule on "
                               "the paired test errors, with the training recipe in chosen."})
def window_stronger(ctx, kf_test):
    """A larger window gives a stronger implicit algorithm (GD → PCG → Krylov): the trained attention's prediction
    error decreases with the window s."""
    cfg = config(ctx)
    err = kf_test["err"]
    ss = sorted(err)
    diff_ses = [Estimate.from_samples(err[b] - err[a]).se for a, b in zip(ss, ss[1:])]
    yield rules.shape("(a) test MSE of trained attention decreases with the window s", ss, [err[s].mean() for s in ss],
                      shape="decreasing", diff_ses=diff_ses,
                      scope=f"{prior_scope('a')}, T = {cfg['train_T']}, s = {ss[0]}..{ss[-1]}, {cfg['kf_test_n']} common "
                            "test prompts, errors averaged over training seeds",
                      chosen={**recipe_chosen(cfg, "a", 2), "AR(1) lr": 0.003})


@claims.claim("001-kf-one-layer", lines=(100, 100), needs=("kf_test",), conventions=["C2", "C4", "C8"],
              fragment="为「单层注意力为何能逼平 KF」给出了算法层面的解释",
              revision={"previous": "underspecified",
                        "why": "the measured excess over the Kalman filter is evidence: decided by a superiority rule "
                               "with a declared 5 % margin and the priors and training recipe in chosen, instead of a "
                               "rule that could only return confirmed or underspecified."})
def kf_one_layer(ctx, kf_test):
    """Single-layer linear attention can match the Kalman filter: the trained attention with the largest window has
    an MSE within 5 % of the Kalman filter's."""
    MARGIN = 0.05        # "matches": excess MSE over the Kalman filter below 5 % (the seed gives no criterion)
    cfg = config(ctx)
    T = cfg["train_T"]
    err, kf = kf_test["err"], kf_test["kf"]
    s_max = max(err)
    yield rules.superiority(f"(a) AR({s_max}) attention MSE < (1 + {MARGIN:.0%}) × Kalman MSE",
                            Estimate.from_samples((1 + MARGIN) * kf - err[s_max]),
                            scope=f"{prior_scope('a')}, T = {T}, {cfg['kf_test_n']} test prompts with their systems' "
                                  "exact Kalman MSE (paired)",
                            chosen={**recipe_chosen(cfg, "a", s_max), "prior": prior_scope("a"),
                                    "window": f"largest trained, s = {s_max}"},
                            details={"attention_mse": {s: float(e.mean()) for s, e in err.items()},
                                     "kalman_mse": float(kf.mean()),
                                     "excess_ratio": float(err[s_max].mean() / kf.mean() - 1)})
    ctx.save_figure(_kf_figure(kf_test), "lds_kf_baseline",
                    f"One-step MSE (not halved) in setting (a), d = {PRIOR_DEFAULTS['d']}, T = {T}: Kalman filter "
                    f"(known system) and trained one-layer attention (mean over seeds) on {kf_test['n']} test prompts; "
                    f"oracle AR(s) (known system) and in-context AR(s) least squares on {kf_test['n_baselines']} of "
                    "them; against the window s.")


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
@claims.claim("001-ar2-constrained-optimum", lines=(104, 104), needs=("ar2_moments",), conventions=["C3", "C4"],
              fragment=r"AR(s)（\(s\ge2\)）只有结构刻画 + 经验解释，没有闭式最优解")
def ar2_constrained_optimum(ctx, ar2_moments):
    """For s ≥ 2 there is no closed-form optimum like Theorem 4.1: already for s = 2 the unconstrained optimum over the
    effective coefficients (a linear solve) is not realisable by one attention layer, so the optimum solves a
    genuinely bilinear-constrained problem."""
    m = ar2_moments
    F, Gm, b = m["features"], m["gram"], m["b"]
    c = np.linalg.solve(Gm, b)
    L_star = 0.5 * (m["Eyy"] - c @ b)
    inertia = coefficient_inertia(c, F, 2)
    worst = max(max(v["n_pos"], v["n_neg"]) for v in inertia.values())
    yield Note("Realisable coefficients have S_j = (v wᵀ + w vᵀ)/2 for each query index j (C3), with at most one "
               "positive and one negative eigenvalue; S_kk = C_kkj, S_kl = C_klj/2.")
    yield rules.inequality("s = 2: some S_j of the unconstrained optimum has ≥ 2 eigenvalues of one sign (not "
                           "realisable)", worst, ">=", 2, scope=f"{prior_scope('a')}, T = {m['T']}, exact moments",
                           details={"inertia": {j: (v["n_pos"], v["n_neg"]) for j, v in inertia.items()},
                                    "halved_loss_unconstrained": L_star})
    rng = rng_for(ctx, "ar2-bound")
    excess = []
    for _ in range(20):
        W, V = rng.standard_normal((2, 3, 3)) * 0.3
        excess.append(max(0.0, L_star - exact_halved_loss(W, V, m)))
    yield selfcheck.identity("realisable weights never beat the unconstrained optimum", np.array(excess),
                             np.zeros(len(excess)), atol=1e-12 * abs(L_star))


# ============================================================================ lines 110–113
@claims.claim("001-ratings", lines=(110, 113), conventions=[])
def ratings(ctx):
    """Star ratings for novelty, experiments, writing and value."""
    yield rules.underspecified("star ratings", ["a measurable statement (opinions of the summary's author)"],
                               scope="not attempted")
