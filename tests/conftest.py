"""Shared test fixtures: precision reset (as mpmath's own suite does), quiet progress bars."""
import os

import mpmath
import pytest

os.environ.setdefault("THEORYCHECK_PROGRESS", "0")
os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture(autouse=True)
def _reset_mpmath_precision():
    dps = mpmath.mp.dps
    yield
    mpmath.mp.dps = dps
