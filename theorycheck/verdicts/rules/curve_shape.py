"""Rule ``shape``: a qualitative shape of a curve — monotone, interior optimum, unimodal."""
from __future__ import annotations

import math

import numpy as np

from ...claims import CONFIRMED, SubClaim
from ...validate import check_array, check_real, check_str
from ..estimate import Estimate
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


def _shape_null(rng):        # flat curve: "increasing" must not be confirmed
    y = [Estimate.from_samples(rng.normal(0.0, 1.0, 10)) for _ in range(4)]
    return p_side(shape("x", range(4), [e.mean for e in y], shape="increasing", ses=[e.se for e in y], df=9),
                  "for") < CALIBRATION_ALPHA


RULE = register(Rule("shape", shape, explain, calibration={
    "shape: false confirmation of 'increasing' (flat curve)": ("bound", _shape_null),
}, fuzz=(dict(kwargs=dict(statement="s", x=[0, 1, 2], y=[1.0, 0.5, 0.8], shape="unimodal-minimum")),)))
