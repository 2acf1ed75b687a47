"""The makespan a list scheduler would reach on 1, 2, 4, …, 32 workers, from measured task costs.

    python benchmarks/makespan.py [STAMP.json] [--mode full|quick]

The tasks and their dependencies come from :func:`theorycheck.run.plan` (every installed paper), their costs from the
``wall_s`` of each task in a ``STAMP.json`` (default: ``reports/STAMP.json``, the paper-scale run of record). The
simulation is the run engine's own policy (:func:`theorycheck.run.local.critical_path`: the ready task with the
longest remaining critical path first) with no overhead, so it is a lower bound of a real run; the longest task and
the critical path bound it from below for any number of workers.
"""
from __future__ import annotations

import argparse
import heapq
import json
import sys
from pathlib import Path

WORKERS = (1, 2, 4, 8, 16, 32)


def simulate(tasks, costs: dict, workers: int) -> float:
    """Makespan of the critical-path-first list schedule of ``tasks`` (in dependency order) on ``workers``."""
    from theorycheck.run.local import critical_path
    rank = critical_path(tasks, costs)
    children: dict = {t.id: [] for t in tasks}
    waiting = {t.id: len(t.deps) for t in tasks}
    for t in tasks:
        for d in t.deps:
            children[d].append(t.id)
    ready = [(-rank[t.id], t.id) for t in tasks if not t.deps]
    heapq.heapify(ready)
    running: list = []                         # (finish time, task id)
    now, done = 0.0, 0
    while ready or running:
        while ready and len(running) < workers:
            _, tid = heapq.heappop(ready)
            heapq.heappush(running, (now + costs.get(tid, 0.0), tid))
        now, tid = heapq.heappop(running)
        done += 1
        for c in children[tid]:
            waiting[c] -= 1
            if waiting[c] == 0:
                heapq.heappush(ready, (-rank[c], c))
    return now


def table(stamp_path: Path, mode: str = "full") -> dict:
    """``{"workers": {w: makespan}, "total", "longest", "critical_path", "tasks"}`` for the run of ``stamp_path``."""
    from theorycheck import papers
    from theorycheck.run import plan
    from theorycheck.run.local import critical_path
    stamp = json.loads(Path(stamp_path).read_text(encoding="utf-8"))
    costs = {t: float(v["wall_s"]) for p in stamp["papers"].values() if p.get("mode") == mode
             for t, v in p.get("tasks", {}).items()}
    tasks = [t for t in plan([papers.load(k) for k in papers.keys()], mode) if t.id in costs]
    rank = critical_path(tasks, costs)
    longest = max(tasks, key=lambda t: costs[t.id])
    return {"workers": {w: simulate(tasks, costs, w) for w in WORKERS}, "total": sum(costs[t.id] for t in tasks),
            "longest": (longest.id, costs[longest.id]), "critical_path": max(rank.values()), "tasks": len(tasks)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("stamp", nargs="?", default="reports/STAMP.json")
    ap.add_argument("--mode", default="full", choices=("full", "quick"))
    a = ap.parse_args(argv)
    t = table(Path(a.stamp), a.mode)
    print(f"{t['tasks']} tasks, {t['total']:.1f} s of task time; longest task {t['longest'][0]} "
          f"({t['longest'][1]:.1f} s); critical path {t['critical_path']:.1f} s")
    print("| workers | " + " | ".join(str(w) for w in WORKERS) + " |")
    print("|---|" + "---|" * len(WORKERS))
    print("| simulated makespan (s) | " + " | ".join(f"{t['workers'][w]:.1f}" for w in WORKERS) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
