r"""Claims of paper 004, seed lines 6–81 (metadata, the contribution, the data ratios, the predictor and its ridge
fit), in seed order. Each claim quotes its seed lines (and fragment), splits the fragment into clauses, declares its
margins, resolutions and parameters before computing its evidence, and hands the evidence to the verdict rules.
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp
from scipy.optimize import minimize_scalar

from ....claims import Clause
from ....models.attention import reduced_features
from ....models.prompts import draw_tasks
from ....models.ridge import fit_prefixes, fit_prefixes_factored
from ....verdicts import rules, selfcheck
from ...api import Derivation, Note, Remedy
from .. import theory as nl
from ..registry import claims
from ..fixtures import log_grid
from ..settings import RHO, params
from ._helpers import g, gauss_E, gauss_E_poly, gauss_E_relu


# ================================================================================ overview
@claims.claim("004-metadata", lines=(6, 10), title="Bibliographic record, venue and code availability",
              weight="supporting")
def metadata(ctx):
    """Authors, arXiv 2610.10761v1 (submitted 2026-10-07), acceptance at the NeurIPS 2026 PriGM workshop,
    and an authors' repository that holds only a README."""
    yield rules.underspecified("bibliographic record, venue and code availability",
                               missing=["arXiv record / PDF of 2610.10761v1", "the workshop's acceptance list",
                                        "the state of the authors' single-index-icl repository"],
                               scope="offline toolkit (no network access); nothing here enters the mathematics")


_FLOOR = "预训练序列更多、上下文更长、训练任务更多,可以改善一阶分量的估计,却不能消除当前预测器无法表达的非线性残差"


#: The two readings of 004-floor's c1 (issue 29, class 1): 可以 (can) is a modal of capability; it does not restrict
#: which increases the sentence speaks of, so the universal reading is not ruled out by the sentence's words and votes.
CAN, EVERY = "can: some increase of each ratio lowers the error", "every increase of each ratio lowers the error"


@claims.claim("004-floor", lines=(18, 18), fragment=_FLOOR, conventions=["C2", "C3"], weight="main",
              needs=("floor_search",),
              title="More data improves the first-order estimate but cannot remove the nonlinear residual",
              clauses=[Clause("c1", "预训练序列更多、上下文更长、训练任务更多,可以改善一阶分量的估计"),
                       Clause("c2", "却不能消除当前预测器无法表达的非线性残差")],
              readings={CAN: "votes", EVERY: "votes"})
def floor(ctx, floor_search):
    """More pretraining sequences (τ), longer contexts (α) and more tasks (κ) lower the estimation error of the
    first-order component (Result 1) — read as "some increase of each does" and as "every increase of each does" in
    the stated ridgeless model — but no predictor linear in the query goes below ρ_nl: e_ICL > ρ_nl at every finite
    (τ, α, κ), e_ICL → ρ_nl only in the limit."""
    RESOLUTION = 0.05          # of ln α, ln κ, ln τ: the grids resolve a change of 5 % in each ratio
    LIMIT_TOL = 1e-6           # the residual of Result 1 at τ = α = 1e9 is O(1/α) ≈ 1e-9
    P = params(ctx)
    ps = [P["rho"], P["lambda0"]]
    yield from _floor_improves(RESOLUTION, ps)
    yield from _floor_monotone_search(floor_search, ps)
    beta, r2 = sp.symbols("beta r2", real=True)
    relu = sp.Piecewise((g, g > 0), (0, True))
    for name, f, E in (("sin", sp.sin(g), gauss_E), ("ReLU", relu, lambda x: gauss_E_relu(x, relu))):
        rnl = nl.rho_nonlinear("sin" if name == "sin" else "relu", RHO)
        a1 = nl.teacher_moments("sin" if name == "sin" else "relu")["a1"]
        mse = gauss_E_poly((f - beta * g) ** 2, beta, E) + sp.Rational(1, 10) + r2
        yield rules.identity(f"{name}: every predictor linear in the query (x_testᵀv, v = βw/‖w‖·√d + v⊥) has "
                             "test MSE ρ_nl + (β − a₁)² + ‖v⊥‖²/d ≥ ρ_nl", mse, rnl + (beta - a1) ** 2 + r2,
                             clauses="c2", params=ps, scope="exact (SymPy) for every β and ‖v⊥‖² = r2 ≥ 0, ‖w‖² = d "
                             "(ω = 1), ρ = 1/10: a bound over the whole predictor class, whatever the data")
    GRID = [(t, a, k) for t in (0.5, 2.0, 10.0, 100.0) for a in (1.0, 10.0, 100.0) for k in (0.5, 2.0, math.inf)]
    for f in ("sin", "tanh", "relu"):
        rnl = float(nl.rho_nonlinear(f, RHO))
        yield rules.inequality(f"{f}: e_ICL > ρ_nl at every grid point", [nl.e_icl_nonlinear(f, *x, RHO) for x in GRID],
                               ">", rnl, clauses="c2", params=ps,
                               scope="Result 1 (exact), τ ∈ {0.5, 2, 10, 100}, α ∈ {1, 10, 100}, κ ∈ {0.5, 2, ∞}")
        yield rules.identity(f"{f}: e_ICL → ρ_nl as τ, α, κ → ∞", nl.e_icl_nonlinear(f, 1e9, 1e9, math.inf, RHO), rnl,
                             atol=LIMIT_TOL, rtol=0.0, clauses="c2", params=ps, scope="Result 1 at τ = α = 1e9, κ = ∞")
    yield Note("Clause c2 («不能消除», cannot remove) is a negative decided by a proof over the whole class it "
               "quantifies (every predictor linear in the query), not by a search.")
    yield Derivation(r"\mathbb E[(f(g)+\varepsilon-\beta g)^2]+\tfrac{\|v_\perp\|^2}d=\rho_{\rm nl}+(\beta-a_1)^2"
                     r"+\tfrac{\|v_\perp\|^2}d\ \ge\ \rho_{\rm nl}")


def _floor_improves(resolution, ps):
    """Clause c1 under the reading "can" (some increase lowers the error): the error falls with each ratio in a
    regime, on ln-grids at the declared resolution; the optimal context length found by optimisation."""
    alphas, kappas, taus = log_grid(0.1, 1000.0, resolution), log_grid(0.1, 100.0, resolution), \
        log_grid(1.02, 1000.0, resolution)
    yield rules.shape("sin: more context (α) lowers the error at κ = ∞ (τ = 2)", np.log(alphas),
                      [nl.e_icl_nonlinear("sin", 2.0, a, math.inf, RHO) for a in alphas], shape="decreasing",
                      resolution=resolution, clauses="c1", params=ps, reading=CAN, details={"x_name": "ln α"},
                      scope="Result 1 (exact), x = ln α, α ∈ [0.1, 1000], τ = 2, κ = ∞, ρ = 0.1")
    res = minimize_scalar(lambda la: nl.e_icl_nonlinear("sin", 2.0, math.exp(la), 0.5, RHO),
                          bounds=(math.log(0.1), math.log(1000.0)), method="bounded", options={"xatol": 1e-6})
    yield rules.shape(f"sin: with few tasks (κ = 0.5) more context lowers the error up to α* = {math.exp(res.x):.4g} "
                      "(optimisation), then raises it", np.log(alphas),
                      [nl.e_icl_nonlinear("sin", 2.0, a, 0.5, RHO) for a in alphas], shape="unimodal-minimum",
                      resolution=resolution, clauses="c1", params=ps, reading=CAN,
                      details={"alpha_star": math.exp(res.x), "error_at_alpha_star": float(res.fun), "x_name": "ln α"},
                      scope="Result 1 (exact), x = ln α, α ∈ [0.1, 1000], τ = 2, κ = 0.5, ρ = 0.1")
    yield rules.shape("sin: more tasks (κ) lower the error (τ = 2, α = 2)", np.log(kappas),
                      [nl.e_icl_nonlinear("sin", 2.0, 2.0, k, RHO) for k in kappas], shape="decreasing",
                      resolution=resolution, clauses="c1", params=ps, reading=CAN, details={"x_name": "ln κ"},
                      scope="Result 1 (exact), x = ln κ, κ ∈ [0.1, 100], τ = 2, α = 2, ρ = 0.1")
    yield rules.shape("sin: more sequences (τ) lower the error above the interpolation threshold (α = κ = 2)",
                      np.log(taus), [nl.e_icl_nonlinear("sin", t, 2.0, 2.0, RHO) for t in taus], shape="decreasing",
                      resolution=resolution, clauses="c1", params=ps, reading=CAN, details={"x_name": "ln τ"},
                      scope="Result 1 (exact), x = ln τ, τ ∈ [1.02, 1000], α = κ = 2")


_SEARCH_WORDS = {"α": ("more context never raises the error (at every τ, κ)", "beyond an optimal α the error rises "
                       "(the k < d training tasks are fitted ever more precisely and the predictor specialises to "
                       "them)"),
                 "κ": ("more tasks never raise the error (at every τ, α)", "more tasks raise the error of short "
                       "contexts"),
                 "τ < 1": ("more sequences never raise the error below the threshold (at every α, κ)", "more "
                           "sequences raise the error towards the interpolation peak at τ = 1")}


def _floor_monotone_search(runs, ps):
    """Clause c1 under the reading "every increase lowers the error": for each ratio, a search for rises of the error
    along it over a grid of the other two (fixture :func:`..fixtures.floor_search`, Result 1, sin, exact), with the
    extent of the counterexamples; then the repair the searches show (:class:`Remedy`). The search along τ > 1 only
    feeds the repair: a search that finds nothing cannot confirm a universal, and the reading «every» is decided by the
    other three."""
    bound, count = {}, {"τ > 1": (len(runs["τ > 1"]["found"]), runs["τ > 1"]["tried"])}
    for axis, (statement, why) in _SEARCH_WORDS.items():
        r = runs[axis]
        (lo, hi), (u, v) = r["range"], r["others"]
        found, tried = len(r["found"]), r["tried"]
        vmax = max((w[1] for w in r["found"]), default=0.0)
        bound[axis], count[axis] = vmax, (found, tried)
        rise = max(r["rise"], default=1.0)
        yield rules.search(f"sin: {statement}", found, tried, reading=EVERY, clauses="c1", params=ps,
                           details={"first_increase": [list(w) for w in r["found"][:12]],
                                    "magnitude": f"the error rises by up to a factor {rise:.3g} along {axis.split()[0]}",
                                    "decisive": axis == "α"},
                           extent={"searched": {axis.split()[0]: [lo, hi], u: [0.1, 100.0], v: [0.1, 100.0]},
                                   "holds_throughout": not found,
                                   "fails": (f"at all {tried} ({u}, {v}) points: {why}" if found == tried else
                                             f"at {found} of {tried} ({u}, {v}) points, all with {v} ≤ {vmax:.3g}: "
                                             f"{why}") if found else "nowhere on the grid",
                                   "holds": f"at the other points of the grid (ln step {r['step']:g} along "
                                            f"{axis.split()[0]})"},
                           scope=f"Result 1 (exact), {axis.split()[0]} ∈ [{lo:g}, {hi:g}] (ln step {r['step']:g}) at "
                                 f"every ({u}, {v}) of a ln-grid on [0.1, 100]" + (" and κ = ∞" if v == "κ" else ""))
    if bound["α"] and bound["κ"] and count["τ < 1"][0] and not count["τ > 1"][0]:
        yield Remedy("say where more data helps: more sequences lower the error above the interpolation threshold "
                     "τ = {t} (no rise at the {n} (α, κ) points searched) and raise it below it; longer contexts help "
                     "only with enough tasks (they raise the error at grid points with κ up to {k}), more tasks only "
                     "with long enough contexts (rises at grid points with α up to {a})",
                     t=1.0, n=count["τ > 1"][1], k=bound["α"], a=bound["κ"], clauses=["c1"])


# ================================================================================ setup
@claims.claim("004-scalings", lines=(51, 59), conventions=["C4"], weight="supporting",
              title="Three distinct data ratios α, κ, τ and about d² parameters",
              clauses=[Clause("c0", "符号含义高维比例主要作用", asserted=False),
                       Clause("c1", "$d$输入维度基础尺度预测器参数量约为 $d^2$", "number"),
                       Clause("c2", r"$\ell$每条 prompt 的上下文例子数$\alpha=\ell/d$当前任务统计量的估计质量",
                              asserted=False),
                       Clause("c3", r"$k$不同预训练任务数$\kappa=k/d$训练任务覆盖的方向", asserted=False),
                       Clause("c4", r"$n$预训练序列总数$\tau=n/d^2$跨任务参数拟合的样本负载", asserted=False),
                       Clause("c5", r"$\rho$标签噪声方差—观测噪声,不是标准差", asserted=False),
                       Clause("c6", r"$\lambda$岭正则参数主结果取 $\lambda\to0$控制参数估计与插值行为"),
                       Clause("c7", "三种比例不能互相替代", "negative"),
                       Clause("c8", r"例如增加同一批任务的训练序列会增大 $\tau$,却不增加 $\kappa$"),
                       Clause("c9", r"主分析取 $d\to\infty$,同时保持 $\alpha,\kappa,\tau$ 为常数量级", asserted=False),
                       Clause("c10", "(Eq. (3),PDF p. 2。)", asserted=False)])
def scalings(ctx):
    """α = ℓ/d, κ = k/d, τ = n/d² are distinct ratios; the predictor has about d² parameters (exactly d(d+1)); λ
    controls the interpolation behaviour; the ratios cannot replace one another — more sequences of the same tasks
    raise τ but not κ."""
    P = params(ctx)
    d = sp.Symbol("d", positive=True)
    counts = [reduced_features(np.zeros((1, dd)), np.zeros((1, dd)), np.zeros(1)).shape[1] for dd in (3, 4, 5, 8)]
    yield rules.identity("feature count of the model = d(d+1) (d = 3, 4, 5, 8)", counts,
                         [dd * (dd + 1) for dd in (3, 4, 5, 8)], clauses="c1",
                         scope="theorycheck.models.attention.reduced_features")
    yield rules.identity("d(d+1)/d² → 1 (about d² parameters)", sp.limit(d * (d + 1) / d ** 2, d, sp.oo), 1,
                         clauses="c1", scope="exact (SymPy)")
    yield rules.inequality("λ → 0 gives the interpolation peak: the ridgeless error at τ = 1 ∓ 1e-6 exceeds 1e4",
                           [nl.e_icl_linear(t, 2.0, 2.0, RHO) for t in (1 - 1e-6, 1 + 1e-6)], ">", 1e4, clauses="c6",
                           params=[P["rho"]], scope="linear-teacher theory (exact), α = κ = 2, ρ = 0.1")
    yield rules.inequality("λ controls it: with λ ∈ {1e-3, 0.1} the error at τ = 1 stays below 10",
                           [nl.e_icl_linear(1.0, 2.0, 2.0, RHO, lam) for lam in (1e-3, 0.1)], "<", 10.0, clauses="c6",
                           params=[P["rho"]], scope="linear-teacher theory (exact), α = κ = 2, ρ = 0.1, τ = 1")
    rng = np.random.default_rng(ctx.seed_for("004-scalings/sampler"))
    dd, k = 8, 12
    tasks = draw_tasks(rng, k, dd, None, False)
    for n in (96, 384):
        Wp = tasks[np.arange(n) % k]
        distinct = len({tuple(w) for w in Wp})
        yield rules.identity(f"n = {n} prompts of the same k = {k} tasks: τ = n/d² = {n / dd ** 2:g}, κ = (distinct "
                             f"tasks)/d = {k / dd:g}", [n / dd ** 2, distinct / dd], [n / dd ** 2, k / dd], clauses="c8",
                             scope="the model's round-robin task assignment (theorycheck.models.prompts.draw_tasks), "
                                   "d = 8")
    TAU_INF, A_INF = 1e8, 1e8
    e_k, e_inf = nl.e_icl_linear(TAU_INF, A_INF, 0.5, RHO), nl.e_icl_linear(TAU_INF, A_INF, math.inf, RHO)
    yield rules.inequality("no number of sequences or context length replaces task diversity: e(τ, α → ∞, κ = 0.5) "
                           "> e(τ, α → ∞, κ = ∞) + 0.4", e_k, ">", e_inf + 0.4, clauses="c7", params=[P["rho"]],
                           details={"decisive": True, "quantity": "the error with few tasks, e(τ, α → ∞, κ = 0.5)",
                                    "reference": "the error with unlimited tasks plus 0.4"},
                           scope="linear-teacher theory (exact), τ = α = 1e8, ρ = 0.1 (the limit ρ + (1 − κ))")
    yield rules.inequality("no context length replaces sequences: e(τ = 0.5, α, κ → ∞) > e(τ, α, κ → ∞)",
                           nl.e_icl_linear(0.5, A_INF, math.inf, RHO), ">", nl.e_icl_linear(TAU_INF, A_INF, math.inf, RHO),
                           clauses="c7", params=[P["rho"]], scope="linear-teacher theory (exact), κ = ∞, ρ = 0.1, α = 1e8")


# ================================================================================ the predictor and its fit
_PRED_CLAUSES = [
    Clause("c1", r"$$ \boldsymbol u=\frac d\ell\sum_{i=1}^{\ell}y_i\boldsymbol x_i\in\mathbb R^d, \qquad "
                 r"s=\frac1\ell\sum_{i=1}^{\ell}y_i^2\in\mathbb R. $$", asserted=False),
    Clause("c2", "前者是标签与输入的经验相关,后者是标签的经验二阶矩。论文构造", asserted=False),
    Clause("c3", r"$$ H=\boldsymbol x_{\mathrm{test}}[\boldsymbol u^{\top},s] \in\mathbb R^{d\times(d+1)},\qquad "
                 r"\widehat y_{\mathrm{test}}=\langle\Gamma,H\rangle_F. $$", asserted=False),
    Clause("c4", r"本次分析中的展开:若将参数写成 $\Gamma=[A,\boldsymbol b]$,其中 $A\in\mathbb R^{d\times d}$、"
                 r"$\boldsymbol b\in\mathbb R^d$,则"),
    Clause("c5", r"$$ \widehat y_{\mathrm{test}} =\boldsymbol x_{\mathrm{test}}^{\top}(A\boldsymbol u+s\boldsymbol b). $$"),
    Clause("c6", r"这样便能看清表达瓶颈:上下文改变了预测方向 $A\boldsymbol u+s\boldsymbol b$,但对查询输入仍是没有截距的线性函数。"),
    Clause("c7", r"标签平方 $s$ 的存在没有给查询端引入非线性,也不能直接输出一个常数偏置。"),
    Clause("c8", "(Sec. 2,PDF p. 3,Eqs. (4)–(5)。)", asserted=False),
    Clause("c9", r"训练时把 $\Gamma$ 和 $H^\mu$ 向量化为 $\boldsymbol\gamma$、$\boldsymbol h_\mu$,在约 $d^2$ 维特征空间做岭回归:",
           asserted=False),
    Clause("c10", r"$$ \boldsymbol\gamma^* =\left(\frac nd\lambda I_{d(d+1)}+\sum_{\mu=1}^{n}\boldsymbol h_\mu\boldsymbol "
                  r"h_\mu^{\top}\right)^{-1} \sum_{\mu=1}^{n}y_{\mathrm{test}}^\mu\boldsymbol h_\mu. $$", asserted=False),
    Clause("c11", r"这是跨 prompt 学习共享参数;测试时 $\Gamma^*$ 固定,只重新计算 $\boldsymbol u,s,H$。论文分析的是这一闭式训练"
                  "问题,而不是完整 Transformer 的梯度训练动力学。", asserted=False),
    Clause("c12", r"无正则情形按 $\lambda\to0$ 理解,样本不足时对应相应的极限解。"),
    Clause("c13", "(Eq. (6),PDF p. 3。)", asserted=False)]


@claims.claim("004-predictor-and-ridge", lines=(65, 81), conventions=["C3"], weight="supporting",
              title="The predictor x_testᵀ(Au + sb), linear in the query, fitted by ridge (Eq. 6)",
              clauses=_PRED_CLAUSES)
def predictor_and_ridge(ctx):
    """u = (d/ℓ)Σ y_i x_i, s = (1/ℓ)Σ y_i², H = x_test[uᵀ, s], ŷ = ⟨Γ, H⟩_F = x_testᵀ(Au + sb): linear in the
    query with no intercept (s cannot add a constant); Γ by ridge regression Eq. (6), ridgeless as the λ → 0 limit
    (minimum norm when n < p)."""
    D = 3
    A = sp.Matrix(D, D, lambda i, j: sp.Symbol(f"A{i}{j}"))
    b, u, x = (sp.Matrix(D, 1, lambda i, j, c=c: sp.Symbol(f"{c}{i}")) for c in "bux")
    s, t = sp.symbols("s t")
    H = x * u.T.row_join(sp.Matrix([[s]]))
    yhat = sum(A.row_join(b)[i, j] * H[i, j] for i in range(D) for j in range(D + 1))
    scope = "exact (SymPy), d = 3, symbolic Γ = [A, b], u, s, x_test"
    yield rules.identity("⟨Γ, H⟩_F = x_testᵀ(Au + sb)", yhat, (x.T * (A * u + s * b))[0, 0], clauses=["c4", "c5"],
                         scope=scope)
    yield rules.identity("ŷ(t·x_test) = t·ŷ(x_test) for every Γ and context: linear in the query, no intercept",
                         yhat.subs({x[i]: t * x[i] for i in range(D)}, simultaneous=True), t * yhat, clauses="c6",
                         scope=scope)
    yield rules.identity("ŷ(x_test = 0) = 0 for every Γ, u and s: the s column adds no constant", yhat.subs(
        {x[i]: 0 for i in range(D)}, simultaneous=True), 0, clauses="c7", scope=scope)
    yield rules.identity("∂²ŷ/∂x_test² = 0: s introduces no nonlinearity in the query", sp.hessian(yhat, list(x)),
                         sp.zeros(D, D), clauses="c7", scope=scope)
    yield from _ridge_limit(ctx)
    yield Derivation(r"\langle\Gamma,H\rangle_F=\sum_{ij}\Gamma_{ij}x_i[u;s]_j=x^\top(Au+sb)")


def _ridge_limit(ctx):
    """Eq. (6) at λ → 0 is the minimum-norm solution, on the model's own features at random inputs; the solvers of
    the simulator against Eq. (6) (self-checks)."""
    LAM, LIMIT_RTOL = 1e-7, 1e-5      # distance to the limit is O(λ)
    rng = np.random.default_rng(ctx.seed_for("004-predictor-and-ridge"))
    dd = 4
    for draw in range(3):
        xk, Uk, Sk = rng.standard_normal((30, dd)), rng.standard_normal((30, dd)), rng.standard_normal(30)
        Hk, yk = reduced_features(xk, Uk, Sk), rng.standard_normal(30)
        for n in (12, 30):
            closed = np.linalg.solve((n / dd) * LAM * np.eye(Hk.shape[1]) + Hk[:n].T @ Hk[:n], Hk[:n].T @ yk[:n])
            yield rules.identity(f"Eq. (6) at λ → 0 is the minimum-norm solution (draw {draw + 1}, n = {n}, p = 20)",
                                 closed, np.linalg.pinv(Hk[:n]) @ yk[:n], rtol=LIMIT_RTOL, clauses="c12",
                                 scope=f"the model's features x ⊗ [u; s], Gaussian inputs, d = 4, closed form at λ = "
                                       f"{LAM:g} vs pseudo-inverse ({'n < p' if n < 20 else 'n > p'})")
    X, y = rng.standard_normal((40, 20)), rng.standard_normal(40)
    for n in (12, 40):
        for lam in (0.3, 0.0):
            ref = np.linalg.solve((n / dd) * lam * np.eye(20) + X[:n].T @ X[:n], X[:n].T @ y[:n]) if lam else \
                np.linalg.pinv(X[:n]) @ y[:n]
            yield selfcheck.identity(f"solver = Eq. (6), n = {n}, λ = {lam}", fit_prefixes(X, y, [n], dd, lam)[0], ref,
                                     rtol=1e-8)
    xk, Uk, Sk = rng.standard_normal((30, dd)), rng.standard_normal((30, dd)), rng.standard_normal(30)
    Hk, yk = reduced_features(xk, Uk, Sk), rng.standard_normal(30)
    for lam in (0.3, 0.0):
        for ns in ([8, 15], [25, 30]):
            want = [np.linalg.solve((n / dd) * lam * np.eye(Hk.shape[1]) + Hk[:n].T @ Hk[:n], Hk[:n].T @ yk[:n])
                    if lam else np.linalg.pinv(Hk[:n]) @ yk[:n] for n in ns]
            yield selfcheck.identity(f"factored solver = Eq. (6) on the model's features, n = {ns}, λ = {lam}",
                                     np.concatenate(fit_prefixes_factored(xk, np.column_stack([Uk, Sk]), yk, ns, dd,
                                                                          lam)), np.concatenate(want), rtol=1e-7)
    xq, U, S = rng.standard_normal((5, dd)), rng.standard_normal((5, dd)), rng.standard_normal(5)
    Gm = rng.standard_normal((dd, dd + 1))
    yield selfcheck.identity("model features · vec(Γ) = x_testᵀ(Au + sb)", reduced_features(xq, U, S) @ Gm.ravel(),
                             np.einsum("nd,nd->n", xq, U @ Gm[:, :dd].T + S[:, None] * Gm[:, dd][None, :]), rtol=1e-12)
