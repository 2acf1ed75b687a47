r"""Paper 001: symbolic identities of the attention construction (one-step GD, parity, Eqs. 16-18).

Derived with SymPy on fully symbolic observations :math:`y_1..y_T` and weights:

1. **One-step GD (Theorem 4.1 reading).** With :math:`W_V^*=e_2e_2^\top`,
   :math:`W_{QK}=\eta\,e_1e_1^\top` the attention output :math:`\hat y_T` (computed from the token
   matrix by the full forward pass) equals :math:`w_1y_{T-1}` with
   :math:`w_1=0-\eta\nabla L_{AR(1)}(0)`, :math:`L_{AR(1)}(w)=\frac1{2(T-2)}\sum_{t=1}^{T-2}(y_{t+1}-wy_t)^2`,
   for every T in ``GD_T_VALUES`` (exact), and for symbolic T through the index form
   :math:`\hat y_T=\frac{\eta}{T-2}\sum_{i=1}^{T-2}y_iy_{i+1}\,y_{T-1}`. Step size
   :math:`\eta=W^*_{QK,11}`.
2. **Parity (Lemma 4.1).** Under :math:`y_t\mapsto(-1)^ty_t` each stationarity right-hand-side
   entry :math:`R_{klj}=E[G_{kl}q_jy_T]` picks up a sign; the entries whose sign is :math:`-1`
   vanish under a centrally symmetric prior. Derived by substitution for s = 1..4 at two
   horizons of different parity (the pattern must not depend on T).
3. **Eq. 16 block structure.** :math:`\frac1n Y_0MY_0^\top=\begin{pmatrix}\nabla^2L_{AR(s)}&
   -\nabla L_{AR(s)}(0)\\ \cdot&\gamma\end{pmatrix}` (sign of the off-diagonal block derived).
4. **Eq. 17 predictor form.** For general weights,
   :math:`\hat y_T=(P\nabla^2L\,q+\xi_1P\nabla L(0)+\xi_2p)^\top\bar y_{T-s}` with
   :math:`P=\tilde W^\top` (upper-left s x s block of :math:`W_{QK}`, transposed),
   :math:`q` = first s entries of the last row of :math:`W_V`, :math:`p` = last row of
   :math:`W_{QK}` (first s entries), :math:`\xi_1=-(W_V)_{s+1,s+1}`,
   :math:`\xi_2=\gamma(W_V)_{s+1,s+1}-\nabla L(0)^\top q`.
"""
from __future__ import annotations

from pathlib import Path

import sympy as sp


from ....codegen import write_module
from ..theory.symbolic import sym_ar_loss, sym_attention_forward, sym_observations, sym_token_matrix

SCRIPT = "theorycheck.papers.lds.derivations.lds_identities"
GENERATED_PACKAGE = "theorycheck.papers.lds.generated"
GD_T_VALUES = tuple(range(4, 11))
PARITY_S = (1, 2, 3, 4)
BLOCK_CASES = ((1, 5), (2, 6), (3, 7), (4, 8))


def gd_identity_sides(T: int) -> tuple[sp.Expr, sp.Expr]:
    """(attention output at the Theorem 4.1 weights with W_QK,11 = eta, one-step-GD prediction
    w_1 y_{T-1} with w_1 = 0 - eta grad L_AR(1)(0)), both expanded, on symbolic y_1..y_T."""
    y = sym_observations(T)
    eta = sp.Symbol("eta", real=True)
    Wq = sp.Matrix([[eta, 0], [0, 0]])
    Wv = sp.Matrix([[0, 0], [0, 1]])
    out = sym_attention_forward(Wq, Wv, sym_token_matrix(y, 1))
    yhat = out[1, T - 2]
    w = sp.Symbol("w", real=True)
    L = sym_ar_loss(y, 1, [w])
    w1 = 0 - eta * sp.diff(L, w).subs(w, 0)
    return sp.expand(yhat), sp.expand(w1 * y[T - 2])


def gd_identity(T: int) -> sp.Expr:
    lhs, rhs = gd_identity_sides(T)
    return sp.expand(lhs - rhs)


def gd_symbolic_T_sides():
    """Index form for symbolic T: (attention output, one-step-GD prediction) as SymPy sums."""
    T, i = sp.symbols("T i", integer=True, positive=True)
    y = sp.IndexedBase("y")
    eta, w = sp.symbols("eta w", real=True)
    n = T - 2
    G21 = sp.Sum(y[i + 1] * y[i], (i, 1, n)) / n                 # (1/n) (Y0 M Y0^T)_{21}
    yhat = eta * G21 * y[T - 1]                                   # v^T G W q with v=e2, W=eta e1e1^T
    L = sp.Sum((y[i + 1] - w * y[i]) ** 2, (i, 1, n)) / (2 * n)
    grad0 = sp.diff(L, w).subs(w, 0).doit()
    return yhat, (0 - eta * grad0) * y[T - 1], grad0


def gd_identity_symbolic_T():
    """Index form for symbolic T: the (2,1) entry of Y0 M Y0^T is sum_{i=1}^{T-2} y_{i+1} y_i."""
    yhat, pred, grad0 = gd_symbolic_T_sides()
    diff = sp.simplify(sp.expand((yhat - pred).doit()))
    return diff, sp.latex(sp.Eq(sp.Symbol(r"\hat y_T"), yhat)), sp.latex(sp.Eq(sp.Symbol(r"\nabla L_{AR(1)}(0)"), grad0))


def parity_pattern(s: int, T: int):
    y = sym_observations(T)
    Y0 = sym_token_matrix(y, s)
    n = T - s - 1
    flip = {y[t]: (-1) ** (t + 1) * y[t] for t in range(T)}      # y_t -> (-1)^t y_t (1-based t)
    zeros = []
    for j in range(1, s + 1):
        for k in range(1, s + 2):
            for l in range(1, s + 2):
                G = sum(Y0[k - 1, i] * Y0[l - 1, i] for i in range(n)) / n
                f = G * Y0[j - 1, T - s - 1] * y[T - 1]
                sign = sp.simplify(f.xreplace(flip) / f)
                if sign not in (1, -1):
                    raise AssertionError(f"parity sign is not +-1: {sign}")
                if sign == -1:
                    zeros.append((k, l, j))
    return tuple(zeros)


def block_sides(s: int, T: int):
    """((1/n) Y0 M Y0^T, the block matrix [[Hessian, -grad L(0)], [-grad L(0)^T, gamma]]) of L_AR(s),
    both expanded, on symbolic y_1..y_T; also the pieces (H, grad0, gamma)."""
    y = sym_observations(T)
    Y0 = sym_token_matrix(y, s)
    n = Y0.shape[1] - 1
    G = (Y0 * sp.diag(*([1] * n + [0])) * Y0.T / n).applyfunc(sp.expand)
    w = sp.symbols(f"w_1:{s + 1}", real=True)
    L = sym_ar_loss(y, s, w)
    grad0 = sp.Matrix([sp.diff(L, wk) for wk in w]).subs({wk: 0 for wk in w}).applyfunc(sp.expand)
    H = sp.Matrix(s, s, lambda r, c: sp.expand(sp.diff(L, w[r], w[c])))
    gamma = sp.expand(sum(y[t + s] ** 2 for t in range(n)) / n)
    block = sp.Matrix(sp.BlockMatrix([[H, -grad0], [-grad0.T, sp.Matrix([[gamma]])]]))
    return G, block, (H, grad0, gamma)


def predictor_sides(s: int, T: int):
    """(attention output for general symbolic weights, (P H q + xi1 P g0 + xi2 p)^T x), expanded."""
    y = sym_observations(T)
    Y0 = sym_token_matrix(y, s)
    Wq = sp.Matrix(s + 1, s + 1, lambda r, c: sp.Symbol(f"Q_{r + 1}{c + 1}", real=True))
    Wv = sp.Matrix(s + 1, s + 1, lambda r, c: sp.Symbol(f"V_{r + 1}{c + 1}", real=True))
    yhat = sym_attention_forward(Wq, Wv, Y0)[s, T - s - 1]
    N = Y0.shape[1]
    n = N - 1
    G = Y0 * sp.diag(*([1] * n + [0])) * Y0.T / n
    H, g0, gam = G[:s, :s], -G[:s, s], G[s, s]
    P = Wq[:s, :s].T
    p = Wq[s, :s].T
    q = Wv[s, :s].T
    xi1 = -Wv[s, s]
    xi2 = gam * Wv[s, s] - (g0.T * q)[0, 0]
    w_att = P * H * q + xi1 * P * g0 + xi2 * p
    x = Y0[:s, N - 1]
    return sp.expand(yhat), sp.expand((w_att.T * x)[0, 0])


def block_structure(s: int, T: int) -> bool:
    """Eq. 16 holds: (1/n) Y0 M Y0^T equals the block matrix of :func:`block_sides`, entry by entry (expanded)."""
    G, block, _ = block_sides(s, T)
    return (G - block).applyfunc(sp.expand) == sp.zeros(s + 1, s + 1)


def predictor_form(s: int, T: int) -> bool:
    """Eq. 17 holds: the two sides of :func:`predictor_sides` are equal (expanded)."""
    lhs, rhs = predictor_sides(s, T)
    return sp.expand(lhs - rhs) == 0


def main() -> list[Path]:
    gd = {T: gd_identity(T) for T in GD_T_VALUES}
    if any(v != 0 for v in gd.values()):
        raise AssertionError("one-step GD identity failed")
    diffT, yhat_tex, grad_tex = gd_identity_symbolic_T()
    if diffT != 0:
        raise AssertionError(f"symbolic-T GD identity failed: {diffT}")
    zeros = {}
    for s in PARITY_S:
        z1 = parity_pattern(s, s + 5)
        z2 = parity_pattern(s, s + 6)
        if z1 != z2:
            raise AssertionError(f"parity pattern depends on T for s = {s}")
        zeros[s] = z1
    if not all(block_structure(s, T) for s, T in BLOCK_CASES):
        raise AssertionError("Eq. 16 block structure failed")
    if not all(predictor_form(s, T) for s, T in BLOCK_CASES[:3]):
        raise AssertionError("Eq. 17 predictor form failed")
    eta = sp.Symbol("eta")
    latex = {
        "gd_attention": yhat_tex,
        "gd_gradient": grad_tex,
        "gd_step": r"w_1 = 0 - \eta\nabla L_{AR(1)}(0),\quad \eta = W^*_{QK,11} = "
                   r"\frac{(T-2)E[y_{T-1}y_T\sum_{i=1}^{T-2}y_iy_{i+1}]}{E[y_{T-1}^2(\sum_{i=1}^{T-2}y_iy_{i+1})^2]}",
        "block16": r"\tfrac1n Y_0MY_0^\top = \begin{pmatrix}\nabla^2L_{AR(s)} & -\nabla L_{AR(s)}(0)\\"
                   r" -\nabla L_{AR(s)}(0)^\top & \gamma\end{pmatrix},\ \gamma=\tfrac1n\sum_t y_{t+s}^2",
        "pred17": r"\hat y_T = \big(P\nabla^2L\,q + \xi_1P\nabla L(0) + \xi_2 p\big)^\top\bar y_{T-s},\ "
                  r"P=\tilde W^\top,\ \xi_1=-(W_V)_{s+1,s+1},\ \xi_2=\gamma(W_V)_{s+1,s+1}-\nabla L(0)^\top q",
        "parity": r"R_{klj}=E[G_{kl}q_jy_T]=(-1)^{k+l+j+s+1}R_{klj}\ \Rightarrow\ R_{klj}=0\text{ if }k+l+j+s\text{ even}",
    }
    constants = {"GD_T_VALUES": GD_T_VALUES, "ZERO_PATTERN": zeros, "BLOCK_CASES": BLOCK_CASES,
                 "PREDICTOR_FORM_CASES": BLOCK_CASES[:3], "GD_IDENTITY_SYMBOLIC_T": True}
    funcs = {"gd_step_size": ((sp.Symbol("T"), sp.Symbol("N"), sp.Symbol("D")),
                              (sp.Symbol("T") - 2) * sp.Symbol("N") / sp.Symbol("D"))}
    doc = ("Symbolic identities of paper 001 (derived by theorycheck/papers/lds/derivations/lds_identities.py).\n\n"
           "ZERO_PATTERN[s]: 1-based (k, l, j) with E[G_kl q_j y_T] = 0 forced by A -> -A symmetry.\n"
           "gd_step_size(T, N, D): step eta = (T-2) N / D of the one-step-GD reading of Theorem 4.1.")
    return [write_module("lds_identities", funcs, SCRIPT, package=GENERATED_PACKAGE, constants=constants,
                         latex=latex, docstring=doc)]


if __name__ == "__main__":
    for p in main():
        print(p)
