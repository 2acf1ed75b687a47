"""Run context handed to every task (claim or fixture): mode, seed, per-task seeds, figures.

``RunContext.seed_for(name)`` derives a stable 32-bit seed from the run seed and a name
(SHA-256), so a task's numbers depend only on the run seed and its own names — never on the
order or the process in which tasks run, nor on other claims. Figures are rendered in memory
(``save_figure`` keeps PNG and PDF bytes and a caption) and written by the driver, so a task can
run in a worker process or on a remote Dask worker.

>>> ctx = RunContext(mode="quick", seed=1)
>>> ctx.seed_for("a") == RunContext(seed=1).seed_for("a") != ctx.seed_for("b")
True
>>> ctx.quick, ctx.full
(True, False)
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

from .figures import render_figure
from .validate import check_choice, check_int

__all__ = ["RunContext", "DEFAULT_SEED", "MODES"]

DEFAULT_SEED = 20261129
MODES = ("quick", "full")


@dataclass
class RunContext:
    """Where and how a task runs.

    mode : ``"quick"`` (small sizes; preliminary) or ``"full"`` (the papers' own sizes; of record).
    seed : the run seed (non-negative integer).
    out : the report folder (used only by code that writes files itself; tasks should not).
    """

    mode: str = "quick"
    seed: int = DEFAULT_SEED
    out: Path | None = None
    figures: list = field(default_factory=list)

    def __post_init__(self):
        check_choice("mode", self.mode, MODES)
        self.seed = check_int("seed", self.seed, minimum=0)
        if self.out is not None:
            self.out = Path(self.out)

    @property
    def quick(self) -> bool:
        return self.mode == "quick"

    @property
    def full(self) -> bool:
        return self.mode == "full"

    def seed_for(self, name: str) -> int:
        """Stable 32-bit seed for the computation called ``name``."""
        h = hashlib.sha256(f"{self.seed}:{name}".encode()).digest()
        return int.from_bytes(h[:4], "little")

    def save_figure(self, fig, stem: str, caption: str = "") -> str:
        """Render ``fig`` to PNG and PDF bytes (deterministic) and keep them with ``caption``; return ``stem``.

        The caption states what is plotted, the setting and the sample size.
        """
        if not isinstance(stem, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", stem):
            raise ValueError(f"stem must be a non-empty ASCII file stem of letters, digits, '_', '.', '-' (LaTeX "
                             f"cannot include other names; figures.figure_stem makes one from any text), got {stem!r}")
        if any(f["stem"] == stem for f in self.figures):
            raise ValueError(f"figure stem {stem!r} used twice in one task")
        png, pdf = render_figure(fig)
        self.figures.append({"stem": stem, "caption": str(caption), "png": png, "pdf": pdf})
        return stem
