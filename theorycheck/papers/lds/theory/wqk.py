r"""Theorem 4.1's optimal scalar :math:`W^*_{QK,11}=(T-2)\,E[y_{T-1}y_TS]/E[y_{T-1}^2S^2]` (paper 001), by five
routes, and the simulated model's best scalar.

:func:`wqk_star` evaluates the ratio of expectations by one of the routes of :data:`ROUTES` (a table of named
functions, chosen by ``method``; ``"auto"`` picks the most exact route the prior allows). The **reference** route
is :data:`REFERENCE_ROUTE` = ``"rao-blackwell"``: the definition itself, valid for every prior — exact per-system
moments (Isserlis on K) averaged over sampled systems; every other route is an exact or semi-exact evaluation of
the same ratio and is tested against it. The *wrong* estimator (the average of per-system optimal scalars,
:func:`per_system_ratio_average`) and the actual attention layer's best scalar by trajectory Monte Carlo
(:func:`simulate_wqk_star`, :func:`wqk_star_batch_mc`) are here too.

>>> from theorycheck.models.dynamics import DiagonalLDSPrior
>>> prior = DiagonalLDSPrior(d=1, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.3)
>>> w = wqk_star(6, prior)
>>> w.method, round(w.value, 6) == round(wqk_star(6, prior, method="quadrature").value, 6)
('polynomial', True)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ....models.attention import attention_predict
from ....models.dynamics import DiagonalLDSPrior, LDSBatch, NonNormalLDSPrior, check_prior, lds_autocovariance
from ....montecarlo import MeanEstimate, from_samples, ratio as mc_ratio, rngs
from ....validate import MAX_COUNT, check_choice, check_int, check_memory, check_real
from ..generated import lds_scalar
from .isserlis import exact_component_average, has_exact_route, moment_functions, wqk_ratio, wqk_star_moments
from .nonnormal import nonnormal_wqk

__all__ = ["WqkStar", "wqk_star", "ROUTES", "REFERENCE_ROUTE", "per_system_ratio_average", "simulate_wqk_star",
           "wqk_star_batch_mc", "theorem_feature", "THEOREM_WQK_UNIT", "THEOREM_WV"]


@dataclass(frozen=True)
class WqkStar:
    """Value of :math:`W^*_{QK,11}` with its standard error (0 for deterministic routes)."""

    value: float
    se: float
    n_systems: int
    method: str
    T: int
    numerator: float = float("nan")     # E[y_{T-1} y_T S] over the prior
    denominator: float = float("nan")   # E[y_{T-1}^2 S^2] over the prior
    extra: dict = field(default_factory=dict)

    def as_dict(self):
        return {"value": self.value, "se": self.se, "n_systems": self.n_systems,
                "method": self.method, "T": self.T, "numerator": self.numerator,
                "denominator": self.denominator, **self.extra}


# ----------------------------------------------------------------------------- the scalar (d = 1) polynomials
def _scalar_poly(T):
    return lds_scalar.POLY.get(T)


def poly_eval_moments(coef, a, sigma0, sigma_w, sigma_v):
    """Evaluate the generated d = 1 polynomials: coef = {'N'|'D': {(i,j,k): [c_0, c_1, ...]}}
    with term  c_m a^{2m} sigma0^{2i} sigma_w^{2j} sigma_v^{2k} / coef['N_scale'|'D_scale'] (a helper: the
    arguments are trusted)."""
    out = {}
    a2 = np.asarray(a, dtype=float) ** 2
    for key in ("N", "D"):
        tot = 0.0
        for (i, j, k), cs in coef[key].items():
            tot = tot + np.polynomial.polynomial.polyval(a2, np.array(cs, dtype=float)) * \
                sigma0 ** (2 * i) * sigma_w ** (2 * j) * sigma_v ** (2 * k)
        out[key] = tot / coef[key + "_scale"]
    return out["N"], out["D"]


def _poly_prior_average(coef, a_max, sigma0, sigma_w, sigma_v):
    """Exact average over a ~ U[-a_max, a_max]:  E[a^{2m}] = a_max^{2m} / (2m + 1)."""
    out = {}
    for key in ("N", "D"):
        tot = 0.0
        for (i, j, k), cs in coef[key].items():
            m = np.arange(len(cs))
            tot += float(np.sum(np.array(cs, dtype=float) * a_max ** (2.0 * m) / (2 * m + 1))) * \
                sigma0 ** (2 * i) * sigma_w ** (2 * j) * sigma_v ** (2 * k)
        out[key] = tot / coef[key + "_scale"]
    return out["N"], out["D"]


def scalar_batch(prior, a):
    """The scalar systems (d = 1, c = 1) with eigenvalues ``a`` and the noise levels of ``prior``, as an
    :class:`~theorycheck.models.dynamics.LDSBatch` (a helper: the arguments are trusted)."""
    a = np.asarray(a, dtype=float)
    B = a.size
    return LDSBatch(a.reshape(B, 1, 1), np.ones((B, 1)),
                    np.full((B, 1, 1), prior.sigma_w ** 2), prior.sigma0, prior.sigma_v)


def _is_scalar_diagonal(prior) -> bool:
    return isinstance(prior, DiagonalLDSPrior) and type(prior) is DiagonalLDSPrior and prior.d == 1


def _need_scalar(prior, method):
    if not _is_scalar_diagonal(prior):
        raise ValueError(f"method={method!r} needs a DiagonalLDSPrior with d = 1, got {prior!r}")


# ----------------------------------------------------------------------------- the routes
def _polynomial_route(T, prior, rtol, n_systems, seed, batch) -> WqkStar:
    """d = 1, setting (a): the generated SymPy polynomials averaged over a ~ U[−a_max, a_max] term by term."""
    _need_scalar(prior, "polynomial")
    coef = _scalar_poly(T)
    if coef is None:
        raise ValueError(f"T must be in the generated range for method='polynomial', got {T}")
    if prior.a_max == 0:
        N, D = poly_eval_moments(coef, 0.0, prior.sigma0, prior.sigma_w, prior.sigma_v)
        N, D = float(N), float(D)
    else:
        N, D = _poly_prior_average(coef, prior.a_max, prior.sigma0, prior.sigma_w, prior.sigma_v)
    return WqkStar(wqk_ratio(T, N, D, "wqk_star"), 0.0, 0, "polynomial", T, N, D)


def _quadrature_route(T, prior, rtol, n_systems, seed, batch) -> WqkStar:
    """d = 1, setting (a): Gauss–Legendre on a with the per-system Isserlis moments, nodes doubled from 16."""
    _need_scalar(prior, "quadrature")
    prev = None
    nodes = 16
    while True:
        x, wts = np.polynomial.legendre.leggauss(nodes)
        a = prior.a_max * x
        Nn, Dn = wqk_star_moments(lds_autocovariance(scalar_batch(prior, a), T))
        N, D = float(wts @ Nn) / 2, float(wts @ Dn) / 2
        val = wqk_ratio(T, N, D, "wqk_star")
        if prev is not None and abs(val - prev) <= rtol * abs(val):
            return WqkStar(val, 0.0, 0, "quadrature", T, N, D, {"nodes": nodes})
        if nodes > 6 * T + 64:
            raise RuntimeError("Gauss-Legendre quadrature did not converge")  # pragma: no cover
        prev = val
        nodes *= 2


def _exact_components_route(T, prior, rtol, n_systems, seed, batch) -> WqkStar:
    """Settings (a), (b), (c) with diagonal Σ_w: :func:`~.isserlis.exact_component_average` of N and D."""
    if not has_exact_route(prior):
        raise ValueError(f"method='exact-components' needs independent components (settings a, b, or c with "
                         f"diagonal Sigma_w), got {prior!r}")
    Nf, Df = moment_functions(T)
    N, D = exact_component_average(T, prior, [(2, Nf), (3, Df)])
    return WqkStar(wqk_ratio(T, N, D, "wqk_star"), 0.0, 0, "exact-components", T, N, D,
                   {"nodes": 3 * T + 2})


def _coupling_rqmc_route(T, prior, rtol, n_systems, seed, batch) -> WqkStar:
    """Setting (d): exact over eigenvalues and noises, RQMC over the coupling matrix (:func:`~.nonnormal_wqk`)."""
    if type(prior) is not NonNormalLDSPrior:
        raise ValueError(f"method='coupling-rqmc' needs a NonNormalLDSPrior (setting d), got {prior!r}")
    total = 8 * 4096 if n_systems is None else n_systems
    if total < 4:
        raise ValueError(f"n_systems must be >= 4 for method='coupling-rqmc' (two scramblings of two points), got "
                         f"{total}")
    per = 2 ** max(1, int(math.ceil(math.log2(max(2, min(batch, total))))))
    reps = max(2, total // per)
    check_memory("batch", per, 8.0 * per * 17 * 3, f"{per} coupling matrices per replicate")
    r = nonnormal_wqk(T, prior, per, reps, seed)
    v = r["values"]
    return WqkStar(float(v.mean()), float(v.std(ddof=1) / math.sqrt(v.size)), reps * r["points"],
                   "coupling-rqmc", T, float(r["N"].mean()), float(r["D"].mean()),
                   {"seed": seed, "batch": r["points"], "batch_ratios": v.tolist(), "replicates": reps,
                    "patterns": r["patterns"]})


def _rao_blackwell_route(T, prior, rtol, n_systems, seed, batch) -> WqkStar:
    """Any prior (the reference): exact per-system moments averaged over sampled systems, in batches, until the
    delta-method relative SE is below ``rtol`` or ``n_systems`` systems were used."""
    n_max = 20_000 if n_systems is None else n_systems
    check_memory("batch", batch, 8.0 * min(batch, n_max) * (T * T + 3 * prior.d * prior.d) * 3,
                 f"the autocovariances of {min(batch, n_max)} systems")
    Ns, Ds = [], []
    used = 0
    rng_list = rngs(seed, math.ceil(n_max / batch))
    for g in rng_list:
        size = min(batch, n_max - used)
        if size <= 0:
            break
        if size < 2 and used == 0:
            size = 2
        Nb, Db = wqk_star_moments(lds_autocovariance(prior.sample(g, size), T))
        Ns.append(Nb)
        Ds.append(Db)
        used += size
        wqk_ratio(T, float(np.mean(np.concatenate(Ns))), float(np.mean(np.concatenate(Ds))), "wqk_star")
        if used >= 2:
            est = mc_ratio(np.concatenate(Ns), np.concatenate(Ds))
            if est.se <= rtol * abs(est.mean):
                break
    Nall, Dall = np.concatenate(Ns), np.concatenate(Ds)
    est = mc_ratio(Nall, Dall)
    # per-batch ratios (T-2) mean(N_b)/mean(D_b): for a batch-means standard error (heavy-tailed
    # per-system moments make the delta-method SE of the whole sample unreliable)
    batch_ratios = [(T - 2) * float(np.mean(n_)) / float(np.mean(d_)) for n_, d_ in zip(Ns, Ds)
                    if n_.size == batch]
    return WqkStar((T - 2) * est.mean, (T - 2) * est.se, Nall.size, "rao-blackwell", T,
                   float(Nall.mean()), float(Dall.mean()), {"seed": seed, "batch": batch,
                                                            "batch_ratios": batch_ratios})


#: The routes of :func:`wqk_star` by name: ``route(T, prior, rtol, n_systems, seed, batch) -> WqkStar`` (arguments
#: validated once by :func:`wqk_star`; a route checks only what is specific to it, e.g. the prior it needs).
ROUTES = {"polynomial": _polynomial_route, "quadrature": _quadrature_route,
          "exact-components": _exact_components_route, "coupling-rqmc": _coupling_rqmc_route,
          "rao-blackwell": _rao_blackwell_route}
#: The route every other route is checked against: valid for every prior, the definition by sampled systems.
REFERENCE_ROUTE = "rao-blackwell"


def _auto_route(T, prior) -> str:
    """Polynomial (d = 1, setting a, T generated), else exact-components (settings a, b, c), else coupling-rqmc
    (setting d), else the reference route."""
    if _is_scalar_diagonal(prior) and _scalar_poly(T) is not None:
        return "polynomial"
    if has_exact_route(prior):
        return "exact-components"
    return "coupling-rqmc" if type(prior) is NonNormalLDSPrior else REFERENCE_ROUTE


def wqk_star(T: int, prior, rtol: float = 1e-6, method: str = "auto", n_systems: int | None = None,
             seed: int = 0, batch: int = 2000) -> WqkStar:
    r""":math:`W^*_{QK,11}=(T-2)\,E[y_{T-1}y_TS]/E[y_{T-1}^2S^2]`, :math:`S=\sum_{i=1}^{T-2}y_iy_{i+1}`,
    both expectations over noise and system prior (ratio of expectations).

    Routes (``method``, :data:`ROUTES`):

    * ``"polynomial"`` (d = 1, setting (a), T in the generated range): per-system moments are the
      SymPy-derived polynomials in :math:`a^2` (``theorycheck.papers.lds.generated.lds_scalar``), averaged over
      :math:`a\sim U[-a_{\max},a_{\max}]` term by term (:math:`E a^{2m}=a_{\max}^{2m}/(2m+1)`): exact
      up to floating-point rounding.
    * ``"quadrature"`` (d = 1, setting (a)): Gauss–Legendre on :math:`a` with the per-system
      moments from :func:`theorycheck.gaussian.expect_product`; nodes doubled from 16 until the
      relative change is below ``rtol`` (both moments are polynomials of degree ≤ 6T in a, so
      3T + 1 nodes are already exact).
    * ``"rao-blackwell"`` (any prior; the reference route, :data:`REFERENCE_ROUTE`): exact per-system moments
      (Isserlis on K) averaged over sampled systems, in batches of ``batch`` until the delta-method relative SE is
      below ``rtol`` or ``n_systems`` systems (default 20 000) were used; ``se`` is the delta-method SE
      (:func:`theorycheck.montecarlo.ratio`).

    * ``"exact-components"`` (settings (a) and (c) with diagonal :math:`\Sigma_w`, any d): y is a
      sum of independent scalar components; the quadratic/cubic moment forms are expanded by
      multilinearity and independence into one-dimensional Gauss–Legendre averages (see
      :func:`~theorycheck.papers.lds.theory.isserlis.exact_component_average`): exact up to rounding, no sampling.

    * ``"coupling-rqmc"`` (setting (d)): exact over the eigenvalues and the noise, randomised quasi-Monte Carlo
      over the coupling matrix P (:func:`~theorycheck.papers.lds.theory.nonnormal.nonnormal_wqk`): ``n_systems``
      coupling matrices in scramblings of ``batch`` (rounded up to a power of two) Sobol points; ``se`` from the
      independent scramblings (``extra["batch_ratios"]``, Student t with replicates − 1 df); computed with one BLAS
      thread.

    ``"auto"``: polynomial, else exact-components (settings a, b, c), else coupling-rqmc (setting d), else
    Rao-Blackwell.
    """
    T = check_int("T", T, minimum=3, maximum=400)
    prior = check_prior(prior)
    rtol = check_real("rtol", rtol, 0.0, 1.0, low_open=True)
    check_choice("method", method, ("auto",) + tuple(ROUTES))
    seed = check_int("seed", seed, minimum=0)
    batch = check_int("batch", batch, minimum=2, maximum=MAX_COUNT)
    if n_systems is not None:
        n_systems = check_int("n_systems", n_systems, minimum=2, maximum=MAX_COUNT)
    if method == "auto":
        method = _auto_route(T, prior)
    return ROUTES[method](T, prior, rtol, n_systems, seed, batch)


def per_system_ratio_average(T: int, prior, n_systems: int = 20_000, seed: int = 0) -> MeanEstimate:
    r"""The *wrong* estimator :math:`E_{sys}[(T-2)N(A)/D(A)]` (average of per-system optimal
    scalars), with its Monte Carlo SE over sampled systems — for comparison with
    :func:`wqk_star`."""
    T = check_int("T", T, minimum=3, maximum=400)
    prior = check_prior(prior)
    n_systems = check_int("n_systems", n_systems, minimum=2, maximum=MAX_COUNT)
    vals = []
    left = n_systems
    for g in rngs(check_int("seed", seed, minimum=0), math.ceil(n_systems / 2000)):
        size = min(2000, left)
        N, D = wqk_star_moments(lds_autocovariance(prior.sample(g, size), T))
        if np.any(D <= 0):
            raise ValueError("per_system_ratio_average: a system has E[y_(T-1)^2 S^2] = 0 (y = 0)")
        vals.append((T - 2) * N / D)
        left -= size
    return from_samples(np.concatenate(vals), seed=seed)


def theorem_feature(Y) -> np.ndarray:
    r"""The simulated layer's output along the Theorem 4.1 direction at unit scale, :math:`f=\hat y_T` with
    :math:`W_{QK}=e_1e_1^\top`, :math:`W_V=e_2e_2^\top` (so :math:`f=y_{T-1}S/(T-2)` and the layer with
    :math:`W_{QK}=c\,e_1e_1^\top` predicts :math:`cf`), for trajectories ``Y`` (B, T).

    >>> theorem_feature(np.array([[1.0, 2.0, 3.0, 4.0, 5.0]]))       # y_4 (y_1y_2 + y_2y_3 + y_3y_4) / 3
    array([26.66666667])
    """
    return attention_predict(THEOREM_WQK_UNIT, THEOREM_WV, Y)


#: Theorem 4.1's weights at unit scale: W_QK = e₁e₁ᵀ (times W* at the optimum), W_V = e₂e₂ᵀ.
THEOREM_WQK_UNIT = np.array([[1.0, 0.0], [0.0, 0.0]])
THEOREM_WV = np.array([[0.0, 0.0], [0.0, 1.0]])
THEOREM_WQK_UNIT.setflags(write=False)
THEOREM_WV.setflags(write=False)


def simulate_wqk_star(T: int, prior, samples: int, seed: int, batch: int = 20_000) -> WqkStar:
    r"""Plain trajectory Monte Carlo of :math:`W^*_{QK,11}`: sample a system and one trajectory per
    sample, run the attention with :math:`W_{QK}=e_1e_1^\top`, :math:`W_V=e_2e_2^\top`
    (so :math:`f=\hat y_T=y_{T-1}S/(T-2)`), and return the least-squares scalar
    :math:`E[y_Tf]/E[f^2]` (identical to the Theorem 4.1 ratio) with its delta-method SE."""
    T = check_int("T", T, minimum=3, maximum=400)
    prior = check_prior(prior)
    samples = check_int("samples", samples, minimum=2, maximum=MAX_COUNT)
    seed = check_int("seed", seed, minimum=0)
    batch = check_int("batch", batch, minimum=1, maximum=MAX_COUNT)
    check_memory("batch", batch, 8.0 * min(batch, samples) * (8 * T + 3 * prior.d * prior.d),
                 f"a batch of {min(batch, samples)} trajectories")
    num, den = [], []
    left = samples
    for g in rngs(seed, math.ceil(samples / batch)):
        size = min(batch, left)
        Y = prior.sample(g, size).simulate(T, g)
        f = theorem_feature(Y)
        num.append(Y[:, -1] * f)
        den.append(f * f)
        left -= size
    if not np.any(np.concatenate(den) > 0):
        raise ValueError("simulate_wqk_star: every simulated feature is 0 (the prior gives y = 0); "
                         "sigma0, sigma_w, sigma_v must not all be 0")
    est = mc_ratio(np.concatenate(num), np.concatenate(den))
    return WqkStar(est.mean, est.se, samples, "trajectory-mc", T,
                   float(np.mean(np.concatenate(num))), float(np.mean(np.concatenate(den))),
                   {"seed": seed, "batch": batch})


def wqk_star_batch_mc(T: int, prior, n_batches: int, batch: int, seed: int, systems: LDSBatch | None = None) -> dict:
    r"""Trajectory Monte Carlo of the best scalar of the *actual* attention model along the
    Theorem 4.1 direction (:math:`W_{QK}=c\,e_1e_1^\top`, :math:`W_V=e_2e_2^\top`): per batch of
    ``batch`` fresh (system, trajectory) pairs, the least-squares scalar
    :math:`\sum_b y_Tf/\sum_b f^2` with :math:`f` the attention output at :math:`c=1`.

    Returns ``{"value": pooled ratio, "batch_values": per-batch ratios, "n": samples}`` — the batch
    values give a batch-means standard error (Student t, B − 1 df), robust to the heavy tails of the
    6th-order products (a delta-method SE over single samples is anti-conservative here). With
    ``systems`` (an :class:`LDSBatch`) every batch simulates one fresh trajectory of each of those
    systems instead of sampling systems from the prior: the target is then the ratio of expectations
    over that finite family (``batch`` is ignored).

    >>> r = wqk_star_batch_mc(6, DiagonalLDSPrior(1, 0.9, 1.0, 0.5, 0.3), 4, 500, 1)
    >>> len(r["batch_values"]), r["n"]
    (4, 2000)
    """
    T = check_int("T", T, minimum=3, maximum=400)
    prior = check_prior(prior)
    n_batches = check_int("n_batches", n_batches, minimum=2, maximum=MAX_COUNT)
    batch = check_int("batch", batch, minimum=2, maximum=MAX_COUNT)
    seed = check_int("seed", seed, minimum=0)
    per = batch if systems is None else (len(systems) if isinstance(systems, LDSBatch) else 0)
    check_memory("batch", batch, 8.0 * per * (8 * T + 3 * prior.d * prior.d), f"a batch of {per} trajectories")
    if systems is not None and not isinstance(systems, LDSBatch):
        raise ValueError(f"systems must be an LDSBatch or None, got {type(systems).__name__}")
    num, den = [], []
    for g in rngs(seed, n_batches):
        Y = (prior.sample(g, batch) if systems is None else systems).simulate(T, g)
        f = theorem_feature(Y)
        num.append(float(np.sum(Y[:, -1] * f)))
        den.append(float(np.sum(f * f)))
    num, den = np.array(num), np.array(den)
    if np.any(den <= 0):
        raise ValueError("wqk_star_batch_mc: a batch has f = 0 everywhere (the prior gives y = 0)")
    per = batch if systems is None else len(systems)
    return {"value": float(num.sum() / den.sum()), "batch_values": num / den, "n": n_batches * per}

