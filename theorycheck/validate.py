"""Parameter validation shared by every public function.

Every check raises :class:`ValueError` whose message names the parameter and
the allowed range, e.g. ``ValueError: gamma must be in (0, 1], got 1.5``.
Nothing here returns NaN or silently clips.

>>> check_int("d", 3, minimum=1)
3
>>> check_real("lam", 0.5, low=0.0, high=1.0, low_open=True)
0.5
>>> check_real("lam", 0.0, low=0.0, high=1.0, low_open=True)
Traceback (most recent call last):
...
ValueError: lam must be in (0, 1], got 0
"""
from __future__ import annotations

import math
import numbers

import numpy as np

__all__ = ["check_int", "check_real", "check_psd", "check_choice", "check_bool"]


def _fmt(x):
    if x is None:
        return "inf"
    if isinstance(x, float) and x.is_integer():
        return str(int(x))
    return repr(x) if isinstance(x, str) else str(x)


def check_int(name: str, value, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as ``int`` if it is an integer in [minimum, maximum]."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        if isinstance(value, (float, np.floating)) and float(value).is_integer() and math.isfinite(value):
            value = int(value)
        else:
            raise ValueError(f"{name} must be an integer, got {value!r}")
    value = int(value)
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        lo = "-inf" if minimum is None else str(minimum)
        hi = "inf" if maximum is None else str(maximum)
        raise ValueError(f"{name} must be an integer in [{lo}, {hi}], got {value}")
    return value


def check_real(name: str, value, low: float | None = None, high: float | None = None,
               low_open: bool = False, high_open: bool = False, allow_inf: bool = False) -> float:
    """Return ``value`` as ``float`` if it is a real number in the stated interval.

    ``low``/``high`` of ``None`` mean unbounded. ``allow_inf`` admits ``+inf``
    (e.g. ``kappa=math.inf``) provided the upper end is unbounded.
    """
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a real number, got {value!r}")
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a real number, got {value!r}") from None
    lo_br = "(" if (low_open or low is None) else "["
    hi_br = ")" if (high_open or high is None) else "]"
    interval = f"{lo_br}{'-inf' if low is None else _fmt(low)}, {'inf' if high is None else _fmt(high)}{hi_br}"
    if math.isnan(v):
        raise ValueError(f"{name} must be in {interval}, got nan")
    if math.isinf(v) and not (allow_inf and v > 0 and high is None):
        raise ValueError(f"{name} must be finite and in {interval}, got {v}")
    bad = False
    if low is not None:
        bad |= v <= low if low_open else v < low
    if high is not None:
        bad |= v >= high if high_open else v > high
    if bad:
        raise ValueError(f"{name} must be in {interval}, got {_fmt(v) if isinstance(v, float) else v}")
    return v


def check_choice(name: str, value, choices) -> object:
    if value not in choices:
        raise ValueError(f"{name} must be one of {sorted(map(str, choices))}, got {value!r}")
    return value


def check_bool(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ValueError(f"{name} must be True or False, got {value!r}")
    return bool(value)


def check_psd(name: str, mat, tol: float = 1e-10, batch: bool = False) -> np.ndarray:
    """Validate a finite, symmetric, positive semi-definite matrix (or a batch of them).

    Returns it as a float array. Symmetry and PSD-ness are tested with a relative
    tolerance ``tol`` on the largest absolute entry.
    """
    try:
        a = np.asarray(mat, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a numeric matrix, got {type(mat).__name__}") from None
    want = 3 if batch else 2
    if a.ndim != want or a.shape[-1] != a.shape[-2]:
        shape = "(B, n, n)" if batch else "(n, n)"
        raise ValueError(f"{name} must be square with shape {shape}, got shape {a.shape}")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must have finite entries")
    if a.shape[-1] == 0:
        return a
    scale = max(1.0, float(np.max(np.abs(a))))
    if np.max(np.abs(a - np.swapaxes(a, -1, -2))) > tol * scale:
        raise ValueError(f"{name} must be symmetric")
    eig = np.linalg.eigvalsh(a)
    if np.min(eig) < -1e-8 * scale:
        raise ValueError(f"{name} must be positive semi-definite (smallest eigenvalue {np.min(eig):.3g})")
    return a
