r"""One in-context linear-attention layer on tokens of any shape: prediction, loss, exact gradient, training.

The layer
---------
A prompt is a token matrix ``Z`` of shape ``(n+1, D)``: context tokens :math:`z_1..z_n` and the query token
:math:`z_q=z_{n+1}` last (tokens of any dimension D: ``(x_i, y_i)`` pairs, lagged windows of a series, …). With
weights :math:`W_{KQ}, W_V\in\mathbb R^{D\times D}` the layer maps the query token to
:math:`z_q+W_V S\,W_{KQ}z_q` with the key–value sum

.. math:: S=c\sum_{i\in I}\lambda^{\,n+1-i}z_iz_i^\top,

and the prediction reads slot :math:`r` (``readout``) of that output:

.. math:: \hat y=(z_q)_r+c\sum_{i\in I}\lambda^{\,n+1-i}\,(v^\top z_i)\,(z_i^\top W_{KQ}z_q),\qquad v^\top=e_r^\top W_V .

The options of :class:`ICLLayer`:

* ``query_in_sum``: :math:`I=\{1..n+1\}` (the query token is in the key–value sum, with weight
  :math:`\lambda^0=1`) or :math:`I=\{1..n\}`;
* ``normalise``: :math:`c=1/n` (``n`` = the number of *context* tokens, whether or not the query is in the sum) or
  :math:`c=1`;
* ``forget`` :math:`\lambda\in(0,1]`: token :math:`i` is weighted by :math:`\lambda^{\text{age}}`, its age
  :math:`n+1-i` counted from the query (the query has age 0) — the unrolled gated recursion
  :math:`S_i=\lambda S_{i-1}+(W_Vz_i)z_i^\top`; :math:`\lambda=1` is plain linear attention;
* ``readout`` :math:`r`: the slot read (default the last, a label slot). The query's own slot :math:`(z_q)_r` is
  added (the residual stream); it is 0 when the query's label slot is blank, as in every paper below.

Only the row :math:`v^\top` of :math:`W_V` enters the prediction, and :math:`W_{KQ}` only through
:math:`W_{KQ}z_q`. The score of token :math:`i` is the bilinear form :math:`z_i^\top W_{KQ}z_q`: the papers'
:math:`W_K^\top W_Q` (one matrix, as every analysis of these models uses).

The papers' parameterisations
-----------------------------
Each built-in paper keeps its own route of its layer (the papers' numbers stay the same to the last bit);
``tests/test_models_generic.py`` checks every one against :meth:`ICLLayer.predict` (1e-12 relative).

* Gated linear attention, paper 000 (:meth:`ICLLayer.gla`): tokens :math:`z_i=(x_i,y_i)`, query
  :math:`(x_{n+1},0)` in the sum, no :math:`1/n`, ``forget`` = λ, ``W_KQ`` = :math:`W_K^\top W_Q`.
  :func:`theorycheck.models.attention.gla_forward` computes it by the paper's recursion (the claim that the
  recursion unrolls to the weighted sum is tested on it); one layer of
  :func:`~theorycheck.models.attention.gla_stack_forward` is it with ``W_V`` scaled by :math:`1-\lambda` when
  ``normalise``; :func:`~theorycheck.models.attention.gla_stream_errors` is it with the query excluded,
  :math:`v=e_{d+1}` and ``W_KQ`` = :math:`[[\Gamma^\top,0],[0,0]]`, on every prefix.
* Linear attention on a scalar series, paper 001 (:meth:`ICLLayer.lds`): tokens the lagged windows
  :math:`[\bar y_i;y_{i+s}]` of :func:`~theorycheck.models.attention.token_matrix`, query excluded (the mask
  :math:`M`), :math:`c=1/n`, λ = 1, ``W_KQ`` = :math:`W_{QK}`:
  :func:`~theorycheck.models.attention.attention_predict`, ``attention_loss_and_grad`` (the same halved loss).
* Nonlinear teachers, paper 004: the reduced predictor :math:`\langle\Gamma,x_q[u^\top,s]\rangle` of
  :func:`~theorycheck.models.attention.reduced_features` is the layer with the query excluded, :math:`c=1/\ell`,
  :math:`v=e_{d+1}` and ``W_KQ[:, :d]`` = :math:`\mathrm{diag}(d,\dots,d,1)\Gamma^\top`.
* Zhang, Frei & Bartlett (JMLR 2024), trained linear self-attention on static regression (:meth:`ICLLayer.zfb`):
  :math:`f(E)=E+W^{PV}E\cdot E^\top W^{KQ}E/N` on :math:`E=[z_1..z_N,z_q]`, i.e. tokens :math:`(x_i,y_i)`, query
  :math:`(x_q,0)` in the sum, :math:`c=1/N`, λ = 1, ``W_KQ`` = :math:`W^{KQ}`, ``W_V`` = :math:`W^{PV}`. With
  their zero blocks, :math:`\hat y=x_q^\top(uW_{11}^\top)h`, :math:`h=\frac1N\sum_iy_ix_i` (:math:`u=W^{PV}_{d+1,d+1}`,
  :math:`W_{11}` the top-left block of :math:`W^{KQ}`; the blank query label removes the query's own term).

Loss and gradient
-----------------
:meth:`ICLLayer.loss_and_grad`: the **halved** mean over the ``B`` prompts, :math:`L=\frac1{2B}\sum_b(\hat y_b-
y_b)^2` (the convention of papers 001 and ZFB; paper 000's MSE is :math:`2L`), and its exact gradient

.. math:: \frac{\partial L}{\partial v}=\frac1B\sum_b g_b\,c\sum_{i\in I}\lambda^{n+1-i}(z_i^\top W_{KQ}z_q)z_i,
          \qquad \frac{\partial L}{\partial W_{KQ}}=\frac1B\sum_b g_b\,m\,z_q^\top,\quad
          m=c\sum_{i\in I}\lambda^{n+1-i}(v^\top z_i)z_i,

:math:`g_b=\hat y_b-y_b`; the other rows of :math:`\partial L/\partial W_V` are zero.

Training
--------
:func:`train_icl`: full-batch gradient descent (the forward-Euler discretisation of the gradient flow
:math:`\dot W=-\nabla L`; time ``lr * steps``) on a fixed set of prompts, mini-batch SGD on it, or online SGD on
fresh prompts of a sampler (:mod:`theorycheck.models.samplers`), with **support masks** (which weight entries are
trainable; the others keep their initial values), reproducible from ``seed``.

>>> rng = np.random.default_rng(0)
>>> Z = rng.standard_normal((2, 4, 3)); Z[:, -1, -1] = 0.0          # 2 prompts, n = 3, D = 3, blank query label
>>> W_KQ, W_V = np.eye(3), np.eye(3)
>>> layer = ICLLayer.zfb()
>>> yhat = layer.predict(Z, W_KQ, W_V)
>>> S = np.einsum("bti,btj->bij", Z, Z) / 3                       # c Σ z_i z_iᵀ, query included
>>> bool(np.allclose(yhat, np.einsum("bj,bj->b", S[:, -1], Z[:, -1])))
True
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..validate import MAX_COUNT, ParameterTypeError, check_array, check_bool, check_int, check_memory, check_real

__all__ = ["ICLLayer", "ICLTrainResult", "train_icl", "check_support"]


@dataclass(frozen=True)
class ICLLayer:
    r"""The options of one in-context linear-attention layer (validated on construction; see the module docstring
    for the maths): ``query_in_sum`` (bool), ``normalise`` (bool: :math:`c=1/n`), ``forget`` λ ∈ (0, 1],
    ``readout`` (the slot read, an int; negative counts from the end, checked against the token dimension).

    >>> ICLLayer.gla(0.9)
    ICLLayer(query_in_sum=True, normalise=False, forget=0.9, readout=-1)
    >>> ICLLayer(forget=1.5)
    Traceback (most recent call last):
    ...
    ValueError: forget must be in (0, 1], got 1.5
    """

    query_in_sum: bool = True
    normalise: bool = False
    forget: float = 1.0
    readout: int = -1

    def __post_init__(self):
        object.__setattr__(self, "query_in_sum", check_bool("query_in_sum", self.query_in_sum))
        object.__setattr__(self, "normalise", check_bool("normalise", self.normalise))
        object.__setattr__(self, "forget", check_real("forget", self.forget, 0.0, 1.0, low_open=True))
        object.__setattr__(self, "readout", check_int("readout", self.readout, minimum=-MAX_COUNT, maximum=MAX_COUNT))

    @classmethod
    def gla(cls, lam) -> "ICLLayer":
        """Paper 000's single GLA layer: query in the sum, no 1/n, ``forget = lam``."""
        return cls(query_in_sum=True, normalise=False, forget=lam)

    @classmethod
    def lds(cls) -> "ICLLayer":
        """Paper 001's linear attention on a scalar series: query excluded (the mask M), 1/n, no forgetting."""
        return cls(query_in_sum=False, normalise=True, forget=1.0)

    @classmethod
    def zfb(cls) -> "ICLLayer":
        """Zhang–Frei–Bartlett's linear self-attention: query in the sum, 1/N, no forgetting."""
        return cls(query_in_sum=True, normalise=True, forget=1.0)

    def predict(self, Z, W_KQ, W_V) -> np.ndarray:
        r"""The predictions :math:`\hat y` (B,) for tokens ``Z`` (B, n+1, D) (query last), weights (D, D) each.

        >>> Z = np.ones((1, 3, 2)); Z[0, -1, -1] = 0.0
        >>> float(ICLLayer.lds().predict(Z, np.eye(2), np.eye(2))[0])    # (1/2) Σ_{i≤2} (1)(1) = 1
        1.0
        """
        Z, W_KQ, W_V = _check_inputs(self, Z, W_KQ, W_V)
        with np.errstate(over="ignore", invalid="ignore"):
            out = _prediction(self, Z, W_KQ, W_V)
        return _finite(out, "the in-context prediction")

    def loss_and_grad(self, Z, y, W_KQ, W_V):
        r"""``(loss, grad_KQ, grad_V)``: the halved mean loss :math:`\frac1{2B}\sum_b(\hat y_b-y_b)^2` over the
        prompts and its exact gradient with respect to ``W_KQ`` and ``W_V`` (module docstring).

        >>> rng = np.random.default_rng(1); Z = rng.standard_normal((5, 4, 3)); y = rng.standard_normal(5)
        >>> W, V = rng.standard_normal((2, 3, 3)); layer = ICLLayer(forget=0.8)
        >>> loss, gK, gV = layer.loss_and_grad(Z, y, W, V)
        >>> W2 = W.copy(); W2[0, 1] += 1e-6
        >>> bool(abs((layer.loss_and_grad(Z, y, W2, V)[0] - loss) / 1e-6 - gK[0, 1]) < 1e-4)
        True
        """
        Z, W_KQ, W_V = _check_inputs(self, Z, W_KQ, W_V)
        y = check_array("y", y, ndim=1, shape=(Z.shape[0],))
        return _loss_and_grad(self, Z, y, W_KQ, W_V)


def _check_tokens(layer, Z, D=None, name="Z"):
    Z = check_array(name, Z, ndim=3)
    B, T, D_Z = Z.shape
    if B < 1 or T < 2 or D_Z < 1 or (D is not None and D_Z != D):
        want = "D >= 1" if D is None else f"D = {D} (the weights' size)"
        raise ValueError(f"{name} must have shape (B, n+1, D) with B >= 1, n >= 1 context tokens and {want}, got "
                         f"{Z.shape}")
    if not -D_Z <= layer.readout < D_Z:
        raise ValueError(f"readout must be in [{-D_Z}, {D_Z - 1}] for tokens of dimension D = {D_Z}, got "
                         f"{layer.readout}")
    check_memory(name, Z.shape, 8.0 * B * T * 6, f"the scores and values of {B} prompts of {T} tokens")
    return Z


def _check_inputs(layer, Z, W_KQ, W_V):
    Z = _check_tokens(layer, Z)
    D = Z.shape[2]
    W_KQ = check_array("W_KQ", W_KQ, ndim=2, shape=(D, D))
    W_V = check_array("W_V", W_V, ndim=2, shape=(D, D))
    return Z, W_KQ, W_V


def _finite(out, what):
    if not np.all(np.isfinite(out)):
        raise ValueError(f"{what} is not finite (overflow) for the given Z, W_KQ, W_V; rescale them")
    return out


def _terms(layer, Z, W_KQ, W_V):
    """``(q, Zs, values, scores, ages)``: the query tokens (B, D), the tokens of the sum (B, m, D), the read-out
    values :math:`v^\\top z_i` and the scores :math:`z_i^\\top W_{KQ}z_q` (B, m), and the weights
    :math:`\\lambda^{\\rm age}` (m,) or ``None`` when λ = 1."""
    T = Z.shape[1]
    q = Z[:, -1, :]
    Zs = Z if layer.query_in_sum else Z[:, :-1, :]
    scores = np.matmul(Zs, (q @ W_KQ.T)[:, :, None])[:, :, 0]   # z_iᵀ (W_KQ z_q)
    values = Zs @ W_V[layer.readout]                              # (W_V z_i)_r = vᵀ z_i
    ages = None
    if layer.forget != 1.0:
        ages = layer.forget ** (T - 1.0 - np.arange(Zs.shape[1]))
    return q, Zs, values, scores, ages


def _prediction(layer, Z, W_KQ, W_V) -> np.ndarray:
    """:math:`\\hat y` for validated inputs (overflow gives inf/nan: the caller checks)."""
    q, _, values, scores, ages = _terms(layer, Z, W_KQ, W_V)
    return _combine(layer, Z.shape[1], q, values if ages is None else values * ages, scores)


def _combine(layer, T, q, wvalues, scores):
    total = np.einsum("bt,bt->b", wvalues, scores)
    if layer.normalise:
        total = total / (T - 1)
    return q[:, layer.readout] + total


def _loss_and_grad(layer, Z, y, W_KQ, W_V):
    B, T, D = Z.shape
    with np.errstate(over="ignore", invalid="ignore"):
        q, Zs, values, scores, ages = _terms(layer, Z, W_KQ, W_V)
        wvalues = values if ages is None else values * ages
        wscores = scores if ages is None else scores * ages
        res = _combine(layer, T, q, wvalues, scores) - y
        loss = 0.5 * float(np.mean(res * res))
        g = res / B
        c = 1.0 / (T - 1) if layer.normalise else 1.0
        gV = np.zeros((D, D))
        gV[layer.readout] = c * np.einsum("bt,btj->j", g[:, None] * wscores, Zs)   # Σ_b g_b ∂ŷ_b/∂v
        m = np.matmul(wvalues[:, None, :], Zs)[:, 0, :]                          # m / c = Σ_i λ^age (vᵀz_i) z_i
        gKQ = c * ((g[:, None] * m).T @ q)                                        # Σ_b g_b m z_qᵀ
    if not (math.isfinite(loss) and np.isfinite(gKQ).all() and np.isfinite(gV).all()):
        raise ValueError("the loss or its gradient is not finite (overflow) for the given Z, y, W_KQ, W_V; rescale "
                         "them")
    return loss, gKQ, gV


# ----------------------------------------------------------------------------------------------------- training
@dataclass
class ICLTrainResult:
    """Weights trained by :func:`train_icl` and the loss history: ``losses[k]`` is the halved mean loss of the
    prompts of step ``k`` at the weights before that step's update."""

    W_KQ: np.ndarray
    W_V: np.ndarray
    losses: np.ndarray
    config: dict = field(default_factory=dict)


def train_icl(layer, data, W_KQ, W_V, *, steps, lr, batch=None, support=None, seed=0) -> ICLTrainResult:
    r"""Train :math:`(W_{KQ},W_V)` of ``layer`` by gradient descent on the halved loss, from the given initial
    weights (copied, never modified).

    ``data`` and ``batch`` choose the method:

    * ``data = (Z, y)`` (tokens (M, n+1, D), targets (M,)) and ``batch=None``: full-batch gradient descent
      :math:`W\leftarrow W-\eta\nabla L`, the forward-Euler discretisation of the gradient flow
      :math:`\dot W=-\nabla L` (time ``lr * steps``; a small ``lr`` follows the flow);
    * ``data = (Z, y)`` and ``batch = m``: mini-batch SGD, ``m`` prompts drawn without replacement at every step;
    * ``data`` a sampler ``data(rng, m) -> (Z, y)`` (e.g. :class:`~theorycheck.models.samplers.GaussianRegressionPrompts`)
      and ``batch = m``: online SGD on ``m`` fresh prompts at every step.

    ``support=(mask_KQ, mask_V)`` (boolean (D, D) each, ``None`` = all) names the trainable entries; the others
    keep their initial values exactly. Randomness (mini-batches, fresh prompts) comes from
    ``numpy.random.default_rng(seed)`` only: the same call gives the same bits. Raises ``ValueError`` naming ``lr``
    when the weights leave the floating-point range.

    >>> rng = np.random.default_rng(0); Z = rng.standard_normal((200, 6, 2)); Z[:, -1, -1] = 0.0
    >>> y = 0.5 * Z[:, -1, 0] * np.einsum("bt,bt->b", Z[:, :-1, 0], Z[:, :-1, 1]) / 5    # a realisable target
    >>> W_KQ = np.zeros((2, 2)); W_KQ[0, 0] = 0.1; W_V = np.zeros((2, 2)); W_V[1, 1] = 0.1
    >>> mask = (np.array([[True, False], [False, False]]), np.array([[False, False], [False, True]]))
    >>> r = train_icl(ICLLayer.lds(), (Z, y), W_KQ, W_V, steps=300, lr=0.5, support=mask)
    >>> round(float(r.W_KQ[0, 0] * r.W_V[1, 1]), 6), float(r.W_V[0, 0])     # the product is identified
    (0.5, 0.0)
    """
    if not isinstance(layer, ICLLayer):
        raise ParameterTypeError(f"layer must be an ICLLayer, got {type(layer).__name__}")
    W0 = check_array("W_KQ", W_KQ, ndim=2)
    D = W0.shape[0]
    if D < 1 or W0.shape != (D, D):
        raise ValueError(f"W_KQ must be a square (D, D) matrix with D >= 1, got shape {W0.shape}")
    V0 = check_array("W_V", W_V, ndim=2, shape=(D, D))
    steps = check_int("steps", steps, minimum=1, maximum=MAX_COUNT)
    check_memory("steps", steps, 8.0 * steps, "the loss history")
    lr = check_real("lr", lr, 0.0, 1e12, low_open=True)
    seed = check_int("seed", seed, minimum=0)
    masks = check_support(support, D)
    draw, method = _batches(layer, data, batch, D)
    rng = np.random.default_rng(seed)
    W, V = W0.copy(), V0.copy()
    losses = np.empty(steps)
    for k in range(steps):
        Z, y = draw(rng)
        try:
            losses[k], gK, gV = _loss_and_grad(layer, Z, y, W, V)
        except ValueError:                              # overflow: the run diverged
            gK = gV = np.full((D, D), np.nan)
        if masks is not None:
            gK, gV = gK * masks[0], gV * masks[1]
        W, V = W - lr * gK, V - lr * gV
        if not (np.isfinite(W).all() and np.isfinite(V).all()):
            raise ValueError(f"training diverged at step {k} with lr = {lr:g}: lower lr or rescale the initial "
                             "weights")
    config = {"layer": {"query_in_sum": layer.query_in_sum, "normalise": layer.normalise, "forget": layer.forget,
                        "readout": layer.readout},
              "method": method, "steps": steps, "lr": lr, "batch": batch, "seed": seed,
              "restricted_support": masks is not None}
    return ICLTrainResult(W, V, losses, config)


def check_support(support, D):
    """``support`` as two boolean masks ``(mask_KQ, mask_V)`` of shape (D, D) (entries converted with
    ``numpy.asarray(..., dtype=bool)``), or ``None`` (every entry trainable); a clear error otherwise.

    >>> [m.tolist() for m in check_support(([[1, 0], [0, 0]], [[0, 0], [0, 1]]), 2)]
    [[[True, False], [False, False]], [[False, False], [False, True]]]
    """
    if support is None:
        return None
    if isinstance(support, (str, bytes)) or not hasattr(support, "__len__") or len(support) != 2:
        raise ParameterTypeError(f"support must be two boolean masks of shape ({D}, {D}) or None, got "
                                 f"{type(support).__name__}")
    try:
        masks = [np.asarray(x, dtype=bool) for x in support]
    except (TypeError, ValueError):
        raise ParameterTypeError(f"support must be two boolean masks of shape ({D}, {D})") from None
    if any(mk.shape != (D, D) for mk in masks):
        raise ValueError(f"support must be two boolean masks of shape ({D}, {D})")
    return masks


def _batches(layer, data, batch, D):
    """``(draw, method)``: ``draw(rng) -> (Z, y)`` gives the prompts of one step (see :func:`train_icl`)."""
    if callable(data):
        if batch is None:
            raise ValueError("batch must be a positive integer when data is a sampler (online SGD), got None")
        m = check_int("batch", batch, minimum=1, maximum=MAX_COUNT)

        def fresh(rng):
            out = data(rng, m)
            if not isinstance(out, tuple) or len(out) != 2:
                raise ParameterTypeError(f"the sampler data(rng, {m}) must return a pair (Z, y), got "
                                         f"{type(out).__name__}")
            Z = _check_tokens(layer, out[0], D, name="Z (from the sampler)")
            if Z.shape[0] != m:
                raise ValueError(f"the sampler returned {Z.shape[0]} prompts, asked for batch = {m}")
            return Z, check_array("y (from the sampler)", out[1], ndim=1, shape=(m,))
        return fresh, "online SGD (fresh prompts)"
    if not isinstance(data, (tuple, list)) or len(data) != 2:
        raise ParameterTypeError(f"data must be a pair (Z, y) of arrays or a sampler data(rng, size) -> (Z, y), got "
                                 f"{type(data).__name__}")
    Z = _check_tokens(layer, data[0], D)
    M = Z.shape[0]
    y = check_array("y", data[1], ndim=1, shape=(M,))
    if batch is None:
        return (lambda rng: (Z, y)), "gradient descent (full batch)"
    m = check_int("batch", batch, minimum=1, maximum=M)

    def mini(rng):
        idx = rng.choice(M, size=m, replace=False)
        return Z[idx], y[idx]
    return mini, "mini-batch SGD"
