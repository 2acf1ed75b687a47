"""Re-export: the engines' reliability baselines now live in :mod:`theorycheck.selftest.fuzz_engines`."""
from ..deprecation import moved

moved(__name__, "theorycheck.selftest.fuzz_engines")
from ..selftest.fuzz_engines import BASELINES  # noqa: F401
