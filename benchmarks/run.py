#!/usr/bin/env python
"""Run every benchmark and the main job's wall times; write ``benchmarks/RESULTS.md``.

Usage::

    python benchmarks/run.py            # all benchmarks/bench_*.py (quick) + `theorycheck run --quick`
    python benchmarks/run.py --full     # also the benches' full sizes and `theorycheck run --full` (long)
    python benchmarks/run.py --no-main  # benchmarks only
    python benchmarks/run.py --only gaussian,simulators
    python benchmarks/run.py --no-main --stamp reports/STAMP.json   # profile the run of record per task
    python benchmarks/run.py --cache-only          # the task cache (issue 23), quick; updates its section only
    python benchmarks/run.py --cache-only --full   # the same at the papers' own sizes (long)
    python benchmarks/run.py --suite               # time the default test command (issue 31); its section only
    python benchmarks/run.py --budget reports/STAMP.json  # where the paper-scale time goes, what sets each size

Each ``benchmarks/bench_<key>.py`` exposes ``run(quick: bool = True) -> list[dict]`` with rows
``{"name", "value", "unit", "note"}``. The main job is timed as the README runs it
(``theorycheck run --quick --no-pdf --out <tmp>`` on all cores) in a fresh process, twice: "cold" with an empty
record of passed checks (the derivation check runs, as on a fresh machine) and "warm" (it passed before for the
same sources and library versions, :mod:`theorycheck.run.passed`, and is not repeated); the per-task wall time and peak memory come from that run's ``STAMP.json`` (or from ``--stamp``,
e.g. the paper-scale run of record in ``reports/STAMP.json``) and are summarised as a profile: where the
time goes, per paper and per task. Results go to ``benchmarks/RESULTS.md`` (with the machine description)
and ``benchmarks/results.json``. Targets (issue 11): the quick run <= 45 s and the full run <= 12 min on 2
cores; W_QK* for the priors without an exact route >= 1000x faster than trajectory Monte Carlo at equal
precision; the simulators within 2x of the time it takes to draw their random inputs.

The task cache (issue 23; :func:`cache_scenario`) is measured on a copy of the package in a temporary folder with
an empty cache folder: a cold run, the same command again (targets: 0 tasks computed; wall time <= 25 % of cold
for the quick run, <= 5 % at the papers' sizes), and the same command after a no-op statement is added to one claim
function (target: only that claim's task computed; <= 10 % of cold at the papers' sizes).
"""
from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

from sections import (BUDGET_HEAD, KEPT_HEADS, STOPPING_HEAD, SUITE_HEAD, budget_section, measure_suite,  # noqa: E402
                      section, stopping_section, suite_section, update_section)  # noqa: E402  (sibling script)

TARGET_QUICK_S = {"warm": 45.0, "cold": 70.0}   # issue 31: warm (derivation check passed before) / cold
TARGET_FULL_S = None                             # withdrawn by issue 31 (the experiments' own sizes stay)
TARGET_WQK_SPEEDUP = 100.0          # exact routes (issue 6)
TARGET_WQK_SAMPLED_SPEEDUP = 1000.0  # sampled routes, priors b and d (issue 11)
TARGET_SIM_OVER_DRAWS = 2.0
TARGET_CACHE_SAME = {"quick": 0.25, "full": 0.05}    # second identical run / cold run
TARGET_CACHE_EDIT = {"full": 0.10}                    # run after editing one claim function / cold run


# ----------------------------------------------------------------------------- machine
def _cpuinfo() -> dict:
    info = {"cpu_model": platform.processor() or "unknown"}
    try:
        text = Path("/proc/cpuinfo").read_text()
        for line in text.splitlines():
            if line.lower().startswith("model name"):
                info["cpu_model"] = line.split(":", 1)[1].strip()
                break
        info["cpu_logical_in_cpuinfo"] = sum(1 for ln in text.splitlines() if ln.startswith("processor"))
    except OSError:
        pass
    info["os_cpu_count"] = os.cpu_count()
    try:
        info["load_average"] = [round(x, 2) for x in os.getloadavg()]
    except OSError:
        pass
    try:
        info["usable_cpus"] = len(os.sched_getaffinity(0))
    except AttributeError:
        info["usable_cpus"] = os.cpu_count()
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal"):
                info["memory_gib"] = round(int(line.split()[1]) / 2 ** 20, 1)
    except OSError:
        pass
    return info


def _blas() -> str:
    import numpy as np
    parts = []
    try:
        cfg = np.show_config(mode="dicts")
        deps = cfg.get("Build Dependencies", {})
        for k in ("blas", "lapack"):
            d = deps.get(k, {})
            if d:
                parts.append(f"{k}: {d.get('name', '?')} {d.get('version', '')}".strip())
    except TypeError:  # numpy < 1.25: no mode argument
        parts.append("numpy.show_config() has no dict mode")
    try:
        from threadpoolctl import threadpool_info
        for p in threadpool_info():
            parts.append(f"threadpool {p.get('internal_api')} {p.get('version')} ({p.get('num_threads')} threads)")
    except ImportError:
        parts.append("threadpoolctl not installed (thread counts not reported)")
    env = {k: os.environ[k] for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS") if k in os.environ}
    if env:
        parts.append(f"env {env}")
    return "; ".join(parts)


def machine() -> dict:
    import matplotlib
    import mpmath
    import numpy
    import scipy
    import sympy
    out = _cpuinfo()
    out.update({"platform": platform.platform(), "python": platform.python_version(),
                "numpy": numpy.__version__, "scipy": scipy.__version__, "sympy": sympy.__version__,
                "mpmath": mpmath.__version__, "matplotlib": matplotlib.__version__, "blas": _blas()})
    for opt in ("thewalrus", "hypothesis"):
        try:
            out[opt] = __import__(opt).__version__
        except ImportError:
            out[opt] = "not installed"
    return out


# ----------------------------------------------------------------------------- benches
def bench_files(only=None) -> list[Path]:
    files = sorted(HERE.glob("bench_*.py"))
    if only:
        keys = {k.strip() for k in only.split(",")}
        files = [f for f in files if f.stem[len("bench_"):] in keys]
    return files


def run_bench(path: Path, quick: bool) -> dict:
    t0 = time.perf_counter()
    try:
        spec = importlib.util.spec_from_file_location(f"_bench_{path.stem}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        rows = list(mod.run(quick=quick))
        status = "ok"
    except Exception as e:  # noqa: BLE001 - a failing bench is reported, the others still run
        rows = [{"name": path.stem, "value": None, "unit": "", "note": f"FAILED: {type(e).__name__}: {e}"}]
        status = "failed"
        traceback.print_exc()
    return {"file": path.name, "status": status, "wall_s": round(time.perf_counter() - t0, 2), "rows": rows}


def profile(stamp: dict, top: int = 15) -> dict:
    """Where the time goes: per paper (task seconds) and the slowest tasks, with peak memory."""
    papers, tasks = {}, []
    for k, v in stamp.get("papers", {}).items():
        papers[k] = {"task_seconds": v.get("task_seconds"), "mode": v.get("mode"),
                     "command_wall_s": v.get("command_wall_s")}
        for tid, t in v.get("tasks", {}).items():
            tasks.append({"task": tid, "wall_s": t.get("wall_s"), "peak_rss_mb": t.get("peak_rss_mb")})
    tasks.sort(key=lambda t: -(t["wall_s"] or 0))
    return {"papers": papers, "slowest": tasks[:top], "n_tasks": len(tasks),
            "total_task_s": round(sum(t["wall_s"] or 0 for t in tasks), 1)}


def run_from_stamp(path: Path) -> dict | None:
    """The wall time of the run recorded in a ``STAMP.json`` (its last command, if it ran every paper in one mode)."""
    if not path.exists():
        return None
    st = json.loads(path.read_text())
    last, papers = st.get("last_command", {}), st.get("papers", {})
    modes = {v.get("mode") for v in papers.values()}
    if not isinstance(last, dict) or len(modes) != 1 or "wall_s" not in last:
        return None
    if any(v.get("command") != last.get("command") for v in papers.values()):
        return None                   # the papers were produced by different commands: no single wall time
    return {"mode": modes.pop(), "derive_check": last.get("derive_check"),
            "command": f"{last['command']} (run of record, `{path}`)", "returncode": 0,
            "wall_s": last["wall_s"], "check_s_per_paper": {k: v.get("task_seconds") for k, v in papers.items()},
            "profile": profile(st), "derive_lines": [], "stderr_tail": ""}


def run_main_job(mode: str, pdf: bool = False, cache_dir: str | None = None, label: str = "") -> dict:
    """Time `theorycheck run --<mode>` (all papers, on all cores, derivation check included, no task cache) in a
    fresh process, into an empty report folder. ``cache_dir``: the record of passed checks
    (``THEORYCHECK_CACHE_DIR``, see :mod:`theorycheck.run.passed`) — empty: the derivation check runs ("cold");
    after a run: it is not repeated ("warm")."""
    with tempfile.TemporaryDirectory(prefix="tc_bench_") as tmp:
        cmd = [sys.executable, "-m", "theorycheck", "run", f"--{mode}", "--out", tmp, "--quiet", "--no-cache"]
        if not pdf:
            cmd.append("--no-pdf")
        env = dict(os.environ, THEORYCHECK_PROGRESS="0")
        if cache_dir is not None:
            env["THEORYCHECK_CACHE_DIR"] = cache_dir
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
        wall = time.perf_counter() - t0
        stamp = {}
        sp = Path(tmp) / "STAMP.json"
        if sp.exists():
            stamp = json.loads(sp.read_text())
        derive = [ln for ln in proc.stderr.splitlines() if ln.startswith("derive")]
    per_paper = {k: v.get("task_seconds") for k, v in stamp.get("papers", {}).items()}
    shown = f"theorycheck run --{mode}" + ("" if pdf else " --no-pdf") + " --out <tmp>" + (f" ({label})" if label else "")
    return {"mode": mode, "label": label, "derive_check": stamp.get("last_command", {}).get("derive_check"),
            "command": shown, "returncode": proc.returncode,
            "wall_s": round(wall, 1), "check_s_per_paper": per_paper, "profile": profile(stamp),
            "derive_lines": derive, "stderr_tail": proc.stderr[-2000:] if proc.returncode else ""}


# ----------------------------------------------------------------------------- task cache (issue 23)
def edit_claim(src_root: Path, paper: str | None = None) -> str:
    """Add a no-op statement to one claim function in the package copy under ``src_root``: the first claim that
    consumes a fixture (of ``paper``, default the last installed paper); return its task id."""
    import ast
    from theorycheck import papers
    key = paper or papers.keys()[-1]
    spec = next(s for s in papers.load(key).claims if s.needs)
    rel = Path(spec.fn.__code__.co_filename).resolve().relative_to(ROOT)
    path = src_root / rel
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    fn = next(n for n in ast.parse("".join(lines)).body if isinstance(n, ast.FunctionDef) and n.name == spec.fn.__name__)
    first = fn.body[0]
    at = first.end_lineno if isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant) \
        else first.lineno - 1
    indent = " " * first.col_offset
    lines.insert(at, f"{indent}_benchmark_edit = None  # a no-op edit: only this claim's key changes\n")
    path.write_text("".join(lines), encoding="utf-8")
    return f"{key}:claim:{spec.id}"


def _timed_run(mode: str, src: Path, out: str, cache: Path) -> dict:
    env = dict(os.environ, THEORYCHECK_PROGRESS="0", THEORYCHECK_CACHE_DIR=str(cache),
               PYTHONPATH=os.pathsep.join([str(src)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep)
                                                        if p]))
    cmd = [sys.executable, "-m", "theorycheck", "run", f"--{mode}", "--no-pdf", "--out", out, "--quiet"]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=src, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - t0
    st = json.loads((Path(out) / "STAMP.json").read_text()) if (Path(out) / "STAMP.json").exists() else {}
    tasks = {t: v for p in st.get("papers", {}).values() for t, v in p.get("tasks", {}).items()}
    return {"wall_s": round(wall, 1), "returncode": proc.returncode,
            "computed": sorted(t for t, v in tasks.items() if v.get("status") == "computed"),
            "n_tasks": len(tasks), "derive_check": st.get("last_command", {}).get("derive_check"),
            "stderr_tail": proc.stderr[-2000:] if proc.returncode else ""}


def cold_from_stamp(stamp_path: Path, mode: str) -> dict:
    """The cold leg of :func:`cache_scenario` read from the STAMP.json of a run of record instead of run again: it
    must be a ``mode`` run of every installed paper that computed every task (none from the cache), of exactly the
    current sources (the digests :func:`theorycheck.provenance.paper_sources` recorded in it) — else ``SystemExit``
    naming what differs. Its wall time is that run's whole command."""
    from theorycheck import papers
    from theorycheck.provenance import paper_sources
    st = json.loads(Path(stamp_path).read_text(encoding="utf-8"))
    recs = st.get("papers", {})
    problems = [f"paper {k} is not in it" for k in papers.keys() if k not in recs]
    for k, v in recs.items():
        if v.get("mode") != mode:
            problems.append(f"{k} ran in mode {v.get('mode')!r}, not {mode!r}")
        if v.get("tasks_cached"):
            problems.append(f"{k}: {v['tasks_cached']} tasks came from the cache (not a cold run)")
        if k in papers.keys() and v.get("source_sha256") != paper_sources(papers.load(k)):
            problems.append(f"{k}: its sources changed since that run")
    if problems:
        raise SystemExit(f"--cold-stamp {stamp_path}: " + "; ".join(problems))
    tasks = {t: x for v in recs.values() for t, x in v.get("tasks", {}).items()}
    return {"wall_s": round(max(v["command_wall_s"] for v in recs.values()), 1), "returncode": 0,
            "computed": sorted(t for t, x in tasks.items() if x.get("status") == "computed"),
            "n_tasks": len(tasks), "derive_check": st.get("last_command", {}).get("derive_check"),
            "stderr_tail": "", "from_stamp": str(stamp_path)}


def cache_scenario(mode: str = "quick", cold_stamp: Path | None = None, cold_cache: Path | None = None) -> dict:
    """Cold run, the same command again, and the same command after editing one claim function — on a copy of the
    package with an empty cache folder, each run in a fresh process on all cores (``--no-pdf``).

    ``cold_stamp``: take the cold leg from the STAMP.json of a cold run of record of these exact sources
    (:func:`cold_from_stamp`) and start from a copy of the task cache that run filled (``cold_cache``, the folder
    holding ``tasks/``) instead of running it again — the paper-scale cold run takes ~25 minutes."""
    import shutil
    with tempfile.TemporaryDirectory(prefix="tc_bench_cache_") as tmp:
        src, cache, out = Path(tmp) / "src", Path(tmp) / "cache", str(Path(tmp) / "out")
        shutil.copytree(ROOT / "theorycheck", src / "theorycheck",
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        res = {"mode": mode, "load_average": [round(x, 2) for x in os.getloadavg()],
               "when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
        legs = ("cold", "same")
        if cold_stamp is not None:
            res["cold"] = cold_from_stamp(cold_stamp, mode)
            shutil.copytree(Path(cold_cache) / "tasks", cache / "tasks")
            legs = ("same",)
        for label in legs:
            print(f"== cache: theorycheck run --{mode} ({label}) ...", file=sys.stderr, flush=True)
            res[label] = _timed_run(mode, src, out, cache)
        res["edited"] = edit_claim(src)
        print(f"== cache: theorycheck run --{mode} after editing {res['edited']} ...", file=sys.stderr, flush=True)
        res["edit"] = _timed_run(mode, src, out, cache)
    for label in ("same", "edit"):
        res[label]["ratio"] = round(res[label]["wall_s"] / res["cold"]["wall_s"], 3) if res["cold"]["wall_s"] else None
    return res


def cache_targets(c: dict) -> list[tuple[str, str, str, str]]:
    mode, cold, same, edit = c["mode"], c["cold"], c["same"], c["edit"]
    out = [(f"second identical `theorycheck run --{mode}`: 0 tasks computed", f"{len(same['computed'])} computed",
            f"of {same['n_tasks']} tasks", "met" if not same["computed"] and same["returncode"] == 0 else "MISSED")]
    tgt = TARGET_CACHE_SAME.get(mode)
    out.append((f"second identical run <= {tgt:.0%} of cold ({mode})" if tgt else f"second identical run ({mode})",
                f"{same['wall_s']} s = {same['ratio']:.1%} of {cold['wall_s']} s", "derive check: "
                + str(same["derive_check"]), "info" if tgt is None else ("met" if same["ratio"] <= tgt else "MISSED")))
    only = edit["computed"] == [c["edited"]]
    out.append((f"after editing one claim function only its task runs ({mode})", ", ".join(edit["computed"]) or "none",
                f"edited `{c['edited']}`", "met" if only and edit["returncode"] == 0 else "MISSED"))
    tgt = TARGET_CACHE_EDIT.get(mode)
    out.append((f"run after the edit <= {tgt:.0%} of cold ({mode})" if tgt else f"run after the edit ({mode})",
                f"{edit['wall_s']} s = {edit['ratio']:.1%} of cold", "derive check: " + str(edit["derive_check"]),
                "info" if tgt is None else ("met" if edit["ratio"] <= tgt else "MISSED")))
    return out


def cache_section(runs: list) -> list:
    L = ["## Task cache (issue 23)", "",
         "Measured by `python benchmarks/run.py --cache-only` (quick) and `--cache-only --full` (the papers' sizes) on a "
         "copy of the package with an empty cache folder, each run `theorycheck run --<mode> --no-pdf` in a fresh "
         "process on all cores: cold, the same command again, then after a no-op statement is added to one claim "
         "function (the derivation check runs again then: the sources changed).", "",
         "| target | measured | detail | status |", "|---|---|---|---|"]
    for c in runs:
        L += ["| " + " | ".join(x.replace("|", "\\|") for x in t) + " |" for t in cache_targets(c)]
    L.append("")
    for c in runs:
        src = (f" (not run again: the cold run of record `{c['cold']['from_stamp']}` of the same sources, whose task "
               "cache the scenario starts from, `--cache-only --cold-stamp`)" if c["cold"].get("from_stamp") else "")
        L.append(f"- `{c['mode']}` ({c.get('when')}, load average {c.get('load_average')} at the start — other "
                 f"processes share the 2 cores): cold {c['cold']['wall_s']} s{src} ({len(c['cold']['computed'])} tasks "
                 f"computed, derive check {c['cold']['derive_check']}); the same command again {c['same']['wall_s']} s; "
                 f"after editing `{c['edited']}` {c['edit']['wall_s']} s (the derivation check, in its own process, "
                 "runs again: any source change gives its record a new key).")
    return L + [""]


def update_cache_section(path: Path, runs: list) -> None:
    """Replace (or add before "## All benchmark rows") the task-cache section of ``path``; keep the rest. The
    scenarios are kept per mode in ``cache_scenarios.json`` beside ``path``: a quick measurement keeps the last
    paper-scale one, and the other way round."""
    store = path.parent / "cache_scenarios.json"
    kept = json.loads(store.read_text(encoding="utf-8")) if store.exists() else {}
    kept.update({c["mode"]: c for c in runs})
    store.write_text(json.dumps(kept, indent=1, default=str) + "\n", encoding="utf-8")
    runs = [kept[m] for m in ("quick", "full") if m in kept]
    update_section(path, "## Task cache (issue 23)", cache_section(runs))


# ----------------------------------------------------------------------------- output
def _fmt(v) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        if v == 0 or 1e-3 <= abs(v) < 1e6:
            return f"{v:.4g}"
        return f"{v:.3e}"
    return str(v)


def _find(results, pred):
    for b in results:
        for r in b["rows"]:
            if r.get("value") is not None and pred(r):
                return r
    return None


def targets(results, main) -> list[tuple[str, str, str, str]]:
    out = []
    def is_wqk_speedup(r):
        nm = r["name"].lower()
        return (r.get("value") is not None and r.get("unit") in ("ratio", "x", "speedup") and "speed" in nm
                and ("wqk" in nm or "trajectory_mc" in nm))
    wqk = [r for b in results for r in b["rows"] if is_wqk_speedup(r)]
    if not wqk:
        out.append(("exact W_QK* (T = 30) >= 100x faster than MC at rel. SE 1e-3", "not measured",
                    "no bench row named *wqk*speed* with unit ratio", "?"))
    for r in wqk:
        exact = not any(k in r["name"].lower() for k in ("rao", "blackwell", "setting_b", "sampled", "qmc"))
        tgt = TARGET_WQK_SPEEDUP if exact else TARGET_WQK_SAMPLED_SPEEDUP
        ok = r["value"] >= tgt
        out.append((f"W_QK* (T = 30) >= {tgt:.0f}x faster than MC at equal precision "
                    f"({'exact' if exact else 'sampled'} route, `{r['name']}`)", f"{_fmt(r['value'])}x",
                    r.get("note", ""), "met" if ok else "MISSED"))
    for r in [r for b in results for r in b["rows"] if r.get("unit") == "sim/draws" and r.get("value") is not None]:
        out.append((f"simulator within {TARGET_SIM_OVER_DRAWS:g}x of its random draws (`{r['name']}`)",
                    f"{_fmt(r['value'])}x", r.get("note", ""), "met" if r["value"] <= TARGET_SIM_OVER_DRAWS else "MISSED"))
    for m in main:
        lab = f", {m['label']}" if m.get("label") else ""
        if m["mode"] == "quick":
            tgt = TARGET_QUICK_S["cold" if "cold" in m.get("label", "") else "warm"]
            goal, ok = f"<= {tgt:.0f} s", m["returncode"] == 0 and m["wall_s"] <= tgt
        else:
            goal, ok = "(target withdrawn by issue 31)", None
        out.append((f"`theorycheck run --{m['mode']}` {goal} (2 cores{lab})", f"{m['wall_s']} s",
                    "task seconds per paper: " + ", ".join(f"{k} {v} s" for k, v in m["check_s_per_paper"].items())
                    + (f"; derive check: {m['derive_check']}" if m.get("derive_check") else "")
                    + ("" if m["returncode"] == 0 else f"; EXIT STATUS {m['returncode']}"),
                    "info" if ok is None else "met" if ok else "MISSED"))
    for k in (4, 6, 8):
        r = _find(results, lambda r, k=k: r["name"] == f"sympy_stats_E_order{k}")
        if r:
            out.append((f"Gaussian engine vs sympy.stats.E, order {k}", f"{_fmt(r['value'])} {r['unit']}",
                        r.get("note", ""), "info"))
    for m in (8, 12, 16):
        r = _find(results, lambda r, m=m: r["name"] == f"moment_vs_thewalrus_order{m}")
        if r:
            out.append((f"Gaussian engine vs thewalrus.hafnian, order {m}", f"{_fmt(r['value'])} (ours/theirs)",
                        r.get("note", ""), "info"))
    return out


def _profile_lines(prof: dict, label: str) -> list:
    L = ["", f"### Where the time goes: {label}", "",
         f"{prof['n_tasks']} tasks, {prof['total_task_s']} s of task time in all; per paper: "
         + ", ".join(f"`{k}` {v['task_seconds']} s" for k, v in prof["papers"].items()) + ".", "",
         "| slowest tasks | wall s | peak RSS of its worker (MB) |", "|---|---|---|"]
    L += [f"| `{t['task']}` | {t['wall_s']} | {t['peak_rss_mb']} |" for t in prof["slowest"]]
    return L


def makespan_lines(label: str, t: dict) -> list:
    """The scale-out section: simulated list-schedule makespans from measured task costs (issue 23 item 5)."""
    from makespan import WORKERS
    return ["", f"## Scale-out of {label} (simulated from its measured task costs)", "",
            f"{t['tasks']} tasks, {t['total']:.1f} s of task time; longest task `{t['longest'][0]}` "
            f"({t['longest'][1]:.1f} s, target ≤ 30 s: {'met' if t['longest'][1] <= 30 else 'missed'}); critical path "
            f"{t['critical_path']:.1f} s. Critical-path-first list schedule without overhead (a lower bound of a real "
            "run):", "",
            "| workers | " + " | ".join(str(w) for w in WORKERS) + " |", "|---|" + "---|" * len(WORKERS),
            "| simulated makespan (s) | " + " | ".join(f"{t['workers'][w]:.1f}" for w in WORKERS) + " |", "",
            f"32 workers: {t['workers'][32]:.1f} s (target ≤ 60 s: {'met' if t['workers'][32] <= 60 else 'missed'}); "
            f"2 workers: {t['workers'][2]:.1f} s — compare with the measured 2-core run above (target: measured ≤ 1.1 × "
            f"task time / 2 = {1.1 * t['total'] / 2:.1f} s)."]


def write_results(results, main, mach, full: bool, path: Path, stamps=None, makespans=None) -> None:
    L = ["# Benchmark results", "",
         f"Generated by `python benchmarks/run.py{' --full' if full else ''}` on "
         f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}. Timings are wall-clock, best of a few "
         "repeats where the bench says so; they depend on the machine below and on its load.", "",
         "## Machine", "",
         f"- CPU: {mach.get('cpu_model')} — {mach.get('usable_cpus')} usable cores "
         f"(os.cpu_count() = {mach.get('os_cpu_count')})",
         f"- memory: {mach.get('memory_gib', '?')} GiB; load average (1, 5, 15 min) when the run started: "
         f"{mach.get('load_average', '?')} — other processes share these cores, so timings are upper bounds",
         f"- platform: {mach.get('platform')}",
         f"- Python {mach['python']}; numpy {mach['numpy']}, scipy {mach['scipy']}, sympy {mach['sympy']}, "
         f"mpmath {mach['mpmath']}, matplotlib {mach['matplotlib']}; thewalrus {mach['thewalrus']}, "
         f"hypothesis {mach['hypothesis']}",
         f"- BLAS: {mach['blas']}", "",
         "## Targets (issues 6 and 11)", "", "| target | measured | detail | status |", "|---|---|---|---|"]
    for t in targets(results, main):
        L.append("| " + " | ".join(x.replace("|", "\\|") for x in t) + " |")
    if main:
        L += ["", "## Main job", ""]
        for m in main:
            L.append(f"- `{m['command']}`: **{m['wall_s']} s** total (exit {m['returncode']}); task seconds per paper: "
                     + ", ".join(f"`{k}` {v} s" for k, v in m["check_s_per_paper"].items()))
            if m["stderr_tail"]:
                L += ["", "```", m["stderr_tail"], "```"]
            L += _profile_lines(m["profile"], f"{m['mode']} run" + (f" ({m['label']})" if m.get("label") else ""))
    for label, prof in (stamps or {}).items():
        L += _profile_lines(prof, label)
    for label, t in (makespans or {}).items():
        L += makespan_lines(label, t)
    for head in KEPT_HEADS:          # sections measured on their own (--suite, --budget) survive a regeneration
        kept = section(path, head)
        if kept:
            L += [""] + kept
    L += ["", "## All benchmark rows", ""]
    for b in results:
        L += [f"### `{b['file']}` ({b['status']}, {b['wall_s']} s)", "", "| name | value | unit | note |",
              "|---|---|---|---|"]
        for r in b["rows"]:
            L.append(f"| `{r['name']}` | {_fmt(r.get('value'))} | {r.get('unit', '')} | "
                     f"{str(r.get('note', '')).replace('|', '/')} |")
        L.append("")
    path.write_text("\n".join(L).rstrip() + "\n", encoding="utf-8")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--full", action="store_true", help="full bench sizes and also `theorycheck run --full` (long)")
    ap.add_argument("--no-main", action="store_true", help="skip timing `theorycheck run`")
    ap.add_argument("--only", default=None, help="comma-separated bench keys (e.g. gaussian,simulators)")
    ap.add_argument("--pdf", action="store_true", help="time the main job with PDF compilation")
    ap.add_argument("--out", type=Path, default=HERE / "RESULTS.md")
    ap.add_argument("--cache-only", action="store_true",
                    help="only the task-cache scenario (quick; with --full also the papers' sizes): updates its "
                         "section of RESULTS.md, keeps the rest")
    ap.add_argument("--cold-stamp", type=Path, default=None,
                    help="with --cache-only: the paper-scale scenario, its cold leg taken from this STAMP.json of a cold "
                         "run of record of the current sources (e.g. benchmarks/STAMP_paper_cold.json), starting "
                         "from a copy of the task cache that run filled")
    ap.add_argument("--cold-cache", type=Path, default=None,
                    help="with --cold-stamp: the cache folder that run used (default: theorycheck's cache folder)")
    ap.add_argument("--stamp", type=Path, action="append", default=[],
                    help="also profile the run recorded in this STAMP.json (e.g. reports/STAMP.json)")
    ap.add_argument("--suite", action="store_true",
                    help="only time the default test command (issue 31): updates its section of RESULTS.md")
    ap.add_argument("--budget", type=Path, default=None, metavar="STAMP",
                    help="only say where the paper-scale time of this STAMP.json goes and what sets each size "
                         "(issue 31; declared in benchmarks/size_origins.json): updates its section of RESULTS.md")
    args = ap.parse_args(argv)
    quick = not args.full
    if args.suite or args.budget:
        if args.budget:
            update_section(args.out, BUDGET_HEAD, budget_section(args.budget))
            update_section(args.out, STOPPING_HEAD, stopping_section(args.budget))
        if args.suite:
            m = measure_suite()
            (HERE / "suite.json").write_text(json.dumps(m, indent=1) + "\n", encoding="utf-8")
            update_section(args.out, SUITE_HEAD, suite_section(m))
            print(f"suite: {m['wall_s']} s wall, {m['cpu_s']} s CPU, {m['outcome']}", file=sys.stderr)
            return 0 if m["returncode"] == 0 else 1
        return 0
    if args.cache_only:
        if args.cold_stamp is not None:
            from theorycheck.run.passed import cache_dir
            runs = [cache_scenario("full", args.cold_stamp, args.cold_cache or cache_dir())]
        else:
            runs = [cache_scenario(m) for m in (("quick", "full") if args.full else ("quick",))]
        for c in runs:
            for t in cache_targets(c):
                print(f"  [{t[3]}] {t[0]}: {t[1]}")
        update_cache_section(args.out, runs)
        print(f"\nupdated the task-cache section of {args.out}", file=sys.stderr)
        return 0 if all(c[k]["returncode"] == 0 for c in runs for k in ("cold", "same", "edit")) else 1
    mach = machine()
    results = []
    for f in bench_files(args.only):
        print(f"== {f.name} ({'quick' if quick else 'full'}) ...", file=sys.stderr, flush=True)
        b = run_bench(f, quick)
        results.append(b)
        for r in b["rows"]:
            print(f"  {r['name']:42s} {_fmt(r.get('value')):>12s} {r.get('unit', ''):14s} {r.get('note', '')}")
    main_runs = []
    if not args.no_main:
        with tempfile.TemporaryDirectory(prefix="tc_bench_cache_") as cache:
            for mode in (("quick", "full") if args.full else ("quick",)):
                # cold: an empty record of passed checks (the derivation check runs, as on a fresh machine);
                # warm: the same sources again (the check passed before and is not repeated)
                for label in (("cold: derivation check runs", "warm: derivation check passed before")
                              if mode == "quick" else ("",)):
                    print(f"== theorycheck run --{mode} {label} ...", file=sys.stderr, flush=True)
                    m = run_main_job(mode, pdf=args.pdf, cache_dir=cache, label=label)
                    main_runs.append(m)
                    print(f"  run --{mode} ({label}): {m['wall_s']} s (exit {m['returncode']}); "
                          f"per paper {m['check_s_per_paper']}")
    stamps, makespans = {}, {}
    for p in args.stamp:           # a paper-scale run: its scale-out, simulated from its task costs
        if p.exists() and any(v.get("mode") == "full" for v in json.loads(p.read_text())["papers"].values()):
            import makespan  # lazy: a sibling script of this one (benchmarks/ is not a package)
            makespans[f"`{p}`"] = makespan.table(p, "full")
    for p in args.stamp:           # a run of record (e.g. the paper-scale run) counts against its mode's target
        m = run_from_stamp(p)
        if m is not None and m["mode"] not in {r["mode"] for r in main_runs}:
            main_runs.append(m)
        elif p.exists():
            stamps[f"`{p}`"] = profile(json.loads(p.read_text()))
    print("\nTargets:")
    for t in targets(results, main_runs):
        print(f"  [{t[3]}] {t[0]}: {t[1]}")
    write_results(results, main_runs, mach, args.full, args.out, stamps, makespans)
    if not args.no_main:
        runs = [cache_scenario(m) for m in (("quick", "full") if args.full else ("quick",))]
        update_cache_section(args.out, runs)
    (args.out.parent / "results.json").write_text(
        json.dumps({"machine": mach, "full": args.full, "benches": results, "main": main_runs}, indent=1,
                   default=str) + "\n", encoding="utf-8")
    print(f"\nwrote {args.out}", file=sys.stderr)
    return 0 if all(b["status"] == "ok" for b in results) and all(m["returncode"] == 0 for m in main_runs) else 1


if __name__ == "__main__":
    sys.exit(main())
