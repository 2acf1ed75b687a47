"""Baselines of the verdict engine and the reconciliation search."""
import numpy as np

from ..papers.api import Baseline
from ..verdicts.estimate import Estimate
from ..verdicts.rules import registry

_E = Estimate(1.0, 0.1, 50, 49)


def _model(p, seed):
    return {"y": p["a"]}


def _rule_baselines() -> list:
    """Every registered rule's fuzz baselines (declared in the rule's own module, ``Rule.fuzz``)."""
    out = []
    for rule in registry.REGISTRY.values():
        for spec in rule.fuzz:
            spec = dict(spec)
            fn = spec.pop("fn", rule.function.__name__)
            out.append(Baseline(f"{rule.module}.{fn}", **spec))
    return out


BASELINES = _rule_baselines() + [
    Baseline("theorycheck.verdicts.selfcheck.agreement", dict(name="n", estimate=_E, exact=1.0)),
    Baseline("theorycheck.verdicts.selfcheck.identity", dict(name="n", lhs=1.0, rhs=1.0)),
    Baseline("theorycheck.verdicts.selfcheck.inequality", dict(name="n", lhs=[0.5], op="<", rhs=1.0)),
    Baseline("theorycheck.verdicts.selfcheck.components", dict(name="n", means=[1.0], exact=[1.0], ses=[0.1])),
    Baseline("theorycheck.verdicts.estimate.Estimate", dict(mean=1.0, se=0.1, n=10, df=9)),
    Baseline("theorycheck.verdicts.estimate.as_estimate", dict(x=1.0)),
    Baseline("theorycheck.verdicts.estimate.joint_test",
             dict(means=[1.01, 2.99], exact=[1.0, 3.0], cov=None, ses=[0.01, 0.02], df=10)),
    Baseline("theorycheck.reconcile.Parameter", dict(name="a", low=0.0, high=1.0)),
    Baseline("theorycheck.reconcile.Target", dict(name="y", stated="0.5")),
    Baseline("theorycheck.reconcile.reconcile",
             factory=lambda: dict(model=_model, free=[__import__("theorycheck.reconcile", fromlist=["x"]).Parameter(
                 "a", 0.0, 1.0)], targets=[__import__("theorycheck.reconcile", fromlist=["x"]).Target("y", "0.5")],
                 budget=20, seed=0)),
]
assert np is not None
