r"""Monte Carlo samplers and exact reference values of the paper-004 checks: the moments of Appendix B (the
context statistics u, s of one task, by brute force or by the simulator's projection), the α, τ → ∞ floor with
low-rank tasks, and pure-noise regression (the a₁ = 0 branch as ridge regression on signal-free labels). Each is
an independent route to a number the theory states.
"""
from __future__ import annotations

import math

import numpy as np

from ....models.prompts import context_statistics
from ....models.ridge import fit_prefixes
from ....validate import MAX_COUNT, check_int, check_memory, check_real
from ..generated import nonlinear_moments as NM
from .ranges import MAX_VALUE
from .simulate import WORK_BUDGET
from .teachers import label_moments, teacher
from .teachers import rho_nonlinear  # noqa: F401  (the doctest of rank_floor_sin uses it)

__all__ = ["appendix_b_samples", "rank_floor_sin", "rank_floor_samples", "pure_noise_ridgeless_exact",
           "pure_noise_ridge_samples"]


def appendix_b_samples(f, d, alpha, rho, n, rng, method="direct"):
    r"""Monte Carlo samples of scalar projections of the Appendix-B moments and their exact values.

    One task :math:`w` with :math:`\|w\|^2=d` (ω = 1), ``n`` prompts with contexts of length
    :math:`\ell=\alpha d` built by brute force (``method="direct"``: the ℓ×d inputs are drawn) or by the
    exact projection the simulations use (``method="projected"``, :func:`context_statistics`), a query
    and its label. Returns ``(names, samples (n, k), exact (k,))``; the exact values are the finite-ℓ
    moments of :mod:`theorycheck.papers.nonlinear.derivations.nonlinear_moments` (generated
    :mod:`theorycheck.papers.nonlinear.generated.nonlinear_moments`).
    """
    d = check_int("d", d, minimum=2, maximum=10 ** 6)
    n = check_int("n", n, minimum=2, maximum=MAX_COUNT)
    alpha = check_real("alpha", alpha, low=0.0, low_open=True, high=1e6)
    rho = check_real("rho", rho, low=0.0, high=MAX_VALUE)
    if method not in ("direct", "projected"):
        raise ValueError(f"method must be one of ['direct', 'projected'], got {method!r}")
    ell = max(1, int(round(alpha * d)))
    check_memory("n", n, 8.0 * n * (3 * d + 12), "the prompts' statistics and samples")
    check_memory("alpha", alpha, 8.0 * 3 * ell * (d if method == "direct" else 1), "the context of one prompt")
    m = label_moments(f, rho)
    a1, rf, m22, m31, m4 = m["a1"], m["rho_f"], m["mu22"], m["mu31"], m["mu4"]
    al = ell / d
    _, fn = teacher(f)
    w = rng.standard_normal(d)
    w *= math.sqrt(d) / np.linalg.norm(w)
    U, S = context_statistics(fn, np.tile(w, (n, 1)), ell, rho, rng, method=method, chunk=512)
    xq = rng.standard_normal((n, d)) / math.sqrt(d)
    yq = fn(xq @ w) + math.sqrt(rho) * rng.standard_normal(n)
    what = w / math.sqrt(d)
    uw = U @ w
    cols = {
        "E[y²|w] = ρ_f": (rf, yq ** 2),
        "E[u|w]·w/d = a₁": (a1, uw / d),
        "E[s|w] = ρ_f": (rf, S),
        "E[(wᵀu)²]/d² (a₁² + O(1/ℓ))": (NM.Euu_identity(al, rf) / d + a1 ** 2 + NM.Euu_wwT_over_d(a1, rf, m22, al) / d,
                                        uw ** 2 / d ** 2),
        "E[|P⊥u|²]/(d−1) = ρ_f/α": (NM.Euu_identity(al, rf), (np.sum(U * U, axis=1) - (U @ what) ** 2) / (d - 1)),
        "E[s wᵀu]/d (a₁ρ_f + O(1/ℓ))": (NM.Eus_w(a1, rf, m31, al, d), S * uw / d),
        "E[s²|w] (ρ_f² + O(1/ℓ))": (NM.Ess(rf, m4, al, d), S ** 2),
        "E[y_test x_testᵀu]·(d/d) = a₁²": (a1 * a1, yq * (xq @ w) * uw / d),
        "E[y_test s x_testᵀw] = a₁ρ_f": (a1 * rf, yq * S * (xq @ w)),
    }
    names = list(cols)
    return names, np.column_stack([cols[k][1] for k in names]), np.array([cols[k][0] for k in names], dtype=float)


def rank_floor_sin(r, rho) -> float:
    r"""α, τ → ∞ floor of the sin teacher with rank-r tasks, :math:`C=\frac dr\,\mathrm{diag}(1_r,0)`:
    :math:`\rho+\mathbb E_\sigma[\mathbb E\sin^2(\sigma g)-(\mathbb E\,g\sin(\sigma g))^2]` with
    :math:`\sigma^2=\|w\|^2/d\sim\Gamma(r/2,\,2/r)`, i.e.
    :math:`\rho+\tfrac12-\tfrac12(1+4/r)^{-r/2}-(1+2/r)^{-r/2-1}`; ``r = inf`` gives :math:`\rho_{\rm nl}`.

    >>> abs(rank_floor_sin(math.inf, 0.1) - float(rho_nonlinear("sin", 0.1))) < 1e-15
    True
    """
    r = check_real("r", r, low=0.0, low_open=True, allow_inf=True)
    rho = check_real("rho", rho, low=0.0)
    if math.isinf(r):
        return rho + 0.5 - math.exp(-2) / 2 - math.exp(-1)
    return rho + 0.5 - (1 + 4 / r) ** (-r / 2) / 2 - (1 + 2 / r) ** (-r / 2 - 1)


def rank_floor_samples(f, r, rho, n, rng, nodes: int = 80) -> np.ndarray:
    r"""Monte Carlo samples whose mean is the rank-r floor of :func:`rank_floor_sin` (any teacher):
    draw :math:`\sigma^2\sim\Gamma(r/2,2/r)` and evaluate the inner Gaussian expectations
    :math:`\mathbb E f(\sigma g)^2`, :math:`\mathbb E\,g f(\sigma g)` by ``nodes``-point Gauss–Hermite
    quadrature — an independent route to the same number."""
    r = check_real("r", r, low=0.0, low_open=True)
    rho = check_real("rho", rho, low=0.0, high=MAX_VALUE)
    n = check_int("n", n, minimum=2, maximum=MAX_COUNT)
    nodes = check_int("nodes", nodes, minimum=2, maximum=1000)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    check_memory("n", n, 8.0 * 3 * n * nodes, f"{n} x {nodes} quadrature values")
    _, fn = teacher(f)
    x, wts = np.polynomial.hermite_e.hermegauss(nodes)
    wts = wts / wts.sum()
    sig = np.sqrt(rng.gamma(r / 2, 2 / r, size=n))
    vals = np.broadcast_to(fn(sig[:, None] * x[None, :]), (n, nodes))
    out = rho + (vals ** 2) @ wts - ((vals * x[None, :]) @ wts) ** 2
    if not np.all(np.isfinite(out)):
        raise ValueError(f"the rank-r floor samples are not finite for f = {f!r}, r = {r!r}, rho = {rho!r} "
                         "(the teacher overflows on the quadrature nodes)")
    return out


def pure_noise_ridgeless_exact(p, n, sigma2) -> float:
    r"""Exact finite-sample test error of minimum-norm least squares on signal-free labels with
    i.i.d. Gaussian features (any feature variance): inverse-Wishart means give
    :math:`\sigma^2(1+\frac{n}{p-n-1})` for :math:`n<p-1` and :math:`\sigma^2(1+\frac{p}{n-p-1})` for
    :math:`n>p+1` (``inf`` in between). As :math:`p\to\infty` with :math:`n/p=\tau` this tends to
    :func:`risk_a1_zero` at λ = 0 — an independent route to the boxed formula.

    >>> pure_noise_ridgeless_exact(100, 50, 1.0) == 1 + 50 / 49
    True
    """
    p = check_int("p", p, minimum=1)
    n = check_int("n", n, minimum=1)
    sigma2 = check_real("sigma2", sigma2, low=0.0, high=MAX_VALUE)
    if n < p - 1:
        return sigma2 * (1 + n / (p - n - 1))
    if n > p + 1:
        return sigma2 * (1 + p / (n - p - 1))
    return math.inf


def pure_noise_ridge_samples(p, n, q, sigma2, lam, reps, rng) -> np.ndarray:
    r"""Test errors of ridge regression on signal-free labels (``reps`` independent fits).

    Features :math:`\mathcal N(0,(q/d)I_p)` with :math:`d=\sqrt p`, labels pure noise of variance
    σ², penalty :math:`(n/d)\lambda\|\gamma\|^2` (the paper's convention); the test error of a fit γ is
    :math:`\sigma^2+(q/d)\|\gamma\|^2` exactly. The asymptotic mean is :func:`risk_a1_zero`
    (:math:`\tau=n/p`) and, at finite ratio, ``sigma2 * (1 + ridge_risk_pure_noise(p/n, lam/q))``.
    """
    p = check_int("p", p, minimum=2, maximum=MAX_COUNT)
    n = check_int("n", n, minimum=1, maximum=MAX_COUNT)
    reps = check_int("reps", reps, minimum=2, maximum=MAX_COUNT)
    q = check_real("q", q, low=0.0, low_open=True, high=MAX_VALUE)
    sigma2 = check_real("sigma2", sigma2, low=0.0, high=MAX_VALUE)
    lam = check_real("lam", lam, low=0.0, high=MAX_VALUE)
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    check_memory("p", p, 8.0 * (n * p + min(n, p) ** 2), f"an {n} x {p} design and its kernel")
    work = float(reps) * n * p * min(n, p)
    if work > WORK_BUDGET:
        raise ValueError(f"reps = {reps} fits of {n} x {p} need about {work:.2g} operations, above the work budget "
                         f"{WORK_BUDGET:.0e} of one call; reduce reps (or n, p)")
    d = math.sqrt(p)
    out = np.empty(reps)
    for i in range(reps):
        X = rng.standard_normal((n, p)) * math.sqrt(q / d)
        y = rng.standard_normal(n) * math.sqrt(sigma2)
        gam = fit_prefixes(X, y, [n], d, lam)[0]
        out[i] = sigma2 + (q / d) * float(gam @ gam)
    return out
