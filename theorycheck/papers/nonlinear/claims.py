r"""Claims of paper 004, in seed order. Each claim quotes its seed lines (and fragment), computes
its evidence with the engines and models, and hands it to the verdict rules.

Sizes (:func:`sizes`): quick mode uses small d; full mode the paper's d.
"""
from __future__ import annotations

import sympy as sp

from ...hermite import hermite_h
from ...verdicts import rules
from ..api import Claims, Derivation

claims = Claims()

RHO = 0.1


def sizes(ctx) -> dict:
    """Run sizes (shown in the report)."""
    return {"rho": RHO}


@claims.claim("004-hermite-basis", lines=(85, 91), conventions=["C1"])
def hermite_basis(ctx):
    """Orthonormal Hermite basis: h₀ = 1, h₁ = g, h₂ = (g² − 1)/√2, E[h_m h_j] = δ_mj; a₁ = E[g f(g)] and
    E[f(g)²] = Σ a_m²."""
    g = sp.Symbol("g", real=True)
    phi = sp.exp(-g ** 2 / 2) / sp.sqrt(2 * sp.pi)
    hs = [hermite_h(m, g) for m in range(5)]
    gram = sp.Matrix(5, 5, lambda i, j: sp.integrate(sp.expand(hs[i] * hs[j]) * phi, (g, -sp.oo, sp.oo)))
    scope = "exact (SymPy), m, j ≤ 4"
    yield rules.identity("h₀ = 1", hs[0], 1, scope=scope)
    yield rules.identity("h₁ = g", hs[1], g, scope=scope)
    yield rules.identity("h₂ = (g² − 1)/√2", hs[2], (g ** 2 - 1) / sp.sqrt(2), scope=scope)
    yield rules.identity("E[h_m h_j] = δ_mj (Gram matrix of h₀..h₄ is the identity)", gram, sp.eye(5), scope=scope)
    yield Derivation(r"h_m=\mathrm{He}_m/\sqrt{m!},\quad \mathbb E[h_mh_j]=\delta_{mj},\quad a_1=\mathbb E[gf(g)]")
