"""Shared test fixtures: precision reset (as mpmath's own suite does), quiet progress bars."""
import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):   # as theorycheck/__init__.py
    os.environ.setdefault(_var, "1")

import mpmath  # noqa: E402
import pytest  # noqa: E402

os.environ.setdefault("THEORYCHECK_PROGRESS", "0")
os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture(autouse=True)
def _reset_mpmath_precision():
    dps = mpmath.mp.dps
    yield
    mpmath.mp.dps = dps
