"""Baselines of the verdict engine and the reconciliation search."""
import numpy as np

from . import Baseline
from ..verdicts.estimate import Estimate

_E = Estimate(1.0, 0.1, 50, 49)


def _model(p, seed):
    return {"y": p["a"]}


BASELINES = [
    Baseline("theorycheck.verdicts.rules.identity", dict(statement="s", lhs=1.0, rhs=1.0)),
    Baseline("theorycheck.verdicts.rules.inequality", dict(statement="s", lhs=[0.5], op="<", rhs=1.0, undecided="too short")),
    Baseline("theorycheck.verdicts.rules.search", dict(statement="s", found=1, tried=3)),
    Baseline("theorycheck.verdicts.rules.agreement", dict(statement="s", estimate=_E, exact=1.0, margin=0.1)),
    Baseline("theorycheck.verdicts.rules.equivalence", dict(statement="s", estimate=_E, target=1.0, margin=0.1)),
    Baseline("theorycheck.verdicts.rules.reproduction", dict(statement="s", estimate=_E, stated="1.0")),
    Baseline("theorycheck.verdicts.rules.superiority", dict(statement="s", difference=_E, margin=0.0)),
    Baseline("theorycheck.verdicts.rules.difference", dict(statement="s", estimate=_E, target=0.0, margin=0.1)),
    Baseline("theorycheck.verdicts.rules.joint_agreement",
             dict(statement="s", means=[1.0, 2.0], exact=[1.0, 2.0], ses=[0.1, 0.1], margin=0.1)),
    Baseline("theorycheck.verdicts.rules.asymptotic",
             dict(statement="s", sizes=[8, 16, 32, 64], means=[1.1, 1.05, 1.03, 1.01], ses=[0.01] * 4, limit=1.0,
                  margin=0.05)),
    Baseline("theorycheck.verdicts.rules.shape", dict(statement="s", x=[0, 1, 2], y=[1.0, 0.5, 0.8],
                                                       shape="unimodal-minimum")),
    Baseline("theorycheck.verdicts.rules.consistency", dict(statement="s", a=1.0, b=1.0)),
    Baseline("theorycheck.verdicts.rules.underspecified", dict(statement="s", missing=["x"])),
    Baseline("theorycheck.verdicts.rules.printed_tolerance", dict(stated="0.264")),
    Baseline("theorycheck.verdicts.rules.bootstrap_df",   # inf: documented (quantile at most the normal one)
             dict(sizes=[8, 16, 32, 64], ses=[0.02] * 4, dfs=[5] * 4, exponents=(1.0,), replicates=400), allow_inf=True),
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
