"""Digests of sources: what a result, a report or a passed check was computed from (ground floor: no
theorycheck imports).

:func:`package_digest` hashes the source files (``.py``, ``.txt``, ``.json``) of a package by relative path — a
module that is not a package is hashed alone. :func:`paper_sources` gives, for one paper, the digest of
``theorycheck`` and of every package outside it that the paper's code lives in: its own package, its derivation
modules and its generated package (a plugin's claims, derivations, generated code and seed text). Any change of
one byte of any of them gives a new digest — the run stamp, ``report --check`` and the record of passed checks
(:mod:`theorycheck.run.passed`) all use these, so a record can never vouch for sources it did not see.

:class:`SourceGraph` is the finer digest the task cache (:mod:`theorycheck.run.cache`) needs: the *static import
closure* of a module within some root packages, read from the AST of every module (imports inside functions
included, ``importlib.import_module("literal")`` and attribute access on an imported package such as
``theorycheck.gla.x`` too; a module's parent packages are part of it, since importing a module runs them), the
text of each module with chosen top-level functions cut out (:meth:`SourceGraph.text`), and the data files that
sit beside the modules (seed texts, JSON). Nothing is imported to find a module: names are mapped to files under
the root packages' folders.

>>> len(package_digest("theorycheck.verdicts"))
64
>>> package_digest("theorycheck.claims") == package_digest("theorycheck.claims")
True
"""
from __future__ import annotations

import ast
import hashlib
import importlib.util
import json
import os
from pathlib import Path

__all__ = ["SOURCE_SUFFIXES", "package_digest", "paper_sources", "root_packages", "SourceGraph", "FunctionSpan",
           "file_digest", "analyse_module", "ANALYSIS_VERSION"]

SOURCE_SUFFIXES = (".py", ".txt", ".json")


def _files(package: str) -> tuple[Path, list[Path]]:
    spec = importlib.util.find_spec(package)
    if spec is None:
        raise ValueError(f"package must be an importable module or package, got {package!r}")
    if spec.submodule_search_locations:                   # a package: every source file under it
        root = Path(list(spec.submodule_search_locations)[0])
        return root, [p for p in sorted(root.rglob("*")) if p.is_file() and p.suffix in SOURCE_SUFFIXES
                      and "__pycache__" not in p.parts]
    if not spec.origin or not Path(spec.origin).is_file():
        raise ValueError(f"module {package!r} has no source file to digest")
    f = Path(spec.origin)                                 # a single module: that file only
    return f.parent, [f]


def package_digest(package: str) -> str:
    """SHA-256 over the source files (``.py``, ``.txt``, ``.json``) of ``package``, by relative path."""
    root, files = _files(package)
    h = hashlib.sha256()
    for p in files:
        h.update(str(p.relative_to(root)).encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")
    return h.hexdigest()


def root_packages(paper) -> list[str]:
    """The top-level packages outside ``theorycheck`` that hold ``paper``'s code: its package, its derivation
    modules, its generated package and its mutants (empty for a built-in paper)."""
    names = [paper.package, *getattr(paper, "derivations", ()), getattr(paper, "generated_package", None),
             getattr(paper, "mutants", None)]
    roots = []
    for m in names:
        if not m:
            continue
        top = m.split(".")[0]
        if top != "theorycheck" and top not in roots:
            roots.append(top)
    return sorted(roots)


def paper_sources(paper, theorycheck_sha256: str | None = None) -> dict:
    """``{"theorycheck": digest, <root package>: digest, ...}`` for ``paper`` (see :func:`root_packages`);
    ``theorycheck_sha256``: the package digest of theorycheck when the caller has it already."""
    out = {"theorycheck": theorycheck_sha256 or package_digest("theorycheck")}
    for r in root_packages(paper):
        out[r] = package_digest(r)
    return out


def file_digest(path) -> str:
    """SHA-256 of the bytes of the file ``path``."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


class FunctionSpan:
    """A top-level function of a module: ``name``, its first line (the first decorator's, as
    ``code.co_firstlineno`` counts it) and last line (1-based, inclusive), and ``refs``: what its decorators and
    body use, each resolved through the imports to the ``(module, name)`` that defines it (see
    :meth:`SourceGraph.functions`)."""

    def __init__(self, name: str, first: int, last: int, refs: frozenset):
        self.name, self.first, self.last, self.refs = name, first, last, refs

    def __repr__(self):
        return f"FunctionSpan({self.name!r}, {self.first}, {self.last})"


#: Version of :func:`analyse_module`'s output (a stored analysis of another version is never used).
ANALYSIS_VERSION = 3


def analyse_module(text: str, name: str, is_package: bool = False) -> dict:
    """What the source ``text`` of module ``name`` imports, defines and uses (JSON-ready; a pure function of its
    arguments, so it may be stored by the digest of the text).

    ``aliases``: ``{bound name: dotted name}`` of every import (anywhere); ``imports``: the dotted names imported
    (relative imports resolved, ``from p import x`` gives ``p.x`` (``p`` only for ``*``), ``importlib.import_module`` and
    ``__import__`` of a string literal) and attribute chains on a bound name (``theorycheck.gla.f`` after
    ``import theorycheck``, written with the alias); ``defs``: the names the module's top level binds other than by
    an import (functions, classes, assignments); ``functions``: ``[name, first line, last line, uses]`` of every
    top-level function; ``rest``: the uses of every other top-level statement except the imports themselves — an
    import binds a name, only a use of that name mentions what it names. Uses are ``[bare names, attribute chains
    on a bare name]``.

    >>> a = analyse_module("import os\\nfrom .x import y\\n@d\\ndef f():\\n    return y(os.sep)\\n", "p.m")
    >>> a["imports"], a["functions"][0][:3], a["functions"][0][3], a["rest"]
    (['os', 'os.sep', 'p.x.y'], ['f', 3, 5], [['d', 'os', 'y'], [['os', 'sep']]], [[], []])
    """
    tree = ast.parse(text)
    package = name if is_package else name.rpartition(".")[0]
    out = {"version": ANALYSIS_VERSION, "aliases": {}, "imports": set(), "chains": set(), "defs": set(),
           "functions": [], "rest": [set(), set()]}
    for stmt in tree.body:
        uses = [set(), set()]
        for node in ast.walk(stmt):
            _note(node, package, out, uses)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            first = min([d.lineno for d in stmt.decorator_list] + [stmt.lineno])
            out["functions"].append([stmt.name, first, stmt.end_lineno, uses])
            out["defs"].add(stmt.name)
            continue
        out["defs"] |= _bound(stmt)
        if not isinstance(stmt, (ast.Import, ast.ImportFrom)):
            for a, b in zip(out["rest"], uses):
                a |= b
    out["imports"] = sorted(out["imports"] | {".".join([out["aliases"].get(c[0], c[0]), *c[1:]])
                                              for c in out["chains"] if c[0] in out["aliases"]})
    del out["chains"]
    out["defs"] = sorted(out["defs"])
    out["functions"] = [[n, f, e, _plain(u)] for n, f, e, u in out["functions"]]
    out["rest"] = _plain(out["rest"])
    return out


def _bound(stmt) -> set:
    """Names a top-level statement binds other than by an import (a class, the targets of an assignment)."""
    if isinstance(stmt, ast.ClassDef):
        return {stmt.name}
    targets = stmt.targets if isinstance(stmt, ast.Assign) else \
        [stmt.target] if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)) else []
    return {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}


def _plain(uses) -> list:
    return [sorted(uses[0]), sorted(list(x) for x in uses[1])]


def _note(node, package: str, out: dict, uses: list) -> None:
    """Record what one syntax node imports or uses (see :func:`analyse_module`)."""
    if isinstance(node, ast.Name):
        uses[0].add(node.id)
    elif isinstance(node, ast.Import):
        for a in node.names:
            out["imports"].add(a.name)
            out["aliases"][a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
    elif isinstance(node, ast.ImportFrom):
        base = _from_base(package, node)
        if base:
            # ``from p import x`` imports ``p.x`` — a submodule, or an attribute of ``p`` (then ``p`` is its
            # deepest module); ``p`` itself only for ``*``. ``p`` runs too, as the parent of what is named: the
            # closures add parents by their own rule, so a from-import of a submodule does not count as a use
            # of the package's ``__init__``'s own imports
            for a in node.names:
                if a.name == "*":
                    out["imports"].add(base)
                else:
                    out["imports"].add(f"{base}.{a.name}")
                    out["aliases"][a.asname or a.name] = f"{base}.{a.name}"
    elif isinstance(node, ast.Attribute):
        chain = _attribute_chain(node)
        if chain:
            out["chains"].add(tuple(chain))
            uses[1].add(tuple(chain))
    elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str) and _callee(node.func) in ("import_module", "__import__"):
        out["imports"].add(node.args[0].value)


def _from_base(package: str, node: ast.ImportFrom) -> str | None:
    if not node.level:
        return node.module
    base = package.split(".") if package else []
    if node.level - 1 > len(base) - 1:
        return None
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _callee(func) -> str:
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _attribute_chain(node) -> list[str] | None:
    """``["a", "b", "c"]`` for the expression ``a.b.c`` (None when it does not start with a name)."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return [node.id, *reversed(parts)]


class SourceGraph:
    """Modules of the root packages ``roots`` (top-level names, e.g. ``["theorycheck", "my_paper"]``) as files,
    texts and analyses (:func:`analyse_module`), read once per instance — make one per run: files may change
    between runs. ``store``: a folder where analyses are kept by the digest of their module's text (parsing is
    most of the cost; a folder that cannot be written only means that modules are parsed every time).

    >>> g = SourceGraph(["theorycheck"])
    >>> "theorycheck.validate" in g.closure(["theorycheck.context"])
    True
    >>> g.closure(["theorycheck.validate"])[:2]
    ['theorycheck', 'theorycheck.validate']
    """

    def __init__(self, roots, store=None):
        self._roots: dict[str, Path] = {}
        for r in roots:
            spec = importlib.util.find_spec(r)          # a top-level name: nothing is imported
            if spec is not None and spec.origin and spec.origin not in ("built-in", "frozen"):
                self._roots[r] = Path(spec.origin)
        self._store = Path(store) if store is not None else None
        self._files: dict[str, Path | None] = {}
        self._texts: dict[str, str] = {}
        self._info: dict[str, dict] = {}
        self._deps: dict[str, frozenset] = {}
        self._functions: dict[str, list] = {}

    @property
    def roots(self) -> list[str]:
        return sorted(self._roots)

    def file(self, name: str) -> Path | None:
        """The source file of module ``name`` (``None``: not a module of the roots, or no ``.py`` source)."""
        if name not in self._files:
            self._files[name] = self._find(name)
        return self._files[name]

    def _find(self, name: str) -> Path | None:
        top, *rest = name.split(".")
        origin = self._roots.get(top)
        if origin is None:
            return None
        if origin.name != "__init__.py":                  # a root that is a single module
            return origin if not rest and origin.suffix == ".py" else None
        base = origin.parent.joinpath(*rest)
        for f in (base / "__init__.py", base.with_name(base.name + ".py") if rest else None):
            if f is not None and f.is_file():
                return f
        return None

    def is_package(self, name: str) -> bool:
        f = self.file(name)
        return f is not None and f.name == "__init__.py"

    def text(self, name: str, cut=()) -> str:
        """The source of module ``name`` without the line ranges ``cut`` (``(first, last)``, 1-based)."""
        if name not in self._texts:
            self._texts[name] = self.file(name).read_text(encoding="utf-8")
        text = self._texts[name]
        if not cut:
            return text
        lines = text.splitlines(keepends=True)
        drop = {i for first, last in cut for i in range(first - 1, last)}
        return "".join(ln for i, ln in enumerate(lines) if i not in drop)

    def analysis(self, name: str) -> dict:
        """:func:`analyse_module` of module ``name`` (from the store when its text was analysed before)."""
        if name not in self._info:
            text = self.text(name)
            digest = hashlib.sha256(f"{ANALYSIS_VERSION}\0{name}\0{self.is_package(name)}\0{text}".encode()).hexdigest()
            path = self._store / digest[:2] / f"{digest}.json" if self._store is not None else None
            info = _read_json(path)
            if info is None or info.get("version") != ANALYSIS_VERSION:
                info = analyse_module(text, name, self.is_package(name))
                _write_json(path, info)
            self._info[name] = info
        return self._info[name]

    def functions(self, name: str) -> list[FunctionSpan]:
        """The top-level functions of module ``name``, each with what it uses, resolved through the imports
        (:meth:`resolve`): ``(module, name)`` pairs of the definitions it names."""
        if name not in self._functions:
            self._functions[name] = [FunctionSpan(n, f, e, frozenset(self._resolve(name, u)))
                                     for n, f, e, u in self.analysis(name)["functions"]]
        return self._functions[name]

    def refs_outside(self, name: str, cut_names=()) -> set[tuple]:
        """What module ``name`` uses outside its top-level functions ``cut_names`` (imports themselves are not
        uses), as ``(module, name)`` pairs (:meth:`resolve`)."""
        out = self._resolve(name, self.analysis(name)["rest"])
        for f in self.functions(name):
            if f.name not in cut_names:
                out |= f.refs
        return out

    def resolve(self, module: str, name: str) -> tuple | None:
        """Where the name ``name``, as used in ``module``, is defined: ``(defining module, name)`` — an imported name
        is followed through its import and through every re-export (``from .a import f`` in a package that
        re-exports it) to the module that binds it; ``None`` for a module.

        >>> g = SourceGraph(["theorycheck"])
        >>> g.resolve("theorycheck.papers", "Paper")
        ('theorycheck.papers.api', 'Paper')
        """
        aliases = self.analysis(module)["aliases"] if self.file(module) is not None else {}
        if name in aliases:
            target = aliases[name]
            if self.file(target) is not None or target.split(".")[0] not in self._roots:
                return None                              # a module, or a name from outside the roots
            base, _, attr = target.rpartition(".")
            return self.definition(base, attr)
        return (module, name)

    def definition(self, module: str, name: str, depth: int = 0) -> tuple | None:
        """Where ``module.name`` is bound: ``module`` itself when it defines ``name``, else the module its import of
        ``name`` comes from (followed); ``None`` when ``module.name`` is a module."""
        if self.file(f"{module}.{name}") is not None:
            return None
        if self.file(module) is None or depth > 20:
            return (module, name)
        info = self.analysis(module)
        if name in info["defs"] or name not in info["aliases"]:
            return (module, name)
        target = info["aliases"][name]
        if self.file(target) is not None:
            return None
        base, _, attr = target.rpartition(".")
        return self.definition(base, attr, depth + 1)

    def _resolve(self, module: str, uses) -> set[tuple]:
        names, chains = uses
        out = {r for n in names if (r := self.resolve(module, n)) is not None}
        aliases = self.analysis(module)["aliases"]
        for chain in chains:
            head, *rest = chain
            mod = aliases.get(head)
            if mod is None or self.file(mod) is None:
                continue
            for part in rest:
                if self.file(f"{mod}.{part}") is not None:
                    mod = f"{mod}.{part}"
                    continue
                r = self.definition(mod, part)
                if r is not None:
                    out.add(r)
                break
        return out

    def imports(self, name: str, parents: bool = True) -> frozenset:
        """Modules of the roots that module ``name`` imports (anywhere in it) — with their parent packages, or with
        ``parents=False`` only the module each import names (the deepest module of its dotted name)."""
        key = (name, parents)
        if key not in self._deps:
            found = set()
            for cand in self.analysis(name)["imports"]:
                parts = cand.split(".")
                if parts[0] not in self._roots:
                    continue
                subs = [".".join(parts[:i]) for i in range(1, len(parts) + 1)]
                subs = [m for m in subs if self.file(m) is not None]
                found |= set(subs if parents else subs[-1:])
            found.discard(name)
            self._deps[key] = frozenset(found)
        return self._deps[key]

    def closure(self, names, parents: str = "follow") -> list[str]:
        """Sorted names of ``names`` (those with a source file), their parent packages and every module they
        import, transitively. ``parents="follow"``: a parent package's own imports are followed too (importing a
        module runs its parents: the whole closure of what runs); ``parents="text"``: parent packages are in the
        closure by their own text only — what a module *uses* is what it imports, not what its package's
        ``__init__`` imports beside it (the task keys: a claim module's key does not hold its sibling rooms).

        >>> g = SourceGraph(["theorycheck"])
        >>> "theorycheck.papers.gla.claims.forgetting" in g.closure(["theorycheck.papers.gla.fixtures"], parents="text")
        False
        """
        if parents not in ("follow", "text"):
            raise ValueError(f"parents must be 'follow' or 'text', got {parents!r}")
        follow = parents == "follow"
        todo = [n for n in names if self.file(n) is not None]
        if follow:
            todo = sorted(set(todo) | {p for n in todo for p in self._parents(n)})
        # what is reached through imports is followed; parents reached only as parents add their text. Plain
        # reachability, so the result does not depend on the order of the traversal (task keys hash it)
        reached = set(todo)
        while todo:
            for d in self.imports(todo.pop(), parents=follow):
                if d not in reached:
                    reached.add(d)
                    todo.append(d)
        return sorted(reached | {p for n in reached for p in self._parents(n)})

    def data_files(self, modules) -> list[Path]:
        """Files other than Python sources in the folders of ``modules`` (seed texts, JSON, …; not recursive)."""
        folders = sorted({self.file(m).parent for m in modules if self.file(m) is not None})
        out = []
        for d in folders:
            out += [f for f in sorted(d.iterdir()) if f.is_file() and f.suffix not in (".py", ".pyc", ".pyo")
                    and not f.name.startswith(".")]
        return out

    def _parents(self, name: str) -> list[str]:
        parts = name.split(".")
        return [".".join(parts[:i]) for i in range(1, len(parts)) if self.file(".".join(parts[:i])) is not None]


def _read_json(path) -> dict | None:
    if path is None:
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _write_json(path, doc: dict) -> None:
    """Write ``doc`` to ``path`` atomically (nothing when ``path`` is None or cannot be written)."""
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(doc), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass
