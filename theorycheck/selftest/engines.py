r"""Engine-level self-test: deliberate mistakes in the shared engines (Gaussian/Isserlis, Hermite, Monte
Carlo) and the consistency checks that must catch them.

Each mutant is applied by monkeypatching the real code path for one run (:class:`Patcher`; nothing is
written to the source), then its checks run against the mutated code; a mutant is **caught** when at
least one check fails or raises. The same checks must all pass on the unmutated code. Monte Carlo
checks are two-sided z-tests at ``ALPHA``; identities fail above a stated floating-point tolerance.
Paper-level mutants live with their papers (``theorycheck/papers/<key>/checks/mutants.py``) and must change a
verdict (:func:`theorycheck.selftest.run_paper_mutants`).

>>> r = run_check("montecarlo.known-values")
>>> r.passed
True
>>> res = run_mutant("montecarlo-se-is-sd", checks=["montecarlo.known-values"])
>>> res.caught, res.caught_by
(True, ['montecarlo.known-values'])
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np
from scipy import stats

from .. import gaussian as g
from ..gaussian import diagrams as gd
from .. import hermite as H
from .. import montecarlo as mc
from .engine_checks import (ALPHA, CHECKS, Z_CRIT, Check, CheckResult, available_needs, registered_checks, rounded,
                            run_check)
from .patch import Patcher

__all__ = ["Check", "CheckResult", "EngineMutant", "MutantResult", "CHECKS", "MUTANTS", "MUTANTS_BY_ID", "run_check",
           "run_mutant", "run_selftest", "ALPHA"]


@dataclass
class EngineMutant:
    """A deliberate mistake: ``apply(p)`` installs it through a :class:`Patcher` ``p``."""

    id: str
    area: str
    paper: str                   # '000', '001', '004' or 'engine'
    mistake: str
    apply: Callable[[Patcher], None]
    checks: tuple
    needs: tuple = ()


MUTANTS: list[EngineMutant] = []


def mutant(id: str, area: str, paper: str, mistake: str, checks, needs=()):
    def deco(fn):
        MUTANTS.append(EngineMutant(id, area, paper, mistake, fn, tuple(checks), tuple(needs)))
        return fn
    return deco


# ------------------------------------------------------------------ gaussian mutants
_G_CHECKS = ("gaussian.moment-vs-enumeration", "gaussian.moment-closed-forms", "gaussian.moment-vs-mc",
             "gaussian.expect_product-vs-moment", "gaussian.expect_product-vs-mc",
             "gaussian.quadratic-form-cumulants")


@mutant("gaussian-drop-pairing", "gaussian", "engine",
        "Isserlis sum misses one perfect matching (the last one in lexicographic order) for "
        "orders >= 4", _G_CHECKS, needs=["theorycheck.gaussian:moment", "theorycheck.gaussian:pairings"])
def _m_drop_pairing(p: Patcher):
    orig = g.moment

    def moment(cov, idx):
        val = orig(cov, idx)
        idx = list(idx)
        if len(idx) < 4 or len(idx) % 2:
            return val
        last = g.pairings(len(idx))[-1]
        if isinstance(cov, np.ndarray) or not hasattr(cov, "free_symbols"):
            c = np.asarray(cov, dtype=float)
            term = np.prod([c[..., idx[i], idx[j]] for i, j in last], axis=0)
            return val - (float(term) if np.ndim(term) == 0 else term)
        import sympy as sp  # heavy: SymPy (~0.5 s to import) only for symbolic inputs
        return sp.expand(val - sp.Mul(*[cov[idx[i], idx[j]] for i, j in last]))
    p.replace(g, "moment", moment)


@mutant("gaussian-multiplicity", "gaussian", "engine",
        "memoised Isserlis recursion forgets the multiplicity of a repeated index (pairs the first "
        "index with each *distinct* partner once)", _G_CHECKS, needs=["theorycheck.gaussian:moment"])
def _m_multiplicity(p: Patcher):
    orig = g.moment

    def moment(cov, idx):
        idx = tuple(int(i) for i in idx)
        if len(idx) % 2 or not idx:
            return orig(cov, idx)
        is_sym = not isinstance(cov, np.ndarray) and hasattr(cov, "free_symbols")
        c = cov if is_sym else np.asarray(cov, dtype=float)

        def rec(items):
            if not items:
                return 1
            first, rest = items[0], list(items[1:])
            tot = 0
            for j in sorted(set(rest)):          # BUG: distinct partners only, multiplicity lost
                r2 = list(rest)
                r2.remove(j)
                tot = tot + (c[first, j] if is_sym else c[..., first, j]) * rec(tuple(r2))
            return tot
        val = rec(idx)
        if is_sym:
            import sympy as sp  # heavy: SymPy (~0.5 s to import) only for symbolic inputs
            return sp.expand(val)
        return float(val) if np.ndim(val) == 0 else np.asarray(val)
    p.replace(g, "moment", moment)


@mutant("gaussian-cycle-factor", "gaussian", "engine",
        "expect_product: cycle cumulant of r >= 2 quadratic forms without the 2^(r-1) leg-orientation "
        "factor (tr((SM)^r) instead of 2^(r-1) (r-1)! tr(...))",
        _G_CHECKS + ("lds.wqk-exact-vs-mc", "lds.moments-vs-mc"),
        needs=["theorycheck.gaussian.diagrams:DiagramEngine.kappa"])
def _m_cycle_factor(p: Patcher):
    orig = gd.DiagramEngine.kappa

    def kappa(self, lmask, qmask):
        val = orig(self, lmask, qmask)
        r = bin(qmask).count("1")
        if lmask == 0 and r >= 2 and val is not None:
            return val / 2 ** (r - 1)
        return val
    p.setattr(gd.DiagramEngine, "kappa", kappa)


@mutant("gaussian-path-factor", "gaussian", "engine",
        "expect_product: path cumulant a'S M S ... S b with 2^(r-1) instead of 2^r (one orientation "
        "factor short)", _G_CHECKS + ("lds.wqk-exact-vs-mc", "lds.moments-vs-mc"),
        needs=["theorycheck.gaussian.diagrams:DiagramEngine.kappa"])
def _m_path_factor(p: Patcher):
    orig = gd.DiagramEngine.kappa

    def kappa(self, lmask, qmask):
        val = orig(self, lmask, qmask)
        r = bin(qmask).count("1")
        if bin(lmask).count("1") == 2 and r >= 1 and val is not None:
            return val / 2
        return val
    p.setattr(gd.DiagramEngine, "kappa", kappa)


# ------------------------------------------------------------------ Monte Carlo mutants
_MC_CHECKS = ("montecarlo.known-values", "montecarlo.z-calibration", "montecarlo.ratio-calibration")


@mutant("montecarlo-se-is-sd", "montecarlo", "engine",
        "standard error reported as the sample standard deviation (SE = sd instead of sd/sqrt(n))",
        _MC_CHECKS)
def _m_se_sd(p: Patcher):
    def estimate(self, **meta):
        if self.n < 2:
            raise ValueError("need at least 2 samples for a standard error")
        m, se = self.mean, np.sqrt(self.var)                    # BUG: no / sqrt(n)
        if np.ndim(m) == 0:
            m, se = float(m), float(se)
        return mc.MeanEstimate(m, se, self.n, **meta)
    p.setattr(mc.RunningMean, "estimate", estimate)


@mutant("montecarlo-ddof0", "montecarlo", "engine",
        "sample variance with ddof = 0 (divides by n instead of n - 1)", _MC_CHECKS)
def _m_ddof0(p: Patcher):
    p.setattr(mc.RunningMean, "var", property(lambda self: self._m2 / self.n))


@mutant("montecarlo-se-over-n", "montecarlo", "engine",
        "standard error sd/n instead of sd/sqrt(n)", _MC_CHECKS)
def _m_se_n(p: Patcher):
    def estimate(self, **meta):
        m, se = self.mean, np.sqrt(self.var) / self.n            # BUG
        if np.ndim(m) == 0:
            m, se = float(m), float(se)
        return mc.MeanEstimate(m, se, self.n, **meta)
    p.setattr(mc.RunningMean, "estimate", estimate)


@mutant("montecarlo-one-sided-p", "montecarlo", "engine",
        "compare() uses a one-sided p-value Phi(-|z|) (doubles the false-alarm rate)", _MC_CHECKS)
def _m_one_sided(p: Patcher):
    orig = mc.compare

    def compare(exact, estimate, alpha=1e-3, se_floor=0.0):
        c = orig(exact, estimate, alpha=alpha, se_floor=se_floor)
        pv = float(stats.norm.sf(abs(c.z)))                     # BUG: one-sided
        return mc.Comparison(c.exact, c.mean, c.se, c.n, c.z, pv, c.alpha,
                             "disagree" if pv < c.alpha else "agree", c.rel_diff, c.extra)
    p.replace(mc, "compare", compare)


@mutant("montecarlo-ratio-se-sign", "montecarlo", "engine",
        "delta-method SE of a ratio with the covariance term's sign flipped (+2R Cov(a,b))", _MC_CHECKS)
def _m_ratio_sign(p: Patcher):
    def ratio(num, den=None, **meta):
        a, b = np.asarray(num, float), np.asarray(den, float)
        n = a.size
        ma, mb = a.mean(), b.mean()
        r = ma / mb
        cab = np.cov(a, b, ddof=1)[0, 1]
        var = max(a.var(ddof=1) + 2 * r * cab + r * r * b.var(ddof=1), 0.0) / (n * mb * mb)   # BUG
        return mc.MeanEstimate(float(r), float(math.sqrt(var)), n, **meta)
    p.replace(mc, "ratio", ratio)


class _SympyProxy:
    """The sympy module with one attribute replaced (used to inject a convention mistake into a
    single module's ``sp`` reference)."""

    def __init__(self, **override):
        import sympy  # heavy: SymPy (~0.5 s to import) only for symbolic inputs
        self._sp, self._ov = sympy, override

    def __getattr__(self, name):
        return self._ov[name] if name in self._ov else getattr(self._sp, name)


_H_CHECKS = ("hermite.orthonormality", "hermite.coefficients-vs-quadrature", "hermite.parseval-stein")


@mutant("hermite-physicists", "hermite", "004",
        "physicists' Hermite H_m (mpmath/SymPy `hermite`) used where the probabilists' He_m is meant: "
        "h_m = H_m/sqrt(m!) in hermite_h and in the kink route", _H_CHECKS + (
            "nonlinear.rho-nl-vs-quadrature", "nonlinear.null-predictor-limit"),
        needs=["theorycheck.hermite:hermite_h"])
def _m_physicists(p: Patcher):
    import mpmath  # heavy: mpmath only for multi-precision checks
    import sympy as sp  # heavy: SymPy (~0.5 s to import) only for symbolic inputs

    def hermite_h(m, x):
        m = int(m)
        if isinstance(x, sp.Basic):
            return sp.hermite(m, x) / sp.sqrt(sp.factorial(m))
        if isinstance(x, (mpmath.mpf, mpmath.mpc)):
            return mpmath.hermite(m, x) / mpmath.sqrt(mpmath.factorial(m))
        xa = np.asarray(x, dtype=float)
        c = np.zeros(m + 1)
        c[m] = 1.0
        out = np.polynomial.hermite.hermval(xa, c) / math.sqrt(math.factorial(m))
        return out if xa.ndim else float(out)
    p.replace(H, "hermite_h", hermite_h)
    p.setattr(H, "sp", _SympyProxy(hermite_prob=sp.hermite))


@mutant("hermite-no-sqrt-factorial", "hermite", "004",
        "coefficients of the unnormalised He_m: a_m = E[f He_m] (the 1/sqrt(m!) forgotten)", _H_CHECKS + (
            "nonlinear.rho-nl-vs-quadrature", "nonlinear.null-predictor-limit"),
        needs=["theorycheck.hermite:hermite_coefficients"])
def _m_no_sqrt_fact(p: Patcher):
    orig = H.hermite_coefficients

    def hermite_coefficients(f, m_max, *a, **k):
        out = orig(f, m_max, *a, **k)
        import sympy as sp  # heavy: SymPy (~0.5 s to import) only for symbolic inputs
        return [c * sp.sqrt(sp.factorial(m)) if isinstance(c, sp.Basic) else c * math.sqrt(math.factorial(m))
                for m, c in enumerate(out)]                    # BUG: E[f He_m], not E[f He_m]/sqrt(m!)
    p.replace(H, "hermite_coefficients", hermite_coefficients)


@dataclass
class MutantResult:
    id: str
    area: str
    paper: str
    mistake: str
    available: bool
    caught: bool
    caught_by: list = field(default_factory=list)
    results: list = field(default_factory=list)
    note: str = ""

    def as_dict(self) -> dict:
        return {"id": self.id, "area": self.area, "paper": self.paper, "mistake": self.mistake,
                "available": self.available, "caught": self.caught, "caught_by": self.caught_by,
                "note": self.note, "results": [r.as_dict() for r in self.results]}


MUTANTS_BY_ID: dict[str, EngineMutant] = {}


def _index():
    MUTANTS_BY_ID.clear()
    MUTANTS_BY_ID.update({m.id: m for m in MUTANTS})


def run_mutant(m: EngineMutant | str, checks=None) -> MutantResult:
    """Apply mutant ``m``, run its checks (or ``checks``), restore the code; return the outcome."""
    if isinstance(m, str):
        m = MUTANTS_BY_ID[m]
    names = list(checks if checks is not None else m.checks)
    known = registered_checks()
    missing = [n for n in names if n not in known]
    if missing:        # a mutant that names a check nobody registers would lose a detector silently
        raise ValueError(f"engine mutant {m.id} names consistency checks that no engine or paper registers: "
                         f"{missing}")
    ok, missing = available_needs(m.needs)
    if not ok:
        return MutantResult(m.id, m.area, m.paper, m.mistake, False, False,
                            note=f"not available yet: {missing}")
    results = []
    with Patcher() as p:
        try:
            m.apply(p)
        except Exception as e:  # noqa: BLE001
            return MutantResult(m.id, m.area, m.paper, m.mistake, False, False,
                                note=f"could not be applied: {type(e).__name__}: {e}")
        for name in names:
            results.append(run_check(name))
    avail = [r for r in results if r.available]
    caught_by = [r.name for r in avail if not r.passed]
    note = "" if avail else "none of its checks is available yet"
    return MutantResult(m.id, m.area, m.paper, m.mistake, bool(avail), bool(caught_by), caught_by, results,
                        note)


def run_selftest(mutants=None, progress: bool = False) -> dict:
    """Run every check on the unmutated code, then every mutant; return a JSON-ready dict."""
    _index()
    checks = registered_checks()
    clean = [run_check(n) for n in checks]
    muts = [run_mutant(m) for m in (mutants or MUTANTS)]
    avail = [r for r in muts if r.available]
    return {
        "alpha": ALPHA, "z_crit": rounded(Z_CRIT),
        "checks": [{"name": c.name, "area": c.area, "kind": c.kind, "description": c.description}
                   for c in checks.values()],
        "clean": [r.as_dict() for r in clean],
        "clean_all_pass": all(r.passed for r in clean),
        "mutants": [r.as_dict() for r in muts],
        "summary": {"mutants": len(muts), "available": len(avail), "caught": sum(r.caught for r in avail),
                    "missed": [r.id for r in avail if not r.caught],
                    "unavailable": [r.id for r in muts if not r.available]},
    }


_index()
