r"""Tasks: every fixture (per parameter) and every claim of every paper is one independent task.

A :class:`Task` names its paper, kind (``fixture`` or ``claim``), name, parameter and the tasks it
depends on. :func:`plan` lists the tasks of some papers in dependency order; :func:`execute`
runs one task anywhere — in this process, a worker process or a Dask worker — from the run's mode
and seed alone: its random streams come from ``RunContext.seed_for`` of the run seed and its own
names, never from execution order, so results are identical for any number of workers.

>>> from theorycheck import papers
>>> ts = plan([papers.load("nonlinear")], "quick")
>>> ts[0].kind in ("fixture", "claim"), all(t.paper == "nonlinear" for t in ts)
(True, True)
"""
from __future__ import annotations

import os
import resource
import sys
import time
import traceback
from dataclasses import dataclass, field
from typing import Any

from ..context import RunContext

__all__ = ["Task", "TaskResult", "plan", "execute"]


@dataclass(frozen=True)
class Task:
    id: str
    paper: str
    kind: str
    name: str
    param: Any = None
    deps: tuple = ()


@dataclass
class TaskResult:
    task: str
    value: Any = None                # fixture value, or the Claim of a claim task
    figures: list = field(default_factory=list)
    wall_s: float = 0.0
    peak_rss_mb: float = 0.0
    error: str | None = None


def _fixture_id(key: str, name: str, param=None) -> str:
    return f"{key}:fixture:{name}" + ("" if param is None else f"[{param}]")


def plan(paper_list, mode: str) -> list[Task]:
    """Tasks of ``paper_list`` in dependency order (fixtures first, then claims in seed order)."""
    ctx = RunContext(mode=mode)
    tasks: list[Task] = []
    for paper in paper_list:
        paper.validate()
        fx = paper.claims.fixtures
        ids: dict[str, list[str]] = {}
        done: set = set()

        def add_fixture(name, stack=()):
            if name in done:
                return
            if name in stack:
                raise ValueError(f"paper {paper.key}: fixtures depend on each other in a cycle: {stack + (name,)}")
            spec = fx[name]
            for n in spec.needs:
                add_fixture(n, stack + (name,))
            deps = tuple(i for n in spec.needs for i in ids[n])
            ps = spec.param_list(ctx)
            if ps is None:
                t = Task(_fixture_id(paper.key, name), paper.key, "fixture", name, None, deps)
                tasks.append(t)
                ids[name] = [t.id]
            else:
                ids[name] = []
                for p in ps:
                    t = Task(_fixture_id(paper.key, name, p), paper.key, "fixture", name, p, deps)
                    tasks.append(t)
                    ids[name].append(t.id)
            done.add(name)

        for name in fx:
            add_fixture(name)
        for spec in paper.claims:
            deps = tuple(i for n in spec.needs for i in ids[n])
            tasks.append(Task(f"{paper.key}:claim:{spec.id}", paper.key, "claim", spec.id, None, deps))
        for st in paper.claims.stresses:
            for v in st.value_list(ctx):
                tasks.append(Task(f"{paper.key}:stress:{st.key}[{v}]", paper.key, "stress", st.key, v, ()))
    return tasks


def _peak_rss_mb() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r / 1024.0 if sys.platform != "darwin" else r / 2 ** 20


def _inputs(paper, needs, dep_results: dict, ctx) -> dict:
    """Values of the fixtures ``needs`` from the results of the dependency tasks."""
    out = {}
    for n in needs:
        spec = paper.claims.fixtures[n]
        ps = spec.param_list(ctx)
        ids = [_fixture_id(paper.key, n)] if ps is None else [_fixture_id(paper.key, n, p) for p in ps]
        missing = [i for i in ids if i not in dep_results]
        if missing:
            raise RuntimeError(f"fixture task(s) {missing} did not run")
        bad = [i for i in ids if dep_results[i].error]
        if bad:
            raise RuntimeError(f"fixture task(s) {bad} failed:\n" + dep_results[bad[0]].error)
        if ps is None:
            out[n] = dep_results[ids[0]].value
        else:
            out[n] = {p: dep_results[i].value[1] for p, i in zip(ps, ids)}
    return out


def execute(task: Task, mode: str, seed: int, deps: dict | None = None) -> TaskResult:
    """Run one task; ``deps`` maps dependency task ids to their :class:`TaskResult`."""
    from .. import papers
    from ..papers.api import run_claim
    _limit_threads()
    t0 = time.perf_counter()
    ctx = RunContext(mode=mode, seed=seed)
    res = TaskResult(task.id)
    try:
        paper = papers.load(task.paper)
        if task.kind == "stress":
            st = next(x for x in paper.claims.stresses if x.key == task.name)
            sc = st.fn(ctx, task.param)
            if type(sc).__name__ != "SubClaim":
                raise TypeError(f"stress path {task.name} must return a SubClaim decided by a rule, got "
                                f"{type(sc).__name__}")
            res.value = sc
        elif task.kind == "fixture":
            spec = paper.claims.fixtures[task.name]
            kw = _inputs(paper, spec.needs, deps or {}, ctx)
            val = spec.fn(ctx, task.param, **kw) if spec.params is not None else spec.fn(ctx, **kw)
            res.value = (task.param, val) if spec.params is not None else val
        else:
            spec = paper.claims.get(task.name)
            try:
                kw = _inputs(paper, spec.needs, deps or {}, ctx)
            except Exception:
                claim = paper.new_claim(spec)
                claim.error = traceback.format_exc()
                res.value = claim
            else:
                res.value = run_claim(paper, spec, ctx, kw)
        res.figures = ctx.figures
    except Exception:
        res.error = traceback.format_exc()
    res.wall_s = time.perf_counter() - t0
    res.peak_rss_mb = _peak_rss_mb()
    return res


_THREADS_LIMITED = False


def _limit_threads() -> None:
    """One BLAS/OpenMP thread in every process that runs tasks (byte-identical numbers), also when
    NumPy was imported before theorycheck could set the environment (e.g. on a Dask worker)."""
    global _THREADS_LIMITED
    if _THREADS_LIMITED or os.environ.get("THEORYCHECK_BLAS_THREADS") == "any":
        return
    try:
        from threadpoolctl import threadpool_limits
        threadpool_limits(1)
    except ImportError:  # pragma: no cover - threadpoolctl is a dependency
        pass
    _THREADS_LIMITED = True
