r"""Finite-size extrapolation of simulated errors to d → ∞ (exploration only: verdicts use
:func:`theorycheck.verdicts.rules.asymptotic`, which fits every finite-size law the engine declares).
There is one finite-size fit: :func:`extrapolate` is that rule's weighted least-squares fit of one power law
(weights 1/SE², known SEs), read from its record; :func:`extrapolate_models` (legacy, kept importable) picks a law
and adds a fit-form systematic.
"""
from __future__ import annotations

import math

import numpy as np

from ....validate import ParameterTypeError, check_array, check_real
from ....verdicts.rules import asymptotic

__all__ = ["extrapolate", "extrapolate_models"]


def extrapolate(ds, means, ses, power=1.0, powers=None) -> dict:
    r"""Weighted least-squares fit :math:`m(d)=e_\infty+c\,d^{-\text{power}}` (weights :math:`1/\mathrm{SE}^2`);
    ``powers=(1, 2)`` fits :math:`e_\infty+c_1/d+c_2/d^2` instead. (Exploration only; verdicts use
    :func:`theorycheck.verdicts.rules.asymptotic`.)

    Returns ``{"intercept", "se", "slope", "coefs", "chi2", "dof", "p_fit", "ci95", "model"}``; ``se`` is the
    model-based intercept SE inflated by :math:`\sqrt{\chi^2/\mathrm{dof}}` when that exceeds 1
    (so a poor fit widens, never narrows, the interval); ``p_fit`` is the :math:`\chi^2` goodness-of-fit
    p-value (small = this power law does not describe the points).

    >>> r = extrapolate([8, 16, 32], [1.5, 1.25, 1.125], [0.01, 0.01, 0.01])
    >>> round(r["intercept"], 6), round(r["slope"], 6)
    (1.0, 4.0)
    """
    ds = check_array("ds", ds, ndim=1)
    m = check_array("means", means, ndim=1)
    s = check_array("ses", ses, ndim=1)
    if not (ds.size == m.size == s.size >= 2):
        raise ValueError("ds, means, ses must be 1-D arrays of equal length >= 2")
    if np.any(ds <= 0) or np.any(s <= 0):
        raise ValueError("ds and ses must be positive")
    if np.any(np.abs(m) > 1e150) or np.any(s > 1e150) or np.any(s < 1e-150) or np.any(ds > 1e15):
        raise ValueError("means and ses must lie within 1e-150..1e150 in magnitude and ds below 1e15")
    if powers is None:
        pw = [check_real("power", power, low=0.0, low_open=True, high=10.0)]
    else:
        if isinstance(powers, (str, bytes, dict)) or not isinstance(powers, (list, tuple, np.ndarray)):
            raise ParameterTypeError(f"powers must be a list of positive exponents or None, got {powers!r}")
        pw = [check_real("powers", q, low=0.0, low_open=True, high=10.0) for q in powers]
        if not pw or len(set(pw)) != len(pw):
            raise ValueError(f"powers must be a non-empty list of distinct positive exponents, got {list(powers)!r}")
    if ds.size < 2 + len(pw):
        raise ValueError(f"need at least {2 + len(pw)} points for {len(pw)} correction terms (one more than the fit's "
                         "parameters, so that its goodness of fit can be tested)")
    if len(set(ds.tolist())) != ds.size:
        raise ValueError("ds and power/powers give a singular fit: give distinct sizes ds (at least one more than "
                         "the number of terms)")
    model = "a + " + " + ".join(f"b{i + 1}/d^{q:g}" for i, q in enumerate(pw))
    try:
        fit = asymptotic("extrapolation", ds, m, s, 0.0, margin=1.0, laws={model: tuple(pw)}).details["laws"][model]
    except np.linalg.LinAlgError:
        raise ValueError("ds and power/powers give a singular fit: give distinct sizes ds (at least one more than "
                         "the number of terms)") from None
    coef = [fit["intercept"]] + list(fit["coefficients"])
    if not all(math.isfinite(c) for c in coef + [fit["intercept_se"]]):
        raise ValueError("ds and power/powers give an ill-conditioned fit (non-finite coefficients); use moderate "
                         "powers and sizes")
    chi2, dof = fit["chi2"], fit["dof"]
    infl = math.sqrt(chi2 / dof) if chi2 > dof else 1.0
    se = fit["intercept_se"] * infl
    return {"intercept": coef[0], "slope": coef[1], "coefs": coef, "se": se, "chi2": chi2, "dof": dof,
            "p_fit": fit["p_gof"], "ci95": [coef[0] - 1.96 * se, coef[0] + 1.96 * se], "power": pw[0], "model": model}


def extrapolate_models(ds, means, ses, target=None, p_min=1e-3) -> dict:
    r"""Finite-size extrapolation with a stated model choice and a fit-form systematic.

    Legacy helper, kept importable: verdicts never use it. Its primary law (1/d) was chosen after a look at
    the data; the paper's d → ∞ claims are decided by :func:`theorycheck.verdicts.rules.asymptotic`, which
    fits every finite-size law the engine declares and combines them by intersection–union.

    Primary law :math:`a+b/d` (a priori: the corrections of this model come from the
    :math:`d(d+1)-d^2=d` extra parameters and from rank-d per-task structure in a :math:`d^2`-dimensional
    feature space, both :math:`O(1/d)`); if it does not fit (``p_fit <= p_min``) the law
    :math:`a+b_1/d+b_2/d^2` is used. The fit-form systematic is the difference between the
    :math:`a+b/d` and :math:`a+b_1/d+b_2/d^2` intercepts (when both exist), added in quadrature:
    ``z_total`` :math:`=(a-\text{target})/\sqrt{\mathrm{se}^2+\mathrm{sys}^2}`. The law
    :math:`a+b/\sqrt d` is fitted and reported for comparison only.
    Returns ``{"fits", "chosen", "intercept", "se", "systematic", "z_total"}``.
    """
    if target is not None:
        target = check_real("target", target, low=-1e150, high=1e150)
    p_min = check_real("p_min", p_min, low=0.0, high=1.0)
    fits = {"1/d": extrapolate(ds, means, ses, 1.0), "1/sqrt(d)": extrapolate(ds, means, ses, 0.5)}
    if len(ds) >= 4:
        fits["1/d+1/d^2"] = extrapolate(ds, means, ses, powers=(1.0, 2.0))
    if target is not None:
        for f in fits.values():
            f["z_vs_target"] = (f["intercept"] - target) / f["se"]

    def ok(k):
        return k in fits and (fits[k]["dof"] == 0 or fits[k]["p_fit"] > p_min)

    chosen = "1/d" if ok("1/d") else ("1/d+1/d^2" if ok("1/d+1/d^2") else None)
    out = {"fits": fits, "chosen": chosen}
    if chosen is None:
        return out
    sys_ = abs(fits["1/d"]["intercept"] - fits["1/d+1/d^2"]["intercept"]) if "1/d+1/d^2" in fits else 0.0
    out.update(intercept=fits[chosen]["intercept"], se=fits[chosen]["se"], systematic=sys_)
    if target is not None:
        out["z_total"] = (fits[chosen]["intercept"] - target) / math.hypot(fits[chosen]["se"], sys_)
    return out
