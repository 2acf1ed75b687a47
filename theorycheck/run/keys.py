r"""Content keys of tasks: a SHA-256 of everything a task's result depends on (the key of the task cache).

A task's key covers

- the task: paper, kind, name, parameter (``repr``), the run's mode and seed;
- the source of its function (a claim, fixture or stress function, decorators included) — and of every other
  registered task function it uses, a name resolved through the imports to the ``(module, function)`` that defines
  it (:meth:`theorycheck.provenance.SourceGraph.resolve`; an import or re-export alone is not a use, and a theory
  function that shares a claim's bare name is not that claim);
- the static import closure (:class:`theorycheck.provenance.SourceGraph`) of the function's module and of the task
  executor (:mod:`theorycheck.run.tasks`), within theorycheck and the installed papers' packages: the full source
  of every module it imports, transitively, and the text of every parent package of those (the paper's
  ``__init__`` among them — but not the sibling rooms it imports: a claim's key holds what the claim's module
  imports, not the other sections, and a fixture's key holds no claim module), except the bodies of the
  *registered task functions* (claims, fixtures, stress paths of every installed paper) that no other code of the
  closure uses — so editing one claim's body changes that claim's key only, a helper of the claims
  (``claims/_helpers.py``) the keys of the claims that import it, while a theory module, an engine or a model
  changes the key of every task that imports it;
- the data files beside those modules and beside the paper's package (the seed text, ``revisions.json``;
  generated code is a module, hence in the closure);
- the versions of Python, NumPy, SciPy, SymPy, mpmath, matplotlib and statsmodels, the machine, the BLAS library
  in use (its kernels can change the last digits) and the ``THEORYCHECK_*`` settings that can change a number;
- the keys of the tasks it consumes (its fixtures, or a stress path's points).

When in doubt the key changes: a function whose source cannot be found gives no key (the task always runs).

>>> from theorycheck import papers
>>> from theorycheck.run.tasks import plan
>>> ts = plan([papers.load("nonlinear")], "quick")
>>> kb = KeyBuilder([papers.load("nonlinear")], "quick", 1)
>>> keys = kb.keys(ts)
>>> len(keys[ts[0].id]), keys[ts[0].id] == KeyBuilder([papers.load("nonlinear")], "quick", 1).keys(ts)[ts[0].id]
(64, True)
>>> keys[ts[0].id] != KeyBuilder([papers.load("nonlinear")], "quick", 2).keys(ts)[ts[0].id]
True
"""
from __future__ import annotations

import hashlib
import inspect
import json
import os
import platform
import sys
from importlib import metadata

from .. import papers
from ..provenance import SourceGraph, file_digest, root_packages

__all__ = ["KeyBuilder", "KEY_FORMAT", "environment"]

#: Version of the key recipe (a change of the recipe must never find entries made by another).
KEY_FORMAT = 3
#: The task executor: its closure is part of every key.
EXECUTOR = "theorycheck.run.tasks"
LIBRARIES = ("numpy", "scipy", "sympy", "mpmath", "matplotlib", "statsmodels")
#: THEORYCHECK_* variables that cannot change a number (everything else of that prefix is in the key).
NEUTRAL_ENV = ("THEORYCHECK_CACHE_DIR", "THEORYCHECK_CACHE_MAX_GB", "THEORYCHECK_PROGRESS",
               "THEORYCHECK_PROGRESS_INTERVAL")


def environment() -> dict:
    """What outside the sources can change a result: interpreter, libraries, machine, BLAS, settings."""
    libs = {}
    for name in LIBRARIES:
        try:
            libs[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            libs[name] = None
    try:
        from threadpoolctl import threadpool_info  # optional: a dependency, but the key must not need it
        blas = sorted((i.get("internal_api"), i.get("version"), i.get("architecture")) for i in threadpool_info()
                      if i.get("user_api") == "blas")
    except ImportError:  # pragma: no cover
        blas = None
    return {"python": sys.version, "implementation": sys.implementation.name, "machine": platform.machine(),
            "system": platform.system(), "libraries": libs, "blas": blas,
            "env": {k: v for k, v in sorted(os.environ.items()) if k.startswith("THEORYCHECK_") and k not in NEUTRAL_ENV}}


def _task_function(paper, task):
    """The function a task runs (a stress path's points and its deciding task share the stress function)."""
    if task.kind == "fixture":
        return paper.claims.fixtures[task.name].fn
    if task.kind == "claim":
        return paper.claims.get(task.name).fn
    return next(st.fn for st in paper.claims.stresses if st.key == task.name)


def _registered(paper_list) -> list:
    """Every registered task function of the papers (unwrapped)."""
    fns = []
    for p in paper_list:
        fns += [s.fn for s in p.claims.specs] + [f.fn for f in p.claims.fixtures.values()]
        fns += [st.fn for st in p.claims.stresses]
    return [inspect.unwrap(f) for f in fns]


def _where(fn) -> tuple | None:
    """``(module, name, first line)`` of a task function (None: no source to point at)."""
    code = getattr(fn, "__code__", None)
    mod = getattr(fn, "__module__", None)
    return (mod, fn.__name__, code.co_firstlineno) if code is not None and mod else None


class KeyBuilder:
    """Keys of the tasks of one run (mode, seed). Reads every source once; make one per run.

    ``paper_list``: the papers whose tasks are keyed; the registered task functions of *every* installed paper
    are recognised (a plugin may import another paper's module). ``store``: where the analyses of module texts
    are kept (:class:`~theorycheck.provenance.SourceGraph`)."""

    def __init__(self, paper_list, mode: str, seed: int, store=None):
        self.mode, self.seed = mode, seed
        self.papers = {p.key: p for p in paper_list}
        everyone = list({**papers.registry(), **self.papers}.values())
        roots = {"theorycheck"} | {r for p in everyone for r in root_packages(p)}
        roots |= {p.package.split(".")[0] for p in everyone if p.package}
        self.graph = SourceGraph(sorted(roots), store)
        self.env = environment()
        self._where = {w for w in map(_where, _registered(everyone)) if w is not None}
        self._kept: set | None = None
        self._closures: dict = {}
        self._docs: dict = {}

    # ------------------------------------------------------------------ the registered functions
    def _spans(self, module: str) -> list:
        """The registered task functions defined at the top of ``module`` (their spans)."""
        return [f for f in self.graph.functions(module) if (module, f.name, f.first) in self._where]

    def _kept_names(self, modules) -> set:
        """The registered functions, as ``(module, name)``, that code outside the registered functions uses (kept in
        the module texts), closed under use: everything else is cut out of the texts."""
        spans = {(m, s.name): s for m in modules for s in self._spans(m)}
        refs = set()
        for m in modules:
            refs |= self.graph.refs_outside(m, {s.name for s in self._spans(m)})
        kept: set = set()
        todo = [q for q in refs if q in spans]
        while todo:
            q = todo.pop()
            if q not in kept:
                kept.add(q)
                todo += [r for r in spans[q].refs if r in spans and r not in kept]
        return kept

    # ------------------------------------------------------------------ digests
    def _closure_digest(self, modules: tuple) -> str:
        if modules not in self._closures:
            names = self.graph.closure(modules, parents="text")
            h = hashlib.sha256()
            for m in names:
                cut = [(s.first, s.last) for s in self._spans(m) if (m, s.name) not in self._kept]
                h.update(f"module {m}\0".encode())
                h.update(self.graph.text(m, cut).encode())
                h.update(b"\0")
            for f in self.graph.data_files(names):
                h.update(f"data {f.parent.name}/{f.name}\0{file_digest(f)}\0".encode())
            self._closures[modules] = h.hexdigest()
        return self._closures[modules]

    def _package_data(self, paper) -> str | None:
        """The digest of the data files beside the paper's package ``__init__`` (its seed text, its revisions)."""
        if not paper.package or self.graph.file(paper.package) is None:
            return None
        if paper.package not in self._closures:
            h = hashlib.sha256()
            for f in self.graph.data_files([paper.package]):
                h.update(f"data {f.name}\0{file_digest(f)}\0".encode())
            self._closures[paper.package] = h.hexdigest()
        return self._closures[paper.package]

    def _function_doc(self, fn) -> dict | None:
        """Where ``fn`` is and its source, with every registered function it mentions (None: no source)."""
        fn = inspect.unwrap(fn)
        w = _where(fn)
        if w is None or self.graph.file(w[0]) is None or w[2] > len(self.graph.text(w[0]).splitlines()):
            return None
        lines = self.graph.text(w[0]).splitlines()
        around = [s for s in self.graph.functions(w[0]) if s.first <= w[2] <= s.last]
        own = around[0] if around else None
        if own is None:                          # defined by other top-level code: the module text has it
            return {"module": w[0], "name": w[1], "source": None, "mentions": {}}
        doc = {"module": w[0], "name": w[1], "source": lines[own.first - 1:own.last]}    # or the function around it
        others = {(m, s.name): s for m in self.graph.closure([w[0]], parents="text") for s in self._spans(m)
                  if (m, s.name) not in self._kept and (m, s.first) != (w[0], own.first)}
        extra: dict = {}
        todo = [q for q in own.refs if q in others]
        while todo:
            q = todo.pop()
            if q in extra:
                continue
            s = others[q]
            extra[q] = {"module": q[0], "source": self.graph.text(q[0]).splitlines()[s.first - 1:s.last]}
            todo += [r for r in s.refs if r in others and r not in extra]
        doc["mentions"] = {f"{m}:{n}": v for (m, n), v in sorted(extra.items())}
        return doc

    def keys(self, tasks) -> dict:
        """``{task id: key or None}`` for ``tasks`` (in dependency order); None: the task cannot be keyed (it and
        every task consuming it always run)."""
        if self._kept is None:
            own = [w[0] for w in map(_where, _registered(self.papers.values())) if w is not None]
            universe = self.graph.closure([EXECUTOR] + [p.package for p in self.papers.values() if p.package] + own)
            self._kept = self._kept_names(universe)
        out: dict = {}
        for t in tasks:
            out[t.id] = self._key(t, out)
        return out

    def _key(self, task, known: dict) -> str | None:
        paper = self.papers[task.paper]
        deps = [known.get(d) for d in task.deps]
        f = inspect.unwrap(_task_function(paper, task))
        w = _where(f) or f
        if w not in self._docs:
            self._docs[w] = self._function_doc(f)
        fn = self._docs[w]
        if fn is None or any(d is None for d in deps):
            return None
        mods = tuple(sorted({EXECUTOR, fn["module"]}))
        seed_file = None
        if not paper.package and os.path.isfile(str(paper.seed)):
            seed_file = file_digest(paper.seed)
        doc = {"format": KEY_FORMAT, "task": task.id, "paper": task.paper, "kind": task.kind, "name": task.name,
               "param": repr(task.param), "mode": self.mode, "seed": self.seed, "function": fn,
               "closure": self._closure_digest(mods), "paper_data": self._package_data(paper), "seed_file": seed_file,
               "environment": self.env, "deps": deps}
        return hashlib.sha256(json.dumps(doc, sort_keys=True, default=repr).encode()).hexdigest()
