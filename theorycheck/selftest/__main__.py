"""``python -m theorycheck.selftest [--out DIR]`` — the same as ``theorycheck selftest``."""
import sys

from ..cli import main

sys.exit(main(["selftest", *sys.argv[1:]]))
