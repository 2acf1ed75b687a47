r"""Gated linear attention (GLA) in context under AR(1)-drifting regression weights (paper 000).

Model and conventions
---------------------
* :math:`w_0\sim\mathcal N(0,\sigma_w^2 I_d)`; for :math:`i=1..n+1`:
  :math:`w_i=\gamma w_{i-1}+e_i`, :math:`e_i\sim\mathcal N(0,\sigma_e^2 I_d)` (``sigma_w2``,
  ``sigma_e2`` are the *variances*). The marginal variance per coordinate is
  :math:`s_i=\gamma^{2i}\sigma_w^2+\sigma_e^2\sum_{j<i}\gamma^{2j}`; it is constant only when
  :math:`\sigma_w^2=\sigma_e^2/(1-\gamma^2)`.
* :math:`x_i\sim\mathcal N(0,\Lambda)`, :math:`y_i=\langle w_i,x_i\rangle+\varepsilon_i`,
  :math:`\operatorname{Var}\varepsilon_i=` ``noise``. Tokens :math:`z_i=(x_i,y_i)` for
  :math:`i\le n` (the prompt), query :math:`z_{n+1}=(x_{n+1},0)`.
* GLA: :math:`S_i=\lambda S_{i-1}+v_ik_i^\top`, output
  :math:`o_{n+1}=W_V\big(\sum_{i=1}^{n+1}\lambda^{n+1-i}z_iz_i^\top\big)W_{KQ}z_{n+1}`,
  prediction :math:`\hat y=(o_{n+1})_{d+1}`. The query token's own term (:math:`i=n+1`) is in the
  sum; with :math:`W_V` last row :math:`(u^\top, v)` and :math:`W_{KQ}[:, :d]=[A; b^\top]`,

  .. math:: \hat y = x_{n+1}^\top(vA^\top+bu^\top)h + T_1 + T_2,\quad
            h=\sum_{i=1}^n\lambda^{n+1-i}y_ix_i,

  :math:`T_1=\sum_{i=1}^{n+1}\lambda^{n+1-i}(u^\top x_i)(x_i^\top Ax_{n+1})` (contains the query
  term), :math:`T_2=v\sum_{i\le n}\lambda^{n+1-i}y_i^2\,b^\top x_{n+1}`. :math:`T_1+T_2` is even in
  :math:`w` while :math:`y_{n+1}` and :math:`x^\top\Gamma h` are odd, so the MSE is
  :math:`E[(x^\top\Gamma h-y)^2]+E[(T_1+T_2)^2]` and its minimum over the full parameters equals
  the minimum of the *reduced* predictor :math:`\hat y=x_{n+1}^\top\Gamma h` (attained at
  :math:`u=0,b=0,\Gamma=vA^\top`). With :math:`u=0` the query token contributes nothing.
* Loss: population MSE :math:`L=E[(\hat y-y_{n+1})^2]`, **not halved** (``halved=True`` gives
  :math:`L/2`). "Train error" = :math:`\min_\Gamma L`.

Results (derived in ``derivations/gla_loss.py``; sums over ages :math:`k=n+1-i=1..n`)

.. math::
   D_1=\sum_k(\lambda\gamma)^ks_{n+1-k},\ B=\sum_k\lambda^{2k}s_{n+1-k},\ N_0=\sum_k\lambda^{2k},\
   A_2=\sum_{i,j\le n}\lambda^{2n+2-i-j}\gamma^{|i-j|}s_{\min(i,j)},

   \Gamma^*=\tfrac{D_1}{A_2}\tilde\Lambda^{-1},\quad
   \tilde\Lambda=(1+\tfrac{B}{A_2})\Lambda+\tfrac{B\operatorname{tr}\Lambda+\sigma^2N_0}{A_2}I,

   L^*=s_{n+1}\operatorname{tr}\Lambda+\sigma^2-D_1^2\sum_k\frac{\mu_k^2}{(A_2+B)\mu_k+B\operatorname{tr}\Lambda+\sigma^2N_0}

(:math:`\mu_k` eigenvalues of :math:`\Lambda`). For :math:`\Lambda=I_d`:
:math:`L^*=d\,(s_{n+1}-\xi)+\sigma^2` with :math:`\xi=D_1^2/D_2`,
:math:`D_2=A_2+(d+1)B+\sigma^2N_0` — the error is a constant minus :math:`d\xi`.

The derivation uses the weights only through their per-coordinate covariance
:math:`K_{ij}=\operatorname{Cov}(w_i,w_j)`: :func:`drift_covariance` gives K for drifts beyond AR(1) (AR(2) momentum,
innovations correlated across steps) and :func:`train_error_from_covariance` /
:func:`optimal_lambda_from_covariance` the exact train error and λ* for any such K (the stress paths of the paper).

Resource guards: every function sized by a user parameter refuses, before any work, a call past the memory budget
(:func:`theorycheck.validate.check_memory`) or the work budgets declared below (:data:`MAX_SIM_WORK`,
:data:`MAX_DENSE_DIM`, :data:`MAX_GRID`, :data:`MAX_FLOW_POINTS`, :data:`MAX_FLOW_DIM`), naming the parameter; a
result that overflows the floating-point range raises an error naming the inputs.

>>> round(train_error(1.0, 1.0, 20, 5, 1.0, 0.0), 12) == round(5 * 6 / 26, 12)   # Zhang-Frei-Bartlett
True
>>> r = optimal_lambda(0.8, 100, 10, 1.0, 0.01)
>>> 0.7 < r.lam < 0.8, r.at_boundary
(True, False)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
from scipy import optimize, signal

from .generated import gla_loss as _gen
from .montecarlo import MeanEstimate, RunningMean, rngs
from .models.attention import gla_forward as _gla_forward
from .models.prompts import ar1_drift_prompts as _sample_tokens
from .validate import (MAX_COUNT, ParameterTypeError, check_array, check_bool, check_callable, check_finite_result,
                       check_int, check_memory, check_psd, check_real)

__all__ = ["GLASums", "ar1_variances", "moment_sums", "xi", "xi_large_d", "train_error",
           "train_error_general", "optimal_lambda", "LambdaOpt", "effective_covariance",
           "optimal_parameters", "OptimalGLA", "population_loss", "test_error",
           "irreducible_floor", "simulate_gla", "gradient_flow", "FlowResult",
           "lambda_star_large_d_correction", "full_parameter_loss", "full_gradient_flow",
           "probe_local_minimum", "classify_full_flow", "lambda_importance", "drift_statistics", "StackRun",
           "train_gla_stack", "geometric_rate_stability", "simulate_filter_benchmark", "gla_squared_errors",
           "drift_covariance", "train_error_from_covariance", "optimal_lambda_from_covariance", "TrainingDiverged"]

CLOSED_FORM_GAP = 0.02   # minimum pairwise gap of the bases (λ², λγ, γ², 1) for the closed forms
#: work budget of one Monte Carlo call, in token-dimensions (prompts × tokens × (d + 1)): about a minute of one core
#: at the measured ~3·10⁷ per second of the recursion with its random draws (benchmarks/bench_gla.py)
MAX_SIM_WORK = 2e9
#: largest dimension of a dense (non-diagonal) Λ: its eigendecompositions and inverse cost O(d³) (~2 s at 2000)
MAX_DENSE_DIM = 2000
#: largest variance (σ_w², σ_e², σ²) the gradient flows accept: their time scale is 1/variance and the full loss
#: holds squares of variances, which must stay in the floating-point range
FLOW_VARIANCE_MAX = 1e100
#: largest λ grid of optimal_lambda (each point is one exact train error, ~30 µs)
MAX_GRID = 10 ** 5
#: largest number of output points of a gradient flow (each is one exact loss evaluation)
MAX_FLOW_POINTS = 10 ** 5
#: largest dimension of a gradient flow (d² + 1 states; its linearisation at the limit costs O(d⁷))
MAX_FLOW_DIM = 32
#: largest relative initialisation scale σ of a gradient flow
MAX_INIT_SCALE = 1e3
#: work budget of one training of a GLA stack or one filter benchmark, in floating-point operations (≈ 3 minutes of
#: one core at the measured ≈ 2·10⁹ per second; the paper's full-mode stack of depth 3 needs ≈ 6·10¹⁰)
MAX_TRAIN_WORK = 3e11


class TrainingDiverged(FloatingPointError, ValueError):
    """The training of a GLA stack left the floating-point range; the message names the step sizes and
    initialisation scale (a ``FloatingPointError``, and a ``ValueError`` for input-checking callers)."""


# ------------------------------------------------------------------ validation helpers
def _lam(lam):
    return check_real("lam", lam, 0.0, 1.0, low_open=True)


def _gamma(gamma, name="gamma"):
    return check_real(name, gamma, 0.0, 1.0, low_open=True)


def _var(name, v):
    return check_real(name, v, 0.0)


def _n(n, name="n"):
    return check_int(name, n, minimum=1, maximum=MAX_COUNT)


def _law(lam, gamma, n, sigma_w2, sigma_e2, noise):
    """The checked law of a GLA prompt: gate, drift factor, length and the three variances."""
    return (_lam(lam), _gamma(gamma), _n(n), _var("sigma_w2", sigma_w2), _var("sigma_e2", sigma_e2),
            _var("noise", noise))


def _n_direct(n, name="n"):
    """``n`` for the O(n) sums over the prompt: refused past the memory budget (a few arrays of n floats)."""
    return _n_memory(_n(n, name), name)


def _n_memory(n, name="n"):
    """The memory guard of :func:`_n_direct` alone, for an ``n`` already checked."""
    check_memory(name, n, 64.0 * (n + 2), "the O(n) sums over the prompt")
    return n


_FLOATS = (float, np.float64)


def _plain_law(lam, gamma, n, sigma_w2, sigma_e2, noise=0.0):
    """True when the checks of a law (:func:`_lam`, :func:`_gamma`, :func:`_n`, :func:`_var`) would pass and
    return ``float`` of these very values: gates in (0, 1] and finite variances >= 0 given as ``float`` (or
    ``numpy.float64``), ``n`` an ``int`` in [1, MAX_COUNT]. The exact sums are evaluated ~10⁵ times per run (grid
    scans of λ), so they skip the checks in this common case; anything else goes through the checks (same values,
    same errors, in the same order)."""
    return (type(lam) in _FLOATS and 0.0 < lam <= 1.0 and type(gamma) in _FLOATS and 0.0 < gamma <= 1.0
            and type(n) is int and 1 <= n <= MAX_COUNT
            and type(sigma_w2) in _FLOATS and 0.0 <= sigma_w2 < math.inf
            and type(sigma_e2) in _FLOATS and 0.0 <= sigma_e2 < math.inf
            and type(noise) in _FLOATS and 0.0 <= noise < math.inf)


def _flow_variances(sigma_w2, sigma_e2, noise):
    out = tuple(check_real(k, v, 0.0, FLOW_VARIANCE_MAX)
                for k, v in (("sigma_w2", sigma_w2), ("sigma_e2", sigma_e2), ("noise", noise)))
    if out[0] == 0 and out[1] == 0:
        raise ValueError("sigma_w2 and sigma_e2 must not both be 0 for a gradient flow (no signal: the optimum is 0)")
    return out


def _finite(value, what, **inputs):
    """``value`` if finite, else a ``ValueError`` naming the inputs (an overflow of the floating-point range)."""
    if type(value) is float:                         # the common case, fast (the same test)
        if math.isfinite(value):
            return value
    try:
        ok = bool(np.all(np.isfinite(np.asarray(value, dtype=float))))
    except (TypeError, ValueError):
        ok = True
    if not ok:
        check_finite_result(value, what, **inputs)
    return value


def _lambda_mat(Lambda, d=None, name="Lambda"):
    """Λ as a float array: PSD (a diagonal Λ is checked without an eigendecomposition); a dense Λ is refused past
    :data:`MAX_DENSE_DIM`."""
    if Lambda is None:
        if d is None:
            raise ValueError(f"{name} must be given")
        return np.eye(d)
    if isinstance(Lambda, (str, bytes, bool, np.bool_)):
        raise ParameterTypeError(f"{name} must be a numeric matrix, got {Lambda!r} ({type(Lambda).__name__})")
    L = check_array(name, Lambda, ndim=2)
    if L.shape[0] != L.shape[1] or L.shape[0] < 1:
        raise ValueError(f"{name} must be square with shape (n, n), n >= 1, got shape {L.shape}")
    dg = np.diag(L)
    if np.count_nonzero(L - np.diag(dg)) == 0:
        if np.any(dg < 0):
            raise ValueError(f"{name} must be positive semi-definite (smallest eigenvalue {float(dg.min()):.3g})")
        return L
    if L.shape[0] > MAX_DENSE_DIM:
        raise ValueError(f"{name} must be at most {MAX_DENSE_DIM}x{MAX_DENSE_DIM} when it is not diagonal (its "
                         f"eigendecompositions cost O(d^3)), got {L.shape[0]}x{L.shape[0]}")
    return check_psd(name, L)


def _eigvals(L):
    """Eigenvalues of a validated Λ (the diagonal for a diagonal Λ)."""
    dg = np.diag(L)
    if np.count_nonzero(L - np.diag(dg)) == 0:
        return np.sort(dg.astype(float))
    return np.linalg.eigvalsh(L)


def _solve_psd(M, B):
    """``M⁻¹ B`` (``B`` a matrix) for a validated positive definite ``M``; elementwise for a diagonal ``M``."""
    dg = np.diag(M)
    if np.count_nonzero(M - np.diag(dg)) == 0:
        return B / dg[:, None]
    return np.linalg.solve(M, B)


# ------------------------------------------------------------------ sums
def ar1_variances(gamma, n, sigma_w2, sigma_e2) -> np.ndarray:
    r"""Per-coordinate variances :math:`s_0..s_{n+1}` of the AR(1) weights.

    :math:`s_0=\sigma_w^2`, :math:`s_i=\gamma^2 s_{i-1}+\sigma_e^2`.

    >>> ar1_variances(0.5, 2, 1.0, 0.75).tolist()
    [1.0, 1.0, 1.0, 1.0]
    """
    if _plain_law(1.0, gamma, n, sigma_w2, sigma_e2):
        gamma, sigma_w2, sigma_e2 = float(gamma), float(sigma_w2), float(sigma_e2)
        _n_memory(n)
    else:
        gamma = _gamma(gamma)
        n = _n_direct(n)
        sigma_w2, sigma_e2 = _var("sigma_w2", sigma_w2), _var("sigma_e2", sigma_e2)
    return _ar1_variances(gamma, n, sigma_w2, sigma_e2)


def _ar1_variances(gamma, n, sigma_w2, sigma_e2) -> np.ndarray:
    """:func:`ar1_variances` for checked inputs (its memory guard already passed): no checks."""
    g2 = gamma * gamma
    s = np.empty(n + 2)
    s[0] = sigma_w2
    with np.errstate(over="ignore", invalid="ignore"):
        # s_i = γ² s_{i-1} + σ_e², in C (the same operations as the loop, bit for bit)
        s[1:] = signal.lfilter([1.0], [1.0, -g2], np.full(n + 1, sigma_e2), zi=[g2 * sigma_w2])[0]
    if np.isfinite(s).all():
        return s
    return _finite(s, "the AR(1) variances", gamma=gamma, n=n, sigma_w2=sigma_w2, sigma_e2=sigma_e2)


@dataclass(frozen=True)
class GLASums:
    """The scalar sums :math:`D_1, B, A_2, N_0, s_{n+1}` (see module docstring)."""

    D1: float
    B: float
    A2: float
    N0: float
    s_q: float
    method: str   # "closed form" | "direct sum"


def _direct(lam, gamma, n, sigma_w2, sigma_e2) -> GLASums:
    """The O(n) sums for checked inputs (no checks but the memory guard of ``n``)."""
    s = _ar1_variances(gamma, _n_memory(n), sigma_w2, sigma_e2)
    si = s[1:n + 1]
    age = np.arange(n, 0, -1, dtype=float)           # age of token i = n+1-i
    p = lam ** age
    D1 = float(np.sum(p * gamma ** age * si))
    B = float(np.sum(p * p * si))
    N0 = float(np.sum(p * p))
    # R_i = Σ_{j>i} p_j γ^{j-i}, computed right-to-left: R_i = γ (p_{i+1} + R_{i+1})
    prev = np.concatenate(([0.0], p[::-1][:-1]))      # p_{i+1} in reversed order
    R = signal.lfilter([gamma], [1.0, -gamma], prev)[::-1]
    A2 = B + 2.0 * float(np.sum(p * si * R))
    return GLASums(D1, B, A2, N0, float(s[n + 1]), "direct sum")


def moment_sums(lam, gamma, n, sigma_w2, sigma_e2, method: str = "auto") -> GLASums:
    r""":math:`D_1, B, A_2, N_0, s_{n+1}` for the AR(1) prompt of length ``n``.

    ``method="closed"`` uses the generated SymPy closed forms (complete homogeneous symmetric
    polynomials of :math:`\lambda^2,\lambda\gamma,\gamma^2,1`), ``"direct"`` the O(n) finite sums;
    ``"auto"`` uses the closed forms only when all pairwise gaps of those bases exceed
    ``CLOSED_FORM_GAP`` (they have removable singularities at λ = γ, λ = 1, γ = 1).

    >>> s = moment_sums(0.5, 0.8, 30, 1.0, 0.1, method="closed")
    >>> t = moment_sums(0.5, 0.8, 30, 1.0, 0.1, method="direct")
    >>> abs(s.A2 - t.A2) / t.A2 < 1e-12
    True
    """
    if _plain_law(lam, gamma, n, sigma_w2, sigma_e2):
        lam, gamma, sigma_w2, sigma_e2 = float(lam), float(gamma), float(sigma_w2), float(sigma_e2)
    else:
        lam, gamma = _lam(lam), _gamma(gamma)
        n = _n(n)
        sigma_w2, sigma_e2 = _var("sigma_w2", sigma_w2), _var("sigma_e2", sigma_e2)
    if method not in ("auto", "closed", "direct"):
        raise ValueError(f"method must be one of ['auto', 'closed', 'direct'], got {method!r}")
    q, b, g2 = lam * lam, lam * gamma, gamma * gamma          # the bases λ², λγ, γ², 1: their smallest pairwise gap
    gap = min(abs(q - b), abs(q - g2), abs(q - 1.0), abs(b - g2), abs(b - 1.0), abs(g2 - 1.0))
    use_closed = method == "closed" or (method == "auto" and gap > CLOSED_FORM_GAP)
    if method == "closed" and gap == 0:
        raise ValueError("closed forms are singular when two of lam^2, lam*gamma, gamma^2, 1 coincide")
    if use_closed:
        # Python floats throughout (checked inputs): an overflow is an inf or an OverflowError, never a NumPy warning
        try:
            vals = [float(_gen.cf_D1(lam, gamma, n, sigma_w2, sigma_e2)),
                    float(_gen.cf_B(lam, gamma, n, sigma_w2, sigma_e2)),
                    float(_gen.cf_A2(lam, gamma, n, sigma_w2, sigma_e2)),
                    float(_gen.cf_N0(lam, gamma, n, sigma_w2, sigma_e2)),
                    float(_gen.cf_s_q(lam, gamma, n, sigma_w2, sigma_e2))]
        except (OverflowError, ZeroDivisionError):
            vals = [math.nan]
        if all(math.isfinite(v) for v in vals):
            return GLASums(*vals, "closed form")
    S = _direct(lam, gamma, n, sigma_w2, sigma_e2)
    if not (math.isfinite(S.D1) and math.isfinite(S.B) and math.isfinite(S.A2) and math.isfinite(S.N0)
            and math.isfinite(S.s_q)):
        _finite([S.D1, S.B, S.A2, S.N0, S.s_q], "the moment sums", lam=lam, gamma=gamma, n=n, sigma_w2=sigma_w2,
                sigma_e2=sigma_e2)
    return S


def _scaled(lam, gamma, n, sigma_w2, sigma_e2, noise):
    r"""Sums rescaled for range safety: returns ``(c, S, noise/c)``.

    Every error is homogeneous of degree 1 in the variances and every ratio is homogeneous of
    degree 0 in the weights :math:`p_i`, so we use variances divided by
    :math:`c=\max(\sigma_w^2,\sigma_e^2,\sigma^2)` and weights :math:`\lambda^{\text{age}-1}`
    (``S.D1`` = :math:`D_1/(c\lambda)`, ``S.B, S.A2, S.N0`` divided by :math:`c\lambda^2`, ``S.s_q``
    by c). Avoids underflow of :math:`\lambda^k` for tiny λ and overflow for huge variances.
    """
    if _plain_law(lam, gamma, n, sigma_w2, sigma_e2, noise):
        lam, gamma = float(lam), float(gamma)
        sigma_w2, sigma_e2, noise = float(sigma_w2), float(sigma_e2), float(noise)
    else:
        lam, gamma, n, sigma_w2, sigma_e2, noise = _law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    c = max(sigma_w2, sigma_e2, noise)
    c = c if c > 0 else 1.0
    S = moment_sums(lam, gamma, n, sigma_w2 / c, sigma_e2 / c)
    if S.method == "closed form" and lam > 1e-100:
        S = GLASums(S.D1 / lam, S.B / lam ** 2, S.A2 / lam ** 2, S.N0 / lam ** 2, S.s_q, S.method)
    else:
        s = _ar1_variances(gamma, _n_memory(n), sigma_w2 / c, sigma_e2 / c)
        si = s[1:n + 1]
        age = np.arange(n, 0, -1, dtype=float)
        p = lam ** (age - 1)
        prev = np.concatenate(([0.0], p[::-1][:-1]))
        R = signal.lfilter([gamma], [1.0, -gamma], prev)[::-1]
        B = float(np.sum(p * p * si))
        S = GLASums(float(np.sum(p * gamma ** age * si)), B, B + 2.0 * float(np.sum(p * si * R)),
                    float(np.sum(p * p)), float(s[n + 1]), "direct sum (scaled)")
    return c, S, noise / c


# ------------------------------------------------------------------ Λ = I results
def xi(lam, gamma, n, d, sigma_w2, sigma_e2, noise=0.0) -> float:
    r""":math:`\xi(\lambda)=D_1^2/D_2`, :math:`D_2=A_2+(d+1)B+\sigma^2N_0` (Λ = I_d).

    The train error is :math:`d(s_{n+1}-\xi)+\sigma^2`.

    >>> round(xi(1.0, 1.0, 4, 1, 1.0, 0.0), 12)    # 16 / (16 + 2*4)
    0.666666666667
    """
    d = check_int("d", d, minimum=1)
    c, s, nz = _scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    with np.errstate(over="ignore"):
        D2 = s.A2 + (d + 1) * s.B + nz * s.N0
        val = c * s.D1 ** 2 / D2 if D2 > 0 else 0.0
    return _finite(float(val), "xi", lam=lam, gamma=gamma, n=n, d=d, sigma_w2=sigma_w2, sigma_e2=sigma_e2, noise=noise)


def xi_large_d(lam, gamma, n, sigma_w2, sigma_e2) -> float:
    r"""Large-d limit :math:`\lim_{d\to\infty} d\,\xi = D_1^2/B` (maximised exactly at λ = γ).

    >>> xi_large_d(0.8, 0.8, 50, 1.0, 0.1) >= xi_large_d(0.7, 0.8, 50, 1.0, 0.1)
    True
    """
    c, s, _ = _scaled(lam, gamma, n, sigma_w2, sigma_e2, 0.0)
    with np.errstate(over="ignore"):
        val = c * s.D1 ** 2 / s.B if s.B > 0 else 0.0
    return _finite(float(val), "the large-d limit of d xi", lam=lam, gamma=gamma, n=n, sigma_w2=sigma_w2,
                   sigma_e2=sigma_e2)


def train_error(lam, gamma, n, d, sigma_w2, sigma_e2, noise=0.0, halved=False) -> float:
    r"""Exact train error :math:`\min_\Gamma E[(\hat y-y_{n+1})^2]` for :math:`\Lambda=I_d`.

    :math:`L^*=d\,s_{n+1}+\sigma^2-d\,D_1^2/(A_2+(d+1)B+\sigma^2N_0)`; ``halved`` returns
    :math:`L^*/2`.

    >>> round(train_error(1.0, 1.0, 10, 3, 1.0, 0.0), 12) == round(3 * 4 / 14, 12)
    True
    """
    if type(d) is not int or d < 1:
        d = check_int("d", d, minimum=1)
    if halved is not False and halved is not True:
        halved = check_bool("halved", halved)
    c, s, nz = _scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    # Python floats throughout: an overflow is an inf (caught below), never a NumPy warning
    if s.A2 + (d + 1) * s.B + nz * s.N0 <= 0:           # no signal and no noise: Γ irrelevant
        val = float(d * s.s_q + nz)
    else:
        val = float(_gen.train_error_from_sums(s.D1, s.B, s.A2, s.N0, s.s_q, d, nz))
    val *= c
    if not math.isfinite(val):
        _finite(val, "the train error", lam=lam, gamma=gamma, n=n, d=d, sigma_w2=sigma_w2, sigma_e2=sigma_e2,
                noise=noise)
    return val / 2 if halved else val


@dataclass(frozen=True)
class LambdaOpt:
    """Result of :func:`optimal_lambda` (errors not halved)."""

    lam: float
    error: float
    at_boundary: bool              # minimiser at λ = 1 (the closed end of (0, 1])
    error_linear_attention: float  # error at λ = 1
    grid_lam: float                # best point of the grid scan
    n_local_minima: int            # strict local minima on the scan grid

    def as_dict(self) -> dict:
        return dict(self.__dict__)


def _minimise(f, grid_size=401):
    grid = np.linspace(1.0 / grid_size, 1.0, grid_size)
    vals = np.array([f(x) for x in grid])
    k = int(np.argmin(vals))
    interior = (vals[1:-1] < vals[:-2]) & (vals[1:-1] < vals[2:])
    nmin = int(np.sum(interior)) + int(vals[-1] < vals[-2]) + int(vals[0] < vals[1])
    lo = grid[max(k - 1, 0)] if k > 0 else grid[0] / 2
    hi = grid[min(k + 1, grid.size - 1)]
    res = optimize.minimize_scalar(f, bounds=(lo, hi), method="bounded",
                                   options={"xatol": 1e-10, "maxiter": 500})
    cands = [(float(vals[k]), float(grid[k])), (float(res.fun), float(res.x))]
    if k == grid.size - 1:
        cands.append((float(f(1.0)), 1.0))
    best = min(cands)
    return best[1], best[0], float(grid[k]), nmin


def optimal_lambda(gamma, n, d, sigma_w2, sigma_e2, noise=0.0, grid_size=401) -> LambdaOpt:
    r"""Minimiser :math:`\lambda^*` of the train error over :math:`\lambda\in(0,1]` (Λ = I_d).

    A grid scan (``grid_size`` points) locates the basin, a bounded Brent search refines it; the
    number of strict local minima on the grid is reported. ``at_boundary`` is True when the
    minimiser is λ = 1 (plain linear attention is optimal).

    >>> r = optimal_lambda(0.9, 100, 10, 1.0, 0.01)
    >>> round(r.lam, 3), r.error < r.error_linear_attention
    (0.84, True)
    """
    gamma = _gamma(gamma)
    n = _n(n)
    d = check_int("d", d, minimum=1)
    grid_size = check_int("grid_size", grid_size, minimum=11, maximum=MAX_GRID)
    f = lambda lam: train_error(lam, gamma, n, d, sigma_w2, sigma_e2, noise)  # noqa: E731
    lam, err, glam, nmin = _minimise(f, grid_size)
    e1 = f(1.0)
    return LambdaOpt(lam, err, bool(lam >= 1.0 - 1e-9 or e1 <= err), e1, glam, nmin)


def lambda_star_large_d_correction(gamma, n, d, sigma_w2, sigma_e2, noise=0.0) -> dict:
    r"""First-order finite-d shift of :math:`\lambda^*` away from γ.

    :math:`\log\xi = F(\lambda) - \log(d+1) - \log(1+G/(d+1))` with :math:`F=\log(D_1^2/B)`
    (maximal at γ) and :math:`G=(A_2+\sigma^2N_0)/B`, hence
    :math:`\lambda^*\approx\gamma+G'(\gamma)/((d+1)F''(\gamma))`. Derivatives by central
    differences of the exact sums (step 1e-4). Returns the prediction and its pieces. The variances are
    divided by their maximum c first (F shifts by −log c and G is unchanged, so the derivatives are the same
    and huge variances do not overflow).
    """
    gamma = _gamma(gamma)
    n = _n_direct(n)
    d = check_int("d", d, minimum=1)
    noise = _var("noise", noise)
    if gamma >= 1.0 - 2e-4:
        raise ValueError("gamma must be in (0, 0.9998] for the perturbative shift (λ ≤ 1 constraint)")
    sigma_w2, sigma_e2 = _var("sigma_w2", sigma_w2), _var("sigma_e2", sigma_e2)
    if sigma_w2 == 0 and sigma_e2 == 0:
        raise ValueError("sigma_w2 and sigma_e2 must not both be 0 (no signal: lambda* is undefined)")
    c = max(sigma_w2, sigma_e2, noise)
    sw, se, nz = sigma_w2 / c, sigma_e2 / c, noise / c
    h = 1e-4

    def F(x):
        s = moment_sums(x, gamma, n, sw, se, method="direct")
        return math.log(s.D1 ** 2 / s.B)

    def G(x):
        s = moment_sums(x, gamma, n, sw, se, method="direct")
        return (s.A2 + nz * s.N0) / s.B

    with np.errstate(over="ignore", invalid="ignore"):
        F2 = (F(gamma + h) - 2 * F(gamma) + F(gamma - h)) / h ** 2
        G1 = (G(gamma + h) - G(gamma - h)) / (2 * h)
        # the expansion log(1 + G/(d+1)) ≈ G/(d+1) needs G(γ)/(d+1) ≪ 1
        out = {"lam_pred": gamma + G1 / ((d + 1) * F2), "F2": F2, "G1": G1,
               "expansion_parameter": G(gamma) / (d + 1)}
    return _finite(list(out.values()), "the finite-d shift of lambda*", gamma=gamma, n=n, d=d, sigma_w2=sigma_w2,
                   sigma_e2=sigma_e2, noise=noise) and out


# ------------------------------------------------------------------ general Λ
def _H_parts(lam, gamma, n, L, sigma_w2, sigma_e2, noise):
    s = moment_sums(lam, gamma, n, sigma_w2, sigma_e2)
    kappa = s.B * float(np.trace(L)) + noise * s.N0
    return s, kappa


def effective_covariance(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0) -> np.ndarray:
    r"""Effective covariance :math:`\tilde\Lambda` with :math:`\Gamma^*=(D_1/A_2)\tilde\Lambda^{-1}`.

    :math:`\tilde\Lambda=(1+B/A_2)\Lambda+\frac{B\operatorname{tr}\Lambda+\sigma^2N_0}{A_2}I`
    (normalised like Zhang–Frei–Bartlett's :math:`(1+1/N)\Lambda+\operatorname{tr}\Lambda/N\,I`,
    which it equals at λ = γ = 1, σ_e = σ = 0). Exact for every Gaussian Λ and finite d.

    >>> np.allclose(effective_covariance(1.0, 1.0, 4, np.eye(2), 1.0, 0.0), 1.25 * np.eye(2) + 0.5 * np.eye(2))
    True
    """
    L = _lambda_mat(Lambda)
    c, s, nz = _scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    if s.A2 <= 0:
        raise ValueError("sigma_w2 and sigma_e2 must not both be 0 (no signal: the effective covariance is undefined)")
    with np.errstate(over="ignore", invalid="ignore"):
        kappa = s.B * float(np.trace(L)) + nz * s.N0
        out = (1.0 + s.B / s.A2) * L + (kappa / s.A2) * np.eye(L.shape[0])
    return _finite(out, "the effective covariance", lam=lam, gamma=gamma, n=n, sigma_w2=sigma_w2, sigma_e2=sigma_e2,
                   noise=noise, max_abs_Lambda=float(np.max(np.abs(L))))


@dataclass(frozen=True)
class OptimalGLA:
    """Optimal parameters: Γ*, the embedded full matrices and the train error."""

    Gamma: np.ndarray
    W_KQ: np.ndarray
    W_V: np.ndarray
    Lambda_tilde: np.ndarray
    scale: float          # D1 / A2, Γ* = scale · Λ̃⁻¹
    train_error: float


def optimal_parameters(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0, v=1.0) -> OptimalGLA:
    r"""Γ* and an embedding into full :math:`(d+1)\times(d+1)` matrices.

    :math:`W_V` has last row :math:`(0,\dots,0,v)` (all other rows 0), :math:`W_{KQ}` has
    top-left block :math:`A=\Gamma^{*\top}/v` (the rest 0), so :math:`vA^\top=\Gamma^*`.

    >>> o = optimal_parameters(1.0, 1.0, 4, np.eye(2), 1.0, 0.0)
    >>> o.W_KQ.shape, round(o.train_error, 12) == round(2 * 3 / 7, 12)
    ((3, 3), True)
    """
    L = _lambda_mat(Lambda)
    v = check_real("v", v)
    if v == 0:
        raise ValueError("v must be nonzero, got 0")
    Lt = effective_covariance(lam, gamma, n, L, sigma_w2, sigma_e2, noise)
    _, s, _ = _scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        scale = s.D1 / (s.A2 * lam)               # = D1 / A2 (invariant under the variance scale)
        try:
            G = scale * _solve_psd(Lt, np.eye(L.shape[0]))
        except np.linalg.LinAlgError:
            G = np.full(L.shape, np.inf)
    if not np.all(np.isfinite(G)):
        raise ValueError(f"lam must not be so small that the optimal Gamma (~1/lam) overflows, got {lam!r} (or "
                         "Lambda is singular with no noise floor)")
    d = L.shape[0]
    WV = np.zeros((d + 1, d + 1))
    WV[d, d] = v
    WKQ = np.zeros((d + 1, d + 1))
    with np.errstate(over="ignore"):
        WKQ[:d, :d] = G.T / v
    _finite(WKQ, "the embedded W_KQ = Gamma*^T / v", v=v, lam=lam)
    err = train_error_general(lam, gamma, n, L, sigma_w2, sigma_e2, noise)
    return OptimalGLA(G, WKQ, WV, Lt, scale, err)


def population_loss(Gamma, lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0) -> float:
    r"""Exact :math:`L(\Gamma)=\operatorname{tr}(\Gamma^\top\Lambda\Gamma H)-2D_1\operatorname{tr}(\Lambda\Gamma\Lambda)+s_{n+1}\operatorname{tr}\Lambda+\sigma^2`.

    (Reduced predictor :math:`\hat y=x_{n+1}^\top\Gamma h`; not halved.)

    >>> round(population_loss(np.zeros((2, 2)), 0.5, 0.8, 10, np.eye(2), 1.0, 0.0), 12) == round(2 * 0.64 ** 11, 12)
    True
    """
    lam, gamma = _lam(lam), _gamma(gamma)
    L = _lambda_mat(Lambda)
    noise = _var("noise", noise)
    G = check_array("Gamma", Gamma, ndim=2, shape=L.shape)
    c, s, nz = _scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    with np.errstate(over="ignore", invalid="ignore"):
        kappa = s.B * float(np.trace(L)) + nz * s.N0
        H = L @ ((s.A2 + s.B) * L + kappa * np.eye(L.shape[0]))
        Gs = lam * G                                   # weights were divided by λ
        val = float(c * (np.trace(Gs.T @ L @ Gs @ H) - 2 * s.D1 * np.trace(L @ Gs @ L)
                         + s.s_q * np.trace(L) + nz))
    return _finite(val, "the population loss", lam=lam, gamma=gamma, n=n, sigma_w2=sigma_w2, sigma_e2=sigma_e2,
                   noise=noise, max_abs_Gamma=float(np.max(np.abs(G))))


def train_error_general(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0) -> float:
    r"""Train error for general Λ: :math:`s_{n+1}\operatorname{tr}\Lambda+\sigma^2-D_1^2\sum_k\mu_k^2/((A_2+B)\mu_k+B\operatorname{tr}\Lambda+\sigma^2N_0)`.

    >>> abs(train_error_general(0.7, 0.8, 20, np.eye(3), 1.0, 0.1) - train_error(0.7, 0.8, 20, 3, 1.0, 0.1)) < 1e-12
    True
    """
    L = _lambda_mat(Lambda)
    c, s, nz = _scaled(lam, gamma, n, sigma_w2, sigma_e2, noise)
    mu = np.clip(_eigvals(L), 0.0, None)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        kappa = s.B * float(np.sum(np.diag(L))) + nz * s.N0
        den = (s.A2 + s.B) * mu + kappa
        terms = np.where(den > 0, mu ** 2 / np.where(den > 0, den, 1.0), 0.0)
        val = float(c * (s.s_q * mu.sum() + nz - s.D1 ** 2 * terms.sum()))
    return _finite(val, "the train error", lam=lam, gamma=gamma, n=n, sigma_w2=sigma_w2, sigma_e2=sigma_e2,
                   noise=noise, max_abs_Lambda=float(np.max(np.abs(L))))


def test_error(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0, *, test_gamma=None,
               test_n=None, test_Lambda=None, test_sigma_w2=None, test_sigma_e2=None,
               test_noise=None, Gamma=None) -> float:
    r"""Test error (Theorem 3 setting): train-optimal :math:`\Gamma^*` on a different distribution.

    :math:`\Gamma^*` is optimal for (λ, γ, n, Λ, σ's) (or ``Gamma`` if given); it is evaluated
    exactly on prompts of length ``test_n`` with ``test_gamma``, ``test_Lambda``, ... (each
    defaults to the training value), same λ. Not halved.

    >>> e_tr = train_error(0.8, 0.9, 50, 4, 1.0, 0.05)
    >>> abs(test_error(0.8, 0.9, 50, np.eye(4), 1.0, 0.05) - e_tr) < 1e-12
    True
    """
    L = _lambda_mat(Lambda)
    G = optimal_parameters(lam, gamma, n, L, sigma_w2, sigma_e2, noise).Gamma if Gamma is None else \
        check_array("Gamma", Gamma, ndim=2, shape=L.shape)
    tg = gamma if test_gamma is None else _gamma(test_gamma, "test_gamma")
    tn = n if test_n is None else _n(test_n, "test_n")
    tL = L if test_Lambda is None else _lambda_mat(test_Lambda, name="test_Lambda")
    if tL.shape != L.shape:
        raise ValueError(f"test_Lambda must have shape {L.shape}, got {tL.shape}")
    tw = sigma_w2 if test_sigma_w2 is None else _var("test_sigma_w2", test_sigma_w2)
    te = sigma_e2 if test_sigma_e2 is None else _var("test_sigma_e2", test_sigma_e2)
    tz = noise if test_noise is None else _var("test_noise", test_noise)
    try:
        return population_loss(G, lam, tg, tn, tL, tw, te, tz)
    except ValueError as exc:
        if "not finite" in str(exc):
            raise ValueError(f"the test error is not finite for test_gamma={tg!r}, test_n={tn!r}, "
                             f"test_sigma_w2={tw!r}, test_sigma_e2={te!r}, test_noise={tz!r} (overflow); use inputs "
                             "of a smaller magnitude") from None
        raise


test_error.__test__ = False   # not a pytest test despite the name


def irreducible_floor(Lambda, sigma_e2, noise=0.0) -> float:
    r"""Lower bound :math:`\sigma_e^2\operatorname{tr}\Lambda+\sigma^2` on the error of *any* predictor.

    The fresh innovation :math:`e_{n+1}` and :math:`\varepsilon_{n+1}` are independent of the
    prompt and of :math:`x_{n+1}`, so :math:`E[(\hat y-y_{n+1})^2]\ge E[(e_{n+1}^\top x_{n+1})^2]+\sigma^2`.

    >>> irreducible_floor(np.eye(3), 0.1, 0.5)
    0.8
    """
    L = _lambda_mat(Lambda)
    sigma_e2, noise = _var("sigma_e2", sigma_e2), _var("noise", noise)
    with np.errstate(over="ignore"):
        val = float(sigma_e2 * np.trace(L) + noise)
    return _finite(val, "the irreducible floor", sigma_e2=sigma_e2, noise=noise,
                   max_abs_Lambda=float(np.max(np.abs(L))))


# ------------------------------------------------------------------ Monte Carlo of the recursion


def simulate_gla(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0, W_KQ=None, W_V=None,
                 n_samples=20_000, seed=0, batch=5_000) -> MeanEstimate:
    r"""Monte Carlo MSE of the actual GLA recursion on fresh AR(1) prompts.

    Runs :math:`S_i=\lambda S_{i-1}+v_ik_i^\top` over tokens :math:`i=1..n+1` (query included,
    its label slot 0) with :math:`v_i=W_Vz_i`, :math:`k_i=z_i`, query vector :math:`W_{KQ}z_{n+1}`
    (i.e. :math:`W_K=I`, :math:`W_Q=W_{KQ}`), predicts :math:`\hat y=(S_{n+1}W_{KQ}z_{n+1})_{d+1}`
    and averages :math:`(\hat y-y_{n+1})^2` (not halved). Defaults for ``W_KQ``/``W_V``: the
    optimal embedded ones (:func:`optimal_parameters`). Returns a
    :class:`~theorycheck.montecarlo.MeanEstimate` (mean, SE, n, seed, batch).

    >>> est = simulate_gla(0.8, 0.9, 10, np.eye(2), 1.0, 0.1, n_samples=2000, seed=1)
    >>> abs(est.mean - train_error(0.8, 0.9, 10, 2, 1.0, 0.1)) < 5 * est.se
    True
    """
    lam, gamma, n, sigma_w2, sigma_e2, noise = _law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    L = _lambda_mat(Lambda)
    n_samples = check_int("n_samples", n_samples, minimum=2, maximum=MAX_COUNT)
    batch = check_int("batch", batch, minimum=1, maximum=MAX_COUNT)
    seed = check_int("seed", seed, minimum=0)
    d = L.shape[0]
    _sim_budget(n_samples, min(batch, n_samples), n, d, "n_samples", "batch")
    W_KQ, W_V = _sim_weights(W_KQ, W_V, lam, gamma, n, L, sigma_w2, sigma_e2, noise)
    nb = math.ceil(n_samples / batch)
    rm = RunningMean()
    left = n_samples
    for g in rngs(seed, nb):
        size = min(batch, left)
        X, Y = _sample_tokens(g, size, gamma, n, L, sigma_w2, sigma_e2, noise)
        with np.errstate(over="ignore", invalid="ignore"):
            err = (_gla_forward(X, Y, lam, W_KQ, W_V) - Y[:, -1]) ** 2
        _finite(err, "the squared error of the GLA recursion", sigma_w2=sigma_w2, sigma_e2=sigma_e2, noise=noise,
                max_abs_W_KQ=float(np.max(np.abs(W_KQ))), max_abs_W_V=float(np.max(np.abs(W_V))))
        rm.update(err)
        left -= size
    return rm.estimate(seed=seed, batch=batch, label="GLA recursion MSE")


def _sim_budget(n_samples, chunk, n, d, name, chunk_name):
    """Refuse a Monte Carlo of the recursion past :data:`MAX_SIM_WORK` or a chunk past the memory budget."""
    work = float(n_samples) * float(n + 1) * float(d + 1)
    if work > MAX_SIM_WORK:
        raise ValueError(f"{name} = {n_samples} prompts of n + 1 = {n + 1} tokens in d = {d} is about {work:.2g} "
                         f"token-dimensions of work, above the budget of {MAX_SIM_WORK:.2g} (about a minute of one "
                         f"core); reduce {name}, n or d")
    check_memory(chunk_name, chunk, 8.0 * float(chunk) * float(n + 1) * (3.0 * d + 6.0),
                 f"one chunk of {chunk} prompts")


def _sim_weights(W_KQ, W_V, lam, gamma, n, L, sigma_w2, sigma_e2, noise):
    d = L.shape[0]
    if W_KQ is None or W_V is None:
        opt = optimal_parameters(lam, gamma, n, L, sigma_w2, sigma_e2, noise)
        W_KQ = opt.W_KQ if W_KQ is None else W_KQ
        W_V = opt.W_V if W_V is None else W_V
    out = []
    for name, M in (("W_KQ", W_KQ), ("W_V", W_V)):
        if M is None or isinstance(M, (str, bytes, bool, np.bool_)) or np.ndim(M) != 2:
            raise ParameterTypeError(f"{name} must be a finite ({d + 1}, {d + 1}) matrix, got {type(M).__name__}")
        M = check_array(name, M, ndim=2)
        if M.shape != (d + 1, d + 1):
            raise ValueError(f"{name} must be a finite ({d + 1}, {d + 1}) matrix, got shape {M.shape}")
        out.append(M)
    return out


# ------------------------------------------------------------------ gradient flow
@dataclass
class FlowResult:
    """Gradient flow of the population loss over (v, A), Γ = v Aᵀ."""

    times: np.ndarray
    dist_gamma: np.ndarray        # ‖Γ(t) − Γ*‖_F
    dist_params: np.ndarray       # ‖(v, A)(t) − (v*, A*)‖ on the conserved manifold
    loss: np.ndarray
    loss_star: float
    rate_fit: float | None        # −slope of log ‖Γ − Γ*‖ over the fitted window (None: never entered it)
    rate_linearised: float | None  # smallest nonzero decay rate of the linearised flow at the limit
                                  # (a structured init may only excite a faster invariant mode:
                                  # extra["nearest_linearised_rate"] is the eigenvalue matching the fit)
    fit_window: tuple | None
    conserved_drift: float        # max |v² − ‖A‖²_F − const| along the path (relative)
    init: str
    extra: dict = field(default_factory=dict)


def gradient_flow(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0, init="structured",
                  sigma=1e-2, seed=0, t_max=None, n_points=400) -> FlowResult:
    r"""Integrate :math:`\dot\theta=-\nabla_\theta L` for θ = (v, A), :math:`\Gamma=vA^\top`.

    :math:`\nabla_\Gamma L=2\Lambda\Gamma H-2D_1\Lambda^2`, :math:`\partial_vL=\operatorname{tr}(\nabla_\Gamma L\,A)`,
    :math:`\partial_AL=v(\nabla_\Gamma L)^\top`. Initialisations (stated assumptions):
    ``"structured"`` (Assumption-1 / Zhang–Frei–Bartlett style): :math:`v(0)=\sigma`,
    :math:`A(0)=\sigma\Theta\Theta^\top` with :math:`\Theta\Theta^\top=I/\sqrt d`
    (:math:`\|\Theta\Theta^\top\|_F=1`, balanced :math:`v^2=\|A\|_F^2`);
    ``"random"``: :math:`v\sim\mathcal N(0,\sigma^2)`, :math:`A_{kl}\sim\mathcal N(0,\sigma^2/d)`.
    σ is relative to :math:`\|\Gamma^*\|_F^{1/2}`. :math:`v^2-\|A\|_F^2` is conserved, which fixes
    the limit :math:`(v^*,A^*)` on the manifold of minimisers. Solver: scipy ``solve_ivp``
    (LSODA, rtol 1e-10, atol 1e-13 in units of the optimum).
    """
    from scipy.integrate import solve_ivp

    lam, gamma = _lam(lam), _gamma(gamma)
    L = _lambda_mat(Lambda)
    if not isinstance(init, str) or init not in ("structured", "random"):
        raise ValueError(f"init must be one of ['random', 'structured'], got {init!r}")
    sigma = check_real("sigma", sigma, 0.0, MAX_INIT_SCALE, low_open=True)
    n_points = check_int("n_points", n_points, minimum=3, maximum=MAX_FLOW_POINTS)
    if t_max is not None:
        t_max = check_real("t_max", t_max, 0.0, low_open=True)
    sigma_w2, sigma_e2, noise = _flow_variances(sigma_w2, sigma_e2, noise)
    n = _n(n)
    d = L.shape[0]
    if d > MAX_FLOW_DIM:
        raise ValueError(f"Lambda must be at most {MAX_FLOW_DIM}x{MAX_FLOW_DIM} for the gradient flow (d^2 + 1 "
                         f"states), got {d}x{d}")
    if float(np.min(np.linalg.eigvalsh(L))) <= 0:
        raise ValueError("Lambda must be positive definite for the gradient flow (its time scale is 1/lambda_min), "
                         f"got smallest eigenvalue {float(np.min(np.linalg.eigvalsh(L))):.3g}")
    s, kappa = _H_parts(lam, gamma, n, L, sigma_w2, sigma_e2, _var("noise", noise))
    H = L @ ((s.A2 + s.B) * L + kappa * np.eye(d))
    Gs = optimal_parameters(lam, gamma, n, L, sigma_w2, sigma_e2, noise).Gamma
    gnorm = float(np.linalg.norm(Gs))
    # rescale parameters so that the optimum has unit size: θ = sqrt(‖Γ*‖) θ̃
    r = math.sqrt(gnorm)
    L2 = L @ L

    def grad_gamma(G):
        return 2 * L @ G @ H - 2 * s.D1 * L2

    def rhs(_t, y):
        v, A = y[0], y[1:].reshape(d, d)
        gG = grad_gamma(v * A.T)
        return np.concatenate(([-np.trace(gG @ A)], (-v * gG.T).ravel()))

    if init == "structured":
        v0 = sigma * r
        A0 = sigma * r * np.eye(d) / math.sqrt(d)
    else:
        rng = np.random.default_rng(check_int("seed", seed, minimum=0))
        v0 = sigma * r * rng.standard_normal()
        A0 = sigma * r * rng.standard_normal((d, d)) / math.sqrt(d)
    y0 = np.concatenate(([v0], A0.ravel()))
    c0 = v0 ** 2 - float(np.sum(A0 ** 2))
    # time scale: the linearised rate near the optimum is ~ 2 v*² λ_min(Λ⊗H)
    hmin = float(np.min(np.linalg.eigvalsh(L)) * np.min(np.linalg.eigvalsh(H)))
    vstar2 = (c0 + math.sqrt(c0 ** 2 + 4 * gnorm ** 2)) / 2
    if t_max is None:
        # escape from the small init (~ log(1/σ)/(v*² h)) plus 40 e-folds of the slowest mode
        t_max = (2 * math.log(1 / sigma) + 40.0) / (2 * max(vstar2, 1e-300) * max(hmin, 1e-300))
    t_eval = np.concatenate(([0.0], np.geomspace(t_max * 1e-6, t_max, n_points - 1)))
    sol = solve_ivp(rhs, (0.0, t_max), y0, method="LSODA", t_eval=t_eval, rtol=1e-10,
                    atol=1e-13 * r, jac=None)
    if not sol.success:
        raise RuntimeError(f"gradient flow integration failed: {sol.message}")
    Y = sol.y.T
    v = Y[:, 0]
    A = Y[:, 1:].reshape(-1, d, d)
    Gam = v[:, None, None] * np.transpose(A, (0, 2, 1))
    dist = np.linalg.norm(Gam - Gs, axis=(1, 2))
    vs = math.copysign(math.sqrt(vstar2), v[-1])
    As = Gs.T / vs
    dist_p = np.sqrt((v - vs) ** 2 + np.sum((A - As) ** 2, axis=(1, 2)))
    loss = np.array([population_loss(G, lam, gamma, n, L, sigma_w2, sigma_e2, noise) for G in Gam])
    lstar = population_loss(Gs, lam, gamma, n, L, sigma_w2, sigma_e2, noise)
    cons = np.abs(v ** 2 - np.sum(A ** 2, axis=(1, 2)) - c0) / max(gnorm, 1e-300)
    # fit window: relative distance between 1e-3 and 1e-8 of ‖Γ*‖
    rel = dist / gnorm
    mask = (rel < 1e-3) & (rel > 1e-8)
    if mask.sum() >= 3:
        tt, ld = sol.t[mask], np.log(dist[mask])
        slope = float(np.polyfit(tt, ld, 1)[0])
        win = (float(tt[0]), float(tt[-1]))
    else:                  # the flow never entered the fit window: no rate (None, never NaN)
        slope, win = None, None
    # linearised flow at (v*, A*): Jacobian by central differences
    ystar = np.concatenate(([vs], As.ravel()))
    m = ystar.size
    J = np.empty((m, m))
    eps = 1e-6 * r
    for k in range(m):
        e = np.zeros(m)
        e[k] = eps
        J[:, k] = (rhs(0, ystar + e) - rhs(0, ystar - e)) / (2 * eps)
    ev = np.sort(-np.linalg.eigvals(J).real)
    nz = ev[ev > 1e-7 * ev.max()]
    rate_lin = float(nz.min()) if nz.size else None
    nearest = float(nz[np.argmin(np.abs(nz + slope))]) if nz.size and slope is not None else None
    _finite([dist[-1], loss[-1], lstar], "the gradient flow", lam=lam, gamma=gamma, n=n, sigma_w2=sigma_w2,
            sigma_e2=sigma_e2, noise=noise, sigma=sigma)
    return FlowResult(sol.t, dist, dist_p, loss, lstar, None if slope is None else -slope, rate_lin, win,
                      float(cons.max()),
                      init, {"t_max": t_max, "sigma": sigma, "v_star": vs, "Gamma_star_norm": gnorm,
                             "final_rel_dist": float(rel[-1]),
                             "nearest_linearised_rate": nearest,
                             "linearised_rates": sorted(set(np.round(nz, 10).tolist()))})


# ------------------------------------------------------------------ full parametrisation (Λ = I)
def _full_sums(lam, gamma, n, sigma_w2, sigma_e2):
    s = ar1_variances(gamma, n, sigma_w2, sigma_e2)
    si = s[1:n + 1]
    p = lam ** np.arange(n, 0, -1, dtype=float)
    # R2 = Σ_{i,j} p_i p_j γ^{2|i-j|} s_min(i,j)², via R_i = Σ_{j>i} p_j γ^{2(j-i)}
    prev = np.concatenate(([0.0], p[::-1][:-1]))
    R = signal.lfilter([gamma ** 2], [1.0, -gamma ** 2], prev)[::-1]
    R2 = float(np.sum(p * p * si * si) + 2 * np.sum(p * si * si * R))
    return {"P1": float(p.sum()), "S1": float(np.sum(p * si)), "R2": R2,
            "diag": lambda d, noise: float(np.sum(p * p * (2 * (d * si + noise) ** 2 + 4 * d * si * si)))}


def _full_consts(lam, gamma, n, d, sigma_w2, sigma_e2, noise):
    sm = moment_sums(lam, gamma, n, sigma_w2, sigma_e2)
    fs = _full_sums(lam, gamma, n, sigma_w2, sigma_e2)
    Ey = d * fs["S1"] + noise * fs["P1"]
    return {"d": d, "h0": sm.A2 + (d + 1) * sm.B + noise * sm.N0, "D1": sm.D1, "c0": d * sm.s_q + noise,
            "P1": fs["P1"], "N0": sm.N0, "B": sm.B, "Ey": Ey,
            "K2": Ey ** 2 + 2 * d * fs["R2"] + fs["diag"](d, noise)}


def _full_loss(u, v, A, b, k):
    # called ~10⁵ times per flow (complex-step gradients): the array methods (.sum(), .trace()) skip the dispatch of
    # np.sum / np.trace and the shared left factors uᵀA, uᵀM and Aᵀu·Aᵀu are formed once — the same operations in the
    # same order as the formula, so the same numbers bit for bit
    At = A.T
    G = v * At + b[:, None] * u                      # v Aᵀ + b uᵀ (np.outer(b, u) is this product)
    Lred = k["h0"] * (G * G).sum() - 2 * k["D1"] * G.trace() + k["c0"]
    M = (A + At) / 2
    Atu = At @ u
    AtuAtu = Atu @ Atu
    uu = u @ u
    trA = A.trace()
    uA = u @ A
    uM = u @ M
    P1, N0 = k["P1"], k["N0"]
    ET1 = ((P1 ** 2 - N0) * AtuAtu + N0 * (uu * (A * A).sum() + 2 * AtuAtu)
           + 2 * P1 * ((uA @ u) * trA + 2 * (uM @ Atu))
           + uu * (trA ** 2 + 2 * (M * M).sum()) + 4 * trA * (uM @ u) + 8 * (uM @ M @ u))
    ET2 = v * v * (b @ b) * k["K2"]
    ET12 = v * ((uA @ b) * (P1 * k["Ey"] + 2 * k["B"]) + ((u @ b) * trA + 2 * (uM @ b)) * k["Ey"])
    return Lred + ET1 + 2 * ET12 + ET2


def full_parameter_loss(u, v, A, b, lam, gamma, n, d, sigma_w2, sigma_e2, noise=0.0) -> float:
    r"""Exact MSE of the FULL predictor for :math:`\Lambda=I_d` (not halved).

    :math:`W_V` last row :math:`(u^\top, v)`, :math:`W_{KQ}[:, :d]=[A; b^\top]`;
    :math:`L=L_{red}(vA^\top+bu^\top)+E[(T_1+T_2)^2]` with (:math:`p_i=\lambda^{n+1-i}`,
    :math:`P_1=\sum p_i`, :math:`S_1=\sum p_is_i`, :math:`M=(A+A^\top)/2`)

    .. math::
       E[T_1^2]=(P_1^2-N_0)\|A^\top u\|^2+N_0(\|u\|^2\|A\|_F^2+2\|A^\top u\|^2)
        +2P_1\big((u^\top Au)\operatorname{tr}A+2u^\top MA^\top u\big)
        +\|u\|^2((\operatorname{tr}A)^2+2\operatorname{tr}M^2)+4\operatorname{tr}A\,u^\top Mu+8u^\top M^2u,

       E[T_2^2]=v^2\|b\|^2\Big[(dS_1+\sigma^2P_1)^2+2dR_2+\sum_ip_i^2\big(2(ds_i+\sigma^2)^2+4ds_i^2\big)\Big],

       E[T_1T_2]=v\Big[(u^\top Ab)\big(P_1(dS_1+\sigma^2P_1)+2B\big)+\big((u^\top b)\operatorname{tr}A+2u^\top Mb\big)(dS_1+\sigma^2P_1)\Big],

    :math:`R_2=\sum_{i,j}p_ip_j\gamma^{2|i-j|}s_{\min(i,j)}^2`. The last three terms of :math:`E[T_1^2]` are the
    query token's own contribution. Accepts complex arrays (used for complex-step gradients).

    >>> d = 2; o = optimal_parameters(0.8, 0.9, 6, np.eye(d), 1.0, 0.1)
    >>> abs(full_parameter_loss(np.zeros(d), 1.0, o.Gamma.T, np.zeros(d), 0.8, 0.9, 6, d, 1.0, 0.1) - o.train_error) < 1e-12
    True
    """
    lam, gamma = _lam(lam), _gamma(gamma)
    n = _n_direct(n)
    d = check_int("d", d, minimum=1, maximum=MAX_COUNT)
    noise = _var("noise", noise)
    arrs = {}
    for name, x, shape in (("u", u, (d,)), ("b", b, (d,)), ("A", A, (d, d)), ("v", v, ())):
        if x is None or isinstance(x, (str, bytes, bool, np.bool_)):
            raise ParameterTypeError(f"{name} must be numeric with shape {shape}, got {x!r} ({type(x).__name__})")
        try:
            a = np.asarray(x)
            a = a if np.iscomplexobj(a) else a.astype(float)
        except (TypeError, ValueError):
            raise ParameterTypeError(f"{name} must be numeric with shape {shape}, got {type(x).__name__}") from None
        if a.shape != shape:
            raise ValueError(f"u, b must have shape ({d},) and A shape ({d}, {d}); {name} has shape {a.shape}")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"u, v, A and b must have finite entries ({name} does not)")
        arrs[name] = a
    v = arrs["v"][()]
    with np.errstate(over="ignore", invalid="ignore"):
        val = _full_loss(arrs["u"], v, arrs["A"], arrs["b"], _full_consts(lam, gamma, n, d, sigma_w2, sigma_e2, noise))
    if not np.isfinite(val):
        raise ValueError(f"the full-parameter loss is not finite for lam={lam!r}, gamma={gamma!r}, n={n!r}, d={d!r}, "
                         f"sigma_w2={sigma_w2!r}, sigma_e2={sigma_e2!r}, noise={noise!r}, max |u, v, A, b| = "
                         f"{max(float(np.max(np.abs(a))) if np.size(a) else 0.0 for a in arrs.values()):.3g} "
                         "(overflow); use inputs of a smaller magnitude")
    return val if np.iscomplexobj(val) else float(val)


def full_gradient_flow(lam, gamma, n, d, sigma_w2, sigma_e2, noise=0.0, sigma=0.3, seed=0, t_max=None,
                       n_points=300) -> dict:
    r"""Gradient flow of :func:`full_parameter_loss` over θ = (u, v, A, b) (Λ = I_d) from a random init.

    Gradients by complex-step differentiation (exact to rounding: the loss is a polynomial in θ).
    Init: all entries i.i.d. :math:`\mathcal N(0,\sigma^2\|\Gamma^*\|_F)` (σ relative). Default
    horizon ``t_max = 400/(h_0\|\Gamma^*\|_F)``. Returns the loss gap, ‖Γ − Γ*‖/‖Γ*‖ and ‖u‖, ‖b‖ over
    time, plus the final gradient norm (and the initial one) and the Hessian spectrum at the end point.
    """
    from scipy.integrate import solve_ivp

    d = check_int("d", d, minimum=1, maximum=MAX_FLOW_DIM)
    sigma = check_real("sigma", sigma, 0.0, MAX_INIT_SCALE, low_open=True)
    n_points = check_int("n_points", n_points, minimum=3, maximum=MAX_FLOW_POINTS)
    sigma_w2, sigma_e2, noise = _flow_variances(sigma_w2, sigma_e2, noise)
    n = _n_direct(n)
    opt = optimal_parameters(lam, gamma, n, np.eye(d), sigma_w2, sigma_e2, noise)
    gn = float(np.linalg.norm(opt.Gamma))
    r = math.sqrt(gn)
    m = 2 * d + 1 + d * d

    def unpack(th):
        return th[:d], th[d], th[d + 1:d + 1 + d * d].reshape(d, d), th[d + 1 + d * d:]

    consts = _full_consts(_lam(lam), _gamma(gamma), check_int("n", n, minimum=1), d, sigma_w2, sigma_e2,
                          _var("noise", noise))

    def loss(th):
        u, v, A, b = unpack(th)
        return _full_loss(u, v, A, b, consts)

    def grad(th):
        g = np.empty(m)
        hstep = 1e-30 * max(1.0, float(np.max(np.abs(th))))
        base = th.astype(complex)
        tc = base.copy()                             # perturbed in place, one coordinate at a time
        u, A, b = tc[:d], tc[d + 1:d + 1 + d * d].reshape(d, d), tc[d + 1 + d * d:]      # views of tc (= unpack)
        for k in range(m):
            tc[k] = base[k] + 1j * hstep
            g[k] = _full_loss(u, tc[d], A, b, consts).imag / hstep
            tc[k] = base[k]
        return g

    rng = np.random.default_rng(check_int("seed", seed, minimum=0))
    th0 = sigma * r * rng.standard_normal(m)
    sm = moment_sums(lam, gamma, n, sigma_w2, sigma_e2)
    h0 = sm.A2 + (d + 1) * sm.B + noise * sm.N0
    if t_max is None:
        t_max = 400.0 / (h0 * gn)
    t_max = check_real("t_max", t_max, 0.0, low_open=True)
    g_init = float(np.linalg.norm(grad(th0)))
    t_eval = np.concatenate(([0.0], np.geomspace(t_max * 1e-6, t_max, n_points - 1)))
    sol = solve_ivp(lambda t, y: -grad(y), (0.0, t_max), th0, method="LSODA", t_eval=t_eval, rtol=1e-10,
                    atol=1e-13 * r)
    if not sol.success:
        raise RuntimeError(f"full gradient flow failed: {sol.message}")
    gaps, dists, un, bn = [], [], [], []
    for th in sol.y.T:
        u, v, A, b = unpack(th)
        gaps.append(float(loss(th)) - opt.train_error)
        dists.append(float(np.linalg.norm(v * A.T + np.outer(b, u) - opt.Gamma)) / gn)
        un.append(float(np.linalg.norm(u)))
        bn.append(float(np.linalg.norm(b)))
    th = sol.y[:, -1]
    # Hessian at the end point (central differences of the exact complex-step gradient)
    H = np.empty((m, m))
    eps = 1e-6 * r
    for k in range(m):
        e = np.zeros(m)
        e[k] = eps
        H[:, k] = (grad(th + e) - grad(th - e)) / (2 * eps)
    hev = np.linalg.eigvalsh((H + H.T) / 2)
    return {"times": sol.t, "loss_gap": np.array(gaps), "rel_dist_gamma": np.array(dists), "u_norm": np.array(un),
            "b_norm": np.array(bn), "loss_star": opt.train_error, "t_max": t_max, "theta_final": th,
            "grad_norm_final": float(np.linalg.norm(grad(th))), "grad_norm_initial": g_init,
            "hessian_eigs_final": hev,
            "v_final": float(th[d]), "A_norm_final": float(np.linalg.norm(th[d + 1:d + 1 + d * d]))}


# ------------------------------------------------------------------ spurious critical points of the full loss
def probe_local_minimum(theta, lam, gamma, n, d, sigma_w2, sigma_e2, noise=0.0, radii=(1e-3, 1e-2, 1e-1),
                        directions=200, seed=0) -> dict:
    r"""Random-direction probe of the full loss around ``theta`` = (u, v, A, b) (Λ = I_d).

    For each relative radius r, ``directions`` unit directions e give
    :math:`L(\theta+r\|\theta\|e)-L(\theta)`; returns, per radius, the smallest increase and the
    fraction of non-negative ones (relative tolerance 1e-12 of the loss). A point where no probe
    decreases the loss, the gradient vanishes and the Hessian has no negative eigenvalue beyond
    rounding is a (numerical) local minimum.

    >>> o = optimal_parameters(0.8, 0.9, 6, np.eye(2), 1.0, 0.1)
    >>> th = np.concatenate([np.zeros(2), [1.0], o.Gamma.T.ravel(), np.zeros(2)])
    >>> probe_local_minimum(th, 0.8, 0.9, 6, 2, 1.0, 0.1, directions=20)["0.01"]["fraction_nonnegative"]
    1.0
    """
    d = check_int("d", d, minimum=1, maximum=MAX_FLOW_DIM)
    th = check_array("theta", theta, finite=False)
    m = 2 * d + 1 + d * d
    if th.shape != (m,) or not np.all(np.isfinite(th)):
        raise ValueError(f"theta must be a finite vector of length 2d + 1 + d^2 = {m}, got shape {th.shape}")
    directions = check_int("directions", directions, minimum=1, maximum=10 ** 6)
    radii = check_array("radii", radii, ndim=1, min_size=1)
    if np.any(radii <= 0):
        raise ValueError("radii must be positive")
    check_memory("directions", directions, 16.0 * directions * m, "the probe directions")
    sigma_w2, sigma_e2, noise = (_var(k_, v_) for k_, v_ in (("sigma_w2", sigma_w2), ("sigma_e2", sigma_e2),
                                                              ("noise", noise)))
    k = _full_consts(_lam(lam), _gamma(gamma), _n_direct(n), d, sigma_w2, sigma_e2, noise)

    def loss(t):
        return float(_full_loss(t[:d], t[d], t[d + 1:d + 1 + d * d].reshape(d, d), t[d + 1 + d * d:], k))

    rng = np.random.default_rng(check_int("seed", seed, minimum=0))
    with np.errstate(over="ignore", invalid="ignore"):
        l0 = loss(th)
        scale = max(float(np.linalg.norm(th)), 1e-12)
        out = {}
        for rad in radii.tolist():
            e = rng.standard_normal((directions, m))
            e /= np.linalg.norm(e, axis=1, keepdims=True)
            inc = np.array([loss(th + rad * scale * x) - l0 for x in e])
            _finite([l0, *inc], "the probed full-parameter loss", sigma_w2=sigma_w2, sigma_e2=sigma_e2, noise=noise,
                    radius=rad, max_abs_theta=float(np.max(np.abs(th))))
            out[str(rad)] = {"min_increase": float(inc.min()),
                             "fraction_nonnegative": float(np.mean(inc >= -1e-12 * max(abs(l0), 1e-300)))}
    return out


def classify_full_flow(fr: dict, rel_tol: float = 1e-6, grad_reduction: float = 1e-6) -> str:
    """Status of the end point of :func:`full_gradient_flow`: ``"global"`` (relative loss gap ≤
    ``rel_tol``), ``"critical"`` (gradient reduced by ``grad_reduction`` or more but the gap is larger:
    a spurious critical point) or ``"moving"`` (neither, at the horizon).

    >>> classify_full_flow({"loss_gap": [1.0, 0.0], "loss_star": 1.0, "grad_norm_final": 0.0, "grad_norm_initial": 1.0})
    'global'
    """
    rel_tol = check_real("rel_tol", rel_tol, 0.0)
    grad_reduction = check_real("grad_reduction", grad_reduction, 0.0)
    keys = ("loss_gap", "loss_star", "grad_norm_final", "grad_norm_initial")
    if not hasattr(fr, "keys") or any(k not in fr for k in keys):
        raise ParameterTypeError(f"fr must be the dict returned by full_gradient_flow (keys {list(keys)}), got "
                                 f"{type(fr).__name__}")
    gaps = check_array("fr['loss_gap']", fr["loss_gap"], ndim=1, min_size=1)
    vals = {k: check_real(f"fr['{k}']", fr[k], 0.0) for k in keys[1:]}
    gap = float(gaps[-1])
    if gap <= rel_tol * vals["loss_star"]:
        return "global"
    if vals["grad_norm_final"] <= grad_reduction * vals["grad_norm_initial"]:
        return "critical"
    return "moving"


# ------------------------------------------------------------------ drift laws beyond AR(1) (stress tests)
def drift_covariance(n, gamma, sigma_w2, sigma_e2, momentum=0.0, innovation_corr=0.0) -> np.ndarray:
    r"""Per-coordinate covariance :math:`K_{ij}=\operatorname{Cov}(w_i,w_j)`, :math:`i,j=1..n+1`, of drifting weights
    more general than AR(1) (isotropic and independent across coordinates, like the paper's model):

    .. math:: w_i=\gamma w_{i-1}+a\,(w_{i-1}-w_{i-2})+e_i,\qquad e_i=\rho e_{i-1}+\sqrt{1-\rho^2}\,\sigma_e\xi_i,

    with :math:`w_{-1}=w_0\sim\mathcal N(0,\sigma_w^2)`, :math:`e_0\sim\mathcal N(0,\sigma_e^2)`, :math:`\xi_i` i.i.d.
    standard normal: ``momentum`` = a (an AR(2) drift; a = 0 is AR(1)) and ``innovation_corr`` = ρ (innovations
    correlated across steps, each of variance σ_e²; ρ = 0 is white). With a = ρ = 0 it is the AR(1) covariance
    :math:`\gamma^{|i-j|}s_{\min(i,j)}`. Exact (propagation of the state covariance of :math:`(w_i,w_{i-1},e_i)`).

    >>> K = drift_covariance(3, 0.5, 1.0, 0.75)                 # stationary AR(1): s_i = 1
    >>> np.allclose(K, 0.5 ** np.abs(np.subtract.outer(np.arange(4), np.arange(4))))
    True
    """
    n = _n(n)
    check_memory("n", n, 8.0 * 4 * (n + 1) ** 2, "the (n + 1) x (n + 1) drift covariance")
    gamma = _gamma(gamma)
    sigma_w2, sigma_e2 = _var("sigma_w2", sigma_w2), _var("sigma_e2", sigma_e2)
    a = check_real("momentum", momentum, -1.0, 1.0, low_open=True, high_open=True)
    rho = check_real("innovation_corr", innovation_corr, -1.0, 1.0, low_open=True, high_open=True)
    c2 = sigma_e2 * (1.0 - rho * rho)
    F = np.array([[gamma + a, -a, rho], [1.0, 0.0, 0.0], [0.0, 0.0, rho]])
    G = np.array([[c2, 0.0, c2], [0.0, 0.0, 0.0], [c2, 0.0, c2]])
    P = np.array([[sigma_w2, sigma_w2, 0.0], [sigma_w2, sigma_w2, 0.0], [0.0, 0.0, sigma_e2]])
    Ps = np.empty((n + 1, 3, 3))
    with np.errstate(over="ignore", invalid="ignore"):
        for i in range(n + 1):                       # P_i = F P_{i-1} Fᵀ + G, i = 1..n+1
            P = F @ P @ F.T + G
            Ps[i] = P
        K = np.empty((n + 1, n + 1))
        M = Ps.copy()                                # M_i = F^ℓ P_i: Cov(s_{i+ℓ}, s_i)
        for lag in range(n + 1):
            idx = np.arange(n + 1 - lag)
            K[idx + lag, idx] = M[:n + 1 - lag, 0, 0]
            K[idx, idx + lag] = M[:n + 1 - lag, 0, 0]
            M = F @ M[:n - lag] if lag < n else M
    return _finite(K, "the drift covariance", n=n, gamma=gamma, sigma_w2=sigma_w2, sigma_e2=sigma_e2, momentum=a,
                   innovation_corr=rho)


def _check_K(K):
    K = check_array("K", K, ndim=2)
    if K.shape[0] != K.shape[1] or K.shape[0] < 2:
        raise ValueError(f"K must be a square (n + 1) x (n + 1) covariance with n >= 1, got shape {K.shape}")
    if np.max(np.abs(K - K.T)) > 1e-10 * max(1.0, float(np.max(np.abs(K)))) or np.any(np.diag(K) < 0):
        raise ValueError("K must be a symmetric covariance matrix with a non-negative diagonal")
    return K


def train_error_from_covariance(lam, K, d, noise=0.0) -> float:
    r"""Exact train error :math:`\min_\Gamma E[(\hat y-y_{n+1})^2]` (Λ = I_d, Gaussian inputs) for *any* isotropic
    Gaussian weight process with per-coordinate covariance ``K`` over tokens 1..n+1 (e.g. :func:`drift_covariance`).

    The derivation of :func:`train_error` uses the weights only through :math:`K`: with :math:`p_i=\lambda^{n+1-i}`,
    :math:`D_1=\sum_ip_iK_{i,n+1}`, :math:`B=\sum_ip_i^2K_{ii}`, :math:`A_2=\sum_{i,j\le n}p_ip_jK_{ij}`,
    :math:`N_0=\sum_ip_i^2` and :math:`L^*=d\,K_{n+1,n+1}+\sigma^2-d\,D_1^2/(A_2+(d+1)B+\sigma^2N_0)`.

    >>> K = drift_covariance(30, 0.8, 1.0, 0.1)
    >>> abs(train_error_from_covariance(0.7, K, 4) - train_error(0.7, 0.8, 30, 4, 1.0, 0.1)) < 1e-12
    True
    """
    lam = _lam(lam)
    K = _check_K(K)
    d = check_int("d", d, minimum=1)
    noise = _var("noise", noise)
    n = K.shape[0] - 1
    with np.errstate(over="ignore", invalid="ignore", under="ignore"):
        p = lam ** np.arange(n - 1, -1, -1.0)        # λ^{n−i} = p_i / λ (the ratio below is invariant)
        Kp = K[:n, :n] @ p
        D1, B, A2, N0 = float(p @ K[:n, n]), float(p * p @ np.diag(K)[:n]), float(p @ Kp), float(p @ p)
        D2 = A2 + (d + 1) * B + noise * N0
        val = d * float(K[n, n]) + noise - (d * D1 * D1 / D2 if D2 > 0 else 0.0)
    return _finite(val, "the train error", lam=lam, d=d, noise=noise, max_K=float(np.max(np.abs(K))))


def optimal_lambda_from_covariance(K, d, noise=0.0, grid_size=401) -> LambdaOpt:
    r"""Minimiser λ* over (0, 1] of :func:`train_error_from_covariance` (grid scan + bounded Brent, as
    :func:`optimal_lambda`).

    >>> K = drift_covariance(100, 0.9, 1.0, 0.01)
    >>> abs(optimal_lambda_from_covariance(K, 10).lam - optimal_lambda(0.9, 100, 10, 1.0, 0.01).lam) < 1e-6
    True
    """
    K = _check_K(K)
    d = check_int("d", d, minimum=1)
    noise = _var("noise", noise)
    grid_size = check_int("grid_size", grid_size, minimum=11, maximum=MAX_GRID)
    f = lambda lam: train_error_from_covariance(lam, K, d, noise)  # noqa: E731
    lam, err, glam, nmin = _minimise(f, grid_size)
    e1 = f(1.0)
    return LambdaOpt(lam, err, bool(lam >= 1.0 - 1e-9 or e1 <= err), e1, glam, nmin)


# ------------------------------------------------------------------ λ-dependence summaries
def lambda_importance(gamma, n, d, sigma_w2, sigma_e2, noise=0.0, delta=0.05, grid_size=201) -> dict:
    r"""How much the choice of λ matters at one setting (Λ = I_d), three measures:

    ``gain`` — relative gain of the optimum over linear attention, :math:`1-L^*(\lambda^*)/L^*(1)`;
    ``sensitivity`` — relative error increase when λ is off by ``delta``,
    :math:`\max_\pm L^*(\lambda^*\pm\delta)/L^*(\lambda^*)-1` (only the offsets inside (0, 1]);
    ``forgetting`` — :math:`1-\lambda^*`.

    >>> r = lambda_importance(0.8, 100, 10, 1.0, 0.01)
    >>> 0 < r["gain"] < 1, round(r["forgetting"], 3)
    (True, 0.259)
    """
    delta = check_real("delta", delta, 0.0, 1.0, low_open=True, high_open=True)
    r = optimal_lambda(gamma, n, d, sigma_w2, sigma_e2, noise, grid_size=grid_size)
    offs = [x for x in (r.lam - delta, r.lam + delta) if 0.0 < x <= 1.0]
    worst = max(train_error(x, gamma, n, d, sigma_w2, sigma_e2, noise) for x in offs)
    return {"lam_star": r.lam, "gain": 1.0 - r.error / r.error_linear_attention,
            "sensitivity": worst / r.error - 1.0, "forgetting": 1.0 - r.lam}


def drift_statistics(gamma, n, sigma_w2, sigma_e2) -> dict:
    r"""How much the AR(1) weights move within one prompt (per coordinate, exact).

    ``step`` — relative drift of the last step, :math:`E\|w_{n+1}-w_n\|^2/E\|w_{n+1}\|^2`;
    ``total`` — relative drift over the prompt, :math:`E\|w_{n+1}-w_1\|^2/E\|w_{n+1}\|^2`.
    Uses :math:`\mathrm{Cov}(w_i,w_j)=\gamma^{j-i}s_i` (i ≤ j). Zero drift is the stationary
    (fixed-task) setting.

    >>> drift_statistics(1.0, 10, 1.0, 0.0)["total"]
    0.0
    """
    s = ar1_variances(gamma, n, sigma_w2, sigma_e2)
    sq = float(s[n + 1])
    if sq <= 0:
        raise ValueError("sigma_w2 and sigma_e2 must not both be 0 (the weights vanish)")
    step = (s[n + 1] + s[n] - 2 * gamma * s[n]) / sq
    total = (s[n + 1] + s[1] - 2 * gamma ** n * s[1]) / sq
    return {"step": float(step), "total": float(total)}


# ------------------------------------------------------------------ multi-layer GLA (depth experiments)
@dataclass
class StackRun:
    """A trained GLA stack (:func:`train_gla_stack`): weights, gates and the training history."""

    W_KQs: list
    W_Vs: list
    lams: list
    losses: np.ndarray            # training loss (MSE, not halved) before each step
    grad_norms: np.ndarray        # global gradient norm before each step
    phase_switch: int             # first GD step (after the Adam phase)
    config: dict = field(default_factory=dict)


def train_gla_stack(depth, lams, X, Y, *, adam_steps, gd_steps, adam_lr=0.02, gd_lr=0.05, init_scale=0.1,
                    seed=0, normalise=True, sampler=None, batch=256, schedule="constant") -> StackRun:
    r"""Train all entries of every layer's :math:`W_{KQ},W_V` ((d+1)×(d+1)) of a GLA stack
    (:func:`theorycheck.models.attention.gla_stack_forward`) on the MSE (not halved).

    ``adam_steps`` of Adam (β = 0.9, 0.999, ε = 1e-8, step ``adam_lr``, constant or — ``schedule="cosine"`` —
    decayed to 0 along a half cosine) — on fresh batches of
    ``batch`` prompts ``sampler(rng, batch) -> (X, Y)`` when a sampler is given (training on the
    law), else on the fixed prompts ``X, Y`` — then ``gd_steps`` of full-batch gradient descent on the
    fixed training prompts ``X, Y`` (where convergence rates are read)
    with an Armijo backtracking step: start from twice the previous step (first: ``gd_lr``), halve
    until :math:`L(\theta-\eta g)\le L(\theta)-\tfrac12\eta\|g\|^2` (at most 60 halvings). Initial
    weights i.i.d. :math:`\mathcal N(0,\text{init\_scale}^2)` from ``SeedSequence(seed)``. ``lams``: one
    gate per layer (or one for all). ``losses`` / ``grad_norms`` are those of the batch each step used.
    """
    from .models.attention import gla_stack_loss_and_grad
    depth = check_int("depth", depth, minimum=1, maximum=64)
    batch = check_int("batch", batch, minimum=2, maximum=MAX_COUNT)
    if not isinstance(schedule, str) or schedule not in ("constant", "cosine"):
        raise ValueError(f"schedule must be one of ['constant', 'cosine'], got {schedule!r}")
    lam_arr = check_array("lams", lams, ndim=(0, 1))
    if lam_arr.ndim == 1 and lam_arr.size not in (1, depth):
        raise ValueError(f"lams must hold one gate or one per layer ({depth}), got {lam_arr.size}")
    lams = [check_real(f"lams[{k}]", x, 0.0, 1.0, low_open=True)
            for k, x in enumerate(np.broadcast_to(np.atleast_1d(lam_arr), (depth,)))]
    adam_steps = check_int("adam_steps", adam_steps, minimum=0, maximum=MAX_COUNT)
    gd_steps = check_int("gd_steps", gd_steps, minimum=0, maximum=MAX_COUNT)
    adam_lr = check_real("adam_lr", adam_lr, 0.0, low_open=True)
    gd_lr = check_real("gd_lr", gd_lr, 0.0, low_open=True)
    init_scale = check_real("init_scale", init_scale, 0.0, low_open=True)
    normalise = check_bool("normalise", normalise)
    seed = check_int("seed", seed, minimum=0)
    if sampler is not None:
        check_callable("sampler", sampler)
    X = check_array("X", X, ndim=3)
    if X.shape[0] < 1 or X.shape[1] < 2 or X.shape[2] < 1:
        raise ValueError(f"X must have shape (B, n+1, d) with B, d >= 1 and n >= 1, got {X.shape}")
    Y = check_array("Y", Y, ndim=2, shape=X.shape[:2])
    D = X.shape[2] + 1
    T_ = X.shape[1]
    per_prompt = float(depth) * float(T_) * float(T_ + D) * D * 6.0      # one forward + backward pass
    # Adam: one pass on a batch per step; GD: one pass plus (typically) two Armijo trial forwards on the training set
    work = (float(adam_steps) * (batch if sampler is not None else X.shape[0]) + float(gd_steps) * X.shape[0] * 3.0) \
        * per_prompt
    if work > MAX_TRAIN_WORK:
        raise ValueError(f"adam_steps = {adam_steps}, gd_steps = {gd_steps} on {X.shape[0]} prompts of {T_} tokens and "
                         f"depth {depth} is about {work:.2g} operations, above the budget of {MAX_TRAIN_WORK:.2g} "
                         "(about 3 minutes of one core); reduce adam_steps, gd_steps, the prompts or the depth")
    rng = np.random.default_rng(seed)
    data_rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(1)[0])
    P = [init_scale * rng.standard_normal((D, D)) for _ in range(2 * depth)]
    m1 = [np.zeros((D, D)) for _ in P]
    m2 = [np.zeros((D, D)) for _ in P]
    from .models.attention import gla_stack_params, gla_tokens, gla_stack_core
    Z_train = gla_tokens(X, Y)                      # the training prompts' tokens, built once for the Armijo trials

    def loss_at(Q):                                  # gla_stack_forward(X, Y, lams, Q[:depth], Q[depth:], normalise)
        _, W_KQs, W_Vs = gla_stack_params(lams, Q[:depth], Q[depth:], D)     # its checks of the trial weights
        with np.errstate(over="ignore", invalid="ignore"):
            r = gla_stack_core(Z_train, lams, W_KQs, W_Vs, normalise, keep=True) - Y[:, -1]
            val = float(np.mean(r * r))
        return val if math.isfinite(val) else math.inf

    losses, gnorms = [], []
    eta = gd_lr / 2
    for it in range(adam_steps + gd_steps):
        Xb, Yb = sampler(data_rng, batch) if (sampler is not None and it < adam_steps) else (X, Y)
        with np.errstate(over="ignore", invalid="ignore"):
            loss, gK, gV = gla_stack_loss_and_grad(Xb, Yb, lams, P[:depth], P[depth:], normalise)
        g = gK + gV
        if not (math.isfinite(loss) and all(np.all(np.isfinite(x)) for x in g)):
            raise TrainingDiverged(f"GLA stack training diverged at step {it} (depth {depth}; adam_lr = {adam_lr!r}, "
                                   f"gd_lr = {gd_lr!r}, init_scale = {init_scale!r})")
        losses.append(loss)
        g2 = sum(float(np.sum(x * x)) for x in g)
        gnorms.append(math.sqrt(g2))
        if it < adam_steps:
            lr = adam_lr * (0.5 * (1 + math.cos(math.pi * it / adam_steps)) if schedule == "cosine" else 1.0)
            for k in range(2 * depth):
                m1[k] = 0.9 * m1[k] + 0.1 * g[k]
                m2[k] = 0.999 * m2[k] + 0.001 * g[k] ** 2
                P[k] = P[k] - lr * (m1[k] / (1 - 0.9 ** (it + 1))) / (np.sqrt(m2[k] / (1 - 0.999 ** (it + 1))) + 1e-8)
        else:
            eta *= 2
            for _ in range(60):
                Q = [P[k] - eta * g[k] for k in range(2 * depth)]
                if loss_at(Q) <= loss - 0.5 * eta * g2:
                    break
                eta /= 2
            P = Q
    return StackRun(P[:depth], P[depth:], lams, np.array(losses), np.array(gnorms), adam_steps,
                    {"depth": depth, "adam_steps": adam_steps, "gd_steps": gd_steps, "adam_lr": adam_lr,
                     "gd_lr": gd_lr, "init_scale": init_scale, "seed": seed, "normalise": normalise,
                     "n_train": int(X.shape[0]), "adam_batch": batch if sampler is not None else None,
                     "schedule": schedule})


def geometric_rate_stability(values, floor: float = 1e-10, times=None) -> dict:
    r"""Is a decreasing sequence geometric? Fits :math:`\log v_t` by a line in t (``times``, default
    0, 1, 2, …) on the first and on the second half of the points above ``floor``·v₀ and returns
    both decay rates (per unit of t), their ratio (late/early: ≈ 1 for geometric — linear —
    convergence, → 0 for sublinear, e.g. :math:`v_t\propto1/t`) and the total reduction
    :math:`v_{\rm last}/v_0` over the fitted points. With ``times`` the halves split the time span.

    >>> r = geometric_rate_stability(0.9 ** np.arange(200))
    >>> round(r["ratio"], 6), round(r["rate_early"], 4)
    (1.0, 0.1054)
    >>> round(geometric_rate_stability(1.0 / np.arange(1, 2001))["ratio"], 2)     # sublinear
    0.23
    """
    v = check_array("values", values, finite=False)
    if v.ndim != 1 or v.size < 4 or not np.all(np.isfinite(v)) or np.any(v <= 0):
        raise ValueError("values must be a 1-D array of at least 4 positive finite numbers")
    floor = check_real("floor", floor, 0.0, 1.0, high_open=True)
    tt = np.arange(v.size, dtype=float) if times is None else check_array("times", times)
    if tt.shape != v.shape or np.any(np.diff(tt) <= 0):
        raise ValueError("times must be increasing and as long as values")
    keep = v >= floor * v[0]
    idx = np.flatnonzero(keep)
    last = int(idx[-1]) if idx.size else 0
    t = tt[:last + 1]
    lv = np.log(v[:last + 1])
    if last + 1 < 4:                  # too few points above the floor for two fits: no rates (None, never NaN)
        return {"rate_early": None, "rate_late": None, "ratio": 0.0,
                "reduction": float(v[last] / v[0]), "points": int(last + 1)}
    h = (last + 1) // 2 if times is None else int(np.searchsorted(t, (t[0] + t[-1]) / 2))
    h = min(max(h, 2), last - 1)
    r1 = -float(np.polyfit(t[:h], lv[:h], 1)[0])
    r2 = -float(np.polyfit(t[h:], lv[h:], 1)[0])
    ratio = r2 / r1 if r1 > 0 else 0.0
    return {"rate_early": r1, "rate_late": r2, "ratio": float(ratio), "reduction": float(v[last] / v[0]),
            "points": int(last + 1)}


# ------------------------------------------------------------------ GLA against adaptive filters
def simulate_filter_benchmark(gamma, d, T, sigma_w2, sigma_e2, noise=0.0, *, mus, betas, runs_scan, runs_eval,
                              seed_scan, seed_eval, delta=1.0) -> dict:
    r"""GLA against tuned LMS and RLS (and the Kalman filter) on AR(1) streams of length ``T``.

    Per run, every method's a priori squared error is averaged over positions
    :math:`t=T/2+1..T` (after the transient). LMS step μ and RLS forgetting β (:math:`P_0=I/\delta`)
    are tuned on ``runs_scan`` streams (smallest mean; a β with a diverged run is never chosen; every grid value sees
    the same scan streams, and ``scan_runs`` holds the per-run errors, so scans can be compared pairwise),
    then every method is evaluated on ``runs_eval`` *fresh* streams (no selection bias), the same
    streams for all methods (paired). GLA runs at its exact optimum (λ*, Γ*) for prompt length
    ``T − 1`` (:func:`optimal_lambda`, :func:`optimal_parameters`) as a streaming predictor
    (:func:`theorycheck.models.attention.gla_stream_errors`). Returns per-run arrays
    (``eval[method]``), the scans (mean and SE per hyper-parameter, diverged runs) and the choices.
    """
    from .models.attention import gla_stream_errors
    from .models.filters import kalman_errors, lms_errors, rls_errors
    from .models.prompts import ar1_stream
    T = check_int("T", T, minimum=4, maximum=MAX_COUNT)
    d = check_int("d", d, minimum=1, maximum=MAX_COUNT)
    runs_scan = check_int("runs_scan", runs_scan, minimum=2, maximum=MAX_COUNT)
    runs_eval = check_int("runs_eval", runs_eval, minimum=2, maximum=MAX_COUNT)
    mus = check_array("mus", mus, ndim=1, min_size=1)
    betas = check_array("betas", betas, ndim=1, min_size=1)
    seed_scan = check_int("seed_scan", seed_scan, minimum=0)
    seed_eval = check_int("seed_eval", seed_eval, minimum=0)
    for name, runs in (("runs_scan", runs_scan), ("runs_eval", runs_eval)):
        # the streams and the per-step errors (T x runs x (d + 6)), and RLS's d x d matrices per stream (x 4 copies)
        check_memory(name, runs, 8.0 * runs * (float(T) * (d + 6.0) + 4.0 * d * d), f"{runs} filter streams of length "
                     f"T = {T} in d = {d}")
    work = 10.0 * float(T) * d * (runs_scan * (mus.size + betas.size * d) + runs_eval * (3 + 2 * d))
    if work > MAX_TRAIN_WORK:
        raise ValueError(f"T = {T}, runs_scan = {runs_scan}, runs_eval = {runs_eval}, d = {d} and the grids are about "
                         f"{work:.2g} operations, above the budget of {MAX_TRAIN_WORK:.2g} (about 3 minutes of one "
                         "core); reduce T, the runs or the grids")
    half = T // 2

    def per_run(E):
        fin = np.all(np.isfinite(E), axis=0)
        out = np.full(E.shape[1], np.inf)
        out[fin] = E[half:, fin].mean(axis=0)
        return out

    def summary(v):
        ok = np.isfinite(v)
        if not ok.all():
            return {"mean": float("inf"), "se": None, "diverged_runs": int(np.sum(~ok))}   # no SE for a divergent mean
        return {"mean": float(v.mean()), "se": float(v.std(ddof=1) / math.sqrt(v.size)), "diverged_runs": 0}

    X, Y = ar1_stream(np.random.default_rng(seed_scan), runs_scan, T, d, gamma, sigma_w2, sigma_e2, noise)
    scan_runs = {"lms": {float(mu): per_run(lms_errors(X, Y, mu)) for mu in mus.tolist()},
                 "rls": {float(b): per_run(rls_errors(X, Y, b, delta)) for b in betas.tolist()}}
    scan_lms = {k: summary(v) for k, v in scan_runs["lms"].items()}
    scan_rls = {k: summary(v) for k, v in scan_runs["rls"].items()}
    best_mu = min(scan_lms, key=lambda k: scan_lms[k]["mean"])
    best_beta = min(scan_rls, key=lambda k: scan_rls[k]["mean"])
    r = optimal_lambda(gamma, T - 1, d, sigma_w2, sigma_e2, noise, grid_size=201)
    opt = optimal_parameters(r.lam, gamma, T - 1, np.eye(d), sigma_w2, sigma_e2, noise)
    X, Y = ar1_stream(np.random.default_rng(seed_eval), runs_eval, T, d, gamma, sigma_w2, sigma_e2, noise)
    ev = {"lms": per_run(lms_errors(X, Y, best_mu)), "rls": per_run(rls_errors(X, Y, best_beta, delta)),
          "kalman": per_run(kalman_errors(X, Y, gamma, sigma_w2, sigma_e2, noise)),
          "gla": per_run(gla_stream_errors(X, Y, r.lam, opt.Gamma))}
    return {"gamma": gamma, "d": d, "T": T, "sigma_w2": sigma_w2, "sigma_e2": sigma_e2, "noise": noise,
            "scan_lms": scan_lms, "scan_rls": scan_rls, "scan_runs": scan_runs, "best_mu": best_mu,
            "best_beta": best_beta,
            "gla_lam": r.lam, "gla_exact": r.error, "la_exact": r.error_linear_attention,
            "eval": ev, "runs_scan": runs_scan, "runs_eval": runs_eval, "window": (half + 1, T)}


def gla_squared_errors(lam, gamma, n, Lambda, sigma_w2, sigma_e2, noise=0.0, W_KQ=None, W_V=None,
                       n_samples=4000, seed=0, chunk=5000) -> np.ndarray:
    r"""Per-prompt squared errors :math:`(\hat y-y_{n+1})^2` of the actual GLA recursion on
    ``n_samples`` fresh AR(1) prompts drawn from ``np.random.default_rng(seed)`` in chunks of ``chunk``
    (so two calls with the same law, seed and chunk see the same prompts: paired comparisons). Defaults for the weights: the
    optimal embedded ones. Not halved.

    >>> e = gla_squared_errors(0.8, 0.9, 10, np.eye(2), 1.0, 0.1, n_samples=3000, seed=1)
    >>> bool(abs(e.mean() - train_error(0.8, 0.9, 10, 2, 1.0, 0.1)) < 5 * e.std() / np.sqrt(e.size))
    True
    """
    lam, gamma, n, sigma_w2, sigma_e2, noise = _law(lam, gamma, n, sigma_w2, sigma_e2, noise)
    L = _lambda_mat(Lambda)
    n_samples = check_int("n_samples", n_samples, minimum=2, maximum=MAX_COUNT)
    chunk = check_int("chunk", chunk, minimum=1, maximum=MAX_COUNT)
    d = L.shape[0]
    _sim_budget(n_samples, min(chunk, n_samples), n, d, "n_samples", "chunk")
    check_memory("n_samples", n_samples, 8.0 * n_samples, "the squared errors")
    W_KQ, W_V = _sim_weights(W_KQ, W_V, lam, gamma, n, L, sigma_w2, sigma_e2, noise)
    rng = np.random.default_rng(check_int("seed", seed, minimum=0))
    out = []
    left = n_samples
    while left > 0:
        size = min(chunk, left)
        X, Y = _sample_tokens(rng, size, gamma, n, L, sigma_w2, sigma_e2, noise)
        with np.errstate(over="ignore", invalid="ignore"):
            err = (_gla_forward(X, Y, lam, W_KQ, W_V) - Y[:, -1]) ** 2
        out.append(_finite(err, "the squared error of the GLA recursion", sigma_w2=sigma_w2, sigma_e2=sigma_e2,
                           noise=noise, max_abs_W_KQ=float(np.max(np.abs(W_KQ))),
                           max_abs_W_V=float(np.max(np.abs(W_V)))))
        left -= size
    return np.concatenate(out)
