r"""The decision rules: the only code that turns evidence into a sub-claim verdict.

Every rule takes the atomic ``statement``, the evidence and the rule's declared parameters
(margins, finite-size laws, shapes) and returns a :class:`~theorycheck.claims.SubClaim`.
Parameters are declared in the paper module's code *before* the data are computed; the
rule records them (``margin``, ``details``) so a reader can see what was declared.

Two kinds of rule
-----------------
*Deterministic* rules (:func:`identity`, :func:`inequality`, :func:`consistency`, :func:`shape`
on exact curves, and any rule given an exact value, ``se = 0``) decide at once.

*Statistical* rules record two p-values and wait for the report-wide multiplicity adjustment
(:mod:`theorycheck.verdicts.multiplicity`, Holm at the family-wise :data:`FAMILY_ALPHA`):

``p_for``
    tests the null "the statement is false"; rejecting it (``p_for`` adjusted < α) **confirms**;
``p_against``
    tests the null "the statement holds"; rejecting it **refutes** (or, when the setting
    contains toolkit choices for parameters the source leaves open, gives ``not reproduced``).

Neither rejected: **inconclusive** (too little power for the declared margin). The decision
itself lives in :func:`theorycheck.verdicts.aggregate.decide`. All tests are Student t with the
estimate's degrees of freedom (normal when ``df`` is ``None``), computed with :mod:`scipy.stats`;
the known-answer tests compare them with :mod:`statsmodels` (``DescrStatsW.ttest_mean``,
``ttost_mean``).

Rules
-----
:func:`identity`      exact (SymPy) or numeric identity at a stated tolerance.
:func:`inequality`    an exact inequality (arrays: it must hold everywhere).
:func:`agreement`     a formula stated as exact vs a Monte Carlo estimate of the actual model.
:func:`equivalence`   "≈ / matches" statements: TOST within a declared margin.
:func:`reproduction`  a printed number: tolerance of its printed digits plus a declared margin.
:func:`superiority`   "A beats B": one-sided test on the difference (declared margin, default 0).
:func:`difference`    "A differs from B": two-sided test (confirms), equivalence within a margin (refutes).
:func:`joint_agreement` a vector of components against exact values (one joint χ² / Hotelling test).
:func:`asymptotic`    a d → ∞ statement: extrapolation under every declared finite-size law.
:func:`shape`         monotone / interior optimum / unimodal, decided by a test (or exactly).
:func:`consistency`   two statements of the source about the same quantity.
:func:`search`        a universal statement tested by a finite search (counterexample → refuted; none → inconclusive).
:func:`underspecified` cannot be attempted; names what is missing.

>>> from theorycheck.verdicts.estimate import Estimate
>>> s = agreement("E[g^2] = 1", Estimate(1.004, 0.01, 10_000, 9_999), 1.0, margin=0.05, scope="n = 10^4")
>>> s.rule, round(s.p_value["against"], 3), s.p_value["for"] < 1e-4
('agreement', 0.689, True)
>>> identity("1 + 1 = 2", 1 + 1, 2, scope="exact").verdict
'confirmed'
"""
from __future__ import annotations

# isort: skip_file  (the import order of the rule modules is the order of every table derived from the registry:
# RULES, the schema's enum, the calibration cases and their seeds)
from . import registry
from .common import FAMILY_ALPHA, FINITE_SIZE_LAWS, GOF_ALPHA, SELF_CHECK_ALPHA, SHAPES
# one module per rule, registered in this order (the order of every table derived from the registry)
from .exact_identity import identity
from .exact_inequality import inequality
from .finite_search import search
from .self_consistency import consistency
from .unattempted import underspecified
from .formula_agreement import agreement
from .approximate_equivalence import equivalence
from .printed_number import printed_tolerance, reproduction
from .one_sided_superiority import superiority
from .two_sided_difference import difference
from .vector_agreement import joint_agreement
from .finite_size_limit import BOOTSTRAP_REPLICATES, asymptotic, bootstrap_df
from .curve_shape import shape
from .gain_share import share
from .grid_equivalence import grid_equivalence

__all__ = ["identity", "inequality", "search", "agreement", "equivalence", "reproduction", "superiority", "difference",
           "joint_agreement", "asymptotic", "shape", "share", "grid_equivalence", "consistency", "underspecified",
           "FAMILY_ALPHA", "SELF_CHECK_ALPHA", "FINITE_SIZE_LAWS", "GOF_ALPHA", "RULES", "printed_tolerance",
           "SHAPES", "bootstrap_df", "BOOTSTRAP_REPLICATES", "registry"]

#: name -> first paragraph of the rule's docstring (its hypothesis), written into results.json; derived from the
#: registry (:mod:`theorycheck.verdicts.rules.registry`)
RULES = {name: rule.hypothesis for name, rule in registry.REGISTRY.items()}
