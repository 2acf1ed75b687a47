r"""Exact minimisation of the population loss of the AR(s) attention over its weights (paper 001): the global optima,
the other stationary points, and the two parity branches of the optimum.

Only the last row :math:`v` of :math:`W_V` and the first s columns :math:`W` of :math:`W_{QK}` enter the prediction
(C3), so a point is the vector :math:`x=(v, \mathrm{vec}\,W)` of :math:`(s+1)+(s+1)s` numbers
(:func:`weights_of`, :func:`point_of`). The effective coefficients are bilinear in :math:`x`,
:math:`C_{klj}=v_kW_{lj}+v_lW_{kj}` (:math:`C_{kkj}=v_kW_{kj}`), and the halved loss is the quadratic
:math:`L=\tfrac12(Ey_T^2-2c^\top b+c^\top\Gamma c)` in them with the exact feature moments of
:func:`~.stationarity.stationarity_moments` (``gram=True``): :func:`loss_and_gradient` gives L and its exact gradient
:math:`J^\top(\Gamma c-b)`, :func:`hessian` its exact Hessian :math:`J^\top\Gamma J+\sum_fr_f\nabla^2c_f`.
:func:`minimise` runs L-BFGS (SciPy) from random starts, optionally inside the Lemma 4.1 support of one parity branch
(:func:`~.support.support_masks`), and certifies each end point: gradient norm and the smallest Hessian eigenvalue
after removing the directions of the scaling symmetry :math:`(v, W)\to(cv, W/c)`.

>>> from theorycheck.models.dynamics import DiagonalLDSPrior
>>> from .stationarity import stationarity_moments
>>> m = stationarity_moments(8, 1, DiagonalLDSPrior(1, 0.8, 1.0, 0.5, 0.5), gram=True)
>>> best = min(minimise(m, 1, 4, np.random.default_rng(0)), key=lambda p: p["loss"])
>>> bool(best["gradient_norm"] < 1e-8), best["branch"] in ("theorem", "swapped")
(True, True)
"""
from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from ....validate import check_array, check_int, check_real
from .gd import check_moments
from .support import support_masks

__all__ = ["weights_of", "point_of", "loss_and_gradient", "hessian", "minimise", "polish", "adam_on_exact_loss",
           "theorem_branch_shares"]


def weights_of(x, s: int) -> tuple[np.ndarray, np.ndarray]:
    """The weights ``(W_QK, W_V)`` of the point ``x = (v, vec W)`` (zeros in the entries that do not enter the
    prediction).

    >>> W, V = weights_of(np.arange(1.0, 5.0), 1); W.tolist(), V.tolist()
    ([[3.0, 0.0], [4.0, 0.0]], [[0.0, 0.0], [1.0, 2.0]])
    """
    s = check_int("s", s, minimum=1, maximum=64)
    x = check_array("x", x, ndim=1, shape=((s + 1) * (s + 1),))
    return _weights(x, s)


def _weights(x, s):
    W, V = np.zeros((s + 1, s + 1)), np.zeros((s + 1, s + 1))
    V[s] = x[:s + 1]
    W[:, :s] = x[s + 1:].reshape(s + 1, s)
    return W, V


def point_of(W_QK, W_V) -> np.ndarray:
    """The point ``x = (v, vec W[:, :s])`` of weights (the entries that do not enter the prediction dropped)."""
    W_QK = check_array("W_QK", W_QK, ndim=2)
    W_V = check_array("W_V", W_V, ndim=2, shape=W_QK.shape)
    if W_QK.shape[0] != W_QK.shape[1] or W_QK.shape[0] < 2:
        raise ValueError(f"W_QK must be a square (s+1, s+1) matrix with s >= 1, got shape {W_QK.shape}")
    s = W_QK.shape[0] - 1
    return np.concatenate([W_V[s], W_QK[:, :s].ravel()])


def _pairs(feats, s):
    """For every feature f = (k, l, j) (1-based) the pairs (index of v_a, index of W_bj) with C_f = Σ v_a W_bj."""
    rows, va, wb = [], [], []
    for f, (k, l, j) in enumerate(feats):
        for a, b in ([(k, l), (l, k)] if k < l else [(k, k)]):
            rows.append(f)
            va.append(a - 1)
            wb.append(s + 1 + (b - 1) * s + (j - 1))
    return np.array(rows), np.array(va), np.array(wb)


def _terms(moments, s):
    feats, gram, b, Eyy = check_moments(moments, s)
    return _pairs(feats, s), len(feats), np.asarray(gram, float), np.asarray(b, float), float(Eyy)


def _loss_grad(x, pairs, nf, gram, b, Eyy):
    rows, va, wb = pairs
    c = np.zeros(nf)
    np.add.at(c, rows, x[va] * x[wb])
    r = gram @ c - b
    g = np.zeros_like(x)
    np.add.at(g, va, r[rows] * x[wb])
    np.add.at(g, wb, r[rows] * x[va])
    return float(0.5 * (Eyy - 2 * c @ b + c @ gram @ c)), g


def loss_and_gradient(x, s: int, moments: dict) -> tuple[float, np.ndarray]:
    """The exact halved population loss at the point ``x`` and its gradient (see the module docstring)."""
    s = check_int("s", s, minimum=1, maximum=64)
    x = check_array("x", x, ndim=1, shape=((s + 1) * (s + 1),))
    pairs, nf, gram, b, Eyy = _terms(moments, s)
    return _loss_grad(x, pairs, nf, gram, b, Eyy)


def _hessian(x, pairs, nf, gram, b):
    rows, va, wb = pairs
    n = x.size
    J = np.zeros((nf, n))
    np.add.at(J, (rows, va), x[wb])
    np.add.at(J, (rows, wb), x[va])
    c = np.zeros(nf)
    np.add.at(c, rows, x[va] * x[wb])
    r = gram @ c - b
    H = J.T @ gram @ J
    np.add.at(H, (va, wb), r[rows])
    np.add.at(H, (wb, va), r[rows])
    return H


def hessian(x, s: int, moments: dict) -> np.ndarray:
    """The exact Hessian of :func:`loss_and_gradient` at ``x``."""
    s = check_int("s", s, minimum=1, maximum=64)
    x = check_array("x", x, ndim=1, shape=((s + 1) * (s + 1),))
    pairs, nf, gram, b, _ = _terms(moments, s)
    return _hessian(x, pairs, nf, gram, b)


def _certify(x, s, pairs, nf, gram, b, Eyy, free):
    """Loss, gradient norm and the smallest Hessian eigenvalue on the free coordinates orthogonal to the scaling
    direction (v, −W) of the symmetry (v, W) → (cv, W/c)."""
    L, g = _loss_grad(x, pairs, nf, gram, b, Eyy)
    H = _hessian(x, pairs, nf, gram, b)[np.ix_(free, free)]
    u = np.concatenate([x[:s + 1], -x[s + 1:]])[free]
    basis = np.linalg.svd(np.eye(free.size) - np.outer(u, u) / max(u @ u, 1e-300))[0][:, :free.size - 1]
    ev = np.linalg.eigvalsh(basis.T @ H @ basis) if free.size > 1 else np.zeros(1)
    return L, float(np.linalg.norm(g[free])), float(ev[0])


def minimise(moments: dict, s: int, starts: int, rng: np.random.Generator, k0_parity: int | None = None,
             init_scale: float = 0.5) -> list[dict]:
    r"""L-BFGS (tolerances at rounding) from ``starts`` random points :math:`x_0\sim N(0,\text{init\_scale}^2)`;
    ``k0_parity`` (0 or 1) restricts the search to the Lemma 4.1 support of that parity branch
    (:func:`~.support.support_masks`; ``None``: all loss-relevant weights). Returns one dict per start:
    ``loss``, ``x``, ``W_QK``, ``W_V``, ``gradient_norm``, ``min_hessian`` (the smallest eigenvalue of the Hessian
    on the searched coordinates, the scaling direction removed), ``branch`` (s = 1: :func:`theorem_branch_shares`).
    """
    s = check_int("s", s, minimum=1, maximum=64)
    starts = check_int("starts", starts, minimum=1, maximum=10_000)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    init_scale = check_real("init_scale", init_scale, 0.0, 100.0, low_open=True)
    pairs, nf, gram, b, Eyy = _terms(moments, s)
    n = (s + 1) * (s + 1)
    if k0_parity is None:
        free = np.arange(n)
    else:
        mq, mv = support_masks(s, check_int("k0_parity", k0_parity, minimum=0, maximum=1))
        free = np.nonzero(np.concatenate([mv[s], mq[:, :s].ravel()]))[0]
    out = []
    for _ in range(starts):
        y0 = rng.standard_normal(free.size) * init_scale

        def fg(y):
            x = np.zeros(n)
            x[free] = y
            L, g = _loss_grad(x, pairs, nf, gram, b, Eyy)
            return L, g[free]
        res = minimize(fg, y0, jac=True, method="L-BFGS-B",
                       options={"maxiter": 20_000, "ftol": 1e-16, "gtol": 1e-13, "maxcor": 30})
        x = np.zeros(n)
        x[free] = res.x
        L, gn, hmin = _certify(x, s, pairs, nf, gram, b, Eyy, free)
        W, V = _weights(x, s)
        out.append({"loss": L, "x": x, "W_QK": W, "W_V": V, "gradient_norm": gn, "min_hessian": hmin,
                    "branch": _branch(W, V) if s == 1 else None})
    return out


def polish(moments: dict, s: int, x0) -> dict:
    r"""L-BFGS on the exact loss from the point ``x0`` (e.g. trained weights, :func:`point_of`), certified as in
    :func:`minimise`: ``loss``, ``x``, ``W_QK``, ``W_V``, ``gradient_norm``, ``min_hessian``."""
    s = check_int("s", s, minimum=1, maximum=64)
    x0 = check_array("x0", x0, ndim=1, shape=((s + 1) * (s + 1),))
    pairs, nf, gram, b, Eyy = _terms(moments, s)
    res = minimize(lambda x: _loss_grad(x, pairs, nf, gram, b, Eyy), x0, jac=True, method="L-BFGS-B",
                   options={"maxiter": 20_000, "ftol": 1e-16, "gtol": 1e-13, "maxcor": 30})
    free = np.arange(x0.size)
    L, gn, hmin = _certify(res.x, s, pairs, nf, gram, b, Eyy, free)
    W, V = _weights(res.x, s)
    return {"loss": L, "x": res.x, "W_QK": W, "W_V": V, "gradient_norm": gn, "min_hessian": hmin}


def adam_on_exact_loss(moments: dict, s: int, x0, lr: float, steps: int, warmup: float = 0.05) -> np.ndarray:
    r"""Adam (β = 0.9, 0.999, ε = 1e-8; no weight decay) on the *exact* population loss from ``x0``, with a linear
    warm-up over the first ``warmup`` share of the steps and cosine decay to 0 (the schedule of C8): the gradient
    route without minibatch noise. Returns the end point."""
    s = check_int("s", s, minimum=1, maximum=64)
    x = check_array("x0", x0, ndim=1, shape=((s + 1) * (s + 1),)).copy()
    lr = check_real("lr", lr, 0.0, 10.0, low_open=True)
    steps = check_int("steps", steps, minimum=2, maximum=1_000_000)
    pairs, nf, gram, b, Eyy = _terms(moments, s)
    m1, m2 = np.zeros_like(x), np.zeros_like(x)
    warm = max(1, int(check_real("warmup", warmup, 0.0, 1.0) * steps))
    for t in range(1, steps + 1):
        g = _loss_grad(x, pairs, nf, gram, b, Eyy)[1]
        rate = t / warm if t <= warm else 0.5 * (1 + np.cos(np.pi * (t - warm) / max(1, steps - warm)))
        m1 = 0.9 * m1 + 0.1 * g
        m2 = 0.999 * m2 + 0.001 * g * g
        x = x - lr * rate * (m1 / (1 - 0.9 ** t)) / (np.sqrt(m2 / (1 - 0.999 ** t)) + 1e-8)
    return x


def _branch(W, V) -> str:
    shares = _shares(W, V)
    return "theorem" if shares[0] >= shares[1] else "swapped"


def _shares(W, V):
    t, w = abs(V[1, 1] * W[0, 0]), abs(V[1, 0] * W[1, 0])      # v₂W₁₁ (Theorem 4.1) and v₁W₂₁ (swapped)
    tot = max(t + w, 1e-300)
    return t / tot, w / tot


def theorem_branch_shares(W_QK, W_V) -> tuple[float, float]:
    r"""For AR(1) weights, the shares of :math:`C_{12}=v_2W_{11}+v_1W_{21}` carried by the Theorem 4.1 branch
    (:math:`|v_2W_{11}|`) and by the swapped branch (:math:`|v_1W_{21}|`), as fractions of their sum. The two global
    optima are :math:`v_1=W_{21}=0` (Theorem 4.1, shares (1, 0)) and :math:`v_2=W_{11}=0` (swapped, (0, 1)).

    >>> theorem_branch_shares(np.array([[2.0, 0], [0, 0]]), np.array([[0, 0], [0, 1.5]]))
    (1.0, 0.0)
    """
    W_QK = check_array("W_QK", W_QK, ndim=2, shape=(2, 2))
    W_V = check_array("W_V", W_V, ndim=2, shape=(2, 2))
    return tuple(float(v) for v in _shares(W_QK, W_V))
