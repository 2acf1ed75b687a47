r"""Claims of paper 004, seed lines 140–164: Result 1 and the a₁ = 0 branch, in seed order.

The d → ∞ statements are decided by :func:`theorycheck.verdicts.rules.asymptotic` on simulations of the
actual model over a grid of d, under every finite-size law the engine declares
(:data:`theorycheck.verdicts.FINITE_SIZE_LAWS`); the d grid and the trial counts are the toolkit's
choices (the seed states no finite size for these statements) and are passed as ``chosen``.
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp

from ...memo import memoize
from ...verdicts import FINITE_SIZE_LAWS, Estimate, rules, selfcheck
from ..api import Derivation, Note
from . import assumptions as _assumptions, figures, theory as nl
from .derivations import nonlinear_a1_zero as A
from .generated import nonlinear_a1_zero as NA
from .registry import claims
from .settings import A1ZERO_ALT, A1ZERO_BASE, A1ZERO_TAUS, RESULT1_CONFIGS, RHO, sizes


def _scan_estimates(samples_per_d):
    """Per-size Student-t estimates (means, ses, dfs) from a list of per-trial arrays."""
    ests = [Estimate.from_samples(x) for x in samples_per_d]
    return [e.mean for e in ests], [e.se for e in ests], [e.df for e in ests]


def _kappa(k) -> str:
    return "∞" if math.isinf(k) else f"{k:g}"


def _scan_chosen(ctx) -> dict:
    sz = sizes(ctx)
    return {"d grid": list(sz["ext_ds"]), "trials per d": list(sz["ext_trials"]),
            "test prompts per trial": sz["ext_ntest"]}


# ================================================================================ Result 1
@claims.claim("004-result1", lines=(140, 148), conventions=["C2", "C3", "C4", "C5"], needs=("result1_scan",),
              revision={"previous": "confirmed",
                        "why": "the old verdict rested on a 1/d finite-size law chosen after seeing the data and on "
                               "normal z-tests; now rules.asymptotic under every declared law, Student-t df from the "
                               "trials, a 5 % margin declared in code, and the reduction itself tested directly as "
                               "teacher − surrogate → 0 (paired). Round 1 → inconclusive under {1/d, 1/√d}. Round 2: "
                               "the engine's law set grew to {1/d, 1/√d, 1/d + 1/d²} (declared engine-wide; a law "
                               "added can only move a verdict towards inconclusive). Where the reduction breaks: the "
                               "stress paths of this claim."})
def result1(ctx, result1_scan):
    """For a₁ ≠ 0 the nonlinear teacher is equivalent to the surrogate linear teacher ỹ = a₁xᵀw + ε̃ with
    Var ε̃ = ρ_nl (task covariance a₁²C, label second moment a₁² + ρ_nl = ρ_f): e_ICL^nl(C, C, ρ) =
    e_ICL^lin(a₁²C, a₁²C, ρ_nl) as d → ∞ without regularisation; the signal covariance is scaled, not only the
    noise."""
    MARGIN_REL = 0.05    # "equal" to within 5 % of the predicted error (the effects the reduction explains are ≥ 30 %)
    for f in ("sin", "relu"):
        m = nl.teacher_moments(f)
        yield rules.identity(f"{f}: surrogate label second moment a₁² + ρ_nl = ρ_f", m["a1"] ** 2 +
                             nl.rho_nonlinear(f, RHO), nl.rho_f(f, RHO), scope="exact (SymPy), ρ = 1/10")
    chosen, panels = _scan_chosen(ctx), {}
    for config, data in result1_scan.items():
        f, al, ka, tau = RESULT1_CONFIGS[config]
        th = nl.e_icl_nonlinear(f, tau, al, ka, RHO)
        where = f"{f}, α = {al:g}, κ = {_kappa(ka)}, τ = {tau:g}"
        scope = (f"actual model, {where}, ρ = 0.1, d ∈ {data['ds']}, trials {list(sizes(ctx)['ext_trials'])}, "
                 f"finite-size laws {list(FINITE_SIZE_LAWS)}")
        pm, ps, pdf = _scan_estimates([t - s for t, s in zip(data["teacher"], data["surrogate"])])
        tm, ts, tdf = _scan_estimates(data["teacher"])
        yield rules.asymptotic(f"{where}: teacher − surrogate → 0 as d → ∞", data["ds"], pm, ps, 0.0,
                               margin=MARGIN_REL * th, dfs=pdf, scope=scope + " (paired trials)", chosen=chosen)
        yield rules.asymptotic(f"{where}: teacher error → Result 1 = {th:.4f}", data["ds"], tm, ts, th,
                               margin=MARGIN_REL, relative=True, dfs=tdf, scope=scope, chosen=chosen)
        noise_only = nl.e_icl_linear(tau, al, ka, float(nl.rho_nonlinear(f, RHO)))
        yield rules.inequality(f"{where}: Result 1 differs from the noise-only substitution e_lin(C, ρ_nl) = "
                               f"{noise_only:.4f}", abs(th - noise_only), ">", 0.0, scope="exact")
        sm, ss, _ = _scan_estimates(data["surrogate"])
        panels[where] = {"ds": data["ds"], "teacher": (tm, ts), "surrogate": (sm, ss), "theory": th, "dfs": tdf}
        yield from _linear_theory_selfchecks(al, ka, tau, f)
    ctx.save_figure(*figures.result1_extrapolation(panels, ctx.mode))
    yield _assumptions.assumption_note("004-result1")
    yield Note("Surrogate: labels a₁xᵀw + ε̃ with Var ε̃ = ρ_nl, simulated with the teacher's random numbers (same "
               "tasks, inputs and standard-normal draws), so teacher − surrogate is a paired difference per trial.")
    yield Derivation(r"e^{\rm nl}_{\rm ICL}(C,\rho)=e^{\rm lin}_{\rm ICL}(a_1^2C,\rho_{\rm nl})"
                     r"=a_1^2\,e^{\rm lin}_{\rm ICL}\big(C,\rho_{\rm nl}/a_1^2\big)\ (\lambda=0)")


def _linear_theory_selfchecks(alpha, kappa, tau, f):
    """Two independent routes to the linear ICL error and to Result 1 (catch e.g. κ → 2κ in one of them)."""
    I = np.ones(200)
    yield selfcheck.identity(f"e_lin: isotropic closed form = Silverstein general form at C = I (α = {alpha:g}, "
                             f"κ = {_kappa(kappa)}, τ = {tau:g})", nl.e_icl_linear(tau, alpha, kappa, RHO),
                             nl.e_icl_linear_general(tau, alpha, kappa, RHO, I, I), rtol=1e-9)
    yield selfcheck.identity(f"Result 1 ({f}): label rescaling = covariance scaling a₁²I",
                             nl.e_icl_nonlinear(f, tau, alpha, kappa, RHO),
                             nl.e_icl_nonlinear(f, tau, alpha, kappa, RHO, method="covariance"), rtol=1e-9)


# ================================================================================ the a₁ = 0 branch
@memoize("papers.nonlinear.claims_theory.a1_zero_derivation", maxsize=1)
def _a1_zero_derivation():
    """``A.derive()`` of :mod:`theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero` (no arguments,
    deterministic; its SymPy expressions are immutable and only read here): three claims use it, so it is derived
    once per process (a registered memo, cleared by the self-test); its assertions run on the first call."""
    return A.derive()


@claims.claim("004-a1zero-fixed-point", lines=(154, 158), conventions=["C2", "C3"],
              revision={"previous": "confirmed", "why": "decided by identity rules on the SymPy derivation (the "
                        "previous verdict was a hand-written conjunction); generated code checked as a self-check."})
def a1zero_fixed_point(ctx):
    """With q = ρ_nl/α, χ₀ = q/(qτ/(1+χ₀) + τλ); λ̃ = λ(1+χ₀) → q(1−τ)/τ for τ < 1 and → 0 for τ > 1 as λ → 0."""
    r = _a1_zero_derivation()
    tau, q, lam, s = A.tau, A.q, A.lam, A.s
    fp_rhs = q / (q * tau / (1 + r["chi0"]) + tau * lam)
    yield rules.identity("χ₀ (positive root) solves χ₀ = q/(qτ/(1+χ₀) + τλ)", r["chi0"], fp_rhs,
                         scope="exact (SymPy), symbolic τ, q, λ > 0")
    below = sp.limit(r["lam_tilde"].subs(tau, 1 / (1 + s)), lam, 0, "+")
    above = sp.limit(r["lam_tilde"].subs(tau, 1 + s), lam, 0, "+")
    yield rules.identity("τ < 1: λ̃ → q(1−τ)/τ as λ → 0⁺", below, (q * (1 - tau) / tau).subs(tau, 1 / (1 + s)),
                         scope="exact (SymPy), τ = 1/(1+s), s > 0")
    yield rules.identity("τ > 1: λ̃ → 0 as λ → 0⁺", above, 0, scope="exact (SymPy), τ = 1 + s, s > 0")
    pts = [(t, 0.5) for t in (0.3, 0.5, 0.9, 1.5, 2.0, 5.0)]
    yield selfcheck.identity("generated λ̃(τ, q, λ = 1e-12) = the SymPy limits",
                             [float(NA.lam_tilde(t, qq, 1e-12)) for t, qq in pts],
                             [qq * (1 - t) / t if t < 1 else 0.0 for t, qq in pts], atol=1e-9, rtol=0.0)
    yield selfcheck.identity("a1_zero_fixed_point = generated χ₀", [nl.a1_zero_fixed_point(t, 0.5, 0.1) for t, _ in pts],
                             [float(NA.chi0(t, 0.5, 0.1)) for t, _ in pts], rtol=1e-12)
    yield _assumptions.assumption_note("004-a1zero-fixed-point")
    yield Derivation(NA.LATEX["fixed_point"])
    yield Derivation(NA.LATEX["lam_tilde_limits"])


@claims.claim("004-a1zero-boxed", lines=(160, 160), conventions=["C2", "C3", "C4", "C5"], needs=("a1zero_scan",),
              revision={"previous": "confirmed",
                        "why": "the old verdict rested on a 1/d law picked after seeing the data (under 1/√d the "
                               "intercepts disagreed); now rules.asymptotic under every declared law with Student-t "
                               "df and a 5 % margin; the derivation of the branches is an exact identity; the "
                               "α/κ-independence is a separate claim (004-a1zero-no-alpha-kappa). Round 1 → not "
                               "reproduced (1/d intercepts 1.90, 1.86 vs 2.2 for He₂; 1/√d rejected by its fit). "
                               "Round 2: the engine's law set grew to {1/d, 1/√d, 1/d + 1/d²} (declared engine-wide; "
                               "a law added can only move a verdict towards inconclusive): a refusal now needs every "
                               "accepted law, the two-term one included, to disagree with the boxed value — the "
                               "round-1 refusal rested on the one-term 1/d law alone. Stress paths: λ, a₁, input "
                               "tails."})
def a1zero_boxed(ctx, a1zero_scan):
    """When a₁ = 0 the ridgeless error is e_ICL = ρ_nl/(1 − τ) for τ < 1 and ρ_nl τ/(τ − 1) for τ > 1 (d → ∞)."""
    MARGIN_REL = 0.05
    r = _a1_zero_derivation()
    tau, lam, s, rnl = A.tau, A.lam, A.s, A.rnl
    below = sp.limit(r["risk_lam"].subs(tau, 1 / (1 + s)), lam, 0, "+")
    above = sp.limit(r["risk_lam"].subs(tau, 1 + s), lam, 0, "+")
    yield rules.identity("τ < 1: derived ridge risk → ρ_nl/(1 − τ) as λ → 0⁺", below,
                         (rnl / (1 - tau)).subs(tau, 1 / (1 + s)), scope="exact (SymPy), τ = 1/(1+s)")
    yield rules.identity("τ > 1: derived ridge risk → ρ_nl τ/(τ − 1) as λ → 0⁺", above,
                         (rnl * tau / (tau - 1)).subs(tau, 1 + s), scope="exact (SymPy), τ = 1 + s")
    chosen, panels = _scan_chosen(ctx), {}
    al, ka = A1ZERO_BASE
    for f, data in a1zero_scan.items():
        for i, t in enumerate(data["taus"]):
            th = nl.e_icl_nonlinear(f, t, al, ka, RHO)
            m, se, dfs = _scan_estimates([x[:, i] for x in data["trials"]])
            yield rules.asymptotic(f"{f}, τ = {t:g}: error → {th:.4g}", data["ds"], m, se, th, margin=MARGIN_REL,
                                   relative=True, dfs=dfs, chosen=chosen,
                                   scope=f"actual model, {f} (a₁ = 0), α = {al:g}, κ = {ka:g}, ρ = 0.1, d ∈ "
                                         f"{data['ds']}, finite-size laws {list(FINITE_SIZE_LAWS)}")
            panels[f"{f}, τ = {t:g}"] = {"ds": data["ds"], "teacher": (m, se), "theory": th, "dfs": dfs}
    ctx.save_figure(*figures.a1zero_extrapolation(panels, ctx.mode))
    yield _assumptions.assumption_note("004-a1zero-boxed")
    yield from _pure_noise_selfchecks(ctx)
    yield Derivation(r"e=\rho_{\rm nl}\frac{\tau(1+\kappa_e)^2}{\tau(1+\kappa_e)^2-1},\ \kappa_e=\tilde\lambda/q"
                     r"\ \xrightarrow{\lambda\to0^+}\ \rho_{\rm nl}\begin{cases}\frac1{1-\tau},&\tau<1\\"
                     r"\frac{\tau}{\tau-1},&\tau>1\end{cases}")


def _pure_noise_selfchecks(ctx):
    """Our a₁ = 0 risk against independent routes: Wishart finite-sample formula (and its Monte Carlo),
    the τ → 0 null-predictor limit, and λ → 0⁺ continuity."""
    sz = sizes(ctx)
    p, sigma2 = sz["noise_p"], 1.3
    rng = np.random.default_rng(ctx.seed_for("004-a1zero-boxed/pure-noise"))
    for n in (p // 2, 2 * p):
        smp = nl.pure_noise_ridge_samples(p, n, 0.55, sigma2, 0.0, sz["noise_reps"], rng)
        yield selfcheck.agreement(f"pure-noise min-norm regression, p = {p}, n = {n}: Monte Carlo = Wishart formula",
                                  Estimate.from_samples(smp), nl.pure_noise_ridgeless_exact(p, n, sigma2))
    big = 10 ** 7
    taus = (0.3, 0.5, 0.9, 1.5, 2.0, 4.0)
    yield selfcheck.identity("Wishart formula at p = 1e7, n = τp = risk_a1_zero(τ) (τ ∈ {0.3, …, 4})",
                             [nl.pure_noise_ridgeless_exact(big, int(t * big), 1.0) for t in taus],
                             [nl.risk_a1_zero(t, 1.0) for t in taus], rtol=1e-4)
    fns = {"he2": 1.1, "abs": 1.1, "sin": 0.1 + (1 - math.exp(-2)) / 2}
    yield selfcheck.identity("τ → 0: e_ICL → E[y²] = ρ_f (null predictor; He₂, |g|, sin; α = 2, κ = 2)",
                             [nl.e_icl_nonlinear(f, 1e-7, 2.0, 2.0, RHO) for f in fns], list(fns.values()), rtol=1e-5)
    yield selfcheck.identity("λ → 0⁺ continuity of the a₁ = 0 risk (τ = 0.5, 2; λ = 1e-9)",
                             [nl.risk_a1_zero(t, 1.3, 2.0, 1e-9) for t in (0.5, 2.0)],
                             [nl.risk_a1_zero(t, 1.3, 2.0, 0.0) for t in (0.5, 2.0)], rtol=1e-5)


_PEAK_FRAGMENT = ("参数数目是 $d(d+1)$,而 $n=\\tau d^2$,所以渐近插值阈值是 $\\tau=1$。在正的残差能量下,靠近阈值,"
                  "拟合偶然样本相关会放大误差;$\\tau\\to\\infty$ 时才回到 $\\rho_{\\mathrm{nonlinear}}$。")


@claims.claim("004-interpolation-peak", lines=(162, 162), fragment=_PEAK_FRAGMENT, conventions=["C2", "C3"],
              revision={"previous": "confirmed", "why": "decided by SymPy limits and exact inequalities instead of "
                        "a hand-written conjunction; the τ → ∞ statement moved here from 004-a1zero-boxed."})
def interpolation_peak(ctx):
    """p = d(d+1) parameters and n = τd² samples put the asymptotic interpolation threshold at τ = 1; with
    positive residual energy the error blows up near it; it returns to ρ_nl only as τ → ∞."""
    d, tau, rnl = sp.symbols("d tau rho_nl", positive=True)
    yield rules.identity("threshold n = p at τ = (d+1)/d → 1", sp.limit((d * (d + 1)) / d ** 2, d, sp.oo), 1,
                         scope="exact (SymPy)")
    e_below, e_above = rnl / (1 - tau), rnl * tau / (tau - 1)
    yield rules.identity("a₁ = 0: e → +∞ as τ → 1⁻ (1/e → 0, e > 0)", sp.limit(1 / e_below, tau, 1, "-"), 0,
                         scope="exact (SymPy), ρ_nl > 0")
    yield rules.identity("a₁ = 0: e → +∞ as τ → 1⁺ (1/e → 0, e > 0)", sp.limit(1 / e_above, tau, 1, "+"), 0,
                         scope="exact (SymPy), ρ_nl > 0")
    yield rules.identity("no residual energy, no peak: ρ_nl = 0 gives e = 0", [nl.risk_a1_zero(t, 0.0) for t in
                         (0.5, 0.99, 1.01, 2.0)], [0.0] * 4, scope="risk_a1_zero, τ ∈ {0.5, 0.99, 1.01, 2}")
    near = [nl.e_icl_nonlinear("sin", t, 2.0, 2.0, RHO) for t in (1 - 1e-3, 1 + 1e-3)]
    far = [nl.e_icl_nonlinear("sin", t, 2.0, 2.0, RHO) for t in (0.5, 2.0)]
    PEAK_FACTOR = 100.0          # "blows up": at |τ − 1| = 1e-3 the error exceeds 100× its value at τ = 0.5 and 2
    yield rules.inequality("a₁ ≠ 0 (sin): error at τ = 1 ∓ 1e-3 exceeds 100× the error at τ = 0.5 and 2",
                           min(near), ">", PEAK_FACTOR * max(far), scope="Result 1 (exact), α = κ = 2, ρ = 0.1")
    yield rules.identity("τ → ∞: ρ_nl τ/(τ − 1) → ρ_nl", sp.limit(e_above, tau, sp.oo), rnl, scope="exact (SymPy)")
    yield rules.identity("only in the limit: ρ_nl τ/(τ − 1) − ρ_nl = ρ_nl/(τ − 1) > 0 for every τ > 1",
                         e_above - rnl, rnl / (tau - 1), scope="exact (SymPy)")


@claims.claim("004-a1zero-no-alpha-kappa", lines=(162, 162), conventions=["C2", "C3", "C4", "C5"],
              needs=("a1zero_scan", "a1zero_alt"),
              fragment="此分支不再依赖 $\\alpha$ 或 $\\kappa$,因为没有可供它们改善的一阶信号。",
              revision={"previous": "confirmed", "previous_id": "004-a1zero-boxed",
                        "why": "split from 004-a1zero-boxed; the two-point 1/d extrapolation with a normal z is "
                               "replaced by rules.asymptotic over the d grid under both declared laws (Welch df)."})
def a1zero_no_alpha_kappa(ctx, a1zero_scan, a1zero_alt):
    """The a₁ = 0 branch does not depend on α or κ: there is no first-order signal for them to improve."""
    MARGIN_REL = 0.05
    r = _a1_zero_derivation()
    lim = sp.limit(r["risk_lam"].subs(A.tau, 1 + A.s), A.lam, 0, "+")
    yield rules.identity("the λ → 0 limit does not depend on q = ρ_nl/α (∂/∂q = 0)", sp.diff(lim, A.q), 0,
                         scope="exact (SymPy), τ > 1")
    base, alt = a1zero_scan["he2"], a1zero_alt
    i = base["taus"].index(A1ZERO_TAUS[1])
    ests = [Estimate.difference(Estimate.from_samples(b), Estimate.from_samples(a[:, i]))
            for b, a in zip(alt["trials"], base["trials"])]
    th = nl.e_icl_nonlinear("he2", A1ZERO_TAUS[1], *A1ZERO_BASE, RHO)
    yield rules.asymptotic(f"He₂, τ = {A1ZERO_TAUS[1]:g}: e(α, κ = {A1ZERO_ALT}) − e(α, κ = {A1ZERO_BASE}) → 0",
                           base["ds"], [e.mean for e in ests], [e.se for e in ests], 0.0, margin=MARGIN_REL * th,
                           dfs=[e.df for e in ests], chosen=_scan_chosen(ctx),
                           scope=f"actual model, He₂, ρ = 0.1, independent runs (Welch), d ∈ {base['ds']}, "
                                 f"finite-size laws {list(FINITE_SIZE_LAWS)}")


@claims.claim("004-a1zero-teaching-numbers", lines=(164, 164), conventions=["C2"],
              revision={"previous": "confirmed", "why": "printed multiples decided by identity (SymPy) and "
                        "reproduction (the toolkit's risk function) rules; the double-descent remark added as an "
                        "exact inequality and shape."})
def a1zero_teaching_numbers(ctx):
    """From the boxed formula: e = 2ρ_nl at τ = 0.5 and τ = 2, 10ρ_nl at τ = 0.9 (derived, not simulation
    points); a double-descent curve alone does not show that the rule was learned."""
    tau, rnl = sp.symbols("tau rho_nl", positive=True)
    e_below, e_above = rnl / (1 - tau), rnl * tau / (tau - 1)
    cases = ((e_below, sp.Rational(1, 2), 2), (e_above, 2, 2), (e_below, sp.Rational(9, 10), 10))
    for expr, t, k in cases:
        yield rules.identity(f"boxed formula at τ = {t}: {k}ρ_nl", expr.subs(tau, t), k * rnl, scope="exact (SymPy)")
        yield rules.reproduction(f"risk_a1_zero(τ = {float(t):g})/ρ_nl = {k}", nl.risk_a1_zero(float(t), 1.1) / 1.1,
                                 str(k), scope="the toolkit's a₁ = 0 risk, ρ_nl = 1.1")
    grid = (0.2, 0.5, 0.8, 0.95, 1.05, 1.5, 3.0, 10.0)
    e = [nl.risk_a1_zero(t, 1.1) for t in grid]
    yield rules.shape("a₁ = 0: the ridgeless error is a double-descent curve (rises to τ = 1, then falls)", grid, e,
                      shape="unimodal-maximum", scope=f"boxed formula (exact), τ grid {grid}, ρ_nl = 1.1")
    yield rules.inequality("yet it never beats the zero predictor (error ≥ E[y²] = ρ_f = ρ_nl when a₁ = 0)", e, ">=",
                           1.1, scope=f"boxed formula (exact), τ grid {grid}")
