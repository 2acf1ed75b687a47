"""Re-export: the reliability fuzzing now lives in :mod:`theorycheck.selftest.reliability` (the harness), with the core's
baselines in :mod:`theorycheck.selftest.fuzz_engines` and :mod:`theorycheck.selftest.fuzz_verdicts` and each paper's in
its own package (``Paper(fuzz=...)``). This package keeps the old import paths working; it holds no code."""
from ..deprecation import moved

moved(__name__, "theorycheck.selftest.reliability")
from ..selftest import reliability as _harness
from ..selftest.reliability import *  # noqa: F401,F403
from ..selftest.reliability import (ADDRESS_SPACE_GB, BAD_VALUES, CALL_LIMIT_S, CORE_PARTS, FAILURES,  # noqa: F401
                                    PUBLIC_MODULES, Baseline, baselines, classify_call, fuzz, parts,
                                    public_functions, write_reliability)


def __getattr__(name):
    return getattr(_harness, name)
