r"""Claims of paper 001 from its limitations (seed line 104): for s ≥ 2 there is no closed-form optimum (a negative,
scoped to what was tried)."""
from __future__ import annotations

import numpy as np

from ....claims import Clause
from ....verdicts import rules, selfcheck
from ...api import Note, Remedy
from ..registry import claims
from ..settings import T_STATED, prior_params, prior_scope, rng_for
from ..theory.gd import coefficient_inertia, exact_halved_loss


# ============================================================================ line 104
@claims.claim("001-ar2-constrained-optimum", lines=(104, 104), needs=("exact_optima",), conventions=["C3", "C4"],
              fragment=r"AR(s)（\(s\ge2\)）只有结构刻画 + 经验解释，没有闭式最优解", weight="supporting",
              title="For s ≥ 2 there is no closed-form optimum (the paper's stated limitation)",
              clauses=[Clause("c1", r"AR(s)（\(s\ge2\)）只有结构刻画 + 经验解释", "assertion", asserted=False),
                       Clause("c2", "没有闭式最优解", "negative")])
def ar2_constrained_optimum(ctx, exact_optima):
    """For s ≥ 2 there is no closed-form optimum like Theorem 4.1. What was tried: at s = 2 and 3 the unconstrained
    optimum over the effective coefficients (the linear solve that gives Theorem 4.1) is not realisable by one attention
    layer, and the best realisable loss found is strictly above it."""
    yield Note("Realisable coefficients have S_j = (v wᵀ + w vᵀ)/2 for each query index j (C3), with at most one "
               "positive and one negative eigenvalue; S_kk = C_kkj, S_kl = C_klj/2. A negative ('no closed form') "
               "cannot be confirmed by computation: the sub-claims scope it to what was tried.")
    rng = rng_for(ctx, "ar2-bound")
    gaps = []
    for s, o in sorted(exact_optima.items()):
        if s < 2:
            continue
        m = o["moments"]
        c = np.asarray(o["C_unconstrained"])
        inertia = coefficient_inertia(c, m["features"], s)
        worst = max(max(v["n_pos"], v["n_neg"]) for v in inertia.values())
        scope = f"{prior_scope('a')}, T = {o['T']}, exact moments, s = {s}"
        params = [T_STATED, *prior_params("a")]
        best = min(p["loss"] for p in o["free"])
        gaps.append(best / o["unconstrained"] - 1)
        yield rules.inequality(f"s = {s}: the best realisable loss found (multi-start) is above the unconstrained "
                               "optimum", best, ">", o["unconstrained"] * (1 + 1e-9), clauses=["c2"], params=params,
                               scope=scope, details={"loss_found": best, "loss_unconstrained": o["unconstrained"],
                                                     "relative_gap": gaps[-1], "decisive": s == 2,
                                                     "quantity": "the best realisable loss",
                                                     "reference": "the unconstrained optimum (a closed form)"})
        yield rules.inequality(f"s = {s}: some S_j of the unconstrained optimum has ≥ 2 eigenvalues of one sign (not "
                               "realisable)", worst, ">=", 2, clauses=["c2"], params=params, scope=scope,
                               details={"inertia": {j: (v["n_pos"], v["n_neg"]) for j, v in inertia.items()},
                                        "halved_loss_unconstrained": o["unconstrained"]})
        excess = []
        for _ in range(20):
            W, V = rng.standard_normal((2, s + 1, s + 1)) * 0.3
            excess.append(max(0.0, o["unconstrained"] - exact_halved_loss(W, V, m)))
        yield selfcheck.identity(f"s = {s}: realisable weights never beat the unconstrained optimum", np.array(excess),
                                 np.zeros(len(excess)), atol=1e-12 * abs(o["unconstrained"]))
    if gaps:
        yield Remedy("add that the closed-form unconstrained optimum (the linear solve behind Theorem 4.1) is not "
                     "realisable but lies within {lo} % to {hi} % of the best realisable loss found (s = 2 to {s}): a "
                     "near-closed form", lo=100 * min(gaps), hi=100 * max(gaps), s=max(exact_optima), clauses=["c2"])
