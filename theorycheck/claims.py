"""The claim ledger: every checked statement of a paper, with evidence and a verdict.

A :class:`Claim` ties one statement of a seed summary (quoted verbatim, by line
range, from the copy in ``theorycheck/seed_texts``) to the check performed and
its outcome. Verdicts:

``confirmed``
    the toolkit reproduced the statement under the stated conventions;
``refuted``
    the statement is wrong under every reasonable reading (numbers given);
``inconsistent``
    the source contradicts itself (both readings and their values given);
``underspecified``
    cannot be checked without parameters the source does not give
    (``missing`` names them).

Check kinds: ``symbolic identity``, ``exact vs Monte Carlo``, ``numeric value``,
``qualitative shape``.

Evidence is a flat-ish dict of JSON-serialisable values (numbers, strings,
lists, nested dicts). Floats are rounded to 12 significant digits on output so
that reports are byte-identical across runs with the same seed.

Example
-------
>>> c = Claim(id="004-a1-sin", paper="004", lines=(185, 185),
...           paraphrase="a1 of sin is exp(-1/2)", conventions=["orthonormal probabilists' Hermite"],
...           check="symbolic identity", verdict="confirmed", summary="exact",
...           evidence={"a1": 0.6065306597126334})
>>> c.quote.startswith("$$ a_1=e^{-1/2}")
True
>>> Ledger("nonlinear", "004", "title").add(c).counts()["confirmed"]
1
"""
from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .seeds import paper_id, seed_lines, SEED_FILES

__all__ = ["Claim", "Ledger", "VERDICTS", "CHECK_KINDS", "clean_evidence", "load_results"]

VERDICTS = ("confirmed", "refuted", "inconsistent", "underspecified")
CHECK_KINDS = ("symbolic identity", "exact vs Monte Carlo", "numeric value", "qualitative shape")


def _round(x: float) -> float | str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return 0.0
    return float(f"{x:.12g}")


def clean_evidence(obj: Any) -> Any:
    """Convert numpy / sympy values to plain JSON types, rounding floats to 12 digits."""
    if isinstance(obj, dict):
        return {str(k): clean_evidence(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean_evidence(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return clean_evidence(obj.tolist())
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return _round(float(obj))
    if obj is None or isinstance(obj, str):
        return obj
    if dataclasses.is_dataclass(obj) and hasattr(obj, "as_dict"):
        return clean_evidence(obj.as_dict())
    try:  # sympy numbers and similar
        import sympy
        if isinstance(obj, sympy.Basic):
            if obj.is_Integer:
                return int(obj)
            if obj.is_number:
                return {"exact": str(obj), "value": _round(float(obj.evalf(30)))}
            return str(obj)
    except ImportError:  # pragma: no cover
        pass
    try:
        return _round(float(obj))
    except (TypeError, ValueError):
        return str(obj)


@dataclass
class Claim:
    """One checked statement.

    Parameters
    ----------
    id : str
        stable identifier, ``"<paper>-<slug>"``, unique within the ledger.
    paper : str
        seed id (``"000"``, ``"001"``, ``"004"``).
    lines : (int, int)
        1-based inclusive line range of the seed file that states the claim.
    paraphrase : str
        English paraphrase of what the seed says (the claim as tested).
    conventions : list of str
        normalisations used (halved loss or not, Hermite convention, ...).
    check : str
        one of :data:`CHECK_KINDS`.
    verdict : str
        one of :data:`VERDICTS`.
    summary : str
        one paragraph: what was found, with the decisive numbers.
    evidence : dict
        numbers, sample sizes, z-scores, p-values, parameter values used.
    derivation : list of str
        LaTeX (no surrounding ``$``) lines shown in the report, usually from ``sympy.latex``.
    figures : list of str
        figure stems (without extension) under ``reports/figures/``.
    missing : list of str
        for ``underspecified``: the parameters the source does not give.
    quote : str
        filled automatically from the seed lines; the original language.
    """

    id: str
    paper: str
    lines: tuple[int, int]
    paraphrase: str
    conventions: list[str]
    check: str
    verdict: str
    summary: str
    evidence: dict = field(default_factory=dict)
    derivation: list[str] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)
    title: str = ""
    quote: str = ""

    def __post_init__(self):
        self.paper = paper_id(self.paper)
        if not isinstance(self.id, str) or not self.id:
            raise ValueError("id must be a non-empty string")
        if self.check not in CHECK_KINDS:
            raise ValueError(f"check must be one of {CHECK_KINDS}, got {self.check!r}")
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        lo, hi = (self.lines, self.lines) if isinstance(self.lines, int) else tuple(self.lines)
        self.lines = (int(lo), int(hi))
        self.quote = seed_lines(self.paper, *self.lines)
        if self.verdict == "underspecified" and not self.missing:
            raise ValueError("an underspecified claim must list what is missing (missing=[...])")
        if not self.title:
            self.title = self.paraphrase.split(". ")[0][:90]
        self.conventions = list(self.conventions)

    def as_dict(self) -> dict:
        d = dataclasses.asdict(self)
        d["lines"] = list(self.lines)
        d["seed_file"] = SEED_FILES[self.paper]
        d["evidence"] = clean_evidence(self.evidence)
        return d


class Ledger:
    """All claims of one paper, in the order they were added.

    >>> led = Ledger("nonlinear", "004", "What can linear attention learn from nonlinear teachers")
    >>> led.paper
    '004'
    """

    def __init__(self, key: str, paper: str, title: str, conventions: list[str] | None = None,
                 parameters: dict | None = None):
        self.key = key
        self.paper = paper_id(paper)
        self.title = title
        self.conventions = list(conventions or [])   # paper-wide conventions section
        self.parameters = dict(parameters or {})     # run sizes, seeds used, etc.
        self.claims: list[Claim] = []

    def add(self, claim: Claim) -> "Ledger":
        if claim.paper != self.paper:
            raise ValueError(f"claim {claim.id} is for paper {claim.paper}, ledger is {self.paper}")
        if any(c.id == claim.id for c in self.claims):
            raise ValueError(f"duplicate claim id {claim.id!r}")
        self.claims.append(claim)
        return self

    def counts(self) -> dict:
        out = {v: 0 for v in VERDICTS}
        for c in self.claims:
            out[c.verdict] += 1
        return out

    def as_dict(self) -> dict:
        return {
            "key": self.key,
            "paper": self.paper,
            "seed_file": SEED_FILES[self.paper],
            "title": self.title,
            "conventions": self.conventions,
            "parameters": clean_evidence(self.parameters),
            "counts": self.counts(),
            "claims": [c.as_dict() for c in self.claims],
        }

    @classmethod
    def from_dict(cls, d: dict) -> "Ledger":
        led = cls(d["key"], d["paper"], d["title"], d.get("conventions"), d.get("parameters"))
        for c in d["claims"]:
            kw = {k: c[k] for k in ("id", "paper", "lines", "paraphrase", "conventions", "check",
                                    "verdict", "summary", "evidence", "derivation", "figures",
                                    "missing", "title")}
            led.claims.append(Claim(**kw))
        return led


def load_results(path) -> dict:
    """Read ``results.json`` → ``{key: Ledger}`` (empty dict if the file does not exist)."""
    from pathlib import Path
    p = Path(path)
    if not p.exists():
        return {}
    data = json.loads(p.read_text(encoding="utf-8"))
    return {k: Ledger.from_dict(v) for k, v in data.get("papers", {}).items()}
