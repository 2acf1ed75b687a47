r"""What the claim modules of paper 004 share: the symbol :math:`g`, direct Gaussian integrals (an independent route
to the moments the Hermite engine computes — the claims compare the two) and the clause texts' helpers.

>>> gauss_E(g ** 4)
3
"""
from __future__ import annotations

import sympy as sp

__all__ = ["g", "PHI", "gauss_E", "gauss_E_relu"]

g = sp.Symbol("g", real=True)
PHI = sp.exp(-g ** 2 / 2) / sp.sqrt(2 * sp.pi)


def gauss_E(expr):
    """Exact E[expr(g)], g ~ N(0, 1), by SymPy integration of expr·φ (not through the Hermite engine)."""
    return sp.simplify(sp.integrate(sp.expand(expr) * PHI, (g, -sp.oo, sp.oo)))


def gauss_E_relu(expr, relu):
    """Exact E[expr(g)], g ~ N(0, 1), for an expression in g and the ReLU ``relu`` = Piecewise((g, g > 0), (0, True)):
    the same Gaussian integral as :func:`gauss_E`, split at the kink (relu = g on g > 0, 0 on g ≤ 0) so that SymPy
    integrates two smooth integrands instead of taking its Meijer-G route through the Piecewise."""
    pos, neg = sp.expand(expr.subs(relu, g)), sp.expand(expr.subs(relu, 0))
    return sp.simplify(sp.integrate(pos * PHI, (g, 0, sp.oo)) + sp.integrate(neg * PHI, (g, -sp.oo, 0)))
