r"""Claims of paper 000 from the summary to the experiment table (seed lines 13–57), in seed order.

Each claim quotes its seed lines (and fragment), declares its rule's constants before computing,
computes its evidence with the paper's theory (:mod:`.theory`), :mod:`theorycheck.models` and the derivation
:mod:`.derivations.gla_loss`, and hands it to :mod:`theorycheck.verdicts.rules`. Our own
consistency checks (exact formula against a Monte Carlo of the actual recursion, two numeric routes
to one number) are self-checks, never sub-claims. The experimental claims (lines 58–89) are in
:mod:`.experiments`; conventions, stated and chosen values and sizes in :mod:`.settings`.
"""
from __future__ import annotations

import numpy as np
import sympy as sp
from scipy import optimize

from ...figures import new_figure
from ...models.attention import gla_forward
from ...models.prompts import ar1_drift_prompts
from ...verdicts import rules, selfcheck
from ..api import Derivation, Note
from . import theory as gla
from .common import batch_estimate, error_curve, fmt_grid
from .derivations import gla_loss as dgl
from .generated import gla_loss as gen
from .registry import claims
from .settings import (CHOSEN_SIGMAS, CONVENTIONS, D_EXP, GAMMAS_EXP, N_EXP, NOISE_FREE_SCOPE, SE2, SW2,
                       noise_free_grid, sizes)

__all__ = ["claims", "CONVENTIONS", "sizes"]

EXP = f"d = {D_EXP}, n = {N_EXP}"


def _rng(ctx, name):
    return np.random.default_rng(ctx.seed_for(name))


def _opt(gamma, n=N_EXP, d=D_EXP, sw2=SW2, se2=SE2, noise=0.0, grid=201):
    return gla.optimal_lambda(gamma, n, d, sw2, se2, noise, grid_size=grid)


def _tokens(X, Y):
    y = Y.copy()
    y[:, -1] = 0.0
    return np.concatenate([X, y[:, :, None]], axis=2)


# ============================================================================ line 13
@claims.claim("000-gla-beats-linear-attention", lines=(13, 13),
              fragment="训练/测试误差都严格低于标准线性注意力，且最优 $\\lambda<1$",
              conventions=["C1", "C2", "C4", "C5", "C7"],
              revision={"previous": "refuted",
                        "why": "decided on the stated setting (d = 10, n = 100, test prompts of the training law, "
                               "actual recursion, paired t-test); the previous refutation rested on train/test shifts "
                               "of the drift chosen by the toolkit, which the sentence does not state (only a "
                               "length shift, chosen, remains, as a scoped sub-claim)."})
def gla_beats_linear_attention(ctx):
    """Under AR(1) drift the train and test errors of GLA (at its optimal λ*) are strictly below those of linear
    attention (λ = 1), and λ* < 1."""
    GAMMAS_MC = (0.8, 0.95)        # test-error Monte Carlo at the γ's of the filter and depth experiments
    TEST_NS = (50, 200, 400)       # Theorem-3 prompt-length shifts (train n = 100): chosen
    sz = sizes(ctx)
    opts = [_opt(g) for g in GAMMAS_EXP]
    scope = f"{EXP}, γ ∈ {fmt_grid(GAMMAS_EXP)}, exact population train error"
    yield rules.inequality("train error: GLA at λ* < linear attention (λ = 1)", [r.error for r in opts], "<",
                           [r.error_linear_attention for r in opts], scope=scope, chosen=CHOSEN_SIGMAS)
    yield rules.inequality("the optimal forgetting factor λ* < 1", [r.lam for r in opts], "<", 1.0, scope=scope,
                           chosen=CHOSEN_SIGMAS)
    grid = noise_free_grid()
    res = [gla.optimal_lambda(p["gamma"], p["n"], p["d"], p["sigma_w2"], p["sigma_e2"], grid_size=101) for p in grid]
    yield rules.inequality("train error: GLA at λ* < linear attention, over the seed's model",
                           [r.error for r in res], "<", [r.error_linear_attention for r in res],
                           scope=NOISE_FREE_SCOPE)
    for g in GAMMAS_MC:
        r = _opt(g)
        seed = ctx.seed_for(f"000-gla-beats-la/test/{g}")
        e_g = gla.gla_squared_errors(r.lam, g, N_EXP, np.eye(D_EXP), SW2, SE2, n_samples=sz["mc_prompts"], seed=seed)
        e_l = gla.gla_squared_errors(1.0, g, N_EXP, np.eye(D_EXP), SW2, SE2, n_samples=sz["mc_prompts"], seed=seed)
        yield rules.superiority(f"test error on fresh prompts (γ = {g}): linear attention − GLA > 0",
                                batch_estimate(e_l - e_g, sz["mc_batches"]), chosen=CHOSEN_SIGMAS,
                                scope=f"{EXP}, γ = {g}, λ* = {r.lam:.4f}, {e_g.size} paired prompts of the training "
                                      f"law, actual recursion at the train-optimal weights")
        yield selfcheck.agreement(f"GLA recursion MSE = exact train error (γ = {g})",
                                  batch_estimate(e_g, sz["mc_batches"]), r.error)
        yield selfcheck.agreement(f"linear-attention recursion MSE = exact train error at λ = 1 (γ = {g})",
                                  batch_estimate(e_l, sz["mc_batches"]), r.error_linear_attention)
    lhs, rhs = [], []
    for g in GAMMAS_MC:
        r = _opt(g)
        for tn in TEST_NS:
            lhs.append(gla.test_error(r.lam, g, N_EXP, np.eye(D_EXP), SW2, SE2, test_n=tn))
            rhs.append(gla.test_error(1.0, g, N_EXP, np.eye(D_EXP), SW2, SE2, test_n=tn))
    yield rules.inequality("test error after a change of prompt length: GLA < linear attention", lhs, "<", rhs,
                           scope=f"{EXP} in training, test n ∈ {fmt_grid(TEST_NS)}, γ ∈ {fmt_grid(GAMMAS_MC)}, "
                                 "each model at its own train-optimal weights, exact",
                           chosen={**CHOSEN_SIGMAS, "test_n": list(TEST_NS)})
    yield Note("Test error = error of the train-optimal weights on fresh prompts (C4). Shifts of the drift law "
               "between training and test are not part of this sentence and are not tested here.")


# ============================================================================ line 44
@claims.claim("000-gamma-to-1-stationary", lines=(44, 44),
              fragment="$\\gamma\\to1$ 退化回经典平稳设定，$\\gamma$ 越小任务漂移越剧烈", conventions=["C1", "C4"],
              revision={"previous": "confirmed",
                        "why": "the sentence has two readings (σ_e² tied to γ by the stationary normalisation, or "
                               "σ_e² held fixed while γ → 1); each is now decided on its own and they disagree, "
                               "where the previous verdict counted only the first."})
def gamma_to_1_stationary(ctx):
    """γ → 1 reduces the AR(1) task model to the classical stationary setting, and a smaller γ means a stronger
    drift."""
    GAMMAS = (0.5, 0.8, 0.9, 0.95, 0.99, 0.999)
    GAMMAS_TO_1 = (0.9, 0.99, 0.999, 1.0)
    RA, RB = "σ_e² = (1 − γ²)σ_w² (stationary normalisation)", "σ_e² fixed while γ → 1"
    for label, f in (("stationary normalisation", lambda g: (1 - g * g) * SW2), ("σ_e² = 0.01", lambda g: SE2)):
        step = [gla.drift_statistics(g, N_EXP, SW2, f(g))["step"] for g in GAMMAS]
        yield rules.shape(f"relative drift per step decreases as γ grows ({label})", GAMMAS, step, shape="decreasing",
                          scope=f"σ_w² = 1, last step of a prompt of n = {N_EXP}, γ ∈ {fmt_grid(GAMMAS)}, exact")
    tot = [gla.drift_statistics(g, N_EXP, SW2, (1 - g * g) * SW2)["total"] for g in GAMMAS_TO_1]
    yield rules.shape("within-prompt drift decreases to 0 as γ → 1", GAMMAS_TO_1, tot, shape="decreasing", reading=RA,
                      scope=f"σ_w² = 1, n = {N_EXP}, γ ∈ {fmt_grid(GAMMAS_TO_1)}, exact")
    yield rules.identity("no drift within the prompt at γ = 1", tot[-1], 0.0, atol=1e-15, reading=RA,
                         scope=f"σ_w² = 1, σ_e² = 0, n = {N_EXP}, exact")
    r = gla.optimal_lambda(1.0, N_EXP, D_EXP, SW2, 0.0, grid_size=201)
    yield rules.identity("at γ = 1 the train error is the stationary value d(d+1)/(n+d+1)", r.error,
                         D_EXP * (D_EXP + 1) / (N_EXP + D_EXP + 1), rtol=1e-9, reading=RA,
                         scope=f"{EXP}, σ_w² = 1, σ_e² = 0, exact")
    yield rules.identity("at γ = 1 no forgetting is optimal (λ* = 1)", r.lam, 1.0, atol=1e-6, reading=RA,
                         scope=f"{EXP}, σ_w² = 1, σ_e² = 0, exact")
    totb = gla.drift_statistics(1.0, N_EXP, SW2, SE2)["total"]
    yield rules.identity("no drift within the prompt at γ = 1", totb, 0.0, atol=1e-15, reading=RB,
                         scope=f"σ_w² = 1, σ_e² = {SE2}, n = {N_EXP}, exact")
    rb = gla.optimal_lambda(1.0, N_EXP, D_EXP, SW2, SE2, grid_size=201)
    yield rules.identity("at γ = 1 no forgetting is optimal (λ* = 1)", rb.lam, 1.0, atol=1e-6, reading=RB,
                         scope=f"{EXP}, σ_w² = 1, σ_e² = {SE2}, exact")
    yield Note("Drift is measured by E‖w_{n+1} − w_n‖²/E‖w_{n+1}‖² (per step) and E‖w_{n+1} − w_1‖²/E‖w_{n+1}‖² "
               "(within the prompt), exact from Cov(w_i, w_j) = γ^{j−i} s_i (theorycheck.gla.drift_statistics).")


# ============================================================================ line 46
@claims.claim("000-gla-recursion", lines=(46, 46), conventions=["C2"],
              fragment="$$o_{n+1}=W_V\\Big(\\sum_{i=1}^{n+1}\\lambda^{\\,n+1-i} z_i z_i^\\top\\Big)W_K^\\top W_Q\\, z_{n+1}.$$")
def gla_recursion(ctx):
    """Unrolling S_i = λ S_{i−1} + v_i k_iᵀ gives o_{n+1} = W_V(Σ_{i=1}^{n+1} λ^{n+1−i} z_i z_iᵀ) W_Kᵀ W_Q z_{n+1}."""
    B, d, n = 50, 3, 7
    rng = _rng(ctx, "000-gla-recursion")
    X, Y = ar1_drift_prompts(rng, B, 0.9, n, np.eye(d), 1.0, 0.1, 0.05)
    Z = _tokens(X, Y)
    for lam in (0.3, 0.7, 0.95):
        WV, WK, WQ = (rng.standard_normal((d + 1, d + 1)) for _ in range(3))
        rec = gla_forward(X, Y, lam, WK.T @ WQ, WV)
        wts = lam ** np.arange(n, -1, -1.0)
        direct = np.einsum("ij,bjk,kl,bl->bi", WV, np.einsum("t,bti,btj->bij", wts, Z, Z), WK.T @ WQ, Z[:, -1])[:, d]
        yield rules.identity(f"recursion = exponentially weighted sum (λ = {lam})", rec, direct, rtol=1e-12,
                             scope=f"d = {d}, n = {n}, {B} random prompts, random W_V, W_K, W_Q, float64")


@claims.claim("000-lambda1-linear-attention", lines=(46, 46), conventions=["C2"],
              fragment="当 $\\lambda=1$ 时权重退化为均匀累加 $\\sum z_i z_i^\\top=ZZ^\\top$，GLA 就精确退化为标准线性注意力",
              revision={"previous": "confirmed", "previous_id": "000-gla-recursion",
                        "why": "split from 000-gla-recursion: one claim per statement of line 46."})
def lambda1_linear_attention(ctx):
    """At λ = 1 the weights are uniform, Σ z_i z_iᵀ = Z Zᵀ, and GLA is exactly linear attention W_V Z Zᵀ W_KQ z_{n+1}."""
    B, d, n = 50, 3, 7
    rng = _rng(ctx, "000-lambda1-linear-attention")
    X, Y = ar1_drift_prompts(rng, B, 0.9, n, np.eye(d), 1.0, 0.1, 0.05)
    Z = _tokens(X, Y)
    WV, WKQ = rng.standard_normal((d + 1, d + 1)), rng.standard_normal((d + 1, d + 1))
    la = np.einsum("ij,bjk,kl,bl->bi", WV, np.einsum("bti,btj->bij", Z, Z), WKQ, Z[:, -1])[:, d]
    yield rules.identity("GLA(λ = 1) = linear attention W_V Z Zᵀ W_KQ z_{n+1}", gla_forward(X, Y, 1.0, WKQ, WV), la,
                         rtol=1e-12, scope=f"d = {d}, n = {n}, {B} random prompts and weights, float64")


@claims.claim("000-full-vs-reduced-optimum", lines=(46, 46), conventions=["C2", "C3"],
              fragment="论证最终预测只依赖 $W_V$ 的末行与 $W_{KQ}$ 的前 $d$ 列")
def full_vs_reduced(ctx):
    """The prediction depends only on the last row of W_V and the first d columns of W_KQ."""
    B, d, n, lam = 50, 3, 7, 0.7
    rng = _rng(ctx, "000-full-vs-reduced")
    X, Y = ar1_drift_prompts(rng, B, 0.9, n, np.eye(d), 1.0, 0.1, 0.05)
    WV, WKQ = rng.standard_normal((d + 1, d + 1)), rng.standard_normal((d + 1, d + 1))
    WV2, WKQ2 = WV.copy(), WKQ.copy()
    WV2[:d] = rng.standard_normal((d, d + 1))
    WKQ2[:, d] = rng.standard_normal(d + 1)
    yield rules.identity("re-drawing the first d rows of W_V and the last column of W_KQ leaves ŷ unchanged",
                         gla_forward(X, Y, lam, WKQ2, WV2), gla_forward(X, Y, lam, WKQ, WV), rtol=0.0,
                         scope=f"d = {d}, n = {n}, λ = {lam}, {B} random prompts, exact in float64")
    yield from full_loss_selfchecks(ctx, "000-full-vs-reduced")


def full_loss_selfchecks(ctx, tag):
    """Self-checks of the exact full-parameter loss (query token included) against the actual recursion — the
    decomposition MSE = reduced MSE + E[(T₁ + T₂)²] that the landscape claims rely on."""
    sz = sizes(ctx)
    rng = _rng(ctx, f"{tag}/full-loss")
    dd, nn, g2, sw2, se2, noise = 2, 8, 0.9, 1.0, 0.1, 0.1
    for k, lam2 in enumerate((0.8, 0.3)):     # case 2: v = b = 0, small λ, so the query token's own term dominates
        scale = (0.4, 0.3) if k == 0 else (1.0, 1.0)
        u, b = scale[0] * rng.standard_normal(dd), scale[0] * rng.standard_normal(dd) * (k == 0)
        v, A = float(rng.standard_normal()) * (k == 0), scale[1] * rng.standard_normal((dd, dd))
        ex = gla.full_parameter_loss(u, v, A, b, lam2, g2, nn, dd, sw2, se2, noise)
        WVf, WKQf = rng.standard_normal((dd + 1, dd + 1)), rng.standard_normal((dd + 1, dd + 1))
        WVf[dd, :dd], WVf[dd, dd], WKQf[:dd, :dd], WKQf[dd, :dd] = u, v, A, b
        e = gla.gla_squared_errors(lam2, g2, nn, np.eye(dd), sw2, se2, noise, W_KQ=WKQf, W_V=WVf,
                                   n_samples=sz["mc_prompts"] * 2, seed=ctx.seed_for(f"{tag}/full-loss/{k}"))
        yield selfcheck.agreement(f"full-parameter loss (query term included) = recursion MSE, case {k + 1}",
                                  batch_estimate(e, sz["mc_batches"]), ex)


# ============================================================================ line 48
def _flow_settings(ctx):
    rng = _rng(ctx, "000-flow-settings")
    Q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
    Lr = Q @ np.diag([0.5, 1.0, 2.0]) @ Q.T
    out = [(0.7, 0.8, 20, np.eye(3), 1.0, 0.1, 0.0), (0.7, 0.8, 20, np.diag([2.0, 1.0, 0.5]), 1.0, 0.1, 0.1),
           (0.9, 0.95, 30, (Lr + Lr.T) / 2, 0.5, 0.05, 0.2)]
    if ctx.full:
        out.append((0.74, 0.8, N_EXP, np.eye(D_EXP), SW2, SE2, 0.0))
    return out


@claims.claim("000-thm1-gradient-flow", lines=(48, 48), conventions=["C1", "C3", "C4", "C9"],
              fragment="在 Assumption 1 的初始化（$W_V,W_{KQ}$ 取特定低秩结构、尺度 $\\sigma$ 足够小）下，定理 1 证明：即便任务非平稳，对总体损失做梯度流仍收敛到全局最小",
              revision={"previous": "confirmed",
                        "why": "Assumption 1 is not spelled out in the seed: the structured initialisation is the "
                               "toolkit's reading and is now declared as chosen (so a failure could not refute)."})
def thm1_gradient_flow(ctx):
    """Under the Assumption-1 initialisation (structured, small σ), gradient flow on the population loss converges to
    the global minimum even though the task drifts."""
    TOL = 1e-6            # declared convergence criterion: ‖Γ(t_max) − Γ*‖_F / ‖Γ*‖_F
    SIGMA = 1e-2
    fig, ax = new_figure()
    dist, labels = [], []
    for k, (lam, g, n, L, sw2, se2, noise) in enumerate(_flow_settings(ctx)):
        fr = gla.gradient_flow(lam, g, n, L, sw2, se2, noise, init="structured", sigma=SIGMA)
        dist.append(fr.extra["final_rel_dist"])
        labels.append(f"λ={lam}, γ={g}, n={n}, d={L.shape[0]}")
        ax.semilogy(fr.times / fr.times[-1], np.maximum(fr.dist_gamma / fr.extra["Gamma_star_norm"], 1e-16),
                    label=labels[-1])
        if k == 0:   # u = b = 0 is invariant: the full loss has zero gradient in (u, b) along the flow
            d = L.shape[0]
            v0, A0 = fr.extra["v_star"], gla.optimal_parameters(lam, g, n, L, sw2, se2, noise).Gamma.T / fr.extra["v_star"]
            grads = []
            for j in range(2 * d):
                u, b = np.zeros(d, complex), np.zeros(d, complex)
                (u if j < d else b)[j % d] = 1e-30j
                grads.append(gla.full_parameter_loss(u, v0 * 0.5, A0 * 0.3, b, lam, g, n, d, sw2, se2, noise).imag / 1e-30)
            yield selfcheck.identity("full loss: ∂L/∂(u, b) = 0 at u = b = 0 (structured flow stays reduced)",
                                     grads, np.zeros(2 * d), atol=1e-12)
    ax.set(xlabel="t / t_max", ylabel="‖Γ(t) − Γ*‖ / ‖Γ*‖", title="structured-init gradient flow")
    ax.legend(fontsize=7)
    ctx.save_figure(fig, "gla_gradient_flow_structured",
                    f"Relative distance to the closed-form optimum along the gradient flow of the exact population "
                    f"loss from the structured initialisation (σ = {SIGMA}); settings: {'; '.join(labels)}.")
    yield rules.inequality("the flow reaches the global minimum (relative distance ≤ 1e-6)", dist, "<=", TOL,
                           scope="settings " + "; ".join(labels) + " (Λ = I, diagonal and rotated; with and without "
                                 "label noise), exact population loss, LSODA",
                           chosen={"initialisation": "v = σ, A = σI/√d, u = b = 0", "sigma": SIGMA})


@claims.claim("000-thm1-effective-covariance", lines=(48, 48), conventions=["C1", "C3", "C4", "C5"],
              fragment="且最优解有显式表达 $\\lim_{t\\to\\infty}W_{KQ}\\propto \\tilde\\Lambda^{-1}$，其中 $\\tilde\\Lambda$ 是由 $\\lambda,\\gamma$ 和噪声统计量决定的\"有效协方差\"")
def thm1_effective_covariance(ctx):
    """The optimum has W_KQ ∝ Λ̃⁻¹ with an effective covariance Λ̃ determined by λ, γ and the noise statistics."""
    sz = sizes(ctx)
    G, want = dgl.stationary_point_pair()
    yield rules.identity("the unique stationary point of the exact loss is D₁[(A₂+B)Λ + (B trΛ + σ²N₀)I]⁻¹ = "
                         "(D₁/A₂)Λ̃⁻¹", G, want,
                         scope="SymPy, d = 2, symbolic Λ and sums D₁, A₂, B, N₀ (functions of λ, γ, σ_w², σ_e², n)")
    yield Derivation(gen.LATEX["H"])
    yield Derivation(gen.LATEX["Gamma_star"])
    yield Derivation(r"\tilde\Lambda=\Big(1+\frac{B}{A_2}\Big)\Lambda+\frac{B\operatorname{tr}\Lambda+\sigma^2N_0}{A_2}I,"
                     r"\quad \Gamma^*=\frac{D_1}{A_2}\tilde\Lambda^{-1}")
    for k, (lam, g, n, L, sw2, se2, noise) in enumerate(_flow_settings(ctx)[:3]):
        ex = gla.train_error_general(lam, g, n, L, sw2, se2, noise)
        e = gla.gla_squared_errors(lam, g, n, L, sw2, se2, noise, n_samples=sz["mc_prompts"],
                                   seed=ctx.seed_for(f"000-thm1/mc/{k}"))
        yield selfcheck.agreement(f"recursion MSE at the embedded Γ* = exact train error (setting {k + 1})",
                                  batch_estimate(e, sz["mc_batches"]), ex)
    rng = _rng(ctx, "000-thm1/fixed-gamma")
    Gam = 0.15 * rng.standard_normal((2, 2)) + 0.1 * np.eye(2)
    WV, WKQ = np.zeros((3, 3)), np.zeros((3, 3))
    WV[2, 2], WKQ[:2, :2] = 1.0, Gam.T
    e = gla.gla_squared_errors(0.6, 0.9, 8, np.eye(2), 1.0, 0.1, 0.05, W_KQ=WKQ, W_V=WV, n_samples=sz["mc_prompts"] * 2,
                               seed=ctx.seed_for("000-thm1/mc-fixed"))
    yield selfcheck.agreement("recursion MSE at a fixed non-optimal Γ = exact loss L(Γ)", batch_estimate(e, sz["mc_batches"]),
                              gla.population_loss(Gam, 0.6, 0.9, 8, np.eye(2), 1.0, 0.1, 0.05))
    lam, g, n, L, sw2, se2, noise = _flow_settings(ctx)[2]
    opt = gla.optimal_parameters(lam, g, n, L, sw2, se2, noise)
    res = optimize.minimize(lambda x: gla.population_loss(x.reshape(3, 3), lam, g, n, L, sw2, se2, noise), np.zeros(9),
                            method="BFGS", options={"gtol": 1e-12})
    yield selfcheck.identity("BFGS minimiser of the exact loss = closed-form Γ* (rotated Λ)", res.x.reshape(3, 3), opt.Gamma,
                             atol=1e-5 * float(np.abs(opt.Gamma).max()))


@claims.claim("000-zfb-limit", lines=(48, 48), conventions=["C1", "C4"],
              fragment="当 $\\lambda=\\gamma=1,\\sigma_e^2=0$ 时它精确退回平稳设定（Zhang 2024）的已知结论")
def zfb_limit(ctx):
    """At λ = γ = 1, σ_e² = 0 the result reduces exactly to the stationary one of Zhang–Frei–Bartlett (2024): train
    MSE d(d+1)/(n+d+1) (σ_w = 1, no label noise) and Λ̃ = (1 + 1/n)Λ + tr(Λ)/n · I."""
    n_, d_ = sp.symbols("n d", positive=True, integer=True)
    yield rules.identity("stationary train error = d(d+1)/(n+d+1)", gen.stationary_train_error(n_, d_, 1, 0, 0),
                         d_ * (d_ + 1) / (n_ + d_ + 1), scope="SymPy, symbolic n and d, σ_w² = 1, σ_e² = σ² = 0")
    pairs = [(n, d) for n in (5, 20, 100) for d in (1, 3, 10)]
    yield rules.identity("numeric train error at λ = γ = 1 = d(d+1)/(n+d+1)",
                         [gla.train_error(1.0, 1.0, n, d, 1.0, 0.0) for n, d in pairs],
                         [d * (d + 1) / (n + d + 1) for n, d in pairs], rtol=1e-12,
                         scope="n ∈ {5, 20, 100} × d ∈ {1, 3, 10}, float64")
    L = np.diag([2.0, 1.0, 0.5])
    yield rules.identity("Λ̃ = (1 + 1/n)Λ + tr(Λ)/n · I", gla.effective_covariance(1.0, 1.0, 20, L, 1.0, 0.0),
                         (1 + 1 / 20) * L + np.trace(L) / 20 * np.eye(3), rtol=1e-12,
                         scope="Λ = diag(2, 1, 0.5), n = 20, σ_w² = 1, float64")
    yield Derivation(r"\lambda=\gamma=1:\ L^*=" + gen.LATEX["stationary_train_error"] + r",\quad \sigma_w=1,\sigma_e=\sigma=0:\ L^*="
                     + gen.LATEX["zfb"])


# ============================================================================ line 50
@claims.claim("000-thm2-xi", lines=(50, 50), conventions=["C1", "C4", "C5"],
              fragment="把全局最优代回，定理 2 给出训练误差的精确表达式；在 $\\Lambda=I$、$d$ 较大的特例下可约化为 $\\xi(\\lambda)=D_1^2/D_2$")
def thm2_xi(ctx):
    """Theorem 2: the train error has an exact expression; for Λ = I (and large d) it reduces to ξ(λ) = D₁²/D₂."""
    LARGE_D, LARGE_D_RTOL = 10 ** 7, 1e-5     # d·ξ → D₁²/B with relative error O(1/d)
    sz = sizes(ctx)
    Lstar, want, _ = dgl.train_error_pair()
    yield rules.identity("min over Γ of the exact loss (Λ = I_d) = d s_{n+1} + σ² − d D₁²/D₂, D₂ = A₂ + (d+1)B + σ²N₀",
                         Lstar, want, scope="SymPy, symbolic d and sums")
    grid = [(lam, g, d, noise) for lam in (0.2, 0.6, 0.9, 1.0) for g in (0.5, 0.9, 1.0) for d in (1, 10)
            for noise in (0.0, 0.5)]
    lhs = [gla.train_error(lam, g, 50, d, 1.0, 0.05, noise) for lam, g, d, noise in grid]
    rhs = [d * (gla.moment_sums(lam, g, 50, 1.0, 0.05).s_q - gla.xi(lam, g, 50, d, 1.0, 0.05, noise)) + noise
           for lam, g, d, noise in grid]
    yield rules.identity("train error = d (s_{n+1} − ξ) + σ² with ξ = D₁²/D₂", lhs, rhs, rtol=1e-10,
                         scope="n = 50, σ_w² = 1, σ_e² = 0.05, λ ∈ {0.2, 0.6, 0.9, 1}, γ ∈ {0.5, 0.9, 1}, d ∈ {1, 10}, "
                               "σ² ∈ {0, 0.5}, float64")
    yield rules.identity("large d: d ξ → D₁²/B", LARGE_D * gla.xi(0.7, 0.8, N_EXP, LARGE_D, SW2, SE2),
                         gla.xi_large_d(0.7, 0.8, N_EXP, SW2, SE2), rtol=LARGE_D_RTOL,
                         scope=f"λ = 0.7, γ = 0.8, n = {N_EXP}, d = 10⁷, σ_w² = 1, σ_e² = 0.01")
    r = _opt(0.8)
    e = gla.gla_squared_errors(r.lam, 0.8, N_EXP, np.eye(D_EXP), SW2, SE2, n_samples=sz["mc_prompts"],
                               seed=ctx.seed_for("000-thm2/mc"))
    yield selfcheck.agreement(f"recursion MSE = train_error ({EXP}, γ = 0.8, λ*)", batch_estimate(e, sz["mc_batches"]),
                              gla.train_error(r.lam, 0.8, N_EXP, D_EXP, SW2, SE2))
    worst = max(abs(getattr(gla.moment_sums(lam, g, n, 1.3, 0.07, method="direct"), k)
                    / getattr(gla.moment_sums(lam, g, n, 1.3, 0.07, method="auto"), k) - 1)
                for lam in (0.1, 0.5, 0.9) for g in (0.3, 0.8, 0.95) for n in (1, 7, 60) for k in ("D1", "B", "A2", "N0"))
    yield selfcheck.identity("closed-form sums = direct sums", worst, 0.0, atol=1e-9)
    yield Derivation(r"L^*=" + gen.LATEX["train_error"])
    yield Derivation(r"D_1=" + gen.LATEX["D1"] + r",\quad B=" + gen.LATEX["B"])


def _regime_curves(sw2, se2, n, gammas, d=None):
    lams = np.round(np.arange(0.01, 1.0001, 0.01), 10)
    out = []
    for g in gammas:
        xs = lams[np.abs(lams - g) > 1e-9]
        f = [gla.xi_large_d(x, g, n, sw2, se2) if d is None else gla.xi(x, g, n, d, sw2, se2) for x in xs]
        out.append((g, xs, np.asarray(f)))
    return out


@claims.claim("000-monotonicity-regimes", lines=(50, 50), conventions=["C1", "C4"],
              fragment="作者分两种 regime（信号主导 $\\sigma_e\\ll\\sigma_w$、长序列噪声主导）证明 $\\xi(\\lambda)$ 在 $(0,\\gamma)$ 上单调增、在 $(\\gamma,1)$ 上单调减",
              revision={"previous": "confirmed",
                        "why": "the statement is now decided under both readings of its size: the large-d limit "
                               "(confirmed) and the finite d = 10 of the experiments (where the maximiser of ξ is "
                               "below γ); the previous verdict counted only the limit."})
def monotonicity_regimes(ctx):
    """In two regimes (signal-dominated σ_e ≪ σ_w; long sequences dominated by drift noise) ξ(λ) increases on (0, γ)
    and decreases on (γ, 1)."""
    GAMMAS = (0.5, 0.8, 0.95)
    REGIMES = {"signal-dominated (σ_w² ∈ {1, 100}, σ_e² = 0.01, n = 100)": [(1.0, 0.01, 100), (100.0, 0.01, 100)],
               "long sequences, drift noise dominating (σ_w² = 0.01, σ_e² = 1, n = 1000)": [(0.01, 1.0, 1000)]}
    READ = {"d → ∞ (the seed's 'd large' case: d ξ → D₁²/B)": None, f"finite d = {D_EXP}": D_EXP}
    for reading, d in READ.items():
        for name, settings in REGIMES.items():
            inc, dec = [], []
            for sw2, se2, n in settings:
                for g, xs, f in _regime_curves(sw2, se2, n, GAMMAS, d):
                    inc += list(np.diff(f[xs < g]))
                    dec += list(np.diff(f[xs > g]))
            scope = f"{name}, γ ∈ {fmt_grid(GAMMAS)}, λ grid step 0.01, exact"
            yield rules.inequality(f"ξ increases on (0, γ): {name}", inc, ">", 0.0, scope=scope, reading=reading)
            yield rules.inequality(f"ξ decreases on (γ, 1): {name}", dec, "<", 0.0, scope=scope, reading=reading)
    lhs, rhs = dgl.cauchy_schwarz_pair(4)
    yield rules.identity("λ(2D₁′B − D₁B′) = Σ_{k>j} 2(k−j) a_k a_j λ^{k+j}(λ^jγ^k − λ^kγ^j) (sign of the derivative of "
                         "D₁²/B)", lhs, rhs, scope="SymPy, n = 4, symbolic a_k = s_{n+1−k} > 0",
                         reading="d → ∞ (the seed's 'd large' case: d ξ → D₁²/B)")
    yield Derivation(r"\lambda\,(2D_1'B-D_1B')=\sum_{k>j}2(k-j)a_ka_j\lambda^{k+j}(\lambda^j\gamma^k-\lambda^k\gamma^j),\quad a_k=s_{n+1-k}")


@claims.claim("000-inverted-u", lines=(50, 50), conventions=["C1", "C4"],
              fragment="即误差对 $\\lambda$ 呈倒 U 形，最优遗忘因子取在 $\\lambda^*<1$ 而非 $\\lambda=1$",
              revision={"previous": "inconsistent",
                        "why": "the sentence does not contradict another statement of the source; its shape statement "
                               "is false (the error is U-shaped — ξ is the inverted-U curve), decided by the shape "
                               "rule on the exact curves; the λ* < 1 half holds."})
def inverted_u(ctx):
    """The error is an inverted-U function of λ, and the optimal forgetting factor is λ* < 1 rather than λ = 1."""
    GAMMAS = (0.5, 0.8, 0.95)
    for g in GAMMAS:
        for label, se2 in (("σ_e² = 0.01", SE2), ("stationary σ_e² = 1 − γ²", 1 - g * g)):
            lams, err = error_curve(g, se2=se2)
            yield rules.shape(f"the train error is inverted-U in λ (γ = {g}, {label})", lams, err, shape="unimodal-maximum",
                              scope=f"{EXP}, σ_w² = 1, {label} (signal-dominated regime), λ grid 0.01..1 (100 points), exact")
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
    opts = [_opt(g) for g in GAMMAS] + [_opt(g, se2=1 - g * g) for g in GAMMAS]
    yield rules.inequality("λ* < 1 with a lower error than λ = 1", [r.error for r in opts], "<",
                           [r.error_linear_attention for r in opts],
                           scope=f"{EXP}, σ_w² = 1, σ_e² ∈ {{0.01, 1 − γ²}}, γ ∈ {fmt_grid(GAMMAS)}, exact")
    yield Note("For Λ = I the train error is d(s_{n+1} − ξ) + σ² (000-thm2-xi): the error and ξ have mirrored shapes.")


@claims.claim("000-faster-drift-more-forgetting", lines=(50, 50), conventions=["C1", "C4"],
              fragment="漂移越快（$\\gamma$ 越小）越该多遗忘")
def faster_drift_more_forgetting(ctx):
    """The faster the drift (the smaller γ), the more one should forget: λ* increases with γ."""
    for d in (1, D_EXP, 100):
        for label, f in (("σ_e² = 0.01", lambda g: SE2), ("stationary σ_e² = 1 − γ²", lambda g: 1 - g * g)):
            lam = [_opt(g, d=d, se2=f(g)).lam for g in GAMMAS_EXP]
            yield rules.shape(f"λ*(γ) increases (d = {d}, {label})", GAMMAS_EXP, lam, shape="increasing",
                              scope=f"d = {d}, n = {N_EXP}, σ_w² = 1, {label}, γ ∈ {fmt_grid(GAMMAS_EXP)}, exact")


@claims.claim("000-lambda-equals-gamma-not-optimal", lines=(50, 50), conventions=["C1", "C4", "C7"],
              fragment="尽管 $\\lambda,\\gamma$ 在公式里结构对称，最优却不一定取 $\\lambda=\\gamma$")
def lambda_equals_gamma_not_optimal(ctx):
    """Despite the λ/γ symmetry of the formulas, the optimum is not necessarily λ = γ."""
    GAP = 1e-3     # a λ* that differs from γ by more than the optimiser's resolution (≤ 1e-6)
    gs = (0.8, 0.9, 0.95)
    yield rules.inequality("|λ* − γ| > 10⁻³ (λ = γ is not the optimum)", [abs(_opt(g).lam - g) for g in gs], ">", GAP,
                           scope=f"{EXP}, γ ∈ {fmt_grid(gs)}, exact", chosen=CHOSEN_SIGMAS)


@claims.claim("000-thm3-test-error", lines=(50, 50), conventions=["C1", "C4", "C5"],
              fragment="定理 3 进一步把分析延伸到训练/测试分布不同（序列长度、动态、分布都可变）的泛化误差")
def thm3_test_error(ctx):
    """Theorem 3 characterises the test error exactly when the train and test distributions differ (sequence length,
    dynamics, input distribution)."""
    sz = sizes(ctx)
    blocks = dgl.isserlis_blocks(2)["pairs"]
    for name, (got, want) in blocks.items():
        yield rules.identity(f"Isserlis block '{name}' of the loss at any fixed Γ has the closed form", got, want,
                             scope="SymPy, d = 2, symbolic Λ, s_i, ρ_ij, σ² (any test law of the model family)")
    yield Derivation(gen.LATEX["loss"])
    shifts = [("n 20 → 40", (0.7, 0.8, 20, np.eye(3), 1.0, 0.1, 0.0), dict(test_n=40)),
              ("γ 0.8 → 0.95, Λ → diag(2, 1, 0.5)", (0.7, 0.8, 20, np.eye(3), 1.0, 0.1, 0.0),
               dict(test_gamma=0.95, test_Lambda=np.diag([2.0, 1.0, 0.5]))),
              ("σ_w² 1 → 0.3, σ_e² 0.05 → 0.2, σ² 0 → 0.5", (0.9, 0.9, 30, np.eye(2), 1.0, 0.05, 0.0),
               dict(test_sigma_w2=0.3, test_sigma_e2=0.2, test_noise=0.5))]
    for k, (name, (lam, g, n, L, sw2, se2, noise), te) in enumerate(shifts):
        opt = gla.optimal_parameters(lam, g, n, L, sw2, se2, noise)
        exact = gla.test_error(lam, g, n, L, sw2, se2, noise, **te)
        e = gla.gla_squared_errors(lam, te.get("test_gamma", g), te.get("test_n", n), te.get("test_Lambda", L),
                                   te.get("test_sigma_w2", sw2), te.get("test_sigma_e2", se2), te.get("test_noise", noise),
                                   W_KQ=opt.W_KQ, W_V=opt.W_V, n_samples=sz["mc_prompts"],
                                   seed=ctx.seed_for(f"000-thm3/{k}"))
        yield selfcheck.agreement(f"recursion test MSE = exact test error ({name})", batch_estimate(e, sz["mc_batches"]),
                                  exact)


@claims.claim("000-thm3-floor", lines=(50, 50), conventions=["C1", "C4"],
              fragment="并指出由于任务演化噪声的存在，测试误差存在不可约下界")
def thm3_floor(ctx):
    """Because of the task-evolution noise the test error has an irreducible lower bound (σ_e² tr Λ + σ² > 0)."""
    lhs, rhs = [], []
    for g in (0.8, 0.95):
        r = _opt(g)
        for tg in (0.5, 0.8, 0.95, 1.0):
            for tn in (20, 100, 1000, 10000):
                for tse in (0.001, 0.01, 0.1):
                    lhs.append(gla.test_error(r.lam, g, N_EXP, np.eye(D_EXP), SW2, SE2, test_gamma=tg, test_n=tn,
                                              test_sigma_e2=tse))
                    rhs.append(gla.irreducible_floor(np.eye(D_EXP), tse))
    yield rules.inequality("test error ≥ σ_e² tr Λ (train-optimal GLA, any test length and drift)", lhs, ">=", rhs,
                           scope=f"{EXP} in training (γ ∈ {{0.8, 0.95}}, σ_w² = 1, σ_e² = 0.01, λ*), test γ ∈ "
                                 "{0.5, 0.8, 0.95, 1}, test n ∈ {20, 100, 1000, 10000}, test σ_e² ∈ {0.001, 0.01, 0.1}, exact")
    yield rules.inequality("the bound is positive whenever there is drift noise", rhs, ">", 0.0,
                           scope="test σ_e² ∈ {0.001, 0.01, 0.1}, Λ = I_10")
    yield Note("The bound holds for any predictor: the innovation e_{n+1} is independent of the prompt and x_{n+1} "
               "(theorycheck.gla.irreducible_floor).")


# ============================================================================ line 57
@claims.claim("000-experiment-inverted-u", lines=(57, 57), conventions=["C1", "C4", "C5", "C7"],
              fragment="训练/测试损失随 $\\lambda$ 呈倒 U 形，最优 $\\lambda^*<1$")
def experiment_inverted_u(ctx):
    """(d = 10, n = 100) The train and test losses are inverted-U functions of λ, with optimum λ* < 1."""
    LAMS_MC = (0.2, 0.5, 0.8, 1.0)     # Monte Carlo checkpoints of the exact curve
    sz = sizes(ctx)
    for g in (0.8, 0.95):
        lams, err = error_curve(g)
        yield rules.shape(f"train / test loss inverted-U in λ (γ = {g})", lams, err, shape="unimodal-maximum",
                          scope=f"{EXP}, γ = {g}, λ grid 0.01..1 (100 points), exact population loss of the "
                                "train-optimal weights (= the test loss on fresh prompts of the training law)",
                          chosen=CHOSEN_SIGMAS)
        r = _opt(g)
        yield rules.inequality(f"λ* < 1 (γ = {g})", r.lam, "<", 1.0, scope=f"{EXP}, γ = {g}, exact", chosen=CHOSEN_SIGMAS)
        for lam in LAMS_MC:
            e = gla.gla_squared_errors(lam, g, N_EXP, np.eye(D_EXP), SW2, SE2, n_samples=sz["mc_prompts"],
                                       seed=ctx.seed_for(f"000-exp-u/{g}/{lam}"))
            yield selfcheck.agreement(f"test MSE of the recursion = exact loss curve (γ = {g}, λ = {lam})",
                                      batch_estimate(e, sz["mc_batches"]), gla.train_error(lam, g, N_EXP, D_EXP, SW2, SE2))
    yield Note("In the population (train on the law, test on fresh prompts of the same law) the train and the test "
               "loss at a fixed λ are the same function of λ; the Monte Carlo checkpoints test that curve on the "
               "actual recursion.")


_READ_METRIC = {"gain": "need = relative gain of λ* over λ = 1",
                "sensitivity": "need = relative error increase when λ is off by 0.05",
                "forgetting": "need = amount of forgetting 1 − λ*"}
_READ_NOISE = {"drift": "noise = drift noise σ_e² (relative to σ_w²)", "label": "noise = label noise σ²"}


@claims.claim("000-lambda-importance", lines=(57, 57), conventions=["C1", "C4", "C7"],
              fragment="$\\gamma$ 越小、噪声影响越大，越需要合适的 $\\lambda$",
              revision={"previous": "refuted",
                        "why": "'needs an appropriate λ' and 'noise' each have several readings; every combination "
                               "is now decided on its own (3 measures × 2 noises) instead of one measure and one "
                               "noise deciding the claim, and the unstated σ_w², σ_e² are declared as chosen (a "
                               "failure is 'not reproduced')."})
def lambda_importance(ctx):
    """The smaller γ and the larger the noise's influence, the more an appropriate λ is needed."""
    GAMMAS = (0.5, 0.8, 0.9, 0.95, 0.975)
    DRIFT = (0.001, 0.01, 0.1)            # σ_e² with σ_w² = 1
    LABEL = (0.0, 0.1, 1.0)               # σ² with σ_e² = 0.01
    DELTA = 0.05
    base = {g: gla.lambda_importance(g, N_EXP, D_EXP, SW2, SE2, 0.0, DELTA) for g in GAMMAS}
    drift = {(g, s): gla.lambda_importance(g, N_EXP, D_EXP, SW2, s, 0.0, DELTA) for g in (0.8, 0.95) for s in DRIFT}
    label = {(g, s): gla.lambda_importance(g, N_EXP, D_EXP, SW2, SE2, s, DELTA) for g in (0.8, 0.95) for s in LABEL}
    for mk, mtext in _READ_METRIC.items():
        for nk, ntext in _READ_NOISE.items():
            reading = f"{mtext}; {ntext}"
            yield rules.shape(f"the need for λ grows as γ decreases ({mk})", GAMMAS, [base[g][mk] for g in GAMMAS],
                              shape="decreasing", reading=reading, chosen=CHOSEN_SIGMAS,
                              scope=f"{EXP}, γ ∈ {fmt_grid(GAMMAS)}, exact")
            levels, table = (DRIFT, drift) if nk == "drift" else (LABEL, label)
            for g in (0.8, 0.95):
                yield rules.shape(f"the need for λ grows with the {nk} noise (γ = {g}, {mk})", levels,
                                  [table[(g, s)][mk] for s in levels], shape="increasing", reading=reading,
                                  chosen=CHOSEN_SIGMAS,
                                  scope=f"{EXP}, γ = {g}, " + (f"σ_w² = 1, σ_e² ∈ {fmt_grid(levels)}" if nk == "drift"
                                                               else f"σ_e² = 0.01, σ² ∈ {fmt_grid(levels)}") + ", exact")
    yield Note("Measures (theorycheck.gla.lambda_importance): gain = 1 − L*(λ*)/L*(1); sensitivity = "
               "max± L*(λ* ± 0.05)/L*(λ*) − 1; forgetting = 1 − λ*. The seed's model has no label noise (C1); the "
               "label-noise reading extends it.")
