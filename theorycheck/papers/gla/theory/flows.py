r"""Gradient flows and the loss landscape of paper 000 (population MSE, not halved; conventions of
:mod:`theorycheck.papers.gla.theory`).

*Reduced parameters* θ = (v, A), :math:`\Gamma=vA^\top`: the flow :math:`\dot\theta=-\nabla_\theta L` of the exact
loss :math:`L(\Gamma)` (:func:`gradient_flow`, Theorem 1), its limit on the manifold :math:`v^2-\|A\|_F^2=` const
and the decay rates of its linearisation there. *Full parameters* (Λ = I_d): :math:`W_V` last row
:math:`(u^\top, v)`, :math:`W_{KQ}[:, :d]=[A; b^\top]`, the exact loss of the full predictor including the query
token's own term (:func:`full_parameter_loss`), its gradient flow with the analytic gradient (tested against the
complex-step derivative of the loss; :func:`full_gradient_flow`), random-direction probes of a candidate local minimum and the classification of a
flow's end point (global minimum, spurious critical point, still moving).

>>> o = optimal_parameters(0.8, 0.9, 6, np.eye(2), 1.0, 0.1)
>>> classify_full_flow({"loss_gap": [1.0, 0.0], "loss_star": o.train_error, "grad_norm_final": 0.0,
...                     "grad_norm_initial": 1.0})
'global'
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize, signal
from scipy.integrate import solve_ivp

from ....validate import MAX_COUNT, ParameterTypeError, check_array, check_int, check_memory, check_real
from .errors import loss_at, optimal_parameters, optimum  # noqa: F401  (optimal_parameters: the doctests)
from .law import (MAX_FLOW_DIM, MAX_FLOW_POINTS, MAX_INIT_SCALE, check_flow_variances, check_gamma, check_lam,
                  check_lambda_matrix, check_n, check_n_direct, check_variance, ensure_finite)
from .sums import sums_for, variances

__all__ = ["FlowResult", "gradient_flow", "full_parameter_loss", "full_gradient_flow", "probe_local_minimum",
           "classify_full_flow", "search_full_minima"]


# ------------------------------------------------------------------ gradient flow (reduced parameters)
def _H_parts(lam, gamma, n, L, sigma_w2, sigma_e2, noise):
    r"""The sums of the law and :math:`\kappa=B\operatorname{tr}\Lambda+\sigma^2N_0`."""
    s = sums_for(lam, gamma, n, sigma_w2, sigma_e2)
    kappa = s.B * float(np.trace(L)) + noise * s.N0
    return s, kappa


@dataclass
class FlowResult:
    """Gradient flow of the population loss over (v, A), Γ = v Aᵀ."""

    times: np.ndarray
    dist_gamma: np.ndarray        # ‖Γ(t) − Γ*‖_F
    dist_params: np.ndarray       # ‖(v, A)(t) − (v*, A*)‖ on the conserved manifold
    loss: np.ndarray
    loss_star: float
    rate_fit: float | None        # −slope of log ‖Γ − Γ*‖ over the fitted window (None: never entered it)
    rate_linearised: float | None  # smallest nonzero decay rate of the linearised flow at the limit
                                  # (a structured init may only excite a faster invariant mode:
                                  # extra["nearest_linearised_rate"] is the eigenvalue matching the fit)
    fit_window: tuple | None
    conserved_drift: float        # max |v² − ‖A‖²_F − const| along the path (relative)
    init: str
    extra: dict = field(default_factory=dict)


def gradient_flow(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0, init="structured",
                  sigma=1e-2, seed=0, t_max=None, n_points=400) -> FlowResult:
    r"""Integrate :math:`\dot\theta=-\nabla_\theta L` for θ = (v, A), :math:`\Gamma=vA^\top`.

    :math:`\nabla_\Gamma L=2\Lambda\Gamma H-2D_1\Lambda^2`, :math:`\partial_vL=\operatorname{tr}(\nabla_\Gamma L\,A)`,
    :math:`\partial_AL=v(\nabla_\Gamma L)^\top`. Initialisations (stated assumptions):
    ``"structured"`` (Assumption-1 / Zhang–Frei–Bartlett style): :math:`v(0)=\sigma`,
    :math:`A(0)=\sigma\Theta\Theta^\top` with :math:`\Theta\Theta^\top=I/\sqrt d`
    (:math:`\|\Theta\Theta^\top\|_F=1`, balanced :math:`v^2=\|A\|_F^2`);
    ``"random"``: :math:`v\sim\mathcal N(0,\sigma^2)`, :math:`A_{kl}\sim\mathcal N(0,\sigma^2/d)`.
    σ is relative to :math:`\|\Gamma^*\|_F^{1/2}`. :math:`v^2-\|A\|_F^2` is conserved, which fixes
    the limit :math:`(v^*,A^*)` on the manifold of minimisers. Solver: scipy ``solve_ivp``
    (LSODA, rtol 1e-10, atol 1e-13 in units of the optimum).
    """
    lam, gamma, n, L, sigma_w2, sigma_e2, noise, sigma, t_max, n_points = _flow_setting(
        lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise, init, sigma, t_max, n_points, seed)
    d = L.shape[0]
    s, kappa = _H_parts(lam, gamma, n, L, sigma_w2, sigma_e2, noise)
    H = L @ ((s.A2 + s.B) * L + kappa * np.eye(d))
    Gs = optimum(lam, gamma, n, L, sigma_w2, sigma_e2, noise).Gamma
    gnorm = float(np.linalg.norm(Gs))
    # rescale parameters so that the optimum has unit size: θ = sqrt(‖Γ*‖) θ̃
    r = math.sqrt(gnorm)
    rhs = _reduced_flow_field(L, H, s.D1)
    v0, A0 = _flow_start(init, sigma, r, d, seed)
    y0 = np.concatenate(([v0], A0.ravel()))
    c0 = v0 ** 2 - float(np.sum(A0 ** 2))
    # time scale: the linearised rate near the optimum is ~ 2 v*² λ_min(Λ⊗H)
    hmin = float(np.min(np.linalg.eigvalsh(L)) * np.min(np.linalg.eigvalsh(H)))
    vstar2 = (c0 + math.sqrt(c0 ** 2 + 4 * gnorm ** 2)) / 2
    if t_max is None:
        # escape from the small init (~ log(1/σ)/(v*² h)) plus 40 e-folds of the slowest mode
        t_max = (2 * math.log(1 / sigma) + 40.0) / (2 * max(vstar2, 1e-300) * max(hmin, 1e-300))
    t_eval = np.concatenate(([0.0], np.geomspace(t_max * 1e-6, t_max, n_points - 1)))
    sol = solve_ivp(rhs, (0.0, t_max), y0, method="LSODA", t_eval=t_eval, rtol=1e-10,
                    atol=1e-13 * r, jac=None)
    if not sol.success:
        raise RuntimeError(f"gradient flow integration failed: {sol.message}")
    Y = sol.y.T
    v = Y[:, 0]
    A = Y[:, 1:].reshape(-1, d, d)
    Gam = v[:, None, None] * np.transpose(A, (0, 2, 1))
    dist = np.linalg.norm(Gam - Gs, axis=(1, 2))
    vs = math.copysign(math.sqrt(vstar2), v[-1])
    As = Gs.T / vs
    dist_p = np.sqrt((v - vs) ** 2 + np.sum((A - As) ** 2, axis=(1, 2)))
    loss = np.array([loss_at(G, lam, gamma, n, L, sigma_w2, sigma_e2, noise) for G in Gam])
    lstar = loss_at(Gs, lam, gamma, n, L, sigma_w2, sigma_e2, noise)
    cons = np.abs(v ** 2 - np.sum(A ** 2, axis=(1, 2)) - c0) / max(gnorm, 1e-300)
    rel = dist / gnorm
    slope, win = _fit_rate(sol.t, dist, rel)
    nz = _linearised_rates(rhs, np.concatenate(([vs], As.ravel())), 1e-6 * r)
    rate_lin = float(nz.min()) if nz.size else None
    nearest = float(nz[np.argmin(np.abs(nz + slope))]) if nz.size and slope is not None else None
    ensure_finite([dist[-1], loss[-1], lstar], "the gradient flow", lam=lam, gamma=gamma, n=n, sigma_w2=sigma_w2,
                  sigma_e2=sigma_e2, noise=noise, sigma=sigma)
    return FlowResult(sol.t, dist, dist_p, loss, lstar, None if slope is None else -slope, rate_lin, win,
                      float(cons.max()),
                      init, {"t_max": t_max, "sigma": sigma, "v_star": vs, "Gamma_star_norm": gnorm,
                             "final_rel_dist": float(rel[-1]),
                             "nearest_linearised_rate": nearest,
                             "linearised_rates": sorted(set(np.round(nz, 10).tolist()))})


def _flow_setting(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise, init, sigma, t_max, n_points, seed):
    """The checked inputs of :func:`gradient_flow`: ``(lam, gamma, n, L, sigma_w2, sigma_e2, noise, sigma, t_max,
    n_points)``; Λ positive definite and at most :data:`MAX_FLOW_DIM` × :data:`MAX_FLOW_DIM`."""
    lam, gamma = check_lam(lam), check_gamma(gamma)
    L = check_lambda_matrix(Lambda)
    if not isinstance(init, str) or init not in ("structured", "random"):
        raise ValueError(f"init must be one of ['random', 'structured'], got {init!r}")
    sigma = check_real("sigma", sigma, 0.0, MAX_INIT_SCALE, low_open=True)
    n_points = check_int("n_points", n_points, minimum=3, maximum=MAX_FLOW_POINTS)
    if t_max is not None:
        t_max = check_real("t_max", t_max, 0.0, low_open=True)
    sigma_w2, sigma_e2, noise = check_flow_variances(sigma_w2, sigma_e2, noise)
    n = check_n(n)
    if init == "random":
        check_int("seed", seed, minimum=0)
    d = L.shape[0]
    if d > MAX_FLOW_DIM:
        raise ValueError(f"Lambda must be at most {MAX_FLOW_DIM}x{MAX_FLOW_DIM} for the gradient flow (d^2 + 1 "
                         f"states), got {d}x{d}")
    if float(np.min(np.linalg.eigvalsh(L))) <= 0:
        raise ValueError("Lambda must be positive definite for the gradient flow (its time scale is 1/lambda_min), "
                         f"got smallest eigenvalue {float(np.min(np.linalg.eigvalsh(L))):.3g}")
    return lam, gamma, n, L, sigma_w2, sigma_e2, noise, sigma, t_max, n_points


def _reduced_flow_field(L, H, D1):
    r"""The vector field ``rhs(t, y)`` of the reduced flow, y = (v, vec A): :math:`\dot v=-\operatorname{tr}(
    \nabla_\Gamma L\,A)`, :math:`\dot A=-v(\nabla_\Gamma L)^\top` at :math:`\Gamma=vA^\top`, with
    :math:`\nabla_\Gamma L=2\Lambda\Gamma H-2D_1\Lambda^2`."""
    d = L.shape[0]
    L2 = L @ L

    def grad_gamma(G):
        return 2 * L @ G @ H - 2 * D1 * L2

    def rhs(_t, y):
        v, A = y[0], y[1:].reshape(d, d)
        gG = grad_gamma(v * A.T)
        return np.concatenate(([-np.trace(gG @ A)], (-v * gG.T).ravel()))
    return rhs


def _flow_start(init, sigma, r, d, seed):
    """``(v(0), A(0))`` of the reduced flow at relative scale σ (``r`` = ‖Γ*‖_F^{1/2}): structured or random."""
    if init == "structured":
        v0 = sigma * r
        A0 = sigma * r * np.eye(d) / math.sqrt(d)
    else:
        rng = np.random.default_rng(seed)
        v0 = sigma * r * rng.standard_normal()
        A0 = sigma * r * rng.standard_normal((d, d)) / math.sqrt(d)
    return v0, A0


def _fit_rate(t, dist, rel):
    """``(slope, window)`` of the straight-line fit of log ‖Γ − Γ*‖ against t over the window where the relative
    distance ``rel`` is between 1e-8 and 1e-3; ``(None, None)`` when the flow never entered it (never NaN)."""
    mask = (rel < 1e-3) & (rel > 1e-8)
    if mask.sum() >= 3:
        tt, ld = t[mask], np.log(dist[mask])
        return float(np.polyfit(tt, ld, 1)[0]), (float(tt[0]), float(tt[-1]))
    return None, None


def _linearised_rates(rhs, ystar, eps):
    """The nonzero decay rates (sorted) of the flow ``rhs`` linearised at its limit ``ystar``: minus the real parts
    of the eigenvalues of its Jacobian (central differences of step ``eps``) above 1e-7 of the largest."""
    m = ystar.size
    J = np.empty((m, m))
    for k in range(m):
        e = np.zeros(m)
        e[k] = eps
        J[:, k] = (rhs(0, ystar + e) - rhs(0, ystar - e)) / (2 * eps)
    ev = np.sort(-np.linalg.eigvals(J).real)
    return ev[ev > 1e-7 * ev.max()]


# ------------------------------------------------------------------ full parametrisation (Λ = I)
def _full_sums(lam, gamma, n, sigma_w2, sigma_e2):
    s = variances(gamma, n, sigma_w2, sigma_e2)
    si = s[1:n + 1]
    p = lam ** np.arange(n, 0, -1, dtype=float)
    # R2 = Σ_{i,j} p_i p_j γ^{2|i-j|} s_min(i,j)², via R_i = Σ_{j>i} p_j γ^{2(j-i)}
    prev = np.concatenate(([0.0], p[::-1][:-1]))
    R = signal.lfilter([gamma ** 2], [1.0, -gamma ** 2], prev)[::-1]
    R2 = float(np.sum(p * p * si * si) + 2 * np.sum(p * si * si * R))
    return {"P1": float(p.sum()), "S1": float(np.sum(p * si)), "R2": R2,
            "diag": lambda d, noise: float(np.sum(p * p * (2 * (d * si + noise) ** 2 + 4 * d * si * si)))}


def _full_consts(lam, gamma, n, d, sigma_w2, sigma_e2, noise):
    sm = sums_for(lam, gamma, n, sigma_w2, sigma_e2)
    fs = _full_sums(lam, gamma, n, sigma_w2, sigma_e2)
    Ey = d * fs["S1"] + noise * fs["P1"]
    return {"d": d, "h0": sm.A2 + (d + 1) * sm.B + noise * sm.N0, "D1": sm.D1, "c0": d * sm.s_q + noise,
            "P1": fs["P1"], "N0": sm.N0, "B": sm.B, "Ey": Ey,
            "K2": Ey ** 2 + 2 * d * fs["R2"] + fs["diag"](d, noise)}


def _full_loss(u, v, A, b, k):
    # called for every loss value of a flow, a search and a probe: the array methods (.sum(), .trace()) skip the dispatch of
    # np.sum / np.trace and the shared left factors uᵀA, uᵀM and Aᵀu·Aᵀu are formed once — the same operations in the
    # same order as the formula, so the same numbers bit for bit
    At = A.T
    G = v * At + b[:, None] * u                      # v Aᵀ + b uᵀ (np.outer(b, u) is this product)
    Lred = k["h0"] * (G * G).sum() - 2 * k["D1"] * G.trace() + k["c0"]
    M = (A + At) / 2
    Atu = At @ u
    AtuAtu = Atu @ Atu
    uu = u @ u
    trA = A.trace()
    uA = u @ A
    uM = u @ M
    P1, N0 = k["P1"], k["N0"]
    ET1 = ((P1 ** 2 - N0) * AtuAtu + N0 * (uu * (A * A).sum() + 2 * AtuAtu)
           + 2 * P1 * ((uA @ u) * trA + 2 * (uM @ Atu))
           + uu * (trA ** 2 + 2 * (M * M).sum()) + 4 * trA * (uM @ u) + 8 * (uM @ M @ u))
    ET2 = v * v * (b @ b) * k["K2"]
    ET12 = v * ((uA @ b) * (P1 * k["Ey"] + 2 * k["B"]) + ((u @ b) * trA + 2 * (uM @ b)) * k["Ey"])
    return Lred + ET1 + 2 * ET12 + ET2


def _full_grad(u, v, A, b, k):
    # the gradient of _full_loss over θ = (u, v, vec A row-major, b), term by term (G = vAᵀ + buᵀ, w = Aᵀu, z = Mu,
    # q = uᵀAu; 4P₁uᵀMAᵀu = 2P₁(‖w‖² + uᵀA²u)); the reference is the complex-step derivative of _full_loss
    # (tests/test_gla_routes.py), which it matches to rounding
    At = A.T
    G = v * At + b[:, None] * u
    dG = 2 * k["h0"] * G - 2 * k["D1"] * np.eye(len(u))
    gu = dG.T @ b
    gv = float((dG * At).sum())
    gA = v * dG.T
    gb = dG @ u
    M = (A + At) / 2
    w = At @ u                    # Aᵀu
    Au = A @ u
    z = M @ u
    uu = u @ u
    trA = A.trace()
    q = u @ Au
    P1, N0 = k["P1"], k["N0"]
    eye = np.eye(len(u))
    c1 = P1 ** 2 + N0 + 2 * P1            # (P1²−N0)+2N0 from ‖Aᵀu‖², + 2P1 from term4's ‖w‖²
    # ‖Aᵀu‖² terms
    gu = gu + 2 * c1 * (A @ w)
    gA = gA + 2 * c1 * np.outer(u, w)
    # N0 ‖u‖²‖A‖²
    AA = (A * A).sum()
    gu = gu + 2 * N0 * AA * u
    gA = gA + 2 * N0 * uu * A
    # 2 P1 q trA
    gu = gu + 2 * P1 * trA * (Au + w)
    gA = gA + 2 * P1 * (trA * np.outer(u, u) + q * eye)
    # 2 P1 uᵀA²u  (from 4P1 uᵀMAᵀu = 2P1(‖w‖² + uᵀA²u))
    A2u = A @ Au
    gu = gu + 2 * P1 * (A2u + At @ w)
    gA = gA + 2 * P1 * (np.outer(u, Au) + np.outer(w, u))
    # ‖u‖²(trA² + 2‖M‖²)
    MM = (M * M).sum()
    gu = gu + 2 * (trA ** 2 + 2 * MM) * u
    gA = gA + uu * (2 * trA * eye + 4 * M)
    # 4 trA q
    gu = gu + 8 * trA * z
    gA = gA + 4 * (q * eye + trA * np.outer(u, u))
    # 8 ‖Mu‖²
    gu = gu + 16 * (M @ z)
    gA = gA + 8 * (np.outer(z, u) + np.outer(u, z))
    # ET2 = v²‖b‖²K2
    bb = b @ b
    gv += 2 * v * bb * k["K2"]
    gb = gb + 2 * v * v * k["K2"] * b
    # 2 v φ,  φ = (uᵀAb)α + ((u·b)trA + 2uᵀMb)Ey
    alpha = P1 * k["Ey"] + 2 * k["B"]
    Ey = k["Ey"]
    Ab = A @ b
    phi = (u @ Ab) * alpha + ((u @ b) * trA + 2 * (u @ (M @ b))) * Ey
    gv += 2 * phi
    gu = gu + 2 * v * (alpha * Ab + Ey * (trA * b + 2 * (M @ b)))
    gb = gb + 2 * v * (alpha * w + Ey * (trA * u + 2 * z))
    gA = gA + 2 * v * (alpha * np.outer(u, b) + Ey * ((u @ b) * eye + np.outer(u, b) + np.outer(b, u)))
    return np.concatenate([gu, [gv], gA.ravel(), gb])


def full_parameter_loss(u, v, A, b, lam, gamma, n, d, sigma_w2, sigma_e2, noise=0.0) -> float:
    r"""Exact MSE of the FULL predictor for :math:`\Lambda=I_d` (not halved).

    :math:`W_V` last row :math:`(u^\top, v)`, :math:`W_{KQ}[:, :d]=[A; b^\top]`;
    :math:`L=L_{red}(vA^\top+bu^\top)+E[(T_1+T_2)^2]` with (:math:`p_i=\lambda^{n+1-i}`,
    :math:`P_1=\sum p_i`, :math:`S_1=\sum p_is_i`, :math:`M=(A+A^\top)/2`)

    .. math::
       E[T_1^2]=(P_1^2-N_0)\|A^\top u\|^2+N_0(\|u\|^2\|A\|_F^2+2\|A^\top u\|^2)
        +2P_1\big((u^\top Au)\operatorname{tr}A+2u^\top MA^\top u\big)
        +\|u\|^2((\operatorname{tr}A)^2+2\operatorname{tr}M^2)+4\operatorname{tr}A\,u^\top Mu+8u^\top M^2u,

       E[T_2^2]=v^2\|b\|^2\Big[(dS_1+\sigma^2P_1)^2+2dR_2+\sum_ip_i^2\big(2(ds_i+\sigma^2)^2+4ds_i^2\big)\Big],

       E[T_1T_2]=v\Big[(u^\top Ab)\big(P_1(dS_1+\sigma^2P_1)+2B\big)+\big((u^\top b)\operatorname{tr}A+2u^\top Mb\big)(dS_1+\sigma^2P_1)\Big],

    :math:`R_2=\sum_{i,j}p_ip_j\gamma^{2|i-j|}s_{\min(i,j)}^2`. The last three terms of :math:`E[T_1^2]` are the
    query token's own contribution. Accepts complex arrays (used for complex-step gradients).

    >>> d = 2; o = optimal_parameters(0.8, 0.9, 6, np.eye(d), 1.0, 0.1)
    >>> abs(full_parameter_loss(np.zeros(d), 1.0, o.Gamma.T, np.zeros(d), 0.8, 0.9, 6, d, 1.0, 0.1) - o.train_error) < 1e-12
    True
    """
    lam, gamma = check_lam(lam), check_gamma(gamma)
    n = check_n_direct(n)
    d = check_int("d", d, minimum=1, maximum=MAX_COUNT)
    sigma_w2, sigma_e2 = check_variance("sigma_w2", sigma_w2), check_variance("sigma_e2", sigma_e2)
    noise = check_variance("noise", noise)
    arrs = {}
    for name, x, shape in (("u", u, (d,)), ("b", b, (d,)), ("A", A, (d, d)), ("v", v, ())):
        if x is None or isinstance(x, (str, bytes, bool, np.bool_)):
            raise ParameterTypeError(f"{name} must be numeric with shape {shape}, got {x!r} ({type(x).__name__})")
        try:
            a = np.asarray(x)
            a = a if np.iscomplexobj(a) else a.astype(float)
        except (TypeError, ValueError):
            raise ParameterTypeError(f"{name} must be numeric with shape {shape}, got {type(x).__name__}") from None
        if a.shape != shape:
            raise ValueError(f"u, b must have shape ({d},) and A shape ({d}, {d}); {name} has shape {a.shape}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"u, v, A and b must have finite entries ({name} does not)")
        arrs[name] = a
    v = arrs["v"][()]
    with np.errstate(over="ignore", invalid="ignore"):
        val = _full_loss(arrs["u"], v, arrs["A"], arrs["b"], _full_consts(lam, gamma, n, d, sigma_w2, sigma_e2, noise))
    if not np.isfinite(val):
        raise ValueError(f"the full-parameter loss is not finite for lam={lam!r}, gamma={gamma!r}, n={n!r}, d={d!r}, "
                         f"sigma_w2={sigma_w2!r}, sigma_e2={sigma_e2!r}, noise={noise!r}, max |u, v, A, b| = "
                         f"{max(float(np.max(np.abs(a))) if np.size(a) else 0.0 for a in arrs.values()):.3g} "
                         "(overflow); use inputs of a smaller magnitude")
    return val if np.iscomplexobj(val) else float(val)


def full_objective(lam, gamma, n, d, sigma_w2, sigma_e2, noise):
    """``(loss, grad, unpack)`` of the full-parameter loss over θ = (u, v, vec A, b) for checked inputs: the loss and
    its analytic gradient (:func:`_full_grad`; the reference route, the complex-step derivative of the loss — exact to
    rounding, the loss being a polynomial in θ — is the test of it, and was the route until issue 23: ~30 times
    slower, the same numbers to ~1e-16 relative)."""
    consts = _full_consts(lam, gamma, n, d, sigma_w2, sigma_e2, noise)

    def unpack(th):
        return th[:d], th[d], th[d + 1:d + 1 + d * d].reshape(d, d), th[d + 1 + d * d:]

    def loss(th):
        u, v, A, b = unpack(th)
        return _full_loss(u, v, A, b, consts)

    def grad(th):
        u, v, A, b = unpack(th)
        return _full_grad(u, v, A, b, consts)
    return loss, grad, unpack


def complex_step_gradient(loss, th) -> np.ndarray:
    r"""The reference route of a gradient of a real-analytic ``loss`` (e.g. the loss of :func:`full_objective`, which
    accepts complex θ): :math:`\partial_kL=\operatorname{Im}L(\theta+ih e_k)/h`, :math:`h=10^{-30}\max(1,\max|\theta|)`
    — exact to rounding (no subtraction), one loss evaluation per coordinate.

    >>> loss, grad, _ = full_objective(0.8, 0.9, 6, 2, 1.0, 0.1, 0.0)
    >>> th = np.linspace(-1, 1, 9)
    >>> bool(np.allclose(complex_step_gradient(loss, th), grad(th), rtol=1e-12, atol=0))
    True
    """
    th = np.asarray(th, dtype=float)
    h = 1e-30 * max(1.0, float(np.max(np.abs(th))))
    g = np.empty(th.size)
    tc = th.astype(complex)
    for k in range(th.size):
        tc[k] = th[k] + 1j * h
        g[k] = loss(tc).imag / h
        tc[k] = th[k]
    return g


def hessian_eigenvalues(grad, th, eps) -> np.ndarray:
    """Eigenvalues of the Hessian at ``th`` by central differences (step ``eps``) of the exact gradient ``grad``."""
    m = th.size
    H = np.empty((m, m))
    for k in range(m):
        e = np.zeros(m)
        e[k] = eps
        H[:, k] = (grad(th + e) - grad(th - e)) / (2 * eps)
    return np.linalg.eigvalsh((H + H.T) / 2)


def full_gradient_flow(lam, gamma, n, d, sigma_w2, sigma_e2, noise=0.0, sigma=0.3, seed=0, t_max=None,
                       n_points=300) -> dict:
    r"""Gradient flow of :func:`full_parameter_loss` over θ = (u, v, A, b) (Λ = I_d) from a random init.

    Gradients analytic (:func:`full_objective`; tested against the complex-step derivative of the loss).
    Init: all entries i.i.d. :math:`\mathcal N(0,\sigma^2\|\Gamma^*\|_F)` (σ relative). Default
    horizon ``t_max = 400/(h_0\|\Gamma^*\|_F)``. Returns the loss gap, ‖Γ − Γ*‖/‖Γ*‖ and ‖u‖, ‖b‖ over
    time, plus the final gradient norm (and the initial one) and the Hessian spectrum at the end point.
    """
    d = check_int("d", d, minimum=1, maximum=MAX_FLOW_DIM)
    sigma = check_real("sigma", sigma, 0.0, MAX_INIT_SCALE, low_open=True)
    n_points = check_int("n_points", n_points, minimum=3, maximum=MAX_FLOW_POINTS)
    sigma_w2, sigma_e2, noise = check_flow_variances(sigma_w2, sigma_e2, noise)
    n = check_n_direct(n)
    lam, gamma = check_lam(lam), check_gamma(gamma)
    seed = check_int("seed", seed, minimum=0)
    if t_max is not None:
        t_max = check_real("t_max", t_max, 0.0, low_open=True)
    opt = optimum(lam, gamma, n, np.eye(d), sigma_w2, sigma_e2, noise)
    gn = float(np.linalg.norm(opt.Gamma))
    r = math.sqrt(gn)
    m = 2 * d + 1 + d * d
    loss, grad, unpack = full_objective(lam, gamma, n, d, sigma_w2, sigma_e2, noise)
    rng = np.random.default_rng(seed)
    th0 = sigma * r * rng.standard_normal(m)
    sm = sums_for(lam, gamma, n, sigma_w2, sigma_e2)
    h0 = sm.A2 + (d + 1) * sm.B + noise * sm.N0
    if t_max is None:
        t_max = 400.0 / (h0 * gn)
    g_init = float(np.linalg.norm(grad(th0)))
    t_eval = np.concatenate(([0.0], np.geomspace(t_max * 1e-6, t_max, n_points - 1)))
    sol = solve_ivp(lambda t, y: -grad(y), (0.0, t_max), th0, method="LSODA", t_eval=t_eval, rtol=1e-10,
                    atol=1e-13 * r)
    if not sol.success:
        raise RuntimeError(f"full gradient flow failed: {sol.message}")
    gaps, dists, un, bn = [], [], [], []
    for th in sol.y.T:
        u, v, A, b = unpack(th)
        gaps.append(float(loss(th)) - opt.train_error)
        dists.append(float(np.linalg.norm(v * A.T + np.outer(b, u) - opt.Gamma)) / gn)
        un.append(float(np.linalg.norm(u)))
        bn.append(float(np.linalg.norm(b)))
    th = sol.y[:, -1]
    hev = hessian_eigenvalues(grad, th, 1e-6 * r)
    return {"times": sol.t, "loss_gap": np.array(gaps), "rel_dist_gamma": np.array(dists), "u_norm": np.array(un),
            "b_norm": np.array(bn), "loss_star": opt.train_error, "t_max": t_max, "theta_final": th,
            "grad_norm_final": float(np.linalg.norm(grad(th))), "grad_norm_initial": g_init,
            "hessian_eigs_final": hev,
            "v_final": float(th[d]), "A_norm_final": float(np.linalg.norm(th[d + 1:d + 1 + d * d]))}


# ------------------------------------------------------------------ spurious critical points of the full loss
def probe_local_minimum(theta, lam, gamma, n, d, sigma_w2, sigma_e2, noise=0.0, radii=(1e-3, 1e-2, 1e-1),
                        directions=200, seed=0) -> dict:
    r"""Random-direction probe of the full loss around ``theta`` = (u, v, A, b) (Λ = I_d).

    For each relative radius r, ``directions`` unit directions e give
    :math:`L(\theta+r\|\theta\|e)-L(\theta)`; returns, per radius, the smallest increase and the
    fraction of non-negative ones (relative tolerance 1e-12 of the loss). A point where no probe
    decreases the loss, the gradient vanishes and the Hessian has no negative eigenvalue beyond
    rounding is a (numerical) local minimum.

    >>> o = optimal_parameters(0.8, 0.9, 6, np.eye(2), 1.0, 0.1)
    >>> th = np.concatenate([np.zeros(2), [1.0], o.Gamma.T.ravel(), np.zeros(2)])
    >>> probe_local_minimum(th, 0.8, 0.9, 6, 2, 1.0, 0.1, directions=20)["0.01"]["fraction_nonnegative"]
    1.0
    """
    d = check_int("d", d, minimum=1, maximum=MAX_FLOW_DIM)
    th = check_array("theta", theta, finite=False)
    m = 2 * d + 1 + d * d
    if th.shape != (m,) or not np.all(np.isfinite(th)):
        raise ValueError(f"theta must be a finite vector of length 2d + 1 + d^2 = {m}, got shape {th.shape}")
    directions = check_int("directions", directions, minimum=1, maximum=10 ** 6)
    radii = check_array("radii", radii, ndim=1, min_size=1)
    if np.any(radii <= 0):
        raise ValueError("radii must be positive")
    check_memory("directions", directions, 16.0 * directions * m, "the probe directions")
    sigma_w2, sigma_e2, noise = (check_variance(k_, v_) for k_, v_ in (("sigma_w2", sigma_w2), ("sigma_e2", sigma_e2),
                                                                        ("noise", noise)))
    k = _full_consts(check_lam(lam), check_gamma(gamma), check_n_direct(n), d, sigma_w2, sigma_e2, noise)

    def loss(t):
        return float(_full_loss(t[:d], t[d], t[d + 1:d + 1 + d * d].reshape(d, d), t[d + 1 + d * d:], k))

    rng = np.random.default_rng(check_int("seed", seed, minimum=0))
    with np.errstate(over="ignore", invalid="ignore"):
        l0 = loss(th)
        scale = max(float(np.linalg.norm(th)), 1e-12)
        out = {}
        for rad in radii.tolist():
            e = rng.standard_normal((directions, m))
            e /= np.linalg.norm(e, axis=1, keepdims=True)
            inc = np.array([loss(th + rad * scale * x) - l0 for x in e])
            ensure_finite([l0, *inc], "the probed full-parameter loss", sigma_w2=sigma_w2, sigma_e2=sigma_e2, noise=noise,
                          radius=rad, max_abs_theta=float(np.max(np.abs(th))))
            out[str(rad)] = {"min_increase": float(inc.min()),
                             "fraction_nonnegative": float(np.mean(inc >= -1e-12 * max(abs(l0), 1e-300)))}
    return out


def classify_full_flow(fr: dict, rel_tol: float = 1e-6, grad_reduction: float = 1e-6) -> str:
    """Status of the end point of :func:`full_gradient_flow`: ``"global"`` (relative loss gap ≤
    ``rel_tol``), ``"critical"`` (gradient reduced by ``grad_reduction`` or more but the gap is larger:
    a spurious critical point) or ``"moving"`` (neither, at the horizon).

    >>> classify_full_flow({"loss_gap": [1.0, 0.0], "loss_star": 1.0, "grad_norm_final": 0.0, "grad_norm_initial": 1.0})
    'global'
    """
    rel_tol = check_real("rel_tol", rel_tol, 0.0)
    grad_reduction = check_real("grad_reduction", grad_reduction, 0.0)
    keys = ("loss_gap", "loss_star", "grad_norm_final", "grad_norm_initial")
    if not hasattr(fr, "keys") or any(k not in fr for k in keys):
        raise ParameterTypeError(f"fr must be the dict returned by full_gradient_flow (keys {list(keys)}), got "
                                 f"{type(fr).__name__}")
    gaps = check_array("fr['loss_gap']", fr["loss_gap"], ndim=1, min_size=1)
    vals = {k: check_real(f"fr['{k}']", fr[k], 0.0) for k in keys[1:]}
    gap = float(gaps[-1])
    if gap <= rel_tol * vals["loss_star"]:
        return "global"
    if vals["grad_norm_final"] <= grad_reduction * vals["grad_norm_initial"]:
        return "critical"
    return "moving"




def search_full_minima(lam, gamma, n, d, sigma_w2, sigma_e2, noise=0.0, starts=8, scales=(0.3, 1.0), seed=0,
                       directions=200) -> list:
    r"""A search for spurious local minima of :func:`full_parameter_loss` (Λ = I_d) where gradient flows are too slow:
    ``starts`` random initialisations θ(0) ~ N(0, s²‖Γ*‖_F) (s cycling through ``scales``) descended by L-BFGS with the
    exact gradient (gtol 1e-13), each end point classified as by :func:`classify_full_flow` (the gradient's reduction
    from θ(0)) and, when critical but not global, certified by the Hessian spectrum and
    :func:`probe_local_minimum`. Returns one row per start (the keys of the landscape rows of the paper).

    >>> rows = search_full_minima(0.8, 0.9, 10, 2, 1.0, 0.1, starts=2, seed=3)
    >>> sorted(rows[0])[:4], rows[0]["method"]
    (['A_norm', 'b_norm', 'd', 'hess_min_rel'], 'L-BFGS')
    """
    d = check_int("d", d, minimum=1, maximum=MAX_FLOW_DIM)
    sigma_w2, sigma_e2, noise = check_flow_variances(sigma_w2, sigma_e2, noise)
    lam, gamma, n = check_lam(lam), check_gamma(gamma), check_n_direct(n)
    starts = check_int("starts", starts, minimum=1, maximum=10_000)
    scales = check_array("scales", scales, ndim=1, min_size=1)
    directions = check_int("directions", directions, minimum=1, maximum=10 ** 6)
    rng = np.random.default_rng(check_int("seed", seed, minimum=0))
    opt = optimum(lam, gamma, n, np.eye(d), sigma_w2, sigma_e2, noise)
    r = math.sqrt(float(np.linalg.norm(opt.Gamma)))
    loss, grad, unpack = full_objective(lam, gamma, n, d, sigma_w2, sigma_e2, noise)
    rows = []
    for k in range(starts):
        s = float(scales[k % scales.size])
        th0 = s * r * rng.standard_normal(2 * d + 1 + d * d)
        res = optimize.minimize(loss, th0, jac=grad, method="L-BFGS-B",
                                options={"maxiter": 20000, "ftol": 1e-16, "gtol": 1e-13, "maxcor": 30})
        th = res.x
        fr = {"loss_gap": [float(loss(th)) - opt.train_error], "loss_star": opt.train_error,
              "grad_norm_final": float(np.linalg.norm(grad(th))), "grad_norm_initial": float(np.linalg.norm(grad(th0)))}
        status = classify_full_flow(fr)
        hev = hessian_eigenvalues(grad, th, 1e-6 * r)
        u, v, A, b = unpack(th)
        row = {"d": d, "sigma": s, "seed_index": k, "status": status, "method": "L-BFGS",
               "rel_gap": fr["loss_gap"][0] / fr["loss_star"], "rel_grad": fr["grad_norm_final"] / fr["grad_norm_initial"],
               "hess_min_rel": float(hev[0] / hev[-1]), "u_norm": float(np.linalg.norm(u)),
               "b_norm": float(np.linalg.norm(b)), "v": float(v), "A_norm": float(np.linalg.norm(A)), "probe": None,
               "iterations": int(res.nit)}
        if status == "critical":
            row["probe"] = probe_local_minimum(th, lam, gamma, n, d, sigma_w2, sigma_e2, noise, directions=directions,
                                               seed=int(rng.integers(2 ** 31)))
        rows.append(row)
    return rows
