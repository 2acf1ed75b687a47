r"""The claim ledger — data only: claims, their atomic sub-claims, self-checks, one ledger per paper.

A **claim** is one statement of a seed summary: a line range and (optionally) the exact
fragment of those lines that states it, quoted verbatim. It splits into **sub-claims**, each an
atomic statement decided by exactly one rule of :mod:`theorycheck.verdicts.rules`. The claim's
verdict follows from its sub-claims by the one aggregation rule of
:mod:`theorycheck.verdicts.aggregate`. **Self-checks** are the toolkit's own consistency checks
(our derivation against our simulation of the same quantity); they are recorded beside the
claim but never decide a verdict about the paper — a failed self-check withholds the claim's
verdict and fails the run.

Verdict vocabulary (:data:`VERDICTS`)
-------------------------------------
``confirmed``
    the statement holds in the stated scope, decided by a declared rule;
``refuted``
    the statement is false in a setting the source states (numbers, test, p-value given);
``inconsistent``
    the source contradicts itself (both statements and their values given);
``not reproduced``
    a stated number, curve or statement that the toolkit could not reproduce under the stated
    setting plus documented choices for what the source leaves open (``chosen``) — missing
    parameters cannot refute, so a failure under the toolkit's own choices lands here;
``inconclusive``
    tested, but the test has too little power, or the readings / finite-size laws disagree;
``underspecified``
    cannot be attempted: the source does not give what is needed (``missing`` names it).

This module holds data and JSON round-tripping only; it imports nothing else of theorycheck.

>>> s = SubClaim(statement="E[g^2] = 1", rule="identity", verdict="confirmed", scope="exact")
>>> c = Claim(id="004-x", paper="004", lines=(91, 91), title="Parseval for f", statement="E[f^2] = sum a_m^2",
...           subclaims=[s], verdict="confirmed", scope="exact")
>>> c.subclaims[0].id
'004-x/e-g-2-1'
>>> Claim.from_dict(c.as_dict()) == c
True
"""
from __future__ import annotations

import dataclasses
import json
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["VERDICTS", "CONFIRMED", "REFUTED", "INCONSISTENT", "NOT_REPRODUCED", "INCONCLUSIVE",
           "UNDERSPECIFIED", "SubClaim", "SelfCheck", "Claim", "Ledger", "clean_evidence", "load_results",
           "slugify", "PRELIMINARY", "Param", "Clause", "PROVENANCES", "CLAUSE_KINDS", "WEIGHTS"]

#: How much a claim carries in the paper, declared before the data: a refuted or not reproduced ``main`` claim is a
#: major point of the referee letter.
WEIGHTS = ("main", "supporting")

CONFIRMED = "confirmed"
REFUTED = "refuted"
INCONSISTENT = "inconsistent"
NOT_REPRODUCED = "not reproduced"
INCONCLUSIVE = "inconclusive"
UNDERSPECIFIED = "underspecified"
VERDICTS = (CONFIRMED, REFUTED, INCONSISTENT, NOT_REPRODUCED, INCONCLUSIVE, UNDERSPECIFIED)

PRELIMINARY = "preliminary (quick sizes)"


def slugify(text: str, limit: int = 48) -> str:
    """A short lower-case id fragment: ``slugify("E[g^2] = 1") == "e-g-2-1"``."""
    s = re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")
    return (s[:limit].rstrip("-") or "x")


def _round(x: float) -> float | str:
    if math.isnan(x):
        return "nan"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return 0.0
    return float(f"{x:.12g}")


def clean_evidence(obj: Any) -> Any:
    """Convert numpy / sympy values to plain JSON types, rounding floats to 12 significant digits.

    >>> clean_evidence({"a": np.float64(1 / 3), "b": np.arange(2)})
    {'a': 0.333333333333, 'b': [0, 1]}
    """
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
    sympy = sys.modules.get("sympy")         # a SymPy object exists only if SymPy was imported by its maker
    if sympy is not None and isinstance(obj, sympy.Basic):
        if obj.is_Integer:
            return int(obj)
        if obj.is_number:
            return {"exact": str(obj), "value": _round(float(obj.evalf(30)))}
        return str(obj)
    try:
        return _round(float(obj))
    except (TypeError, ValueError):
        return str(obj)


def _num(x):
    """A JSON number (or None): floats rounded to 12 significant digits, non-finite as strings."""
    if x is None:
        return None
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    return _round(float(x))


#: Where a parameter's value comes from: the seed states it (give the line), a declared convention fixes it (give
#: the C-number), or the toolkit chose it because the source is silent (say why, and give its admissible range).
PROVENANCES = ("stated", "convention", "chosen")


@dataclass(frozen=True)
class Param:
    """One parameter value with its provenance, declared in a paper's settings before the data.

    ``provenance``: ``stated`` (``source`` = the seed line, e.g. ``"line 60"``), ``convention`` (``source`` = the
    convention id, e.g. ``"C7"``) or ``chosen`` (``source`` = why this value; ``admissible`` = the range a reader
    could have chosen instead, ``(low, high)`` or a tuple of values). A sub-claim lists the Params it uses
    (``params=[…]``); the verdict engine derives ``chosen`` from them, so a failure that rests on a chosen value is
    *not reproduced* — unless the sub-claim's ``extent`` shows the failure over the whole admissible range.

    >>> Param("sigma_w2", 1.0, "chosen", "the seed gives no prior scale", admissible=(0.01, 100.0)).chosen
    True
    """

    name: str
    value: Any
    provenance: str
    source: str
    admissible: tuple | None = None

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"Param name must be a non-empty string, got {self.name!r}")
        if self.provenance not in PROVENANCES:
            raise ValueError(f"Param {self.name}: provenance must be one of {PROVENANCES}, got {self.provenance!r}")
        if not isinstance(self.source, str) or not self.source.strip():
            raise ValueError(f"Param {self.name}: source must say where the value comes from (a seed line, a "
                             f"convention id, or why it was chosen), got {self.source!r}")
        if self.provenance == "chosen" and not self.admissible:
            raise ValueError(f"Param {self.name} is chosen: give its admissible range (admissible=(low, high) or a "
                             "tuple of values), so a refutation can be checked against all of it")
        if self.admissible is not None and not isinstance(self.admissible, tuple):
            object.__setattr__(self, "admissible", tuple(self.admissible))

    @property
    def chosen(self) -> bool:
        return self.provenance == "chosen"

    def as_dict(self) -> dict:
        return {"value": clean_evidence(self.value), "provenance": self.provenance, "source": self.source,
                "admissible": None if self.admissible is None else clean_evidence(list(self.admissible))}


#: What a clause of a statement does: asserts, conditions, quantifies, states a number, infers, or is a negative /
#: a priority (never confirmable by computation: scoped to what was tried).
CLAUSE_KINDS = ("assertion", "condition", "quantifier", "number", "inference", "negative", "priority")


@dataclass(frozen=True)
class Clause:
    """One clause of a claim's fragment: ``text`` is a verbatim substring of the fragment, ``kind`` one of
    :data:`CLAUSE_KINDS`; ``id`` short (``"c1"``); sub-claims name the clauses they test (``clauses=["c1"]``).
    ``untested``: why the clause is not tested (it then makes the claim at most *inconclusive*); ``asserted=False``
    for a clause the sentence does not assert (context the source gives as background) — it does not vote.

    >>> Clause("c1", "λ* 随 γ 增大", "assertion").kind
    'assertion'
    """

    id: str
    text: str
    kind: str = "assertion"
    untested: str | None = None
    asserted: bool = True

    def __post_init__(self):
        if not isinstance(self.id, str) or not re.fullmatch(r"[a-z0-9][a-z0-9_.-]*", self.id):
            raise ValueError(f"clause id must match [a-z0-9][a-z0-9_.-]*, got {self.id!r}")
        if not isinstance(self.text, str) or not self.text.strip():
            raise ValueError(f"clause {self.id}: text must be a non-empty verbatim substring of the fragment")
        if self.kind not in CLAUSE_KINDS:
            raise ValueError(f"clause {self.id}: kind must be one of {CLAUSE_KINDS}, got {self.kind!r}")
        if self.untested is not None and (not isinstance(self.untested, str) or not self.untested.strip()):
            raise ValueError(f"clause {self.id}: untested must say why (a non-empty string) or be None")

    @property
    def confirmable(self) -> bool:
        """False for negatives and priorities ("no closed form", "first"): computation can only scope them."""
        return self.kind not in ("negative", "priority")


@dataclass
class SubClaim:
    """One atomic statement decided by exactly one rule.

    Fields that do not apply to a rule are ``None`` (e.g. no p-value for an exact identity).
    ``p_value`` / ``p_adjusted`` are ``{"for": p, "against": p}``: *for* tests the null "the
    statement is false" (rejecting it confirms), *against* tests the null "the statement holds"
    (rejecting it refutes); ``p_adjusted`` is after the report-wide Holm adjustment.
    ``chosen`` lists the parameters the toolkit had to choose because the source does not give
    them (derived from ``params`` — ``{name: Param.as_dict()}`` — plus any given directly); ``missing`` what an
    ``underspecified`` sub-claim lacks; ``details`` rule-specific numbers (kept small); ``data`` large arrays,
    written beside the report. ``clauses``: the ids of the claim's clauses this sub-claim tests; ``extent``: where
    a counterexample exists and where it stops (a refutation maps it; with chosen params, the search over their
    admissible ranges: ``{"searched": {name: [low, high]}, "holds_throughout": bool, ...}``); ``trivial``: the
    comparison of each contender with the trivial alternative (:mod:`theorycheck.verdicts.rules.trivial`);
    ``narrowed``: the narrower scope (a range, regime or sign the seed does not state) — such a sub-claim cannot
    confirm its clause; ``overlay``: the figure overlay whose theory–simulation agreement it decides.
    """

    statement: str
    rule: str
    verdict: str | None = None
    scope: str | None = None
    slug: str | None = None
    id: str | None = None
    n: int | None = None
    statistic: float | None = None
    statistic_name: str | None = None
    df: float | None = None
    p_value: dict | None = None
    p_adjusted: dict | None = None
    ci: list | None = None
    ci_level: float | None = None
    margin: float | None = None
    estimate: float | None = None
    target: float | None = None
    reading: str | None = None
    chosen: dict = field(default_factory=dict)
    missing: list = field(default_factory=list)
    details: dict = field(default_factory=dict)
    data: dict = field(default_factory=dict)
    reason: str = ""
    clauses: list = field(default_factory=list)
    params: dict = field(default_factory=dict)
    extent: dict = field(default_factory=dict)
    trivial: list = field(default_factory=list)
    narrowed: str | None = None
    overlay: str | None = None

    def __post_init__(self):
        if not isinstance(self.statement, str) or not self.statement.strip():
            raise ValueError("statement must be a non-empty string")
        if self.verdict is not None and self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if self.slug is None:
            self.slug = slugify(self.statement)

    @property
    def statistical(self) -> bool:
        """True when the verdict waits for the report-wide multiplicity adjustment."""
        return self.p_value is not None

    def as_dict(self) -> dict:
        d = {k: getattr(self, k) for k in ("id", "statement", "rule", "verdict", "scope", "reason",
                                            "statistic_name", "reading")}
        d["n"] = None if self.n is None else int(self.n)
        for k in ("statistic", "df", "margin", "estimate", "target", "ci_level"):
            d[k] = _num(getattr(self, k))
        d["ci"] = None if self.ci is None else [_num(x) for x in self.ci]
        for k in ("p_value", "p_adjusted"):
            v = getattr(self, k)
            d[k] = None if v is None else {s: _num(v[s]) for s in ("for", "against")}
        d["chosen"] = clean_evidence(self.chosen)
        d["missing"] = list(self.missing)
        d["details"] = clean_evidence(self.details)
        d["data"] = clean_evidence(self.data)
        d["clauses"] = list(self.clauses)
        d["params"] = clean_evidence(self.params)
        d["extent"] = clean_evidence(self.extent)
        d["trivial"] = clean_evidence(self.trivial)
        d["narrowed"] = self.narrowed
        d["overlay"] = self.overlay
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "SubClaim":
        kw = {f.name: d.get(f.name) for f in dataclasses.fields(cls) if f.name in d}
        kw["slug"] = (d.get("id") or "").rsplit("/", 1)[-1] or None
        for k in ("chosen", "details", "data", "params", "extent"):
            kw[k] = kw.get(k) or {}
        for k in ("missing", "clauses", "trivial"):
            kw[k] = kw.get(k) or []
        kw["reason"] = kw.get("reason") or ""
        return cls(**kw)


@dataclass
class SelfCheck:
    """A consistency check of the toolkit itself (never a verdict about the paper).

    ``kind`` is ``"identity"`` (deterministic, decided at once) or ``"agreement"`` (exact value vs
    Monte Carlo of the same quantity; decided after the paper-wide Holm adjustment of the
    self-check family). ``passed`` is ``None`` until decided.
    """

    name: str
    kind: str
    passed: bool | None = None
    statistic: float | None = None
    statistic_name: str | None = None
    p_value: float | None = None
    p_adjusted: float | None = None
    n: int | None = None
    df: float | None = None
    details: dict = field(default_factory=dict)
    id: str | None = None

    def as_dict(self) -> dict:
        return {"id": self.id, "name": self.name, "kind": self.kind, "passed": self.passed,
                "statistic": _num(self.statistic), "statistic_name": self.statistic_name,
                "p_value": _num(self.p_value), "p_adjusted": _num(self.p_adjusted),
                "n": None if self.n is None else int(self.n), "df": _num(self.df),
                "details": clean_evidence(self.details)}

    @classmethod
    def from_dict(cls, d: dict) -> "SelfCheck":
        return cls(**{f.name: d.get(f.name) for f in dataclasses.fields(cls) if f.name in d})


@dataclass
class Claim:
    """One statement of the seed with its sub-claims, verdict and scope.

    ``lines`` is the 1-based inclusive line range of the seed; ``fragment`` the exact part of those
    lines the claim checks (the whole lines when empty); ``quote`` the verbatim text (filled by the
    paper registry). ``conventions`` are the ids (``C1`` …) of the paper's conventions the claim
    uses. ``error`` holds a traceback when the claim failed to run; ``withheld`` is true when the
    verdict is withheld (error or a failed self-check). ``reconciliations``: searches over the
    parameters the source leaves open (:mod:`theorycheck.reconcile`); ``assumptions``: stress paths and
    breaking points (:mod:`theorycheck.assumptions`) — neither changes the claim's verdict. ``clauses``: the
    declared clauses of the fragment with their verdicts (dicts, filled by the verdict engine: id, text, kind,
    asserted, untested, subclaims, verdict, reason); ``weight``: ``main`` or ``supporting`` (declared before the
    data); ``readings``: ``{reading: status}`` where status is ``"votes"``, ``"ruled out: …"`` or ``"same estimate
    as …"``; ``overlays``: the figure overlays the claim must decide; ``remedies``: what would fix the paper, generated
    by the claim from its numbers (dicts: text, numbers, clauses; :class:`theorycheck.papers.api.Remedy`).
    """

    id: str
    paper: str
    lines: tuple
    statement: str
    title: str = ""
    fragment: str = ""
    quote: str = ""
    conventions: list = field(default_factory=list)
    verdict: str | None = None
    scope: str | None = None
    aggregation: str = "all"
    subclaims: list = field(default_factory=list)
    self_checks: list = field(default_factory=list)
    figures: list = field(default_factory=list)
    derivation: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    revision: dict = field(default_factory=dict)
    reason: str = ""
    error: str | None = None
    withheld: bool = False
    reconciliations: list = field(default_factory=list)
    assumptions: list = field(default_factory=list)
    clauses: list = field(default_factory=list)
    weight: str | None = None
    readings: dict = field(default_factory=dict)
    overlays: list = field(default_factory=list)
    remedies: list = field(default_factory=list)

    def __post_init__(self):
        if not isinstance(self.id, str) or not self.id:
            raise ValueError("id must be a non-empty string")
        lo, hi = (self.lines, self.lines) if isinstance(self.lines, int) else tuple(self.lines)
        self.lines = (int(lo), int(hi))
        if self.verdict is not None and self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if not isinstance(self.title, str) or not self.title.strip():
            raise ValueError(f"claim {self.id}: title is required (written by the claim's author; never a cut of "
                             f"the statement)")
        seen = set()
        for k, s in enumerate(self.subclaims):
            if s.id is None or not s.id.startswith(self.id + "/"):
                s.id = f"{self.id}/{s.slug}"
            if s.id in seen:
                s.id = f"{s.id}-{k + 1}"
            seen.add(s.id)
        for k, c in enumerate(self.self_checks):
            if c.id is None:
                c.id = f"{self.id}/self/{slugify(c.name)}"

    def as_dict(self) -> dict:
        return {"id": self.id, "paper": self.paper, "lines": list(self.lines), "statement": self.statement,
                "title": self.title, "fragment": self.fragment, "quote": self.quote,
                "conventions": list(self.conventions), "verdict": self.verdict, "scope": self.scope,
                "aggregation": self.aggregation, "reason": self.reason,
                "subclaims": [s.as_dict() for s in self.subclaims],
                "self_checks": [c.as_dict() for c in self.self_checks],
                "figures": clean_evidence(self.figures), "derivation": list(self.derivation),
                "notes": list(self.notes), "revision": clean_evidence(self.revision),
                "error": self.error, "withheld": bool(self.withheld),
                "reconciliations": clean_evidence(self.reconciliations), "assumptions": clean_evidence(self.assumptions),
                "clauses": clean_evidence(self.clauses), "weight": self.weight,
                "readings": clean_evidence(self.readings), "overlays": list(self.overlays),
                **({"remedies": clean_evidence(self.remedies)} if self.remedies else {})}

    def _repr_markdown_(self) -> str:
        """A rich display in Jupyter: verdict, scope, finding and the sub-claim table."""
        cell = lambda x: str(x).replace("|", "\\|").replace("\n", " ")  # noqa: E731
        L = [f"**{self.id}** — {self.title}  ", f"verdict **{self.verdict or 'withheld'}** · seed lines "
             f"{self.lines[0]}–{self.lines[1]}" + (f" · scope: {self.scope}" if self.scope else ""), "",
             self.reason or "", "", "| sub-claim | rule | verdict | finding |", "|---|---|---|---|"]
        L += [f"| {cell(s.statement)} | {s.rule} | {s.verdict} | {cell(s.reason)} |" for s in self.subclaims]
        return "\n".join(L) + "\n"

    @classmethod
    def from_dict(cls, d: dict) -> "Claim":
        kw = {f.name: d.get(f.name) for f in dataclasses.fields(cls) if f.name in d}
        kw["subclaims"] = [SubClaim.from_dict(s) for s in d.get("subclaims", [])]
        kw["self_checks"] = [SelfCheck.from_dict(s) for s in d.get("self_checks", [])]
        for k in ("conventions", "figures", "derivation", "notes", "reconciliations", "assumptions", "clauses",
                  "overlays", "remedies"):
            kw[k] = kw.get(k) or []
        kw["revision"] = kw.get("revision") or {}
        kw["readings"] = kw.get("readings") or {}
        kw["reason"] = kw.get("reason") or ""
        kw["fragment"] = kw.get("fragment") or ""
        kw["quote"] = kw.get("quote") or ""
        kw["withheld"] = bool(kw.get("withheld"))
        kw["title"] = kw.get("title") or d["id"]            # a record written before titles were required
        return cls(**kw)


class Ledger:
    """All claims of one paper, in seed order, with the run's mode, seed and decision settings.

    >>> led = Ledger("nonlinear", "004", "What can linear attention learn", mode="quick", seed=1)
    >>> led.counts()["confirmed"], led.preliminary
    (0, True)
    """

    def __init__(self, key: str, paper: str, title: str, conventions=None, parameters: dict | None = None,
                 mode: str = "quick", seed: int | None = None, seed_file: str = "", decision: dict | None = None):
        self.key = key
        self.paper = str(paper)
        self.title = title
        # conventions: list of (id, text)
        self.conventions = [tuple(c) if not isinstance(c, str) else (f"C{i + 1}", c)
                            for i, c in enumerate(conventions or [])]
        self.parameters = dict(parameters or {})
        self.mode = mode
        self.seed = seed
        self.seed_file = seed_file
        self.decision = dict(decision or {})
        self.coverage: dict = {}
        self.claims: list[Claim] = []

    @property
    def preliminary(self) -> bool:
        return self.mode != "full"

    def add(self, claim: Claim) -> "Ledger":
        if claim.paper != self.paper:
            raise ValueError(f"claim {claim.id} is for paper {claim.paper}, ledger is {self.paper}")
        if any(c.id == claim.id for c in self.claims):
            raise ValueError(f"duplicate claim id {claim.id!r}")
        self.claims.append(claim)
        return self

    def counts(self) -> dict:
        out = {v: 0 for v in VERDICTS}
        out["withheld"] = 0
        for c in self.claims:
            if c.withheld or c.verdict is None:
                out["withheld"] += 1
            else:
                out[c.verdict] += 1
        return out

    @property
    def self_checks(self) -> list:
        return [s for c in self.claims for s in c.self_checks]

    @property
    def self_check_failed(self) -> bool:
        return any(s.passed is False for s in self.self_checks)

    @property
    def errors(self) -> list:
        return [c.id for c in self.claims if c.error]

    def _repr_markdown_(self) -> str:
        """A rich display in Jupyter: the verdict table of the paper."""
        cell = lambda x: str(x).replace("|", "\\|").replace("\n", " ")  # noqa: E731
        cnt = ", ".join(f"{v} {k}" for k, v in self.counts().items() if v)
        L = [f"**{self.title}** (`{self.key}`, seed {self.paper}, mode {self.mode}, run seed {self.seed}): {cnt}", "",
             "| claim | lines | verdict | scope |", "|---|---|---|---|"]
        L += [f"| {c.id}: {cell(c.title)} | {c.lines[0]}–{c.lines[1]} | {c.verdict or 'withheld'} | {cell(c.scope or '')} |"
              for c in self.claims]
        return "\n".join(L) + "\n"

    def as_dict(self) -> dict:
        return {"key": self.key, "paper": self.paper, "seed_file": self.seed_file, "title": self.title,
                "mode": self.mode, "seed": self.seed, "preliminary": self.preliminary,
                "decision": clean_evidence(self.decision),
                "conventions": [{"id": i, "text": t} for i, t in self.conventions],
                "parameters": clean_evidence(self.parameters), "counts": self.counts(),
                "self_check_failed": self.self_check_failed, "errors": self.errors,
                "coverage": clean_evidence(self.coverage), "claims": [c.as_dict() for c in self.claims]}

    @classmethod
    def from_dict(cls, d: dict) -> "Ledger":
        led = cls(d["key"], d["paper"], d["title"], [(c["id"], c["text"]) for c in d.get("conventions", [])],
                  d.get("parameters"), mode=d.get("mode", "quick"), seed=d.get("seed"),
                  seed_file=d.get("seed_file", ""), decision=d.get("decision"))
        led.coverage = d.get("coverage") or {}
        for c in d["claims"]:
            led.claims.append(Claim.from_dict(c))
        return led


def load_results(path) -> dict:
    """Read ``results.json`` → ``{key: Ledger}`` (empty dict if the file does not exist)."""
    p = Path(path)
    if not p.exists():
        return {}
    data = json.loads(p.read_text(encoding="utf-8"))
    return {k: Ledger.from_dict(v) for k, v in data.get("papers", {}).items()}
