r"""Shared simulations of paper 004 (each parameter value is one task of the run engine).

Every fixture simulates the *actual* reduced linear-attention predictor
(:func:`.theory.simulate.simulate_icl_sweep`: context statistics, features
:math:`x_{\rm test}[u^\top,s]`, minimum-norm fit on :math:`n=\tau d^2` prompts, fresh test tasks) and
returns per-trial test errors (plain arrays, picklable). Seeds come from ``ctx.seed_for`` of names that
do not contain the teacher where two teachers must share random numbers (paired designs).

No task runs longer than about 30 s at paper scale on two cores (issue 23): Figure 1's runs are split into
:data:`~.settings.FIG1_BATCHES` batches of trials (each batch its own seed, shared by the three teachers: the trials
of one batch stay paired), Figure 2's runs into one task per (α, κ) (each point had its own seed already),
Figure 1's reconciliation into one search per normalisation (:func:`fig1_reconcile`; its normalisations, target
and model are declared in :mod:`.reconciliation`) and the runs at the two stated noises (:func:`fig1_stated`),
Result 1's d-scan into one task per (configuration, d) (each size had its own seed already: the numbers are
unchanged), the effective-rank simulations into one task per covariance pair (:func:`rank_runs`: the four shared one
seed already).
"""
from __future__ import annotations

import numpy as np

from ...reconcile import Parameter, Target, reconcile
from ...verdicts import Estimate
from . import theory as nl
from .reconciliation import (FIG1_COINCIDE_MODEL_MARGIN, FIG1_COINCIDE_STATED, fig1_normalisations,
                             log_ratio_model)
from .registry import claims
from .settings import (A1ZERO_ALT, A1ZERO_BASE, A1ZERO_ONE_FACTOR, A1ZERO_TAUS, A1ZERO_TEACHERS, ANISO_SPREAD,
                       FIG1, FIG1_BATCHES, FIG1_NOISE_RANGE, FIG1_STATED_NOISES, FIG1_TAUS, FIG2, FIG2_FINITE_KAPPAS, FIG2_KAPPAS,
                       FLOOR_SEARCH_STEPS, RANK, RESULT1_CONFIGS, RHO, sizes)

#: Figure 1 teachers: the sin teacher and the two linear teachers of the legend (noise 0.447 = ρ_nl/a₁², 0.1).
FIG1_TEACHERS = ("sin", "linear-legend", "linear-0.1")


def fig1_teacher(name: str):
    """``(f, ρ)`` of a Figure-1 teacher."""
    a1sq = float(nl.teacher_moments("sin")["a1"]) ** 2
    return {"sin": ("sin", RHO), "linear-legend": ("linear", float(nl.rho_nonlinear("sin", RHO)) / a1sq),
            "linear-0.1": ("linear", RHO)}[name]


def aniso_covariances(d: int) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues of the anisotropic Result 1 configuration: C_train spread evenly over :data:`ANISO_SPREAD`
    (tr C = d, effective rank ∝ d), C_test the same spectrum in reverse order along the axes (misaligned)."""
    ev = np.linspace(*ANISO_SPREAD, d)
    return ev, ev[::-1].copy()


def _result1_params(ctx) -> list[str]:
    return [f"{config}/{d}" for config in RESULT1_CONFIGS for d in sizes(ctx)["ext_ds"]]


@claims.fixture(params=_result1_params)
def result1_scan(ctx, point):
    """Teacher and its Result-1 surrogate (a₁xᵀw, noise ρ_nl) at one size of the d grid (``point`` =
    ``"<config>/<d>"``; each size its own seed, as before the split), common random numbers for the two."""
    config, d = point.rsplit("/", 1)
    f, alpha, kappa, tau = RESULT1_CONFIGS[config]
    sz, d = sizes(ctx), int(d)
    T = dict(zip(sz["ext_ds"], sz["ext_trials"]))[d]
    teachers = {"teacher": (f, RHO), "surrogate": nl.surrogate_teacher(f, RHO)}
    kw = {}
    if "aniso" in config:
        kw["C_train"], kw["C_test"] = aniso_covariances(d)
    res = nl.simulate_teachers(teachers, d, alpha, kappa, [tau], T, ctx.seed_for(f"result1/{config}/{d}"),
                               n_test=sz["ext_ntest"], **kw)
    return {"d": d, **{k: res[k].trial_means[:, 0].copy() for k in ("teacher", "surrogate")}}


def result1_curves(runs: dict) -> dict:
    """The sizes of :func:`result1_scan` joined per configuration (in the order of :data:`RESULT1_CONFIGS`), by
    increasing d: ``{config: {"ds", "teacher", "surrogate"}}`` (per-trial arrays, one per d)."""
    out = {}
    for config in RESULT1_CONFIGS:
        pts = sorted((r for p, r in runs.items() if p.rsplit("/", 1)[0] == config), key=lambda r: r["d"])
        if pts:
            out[config] = {"ds": [r["d"] for r in pts], **{k: [r[k] for r in pts] for k in ("teacher", "surrogate")}}
    return out


@claims.fixture(params=lambda ctx: list(A1ZERO_TEACHERS))
def a1zero_scan(ctx, f):
    """a₁ = 0 teacher at (α, κ) = A1ZERO_BASE, τ ∈ A1ZERO_TAUS (one sweep per trial), over the d grid."""
    sz = sizes(ctx)
    alpha, kappa = A1ZERO_BASE
    out = {"ds": list(sz["ext_ds"]), "taus": list(A1ZERO_TAUS), "trials": []}
    for d, T in zip(sz["ext_ds"], sz["ext_trials"]):
        r = nl.simulate_icl_sweep(f, d, alpha, kappa, list(A1ZERO_TAUS), RHO, trials=T,
                                  seed=ctx.seed_for(f"a1zero/{f}/{d}"), n_test=sz["ext_ntest"])
        out["trials"].append(r.trial_means.copy())
    return out


def _a1zero_alt_params(ctx) -> list[str]:
    return [f"{a:g}/{k:g}" for a, k in (A1ZERO_ALT,) + A1ZERO_ONE_FACTOR]


@claims.fixture(params=_a1zero_alt_params)
def a1zero_alt(ctx, point):
    """He₂ at an alternative (α, κ) (``point`` = ``"<α>/<κ>"``: A1ZERO_ALT, or one factor of A1ZERO_BASE changed),
    τ = 2, over the d grid (independent of a1zero_scan; A1ZERO_ALT keeps its seeds of record)."""
    sz = sizes(ctx)
    alpha, kappa = (float(x) for x in point.split("/"))
    name = "a1zero-alt" if (alpha, kappa) == A1ZERO_ALT else f"a1zero-alt/{point}"
    out = {"ds": list(sz["ext_ds"]), "alpha": alpha, "kappa": kappa, "trials": []}
    for d, T in zip(sz["ext_ds"], sz["ext_trials"]):
        r = nl.simulate_icl_sweep("he2", d, alpha, kappa, [A1ZERO_TAUS[1]], RHO, trials=T,
                                  seed=ctx.seed_for(f"{name}/{d}"), n_test=sz["ext_ntest"])
        out["trials"].append(r.trial_means[:, 0].copy())
    return out


# ------------------------------------------------------------------------------------------ 004-floor's searches
def log_grid(lo, hi, step):
    """ln-spaced grid from lo to hi with ln-steps at most ``step``."""
    n = int(np.ceil(np.log(hi / lo) / step)) + 1
    return np.geomspace(lo, hi, n)


#: The monotonicity searches of 004-floor: the ratio varied, its range, and the ranges of the other two (Result 1).
FLOOR_AXES = {"α": ((0.1, 1000.0), "τ", "κ"), "κ": ((0.1, 1000.0), "τ", "α"), "τ < 1": ((0.05, 0.98), "α", "κ"),
              "τ > 1": ((1.02, 1000.0), "α", "κ")}


def _floor_error(axis, x, u, v):
    """Result 1 (sin) with the varied ratio ``x`` and the other two ``u``, ``v`` (in the order of FLOOR_AXES)."""
    if axis == "α":
        return nl.e_icl_nonlinear("sin", u, x, v, RHO)
    if axis == "κ":
        return nl.e_icl_nonlinear("sin", u, v, x, RHO)
    return nl.e_icl_nonlinear("sin", x, u, v, RHO)


@claims.fixture(params=lambda ctx: list(FLOOR_AXES))
def floor_search(ctx, axis):
    """Does more of one ratio (``axis``) ever raise the error of Result 1 (sin, exact)? At every point (u, v) of a
    ln-grid of the other two ratios (τ ∈ [0.1, 100] without |τ − 1| ≤ 0.02 when τ is one of them, the others
    ∈ [0.1, 100] and ∞ for κ), the error along a ln-grid of the varied ratio; a rise between neighbours beyond
    round-off (1e-12 relative) is a certified counterexample. Returns the counts, every counterexample's (u, v, first
    x at which the error rises) and the largest rise factor max e / e at the first rise."""
    step, ostep = FLOOR_SEARCH_STEPS["quick" if ctx.quick else "full"]
    (lo, hi), uname, vname = FLOOR_AXES[axis]
    xs = log_grid(lo, hi, step)
    us = [u for u in log_grid(0.1, 100.0, ostep) if uname != "τ" or abs(u - 1) > 0.02]
    vs = list(log_grid(0.1, 100.0, ostep)) + ([np.inf] if vname == "κ" else [])
    found, tried, rise = [], 0, []
    for u in us:
        for v in vs:
            e = np.array([_floor_error(axis, x, u, v) for x in xs])
            up = np.diff(e) > 1e-12 * np.abs(e[1:])
            tried += 1
            if np.any(up):
                i = int(np.argmax(up))
                found.append((float(u), float(v), float(xs[i])))
                rise.append(float(np.max(e[i:]) / e[i]))
    return {"axis": axis, "others": (uname, vname), "range": (lo, hi), "step": step, "found": found, "tried": tried,
            "rise": rise}


# ------------------------------------------------------------------------------------------ Figure 1
def _fig1_params(ctx) -> list[str]:
    return [f"{name}/{b}" for name in FIG1_TEACHERS for b in range(FIG1_BATCHES)]


@claims.fixture(params=_fig1_params)
def fig1_runs(ctx, run):
    """One batch of trials of one Figure-1 teacher at the figure's setting over FIG1_TAUS (``run`` =
    ``"<teacher>/<batch>"``); a batch's seed is shared by the three teachers (paired trials)."""
    name, batch = run.split("/")
    sz = sizes(ctx)
    f, rho = fig1_teacher(name)
    r = nl.simulate_icl_sweep(f, sz["fig1_d"], FIG1["alpha"], FIG1["kappa"], list(FIG1_TAUS), rho,
                              trials=sz["fig1_trials"] // FIG1_BATCHES,
                              seed=ctx.seed_for(f"fig1/{sz['fig1_d']}/batch{batch}"), n_test=sz["fig1_ntest"])
    return {"d": sz["fig1_d"], "taus": list(FIG1_TAUS), "rho": rho, "trials": r.trial_means.copy()}


def fig1_curves(runs: dict) -> dict:
    """The batches of :func:`fig1_runs` joined per teacher: ``{teacher: {"d", "taus", "rho", "trials" (T × nτ)}}``,
    trials in batch order (trial i of every teacher shares its random numbers)."""
    out = {}
    for name in FIG1_TEACHERS:
        parts = [runs[f"{name}/{b}"] for b in range(FIG1_BATCHES)]
        out[name] = dict(parts[0], trials=np.concatenate([p["trials"] for p in parts], axis=0))
    return out


# ------------------------------------------------------------------------------------------ Figure 2
def _fig2_params(ctx) -> list[str]:
    return [f"{a}/{k}" for a in FIG2["alphas"] for k in FIG2_KAPPAS]


@claims.fixture(params=_fig2_params)
def fig2_runs(ctx, point):
    """tanh at one (α, κ) of Figure 2 (``point`` = ``"<α>/<κ>"``, τ = α/2), d = fig2_d; independent trials per κ."""
    alpha, kap = point.split("/")
    sz = sizes(ctx)
    a, k = float(alpha), float(kap)
    r = nl.simulate_icl_sweep(FIG2["f"], sz["fig2_d"], a, k, [a / 2], RHO, trials=sz["fig2_trials"],
                              seed=ctx.seed_for(f"fig2/{alpha}/{k}"), n_test=sz["fig2_ntest"])
    return {"d": sz["fig2_d"], "alpha": a, "tau": a / 2, "kappa": k, "trials": r.trial_means[:, 0].copy()}


def fig2_curves(runs: dict) -> dict:
    """The points of :func:`fig2_runs` joined per α: ``{α: {"d", "alpha", "tau", "kappas", "trials" (nκ × T)}}``."""
    out = {}
    for a in FIG2["alphas"]:
        pts = [runs[f"{a}/{k}"] for k in FIG2_KAPPAS]
        out[a] = {"d": pts[0]["d"], "alpha": a, "tau": a / 2, "kappas": list(FIG2_KAPPAS),
                  "trials": np.array([p["trials"] for p in pts])}
    return out


def _fig2_finite_params(ctx) -> list[str]:
    return [f"{a}/{k}" for a in FIG2["alphas"] for k in FIG2_FINITE_KAPPAS]


@claims.fixture(params=_fig2_finite_params)
def fig2_finite_size(ctx, point):
    """tanh at one (α, κ) of Figure 2 at the sizes below the figure's (``fig2_ext_ds``; τ = α/2, α = ℓ/d and κ =
    k/d held fixed): with the figure's own d = 32 runs, the finite-size analysis of its overlay."""
    alpha, kap = point.split("/")
    sz = sizes(ctx)
    a, k = float(alpha), float(kap)
    out = {"ds": list(sz["fig2_ext_ds"]), "alpha": a, "kappa": k, "trials": []}
    for d, T in zip(sz["fig2_ext_ds"], sz["fig2_ext_trials"]):
        r = nl.simulate_icl_sweep(FIG2["f"], d, a, k, [a / 2], RHO, trials=T,
                                  seed=ctx.seed_for(f"fig2-finite/{alpha}/{k}/{d}"), n_test=sz["fig2_ntest"])
        out["trials"].append(r.trial_means[:, 0].copy())
    return out


# ------------------------------------------------------------------------------------------ Figure 1 reconciliation
@claims.fixture(params=lambda ctx: list(fig1_normalisations()))
def fig1_reconcile(ctx, norm):
    """Under the normalisation ``norm``, which linear-teacher noise makes the sin curve (ρ = 0.1) and the linear curve
    coincide at every τ of the grid jointly? (:func:`theorycheck.reconcile.reconcile` over the noise, a log scale on
    FIG1_NOISE_RANGE; the actual model at d = rec_d, rec_trials paired trials.) The three normalisations together
    cover the joint space (noise × normalisation)."""
    sz = sizes(ctx)
    log_ratios, seed = log_ratio_model(ctx, sz["rec_trials"])

    def model(params, s):
        lr = log_ratios(params["noise"], norm)
        return {f"log ratio at τ = {t:g}": Estimate.from_samples(lr[:, i]) for i, t in enumerate(FIG1_TAUS)}

    targets = [Target(f"log ratio at τ = {t:g}", FIG1_COINCIDE_STATED, FIG1_COINCIDE_MODEL_MARGIN) for t in FIG1_TAUS]
    return reconcile(model, [Parameter("noise", *FIG1_NOISE_RANGE, log=True)], targets,
                     budget=sz["rec_budget_each"], seed=seed, fixed={"normalisation": norm})


@claims.fixture
def fig1_stated(ctx):
    """Per-trial mean log ratios of the sin teacher to linear teachers at the legend's (0.447) and the caption's
    (1.447) noise under each normalisation (rec_stated_trials paired trials at d = rec_d)."""
    sz = sizes(ctx)
    log_ratios, _ = log_ratio_model(ctx, sz["rec_stated_trials"])
    stated = {n: {lab: log_ratios(v, n).mean(axis=1) for lab, v in FIG1_STATED_NOISES.items()}
              for n in fig1_normalisations()}
    return {"stated": stated, "d": sz["rec_d"], "stated_trials": sz["rec_stated_trials"], "n_test": sz["rec_ntest"]}


#: The covariance pairs (training, test) of the effective-rank check: isotropic, or rank-1 C = d·e₁e₁ᵀ for the
#: training tasks, the test tasks or both.
RANK_PAIRS = ("isotropic", "both", "training", "test")


@claims.fixture(params=list(RANK_PAIRS))
def rank_runs(ctx, pair):
    """Per-trial test errors of the actual model (sin, d = rank_d, α = 32, τ = 16, κ = ∞) with the covariance pair
    ``pair`` of :data:`RANK_PAIRS`; every pair runs on the same seed (paired trials)."""
    sz = sizes(ctx)
    d = sz["rank_d"]
    iso, one = np.ones(d), np.r_[float(d), np.zeros(d - 1)]
    ctr, cte = {"isotropic": (iso, iso), "both": (one, one), "training": (one, iso), "test": (iso, one)}[pair]
    sim = nl.simulate_icl_sweep(RANK["f"], d, RANK["alpha"], RANK["kappa"], [RANK["tau"]], RHO,
                                trials=sz["rank_trials"], seed=ctx.seed_for("004-effective-rank/sim"),
                                n_test=sz["ntest"], C_train=ctr, C_test=cte)
    return {"C_train": ctr, "C_test": cte, "trials": sim.trial_means[:, 0].copy()}
