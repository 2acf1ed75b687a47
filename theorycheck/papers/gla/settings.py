"""Paper 000: conventions, the values the seed states, the values the toolkit chooses, run sizes.

Everything here is declared before any data are computed. Every value a sub-claim rests on is a
:class:`~theorycheck.claims.Param` with its provenance: **stated** (the seed line that gives it), **convention** (a
C-number below) or **chosen** (why, and the range a reader could have chosen instead). Sub-claims list the Params they
use (``params=[...]``) and the verdict engine derives ``chosen`` from them: a failure that rests on a chosen value is
*not reproduced* unless the claim searched its whole admissible range (``extent``).
"""
from __future__ import annotations

from ...claims import Param

CONVENTIONS = [
    ("C1", "Model (seed line 44): $w_0\\sim N(0,\\sigma_w^2 I_d)$; $w_i=\\gamma w_{i-1}+e_i$, "
           "$e_i\\sim N(0,\\sigma_e^2 I_d)$ for $i=1..n+1$; $x_i\\sim N(0,\\Lambda)$; $y_i=\\langle w_i,x_i\\rangle$. "
           "The seed's model has no label noise; where the toolkit adds $\\varepsilon_i$ with variance "
           "$\\sigma^2$ (`noise`) it says so. $\\sigma_w^2,\\sigma_e^2$ are free (the law of $w_i$ is stationary only "
           "if $\\sigma_w^2=\\sigma_e^2/(1-\\gamma^2)$, the 'stationary normalisation')."),
    ("C2", "Tokens $z_i=(x_i,y_i)$, $i\\le n$, form the prompt; the query is $z_{n+1}=(x_{n+1},0)$. The GLA "
           "weight on token $i$ is $\\lambda^{n+1-i}$ and the sum includes the query token $i=n+1$; "
           "$W_{KQ}=W_K^\\top W_Q$."),
    ("C3", "Full parameters: $W_V$ last row $(u^\\top,v)$, $W_{KQ}[:,:d]=[A;b^\\top]$; "
           "$\\hat y=x_{n+1}^\\top\\Gamma h+T_1+T_2$ with $\\Gamma=vA^\\top+bu^\\top$, "
           "$h=\\sum_{i\\le n}\\lambda^{n+1-i}y_ix_i$. Reduced parameters: $u=b=0$, $\\Gamma=vA^\\top$."),
    ("C4", "Loss: population MSE $E[(\\hat y-y_{n+1})^2]$, NOT halved. 'Train error' at a fixed λ = its "
           "minimum over the parameters; 'test error' = the MSE of the train-optimal parameters on fresh prompts "
           "(of the training law unless a train/test shift is named)."),
    ("C5", "Monte Carlo: every random stream is seeded by the run seed and the claim/fixture name; SEs of "
           "means of squared errors are batch means (df = batches − 1, Student t); paired designs (common "
           "random numbers) estimate differences from per-prompt or per-run differences."),
    ("C6", "Adaptive filters (LMS step μ, RLS forgetting β with $P_0=I$, Kalman with the true parameters): "
           "a priori one-step-ahead squared error, averaged per run over positions $t=T/2+1..T$; μ and β "
           "tuned on separate scan streams, then evaluated on fresh streams shared by all methods."),
    ("C7", "Values the seed does not state and the toolkit chooses (each a `chosen` Param with its admissible range): "
           "$\\sigma_e^2=0.01$ with $\\sigma_w^2=1$ (σ_e/σ_w = 0.1) for the experiments, or the stationary "
           "normalisation; the γ's the seed does not name (0.5, 0.9, 0.99); the filter experiment's dimension (d = 10), "
           "LMS/RLS grids, RLS initialisation and averaging window; the multi-layer architecture and training "
           "protocol (C8); initialisations."),
    ("C8", "Multi-layer GLA (toolkit construction): a residual stack of GLA layers, layer ℓ maps every "
           "position j to $z_j+W_V^\\ell\\sum_{i\\le j}(1-\\lambda)\\lambda^{j-i}z_iz_i^\\top W_{KQ}^\\ell z_j$; the "
           "prediction is the query's label slot after the last layer; Adam (cosine-decayed step) on fresh batches of "
           "256 prompts of the training law, then Armijo gradient descent on a fixed training set "
           "(theorycheck.gla.train_gla_stack), best of 3 initialisations by final training loss; "
           "train error = MSE on that set, test error = MSE on fresh prompts."),
    ("C9", "Gradient flows integrate the exact population loss (scipy LSODA, rtol 1e-10). Structured "
           "initialisation (the toolkit's reading of Assumption 1, as in Zhang–Frei–Bartlett): $v(0)=\\sigma$, "
           "$A(0)=\\sigma I/\\sqrt d$, $u=b=0$; random initialisation: i.i.d. Gaussian entries; σ relative to "
           "$\\|\\Gamma^*\\|_F^{1/2}$."),
    ("C10", "Where the seed gives no input covariance (the experiments of lines 57–75) $\\Lambda=I_d$, the case "
            "line 50 states for Theorem 2; $\\sigma_w^2=1$ fixes the unit of the loss (every error is homogeneous of "
            "degree 1 in $\\sigma_w^2,\\sigma_e^2,\\sigma^2$, so shapes, optima and relative gaps depend on "
            "$\\sigma_e^2/\\sigma_w^2$ only; a printed number fixes the scale and there $\\sigma_w^2$ is searched)."),
    ("C11", "A comparison ('beats', 'lower', 'approximates', 'optimal') carries each contender's gap to the trivial "
            "predictor (predict $0$ — the prior mean of $y$, hence also the prior-optimal constant), paired on the same "
            "prompts or streams; a contender beats it when it removes more than TRIVIAL_MARGIN = 2 % of the trivial "
            "predictor's error $E[y^2]$ (one-sided test at the report's Holm level; declared before the data, the "
            "engine's example value, never tuned)."),
]

# ------------------------------------------------------------------ stated by the seed
D_EXP, N_EXP = 10, 100                 # line 57: single-layer GLA experiments, d = 10, n = 100
T_FILTER = 1000                        # line 58: sequence length 1000
RUNS_FILTER_PAPER = 10_000             # line 58: 10,000 Monte Carlo runs
GAMMA_FILTER = (0.8, 0.975)            # lines 58, 72
GAMMA_DEPTH = 0.95                     # line 65
LAM_MULTI = 0.85                       # line 66: multi-layer λ = 0.85
#: the γ's the seed names (line 58: 0.8; line 65: 0.95; line 72: 0.975) and the ones the toolkit adds to span slow and
#: fast drift (chosen): the grid of the synthetic experiments, GAMMAS_EXP, is their union
STATED_GAMMAS = {0.8: "line 58", 0.95: "line 65", 0.975: "line 72"}
CHOSEN_GAMMAS = (0.5, 0.9, 0.99)
GAMMAS_EXP = tuple(sorted(set(STATED_GAMMAS) | set(CHOSEN_GAMMAS)))

P_D = Param("d", D_EXP, "stated", "line 57: single-layer GLA experiments, d = 10")
P_N = Param("n", N_EXP, "stated", "line 57: n = 100")
P_NOISE = Param("label_noise", 0.0, "stated", "line 44: y_i = ⟨w_i, x_i⟩, no label noise")
P_T = Param("T", T_FILTER, "stated", "line 58: sequence length 1000")
P_GAMMA_DEPTH = Param("gamma", GAMMA_DEPTH, "stated", "line 65: γ = 0.95")
P_LAM_MULTI = Param("lambda_per_layer", LAM_MULTI, "stated", "line 66: multi-layer λ = 0.85")

# ------------------------------------------------------------------ conventions
P_SW2 = Param("sigma_w2", 1.0, "convention", "C10: σ_w² = 1 is the unit of the loss (only σ_e²/σ_w² matters)")
P_LAMBDA = Param("Lambda", "I_d", "convention", "C10: Λ = I_d, the case line 50 states")
#: the resolution to which an optimum of λ is located (root finding / bounded Brent to 1e-10, reported to 1e-4)
LAM_RESOLUTION = 1e-4
#: C11: a contender beats the trivial predictor when it removes more than this fraction of E[y²]
TRIVIAL_MARGIN = 0.02

# ------------------------------------------------------------------ chosen by the toolkit (C7)
SW2, SE2 = 1.0, 0.01
CHOSEN_SIGMAS = {"sigma_w2": SW2, "sigma_e2": SE2, "label_noise": 0.0}
#: σ_e² with σ_w² = 1: the seed gives no drift-noise level; a reader could take anything from an almost static task
#: (1e-4) to a drift as large as the signal (1)
SE2_RANGE = (1e-4, 1.0)
P_SE2 = Param("sigma_e2", SE2, "chosen", "the seed gives no drift-noise level: σ_e/σ_w = 0.1, a slow drift (line 25: "
              "缓慢漂移)", admissible=SE2_RANGE)
P_SE2_STATIONARY = Param("sigma_e2", "1 − γ²", "chosen", "the stationary normalisation σ_e² = (1 − γ²)σ_w² (C1): the "
                         "law of w_i does not change along the prompt", admissible=SE2_RANGE)
#: γ ∈ (0, 1] (line 44); below 0.01 the weights forget the prompt within a token
GAMMA_RANGE = (0.01, 1.0)
#: prompt lengths a reader could choose for a statement that names none (n = 1 has no history to weigh)
N_RANGE = (2, 10_000)
D_RANGE = (1, 1000)
D_STACK, N_STACK = 3, 20               # multi-layer experiments (C8)
STACK_INIT = 0.1
STACK_ADAM_LR = 0.02
STACK_GD_LR = 0.05
STACK_BATCH = 256                      # fresh prompts per Adam step
STACK_RESTARTS = 3                     # independent initialisations; the lowest final training loss is kept
#: LMS steps and RLS forgetting factors of the filter experiment: the grids reach past the optimum on both sides
#: (μ from 1e-5, where LMS hardly moves from w = 0 and predicts ≈ 0, to the mean-square stability bound ≈ 2/(d + 2);
#: β from 0.7, a memory of ~3 steps, to 1, no forgetting)
MUS_QUICK = (1e-5, 0.0005, 0.01, 0.08, 0.12)
BETAS_QUICK = (0.7, 0.85, 0.95, 0.995, 1.0)
MUS_FULL = (1e-5, 3e-5, 1e-4, 2e-4, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2)
BETAS_FULL = (0.7, 0.75, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.975, 0.98, 0.985, 0.99, 0.995, 0.998, 0.999, 0.9995, 1.0)
P_D_FILTER = Param("d", D_EXP, "chosen", "line 58 gives no dimension: d = 10 of the synthetic experiments (line 57)",
                   admissible=(1, 20))
P_RLS_DELTA = Param("rls_delta", 1.0, "chosen", "RLS P₀ = I/δ, δ = 1 (padasip's default); the seed gives none",
                    admissible=(0.01, 1.0))
P_WINDOW = Param("error_window", "t = T/2+1..T", "chosen", "C6: the a priori error averaged over the second half of "
                 "each stream (after the transient); the seed does not say", admissible=("t = T/2+1..T", "t = T",
                                                                                        "t = 1..T"))


#: the multi-layer experiment (lines 65–66, C8): the seed gives γ = 0.95 and λ = 0.85 per layer, nothing else
P_D_STACK = Param("d", D_STACK, "chosen", "lines 65–66 give no dimension: a small stack (d = 3) trainable at paper scale "
                  "within a task", admissible=D_RANGE)
P_N_STACK = Param("n", N_STACK, "chosen", "lines 65–66 give no prompt length: n = 20", admissible=N_RANGE)
P_STACK_ARCH = Param("architecture", "residual GLA stack (C8)", "chosen", "the seed names no multi-layer architecture",
                     admissible=("residual GLA stack (C8)", "any stack of GLA layers"))
P_STACK_INIT = Param("init_scale", STACK_INIT, "chosen", "the seed gives no initialisation of the stack: i.i.d. "
                     f"N(0, {STACK_INIT}²) entries, best of {STACK_RESTARTS} by final training loss",
                     admissible=(0.01, 1.0))


def stack_params(config) -> list:
    """The Params of the multi-layer experiment trained under ``config`` (the stack fixture's record): γ and λ stated,
    σ_w² by convention, everything else chosen (C7, C8). (``config['diverged_restarts']`` is a record, not a
    parameter: the claims report it in ``details``.)"""
    c = config
    return [P_GAMMA_DEPTH, P_LAM_MULTI, P_SW2, P_SE2, P_NOISE, P_LAMBDA, P_D_STACK, P_N_STACK, P_STACK_ARCH, P_STACK_INIT,
            Param("n_train", c["n_train"], "chosen", "the seed gives no training-set size", admissible=(100, 100_000)),
            Param("optimiser", f"Adam on fresh batches of {c['adam_batch']} (lr {c['adam_lr']}, {c['schedule']}, "
                  f"{c['adam_steps']} steps) then full-batch Armijo GD ({c['gd_steps']} steps)", "chosen",
                  "the seed gives no training protocol (C8)",
                  admissible=("Adam then Armijo GD (C8)", "any optimiser that reaches a minimum of the training loss"))]


def flow_params(init: str) -> list:
    """The Params of a single-layer gradient flow at the multi-layer experiment's sizes (C9): dynamics by convention,
    the initialisation chosen."""
    return [P_GAMMA_DEPTH, P_SW2, P_SE2, P_NOISE, P_LAMBDA, P_D_STACK, P_N_STACK,
            Param("dynamics", "gradient flow of the population loss", "convention", "C9"),
            Param("initialisation", init, "chosen", "the seed gives no initialisation (C9)",
                  admissible=("structured (Assumption 1)", "i.i.d. Gaussian, any scale"))]


def gamma_param(values) -> Param:
    """The Param of a γ or a γ grid: stated when the seed names every value (:data:`STATED_GAMMAS`), else chosen."""
    vals = tuple(float(v) for v in (values if isinstance(values, (list, tuple)) else (values,)))
    val = vals[0] if len(vals) == 1 else vals
    if all(v in STATED_GAMMAS for v in vals):
        return Param("gamma", val, "stated", ", ".join(sorted({STATED_GAMMAS[v] for v in vals})))
    return Param("gamma", val, "chosen", "the toolkit's γ grid: " + ", ".join(
        f"{v:g} ({STATED_GAMMAS[v]})" if v in STATED_GAMMAS else f"{v:g} (chosen)" for v in vals), admissible=GAMMA_RANGE)


def params_exp(gammas, se2="0.01") -> list:
    """The Params of the synthetic experiments (d = 10, n = 100, no label noise) at ``gammas`` with σ_e² = 0.01 or the
    stationary normalisation (``se2="stationary"``)."""
    return [P_D, P_N, P_NOISE, P_SW2, P_LAMBDA, gamma_param(gammas), P_SE2 if se2 == "0.01" else P_SE2_STATIONARY]


def noise_free_grid():
    """The seed's own model (no label noise) over its free parameters, drift present, n ≥ 2:
    γ ∈ {0.5, 0.9, 0.99, 1}, n ∈ {2, 10, 100}, d ∈ {1, 10}, (σ_w², σ_e²) ∈ {(1, 1−γ²), (1, 10⁻⁴),
    (1, 10⁻²), (0, 10⁻²), (100, 10⁻²)} and (1, 0) when γ < 1."""
    out = []
    for g in (0.5, 0.9, 0.99, 1.0):
        for n in (2, 10, 100):
            for d in (1, 10):
                for sw2, se2 in ((1.0, 1 - g * g), (1.0, 0.0), (1.0, 1e-4), (1.0, 0.01), (0.0, 0.01), (100.0, 0.01)):
                    if se2 == 0.0 and g == 1.0:          # no drift at all: the stationary setting, outside
                        continue
                    out.append({"gamma": g, "n": n, "d": d, "sigma_w2": sw2, "sigma_e2": se2})
    return out


NOISE_FREE_SCOPE = ("the seed's model (no label noise) on the grid γ ∈ {0.5, 0.9, 0.99, 1}, n ∈ {2, 10, 100}, "
                    "d ∈ {1, 10}, (σ_w², σ_e²) ∈ {(1, 1−γ²), (1, 0), (1, 1e-4), (1, 1e-2), (0, 1e-2), (100, 1e-2)}, "
                    "drift present (exact)")


def reconcile_sizes(quick: bool) -> dict:
    """Run sizes (streams at d = 10, see :func:`.reconciliation.runs_for`) and the search budget, declared; the quick mode is a
    smaller search on fewer streams."""
    return {"runs": 4 if quick else 300, "budget": 50 if quick else 3000, "heldout_runs": 100 if quick else 2000}


#: why a sampled universal ("throughout the condition", "at every point of the search") is not decided at quick
#: sizes: a shrunk search that finds no counterexample cannot confirm (issue 31)
QUICK_SEARCH = "quick sizes: a shrunk sample cannot confirm a universal; decided at paper scale"


def quick_undecided(ctx):
    """:data:`QUICK_SEARCH` at quick sizes (the ``undecided`` of a sampled universal), else None."""
    return QUICK_SEARCH if ctx.quick else None


#: the smallest Monte Carlo size of a self-check that must keep its power at quick sizes (the quick run's mutants):
#: 4000 prompts, the quick size of record before issue 31 (the paper scale draws more)
SELF_CHECK_PROMPTS = 4000


def sizes(ctx) -> dict:
    """Run sizes (shown in the report)."""
    q = ctx.quick
    return {
        "mc_prompts": 1000 if q else 40000,                # Monte Carlo prompts per setting
        "mc_batches": 40,                                  # batch means
        "filter_runs_scan": 20 if q else 2000,
        "filter_runs_eval": 60 if q else RUNS_FILTER_PAPER,
        "filter_T": T_FILTER,
        "kalman_runs": 300 if q else 10000,
        # quick: the stack only exercises the code path (its verdicts are declared undecided at quick sizes)
        "stack_depths": (1, 2) if q else (1, 2, 3),
        "stack_restarts": 1 if q else STACK_RESTARTS,
        "stack_train": 100 if q else 1000,
        "stack_test": 200 if q else 10000,
        "stack_adam_steps": 20 if q else 1000,
        "stack_gd_steps": 10 if q else 400,
        "landscape_seeds": 1 if q else 4,
        "landscape_scales": (0.3,) if q else (0.01, 0.3, 1.0),
        "landscape_dims": (2,) if q else (2, 3),
        "landscape_search_dims": (4,) if q else (4, 5, 10),   # quasi-Newton random starts where flows are slow
        "landscape_search_starts": 2 if q else 24,
        "chosen": CHOSEN_SIGMAS,
        "experiment_d": D_EXP, "experiment_n": N_EXP,
        **{f"reconcile_{k}": v for k, v in reconcile_sizes(q).items()},
        "stress_mc_prompts": 4000 if q else 200_000,
        # sampled universals (a condition audit, a domain search): their quick samples are too small to confirm one
        "search_m": 2 if q else None,
    }

