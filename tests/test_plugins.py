"""Papers are plugins: discovery through the entry-point group, validation of a paper's declaration."""
import os
import sys
import warnings

import pytest

from theorycheck import papers, seeds
from theorycheck.papers.api import Claims, Paper
from theorycheck.verdicts import rules

sys.path.insert(0, __import__("os").path.dirname(__file__))
import _fake_plugin  # noqa: E402


def test_builtin_papers_are_discovered_through_entry_points():
    from importlib import metadata
    names = {ep.name for ep in metadata.entry_points(group=papers.ENTRY_POINT_GROUP)}
    assert {"gla", "lds", "nonlinear"} <= names
    assert {p.seed_id for p in papers.registry().values()} >= {"000", "001", "004"}


def test_third_party_plugin_is_discovered(fake_plugin):
    p = papers.load("fake")
    assert p.seed_id == "fk" and p.title == "Fake paper for the tests"
    assert seeds.seed_lines("fk", 4, 4) == "其中 E[g^4] = 3。"
    assert seeds.SEED_FILES["fk"] == "seed.txt"
    assert papers.by_seed("fk") is p


def test_broken_plugin_is_skipped_with_a_warning(tmp_path, monkeypatch):
    root = tmp_path / "site"
    _fake_plugin.install(root, name="tc_broken_paper", key="broken", source="raise ImportError('no such thing')\n")
    monkeypatch.syspath_prepend(str(root))
    papers.refresh()
    try:
        with pytest.warns(papers.PluginWarning, match="broken"):
            reg = papers.registry()
        assert "broken" not in reg and "gla" in reg
        assert "ImportError" in papers.load_errors()["broken"]
    finally:
        sys.modules.pop("tc_broken_paper", None)
        sys.path[:] = [x for x in sys.path if x != str(root)]
        papers.refresh()


def test_entry_point_name_must_match_key(tmp_path, monkeypatch):
    root = tmp_path / "site"
    _fake_plugin.install(root, name="tc_misnamed", key="othername")
    monkeypatch.syspath_prepend(str(root))
    papers.refresh()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            papers.registry()
        assert "differs from the paper key" in papers.load_errors()["othername"]
    finally:
        sys.modules.pop("tc_misnamed", None)
        sys.path[:] = [x for x in sys.path if x != str(root)]
        papers.refresh()


def test_unknown_key_and_seed_are_clear_errors():
    with pytest.raises(ValueError, match="paper must be one of"):
        papers.load("nope")
    with pytest.raises(ValueError, match="seed id must be one of"):
        papers.by_seed("999")


def _paper(tmp_path, build, conventions=("c",)):
    (tmp_path / "seed.txt").write_text("line one\nline two has a and b\nline three\n", encoding="utf-8")
    cl = Claims()
    build(cl)
    return Paper(key="t", seed_id="t-1_x", title="t", claims=cl, seed=tmp_path / "seed.txt", conventions=conventions)


def _c(cl, cid, lines, fragment="", conventions=(), needs=()):
    @cl.claim(cid, lines=lines, fragment=fragment, conventions=conventions, needs=needs, title=f"Claim {cid}",
              weight="supporting")
    def f(ctx):
        """A statement."""
        yield rules.identity("x", 1, 1)


@pytest.mark.parametrize("build,message", [
    (lambda cl: (_c(cl, "b", (2, 2)), _c(cl, "a", (1, 1))), "seed order"),
    (lambda cl: (_c(cl, "a", (2, 2), "has a"), _c(cl, "b", (2, 2), "a and b")), "overlapping"),
    (lambda cl: _c(cl, "a", (2, 2), "not there"), "does not occur"),
    (lambda cl: _c(cl, "a", (1, 1), conventions=["C9"]), "unknown convention"),
    (lambda cl: _c(cl, "a", (1, 1), needs=("nothing",)), "fixture"),
    (lambda cl: _c(cl, "a", (3, 9)), "has 4 lines"),
])
def test_paper_validation(tmp_path, build, message):
    with pytest.raises(ValueError, match=message):
        _paper(tmp_path, build).validate()


def test_disjoint_fragments_of_one_line_are_fine(tmp_path):
    p = _paper(tmp_path, lambda cl: (_c(cl, "a", (2, 2), "has a"), _c(cl, "b", (2, 2), "and b")))
    assert p.validate() is p and p.seed_id == "t-1_x"


@pytest.mark.parametrize("bad", ["Has-Caps", "with space", "", "ü"])
def test_keys_and_seed_ids_are_checked(tmp_path, bad):
    (tmp_path / "seed.txt").write_text("x\n")
    with pytest.raises(ValueError, match=r"\[a-z0-9_-\]\+"):
        Paper(key=bad, seed_id="ok", title="t", claims=Claims(), seed=tmp_path / "seed.txt")
    with pytest.raises(ValueError, match=r"\[a-z0-9_-\]\+"):
        Paper(key="ok", seed_id=bad, title="t", claims=Claims(), seed=tmp_path / "seed.txt")


def test_builtin_papers_are_valid():
    for p in papers.registry().values():
        p.validate()
        lines = p.seed_lines()
        assert lines and all(isinstance(x, str) for x in lines)


def test_broken_plugin_is_named_with_its_cause_and_nothing_is_an_orphan(tmp_path, monkeypatch, capsys):
    """A plugin whose import fails (a missing dependency) is named with the cause by ``derive --check`` and by a run
    of all papers; the modules of the papers that did load are never reported as orphans."""
    from theorycheck import cli
    root = tmp_path / "site"
    _fake_plugin.install(root, name="tc_broken_dep", key="brokendep",
                         source="import theorycheck_missing_dependency  # noqa\n")
    monkeypatch.syspath_prepend(str(root))
    papers.refresh()
    # the derivations themselves are checked by tests/test_codegen.py: here only which plugins are named (running
    # every SymPy derivation again would add ~50 s and test nothing more)
    monkeypatch.setattr(cli, "derivation_modules", lambda keys=None: [])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            problems = cli.derive_check(quiet=True)
            assert problems and all("orphan" not in p for p in problems), problems
            assert any("'brokendep'" in p and "No module named 'theorycheck_missing_dependency'" in p
                       for p in problems), problems
            assert cli._load_failures() == 1
        assert "plugin 'brokendep' could not be loaded: ModuleNotFoundError" in capsys.readouterr().err
    finally:
        sys.modules.pop("tc_broken_dep", None)
        sys.path[:] = [x for x in sys.path if x != str(root)]
        papers.refresh()


def test_fork_server_preload_survives_a_broken_plugin(tmp_path):
    """The worker fork server imports ``theorycheck.run.preload``: a plugin that fails to import is left out
    there (the parent names it), so it cannot kill the fork server and with it the other papers' runs."""
    import subprocess
    root = tmp_path / "site"
    _fake_plugin.install(root, name="tc_broken_paper", key="broken", source="raise ValueError('a claim without a title')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root)] + sys.path)}
    code = "import theorycheck.run.preload as p; print(','.join(p.LOADED))"
    r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    loaded = r.stdout.strip().split(",")
    assert "tc_broken_paper" not in loaded and "theorycheck.papers.nonlinear" in loaded
