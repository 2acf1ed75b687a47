r"""Claims of paper 001 on Theorem 4.1 (seed lines 58–62), in seed order: the Isserlis moments, the global optimum
W*_QK, the ratio of expectations, the one-step-GD identity. Registered through :mod:`.claims` (after
:mod:`.claims_background`, before :mod:`.claims_pcg`)."""
from __future__ import annotations

import numpy as np
import sympy as sp

from ... import gaussian
from ...figures import new_figure
from ...models.attention import attention_predict, effective_coefficients, gram_query
from ...models.dynamics import DiagonalLDSPrior, LDSBatch, lds_autocovariance
from ...verdicts import Estimate, rules, selfcheck
from ..api import Derivation, Note
from .derivations import lds_identities as dli
from .derivations import lds_isserlis as dlis
from .generated import lds_identities as gi
from .generated import lds_scalar as gs
from .registry import claims
from .settings import SETTINGS, config, prior, prior_scope, rng_for, test_set
from .theory.gd import ar_gd_step_prediction, gd_step_weights
from .theory.isserlis import wqk_star_moments
from .theory.stationarity import autocovariance_batch_mc, stationarity_moments
from .theory.wqk import per_system_ratio_average, poly_eval_moments, scalar_batch, theorem_feature, wqk_star

__all__ = ["isserlis_moments", "thm41_global_optimum", "thm41_ratio_of_expectations", "gd_identity",
           "first_optimality"]


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
    pr1 = DiagonalLDSPrior(1, 0.9, 1.0, 0.5, 0.5)
    K = lds_autocovariance(scalar_batch(pr1, a), T)
    N_e, D_e = wqk_star_moments(K)
    N_b = [sum(gaussian.moment(Kb, (T - 2, T - 1, i, i + 1)) for i in range(T - 2)) for Kb in K]
    D_b = [sum(gaussian.moment(Kb, (T - 2, T - 2, i, i + 1, j, j + 1)) for i in range(T - 2) for j in range(T - 2))
           for Kb in K]
    yield rules.identity("explicit pairing sums = trace forms on LDS autocovariances (N and D)",
                         np.concatenate([N_e, D_e]), np.concatenate([N_b, D_b]), rtol=RTOL,
                         scope=f"d = 1, T = {T}, a ∈ {a.tolist()}, σ₀ = 1, σ_w = σ_v = 0.5")
    Np, Dp = poly_eval_moments(gs.POLY[30], a, 1.0, 0.5, 0.5)
    N30, D30 = wqk_star_moments(lds_autocovariance(scalar_batch(pr1, a), 30))
    yield selfcheck.identity("generated d = 1 polynomials (T = 30) = engine", np.concatenate([Np, Dp]),
                             np.concatenate([N30, D30]), rtol=RTOL)
    # the actual model: trajectories of one system, products summed here (batch means, Student t)
    one = scalar_batch(pr1, np.array([0.8]))
    Nx, Dx = wqk_star_moments(lds_autocovariance(one, T))
    B, m = cfg["isserlis_mc_batches"], cfg["isserlis_mc_batch"]
    bn, bd = [], []
    for g in np.random.SeedSequence(ctx.seed_for("isserlis-mc")).spawn(B):
        rg = np.random.default_rng(g)
        Y = LDSBatch(np.repeat(one.A, m, 0), np.repeat(one.c, m, 0), np.repeat(one.Sigma_w, m, 0),
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
    rng = rng_for(ctx, "global-optimum-selfcheck")
    W, V = rng.standard_normal((2, 2, 2))
    Y = prior("a").sample(rng, 50).simulate(T, rng)
    G, q = gram_query(Y, 1)
    C = effective_coefficients(W, V)
    yield selfcheck.identity("forward pass = Σ C_kl G_kl q (effective coefficients)",
                             attention_predict(W, V, Y), np.einsum("kl,bkl,b->b", C[:, :, 0], G, q[:, 0]),
                             rtol=1e-10)
    for st in SETTINGS:
        exact = st in ("a", "b", "c")
        if exact:
            mom = stationarity_moments(T, 1, prior(st), gram=True, method="exact-components")
            w_formula = wqk_star(T, prior(st), method="exact-components").value
        else:        # a finite family closed under A -> -A; the formula evaluated on the same family
            sysm = prior(st).sample(rng_for(ctx, f"global-optimum-{st}"), cfg["antithetic_pairs"])
            mom = stationarity_moments(T, 1, prior(st), gram=True, method="rao-blackwell", systems=sysm,
                                           antithetic=True)
            N, D = zip(*(wqk_star_moments(sy.autocovariance(T)) for sy in (sysm, sysm.negate())))
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
                             effective_coefficients(Wst, Vst)[:, :, 0][np.triu_indices(2)], c, rtol=RTOL,
                             atol=RTOL * abs(c[1]), scope=scope)


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
        w = wqk_star(T, prior(st), n_systems=cfg["rb_systems"], batch=cfg["rb_systems"] // 20,
                         seed=ctx.seed_for(f"wqk-rb-{st}"))
        wstar[st] = w.value
        # a linear statistic over sampled systems with their exact per-system moments (batch means of a ratio
        # would carry an O(1/batch) bias under these heavy-tailed moments)
        yield selfcheck.agreement(f"({st}) W* ({w.method}) solves E[N] = W*·E[D]/(T − 2) on sampled systems "
                                  "(exact per-system moments, batch means, relative to E[N])",
                                  _wstar_linear_check(ctx, st, T, w.value, cfg["rb_systems"]), 0.0)
        fam = prior(st).sample(rng_for(ctx, f"acov-systems-{st}"), 3)
        ac = autocovariance_batch_mc(fam, T, entries, B, cfg["acov_per_batch"], ctx.seed_for(f"acov-mc-{st}"))
        bv = ac["batch_values"]
        yield selfcheck.components(f"({st}) autocovariance K (exact) vs simulated second moments, entries "
                                   f"{entries} of 3 sampled systems", bv.mean(0), ac["exact"], np.cov(bv.T) / B,
                                   n=B * cfg["acov_per_batch"], df=B - 1)
    curves = {}
    for st in ("a", "b"):
        w = wstar[st]
        avg = per_system_ratio_average(T, prior(st), cfg["rb_systems"], ctx.seed_for(f"per-system-{st}"))
        _, Y = test_set(ctx, st, T, cfg["ratio_test_n"], f"ratio-test-{st}")
        f1 = theorem_feature(Y)                                              # the layer's output is linear in c

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
    rng = rng_for(ctx, f"wqk-linear-check-{st}")
    vals, ns = [], []
    for _ in range(20):
        N, D = wqk_star_moments(prior(st).sample(rng, n // 20).autocovariance(T))
        vals.append(float(np.mean(N - w * D / (T - 2))))
        ns.append(float(np.mean(N)))
    return Estimate.from_batches(np.array(vals) / np.mean(ns), n // 20)


def _wqk_figure(curves, T):
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
    w = wqk_star(T, prior("a")).value
    _, Y = test_set(ctx, "a", T, 2000, "gd-identity")
    att = attention_predict(*gd_step_weights(1, w), Y)
    yield rules.identity(f"T = {T}: attention output = one GD step of size W* = {w:.6g}", att,
                         ar_gd_step_prediction(Y, 1, w), rtol=RTOL, scope=f"{prior_scope('a')}, T = {T}, 2000 prompts")
    for key in ("gd_attention", "gd_gradient", "gd_step"):
        yield Derivation(gi.LATEX[key])


@claims.claim("001-first-optimality", lines=(62, 62), fragment="是已知第一个针对 LDS 数据的最优性结果", conventions=[])
def first_optimality(ctx):
    """This is the first optimality result for one-layer attention on LDS (non-i.i.d.) data."""
    yield rules.underspecified("first optimality result on LDS data", ["a survey of the literature (a priority claim "
                                                                       "is not a computable statement)"],
                               scope="not attempted")
