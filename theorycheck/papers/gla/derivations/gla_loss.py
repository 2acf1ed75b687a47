r"""Derivation for paper 000 (GLA beyond stationarity): population loss, optimum, train error.

Model (conventions of :mod:`theorycheck.papers.gla.theory`): w_0 ~ N(0, s_w I_d), w_i = γ w_{i-1} + e_i with
e_i ~ N(0, s_e I_d) (i = 1..n+1), x_i ~ N(0, Λ), y_i = <w_i, x_i> + ε_i, Var ε = σ² (``noise``).
Reduced GLA predictor: ŷ = x_qᵀ Γ h with h = Σ_{i=1}^n λ^{n+1-i} y_i x_i, Γ = v W_KQ[:d,:d]ᵀ.

Steps (each one an exact SymPy computation; the script stops with AssertionError if any fails):

1. Isserlis (shared engine ``theorycheck.gaussian.expect_product``), symbolic Λ (d = 1, 2, 3):
   E[y_i y_j x_i x_jᵀ] = ρ_ij Λ² (i ≠ j, ρ_ij = Cov(w_i, w_j) entry),
   E[y_i² x_i x_iᵀ] = s_i (2Λ² + tr Λ · Λ) + σ² Λ,   E[y_i x_i w_qᵀ] = ρ_iq Λ.
2. Hence H = E[h hᵀ] = Λ[(A₂ + B)Λ + (B tr Λ + σ² N₀) I], C = E[h w_qᵀ] = D₁ Λ with
   D₁ = Σ_k (λγ)^k s_{n+1-k}, B = Σ_k λ^{2k} s_{n+1-k}, N₀ = Σ_k λ^{2k},
   A₂ = Σ_{i,j} λ^{2n+2-i-j} γ^{|i-j|} s_{min(i,j)}.
   Loss L(Γ) = tr(ΓᵀΛΓH) − 2 D₁ tr(ΛΓΛ) + s_{n+1} tr Λ + σ². The stationary point is solved as a
   linear system for symbolic Γ and Λ (d = 2) and equals Γ* = D₁[(A₂+B)Λ + (B trΛ + σ²N₀)I]⁻¹.
3. Λ = I_d, symbolic d: L* = d s_{n+1} + σ² − d D₁²/D₂, D₂ = A₂ + (d+1)B + σ²N₀.
4. Closed forms of D₁, B, N₀, A₂, s_{n+1} for symbolic n via complete homogeneous symmetric
   polynomials h_N of the bases q = λ², b = λγ, c = γ², 1 (valid when the bases are distinct);
   checked against the explicit finite sums for n = 1..6 at exact rationals.
5. Stationary limit λ = γ = 1 (s_i = s_w + i s_e): polynomial closed forms; with s_w = 1,
   s_e = σ² = 0 the train error is d(d+1)/(n+d+1) (Zhang, Frei & Bartlett 2024).
6. Large d: d·ξ → D₁²/B; Cauchy–Schwarz identity for the sign of its λ-derivative.
"""
from __future__ import annotations

import itertools
from pathlib import Path

import sympy as sp

from ....codegen import write_module
from ....gaussian import expect_product

SCRIPT = "theorycheck.papers.gla.derivations.gla_loss"
GENERATED_PACKAGE = "theorycheck.papers.gla.generated"

lam, gam = sp.symbols("lam gamma", positive=True)
n = sp.Symbol("n", integer=True, positive=True)
d = sp.Symbol("d", integer=True, positive=True)
sw2, se2, noise = sp.symbols("sigma_w2 sigma_e2 noise", nonnegative=True)


# ---------------------------------------------------------------- step 1: Isserlis blocks
def _sym_lambda(dim):
    ent = {}
    for i in range(dim):
        for j in range(i, dim):
            ent[(i, j)] = ent[(j, i)] = sp.Symbol(f"l{i}{j}")
    return sp.Matrix(dim, dim, lambda i, j: ent[(i, j)])


def isserlis_blocks(dim: int) -> dict:
    """Exact E[y_i y_j x_i x_jᵀ] (i≠j and i=j) and E[y_i x_i w_qᵀ] from the Gaussian engine."""
    L = _sym_lambda(dim)
    si, sj, rho, sig2 = sp.symbols("s_i s_j rho sigma2", positive=True)
    off = _offdiag_block(L, dim, si, sj, rho, sig2)
    diag = _diag_block(L, dim, si, sig2)
    cross = _cross_block(L, dim, si, sj, rho, sig2)
    # claimed closed forms
    want_off = rho * L * L
    want_diag = si * (2 * L * L + L.trace() * L) + sig2 * L
    want_cross = rho * L
    for got, want, name in ((off, want_off, "offdiag"), (diag, want_diag, "diag"),
                            (cross, want_cross, "cross")):
        diff = (got - want).applyfunc(sp.expand)
        assert diff == sp.zeros(dim, dim), f"Isserlis block {name} (d={dim}) mismatch: {diff}"
    return {"offdiag": want_off, "diag": want_diag, "cross": want_cross, "Lambda": L,
            "pairs": {"offdiag": (off, want_off), "diag": (diag, want_diag), "cross": (cross, want_cross)}}


def _offdiag_block(L, dim, si, sj, rho, sig2):
    """E[y_i y_j x_i x_jᵀ] for i ≠ j by Isserlis: X = (x_i, x_j, w_i, w_j, eps_i, eps_j), Cov(w_i, w_j) = ρ I."""
    Z = sp.zeros
    N = 4 * dim + 2
    cov = Z(N, N)
    cov[0:dim, 0:dim] = L
    cov[dim:2 * dim, dim:2 * dim] = L
    cov[2 * dim:3 * dim, 2 * dim:3 * dim] = si * sp.eye(dim)
    cov[3 * dim:4 * dim, 3 * dim:4 * dim] = sj * sp.eye(dim)
    cov[2 * dim:3 * dim, 3 * dim:4 * dim] = rho * sp.eye(dim)
    cov[3 * dim:4 * dim, 2 * dim:3 * dim] = rho * sp.eye(dim)
    cov[N - 2, N - 2] = sig2
    cov[N - 1, N - 1] = sig2
    e = _units(N)
    Yi, Yj = _inner_form(N, dim, 0, 2 * dim), _inner_form(N, dim, dim, 3 * dim)
    Ei, Ej = e[N - 2], e[N - 1]
    off = sp.zeros(dim, dim)
    for k in range(dim):
        for l in range(dim):
            lin = [e[k], e[dim + l]]
            val = (expect_product(cov, lin, [Yi, Yj]) + expect_product(cov, lin + [Ei, Ej])
                   + expect_product(cov, lin + [Ej], [Yi]) + expect_product(cov, lin + [Ei], [Yj]))
            off[k, l] = sp.expand(val)
    return off


def _diag_block(L, dim, si, sig2):
    """E[y_i² x_i x_iᵀ] by Isserlis: X = (x, w, eps)."""
    Z = sp.zeros
    N2 = 2 * dim + 1
    cov2 = Z(N2, N2)
    cov2[0:dim, 0:dim] = L
    cov2[dim:2 * dim, dim:2 * dim] = si * sp.eye(dim)
    cov2[N2 - 1, N2 - 1] = sig2
    Y = _inner_form(N2, dim, 0, dim)
    ee = _units(N2)
    diag = sp.zeros(dim, dim)
    for k in range(dim):
        for l in range(dim):
            lin = [ee[k], ee[l]]
            val = (expect_product(cov2, lin, [Y, Y]) + expect_product(cov2, lin + [ee[N2 - 1]] * 2)
                   + 2 * expect_product(cov2, lin + [ee[N2 - 1]], [Y]))
            diag[k, l] = sp.expand(val)
    return diag


def _cross_block(L, dim, si, sj, rho, sig2):
    """E[y_i x_i w_qᵀ], the cross moment with the query weight: X = (x_i, w_i, w_q, eps_i), Cov(w_i, w_q) = ρ I."""
    Z = sp.zeros
    N3 = 3 * dim + 1
    cov3 = Z(N3, N3)
    cov3[0:dim, 0:dim] = L
    cov3[dim:2 * dim, dim:2 * dim] = si * sp.eye(dim)
    cov3[2 * dim:3 * dim, 2 * dim:3 * dim] = sj * sp.eye(dim)
    cov3[dim:2 * dim, 2 * dim:3 * dim] = rho * sp.eye(dim)
    cov3[2 * dim:3 * dim, dim:2 * dim] = rho * sp.eye(dim)
    cov3[N3 - 1, N3 - 1] = sig2
    Y3 = _inner_form(N3, dim, 0, dim)
    e3 = _units(N3)
    cross = sp.zeros(dim, dim)
    for k in range(dim):
        for l in range(dim):
            cross[k, l] = sp.expand(expect_product(cov3, [e3[k], e3[2 * dim + l]], [Y3])
                                    + expect_product(cov3, [e3[k], e3[2 * dim + l], e3[N3 - 1]]))
    return cross


def _units(N):
    """The unit vectors e_0, …, e_{N−1} of R^N (linear forms picking one coordinate of a Gaussian vector)."""
    return [sp.Matrix([1 if t == k else 0 for t in range(N)]) for k in range(N)]


def _inner_form(N, dim, xoff, woff):
    """The symmetric matrix of the quadratic form ⟨w, x⟩ = Σ_k x_k w_k on a Gaussian vector of length N whose x
    block starts at ``xoff`` and w block at ``woff`` (each of length ``dim``)."""
    M = sp.zeros(N, N)
    for k in range(dim):
        M[xoff + k, woff + k] = sp.Rational(1, 2)
        M[woff + k, xoff + k] = sp.Rational(1, 2)
    return M


# ---------------------------------------------------------------- step 2: stationary point
def stationary_point_d2():
    """Solve ∇_Γ L = 0 for symbolic 2×2 Γ and Λ; compare with the closed form."""
    G, want = stationary_point_pair()
    assert (G - want).applyfunc(sp.simplify) == sp.zeros(2, 2), "stationary point mismatch"
    # second-order: the Hessian is Λ ⊗ H (positive definite) so the point is the minimum
    return want


def stationary_point_pair():
    """``(solved, closed form)``: the unique solution of ∇_Γ L = 0 (symbolic 2×2 Γ and Λ) and
    D₁[(A₂+B)Λ + (B trΛ + σ²N₀)I]⁻¹ (not compared here)."""
    L = _sym_lambda(2)
    A2, B, N0, D1, sig2 = sp.symbols("A_2 B N_0 D_1 sigma2", positive=True)
    H = L * ((A2 + B) * L + (B * L.trace() + sig2 * N0) * sp.eye(2))
    g = sp.Matrix(2, 2, sp.symbols("g00 g01 g10 g11"))
    loss = (g.T * L * g * H).trace() - 2 * D1 * (L * g * L).trace()
    eqs = [sp.diff(loss, x) for x in g]
    sol = sp.solve(eqs, list(g), dict=True)
    assert len(sol) == 1
    G = g.subs(sol[0])
    want = D1 * ((A2 + B) * L + (B * L.trace() + sig2 * N0) * sp.eye(2)).inv()
    return G, want


# ---------------------------------------------------------------- step 3: Λ = I, symbolic d
A2s, Bs, N0s, D1s, sqs = sp.symbols("A2 B N0 D1 s_q", positive=True)


def train_error_identity():
    """Minimum of L over Γ = g I (Λ = I_d): by symmetry the optimum is a multiple of I."""
    Lstar, want, gstar = train_error_pair()
    assert sp.simplify(Lstar - want) == 0
    return want, gstar


def train_error_pair():
    """``(minimum of L over Γ = gI, closed form d s + σ² − d D₁²/D₂, minimiser g*)`` (not compared)."""
    gg = sp.Symbol("g")
    # tr(ΓᵀΛΓH) with Λ = I, Γ = g I, H = (A2 + B + d B + σ² N0) I
    Hs = A2s + Bs + d * Bs + noise * N0s
    loss = d * gg ** 2 * Hs - 2 * D1s * gg * d + d * sqs + noise
    gstar = sp.solve(sp.diff(loss, gg), gg)[0]
    Lstar = sp.simplify(loss.subs(gg, gstar))
    want = d * sqs + noise - d * D1s ** 2 / (A2s + (d + 1) * Bs + noise * N0s)
    return Lstar, want, gstar


# ---------------------------------------------------------------- step 4: closed forms in n
def h_complete(N, bases):
    """Complete homogeneous symmetric polynomial h_N(b_1..b_r) for distinct bases (N ≥ 0)."""
    r = len(bases)
    tot = 0
    for i, bi in enumerate(bases):
        den = 1
        for j, bj in enumerate(bases):
            if j != i:
                den *= (bi - bj)
        tot += bi ** (N + r - 1) / den
    return tot


q, b, c = lam ** 2, lam * gam, gam ** 2


def closed_forms():
    """D1, B, N0, A2, s_{n+1} as functions of (lam, gamma, n, sigma_w2, sigma_e2)."""
    D1 = sw2 * b * c * h_complete(n - 1, [b, c]) + se2 * b * h_complete(n - 1, [b, c, 1])
    B = sw2 * q * c * h_complete(n - 1, [q, c]) + se2 * q * h_complete(n - 1, [q, c, 1])
    N0 = q * h_complete(n - 1, [q, 1])
    cross = sw2 * q * b * c * h_complete(n - 2, [q, b, c]) + se2 * q * b * h_complete(n - 2, [q, b, c, 1])
    A2 = B + 2 * cross
    sq = sw2 * c ** (n + 1) + se2 * h_complete(n, [c, 1])
    return {"D1": D1, "B": B, "N0": N0, "A2": A2, "s_q": sq}


def direct_sums(lv, gv, nv, swv, sev):
    s = [swv]
    for _ in range(nv + 1):
        s.append(gv ** 2 * s[-1] + sev)
    p = {i: lv ** (nv + 1 - i) for i in range(1, nv + 1)}
    D1 = sum(p[i] * gv ** (nv + 1 - i) * s[i] for i in range(1, nv + 1))
    B = sum(p[i] ** 2 * s[i] for i in range(1, nv + 1))
    N0 = sum(p[i] ** 2 for i in range(1, nv + 1))
    A2 = sum(p[i] * p[j] * gv ** abs(i - j) * s[min(i, j)]
             for i in range(1, nv + 1) for j in range(1, nv + 1))
    return {"D1": D1, "B": B, "N0": N0, "A2": A2, "s_q": s[nv + 1]}


def check_closed_forms(cf):
    pts = [(sp.Rational(1, 2), sp.Rational(4, 5)), (sp.Rational(9, 10), sp.Rational(3, 5)),
           (sp.Rational(1, 3), sp.Rational(7, 8))]
    for (lv, gv), nv in itertools.product(pts, range(1, 7)):
        swv, sev = sp.Rational(3, 2), sp.Rational(1, 7)
        want = direct_sums(lv, gv, nv, swv, sev)
        for k, expr in cf.items():
            got = sp.together(expr.subs({lam: lv, gam: gv, n: nv, sw2: swv, se2: sev}))
            assert sp.simplify(got - want[k]) == 0, f"closed form {k} wrong at n={nv}, lam={lv}, gamma={gv}"


# ---------------------------------------------------------------- step 5: stationary limit
def stationary_limit(Lstar_expr):
    i, j = sp.symbols("i j", integer=True, positive=True)
    s_i = sw2 + i * se2
    D1 = sp.summation(s_i, (i, 1, n))
    B = D1
    N0 = n
    # A2 = Σ_{i,j} s_min(i,j) = Σ_i s_i + 2 Σ_{i<j} s_i = Σ_i (1 + 2(n - i)) s_i
    A2 = sp.summation((1 + 2 * (n - i)) * s_i, (i, 1, n))
    sq = sw2 + (n + 1) * se2
    sub = {D1s: D1, Bs: B, N0s: N0, A2s: A2, sqs: sq}
    L1 = sp.factor(sp.simplify(Lstar_expr.subs(sub)))
    zfb = sp.factor(sp.simplify(L1.subs({sw2: 1, se2: 0, noise: 0})))
    assert sp.simplify(zfb - d * (d + 1) / (n + d + 1)) == 0, zfb
    return {"D1": sp.factor(D1), "B": sp.factor(B), "N0": N0, "A2": sp.factor(A2), "s_q": sq,
            "train_error": L1, "zfb": zfb}


# ---------------------------------------------------------------- step 6: large-d identity
def cauchy_schwarz_pair(nv=4):
    """``(λ(2D₁'B − D₁B'), Σ_{k>j} 2(k−j) a_k a_j λ^{k+j}(λ^jγ^k − λ^kγ^j))`` for n = ``nv`` (not compared)."""
    a = sp.symbols(f"a1:{nv + 1}", positive=True)
    D1 = sum(a[k - 1] * (lam * gam) ** k for k in range(1, nv + 1))
    B = sum(a[k - 1] * lam ** (2 * k) for k in range(1, nv + 1))
    lhs = sp.expand(lam * (2 * sp.diff(D1, lam) * B - D1 * sp.diff(B, lam)))
    rhs = sp.expand(sum(2 * a[k - 1] * a[j - 1] * (k - j) * lam ** (k + j) * (lam ** j * gam ** k - lam ** k * gam ** j)
                        for k in range(1, nv + 1) for j in range(1, k)))
    return lhs, rhs


def cauchy_schwarz_identity(nv=4):
    """2 D1' B − D1 B' = (1/λ) Σ_{k<j} a_k a_j (j−k) λ^{k+j} γ^k γ^j ((λ/γ)^... ) check at small n.

    With a_k = s_{n+1-k} > 0 (symbols), D1 = Σ a_k (λγ)^k, B = Σ a_k λ^{2k}:
    λ(2 D1' B − D1 B') = Σ_{k<j} 2 (j−k) a_k a_j λ^{k+j} (λ^k γ^j − λ^j γ^k)·… is verified
    in the form  λ(2D1'B − D1B') = Σ_{k,j} a_k a_j (k − j) λ^{k+2j} γ^k (summed over all k, j).
    """
    a = sp.symbols(f"a1:{nv + 1}", positive=True)
    D1 = sum(a[k - 1] * (lam * gam) ** k for k in range(1, nv + 1))
    B = sum(a[k - 1] * lam ** (2 * k) for k in range(1, nv + 1))
    lhs = sp.expand(lam * (2 * sp.diff(D1, lam) * B - D1 * sp.diff(B, lam)))
    rhs_all = sp.expand(sum(2 * a[k - 1] * a[j - 1] * (k - j) * lam ** (k + 2 * j) * gam ** k
                            for k in range(1, nv + 1) for j in range(1, nv + 1)))
    assert sp.expand(lhs - rhs_all) == 0
    # pair (k, j) with (j, k), k > j: a_k a_j (k − j) λ^{k+j} (λ^j γ^k − λ^k γ^j)
    rhs_pairs = sp.expand(sum(2 * a[k - 1] * a[j - 1] * (k - j) * lam ** (k + j)
                              * (lam ** j * gam ** k - lam ** k * gam ** j)
                              for k in range(1, nv + 1) for j in range(1, k)))
    assert sp.expand(lhs - rhs_pairs) == 0
    return True


def main() -> list[Path]:
    blocks = {dim: isserlis_blocks(dim) for dim in (1, 2, 3)}
    Gstar = stationary_point_d2()
    Lstar, gstar = train_error_identity()
    cf = closed_forms()
    check_closed_forms(cf)
    stat = stationary_limit(Lstar)
    cauchy_schwarz_identity()

    args5 = (lam, gam, n, sw2, se2)
    funcs = {f"cf_{k}": (args5, v) for k, v in cf.items()}
    funcs["train_error_from_sums"] = ((D1s, Bs, A2s, N0s, sqs, d, noise), Lstar)
    funcs["stationary_train_error"] = ((n, d, sw2, se2, noise), stat["train_error"])
    latex = {
        "offdiag": r"\mathbb E[y_iy_jx_ix_j^\top]=\rho_{ij}\Lambda^2\ (i\ne j)",
        "diag": r"\mathbb E[y_i^2x_ix_i^\top]=s_i(2\Lambda^2+\operatorname{tr}\Lambda\,\Lambda)+\sigma^2\Lambda",
        "cross": r"\mathbb E[y_ix_iw_{n+1}^\top]=\gamma^{n+1-i}s_i\Lambda",
        "H": r"H=\mathbb E[hh^\top]=\Lambda\big[(A_2+B)\Lambda+(B\operatorname{tr}\Lambda+\sigma^2N_0)I\big]",
        "Gamma_star": r"\Gamma^*=D_1\big[(A_2+B)\Lambda+(B\operatorname{tr}\Lambda+\sigma^2N_0)I\big]^{-1}",
        "loss": r"L(\Gamma)=\operatorname{tr}(\Gamma^\top\Lambda\Gamma H)-2D_1\operatorname{tr}(\Lambda\Gamma\Lambda)+s_{n+1}\operatorname{tr}\Lambda+\sigma^2",
        "train_error": sp.latex(Lstar),
        "stationary_train_error": sp.latex(stat["train_error"]),
        "zfb": sp.latex(stat["zfb"]),
        "D1": sp.latex(cf["D1"]),
        "B": sp.latex(cf["B"]),
        "A2": sp.latex(cf["A2"]),
        "N0": sp.latex(cf["N0"]),
        "stationary_A2": sp.latex(stat["A2"]),
        "stationary_D1": sp.latex(stat["D1"]),
    }
    constants = {
        "ISSERLIS_CHECKED_DIMS": (1, 2, 3),
        "STATIONARY_POINT_CHECKED": "d=2 symbolic Lambda, linear system solved exactly",
        "CLOSED_FORMS_CHECKED": "n=1..6 at 3 rational (lam, gamma) points vs explicit sums",
        "GAMMA_STAR_D2": str(Gstar),
    }
    path = write_module("gla_loss", funcs, SCRIPT, package=GENERATED_PACKAGE, constants=constants, latex=latex,
                        docstring=__doc__)
    return [path]


if __name__ == "__main__":
    for p in main():
        print(p)
