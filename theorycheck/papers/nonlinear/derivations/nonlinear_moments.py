r"""Derivation for paper 004: the population moments of seed Appendix B (lines 127–136), exactly.

Conditioning on a task with ‖w‖² = d (ω = 1), write x = t w/d + x⊥ with t = xᵀw ~ N(0,1) and
x⊥ ~ N(0, P⊥/d) independent of t; y = f(t) + ε, Var ε = ρ; ℓ = αd context pairs; z = [u; s].
Then, with ρ_f = ρ + E[f²] and the label moments
μ₂₂ = E[g²f²] + ρ, μ₃₁ = E[g f³] + 3ρa₁, μ₄ = E[f⁴] + 6ρE[f²] + 3ρ²:

  E[y² | w] = ρ_f,                              E[y x | w] = a₁ w/d,   E[u | w] = a₁ w,
  E[y² x xᵀ | w] = ρ_f I/d + (μ₂₂ − ρ_f) w wᵀ/d²,
  E[u uᵀ | w] = a₁² w wᵀ + (ρ_f/α) I + (μ₂₂ − ρ_f − a₁²) w wᵀ/(α d),
  E[u s | w]  = a₁ ρ_f w + (μ₃₁ − a₁ρ_f) w/(α d),
  E[s² | w]   = ρ_f² + (μ₄ − ρ_f²)/(α d),
  E[y_test H | w] = (1/d) [a₁² w wᵀ, a₁ ρ_f w]        (exact: x_test independent of the context),
  E[h hᵀ | w] = (1/d) I_d ⊗ E[z zᵀ | w]              (h = vec(x_test zᵀ), row-major).

The seed's leading forms drop the O(1/(αd)) terms (the 1/ℓ corrections with E[g²f²], E[g f³], E[f⁴]
the seed mentions) and the rank-one (μ₂₂ − ρ_f − a₁²)/α part of E[uuᵀ], which has trace O(1/α)
against the O(d/α) of the identity part (it is *not* small in operator norm).

Step checked here with the shared Gaussian engine (``theorycheck.gaussian.expect_product``,
exact SymPy): E[y² x xᵀ], E[y x], E[y³ x] for the polynomial teacher f = g³ − g + 1/2
(a₀ ≠ 0, a₁ ≠ 0) at d = 3, w = (1, 1, 1) (‖w‖² = d), symbolic ρ. Writes
``theorycheck/papers/nonlinear/generated/nonlinear_moments.py`` with the coefficient functions.
"""
from __future__ import annotations

from pathlib import Path

import sympy as sp

from ....codegen import write_module
from ....gaussian import expect_product
from ..theory.teachers import polynomial_expectation

SCRIPT = "theorycheck.papers.nonlinear.derivations.nonlinear_moments"
GENERATED_PACKAGE = "theorycheck.papers.nonlinear.generated"

a1, rho, rf, alpha, d = sp.symbols("a1 rho rho_f alpha d", positive=True)
m22, m31, m4 = sp.symbols("mu22 mu31 mu4", real=True)


def polynomial_teacher_moments() -> dict:
    """E[y^2 x x^T], E[y x], E[y^3 x], E[y^2] via Isserlis for f = g^3 - g + 1/2, d = 3, symbolic rho:
    ``{name: (computed, formula)}`` (SymPy), the formulas being those of the module docstring."""
    D = 3
    r = sp.Symbol("rho", positive=True)
    g = sp.Symbol("g", real=True)
    coeffs = {3: 1, 1: -1, 0: sp.Rational(1, 2)}          # f(t) = t^3 - t + 1/2
    f = sum(c * g ** k for k, c in coeffs.items())
    A1 = polynomial_expectation(g * f, g)
    Ef2 = polynomial_expectation(f ** 2, g)
    RF = r + Ef2
    M22 = polynomial_expectation(g ** 2 * f ** 2, g) + r
    M31 = polynomial_expectation(g * f ** 3, g) + 3 * r * A1
    # X = (x_0, x_1, x_2, eps): cov diag(1/d, 1/d, 1/d, rho)
    cov = sp.diag(*([sp.Rational(1, D)] * D), r)
    w = sp.Matrix([1, 1, 1, 0])
    eps = sp.Matrix([0, 0, 0, 1])
    e = [sp.Matrix([1 if j == i else 0 for j in range(D + 1)]) for i in range(D)]
    # y = sum_k c_k t^k + eps: expand y^p into products of linear forms
    ypoly = {}
    for k, c in coeffs.items():
        ypoly[((k, 0))] = ypoly.get((k, 0), 0) + c
    ypoly[(0, 1)] = 1                                        # the noise term

    def power(poly, p):
        out = {(0, 0): sp.Integer(1)}
        for _ in range(p):
            new = {}
            for (a, b), c1 in out.items():
                for (a2, b2), c2 in poly.items():
                    new[(a + a2, b + b2)] = new.get((a + a2, b + b2), 0) + c1 * c2
            out = new
        return out

    def E_y_power_times(p, extra):
        tot = 0
        for (kt, ke), c in power(ypoly, p).items():
            tot += c * expect_product(cov, linear=[w] * kt + [eps] * ke + extra)
        return sp.expand(tot)

    wd = sp.Matrix([1, 1, 1])
    Eyyxx = sp.Matrix(D, D, lambda i, j: E_y_power_times(2, [e[i], e[j]]))
    Eyx = sp.Matrix([E_y_power_times(1, [e[i]]) for i in range(D)])
    Ey3x = sp.Matrix([E_y_power_times(3, [e[i]]) for i in range(D)])
    return {"E[y x | w] = a1 w/d": (Eyx, A1 * wd / D),
            "E[y^2 | w] = rho_f": (E_y_power_times(2, []), RF),
            "E[y^2 x x^T | w] = rho_f I/d + (mu22 - rho_f) w w^T/d^2": (Eyyxx, RF * sp.eye(D) / D + (M22 - RF) * wd * wd.T / D ** 2),
            "E[y^3 x | w] = mu31 w/d": (Ey3x, M31 * wd / D),
            "_constants": {"a1": A1, "rho_f": RF, "mu22": M22, "mu31": M31, "d": D}}


def check_polynomial_teacher() -> None:
    """Assert every pair of :func:`polynomial_teacher_moments`."""
    for name, pair in polynomial_teacher_moments().items():
        if name.startswith("_"):
            continue
        got, want = pair
        diff = sp.simplify(got - want)
        assert diff == (sp.zeros(*diff.shape) if isinstance(diff, sp.MatrixBase) else 0), (name, got, want)



def main() -> list[Path]:
    check_polynomial_teacher()
    ell = alpha * d
    functions = {
        "Euu_identity": ([alpha, rf], rf / alpha),
        "Euu_wwT_over_d": ([a1, rf, m22, alpha], (m22 - rf - a1 ** 2) / alpha),
        "Eus_w": ([a1, rf, m31, alpha, d], a1 * rf + (m31 - a1 * rf) / ell),
        "Ess": ([rf, m4, alpha, d], rf ** 2 + (m4 - rf ** 2) / ell),
    }
    latex = {
        "Euu": r"\mathbb E[uu^\top|w]=a_1^2ww^\top+\frac{\rho_f}{\alpha}I+\frac{\mu_{22}-\rho_f-a_1^2}{\alpha}\frac{ww^\top}{d}",
        "Eus": r"\mathbb E[us|w]=a_1\rho_f w+\frac{\mu_{31}-a_1\rho_f}{\alpha d}w",
        "Ess": r"\mathbb E[s^2|w]=\rho_f^2+\frac{\mu_4-\rho_f^2}{\alpha d}",
        "Eyyxx": r"\mathbb E[y^2xx^\top|w]=\frac{\rho_f}{d}I+(\mu_{22}-\rho_f)\frac{ww^\top}{d^2}",
        "EyH": r"\mathbb E[y_{\rm test}H|w]=\tfrac1d[a_1^2ww^\top,\ a_1\rho_f w]",
        "Ehh": r"\mathbb E[hh^\top|w]=\tfrac1d I_d\otimes\mathbb E[zz^\top|w],\ z=[u;s]",
        "mus": r"\mu_{22}=\mathbb E[g^2f^2]+\rho,\ \mu_{31}=\mathbb E[gf^3]+3\rho a_1,\ \mu_4=\mathbb E[f^4]+6\rho\mathbb E[f^2]+3\rho^2",
    }
    path = write_module("nonlinear_moments", functions, SCRIPT, package=GENERATED_PACKAGE, latex=latex,
                        docstring="Exact conditional moments (||w||^2 = d) of the context statistics of paper 004, "
                                  "Appendix B, with the finite-ell corrections.")
    return [path]


if __name__ == "__main__":
    main()
