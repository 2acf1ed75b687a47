"""The rule registry: every decision rule is one :class:`Rule` object, registered by its own module.

A rule knows how to **decide** (its function returns a :class:`~theorycheck.claims.SubClaim`), how to **explain**
its finding (the sentence body, generated from the sub-claim's numbers), what it **found** in a referee's words
(``finding``: a :class:`~theorycheck.verdicts.finding.Finding` built from the numbers' relations), its
**calibration cases** (simulated datasets with a known truth, for ``theorycheck selftest`` → ``calibration.md``)
and its **fuzz baselines** (cheap valid calls for the reliability fuzzing). Everything that used to list the rules
by hand — ``RULES``, the explanation dispatch, the schema's enum of rule names, the calibration table, the
reliability baselines — is derived from :data:`REGISTRY`. Adding a rule is one module of :mod:`theorycheck.verdicts.rules` plus its tests.

>>> get("agreement").function.__name__, "shape" in names()
('agreement', True)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

__all__ = ["Rule", "REGISTRY", "register", "get", "names"]


@dataclass(frozen=True)
class Rule:
    """One decision rule: ``name`` (as recorded in ``SubClaim.rule``), ``function`` (decides), ``explain``
    (``sub-claim -> sentence body``), ``finding`` (``sub-claim ->`` :class:`~theorycheck.verdicts.finding.Finding`:
    what was found, in words generated from the numbers — never the tested statement; the referee letter's "we
    find"; None: the letter falls back to ``explain``), ``calibration`` (``{case: (kind, fn(rng) -> bool)}``, kind ``bound``,
    ``power`` or ``contrast``) and ``fuzz`` (keyword sets of :class:`theorycheck.papers.api.Baseline` for the rule
    function, or for another public function of the rule's module named by ``"fn"``)."""

    name: str
    function: Callable
    explain: Callable
    calibration: dict = field(default_factory=dict)
    fuzz: tuple = ()
    finding: Callable | None = None

    @property
    def hypothesis(self) -> str:
        """The first paragraph of the rule function's docstring (written into ``results.json``)."""
        return " ".join((self.function.__doc__ or "").strip().split("\n\n")[0].split())

    @property
    def module(self) -> str:
        return self.function.__module__


REGISTRY: dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    """Add ``rule`` to the registry (in import order, which is the order of every derived table)."""
    if not isinstance(rule, Rule):
        raise TypeError(f"rule must be a Rule, got {type(rule).__name__}")
    if rule.name in REGISTRY and REGISTRY[rule.name] is not rule:
        raise ValueError(f"a rule named {rule.name!r} is already registered (by {REGISTRY[rule.name].module})")
    REGISTRY[rule.name] = rule
    return rule


def get(name: str) -> Rule:
    """The registered rule ``name`` (``ValueError`` naming the registered rules otherwise)."""
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(f"rule must be one of {list(REGISTRY)}, got {name!r}") from None


def names() -> list[str]:
    return list(REGISTRY)
