"""The seed summaries (the primary statement of every claim), quoted verbatim.

Each paper ships its seed summary inside its own package (``theorycheck/papers/<key>/seed.txt``
for the built-in papers), so the toolkit never reads anything outside the installed packages at
run or test time. Line numbers are 1-based, as printed by ``cat -n``. Seed ids are any
``[a-z0-9_-]+``; this module looks them up through the paper registry.

>>> seed_lines("004", 185, 185)[:10]
'$$ a_1=e^{'
>>> SEED_FILES["000"]
'000_857c27448556efc7.txt'
"""
from __future__ import annotations

from collections.abc import Mapping

from . import papers

__all__ = ["SEED_FILES", "seed_text", "seed_lines", "paper_id"]


class _SeedFiles(Mapping):
    """``{seed id: original file name}`` of every installed paper (read from the registry)."""

    def _map(self):
        return {p.seed_id: p.seed_name for p in papers.registry().values()}

    def __getitem__(self, k):
        return self._map()[k]

    def __iter__(self):
        return iter(sorted(self._map()))

    def __len__(self):
        return len(self._map())

    def __repr__(self):
        return repr(dict(self.items()))


SEED_FILES = _SeedFiles()


def paper_id(paper: str) -> str:
    """The seed id of ``paper``: a seed id, a paper key or a seed file name (``'004_50ac...txt'``)."""
    reg = papers.registry()
    s = str(paper)
    for p in reg.values():
        if s in (p.seed_id, p.key, p.seed_name):
            return p.seed_id
    raise ValueError(f"paper must be one of {sorted(p.seed_id for p in reg.values())} (seed ids) or "
                     f"{sorted(reg)} (keys), got {paper!r}")


def seed_text(paper: str) -> tuple[str, ...]:
    """All lines of a seed file (without newlines)."""
    return papers.by_seed(paper_id(paper)).seed_lines()


def seed_lines(paper: str, start: int, end: int | None = None) -> str:
    """Lines ``start..end`` (inclusive, 1-based) of a seed, joined by newlines."""
    return papers.by_seed(paper_id(paper)).lines_text(start, end)
