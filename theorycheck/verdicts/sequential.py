r"""Sequential decisions for Monte Carlo sub-claims: sample in stages, stop as soon as the declared decision is reached.

**The design** — a group-sequential design in which each one-sided hypothesis spends the Lan–DeMets
O'Brien–Fleming α-spending function :math:`\alpha^*(t) = 2 - 2\Phi(z_{1-\alpha/2}/\sqrt t)` (gsDesign's ``sfLDOF``),
with at most four looks, at the information fractions
:math:`t = 1/4, 1/2, 3/4, 1` of the declared maximum :math:`n_{\max}`. Chosen over anytime-valid confidence
sequences because (i) a run that goes to :math:`n_{\max}` must keep today's fixed-sample numbers, and O'Brien–Fleming
spends almost nothing before the last look; (ii) our estimates are Student-t means of i.i.d. trials, for which
group-sequential theory is standard; (iii) four looks bound the cost of the early analyses. The exact two-sided
boundaries of the standardised score process (:func:`boundaries`, recursive numerical integration as in Jennison &
Turnbull, *Group Sequential Methods*, ch. 19) are tested against published values (``tests/test_sequential.py``).

**When to stop** (mind the family). The report's Holm adjustment runs after every task, and the family size m is
known only then. A look k < K stops only when a side's p-value at that look lies below the look's *nominal level*
:math:`\pi_k = \alpha^*(t_k) - \alpha^*(t_{k-1})` of the spending function with total
:math:`\alpha/m_{\mathrm{plan}}` — a declared planning bound on a report's number of hypotheses
(:data:`M_PLAN`; :func:`theorycheck.verdicts.aggregate.finalize` fails loudly on a larger family) — so that the
decision holds at the family's Bonferroni level and Holm keeps it; **and** only when the numbers the letter quotes
have their declared precision (the 95 % repeated confidence interval's half-width at most ``precision``). The
nominal levels are the spending increments (a Bonferroni bound over the looks: valid for any valid p-values,
Student t and TOST included, whatever the correlation of the looks). An undecided sub-claim always runs to
:math:`n_{\max}`.

**What is reported**: the stage-wise sequential p-value — at a stop at look k on one side,
:math:`p = \sum_{j<k}\pi_j + p_k` (the other side: 1); at :math:`n_{\max}`, :math:`p = \min(1, p_K + \sum_{j<K}\pi_j)` —
so that :math:`P(p \le u) \le u` under the null for every u (the union bound over the early looks), with the fixed-
sample p kept in ``details['sequential']['p_fixed']``. At :math:`n_{\max}` every estimate is today's, and a p-value
moves by at most :math:`\sum_{j<K}\pi_j < \alpha/m_{\mathrm{plan}}` (recorded). The interval is the 95 % *repeated*
confidence interval of the stopping look (the O'Brien–Fleming boundary of a two-sided 5 % design at that look times
the SE), not the naive one. Power at :math:`n_{\max}` is at least the fixed design's power minus that sum.

**Which rules stop**: ``agreement`` (a point null refutes, TOST confirms), ``equivalence`` and ``reproduction`` (TOST
and the outside test: valid p-values, so the same Bonferroni-over-looks rule holds), ``superiority`` and
``difference``. Not ``asymptotic`` (its decision is a fit across sizes with a bootstrap df drawn from all the data:
a prefix changes the df estimate), not ``shape`` or ``joint agreement`` (many simultaneous steps or coordinates:
decided on the whole data), not the exact rules (no sampling).

Each stage uses a **prefix of one random stream**: ``draw(rng, k)`` returns the next k per-trial values from the
claim's generator, consumed in order, so that the stages of a run to :math:`n_{\max}` draw exactly the values a
one-shot draw would (the claim must make ``draw`` prefix-consistent; its test checks it) — and stages are identical
for any number of workers and on Dask (they live inside one task).

>>> import numpy as np
>>> from theorycheck.verdicts import rules
>>> rng = np.random.default_rng(1)
>>> sc = staged(rules.agreement, "E[g²] = 1", lambda r, k: r.standard_normal(k) ** 2, rng, 40_000, 1.0,
...             margin=0.2)
>>> sc.details["sequential"]["n_used"], sc.details["sequential"]["n_max"], sc.p_value["for"] < 1e-20
(10000, 40000, True)
"""
from __future__ import annotations

import math
import numpy as np
from scipy import stats

from ..memo import memoize
from ..validate import check_int, check_real
from . import rules
from .estimate import Estimate
from .rules import FAMILY_ALPHA

__all__ = ["M_PLAN", "FRACTIONS", "STOPPING_RULES", "obf_spending", "boundaries", "constant_boundary",
           "nominal_levels", "staged", "CALIBRATION"]

#: The declared planning bound on a report's number of hypotheses (the family Holm adjusts): an early stop holds at
#: α / M_PLAN, which Holm keeps whenever the report's family is at most this large.
M_PLAN = 2000
#: The information fractions of the looks.
FRACTIONS = (0.25, 0.5, 0.75, 1.0)
#: The statistical rules that may stop early (see the module docstring for why the others do not).
STOPPING_RULES = ("agreement", "equivalence", "reproduction", "superiority", "difference")
#: the integration grid of the score process (step 0.008 on [-8, 8]; the cell a boundary cuts counts by its share)
_GRID = np.linspace(-8.0, 8.0, 2001)


def obf_spending(t: float, alpha: float) -> float:
    r"""The Lan–DeMets O'Brien–Fleming spending function :math:`2 - 2\Phi(z_{1-\alpha/2}/\sqrt t)` of a one-sided
    test of size ``alpha`` (gsDesign's ``sfLDOF``; 0 at t = 0).

    >>> round(obf_spending(1.0, 0.05), 12), obf_spending(0.0, 0.05)
    (0.05, 0.0)
    """
    t, alpha = check_real("t", t, low=0.0, high=1.0), check_real("alpha", alpha, low=0.0, high=1.0, low_open=True)
    return 0.0 if t == 0 else float(2 * stats.norm.sf(stats.norm.isf(alpha / 2) / math.sqrt(t)))


def _first_crossing(c, t, spend=None) -> list[float]:
    """Probabilities of a first crossing of |Z_k| ≥ c_k at each look k of the standardised score process at
    information fractions ``t`` (Brownian motion: S_k = Z_k √t_k with independent normal increments), by recursive
    integration on :data:`_GRID`. With ``spend`` (the probability each look must spend), the c_k are solved for in
    turn (bisection) and returned instead."""
    s, ds = _GRID, _GRID[1] - _GRID[0]
    out, solved, w, step = [], [], None, 1.0
    for k, tk in enumerate(t):
        if k == 0:
            def cross(ck, tk=tk):
                return float(2 * stats.norm.sf(ck))
        else:
            step = math.sqrt(tk - t[k - 1])

            def cross(ck, w=w, step=step, tk=tk):     # the paths still going on that cross at this look
                b = ck * math.sqrt(tk)
                return float(np.sum(w * (stats.norm.sf((b - s) / step) + stats.norm.cdf((-b - s) / step))))
        ck = c[k] if spend is None else _solve(cross, spend[k])
        solved.append(ck)
        out.append(cross(ck))
        dens = stats.norm.pdf(s, scale=math.sqrt(tk)) if k == 0 else _kernel(round(step, 12)) @ w
        inside = np.clip((ck * math.sqrt(tk) - np.abs(s)) / ds + 0.5, 0.0, 1.0)   # the paths that go on
        w = dens * inside * ds
    return solved if spend is not None else out


@memoize("verdicts.sequential.kernel", maxsize=8, maxbytes=400 * 2 ** 20)
def _kernel(step: float) -> np.ndarray:
    """The transition density of the score process over an increment of variance step² on the grid."""
    return stats.norm.pdf((_GRID[:, None] - _GRID[None, :]) / step) / step


def _solve(cross, target: float) -> float:
    lo, hi = 0.0, 40.0
    for _ in range(100):                                   # P(first crossing at this look) = target, by bisection
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if cross(mid) > target else (lo, mid)
    return 0.5 * (lo + hi)


@memoize("verdicts.sequential.boundaries", maxsize=64)
def _boundaries(alpha: float, fractions: tuple) -> tuple:
    spent = [2 * obf_spending(t, alpha / 2) for t in fractions]           # each side spends α/2 (sfLDOF)
    return tuple(_first_crossing(None, fractions, [spent[0]] + [b - a for a, b in zip(spent, spent[1:])]))


def boundaries(alpha: float = 0.05, fractions=FRACTIONS) -> tuple:
    """Two-sided z boundaries c_1..c_K of the symmetric Lan–DeMets O'Brien–Fleming design of size ``alpha`` at
    ``fractions``, each side spending :func:`obf_spending` of α/2 (exact, by recursive integration): the first crossing
    of |Z_k| ≥ c_k at look k has the probability the spending assigns to it under the null. The published values
    (gsDesign, ``sfLDOF``, one-sided 0.025, four equally spaced looks) are 4.333, 2.963, 2.359, 2.014.

    >>> [round(c, 3) for c in boundaries(0.05)]
    [4.333, 2.963, 2.359, 2.014]
    """
    alpha = check_real("alpha", alpha, low=0.0, high=0.5, low_open=True)
    fr = tuple(float(check_real("fractions", f, low=0.0, high=1.0, low_open=True)) for f in fractions)
    if list(fr) != sorted(set(fr)) or fr[-1] != 1.0 or len(fr) > 6:
        raise ValueError(f"fractions must increase strictly to 1 (at most 6 looks), got {fractions!r}")
    return _boundaries(alpha, fr)


def constant_boundary(alpha: float, looks: int, shape: str = "obrien-fleming") -> float:
    """The constant C of a classical design with ``looks`` equally spaced looks: c_k = C √(K/k) (O'Brien–Fleming) or
    c_k = C (Pocock), two-sided size ``alpha`` — for checking the integration against published tables.

    >>> round(constant_boundary(0.05, 4), 3), round(constant_boundary(0.05, 4, "pocock"), 3)
    (2.024, 2.361)
    """
    K = check_int("looks", looks, minimum=1, maximum=6)
    if shape not in ("obrien-fleming", "pocock"):
        raise ValueError(f"shape must be 'obrien-fleming' or 'pocock', got {shape!r}")
    t = [k / K for k in range(1, K + 1)]
    f = (lambda k: math.sqrt(K / k)) if shape == "obrien-fleming" else (lambda k: 1.0)
    lo, hi = 0.5, 10.0
    for _ in range(60):
        mid = 0.5 * (lo + hi)
        p = sum(_first_crossing([mid * f(k) for k in range(1, K + 1)], t))
        lo, hi = (mid, hi) if p > alpha else (lo, mid)
    return 0.5 * (lo + hi)


@memoize("verdicts.sequential.nominal_levels", maxsize=64, copy=list)
def nominal_levels(alpha: float = FAMILY_ALPHA, m_plan: int = M_PLAN, fractions=FRACTIONS) -> list[float]:
    """The nominal p-value levels π_k of the looks: the O'Brien–Fleming spending increments of α / m_plan (only the
    early ones are used: the last look is the fixed-sample test).

    >>> [f"{p:.2e}" for p in nominal_levels()]
    ['6.88e-20', '1.08e-10', '1.36e-07', '4.86e-06']
    """
    total = alpha / check_int("m_plan", m_plan, minimum=1)
    spent = [obf_spending(t, total) for t in fractions]
    return [spent[0]] + [b - a for a, b in zip(spent, spent[1:])]


def staged(rule, statement: str, draw, rng, n_max: int, *args, precision: float | None = None,
           fractions=FRACTIONS, m_plan: int = M_PLAN, **kw):
    """Decide ``rule(statement, Estimate.from_samples(x), *args, **kw)`` on stages of the samples ``x = draw(rng, k)``
    (the next k per-trial values of one stream), stopping at an early look when a side's p lies below the look's
    nominal level (:func:`nominal_levels`) and the 95 % repeated CI's half-width is at most ``precision`` (default:
    half the rule's margin); else at ``n_max``. Returns the rule's sub-claim at the stopping look, with sequential
    p-values, the repeated CI and ``details['sequential']`` (``n_used``, ``n_max``, ``look``, the nominal levels,
    the fixed-sample p-values)."""
    name = getattr(rule, "__name__", "")
    if name not in STOPPING_RULES:
        raise ValueError(f"rule must be one of {STOPPING_RULES} (the rules that may stop early), got {name!r}")
    n_max = check_int("n_max", n_max, minimum=8)
    fr = tuple(float(f) for f in fractions)
    sizes = [math.ceil(f * n_max) for f in fr]
    if len(set(sizes)) != len(sizes) or sizes[0] < 2:
        raise ValueError(f"n_max = {n_max} is too small for looks at {fr}")
    levels, rci = nominal_levels(FAMILY_ALPHA, m_plan, fr), boundaries(0.05, fr)      # both memoised
    parts, have = [], 0
    for look, n in enumerate(sizes):
        parts.append(np.asarray(draw(rng, n - have), dtype=float).ravel())
        have = n
        x = np.concatenate(parts)
        if x.size != n:
            raise ValueError(f"draw(rng, k) must return k values; after look {look + 1} there are {x.size}, not {n}")
        est = Estimate.from_samples(x)
        sc = rule(statement, est, *args, **kw)
        last = look == len(sizes) - 1
        prec = precision if precision is not None else 0.5 * float(sc.margin or 0.0)
        half = rci[look] * est.se
        side = next((s for s in ("for", "against") if sc.p_value and sc.p_value[s] < levels[look]), None)
        if last or (side is not None and half <= prec):
            return _record(sc, look, sizes, levels, None if last else side, half, n_max, m_plan)
    raise AssertionError("unreachable: the last look returns")


def _record(sc, look: int, sizes, levels, side, half: float, n_max: int, m_plan: int):
    if sc.p_value is None:                           # an exact estimate (no spread): decided without sampling error
        sc.details["sequential"] = {"n_used": int(sizes[look]), "n_max": int(n_max), "look": look + 1,
                                    "looks": len(sizes), "stopped_early": False, "exact": True}
        return sc
    fixed = dict(sc.p_value)
    before = float(sum(levels[:look]))
    if side is None:                                  # the last look: the fixed-sample test, plus what was spent
        sc.p_value = {k: min(1.0, v + before) for k, v in fixed.items()}
    else:                                             # stopped early on one side
        sc.p_value = {k: (min(1.0, fixed[k] + before) if k == side else 1.0) for k in fixed}
    if sc.estimate is not None and half:
        sc.ci = [float(sc.estimate - half), float(sc.estimate + half)]
    sc.details["sequential"] = {"n_used": int(sizes[look]), "n_max": int(n_max), "look": look + 1,
                                "looks": len(sizes), "stopped_early": side is not None, "nominal": list(levels),
                                "spent_before": before, "p_fixed": fixed, "m_plan": int(m_plan),
                                "ci": "95 % repeated confidence interval (O'Brien–Fleming, two-sided 5 %)"}
    return sc


# --------------------------------------------------------------------------- calibration cases
def _case(rule, mu: float, side: str, *args, **kw):
    """A dataset: up to 200 draws of N(mu, 1), decided by ``staged`` (m_plan = 1, so that early looks really stop);
    True when the sequential p of ``side`` is below the calibration level 0.05."""
    def run(rng):
        sc = staged(rule, "x", lambda r, k: r.normal(mu, 1.0, k), rng, 200, *args, m_plan=1, **kw)
        return sc.p_value[side] < 0.05
    return run


#: Known-answer cases of the staged rules, run by :mod:`theorycheck.verdicts.calibration` beside every rule's: the
#: sequential p-values keep their size on the boundary, and the design keeps its power at the maximum.
CALIBRATION = {
    "sequential agreement: false refutation (the formula exact)":
        ("bound", _case(rules.agreement, 0.0, "against", 0.0, margin=0.3, relative=False)),
    "sequential agreement: false confirmation (the mean on the margin)":
        ("bound", _case(rules.agreement, 0.3, "for", 0.0, margin=0.3, relative=False)),
    "sequential superiority: false confirmation (the advantage on the margin)":
        ("bound", _case(rules.superiority, 0.1, "for", margin=0.1)),
    "sequential superiority: power at the maximum n (advantage margin + 3 SE of n_max)":
        ("power", _case(rules.superiority, 0.1 + 3 / 200 ** 0.5, "for", margin=0.1)),
}
