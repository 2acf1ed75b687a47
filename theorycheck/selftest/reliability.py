r"""Reliability: every public function, fed invalid and extreme arguments, answers with a clear error or a
finite result — never a hang, a silent NaN, or an exception from deep inside NumPy.

Each public function has a **baseline**: a cheap valid call (:class:`~theorycheck.papers.api.Baseline`, declared
next to the area it covers: :mod:`theorycheck.selftest.fuzz_engines` and ``.fuzz_verdicts`` for the core, and each paper's
own fuzz module (``Paper(fuzz="<package>.fuzz")``: ``BASELINES`` and ``MODULES``, the paper's public modules whose
``__all__`` callables must all have a baseline), found through the paper registry.
:func:`fuzz` substitutes, one parameter at a time, every value of :data:`BAD_VALUES` (wrong types,
NaN, ±inf, zero, negative, huge numbers, empty and malformed arrays) and classifies the outcome:

``rejected``
    a ``ValueError`` / ``TypeError`` whose message names the parameter — the documented answer
    (``rejected (names another parameter)`` when a valid value made another argument invalid);
``accepted``
    the call returned a finite result (the value was valid, e.g. ``0`` noise);
``limit``
    an infinite result where the function documents one (``allow_inf``);

and the failures: ``unnamed`` (an error that does not name the parameter), ``nonfinite`` (NaN, or an
undocumented ±inf), ``exception`` (any other exception type), ``timeout`` (no answer within the
per-call limit: a hang or unbounded work), ``memory``. Calls run in worker processes with an
address-space limit, so a runaway allocation is caught, not fatal. ``theorycheck selftest`` writes
the counts to ``reliability.md`` (the reliability page); ``tests/test_reliability.py`` requires zero
failures and a baseline for every public function.

>>> b = Baseline("theorycheck.validate.check_int", dict(name="n", value=3, minimum=0), skip=("name",),
...              aliases={"value": "n"})
>>> sorted(classify_call(b, "value", "x")[0:1])
['rejected']
"""
from __future__ import annotations

import concurrent.futures as cf
import importlib
import inspect
import json
import math
import resource
import signal
import traceback
from pathlib import Path

import numpy as np

from .. import papers
from ..papers.api import Baseline
from ..report.common import write_if_changed
from ..run.local import worker_context

__all__ = ["Baseline", "BAD_VALUES", "fuzz", "classify_call", "baselines", "public_functions", "PUBLIC_MODULES",
           "FAILURES", "CORE_PARTS", "parts"]

#: core modules whose ``__all__`` callables are the public API covered here (each paper adds its own ``MODULES``)
PUBLIC_MODULES = ("gaussian", "hermite", "montecarlo", "codegen", "validate", "models.attention",
                  "models.prompts", "models.dynamics", "models.filters", "models.ridge", "models.training",
                  "models.icl", "models.samplers",
                  "verdicts.rules", "verdicts.selfcheck", "verdicts.estimate", "reconcile", "seeds")
#: the core's own baseline modules (``theorycheck.selftest.fuzz_<part>``); papers are parts by their key
CORE_PARTS = ("engines", "verdicts")

NAN, INF = float("nan"), float("inf")
BAD_VALUES = {
    "None": None, "str": "x", "bool": True, "nan": NAN, "+inf": INF, "-inf": -INF, "-1": -1, "0": 0,
    "2.5": 2.5, "1e308": 1e308, "1e12 (int)": 10 ** 12, "-1e12 (int)": -10 ** 12, "[]": [],
    "[[nan]]": np.array([[NAN]]), "object()": object(),
}
FAILURES = ("unnamed", "nonfinite", "exception", "timeout", "memory")
CALL_LIMIT_S = 10.0
ADDRESS_SPACE_GB = 12


def public_functions() -> list[str]:
    """Dotted names of every public callable (the ``__all__`` of :data:`PUBLIC_MODULES`), classes excluded."""
    out = []
    for m in [f"theorycheck.{m}" for m in PUBLIC_MODULES] + [m for k in _paper_keys() for m in _paper_modules(k)]:
        mod = importlib.import_module(m)
        for n in getattr(mod, "__all__", []):
            obj = getattr(mod, n, None)
            if callable(obj) and not inspect.isclass(obj):
                out.append(f"{obj.__module__}.{obj.__name__}" if getattr(obj, "__module__", "").startswith(
                    "theorycheck") else f"{m}.{n}")
            elif inspect.isclass(obj) and not issubclass(obj, BaseException) and hasattr(obj, "__init__") \
                    and getattr(obj, "__dataclass_fields__", None) is None:
                out.append(f"{obj.__module__}.{obj.__name__}")
    return sorted(set(out))


def _paper_keys() -> list[str]:
    return list(papers.keys())


def _fuzz_module(part: str):
    """The module declaring the baselines of ``part`` (a core part or a paper key), or None."""
    if part in CORE_PARTS:
        return importlib.import_module(f"theorycheck.selftest.fuzz_{part}")
    paper = papers.load(part)
    return importlib.import_module(paper.fuzz) if paper.fuzz else None


def _paper_modules(key: str) -> list[str]:
    """The public modules of paper ``key`` whose callables need baselines (its fuzz module's ``MODULES``)."""
    mod = _fuzz_module(key)
    return list(getattr(mod, "MODULES", ())) if mod is not None else []


def __getattr__(name):
    if name == "PARTS":                    # the old constant: every part (now found through the paper registry)
        return parts()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def parts() -> tuple:
    """Every part: the core's and one per installed paper."""
    return CORE_PARTS + tuple(_paper_keys())


def _part_baselines(part: str) -> list:
    mod = _fuzz_module(part)
    return [] if mod is None else list(getattr(mod, "BASELINES", []))


def baselines(parts_=None) -> list[Baseline]:
    """Every declared baseline of ``parts_`` (default: :func:`parts`)."""
    return [b for p in (parts() if parts_ is None else parts_) for b in _part_baselines(p)]


class _Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise _Timeout


def _nonfinite(x, depth=0) -> str | None:
    """'nan' / 'inf' when ``x`` (numbers, arrays, lists, dicts, dataclasses) holds a non-finite number."""
    if depth > 4 or x is None or isinstance(x, (str, bytes, bool)):
        return None
    if isinstance(x, dict):
        return next((r for r in (_nonfinite(v, depth + 1) for v in x.values()) if r), None)
    if isinstance(x, (list, tuple)):
        return next((r for r in (_nonfinite(v, depth + 1) for v in x[:1000]) if r), None)
    if hasattr(x, "__dataclass_fields__"):
        return next((r for r in (_nonfinite(getattr(x, k, None), depth + 1) for k in x.__dataclass_fields__)
                     if r), None)
    try:
        a = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        return None
    if np.any(np.isnan(a)):
        return "nan"
    if np.any(np.isinf(a)):
        return "inf"
    return None


def classify_call(b: Baseline, param: str | None, value) -> tuple[str, str]:
    """``(outcome class, detail)`` of one call with ``param`` set to ``value`` (``param=None``: the baseline)."""
    kw = b.call_kwargs()
    if param is not None:
        kw[param] = value
    fn = b.target()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, CALL_LIMIT_S)
    try:
        res = fn(**kw)
    except _Timeout:
        return "timeout", f"no answer within {CALL_LIMIT_S:g} s"
    except MemoryError:
        return "memory", "MemoryError"
    except (ValueError, TypeError) as exc:
        msg = str(exc)
        if param is None:
            return "exception", f"the baseline call failed: {type(exc).__name__}: {msg[:200]}"
        names = {param, param.split("_")[0], b.aliases.get(param, param)}
        if any(n and n in msg for n in names):
            return "rejected", f"{type(exc).__name__}: {msg[:200]}"
        # a valid value of this parameter can make another one invalid (maximum = 0 with value = 3)
        others = set(kw) | set(b.aliases.values())
        return ("rejected (names another parameter)" if any(o and o in msg for o in others) else "unnamed"), \
            f"{type(exc).__name__}: {msg[:200]}"
    except Exception as exc:  # noqa: BLE001 - the point is to classify every exception
        tb = traceback.extract_tb(exc.__traceback__)
        where = f"{tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno}" if tb else ""
        return "exception", f"{type(exc).__name__}: {str(exc)[:160]} ({where})"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    bad = _nonfinite(res)
    if bad == "nan" or (bad == "inf" and not b.allow_inf):
        return "nonfinite", f"returned {bad}"
    return ("limit" if bad == "inf" else "accepted"), ""


def _limit_memory():
    lim = int(ADDRESS_SPACE_GB * 2 ** 30)
    try:
        resource.setrlimit(resource.RLIMIT_AS, (lim, lim))
    except (ValueError, OSError):  # pragma: no cover - platform without RLIMIT_AS
        pass


def _fuzz_one(part: str, index: int) -> dict:
    b = _part_baselines(part)[index]
    rows = []
    base = classify_call(b, None, None)
    rows.append({"param": None, "value": "baseline", "class": base[0], "detail": base[1]})
    params = b.only if b.only is not None else [p for p in b.call_kwargs() if p not in b.skip]
    for p in params:
        for label, v in BAD_VALUES.items():
            cls, detail = classify_call(b, p, v)
            rows.append({"param": p, "value": label, "class": cls, "detail": detail})
    return {"fn": b.fn, "rows": rows}


def fuzz(parts_=None, jobs: int = 2) -> dict:
    """Fuzz every baseline of ``parts_`` (default: :func:`parts`) in worker processes (address space limited);
    return the outcome rows."""
    everything = parts_ is None or set(parts_) == set(parts())
    parts_ = parts() if parts_ is None else tuple(parts_)
    items = [(p, i, b) for p in parts_ for i, b in enumerate(_part_baselines(p))]
    bases = [b for _, _, b in items]
    ctx = worker_context()
    out = {}
    with cf.ProcessPoolExecutor(max_workers=max(1, jobs), mp_context=ctx, initializer=_limit_memory) as pool:
        futs = {pool.submit(_fuzz_one, p, i): b for p, i, b in items}
        for f in cf.as_completed(futs):
            b = futs[f]
            try:
                out[b.fn] = f.result()["rows"]
            except Exception as exc:  # a worker died (segfault, killed)
                out[b.fn] = [{"param": None, "value": "worker", "class": "exception", "detail": repr(exc)}]
    covered = {b.fn for b in bases}
    missing = [f for f in public_functions() if f not in covered] if everything else []
    counts = {}
    for rows in out.values():
        for r in rows:
            counts[r["class"]] = counts.get(r["class"], 0) + 1
    fails = [{"fn": fn, **r} for fn, rows in sorted(out.items()) for r in rows if r["class"] in FAILURES]
    return {"calls": sum(len(r) for r in out.values()), "counts": counts, "functions": len(out),
            "missing_baselines": missing, "failures": fails, "rows": dict(sorted(out.items()))}


def write_reliability(out_dir, res: dict) -> None:
    """``reliability.md`` / ``reliability.json`` (deterministic: no timings)."""
    L = ["# Reliability of the public API", "",
         "Generated by `theorycheck selftest`: every public function is called with a cheap valid baseline, then "
         f"with each parameter replaced by each of {len(BAD_VALUES)} invalid or extreme values (wrong types, NaN, ±inf, "
         "zero, negative, huge numbers, empty and malformed arrays), in worker processes with an address-space "
         f"limit of {ADDRESS_SPACE_GB} GiB and {CALL_LIMIT_S:g} s per call. A call must either be rejected with an "
         "error naming the parameter, or return a finite result (an infinite one only where documented).", "",
         f"**{res['calls']} calls over {res['functions']} functions; failures: {len(res['failures'])}; public functions "
         f"without a baseline: {len(res['missing_baselines'])}.**", "",
         "| outcome | calls |", "|---|---|"]
    L += [f"| {k} | {v} |" for k, v in sorted(res["counts"].items())] + [""]
    if res["failures"]:
        L += ["## Failures", "", "| function | parameter | value | outcome | detail |", "|---|---|---|---|---|"]
        L += [f"| `{f['fn']}` | {f['param']} | {f['value']} | {f['class']} | {str(f['detail']).replace('|', '/')} |"
              for f in res["failures"]] + [""]
    if res["missing_baselines"]:
        L += ["## Public functions without a baseline", ""] + [f"- `{m}`" for m in res["missing_baselines"]] + [""]
    L += ["## Per function", "", "| function | calls | rejected | accepted | limit | failures |", "|---|---|---|---|---|---|"]
    for fn, rows in res["rows"].items():
        c = {}
        for r in rows:
            c[r["class"]] = c.get(r["class"], 0) + 1
        L.append(f"| `{fn}` | {len(rows)} | {c.get('rejected', 0)} | {c.get('accepted', 0)} | {c.get('limit', 0)} | "
                 f"{sum(c.get(k, 0) for k in FAILURES)} |")
    out = Path(out_dir)
    write_if_changed(out / "reliability.md", "\n".join(L).rstrip() + "\n")
    slim = {k: v for k, v in res.items() if k != "rows"}
    write_if_changed(out / "reliability.json", json.dumps(slim, indent=1, sort_keys=True, default=str) + "\n")


assert math.isnan(NAN)
