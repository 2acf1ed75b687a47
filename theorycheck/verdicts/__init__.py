r"""The verdict engine: the only code that turns evidence into verdicts.

Modules
-------
:mod:`~theorycheck.verdicts.estimate`
    :class:`Estimate` (mean, SE, n, df) and its constructors (samples, batch means, differences).
:mod:`~theorycheck.verdicts.rules`
    the decision rules — identity, inequality, consistency, agreement, equivalence, reproduction,
    superiority, joint agreement, asymptotic (finite-size laws), shape, underspecified — each with
    its hypothesis, statistic, α and power in its docstring.
:mod:`~theorycheck.verdicts.selfcheck`
    the toolkit's own consistency checks (never verdicts; a failure withholds and fails the run).
:mod:`~theorycheck.verdicts.multiplicity`
    Holm adjustment (statsmodels) over a report's family of hypotheses.
:mod:`~theorycheck.verdicts.aggregate`
    decision from adjusted p-values, the one aggregation rule, generated explanations,
    :func:`finalize`.
:mod:`~theorycheck.verdicts.schema`
    the versioned JSON Schema of ``results.json`` and :func:`validate_results`.

Declared constants: :data:`FAMILY_ALPHA` (verdicts, per report, Holm), :data:`SELF_CHECK_ALPHA`
(self-checks, per paper, Holm), :data:`FINITE_SIZE_LAWS`, :data:`GOF_ALPHA`.

>>> from theorycheck.verdicts import rules, Estimate
>>> rules.superiority("A beats B", Estimate(0.3, 0.1, 50, 49)).rule
'superiority'
"""
from .estimate import Estimate, as_estimate
from .rules import FAMILY_ALPHA, FINITE_SIZE_LAWS, GOF_ALPHA, RULES, SELF_CHECK_ALPHA
from .aggregate import AGGREGATION, PRECEDENCE, aggregate, decide, explain, finalize
from . import rules, selfcheck, multiplicity

__all__ = ["Estimate", "as_estimate", "rules", "selfcheck", "multiplicity", "finalize", "decide", "aggregate",
           "explain", "FAMILY_ALPHA", "SELF_CHECK_ALPHA", "FINITE_SIZE_LAWS", "GOF_ALPHA", "RULES", "PRECEDENCE",
           "AGGREGATION"]
