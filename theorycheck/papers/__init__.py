"""Registry of the papers the toolkit checks.

Each entry maps a short key (used by ``--paper``) to the seed id and the module
that builds the paper's claim ledger. A paper module defines::

    SEED = "004"                       # seed id
    TITLE = "..."                      # the paper's title
    def build(ctx: RunContext) -> Ledger

and writes its figures through ``ctx.save_figure``. To add a paper: copy its seed
summary into ``theorycheck/seed_texts/``, add it to ``theorycheck.seeds.SEED_FILES``,
write ``theorycheck/papers/<key>.py`` and add a line here.
"""
from __future__ import annotations

import importlib

__all__ = ["PAPERS", "load", "keys"]

PAPERS = {
    "gla": ("000", "theorycheck.papers.gla"),
    "lds": ("001", "theorycheck.papers.lds"),
    "nonlinear": ("004", "theorycheck.papers.nonlinear"),
}


def keys() -> list[str]:
    return list(PAPERS)


def load(key: str):
    """Import the paper module for ``key`` (``ValueError`` for an unknown key)."""
    if key not in PAPERS:
        raise ValueError(f"paper must be one of {keys()}, got {key!r}")
    return importlib.import_module(PAPERS[key][1])
