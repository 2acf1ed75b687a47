r"""Reconciliation: is there a reasonable setting of the unstated parameters that reproduces *all* the
stated numbers of one experiment at once — and if not, how close can one get?

A paper states numbers (LMS = 0.264, RLS = 0.256 at γ = 0.8, …) that depend on parameters it does
not give. :func:`reconcile` searches the declared ranges and discrete choices of those parameters
for a setting whose model output matches every target **jointly**:

* each :class:`Target` has the stated value (as printed) and a tolerance — half a unit of its last
  printed digit plus a declared modelling margin;
* the objective is the sum over targets of the squared residual in units of that declared tolerance
  (the Monte Carlo error is *not* in the objective, so the search cannot prefer settings where our
  simulation is merely noisier); the model is evaluated with **common random numbers** (the same seed at
  every evaluation) so the objective is smooth in the parameters;
* the search is scipy's :func:`~scipy.optimize.differential_evolution` over the continuous parameters
  and the indices of the discrete choices (``integrality``), then a bounded local refinement
  (:func:`~scipy.optimize.minimize`, Powell) of the continuous ones, stopping at a stated budget of
  model evaluations;
* the best setting is then **verified out of sample**: the model is run once more with a fresh seed and
  **found** means every target is within its tolerance there, the Monte Carlo error allowed for
  (:math:`|\hat y-y_{\rm stated}| \le \mathrm{tol} + 2\,\mathrm{SE}`) and the estimate precise enough to
  tell (:math:`2\,\mathrm{SE} \le \mathrm{tol}`) — a search that fits its own noise, or a model too noisy to
  exclude the target, is not "found". The in-sample residuals are kept as ``search_residuals``.

The result (:class:`Reconciliation`) goes into ``results.json`` (``reconciliation`` blocks of the
claim) and the report's *Reconciliation* section; the claim can decide dependent statements at the
reconciled setting (as toolkit choices: ``chosen=rec.best``).

>>> def model(p, seed):
...     return {"y1": 2 * p["a"] + p["b"], "y2": p["a"] - p["b"]}
>>> rec = reconcile(model, [Parameter("a", 0, 5), Parameter("b", -5, 5)],
...                 [Target("y1", "4.00"), Target("y2", "1.00")], budget=400, seed=1)
>>> rec.found, round(rec.best["a"], 2), round(rec.best["b"], 2)
(True, 1.67, 0.67)
"""
from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Callable, Sequence

import numpy as np
from scipy import optimize

from .validate import ParameterTypeError, check_callable, check_int, check_real, check_str
from .verdicts.estimate import as_estimate
from .verdicts.rules import printed_tolerance

__all__ = ["Parameter", "Target", "Reconciliation", "reconcile", "BudgetExhausted"]

Z_MC = 2.0


@dataclass(frozen=True)
class Parameter:
    """A free (unstated) parameter: a continuous range ``[low, high]`` (``log`` for a log scale) or a
    list of discrete ``choices`` (conventions such as the averaging window)."""

    name: str
    low: float | None = None
    high: float | None = None
    choices: tuple | None = None
    log: bool = False

    def __post_init__(self):
        check_str("name", self.name)
        if self.choices is not None:
            if isinstance(self.choices, (str, bytes)) or not hasattr(self.choices, "__len__"):
                raise ParameterTypeError(f"choices of parameter {self.name} must be a list or tuple")
            if len(self.choices) == 0:
                raise ValueError(f"parameter {self.name}: choices must not be empty")
            object.__setattr__(self, "choices", tuple(self.choices))
        else:
            if self.low is None or self.high is None:
                raise ValueError(f"parameter {self.name}: give finite low < high, or choices")
            lo, hi = check_real("low", self.low), check_real("high", self.high)
            if not lo < hi:
                raise ValueError(f"parameter {self.name}: give finite low < high, or choices")
            if self.log and self.low <= 0:
                raise ValueError(f"parameter {self.name}: a log-scale range needs low > 0")

    def describe(self):
        return list(self.choices) if self.choices is not None else [self.low, self.high] + (["log"] if self.log else [])


@dataclass(frozen=True)
class Target:
    """A stated number (``stated`` as printed) with a declared ``model_margin`` on top of its printed precision."""

    name: str
    stated: str
    model_margin: float = 0.0

    def __post_init__(self):
        check_str("name", self.name)
        if not isinstance(self.stated, str):
            raise ParameterTypeError(f"stated must be the number as printed (a string such as '0.264'), got "
                                     f"{self.stated!r}")
        printed_tolerance(self.stated)
        check_real("model_margin", self.model_margin, low=0.0)

    @property
    def value(self) -> float:
        return printed_tolerance(self.stated)[0]

    @property
    def tolerance(self) -> float:
        return printed_tolerance(self.stated)[1] + float(self.model_margin)


class BudgetExhausted(Exception):
    pass


@dataclass
class Reconciliation:
    free_parameters: dict
    targets: list
    found: bool
    best: dict
    residuals: list
    evaluations: int
    budget: int
    objective: float
    method: str
    interpretation: str = ""
    fixed: dict = field(default_factory=dict)
    label: str = ""
    search_residuals: list = field(default_factory=list)
    verify_seed: int | None = None

    def as_dict(self) -> dict:
        return {"label": self.label, "search_residuals": self.search_residuals, "verify_seed": self.verify_seed,
                "free_parameters": self.free_parameters, "fixed": self.fixed, "targets": self.targets,
                "found": self.found, "best": self.best, "residuals": self.residuals, "evaluations": self.evaluations,
                "budget": self.budget, "objective": self.objective, "method": self.method,
                "interpretation": self.interpretation}


def _residuals(out: dict, targets: Sequence[Target]) -> list[dict]:
    rows = []
    for t in targets:
        if t.name not in out:
            raise ValueError(f"the model did not return target {t.name!r}")
        e = as_estimate(out[t.name])
        tol = t.tolerance + Z_MC * e.se
        r = e.mean - t.value
        rows.append({"target": t.name, "stated": t.stated, "estimate": e.mean, "se": e.se, "residual": r,
                     "tolerance": tol, "in_tolerance_units": r / tol if tol > 0 else math.copysign(math.inf, r),
                     "within": abs(r) <= tol and Z_MC * e.se <= t.tolerance, "precise": Z_MC * e.se <= t.tolerance,
                     "declared_tolerance": t.tolerance})
    return rows


def _objective(rows) -> float:
    """Squared residuals in units of the *declared* tolerance (no Monte Carlo error: noise earns nothing)."""
    out = 0.0
    for x in rows:
        u = x["residual"] / x["declared_tolerance"] if x["declared_tolerance"] > 0 else \
            (0.0 if x["residual"] == 0 else math.inf)
        out += min(u * u, 1e12)
    return float(out)


def _check_search(model, free, targets, budget, seed, label) -> tuple[int, int]:
    if not isinstance(label, str):
        raise ParameterTypeError(f"label must be a string, got {type(label).__name__}")
    check_callable("model", model)
    budget = check_int("budget", budget, minimum=10, maximum=10 ** 7)
    seed = check_int("seed", seed, minimum=0, maximum=2 ** 32 - 1)
    if not isinstance(free, (list, tuple)) or not all(isinstance(p, Parameter) for p in free):
        raise ParameterTypeError("free must be a list of Parameter")
    if not free:
        raise ValueError("free must name at least one Parameter to search")
    if not isinstance(targets, (list, tuple)) or not all(isinstance(t, Target) for t in targets):
        raise ParameterTypeError("targets must be a list of Target")
    if not targets:
        raise ValueError("targets must hold at least one Target")
    names = [p.name for p in free]
    if len(set(names)) != len(names):
        raise ValueError("free parameter names must be distinct")
    return budget, seed


def _global_search(f, cont, disc, bounds, budget, seed) -> str:
    """Differential evolution over the box (a grid when every parameter is discrete); returns the method."""
    method = "grid over the discrete choices"
    # one evaluation at the centre first: a model that does not return every target fails here, clearly
    if cont:
        f(np.array([(lo + hi) / 2 for lo, hi in bounds[:len(cont)]] + [0.0] * len(disc)))
    try:
        if not cont:
            for combo in itertools.product(*[range(len(p.choices)) for p in disc]):
                f(np.array(combo, dtype=float))
        else:
            popsize = max(5, min(15, budget // (20 * max(1, len(bounds)))))
            integrality = [False] * len(cont) + [True] * len(disc)
            method = "differential evolution"
            optimize.differential_evolution(f, bounds, seed=seed, popsize=popsize, maxiter=10 ** 6, tol=1e-10,
                                            polish=False, integrality=integrality, updating="immediate")
    except BudgetExhausted:
        pass
    return method


def _refine(f, cont, disc, bounds, best, remaining) -> str:
    """Powell refinement of the continuous parameters from the best setting (the discrete ones fixed)."""
    x0 = np.array([(math.log10(best["params"][p.name]) if p.log else best["params"][p.name]) for p in cont])
    dfix = {p.name: best["params"][p.name] for p in disc}

    def g(xc):
        return f(np.concatenate([xc, [p.choices.index(dfix[p.name]) for p in disc]]))
    try:
        optimize.minimize(g, x0, method="Powell", bounds=bounds[:len(cont)],
                          options={"maxfev": remaining, "xtol": 1e-6, "ftol": 1e-10})
        return " + Powell refinement"
    except BudgetExhausted:
        return " + Powell refinement (stopped at the budget)"


def _interpretation(rows, search_rows, best_params, fixed, evaluations) -> str:
    worst = max(rows, key=lambda r: abs(r["in_tolerance_units"]))
    setting = ", ".join(f"{k} = {v:.4g}" if isinstance(v, float) else f"{k} = {v}" for k, v in best_params.items()
                        if k not in fixed)
    if all(r["within"] for r in rows):
        return (f"A setting within the declared ranges reproduces all {len(rows)} stated numbers jointly ({setting}), "
                f"verified on a fresh seed; the largest residual there is {abs(worst['in_tolerance_units']):.2f} of "
                f"its tolerance ({worst['target']}).")
    insample = all(r["within"] for r in search_rows)
    noisy = [r["target"] for r in rows if not r["precise"]]
    return (f"No setting within the declared ranges reproduces all {len(rows)} stated numbers jointly within "
            f"{evaluations} model evaluations" + (" (the best one matched in sample but not on a fresh seed)"
                                                  if insample else "") +
            (f"; the estimates of {', '.join(noisy)} are too imprecise to tell (2 SE above the tolerance)"
             if noisy else "") +
            f"; the closest ({setting}) misses {worst['target']} by {abs(worst['residual']):.4g} = "
            f"{abs(worst['in_tolerance_units']):.1f} times its tolerance on a fresh seed.")


def reconcile(model: Callable[[dict, int], dict], free: Sequence[Parameter], targets: Sequence[Target], *,
              budget: int = 300, seed: int = 0, fixed: dict | None = None, label: str = "",
              verify_seed: int | None = None) -> Reconciliation:
    """Search the free parameters for a setting reproducing every target jointly (see the module docstring).

    ``model(params, seed)`` returns ``{target name: Estimate | MeanEstimate | number}``; ``params`` holds
    the free parameters (discrete ones as their chosen value) and ``fixed``; ``label`` names the search in the
    report (several searches of one claim); ``verify_seed`` (default ``seed + 1``) is the fresh seed of the
    out-of-sample check of the best setting.
    """
    budget, seed = _check_search(model, free, targets, budget, seed, label)
    fixed = dict(fixed or {})
    cont = [p for p in free if p.choices is None]
    disc = [p for p in free if p.choices is not None]
    count = {"n": 0}
    best = {"obj": math.inf, "params": None, "rows": None}

    def decode(x):
        params = dict(fixed)
        for p, v in zip(cont, x[:len(cont)]):
            params[p.name] = float(10 ** v) if p.log else float(v)
        for p, v in zip(disc, x[len(cont):]):
            params[p.name] = p.choices[int(round(v))]
        return params

    def f(x):
        if count["n"] >= budget:
            raise BudgetExhausted
        count["n"] += 1
        params = decode(x)
        rows = _residuals(model(params, seed), targets)
        obj = _objective(rows)
        if obj < best["obj"]:
            best.update(obj=obj, params=params, rows=rows)
        return obj

    bounds = [((math.log10(p.low), math.log10(p.high)) if p.log else (p.low, p.high)) for p in cont] + \
             [(0, len(p.choices) - 1) for p in disc]
    method = _global_search(f, cont, disc, bounds, budget, seed)
    if cont and count["n"] < budget and best["params"] is not None:
        method += _refine(f, cont, disc, bounds, best, budget - count["n"])
    search_rows = best["rows"]
    vseed = check_int("verify_seed", verify_seed, minimum=0, maximum=2 ** 32 - 1) if verify_seed is not None \
        else (seed + 1) % 2 ** 32
    rows = _residuals(model(dict(best["params"]), vseed), targets)
    interp = _interpretation(rows, search_rows, best["params"], fixed, count["n"])
    return Reconciliation({p.name: p.describe() for p in free},
                          [{"name": t.name, "stated": t.stated, "value": t.value, "tolerance": t.tolerance}
                           for t in targets], all(r["within"] for r in rows),
                          {k: v for k, v in best["params"].items() if k not in fixed},
                          rows, count["n"], budget, best["obj"], method, interp, fixed, label, search_rows, vseed)
