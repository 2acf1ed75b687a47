"""Digests of sources: what a result, a report or a passed check was computed from (ground floor: no
theorycheck imports).

:func:`package_digest` hashes the source files (``.py``, ``.txt``, ``.json``) of a package by relative path — a
module that is not a package is hashed alone. :func:`paper_sources` gives, for one paper, the digest of
``theorycheck`` and of every package outside it that the paper's code lives in: its own package, its derivation
modules and its generated package (a plugin's claims, derivations, generated code and seed text). Any change of
one byte of any of them gives a new digest — the run stamp, ``report --check`` and the record of passed checks
(:mod:`theorycheck.run.passed`) all use these, so a record can never vouch for sources it did not see.

>>> len(package_digest("theorycheck.verdicts"))
64
>>> package_digest("theorycheck.claims") == package_digest("theorycheck.claims")
True
"""
from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

__all__ = ["SOURCE_SUFFIXES", "package_digest", "paper_sources", "root_packages"]

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
