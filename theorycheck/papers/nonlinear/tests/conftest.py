"""What the paper's tests need of the test session (as the top-level ``tests/conftest.py`` gives its tests):
single-threaded BLAS, quiet progress bars and the Agg backend; a cache folder of the session's own (never the
user's), replaced per test (the quick runs of ``test_paper.py`` write task caches); mpmath's precision reset after
every test."""
import atexit
import os
import shutil
import tempfile

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):   # as theorycheck/__init__.py
    os.environ.setdefault(_var, "1")

import mpmath  # noqa: E402
import pytest  # noqa: E402

os.environ.setdefault("THEORYCHECK_PROGRESS", "0")
os.environ.setdefault("MPLBACKEND", "Agg")

# never the user's cache: a folder of the session's own for everything outside a test, replaced per test below
_SESSION_CACHE = tempfile.mkdtemp(prefix="theorycheck-test-cache-")
os.environ["THEORYCHECK_CACHE_DIR"] = _SESSION_CACHE
atexit.register(shutil.rmtree, _SESSION_CACHE, ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_cache_dir(tmp_path_factory, monkeypatch):
    """Every test has its own empty cache folder (task cache and record of passed checks)."""
    monkeypatch.setenv("THEORYCHECK_CACHE_DIR", str(tmp_path_factory.mktemp("tc-cache")))


@pytest.fixture(autouse=True)
def _reset_mpmath_precision():
    dps = mpmath.mp.dps
    yield
    mpmath.mp.dps = dps
