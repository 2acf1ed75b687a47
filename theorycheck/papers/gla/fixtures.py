"""Shared computations of paper 000 (each parameter is one task of the run engine).

* ``filters`` (per γ of the filter experiment): GLA against tuned LMS / RLS and the Kalman filter on
  AR(1) streams of length 1000 (:func:`theorycheck.papers.gla.theory.simulate.simulate_filter_benchmark`).
* ``stack`` (per depth): a multi-layer GLA trained on a fixed training set and evaluated on fresh
  prompts; training and test prompts are the same for every depth (paired comparisons).
* ``landscape`` (per (d, σ)): gradient flows of the exact full-parameter loss from random Gaussian
  initialisations, and a local-minimum certificate for the spurious end points.
* ``reconciled_filters``: the joint search over the unstated parameters of the filter experiment for a setting
  reproducing LMS = 0.264, RLS = 0.256 (γ = 0.8) and RLS = 1.29 (γ = 0.975) together
  (:mod:`.reconciliation`), then LMS, RLS and GLA at the setting found (or the closest one) on fresh streams.
"""
from __future__ import annotations

import numpy as np

from ...models.attention import gla_stack_forward
from ...models.prompts import ar1_drift_prompts
from ...reconcile import reconcile
from . import reconciliation as R
from . import theory as gla
from .registry import claims
from .settings import (BETAS_FULL, BETAS_QUICK, D_EXP, D_STACK, GAMMA_DEPTH, GAMMA_FILTER, LAM_MULTI, MUS_FULL,
                       MUS_QUICK, N_STACK, SE2, STACK_ADAM_LR, STACK_BATCH, STACK_RESTARTS, STACK_GD_LR, STACK_INIT, SW2, T_FILTER, sizes)

__all__ = ["filters", "stack", "landscape", "LANDSCAPE_MODEL", "stack_data", "reconciled_filters"]

# the model of the landscape experiments (the seed gives none for them): the seed's model, Λ = I
LANDSCAPE_MODEL = {"lam": 0.8, "gamma": 0.9, "n": 10, "sigma_w2": 1.0, "sigma_e2": 0.1, "noise": 0.0}


@claims.fixture(params=lambda ctx: list(GAMMA_FILTER))
def filters(ctx, param):
    sz = sizes(ctx)
    mus, betas = (MUS_QUICK, BETAS_QUICK) if ctx.quick else (MUS_FULL, BETAS_FULL)
    return gla.simulate_filter_benchmark(param, D_EXP, T_FILTER, SW2, SE2, 0.0, mus=mus, betas=betas,
                                         runs_scan=sz["filter_runs_scan"], runs_eval=sz["filter_runs_eval"],
                                         seed_scan=ctx.seed_for(f"000-filters/scan/{param}"),
                                         seed_eval=ctx.seed_for(f"000-filters/eval/{param}"))


def stack_data(ctx):
    """The training and test prompts of the depth experiments (same for every depth)."""
    sz = sizes(ctx)
    L = np.eye(D_STACK)
    Xtr, Ytr = ar1_drift_prompts(np.random.default_rng(ctx.seed_for("000-stack/train")), sz["stack_train"],
                                 GAMMA_DEPTH, N_STACK, L, SW2, SE2, 0.0)
    Xte, Yte = ar1_drift_prompts(np.random.default_rng(ctx.seed_for("000-stack/test")), sz["stack_test"],
                                 GAMMA_DEPTH, N_STACK, L, SW2, SE2, 0.0)
    return Xtr, Ytr, Xte, Yte


@claims.fixture(params=lambda ctx: list(sizes(ctx)["stack_depths"]))
def stack(ctx, param):
    sz = sizes(ctx)
    Xtr, Ytr, Xte, Yte = stack_data(ctx)
    def sampler(rng, size):
        return ar1_drift_prompts(rng, size, GAMMA_DEPTH, N_STACK, np.eye(D_STACK), SW2, SE2, 0.0)

    runs, diverged = [], []
    for k in range(STACK_RESTARTS):
        try:
            runs.append(gla.train_gla_stack(param, LAM_MULTI, Xtr, Ytr, adam_steps=sz["stack_adam_steps"],
                                            gd_steps=sz["stack_gd_steps"], adam_lr=STACK_ADAM_LR, gd_lr=STACK_GD_LR,
                                            init_scale=STACK_INIT, seed=ctx.seed_for(f"000-stack/init/{k}"),
                                            normalise=True, sampler=sampler, batch=STACK_BATCH, schedule="cosine"))
        except FloatingPointError as exc:            # recorded, never silently dropped
            diverged.append(str(exc))
    if not runs:
        raise FloatingPointError(f"every restart of the depth-{param} GLA stack diverged: {diverged}")
    run = min(runs, key=lambda r: r.losses[-1])      # best restart by its final training loss (training data only)
    run.config.update({"restarts": STACK_RESTARTS, "diverged_restarts": diverged})
    tr = (gla_stack_forward(Xtr, Ytr, run.lams, run.W_KQs, run.W_Vs, True) - Ytr[:, -1]) ** 2
    te = (gla_stack_forward(Xte, Yte, run.lams, run.W_KQs, run.W_Vs, True) - Yte[:, -1]) ** 2
    return {"depth": param, "train_sq": tr, "test_sq": te, "losses": run.losses, "grad_norms": run.grad_norms,
            "phase_switch": run.phase_switch, "config": run.config, "lams": run.lams}


@claims.fixture(params=lambda ctx: [(d, s) for d in sizes(ctx)["landscape_dims"] for s in sizes(ctx)["landscape_scales"]])
def landscape(ctx, param):
    d, sig = param
    m = LANDSCAPE_MODEL
    sz = sizes(ctx)
    sm = gla.moment_sums(m["lam"], m["gamma"], m["n"], m["sigma_w2"], m["sigma_e2"])
    opt = gla.optimal_parameters(m["lam"], m["gamma"], m["n"], np.eye(d), m["sigma_w2"], m["sigma_e2"], m["noise"])
    gn = float(np.linalg.norm(opt.Gamma))
    t_max = 4000.0 / ((sm.A2 + (d + 1) * sm.B + m["noise"] * sm.N0) * gn)     # 10× the default horizon
    runs = []
    for k in range(sz["landscape_seeds"]):
        fr = gla.full_gradient_flow(m["lam"], m["gamma"], m["n"], d, m["sigma_w2"], m["sigma_e2"], m["noise"], sigma=sig,
                                    t_max=t_max, seed=ctx.seed_for(f"000-landscape/{d}/{sig}/{k}"), n_points=120)
        status = gla.classify_full_flow(fr)
        hev = fr["hessian_eigs_final"]
        row = {"d": d, "sigma": sig, "seed_index": k, "status": status,
               "rel_gap": float(fr["loss_gap"][-1] / fr["loss_star"]),
               "rel_grad": float(fr["grad_norm_final"] / fr["grad_norm_initial"]),
               "hess_min_rel": float(hev[0] / hev[-1]), "u_norm": float(fr["u_norm"][-1]),
               "b_norm": float(fr["b_norm"][-1]), "v": fr["v_final"], "A_norm": fr["A_norm_final"], "probe": None}
        if status == "critical":
            row["probe"] = gla.probe_local_minimum(fr["theta_final"], m["lam"], m["gamma"], m["n"], d, m["sigma_w2"],
                                                   m["sigma_e2"], m["noise"], directions=200,
                                                   seed=ctx.seed_for(f"000-landscape/probe/{d}/{sig}/{k}"))
        runs.append(row)
    return runs


@claims.fixture
def reconciled_filters(ctx):
    sz = R.sizes(ctx.quick)
    model = R.FilterModel(sz["runs"])
    rec = reconcile(model, R.FREE, R.TARGETS, budget=sz["budget"], seed=ctx.seed_for("000-reconcile/search"))
    held = R.heldout(rec.best, ctx.seed_for("000-reconcile/heldout"), sz["heldout_runs"])
    return {"rec": rec, "heldout": held, "sizes": sz, "filter_runs": model.filter_runs}
