r"""Paper 000 — "Learning to Adapt: In-Context Learning Beyond Stationarity" (GLA under AR(1) drift).

Every quantitative statement of the seed summary becomes a :class:`~theorycheck.claims.Claim`.
The mathematics lives in :mod:`theorycheck.gla` (exact formulas, the GLA recursion, gradient
flow) and :mod:`theorycheck.adaptive_filters` (LMS, RLS, Kalman); the SymPy derivation is
``derivations/gla_loss.py``.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import stats

from .. import adaptive_filters as af
from .. import gla
from .. import montecarlo as mc
from ..claims import Claim, Ledger
from ..figures import new_figure
from ..generated import gla_loss as gen

SEED = "000"
TITLE = "Learning to Adapt: In-Context Learning Beyond Stationarity"

CONVENTIONS = [
    "$w_0\\sim N(0,\\sigma_w^2 I_d)$; $w_i=\\gamma w_{i-1}+e_i$, $e_i\\sim N(0,\\sigma_e^2 I_d)$ for "
    "$i=1..n+1$; $x_i\\sim N(0,\\Lambda)$; $y_i=\\langle w_i,x_i\\rangle+\\varepsilon_i$, "
    "$\\mathrm{Var}\\,\\varepsilon_i=\\sigma^2$ (`noise`). $\\sigma_w,\\sigma_e$ are kept general "
    "(the law of $w_i$ is stationary only if $\\sigma_w^2=\\sigma_e^2/(1-\\gamma^2)$).",
    "Tokens $z_i=(x_i,y_i)$, $i\\le n$, form the prompt; the query is $z_{n+1}=(x_{n+1},0)$. "
    "GLA weight on token $i$ is $\\lambda^{n+1-i}$; the sum includes the query token $i=n+1$.",
    "Reconstructed prediction: $\\hat y=(o_{n+1})_{d+1}$ with $o_{n+1}=W_V(\\sum_{i=1}^{n+1}"
    "\\lambda^{n+1-i}z_iz_i^\\top)W_{KQ}z_{n+1}$; with $W_V$ last row $(u^\\top,v)$ and "
    "$W_{KQ}[:,:d]=[A;b^\\top]$, $\\hat y=x_{n+1}^\\top\\Gamma h+T_1+T_2$, $\\Gamma=vA^\\top+bu^\\top$, "
    "$h=\\sum_{i\\le n}\\lambda^{n+1-i}y_ix_i$; $T_1+T_2$ (which holds the query token's own term "
    "$(u^\\top x_{n+1})(x_{n+1}^\\top Ax_{n+1})$) is uncorrelated with the rest, so the optimum has "
    "$u=b=0$ and the query term contributes nothing there.",
    "Loss: population MSE $E[(\\hat y-y_{n+1})^2]$, NOT halved ('train error' = its minimum over "
    "the parameters at fixed $\\lambda$); halved values are half of every number shown.",
    "Monte Carlo: seeds from the run seed and the claim id; SE = sample sd/$\\sqrt{N}$; two-sided "
    "z-tests at $\\alpha=10^{-3}$ per comparison.",
    "Adaptive filters: a priori one-step-ahead squared error $(y_t-\\hat w_{t-1}^\\top x_t)^2$; "
    "'last' = at the final position $t=T$ (GLA's query with $n=T-1$), 'avg' = averaged over "
    "$t=T/2+1..T$ and runs.",
]

D_EXP, N_EXP = 10, 100           # the experiment's sizes (seed line 57)
SW2_DEF, SE2_DEF = 1.0, 0.01     # our default (σ_w = 1, σ_e = 0.1): not stated in the seed


def _c(**kw):
    return Claim(paper=SEED, **kw)


# ====================================================================== model / recursion
def claim_model(ctx) -> Claim:
    rng = np.random.default_rng(ctx.seed_for("000-gla-recursion"))
    d, n, lam = 3, 7, 0.7
    X, Y = gla._sample_tokens(rng, 50, 0.9, n, np.eye(d), 1.0, 0.1, 0.05)
    WV = rng.standard_normal((d + 1, d + 1))
    WKQ = rng.standard_normal((d + 1, d + 1))
    rec = gla._gla_forward(X, Y, lam, WKQ, WV)
    Z = np.concatenate([X, np.concatenate([Y[:, :-1], np.zeros((50, 1))], axis=1)[:, :, None]], axis=2)
    wts = lam ** np.arange(n, -1, -1.0)
    M = np.einsum("t,bti,btj->bij", wts, Z, Z)
    direct = np.einsum("ij,bjk,kl,bl->bi", WV, M, WKQ, Z[:, -1])[:, d]
    err_sum = float(np.max(np.abs(rec - direct)))
    # only the last row of W_V and the first d columns of W_KQ matter
    WV2, WKQ2 = WV.copy(), WKQ.copy()
    WV2[:d] = rng.standard_normal((d, d + 1))
    WKQ2[:, d] = rng.standard_normal(d + 1)
    err_irrel = float(np.max(np.abs(gla._gla_forward(X, Y, lam, WKQ2, WV2) - rec)))
    # λ = 1 is linear attention W_V Z Zᵀ W_KQ z_q
    la = np.einsum("ij,bjk,kl,bl->bi", WV, np.einsum("bti,btj->bij", Z, Z), WKQ, Z[:, -1])[:, d]
    err_la = float(np.max(np.abs(gla._gla_forward(X, Y, 1.0, WKQ, WV) - la)))
    # query term: contributes (u·x_q)(x_qᵀ A x_q) when u ≠ 0, nothing when u = 0
    ok = err_sum < 1e-9 * max(1, np.abs(direct).max()) and err_irrel == 0 and err_la < 1e-9 * max(1, np.abs(la).max())
    return _c(id="000-gla-recursion", lines=(46, 46),
              paraphrase="Unrolling S_i = λS_{i-1} + v_i k_iᵀ gives o_{n+1} = W_V(Σ_{i=1}^{n+1} λ^{n+1-i} z_i z_iᵀ)W_KᵀW_Q z_{n+1}; "
                         "λ = 1 is exactly linear attention; the prediction depends only on the last row of W_V and the first d columns of W_KQ.",
              conventions=CONVENTIONS[1:3], check="symbolic identity",
              verdict="confirmed" if ok else "refuted",
              summary=(f"The batched recursion (keys $k_i=z_i$, query $W_{{KQ}}z_{{n+1}}$) equals the exponentially weighted "
                       f"sum to {err_sum:.1e} (max abs, 50 random prompts, random full $W_V,W_{{KQ}}$, d = {d}, n = {n}); "
                       f"changing the first d rows of $W_V$ and the last column of $W_{{KQ}}$ changes $\\hat y$ by exactly {err_irrel:.1e}; "
                       f"at λ = 1 it equals $W_VZZ^\\top W_{{KQ}}z_{{n+1}}$ to {err_la:.1e}. Reconstruction: the query token is in the sum; "
                       "its term $(u^\\top x_{n+1})(x_{n+1}^\\top Ax_{n+1})$ vanishes at $u=0$ (the optimum)."),
              evidence={"max_abs_recursion_vs_sum": err_sum, "max_abs_change_irrelevant_params": err_irrel,
                        "max_abs_lambda1_vs_linear_attention": err_la, "d": d, "n": n, "lam": lam, "prompts": 50})


# ====================================================================== Theorem 1: Λ̃, MC grid
def _mc_grid(ctx):
    if ctx.quick:
        grid = [
            dict(lam=0.7, gamma=0.8, n=20, L=np.eye(3), sw2=1.0, se2=0.1, noise=0.0),
            dict(lam=0.9, gamma=0.95, n=30, L=np.diag([2.0, 1.0, 0.5]), sw2=0.5, se2=0.05, noise=0.2),
            dict(lam=1.0, gamma=0.9, n=15, L=np.eye(2), sw2=1.0, se2=0.2, noise=0.1),
            dict(lam=0.5, gamma=1.0, n=10, L=np.array([[1.0, 0.5], [0.5, 1.0]]), sw2=1.0, se2=0.02, noise=0.0),
            dict(lam=0.3, gamma=0.6, n=25, L=np.eye(4), sw2=2.0, se2=0.3, noise=0.5),
            dict(lam=0.74, gamma=0.8, n=100, L=np.eye(10), sw2=1.0, se2=0.01, noise=0.0),
        ]
        ns = 4000
    else:
        rng = np.random.default_rng(ctx.seed_for("000-mc-grid-params"))
        grid = []
        for lam, gamma, n, d in [(0.7, 0.8, 20, 3), (0.9, 0.95, 30, 3), (1.0, 0.9, 15, 2), (0.5, 1.0, 10, 2),
                                 (0.3, 0.6, 25, 4), (0.74, 0.8, 100, 10), (0.93, 0.975, 100, 10),
                                 (1.0, 1.0, 50, 5), (0.99, 0.99, 200, 5), (0.8, 0.5, 40, 6),
                                 (0.6, 0.9, 5, 8), (0.95, 0.8, 60, 1)]:
            Q, _ = np.linalg.qr(rng.standard_normal((d, d)))
            L = Q @ np.diag(rng.uniform(0.3, 2.0, d)) @ Q.T
            grid.append(dict(lam=lam, gamma=gamma, n=n, L=(L + L.T) / 2, sw2=float(rng.uniform(0.2, 2)),
                             se2=float(rng.uniform(0.0, 0.3)), noise=float(rng.choice([0.0, 0.1, 1.0]))))
        ns = 40000
    return grid, ns


def claim_thm1(ctx) -> Claim:
    grid, ns = _mc_grid(ctx)
    rows, worst = [], 0.0
    for k, g in enumerate(grid):
        L = g["L"]
        exact = gla.train_error_general(g["lam"], g["gamma"], g["n"], L, g["sw2"], g["se2"], g["noise"])
        est = gla.simulate_gla(g["lam"], g["gamma"], g["n"], L, g["sw2"], g["se2"], g["noise"],
                               n_samples=ns, seed=ctx.seed_for(f"000-thm1-{k}"))
        cmp = mc.compare(exact, est)
        # Γ* ∝ Λ̃⁻¹: check the stationarity residual of the exact loss at Γ*
        opt = gla.optimal_parameters(g["lam"], g["gamma"], g["n"], L, g["sw2"], g["se2"], g["noise"])
        rng = np.random.default_rng(ctx.seed_for(f"000-thm1-pert-{k}"))
        P = rng.standard_normal(L.shape) * 1e-3 * np.linalg.norm(opt.Gamma)
        up = gla.population_loss(opt.Gamma + P, g["lam"], g["gamma"], g["n"], L, g["sw2"], g["se2"], g["noise"])
        worst = max(worst, abs(cmp.z))
        rows.append({"lam": g["lam"], "gamma": g["gamma"], "n": g["n"], "d": L.shape[0],
                     "Lambda_eigs": np.linalg.eigvalsh(L), "sigma_w2": g["sw2"], "sigma_e2": g["se2"],
                     "noise": g["noise"], "exact": exact, "mc_mean": est.mean, "mc_se": est.se, "N": est.n,
                     "z": cmp.z, "p": cmp.p_value, "verdict": cmp.verdict,
                     "loss_increase_at_perturbed_Gamma": up - opt.train_error})
    agree = all(r["verdict"] == "agree" for r in rows)
    pos = all(r["loss_increase_at_perturbed_Gamma"] > 0 for r in rows)
    # ZFB form of Λ̃
    L = np.diag([2.0, 1.0, 0.5])
    nn = 20
    zfb = (1 + 1 / nn) * L + np.trace(L) / nn * np.eye(3)
    lt = gla.effective_covariance(1.0, 1.0, nn, L, 1.0, 0.0)
    zfb_err = float(np.max(np.abs(lt - zfb)))
    ok = agree and pos and zfb_err < 1e-12
    return _c(id="000-thm1-effective-covariance", lines=(48, 48),
              paraphrase="The global optimum has W_KQ ∝ Λ̃⁻¹ with an effective covariance Λ̃ determined by λ, γ and the noise statistics; "
                         "at λ = γ = 1, σ_e = 0 it reduces to the stationary result of Zhang et al. (2024).",
              conventions=CONVENTIONS, check="exact vs Monte Carlo",
              verdict="confirmed" if ok else "refuted",
              summary=("Derived exactly for every Gaussian Λ and finite d (Isserlis blocks through the shared engine, checked with "
                       "symbolic Λ at d = 1, 2, 3; stationary point solved symbolically for d = 2, numerically (BFGS) in the tests for d = 3): $\\Gamma^*=\\frac{D_1}{A_2}\\tilde\\Lambda^{-1}$ with "
                       "$\\tilde\\Lambda=(1+B/A_2)\\Lambda+\\frac{B\\,\\mathrm{tr}\\Lambda+\\sigma^2N_0}{A_2}I$ — a matrix function of Λ for "
                       "every Λ, not only Λ = I or large d (because $w$ is isotropic and independent of $x$). "
                       f"Exact train error vs the actual GLA recursion at the embedded optimum: {len(rows)} settings, "
                       f"N = {ns} prompts each, max |z| = {worst:.2f} ({'all agree' if agree else 'DISAGREEMENT'}); "
                       f"a random 1e-3 perturbation of Γ* raises the exact loss in every setting ({pos}); "
                       f"at λ = γ = 1, σ_e = 0 Λ̃ equals Zhang–Frei–Bartlett's $(1+1/n)\\Lambda+\\mathrm{{tr}}\\Lambda/n\\,I$ to {zfb_err:.1e}."),
              evidence={"grid": rows, "zfb_Lambda_tilde_max_abs_diff": zfb_err, "samples_per_setting": ns},
              derivation=[gen.LATEX["offdiag"], gen.LATEX["diag"], gen.LATEX["cross"], gen.LATEX["H"],
                          gen.LATEX["loss"], gen.LATEX["Gamma_star"],
                          r"\tilde\Lambda=\Big(1+\frac{B}{A_2}\Big)\Lambda+\frac{B\operatorname{tr}\Lambda+\sigma^2N_0}{A_2}I,\quad \Gamma^*=\frac{D_1}{A_2}\tilde\Lambda^{-1}"])


def claim_full_vs_reduced(ctx) -> Claim:
    """MC: (u, b) ≠ 0 at fixed Γ adds E[(T1+T2)²] > 0 — the full-parameter optimum is the reduced one."""
    d, n, lam, gamma, sw2, se2 = 3, 15, 0.8, 0.9, 1.0, 0.1
    L = np.eye(d)
    opt = gla.optimal_parameters(lam, gamma, n, L, sw2, se2)
    # a fixed perturbation (independent of the run seed, recorded in the evidence), so that different
    # run seeds estimate the same quantity
    rng = np.random.default_rng(20261129)
    u = 0.3 * rng.standard_normal(d) * math.sqrt(np.linalg.norm(opt.Gamma))
    bvec = 0.3 * rng.standard_normal(d) * math.sqrt(np.linalg.norm(opt.Gamma))
    # keep Γ = vAᵀ + b uᵀ equal to Γ*: A = (Γ* − b uᵀ)ᵀ / v
    WV = opt.W_V.copy()
    WV[d, :d] = u
    WKQ = np.zeros((d + 1, d + 1))
    WKQ[:d, :d] = (opt.Gamma - np.outer(bvec, u)).T
    WKQ[d, :d] = bvec
    ns = 20000 if ctx.quick else 200000
    seed = ctx.seed_for("000-full-params")
    base = gla.simulate_gla(lam, gamma, n, L, sw2, se2, W_KQ=opt.W_KQ, W_V=opt.W_V, n_samples=ns, seed=seed)
    pert = gla.simulate_gla(lam, gamma, n, L, sw2, se2, W_KQ=WKQ, W_V=WV, n_samples=ns, seed=seed)
    c_base = mc.compare(opt.train_error, base)
    diff = pert.mean - base.mean
    # common random numbers: SE of the difference from the paired runs is not available from two
    # MeanEstimates; use the conservative independent-sample SE
    se = math.hypot(pert.se, base.se)
    z = diff / se
    ok = c_base.agrees and z > 5
    return c_base, _c(id="000-full-vs-reduced-optimum", lines=(46, 46),
                      paraphrase="The prediction depends only on the last row of W_V and the first d columns of W_KQ (the reduced parametrisation suffices).",
                      conventions=CONVENTIONS, check="exact vs Monte Carlo",
                      verdict="confirmed" if ok else "refuted",
                      summary=("Decomposition $\\hat y=x^\\top\\Gamma h+T_1+T_2$ with $\\Gamma=vA^\\top+bu^\\top$: $T_1+T_2$ is even in $w$ while "
                               "$y_{n+1}$ and $x^\\top\\Gamma h$ are odd, so MSE = reduced MSE + $E[(T_1+T_2)^2]$; the minimum over all of "
                               "$(W_V,W_{KQ})$ equals the minimum of the reduced predictor. Monte Carlo of the recursion (d = 3, n = 15, "
                               f"N = {ns}): optimum {base.mean:.5f} ± {base.se:.5f} vs exact {opt.train_error:.5f} (z = {c_base.z:.2f}); "
                               f"adding $u,b\\neq0$ with Γ held fixed raises it to {pert.mean:.5f} ± {pert.se:.5f} (z = {z:.1f} for the increase)."),
                      evidence={"exact_reduced_optimum": opt.train_error, "mc_optimum": base.as_dict(),
                                "mc_with_u_b": pert.as_dict(), "increase": diff, "z_increase": z, "u": u, "b": bvec,
                                "compare_optimum": c_base.as_dict(), "d": d, "n": n, "lam": lam, "gamma": gamma,
                                "sigma_w2": sw2, "sigma_e2": se2})


# ====================================================================== ZFB limit
def claim_zfb(ctx) -> Claim:
    import sympy as sp
    n_, d_ = sp.symbols("n d", positive=True, integer=True)
    lam_n = [(n, d) for n in (5, 20, 100) for d in (1, 3, 10)]
    diffs = []
    for n, d in lam_n:
        diffs.append(abs(gla.train_error(1.0, 1.0, n, d, 1.0, 0.0) - d * (d + 1) / (n + d + 1)))
    stat = gen.stationary_train_error(n_, d_, 1, 0, 0)
    sym_ok = sp.simplify(stat - d_ * (d_ + 1) / (n_ + d_ + 1)) == 0
    ok = sym_ok and max(diffs) < 1e-12
    return _c(id="000-zfb-limit", lines=(48, 48),
              paraphrase="At λ = γ = 1, σ_e² = 0 the result reduces exactly to the stationary setting (Zhang 2024): train MSE d(d+1)/(n+d+1) for Λ = I, σ_w = 1, no label noise.",
              conventions=CONVENTIONS, check="symbolic identity", verdict="confirmed" if ok else "refuted",
              summary=("SymPy: with $s_i=\\sigma_w^2+i\\sigma_e^2$ (γ = 1) and λ = 1 the exact train error is the rational function shown; "
                       f"at $\\sigma_w^2=1,\\sigma_e^2=\\sigma^2=0$ it simplifies to $d(d+1)/(n+d+1)$ exactly ({sym_ok}); numeric API agrees to "
                       f"{max(diffs):.1e} on 9 (n, d) pairs. This is the minimum over the FULL $(W_V,W_{{KQ}})$ parametrisation as well as the "
                       "reduced one (claim 000-full-vs-reduced-optimum). Zhang–Frei–Bartlett's convention $w\\sim N(0,I_d)$ is $\\sigma_w=1$; "
                       "their $1/N$ normalisation only rescales Γ."),
              evidence={"symbolic_match": sym_ok, "max_abs_numeric_diff": max(diffs), "pairs": lam_n,
                        "halved_loss_value": "d(d+1)/(2(n+d+1))",
                        "stationary_train_error_general": str(sp.factor(gen.stationary_train_error(n_, d_, sp.Symbol("sigma_w2"), sp.Symbol("sigma_e2"), sp.Symbol("sigma2"))))},
              derivation=[r"\lambda=\gamma=1:\ D_1=B=" + gen.LATEX["stationary_D1"] + r",\ A_2=" + gen.LATEX["stationary_A2"],
                          r"L^*=" + gen.LATEX["stationary_train_error"], r"\sigma_w=1,\sigma_e=\sigma=0:\ L^*=" + gen.LATEX["zfb"]])


# ====================================================================== Theorem 2: ξ
def claim_xi(ctx) -> Claim:
    # error = d (s_q − ξ) + σ² identity, numerically on a grid
    diffs = []
    for lam in (0.2, 0.6, 0.9, 1.0):
        for gamma in (0.5, 0.9, 1.0):
            for d in (1, 10):
                for noise in (0.0, 0.5):
                    s = gla.moment_sums(lam, gamma, 50, 1.0, 0.05)
                    e = gla.train_error(lam, gamma, 50, d, 1.0, 0.05, noise)
                    diffs.append(abs(e - (d * (s.s_q - gla.xi(lam, gamma, 50, d, 1.0, 0.05, noise)) + noise)))
    # large-d: d ξ → D1²/B
    lam, gamma, n = 0.7, 0.8, 100
    lim = gla.xi_large_d(lam, gamma, n, 1.0, 0.01)
    conv = [(d, d * gla.xi(lam, gamma, n, d, 1.0, 0.01)) for d in (10, 100, 1000, 10000, 100000)]
    ok = max(diffs) < 1e-10 and abs(conv[-1][1] / lim - 1) < 1e-3
    return _c(id="000-thm2-xi", lines=(50, 50),
              paraphrase="Theorem 2: the train error has an exact expression; for Λ = I and large d it reduces to ξ(λ) = D₁²/D₂.",
              conventions=CONVENTIONS, check="symbolic identity", verdict="confirmed" if ok else "refuted",
              summary=("Exact for every d (not only large d): train error $=d\\,(s_{n+1}-\\xi)+\\sigma^2$ with $\\xi=D_1^2/D_2$, "
                       "$D_1=\\sum_{k=1}^n(\\lambda\\gamma)^ks_{n+1-k}$, $D_2=A_2+(d+1)B+\\sigma^2N_0$ — the error is a constant MINUS "
                       "$d\\xi$, so minimising the error is maximising ξ. Closed forms (complete homogeneous symmetric polynomials of "
                       "$\\lambda^2,\\lambda\\gamma,\\gamma^2,1$) checked exactly against the finite sums for n = 1..6 and numerically "
                       f"(identity residual {max(diffs):.1e}). Large d: $d\\xi\\to D_1^2/B$ "
                       f"(λ = 0.7, γ = 0.8, n = 100: dξ = {conv[0][1]:.5f}, {conv[2][1]:.5f}, {conv[-1][1]:.6f} at d = 10, 10³, 10⁵ vs limit {lim:.6f})."),
              evidence={"identity_max_residual": max(diffs), "large_d_convergence": conv, "large_d_limit": lim},
              derivation=[r"L^*=" + gen.LATEX["train_error"], r"D_1=" + gen.LATEX["D1"], r"B=" + gen.LATEX["B"],
                          r"N_0=" + gen.LATEX["N0"], r"A_2=" + gen.LATEX["A2"],
                          r"\lim_{d\to\infty}d\,\xi=D_1^2/B"])


def _curve(gamma, n, d, sw2, se2, noise=0.0, m=200):
    lams = np.linspace(0.005, 1.0, m)
    err = np.array([gla.train_error(x, gamma, n, d, sw2, se2, noise) for x in lams])
    xs = np.array([gla.xi(x, gamma, n, d, sw2, se2, noise) for x in lams])
    return lams, err, xs


def _n_local_extrema(y):
    mins = int(np.sum((y[1:-1] < y[:-2]) & (y[1:-1] < y[2:])))
    maxs = int(np.sum((y[1:-1] > y[:-2]) & (y[1:-1] > y[2:])))
    return mins, maxs


def claim_shape(ctx):
    gammas = (0.5, 0.8, 0.9, 0.95, 0.975)
    fig, axes = new_figure(2, 1, width=4.6)
    axes = axes.ravel()
    rows = []
    for gamma in gammas:
        lams, err, xs = _curve(gamma, N_EXP, D_EXP, SW2_DEF, SE2_DEF)
        r = gla.optimal_lambda(gamma, N_EXP, D_EXP, SW2_DEF, SE2_DEF)
        mins, maxs = _n_local_extrema(err)
        rows.append({"gamma": gamma, "lam_star": r.lam, "err_at_0.005": err[0], "err_at_lam_star": r.error,
                     "err_at_1": r.error_linear_attention, "interior_local_minima_of_error": mins,
                     "interior_local_maxima_of_error": maxs, "xi_max": float(xs.max()),
                     "xi_at_1": float(xs[-1])})
        axes[0].plot(lams, err, label=f"γ={gamma}")
        axes[0].plot([r.lam], [r.error], "k.")
        axes[1].plot(lams, xs, label=f"γ={gamma}")
    axes[0].set(xlabel="λ", ylabel="train error (not halved)", title=f"error vs λ (d={D_EXP}, n={N_EXP}, σ_w²=1, σ_e²=0.01)")
    axes[1].set(xlabel="λ", ylabel="ξ(λ)=D₁²/D₂", title="ξ vs λ (error = d(s−ξ)+σ²)")
    axes[0].legend(fontsize=7)
    stem = ctx.save_figure(fig, "gla_error_vs_lambda")
    # broader scan of unimodality
    scan = []
    for gamma in (0.5, 0.9, 0.99):
        for d in (1, 10, 100):
            for n in (10, 100):
                for sw2, se2, noise in ((1.0, 0.01, 0.0), (1.0, 1 - gamma ** 2, 0.0), (1.0, 0.01, 1.0)):
                    _, err, _ = _curve(gamma, n, d, sw2, se2, noise, m=120)
                    scan.append(_n_local_extrema(err))
    unimodal = sum(1 for mi, ma in scan if mi <= 1 and ma == 0)
    ok_shape = all(r["interior_local_minima_of_error"] == 1 and r["interior_local_maxima_of_error"] == 0 for r in rows)
    claim = _c(id="000-inverted-u", lines=(50, 50),
               paraphrase="The training error is an inverted-U function of λ, so the optimal forgetting factor is λ* < 1 (also Fig. flow line 37, experiment line 57, highlight line 80).",
               conventions=CONVENTIONS, check="qualitative shape",
               verdict="inconsistent" if ok_shape else "refuted",
               summary=("What is inverted-U is ξ(λ); the train error $=d(s_{n+1}-\\xi)+\\sigma^2$ is U-shaped (a single interior minimum at "
                        f"λ*). At d = {D_EXP}, n = {N_EXP}, σ_w² = 1, σ_e² = 0.01: " +
                        "; ".join(f"γ = {r['gamma']}: error {r['err_at_0.005']:.4f} (λ→0) → {r['err_at_lam_star']:.4f} (λ* = {r['lam_star']:.3f}) → {r['err_at_1']:.4f} (λ = 1)"
                                  for r in rows) +
                        f". Over a wider scan (γ, d, n, σ's, noise; {len(scan)} curves) {unimodal} error curves have at most one interior "
                        "minimum and no interior maximum. The seed calls the ERROR inverted-U while saying its optimum is a minimum at λ* < 1 — "
                        "self-contradictory wording; correct statement: ξ is inverted-U, the error is U-shaped. Note the error stays finite "
                        "as λ → 0 (the last token alone: $\\xi\\to\\gamma^2s_n^2/((d+2)s_n+\\sigma^2)$)."),
               evidence={"curves": rows, "scan_curves": len(scan), "scan_unimodal": unimodal},
               figures=[stem])
    return claim, rows


def _lam_table(ctx):
    quick = ctx.quick
    gammas = (0.5, 0.7, 0.8, 0.9, 0.95, 0.975, 0.99, 1.0)
    ds = (1, 10, 100) if quick else (1, 3, 10, 30, 100, 1000)
    ns = (20, 100, 1000) if quick else (10, 20, 50, 100, 300, 1000)
    ratios = (0.01, 0.1, 0.3) if quick else (0.01, 0.03, 0.1, 0.3, 1.0)
    by_gamma = {d: [gla.optimal_lambda(g, N_EXP, d, SW2_DEF, SE2_DEF, grid_size=201).lam for g in gammas] for d in ds}
    by_n = {n: gla.optimal_lambda(0.9, n, D_EXP, SW2_DEF, SE2_DEF, grid_size=201).lam for n in ns}
    by_ratio = {}
    for r in ratios:  # σ_e/σ_w with σ_w = 1, at γ = 0.9 and γ = 1
        by_ratio[r] = [gla.optimal_lambda(g, N_EXP, D_EXP, 1.0, r * r, grid_size=201).lam for g in (0.9, 1.0)]
    return gammas, by_gamma, by_n, by_ratio


def _noise_free_scan(ctx):
    """λ* on a pre-declared grid of the seed's own model (no label noise), drift present, n ≥ 2."""
    rows = []
    for g in (0.5, 0.9, 0.99, 1.0):
        for n in (2, 10, 100):
            for d in (1, 10):
                for sw2, se2 in ((1.0, 1 - g * g), (1.0, 0.0), (1.0, 1e-4), (1.0, 0.01), (0.0, 0.01), (100.0, 0.01)):
                    if g == 1.0 and se2 == 0.0:      # no drift at all (stationary): outside the claim
                        continue
                    r = gla.optimal_lambda(g, n, d, sw2, se2, 0.0, grid_size=101)
                    rows.append({"gamma": g, "n": n, "d": d, "sigma_w2": sw2, "sigma_e2": se2, "lam_star": r.lam,
                                 "err_star": r.error, "err_lambda1": r.error_linear_attention,
                                 "at_boundary": bool(r.at_boundary or not r.error < r.error_linear_attention)})
    return rows


def claim_lambda_star(ctx, table, nf=None) -> list[Claim]:
    gammas, by_gamma, by_n, by_ratio = table
    fig, ax = new_figure()
    for d, lst in by_gamma.items():
        ax.plot(gammas, lst, "o-", label=f"d={d}")
    ax.plot(gammas, gammas, "k--", label="λ=γ (d→∞)")
    ax.set(xlabel="γ", ylabel="λ*", title=f"optimal λ (n={N_EXP}, σ_w²=1, σ_e²=0.01, σ²=0)")
    ax.legend(fontsize=7)
    stem = ctx.save_figure(fig, "gla_lambda_star_vs_gamma")
    out = []
    # λ* < 1. Verdict rule (stated in the claim): the seed's model (line 44) has NO label noise,
    # y_i = <w_i, x_i>, and leaves σ_w², σ_e² free; the claim is tested on a pre-declared grid of that
    # model (drift present: γ < 1 or σ_e > 0; n ≥ 2 because at n = 1 the error does not depend on λ).
    # confirmed iff every grid point has λ* < 1 with err(λ*) < err(1); refuted otherwise.
    # Label noise σ² > 0 is OUR extension: reported, not part of the verdict.
    nf = _noise_free_scan(ctx) if nf is None else nf
    nf_bound = [r for r in nf if r["at_boundary"]]
    min_gap = min(nf, key=lambda r: 1 - r["lam_star"])
    scan_stat, scan_bound = 0, []
    total = 0
    quick = ctx.quick
    for g in (0.5, 0.9, 0.99):
        for n in ((10, 100) if quick else (10, 100, 1000)):
            for d in ((1, 10) if quick else (1, 10, 100)):
                for sw2, se2 in ((1.0, 1 - g * g), (1.0, 1e-3), (1.0, 1e-4), (1.0, 0.01)):
                    for noise in (1.0, 100.0):
                        total += 1
                        r = gla.optimal_lambda(g, n, d, sw2, se2, noise, grid_size=101)
                        if r.at_boundary:
                            scan_bound.append({"gamma": g, "n": n, "d": d, "sigma_w2": sw2, "sigma_e2": se2,
                                               "noise": noise, "stationary": abs(sw2 - se2 / (1 - g * g)) < 1e-12})
    n_stat_bound = sum(1 for b in scan_bound if b["stationary"])
    exp_ok = all(x < 1 for d, lst in by_gamma.items() for g, x in zip(gammas, lst) if g < 1)
    verdict = "confirmed" if exp_ok and not nf_bound else "refuted"
    out.append(_c(id="000-lambda-star-below-1", lines=(70, 70),
                  paraphrase="The optimal forgetting factor λ* is markedly smaller than 1 (GLA with forgetting beats λ = 1).",
                  conventions=CONVENTIONS + [
                      "Scope and verdict rule (fixed before the scan): the seed's model has no label noise (line 44: "
                      "$y_i=\\langle w_i,x_i\\rangle$) and leaves $\\sigma_w^2,\\sigma_e^2$ free. Confirmed iff on the pre-declared "
                      "noise-free grid (drift present, n ≥ 2) and at the experiment's sizes every λ* < 1 with a strictly lower error "
                      "than λ = 1; refuted otherwise. 'Markedly' is not quantified by the seed: 1 − λ* is reported, not thresholded. "
                      "Label-noise settings (σ² > 0) extend the seed's model and are reported separately, outside the verdict."],
                  check="numeric value", verdict=verdict,
                  summary=(f"At the experiment's sizes (d = {D_EXP}, n = {N_EXP}, σ_w² = 1, σ_e² = 0.01) λ* = " +
                           ", ".join(f"{x:.3f} (γ = {g})" for g, x in zip(gammas, by_gamma[D_EXP])) +
                           f". Seed's model (σ² = 0), pre-declared grid of {len(nf)} settings (γ ∈ {{0.5, 0.9, 0.99, 1}}, n ∈ {{2, 10, 100}}, "
                           "d ∈ {1, 10}, σ_w² ∈ {0, 1, 100}, σ_e² ∈ {0, 10⁻⁴, 10⁻², 1−γ²}): λ* = 1 in "
                           f"{len(nf_bound)} of them" + (" (listed in the evidence)" if nf_bound else "") +
                           f"; the largest λ* is {min_gap['lam_star']:.6f} (γ = {min_gap['gamma']}, n = {min_gap['n']}, d = {min_gap['d']}, "
                           f"σ_w² = {min_gap['sigma_w2']}, σ_e² = {min_gap['sigma_e2']}), so λ* < 1 holds but is NOT 'markedly' below 1 when "
                           "the drift is weak (λ* → 1 continuously as the drift vanishes, consistent with the second half of line 70). "
                           f"Outside the seed's model (label noise σ² ∈ {{1, 100}}, our extension): λ* = 1 in {len(scan_bound)} of {total} "
                           f"settings ({n_stat_bound} of them with the stationary normalisation σ_w² = σ_e²/(1−γ²)); the boundary cases "
                           "combine label noise with weak drift or σ_w² far above the stationary variance, where the optimum is plain "
                           "linear attention — so the statement does not extend to noisy labels. Even at γ = 1 with σ_e > 0 "
                           "(random walk, no label noise) λ* < 1."),
                  evidence={"verdict_rule": "confirmed iff all noise-free grid points and the experiment-size points have "
                                            "lambda* < 1 with err(lambda*) < err(1)",
                            "lam_star_vs_gamma_by_d": {str(d): lst for d, lst in by_gamma.items()}, "gammas": gammas,
                            "noise_free_scan_total": len(nf), "noise_free_boundary_cases": nf_bound,
                            "noise_free_largest_lam_star": min_gap,
                            "label_noise_scan_total": total, "label_noise_boundary_cases": scan_bound[:20],
                            "label_noise_n_boundary": len(scan_bound)},
                  figures=[stem]))
    # λ* decreases as γ decreases
    mono = {d: bool(np.all(np.diff(lst) >= -1e-9)) for d, lst in by_gamma.items()}
    out.append(_c(id="000-lambda-star-monotone-in-gamma", lines=(70, 70),
                  paraphrase="λ* decreases as the drift intensifies (γ decreases), in agreement between theory and experiment.",
                  conventions=CONVENTIONS, check="qualitative shape",
                  verdict="confirmed" if all(mono.values()) else "refuted",
                  summary=("λ*(γ) is non-decreasing in γ for every d tried (" + ", ".join(f"d = {d}: {m}" for d, m in mono.items()) +
                           f"), n = {N_EXP}, σ_w² = 1, σ_e² = 0.01. Against n at γ = 0.9, d = {D_EXP}: " +
                           ", ".join(f"n = {n}: {x:.3f}" for n, x in by_n.items()) +
                           ". Against σ_e/σ_w (σ_w = 1, γ = 0.9 / 1.0): " +
                           "; ".join(f"{r}: {v[0]:.3f} / {v[1]:.3f}" for r, v in by_ratio.items()) + "."),
                  evidence={"monotone_by_d": mono, "lam_star_vs_n_gamma0.9": by_n,
                            "lam_star_vs_sigma_ratio_gamma_0.9_1.0": by_ratio},
                  figures=[stem]))
    return out


def claim_monotonicity(ctx) -> list[Claim]:
    # large-d limit: D1²/B maximised at γ, monotone on both sides, for any s
    worst_inc, worst_dec = [], []
    for gamma in (0.5, 0.8, 0.95):
        for sw2, se2 in ((1.0, 0.01), (1.0, 1 - gamma ** 2), (0.01, 1.0), (100.0, 0.01)):
            for n in (10, 100):
                lams = np.linspace(0.01, 1.0, 300)
                f = np.array([gla.xi_large_d(x, gamma, n, sw2, se2) for x in lams])
                left, right = lams < gamma, lams > gamma
                worst_inc.append(bool(np.all(np.diff(f[left]) > 0)))
                worst_dec.append(bool(np.all(np.diff(f[right]) < 0)))
    asym_ok = all(worst_inc) and all(worst_dec)
    # finite d: λ* vs γ at experiment sizes, two regimes
    regimes = {}
    for name, (sw2, se2, noise, n) in {"signal-dominated (σ_e/σ_w = 0.1)": (1.0, 0.01, 0.0, N_EXP),
                                        "long sequence, noise-dominated (σ² = 1, n = 1000)": (1.0, 0.01, 1.0, 1000)}.items():
        regimes[name] = {}
        for d in (D_EXP, 100, 1000):
            r = gla.optimal_lambda(0.8, n, d, sw2, se2, noise, grid_size=201)
            pert = gla.lambda_star_large_d_correction(0.8, n, d, sw2, se2, noise)
            regimes[name][f"d={d}"] = {"lam_star": r.lam, "first_order_prediction": pert["lam_pred"],
                                       "expansion_parameter_G_over_d_plus_1": pert["expansion_parameter"]}
    lam_exp = regimes["signal-dominated (σ_e/σ_w = 0.1)"][f"d={D_EXP}"]["lam_star"]
    c1 = _c(id="000-monotonicity-regimes", lines=(50, 50),
            paraphrase="In two regimes (signal-dominated σ_e ≪ σ_w; long sequences with noise dominating) ξ(λ) is increasing on (0, γ) and decreasing on (γ, 1).",
            conventions=CONVENTIONS, check="qualitative shape",
            verdict="confirmed" if asym_ok else "refuted",
            summary=("In the large-d limit ($d\\xi\\to D_1^2/B$) the statement holds in EVERY regime, not only the two named: with "
                     "$a_k=s_{n+1-k}>0$, $\\lambda(2D_1'B-D_1B')=\\sum_{k>j}2(k-j)a_ka_j\\lambda^{k+j}(\\lambda^j\\gamma^k-\\lambda^k\\gamma^j)$ "
                     "(SymPy identity), positive for λ < γ and negative for λ > γ (Cauchy–Schwarz; maximum exactly at λ = γ). "
                     f"Numerically strictly monotone on both sides in {sum(worst_inc)}/{len(worst_inc)} and {sum(worst_dec)}/{len(worst_dec)} "
                     "curves (γ, σ's including far-from-stationary σ_w, n). At finite d it FAILS: the maximiser moves below γ — at the "
                     f"experiment's own sizes (d = {D_EXP}, n = {N_EXP}, σ_e/σ_w = 0.1, γ = 0.8) λ* = {lam_exp:.4f}, so ξ decreases on "
                     f"({lam_exp:.3f}, 0.8). λ* per regime and d (first-order prediction $\\gamma+G'(\\gamma)/((d+1)F''(\\gamma))$): " +
                     "; ".join(f"{k}: " + ", ".join(f"{dd} → {v['lam_star']:.4f} (pred {v['first_order_prediction']:.4f}, "
                                                    f"G/(d+1) = {v['expansion_parameter_G_over_d_plus_1']:.2g})" for dd, v in vv.items())
                               for k, vv in regimes.items()) +
                     ". The first-order formula is accurate once G/(d+1) ≪ 1; label noise enters G through σ²N₀/B, which is large "
                     "when σ² ≫ s, so in the noise-dominated regime the shift is not first-order small at d = 10."),
            evidence={"large_d_increasing_left": worst_inc, "large_d_decreasing_right": worst_dec, "finite_d": regimes},
            derivation=[r"\lambda\,(2D_1'B-D_1B')=\sum_{k>j}2(k-j)a_ka_j\lambda^{k+j}(\lambda^j\gamma^k-\lambda^k\gamma^j),\quad a_k=s_{n+1-k}",
                        r"\lambda^*\approx\gamma+\frac{G'(\gamma)}{(d+1)F''(\gamma)},\ F=\log\frac{D_1^2}{B},\ G=\frac{A_2+\sigma^2N_0}{B}"])
    # λ = γ not necessarily optimal
    ex = []
    for gamma in (0.5, 0.8, 0.9, 0.95):
        r = gla.optimal_lambda(gamma, N_EXP, D_EXP, SW2_DEF, SE2_DEF, grid_size=201)
        eg = gla.train_error(gamma, gamma, N_EXP, D_EXP, SW2_DEF, SE2_DEF)
        rn = gla.optimal_lambda(gamma, N_EXP, D_EXP, SW2_DEF, SE2_DEF, noise=1.0, grid_size=201)
        ex.append({"gamma": gamma, "lam_star": r.lam, "err_star": r.error, "err_at_gamma": eg,
                   "lam_star_noise1": rn.lam})
    ok2 = all(abs(e["lam_star"] - e["gamma"]) > 1e-3 for e in ex)
    c2 = _c(id="000-lambda-equals-gamma-not-optimal", lines=(50, 50),
            paraphrase="Despite the λ/γ symmetry of the formulas, λ = γ is not necessarily optimal (balance between noise and the trace term of Λ̃⁻¹).",
            conventions=CONVENTIONS, check="numeric value", verdict="confirmed" if ok2 else "refuted",
            summary=("λ = γ is optimal only in the d → ∞ limit. At d = 10, n = 100 (σ_w² = 1, σ_e² = 0.01): " +
                     "; ".join(f"γ = {e['gamma']}: λ* = {e['lam_star']:.4f}, error {e['err_star']:.5f} vs {e['err_at_gamma']:.5f} at λ = γ" for e in ex) +
                     ". The finite-d term $A_2/((d+1)B)$ (the coherent part of $E[hh^\\top]$) pushes λ* below γ; label noise pushes it up "
                     "(σ² = 1: " + ", ".join(f"{e['lam_star_noise1']:.3f}" for e in ex) + ")."),
            evidence={"cases": ex})
    return [c1, c2]


def claim_gamma_to_1(ctx) -> Claim:
    rows = []
    for g in (0.9, 0.99, 0.999, 1.0):
        stat = gla.optimal_lambda(g, N_EXP, D_EXP, 1.0, 1 - g * g, grid_size=201)
        fixed = gla.optimal_lambda(g, N_EXP, D_EXP, 1.0, 0.01, grid_size=201)
        rows.append({"gamma": g, "stationary_norm_lam_star": stat.lam, "stationary_norm_err": stat.error,
                     "fixed_sigma_e_lam_star": fixed.lam, "fixed_err": fixed.error,
                     "fixed_err_lambda1": fixed.error_linear_attention})
    zfb = D_EXP * (D_EXP + 1) / (N_EXP + D_EXP + 1)
    ok = abs(rows[-1]["stationary_norm_err"] - zfb) < 1e-9 and rows[-1]["stationary_norm_lam_star"] > 1 - 1e-6
    return _c(id="000-gamma-to-1-stationary", lines=(44, 44),
              paraphrase="γ → 1 degenerates to the classical stationary setting; smaller γ means more violent drift.",
              conventions=CONVENTIONS, check="numeric value", verdict="confirmed" if ok else "refuted",
              summary=("True when σ_e² → 0 together with γ → 1, e.g. under the stationary normalisation σ_e² = (1−γ²)σ_w²: "
                       "λ* = " + ", ".join(f"{r['stationary_norm_lam_star']:.4f}" for r in rows) + f" at γ = 0.9, 0.99, 0.999, 1 "
                       f"(d = {D_EXP}, n = {N_EXP}, σ_w² = 1), and at γ = 1 the error is d(d+1)/(n+d+1) = {zfb:.6f} "
                       f"(got {rows[-1]['stationary_norm_err']:.6f}). NOT true at fixed σ_e > 0: γ = 1 is then a random walk and "
                       f"forgetting still helps (σ_e² = 0.01: λ* = {rows[-1]['fixed_sigma_e_lam_star']:.4f}, error "
                       f"{rows[-1]['fixed_err']:.4f} vs {rows[-1]['fixed_err_lambda1']:.4f} at λ = 1). The seed's own line 48 states the "
                       "correct condition (λ = γ = 1 and σ_e² = 0)."),
              evidence={"rows": rows, "zfb_value": zfb})


# ====================================================================== Theorem 3 / test error
def claim_test(ctx) -> list[Claim]:
    ns = 4000 if ctx.quick else 40000
    shifts = [
        ("n 20 → 40", dict(lam=0.7, gamma=0.8, n=20, L=np.eye(3), sw2=1.0, se2=0.1, noise=0.0), dict(test_n=40)),
        ("γ 0.8 → 0.95, Λ shift", dict(lam=0.7, gamma=0.8, n=20, L=np.eye(3), sw2=1.0, se2=0.1, noise=0.0),
         dict(test_gamma=0.95, test_Lambda=np.diag([2.0, 1.0, 0.5]))),
        ("σ shift + noise", dict(lam=0.9, gamma=0.9, n=30, L=np.eye(2), sw2=1.0, se2=0.05, noise=0.0),
         dict(test_sigma_w2=0.3, test_sigma_e2=0.2, test_noise=0.5)),
    ]
    rows = []
    for k, (name, tr, te) in enumerate(shifts):
        opt = gla.optimal_parameters(tr["lam"], tr["gamma"], tr["n"], tr["L"], tr["sw2"], tr["se2"], tr["noise"])
        exact = gla.test_error(tr["lam"], tr["gamma"], tr["n"], tr["L"], tr["sw2"], tr["se2"], tr["noise"], **te)
        tg = te.get("test_gamma", tr["gamma"])
        tn = te.get("test_n", tr["n"])
        tL = te.get("test_Lambda", tr["L"])
        est = gla.simulate_gla(tr["lam"], tg, tn, tL, te.get("test_sigma_w2", tr["sw2"]), te.get("test_sigma_e2", tr["se2"]),
                               te.get("test_noise", tr["noise"]), W_KQ=opt.W_KQ, W_V=opt.W_V, n_samples=ns,
                               seed=ctx.seed_for(f"000-thm3-{k}"))
        cmp = mc.compare(exact, est)
        floor = gla.irreducible_floor(tL, te.get("test_sigma_e2", tr["se2"]), te.get("test_noise", tr["noise"]))
        rows.append({"shift": name, "exact": exact, "mc": est.mean, "se": est.se, "N": est.n, "z": cmp.z,
                     "verdict": cmp.verdict, "floor": floor, "above_floor": exact > floor})
    ok = all(r["verdict"] == "agree" for r in rows)
    c1 = _c(id="000-thm3-test-error", lines=(50, 50),
            paraphrase="Theorem 3 characterises the test error when train and test distributions differ (sequence length, dynamics, distribution).",
            conventions=CONVENTIONS, check="exact vs Monte Carlo", verdict="confirmed" if ok else "refuted",
            summary=("Exact test error = $L_{test}(\\Gamma^*_{train})$ (train-optimal Γ plugged into the test loss with the test "
                     "$D_1,A_2,B,N_0,s_{m+1}$, Λ', σ's). Against the GLA recursion with the train-optimal matrices: " +
                     "; ".join(f"{r['shift']}: exact {r['exact']:.4f}, MC {r['mc']:.4f} ± {r['se']:.4f} (z = {r['z']:.2f})" for r in rows) + "."),
            evidence={"rows": rows, "samples": ns})
    # irreducible floor
    gammas = (0.8, 0.9, 0.975)
    fl = []
    rng_seed = ctx.seed_for("000-test-floor")
    runs = 2000 if ctx.quick else 20000
    for k, g in enumerate(gammas):
        r = gla.optimal_lambda(g, N_EXP, D_EXP, SW2_DEF, SE2_DEF, grid_size=201)
        rng = mc.rngs(rng_seed, len(gammas))[k]
        X, Y = af.ar1_stream(rng, runs, N_EXP + 1, D_EXP, g, SW2_DEF, SE2_DEF)
        kal = mc.from_samples(af.kalman_errors(X, Y, g, SW2_DEF, SE2_DEF)[-1])
        cmp_k = mc.compare(r.error, kal)      # z > 0: Kalman MC above GLA's exact error
        fl.append({"gamma": g, "floor_sigma_e2_trLambda": SE2_DEF * D_EXP, "kalman_bayes_error": kal.mean, "kalman_se": kal.se,
                   "gla_error_at_lam_star": r.error, "N": kal.n, "z_kalman_minus_gla": cmp_k.z,
                   "p_one_sided_kalman_above_gla": float(stats.norm.sf(cmp_k.z)),
                   "z_kalman_minus_floor": (kal.mean - SE2_DEF * D_EXP) / kal.se})
    # rule (one-sided z-tests at alpha = 1e-3, z = 3.09): refuted if the Bayes (Kalman) error is
    # significantly ABOVE GLA's exact error (impossible for a Bayes predictor) or not significantly above the floor
    ok2 = all(f["z_kalman_minus_gla"] < 3.09 and f["z_kalman_minus_floor"] > 3.09 for f in fl)
    c2 = _c(id="000-test-error-floor", lines=(74, 74),
            paraphrase="Because of the task-evolution noise the test error E[(ỹ_{m+1} − y_{m+1})²] is bounded away from zero (irreducible floor).",
            conventions=CONVENTIONS, check="numeric value", verdict="confirmed" if ok2 else "refuted",
            summary=("Any predictor has error ≥ $\\sigma_e^2\\operatorname{tr}\\Lambda+\\sigma^2$ (the innovation $e_{m+1}$ is independent of "
                     "everything observed); the Bayes error (Kalman filter with the true parameters, Monte Carlo) is higher still. "
                     f"d = {D_EXP}, n = {N_EXP}, σ_w² = 1, σ_e² = 0.01: " +
                     "; ".join(f"γ = {f['gamma']}: floor {f['floor_sigma_e2_trLambda']:.3f} < Kalman {f['kalman_bayes_error']:.4f} ± {f['kalman_se']:.4f} vs GLA(λ*) {f['gla_error_at_lam_star']:.4f} (z = {f['z_kalman_minus_gla']:+.2f})" for f in fl) +
                     " (rule: one-sided z-tests at α = 10⁻³: Kalman must not be significantly above GLA, and must be significantly above the floor)" +
                     f" ({runs} runs)."),
            evidence={"rows": fl, "runs": runs})
    return [c1, c2], rows


def claim_gla_vs_la(ctx, nf=None) -> Claim:
    """Line 13: train AND test errors strictly below linear attention.

    Verdict rule (fixed before the computation): in the seed's model (σ² = 0), confirmed iff
    (a) the train error at λ* is strictly below the one at λ = 1 on every point of the noise-free
    grid of 000-lambda-star-below-1, and (b) the Theorem-3 test error of the train-optimal GLA is
    strictly below that of the train-optimal linear attention for every pre-declared drifting test
    distribution (train γ ∈ {0.8, 0.95}; test γ ∈ {0.5, 0.8, 0.95, 0.99}, test n ∈ {20, 100, 400},
    test σ_e² ∈ {0.001, 0.01, 0.05}; d = 10, σ_w² = 1). Refuted otherwise, with the scope where it holds.
    """
    nf = _noise_free_scan(ctx) if nf is None else nf
    rows = []
    for g in (0.5, 0.8, 0.9, 0.95, 0.975, 0.99):
        r = gla.optimal_lambda(g, N_EXP, D_EXP, SW2_DEF, SE2_DEF, grid_size=201)
        rows.append({"gamma": g, "lam_star": r.lam, "gla": r.error, "la": r.error_linear_attention,
                     "rel_gain": 1 - r.error / r.error_linear_attention})
    train_fail = [r for r in nf if not r["err_star"] < r["err_lambda1"]]
    train_ok = all(x["gla"] < x["la"] for x in rows) and not train_fail
    L = np.eye(D_EXP)
    shift, no_shift = [], []
    for g_tr in (0.8, 0.95):
        r = gla.optimal_lambda(g_tr, N_EXP, D_EXP, SW2_DEF, SE2_DEF, grid_size=201)
        for tg in (0.5, 0.8, 0.95, 0.99):
            for tn in (20, 100, 400):
                for tse in (0.001, 0.01, 0.05):
                    te = dict(test_gamma=tg, test_n=tn, test_sigma_e2=tse)
                    e_gla = gla.test_error(r.lam, g_tr, N_EXP, L, SW2_DEF, SE2_DEF, **te)
                    e_la = gla.test_error(1.0, g_tr, N_EXP, L, SW2_DEF, SE2_DEF, **te)
                    row = {"train_gamma": g_tr, "lam_star": r.lam, "test_gamma": tg, "test_n": tn, "test_sigma_e2": tse,
                           "gla_test": e_gla, "la_test": e_la, "gla_better": bool(e_gla < e_la)}
                    shift.append(row)
                    if tg == g_tr and tse == SE2_DEF:
                        no_shift.append(row)
    losses = [s_ for s_ in shift if not s_["gla_better"]]
    no_shift_ok = all(s_["gla_better"] for s_ in no_shift)
    # out of scope (no drift in the test distribution): reported only
    stat = []
    for g_tr in (0.8, 0.95):
        r = gla.optimal_lambda(g_tr, N_EXP, D_EXP, SW2_DEF, SE2_DEF, grid_size=201)
        te = dict(test_gamma=1.0, test_sigma_e2=0.0, test_n=400)
        stat.append({"train_gamma": g_tr, "gla_test": gla.test_error(r.lam, g_tr, N_EXP, L, SW2_DEF, SE2_DEF, **te),
                     "la_test": gla.test_error(1.0, g_tr, N_EXP, L, SW2_DEF, SE2_DEF, **te)})
    verdict = "confirmed" if train_ok and not losses else "refuted"
    worst = max(shift, key=lambda s_: s_["gla_test"] / s_["la_test"])
    return _c(id="000-gla-beats-linear-attention", lines=(13, 13),
              paraphrase="Under AR(1) drift, GLA's train and test errors are strictly below those of standard linear attention, with optimal λ < 1.",
              conventions=CONVENTIONS + [
                  "Verdict rule (fixed before the computation): confirmed iff GLA(λ*) < LA for the train error on every point "
                  "of the noise-free grid of 000-lambda-star-below-1 AND for the Theorem-3 test error (each model at its own "
                  "train-optimal Γ, same λ at test) on every pre-declared drifting test distribution: train γ ∈ {0.8, 0.95}, "
                  "test γ ∈ {0.5, 0.8, 0.95, 0.99}, test n ∈ {20, 100, 400}, test σ_e² ∈ {0.001, 0.01, 0.05} (d = 10, n = 100, "
                  "σ_w² = 1, σ_e² = 0.01 in training, σ² = 0); refuted otherwise."],
              check="numeric value", verdict=verdict,
              summary=(f"Train error (d = {D_EXP}, n = {N_EXP}, σ_w² = 1, σ_e² = 0.01): " +
                       "; ".join(f"γ = {x['gamma']}: {x['gla']:.4f} at λ* = {x['lam_star']:.3f} vs {x['la']:.4f} at λ = 1" for x in rows) +
                       f". On the noise-free grid ({len(nf)} settings) the train error at λ* is strictly below λ = 1 in "
                       f"{len(nf) - len(train_fail)}; with label noise (not in the seed's model) λ* = 1 can occur (000-lambda-star-below-1). "
                       f"Test error (Theorem-3 setting, {len(shift)} drifting test distributions): GLA is lower in "
                       f"{len(shift) - len(losses)} and NOT lower in {len(losses)}" +
                       (f"; worst case: trained at γ = {worst['train_gamma']}, tested at γ = {worst['test_gamma']}, n = {worst['test_n']}, "
                        f"σ_e² = {worst['test_sigma_e2']}: GLA {worst['gla_test']:.4f} vs LA {worst['la_test']:.4f} "
                        "(a shorter memory tuned to the training drift is miscalibrated for a different drift)" if losses else "") +
                       f". Without a shift of the dynamics (test γ and σ_e² = training ones, any test n) GLA is lower in all "
                       f"{len(no_shift)} cases ({no_shift_ok}). "
                       + ("So the claim holds for the train error and for test error without a shift of the dynamics, but "
                          "'strictly lower test error' fails under the shifts Theorem 3 covers." if verdict == "refuted" else
                          "GLA is lower in every case of the pre-declared grid.") +
                       " Out of scope (stationary test, γ = 1, σ_e = 0, n = 400): " +
                       "; ".join(f"trained γ = {x['train_gamma']}: GLA {x['gla_test']:.4f} vs LA {x['la_test']:.4f}" for x in stat) + "."),
              evidence={"verdict_rule": "train: all noise-free grid points err(lam*) < err(1); test: GLA < LA on every "
                                        "pre-declared drifting shift",
                        "train": rows, "noise_free_train_failures": train_fail, "test_shift_grid_size": len(shift),
                        "test_shift_gla_not_better": losses, "test_no_dynamics_shift": no_shift,
                        "stationary_test_out_of_scope": stat})


# ====================================================================== gradient flow
def claim_flow(ctx) -> list[Claim]:
    cases = [("structured", np.eye(3)), ("random", np.eye(3)), ("random", np.diag([2.0, 1.0, 0.5]))]
    if ctx.full:
        cases += [("structured", np.eye(D_EXP)), ("random", np.eye(D_EXP))]
    res = []
    fig, ax = new_figure()
    for k, (init, L) in enumerate(cases):
        d = L.shape[0]
        n = 20 if d <= 3 else N_EXP
        fr = gla.gradient_flow(0.74 if d > 3 else 0.7, 0.8, n, L, SW2_DEF if d > 3 else 1.0, SE2_DEF if d > 3 else 0.1,
                               init=init, seed=ctx.seed_for(f"000-flow-{k}"))
        ax.semilogy(fr.times / fr.times[-1], np.maximum(fr.dist_gamma / fr.extra["Gamma_star_norm"], 1e-16),
                    label=f"{init}, d={d}, Λ eig∈[{np.linalg.eigvalsh(L).min():.1f}, {np.linalg.eigvalsh(L).max():.1f}]")
        res.append({"init": init, "d": d, "n": n, "Lambda_eigs": np.linalg.eigvalsh(L), "rate_fit": fr.rate_fit,
                    "rate_linearised_min": fr.rate_linearised, "rate_linearised_nearest": fr.extra["nearest_linearised_rate"],
                    "final_rel_dist": fr.extra["final_rel_dist"], "final_loss_gap": float(fr.loss[-1] - fr.loss_star),
                    "t_max": fr.extra["t_max"], "fit_window": fr.fit_window, "conserved_drift": fr.conserved_drift,
                    "rel_dist_at_quarter_times": [float(fr.dist_gamma[int(q * (len(fr.times) - 1))] / fr.extra["Gamma_star_norm"])
                                                  for q in (0.25, 0.5, 0.75, 1.0)]})
    ax.set(xlabel="t / t_max", ylabel="‖Γ(t) − Γ*‖ / ‖Γ*‖", title="gradient flow to the closed-form optimum")
    ax.legend(fontsize=7)
    stem = ctx.save_figure(fig, "gla_gradient_flow")
    conv = all(r["final_rel_dist"] < 1e-6 for r in res)
    lin = all(abs(r["rate_fit"] / r["rate_linearised_nearest"] - 1) < 0.05 for r in res)
    txt = "; ".join(f"{r['init']} (d = {r['d']}): final ‖Γ−Γ*‖/‖Γ*‖ = {r['final_rel_dist']:.1e}, fitted rate {r['rate_fit']:.4g} vs "
                    f"linearised {r['rate_linearised_nearest']:.4g} (slowest {r['rate_linearised_min']:.4g})" for r in res)
    common = ("Flow of the exact population loss over (v, A), Γ = vAᵀ (scipy LSODA, rtol 1e-10). Structured init (our Assumption-1 "
              "reading, as in Zhang–Frei–Bartlett): v(0) = σ, A(0) = σΘΘᵀ, ΘΘᵀ = I/√d, u(0) = b(0) = 0, σ = 10⁻² (relative to ‖Γ*‖^{1/2}); "
              "random init: v, A i.i.d. Gaussian of the same scale. For the structured init this IS the flow of the full (W_V, W_KQ): "
              "the loss does not depend on the other rows of W_V / last column of W_KQ (zero gradient), and u = b = 0 is invariant "
              "because T₁+T₂ is linear in (u, b) so E[(T₁+T₂)²] is a quadratic form in (u, b) (zero with zero gradient at u = b = 0), and for L_red(vAᵀ + buᵀ): ∂/∂u = (∇_Γ L_red)ᵀb = 0, ∂/∂b = (∇_Γ L_red)u = 0 there. ")
    c1 = _c(id="000-thm1-gradient-flow", lines=(48, 48),
            paraphrase="Under the Assumption-1 initialisation (structured, small σ), gradient flow on the population loss converges to the global minimum, whose W_KQ ∝ Λ̃⁻¹.",
            conventions=CONVENTIONS, check="numeric value", verdict="confirmed" if conv else "refuted",
            summary=common + txt + ". Convergence is exponential in t ('linear convergence'): the tail slope of log‖Γ−Γ*‖ matches an "
                    "eigenvalue of the linearised flow at the limit (the structured init on Λ = I stays in the isotropic subspace and so "
                    "decays at the isotropic mode's rate, not the slowest one).",
            evidence={"runs": res}, figures=[stem])
    c2 = _c(id="000-random-init", lines=(75, 75),
            paraphrase="Random Gaussian initialisation also reproduces the theory: the restriction on the initialisation is not needed in practice.",
            conventions=CONVENTIONS, check="numeric value",
            verdict="confirmed" if all(r["final_rel_dist"] < 1e-6 for r in res if r["init"] == "random") else "refuted",
            summary=("For the reduced (v, A) parametrisation: " + "; ".join(
                f"random init, Λ eigenvalues {np.round(r['Lambda_eigs'], 2).tolist()}, d = {r['d']}: final relative distance {r['final_rel_dist']:.1e}"
                for r in res if r["init"] == "random") + ". This is the reduced parametrisation only; a random init of the FULL (W_V, W_KQ) has u, b ≠ 0 and "
                "can stop in spurious local minima — see 000-random-init-full and 000-benign-landscape."),
            evidence={"runs": [r for r in res if r["init"] == "random"]}, figures=[stem])
    c3 = _c(id="000-linear-convergence-single-layer", lines=(66, 66),
            paraphrase="Convergence: single-layer (optimal λ) and multi-layer (λ = 0.85) GLA both converge linearly.",
            conventions=CONVENTIONS, check="numeric value",
            verdict="confirmed" if conv and lin else "refuted",
            summary=("Single layer: " + txt + f". Fitted rates agree with the linearisation within 5% ({lin}). The multi-layer part is not "
                     "checkable here (no multi-layer model or training protocol given) — see 000-depth-ablation."),
            evidence={"runs": res}, figures=[stem])
    return [c1, c2, c3]


def claim_full_landscape(ctx) -> list[Claim]:
    """Full (u, v, A, b) parametrisation, Λ = I: exact loss (checked by MC), flows from random inits."""
    lam, gamma, n, sw2, se2, noise = 0.8, 0.9, 10, 1.0, 0.1, 0.1
    # 1) the exact full loss against the GLA recursion at random parameters
    rng = np.random.default_rng(ctx.seed_for("000-full-loss-params"))
    ns = 10000 if ctx.quick else 200000
    checks = []
    for k in range(3):
        d = 2 + k % 2
        u, b = 0.5 * rng.standard_normal(d), 0.5 * rng.standard_normal(d)
        v, A = float(rng.standard_normal()), 0.3 * rng.standard_normal((d, d))
        ex = gla.full_parameter_loss(u, v, A, b, lam, gamma, n, d, sw2, se2, noise)
        WV = rng.standard_normal((d + 1, d + 1))
        WV[d, :d], WV[d, d] = u, v
        WKQ = rng.standard_normal((d + 1, d + 1))
        WKQ[:d, :d], WKQ[d, :d] = A, b
        est = gla.simulate_gla(lam, gamma, n, np.eye(d), sw2, se2, noise, W_KQ=WKQ, W_V=WV, n_samples=ns,
                               seed=ctx.seed_for(f"000-full-loss-mc-{k}"))
        cmp = mc.compare(ex, est)
        checks.append({"d": d, "exact": ex, "mc": est.mean, "se": est.se, "z": cmp.z, "verdict": cmp.verdict})
    # 2) flows
    if ctx.quick:
        plan = [(2, 0.3, range(1, 4)), (2, 0.01, range(1, 2))]
    else:
        plan = [(2, 0.01, range(1, 9)), (2, 0.3, range(1, 9)), (2, 1.0, range(1, 9)),
                (3, 0.01, range(1, 9)), (3, 0.3, range(1, 9)), (3, 1.0, range(1, 9))]
    runs, spurious = [], None
    for d, sig, seeds in plan:
        for sd in seeds:
            sm_ = gla.moment_sums(lam, gamma, n, sw2, se2)
            gn_ = float(np.linalg.norm(gla.optimal_parameters(lam, gamma, n, np.eye(d), sw2, se2, noise).Gamma))
            t_max = 4000.0 / ((sm_.A2 + (d + 1) * sm_.B + noise * sm_.N0) * gn_)   # 10× the default horizon
            fr = gla.full_gradient_flow(lam, gamma, n, d, sw2, se2, noise, sigma=sig, t_max=t_max,
                                        seed=ctx.seed_for(f"000-full-flow-{d}-{sig}-{sd}"), n_points=120)
            gap = float(fr["loss_gap"][-1])
            rel_grad = fr["grad_norm_final"] / fr["grad_norm_initial"]
            status = ("global" if gap <= 1e-6 * fr["loss_star"] else
                      "spurious critical point" if rel_grad < 1e-6 else "not converged by t_max")
            row = {"d": d, "sigma": sig, "seed_index": sd, "status": status, "rel_grad_final": rel_grad,
                   "final_gap": gap, "rel_gap": gap / fr["loss_star"],
                   "final_rel_dist_Gamma": float(fr["rel_dist_gamma"][-1]), "grad_norm": fr["grad_norm_final"],
                   "hess_min_eig": float(fr["hessian_eigs_final"][0]), "hess_max_eig": float(fr["hessian_eigs_final"][-1]),
                   "n_zero_hess_eigs": int(np.sum(np.abs(fr["hessian_eigs_final"]) < 1e-6 * fr["hessian_eigs_final"][-1])),
                   "v_final": fr["v_final"], "A_norm_final": fr["A_norm_final"],
                   "u_norm_final": float(fr["u_norm"][-1]), "b_norm_final": float(fr["b_norm"][-1])}
            runs.append(row)
            if spurious is None and status == "spurious critical point":
                spurious = (d, fr)
    # 3) local-minimum test at the first spurious end point: random directions at two radii
    probe = None
    if spurious is not None:
        d, fr = spurious
        th = fr["theta_final"]
        m = th.size
        k = gla._full_consts(lam, gamma, n, d, sw2, se2, noise)

        def L(t):
            return float(gla._full_loss(t[:d], t[d], t[d + 1:d + 1 + d * d].reshape(d, d), t[d + 1 + d * d:], k))

        prng = np.random.default_rng(ctx.seed_for("000-full-probe"))
        l0 = L(th)
        inc = {}
        for rad in (1e-3, 1e-2, 1e-1):
            dirs = prng.standard_normal((200, m))
            dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
            vals = np.array([L(th + rad * np.linalg.norm(th) * e) - l0 for e in dirs])
            inc[str(rad)] = {"min_increase": float(vals.min()), "fraction_nonnegative": float(np.mean(vals >= -1e-12 * abs(l0)))}
        probe = {"d": d, "loss": l0, "loss_star": fr["loss_star"], "radii_relative": inc}
    conv = {}
    for r in runs:
        key = f"d={r['d']}, σ={r['sigma']}"
        c = conv.setdefault(key, {"global": 0, "spurious critical point": 0, "not converged by t_max": 0, "runs": 0})
        c[r["status"]] += 1
        c["runs"] += 1
    sp_runs = [r for r in runs if r["status"] == "spurious critical point"]
    n_sp = len(sp_runs)
    n_nc = sum(1 for r in runs if r["status"] == "not converged by t_max")
    mc_ok = all(c["verdict"] == "agree" for c in checks)
    local_min = probe is not None and all(v["fraction_nonnegative"] == 1.0 for v in probe["radii_relative"].values())
    rel = sorted({round(r["rel_gap"], 3) for r in sp_runs})
    falls = True
    for dd in sorted({r["d"] for r in runs}):
        fr_ = [conv[k]["global"] / conv[k]["runs"] for k in
               sorted((k for k in conv if k.startswith(f"d={dd},")), key=lambda k: float(k.split("σ=")[1]))]
        falls &= all(a >= b for a, b in zip(fr_[:-1], fr_[1:])) and fr_[0] > fr_[-1]
    txt_conv = "; ".join(f"{k}: {v['global']}/{v['runs']} global, {v['spurious critical point']} spurious, "
                         f"{v['not converged by t_max']} unfinished" for k, v in conv.items())
    common = ("Exact loss of the FULL predictor (W_V last row (u, v), W_KQ first d columns [A; bᵀ], query token included), Λ = I: "
              "$L=L_{red}(vA^\\top+bu^\\top)+E[(T_1+T_2)^2]$ with the 4th/6th/10th-moment terms in closed form (docstring of "
              "gla.full_parameter_loss); against the GLA recursion at random parameters: " +
              ", ".join(f"z = {c['z']:.2f}" for c in checks) + f" (N = {ns}). Gradient flow of it (complex-step gradients, LSODA) from "
              "i.i.d. Gaussian inits of relative scale σ (λ = 0.8, γ = 0.9, n = 10, σ_w² = 1, σ_e² = 0.1, σ² = 0.1): " + txt_conv + ". ")
    if probe is not None:
        common += (f"'Spurious' runs stop (gradient reduced by ≥ 10⁶ from the start, horizon 10× the default) at relative excess error "
                   f"{rel} with Hessian eigenvalues ≥ {min(r['hess_min_eig'] for r in sp_runs):.1e} relative to a largest of "
                   f"~{max(r['hess_max_eig'] for r in sp_runs):.2g} (zero modes consistent with the (u, b) rescaling and rotation "
                   "symmetries of Λ = I); 600 random probes at relative radii 1e-3, 1e-2, 1e-1 around the first one never decrease the "
                   f"loss ({local_min}): spurious local minima. "
                   + (f"In d = 2 they sit at v = A = 0 (max |v| = {max(abs(r['v_final']) for r in sp_runs if r['d'] == 2):.1e}, max ‖A‖ = "
                      f"{max(r['A_norm_final'] for r in sp_runs if r['d'] == 2):.1e}), Γ = buᵀ of rank 1 (the rank-1 channel through u, b "
                      "carries the prediction; growing v, A first raises E[(T₁+T₂)²]). " if any(r["d"] == 2 for r in sp_runs) else "")
                   + (f"{n_nc} run(s) were still moving at t_max (listed in the evidence). " if n_nc else ""))
    c1 = _c(id="000-random-init-full", lines=(75, 75),
            paraphrase="Random Gaussian initialisation already reproduces the theoretical predictions (the initialisation condition is not needed in practice).",
            conventions=CONVENTIONS, check="numeric value",
            verdict="underspecified" if mc_ok else "refuted",
            missing=["initialisation scale of the experiments", "which parameters are randomised (full W_V, W_KQ or a reduced set)"],
            summary=common + (("The fraction reaching the global optimum falls as the init scale grows" if falls else
                               "The fraction reaching the global optimum depends on the init scale and seed") +
                              ", so whether the seed's statement holds depends on the unstated initialisation scale and parametrisation "
                              "(the reduced (v, A) flow always converges: 000-random-init)."),
            evidence={"mc_checks_full_loss": checks, "runs": runs, "convergence_counts": conv, "probe": probe})
    c2 = _c(id="000-benign-landscape", lines=(89, 89),
            paraphrase="Random Gaussian initialisation converging to the global optimum suggests a benign optimisation landscape (no proof given).",
            conventions=CONVENTIONS, check="numeric value",
            verdict="refuted" if (mc_ok and local_min and n_sp > 0) else "confirmed",
            summary=(common + "So the landscape of the parametrisation the seed describes is NOT benign. The reduced landscape over "
                     "(v, A) with Γ = vAᵀ is benign in our runs (000-random-init), as expected for a factorised strongly convex quadratic."
                     if n_sp > 0 else common + "No spurious minimum was found in these runs."),
            evidence={"n_spurious": n_sp, "n_runs": len(runs), "probe": probe, "mc_checks_full_loss": checks})
    return [c1, c2]


# ====================================================================== LMS / RLS
MUS_FULL = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.03, 0.05, 0.08, 0.12, 0.2)
BETAS_FULL = (0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.975, 0.98, 0.985, 0.99, 0.995, 0.999, 1.0)
MUS_QUICK = (0.0005, 0.002, 0.01, 0.03, 0.05, 0.08, 0.12)
BETAS_QUICK = (0.8, 0.85, 0.9, 0.95, 0.98, 0.99, 0.999)


def _summ(E, half):
    """Per-run statistics of a priori squared errors E (T, runs): last position and second-half average."""
    runs = E.shape[1]
    fin = np.isfinite(E).all(axis=0) & (np.abs(E) < 1e12).all(axis=0)
    if fin.sum() < runs:
        return {"diverged_runs": int(runs - fin.sum()), "last": float("inf"), "last_se": float("nan"),
                "avg": float("inf"), "avg_se": float("nan")}
    last = mc.from_samples(E[-1])
    avg = mc.from_samples(E[half:].mean(axis=0))
    return {"diverged_runs": 0, "last": last.mean, "last_se": last.se, "avg": avg.mean, "avg_se": avg.se}


def _filters(ctx, gamma, d, se2, noise, runs_scan, runs_eval, T, tag, mus, betas):
    r"""Scan μ, β on one set of streams, then evaluate the selected ones on fresh streams.

    Selecting the best of many noisy estimates biases it low; the fresh evaluation removes that
    bias (the paper-scale '10,000 runs' are the evaluation runs in full mode).
    """
    half = T // 2
    key = f"{tag}-{gamma}-{d}-{se2}-{noise}"
    X, Y = af.ar1_stream(np.random.default_rng(ctx.seed_for(f"000-filters-scan-{key}")), runs_scan, T, d, gamma,
                         SW2_DEF, se2, noise)
    lms = {mu: _summ(af.lms_errors(X, Y, mu), half) for mu in mus}
    rls = {b: _summ(af.rls_errors(X, Y, b), half) for b in betas}
    best_mu = min((v["avg"], k) for k, v in lms.items())[1]
    best_beta = min((v["avg"], k) for k, v in rls.items())[1]
    X, Y = af.ar1_stream(np.random.default_rng(ctx.seed_for(f"000-filters-eval-{key}")), runs_eval, T, d, gamma,
                         SW2_DEF, se2, noise)
    r = gla.optimal_lambda(gamma, T - 1, d, SW2_DEF, se2, noise, grid_size=201)
    opt = gla.optimal_parameters(r.lam, gamma, T - 1, np.eye(d), SW2_DEF, se2, noise)
    ev = {"lms": _summ(af.lms_errors(X, Y, best_mu), half), "rls": _summ(af.rls_errors(X, Y, best_beta), half),
          "kalman": _summ(af.kalman_errors(X, Y, gamma, SW2_DEF, se2, noise), half),
          "gla_stream": _summ(af.gla_stream_errors(X, Y, r.lam, opt.Gamma), half)}
    trivial = d * se2 / (1 - gamma ** 2) + noise if gamma < 1 else float("nan")
    return {"scan_lms": lms, "scan_rls": rls, "best_mu": best_mu, "best_beta": best_beta, "eval": ev,
            "gla_exact": r.error, "gla_lam": r.lam, "la_exact": r.error_linear_attention, "trivial": trivial,
            "runs_scan": runs_scan, "runs_eval": runs_eval}


def _z(exact, est, se):
    return (est - exact) / se if se and se > 0 else float("nan")


def claim_filters(ctx) -> list[Claim]:
    T = 1000
    quick = ctx.quick
    mus, betas = (MUS_QUICK, BETAS_QUICK) if quick else (MUS_FULL, BETAS_FULL)
    rs, re_ = (200, 600) if quick else (2000, 10000)
    main = {g: _filters(ctx, g, D_EXP, SE2_DEF, 0.0, rs, re_, T, "main", mus, betas) for g in (0.8, 0.975)}
    # figure: scans
    fig, axes = new_figure(2, 1, width=4.4)
    axes = axes.ravel()
    for ax, g in zip(axes, (0.8, 0.975)):
        m = main[g]
        ax.semilogx(mus, [m["scan_lms"][mu]["avg"] for mu in mus], "o-", label="LMS (x = μ)")
        ok_b = [b for b in betas if m["scan_rls"][b]["diverged_runs"] == 0]
        ax.semilogx([1 - b + 1e-4 for b in ok_b], [m["scan_rls"][b]["avg"] for b in ok_b], "s-", label="RLS (x = 1−β+1e-4)")
        ax.axhline(m["gla_exact"], color="k", label=f"GLA λ*={m['gla_lam']:.3f} (exact)")
        ax.axhline(m["eval"]["kalman"]["avg"], color="g", ls="--", label="Kalman (Bayes)")
        ax.axhline(m["trivial"], color="gray", ls=":", label="predict 0")
        for j, val in enumerate((0.264, 0.256) if g == 0.8 else (1.29,)):
            ax.axhline(val, color="r", ls=":", lw=0.8, label="seed's LMS/RLS values" if j == 0 else None)
        ax.set(title=f"γ={g}, d={D_EXP}, σ_w²=1, σ_e²=0.01, T={T}", xlabel="μ or 1−β", ylabel="MSE (t > T/2, scan runs)")
        ax.set_ylim(0, 1.6 * m["trivial"] if g == 0.8 else 1.2 * m["trivial"])
        ax.legend(fontsize=6)
    stem = ctx.save_figure(fig, "gla_lms_rls")
    ranking, lines = {}, []
    for g, m in main.items():
        e = m["eval"]
        z_rls = _z(m["gla_exact"], e["rls"]["avg"], e["rls"]["avg_se"])
        z_lms = _z(m["gla_exact"], e["lms"]["avg"], e["lms"]["avg_se"])
        z_gla = _z(m["gla_exact"], e["gla_stream"]["avg"], e["gla_stream"]["avg_se"])
        ranking[g] = {"gla_exact": m["gla_exact"], "lam_star": m["gla_lam"], "la_exact": m["la_exact"],
                      "gla_stream": e["gla_stream"], "z_gla_stream_vs_exact": z_gla,
                      "lms": {"mu": m["best_mu"], **e["lms"], "z_vs_gla": z_lms},
                      "rls": {"beta": m["best_beta"], **e["rls"], "z_vs_gla": z_rls},
                      "kalman": e["kalman"], "trivial": m["trivial"],
                      "rls_diverged_betas": [b for b in betas if m["scan_rls"][b]["diverged_runs"] > 0]}
        lines.append(f"γ = {g}: GLA {m['gla_exact']:.4f} exact (λ* = {m['gla_lam']:.3f}; stream MC {e['gla_stream']['avg']:.4f} ± "
                     f"{e['gla_stream']['avg_se']:.4f}, z = {z_gla:.2f}); LMS {e['lms']['avg']:.4f} ± {e['lms']['avg_se']:.4f} (μ = {m['best_mu']}, "
                     f"z vs GLA {z_lms:+.1f}); RLS {e['rls']['avg']:.4f} ± {e['rls']['avg_se']:.4f} (β = {m['best_beta']}, z vs GLA {z_rls:+.1f}); "
                     f"Kalman {e['kalman']['avg']:.4f}; predict-0 {m['trivial']:.4f}; LA {m['la_exact']:.4f}")
    # other dimensions at γ = 0.975 (d is not stated for this experiment)
    alt = {}
    alt_set = ((5, 0.0), (30, 0.0)) if quick else ((1, 0.0), (5, 0.0), (5, 0.01), (30, 0.0))
    for d, noise in alt_set:
        big = d >= 30
        m = _filters(ctx, 0.975, d, SE2_DEF, noise, 60 if (big and quick) else (200 if big else rs // 2),
                     120 if (big and quick) else (500 if big else re_ // 4), T, "alt",
                     (0.005, 0.02, 0.05) if big else mus, (0.95, 0.97, 0.98, 0.99) if big else betas)
        e = m["eval"]
        alt[f"d={d},noise={noise}"] = {"gla_exact": m["gla_exact"], "lms": e["lms"]["avg"], "lms_se": e["lms"]["avg_se"],
                                       "rls": e["rls"]["avg"], "rls_se": e["rls"]["avg_se"], "kalman": e["kalman"]["avg"],
                                       "gla_better_than_both": m["gla_exact"] < min(e["lms"]["avg"], e["rls"]["avg"])}

    def beats(r):  # significantly lower than both tuned baselines
        return r["lms"]["z_vs_gla"] > 3 and r["rls"]["z_vs_gla"] > 3

    def loses(r):
        return r["lms"]["z_vs_gla"] < -3 or r["rls"]["z_vs_gla"] < -3

    r8, r975 = ranking[0.8], ranking[0.975]
    verdict = "refuted" if (loses(r8) or loses(r975)) else "confirmed"
    c1 = _c(id="000-gla-vs-lms-rls", lines=(58, 58),
            paraphrase="Single-layer GLA has lower (training) error than LMS and RLS (sequence length 1000, 10,000 Monte Carlo runs); "
                       "its advantage comes from weights shared across sequences (line 71).",
            conventions=CONVENTIONS, check="exact vs Monte Carlo", verdict=verdict,
            summary=(f"Comparable error: one-step-ahead MSE averaged over positions t = {T // 2 + 1}..{T} (stationary regime; per-run "
                     f"averages give the SE) of streams of length T = {T}; GLA at its exact optimum for n = T−1 (λ*, Γ* trained on the "
                     f"population, which equals its error at any t > T/2 to within λ*^{{500}}). μ and β (δ = 1) tuned on {rs} scan runs, then "
                     f"evaluated on {re_} fresh runs (no selection bias); d = {D_EXP}, σ_w² = 1, σ_e² = 0.01, σ² = 0 (our choice: not given). " +
                     "; ".join(lines) + ". At γ = 0.8 GLA is significantly better than both tuned baselines (both z > 3: "
                     f"{beats(r8)}); at γ = 0.975 tuned RLS/LMS are significantly better than GLA (a z < −3: {loses(r975)}) — RLS adapts its gain to each sequence's "
                     "observed covariance, GLA's Γ is fixed; the Kalman filter shows how far all are from Bayes-optimal. The ranking depends on "
                     "the unstated d (GLA's fixed Γ wins when d is large compared with the drift time scale): " +
                     "; ".join(f"{k}: GLA {v['gla_exact']:.4f}, LMS {v['lms']:.4f}, RLS {v['rls']:.4f}" for k, v in alt.items()) + "."),
            evidence={"ranking": ranking, "other_settings_gamma_0.975": alt, "T": T, "runs_scan": rs, "runs_eval": re_,
                      "lms_scan": {str(g): {str(mu): main[g]["scan_lms"][mu] for mu in mus} for g in main},
                      "rls_scan": {str(g): {str(b): main[g]["scan_rls"][b] for b in betas} for g in main}},
            figures=[stem])
    # (b) reproducibility of the numbers
    m8, m975 = main[0.8], main[0.975]

    def crossing(tab, target):
        return [k for k, v in tab.items() if v["diverged_runs"] == 0 and abs(v["last"] - target) <= 2.5 * v["last_se"]]

    def crossing_avg(tab, target):
        return [k for k, v in tab.items() if v["diverged_runs"] == 0 and abs(v["avg"] - target) <= 2.5 * v["avg_se"]]

    def interp(tab, target):
        """Hyper-parameter values where the scan's 'avg' curve crosses target (linear interpolation)."""
        ks = sorted(k for k, v in tab.items() if v["diverged_runs"] == 0)
        out = []
        for a, b in zip(ks[:-1], ks[1:]):
            fa, fb = tab[a]["avg"] - target, tab[b]["avg"] - target
            if fa == 0 or fa * fb < 0:
                out.append(a + (b - a) * fa / (fa - fb))
        return out

    rep = {"LMS=0.264@0.8": {"last": crossing(m8["scan_lms"], 0.264), "avg": crossing_avg(m8["scan_lms"], 0.264),
                             "avg_crossing": interp(m8["scan_lms"], 0.264)},
           "RLS=0.256@0.8": {"last": crossing(m8["scan_rls"], 0.256), "avg": crossing_avg(m8["scan_rls"], 0.256),
                             "avg_crossing": interp(m8["scan_rls"], 0.256)},
           "RLS=1.29@0.975": {"last": crossing(m975["scan_rls"], 1.29), "avg": crossing_avg(m975["scan_rls"], 1.29),
                              "avg_crossing": interp(m975["scan_rls"], 1.29)}}
    cross975 = rep["RLS=1.29@0.975"]["avg_crossing"]
    c2 = _c(id="000-lms-rls-numbers", lines=(58, 58),
            paraphrase="At γ = 0.8, LMS = 0.264 and RLS = 0.256 (GLA lower); RLS rises to 1.29 at γ = 0.975.",
            conventions=CONVENTIONS, check="numeric value", verdict="underspecified",
            missing=["d of the filter experiment", "σ_w² and σ_e² (drift noise scale)", "label-noise variance",
                     "LMS step size μ", "RLS forgetting factor β and initialisation δ",
                     "which position(s) the error is averaged over"],
            summary=("Assumed d = 10, σ_w² = 1, σ_e² = 0.01, σ² = 0 (natural: GLA's exact error at γ = 0.8, "
                     f"{m8['gla_exact']:.4f}, lies just below the seed's numbers). Hyper-parameters whose scan estimate is within 2.5 SE "
                     f"of the seed's value ({rs} runs; 'last' = position T, 'avg' = t > T/2): LMS 0.264 at γ = 0.8: μ ∈ {rep['LMS=0.264@0.8']}; "
                     f"RLS 0.256 at γ = 0.8: β ∈ {rep['RLS=0.256@0.8']}; RLS 1.29 at γ = 0.975: β ∈ {rep['RLS=1.29@0.975']}. "
                     f"With the precise statistic ('avg', SE ≈ {r8['rls']['avg_se']:.4f}) no μ or β reaches 0.264 or 0.256 at γ = 0.8: the "
                     f"lowest scan values are LMS {min(v['avg'] for v in m8['scan_lms'].values()):.4f} and RLS "
                     f"{min(v['avg'] for v in m8['scan_rls'].values() if v['diverged_runs'] == 0):.4f}, i.e. no better than predicting 0 "
                     f"({m8['trivial']:.4f}; Bayes/Kalman {r8['kalman']['avg']:.4f}) — the 'last' matches are only Monte Carlo noise. "
                     f"The γ = 0.975 value 1.29 is not the tuned RLS error ({r975['rls']['avg']:.3f} at β = {r975['rls']['beta']}); the RLS "
                     f"scan crosses 1.29 at β ≈ {', '.join(f'{x:.4f}' for x in cross975) or 'nowhere on the grid'} (interpolated), an untuned "
                     "forgetting factor. So no single natural choice reproduces all three numbers; other d (smaller d lets LMS/RLS beat "
                     "predicting 0 at γ = 0.8) or noise levels could, but the seed does not say which."),
            evidence={"matching_hyperparameters": rep, "assumed": {"d": D_EXP, "sigma_w2": SW2_DEF, "sigma_e2": SE2_DEF, "noise": 0.0, "T": T}})
    # (c) γ trend
    norm = {}
    for g in main:
        rr = ranking[g]
        best = min(rr["rls"]["avg"], rr["lms"]["avg"])
        norm[g] = {"E_y2": main[g]["trivial"], "gla_rel": rr["gla_exact"] / main[g]["trivial"],
                   "rls_tuned_rel": rr["rls"]["avg"] / main[g]["trivial"], "lms_tuned_rel": rr["lms"]["avg"] / main[g]["trivial"],
                   "rls_beta_0.98_avg": main[g]["scan_rls"].get(0.98, {}).get("avg", float("nan")),
                   "gla_minus_best_baseline": rr["gla_exact"] - best}
    c3 = _c(id="000-drift-gap-trend", lines=(72, 72),
            paraphrase="The stronger the drift the larger the gap: as γ rises from 0.8 to 0.975 LMS/RLS errors deteriorate quickly (RLS reaches 1.29), while GLA stays lower.",
            conventions=CONVENTIONS, check="numeric value", verdict="inconsistent",
            summary=("Self-contradictory: line 44 says smaller γ means MORE drift, so γ rising 0.8 → 0.975 is LESS drift, yet line 72 calls "
                     "it the stronger-drift direction. With σ_e fixed the absolute errors grow with γ because the signal variance "
                     "$E[y^2]=d\\sigma_e^2/(1-\\gamma^2)$ grows " + f"{norm[0.8]['E_y2']:.3f} → {norm[0.975]['E_y2']:.3f} (×{norm[0.975]['E_y2'] / norm[0.8]['E_y2']:.2f}); "
                     "relative to it every method improves (less drift is easier): GLA " + f"{norm[0.8]['gla_rel']:.3f} → {norm[0.975]['gla_rel']:.3f}, "
                     f"tuned RLS {norm[0.8]['rls_tuned_rel']:.3f} → {norm[0.975]['rls_tuned_rel']:.3f}, tuned LMS {norm[0.8]['lms_tuned_rel']:.3f} → "
                     f"{norm[0.975]['lms_tuned_rel']:.3f} (d = 10, σ_e² = 0.01). GLA minus best tuned baseline: {norm[0.8]['gla_minus_best_baseline']:+.4f} "
                     f"(γ = 0.8) → {norm[0.975]['gla_minus_best_baseline']:+.4f} (γ = 0.975): at d = 10 the gap turns against GLA as γ grows."),
            evidence={"per_gamma": norm})
    bstar = {g: main[g]["best_beta"] for g in main}
    mstar = {g: main[g]["best_mu"] for g in main}
    interior_by_g = {g: bool(min(betas) < bstar[g] < max(betas)) for g in bstar}
    # verdict rule: interior optimal β at every γ of the seed's filter experiment (0.8, 0.975) → confirmed;
    # at none → refuted; at some only → underspecified (the outcome depends on the unstated d, σ_w², σ_e²)
    n_int = sum(interior_by_g.values())
    verdict4 = "confirmed" if n_int == len(interior_by_g) else "refuted" if n_int == 0 else "underspecified"
    c4 = _c(id="000-filters-optimal-forgetting", lines=(81, 81),
            paraphrase="The same optimal-forgetting-factor phenomenon appears in LMS/RLS (explicit updates) as in GLA (implicit adaptation).",
            conventions=CONVENTIONS + ["Verdict rule: an interior optimal RLS forgetting factor β* (strictly inside the scanned grid) "
                                       "at every γ of the seed's filter experiment (0.8, 0.975) → confirmed; at none → refuted; "
                                       "at some only → underspecified (depends on the unstated d, σ_w², σ_e²)."],
            check="qualitative shape", verdict=verdict4,
            missing=[] if verdict4 != "underspecified" else ["d of the filter experiment", "σ_w² and σ_e² (drift noise scale)"],
            summary=(f"RLS error vs β (d = {D_EXP}, σ_e² = 0.01, scan runs {rs}, β grid {min(betas)}..{max(betas)}): " +
                     "; ".join(f"γ = {g}: β* = {bstar[g]} ({'interior optimum' if interior_by_g[g] else 'at the edge of the grid'}), "
                               f"LMS μ* = {mstar[g]}, GLA λ* = {main[g]['gla_lam']:.3f}" for g in sorted(bstar)) +
                     f". Best RLS error at γ = 0.8: {min(v['avg'] for v in main[0.8]['scan_rls'].values() if v['diverged_runs'] == 0):.4f} "
                     f"vs predicting 0: {main[0.8]['trivial']:.4f} (when RLS cannot beat predicting 0, no forgetting factor is 'optimal' "
                     "in a meaningful sense). " +
                     ("The phenomenon appears at every γ tested." if verdict4 == "confirmed" else
                      "The phenomenon appears at some γ only, so whether it is shared depends on the unstated d and noise scales."
                      if verdict4 == "underspecified" else "No interior optimum at any γ tested.")),
            evidence={"best_beta": bstar, "best_mu": mstar, "gla_lam_star": {g: main[g]["gla_lam"] for g in main},
                      "beta_grid": betas, "interior_beta_by_gamma": interior_by_g},
            figures=[stem])
    return [c1, c2, c3, c4]


def claim_lambda_importance(ctx) -> Claim:
    rows = []
    for label, f in (("fixed σ_e² = 0.01", lambda g: (1.0, 0.01)), ("stationary σ_e² = 1−γ²", lambda g: (1.0, 1 - g * g))):
        for noise in (0.0, 1.0):
            for g in (0.5, 0.8, 0.9, 0.95, 0.975, 0.99):
                sw2, se2 = f(g)
                r = gla.optimal_lambda(g, N_EXP, D_EXP, sw2, se2, noise, grid_size=201)
                off = gla.train_error(max(r.lam - 0.05, 1e-3), g, N_EXP, D_EXP, sw2, se2, noise)
                rows.append({"normalisation": label, "noise": noise, "gamma": g, "lam_star": r.lam,
                             "rel_gain_vs_lambda1": 1 - r.error / r.error_linear_attention,
                             "rel_increase_at_lam_star_minus_0.05": off / r.error - 1})
    def series(label, noise, key):
        return [x[key] for x in rows if x["normalisation"] == label and x["noise"] == noise]
    g_fixed = series("fixed σ_e² = 0.01", 0.0, "rel_gain_vs_lambda1")
    incr = all(np.diff(g_fixed[:5]) > 0)
    decr = all(np.diff(g_fixed[:5]) < 0)
    noise_hurts = all(a["rel_gain_vs_lambda1"] > b["rel_gain_vs_lambda1"]
                      for a, b in zip([x for x in rows if x["noise"] == 0.0], [x for x in rows if x["noise"] == 1.0]))
    noise_helps = all(a["rel_gain_vs_lambda1"] < b["rel_gain_vs_lambda1"]
                      for a, b in zip([x for x in rows if x["noise"] == 0.0], [x for x in rows if x["noise"] == 1.0]))
    # verdict rule: confirmed iff BOTH directions of the seed hold (gain decreasing in γ on [0.5, 0.975] and
    # label noise increasing the gain in every pair); refuted otherwise (previously any mixed outcome
    # was 'confirmed')
    verdict = "confirmed" if decr and noise_helps else "refuted"
    return _c(id="000-lambda-importance", lines=(57, 57),
              paraphrase="(d = 10, n = 100) Train/test loss is inverted-U in λ with λ* < 1; the smaller γ and the larger the noise, the more an appropriate λ is needed.",
              conventions=CONVENTIONS, check="qualitative shape", verdict=verdict,
              summary=("Measured by the relative gain of λ* over λ = 1 (and, second reading, the relative error increase at λ* − 0.05), the "
                       "choice of λ matters " + ("LESS" if incr else "MORE" if decr else "not monotonically more or less") +
                       " for smaller γ on γ ∈ [0.5, 0.975] and " + ("LESS" if noise_hurts else "MORE" if noise_helps else "not uniformly more or less") +
                       " with label noise (verdict rule: confirmed iff both go the seed's way). Gain at γ = 0.5, 0.8, 0.9, 0.95, "
                       "0.975, 0.99 (d = 10, n = 100): fixed σ_e² = 0.01, σ² = 0: " + ", ".join(f"{x:.3f}" for x in g_fixed) +
                       "; with σ² = 1: " + ", ".join(f"{x:.3f}" for x in series("fixed σ_e² = 0.01", 1.0, "rel_gain_vs_lambda1")) +
                       "; stationary normalisation, σ² = 0: " + ", ".join(f"{x:.3f}" for x in series("stationary σ_e² = 1−γ²", 0.0, "rel_gain_vs_lambda1")) +
                       ". Sensitivity reading (error increase at λ* − 0.05): " + ", ".join(f"{x:.4f}" for x in series("fixed σ_e² = 0.01", 0.0, "rel_increase_at_lam_star_minus_0.05")) +
                       ". The shape part is covered by 000-inverted-u (error U-shaped, ξ inverted-U)."),
              evidence={"rows": rows, "gain_increasing_in_gamma_to_0.975": incr, "gain_decreasing_in_gamma_to_0.975": decr,
                        "noise_reduces_gain": noise_hurts, "noise_increases_gain": noise_helps,
                        "verdict_rule": "confirmed iff gain strictly decreasing in gamma on [0.5, 0.975] (fixed sigma_e2, "
                                        "sigma2 = 0) and label noise increases the gain at every gamma and normalisation"})


# ====================================================================== not checkable
def claims_unverifiable() -> list[Claim]:
    out = [
        _c(id="000-sst2", lines=(59, 59),
           paraphrase="GatedLinearGPT2 with λ = 0.9 clearly beats LinearGPT2 in accuracy and confidence on SST-2 (K ∈ {1,5,10,15,20} demos).",
           conventions=[], check="numeric value", verdict="underspecified",
           missing=["SST-2 data and prompt format", "GPT-2 checkpoints with softmax replaced by (gated) linear attention",
                    "fine-tuning protocol", "accuracy/confidence numbers"],
           summary="A real-model experiment; no numbers are given in the seed and neither the modified models nor the training protocol are available, so nothing can be recomputed here."),
        _c(id="000-mnli", lines=(60, 60),
           paraphrase="GatedLinearGPT2 consistently achieves higher accuracy and confidence than LinearGPT2 on MNLI (K ∈ {1,3,5,7,10}).",
           conventions=[], check="numeric value", verdict="underspecified",
           missing=["MNLI data and prompt format", "the modified GPT-2 models", "training protocol", "numbers"],
           summary="As for SST-2: not reproducible without the models and data; the seed states no numbers."),
        _c(id="000-real-language-transfer", lines=(73, 73),
           paraphrase="The non-stationarity → recency-gating insight transfers to real language tasks (SST-2/MNLI).",
           conventions=[], check="qualitative shape", verdict="underspecified",
           missing=["the SST-2/MNLI experiments (data, models, protocol)"],
           summary="Depends entirely on the unavailable real-data experiments."),
        _c(id="000-depth-ablation", lines=(65, 65),
           paraphrase="With γ = 0.95, more GLA layers steadily improve train/test performance (multi-time-scale filtering).",
           conventions=[], check="qualitative shape", verdict="underspecified",
           missing=["multi-layer architecture (residual stream, per-layer λ)", "training protocol and sizes", "numbers"],
           summary="The theory is single-layer; no multi-layer model, λ per layer, or numbers are given. A toy version would need design choices that would be ours, not the paper's, so it is not attempted."),
    ]
    return out


# ====================================================================== build
def build(ctx) -> Ledger:
    led = Ledger("gla", SEED, TITLE, conventions=CONVENTIONS,
                 parameters={"mode": ctx.mode, "seed": ctx.seed, "experiment_d": D_EXP, "experiment_n": N_EXP,
                             "default_sigma_w2": SW2_DEF, "default_sigma_e2": SE2_DEF,
                             "note": "σ_w², σ_e², label noise, LMS/RLS hyper-parameters are not given in the seed; defaults are ours."})
    led.add(claim_model(ctx))
    cmp_opt, full = claim_full_vs_reduced(ctx)
    led.add(full)
    led.add(claim_thm1(ctx))
    led.add(claim_zfb(ctx))
    for c in claim_flow(ctx):
        led.add(c)
    for c in claim_full_landscape(ctx):
        led.add(c)
    led.add(claim_xi(ctx))
    shape, _ = claim_shape(ctx)
    led.add(shape)
    for c in claim_monotonicity(ctx):
        led.add(c)
    table = _lam_table(ctx)
    nf = _noise_free_scan(ctx)
    for c in claim_lambda_star(ctx, table, nf):
        led.add(c)
    led.add(claim_gamma_to_1(ctx))
    tests, _ = claim_test(ctx)
    for c in tests:
        led.add(c)
    led.add(claim_gla_vs_la(ctx, nf))
    led.add(claim_lambda_importance(ctx))
    for c in claim_filters(ctx):
        led.add(c)
    for c in claims_unverifiable():
        led.add(c)
    return led
