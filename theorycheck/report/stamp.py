"""Provenance of a report folder (``STAMP.json``): what produced each paper's reports.

For each paper: the command, mode, seed, run sizes, the task time of its claims and fixtures
(summed CPU-side wall times) and the real wall time of the command that produced it, and the
SHA-256 digests of the sources that produced it (the theorycheck package — engines, models,
derivations, generated code — and the paper's own package). The git commit is recorded for
information with a ``dirty`` flag that ignores the report folder itself; the digests are the
provenance. Everything else in the report folder is a deterministic function of the code and the
seed; ``STAMP.json`` is the one file that records times.

>>> len(package_digest("theorycheck.verdicts"))
64
"""
from __future__ import annotations

import json
import platform
import subprocess
from pathlib import Path

import mpmath
import numpy
import scipy

from .. import __version__
from ..claims import clean_evidence
from ..provenance import package_digest  # noqa: F401  (moved to theorycheck.provenance; re-exported)

__all__ = ["package_digest", "versions", "git_state", "write_stamp"]


def versions() -> dict:
    import matplotlib  # heavy: matplotlib's version only when a stamp is written
    import sympy  # heavy: SymPy's version only when a stamp is written
    return {"theorycheck": __version__, "python": platform.python_version(), "numpy": numpy.__version__,
            "scipy": scipy.__version__, "sympy": sympy.__version__, "mpmath": mpmath.__version__,
            "matplotlib": matplotlib.__version__, "platform": platform.platform()}


def git_state(report_dir: Path | None = None) -> dict:
    """``{"commit", "dirty"}`` of the checkout holding the package (dirty ignores ``report_dir``)."""
    root = Path(__file__).resolve().parents[2]
    try:
        r = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
        if r.returncode != 0:
            return {"commit": None, "dirty": None}
        st = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                            capture_output=True, text=True, timeout=10).stdout.splitlines()
        skip = None
        if report_dir is not None:
            try:
                skip = str(Path(report_dir).resolve().relative_to(root.resolve()))
            except ValueError:
                skip = None
        dirty = [ln for ln in st if not (skip and ln[3:].startswith(skip + "/"))]
        return {"commit": r.stdout.strip(), "dirty": bool(dirty)}
    except (OSError, subprocess.SubprocessError):
        return {"commit": None, "dirty": None}


def write_stamp(out: Path, papers: dict, command: str, wall_s: float, extra: dict | None = None) -> Path:
    """Update ``out/STAMP.json``: replace the entries of ``papers`` ({key: {...}}), keep the others."""
    path = Path(out) / "STAMP.json"
    old = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    entries = old.get("papers", {})
    for k, v in papers.items():
        entries[k] = dict(v, command=command, command_wall_s=round(wall_s, 2))
    stamp = {"papers": dict(sorted(entries.items())), "versions": versions(), "git": git_state(out),
             "last_command": {"command": command, "wall_s": round(wall_s, 2), **(extra or {})},
             "note": ("Each paper's entry records the command that produced its reports, the real wall time of that "
                      "command, the summed wall time of its tasks, and the SHA-256 digests of the sources. The git "
                      "commit is informative (dirty ignores the report folder); the digests are the provenance.")}
    path.write_text(json.dumps(clean_evidence(stamp), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return path
