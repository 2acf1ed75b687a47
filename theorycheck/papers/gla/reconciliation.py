r"""Reconciliation of the filter numbers of paper 000 (seed lines 58 and 72).

The seed prints three numbers of one experiment — LMS = 0.264 and RLS = 0.256 at γ = 0.8, RLS = 1.29 at
γ = 0.975 (sequence length T = 1000, 10⁴ Monte Carlo runs) — and leaves open everything else the numbers
depend on: σ_w², σ_e², the label noise, the dimension d, the LMS step μ, the RLS forgetting factor β and
its initialisation P₀, how the error is normalised and over which steps it is averaged. Everything here is
declared before any data are computed: the free parameters with their ranges and discrete choices
(:data:`FREE`), the joint targets with their model margin (:data:`TARGETS`), the run sizes and the search
budget (:func:`.settings.reconcile_sizes`, declared with the other run sizes).

The model runs the actual filters (:func:`theorycheck.models.filters.lms_residuals`,
:func:`~theorycheck.models.filters.rls_residuals`) on AR(1) streams drawn once per search from the search's
seed (**common random numbers**: every evaluation sees the same inputs, initial weights, innovations and
label noise). The label of a stream is
:math:`y_t=\sigma_w\,y^{(0)}_t+\sigma_e\,y^{(e)}_t+\sigma\,\varepsilon_t` with
:math:`y^{(0)}_t=x_t^\top\gamma^tz_0` and :math:`y^{(e)}_t=x_t^\top\sum_{s\le t}\gamma^{t-s}z_s` for standard
normal :math:`z`; the filters' estimates are linear in the labels (their gains depend on the inputs only), so
one run of a filter on the three label channels gives its errors for every (σ_w², σ_e², σ²) — exactly, not
approximately. A filter run is therefore remembered per (method, γ, d, μ or β, P₀), in memos the model owns
(:class:`theorycheck.memo.Memo`: bounded, keyed by value, emptied by ``memo.clear_all``), as are its streams.

Windows: ``last step`` (t = T), ``second half`` (t = T/2+1..T, the toolkit's convention C6), ``all steps``
(t = 1..T). The last step is estimated by its conditional mean given the past,
:math:`E[e_T^2\mid\mathcal F_{T-1}]=\|\gamma w_{T-1}-\hat w_{T-1}\|^2+d\sigma_e^2+\sigma^2` (x_T, the innovation
and the label noise are independent of the past and Λ = I): the same mean as :math:`e_T^2` with a much smaller
variance (Rao–Blackwell), so that a run count far below the paper's 10⁴ still pins the last-step error down. Normalisations (per run, of the window mean of the squared a priori error):
``raw``; ``÷ E[y²]`` (by the window mean of :math:`E[y_t^2]=d\,s_t+\sigma^2`); ``÷ d``;
``÷ floor`` (by the irreducible floor :math:`d\sigma_e^2+\sigma^2`); ``− floor`` (the excess over it).
"""
from __future__ import annotations

import math

import numpy as np
from scipy import signal

from ... import memo
from ...models.attention import gla_stream_errors
from ...models.filters import lms_residuals, rls_residuals
from ...reconcile import Parameter, Target
from ...verdicts import Estimate
from . import theory as gla

__all__ = ["FREE", "D_CHOICES", "TARGETS", "MODEL_MARGIN_REL", "GAMMAS", "T", "WINDOWS", "NORMALISATIONS", "FilterModel",
           "DIVERGED", "DIVERGENCE_FACTOR", "MU_GRID", "BETA_GRID", "runs_for", "heldout"]

T = 1000                                       # line 58: sequence length 1000
GAMMAS = (0.8, 0.975)                          # lines 58, 72
#: the paper's own Monte Carlo error (10⁴ runs: ~0.3–1 % of the mean at the per-run spreads we see) and its rounding
#: convention are unknown: 1 % of each stated value is allowed on top of the printed digits and of our own MC error
MODEL_MARGIN_REL = 0.01
TARGETS = [Target("LMS at γ = 0.8", "0.264", MODEL_MARGIN_REL * 0.264),
           Target("RLS at γ = 0.8", "0.256", MODEL_MARGIN_REL * 0.256),
           Target("RLS at γ = 0.975", "1.29", MODEL_MARGIN_REL * 1.29)]
WINDOWS = ("last step", "second half", "all steps")
NORMALISATIONS = ("raw", "÷ E[y²]", "÷ d", "÷ floor", "− floor")
#: a diverged filter (a non-finite error in some run) stands in with this error, far outside every tolerance
DIVERGED = 1e6
#: filter runs kept in memory (least recently used first out): every grid value of μ and β at every d and P₀
#: (≈ 700 runs, ≈ 0.3 MB each at the full size)
MOMENT_CACHE = 1024
#: array bytes of filter runs kept: never the bound (MOMENT_CACHE runs of the largest, 3000 streams at d = 1, are
#: 0.9 GB), a ceiling only
MOMENT_BYTES = 2 ** 30
#: the streams a model keeps (draws, label channels): one entry per (seed, d) — per γ for the channels — for every d
#: of :data:`D_CHOICES`, up to this many array bytes (the largest, the held-out streams at paper scale and d = 20, are
#: ≈ 0.7 GB); a stream evicted is drawn again, the same
STREAM_BYTES = 2 ** 31
_IU = np.triu_indices(3)
#: a filter whose window error in some run exceeds this multiple of the error of predicting 0 has left its stable
#: range: it counts as diverged (its huge, finite errors would otherwise carry a huge Monte Carlo error, which the
#: search's tolerance would absorb)
DIVERGENCE_FACTOR = 100.0
#: the LMS step and RLS forgetting factor are searched on fine grids (each value's filter run is cached and shared
#: by every evaluation that uses it, so the budget buys many evaluations): μ log-spaced by ≈ 21 % from 1e-4 to the
#: mean-square stability bound ≈ 0.2 of d ≈ 8; β with 1 − β log-spaced by ≈ 12 % from 0.2 to 1e-3, and β = 1
MU_GRID = tuple(float(f"{x:.4g}") for x in np.geomspace(1e-4, 0.2, 41))
BETA_GRID = tuple(float(f"{1 - x:.6g}") for x in np.geomspace(0.2, 1e-3, 47)) + (1.0,)

#: the filter dimensions a reader could take (the seed gives none): one search per d (a task each)
D_CHOICES = (1, 2, 5, 10, 20)
FREE = [
    # drift-noise variance: the seed gives none; 1e-4..1 spans "almost static" to "as large as the signal"
    Parameter("sigma_e2", 1e-4, 1.0, log=True),
    # label noise: the seed's model has none (C1); up to half the unit signal variance
    Parameter("noise", 0.0, 0.5),
    # LMS step (grid MU_GRID): from negligible to the mean-square stability bound ≈ 2/(d + 2) of d ≈ 8
    Parameter("mu", choices=MU_GRID),
    # RLS forgetting factor (grid BETA_GRID): below 0.8 the recursion is numerically unstable at d ≥ 5 (window < 5d)
    Parameter("beta", choices=BETA_GRID),
    # filter dimension: the synthetic experiments use d = 10 (line 57); neighbours on both sides
    Parameter("d", choices=D_CHOICES),
    # initial weight variance: unit, or the stationary value σ_e²/(1 − γ²) (then the law of w_t is stationary)
    Parameter("sigma_w2", choices=("1", "stationary")),
    # RLS initialisation P₀ = I/δ: δ = 1 (padasip's default) or δ = 0.01
    Parameter("rls_delta", choices=(1.0, 0.01)),
    Parameter("normalisation", choices=NORMALISATIONS),
    Parameter("window", choices=WINDOWS),
]


def _window_index(window: str) -> slice:
    return {"last step": slice(T - 1, T), "second half": slice(T // 2, T), "all steps": slice(0, T)}[window]


def runs_for(runs: int, d: int) -> int:
    """Streams used at dimension d: ``runs`` at d = 10, scaled by 10/d (the per-run spread of a d-dimensional error
    shrinks like 1/√d, so a fixed run count would leave small d far noisier — and the search would favour noise,
    whose Monte Carlo error widens a target's tolerance). The work per evaluation (runs × d) stays the same."""
    return max(2, int(round(runs * 10 / d)))


def _half_grams(E) -> tuple:
    r"""Per run, the sums over the first and the second half of the steps (t < T/2, t ≥ T/2) of the products of the
    residual channels: ``E (T, R, K)`` → two ``(R, K, K)`` arrays (batched matrix products
    :math:`E_r^\top E_r` over each half); "second half" is the second sum, "all steps" the sum of both."""
    h = T // 2
    with np.errstate(over="ignore", invalid="ignore"):
        return tuple(np.matmul(H.transpose(1, 2, 0), H.transpose(1, 0, 2)) for H in (E[:h], E[h:]))


def _run_key(seed, method, d, param, delta) -> tuple:
    """The key of one filter run: (seed, method, d, μ or β, P₀'s δ for RLS, None for LMS)."""
    return (seed, method, d, float(param), float(delta) if method == "rls" else None)


class FilterModel:
    """``model(params, seed) -> {target: Estimate}`` for :func:`theorycheck.reconcile.reconcile` (see the module
    docstring); :func:`runs_for` (``runs``, d) streams of length :data:`T` per d, the same streams at every
    evaluation (drawn from ``SeedSequence([seed, d])``) and at both γ.

    ``bank``: filter runs computed beforehand by :meth:`bank_part` (other tasks, in parallel), keyed like the
    model's own; a run found there is not computed again, and counts in :attr:`filter_runs` when first used (so the
    count is that of the same search without a bank)."""

    def __init__(self, runs: int, bank: dict | None = None):
        self.runs = float(runs)
        # owned memos (theorycheck.memo): the draws of a (seed, d), the channels of a (seed, γ, d), the label channels
        # of both γ of a (seed, d) (T, R, 6), the per-γ moments of a filter run (least recently used dropped past
        # MOMENT_CACHE)
        n = len(D_CHOICES)
        self._draws = memo.Memo(None, maxsize=n, maxbytes=STREAM_BYTES)
        self._channels = memo.Memo(None, maxsize=n * len(GAMMAS), maxbytes=STREAM_BYTES)
        self._labels = memo.Memo(None, maxsize=n, maxbytes=STREAM_BYTES)
        self._moments = memo.Memo(None, maxsize=MOMENT_CACHE, maxbytes=MOMENT_BYTES)
        self._bank = dict(bank or {})
        self.filter_runs = 0

    @staticmethod
    def grid_keys(seed: int, method: str, d: int) -> list:
        """The keys of every filter run a search at dimension ``d`` can ask for: each μ of :data:`MU_GRID` (LMS), or
        each β of :data:`BETA_GRID` with each RLS initialisation of :data:`FREE` (RLS)."""
        if method == "lms":
            return [_run_key(seed, "lms", d, mu, None) for mu in MU_GRID]
        deltas = next(p.choices for p in FREE if p.name == "rls_delta")
        return [_run_key(seed, "rls", d, b, dl) for b in BETA_GRID for dl in deltas]

    def bank_part(self, seed: int, method: str, d: int, part: int, parts: int) -> dict:
        """The filter runs of slice ``part`` of ``parts`` (contiguous) of :meth:`grid_keys`: ``{key: per-γ
        moments}``, exactly what :meth:`moments` computes and caches."""
        keys = self.grid_keys(seed, method, d)
        n = len(keys)
        out = {}
        for k in keys[part * n // parts:(part + 1) * n // parts]:
            _, _, _, param, delta = k
            out[k] = self._filter_run(seed, method, d, param, 1.0 if delta is None else delta)
        return out

    # ---------------------------------------------------------------- common random numbers
    def draws(self, seed: int, d: int):
        return self._draws.get_or_compute(memo.key(seed, d), lambda: self._draw(seed, d))

    def _draw(self, seed, d):
        rng = np.random.default_rng(np.random.SeedSequence([seed, d]))
        R = runs_for(self.runs, d)
        return {"X": rng.standard_normal((T, R, d)), "z0": rng.standard_normal((R, d)),
                "z": rng.standard_normal((T, R, d)), "eps": rng.standard_normal((T, R))}

    def channels(self, seed: int, gamma: float, d: int):
        """``X (T, R, d)``, the label channels ``(T, R, 3)`` (w₀ part with unit σ_w, drift part with unit σ_e, label
        noise with unit σ) and the channels of the weight :math:`w_{T-1}` ``(R, 3, d)``."""
        return self._channels.get_or_compute(memo.key(seed, gamma, d), lambda: self._channel(seed, gamma, d))

    def _channel(self, seed, gamma, d):
        D = self.draws(seed, d)
        X = D["X"]
        t = np.arange(1, T + 1, dtype=float)
        y0 = np.einsum("trd,rd->tr", X, D["z0"]) * (gamma ** t)[:, None]
        drift = signal.lfilter([1.0], [1.0, -gamma], D["z"], axis=0)      # Σ_{s≤t} γ^{t−s} z_s
        ye = np.einsum("trd,trd->tr", X, drift)
        W = np.stack([gamma ** (T - 1) * D["z0"], drift[T - 2], np.zeros_like(drift[T - 2])], axis=1)
        return X, np.stack([y0, ye, D["eps"]], axis=2), W

    # ---------------------------------------------------------------- filters
    def moments(self, seed, method, gamma, d, param, delta):
        """Per run and window, the 3×3 window means of the products of the channel residuals at ``gamma`` (None:
        diverged). The inputs are shared by both γ, and so is a filter's gain: one filter run on the six label
        channels of both γ serves both."""
        return self._filter_run(seed, method, d, param, delta)[gamma]

    def _filter_run(self, seed, method, d, param, delta) -> dict:
        """The moments of one filter run at each γ (:meth:`moments`), remembered; from the bank when it holds them."""
        k = _run_key(seed, method, d, param, delta)
        return self._moments.get_or_compute(memo.key(*k), lambda: self._run_filter(k, seed, method, d, param, delta))

    def _run_filter(self, k, seed, method, d, param, delta) -> dict:
        self.filter_runs += 1
        if k in self._bank:
            return self._bank.pop(k)
        chans = [self.channels(seed, g, d) for g in GAMMAS]
        X = chans[0][0]
        Yc = self._labels.get_or_compute(memo.key(seed, d), lambda: np.concatenate([c[1] for c in chans], axis=2))
        E, What = (lms_residuals(X, Yc, param, return_estimate=True) if method == "lms" else
                   rls_residuals(X, Yc, param, delta, return_estimate=True))
        del Yc
        G1, G2 = _half_grams(E)
        del E
        h = T // 2
        per_gamma = {}
        for j, (g, (_, _, Wc)) in enumerate(zip(GAMMAS, chans)):
            Wj = What[:, 3 * j:3 * j + 3]
            # a non-finite residual makes a diagonal entry of the "all steps" moments non-finite: checked below
            if not np.all(np.isfinite(Wj)):
                per_gamma[g] = None
                continue
            with np.errstate(over="ignore", invalid="ignore"):
                b = slice(3 * j, 3 * j + 3)                    # the channels of γ
                out = {"second half": G2[:, b, b] / (T - h), "all steps": (G1[:, b, b] + G2[:, b, b]) / T}
                dw = g * Wc - Wj                                  # γ w_{T−1} − ŵ_{T−1}, per channel
                out["last step"] = np.einsum("rkd,rld->rkl", dw, dw)
            out = {w: m[:, _IU[0], _IU[1]] for w, m in out.items()}   # (R, 6): the distinct products
            per_gamma[g] = out if all(np.all(np.isfinite(m)) for m in out.values()) else None
        return per_gamma

    # ---------------------------------------------------------------- the stated quantities
    @staticmethod
    def coefficients(params, gamma):
        sw2 = 1.0 if params["sigma_w2"] == "1" else params["sigma_e2"] / (1.0 - gamma * gamma)
        return np.array([math.sqrt(sw2), math.sqrt(params["sigma_e2"]), math.sqrt(params["noise"])]), sw2

    @staticmethod
    def normaliser(params, gamma, d, sw2):
        """``(divisor, offset)``: a per-run window mean m is reported as (m − offset) / divisor."""
        kind, se2, nz = params["normalisation"], params["sigma_e2"], params["noise"]
        floor = d * se2 + nz
        if kind == "raw":
            return 1.0, 0.0
        if kind == "÷ d":
            return float(d), 0.0
        if kind == "÷ floor":
            return floor, 0.0
        if kind == "− floor":
            return 1.0, floor
        t = np.arange(1, T + 1, dtype=float)[_window_index(params["window"])]
        g2 = gamma * gamma
        s = g2 ** t * sw2 + se2 * (t if g2 == 1.0 else (1.0 - g2 ** t) / (1.0 - g2))
        return float(np.mean(d * s + nz)), 0.0

    def per_run(self, params, seed, method, gamma):
        d = int(params["d"])
        param = params["mu"] if method == "lms" else params["beta"]
        M = self.moments(seed, method, gamma, d, param, params["rls_delta"])
        if M is None:
            return None
        c, sw2 = self.coefficients(params, gamma)
        div, off = self.normaliser(params, gamma, d, sw2)
        cc = np.outer(c, c)
        cc = (cc + cc.T - np.diag(np.diag(cc)))[_IU]                  # weights of the distinct products
        m = M[params["window"]] @ cc
        if params["window"] == "last step":                       # + the innovation and the label noise at t = T
            m = m + d * params["sigma_e2"] + params["noise"]
        zero = self.normaliser(dict(params, normalisation="÷ E[y²]"), gamma, d, sw2)[0]   # error of predicting 0
        if np.any(m > DIVERGENCE_FACTOR * zero):
            return None
        return (m - off) / div

    def __call__(self, params, seed):
        out = {}
        for name, method, gamma in (("LMS at γ = 0.8", "lms", 0.8), ("RLS at γ = 0.8", "rls", 0.8),
                                    ("RLS at γ = 0.975", "rls", 0.975)):
            v = self.per_run(params, seed, method, gamma)
            out[name] = Estimate.exact(DIVERGED, label="diverged") if v is None else Estimate.from_samples(v)
        return out


def heldout(params: dict, seed: int, runs: int) -> dict:
    """Fresh streams (``seed``, independent of the search's) at a fixed setting: per-run normalised window errors
    of LMS, RLS and the single-layer GLA at its exact optimum for prompt length T − 1 (λ*, Γ*; as a streaming
    predictor), at both γ; the same streams for all methods (paired). Returns ``{γ: {method: array or None}}``."""
    fm = FilterModel(runs * int(params["d"]) / 10.0)          # exactly ``runs`` streams at the setting's d
    out = {}
    for gamma in GAMMAS:
        res = {m: fm.per_run(params, seed, m, gamma) for m in ("lms", "rls")}
        d = int(params["d"])
        c, sw2 = fm.coefficients(params, gamma)
        X, Yc, _ = fm.channels(seed, gamma, d)
        Y = Yc @ c
        r = gla.optimal_lambda(gamma, T - 1, d, sw2, params["sigma_e2"], params["noise"], grid_size=201)
        opt = gla.optimal_parameters(r.lam, gamma, T - 1, np.eye(d), sw2, params["sigma_e2"], params["noise"])
        E = gla_stream_errors(X, Y, r.lam, opt.Gamma)
        div, off = fm.normaliser(params, gamma, d, sw2)
        res["gla"] = (E[_window_index(params["window"])].mean(axis=0) - off) / div
        res["gla_lam"] = r.lam
        out[gamma] = res
    return out
