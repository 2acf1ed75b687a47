"""Fault-injection mutants of paper 004: realistic mistakes in the theory (:mod:`..theory`), the models and the
claims' own arithmetic.

Each must change a listed claim's verdict (or a sub-claim's), fail one of its self-checks, or raise, at quick
sizes with the fixed self-test seed (:func:`theorycheck.selftest.run_paper_mutants`). The first four are the
previous catalogue's (``theorycheck.selftest.legacy``, section "nonlinear"); κ → 2κ in the linear ICL error
escaped it and is caught now; the model mutants exercise the simulator's self-checks.

Every mutant wraps the real function (``orig = mod.f``; the mistake is applied to what ``orig`` returns or to
the arguments it is given), so that no copy of a formula can drift from it. Each patches the function in the
module that defines it (:mod:`..theory.teachers`, :mod:`..theory.icl`, :mod:`..theory.a1zero`,
:mod:`..theory.simulate`, :mod:`theorycheck.models`, :mod:`..fixtures`, :mod:`..reconciliation`, the claims'
shared helpers :data:`HELPERS`) — where the logic lives, a private implementation behind a validating public
function when there is one (``icl._linear_error``, ``simulate._run_sweep``), so that every route to it carries
the mistake; the self-test's :meth:`~theorycheck.selftest.Patcher.replace` rebinds every other binding of the same
function too (the theory package's re-exports, the modules that import it by name), so the claims see the mistake
wherever they look it up.
"""
from __future__ import annotations

import dataclasses

import math

from ....models import attention, prompts, ridge
from ...api import Mutant
from .. import fixtures, reconciliation
from ..theory import a1zero, icl, simulate, teachers
from .consistency import CHECKS  # noqa: F401  (found by the self-test through Paper(mutants=...))

#: the module of the claims' shared helpers (private to the claims package: named, not imported)
HELPERS = "theorycheck.papers.nonlinear.claims._helpers"


def _omit_m0(p):
    orig = teachers.rho_nonlinear

    def rho_nonlinear(f, rho):
        return orig(f, rho) - teachers.teacher_moments(f)["a0"] ** 2    # BUG: a₀² dropped
    p.replace(teachers, "rho_nonlinear", rho_nonlinear)


def _a1zero_uses_rho(p):
    orig = icl.e_icl_nonlinear

    def e_icl_nonlinear(f, tau, alpha, kappa, rho, lam=0.0, **kw):
        if float(teachers.teacher_moments(f)["a1"]) == 0.0:
            return a1zero.risk_a1_zero(tau, rho, alpha, lam)             # BUG: ρ, not ρ_nl
        return orig(f, tau, alpha, kappa, rho, lam, **kw)
    p.replace(icl, "e_icl_nonlinear", e_icl_nonlinear)


def _swap_branches(p):
    orig = a1zero.pure_noise_error

    def pure_noise_error(s):
        tau, rho_nl = s.tau, s.rho
        e = orig(s)
        if s.lam == 0 and tau != 1 and rho_nl != 0:
            # BUG: swapped — ρ_nl τ/(τ − 1) = −τ·ρ_nl/(1 − τ) below τ = 1, ρ_nl/(1 − τ) = −(ρ_nl τ/(τ − 1))/τ above
            return -tau * e if tau < 1 else -e / tau
        return e
    p.replace(a1zero, "pure_noise_error", pure_noise_error)


def _rho_f_for_rho_nl(p):
    p.replace(teachers, "rho_nonlinear", teachers.rho_f)                 # BUG: a₁² counted as noise too


def _kappa_doubled(p):
    orig = icl._linear_error                  # the isotropic closed form itself, wherever it is reached from

    def linear_error(s):
        return orig(s.replace(kappa=2 * s.kappa))                        # BUG: κ → 2κ
    p.replace(icl, "_linear_error", linear_error)


def _u_scale(p):
    orig = prompts.context_statistics

    def context_statistics(fn, W, ell, rho, rng, method="projected", chunk=2048, **kw):
        U, S = orig(fn, W, ell, rho, rng, method, chunk, **kw)
        return U / W.shape[1], S                                         # BUG: u = (1/ℓ)Σ y x, factor d lost
    p.replace(prompts, "context_statistics", context_statistics)


def _features_drop_s(p):
    orig = attention.reduced_features
    orig_f = ridge.fit_prefixes_factored

    def reduced_features(xq, U, S):
        return orig(xq, U, 0.0 * S)                                      # BUG: the s column of H dropped
    p.replace(attention, "reduced_features", reduced_features)

    def fit_prefixes_factored(xq, Z, y, ns, d, lam):
        Z = Z.copy()
        Z[:, -1] = 0.0                                                   # the same bug in the factored solver
        return orig_f(xq, Z, y, ns, d, lam)
    p.replace(ridge, "fit_prefixes_factored", fit_prefixes_factored)


def _penalty_unscaled(p):
    orig = ridge.fit_prefixes

    def fit_prefixes(X, y, ns, d, lam):
        return [orig(X, y, [n], d, lam * d / n)[0] for n in ns]          # BUG: penalty λ instead of (n/d)λ
    p.replace(ridge, "fit_prefixes", fit_prefixes)
    orig_f = ridge.fit_prefixes_factored

    def fit_prefixes_factored(xq, Z, y, ns, d, lam):
        return [orig_f(xq, Z, y, [n], d, lam * d / n)[0] for n in ns]    # the same bug in the factored solver
    p.replace(ridge, "fit_prefixes_factored", fit_prefixes_factored)


def _error_drops_noise(p):
    orig = simulate._run_sweep                # the simulator itself (simulate_icl_sweep and simulate_teachers)

    def run_sweep(f, args, method, C_train, C_test):
        r = orig(f, args, method, C_train, C_test)                       # BUG: test error without the label noise ρ
        tm = r.trial_means - args.rho
        return dataclasses.replace(r, trial_means=tm, mean=tm.mean(axis=0))
    p.replace(simulate, "_run_sweep", run_sweep)


def _trivial_is_contender(p):
    def result1_theory(config):
        th, _ = orig(config)
        return th, th                          # BUG: the trivial alternative (noise-only) computed as Result 1 itself
    orig = p.replace(HELPERS, "result1_theory", result1_theory)


def _fig2_tau_is_alpha(p):
    orig = fixtures.fig2_curves

    def fig2_curves(runs):
        out = orig(runs)
        for a, c in out.items():
            c["tau"] = a                       # BUG: Figure 2's theory curve at τ = α instead of τ = α/2
        return out
    p.replace(fixtures, "fig2_curves", fig2_curves)


def _fig1_divides_by_a1(p):
    orig = reconciliation.fig1_normalisations

    def fig1_normalisations():
        out = orig()
        c_sin, c_lin = out["MSE ÷ a₁²"]
        out["MSE ÷ a₁²"] = (math.sqrt(c_sin), c_lin)       # BUG: the sin MSE divided by a₁, not a₁²
        return out
    p.replace(reconciliation, "fig1_normalisations", fig1_normalisations)


MUTANTS = [
    Mutant("nonlinear-rho-nl-omit-m0", "ρ_nl = ρ + Σ_{m≥2} a_m²: the m = 0 term a₀² omitted (matters for ReLU, |g|, "
           "g + c)", ("004-rho-definitions", "004-rho-nl-includes-m0"), _omit_m0),
    Mutant("nonlinear-a1zero-uses-rho", "a₁ = 0 branch of Result 1 evaluated with the label noise ρ instead of ρ_nl",
           ("004-a1zero-boxed",), _a1zero_uses_rho),
    Mutant("nonlinear-swap-ridgeless-branches", "ridgeless a₁ = 0 risk with its branches swapped at τ = 1",
           ("004-a1zero-teaching-numbers", "004-a1zero-boxed"), _swap_branches),
    Mutant("nonlinear-rho-f-for-rho-nl", "Result 1 with ρ_f = ρ + E f² as effective noise instead of ρ_nl = ρ_f − a₁²",
           ("004-sin-numbers", "004-rho-definitions"), _rho_f_for_rho_nl),
    Mutant("nonlinear-kappa-doubled", "κ → 2κ in the linear ICL error e_icl_linear",
           ("004-task-diversity-transition", "004-result1"), _kappa_doubled),
    Mutant("nonlinear-u-missing-d", "context statistic u = (1/ℓ)Σ yᵢxᵢ without the factor d",
           ("004-appendix-b-moments",), _u_scale),
    Mutant("nonlinear-features-drop-s", "features H = x_test[uᵀ, s] built without the s column",
           ("004-predictor-and-ridge",), _features_drop_s),
    Mutant("nonlinear-ridge-penalty-unscaled", "ridge penalty λ‖γ‖² instead of (n/d)λ‖γ‖² (Eq. (6))",
           ("004-predictor-and-ridge",), _penalty_unscaled),
    Mutant("nonlinear-test-error-drops-noise", "simulated test error without the label-noise variance ρ",
           ("004-fig2-simulation",), _error_drops_noise),
    Mutant("nonlinear-trivial-is-contender", "Result 1's trivial alternative (the noise-only substitution) computed as "
           "Result 1 itself", ("004-result1",), _trivial_is_contender),
    Mutant("nonlinear-fig2-tau-is-alpha", "Figure 2's theory curve evaluated at τ = α instead of τ = α/2",
           ("004-fig2-overlay", "004-fig2-simulation"), _fig2_tau_is_alpha),
    Mutant("nonlinear-fig1-divides-by-a1", "Figure 1's normalised reading divides the sin MSE by a₁ instead of a₁²",
           ("004-fig1-shape", "004-fig1-gap"), _fig1_divides_by_a1),
]
