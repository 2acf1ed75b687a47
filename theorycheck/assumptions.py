r"""Assumption maps: where does each result break?

A paper's theorem rests on stated assumptions (quoted, with seed lines) and on implicit ones its
derivation uses (Gaussian inputs, isotropy, a limit, a regime, a symmetry). A paper module declares
them for a claim (:meth:`theorycheck.papers.api.Claims.assumption`) and, for each, a **stress path**
(:meth:`~theorycheck.papers.api.Claims.stress`): a family of settings ordered from "the assumption
holds" (the first value, violation 0) to "violated by a measurable amount", and a function that
decides the claim's statement at one setting with a verdict rule (e.g. ``rules.equivalence`` of the
simulated error with the theorem's prediction within a declared margin).

Every point of a path is an independent task of the run engine. :func:`decide_path` adjusts the
path's points as one Holm family at :data:`~theorycheck.verdicts.rules.FAMILY_ALPHA`, decides them,
and finds the **breaking point**: the first violation at which the statement is refuted (or not
reproduced), bracketed by the last violation at which it was confirmed — or "holds along the whole
path" when every point confirms, or "undetermined" when the points after the last confirmation are
inconclusive. An implicit assumption that breaks at the first violated point is **necessary**; the
report lists it among the findings.

>>> from theorycheck.verdicts import rules
>>> pts = [rules.identity("ok", 0.0, 0.0), rules.identity("ok", 0.0, 0.0), rules.identity("bad", 1.0, 0.0)]
>>> bp = breaking_point([0.0, 0.5, 1.0], pts)
>>> bp["status"], bp["bracket"]
('breaks', [0.5, 1.0])
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .claims import CONFIRMED, NOT_REPRODUCED, REFUTED, slugify
from .figures import new_figure
from .verdicts.aggregate import decide, explain
from .verdicts.multiplicity import holm
from .verdicts.rules import FAMILY_ALPHA

__all__ = ["AssumptionSpec", "StressSpec", "breaking_point", "decide_path", "path_figure"]


@dataclass
class AssumptionSpec:
    claim: str
    name: str
    stated: bool
    lines: tuple | None = None
    uses: str = ""


@dataclass
class StressSpec:
    claim: str
    assumption: str
    path: str
    violation: str
    values: object                 # list or ctx -> list, ordered from "holds" (first) to "violated"
    fn: object = field(repr=False, default=None)
    resolution: float | None = None    # the violation step the breaking point must resolve (declared before the data)

    def value_list(self, ctx) -> list:
        vals = list(self.values(ctx) if callable(self.values) else self.values)
        if len(vals) < 2:
            raise ValueError(f"stress path {self.claim} / {self.assumption} needs at least 2 values (holds, violated)")
        if self.resolution is not None and all(isinstance(v, (int, float)) for v in vals):
            step = max(abs(b - a) for a, b in zip(vals, vals[1:]))
            if step > self.resolution * (1 + 1e-9):
                raise ValueError(f"stress path {self.claim} / {self.assumption}: its largest step {step:.6g} is "
                                 f"coarser than the declared resolution {self.resolution:.6g}; add values")
        return vals

    @property
    def key(self) -> str:
        return f"{self.claim}::{self.assumption}"


def breaking_point(values, points) -> dict:
    """Breaking point of a decided path (``points`` are decided SubClaims, in the order of ``values``)."""
    last_ok = None
    for v, p in zip(values, points):
        if p.verdict in (REFUTED, NOT_REPRODUCED):
            return {"status": "breaks", "value": v, "bracket": [last_ok, v]}
        if p.verdict == CONFIRMED:
            last_ok = v
    if all(p.verdict == CONFIRMED for p in points):
        return {"status": "holds along the whole path", "value": None, "bracket": [values[0], values[-1]]}
    return {"status": "undetermined", "value": None, "bracket": [last_ok, values[-1]]}


def decide_path(spec: StressSpec, assumption: AssumptionSpec | None, values: list, points: list,
                alpha: float = FAMILY_ALPHA) -> dict:
    """Holm over the path's statistical points, decide each, find the breaking point; a JSON-ready dict."""
    stat = [p for p in points if p.statistical]
    adj = holm([p.p_value[k] for p in stat for k in ("for", "against")])
    for i, p in enumerate(stat):
        p.p_adjusted = {"for": adj[2 * i], "against": adj[2 * i + 1]}
    for i, p in enumerate(points):
        p.id = f"{spec.claim}/assume/{slugify(spec.assumption)}/{i}"
        decide(p, alpha)
        p.reason = explain(p, alpha)
    bp = breaking_point(values, points)
    stated = bool(assumption.stated) if assumption else False
    necessary = bp["status"] == "breaks" and bp["value"] == values[1]
    return {"name": spec.assumption, "stated": stated,
            "seed_lines": list(assumption.lines) if assumption and assumption.lines else None,
            "uses": assumption.uses if assumption else "", "path": spec.path, "violation": spec.violation,
            "values": list(values), "resolution": spec.resolution, "breaking_point": bp, "necessary": necessary,
            "finding": (not stated) and necessary,
            "points": [p.as_dict() for p in points], "figure": None}


def path_figure(claim_id: str, result: dict):
    """A plot of the statement's estimate minus its target along the path, the margin drawn; returns
    ``(fig, caption)`` or ``None`` when the points carry no estimates."""
    pts = result["points"]
    xs = [v for v, p in zip(result["values"], pts) if p.get("estimate") is not None and p.get("target") is not None]
    if len(xs) < 2 or not all(isinstance(x, (int, float)) for x in xs):
        return None
    rows = [p for p in pts if p.get("estimate") is not None and p.get("target") is not None]
    err = [p["estimate"] - p["target"] for p in rows]
    lo = [(p["ci"][0] - p["target"]) if p.get("ci") else e for p, e in zip(rows, err)]
    hi = [(p["ci"][1] - p["target"]) if p.get("ci") else e for p, e in zip(rows, err)]
    fig, ax = new_figure()
    ax.errorbar(xs, err, yerr=[[e - a for e, a in zip(err, lo)], [b - e for e, b in zip(err, hi)]], fmt="o-",
                label="estimate − statement (95 % CI)")
    m = rows[0].get("margin")
    if m:
        ax.axhline(m, color="r", ls="--", lw=1, label=f"declared margin ±{m:.3g}")
        ax.axhline(-m, color="r", ls="--", lw=1)
    ax.axhline(0, color="k", lw=0.6)
    bp = result["breaking_point"]
    if bp["status"] == "breaks":
        ax.axvline(bp["value"], color="orange", lw=1, label=f"breaks at {result['violation']} = {bp['value']:.3g}")
    ax.set(xlabel=result["violation"], ylabel="deviation from the statement", title=f"{claim_id}: {result['name']}")
    ax.legend(fontsize=7)
    cap = (f"Deviation of the estimate from the statement of {claim_id} along the path '{result['path']}' "
           f"({len(rows)} settings, violation measured by {result['violation']}); dashed: the declared margin; "
           f"breaking point: {bp['status']}" + (f" at {bp['value']:.4g}" if bp["status"] == "breaks" else "") + ".")
    return fig, cap
