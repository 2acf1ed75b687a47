r"""The papers' sampling functions: the data each model sees (the parameter objects with one calling convention
are in :mod:`theorycheck.models.samplers`).

* AR(1)-drifting linear regression (paper 000): :func:`drift_labels`, :func:`ar1_stream`
  (time-major streams for the adaptive filters) and :func:`ar1_drift_prompts` (sample-major
  prompts for the GLA forward pass) — one law, one label recursion.
* Single-index teachers with isotropic or general task covariance (paper 004):
  :func:`draw_tasks` and :func:`context_statistics` (the context statistics ``(u, s)`` of the
  reduced linear-attention predictor, by direct sampling or by an exact projection).
* LDS trajectories live in :mod:`theorycheck.models.dynamics`.
"""
from __future__ import annotations

import math

import numpy as np

from .. import gaussian
from ..validate import (
    MAX_COUNT,
    ParameterTypeError,
    check_array,
    check_bool,
    check_callable,
    check_choice,
    check_finite_result,
    check_int,
    check_memory,
    check_psd,
    check_real,
)

__all__ = ["drift_labels", "ar1_stream", "ar1_drift_prompts", "draw_tasks", "context_statistics", "draw_inputs",
           "draw_noise", "t_scales"]


def drift_labels(rng, X, gamma, sigma_w2, sigma_e2, noise, *, task_scales=None):
    r"""Labels of time-major inputs ``X (T, runs, d)`` under AR(1)-drifting weights: ``Y (T, runs)``.

    :math:`w_0\sim\mathcal N(0,\sigma_w^2I)`, then for :math:`t=1..T`:
    :math:`w_t=\gamma w_{t-1}+e_t`, :math:`e_t\sim\mathcal N(0,\sigma_e^2I)`,
    :math:`y_t=\langle w_t,x_t\rangle+\varepsilon_t`, :math:`\mathrm{Var}\,\varepsilon_t=` ``noise``.
    Random numbers are consumed in a fixed order (:math:`w_0`, then per step :math:`e_t` and
    :math:`\varepsilon_t`), so a seed gives the same labels whatever the caller's layout.
    ``task_scales`` (length d, optional) makes the task law anisotropic: :math:`w_0` and every
    :math:`e_t` are multiplied coordinatewise by it (covariances :math:`\sigma^2\,\mathrm{diag}(s)^2`);
    the random numbers drawn are the same.

    >>> X = np.ones((3, 2, 1))
    >>> drift_labels(np.random.default_rng(0), X, 1.0, 0.0, 0.0, 0.0).tolist()       # no drift, no noise
    [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]]
    """
    rng = _ar1_rng(rng)
    X = check_array("X", X, ndim=3)
    gamma, sigma_w2, sigma_e2, noise = _ar1_law(gamma, sigma_w2, sigma_e2, noise)
    T, runs, d = X.shape
    D = None
    if task_scales is not None:
        D = check_array("task_scales", task_scales, ndim=1, shape=(d,))
        if np.any(D < 0):
            raise ValueError("task_scales must be non-negative")
    w = math.sqrt(sigma_w2) * rng.standard_normal((runs, d))
    se, sn = math.sqrt(sigma_e2), math.sqrt(noise)
    if D is not None:
        w *= D
    Y = np.empty((T, runs))
    e, eps = np.empty((runs, d)), np.empty(runs)
    with np.errstate(over="ignore", invalid="ignore"):
        for t in range(T):
            rng.standard_normal(out=e)                     # the stream of rng.standard_normal((runs, d))
            if D is not None:
                e *= D
            w = gamma * w + se * e
            rng.standard_normal(out=eps)
            Y[t] = np.einsum("rd,rd->r", X[t], w) + sn * eps
    if not np.all(np.isfinite(Y)):
        check_finite_result(Y, "the AR(1) labels", gamma=gamma, sigma_w2=sigma_w2, sigma_e2=sigma_e2, noise=noise,
                            max_abs_X=float(np.max(np.abs(X))) if X.size else 0.0)
    return Y


def ar1_stream(rng, runs, T, d, gamma, sigma_w2, sigma_e2, noise=0.0, Lambda=None):
    r"""Draw ``runs`` independent streams of length ``T``: returns ``X (T, runs, d)``, ``Y (T, runs)``.

    Refuses, before drawing, streams whose arrays exceed the memory budget
    (:func:`theorycheck.validate.check_memory`).

    >>> X, Y = ar1_stream(np.random.default_rng(1), 3, 4, 2, 0.5, 1.0, 0.75)
    >>> X.shape, Y.shape
    ((4, 3, 2), (4, 3))
    """
    rng = _ar1_rng(rng)
    runs = check_int("runs", runs, minimum=1, maximum=MAX_COUNT)
    T = check_int("T", T, minimum=1, maximum=MAX_COUNT)
    d = check_int("d", d, minimum=1, maximum=MAX_COUNT)
    gamma, sigma_w2, sigma_e2, noise = _ar1_law(gamma, sigma_w2, sigma_e2, noise)
    check_memory("runs", runs, 8.0 * float(T) * float(runs) * (2.0 * d + 3.0),
                 f"{runs} streams of length T = {T} in d = {d}")
    if Lambda is None:
        X = rng.standard_normal((T, runs, d))
    else:
        L = check_psd("Lambda", Lambda)
        if L.shape != (d, d):
            raise ValueError(f"Lambda must have shape ({d}, {d}), got {L.shape}")
        X = gaussian.sample(L, T * runs, rng).reshape(T, runs, d)
    return X, drift_labels(rng, X, gamma, sigma_w2, sigma_e2, noise)


def ar1_drift_prompts(rng, size, gamma, n, L, sigma_w2, sigma_e2, noise, *, input_df=None, task_scales=None):
    r"""``size`` prompts of ``n + 1`` tokens under AR(1) drift, sample-major: ``X (size, n+1, d)``,
    ``Y (size, n+1)`` (the last token is the query; its label is the target).

    Same law as :func:`ar1_stream` (which is time-major); inputs :math:`x_i\sim\mathcal N(0,L)`,
    drawn as :math:`Fz` with the Cholesky factor :math:`F` of ``L`` (the random numbers and factor of
    :func:`theorycheck.gaussian.sample`; a diagonal ``L`` is applied elementwise, without an
    eigendecomposition). Departures from the model, for stress tests (defaults: none, and then the
    random stream is unchanged): ``input_df`` = ν > 4 draws every token from the multivariate Student t
    with ν degrees of freedom and covariance ``L`` (:math:`x=Fz\sqrt{(\nu-2)/\chi^2_\nu}`, one χ² per
    token, drawn after z); ``task_scales`` is passed to :func:`drift_labels`.

    >>> X, Y = ar1_drift_prompts(np.random.default_rng(0), 4, 0.9, 3, np.eye(2), 1.0, 0.1, 0.0)
    >>> X.shape, Y.shape
    ((4, 4, 2), (4, 4))
    """
    rng = _ar1_rng(rng)
    size = check_int("size", size, minimum=1, maximum=MAX_COUNT)
    n = check_int("n", n, minimum=1, maximum=MAX_COUNT)
    gamma, sigma_w2, sigma_e2, noise = _ar1_law(gamma, sigma_w2, sigma_e2, noise)
    if input_df is not None:
        input_df = check_real("input_df", input_df, 4.0, low_open=True)
    F, diag = _ar1_input_factor(L)
    d = F.shape[0] if F is not None else diag.size
    check_memory("size", size, 8.0 * float(size) * float(n + 1) * (2.0 * d + 4.0),
                 f"{size} prompts of {n + 1} tokens in d = {d}")
    z = rng.standard_normal((size * (n + 1), d))           # the stream of gaussian.sample(L, size * (n + 1), rng)
    if diag is None:
        X = z @ F.T
    elif np.all(diag == 1.0):
        X = z
    else:
        X = z * diag
    if input_df is not None:
        X = X * np.sqrt((input_df - 2.0) / rng.chisquare(input_df, size * (n + 1)))[:, None]
    X = X.reshape(size, n + 1, d)
    return X, drift_labels(rng, X.transpose(1, 0, 2), gamma, sigma_w2, sigma_e2, noise, task_scales=task_scales).T


def _ar1_rng(rng):
    if not isinstance(rng, np.random.Generator):
        raise ParameterTypeError(f"rng must be a numpy.random.Generator, got {rng!r} ({type(rng).__name__})")
    return rng


def _ar1_law(gamma, sigma_w2, sigma_e2, noise):
    return (check_real("gamma", gamma, 0.0, 1.0, low_open=True), check_real("sigma_w2", sigma_w2, 0.0),
            check_real("sigma_e2", sigma_e2, 0.0), check_real("noise", noise, 0.0))


def _ar1_input_factor(L):
    """``(F, None)`` with F Fᵀ = L (Cholesky; eigh for a singular PSD L, as :func:`theorycheck.gaussian.sample`), or
    ``(None, sqrt(diag L))`` for a diagonal L (validated without an eigendecomposition)."""
    if L is None or isinstance(L, (str, bytes, bool, np.bool_)):
        raise ParameterTypeError(f"L must be a square (d, d) covariance matrix, got {L!r} ({type(L).__name__})")
    A = check_array("L", L, ndim=2)
    if A.shape[0] != A.shape[1] or A.shape[0] < 1:
        raise ValueError(f"L must be a square (d, d) covariance matrix with d >= 1, got shape {A.shape}")
    dg = np.diag(A).copy()
    if np.count_nonzero(A - np.diag(dg)) == 0:
        if np.any(dg < 0):
            raise ValueError(f"L must be positive semi-definite (smallest eigenvalue {float(dg.min()):.3g})")
        return None, np.sqrt(dg)
    return gaussian.psd_factor(check_psd("L", A)), None


def check_law(name, law, kinds):
    """``None`` (Gaussian, the default fast path) or ``(kind, nu)`` with ``kind`` in ``kinds`` and ``nu`` in
    (2, inf] (Student t with ``nu`` degrees of freedom scaled to unit variance; ``inf`` = Gaussian drawn through
    the same code path, the coupled baseline of a stress path)."""
    if law is None:
        return None
    if not isinstance(law, tuple) or len(law) != 2:
        raise ParameterTypeError(f"{name} must be None or a tuple (kind, nu) with kind in {list(kinds)}, got {law!r}")
    kind, nu = law
    check_choice(f"{name}[0] (kind)", kind, kinds)
    nu = check_real(f"{name}[1] (nu, degrees of freedom)", nu, low=2.0, low_open=True, allow_inf=True)
    return kind, nu


def _check_shape(shape, what: str = "values") -> tuple:
    """``shape`` as a tuple of non-negative ints (an int is one dimension), its allocation within the budget."""
    if isinstance(shape, (bool, np.bool_)) or not isinstance(shape, (int, np.integer, tuple, list)):
        raise ParameterTypeError(f"shape must be an int or a tuple of ints, got {shape!r}")
    dims = (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)
    dims = tuple(check_int("shape", v, minimum=0, maximum=MAX_COUNT) for v in dims)
    check_memory("shape", dims, 8.0 * float(np.prod(dims, dtype=float)), what)
    return dims


def _check_rng(name, rng):
    if not isinstance(rng, np.random.Generator):
        raise ParameterTypeError(f"{name} must be a numpy.random.Generator, got {type(rng).__name__}")
    return rng


def t_scales(nu, shape, rng):
    r"""Scale factors :math:`s=\sqrt{(\nu-2)/\chi^2_\nu}` (ones for ``nu = inf``): :math:`zs` with
    :math:`z\sim\mathcal N(0,1)` independent of :math:`s` is Student t with ``nu`` degrees of freedom and unit
    variance."""
    nu = check_real("nu", nu, low=2.0, low_open=True, allow_inf=True)
    shape = _check_shape(shape, "the scales")
    _check_rng("rng", rng)
    if math.isinf(nu):
        return np.ones(shape)
    return np.sqrt((nu - 2.0) / rng.chisquare(nu, size=shape))


def draw_inputs(rng, shape, d, law=None, scale_rng=None):
    r"""Inputs :math:`x\in\mathbb R^d` with covariance :math:`I_d/d`, array of shape ``shape + (d,)``.

    ``law``: ``None`` (Gaussian), ``("iid-t", nu)`` (independent Student-t coordinates, unit variance) or
    ``("elliptical-t", nu)`` (multivariate t: :math:`x=zs`, one scale :math:`s` per vector, so :math:`x^\top w`
    is a Gaussian scale mixture, not Gaussian). The standard-normal part comes from ``rng`` in the same order for
    every law and the scales from ``scale_rng``, so runs that differ only in the law are coupled.

    >>> x = draw_inputs(np.random.default_rng(0), (2, 3), 4, ("iid-t", 5.0), np.random.default_rng(1))
    >>> x.shape
    (2, 3, 4)
    """
    d = check_int("d", d, minimum=1)
    law = check_law("law", law, ("iid-t", "elliptical-t"))
    shape = _check_shape(shape, "the input vectors")
    check_memory("d", d, 8.0 * d * float(np.prod(shape, dtype=float)), "the inputs")
    _check_rng("rng", rng)
    if scale_rng is not None:
        _check_rng("scale_rng", scale_rng)
    X = rng.standard_normal(shape + (d,))
    if law is not None:
        kind, nu = law
        srng = rng if scale_rng is None else scale_rng
        X *= t_scales(nu, shape + (d,) if kind == "iid-t" else shape + (1,), srng)
    X /= math.sqrt(d)
    return X


def draw_noise(rng, shape, rho, law=None, scale_rng=None):
    r"""Label noise of variance ``rho``: Gaussian, or ``("t", nu)`` Student t with unit-variance scaling (the
    standard-normal part from ``rng``, the scales from ``scale_rng``, as in :func:`draw_inputs`)."""
    law = check_law("law", law, ("t",))
    rho = check_real("rho", rho, low=0.0, high=1e16)
    shape = _check_shape(shape, "the label noise")
    _check_rng("rng", rng)
    if scale_rng is not None:
        _check_rng("scale_rng", scale_rng)
    e = rng.standard_normal(shape)
    if law is not None:
        e *= t_scales(law[1], shape, rng if scale_rng is None else scale_rng)
    return math.sqrt(rho) * e


def draw_tasks(rng, k, d, c_sqrt, normalize):
    r"""``k`` task vectors :math:`w\sim\mathcal N(0,C)` (``c_sqrt``: square roots of the diagonal of C,
    or ``None`` for C = I), optionally renormalised to :math:`\|w\|^2=d`.

    >>> draw_tasks(np.random.default_rng(0), 3, 4, None, True).shape
    (3, 4)
    """
    if not isinstance(rng, np.random.Generator):
        raise ParameterTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    k = check_int("k", k, minimum=1)
    d = check_int("d", d, minimum=1)
    normalize = check_bool("normalize", normalize)
    check_memory("k", k, 8.0 * k * d, f"{k} x {d} task vectors")
    if c_sqrt is not None:
        c_sqrt = check_array("c_sqrt", c_sqrt, ndim=1, shape=(d,))
        if np.any(c_sqrt < 0):
            raise ValueError("c_sqrt (square roots of the task-covariance eigenvalues) must be non-negative")
        if normalize and not np.any(c_sqrt > 0):
            raise ValueError("c_sqrt must have a positive entry when normalize=True (a zero task cannot be rescaled)")
    W = rng.standard_normal((k, d))
    if c_sqrt is not None:
        W = W * c_sqrt
    if normalize:
        W *= math.sqrt(d) / np.linalg.norm(W, axis=1, keepdims=True)
    return W


#: elements of one block of the direct context sampler (bounds its memory to ~32 MB)
_DIRECT_BLOCK = 4_000_000


def context_statistics(fn, W, ell, rho, rng, method="projected", chunk=2048, input_law=None, noise_law=None,
                       scale_rng=None):
    r"""``(u, s)`` for one prompt per row of ``W`` (tasks), context length ``ell``.

    ``method="direct"``: draw the :math:`\ell\times d` inputs (:func:`draw_inputs`, any ``input_law``) and the
    label noise (:func:`draw_noise`, any ``noise_law``) and form :math:`u=\frac d\ell\sum y_ix_i`,
    :math:`s=\frac1\ell\sum y_i^2`.
    ``method="projected"`` (Gaussian inputs only, same joint law, :math:`O(\ell+d)` per prompt): with
    :math:`t_i=x_i^\top w\sim\mathcal N(0,\|w\|^2/d)` and :math:`\hat w=w/\|w\|`, the component of
    :math:`x_i` orthogonal to :math:`w` is :math:`\mathcal N(0,P_\perp/d)` and independent of
    :math:`t_i`, so :math:`\sum_iy_iP_\perp x_i\mid y\sim\mathcal N(0,\frac{\sum y_i^2}{d}P_\perp)` and
    :math:`u=\frac d\ell[\hat w\sum_iy_it_i/\|w\|+\sqrt{\textstyle\sum y_i^2/d}\,P_\perp\zeta]`,
    :math:`\zeta\sim\mathcal N(0,I_d)`. Only :math:`\sum y_it_i` and :math:`\sum y_i^2` enter, so Gaussian label
    noise :math:`\varepsilon=\sqrt\rho\,e` is drawn through its exact sufficient statistics: with
    :math:`q_1=t/\|t\|` and :math:`r=f-(f^\top q_1)q_1`, :math:`e^\top t=a\|t\|`,
    :math:`e^\top f=a\,f^\top q_1+b\|r\|`, :math:`\|e\|^2=a^2+b^2+\chi^2_{\ell-2}` with :math:`a,b\sim\mathcal N(0,1)`
    (three draws per prompt instead of :math:`\ell`; a ``noise_law`` other than Gaussian draws the :math:`\ell`
    noise values).
    """
    check_callable("fn", fn)
    W = check_array("W", W, ndim=2)
    n, d = W.shape
    if n < 1 or d < 1:
        raise ValueError(f"W must have at least one row (task) and one column, got shape {W.shape}")
    ell = check_int("ell", ell, minimum=1, maximum=MAX_COUNT)
    rho = check_real("rho", rho, low=0.0, high=1e16)
    check_choice("method", method, ("projected", "direct"))
    chunk = check_int("chunk", chunk, minimum=1, maximum=MAX_COUNT)
    input_law = check_law("input_law", input_law, ("iid-t", "elliptical-t"))
    noise_law = check_law("noise_law", noise_law, ("t",))
    if not isinstance(rng, np.random.Generator):
        raise ParameterTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    if input_law is not None and method != "direct":
        raise ValueError("method must be 'direct' for a non-Gaussian input_law (the projected sampler is exact only "
                         "for Gaussian inputs)")
    srng = rng if scale_rng is None else scale_rng
    per_prompt = ell * (d if method == "direct" else 1)
    check_memory("ell", ell, 8.0 * 3 * per_prompt, "the context of one prompt")
    if method == "direct":
        chunk = max(1, min(chunk, _DIRECT_BLOCK // max(1, ell * d)))
    else:
        chunk = max(1, min(chunk, _DIRECT_BLOCK // max(1, ell)))
    U = np.empty((n, d))
    S = np.empty(n)
    for a in range(0, n, chunk):
        w = W[a:a + chunk]
        m = w.shape[0]
        if method == "direct":
            U[a:a + m], y2 = _direct_statistics(fn, w, ell, rho, rng, input_law, noise_law, srng)
        else:
            U[a:a + m], y2 = _projected_statistics(fn, w, ell, rho, rng, noise_law, srng)
        S[a:a + m] = y2 / ell
    if not (np.all(np.isfinite(U)) and np.all(np.isfinite(S))):
        raise ValueError(f"the context statistics are not finite for ell={ell}, rho={rho!r} and the tasks W given "
                         "(overflow: the teacher fn or the task norms are too large)")
    return U, S


def _direct_statistics(fn, w, ell, rho, rng, input_law, noise_law, srng):
    """``(u, Σ y²)`` of the prompts of the tasks ``w`` (m, d) from drawn inputs and labels (method "direct")."""
    m, d = w.shape
    X = draw_inputs(rng, (m, ell), d, input_law, srng)
    t = np.einsum("mld,md->ml", X, w)
    y = fn(t) + draw_noise(rng, (m, ell), rho, noise_law, srng)
    return (d / ell) * np.einsum("ml,mld->md", y, X), np.sum(y * y, axis=1)


def _projected_statistics(fn, w, ell, rho, rng, noise_law, srng):
    """``(u, Σ y²)`` of the prompts of the tasks ``w`` (m, d) by the exact projection (method "projected")."""
    m, d = w.shape
    norms = np.linalg.norm(w, axis=1)
    t = rng.standard_normal((m, ell)) * (norms / math.sqrt(d))[:, None]
    ft = np.broadcast_to(fn(t), t.shape)
    if noise_law is None:
        yt, y2 = _gaussian_noise_sums(ft, t, ell, rho, rng)
    else:
        y = ft + draw_noise(rng, (m, ell), rho, noise_law, srng)
        yt = np.einsum("ml,ml->m", y, t)
        y2 = np.einsum("ml,ml->m", y, y)
    what = w / np.where(norms > 0, norms, 1.0)[:, None]
    par = yt / np.where(norms > 0, norms, 1.0)
    zeta = rng.standard_normal((m, d))
    zeta -= np.sum(zeta * what, axis=1, keepdims=True) * what
    return (d / ell) * (par[:, None] * what + np.sqrt(np.maximum(y2, 0.0) / d)[:, None] * zeta), y2


def _gaussian_noise_sums(ft, t, ell, rho, rng):
    """``(Σ y_i t_i, Σ y_i²)`` with Gaussian label noise drawn through its exact sufficient statistics (three draws
    per prompt: see :func:`context_statistics`)."""
    m = t.shape[0]
    tt = np.einsum("ml,ml->m", t, t)
    ftt = np.einsum("ml,ml->m", ft, t)
    ff = np.einsum("ml,ml->m", ft, ft)
    ab = rng.standard_normal((m, 2))
    rest = rng.chisquare(ell - 2, size=m) if ell > 2 else np.zeros(m)
    tn = np.sqrt(tt)
    with np.errstate(invalid="ignore", divide="ignore"):
        fq = np.where(tn > 0, ftt / np.where(tn > 0, tn, 1.0), 0.0)      # f·q1
    rn = np.sqrt(np.maximum(ff - fq * fq, 0.0))                            # |r|
    if ell == 1:
        ab[:, 1] = 0.0
    sr = math.sqrt(rho)
    et, ef = ab[:, 0] * tn, ab[:, 0] * fq + ab[:, 1] * rn
    ee = ab[:, 0] ** 2 + ab[:, 1] ** 2 + rest
    return ftt + sr * et, ff + 2 * sr * ef + rho * ee
