r"""The one shape of a paper package — built in or written by ``theorycheck new-paper`` — and its check.

::

    <package>/__init__.py     PAPER (the paper's public surface; nothing else is public)
      settings.py             CONVENTIONS, Params (stated, convention, chosen), sizes
      registry.py             claims = Claims(): the registry every room below registers into
      theory/<area>.py        the mathematics: public f validates, private _f trusts
      claims/__init__.py      SECTIONS = [setup, theorems, …]: the seed order, explicit; no re-exports
      claims/<section>.py     claims only (shared helpers in claims/_helpers.py, more private claims/_*.py if needed)
      fixtures.py             shared computations (tasks)
      assumptions.py          assumption maps and stress paths
      reconciliation.py       searches over the parameters the source leaves open
      seedmap.py              every sentence no claim quotes: restates a claim, or not a claim and why
      checks/mutants.py       MUTANTS: realistic mistakes (they wrap the real functions)
      checks/fuzz.py          BASELINES and MODULES of the reliability fuzzing
      derivations/ generated/ SymPy derivations and the code they generate
      tests/                  the paper's own tests (test_*.py)
      revisions.json          the audit history by claim id: data, rendered in the report
      <seed>.txt              the seed summary, verbatim

Inside a paper, imports go downwards only: ``checks`` and ``seedmap``/``assumptions`` may import ``claims``;
``claims`` imports ``fixtures``, ``reconciliation``, ``theory``, ``settings``, ``registry``; nothing below
``claims`` imports it. :func:`problems` lists every way an installed paper departs from this shape (the test
``tests/test_skeleton.py`` requires none, for every installed paper and for a freshly scaffolded one).

>>> from theorycheck import papers
>>> problems(papers.load("gla"))
[]
"""
from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

__all__ = ["FILES", "PACKAGES", "problems"]

#: Files every paper package has (besides its seed text, named by ``Paper.seed``).
FILES = ("__init__.py", "settings.py", "registry.py", "fixtures.py", "assumptions.py", "reconciliation.py",
         "seedmap.py", "revisions.json")
#: Sub-packages every paper package has, with the modules each must hold.
PACKAGES = {"theory": (), "claims": (), "checks": ("mutants.py", "fuzz.py"), "derivations": (), "generated": (),
            "tests": ()}
_IGNORED = {"__pycache__"}


def _folder(package: str) -> Path:
    mod = importlib.import_module(package)
    return Path(mod.__file__).parent


def problems(paper) -> list[str]:
    """Every departure of ``paper``'s package from the skeleton (an empty list: it has the shape)."""
    if not paper.package:
        return [f"paper {paper.key}: no package (a paper is a package of the skeleton's shape)"]
    pkg, root = paper.package, _folder(paper.package)
    out = [f"missing {name}" for name in FILES if not (root / name).is_file()]
    for sub, inner in PACKAGES.items():
        if not (root / sub / "__init__.py").is_file():
            out.append(f"missing package {sub}/")
            continue
        out += [f"missing {sub}/{f}" for f in inner if not (root / sub / f).is_file()]
    allowed = set(FILES) | set(PACKAGES) | {Path(str(paper.seed)).name} | _IGNORED
    out += [f"{p.name}: not a room of the skeleton" for p in sorted(root.iterdir())
            if p.name not in allowed and not p.name.startswith(".")]
    if not (root / "tests").is_dir() or not any((root / "tests").glob("test_*.py")):
        out.append("tests/ holds no test_*.py")
    out += _paper_problems(paper, pkg)
    if (root / "claims" / "__init__.py").is_file():
        out += _claims_problems(paper, pkg, root / "claims")
    return [f"{paper.key}: {p}" for p in out]


def _paper_problems(paper, pkg: str) -> list[str]:
    out = []
    if paper.mutants != f"{pkg}.checks.mutants":
        out.append(f"PAPER.mutants is {paper.mutants!r}, not {pkg}.checks.mutants")
    if paper.fuzz != f"{pkg}.checks.fuzz":
        out.append(f"PAPER.fuzz is {paper.fuzz!r}, not {pkg}.checks.fuzz")
    if paper.generated_package != f"{pkg}.generated":
        out.append(f"PAPER.generated_package is {paper.generated_package!r}, not {pkg}.generated")
    out += [f"derivation {d} is not in {pkg}.derivations" for d in paper.derivations
            if not d.startswith(f"{pkg}.derivations.")]
    try:
        settings = importlib.import_module(f"{pkg}.settings")
    except ImportError as exc:
        return out + [f"settings does not import: {exc}"]
    if not hasattr(settings, "CONVENTIONS"):
        out.append("settings.py defines no CONVENTIONS")
    registry = importlib.import_module(f"{pkg}.registry") if (_folder(pkg) / "registry.py").is_file() else None
    if registry is not None and getattr(registry, "claims", None) is not paper.claims:
        out.append("registry.claims is not PAPER.claims")
    return out


def _claims_problems(paper, pkg: str, folder: Path) -> list[str]:
    claims = importlib.import_module(f"{pkg}.claims")
    sections = getattr(claims, "SECTIONS", None)
    if not isinstance(sections, (list, tuple)) or not sections:
        return ["claims/__init__.py defines no SECTIONS (the claim modules, in seed order)"]
    names = [getattr(m, "__name__", None) for m in sections]
    out = []
    if tuple(names) != tuple(getattr(m, "__name__", m) for m in paper.sections):
        out.append("PAPER.sections is not claims.SECTIONS")
    files = {p.stem for p in folder.glob("*.py") if p.stem != "__init__" and not p.stem.startswith("_")}
    listed = {n.rsplit(".", 1)[-1] for n in names if n and n.startswith(f"{pkg}.claims.")}
    out += [f"claims/{f}.py is not in SECTIONS (a public claims module is a section)" for f in sorted(files - listed)]
    out += [f"SECTIONS names {n}, not a module of {pkg}.claims" for n in names
            if not n or not n.startswith(f"{pkg}.claims.")]
    out += _init_problems(folder / "__init__.py")
    registered = {(inspect.unwrap(s.fn).__module__, inspect.unwrap(s.fn).__name__) for s in paper.claims.specs}
    for m in sections:
        for name, obj in vars(m).items():
            if inspect.isfunction(obj) and obj.__module__ == m.__name__ and not name.startswith("_") \
                    and (m.__name__, name) not in registered:
                out.append(f"{m.__name__}.{name} is a public function but not a claim (helpers go to "
                           "claims/_helpers.py)")
    return out


def _init_problems(init: Path) -> list[str]:
    """``claims/__init__.py`` imports its sections and lists them; it re-exports nothing."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    out = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module != "__future__" \
                and (node.level != 1 or node.module is not None):
            out.append(f"claims/__init__.py: 'from {'.' * node.level}{node.module or ''} import …' re-exports; "
                       "it may only import its own section modules (from . import a, b)")
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out.append(f"claims/__init__.py defines {node.name}: it lists the sections only")
    return out
