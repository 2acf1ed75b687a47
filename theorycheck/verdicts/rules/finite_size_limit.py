"""Rule ``asymptotic``: a limit statement (d → ∞) from finite-size estimates, under every declared finite-size law."""
from __future__ import annotations

import hashlib
import math
from typing import Mapping, Sequence

import numpy as np
from scipy import stats
from scipy.optimize import brentq

from ...claims import SubClaim
from ...validate import check_array, check_int, check_real, check_str
from ..estimate import Estimate
from ..finding import Comparison, Finding, quantity, reference, settings_tail, statistical_sure
from ..text import fmt, p_text
from .common import (
    CALIBRATION_ALPHA,
    FINITE_SIZE_LAWS,
    GOF_ALPHA,
    check_scale,
    common_kwargs,
    p_side,
    scaled_margin,
    sf,
    statistical_subclaim,
    tost_p,
)
from .registry import Rule, register


def _wls(ds: np.ndarray, y: np.ndarray, se: np.ndarray, exps: Sequence[float]):
    X = np.column_stack([np.ones_like(ds)] + [ds ** (-p) for p in exps])
    w = 1.0 / se ** 2
    A = X.T @ (X * w[:, None])
    cov = np.linalg.inv(A)
    beta = cov @ (X.T @ (w * y))
    resid = y - X @ beta
    chi2 = float(np.sum(resid ** 2 * w))
    dof = len(y) - X.shape[1]
    return beta, cov, chi2, dof


#: Replicates of the parametric bootstrap of :func:`bootstrap_df` (resolution of its 95 % quantile).
BOOTSTRAP_REPLICATES = 4000


def bootstrap_df(sizes, ses, dfs, exponents, replicates: int = BOOTSTRAP_REPLICATES) -> float:
    r"""Effective Student-t df of the studentised WLS intercept when the weights are estimated.

    The pivot :math:`T=(\hat L-L)/\widehat{\mathrm{SE}}` of the weighted fit
    :math:`y_i = L+\sum_k b_k d_i^{-p_k}` (weights :math:`1/s_i^2`) does not depend on
    :math:`L` or :math:`b` (the fit is linear), only on the true SEs and their degrees of freedom.
    Parametric bootstrap with the SEs plugged in: :math:`y_i^*\sim N(0,s_i^2)`,
    :math:`s_i^{*2}=s_i^2\chi^2_{\nu_i}/\nu_i` independently (sample mean and variance of normal
    data are independent), ``replicates`` draws of :math:`T^*`; the returned ν solves
    :math:`t_{\nu,0.975}=q_{0.95}(|T^*|)` (``inf`` when the quantile is at most the normal one).
    Seeded from the inputs themselves, so the result is deterministic.

    >>> nu = bootstrap_df([8, 16, 32, 64], [0.02] * 4, [5] * 4, (1.0,))
    >>> 2 < nu < 6
    True
    """
    ds = check_array("sizes", sizes, ndim=1, min_size=2)
    s = check_array("ses", ses, ndim=1, shape=ds.shape)
    nu = check_array("dfs", dfs, ndim=(0, 1))
    nu = np.broadcast_to(nu, ds.shape).astype(float) if nu.ndim == 0 else nu
    exps = check_array("exponents", exponents, ndim=1, min_size=1)
    replicates = check_int("replicates", replicates, minimum=100, maximum=10 ** 6)
    if np.any(ds <= 0):
        raise ValueError("sizes must be positive")
    if np.any(s <= 0) or np.any(s > 1e150) or np.any(s < 1e-150):
        raise ValueError("ses must be positive, within 1e-150..1e150")
    if nu.shape != ds.shape or np.any(nu <= 0):
        raise ValueError("dfs must be positive, one per size (or one for all)")
    if len(ds) < len(exps) + 2:
        raise ValueError(f"sizes: {len(ds)} sizes cannot test a law with {len(exps) + 1} parameters (need one more)")
    key = hashlib.sha256(b"".join(np.ascontiguousarray(a, dtype=float).tobytes()
                                  for a in (ds, s, nu, exps))).digest()
    rng = np.random.default_rng(np.random.SeedSequence(int.from_bytes(key[:16], "little")))
    X = np.column_stack([np.ones_like(ds)] + [ds ** (-p) for p in exps])
    if np.linalg.matrix_rank(X) < X.shape[1]:
        raise ValueError("sizes and exponents give a singular fit (repeated sizes or exponents)")
    y = rng.standard_normal((replicates, len(ds))) * s
    s_star = s * np.sqrt(rng.chisquare(nu, (replicates, len(ds))) / nu)
    w = 1.0 / s_star ** 2
    cov = np.linalg.inv(np.einsum("ki,rk,kj->rij", X, w, X))
    beta0 = np.einsum("rj,kj,rk,rk->r", cov[:, 0, :], X, w, y)
    q = float(np.quantile(np.abs(beta0 / np.sqrt(cov[:, 0, 0])), 0.95))
    z = float(stats.norm.ppf(0.975))
    if q <= z:
        return math.inf
    if float(stats.t.ppf(0.975, 0.5)) <= q:
        return 0.5
    return float(brentq(lambda v: float(stats.t.ppf(0.975, v)) - q, 0.5, 1e7, xtol=1e-6))


def _size_dfs(dfs, n: int):
    """``(smallest df, per-size dfs for the bootstrap)`` from ``dfs`` (one df or one per size; ``None``: known SE)."""
    if dfs is None:
        return None, None
    raw = list(np.atleast_1d(np.asarray(dfs, dtype=object)))
    if len(raw) == 1:
        raw = raw * n
    if len(raw) != n:
        raise ValueError(f"dfs must be one df or one per size ({n}), got {len(raw)}")
    given = [x for x in raw if x is not None]
    if not given:
        return None, None
    df = float(min(check_real("dfs", x, 0.0, None, low_open=True) for x in given))
    # a size whose SE is known (df None) gets no chi^2 draw: a very large df stands for it
    return df, np.array([1e12 if x is None else float(x) for x in raw])


def _fit_law(name, exps, ds, y, s, limit, m, gof_alpha, df, size_dfs) -> dict:
    """One finite-size law: the WLS fit, its goodness of fit, and the two p-values of its intercept."""
    k = 1 + len(exps)
    if len(ds) < k + 1:
        raise ValueError(f"law {name!r} needs at least {k + 1} sizes (one more than its {k} parameters, so that "
                         f"its fit can be tested), got {len(ds)}")
    beta, cov, chi2, dof = _wls(ds, y, s, exps)
    p_gof = float(stats.chi2.sf(chi2, dof)) if dof > 0 else None
    accepted = p_gof is None or p_gof >= gof_alpha
    se0 = float(math.sqrt(cov[0, 0]))
    diff = float(beta[0] - limit)
    nu_boot = bootstrap_df(ds, s, size_dfs, exps) if size_dfs is not None else None
    df_law = None if df is None else min(df, nu_boot)
    df_law = None if df_law is not None and math.isinf(df_law) else df_law
    pf, pa = tost_p(diff, se0, m, df_law), min(1.0, 2 * sf(abs(diff) / se0, df_law))
    return {"exponents": list(exps), "intercept": float(beta[0]), "intercept_se": se0,
            "coefficients": [float(b) for b in beta[1:]], "chi2": chi2, "dof": dof, "p_gof": p_gof,
            "accepted": accepted, "t": diff / se0, "df": df_law, "df_bootstrap": nu_boot, "p_for": pf, "p_against": pa}


def asymptotic(statement: str, sizes, means, ses, limit: float, *, margin: float, relative: bool = False,
               laws: Mapping[str, Sequence[float]] | None = None, gof_alpha: float = GOF_ALPHA,
               dfs=None, size_name: str = "d", **kw) -> SubClaim:
    r"""A limit statement (:math:`y(d)\to L` as :math:`d\to\infty`) from finite-size estimates.

    For every finite-size law declared before the data (``laws``, default
    :data:`FINITE_SIZE_LAWS`: :math:`y=L+b/d` and :math:`y=L+b/\sqrt d`), a weighted least-squares
    fit (weights 1/SE²) gives the intercept :math:`\hat L` with its SE; the law's χ² goodness of
    fit is tested at ``gof_alpha`` (so every law needs one more size than it has parameters) and a
    law that fails it is set aside. Under each remaining law
    the intercept is tested as in :func:`agreement` (point null :math:`L` against; TOST within
    the margin for) with a Student t reference. Its degrees of freedom: the smallest per-size df
    (``dfs``), lowered when needed by :func:`bootstrap_df` — the WLS weights are *estimated*
    (1/SE² from the same data), which makes the plug-in SE of the intercept optimistic: with the
    smallest df the rule refuted a true limit in 5.4–6.0 % of datasets at α = 5 % (4 sizes, 6
    replicates each; simulations of 2026-12-01), with the bootstrap df in 4.7 % (``theorycheck
    selftest`` → ``calibration.md``). ``dfs=None`` means known SEs (normal reference, no bootstrap).
    The sub-claim's p-values are the intersection–union combination over the remaining laws
    (the maximum): confirmed only if *every* plausible law confirms, refuted only if every one
    refutes; laws that disagree give inconclusive. No remaining law: inconclusive.
    ``details['laws']`` records every law's fit, GOF p-value and verdict-level p-values.

    >>> ds = [16, 32, 64, 128]; y = [1 + 2 / d for d in ds]
    >>> s = asymptotic("y -> 1", ds, y, [1e-3] * 4, 1.0, margin=0.01)
    >>> s.details["laws"]["1/d"]["accepted"], s.details["laws"]["1/sqrt(d)"]["accepted"]
    (True, False)
    """
    c = common_kwargs(kw)
    statement = check_str("statement", statement)
    laws = dict(FINITE_SIZE_LAWS if laws is None else laws)
    ds = check_array("sizes", sizes, ndim=1)
    y = check_array("means", means, ndim=1)
    s = check_array("ses", ses, ndim=1)
    if not (ds.shape == y.shape == s.shape):
        raise ValueError("sizes, means and ses must be 1-D arrays of the same length")
    if np.any(ds <= 0) or np.any(s <= 0):
        raise ValueError("sizes and ses must be positive")
    if np.any(np.abs(y) > 1e150) or np.any(s > 1e150) or np.any(s < 1e-150):
        raise ValueError("means and ses must lie within 1e-150..1e150 in magnitude (rescale the quantity)")
    df, size_dfs = _size_dfs(dfs, len(ds))
    limit = check_real("limit", limit)
    m = scaled_margin("margin", margin, limit, relative)
    check_scale(limit=limit, margin=m)
    gof_alpha = check_real("gof_alpha", gof_alpha, 0.0, 1.0, low_open=True, high_open=True)
    per_law, p_for, p_against = {}, [], []
    for name, exps in laws.items():
        per_law[name] = law = _fit_law(name, exps, ds, y, s, limit, m, gof_alpha, df, size_dfs)
        if law["accepted"]:
            p_for.append(law["p_for"])
            p_against.append(law["p_against"])
    c["details"].update({"laws": per_law, "gof_alpha": gof_alpha, "size_name": size_name,
                         "sizes": ds.tolist(), "combination": "intersection-union over accepted laws (max p)"})
    c["data"].setdefault("finite_size", {"sizes": ds, "means": y, "ses": s})
    acc = [n for n, v in per_law.items() if v["accepted"]]
    first = per_law[acc[0]] if acc else next(iter(per_law.values()))
    est = Estimate(first["intercept"], first["intercept_se"], int(len(ds)), first["df"])
    return statistical_subclaim(statement, "asymptotic", est, max(p_for) if p_for else 1.0,
                        max(p_against) if p_against else 1.0, target=limit, margin=m,
                        statistic=first["t"], statistic_name=f"t of the intercept ({acc[0] if acc else 'no law fits'})",
                        **c)


def explain(sc) -> str:
    d = sc.details
    laws = "; ".join(
        f"{name}: intercept {fmt(v['intercept'])} ± {fmt(v['intercept_se'])} "
        f"(GOF p {fmt(v['p_gof'])}{'' if v['accepted'] else ', law rejected'}, t = {fmt(v['t'], 3)}"
        + ("" if v.get("df") is None else f", df = {fmt(v['df'], 3)}") + ")"
        for name, v in d.get("laws", {}).items())
    return (f"extrapolation {d.get('size_name', 'd')} → ∞ over {d.get('size_name', 'd')} ∈ "
            f"{[int(x) if float(x).is_integer() else x for x in d.get('sizes', [])]}: {laws}; limit {fmt(sc.target)}, "
            f"margin ±{fmt(sc.margin)}; {p_text(sc)}")


def finding(sc) -> Finding:
    """The extrapolated limit under each finite-size law that fits, against the claimed limit; the laws that do not
    fit are named with their goodness-of-fit p."""
    d = sc.details
    R, m = float(sc.target), float(sc.margin or 0.0)
    size = d.get("size_name", "d")
    what = quantity(sc, "")
    left, right = (f"the limit of {what}" if what else "the limit"), reference(sc, "the claimed")
    parts, comps = [], []
    for name, v in d.get("laws", {}).items():
        if not v.get("accepted"):
            continue
        L, se = float(v["intercept"]), float(v["intercept_se"])
        q = float(stats.t.ppf(0.975, v["df"]) if v.get("df") else stats.norm.ppf(0.975))
        ci = (L - q * se, L + q * se)
        if sc.verdict == "confirmed" and abs(L - R) <= m:
            c = Comparison("within", L, R, m, left_label=left, right_label=right, ci=ci)
        else:
            c = Comparison("below" if L < R else "above" if L > R else "equals", L, R, left_label=left,
                           right_label=right, ci=ci, gap=L != R, margin=m if L != R else None)
        comps.append(c)
        parts.append(f"{c.text} under the {name} law")
        left = "the limit"
    sizes = ", ".join(fmt(int(x) if float(x).is_integer() else x) for x in d.get("sizes", []))
    off = [f"{name} (GOF p = {fmt(v.get('p_gof'))})" for name, v in d.get("laws", {}).items() if not v.get("accepted")]
    text = (f"extrapolated to {size} → ∞ from {size} ∈ {{{sizes}}}: " + ("; ".join(parts) or "no declared law fits")
            + (f"; the law(s) {', '.join(off)} do not fit the data" if off else "") + settings_tail(sc))
    return Finding(text, statistical_sure(sc, n_label="sizes", ci=False), tuple(comps))


def _asym_data(rng, limit_shift):
    ds = np.array([8.0, 16.0, 32.0, 64.0])
    trials = 6
    means, ses = [], []
    for d in ds:
        e = Estimate.from_samples(rng.normal(1.0 + limit_shift + 2.0 / d, 0.05, trials))
        means.append(e.mean)
        ses.append(e.se)
    return ds, means, ses, trials - 1


def _asym_null(rng):         # data follow L + b/d with the stated L: must not refute
    ds, m, s, df = _asym_data(rng, 0.0)
    return p_side(asymptotic("x", ds, m, s, 1.0, margin=0.05, dfs=[df] * 4, laws={"1/d": (1.0,)}),
                  "against") < CALIBRATION_ALPHA


RULE = register(Rule("asymptotic", asymptotic, explain, finding=finding, calibration={
    "asymptotic: false refutation (1/d law true)": ("bound", _asym_null),
}, fuzz=(dict(kwargs=dict(statement="s", sizes=[8, 16, 32, 64], means=[1.1, 1.05, 1.03, 1.01], ses=[0.01] * 4,
                          limit=1.0, margin=0.05)),
         dict(fn="bootstrap_df", allow_inf=True,      # inf: documented (quantile at most the normal one)
              kwargs=dict(sizes=[8, 16, 32, 64], ses=[0.02] * 4, dfs=[5] * 4, exponents=(1.0,), replicates=400)))))
