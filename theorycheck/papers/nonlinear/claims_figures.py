r"""Claims of paper 004, seed lines 170–219: Figure 1 (sin teacher, noise equivalence), the sin numbers,
the caption/legend scale question, Figure 2 (tanh teacher, task-diversity transition) and the tanh
numbers, in seed order.

Figure 1 does not say how the errors were normalised (seed line 190). The fixture ``fig1_reconcile`` searches
the linear teacher's noise and the normalisation (raw MSE, MSE ÷ a₁², MSE ÷ E[y²]) for settings under which the
sin and linear curves coincide at every τ jointly (:func:`theorycheck.reconcile.reconcile`); the statements
about closeness and gaps are then decided under each normalisation the reconciliation finds (each a reading,
``chosen``); if it finds none, under every normalisation. Disagreeing readings leave a claim inconclusive.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
import sympy as sp

from ...verdicts import Estimate, rules, selfcheck
from ..api import Derivation, Note
from . import assumptions, figures, theory as nl
from .fixtures import FIG1_TEACHERS, fig1_normalisations, fig1_teacher
from .registry import claims
from .settings import FIG1, FIG1_STATED_NOISES, FIG1_TAUS, FIG2, FIG2_KAPPAS, RHO, sizes

A1SQ = math.exp(-1)                                   # a₁² of sin, exactly e^{-1}
#: "close" on Figure 1's logarithmic axis: mean |log ratio| over the τ grid within 0.10 (≈ ±10 %).
CLOSE_LOG_MARGIN = 0.10


def _fig1_scope(ctx, d) -> str:
    return (f"actual model, sin (ρ = 0.1) and linear teachers, d = {d}, α = κ = 2, C = I, τ ∈ {list(FIG1_TAUS)}, "
            f"{sizes(ctx)['fig1_trials']} paired trials" + ("" if d == FIG1["d"] else " (quick size; paper d = 64)"))


def _fig1_chosen(ctx, d) -> dict:
    sz = sizes(ctx)
    out = {"τ grid": list(FIG1_TAUS), "trials": sz["fig1_trials"], "test prompts per trial": sz["fig1_ntest"]}
    if d != FIG1["d"]:
        out["d"] = d
    return out


def _log_ratio(num, den, scale=1.0):
    """Per-trial mean over the τ grid of log(num/(scale·den)) — one paired value per trial."""
    return np.mean(np.log(np.asarray(num) / (scale * np.asarray(den))), axis=1)


def _fig1_readings(rec) -> list:
    """The normalisations under which Figure 1's curves can coincide: those the per-normalisation
    reconciliation found (all of them when it found none — then nothing singles a reading out)."""
    found = [n for n, r in rec["per_norm"].items() if r.found]
    return found or list(rec["per_norm"])


def _reading_chosen(ctx, d, rec, norm) -> dict:
    out = _fig1_chosen(ctx, d)
    out["normalisation"] = norm
    r = rec["per_norm"][norm]
    out[f"reconciled noise (d = {rec['d']})"] = (round(r.best["noise"], 4) if r.found else "none found")
    return out


@claims.claim("004-fig1-sizes", lines=(174, 174), fragment="因此上下文长度与任务数均为 128",
              revision={"previous": "confirmed", "previous_id": "004-fig1-shape",
                        "why": "split from 004-fig1-shape; decided by the reproduction rule."})
def fig1_sizes(ctx):
    """With d = 64, α = 2, κ = 2 the context length and the number of tasks are both 128."""
    d = FIG1["d"]
    yield rules.reproduction("ℓ = αd = 128", FIG1["alpha"] * d, "128", scope="d = 64, α = 2 (stated)")
    yield rules.reproduction("k = κd = 128", FIG1["kappa"] * d, "128", scope="d = 64, κ = 2 (stated)")


@claims.claim("004-fig1-legend-noise", lines=(178, 178), conventions=["C2"],
              revision={"previous": "inconsistent", "previous_id": "004-fig1-caption-vs-legend",
                        "why": "split: the legend value itself is checked here (reproduction); the caption/legend "
                               "contradiction is 004-fig1-caption-vs-legend."})
def fig1_legend_noise(ctx):
    """The noise-adjusted linear teacher of the legend has noise 0.447: the equivalent-noise prediction
    ρ_nl/a₁² for sin at ρ = 0.1."""
    value = float(nl.rho_nonlinear("sin", RHO)) / float(nl.teacher_moments("sin")["a1"]) ** 2
    yield rules.reproduction("ρ_nl/a₁² = 0.447", value, "0.447", scope="exact, f = sin, ρ = 0.1")


@claims.claim("004-fig1-gap", lines=(179, 179), conventions=["C3", "C5"], needs=("fig1_runs", "fig1_reconcile"),
              revision={"previous": "confirmed", "previous_id": "004-fig1-shape",
                        "why": "split from 004-fig1-shape, whose fixed sentence asserted 'the normalised sin curve "
                               "lies above the ρ = 0.1 curve at every τ' while the evidence could say otherwise; one "
                               "paired Student-t test per reading. Round 2: the readings are the normalisations under "
                               "which Figure 1's reconciliation finds coinciding curves (raw MSE was a reading before; "
                               "no linear-teacher noise makes the raw curves coincide, so it is no longer one)."})
def fig1_gap(ctx, fig1_runs, fig1_reconcile):
    """The original-noise linear teacher (ρ = 0.1) shows the gap the extra residual causes: the nonlinear
    teacher's error lies above it."""
    d = fig1_runs["sin"]["d"]
    sin, lin = fig1_runs["sin"]["trials"], fig1_runs["linear-0.1"]["trials"]
    scope = _fig1_scope(ctx, d)
    norms = fig1_normalisations()
    for reading in _fig1_readings(fig1_reconcile):
        c_sin, c_lin = norms[reading]
        est = Estimate.from_samples(_log_ratio(sin, lin, c_sin / c_lin(RHO)))
        yield rules.superiority(f"{reading}: the sin teacher's error exceeds the ρ = 0.1 linear teacher's (mean log "
                                "ratio over τ > 0)", est, margin=0.0, reading=reading, scope=scope,
                                chosen=_reading_chosen(ctx, d, fig1_reconcile, reading))


@claims.claim("004-fig1-shape", lines=(181, 181), conventions=["C3", "C5"], needs=("fig1_runs", "fig1_reconcile"),
              fragment="原图展示非线性点与噪声调整后的线性点接近,二者都在 $\\tau\\approx1$ 附近出现高误差,并在右侧下降。",
              revision={"previous": "confirmed",
                        "why": "the summary was a fixed sentence and the rule flipped with the seed; now declared "
                               "rules: TOST on the mean log ratio (margin 0.10), noisy shape tests (Student t, df = "
                               "trials − 1); the figure's normalisation is unstated (line 190), so closeness is decided "
                               "per reading and disagreeing readings leave the claim inconclusive. Round 2: a joint "
                               "reconciliation over the linear teacher's noise and the normalisation (all τ at once) "
                               "decides which normalisations are readings; raw MSE is not one (no noise in [0.05, 2] "
                               "makes the raw curves coincide)."})
def fig1_shape(ctx, fig1_runs, fig1_reconcile):
    """Figure 1 (d = 64, α = κ = 2): the nonlinear points lie close to the noise-adjusted linear points; both
    have high error near τ ≈ 1 and fall to its right."""
    d = fig1_runs["sin"]["d"]
    taus = list(FIG1_TAUS)
    sin, leg = fig1_runs["sin"]["trials"], fig1_runs["linear-legend"]["trials"]
    scope, chosen = _fig1_scope(ctx, d), _fig1_chosen(ctx, d)
    yield fig1_reconcile["joint"]
    for rec in fig1_reconcile["per_norm"].values():
        yield rec
    norms = fig1_normalisations()
    legend = fig1_runs["linear-legend"]["rho"]
    for reading in _fig1_readings(fig1_reconcile):
        c_sin, c_lin = norms[reading]
        est = Estimate.from_samples(_log_ratio(sin, leg, c_sin / c_lin(legend)))
        yield rules.equivalence(f"{reading}: sin points close to the noise-0.447 linear points (|mean log ratio| ≤ "
                                "0.10)", est, 0.0, margin=CLOSE_LOG_MARGIN, reading=reading, scope=scope,
                                chosen=_reading_chosen(ctx, d, fig1_reconcile, reading))
    PEAK_GRID = (0.5, 0.9, 1.1, 2.0)      # the two grid points next to τ = 1 against the two ends
    RIGHT = (1.1, 1.5, 2.0)
    T = sin.shape[0]
    for name in ("sin", "linear-legend"):
        tm = fig1_runs[name]["trials"]
        ip = [taus.index(t) for t in PEAK_GRID]
        est = [Estimate.from_samples(tm[:, i]) for i in ip]
        yield rules.shape(f"{name}: high error near τ ≈ 1 (a point next to τ = 1 above both ends)", PEAK_GRID,
                          [e.mean for e in est], ses=[e.se for e in est], df=T - 1, shape="interior-maximum",
                          scope=scope, chosen=chosen)
        ir = [taus.index(t) for t in RIGHT]
        steps = [Estimate.from_samples(tm[:, b] - tm[:, a]) for a, b in zip(ir, ir[1:])]
        yield rules.shape(f"{name}: the error falls to the right of the peak (τ = 1.1 → 1.5 → 2)", RIGHT,
                          tm[:, ir].mean(0), diff_ses=[s.se for s in steps], df=T - 1, shape="decreasing",
                          scope=scope, chosen=chosen)
    _fig1_figure(ctx, fig1_runs, d)
    yield Note("Closeness statistic: per trial, the mean over the τ grid of log((e_sin/c_sin)/(e_lin/c_lin)) with the "
               "reading's divisors (raw: 1, 1; ÷ a₁²: a₁², 1; ÷ E[y²]: ρ_f, 1 + noise); trials are paired (shared random "
               "numbers). Readings: the normalisations under which the reconciliation (fixture fig1_reconcile: noise "
               "in [0.05, 2] on a log scale, every τ within |log ratio| ≤ 0.10 plus twice its Monte Carlo SE, jointly) "
               "finds a setting; all normalisations if it finds none.")


def _fig1_figure(ctx, runs, d):
    taus = list(FIG1_TAUS)
    curves = {}
    for name in FIG1_TEACHERS:
        tm = runs[name]["trials"]
        curves[name] = (tm.mean(0), tm.std(0, ddof=1) / math.sqrt(tm.shape[0]))
    legend_rho = fig1_teacher("linear-legend")[1]
    theory = {"ρ = 0.447 (= Result 1 ÷ a₁²)": [nl.e_icl_linear(t, 2.0, 2.0, legend_rho) for t in taus],
              "ρ = 0.1": [nl.e_icl_linear(t, 2.0, 2.0, RHO) for t in taus]}
    ctx.save_figure(*figures.fig1(taus, curves, theory, d, runs["sin"]["trials"].shape[0], A1SQ))


@claims.claim("004-fig1-error-bars", lines=(181, 181),
              fragment="图中有误差棒,但正文和图注未定义其统计口径,因此不据此作显著性判断。")
def fig1_error_bars(ctx):
    """Figure 1 has error bars, but neither text nor caption defines their statistic, so no significance
    judgement is drawn from them."""
    yield rules.underspecified("what Figure 1's error bars show", missing=[
        "the error-bar statistic (SD or SE)", "the number of trials per point", "the λ used in the 'ridgeless' runs"],
        scope="Figure 1 as described by the seed")


@claims.claim("004-sin-numbers", lines=(185, 186), conventions=["C1", "C2"],
              revision={"previous": "confirmed", "why": "the printed decimals are decided by the reproduction rule "
                        "(printed-digit tolerance), the closed forms by identities."})
def sin_numbers(ctx):
    """For f = sin, ρ = 0.1: a₁ = e^{-1/2}, a₁² = e^{-1} ≈ 0.367879, E[sin² g] = (1 − e^{-2})/2 ≈ 0.432332,
    ρ_nl ≈ 0.164453, ρ_nl/a₁² ≈ 0.447029."""
    m = nl.teacher_moments("sin")
    scope = "exact (SymPy), ρ = 1/10"
    yield rules.identity("a₁ = e^{-1/2}", m["a1"], sp.exp(-sp.S.Half), scope=scope)
    yield rules.identity("E[sin² g] = (1 − e^{-2})/2", m["Ef2"], (1 - sp.exp(-2)) / 2, scope=scope)
    rnl = nl.rho_nonlinear("sin", RHO)
    for stmt, val, printed in (("a₁² ≈ 0.367879", m["a1"] ** 2, "0.367879"), ("E[sin² g] ≈ 0.432332", m["Ef2"], "0.432332"),
                               ("ρ_nl ≈ 0.164453", rnl, "0.164453"), ("ρ_nl/a₁² ≈ 0.447029", rnl / m["a1"] ** 2, "0.447029")):
        yield rules.reproduction(stmt, float(sp.N(val, 30)), printed, scope=scope)


_CAPTION_FRAGMENT = ("$0.447$ 对应将一阶信号归一为单位强度之后的噪声方差。而 PDF p. 3 的 Fig. 1 说明文字写成 "
                     "$(a_1^2+\\rho_{\\mathrm{nonlinear}})/a_1^2$,代入会得到 $1.447029$;这个量是归一化标签总二阶矩,"
                     "与图例噪声方差相差 1。")


@claims.claim("004-fig1-caption-vs-legend", lines=(188, 188), fragment=_CAPTION_FRAGMENT, conventions=["C2", "C5"],
              needs=("fig1_reconcile",),
              revision={"previous": "inconsistent", "why": "verdict literal replaced by the consistency rule on the two "
                        "numbers; the normalisation question is its own claim (004-fig1-normalisation). Round 2: which "
                        "of the two numbers is the noise that makes the curves coincide is decided on the actual "
                        "model under each normalisation (equivalence rule, toolkit sizes as chosen)."})
def fig1_caption_vs_legend(ctx, fig1_reconcile):
    """0.447 is the noise variance after normalising the first-order signal to unit strength; the caption's
    (a₁² + ρ_nl)/a₁² = 1.447029 is the normalised label second moment and differs from the legend by 1."""
    a1 = sp.exp(-sp.S.Half)
    rf = nl.rho_f("sin", RHO)
    rnl = nl.rho_nonlinear("sin", RHO)
    scope = "exact (SymPy), f = sin, ρ = 1/10"
    yield rules.identity("labels ÷ a₁: the surrogate's noise variance becomes ρ_nl/a₁²", rnl / a1 ** 2,
                         (rf - a1 ** 2) / a1 ** 2, scope=scope)
    caption = (a1 ** 2 + rnl) / a1 ** 2
    yield rules.identity("(a₁² + ρ_nl)/a₁² = ρ_f/a₁² (normalised label second moment)", caption, rf / a1 ** 2, scope=scope)
    yield rules.reproduction("(a₁² + ρ_nl)/a₁² ≈ 1.447029", float(sp.N(caption, 30)), "1.447029", scope=scope)
    yield rules.identity("caption − legend = 1", caption - rnl / a1 ** 2, 1, scope=scope)
    yield rules.consistency("the caption's formula gives the legend's noise 0.447", 0.447, float(sp.N(caption, 30)),
                            atol=5e-4, rtol=0.0, a_label="legend noise (Fig. 1)",
                            b_label="caption formula (a₁² + ρ_nl)/a₁²", scope=scope + "; tolerance = printed digits")
    rec = fig1_reconcile
    for norm, runs in rec["stated"].items():
        for label, lr in runs.items():
            value = FIG1_STATED_NOISES[label]
            yield rules.equivalence(f"{norm}: a linear teacher with the {label.split()[0]}'s noise {value:.4g} coincides "
                                    f"with the sin teacher (|mean log ratio| ≤ {CLOSE_LOG_MARGIN:g})",
                                    Estimate.from_samples(lr), 0.0, margin=CLOSE_LOG_MARGIN,
                                    scope=f"actual model, sin (ρ = 0.1) vs linear (noise {value:.4g}), d = {rec['d']}, "
                                          f"α = κ = 2, τ ∈ {list(FIG1_TAUS)}, {rec['stated_trials']} paired trials, "
                                          f"{norm}",
                                    chosen={"d": rec["d"], "trials": rec["stated_trials"], "normalisation": norm,
                                            "τ grid": list(FIG1_TAUS)})
    yield Note("Which noise makes the curves coincide: the mean over the τ grid of log((e_sin/c_sin)/(e_lin/c_lin)) "
               "per trial (paired), with each normalisation's divisors, at the legend's and the caption's noise (the "
               "fixture fig1_reconcile, whose search over the noise is reported with 004-fig1-shape).")


@claims.claim("004-fig1-normalisation", lines=(190, 190), conventions=["C3", "C4", "C5"], needs=("fig1_runs",),
              revision={"previous": "inconsistent", "previous_id": "004-fig1-caption-vs-legend",
                        "why": "the normalisation question is now its own claim: an exact equivariance of the actual "
                               "model and a paired Student-t test that the raw curves differ."})
def fig1_normalisation(ctx, fig1_runs):
    """Rescaling the nonlinear labels by 1/a₁ rescales the MSE by 1/a₁²; the axis and caption do not say whether
    that was done, so the overlap is the authors' normalised comparison — the two raw teachers' MSEs are not
    equal."""
    a1 = math.exp(-0.5)
    taus = [1.5, 3.0]                      # n > p: the least-squares fit is unique, so the check is exact
    d, T = 8, 2
    seed = ctx.seed_for("004-fig1-normalisation/rescale")
    plain = nl.simulate_icl_sweep("sin", d, 2.0, 2.0, taus, RHO, trials=T, seed=seed, n_test=200)
    scaled = nl.simulate_icl_sweep(sp.sin(nl.G) / sp.exp(-sp.S.Half), d, 2.0, 2.0, taus, RHO / a1 ** 2, trials=T,
                                   seed=seed, n_test=200)
    yield rules.identity("labels ÷ a₁ ⇒ MSE ÷ a₁² (every trial, same random numbers)", scaled.trial_means * a1 ** 2,
                         plain.trial_means, rtol=1e-7,
                         scope=f"actual model, d = {d}, α = κ = 2, τ ∈ {taus} (n > p: unique least-squares fit), {T} "
                               "trials; tolerance = round-off of the linear solves")
    dd = fig1_runs["sin"]["d"]
    sin, leg = fig1_runs["sin"]["trials"], fig1_runs["linear-legend"]["trials"]
    est = Estimate.from_samples(_log_ratio(leg, sin))
    yield rules.superiority("unnormalised, the two teachers' MSEs differ by more than the closeness margin "
                            "(mean log(e_lin0.447/e_sin) > 0.10)", est, margin=CLOSE_LOG_MARGIN,
                            scope=_fig1_scope(ctx, dd), chosen=_fig1_chosen(ctx, dd))


@claims.claim("004-fig2-table", lines=(200, 206), conventions=["C4"],
              revision={"previous": "confirmed", "why": "arithmetic decided by the reproduction rule (was a literal "
                        "Python comparison); the α-vs-τ attribution by exact inequalities of Result 1."})
def fig2_table(ctx):
    """Figure 2: d = 32, tanh, ρ = 0.1, τ = α/2; α = 20: ℓ = 640, τ = 10, n = 10,240; α = 40: ℓ = 1,280, τ = 20,
    n = 20,480. The two curves change context length and pretraining size together, so their gap cannot be
    attributed to the context alone."""
    d = FIG2["d"]
    for a, ell, tau, n in ((20, "640", "10", "10240"), (40, "1280", "20", "20480")):
        yield rules.reproduction(f"α = {a}: ℓ = αd = {ell}", a * d, ell, scope="d = 32 (stated)")
        yield rules.reproduction(f"α = {a}: τ = α/2 = {tau}", a / 2, tau, scope="τ = α/2 (stated)")
        yield rules.reproduction(f"α = {a}: n = τd² = {n}", (a / 2) * d * d, n, scope="d = 32 (stated)")
    e = {(a, t): nl.e_icl_nonlinear("tanh", t, a, 2.0, RHO) for a, t in ((20, 10), (40, 10), (40, 20))}
    scope = "Result 1 (exact), tanh, ρ = 0.1, κ = 2"
    yield rules.inequality("longer context alone lowers the error: e(α = 20, τ = 10) > e(α = 40, τ = 10)",
                           e[(20, 10)], ">", e[(40, 10)], scope=scope)
    yield rules.inequality("more sequences alone lower the error: e(α = 40, τ = 10) > e(α = 40, τ = 20)",
                           e[(40, 10)], ">", e[(40, 20)], scope=scope)


@claims.claim("004-task-diversity-transition", lines=(208, 210), conventions=["C2", "C3"],
              revision={"previous": "confirmed", "why": "decided by identity/inequality rules with declared "
                        "tolerances; the rank(C_train)/d threshold moved here from 004-floor-and-rank-threshold."})
def task_diversity_transition(ctx):
    """As α, τ → ∞ with τ ∝ α there is a task-diversity transition at κ = rank(C_train)/d (κ = 1 for C = I):
    with few tasks the error stays above ρ_nl; with κ > 1 it tends to ρ_nl (a₁ ≠ 0)."""
    ALPHA = 1e8                   # α standing for ∞ (τ = α/2)
    LIMIT_TOL = 1e-5              # residual of the limit at α = 1e8 is O(1/α)
    GAP_MIN = 0.01                # "stays above": excess over ρ_nl of at least 0.01
    f = "tanh"
    rnl = float(nl.rho_nonlinear(f, RHO))
    above = (1.1, 1.5, 2.0, 4.0)
    below = (0.5, 0.9)
    scope = "Result 1 (exact), tanh, ρ = 0.1, α = 1e8, τ = α/2"
    yield rules.identity(f"κ ∈ {above}: e_ICL → ρ_nl", [nl.e_icl_nonlinear(f, ALPHA / 2, ALPHA, k, RHO) for k in above],
                         [rnl] * len(above), atol=LIMIT_TOL, rtol=0.0, scope=scope)
    yield rules.inequality(f"κ ∈ {below}: e_ICL − ρ_nl ≥ {GAP_MIN}",
                           [nl.e_icl_nonlinear(f, ALPHA / 2, ALPHA, k, RHO) - rnl for k in below], ">=", GAP_MIN,
                           scope=scope)
    dd, r = 200, 100
    C = np.r_[np.full(r, dd / r), np.zeros(dd - r)]
    RANK_TOL = 1e-4               # residual at α = 2e5 is O(1/α)
    ex = {k: nl.e_icl_linear_general(1e5, 2e5, k, RHO, C, C) - RHO for k in (0.4, 0.6)}
    scope_r = "linear-teacher theory (exact), C = 2·diag(1_{d/2}, 0), d = 200 (rank/d = 1/2), α = 2e5, τ = 1e5"
    yield rules.identity("rank(C)/d = 1/2: κ = 0.6 reaches the noise floor", ex[0.6], 0.0, atol=RANK_TOL, rtol=0.0,
                         scope=scope_r)
    yield rules.inequality(f"rank(C)/d = 1/2: κ = 0.4 stays above it by ≥ {GAP_MIN}", ex[0.4], ">=", GAP_MIN,
                           scope=scope_r)
    I = np.ones(200)
    pts = [(1.5, 2.0, k) for k in (0.5, 0.9, 1.5, 4.0)] + [(0.5, 2.0, 2.0)]
    yield assumptions.assumption_note("004-task-diversity-transition")
    yield selfcheck.identity("e_lin: isotropic closed form = Silverstein general form at C = I (κ ∈ {0.5, 0.9, 1.5, 4})",
                             [nl.e_icl_linear(t, a, k, RHO) for t, a, k in pts],
                             [nl.e_icl_linear_general(t, a, k, RHO, I, I) for t, a, k in pts], rtol=1e-9)


_FIG2_SIM = ("图中有限维曲线在 $\\kappa\\approx1$ 一带快速下降,而非出现不连续跳变;大 $\\kappa$ 时两组曲线仍高于绿色下限,"
             "符合有限上下文与有限训练规模尚有估计误差的解释。")


@claims.claim("004-fig2-simulation", lines=(212, 212), fragment=_FIG2_SIM, conventions=["C3", "C4", "C5"],
              needs=("fig2_runs",),
              revision={"previous": "confirmed", "why": "decided by noisy shape and superiority tests (Student t "
                        "over trials) instead of comparisons of means without uncertainty."})
def fig2_simulation(ctx, fig2_runs):
    """Figure 2: the finite-d curves fall quickly around κ ≈ 1, and at large κ both stay above the green line
    ρ_nl, as finite context and finite pretraining leave estimation error."""
    sz = sizes(ctx)
    rnl = float(nl.rho_nonlinear(FIG2["f"], RHO))
    FALL = (0.5, 0.75, 1.0, 1.5, 2.0)
    chosen = {"κ grid": list(FIG2_KAPPAS), "trials": sz["fig2_trials"], "test prompts per trial": sz["fig2_ntest"]}
    if sz["fig2_d"] != FIG2["d"]:
        chosen["d"] = sz["fig2_d"]
    curves, theory = {}, {}
    for key, run in fig2_runs.items():
        a, tau, tr = run["alpha"], run["tau"], run["trials"]
        T = tr.shape[1]
        scope = f"actual model, tanh, ρ = 0.1, d = {run['d']}, α = {a:g}, τ = {tau:g}, {T} trials per κ"
        idx = [run["kappas"].index(k) for k in FALL]
        est = [Estimate.from_samples(tr[i]) for i in idx]
        yield rules.shape(f"α = {a:g}: the error falls across κ ≈ 1", FALL, [e.mean for e in est],
                          ses=[e.se for e in est], df=T - 1, shape="decreasing", scope=scope, chosen=chosen)
        big = Estimate.from_samples(tr[run["kappas"].index(max(FIG2_KAPPAS))] - rnl)
        yield rules.superiority(f"α = {a:g}: at κ = {max(FIG2_KAPPAS):g} the error stays above ρ_nl = {rnl:.4f}", big,
                                margin=0.0, scope=scope, chosen=chosen)
        th_big = nl.e_icl_nonlinear(FIG2["f"], tau, a, max(FIG2_KAPPAS), RHO)
        yield rules.inequality(f"α = {a:g}: Result 1 at finite α, τ (κ = {max(FIG2_KAPPAS):g}) is above ρ_nl",
                               th_big, ">", rnl, scope=f"Result 1 (exact), α = {a:g}, τ = {tau:g}")
        curves[f"α = {a:g}"] = (tr.mean(1), tr.std(1, ddof=1) / math.sqrt(T))
        theory[f"α = {a:g}"] = [nl.e_icl_nonlinear(FIG2["f"], tau, a, k, RHO) for k in run["kappas"]]
    ctx.save_figure(*figures.fig2(list(FIG2_KAPPAS), curves, theory, rnl, RHO, sz["fig2_d"], sz["fig2_trials"]))


@claims.claim("004-floor-finite-kappa", lines=(212, 212), conventions=["C2", "C3"],
              fragment="达到该各向同性下限的条件是任务覆盖充分且 $\\alpha,\\tau$ 增大,不要求 $\\kappa$ 本身也必须趋于无穷。")
def floor_finite_kappa(ctx):
    """Reaching the isotropic floor ρ_nl needs enough tasks and growing α, τ, not κ → ∞."""
    LIMIT_TOL = 1e-5
    GAP_MIN = 0.01
    f = "tanh"
    rnl = float(nl.rho_nonlinear(f, RHO))
    yield rules.identity("κ = 1.5 fixed, α → ∞ (τ = α/2): e_ICL → ρ_nl", nl.e_icl_nonlinear(f, 5e7, 1e8, 1.5, RHO), rnl,
                         atol=LIMIT_TOL, rtol=0.0, scope="Result 1 (exact), tanh, ρ = 0.1, α = 1e8")
    yield rules.inequality(f"κ → ∞ alone does not reach it: e(α = 20, τ = 10, κ = ∞) − ρ_nl ≥ {GAP_MIN}",
                           nl.e_icl_nonlinear(f, 10.0, 20.0, math.inf, RHO) - rnl, ">=", GAP_MIN,
                           scope="Result 1 (exact), tanh, ρ = 0.1")


@claims.claim("004-tanh-numbers", lines=(216, 219), conventions=["C1", "C2"],
              revision={"previous": "confirmed", "why": "the printed decimals are decided by the reproduction rule; "
                        "the Stein identity is a self-check."})
def tanh_numbers(ctx):
    """a₁ = E[g tanh g] ≈ 0.605706, E[tanh² g] ≈ 0.394294, ρ_nl = 0.1 + 0.394294 − 0.605706² ≈ 0.127415, about
    0.027415 above ρ; this is why the green line lies above 0.1."""
    m = nl.teacher_moments("tanh")
    a1, ef2 = float(_mp(m["a1"])), float(_mp(m["Ef2"]))
    rnl = float(nl.rho_nonlinear("tanh", RHO))
    scope = "mpmath quadrature at 30 digits, ρ = 0.1"
    for stmt, val, printed in (("a₁ ≈ 0.605706", a1, "0.605706"), ("E[tanh² g] ≈ 0.394294", ef2, "0.394294"),
                               ("ρ_nl ≈ 0.127415", rnl, "0.127415"), ("ρ_nl − ρ ≈ 0.027415", rnl - RHO, "0.027415")):
        yield rules.reproduction(stmt, val, printed, scope=scope)
    yield rules.inequality("the floor ρ_nl lies above ρ = 0.1", rnl, ">", RHO, scope=scope)
    with mpmath.workdps(30):
        stein = mpmath.quad(lambda x: (1 - mpmath.tanh(x) ** 2) * mpmath.npdf(x), [-mpmath.inf, 0, mpmath.inf])
    yield selfcheck.identity("Stein: E[tanh′(g)] = a₁", float(stein), a1, rtol=1e-13)
    yield Derivation(r"\rho_{\rm nl}=\rho+\mathbb E[\tanh^2g]-(\mathbb E[g\tanh g])^2")


def _mp(x):
    return mpmath.mpf(sp.N(x, 30)) if isinstance(x, sp.Basic) else mpmath.mpf(x)
