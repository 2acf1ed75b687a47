r"""The mathematics of paper 001 — one-layer linear attention trained in context on linear dynamical systems.

One module per area: :mod:`.wqk` (Theorem 4.1's :math:`W^*_{QK,11}` by five routes, the reference route and the
simulated model's best scalar), :mod:`.isserlis` (the Isserlis moments and their exact prior averages),
:mod:`.nonnormal` (setting (d): pattern integrals and coupling weights), :mod:`.stationarity` (the stationarity
condition's exact moments, batch Monte Carlo of second moments), :mod:`.gd` (one GD step, exact loss and gradient),
:mod:`.support` (parity patterns, supports, AR gaps and decay exponents), :mod:`.pcg` (the PCG reading of Eqs.
16–18 and what it is compared with), :mod:`.symbolic` (SymPy versions of the construction), :mod:`.optimum` (exact
minimisation of the population loss over the weights: global optima, parity branches, certified local minima),
:mod:`.kalman` (the steady-state Kalman predictor, its truncation bias and the trivial predictors), :mod:`.ablation`
(the exact best losses of the layer restricted to feature blocks of Eq. 17: what the Krylov term carries). Quantities with
several routes name their reference: :data:`.wqk.REFERENCE_ROUTE` and :data:`.stationarity.REFERENCE_ROUTE`
(``"rao-blackwell"``, the definition by sampled systems), tested route by route in ``tests/test_lds_routes.py``. The models themselves (systems, priors, the
attention layer, filters, training) are in :mod:`theorycheck.models`; the old path :mod:`theorycheck.lds`
re-exports both.

Model and conventions (stated in every claim that uses them)
-------------------------------------------------------------
*System.* :math:`x_0\sim\mathcal N(0,\sigma_0^2 I_d)`; for :math:`t=1..T`:
:math:`x_t = A x_{t-1} + w_t`, :math:`w_t\sim\mathcal N(0,\Sigma_w)`;
:math:`y_t = c^\top x_t + v_t`, :math:`v_t\sim\mathcal N(0,\sigma_v^2)`; all noises independent.
Per system, :math:`(y_1..y_T)` is centred Gaussian with autocovariance (1-based, :math:`s\le t`)

.. math:: K(s,t) = c^\top A^{t-s} P_s c + \sigma_v^2\delta_{st},\qquad
          P_0=\sigma_0^2 I,\; P_s = A P_{s-1}A^\top + \Sigma_w .

*Priors* (the paper's four settings; the laws of eigenvalues, :math:`x_0`, :math:`\Sigma_w`,
:math:`\sigma_v` are not given in the source, so every one is a parameter):
(a) :class:`DiagonalLDSPrior` :math:`A=\mathrm{diag}(a_k)`, :math:`a_k` i.i.d.
:math:`U[-a_{\max},a_{\max}]`, :math:`c=\mathbf 1`, :math:`\Sigma_w=\sigma_w^2 I`;
(b) :class:`OrthogonalLDSPrior` :math:`A=Q^\top\mathrm{diag}(a_k)Q`, :math:`Q` Haar orthogonal;
(c) :class:`AnisotropicNoiseLDSPrior` diagonal :math:`A`, :math:`\Sigma_w` not isotropic;
(d) :class:`NonNormalLDSPrior` :math:`A=P^{-1}\mathrm{diag}(a_k)P`, :math:`P=I+\kappa U`,
:math:`U` strictly upper triangular with i.i.d. :math:`U[-1,1]` entries (``coupling_law="gaussian"``:
:math:`\mathcal N(0,1)`). All are centrally symmetric (:math:`A` and :math:`-A` equally likely), hence the mixture
law of :math:`(y_t)` is invariant under :math:`y_t\mapsto(-1)^t y_t`. :class:`OneSidedDiagonalLDSPrior` and
:class:`SkewedDiagonalLDSPrior` (eigenvalue signs skewed by δ) are control / stress priors that are not.

*Prior averages* of the Isserlis moments (:func:`.wqk.wqk_star`, :func:`.stationarity.stationarity_moments`): exact for settings
(a), (c) (independent scalar components) and (b) (Haar Q makes :math:`Qc` uniform on the sphere: independent
components with exchangeable Dirichlet weights, :func:`.isserlis.exact_component_average`); for setting (d) exact over the
eigenvalues and noises with a randomised quasi-Monte Carlo average over the coupling matrix only
(:func:`.nonnormal.nonnormal_wqk`, ``method="coupling-rqmc"``); Rao–Blackwell averages over sampled systems for any prior.

*Tokens and attention* (reconstruction, not verified against the paper's text): window
:math:`s`, :math:`\bar y_i=[y_i..y_{i+s-1}]^\top`, tokens :math:`z_i=[\bar y_i; y_{i+s}]` for
:math:`i=1..n`, :math:`n=T-s-1`, query column :math:`[\bar y_{T-s};0]`; :math:`Y_0\in
\mathbb R^{(s+1)\times(T-s)}`,

.. math:: T_\theta(Y_0) = Y_0 + \tfrac1n W_V Y_0 M (Y_0^\top W_{QK} Y_0),\qquad
          M=\mathrm{diag}(1,..,1,0),

and :math:`\hat y_T = T_\theta(Y_0)_{s+1,T-s}`. Loss :math:`L=\tfrac12E[(\hat y_T-y_T)^2]`
(halved). Writing :math:`G=\tfrac1n\sum_i z_iz_i^\top`, :math:`v` the last row of :math:`W_V`
and :math:`q` the query column, :math:`\hat y_T = v^\top G\,W_{QK}\,q`: only the last row of
:math:`W_V` and the first :math:`s` columns of :math:`W_{QK}` matter, and
:math:`(v,W_{QK})\mapsto(cv,W_{QK}/c)` leaves it unchanged.

*Theorem 4.1 scalar* (s = 1, :math:`W_V^*=e_2e_2^\top`):
:math:`w^* = (T-2)E[y_{T-1}y_TS]/E[y_{T-1}^2S^2]`, :math:`S=\sum_{i=1}^{T-2}y_iy_{i+1}`,
expectations over noise *and* system prior (a ratio of expectations).

*Helpers of the paper's claims* (reusable): :func:`wqk_star_batch_mc` (the simulated model's best
scalar, per batch, for batch-means standard errors), :func:`exact_halved_loss` /
:func:`exact_loss_gradient` (population loss of any weights from exact feature moments),
:func:`gd_step_weights` / :func:`best_gd_step` (standard one-step GD realised by the layer),
:func:`coefficient_inertia` (realisability of effective coefficients), :func:`support_jaccard` /
:func:`offpattern_energy` (distance of trained weights from the Lemma 4.1 class), :func:`ar_gaps` /
:func:`decay_exponents` (oracle AR(s) vs Kalman), and ``antithetic`` / ``systems`` options of
:func:`stationarity_moments` (averages over finite centrally symmetric families).
:class:`OneSidedDiagonalLDSPrior` is a control prior that is *not* centrally symmetric.

Example
-------
>>> from theorycheck.models.dynamics import DiagonalLDSPrior
>>> from theorycheck.papers.lds.theory.wqk import wqk_star
>>> prior = DiagonalLDSPrior(d=1, a_max=0.9, sigma0=1.0, sigma_w=0.5, sigma_v=0.3)
>>> w = wqk_star(6, prior)
>>> w.method, round(w.value, 6) == round(wqk_star(6, prior, method="quadrature").value, 6)
('polynomial', True)
"""
