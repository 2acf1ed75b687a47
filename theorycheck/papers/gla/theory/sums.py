r"""The moment sums of paper 000: the per-coordinate AR(1) variances :math:`s_i` and the scalar sums over the ages
:math:`k=n+1-i=1..n` of the prompt's tokens (weights :math:`p_i=\lambda^{n+1-i}`),

.. math::
   D_1=\sum_k(\lambda\gamma)^ks_{n+1-k},\ B=\sum_k\lambda^{2k}s_{n+1-k},\ N_0=\sum_k\lambda^{2k},\
   A_2=\sum_{i,j\le n}\lambda^{2n+2-i-j}\gamma^{|i-j|}s_{\min(i,j)},

by two routes: the closed forms generated from the SymPy derivation
(:mod:`theorycheck.papers.gla.derivations.gla_loss`, complete homogeneous symmetric polynomials of
:math:`\lambda^2,\lambda\gamma,\gamma^2,1`) and the direct O(n) sums (the reference where the closed forms are
singular). :func:`scaled_sums` rescales them for range safety; every error of :mod:`.errors` is built on it.

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
                  guard_n_memory, is_plain_law)

__all__ = ["GLASums", "ar1_variances", "moment_sums", "CLOSED_FORM_GAP"]

CLOSED_FORM_GAP = 0.02   # minimum pairwise gap of the bases (λ², λγ, γ², 1) for the closed forms


def ar1_variances(gamma, n, sigma_w2, sigma_e2) -> np.ndarray:
    r"""Per-coordinate variances :math:`s_0..s_{n+1}` of the AR(1) weights.

    :math:`s_0=\sigma_w^2`, :math:`s_i=\gamma^2 s_{i-1}+\sigma_e^2`.

    >>> ar1_variances(0.5, 2, 1.0, 0.75).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    if is_plain_law(1.0, gamma, n, sigma_w2, sigma_e2):
        gamma, sigma_w2, sigma_e2 = float(gamma), float(sigma_w2), float(sigma_e2)
        guard_n_memory(n)
    else:
        gamma = check_gamma(gamma)
        n = check_n_direct(n)
        sigma_w2, sigma_e2 = check_variance("sigma_w2", sigma_w2), check_variance("sigma_e2", sigma_e2)
    return _ar1_variances(gamma, n, sigma_w2, sigma_e2)


def _ar1_variances(gamma, n, sigma_w2, sigma_e2) -> np.ndarray:
    """:func:`ar1_variances` for checked inputs (its memory guard already passed): no checks."""
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
    method: str   # "closed form" | "direct sum"


def _direct(lam, gamma, n, sigma_w2, sigma_e2) -> GLASums:
    """The O(n) sums for checked inputs (no checks but the memory guard of ``n``)."""
    s = _ar1_variances(gamma, guard_n_memory(n), sigma_w2, sigma_e2)
    si = s[1:n + 1]
    age = np.arange(n, 0, -1, dtype=float)           # age of token i = n+1-i
    p = lam ** age
    D1 = float(np.sum(p * gamma ** age * si))
    B = float(np.sum(p * p * si))
    N0 = float(np.sum(p * p))
    # R_i = Σ_{j>i} p_j γ^{j-i}, computed right-to-left: R_i = γ (p_{i+1} + R_{i+1})
    prev = np.concatenate(([0.0], p[::-1][:-1]))      # p_{i+1} in reversed order
    R = signal.lfilter([gamma], [1.0, -gamma], prev)[::-1]
    A2 = B + 2.0 * float(np.sum(p * si * R))
    return GLASums(D1, B, A2, N0, float(s[n + 1]), "direct sum")


def moment_sums(lam, gamma, n, sigma_w2, sigma_e2, method: str = "auto") -> GLASums:
    r""":math:`D_1, B, A_2, N_0, s_{n+1}` for the AR(1) prompt of length ``n``.

    ``method="closed"`` uses the generated SymPy closed forms (complete homogeneous symmetric
    polynomials of :math:`\lambda^2,\lambda\gamma,\gamma^2,1`), ``"direct"`` the O(n) finite sums;
    ``"auto"`` uses the closed forms only when all pairwise gaps of those bases exceed
    ``CLOSED_FORM_GAP`` (they have removable singularities at λ = γ, λ = 1, γ = 1).

    >>> s = moment_sums(0.5, 0.8, 30, 1.0, 0.1, method="closed")
    >>> t = moment_sums(0.5, 0.8, 30, 1.0, 0.1, method="direct")
    >>> abs(s.A2 - t.A2) / t.A2 < 1e-12
    True
    """
    if is_plain_law(lam, gamma, n, sigma_w2, sigma_e2):
        lam, gamma, sigma_w2, sigma_e2 = float(lam), float(gamma), float(sigma_w2), float(sigma_e2)
    else:
        lam, gamma = check_lam(lam), check_gamma(gamma)
        n = check_n(n)
        sigma_w2, sigma_e2 = check_variance("sigma_w2", sigma_w2), check_variance("sigma_e2", sigma_e2)
    if method not in ("auto", "closed", "direct"):
        raise ValueError(f"method must be one of ['auto', 'closed', 'direct'], got {method!r}")
    q, b, g2 = lam * lam, lam * gamma, gamma * gamma          # the bases λ², λγ, γ², 1: their smallest pairwise gap
    gap = min(abs(q - b), abs(q - g2), abs(q - 1.0), abs(b - g2), abs(b - 1.0), abs(g2 - 1.0))
    use_closed = method == "closed" or (method == "auto" and gap > CLOSED_FORM_GAP)
    if method == "closed" and gap == 0:
        raise ValueError("closed forms are singular when two of lam^2, lam*gamma, gamma^2, 1 coincide")
    if use_closed:
        # Python floats throughout (checked inputs): an overflow is an inf or an OverflowError, never a NumPy warning
        try:
            vals = [float(gen.cf_D1(lam, gamma, n, sigma_w2, sigma_e2)),
                    float(gen.cf_B(lam, gamma, n, sigma_w2, sigma_e2)),
                    float(gen.cf_A2(lam, gamma, n, sigma_w2, sigma_e2)),
                    float(gen.cf_N0(lam, gamma, n, sigma_w2, sigma_e2)),
                    float(gen.cf_s_q(lam, gamma, n, sigma_w2, sigma_e2))]
        except (OverflowError, ZeroDivisionError):
            vals = [math.nan]
        if all(math.isfinite(v) for v in vals):
            return GLASums(*vals, "closed form")
    S = _direct(lam, gamma, n, sigma_w2, sigma_e2)
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
    if is_plain_law(lam, gamma, n, sigma_w2, sigma_e2, noise):
        lam, gamma = float(lam), float(gamma)
        sigma_w2, sigma_e2, noise = float(sigma_w2), float(sigma_e2), float(noise)
    else:
        lam, gamma, n, sigma_w2, sigma_e2, noise = check_law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    c = max(sigma_w2, sigma_e2, noise)
    c = c if c > 0 else 1.0
    S = moment_sums(lam, gamma, n, sigma_w2 / c, sigma_e2 / c)
    if S.method == "closed form" and lam > 1e-100:
        S = GLASums(S.D1 / lam, S.B / lam ** 2, S.A2 / lam ** 2, S.N0 / lam ** 2, S.s_q, S.method)
    else:
        s = _ar1_variances(gamma, guard_n_memory(n), sigma_w2 / c, sigma_e2 / c)
        si = s[1:n + 1]
        age = np.arange(n, 0, -1, dtype=float)
        p = lam ** (age - 1)
        prev = np.concatenate(([0.0], p[::-1][:-1]))
        R = signal.lfilter([gamma], [1.0, -gamma], prev)[::-1]
        B = float(np.sum(p * p * si))
        S = GLASums(float(np.sum(p * gamma ** age * si)), B, B + 2.0 * float(np.sum(p * si * R)),
                    float(np.sum(p * p)), float(s[n + 1]), "direct sum (scaled)")
    return c, S, noise / c

