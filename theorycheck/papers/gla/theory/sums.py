r"""The moment sums of paper 000: the per-coordinate AR(1) variances :math:`s_i` and the scalar sums over the ages
:math:`k=n+1-i=1..n` of the prompt's tokens (weights :math:`p_i=\lambda^{n+1-i}`),

.. math::
   D_1=\sum_k(\lambda\gamma)^ks_{n+1-k},\ B=\sum_k\lambda^{2k}s_{n+1-k},\ N_0=\sum_k\lambda^{2k},\
   A_2=\sum_{i,j\le n}\lambda^{2n+2-i-j}\gamma^{|i-j|}s_{\min(i,j)},

by the two routes of :data:`ROUTES`: the closed forms generated from the SymPy derivation
(:mod:`theorycheck.papers.gla.derivations.gla_loss`, complete homogeneous symmetric polynomials of
:math:`\lambda^2,\lambda\gamma,\gamma^2,1`) and the direct O(n) sums, the reference route
(:data:`REFERENCE_ROUTE`, also where the closed forms are singular). :func:`scaled_sums` rescales them for range
safety; every error of :mod:`.errors` is built on it.

Validation happens once, in the public functions (:func:`ar1_variances`, :func:`moment_sums`, :func:`scaled_sums`);
:func:`variances`, :func:`sums_for`, :func:`scaled`, :func:`direct_sums` and :func:`closed_form_sums` are the one route
each for checked inputs, shared by the other modules of :mod:`theorycheck.papers.gla.theory`.

>>> s = moment_sums(1.0, 1.0, 2, 1.0, 0.0)
>>> (s.D1, s.B, s.A2, s.N0, s.s_q)
(2.0, 2.0, 4.0, 2.0, 1.0)
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import signal

from ..generated import gla_loss as gen
from .law import (check_gamma, check_lam, check_law, check_n, check_n_direct, check_variance, ensure_finite,
                  guard_n_memory)

__all__ = ["GLASums", "ar1_variances", "moment_sums", "CLOSED_FORM_GAP", "ROUTES", "REFERENCE_ROUTE"]

CLOSED_FORM_GAP = 0.02   # minimum pairwise gap of the bases (λ², λγ, γ², 1) for the closed forms


def ar1_variances(gamma, n, sigma_w2, sigma_e2) -> np.ndarray:
    r"""Per-coordinate variances :math:`s_0..s_{n+1}` of the AR(1) weights.

    :math:`s_0=\sigma_w^2`, :math:`s_i=\gamma^2 s_{i-1}+\sigma_e^2`.

    >>> ar1_variances(0.5, 2, 1.0, 0.75).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    gamma, n = check_gamma(gamma), check_n_direct(n)
    sigma_w2, sigma_e2 = check_variance("sigma_w2", sigma_w2), check_variance("sigma_e2", sigma_e2)
    return variances(gamma, n, sigma_w2, sigma_e2)


def variances(gamma, n, sigma_w2, sigma_e2) -> np.ndarray:
    """:func:`ar1_variances` for checked inputs (its memory guard already passed): the one route."""
    g2 = gamma * gamma
    s = np.empty(n + 2)
    s[0] = sigma_w2
    with np.errstate(over="ignore", invalid="ignore"):
        # s_i = γ² s_{i-1} + σ_e², in C (the same operations as the loop, bit for bit)
        s[1:] = signal.lfilter([1.0], [1.0, -g2], np.full(n + 1, sigma_e2), zi=[g2 * sigma_w2])[0]
    if np.isfinite(s).all():
        return s
    return ensure_finite(s, "the AR(1) variances", gamma=gamma, n=n, sigma_w2=sigma_w2, sigma_e2=sigma_e2)


@dataclass(frozen=True)
class GLASums:
    """The scalar sums :math:`D_1, B, A_2, N_0, s_{n+1}` (see the module docstring)."""

    D1: float
    B: float
    A2: float
    N0: float
    s_q: float
    method: str   # "closed form" | "direct sum" | "direct sum (scaled)"


def direct_sums(lam, gamma, n, sigma_w2, sigma_e2, shift=0) -> GLASums:
    r"""The O(n) finite sums (the reference route, :data:`REFERENCE_ROUTE`) for checked inputs, with the weights
    :math:`\lambda^{\text{age}-\text{shift}}`: ``shift=0`` gives the sums themselves, ``shift=1`` the sums divided by
    λ (D₁) and λ² (B, A₂, N₀) that :func:`scaled_sums` needs. Only the memory guard of ``n`` is applied."""
    s = variances(gamma, guard_n_memory(n), sigma_w2, sigma_e2)
    si = s[1:n + 1]
    age = np.arange(n, 0, -1, dtype=float)           # age of token i = n+1-i
    p = lam ** (age - shift) if shift else lam ** age
    D1 = float(np.sum(p * gamma ** age * si))
    B = float(np.sum(p * p * si))
    N0 = float(np.sum(p * p))
    # R_i = Σ_{j>i} p_j γ^{j-i}, computed right-to-left: R_i = γ (p_{i+1} + R_{i+1})
    prev = np.concatenate(([0.0], p[::-1][:-1]))      # p_{i+1} in reversed order
    R = signal.lfilter([gamma], [1.0, -gamma], prev)[::-1]
    A2 = B + 2.0 * float(np.sum(p * si * R))
    return GLASums(D1, B, A2, N0, float(s[n + 1]), "direct sum (scaled)" if shift else "direct sum")


def closed_form_sums(lam, gamma, n, sigma_w2, sigma_e2) -> GLASums | None:
    """The generated SymPy closed forms for checked inputs; None where they are not finite (overflow, or a base
    gap so small that the removable singularity shows)."""
    # Python floats throughout (checked inputs): an overflow is an inf or an OverflowError, never a NumPy warning
    try:
        vals = [float(gen.cf_D1(lam, gamma, n, sigma_w2, sigma_e2)), float(gen.cf_B(lam, gamma, n, sigma_w2, sigma_e2)),
                float(gen.cf_A2(lam, gamma, n, sigma_w2, sigma_e2)), float(gen.cf_N0(lam, gamma, n, sigma_w2, sigma_e2)),
                float(gen.cf_s_q(lam, gamma, n, sigma_w2, sigma_e2))]
    except (OverflowError, ZeroDivisionError):
        return None
    return GLASums(*vals, "closed form") if all(math.isfinite(v) for v in vals) else None


#: The routes to the moment sums (``method`` of :func:`moment_sums`): the generated closed forms and the direct O(n)
#: sums. The reference is the direct sum (the definition itself, valid for every λ, γ); the closed forms are tested
#: against it (``tests/test_gla.py``) and used, by ``"auto"``, away from their removable singularities.
ROUTES = {"closed form": closed_form_sums, "direct sum": direct_sums}
REFERENCE_ROUTE = "direct sum"
_METHODS = {"auto": None, "closed": "closed form", "direct": "direct sum", "closed form": "closed form",
            "direct sum": "direct sum"}


def base_gap(lam, gamma) -> float:
    """The smallest pairwise gap of the bases λ², λγ, γ², 1 of the closed forms."""
    q, b, g2 = lam * lam, lam * gamma, gamma * gamma
    return min(abs(q - b), abs(q - g2), abs(q - 1.0), abs(b - g2), abs(b - 1.0), abs(g2 - 1.0))


def moment_sums(lam, gamma, n, sigma_w2, sigma_e2, method: str = "auto") -> GLASums:
    r""":math:`D_1, B, A_2, N_0, s_{n+1}` for the AR(1) prompt of length ``n``.

    ``method`` names a route of :data:`ROUTES`: ``"closed"`` (``"closed form"``) the generated SymPy closed forms
    (complete homogeneous symmetric polynomials of :math:`\lambda^2,\lambda\gamma,\gamma^2,1`), ``"direct"``
    (``"direct sum"``, the reference) the O(n) finite sums; ``"auto"`` uses the closed forms only when all pairwise
    gaps of those bases exceed ``CLOSED_FORM_GAP`` (they have removable singularities at λ = γ, λ = 1, γ = 1). A
    closed form that is not finite falls back to the reference.

    >>> s = moment_sums(0.5, 0.8, 30, 1.0, 0.1, method="closed")
    >>> t = moment_sums(0.5, 0.8, 30, 1.0, 0.1, method="direct")
    >>> abs(s.A2 - t.A2) / t.A2 < 1e-12
    True
    """
    lam, gamma, n = check_lam(lam), check_gamma(gamma), check_n(n)
    sigma_w2, sigma_e2 = check_variance("sigma_w2", sigma_w2), check_variance("sigma_e2", sigma_e2)
    if method not in _METHODS:
        raise ValueError(f"method must be one of ['auto', 'closed', 'direct'] (or a route of ROUTES: {list(ROUTES)}), "
                         f"got {method!r}")
    route = _METHODS[method]
    if route == "closed form" and base_gap(lam, gamma) == 0:
        raise ValueError("closed forms are singular when two of lam^2, lam*gamma, gamma^2, 1 coincide")
    return sums_for(lam, gamma, n, sigma_w2, sigma_e2, route)


def sums_for(lam, gamma, n, sigma_w2, sigma_e2, route=None) -> GLASums:
    """:func:`moment_sums` for checked inputs (``route`` a key of :data:`ROUTES`, None = auto): the one route every
    error of :mod:`.errors` and :mod:`.flows` is built on."""
    if route is None:
        route = "closed form" if base_gap(lam, gamma) > CLOSED_FORM_GAP else REFERENCE_ROUTE
    if route != REFERENCE_ROUTE:
        S = ROUTES[route](lam, gamma, n, sigma_w2, sigma_e2)
        if S is not None:
            return S
    S = direct_sums(lam, gamma, n, sigma_w2, sigma_e2)
    if not (math.isfinite(S.D1) and math.isfinite(S.B) and math.isfinite(S.A2) and math.isfinite(S.N0)
            and math.isfinite(S.s_q)):
        ensure_finite([S.D1, S.B, S.A2, S.N0, S.s_q], "the moment sums", lam=lam, gamma=gamma, n=n, sigma_w2=sigma_w2,
                      sigma_e2=sigma_e2)
    return S


def scaled_sums(lam, gamma, n, sigma_w2, sigma_e2, noise):
    r"""Sums rescaled for range safety: returns ``(c, S, noise/c)``.

    Every error is homogeneous of degree 1 in the variances and every ratio is homogeneous of
    degree 0 in the weights :math:`p_i`, so we use variances divided by
    :math:`c=\max(\sigma_w^2,\sigma_e^2,\sigma^2)` and weights :math:`\lambda^{\text{age}-1}`
    (``S.D1`` = :math:`D_1/(c\lambda)`, ``S.B, S.A2, S.N0`` divided by :math:`c\lambda^2`, ``S.s_q``
    by c). Avoids underflow of :math:`\lambda^k` for tiny λ and overflow for huge variances.
    """
    return scaled(*check_law(lam, gamma, n, sigma_w2, sigma_e2, noise))


def scaled(lam, gamma, n, sigma_w2, sigma_e2, noise):
    """:func:`scaled_sums` for checked inputs."""
    c = max(sigma_w2, sigma_e2, noise)
    c = c if c > 0 else 1.0
    S = sums_for(lam, gamma, n, sigma_w2 / c, sigma_e2 / c)
    if S.method == "closed form" and lam > 1e-100:
        S = GLASums(S.D1 / lam, S.B / lam ** 2, S.A2 / lam ** 2, S.N0 / lam ** 2, S.s_q, S.method)
    else:
        S = direct_sums(lam, gamma, n, sigma_w2 / c, sigma_e2 / c, shift=1)
    return c, S, noise / c
