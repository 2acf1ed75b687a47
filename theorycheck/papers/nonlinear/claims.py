r"""Claims of paper 004, seed lines 6–136 (overview, setup, Hermite decomposition, noise definitions,
task-norm concentration, Appendix-B moments), in seed order. Later lines: :mod:`.claims_theory`
(Result 1, the a₁ = 0 branch) and :mod:`.claims_figures` (Figures 1 and 2, the teachers' numbers).

Each claim quotes its seed lines (and fragment), computes its evidence with the paper's theory
:mod:`.theory`, the engines and the models, and hands it to the verdict rules. Tolerances
and margins are declared as named constants at the top of each claim, before any evidence is computed.

Sizes: :func:`.settings.sizes` (quick mode small d; full mode the paper's d for the figures).
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp
from scipy import integrate

from ...gaussian import expect_product
from ...hermite import hermite_coefficients, hermite_h
from ...models.attention import reduced_features
from ...models.ridge import fit_prefixes, fit_prefixes_factored
from ...verdicts import Estimate, rules, selfcheck
from ..api import Derivation, Note
from . import assumptions, theory as nl
from .derivations.nonlinear_moments import polynomial_teacher_moments
from .generated import nonlinear_moments as NM
from .registry import claims
from .settings import OFFSET, RANK, RHO, sizes

G = nl.G
g = sp.Symbol("g", real=True)
PHI = sp.exp(-g ** 2 / 2) / sp.sqrt(2 * sp.pi)


def _E(expr):
    """Exact E[expr(g)], g ~ N(0, 1) (SymPy)."""
    return sp.simplify(sp.integrate(sp.expand(expr) * PHI, (g, -sp.oo, sp.oo)))


def _E_relu(expr, relu):
    """Exact E[expr(g)], g ~ N(0, 1), for an expression in g and the ReLU ``relu`` = Piecewise((g, g > 0), (0, True)):
    the same Gaussian integral as :func:`_E`, split at the kink (relu = g on g > 0, 0 on g ≤ 0) so that SymPy
    integrates two smooth integrands instead of taking its Meijer-G route through the Piecewise."""
    pos, neg = sp.expand(expr.subs(relu, g)), sp.expand(expr.subs(relu, 0))
    return sp.simplify(sp.integrate(pos * PHI, (g, 0, sp.oo)) + sp.integrate(neg * PHI, (g, -sp.oo, 0)))


# ================================================================================ overview and setup
@claims.claim("004-metadata", lines=(6, 10))
def metadata(ctx):
    """Authors, arXiv 2610.10761v1 (submitted 2026-10-07), acceptance at the NeurIPS 2026 PriGM workshop,
    and an authors' repository that holds only a README."""
    yield rules.underspecified("bibliographic record, venue and code availability",
                               missing=["arXiv record / PDF of 2610.10761v1", "the workshop's acceptance list",
                                        "the state of the authors' single-index-icl repository"],
                               scope="offline toolkit (no network access); nothing here enters the mathematics")


@claims.claim("004-floor", lines=(18, 18), conventions=["C2", "C3"],
              fragment="预训练序列更多、上下文更长、训练任务更多,可以改善一阶分量的估计,却不能消除当前预测器无法表达的非线性残差",
              revision={"previous": "confirmed", "previous_id": "004-floor-and-rank-threshold",
                        "why": "split: the floor statement is checked where the seed states it (line 18), the rank "
                               "threshold with the transition (line 208); decided by the inequality/shape/identity "
                               "rules on exact values instead of a hand-written conjunction."})
def floor(ctx):
    """More pretraining sequences (τ), longer contexts (α) and more tasks (κ) improve the error of Result 1
    but never remove the nonlinear residual: e_ICL > ρ_nl at every finite (τ, α, κ), e_ICL → ρ_nl only as
    τ, α, κ → ∞."""
    TEACHERS = ("sin", "tanh", "relu")
    GRID = [(t, a, k) for t in (0.5, 2.0, 10.0, 100.0) for a in (1.0, 10.0, 100.0) for k in (0.5, 2.0, math.inf)]
    LIMIT = (1e9, 1e9, math.inf)         # τ, α, κ standing for the limit
    LIMIT_TOL = 1e-6                     # the residual of Result 1 at τ = α = 1e9 is O(1/α) ≈ 1e-9
    scope = "Result 1 (exact), grid τ ∈ {0.5, 2, 10, 100}, α ∈ {1, 10, 100}, κ ∈ {0.5, 2, ∞}, ρ = 0.1"
    for f in TEACHERS:
        rnl = float(nl.rho_nonlinear(f, RHO))
        e = [nl.e_icl_nonlinear(f, t, a, k, RHO) for t, a, k in GRID]
        yield rules.inequality(f"{f}: e_ICL > ρ_nl at every grid point", e, ">", rnl, scope=scope)
        yield rules.identity(f"{f}: e_ICL → ρ_nl as τ, α, κ → ∞", nl.e_icl_nonlinear(f, *LIMIT, RHO), rnl,
                             atol=LIMIT_TOL, rtol=0.0, scope="Result 1 at τ = α = 1e9, κ = ∞")
    alphas, kappas, taus = (0.5, 1, 2, 4, 8, 16, 64), (0.25, 0.5, 1, 2, 4, 16), (1.25, 1.5, 2, 4, 8, 32)
    yield rules.shape("sin: more context (α) lowers the error", alphas,
                      [nl.e_icl_nonlinear("sin", 2.0, a, 2.0, RHO) for a in alphas], shape="decreasing",
                      scope="Result 1 (exact), τ = 2, κ = 2, α grid " + str(alphas))
    yield rules.shape("sin: more tasks (κ) lower the error", kappas,
                      [nl.e_icl_nonlinear("sin", 2.0, 2.0, k, RHO) for k in kappas], shape="decreasing",
                      scope="Result 1 (exact), τ = 2, α = 2, κ grid " + str(kappas))
    yield rules.shape("sin: more sequences (τ) lower the error above the interpolation threshold", taus,
                      [nl.e_icl_nonlinear("sin", t, 2.0, 2.0, RHO) for t in taus], shape="decreasing",
                      scope="Result 1 (exact), α = κ = 2, τ > 1 only, grid " + str(taus))
    yield Derivation(r"e_{\rm ICL}=a_1^2\,e^{\rm lin}_{\rm ICL}(\tau,\alpha,\kappa,\rho_{\rm nl}/a_1^2)"
                     r"\ \ge\ \rho_{\rm nl},\quad e^{\rm lin}\ge\rho_{\rm nl}/a_1^2")


@claims.claim("004-scalings", lines=(51, 59), conventions=["C4"],
              revision={"previous": "confirmed", "why": "the verdict was a literal; now the parameter count is an "
                        "identity on the model's feature map and the non-substitutability two exact inequalities "
                        "of the theory."})
def scalings(ctx):
    """α = ℓ/d, κ = k/d, τ = n/d² are distinct ratios; the predictor has about d² parameters (exactly d(d+1));
    the ratios cannot replace one another — more sequences of the same tasks raise τ but not κ."""
    d = sp.Symbol("d", positive=True)
    counts = [reduced_features(np.zeros((1, dd)), np.zeros((1, dd)), np.zeros(1)).shape[1] for dd in (3, 4, 5, 8)]
    yield rules.identity("feature count of the model = d(d+1) (d = 3, 4, 5, 8)", counts,
                         [dd * (dd + 1) for dd in (3, 4, 5, 8)], scope="theorycheck.models.attention.reduced_features")
    yield rules.identity("d(d+1)/d² → 1 (about d² parameters)", sp.limit(d * (d + 1) / d ** 2, d, sp.oo), 1,
                         scope="exact (SymPy)")
    TAU_INF = 1e8            # τ standing for "unlimited sequences"
    yield rules.inequality("more sequences of few tasks cannot replace task diversity: e(τ→∞, κ = 0.5) > e(τ→∞, κ = ∞)",
                           nl.e_icl_linear(TAU_INF, 2.0, 0.5, RHO), ">", nl.e_icl_linear(TAU_INF, 2.0, math.inf, RHO),
                           scope="linear-teacher theory (exact), α = 2, ρ = 0.1, τ = 1e8")
    yield rules.inequality("longer contexts cannot replace sequences: e(τ = 0.5, α → ∞) > e(τ → ∞, α → ∞)",
                           nl.e_icl_linear(0.5, 1e8, math.inf, RHO), ">", nl.e_icl_linear(TAU_INF, 1e8, math.inf, RHO),
                           scope="linear-teacher theory (exact), κ = ∞, ρ = 0.1, α = 1e8")


@claims.claim("004-predictor-and-ridge", lines=(65, 81), conventions=["C3"],
              revision={"previous": "confirmed", "why": "decided by identity rules; the solver-vs-closed-form "
                        "comparison is now a self-check (our code), not a verdict about the paper."})
def predictor_and_ridge(ctx):
    """u = (d/ℓ)Σ y_i x_i, s = (1/ℓ)Σ y_i², H = x_test[uᵀ, s], ŷ = ⟨Γ, H⟩_F = x_testᵀ(Au + sb): linear in the
    query with no intercept; Γ by ridge regression Eq. (6), ridgeless as the λ → 0 limit (minimum norm when
    n < p)."""
    D = 3
    A = sp.Matrix(D, D, lambda i, j: sp.Symbol(f"A{i}{j}"))
    b, u, x = (sp.Matrix(D, 1, lambda i, j, c=c: sp.Symbol(f"{c}{i}")) for c in "bux")
    s, t = sp.symbols("s t")
    H = x * u.T.row_join(sp.Matrix([[s]]))
    Gam = A.row_join(b)
    yhat = sum(Gam[i, j] * H[i, j] for i in range(D) for j in range(D + 1))
    scope = "exact (SymPy), d = 3, symbolic Γ = [A, b], u, s, x_test"
    yield rules.identity("⟨Γ, H⟩_F = x_testᵀ(Au + sb)", yhat, (x.T * (A * u + s * b))[0, 0], scope=scope)
    yield rules.identity("ŷ(t·x_test) = t·ŷ(x_test): linear in the query, no intercept", yhat.subs(
        {x[i]: t * x[i] for i in range(D)}, simultaneous=True), t * yhat, scope=scope)
    LAM, LIMIT_RTOL = 1e-7, 1e-5      # distance to the limit is O(λ)
    rng = np.random.default_rng(ctx.seed_for("004-predictor-and-ridge"))
    dd, p = 4, 20
    for n in (12, 40):
        X, y = rng.standard_normal((n, p)), rng.standard_normal(n)
        closed = np.linalg.solve((n / dd) * LAM * np.eye(p) + X.T @ X, X.T @ y)
        yield rules.identity(f"Eq. (6) at λ → 0 is the minimum-norm solution (n = {n}, p = {p})", closed,
                             np.linalg.pinv(X) @ y, rtol=LIMIT_RTOL,
                             scope=f"closed form at λ = {LAM:g} vs pseudo-inverse, Gaussian X, d = 4")
        for lam in (0.3, 0.0):
            ref = np.linalg.solve((n / dd) * lam * np.eye(p) + X.T @ X, X.T @ y) if lam else np.linalg.pinv(X) @ y
            yield selfcheck.identity(f"solver = Eq. (6), n = {n}, λ = {lam}", fit_prefixes(X, y, [n], dd, lam)[0], ref,
                                     rtol=1e-8)
    # the simulator's solver: Kronecker-factored features (Hadamard dual kernel, unique-product primal Gram)
    xk, Uk, Sk = rng.standard_normal((30, dd)), rng.standard_normal((30, dd)), rng.standard_normal(30)
    Hk, yk = reduced_features(xk, Uk, Sk), rng.standard_normal(30)
    for lam in (0.3, 0.0):
        for ns in ([8, 15], [25, 30]):
            yield selfcheck.identity(f"factored solver = Eq. (6) on the model's features, n = {ns}, λ = {lam}",
                                     np.concatenate(fit_prefixes_factored(xk, np.column_stack([Uk, Sk]), yk, ns, dd,
                                                                          lam)),
                                     np.concatenate([np.linalg.solve((n / dd) * lam * np.eye(Hk.shape[1]) + Hk[:n].T @ Hk[:n],
                                                                     Hk[:n].T @ yk[:n]) if lam else
                                                     np.linalg.pinv(Hk[:n]) @ yk[:n] for n in ns]), rtol=1e-7)
    xq, U, S = rng.standard_normal((5, dd)), rng.standard_normal((5, dd)), rng.standard_normal(5)
    Gm = rng.standard_normal((dd, dd + 1))
    yield selfcheck.identity("model features · vec(Γ) = x_testᵀ(Au + sb)", reduced_features(xq, U, S) @ Gm.ravel(),
                             np.einsum("nd,nd->n", xq, U @ Gm[:, :dd].T + S[:, None] * Gm[:, dd][None, :]), rtol=1e-12)
    yield Derivation(r"\langle\Gamma,H\rangle_F=\sum_{ij}\Gamma_{ij}x_i[u;s]_j=x^\top(Au+sb)")


# ================================================================================ Hermite decomposition
@claims.claim("004-hermite-basis", lines=(85, 91), conventions=["C1"])
def hermite_basis(ctx):
    """Orthonormal Hermite basis: h₀ = 1, h₁ = g, h₂ = (g² − 1)/√2, E[h_m h_j] = δ_mj; a₁ = E[g f(g)] and
    E[f(g)²] = Σ a_m²."""
    PARSEVAL_M = 15
    PARSEVAL_TOL = 1e-12          # sin: tail Σ_{m>15} a_m² = e^{-1} Σ_{m>15, odd} 1/m! < 1e-13
    hs = [hermite_h(m, g) for m in range(5)]
    gram = sp.Matrix(5, 5, lambda i, j: nl.polynomial_expectation(hs[i] * hs[j], g))
    scope = "exact (SymPy), m, j ≤ 4"
    yield rules.identity("h₀ = 1", hs[0], 1, scope=scope)
    yield rules.identity("h₁ = g", hs[1], g, scope=scope)
    yield rules.identity("h₂ = (g² − 1)/√2", hs[2], (g ** 2 - 1) / sp.sqrt(2), scope=scope)
    yield rules.identity("E[h_m h_j] = δ_mj (Gram matrix of h₀..h₄ is the identity)", gram, sp.eye(5), scope=scope)
    yield rules.identity("a₁ = E[g f(g)] (f = sin)", hermite_coefficients(sp.sin(g), 1)[1], _E(g * sp.sin(g)),
                         scope="exact (SymPy)")
    cube = hermite_coefficients(g ** 3, 5)
    yield rules.identity("Parseval for f = g³: Σ a_m² = E[g⁶] = 15", sum(a ** 2 for a in cube), _E(g ** 6),
                         scope="exact (SymPy), a₀..a₅")
    a = hermite_coefficients(sp.sin(g), PARSEVAL_M)
    yield rules.identity(f"Parseval for f = sin: Σ_(m≤{PARSEVAL_M}) a_m² = E[sin² g]",
                         float(sp.N(sum(x ** 2 for x in a), 30)), float(sp.N(_E(sp.sin(g) ** 2), 30)),
                         atol=PARSEVAL_TOL, rtol=0.0, scope=f"exact coefficients, sum truncated at m = {PARSEVAL_M}")
    yield Derivation(r"h_m=\mathrm{He}_m/\sqrt{m!},\quad \mathbb E[h_mh_j]=\delta_{mj},\quad a_1=\mathbb E[gf(g)]")


@claims.claim("004-teaching-table", lines=(93, 101), conventions=["C1"],
              revision={"previous": "confirmed", "why": "recomputed from the Hermite engine inside the claim and "
                        "decided row by row by identity rules (previously compared with stored strings)."})
def teaching_table(ctx):
    """a₁ and the non-first-order energy Σ_{m≠1} a_m² = E[f²] − a₁²: g → 1, 0; g² − 1 → 0, 2; g³ → 3, 6;
    a constant c → 0, c². g³ has no linear Taylor term but a strong first Hermite component."""
    c = sp.Symbol("c", real=True)
    rows = {"g": (g, 1, 0), "g² − 1": (g ** 2 - 1, 0, 2), "g³": (g ** 3, 3, 6), "c": (c + 0 * g, 0, c ** 2)}
    scope = "exact (SymPy; c symbolic)"
    for name, (f, a1_seed, energy_seed) in rows.items():
        a1 = hermite_coefficients(f, 1)[1] if f.has(g) else sp.Integer(0)
        yield rules.identity(f"{name}: a₁ = {a1_seed}", a1, a1_seed, scope=scope)
        yield rules.identity(f"{name}: E[f²] − a₁² = {energy_seed}", _E(f ** 2) - a1 ** 2, energy_seed, scope=scope)
    yield rules.identity("g³: linear Taylor coefficient f′(0) = 0", sp.diff(g ** 3, g).subs(g, 0), 0, scope=scope)
    yield Derivation(r"g^3=3h_1(g)+\sqrt6\,h_3(g),\quad \mathbb E[g^6]=15=9+6;\qquad g^2-1=\sqrt2\,h_2(g)")


# ================================================================================ the two noise levels
_RHO_FRAGMENT = ("$$ \\rho_f=\\rho+\\sum_{m\\ge0}a_m^2 =\\rho+\\mathbb E[f(g)^2], \\qquad "
                 "\\rho_{\\mathrm{nonlinear}}=\\rho+\\sum_{m\\ne1}a_m^2 =\\rho_f-a_1^2. $$\n\n"
                 "$\\rho_f$ 是标签的总二阶矩;若 $a_0\\ne0$,它不是中心化方差。")


@claims.claim("004-rho-definitions", lines=(107, 109), fragment=_RHO_FRAGMENT, conventions=["C1", "C2"],
              revision={"previous": "confirmed", "why": "the verdict was a literal; now identities (SymPy and the "
                        "truncated Hermite series) and an exact inequality; the implementation check against "
                        "quadrature is a self-check."})
def rho_definitions(ctx):
    """ρ_f = ρ + Σ_{m≥0} a_m² = ρ + E[f²] is the label second moment E[y²]; ρ_nl = ρ + Σ_{m≠1} a_m² = ρ_f − a₁²;
    when a₀ ≠ 0, ρ_f is not the centred label variance."""
    SERIES_M, SERIES_TOL = 15, 1e-12     # sin: truncation error < 1e-13
    relu = sp.Piecewise((g, g > 0), (0, True))
    yield rules.identity("E[y²] = E[f(g)²] + 2E[f(g)]E[ε] + E[ε²] = ρ_f (f = ReLU, ε ⟂ g, Var ε = ρ)",
                         _E(relu ** 2) + 0 + sp.Rational(1, 10), nl.rho_f("relu", RHO), scope="exact (SymPy), ρ = 1/10")
    for f in ("sin", "relu", "abs", "cube"):
        m = nl.teacher_moments(f)
        yield rules.identity(f"{f}: ρ_nl = ρ_f − a₁²", nl.rho_nonlinear(f, RHO), nl.rho_f(f, RHO) - m["a1"] ** 2,
                             scope="exact (SymPy), ρ = 1/10")
    a = hermite_coefficients(sp.sin(g), SERIES_M)
    series = RHO + float(sp.N(sum(x ** 2 for i, x in enumerate(a) if i != 1), 30))
    yield rules.identity(f"sin: ρ + Σ_(m≠1, m≤{SERIES_M}) a_m² = ρ_nl", series, float(nl.rho_nonlinear("sin", RHO)),
                         atol=SERIES_TOL, rtol=0.0, scope=f"exact coefficients, series truncated at m = {SERIES_M}")
    for f in ("relu", "abs"):
        a0 = nl.teacher_moments(f)["a0"]
        yield rules.inequality(f"{f} (a₀ = {a0}): label variance ρ_f − a₀² < ρ_f",
                               float(nl.rho_f(f, RHO) - a0 ** 2), "<", float(nl.rho_f(f, RHO)), scope="exact, ρ = 0.1")
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


@claims.claim("004-rho-nl-includes-m0", lines=(109, 109), conventions=["C2", "C3", "C4"], needs=(),
              fragment="$\\rho_{\\mathrm{nonlinear}}$ 则是观测噪声与线性预测器不可利用部分的总平方能量。其求和包括 $m=0$,"
                       "不只是二阶及更高阶模态。",
              revision={"previous": "confirmed", "why": "normal z-tests on few trials replaced by a declared rule: "
                        "Student-t superiority of the paired offset effect over half its predicted size."})
def rho_nl_includes_m0(ctx):
    """ρ_nl is the total energy of the noise and of the part the query-linear predictor cannot use; its sum
    includes m = 0 (the mean a₀ = E f), not only m ≥ 2: a constant part of the teacher acts as noise."""
    sz = sizes(ctx)
    beta = sp.Symbol("beta", real=True)
    for c in (sp.Integer(OFFSET["c"]), sp.Rational(3, 2)):
        yield rules.identity(f"f = g + {c}: ρ_nl = ρ + c² (the m = 0 term a₀² = c² counts)",
                             nl.rho_nonlinear(G + c, RHO), sp.Rational(1, 10) + c ** 2, scope="exact (SymPy), ρ = 1/10")
    relu = sp.Piecewise((g, g > 0), (0, True))
    resid = sp.expand(_E_relu((relu - beta * g) ** 2, relu))
    best = resid.subs(beta, sp.solve(sp.diff(resid, beta), beta)[0])
    yield rules.identity("ReLU: min_β E[(f(g) + ε − βg)²] = ρ_nl (best query-linear error, ‖w‖² = d)",
                         best + RHO, float(nl.rho_nonlinear("relu", RHO)), rtol=1e-12, scope="exact (SymPy), ρ = 0.1")
    # the actual model: the offset raises the error as noise c² would (m = 0 excluded would predict no change)
    d, T, k = sz["offset_d"], sz["offset_trials"], OFFSET["c"]
    al, ka, tau = OFFSET["alpha"], OFFSET["kappa"], OFFSET["tau"]
    predicted = nl.e_icl_linear(tau, al, ka, RHO + k * k) - nl.e_icl_linear(tau, al, ka, RHO)
    MARGIN = 0.5 * predicted      # half-way between "m = 0 counts" (Δ) and "m = 0 excluded" (0)
    runs = nl.simulate_teachers({"offset": (G + k, RHO), "plain": (G, RHO)}, d, al, ka, [tau], T,
                                ctx.seed_for("004-rho-nl-includes-m0"), n_test=sz["ntest"])
    diff = Estimate.from_samples(runs["offset"].trial_means[:, 0] - runs["plain"].trial_means[:, 0])
    yield rules.superiority(f"the offset c = {k} raises the error by more than half the predicted Δ = "
                            f"{predicted:.4g}", diff, margin=MARGIN,
                            scope=f"actual model, f = g + {k} vs g (paired), d = {d}, α = κ = 2, τ = 3, ρ = 0.1, "
                                  f"{T} trials", chosen={"d": d, "trials": T, "τ": tau})
    yield Note("Δ = e_lin(τ, α, κ, ρ + c²) − e_lin(τ, α, κ, ρ) is the change Result 1 predicts when the m = 0 term "
               "is counted; excluding it predicts no change. The margin Δ/2 separates the two readings.")


@claims.claim("004-equivalent-noise-not-independent", lines=(109, 109), conventions=["C1"],
              fragment="将这些部分称作“等效噪声”,指它们在所研究的渐近误差公式中发挥的作用,不表示原始非线性残差与输入统计独立。")
def residual_not_independent(ctx):
    """'Equivalent noise' describes the role in the asymptotic error formula only: the nonlinear residual
    r(g) = f(g) − a₁g is uncorrelated with g but not independent of it."""
    r = sp.sin(g) - sp.exp(-sp.S.Half) * g
    yield rules.identity("sin: E[g r(g)] = 0 (uncorrelated)", _E(g * r), 0, scope="exact (SymPy)")
    cov = float(sp.N(_E(r ** 2 * g ** 2) - _E(r ** 2) * _E(g ** 2), 30))
    yield rules.inequality("sin: Cov(r(g)², g²) ≠ 0 (dependent): |Cov| > 0", abs(cov), ">", 0.0,
                           scope="exact (SymPy)")


# ================================================================================ task norms
@claims.claim("004-task-norm-variance", lines=(115, 117), conventions=["C4"],
              revision={"previous": "confirmed", "why": "exact identities decide; the Monte Carlo of σ_w is now a "
                        "self-check (our formula vs our sampler), and the z-tests are gone."})
def task_norm_variance(ctx):
    """For fixed w, xᵀw ~ N(0, ‖w‖²/d) exactly (variance not automatically 1); σ_w = ‖w‖²/d has
    E[σ_w] = tr(C)/d and Var(σ_w) = 2 tr(C²)/d² for Gaussian tasks w ~ N(0, C)."""
    D = 3
    w = sp.Matrix(sp.symbols("w0:3", real=True))
    yield rules.identity("Var(xᵀw | w) = wᵀ(I/d)w = ‖w‖²/d", expect_product(sp.eye(D) / D, linear=[w, w]),
                         (w.T * w)[0, 0] / D, scope="exact (Isserlis), d = 3, symbolic w")
    c11, c12, c22 = sp.symbols("c11 c12 c22", real=True)
    C = sp.Matrix([[c11, c12], [c12, c22]])
    I2 = sp.eye(2)
    m1 = expect_product(C, quadratic=[I2])
    m2 = expect_product(C, quadratic=[I2, I2])
    yield rules.identity("E[wᵀw] = tr C", m1, C.trace(), scope="exact (Isserlis), symbolic 2×2 C")
    yield rules.identity("Var(wᵀw) = 2 tr C² (so Var σ_w = 2 tr C²/d²)", sp.expand(m2 - m1 ** 2), 2 * (C * C).trace(),
                         scope="exact (Isserlis), symbolic 2×2 C")
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


@claims.claim("004-effective-rank", lines=(121, 123), conventions=["C2", "C4"],
              revision={"previous": "confirmed", "why": "hand-written conjunction with z-tests replaced: exact "
                        "identities/inequalities for the condition and its consequence, one paired Student-t "
                        "superiority test for the simulation, the floor formula's Monte Carlo as a self-check."})
def effective_rank(ctx):
    """Result 1 needs tr C = d and tr C² = o(d²): r_eff = (tr C)²/tr C² must diverge; putting all the signal in
    a fixed number of directions violates the condition (and then the Hermite reduction with ρ_nl fails)."""
    d, r = sp.symbols("d r", positive=True)
    trC, trC2 = sp.symbols("trC trC2", positive=True)
    r_eff = trC ** 2 / trC2
    yield rules.identity("tr C = d: Var σ_w = 2 tr C²/d² = 2/r_eff", (2 * trC2 / d ** 2).subs(trC, d),
                         (2 / r_eff).subs(trC, d), scope="exact (SymPy)")
    yield rules.identity("C = (d/r)·diag(1_r, 0): r_eff = r, so Var σ_w = 2/r does not vanish as d → ∞",
                         (r * d / r) ** 2 / (r * (d / r) ** 2), r, scope="exact (SymPy), fixed r")
    RS = (1, 2, 4, 16, 64)
    rnl = float(nl.rho_nonlinear("sin", RHO))
    floors = [nl.rank_floor_sin(x, RHO) for x in RS]
    yield rules.inequality("sin, α, τ → ∞: the rank-r floor exceeds ρ_nl for fixed r", floors, ">", rnl,
                           scope="exact, r ∈ {1, 2, 4, 16, 64}, ρ = 0.1")
    rr, rho = sp.Symbol("r", positive=True), sp.Rational(1, 10)
    floor_r = rho + sp.S.Half - (1 + 4 / rr) ** (-rr / 2) / 2 - (1 + 2 / rr) ** (-rr / 2 - 1)
    yield rules.identity("the rank-r floor tends to ρ_nl as r → ∞", sp.limit(floor_r, rr, sp.oo),
                         nl.rho_nonlinear("sin", RHO), scope="exact (SymPy limit of the closed form below)")
    sz = sizes(ctx)
    rng = np.random.default_rng(ctx.seed_for("004-effective-rank/floor"))
    for x in (1, 4):
        yield selfcheck.agreement(f"rank-{x} floor formula vs Monte Carlo (σ² ~ Γ, Gauss–Hermite inner means)",
                                  Estimate.from_samples(nl.rank_floor_samples("sin", x, RHO, sz["floor_mc_n"], rng)),
                                  nl.rank_floor_sin(x, RHO))
    yield from _rank_simulation(ctx, sz, rnl)
    yield Derivation(r"e_\infty(r)=\rho+\mathbb E_{\sigma}\big[\mathbb E\sin^2(\sigma g)-(\mathbb E\,g\sin(\sigma g))^2\big]"
                     r"=\rho+\tfrac12-\tfrac12(1+4/r)^{-r/2}-(1+2/r)^{-r/2-1},\ \sigma^2\sim\Gamma(\tfrac r2,\tfrac2r)")


def _rank_simulation(ctx, sz, rnl):
    """Actual model with rank-1 vs isotropic tasks: deviation from Result 1 (general-covariance form)."""
    d, T = sz["rank_d"], sz["rank_trials"]
    a1sq = float(nl.teacher_moments(RANK["f"])["a1"]) ** 2
    dev = {}
    seed = ctx.seed_for("004-effective-rank/sim")
    for lab, r in (("rank 1", 1), ("isotropic", d)):
        ev = np.r_[np.full(r, d / r), np.zeros(d - r)]
        sim = nl.simulate_icl_sweep(RANK["f"], d, RANK["alpha"], RANK["kappa"], [RANK["tau"]], RHO, trials=T,
                                    seed=seed, n_test=sz["ntest"], C_train=ev, C_test=ev)
        th = nl.e_icl_linear_general(RANK["tau"], RANK["alpha"], RANK["kappa"], rnl, a1sq * ev, a1sq * ev)
        dev[lab] = sim.trial_means[:, 0] - th
    est = Estimate.from_samples(dev["rank 1"] - dev["isotropic"])
    yield rules.superiority("the actual model departs further from Result 1 with rank-1 tasks than with isotropic "
                            "tasks", est, margin=0.0,
                            scope=f"sin, d = {d}, α = 32, τ = 16, κ = ∞, ρ = 0.1, paired trials ({T}); Result 1 in "
                                  "its general-covariance form with a₁²C", chosen={"d": d, "trials": T, "α": 32, "τ": 16})


# ================================================================================ Appendix B
@claims.claim("004-appendix-b-moments", lines=(127, 136), conventions=["C1", "C2"],
              revision={"previous": "confirmed", "why": "the seed's leading forms are decided by exact identities "
                        "and SymPy limits; the Monte Carlo comparison with our exact finite-ℓ moments is now a pair of "
                        "joint self-checks (direct and projected context sampler)."})
def appendix_b_moments(ctx):
    """E[yx | w] ≈ a₁w/d and E[u | w] ≈ a₁w (only the first Hermite coefficient); E[y² | w] ≈ ρ_f;
    E[y_test H | w] ≈ (1/d)[a₁² wwᵀ, a₁ρ_f w]; E[hhᵀ | w] ≈ (1/d) I_d ⊗ [[ρ_f/α I + a₁² wwᵀ, a₁ρ_f w],
    [a₁ρ_f wᵀ, ρ_f²]]; the finite-ℓ corrections (with E[g²f²], E[gf³], E[f⁴]) vanish in the leading limit."""
    pm = polynomial_teacher_moments()
    scope = "exact (Isserlis), f = g³ − g + 1/2 (a₀, a₁ ≠ 0), d = 3, ‖w‖² = d, symbolic ρ"
    for name, pair in pm.items():
        if not name.startswith("_"):
            yield rules.identity(name, pair[0], pair[1], scope=scope)
    a1, rf, al, d = sp.symbols("a1 rho_f alpha d", positive=True)
    m22, m31, m4 = sp.symbols("mu22 mu31 mu4", real=True)
    w = sp.Matrix(sp.symbols("w0:3", real=True))
    yield rules.identity("E[u | w] = (d/ℓ)·ℓ·E[yx | w] = a₁w", d * (a1 * w / d), a1 * w, scope="exact (SymPy)")
    yield rules.identity("E[y_test H | w] = E[y_test x_test]·E[[uᵀ, s]] = (1/d)[a₁² wwᵀ, a₁ρ_f w]",
                         (a1 * w / d) * (a1 * w.T).row_join(sp.Matrix([[rf]])),
                         (a1 ** 2 * w * w.T).row_join(a1 * rf * w) / d, scope="exact (SymPy), x_test ⟂ context")
    ell = al * d
    lead = {"E[s²]: (μ₄ − ρ_f²)/ℓ relative to ρ_f²": ((m4 - rf ** 2) / ell) / rf ** 2,
            "E[u s]: (μ₃₁ − a₁ρ_f)/ℓ relative to a₁ρ_f": ((m31 - a1 * rf) / ell) / (a1 * rf),
            "E[uuᵀ] along w: (μ₂₂ − ρ_f − a₁²)/(αd) relative to a₁²‖w‖²/d": ((m22 - rf - a1 ** 2) / ell) / a1 ** 2}
    for name, rel in lead.items():
        yield rules.identity(f"finite-ℓ correction vanishes as d → ∞: {name}", sp.limit(rel, d, sp.oo), 0,
                             scope="exact (SymPy), ℓ = αd")
    rng = np.random.default_rng(ctx.seed_for("004-appendix-b-moments/feature-map"))
    X, Z = rng.standard_normal((2, 3)), rng.standard_normal((2, 4))
    yield rules.identity("h = vec(x_test[uᵀ, s]) = x_test ⊗ [u; s] (so E[hhᵀ] = E[xxᵀ] ⊗ E[zzᵀ] = (1/d) I ⊗ E[zzᵀ])",
                         reduced_features(X, Z[:, :3], Z[:, 3]), np.stack([np.kron(x, z) for x, z in zip(X, Z)]),
                         rtol=1e-15, scope="the model's feature map (row-major vectorisation)")
    yield from _appendix_b_selfchecks(ctx)
    yield assumptions.assumption_note("004-appendix-b-moments")
    for key in ("Euu", "Eus", "Ess", "EyH", "Ehh", "mus"):
        yield Derivation(NM.LATEX[key])


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


# later seed lines: Result 1 and the a₁ = 0 branch, then the figures (registration order = seed order)
from . import claims_theory as _claims_theory  # noqa: E402,F401
from . import claims_figures as _claims_figures  # noqa: E402,F401
