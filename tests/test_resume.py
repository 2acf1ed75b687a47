"""Runs that stop and resume: Ctrl-C (SIGINT) mid-run, a second run into the same folder, a report folder never
half-written, a Dask worker killed mid-run, status lines without a terminal."""
from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from theorycheck import cli, papers
from theorycheck.report import results_document, write_results_json
from theorycheck.run import RunInterrupted, TaskCache, plan, run_papers
from theorycheck.run.outdir import LOCK_NAME, STAGE_TAG, OutputLock
from theorycheck.run.progress import Progress
from theorycheck.run.tasks import TaskResult

sys.path.insert(0, str(Path(__file__).parent))
import _fake_plugin  # noqa: E402

#: the fake paper whose stress points take a while (so that a run can be interrupted, or a worker killed, mid-run)
SLOW = _fake_plugin.PACKAGE.replace("import numpy as np\n", "import time\n\nimport numpy as np\n", 1).replace(
    '    if BEHAVIOUR["mode"] == "stress-raises" and v == 0.15:',
    '    time.sleep(0.6)\n    if BEHAVIOUR["mode"] == "stress-raises" and v == 0.15:')


@pytest.fixture
def slow_plugin(tmp_path, monkeypatch):
    root = tmp_path / "site"
    _fake_plugin.install(root, source=SLOW)
    monkeypatch.syspath_prepend(str(root))
    papers.refresh()
    yield root
    for m in [m for m in sys.modules if m.startswith("tc_fake_paper")]:
        sys.modules.pop(m)
    papers.refresh()


def _doc(out) -> str:
    return json.dumps(results_document(out.ledgers), sort_keys=True)


def test_interrupted_run_keeps_finished_tasks_and_resumes(fake_plugin, tmp_path):
    cache = TaskCache(tmp_path / "cache")
    seen = []

    def ctrl_c_after_three(task, result):
        seen.append(task.id)
        if len(seen) == 3:
            raise KeyboardInterrupt
    with pytest.raises(RunInterrupted) as info:
        run_papers(["fake"], "quick", 5, jobs=2, cache=cache, progress=ctrl_c_after_three)
    assert info.value.finished >= 2 and info.value.total == 9 and isinstance(info.value, KeyboardInterrupt)
    assert len(list(cache.folder.rglob("*.tce"))) >= 2           # stored as they finished
    resumed = run_papers(["fake"], "quick", 5, jobs=2, cache=cache)
    assert sum(v["status"] == "cached" for v in resumed.tasks.values()) >= 2
    assert _doc(resumed) == _doc(run_papers(["fake"], "quick", 5))


def test_sigint_stops_with_one_line_and_the_same_command_resumes(slow_plugin, tmp_path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    env = dict(os.environ, THEORYCHECK_CACHE_DIR=str(cache), THEORYCHECK_PROGRESS="0",
               PYTHONPATH=os.pathsep.join([str(slow_plugin)] + [p for p in os.environ.get("PYTHONPATH", "").split(
                   os.pathsep) if p]))
    cmd = [sys.executable, "-m", "theorycheck", "run", "--paper", "fake", "--quick", "--seed", "5", "--no-pdf",
           "--jobs", "2", "--skip-derive-check", "--out", str(out)]
    # SIGINT at its default in the child: a shell starts a background job (pytest … &) with SIGINT ignored, which the
    # child would inherit, and Python then installs no KeyboardInterrupt handler (Ctrl-C reaches a foreground run only)
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 180
    while len(list((cache / "tasks").rglob("*.tce"))) < 3 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "Traceback" not in err, err
    assert "interrupted;" in lines[0] and "of 9 tasks finished" in lines[0] and "theorycheck run --paper fake" in lines[0]
    assert not (out / "results.json").exists() and not [p for p in tmp_path.iterdir() if STAGE_TAG in p.name]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    stamp = json.loads((out / "STAMP.json").read_text())["papers"]["fake"]
    assert stamp["tasks_cached"] >= 3 and stamp["tasks_computed"] + stamp["tasks_cached"] == 9
    whole = tmp_path / "whole"                                    # an uninterrupted run, in this process
    write_results_json(run_papers(["fake"], "quick", 5).ledgers, whole)
    assert (out / "results.json").read_bytes() == (whole / "results.json").read_bytes()


def test_a_second_run_into_the_same_folder_is_refused(fake_plugin, tmp_path, capsys):
    out = tmp_path / "out"
    args = ["run", "--paper", "fake", "--quick", "--out", str(out), "--no-pdf", "--jobs", "1", "--quiet",
            "--skip-derive-check"]
    with OutputLock(out):
        assert cli.main(args) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and f"(PID {os.getpid()})" in err[0] and "--out" in err[0]
    assert not (out / LOCK_NAME).exists()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    out.mkdir(exist_ok=True)
    (out / LOCK_NAME).write_text(f"{dead.pid}\n")                 # left by a killed run: taken over
    assert cli.main(args) == 0 and (out / "fake.md").exists() and not (out / LOCK_NAME).exists()


def test_a_failed_rendering_leaves_the_folder_as_it_was(fake_plugin, tmp_path, monkeypatch):
    out = tmp_path / "out"
    args = ["run", "--paper", "fake", "--quick", "--out", str(out), "--no-pdf", "--jobs", "1", "--quiet",
            "--skip-derive-check"]
    assert cli.main(args) == 0
    before = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()}

    def broken(*a, **k):
        raise RuntimeError("disk full")
    monkeypatch.setattr(cli, "write_stamp", broken)
    with pytest.raises(RuntimeError, match="disk full"):
        cli.main(args + ["--seed", "9"])                             # another seed: every report would change
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.rglob("*") if p.is_file()} == before
    assert not [p for p in tmp_path.iterdir() if STAGE_TAG in p.name]


def test_status_lines_without_a_terminal(monkeypatch):
    monkeypatch.setenv("THEORYCHECK_PROGRESS", "1")
    monkeypatch.setenv("THEORYCHECK_PROGRESS_INTERVAL", "0.2")
    tasks = plan([papers.load("nonlinear")], "quick")[:4]
    buf = io.StringIO()
    pr = Progress(tasks, "check quick", costs={t.id: 10.0 for t in tasks}, jobs=2, stream=buf, tty=False)
    pr(tasks[0], TaskResult(tasks[0].id, cached=True))
    time.sleep(0.5)
    pr.close()
    lines = buf.getvalue().splitlines()
    assert 1 <= len(lines) <= 3 and lines[0].startswith("progress  1/4 tasks done (1 from the cache), ")
    assert lines[0].endswith("about 15s left")
    monkeypatch.setenv("THEORYCHECK_PROGRESS_INTERVAL", "0")
    with pytest.raises(ValueError, match="THEORYCHECK_PROGRESS_INTERVAL"):
        Progress(tasks, "x", stream=io.StringIO(), tty=False)


def test_dask_worker_killed_mid_run_gives_identical_results(slow_plugin):
    distributed = pytest.importorskip("distributed")
    local = run_papers(["fake"], "quick", 5)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl, \
            distributed.Client(cl) as client:
        pids = client.run(os.getpid)
        killed = []

        def kill_one(task, result):                # the first result in: the other points are running
            if not killed:
                busy = [w for w, ts in client.processing().items() if ts and w in pids]
                os.kill(pids[(busy or list(pids))[0]], signal.SIGKILL)
                killed.append(1)
        remote = run_papers(["fake"], "quick", 5, scheduler=client, progress=kill_one)
    assert killed and not remote.failed
    assert _doc(remote) == _doc(local)
    assert [f["png"] for f in remote.figures["fake"]] == [f["png"] for f in local.figures["fake"]]


def test_a_killed_worker_loses_only_its_tasks(slow_plugin):
    psutil = pytest.importorskip("psutil")
    killed = []

    def kill_a_worker(task, result):              # the first result in: the other points are running
        if killed:
            return
        servers = [c for c in psutil.Process().children() if "forkserver" in " ".join(c.cmdline())]
        workers = [w for s in servers for w in s.children()]
        if workers:
            workers[0].kill()
            killed.append(workers[0].pid)
    out = run_papers(["fake"], "quick", 5, jobs=2, progress=kill_a_worker)
    assert killed and not out.failed                  # its tasks ran again in a fresh pool
    assert _doc(out) == _doc(run_papers(["fake"], "quick", 5))
