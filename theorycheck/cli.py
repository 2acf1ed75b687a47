"""Command line: ``theorycheck derive | check | report | run``.

Examples::

    theorycheck run                       # all papers, quick sizes, writes reports/
    theorycheck run --paper nonlinear --full
    theorycheck derive --paper lds        # re-run the SymPy derivations of one paper
    theorycheck check --paper gla --seed 7 --out /tmp/r
    theorycheck report                    # re-render reports from reports/results.json

Exit status is non-zero only when something failed to *run* (an exception in a
derivation or a check, a LaTeX compile error). A refuted claim is a result, not
a failure.
"""
from __future__ import annotations

import argparse
import json
import platform
import runpy
import subprocess
import sys
import time
import traceback
from pathlib import Path

from . import papers
from .claims import load_results
from .context import DEFAULT_SEED, RunContext

__all__ = ["main", "derive", "check", "report", "derivation_scripts", "repo_root"]


def repo_root() -> Path:
    return Path(__file__).resolve().parent.parent


def derivation_scripts(paper: str | None = None) -> list[Path]:
    """The derivation scripts of ``paper`` (all papers if ``None``), sorted by name."""
    folder = repo_root() / "derivations"
    if not folder.is_dir():
        raise FileNotFoundError(f"no derivations/ folder next to the package ({folder}); "
                                "use an editable install (pip install -e .) from a clone")
    keys = [paper] if paper else papers.keys()
    out = []
    for k in keys:
        out += sorted(folder.glob(f"{k}_*.py"))
    return out


def _say(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


def derive(paper: str | None = None) -> int:
    failures = 0
    for script in derivation_scripts(paper):
        t0 = time.monotonic()
        try:
            runpy.run_path(str(script), run_name="__main__")
            _say(f"derive  {script.name:40s} ok   ({time.monotonic() - t0:.1f}s)")
        except Exception:  # report and continue with the others
            failures += 1
            _say(f"derive  {script.name:40s} FAILED")
            traceback.print_exc()
    return failures


def _git_commit() -> str:
    try:
        r = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo_root(), capture_output=True, text=True,
                           timeout=10)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=repo_root(),
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return r.stdout.strip() + ("+dirty" if dirty else "") if r.returncode == 0 else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def _versions() -> dict:
    import matplotlib
    import mpmath
    import numpy
    import scipy
    import sympy
    from . import __version__
    return {"theorycheck": __version__, "python": platform.python_version(), "numpy": numpy.__version__,
            "scipy": scipy.__version__, "sympy": sympy.__version__, "mpmath": mpmath.__version__,
            "matplotlib": matplotlib.__version__, "platform": platform.platform()}


def check(paper_keys, ctx: RunContext) -> tuple[dict, dict, int]:
    """Build the ledgers of ``paper_keys``; return (ledgers, wall times, failures)."""
    ledgers, times, failures = {}, {}, 0
    for key in paper_keys:
        t0 = time.monotonic()
        _say(f"check   {key} ({ctx.mode}, seed {ctx.seed}) ...")
        try:
            led = papers.load(key).build(ctx)
            led.parameters.setdefault("mode", ctx.mode)
            led.parameters.setdefault("seed", ctx.seed)
            ledgers[key] = led
            cnt = ", ".join(f"{v} {k}" for k, v in led.counts().items() if v)
            _say(f"check   {key} done in {time.monotonic() - t0:.1f}s: {len(led.claims)} claims ({cnt})")
        except Exception:
            failures += 1
            _say(f"check   {key} FAILED")
            traceback.print_exc()
        times[key] = round(time.monotonic() - t0, 2)
    return ledgers, times, failures


def report(out: Path, pdf: bool = True) -> int:
    from .report import write_reports
    ledgers = load_results(out / "results.json")
    if not ledgers:
        _say(f"report: no results in {out / 'results.json'}; run `theorycheck check` first")
        return 1
    status = write_reports(ledgers, out, pdf=pdf)
    failures = 0
    for key, st in status.items():
        if st["pdf"] is False:
            if "not found" in st["log"]:
                _say(f"report  {key}: LaTeX written; PDF skipped (pdflatex not installed)")
            else:
                failures += 1
                _say(f"report  {key}: PDF compilation FAILED\n{st['log'][-1500:]}")
    _say(f"report  wrote {out}/index.md and {len(ledgers)} paper reports")
    return failures


def _merge_results(out: Path, ledgers: dict) -> None:
    from .report import write_results_json
    old = load_results(out / "results.json")
    old.update(ledgers)
    out.mkdir(parents=True, exist_ok=True)
    write_results_json(old, out)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="theorycheck", description=(
        "Verify the formulas and figures of ML-theory papers: SymPy derivations, generated code, "
        "Monte Carlo simulations of the actual models, and reports with a verdict per claim."))
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp, sizes=True):
        sp.add_argument("--paper", choices=papers.keys(), help="one paper (default: all)")
        if sizes:
            g = sp.add_mutually_exclusive_group()
            g.add_argument("--quick", action="store_true", help="small sizes, all papers in ~2 minutes (default)")
            g.add_argument("--full", action="store_true", help="the papers' own sizes (tens of minutes)")
            sp.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"run seed (default {DEFAULT_SEED})")
        sp.add_argument("--out", type=Path, default=None, help="report folder (default: reports/ in the repo)")

    sd = sub.add_parser("derive", help="re-run the SymPy derivation scripts (regenerates generated code)")
    sd.add_argument("--paper", choices=papers.keys(), help="one paper (default: all)")
    sd.add_argument("--list", action="store_true", help="list the scripts and exit")
    common(sub.add_parser("check", help="run the checks and write results.json"))
    sr = sub.add_parser("report", help="render Markdown/LaTeX/PDF from results.json")
    sr.add_argument("--out", type=Path, default=None)
    sr.add_argument("--no-pdf", action="store_true", help="do not run pdflatex")
    sn = sub.add_parser("run", help="derive + check + report (the main job)")
    common(sn)
    sn.add_argument("--no-pdf", action="store_true", help="do not run pdflatex")
    return p


def main(argv=None) -> int:
    args = _parser().parse_args(argv)
    out = args.out if getattr(args, "out", None) else repo_root() / "reports"
    if args.command == "derive":
        if args.list:
            for s in derivation_scripts(args.paper):
                print(s.relative_to(repo_root()))
            return 0
        return 1 if derive(args.paper) else 0
    if args.command == "report":
        return 1 if report(out, pdf=not args.no_pdf) else 0

    if args.seed < 0:
        _say("error: --seed must be a non-negative integer")
        return 2
    keys = [args.paper] if args.paper else papers.keys()
    mode = "full" if args.full else "quick"
    ctx = RunContext(mode=mode, seed=args.seed, out=out)
    failures = 0
    t_start = time.monotonic()
    if args.command == "run":
        failures += derive(args.paper)
    ledgers, times, f = check(keys, ctx)
    failures += f
    if ledgers:
        _merge_results(out, ledgers)
    if args.command == "run" and not args.paper:
        # the fault-injection table and the false-alarm calibration (seed-independent; ~30 s)
        from . import selftest
        try:
            selftest.write_all(out, calibration_seeds=200)
            _say(f"selftest wrote {out}/selftest.md and {out}/calibration.md")
        except Exception:
            failures += 1
            _say("selftest FAILED")
            traceback.print_exc()
    if args.command == "run":
        failures += report(out, pdf=not args.no_pdf)
        # the Markdown index also lists any other generated report (e.g. selftest.md)
    from .report import write_stamp
    write_stamp(out, {"versions": _versions(), "git_commit": _git_commit(),
                      "last_command": " ".join(["theorycheck"] + (argv if argv is not None else sys.argv[1:])),
                      "papers": {k: {"mode": mode, "seed": args.seed, "wall_time_s": times[k],
                                     "finished_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
                                 for k in times},
                      "total_wall_time_s": round(time.monotonic() - t_start, 2)})
    return 1 if failures else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
