r"""Derivation for paper 004: Hermite table of the teachers, ρ_f vs ρ_nonlinear, the seed's numbers.

Conventions: g ~ N(0,1); orthonormal probabilists' Hermite h_m = He_m/√(m!);
a_m = E[f(g) h_m(g)]; ρ_f = ρ + E[f²]; ρ_nl = ρ + Σ_{m≠1} a_m² = ρ_f − a_1².

Steps (the script stops with AssertionError if any check fails):

1. a_0..a_6 for sin, tanh, erf, ReLU, |g|, g³, He₂ (orthonormal h₂ and the seed's g²−1),
   sign and a constant c, through ``theorycheck.hermite.hermite_coefficients`` (exact SymPy where
   it integrates; tanh by mpmath at 40 digits, stored to 30).
2. E[f²] exactly (tanh at 40 digits); Parseval: Σ_{m≤6} a_m² ≤ E[f²], with equality for the
   polynomials; Stein a_1 = E[f'(g)] for every continuous entry
   (sign has a jump: a_1 = 2φ(0), the δ-part of its distributional derivative).
3. The seed's teaching table (lines 95–99): a_1 and the non-linear energy E[f²] − a_1² for
   g, g²−1, g³, c: 1/0, 0/2, 3/6, 0/c².
   The label expectations E[g²f²], E[g f³], E[f⁴] of each teacher
   (``theory.teachers.label_expectations``, read back by ``label_moments``).
4. The seed's numbers (lines 185–186, 216–217): sin: a_1 = e^{−1/2}, a_1² = e^{−1},
   E[sin²] = (1 − e^{−2})/2, ρ_nl(0.1), ρ_nl/a_1², (a_1² + ρ_nl)/a_1²; tanh: a_1, E[tanh²], ρ_nl(0.1).
Writes ``theorycheck/papers/nonlinear/generated/nonlinear_hermite.py`` (table constants, exact ρ_f / ρ_nl functions).
"""
from __future__ import annotations

from pathlib import Path

import mpmath
import sympy as sp

from ....codegen import write_module
from ....hermite import gaussian_expectation, hermite_coefficients, stein_check
from ..theory.teachers import TEACHERS as NL_TEACHERS
from ..theory.teachers import label_expectations

SCRIPT = "theorycheck.papers.nonlinear.derivations.nonlinear_hermite"
GENERATED_PACKAGE = "theorycheck.papers.nonlinear.generated"
g = sp.Symbol("g", real=True)
c = sp.Symbol("c", real=True)
rho = sp.Symbol("rho", nonnegative=True)
M_MAX = 6
DPS = 40

# The teachers of the table: the paper's named teachers (theory.teachers, one source of truth), plus
# the seed's teaching examples g^2 - 1 (unnormalised He_2) and the constant 1.
TEACHERS = {name: NL_TEACHERS[name] for name in ("sin", "tanh", "erf", "relu", "abs", "cube", "he2")}
TEACHERS.update({"g2m1": NL_TEACHERS["he2_raw"], "sign": NL_TEACHERS["sign"], "const1": sp.Integer(1)})
assert all(f.free_symbols <= {g} for f in TEACHERS.values())
# E[f^2] SymPy does not integrate (erf^2: its closed form (2/pi) arcsin(2/3) is checked in main()): quadrature
# directly. The value is the same mpf as the exact route's fallback (E[f^2] = a_0 of f^2 by the same quadrature);
# only the failing SymPy integration is skipped.
NO_EXACT_EF2 = {"erf"}


def _s(x) -> str:
    return str(x) if isinstance(x, sp.Basic) else mpmath.nstr(x, 30)


def _f(x) -> str:
    with mpmath.workdps(DPS):
        v = mpmath.mpf(sp.N(x, DPS)) if isinstance(x, sp.Basic) else mpmath.mpf(x)
        return mpmath.nstr(v, 30)


def table() -> dict:
    out = {}
    with mpmath.workdps(DPS):
        for name, f in TEACHERS.items():
            a = hermite_coefficients(f, M_MAX, dps=DPS)
            ef2 = gaussian_expectation(sp.expand(f ** 2), dps=DPS, exact=name not in NO_EXACT_EF2)
            a_num = [mpmath.mpf(sp.N(x, DPS)) if isinstance(x, sp.Basic) else x for x in a]
            ef2_num = mpmath.mpf(sp.N(ef2, DPS)) if isinstance(ef2, sp.Basic) else ef2
            parseval = sum(x ** 2 for x in a_num)
            assert parseval <= ef2_num + mpmath.mpf(10) ** (-30), name
            if f.is_polynomial(g):
                assert abs(parseval - ef2_num) < mpmath.mpf(10) ** (-30), name
                assert sp.simplify(sum(x ** 2 for x in a) - ef2) == 0, name
            st = stein_check(f, dps=30)
            if name == "sign":   # jump of 2 at 0: distributional f' = 2δ, a_1 = 2φ(0) instead
                assert abs(st["a1"] - 2 / mpmath.sqrt(2 * mpmath.pi)) < mpmath.mpf(10) ** (-25)
            else:
                assert st["abs_diff"] < mpmath.mpf(10) ** (-25), (name, st)
            a1 = a[1]
            exact = all(isinstance(x, sp.Basic) for x in a + [ef2])
            rnl = sp.simplify(ef2 - a1 ** 2) if exact else ef2_num - a_num[1] ** 2
            out[name] = {
                "expr": str(f),
                "exact": exact,
                "a": [_s(x) for x in a],
                "a_float": [_f(x) for x in a],
                "Ef2": _s(ef2), "Ef2_float": _f(ef2),
                "nonlinear_energy": _s(rnl), "nonlinear_energy_float": _f(rnl),
                "parseval_tail": mpmath.nstr(ef2_num - parseval, 15),
                "stein_abs_diff": mpmath.nstr(st["abs_diff"], 5),
                "label": {k: repr(v) for k, v in label_expectations(f).items()},
            }
    return out


def teaching_table() -> dict:
    rows = {"g": g, "g^2-1": g ** 2 - 1, "g^3": g ** 3, "c": c}
    res = {}
    for k, f in rows.items():
        if f.has(g):
            a1 = hermite_coefficients(f, 1)[1]
            ef2 = gaussian_expectation(sp.expand(f ** 2))
        else:   # a constant: a_1 = E[g c] = 0, E[f^2] = c^2 (exact, symbolic c)
            gg = sp.Symbol("gg", real=True)
            phi = sp.exp(-gg ** 2 / 2) / sp.sqrt(2 * sp.pi)
            a1 = sp.integrate(gg * c * phi, (gg, -sp.oo, sp.oo))
            ef2 = sp.integrate(c ** 2 * phi, (gg, -sp.oo, sp.oo))
        res[k] = (sp.simplify(a1), sp.simplify(ef2 - a1 ** 2))
    want = {"g": (1, 0), "g^2-1": (0, 2), "g^3": (3, 6), "c": (0, c ** 2)}
    for k, (a1, e) in want.items():
        assert sp.simplify(res[k][0] - a1) == 0 and sp.simplify(res[k][1] - e) == 0, (k, res[k])
    return {k: [str(v[0]), str(v[1])] for k, v in res.items()}


def seed_numbers() -> dict:
    a1 = hermite_coefficients(sp.sin(g), 1)[1]
    ef2 = gaussian_expectation(sp.sin(g) ** 2)
    assert sp.simplify(a1 - sp.exp(-sp.Rational(1, 2))) == 0
    assert sp.simplify(ef2 - (1 - sp.exp(-2)) / 2) == 0
    r = sp.Rational(1, 10)
    rnl = r + ef2 - a1 ** 2
    with mpmath.workdps(DPS):
        ta = hermite_coefficients(sp.tanh(g), 1, dps=DPS)[1]
        tf2 = gaussian_expectation(sp.tanh(g) ** 2, dps=DPS, exact=False)
        trnl = mpmath.mpf("0.1") + tf2 - ta ** 2
        out = {
            "sin_a1": _f(a1), "sin_a1_sq": _f(a1 ** 2), "sin_Ef2": _f(ef2),
            "sin_rho_nl": _f(rnl), "sin_ratio_legend": _f(rnl / a1 ** 2),
            "sin_ratio_caption": _f((a1 ** 2 + rnl) / a1 ** 2),
            "sin_rho_nl_exact": str(sp.simplify(rnl)),
            "tanh_a1": mpmath.nstr(ta, 30), "tanh_Ef2": mpmath.nstr(tf2, 30),
            "tanh_rho_nl": mpmath.nstr(trnl, 30), "tanh_excess": mpmath.nstr(trnl - mpmath.mpf("0.1"), 30),
        }
    return out


def main() -> list[Path]:
    tab = table()
    teach = teaching_table()
    nums = seed_numbers()
    functions = {}
    latex = {}
    for name in ("sin", "erf", "relu", "abs", "cube", "he2", "sign"):
        f = TEACHERS[name]
        a1 = hermite_coefficients(f, 1)[1]
        ef2 = gaussian_expectation(sp.expand(f ** 2), dps=DPS, exact=name not in NO_EXACT_EF2)
        if name == "erf":   # SymPy does not integrate erf^2; the closed form is (2/π) arcsin(2/3)
            ef2_sym = sp.Float(mpmath.nstr(ef2, 40), 40)
            assert abs(sp.N(ef2_sym - 2 / sp.pi * sp.asin(sp.Rational(2, 3)), 40)) < 1e-28
            ef2 = 2 / sp.pi * sp.asin(sp.Rational(2, 3))
        functions[f"rho_f_{name}"] = ([rho], rho + ef2)
        functions[f"rho_nl_{name}"] = ([rho], sp.simplify(rho + ef2 - a1 ** 2))
        latex[f"rho_nl_{name}"] = sp.latex(sp.simplify(rho + ef2 - a1 ** 2))
    path = write_module(
        "nonlinear_hermite", functions, SCRIPT, package=GENERATED_PACKAGE,
        constants={"HERMITE_TABLE": tab, "TEACHING_TABLE": teach, "SEED_NUMBERS": nums, "M_MAX": M_MAX},
        latex=latex,
        docstring="Hermite coefficients a_0..a_6 (orthonormal probabilists'), E[f^2], rho_f and rho_nonlinear "
                  "of the teachers of paper 004; exact strings where SymPy integrates, 30 digits otherwise.",
    )
    return [path]


if __name__ == "__main__":
    main()
