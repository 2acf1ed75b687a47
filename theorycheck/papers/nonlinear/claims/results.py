r"""Claims of paper 004, seed lines 140–164: Result 1, what kind of statement it is, and the a₁ = 0 branch, in seed
order.

The d → ∞ statements are decided by :func:`theorycheck.verdicts.rules.asymptotic` on simulations of the
actual model over a grid of d, under every finite-size law the engine declares
(:data:`theorycheck.verdicts.FINITE_SIZE_LAWS`); the d grid is the toolkit's choice (the seed states no finite size
for these statements), a ``chosen`` :class:`~theorycheck.claims.Param`.
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp

from ....claims import Clause
from ....memo import memoize
from ....verdicts import FINITE_SIZE_LAWS, Estimate, rules, selfcheck
from ....verdicts.rules.trivial import against_trivial
from ....verdicts.simultaneous import grid_signs
from ...api import Derivation, Note, Remedy
from .. import theory as nl
from ..derivations import nonlinear_a1_zero as A
from ..fixtures import result1_curves
from ..generated import nonlinear_a1_zero as NA
from ..generated import nonlinear_moments as NM
from ..registry import claims
from ..settings import (A1ZERO_ALT, A1ZERO_BASE, A1ZERO_ONE_FACTOR, A1ZERO_TAUS, A1ZERO_TEACHERS, RESULT1_CONFIGS,
                        RHO, params, sizes)
from ._helpers import (ANISO_THEORY_D, assumption_note, plot_a1zero_extrapolation, plot_result1_extrapolation,
                       result1_theory, scan_estimates, scan_params)

def _kappa(k) -> str:
    return "∞" if math.isinf(k) else f"{k:g}"


# ================================================================================ Result 1
_R1_CLAUSES = [
    Clause("c1", r"对于 $a_1\ne0$,考虑替代教师", "condition"),
    Clause("c2", r"$$ \widetilde y=\boldsymbol x^{\top}\widetilde{\boldsymbol w}+\widetilde\varepsilon, \qquad "
                 r"\widetilde{\boldsymbol w}=a_1\boldsymbol w, \qquad \operatorname{Var}(\widetilde\varepsilon)="
                 r"\rho_{\mathrm{nonlinear}}. $$", asserted=False),
    Clause("c3", r"其任务协方差为 $a_1^2C$,标签总二阶矩为 $a_1^2+\rho_{\mathrm{nonlinear}}=\rho_f$,与上述主导矩匹配。"),
    Clause("c4", "把这些矩代入既有线性任务的随机矩阵推导,得到"),
    Clause("c5", r"$$ \boxed{ e_{\mathrm{ICL}}^{\mathrm{nonlinear}}(C_{\mathrm{train}},C_{\mathrm{test}},\rho) "
                 r"=e_{\mathrm{ICL}}^{\mathrm{linear}} (a_1^2C_{\mathrm{train}},a_1^2C_{\mathrm{test}},"
                 r"\rho_{\mathrm{nonlinear}}) }. $$"),
    Clause("c6", "右侧不是只增加标签噪声:训练与测试的信号协方差也一起缩放。"),
    Clause("c7", "因此非线性可以同时削弱有效信号并增大相对噪声。", "inference"),
    Clause("c8", r"各向异性和训练—测试任务对齐的结构仍保留在 $C_{\mathrm{train}},C_{\mathrm{test}}$ 中。"),
    Clause("c9", "(Result 1,Eq. (9),PDF p. 3;Appendix C,PDF p. 10。)", asserted=False)]


@claims.claim("004-result1", lines=(140, 148), conventions=["C2", "C3", "C4", "C5"], needs=("result1_scan",),
              weight="main", title="Result 1: a nonlinear teacher acts as a linear one with a₁²C and noise ρ_nl",
              clauses=_R1_CLAUSES)
def result1(ctx, result1_scan):
    """For a₁ ≠ 0 the nonlinear teacher is equivalent to the surrogate linear teacher ỹ = a₁xᵀw + ε̃ with
    Var ε̃ = ρ_nl (task covariance a₁²C, label second moment a₁² + ρ_nl = ρ_f): e_ICL^nl(C_train, C_test, ρ) =
    e_ICL^lin(a₁²C_train, a₁²C_test, ρ_nl) as d → ∞ without regularisation — isotropic or not; the signal covariance
    is scaled, not only the noise, so a nonlinearity can both weaken the signal and raise the relative noise."""
    P = params(ctx)
    yield from _result1_exact(P)
    panels, excess = {}, {}
    for config, data in result1_curves(result1_scan).items():
        yield from _result1_config(ctx, config, data, panels, excess)
    ctx.save_figure(*plot_result1_extrapolation(panels, ctx.mode))
    undecided = {k: e for k, e in excess.items() if e["last"] > 0}
    if undecided:               # the finite-size correction at the largest size, and where the 1/d law puts the limit
        worst = max(undecided, key=lambda k: undecided[k]["last"])
        yield Remedy("quote Result 1 with its finite-size correction: at the largest size d = {d} the simulated errors "
                     "are up to {x} % above it, and under the 1/d law (GOF p ≥ {p}) they extrapolate to within {y} % "
                     "of it", d=undecided[worst]["d"], x=100 * undecided[worst]["last"],
                     p=min(e["gof"] for e in undecided.values()),
                     y=100 * max(abs(e["limit"]) for e in undecided.values()), clauses=["c4", "c5"])
    yield assumption_note("004-result1")
    yield Note("Surrogate: labels a₁xᵀw + ε̃ with Var ε̃ = ρ_nl, simulated with the teacher's random numbers (same "
               "tasks, inputs and standard-normal draws), so teacher − surrogate is a paired difference per trial. "
               "Trivial alternative of every agreement: the noise-only substitution e_lin(C, ρ_nl) (signal covariance "
               "not scaled), which the sentence contrasts with.")
    yield Derivation(r"e^{\rm nl}_{\rm ICL}(C,\rho)=e^{\rm lin}_{\rm ICL}(a_1^2C,\rho_{\rm nl})"
                     r"=a_1^2\,e^{\rm lin}_{\rm ICL}\big(C,\rho_{\rm nl}/a_1^2\big)\ (\lambda=0)")


def _result1_exact(P):
    """The exact sub-claims of Result 1: the surrogate's moments, the condition a₁ ≠ 0, the two effects."""
    ps = [P["rho"], P["lambda0"]]
    for f in ("sin", "relu"):
        m = nl.teacher_moments(f)
        yield rules.identity(f"{f}: surrogate label second moment a₁² + ρ_nl = ρ_f", m["a1"] ** 2 +
                             nl.rho_nonlinear(f, RHO), nl.rho_f(f, RHO), clauses="c3", params=ps,
                             scope="exact (SymPy), ρ = 1/10")
        e, rnl = nl.surrogate_teacher(f, RHO)
        lt, ls = nl.label_moments(f, RHO), nl.label_moments(e, rnl)
        yield rules.identity(f"{f}: the surrogate's leading Appendix-B moments (a₁, ρ_f) equal the teacher's",
                             [ls["a1"], ls["rho_f"]], [lt["a1"], lt["rho_f"]], rtol=1e-12, clauses="c3", params=ps,
                             scope="label moments of f and of a₁g with noise ρ_nl (the finite-ℓ moments μ differ; "
                                   "Appendix B drops them)")
    eps = (sp.Rational(1, 10 ** 3), sp.Rational(1, 10 ** 4))   # rationals: a Float coefficient took SymPy 8 s a teacher
    near = [nl.e_icl_nonlinear(nl.TEACHERS["he2"] + x * nl.G, t, 2.0, 2.0, RHO) for x in eps for t in (0.5, 2.0)]
    box = [nl.risk_a1_zero(t, float(nl.rho_nonlinear("he2", RHO))) for x in eps for t in (0.5, 2.0)]
    yield rules.identity("condition a₁ ≠ 0 audited: as a₁ = ε → 0 (ρ_nl fixed), Result 1 tends to the a₁ = 0 branch "
                         "(continuous; the condition defines the surrogate, the formula does not break there)",
                         near, box, atol=1e-5, rtol=0.0, clauses="c1", params=ps,
                         scope="Result 1 (exact) for f = He₂ + εg, ε ∈ {1e-3, 1e-4}, τ ∈ {0.5, 2}, α = κ = 2 against "
                               "ρ_nl/(1 − τ), ρ_nl τ/(τ − 1); difference ≈ 2ε²")
    a1sq = float(nl.teacher_moments("sin")["a1"]) ** 2
    rnl = float(nl.rho_nonlinear("sin", RHO))
    yield rules.inequality("sin weakens the signal (a₁² = e⁻¹ < 1) and raises the relative noise (ρ_nl/a₁² > ρ)",
                           [a1sq, RHO], "<", [1.0, rnl / a1sq], clauses="c7", params=ps, scope="exact, ρ = 0.1")


def _result1_config(ctx, config, data, panels, excess):
    """The finite-size sub-claims of one Result-1 configuration; its figure panel into ``panels``; its relative excess
    over Result 1 at the largest d and its 1/d extrapolation into ``excess`` (for the claim's Remedy)."""
    MARGIN_REL = 0.05    # "equal" to within 5 % of the predicted error (the effects the reduction explains are ≥ 30 %)
    TRIVIAL_REL = 0.5    # Result 1 must beat the noise-only substitution by half the distance between the two
    P = params(ctx)
    f, al, ka, tau = RESULT1_CONFIGS[config]
    aniso = "aniso" in config
    th, noise_only = result1_theory(config)
    where = f"{f}, α = {al:g}, κ = {_kappa(ka)}, τ = {tau:g}" + (", anisotropic misaligned C" if aniso else "")
    cl = ["c4", "c5", "c8"] if aniso else ["c4", "c5"]
    ps = scan_params(ctx) + [P[f"result1:{config}"]]
    scope = (f"actual model, {where}, ρ = 0.1, d ∈ {data['ds']}, trials {list(sizes(ctx)['ext_trials'])}, "
             f"finite-size laws {list(FINITE_SIZE_LAWS)}")
    pm, ps_, pdf = scan_estimates([t - s for t, s in zip(data["teacher"], data["surrogate"])])
    tm, ts, tdf = scan_estimates(data["teacher"])
    last = data["teacher"][-1]
    gap = Estimate.from_samples(np.abs(last - noise_only) - np.abs(last - th))
    trivial = [against_trivial(f"Result 1 = {th:.4f}", f"noise-only substitution e_lin(C, ρ_nl) = {noise_only:.4f}",
                               gap, reference=abs(th - noise_only), relative_margin=TRIVIAL_REL)]
    sc = rules.asymptotic(f"{where}: teacher error → Result 1 = {th:.4f}", data["ds"], tm, ts, th,
                          margin=MARGIN_REL, relative=True, dfs=tdf, scope=scope, clauses=cl, params=ps, trivial=trivial,
                          details={"quantity": f"the simulated error of the {where} teacher",
                                   "decisive": config == next(iter(RESULT1_CONFIGS))})
    law = sc.details["laws"]["1/d"]
    excess[config] = {"d": data["ds"][-1], "last": tm[-1] / th - 1, "limit": law["intercept"] / th - 1,
                      "gof": law["p_gof"]}
    yield sc          # first: the letter shows the teacher's error against Result 1, then teacher − surrogate
    yield rules.asymptotic(f"{where}: teacher − surrogate → 0 as d → ∞", data["ds"], pm, ps_, 0.0,
                           margin=MARGIN_REL * th, dfs=pdf, scope=scope + " (paired trials)", clauses=cl, params=ps,
                           details={"quantity": f"teacher − surrogate ({where})"})
    yield rules.superiority(f"{where}: at d = {data['ds'][-1]} the simulation is closer to Result 1 than to the "
                            f"noise-only substitution {noise_only:.4f}", gap, margin=0.0, clauses="c6", params=ps,
                            scope=f"actual model at d = {data['ds'][-1]}, per-trial |e − noise-only| − |e − Result 1|")
    if aniso:
        iso = nl.e_icl_nonlinear(f, tau, al, ka, RHO)
        yield rules.inequality(f"{where}: the anisotropic, misaligned structure changes Result 1 (|{th:.4f} − {iso:.4f}| "
                               "> 0.01)", abs(th - iso), ">", 0.01, clauses="c8", params=ps,
                               scope=f"Result 1 in its general-covariance form, spectrum uniform on [0.25, 1.75] "
                                     f"(d = {ANISO_THEORY_D}), C_test reversed, vs C = I")
    sm, ss, _ = scan_estimates(data["surrogate"])
    panels[where] = {"ds": data["ds"], "teacher": (tm, ts), "surrogate": (sm, ss), "theory": th, "dfs": tdf}
    yield from _linear_theory_selfchecks(al, ka, tau, f)


def _linear_theory_selfchecks(alpha, kappa, tau, f):
    """Two independent routes to the linear ICL error and to Result 1 (catch e.g. κ → 2κ in one of them)."""
    I = np.ones(200)
    yield selfcheck.identity(f"e_lin: isotropic closed form = Silverstein general form at C = I (α = {alpha:g}, "
                             f"κ = {_kappa(kappa)}, τ = {tau:g})", nl.e_icl_linear(tau, alpha, kappa, RHO),
                             nl.e_icl_linear_general(tau, alpha, kappa, RHO, I, I), rtol=1e-9)
    for route in nl.RESULT1_ROUTES:
        yield selfcheck.identity(f"Result 1 ({f}): route {route!r} = the reference route {nl.REFERENCE_ROUTE!r}",
                                 nl.e_icl_nonlinear(f, tau, alpha, kappa, RHO, method=route),
                                 nl.e_icl_nonlinear(f, tau, alpha, kappa, RHO, method=nl.REFERENCE_ROUTE), rtol=1e-9)


_R1_KIND = ("这是一条无正则渐近风险归约。作者通过高斯近似、主导二阶矩与先前工作的 resolvent 分析得到它;Appendix A 明确采用渐近替换,"
            "Appendix B 忽略有限长度项。阅读时应把它作为该高维模型的结论,而非有限维分布相同的恒等式。")


@claims.claim("004-result1-asymptotic-only", lines=(150, 150), fragment=_R1_KIND, conventions=["C4", "C5"],
              needs=("result1_scan",), weight="supporting",
              title="Result 1 is a d → ∞ conclusion, not an identity at finite dimension",
              clauses=[Clause("c1", "这是一条无正则渐近风险归约。", asserted=False),
                       Clause("c2", "作者通过高斯近似、主导二阶矩与先前工作的 resolvent 分析得到它;Appendix A 明确采用渐近替换,"
                                    "Appendix B 忽略有限长度项。", asserted=False),
                       Clause("c3", "阅读时应把它作为该高维模型的结论,而非有限维分布相同的恒等式。")])
def result1_asymptotic_only(ctx, result1_scan):
    """Result 1 is a ridgeless asymptotic reduction (derived with the Gaussian substitution of Appendix A and without
    the finite-ℓ terms of Appendix B): at finite d the nonlinear teacher and its surrogate do not have the same
    error."""
    MARGIN_REL = 0.01        # differences within 1 % of Result 1 would count as "the same" at finite d
    ps = scan_params(ctx)
    for config, data in result1_curves(result1_scan).items():
        f, al, ka, tau = RESULT1_CONFIGS[config]
        th, _ = result1_theory(config)
        for i, which in ((-1, "largest"), (0, "smallest")):
            d0 = data["ds"][i]
            est = Estimate.from_samples(data["teacher"][i] - data["surrogate"][i])
            yield rules.difference(f"{config}: at d = {d0} the teacher's error differs from its surrogate's", est, 0.0,
                                   margin=MARGIN_REL * th, clauses="c3", params=ps + [params(ctx)[f"result1:{config}"]],
                                   details={"quantity": f"teacher − surrogate at d = {d0}",
                                            "decisive": i == -1 and config == next(iter(RESULT1_CONFIGS))},
                                   scope=f"actual model, {f}, α = {al:g}, κ = {_kappa(ka)}, τ = {tau:g}, ρ = 0.1, "
                                         f"d = {d0} (the {which} size of the 004-result1 scan), paired trials; "
                                         f"equivalence margin ±{MARGIN_REL:.0%} of Result 1")


# ================================================================================ the a₁ = 0 branch
@memoize("papers.nonlinear.claims.results.a1_zero_derivation", maxsize=1)
def _a1_zero_derivation():
    """``A.expressions()`` of :mod:`theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero` (no arguments,
    deterministic; its SymPy expressions are immutable and only read here): three claims use it, so it is built
    once per process (a registered memo, cleared by the self-test). The derivation's proofs (``A.derive()``) run
    in ``theorycheck derive --check``; the claims test the steps they state in their own sub-claims."""
    return A.expressions()


@claims.claim("004-a1zero-fixed-point", lines=(154, 158), conventions=["C2", "C3"], weight="supporting",
              title="a₁ = 0: no cross moment, the fixed point χ₀, and λ̃ → q(1 − τ)/τ or 0",
              clauses=[Clause("c1", "当 $a_1=0$,标签与特征的主导交叉矩消失,任务相关项也从特征二阶矩中消失。"),
                       Clause("c2", r"令 $q=\rho_{\mathrm{nonlinear}}/\alpha$,Appendix C 的辅助量满足"),
                       Clause("c3", r"$$ \chi_0\approx \frac{q}{q\tau/(1+\chi_0)+\tau\lambda}. $$"),
                       Clause("c4", r"定义 $\widetilde\lambda=\lambda(1+\chi_0)$,在 $\lambda\to0$ 下,$\tau<1$ 时得到 "
                                    r"$\widetilde\lambda=q(1-\tau)/\tau$,$\tau>1$ 时得到 0。"),
                       Clause("c5", "代回误差公式:", asserted=False)],
              readings={"operator norm along w": "ruled out: the seed's moments are leading-order — Appendix B drops "
                        "the finite-ℓ terms (line 136), and 主导 (leading) qualifies the moments here"})
def a1zero_fixed_point(ctx):
    """When a₁ = 0 the leading label–feature cross moment and the task terms of the feature second moment vanish;
    with q = ρ_nl/α, χ₀ = q/(qτ/(1+χ₀) + τλ); λ̃ = λ(1+χ₀) → q(1−τ)/τ for τ < 1 and → 0 for τ > 1 as λ → 0."""
    r = _a1_zero_derivation()
    tau, q, lam, s = A.tau, A.q, A.lam, A.s
    a1, rf, al, d = sp.symbols("a1 rho_f alpha d", positive=True)
    m22 = sp.Symbol("mu22", positive=True)
    w = sp.Matrix(sp.symbols("w0:3", real=True))
    eyh = (a1 ** 2 * w * w.T).row_join(a1 * rf * w) / d
    yield rules.identity("a₁ = 0: E[y_test H | w] = (1/d)[a₁² wwᵀ, a₁ρ_f w] = 0", eyh.subs(a1, 0), sp.zeros(3, 4),
                         clauses="c1", scope="exact (SymPy), the exact cross moment of Appendix B")
    yield rules.identity("a₁ = 0: the task term a₁² wwᵀ of the leading E[uuᵀ | w] vanishes", (a1 ** 2 * w * w.T).subs(a1, 0),
                         sp.zeros(3, 3), clauses="c1", scope="exact (SymPy), the leading moment of Appendix B")
    yield rules.identity("a₁ = 0: the exact remainder (μ₂₂ − ρ_f)wwᵀ/(αd) of E[uuᵀ | w] is a vanishing share of its "
                         "trace: [(μ₂₂ − ρ_f)/α]/[(d − 1)ρ_f/α + μ₂₂/α] → 0", sp.limit((m22 - rf) / ((d - 1) * rf + m22), d,
                                                                                sp.oo),
                         0, clauses="c1", scope="exact (SymPy), the generated finite-ℓ moment with a₁ = 0")
    mu = nl.label_moments("he2", RHO)
    spike = NM.Euu_wwT_over_d(0.0, mu["rho_f"], mu["mu22"], 2.0)
    yield rules.identity("operator-norm reading: along w the task term of E[uuᵀ | w] vanishes too (He₂, α = 2)", spike,
                         0.0, atol=1e-12, rtol=0.0, clauses="c1", reading="operator norm along w",
                         extent={"holds_throughout": False,
                                 "fails": f"for every a₁ = 0 teacher with μ₂₂ ≠ ρ_f: He₂ keeps (μ₂₂ − ρ_f)/α = "
                                          f"{spike:.4g} along w, {spike / NM.Euu_identity(2.0, mu['rho_f']):.3g} times "
                                          "the isotropic part ρ_f/α there, at every d",
                                 "holds": "in the trace (the share above → 0) and in the leading form"},
                         scope="exact (generated finite-ℓ moment), He₂, ρ = 0.1, α = 2: (μ₂₂ − ρ_f − a₁²)/α")
    fp_rhs = q / (q * tau / (1 + r["chi0"]) + tau * lam)
    yield rules.identity("χ₀ (positive root) solves χ₀ = q/(qτ/(1+χ₀) + τλ)", r["chi0"], fp_rhs, clauses=["c2", "c3"],
                         scope="exact (SymPy), symbolic τ, q, λ > 0")
    below = sp.limit(r["lam_tilde"].subs(tau, 1 / (1 + s)), lam, 0, "+")
    above = sp.limit(r["lam_tilde"].subs(tau, 1 + s), lam, 0, "+")
    yield rules.identity("τ < 1: λ̃ → q(1−τ)/τ as λ → 0⁺", below, (q * (1 - tau) / tau).subs(tau, 1 / (1 + s)),
                         clauses="c4", scope="exact (SymPy), τ = 1/(1+s), s > 0")
    yield rules.identity("τ > 1: λ̃ → 0 as λ → 0⁺", above, 0, clauses="c4", scope="exact (SymPy), τ = 1 + s, s > 0")
    pts = [(t, 0.5) for t in (0.3, 0.5, 0.9, 1.5, 2.0, 5.0)]
    yield selfcheck.identity("generated λ̃(τ, q, λ = 1e-12) = the SymPy limits",
                             [float(NA.lam_tilde(t, qq, 1e-12)) for t, qq in pts],
                             [qq * (1 - t) / t if t < 1 else 0.0 for t, qq in pts], atol=1e-9, rtol=0.0)
    yield selfcheck.identity("a1_zero_fixed_point = generated χ₀", [nl.a1_zero_fixed_point(t, 0.5, 0.1) for t, _ in pts],
                             [float(NA.chi0(t, 0.5, 0.1)) for t, _ in pts], rtol=1e-12)
    yield assumption_note("004-a1zero-fixed-point")
    yield Derivation(NA.LATEX["fixed_point"])
    yield Derivation(NA.LATEX["lam_tilde_limits"])


@claims.claim("004-a1zero-boxed", lines=(160, 160), conventions=["C2", "C3", "C4", "C5"], needs=("a1zero_scan",),
              weight="main", title="a₁ = 0: ridgeless error ρ_nl/(1 − τ) below τ = 1 and ρ_nl τ/(τ − 1) above",
              clauses=[Clause("c0", r"$$ \boxed{ e_{\mathrm{ICL}}^{\mathrm{nonlinear}} =\rho_{\mathrm{nonlinear}} "
                                    r"\begin{cases}"),
                       Clause("c1", r"\dfrac1{1-\tau},&\tau<1,\\[2mm]"),
                       Clause("c2", r"\dfrac{\tau}{\tau-1},&\tau>1. \end{cases}} $$")])
def a1zero_boxed(ctx, a1zero_scan):
    """When a₁ = 0 the ridgeless error is e_ICL = ρ_nl/(1 − τ) for τ < 1 and ρ_nl τ/(τ − 1) for τ > 1 (d → ∞)."""
    MARGIN_REL = 0.05
    r = _a1_zero_derivation()
    tau, lam, s, rnl = A.tau, A.lam, A.s, A.rnl
    below = sp.limit(r["risk_lam"].subs(tau, 1 / (1 + s)), lam, 0, "+")
    above = sp.limit(r["risk_lam"].subs(tau, 1 + s), lam, 0, "+")
    yield rules.identity("τ < 1: derived ridge risk → ρ_nl/(1 − τ) as λ → 0⁺", below,
                         (rnl / (1 - tau)).subs(tau, 1 / (1 + s)), clauses=["c0", "c1"], scope="exact (SymPy), τ = 1/(1+s)")
    yield rules.identity("τ > 1: derived ridge risk → ρ_nl τ/(τ − 1) as λ → 0⁺", above,
                         (rnl * tau / (tau - 1)).subs(tau, 1 + s), clauses=["c0", "c2"], scope="exact (SymPy), τ = 1 + s")
    P = params(ctx)
    ps = scan_params(ctx) + [P["a1zero_base"], P["a1zero_teachers"], P["a1zero_taus"]]
    panels, ends = {}, {}
    al, ka = A1ZERO_BASE
    for f, data in a1zero_scan.items():
        for i, t in enumerate(data["taus"]):
            th = nl.e_icl_nonlinear(f, t, al, ka, RHO)
            m, se, dfs = scan_estimates([x[:, i] for x in data["trials"]])
            sc = rules.asymptotic(f"{f}, τ = {t:g}: error → {th:.4g}", data["ds"], m, se, th, margin=MARGIN_REL,
                                  relative=True, dfs=dfs, clauses=["c0", "c1" if t < 1 else "c2"], params=ps,
                                  details={"quantity": f"the simulated error of the {f} teacher (τ = {t:g})",
                                           "decisive": (f, i) == (A1ZERO_TEACHERS[0], 0)},
                                  scope=f"actual model, {f} (a₁ = 0), α = {al:g}, κ = {ka:g}, ρ = 0.1, d ∈ "
                                        f"{data['ds']}, finite-size laws {list(FINITE_SIZE_LAWS)}")
            fits = [v["intercept"] for v in sc.details["laws"].values() if v.get("accepted")]
            ends[(f, t)] = {"d": data["ds"][-1], "excess": 100 * (m[-1] / th - 1), "lo": min(fits, default=th),
                            "hi": max(fits, default=th)}
            yield sc
            panels[f"{f}, τ = {t:g}"] = {"ds": data["ds"], "teacher": (m, se), "theory": th, "dfs": dfs}
    yield from _a1zero_remedy(ends)
    ctx.save_figure(*plot_a1zero_extrapolation(panels, ctx.mode))
    yield assumption_note("004-a1zero-boxed")
    yield from _pure_noise_selfchecks(ctx)
    yield Derivation(r"e=\rho_{\rm nl}\frac{\tau(1+\kappa_e)^2}{\tau(1+\kappa_e)^2-1},\ \kappa_e=\tilde\lambda/q"
                     r"\ \xrightarrow{\lambda\to0^+}\ \rho_{\rm nl}\begin{cases}\frac1{1-\tau},&\tau<1\\"
                     r"\frac{\tau}{\tau-1},&\tau>1\end{cases}")


def _a1zero_remedy(ends):
    """What would fix the boxed formula's reading, from the scans: how far above it the largest size still is, and the
    range of the accepted finite-size laws' limits at that teacher and τ (the verdict is decided later, by the report's
    Holm family: the remedy states numbers only)."""
    worst = max(ends, key=lambda k: ends[k]["excess"])
    if ends[worst]["excess"] > 0:
        e = ends[worst]
        yield Remedy("state how slowly the boxed value is approached: at the largest size d = {d} the error is still "
                     "{x} % above it (the worst teacher and τ), and the accepted finite-size laws extrapolate that "
                     "point to limits from {lo} to {hi}", d=e["d"], x=e["excess"], lo=e["lo"], hi=e["hi"],
                     clauses=["c0"])


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
              weight="supporting", title="Interpolation threshold τ = 1: the error peaks there, ρ_nl only as τ → ∞",
              clauses=[Clause("c1", r"参数数目是 $d(d+1)$,而 $n=\tau d^2$,所以渐近插值阈值是 $\tau=1$。", "inference"),
                       Clause("c2", "在正的残差能量下,靠近阈值,拟合偶然样本相关会放大误差;"),
                       Clause("c3", r"$\tau\to\infty$ 时才回到 $\rho_{\mathrm{nonlinear}}$。", "quantifier")])
def interpolation_peak(ctx):
    """p = d(d+1) parameters and n = τd² samples put the asymptotic interpolation threshold at τ = 1; with
    positive residual energy the error blows up near it (fitting spurious sample correlations); it returns to ρ_nl
    only as τ → ∞."""
    d, tau, rnl = sp.symbols("d tau rho_nl", positive=True)
    yield rules.identity("threshold n = p at τ = (d+1)/d → 1", sp.limit((d * (d + 1)) / d ** 2, d, sp.oo), 1,
                         clauses="c1", scope="exact (SymPy)")
    e_below, e_above = rnl / (1 - tau), rnl * tau / (tau - 1)
    yield rules.identity("a₁ = 0: e → +∞ as τ → 1⁻ (1/e → 0, e > 0)", sp.limit(1 / e_below, tau, 1, "-"), 0,
                         clauses="c2", scope="exact (SymPy), ρ_nl > 0")
    yield rules.identity("a₁ = 0: e → +∞ as τ → 1⁺ (1/e → 0, e > 0)", sp.limit(1 / e_above, tau, 1, "+"), 0,
                         clauses="c2", scope="exact (SymPy), ρ_nl > 0")
    yield rules.identity("the excess over ρ_nl is the variance of fitting pure noise: e − ρ_nl = ρ_nl·V, V = "
                         "γ/((1 + κ_e)² − γ) at γ = 1/τ, λ → 0", [nl.risk_a1_zero(t, 1.1) - 1.1 for t in (0.5, 0.9, 1.1, 2.0)],
                         [1.1 * nl.ridge_risk_pure_noise(1 / t, 0.0) for t in (0.5, 0.9, 1.1, 2.0)], rtol=1e-12,
                         clauses="c2", scope="the a₁ = 0 risk against the variance factor of ridgeless regression on "
                                             "signal-free labels (an independent route), ρ_nl = 1.1")
    yield rules.identity("condition audited: no residual energy, no peak — ρ_nl = 0 gives e = 0",
                         [nl.risk_a1_zero(t, 0.0) for t in (0.5, 0.99, 1.01, 2.0)], [0.0] * 4, clauses="c2",
                         scope="risk_a1_zero, τ ∈ {0.5, 0.99, 1.01, 2}")
    near = [nl.e_icl_nonlinear("sin", t, 2.0, 2.0, RHO) for t in (1 - 1e-3, 1 + 1e-3)]
    far = [nl.e_icl_nonlinear("sin", t, 2.0, 2.0, RHO) for t in (0.5, 2.0)]
    PEAK_FACTOR = 100.0          # "blows up": at |τ − 1| = 1e-3 the error exceeds 100× its value at τ = 0.5 and 2
    yield rules.inequality("a₁ ≠ 0 (sin) has the peak too: error at τ = 1 ∓ 1e-3 exceeds 100× the error at τ = 0.5 "
                           "and 2", min(near), ">", PEAK_FACTOR * max(far), clauses="c2",
                           scope="Result 1 (exact), α = κ = 2, ρ = 0.1")
    yield rules.identity("τ → ∞: ρ_nl τ/(τ − 1) → ρ_nl", sp.limit(e_above, tau, sp.oo), rnl, clauses="c3",
                         scope="exact (SymPy)")
    yield rules.identity("only in the limit: ρ_nl τ/(τ − 1) − ρ_nl = ρ_nl/(τ − 1) > 0 for every τ > 1",
                         e_above - rnl, rnl / (tau - 1), clauses="c3", scope="exact (SymPy), symbolic τ > 1, ρ_nl > 0")


#: The reading of 004-a1zero-no-alpha-kappa's c1 at a finite size (issue 29, class 6: the informative finite-d number).
AT_LARGEST_D = "at the largest simulated size"


@claims.claim("004-a1zero-no-alpha-kappa", lines=(162, 162), conventions=["C2", "C3", "C4", "C5"],
              needs=("a1zero_scan", "a1zero_alt"), weight="supporting",
              fragment="此分支不再依赖 $\\alpha$ 或 $\\kappa$,因为没有可供它们改善的一阶信号。",
              title="The a₁ = 0 branch depends on neither α nor κ: there is no signal for them to improve",
              clauses=[Clause("c1", r"此分支不再依赖 $\alpha$ 或 $\kappa$"),
                       Clause("c2", "因为没有可供它们改善的一阶信号。", "inference")],
              readings={AT_LARGEST_D: "ruled out: the sentence states a property of the d → ∞ ridgeless formula it "
                                       "cites («Eq. (10)»), not of a finite size; the finite-d dependence is shown "
                                       "(and repaired) but does not vote"})
def a1zero_no_alpha_kappa(ctx, a1zero_scan, a1zero_alt):
    """The ridgeless a₁ = 0 branch does not depend on α or κ: there is no first-order signal for them to improve
    (with a₁ ≠ 0 it does; with λ > 0 it depends on α through q = ρ_nl/α)."""
    MARGIN_REL = 0.05
    r = _a1_zero_derivation()
    for name, sub in (("τ > 1", 1 + A.s), ("τ < 1", 1 / (1 + A.s))):
        lim = sp.limit(r["risk_lam"].subs(A.tau, sub), A.lam, 0, "+")
        yield rules.identity(f"{name}: the λ → 0 limit does not depend on q = ρ_nl/α (∂/∂q = 0)", sp.diff(lim, A.q), 0,
                             clauses="c1", scope="exact (SymPy)")
    yield rules.inequality("condition audited: with λ = 0.1 the a₁ = 0 risk does depend on α (α = 2 vs 6)",
                           abs(nl.risk_a1_zero(2.0, 1.1, 2.0, 0.1) - nl.risk_a1_zero(2.0, 1.1, 6.0, 0.1)), ">", 1e-3,
                           clauses="c1", scope="risk_a1_zero (exact), τ = 2, ρ_nl = 1.1")
    base = a1zero_scan["he2"]
    i = base["taus"].index(A1ZERO_TAUS[1])
    th = nl.e_icl_nonlinear("he2", A1ZERO_TAUS[1], *A1ZERO_BASE, RHO)
    P = params(ctx)
    last, labels = [], []
    for point in [f"{a:g}/{k:g}" for a, k in (A1ZERO_ALT,) + A1ZERO_ONE_FACTOR]:      # both factors, then each alone
        alt = a1zero_alt[point]
        changed = (alt["alpha"], alt["kappa"])
        ests = [Estimate.difference(Estimate.from_samples(b), Estimate.from_samples(a[:, i]))
                for b, a in zip(alt["trials"], base["trials"])]
        last.append(ests[-1])
        labels.append(f"(α, κ) = ({changed[0]:g}, {changed[1]:g})")
        yield rules.asymptotic(f"He₂, τ = {A1ZERO_TAUS[1]:g}: e(α, κ = {changed}) − e(α, κ = {A1ZERO_BASE}) → 0",
                               base["ds"], [e.mean for e in ests], [e.se for e in ests], 0.0, margin=MARGIN_REL * th,
                               dfs=[e.df for e in ests], clauses="c1", params=scan_params(ctx) + [P["a1zero_base"]],
                               details={"quantity": f"the He₂ error at (α, κ) = {changed} minus at {A1ZERO_BASE}",
                                        "decisive": changed == A1ZERO_ALT},
                               scope=f"actual model, He₂, ρ = 0.1, independent runs (Welch), d ∈ {base['ds']}, "
                                     f"finite-size laws {list(FINITE_SIZE_LAWS)}")
    yield from _a1zero_at_largest_d(base, last, labels, th, MARGIN_REL, scan_params(ctx) + [P["a1zero_base"]])
    e_sin = [nl.e_icl_nonlinear("sin", 2.0, a, k, RHO) for a, k in (A1ZERO_BASE, A1ZERO_ALT)]
    yield rules.inequality(f"contrast: with first-order signal (sin) the error does depend on (α, κ): |e{A1ZERO_BASE} − "
                           f"e{A1ZERO_ALT}| > 0.01", abs(e_sin[0] - e_sin[1]), ">", 0.01, clauses="c2",
                           scope="Result 1 (exact), τ = 2, ρ = 0.1")
    yield rules.identity("a₁ = 0: the cross moment through which α and κ act, E[y_test H | w] ∝ a₁, is 0", float(
        nl.teacher_moments("he2")["a1"]), 0.0, clauses="c2", scope="exact (He₂)")


def _a1zero_at_largest_d(base, last, labels, th, margin_rel, ps):
    """The finite-d reading (ruled out, shown): at the largest size, the He₂ error at each alternative (α, κ) minus at
    A1ZERO_BASE, decided at its worst alternative; and, where the difference is significant (two-sided, Holm within
    the alternatives, α = 0.01), the repair: say that the independence is asymptotic."""
    d = base["ds"][-1]
    yield rules.grid_equivalence(f"He₂, τ = {A1ZERO_TAUS[1]:g}, d = {d}: the error at every alternative (α, κ) equals "
                                 f"its value at {A1ZERO_BASE} (within 5 % of the boxed value)", last, [0.0] * len(last),
                                 margin=margin_rel * th, labels=labels, reading=AT_LARGEST_D, clauses="c1", params=ps,
                                 details={"quantity": f"the He₂ error minus its value at (α, κ) = {A1ZERO_BASE}"},
                                 scope=f"actual model, He₂, ρ = 0.1, d = {d} (the largest size of the scan), τ = "
                                       f"{A1ZERO_TAUS[1]:g}, independent runs (Welch)")
    signs = grid_signs(last)
    moved = signs.positive + signs.negative
    if moved:
        worst = max(moved, key=lambda j: abs(last[j].mean))
        base_d = float(np.mean(base["trials"][-1][:, base["taus"].index(A1ZERO_TAUS[1])]))
        yield Remedy("say that the independence of α and κ is a d → ∞ property: at d = {d} the He₂ error (τ = {t}) "
                     "still moves significantly with (α, κ) at {k} of {n} alternatives tried, by up to {x} % of its "
                     "value {e} at (α, κ) = ({a0}, {k0})", d=d, t=A1ZERO_TAUS[1], k=len(moved), n=len(last),
                     x=100 * abs(last[worst].mean) / base_d, e=base_d, a0=A1ZERO_BASE[0], k0=A1ZERO_BASE[1],
                     clauses=["c1"])


_TEACH_CLAUSES = [
    Clause("c1", r"由公式直接得到的教学数值是:$\tau=0.5$ 与 $\tau=2$ 时误差均为 $2\rho_{\mathrm{nonlinear}}$,"
                 r"$\tau=0.9$ 时为 $10\rho_{\mathrm{nonlinear}}$。", "number"),
    Clause("c2", "这些倍数是推导结果,不是论文的模拟点。", asserted=False),
    Clause("c3", "也由此可见,观察到双下降曲线本身,并不能说明模型已经学到了非线性任务规则。", "inference")]


@claims.claim("004-a1zero-teaching-numbers", lines=(164, 164), conventions=["C2"], weight="supporting",
              title="Teaching numbers 2ρ_nl (τ = 0.5, 2) and 10ρ_nl (τ = 0.9); double descent is not learning",
              clauses=_TEACH_CLAUSES)
def a1zero_teaching_numbers(ctx):
    """From the boxed formula: e = 2ρ_nl at τ = 0.5 and τ = 2, 10ρ_nl at τ = 0.9 (derived, not simulation
    points); a double-descent curve alone does not show that the rule was learned: the a₁ = 0 model has one and
    never beats predicting zero."""
    STEP, RESOLUTION = 0.05, 0.1      # τ grid step 0.05 (τ = 1 left out: infinite); the peak is located to 0.1
    tau, rnl = sp.symbols("tau rho_nl", positive=True)
    e_below, e_above = rnl / (1 - tau), rnl * tau / (tau - 1)
    cases = ((e_below, sp.Rational(1, 2), 2), (e_above, 2, 2), (e_below, sp.Rational(9, 10), 10))
    for expr, t, k in cases:
        yield rules.identity(f"boxed formula at τ = {t}: {k}ρ_nl", expr.subs(tau, t), k * rnl, clauses="c1",
                             scope="exact (SymPy)")
        yield rules.reproduction(f"risk_a1_zero(τ = {float(t):g})/ρ_nl = {k}", nl.risk_a1_zero(float(t), 1.1) / 1.1,
                                 str(k), clauses="c1", scope="the toolkit's a₁ = 0 risk, ρ_nl = 1.1")
    grid = [t for t in np.round(np.arange(0.05, 4.0001, STEP), 10) if abs(t - 1) > 1e-9]
    e = [nl.risk_a1_zero(float(t), 1.1) for t in grid]
    yield rules.shape("a₁ = 0: the ridgeless error is a double-descent curve (rises to τ = 1, then falls)", grid, e,
                      shape="unimodal-maximum", resolution=RESOLUTION, clauses="c3",
                      scope=f"boxed formula (exact), τ ∈ [0.05, 4] step {STEP} (τ = 1 excluded: infinite), "
                            "ρ_nl = 1.1")
    yield rules.inequality("yet it never beats the zero predictor (error ≥ E[y²] = ρ_f = ρ_nl when a₁ = 0)", e, ">=",
                           1.1, clauses="c3", scope=f"boxed formula (exact), the same τ grid")
