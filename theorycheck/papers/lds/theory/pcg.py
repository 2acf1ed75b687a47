r"""The PCG reading of the trained AR(s) attention (paper 001, seed Eqs. 16–18).

>>> import numpy as np
>>> Y = np.random.default_rng(0).standard_normal((3, 10))
>>> q = pcg_quantities(np.eye(3), np.eye(3), Y)
>>> q["w_att"].shape, q["cos_att_pcg"].shape
((3, 2), (3,))
"""
from __future__ import annotations

import math

import numpy as np

from ....models.attention import check_series, check_weights, gram_query
from ....validate import check_array, check_choice, check_int

__all__ = ["pcg_quantities", "cosine", "span_residuals", "pcg_diagnostics", "random_direction_abs_cosine"]


def pcg_quantities(W_QK, W_V, Y, preconditioner: str = "P", init: str = "residual", w0=None) -> dict:
    r"""Reconstruction of the seed's Eqs. 16–18 for trained AR(s) weights, per sequence.

    Block structure (Eq. 16): :math:`G=\frac1n\sum_iz_iz_i^\top=\begin{pmatrix}H&-g_0\\-g_0^\top&\gamma
    \end{pmatrix}` with :math:`H=\nabla^2L_{AR(s)}`, :math:`g_0=\nabla L_{AR(s)}(0)`.
    Writing :math:`W_{QK}[:, :s]=\begin{pmatrix}\tilde W\\ p^\top\end{pmatrix}`,
    :math:`v=(q;v_{s+1})`, the attention predictor is :math:`\hat y=w_{att}^\top\bar y_{T-s}` with

    .. math:: w_{att}=P H q+\xi_1Pg_0+\xi_2p,\quad P=\tilde W^\top,\ \xi_1=-v_{s+1},\
              \xi_2=\gamma v_{s+1}-g_0^\top q .

    Two PCG steps on :math:`L_{AR(s)}` from 0 with preconditioned residual :math:`z=P r`
    (:math:`r=-\nabla L`), exact line search, Fletcher–Reeves-type
    :math:`\beta=r_1^\top z_1/r_0^\top z_0` give :math:`w_{PCG}\in\mathrm{span}\{Pg_0, PHPg_0\}`.
    Returns per-sequence arrays: ``cos_att_pcg`` (cos of :math:`w_{att}` and :math:`w_{PCG}`),
    ``cos_first_terms`` (cos of :math:`PHq` and :math:`PHPg_0`), ``cos_p_z0`` (cos of :math:`p` and
    the preconditioned residual at 0, :math:`-Pg_0`) and ``cos_p_z2`` (at :math:`w_{PCG}`), and
    ``cos_p_r0`` (cos of :math:`p` and :math:`-g_0`), ``cos_p_z1`` (after one step); the vectors themselves
    (``z0``, ``z1``, ``z2``, ``first_att`` = :math:`PHq`, ``first_pcg`` = :math:`PHPg_0`). ``preconditioner``
    chooses the matrix applied to residuals in the PCG steps: ``"P"`` (Eq. 18 as written, :math:`P^{-1}` the
    preconditioner, :math:`z=Pr`), ``"PT"`` (:math:`P^\top`), ``"Psym"`` (:math:`(P+P^\top)/2`) or ``"Pinv"``
    (:math:`z=P^{-1}r`: P itself the preconditioner) — the seed does not say how a non-symmetric P enters PCG.
    ``init`` is the first conjugate direction: ``"residual"`` (standard PCG, :math:`d_0=z_0`,
    Fletcher–Reeves :math:`\beta`) or ``"q"`` (the seed's variant "conjugate direction initialised
    at q": :math:`d_0=q`, then :math:`d_1=z_1+\beta d_0` made H-conjugate to :math:`d_0`,
    :math:`\beta=-z_1^\top Hd_0/d_0^\top Hd_0`); exact line search in both. ``w0``: the starting point of PCG
    (``None``: :math:`w_0=0`, as Eq. 18 states; an array of shape (s,) or (B, s) starts there, residual
    :math:`r_0=-(\nabla L(0)+\nabla^2L\,w_0)`).
    """
    check_choice("preconditioner", preconditioner, ("P", "PT", "Psym", "Pinv"))
    check_choice("init", init, ("residual", "q"))
    W_QK, W_V, s = check_weights(W_QK, W_V)
    Y = check_series(Y, s)
    if w0 is not None:
        w0 = check_array("w0", w0, ndim=(1, 2))
        if w0.shape not in ((s,), (Y.shape[0], s)):
            raise ValueError(f"w0 must have shape ({s},) or ({Y.shape[0]}, {s}), got {w0.shape}")
        w0 = np.broadcast_to(w0, (Y.shape[0], s)).copy()
    G, q = gram_query(Y, s)
    H = G[:, :s, :s]
    g0 = -G[:, :s, s]
    gam = G[:, s, s]
    Wt = W_QK[:s, :s]
    p = W_QK[s, :s]
    P = Wt.T
    qv = W_V[s, :s]
    vs = W_V[s, s]
    x = q[:, :s]
    xi1 = -vs
    xi2 = gam * vs - g0 @ qv
    Hq = np.einsum("bij,j->bi", H, qv)
    w_att = Hq @ P.T + xi1 * (g0 @ P.T) + xi2[:, None] * p[None, :]
    # two PCG steps from w = 0, preconditioner applied as z = Pc r
    r0, z0, z1, z2, w1, w2 = _two_pcg_steps(H, g0, _preconditioner(P, preconditioner), qv, init, w0)
    PHPg = np.einsum("bij,bj->bi", H, g0 @ P.T) @ P.T
    pb = np.broadcast_to(p, w_att.shape)
    pred_att = np.einsum("bi,bi->b", w_att, x)
    return {"w_att": w_att, "w_pcg": w2, "w_pcg1": w1, "pred_att": pred_att, "g0": g0, "H": H, "P": P,
            "z0": z0, "z1": z1, "z2": z2, "r0": r0, "p": p, "first_att": Hq @ P.T, "first_pcg": PHPg,
            "cos_att_pcg": _cos(w_att, w2), "cos_first_terms": _cos(Hq @ P.T, PHPg),
            "cos_p_z0": _cos(pb, z0), "cos_p_z1": _cos(pb, z1), "cos_p_z2": _cos(pb, z2), "cos_p_r0": _cos(pb, r0)}


def span_residuals(q: dict) -> tuple[np.ndarray, np.ndarray]:
    r"""Per sequence, the least-squares projection of the PCG iterate ``q["w_pcg"]`` onto the Krylov basis
    :math:`\{P\nabla L(0), P\nabla^2L\,P\nabla L(0)\}` of Eq. 18 (``q`` from :func:`pcg_quantities`): the relative
    residuals (B,) — 0 when the iterate lies in the span — and the coefficients (B, 2) of the two basis vectors.

    >>> Y = np.random.default_rng(0).standard_normal((3, 10))
    >>> res, coef = span_residuals(pcg_quantities(np.eye(3) + 0.1, np.eye(3), Y))
    >>> bool(np.all(res < 1e-9)), coef.shape
    (True, (3, 2))
    """
    if not isinstance(q, dict) or any(k not in q for k in ("g0", "P", "H", "w_pcg")):
        raise ValueError("q must be the dict of pcg_quantities (keys g0, P, H, w_pcg)")
    Pg = q["g0"] @ q["P"].T
    PHPg = np.einsum("bij,bj->bi", q["H"], Pg) @ q["P"].T
    basis = np.stack([Pg, PHPg], axis=2)
    res, coef = [], []
    for b in range(basis.shape[0]):
        c, *_ = np.linalg.lstsq(basis[b], q["w_pcg"][b], rcond=None)
        res.append(np.linalg.norm(basis[b] @ c - q["w_pcg"][b]) / np.linalg.norm(q["w_pcg"][b]))
        coef.append(c)
    return np.array(res), np.array(coef)


def _preconditioner(P, name):
    """The matrix Pc applied to residuals, z = Pc r: P (Eq. 18 as written), Pᵀ, (P + Pᵀ)/2 or P⁻¹."""
    if name == "Pinv":
        if not np.all(np.isfinite(P)) or abs(np.linalg.det(P)) <= 1e-300 or np.linalg.cond(P) > 1e12:
            raise ValueError("preconditioner 'Pinv' needs an invertible P = W_QK[:s, :s]ᵀ (condition number "
                             f"{np.linalg.cond(P):.3g})")
        return np.linalg.inv(P)
    return {"P": P, "PT": P.T, "Psym": 0.5 * (P + P.T)}[name]


def _two_pcg_steps(H, g0, Pc, qv, init, w0=None):
    """Two PCG steps on L_AR(s) (Hessian H, gradient at 0 g0, per sequence) from w = 0 (or ``w0``) with exact line
    search: (r0, z0, z1, z2, w1, w2), residuals r = −∇L, preconditioned residuals z = Pc r, iterates w."""
    r0 = -g0 if w0 is None else -(g0 + np.einsum("bij,bj->bi", H, w0))
    z0 = r0 @ Pc.T
    d0 = z0 if init == "residual" else np.broadcast_to(qv, z0.shape).copy()
    Hd0 = np.einsum("bij,bj->bi", H, d0)
    rz0 = np.sum(r0 * z0, 1)
    dHd0 = np.sum(d0 * Hd0, 1)
    al0 = _safe_div(np.sum(r0 * d0, 1), dHd0)     # exact line search along d0 (= rz0 / d0'Hd0 when d0 = z0)
    w1 = al0[:, None] * d0 if w0 is None else w0 + al0[:, None] * d0
    r1 = r0 - al0[:, None] * Hd0
    z1 = r1 @ Pc.T
    beta = _safe_div(np.sum(r1 * z1, 1), rz0) if init == "residual" else -_safe_div(np.sum(z1 * Hd0, 1), dHd0)
    d1 = z1 + beta[:, None] * d0
    Hd1 = np.einsum("bij,bj->bi", H, d1)
    rel = np.linalg.norm(r1, axis=1) <= 1e-12 * np.maximum(np.linalg.norm(r0, axis=1), 1e-300)
    al1 = np.where(rel, 0.0, _safe_div(np.sum(r1 * d1, 1), np.sum(d1 * Hd1, 1)))
    w2 = w1 + al1[:, None] * d1
    r2 = r1 - al1[:, None] * Hd1
    z2 = r2 @ Pc.T
    return r0, z0, z1, z2, w1, w2


def _safe_div(a, b):
    """a / b, 0 where b == 0 (PCG already converged)."""
    out = np.zeros_like(a)
    np.divide(a, b, out=out, where=np.abs(b) > 1e-300)
    return out


def cosine(u, w) -> np.ndarray:
    """Cosine of the angle between the vectors of the last axis of ``u`` and ``w`` (broadcast against each other; 0
    when one of them is 0).

    >>> round(float(cosine(np.array([1.0, 0.0]), np.array([1.0, 1.0])) ** 2), 12)
    0.5
    """
    u, w = check_array("u", u, min_size=1), check_array("w", w, min_size=1)
    if u.ndim < 1 or w.ndim < 1 or u.shape[-1] != w.shape[-1]:
        raise ValueError(f"u and w must be vectors (last axis) of the same length, got shapes {u.shape} and {w.shape}")
    try:
        np.broadcast_shapes(u.shape, w.shape)
    except ValueError:
        raise ValueError(f"u and w must broadcast against each other, got shapes {u.shape} and {w.shape}") from None
    return _cos(u, w)


def _cos(u, w):
    nu = np.linalg.norm(u, axis=-1)
    nw = np.linalg.norm(w, axis=-1)
    return np.sum(u * w, -1) / np.maximum(nu * nw, 1e-300)


def pcg_diagnostics(W_QK, W_V, Y) -> dict:
    r"""Per prompt, what the PCG reading of line 70 is compared with (see :func:`pcg_quantities` for the notation):

    * ``cos_att_gd`` — cosine of :math:`w_{att}` with the one-step GD direction :math:`-\nabla L(0)`;
    * ``cos_att_ls`` — with the in-context least-squares solution :math:`-\nabla^2L^{-1}\nabla L(0)` (where PCG
      converges);
    * ``cos_p_illcond`` — :math:`|\cos|` of :math:`p` with the right singular vector of :math:`P\nabla^2L` of the
      smallest singular value (its most ill-conditioned mode);
    * ``loss_with_p`` / ``loss_without_p`` — the in-context loss :math:`L_{AR(s)}(w)=\tfrac12\gamma+\nabla L(0)^\top w
      +\tfrac12w^\top\nabla^2Lw` at :math:`w_{att}` and at :math:`w_{att}-\xi_2p` (the predictor without its p term);
    * ``asymmetry`` — :math:`\|P-P^\top\|_F/\|P\|_F` (one number).

    >>> d = pcg_diagnostics(np.eye(3) + 0.1, np.eye(3), np.random.default_rng(0).standard_normal((4, 12)))
    >>> sorted(d)[:3], d["cos_att_gd"].shape
    (['asymmetry', 'cos_att_gd', 'cos_att_ls'], (4,))
    """
    q = pcg_quantities(W_QK, W_V, Y)
    H, g0, P, p, w = q["H"], q["g0"], q["P"], q["p"], q["w_att"]
    s = P.shape[0]
    G, _ = gram_query(Y if np.ndim(Y) == 2 else np.atleast_2d(Y), s)
    gam = G[:, s, s]
    xi2 = gam * W_V[s, s] - g0 @ W_V[s, :s]
    ls = -np.linalg.solve(H + 1e-12 * np.eye(s), g0[..., None])[..., 0]
    _, _, vt = np.linalg.svd(np.einsum("ij,bjk->bik", P, H))
    loss = lambda v: 0.5 * gam + np.einsum("bi,bi->b", g0, v) + 0.5 * np.einsum("bi,bij,bj->b", v, H, v)  # noqa: E731
    return {"cos_att_gd": _cos(w, -g0), "cos_att_ls": _cos(w, ls),
            "cos_p_illcond": np.abs(_cos(np.broadcast_to(p, w.shape), vt[:, -1])),
            "loss_with_p": loss(w), "loss_without_p": loss(w - xi2[:, None] * p[None, :]),
            "asymmetry": float(np.linalg.norm(P - P.T) / max(np.linalg.norm(P), 1e-300))}


def random_direction_abs_cosine(s: int) -> float:
    r""":math:`E|\cos(u, e)|` for a direction u uniform on the sphere of :math:`\mathbb R^s` (the trivial alternative of an
    alignment): :math:`\Gamma(s/2)/(\sqrt\pi\,\Gamma((s+1)/2))`.

    >>> round(random_direction_abs_cosine(4), 4)
    0.4244
    """
    s = check_int("s", s, minimum=1, maximum=10_000)
    return float(math.exp(math.lgamma(s / 2) - math.lgamma((s + 1) / 2)) / math.sqrt(math.pi))
