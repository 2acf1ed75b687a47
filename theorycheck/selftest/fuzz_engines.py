"""Baselines of the engines (Gaussian, Hermite, Monte Carlo, codegen, validation, seeds).

:func:`~theorycheck.codegen.write_module` writes a file and :func:`~theorycheck.codegen.output_root` is a context
manager, :class:`~theorycheck.montecarlo.RunningMean` takes its data through ``update``: their baselines
(:class:`_Around`) call them through a small wrapper — ``write_module`` only ever inside
``output_root(<fresh temporary directory>)``, never into the package.
"""
import functools
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np
import sympy as sp

from ..codegen import generated_dir, output_root
from ..models.icl import ICLLayer
from ..papers.api import Baseline

_G = sp.Symbol("g", real=True)


def _sampler(rng, size):
    return rng.standard_normal(size)


@dataclass
class _Around(Baseline):
    """A baseline called as ``around(<the public function>, **kwargs)``; ``fn`` still names the public function (it
    counts as covered, the report lists it under its name)."""

    around: Callable | None = None

    def target(self):
        return functools.partial(self.around, super().target())


def _in_temporary_root(write_module, **kw):
    """``write_module(**kw)`` inside ``output_root(<fresh temporary directory>)``: nothing lands in the package."""
    with tempfile.TemporaryDirectory(prefix="theorycheck-reliability-") as d, output_root(d):
        path = Path(write_module(**kw)).resolve()
        if not path.is_relative_to(Path(d).resolve()):   # AssertionError: classified "exception", never hidden
            raise AssertionError(f"write_module wrote outside the temporary output root: {path}")
        return str(path.relative_to(Path(d).resolve()))


def _entered(output_root, **kw):
    """Enter ``output_root(**kw)`` (its body runs on entry) and return where generated modules would go; writes
    nothing."""
    with output_root(**kw):
        return str(generated_dir())


def _streamed(RunningMean, samples):
    """A fresh ``RunningMean`` fed a fixed batch, then ``samples`` (the batch merge), and its estimate."""
    rm = RunningMean()
    rm.update(np.array([1.0, 2.0]))
    rm.update(samples)
    return rm.estimate()


def _icl_training() -> dict:
    """A tiny full-batch training of the LDS-parameterised layer (the docstring example of ``train_icl``)."""
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((20, 4, 2))
    Z[:, -1, -1] = 0.0
    y = rng.standard_normal(20)
    return dict(layer=ICLLayer.lds(), data=(Z, y), W_KQ=0.1 * np.eye(2), W_V=0.1 * np.eye(2), steps=3, lr=0.1,
                batch=None, support=None, seed=0)


BASELINES = [
    Baseline("theorycheck.gaussian.matchings.pairings", dict(n=4)),
    Baseline("theorycheck.gaussian.isserlis.moment", dict(cov=np.eye(2), idx=[0, 1, 1, 0])),
    Baseline("theorycheck.gaussian.expectations.expect_product", dict(cov=np.eye(2), linear=[np.ones(2)], quadratic=[np.eye(2)])),
    Baseline("theorycheck.gaussian.expectations.expect_products", dict(cov=np.eye(2), products=[([np.ones(2)], [np.eye(2)])])),
    Baseline("theorycheck.gaussian.expectations.expect_polynomial", dict(cov=np.eye(2), terms=[(2.0, [np.ones(2)] * 2, []), (1.0, [], [np.eye(2)])])),
    Baseline("theorycheck.gaussian.forms.quadratic_form_matrix", dict(pairs=[(0, 1)], n=2)),
    Baseline("theorycheck.gaussian.sampling.sample", factory=lambda: dict(cov=np.eye(2), size=5, rng=np.random.default_rng(0))),
    Baseline("theorycheck.hermite.hermite_h", dict(m=3, x=0.5), allow_inf=True),  # h_m(±inf) = (±1)^m inf
    Baseline("theorycheck.hermite.hermite_coefficients", dict(f=sp.sin(_G), m_max=2, dps=20)),
    Baseline("theorycheck.hermite.gaussian_expectation", dict(f=sp.cos(_G), dps=20)),
    Baseline("theorycheck.hermite.stein_check", dict(f=sp.tanh(_G), dps=20)),
    Baseline("theorycheck.hermite.find_kinks", dict(expr=sp.Abs(_G - 1))),
    Baseline("theorycheck.hermite.as_function", dict(f=sp.sin(_G), dps=20)),
    Baseline("theorycheck.montecarlo.mean", dict(sampler=_sampler, n=10, seed=0, batch=5, progress=False)),
    Baseline("theorycheck.montecarlo.ratio", factory=lambda: dict(num=np.arange(1.0, 6.0), den=np.arange(2.0, 7.0))),
    Baseline("theorycheck.montecarlo.compare", factory=lambda: dict(exact=1.0, estimate=__import__(
        "theorycheck.montecarlo", fromlist=["x"]).MeanEstimate(1.0, 0.1, 10)), skip=()),
    Baseline("theorycheck.montecarlo.rngs", dict(seed=0, count=2)),
    Baseline("theorycheck.montecarlo.from_samples", factory=lambda: dict(samples=np.arange(5.0))),
    Baseline("theorycheck.montecarlo.Progress", dict(total=3, label="x")),
    _Around("theorycheck.montecarlo.RunningMean", dict(samples=np.arange(5.0)), around=_streamed),
    Baseline("theorycheck.codegen.numpy_function", dict(expr=_G ** 2, args=[_G])),
    Baseline("theorycheck.codegen.module_source", dict(functions={"f": ([_G], _G ** 2)}, script="s")),
    Baseline("theorycheck.codegen.source_hash", dict(functions={"f": ([_G], _G ** 2)})),
    Baseline("theorycheck.codegen.generated_dir", dict(package="theorycheck.generated")),
    _Around("theorycheck.codegen.write_module", dict(module="m", functions={"f": ([_G], _G ** 2)}, script="s",
                                                     package="theorycheck.generated"), around=_in_temporary_root),
    _Around("theorycheck.codegen.output_root", factory=lambda: dict(root=str(Path(tempfile.gettempdir()) /
                                                                             "theorycheck-reliability")),
            around=_entered),
    Baseline("theorycheck.validate.check_int", dict(name="n", value=3, minimum=0, maximum=10), skip=("name",), aliases={"value": "n"}),
    Baseline("theorycheck.validate.check_real", dict(name="x", value=0.5, low=0.0, high=1.0), skip=("name",), aliases={"value": "x"}),
    Baseline("theorycheck.validate.check_array", dict(name="data", value=[1.0, 2.0], ndim=1, finite=True, min_size=1,
                                                      shape=(2,)), skip=("name",), aliases={"value": "data"}),
    Baseline("theorycheck.validate.check_str", dict(name="label", value="a", nonempty=True), skip=("name",),
             aliases={"value": "label"}),
    Baseline("theorycheck.validate.check_comparison", dict(lhs=[0.5, 0.7], op="<", rhs=1.0)),
    Baseline("theorycheck.validate.check_psd", dict(name="A", mat=np.eye(2)), skip=("name",), aliases={"mat": "A"}),
    Baseline("theorycheck.validate.check_choice", dict(name="c", value="a", choices=("a", "b")), skip=("name",), aliases={"value": "c"}),
    Baseline("theorycheck.validate.check_bool", dict(name="b", value=True), skip=("name",), aliases={"value": "b"}),
    Baseline("theorycheck.validate.check_callable", dict(name="f", value=len), skip=("name",), aliases={"value": "f"}),
    Baseline("theorycheck.validate.check_memory", dict(name="n", value=3, n_bytes=24.0), skip=("name", "value")),
    Baseline("theorycheck.validate.check_finite_result", dict(value=1.0, what="x"), skip=("what",),
             aliases={"value": "not finite"}),
    Baseline("theorycheck.validate.memory_budget_bytes", dict()),
    Baseline("theorycheck.seeds.seed_text", dict(paper="004")),
    Baseline("theorycheck.seeds.seed_lines", dict(paper="004", start=1, end=2)),
    Baseline("theorycheck.seeds.paper_id", dict(paper="004")),
    Baseline("theorycheck.models.icl.train_icl", factory=_icl_training, skip=("layer", "data", "support")),
    Baseline("theorycheck.models.icl.check_support", dict(support=(np.eye(2, dtype=bool), np.eye(2, dtype=bool)), D=2)),
    Baseline("theorycheck.models.samplers.regression_tokens", dict(X=np.ones((1, 2, 1)), Y=np.array([[2.0, 5.0]]))),
    Baseline("theorycheck.models.samplers.series_tokens", dict(Y=np.arange(1.0, 6.0), s=1)),
]
