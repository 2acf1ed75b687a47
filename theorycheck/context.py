"""Run context shared by every paper's checks: mode, seed, output folder, figures.

``RunContext.seed_for(name)`` derives a stable per-check seed from the run seed
and the check's name (SHA-256), so adding or reordering checks never changes
the numbers of another check.

>>> ctx = RunContext(mode="quick", seed=1)
>>> ctx.seed_for("a") == RunContext(seed=1).seed_for("a") != ctx.seed_for("b")
True
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path

from .validate import check_choice, check_int

__all__ = ["RunContext", "DEFAULT_SEED"]

DEFAULT_SEED = 20261129


@dataclass
class RunContext:
    """Where and how a paper's checks run.

    mode : ``"quick"`` (small sizes, all papers in about two minutes) or
        ``"full"`` (the papers' own sizes).
    seed : the run seed (non-negative integer).
    out : output folder (``reports/`` by default); figures go to ``out/figures``.
    """

    mode: str = "quick"
    seed: int = DEFAULT_SEED
    out: Path = Path("reports")
    progress: bool = True
    log: list = field(default_factory=list)

    def __post_init__(self):
        check_choice("mode", self.mode, ("quick", "full"))
        self.seed = check_int("seed", self.seed, minimum=0)
        self.out = Path(self.out)

    @property
    def quick(self) -> bool:
        return self.mode == "quick"

    @property
    def full(self) -> bool:
        return self.mode == "full"

    def seed_for(self, name: str) -> int:
        """Stable 32-bit seed for the check called ``name``."""
        h = hashlib.sha256(f"{self.seed}:{name}".encode()).digest()
        return int.from_bytes(h[:4], "little")

    def save_figure(self, fig, stem: str) -> str:
        """Save ``fig`` as ``out/figures/<stem>.png`` and ``.pdf`` (deterministic); return ``stem``."""
        from .figures import save_figure
        save_figure(fig, self.out / "figures", stem)
        return stem
