r"""Run sizes of paper 001 and the toolkit's choices for everything the source leaves open.

The seed summary gives the architecture, T = 30, d = 5, the four qualitative data settings and the
training recipe only in words (AdamW, clipping, warm-up, cosine, 8000 steps, batch from 3000, 3
seeds). It gives no law for the eigenvalues of A, x₀, Σ_w, σ_v, no learning rate, weight decay,
clip threshold or batch sizes for s ≥ 2. Everything below that is not in the seed is a *choice*:
it is listed in :data:`PRIOR_DEFAULTS` / :data:`RECIPE` and passed as ``chosen=`` to every rule
whose evidence depends on it, so a failure there is "not reproduced", never "refuted".
Identities that the paper states for *every* centrally symmetric prior are checked on these
priors as instances of the universal statement; their scope says so.
"""
from __future__ import annotations

import numpy as np

from ...models.dynamics import make_prior

#: Prior parameters (ours; the paper gives none). Settings (a)-(d) as in :func:`theorycheck.models.dynamics.make_prior`.
PRIOR_DEFAULTS = {"d": 5, "a_max": 0.95, "sigma0": 1.0, "sigma_w": 0.5, "sigma_v": 0.5}

#: Training recipe (ours where the seed is silent). No clipping: the threshold is not given, and
#: clipping heavy-tailed stochastic gradients moves the fixed point of training.
RECIPE = {"optimiser": "Adam, no weight decay, no gradient clipping", "lr_ar1": 0.003, "lr": 0.01,
          "warmup": "5 % linear", "schedule": "cosine decay to 0", "init": "i.i.d. N(0, 0.1²)",
          "data": "fresh systems and trajectories every step"}

SETTINGS = ("a", "b", "c", "d")


def prior(setting: str):
    """The toolkit's prior of setting ``setting`` (``'a'``..``'d'``)."""
    return make_prior(setting, **PRIOR_DEFAULTS)


def prior_scope(setting: str = "a") -> str:
    """Short description of the prior for scopes."""
    p = PRIOR_DEFAULTS
    return (f"setting ({setting}), d = {p['d']}, a_k ~ U[−{p['a_max']}, {p['a_max']}], σ₀ = {p['sigma0']}, "
            f"σ_w = {p['sigma_w']}, σ_v = {p['sigma_v']}")


def config(ctx) -> dict:
    """Every size of the run (quick: small; full: as close to the paper as the time budget allows)."""
    if ctx.quick:
        return {
            "T": 30, "wqk_mc_batches": 20, "wqk_mc_batch": 2000, "acov_per_batch": 2000, "rb_systems": 8000,
            "antithetic_pairs": 500,
            "ratio_test_n": 80_000, "isserlis_mc_batches": 20, "isserlis_mc_batch": 10_000,
            "parity_systems": 32, "gap_systems": 500, "gap_s_max": 12, "symmetry_T": 30,
            "gd_T_values": (4, 5, 6, 7, 8), "block_cases": ((1, 5), (2, 6), (3, 7)),
            "pred_cases": ((1, 5), (2, 6)), "parity_s": (1, 2, 3, 4),
            "train_T": 12,
            "runs": {("a", 1): 3, ("b", 1): 2, ("c", 1): 2, ("d", 1): 2,
                     ("a", 2): 2, ("a", 3): 2, ("a", 4): 2, ("b", 4): 2},
            "masked": (2, 3, 4), "masked_seeds": 2,
            "steps": {"ar1": 1000, "sge2": 800}, "batch": {"ar1": 300, "sge2": 300}, "masked_steps": 800,
            "test_n": 20_000, "pcg_n": 4000, "kf_test_n": 20_000,
            "recipe_batch": 100,
        }
    return {
        "T": 30, "wqk_mc_batches": 40, "wqk_mc_batch": 12_500, "acov_per_batch": 10_000, "rb_systems": 40_000,
        "antithetic_pairs": 4000,
        "ratio_test_n": 200_000, "isserlis_mc_batches": 40, "isserlis_mc_batch": 50_000,
        "parity_systems": 256, "gap_systems": 2000, "gap_s_max": 15, "symmetry_T": 30,
        "gd_T_values": (4, 5, 6, 7, 8, 9, 10), "block_cases": ((1, 5), (2, 6), (3, 7), (4, 8)),
        "pred_cases": ((1, 5), (2, 6), (3, 7)), "parity_s": (1, 2, 3, 4),
        "train_T": 30,
        "runs": {("a", 1): 10, ("b", 1): 4, ("c", 1): 4, ("d", 1): 4,
                 ("a", 2): 5, ("a", 3): 5, ("a", 4): 10, ("b", 2): 3, ("b", 3): 3, ("b", 4): 10,
                 ("c", 2): 3, ("c", 3): 3, ("d", 2): 3, ("d", 3): 3},
        "masked": (2, 3, 4), "masked_seeds": 3,
        "steps": {"ar1": 3000, "sge2": 2000}, "batch": {"ar1": 1000, "sge2": 1000}, "masked_steps": 2000,
        "test_n": 100_000, "pcg_n": 20_000, "kf_test_n": 100_000,
        "recipe_batch": 300,
    }


def rng_for(ctx, name: str) -> np.random.Generator:
    """The random generator of the stream ``name`` (seeded from the run seed and the name only)."""
    return np.random.default_rng(ctx.seed_for(name))


def test_set(ctx, setting: str, T: int, n: int, name: str):
    """``n`` systems of ``setting`` and one trajectory of length ``T`` each, from the stream ``name``."""
    g = rng_for(ctx, name)
    sysm = prior(setting).sample(g, n)
    return sysm, sysm.simulate(T, g)


def train_size(cfg: dict, setting: str, s: int) -> tuple[int, int]:
    """(steps, batch) of a free run of ``setting`` with window ``s`` (AR(1) and s ≥ 2 differ)."""
    k = "ar1" if s == 1 else "sge2"
    return cfg["steps"][k], cfg["batch"][k]


def recipe_chosen(cfg: dict, setting: str, s: int, n_seeds: int | None = None) -> dict:
    """The training choices behind a trained run, for ``chosen=``."""
    steps, batch = train_size(cfg, setting, s)
    out = {"optimiser": RECIPE["optimiser"], "lr": RECIPE["lr_ar1"] if s == 1 else RECIPE["lr"],
           "schedule": f"{RECIPE['warmup']} warm-up, {RECIPE['schedule']}", "init": RECIPE["init"],
           "steps": steps, "batch": batch, "T": cfg["train_T"], "prior": prior_scope(setting)}
    if n_seeds is not None:
        out["seeds"] = n_seeds
    return out


def run_keys(cfg: dict) -> list[str]:
    """Labels ``"<setting>:<s>:<seed index>:<free|masked>"`` of every training run."""
    keys = [f"{st}:{s}:{i}:free" for (st, s), n in cfg["runs"].items() for i in range(n)]
    keys += [f"a:{s}:{i}:masked" for s in cfg["masked"] for i in range(min(cfg["masked_seeds"], cfg["runs"][("a", s)]))]
    return keys


def parse_key(key: str) -> tuple[str, int, int, str]:
    st, s, i, kind = key.split(":")
    return st, int(s), int(i), kind


def sizes(ctx) -> dict:
    """Run sizes and choices shown in the report."""
    cfg = config(ctx)
    out = {k: v for k, v in cfg.items() if k != "runs"}
    out["runs"] = {f"{st}, AR({s})": n for (st, s), n in cfg["runs"].items()}
    out["prior_defaults"] = dict(PRIOR_DEFAULTS)
    out["recipe"] = dict(RECIPE)
    out["settings"] = {st: prior(st).describe() for st in SETTINGS}
    return out
