r"""A validated point of the proportional limit of paper 004: the data ratios, the noise and the ridge.

The theory's public functions take plain numbers; each turns them once, at its boundary, into a :class:`Setting`
with :func:`setting` (the only validation), and the closed forms behind it trust that object — no function of
:mod:`.icl` or :mod:`.a1zero` checks a value its caller has checked. A derived setting (the labels rescaled by
:math:`1/a_1` in Result 1) is built from a validated one with :meth:`Setting.replace`, by code that knows the new
values are in range.

Fields: :math:`\tau=n/d^2`, :math:`\alpha=\ell/d`, :math:`\kappa=k/d` (``math.inf``: a fresh task per prompt), the
label-noise variance :math:`\rho` (a *variance*) and the ridge :math:`\lambda` of the penalty
:math:`\frac nd\lambda\|\Gamma\|_F^2` (0: the minimum-norm limit). Ranges: :data:`~.ranges.MIN_RATIO` ≤ τ, α, finite
κ ≤ :data:`~.ranges.MAX_VALUE`; 0 ≤ ρ, λ ≤ :data:`~.ranges.MAX_VALUE`.

>>> s = setting(2.0, 2.0, math.inf, 0.1)
>>> s.kappa, s.lam
(inf, 0.0)
>>> setting(2.0, 2.0, 2.0, -1.0)
Traceback (most recent call last):
...
ValueError: rho must be in [0, 1e+16], got -1
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from ....validate import check_real
from .ranges import MAX_VALUE, MIN_RATIO

__all__ = ["Setting", "setting"]


@dataclass(frozen=True)
class Setting:
    """τ, α, κ, ρ, λ after validation by :func:`setting` (build it with that function; code that holds a Setting
    trusts it)."""

    tau: float
    alpha: float
    kappa: float
    rho: float
    lam: float = 0.0

    def replace(self, **changes) -> "Setting":
        """The same setting with some fields changed (values the caller knows to be in range)."""
        return dataclasses.replace(self, **changes)


def setting(tau, alpha, kappa, rho, lam=0.0, *, rho_name: str = "rho") -> Setting:
    """The validated :class:`Setting` (a ``ValueError`` naming the first bad argument; ``rho_name``: the name the
    caller gives the noise variance, e.g. ``rho_nl``).

    >>> setting(0.5, 2.0, 2.0, 0.1, 0.3).tau
    0.5
    """
    tau = check_real("tau", tau, low=MIN_RATIO, high=MAX_VALUE)
    alpha = check_real("alpha", alpha, low=MIN_RATIO, high=MAX_VALUE)
    kappa = check_real("kappa", kappa, low=MIN_RATIO, allow_inf=True)
    if math.isfinite(kappa) and kappa > MAX_VALUE:
        raise ValueError(f"kappa must be in [{MIN_RATIO:g}, {MAX_VALUE:g}] or math.inf, got {kappa}")
    rho = check_real(rho_name, rho, low=0.0, high=MAX_VALUE)
    lam = check_real("lam", lam, low=0.0, high=MAX_VALUE)
    return Setting(tau, alpha, kappa, rho, lam)
