r"""One gradient-descent step and the exact population loss of the AR(s) attention (paper 001).

A forward pass of the layer at the weights :func:`gd_step_weights` is one step of *standard* gradient descent of
size η from :math:`w_0=0` on :math:`L_{AR(s)}` (:func:`ar_gd_step_prediction`; in-context least squares:
:func:`ar_least_squares_predict`). The population halved loss of any weights is a quadratic in their effective
coefficients :math:`C_{klj}` (C3) with the exact feature moments of
:func:`~theorycheck.papers.lds.theory.stationarity.stationarity_moments` (``gram=True``): :func:`exact_halved_loss`,
:func:`exact_loss_gradient`, the best GD step :func:`best_gd_step`; :func:`coefficient_inertia` tells whether given
coefficients are realisable by a layer (at most one eigenvalue of each sign per query index).

>>> W, V = gd_step_weights(1, 0.5)
>>> W.tolist(), V.tolist()
([[0.5, 0.0], [0.0, 0.0]], [[0.0, 0.0], [0.0, 1.0]])
"""
from __future__ import annotations

import numpy as np

from ....models.attention import check_series, check_weights, effective_coefficients, gram_query
from ....validate import ParameterTypeError, check_array, check_finite_result, check_int, check_real

__all__ = ["ar_gd_step_prediction", "ar_least_squares_predict", "feature_vector", "exact_halved_loss",
           "exact_loss_gradient", "gd_step_weights", "best_gd_step", "coefficient_inertia"]


def ar_gd_step_prediction(Y, s: int, eta: float) -> np.ndarray:
    r"""Prediction :math:`w_1^\top\bar y_{T-s}` after one GD step of size ``eta`` from
    :math:`w_0=0` on :math:`L_{AR(s)}(w)=\frac1{2(T-s-1)}\sum_{t=1}^{T-s-1}(y_{t+s}-w^\top\bar y_t)^2`.
    """
    s = check_int("s", s, minimum=1, maximum=10_000)
    Y = check_series(Y, s)
    eta = check_real("eta", eta)
    G, q = gram_query(Y, s)
    grad0 = -G[:, :s, s]                      # ∇L(0) = -(1/n) Σ ȳ_t y_{t+s}
    with np.errstate(over="ignore", invalid="ignore"):
        out = np.einsum("bi,bi->b", -eta * grad0, q[:, :s])
    return check_finite_result(out, "the one-step GD prediction", eta=eta, s=s)


def ar_least_squares_predict(Y, s: int, ridge: float = 0.0) -> np.ndarray:
    r"""In-context AR(s) least squares: :math:`\hat w=\arg\min L_{AR(s)}(w)` (+ ``ridge``·|w|²/2)
    on :math:`y_1..y_{T-1}`, prediction :math:`\hat w^\top\bar y_{T-s}`."""
    s = check_int("s", s, minimum=1, maximum=10_000)
    Y = check_series(Y, s)
    ridge = check_real("ridge", ridge, 0.0, 1e150)
    G, q = gram_query(Y, s)
    H = G[:, :s, :s] + ridge * np.eye(s)
    b = G[:, :s, s]
    w = np.linalg.solve(H + 1e-12 * np.eye(s), b[..., None])[..., 0]
    return np.einsum("bi,bi->b", w, q[:, :s])


def feature_vector(C: np.ndarray, features) -> np.ndarray:
    """The effective coefficients ``C`` (from :func:`effective_coefficients`) in the order of the
    feature list of :func:`stationarity_moments` (1-based ``(k, l, j)``, k ≤ l)."""
    C = check_array("C", C)
    if C.ndim != 3 or C.shape[0] != C.shape[1] or C.shape[2] != C.shape[0] - 1 or C.shape[2] < 1:
        raise ValueError(f"C must have shape (s+1, s+1, s), got {C.shape}")
    return _in_feature_order(C, _check_features(features, C.shape[2]))


def _in_feature_order(C, feats) -> np.ndarray:
    """:func:`feature_vector` of checked ``C`` and features."""
    return np.array([C[k - 1, l - 1, j - 1] for (k, l, j) in feats])


def _coefficients(W_QK, W_V, feats) -> np.ndarray:
    """The effective coefficients of checked weights in the order of the checked feature list ``feats``."""
    return _in_feature_order(effective_coefficients(W_QK, W_V), feats)


def _check_features(features, s: int) -> list:
    if isinstance(features, (str, bytes)) or not isinstance(features, (list, tuple)) or not features:
        raise ParameterTypeError(f"features must be a non-empty list of 1-based (k, l, j) triples, got "
                                 f"{features!r:.60}")
    out = []
    for f in features:
        if not isinstance(f, (list, tuple, np.ndarray)) or len(f) != 3:
            raise ParameterTypeError(f"features must hold 1-based (k, l, j) triples, got {f!r:.40}")
        k, l, j = (check_int("features entry", x) for x in f)
        if not (1 <= k <= l <= s + 1 and 1 <= j <= s):
            raise ValueError(f"features must be 1-based (k, l, j) with 1 <= k <= l <= {s + 1}, 1 <= j <= {s}; got {f}")
        out.append((k, l, j))
    return out


def check_moments(moments, s: int) -> tuple:
    """The moments of :func:`stationarity_moments` (``gram=True``) for window ``s``, checked once:
    ``(features, gram, b, Eyy)`` with the features as checked 1-based triples."""
    if not isinstance(moments, dict) or any(k not in moments for k in ("features", "gram", "b", "Eyy")):
        raise ValueError("moments must be the dict of stationarity_moments(..., gram=True) (keys features, gram, b, Eyy)")
    n = len(moments["features"])
    if np.shape(moments["gram"]) != (n, n) or np.shape(moments["b"]) != (n,):
        raise ValueError(f"moments: gram must be {n}x{n} and b of length {n} for {n} features")
    feats = _check_features(moments["features"], s)
    return feats, moments["gram"], moments["b"], moments["Eyy"]


def _halved_loss(c, gram, b, Eyy) -> float:
    return float(0.5 * (Eyy - 2 * c @ b + c @ gram @ c))


def exact_halved_loss(W_QK, W_V, moments: dict) -> float:
    r"""Population halved loss :math:`\tfrac12E[(\hat y_T-y_T)^2]=\tfrac12(E y_T^2-2c^\top b+c^\top\Gamma c)`
    of the weights, with the exact feature moments ``moments`` (:func:`stationarity_moments` with
    ``gram=True``) and ``c`` their effective coefficients."""
    W_QK, W_V, s = check_weights(W_QK, W_V)
    feats, gram, b, Eyy = check_moments(moments, s)
    return _halved_loss(_coefficients(W_QK, W_V, feats), gram, b, Eyy)


def exact_loss_gradient(W_QK, W_V, moments: dict) -> tuple[np.ndarray, np.ndarray]:
    r"""Gradient of :func:`exact_halved_loss` with respect to ``W_QK`` and ``W_V``.

    The coefficients are bilinear in (v, W), so each is linear in W for fixed v and in v for fixed
    W; the Jacobians are built column by column from basis matrices (exact), and the gradient is
    :math:`J^\top(\Gamma c-b)`."""
    W_QK, W_V, s = check_weights(W_QK, W_V)
    F, Gm, b, _ = check_moments(moments, s)
    r = Gm @ _coefficients(W_QK, W_V, F) - b
    gW = np.zeros_like(W_QK)
    gV = np.zeros_like(W_V)
    for i in range(s + 1):
        for j in range(s + 1):
            E = np.zeros_like(W_QK)
            E[i, j] = 1.0
            gW[i, j] = _coefficients(E, W_V, F) @ r
            gV[i, j] = _coefficients(W_QK, E, F) @ r
    return gW, gV


def gd_step_weights(s: int, eta: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Weights whose forward pass is one step of *standard* gradient descent of size ``eta`` from
    :math:`w_0=0` on :math:`L_{AR(s)}`: :math:`W_{QK}=\eta\begin{pmatrix}I_s&0\\0&0\end{pmatrix}`,
    :math:`W_V=e_{s+1}e_{s+1}^\top` (prediction :math:`\eta\,\bar y_{T-s}^\top\tfrac1n\sum_t\bar y_ty_{t+s}`)."""
    return _gd_weights(check_int("s", s, minimum=1), check_real("eta", eta))


def _gd_weights(s, eta):
    W = np.zeros((s + 1, s + 1))
    W[:s, :s] = eta * np.eye(s)
    V = np.zeros((s + 1, s + 1))
    V[s, s] = 1.0
    return W, V


def best_gd_step(s: int, moments: dict) -> tuple[float, float]:
    r"""The best step size of one standard GD step from 0 (exact 1-D least squares in the population
    loss) and its halved loss: ``(eta*, L(eta*))``."""
    s = check_int("s", s, minimum=1)
    feats, gram, b, Eyy = check_moments(moments, s)
    phi = _coefficients(*_gd_weights(s, 1.0), feats)
    eta = float(phi @ b / (phi @ gram @ phi))
    return eta, _halved_loss(_coefficients(*_gd_weights(s, eta), feats), gram, b, Eyy)


def coefficient_inertia(c, features, s: int, rtol: float = 1e-9) -> dict:
    r"""For each query index j, the symmetric matrix :math:`S_j` (:math:`S_{kk}=c_{kkj}`,
    :math:`S_{kl}=c_{klj}/2`) and its numbers of positive / negative eigenvalues. Realisable
    coefficients have :math:`S_j=(vw^\top+wv^\top)/2` (at most one eigenvalue of each sign)."""
    s = check_int("s", s, minimum=1, maximum=64)
    features = _check_features(features, s)
    rtol = check_real("rtol", rtol, 0.0, 1.0)
    c = check_array("c", c, ndim=1)
    if c.shape != (len(features),):
        raise ValueError(f"c must have one entry per feature ({len(features)}), got shape {c.shape}")
    out = {}
    for j in range(1, s + 1):
        S = np.zeros((s + 1, s + 1))
        for (k, l, jj), ci in zip(features, c):
            if jj == j:
                if k == l:
                    S[k - 1, k - 1] = ci
                else:
                    S[k - 1, l - 1] = S[l - 1, k - 1] = ci / 2
        ev = np.linalg.eigvalsh(S)
        tol = rtol * np.max(np.abs(ev))
        out[j] = {"eigenvalues": ev, "n_pos": int(np.sum(ev > tol)), "n_neg": int(np.sum(ev < -tol))}
    return out
