r"""The parity structure of Lemma 4.1 and the AR(s) approximation of the Kalman filter (paper 001).

Under the central symmetry of the prior (:math:`A` and :math:`-A` equally likely) the law of :math:`(y_t)` is
invariant under :math:`y_t\mapsto(-1)^ty_t`, which forces the entries :func:`parity_zero_pattern` of the
stationarity right-hand side to zero; the weights supported on :func:`predicted_support` respect it, and
:func:`support_jaccard` / :func:`offpattern_energy` measure how far trained weights are from that class.
:func:`ar_gaps` and :func:`decay_exponents`: the excess MSE of the oracle AR(s) predictors over the Kalman filter and
its decay rate in s.

>>> parity_zero_pattern(1)[0].astype(int).tolist()
[[1, 0], [0, 1]]
"""
from __future__ import annotations

import math

import numpy as np

from ....models.attention import check_weights, effective_coefficients
from ....models.dynamics import LDSBatch, check_systems
from ....models.filters import kalman_one_step_mse, oracle_ar_mse
from ....validate import ParameterTypeError, check_array, check_int, check_real

__all__ = ["parity_zero_pattern", "predicted_support", "support_masks", "structured_weights", "jaccard_distance", "support_jaccard", "offpattern_energy",
           "ar_gaps", "decay_exponents"]


def parity_zero_pattern(s: int) -> np.ndarray:
    r"""Entries of the stationarity right-hand side :math:`R_{klj}=E[G_{kl}q_jy_T]` forced to zero
    by the central symmetry (shape (s, s+1, s+1), index ``[j-1, k-1, l-1]``, 1-based k, l, j).

    Under :math:`y_t\mapsto(-1)^ty_t`: :math:`G_{kl}\mapsto(-1)^{k+l}G_{kl}`,
    :math:`q_j=y_{T-s+j-1}\mapsto(-1)^{T-s+j-1}q_j`, :math:`y_T\mapsto(-1)^Ty_T`, so
    :math:`R_{klj}=(-1)^{k+l+j+s+1}R_{klj}` and :math:`R_{klj}=0` whenever :math:`k+l+j+s` is even:
    the checkerboard :math:`B_0` (zeros where k + l even) when s + j is even, :math:`B_1` (zeros
    where k + l odd) when s + j is odd.

    >>> parity_zero_pattern(1)[0].astype(int)
    array([[1, 0],
           [0, 1]])
    """
    s = check_int("s", s, minimum=1, maximum=64)
    k = np.arange(1, s + 2)
    j = np.arange(1, s + 1)
    return ((k[None, :, None] + k[None, None, :] + j[:, None, None] + s) % 2) == 0


def predicted_support(s: int, k0_parity: int | None = None):
    r"""Predicted support of the loss-relevant weights for the parity-structured stationary points:
    :math:`v` (last row of :math:`W_V`) supported on indices :math:`k\equiv k_0` (mod 2) and
    :math:`W_{QK}[:, :s]` on :math:`\{(l,j): l+j+k_0+s \text{ odd}\}` (1-based). ``k0_parity``
    defaults to the parity of :math:`s+1` (the Theorem 4.1 choice :math:`v=e_{s+1}`).
    Returns ``(support_v (s+1,), support_W (s+1, s))`` booleans.

    >>> sv, sw = predicted_support(1); sv.astype(int), sw.astype(int).ravel()
    (array([0, 1]), array([1, 0]))
    """
    s = check_int("s", s, minimum=1, maximum=64)
    k0 = (s + 1) % 2 if k0_parity is None else check_int("k0_parity", k0_parity, minimum=0, maximum=1)
    k = np.arange(1, s + 2)
    j = np.arange(1, s + 1)
    sv = (k % 2) == k0
    sw = ((k[:, None] + j[None, :] + k0 + s) % 2) == 1
    return sv, sw


def support_masks(s: int, k0_parity: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    r"""Boolean masks ``(mask_QK, mask_V)`` of shape (s+1, s+1) of the Lemma 4.1 support (:func:`predicted_support`,
    parity branch ``k0_parity``): the first s columns of :math:`W_{QK}` and the last row of :math:`W_V`; every other
    entry is outside the support (it does not enter the prediction).

    >>> mq, mv = support_masks(1); mq.astype(int).tolist(), mv.astype(int).tolist()
    ([[1, 0], [0, 0]], [[0, 0], [0, 1]])
    """
    sv, sw = predicted_support(s, k0_parity)
    s = sv.size - 1
    mq = np.zeros((s + 1, s + 1), bool)
    mq[:, :s] = sw
    mv = np.zeros((s + 1, s + 1), bool)
    mv[s] = sv
    return mq, mv


def structured_weights(rng: np.random.Generator, s: int, k0_parity: int | None = None):
    r"""Random weights on the Lemma 4.1 support (:func:`support_masks`): standard normal entries of
    :math:`W_{QK}[:, :s]` and of the last row of :math:`W_V` on the support (drawn in this order, the whole block
    then masked), zero elsewhere. Returns ``(W_QK, W_V)``.

    >>> W, V = structured_weights(np.random.default_rng(0), 2)
    >>> bool(np.all(W[~support_masks(2)[0]] == 0) and np.all(V[~support_masks(2)[1]] == 0))
    True
    """
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    sv, sw = predicted_support(s, k0_parity)
    s = sv.size - 1
    W, V = np.zeros((s + 1, s + 1)), np.zeros((s + 1, s + 1))
    W[:, :s] = rng.standard_normal((s + 1, s)) * sw
    V[s] = rng.standard_normal(s + 1) * sv
    return W, V


def jaccard_distance(a, b) -> float:
    """:math:`1-|a\\cap b|/|a\\cup b|` of two boolean supports (0 if both are empty).

    >>> jaccard_distance([True, False, True], [True, True, False])
    0.6666666666666667
    """
    a = np.asarray(a, dtype=bool).ravel()
    b = np.asarray(b, dtype=bool).ravel()
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same size, got {a.size} and {b.size}")
    u = np.sum(a | b)
    return 0.0 if u == 0 else float(1 - np.sum(a & b) / u)


def support_jaccard(W_QK, W_V, threshold: float) -> dict:
    r"""Jaccard distance between the learned support of the loss-relevant weights (:math:`v` = last
    row of :math:`W_V`, :math:`W_{QK}[:, :s]`; an entry is in the support when its modulus exceeds
    ``threshold`` times the largest modulus of its block) and the Lemma 4.1 support
    (:func:`predicted_support`), the smaller over the two parity branches :math:`k_0`.

    >>> sv, sw = predicted_support(2); W = np.zeros((3, 3)); W[:, :2] = sw; V = np.zeros((3, 3)); V[2] = sv
    >>> support_jaccard(W, V, 0.1)["distance"]
    0.0
    """
    W_QK, W_V, s = check_weights(W_QK, W_V)
    threshold = check_real("threshold", threshold, 0.0, 1.0, low_open=True, high_open=True)
    v, W = np.abs(W_V[s]), np.abs(W_QK[:, :s])
    learned = np.concatenate([v > threshold * v.max(), (W > threshold * W.max()).ravel()])
    best = None
    for k0 in (0, 1):
        sv, sw = predicted_support(s, k0)
        jd = jaccard_distance(learned, np.concatenate([sv, sw.ravel()]))
        if best is None or jd < best["distance"]:
            best = {"distance": jd, "k0_parity": k0}
    return best


def offpattern_energy(W_QK, W_V) -> float:
    r"""Share :math:`\sum_{\rm zeros}C^2/\sum C^2` of the effective coefficients on the entries that
    the parity structure forces to zero (:func:`parity_zero_pattern`) — a threshold-free,
    loss-relevant measure of the distance from the Lemma 4.1 class."""
    C = effective_coefficients(W_QK, W_V)
    s = C.shape[2]
    z = np.transpose(parity_zero_pattern(s), (1, 2, 0))          # [k, l, j]
    iu = np.triu(np.ones((s + 1, s + 1), bool))[:, :, None] & np.ones(s, bool)[None, None, :]
    tot = float(np.sum(C[iu] ** 2))
    return 0.0 if tot == 0 else float(np.sum(C[iu & z] ** 2) / tot)


def ar_gaps(systems: LDSBatch, T: int, s_values) -> tuple[np.ndarray, np.ndarray]:
    r"""Kalman MSE per system (B,) and the gaps :math:`\mathrm{MSE}_{AR(s)}-\mathrm{MSE}_{KF}` of the
    oracle AR(s) predictors (B, len(s_values)), exact from the autocovariance (not halved)."""
    systems = check_systems(systems)
    T = check_int("T", T, minimum=2, maximum=400)
    if isinstance(s_values, (str, bytes)) or not hasattr(s_values, "__iter__"):
        raise ParameterTypeError(f"s_values must be a list of windows, got {s_values!r:.40}")
    s_values = [check_int("s_values entry", x, minimum=1, maximum=T - 1) for x in s_values]
    if not s_values:
        raise ValueError("s_values must not be empty")
    kf = kalman_one_step_mse(systems, T)
    gaps = np.stack([oracle_ar_mse(systems, T, int(s)) - kf for s in s_values], axis=1)
    return kf, gaps


def decay_exponents(gaps, s_values, rho, kf, rel_floor: float = 1e-10, min_points: int = 4) -> np.ndarray:
    r"""Per system, the slope of :math:`\log\mathrm{gap}(s)` against s (least squares over the s whose
    gap exceeds ``rel_floor`` times the Kalman MSE, at least ``min_points`` of them) divided by
    :math:`2\log\rho`: the decay exponent :math:`\kappa` with :math:`\mathrm{gap}\propto\rho^{2\kappa s}`
    (:math:`\kappa=1`: exactly the Tsiamis–Pappas rate; NaN where too few points are above the floor)."""
    gaps = check_array("gaps", gaps, ndim=2)
    sv = check_array("s_values", s_values, ndim=1)
    rho, kf = check_array("rho", rho, ndim=1), check_array("kf", kf, ndim=1)
    rel_floor = check_real("rel_floor", rel_floor, 0.0, 1.0)
    if gaps.ndim != 2 or gaps.shape[1] != sv.size or rho.shape != (gaps.shape[0],) or kf.shape != rho.shape:
        raise ValueError(f"gaps must be (B, len(s_values)) and rho, kf of length B; got {gaps.shape}, {sv.shape}, "
                         f"{rho.shape}, {kf.shape}")
    min_points = check_int("min_points", min_points, minimum=2, maximum=max(2, sv.size))
    out = np.full(gaps.shape[0], np.nan)
    for b in range(gaps.shape[0]):
        m = gaps[b] > rel_floor * kf[b]
        if m.sum() >= min_points and 0 < rho[b] < 1:
            slope = np.polyfit(sv[m], np.log(gaps[b, m]), 1)[0]
            out[b] = slope / (2 * math.log(rho[b]))
    return out
