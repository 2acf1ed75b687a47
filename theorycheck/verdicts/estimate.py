r"""Estimates handed to the decision rules: a value, its standard error and degrees of freedom.

An :class:`Estimate` is what a rule needs to make a t-based decision: ``mean``, standard error
``se``, sample size ``n`` and degrees of freedom ``df`` (``None`` for a normal reference, i.e.
:math:`df\to\infty`; exact values have ``se = 0``). Constructors:

* :meth:`Estimate.from_samples` — i.i.d. samples, SE = sd/√n (ddof = 1), df = n − 1;
* :meth:`Estimate.from_batches` — batch means (or per-batch ratio estimates) for correlated or
  heavy-tailed samples: the batch values are treated as i.i.d., df = B − 1;
* :meth:`Estimate.from_mean_estimate` — a :class:`theorycheck.montecarlo.MeanEstimate`
  (df = n − 1, or its own ``df`` when it carries one);
* :meth:`Estimate.difference` — the difference of two independent estimates, Welch–Satterthwaite df;
* :meth:`Estimate.exact` — an exactly computed value (se = 0).

>>> e = Estimate.from_samples([1.0, 2.0, 3.0, 4.0])
>>> e.mean, round(e.se, 6), e.df
(2.5, 0.645497, 3)
>>> round(Estimate.from_batches([1.0, 1.2, 0.8]).se, 6)
0.11547
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ..validate import ParameterTypeError, check_array, check_int, check_real

__all__ = ["Estimate", "as_estimate", "joint_test"]


@dataclass(frozen=True)
class Estimate:
    """A scalar estimate with standard error and degrees of freedom (``df=None``: normal)."""

    mean: float
    se: float
    n: int | None = None
    df: float | None = None
    label: str = ""

    def __post_init__(self):
        m = check_real("mean", self.mean)
        s = check_real("se", self.se, low=0.0)
        if self.n is not None:
            object.__setattr__(self, "n", check_int("n", self.n, minimum=1))
        if self.df is not None:
            df = check_real("df", self.df, low=0.0, low_open=True, allow_inf=True)
            object.__setattr__(self, "df", None if math.isinf(df) else (int(df) if df.is_integer() else df))
        object.__setattr__(self, "mean", m)
        object.__setattr__(self, "se", s)

    @property
    def exact_value(self) -> bool:
        return self.se == 0.0

    @classmethod
    def exact(cls, value, label: str = "") -> "Estimate":
        return cls(float(value), 0.0, None, None, label)

    @classmethod
    def from_samples(cls, samples, label: str = "") -> "Estimate":
        x = check_array("samples", samples, finite=False).ravel()
        if x.size < 2:
            raise ValueError(f"samples must hold at least 2 values for a standard error, got {x.size}")
        if not np.all(np.isfinite(x)):
            raise ValueError("samples contain NaN or inf")
        if np.ptp(x) == 0:          # identical samples: the value is exact (no rounding-level pseudo-SE)
            return cls(float(x[0]), 0.0, int(x.size), None, label)
        return cls(float(x.mean()), float(x.std(ddof=1) / math.sqrt(x.size)), int(x.size), int(x.size - 1), label)

    @classmethod
    def from_batches(cls, batch_values, n_per_batch: int | None = None, label: str = "") -> "Estimate":
        """Batch-means estimate: the B batch values are treated as i.i.d.; df = B − 1."""
        b = check_array("batch_values", batch_values, finite=False).ravel()
        if b.size < 2:
            raise ValueError(f"batch_values must hold at least 2 batches, got {b.size}")
        e = cls.from_samples(b, label)
        n = int(b.size * n_per_batch) if n_per_batch else int(b.size)
        return cls(e.mean, e.se, n, int(b.size - 1), label)

    @classmethod
    def from_mean_estimate(cls, me, label: str = "") -> "Estimate":
        n = int(getattr(me, "n", 0) or 0)
        df = getattr(me, "df", None)
        if df is None:
            df = n - 1 if n >= 2 else None
        return cls(float(np.asarray(me.mean)), float(np.asarray(me.se)), n or None, df,
                   label or getattr(me, "label", ""))

    @classmethod
    def difference(cls, a: "Estimate", b: "Estimate", label: str = "") -> "Estimate":
        """``a − b`` for independent estimates; Welch–Satterthwaite degrees of freedom."""
        a, b = as_estimate(a), as_estimate(b)
        se = math.hypot(a.se, b.se)
        if se == 0:
            return cls.exact(a.mean - b.mean, label)
        if a.df is None or b.df is None:
            df = None
        else:
            num = (a.se ** 2 + b.se ** 2) ** 2
            den = (a.se ** 4 / a.df if a.se else 0.0) + (b.se ** 4 / b.df if b.se else 0.0)
            df = num / den if den > 0 else None
        n = (a.n or 0) + (b.n or 0) or None
        return cls(a.mean - b.mean, se, n, df, label)

    def scaled(self, factor: float) -> "Estimate":
        return Estimate(self.mean * factor, self.se * abs(factor), self.n, self.df, self.label)

    def ci(self, level: float = 0.95) -> tuple[float, float]:
        """Two-sided t (or normal) confidence interval at ``level``."""
        if not 0 < level < 1:
            raise ValueError(f"level must be in (0, 1), got {level}")
        if self.se == 0:
            return (self.mean, self.mean)
        q = stats.t.ppf(0.5 + level / 2, self.df) if self.df else stats.norm.ppf(0.5 + level / 2)
        return (self.mean - q * self.se, self.mean + q * self.se)

    def as_dict(self) -> dict:
        return {"mean": self.mean, "se": self.se, "n": self.n, "df": self.df}


def as_estimate(x, name: str = "x") -> Estimate:
    """Coerce an :class:`Estimate`, a ``MeanEstimate`` or a plain number (exact) to an :class:`Estimate`
    (errors name the parameter ``name``)."""
    if isinstance(x, Estimate):
        return x
    if hasattr(x, "mean") and hasattr(x, "se") and not isinstance(x, np.ndarray):
        try:
            return Estimate.from_mean_estimate(x)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"{name} is not a usable estimate: {exc}") from None
    if isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool):
        return Estimate.exact(check_real(name, x))
    raise ParameterTypeError(f"{name} must be an Estimate, a MeanEstimate or a number, got {type(x).__name__}")


def joint_test(means, exact, cov=None, ses=None, df=None) -> dict:
    r"""One joint test of a vector of estimates against exact values: :math:`T^2=\Delta^\top\Sigma^{-1}\Delta`
    with :math:`\chi^2_k` (``df`` None or ∞) or the Hotelling :math:`F_{k,df-k+1}` law (``df`` > k − 1). ``cov`` is the covariance of
    the estimated means; ``ses`` alone means independent components. Returns
    ``{"means", "exact", "cov", "t2", "p", "law", "k"}`` (arrays validated, errors name the parameter).

    >>> round(joint_test([1.01, 2.99], [1.0, 3.0], ses=[0.01, 0.02])["t2"], 2)
    1.25
    """
    m_ = check_array("means", means, min_size=1).ravel()
    e_ = check_array("exact", exact, min_size=1).ravel()
    if m_.shape != e_.shape:
        raise ValueError("means and exact must be vectors of the same length")
    if np.any(np.abs(m_) > 1e150) or np.any(np.abs(e_) > 1e150):
        raise ValueError("means and exact must be below 1e150 in magnitude (rescale the components)")
    if cov is None:
        if ses is None:
            raise ValueError("give cov (covariance of the means) or ses (independent components)")
        s_ = check_array("ses", ses).ravel()
        if s_.shape != m_.shape or np.any(s_ <= 0) or np.any(s_ > 1e150):
            raise ValueError("ses must be positive, below 1e150 and as long as means")
        cov = np.diag(s_ ** 2)
    k = m_.size
    cov = check_array("cov", cov, ndim=2, shape=(k, k))
    d = m_ - e_
    try:
        t2 = float(d @ np.linalg.solve(cov, d))
    except np.linalg.LinAlgError:
        raise ValueError("cov must be positive definite") from None
    if not math.isfinite(t2):
        raise ValueError("means, exact and cov give a non-finite statistic (overflow); rescale the components")
    if df is not None:
        df = check_real("df", df, 0.0, None, low_open=True, allow_inf=True)
        if df - k + 1 <= 0:
            raise ValueError(f"df must exceed k − 1 = {k - 1} for the Hotelling law of {k} components, got {df:g} "
                             "(fewer batches than components: test fewer components or use more batches)")
        df = None if math.isinf(df) else df     # infinitely many df: the χ² limit
    if df is not None:
        p = float(stats.f.sf(t2 * (df - k + 1) / (df * k), k, df - k + 1))
        law = f"Hotelling T² (F with {k}, {df - k + 1} df)"
    else:
        p = float(stats.chi2.sf(t2, k))
        law = f"χ² with {k} df"
    return {"means": m_, "exact": e_, "cov": cov, "t2": t2, "p": p, "law": law, "k": k}
