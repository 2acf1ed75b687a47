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
        for node in ast.parse(text).body:
            if isinstance(node, (ast.Assign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                value = node.value
                if any("CACHE" in getattr(t, "id", "").upper() for t in targets) and isinstance(value, ast.Dict):
                    bad.append(f"{p.relative_to(REPO)}:{node.lineno}: a module-level memo dict")
    assert not bad, "\n".join(bad)
