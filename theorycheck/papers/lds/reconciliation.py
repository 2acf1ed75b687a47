r"""Reconciliations of paper 001: the unstated parameters behind its trained-attention numbers.

**PCG numbers (seed line 70).** The seed prints three numbers of one experiment on the trained AR(4) weights: the
cosine between the attention predictor's direction and the two-step PCG direction, 0.88 ± 0.05 (setting a) and
0.93 ± 0.01 (setting b), and the cosine between the correction vector p and the preconditioned residual, ≈ −0.99.
It does not say which vectors are compared, how the conjugate direction is initialised, how a non-symmetric P
enters PCG, which residual is meant, how cosines are averaged, nor which setting the −0.99 refers to. These are the
free parameters (:data:`PCG_FREE`), declared with their choices before any data; the three numbers are the joint
targets (:data:`PCG_TARGETS`). A "±" value is targeted at its centre with the printed spread as the model margin
(the spread measures the paper's own seed-to-seed variation); "≈ −0.99" gets the larger printed spread, 0.05. The
model (:class:`PcgModel`) reads the trained AR(4) weights of the ``training`` fixture (every seed) on a fixed set
of test prompts (common random numbers) and computes the three cosines under a reading; each quantity is averaged
over prompts per seed and then over seeds (Student t over seeds for the SE). The training recipe is *fixed* to the
toolkit's (its sizes are recorded in ``fixed``): retraining AR(4) per evaluation is out of the time budget, so the
search covers the cheap choices only — the recipe is searched, on its own statements, by the second
reconciliation.

**Training recipe (seed lines 84–91).** Whether training reaches the Theorem 4.1 structure and the Lemma 4.1
checkerboard depends on the optimiser settings, which the seed gives only in words (AdamW, warm-up, cosine,
8000 steps). A small declared grid (:func:`recipe_grid`: learning rate, initial scale, number of steps; T = 30 as
stated, a fixed batch) is trained once per point (one AR(1) and one AR(2) run of setting (a) per point, the same
seed at every point: common random numbers) by the fixture ``recipe_runs``; the reconciliation searches the grid for
a recipe that reproduces jointly: trained C₁₂ = W* (relative error 0 within 5 %), off-structure coefficients of the
AR(1) run 0 (within 5 % of C₁₂) and the AR(2) off-pattern energy share 0 (within 1 %) — the theorem's exact values,
with the margins of the claims 001-thm41-trained and 001-lemma41-trained-support.
"""
from __future__ import annotations

import numpy as np

from ...models.attention import effective_coefficients
from ...models.training import train_linear_attention
from ...claims import Param
from ...memo import Memo, key
from ...reconcile import Parameter, Target, reconcile
from ...verdicts import Estimate
from .theory.pcg import cosine, pcg_quantities
from .theory.support import offpattern_energy

__all__ = ["PCG_FREE", "PCG_TARGETS", "P_RESIDUAL_MARGIN", "PcgModel", "pcg_reconcile", "reading_params", "RECIPE_TARGETS",
           "recipe_grid", "recipe_free", "recipe_reconcile", "recipe_point"]

#: "≈ −0.99" has no printed spread: the larger of the paper's two printed spreads (± 0.05) is its model margin
P_RESIDUAL_MARGIN = 0.05
PCG_TARGETS = [Target("cos(w_att, w_PCG), setting (a)", "0.88", 0.05),        # printed ± 0.05 as model margin
               Target("cos(w_att, w_PCG), setting (b)", "0.93", 0.01),        # printed ± 0.01 as model margin
               Target("cos(p, preconditioned residual)", "-0.99", P_RESIDUAL_MARGIN)]

#: reading of "the two directions" whose cosine is printed
COMPARE = {"predictors": ("w_att", "w_pcg"), "first terms": ("first_att", "first_pcg")}
#: which residual "the preconditioned residual direction" is
#: (the unpreconditioned residual r₀ is not a reading: cos(p, r₀) changes sign under the loss-invariant symmetry
#: (W_QK, W_V) → (−W_QK, −W_V), so it is not a property of the trained predictor)
RESIDUALS = {"z0 (preconditioned residual at w = 0)": "z0", "z1 (after one PCG step)": "z1",
             "z2 (after two PCG steps)": "z2"}
#: how per-prompt cosines are summarised per training seed (then averaged over seeds; the ± is the paper's spread).
#: (A cosine of prompt-averaged vectors is not a reading: ∇L_AR(0) changes sign from prompt to prompt, so the
#: averaged residual is close to 0 and its direction arbitrary.)
AVERAGING = ("mean of per-prompt cosines", "median of per-prompt cosines")
PCG_FREE = [
    Parameter("first conjugate direction", choices=("residual", "q")),          # standard PCG, or the seed's variant
    Parameter("compared vectors", choices=tuple(COMPARE)),
    Parameter("preconditioner", choices=("P", "PT", "Psym", "Pinv")),           # how a non-symmetric P enters PCG
    Parameter("residual", choices=tuple(RESIDUALS)),
    Parameter("averaging", choices=AVERAGING),
    Parameter("setting of −0.99", choices=("a", "b", "a and b")),
]


class PcgModel:
    """The three PCG cosines of trained AR(4) weights under a reading (see the module docstring).

    ``weights`` maps a setting to the list of its trained ``(W_QK, W_V)``; ``prompts(setting, seed)`` draws the test
    prompts (B, T) of a setting from a seed: the search evaluates every reading on the prompts of one seed (common
    random numbers), the engine's check of the best reading uses fresh prompts (the trained weights are fixed). Per
    (prompt seed, setting, training seed, first direction, preconditioner) :func:`~.theory.pcg.pcg_quantities` runs
    once and only the per-seed summaries of every reading are kept (scalars: the cache stays small)."""

    def __init__(self, weights: dict, prompts):
        self.weights, self.prompts = weights, prompts
        # owned memos (theorycheck.memo): the prompts of a (seed, setting), the summaries of a run of pcg_quantities
        self._Y, self._cache = Memo(None, maxsize=64), Memo(None, maxsize=100_000)
        self.seed = 0

    def _prompts(self, st):
        return self._Y.get_or_compute(key(self.seed, st), lambda: self.prompts(st, self.seed))

    def _summaries(self, st, i, init, pre):
        return self._cache.get_or_compute(key(self.seed, st, i, init, pre), lambda: self._summarise(st, i, init, pre))

    def _summarise(self, st, i, init, pre):
        W, V = self.weights[st][i]
        try:
            q = pcg_quantities(W, V, self._prompts(st), preconditioner=pre, init=init)
        except ValueError:            # P not invertible: the reading P⁻¹ does not exist for these weights
            return None
        out = {}
        for avg in AVERAGING:
            for name, (a, b) in COMPARE.items():
                out[("cos", name, avg)] = _summary(q[a], q[b], avg)
            for name, r in RESIDUALS.items():
                out[("p", name, avg)] = _summary(np.broadcast_to(q["p"], q[r].shape), q[r], avg)
        return out

    def per_seed(self, params: dict, st: str, what: str) -> list:
        init, pre, avg = params["first conjugate direction"], params["preconditioner"], params["averaging"]
        which = params["compared vectors"] if what == "cos" else params["residual"]
        out = []
        for i in range(len(self.weights[st])):
            summ = self._summaries(st, i, init, pre)
            if summ is None:
                return []
            out.append(summ[(what, which, avg)])
        return out

    def __call__(self, params: dict, seed: int) -> dict:
        self.seed = seed
        out = {}
        for t, st in zip(PCG_TARGETS[:2], ("a", "b")):
            out[t.name] = _estimate(self.per_seed(params, st, "cos"))
        sts = {"a": ("a",), "b": ("b",), "a and b": ("a", "b")}[params["setting of −0.99"]]
        vals = [v for st in sts for v in self.per_seed(params, st, "p")]
        out[PCG_TARGETS[2].name] = _estimate(vals)
        return out


def _summary(u, w, averaging) -> float:
    c = cosine(u, np.broadcast_to(w, u.shape))
    return float(np.median(c) if averaging.startswith("median") else np.mean(c))


def _estimate(vals) -> Estimate:
    if not vals:                 # an impossible reading: far outside every tolerance, never "found"
        return Estimate.exact(1e6)
    vals = np.asarray(vals, dtype=float)
    return Estimate.from_samples(vals) if vals.size > 1 and np.ptp(vals) > 0 else Estimate.exact(float(vals.mean()))


def reading_params(best: dict) -> list:
    """The readings of the PCG numbers at the reconciliation's closest point, as chosen Params (admissible: every
    declared choice of :data:`PCG_FREE`)."""
    return [Param(f"reading: {p.name}", best[p.name], "chosen", "the seed does not say; the closest reading of the "
                  "joint reconciliation of the three PCG numbers", admissible=tuple(p.choices)) for p in PCG_FREE]


def pcg_grid_size() -> int:
    return int(np.prod([len(p.choices) for p in PCG_FREE]))


def pcg_reconcile(weights: dict, prompts, seed: int, fixed: dict):
    """Search every combination of :data:`PCG_FREE` (the grid is small and every evaluation is cached); ``prompts``
    as in :class:`PcgModel`. Returns the reconciliation and the model, set to the fresh prompts of the engine's check
    of the best reading (so statements decided at that reading do not reuse the prompts that selected it)."""
    model = PcgModel(weights, prompts)
    rec = reconcile(model, PCG_FREE, PCG_TARGETS, budget=pcg_grid_size(), seed=seed, fixed=fixed,
                    label="readings of the PCG numbers")
    model.seed = rec.verify_seed
    return rec, model


# ----------------------------------------------------------------------------- the training recipe
#: the theorem's exact values: relative error of C₁₂ 0 (within the 5 % of 001-thm41-trained), off-structure share 0
#: (within 5 % of |C₁₂|), AR(2) off-pattern energy share 0 (within the 1 % of 001-lemma41-trained-support); "0.000"
#: has a printed tolerance of 5e-4 on top of the margin
RECIPE_TARGETS = [Target("AR(1): relative error of trained C₁₂ vs W*", "0.000", 0.05),
                  Target("AR(1): off-structure max(|C₁₁|, |C₂₂|)/|C₁₂|", "0.000", 0.05),
                  Target("AR(2): off-pattern energy share", "0.000", 0.01)]


def recipe_grid(quick: bool) -> list[str]:
    """Labels ``"lr=…,init=…,steps=…"`` of the declared grid (quick: the toolkit's two learning rates, one init, a
    short run)."""
    lrs = (0.003, 0.01) if quick else (0.001, 0.003, 0.01, 0.03)
    inits = (0.1,) if quick else (0.01, 0.1, 0.5)
    steps = (150,) if quick else (500, 2000)
    return [f"lr={lr},init={i},steps={n}" for lr in lrs for i in inits for n in steps]


def parse_recipe(label: str) -> dict:
    kv = dict(x.split("=") for x in label.split(","))
    return {"lr": float(kv["lr"]), "init": float(kv["init"]), "steps": int(kv["steps"])}


def recipe_free(quick: bool) -> list[Parameter]:
    pts = [parse_recipe(x) for x in recipe_grid(quick)]
    return [Parameter(name, choices=tuple(sorted({p[name] for p in pts}))) for name in ("lr", "init", "steps")]


def recipe_point(label: str, T: int, batch: int, seed: int, w_star: float, prior) -> dict:
    """Train one AR(1) and one AR(2) run of setting (a) with the recipe ``label`` (Adam, 5 % warm-up, cosine decay,
    no clipping, fresh systems every step; the same ``seed`` at every grid point) and return the three statistics."""
    r = parse_recipe(label)
    out = {"label": label, **r}
    try:
        a1 = train_linear_attention(T, 1, prior, steps=r["steps"], batch=batch, seed=seed, lr=r["lr"],
                                        clip=None, init_scale=r["init"])
        C = effective_coefficients(a1.W_QK, a1.W_V)[:, :, 0]
        out["rel_err"] = float(C[0, 1] / w_star - 1)
        out["off"] = float(max(abs(C[0, 0]), abs(C[1, 1])) / max(abs(C[0, 1]), 1e-300))
        a2 = train_linear_attention(T, 2, prior, steps=r["steps"], batch=batch, seed=seed + 1, lr=r["lr"],
                                        clip=None, init_scale=r["init"])
        out["energy"] = float(offpattern_energy(a2.W_QK, a2.W_V))
    except ValueError as exc:          # the run diverged at this recipe: a finding of the grid, not an error
        out.update(rel_err=1e6, off=1e6, energy=1e6, diverged=str(exc)[:200])
    return out


def recipe_reconcile(points: dict, quick: bool, seed: int, fixed: dict, T: int, batch: int, w_star: float, prior):
    """Search the grid (every point was trained by the fixture with the training seed ``seed``) for a recipe meeting
    the three targets jointly; the engine's out-of-sample check of the best recipe retrains it with a fresh seed."""
    by = {(p["lr"], p["init"], p["steps"]): p for p in points.values()}

    def model(params, s):
        key = (params["lr"], params["init"], params["steps"])
        p = by[key] if s == seed else recipe_point(f"lr={key[0]},init={key[1]},steps={key[2]}", T, batch, s, w_star,
                                                   prior)
        return {RECIPE_TARGETS[0].name: p["rel_err"], RECIPE_TARGETS[1].name: p["off"],
                RECIPE_TARGETS[2].name: p["energy"]}
    free = recipe_free(quick)
    return reconcile(model, free, RECIPE_TARGETS, budget=max(10, len(by)), seed=seed, fixed=fixed,
                     label="training recipe")
