"""Command line: ``theorycheck run | check | report | diff | derive | new-paper | stability | selftest | papers``.

Examples::

    theorycheck run                        # all papers at the papers' own sizes → ./reports (of record)
    theorycheck run --quick                # small sizes, preliminary → ./reports-quick
    theorycheck run --paper nonlinear --jobs 4
    theorycheck run --scheduler tcp://10.0.0.5:8786     # on a Dask cluster
    theorycheck derive --check             # fail if the shipped generated code is stale
    theorycheck new-paper mypaper --seed summary.txt
    theorycheck stability --seeds 20       # quick verdicts under 20 run seeds → reports/stability.md
    theorycheck report --check             # are ./reports what the current sources produce?
    theorycheck diff old/results.json reports/
    theorycheck cache info                 # where finished tasks are kept, how much, and `cache clear`

Exit status: 0 when everything ran; 1 when a task raised, a self-check failed, the generated code
is stale or a PDF failed to compile; 2 for bad arguments or a report folder another run is writing; 130 after
Ctrl-C (finished tasks are kept in the task cache: the same command resumes). A refuted claim is a result, not a
failure.
"""
from __future__ import annotations

import argparse
import concurrent.futures as cf
import importlib
import os
import shlex
import sys
import tempfile
import time
import traceback
from pathlib import Path

from . import codegen, papers, provenance
from .claims import load_results
from .context import DEFAULT_SEED
from .figures import write_figure
from .report import write_reports, write_results_json
from .report.check import check_reports
from .report.diff import diff_results
from .report.stamp import write_stamp
from .run import RunInterrupted, SchedulerLost, TaskCache, default_jobs, passed, plan, previous_costs, run_papers
from .run.local import new_pool, start_worker_server, stop_pool
from .run.outdir import FolderBusy, OutputLock, staged
from .run.progress import Progress
from .scaffold import new_paper
from .selftest.report import write_paper_selftest, write_selftest
from .stability import run_stability

__all__ = ["main", "derive", "derive_check", "derivation_modules", "check_output_dir", "repo_root",
           "default_out", "UsageError", "run_checks"]


class UsageError(ValueError):
    """A problem with what the user asked for (exit status 2, a one-line message)."""


def repo_root() -> Path:
    """The folder above the package (a source checkout's root; meaningless for a wheel install)."""
    return Path(__file__).resolve().parent.parent


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def default_out(mode: str) -> Path:
    """``./reports`` for the run of record (full), ``./reports-quick`` for preliminary quick runs."""
    return Path.cwd() / ("reports" if mode == "full" else "reports-quick")


def check_output_dir(out: Path) -> Path:
    """Create ``out`` if needed and make sure it is a writable folder — before any work starts."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out must be a folder, but {out} is a file")
    try:
        out.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=out, prefix=".theorycheck-write-test-"):
            pass
    except OSError as exc:
        raise UsageError(f"--out folder {out} is not writable ({exc.strerror or exc})") from None
    return out


# --------------------------------------------------------------------------- derivations
def derivation_modules(keys=None) -> list[str]:
    """Module names of the derivations of ``keys`` (all installed papers by default)."""
    mods = []
    for k in keys or papers.keys():
        for m in papers.load(k).derivations:
            if m not in mods:
                mods.append(m)
    return mods


def _run_derivations(mods, quiet=False) -> int:
    failures = 0
    for m in mods:
        t0 = time.monotonic()
        try:
            importlib.import_module(m).main()
            if not quiet:
                _say(f"derive  {m:45s} ok   ({time.monotonic() - t0:.1f}s)")
        except Exception:  # report and continue with the others
            failures += 1
            _say(f"derive  {m:45s} FAILED")
            traceback.print_exc()
    return failures


def derive(keys=None, out: Path | None = None, quiet: bool = False) -> int:
    """Re-run the derivations, writing generated code into the packages (or under ``out``)."""
    mods = derivation_modules(keys)
    if out is not None:
        with codegen.output_root(check_output_dir(out)):
            return _run_derivations(mods, quiet)
    for m in mods:
        pkg = _generated_package(m)
        target = codegen.generated_dir(pkg)
        if not os.access(target, os.W_OK):
            _say(f"derive: {target} is not writable (installed package?); use --out DIR to write the regenerated "
                 "code elsewhere, or `theorycheck derive --check` to compare it with the shipped code")
            return 1
    return _run_derivations(mods, quiet)


def _generated_package(module: str) -> str:
    mod = importlib.import_module(module)
    return getattr(mod, "GENERATED_PACKAGE", "theorycheck.generated")


def derive_check(keys=None, quiet: bool = False) -> list[str]:
    """Regenerate into a temporary folder and list the shipped generated files that differ or are missing."""
    mods = derivation_modules(keys)
    problems = []
    with tempfile.TemporaryDirectory(prefix="theorycheck-derive-") as tmp:
        with codegen.output_root(tmp):
            if _run_derivations(mods, quiet=True):
                return ["a derivation failed (see the traceback above)"]
        for fresh in sorted(Path(tmp).rglob("*.py")):
            pkg = ".".join(fresh.relative_to(tmp).parent.parts)
            shipped = codegen.generated_dir(pkg) / fresh.name
            if not shipped.exists():
                problems.append(f"{pkg}.{fresh.stem}: produced by a derivation but not shipped")
            elif shipped.read_text(encoding="utf-8") != fresh.read_text(encoding="utf-8"):
                problems.append(f"{pkg}.{fresh.stem}: shipped code differs from what the derivations produce")
        broken = papers.load_errors()
        problems += [f"paper plugin {k!r} could not be loaded ({e}): its derivations were not checked"
                     for k, e in broken.items()]
        if keys is None and not broken:   # every derivation ran: a shipped module nobody produces is an orphan
            for pkg in {".".join(f.relative_to(tmp).parent.parts) for f in Path(tmp).rglob("*.py")}:
                made = {f.name for f in Path(tmp).joinpath(*pkg.split(".")).glob("*.py")}
                for f in sorted(codegen.generated_dir(pkg).glob("*.py")):
                    if f.name != "__init__.py" and f.name not in made and _is_generated(f):
                        problems.append(f"{pkg}.{f.stem}: shipped but produced by no derivation (orphan)")
    if not quiet:
        _say("derive  --check: " + ("generated code is fresh" if not problems else "; ".join(problems)))
    return problems


def _is_generated(path: Path) -> bool:
    """Whether ``path`` is generated code (its first line is the ``# GENERATED by`` header of
    :func:`theorycheck.codegen.module_source`); a hand-written re-export left at an old import path is not, and is
    neither compared nor an orphan."""
    with open(path, encoding="utf-8") as fh:
        return fh.readline().startswith("# GENERATED by ")


def _start_derive_check(keys, quiet: bool):
    """``(pool, future)`` of :func:`derive_check` running in a separate process."""
    pool = new_pool(1)
    return pool, pool.submit(derive_check, list(keys) if keys else None, quiet)


# --------------------------------------------------------------------------- checks
def run_checks(keys, mode: str, seed: int, jobs: int, scheduler=None, quiet=False, costs=None, cache=None):
    """:func:`theorycheck.run.run_papers` with a progress bar (terminal) or status lines (log)."""
    tasks = plan([papers.load(k) for k in keys], mode)
    progress = Progress(tasks, f"check {mode}", quiet=quiet, costs=costs, jobs=1 if scheduler else jobs)
    try:
        out = run_papers(keys, mode, seed, jobs=jobs, scheduler=scheduler, progress=progress,
                         costs=None if scheduler else costs, cache=cache)
    finally:
        progress.close()
    return out


def _summarise(out, quiet: bool) -> int:
    failures = 0
    for key, led in out.ledgers.items():
        cnt = led.counts()
        if not quiet:
            _say(f"check   {key}: {len(led.claims)} claims (" + ", ".join(f"{v} {k}" for k, v in cnt.items() if v) + ")")
        for c in led.claims:
            if c.error:
                failures += 1
                _say(f"check   {key}: claim {c.id} FAILED to run:\n{c.error[-2000:]}")
        bad = [s for s in led.self_checks if s.passed is False]
        if bad:
            failures += 1
            _say(f"check   {key}: SELF-CHECK FAILED (toolkit bug, verdicts withheld): " + "; ".join(
                f"{s.id} ({s.statistic_name} = {s.statistic}, p = {s.p_value}, Holm {s.p_adjusted})" for s in bad))
    for tid, t in out.tasks.items():
        if t["error"] and ":fixture:" in tid:
            failures += 1
            _say(f"check   fixture task {tid} FAILED:\n{t['error'][-2000:]}")
    if not quiet:
        n = {s: sum(1 for t in out.tasks.values() if t.get("status") == s) for s in ("computed", "cached", "skipped")}
        _say(f"tasks   {n['computed']} computed, {n['cached'] + n['skipped']} from the task cache"
             + (f" ({n['skipped']} of them not needed)" if n["skipped"] else ""))
    return failures


def _report(out_dir: Path, ledgers: dict, figures: dict, pdf: bool, quiet: bool, shown: Path | None = None) -> int:
    """Write the reports into ``out_dir`` (``shown``: the folder named in messages, when ``out_dir`` is a staging
    copy of it); return the number of failures."""
    status = write_reports(ledgers, out_dir, figures, pdf=pdf)
    failures = 0
    for key, st in status.items():
        if st["pdf"] is False:
            if "not found" in st["log"]:
                _say(f"report  {key}: LaTeX written; PDF skipped (pdflatex not installed)")
            else:
                failures += 1
                _say(f"report  {key}: PDF compilation FAILED\n{st['log'][-1500:]}")
    if not quiet:
        _say(f"report  wrote {shown or out_dir}/index.md and {len(ledgers)} paper report(s)")
    return failures


def _paper_stamp(out, key, source_sha256: str) -> dict:
    """The STAMP entry of paper ``key``; ``source_sha256``: the package digest of ``theorycheck`` (computed once
    per command). Per task: its wall time when computed, peak memory, and ``computed`` or ``cached``."""
    led = out.ledgers[key]
    tasks = {t: v for t, v in out.tasks.items() if t.startswith(f"{key}:")}
    ran = [v for v in tasks.values() if v.get("status", "computed") == "computed"]
    return {"mode": led.mode, "seed": led.seed, "sizes": led.parameters,
            "task_seconds": round(sum(v["wall_s"] for v in ran), 2),
            "tasks_computed": len(ran), "tasks_cached": len(tasks) - len(ran),
            "tasks": {t: {"wall_s": round(v["wall_s"], 3), "peak_rss_mb": round(v["peak_rss_mb"], 1),
                          "status": v.get("status", "computed")} for t, v in sorted(tasks.items())},
            "source_sha256": provenance.paper_sources(papers.load(key), source_sha256)}


def _load_failures() -> int:
    """Say, one line each, which installed paper plugins could not be loaded and why; return how many."""
    broken = papers.load_errors()
    for name, err in broken.items():
        _say(f"papers  plugin {name!r} could not be loaded: {err}")
    return len(broken)


class _Lock:
    """:class:`~theorycheck.run.outdir.OutputLock` of a report folder, refusing with a :class:`UsageError`."""

    def __init__(self, out: Path):
        self.lock = OutputLock(out)

    def __enter__(self):
        try:
            return self.lock.acquire()
        except FolderBusy as exc:
            raise UsageError(str(exc)) from None

    def __exit__(self, *exc):
        self.lock.release()
        return False


def _derive_begin(args, keys, report: bool, source_sha256: str):
    """``(running check or None, note, key)``: the derivation check, started in its own process unless it passed
    before for the same sources and versions (or is not wanted)."""
    if not report or args.skip_derive_check:
        return None, "skipped (--skip-derive-check)", None
    key = passed.derive_check_key(keys, source_sha256=source_sha256)
    prev = None if args.recheck else passed.passed_before(key)
    if prev is not None:                               # same sources and library versions: the same comparison
        note = f"fresh (passed {prev['when']} for these exact sources and versions; not repeated)"
        if not args.quiet:
            _say(f"derive  --check: generated code is {note}")
        return None, note, key
    return _start_derive_check(keys, args.quiet), None, key


def _derive_end(derive, note: str, key, keys, quiet: bool) -> tuple[str, int]:
    """``(note, failures)`` once the derivation check started by :func:`_derive_begin` is done."""
    if derive is None:
        return note, 0
    pool, fut = derive
    problems = fut.result()
    pool.shutdown()
    if problems:
        if quiet:                                      # a failure is always said, --quiet or not
            _say("derive  --check: " + "; ".join(problems))
        return "FAILED: " + "; ".join(problems), 1
    passed.record_pass(key, "derive --check", papers=sorted(keys))
    return "fresh (compared now)", 0


def _write_outputs(folder: Path, out, report: bool, args, shown: Path) -> int:
    if report:
        return _report(folder, out.ledgers, out.figures, not args.no_pdf, args.quiet, shown)
    for figs in out.figures.values():
        for f in figs:
            write_figure(folder / "figures", f["stem"], f["png"], f["pdf"])
    write_results_json(out.ledgers, folder)
    return 0


def _cmd_check(args, report: bool) -> int:
    keys = args.paper or papers.keys()
    mode = "full" if args.full else "quick"
    out_dir = check_output_dir(args.out or default_out(mode))
    with _Lock(out_dir):
        return _checked(args, keys, mode, out_dir, report)


def _checked(args, keys, mode: str, out_dir: Path, report: bool) -> int:
    t0 = time.monotonic()
    failures = 0 if args.paper else _load_failures()     # all papers asked for: a broken one is a failure
    source_sha256 = provenance.package_digest("theorycheck")   # once: the stamp and the record of passed checks
    derive, derive_note, derive_key = _derive_begin(args, keys, report, source_sha256)
    cache = None if args.no_cache else TaskCache()
    costs = previous_costs(out_dir / "STAMP.json", mode)
    try:
        out = run_checks(keys, mode, args.seed, args.jobs, args.scheduler, args.quiet, costs, cache)
        derive_note, bad = _derive_end(derive, derive_note, derive_key, keys, args.quiet)
    except BaseException:
        if derive is not None:
            stop_pool(derive[0])
        raise
    failures += bad + _summarise(out, args.quiet)
    cmd = " ".join(["theorycheck"] + list(args.argv))
    with staged(out_dir) as tmp:                       # the folder changes only once everything is written
        failures += _write_outputs(tmp, out, report, args, out_dir)
        extra = {"jobs": args.jobs, "scheduler": args.scheduler, "task_cache": _cache_note(cache),
                 **({"derive_check": derive_note} if report else {})}
        write_stamp(tmp, {k: _paper_stamp(out, k, source_sha256) for k in out.ledgers}, cmd, time.monotonic() - t0,
                    extra)
    if not args.quiet:
        _say(f"done    {time.monotonic() - t0:.1f}s → {out_dir}" + ("" if not failures else f" ({failures} failure(s))"))
    return 1 if failures else 0


def _cache_note(cache) -> str:
    if cache is None:
        return "off (--no-cache)"
    if not cache.usable:
        return f"off ({cache.root} is not writable)"
    return f"{cache.root}: {cache.hits} read, {cache.stored} stored, {cache.corrupt} broken entries recomputed"


def _cmd_report(args) -> int:
    out_dir = args.out or default_out("full")
    if args.check:
        problems = check_reports(Path(out_dir))
        for p in problems:
            _say(f"report --check: {p}")
        if not problems and not args.quiet:
            _say(f"report --check: {out_dir} is fresh")
        return 1 if problems else 0
    ledgers = load_results(Path(out_dir) / "results.json")
    if not ledgers:
        _say(f"report: no results in {Path(out_dir) / 'results.json'}; run `theorycheck check` first")
        return 1
    check_output_dir(out_dir)
    with _Lock(Path(out_dir)), staged(out_dir) as tmp:
        return 1 if _report(tmp, ledgers, {}, not args.no_pdf, args.quiet, Path(out_dir)) else 0


def _cmd_diff(args) -> int:
    try:
        d = diff_results(args.old, args.new)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    print(d.markdown(), end="")
    return 0


def _cmd_derive(args) -> int:
    keys = args.paper or None
    if args.list:
        for m in derivation_modules(keys):
            print(m)
        return 0
    if args.check:
        return 1 if derive_check(keys) else 0
    return 1 if derive(keys, args.out) else 0


def _cmd_papers(args) -> int:
    for k, p in papers.registry().items():
        print(f"{k:12s} seed {p.seed_id:8s} {len(p.claims):3d} claims  {p.title}  [{p.package or p.seed}]")
    for name, err in papers.load_errors().items():
        print(f"{name:12s} FAILED TO LOAD: {err}")
    return 1 if papers.load_errors() else 0


def _cmd_new_paper(args) -> int:
    try:
        paths = new_paper(args.key, args.seed_file, dest=args.dir, seed_id=args.seed_id, title=args.title,
                          install=not args.no_install)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    for p in paths:
        print(p)
    return 0


def _cmd_stability(args) -> int:
    out_dir = check_output_dir(args.out or default_out("full"))
    with _Lock(out_dir):
        res = run_stability(args.paper or papers.keys(), n_seeds=args.seeds, jobs=args.jobs, base_seed=args.base_seed,
                            out=out_dir, quiet=args.quiet)
    return 0 if not res["flips"] else 1


def _cmd_selftest(args) -> int:
    out_dir = check_output_dir(args.out or default_out("full"))
    cache = None if args.no_cache else TaskCache()        # the clean runs only: a mutant never uses it
    with _Lock(out_dir):
        if args.paper:
            summary = write_paper_selftest(out_dir, args.paper, jobs=args.jobs, cache=cache)
            if not args.quiet:
                _say(f"selftest: {summary['caught']} of {summary['total']} mutants of {', '.join(args.paper)} caught "
                     f"→ " + ", ".join(f"{out_dir}/{f}" for f in summary["files"]))
            return 0 if summary["all_caught"] and summary["clean_ok"] else 1
        summary = write_selftest(out_dir, papers.keys(), quiet=args.quiet, jobs=args.jobs, cache=cache)
    if not args.quiet:
        _say(f"selftest: {summary['caught']} of {summary['total']} mutants caught; rule calibration "
             f"{'ok' if summary['calibration_ok'] else 'FAILED'}; {summary['reliability_failures']} reliability "
             f"failure(s) → {out_dir}/selftest.md, calibration.md, reliability.md")
    return 0 if summary["all_caught"] and summary["clean_ok"] else 1


def _cmd_cache(args) -> int:
    cache = TaskCache()
    if args.action == "clear":
        n = cache.clear()
        print(f"cache   cleared {n} task entries from {cache.folder}")
        return 0
    i = cache.info()
    print(f"cache   {i['folder']}: {i['entries']} task entries, {i['bytes'] / 2 ** 20:.1f} MiB of at most "
          f"{i['max_bytes'] / 2 ** 30:g} GiB (THEORYCHECK_CACHE_MAX_GB)"
          + (f"; oldest {i['oldest']}, newest {i['newest']}" if i["entries"] else ""))
    return 0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="theorycheck", description=(
        "Verify the formulas, numbers and figures of ML-theory papers: SymPy derivations, generated code, Monte "
        "Carlo simulations of the actual models, and reports with a verdict per claim."))
    sub = p.add_subparsers(dest="command", required=True)
    keys = papers.keys()

    def paper_opt(sp):
        sp.add_argument("--paper", nargs="+", choices=keys, metavar="KEY",
                        help=f"paper(s) to process (default: all: {', '.join(keys)})")

    def run_opts(sp):
        paper_opt(sp)
        g = sp.add_mutually_exclusive_group()
        g.add_argument("--full", dest="full", action="store_true", default=True,
                       help="the papers' own sizes: the verdicts of record (default; writes ./reports)")
        g.add_argument("--quick", dest="full", action="store_false",
                       help="small sizes, preliminary (writes ./reports-quick)")
        sp.add_argument("--seed", type=_nonneg, default=DEFAULT_SEED, help=f"run seed (default {DEFAULT_SEED})")
        sp.add_argument("--out", type=Path, help="report folder (default ./reports, or ./reports-quick with --quick)")
        sp.add_argument("--jobs", type=_positive, default=default_jobs(),
                        help="worker processes (default: the cores available)")
        sp.add_argument("--scheduler", help="address of a Dask scheduler (tcp://HOST:PORT) to run the tasks on")
        sp.add_argument("--quiet", action="store_true", help="no progress bars or progress messages")
        sp.add_argument("--no-cache", action="store_true",
                        help="compute every task; do not read or write the task cache (theorycheck cache info)")

    sr = sub.add_parser("run", help="derive --check + check + report (the main job)")
    run_opts(sr)
    sr.add_argument("--no-pdf", action="store_true", help="do not run pdflatex")
    sr.add_argument("--skip-derive-check", action="store_true", help="do not compare the generated code first")
    sr.add_argument("--recheck", action="store_true",
                    help="compare the generated code even if the comparison passed before for the same sources and "
                         "library versions (theorycheck.run.passed)")
    sc = sub.add_parser("check", help="run the checks; write results.json and figures only")
    run_opts(sc)
    sp_ = sub.add_parser("report", help="render Markdown/LaTeX/PDF and the index from results.json")
    sp_.add_argument("--out", type=Path, help="report folder (default ./reports)")
    sp_.add_argument("--no-pdf", action="store_true")
    sp_.add_argument("--quiet", action="store_true")
    sp_.add_argument("--check", action="store_true",
                     help="do not write: exit 1 if the reports are stale with respect to the current sources")
    sf = sub.add_parser("diff", help="what changed between two results.json files or report folders")
    sf.add_argument("old", type=Path)
    sf.add_argument("new", type=Path)
    sd = sub.add_parser("derive", help="re-run the SymPy derivations (regenerate the generated code)")
    paper_opt(sd)
    sd.add_argument("--list", action="store_true", help="list the derivation modules and exit")
    sd.add_argument("--check", action="store_true", help="fail if the shipped generated code is stale")
    sd.add_argument("--out", type=Path, help="write the regenerated code under this folder instead")
    sn = sub.add_parser("new-paper", help="scaffold a new paper plugin (module, derivation, test, seed text)")
    sn.add_argument("key", help="the paper's key, [a-z0-9_-]+")
    sn.add_argument("--seed", dest="seed_file", type=Path, required=True, help="the paper's seed summary (text)")
    sn.add_argument("--seed-id", help="seed id (default: the file name's prefix before '_', or the key)")
    sn.add_argument("--title", help="the paper's title (default: the first non-empty line of the seed)")
    sn.add_argument("--dir", type=Path, default=None, help="where to create the plugin (default ./papers)")
    sn.add_argument("--no-install", action="store_true", help="do not pip-install the plugin (editable)")
    ss = sub.add_parser("stability", help="quick verdicts under many run seeds → stability.md")
    paper_opt(ss)
    ss.add_argument("--seeds", type=_positive, default=20, help="number of run seeds (default 20)")
    ss.add_argument("--base-seed", type=_nonneg, default=1, help="first run seed (default 1)")
    ss.add_argument("--jobs", type=_positive, default=default_jobs())
    ss.add_argument("--out", type=Path, help="report folder (default ./reports)")
    ss.add_argument("--quiet", action="store_true")
    st = sub.add_parser("selftest", help="mutants, rule calibration, API reliability → selftest.md, calibration.md, "
                                         "reliability.md; with --paper only those papers' mutants → selftest-KEY.md")
    paper_opt(st)
    st.add_argument("--jobs", type=_positive, default=default_jobs())
    st.add_argument("--out", type=Path, help="report folder (default ./reports)")
    st.add_argument("--quiet", action="store_true")
    st.add_argument("--no-cache", action="store_true", help="compute the clean runs again (mutants never use the cache)")
    sub.add_parser("papers", help="list the installed papers (built in and plugins)")
    sk = sub.add_parser("cache", help="the task cache: where finished tasks are kept (info) or empty it (clear)")
    sk.add_argument("action", choices=("info", "clear"))
    return p


def _nonneg(s: str) -> int:
    try:
        v = int(s)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {s!r}") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer, got {v}")
    return v


def _positive(s: str) -> int:
    v = _nonneg(s)
    if v < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer, got {v}")
    return v


def _interrupted(args, argv, exc) -> int:
    """Say in one line what Ctrl-C left and how to resume; exit status 130."""
    again = shlex.join(["theorycheck", *argv])
    kept = "kept in the task cache" if not getattr(args, "no_cache", True) else "not kept (--no-cache)"
    done = f"{exc.finished} of {exc.total} tasks finished, " if isinstance(exc, RunInterrupted) else "finished tasks "
    _say(f"theorycheck {args.command}: interrupted; {done}{kept}; to resume run the same command: {again}")
    return 130


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    args = None
    try:
        if argv[:1] in (["run"], ["check"], ["selftest"], ["stability"]) and not {"-h", "--help"} & set(argv):
            start_worker_server()            # its imports overlap with this process's start-up
        args = _parser().parse_args(argv)
        args.argv = argv
        if args.command in ("run", "check"):
            return _cmd_check(args, report=args.command == "run")
        return {"report": _cmd_report, "diff": _cmd_diff, "derive": _cmd_derive, "papers": _cmd_papers,
                "new-paper": _cmd_new_paper, "stability": _cmd_stability, "selftest": _cmd_selftest,
                "cache": _cmd_cache}[args.command](args)
    except UsageError as exc:        # bad input: a clear message, exit 2
        _say(f"theorycheck {args.command}: error: {exc}")
        return 2
    except SchedulerLost as exc:
        _say(f"theorycheck {args.command}: {exc}; {exc.finished} tasks had finished and are kept in the task cache; "
             f"to resume run the same command: {shlex.join(['theorycheck', *argv])}")
        return 1
    except KeyboardInterrupt as exc:
        if args is None:
            _say("theorycheck: interrupted")
            return 130
        return _interrupted(args, argv, exc)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
