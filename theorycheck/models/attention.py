r"""Forward passes of the attention models the papers analyse: the papers' own routes.

The single layers below are :class:`theorycheck.models.icl.ICLLayer` in the papers' parameterisations
(:meth:`~theorycheck.models.icl.ICLLayer.gla`, :meth:`~theorycheck.models.icl.ICLLayer.lds`), computed the way each
paper writes its model and kept so that the papers' numbers stay the same to the last bit;
``tests/test_models_generic.py`` checks every one against the generic layer (1e-12 relative).

Gated linear attention (paper 000)
    :func:`gla_forward` — the full parametrisation: the recursion
    :math:`S_i=\lambda S_{i-1}+(W_Vz_i)z_i^\top` over tokens :math:`z_i=(x_i,y_i)` (query token
    included with label slot 0), prediction :math:`(S_{n+1}W_{KQ}z_{n+1})_{d+1}`; :math:`\lambda=1`
    is linear attention. :func:`gla_stream_errors` — the reduced parametrisation run as a
    streaming predictor, :math:`\hat y_t=x_t^\top\Gamma h_t`, :math:`h_t=\sum_{s<t}\lambda^{t-s}y_sx_s`.
    :func:`gla_stack_forward` / :func:`gla_stack_loss_and_grad` — a stack of GLA layers with a
    residual stream (the multi-layer GLA of the depth experiments), its MSE and exact gradients.
One-layer linear self-attention on sequence tokens (paper 001)
    :func:`token_matrix`, :func:`attention_forward`, :func:`attention_predict`,
    :func:`attention_loss_and_grad`, :func:`effective_coefficients`:
    :math:`T_\theta(Y_0)=Y_0+\tfrac1nW_VY_0M(Y_0^\top W_{QK}Y_0)`, prediction the entry
    :math:`(s+1,T-s)`.
Reduced linear attention on context statistics (paper 004)
    :func:`reduced_features` — :math:`\hat y=\langle\Gamma,x_{\rm test}[u^\top,s]\rangle_F`.

>>> X = np.ones((1, 2, 1)); Y = np.array([[2.0, 5.0]])
>>> float(gla_forward(X, Y, 1.0, np.eye(2), np.eye(2))[0])      # (y_1 x_1 + 0) x_q = 2
2.0
"""
from __future__ import annotations

import math

import numpy as np

from ..memo import Memo, key, memoize
from ..validate import ParameterTypeError, check_array, check_bool, check_int, check_memory, check_real
from .filters import check_streams

__all__ = ["gla_forward", "gla_stream_errors", "gla_stack_forward", "gla_stack_loss_and_grad", "token_matrix", "attention_forward", "attention_predict",
           "attention_loss_and_grad", "effective_coefficients", "reduced_features"]


def gla_forward(X, Y, lam, W_KQ, W_V):
    r"""Prediction of single-layer GLA, shape ``(B,)``: the recursion :math:`S_i=\lambda S_{i-1}+(W_Vz_i)z_i^\top`
    over the tokens :math:`z_i=(x_i,y_i)`, :math:`i=1..n+1` (keys :math:`k_i=z_i`; the query token
    :math:`z_{n+1}=(x_{n+1},0)` is included), read out as :math:`\hat y=(S_{n+1}W_{KQ}z_{n+1})_{d+1}`.

    The generic layer :meth:`ICLLayer.gla(lam) <theorycheck.models.icl.ICLLayer.gla>` computed by the paper's
    recursion. Only the row of the state the prediction reads is carried: :math:`s_i^\top=e_{d+1}^\top S_i` obeys the same
    recursion, :math:`s_i=\lambda s_{i-1}+(w_V^\top z_i)z_i` with :math:`w_V^\top` the last row of
    :math:`W_V`, and :math:`\hat y=s_{n+1}^\top W_{KQ}z_{n+1}` — O(B n d) work instead of O(B n d²).
    ``X (B, n+1, d)``, ``Y (B, n+1)`` (the query's label ``Y[:, -1]`` is never read).
    """
    X, Y, lam, W_KQ, W_V = _gla_inputs(X, Y, lam, W_KQ, W_V)
    size, T, d = X.shape
    Z = np.empty((T, size, d + 1))                   # time-major tokens, the query's label slot 0
    Z[:, :, :d] = X.transpose(1, 0, 2)
    Z[:, :, d] = Y.T
    Z[T - 1, :, d] = 0.0
    a = Z @ W_V[d]                                   # w_Vᵀ z_i, (T, B)
    s = np.zeros((size, d + 1))
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(T):
            s = lam * s + a[i][:, None] * Z[i]
        out = np.einsum("bj,bj->b", s, Z[T - 1] @ W_KQ.T)
    if not np.all(np.isfinite(out)):
        raise ValueError(f"the GLA prediction is not finite (overflow) for lam = {lam!r} and the given X, Y, W_KQ, "
                         "W_V; rescale the inputs or the weights")
    return out


def _gla_inputs(X, Y, lam, W_KQ, W_V):
    X = check_array("X", X, ndim=3)
    if X.shape[0] < 1 or X.shape[1] < 1 or X.shape[2] < 1:
        raise ValueError(f"X must have shape (B, n+1, d) with B, n+1, d >= 1, got {X.shape}")
    Y = check_array("Y", Y, ndim=2, shape=X.shape[:2])
    lam = check_real("lam", lam, 0.0, 1.0, low_open=True)
    D = X.shape[2] + 1
    W_KQ = check_array("W_KQ", W_KQ, ndim=2, shape=(D, D))
    W_V = check_array("W_V", W_V, ndim=2, shape=(D, D))
    return X, Y, lam, W_KQ, W_V


def gla_stream_errors(X, Y, lam, Gamma):
    r"""A priori squared errors of GLA with fixed Γ: :math:`\hat y_t=x_t^\top\Gamma h_t`.

    :math:`h_1=0`, :math:`h_{t+1}=\lambda(h_t+y_tx_t)` so :math:`h_t=\sum_{s<t}\lambda^{t-s}y_sx_s`.

    >>> X = np.ones((2, 1, 1)); Y = np.ones((2, 1))
    >>> gla_stream_errors(X, Y, 0.5, np.eye(1))[:, 0].tolist()    # ŷ_2 = 0.5
    [1.0, 0.25]
    """
    X, Y = check_streams(X, Y)
    lam = check_real("lam", lam, 0.0, 1.0, low_open=True)
    T, R, d = X.shape
    G = check_array("Gamma", Gamma, ndim=2, shape=(d, d))
    h = np.zeros((R, d))
    E = np.empty((T, R))
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(T):
            e = Y[t] - np.einsum("rd,rd->r", X[t], h @ G.T)
            E[t] = e * e
            h = lam * (h + Y[t][:, None] * X[t])
    if not np.all(np.isfinite(E)):
        raise ValueError(f"the GLA stream errors are not finite (overflow) for lam = {lam!r} and the given X, Y, "
                         "Gamma; rescale the inputs")
    return E


def gla_tokens(X, Y, scratch=False):
    X = check_array("X", X, ndim=3)
    if X.shape[1] < 2 or X.shape[0] < 1 or X.shape[2] < 1:
        raise ValueError(f"X must have shape (B, n+1, d) with B, d >= 1 and n >= 1, got {X.shape}")
    Y = check_array("Y", Y, ndim=2, shape=X.shape[:2])
    B, T, d = X.shape
    Z = _scratch("Z0", (B, T, d + 1)) if scratch else np.empty((B, T, d + 1))    # tokens z_i = (x_i, y_i)
    Z[:, :, :d] = X
    Z[:, :, d] = Y
    Z[:, -1, d] = 0.0                                # the query's label slot is 0
    return Z


def gla_stack_params(lams, W_KQs, W_Vs, D):
    lams = check_array("lams", lams, ndim=(0, 1))
    lams = [check_real("lams[%d]" % k, x, 0.0, 1.0, low_open=True) for k, x in enumerate(np.atleast_1d(lams))]
    for name, group in (("W_KQs", W_KQs), ("W_Vs", W_Vs)):
        if not isinstance(group, (list, tuple)):
            raise ParameterTypeError(f"{name} must be a list of ({D}, {D}) matrices, one per layer, got "
                                     f"{type(group).__name__}")
    if len(W_KQs) != len(lams) or len(W_Vs) != len(lams) or not lams:
        raise ValueError(f"lams, W_KQs and W_Vs must have the same length >= 1, got {len(lams)}, {len(W_KQs)}, "
                         f"{len(W_Vs)}")
    Ws = []
    for name, group in (("W_KQs", W_KQs), ("W_Vs", W_Vs)):
        Ws.append([check_array(f"{name}[{k}]", W, ndim=2, shape=(D, D)) for k, W in enumerate(group)])
    return lams, Ws[0], Ws[1]


@memoize("models.attention.decay_matrix", maxsize=256)
def _decay_matrix(T, lam, normalise):
    # read-only and memoised: the same (T, λ, normalise) recurs at every training step
    j = np.arange(T)
    age = j[:, None] - j[None, :]
    M = np.where(age >= 0, lam ** np.maximum(age, 0), 0.0)
    M = (1.0 - lam) * M if normalise else M
    M.setflags(write=False)
    return M


# The scratch buffers and the last kept run belong to one thread (a Dask worker may run tasks in several threads of
# one process: shared buffers would be overwritten by another thread's pass): per-thread memos of theorycheck.memo,
# emptied by memo.clear_all like every other memo. Buffers above 4 MB are not kept; at most 64 MB are kept in all.
_SCRATCH = Memo("models.attention.scratch", maxsize=4096, maxbytes=64 * 2 ** 20, max_item_bytes=4 * 2 ** 20,
                per_thread=True)
_LAST_RUN = Memo("models.attention.last_run", maxsize=1, per_thread=True)
_RUN = key("the last run")


def _scratch(tag, shape, zeros=False):
    # a reusable buffer for a large temporary of the private passes below (never returned to a caller): malloc hands
    # fresh allocations of this size back to the OS, and page-faulting them in again at every training step costs
    # more than the arithmetic. ``zeros``: created zero (for buffers whose callers only ever write the same non-zero
    # positions)
    k = key(tag, shape)
    a = _SCRATCH.get(k)
    if a is None:
        a = _SCRATCH.put(k, np.zeros(shape) if zeros else np.empty(shape))
    return a


def _stack_layer(Z, M, Wk, Wv, k):
    # one full layer: Z + A V with A = (Q Zᵀ) ∘ M, Q = Z W_KQᵀ, V = Z W_Vᵀ (per prompt), in the buffers of layer k
    B, T, D = Z.shape
    Zf = Z.reshape(B * T, D)
    Q = np.matmul(Zf, Wk.T, out=_scratch(("Q", k), (B * T, D))).reshape(B, T, D)
    Zt = _scratch("Zt", (B, D, T))
    Zt[...] = Z.transpose(0, 2, 1)
    A = np.matmul(Q, Zt, out=_scratch(("A", k), (B, T, T)))
    A *= M
    V = np.matmul(Zf, Wv.T, out=_scratch(("V", k), (B * T, D))).reshape(B, T, D)
    Zn = np.matmul(A, V, out=_scratch(("Z", k + 1), (B, T, D)))
    Zn += Z
    return Zn, Q, A, V


def _tail_rows(T):
    m = T % 4
    return min(m + 4 if m < 2 else m, T)


def gla_stack_core(Z, lams, W_KQs, W_Vs, normalise, tape=None, keep=False):
    # the unchecked forward pass on tokens Z (B, T, D); ``tape`` (a list) receives what the backward pass needs.
    # ``keep``: remember this run (inputs, prediction, tape) for _kept_run until the next run, which overwrites the
    # scratch buffers the tape lives in (Z itself must then not be a scratch buffer)
    _LAST_RUN.put(_RUN, None)             # this run overwrites the buffers the kept run's tape lives in
    if keep and tape is None:
        tape = []
    out = _stack_run(Z, lams, W_KQs, W_Vs, normalise, tape)
    if keep:
        _LAST_RUN.put(_RUN, (Z, [W.copy() for W in (*W_KQs, *W_Vs)], list(lams), normalise, out.copy(), tape))
    return out


def _kept_run(Z, lams, W_KQs, W_Vs, normalise):
    # (prediction, tape) of the kept run if its inputs were bit for bit these (its numbers are then exactly those a
    # new run would compute), else None. Training asks for the gradient at the accepted Armijo trial point, whose
    # forward pass has just been run
    kept = _LAST_RUN.get(_RUN)
    if kept is None:
        return None
    Zk, Wk, lk, nk, yk, tk = kept
    Ws = (*W_KQs, *W_Vs)
    if nk != normalise or lk != list(lams) or Zk.shape != Z.shape or len(Wk) != len(Ws):
        return None
    for W, V in zip(Ws, Wk):
        if W.shape != V.shape or not np.array_equal(W.view(np.uint64), V.view(np.uint64)):
            return None
    if not np.array_equal(Z.view(np.uint64), Zk.view(np.uint64)):
        return None
    return yk.copy(), tk


def _stack_run(Z, lams, W_KQs, W_Vs, normalise, tape):
    B, T, D = Z.shape
    L = len(lams)
    for k in range(L - 1):
        M = _decay_matrix(T, lams[k], normalise)
        Zn, Q, A, V = _stack_layer(Z, M, W_KQs[k], W_Vs[k], k)
        if tape is not None:
            tape.append((Z, Q, A, V, M))
        Z = Zn
    # last layer: the prediction reads only the query row. The last m rows are computed, m = 2..5 with m = T mod 4:
    # the per-prompt products then stay on the BLAS matrix-matrix kernel, in the same position of its row tiling,
    # hence with the same rounding as the full product. Bounded entries guarantee that the rows not computed are
    # finite (the full computation is used otherwise), so dropping them changes no value of the backward pass
    M = _decay_matrix(T, lams[-1], normalise)
    Wk, Wv = W_KQs[-1], W_Vs[-1]
    if max(Z.max(), -Z.min()) < 1e60 and max(Wk.max(), -Wk.min(), Wv.max(), -Wv.min()) < 1e60:
        m = _tail_rows(T)
        Zm = _scratch("Zm", (B, m, D))
        Zm[...] = Z[:, T - m:, :]
        Qm = np.matmul(Zm.reshape(B * m, D), Wk.T, out=_scratch(("Qm", L - 1), (B * m, D))).reshape(B, m, D)
        Zt = _scratch("Zt", (B, D, T))
        Zt[...] = Z.transpose(0, 2, 1)
        Am = np.matmul(Qm, Zt, out=_scratch(("Am", L - 1), (B, m, T)))
        Am *= M[T - m:]
        V = np.matmul(Z.reshape(B * T, D), Wv.T, out=_scratch(("V", L - 1), (B * T, D))).reshape(B, T, D)
        out = Z[:, -1, -1] + np.matmul(Am, V, out=Zm)[:, -1, -1]
        if tape is not None:
            tape.append((Z, Qm[:, -1], Am[:, -1], V, M, True))
        return out
    Q = Z @ Wk.T
    A = (Q @ Z.transpose(0, 2, 1)) * M
    V = Z @ Wv.T
    if tape is not None:
        tape.append((Z, Q, A, V, M))
    return (Z + A @ V)[:, -1, -1]


def _stack_backward(tape, g, W_KQs, W_Vs):
    # reverse mode through the residual stream; g = dL/dŷ (B,). Returns (grads_KQ, grads_V)
    L = len(tape)
    gK, gV = [None] * L, [None] * L
    for k in reversed(range(L)):
        entry = tape[k]
        Z = entry[0]
        B, T, D = Z.shape
        Zf = Z.reshape(B * T, D)
        if len(entry) == 6:
            # last layer, only dZ[:, T-1, D-1] = g is non-zero: every product below with a single non-zero term is
            # that term, so dV, dS, dSᵀQ and dV W_V reduce to elementwise products (exactly, as all entries are finite)
            _, q, a, V, M, _ = entry
            # (the zero entries of dV, dQ and dSm below are never written: buffers created zero)
            dV = _scratch("dV_last", (B, T, D), zeros=True)
            dv = np.multiply(a, g[:, None], out=dV[:, :, D - 1])               # dV[:, :, D-1]
            m = _tail_rows(T)                                   # products over the last m rows: see gla_stack_core
            dSm = _scratch("dS_last", (B, m, T), zeros=True)
            s = np.multiply(g[:, None], V[:, :, D - 1], out=dSm[:, -1])
            s *= M[T - 1]                                        # dS[:, T-1, :]
            dqm = np.matmul(dSm, Z, out=_scratch("dQm", (B, m, D)))
            dQ = _scratch("dQ_last", (B, T, D), zeros=True)
            dq = dQ[:, T - 1]
            dq[...] = dqm[:, -1]                                 # dQ[:, T-1, :]
            gV[k] = dV.reshape(-1, D).T @ Zf
            gK[k] = dQ.reshape(-1, D).T @ Zf
            if k > 0:
                dZ = np.multiply(s[:, :, None], q[:, None, :], out=_scratch(("dZ", k % 2), (B, T, D)))   # dSᵀ Q
                dZ += np.multiply(dv[:, :, None], W_Vs[k][D - 1], out=_scratch("tmp", (B * T, D)).reshape(B, T, D))  # dV W_V
                last = np.zeros((B, D))
                last[:, D - 1] = g
                last += s[:, T - 1, None] * q
                last += (dqm.reshape(B * m, D) @ W_KQs[k]).reshape(B, m, D)[:, -1]
                last += dv[:, T - 1, None] * W_Vs[k][D - 1]
                dZ[:, T - 1] = last
            continue
        _, Q, A, V, M = entry
        dV = _scratch("dV", (B, T, D))
        dQ = _scratch("dQ", (B, T, D))
        if k == L - 1:
            dZ = np.zeros((B, T, D))
            dZ[:, -1, -1] = g
        np.matmul(A.transpose(0, 2, 1), dZ, out=dV)                # dO = dZ (residual)
        Vt = _scratch("Vt", (B, D, T))
        Vt[...] = V.transpose(0, 2, 1)
        dS = np.matmul(dZ, Vt, out=_scratch("dS", (B, T, T)))
        dS *= M
        np.matmul(dS, Z, out=dQ)
        gV[k] = dV.reshape(-1, D).T @ Zf
        gK[k] = dQ.reshape(-1, D).T @ Zf
        if k > 0:
            t = np.matmul(dS.transpose(0, 2, 1), Q, out=_scratch(("dZ", k % 2), (B, T, D)))
            t += dZ
            tmp = _scratch("tmp", (B * T, D))
            t += np.matmul(dQ.reshape(-1, D), W_KQs[k], out=tmp).reshape(B, T, D)
            t += np.matmul(dV.reshape(-1, D), W_Vs[k], out=tmp).reshape(B, T, D)
            dZ = t
    return gK, gV


def gla_stack_forward(X, Y, lams, W_KQs, W_Vs, normalise=False, _cache=None):
    r"""Prediction of a stack of GLA layers with a residual stream, shape ``(B,)``.

    Tokens :math:`z_i=(x_i,y_i)`, query :math:`z_{n+1}=(x_{n+1},0)`. Layer :math:`\ell` maps every
    position :math:`j` (causally) to :math:`z_j\leftarrow z_j+W_V^\ell\sum_{i\le j}c_\ell\lambda_\ell^{\,j-i}
    z_iz_i^\top W_{KQ}^\ell z_j` (the GLA recursion :math:`S_j=\lambda S_{j-1}+v_jk_j^\top` read out at every
    position), with :math:`c_\ell=1`, or :math:`c_\ell=1-\lambda_\ell` when ``normalise`` (gate weights
    summing to at most 1: a reparametrisation :math:`W_V\to(1-\lambda)W_V` of the same model). The prediction
    is the label slot of the query after the last layer. One layer without normalisation is
    :func:`gla_forward`. The last layer is evaluated at the query position only (all the prediction reads).

    >>> rng = np.random.default_rng(0); X = rng.standard_normal((3, 4, 2)); Y = rng.standard_normal((3, 4))
    >>> W = [rng.standard_normal((3, 3))]; V = [rng.standard_normal((3, 3))]
    >>> bool(np.allclose(gla_stack_forward(X, Y, [0.7], W, V), gla_forward(X, Y, 0.7, W[0], V[0])))
    True
    """
    Z = gla_tokens(X, Y, scratch=_cache is None)
    B, T, D = Z.shape
    lams, W_KQs, W_Vs = gla_stack_params(lams, W_KQs, W_Vs, D)
    normalise = check_bool("normalise", normalise)
    if _cache is None:
        return gla_stack_core(Z, lams, W_KQs, W_Vs, normalise)
    for lam, Wk, Wv in zip(lams, W_KQs, W_Vs):      # every layer in full, its (Z, Q, A, V, M) appended to _cache
        M = _decay_matrix(T, lam, normalise)
        Q = Z @ Wk.T                                  # queries q_j = W_KQ z_j
        A = (Q @ Z.transpose(0, 2, 1)) * M            # A[j, i] = c λ^{j-i} q_j·z_i, i <= j
        V = Z @ Wv.T                                  # values v_i = W_V z_i
        _cache.append((Z, Q, A, V, M))
        Z = Z + A @ V
    return Z[:, -1, -1]


def gla_stack_loss_and_grad(X, Y, lams, W_KQs, W_Vs, normalise=False):
    r"""MSE :math:`\frac1B\sum_b(\hat y_b-y_{b,n+1})^2` (not halved) of :func:`gla_stack_forward` and its
    exact gradients (reverse mode through the residual stream). Returns ``(loss, grads_KQ, grads_V)``.
    The forward pass of the last private run with bit-identical inputs is reused (training evaluates the
    accepted Armijo trial point just before asking for its gradient).

    >>> rng = np.random.default_rng(1); X = rng.standard_normal((4, 3, 2)); Y = rng.standard_normal((4, 3))
    >>> W = [0.3 * rng.standard_normal((3, 3)) for _ in range(2)]; V = [0.3 * rng.standard_normal((3, 3)) for _ in range(2)]
    >>> loss, gK, gV = gla_stack_loss_and_grad(X, Y, [0.5, 0.8], W, V)
    >>> W2 = [w.copy() for w in W]; W2[1][0, 2] += 1e-6
    >>> fd = (gla_stack_loss_and_grad(X, Y, [0.5, 0.8], W2, V)[0] - loss) / 1e-6
    >>> bool(abs(fd - gK[1][0, 2]) < 1e-4 * max(1.0, abs(fd)))
    True
    """
    Z = gla_tokens(X, Y, scratch=True)
    B, T, D = Z.shape
    lams, W_KQs, W_Vs = gla_stack_params(lams, W_KQs, W_Vs, D)
    normalise = check_bool("normalise", normalise)
    kept = _kept_run(Z, lams, W_KQs, W_Vs, normalise)
    if kept is None:
        tape = []
        yhat = gla_stack_core(Z, lams, W_KQs, W_Vs, normalise, tape)
    else:
        yhat, tape = kept
    Y = np.asarray(Y, dtype=float)
    r = yhat - Y[:, -1]
    loss = float(np.mean(r * r))
    gK, gV = _stack_backward(tape, 2.0 * r / B, W_KQs, W_Vs)
    return loss, gK, gV


def check_series(Y, s):
    Y = check_array("Y", Y, ndim=(1, 2), finite=False)
    if Y.ndim == 1:
        Y = Y[None]
    if Y.shape[1] < s + 3:
        raise ValueError(f"Y must have T >= s + 3 = {s + 3} time steps, got T = {Y.shape[1]}")
    if Y.shape[0] < 1:
        raise ValueError(f"Y must hold at least one sequence, got shape {Y.shape}")
    if not np.all(np.isfinite(Y)):
        raise ValueError("Y must be finite")
    return Y


def _finite_output(out, what, **names):
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{what} is not finite (overflow) for the given {', '.join(names)}; rescale them")
    return out


def token_matrix(Y, s: int) -> np.ndarray:
    r"""The prompt :math:`Y_0` (B, s+1, T-s): columns :math:`[\bar y_i; y_{i+s}]`, :math:`i=1..T-s-1`,
    and the query :math:`[\bar y_{T-s}; 0]`.

    >>> token_matrix(np.arange(1.0, 6.0), 1)[0]
    array([[1., 2., 3., 4.],
           [2., 3., 4., 0.]])
    """
    s = check_int("s", s, minimum=1, maximum=10_000)
    return _token_matrix(check_series(Y, s), s)


@memoize("models.attention.token_index", maxsize=256)
def _token_index(T, s):
    # read-only and memoised: the positions gathered into the prompt, the same (T, s) at every training step
    N = T - s
    idx = np.arange(N)[None, :] + np.arange(s + 1)[:, None]       # (s+1, N)
    idx = np.minimum(idx, T - 1)
    idx.setflags(write=False)
    return idx


def _token_matrix(Y, s):
    # token_matrix for a Y already checked by check_series(Y, s): only the memory guard
    B, T = Y.shape
    check_memory("s", s, 8.0 * B * (s + 1) * T, f"the {B} x {s + 1} x {T} prompts")
    Y0 = Y[:, _token_index(T, s)]
    Y0[:, s, T - s - 1] = 0.0
    return Y0


def check_weights(W_QK, W_V):
    W_QK = check_array("W_QK", W_QK, ndim=2)
    W_V = check_array("W_V", W_V, ndim=2)
    if W_QK.shape[0] != W_QK.shape[1] or W_QK.shape[0] < 2:
        raise ValueError(f"W_QK must be a square (s+1, s+1) matrix with s >= 1, got shape {W_QK.shape}")
    if W_V.shape != W_QK.shape:
        raise ValueError(f"W_V must have the shape of W_QK {W_QK.shape}, got {W_V.shape}")
    return W_QK, W_V, W_QK.shape[0] - 1


def attention_forward(W_QK, W_V, Y0) -> np.ndarray:
    r"""Full output :math:`T_\theta(Y_0)=Y_0+\frac1n W_VY_0M(Y_0^\top W_{QK}Y_0)` (B, s+1, N).

    >>> Y0 = token_matrix(np.arange(1.0, 6.0), 1)
    >>> out = attention_forward(np.array([[1.0, 0], [0, 0]]), np.array([[0, 0], [0, 1.0]]), Y0)
    >>> float(out[0, 1, 3]) == 4 * (1 * 2 + 2 * 3 + 3 * 4) / 3
    True
    """
    W_QK, W_V, s = check_weights(W_QK, W_V)
    Y0 = check_array("Y0", Y0, ndim=(2, 3))
    if Y0.ndim == 2:
        Y0 = Y0[None]
    if Y0.shape[0] < 1 or Y0.shape[1] != s + 1 or Y0.shape[2] < 2:
        raise ValueError(f"Y0 must have shape (B, {s + 1}, N) with B >= 1, N >= 2, got {Y0.shape}")
    B, _, N = Y0.shape
    check_memory("Y0", Y0.shape, 8.0 * B * N * (N + 2 * (s + 1)), f"the {B} x {N} x {N} attention scores")
    n = N - 1
    mask = np.ones(N)
    mask[-1] = 0.0
    with np.errstate(over="ignore", invalid="ignore"):
        left = np.einsum("ij,bjk->bik", W_V, Y0) * mask[None, None, :]       # W_V Y0 M
        right = np.einsum("bji,jk,bkl->bil", Y0, W_QK, Y0)                     # Y0^T W_QK Y0
        out = Y0 + np.einsum("bik,bkl->bil", left, right) / n
    return _finite_output(out, "the attention output", W_QK=1, W_V=1, Y0=1)


def attention_predict(W_QK, W_V, Y) -> np.ndarray:
    r""":math:`\hat y_T`: entry :math:`(s+1, T-s)` of :math:`T_\theta(Y_0)` for each row of ``Y``
    (shape (B, T)); ``s`` is read from the weights' shape ``(s+1, s+1)``.

    The generic layer :class:`~theorycheck.models.icl.ICLLayer` in paper 001's parameterisation
    (:meth:`~theorycheck.models.icl.ICLLayer.lds`: the tokens are the columns of :math:`Y_0`, the query excluded from
    the sum, :math:`1/n`, no forgetting, ``W_KQ`` = :math:`W_{QK}`). This route — the same products as
    :func:`attention_forward` restricted to the query column, so memory grows like B·T, not B·T² — is kept for the
    paper's numbers to the last bit; ``tests/test_models_generic.py`` checks it against
    :meth:`~theorycheck.models.icl.ICLLayer.predict` (1e-12 relative).

    >>> Y = np.array([[1.0, 2.0, 3.0, 4.0, 5.0]])
    >>> attention_predict(np.array([[1.0, 0], [0, 0]]), np.array([[0, 0], [0, 1.0]]), Y)
    array([26.66666667])
    >>> W, V = np.random.default_rng(0).standard_normal((2, 3, 3)); Y = np.random.default_rng(1).standard_normal((4, 9))
    >>> bool(np.allclose(attention_predict(W, V, Y), attention_forward(W, V, token_matrix(Y, 2))[:, 2, -1]))
    True
    """
    W_QK, W_V, s = check_weights(W_QK, W_V)
    Y0 = token_matrix(Y, s)
    n = Y0.shape[2] - 1
    q = Y0[:, :, -1]                                                        # query column
    with np.errstate(over="ignore", invalid="ignore"):
        right = np.einsum("bjn,jk,bk->bn", Y0[:, :, :-1], W_QK, q)         # (Y0ᵀ W_QK Y0)[:n, query], M drops the query
        left = np.einsum("j,bjn->bn", W_V[s], Y0[:, :, :-1])               # row s+1 of W_V Y0 M
        out = q[:, s] + np.einsum("bn,bn->b", left, right) / n
    return _finite_output(out, "the attention prediction", W_QK=1, W_V=1, Y=1)


def gram_query(Y, s):
    # every caller passes Y = check_series(Y, s) (re-checking it would return it unchanged); s keeps its range check
    Y0 = _token_matrix(Y, check_int("s", s, minimum=1, maximum=10_000))
    Z = Y0[:, :, :-1]
    B, S, n = Z.shape
    # G[b, i, j] = z_i·z_j / n, stored batch-innermost like Z (the layout the loss's products were written for). Row i
    # from its diagonal on, then mirrored: z_j·z_i is the same sum of the same (commuting) products, bit for bit
    G = np.empty((S, S, B)).transpose(2, 0, 1)
    for i in range(S):
        np.einsum("bn,bjn->bj", Z[:, i], Z[:, i:], out=G[:, i, i:])
        G[:, i + 1:, i] = G[:, i, i + 1:]
    G /= n
    q = Y0[:, :, -1]
    return G, q


def attention_loss_and_grad(W_QK, W_V, Y):
    r"""Halved loss :math:`\frac1{2B}\sum_b(\hat y_{T,b}-y_{T,b})^2` and its analytic gradients.

    With :math:`\hat y = v^\top G W q` (:math:`v` last row of :math:`W_V`):
    :math:`\partial\hat y/\partial W_{QK} = (Gv)q^\top`, :math:`\partial\hat y/\partial v = GWq`,
    other rows of :math:`W_V` have zero gradient. Returns ``(loss, grad_QK, grad_V)``.
    """
    W_QK, W_V, s = check_weights(W_QK, W_V)
    Y = check_series(Y, s)
    G, q = gram_query(Y, s)
    v = W_V[s]
    with np.errstate(over="ignore", invalid="ignore"):
        Wq = q @ W_QK.T                                   # (B, s+1)
        GWq = np.einsum("bij,bj->bi", G, Wq)
        yhat = GWq @ v
        e = yhat - Y[:, -1]
        r = e / Y.shape[0]
        loss = 0.5 * float(np.mean(e ** 2))
        Gv = np.einsum("bij,j->bi", G, v)
        gQK = np.einsum("b,bi,bj->ij", r, Gv, q)
        gV = np.zeros_like(W_V)
        gV[s] = r @ GWq
    if not (math.isfinite(loss) and np.isfinite(gQK).all() and np.isfinite(gV).all()):      # the test below, fast
        _finite_output([loss, *gQK.ravel(), *gV.ravel()], "the loss or its gradient", W_QK=1, W_V=1, Y=1)
    return loss, gQK, gV


def effective_coefficients(W_QK, W_V) -> np.ndarray:
    r"""Coefficients :math:`C_{klj}` of :math:`\hat y=\sum_{k\le l}\sum_j C_{klj}G_{kl}q_j`
    (0-based, shape (s+1, s+1, s), upper triangle in (k, l), zeros below):
    :math:`C_{kkj}=v_kW_{kj}`, :math:`C_{klj}=v_kW_{lj}+v_lW_{kj}` (k < l). These are the
    loss-relevant, symmetry-invariant combinations of the weights.

    >>> C = effective_coefficients(np.array([[3.0, 0], [0, 0]]), np.array([[0, 0], [0, 1.0]]))
    >>> C[:, :, 0]
    array([[0., 3.],
           [0., 0.]])
    """
    W_QK, W_V, s = check_weights(W_QK, W_V)
    v = W_V[s]
    W = W_QK[:, :s]
    outer = v[:, None, None] * W[None, :, :]                 # v_k W_lj
    C = outer + outer.transpose(1, 0, 2)
    iu = np.triu(np.ones((s + 1, s + 1)), 1)
    C = C * iu[:, :, None] + np.einsum("kkj->kj", outer)[:, None, :] * np.eye(s + 1)[:, :, None]
    return _finite_output(C, "the effective coefficients", W_QK=1, W_V=1)


def reduced_features(xq, U, S):
    r"""Features of the reduced linear-attention predictor (paper 004): rows
    :math:`\mathrm{vec}(x_{\rm test}[u^\top,s])` in row-major order (index ``i*(d+1)+j``), so that
    :math:`\hat y=\langle\Gamma,H\rangle_F` is the dot product of a row with :math:`\mathrm{vec}\,\Gamma`.

    ``xq`` (n, d) queries, ``U`` (n, d) and ``S`` (n,) context statistics; the (n, d(d+1)) result is refused up
    front beyond the memory budget."""
    U = check_array("U", U, ndim=2)
    n, d = U.shape
    xq = check_array("xq", xq, ndim=2, shape=(n, d))
    S = check_array("S", S, ndim=1, shape=(n,))
    check_memory("U", U.shape, 8.0 * n * d * (d + 2), f"the {n} x {d * (d + 1)} feature matrix")
    Z = np.concatenate([U, S[:, None]], axis=1)
    return (xq[:, :, None] * Z[:, None, :]).reshape(n, d * (d + 1))
