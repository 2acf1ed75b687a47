r"""Sequential decisions for Monte Carlo sub-claims: sample in stages, stop once the declared decision is reached.

The design
----------
A **group-sequential design with the Lan–DeMets O'Brien–Fleming α-spending function** (Lan & DeMets 1983),
:math:`\alpha(t) = 2 - 2\Phi(z_{1-\alpha/2}/\sqrt t)`, at most :data:`LOOKS` = 4 looks at the information fractions
1/4, 1/2, 3/4, 1 of the sub-claim's declared maximum n. Its boundaries are computed exactly by recursive numerical
integration of the score process (Armitage, McPherson & Rowe 1969; Jennison & Turnbull 2000, ch. 7 and 19:
:mod:`.design`), and tested against published values (``tests/test_sequential.py``): two-sided α = 0.05, K = 4,
4.3326, 2.9631, 2.3590, 2.0141 (the ld98 values in ``rpahl/GroupSeq``'s tests); one-sided α = 0.05, K = 4, 3.7496,
2.5399, 2.0160, 1.7201 (``PharmCat/SeqBounds.jl``); K = 3, 3.2001, 2.1408, 1.6948 with exit probabilities 0.000687,
0.016375, 0.05 (``GroupSeq``); the classical O'Brien–Fleming constant 2.024 and Pocock's 2.361 (K = 4, α = 0.05;
Jennison & Turnbull Tables 2.3 and 2.1); and first-crossing probabilities under a drift against SciPy's multivariate
normal integral (agreement to 1e−9; the published ld98 grid values differ from both by up to 5e−5).

Why this design and not anytime-valid confidence sequences: (1) the final O'Brien–Fleming boundary is close to the
fixed-sample one, so a sub-claim that runs to its maximum keeps today's numbers — its samples and estimate are
byte-identical and its p-value moves by at most the α spent before the last look (:math:`1.1\cdot10^{-6}` at the
house level), while a confidence sequence is wider than the fixed CI at every n (Robbins' normal-mixture sequence, tuned
for n max, is 1.67× the fixed half-width there at level 0.05 and 1.23× at 2.5e−5) and would change verdicts of
record; (2) it keeps the rules' own tests — Student t with the
estimate's df, batch means for heavy tails — through the significance-level conversion of each t to the design's z
scale, where confidence sequences need sub-Gaussian or bounded increments that a batch-means estimator does not
have; (3) we choose the looks, so continuous monitoring buys nothing; (4) the power at the declared maximum n is
kept (below), so the maximum need not be inflated.

When a sub-claim stops (:mod:`.stopping`)
-----------------------------------------
Holm adjusts the report's whole family only after every task, when its size m is known. A stop at look k < K must be
one Holm cannot undo: it happens only when the decision holds at look k at the boundary of a spending design of total
α/m_plan (:data:`M_PLAN` = 400, a declared bound on a report's number of hypotheses — the largest family of record is
187), so the stopped hypothesis' sequential p-value is at most α/m_plan ≤ α/m; Holm's first threshold is α/m, so it
rejects every such p-value; :func:`~theorycheck.verdicts.aggregate.finalize` fails loudly when a report with a
sequential sub-claim has more than m_plan hypotheses (:func:`check_family`). And every number the letter quotes for
the sub-claim must have reached its declared ``precision``: the half-width of its 95 % repeated confidence interval
(and of every trivial-alternative gap's) is at most the precision. "Inconclusive" always runs to the maximum.

Which rules stop, and why (:data:`STOPPING`, :data:`NOT_STOPPING` — each registered rule is in one of them):
``agreement`` (TOST confirms; the point null refutes, but stops to refute only when the repeated CI also lies outside
the margin, because ``decide`` lets a TOST confirmation win), ``equivalence`` and ``reproduction`` (TOST confirms;
outside the margin refutes; with a vague verb only the confirmation stops), ``superiority`` (either one-sided test),
``difference`` (only the confirmation: the TOST refutation could be overturned by the point null at a larger n). Not:
``joint agreement``, ``asymptotic`` (bootstrap df), ``shape``, ``grid equivalence`` and the exact rules — the
reasons are in :data:`NOT_STOPPING`.

What a sequential sub-claim reports
-----------------------------------
* **p-values of the stage-wise ordering** (Jennison & Turnbull ch. 8): per component (one- or two-sided t test), the
  p-value of its first crossing, or of the last look when none; combined as the rule combines its tests
  (intersection–union max for TOST, Bonferroni for "outside the margin"). The ordering is that of the design that
  stops at the first crossing; our rule stops only at or after a crossing of the deciding components, so this p is
  observable on every path and a fixed function of the full path — exactly uniform under the null, valid at every
  level (so Holm over the family stays valid). A component not observed at an early stop gets p = 1 (an upper bound
  of every continuation). At a run to the maximum with no earlier crossing, the stage-wise p lies in
  :math:`[p_\text{fixed},\ p_\text{fixed} + \alpha_\text{spent}(t_{K-1})]` (``details["sequential"]["p_shift_bound"]``).
* **95 % repeated confidence intervals** (Jennison & Turnbull ch. 9): the estimate ± the two-sided boundary of a
  Lan–DeMets O'Brien–Fleming design of total 0.05 (4.333, 2.963, 2.359, 2.014 at four equal looks), taken to the t
  scale — simultaneous over the looks, so valid at any stopping time. A run to the maximum quotes it too: 2.014/1.96,
  2.8 % wider than the naive 95 % CI, which is kept in ``details["sequential"]["ci_fixed"]``.
* ``details["sequential"]``: ``n_used``, ``n_max``, ``look``, ``looks``, ``stopped`` (``"confirm"``, ``"refute"`` or
  None), the design (``m_plan``, ``alpha``, ``alpha_design``), ``precision``, ``half_width``, the fixed-sample numbers
  of the stopping look, a trace of the looks and the reason; the report prints "n used … of its maximum …".

**Power at the declared maximum n.** Against the fixed-sample test at n max with the same final threshold u ≥ α/m_plan,
the sequential test loses only the paths whose fixed p lies within the α spent before the last look of u (its early
rejections are all kept): :func:`sequential_power` gives, at the worst case u = α/m_plan = 2.5·10⁻⁵, 0.4991 / 0.7993 /
0.8995 / 0.9899 where the fixed test has 0.5 / 0.8 / 0.9 / 0.99 — at most 0.1 percentage point, so n max is not
inflated. An early stop for the *other* decision has probability at most α/m_plan. Expected n (a one-sided component of
the house design): 0.97 n max when the final z is 4, 0.65 n max at 8, 0.50 at 12, 0.26 at 20 — a finding with
|t| > 50 at n max stops at its first look, if its precision allows.

**Validity of the t conversion** is that of the significance-level approach (exact for normal statistics,
approximate for Student t); the calibration cases (:mod:`.cases`, ``calibration.md``) check size ≤ α and the declared
power at 9 df.

Staged sampling with a prefix of one stream: :func:`sequential_estimate` calls ``draw(rng, k0, k1)`` for consecutive
ranges of ONE ``numpy.random.Generator`` (from ``ctx.seed_for(name)``) and estimates from the concatenated prefix,
so its run to ``n_max`` computes exactly the array of one call ``draw(rng, 0, n_max)`` (bit for bit — the estimate
of a run to the maximum is today's), and a stage is a pure function of the seed: identical for any ``--jobs`` and on
Dask (all inside one task). How a claim adopts it: ``/work/tmp/seq_api.md`` and ARCHITECTURE.md.

>>> import numpy as np
>>> from theorycheck.verdicts import rules
>>> sc = sequential_estimate(lambda rng, k0, k1: rng.normal(0.52, 0.1, k1 - k0), 8000,
...                          rng=np.random.default_rng(3), precision=0.01,
...                          decide=lambda e: rules.equivalence("≈ 0.5", e, 0.5, margin=0.05))
>>> n_text(sc), sc.verdict is None
('n used 2000 of its maximum 8000 (stopped at look 1 of 4)', True)
"""
from .design import Design, constant_boundaries, design, exit_probabilities, obf_spending, sequential_power
from .stopping import (CI_LEVEL, LOOKS, M_PLAN, NOT_STOPPING, STOPPING, Stopping, check_family, look_sizes, n_text,
                       repeated_half_width, sequential_estimate)
from . import cases
from .cases import CASES

__all__ = ["sequential_estimate", "look_sizes", "check_family", "n_text", "repeated_half_width", "STOPPING",
           "NOT_STOPPING", "Stopping", "M_PLAN", "LOOKS", "CI_LEVEL", "Design", "design", "obf_spending",
           "constant_boundaries", "exit_probabilities", "sequential_power", "CASES", "cases"]
