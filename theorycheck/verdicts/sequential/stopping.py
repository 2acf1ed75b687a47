r"""Staged sampling for a statistical sub-claim: which rules stop, when, and what they then report (a room of
:mod:`theorycheck.verdicts.sequential`; the design and its proofs are in that package's docstring).

:func:`sequential_estimate` draws the samples of ONE random stream in stages, ``draw(rng, k0, k1)`` → the samples
k0 … k1 − 1 (first axis), and after each stage estimates from the prefix. The claim's rule (``decide(estimate)`` →
a :class:`~theorycheck.claims.SubClaim`) is asked at look 1 for its declared target and margin (and at the stopping
look for the sub-claim it returns); from the estimate of every look the rule's *components* — the one- and two-sided
t statistics its two p-values are made of — are formed, and it stops at look k < K only when

1. the decision holds at look k: every component of the deciding hypothesis lies beyond its boundary (Lan–DeMets
   O'Brien–Fleming spending of total α/m_plan), and for a confirmation every trivial-alternative gap too; and
2. every number the letter quotes has reached its declared precision: the half-width of the 95 % repeated
   confidence interval of the estimate (and of each trivial gap) is at most ``precision``.

Otherwise it draws the next stage; "inconclusive" always runs to the maximum. The sub-claim returned is the rule's
sub-claim of the stopping look with its p-values replaced by the sequential ones (:data:`STOPPING`), its CI by the
repeated CI, and ``details["sequential"]`` recording n used, n max, the look and why it stopped.

>>> import numpy as np
>>> from theorycheck.verdicts import rules
>>> draw = lambda rng, k0, k1: rng.normal(1.0, 1.0, k1 - k0)
>>> sc = sequential_estimate(draw, 4000, rng=np.random.default_rng(1), precision=0.2,
...                          decide=lambda e: rules.superiority("mean > 0", e))
>>> sc.details["sequential"]["n_used"], sc.details["sequential"]["n_max"], sc.details["sequential"]["stopped"]
(1000, 4000, 'confirm')
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np
from scipy.special import ndtr, ndtri_exp, stdtr, stdtrit

from ...claims import SubClaim
from ...validate import ParameterTypeError, check_callable, check_int, check_real
from ..estimate import Estimate, as_estimate
from ..margins import smallest_margin
from ..rules.common import FAMILY_ALPHA, log10_sf
from .design import design

__all__ = ["sequential_estimate", "look_sizes", "STOPPING", "NOT_STOPPING", "M_PLAN", "LOOKS", "CI_LEVEL",
           "Stopping", "check_family", "n_text", "repeated_half_width"]

#: The declared planning bound on a report's number of hypotheses (``finalize`` refuses a larger family when it holds
#: a sequential sub-claim). The largest family of record is 187 hypotheses (paper 004, 2026-12-02): about 2×, rounded.
M_PLAN = 400
#: The largest number of looks (information fractions 1/K, 2/K, …, 1 of the declared maximum n).
LOOKS = 4
#: The level of the repeated confidence intervals a sequential sub-claim quotes.
CI_LEVEL = 0.95

#: component -> (sides, share of the design's level, statistic of (estimate − target, se, margin))
COMPONENTS: dict[str, tuple] = {
    "lower": (1, 1.0, lambda d, s, m: (d + m) / s),      # δ > −m (one side of a TOST)
    "upper": (1, 1.0, lambda d, s, m: (m - d) / s),      # δ < m  (the other side)
    "point": (2, 1.0, lambda d, s, m: d / s),            # δ ≠ 0  (two-sided point null)
    "above": (1, 0.5, lambda d, s, m: (d - m) / s),      # δ > m  (outside the margin, Bonferroni × 2)
    "below": (1, 0.5, lambda d, s, m: (-d - m) / s),     # δ < −m
    "gain": (1, 1.0, lambda d, s, m: d / s),             # superiority: estimate − margin > 0
    "loss": (1, 1.0, lambda d, s, m: -d / s),            # superiority: estimate − margin < 0
}


@dataclass(frozen=True)
class Stopping:
    """How a rule stops: its two hypotheses as combinations of components (``("max", names)``: intersection–union;
    ``("bonf", names)``: the smaller one-sided p × 2; ``("one", (name,))``), the groups that must each have a component
    beyond its boundary to stop for a confirmation (``confirm``) or a refutation (``refute``; None: it never stops to
    refute), and ``why``."""

    hyp_for: tuple
    hyp_against: tuple
    confirm: tuple
    refute: tuple | None
    why: str


_TOST, _OUTSIDE = ("max", ("lower", "upper")), ("bonf", ("above", "below"))
_EQUIV = Stopping(_TOST, _OUTSIDE, (("lower",), ("upper",)), (("above", "below"),),
                  "TOST confirms when both one-sided tests cross (intersection–union: each at the full α/m_plan); "
                  "outside the margin refutes when one of the two one-sided tests at α/(2·m_plan) crosses. With a vague "
                  "verb it stops only to confirm: its refutation needs the verb's widest margin at α/m, which "
                  "decide() tests at the maximum")
#: rule -> how it stops (the registered statistical rules whose two p-values are t tests of one estimate)
STOPPING = {
    "agreement": Stopping(_TOST, ("one", ("point",)), (("lower",), ("upper",)), (("point",), ("above", "below")),
                          "TOST confirms (both one-sided tests cross); the point null refutes, but it stops to refute "
                          "only when the repeated CI also lies outside the margin: decide() lets a TOST confirmation "
                          "win over a point-null rejection, so a refutation inside the margin could be overturned by "
                          "the maximum n and is not a decision yet"),
    "equivalence": _EQUIV,
    "reproduction": _EQUIV,
    "superiority": Stopping(("one", ("gain",)), ("one", ("loss",)), (("gain",),), (("loss",),),
                            "one-sided tests in opposite directions: either crossing is the decision"),
    "difference": Stopping(("one", ("point",)), _TOST, (("point",),), None,
                           "the two-sided test confirms 'they differ' when it crosses; the TOST refutation never stops "
                           "early, because decide() lets the point-null rejection win and any non-zero difference, "
                           "however small, is rejected at a large enough n"),
}
#: rule -> why it runs at its declared n (every registered rule is in STOPPING or here)
NOT_STOPPING = {
    "identity": "exact (SymPy or a float tolerance): nothing is sampled",
    "inequality": "exact: nothing is sampled",
    "search": "a finite search, not a test: a certified counterexample refutes, none found is inconclusive",
    "consistency": "exact: two statements of the source compared",
    "underspecified": "cannot be attempted: nothing is sampled",
    "joint agreement": "one χ²/Hotelling statistic of a vector whose covariance is re-estimated at each look: its "
                       "group-sequential boundaries (a non-central χ² process, Jennison & Turnbull ch. 15) are not "
                       "implemented — plan its n from a pilot (verdicts.planning.plan)",
    "asymptotic": "a WLS extrapolation over several sizes whose t df come from a parametric bootstrap keyed by the "
                  "bytes of its inputs: each look would draw another bootstrap, so the joint law of the looks is "
                  "unknown — runs at its declared sizes",
    "shape": "a shape is a max/min of several step or contrast t statistics over a grid (Bonferroni across steps); "
             "the joint boundaries of that statistic over looks are not derived — runs at its declared n",
    "share": "an exact interval against a declared threshold: nothing is sampled by the rule",
    "grid equivalence": "intersection–union over the grid with Holm within the grid: the within-grid Holm step-down "
                        "would itself have to be made sequential — runs at its declared n",
}


def look_sizes(n_max: int, looks: int = LOOKS, unit: int = 1) -> list[int]:
    """The sample sizes of the looks: multiples of ``unit`` nearest to k·n_max/K, the last exactly ``n_max``.

    >>> look_sizes(10_000), look_sizes(1050, 3, unit=50)
    ([2500, 5000, 7500, 10000], [350, 700, 1050])
    """
    n_max = check_int("n_max", n_max, minimum=2)
    looks = check_int("looks", looks, minimum=1, maximum=LOOKS)
    unit = check_int("unit", unit, minimum=1)
    if n_max % unit:
        raise ValueError(f"n_max = {n_max} must be a multiple of unit = {unit} (a look never splits a batch)")
    out = [unit * int(round(k * n_max / (unit * looks))) for k in range(1, looks)] + [n_max]
    if out[0] < 2 * unit or len(set(out)) != len(out):
        raise ValueError(f"n_max = {n_max} is too small for {looks} looks of whole batches of {unit} (each look needs "
                         "at least two new batches)")
    return out


def repeated_half_width(se: float, df, fractions: tuple, look: int, level: float = CI_LEVEL) -> float:
    """Half-width of the repeated confidence interval at ``look``: the two-sided Lan–DeMets O'Brien–Fleming boundary
    of total ``1 − level`` at the looks' fractions (the repeated CIs of Jennison & Turnbull ch. 9), taken to the
    Student t scale with the estimate's df by its nominal level."""
    c = design(1.0 - level, fractions, sides=2).bounds[look - 1]
    q = c if not df else float(-stdtrit(df, float(ndtr(-c))))
    return q * se


def _log10_sf(t: float, df) -> float:
    """log₁₀ of the upper tail of t (Student t with ``df``, normal for None): the ufuncs where they are finite, the
    log-scale tail of :func:`~theorycheck.verdicts.rules.common.log10_sf` below the double range."""
    p = float(ndtr(-t)) if not df else float(stdtr(df, -t))
    return math.log10(p) if p > 1e-300 else log10_sf(t, df)


def _z_eq(log10_p: float) -> float:
    """The normal quantile of a one-sided p given on the log₁₀ scale (the significance-level conversion of a t
    statistic to the z scale of the design)."""
    if math.isnan(log10_p):
        return math.inf                  # below the double range and not resolved: beyond every boundary
    return float(-ndtri_exp(log10_p * math.log(10.0)))


def _components(est: Estimate, target: float, margin: float, spec: Stopping) -> dict:
    """``{name: (t, one-sided log₁₀ p, z)}`` of the rule's components at one look."""
    out = {}
    d, s, m = est.mean - target, est.se, margin or 0.0
    for name in _names(spec):
        sides, _, f = COMPONENTS[name]
        t = f(d, s, m)
        lp = _log10_sf(abs(t) if sides == 2 else t, est.df)
        out[name] = (t, lp, _z_eq(lp))
    return out


def _names(spec: Stopping) -> list:
    """Every component a rule's hypotheses and stopping groups use."""
    groups = [names for _, names in (spec.hyp_for, spec.hyp_against)] + list(spec.confirm) + list(spec.refute or ())
    return sorted({nm for g in groups for nm in g})


def _trivial_components(records) -> list:
    """``[(t, log₁₀ p, z) | None for an exact gap]`` of the trivial-alternative gaps at one look."""
    out = []
    for r in records:
        if r["t"] is None:
            out.append(None)
        else:
            lp = _log10_sf(r["t"], r["df"])
            out.append((r["t"], lp, _z_eq(lp)))
    return out


@dataclass
class Look:
    """What one look saw: its number ``k`` (1-based), sample size ``n``, the estimate, the rule's sub-claim, the
    components (:func:`_components`), the trivial records and their components, and the repeated-CI half-widths."""

    k: int
    n: int
    est: Estimate
    sc: SubClaim
    comps: dict
    trivial: list
    tcomps: list
    half_width: float
    trivial_half_widths: list


class _Plan:
    """The designs of one sequential sub-claim: level α/m_plan, the looks' fractions."""

    def __init__(self, level: float, fractions: tuple):
        self.level, self.fractions, self.K = level, fractions, len(fractions)
        self.spec, self.verb = None, False
        self.designs = {(sides, share): design(level * share, fractions, sides)
                        for sides, share in {(1, 1.0)} | {(c[0], c[1]) for c in COMPONENTS.values()}}

    def bind(self, sc: SubClaim) -> None:
        """The rule of look 1 decides the components and whether a refutation may stop (not with a vague verb)."""
        self.spec, self.verb = STOPPING[sc.rule], bool(sc.details.get("margin_table"))

    def design(self, name: str):
        sides, share, _ = COMPONENTS[name] if name in COMPONENTS else (1, 1.0, None)     # trivial gaps: one-sided
        return self.designs[(sides, share)]

    def crossed(self, look: Look, name: str) -> bool:
        z = look.comps[name][2] if name in COMPONENTS else _trivial_z(look, name)
        return z >= self.design(name).bounds[look.k - 1]

    def first_crossing(self, looks: list, name: str) -> int | None:
        return next((lk.k for lk in looks if self.crossed(lk, name)), None)

    def p_star(self, looks: list, name: str) -> tuple[float, float]:
        """``(p, log₁₀ p)``: the stage-wise p-value of the component's first crossing (or of the last look when the
        run reached it); 1 when neither is observed (the run stopped before for another hypothesis — a valid bound,
        since the stage-wise p of every continuation is at most 1)."""
        tau = self.first_crossing(looks, name)
        if tau is None:
            if looks[-1].k < self.K:
                return 1.0, 0.0
            tau = self.K
        lk = looks[tau - 1]
        if name not in COMPONENTS and lk.tcomps[int(name.split(":")[1])] is None:    # an exact gap
            p = lk.trivial[int(name.split(":")[1])]["p"]
            return p, (0.0 if p else -math.inf)
        _, lp, z = lk.comps[name] if name in COMPONENTS else lk.tcomps[int(name.split(":")[1])]
        sides = self.design(name).sides
        if tau == 1:                      # the fixed-sample p of the first look, exactly as the rule computes it
            p = min(1.0, sides * 10.0 ** lp)
            return p, min(0.0, math.log10(sides) + lp)
        p = self.design(name).stagewise_p(tau, z)
        return p, (math.log10(p) if p > 0 else -math.inf)


def _trivial_z(look: Look, name: str) -> float:
    i = int(name.split(":")[1])
    c = look.tcomps[i]
    if c is None:                                     # an exact gap: beyond every boundary iff it beats the margin
        return math.inf if look.trivial[i]["p"] == 0.0 else -math.inf
    return c[2]


def _combine(how: str, ps: list) -> tuple[float, float]:
    """A hypothesis' ``(p, log₁₀ p)`` from its components' (intersection–union: max; Bonferroni × 2: 2·min)."""
    if how == "bonf":
        p, lp = min(ps)
        return min(1.0, 2.0 * p), min(0.0, math.log10(2.0) + lp)
    return max(ps)


def _decision(plan: _Plan, look: Look) -> str | None:
    """``"confirm"``/``"refute"`` when the decision holds at this look (every group has a component beyond its
    boundary; a confirmation also needs every trivial gap beyond its own), else None."""
    spec, verb = plan.spec, plan.verb

    def holds(groups):
        return all(any(plan.crossed(look, a) for a in g) for g in groups)
    gaps = [f"trivial:{i}" for i in range(len(look.trivial))]
    if holds(spec.confirm) and all(plan.crossed(look, g) for g in gaps):
        return "confirm"
    if spec.refute is not None and not verb and holds(spec.refute):
        return "refute"
    return None


def _ruled(sc, k: int, first=None) -> SubClaim:
    """Check the rule's sub-claim of look ``k`` (and that its target and margin are those of look 1)."""
    if not isinstance(sc, SubClaim) or not sc.statistical:
        raise ParameterTypeError("decide(estimate) must return a statistical SubClaim of a registered rule")
    if sc.rule not in STOPPING:
        raise ValueError(f"rule {sc.rule!r} does not stop sequentially: {NOT_STOPPING.get(sc.rule, 'not registered')}")
    if sc.trivial:
        raise ValueError("decide() must not pass trivial=...: give sequential_estimate(trivial=samples -> records), so "
                         "the gaps are tested at the same looks")
    if first is not None and (sc.rule, sc.target, sc.margin) != (first.rule, first.target, first.margin):
        raise ValueError(f"look {k}: decide() changed its rule, target or margin between looks (they are declared "
                         "before the data)")
    return sc


def _look(k, n, samples, fractions, estimator, decide, trivial, first) -> Look:
    """One look: the estimate, its components and half-width; the rule is asked only at look 1 (its target, margin
    and verb are declared, so later looks need only the estimate) and again at the stopping look (:func:`_finish`)."""
    est = as_estimate(estimator(samples), "estimator(samples)")
    if est.se == 0:
        raise ValueError(f"look {k}: the estimator gave an exact value (se = 0); sequential sampling is for Monte "
                         "Carlo estimates")
    sc = _ruled(decide(est), k) if first is None else None
    ref = sc if sc is not None else first
    recs = [dict(r) for r in (trivial(samples) if trivial is not None else [])]
    hw = repeated_half_width(est.se, est.df, fractions, k)
    thw = [repeated_half_width(r["gap_se"], r["df"], fractions, k) if r["gap_se"] else 0.0 for r in recs]
    comps = _components(est, ref.target, ref.margin, STOPPING[ref.rule])
    return Look(k, n, est, sc, comps, recs, _trivial_components(recs), hw, thw)


def _draw(draw, rng, k0: int, k1: int):
    x = np.asarray(draw(rng, k0, k1))
    if x.ndim == 0 or x.shape[0] != k1 - k0:
        raise ValueError(f"draw(rng, {k0}, {k1}) must return {k1 - k0} samples along its first axis, got shape "
                         f"{np.shape(x)}")
    return x


def sequential_estimate(draw: Callable, n_max: int, *, rng, decide: Callable, precision: float,
                        estimator: Callable | None = None, looks: int = LOOKS, unit: int = 1, m_plan: int = M_PLAN,
                        alpha: float = FAMILY_ALPHA, trivial: Callable | None = None,
                        trivial_precision: float | None = None, out: dict | None = None) -> SubClaim:
    """Sample one stream in up to ``looks`` stages and stop once the rule's decision holds at the spending boundary
    and the numbers are precise enough (see the module docstring). Returns the rule's sub-claim at the stopping look.

    ``draw(rng, k0, k1)``: samples k0 … k1 − 1 of the stream (first axis), consuming ``rng`` (a
    ``numpy.random.Generator``, from ``ctx.seed_for(name)``) in order, so that the run to ``n_max`` computes exactly
    the samples of one call ``draw(rng, 0, n_max)``. ``estimator(samples)`` → an
    :class:`~theorycheck.verdicts.estimate.Estimate` (default :meth:`Estimate.from_samples`; batch means need
    ``unit`` = the batch size). ``decide(estimate)`` → the rule's sub-claim (``agreement``, ``equivalence``,
    ``reproduction``, ``superiority`` or ``difference``: :data:`STOPPING`). ``precision``: the largest admissible
    half-width of the 95 % repeated CI of the estimate at a stop (``math.inf``: no requirement). ``trivial(samples)`` →
    the :func:`~theorycheck.verdicts.rules.trivial.against_trivial` records of the comparison (tested at the same
    looks; their gaps' half-widths must be ≤ ``trivial_precision``, default ``precision``). ``m_plan``: the planning
    bound on the report's number of hypotheses; ``alpha`` the family-wise level (the design spends α/m_plan).
    ``out``: a dict that receives ``"samples"``, the prefix the stopping look used (for self-checks and figures of
    the same draws). ``decide`` is called at look 1 and at the stopping look only (target and margin are declared, so
    the looks between need the estimate alone); it must not change its rule, target or margin."""
    check_callable("draw", draw)
    check_callable("decide", decide)
    sizes = look_sizes(n_max, looks, unit)
    precision = check_real("precision", precision, low=0.0, low_open=True, allow_inf=True)
    tp = precision if trivial_precision is None else check_real("trivial_precision", trivial_precision, low=0.0,
                                                                   low_open=True, allow_inf=True)
    m_plan = check_int("m_plan", m_plan, minimum=1)
    alpha = check_real("alpha", alpha, 0.0, 0.5, low_open=True)
    if not isinstance(rng, np.random.Generator):
        raise ParameterTypeError(f"rng must be a numpy.random.Generator (np.random.default_rng(ctx.seed_for(name))), "
                                 f"got {type(rng).__name__}")
    if trivial is not None:
        check_callable("trivial", trivial)
    if out is not None and not isinstance(out, dict):
        raise ParameterTypeError(f"out must be a dict or None, got {type(out).__name__}")
    fractions = tuple(n / sizes[-1] for n in sizes)
    plan = _Plan(alpha / m_plan, fractions)
    estimator = check_callable("estimator", estimator) if estimator is not None else Estimate.from_samples
    chunks, seen, prev = [], [], 0
    for k, n in enumerate(sizes, 1):
        chunks.append(_draw(draw, rng, prev, n))
        prev = n
        samples = chunks[0] if len(chunks) == 1 else np.concatenate(chunks)
        lk = _look(k, n, samples, fractions, estimator, decide, trivial, seen[0].sc if seen else None)
        seen.append(lk)
        if k == 1:
            plan.bind(lk.sc)
        decision = _decision(plan, lk)
        precise = lk.half_width <= precision and all(h <= tp for h in lk.trivial_half_widths)
        if k < len(sizes) and decision and precise:
            break
    else:
        decision = None
    if seen[-1].sc is None:
        seen[-1].sc = _ruled(decide(seen[-1].est), seen[-1].k, seen[0].sc)
    if out is not None:
        out["samples"] = samples
    return _finish(plan, seen, decision, precision, tp, m_plan, alpha, sizes)


def _finish(plan: _Plan, looks: list, decision, precision, tp, m_plan, alpha, sizes) -> SubClaim:
    """The stopping look's sub-claim with the sequential p-values, the repeated CI and ``details["sequential"]``."""
    last = looks[-1]
    sc, spec = last.sc, STOPPING[last.sc.rule]
    fixed_p, fixed_ci = dict(sc.p_value), list(sc.ci) if sc.ci else None
    ps = {side: _combine(how, [plan.p_star(looks, nm) for nm in names])
          for side, (how, names) in (("for", spec.hyp_for), ("against", spec.hyp_against))}
    sc.p_value = {side: float(p) for side, (p, _) in ps.items()}
    sc.details.pop("log10_p", None)
    logs = {side: float(lp) for side, (p, lp) in ps.items() if p == 0.0 and math.isfinite(lp)}
    if logs:
        sc.details["log10_p"] = logs
    fixed_trivial = []
    for i, r in enumerate(last.trivial):
        fixed_trivial.append(r["p"])
        r["p"] = float(plan.p_star(looks, f"trivial:{i}")[0])
    sc.trivial = last.trivial
    hw = last.half_width
    sc.ci, sc.ci_level = [last.est.mean - hw, last.est.mean + hw], CI_LEVEL
    if sc.details.get("margin_table") and sc.target:
        ub = (abs(last.est.mean - sc.target) + hw) / abs(sc.target)
        sc.details.update({"upper_bound": ub, "holds_at": smallest_margin(ub, sc.details["verb"])})
    names = [nm for _, names in (spec.hyp_for, spec.hyp_against) for nm in names]
    shift = max(plan.design(nm).spent[-2] for nm in names) if plan.K > 1 else 0.0
    sc.details["sequential"] = {
        "n_used": int(last.n), "n_max": int(sizes[-1]), "look": last.k, "looks": plan.K, "sizes": list(sizes),
        "stopped": decision, "m_plan": m_plan, "alpha": alpha, "alpha_design": plan.level,
        "spending": "Lan–DeMets O'Brien–Fleming", "precision": precision, "trivial_precision": tp,
        "half_width": hw, "ci_fixed": fixed_ci, "p_fixed": fixed_p, "trivial_p_fixed": fixed_trivial,
        "p_shift_bound": shift, "trace": [_trace(plan, lk) for lk in looks],
        "reason": _reason(plan, looks, decision, precision)}
    return sc


def _trace(plan: _Plan, lk: Look) -> dict:
    return {"n": int(lk.n), "estimate": float(lk.est.mean), "se": float(lk.est.se), "half_width": float(lk.half_width),
            "decision": _decision(plan, lk),
            "beyond": [nm for nm in sorted(lk.comps) if plan.crossed(lk, nm)]}


def _reason(plan: _Plan, looks: list, decision, precision) -> str:
    last = looks[-1]
    if decision is not None:
        return (f"stopped at look {last.k} of {plan.K} (n = {last.n}) to {decision}: the decision holds beyond its "
                f"Lan–DeMets O'Brien–Fleming boundary at α/m_plan = {plan.level:.3g} and the 95 % repeated-CI "
                f"half-width {last.half_width:.4g} is within the declared precision {precision:.4g}")
    if plan.K == 1:
        return "one look: a fixed-sample decision at the declared n"
    undecided = [lk for lk in looks[:-1] if _decision(plan, lk) is None]
    why = ("the decision did not hold at an interim boundary" if len(undecided) == plan.K - 1 else
           "the decision held at an interim boundary, but the repeated CI was wider than the declared precision")
    return f"ran to its maximum n = {last.n} over {plan.K} looks: {why}"


def check_family(subclaims, family: int, alpha: float) -> None:
    """Fail loudly when a report holds a sequential sub-claim designed for a smaller family or another level:
    its early stop was decided at α/m_plan and Holm keeps it only if the family has at most m_plan hypotheses."""
    bad = [s for s in subclaims if (s.details or {}).get("sequential") and
           (family > s.details["sequential"]["m_plan"] or not math.isclose(s.details["sequential"]["alpha"], alpha))]
    if bad:
        s = bad[0].details["sequential"]
        raise ValueError(f"{len(bad)} sequential sub-claim(s) (first: {bad[0].id or bad[0].statement}) were designed "
                         f"for a family of at most m_plan = {s['m_plan']} hypotheses at α = {s['alpha']}, but this "
                         f"report has {family} hypotheses at α = {alpha}: raise m_plan (verdicts.sequential.M_PLAN) and "
                         "run them again")


def n_text(sc) -> str:
    """``"n used 2500 of its maximum 10000 (stopped at look 1 of 4)"`` for a sequential sub-claim, else ``""``."""
    s = (getattr(sc, "details", None) or {}).get("sequential")
    if not s:
        return ""
    how = f"stopped at look {s['look']} of {s['looks']}" if s.get("stopped") else "ran to its maximum"
    return f"n used {s['n_used']} of its maximum {s['n_max']} ({how})"
