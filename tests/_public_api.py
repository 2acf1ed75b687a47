"""The public API of theorycheck as a list of ``module:name`` lines (``tests/public_api.txt``).

A module's public names are its ``__all__`` when it has one; otherwise every name without a leading underscore
that the module defines itself (functions and classes whose ``__module__`` is the module) or binds to a plain
value (numbers, strings, tuples, lists, dicts, SymPy symbols) — not the modules and names it imports.

    python tests/_public_api.py          # print the current list
    python tests/_public_api.py --write  # add the current names to tests/public_api.txt (never removes one)

A paper's public surface is its ``PAPER`` (``theorycheck.papers.<key>:PAPER``): the modules inside a paper package
are its internals, free to move, and are not listed. The old import paths (``theorycheck.gla``, …,
:data:`theorycheck.deprecation.OLD_PATHS`) keep their names, with a deprecation warning.

``tests/test_public_api.py`` imports every listed name: a name that was public stays importable (from its old
module, by a re-export, when the code moves).
"""
from __future__ import annotations

import importlib
import inspect
import pkgutil
import sys
import types
from pathlib import Path

SNAPSHOT = Path(__file__).with_name("public_api.txt")
_PLAIN = (int, float, complex, str, bytes, tuple, list, dict, frozenset, set)


def _public(mod: types.ModuleType) -> list[str]:
    if hasattr(mod, "__all__"):
        return sorted(set(mod.__all__))
    out = []
    for name, obj in vars(mod).items():
        if name.startswith("_") or isinstance(obj, types.ModuleType):
            continue
        if inspect.isfunction(obj) or inspect.isclass(obj):
            if getattr(obj, "__module__", None) == mod.__name__:
                out.append(name)
        elif isinstance(obj, _PLAIN) or type(obj).__module__.startswith("sympy"):
            out.append(name)
    return sorted(out)


def modules() -> list[str]:
    import theorycheck
    names = ["theorycheck"] + [m.name for m in pkgutil.walk_packages(theorycheck.__path__, "theorycheck.")]
    return sorted(n for n in names if not n.endswith("__main__"))


def paper_packages() -> list[str]:
    """The packages of the built-in papers (``theorycheck.papers.<key>``)."""
    from theorycheck import papers
    return sorted(p.package for p in papers.registry().values() if (p.package or "").startswith("theorycheck.papers."))


def public_api() -> list[str]:
    import warnings
    lines, internal = [], paper_packages()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)       # the old paths are listed on purpose
        for m in modules():
            if any(m.startswith(p + ".") for p in internal):
                continue
            if m in internal:
                lines.append(f"{m}:PAPER")
                continue
            mod = importlib.import_module(m)
            lines += [f"{m}:{n}" for n in _public(mod)]
    return lines


def main(argv) -> int:
    cur = public_api()
    if "--write" in argv:
        old = SNAPSHOT.read_text(encoding="utf-8").split() if SNAPSHOT.exists() else []
        SNAPSHOT.write_text("\n".join(sorted(set(old) | set(cur))) + "\n", encoding="utf-8")
        print(f"{SNAPSHOT}: {len(set(old) | set(cur))} names ({len(set(cur) - set(old))} new)")
    else:
        print("\n".join(cur))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
