r"""Tasks: every fixture (per parameter) and every claim of every paper is one independent task.

A :class:`Task` names its paper, kind (``fixture``, ``claim``, ``stress`` — one point of an
assumption's stress path — or ``path``, which decides a stress path from its points and renders its
figure), name, parameter and the tasks it
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

from .. import papers
from ..assumptions import decide_path, path_figure
from ..context import RunContext
from ..figures import figure_stem, render_figure
from ..papers.api import run_claim

__all__ = ["Task", "TaskResult", "plan", "execute", "failed_path_record"]


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
    cached: bool = False             # read from the task cache (theorycheck.run.cache), not computed by this run


def _fixture_id(key: str, name: str, param=None) -> str:
    return f"{key}:fixture:{name}" + ("" if param is None else f"[{param}]")


def plan(paper_list, mode: str) -> list[Task]:
    """Tasks of ``paper_list`` in dependency order (fixtures first, then claims in seed order)."""
    ctx = RunContext(mode=mode)
    tasks: list[Task] = []
    for paper in paper_list:
        paper.validate()
        fx = paper.claims.fixtures
        ids: dict[str, list] = {}            # fixture name -> [(param (None if unparametrised), task id)]
        done: set = set()

        def dep_ids(spec, own=None):
            out = []
            for n in spec.needs:
                by_label = {str(q): i for q, i in ids[n]}
                qs = [q for q, _ in ids[n]]
                if own is not None:
                    qs = spec.selected(n, own, qs)
                out += [by_label[str(q)] for q in qs]
            return tuple(out)

        def add_fixture(name, stack=()):
            if name in done:
                return
            if name in stack:
                raise ValueError(f"paper {paper.key}: fixtures depend on each other in a cycle: {stack + (name,)}")
            spec = fx[name]
            for n in spec.needs:
                add_fixture(n, stack + (name,))
            ps = spec.param_list(ctx)
            if ps is None:
                t = Task(_fixture_id(paper.key, name), paper.key, "fixture", name, None, dep_ids(spec))
                tasks.append(t)
                ids[name] = [(None, t.id)]
            else:
                ids[name] = []
                for p in ps:
                    t = Task(_fixture_id(paper.key, name, p), paper.key, "fixture", name, p, dep_ids(spec, p))
                    tasks.append(t)
                    ids[name].append((p, t.id))
            done.add(name)

        for name in fx:
            add_fixture(name)
        for spec in paper.claims:
            deps = dep_ids(spec)
            tasks.append(Task(f"{paper.key}:claim:{spec.id}", paper.key, "claim", spec.id, None, deps))
        for st in paper.claims.stresses:
            pts = [Task(f"{paper.key}:stress:{st.key}[{v}]", paper.key, "stress", st.key, v, ()) for v in st.value_list(ctx)]
            tasks += pts
            tasks.append(Task(f"{paper.key}:path:{st.key}", paper.key, "path", st.key, None, tuple(t.id for t in pts)))
    return tasks


def _assumption_spec(paper, st):
    """The declared assumption that the stress path ``st`` stresses (None if undeclared)."""
    return next((a for a in paper.claims.assumptions if a.claim == st.claim and a.name == st.assumption), None)


def failed_path_record(paper, st, error: str) -> dict:
    """The JSON-ready record of the stress path ``st`` whose points or deciding task failed with ``error``
    (attached to its claim, so the failure is reported, never dropped)."""
    spec = _assumption_spec(paper, st)
    return {"name": st.assumption, "stated": bool(spec and spec.stated),
            "seed_lines": list(spec.lines) if spec and spec.lines else None,
            "uses": spec.uses if spec else "", "path": st.path, "error": error}


def _decide_path(paper, st, ctx, deps: dict):
    """The decided stress path ``st`` (a JSON-ready dict) and its figure, from its points' task results."""
    vals = st.value_list(ctx)
    rs = [deps[f"{paper.key}:stress:{st.key}[{v}]"] for v in vals]
    spec = _assumption_spec(paper, st)
    bad = [r for r in rs if r.error]
    if bad:
        return failed_path_record(paper, st, bad[0].error), []
    res = decide_path(st, spec, vals, [r.value for r in rs])
    made = path_figure(st.claim, res)
    if made is None:
        return res, []
    fig, cap = made
    stem = figure_stem("assume", f"{st.claim}_{st.assumption}")
    png, pdf = render_figure(fig)
    res["figure"] = {"stem": stem, "caption": cap}
    return res, [{"stem": stem, "caption": cap, "png": png, "pdf": pdf}]


def _peak_rss_mb() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return r / 1024.0 if sys.platform != "darwin" else r / 2 ** 20


def _inputs(paper, spec, param, dep_results: dict, ctx) -> dict:
    """Values of the fixtures that ``spec`` (a claim, or the fixture task of parameter ``param``) needs, from the
    results of the dependency tasks (a selected fixture: only the parameters ``spec`` selects)."""
    out = {}
    for n in spec.needs:
        ps = paper.claims.fixtures[n].param_list(ctx)
        if ps is not None and param is not None:
            ps = spec.selected(n, param, ps)
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
    _limit_threads()
    t0 = time.perf_counter()
    ctx = RunContext(mode=mode, seed=seed)
    res = TaskResult(task.id)
    try:
        paper = papers.load(task.paper)
        if task.kind == "path":
            st = next(x for x in paper.claims.stresses if x.key == task.name)
            res.value, ctx.figures = _decide_path(paper, st, ctx, deps or {})
        elif task.kind == "stress":
            st = next(x for x in paper.claims.stresses if x.key == task.name)
            sc = st.fn(ctx, task.param)
            if type(sc).__name__ != "SubClaim":
                raise TypeError(f"stress path {task.name} must return a SubClaim decided by a rule, got "
                                f"{type(sc).__name__}")
            res.value = sc
        elif task.kind == "fixture":
            spec = paper.claims.fixtures[task.name]
            kw = _inputs(paper, spec, task.param, deps or {}, ctx)
            val = spec.fn(ctx, task.param, **kw) if spec.params is not None else spec.fn(ctx, **kw)
            res.value = (task.param, val) if spec.params is not None else val
        else:
            spec = paper.claims.get(task.name)
            try:
                kw = _inputs(paper, spec, None, deps or {}, ctx)
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
        from threadpoolctl import threadpool_limits  # optional: a dependency, but a task must run without it
        threadpool_limits(1)
    except ImportError:  # pragma: no cover - threadpoolctl is a dependency
        pass
    _THREADS_LIMITED = True
