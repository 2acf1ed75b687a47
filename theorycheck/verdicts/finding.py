r"""What a rule found, in words generated from its numbers — the "we find" of a referee letter's point.

Each registered rule has, beside its ``explain`` (the full finding of a sub-claim's table row), a ``finding(sc)``
that says **what was found**, never the tested statement: "the limit 1.983 lies below the claimed 2.2 by 0.2175
(9.9 %), beyond the margin ±0.11". A :class:`Finding` is built from structured :class:`Comparison`\ s — a relation,
a left and a right value, a tolerance and a margin — and its sentence is generated from them, so a test can check
every verb against its numbers (:meth:`Comparison.holds`), and :func:`contradictions` can check the rendered text of
a letter as a reader sees it.

Relations and their verbs (:data:`VERBS`): ``equals`` ("equals"), ``within`` ("is within ±t of"), ``differs``
("differs from"), ``above`` ("lies above"), ``below`` ("lies below"), ``at least`` ("is at least"), ``at most``
("is at most"). A comparison's sentence reads ``<left label> <L>[ (CI)] <verb> <right label> <R>[ by |L − R|
(x %)][, inside/beyond the margin ±m]``; the printed numbers carry enough digits for the relation to hold on them.

>>> c = Comparison("below", 1.98252, 2.2, left_label="the limit", right_label="the claimed", margin=0.11, gap=True)
>>> c.text
'the limit 1.983 lies below the claimed 2.2 by 0.2175 (9.9 %), beyond the margin ±0.11'
>>> c.holds(), contradictions(c.text)
(True, [])
>>> contradictions("the caption formula 1.447 equals the legend's 0.447")
['«1.447 equals … 0.447»: equality, but |1.447 − 0.447| = 1 exceeds the tolerance 0']
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from .text import fmt, p_value_text, shorten

__all__ = ["Comparison", "Finding", "Remedy", "VERBS", "RELATIONS", "contradictions", "statement_parts", "quantity",
           "reference", "statistical_sure", "value_finding", "ci_text", "settings_tail"]

#: relation -> the verb its sentence uses (the only verbs a generated comparison uses).
VERBS = {"equals": "equals", "within": "is within ±{t} of", "differs": "differs from", "above": "lies above",
         "below": "lies below", "at least": "is at least", "at most": "is at most"}
RELATIONS = tuple(VERBS)
_EQUALITY = ("equals", "within")


def _holds(relation: str, left: float, right: float, tol: float) -> bool:
    d = left - right
    return {"equals": abs(d) <= tol, "within": abs(d) <= tol, "differs": abs(d) > tol, "above": d > tol,
            "below": d < -tol, "at least": d >= -tol, "at most": d <= tol}[relation]


@dataclass(frozen=True)
class Comparison:
    """One relation between two numbers that a finding states: ``left <relation> right`` within ``tolerance``.

    ``left_label``: the words before the left number ("the limit"); ``right_label``: the words between the verb and
    the right number ("the claimed") — when it holds a digit it is put after the number, in parentheses, so the
    number next to the verb is always the compared one; ``ci``: the left value's 95 % CI (shown after it); ``gap``:
    say "by |L − R| (x %)" (``percent=False``: without the share); ``margin``: say whether |L − R| is inside or beyond ±margin (and check it); ``tail``:
    words after it all (a setting)."""

    relation: str
    left: float
    right: float
    tolerance: float = 0.0
    left_label: str = ""
    right_label: str = ""
    ci: tuple | None = None
    gap: bool = False
    margin: float | None = None
    tail: str = ""
    percent: bool = True

    def __post_init__(self):
        if self.relation not in VERBS:
            raise ValueError(f"relation must be one of {RELATIONS}, got {self.relation!r}")
        for name in ("left", "right", "tolerance"):
            v = getattr(self, name)
            if not isinstance(v, (int, float)) or isinstance(v, bool) or math.isnan(v):
                raise ValueError(f"Comparison.{name} must be a number, got {v!r}")
        if self.tolerance < 0 or (self.margin is not None and not self.margin >= 0):
            raise ValueError("tolerance and margin must be non-negative")
        if self.tolerance and self.relation not in ("equals", "within", "differs"):
            raise ValueError(f"a tolerance belongs to equals, within or differs; '{self.relation}' states its "
                             "distance with margin=… instead")

    def holds(self) -> bool:
        """Does the relation (and the margin phrase) hold on the values?"""
        ok = _holds(self.relation, float(self.left), float(self.right), float(self.tolerance))
        if self.margin is not None:
            ok = ok and ((abs(self.left - self.right) <= self.margin) == self._inside())
        return ok

    def _inside(self) -> bool:
        return abs(self.left - self.right) <= (self.margin or 0.0)

    def _digits(self) -> int:
        """The fewest significant digits (at least 4) at which the printed numbers keep the relation."""
        for k in range(4, 13):
            L, R, t = (_num(fmt(x, k)) for x in (self.left, self.right, self.tolerance))
            m = None if self.margin is None else _num(fmt(self.margin, k))
            same_side = m is None or ((abs(L - R) <= m) == self._inside())
            if _holds(self.relation, L, R, t) and same_side:
                return k
        return 12

    @property
    def text(self) -> str:
        k = self._digits()
        verb = VERBS[self.relation].format(t=fmt(self.tolerance, k))
        right = fmt(self.right, k)
        if re.search(r"\d", self.right_label):
            right = f"{right} ({self.right_label})"
        elif self.right_label:
            right = f"{self.right_label} {right}"
        ci = f" (95 % CI [{fmt(self.ci[0], k)}, {fmt(self.ci[1], k)}])" if self.ci else ""
        out = f"{self.left_label + ' ' if self.left_label else ''}{fmt(self.left, k)}{ci} {verb} {right}"
        if self.relation == "equals" and self.tolerance:
            out += f" to within {fmt(self.tolerance, k)}"
        if self.gap and self.left != self.right:
            pct = (f" ({fmt(100 * abs(self.left - self.right) / abs(self.right), 2)} %)"
                   if self.right and self.percent and math.isfinite(self.right) else "")
            out += f" by {fmt(abs(self.left - self.right), k)}{pct}"
        if self.relation == "differs" and self.tolerance:
            out += f" (tolerance {fmt(self.tolerance, k)})"
        if self.margin is not None:
            out += f", {'inside' if self._inside() else 'beyond'} the margin ±{fmt(self.margin, k)}"
        return out + self.tail


@dataclass(frozen=True)
class Finding:
    """What a rule found for one sub-claim: ``text`` (a sentence of numbers, never the tested statement; it contains
    the text of each of its ``comparisons``), ``sure`` (how sure: "exact (SymPy)", or n, the 95 % CI and the
    Holm-adjusted p-values) and ``comparisons`` (the relations its sentence states, checked by the tests)."""

    text: str
    sure: str = ""
    comparisons: tuple = field(default_factory=tuple)

    def contradicted(self) -> list:
        """The comparisons whose relation does not hold on their own numbers (none, for a generated finding)."""
        return [c for c in self.comparisons if not c.holds()]


class Remedy:
    """What would fix the paper, yielded by a claim beside its sub-claims and written into its letter point ("What
    would fix it"). The text is generated from the numbers the claim computed: ``template`` names each number as a
    field (``{lam}``), the numbers are the keyword arguments, formatted as everywhere in the reports (4 significant
    digits); every field must be given and every number used, so a remedy always cites what it rests on.
    ``clauses``: the ids of the clauses it repairs (the letter shows it on the points of those clauses; none: every
    point of the claim). A :class:`~theorycheck.papers.api.Note` describes method and never states a result; a
    Remedy states a repair and rests on results.

    >>> Remedy("call the curve U-shaped: its minimum is at λ* = {lam}, its maximum at λ = {end}", lam=0.74,
    ...        end=1.0, clauses=["c1"]).text
    'call the curve U-shaped: its minimum is at λ* = 0.74, its maximum at λ = 1'
    """

    __slots__ = ("template", "numbers", "clauses")

    def __init__(self, template: str, /, *, clauses=(), **numbers):
        if not isinstance(template, str) or not template.strip():
            raise ValueError("Remedy: the template must be a non-empty string")
        fields = set(re.findall(r"{(\w+)}", template))
        if not numbers:
            raise ValueError("Remedy: give the numbers it rests on as keyword arguments (template fields {name})")
        bad = {k: v for k, v in numbers.items() if isinstance(v, bool) or not isinstance(v, (int, float))
               or not math.isfinite(float(v))}
        if bad:
            raise ValueError(f"Remedy: numbers must be finite reals, got {bad}")
        if fields != set(numbers):
            raise ValueError(f"Remedy: the template's fields {sorted(fields)} and the numbers {sorted(numbers)} must "
                             "be the same (every number cited, every field given)")
        clauses = [clauses] if isinstance(clauses, str) else list(clauses)
        if not all(isinstance(x, str) and x for x in clauses):
            raise ValueError(f"Remedy: clauses must be clause ids, got {clauses!r}")
        self.template, self.numbers, self.clauses = template, {k: float(v) for k, v in numbers.items()}, clauses

    @property
    def text(self) -> str:
        return self.template.format(**{k: fmt(v) for k, v in self.numbers.items()})

    def as_dict(self) -> dict:
        return {"text": self.text, "numbers": dict(self.numbers), "clauses": list(self.clauses)}

    def __repr__(self) -> str:
        return f"Remedy({self.text!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Remedy) and self.as_dict() == other.as_dict()

    __hash__ = None


# --------------------------------------------------------------------------- reading a statement's parts
_OPS = (" = ", " → ", " ≈ ", " < ", " > ", " ≤ ", " ≥ ", " ≠ ", " equals ", " differs from ", " exceeds ")
_NUMBER = re.compile(r"^[-+−]?\d[\d.]*(?:e[-+]?\d+)?$")


def _top_level(text: str, token: str) -> int:
    """Index of ``token`` in ``text`` outside brackets, or -1."""
    depth, k = 0, 0
    while k < len(text):
        ch = text[k]
        depth += ch in "([{"
        depth -= ch in ")]}"
        if depth == 0 and text.startswith(token, k):
            return k
        k += 1
    return -1


def _trailing_settings(text: str) -> tuple[str, str]:
    """``(body, settings)``: a trailing parenthesised group of ``text`` is its settings."""
    s = text.rstrip()
    if not s.endswith(")"):
        return s, ""
    depth = 0
    for k in range(len(s) - 1, -1, -1):
        depth += (s[k] == ")") - (s[k] == "(")
        if depth == 0:
            return (s[:k].rstrip(), s[k + 1:-1]) if k > 0 else (s, "")
    return s, ""


def _setting_like(text: str) -> bool:
    """A leading label that reads as a setting ("he2, τ = 0.5", "(a) AR(2)", "train error"), not a clause."""
    return " = " in text or "∈" in text or len(text) <= 24


def _starts_with_number(text: str) -> str | None:
    m = re.match(r"[-+−]?\d[\d.]*(?:e[-+]?\d+)?", text)
    return m.group(0) if m else None


def _same_number(a: str, target) -> bool:
    try:
        x = float(a.replace("−", "-"))
    except ValueError:
        return False
    return target is not None and math.isclose(x, float(target), rel_tol=1e-9, abs_tol=1e-12)


def statement_parts(statement: str, target: float | None = None) -> dict:
    """The parts of a tested statement a finding may reuse as labels: ``prefix`` (a leading setting before ": ",
    e.g. "he2, τ = 0.5"), ``left``, ``op`` and ``right`` (its sides at the first top-level relation: =, →, ≈, <, >,
    ≤, ≥, ≠, "equals", "differs from", "exceeds"; ``op`` None when it has none), and ``settings`` (a trailing
    parenthesised group). A relation is a setting, not the statement's, when its left side ends in a number
    ("γ 0.8 → 0.95") or its right side starts with a number other than ``target`` ("no drift at γ = 1").

    >>> p = statement_parts("he2, τ = 0.5: error → 2.2", 2.2)
    >>> p["prefix"], p["left"], p["op"], p["right"]
    ('he2, τ = 0.5', 'error', '→', '2.2')
    >>> statement_parts("LMS error − GLA error > 0 (γ = 0.975)")["settings"]
    'γ = 0.975'
    >>> statement_parts("no drift within the prompt at γ = 1", 0.0)["op"] is None
    True
    """
    s = " ".join(str(statement).split())
    prefix = ""
    k = _top_level(s, ": ")
    if 0 < k <= 60 and _setting_like(s[:k]):
        prefix, s = s[:k], s[k + 2:]
    elif k > 0:                                  # "<a clause>: <the relation tested>": the relation is the body
        s = s[k + 2:]
    body, settings = _trailing_settings(s)
    hits = sorted((i, op) for op in _OPS if (i := _top_level(body, op)) > 0)
    for i, op in hits:
        left, right = body[:i].strip(), body[i + len(op):].strip()
        lead = _starts_with_number(right)
        if re.search(r"\d$", left) or (lead is not None and not _same_number(lead, target)):
            continue
        return {"prefix": prefix, "left": left, "op": op.strip(), "right": right, "settings": settings}
    return {"prefix": prefix, "left": body, "op": None, "right": "", "settings": settings}


def quantity(sc, default: str) -> str:
    """The words naming a sub-claim's estimated quantity: ``details["quantity"]`` when the claim gives it, else
    the left side of the statement's relation (when it has one and its right side is not the target's number as
    written), else ``default``."""
    given = (sc.details or {}).get("quantity")
    if given:
        return str(given)
    p = statement_parts(sc.statement, sc.target)
    return p["left"] if p["op"] and 0 < len(p["left"]) <= 60 else default


def reference(sc, default: str) -> str:
    """The words naming what the estimate is compared with: ``details["reference"]`` when given, else the right side
    of the statement's relation unless it is a bare number (then ``default``: "the claimed", "the printed", …)."""
    given = (sc.details or {}).get("reference")
    if given:
        return str(given)
    p = statement_parts(sc.statement, sc.target)
    right = p["right"]
    if not p["op"] or not right or _NUMBER.match(right.replace(" ", "")) or re.search(r"\d", right):
        return default
    return shorten(right, 60)


_CLAIMING = re.compile(r"\b(?:within|above|below|exceeds|higher|lower|by)\b|[<>≤≥≈]")


def settings_tail(sc) -> str:
    """`` (<settings>)`` of a statement's leading and trailing settings, for the end of a finding. A part of the
    settings that states a tolerance or a relation ("within 10 %", "late/early ≥ 0.5") is the statement's, not a
    setting, and is left out: a finding never repeats what was tested."""
    p = statement_parts(sc.statement, sc.target)
    kept = [x.strip() for x in p["settings"].split(";")]
    parts = [p["prefix"]] + [x for x in kept if "=" in x or "∈" in x or not (re.search(r"\d", x) or _CLAIMING.search(x))]
    parts = [x for x in parts if x]
    return f" ({'; '.join(parts)})" if parts else ""


def ci_text(sc) -> tuple | None:
    return tuple(sc.ci) if sc.ci and sc.ci[0] != sc.ci[1] else None


def statistical_sure(sc, n_label: str = "", ci: bool = True) -> str:
    """How sure a statistical sub-claim is: its n (``n_label``: what it counts, e.g. "sizes"), its 95 % CI, and its
    Holm-adjusted p-value(s) — the side that decided it (p(for) for a confirmation, p(against) for a refutation),
    both when neither did."""
    parts = [] if sc.n is None else [f"{sc.n} {n_label}" if n_label else f"n = {sc.n}"]
    interval = ci_text(sc) if ci else None
    if interval:
        parts.append(f"95 % CI [{fmt(interval[0])}, {fmt(interval[1])}]")
    if sc.p_value:
        adj = sc.p_adjusted is not None
        pf, pa = (p_value_text(sc, side, adjusted=adj) for side in ("for", "against"))
        pf, pa = (("" if p.startswith("<") else "= ") + p for p in (pf, pa))
        if sc.verdict == "confirmed":
            parts.append(f"Holm-adjusted p(for) {pf}")
        elif sc.verdict in ("refuted", "not reproduced"):
            parts.append(f"Holm-adjusted p(against) {pa}")
        else:
            parts.append(f"Holm-adjusted p(for) {pf}, p(against) {pa}: neither below α")
    return ", ".join(parts)


def value_finding(sc, reference_word: str, *, point_null: bool = False) -> Finding:
    """The finding of an estimate compared with a target within a margin (agreement, equivalence, reproduction):
    "<quantity> L (CI) is within ±m of <the claimed> R" when it is inside the margin and confirmed, else "lies
    above/below … by |L − R| (x %), inside/beyond the margin ±m". ``point_null``: the rule also rejects any
    difference at all (an exact formula), so a significant difference inside the margin is still a finding."""
    L, R, m = float(sc.estimate), float(sc.target), float(sc.margin or 0.0)
    left = quantity(sc, "the estimate" if sc.statistical else "the exact value")
    right = reference(sc, reference_word)
    ci = ci_text(sc)
    if sc.verdict == "confirmed" and abs(L - R) <= m:
        c = Comparison("within", L, R, m, left_label=left, right_label=right, ci=ci)
    elif L == R:
        c = Comparison("equals", L, R, 0.0, left_label=left, right_label=right, ci=ci)
    else:
        c = Comparison("below" if L < R else "above", L, R, 0.0, left_label=left, right_label=right, ci=ci,
                       gap=True, margin=m)
    text = c.text + settings_tail(sc)
    if point_null and sc.verdict in ("refuted", "not reproduced") and abs(L - R) <= m:
        text += ": a small but significant difference from an exact formula"
    sure = statistical_sure(sc) if sc.statistical else "exact (no sampling)"
    return Finding(text, sure, (c,))


# --------------------------------------------------------------------------- checking a rendered text
_NUM = r"[-−]?(?:\d+(?:\.\d+)?(?:e[-+]?\d+)?|∞)"
_PAREN = r"(?:\s*\((?:[^()]|\([^()]*\))*\))?"
_VERB_RE = "|".join(re.escape(v).replace(re.escape("{t}"), "(" + _NUM + ")") for v in VERBS.values())
#: "<L>[ (…)] <verb> [words without digits] <R>[ to within <t>][ by …][ (tolerance <t>)][, inside/beyond the margin
#: ±<m>]" (groups: L, verb, the tolerance of "is within ±t of", R, "to within t", "tolerance t", side, m)
_TRIPLE = re.compile(r"(?<![\w.])(" + _NUM + ")" + _PAREN + r"\s+(" + _VERB_RE + r")\s+(?:[^\d;]*?\s)?(" + _NUM
                     + r")(?![\w.])(?: to within (" + _NUM + r"))?(?: by " + _NUM + r"(?: \(" + _NUM + r" %\))?)?"
                     + r"(?: \(tolerance (" + _NUM + r")\))?(?:, (inside|beyond) the margin ±(" + _NUM + "))?")
_VS = re.compile(r"(?:=|:)\s*(" + _NUM + r")\s+vs\s+[^;]*?(?:=|stated|target)\s*(" + _NUM + ")")
_EQ_WORDS = re.compile(r"\b(gives|equals|matches|agrees|coincides|within)\b")
_NE_WORDS = re.compile(r"(≠|\b(?:differs|exceeds|above|below|misses|beyond)\b)")


def _num(s: str) -> float:
    return math.inf if s.strip("−-") == "∞" and not s.startswith(("−", "-")) else \
        -math.inf if s.strip("−-") == "∞" else float(s.replace("−", "-"))


def _relation_of(verb: str) -> str:
    for rel, v in VERBS.items():
        if re.fullmatch(re.escape(v).replace(re.escape("{t}"), _NUM), verb):
            return rel
    raise ValueError(verb)


def contradictions(text: str) -> list:
    """Every place where ``text`` states a relation its own numbers contradict: each generated comparison
    ("L <verb> … R", with its tolerance and margin phrase) is checked on the printed numbers; and a text (a letter
    point) that uses only equality words (gives, equals, matches, agrees, within) while its "a = x vs … = y" numbers differ is
    reported too (the old letter's "the caption's formula gives the legend's noise 0.447", where x = 0.447 and
    y = 1.447)."""
    out = []
    for m in _TRIPLE.finditer(text):
        L, verb, R = _num(m.group(1)), m.group(2), _num(m.group(4))
        rel = _relation_of(verb)
        tol = _num(m.group(3) or m.group(5) or m.group(6) or "0") if rel in ("within", "equals", "differs") else 0.0
        if not _holds(rel, L, R, tol):
            kind = "equality" if rel in _EQUALITY else rel
            what = "exceeds" if rel in _EQUALITY else "is within" if rel == "differs" else "does not fit"
            out.append(f"«{m.group(1)} {verb} … {m.group(4)}»: {kind}, but |{fmt(L)} − {fmt(R)}| = {fmt(abs(L - R))}"
                       f" {what} the tolerance {fmt(tol)}")
        if m.group(7):
            inside, mm = m.group(7) == "inside", _num(m.group(8))
            if (abs(L - R) <= mm) != inside:
                out.append(f"«{m.group(0)}»: says {m.group(7)} the margin ±{m.group(8)}, but |L − R| = "
                           f"{fmt(abs(L - R))}")
    if _EQ_WORDS.search(text) and not _NE_WORDS.search(text):
        for m in _VS.finditer(text):
            a, b = _num(m.group(1)), _num(m.group(2))
            if abs(a - b) > 1e-9 * max(1.0, abs(b)):
                out.append(f"«{shorten(text, 90)}»: equality words, but {m.group(1)} vs {m.group(2)}")
    return out
