r"""What a reader of a report's PDF sees: raw TeX left in the text, text at the page's right edge, claim ids.

:func:`inspect_pdf` extracts the text of a PDF with its positions (PyMuPDF, the ``pymupdf`` package of the
``test`` extra) and returns a :class:`PdfInspection`:

- ``raw_tex``: occurrences of ``$$`` or of the commands in :data:`RAW_TEX` in text set in any font but the
  fallback's (italic typewriter, where a formula that does not compile is shown as its source);
- ``fallback_tex``: the same occurrences inside the fallback font, and ``fallback_notes``: how many
  formulas the PDF marks as shown as TeX source (:data:`~theorycheck.report.texmath.SOURCE_NOTE`);
- ``near_edge``: text spans ending within ``margin`` points of the page's right edge, or beyond it;
- ``misencoded``: text spans set in a Latin font whose extracted text holds Chinese characters — the text a reader
  copies or searches is not the text printed (pdfTeX attached a Chinese ToUnicode map to a Latin font; see
  :data:`~theorycheck.report.texmath.PREAMBLE`);
- ``text``: the whole text, page after page (for looking up claim ids).

Measured with it on the committed reports of e2360a4 (``gla.pdf`` / ``lds.pdf`` / ``nonlinear.pdf``), before
the seed's formulas were typeset: 277 / 59 / 229 raw-TeX occurrences and 9 / 14 / 9 spans near the edge
(issue 24, counting differently, reported 223 / 57 / 213 occurrences); after: none of either.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from .texmath import SOURCE_NOTE

__all__ = ["RAW_TEX", "PdfInspection", "inspect_pdf", "is_fallback_font"]

#: ``$$`` and the TeX commands that must not reach a reader as text.
RAW_TEX = re.compile(r"\$\$|\\(?:mathrm|lambda|gamma|frac|sum|mathbb|top|sigma|boldsymbol|tilde)(?![A-Za-z])")


#: A Chinese character (CJK unified ideographs and extension A): set only in the ``gbsn`` fonts.
_CHINESE = re.compile(r"[\u3400-\u9fff]")


def is_fallback_font(name: str) -> bool:
    """The font of a formula shown as source: Latin Modern typewriter, italic (``LMMono10-Italic``, …)."""
    return "Mono" in name and ("Italic" in name or "Oblique" in name)


@dataclass
class PdfInspection:
    """See the module's docstring; ``near_edge`` and the token lists hold ``(page, text)`` pairs."""
    pages: int = 0
    raw_tex: list = field(default_factory=list)
    fallback_tex: list = field(default_factory=list)
    fallback_notes: int = 0
    near_edge: list = field(default_factory=list)
    misencoded: list = field(default_factory=list)
    text: str = ""


def inspect_pdf(path: Path, margin: float = 20.0) -> PdfInspection:
    """Inspect the PDF at ``path`` (see the module's docstring); ``margin`` in points (1/72 inch)."""
    import pymupdf  # optional: the test extra; only this inspection needs it
    out, texts = PdfInspection(), []
    with pymupdf.open(str(path)) as doc:
        out.pages = len(doc)
        for page in doc:
            texts.append(page.get_text())
            edge = page.rect.width - margin
            for block in page.get_text("dict")["blocks"]:
                for line in block.get("lines", []):
                    for span in line["spans"]:
                        _inspect_span(out, page.number + 1, span, edge)
    out.text = "\n".join(texts)
    out.fallback_notes = len(re.findall(re.escape(SOURCE_NOTE), re.sub(r"\s+", " ", out.text)))
    return out


def _inspect_span(out: PdfInspection, page: int, span: dict, edge: float) -> None:
    text = span["text"]
    if not text.strip():
        return
    tokens = [(page, t) for t in RAW_TEX.findall(text)]
    (out.fallback_tex if is_fallback_font(span["font"]) else out.raw_tex).extend(tokens)
    if not span["font"].startswith("gbsn") and _CHINESE.search(text):
        out.misencoded.append((page, text))
    if span["bbox"][2] > edge:
        out.near_edge.append((page, text))
