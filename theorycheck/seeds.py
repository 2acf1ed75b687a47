"""The seed summaries (the primary statement of every claim), quoted verbatim.

The three seed files are copied into ``theorycheck/seed_texts/`` so the toolkit never
reads anything outside the project at run or test time. Line numbers are
1-based, as printed by ``cat -n``.

>>> seed_lines("004", 185, 185)[:10]
'$$ a_1=e^{'
>>> SEED_FILES["000"]
'000_857c27448556efc7.txt'
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

__all__ = ["SEED_FILES", "seed_text", "seed_lines", "paper_id"]

SEED_FILES = {
    "000": "000_857c27448556efc7.txt",
    "001": "001_4dd5d8cf15de7e82.txt",
    "004": "004_50ac83a765c0b948.txt",
}


def paper_id(paper: str) -> str:
    """Normalise '004', '004_50ac...txt' to the three-digit id."""
    key = str(paper)[:3]
    if key not in SEED_FILES:
        raise ValueError(f"paper must be one of {sorted(SEED_FILES)}, got {paper!r}")
    return key


@lru_cache(maxsize=None)
def seed_text(paper: str) -> tuple[str, ...]:
    """All lines of a seed file (without newlines)."""
    name = SEED_FILES[paper_id(paper)]
    text = resources.files("theorycheck.seed_texts").joinpath(name).read_text(encoding="utf-8")
    return tuple(text.split("\n"))


def seed_lines(paper: str, start: int, end: int | None = None) -> str:
    """Lines ``start..end`` (inclusive, 1-based) of a seed, joined by newlines."""
    lines = seed_text(paper)
    end = start if end is None else end
    if not (1 <= start <= end <= len(lines)):
        raise ValueError(f"seed lines must satisfy 1 <= start <= end <= {len(lines)}, got {start}..{end}")
    return "\n".join(lines[start - 1:end])
