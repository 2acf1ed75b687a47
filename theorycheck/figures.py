"""Matplotlib (Agg) figures saved deterministically as PNG (Markdown) and PDF (LaTeX).

Metadata that would change between runs (creation dates) is removed so the same
seed gives byte-identical figures.
"""
from __future__ import annotations

import hashlib
import io
import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

__all__ = ["new_figure", "save_figure", "render_figure", "write_figure", "figure_stem", "plt"]

_STYLE = {"figure.dpi": 100, "savefig.dpi": 120, "font.size": 9, "axes.grid": True,
          "grid.alpha": 0.3, "svg.hashsalt": "theorycheck"}


def new_figure(ncols: int = 1, nrows: int = 1, width: float = 5.0, height: float = 3.4):
    """``(fig, axes)`` with the toolkit's style."""
    with matplotlib.rc_context(_STYLE):
        fig, axes = plt.subplots(nrows, ncols, figsize=(width * ncols, height * nrows), squeeze=False)
    return fig, (axes[0, 0] if nrows == ncols == 1 else axes)


def figure_stem(prefix: str, text: str, limit: int = 60) -> str:
    """A file stem safe for every output (ASCII letters, digits, ``_``; LaTeX's ``\\includegraphics`` rejects
    non-ASCII names) that stays unique: the readable part is cut at ``limit`` characters and followed by the
    first 8 hex digits of the SHA-256 of the full ``text``.

    >>> figure_stem("assume", "000-thm1: Gaussian inputs x ~ N(0, Λ)")
    'assume_000_thm1_Gaussian_inputs_x_N_0_f718fb68'
    """
    readable = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9]", "_", text)).strip("_")[:limit].rstrip("_")
    return f"{prefix}_{readable}_{hashlib.sha256(text.encode('utf-8')).hexdigest()[:8]}"


def render_figure(fig) -> tuple[bytes, bytes]:
    """``(png_bytes, pdf_bytes)`` of ``fig`` without run-dependent metadata; closes the figure."""
    fig.tight_layout()
    png, pdf = io.BytesIO(), io.BytesIO()
    fig.savefig(png, format="png", metadata={"Software": None})
    fig.savefig(pdf, format="pdf", metadata={"CreationDate": None, "ModDate": None, "Producer": None,
                                             "Creator": None})
    plt.close(fig)
    return png.getvalue(), pdf.getvalue()


def write_figure(folder: Path, stem: str, png: bytes, pdf: bytes) -> None:
    """Write rendered figure bytes as ``folder/stem.png`` and ``.pdf`` (only when they changed)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for ext, data in (("png", png), ("pdf", pdf)):
        p = folder / f"{stem}.{ext}"
        if not p.exists() or p.read_bytes() != data:
            p.write_bytes(data)


def save_figure(fig, folder: Path, stem: str) -> None:
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    fig.tight_layout()
    fig.savefig(folder / f"{stem}.png", metadata={"Software": None})
    fig.savefig(folder / f"{stem}.pdf", metadata={"CreationDate": None, "ModDate": None,
                                                  "Producer": None, "Creator": None})
    plt.close(fig)
