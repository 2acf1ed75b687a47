"""Re-export: the verdict engine's reliability baselines now live in :mod:`theorycheck.selftest.fuzz_verdicts`."""
from ..deprecation import moved

moved(__name__, "theorycheck.selftest.fuzz_verdicts")
from ..selftest.fuzz_verdicts import BASELINES  # noqa: F401
