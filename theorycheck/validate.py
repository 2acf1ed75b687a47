"""Parameter validation shared by every public function (one layer, one set of rules).

Every check names the parameter: a value of the wrong *type* raises :class:`ParameterTypeError`
(a ``TypeError`` that is also a ``ValueError``, so older ``except ValueError`` code keeps working),
e.g. ``gamma must be a real number, got '0.5' (str)``; a value out of *range* raises ``ValueError``
with the allowed interval, e.g. ``gamma must be in (0, 1], got 1.5``. Nothing here returns NaN or
silently clips.

Coercion rules for numbers: reals accept Python and NumPy integers and floats, ``fractions`` and
``decimal`` numbers, SymPy numbers and 0-d numeric arrays — never strings or booleans; integers
accept integral floats (``5.0``) but not strings (``"5"``) or booleans.

Resource guards: :func:`check_memory` refuses, before any work, an allocation sized by a user
parameter beyond the memory budget (``THEORYCHECK_MEMORY_GB``, default 4 GiB per allocation),
naming the parameter, the estimate and how to raise the budget.

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
import os

import numpy as np

__all__ = ["check_int", "check_real", "check_psd", "check_choice", "check_bool", "check_callable", "check_memory",
           "check_finite_result", "memory_budget_bytes", "ParameterTypeError", "check_str", "check_array", "MAX_COUNT",
           "check_comparison"]

#: largest count (samples, batches, generators, iterations) a user parameter may ask for in one call
MAX_COUNT = 10 ** 10


class ParameterTypeError(TypeError, ValueError):
    """A parameter of the wrong type (a ``TypeError``; also a ``ValueError`` for older callers)."""


_F64 = np.dtype(np.float64)

def _tname(value) -> str:
    return type(value).__name__


def _fmt(x):
    if x is None:
        return "inf"
    if isinstance(x, float) and x.is_integer() and abs(x) < 1e15:   # 2.0 -> "2"; 1e16 stays "1e+16"
        return str(int(x))
    return repr(x) if isinstance(x, str) else str(x)


def _bound(which: str, b):
    if b is None or type(b) is int or (type(b) is float and math.isfinite(b)):     # the common cases, fast
        return b
    if isinstance(b, bool) or not isinstance(b, (numbers.Real, np.integer, np.floating)) or not math.isfinite(float(b)):
        raise ParameterTypeError(f"{which} must be a finite number or None, got {b!r} ({_tname(b)})")
    return b


def check_str(name: str, value, nonempty: bool = True) -> str:
    """``value`` if it is a (non-empty) string."""
    if not isinstance(value, str):
        raise ParameterTypeError(f"{name} must be a string, got {value!r} ({_tname(value)})")
    if nonempty and not value.strip():
        raise ValueError(f"{name} must be a non-empty string")
    return value


def check_array(name: str, value, ndim: int | tuple | None = None, finite: bool = True, min_size: int = 0,
                shape: tuple | None = None) -> np.ndarray:
    """``value`` as a float array with the stated dimension(s), size and finiteness (errors name ``name``).

    A finite ``float64`` ndarray that passes every check is returned as is (the object itself, which is what
    ``np.asarray`` gives for it, found without re-validating the options); other input is converted with
    ``np.asarray(value, dtype=float)`` and checked in full.

    >>> check_array("x", [1, 2], ndim=1).tolist()
    [1.0, 2.0]
    """
    if (type(value) is np.ndarray and value.dtype == _F64 and finite is True and type(min_size) is int
            and 0 <= min_size <= value.size and (ndim is None or (type(ndim) is int and value.ndim == ndim <= 32))
            and (shape is None or (type(shape) is tuple and value.shape == shape
                                   and all(type(k) is int for k in shape)))
            and np.isfinite(value).all()):
        return value                 # the common case: what the general path below returns for it
    if ndim is not None:
        dims = (ndim,) if not isinstance(ndim, (tuple, list)) else tuple(ndim)
        ndim = tuple(check_int("ndim", k, minimum=0, maximum=32) for k in dims)
    if shape is not None:
        if not isinstance(shape, (tuple, list)):
            raise ParameterTypeError(f"shape must be a tuple of non-negative integers, got {shape!r} ({_tname(shape)})")
        shape = tuple(check_int("shape", k, minimum=0) for k in shape)
    min_size = check_int("min_size", min_size, minimum=0)
    if not isinstance(finite, (bool, np.bool_)):
        raise ParameterTypeError(f"finite must be True or False, got {finite!r} ({_tname(finite)})")
    if value is None or isinstance(value, (str, bytes, bool, dict)):
        raise ParameterTypeError(f"{name} must be a numeric array, got {value!r} ({_tname(value)})")
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ParameterTypeError(f"{name} must be a numeric array, got {_tname(value)}") from None
    if ndim is not None and a.ndim not in ndim:
        want = ndim[0] if len(ndim) == 1 else " or ".join(map(str, ndim))
        raise ValueError(f"{name} must have {want} dimension(s), got shape {a.shape}")
    if shape is not None and a.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {a.shape}")
    if a.size < min_size:
        raise ValueError(f"{name} must have at least {min_size} entries, got {a.size}")
    if finite and not np.all(np.isfinite(a)):
        raise ValueError(f"{name} must have finite entries")
    return a


def check_int(name: str, value, minimum: int | None = None, maximum: int | None = None) -> int:
    """Return ``value`` as ``int`` if it is an integer in [minimum, maximum]."""
    minimum, maximum = _bound("minimum", minimum), _bound("maximum", maximum)
    if minimum is not None and maximum is not None and minimum > maximum:
        raise ValueError(f"minimum ({minimum}) must not exceed maximum ({maximum}) for {name}")
    if type(value) is int:                          # the common case, fast
        pass
    elif isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        if isinstance(value, (float, np.floating)) and math.isfinite(value) and float(value).is_integer():
            value = int(value)
        elif isinstance(value, (float, np.floating, numbers.Real)) and not isinstance(value, bool):
            raise ValueError(f"{name} must be an integer, got {value!r}")
        else:
            raise ParameterTypeError(f"{name} must be an integer, got {value!r} ({_tname(value)})")
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
    low, high = _bound("low", low), _bound("high", high)
    if low is not None and high is not None and low > high:
        raise ValueError(f"low ({low}) must not exceed high ({high}) for {name}")
    if type(value) is float or type(value) is int:  # the common cases, fast
        v = float(value)
    else:
        if isinstance(value, (bool, np.bool_, str, bytes)) or (isinstance(value, np.ndarray) and value.ndim != 0):
            raise ParameterTypeError(f"{name} must be a real number, got {value!r} ({_tname(value)})")
        try:
            v = float(value)
        except (TypeError, ValueError):
            raise ParameterTypeError(f"{name} must be a real number, got {value!r} ({_tname(value)})") from None
    def interval():                                  # formatted only for an error message
        lo_br = "(" if (low_open or low is None) else "["
        hi_br = ")" if (high_open or high is None) else "]"
        return f"{lo_br}{'-inf' if low is None else _fmt(low)}, {'inf' if high is None else _fmt(high)}{hi_br}"
    if math.isnan(v):
        raise ValueError(f"{name} must be in {interval()}, got nan")
    if math.isinf(v) and not (allow_inf and v > 0 and high is None):
        raise ValueError(f"{name} must be finite and in {interval()}, got {v}")
    bad = False
    if low is not None:
        bad |= v <= low if low_open else v < low
    if high is not None:
        bad |= v >= high if high_open else v > high
    if bad:
        raise ValueError(f"{name} must be in {interval()}, got {_fmt(v) if isinstance(v, float) else v}")
    return v


def check_choice(name: str, value, choices) -> object:
    if isinstance(choices, (str, bytes, np.ndarray)) or not hasattr(choices, "__contains__") or \
            not hasattr(choices, "__iter__"):
        raise ParameterTypeError(f"choices must be a collection (list, tuple, set), got {_tname(choices)}")
    if len(choices) == 0:
        raise ValueError("choices must not be empty")
    try:
        ok = value in choices
    except TypeError:
        ok = False
    if not ok:
        raise ValueError(f"{name} must be one of {sorted(map(str, choices))}, got {value!r}")
    return value


def check_bool(name: str, value) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ParameterTypeError(f"{name} must be True or False, got {value!r} ({_tname(value)})")
    return bool(value)


def check_callable(name: str, value):
    """``value`` if it is callable (``ParameterTypeError`` naming the parameter otherwise)."""
    if not callable(value):
        raise ParameterTypeError(f"{name} must be callable, got {value!r} ({_tname(value)})")
    return value


def memory_budget_bytes() -> int:
    """The per-allocation memory budget: ``THEORYCHECK_MEMORY_GB`` GiB (default 4)."""
    raw = os.environ.get("THEORYCHECK_MEMORY_GB", "4")
    try:
        gb = float(raw)
    except ValueError:
        raise ValueError(f"THEORYCHECK_MEMORY_GB must be a number of GiB, got {raw!r}") from None
    if not (math.isfinite(gb) and gb > 0):
        raise ValueError(f"THEORYCHECK_MEMORY_GB must be a positive number of GiB, got {raw!r}")
    return int(gb * 2 ** 30)


def check_memory(name: str, value, n_bytes: float, what: str = "") -> None:
    """Refuse an allocation of ``n_bytes`` driven by parameter ``name`` (= ``value``) beyond the budget.

    >>> check_memory("n_samples", 10, 80.0)
    >>> check_memory("n_samples", 10 ** 12, 8e12, "the samples")
    Traceback (most recent call last):
    ...
    ValueError: n_samples = 1000000000000 needs about 7450.6 GiB for the samples, above the memory budget of 4 GiB (set THEORYCHECK_MEMORY_GB to raise it, or reduce n_samples)
    """
    budget = memory_budget_bytes()
    n_bytes = check_real("n_bytes", n_bytes, low=0.0, allow_inf=True)
    if n_bytes > budget:
        gib = n_bytes / 2 ** 30
        raise ValueError(f"{name} = {value} needs about {gib:.1f} GiB" + (f" for {what}" if what else "") +
                         f", above the memory budget of {budget / 2 ** 30:g} GiB (set THEORYCHECK_MEMORY_GB to raise "
                         f"it, or reduce {name})")


def check_finite_result(value, what: str, **inputs):
    """``value`` if every entry is finite; otherwise a ``ValueError`` naming the inputs that caused it."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ParameterTypeError(f"value ({what}) must be numeric, got {_tname(value)}") from None
    if not np.all(np.isfinite(arr)):
        args = ", ".join(f"{k}={v!r}" for k, v in inputs.items())
        raise ValueError(f"{what} is not finite for {args} (overflow or an undefined limit); use inputs of a smaller "
                         "magnitude")
    return value


def check_psd(name: str, mat, tol: float = 1e-10, batch: bool = False) -> np.ndarray:
    """Validate a finite, symmetric, positive semi-definite matrix (or a batch of them).

    Returns it as a float array. Symmetry is tested with a relative tolerance ``tol`` on the largest
    absolute entry ``s``, PSD-ness as "smallest eigenvalue ≥ −1e-8·max(1, s)" (a Cholesky factorisation of
    the shifted matrix; the eigenvalues only when it fails).

    >>> check_psd("K", [[1.0, 0.0], [0.0, 0.0]]).tolist()
    [[1.0, 0.0], [0.0, 0.0]]
    >>> check_psd("K", [[1.0, 2.0], [2.0, 1.0]])
    Traceback (most recent call last):
    ...
    ValueError: K must be positive semi-definite (smallest eigenvalue -1)
    """
    if mat is None or isinstance(mat, (str, bytes, bool)):
        raise ParameterTypeError(f"{name} must be a numeric matrix, got {_tname(mat)}")
    try:
        a = np.asarray(mat, dtype=float)
    except (TypeError, ValueError):
        raise ParameterTypeError(f"{name} must be a numeric matrix, got {type(mat).__name__}") from None
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
    shift = 1e-8 * scale
    try:            # smallest eigenvalue > −shift ⇔ a + shift·I is positive definite: one Cholesky (≈ 4× cheaper)
        np.linalg.cholesky(a + shift * np.eye(a.shape[-1]))
        return a
    except np.linalg.LinAlgError:
        pass
    eig = np.linalg.eigvalsh(a)      # the decision at the margin, and the eigenvalue the message names
    if np.min(eig) < -shift:
        raise ValueError(f"{name} must be positive semi-definite (smallest eigenvalue {np.min(eig):.3g})")
    return a


#: the comparison operators of an inequality, by their symbol
COMPARISONS = {"<": np.less, "<=": np.less_equal, ">": np.greater, ">=": np.greater_equal}


def check_comparison(lhs, op: str, rhs) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(holds, lhs, rhs)`` of ``lhs op rhs`` elementwise (``op`` in ``<, <=, >, >=``; broadcast, non-empty,
    errors name ``lhs``, ``rhs`` or ``op``).

    >>> check_comparison([1.0, 3.0], "<", 2.0)[0].tolist()
    [True, False]
    """
    check_choice("op", op, tuple(COMPARISONS))
    la, ra = check_array("lhs", lhs), check_array("rhs", rhs)
    try:
        a, b = np.broadcast_arrays(la, ra)
    except ValueError:
        raise ValueError(f"lhs and rhs must have broadcastable shapes, got {la.shape} and {ra.shape}") from None
    if a.size == 0:
        raise ValueError("lhs and rhs must not be empty (an inequality at no point checks nothing)")
    return COMPARISONS[op](a, b), a, b
