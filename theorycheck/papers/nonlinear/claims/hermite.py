r"""Claims of paper 004, seed lines 85–109: the Hermite decomposition, its teaching table, the two noise levels
ρ_f and ρ_nl, the m = 0 mode, and what "equivalent noise" means — in seed order.
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp
from scipy import integrate

from ....claims import Clause
from ....hermite import hermite_coefficients, hermite_h
from ....verdicts import Estimate, rules, selfcheck
from ...api import Derivation, Note
from .. import theory as nl
from ..registry import claims
from ..settings import OFFSET, RHO, mc_param, params, sizes
from ._helpers import g, gauss_E, gauss_E_poly, gauss_E_relu

G = nl.G


# ================================================================================ Hermite decomposition
@claims.claim("004-hermite-basis", lines=(85, 91), conventions=["C1"], weight="supporting",
              title="Orthonormal Hermite expansion: h₀, h₁, h₂, a₁ = E[g f] and Parseval",
              clauses=[Clause("c1", "在标准高斯测度下,用正交归一 Hermite 多项式展开:", asserted=False),
                       Clause("c2", r"$$ f(g)=\sum_{m\ge0}a_mh_m(g),\qquad a_m=\mathbb E[f(g)h_m(g)],\qquad "
                                    r"g\sim\mathcal N(0,1). $$", asserted=False),
                       Clause("c3", r"其中 $h_0(g)=1$、$h_1(g)=g$、$h_2(g)=(g^2-1)/\sqrt2$"),
                       Clause("c4", r"并且 $\mathbb E[h_m(g)h_j(g)]=\delta_{mj}$。所以", "quantifier"),
                       Clause("c5", r"$$ a_1=\mathbb E[g f(g)],"),
                       Clause("c6", r"\qquad \mathbb E[f(g)^2]=\sum_m a_m^2. $$", "quantifier")])
def hermite_basis(ctx):
    """Orthonormal Hermite basis: h₀ = 1, h₁ = g, h₂ = (g² − 1)/√2, E[h_m h_j] = δ_mj for all m, j; a₁ = E[g f(g)]
    and E[f(g)²] = Σ a_m² (Parseval)."""
    PARSEVAL_M, PARSEVAL_TOL = 15, 1e-12     # sin: tail Σ_{m>15} a_m² = e^{-1} Σ_{m>15, odd} 1/m! < 1e-13
    hs = [hermite_h(m, g) for m in range(5)]
    scope = "exact (SymPy)"
    yield rules.identity("h₀ = 1, h₁ = g, h₂ = (g² − 1)/√2", sp.Matrix(hs[:3]), sp.Matrix([1, g, (g ** 2 - 1) / sp.sqrt(2)]),
                         clauses="c3", scope=scope)
    s, t, c = sp.symbols("s t c", real=True)
    mgf = gauss_E(sp.exp(c * g))                        # E[e^{cg}] = e^{c²/2}, the Gaussian moment-generating function
    gen = lambda u: sp.exp(u * g - u ** 2 / 2)          # noqa: E731  Σ_m h_m(g) u^m/√(m!)
    yield rules.identity("E[G(s)G(t)] = e^{st} for the generating function G(u) = exp(ug − u²/2) = Σ h_m(g)u^m/√(m!): "
                         "so E[h_m h_j] = δ_mj for every m, j", sp.exp(-(s ** 2 + t ** 2) / 2) * mgf.subs(c, s + t),
                         sp.exp(s * t), clauses="c4",
                         scope="exact (SymPy) for all real s, t (G(s)G(t) = e^{−(s²+t²)/2}e^{(s+t)g}): the coefficient "
                               "of s^m t^j is δ_mj/m!")
    M, DEG = (6, 4) if ctx.quick else (12, 8)      # issue 31: quick checks the same identities at lower degree
    series = sp.series(gen(t), t, 0, M + 1).removeO()
    yield rules.identity(f"the engine's h_m are the generating function's: h_m = √(m!)·[t^m] exp(tg − t²/2), m ≤ {M}",
                         sp.Matrix([sp.expand(hermite_h(m, g)) for m in range(M + 1)]),
                         sp.Matrix([sp.expand(sp.sqrt(sp.factorial(m)) * series.coeff(t, m)) for m in range(M + 1)]),
                         clauses="c4", scope="exact (SymPy)")
    gram = sp.Matrix(5, 5, lambda i, j: nl.polynomial_expectation(hs[i] * hs[j], g))
    yield rules.identity("Gram matrix of the engine's h₀..h₄ is the identity", gram, sp.eye(5), clauses="c4", scope=scope)
    f = sp.Function("f")
    yield rules.identity("a₁ = E[f(g)h₁(g)] = E[g f(g)] for every f (the integrands agree)", f(g) * hermite_h(1, g),
                         g * f(g), clauses="c5", scope="exact (SymPy), f an undefined function")
    cs = sp.symbols(f"c0:{DEG + 1}", real=True)
    poly = sum(ci * g ** i for i, ci in enumerate(cs))
    coeffs = [nl.polynomial_expectation(poly * hermite_h(m, g), g) for m in range(DEG + 1)]
    yield rules.identity(f"Parseval for every polynomial of degree ≤ {DEG}: Σ_m a_m² = E[f²]", sp.expand(sum(a ** 2 for a
                         in coeffs)), sp.expand(nl.polynomial_expectation(poly ** 2, g)), clauses="c6",
                         scope=f"exact (SymPy), symbolic coefficients c₀..c{chr(0x2080 + DEG)} (a_m = 0 for m > {DEG})")
    m = sp.Symbol("m", integer=True, nonnegative=True)
    yield rules.identity("Parseval on the exponential family f = exp(sg − s²/2): Σ_m (s^m/√(m!))² = E[f²] = e^{s²}",
                         sp.summation(s ** (2 * m) / sp.factorial(m), (m, 0, sp.oo)),
                         sp.exp(-s ** 2) * mgf.subs(c, 2 * s), clauses="c6",
                         scope="exact (SymPy) for every real s; the family spans a dense subspace of L²(γ), so Parseval "
                               "extends to every f with E f² < ∞ by continuity")
    a = hermite_coefficients(sp.sin(g), PARSEVAL_M)
    yield rules.identity(f"Parseval for f = sin: Σ_(m≤{PARSEVAL_M}) a_m² = E[sin² g]",
                         float(sp.N(sum(x ** 2 for x in a), 30)), float(sp.N(gauss_E(sp.sin(g) ** 2), 30)),
                         atol=PARSEVAL_TOL, rtol=0.0, clauses="c6",
                         scope=f"exact coefficients, sum truncated at m = {PARSEVAL_M}")
    yield Derivation(r"\mathbb E\big[e^{sg-s^2/2}e^{tg-t^2/2}\big]=e^{st}=\sum_m\frac{(st)^m}{m!}\ \Rightarrow\ "
                     r"\mathbb E[h_mh_j]=\delta_{mj}")


_TABLE_CLAUSES = [
    Clause("c1", r"这里度量的是在整个高斯输入分布下与线性函数的相关性,不是 $f$ 在零点的局部导数。"),
    Clause("c2", "下表是教学例子,由上述定义直接计算,非原文实验:", asserted=False),
    Clause("c3", r"$f(g)$$a_1$非一阶分量的平方能量对该预测器的意义", asserted=False),
    Clause("c4", "$g$$1$$0$完全在线性可表达范围内", "number"),
    Clause("c5", "$g^2-1$$0$$2$非零目标,但没有线性可学习信号", "number"),
    Clause("c6", "$g^3$$3$$6$可利用 $3g$,剩余 $g^3-3g$ 无法表达", "number"),
    Clause("c7", "常数 $c$$0$$c^2$没有查询截距,常数项也进入残差", "number"),
    Clause("c8", "特别地,“非线性函数”不等于“没有线性模态”。"),
    Clause("c9", "$g^3$ 在 Taylor 表达中没有一次项,却有强的一阶 Hermite 分量。"),
    Clause("c10", "(原文定义:Eq. (2),PDF p. 2。)", asserted=False)]


@claims.claim("004-teaching-table", lines=(93, 101), conventions=["C1"], weight="supporting",
              title="Teaching table: a₁ and residual energy of g, g² − 1, g³ and a constant",
              clauses=_TABLE_CLAUSES)
def teaching_table(ctx):
    """a₁ and the non-first-order energy Σ_{m≠1} a_m² = E[f²] − a₁²: g → 1, 0; g² − 1 → 0, 2; g³ → 3, 6 (residual
    g³ − 3g, orthogonal to g); a constant c → 0, c² (no query intercept). a₁ is the Gaussian correlation with g,
    not f′(0): g³ has no linear Taylor term but a₁ = 3."""
    c = sp.Symbol("c", real=True)
    rows = {"c4": ("g", g, 1, 0), "c5": ("g² − 1", g ** 2 - 1, 0, 2), "c6": ("g³", g ** 3, 3, 6),
            "c7": ("c", c + 0 * g, 0, c ** 2)}
    scope = "exact (SymPy; c symbolic)"
    for cid, (name, f, a1_seed, energy_seed) in rows.items():
        a1 = hermite_coefficients(f, 1)[1] if f.has(g) else sp.Integer(0)
        yield rules.identity(f"{name}: a₁ = {a1_seed}", a1, a1_seed, clauses=cid, scope=scope)
        yield rules.identity(f"{name}: E[f²] − a₁² = {energy_seed}", gauss_E(f ** 2) - a1 ** 2, energy_seed, clauses=cid,
                             scope=scope)
    yield rules.identity("g: the residual g − a₁g is 0 (fully expressible)", g - 1 * g, 0, clauses="c4", scope=scope)
    yield rules.inequality("g² − 1: a non-zero target (E f² = 2 > 0) with no linear signal (a₁ = 0)",
                           float(gauss_E((g ** 2 - 1) ** 2)), ">", 0.0, clauses="c5", scope=scope)
    yield rules.identity("g³: the usable part is 3g and the residual g³ − 3g is orthogonal to g", gauss_E(g * (g ** 3 - 3 * g)),
                         0, clauses="c6", scope=scope)
    beta = sp.Symbol("beta", real=True)
    best = sp.expand(gauss_E(sp.expand((c - beta * g) ** 2)))
    yield rules.identity("c: the best query-linear fit of a constant leaves all of it, min_β E[(c − βg)²] = c²",
                         best.subs(beta, sp.solve(sp.diff(best, beta), beta)[0]), c ** 2, clauses="c7", scope=scope)
    yield rules.identity("g³: linear Taylor coefficient f′(0) = 0 while a₁ = 3 (a₁ is not the derivative at 0)",
                         sp.Matrix([sp.diff(g ** 3, g).subs(g, 0), hermite_coefficients(g ** 3, 1)[1]]), sp.Matrix([0, 3]),
                         clauses=["c1", "c8", "c9"], scope=scope)
    yield rules.identity("a₁ = E[g f(g)] is the Gaussian correlation with g (for g³: E[g·g³] = 3)", gauss_E(g ** 4), 3,
                         clauses="c1", scope=scope)
    yield Derivation(r"g^3=3h_1(g)+\sqrt6\,h_3(g),\quad \mathbb E[g^6]=15=9+6;\qquad g^2-1=\sqrt2\,h_2(g)")


# ================================================================================ the two noise levels
_RHO_FRAGMENT = ("$$ \\rho_f=\\rho+\\sum_{m\\ge0}a_m^2 =\\rho+\\mathbb E[f(g)^2], \\qquad "
                 "\\rho_{\\mathrm{nonlinear}}=\\rho+\\sum_{m\\ne1}a_m^2 =\\rho_f-a_1^2. $$\n\n"
                 "$\\rho_f$ 是标签的总二阶矩;若 $a_0\\ne0$,它不是中心化方差。")


@claims.claim("004-rho-definitions", lines=(107, 109), fragment=_RHO_FRAGMENT, conventions=["C1", "C2"],
              weight="supporting", title="ρ_f = ρ + E f² is the label second moment; ρ_nl = ρ_f − a₁²",
              clauses=[Clause("c1", r"$$ \rho_f=\rho+\sum_{m\ge0}a_m^2 =\rho+\mathbb E[f(g)^2], \qquad"),
                       Clause("c2", r"\rho_{\mathrm{nonlinear}}=\rho+\sum_{m\ne1}a_m^2 =\rho_f-a_1^2. $$"),
                       Clause("c3", r"$\rho_f$ 是标签的总二阶矩;"),
                       Clause("c4", r"若 $a_0\ne0$,它不是中心化方差。", "condition")])
def rho_definitions(ctx):
    """ρ_f = ρ + Σ_{m≥0} a_m² = ρ + E[f²] is the label second moment E[y²]; ρ_nl = ρ + Σ_{m≠1} a_m² = ρ_f − a₁²;
    when a₀ ≠ 0, ρ_f is not the centred label variance (and it is when a₀ = 0)."""
    SERIES_M, SERIES_TOL = 15, 1e-12     # sin: truncation error < 1e-13
    relu = sp.Piecewise((g, g > 0), (0, True))
    a = hermite_coefficients(sp.sin(g), SERIES_M)
    yield rules.identity(f"sin: ρ + Σ_(m≤{SERIES_M}) a_m² = ρ + E[sin²] = ρ_f", RHO + float(sp.N(sum(x ** 2 for x in a), 30)),
                         float(nl.rho_f("sin", RHO)), atol=SERIES_TOL, rtol=0.0, clauses="c1",
                         scope=f"exact coefficients, series truncated at m = {SERIES_M}")
    for f in ("sin", "relu", "abs", "cube"):
        m = nl.teacher_moments(f)
        yield rules.identity(f"{f}: ρ_nl = ρ_f − a₁²", nl.rho_nonlinear(f, RHO), nl.rho_f(f, RHO) - m["a1"] ** 2,
                             clauses="c2", scope="exact (SymPy), ρ = 1/10")
    series = RHO + float(sp.N(sum(x ** 2 for i, x in enumerate(a) if i != 1), 30))
    yield rules.identity(f"sin: ρ + Σ_(m≠1, m≤{SERIES_M}) a_m² = ρ_nl", series, float(nl.rho_nonlinear("sin", RHO)),
                         atol=SERIES_TOL, rtol=0.0, clauses="c2",
                         scope=f"exact coefficients, series truncated at m = {SERIES_M}")
    yield rules.identity("E[y²] = E[f(g)²] + 2E[f(g)]E[ε] + E[ε²] = ρ_f (f = ReLU, ε ⟂ g, Var ε = ρ)",
                         gauss_E_relu(relu ** 2, relu) + 0 + sp.Rational(1, 10), nl.rho_f("relu", RHO), clauses="c3",
                         scope="exact (SymPy), ρ = 1/10")
    for f in ("relu", "abs"):
        a0 = nl.teacher_moments(f)["a0"]
        yield rules.inequality(f"{f} (a₀ = {a0}): label variance ρ_f − a₀² < ρ_f",
                               float(nl.rho_f(f, RHO) - a0 ** 2), "<", float(nl.rho_f(f, RHO)), clauses="c4",
                               scope="exact, ρ = 0.1")
    a0, Ef2, rho = sp.symbols("a0 Ef2 rho", real=True)       # E f = a₀, E f² and Var ε as symbols: every teacher
    e_eps = sp.Integer(0)                                     # E ε = 0, ε independent of g (so E[f ε] = a₀ E ε)
    var_y = (Ef2 + 2 * a0 * e_eps + rho) - (a0 + e_eps) ** 2  # E[(f + ε)²] − (E[f + ε])²
    yield rules.identity("every f: ρ_f − Var(y) = a₀², so ρ_f is the centred label variance exactly when a₀ = 0",
                         (Ef2 + rho) - var_y, a0 ** 2, clauses="c4",
                         scope="exact (SymPy) for every teacher: E f = a₀, E f² and ρ symbolic")
    yield rules.identity("sin (a₀ = 0): label variance = ρ_f", nl.rho_f("sin", RHO) - nl.teacher_moments("sin")["a0"] ** 2,
                         nl.rho_f("sin", RHO), clauses="c4", scope="exact (SymPy), ρ = 1/10")
    yield from _rho_quadrature_selfcheck()
    yield Derivation(r"\rho_{\rm nl}=\rho_f-a_1^2=\rho+a_0^2+\sum_{m\ge2}a_m^2,\qquad \operatorname{Var}(y)=\rho_f-a_0^2")


def _rho_quadrature_selfcheck():
    """ρ_nl by the toolkit (exact SymPy / mpmath) against scipy quadrature of its definition."""
    fns = {"sin": np.sin, "tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0), "abs": np.abs,
           "he2": lambda x: (x * x - 1) / math.sqrt(2)}
    got, want = [], []
    for name, fn in fns.items():
        def E(h):
            val = 0.0
            for lo, hi in ((-np.inf, 0.0), (0.0, np.inf)):
                val += integrate.quad(lambda x: h(x) * math.exp(-x * x / 2) / math.sqrt(2 * math.pi), lo, hi,
                                      epsabs=1e-13, epsrel=1e-13)[0]
            return val
        got.append(float(nl.rho_nonlinear(name, RHO)))
        want.append(RHO + E(lambda x: fn(x) ** 2) - E(lambda x: x * fn(x)) ** 2)
    yield selfcheck.identity("ρ_nl (toolkit) = ρ + E f² − (E g f)² (scipy quadrature; sin, tanh, ReLU, |g|, He₂)",
                             got, want, rtol=1e-9)


@claims.claim("004-rho-nl-includes-m0", lines=(109, 109), conventions=["C2", "C3", "C4"], weight="supporting",
              fragment="$\\rho_{\\mathrm{nonlinear}}$ 则是观测噪声与线性预测器不可利用部分的总平方能量。其求和包括 $m=0$,"
                       "不只是二阶及更高阶模态。",
              title="ρ_nl counts the m = 0 mode: a constant part of the teacher acts as noise",
              clauses=[Clause("c1", r"$\rho_{\mathrm{nonlinear}}$ 则是观测噪声与线性预测器不可利用部分的总平方能量。"),
                       Clause("c2", "其求和包括 $m=0$,不只是二阶及更高阶模态。")])
def rho_nl_includes_m0(ctx):
    """ρ_nl is the total energy of the noise and of the part the query-linear predictor cannot use; its sum
    includes m = 0 (the mean a₀ = E f), not only m ≥ 2: a constant part of the teacher acts as noise."""
    sz, P = sizes(ctx), params(ctx)
    beta = sp.Symbol("beta", real=True)
    relu = sp.Piecewise((g, g > 0), (0, True))
    resid = gauss_E_poly((relu - beta * g) ** 2, beta, lambda x: gauss_E_relu(x, relu))
    best = resid.subs(beta, sp.solve(sp.diff(resid, beta), beta)[0])
    yield rules.identity("ReLU: min_β E[(f(g) + ε − βg)²] = ρ_nl (best query-linear error, ‖w‖² = d)",
                         best + RHO, float(nl.rho_nonlinear("relu", RHO)), rtol=1e-12, clauses="c1",
                         scope="exact (SymPy), ρ = 0.1")
    Ef2, a1, rho = sp.symbols("Ef2 a1 rho", real=True)       # E f², a₁ = E[g f] and Var ε as symbols: every f
    mse = Ef2 - 2 * beta * a1 + beta ** 2 + rho               # E[(f + ε − βg)²] with E g² = 1, ε ⟂ g
    yield rules.identity("every f: min_β E[(f(g) + ε − βg)²] = E f² − a₁² + ρ = ρ_nl (at β = a₁)",
                         mse.subs(beta, sp.solve(sp.diff(mse, beta), beta)[0]), Ef2 - a1 ** 2 + rho, clauses="c1",
                         scope="exact (SymPy) for every teacher: E f², a₁ and ρ symbolic")
    for c in (sp.Integer(OFFSET["c"]), sp.Rational(3, 2)):
        yield rules.identity(f"f = g + {c}: ρ_nl = ρ + c² (the m = 0 term a₀² = c² counts)",
                             nl.rho_nonlinear(G + c, RHO), sp.Rational(1, 10) + c ** 2, clauses="c2",
                             scope="exact (SymPy), ρ = 1/10")
    d, T, k = sz["offset_d"], sz["offset_trials"], OFFSET["c"]
    al, ka, tau = OFFSET["alpha"], OFFSET["kappa"], OFFSET["tau"]
    predicted = nl.e_icl_linear(tau, al, ka, RHO + k * k) - nl.e_icl_linear(tau, al, ka, RHO)
    MARGIN = 0.5 * predicted      # half-way between "m = 0 counts" (Δ) and "m = 0 excluded" (0)
    runs = nl.simulate_teachers({"offset": (G + k, RHO), "plain": (G, RHO)}, d, al, ka, [tau], T,
                                ctx.seed_for("004-rho-nl-includes-m0"), n_test=sz["ntest"])
    diff = Estimate.from_samples(runs["offset"].trial_means[:, 0] - runs["plain"].trial_means[:, 0])
    yield rules.superiority(f"the offset c = {k} raises the error by more than half the predicted Δ = "
                            f"{predicted:.4g}", diff, margin=MARGIN, clauses="c2",
                            params=[P["rho"], P["offset"], P["offset_setting"], P["offset_d"], P["lambda0"],
                                    mc_param(T, sz["ntest"])],
                            scope=f"actual model, f = g + {k} vs g (paired), d = {d}, α = κ = 2, τ = 3, ρ = 0.1, "
                                  f"{T} trials")
    yield Note("Δ = e_lin(τ, α, κ, ρ + c²) − e_lin(τ, α, κ, ρ) is the change Result 1 predicts when the m = 0 term "
               "is counted; excluding it predicts no change. The margin Δ/2 separates the two readings.")


@claims.claim("004-equivalent-noise-not-independent", lines=(109, 109), conventions=["C1"], weight="supporting",
              fragment="将这些部分称作“等效噪声”,指它们在所研究的渐近误差公式中发挥的作用,不表示原始非线性残差与输入统计独立。",
              title="'Equivalent noise' names a role in the formula, not independence from the input",
              clauses=[Clause("c1", "将这些部分称作“等效噪声”,指它们在所研究的渐近误差公式中发挥的作用", asserted=False),
                       Clause("c2", "不表示原始非线性残差与输入统计独立")])
def residual_not_independent(ctx):
    """'Equivalent noise' describes the role in the asymptotic error formula only: the nonlinear residual
    r(g) = f(g) − a₁g is uncorrelated with g but not independent of it."""
    for name, f in (("sin", sp.sin(g)), ("g³", g ** 3), ("g + g² − 1", g + g ** 2 - 1)):
        a1 = hermite_coefficients(f, 1)[1]
        r = f - a1 * g
        yield rules.identity(f"{name}: E[g r(g)] = 0 (uncorrelated)", gauss_E(g * r), 0, clauses="c2",
                             scope="exact (SymPy)")
        cov = float(sp.N(gauss_E(r ** 2 * g ** 2) - gauss_E(r ** 2) * gauss_E(g ** 2), 30))
        yield rules.inequality(f"{name}: |Cov(r(g)², g²)| > 0, so r(g) and g are dependent", abs(cov), ">", 0.0,
                               clauses="c2", scope="exact (SymPy): independence would make every covariance of "
                                                   "functions of r and g vanish")
