r"""Run sizes of paper 004 and the toolkit's choices for what the seed summary leaves open.

The seed states the model (inputs :math:`N(0,I_d/d)`, Gaussian tasks, label-noise variance ρ, k tasks
round-robin over n prompts, ridge Eq. (6) with λ → 0), the Figure 1 setting (sin, ρ = 0.1, d = 64,
α = κ = 2, C = I) and the Figure 2 setting (tanh, ρ = 0.1, d = 32, τ = α/2, α ∈ {20, 40}). It does not
state the τ grid of Figure 1, the κ grid of Figure 2, the number of trials, the test-set size, nor
any finite size for the d → ∞ statements. Those are the toolkit's choices, listed in
:data:`CHOICES` and passed as ``chosen=`` to every rule whose evidence depends on them (a failure
there is "not reproduced", never "refuted").

Statistics: a trial is one independently drawn pretraining set, fitted predictor and test set;
per-trial test errors are i.i.d., so every Monte Carlo estimate is a Student-t estimate over trials
(df = trials − 1), paired across teachers that share a trial's random numbers.
"""
from __future__ import annotations

import math

#: Label-noise variance of every experiment of the seed (Figs. 1 and 2).
RHO = 0.1

#: Figure 1 as stated (line 174): sin teacher, d = 64, α = κ = 2, C = I.
FIG1 = {"f": "sin", "d": 64, "alpha": 2.0, "kappa": 2.0}
#: Our τ grid for Figure 1 (the seed gives none): both sides of the threshold, τ ≤ 2 to bound the cost.
FIG1_TAUS = (0.5, 0.75, 0.9, 1.1, 1.5, 2.0)
#: Figure 1's reconciliation (seed lines 176–190): the linear teacher's noise searched on a log scale over this range;
#: the error normalisations a reader could have applied (sin MSE vs linear MSE). Each entry: the divisor of the
#: sin teacher's MSE and the divisor of the linear teacher's MSE as a function of its noise.
FIG1_NOISE_RANGE = (0.05, 2.0)
FIG1_STATED_NOISES = {"legend 0.447": 0.447029, "caption 1.447": 1.447029}
#: Figure 2 as stated (line 200): tanh, d = 32, τ = α/2, α ∈ {20, 40}.
FIG2 = {"f": "tanh", "d": 32, "alphas": (20.0, 40.0)}
#: Our κ grid for Figure 2 (the seed gives none): around the transition and at large κ.
FIG2_KAPPAS = (0.5, 0.75, 1.0, 1.5, 2.0, 4.0)

#: Result 1 configurations (teacher, α, κ, τ): both sides of τ = 1, finite and infinite κ.
RESULT1_CONFIGS = {"sin-a2-k2-t2": ("sin", 2.0, 2.0, 2.0), "tanh-a2-kinf-t3": ("tanh", 2.0, math.inf, 3.0),
                   "sin-a2-k2-t0.5": ("sin", 2.0, 2.0, 0.5)}
#: a₁ = 0 teachers (He₂: a₀ = 0; |g|: a₀ ≠ 0), the τ of the seed's teaching numbers, base and alternative (α, κ).
A1ZERO_TEACHERS = ("he2", "abs")
A1ZERO_TAUS = (0.5, 2.0)
A1ZERO_BASE = (2.0, 2.0)
A1ZERO_ALT = (6.0, 0.5)
#: Offset teacher g + c (line 109) and the effective-rank check (line 123).
OFFSET = {"c": 1, "alpha": 2.0, "kappa": 2.0, "tau": 3.0}
RANK = {"f": "sin", "alpha": 32.0, "tau": 16.0, "kappa": math.inf}


def sizes(ctx) -> dict:
    """Every size of the run. Quick: small d (preliminary). Full: Figures at the paper's d, the d → ∞
    scans over d ≤ 40 with ≥ 24 trials per size (so that the Student-t df of the extrapolation is ≥ 23)."""
    if ctx.quick:
        return {"rho": RHO, "ext_ds": (8, 10, 12, 16), "ext_trials": (24, 20, 16, 12), "ext_ntest": 400,
                "fig1_d": 16, "fig1_trials": 8, "fig1_ntest": 400,
                "fig2_d": 12, "fig2_trials": 6, "fig2_ntest": 400,
                "offset_d": 12, "offset_trials": 12, "rank_d": 12, "rank_trials": 8, "ntest": 400,
                "mom_d": 16, "mom_n": 4000, "norm_n": 20_000, "noise_p": 100, "noise_reps": 200,
                "floor_mc_n": 20_000,
                "stress_d": 10, "stress_trials": 16, "stress_ntest": 200, "stress_rank_d": 8, "stress_rank_trials": 8,
                "rec_d": 16, "rec_trials": 6, "rec_ntest": 200, "rec_budget_joint": 30, "rec_budget_each": 14,
                "rec_stated_trials": 12}
    return {"rho": RHO, "ext_ds": (12, 16, 24, 32, 40), "ext_trials": (96, 64, 48, 32, 24), "ext_ntest": 1000,
            "fig1_d": FIG1["d"], "fig1_trials": 8, "fig1_ntest": 1000,
            "fig2_d": FIG2["d"], "fig2_trials": 8, "fig2_ntest": 1000,
            "offset_d": 32, "offset_trials": 16, "rank_d": 24, "rank_trials": 16, "ntest": 1000,
            "mom_d": 32, "mom_n": 40_000, "norm_n": 200_000, "noise_p": 400, "noise_reps": 400,
            "floor_mc_n": 200_000,
            "stress_d": 16, "stress_trials": 64, "stress_ntest": 400, "stress_rank_d": 16, "stress_rank_trials": 32,
            "rec_d": 32, "rec_trials": 8, "rec_ntest": 400, "rec_budget_joint": 30, "rec_budget_each": 14,
            "rec_stated_trials": 32}


def chosen_sim(ctx, **extra) -> dict:
    """The toolkit's choices behind a simulation (for ``chosen=``)."""
    sz = sizes(ctx)
    out = {"λ": "0 (minimum-norm, the seed's λ → 0)", "tasks": "w ~ N(0, I_d), not renormalised",
           "test prompts per trial": sz["ntest"]}
    out.update(extra)
    return out
