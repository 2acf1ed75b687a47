"""Fixtures of every test of the repository — the top-level tests/ and each paper's own tests inside its package
(theorycheck/papers/<key>/tests/): one BLAS thread, quiet progress bars, a cache folder of the test session's own
(never the user's) and one per test, mpmath's precision reset after each test (as mpmath's own suite does)."""
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

# The test session never reads or writes the user's cache (task cache, record of passed checks): a folder of its
# own for everything that runs outside a test (doctests, collection), replaced per test below.
_SESSION_CACHE = tempfile.mkdtemp(prefix="theorycheck-test-cache-")
os.environ["THEORYCHECK_CACHE_DIR"] = _SESSION_CACHE
atexit.register(shutil.rmtree, _SESSION_CACHE, ignore_errors=True)


@pytest.fixture(autouse=True)
def _own_cache_dir(tmp_path_factory, monkeypatch):
    """Every test has its own empty cache folder (task cache and record of passed checks): a test that changes a
    plugin's behaviour without changing its source (``BEHAVIOUR``) can never be answered by another test's run."""
    monkeypatch.setenv("THEORYCHECK_CACHE_DIR", str(tmp_path_factory.mktemp("tc-cache")))


@pytest.fixture(autouse=True)
def _reset_mpmath_precision():
    dps = mpmath.mp.dps
    yield
    mpmath.mp.dps = dps
