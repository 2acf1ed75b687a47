"""Fixtures of paper 001's tests (as ``tests/conftest.py``, which pytest does not load for this folder): quiet progress
bars, a headless figure backend, and a cache folder of the test session's own (never the user's), replaced per test —
the tests that run the paper (the quick run, the mutants, the fuzzing) go through the run engine's task cache."""
import atexit
import os
import shutil
import tempfile

import pytest

os.environ.setdefault("THEORYCHECK_PROGRESS", "0")
os.environ.setdefault("MPLBACKEND", "Agg")

_SESSION_CACHE = tempfile.mkdtemp(prefix="theorycheck-test-cache-")
os.environ["THEORYCHECK_CACHE_DIR"] = _SESSION_CACHE
atexit.register(shutil.rmtree, _SESSION_CACHE, ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_cache_dir(tmp_path_factory, monkeypatch):
    """Every test has its own empty cache folder (task cache and record of passed checks)."""
    monkeypatch.setenv("THEORYCHECK_CACHE_DIR", str(tmp_path_factory.mktemp("tc-cache")))
