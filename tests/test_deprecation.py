"""Old import paths warn, name the new path and still import; nothing of theorycheck imports an old path."""
from __future__ import annotations

import ast
import importlib
import pkgutil
import sys
from pathlib import Path

import pytest

import theorycheck
from theorycheck.deprecation import OLD_PATHS


def _old_modules() -> list[str]:
    out = []
    for old in OLD_PATHS:
        mod = importlib.import_module(old)
        out.append(old)
        if hasattr(mod, "__path__"):
            out += [m.name for m in pkgutil.iter_modules(mod.__path__, old + ".")]
    return sorted(out)


@pytest.mark.parametrize("name", _old_modules())
def test_an_old_path_warns_and_names_the_new_one(name):
    for m in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        sys.modules.pop(m)
    with pytest.warns(DeprecationWarning, match=rf"{name.replace('.', '[.]')} is an old import path: import from "
                                                rf"theorycheck[.]") as rec:
        importlib.import_module(name)
    new = str([w for w in rec if str(w.message).startswith(name + " is")][0].message).split("import from ")[1]
    target = new.split(" ")[0].rstrip(",")
    if "<key>" not in target:
        importlib.import_module(target)                      # the path it names exists


def test_nothing_of_theorycheck_imports_an_old_path():
    root = Path(theorycheck.__file__).parent
    old = tuple(OLD_PATHS)
    bad = []
    for f in sorted(root.rglob("*.py")):
        name = ".".join(f.relative_to(root.parent).with_suffix("").parts).removesuffix(".__init__")
        if name.startswith(old) or name == "theorycheck.deprecation":
            continue
        pkg = name if f.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = pkg.split(".")[:len(pkg.split(".")) - (node.level - 1)]
                    base = ".".join(parts + ([node.module] if node.module else []))
                targets = [base] + [f"{base}.{a.name}" for a in node.names]
            bad += [f"{name}: {t}" for t in targets if t in old or t.startswith(tuple(o + "." for o in old))]
    assert not bad, bad


def test_the_old_derivation_scripts_warn(tmp_path):
    import subprocess
    script = Path(theorycheck.__file__).parent.parent / "derivations" / "gla_loss.py"
    if not script.is_file():
        pytest.skip("not a source checkout")
    text = script.read_text(encoding="utf-8")
    assert "DeprecationWarning" in text and "theorycheck derive --paper gla" in text
    out = subprocess.run([sys.executable, "-c", text.split('if __name__ == "__main__":')[0]], capture_output=True,
                         text=True, check=True)
    assert "derivations/gla_loss.py is an old entry point" in out.stderr
