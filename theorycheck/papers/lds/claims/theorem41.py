r"""Claims of paper 001 on key design 3, the closed-form AR(1) optimum (Theorem 4.1, seed lines 58–62), in seed order:
the Isserlis moments, the global optimum W*_QK, the ratio of expectations, the one-step-GD identity and the
first-order optimality it rests on."""
from __future__ import annotations

import numpy as np
import sympy as sp

from .... import gaussian
from ....figures import new_figure
from ....models.attention import attention_predict, effective_coefficients, gram_query
from ....models.dynamics import DiagonalLDSPrior, LDSBatch, lds_autocovariance
from ....claims import Clause
from ....verdicts import Estimate, rules, selfcheck
from ....verdicts.rules.trivial import against_trivial
from ...api import Derivation, Note, Remedy
from ..derivations import lds_identities as dli
from ..derivations import lds_isserlis as dlis
from ..generated import lds_identities as gi
from ..generated import lds_scalar as gs
from ..registry import claims
from ..settings import (SETTINGS, T_STATED, config, corner_priors, prior, prior_params, prior_scope, rng_for,
                        searched_box, test_set)
from ..theory.gd import ar_gd_step_prediction, gd_step_weights
from ..theory.isserlis import wqk_star_moments
from ..theory.stationarity import stationarity_moments
from ..theory.wqk import poly_eval_moments, scalar_batch, wqk_star


# ============================================================================ lines 58, 60 (Theorem 4.1)
@claims.claim("001-isserlis-moments", lines=(58, 58), fragment="Isserlis 定理（把高斯数据的高阶矩拆成二阶矩乘积）",
              conventions=["C1", "C5"], weight="supporting",
              title="Isserlis' theorem reduces Theorem 4.1's 4th and 6th moments to products of covariances",
              clauses=[Clause("c1", "Isserlis 定理（把高斯数据的高阶矩拆成二阶矩乘积）")])
def isserlis_moments(ctx):
    """Isserlis' theorem reduces the 4th- and 6th-order moments of Theorem 4.1, N = E[y_{T−1} y_T S] and
    D = E[y_{T−1}² S²], to sums of products of autocovariances (3 and 15 pairings per term)."""
    cfg = config(ctx)
    RTOL = 1e-10      # float agreement of two exact evaluations
    m4, m6, n6, (_, _, _, _, Kf) = dlis.isserlis_expansions()
    yield rules.identity("E[y_a y_b y_i y_{i+1}] is a sum of 3 products of covariances",
                         sp.Integer(int(m4.replace(Kf, lambda *a: 1))), sp.Integer(3), scope="exact (SymPy)")
    yield rules.identity("E[y_a² y_i y_{i+1} y_j y_{j+1}] is a sum of 15 products of covariances", sp.Integer(n6),
                         sp.Integer(15), scope="exact (SymPy)")
    for n in (4, 5):
        (Np, Nt), (Dp, Dt) = dlis.trace_form_sides(n)
        scope = f"exact (SymPy, symbolic symmetric {n}×{n} K, T = {n})"
        yield rules.identity("N: Isserlis pairing sum = K_(T−1,T) tr(KM) + 2 u_(T−1)ᵀ M u_T", Np, Nt, scope=scope)
        yield rules.identity("D: Isserlis pairing sum = trace form in K (C5)", Dp, Dt, scope=scope)
    T = 8
    a = np.array([-0.95, -0.4, 0.15, 0.6, 0.95])
    pr1 = DiagonalLDSPrior(1, 0.9, 1.0, 0.5, 0.5)
    K = lds_autocovariance(scalar_batch(pr1, a), T)
    N_e, D_e = wqk_star_moments(K)
    N_b = [sum(gaussian.moment(Kb, (T - 2, T - 1, i, i + 1)) for i in range(T - 2)) for Kb in K]
    D_b = [sum(gaussian.moment(Kb, (T - 2, T - 2, i, i + 1, j, j + 1)) for i in range(T - 2) for j in range(T - 2))
           for Kb in K]
    yield rules.identity("explicit pairing sums = trace forms on LDS autocovariances (N and D)",
                         np.concatenate([N_e, D_e]), np.concatenate([N_b, D_b]), rtol=RTOL,
                         scope=f"d = 1, T = {T}, a ∈ {a.tolist()}, σ₀ = 1, σ_w = σ_v = 0.5")
    Np, Dp = poly_eval_moments(gs.POLY[30], a, 1.0, 0.5, 0.5)
    N30, D30 = wqk_star_moments(lds_autocovariance(scalar_batch(pr1, a), 30))
    yield selfcheck.identity("generated d = 1 polynomials (T = 30) = engine", np.concatenate([Np, Dp]),
                             np.concatenate([N30, D30]), rtol=RTOL)
    # the actual model: trajectories of one system, products summed here (batch means, Student t)
    one = scalar_batch(pr1, np.array([0.8]))
    Nx, Dx = wqk_star_moments(lds_autocovariance(one, T))
    B, m = cfg["isserlis_mc_batches"], cfg["isserlis_mc_batch"]
    bn, bd = [], []
    for g in np.random.SeedSequence(ctx.seed_for("isserlis-mc")).spawn(B):
        rg = np.random.default_rng(g)
        Y = LDSBatch(np.repeat(one.A, m, 0), np.repeat(one.c, m, 0), np.repeat(one.Sigma_w, m, 0),
                         1.0, 0.5).simulate(T, rg)
        S = np.sum(Y[:, :-2] * Y[:, 1:-1], axis=1)
        bn.append(np.mean(Y[:, -2] * Y[:, -1] * S))
        bd.append(np.mean(Y[:, -2] ** 2 * S ** 2))
    yield selfcheck.agreement("N (Isserlis) vs trajectory Monte Carlo, a = 0.8, T = 8",
                              Estimate.from_batches(bn, m), float(Nx[0]))
    yield selfcheck.agreement("D (Isserlis) vs trajectory Monte Carlo, a = 0.8, T = 8",
                              Estimate.from_batches(bd, m), float(Dx[0]))
    for key in ("isserlis_4", "isserlis_6", "N_trace", "D_trace"):
        yield Derivation(gs.LATEX[key])


_SWAP_WHY = ("refuted in the stated setting (no chosen value matters): the loss depends on the weights only through "
             "C₁₁ = v₁W₁₁, C₁₂ = v₁W₂₁ + v₂W₁₁, C₂₂ = v₂W₂₁, so the swapped weights (v₁W₂₁ = W*, v₂ = W₁₁ = 0) and any "
             "values of W_V's first row and W_QK's second column give the same prediction on every prompt of every "
             "prior; the optimum is unique up to scaling only inside one parity branch of Lemma 4.1 with the "
             "loss-irrelevant entries fixed")


@claims.claim("001-thm41-global-optimum", lines=(58, 58), conventions=["C2", "C3", "C4", "C5"], needs=("exact_optima",),
              fragment=r"给出单层线性自注意力关于损失 \(L(\theta)\) 的全局最优权重闭式解（公式 15，差一个非零常数缩放）",
              title="Theorem 4.1: Eq. 15 is the global optimum of AR(1) attention, unique up to scaling",
              weight="main",
              clauses=[Clause("c1", r"给出单层线性自注意力关于损失 \(L(\theta)\) 的全局最优权重闭式解（公式 15"),
                       Clause("c2", "差一个非零常数缩放", "quantifier")],
              readings={"existence only (some rescaling of Eq. 15 is optimal)":
                        "ruled out: the sentence names the globally optimal weights and qualifies them by a scaling "
                        "only, a characterisation of every optimum; the existence of one is clause c1",
                        "uniqueness of the predictor (not of the weights)":
                        "ruled out: a rescaling (W_QK/β, βW_V) leaves the predictor unchanged, so the qualifier "
                        "'up to a non-zero scaling' has content only for the weights (权重)"})
def thm41_global_optimum(ctx, exact_optima):
    """For AR(1) the global optimum of the in-context loss over all W_QK, W_V is W*_QK = diag(w*, 0), W*_V = e₂e₂ᵀ
    (w* = (T−2)E[y_{T−1}y_T S]/E[y_{T−1}²S²]), unique up to a non-zero scaling (W_QK, W_V) → (W_QK/β, βW_V)."""
    cfg = config(ctx)
    T = cfg["T"]
    RTOL = 1e-10        # floating-point agreement of exact quantities (normal equations, formula)
    yield Note("The loss depends on the weights only through the effective coefficients C = (C₁₁, C₁₂, C₂₂) of the "
               "features G₁₁y_{T−1}, G₁₂y_{T−1}, G₂₂y_{T−1} (C3); the unconstrained minimiser over C (3×3 normal "
               "equations with exact moments) is a lower bound for every weight, so weights that realise it are a "
               "global optimum. Settings (a)–(c): exact prior averages. Setting (d): a finite family of sampled systems "
               "closed under A → −A (antithetic pairs), itself a centrally symmetric prior. Uniqueness up to scaling: "
               "every realisation of the optimal C (v₁W₁₁ = 0, v₂W₂₁ = 0, v₁W₂₁ + v₂W₁₁ = W*) is either the Theorem's "
               "branch (v₁ = W₂₁ = 0) or the swapped branch (v₂ = W₁₁ = 0), with W_V's first row and W_QK's second "
               "column free; the multi-start search of the exact loss recovers both branches.")
    rng = rng_for(ctx, "global-optimum-selfcheck")
    W, V = rng.standard_normal((2, 2, 2))
    Y = prior("a").sample(rng, 50).simulate(T, rng)
    G, q = gram_query(Y, 1)
    C = effective_coefficients(W, V)
    yield selfcheck.identity("forward pass = Σ C_kl G_kl q (effective coefficients)",
                             attention_predict(W, V, Y), np.einsum("kl,bkl,b->b", C[:, :, 0], G, q[:, 0]),
                             rtol=1e-10)
    for st in SETTINGS:
        yield from _optimum_in_setting(ctx, st, T, RTOL)
    yield from _uniqueness(ctx, T, exact_optima[1])


def _optimum_in_setting(ctx, st, T, RTOL):
    cfg = config(ctx)
    exact = st in ("a", "b", "c")
    if exact:
        mom = stationarity_moments(T, 1, prior(st), gram=True, method="exact-components")
        w_formula = wqk_star(T, prior(st), method="exact-components").value
    else:        # a finite family closed under A -> -A; the formula evaluated on the same family
        sysm = prior(st).sample(rng_for(ctx, f"global-optimum-{st}"), cfg["antithetic_pairs"])
        mom = stationarity_moments(T, 1, prior(st), gram=True, method="rao-blackwell", systems=sysm, antithetic=True)
        N, D = zip(*(wqk_star_moments(sy.autocovariance(T)) for sy in (sysm, sysm.negate())))
        w_formula = (T - 2) * float(np.mean(np.concatenate(N))) / float(np.mean(np.concatenate(D)))
    c = np.linalg.solve(mom["gram"], mom["b"])             # features (1,1,1), (1,2,1), (2,2,1)
    scope = (f"{prior_scope(st)}, T = {T}, " + ("exact prior average" if exact else
             f"finite antithetic family of {2 * cfg['antithetic_pairs']} systems"))
    params = [T_STATED, *prior_params(st)]
    yield rules.identity(f"({st}) unconstrained optimum has C₁₁ = C₂₂ = 0", np.array([c[0], c[2]]) / abs(c[1]),
                         np.zeros(2), atol=RTOL, scope=scope, clauses=["c1"], params=params)
    yield rules.identity(f"({st}) optimal C₁₂ = (T−2)E[y_(T−1) y_T S]/E[y_(T−1)² S²]", c[1], w_formula, rtol=RTOL,
                         scope=scope, clauses=["c1"], params=params)
    beta = 2.5                                              # any non-zero scaling
    Wst, Vst = np.array([[c[1] / beta, 0.0], [0.0, 0.0]]), np.array([[0.0, 0.0], [0.0, beta]])
    yield rules.identity(f"({st}) W*_QK = diag(w*/β, 0), W*_V = β e₂e₂ᵀ realise the optimum (β = {beta})",
                         effective_coefficients(Wst, Vst)[:, :, 0][np.triu_indices(2)], c, rtol=RTOL,
                         atol=RTOL * abs(c[1]), scope=scope, clauses=["c1"], params=params)


def _uniqueness(ctx, T, opt):
    """Other global optima than the rescalings of Eq. 15: the swapped branch and the loss-irrelevant entries, checked
    on prompts of the four settings and of the 16 corners of the admissible prior box."""
    cfg = config(ctx)
    w, beta = opt["C12_optimum"], 2.5
    theorem = (np.array([[w / beta, 0.0], [0.0, 0.0]]), np.array([[0.0, 0.0], [0.0, beta]]))
    swapped = (np.array([[0.0, 0.0], [w / beta, 0.0]]), np.array([[0.0, 0.0], [beta, 0.0]]))
    rng = rng_for(ctx, "uniqueness-free-entries")
    free = (theorem[0] + np.array([[0.0, 1.0], [0.0, -0.7]]) * rng.standard_normal(),
            theorem[1] + np.array([[1.3, -0.4], [0.0, 0.0]]) * rng.standard_normal())
    priors = [(f"setting ({st})", prior(st)) for st in SETTINGS] + [(str(c), p) for c, p in corner_priors("a")]
    Ys = [pr.sample(g, cfg["corner_systems"]).simulate(T, g) for name, pr in priors
          for g in [rng_for(ctx, f"uniqueness-prompts-{name}")]]
    Y = np.concatenate(Ys)
    ref = attention_predict(*theorem, Y)
    swap_found = [p for p in opt["branch"][1] if p["branch"] == "swapped" and
                  abs(p["loss"] - min(q["loss"] for q in opt["free"])) <= 1e-9 * abs(p["loss"])]
    scope = (f"T = {T}, {len(Y)} prompts of settings (a)–(d) and of the 16 corners of the admissible prior box; "
             f"W* = {w:.6g} (setting a), β = {beta}")
    params = [T_STATED, *prior_params("a")]
    ext = {"searched": searched_box(), "holds_throughout": True,
           "where": "every prior and prompt: the identity of predictions is structural (C depends only on v₁W₁₁, "
                    "v₁W₂₁ + v₂W₁₁, v₂W₂₁)", "stops": "nowhere in the admissible box; uniqueness up to scaling holds "
                                                      "only within one parity branch with the free entries fixed"}
    gap = max(float(np.max(np.abs(attention_predict(*x, Y) - ref))) for x in (swapped, free))
    yield rules.identity("the swapped weights W_QK = [[0, 0], [W*/β, 0]], W_V = [[0, 0], [β, 0]] (not a rescaling of "
                         "Eq. 15) predict exactly as Eq. 15 on every prompt", attention_predict(*swapped, Y), ref,
                         rtol=1e-12, clauses=["c2"], params=params, scope=scope)
    yield rules.identity("Eq. 15 with W_V's first row and W_QK's second column set to random values predicts exactly as "
                         "Eq. 15 on every prompt", attention_predict(*free, Y), ref, rtol=1e-12, clauses=["c2"],
                         params=params, scope=scope)
    yield rules.search("the global optimum is unique up to a non-zero scaling of Eq. 15", found=2,
                       tried=len(opt["free"]) + sum(len(v) for v in opt["branch"].values()), clauses=["c2"],
                       params=params, extent=ext, scope=scope + "; certified by the two identities above",
                       details={"counterexamples": ["swapped parity branch (v₂ = W₁₁ = 0, v₁W₂₁ = W*)",
                                                    "free loss-irrelevant entries (W_V row 1, W_QK column 2)"],
                                "swapped_optima_found_by_search": len(swap_found),
                                "magnitude": f"two families of global optima that are not rescalings of Eq. 15, "
                                             f"predicting as Eq. 15 to within {gap:.2g} on {len(Y)} prompts",
                                "why": _SWAP_WHY})
    yield Remedy("state the optimum as unique up to scaling, the parity swap W_QK = [[0, 0], [W*/β, 0]], W_V = [[0, 0], "
                 "[β, 0]] and the entries that do not enter ŷ_T (or say 'the optimal predictor is unique'): those "
                 "weights predict as Eq. 15 to within {gap} on {n} prompts", gap=gap, n=len(Y), clauses=["c2"])


@claims.claim("001-thm41-ratio-of-expectations", lines=(60, 60), conventions=["C1", "C2", "C3", "C4", "C5"],
              needs=("ratio_setting", "ratio_heldout", "ratio_acov"), weight="main",
              title="Eq. 15's scalar is a ratio of expectations over noise and prior, with the factor T − 2",
              clauses=[Clause("c1", r"\[W^\star_{QK}=\begin{pmatrix}\dfrac{(T-2)\,\mathbb{E}[y_{T-1}y_T\sum_{i=1}^{T-2}"
                                    r"y_iy_{i+1}]}{\mathbb{E}\!\big[y_{T-1}^2(\sum_{i=1}^{T-2}y_iy_{i+1})^2\big]}&0\\[2pt]0&"
                                    r"0\end{pmatrix},\qquad W^\star_V=\begin{pmatrix}0&0\\0&1\end{pmatrix}.\]", "number")])
def thm41_ratio_of_expectations(ctx, ratio_setting, ratio_heldout, ratio_acov):
    """The optimal scalar is W*_QK,11 = (T−2)E[y_{T−1}y_T S]/E[y_{T−1}²S²], expectations over noise and prior: on fresh
    prompts the attention layer with it has a lower loss than with the per-system optimum averaged over systems
    and than without the factor T − 2, and it beats predicting zero by more than 5 % of that loss (the trivial
    alternative of the contender the sentence calls optimal; the alternative formulas are not contenders)."""
    MARGIN = 0.0            # "lower loss": any strict improvement of the paired held-out halved loss
    TRIVIAL = 0.05          # W* must beat predicting zero by 5 % of the zero predictor's halved loss
    cfg = config(ctx)
    T = cfg["T"]
    yield Note("Self-checks, the same in all four settings: (1) W* — exact in (a), (b), (c); exact over eigenvalues "
               "and noises, quasi-Monte Carlo over the coupling matrix in (d) — solves E[N] = W*·E[D]/(T − 2) on "
               "sampled systems with their exact per-system moments (batch means of a linear statistic, Student t); "
               "(2) the autocovariance K of three sampled systems, the only input the Isserlis engine (checked in "
               "001-isserlis-moments) takes, against simulated second moments (Hotelling T² over batch means). The "
               "simulated attention layer itself decides the claim: paired held-out losses on fresh prompts (figure). "
               "Each setting is computed by tasks of its own (ratio_setting, ratio_heldout, ratio_acov).")
    curves = {}
    for st in SETTINGS:
        r = {**ratio_setting[st], **(ratio_heldout[st] if st in ratio_heldout else {})}
        w = r["wstar"]
        yield selfcheck.agreement(f"({st}) W* ({w.method}) solves E[N] = W*·E[D]/(T − 2) on sampled systems "
                                  "(exact per-system moments, batch means, relative to E[N])", r["linear_check"], 0.0)
        ac = ratio_acov[st]
        bv = ac["acov"]["batch_values"]
        B = bv.shape[0]
        yield selfcheck.components(f"({st}) autocovariance K (exact) vs simulated second moments, entries "
                                   f"{ac['entries']} of 3 sampled systems", bv.mean(0), ac["acov"]["exact"],
                                   np.cov(bv.T) / B, n=B * cfg["acov_per_batch"], df=B - 1)
        if "diff_avg" not in r:
            continue
        curves[st] = (w.value, r["per_system"].mean, r["moments"], T)
        scope = f"{prior_scope(st)}, T = {T}, {cfg['ratio_test_n']} fresh prompts (paired)"
        params = [T_STATED, *prior_params(st)]
        zero = against_trivial("W*", "predict zero (W_QK = 0)", Estimate.from_samples(r["diff_zero"]),
                               reference=r["zero_loss"], relative_margin=TRIVIAL)
        yield rules.superiority(f"({st}) loss with the per-system average E_A[(T−2)N(A)/D(A)] exceeds loss with W*",
                                Estimate.from_samples(r["diff_avg"]), margin=MARGIN, scope=scope, params=params,
                                trivial=[zero],
                                details={"W_star": w.value, "per_system_average": r["per_system"].mean,
                                         "per_system_average_se": r["per_system"].se,
                                         "per_system_average_minus_zero_loss": float(np.mean(
                                             r["diff_avg"] - r["diff_zero"]))})
        yield rules.superiority(f"({st}) loss without the factor T − 2 exceeds loss with W*",
                                Estimate.from_samples(r["diff_t2"]), margin=MARGIN, scope=scope, params=params,
                                trivial=[zero])
    ctx.save_figure(_wqk_figure(curves), "lds_wqk_heldout_loss",
                    f"Held-out halved loss of the simulated attention layer (W_QK = c·e₁e₁ᵀ, T = {T}, "
                    f"{cfg['ratio_test_n']} fresh prompts per setting) against c/W*, relative to its value at W* "
                    "(Theorem 4.1); markers: the per-system average E_A[(T−2)N(A)/D(A)] and W*/(T − 2).")


def _wqk_figure(curves):
    fig, ax = new_figure()
    x = np.linspace(0.0, 2.0, 201)
    T = 0
    for st, (w, avg, (a2, a1, a0), T) in curves.items():
        # mean halved loss at c = x·W*: a quadratic in c from three sample moments
        L = lambda c: a2 * c * c + a1 * c + a0                                # noqa: E731
        rel = L(x * w) / L(w) - 1.0
        line, = ax.plot(x, rel, label=f"({st})")
        for c, mk in ((avg, "s"), (w / (T - 2), "v")):
            ax.plot([c / w], [L(c) / L(w) - 1.0], mk, color=line.get_color())
    ax.axvline(1.0, color="0.6", lw=0.8)
    ax.set_xlabel(r"$c\,/\,W^*_{QK,11}$")
    ax.set_ylabel("held-out loss / loss at W* − 1")
    ax.set_title(f"Theorem 4.1 scalar on the simulated layer, T = {T} (■ per-system average, ▼ W*/(T−2))")
    ax.legend()
    return fig


# ============================================================================ line 62
@claims.claim("001-gd-identity", lines=(62, 62), conventions=["C3", "C6"], weight="main",
              fragment=r"关键洞察是：用这组最优参数跑一次前向传播，输出恰好等于从 \(w_0=0\) 出发对 \(L_{\mathrm{AR}(1)}(w)\) "
                       r"做一步梯度下降后给出的预测",
              title="With the Theorem 4.1 weights the forward pass equals one GD step on L_AR(1) from 0",
              clauses=[Clause("c1", "关键洞察是：用这组最优参数跑一次前向传播", "condition"),
                       Clause("c2", r"输出恰好等于从 \(w_0=0\) 出发对 \(L_{\mathrm{AR}(1)}(w)\) 做一步梯度下降后给出的预测")])
def gd_identity(ctx):
    """With the optimal weights the attention output equals the prediction after one gradient-descent step on
    L_AR(1) from w₀ = 0 with the fixed step size η = W*_QK,11, for every prompt (both scale like c³ under y → cy)."""
    RTOL = 1e-12
    cfg = config(ctx)
    for T in cfg["gd_T_values"]:
        lhs, rhs = dli.gd_identity_sides(T)
        yield rules.identity(f"T = {T}: ŷ_T = (0 − η∇L_AR(1)(0)) y_(T−1)", lhs, rhs, clauses=["c2"],
                             scope=f"exact (SymPy), full forward pass, symbolic y_1..y_{T} and η")
    yhat, pred, _ = dli.gd_symbolic_T_sides()
    yield rules.identity("symbolic T: (η/(T−2)) Σ y_i y_(i+1) · y_(T−1) = (0 − η∇L_AR(1)(0)) y_(T−1)", yhat, pred,
                         clauses=["c2"], scope="exact (SymPy), symbolic T, index form")
    T = cfg["T"]
    for st in SETTINGS:
        w = wqk_star(T, prior(st), n_systems=2000, seed=ctx.seed_for(f"gd-identity-wstar-{st}")).value
        _, Y = test_set(ctx, st, T, 2000, "gd-identity" if st == "a" else f"gd-identity-{st}")
        att = attention_predict(*gd_step_weights(1, w), Y)
        params = [T_STATED, *prior_params(st)]
        yield rules.identity(f"({st}) T = {T}: attention output = one GD step of fixed size W* = {w:.6g}", att,
                             ar_gd_step_prediction(Y, 1, w), rtol=RTOL, clauses=["c1", "c2"], params=params,
                             scope=f"{prior_scope(st)}, T = {T}, 2000 prompts")
        if st == "a":
            for c in (0.1, 10.0):
                yield rules.identity(f"({st}) y → {c:g}·y: attention output and the fixed-step GD prediction both "
                                     f"scale by {c:g}³", np.concatenate([attention_predict(*gd_step_weights(1, w),
                                                                                           c * Y) / att,
                                                                        ar_gd_step_prediction(c * Y, 1, w) / att]),
                                     np.full(2 * len(Y), c ** 3), rtol=1e-9, clauses=["c2"], params=params,
                                     scope=f"{prior_scope(st)}, T = {T}, 2000 prompts rescaled")
    for key in ("gd_attention", "gd_gradient", "gd_step"):
        yield Derivation(gi.LATEX[key])


@claims.claim("001-first-optimality", lines=(62, 62), conventions=[], weight="supporting",
              fragment="这就把 i.i.d. 设定下「注意力实现 GD」的结论首次推广到了 LDS 产生的非 i.i.d. 数据上，是已知第一个针对 LDS 数据的最优性结果",
              title="Priority: the first optimality result for attention on LDS (non-i.i.d.) data",
              clauses=[Clause("c1", "这就把 i.i.d. 设定下「注意力实现 GD」的结论首次推广到了 LDS 产生的非 i.i.d. 数据上", "priority"),
                       Clause("c2", "是已知第一个针对 LDS 数据的最优性结果", "priority")])
def first_optimality(ctx):
    """This is the first extension of 'attention implements GD' to non-i.i.d. LDS data and the first optimality result
    for one-layer attention on LDS data."""
    yield rules.underspecified("first optimality result on LDS data", ["a survey of the literature (a priority claim "
                                                                       "is not a computable statement)"],
                               clauses=["c1", "c2"], scope="not attempted")
