"""Adding a paper is adding files: ``theorycheck new-paper`` in a temporary copy of the repository.

The scaffolded plugin is installed into a fresh virtual environment (with this environment's packages
visible), run quickly, and its own test run; no tracked file of the copy may change.
"""
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from theorycheck import cli, scaffold

REPO = cli.repo_root()


def _run(cmd, cwd, env=None, timeout=600):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))} failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


@pytest.mark.skipif(not (REPO / ".git").exists() or shutil.which("git") is None, reason="needs a git checkout")
def test_new_paper_in_a_copy_of_the_repository(tmp_path):
    copy = tmp_path / "repo"
    _run(["git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(copy)], tmp_path)
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    py = str(env_dir / "bin" / "python")
    env = dict(os.environ, PATH=f"{env_dir / 'bin'}{os.pathsep}{os.environ['PATH']}", PYTHONNOUSERSITE="1")
    env.pop("PYTHONPATH", None)
    seed = tmp_path / "042_short-summary.txt"
    seed.write_text("A short summary of another paper\n\n结论: the fourth moment of g is 3.\n", encoding="utf-8")
    # the installed theorycheck (not the copy's source folder) runs: commands start outside the copy
    tc = [py, "-c", "import sys; from theorycheck.cli import main; sys.exit(main())"]
    _run(tc + ["new-paper", "demo", "--seed", str(seed), "--dir", str(copy / "papers")], tmp_path, env)
    assert "demo" in _run(tc + ["papers"], tmp_path, env).stdout
    out = copy / "reports-quick"
    r = _run(tc + ["run", "--paper", "demo", "--quick", "--no-pdf", "--jobs", "1", "--quiet", "--out", str(out)],
             tmp_path, env)
    md = (out / "demo.md").read_text()
    assert "042-example" in md and "✅ confirmed" in md
    plugin = copy / "papers" / "demo"
    _run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(plugin), str(plugin / "tests")],
         plugin, env)
    status = _run(["git", "status", "--porcelain"], copy).stdout.splitlines()
    changed = [ln for ln in status if not ln.startswith("??") and not ln[3:].startswith("reports/")]
    assert not changed, changed
    assert r.returncode == 0


def test_bad_scaffold_arguments(tmp_path):
    seed = tmp_path / "s.txt"
    seed.write_text("x\n")
    with pytest.raises(ValueError, match=r"\[a-z0-9_-\]\+"):
        scaffold.new_paper("Bad Key", seed, dest=tmp_path, install=False)
    with pytest.raises(ValueError, match="existing text file"):
        scaffold.new_paper("ok", tmp_path / "missing.txt", dest=tmp_path, install=False)
    with pytest.raises(ValueError, match="already used"):
        scaffold.new_paper("gla", seed, dest=tmp_path, install=False)
    empty = tmp_path / "e.txt"
    empty.write_text("\n\n")
    with pytest.raises(ValueError, match="empty"):
        scaffold.new_paper("ok", empty, dest=tmp_path, install=False)
    assert cli.main(["new-paper", "Bad Key", "--seed", str(seed), "--dir", str(tmp_path), "--no-install"]) == 2


def test_seed_id_from_file_name():
    assert scaffold._seed_id(Path("004_50ac.txt"), "k") == "004"
    assert scaffold._seed_id(Path("summary.txt"), "k") == "k"
    assert scaffold.package_name("my-paper") == "theorycheck_paper_my_paper"
