"""Shared test fixtures: precision reset (as mpmath's own suite does), quiet progress bars, a fake
third-party paper plugin."""
import os
import sys

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):   # as theorycheck/__init__.py
    os.environ.setdefault(_var, "1")

import mpmath  # noqa: E402
import pytest  # noqa: E402

os.environ.setdefault("THEORYCHECK_PROGRESS", "0")
os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture(autouse=True)
def _own_cache_dir(tmp_path_factory, monkeypatch):
    """Every test has its own empty record of passed checks (theorycheck.run.passed): never the user's cache."""
    monkeypatch.setenv("THEORYCHECK_CACHE_DIR", str(tmp_path_factory.mktemp("tc-cache")))


@pytest.fixture(autouse=True)
def _reset_mpmath_precision():
    dps = mpmath.mp.dps
    yield
    mpmath.mp.dps = dps


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
