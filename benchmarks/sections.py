"""Sections of ``benchmarks/RESULTS.md`` that are measured on their own (issue 31) and updated in place.

``update_section(path, head, lines)`` replaces the section that starts with the heading ``head`` (or inserts it
before "## All benchmark rows"), keeping the rest of the file — the task-cache section uses it too.

``suite_section()`` times the README's default test command (``python -m pytest``, with ``--durations=15``) in a
fresh process: wall time, the CPU time of the process tree (``RUSAGE_CHILDREN``), the load average before and after
(other processes share the 2 cores), the outcome line and the 15 slowest items. Target (issue 31): ≤ 600 s.

``budget_section(stamp, origins)`` says where the paper-scale task time goes, per paper and task kind (a claim, a
fixture over all its parameters, a stress test), and for each heavy kind what sets its size: the paper's experiment
(its stated sizes, or ours chosen to run it) or the power a verdict needs — declared in ``size_origins.json``
beside this file, never inferred from the timings. A kind that is heavy and has no declared origin is printed as
"not declared".

``stopping_section(stamp, origins)``: every power-sized kind with its declared stopping class (``stops`` in
``size_origins.json``: ``adopted`` — samples sequentially today; ``sequential`` — a Monte Carlo decision that could
stop, not adopted; ``planned`` — sized from a pilot; ``search`` — the coverage of a search or of a sampled universal,
which is the extent a verdict reports, so no stopping rule; ``finite-size`` — the df of the finite-size rule, which
has none; ``none`` — a self-check) and the bound the target "sampling time at least halved" meets: even if every
``sequential`` kind stopped at its first look (1/LOOKS of its maximum), the saving is at most 1 − 1/LOOKS of their seconds.
"""
from __future__ import annotations

import json
import os
import re
import resource
import subprocess
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from theorycheck.verdicts.sequential import LOOKS  # noqa: E402  (the toolkit beside these scripts)
TARGET_SUITE_S = 600.0
SUITE_HEAD = "## Test suite (issue 31)"
BUDGET_HEAD = "## Where the paper-scale time goes (issue 31)"
STOPPING_HEAD = "## Which power-sized sampling can stop (issue 31)"


def update_section(path: Path, head: str, lines: list) -> None:
    """Replace the section headed ``head`` in ``path`` by ``lines`` (which start with ``head``); else insert it
    before "## All benchmark rows" (or at the end). The rest of the file is kept byte for byte."""
    text = path.read_text(encoding="utf-8") if path.exists() else "# Benchmark results\n"
    old = text.rstrip("\n").split("\n")
    if head in old:
        i = old.index(head)
        j = next((k for k in range(i + 1, len(old)) if old[k].startswith("## ")), len(old))
        old[i:j] = lines
    else:
        j = next((k for k, ln in enumerate(old) if ln == "## All benchmark rows"), len(old))
        old[j:j] = lines
    path.write_text("\n".join(old).rstrip("\n") + "\n", encoding="utf-8")


def section(path: Path, head: str) -> list | None:
    """The lines of the section headed ``head`` in ``path`` (None if absent): a full regeneration of RESULTS.md
    keeps the sections measured on their own."""
    if not path.exists():
        return None
    lines = path.read_text(encoding="utf-8").rstrip("\n").split("\n")
    if head not in lines:
        return None
    i = lines.index(head)
    j = next((k for k in range(i + 1, len(lines)) if lines[k].startswith("## ")), len(lines))
    return lines[i:j]


KEPT_HEADS = (SUITE_HEAD, BUDGET_HEAD, STOPPING_HEAD)


# ----------------------------------------------------------------------------- the test suite
_DURATION = re.compile(r"^\s*([0-9.]+)s\s+(call|setup|teardown)\s+(\S.*)$")
_OUTCOME = re.compile(r"^(?:=+ )?(\d+ (?:passed|failed|error).*\bin [0-9.]+s.*?)(?: =+)?$")


def parse_pytest(out: str) -> dict:
    """The ``--durations`` rows and the final outcome line of a pytest run's output."""
    rows = [(float(m.group(1)), m.group(2), m.group(3)) for m in map(_DURATION.match, out.splitlines()) if m]
    outcome = next((m.group(1) for m in map(_OUTCOME.match, reversed(out.splitlines())) if m), "no outcome line")
    failed = [ln for ln in out.splitlines() if ln.startswith(("FAILED ", "ERROR "))]
    return {"slowest": rows, "outcome": outcome, "failed": failed}


def measure_suite(args: tuple = ()) -> dict:
    """Run ``python -m pytest --durations=15 -q`` (+ ``args``) from the repository root and measure it."""
    load0 = os.getloadavg()
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "pytest", "--durations=15", "-q", *args], cwd=ROOT,
                       capture_output=True, text=True)
    wall = time.perf_counter() - t0
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {"when": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "args": list(args),
            "wall_s": round(wall, 1), "cpu_s": round((ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime), 1),
            "load_before": [round(x, 2) for x in load0], "load_after": [round(x, 2) for x in os.getloadavg()],
            "returncode": p.returncode, **parse_pytest(p.stdout)}


def suite_section(m: dict) -> list:
    ok = m["returncode"] == 0 and m["wall_s"] <= TARGET_SUITE_S
    L = [SUITE_HEAD, "",
         f"Measured by `python benchmarks/run.py --suite` ({m['when']}): the README's test command "
         f"`python -m pytest` (default selection: `-m \"not slow\"`) with `--durations=15`, in a fresh process on 2 "
         "cores.", "",
         "| target | measured | detail | status |", "|---|---|---|---|",
         f"| default test command ≤ {TARGET_SUITE_S:.0f} s on 2 cores | {m['wall_s']} s | CPU time of the process tree "
         f"{m['cpu_s']} s; load average (1, 5, 15 min) before {m['load_before']}, after {m['load_after']}; "
         f"{m['outcome']} | {'met' if ok else 'MISSED'} |", ""]
    if m.get("failed"):
        L += ["Failures: " + "; ".join(f"`{f}`" for f in m["failed"]), ""]
    L += [
         "| 15 slowest items | phase | s |", "|---|---|---|"]
    L += [f"| `{name}` | {phase} | {s:.2f} |" for s, phase, name in m["slowest"][:15]]
    return L + [""]


# ----------------------------------------------------------------------------- where the paper-scale time goes
def task_kind(task_id: str) -> str:
    """``gla:fixture:stack_run[(3, 1)]`` → ``fixture:stack_run``; ``gla:claim:000-x`` → ``claim:000-x``;
    ``gla:stress:000-x::<assumption>`` → ``stress:000-x`` (a stress test over all its assumptions)."""
    _, kind, rest = task_id.split(":", 2)
    return f"{kind}:{rest.split('[', 1)[0].split('::', 1)[0]}"


def kind_seconds(paper: dict) -> Counter:
    """The task seconds of one paper's STAMP record per task kind (:func:`task_kind`)."""
    per = Counter()
    for tid, t in paper.get("tasks", {}).items():
        per[task_kind(tid)] += t.get("wall_s") or 0.0
    return per


def budget(stamp: dict, share: float = 0.8) -> dict:
    """Per paper: its task seconds and the heaviest kinds that together carry ``share`` of them."""
    out = {}
    for key, v in stamp["papers"].items():
        per = kind_seconds(v)
        total, acc, rows = sum(per.values()), 0.0, []
        for kind, s in per.most_common():
            if acc >= share * total:
                break
            rows.append((kind, round(s, 1)))
            acc += s
        out[key] = {"mode": v.get("mode"), "task_seconds": round(total, 1), "kinds": rows}
    return out


def budget_section(stamp_path: Path, origins_path: Path = HERE / "size_origins.json") -> list:
    stamp = json.loads(stamp_path.read_text(encoding="utf-8"))
    origins = json.loads(origins_path.read_text(encoding="utf-8"))
    L = [BUDGET_HEAD, "",
         f"From `{stamp_path}`: per paper, the task kinds that carry 80 % of its task time, and what sets each one's "
         f"size (declared in `benchmarks/{origins_path.name}`): **experiment** — the paper's experiment (its stated "
         "sizes, or the sizes we chose to run it); **power** — the precision a verdict needs (planned from a pilot with "
         "`verdicts.planning.plan`, or a candidate for sequential stopping, `verdicts.sequential`).", ""]
    for key, b in budget(stamp).items():
        L += [f"**{key}** ({b['mode']}, {b['task_seconds']} task seconds)", "",
              "| task kind | task s | share | size set by | why |", "|---|---|---|---|---|"]
        for kind, s in b["kinds"]:
            o = origins.get(f"{key}:{kind}", {"set_by": "not declared", "why": ""})
            L.append(f"| `{kind}` | {s} | {100 * s / b['task_seconds']:.0f} % | {o['set_by']} | {o['why']} |")
        L.append("")
    return L


#: the stopping classes of ``size_origins.json`` (``stops``) whose size a sequential rule could cut
STOPPABLE = ("sequential",)
#: the share of its maximum a sequential rule draws at its first look (``verdicts.sequential``'s looks)
FIRST_LOOK = Fraction(1, LOOKS)


def stopping_section(stamp_path: Path, origins_path: Path = HERE / "size_origins.json") -> list:
    stamp = json.loads(stamp_path.read_text(encoding="utf-8"))
    origins = json.loads(origins_path.read_text(encoding="utf-8"))
    rows, per_class = [], Counter()
    for key, v in stamp["papers"].items():
        for kind, s in kind_seconds(v).most_common():
            o = origins.get(f"{key}:{kind}")
            if o and o["set_by"] == "power":
                cls = o.get("stops", "not declared")
                rows.append((key, kind, round(s, 1), cls, o.get("stops_why", "")))
                per_class[cls] += s
    power = sum(per_class.values())
    stoppable = sum(per_class[c] for c in STOPPABLE)
    bound = float(1 - FIRST_LOOK) * stoppable
    L = [STOPPING_HEAD, "",
         f"From `{stamp_path}` and the classes declared in `benchmarks/{origins_path.name}` (`stops`): the power-sized "
         f"task kinds take {power:.1f} task s; by class: "
         + ", ".join(f"{c} {s:.1f} s" for c, s in per_class.most_common()) + ". "
         f"If every `sequential` kind stopped at its first look ({FIRST_LOOK} of its maximum), the saving would be at most "
         f"{1 - FIRST_LOOK} × {stoppable:.1f} = {bound:.1f} s = {100 * bound / power:.0f} % of the power-sized time; the target "
         f"(at least halved, {power / 2:.1f} s) is {'within' if bound >= power / 2 else 'out of'} reach of "
         "sequential stopping. The rest is the coverage of searches and sampled universals (the extent a verdict "
         "reports: a smaller search cannot confirm, and its count of counterexamples is the refutation's extent) and "
         "the df of the finite-size rule, neither of which has a stopping rule.", "",
         "| paper | task kind | task s | stops | why |", "|---|---|---|---|---|"]
    L += [f"| {k} | `{kind}` | {s} | {c} | {w} |" for k, kind, s, c, w in rows]
    return L + [""]
