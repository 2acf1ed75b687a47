r"""Linear dynamical systems: batches of systems, the four priors of paper 001, trajectories.

Model: :math:`x_0\sim\mathcal N(0,\sigma_0^2 I_d)`; for :math:`t=1..T`:
:math:`x_t = A x_{t-1} + w_t`, :math:`w_t\sim\mathcal N(0,\Sigma_w)`;
:math:`y_t = c^\top x_t + v_t`, :math:`v_t\sim\mathcal N(0,\sigma_v^2)`; all noises independent.
Per system, :math:`(y_1..y_T)` is centred Gaussian with autocovariance (1-based, :math:`s\le t`)
:math:`K(s,t) = c^\top A^{t-s} P_s c + \sigma_v^2\delta_{st}`, :math:`P_0=\sigma_0^2 I`,
:math:`P_s = A P_{s-1}A^\top + \Sigma_w` (:func:`lds_autocovariance`).

Priors (the paper's settings; every law is a parameter because the source gives none):
(a) :class:`DiagonalLDSPrior`, (b) :class:`OrthogonalLDSPrior`, (c) :class:`AnisotropicNoiseLDSPrior`,
(d) :class:`NonNormalLDSPrior`; :func:`make_prior` builds one by setting letter. All are centrally
symmetric (:math:`A` and :math:`-A` equally likely).

>>> prior = make_prior("a", d=2)
>>> sysm = prior.sample(np.random.default_rng(0), 3)
>>> simulate_lds(sysm, 5, np.random.default_rng(1)).shape
(3, 5)
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..memo import Memo, key
from ..validate import ParameterTypeError, check_array, check_choice, check_int, check_memory, check_psd, check_real

__all__ = ["LDSBatch", "DiagonalLDSPrior", "OneSidedDiagonalLDSPrior", "SkewedDiagonalLDSPrior", "OrthogonalLDSPrior",
           "AnisotropicNoiseLDSPrior", "NonNormalLDSPrior", "SETTINGS", "make_prior", "lds_autocovariance",
           "simulate_lds", "MAX_T"]

#: the longest horizon T accepted by the per-step recursions (Riccati, simulation): they loop over time in Python,
#: so T = 10⁵ already takes seconds; longer horizons are refused up front, naming T
MAX_T = 100_000
#: the largest noise scale of a prior: the 6th-order moments of Theorem 4.1 grow like scale⁶ · T³ and would overflow
#: beyond it (rescale the data instead)
MAX_SCALE = 1e40

@dataclass(frozen=True)
class LDSBatch:
    r"""A batch of ``B`` linear dynamical systems (see the module docstring for the model).

    ``A`` (B, d, d), ``c`` (B, d), ``Sigma_w`` (B, d, d); ``sigma0`` and ``sigma_v`` are scalars
    shared by the batch.
    """

    A: np.ndarray
    c: np.ndarray
    Sigma_w: np.ndarray
    sigma0: float
    sigma_v: float

    def __post_init__(self):
        A = check_array("A", self.A, ndim=3)
        if A.shape[0] < 1 or A.shape[1] < 1 or A.shape[1] != A.shape[2]:
            raise ValueError(f"A must have shape (B, d, d) with B, d >= 1, got {A.shape}")
        c = check_array("c", self.c, ndim=2, shape=A.shape[:2])
        Sw = check_array("Sigma_w", self.Sigma_w, ndim=3, shape=A.shape)
        object.__setattr__(self, "A", A)
        object.__setattr__(self, "c", c)
        object.__setattr__(self, "Sigma_w", Sw)
        object.__setattr__(self, "sigma0", check_real("sigma0", self.sigma0, 0.0))
        object.__setattr__(self, "sigma_v", check_real("sigma_v", self.sigma_v, 0.0))

    def __len__(self) -> int:
        return self.A.shape[0]

    @property
    def d(self) -> int:
        return self.A.shape[1]

    def subset(self, index) -> "LDSBatch":
        """The systems ``index`` (a slice or index array) of the batch."""
        return LDSBatch(self.A[index], self.c[index], self.Sigma_w[index], self.sigma0, self.sigma_v)

    def negate(self) -> "LDSBatch":
        """The same systems with :math:`A\\to -A` (the prior's central symmetry)."""
        return LDSBatch(-self.A, self.c, self.Sigma_w, self.sigma0, self.sigma_v)

    def autocovariance(self, T: int) -> np.ndarray:
        """Exact :math:`K(s,t)` of :math:`(y_1..y_T)` per system, shape (B, T, T)."""
        return lds_autocovariance(self, T)

    def simulate(self, T: int, rng: np.random.Generator) -> np.ndarray:
        """One trajectory :math:`(y_1..y_T)` per system, shape (B, T)."""
        return simulate_lds(self, T, rng)

def check_systems(systems, name: str = "systems") -> "LDSBatch":
    """``systems`` if it is an :class:`LDSBatch`; a clear error otherwise (a prior is not a batch of systems)."""
    if isinstance(systems, LDSBatch):
        return systems
    hint = (" (this is a prior: draw systems from it with prior.sample(rng, n))" if isinstance(systems, _LDSPrior)
            else "")
    raise ParameterTypeError(f"{name} must be an LDSBatch (a batch of systems), got {type(systems).__name__}{hint}")


def _check_T(T, minimum: int = 1, name: str = "T") -> int:
    return check_int(name, T, minimum=minimum, maximum=MAX_T)


def _noise_sqrt(S: np.ndarray) -> np.ndarray:
    w, V = np.linalg.eigh(S)
    return V * np.sqrt(np.clip(w, 0.0, None))[..., None, :]

def _is_diagonal(A: np.ndarray) -> bool:
    """True when every matrix of the batch ``A`` (B, d, d) has exact zeros off the diagonal.

    Only for finite ``A`` (what an :class:`LDSBatch` holds; callers pass validated batches): reads the off-diagonal
    entries in place (the flattened matrix minus its first entry, as rows of length d + 1, is one diagonal entry per
    row after d off-diagonal ones) — the same answer as testing ``A * (1 - I) == 0`` for finite entries."""
    B, d, _ = A.shape
    if d == 1:
        return True
    off = A.reshape(B, d * d)[:, 1:].reshape(B, d - 1, d + 1)[:, :, :d]
    return not (off[0].any() or off.any())          # the first matrix alone settles a non-diagonal batch


def _state_covariances_times_c(A, c, Sw, sigma0, T, diagonal):
    r""":math:`P_tc` for :math:`t=1..T` (B, T, d), :math:`P_0=\sigma_0^2I`, :math:`P_t=AP_{t-1}A^\top+\Sigma_w`.

    ``diagonal=True`` (only for diagonal ``A``) computes :math:`(AP)A^\top` as
    :math:`(a_iP_{ij})a_j`: the same rounded products as the matrix products, whose other terms are exact
    zeros, so the same values (for finite :math:`P`)."""
    B, d, _ = A.shape
    P = np.broadcast_to(sigma0 ** 2 * np.eye(d), (B, d, d)).copy()
    Pc = np.empty((B, T, d))
    if diagonal:
        a = np.einsum("bii->bi", A)
        ac, ar = a[:, :, None], a[:, None, :]
    for t in range(T):
        P = (ac * P) * ar + Sw if diagonal else A @ P @ A.transpose(0, 2, 1) + Sw
        Pc[:, t] = np.einsum("bij,bj->bi", P, c)
    return Pc


#: autocovariances of this many bytes or more (and at most ``_ACOV_MEMO_MAX``) are remembered
_ACOV_MEMO_MIN, _ACOV_MEMO_MAX = 2 ** 20, 2 ** 26
#: the last large autocovariance computed (one entry): callers such as the oracle AR(s) MSE for s = 1..8 ask for the
#: same systems' K several times in a row (see :func:`lds_autocovariance`)
_ACOV = Memo("models.dynamics.autocovariance", maxsize=1, maxbytes=_ACOV_MEMO_MAX)


def lds_autocovariance(systems: LDSBatch, T: int) -> np.ndarray:
    r"""Autocovariance :math:`K_{st}=\mathrm{Cov}(y_s,y_t)`, :math:`1\le s,t\le T` (0-based array).

    :math:`K(s,t)=c^\top A^{t-s}P_sc+\sigma_v^2\delta_{st}` for :math:`s\le t`, with
    :math:`P_0=\sigma_0^2I`, :math:`P_s=AP_{s-1}A^\top+\Sigma_w`.

    The last result of 1 to 64 MiB is remembered (:mod:`theorycheck.memo`, keyed by the values of T, A, c, Σ_w, the
    scales and the memory layout of the arrays): a repeated request returns a fresh copy of the same array.

    >>> sysm = DiagonalLDSPrior(1, 0.5, 1.0, 1.0, 0.0).sample(np.random.default_rng(0), 1)
    >>> a = sysm.A[0, 0, 0]; K = lds_autocovariance(sysm, 2)[0]
    >>> bool(np.isclose(K[0, 0], a * a + 1) and np.isclose(K[0, 1], a * K[0, 0]))
    True
    """
    systems = check_systems(systems)
    T = _check_T(T)
    A, c, Sw = systems.A, systems.c, systems.Sigma_w
    B, d, _ = A.shape
    check_memory("T", T, 8.0 * B * (T * T + 2 * T * d), f"the {B} x {T} x {T} autocovariances")
    memo = _ACOV_MEMO_MIN <= 8 * B * T * T <= _ACOV_MEMO_MAX
    if memo:
        k = key(T, A.strides, c.strides, Sw.strides, systems.sigma0, systems.sigma_v, A, c, Sw)
        hit = _ACOV.get(k)
        if hit is not None:
            return hit.copy()
    K = _lds_autocovariance(A, c, Sw, systems.sigma0, systems.sigma_v, T)
    if memo:
        _ACOV.put(k, K.copy())
    return K


def _lds_autocovariance(A, c, Sw, sigma0, sigma_v, T):
    """:func:`lds_autocovariance` of validated arrays (no checks)."""
    B, d, _ = A.shape
    Pc = _state_covariances_times_c(A, c, Sw, sigma0, T, diagonal=_is_diagonal(A))
    if not np.all(np.isfinite(Pc)):      # overflow: 0·inf differs between the two routes; use the general one
        Pc = _state_covariances_times_c(A, c, Sw, sigma0, T, diagonal=False)
    R = np.empty((B, T, d))          # R[k] = (A^T)^k c
    R[:, 0] = c
    At = A.transpose(0, 2, 1)
    for k in range(1, T):
        R[:, k] = np.einsum("bij,bj->bi", At, R[:, k - 1])
    K = np.zeros((B, T, T))
    for s in range(T):
        # K[s, t] = r_{t-s}^T P_s c for t >= s
        K[:, s, s:] = np.einsum("bkd,bd->bk", R[:, : T - s], Pc[:, s])
    np.copyto(K, K.transpose(0, 2, 1), where=np.tri(T, k=-1, dtype=bool))     # the lower triangle: K[t, s] = K[s, t]
    K += sigma_v ** 2 * np.eye(T)
    return K

def simulate_lds(systems: LDSBatch, T: int, rng: np.random.Generator) -> np.ndarray:
    """Simulate :math:`y_1..y_T` for every system of the batch (shape (B, T)).

    Random draws, in this order: the state noises (time-major, (T, B, d) standard normals), the
    initial states, the observation noises ((B, T))."""
    systems = check_systems(systems)
    T = _check_T(T)
    if not isinstance(rng, np.random.Generator):
        raise ParameterTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
    A = systems.A
    B, d, _ = A.shape
    check_memory("T", T, 8.0 * B * T * (2 * d + 2), f"the noises of {B} trajectories of length {T}")
    return np.ascontiguousarray(_simulate(A, systems.c, _noise_root(systems.Sigma_w), _is_diagonal(A), systems.sigma0,
                                          systems.sigma_v, T, rng))


def _noise_root(Sw: np.ndarray) -> np.ndarray:
    r"""The factor that turns standard normals into the state noises of covariances ``Sw`` (n, d, d): the (n, d) square
    roots of the diagonals when every matrix is diagonal (an elementwise scale), else (n, d, d) matrices R with
    :math:`RR^\top=\Sigma_w`."""
    if _is_diagonal(Sw):
        return np.sqrt(np.maximum(np.einsum("bii->bi", Sw), 0.0))       # = np.clip(·, 0, None)
    return _noise_sqrt(Sw)


def _simulate(A, c, root, diagonal, sigma0, sigma_v, T, rng):
    r""":func:`simulate_lds` of validated arrays (no checks): ``root`` from :func:`_noise_root` of the batch's
    :math:`\Sigma_w` ((B, d) or (B, d, d)), ``diagonal`` = :func:`_is_diagonal` of ``A``. The (B, T) result is stored
    time-major (the transpose of a contiguous (T, B) array: the prompts of a training step are gathered from it)."""
    B, d = c.shape
    X = rng.standard_normal((T, B, d))                     # time-major: X[t] is contiguous
    if root.ndim == 2:
        X *= root
    else:
        X = np.einsum("bij,tbj->tbi", root, X)
    a = np.einsum("bii->bi", A).copy() if diagonal else None            # contiguous: 3x faster products below
    x = sigma0 * rng.standard_normal((B, d))
    Ax = np.empty((B, d))
    for t in range(T):                                     # X[t]: w_t -> w_t + A x_{t-1} = x_t, in place
        if diagonal:
            np.multiply(a, x, out=Ax)
        else:
            np.einsum("bij,bj->bi", A, x, out=Ax)
        x = X[t]
        x += Ax
    Y = np.einsum("bi,tbi->tb", c, X)                     # y_t - v_t = c^T x_t, every t at once (time-major)
    V = rng.standard_normal((B, T)).T.copy()               # v_t, drawn (B, T), time-major like Y
    V *= sigma_v
    Y += V
    return Y.T

class _LDSPrior:
    """Common part of the four system priors (see the module docstring)."""

    setting = "?"

    def __init__(self, d, a_max, sigma0, sigma_v):
        self.d = check_int("d", d, minimum=1, maximum=64)
        self.a_max = check_real("a_max", a_max, 0.0, 1.0)
        self.sigma0 = check_real("sigma0", sigma0, 0.0, MAX_SCALE)
        self.sigma_v = check_real("sigma_v", sigma_v, 0.0, MAX_SCALE)

    #: True when A and -A are equally likely (all four settings of the paper); the one-sided
    #: control prior :class:`OneSidedDiagonalLDSPrior` is not.
    central_symmetric = True

    @property
    def eigenvalue_interval(self) -> tuple[float, float]:
        """The eigenvalues of A are i.i.d. uniform on this interval."""
        return (-self.a_max, self.a_max)

    def _eig(self, rng, size):
        lo, hi = self.eigenvalue_interval
        return rng.uniform(lo, hi, size=(size, self.d))

    def eigenvalue_quadrature(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Nodes and weights (summing to 1) integrating every polynomial of degree ≤ 2n − 1 exactly against the law
        of one eigenvalue (Gauss–Legendre on the eigenvalue interval)."""
        n = check_int("n", n, minimum=1, maximum=10_000)
        x, w = np.polynomial.legendre.leggauss(n)
        lo, hi = self.eigenvalue_interval
        return lo + (hi - lo) * (x + 1) / 2, w / 2

    #: True when every A the prior draws is diagonal (then :func:`_is_diagonal` need not look)
    _diagonal = False

    def _sample(self, rng, size):  # pragma: no cover - abstract
        """``A`` (size, d, d) and ``c`` (size, d) of ``size`` systems (all the random draws of :meth:`sample`)."""
        raise NotImplementedError

    def _noise_covariance(self) -> np.ndarray:  # pragma: no cover - abstract
        r"""The state-noise covariance :math:`\Sigma_w` (d, d), the same for every system of the prior."""
        raise NotImplementedError

    def sample(self, rng: np.random.Generator, size: int) -> LDSBatch:
        """``size`` i.i.d. systems (an :class:`LDSBatch`)."""
        size = check_int("size", size, minimum=1)
        if not isinstance(rng, np.random.Generator):
            raise ParameterTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        check_memory("size", size, 8.0 * size * (3 * self.d * self.d + self.d), f"{size} systems of dimension {self.d}")
        A, c = self._sample(rng, size)
        Sw = np.broadcast_to(self._noise_covariance(), (size, self.d, self.d)).copy()
        return LDSBatch(A, c, Sw, self.sigma0, self.sigma_v)

    def trajectory_batches(self, rng: np.random.Generator, size: int, T: int):
        """Batches of trajectories for a training loop: every ``next()`` is ``self.sample(rng, size).simulate(T, rng)``
        (the same draws, the same values to the last bit), without building and re-checking a batch object per step
        (only the finiteness of A, the one check sampled systems can fail: :meth:`sample`'s error); the noise factor
        of the prior's fixed Σ_w is computed once.

        >>> p = make_prior("b", d=2)
        >>> g1, g2 = np.random.default_rng(3), np.random.default_rng(3)
        >>> bool(np.array_equal(next(p.trajectory_batches(g1, 4, 6)), p.sample(g2, 4).simulate(6, g2)))
        True
        """
        size = check_int("size", size, minimum=1)
        T = _check_T(T)
        if not isinstance(rng, np.random.Generator):
            raise ParameterTypeError(f"rng must be a numpy.random.Generator, got {type(rng).__name__}")
        check_memory("size", size, 8.0 * size * (3 * self.d * self.d + self.d), f"{size} systems of dimension {self.d}")
        check_memory("T", T, 8.0 * size * T * (2 * self.d + 2), f"the noises of {size} trajectories of length {T}")
        return self._batches(rng, size, T)

    def _batches(self, rng, size, T):
        Sw = self._noise_covariance()[None]
        root = _noise_root(Sw)
        root = np.broadcast_to(root, (size,) + root.shape[1:]).copy()         # one system's factor, for each system
        while True:
            A, c = self._sample(rng, size)
            if not np.isfinite(A).all():
                LDSBatch(A, c, np.broadcast_to(Sw, A.shape), self.sigma0, self.sigma_v)
            yield _simulate(A, c, root, self._diagonal or _is_diagonal(A), self.sigma0, self.sigma_v, T, rng)

    def autocovariance(self, T: int, systems: LDSBatch) -> np.ndarray:
        """Exact autocovariance of :math:`(y_1..y_T)` per system, (B, T, T)."""
        return lds_autocovariance(systems, T)

    def describe(self) -> dict:
        return {"setting": self.setting, "class": type(self).__name__, "d": self.d,
                "a_max": self.a_max, "sigma0": self.sigma0, "sigma_v": self.sigma_v}

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self.describe().items() if k not in ('setting', 'class'))})"

class DiagonalLDSPrior(_LDSPrior):
    r"""Setting (a): :math:`A=\mathrm{diag}(a_1..a_d)`, :math:`a_k\sim U[-a_{\max},a_{\max}]` i.i.d.,
    :math:`c=\mathbf 1`, :math:`\Sigma_w=\sigma_w^2 I_d`.

    >>> s = DiagonalLDSPrior(2, 0.9, 1.0, 0.5, 0.1).sample(np.random.default_rng(0), 3)
    >>> s.A.shape, bool(np.all(s.c == 1))
    ((3, 2, 2), True)
    """

    setting = "a"
    _diagonal = True

    def __init__(self, d, a_max, sigma0, sigma_w, sigma_v):
        super().__init__(d, a_max, sigma0, sigma_v)
        self.sigma_w = check_real("sigma_w", sigma_w, 0.0, MAX_SCALE)

    def _sample(self, rng, size):
        return _diagonal_matrices(self._eig(rng, size)), np.ones((size, self.d))

    def _noise_covariance(self):
        return self.sigma_w ** 2 * np.eye(self.d)

    def describe(self):
        return {**super().describe(), "sigma_w": self.sigma_w,
                "law": "A = diag(a), a_k ~ U[-a_max, a_max] iid, c = 1, Sigma_w = sigma_w^2 I"}

class OneSidedDiagonalLDSPrior(DiagonalLDSPrior):
    r"""Control prior (not one of the paper's settings): as setting (a) but with eigenvalues
    :math:`a_k\sim U[0,a_{\max}]`, so the law of A is **not** centrally symmetric.

    >>> s = OneSidedDiagonalLDSPrior(2, 0.9, 1.0, 0.5, 0.1).sample(np.random.default_rng(0), 50)
    >>> bool(np.all(s.A >= 0))
    True
    """

    setting = "a+"
    central_symmetric = False

    @property
    def eigenvalue_interval(self) -> tuple[float, float]:
        return (0.0, self.a_max)

    def describe(self):
        return {**super().describe(),
                "law": "A = diag(a), a_k ~ U[0, a_max] iid (not centrally symmetric), c = 1, Sigma_w = sigma_w^2 I"}


class SkewedDiagonalLDSPrior(DiagonalLDSPrior):
    r"""Stress prior (not one of the paper's settings): as setting (a), but each eigenvalue is positive with
    probability :math:`(1+\delta)/2` and negative with probability :math:`(1-\delta)/2` (uniform magnitude on
    :math:`[0, a_{\max}]`), ``skew`` :math:`=\delta\in[0,1]`. :math:`\delta=0` is setting (a) (A and −A equally
    likely); :math:`\delta` is the total-variation distance between the laws of one eigenvalue of A and of −A, and
    :math:`\delta=1` is the one-sided control prior :class:`OneSidedDiagonalLDSPrior`.

    >>> p = SkewedDiagonalLDSPrior(1, 0.9, 1.0, 0.5, 0.1, skew=0.5)
    >>> x, w = p.eigenvalue_quadrature(8); round(float(w @ x), 6)       # E[a] = δ a_max / 2
    0.225
    """

    setting = "a~"

    def __init__(self, d, a_max, sigma0, sigma_w, sigma_v, skew=0.0):
        super().__init__(d, a_max, sigma0, sigma_w, sigma_v)
        self.skew = check_real("skew", skew, 0.0, 1.0)
        self.central_symmetric = self.skew == 0

    def _eig(self, rng, size):
        mag = rng.uniform(0.0, self.a_max, size=(size, self.d))
        sign = np.where(rng.uniform(size=(size, self.d)) < (1 + self.skew) / 2, 1.0, -1.0)
        return sign * mag

    def eigenvalue_quadrature(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Gauss–Legendre with ``n`` nodes on each half-interval, weighted by the probabilities of the two signs."""
        n = check_int("n", n, minimum=1, maximum=10_000)
        x, w = np.polynomial.legendre.leggauss(n)
        half = self.a_max * (x + 1) / 2
        return (np.concatenate([-half, half]),
                np.concatenate([(1 - self.skew) / 2 * w / 2, (1 + self.skew) / 2 * w / 2]))

    def describe(self):
        return {**super().describe(), "skew": self.skew,
                "law": "A = diag(a), a_k = ±|a_k|, |a_k| ~ U[0, a_max], P(+) = (1 + skew)/2, c = 1, "
                       "Sigma_w = sigma_w^2 I"}


def _diagonal_matrices(a: np.ndarray) -> np.ndarray:
    """The diagonal matrices diag(a[k]) (n, d, d) of the rows of ``a`` (n, d), equal to ``a[:, :, None] * np.eye(d)``
    to the last bit: each zero of row i keeps the sign of a_i · 0."""
    n, d = a.shape
    A = np.repeat(a * 0.0, d, axis=1).reshape(n, d, d)
    A.reshape(n, d * d)[:, :: d + 1] = a
    return A


def _haar(rng, size, d):
    """Haar-distributed orthogonal matrices: Gram–Schmidt on the columns of a Gaussian matrix, i.e. the
    Q factor of its QR decomposition with a positive diagonal of R (vectorised over the batch)."""
    Q = rng.standard_normal((size, d, d))                  # its columns orthonormalised in place
    for j in range(d):
        v = Q[:, :, j]
        for i in range(j):                                  # modified Gram-Schmidt
            q = Q[:, :, i]
            v -= np.einsum("bk,bk->b", q, v)[:, None] * q
        v /= np.sqrt(np.add.reduce(v * v, axis=1, keepdims=True))     # np.linalg.norm(v, axis=1)
    return Q

class OrthogonalLDSPrior(DiagonalLDSPrior):
    r"""Setting (b): :math:`A=Q^\top\mathrm{diag}(a)Q`, :math:`Q` Haar on :math:`O(d)`,
    :math:`a_k\sim U[-a_{\max},a_{\max}]`, :math:`c=\mathbf 1`, :math:`\Sigma_w=\sigma_w^2I`."""

    setting = "b"
    _diagonal = False

    def _sample(self, rng, size):
        a = self._eig(rng, size)
        Q = _haar(rng, size, self.d)
        A = (Q.transpose(0, 2, 1) * a[:, None, :]) @ Q          # Qᵀ diag(a) Q
        A = 0.5 * (A + A.transpose(0, 2, 1))
        return A, np.ones((size, self.d))

    def describe(self):
        return {**super().describe(),
                "law": "A = Q^T diag(a) Q, Q Haar orthogonal, a_k ~ U[-a_max, a_max], c = 1, Sigma_w = sigma_w^2 I"}

class AnisotropicNoiseLDSPrior(_LDSPrior):
    r"""Setting (c): diagonal :math:`A` as in (a), :math:`c=\mathbf 1`, fixed anisotropic
    :math:`\Sigma_w` (default :math:`\mathrm{diag}(\sigma_{w,k}^2)` with
    :math:`\sigma_{w,k}=\sigma_w\cdot 4^{\,1/2-(k-1)/(d-1)}`, i.e. a 16-fold variance spread whose
    geometric mean is :math:`\sigma_w^2`)."""

    setting = "c"
    _diagonal = True

    def __init__(self, d, a_max, sigma0, sigma_w, sigma_v, Sigma_w=None):
        super().__init__(d, a_max, sigma0, sigma_v)
        self.sigma_w = check_real("sigma_w", sigma_w, 0.0, MAX_SCALE)
        if Sigma_w is None:
            expo = 0.5 - (np.arange(self.d) / max(self.d - 1, 1)) if self.d > 1 else np.zeros(1)
            Sigma_w = np.diag((self.sigma_w * 4.0 ** expo) ** 2)
        S = check_psd("Sigma_w", Sigma_w)
        if S.shape != (self.d, self.d):
            raise ValueError(f"Sigma_w must have shape ({self.d}, {self.d}), got {S.shape}")
        self.Sigma_w = S

    def _sample(self, rng, size):
        return _diagonal_matrices(self._eig(rng, size)), np.ones((size, self.d))

    def _noise_covariance(self):
        return self.Sigma_w

    def describe(self):
        return {**super().describe(), "Sigma_w_diag": np.diag(self.Sigma_w).tolist(),
                "law": "A = diag(a), a_k ~ U[-a_max, a_max], c = 1, Sigma_w fixed anisotropic"}

class NonNormalLDSPrior(DiagonalLDSPrior):
    r"""Setting (d): :math:`A=P^{-1}\mathrm{diag}(a)P`, :math:`P=I+\kappa U` with :math:`U` strictly upper
    triangular (always invertible; non-normal for :math:`\kappa>0`), :math:`c=\mathbf 1`,
    :math:`\Sigma_w=\sigma_w^2I`. The entries of U are i.i.d. uniform on [−1, 1] (``coupling_law="uniform"``,
    default) or standard normal (``"gaussian"``). With Gaussian entries the transient growth of
    :math:`A^k` has such heavy tails over systems that prior averages of 6th-order moments (Theorem 4.1's
    denominator) are dominated by rare systems and cannot be estimated by any feasible Monte Carlo; the bounded
    law keeps every moment bounded over systems."""

    setting = "d"
    _diagonal = False

    def __init__(self, d, a_max, sigma0, sigma_w, sigma_v, coupling=0.5, coupling_law="uniform"):
        super().__init__(d, a_max, sigma0, sigma_w, sigma_v)
        self.coupling = check_real("coupling", coupling, 0.0)
        self.coupling_law = check_choice("coupling_law", coupling_law, ("uniform", "gaussian"))

    def _sample(self, rng, size):
        a = self._eig(rng, size)
        shape = (size, self.d, self.d)
        E = rng.uniform(-1.0, 1.0, shape) if self.coupling_law == "uniform" else rng.standard_normal(shape)
        N = self.coupling * np.triu(E, 1)                   # nilpotent: P^-1 = sum_k (-N)^k, k < d (exact)
        P = np.eye(self.d) + N
        term = -N                           # (-I) N but for the signs of its zeros, which no sum below sees: same P^-1
        Pinv = np.eye(self.d) + term
        for _ in range(self.d - 2):
            term = -term @ N
            Pinv += term
        A = Pinv @ (a[:, :, None] * P)
        return A, np.ones((size, self.d))

    def describe(self):
        return {**super().describe(), "coupling": self.coupling, "coupling_law": self.coupling_law,
                "law": f"A = P^-1 diag(a) P, P = I + coupling*strict-upper {self.coupling_law} "
                       f"({'U[-1, 1]' if self.coupling_law == 'uniform' else 'N(0, 1)'}), a_k ~ U[-a_max, a_max], c = 1"}

SETTINGS = {"a": DiagonalLDSPrior, "b": OrthogonalLDSPrior, "c": AnisotropicNoiseLDSPrior,
            "d": NonNormalLDSPrior}

def make_prior(setting: str, d: int = 5, a_max: float = 0.95, sigma0: float = 1.0,
               sigma_w: float = 0.5, sigma_v: float = 0.5):
    """Prior of setting ``'a'``..``'d'`` with the toolkit's default parameters (not the paper's:
    the paper does not state them).

    >>> make_prior("b").describe()["setting"]
    'b'
    """
    check_choice("setting", setting, tuple(SETTINGS))
    return SETTINGS[setting](d, a_max, sigma0, sigma_w, sigma_v)

def check_prior(prior):
    if not isinstance(prior, _LDSPrior):
        raise ParameterTypeError(f"prior must be one of the LDS priors {sorted(c.__name__ for c in SETTINGS.values())}, "
                         f"got {type(prior).__name__}")
    return prior
