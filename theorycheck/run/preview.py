"""Print a paper's claims, verdicts, reasons and self-checks (a developer's quick look).

``python -m theorycheck.run.preview KEY [--full] [--seed N] [--claims ID ...] [--jobs N]``
"""
from __future__ import annotations

import argparse
import sys
import time

from . import run_papers


def show(led, tasks=None, file=sys.stdout) -> None:
    p = lambda *a: print(*a, file=file)  # noqa: E731
    p(f"== {led.key} ({led.mode}, seed {led.seed}) {led.counts()}  decision={led.decision.get('statistical_subclaims')} "
      f"statistical sub-claims")
    for c in led.claims:
        p(f"\n[{c.verdict or 'WITHHELD'}] {c.id} (lines {c.lines[0]}-{c.lines[1]}) {c.title}")
        p(f"   scope: {c.scope}")
        p(f"   reason: {c.reason}")
        if c.error:
            p("   ERROR:\n" + c.error[-2500:])
        for s in c.subclaims:
            p(f"   - [{s.verdict}] {s.statement}\n       {s.reason}")
        for s in c.self_checks:
            p(f"   * self-check {'ok' if s.passed else 'FAILED'}: {s.name} ({s.statistic_name} = {s.statistic}, "
              f"p = {s.p_value}, adj = {s.p_adjusted})")
        if tasks:
            t = tasks.get(f"{led.key}:claim:{c.id}")
            if t:
                p(f"   time {t['wall_s']:.1f}s")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python -m theorycheck.run.preview")
    ap.add_argument("key")
    ap.add_argument("--full", action="store_true")
    ap.add_argument("--seed", type=int, default=20261129)
    ap.add_argument("--claims", nargs="*")
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    out = run_papers([a.key], "full" if a.full else "quick", a.seed, jobs=a.jobs, claim_ids=a.claims)
    show(out.ledgers[a.key], out.tasks)
    fx = {k: v for k, v in out.tasks.items() if ":fixture:" in k}
    for k, v in fx.items():
        print(f"fixture {k}: {v['wall_s']:.1f}s" + (f" ERROR {v['error'][-1500:]}" if v["error"] else ""))
    print(f"\ntotal {time.perf_counter() - t0:.1f}s; failed={out.failed}")
    return 1 if out.failed else 0


if __name__ == "__main__":
    sys.exit(main())
