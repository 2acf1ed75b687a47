"""Scopes, choices and paired differences of the filter evidence of paper 000, shared by the experiment claims
(:mod:`.experiments`, lines 58–66) and the findings (:mod:`.findings`, lines 70–89)."""
from __future__ import annotations

import numpy as np

from ...verdicts import Estimate
from .common import beats_zero
from .reconciliation import DIVERGED
from .settings import T_FILTER

__all__ = ["filters_scope", "paired", "NOT_FOUND", "rec_scope", "rec_chosen", "held", "held_diff",
           "filter_trivial", "FILTER_NAMES"]

FILTER_NAMES = {"gla": "GLA", "lms": "LMS", "rls": "RLS", "kalman": "Kalman (Bayes)"}


def filters_scope(f):
    return (f"T = {f['T']}, γ = {f['gamma']}, {f['runs_eval']} evaluation streams shared by all methods (paired), "
            f"μ = {f['best_mu']:g}, β = {f['best_beta']:g} tuned on {f['runs_scan']} other streams, GLA at λ* = "
            f"{f['gla_lam']:.4f} with its population-optimal Γ")


def paired(f, a, b):
    return Estimate.from_samples(f["eval"][a] - f["eval"][b])


def filter_trivial(f, methods=("gla", "lms", "rls")) -> list:
    """C11 for the filter experiment ``f``: each method against predicting 0 (the prior mean of y_t, also the
    prior-optimal constant), paired on the evaluation streams; reference = predicting 0's mean error E[y²]."""
    ey2 = float(np.mean(f["eval"]["zero"]))
    return [beats_zero(FILTER_NAMES[m], paired(f, "zero", m), ey2) for m in methods]


NOT_FOUND = ("No setting within the declared ranges reproduced the three stated numbers jointly (see the "
              "Reconciliation section: its smallest joint residual is the finding); the statements that depend on the "
              "experiment's setting (GLA lower, the trends with γ) are therefore not decided at the closest setting, "
              "which does not reproduce the numbers. The numbers themselves are re-evaluated there on fresh streams.")


def rec_scope(rf, gamma):
    rec, sz = rf["rec"], rf["sizes"]
    return (f"T = {T_FILTER}, γ = {gamma}, the setting of the joint search ({'found' if rec.found else 'closest, not found'}"
            f"; {rec.evaluations} evaluations on {sz['runs']} common-random-number streams), evaluated on "
            f"{sz['heldout_runs']} fresh streams shared by LMS, RLS and GLA (paired; GLA at λ* = "
            f"{rf['heldout'][gamma]['gla_lam']:.4f} with its population-optimal Γ for n = T − 1)")


def rec_chosen(rf):
    return {**rf["setting"], "setting": "reconciled (seed lines 58, 72 jointly)" if rf["rec"].found else
            "closest to the stated numbers (no setting reproduces them jointly)"}


def held(v):
    """Per-run values of a held-out method (None: a run diverged → the stand-in error, exact)."""
    return Estimate.exact(DIVERGED, label="diverged") if v is None else Estimate.from_samples(v)


def held_diff(a, b):
    if a is None or b is None:
        return Estimate.exact(DIVERGED if a is None else -DIVERGED)
    return Estimate.from_samples(a - b)
