"""Claims of paper 000, in seed order (being ported to the verdict engine)."""
from __future__ import annotations

import numpy as np

from ...models.attention import gla_forward
from ...models.prompts import ar1_drift_prompts
from ...verdicts import rules
from ..api import Claims

claims = Claims()

CONVENTIONS = [
    "Tokens $z_i=(x_i,y_i)$, $i\\le n$, form the prompt; the query is $z_{n+1}=(x_{n+1},0)$; GLA weight on token $i$ "
    "is $\\lambda^{n+1-i}$; the sum includes the query token.",
]


def sizes(ctx) -> dict:
    return {}


@claims.claim("000-gla-recursion", lines=(46, 46), conventions=["C1"])
def gla_recursion(ctx):
    """λ = 1 reduces the GLA recursion to linear attention W_V Z Zᵀ W_KQ z_{n+1}."""
    rng = np.random.default_rng(ctx.seed_for("000-gla-recursion"))
    d, n = 3, 7
    X, Y = ar1_drift_prompts(rng, 50, 0.9, n, np.eye(d), 1.0, 0.1, 0.05)
    WV, WKQ = rng.standard_normal((d + 1, d + 1)), rng.standard_normal((d + 1, d + 1))
    Z = np.concatenate([X, np.concatenate([Y[:, :-1], np.zeros((50, 1))], axis=1)[:, :, None]], axis=2)
    la = np.einsum("ij,bjk,kl,bl->bi", WV, np.einsum("bti,btj->bij", Z, Z), WKQ, Z[:, -1])[:, d]
    yield rules.identity("GLA(λ = 1) = linear attention", gla_forward(X, Y, 1.0, WKQ, WV), la, rtol=1e-12,
                         scope=f"d = {d}, n = {n}, 50 random prompts and weights")
