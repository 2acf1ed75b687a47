r"""Shared computations of paper 001, each an independent task of the run engine.

``training``
    one task per training run ``"<setting>:<s>:<seed index>:<free|masked>"``
    (:func:`~theorycheck.papers.lds.settings.run_keys`): one-layer linear attention trained with
    :func:`theorycheck.models.training.train_linear_attention` on fresh LDS batches; ``masked`` runs keep every
    weight outside the Lemma 4.1 support at 0. Masked run i uses the seed of free run i of the same
    window (common random numbers). A run is a chain of two tasks: ``training_head`` (the first half of its steps,
    returning the run's state) and ``training``, which resumes from it — the uninterrupted run's result bit for bit
    (``until``/``resume`` of the trainer), and no task longer than half a run.
``optimum_moments``
    one task per window s: the exact feature moments of setting (a) at T = config['T'] (a task of its own: s = 4
    costs ~10 s).
``exact_optima``
    one task per window s: a multi-start minimisation of the exact population loss over all loss-relevant weights and
    inside each parity branch of Lemma 4.1, the exact best losses of the restricted families (the layer without the
    Krylov term's features, one preconditioned GD step), and the optimum's predictor on fresh prompts.
``corner_optima``
    one task per (window, corner of the admissible prior box): the same at that corner (short multi-start), for the
    extent of the Krylov term's share and of p's alignment.
``support_polish``
    one task per trained (setting, window s ≥ 2): L-BFGS on the exact loss from every trained run's weights (does the
    run sit in the basin of a minimum off the Lemma 4.1 pattern?).
``branch_flow``
    one task per initial scale: exact-loss Adam from random initialisations at every learning rate of the grid (which
    AR(1) branch the gradient route reaches without minibatch noise).
``negligible_box``
    one task per eigenvalue bound a_max: the s = 4 truncation bias relative to the Kalman MSE at the σ corners of the
    admissible prior box.
``bias_profiles``
    one task per setting: the steady-state Kalman truncation bias and stationary AR(s) gaps of sampled systems.
``ratio_setting``
    one task per setting: the evidence of Theorem 4.1's ratio of expectations (W* by its route and the linear
    self-check of W*).
``ratio_heldout``
    one task per setting a, b: the per-system average and the paired held-out losses of the same claim.
``ratio_acov``
    one task per setting: the autocovariance self-check of the same claim (simulated second moments of three sampled
    systems; split from ``ratio_setting`` so that no task is longer than 30 s at paper scale).
``pcg_reconciliation``
    the joint search over the unstated readings of the PCG numbers of seed line 70 on the trained AR(4) weights
    (:func:`theorycheck.papers.lds.reconciliation.pcg_reconcile`), with the per-seed values at the closest reading.
``recipe_runs``
    one task per point of the declared training-recipe grid (:func:`~theorycheck.papers.lds.reconciliation.recipe_grid`):
    one AR(1) and one AR(2) run of setting (a) with the statistics of Theorem 4.1 and Lemma 4.1.
``kf_test``
    the common test set of setting (a) at the training horizon: the trained attention's per-prompt squared errors for
    every trained window, the exact Kalman MSE of each prompt's system and the baselines of the Kalman figure.
"""
from __future__ import annotations

import itertools

import numpy as np

from ...models.attention import attention_predict
from ...models.dynamics import make_prior
from ...models.filters import kalman_one_step_mse, oracle_ar_mse, steady_state_closed_loop_radius
from ...models.training import train_linear_attention
from ...verdicts import Estimate
from . import reconciliation as rc
from .registry import claims
from .settings import (PRIOR_DEFAULTS, PRIOR_PARAMS, RECIPE, SETTINGS, config, corner_priors, parse_key, prior,
                       recipe_chosen, rng_for, run_keys, test_set, train_size)
from .theory.ablation import family_losses, realising_weights
from .theory.gd import ar_least_squares_predict, exact_halved_loss
from .theory.isserlis import wqk_star_moments
from .theory.kalman import truncation_profile
from .theory.optimum import (adam_on_exact_loss, loss_and_gradient, minimise, point_of, polish, theorem_branch_shares,
                             weights_of)
from .theory.pcg import pcg_diagnostics, pcg_quantities, random_direction_abs_cosine
from .theory.stationarity import autocovariance_batch_mc, stationarity_moments
from .theory.support import ar_gaps, offpattern_energy, support_masks
from .theory.wqk import per_system_ratio_average, theorem_feature, wqk_star


def mask_for(s: int) -> tuple[np.ndarray, np.ndarray]:
    """Boolean masks (W_QK, W_V) of the Lemma 4.1 support (the Theorem 4.1 parity branch):
    :func:`~theorycheck.papers.lds.theory.support.support_masks`."""
    return support_masks(s)


def train_seed(ctx, setting: str, s: int, i: int) -> int:
    return ctx.seed_for(f"train-{setting}-s{s}-{i}")


def _run(ctx, key, head=False, resume=None):
    """``(result, steps, batch, seed, lr, T)`` of training run ``key``: its first half (``head``: the result's state
    is the one to resume from), or the run resumed from the state ``resume``."""
    cfg = config(ctx)
    st, s, i, kind = parse_key(key)
    steps, batch = train_size(cfg, st, s)
    if kind == "masked":
        steps = cfg["masked_steps"]
    piece = {"until": max(1, steps // 2)} if head else {"resume": resume}
    lr = RECIPE["lr_ar1"] if s == 1 else RECIPE["lr"]
    seed = train_seed(ctx, st, s, i)
    res = train_linear_attention(cfg["train_T"], s, prior(st), steps=steps, batch=batch, seed=seed, lr=lr,
                                 weight_decay=0.0, clip=None, schedule="cosine", init_scale=0.1,
                                 support=mask_for(s) if kind == "masked" else None, **piece)
    return res, steps, batch, seed, lr, cfg["train_T"]


@claims.fixture(params=lambda ctx: run_keys(config(ctx)))
def training_head(ctx, key):
    """The first half of the steps of one training run: its state, to resume from (see the module docstring)."""
    return _run(ctx, key, head=True)[0].state


@claims.fixture(params=lambda ctx: run_keys(config(ctx)), needs=("training_head",),
                select={"training_head": lambda p, q: q == p})
def training(ctx, key, training_head):
    """One training run, resumed from its first half (see the module docstring)."""
    res, steps, batch, seed, lr, T = _run(ctx, key, resume=training_head[key])
    return {"W_QK": res.W_QK, "W_V": res.W_V, "final_train_loss": float(np.mean(res.losses[-max(1, steps // 20):])),
            "steps": steps, "batch": batch, "seed": seed, "lr": lr, "T": T}


def ar2_moments(ctx):
    """Exact feature moments of the AR(2) attention, setting (a), horizon ``config['T']`` (a fixture until the
    re-audit of issue 21; the claims now take the moments from :func:`exact_optima`)."""
    T = config(ctx)["T"]
    m = stationarity_moments(T, 2, prior("a"), gram=True)
    return {"T": T, "R": m["R"], "gram": m["gram"], "b": m["b"], "Eyy": m["Eyy"],
            "features": [tuple(f) for f in m["features"]], "method": m["method"]}


def gap_profiles(ctx):
    """Kalman MSE, oracle AR(s) gaps (s = 1..gap_s_max, finite horizon T) and ρ(A − Lcᵀ) of sampled systems, per
    setting (a fixture until the re-audit of issue 21; the claims now use the stationary :func:`bias_profiles`)."""
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
    summ = np.median if best["averaging"].startswith("median") else np.mean
    baselines = {}
    for st in ("a", "b"):                  # the trivial alternatives, on the same fresh prompts as the check
        d = [pcg_diagnostics(W, V, prompts(st, rec.verify_seed)) for W, V in weights[st]]
        baselines[st] = {"gd": [float(summ(x["cos_att_gd"])) for x in d], "ls": [float(summ(x["cos_att_ls"])) for x in d],
                         "illcond": [float(np.mean(x["cos_p_illcond"])) for x in d],
                         "loss_gain": [float(np.mean(x["loss_without_p"] - x["loss_with_p"])) for x in d],
                         "asymmetry": [x["asymmetry"] for x in d]}
    return {"rec": rec, "cos": {st: model.per_seed(best, st, "cos") for st in ("a", "b")},
            "p": {st: model.per_seed(best, st, "p") for st in sts}, "baselines": baselines,
            "random_abs_cos": random_direction_abs_cosine(4)}


@claims.fixture(params=lambda ctx: rc.recipe_grid(ctx.quick))
def recipe_runs(ctx, label):
    """One point of the training-recipe grid (same seed at every point: common random numbers)."""
    cfg = config(ctx)
    T = cfg["train_T"]
    w = wqk_star(T, prior("a")).value
    out = rc.recipe_point(label, T, cfg["recipe_batch"], ctx.seed_for("recipe-grid"), w, prior("a"))
    out.update(T=T, batch=cfg["recipe_batch"], W_star=w)
    return out


@claims.fixture(params=lambda ctx: list(config(ctx)["optimum_windows"]))
def optimum_moments(ctx, s):
    """The exact feature moments of the AR(s) attention (setting (a), horizon ``config['T']``;
    :func:`~theorycheck.papers.lds.theory.stationarity.stationarity_moments`, ``gram=True``) — a task of its own, so
    that no task of :func:`exact_optima` is longer than 30 s at s = 4."""
    m = stationarity_moments(config(ctx)["T"], s, prior("a"), gram=True)
    return {k: m[k] for k in ("features", "gram", "b", "Eyy", "method")}


@claims.fixture(params=lambda ctx: list(config(ctx)["optimum_windows"]), needs=("optimum_moments",),
                select={"optimum_moments": lambda p, q: q == p})
def exact_optima(ctx, s, optimum_moments):
    """Multi-start minimisation of the exact population loss of the AR(s) attention (setting (a), horizon
    ``config['T']``) over all loss-relevant weights and inside each parity branch of the Lemma 4.1 support
    (:func:`~theorycheck.papers.lds.theory.optimum.minimise`), the exact moments, the exact best losses of the
    restricted families (:func:`~theorycheck.papers.lds.theory.ablation.family_losses`), and — for s ≥ 2 — the best
    point's predictor on fresh prompts: against the two-step PCG predictor and the alternatives of the PCG reading
    (:func:`~theorycheck.papers.lds.theory.pcg.pcg_diagnostics`)."""
    cfg = config(ctx)
    T = cfg["T"]
    starts = cfg["optimum_starts"] if s < 4 else cfg["optimum_starts_s4"]
    m = optimum_moments[s]
    rng = np.random.default_rng(ctx.seed_for(f"exact-optima-{s}"))
    free = [_summary(p) for p in minimise(m, s, starts, rng)]
    branch = {k0: [_summary(p) for p in minimise(m, s, max(4, starts // 4), rng, k0_parity=k0)] for k0 in (0, 1)}
    c_un = np.linalg.solve(m["gram"], m["b"])
    out = {"s": s, "T": T, "free": free, "branch": branch, "unconstrained": float(0.5 * (m["Eyy"] - c_un @ m["b"])),
           "zero": 0.5 * m["Eyy"], "moments": {k: m[k] for k in ("features", "gram", "b", "Eyy")},
           "C_unconstrained": c_un, "families": _families(m, s)}
    if s == 1:
        out["C12_optimum"] = float(c_un[1])
    else:
        best = min(free, key=lambda p: p["loss"])
        W, V = weights_of(best["x"], s)
        g = np.random.default_rng(ctx.seed_for(f"exact-optima-pcg-{s}"))
        Y = prior("a").sample(g, cfg["optimum_prompts"]).simulate(T, g)
        q = pcg_quantities(W, V, Y)
        out["pcg_cos"] = q["cos_att_pcg"]
        out["pcg_relerr"] = np.linalg.norm(q["w_att"] - q["w_pcg"], axis=1) / np.linalg.norm(q["w_pcg"], axis=1)
        out["at_optimum"] = _at_optimum(W, V, Y, q)
    return out


def _families(m: dict, s: int) -> dict:
    """The restricted families' exact losses, and the loss of the weights that realise the no-Hessian family
    (a self-check: it must equal the family's least-squares loss)."""
    f = family_losses(m, s)
    W, V = realising_weights(f["coefficients"]["no_hessian"], m["features"], s)
    return {**{k: v for k, v in f.items() if k != "coefficients"},
            "no_hessian_realised": exact_halved_loss(W, V, m)}


def _at_optimum(W, V, Y, q) -> dict:
    """Per prompt, at the optimum's weights: the cosines of the predictor direction with the alternatives of the PCG
    reading and of p with its reading's directions, and the in-context loss with and without the ξ₂p term."""
    d = pcg_diagnostics(W, V, Y)
    z0 = q["z0"]
    return {"cos_att_gd": d["cos_att_gd"], "cos_att_ls": d["cos_att_ls"], "cos_p_illcond": d["cos_p_illcond"],
            "cos_att_z0": np.sum(q["w_att"] * z0, 1) / np.maximum(
                np.linalg.norm(q["w_att"], axis=1) * np.linalg.norm(z0, axis=1), 1e-300),
            "cos_p_z0": q["cos_p_z0"], "loss_gain_p": d["loss_without_p"] - d["loss_with_p"]}


@claims.fixture(params=lambda ctx: [f"{s}:{i}" for s in config(ctx)["corner_windows"] for i in range(16)])
def corner_optima(ctx, key):
    """At one corner ``i`` of the admissible prior box of setting (a) (:func:`~theorycheck.papers.lds.settings.corner_priors`)
    and window s (``key = "s:i"``): the restricted families' exact losses, the best of a short multi-start search, and
    at its weights the alignment of p with the most ill-conditioned mode of P∇²L on prompts of that corner."""
    cfg = config(ctx)
    s, i = (int(v) for v in key.split(":"))
    corner, pr = corner_priors("a")[i]
    m = stationarity_moments(cfg["T"], s, pr, gram=True)
    rng = np.random.default_rng(ctx.seed_for(f"corner-optima-{key}"))
    best = min(minimise(m, s, cfg["corner_starts"], rng), key=lambda p: p["loss"])
    g = np.random.default_rng(ctx.seed_for(f"corner-optima-prompts-{key}"))
    Y = pr.sample(g, cfg["corner_prompts"]).simulate(cfg["T"], g)
    d = pcg_diagnostics(*weights_of(best["x"], s), Y)
    return {"s": s, "corner": corner, "families": _families(m, s), "loss_found": best["loss"],
            "gradient_norm": best["gradient_norm"], "cos_p_illcond": float(np.mean(d["cos_p_illcond"])),
            "cos_p_illcond_se": float(np.std(d["cos_p_illcond"]) / np.sqrt(len(Y)))}


@claims.fixture(params=lambda ctx: list(config(ctx)["branch_init_scales"]))
def branch_flow(ctx, init):
    """The branch each of ``config['branch_inits']`` random initialisations reaches under Adam on the exact AR(1) loss
    (no minibatch noise; :func:`~theorycheck.papers.lds.theory.optimum.adam_on_exact_loss`), at every learning rate
    of the declared recipe grid, for one initial scale: the gradient route's part of where training ends."""
    cfg = config(ctx)
    m = stationarity_moments(cfg["T"], 1, prior("a"), gram=True)
    rng = np.random.default_rng(ctx.seed_for(f"branch-flow-{init}"))
    out = {}
    for lr in cfg["branch_lrs"]:
        ends = [adam_on_exact_loss(m, 1, rng.standard_normal(4) * init, lr, cfg["branch_steps"])
                for _ in range(cfg["branch_inits"])]
        shares = [theorem_branch_shares(*weights_of(x, 1))[0] for x in ends]
        losses = [loss_and_gradient(x, 1, m)[0] for x in ends]
        out[lr] = {"theorem_share": shares, "loss": losses}
    return {"init": init, "steps": cfg["branch_steps"], "runs": out, "optimum": min(
        p["loss"] for p in minimise(m, 1, 4, np.random.default_rng(0)))}


def _polish_keys(ctx) -> list[str]:
    """``"<setting>:<s>"`` of the trained windows s ≥ 2 whose runs are polished on the exact loss (``config['polish']``,
    those with runs)."""
    cfg = config(ctx)
    return [f"{st}:{s}" for st, s in cfg["polish"] if (st, s) in cfg["runs"]]


def _polish_moments(ctx, st: str, s: int, optimum_moments: dict) -> dict:
    """The exact feature moments of setting ``st`` at the training horizon (setting (a) at T = config['T']: those of
    :func:`optimum_moments`; setting (d): a finite family closed under A → −A, as in 001-thm41-global-optimum)."""
    cfg = config(ctx)
    T = cfg["train_T"]
    if st == "a" and T == cfg["T"] and s in optimum_moments:
        return optimum_moments[s]
    if st != "d":
        return stationarity_moments(T, s, prior(st), gram=True)
    sysm = prior(st).sample(rng_for(ctx, f"polish-moments-{st}-{s}"), cfg["polish_pairs"])
    return stationarity_moments(T, s, prior(st), gram=True, method="rao-blackwell", systems=sysm, antithetic=True)


@claims.fixture(params=_polish_keys, needs=("training", "optimum_moments"),
                select={"training": lambda p, q: q.startswith(p + ":") and q.endswith(":free"),
                        "optimum_moments": lambda p, q: p == f"a:{q}"})
def support_polish(ctx, key, training, optimum_moments):
    """For the free training runs of one (setting, window s ≥ 2) (``key = "<setting>:<s>"``): each run's off-pattern
    energy share, and the end point of L-BFGS on the exact population loss at the training horizon started from the
    run's weights (:func:`~theorycheck.papers.lds.theory.optimum.polish`: loss, off-pattern share, gradient norm,
    smallest Hessian eigenvalue) — does the run sit in the basin of a minimum off the Lemma 4.1 pattern? — and the
    best loss inside the structured class (a short multi-start search in each parity branch)."""
    st, s = key.split(":")[0], int(key.split(":")[1])
    m = _polish_moments(ctx, st, s, optimum_moments)
    rng = rng_for(ctx, f"polish-class-{key}")
    class_best = min(p["loss"] for k0 in (0, 1) for p in minimise(m, s, 2, rng, k0_parity=k0))
    runs = []
    for run_key in sorted(training, key=lambda k: parse_key(k)[2]):
        r = training[run_key]
        p = polish(m, s, point_of(r["W_QK"], r["W_V"]))
        runs.append({"seed_index": parse_key(run_key)[2], "offpattern": offpattern_energy(r["W_QK"], r["W_V"]),
                     "loss": p["loss"], "polished_offpattern": offpattern_energy(p["W_QK"], p["W_V"]),
                     "gradient_norm": p["gradient_norm"], "min_hessian": p["min_hessian"]})
    return {"setting": st, "s": s, "T": config(ctx)["train_T"], "method": m["method"], "class_best": class_best,
            "runs": runs}


def _summary(p: dict) -> dict:
    return {"loss": p["loss"], "x": p["x"], "gradient_norm": p["gradient_norm"], "min_hessian": p["min_hessian"],
            "offpattern": offpattern_energy(p["W_QK"], p["W_V"]), "branch": p["branch"]}


@claims.fixture(params=lambda ctx: list(SETTINGS))
def bias_profiles(ctx, setting):
    """Per setting: the steady-state truncation profile (:func:`~theorycheck.papers.lds.theory.kalman.truncation_profile`)
    of ``bias_systems`` sampled systems for s = 1..bias_s_max, and ρ(A)."""
    cfg = config(ctx)
    sysm = prior(setting).sample(np.random.default_rng(ctx.seed_for(f"bias-{setting}")), cfg["bias_systems"])
    sv = list(range(1, cfg["bias_s_max"] + 1))
    out = truncation_profile(sysm, sv)
    out.update(s_values=sv, n=len(sysm), rho_A=np.max(np.abs(np.linalg.eigvals(sysm.A)), axis=-1))
    return out


@claims.fixture(params=lambda ctx: [0.5, 0.999, *config(ctx)["negligible_inner"]])
def negligible_box(ctx, a_max):
    """For one eigenvalue bound a_max of setting (a) (0.5 and 0.999: the ends of its admissible range — the corner
    a_max = 1 at 0.999, the stationary law needs ρ(A) < 1 — and the inner values of ``config['negligible_inner']``):
    at each of the 8 corners of (σ₀, σ_w, σ_v) in the admissible box, the family-average variance of the s = 4
    truncation bias relative to the Kalman MSE over ``negligible_systems`` sampled systems (exact per system)."""
    cfg = config(ctx)
    names = ("sigma0", "sigma_w", "sigma_v")
    ranges = {p.name: p.admissible for p in PRIOR_PARAMS}
    out = []
    for c in itertools.product(*(ranges[k] for k in names)):
        corner = dict(zip(names, c))
        pr = make_prior("a", **{**PRIOR_DEFAULTS, **corner, "a_max": a_max})
        sysm = pr.sample(rng_for(ctx, f"negligible-{a_max}-{sorted(corner.items())}"), cfg["negligible_systems"])
        p = truncation_profile(sysm, [4])
        out.append((corner, float(p["bias"][:, 0].mean() / p["mse_kf"].mean())))
    return {"a_max": a_max, "n": cfg["negligible_systems"], "corners": out}


@claims.fixture(params=lambda ctx: list(SETTINGS))
def ratio_setting(ctx, setting):
    """The evidence of 001-thm41-ratio-of-expectations for one setting (same random streams as when the claim computed
    it itself): W* by its route (Rao-Blackwell budget ``rb_systems``) and the linear self-check of W*. The held-out
    losses (settings a, b) and the autocovariance self-check are tasks of their own (:func:`ratio_heldout`,
    :func:`ratio_acov`)."""
    w = _wstar(ctx, setting)
    return {"wstar": w, "linear_check": _wstar_linear_check(ctx, setting, config(ctx)["T"], w.value,
                                                            config(ctx)["rb_systems"])}


@claims.fixture(params=lambda ctx: ["a", "b"])
def ratio_heldout(ctx, setting):
    """For settings (a), (b) of 001-thm41-ratio-of-expectations: the per-system average E_A[(T−2)N(A)/D(A)] and the
    paired held-out loss differences of the simulated layer on ``ratio_test_n`` fresh prompts (and the three moments
    of its loss curve), with the same random streams as when they were part of :func:`ratio_setting`."""
    cfg = config(ctx)
    T, st = cfg["T"], setting
    w = _wstar(ctx, st)
    avg = per_system_ratio_average(T, prior(st), cfg["rb_systems"], ctx.seed_for(f"per-system-{st}"))
    _, Y = test_set(ctx, st, T, cfg["ratio_test_n"], f"ratio-test-{st}")
    f1, y = theorem_feature(Y), Y[:, -1]         # the layer's output is linear in c

    def loss(c):
        return 0.5 * (c * f1 - y) ** 2
    base = loss(w.value)
    return dict(per_system=avg, diff_avg=loss(avg.mean) - base, diff_t2=loss(w.value / (T - 2)) - base,
                diff_zero=loss(0.0) - base, zero_loss=float(np.mean(loss(0.0))),
                moments=(0.5 * float(np.mean(f1 * f1)), -float(np.mean(f1 * y)), 0.5 * float(np.mean(y * y))))


def _wstar(ctx, st):
    """W* of setting ``st`` by its route (Rao-Blackwell budget ``rb_systems``, stream ``wqk-rb-<st>``)."""
    cfg = config(ctx)
    return wqk_star(cfg["T"], prior(st), n_systems=cfg["rb_systems"], batch=cfg["rb_systems"] // 20,
                    seed=ctx.seed_for(f"wqk-rb-{st}"))


@claims.fixture(params=lambda ctx: list(SETTINGS))
def ratio_acov(ctx, setting):
    """The autocovariance self-check of 001-thm41-ratio-of-expectations for one setting (same random streams as when
    it was part of :func:`ratio_setting`): three sampled systems' entries K_(T−1,T−1), K_(T−1,T), K_(T−2,T), exact
    and by trajectory batch means."""
    cfg = config(ctx)
    T = cfg["T"]
    entries = [(T - 1, T - 1), (T - 1, T), (T - 2, T)]
    fam = prior(setting).sample(rng_for(ctx, f"acov-systems-{setting}"), 3)
    acov = autocovariance_batch_mc(fam, T, entries, cfg["wqk_mc_batches"], cfg["acov_per_batch"],
                                   ctx.seed_for(f"acov-mc-{setting}"))
    return {"entries": entries, "acov": acov}


def _wstar_linear_check(ctx, st, T, w, n):
    """Batch means (20 batches) of N(A) − w·D(A)/(T − 2) over ``n`` sampled systems, divided by the mean of N."""
    rng = rng_for(ctx, f"wqk-linear-check-{st}")
    vals, ns = [], []
    for _ in range(20):
        N, D = wqk_star_moments(prior(st).sample(rng, n // 20).autocovariance(T))
        vals.append(float(np.mean(N - w * D / (T - 2))))
        ns.append(float(np.mean(N)))
    return Estimate.from_batches(np.array(vals) / np.mean(ns), n // 20)


@claims.fixture(needs=("training",))
def kf_test(ctx, training):
    """Common test set of setting (a) at the training horizon: per-prompt squared errors of the trained attention
    (averaged over training seeds) for every trained window, and the exact Kalman MSE of each prompt's system."""
    cfg = config(ctx)
    T = cfg["train_T"]
    sysm, Y = test_set(ctx, "a", T, cfg["kf_test_n"], "kf-test")
    windows = sorted(s for (st, s) in cfg["runs"] if st == "a")
    err = {s: np.mean([(attention_predict(r["W_QK"], r["W_V"], Y) - Y[:, -1]) ** 2
                       for r in runs_of(training, "a", s)], axis=0) for s in windows}
    sub = sysm.subset(slice(0, min(len(sysm), 20_000)))            # baselines of the figure on a subset
    Ys = Y[:len(sub)]
    s_or = list(range(1, 9))
    oracle = {s: float(oracle_ar_mse(sub, T, s).mean()) for s in s_or}
    ls = {s: float(np.mean((ar_least_squares_predict(Ys, s) - Ys[:, -1]) ** 2)) for s in s_or if T - s - 1 >= s + 1}
    return {"T": T, "n": len(sysm), "err": err, "kf": kalman_one_step_mse(sysm, T), "oracle": oracle, "ls": ls,
            "n_baselines": len(sub), "zero": Y[:, -1] ** 2, "last": (Y[:, -1] - Y[:, -2]) ** 2}

