r"""Shared computations of paper 001, each an independent task of the run engine.

``training``
    one task per training run ``"<setting>:<s>:<seed index>:<free|masked>"``
    (:func:`~theorycheck.papers.lds.settings.run_keys`): one-layer linear attention trained with
    :func:`theorycheck.models.training.train_linear_attention` on fresh LDS batches; ``masked`` runs keep every
    weight outside the Lemma 4.1 support at 0. Masked run i uses the seed of free run i of the same
    window (common random numbers).
``ar2_moments``
    exact (Isserlis, exact prior average) feature moments of the AR(2) attention in setting (a):
    the stationarity right-hand side, the Gram matrix of the 12 features and :math:`E y_T^2`.
``gap_profiles``
    per setting, sampled systems' Kalman MSE, oracle AR(s) gaps and closed-loop spectral radii.
``pcg_reconciliation``
    the joint search over the unstated readings of the PCG numbers of seed line 70 on the trained AR(4) weights
    (:func:`theorycheck.papers.lds.reconciliation.pcg_reconcile`), with the per-seed values at the closest reading.
``recipe_runs``
    one task per point of the declared training-recipe grid (:func:`~theorycheck.papers.lds.reconciliation.recipe_grid`):
    one AR(1) and one AR(2) run of setting (a) with the statistics of Theorem 4.1 and Lemma 4.1.
"""
from __future__ import annotations

import numpy as np

from ...models.filters import steady_state_closed_loop_radius
from ...models.training import train_linear_attention
from . import reconciliation as rc
from .registry import claims
from .settings import RECIPE, SETTINGS, config, parse_key, prior, recipe_chosen, run_keys, train_size
from .theory.stationarity import stationarity_moments
from .theory.support import ar_gaps, support_masks
from .theory.wqk import wqk_star


def mask_for(s: int) -> tuple[np.ndarray, np.ndarray]:
    """Boolean masks (W_QK, W_V) of the Lemma 4.1 support (the Theorem 4.1 parity branch):
    :func:`~theorycheck.papers.lds.theory.support.support_masks`."""
    return support_masks(s)


def train_seed(ctx, setting: str, s: int, i: int) -> int:
    return ctx.seed_for(f"train-{setting}-s{s}-{i}")


@claims.fixture(params=lambda ctx: run_keys(config(ctx)))
def training(ctx, key):
    """One training run (see the module docstring)."""
    cfg = config(ctx)
    st, s, i, kind = parse_key(key)
    steps, batch = train_size(cfg, st, s)
    if kind == "masked":
        steps = cfg["masked_steps"]
    lr = RECIPE["lr_ar1"] if s == 1 else RECIPE["lr"]
    seed = train_seed(ctx, st, s, i)
    res = train_linear_attention(cfg["train_T"], s, prior(st), steps=steps, batch=batch, seed=seed, lr=lr,
                                     weight_decay=0.0, clip=None, schedule="cosine", init_scale=0.1,
                                     support=mask_for(s) if kind == "masked" else None)
    return {"W_QK": res.W_QK, "W_V": res.W_V, "final_train_loss": float(np.mean(res.losses[-max(1, steps // 20):])),
            "steps": steps, "batch": batch, "seed": seed, "lr": lr, "T": cfg["train_T"]}


@claims.fixture
def ar2_moments(ctx):
    """Exact feature moments of the AR(2) attention, setting (a), horizon ``config['T']``."""
    T = config(ctx)["T"]
    m = stationarity_moments(T, 2, prior("a"), gram=True)
    return {"T": T, "R": m["R"], "gram": m["gram"], "b": m["b"], "Eyy": m["Eyy"],
            "features": [tuple(f) for f in m["features"]], "method": m["method"]}


@claims.fixture
def gap_profiles(ctx):
    """Kalman MSE, oracle AR(s) gaps (s = 1..gap_s_max) and ρ(A − Lcᵀ) of sampled systems, per setting."""
    cfg = config(ctx)
    T, n = cfg["T"], cfg["gap_systems"]
    svals = list(range(1, cfg["gap_s_max"] + 1))
    out = {"T": T, "s_values": svals, "n_systems": n}
    for st in SETTINGS:
        sysm = prior(st).sample(np.random.default_rng(ctx.seed_for(f"gaps-{st}")), n)
        kf, gaps = ar_gaps(sysm, T, svals)
        out[st] = {"kf": kf, "gaps": gaps, "rho": steady_state_closed_loop_radius(sysm)}
    return out


def runs_of(training: dict, setting: str, s: int, kind: str = "free") -> list[dict]:
    """The runs of one (setting, window, kind), ordered by seed index."""
    sel = sorted((parse_key(k)[2], v) for k, v in training.items()
                 if parse_key(k)[:2] == (setting, s) and parse_key(k)[3] == kind)
    return [v for _, v in sel]


@claims.fixture(needs=("training",))
def pcg_reconciliation(ctx, training):
    """The reconciliation of the three PCG numbers (line 70) and the per-seed values at its closest reading."""
    cfg = config(ctx)
    weights = {st: [(r["W_QK"], r["W_V"]) for r in runs_of(training, st, 4)] for st in ("a", "b")}

    def prompts(st, seed):                       # the test prompts of one seed (search: one seed for every reading)
        g = np.random.default_rng(seed)
        return prior(st).sample(g, cfg["pcg_n"]).simulate(cfg["train_T"], g)
    fixed = {"training": ", ".join(f"{k} = {v}" for k, v in recipe_chosen(cfg, "a", 4).items() if k != "prior"),
             "seeds": {st: len(weights[st]) for st in weights}, "test prompts": cfg["pcg_n"]}
    rec, model = rc.pcg_reconcile(weights, prompts, ctx.seed_for("pcg-reconcile"), fixed)
    best = rec.best
    sts = {"a": ("a",), "b": ("b",), "a and b": ("a", "b")}[best["setting of −0.99"]]
    return {"rec": rec, "cos": {st: model.per_seed(best, st, "cos") for st in ("a", "b")},
            "p": {st: model.per_seed(best, st, "p") for st in sts}}


@claims.fixture(params=lambda ctx: rc.recipe_grid(ctx.quick))
def recipe_runs(ctx, label):
    """One point of the training-recipe grid (same seed at every point: common random numbers)."""
    cfg = config(ctx)
    T = cfg["train_T"]
    w = wqk_star(T, prior("a")).value
    out = rc.recipe_point(label, T, cfg["recipe_batch"], ctx.seed_for("recipe-grid"), w, prior("a"))
    out.update(T=T, batch=cfg["recipe_batch"], W_star=w)
    return out
