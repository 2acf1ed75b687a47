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

Exit status: 0 when everything ran; 1 when a task raised, a self-check failed, the generated code
is stale or a PDF failed to compile; 2 for bad arguments. A refuted claim is a result, not a failure.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

from . import papers
from .context import DEFAULT_SEED

__all__ = ["main", "derive", "derive_check", "derivation_modules", "check_output_dir", "repo_root",
           "default_out", "UsageError"]


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
    from . import codegen
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
    from . import codegen
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
    """True for generated code (its provenance header); a hand-written re-export left at an old import path (a
    paper's generated code moved into its package) is neither compared nor an orphan."""
    with open(path, encoding="utf-8") as fh:
        return fh.readline().startswith("# GENERATED by ")


def _start_derive_check(keys, quiet: bool):
    """``(pool, future)`` of :func:`derive_check` running in a separate process."""
    import concurrent.futures as cf
    from .run.local import worker_context
    ctx = worker_context()
    pool = cf.ProcessPoolExecutor(max_workers=1, mp_context=ctx)
    return pool, pool.submit(derive_check, list(keys) if keys else None, quiet)


# --------------------------------------------------------------------------- checks
def _progress(total: int, quiet: bool, label: str):
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None, None
    bar = tqdm(total=total, desc=label, unit="task", disable=quiet or not sys.stderr.isatty(), file=sys.stderr)

    def step(task, result):
        bar.update(1)
        if result.error and not quiet:
            bar.write(f"task {task.id} FAILED")
    return bar, step


def run_checks(keys, mode: str, seed: int, jobs: int, scheduler=None, quiet=False, costs=None):
    from .run import plan, run_papers
    ntasks = len(plan([papers.load(k) for k in keys], mode))
    bar, step = _progress(ntasks, quiet, f"check {mode}")
    try:
        out = run_papers(keys, mode, seed, jobs=jobs, scheduler=scheduler, progress=step, costs=costs)
    finally:
        if bar is not None:
            bar.close()
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
    return failures


def _report(out_dir: Path, ledgers: dict, figures: dict, pdf: bool, quiet: bool) -> int:
    from .report import write_reports
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
        _say(f"report  wrote {out_dir}/index.md and {len(ledgers)} paper report(s)")
    return failures


def _paper_stamp(out, key, source_sha256: str) -> dict:
    """The STAMP entry of paper ``key``; ``source_sha256``: the package digest of ``theorycheck`` (computed once
    per command)."""
    from .provenance import paper_sources
    led = out.ledgers[key]
    tasks = {t: v for t, v in out.tasks.items() if t.startswith(f"{key}:")}
    return {"mode": led.mode, "seed": led.seed, "sizes": led.parameters,
            "task_seconds": round(sum(v["wall_s"] for v in tasks.values()), 2),
            "tasks": {t: {"wall_s": round(v["wall_s"], 3), "peak_rss_mb": round(v["peak_rss_mb"], 1)}
                      for t, v in sorted(tasks.items())},
            "source_sha256": paper_sources(papers.load(key), source_sha256)}


def _load_failures() -> int:
    """Say, one line each, which installed paper plugins could not be loaded and why; return how many."""
    broken = papers.load_errors()
    for name, err in broken.items():
        _say(f"papers  plugin {name!r} could not be loaded: {err}")
    return len(broken)


def _cmd_check(args, report: bool) -> int:
    keys = args.paper or papers.keys()
    mode = "full" if args.full else "quick"
    out_dir = check_output_dir(args.out or default_out(mode))
    t0 = time.monotonic()
    failures = 0 if args.paper else _load_failures()     # all papers asked for: a broken one is a failure
    from .provenance import package_digest
    from .run import passed
    source_sha256 = package_digest("theorycheck")     # once: the run stamp and the record of passed checks use it
    derive, derive_note, derive_key = None, "skipped (--skip-derive-check)", None
    if report and not args.skip_derive_check:
        derive_key = passed.derive_check_key(keys, source_sha256=source_sha256)
        prev = None if args.recheck else passed.passed_before(derive_key)
        if prev is not None:                           # same sources and library versions: the same comparison
            derive_note = f"fresh (passed {prev['when']} for these exact sources and versions; not repeated)"
            if not args.quiet:
                _say(f"derive  --check: generated code is {derive_note}")
        else:                                          # in its own process, while the checks run
            derive = _start_derive_check(keys, args.quiet)
    from .run import previous_costs
    costs = None if args.scheduler else previous_costs(out_dir / "STAMP.json", mode)   # only a local pool uses them
    try:
        out = run_checks(keys, mode, args.seed, args.jobs, args.scheduler, args.quiet, costs)
    finally:
        if derive is not None:
            pool, fut = derive
            problems = fut.result()
            pool.shutdown()
    if derive is not None:
        derive_note = "fresh (compared now)" if not problems else "FAILED: " + "; ".join(problems)
        if problems:
            failures += 1
            if args.quiet:                             # a failure is always said, --quiet or not
                _say("derive  --check: " + "; ".join(problems))
        else:
            passed.record_pass(derive_key, "derive --check", papers=sorted(keys))
    failures += _summarise(out, args.quiet)
    if report:
        failures += _report(out_dir, out.ledgers, out.figures, not args.no_pdf, args.quiet)
    else:
        from .report import write_results_json
        from .figures import write_figure
        for figs in out.figures.values():
            for f in figs:
                write_figure(out_dir / "figures", f["stem"], f["png"], f["pdf"])
        write_results_json(out.ledgers, out_dir)
    from .report.stamp import write_stamp
    cmd = " ".join(["theorycheck"] + list(args.argv))
    write_stamp(out_dir, {k: _paper_stamp(out, k, source_sha256) for k in out.ledgers}, cmd, time.monotonic() - t0,
                {"jobs": args.jobs, "scheduler": args.scheduler, **({"derive_check": derive_note} if report else {})})
    if not args.quiet:
        _say(f"done    {time.monotonic() - t0:.1f}s → {out_dir}" + ("" if not failures else f" ({failures} failure(s))"))
    return 1 if failures else 0


def _cmd_report(args) -> int:
    from .claims import load_results
    out_dir = args.out or default_out("full")
    if args.check:
        from .report.check import check_reports
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
    return 1 if _report(Path(out_dir), ledgers, {}, not args.no_pdf, args.quiet) else 0


def _cmd_diff(args) -> int:
    from .report.diff import diff_results
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
    from .scaffold import new_paper
    try:
        paths = new_paper(args.key, args.seed_file, dest=args.dir, seed_id=args.seed_id, title=args.title,
                          install=not args.no_install)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    for p in paths:
        print(p)
    return 0


def _cmd_stability(args) -> int:
    from .stability import run_stability
    out_dir = check_output_dir(args.out or default_out("full"))
    res = run_stability(args.paper or papers.keys(), n_seeds=args.seeds, jobs=args.jobs, base_seed=args.base_seed,
                        out=out_dir, quiet=args.quiet)
    return 0 if not res["flips"] else 1


def _cmd_selftest(args) -> int:
    from .selftest.report import write_selftest
    out_dir = check_output_dir(args.out or default_out("full"))
    summary = write_selftest(out_dir, args.paper or papers.keys(), quiet=args.quiet, jobs=args.jobs)
    if not args.quiet:
        _say(f"selftest: {summary['caught']} of {summary['total']} mutants caught; rule calibration "
             f"{'ok' if summary['calibration_ok'] else 'FAILED'}; {summary['reliability_failures']} reliability "
             f"failure(s) → {out_dir}/selftest.md, calibration.md, reliability.md")
    return 0 if summary["all_caught"] and summary["clean_ok"] else 1


def _parser() -> argparse.ArgumentParser:
    from .run import default_jobs
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
                                         "reliability.md")
    paper_opt(st)
    st.add_argument("--jobs", type=_positive, default=default_jobs())
    st.add_argument("--out", type=Path, help="report folder (default ./reports)")
    st.add_argument("--quiet", action="store_true")
    sub.add_parser("papers", help="list the installed papers (built in and plugins)")
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


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] in (["run"], ["check"], ["selftest"], ["stability"]) and not {"-h", "--help"} & set(argv):
        from .run.local import start_worker_server
        start_worker_server()            # its imports overlap with this process's start-up
    args = _parser().parse_args(argv)
    args.argv = argv
    try:
        if args.command in ("run", "check"):
            return _cmd_check(args, report=args.command == "run")
        return {"report": _cmd_report, "diff": _cmd_diff, "derive": _cmd_derive, "papers": _cmd_papers, "new-paper": _cmd_new_paper,
                "stability": _cmd_stability, "selftest": _cmd_selftest}[args.command](args)
    except UsageError as exc:        # bad input: a clear message, exit 2
        _say(f"theorycheck {args.command}: error: {exc}")
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
