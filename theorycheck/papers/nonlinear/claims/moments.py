r"""Claims of paper 004, seed lines 115–136: task-norm concentration, the effective-rank condition of Result 1 and
the Appendix-B moments, in seed order.
"""
from __future__ import annotations

import numpy as np
import sympy as sp

from ....claims import Clause
from ....gaussian import expect_product
from ....hermite import hermite_h
from ....models.attention import reduced_features
from ....verdicts import Estimate, rules, selfcheck
from ...api import Derivation
from .. import theory as nl
from ..derivations.nonlinear_moments import polynomial_teacher_moments
from ..generated import nonlinear_moments as NM
from ..registry import claims
from ..settings import RANK, RHO, mc_param, params, sizes
from ._helpers import assumption_note, g


# ================================================================================ task norms
@claims.claim("004-task-norm-variance", lines=(115, 117), conventions=["C4"], weight="supporting",
              title="xᵀw ~ N(0, ‖w‖²/d); σ_w has mean tr C/d and variance 2 tr C²/d²",
              clauses=[Clause("c1", r"固定 $\boldsymbol w$ 时,$\boldsymbol x^{\top}\boldsymbol w$ 精确服从 "
                                    r"$\mathcal N(0,\|\boldsymbol w\|^2/d)$,方差并不自动等于 1。"),
                       Clause("c2", r"令 $\sigma_{\boldsymbol w}=\|\boldsymbol w\|^2/d$,对高斯任务有", asserted=False),
                       Clause("c3", r"$$ \mathbb E[\sigma_{\boldsymbol w}]=\frac{\operatorname{tr}(C)}d, \qquad"),
                       Clause("c4", r"\operatorname{Var}(\sigma_{\boldsymbol w}) =\frac{2\operatorname{tr}(C^2)}{d^2}. $$")])
def task_norm_variance(ctx):
    """For fixed w, xᵀw ~ N(0, ‖w‖²/d) exactly (variance not automatically 1); σ_w = ‖w‖²/d has
    E[σ_w] = tr(C)/d and Var(σ_w) = 2 tr(C²)/d² for Gaussian tasks w ~ N(0, C)."""
    D = 3
    w = sp.Matrix(sp.symbols("w0:3", real=True))
    yield rules.identity("Var(xᵀw | w) = wᵀ(I/d)w = ‖w‖²/d", expect_product(sp.eye(D) / D, linear=[w, w]),
                         (w.T * w)[0, 0] / D, clauses="c1", scope="exact (Isserlis), d = 3, symbolic w")
    yield rules.identity("E[(xᵀw)⁴ | w] = 3(‖w‖²/d)²: xᵀw is Gaussian given w, of variance ‖w‖²/d ≠ 1 unless ‖w‖² = d",
                         sp.expand(expect_product(sp.eye(D) / D, linear=[w] * 4)), sp.expand(3 * ((w.T * w)[0, 0] / D) ** 2),
                         clauses="c1", scope="exact (Isserlis), d = 3, symbolic w")
    C = sp.Matrix(3, 3, lambda i, j: sp.Symbol(f"c{min(i, j)}{max(i, j)}", real=True))
    I3 = sp.eye(3)
    m1 = expect_product(C, quadratic=[I3])
    m2 = expect_product(C, quadratic=[I3, I3])
    yield rules.identity("E[wᵀw] = tr C, so E σ_w = tr C/d", m1, C.trace(), clauses="c3",
                         scope="exact (Isserlis), symbolic symmetric 3×3 C")
    yield rules.identity("Var(wᵀw) = 2 tr C², so Var σ_w = 2 tr C²/d²", sp.expand(m2 - m1 ** 2), sp.expand(2 * (C * C).trace()),
                         clauses="c4", scope="exact (Isserlis), symbolic symmetric 3×3 C")
    sz = sizes(ctx)
    dd, n = 64, sz["norm_n"]
    rng = np.random.default_rng(ctx.seed_for("004-task-norm-variance"))
    for r in (1, 4, 64):
        ev = np.r_[np.full(r, dd / r), np.zeros(dd - r)]
        sig = np.sum(rng.standard_normal((n, dd)) ** 2 * ev, axis=1) / dd
        smp = np.column_stack([sig, (sig - 1.0) ** 2])          # E σ_w = tr C/d = 1 exactly
        yield selfcheck.components(f"σ_w mean and variance, rank-{r} C, d = 64 (Monte Carlo)", smp.mean(0),
                                   [1.0, 2 * float(np.sum(ev ** 2)) / dd ** 2], np.cov(smp.T) / n, n=n, df=n - 1)
    yield Derivation(r"\mathbb E[(w^\top w)^2]=(\operatorname{tr}C)^2+2\operatorname{tr}C^2\ \Rightarrow\ "
                     r"\operatorname{Var}(\|w\|^2/d)=2\operatorname{tr}(C^2)/d^2")


_RANK_CLAUSES = [
    Clause("c1", "因此 Result 1 对训练与测试协方差都要求", "condition"),
    Clause("c2", r"$$ \operatorname{tr}(C)=d,\qquad \operatorname{tr}(C^2)=o(d^2). $$", "condition"),
    Clause("c3", "第一条固定总信号强度"),
    Clause("c4", "第二条让范数波动消失"),
    Clause("c5", r"有效秩 $r_{\mathrm{eff}}=(\operatorname{tr}C)^2/\operatorname{tr}(C^2)$ 因而必须发散", "inference"),
    Clause("c6", "例如把全部信号放在固定数量的方向上,不满足此条件"),
    Clause("c7", r"结合 $f$ 至多多项式增长的假设,作者在后续矩计算中渐近地用标准高斯变量替代投影。", asserted=False),
    Clause("c8", "(Result 1,PDF p. 3;Appendix A,PDF p. 7。)", asserted=False)]


@claims.claim("004-effective-rank", lines=(119, 123), conventions=["C2", "C4"], weight="supporting", needs=("rank_runs",),
              title="Result 1 needs tr C = d and tr C² = o(d²), for training and test tasks alike",
              clauses=_RANK_CLAUSES)
def effective_rank(ctx, rank_runs):
    """Result 1 needs tr C = d (E σ_w = 1: the signal strength) and tr C² = o(d²) (Var σ_w = 2/r_eff → 0: the
    norm fluctuation vanishes) for both the training and the test covariance; r_eff must diverge, and putting the
    signal in a fixed number of directions violates the condition (the Hermite reduction with ρ_nl then fails)."""
    d, r = sp.symbols("d r", positive=True)
    trC, trC2 = sp.symbols("trC trC2", positive=True)
    r_eff = trC ** 2 / trC2
    yield rules.identity("tr C = d ⇒ E σ_w = tr C/d = 1 (the signal strength a₁² is fixed)", (trC / d).subs(trC, d), 1,
                         clauses="c3", scope="exact (SymPy)")
    yield rules.identity("tr C = d: Var σ_w = 2 tr C²/d² = 2/r_eff, which → 0 iff tr C² = o(d²)",
                         (2 * trC2 / d ** 2).subs(trC, d), (2 / r_eff).subs(trC, d), clauses=["c4", "c5"],
                         scope="exact (SymPy)")
    yield rules.identity("C = (d/r)·diag(1_r, 0): r_eff = r, so Var σ_w = 2/r does not vanish as d → ∞",
                         (r * d / r) ** 2 / (r * (d / r) ** 2), r, clauses="c6", scope="exact (SymPy), fixed r")
    rnl = float(nl.rho_nonlinear("sin", RHO))
    RS = (1, 2, 4, 16, 64)
    yield rules.inequality("sin, α, τ → ∞: the floor with rank-r test tasks exceeds ρ_nl for fixed r",
                           [nl.rank_floor_sin(x, RHO) for x in RS], ">", rnl, clauses=["c1", "c6"],
                           details={"decisive": True, "quantity": "the α, τ → ∞ error floor with rank-r test tasks "
                                    "(r = 1, 2, 4, 16, 64)", "reference": "ρ_nl, the floor Result 1 predicts"},
                           scope="exact, r ∈ {1, 2, 4, 16, 64}, ρ = 0.1 (the floor depends on the test tasks' norms only)")
    rr, rho = sp.Symbol("r", positive=True), sp.Rational(1, 10)
    floor_r = rho + sp.S.Half - (1 + 4 / rr) ** (-rr / 2) / 2 - (1 + 2 / rr) ** (-rr / 2 - 1)
    yield rules.identity("the rank-r floor tends to ρ_nl as r → ∞", sp.limit(floor_r, rr, sp.oo),
                         nl.rho_nonlinear("sin", RHO), clauses="c5", scope="exact (SymPy limit of the closed form below)")
    sz = sizes(ctx)
    rng = np.random.default_rng(ctx.seed_for("004-effective-rank/floor"))
    for x in (1, 4):
        yield selfcheck.agreement(f"rank-{x} floor formula vs Monte Carlo (σ² ~ Γ, Gauss–Hermite inner means)",
                                  Estimate.from_samples(nl.rank_floor_samples("sin", x, RHO, sz["floor_mc_n"], rng)),
                                  nl.rank_floor_sin(x, RHO))
    yield from _rank_simulation(ctx, sz, rnl, rank_runs)
    yield Derivation(r"e_\infty(r)=\rho+\mathbb E_{\sigma}\big[\mathbb E\sin^2(\sigma g)-(\mathbb E\,g\sin(\sigma g))^2\big]"
                     r"=\rho+\tfrac12-\tfrac12(1+4/r)^{-r/2}-(1+2/r)^{-r/2-1},\ \sigma^2\sim\Gamma(\tfrac r2,\tfrac2r)")


def _rank_simulation(ctx, sz, rnl, runs):
    """Actual model with rank-1 training tasks, test tasks or both, against isotropic tasks on shared draws
    (``runs``: :func:`~.fixtures.rank_runs`): does the deviation from Result 1 (general-covariance form a₁²C)
    change (two-sided, ≠ 0; equivalence within the 5 % margin of 004-result1 would refute)?"""
    MARGIN_REL = 0.05
    P = params(ctx)
    d, T = sz["rank_d"], sz["rank_trials"]
    a1sq = float(nl.teacher_moments(RANK["f"])["a1"]) ** 2
    dev = {}
    for lab, r in runs.items():
        th = nl.e_icl_linear_general(RANK["tau"], RANK["alpha"], RANK["kappa"], rnl, a1sq * r["C_train"],
                                     a1sq * r["C_test"])
        dev[lab] = (r["trials"] - th, th)
    ps = [P["rho"], P["rank_setting"], P["rank_d"], P["lambda0"], mc_param(T, sz["ntest"])]
    for lab in ("both", "training", "test"):
        est = Estimate.from_samples(dev[lab][0] - dev["isotropic"][0])
        yield rules.difference(f"rank-1 {lab} tasks: the model's deviation from Result 1 differs from the isotropic "
                               "one (≠ 0; within ±5 % of Result 1 would refute)", est, 0.0,
                               margin=MARGIN_REL * dev["isotropic"][1], clauses=["c1", "c2", "c6"], params=ps,
                               details={"quantity": f"the change of the model's deviation from Result 1 with rank-1 "
                                                    f"{lab} covariance{'s' if lab == 'both' else ''}"},
                               scope=f"sin, d = {d}, α = 32, τ = 16, κ = ∞, ρ = 0.1, {T} paired trials; rank-1 C = "
                                     f"d·e₁e₁ᵀ for the {lab} covariance{'s' if lab == 'both' else ''}, Result 1 in its "
                                     "general-covariance form with a₁²C")


# ================================================================================ Appendix B
_APPB_CLAUSES = [
    Clause("c1", r"将输入分成平行于 $\boldsymbol w$ 与垂直于它的两部分,独立高斯噪声和垂直分量均不贡献平均相关。"),
    Clause("c2", r"取 $\omega=\|\boldsymbol w\|^2/d\to1$ 后:", "condition"),
    Clause("c3", r"$$ \mathbb E[y\boldsymbol x\mid\boldsymbol w] \approx\frac{\boldsymbol w}{d}\mathbb E[g f(g)] "
                 r"=\frac{a_1\boldsymbol w}{d}, \qquad \mathbb E[\boldsymbol u\mid\boldsymbol w]\approx a_1\boldsymbol w. $$"),
    Clause("c4", "因此上下文相关向量的平均方向只看见一阶 Hermite 系数。", "inference"),
    Clause("c5", r"另一方面,有限长度上下文中的波动仍然受到全部标签能量 $\rho_f$ 影响。"),
    Clause("c6", r"论文 Appendix B 的主导矩,在 $\omega\to1$ 后可写为", "condition"),
    Clause("c7", r"$$ \mathbb E[y^2\mid\boldsymbol w]\approx\rho_f, \qquad \mathbb E[y_{\mathrm{test}}H\mid\boldsymbol w] "
                 r"\approx\frac1d[a_1^2\boldsymbol w\boldsymbol w^{\top},\ a_1\rho_f\boldsymbol w], $$"),
    Clause("c8", r"$$ \mathbb E[\boldsymbol h\boldsymbol h^{\top}\mid\boldsymbol w] \approx\frac1d I_d\otimes "
                 r"\begin{bmatrix} \dfrac{\rho_f}{\alpha}I_d+a_1^2\boldsymbol w\boldsymbol w^{\top}&a_1\rho_f\boldsymbol w"
                 r"\\ a_1\rho_f\boldsymbol w^{\top}&\rho_f^2 \end{bmatrix}. $$"),
    Clause("c9", "最后一式采用原文的向量化排列;换一种排列只会相应置换坐标。"),
    Clause("c10", r"$\rho_f/\alpha$ 项说明更长上下文可以减弱统计量噪声", "inference"),
    Clause("c11", r"$a_1^2\boldsymbol w\boldsymbol w^{\top}$ 是任务信号结构。", asserted=False),
    Clause("c12", r"原推导还写出了涉及 $\mathbb E[g^2f(g)^2]$、$\mathbb E[gf(g)^3]$、$\mathbb E[f(g)^4]$ 的有限 $\ell$ "
                  "修正,并在主导极限中省略。"),
    Clause("c13", "(Appendix B,PDF pp. 8–9,Eqs. (12)–(14)。)", asserted=False)]


@claims.claim("004-appendix-b-moments", lines=(127, 136), conventions=["C1", "C2"], weight="supporting",
              title="Appendix B: only a₁ enters E[u | w]; the leading second moments of the features",
              clauses=_APPB_CLAUSES)
def appendix_b_moments(ctx):
    """E[yx | w] ≈ a₁w/d and E[u | w] ≈ a₁w (only the first Hermite coefficient); E[y² | w] ≈ ρ_f;
    E[y_test H | w] ≈ (1/d)[a₁² wwᵀ, a₁ρ_f w]; E[hhᵀ | w] ≈ (1/d) I_d ⊗ [[ρ_f/α I + a₁² wwᵀ, a₁ρ_f w],
    [a₁ρ_f wᵀ, ρ_f²]] (another vectorisation permutes coordinates); the finite-ℓ corrections (with E[g²f²], E[gf³],
    E[f⁴]) vanish in the leading limit."""
    pm = polynomial_teacher_moments()
    scope = "exact (Isserlis), f = g³ − g + 1/2 (a₀, a₁ ≠ 0), d = 3, ‖w‖² = d, symbolic ρ"
    where = {"E[y x | w] = a1 w/d": ["c1", "c2", "c3"], "E[y^2 | w] = rho_f": ["c6", "c7"]}
    for name, pair in pm.items():
        if not name.startswith("_"):
            yield rules.identity(name, pair[0], pair[1], clauses=where.get(name, ["c6", "c8"]), scope=scope)
    b = sp.symbols("b0:8", real=True)
    f_h = sum(bi * hermite_h(i, g) for i, bi in enumerate(b))
    yield rules.identity("E[t f(t)] = b₁ for every f = Σ_{m≤7} b_m h_m: E[u | w] = a₁w sees the first Hermite "
                         "coefficient only", nl.polynomial_expectation(g * f_h, g), b[1], clauses="c4",
                         scope="exact (SymPy), symbolic Hermite coefficients b₀..b₇ (every other b_m drops out)")
    a1, rf, al, d = sp.symbols("a1 rho_f alpha d", positive=True)
    m22, m31, m4 = sp.symbols("mu22 mu31 mu4", real=True)
    w = sp.Matrix(sp.symbols("w0:3", real=True))
    yield rules.identity("E[u | w] = (d/ℓ)·ℓ·E[yx | w] = a₁w", d * (a1 * w / d), a1 * w, clauses="c3", scope="exact (SymPy)")
    yield rules.identity("E[|P⊥u|²]/(d − 1) = ρ_f/α: the fluctuation of u carries the whole label energy ρ_f",
                         NM.Euu_identity(al, rf), rf / al, clauses="c5", scope="generated exact moments (ℓ = αd)")
    yield rules.identity("E[y_test H | w] = E[y_test x_test]·E[[uᵀ, s]] = (1/d)[a₁² wwᵀ, a₁ρ_f w]",
                         (a1 * w / d) * (a1 * w.T).row_join(sp.Matrix([[rf]])),
                         (a1 ** 2 * w * w.T).row_join(a1 * rf * w) / d, clauses="c7",
                         scope="exact (SymPy), x_test ⟂ context")
    yield rules.inequality("the ρ_f/α term decreases with α (ρ_f = 0.532, α ∈ {1, 2, 4, 8})",
                           list(np.diff([NM.Euu_identity(a, 0.532) for a in (1.0, 2.0, 4.0, 8.0)])), "<", 0.0,
                           clauses="c10", scope="generated exact moments")
    ell = al * d
    lead = {"E[s²]: (μ₄ − ρ_f²)/ℓ relative to ρ_f²": ((m4 - rf ** 2) / ell) / rf ** 2,
            "E[u s]: (μ₃₁ − a₁ρ_f)/ℓ relative to a₁ρ_f": ((m31 - a1 * rf) / ell) / (a1 * rf),
            "E[uuᵀ] along w: (μ₂₂ − ρ_f − a₁²)/(αd) relative to a₁²‖w‖²/d": ((m22 - rf - a1 ** 2) / ell) / a1 ** 2}
    for name, rel in lead.items():
        yield rules.identity(f"finite-ℓ correction vanishes as d → ∞: {name}", sp.limit(rel, d, sp.oo), 0,
                             clauses="c12", scope="exact (SymPy), ℓ = αd")
    yield from _vectorisation(ctx)
    yield from _appendix_b_selfchecks(ctx)
    yield assumption_note("004-appendix-b-moments")
    for key in ("Euu", "Eus", "Ess", "EyH", "Ehh", "mus"):
        yield Derivation(NM.LATEX[key])


def _vectorisation(ctx):
    """h = vec(x_test zᵀ) row-major is x_test ⊗ z; column-major is z ⊗ x_test = K (x_test ⊗ z) with a permutation K,
    so E[hhᵀ] changes to K E[hhᵀ] Kᵀ: the same entries, permuted."""
    rng = np.random.default_rng(ctx.seed_for("004-appendix-b-moments/feature-map"))
    X, Z = rng.standard_normal((5, 3)), rng.standard_normal((5, 4))
    yield rules.identity("h = vec(x_test[uᵀ, s]) = x_test ⊗ [u; s] (so E[hhᵀ] = E[xxᵀ] ⊗ E[zzᵀ] = (1/d) I ⊗ E[zzᵀ])",
                         reduced_features(X, Z[:, :3], Z[:, 3]), np.stack([np.kron(x, z) for x, z in zip(X, Z)]),
                         rtol=1e-15, clauses="c8", scope="the model's feature map (row-major vectorisation)")
    K = np.zeros((12, 12))
    for i in range(3):
        for j in range(4):
            K[j * 3 + i, i * 4 + j] = 1.0
    H = reduced_features(X, Z[:, :3], Z[:, 3])
    yield rules.identity("column-major features z ⊗ x_test = K·(row-major features), K a permutation matrix",
                         H @ K.T, np.stack([np.kron(z, x) for x, z in zip(X, Z)]), rtol=1e-15, clauses="c9",
                         scope="the model's feature map, 5 random (x_test, z), d = 3; K has one 1 per row and column")


def _appendix_b_selfchecks(ctx):
    sz = sizes(ctx)
    for f in ("sin", "relu"):
        for method in ("direct", "projected"):
            rng = np.random.default_rng(ctx.seed_for(f"004-appendix-b/{f}/{method}"))
            names, smp, exact = nl.appendix_b_samples(f, sz["mom_d"], 2.0, RHO, sz["mom_n"], rng, method=method)
            n = smp.shape[0]
            yield selfcheck.components(f"{f}: {len(names)} exact finite-ℓ moment projections vs Monte Carlo "
                                       f"({method} contexts, d = {sz['mom_d']}, α = 2, {n} prompts)",
                                       smp.mean(0), exact, np.cov(smp.T) / n, n=n, df=n - 1)
