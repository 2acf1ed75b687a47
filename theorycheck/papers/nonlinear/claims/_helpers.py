r"""What the claims of paper 004 share (their sections are the other modules of :mod:`..claims`):

* the symbol :math:`g` and direct Gaussian integrals — an independent route to the moments the Hermite engine
  computes (the claims compare the two);
* the d-scans of Result 1 and the a₁ = 0 branch: per-size Student-t estimates (:func:`scan_estimates`), Result 1
  and its trivial alternative per configuration (:func:`result1_theory`), the scans' parameters (:func:`scan_params`);
* the assumption map of a claim as a method note (:func:`assumption_note`; the maps are declared in
  :mod:`..assumptions`);
* the figures: each ``plot_*`` returns ``(fig, stem, caption)`` for ``ctx.save_figure``; captions state what is
  plotted, the setting and the sample sizes, generated from the data (never a result).

>>> gauss_E(g ** 4)
3
"""
from __future__ import annotations

import numpy as np
import sympy as sp
from scipy import stats

from ....figures import new_figure
from ....verdicts import Estimate
from ...api import Note
from .. import theory as nl
from ..fixtures import aniso_covariances
from ..registry import claims
from ..settings import RESULT1_CONFIGS, RHO, mc_param, params, sizes

__all__ = ["g", "PHI", "gauss_E", "gauss_E_relu", "gauss_E_poly", "ANISO_THEORY_D", "scan_estimates", "result1_theory",
           "scan_params", "assumption_note", "plot_result1_extrapolation", "plot_a1zero_extrapolation", "plot_fig1",
           "plot_fig2"]

g = sp.Symbol("g", real=True)
PHI = sp.exp(-g ** 2 / 2) / sp.sqrt(2 * sp.pi)


def _half_moment(k: int):
    """∫₀^∞ g^k φ(g) dg = 2^{k/2 − 1} Γ((k + 1)/2)/√π (exact; the Gaussian integral of a monomial over g > 0)."""
    return sp.simplify(2 ** sp.Rational(k, 2) * sp.gamma(sp.Rational(k + 1, 2)) / (2 * sp.sqrt(sp.pi)))


def _half_E(expr, sign: int):
    """Exact ∫ expr φ over g > 0 (sign = 1) or g < 0 (sign = −1) for a polynomial ``expr`` in g, monomial by monomial
    (g^k over g < 0 is (−1)^k times the half-moment); None when ``expr`` is not a polynomial in g."""
    if not expr.is_polynomial(g):
        return None
    return sp.expand(sum(c * sign ** k * _half_moment(k) for (k,), c in sp.Poly(expr, g).terms())) if expr != 0 \
        else sp.Integer(0)


def _tilted_E(expr):
    """Exact E[expr(g)] for a sum of terms c·g^k·exp(a·g) with a, c free of g (sin and cos rewritten as
    exponentials): each term by completing the square, ∫ g^k e^{ag} φ(g) dg = e^{a²/2} E[(g + a)^k], with
    E[g^j] = (j − 1)!! for even j and 0 for odd j (the same Gaussian integrals in closed form); None when a term is
    not of that form."""
    e = sp.expand(sp.powsimp(sp.expand(expr.rewrite(sp.exp)), combine="exp"))
    total = sp.Integer(0)
    for term in sp.Add.make_args(e):
        expo = sp.Integer(0)
        rest = sp.Integer(1)
        for fac in sp.Mul.make_args(term):
            base, ex = fac.as_base_exp()
            if base == sp.E or isinstance(fac, sp.exp):
                expo += fac.args[0] if isinstance(fac, sp.exp) else ex
            else:
                rest *= fac
        a = sp.diff(expo, g)
        if a.has(g) or not rest.is_polynomial(g):
            return None
        shift = sp.expand(rest.subs(g, g + a))
        mom = sum(c * (sp.factorial2(k - 1) if k % 2 == 0 else 0) for (k,), c in sp.Poly(shift, g).terms()) \
            if shift.has(g) else shift
        total += sp.exp(sp.expand(expo - a * g) + a ** 2 / 2) * mom
    return total


def gauss_E(expr):
    """Exact E[expr(g)], g ~ N(0, 1), by SymPy integration of expr·φ (not through the Hermite engine); a polynomial
    integrand by its half-line monomial moments, and a polynomial times exponentials or sines and cosines of linear
    functions of g by completing the square (:func:`_tilted_E`) — the same integrals in closed form."""
    e = sp.expand(expr)
    pos, neg = _half_E(e, 1), _half_E(e, -1)
    if pos is not None:
        return sp.simplify(pos + neg)
    tilted = _tilted_E(e)
    if tilted is not None:
        return sp.simplify(tilted)
    return sp.simplify(sp.integrate(e * PHI, (g, -sp.oo, sp.oo)))


def gauss_E_relu(expr, relu):
    """Exact E[expr(g)], g ~ N(0, 1), for an expression in g and the ReLU ``relu`` = Piecewise((g, g > 0), (0, True)):
    the same Gaussian integral as :func:`gauss_E`, split at the kink (relu = g on g > 0, 0 on g ≤ 0) so that SymPy
    integrates two smooth integrands instead of taking its Meijer-G route through the Piecewise; polynomial pieces by
    their half-line monomial moments. Piecewise pieces that SymPy folded out of ``relu`` (relu² → Piecewise((g², g >
    0), (0, True))) are resolved on each half-line by the sign of g."""
    gp, gn = sp.Symbol("g_pos", positive=True), sp.Symbol("g_neg", negative=True)
    pos = sp.expand(expr.subs(relu, g).subs(g, gp).subs(gp, g))
    neg = sp.expand(expr.subs(relu, 0).subs(g, gn).subs(gn, g))
    hp, hn = _half_E(pos, 1), _half_E(neg, -1)
    if hp is not None and hn is not None:
        return sp.simplify(hp + hn)
    return sp.simplify(sp.integrate(pos * PHI, (g, 0, sp.oo)) + sp.integrate(neg * PHI, (g, -sp.oo, 0)))


def gauss_E_poly(expr, var, E=gauss_E):
    """Exact E[expr] for an expression polynomial in the symbol ``var`` (a coefficient such as β, not g): the
    Gaussian integral ``E`` of each coefficient of ``var``, so that SymPy never integrates with ``var`` inside (the
    same integrals as ``E(expr)``, term by term; ≈ 10× faster for ReLU).

    >>> b = sp.Symbol("b"); gauss_E_poly((g - b) ** 2, b)
    b**2 + 1
    """
    poly = sp.Poly(sp.expand(expr), var)
    return sp.expand(sum(E(c) * var ** k for (k,), c in poly.terms()))


# ------------------------------------------------------------------------------------------ the d-scans
#: d of the spectrum at which Result 1's general-covariance form stands for d → ∞: the evenly spaced spectrum (end
#: points included) converges like 1/d to its continuous-spectrum limit (coefficient ≈ 0.31 at sin, α = κ = τ = 2):
#: at d = 10⁵ within ≈ 3e-6 of it (measured against d = 4·10⁵), far inside the 5 % margin. Diagonal covariances are
#: handled as eigenvalue arrays, O(d) per evaluation (the dense d = 4000 form took ≈ 50 s per call).
ANISO_THEORY_D = 100_000


def scan_estimates(samples_per_d):
    """Per-size Student-t estimates (means, ses, dfs) from a list of per-trial arrays."""
    ests = [Estimate.from_samples(x) for x in samples_per_d]
    return [e.mean for e in ests], [e.se for e in ests], [e.df for e in ests]


def result1_theory(config: str) -> tuple[float, float]:
    """``(Result 1, the noise-only substitution e_lin(C, ρ_nl))`` of a Result-1 configuration (isotropic C, or the
    anisotropic misaligned pair of :func:`..fixtures.aniso_covariances` at d = :data:`ANISO_THEORY_D`)."""
    f, al, ka, tau = RESULT1_CONFIGS[config]
    rnl = float(nl.rho_nonlinear(f, RHO))
    if "aniso" not in config:
        return nl.e_icl_nonlinear(f, tau, al, ka, RHO), nl.e_icl_linear(tau, al, ka, rnl)
    a1sq = float(nl.teacher_moments(f)["a1"]) ** 2
    ctr, cte = aniso_covariances(ANISO_THEORY_D)
    return (nl.e_icl_linear_general(tau, al, ka, rnl, a1sq * ctr, a1sq * cte),
            nl.e_icl_linear_general(tau, al, ka, rnl, ctr, cte))


def scan_params(ctx) -> list:
    sz, P = sizes(ctx), params(ctx)
    return [P["rho"], P["ext_ds"], P["lambda0"], mc_param(list(sz["ext_trials"]), sz["ext_ntest"])]


# ------------------------------------------------------------------------------------------ assumption maps
def assumption_note(claim_id: str):
    """The claim's assumption map as a method note (the report's "Where it breaks" table lists only the stressed
    ones): every declared assumption, stated (seed lines) or implicit (the step that uses it)."""
    rows = []
    for a in claims.assumptions:
        if a.claim != claim_id:
            continue
        where = (f"stated, seed lines {a.lines[0]}–{a.lines[1]}" if a.stated and a.lines else "implicit")
        stressed = any(st.claim == claim_id and st.assumption == a.name for st in claims.stresses)
        rows.append(f"{a.name} ({where}; used for: {a.uses}{'; stress path in “Where it breaks”' if stressed else ''})")
    return Note("Assumptions: " + "; ".join(rows) + ".")


# ------------------------------------------------------------------------------------------ figures
def _ci(se, df):
    """Half-width of the two-sided 95 % Student-t interval (per point: ``se`` and ``df`` broadcast)."""
    return stats.t.ppf(0.975, np.asarray(df, dtype=float)) * np.asarray(se, dtype=float)


def plot_result1_extrapolation(panels: dict, mode: str):
    fig, ax = new_figure(len(panels), 1, width=3.6)
    axes = np.atleast_1d(ax).ravel()
    for a, (lab, p) in zip(axes, panels.items()):
        inv = 1.0 / np.asarray(p["ds"], dtype=float)
        a.errorbar(inv, p["teacher"][0], yerr=_ci(p["teacher"][1], p["dfs"]), fmt="o", ms=4, label="nonlinear teacher")
        a.errorbar(inv, p["surrogate"][0], yerr=_ci(p["surrogate"][1], p["dfs"]), fmt="s", mfc="none", ms=4,
                   label="surrogate linear teacher")
        a.axhline(p["theory"], color="k", lw=1, label="Result 1 (d → ∞)")
        a.set_xlim(0, inv.max() * 1.1)
        a.set_xlabel("1/d")
        a.set_title(lab, fontsize=7)
    axes[0].set_ylabel("ICL test MSE")
    axes[0].legend(fontsize=6)
    first = next(iter(panels.values()))
    cap = (f"Result 1: simulated test MSE of the nonlinear teacher and of its surrogate linear teacher (paired trials) "
           f"against 1/d, d ∈ {list(first['ds'])}, with 95 % Student-t intervals over trials; horizontal line: Result 1. "
           f"Configurations: {', '.join(panels)}; ρ = 0.1; {mode} mode.")
    return fig, "nonlinear_result1_extrapolation", cap


def plot_a1zero_extrapolation(panels: dict, mode: str):
    fig, ax = new_figure(len(panels), 1, width=3.2)
    axes = np.atleast_1d(ax).ravel()
    for a, (lab, p) in zip(axes, panels.items()):
        inv = 1.0 / np.asarray(p["ds"], dtype=float)
        a.errorbar(inv, p["teacher"][0], yerr=_ci(p["teacher"][1], p["dfs"]), fmt="o", ms=4, label="simulation")
        a.axhline(p["theory"], color="k", lw=1, label="boxed formula (d → ∞)")
        a.set_xlim(0, inv.max() * 1.1)
        a.set_xlabel("1/d")
        a.set_title(lab, fontsize=8)
    axes[0].set_ylabel("ICL test MSE")
    axes[0].legend(fontsize=6)
    first = next(iter(panels.values()))
    cap = (f"a₁ = 0 branch: simulated ridgeless test MSE against 1/d, d ∈ {list(first['ds'])}, 95 % Student-t "
           f"intervals over trials; horizontal line: ρ_nl/(1−τ) or ρ_nl τ/(τ−1). Panels: {', '.join(panels)}; α = κ = 2, "
           f"ρ = 0.1; {mode} mode.")
    return fig, "nonlinear_a1zero_extrapolation", cap


def plot_fig1(taus, curves: dict, theory: dict, d: int, trials: int, a1sq: float):
    """``curves``: name -> (mean, se) per τ (raw MSE); ``theory``: name -> values per τ."""
    fig, ax = new_figure(2, 1, width=4.4)
    mk = {"sin": ("o", "none"), "linear-legend": ("D", "C1"), "linear-0.1": ("s", "gray")}
    for name, (m, se) in curves.items():
        ax[0, 0].errorbar(taus, m, yerr=_ci(se, trials - 1), fmt=mk[name][0], mfc=mk[name][1], ms=4, label=name)
        scale = a1sq if name == "sin" else 1.0
        ax[0, 1].errorbar(taus, np.asarray(m) / scale, yerr=_ci(se, trials - 1) / scale, fmt=mk[name][0],
                          mfc=mk[name][1], ms=4,
                          label=name + (" ÷ a₁²" if name == "sin" else ""))
    for name, v in theory.items():
        ax[0, 1].plot(taus, v, "--", lw=0.8, label=f"theory {name}")
    for a in ax[0]:
        a.set_yscale("log")
        a.set_xlabel("τ = n/d²")
        a.legend(fontsize=6)
    ax[0, 0].set_title(f"raw MSE, d = {d}")
    ax[0, 1].set_title("nonlinear MSE divided by a₁²")
    ax[0, 0].set_ylabel("ICL test MSE")
    cap = (f"Figure 1 reproduction: test MSE of the sin teacher (ρ = 0.1) and of linear teachers with noise 0.447 and "
           f"0.1 at d = {d}, α = κ = 2, τ ∈ {list(taus)}; left raw, right with the sin curve divided by a₁² = "
           f"{a1sq:.4f}; 95 % Student-t intervals over {trials} paired trials; dashed: d → ∞ theory.")
    return fig, "nonlinear_fig1", cap


def plot_fig2(kappas, curves: dict, theory: dict, rho_nl: float, rho: float, d: int, trials: int):
    fig, ax = new_figure()
    kk = np.asarray(kappas, dtype=float)
    for (name, (m, se)), mk in zip(curves.items(), ("D", "o")):
        ax.errorbar(kk, m, yerr=_ci(se, trials - 1), fmt=mk, ms=4, label=f"simulation {name}")
        ax.plot(kk, theory[name], "--", lw=1)
    ax.axhline(rho_nl, color="g", label=f"ρ_nl = {rho_nl:.4f}")
    ax.axhline(rho, color="gray", ls=":", label=f"ρ = {rho:g}")
    ax.set_xscale("log")
    ax.set_xlabel("κ = k/d")
    ax.set_ylabel("ICL test MSE")
    ax.legend(fontsize=7)
    cap = (f"Figure 2 reproduction: tanh teacher, ρ = {rho:g}, d = {d}, τ = α/2, κ ∈ {list(kappas)}; points: "
           f"simulations ({trials} trials each, 95 % Student-t intervals), dashed: Result 1; lines ρ_nl and ρ.")
    return fig, "nonlinear_fig2", cap
