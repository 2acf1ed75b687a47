r"""What each term of the AR(s) attention predictor contributes to its gain (paper 001, issue 29 class 4).

The prediction is :math:`\hat y_T=\sum_f C_f\,G_{kl}q_j` over the features :math:`f=(k,l,j)` (C3), and the exact
halved population loss is the quadratic :math:`\tfrac12(Ey_T^2-2c^\top b+c^\top\Gamma c)` in the coefficients
(:func:`~.stationarity.stationarity_moments`, ``gram=True``). The terms of Eq. 17 sit on disjoint feature blocks of
:math:`G=\begin{pmatrix}\nabla^2L&-\nabla L(0)\\-\nabla L(0)^\top&\gamma\end{pmatrix}` (Eq. 16):

* the Krylov term :math:`P\nabla^2L\,q` on the Hessian block :math:`G_{kl}`, :math:`k,l\le s`;
* the one-step preconditioned GD term :math:`\xi_1P\nabla L(0)` on the gradient block :math:`G_{k,s+1}`,
  :math:`k\le s` (with ``−∇L(0)ᵀq`` of ξ₂, also on it);
* the correction :math:`\gamma\,p` (part of :math:`\xi_2p`) on :math:`G_{s+1,s+1}=\gamma`.

:func:`family_losses` gives the exact best loss of the layer restricted to feature blocks. Dropping a block and
refitting everything else is a linear least-squares problem. Every restricted family used here is realisable by
one layer (:func:`realising_weights`: :math:`W_V=e_{s+1}e_{s+1}^\top`, :math:`W_{QK}[:, :s]` the coefficients), so
these are attained losses, not bounds. The unconstrained optimum over all coefficients is a lower bound for every
weight.

>>> from theorycheck.models.dynamics import DiagonalLDSPrior
>>> from .stationarity import stationarity_moments
>>> m = stationarity_moments(8, 2, DiagonalLDSPrior(1, 0.8, 1.0, 0.5, 0.5), gram=True)
>>> f = family_losses(m, 2)
>>> f["zero"] >= f["scalar_gd"] >= f["preconditioned_gd"] >= f["no_hessian"] >= f["unconstrained"]
True
"""
from __future__ import annotations

import numpy as np

from ....validate import check_int
from .gd import best_gd_step, check_moments

__all__ = ["BLOCKS", "family_losses", "realising_weights"]

#: the restricted families: the feature blocks they keep (names of :func:`_block`)
BLOCKS = {"preconditioned_gd": ("gradient",), "no_hessian": ("gradient", "gamma")}


def _block(f, s: int) -> str:
    k, l, _ = f
    if l <= s:
        return "hessian"
    return "gradient" if k <= s else "gamma"


def family_losses(moments: dict, s: int) -> dict:
    r"""Exact best halved losses of the AR(s) layer: ``zero`` (predict 0), ``scalar_gd`` (one GD step with the best
    fixed step, :func:`~.gd.best_gd_step`), ``preconditioned_gd`` (one GD step with the best fixed s×s preconditioner:
    the gradient block only), ``no_hessian`` (everything but the Krylov term: gradient and γ blocks), and
    ``unconstrained`` (all coefficients free: a lower bound for every weight). Also ``coefficients`` of the two
    restricted fits (in feature order, zeros off their blocks)."""
    s = check_int("s", s, minimum=1, maximum=64)
    feats, gram, b, Eyy = check_moments(moments, s)
    gram, b, Eyy = np.asarray(gram, float), np.asarray(b, float), float(Eyy)
    out = {"zero": 0.5 * Eyy, "scalar_gd": best_gd_step(s, moments)[1]}
    c_un = np.linalg.solve(gram, b)
    out["unconstrained"] = float(0.5 * (Eyy - c_un @ b))
    out["coefficients"] = {}
    for name, keep in BLOCKS.items():
        idx = np.array([i for i, f in enumerate(feats) if _block(f, s) in keep])
        c = np.zeros(len(feats))
        c[idx] = np.linalg.solve(gram[np.ix_(idx, idx)], b[idx])
        out[name] = float(0.5 * (Eyy - c[idx] @ b[idx]))
        out["coefficients"][name] = c
    return out


def realising_weights(coefficients, features, s: int) -> tuple[np.ndarray, np.ndarray]:
    r"""Weights of one layer with the given coefficients on the gradient and γ blocks (zero on the Hessian block):
    :math:`W_V=e_{s+1}e_{s+1}^\top` and :math:`W_{QK}[k-1, j-1]=C_{k,s+1,j}` (C3: then
    :math:`C_{k,s+1,j}=v_kW_{s+1,j}+v_{s+1}W_{kj}=W_{kj}` and :math:`C_{s+1,s+1,j}=W_{s+1,j}`)."""
    s = check_int("s", s, minimum=1, maximum=64)
    W, V = np.zeros((s + 1, s + 1)), np.zeros((s + 1, s + 1))
    V[s, s] = 1.0
    for c, (k, l, j) in zip(np.asarray(coefficients, float), features):
        if l == s + 1:
            W[k - 1, j - 1] = c
        elif c != 0:
            raise ValueError(f"coefficient of the Hessian-block feature {(k, l, j)} must be 0, got {c}")
    return W, V
