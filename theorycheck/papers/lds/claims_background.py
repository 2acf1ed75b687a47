r"""Claims of paper 001 from the background to Lemma 4.1 (seed lines 21–54), in seed order: the Kalman filter's
optimality, the AR(s) approximation of the Kalman filter (lines 46, 50) and the parity structure of the stationarity
condition (Lemma 4.1, line 54). Registered through :mod:`.claims` (before :mod:`.claims_theorem41`)."""
from __future__ import annotations

import numpy as np
import sympy as sp

from ...models.attention import effective_coefficients
from ...models.filters import kalman_one_step_mse, oracle_ar_mse
from ...verdicts import Estimate, rules
from ..api import Derivation, Note
from .derivations import lds_identities as dli
from .generated import lds_identities as gi
from .registry import claims
from .settings import SETTINGS, config, prior, prior_scope, rng_for
from .theory.gd import feature_vector
from .theory.stationarity import stationarity_moments, stationarity_rhs
from .theory.support import decay_exponents, parity_zero_pattern, predicted_support, structured_weights
from .theory.symbolic import sym_ar_loss, sym_observations

__all__ = ["gpt2_matches_kf", "kf_optimal", "ar_approximation_exponential", "ar_loss_convex", "ar_approaches_kf",
           "lemma41_parity", "lemma41_structured_class"]


# ============================================================================ line 21
@claims.claim("001-gpt2-matches-kf", lines=(21, 21), conventions=[],
              fragment="Du 等人发现 GPT-2 在预测 LDS 下一观测时，精度能和 Kalman 滤波（KF）")
def gpt2_matches_kf(ctx):
    """GPT-2 (Du et al.) predicts the next LDS observation as accurately as the Kalman filter."""
    yield rules.underspecified("GPT-2 matches the Kalman filter on LDS data (Du et al.)",
                               ["GPT-2 training and evaluation setup of Du et al. (another paper's experiment)"],
                               scope="not attempted")


@claims.claim("001-kf-optimal", lines=(21, 21), fragment="这个已知系统参数下可证最优的预测器",
              conventions=["C1", "C2", "C4"])
def kf_optimal(ctx):
    """With known system parameters the Kalman filter is the optimal predictor: its one-step MSE equals the
    conditional variance Var(y_T | y_1..y_{T−1}), the minimum over all predictors for Gaussian data."""
    RTOL = 1e-9        # Riccati recursion vs Schur complement: floating-point agreement only
    cfg = config(ctx)
    T, n = cfg["T"], 200
    yield Note("Gaussian data: E[y_T | y_1..y_{T−1}] is the minimum-MSE predictor and is linear; its error variance "
               "is the Schur complement K_TT − kᵀK⁻¹k of the exact autocovariance. The Kalman MSE is the "
               "time-varying Riccati recursion from x₀ ~ N(0, σ₀²I).")
    for st in SETTINGS:
        sysm = prior(st).sample(rng_for(ctx, f"kf-optimal-{st}"), n)
        kf = kalman_one_step_mse(sysm, T)
        cond_var = oracle_ar_mse(sysm, T, T - 1)
        yield rules.identity(f"({st}) Kalman one-step MSE = Var(y_T | y_1..y_{{T−1}}) for every system", kf, cond_var,
                             rtol=RTOL, scope=f"{prior_scope(st)}, T = {T}, {n} sampled systems (exact, per system)")


# ============================================================================ lines 46, 50
@claims.claim("001-ar-approximation-exponential", lines=(46, 46), needs=("gap_profiles",),
              revision={"previous": "confirmed",
                        "why": "quoted at line 46 (the explicit ρ(A − kcᵀ) < 1 statement) instead of line 35; the "
                               "ad-hoc log-rate correlation > 0.8 is replaced by an exact inequality (ρ < 1) and a "
                               "superiority test on the fitted decay exponent, the finite fit window in chosen."},
              fragment=r"\(\rho(A-kc^\top)<1\) 使偏置项随窗口 \(s\) 指数衰减、可忽略", conventions=["C1", "C2", "C4"])
def ar_approximation_exponential(ctx, gap_profiles):
    """Under ρ(A − kcᵀ) < 1 the bias of the AR(s) approximation decays exponentially in s: the excess MSE of the
    best AR(s) predictor over the Kalman filter decays like ρ(A − kcᵀ)^{2s} (or faster)."""
    KAPPA_MIN = 0.75     # fitted exponent κ (gap ∝ ρ^{2κs}) must exceed this on average; a finite window of s
    #                      sees polynomial prefactors of near-degenerate closed-loop modes, which lower κ
    FLOOR = 1e-10        # gaps below 1e-10 · MSE_KF are rounding, not signal
    gp = gap_profiles
    sv = gp["s_values"]
    for st in SETTINGS:
        d = gp[st]
        scope = f"{prior_scope(st)}, T = {gp['T']}, {gp['n_systems']} sampled systems"
        yield rules.inequality(f"({st}) ρ(A − Lcᵀ) < 1 for every system (steady-state Kalman gain L)", d["rho"], "<",
                               1.0, scope=scope + " (exact)")
        kappa = decay_exponents(d["gaps"], sv, d["rho"], d["kf"], rel_floor=FLOOR)
        ok = kappa[np.isfinite(kappa)]
        yield rules.superiority(
            f"({st}) the gap decays like ρ^(2κs) with mean κ > {KAPPA_MIN}", Estimate.from_samples(ok), margin=KAPPA_MIN,
            scope=scope + f", κ fitted over s = {sv[0]}..{sv[-1]}",
            chosen={"fit window": f"s = {sv[0]}..{sv[-1]}, gaps above {FLOOR:g}·MSE_KF, ≥ 4 points",
                    "horizon": f"T = {gp['T']} (the statement is asymptotic in s)"},
            details={"kappa_mean": float(ok.mean()), "kappa_median": float(np.median(ok)),
                     "systems_fitted": int(ok.size), "systems_too_fast_to_fit": int(np.sum(~np.isfinite(kappa)))})


@claims.claim("001-ar-loss-convex", lines=(50, 50), fragment="凸的最小二乘问题", conventions=["C6"])
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


@claims.claim("001-ar-approaches-kf", lines=(50, 50), needs=("gap_profiles",), conventions=["C1", "C2", "C4"],
              fragment=r"对任意有限 LDS 族存在窗口长度 \(s(\varepsilon)\) 使 AR(s) 最优预测器的平均误差逼近最优 KF")
def ar_approaches_kf(ctx, gap_profiles):
    """For a finite family of LDS there is a window s(ε) such that the best AR(s) predictor's average error is
    within ε (relative) of the optimal Kalman filter (Kozdoba et al.)."""
    EPSILONS = (1e-1, 1e-2, 1e-3)     # declared tolerances; s is searched in 1..gap_s_max < T − 1
    gp = gap_profiles
    sv = np.array(gp["s_values"])
    for st in SETTINGS:
        d = gp[st]
        rel = d["gaps"].mean(0) / d["kf"].mean()
        for eps in EPSILONS:
            hit = np.nonzero(rel < eps)[0]
            yield rules.inequality(
                f"({st}) min over s ≤ {sv[-1]} of the family-average relative gap < {eps:g}", float(rel.min()), "<", eps,
                scope=f"finite family: {gp['n_systems']} systems of {prior_scope(st)}, T = {gp['T']} (exact)",
                details={"s_eps": int(sv[hit[0]]) if hit.size else None, "relative_gap": rel})


# ============================================================================ line 54 (Lemma 4.1)
@claims.claim("001-lemma41-parity", lines=(54, 54), conventions=["C1", "C2", "C3", "C9"],
              fragment=r"驻点条件（公式 12）的右端因为 \(A\) 分布的中心对称性而呈现一种带状（banded）结构：随 \(s+j\) "
                       r"的奇偶性在两种棋盘式零模式 \(B_0(s,j)\)、\(B_1(s,j)\) 之间交替——即在 \(r+l\) 为偶（或奇）的位置被强制为零")
def lemma41_parity(ctx):
    """By the central symmetry of A's law, the right-hand side R_klj = E[G_kl q_j y_T] of the stationarity condition
    vanishes on a checkerboard in (k, l) that alternates with the parity of s + j: zeros at k + l even (B₀) when
    s + j is even and at k + l odd (B₁) when s + j is odd."""
    cfg = config(ctx)
    T = cfg["T"]
    ZERO_RTOL = 1e-12       # "zero" = below floating-point rounding relative to the largest entry
    NONZERO_MIN = 1e-6      # off the pattern every entry must be clearly non-zero (10⁶ × rounding)
    for s in cfg["parity_s"]:
        derived = np.zeros((s, s + 1, s + 1), bool)
        for (k, l, j) in dli.parity_pattern(s, s + 5):              # SymPy, y_t -> (-1)^t y_t
            derived[j - 1, k - 1, l - 1] = True
        k = np.arange(1, s + 2)
        checker = np.array([((k[:, None] + k[None, :]) % 2 == 0) == ((s + j) % 2 == 0) for j in range(1, s + 1)])
        yield rules.identity(f"s = {s}: derived zero set = B₀ (k+l even) for s+j even, B₁ (k+l odd) for s+j odd",
                             derived.astype(float), checker.astype(float),
                             scope=f"exact (SymPy substitution on symbolic y_1..y_{s + 5}), s = {s}")
    yield Derivation(gi.LATEX["parity"])
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
                             np.array(odd) / np.array(scale), np.zeros(3), atol=ZERO_RTOL,
                             scope=f"{prior_scope(st)}, T = {T}, {cfg['parity_systems']} systems (exact Isserlis)")
    for s in (2, 3, 4):
        R = stationarity_moments(T, s, prior("a"))["R"]
        z = parity_zero_pattern(s)
        scale = np.max(np.abs(R))
        scope = f"{prior_scope('a')}, T = {T}, exact prior average, s = {s}"
        yield rules.identity(f"s = {s}: prior-averaged R = 0 on the predicted zeros", np.abs(R[z]) / scale,
                             np.zeros(int(z.sum())), atol=ZERO_RTOL, scope=scope)
        yield rules.inequality(f"s = {s}: prior-averaged R ≠ 0 off the predicted zeros (|R|/max|R| > {NONZERO_MIN:g})",
                               np.abs(R[~z]) / scale, ">", NONZERO_MIN, scope=scope)


@claims.claim("001-lemma41-structured-class", lines=(54, 54), needs=("ar2_moments",), conventions=["C3", "C9"],
              fragment=r"Lemma 4.1 据此构造出一类满足该零模式的参数（\(W_{QK}\)、\(W_V\) 取特定 Kronecker 张量结构），"
                       r"证明这类参数能让方程左端复现右端的稀疏零结构")
def lemma41_structured_class(ctx, ar2_moments):
    """Weights on the Lemma 4.1 support make the left-hand side of the stationarity condition,
    E[G_kl q_j ŷ_T], vanish on the same parity-forced zeros as the right-hand side."""
    ZERO_RTOL = 1e-12
    rng = rng_for(ctx, "structured-class")
    for s in (2, 3, 4):
        z = parity_zero_pattern(s)
        worst = 0.0
        for k0 in (0, 1):
            sv, sw = predicted_support(s, k0)
            for _ in range(5):
                W = np.zeros((s + 1, s + 1))
                W[:, :s] = rng.standard_normal((s + 1, s)) * sw
                V = rng.standard_normal((s + 1, s + 1))
                V[s] = rng.standard_normal(s + 1) * sv
                C = np.transpose(effective_coefficients(W, V), (2, 0, 1))      # [j, k, l]
                worst = max(worst, float(np.max(np.abs(C[z]))))
        yield rules.identity(f"s = {s}: structured weights have effective coefficients 0 on the forced zeros",
                             worst, 0.0, atol=0.0, scope=f"s = {s}, both parity branches, 10 random structured weights")
    m = ar2_moments
    F = m["features"]
    zf = np.array([bool(parity_zero_pattern(2)[j - 1, k - 1, l - 1]) for (k, l, j) in F])
    lhs = []
    for _ in range(5):
        W, V = structured_weights(rng, 2)
        c = feature_vector(effective_coefficients(W, V), F)
        lhs.append(np.abs(m["gram"] @ c)[zf] / np.max(np.abs(m["gram"] @ c)))
    yield rules.identity("s = 2: E[G_kl q_j ŷ_T] = 0 on the forced zeros for structured weights", np.concatenate(lhs),
                         np.zeros(sum(x.size for x in lhs)), atol=ZERO_RTOL,
                         scope=f"{prior_scope('a')}, T = {m['T']}, exact prior average, 5 random structured weights")
