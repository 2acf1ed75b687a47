"""Fixtures of the top-level tests: a fake third-party paper plugin (the repository-wide ones are in the root
conftest.py)."""
import os
import sys

import pytest


@pytest.fixture
def fake_plugin(tmp_path, monkeypatch):
    """Install the fake paper ``fake`` (seed id ``fk``) as a plugin for one test; yield its module."""
    from theorycheck import papers
    sys.path.insert(0, os.path.dirname(__file__))
    import _fake_plugin
    root = tmp_path / "site"
    _fake_plugin.install(root)
    monkeypatch.syspath_prepend(str(root))
    papers.refresh()
    import importlib
    mod = importlib.import_module("tc_fake_paper")
    yield mod
    mod.BEHAVIOUR["mode"] = "ok"
    sys.modules.pop("tc_fake_paper", None)
    sys.path[:] = [p for p in sys.path if p != str(root)]
    papers.refresh()
