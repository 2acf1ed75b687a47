"""A content-addressed record of checks that passed, so that an unchanged check is not repeated.

A run compares the shipped generated code with what the SymPy derivations produce (``derive --check``,
≈ 10 s of CPU). That comparison is a deterministic function of its inputs: the package's sources (the
derivations, the engines they call, the shipped generated code — :func:`theorycheck.provenance.package_digest`),
the papers it covers **and the sources of each of them** — a plugin's claims, derivations and generated code
(:func:`theorycheck.provenance.paper_sources`, used by :func:`derive_check_key`) — and the versions of Python,
NumPy, SymPy and mpmath. :func:`check_key` hashes all of them;
when a check passed under a key (:func:`record_pass`), the same key later finds the record
(:func:`passed_before`) and the run says so instead of repeating it. Any change of any input — one byte of a
source file, a library upgrade — gives a new key, and the check runs again. Only passes are recorded: a failing
check always runs. ``theorycheck derive --check`` itself never consults the record, and ``theorycheck run
--recheck`` ignores it.

Records are small JSON files in ``$THEORYCHECK_CACHE_DIR``, else ``$XDG_CACHE_HOME/theorycheck``, else
``~/.cache/theorycheck`` (folder ``passed/``). A folder that cannot be created or written only means that checks
run every time.

>>> k = check_key("demo", papers=["gla"])
>>> len(k), k == check_key("demo", papers=["gla"]), k == check_key("demo", papers=["lds"])
(64, True, False)
"""
from __future__ import annotations

import datetime as _dt
import hashlib
import json
import os
import platform
from pathlib import Path

import mpmath
import numpy
import sympy

from .. import papers, provenance
from ..validate import check_str

__all__ = ["cache_dir", "check_key", "derive_check_key", "passed_before", "record_pass"]


def cache_dir() -> Path:
    """The user cache folder of theorycheck (see the module docstring)."""
    env = os.environ.get("THEORYCHECK_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "theorycheck"


def check_key(name: str, *, source_sha256: str | None = None, **inputs) -> str:
    """SHA-256 of the check ``name``, its ``inputs`` (JSON-serialisable), the package sources and the library versions.

    ``source_sha256``: :func:`theorycheck.provenance.package_digest` of ``theorycheck`` when the caller has it
    already (computed here otherwise)."""
    digest = provenance.package_digest("theorycheck") if source_sha256 is None else check_str("source_sha256", source_sha256)
    doc = {"check": check_str("name", name), "inputs": inputs, "theorycheck": digest,
           "python": platform.python_version(), "numpy": numpy.__version__, "sympy": sympy.__version__,
           "mpmath": mpmath.__version__}
    try:
        text = json.dumps(doc, sort_keys=True)
    except TypeError:
        raise ValueError(f"the inputs of check {name!r} must be JSON-serialisable, got {inputs!r}") from None
    return hashlib.sha256(text.encode()).hexdigest()


def derive_check_key(keys, *, source_sha256: str | None = None) -> str:
    """The key of the derivation check of the papers ``keys``: :func:`check_key` of their keys **and of the
    digests of every paper's own sources** (:func:`theorycheck.provenance.paper_sources`), so a hand-edited
    generated file of a plugin — outside theorycheck's package — gives a new key and the check runs again."""
    sha = provenance.package_digest("theorycheck") if source_sha256 is None else source_sha256
    ks = sorted(keys)
    sources = {k: provenance.paper_sources(papers.load(k), sha) for k in ks}
    return check_key("derive --check", source_sha256=sha, papers=ks, paper_sources=sources)


def _path(key: str) -> Path:
    if not (isinstance(key, str) and len(key) == 64 and all(c in "0123456789abcdef" for c in key)):
        raise ValueError(f"key must be a SHA-256 hex digest from check_key, got {key!r}")
    return cache_dir() / "passed" / f"{key}.json"


def passed_before(key: str) -> dict | None:
    """The record of a pass under ``key`` (``{"check", "when", ...}``), or None."""
    p = _path(key)
    try:
        rec = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return rec if isinstance(rec, dict) and rec.get("key") == key else None


def record_pass(key: str, name: str, **info) -> bool:
    """Record that the check ``name`` passed under ``key``; False if the cache folder is not writable."""
    p = _path(key)
    rec = {"key": key, "check": name, "when": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
           **info}
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(rec, sort_keys=True), encoding="utf-8")
        tmp.replace(p)                       # atomic: a concurrent reader sees the old file or the new one
    except OSError:
        return False
    return True
