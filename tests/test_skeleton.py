"""Every installed paper has the one skeleton (theorycheck.papers.skeleton), and the checker sees departures."""
import shutil

import pytest

from theorycheck import papers
from theorycheck.papers.skeleton import problems


@pytest.mark.parametrize("key", sorted(papers.registry()))
def test_every_installed_paper_has_the_skeleton(key):
    assert problems(papers.load(key)) == []


def test_the_checker_sees_a_stray_room_and_a_missing_one(tmp_path, monkeypatch):
    """A copy of the built-in nonlinear package with an extra top-level module and without its seed map."""
    import importlib
    import sys
    src = importlib.import_module("theorycheck.papers.nonlinear").__file__
    pkg = tmp_path / "tc_skel_copy"
    shutil.copytree(__import__("pathlib").Path(src).parent, pkg, ignore=shutil.ignore_patterns("__pycache__"))
    (pkg / "common.py").write_text('"""a stray helper module"""\n', encoding="utf-8")

    class FakePaper:
        key, package, seed = "copy", "tc_skel_copy", "seed.txt"
        mutants, fuzz, generated_package = "x.mutants", "tc_skel_copy.checks.fuzz", "tc_skel_copy.generated"
        derivations, sections, claims = (), (), None
    monkeypatch.syspath_prepend(str(tmp_path))
    (pkg / "__init__.py").write_text("", encoding="utf-8")       # the folder only: nothing of it is run
    (pkg / "claims" / "__init__.py").write_text("SECTIONS = []\n", encoding="utf-8")
    (pkg / "seedmap.py").unlink()
    try:
        found = problems(FakePaper())
    finally:
        for m in [m for m in sys.modules if m.startswith("tc_skel_copy")]:
            sys.modules.pop(m)
    assert "copy: missing seedmap.py" in found
    assert "copy: common.py: not a room of the skeleton" in found
    assert any("PAPER.mutants" in p for p in found)
    assert any("defines no SECTIONS" in p for p in found)
