r"""Claims of paper 001 from the background to the AR(s) reduction (seed lines 21–50), in seed order: the Kalman
filter's optimality, the core idea (line 27), the exponential decay of the AR(s) bias (line 46), the convex
least-squares loss and the approach to the Kalman filter (line 50). Registered through :mod:`.claims` (before
:mod:`.claims_lemma41`).

Every claim declares its title, weight and clauses before the data; every rule lists the Params it uses
(:mod:`.settings`: stated, convention or chosen), so a failure that rests on a chosen value is *not reproduced*.
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from ...claims import Clause
from ...models.attention import attention_predict, effective_coefficients
from ...models.filters import kalman_one_step_mse, oracle_ar_mse
from ...verdicts import Estimate, rules, selfcheck
from ...verdicts.rules.trivial import against_trivial
from ..api import Derivation, Note
from .derivations import lds_identities as dli
from .generated import lds_identities as gi
from .registry import claims
from .settings import (NEGLIGIBLE, PCG_READING, SETTINGS, T_STATED, config, corner_priors, prior, prior_params,
                       prior_scope, rng_for)
from .theory.kalman import trivial_predictor_mse, truncated_kalman_mse, truncation_profile
from .theory.gd import ar_gd_step_prediction, feature_vector
from .theory.stationarity import stationarity_moments, stationarity_rhs
from .theory.support import decay_exponents, parity_zero_pattern, structured_weights
from .theory.symbolic import sym_ar_loss, sym_observations
from .theory.optimum import loss_and_gradient, weights_of

__all__ = ["kf_optimal", "core_idea_proved", "ar_approximation_exponential", "ar_loss_convex", "ar_approaches_kf",
           "lemma41_parity", "lemma41_structured_class", "lemma41_reduces_search", "gpt2_matches_kf"]

#: a contender "beats" a trivial predictor when its MSE is lower by more than 5 % of the trivial predictor's MSE
TRIVIAL_MARGIN = 0.05


# ============================================================================ line 21
def gpt2_matches_kf(ctx):
    """Not a claim since the re-audit of issue 21: seed line 21's account of Du et al.'s experiment (GPT-2 matches the
    Kalman filter) is declared background of other work (:mod:`.seedmap`). Kept importable (public API); yields what
    the former claim 001-gpt2-matches-kf yielded."""
    yield rules.underspecified("GPT-2 matches the Kalman filter on LDS data (Du et al.)",
                               ["GPT-2 training and evaluation setup of Du et al. (another paper's experiment)"],
                               scope="not attempted")


@claims.claim("001-kf-optimal", lines=(21, 21), fragment="这个已知系统参数下可证最优的预测器",
              conventions=["C1", "C2", "C4"], weight="supporting",
              title="With known system parameters the Kalman filter is the optimal one-step predictor",
              clauses=[Clause("c1", "这个已知系统参数下", "condition"), Clause("c2", "可证最优的预测器")],
              revision={"previous": "confirmed",
                        "why": "re-audited (issue 21): the identity is searched over the 16 corners of the admissible "
                               "prior box (a_max up to 1, noise scales over two decades), and 'optimal' is compared "
                               "with the trivial predictors (zero, the last value, the oracle AR(1)) by a declared "
                               "5 % margin; verdict unchanged."})
def kf_optimal(ctx):
    """With known system parameters the Kalman filter is the optimal predictor: its one-step MSE equals the
    conditional variance Var(y_T | y_1..y_{T−1}) (the minimum over all predictors for Gaussian data) for every system,
    and it beats predicting zero, the last value and the oracle AR(1) predictor by more than 5 % of their MSE."""
    RTOL = 1e-9        # Riccati recursion vs Schur complement: floating-point agreement only
    cfg = config(ctx)
    T, n = cfg["T"], 200
    yield Note("Gaussian data: E[y_T | y_1..y_{T−1}] is the minimum-MSE predictor and is linear; its error variance "
               "is the Schur complement K_TT − kᵀK⁻¹k of the exact autocovariance. The Kalman MSE is the "
               "time-varying Riccati recursion from x₀ ~ N(0, σ₀²I). 'Optimal' is also compared with the trivial "
               f"predictors (exact per-system MSEs, paired over systems, margin {TRIVIAL_MARGIN:.0%} of the trivial "
               "predictor's MSE).")
    for st in SETTINGS:
        sysm = prior(st).sample(rng_for(ctx, f"kf-optimal-{st}"), n)
        kf = kalman_one_step_mse(sysm, T)
        trivial = trivial_predictor_mse(sysm, T)
        yield rules.identity(f"({st}) Kalman one-step MSE = Var(y_T | y_1..y_{{T−1}}) for every system", kf,
                             oracle_ar_mse(sysm, T, T - 1), rtol=RTOL, clauses=["c1", "c2"],
                             params=[T_STATED, *prior_params(st)],
                             scope=f"{prior_scope(st)}, T = {T}, {n} sampled systems (exact, per system)",
                             trivial=[against_trivial("Kalman filter", name, Estimate.from_samples(mse - kf),
                                                      reference=float(mse.mean()), relative_margin=TRIVIAL_MARGIN)
                                      for name, mse in trivial.items()])
    lhs, rhs, where = [], [], []
    for corner, pr in corner_priors("a"):
        sysm = pr.sample(rng_for(ctx, f"kf-optimal-corner-{sorted(corner.items())}"), cfg["corner_systems"])
        lhs.append(kalman_one_step_mse(sysm, T))
        rhs.append(oracle_ar_mse(sysm, T, T - 1))
        where.append(corner)
    yield rules.identity("(a) Kalman one-step MSE = Var(y_T | y_1..y_{T−1}) at the 16 corners of the admissible prior "
                         "box", np.concatenate(lhs), np.concatenate(rhs), rtol=RTOL, clauses=["c2"],
                         params=[T_STATED, *prior_params("a")],
                         scope=f"setting (a), T = {T}, {cfg['corner_systems']} systems at each corner of a_max ∈ "
                               "{0.5, 1}, σ₀ ∈ {0.1, 10}, σ_w ∈ {0.05, 5}, σ_v ∈ {0.01, 5} (exact, per system)",
                         details={"corners": where})


# ============================================================================ line 27
@claims.claim("001-core-idea-proved", lines=(27, 27), conventions=["C3", "C6", "C10"], weight="main",
              fragment="证明线性注意力的最优解就是在这个损失上跑优化步——AR(1) 时是一步梯度下降，AR(s) 时是 PCG 型 Krylov 子空间迭代",
              title="Core idea: the optimum provably runs GD (AR(1)) and PCG/Krylov steps (AR(s))",
              clauses=[Clause("c1", "证明线性注意力的最优解就是在这个损失上跑优化步"),
                       Clause("c2", "AR(1) 时是一步梯度下降"), Clause("c3", "AR(s) 时是 PCG 型 Krylov 子空间迭代")],
              needs=("exact_optima",))
def core_idea_proved(ctx, exact_optima):
    """The paper proves that the optimal linear attention runs optimisation steps on the AR(s) loss: one GD step for
    AR(1), a PCG-type Krylov iteration for AR(s). Tested: the AR(1) identity at the Theorem 4.1 weights; the AR(s)
    part at the exact AR(2) optimum (is its predictor the two-step PCG predictor?); and the source's own account of
    what is proved (lines 38, 104–105)."""
    RTOL = 1e-6           # an optimiser's end point: its coefficients are exact to ~1e-8 relative
    T = config(ctx)["T"]
    opt = exact_optima[1]
    best = min(opt["free"], key=lambda p: p["loss"])
    w = opt["C12_optimum"]
    _, Y = _prompts(ctx, "a", T, 500, "core-idea")
    yield rules.identity(f"AR(1): the output of the optimum found by the multi-start search = one GD step of size "
                         f"W* = {w:.6g} from 0", attention_predict(*weights_of(best["x"], 1), Y),
                         ar_gd_step_prediction(Y, 1, w), rtol=RTOL, clauses=["c1", "c2"],
                         params=[T_STATED, *prior_params("a")],
                         scope=f"{prior_scope('a')}, T = {T}, 500 prompts; the optimum to the optimiser's tolerance "
                               "(L-BFGS, gradient norm below 1e-8)")
    yield rules.consistency("the AR(s) optimisation step is proved (line 27: '证明…AR(s) 时是 PCG 型 Krylov 子空间迭代') — "
                            "the source elsewhere: 'matched by experiment' (line 38), 'only structure and empirical "
                            "explanation, no closed-form optimum' (line 104), 'spot-checked by cosines, not a rigorous "
                            "proof' (line 105)", 1.0, 0.0, atol=0.0, a_label="proved (line 27)",
                            b_label="not proved (lines 38, 104–105)", clauses=["c1", "c3"],
                            scope="the seed's own statements (1 = proved, 0 = not proved)")
    o2 = exact_optima[2]
    cos, rel = np.array(o2["pcg_cos"]), np.array(o2["pcg_relerr"])
    yield rules.identity("AR(2): the exact optimum's predictor = the two-step PCG predictor (z = P r, exact line search, "
                         "from 0) on every prompt", rel, np.zeros(rel.size), atol=1e-6, clauses=["c3"],
                         params=[T_STATED, *prior_params("a"), PCG_READING],
                         scope=f"{prior_scope('a')}, T = {T}, exact AR(2) optimum (multi-start), {rel.size} prompts; "
                               "relative distance |w_att − w_PCG|/|w_PCG| per prompt",
                         details={"mean_cosine": float(cos.mean()), "median_relative_distance": float(np.median(rel))})


def _prompts(ctx, st, T, n, name):
    g = rng_for(ctx, name)
    sysm = prior(st).sample(g, n)
    return sysm, sysm.simulate(T, g)


# ============================================================================ line 46
@claims.claim("001-ar-approximation-exponential", lines=(46, 46), needs=("bias_profiles",),
              conventions=["C1", "C2", "C4"], weight="main",
              fragment=r"在可观测、边缘稳定（\(\rho(A)\le1\)）等假设下，\(\rho(A-kc^\top)<1\) 使偏置项随窗口 \(s\) 指数衰减、可忽略，"
                       r"于是序列退化成一个 AR(s) 噪声线性回归",
              title="Under ρ(A − kcᵀ) < 1 the AR(s) truncation bias decays exponentially in s",
              clauses=[Clause("c1", r"在可观测、边缘稳定（\(\rho(A)\le1\)）等假设下", "condition"),
                       Clause("c2", r"\(\rho(A-kc^\top)<1\)", "condition"),
                       Clause("c3", r"使偏置项随窗口 \(s\) 指数衰减"), Clause("c4", "可忽略"),
                       Clause("c5", "于是序列退化成一个 AR(s) 噪声线性回归", "inference")],
              revision={"previous": "confirmed",
                        "why": "re-audited (issue 21): the decay is now measured on the bias term itself (the "
                               "steady-state Tsiamis–Pappas truncation cᵀA_clˢx̂, exact variance) and on the stationary "
                               "AR(s) gap, not on the finite-horizon gap at T = 30 (whose AR(T − 1) equals the Kalman "
                               "filter trivially); 'negligible' is tested at the largest window the paper trains (s = 4, "
                               "threshold 1 %); the stress path shows the stated condition ρ(A) ≤ 1 is not the operative "
                               "one (the decay holds beyond it: ρ(A − kcᵀ) < 1 controls it)."})
def ar_approximation_exponential(ctx, bias_profiles):
    """Under observability and marginal stability, ρ(A − kcᵀ) < 1 makes the bias of the AR(s) approximation decay
    exponentially in the window s (its variance like ρ(A − kcᵀ)^{2κs} with κ near 1) and negligible (below 1 % of the
    Kalman MSE at s = 4), so the sequence is an AR(s) noisy linear regression."""
    KAPPA_MIN = 0.75     # fitted exponent κ (bias ∝ ρ^{2κs}) must exceed this on average; a finite window of s
    #                      sees polynomial prefactors of near-degenerate closed-loop modes, which lower κ
    FLOOR = 1e-10        # values below 1e-10 · MSE_KF are rounding, not signal
    bp = bias_profiles
    for st in SETTINGS:
        d = bp[st]
        sv = d["s_values"]
        scope = f"{prior_scope(st)}, stationary law, {d['n']} sampled systems (exact per system)"
        params = [*prior_params(st)]
        yield rules.inequality(f"({st}) the stated conditions hold: ρ(A) ≤ 1 and ρ(A − kcᵀ) < 1 for every system",
                               np.maximum(d["rho_A"], d["rho_cl"]), "<", 1.0, clauses=["c1", "c2"], params=params,
                               scope=scope)
        for what, key in (("bias variance", "bias"), ("AR(s) excess MSE over the Kalman filter", "gaps")):
            kappa = decay_exponents(np.maximum(d[key], 0.0), sv, d["rho_cl"], d["mse_kf"], rel_floor=FLOOR)
            ok = kappa[np.isfinite(kappa)]
            yield rules.superiority(f"({st}) the {what} decays like ρ(A − kcᵀ)^(2κs) with mean κ > {KAPPA_MIN}",
                                    Estimate.from_samples(ok), margin=KAPPA_MIN, clauses=["c3"], params=params,
                                    scope=scope + f", κ fitted over s = {sv[0]}..{sv[-1]}",
                                    chosen={"fit window": f"s = {sv[0]}..{sv[-1]}, values above {FLOOR:g}·MSE_KF"},
                                    details={"kappa_mean": float(ok.mean()), "kappa_median": float(np.median(ok)),
                                             "systems_fitted": int(ok.size)})
        i4 = sv.index(4)
        yield rules.inequality(f"({st}) at s = 4 the bias variance is below {NEGLIGIBLE.value:.0%} of the Kalman MSE "
                               "(family average)", float(d["bias"][:, i4].mean() / d["mse_kf"].mean()), "<",
                               NEGLIGIBLE.value, clauses=["c4", "c5"], params=[*params, NEGLIGIBLE], scope=scope,
                               details={"relative_bias_by_s": (d["bias"].mean(0) / d["mse_kf"].mean()).tolist()})
    sysm = prior("a").sample(rng_for(ctx, "truncated-kalman-check"), 100)
    pr = truncation_profile(sysm, [4])
    yield selfcheck.identity("truncated steady-state Kalman MSE = Kalman MSE + bias variance (orthogonality), s = 4",
                             truncated_kalman_mse(sysm, 4), pr["mse_kf"] + pr["bias"][:, 0], rtol=1e-9)
    yield Note("The bias is the Tsiamis–Pappas truncation term cᵀA_clˢx̂ of the steady-state Kalman predictor "
               "(theory.kalman); its variance bounds the excess MSE of the best AR(s) predictor (both exact, stationary "
               "law). The condition 'observable, marginally stable' is not the operative one: along the stress path "
               "the decay holds for eigenvalues beyond 1 as well; the closed-loop radius ρ(A − kcᵀ) sets the rate.")


# ============================================================================ line 50
@claims.claim("001-ar-loss-convex", lines=(50, 50), fragment="凸的最小二乘问题", conventions=["C6"], weight="supporting",
              title="L_AR(s) is a convex least-squares problem (its Hessian is a Gram matrix)",
              clauses=[Clause("c1", "凸的最小二乘问题")],
              revision={"previous": "confirmed", "why": "re-audited (issue 21): title, weight and clause declared; the "
                                                        "Gram matrix is also checked positive semi-definite on prompts; "
                                                        "verdict unchanged."})
def ar_loss_convex(ctx):
    """L_AR(s) is a convex least-squares problem: its Hessian is the Gram matrix (1/n) Σ_t ȳ_t ȳ_tᵀ (PSD)."""
    for s, T in ((1, 5), (2, 6), (3, 7)):
        y = sym_observations(T)
        w = sp.symbols(f"w_1:{s + 1}", real=True)
        L = sym_ar_loss(y, s, w)
        n = T - s - 1
        H = sp.Matrix(s, s, lambda r, c: sp.expand(sp.diff(L, w[r], w[c])))
        gram = sum((sp.Matrix(y[t:t + s]) * sp.Matrix(y[t:t + s]).T for t in range(n)), sp.zeros(s, s)) / n
        yield rules.identity(f"∇²L_AR({s}) = (1/n) Σ ȳ_t ȳ_tᵀ", H, gram.applyfunc(sp.expand),
                             scope=f"exact (SymPy), s = {s}, T = {T}, symbolic y")


# ============================================================================ line 50
@claims.claim("001-ar-approaches-kf", lines=(50, 50), needs=("bias_profiles",), conventions=["C1", "C2", "C4"],
              weight="supporting",
              fragment=r"同时它给出了一个可证的精度承诺——Kozdoba 等人的结果表明，对任意有限 LDS 族存在窗口长度 \(s(\varepsilon)\) "
                       r"使 AR(s) 最优预测器的平均误差逼近最优 KF",
              title="For every finite LDS family a window s(ε) brings the best AR(s) within ε of the KF",
              clauses=[Clause("c1", "同时它给出了一个可证的精度承诺"), Clause("c2", "Kozdoba 等人的结果表明", asserted=False),
                       Clause("c3", "对任意有限 LDS 族", "quantifier"),
                       Clause("c4", r"存在窗口长度 \(s(\varepsilon)\) 使 AR(s) 最优预测器的平均误差逼近最优 KF")],
              revision={"previous": "confirmed",
                        "why": "re-audited (issue 21): decided in the stationary law (the statement's s(ε) does not "
                               "depend on a horizon; at a finite T the AR(T − 1) predictor equals the Kalman filter "
                               "trivially), and the quantifier 'any finite family' is tested through the guarantee "
                               "behind it — excess MSE ≤ bias variance, which decays for every system with "
                               "ρ(A − kcᵀ) < 1 — on the sampled families and at the 16 corners of the admissible prior "
                               "box."})
def ar_approaches_kf(ctx, bias_profiles):
    """For a finite family of LDS there is a window s(ε) such that the best AR(s) predictor's average error is within
    ε (relative) of the optimal Kalman filter (Kozdoba et al.): the guarantee is the bound excess MSE ≤ truncation
    bias variance, which vanishes geometrically whenever ρ(A − kcᵀ) < 1."""
    EPSILONS = (1e-1, 1e-2, 1e-3)     # declared tolerances; s is searched in 1..bias_s_max
    bp = bias_profiles
    for st in SETTINGS:
        d = bp[st]
        sv = np.array(d["s_values"])
        rel = d["gaps"].mean(0) / d["mse_kf"].mean()
        scope = f"finite family: {d['n']} systems of {prior_scope(st)}, stationary law (exact per system)"
        for eps in EPSILONS:
            hit = np.nonzero(rel < eps)[0]
            yield rules.inequality(f"({st}) min over s ≤ {sv[-1]} of the family-average relative excess MSE < {eps:g}",
                                   float(rel.min()), "<", eps, clauses=["c4"], params=prior_params(st), scope=scope,
                                   details={"s_eps": int(sv[hit[0]]) if hit.size else None, "relative_gap": rel})
        yield rules.inequality(f"({st}) the guarantee: excess MSE of the best AR(s) ≤ truncation bias variance, every "
                               "system and window", d["gaps"] - d["bias"], "<=", 1e-12 * float(d["mse_kf"].max()),
                               clauses=["c1", "c3"], params=prior_params(st), scope=scope)
    yield from _corner_guarantee(ctx)


def _corner_guarantee(ctx):
    """The bound and ρ(A − kcᵀ) < 1 at the 16 corners of the admissible prior box (setting a)."""
    cfg = config(ctx)
    sv = list(range(1, cfg["bias_s_max"] + 1))
    slack, rho, where = [], [], []
    for corner, pr in corner_priors("a"):
        if corner["a_max"] >= 1.0:          # the stationary law needs ρ(A) < 1: the corner a_max = 1 is its limit
            pr = type(pr)(pr.d, 1.0 - 1e-3, pr.sigma0, pr.sigma_w, pr.sigma_v)
        sysm = pr.sample(rng_for(ctx, f"guarantee-corner-{sorted(corner.items())}"), cfg["corner_systems"])
        p = truncation_profile(sysm, sv)
        slack.append((p["gaps"] - p["bias"]).ravel() / p["mse_kf"].max())
        rho.append(p["rho_cl"])
        where.append(corner)
    scope = (f"setting (a), {cfg['corner_systems']} systems at each corner of a_max ∈ {{0.5, 0.999}}, σ₀ ∈ {{0.1, 10}}, "
             f"σ_w ∈ {{0.05, 5}}, σ_v ∈ {{0.01, 5}}, s = 1..{sv[-1]}, stationary law")
    yield rules.inequality("ρ(A − kcᵀ) < 1 for every system at the corners of the admissible prior box",
                           np.concatenate(rho), "<", 1.0, clauses=["c3"], params=prior_params("a"), scope=scope,
                           details={"corners": where})
    yield rules.inequality("excess MSE ≤ bias variance (relative to the largest Kalman MSE) at the corners",
                           np.concatenate(slack), "<=", 1e-12, clauses=["c1", "c3"], params=prior_params("a"),
                           scope=scope)


# ============================================================================ line 54 (Lemma 4.1)
@claims.claim("001-lemma41-parity", lines=(54, 54), conventions=["C1", "C2", "C3", "C9"], weight="main",
              fragment=r"作者把损失重写成只含两个有效参数块 \(b\)（来自 \(W_V\)）和 \(z_1,\dots,z_s\)（来自 \(W_{QK}\)）的形式，"
                       r"并发现驻点条件（公式 12）的右端因为 \(A\) 分布的中心对称性而呈现一种带状（banded）结构：随 \(s+j\) "
                       r"的奇偶性在两种棋盘式零模式 \(B_0(s,j)\)、\(B_1(s,j)\) 之间交替——即在 \(r+l\) 为偶（或奇）的位置被强制为零",
              title="Lemma 4.1: central symmetry forces checkerboard zeros, alternating with s + j",
              clauses=[Clause("c0", r"作者把损失重写成只含两个有效参数块 \(b\)（来自 \(W_V\)）和 \(z_1,\dots,z_s\)（来自 \(W_{QK}\)）的形式"),
                       Clause("c1", r"并发现驻点条件（公式 12）的右端因为 \(A\) 分布的中心对称性而呈现一种带状（banded）结构",
                              "inference"),
                       Clause("c2", r"随 \(s+j\) 的奇偶性在两种棋盘式零模式 \(B_0(s,j)\)、\(B_1(s,j)\) 之间交替"),
                       Clause("c3", r"即在 \(r+l\) 为偶（或奇）的位置被强制为零")],
              revision={"previous": "confirmed",
                        "why": "re-audited (issue 21): the quote now starts with the reduction to the two blocks b (W_V) "
                               "and z_1..z_s (W_QK), tested by perturbing every other weight; clauses declared; verdict "
                               "unchanged."})
def lemma41_parity(ctx):
    """The loss depends on the weights only through the last row of W_V (b) and the first s columns of W_QK
    (z_1..z_s); by the central symmetry of A's law, the right-hand side R_klj = E[G_kl q_j y_T] of the stationarity
    condition vanishes on a checkerboard in (k, l) that alternates with the parity of s + j: zeros at k + l even (B₀)
    when s + j is even and at k + l odd (B₁) when s + j is odd — and only there."""
    cfg = config(ctx)
    T = cfg["T"]
    ZERO_RTOL = 1e-12       # "zero" = below floating-point rounding relative to the largest entry
    NONZERO_MIN = 1e-6      # off the pattern every entry must be clearly non-zero (10⁶ × rounding)
    rng = rng_for(ctx, "two-blocks")
    for s in cfg["parity_s"]:
        _, Y = _prompts(ctx, "b", 12, 200, f"two-blocks-{s}")
        W, V = rng.standard_normal((2, s + 1, s + 1))
        W2, V2 = W.copy(), V.copy()
        W2[:, s], V2[:s] = rng.standard_normal(s + 1), rng.standard_normal((s, s + 1))
        yield rules.identity(f"s = {s}: the prediction is unchanged when every weight outside b and z_1..z_s changes",
                             attention_predict(W2, V2, Y), attention_predict(W, V, Y), rtol=1e-12, clauses=["c0"],
                             scope=f"s = {s}, random weights, 200 prompts of {prior_scope('b')}, T = 12")
    for s in cfg["parity_s"]:
        derived = np.zeros((s, s + 1, s + 1), bool)
        for (k, l, j) in dli.parity_pattern(s, s + 5):              # SymPy, y_t -> (-1)^t y_t
            derived[j - 1, k - 1, l - 1] = True
        k = np.arange(1, s + 2)
        checker = np.array([((k[:, None] + k[None, :]) % 2 == 0) == ((s + j) % 2 == 0) for j in range(1, s + 1)])
        yield rules.identity(f"s = {s}: derived zero set = B₀ (k+l even) for s+j even, B₁ (k+l odd) for s+j odd",
                             derived.astype(float), checker.astype(float), clauses=["c2", "c3"],
                             scope=f"exact (SymPy substitution on symbolic y_1..y_{s + 5}), s = {s}")
    yield Derivation(gi.LATEX["parity"])
    yield from _parity_numeric(ctx, T, ZERO_RTOL, NONZERO_MIN)


def _parity_numeric(ctx, T, ZERO_RTOL, NONZERO_MIN):
    cfg = config(ctx)
    for st in SETTINGS:
        sysm = prior(st).sample(rng_for(ctx, f"parity-{st}"), cfg["parity_systems"])
        Kp, Km = sysm.autocovariance(T), sysm.negate().autocovariance(T)
        odd, scale = [], []
        for s in (2, 3, 4):
            z = parity_zero_pattern(s)
            Rp, Rm = stationarity_rhs(Kp, s), stationarity_rhs(Km, s)
            odd.append(np.max(np.abs(Rp + Rm)[:, z]))
            scale.append(np.max(np.abs(Rp)))
        yield rules.identity(f"({st}) R(A) + R(−A) = 0 on the predicted zeros, every system, s = 2..4",
                             np.array(odd) / np.array(scale), np.zeros(3), atol=ZERO_RTOL, clauses=["c1"],
                             params=prior_params(st),
                             scope=f"{prior_scope(st)}, T = {T}, {cfg['parity_systems']} systems (exact Isserlis)")
    for s in (2, 3, 4):
        R = stationarity_moments(T, s, prior("a"))["R"]
        z = parity_zero_pattern(s)
        scale = np.max(np.abs(R))
        scope = f"{prior_scope('a')}, T = {T}, exact prior average, s = {s}"
        yield rules.identity(f"s = {s}: prior-averaged R = 0 on the predicted zeros", np.abs(R[z]) / scale,
                             np.zeros(int(z.sum())), atol=ZERO_RTOL, clauses=["c1", "c3"], params=prior_params("a"),
                             scope=scope)
        yield rules.inequality(f"s = {s}: prior-averaged R ≠ 0 off the predicted zeros (|R|/max|R| > {NONZERO_MIN:g})",
                               np.abs(R[~z]) / scale, ">", NONZERO_MIN, clauses=["c3"], params=prior_params("a"),
                               scope=scope)


@claims.claim("001-lemma41-structured-class", lines=(54, 54), needs=("exact_optima",), conventions=["C3", "C9"],
              weight="main",
              fragment=r"Lemma 4.1 据此构造出一类满足该零模式的参数（\(W_{QK}\)、\(W_V\) 取特定 Kronecker 张量结构），"
                       r"证明这类参数能让方程左端复现右端的稀疏零结构",
              title="Lemma 4.1: structured weights reproduce the zero pattern on the left-hand side",
              clauses=[Clause("c1", "Lemma 4.1 据此构造出一类满足该零模式的参数"),
                       Clause("c2", r"（\(W_{QK}\)、\(W_V\) 取特定 Kronecker 张量结构）", "condition", asserted=False),
                       Clause("c3", "证明这类参数能让方程左端复现右端的稀疏零结构")],
              revision={"previous": "confirmed",
                        "why": "re-audited (issue 21): besides five random structured weights at s = 2, the left-hand "
                               "side's zeros are shown for every structured weight at s = 2 and 3 (the exact Gram "
                               "matrix has no entry between a forced-zero feature and a support feature); clauses "
                               "declared (the Kronecker structure is the construction's description: the seed gives no "
                               "formula to test); verdict unchanged."})
def lemma41_structured_class(ctx, exact_optima):
    """Weights on the Lemma 4.1 support (either parity branch) have effective coefficients 0 on the parity-forced
    zeros, and make the left-hand side of the stationarity condition, E[G_kl q_j ŷ_T], vanish there: for random
    structured weights, and for all of them because the exact Gram matrix of the features has no entry between a
    forced-zero feature and a support feature."""
    ZERO_RTOL = 1e-12
    rng = rng_for(ctx, "structured-class")
    for s in (2, 3, 4):
        z = parity_zero_pattern(s)
        worst = 0.0
        for k0 in (0, 1):
            for _ in range(5):
                W, V = structured_weights(rng, s, k0)
                C = np.transpose(effective_coefficients(W, V), (2, 0, 1))      # [j, k, l]
                worst = max(worst, float(np.max(np.abs(C[z]))))
        yield rules.identity(f"s = {s}: structured weights have effective coefficients 0 on the forced zeros",
                             worst, 0.0, atol=0.0, clauses=["c1"],
                             scope=f"s = {s}, both parity branches, 10 random structured weights")
    T = config(ctx)["T"]
    for s in (2, 3):
        m = exact_optima[s]["moments"]
        F = m["features"]
        zf = np.array([bool(parity_zero_pattern(s)[j - 1, k - 1, l - 1]) for (k, l, j) in F])
        scope = f"{prior_scope('a')}, T = {T}, exact prior average, s = {s}"
        cross = np.abs(np.asarray(m["gram"])[np.ix_(zf, ~zf)]) / np.max(np.abs(m["gram"]))
        yield rules.identity(f"s = {s}: E[f_zero f_support] = 0 (exact Gram matrix), so E[G_kl q_j ŷ_T] = 0 on the "
                             "forced zeros for every structured weight", cross.ravel(), np.zeros(cross.size),
                             atol=ZERO_RTOL, clauses=["c3"], params=prior_params("a"), scope=scope)
        lhs = []
        for k0 in (0, 1):
            for _ in range(5):
                c = feature_vector(effective_coefficients(*structured_weights(rng, s, k0)), F)
                g = np.asarray(m["gram"]) @ c
                lhs.append(np.abs(g)[zf] / np.max(np.abs(g)))
        yield rules.identity(f"s = {s}: E[G_kl q_j ŷ_T] = 0 on the forced zeros for 10 random structured weights",
                             np.concatenate(lhs), np.zeros(sum(x.size for x in lhs)), atol=ZERO_RTOL, clauses=["c3"],
                             params=prior_params("a"), scope=scope)


@claims.claim("001-lemma41-reduces-search", lines=(54, 54), needs=("exact_optima",), conventions=["C3", "C4", "C9"],
              weight="main", fragment="其意义是：它把「在整个权重空间里找最优解」缩小成「在这个结构化小类里找」",
              title="Lemma 4.1 reduces the search for the optimum to the structured class",
              clauses=[Clause("c1", "其意义是：它把「在整个权重空间里找最优解」缩小成「在这个结构化小类里找」")],
              revision={"previous": "none (new claim of the re-audit)",
                        "why": "rule corrected after the seed-stability run (seeds 1–5, quick sizes): the class's "
                               "optimum was taken from the class-restricted search only and the overall optimum from "
                               "the free search only, so a free search that missed the optimum (seed 3, s = 3) or a "
                               "class search that missed it (seed 4, s = 2) read as a failure. The class lies inside "
                               "the weight space: both are now the best of every end point that lies in the set "
                               "(either search); a refutation still needs an off-class end point below every class "
                               "point found."})
def lemma41_reduces_search(ctx, exact_optima):
    """The optimum over the whole weight space lies in the structured class of Lemma 4.1: the lowest exact population
    loss found by a multi-start search over all loss-relevant weights equals the lowest found inside the class (either
    parity branch), and no point outside the class has a lower loss."""
    RTOL = 1e-9          # two minimisations of the same exact loss: agreement to the optimiser's tolerance
    OFF_CLASS = 1e-6     # off-pattern energy share above which an end point lies outside the structured class
    T = config(ctx)["T"]
    yield Note("Exact population loss of the effective coefficients (exact prior moments, setting (a)); L-BFGS from "
               "random starts over all loss-relevant weights (v, W_QK[:, :s]) and, separately, inside each parity "
               "branch of the Lemma 4.1 support; every end point certified by its gradient norm and the smallest "
               "Hessian eigenvalue (the direction of the scaling symmetry removed). A finite search cannot prove that "
               "no better point exists outside the class.")
    rng = rng_for(ctx, "reduces-search-gradient-check")
    for s, o in sorted(exact_optima.items()):
        x, h = rng.standard_normal((s + 1) ** 2), 1e-6
        fd = [(loss_and_gradient(x + h * e, s, o["moments"])[0] - loss_and_gradient(x - h * e, s, o["moments"])[0])
              / (2 * h) for e in np.eye(x.size)]
        yield selfcheck.identity(f"s = {s}: the gradient the search uses = central differences of the exact loss "
                                 "(random weights, step 1e-6)", loss_and_gradient(x, s, o["moments"])[1], np.array(fd),
                                 rtol=1e-6)      # truncation O(h²) and rounding O(ε/h): far below 1e-6 of max|∇L|
        # the class lies inside the weight space: every end point of either search is a point of the weight space, and
        # every end point on the pattern (from either search) a point of the class
        in_class = [p["loss"] for k0 in (0, 1) for p in o["branch"][k0]] + [
            p["loss"] for p in o["free"] if p["offpattern"] <= OFF_CLASS]
        best_class = min(in_class)
        best_free = min(min(p["loss"] for p in o["free"]), best_class)
        better = [p for p in o["free"] if p["offpattern"] > OFF_CLASS and
                  p["loss"] < best_class - RTOL * abs(best_class)]
        off = sorted({round(p["loss"], 9) for p in o["free"] if p["offpattern"] > OFF_CLASS and p["min_hessian"] > 0})
        scope = f"{prior_scope('a')}, T = {T}, s = {s}, {len(o['free'])} starts over all weights"
        yield rules.identity(f"s = {s}: lowest loss over all weights = lowest loss in the structured class", best_free,
                             best_class, rtol=RTOL, clauses=["c1"], params=[T_STATED, *prior_params("a")], scope=scope,
                             details={"off_class_local_minima": off, "unconstrained_C_optimum": o["unconstrained"]})
        yield rules.search(f"s = {s}: a point outside the class with a lower loss than the class's optimum",
                           found=len(better), tried=len(o["free"]), clauses=["c1"],
                           params=[T_STATED, *prior_params("a")], scope=scope)
