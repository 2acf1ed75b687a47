r"""Derivation for paper 004: the a₁ = 0 branch (seed lines 154–164, App. C Eq. (15)).

When a₁ = 0 the cross moment E[y_test h | w] vanishes (exactly for even f: E[g f(σg)] = 0 for all σ)
and E[h hᵀ | w] ≈ (1/d) I_d ⊗ diag(q I_d, ρ_f²), q = ρ_nl/α (ρ_f = ρ_nl when a₁ = 0). Pretraining is
then ridge regression of a label with no linear signal on p = d(d+1) ≃ d² features with covariance
(q/d) I and n = τ d² samples, penalty (n/d)λ. Risk used (our derivation, standard ridge theory —
e.g. Hastie, Montanari, Rosset & Tibshirani, Ann. Stat. 2022, for the ridgeless case):

    e = ρ_nl (1 + V),   V = (1/n) E tr[S (S + μ)^{-2}],   S = ZᵀZ/n (Z n×p standard), μ = λ/q,

because after whitening the features the penalty (n/d)λ becomes n·μ and the d/q factors cancel.
With g(μ) = (1/p) tr (S+μ)^{-1} (Marchenko–Pastur, ratio γ = p/n = 1/τ): g = 1/(μ + 1/(1+γ g)),
V = γ (g + μ g').

Steps (AssertionError if any fails):
1. The seed's fixed point χ₀ = q/(qτ/(1+χ₀) + τλ) is the quadratic τλχ² + (qτ + τλ − q)χ − q = 0;
   its positive root is χ₀ = g(μ)/τ, μ = λ/q (checked by substitution).
2. λ̃ = λ(1+χ₀); limits λ → 0⁺: λ̃ → q(1−τ)/τ for τ < 1 and λ̃ → 0 for τ > 1 (seed line 158).
3. With κ_e = λ̃/q the effective-regularisation identity κ_e(1 − γ/(1+κ_e)) = μ holds, and
   V = γ/((1+κ_e)² − γ), i.e. e = ρ_nl τ(1+κ_e)²/(τ(1+κ_e)² − 1) for every λ > 0 (checked
   symbolically against V = γ(g + μ g')).
4. λ → 0: e → ρ_nl/(1−τ) (τ < 1) and ρ_nl τ/(τ−1) (τ > 1) — the boxed Eq. (10); teaching numbers
   2ρ_nl at τ = 1/2 and 2, 10ρ_nl at τ = 9/10 (seed line 164); τ → ∞: e → ρ_nl.
Writes ``theorycheck/papers/nonlinear/generated/nonlinear_a1_zero.py``.
"""
from __future__ import annotations

from pathlib import Path

import sympy as sp

from ....codegen import write_module

SCRIPT = "theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero"
GENERATED_PACKAGE = "theorycheck.papers.nonlinear.generated"

tau, q, lam, rnl, s = sp.symbols("tau q lam rho_nl s", positive=True)
chi, mu, g_, ke = sp.symbols("chi mu g kappa_e", positive=True)


def expressions() -> dict:
    """The expressions of the derivation — χ₀ (the positive root of the fixed point's quadratic), λ̃, κ_e, the ridge
    risk and its two ridgeless branches — built without the checks of :func:`derive` (which proves them and is
    re-run by ``theorycheck derive --check`` before every run); what the claims use and test in their own
    sub-claims."""
    a, b, c = tau * lam, q * tau + tau * lam - q, -q
    chi0 = (-b + sp.sqrt(b ** 2 - 4 * a * c)) / (2 * a)       # positive root (c < 0 < a)
    lt = lam * (1 + chi0)
    kap = sp.simplify(lt / q)
    risk_k = rnl * tau * (1 + ke) ** 2 / (tau * (1 + ke) ** 2 - 1)
    return {"chi0": chi0, "lam_tilde": lt, "kappa_e": kap, "risk_lam": risk_k.subs(ke, kap), "risk_kappa": risk_k,
            "e_below": rnl / (1 - tau), "e_above": rnl * tau / (tau - 1), "lt_below": q * (1 - tau) / tau}


def derive() -> dict:
    r = expressions()
    # 1. fixed point -> quadratic, positive root
    fp = sp.Eq(chi, q / (q * tau / (1 + chi) + tau * lam))
    quad = sp.expand((chi * (q * tau / (1 + chi) + tau * lam) - q) * (1 + chi))
    assert sp.simplify(quad - (tau * lam * chi ** 2 + (q * tau + tau * lam - q) * chi - q)) == 0
    chi0 = r["chi0"]
    assert sp.simplify(fp.lhs.subs(chi, chi0) - fp.rhs.subs(chi, chi0)) == 0
    # chi0 = g/tau with g the MP Stieltjes transform at mu = lam/q, ratio gamma = 1/tau
    gam = 1 / tau
    g_of_mu = sp.solve(sp.Eq(g_ * (mu + 1 / (1 + gam * g_)), 1), g_)
    g_pos = [r for r in g_of_mu if sp.simplify(r.subs({tau: 2, mu: 1})) > 0][0]
    assert sp.simplify((g_pos / tau).subs(mu, lam / q) - chi0) == 0

    # 2. lam_tilde and its limits on each side of tau = 1
    lt = r["lam_tilde"]
    lt_below = sp.simplify(sp.limit(lt.subs(tau, 1 / (1 + s)), lam, 0, "+"))   # tau = 1/(1+s) < 1
    lt_above = sp.simplify(sp.limit(lt.subs(tau, 1 + s), lam, 0, "+"))        # tau = 1+s > 1
    assert sp.simplify(lt_below - (q * (1 - tau) / tau).subs(tau, 1 / (1 + s))) == 0
    assert lt_above == 0

    # 3. effective regularisation and the variance term
    kap = r["kappa_e"]
    assert sp.simplify(kap * (1 - gam / (1 + kap)) - lam / q) == 0
    Vk = gam / ((1 + ke) ** 2 - gam)
    V_from_g = gam * (g_pos + mu * sp.diff(g_pos, mu))
    check_pts = [{tau: sp.Rational(1, 2), mu: sp.Rational(1, 3)}, {tau: 3, mu: sp.Rational(2, 7)},
                 {tau: sp.Rational(9, 10), mu: 5}]
    for pt in check_pts:
        kval = kap.subs({lam: pt[mu] * q}).subs(tau, pt[tau])
        lhs = sp.nsimplify(sp.N(Vk.subs(ke, kval).subs(tau, pt[tau]), 50))
        rhs = sp.nsimplify(sp.N(V_from_g.subs(pt), 50))
        assert abs(sp.N(lhs - rhs, 40)) < 1e-35, pt
    risk_k = r["risk_kappa"]
    assert sp.simplify(rnl * (1 + Vk) - risk_k) == 0
    risk_lam = r["risk_lam"]

    # 4. ridgeless limits and the seed's numbers
    below = sp.simplify(sp.limit(risk_lam.subs(tau, 1 / (1 + s)), lam, 0, "+"))
    above = sp.simplify(sp.limit(risk_lam.subs(tau, 1 + s), lam, 0, "+"))
    assert sp.simplify(below - (rnl / (1 - tau)).subs(tau, 1 / (1 + s))) == 0
    assert sp.simplify(above - (rnl * tau / (tau - 1)).subs(tau, 1 + s)) == 0
    e_below, e_above = r["e_below"], r["e_above"]
    assert e_below.subs(tau, sp.Rational(1, 2)) == 2 * rnl
    assert e_above.subs(tau, 2) == 2 * rnl
    assert sp.simplify(e_below.subs(tau, sp.Rational(9, 10)) - 10 * rnl) == 0
    assert sp.limit(e_above, tau, sp.oo) == rnl
    return r


def main() -> list[Path]:
    r = derive()
    functions = {
        "chi0": ([tau, q, lam], r["chi0"]),
        "lam_tilde": ([tau, q, lam], r["lam_tilde"]),
        "risk_ridge": ([tau, q, lam, rnl], r["risk_lam"]),
        "risk_ridgeless_below": ([tau, rnl], r["e_below"]),
        "risk_ridgeless_above": ([tau, rnl], r["e_above"]),
    }
    latex = {
        "fixed_point": r"\chi_0=\frac{q}{q\tau/(1+\chi_0)+\tau\lambda}\iff \tau\lambda\chi_0^2+(q\tau+\tau\lambda-q)\chi_0-q=0",
        "chi0": r"\chi_0=" + sp.latex(r["chi0"]),
        "lam_tilde_limits": r"\tilde\lambda=\lambda(1+\chi_0)\xrightarrow{\lambda\to0^+}"
                            r"\begin{cases}q(1-\tau)/\tau,&\tau<1\\0,&\tau>1\end{cases}",
        "risk": r"e=\rho_{\rm nl}\Big(1+\frac{\gamma}{(1+\kappa_e)^2-\gamma}\Big)=\rho_{\rm nl}\frac{\tau(1+\kappa_e)^2}"
                r"{\tau(1+\kappa_e)^2-1},\quad \kappa_e=\tilde\lambda/q,\ \gamma=1/\tau",
        "risk_source": r"V=\tfrac1n\operatorname{tr}[S(S+\mu)^{-2}]=\gamma\,(g+\mu g'),\ "
                       r"g=\frac{1}{\mu+1/(1+\gamma g)},\ \mu=\lambda/q",
        "boxed": r"e\xrightarrow{\lambda\to0^+}\rho_{\rm nl}\begin{cases}\frac{1}{1-\tau},&\tau<1\\"
                 r"\frac{\tau}{\tau-1},&\tau>1\end{cases}",
    }
    path = write_module("nonlinear_a1_zero", functions, SCRIPT, package=GENERATED_PACKAGE, latex=latex,
                        docstring="The a_1 = 0 branch of paper 004: fixed point chi_0, lam_tilde, ridge risk "
                                  "and its ridgeless limits (derived in "
                                  "theorycheck/papers/nonlinear/derivations/nonlinear_a1_zero.py).")
    return [path]


if __name__ == "__main__":
    main()
