r"""Paper 001 — "On learning linear dynamical systems in context with attention layers".

``build(ctx)`` checks every quantitative statement of the seed summary
(``theorycheck/seed_texts/001_4dd5d8cf15de7e82.txt``) with the mathematics of
:mod:`theorycheck.lds`. The paper's data distributions are not given; every prior parameter
used is listed in the ledger's ``parameters`` and in each claim's evidence.
"""
from __future__ import annotations

import math
import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np
from scipy import stats

from .. import lds
from ..claims import Claim, Ledger
from ..montecarlo import compare, from_samples, rngs

SEED = "001"
KEY = "lds"
TITLE = "On learning linear dynamical systems in context with attention layers"

PRIOR_DEFAULTS = {"d": 5, "a_max": 0.95, "sigma0": 1.0, "sigma_w": 0.5, "sigma_v": 0.5}

CONVENTIONS = [
    "System: x_0 ~ N(0, sigma0^2 I_d); for t = 1..T: x_t = A x_{t-1} + w_t, w_t ~ N(0, Sigma_w); "
    "y_t = c^T x_t + v_t, v_t ~ N(0, sigma_v^2); all noises independent.",
    "Priors (paper does not state them; ours): d = 5, eigenvalues a_k iid U[-0.95, 0.95], sigma0 = 1, "
    "sigma_w = 0.5, sigma_v = 0.5, c = 1. (a) A = diag(a); (b) A = Q^T diag(a) Q, Q Haar; "
    "(c) diagonal A, Sigma_w = diag of variances spread 16-fold around sigma_w^2 (geometric); "
    "(d) A = P^-1 diag(a) P, P = I + 0.5 * strictly-upper-triangular N(0,1). All centrally symmetric.",
    "Tokens (reconstructed): z_i = [y_i..y_{i+s-1}; y_{i+s}], i = 1..n, n = T-s-1, query [y_{T-s}..y_{T-1}; 0]; "
    "T_theta(Y0) = Y0 + (1/n) W_V Y0 M (Y0^T W_QK Y0), M masks the query column; "
    "prediction = entry (s+1, T-s).",
    "Loss: halved, L = (1/2) E[(yhat_T - y_T)^2], over noise and system prior; MSE figures in the "
    "Kalman comparison are NOT halved.",
    "W*_QK,11 = (T-2) E[y_{T-1} y_T S] / E[y_{T-1}^2 S^2], S = sum_{i=1}^{T-2} y_i y_{i+1}: a ratio of "
    "expectations over noise and prior (not an average of per-system ratios).",
    "L_AR(s)(w) = 1/(2(T-s-1)) sum_{t=1}^{T-s-1} (y_{t+s} - w^T ybar_t)^2 (seed line 48).",
    "Indices 1-based in text (k, l over token rows, j over query entries), 0-based in arrays.",
]

MISSING_PRIOR = ["law of the eigenvalues of A", "law of x_0", "Sigma_w", "sigma_v", "law of c outside setting (a)"]


def _config(ctx):
    if ctx.quick:
        return {"T": 30, "mc_samples": 60_000, "rb_systems": 4000, "ratio_systems": 4000,
                "train_T": 12, "train_steps": 1200, "train_batch": 300, "n_seeds": 3, "n_seeds_ge2": 1,
                "s_ge2_steps": 800, "s_ge2_batch": 300, "other_steps": 1200, "other_batch": 300,
                "other_ge2_steps": 800, "other_ge2_batch": 300,
                "windows": {"a": (1, 2, 3, 4), "b": (1,)},
                "clip_settings": ("a", "b"),
                "test_n": 20_000, "kf_systems": 2000, "pcg_n": 4000, "parity_systems": 64,
                "mask_steps": 800}
    return {"T": 30, "mc_samples": 500_000, "rb_systems": 40_000, "ratio_systems": 40_000,
            "train_T": 30, "train_steps": 8000, "train_batch": 3000, "n_seeds": 3,
            "windows": {"a": (1, 2, 3, 4), "b": (1, 2, 3, 4), "c": (1, 2, 3), "d": (1, 2, 3)},
            "other_steps": 2500, "other_batch": 1500, "other_ge2_steps": 1500, "other_ge2_batch": 1000,
            "s_ge2_steps": 3000, "s_ge2_batch": 1500,
            "clip_settings": ("a", "b", "c", "d"),
            "test_n": 200_000, "kf_systems": 20_000, "pcg_n": 20_000, "parity_systems": 512,
            "mask_steps": 3000}


def _nseeds(cfg, setting, s):
    """Number of training seeds for (setting, window): ``n_seeds`` for AR(1), ``n_seeds_ge2`` else."""
    return cfg["n_seeds"] if s == 1 else cfg.get("n_seeds_ge2", cfg["n_seeds"])


def _prior(setting):
    return lds.make_prior(setting, **PRIOR_DEFAULTS)


def _train_sizes(cfg, setting, s):
    if setting != "a":
        return (cfg["other_steps"], cfg["other_batch"]) if s == 1 else \
            (cfg["other_ge2_steps"], cfg["other_ge2_batch"])
    if s >= 2:
        return cfg["s_ge2_steps"], cfg["s_ge2_batch"]
    return cfg["train_steps"], cfg["train_batch"]


def _train_job(args):
    setting, s, T, steps, batch, seed, support, clip = args
    res = lds.train_linear_attention(T, s, _prior(setting), steps=steps, batch=batch, seed=seed,
                                     lr=0.01, weight_decay=0.0, clip=clip, schedule="cosine",
                                     init_scale=0.1, support=support)
    return res.W_QK, res.W_V, float(np.mean(res.losses[-max(1, steps // 20):]))


def _mask_for(s):
    sv, sw = lds.predicted_support(s)
    mq = np.zeros((s + 1, s + 1), bool)
    mq[:, :s] = sw
    mv = np.zeros((s + 1, s + 1), bool)
    mv[s] = sv
    return mq, mv


def _run_training(ctx, cfg):
    jobs = {}
    T = cfg["train_T"]
    for setting, windows in cfg["windows"].items():
        for s in windows:
            steps, batch = _train_sizes(cfg, setting, s)
            for i in range(_nseeds(cfg, setting, s)):
                jobs[(setting, s, i, "free")] = (setting, s, T, steps, batch,
                                                 ctx.seed_for(f"train-{setting}-s{s}-{i}"), None, None)
    for s in (2, 3, 4):
        steps, batch = _train_sizes(cfg, "a", s)
        jobs[("a", s, 0, "masked")] = ("a", s, T, cfg["mask_steps"], batch,
                                       ctx.seed_for(f"train-a-s{s}-0"), _mask_for(s), None)
    for setting in cfg["clip_settings"]:
        steps, batch = _train_sizes(cfg, "b", 1)          # the (reduced) AR(1) size of settings b-d
        jobs[(setting, 1, 0, "clip1")] = (setting, 1, T, steps, batch,
                                          ctx.seed_for(f"train-{setting}-s1-0"), None, 1.0)
    workers = int(os.environ.get("THEORYCHECK_WORKERS", min(2, os.cpu_count() or 1)))
    # longest jobs first (better packing on the workers); results do not depend on the order
    keys = sorted(jobs, key=lambda k: -jobs[k][3] * jobs[k][4] * (jobs[k][1] + 3))
    ex = ProcessPoolExecutor(max_workers=workers) if workers > 1 else None

    def collect():
        """Block until every run is done; results are independent of scheduling (own seeds)."""
        if ex is None:
            outs = [_train_job(jobs[k]) for k in keys]
        else:
            try:
                outs = [f.result() for f in futures]
            finally:
                ex.shutdown()
        return {k: {"W_QK": o[0], "W_V": o[1], "final_train_loss": o[2], "steps": jobs[k][3],
                    "batch": jobs[k][4], "seed": jobs[k][5]} for k, o in zip(keys, outs)}
    futures = [ex.submit(_train_job, jobs[k]) for k in keys] if ex is not None else []
    return collect


def _test_set(ctx, setting, T, n, name):
    g = np.random.default_rng(ctx.seed_for(name))
    return _prior(setting).sample(g, n).simulate(T, g)


def _claim(**kw):
    return Claim(paper=SEED, **kw)


# ----------------------------------------------------------------------------- claims
def claim_isserlis(ctx, cfg):
    from ..generated import lds_scalar as gs
    T = 8
    g = np.random.default_rng(ctx.seed_for("001-isserlis"))
    pr1 = lds.DiagonalLDSPrior(1, 0.9, 1.0, 0.5, 0.5)
    a = np.array([-0.95, -0.4, 0.15, 0.6, 0.95])
    sysm = lds._scalar_batch(pr1, a)
    K = lds.lds_autocovariance(sysm, T)
    N_e, D_e = lds.wqk_star_moments(K)
    from .. import gaussian
    N_b = np.array([sum(gaussian.moment(Kb, (T - 2, T - 1, i, i + 1)) for i in range(T - 2)) for Kb in K])
    D_b = np.array([sum(gaussian.moment(Kb, (T - 2, T - 2, i, i + 1, j, j + 1)) for i in range(T - 2)
                        for j in range(T - 2)) for Kb in K])
    dev_brute = max(np.max(np.abs(N_b / N_e - 1)), np.max(np.abs(D_b / D_e - 1)))
    devs_poly = {}
    for TT in (8, 30):
        KK = lds.lds_autocovariance(sysm, TT)
        Ne, De = lds.wqk_star_moments(KK)
        Np, Dp = lds._poly_eval_moments(gs.POLY[TT], a, 1.0, 0.5, 0.5)
        devs_poly[TT] = float(max(np.max(np.abs(Np / Ne - 1)), np.max(np.abs(Dp / De - 1))))
    K45 = lds.lds_autocovariance(sysm, 45)
    dev_closed = float(np.max(np.abs(gs.N_scalar_closed(a, 45, 1.0, 0.5, 0.5) / lds.wqk_star_moments(K45)[0] - 1)))
    # Monte Carlo of the two moments for one system (a = 0.8, T = 8)
    one = lds._scalar_batch(pr1, np.array([0.8]))
    Kone = lds.lds_autocovariance(one, T)
    Nx, Dx = lds.wqk_star_moments(Kone)
    n_mc = 200_000 if ctx.quick else 2_000_000
    Y = np.concatenate([lds.LDSBatch(np.repeat(one.A, 100_000, 0), np.repeat(one.c, 100_000, 0),
                                     np.repeat(one.Sigma_w, 100_000, 0), 1.0, 0.5).simulate(T, gg)
                        for gg in rngs(ctx.seed_for("001-isserlis-mc"), n_mc // 100_000)])
    S = np.sum(Y[:, :-2] * Y[:, 1:-1], axis=1)
    cN = compare(Nx[0], from_samples(Y[:, -2] * Y[:, -1] * S))
    cD = compare(Dx[0], from_samples(Y[:, -2] ** 2 * S ** 2))
    ok = dev_brute < 1e-10 and max(devs_poly.values()) < 1e-10 and dev_closed < 1e-9 and cN.agrees and cD.agrees
    return _claim(
        id="001-isserlis-moments", lines=(58, 58), check="symbolic identity",
        verdict="confirmed" if ok else "refuted",
        paraphrase="Isserlis' theorem reduces the higher moments in the AR(1) optimum to products of "
                   "second moments (autocovariances).",
        conventions=["K(s,t) = Cov(y_s, y_t) per system; a = T-1, b = T (1-based).",
                     "scalar LDS: d = 1, c = 1, Sigma_w = sigma_w^2."],
        summary=(f"N = E[y_(T-1) y_T S] is a sum of {gs.N_ISSERLIS_TERMS}-pairing terms and D = E[y_(T-1)^2 S^2] "
                 f"of {gs.D_ISSERLIS_TERMS}-pairing terms; the derivation proves (SymPy, generic symmetric K) "
                 "that their sums equal the trace forms used by the engine, and derives for d = 1 exact "
                 "polynomials in a^2 (T = 3..16, 20, 25, 30; SymPy-verified at T = 3..6). Numerically: "
                 f"brute-force pairing sums vs engine rel. dev. {dev_brute:.1e} (T = 8); generated "
                 f"polynomials vs engine {max(devs_poly.values()):.1e} (T = 8, 30); closed form of N for "
                 f"symbolic T (SymPy geometric sums) vs engine at T = 45: {dev_closed:.1e}; Monte Carlo "
                 f"(n = {n_mc}) z = {cN.z:.2f} (N), {cD.z:.2f} (D)."),
        evidence={"n_pairings_4th": gs.N_ISSERLIS_TERMS, "n_pairings_6th": gs.D_ISSERLIS_TERMS,
                  "brute_vs_engine_max_rel_dev": dev_brute, "poly_vs_engine_max_rel_dev": devs_poly,
                  "closed_form_N_vs_engine_T45": dev_closed,
                  "symbolic_cross_check_T": list(gs.SYMBOLIC_CROSS_CHECK_T),
                  "mc_N": cN.as_dict(), "mc_D": cD.as_dict(), "a_values": a},
        derivation=[gs.LATEX["isserlis_4"], gs.LATEX["isserlis_6"], gs.LATEX["N_trace"], gs.LATEX["D_trace"],
                    gs.LATEX["P_scalar"], gs.LATEX["K_scalar"]])


def claim_exact_vs_mc(ctx, cfg, figs):
    T = cfg["T"]
    rows = {}
    all_ok = True
    for st in "abcd":
        pr = _prior(st)
        ex = lds.wqk_star(T, pr, n_systems=cfg["rb_systems"], seed=ctx.seed_for(f"001-wqk-rb-{st}"))
        mc = lds.simulate_wqk_star(T, pr, cfg["mc_samples"], ctx.seed_for(f"001-wqk-mc-{st}"))
        from ..montecarlo import MeanEstimate
        se_tot = math.hypot(mc.se, ex.se)
        cmp_ = compare(ex.value, MeanEstimate(mc.value, se_tot, mc.n_systems))
        all_ok &= cmp_.agrees
        rows[st] = {"exact": ex.as_dict(), "mc": mc.as_dict(), "z": cmp_.z, "p": cmp_.p_value,
                    "verdict": cmp_.verdict, "prior": pr.describe()}
    from ..figures import new_figure
    fig, ax = new_figure()
    xs = np.arange(4)
    ax.errorbar(xs - 0.1, [rows[s]["exact"]["value"] for s in "abcd"],
                yerr=[1.96 * rows[s]["exact"]["se"] for s in "abcd"], fmt="o", label="exact / Rao-Blackwell")
    ax.errorbar(xs + 0.1, [rows[s]["mc"]["value"] for s in "abcd"],
                yerr=[1.96 * rows[s]["mc"]["se"] for s in "abcd"], fmt="s", label="trajectory MC")
    ax.set_xticks(xs, ["(a)", "(b)", "(c)", "(d)"])
    ax.set_ylabel(r"$W^*_{QK,11}$")
    ax.set_title(f"Theorem 4.1 scalar, d = 5, T = {T} (95% CI)")
    ax.legend()
    figs.append(ctx.save_figure(fig, "lds_wqk_exact_vs_mc"))
    summ = "; ".join(f"({s}) {rows[s]['exact']['method']} {rows[s]['exact']['value']:.5f}"
                     f"{'' if rows[s]['exact']['se'] == 0 else ' ± %.5f' % rows[s]['exact']['se']} vs MC "
                     f"{rows[s]['mc']['value']:.5f} ± {rows[s]['mc']['se']:.5f} (z = {rows[s]['z']:.2f})"
                     for s in "abcd")
    return _claim(
        id="001-thm41-exact-vs-mc", lines=(60, 60), check="exact vs Monte Carlo",
        verdict="confirmed" if all_ok else "refuted",
        paraphrase="Theorem 4.1's scalar (T-2) E[y_{T-1} y_T S] / E[y_{T-1}^2 S^2] computed exactly (Isserlis "
                   "per system, exact or Rao-Blackwellised over the prior) agrees with plain trajectory Monte "
                   "Carlo of the same ratio in all four settings (d = 5, T = 30).",
        conventions=CONVENTIONS[4:5] + ["MC: one system and one trajectory per sample; ratio of sample means "
                                        "with delta-method SE; z-test at alpha = 1e-3 with SE of both sides."],
        summary=summ + ". Settings (a), (c): exact (independent components, 1-D Gauss-Legendre); (b), (d): "
                       f"Rao-Blackwell over {cfg['rb_systems']} systems.",
        evidence={"T": T, "settings": rows, "mc_samples": cfg["mc_samples"]},
        figures=["lds_wqk_exact_vs_mc"])


def claim_global_optimum(ctx, cfg):
    T = cfg["T"]
    out = {}
    ok = True
    for st in ("a", "c", "b"):
        pr = _prior(st)
        mom = lds.stationarity_moments(T, 1, pr, gram=True, n_systems=cfg["rb_systems"],
                                       seed=ctx.seed_for(f"001-opt-{st}"))
        c = np.linalg.solve(mom["gram"], mom["b"])
        w = lds.wqk_star(T, pr, n_systems=cfg["rb_systems"], seed=ctx.seed_for(f"001-opt-w-{st}"))
        Lstar = 0.5 * (mom["Eyy"] - c @ mom["b"])
        L0 = 0.5 * mom["Eyy"]
        rec = {"method": mom["method"], "features": mom["features"], "c_opt": c, "rhs": mom["b"],
               "gram": mom["gram"], "W_star": w.value, "W_star_method": w.method,
               "halved_loss_opt": Lstar, "halved_loss_zero_predictor": L0}
        if mom["method"] == "exact-components":
            scale = np.max(np.abs(mom["b"]))
            rec["max_rel_offstructure_rhs"] = float(max(abs(mom["b"][0]), abs(mom["b"][2])) / scale)
            rec["rel_dev_c12_vs_Wstar"] = float(c[1] / w.value - 1)
            ok &= rec["max_rel_offstructure_rhs"] < 1e-12 and abs(rec["rel_dev_c12_vs_Wstar"]) < 1e-9 \
                and max(abs(c[0]), abs(c[2])) < 1e-9 * abs(c[1])
        else:
            rec["rhs_se"] = mom["R_se"][0][np.triu_indices(2)]
            rec["note"] = "Rao-Blackwell: Gram/rhs are sample averages; off-structure rhs entries are " \
                          "zero only in expectation"
        out[st] = rec
    a = out["a"]
    return _claim(
        id="001-thm41-global-optimum", lines=(58, 60), check="numeric value",
        verdict="confirmed" if ok else "refuted",
        paraphrase="For AR(1) the global optimum of the in-context loss over all W_QK, W_V is (up to scaling) "
                   "W_QK* = diag(w*, 0), W_V* = diag(0, 1) with w* the ratio of expectations.",
        conventions=CONVENTIONS[2:5],
        summary=("The prediction is yhat = sum_{k<=l} C_kl G_kl y_{T-1} with C = sym(v ⊗ W_QK[:,0]); the "
                 "optimal C solves the exact 3x3 normal equations. Setting (a): rhs entries for G11, G22 are "
                 f"{a['max_rel_offstructure_rhs']:.1e} of the G12 entry (zero by the A -> -A symmetry), so "
                 f"C* = ({a['c_opt'][0]:.1e}, {a['c_opt'][1]:.6f}, {a['c_opt'][2]:.1e}) and C*_12 equals "
                 f"w* = {a['W_star']:.6f} (rel. dev {a['rel_dev_c12_vs_Wstar']:.1e}); likewise (c). Realisable "
                 "by the bilinear weights exactly as Theorem 4.1 states. The optimum is NOT unique: any "
                 "(v, W) with v_1 W_11 = v_2 W_21 = 0 and v_1 W_21 + v_2 W_11 = w* attains it — the theorem's "
                 "(v = beta e_2, W_11 = w*/beta) and a 'swapped' branch (v = beta e_1, W_21 = w*/beta) — "
                 "and the first rows of W_V and the last column of W_QK never affect the loss."),
        evidence={"T": T, "settings": out})


def claim_ratio_vs_average(ctx, cfg):
    T = cfg["T"]
    rows = {}
    for st in "ab":
        pr = _prior(st)
        w = lds.wqk_star(T, pr, n_systems=cfg["rb_systems"], seed=ctx.seed_for(f"001-rva-w-{st}"))
        avg = lds.per_system_ratio_average(T, pr, cfg["ratio_systems"], ctx.seed_for(f"001-rva-{st}"))
        # halved-loss excess of using the wrong scalar: (1/2) E[f^2] (c - c*)^2 with f = S y_{T-1}/(T-2)
        Ef2 = w.denominator / (T - 2) ** 2
        Lstar_red = 0.5 * w.value ** 2 * Ef2
        exc = 0.5 * Ef2 * (avg.mean - w.value) ** 2
        z = (avg.mean - w.value) / math.hypot(avg.se, w.se)
        # falsifiable part: run the attention layer with each scalar on a common fresh test set and
        # compare the halved test losses (paired); the ratio of expectations must not lose
        Y = _test_set(ctx, st, T, cfg["mc_samples"] // 3, f"001-rva-test-{st}")
        V = np.array([[0.0, 0.0], [0.0, 1.0]])
        e_star = 0.5 * (lds.attention_predict(np.array([[w.value, 0.0], [0.0, 0.0]]), V, Y) - Y[:, -1]) ** 2
        e_avg = 0.5 * (lds.attention_predict(np.array([[avg.mean, 0.0], [0.0, 0.0]]), V, Y) - Y[:, -1]) ** 2
        dl = from_samples(e_avg - e_star)
        z_loss = dl.mean / dl.se if dl.se > 0 else 0.0
        rows[st] = {"ratio_of_expectations": w.as_dict(), "average_of_ratios": avg.as_dict(),
                    "rel_diff": avg.mean / w.value - 1, "z": z,
                    "excess_halved_loss": exc, "loss_reduction_at_optimum": Lstar_red,
                    "excess_fraction_of_reduction": exc / Lstar_red,
                    "mc_test_loss_avg_minus_star": dl.as_dict(), "z_test_loss": z_loss,
                    "p_star_worse": float(stats.norm.cdf(z_loss))}
    a = rows["a"]
    # verdict rule: refuted iff in some setting the average-of-ratios scalar has a significantly LOWER
    # halved test loss than the ratio of expectations (paired z < -3.09, one-sided p < 1e-3)
    star_loses = [st for st, r in rows.items() if r["z_test_loss"] < -3.09]
    return _claim(
        id="001-thm41-ratio-of-expectations", lines=(60, 60), check="numeric value",
        verdict="refuted" if star_loses else "confirmed",
        paraphrase="The optimal scalar is a ratio of expectations over noise and system prior; the per-system "
                   "optimum averaged over systems is a different number.",
        conventions=CONVENTIONS[4:5],
        summary=(f"Setting (a), T = {T}: ratio of expectations {a['ratio_of_expectations']['value']:.5f} vs average "
                 f"of per-system ratios {a['average_of_ratios']['mean']:.5f} ± {a['average_of_ratios']['se']:.5f} "
                 f"(rel. diff {100 * a['rel_diff']:+.1f} %, z = {a['z']:.1f}); using the average costs "
                 f"{100 * a['excess_fraction_of_reduction']:.2f} % of the loss reduction the optimum achieves. "
                 f"Setting (b): rel. diff {100 * rows['b']['rel_diff']:+.1f} % (z = {rows['b']['z']:.1f}). "
                 "Falsifiable check (verdict rule: refuted iff the average-of-ratios scalar gives a significantly lower "
                 "halved test loss, paired one-sided z < -3.09): attention layer run with each scalar on "
                 f"{cfg['mc_samples'] // 3} fresh prompts per setting, loss(average) - loss(ratio) = " +
                 ", ".join(f"({st}) {r['mc_test_loss_avg_minus_star']['mean']:.3g} ± {r['mc_test_loss_avg_minus_star']['se']:.2g} "
                           f"(z = {r['z_test_loss']:+.2f}; expected {r['excess_halved_loss']:.3g})" for st, r in rows.items()) +
                 (". The ratio of expectations is never significantly worse, consistent with the seed's formula being "
                  "the minimiser (the decisive exact-vs-MC check is 001-thm41-exact-vs-mc)." if not star_loses else
                  f". The ratio of expectations LOSES in setting(s) {star_loses}.")),
        evidence={"T": T, "settings": rows, "verdict_rule": "refuted iff some paired z_test_loss < -3.09"})


def claim_gd_identity(ctx, cfg):
    from ..generated import lds_identities as gi
    T = cfg["T"]
    pr = _prior("a")
    w = lds.wqk_star(T, pr)
    Y = _test_set(ctx, "a", T, 2000, "001-gd-identity")
    att = lds.attention_predict(np.array([[w.value, 0.0], [0.0, 0.0]]), np.array([[0.0, 0.0], [0.0, 1.0]]), Y)
    gd = lds.ar_gd_step_prediction(Y, 1, w.value)
    dev = float(np.max(np.abs(att - gd)) / np.max(np.abs(gd)))
    return _claim(
        id="001-gd-identity", lines=(62, 62), check="symbolic identity",
        verdict="confirmed" if (gi.GD_IDENTITY_SYMBOLIC_T and dev < 1e-12) else "refuted",
        paraphrase="With the optimal weights, the attention output equals the prediction after one gradient-"
                   "descent step on L_AR(1) from w = 0.",
        conventions=CONVENTIONS[2:3] + CONVENTIONS[5:6],
        summary=(f"Proved with SymPy: exact for T = {gi.GD_T_VALUES[0]}..{gi.GD_T_VALUES[-1]} through the full "
                 "forward pass on symbolic y, and for symbolic T in index form. yhat_T = w1 y_{T-1} with "
                 "w1 = -eta grad L_AR(1)(0) = eta (1/(T-2)) sum y_i y_{i+1}; the step size is eta = W*_QK,11 "
                 f"(with the seed's 1/(2(T-s-1)) normalisation). Setting (a), T = {T}: eta = {w.value:.6f}; "
                 f"numeric forward pass vs GD step on 2000 trajectories: max rel. dev. {dev:.1e}."),
        evidence={"T_symbolic": list(gi.GD_T_VALUES), "symbolic_T": gi.GD_IDENTITY_SYMBOLIC_T,
                  "step_size": w.value, "numeric_max_rel_dev": dev},
        derivation=[gi.LATEX["gd_attention"], gi.LATEX["gd_gradient"], gi.LATEX["gd_step"]])


def claim_first_optimality():
    return _claim(
        id="001-first-optimality", lines=(62, 62), check="qualitative shape", verdict="underspecified",
        paraphrase="This is the first optimality result for one-layer attention on LDS (non-i.i.d.) data.",
        conventions=[],
        summary="A priority claim about the literature; it cannot be checked by computation.",
        missing=["a literature survey (not a computable statement)"])


def claim_parity(ctx, cfg):
    from ..generated import lds_identities as gi
    T = cfg["T"]
    per_setting = {}
    ok = True
    for st in "abcd":
        pr = _prior(st)
        sysm = pr.sample(np.random.default_rng(ctx.seed_for(f"001-parity-{st}")), cfg["parity_systems"])
        Kp, Km = sysm.autocovariance(T), sysm.negate().autocovariance(T)
        rec = {}
        for s in (2, 3, 4):
            z = lds.parity_zero_pattern(s)
            Rp, Rm = lds.stationarity_rhs(Kp, s), lds.stationarity_rhs(Km, s)
            scale = np.max(np.abs(Rp))
            odd = float(np.max(np.abs(Rp + Rm)[:, z]) / scale)
            even = float(np.max(np.abs(Rp - Rm)[:, ~z]) / scale)
            rec[s] = {"max_rel_R(A)+R(-A)_on_predicted_zeros": odd, "max_rel_R(A)-R(-A)_elsewhere": even}
            ok &= odd < 1e-12 and even < 1e-12
        per_setting[st] = rec
    pr = _prior("a")
    avg = {}
    for s in (2, 3, 4):
        R = lds.stationarity_moments(T, s, pr)["R"]
        z = lds.parity_zero_pattern(s)
        scale = np.max(np.abs(R))
        zs = set(gi.ZERO_PATTERN[s])
        derived = np.zeros_like(z)
        for (k, l, j) in zs:
            derived[j - 1, k - 1, l - 1] = True
        alternation = []
        for j in range(1, s + 1):
            zero_kl_even = bool(z[j - 1][0, 0])
            alternation.append({"j": j, "s+j": s + j, "pattern": "B0 (zeros at k+l even)" if zero_kl_even
                                else "B1 (zeros at k+l odd)"})
        avg[s] = {"max_rel_on_zeros": float(np.max(np.abs(R[z])) / scale),
                  "min_rel_elsewhere": float(np.min(np.abs(R[~z])) / scale),
                  "n_zero_entries": int(z.sum()), "n_entries": int(z.size),
                  "symbolic_pattern_equals_formula": bool(np.array_equal(derived, z)),
                  "alternation": alternation}
        ok &= avg[s]["max_rel_on_zeros"] < 1e-12 and avg[s]["min_rel_elsewhere"] > 1e-6 and \
            avg[s]["symbolic_pattern_equals_formula"]
    return _claim(
        id="001-lemma41-parity", lines=(54, 54), check="symbolic identity",
        verdict="confirmed" if ok else "refuted",
        paraphrase="By the central symmetry of A's law, the right-hand side of the stationarity condition has "
                   "checkerboard zero patterns B0(s,j) / B1(s,j) that alternate with the parity of s + j.",
        conventions=CONVENTIONS[2:3] + ["R_klj = E[G_kl q_j y_T], G = (1/n) sum_i z_i z_i^T, q_j = y_{T-s+j-1} "
                                        "(1-based k, l in 1..s+1, j in 1..s)."],
        summary=("Derived (SymPy substitution y_t -> (-1)^t y_t, s = 1..4, two horizons): R_klj = 0 whenever "
                 "k + l + j + s is even, i.e. zeros at k + l even (B0) when s + j is even and at k + l odd (B1) "
                 "when s + j is odd — the alternation the seed describes. Numerically (T = "
                 f"{T}): per system R(A) = -R(-A) on the predicted zeros and R(A) = R(-A) elsewhere to "
                 f"rounding in all four settings ({cfg['parity_systems']} systems each); prior average in setting "
                 f"(a) (exact): predicted zeros at most {max(v['max_rel_on_zeros'] for v in avg.values()):.1e} of "
                 f"the largest entry, all other entries at least {min(v['min_rel_elsewhere'] for v in avg.values()):.2e}."),
        evidence={"T": T, "per_system_antisymmetry": per_setting, "prior_average_setting_a": avg},
        derivation=[gi.LATEX["parity"]])


def claim_symmetry_needed(ctx, cfg):
    T = cfg["T"]
    g = np.random.default_rng(ctx.seed_for("001-symmetry-needed"))
    n = cfg["rb_systems"] // 4
    base = _prior("a").sample(g, n)
    A = np.abs(base.A)               # eigenvalues on [0, a_max]: not centrally symmetric
    sysm = lds.LDSBatch(A, base.c, base.Sigma_w, base.sigma0, base.sigma_v)
    s = 2
    R = lds.stationarity_rhs(sysm.autocovariance(T), s)
    z = lds.parity_zero_pattern(s)
    m = R.mean(0)
    se = R.std(0, ddof=1) / math.sqrt(n)
    zs = np.abs(m[z]) / se[z]
    return _claim(
        id="001-symmetry-needed", lines=(98, 98), check="numeric value",
        verdict="confirmed" if np.min(zs) > 5 else "refuted",
        paraphrase="The banded (checkerboard) zero structure comes from the central symmetry of A's law.",
        conventions=["Control experiment: setting (a) but eigenvalues |a_k| ~ U[0, 0.95] (not symmetric)."],
        summary=(f"Without central symmetry the predicted zeros of R (s = 2, T = {T}) are clearly non-zero: "
                 f"smallest |mean|/SE over the {int(z.sum())} entries = {np.min(zs):.1f} "
                 f"(Rao-Blackwell, {n} systems); with the symmetric prior they vanish exactly (claim "
                 "001-lemma41-parity). The structure is a consequence of the symmetry, as stated."),
        evidence={"T": T, "s": s, "n_systems": n, "z_scores_on_predicted_zeros": zs,
                  "R_mean": m, "R_se": se})


def _rel_ci(vals, level=0.95):
    vals = np.asarray(vals, float)
    m = float(vals.mean())
    if vals.size < 2:
        return m, float("nan"), [float("nan"), float("nan")]
    se = float(vals.std(ddof=1) / math.sqrt(vals.size))
    tq = float(stats.t.ppf(0.5 + level / 2, vals.size - 1))
    return m, se, [m - tq * se, m + tq * se]


def claim_trained_ar1(ctx, cfg, runs):
    T = cfg["train_T"]
    tol = 0.05
    rows = {}
    ok = True
    sts = [st for st in "abcd" if 1 in cfg["windows"].get(st, ())]
    for st in sts:
        pr = _prior(st)
        w = lds.wqk_star(T, pr, n_systems=cfg["rb_systems"], seed=ctx.seed_for(f"001-tr1-w-{st}"))
        rels, offs, branches = [], [], []
        for i in range(_nseeds(cfg, st, 1)):
            r = runs[(st, 1, i, "free")]
            C = lds.effective_coefficients(r["W_QK"], r["W_V"])[:, :, 0]
            rels.append(C[0, 1] / w.value - 1)
            offs.append(max(abs(C[0, 0]), abs(C[1, 1])) / abs(C[0, 1]))
            v = r["W_V"][1]
            branches.append("theorem (v ~ e2, W_QK ~ e1e1^T)" if abs(v[1]) > abs(v[0]) else
                            "swapped (v ~ e1, W_QK ~ e2e1^T)")
        m, se_seeds, _ = _rel_ci(rels)
        # CI across seeds (t, df = n-1) widened by the standard error of w* itself (Rao-Blackwell routes)
        se = math.hypot(se_seeds, w.se / abs(w.value)) if np.isfinite(se_seeds) else float("nan")
        nseed = len(rels)
        tq = float(stats.t.ppf(0.975, nseed - 1)) if nseed > 1 else float("nan")
        ci = [m - tq * se, m + tq * se]
        clip_rel = None
        if (st, 1, 0, "clip1") in runs:
            rc = runs[(st, 1, 0, "clip1")]
            clip_rel = float(lds.effective_coefficients(rc["W_QK"], rc["W_V"])[0, 1, 0] / w.value - 1)
        rows[st] = {"W_star": w.as_dict(), "rel_err_per_seed": rels, "rel_err_with_clip1_seed0": clip_rel, "rel_err_mean": m, "rel_err_se": se,
                    "rel_err_ci95_t": ci, "max_offstructure_ratio": max(offs), "branches": branches,
                    "steps": runs[(st, 1, 0, "free")]["steps"], "batch": runs[(st, 1, 0, "free")]["batch"],
                    "seeds": [runs[(st, 1, i, "free")]["seed"] for i in range(_nseeds(cfg, st, 1))]}
        agrees = bool(np.isfinite(ci[0]) and max(abs(ci[0]), abs(ci[1])) <= tol and max(offs) <= tol)
        disagrees = bool(np.isfinite(ci[0]) and (ci[0] > 0 or ci[1] < 0) and abs(m) > tol)
        rows[st]["status"] = "agrees" if agrees else "deviates" if disagrees else "inconclusive"
        ok &= agrees
    summ = "; ".join(f"({s}) rel. err of C_12 vs w* = {100 * rows[s]['rel_err_mean']:+.2f} % "
                     f"[95% t-CI {100 * rows[s]['rel_err_ci95_t'][0]:+.2f}, {100 * rows[s]['rel_err_ci95_t'][1]:+.2f}], "
                     f"off-structure |C_11|,|C_22| <= {100 * rows[s]['max_offstructure_ratio']:.2f} % of C_12"
                     for s in sts)
    clipped = {st: rows[st]["rel_err_with_clip1_seed0"] for st in rows if rows[st]["rel_err_with_clip1_seed0"] is not None}
    if clipped:
        cs, cb = _train_sizes(cfg, "b", 1)
        summ += (f". Runs with global-norm gradient clipping at 1 (the paper clips; threshold not given; seed 0, "
                 f"{cs} steps, batch {cb}): "
                 + ", ".join(f"({st}) {100 * v:+.1f} %" for st, v in clipped.items()) +
                 " — clipping heavy-tailed stochastic gradients moves the fixed point away from the optimum, so "
                 "clipped training is a biased check of Theorem 4.1")
    if not ok:
        summ += (". Not every setting meets the pre-set tolerance (" +
                 ", ".join(f"({s}) {rows[s]['status']}" for s in sts) + "). A trained run that has not "
                 "converged says nothing against the theorem (its exact optimum is confirmed in "
                 "001-thm41-global-optimum); the optimiser settings that would make training converge as in the "
                 "paper are not given")
    return _claim(
        id="001-thm41-trained", lines=(91, 91), check="numeric value",
        verdict="confirmed" if ok else "underspecified",
        missing=[] if ok else ["learning rate", "schedule lengths", "weight decay", "clip threshold",
                               "initialisation"] + MISSING_PRIOR,
        paraphrase="In all four settings, trained AR(1) attention converges to the Theorem 4.1 structure and value.",
        conventions=CONVENTIONS[2:4] + [
            "Compared up to the loss-invariant symmetries: only the effective coefficients C_kl = "
            "sym(v ⊗ W_QK[:,0]) enter (v = last row of W_V); theorem structure = (C_11, C_12, C_22) = (0, w*, 0).",
            "CI: Student t over seeds (df = seeds - 1) with the SE of w* (Rao-Blackwell in settings b, d) added in "
            "quadrature.",
            f"Acceptance (fixed before the runs): 95 % t-CI of the relative error within ±{100 * tol:.0f} % and "
            f"off-structure coefficients below {100 * tol:.0f} % of C_12 (the paper reports agreement only "
            "visually).",
            "Adam (no weight decay, no clipping), lr 0.01, 5 % linear warm-up, cosine decay to 0, init "
            "N(0, 0.1^2), fresh batches every step."],
        summary=summ + f". T = {T}, {cfg['n_seeds']} seeds per setting; settings run: {', '.join(sts)}.",
        evidence={"T": T, "settings": rows, "tolerance": tol})


def _support_jaccard(W_QK, W_V, s, thr):
    rel = np.concatenate([np.abs(W_V[s]), np.abs(W_QK[:, :s]).ravel()])
    vs = np.abs(W_V[s]) / np.max(np.abs(W_V[s]))
    ws = np.abs(W_QK[:, :s]) / np.max(np.abs(W_QK[:, :s]))
    learned = np.concatenate([vs > thr, (ws > thr).ravel()])
    best = None
    for k0 in (0, 1):
        sv, sw = lds.predicted_support(s, k0)
        pred = np.concatenate([sv, sw.ravel()])
        jd = lds.jaccard_distance(learned, pred)
        if best is None or jd < best[0]:
            best = (jd, k0)
    del rel
    return best


def claim_checkerboard(ctx, cfg, runs, figs):
    thrs = (0.05, 0.1, 0.2)
    rows = {}
    T = cfg["train_T"]
    for st, windows in cfg["windows"].items():
        for s in windows:
            if s < 2:
                continue
            per = []
            for i in range(_nseeds(cfg, st, s)):
                r = runs[(st, s, i, "free")]
                per.append({f"thr{t}": _support_jaccard(r["W_QK"], r["W_V"], s, t)[0] for t in thrs})
            rows[f"{st}-s{s}"] = {"jaccard_per_seed": per,
                                  "mean_jaccard_thr0.1": float(np.mean([p["thr0.1"] for p in per])),
                                  "min_over_thresholds_mean": float(min(np.mean([p[f"thr{t}"] for p in per])
                                                                        for t in thrs)),
                                  "steps": runs[(st, s, 0, "free")]["steps"],
                                  "batch": runs[(st, s, 0, "free")]["batch"]}
    # loss comparison: structured (masked) training vs free training, same test set
    masked = {}
    for s in (2, 3, 4):
        Y = _test_set(ctx, "a", T, cfg["test_n"], f"001-checker-test-s{s}")
        rm = runs[("a", s, 0, "masked")]
        lm = 0.5 * (lds.attention_predict(rm["W_QK"], rm["W_V"], Y) - Y[:, -1]) ** 2
        frees = []
        for i in range(_nseeds(cfg, "a", s)):
            rf = runs[("a", s, i, "free")]
            lf = 0.5 * (lds.attention_predict(rf["W_QK"], rf["W_V"], Y) - Y[:, -1]) ** 2
            dlt = from_samples(lf - lm)
            frees.append({"halved_loss_free": float(lf.mean()), "diff_free_minus_structured": dlt.mean,
                          "diff_se": dlt.se, "z": dlt.mean / dlt.se})
        masked[s] = {"halved_loss_structured": float(lm.mean()), "free_runs": frees,
                     "structured_steps": rm["steps"]}
    from ..figures import new_figure
    fig, axes = new_figure(ncols=3, nrows=2, width=3.0, height=2.8)
    for col, s in enumerate((2, 3, 4)):
        for row, kind in enumerate(("free", "masked")):
            ax = axes[row][col]
            r = runs[("a", s, 0, kind)]
            mat = np.vstack([r["W_QK"][:, :s].T, r["W_V"][s][None, :]])     # rows: W_QK columns j, then v
            ax.imshow(np.abs(mat) / np.max(np.abs(mat)), cmap="Greys", vmin=0, vmax=1)
            sv, sw = lds.predicted_support(s)
            pred = np.vstack([sw.T, sv[None, :]])
            yy, xx = np.nonzero(pred)
            ax.scatter(xx, yy, marker="o", facecolors="none", edgecolors="r", s=60)
            ax.set_title(f"AR({s}) {'trained' if kind == 'free' else 'restricted'}", fontsize=8)
            ax.set_xticks([])
            ax.set_yticks([])
            ax.grid(False)
    fig.suptitle("|W_QK[:, :s]^T| (rows j) and |v| (last row); red: predicted support", fontsize=8)
    figs.append(ctx.save_figure(fig, "lds_trained_support"))
    mean_j = {k: v["mean_jaccard_thr0.1"] for k, v in rows.items()}
    all_zero = all(v == 0 for v in mean_j.values())
    struct_not_worse = all(all(f["z"] > -3 for f in masked[s]["free_runs"]) for s in masked)
    verdict = "confirmed" if all_zero else "underspecified"
    summ = ("Mean Jaccard distance (threshold 10 % of the largest |entry| of v resp. W_QK[:, :s]; best of the "
            "two parity branches k0) between learned and predicted supports: " +
            ", ".join(f"{k}: {v:.2f}" for k, v in mean_j.items()) + " (best threshold of 5/10/20 %: " +
            ", ".join(f"{k}: {v['min_over_thresholds_mean']:.2f}" for k, v in rows.items()) + "). ")
    summ += ("Structured (checkerboard-restricted, 1 seed) vs free training, halved test loss on a common test "
             "set (paired z of free minus structured): " +
             ", ".join(f"s={s}: {masked[s]['halved_loss_structured']:.4f} vs "
                       + "/".join(f"{f['halved_loss_free']:.4f} (z = {f['z']:+.1f})" for f in masked[s]['free_runs'])
                       for s in masked) +
             (" — the structured class is never significantly worse." if struct_not_worse else
              " — neither class is uniformly better (z < -3 means the free run is better); the bilinear loss has "
              "several local optima, within and outside the structured class."))
    if not all_zero:
        summ += (" Our trained weights do not all land on the checkerboard; the learning rate, weight decay, "
                 "initialisation and batch sizes for s >= 2 are not given in the source, so the reproduction "
                 "is inconclusive rather than a refutation.")
    return _claim(
        id="001-lemma41-trained-support", lines=(84, 87), check="numeric value", verdict=verdict,
        paraphrase="For AR(2-4) (and settings b-d) the trained weights fall on the checkerboard (banded parity) "
                   "sparsity pattern, quantified by the Jaccard distance of supports.",
        conventions=CONVENTIONS[2:4] + [
            "Predicted support: v (last row of W_V) on indices k ≡ k0 (mod 2), W_QK[:, :s] on {(l, j): l + j + k0 + s "
            "odd}; the other entries of W_V and the last column of W_QK do not affect the loss and are excluded."],
        summary=summ, evidence={"T": T, "runs": rows, "structured_vs_free": masked},
        figures=["lds_trained_support"],
        missing=[] if all_zero else ["learning rate", "weight decay", "warm-up length", "gradient-clip threshold",
                                     "initialisation", "batch size for s >= 2", "support threshold"])


def claim_s2_constrained(ctx, cfg, runs):
    """s = 2: the unconstrained optimum over the effective coefficients is not realisable."""
    T = cfg["train_T"]
    s = 2
    pr = _prior("a")
    mom = lds.stationarity_moments(T, s, pr, gram=True)
    F, Gm, b, Eyy = mom["features"], mom["gram"], mom["b"], mom["Eyy"]
    c = np.linalg.solve(Gm, b)
    Lstar = 0.5 * (Eyy - c @ b)
    m1 = lds.stationarity_moments(T, 1, pr, gram=True)
    L1 = 0.5 * (m1["Eyy"] - np.linalg.solve(m1["gram"], m1["b"]) @ m1["b"])
    eigs = {}
    max_rank_needed = 0
    for j in range(1, s + 1):
        S = np.zeros((s + 1, s + 1))
        for (k, l, jj), ci in zip(F, c):
            if jj == j:
                if k == l:
                    S[k - 1, k - 1] = ci
                else:
                    S[k - 1, l - 1] = S[l - 1, k - 1] = ci / 2
        ev = np.linalg.eigvalsh(S)
        tol = 1e-9 * np.max(np.abs(ev))
        npos, nneg = int(np.sum(ev > tol)), int(np.sum(ev < -tol))
        eigs[j] = {"eigenvalues": ev, "n_pos": npos, "n_neg": nneg}
        max_rank_needed = max(max_rank_needed, npos, nneg)

    def loss_of(W, V):
        C = lds.effective_coefficients(W, V)
        cv = np.array([C[k - 1, l - 1, j - 1] for (k, l, j) in F])
        return float(0.5 * (Eyy - 2 * cv @ b + cv @ Gm @ cv))
    trained = {kind: [loss_of(runs[("a", s, i, kind)]["W_QK"], runs[("a", s, i, kind)]["W_V"])
                      for i in range(_nseeds(cfg, "a", s) if kind == "free" else 1)]
               for kind in ("free", "masked")}
    best = min(min(v) for v in trained.values())
    not_realisable = max_rank_needed >= 2
    return _claim(
        id="001-ar2-constrained-optimum", lines=(104, 104), check="numeric value",
        verdict="confirmed" if (not_realisable and best >= Lstar - 1e-12) else "refuted",
        paraphrase="For s >= 2 there is no closed-form global optimum (Theorem 4.1 covers only AR(1)).",
        conventions=CONVENTIONS[2:4] + [
            "yhat = sum_{k<=l, j} C_klj G_kl q_j with C = sym(v ⊗ W_QK[:, j]); for fixed j the symmetric matrix "
            "S_j (S_kk = C_kkj, S_kl = C_klj / 2) equals (v w^T + w v^T)/2, which has at most one positive and one "
            "negative eigenvalue.", "Losses halved and exact (Isserlis, setting (a)); trained weights evaluated "
            "through the exact quadratic form."],
        summary=(f"AR(2), setting (a), T = {T}: the unconstrained optimum of the loss over the 12 effective "
                 f"coefficients (exact normal equations) has halved loss {Lstar:.6f} (AR(1) optimum {L1:.6f}); its "
                 f"coefficient matrices S_j have inertia " +
                 ", ".join(f"j={j}: (+{e['n_pos']}, -{e['n_neg']})" for j, e in eigs.items()) +
                 (", so it is NOT realisable by one attention layer (which allows at most one eigenvalue of each "
                  "sign): the AR(2) optimum is a genuinely bilinear-constrained problem, not a linear solve as for "
                  "AR(1)." if not_realisable else ", so it would be realisable.") +
                 f" Trained weights reach {best:.6f} (excess over the unconstrained bound "
                 f"{best - Lstar:.2e}, i.e. {100 * (best - Lstar) / Lstar:.3f} %)."),
        evidence={"T": T, "features": F, "c_unconstrained": c, "halved_loss_unconstrained": Lstar,
                  "halved_loss_ar1_optimum": L1, "S_inertia": eigs, "trained_halved_losses": trained})


def claim_block16():
    from ..generated import lds_identities as gi
    return _claim(
        id="001-eq16-block-structure", lines=(66, 66), check="symbolic identity", verdict="confirmed",
        paraphrase="(1/(T-s-1)) times the token Gram matrix arranges the Hessian of L_AR(s), its gradient at 0 "
                   "and a scalar gamma as a symmetric block matrix.",
        conventions=CONVENTIONS[2:3] + CONVENTIONS[5:6],
        summary=("Verified with SymPy for (s, T) in " + ", ".join(str(c) for c in gi.BLOCK_CASES) +
                 ": (1/n) Y0 M Y0^T = [[∇²L_AR(s), -∇L_AR(s)(0)], [-∇L_AR(s)(0)^T, gamma]], gamma = (1/n) sum y_{t+s}^2. "
                 "The off-diagonal block is MINUS the gradient at 0 (the seed does not show the sign)."),
        evidence={"cases": [list(c) for c in gi.BLOCK_CASES]},
        derivation=[gi.LATEX["block16"]])


def claim_pred17(ctx, cfg):
    from ..generated import lds_identities as gi
    # numeric check of the PCG span and the s = 1 reduction on random data
    g = np.random.default_rng(ctx.seed_for("001-eq17"))
    Y = _prior("a").sample(g, 500).simulate(cfg["T"], g)
    W = g.standard_normal((5, 5))
    V = g.standard_normal((5, 5))
    q = lds.pcg_quantities(W, V, Y)
    pred_dev = float(np.max(np.abs(q["pred_att"] - lds.attention_predict(W, V, Y))) /
                     np.max(np.abs(q["pred_att"])))
    G, _ = lds._gram_query(Y, 4)
    H, g0 = G[:, :4, :4], -G[:, :4, 4]
    P = W[:4, :4].T
    b1 = g0 @ P.T
    b2 = np.einsum("bij,bj->bi", H, b1) @ P.T
    basis = np.stack([b1, b2], axis=2)                                    # (B, 4, 2)
    span_res = max(float(np.linalg.norm(basis[b] @ np.linalg.lstsq(basis[b], q["w_pcg"][b], rcond=None)[0]
                                        - q["w_pcg"][b]) / np.linalg.norm(q["w_pcg"][b])) for b in range(50))
    W1 = np.array([[0.3, 0.0], [0.0, 0.0]])
    V1 = np.array([[0.0, 0.0], [0.0, 1.0]])
    q1 = lds.pcg_quantities(W1, V1, Y)
    cos1 = float(np.min(np.abs(q1["cos_att_pcg"])))
    ok = pred_dev < 1e-10 and cos1 > 1 - 1e-12 and span_res < 1e-8
    return _claim(
        id="001-eq17-eq18-form", lines=(68, 70), check="symbolic identity",
        verdict="confirmed" if ok else "refuted",
        paraphrase="The attention predictor can be written P ∇²L q + xi1 P ∇L(0) + xi2 p (Eq. 17); two PCG steps "
                   "give tau1 P ∇²L P ∇L(0) + tau2 P ∇L(0) (Eq. 18); for AR(1) the PCG variant reduces to GD.",
        conventions=CONVENTIONS[2:3] + ["Reconstruction (the seed does not define P, q, p, xi): P = (W_QK[:s,:s])^T, "
                                        "q = W_V[s, :s], p = W_QK[s, :s], xi1 = -W_V[s,s], "
                                        "xi2 = gamma W_V[s,s] - ∇L(0)^T q (0-based rows)."],
        summary=("Eq. 17 holds as an exact identity for general weights under our reconstruction of P, q, p, xi "
                 f"(SymPy, (s, T) in {list(gi.PREDICTOR_FORM_CASES)}; numerically {pred_dev:.1e}). Two PCG steps "
                 "from 0 lie in span{P∇L(0), P∇²L P∇L(0)} (Eq. 18; s = 4, random weights, max relative residual "
                 f"of the projection onto that span {span_res:.1e}). For s = 1 every vector is a scalar, so the "
                 f"PCG iterate and the attention predictor are collinear with the GD step (min |cos| = {cos1:.12f})."),
        evidence={"cases": [list(c) for c in gi.PREDICTOR_FORM_CASES], "numeric_pred_dev": pred_dev,
                  "pcg_span_max_rel_residual": span_res,
                  "s1_min_abs_cos": cos1},
        derivation=[gi.LATEX["pred17"]])


def claim_pcg_cosines(ctx, cfg, runs):
    T = cfg["train_T"]
    out = {}
    for st in ("a", "b"):
        if 4 not in cfg["windows"].get(st, ()):
            continue
        Y = _test_set(ctx, st, T, cfg["pcg_n"], f"001-pcg-{st}")
        per = []
        for i in range(_nseeds(cfg, st, 4)):
            r = runs[(st, 4, i, "free")]
            q = lds.pcg_quantities(r["W_QK"], r["W_V"], Y)
            per.append({k: float(np.mean(v)) for k, v in q.items() if k.startswith("cos")} |
                       {f"{k}_sd": float(np.std(v)) for k, v in q.items() if k.startswith("cos")})
        out[st] = {"per_seed": per,
                   "cos_att_pcg_mean_over_seeds": float(np.mean([p["cos_att_pcg"] for p in per])),
                   "cos_att_pcg_sd_over_seeds": float(np.std([p["cos_att_pcg"] for p in per], ddof=1))
                   if len(per) > 1 else float("nan"),
                   "cos_first_terms_mean": float(np.mean([p["cos_first_terms"] for p in per])),
                   "cos_p_z0_mean": float(np.mean([p["cos_p_z0"] for p in per]))}
    readings = {}
    if ("a", 4, 0, "masked") in runs:
        Y = _test_set(ctx, "a", T, cfg["pcg_n"], "001-pcg-a")
        r = runs[("a", 4, 0, "masked")]
        q = lds.pcg_quantities(r["W_QK"], r["W_V"], Y)
        out["a_structured"] = {k: float(np.mean(v)) for k, v in q.items() if k.startswith("cos")}
        for pc in ("P", "PT", "Psym"):
            qq = lds.pcg_quantities(r["W_QK"], r["W_V"], Y, preconditioner=pc)
            wa, wp = qq["w_att"].mean(0), qq["w_pcg"].mean(0)
            readings[pc] = {"per_sequence_mean": float(np.mean(qq["cos_att_pcg"])),
                            "per_sequence_median": float(np.median(qq["cos_att_pcg"])),
                            "cos_of_mean_directions": float(wa @ wp / np.linalg.norm(wa) / np.linalg.norm(wp)),
                            "cos_p_z0_mean": float(np.mean(qq["cos_p_z0"]))}
        out["a_structured_readings"] = readings
    seed_vals = {"a": "0.88 ± 0.05", "b": "0.93 ± 0.01", "p_vs_preconditioned_residual": "≈ -0.99"}
    summ = "; ".join(f"({st}) cos(w_att, w_PCG) = {v['cos_att_pcg_mean_over_seeds']:.2f} "
                     + (f"(sd over seeds {v['cos_att_pcg_sd_over_seeds']:.2f})"
                        if np.isfinite(v['cos_att_pcg_sd_over_seeds']) else "(single seed)") +
                     ", cos(PHq, PHPg0) = "
                     f"{v['cos_first_terms_mean']:.2f}, cos(p, -P g0) = {v['cos_p_z0_mean']:.2f}"
                     for st, v in out.items() if st in ("a", "b"))
    if "a_structured" in out:
        v = out["a_structured"]
        summ += (f"; (a) checkerboard-restricted AR(4) weights: cos(w_att, w_PCG) = {v['cos_att_pcg']:.2f}, "
                 f"cos(PHq, PHPg0) = {v['cos_first_terms']:.2f}, cos(p, -P g0) = {v['cos_p_z0']:.2f}, "
                 f"cos(p, residual after 2 steps) = {v['cos_p_z2']:.2f}")
    if readings:
        summ += ("; other readings for the restricted weights (preconditioner P / P^T / sym(P)): per-sequence "
                 "median " + " / ".join(f"{readings[k]['per_sequence_median']:.2f}" for k in readings) +
                 ", cosine of the dataset-mean directions " +
                 " / ".join(f"{readings[k]['cos_of_mean_directions']:.2f}" for k in readings))
    return _claim(
        id="001-pcg-cosines", lines=(70, 70), check="numeric value", verdict="underspecified",
        paraphrase="For AR(4) the cosine similarity between the attention predictor's direction and the 2-step "
                   "PCG direction is 0.88 ± 0.05 (setting a) and 0.93 ± 0.01 (setting b); p is anti-aligned with "
                   "the preconditioned residual (cos ≈ -0.99).",
        conventions=CONVENTIONS[2:4] + ["Per-sequence cosines averaged over a test set; mean ± sd over seeds.",
                                        "w_PCG: 2 PCG steps from 0 with z = P r, exact line search."],
        summary=(summ + f" (T = {T}). Seed: {seed_vals}. Our reconstruction of Eq. 17 is exact (claim "
                 "001-eq17-eq18-form), but which vectors the paper compares, how it averages (per sequence or "
                 "over the dataset), the conjugate-direction initialisation 'q', the preconditioner convention "
                 "(P or P^-1, P not symmetric) and the data priors are not given, so the seed's numbers cannot "
                 "be reproduced unambiguously."),
        evidence={"T": T, "results": out, "seed_values": seed_vals},
        missing=["definition of the compared directions and of the 'preconditioned residual'",
                 "averaging protocol behind ± (seeds or sequences)", "PCG variant for non-symmetric P"] + MISSING_PRIOR)


def claim_kf(ctx, cfg, runs, figs):
    T = cfg["train_T"]
    st = "a"
    pr = _prior(st)
    g = np.random.default_rng(ctx.seed_for("001-kf"))
    sysm = pr.sample(g, cfg["kf_systems"])
    kf = lds.kalman_one_step_mse(sysm, T)
    kf_mean, kf_se = float(kf.mean()), float(kf.std(ddof=1) / math.sqrt(kf.size))
    s_or = list(range(1, min(T - 1, 12) + 1))
    oracle = {s: float(lds.oracle_ar_mse(sysm, T, s).mean()) for s in s_or}
    Y = _test_set(ctx, st, T, cfg["test_n"], "001-kf-test")
    ls = {}
    for s in range(1, 9):
        if T - s - 1 < s + 1:
            break
        e = lds.ar_least_squares_predict(Y, s) - Y[:, -1]
        est = from_samples(e ** 2)
        ls[s] = {"mse": est.mean, "se": est.se}
    att = {}
    for s in cfg["windows"][st]:
        vals = []
        for i in range(_nseeds(cfg, st, s)):
            r = runs[(st, s, i, "free")]
            e = lds.attention_predict(r["W_QK"], r["W_V"], Y) - Y[:, -1]
            vals.append(float(np.mean(e ** 2)))
        att[s] = {"mse_per_seed": vals, "mse_mean": float(np.mean(vals))}
    best_att = min(v["mse_mean"] for v in att.values())
    ratio_att = best_att / kf_mean
    # figure
    from ..figures import new_figure
    fig, ax = new_figure()
    ax.axhline(kf_mean, color="k", ls="--", label="Kalman filter (known system)")
    ax.plot(s_or, [oracle[s] for s in s_or], "o-", label="oracle AR(s) (known system)")
    ax.plot(list(ls), [ls[s]["mse"] for s in ls], "s-", label="in-context AR(s) least squares")
    ax.plot(list(att), [att[s]["mse_mean"] for s in att], "^-", label="trained linear attention AR(s)")
    ax.set_ylim(0.97 * kf_mean, 1.35 * max(v["mse_mean"] for v in att.values()))
    ax.set_xlabel("window s (least squares beyond the top edge are off-scale)")
    ax.set_ylabel("one-step MSE (not halved)")
    ax.set_title(f"Setting (a), d = 5, T = {T}")
    ax.legend(fontsize=7)
    figs.append(ctx.save_figure(fig, "lds_kf_baseline"))
    gap_att = ratio_att - 1
    best_s = min(att, key=lambda k: att[k]["mse_mean"])
    e_best = np.stack([(lds.attention_predict(runs[(st, best_s, i, "free")]["W_QK"],
                                              runs[(st, best_s, i, "free")]["W_V"], Y) - Y[:, -1]) ** 2
                       for i in range(_nseeds(cfg, st, best_s))]).mean(0)
    se_best = float(e_best.std(ddof=1) / math.sqrt(e_best.size))
    gap_lo = (float(e_best.mean()) - 1.96 * math.hypot(se_best, kf_se)) / kf_mean - 1
    gap_hi = (float(e_best.mean()) + 1.96 * math.hypot(se_best, kf_se)) / kf_mean - 1
    margin = 0.05
    # the size of the gap depends on the (unstated) priors, so a gap above the margin is reported as
    # 'underspecified' with the numbers, not as a refutation under every reading
    verdict = "confirmed" if gap_hi < margin else "underspecified"
    best_ls = min(ls, key=lambda k: ls[k]["mse"])
    trend = att[max(att)]["mse_mean"] - att[min(att)]["mse_mean"]
    return _claim(
        id="001-kf-one-layer", lines=(100, 100), check="numeric value", verdict=verdict,
        paraphrase="The GD -> PCG reading explains why single-layer attention can match the Kalman filter; a larger "
                   "window gives a stronger implicit algorithm.",
        conventions=CONVENTIONS[:2] + ["MSE not halved; KF = exact time-varying Kalman predictor of y_T from "
                                       "y_1..y_{T-1} for the known system, averaged over the prior; oracle AR(s) = "
                                       "best linear predictor from the last s observations for the known system; "
                                       "least squares = in-context fit of L_AR(s) on the prompt."],
        summary=(f"Setting (a), T = {T}: KF MSE {kf_mean:.4f} ± {kf_se:.4f}; oracle AR(s) " +
                 ", ".join(f"s={s}: {oracle[s]:.4f}" for s in (1, 2, 4, 8) if s in oracle) +
                 "; in-context least squares " + ", ".join(f"s={s}: {ls[s]['mse']:.4f}" for s in ls) +
                 "; trained one-layer linear attention " + ", ".join(f"s={s}: {att[s]['mse_mean']:.4f}" for s in att) +
                 f". Best attention (s = {best_s}) is {100 * gap_att:.1f} % above the KF (95 % CI "
                 f"[{100 * gap_lo:.1f}, {100 * gap_hi:.1f}] %); from s = {min(att)} to s = {max(att)} its MSE changes "
                 f"by {trend:+.4f}. In-context least squares is best at s = {best_ls} ({ls[best_ls]['mse']:.4f}, "
                 f"{100 * (ls[best_ls]['mse'] / kf_mean - 1):.1f} % above the KF). "
                 f"Criterion (stated here, the seed gives none): 'matches' = excess MSE below {100 * margin:.0f} %. "
                 "The oracle AR(s) predictors (known system) approach the KF quickly (claim "
                 "001-ar-approximation-exponential); whether the trained single layer gets within the margin is "
                 + ("shown here." if verdict == "confirmed" else
                    "NOT supported for our priors; how large the gap is depends on the noise levels and the "
                    "eigenvalue law, which the source does not give.") +
                 " The GPT-2 observation (Du et al.) concerns a different model."),
        evidence={"T": T, "kf_mse": kf_mean, "kf_se": kf_se, "kf_systems": cfg["kf_systems"],
                  "oracle_ar_mse": oracle, "ls_ar_mse": ls, "attention_mse": att,
                  "attention_over_kf": ratio_att, "gap_ci95": [gap_lo, gap_hi], "margin": margin,
                  "best_window": best_s, "test_n": cfg["test_n"]},
        figures=["lds_kf_baseline"],
        missing=[] if verdict != "underspecified" else ["a quantitative meaning of 'matches'",
                                                         "the paper's own KF comparison for the one-layer model"]
        + MISSING_PRIOR)


def claim_ar_exponential(ctx, cfg):
    T = cfg["T"]
    pr = _prior("a")
    g = np.random.default_rng(ctx.seed_for("001-ar-exp"))
    n = min(cfg["kf_systems"], 4000)
    sysm = pr.sample(g, n)
    kf = lds.kalman_one_step_mse(sysm, T)
    rho = lds.steady_state_closed_loop_radius(sysm)
    svals = np.arange(1, 16)
    gaps = np.stack([lds.oracle_ar_mse(sysm, T, int(s)) - kf for s in svals], axis=1)   # (n, S)
    gaps = np.maximum(gaps, 1e-300)
    # per-system log-linear fit over s where the gap is above rounding
    fitted, predicted = [], []
    for b in range(n):
        m = gaps[b] > 1e-11 * kf[b]
        if m.sum() >= 4:
            sl = np.polyfit(svals[m], np.log(gaps[b, m]), 1)[0]
            fitted.append(math.exp(sl))
            predicted.append(rho[b] ** 2)
    fitted, predicted = np.array(fitted), np.array(predicted)
    corr = float(np.corrcoef(np.log(fitted), np.log(predicted))[0, 1])
    med_ratio = float(np.median(np.log(fitted) / np.log(predicted)))
    mean_gap = gaps.mean(0) / kf.mean()
    s_eps = {eps: int(svals[np.argmax(mean_gap < eps)]) if np.any(mean_gap < eps) else None
             for eps in (0.1, 0.01, 0.001)}
    ok = bool(np.all(rho < 1)) and corr > 0.8
    koz = _claim(
        id="001-ar-approaches-kf", lines=(50, 50), check="numeric value",
        verdict="confirmed" if (s_eps[0.01] is not None and mean_gap[-1] < 1e-3) else "refuted",
        paraphrase="For a finite family of LDS there is a window s(eps) such that the optimal AR(s) predictor's "
                   "average error is within eps of the optimal Kalman filter (Kozdoba et al.).",
        conventions=CONVENTIONS[:2] + ["relative gap = prior average of (oracle AR(s) MSE - KF MSE) / prior average "
                                       "of KF MSE; oracle AR(s) knows the system (not in-context)."],
        summary=(f"Setting (a), T = {T}, {n} systems: relative gap " +
                 ", ".join(f"s={int(sv)}: {mean_gap[i]:.2e}" for i, sv in enumerate(svals) if sv in (1, 2, 3, 6, 10, 15)) +
                 f"; s(eps) for eps = 10 %, 1 %, 0.1 %: {s_eps[0.1]}, {s_eps[0.01]}, {s_eps[0.001]}. This is a "
                 "property of the best AR(s) predictor for a KNOWN system; an in-context learner must also "
                 "estimate it (see 001-kf-one-layer)."),
        evidence={"T": T, "n_systems": n, "mean_relative_gap": dict(zip(svals.tolist(), mean_gap)),
                  "s_for_eps": s_eps})
    return koz, _claim(
        id="001-ar-approximation-exponential", lines=(35, 35), check="numeric value",
        verdict="confirmed" if ok else "refuted",
        paraphrase="Under rho(A - k c^T) < 1 the bias of the AR(s) approximation decays exponentially in s, so "
                   "the best AR(s) predictor approaches the Kalman predictor (Tsiamis-Pappas; Kozdoba et al.).",
        conventions=CONVENTIONS[:2] + ["gap(s) = oracle AR(s) MSE - Kalman MSE for the known system (exact from K), "
                                       f"T = {T}; rho = spectral radius of A - L c^T, L the steady-state Kalman "
                                       "predictor gain."],
        summary=(f"Setting (a), {n} systems: rho(A - L c^T) < 1 for all (max {rho.max():.3f}). Per system the gap "
                 f"decays geometrically; fitted per-step factor vs rho^2: log-correlation {corr:.3f}, median ratio "
                 f"of log-rates {med_ratio:.2f} (1 = decay exactly like rho^(2s)). Prior-averaged relative gap "
                 + ", ".join(f"s={int(s)}: {mean_gap[i]:.2e}" for i, s in enumerate(svals) if s in (1, 2, 4, 8, 15)) +
                 f"; window needed for relative gap < 10 %, 1 %, 0.1 %: {s_eps[0.1]}, {s_eps[0.01]}, {s_eps[0.001]}."),
        evidence={"T": T, "n_systems": n, "rho_max": float(rho.max()), "rho_median": float(np.median(rho)),
                  "log_rate_correlation": corr, "median_log_rate_ratio": med_ratio,
                  "mean_relative_gap": dict(zip(svals.tolist(), mean_gap)), "s_for_eps": s_eps,
                  "n_fitted": int(fitted.size)})


def ctx_quick(cfg):
    return cfg["train_T"] != 30


def claim_training_setup(cfg):
    return _claim(
        id="001-training-setup", lines=(74, 74), check="numeric value", verdict="underspecified",
        paraphrase="Training: online fresh LDS batches, T = 30, d = 5, AdamW + gradient clipping + linear warm-up + "
                   "cosine annealing, 8000 steps, batch from 3000 (AR(1)) growing with the window, 3 seeds.",
        conventions=CONVENTIONS[3:4],
        summary=(f"We use T = {cfg['train_T']}, d = 5, {cfg['n_seeds']} seeds for AR(1) and "
                 f"{cfg.get('n_seeds_ge2', cfg['n_seeds'])} for s >= 2, settings {', '.join(cfg['windows'])}, Adam without clipping or weight decay, "
                 f"5 % linear warm-up, cosine decay, lr 0.01; setting (a) AR(1): {cfg['train_steps']} steps, "
                 f"batch {cfg['train_batch']}; AR(s >= 2) in (a): {cfg['s_ge2_steps']} steps, batch "
                 f"{cfg['s_ge2_batch']}; settings b-d AR(1): {cfg['other_steps']} steps, batch {cfg['other_batch']}, "
                 f"s >= 2: {cfg['other_ge2_steps']} steps, batch {cfg['other_ge2_batch']}" +
                 (" (paper: 8000 steps, batch 3000 for AR(1); other runs reduced to fit the time budget)"
                  if not ctx_quick(cfg) else " (quick mode: far below the paper's 8000 steps / batch 3000)") +
                 ". Clipping is left out because with clip threshold 1 it biases the trained scalar (claim "
                 "001-thm41-trained). The learning rate, weight decay, clip threshold, warm-up length and "
                 "batch sizes for s >= 2 are not given in the source, so the setup cannot be matched exactly."),
        evidence={k: v for k, v in cfg.items() if k.startswith(("train", "other", "s_ge2", "n_seeds", "mask", "clip"))},
        missing=["learning rate and schedule lengths", "weight decay", "clip threshold", "batch sizes for s >= 2",
                 "initialisation"] + MISSING_PRIOR)


def claim_gpt2():
    return _claim(
        id="001-gpt2-matches-kf", lines=(21, 21), check="qualitative shape", verdict="underspecified",
        paraphrase="GPT-2 (Du et al.) predicts LDS observations as accurately as the Kalman filter.",
        conventions=[],
        summary="An empirical result of another paper about GPT-2; not reproducible within this toolkit "
                "(see 001-kf-one-layer for the one-layer linear attention analysed here).",
        missing=["GPT-2 training and evaluation setup of Du et al."])


def claim_ratings():
    return _claim(
        id="001-ratings", lines=(110, 113), check="qualitative shape", verdict="underspecified",
        paraphrase="Star ratings for novelty, experiments, writing and value.",
        conventions=[], summary="Opinions of the summary's author; nothing to compute.",
        missing=["a measurable statement"])


# ----------------------------------------------------------------------------- build
def build(ctx) -> Ledger:
    cfg = _config(ctx)
    led = Ledger(KEY, SEED, TITLE, conventions=CONVENTIONS,
                 parameters={"mode": ctx.mode, "seed": ctx.seed, "prior_defaults": PRIOR_DEFAULTS,
                             "settings": {st: _prior(st).describe() for st in "abcd"}, **cfg})
    collect = _run_training(ctx, cfg)         # training runs in worker processes meanwhile
    figs: list = []
    led.add(claim_isserlis(ctx, cfg))
    led.add(claim_exact_vs_mc(ctx, cfg, figs))
    led.add(claim_global_optimum(ctx, cfg))
    led.add(claim_ratio_vs_average(ctx, cfg))
    led.add(claim_gd_identity(ctx, cfg))
    led.add(claim_first_optimality())
    led.add(claim_parity(ctx, cfg))
    led.add(claim_symmetry_needed(ctx, cfg))
    led.add(claim_block16())
    led.add(claim_pred17(ctx, cfg))
    for c in claim_ar_exponential(ctx, cfg):
        led.add(c)
    runs = collect()
    led.add(claim_trained_ar1(ctx, cfg, runs))
    led.add(claim_checkerboard(ctx, cfg, runs, figs))
    led.add(claim_s2_constrained(ctx, cfg, runs))
    led.add(claim_pcg_cosines(ctx, cfg, runs))
    led.add(claim_kf(ctx, cfg, runs, figs))
    led.add(claim_training_setup(cfg))
    led.add(claim_gpt2())
    led.add(claim_ratings())
    return led
