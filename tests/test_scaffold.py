"""Adding a paper is adding files: ``theorycheck new-paper`` in a temporary copy of the repository.

End to end (``-m slow``): the scaffolded plugin is installed into a fresh virtual environment (with this
environment's packages visible), run quickly, and its own test run; no tracked file of the copy may change. The
default run keeps the fast representative of the same kind: the scaffold written in process, found through its
entry point, checked against the skeleton and run quickly (its example claim confirmed).
"""
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests._fake_plugin import write_dist_info
from tests._venv import child_venv

from theorycheck import cli, scaffold

REPO = cli.repo_root()


def _run(cmd, cwd, env=None, timeout=600):
    r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert r.returncode == 0, f"{' '.join(map(str, cmd))} failed ({r.returncode}):\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


def test_a_scaffolded_paper_has_the_skeleton_and_runs(tmp_path, monkeypatch):
    """The fast representative: ``new_paper`` writes the plugin, an entry point (as ``pip install -e`` would) makes
    it a registered paper, the skeleton checker finds nothing, and its quick run confirms the example claim."""
    from theorycheck import papers
    from theorycheck.papers.skeleton import problems
    from theorycheck.run import run_papers
    seed = tmp_path / "042_short-summary.txt"
    seed.write_text("A short summary of another paper\n\n结论: the fourth moment of g is 3.\n", encoding="utf-8")
    scaffold.new_paper("demo", seed, dest=tmp_path / "papers", install=False)
    root, pkg = tmp_path / "papers" / "demo", scaffold.package_name("demo")
    write_dist_info(root, pkg, "demo")
    monkeypatch.syspath_prepend(str(root))
    papers.refresh()
    try:
        assert "demo" in papers.registry()
        assert problems(papers.load("demo")) == []
        out = run_papers(["demo"], "quick", jobs=1)
        assert not out.failed
        claim = next(c for c in out.ledgers["demo"].claims if c.id == "042-example")
        assert claim.verdict == "confirmed"
    finally:
        for m in [m for m in sys.modules if m == pkg or m.startswith(pkg + ".")]:
            sys.modules.pop(m)
        sys.path[:] = [p for p in sys.path if p != str(root)]
        papers.refresh()


@pytest.mark.slow
@pytest.mark.skipif(not (REPO / ".git").exists() or shutil.which("git") is None, reason="needs a git checkout")
def test_new_paper_in_a_copy_of_the_repository(tmp_path):
    copy = tmp_path / "repo"
    _run(["git", "clone", "--quiet", "--no-hardlinks", str(REPO), str(copy)], tmp_path)
    env_dir = tmp_path / "venv"
    py, env = child_venv(env_dir)
    env["THEORYCHECK_CACHE_DIR"] = str(tmp_path / "cache")
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
    assert "the fourth moment of g is 3." in md                      # the whole statement is quoted
    assert "x is Gaussian" in md                                     # the example assumption and its stress path
    plugin = copy / "papers" / "demo"
    _run([py, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(plugin),
          str(plugin / scaffold.package_name("demo") / "tests")],
         plugin, env)
    # the stale-plugin check: a hand-edited generated file of the plugin fails a plain run, although the same
    # command passed a moment ago (the record of that passed check covers the plugin's own sources)
    gen = next((plugin / scaffold.package_name("demo") / "generated").glob("demo_example.py"))
    gen.write_text(gen.read_text(encoding="utf-8").replace("3*s**2", "2*s**2"), encoding="utf-8")
    stale = subprocess.run(tc + ["run", "--paper", "demo", "--quick", "--no-pdf", "--jobs", "1", "--quiet", "--out",
                                 str(out)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert stale.returncode == 1, (stale.returncode, stale.stderr[-2000:])
    assert "differs from what the derivations produce" in stale.stderr
    _run(tc + ["derive", "--paper", "demo"], tmp_path, env)          # regenerated from source: fresh again
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
