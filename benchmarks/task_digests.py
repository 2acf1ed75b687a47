"""Hash every task's output of a run, in one process, to prove that a refactor computes the same numbers.

    python benchmarks/task_digests.py [--mode quick] [--paper KEY ...] [--out FILE] [--compare BASELINE]

Every task of the plan (fixtures, claims, stress points and paths) is executed in dependency order in this
process (BLAS single-threaded, as in a run) and its output is reduced to a SHA-256 digest of a *canonical*
serialisation:

- a NumPy array: dtype, shape and raw bytes; a float: its ``float.hex``; an int/str/bool/None: itself;
- a dataclass or any object with ``__dict__``: its class **name** (not its module: a class that moves to
  another module keeps its digest) and its fields, sorted by name — a dataclass field at its declared default is
  left out (a field added to a class, and not set, leaves every existing output's digest unchanged);
- a dict: its items (keys canonicalised, order kept — dict order is part of a deterministic output);
- a SymPy object: ``srepr``; a figure: the PNG and PDF bytes and the caption.

A moved function or class therefore keeps its digest; a changed number, array, order or figure does not.
``--compare`` prints every task whose digest differs from (or is missing in) the baseline JSON and exits 1 if
any does. The baseline of record for the "paper is one package" moves is ``task_digests_e2360a4.json``
(the code of commit e2360a4 hashed by this tool, quick mode, run seed 20261129).
"""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

_SKIP_FIELDS = {"wall_s", "peak_rss_mb"}          # timing, never part of an output


def _feed(h, obj, depth: int = 0) -> None:  # noqa: C901 - one canonical case per type
    if depth > 200:
        raise RecursionError("object nested deeper than 200 levels")
    up = lambda s: h.update(s if isinstance(s, bytes) else str(s).encode())  # noqa: E731
    if obj is None or isinstance(obj, (bool, np.bool_)):
        up(f"<{obj!r}>")
    elif isinstance(obj, (int, np.integer)):
        up(f"i{int(obj)};")
    elif isinstance(obj, (float, np.floating)):
        f = float(obj)
        up("f" + (f.hex() if math.isfinite(f) else repr(f)) + ";" + type(obj).__name__ + ";")
    elif isinstance(obj, complex):
        up(f"c{obj.real.hex()},{obj.imag.hex()};")
    elif isinstance(obj, str):
        up(f"s{len(obj)}:"), up(obj.encode())
    elif isinstance(obj, bytes):
        up(f"b{len(obj)}:"), up(obj)
    elif isinstance(obj, np.ndarray):
        if obj.dtype == object:
            up(f"O{obj.shape}[")
            for x in obj.ravel():
                _feed(h, x, depth + 1)
            up("]")
        else:
            up(f"a{obj.dtype.str}{obj.shape}:"), up(np.ascontiguousarray(obj).tobytes())
    elif isinstance(obj, (list, tuple)):
        up(("L" if isinstance(obj, list) else "T") + f"{len(obj)}[")
        for x in obj:
            _feed(h, x, depth + 1)
        up("]")
    elif isinstance(obj, (set, frozenset)):
        items = sorted(_digest(x) for x in obj)
        up(f"S{len(items)}[" + ",".join(items) + "]")
    elif isinstance(obj, dict):
        up(f"D{len(obj)}{{")
        for k, v in obj.items():
            _feed(h, k, depth + 1), up("="), _feed(h, v, depth + 1)
        up("}")
    elif _is_sympy(obj):
        import sympy
        up("Y"), up(sympy.srepr(obj))
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        up(f"C{type(obj).__name__}{{")
        for f in sorted(dataclasses.fields(obj), key=lambda f: f.name):
            v = getattr(obj, f.name)
            if f.name not in _SKIP_FIELDS and not _at_default(f, v):
                up(f.name), up("="), _feed(h, v, depth + 1)
        up("}")
    elif hasattr(obj, "__dict__") and not callable(obj):
        up(f"O{type(obj).__name__}{{")
        for k in sorted(vars(obj)):
            if k not in _SKIP_FIELDS:
                up(k), up("="), _feed(h, vars(obj)[k], depth + 1)
        up("}")
    elif callable(obj):
        up(f"F{getattr(obj, '__qualname__', type(obj).__name__)}")
    else:
        up(f"R{type(obj).__name__}:{obj!r}")


def _at_default(f, v) -> bool:
    """True when ``v`` equals the dataclass field ``f``'s declared default (plain values only)."""
    if f.default is not dataclasses.MISSING:
        default = f.default
    elif f.default_factory is not dataclasses.MISSING:
        default = f.default_factory()
    else:
        return False
    if isinstance(v, np.ndarray) or isinstance(default, np.ndarray):
        return False
    try:
        return type(v) is type(default) and bool(v == default)
    except Exception:  # noqa: BLE001 - an incomparable value is not a default
        return False


def _is_sympy(obj) -> bool:
    mod = type(obj).__module__ or ""
    return mod.startswith("sympy")


def _digest(obj) -> str:
    h = hashlib.sha256()
    _feed(h, obj)
    return h.hexdigest()


def task_digest(result) -> str:
    """The digest of one :class:`theorycheck.run.TaskResult`: its value, figures and error."""
    return _digest({"value": result.value, "figures": result.figures, "error": result.error})


def digests(keys, mode: str = "quick", seed: int = 20261129, progress: bool = True) -> dict:
    """``{task id: digest}`` of every task of the papers ``keys``, executed in one process in plan order."""
    from theorycheck import papers
    from theorycheck.run import execute, plan
    tasks = plan([papers.load(k) for k in keys], mode)
    results, out = {}, {}
    t0 = time.perf_counter()
    for i, t in enumerate(tasks, 1):
        r = execute(t, mode, seed, {d: results[d] for d in t.deps})
        results[t.id] = r
        out[t.id] = task_digest(r)
        if r.error:
            print(f"task {t.id} FAILED:\n{r.error[-1500:]}", file=sys.stderr)
        if progress:
            print(f"[{i}/{len(tasks)} {time.perf_counter() - t0:7.1f}s] {t.id}", file=sys.stderr)
    return out


def compare(new: dict, old: dict) -> list[str]:
    """The lines naming every task that differs, is new, or is missing."""
    lines = [f"differs: {t}" for t in new if t in old and new[t] != old[t]]
    lines += [f"new (not in the baseline): {t}" for t in new if t not in old]
    lines += [f"missing (in the baseline only): {t}" for t in old if t not in new]
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mode", default="quick", choices=("quick", "full"))
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--paper", action="append", help="paper key (default: every installed paper)")
    ap.add_argument("--out", help="write the digests to this JSON file")
    ap.add_argument("--compare", help="baseline JSON to compare with (exit 1 when any task differs)")
    ap.add_argument("--quiet", action="store_true")
    a = ap.parse_args(argv)
    from theorycheck import papers
    keys = a.paper or papers.keys()
    d = digests(keys, a.mode, a.seed, progress=not a.quiet)
    doc = {"mode": a.mode, "seed": a.seed, "papers": sorted(keys), "tasks": d}
    if a.out:
        Path(a.out).write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    if a.compare:
        base = json.loads(Path(a.compare).read_text(encoding="utf-8"))
        if base.get("mode") != a.mode or base.get("seed") != a.seed:
            print(f"baseline is mode {base.get('mode')} seed {base.get('seed')}, not {a.mode} {a.seed}", file=sys.stderr)
            return 2
        old = {t: v for t, v in base["tasks"].items() if t.split(":", 1)[0] in keys}
        lines = compare(d, old)
        for ln in lines:
            print(ln)
        print(f"{len(d)} tasks: {sum(1 for t in d if old.get(t) == d[t])} identical, {len(lines)} differ/new/missing")
        return 1 if lines else 0
    print(f"{len(d)} task digests" + (f" → {a.out}" if a.out else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
