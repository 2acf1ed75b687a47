"""The architecture is checked, not remembered.

- the import contract of ``setup.cfg`` (import-linter: layers, papers only through the registry, papers
  independent of each other);
- no private name (``_x``) is imported from another module of theorycheck;
- imports inside functions only for optional or heavy third-party dependencies, each with a comment saying why
  (``# optional: …`` / ``# heavy: …`` / ``# lazy: …``) — never a module of theorycheck;
- no module outside ``generated/`` over 600 lines, no function over 80 lines.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

import theorycheck

PKG = Path(theorycheck.__file__).resolve().parent
REPO = PKG.parent
SOURCES = sorted(p for p in PKG.rglob("*.py") if "generated" not in p.relative_to(PKG).parts)
MAX_MODULE_LINES, MAX_FUNCTION_LINES = 600, 80
WHY = ("# optional:", "# heavy:", "# lazy:")


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _resolve(path: Path, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` names (relative imports resolved)."""
    if not node.level:
        return node.module or ""
    base = _module_name(path).split(".")
    if path.name != "__init__.py":
        base = base[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _is_ours(name: str) -> bool:
    return name == "theorycheck" or name.startswith("theorycheck.")


@pytest.mark.skipif(not (REPO / "setup.cfg").exists(), reason="needs the source tree (setup.cfg holds the contract)")
def test_import_contract(capsys):
    pytest.importorskip("importlinter")
    from importlinter.cli import lint_imports
    code = lint_imports(config_filename=str(REPO / "setup.cfg"), no_cache=True, no_logo=True)
    out = capsys.readouterr().out
    assert code == 0, "import contract broken (lint-imports --config setup.cfg):\n" + out[-6000:]


def _walk_functions(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node


def test_no_private_name_is_imported_from_another_module():
    bad = []
    for p in SOURCES:
        tree = ast.parse(p.read_text(encoding="utf-8"))
        here = _module_name(p)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                mod = _resolve(p, node)
                if not _is_ours(mod) or mod == here:
                    continue
                for a in node.names:
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        bad.append(f"{p.relative_to(REPO)}:{node.lineno}: {a.name} from {mod}")
    assert not bad, f"{len(bad)} private names imported across modules:\n" + "\n".join(bad)


def test_imports_inside_functions_only_for_optional_or_heavy_dependencies():
    bad = []
    for p in SOURCES:
        text = p.read_text(encoding="utf-8")
        lines = text.splitlines()
        tree = ast.parse(text)
        for fn in _walk_functions(tree):
            for node in ast.walk(fn):
                if not isinstance(node, (ast.Import, ast.ImportFrom)):
                    continue
                names = [_resolve(p, node)] if isinstance(node, ast.ImportFrom) else [a.name for a in node.names]
                where = f"{p.relative_to(REPO)}:{node.lineno}"
                if any(_is_ours(n) for n in names):
                    bad.append(f"{where}: imports {names[0]} inside {fn.name}()")
                elif not any(w in lines[node.lineno - 1] for w in WHY):
                    bad.append(f"{where}: imports {names[0]} inside {fn.name}() without a '# optional:/heavy:/lazy:' "
                               "comment saying why")
    assert not bad, f"{len(bad)} imports inside functions:\n" + "\n".join(bad)


def test_module_and_function_sizes():
    bad = []
    for p in SOURCES:
        text = p.read_text(encoding="utf-8")
        n = len(text.splitlines())
        if n > MAX_MODULE_LINES:
            bad.append(f"{p.relative_to(REPO)}: {n} lines (at most {MAX_MODULE_LINES})")
        for fn in _walk_functions(ast.parse(text)):
            length = fn.end_lineno - fn.lineno + 1
            if length > MAX_FUNCTION_LINES:
                bad.append(f"{p.relative_to(REPO)}:{fn.lineno}: {fn.name}() has {length} lines "
                           f"(at most {MAX_FUNCTION_LINES})")
    assert not bad, f"{len(bad)} too long:\n" + "\n".join(bad)


def test_one_memo_facility():
    """Memos only through theorycheck.memo (registered, bounded, keyed by value): no functools caches, no module-level
    dicts named like caches."""
    bad = []
    for p in SOURCES:
        text = p.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Attribute) and node.attr in ("lru_cache", "cache") and \
                    getattr(node.value, "id", "") == "functools":
                bad.append(f"{p.relative_to(REPO)}:{node.lineno}: functools.{node.attr}")
            if isinstance(node, ast.ImportFrom) and node.module == "functools" and \
                    any(a.name in ("lru_cache", "cache") for a in node.names):
                bad.append(f"{p.relative_to(REPO)}:{node.lineno}: from functools import a cache")
    assert not bad, "\n".join(bad)


#: Stores that look like a memo (a function reads a key and stores under it) but are not one, each with why; keyed by
#: (module, container). Everything else that looks like a memo must be a theorycheck.memo.Memo, whatever its name.
NOT_MEMOS = {
    ("theorycheck.memo", "_REGISTRY"): "the memo facility itself",
    ("theorycheck.report.texcheck", "self._verdicts"): "FormulaCheck holds the compile verdicts of one report run "
                                                       "(made per render)",
    **{("theorycheck.gaussian.diagrams", f"self.{c}"): "the dynamic-programming tables of one engine evaluation "
       "(an object per expectation, shared only by the products of one call)"
       for c in ("_lt", "_qt", "_chain", "_cyc", "_kappa", "_m")},
    ("theorycheck.papers.api", "self.fixtures"): "a registry's duplicate-name check",
    ("theorycheck.verdicts.rules.registry", "REGISTRY"): "a registry's duplicate-name check",
    **{("theorycheck.provenance", f"self.{c}"): "SourceGraph reads the sources of one run (made per run)"
       for c in ("_files", "_texts", "_info", "_functions", "_deps")},
    **{("theorycheck.run.keys", f"self.{c}"): "KeyBuilder keys the tasks of one run (made per run)"
       for c in ("_closures", "_docs")},
}
_MUTABLE_CALLS = {"dict", "list", "set", "OrderedDict", "defaultdict", "local", "WeakValueDictionary",
                  "WeakKeyDictionary", "deque", "Counter"}


def _container(node):
    """``"NAME"`` or ``"self.attr"`` for the container of a subscript / method call, else None."""
    node = node.value if isinstance(node, ast.Subscript) else node
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
        return f"self.{node.attr}"
    return None


def _lookup_and_store(fn) -> set:
    """The containers that function ``fn`` both looks a key up in (``in``, ``.get``, ``[k]``) and stores under a key
    (``c[k] = v``, ``.setdefault``): what a memo does."""
    stores, reads = set(), set()
    for n in ast.walk(fn):
        if isinstance(n, (ast.Assign, ast.AugAssign)):
            stores |= {c for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                       if isinstance(t, ast.Subscript) and (c := _container(t))}
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("get", "setdefault"):
            c = _container(n.func.value)
            if c:
                reads.add(c)
                stores |= {c} if n.func.attr == "setdefault" else set()
        elif isinstance(n, ast.Compare) and any(isinstance(o, (ast.In, ast.NotIn)) for o in n.ops):
            reads |= {c for x in n.comparators if (c := _container(x))}
        elif isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load):
            reads |= {c for c in [_container(n)] if c}
    return stores & reads


def _is_mutable(v) -> bool:
    if isinstance(v, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    f = getattr(v, "func", None)
    return isinstance(v, ast.Call) and (f.attr if isinstance(f, ast.Attribute) else getattr(f, "id", "")) in _MUTABLE_CALLS


def test_no_cache_outside_the_memo_facility():
    """Any module-level or instance-level mutable store that a function reads a key from and stores under — what a
    memo does, whatever its name — is a theorycheck.memo.Memo (bounded, keyed by value, emptied by clear_all), or is
    declared in NOT_MEMOS with why; a module-level threading.local() holds no memo either."""
    bad, seen = [], set()
    for p in SOURCES:
        tree = ast.parse(p.read_text(encoding="utf-8"))
        mod = _module_name(p).removesuffix(".__init__")
        module_level = {t.id for st in tree.body if isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None
                        and _is_mutable(st.value)
                        for t in (st.targets if isinstance(st, ast.Assign) else [st.target]) if isinstance(t, ast.Name)}
        for st in tree.body:
            if isinstance(st, ast.Assign) and isinstance(st.value, ast.Call) and \
                    getattr(st.value.func, "attr", getattr(st.value.func, "id", "")) == "local" and mod != "theorycheck.memo":
                bad.append(f"{p.relative_to(REPO)}:{st.lineno}: a module-level threading.local() (use Memo(per_thread=True))")
        for fn in _walk_functions(tree):
            for c in _lookup_and_store(fn):
                if c.startswith("self.") or c in module_level:
                    seen.add((mod, c))
                    if (mod, c) not in NOT_MEMOS:
                        bad.append(f"{p.relative_to(REPO)}:{fn.lineno}: {fn.name}() keeps a memo in {c} outside "
                                   "theorycheck.memo")
    assert not bad, "\n".join(bad)
    stale = sorted(set(NOT_MEMOS) - seen)
    assert not stale, f"NOT_MEMOS names stores that no longer exist: {stale}"
