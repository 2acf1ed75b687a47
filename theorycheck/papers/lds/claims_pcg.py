r"""Claims of paper 001 on the AR(s) attention and its PCG reading (seed lines 66–70), in seed order: s ≥ 2 is not GD,
the block structure of Eq. 16, the predictor form of Eq. 17, two PCG steps (Eq. 18) and the measured cosines.
Registered through :mod:`.claims` (after :mod:`.claims_theorem41`)."""
from __future__ import annotations

import numpy as np

from ...models.attention import attention_predict
from ...verdicts import Estimate, rules
from ..api import Derivation, Note
from .derivations import lds_identities as dli
from .generated import lds_identities as gi
from .reconciliation import P_RESIDUAL_MARGIN
from .registry import claims
from .settings import config, prior, prior_scope, recipe_chosen, rng_for, test_set
from .theory.gd import best_gd_step, exact_halved_loss, exact_loss_gradient, gd_step_weights
from .theory.pcg import pcg_quantities, span_residuals
from .theory.wqk import wqk_star

__all__ = ["sge2_not_gd", "eq16_block_structure", "eq17_form", "eq18_pcg_form", "pcg_cosines", "pcg_p_residual",
           "pcg_covers_ar1"]


# ============================================================================ lines 66–70 (AR(s), PCG)
@claims.claim("001-sge2-not-gd", lines=(66, 66), fragment="最优权重不再实现标准 GD", needs=("ar2_moments",),
              conventions=["C3", "C4", "C6"])
def sge2_not_gd(ctx, ar2_moments):
    """For s ≥ 2 the optimal weights no longer implement standard gradient descent: already for s = 2 some weights
    have a strictly lower loss than the best one-step GD predictor."""
    REL_DECREASE = 1e-6      # the loss decrease must exceed floating-point rounding of the exact loss (relative)
    m = ar2_moments
    eta, L_gd = best_gd_step(2, m)
    W, V = gd_step_weights(2, eta)
    gW, gV = exact_loss_gradient(W, V, m)
    g2 = float(np.sum(gW ** 2) + np.sum(gV ** 2))
    steps = [L_gd / g2 * 0.5 ** k for k in range(40)]
    losses = [exact_halved_loss(W - t * gW, V - t * gV, m) for t in steps]
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
    rng = rng_for(ctx, "eq17")
    _, Y = test_set(ctx, "b", 20, 500, "eq17-data")
    W, V = rng.standard_normal((2, 5, 5))
    q = pcg_quantities(W, V, Y)
    yield rules.identity("s = 4: forward pass = Eq. 17 form (numeric)", q["pred_att"], attention_predict(W, V, Y),
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
    rng = rng_for(ctx, "eq18")
    for s in (2, 3, 4):
        _, Y = test_set(ctx, "b", 20, 200, f"eq18-data-{s}")
        W, V = rng.standard_normal((2, s + 1, s + 1))
        q = pcg_quantities(W, V, Y)
        res, coef = span_residuals(q)
        Pg = q["g0"] @ q["P"].T
        scope = f"s = {s}, T = 20, random weights, 200 prompts of {prior_scope('b')}"
        yield rules.identity(f"s = {s}: 2-step PCG iterate ∈ span{{P∇L(0), P∇²L P∇L(0)}} (relative residual 0)",
                             res, np.zeros(len(res)), atol=TOL, scope=scope)
        xi1 = -V[s, s]
        second17 = xi1 * Pg
        second18 = coef[:, 0][:, None] * Pg
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
    _, Y = test_set(ctx, "a", T, 500, "pcg-ar1")
    rng = rng_for(ctx, "pcg-ar1-weights")
    W, V = rng.standard_normal((2, 2, 2))
    q = pcg_quantities(W, V, Y)
    H, g0 = q["H"][:, 0, 0], q["g0"][:, 0]
    scope = f"s = 1, T = {T}, 500 prompts of {prior_scope('a')}"
    yield rules.identity("s = 1: 2-step PCG iterate = GD step −∇L(0)/∇²L", q["w_pcg"][:, 0], -g0 / H, rtol=RTOL,
                         scope=scope + ", random weights")
    w = wqk_star(T, prior("a")).value
    q1 = pcg_quantities(*gd_step_weights(1, w), Y)
    yield rules.identity("s = 1: attention predictor at the Theorem 4.1 weights = GD step −W*∇L(0)", q1["w_att"][:, 0],
                         -w * g0, rtol=RTOL, scope=scope + ", Theorem 4.1 weights")
