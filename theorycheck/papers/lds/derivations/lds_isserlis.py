r"""Paper 001: Isserlis expansions behind Theorem 4.1 and the scalar-LDS closed forms.

Derived here (SymPy unless stated):

1. The 4th- and 6th-order Gaussian moments in the Theorem 4.1 ratio, expanded by Isserlis'
   theorem (``theorycheck.gaussian.moment`` on a symbolic covariance) in terms of the
   autocovariance :math:`K(s,t)`:
   :math:`N=E[y_{T-1}y_TS]=\sum_{i=1}^{T-2}E[y_{T-1}y_Ty_iy_{i+1}]` (3 pairings per term) and
   :math:`D=E[y_{T-1}^2S^2]=\sum_{i,j=1}^{T-2}E[y_{T-1}^2y_iy_{i+1}y_jy_{j+1}]` (15 pairings).
2. Their contraction (trace) form, checked symbolically against the pairing sums on a generic
   symmetric covariance:
   :math:`N=K_{ab}\operatorname{tr}(KM)+2u_a^\top Mu_b`,
   :math:`D=K_{aa}[\operatorname{tr}(KM)^2+2\operatorname{tr}(KMKM)]+4(u_a^\top Mu_a)\operatorname{tr}(KM)
   +8u_a^\top MKMu_a` with :math:`a=T-1,b=T`, :math:`u=Ke`, :math:`M` the lag-1 form matrix.
3. Scalar LDS (d = 1, c = 1): :math:`P_s=\sigma_0^2a^{2s}+\sigma_w^2\sum_{k<s}a^{2k}`
   (SymPy summation, recursion verified) and :math:`K(s,t)=a^{|t-s|}P_{\min(s,t)}+\sigma_v^2\delta_{st}`.
4. N in closed form for symbolic T (geometric sums, SymPy ``summation``), checked against step 5.
5. For each T in ``T_VALUES``: N and D as exact polynomials in :math:`a^2` with coefficients
   homogeneous in :math:`(\sigma_0^2,\sigma_w^2,\sigma_v^2)`. K is a polynomial matrix
   (:math:`\sigma_0^2K_0+\sigma_w^2K_w+\sigma_v^2I`, :math:`K_0,K_w` with 0/1 integer coefficients);
   the trace forms of step 2 are evaluated in exact integer arithmetic (univariate polynomials by
   Kronecker substitution into Python integers; every coefficient is a non-negative integer, so the
   encoding is exact — checked by decoding bounds). For T = 3..6 the tables are cross-checked
   against a fully symbolic SymPy expansion (``gaussian.expect_product`` on the symbolic K).

Output: ``theorycheck/papers/lds/generated/lds_scalar.py`` with ``POLY[T] = {"N": {(i,j,k): [c_0, c_1, ...]},
"D": ..., "N_scale": 2, "D_scale": 4}`` meaning
:math:`N=\frac1{2}\sum c_m a^{2m}\sigma_0^{2i}\sigma_w^{2j}\sigma_v^{2k}` (D with 1/4), the closed
form ``K_scalar`` and LaTeX of every expansion.
"""
from __future__ import annotations

from pathlib import Path

import sympy as sp


from .... import gaussian
from ....codegen import write_module

SCRIPT = "theorycheck.papers.lds.derivations.lds_isserlis"
GENERATED_PACKAGE = "theorycheck.papers.lds.generated"
T_VALUES = tuple(range(3, 17)) + (20, 25, 30)
BITS = 100                      # Kronecker base 2**BITS (coefficients are checked to stay far below)


# ----------------------------------------------------------------------------- 1. Isserlis
def isserlis_expansions():
    """Symbolic pairing expansions with a symmetric K(.,.) of symbolic time indices."""
    Kf = sp.Function("K")
    a, b, i, j = sp.symbols("a b i j", integer=True)

    def sym_cov(u):
        n = len(u)
        return sp.Matrix(n, n, lambda p, q: Kf(*sorted((u[p], u[q]), key=sp.default_sort_key)))

    u4 = (a, b, i, i + 1)
    m4 = gaussian.moment(sym_cov(u4), tuple(range(4)))
    u6 = (a, a, i, i + 1, j, j + 1)
    m6 = gaussian.moment(sym_cov(u6), tuple(range(6)))
    # number of pairings = value of the expansion with every covariance entry set to 1
    n_terms6 = int(m6.replace(Kf, lambda *args: 1))
    return m4, m6, n_terms6, (a, b, i, j, Kf)


def check_trace_forms(n: int = 5) -> bool:
    """Pairing sums == trace forms on a generic symmetric n x n covariance (exact SymPy)."""
    (Np, Nt), (Dp, Dt) = trace_form_sides(n)
    return sp.expand(Np - Nt) == 0 and sp.expand(Dp - Dt) == 0


def trace_form_sides(n: int = 5):
    """((N as a pairing sum, N as a trace form), (D pairing sum, D trace form)), expanded, on a generic
    symmetric n x n covariance with a = n - 1, b = n (1-based) and the lag-1 form over 1..n-2."""
    syms = {}

    def ent(p, q):
        p, q = min(p, q), max(p, q)
        return syms.setdefault((p, q), sp.Symbol(f"k_{p}_{q}"))
    K = sp.Matrix(n, n, ent)
    M = gaussian.quadratic_form_matrix([(r, r + 1) for r in range(n - 2)], n, exact=True)
    a, b = n - 2, n - 1
    Npair = sum(gaussian.moment(K, (a, b, r, r + 1)) for r in range(n - 2))
    Dpair = sum(gaussian.moment(K, (a, a, r, r + 1, q, q + 1)) for r in range(n - 2) for q in range(n - 2))
    ua, ub = K[:, a], K[:, b]
    trKM = (K * M).trace()
    Ntr = K[a, b] * trKM + 2 * (ua.T * M * ub)[0, 0]
    Dtr = K[a, a] * (trKM ** 2 + 2 * (K * M * K * M).trace()) + 4 * (ua.T * M * ua)[0, 0] * trKM \
        + 8 * (ua.T * M * K * M * ua)[0, 0]
    return (sp.expand(Npair), sp.expand(Ntr)), (sp.expand(Dpair), sp.expand(Dtr))


# ----------------------------------------------------------------------------- 3. scalar K
def scalar_autocovariance():
    a = sp.Symbol("a", real=True)
    s, t, k = sp.symbols("s t k", integer=True, nonnegative=True)
    sigma0, sigma_w, sigma_v = sp.symbols("sigma0 sigma_w sigma_v", positive=True)
    geo = sp.summation(a ** (2 * k), (k, 0, s - 1))
    # generic branch (a^2 != 1) of the Piecewise
    geo = geo.args[1][0] if isinstance(geo, sp.Piecewise) else geo
    geo = sp.powdenest(geo, force=True)
    P = sigma0 ** 2 * a ** (2 * s) + sigma_w ** 2 * geo
    ok = sp.simplify(sp.powsimp(sp.expand(P - (a ** 2 * P.subs(s, s - 1) + sigma_w ** 2)), force=True)) == 0 and \
        sp.simplify(P.subs(s, 0) - sigma0 ** 2) == 0
    if not ok:
        raise AssertionError("scalar state-variance recursion P_s = a^2 P_{s-1} + sigma_w^2 failed")
    K_upper = a ** (t - s) * P          # s <= t, plus sigma_v^2 on the diagonal
    return (a, s, t, sigma0, sigma_w, sigma_v), sp.simplify(P), K_upper


def scalar_N_symbolic_T():
    r"""N = E[y_{T-1}y_TS] for the scalar LDS in closed form for symbolic T (a^2 != 1).

    With :math:`K(p,q)=\alpha a^{q-p}+\beta a^{p+q}` (:math:`p<q`), :math:`\alpha=\sigma_w^2/(1-a^2)`,
    :math:`\beta=\sigma_0^2-\alpha`, the 3-pairing expansion gives
    :math:`N=K(T-1,T)\sum_{i=1}^{T-2}K(i,i+1)+\sum_{i=1}^{T-2}[K(T-1,i)K(T,i+1)+K(T-1,i+1)K(T,i)]`,
    where only :math:`i=T-2` meets the diagonal :math:`K(T-1,T-1)=P_{T-1}+\sigma_v^2`; the geometric sums
    are done by SymPy (generic branch of each Piecewise)."""
    a = sp.Symbol("a", real=True)
    T, i = sp.symbols("T i", integer=True, positive=True)
    s0, sw, sv = sp.symbols("sigma0 sigma_w sigma_v", positive=True)
    al = sw ** 2 / (1 - a ** 2)
    be = s0 ** 2 - al

    def Kfar(p, q):
        return al * a ** (q - p) + be * a ** (p + q)

    def gsum(expr, lo, hi):
        r = sp.summation(sp.expand(expr), (i, lo, hi))
        return r.replace(lambda e: isinstance(e, sp.Piecewise), lambda e: e.args[-1][0])
    S1 = gsum(Kfar(i, i + 1), 1, T - 2)
    S2 = gsum(Kfar(i, T - 1) * Kfar(i + 1, T) + Kfar(i + 1, T - 1) * Kfar(i, T), 1, T - 3)
    N = Kfar(T - 1, T) * S1 + S2 + Kfar(T - 2, T - 1) * Kfar(T - 1, T) + \
        (al + be * a ** (2 * (T - 1)) + sv ** 2) * Kfar(T - 2, T)
    return (a, T, s0, sw, sv), sp.powdenest(N, force=True)


def check_N_symbolic_T(args, N, tables) -> bool:
    a, T, s0, sw, sv = args
    for TT in (3, 4, 7, 12, 30):
        for av in (sp.Rational(1, 3), sp.Rational(-7, 10)):
            vals = {a: av, s0: sp.Rational(13, 10), sw: sp.Rational(1, 2), sv: sp.Rational(2, 5)}
            ref = sp.Rational(1, 2) * sum(c * av ** (2 * m) * vals[s0] ** (2 * ii) * vals[sw] ** (2 * jj) *
                                          vals[sv] ** (2 * kk)
                                          for (ii, jj, kk), cs in tables[TT]["N"].items() for m, c in enumerate(cs))
            if sp.simplify(N.subs(T, TT).subs(vals) - ref) != 0:
                return False
    return True


# ----------------------------------------------------------------------------- 4. tables
def _enc(coeffs):
    return sum(int(c) << (BITS * m) for m, c in enumerate(coeffs))


def _dec(x):
    out = []
    mask = (1 << BITS) - 1
    while x:
        out.append(x & mask)
        x >>= BITS
    return out


class _P:
    """Polynomial in a (Kronecker-encoded int) times monomials in (S0, SW, SV)."""

    __slots__ = ("t",)

    def __init__(self, t=None):
        self.t = dict(t or {})

    def __add__(self, o):
        r = dict(self.t)
        for m, v in o.t.items():
            r[m] = r.get(m, 0) + v
        return _P(r)

    def __mul__(self, o):
        if isinstance(o, int):
            return _P({m: v * o for m, v in self.t.items()})
        r = {}
        for m1, v1 in self.t.items():
            for m2, v2 in o.t.items():
                m = (m1[0] + m2[0], m1[1] + m2[1], m1[2] + m2[2])
                r[m] = r.get(m, 0) + v1 * v2
        return _P(r)

    __rmul__ = __mul__


def _psum(items):
    out = _P()
    for x in items:
        out = out + x
    return out


def scalar_tables(T: int):
    """Exact 2N and 4D for the scalar LDS at horizon T (trace forms with M2 = 2M)."""
    K = [[None] * T for _ in range(T)]
    for p in range(T):
        for q in range(T):
            s1, t1 = p + 1, q + 1
            lo, lag = min(s1, t1), abs(s1 - t1)
            k0 = [0] * (s1 + t1) + [1]                               # a^{s+t}
            kw = [0] * (lag + 2 * lo)
            for r in range(lo):
                kw[lag + 2 * r] = 1                                  # sum_{r<min} a^{lag+2r}
            terms = {(1, 0, 0): _enc(k0), (0, 1, 0): _enc(kw)}
            if p == q:
                terms[(0, 0, 1)] = 1
            K[p][q] = _P(terms)
    a, b = T - 2, T - 1
    pairs = [(r, r + 1) for r in range(T - 2)]
    trKM2 = _psum(K[r][r + 1] for r, _ in pairs) * 2

    def m2vec(u):                 # M2 u
        out = [_P() for _ in range(T)]
        for r, r1 in pairs:
            out[r] = out[r] + u[r1]
            out[r1] = out[r1] + u[r]
        return out

    KM2 = [m2vec(K[p]) for p in range(T)]                          # KM2[p][q] = (K M2)_{pq}
    trKMKM = _psum(KM2[p][q] * KM2[q][p] for p in range(T) for q in range(T))
    ua = [K[p][a] for p in range(T)]
    ub = [K[p][b] for p in range(T)]
    wa = m2vec(ua)
    uMu = _psum(ua[p] * wa[p] for p in range(T))
    uMub = _psum(wa[p] * ub[p] for p in range(T))
    Kwa = [_psum(K[p][q] * wa[q] for q in range(T)) for p in range(T)]
    uMKMu = _psum(wa[p] * Kwa[p] for p in range(T))
    N2 = K[a][b] * trKM2 + uMub * 2
    D4 = K[a][a] * (trKM2 * trKM2 + trKMKM * 2) + uMu * trKM2 * 4 + uMKMu * 8

    def table(P):
        out = {}
        for m in sorted(P.t):
            cs = _dec(P.t[m])
            if cs and max(cs) >= 1 << (BITS - 8):
                raise OverflowError("Kronecker coefficient too large for the encoding")
            if any(cs[1::2]):
                raise AssertionError("odd powers of a must vanish (the moments are even in a)")
            ev = cs[0::2]
            while ev and ev[-1] == 0:
                ev.pop()
            if ev:
                out[m] = ev
        return out
    return {"N": table(N2), "D": table(D4), "N_scale": 2, "D_scale": 4}


def symbolic_cross_check(T: int, tab) -> bool:
    """Fully symbolic SymPy expansion for small T equals the integer tables."""
    a = sp.Symbol("a")
    S0, SW, SV = sp.symbols("S0 SW SV", positive=True)
    K = sp.zeros(T, T)
    for p in range(T):
        for q in range(T):
            s1, t1 = p + 1, q + 1
            lo, lag = min(s1, t1), abs(s1 - t1)
            K[p, q] = S0 * a ** (s1 + t1) + SW * sum(a ** (lag + 2 * r) for r in range(lo)) + \
                (SV if p == q else 0)
    M = gaussian.quadratic_form_matrix([(r, r + 1) for r in range(T - 2)], T, exact=True)
    e = sp.eye(T)
    N = gaussian.expect_product(K, linear=[e[:, T - 2], e[:, T - 1]], quadratic=[M])
    D = gaussian.expect_product(K, linear=[e[:, T - 2], e[:, T - 2]], quadratic=[M, M])

    def from_table(tb, scale):
        return sp.Rational(1, scale) * sum(c * a ** (2 * m) * S0 ** i * SW ** j * SV ** k
                                           for (i, j, k), cs in tb.items() for m, c in enumerate(cs))
    return sp.expand(N - from_table(tab["N"], 2)) == 0 and sp.expand(D - from_table(tab["D"], 4)) == 0


def main() -> list[Path]:
    m4, m6, n6, (a_, b_, i_, j_, Kf) = isserlis_expansions()
    if n6 != 15:
        raise AssertionError(f"6th-order Isserlis expansion should have 15 terms, got {n6}")
    if not check_trace_forms(5):
        raise AssertionError("trace forms differ from the pairing sums")
    (a, s, t, sigma0, sigma_w, sigma_v), P, K_upper = scalar_autocovariance()
    tables = {T: scalar_tables(T) for T in T_VALUES}
    for T in (3, 4, 5, 6):
        if not symbolic_cross_check(T, tables[T]):
            raise AssertionError(f"integer tables differ from the SymPy expansion at T = {T}")
    nargs, N_T = scalar_N_symbolic_T()
    if not check_N_symbolic_T(nargs, N_T, tables):
        raise AssertionError("symbolic-T closed form of N disagrees with the tables")
    latex = {
        "N_closed_T": r"N(a,T) = " + sp.latex(N_T),
        "isserlis_4": r"E[y_ay_by_iy_{i+1}] = " + sp.latex(m4),
        "isserlis_6": r"E[y_a^2y_iy_{i+1}y_jy_{j+1}] = " + sp.latex(m6),
        "N_trace": r"N = K_{T-1,T}\operatorname{tr}(KM) + 2\,u_{T-1}^\top M u_T",
        "D_trace": r"D = K_{T-1,T-1}\big[\operatorname{tr}(KM)^2 + 2\operatorname{tr}(KMKM)\big]"
                   r" + 4\,(u_{T-1}^\top M u_{T-1})\operatorname{tr}(KM) + 8\,u_{T-1}^\top MKM u_{T-1}",
        "P_scalar": r"P_s = " + sp.latex(P),
        "K_scalar": r"K(s,t) = a^{|t-s|}P_{\min(s,t)} + \sigma_v^2\delta_{st}",
    }
    constants = {
        "T_VALUES": T_VALUES,
        "POLY": tables,
        "N_ISSERLIS_TERMS": int(m4.replace(Kf, lambda *args: 1)),
        "D_ISSERLIS_TERMS": n6,
        "SYMBOLIC_CROSS_CHECK_T": (3, 4, 5, 6),
    }
    funcs = {
        "P_scalar": ((a, s, sigma0, sigma_w), P),
        "K_scalar_upper": ((a, s, t, sigma0, sigma_w), K_upper),
        "N_scalar_closed": (nargs, N_T),
    }
    doc = ("Scalar-LDS (d = 1, c = 1) Isserlis closed forms for the Theorem 4.1 moments of paper 001.\n\n"
           "POLY[T]['N'][(i, j, k)][m] / POLY[T]['N_scale'] is the coefficient of a^(2m) sigma0^(2i) "
           "sigma_w^(2j) sigma_v^(2k) in N = E[y_{T-1} y_T S]; likewise 'D' for E[y_{T-1}^2 S^2], "
           "S = sum_{i=1}^{T-2} y_i y_{i+1}.\nN_scalar_closed(a, T, ...) is N for any T >= 3 (a^2 != 1, a != 0).\nP_scalar(a, s, ...) is Var(x_s) (a^2 != 1); "
           "K_scalar_upper(a, s, t, ...) = Cov(y_s, y_t) for s < t (add sigma_v^2 when s = t).")
    path = write_module("lds_scalar", funcs, SCRIPT, package=GENERATED_PACKAGE, constants=constants, latex=latex,
                        docstring=doc)
    return [path]


if __name__ == "__main__":
    for p in main():
        print(p)
