"""Works from a wheel: build it, install it into a fresh virtual environment, make the installed package
read-only and run the quick job (one paper; ``-m slow``) — or, in the default run, one claim of every paper — from
an unrelated folder; the installed package must not change.

(Running as root, permissions are not enforced, so the test also compares every installed file before
and after the run: a run that writes into site-packages fails either way.)
"""
import contextlib
import hashlib
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests._venv import child_venv

from theorycheck import cli

REPO = cli.repo_root()


def _run(cmd, cwd, env=None, timeout=1200):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))} failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-4000:]}"
    return r


def _tree(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file() and "__pycache__" not in p.parts}


@contextlib.contextmanager
def _read_only_install(tmp_path):
    """Build the wheel, install it into a fresh virtual environment and make the installed package read-only;
    yield ``(python, env, work folder)``; afterwards, the installed package must be unchanged."""
    wheels = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-w", str(wheels), str(REPO)],
         tmp_path)
    wheel = next(wheels.glob("theorycheck-*.whl"))
    env_dir = tmp_path / "venv"
    py, env = child_venv(env_dir)
    env["THEORYCHECK_CACHE_DIR"] = str(tmp_path / "cache")
    _run([sys.executable, "-m", "pip", "--python", py, "install", "--no-deps", "--no-index", str(wheel)], tmp_path)
    site = Path(_run([py, "-c", "import theorycheck, os; print(os.path.dirname(theorycheck.__file__))"],
                     tmp_path, env).stdout.strip())
    assert str(env_dir) in str(site), f"the wheel's package is not the one imported: {site}"
    before = _tree(site)
    for p in [site, *site.rglob("*")]:
        p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    work = tmp_path / "elsewhere"
    work.mkdir()
    try:
        yield py, env, work
    finally:
        for p in [site, *site.rglob("*")]:
            p.chmod(p.stat().st_mode | stat.S_IWUSR)
    assert _tree(site) == before, "the run wrote into the installed package"


_FIRST_CLAIMS = """
from theorycheck import papers
from theorycheck.run import run_papers
keys = [k for k, p in papers.registry().items() if (p.package or "").startswith("theorycheck.papers.")]
assert sorted(keys) == ["gla", "lds", "nonlinear"], keys
for k in keys:
    paper = papers.load(k).validate()
    out = run_papers([k], "quick", claim_ids=[next(iter(paper.claims)).id])
    assert not out.failed and out.ledgers[k].claims[0].verdict != "error", (k, out.failed)
print("ok")
"""


@pytest.mark.skipif(not (REPO / "setup.cfg").exists(), reason="needs the source tree to build the wheel")
def test_every_paper_loads_and_runs_a_claim_from_a_read_only_wheel_install(tmp_path):
    """The fast representative of the acceptance test below: the wheel holds every paper (its seed, seed map and
    data files load and validate), and one claim of each runs from the read-only install (the task cache is
    written outside it)."""
    with _read_only_install(tmp_path) as (py, env, work):
        assert _run([py, "-c", _FIRST_CLAIMS], work, env).stdout.strip().endswith("ok")


@pytest.mark.slow
@pytest.mark.skipif(not (REPO / "setup.cfg").exists(), reason="needs the source tree to build the wheel")
def test_quick_job_from_a_read_only_wheel_install(tmp_path):
    with _read_only_install(tmp_path) as (py, env, work):
        _run([py, "-c", "import sys; from theorycheck.cli import main; sys.exit(main())", "derive", "--check"], work, env)
        # one paper (the shortest quick run): the read-only install, the cache and the output folder are the same
        # code paths for every paper, and the default suite runs each paper's quick job in-process anyway
        _run([py, "-c", "import sys; from theorycheck.cli import main; sys.exit(main())", "run", "--quick", "--no-pdf",
              "--quiet", "--jobs", "2", "--paper", "nonlinear"], work, env)
    assert (work / "reports-quick" / "index.md").exists()
