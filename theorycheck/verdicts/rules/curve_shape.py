"""Rule ``shape``: a qualitative shape of a curve — monotone, interior optimum, unimodal."""
from __future__ import annotations

import math
import re

import numpy as np

from ...claims import CONFIRMED, SubClaim
from ...validate import check_array, check_real, check_str
from ..estimate import Estimate
from ..finding import Comparison, Finding, settings_tail, statistical_sure
from ..text import fmt, p_text
from .common import CALIBRATION_ALPHA, SHAPES, cdf, common_kwargs, decide_exactly, p_side, sf
from .registry import Rule, register


def _exact_shape(y: np.ndarray, shape: str) -> tuple[bool, dict]:
    dy = np.diff(y)
    i_min, i_max = int(np.argmin(y)), int(np.argmax(y))
    info = {"argmin": i_min, "argmax": i_max, "n_sign_changes": int(np.sum(np.diff(np.sign(dy)) != 0))}
    last = len(y) - 1
    if shape == "increasing":
        ok = bool(np.all(dy > 0))
    elif shape == "decreasing":
        ok = bool(np.all(dy < 0))
    elif shape == "interior-minimum":
        ok = 0 < i_min < last and y[i_min] < y[0] and y[i_min] < y[-1]
    elif shape == "interior-maximum":
        ok = 0 < i_max < last and y[i_max] > y[0] and y[i_max] > y[-1]
    elif shape == "unimodal-minimum":
        ok = 0 < i_min < last and bool(np.all(dy[:i_min] < 0) and np.all(dy[i_min:] > 0))
    else:  # unimodal-maximum
        ok = 0 < i_max < last and bool(np.all(dy[:i_max] > 0) and np.all(dy[i_max:] < 0))
    return bool(ok), info


def _noisy_tests(ys, shape, sign, ses, diff_ses, C, df) -> tuple:
    """``(p_for, p_against, statistic, statistic name)`` of a noisy curve's shape (see :func:`shape`)."""
    s = None if ses is None else np.asarray(ses, dtype=float)

    def sd_pair(i, j):            # SE of y_i − y_j
        if C is not None:
            v = C[i, i] + C[j, j] - 2 * C[i, j]
            return math.sqrt(max(v, 1e-300))
        return math.hypot(s[i], s[j])

    if shape in ("increasing", "decreasing"):
        dy = sign * np.diff(ys)
        sd = (np.asarray(diff_ses, dtype=float) if diff_ses is not None else
              np.array([sd_pair(i + 1, i) for i in range(len(ys) - 1)]))
        t = dy / sd
        p_for = max(sf(float(ti), df) for ti in t)
        p_against = min(1.0, len(t) * min(cdf(float(ti), df) for ti in t))
        return p_for, p_against, float(np.min(t)), "smallest step t"
    if s is None:
        raise ValueError("interior optima need per-point ses")
    z = sign * ys        # interior-maximum of z  <=>  the shape
    last = len(z) - 1

    def p_beats(i, j):      # p of "z_i > z_j"
        return sf(float((z[i] - z[j]) / sd_pair(i, j)), df)
    inner = range(1, last)
    p_for = min(1.0, (last - 1) * min(max(p_beats(j, 0), p_beats(j, last)) for j in inner))
    p_against = min(1.0, 2 * min(max(p_beats(e, j) for j in range(len(z)) if j != e) for e in (0, last)))
    return p_for, p_against, float(np.argmax(z)), "index of the optimum"


def shape(statement: str, x, y, *, shape: str, ses=None, df=None, diff_ses=None, cov=None, resolution=None,
          **kw) -> SubClaim:
    r"""A qualitative shape of a curve: monotone, interior optimum, or unimodal.

    Exact curves (``ses`` is ``None``) are decided on the given grid (deterministic; state the grid
    in the scope). Noisy curves (``ses`` per point, independent points; ``diff_ses`` for the
    SEs of the successive differences under common random numbers; or ``cov``, the full covariance
    matrix of the point estimates when they share data) are decided by tests:

    * ``increasing``/``decreasing``: *for* = max over successive differences of the one-sided p
      (intersection–union: every step must be significant); *against* = Bonferroni-corrected
      minimum of the one-sided p in the opposite direction (one significant reversal refutes);
    * ``interior-minimum``/``interior-maximum``: *for* = Bonferroni over interior points j of the
      max of the two one-sided p's that j beats both end points; *against* = Bonferroni over the two
      end points e of the max over all other points of the p that e beats them (the optimum is
      significantly at an end). The unimodal shapes need exact curves.

    ``resolution``: the smallest change of ``x`` the statement must resolve, declared before the data in ``x``'s own
    units (e.g. λ to 1e-4); a grid whose largest step exceeds it is rejected (``ValueError``): find optima by root
    finding or optimisation and evaluate the curve on a grid at least that fine. The optimum is reported at its
    ``x`` value (``details['x_argmin']``, ``details['x_argmax']``), never as a grid index alone.

    >>> shape("U-shaped", [0, 1, 2], [1.0, 0.5, 0.8], shape="unimodal-minimum").verdict
    'confirmed'
    >>> s = shape("increasing", [0, 1, 2], [1.0, 2.0, 3.0], ses=[0.1] * 3, shape="increasing")
    >>> s.p_value["for"] < 1e-9
    True
    """
    c = common_kwargs(kw)
    statement = check_str("statement", statement)
    if shape not in SHAPES:
        raise ValueError(f"shape must be one of {SHAPES}, got {shape!r}")
    xs = check_array("x", x, ndim=1)
    ys = check_array("y", y, ndim=1)
    if xs.shape != ys.shape or xs.size < 3:
        raise ValueError("x and y must be 1-D arrays of the same length >= 3")
    c["data"].setdefault("curve", {"x": xs, "y": ys, "se": ses})
    c["details"]["shape"] = shape
    if resolution is not None:
        res = check_real("resolution", resolution, low=0.0, low_open=True)
        step = float(np.max(np.abs(np.diff(xs))))
        if step > res * (1 + 1e-9):
            raise ValueError(f"x: the grid's largest step {step:.6g} is coarser than the declared resolution {res:.6g}; "
                             "refine the grid (or locate the optimum by root finding) to the declared resolution")
        c["details"]["resolution"] = res
    if cov is not None:
        C = check_array("cov", cov, ndim=2, shape=(ys.size, ys.size))
        if np.any(np.diag(C) <= 0):
            raise ValueError("cov must have a positive diagonal")
        ses = np.sqrt(np.diag(C))
    if ses is None and diff_ses is None:
        ok, info = _exact_shape(ys, shape)
        info.update({"x_argmin": float(xs[info["argmin"]]), "x_argmax": float(xs[info["argmax"]])})
        c["details"].update(info)
        sc = SubClaim(statement, "shape", n=int(ys.size), statistic=float(info["n_sign_changes"]),
                      statistic_name="sign changes of the differences", **c)
        return decide_exactly(sc, ok)
    if shape.startswith("unimodal"):
        raise ValueError("unimodal shapes are decided on exact curves; use interior-minimum/maximum for noisy ones")
    sign = 1.0 if shape in ("increasing", "interior-maximum") else -1.0
    p_for, p_against, stat, name = _noisy_tests(ys, shape, sign, ses, diff_ses, C if cov is not None else None, df)
    if shape.startswith("interior"):
        c["details"]["x_optimum"] = float(xs[int(np.argmax(sign * ys))])
    return SubClaim(statement, "shape", n=int(ys.size), df=df, statistic=stat, statistic_name=name,
                    estimate=float(ys[int(np.argmax(sign * ys))]),
                    p_value={"for": float(p_for), "against": float(p_against)}, **c)


def explain(sc) -> str:
    d = sc.details
    res = "" if d.get("resolution") is None else f", resolution {fmt(d['resolution'])}"
    if sc.statistical:
        best = "smallest" if d.get("shape") == "interior-minimum" else "largest"
        at = "" if d.get("x_optimum") is None else f", {best} value at x = {fmt(d['x_optimum'])}"
        return f"{d.get('shape')} on {sc.n} points (noisy{res}{at}): {p_text(sc)}"
    where = (f"minimum at x = {fmt(d['x_argmin'])}, maximum at x = {fmt(d['x_argmax'])}" if "x_argmin" in d else
             f"argmin {d.get('argmin')}, argmax {d.get('argmax')}")
    return (f"{d.get('shape')} on the exact grid of {sc.n} points{res}: "
            f"{'holds' if sc.verdict == CONFIRMED else 'does not hold'} "
            f"({where}, {d.get('n_sign_changes')} sign change(s) of the differences)")


def describe_curve(y) -> str:
    """The shape a curve has, in words: increasing, decreasing, U-shaped, an inverted U, or how often it turns.

    >>> describe_curve([3, 1, 2])
    'U-shaped (it falls to a minimum inside the range, then rises)'
    >>> describe_curve([1, 2, 3]), describe_curve([1, 3, 2, 4])
    ('increasing', 'not monotone (it changes direction 2 times)')
    """
    y = np.asarray(y, dtype=float)
    dy = np.diff(y)
    i_min, i_max, last = int(np.argmin(y)), int(np.argmax(y)), len(y) - 1
    if np.all(dy > 0):
        return "increasing"
    if np.all(dy < 0):
        return "decreasing"
    if 0 < i_min < last and np.all(dy[:i_min] < 0) and np.all(dy[i_min:] > 0):
        return "U-shaped (it falls to a minimum inside the range, then rises)"
    if 0 < i_max < last and np.all(dy[:i_max] > 0) and np.all(dy[i_max:] < 0):
        return "an inverted U (it rises to a maximum inside the range, then falls)"
    if np.all(dy >= 0) or np.all(dy <= 0):
        return "monotone with flat steps"
    return f"not monotone (it changes direction {int(np.sum(np.diff(np.sign(dy[dy != 0])) != 0))} times)"


#: Where a curve's abscissa is named: the statement ("… in λ", "… as γ grows", "λ*(γ) increases", "with depth").
_X_IN_STATEMENT = (r"\b(?:in|as|across|over) ([^\s,()]{1,3})(?=[\s,()]|$)",
                   r"^\S*\((\w{1,2})\) (?:increases|decreases)",
                   r"\bwith (?:the )?(?:window )?([^\s,()]{1,5})(?=\s*(?:\(|$))")
_NUMBER = r"[-+−]?\d[\d.]*(?:e[-+]?\d+)?"


def _ends_match(values: str, x) -> bool:
    nums = [float(v.replace("−", "-")) for v in re.findall(_NUMBER, values)]
    return len(nums) >= 2 and all(math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-12)
                                  for a, b in ((nums[0], x[0]), (nums[-1], x[-1])))


def _x_name(sc, x) -> str:
    """The curve's abscissa: ``details["x_name"]`` when the claim gives it; else "x = <name>" in the scope; else the
    symbol that ends the statement's leading label ("RLS forgetting factor β: …"); else a range of the scope whose ends are the curve's ("γ ∈ {0.5, …, 0.999}", "λ grid 0.01..1"); else the statement
    ("… in λ", "… as γ grows", "λ*(γ) increases", "with depth"); else "x"."""
    if sc.details.get("x_name"):
        return str(sc.details["x_name"])
    scope = sc.scope or ""
    m = re.search(r"\bx = ([^,;\]]{1,12})", scope)
    if m:
        return m.group(1).strip()
    m = re.match(r"[^:=]{0,40} (\S{1,2}): ", sc.statement)       # "RLS forgetting factor β: …"
    if m and not m.group(1).isdigit():
        return m.group(1)
    for m in re.finditer(r"([^\s,;(]{1,6}) (?:∈ ([{\[][^}\]]*[}\]])|grid (" + _NUMBER + r"\.\." + _NUMBER + "))", scope):
        if _ends_match(m.group(2) or m.group(3).replace("..", " "), x):
            return m.group(1)
    for pattern in _X_IN_STATEMENT:
        m = re.search(pattern, sc.statement)
        if m:
            return m.group(1).strip()
    return "x"


def _where(x, i, xn) -> str:
    end = " (an end of the range)" if i in (0, len(x) - 1) else ""
    return f"{xn} = {fmt(x[i])}{end}"


def _exact_finding(sc, x, y, xn) -> Finding:
    i_min, i_max = int(np.argmin(y)), int(np.argmax(y))
    text = (f"on the computed curve ({len(x)} points, {xn} from {fmt(x[0])} to {fmt(x[-1])}) the minimum "
            f"{fmt(y[i_min])} is at {_where(x, i_min, xn)} and the maximum {fmt(y[i_max])} at "
            f"{_where(x, i_max, xn)}: the curve is {describe_curve(y)}")
    res = sc.details.get("resolution")
    return Finding(text + settings_tail(sc), f"exact (the curve at {len(x)} points"
                   + (f", resolution {fmt(res)})" if res else ")"))


def _noisy_finding(sc, x, y, se, xn) -> Finding:
    shape_ = sc.details.get("shape")
    if shape_ in ("increasing", "decreasing"):
        sign = 1.0 if shape_ == "increasing" else -1.0
        sd = np.hypot(se[1:], se[:-1]) if se is not None else np.ones(len(y) - 1)
        j = int(np.argmin(sign * np.diff(y) / sd))           # the step least in the stated direction
        c = Comparison("above" if y[j + 1] > y[j] else "below" if y[j + 1] < y[j] else "equals", y[j + 1], y[j],
                       left_label=f"at {xn} = {fmt(x[j + 1])} the mean", right_label="the previous point's",
                       tail=f" (at {xn} = {fmt(x[j])})")
        head = (f"the mean goes from {fmt(y[0])} at {xn} = {fmt(x[0])} to {fmt(y[-1])} at {xn} = {fmt(x[-1])}; at "
                f"its least {shape_} step, ")
        return Finding(head + c.text + settings_tail(sc), statistical_sure(sc, n_label="points")
                       + f" (smallest step t = {fmt(sc.statistic)})", (c,))
    best = "smallest" if shape_ == "interior-minimum" else "largest"
    i = int(np.argmin(y)) if best == "smallest" else int(np.argmax(y))
    comps = tuple(Comparison("below" if y[i] < y[e] else "above" if y[i] > y[e] else "equals", y[i], y[e],
                             left_label=f"the {best} mean, at {xn} = {fmt(x[i])}," if e == 0 else "",
                             right_label=f"the {end} point's", tail=f" ({xn} = {fmt(x[e])})")
                  for e, end in ((0, "first"), (len(y) - 1, "last")))
    text = "; ".join(c.text for c in comps)
    return Finding(text + settings_tail(sc), statistical_sure(sc, n_label="points"), comps)


def finding(sc) -> Finding:
    """The curve as found: where its minimum and maximum are and what shape it has (exact curves), or its least
    monotone step / its optimum against the ends (noisy curves)."""
    curve = (sc.data or {}).get("curve") or {}
    x, y = curve.get("x"), curve.get("y")
    if x is None or y is None or len(x) != len(y) or len(x) < 2:
        return Finding(explain(sc) + settings_tail(sc), statistical_sure(sc) if sc.statistical else "exact")
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    se = curve.get("se")
    se = np.asarray(se, dtype=float) if se is not None and len(se) == len(y) else None
    xn = _x_name(sc, x)
    return _noisy_finding(sc, x, y, se, xn) if sc.statistical else _exact_finding(sc, x, y, xn)


def _shape_null(rng):        # flat curve: "increasing" must not be confirmed
    y = [Estimate.from_samples(rng.normal(0.0, 1.0, 10)) for _ in range(4)]
    return p_side(shape("x", range(4), [e.mean for e in y], shape="increasing", ses=[e.se for e in y], df=9),
                  "for") < CALIBRATION_ALPHA


RULE = register(Rule("shape", shape, explain, finding=finding, calibration={
    "shape: false confirmation of 'increasing' (flat curve)": ("bound", _shape_null),
}, fuzz=(dict(kwargs=dict(statement="s", x=[0, 1, 2], y=[1.0, 0.5, 0.8], shape="unimodal-minimum")),)))
