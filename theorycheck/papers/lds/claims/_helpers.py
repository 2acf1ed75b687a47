r"""What the claims of paper 001 share (their sections are the other modules of :mod:`..claims`): the share of the
optimal layer's gain that the Krylov term of Eq. 17 carries (issue 29, class 4).

The exact best losses come from the fixtures ``exact_optima`` (default prior) and ``corner_optima`` (the 16 corners
of the admissible prior box): ``zero`` (predict 0), ``no_hessian`` (the layer without the Krylov term's features
:math:`G_{kl}q_j`, :math:`k,l\le s`, everything else refitted: one preconditioned GD step plus the γ-scaled p, a
realisable layer — :mod:`..theory.ablation`), the unconstrained optimum (a lower bound for every weight) and the best
loss found (attained). The optimum is bracketed between the last two, so the share is an exact interval
(:func:`theorycheck.verdicts.rules.share`).

>>> krylov_bracket({"families": {"zero": 2.0, "no_hessian": 1.1, "unconstrained": 0.99}, "free": [{"loss": 1.0}]})
((0.99, 1.0), 1.1, 2.0)
"""
from __future__ import annotations

from ....verdicts import rules, selfcheck
from ...api import Remedy
from ..settings import MATERIAL_SHARE, T_STATED, prior_params, prior_scope

__all__ = ["krylov_bracket", "share_bounds", "corner_share_extent", "corner_text", "krylov_share_subclaims"]


def krylov_bracket(o: dict) -> tuple:
    """``((lower bound, attained), without, baseline)`` of the Krylov term's share at one optimum record (an
    ``exact_optima`` or ``corner_optima`` value)."""
    f = o["families"]
    attained = min(p["loss"] for p in o["free"]) if "free" in o else o["loss_found"]
    lo = min(f["unconstrained"], attained)
    return (lo, attained), f["no_hessian"], f["zero"]


def share_bounds(full, without: float, baseline: float) -> tuple[float, float]:
    """The exact interval ``(low, high)`` of the share of the gain over ``baseline`` lost without the term."""
    lo, hi = full
    return max(0.0, (without - hi) / (baseline - hi)), (without - lo) / (baseline - lo)


def corner_text(corner: dict) -> str:
    """A corner of the prior box in words: ``a_max 0.5, σ₀ 10, σ_w 0.05, σ_v 0.01``."""
    names = {"a_max": "a_max", "sigma0": "σ₀", "sigma_w": "σ_w", "sigma_v": "σ_v"}
    return ", ".join(f"{names.get(k, k)} {v:g}" for k, v in corner.items())


def corner_share_extent(corner_optima: dict, s: int, threshold: float) -> dict | None:
    """The extent of "the Krylov term carries less than ``threshold`` of the gain" over the corners of the prior box at
    window ``s`` (None when the corners were not computed): where it holds and where it stops."""
    rows = [v for v in corner_optima.values() if v["s"] == s]
    if not rows:
        done = sorted({v["s"] for v in corner_optima.values()})
        if not done:
            return None
        held = [sum(share_bounds(*krylov_bracket(v))[1] < threshold for v in corner_optima.values() if v["s"] == w)
                for w in done]
        n = sum(v["s"] == done[0] for v in corner_optima.values())
        return {"where": f"s = {s}: the default prior; the corners of the prior box were computed at s ∈ "
                         f"{{{', '.join(map(str, done))}}}, where the upper end is below {100 * threshold:g} % at "
                         + " and ".join(f"{k} of {n} corners (s = {w})" for k, w in zip(held, done)),
                "holds_throughout": False}
    highs = [(share_bounds(*krylov_bracket(v))[1], v["corner"]) for v in rows]
    stop = sorted(((h, c) for h, c in highs if h >= threshold), key=lambda x: -x[0])
    where = (f"s = {s}: the default prior and {len(rows) - len(stop)} of {len(rows)} corners of the admissible prior "
             f"box, where the share's upper end is below {100 * threshold:g} %")
    stops = ("; ".join(f"{corner_text(c)} (upper end {100 * h:.3g} %)" for h, c in stop[:3]) if stop
             else "at no corner of the box")
    return {"where": where, "stops": stops, "holds_throughout": False,
            "corners_above": len(stop), "corners": len(rows), "largest_upper_end": max(h for h, _ in highs)}


def krylov_share_subclaims(exact_optima: dict, corner_optima: dict, clauses: list):
    """For each window s ≥ 2 of ``exact_optima``: the rule ``share`` on "the Krylov term P∇²L·q carries a material
    share (:data:`~..settings.MATERIAL_SHARE`) of the optimal layer's gain over predicting zero", with its extent
    over the corners of the prior box where they were computed; then the Remedy that states the one-step form."""
    t = MATERIAL_SHARE.value
    worst_gap, worst_share, s_max = 0.0, 0.0, None
    for s, o in sorted(exact_optima.items()):
        if s < 2:
            continue
        full, without, zero = krylov_bracket(o)
        ext = corner_share_extent(corner_optima, s, t) or {
            "where": f"s = {s}: the default prior (the corners of the prior box were not computed at this size)",
            "holds_throughout": False}
        yield rules.share(f"s = {s}: the Krylov term P∇²L·q of Eq. 17 carries at least {100 * t:g} % of the optimal "
                          "layer's gain over predicting zero", full=full, without=without, baseline=zero, threshold=t,
                          clauses=clauses, params=[T_STATED, *prior_params("a"), MATERIAL_SHARE],
                          scope=f"{prior_scope('a')}, T = {o['T']}, exact population loss: the optimum bracketed by "
                                "the unconstrained optimum over the coefficients and the best of a multi-start search; "
                                "without the term: the exact best layer on the other features (one preconditioned GD "
                                "step and γp, realisable)",
                          extent={k: v for k, v in ext.items() if k in ("where", "stops", "holds_throughout")},
                          details={"decisive": s == max(exact_optima), "corners_above_threshold": ext.get("corners_above"),
                                   "largest_upper_end_at_corners": ext.get("largest_upper_end"),
                                   "loss_without_krylov_relative": without / full[1] - 1,
                                   "loss_preconditioned_gd": o["families"]["preconditioned_gd"]})
        yield selfcheck.identity(f"s = {s}: the layer realising the no-Krylov family (W_V = e e ᵀ) attains its "
                                 "least-squares loss", o["families"]["no_hessian_realised"], without, rtol=1e-9)
        worst_gap = max(worst_gap, without / full[1] - 1)
        worst_share = max(worst_share, share_bounds(full, without, zero)[1])
        s_max = s
    if s_max is not None and worst_share < t:
        yield Remedy("describe the optimal layer for s ≥ 2 as one preconditioned GD step plus a data-scaled correction "
                     "γp with a small Krylov term: without P∇²L·q it is within {gap} % of the optimal loss at every "
                     "window from s = 2 to {s}, and that term carries at most {share} % of the gain over predicting zero",
                     gap=100 * worst_gap, s=s_max, share=100 * worst_share, clauses=clauses)
