r"""Claims of paper 001 from the background to the AR(s) / PCG reading (seed lines 21–70), in seed order.

Each claim quotes its seed lines (and fragment), declares its rule's constants before computing,
computes its evidence with :mod:`theorycheck.lds` / :mod:`theorycheck.models` and the derivations
``theorycheck.derivations.lds_*``, and hands it to :mod:`theorycheck.verdicts.rules`. The
experimental claims (lines 74–113) are in :mod:`.experiments`; sizes and choices in
:mod:`.settings`; shared computations in :mod:`.fixtures`.
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from ... import gaussian, lds
from ...derivations import lds_identities as dli
from ...derivations import lds_isserlis as dlis
from ...generated import lds_identities as gi
from ...generated import lds_scalar as gs
from ...verdicts import Estimate, rules, selfcheck
from ..api import Derivation, Note
from . import fixtures  # noqa: F401  (registers the fixtures)
from .registry import claims
from .reconciliation import P_RESIDUAL_MARGIN
from .settings import SETTINGS, config, prior, prior_scope, recipe_chosen, test_set

CONVENTIONS = [
    ("C1", "System: x₀ ~ N(0, σ₀² I_d); for t = 1..T: x_t = A x_{t−1} + w_t, w_t ~ N(0, Σ_w); y_t = cᵀx_t + v_t, "
           "v_t ~ N(0, σ_v²); all noises independent."),
    ("C2", "Priors (the paper gives none; ours): d = 5, eigenvalues a_k i.i.d. U[−0.95, 0.95], σ₀ = 1, σ_w = 0.5, "
           "σ_v = 0.5, c = 1. (a) A = diag(a); (b) A = Qᵀdiag(a)Q, Q Haar; (c) diagonal A, Σ_w = diag of variances "
           "spread 16-fold around σ_w² (geometric); (d) A = P⁻¹diag(a)P, P = I + 0.5·U, U strictly upper triangular with "
           "i.i.d. U[−1, 1] entries (bounded transient growth; Gaussian entries make prior averages of 6th-order "
           "moments dominated by rare systems). All centrally symmetric (A and −A equally likely)."),
    ("C3", "Tokens (reconstructed): z_i = [y_i..y_{i+s−1}; y_{i+s}], i = 1..n, n = T−s−1, query [y_{T−s}..y_{T−1}; 0]; "
           "T_θ(Y₀) = Y₀ + (1/n) W_V Y₀ M (Y₀ᵀ W_QK Y₀), M masks the query column; prediction ŷ_T = entry (s+1, T−s). "
           "Only the last row v of W_V and the first s columns of W_QK affect ŷ_T, through the effective coefficients "
           "C_klj = v_k W_lj + v_l W_kj (k < l), C_kkj = v_k W_kj of the features G_kl q_j, G = (1/n) Σ_i z_i z_iᵀ."),
    ("C4", "Loss halved, L = ½E[(ŷ_T − y_T)²] over noise and system prior; MSEs in the Kalman comparisons are NOT "
           "halved."),
    ("C5", "W*_QK,11 = (T−2) E[y_{T−1} y_T S] / E[y_{T−1}² S²], S = Σ_{i=1}^{T−2} y_i y_{i+1}: a ratio of "
           "expectations over noise and prior."),
    ("C6", "L_AR(s)(w) = 1/(2(T−s−1)) Σ_{t=1}^{T−s−1} (y_{t+s} − wᵀȳ_t)², ȳ_t = [y_t..y_{t+s−1}] (seed line 48)."),
    ("C7", "Indices 1-based in the text (k, l over token rows, j over query entries), 0-based in arrays."),
    ("C8", "Training (ours where the seed is silent): Adam without weight decay or clipping, lr 0.003 (AR(1)) / "
           "0.01 (s ≥ 2), 5 % linear warm-up, cosine decay to 0, init N(0, 0.1²), fresh systems every step; sizes "
           "in the run parameters."),
    ("C9", "Stationarity right-hand side R_klj = E[G_kl q_j y_T], q_j = y_{T−s+j−1}; the parity-forced zeros are "
           "the (k, l, j) with k + l + j + s even (y_t → (−1)^t y_t flips their sign)."),
    ("C10", "Eq. 17 reconstruction (the seed does not define P, q, p, ξ): P = (W_QK[:s, :s])ᵀ, q = W_V[s, :s], "
            "p = W_QK[s, :s], ξ₁ = −W_V[s, s], ξ₂ = γ W_V[s, s] − ∇L(0)ᵀq (0-based rows); PCG on L_AR(s) from 0 "
            "with preconditioned residual z = P r, exact line search."),
]


def _rng(ctx, name):
    return np.random.default_rng(ctx.seed_for(name))


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
        sysm = prior(st).sample(_rng(ctx, f"kf-optimal-{st}"), n)
        kf = lds.kalman_one_step_mse(sysm, T)
        cond_var = lds.oracle_ar_mse(sysm, T, T - 1)
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
        kappa = lds.decay_exponents(d["gaps"], sv, d["rho"], d["kf"], rel_floor=FLOOR)
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
        y = lds.sym_observations(T)
        w = sp.symbols(f"w_1:{s + 1}", real=True)
        L = lds.sym_ar_loss(y, s, w)
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
        sysm = prior(st).sample(_rng(ctx, f"parity-{st}"), cfg["parity_systems"])
        Kp, Km = sysm.autocovariance(T), sysm.negate().autocovariance(T)
        odd, scale = [], []
        for s in (2, 3, 4):
            z = lds.parity_zero_pattern(s)
            Rp, Rm = lds.stationarity_rhs(Kp, s), lds.stationarity_rhs(Km, s)
            odd.append(np.max(np.abs(Rp + Rm)[:, z]))
            scale.append(np.max(np.abs(Rp)))
        yield rules.identity(f"({st}) R(A) + R(−A) = 0 on the predicted zeros, every system, s = 2..4",
                             np.array(odd) / np.array(scale), np.zeros(3), atol=ZERO_RTOL,
                             scope=f"{prior_scope(st)}, T = {T}, {cfg['parity_systems']} systems (exact Isserlis)")
    for s in (2, 3, 4):
        R = lds.stationarity_moments(T, s, prior("a"))["R"]
        z = lds.parity_zero_pattern(s)
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
    rng = _rng(ctx, "structured-class")
    for s in (2, 3, 4):
        z = lds.parity_zero_pattern(s)
        worst = 0.0
        for k0 in (0, 1):
            sv, sw = lds.predicted_support(s, k0)
            for _ in range(5):
                W = np.zeros((s + 1, s + 1))
                W[:, :s] = rng.standard_normal((s + 1, s)) * sw
                V = rng.standard_normal((s + 1, s + 1))
                V[s] = rng.standard_normal(s + 1) * sv
                C = np.transpose(lds.effective_coefficients(W, V), (2, 0, 1))      # [j, k, l]
                worst = max(worst, float(np.max(np.abs(C[z]))))
        yield rules.identity(f"s = {s}: structured weights have effective coefficients 0 on the forced zeros",
                             worst, 0.0, atol=0.0, scope=f"s = {s}, both parity branches, 10 random structured weights")
    m = ar2_moments
    F = m["features"]
    zf = np.array([bool(lds.parity_zero_pattern(2)[j - 1, k - 1, l - 1]) for (k, l, j) in F])
    sv, sw = lds.predicted_support(2)
    lhs = []
    for _ in range(5):
        W = np.zeros((3, 3))
        W[:, :2] = rng.standard_normal((3, 2)) * sw
        V = np.zeros((3, 3))
        V[2] = rng.standard_normal(3) * sv
        c = lds.feature_vector(lds.effective_coefficients(W, V), F)
        lhs.append(np.abs(m["gram"] @ c)[zf] / np.max(np.abs(m["gram"] @ c)))
    yield rules.identity("s = 2: E[G_kl q_j ŷ_T] = 0 on the forced zeros for structured weights", np.concatenate(lhs),
                         np.zeros(sum(x.size for x in lhs)), atol=ZERO_RTOL,
                         scope=f"{prior_scope('a')}, T = {m['T']}, exact prior average, 5 random structured weights")


# ============================================================================ lines 58, 60 (Theorem 4.1)
@claims.claim("001-isserlis-moments", lines=(58, 58), fragment="Isserlis 定理（把高斯数据的高阶矩拆成二阶矩乘积）",
              conventions=["C1", "C5"])
def isserlis_moments(ctx):
    """Isserlis' theorem reduces the 4th- and 6th-order moments of Theorem 4.1, N = E[y_{T−1} y_T S] and
    D = E[y_{T−1}² S²], to sums of products of autocovariances (3 and 15 pairings per term)."""
    cfg = config(ctx)
    RTOL = 1e-10      # float agreement of two exact evaluations
    m4, m6, n6, (_, _, _, _, Kf) = dlis.isserlis_expansions()
    yield rules.identity("E[y_a y_b y_i y_{i+1}] is a sum of 3 products of covariances",
                         sp.Integer(int(m4.replace(Kf, lambda *a: 1))), sp.Integer(3), scope="exact (SymPy)")
    yield rules.identity("E[y_a² y_i y_{i+1} y_j y_{j+1}] is a sum of 15 products of covariances", sp.Integer(n6),
                         sp.Integer(15), scope="exact (SymPy)")
    for n in (4, 5):
        (Np, Nt), (Dp, Dt) = dlis.trace_form_sides(n)
        scope = f"exact (SymPy, symbolic symmetric {n}×{n} K, T = {n})"
        yield rules.identity("N: Isserlis pairing sum = K_(T−1,T) tr(KM) + 2 u_(T−1)ᵀ M u_T", Np, Nt, scope=scope)
        yield rules.identity("D: Isserlis pairing sum = trace form in K (C5)", Dp, Dt, scope=scope)
    T = 8
    a = np.array([-0.95, -0.4, 0.15, 0.6, 0.95])
    pr1 = lds.DiagonalLDSPrior(1, 0.9, 1.0, 0.5, 0.5)
    K = lds.lds_autocovariance(lds._scalar_batch(pr1, a), T)
    N_e, D_e = lds.wqk_star_moments(K)
    N_b = [sum(gaussian.moment(Kb, (T - 2, T - 1, i, i + 1)) for i in range(T - 2)) for Kb in K]
    D_b = [sum(gaussian.moment(Kb, (T - 2, T - 2, i, i + 1, j, j + 1)) for i in range(T - 2) for j in range(T - 2))
           for Kb in K]
    yield rules.identity("explicit pairing sums = trace forms on LDS autocovariances (N and D)",
                         np.concatenate([N_e, D_e]), np.concatenate([N_b, D_b]), rtol=RTOL,
                         scope=f"d = 1, T = {T}, a ∈ {a.tolist()}, σ₀ = 1, σ_w = σ_v = 0.5")
    Np, Dp = lds._poly_eval_moments(gs.POLY[30], a, 1.0, 0.5, 0.5)
    N30, D30 = lds.wqk_star_moments(lds.lds_autocovariance(lds._scalar_batch(pr1, a), 30))
    yield selfcheck.identity("generated d = 1 polynomials (T = 30) = engine", np.concatenate([Np, Dp]),
                             np.concatenate([N30, D30]), rtol=RTOL)
    # the actual model: trajectories of one system, products summed here (batch means, Student t)
    one = lds._scalar_batch(pr1, np.array([0.8]))
    Nx, Dx = lds.wqk_star_moments(lds.lds_autocovariance(one, T))
    B, m = cfg["isserlis_mc_batches"], cfg["isserlis_mc_batch"]
    bn, bd = [], []
    for g in np.random.SeedSequence(ctx.seed_for("isserlis-mc")).spawn(B):
        rg = np.random.default_rng(g)
        Y = lds.LDSBatch(np.repeat(one.A, m, 0), np.repeat(one.c, m, 0), np.repeat(one.Sigma_w, m, 0),
                         1.0, 0.5).simulate(T, rg)
        S = np.sum(Y[:, :-2] * Y[:, 1:-1], axis=1)
        bn.append(np.mean(Y[:, -2] * Y[:, -1] * S))
        bd.append(np.mean(Y[:, -2] ** 2 * S ** 2))
    yield selfcheck.agreement("N (Isserlis) vs trajectory Monte Carlo, a = 0.8, T = 8",
                              Estimate.from_batches(bn, m), float(Nx[0]))
    yield selfcheck.agreement("D (Isserlis) vs trajectory Monte Carlo, a = 0.8, T = 8",
                              Estimate.from_batches(bd, m), float(Dx[0]))
    for key in ("isserlis_4", "isserlis_6", "N_trace", "D_trace"):
        yield Derivation(gs.LATEX[key])


@claims.claim("001-thm41-global-optimum", lines=(58, 58), conventions=["C2", "C3", "C4", "C5"],
              revision={"previous": "confirmed",
                        "why": "setting (b) is now decided with exact prior averages (its exchangeable-component form: "
                               "Haar Q makes Qc uniform on the sphere) instead of a finite antithetic family of sampled "
                               "systems; (d) keeps the antithetic family."},
              fragment=r"给出单层线性自注意力关于损失 \(L(\theta)\) 的全局最优权重闭式解（公式 15，差一个非零常数缩放）")
def thm41_global_optimum(ctx):
    """For AR(1) the global optimum of the in-context loss over all W_QK, W_V is, up to a non-zero scaling,
    W*_QK = diag(w*, 0), W*_V = e₂e₂ᵀ with w* = (T−2)E[y_{T−1}y_T S]/E[y_{T−1}²S²]."""
    cfg = config(ctx)
    T = cfg["T"]
    RTOL = 1e-10        # floating-point agreement of exact quantities (normal equations, formula)
    yield Note("The loss depends on the weights only through the effective coefficients C = (C₁₁, C₁₂, C₂₂) of the "
               "features G₁₁y_{T−1}, G₁₂y_{T−1}, G₂₂y_{T−1} (C3); the unconstrained minimiser over C (3×3 normal "
               "equations with exact moments) is a lower bound for every weight, so if the theorem's weights realise "
               "it they are a global optimum. Settings (a)–(c): exact prior averages (setting (b) through its "
               "exchangeable-component form, exact_component_average). Setting (d): the prior average is replaced by a "
               "finite family of sampled systems closed under A → −A (antithetic pairs), itself a centrally symmetric "
               "prior.")
    rng = _rng(ctx, "global-optimum-selfcheck")
    W, V = rng.standard_normal((2, 2, 2))
    Y = prior("a").sample(rng, 50).simulate(T, rng)
    G, q = lds.gram_query(Y, 1)
    C = lds.effective_coefficients(W, V)
    yield selfcheck.identity("forward pass = Σ C_kl G_kl q (effective coefficients)",
                             lds.attention_predict(W, V, Y), np.einsum("kl,bkl,b->b", C[:, :, 0], G, q[:, 0]),
                             rtol=1e-10)
    for st in SETTINGS:
        exact = st in ("a", "b", "c")
        if exact:
            mom = lds.stationarity_moments(T, 1, prior(st), gram=True, method="exact-components")
            w_formula = lds.wqk_star(T, prior(st), method="exact-components").value
        else:        # a finite family closed under A -> -A; the formula evaluated on the same family
            sysm = prior(st).sample(_rng(ctx, f"global-optimum-{st}"), cfg["antithetic_pairs"])
            mom = lds.stationarity_moments(T, 1, prior(st), gram=True, method="rao-blackwell", systems=sysm,
                                           antithetic=True)
            N, D = zip(*(lds.wqk_star_moments(sy.autocovariance(T)) for sy in (sysm, sysm.negate())))
            w_formula = (T - 2) * float(np.mean(np.concatenate(N))) / float(np.mean(np.concatenate(D)))
        c = np.linalg.solve(mom["gram"], mom["b"])             # features (1,1,1), (1,2,1), (2,2,1)
        scope = (f"{prior_scope(st)}, T = {T}, " + ("exact prior average" if exact else
                 f"finite antithetic family of {2 * cfg['antithetic_pairs']} systems"))
        yield rules.identity(f"({st}) unconstrained optimum has C₁₁ = C₂₂ = 0", np.array([c[0], c[2]]) / abs(c[1]),
                             np.zeros(2), atol=RTOL, scope=scope)
        yield rules.identity(f"({st}) optimal C₁₂ = (T−2)E[y_(T−1) y_T S]/E[y_(T−1)² S²]", c[1], w_formula, rtol=RTOL,
                             scope=scope)
        beta = 2.5                                              # any non-zero scaling
        Wst, Vst = np.array([[c[1] / beta, 0.0], [0.0, 0.0]]), np.array([[0.0, 0.0], [0.0, beta]])
        yield rules.identity(f"({st}) W*_QK = diag(w*/β, 0), W*_V = β e₂e₂ᵀ realise the optimum (β = {beta})",
                             lds.effective_coefficients(Wst, Vst)[:, :, 0][np.triu_indices(2)], c, rtol=RTOL,
                             atol=RTOL * abs(c[1]), scope=scope)


def _test_set(ctx, setting: str, T: int, n: int, name: str):
    return test_set(ctx, setting, T, n, name)


@claims.claim("001-thm41-ratio-of-expectations", lines=(60, 60), conventions=["C1", "C2", "C3", "C4", "C5"],
              revision={"previous": "confirmed",
                        "why": "rule changed: decided by paired held-out superiority tests (Student t) against the "
                               "per-system average and against the formula without T − 2, instead of an ad-hoc z "
                               "threshold; the former claim 001-thm41-exact-vs-mc (our formula vs our simulation of "
                               "the same quantity, delta-method z) became this claim's self-check with batch means; since "
                               "2026-12-01 that self-check is a linear statistic over sampled systems with exact "
                               "per-system moments in all four settings (the batch-ratio test was miscalibrated under "
                               "heavy tails — see Method), and the figure shows the simulated layer's held-out loss."})
def thm41_ratio_of_expectations(ctx):
    """The optimal scalar is W*_QK,11 = (T−2)E[y_{T−1}y_T S]/E[y_{T−1}²S²], expectations over noise and prior: on fresh
    prompts the attention layer with it has a lower loss than with the per-system optimum averaged over systems
    and than without the factor T − 2."""
    MARGIN = 0.0            # "lower loss": any strict improvement of the paired held-out halved loss
    cfg = config(ctx)
    T, B, m = cfg["T"], cfg["wqk_mc_batches"], cfg["wqk_mc_batch"]
    yield Note("Self-checks, the same in all four settings: (1) W* — exact in (a), (b), (c); exact over eigenvalues "
               "and noises, quasi-Monte Carlo over the coupling matrix in (d) — solves E[N] = W*·E[D]/(T − 2) on "
               "sampled systems with their exact per-system moments (batch means of a linear statistic, Student t); "
               "(2) the autocovariance K of three sampled systems, the only input the Isserlis engine (checked in "
               "001-isserlis-moments) takes, against simulated second moments (Hotelling T² over batch means). The "
               "simulated attention layer itself decides the claim: paired held-out losses on fresh prompts (figure). "
               "Changed 2026-12-01: in (a), (c) self-check (1) used to compare W* with the best scalar of the "
               "simulated layer over fresh (system, trajectory) pairs (batch ratios of 6th-order products). Those "
               "batch means are far from normal — skewness ≈ −6 and excess kurtosis ≈ 100 at 2 000 trajectories per "
               "batch, the batch-means t statistic with an SD of 1.3–1.4 over 300–400 replications — so the check "
               "raised false alarms (12 % at a nominal 5 %; it withheld this claim under 1 of 20 stability seeds), "
               "although the pooled ratio over 16 million trajectories agreed with W* (z = −0.87 in (a), −0.98 in (c)).")
    wstar = {}
    entries = [(T - 1, T - 1), (T - 1, T), (T - 2, T)]
    for st in SETTINGS:
        w = lds.wqk_star(T, prior(st), n_systems=cfg["rb_systems"], batch=cfg["rb_systems"] // 20,
                         seed=ctx.seed_for(f"wqk-rb-{st}"))
        wstar[st] = w.value
        # a linear statistic over sampled systems with their exact per-system moments (batch means of a ratio
        # would carry an O(1/batch) bias under these heavy-tailed moments)
        yield selfcheck.agreement(f"({st}) W* ({w.method}) solves E[N] = W*·E[D]/(T − 2) on sampled systems "
                                  "(exact per-system moments, batch means, relative to E[N])",
                                  _wstar_linear_check(ctx, st, T, w.value, cfg["rb_systems"]), 0.0)
        fam = prior(st).sample(_rng(ctx, f"acov-systems-{st}"), 3)
        ac = lds.autocovariance_batch_mc(fam, T, entries, B, cfg["acov_per_batch"], ctx.seed_for(f"acov-mc-{st}"))
        bv = ac["batch_values"]
        yield selfcheck.components(f"({st}) autocovariance K (exact) vs simulated second moments, entries "
                                   f"{entries} of 3 sampled systems", bv.mean(0), ac["exact"], np.cov(bv.T) / B,
                                   n=B * cfg["acov_per_batch"], df=B - 1)
    curves = {}
    for st in ("a", "b"):
        w = wstar[st]
        avg = lds.per_system_ratio_average(T, prior(st), cfg["rb_systems"], ctx.seed_for(f"per-system-{st}"))
        _, Y = _test_set(ctx, st, T, cfg["ratio_test_n"], f"ratio-test-{st}")
        V = np.array([[0.0, 0.0], [0.0, 1.0]])
        f1 = lds.attention_predict(np.array([[1.0, 0.0], [0.0, 0.0]]), V, Y)     # the layer's output is linear in c

        def loss(c):
            return 0.5 * (c * f1 - Y[:, -1]) ** 2
        base = loss(w)
        curves[st] = (w, avg.mean, f1, Y[:, -1])
        scope = f"{prior_scope(st)}, T = {T}, {cfg['ratio_test_n']} fresh prompts (paired)"
        yield rules.superiority(f"({st}) loss with the per-system average E_A[(T−2)N(A)/D(A)] exceeds loss with W*",
                                Estimate.from_samples(loss(avg.mean) - base), margin=MARGIN, scope=scope,
                                details={"W_star": w, "per_system_average": avg.mean, "per_system_average_se": avg.se})
        yield rules.superiority(f"({st}) loss without the factor T − 2 exceeds loss with W*",
                                Estimate.from_samples(loss(w / (T - 2)) - base), margin=MARGIN, scope=scope)
    ctx.save_figure(_wqk_figure(curves, T), "lds_wqk_heldout_loss",
                    f"Held-out halved loss of the simulated attention layer (W_QK = c·e₁e₁ᵀ, T = {T}, "
                    f"{cfg['ratio_test_n']} fresh prompts per setting) against c/W*, relative to its value at W* "
                    "(Theorem 4.1); markers: the per-system average E_A[(T−2)N(A)/D(A)] and W*/(T − 2).")


def _wstar_linear_check(ctx, st, T, w, n):
    """Batch means (20 batches) of N(A) − w·D(A)/(T − 2) over ``n`` sampled systems, divided by the mean of N."""
    rng = _rng(ctx, f"wqk-linear-check-{st}")
    vals, ns = [], []
    for _ in range(20):
        N, D = lds.wqk_star_moments(prior(st).sample(rng, n // 20).autocovariance(T))
        vals.append(float(np.mean(N - w * D / (T - 2))))
        ns.append(float(np.mean(N)))
    return Estimate.from_batches(np.array(vals) / np.mean(ns), n // 20)


def _wqk_figure(curves, T):
    from ...figures import new_figure
    fig, ax = new_figure()
    x = np.linspace(0.0, 2.0, 201)
    for st, (w, avg, f1, y) in curves.items():
        # mean halved loss at c = x·W*: a quadratic in c from three sample moments
        a2, a1, a0 = 0.5 * np.mean(f1 * f1), -np.mean(f1 * y), 0.5 * np.mean(y * y)
        L = lambda c: a2 * c * c + a1 * c + a0                                # noqa: E731
        rel = L(x * w) / L(w) - 1.0
        line, = ax.plot(x, rel, label=f"({st})")
        for c, mk in ((avg, "s"), (w / (T - 2), "v")):
            ax.plot([c / w], [L(c) / L(w) - 1.0], mk, color=line.get_color())
    ax.axvline(1.0, color="0.6", lw=0.8)
    ax.set_xlabel(r"$c\,/\,W^*_{QK,11}$")
    ax.set_ylabel("held-out loss / loss at W* − 1")
    ax.set_title(f"Theorem 4.1 scalar on the simulated layer, T = {T} (■ per-system average, ▼ W*/(T−2))")
    ax.legend()
    return fig


# ============================================================================ line 62
@claims.claim("001-gd-identity", lines=(62, 62), conventions=["C3", "C6"],
              fragment=r"用这组最优参数跑一次前向传播，输出恰好等于从 \(w_0=0\) 出发对 \(L_{\mathrm{AR}(1)}(w)\) 做一步梯度下降后给出的预测")
def gd_identity(ctx):
    """With the optimal weights the attention output equals the prediction after one gradient-descent step on
    L_AR(1) from w₀ = 0 (step size η = W*_QK,11)."""
    RTOL = 1e-12
    cfg = config(ctx)
    for T in cfg["gd_T_values"]:
        lhs, rhs = dli.gd_identity_sides(T)
        yield rules.identity(f"T = {T}: ŷ_T = (0 − η∇L_AR(1)(0)) y_(T−1)", lhs, rhs,
                             scope=f"exact (SymPy), full forward pass, symbolic y_1..y_{T} and η")
    yhat, pred, _ = dli.gd_symbolic_T_sides()
    yield rules.identity("symbolic T: (η/(T−2)) Σ y_i y_(i+1) · y_(T−1) = (0 − η∇L_AR(1)(0)) y_(T−1)", yhat, pred,
                         scope="exact (SymPy), symbolic T, index form")
    T = cfg["T"]
    w = lds.wqk_star(T, prior("a")).value
    _, Y = _test_set(ctx, "a", T, 2000, "gd-identity")
    att = lds.attention_predict(np.array([[w, 0.0], [0.0, 0.0]]), np.array([[0.0, 0.0], [0.0, 1.0]]), Y)
    yield rules.identity(f"T = {T}: attention output = one GD step of size W* = {w:.6g}", att,
                         lds.ar_gd_step_prediction(Y, 1, w), rtol=RTOL, scope=f"{prior_scope('a')}, T = {T}, 2000 prompts")
    for key in ("gd_attention", "gd_gradient", "gd_step"):
        yield Derivation(gi.LATEX[key])


@claims.claim("001-first-optimality", lines=(62, 62), fragment="是已知第一个针对 LDS 数据的最优性结果", conventions=[])
def first_optimality(ctx):
    """This is the first optimality result for one-layer attention on LDS (non-i.i.d.) data."""
    yield rules.underspecified("first optimality result on LDS data", ["a survey of the literature (a priority claim "
                                                                       "is not a computable statement)"],
                               scope="not attempted")


# ============================================================================ lines 66–70 (AR(s), PCG)
@claims.claim("001-sge2-not-gd", lines=(66, 66), fragment="最优权重不再实现标准 GD", needs=("ar2_moments",),
              conventions=["C3", "C4", "C6"])
def sge2_not_gd(ctx, ar2_moments):
    """For s ≥ 2 the optimal weights no longer implement standard gradient descent: already for s = 2 some weights
    have a strictly lower loss than the best one-step GD predictor."""
    REL_DECREASE = 1e-6      # the loss decrease must exceed floating-point rounding of the exact loss (relative)
    m = ar2_moments
    eta, L_gd = lds.best_gd_step(2, m)
    W, V = lds.gd_step_weights(2, eta)
    gW, gV = lds.exact_loss_gradient(W, V, m)
    g2 = float(np.sum(gW ** 2) + np.sum(gV ** 2))
    steps = [L_gd / g2 * 0.5 ** k for k in range(40)]
    losses = [lds.exact_halved_loss(W - t * gW, V - t * gV, m) for t in steps]
    k = int(np.argmin(losses))
    yield Note("Standard GD from w₀ = 0 with step η predicts ŷ = η ȳ_{T−2}ᵀ(1/n)Σ_t ȳ_t y_{t+2}; it is realised by "
               "W_QK = η[[I₂, 0], [0, 0]], W_V = e₃e₃ᵀ. The best η solves a 1-D least-squares problem in the exact "
               "population loss; then one step along the exact negative gradient of the loss in (W_QK, W_V) is taken "
               "(step halved from L/|∇L|² until the best of 40 tries).")
    yield rules.inequality("s = 2: a weight step from the best standard-GD weights has a lower loss",
                           losses[k], "<", L_gd * (1 - REL_DECREASE),
                           scope=f"{prior_scope('a')}, T = {m['T']}, exact halved population loss",
                           details={"eta_gd": eta, "loss_gd": L_gd, "loss_after_step": losses[k], "step": steps[k],
                                    "gradient_norm": float(np.sqrt(g2))})


@claims.claim("001-eq16-block-structure", lines=(66, 66), conventions=["C3", "C6"],
              revision={"previous": "confirmed", "why": "the old verdict was written as a literal; it is now decided "
                                                        "by SymPy identity sub-claims computed in the claim."},
              fragment=r"\(\frac{1}{T-s-1}\bar Y\) 具有有意义的分块结构（公式 16）——它把 \(L_{\mathrm{AR}(s)}\) 的 Hessian "
                       r"\(\nabla^2 L_{\mathrm{AR}(s)}\)、零点梯度 \(\nabla L_{\mathrm{AR}(s)}(0)\) 和一个标量 \(\gamma\) 排成一个对称分块矩阵")
def eq16_block_structure(ctx):
    """(1/(T−s−1)) Y₀MY₀ᵀ is the symmetric block matrix [[∇²L_AR(s), −∇L_AR(s)(0)], [−∇L_AR(s)(0)ᵀ, γ]] with
    γ = (1/n) Σ_t y_{t+s}² (the gradient block enters with a minus sign, which the seed does not show)."""
    for s, T in config(ctx)["block_cases"]:
        G, block, _ = dli.block_sides(s, T)
        scope = f"exact (SymPy), s = {s}, T = {T}, symbolic y"
        yield rules.identity(f"s = {s}: (1/n)Y₀MY₀ᵀ = [[∇²L, −∇L(0)], [−∇L(0)ᵀ, γ]]", G, block, scope=scope)
        yield rules.identity(f"s = {s}: the block matrix is symmetric", G, G.T, scope=scope)
    yield Derivation(gi.LATEX["block16"])


@claims.claim("001-eq17-form", lines=(68, 68), conventions=["C3", "C10"],
              revision={"previous": "confirmed", "previous_id": "001-eq17-eq18-form",
                        "why": "split: Eq. 17, Eq. 18 and the AR(1) reduction are separate statements of lines 68-70; "
                               "verdict unchanged."})
def eq17_form(ctx):
    """The attention predictor can be written ŷ_T = (P∇²L_AR(s) q + ξ₁P∇L_AR(s)(0) + ξ₂p)ᵀ ȳ_{T−s} (Eq. 17) for general
    weights (under the reconstruction of P, q, p, ξ in C10)."""
    for s, T in config(ctx)["pred_cases"]:
        lhs, rhs = dli.predictor_sides(s, T)
        yield rules.identity(f"s = {s}: forward pass = Eq. 17 form", lhs, rhs,
                             scope=f"exact (SymPy), s = {s}, T = {T}, symbolic weights and y")
    rng = _rng(ctx, "eq17")
    _, Y = _test_set(ctx, "b", 20, 500, "eq17-data")
    W, V = rng.standard_normal((2, 5, 5))
    q = lds.pcg_quantities(W, V, Y)
    yield rules.identity("s = 4: forward pass = Eq. 17 form (numeric)", q["pred_att"], lds.attention_predict(W, V, Y),
                         rtol=1e-10, scope=f"s = 4, T = 20, random weights, 500 prompts of {prior_scope('b')}")
    yield Derivation(gi.LATEX["pred17"])


@claims.claim("001-eq18-pcg-form", lines=(70, 70), conventions=["C6", "C10"],
              fragment=r"两步 PCG 得到的预测器（公式 18）是 \(\tau_1 P\nabla^2 L_{\mathrm{AR}(s)}P\nabla L_{\mathrm{AR}(s)}(0)"
                       r"+\tau_2 P\nabla L_{\mathrm{AR}(s)}(0)\)。两者的第二项在缩放意义下一致",
              revision={"previous": "confirmed", "previous_id": "001-eq17-eq18-form",
                        "why": "split from 001-eq17-eq18-form; verdict unchanged."})
def eq18_pcg_form(ctx):
    """Two PCG steps on L_AR(s) from w₀ = 0 (preconditioned residual z = P r) give τ₁P∇²L P∇L(0) + τ₂P∇L(0) (Eq. 18);
    its second term and that of Eq. 17 agree up to scaling (both ∝ P∇L(0))."""
    TOL = 1e-9         # relative residual of a least-squares projection: floating-point only
    rng = _rng(ctx, "eq18")
    for s in (2, 3, 4):
        _, Y = _test_set(ctx, "b", 20, 200, f"eq18-data-{s}")
        W, V = rng.standard_normal((2, s + 1, s + 1))
        q = lds.pcg_quantities(W, V, Y)
        Pg = q["g0"] @ q["P"].T
        PHPg = np.einsum("bij,bj->bi", q["H"], Pg) @ q["P"].T
        basis = np.stack([Pg, PHPg], axis=2)
        res = []
        coef2 = []
        for b in range(Y.shape[0]):
            c, *_ = np.linalg.lstsq(basis[b], q["w_pcg"][b], rcond=None)
            res.append(np.linalg.norm(basis[b] @ c - q["w_pcg"][b]) / np.linalg.norm(q["w_pcg"][b]))
            coef2.append(c[0])
        scope = f"s = {s}, T = 20, random weights, 200 prompts of {prior_scope('b')}"
        yield rules.identity(f"s = {s}: 2-step PCG iterate ∈ span{{P∇L(0), P∇²L P∇L(0)}} (relative residual 0)",
                             np.array(res), np.zeros(len(res)), atol=TOL, scope=scope)
        xi1 = -V[s, s]
        second17 = xi1 * Pg
        second18 = np.array(coef2)[:, None] * Pg
        cosines = np.abs(np.sum(second17 * second18, 1)) / (np.linalg.norm(second17, axis=1) *
                                                               np.linalg.norm(second18, axis=1))
        yield rules.identity(f"s = {s}: |cos(ξ₁P∇L(0), τ₂P∇L(0))| = 1", cosines, np.ones(len(cosines)), atol=TOL,
                             scope=scope)


def _pcg_chosen(cfg, st, n_seeds, best):
    return {**recipe_chosen(cfg, st, 4, n_seeds), "test prompts": cfg["pcg_n"],
            "averaging": f"{best['averaging']} per training seed, then mean ± t-SE over training seeds",
            **{f"reading: {k}": v for k, v in best.items() if k != "averaging"}}


@claims.claim("001-pcg-cosines", lines=(70, 70), needs=("pcg_reconciliation",), conventions=["C3", "C8", "C10"],
              fragment=r"若把 PCG 的共轭方向初始化为 \(q\) 则首项也对齐——实验测得两方向的余弦相似度在 AR(4) 上达 "
                       r"\(0.88\pm0.05\)（设定 a）和 \(0.93\pm0.01\)（设定 b）",
              revision={"previous": "not reproduced",
                        "why": "the unstated readings (compared vectors, first conjugate direction, preconditioner, "
                               "averaging, and for the −0.99 of 001-pcg-p-residual the residual and its setting) are "
                               "searched jointly by a reconciliation over all three numbers; the two cosines are "
                               "decided at the closest reading (in chosen) instead of under two fixed readings."})
def pcg_cosines(ctx, pcg_reconciliation):
    """For AR(4) the cosine similarity between the attention predictor's direction and the two-step PCG direction is
    0.88 ± 0.05 in setting (a) and 0.93 ± 0.01 in setting (b)."""
    STATED = {"a": ("0.88", 0.05), "b": ("0.93", 0.01)}       # printed value; the paper's own ± as model margin
    cfg = config(ctx)
    rec = pcg_reconciliation["rec"]
    yield Note("Reconciliation (C10): the readings the seed leaves open are searched jointly with the −0.99 of "
               "001-pcg-p-residual (every combination, the trained weights and test prompts fixed: common random "
               "numbers); the two cosines are then decided at the closest reading found — in chosen, so a failure "
               "is 'not reproduced'. A reading is not a result: the reconciliation's residuals are in the "
               "Reconciliation section.")
    yield rec
    for st, (val, spread) in STATED.items():
        per_seed = pcg_reconciliation["cos"][st]
        yield rules.reproduction(f"({st}) mean cos(attention direction, PCG direction) = {val}",
                                 Estimate.from_samples(per_seed), val, model_margin=spread,
                                 chosen=_pcg_chosen(cfg, st, len(per_seed), rec.best),
                                 scope=f"AR(4), {prior_scope(st)}, T = {cfg['train_T']}, at the reconciled reading, on "
                                       "fresh test prompts (not those of the search)",
                                 details={"per_seed": per_seed, "reconciliation_found": rec.found})


@claims.claim("001-pcg-p-residual", lines=(70, 70), needs=("pcg_reconciliation",), conventions=["C3", "C8", "C10"],
              fragment=r"测得它与预条件残差方向反对齐（余弦 \(\approx-0.99\)）",
              revision={"previous": "not reproduced", "previous_id": "001-pcg-cosines",
                        "why": "decided at the reading reconciled jointly with the two cosines of 001-pcg-cosines "
                               "(the residual, the preconditioner and the setting of the −0.99 are free parameters "
                               "of that search) instead of under two fixed readings."})
def pcg_p_residual(ctx, pcg_reconciliation):
    """The correction vector p (last row of W_QK) is anti-aligned with the preconditioned residual direction
    (cosine ≈ −0.99) for the AR(4) weights."""
    STATED, MARGIN = "-0.99", P_RESIDUAL_MARGIN   # "≈": the larger of the paper's printed spreads (± 0.05)
    cfg = config(ctx)
    rec = pcg_reconciliation["rec"]
    vals = [v for st in sorted(pcg_reconciliation["p"]) for v in pcg_reconciliation["p"][st]]
    where = rec.best["setting of −0.99"]
    yield rules.reproduction(f"({where}) mean cos(p, preconditioned residual) = {STATED}", Estimate.from_samples(vals),
                             STATED, model_margin=MARGIN, chosen=_pcg_chosen(cfg, where, len(vals), rec.best),
                             scope=f"AR(4), setting(s) {where}, T = {cfg['train_T']}, at the reading reconciled with "
                                   "001-pcg-cosines, on fresh test prompts (not those of the search)",
                             details={"per_seed": vals, "reconciliation_found": rec.found})


@claims.claim("001-pcg-covers-ar1", lines=(70, 70), fragment="这个解释自洽地涵盖了 AR(1)：因为一维协变量下 PCG 变体退化为 GD",
              conventions=["C3", "C6", "C10"],
              revision={"previous": "confirmed", "previous_id": "001-eq17-eq18-form",
                        "why": "split from 001-eq17-eq18-form; verdict unchanged."})
def pcg_covers_ar1(ctx):
    """For AR(1) the PCG variant reduces to gradient descent: in one dimension two PCG steps equal one GD step
    (with the exact step 1/∇²L), and the attention predictor at the Theorem 4.1 weights is the GD step −W*∇L(0)."""
    RTOL = 1e-10
    T = config(ctx)["T"]
    _, Y = _test_set(ctx, "a", T, 500, "pcg-ar1")
    rng = _rng(ctx, "pcg-ar1-weights")
    W, V = rng.standard_normal((2, 2, 2))
    q = lds.pcg_quantities(W, V, Y)
    H, g0 = q["H"][:, 0, 0], q["g0"][:, 0]
    scope = f"s = 1, T = {T}, 500 prompts of {prior_scope('a')}"
    yield rules.identity("s = 1: 2-step PCG iterate = GD step −∇L(0)/∇²L", q["w_pcg"][:, 0], -g0 / H, rtol=RTOL,
                         scope=scope + ", random weights")
    w = lds.wqk_star(T, prior("a")).value
    q1 = lds.pcg_quantities(np.array([[w, 0.0], [0.0, 0.0]]), np.array([[0.0, 0.0], [0.0, 1.0]]), Y)
    yield rules.identity("s = 1: attention predictor at the Theorem 4.1 weights = GD step −W*∇L(0)", q1["w_att"][:, 0],
                         -w * g0, rtol=RTOL, scope=scope + ", Theorem 4.1 weights")
