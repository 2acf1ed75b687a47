"""Figures of paper 004. Each function returns ``(fig, stem, caption)`` for ``ctx.save_figure``; captions
state what is plotted, the setting and the sample sizes, generated from the data (never a result)."""
from __future__ import annotations

import numpy as np
from scipy import stats

from ...figures import new_figure


def _ci(se, df):
    """Half-width of the two-sided 95 % Student-t interval (per point: ``se`` and ``df`` broadcast)."""
    return stats.t.ppf(0.975, np.asarray(df, dtype=float)) * np.asarray(se, dtype=float)


def result1_extrapolation(panels: dict, mode: str):
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


def a1zero_extrapolation(panels: dict, mode: str):
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


def fig1(taus, curves: dict, theory: dict, d: int, trials: int, a1sq: float):
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


def fig2(kappas, curves: dict, theory: dict, rho_nl: float, rho: float, d: int, trials: int):
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
