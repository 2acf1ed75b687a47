r"""How a paper declares itself: :class:`Paper` (key, seed text, title, conventions, claims) and
:class:`Claims` (the claims, in seed order, and the shared fixtures they need).

A paper module reads like the paper. Each claim is a short function whose docstring is the
statement as tested, decorated with the seed lines (and the exact fragment of them) it quotes;
it computes its evidence with the engines and :mod:`theorycheck.models` and hands it to the
rules of :mod:`theorycheck.verdicts.rules`, yielding one :class:`~theorycheck.claims.SubClaim` per
atomic statement (plus any self-checks, derivations and notes)::

    claims = Claims()

    @claims.claim("004-a1-sin", lines=(185, 185), fragment="a_1=e^{-1/2}", conventions=["C1"],
                  title="First Hermite coefficient of sin", weight="supporting")
    def a1_of_sin(ctx):
        \"\"\"For f = sin, a₁ = E[g sin g] = e^{-1/2}.\"\"\"
        yield rules.identity("a₁(sin) = e^{-1/2}", hermite_coefficients(sp.sin(G), 1)[1], sp.exp(-sp.S.Half),
                             scope="exact (SymPy)")

    PAPER = Paper(key="nonlinear", seed_id="004", title="...", package=__name__, seed="seed.txt",
                  conventions=["Hermite: orthonormal probabilists' ..."], claims=claims)

Fixtures (:meth:`Claims.fixture`) are shared computations (training runs, parameter scans); a
claim lists the ones it needs and receives their values as keyword arguments. A fixture with
``params`` becomes one task per parameter and is delivered as ``{param: value}``. Every claim
and fixture is an independent task of the run engine (:mod:`theorycheck.run`), seeded from the
run seed and its own names only.

Rules of the house, checked by :meth:`Paper.validate`: claim ids are unique and match
``[a-z0-9][a-z0-9_.-]*``; claims are in seed order; a fragment occurs in its lines; no two claims
check overlapping fragments; cited conventions exist; needed fixtures exist.
"""
from __future__ import annotations

import importlib
import inspect
import json
import re
import traceback
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from ..assumptions import AssumptionSpec, StressSpec
from ..claims import WEIGHTS, Claim, Clause, Param, SelfCheck, SubClaim
from ..verdicts.finding import Remedy
from .coverage import NOT_A_CLAIM_REASONS, SeedSpan, coverage_report, uncovered_runs

__all__ = ["Paper", "Claims", "ClaimSpec", "FixtureSpec", "Derivation", "Note", "Remedy", "Mutant", "Baseline",
           "run_claim", "ConsistencyCheck", "order_by_sections", "read_revisions", "attach_revisions",
           "REVISIONS_FILE", "KEY_RE", "Clause", "Param", "MAX_TITLE"]

KEY_RE = re.compile(r"^[a-z0-9_-]+$")
CLAIM_ID_RE = re.compile(r"^[a-z0-9][a-z0-9_.-]*$")
#: The longest claim title (written by the claim's author; never cut from the statement).
MAX_TITLE = 90


@dataclass(frozen=True)
class Derivation:
    """A displayed equation (LaTeX, no surrounding ``$``) shown with the claim."""

    latex: str


@dataclass(frozen=True)
class Note:
    """Method or convention text shown with the claim. It describes what was done; it never states
    a result — findings are generated from the evidence by the verdict engine. What would fix the paper is a
    :class:`Remedy` (text generated from the numbers it cites)."""

    text: str


@dataclass(frozen=True)
class Mutant:
    """A deliberate mistake a paper's claims must catch: ``apply(patcher)`` installs it (with
    :class:`theorycheck.selftest.Patcher`); ``claims`` are the claims whose verdict or self-checks it must change.
    A paper lists its mutants as ``MUTANTS`` in the module named by ``Paper(mutants=...)``.

    >>> Mutant("x", "a mistake", ("004-hermite-basis",), lambda p: None).claims
    ('004-hermite-basis',)
    """

    id: str
    mistake: str
    claims: tuple
    apply: Callable = field(repr=False, compare=False)


@dataclass(frozen=True)
class ConsistencyCheck:
    """A consistency check of a paper's code that the self-test's *engine* mutants may name (an engine mistake — a
    dropped Isserlis pairing, an unnormalised Hermite polynomial — must show in the papers that use the engine too):
    ``name`` ``"<paper key>.<what>"``, ``kind`` (``'exact vs Monte Carlo'``, ``'identity'``, ``'limit'``,
    ``'known value'``), ``fn() -> (passed, statistic, threshold, detail)``. A paper lists them as ``CHECKS`` in the
    module named by ``Paper(mutants=...)``; :func:`theorycheck.selftest.engine_checks.registered_checks` finds them
    through the paper registry.

    >>> ConsistencyCheck("x.one", "identity", "1 = 1", lambda: (True, 0.0, 1e-12, "exact")).fn()[0]
    True
    """

    name: str
    kind: str
    description: str
    fn: Callable = field(repr=False, compare=False)


@dataclass
class Baseline:
    """A cheap valid call of a public function, for the reliability fuzzing of ``theorycheck selftest``:
    ``fn`` dotted path (or the callable), ``kwargs`` (or ``factory() -> kwargs``), parameters not to fuzz
    (``skip``: callables, generators, objects built by the factory), ``allow_inf`` when the function documents
    infinite values. A paper lists its baselines as ``BASELINES`` (and its public modules as ``MODULES``) in the
    module named by ``Paper(fuzz=...)``."""

    fn: Any
    kwargs: dict = field(default_factory=dict)
    factory: Callable | None = None
    skip: tuple = ()
    allow_inf: bool = False
    only: tuple | None = None          # fuzz only these parameters (default: every kwarg not skipped)
    aliases: dict = field(default_factory=dict)   # param -> the word its error message uses (check_int's value -> n)

    def call_kwargs(self) -> dict:
        return dict(self.factory()) if self.factory is not None else dict(self.kwargs)

    def target(self):
        if callable(self.fn):
            return self.fn
        mod, name = self.fn.rsplit(".", 1)
        return getattr(importlib.import_module(mod), name)


#: The file of a paper package that holds its audit history (:func:`read_revisions`).
REVISIONS_FILE = "revisions.json"


def order_by_sections(claims: "Claims", sections: Sequence) -> None:
    """Put ``claims.specs`` in the order of ``sections`` (the paper's claim modules, in seed order), and within a
    module in the order the functions are defined: the order is declared, never the order of imports.

    >>> import types
    >>> a, b = types.ModuleType("p.a"), types.ModuleType("p.b")
    >>> c = Claims()
    >>> def f(ctx): "F."
    >>> def g(ctx): "G."
    >>> f.__module__, g.__module__ = "p.b", "p.a"
    >>> _ = c.claim("x-f", 2, title="f", weight="main")(f); _ = c.claim("x-g", 1, title="g", weight="main")(g)
    >>> order_by_sections(c, [a, b]); [s.id for s in c.specs]
    ['x-g', 'x-f']
    """
    names = [m if isinstance(m, str) else getattr(m, "__name__", None) for m in sections]
    if not all(isinstance(n, str) for n in names) or len(set(names)) != len(names):
        raise ValueError(f"sections must be distinct modules (or module names), got {list(sections)!r}")
    rank = {n: i for i, n in enumerate(names)}
    stray = [s.id for s in claims.specs if _fn_module(s.fn) not in rank]
    if stray:
        raise ValueError(f"claims {stray} are defined outside the paper's sections {names}: a claim lives in a "
                         "module of SECTIONS")
    claims.specs.sort(key=lambda s: (rank[_fn_module(s.fn)], _fn_line(s.fn)))


def _fn_module(fn) -> str:
    return getattr(inspect.unwrap(fn), "__module__", "")


def _fn_line(fn) -> int:
    code = getattr(inspect.unwrap(fn), "__code__", None)
    return code.co_firstlineno if code is not None else 0


def read_revisions(package: str, name: str = REVISIONS_FILE) -> dict:
    """The audit history of a paper: ``{claim id: [revision, ...]}`` from the JSON file ``name`` of ``package``
    (oldest first; each revision ``{"previous": <old verdict>, "why": <what changed>}`` and optional fields such as
    ``previous_id``); ``{}`` when the package has no such file."""
    try:
        f = resources.files(package).joinpath(name)
        if not f.is_file():
            return {}
        doc = json.loads(f.read_text(encoding="utf-8"))
    except (ModuleNotFoundError, FileNotFoundError):
        return {}
    if not isinstance(doc, dict) or not all(isinstance(v, list) and v and all(isinstance(r, dict) for r in v)
                                            for v in doc.values()):
        raise ValueError(f"{package}/{name} must map claim ids to non-empty lists of revisions (objects)")
    return doc


def attach_revisions(claims: "Claims", history: dict) -> None:
    """Give every claim its latest revision from ``history`` (:func:`read_revisions`); a claim may not carry one
    both in code (``revision=``) and in the file, and every id of the file must name a claim."""
    ids = {s.id for s in claims.specs}
    unknown = sorted(set(history) - ids)
    if unknown:
        raise ValueError(f"revisions name unknown claims {unknown}")
    for s in claims.specs:
        if s.id in history:
            if s.revision:
                raise ValueError(f"claim {s.id}: its revision is given both in code and in the revisions file")
            s.revision = dict(history[s.id][-1])
            s.history = [dict(r) for r in history[s.id]]


def _line_range(lines) -> tuple:
    lo, hi = (lines, lines) if isinstance(lines, int) else tuple(lines)
    return int(lo), int(hi)


def _first_paragraph(doc: str | None) -> str:
    return " ".join((inspect.cleandoc(doc or "")).split("\n\n")[0].split())


@dataclass
class ClaimSpec:
    id: str
    lines: tuple
    fn: Callable
    statement: str
    title: str = ""
    fragment: str = ""
    conventions: tuple = ()
    needs: tuple = ()
    scope: str | None = None
    revision: dict = field(default_factory=dict)
    clauses: tuple = ()
    weight: str | None = None
    readings: dict = field(default_factory=dict)
    overlays: tuple = ()
    history: list = field(default_factory=list)


@dataclass
class FixtureSpec:
    name: str
    fn: Callable
    params: Callable | Sequence | None = None
    needs: tuple = ()
    select: dict = field(default_factory=dict)

    def selected(self, need: str, own, theirs: list) -> list:
        """The parameters of the needed fixture ``need`` that this fixture's task for parameter ``own`` receives:
        those ``q`` of ``theirs`` with ``select[need](own, q)`` true, or all of them when ``need`` is not selected."""
        match = self.select.get(need)
        return list(theirs) if match is None else [q for q in theirs if match(own, q)]

    def param_list(self, ctx) -> list | None:
        if self.params is None:
            return None
        ps = self.params(ctx) if callable(self.params) else self.params
        ps = list(ps)
        labels = [str(p) for p in ps]
        if len(set(labels)) != len(labels):
            raise ValueError(f"fixture {self.name!r}: parameters must have distinct str() labels")
        return ps


class Claims:
    """The ordered claims and the fixtures of one paper, declared with decorators."""

    def __init__(self):
        self.specs: list[ClaimSpec] = []
        self.fixtures: dict[str, FixtureSpec] = {}
        self.assumptions: list[AssumptionSpec] = []
        self.stresses: list[StressSpec] = []
        self.seed_spans: list[SeedSpan] = []

    def claim(self, id: str, lines, *, fragment: str = "", title: str = "", conventions: Iterable[str] = (),
              needs: Iterable[str] = (), scope: str | None = None, statement: str | None = None,
              revision: dict | None = None, clauses: Sequence[Clause] = (), weight: str | None = None,
              readings: dict | None = None, overlays: Sequence[str] = ()):
        """Declare the decorated function as the check of one seed statement.

        ``lines``: an int or a 1-based inclusive ``(start, end)``; ``fragment``: the exact text of
        those lines the claim checks (default: all of them); ``title`` (required): at most 90 characters, written
        by the claim's author, never a cut of the statement; ``statement``: the claim as tested (default: the function's docstring, first paragraph);
        ``revision``: for a re-audited claim, ``{"previous": <old verdict>, "why": <what changed in the rule or
        evidence>}``. Declared before the data: ``clauses`` (:class:`~theorycheck.claims.Clause`, verbatim pieces of
        the fragment that together cover it; sub-claims name the clauses they test), ``weight`` (required: ``main``,
        a result the paper's contribution rests on, or ``supporting``), ``readings`` (``{reading: "votes" | "ruled out: <why>"}``), ``overlays`` (names of the
        figure overlays of theory and simulation the claim must decide with a sub-claim each, ``overlay=<name>``).
        """
        if not isinstance(id, str) or not CLAIM_ID_RE.match(id):
            raise ValueError(f"claim id must match {CLAIM_ID_RE.pattern}, got {id!r}")
        lo, hi = (lines, lines) if isinstance(lines, int) else tuple(lines)
        if not isinstance(title, str) or not title.strip() or len(title) > MAX_TITLE:
            raise ValueError(f"claim {id}: title is required: a string of 1 to {MAX_TITLE} characters written by the "
                             f"claim's author (never a cut of the statement), got {title!r}")
        if weight not in WEIGHTS:
            raise ValueError(f"claim {id}: weight is required (declared before the data): one of {WEIGHTS}, "
                             f"got {weight!r}")
        clauses = tuple(clauses)
        if not all(isinstance(c, Clause) for c in clauses):
            raise TypeError(f"claim {id}: clauses must be theorycheck.claims.Clause objects")
        if len({c.id for c in clauses}) != len(clauses):
            raise ValueError(f"claim {id}: clause ids must be distinct, got {[c.id for c in clauses]}")

        def deco(fn):
            st = statement or _first_paragraph(fn.__doc__)
            if not st:
                raise ValueError(f"claim {id}: give a statement (the function's docstring)")
            if any(s.id == id for s in self.specs):
                raise ValueError(f"duplicate claim id {id!r}")
            self.specs.append(ClaimSpec(id, (int(lo), int(hi)), fn, st, title, fragment, tuple(conventions),
                                        tuple(needs), scope, dict(revision or {}), clauses, weight,
                                        dict(readings or {}), tuple(overlays)))
            return fn
        return deco

    def not_a_claim(self, lines, reason: str, *, fragment: str = "") -> None:
        """Declare seed text that is not a claim, for one reason of the closed list
        :data:`~theorycheck.papers.coverage.NOT_A_CLAIM_REASONS` (bibliography, rating, limitation stated as such,
        method description, heading or metadata, background of other work)."""
        if reason not in NOT_A_CLAIM_REASONS:
            raise ValueError(f"reason must be one of {NOT_A_CLAIM_REASONS}, got {reason!r}")
        self.seed_spans.append(SeedSpan(_line_range(lines), "not a claim", reason=reason, fragment=fragment))

    def restates(self, lines, claim: str, *, fragment: str = "") -> None:
        """Declare seed text that restates the statement checked by ``claim`` (its verdict covers it)."""
        self.seed_spans.append(SeedSpan(_line_range(lines), "restates", claim=claim, fragment=fragment))

    def fixture(self, fn=None, *, name: str | None = None, params=None, needs: Iterable[str] = (),
                select: dict | None = None):
        """Declare a shared computation; ``params`` (a list or ``ctx -> list``) makes one task per value.

        ``needs``: the fixtures it consumes, passed as keyword arguments (a fixture with ``params`` as
        ``{param: value}``). ``select={need: match}`` (only for a fixture with ``params``, and only for needed
        fixtures with ``params``): the task of parameter ``p`` receives, and depends on, only the parameters ``q``
        of ``need`` with ``match(p, q)`` true (possibly none: then ``{}``) — so that a task waits for, and is keyed
        by, the pieces it reads (e.g. one search per d reading the filter bank of its d), not every task of the needed
        fixture::

            @claims.fixture(params=[1, 2])
            def bank(ctx, d): ...

            @claims.fixture(params=[1, 2], needs=("bank",), select={"bank": lambda d, q: q == d})
            def search(ctx, d, bank): ...          # bank == {d: value of bank[d]}
        """
        def deco(f):
            nm = name or f.__name__
            if nm in self.fixtures:
                raise ValueError(f"duplicate fixture {nm!r}")
            sel = dict(select or {})
            if not all(isinstance(k, str) and callable(v) for k, v in sel.items()):
                raise TypeError(f"fixture {nm}: select must map needed fixture names to callables (p, q) -> bool")
            self.fixtures[nm] = FixtureSpec(nm, f, params, tuple(needs), sel)
            return f
        return deco(fn) if fn is not None else deco

    def assumption(self, claim: str, name: str, *, stated: bool, lines=None, uses: str = "") -> AssumptionSpec:
        """Declare an assumption of ``claim``: stated by the source (quote its ``lines``) or implicit (``uses``:
        the derivation step that needs it)."""
        if stated and lines is None:
            raise ValueError(f"assumption {name!r} of {claim} is stated: give the seed lines that state it")
        lo_hi = None if lines is None else ((lines, lines) if isinstance(lines, int) else tuple(lines))
        a = AssumptionSpec(claim, name, bool(stated), lo_hi, uses)
        self.assumptions.append(a)
        return a

    def stress(self, claim: str, assumption: str, *, path: str, violation: str, values, resolution=None):
        """Declare a stress path: ``fn(ctx, value) -> SubClaim`` decides the claim's statement at each value
        (ordered from "holds" to "violated"); each value is one task of the run engine. ``resolution``: the step of
        the violation the breaking point must resolve (declared before the data; a coarser path is rejected)."""
        def deco(fn):
            if any(x.claim == claim and x.assumption == assumption for x in self.stresses):
                raise ValueError(f"duplicate stress path for {claim} / {assumption}")
            self.stresses.append(StressSpec(claim, assumption, path, violation, values, fn, resolution))
            return fn
        return deco

    def __iter__(self):
        return iter(self.specs)

    def __len__(self):
        return len(self.specs)

    def get(self, claim_id: str) -> ClaimSpec:
        for s in self.specs:
            if s.id == claim_id:
                return s
        raise ValueError(f"no claim {claim_id!r}; claims are {[s.id for s in self.specs]}")


class Paper:
    """One paper: key, seed summary, title, conventions, claims (see the module docstring).

    ``seed`` is the seed summary's file name inside ``package`` (or a path); ``seed_id`` any
    ``[a-z0-9_-]+``; ``conventions`` a list of texts (numbered C1, C2, …) or ``(id, text)`` pairs;
    ``derivations`` the module names of its SymPy derivations (each with ``main()``);
    ``mutants`` the module name holding its fault-injection mutants (``MUTANTS``: :class:`Mutant`);
    ``fuzz`` the module name holding its reliability baselines (``BASELINES``: :class:`Baseline`, ``MODULES``: its
    public modules); ``generated_package`` the package its derivations write into; ``parameters`` a dict or a
    ``ctx -> dict`` of run sizes shown in the report.
    """

    def __init__(self, *, key: str, seed_id: str, title: str, claims: Claims, seed: str | Path,
                 package: str | None = None, conventions: Sequence = (), derivations: Sequence[str] = (),
                 mutants: str | None = None, parameters=None, seed_name: str | None = None,
                 generated_package: str | None = None, fuzz: str | None = None, sections: Sequence = (),
                 revisions: str | None = REVISIONS_FILE):
        for name, v in (("key", key), ("seed_id", seed_id)):
            if not isinstance(v, str) or not KEY_RE.match(v):
                raise ValueError(f"{name} must match [a-z0-9_-]+, got {v!r}")
        if not isinstance(claims, Claims):
            raise TypeError(f"claims must be a theorycheck.papers.api.Claims, got {type(claims).__name__}")
        self.key, self.seed_id, self.title, self.claims = key, seed_id, title, claims
        self.sections = tuple(sections)
        if self.sections:
            order_by_sections(claims, self.sections)
        if package and revisions:
            attach_revisions(claims, read_revisions(package, revisions))
        self.seed, self.package = seed, package
        self.seed_name = seed_name or Path(str(seed)).name
        self.conventions = [(c[0], c[1]) if not isinstance(c, str) else (f"C{i + 1}", c)
                            for i, c in enumerate(conventions)]
        self.derivations = tuple(derivations)
        self.mutants = mutants
        self.generated_package = generated_package
        self.fuzz = fuzz
        self._parameters = parameters or {}
        self._lines = None

    def __repr__(self):
        return f"Paper(key={self.key!r}, seed_id={self.seed_id!r}, claims={len(self.claims)})"

    # ------------------------------------------------------------------ seed text
    def seed_lines(self) -> tuple[str, ...]:
        """All lines of the seed summary (without newlines), as shipped with the paper."""
        if self._lines is None:
            if self.package:
                text = resources.files(self.package).joinpath(str(self.seed)).read_text(encoding="utf-8")
            else:
                text = Path(self.seed).read_text(encoding="utf-8")
            self._lines = tuple(text.split("\n"))
        return self._lines

    def lines_text(self, start: int, end: int | None = None) -> str:
        """Lines ``start..end`` (1-based, inclusive) joined by newlines."""
        lines = self.seed_lines()
        end = start if end is None else end
        if not (isinstance(start, int) and isinstance(end, int) and 1 <= start <= end <= len(lines)):
            raise ValueError(f"seed {self.seed_id} ({self.seed_name}) has {len(lines)} lines; the line range must "
                             f"satisfy 1 <= start <= end <= {len(lines)}, got {start}..{end}")
        return "\n".join(lines[start - 1:end])

    def span(self, lines: tuple, fragment: str = "") -> tuple[int, int]:
        """Character span of a claim's quoted text in the whole seed."""
        text = self.lines_text(*lines)
        offset = sum(len(x) + 1 for x in self.seed_lines()[:lines[0] - 1])
        if not fragment:
            return offset, offset + len(text)
        i = text.find(fragment)
        if i < 0:
            raise ValueError(f"fragment {fragment!r} does not occur in seed {self.seed_id} lines "
                             f"{lines[0]}..{lines[1]}")
        if text.find(fragment, i + 1) >= 0:
            raise ValueError(f"fragment {fragment!r} occurs more than once in seed {self.seed_id} lines "
                             f"{lines[0]}..{lines[1]}; quote a longer fragment")
        return offset + i, offset + i + len(fragment)

    # ------------------------------------------------------------------ metadata
    def convention(self, cid: str) -> str:
        for i, t in self.conventions:
            if i == cid:
                return t
        raise ValueError(f"paper {self.key}: no convention {cid!r}; conventions are "
                         f"{[i for i, _ in self.conventions]}")

    def parameters(self, ctx) -> dict:
        return dict(self._parameters(ctx) if callable(self._parameters) else self._parameters)

    def validate(self) -> "Paper":
        """Check the house rules (ids, seed order, fragments, conventions, fixtures); return self."""
        ids, spans, last = set(), [], (0, 0)
        conv = {i for i, _ in self.conventions}
        for s in self.claims:
            if s.id in ids:
                raise ValueError(f"paper {self.key}: duplicate claim id {s.id!r}")
            ids.add(s.id)
            if s.lines < last:
                raise ValueError(f"paper {self.key}: claims must be in seed order; {s.id} (lines {s.lines}) comes "
                                 f"after lines {last}")
            last = s.lines
            span = self.span(s.lines, s.fragment)
            for other, osp in spans:
                if span[0] < osp[1] and osp[0] < span[1]:
                    raise ValueError(f"paper {self.key}: claims {other} and {s.id} check overlapping text of the "
                                     f"seed; give each its own fragment")
            spans.append((s.id, span))
            for c in s.conventions:
                if c not in conv:
                    raise ValueError(f"claim {s.id}: unknown convention {c!r} (paper has {sorted(conv)})")
            for n in s.needs:
                if n not in self.claims.fixtures:
                    raise ValueError(f"claim {s.id} needs fixture {n!r}, which is not declared")
            if s.clauses:
                text = s.fragment or self.lines_text(*s.lines)
                try:
                    rest = uncovered_runs(text, [c.text for c in s.clauses])
                except ValueError as exc:
                    raise ValueError(f"claim {s.id}: {exc}") from None
                if rest:
                    raise ValueError(f"claim {s.id}: its clauses do not cover the fragment; not covered: {rest}")
        for f in self.claims.fixtures.values():
            for n in f.needs:
                if n not in self.claims.fixtures:
                    raise ValueError(f"fixture {f.name} needs fixture {n!r}, which is not declared")
            for n in f.select:
                if n not in f.needs:
                    raise ValueError(f"fixture {f.name} selects parameters of {n!r}, which it does not need")
                if f.params is None or self.claims.fixtures[n].params is None:
                    raise ValueError(f"fixture {f.name}: select needs parameters on both sides ({f.name} and {n})")
        for a in self.claims.assumptions:
            if a.claim not in ids:
                raise ValueError(f"assumption {a.name!r} refers to an unknown claim {a.claim!r}")
            if a.lines is not None:
                self.lines_text(*a.lines)
        for x in self.claims.seed_spans:
            self.span(x.lines, x.fragment)
            if x.kind == "restates" and x.claim not in ids:
                raise ValueError(f"seed lines {x.lines} restate an unknown claim {x.claim!r}")
        names = {(a.claim, a.name) for a in self.claims.assumptions}
        for st in self.claims.stresses:
            if (st.claim, st.assumption) not in names:
                raise ValueError(f"stress path {st.claim} / {st.assumption}: declare the assumption first "
                                 "(claims.assumption)")
        return self

    def coverage(self) -> dict:
        """Which sentences of the seed are assigned (quoted by a claim, restating one, or not a claim with a
        reason): :func:`theorycheck.papers.coverage.coverage_report`."""
        return coverage_report(self)

    def new_claim(self, spec: ClaimSpec) -> Claim:
        """An empty :class:`~theorycheck.claims.Claim` for ``spec`` with its verbatim quote."""
        clauses = [{"id": c.id, "text": c.text, "kind": c.kind, "asserted": c.asserted, "untested": c.untested,
                    "subclaims": [], "verdict": None, "reason": ""} for c in spec.clauses]
        return Claim(id=spec.id, paper=self.seed_id, lines=spec.lines, statement=spec.statement, title=spec.title,
                     fragment=spec.fragment, quote=self.lines_text(*spec.lines), conventions=list(spec.conventions),
                     scope=spec.scope, revision=dict(spec.revision), clauses=clauses, weight=spec.weight,
                     readings=dict(spec.readings), overlays=list(spec.overlays))


def run_claim(paper: Paper, spec: ClaimSpec, ctx, inputs: dict) -> Claim:
    """Run one claim function and collect what it yields into a :class:`Claim` (errors are recorded)."""
    claim = paper.new_claim(spec)
    try:
        out = spec.fn(ctx, **inputs)
        for item in (out if out is not None else ()):
            if isinstance(item, SubClaim):
                claim.subclaims.append(item)
            elif isinstance(item, SelfCheck):
                claim.self_checks.append(item)
            elif isinstance(item, Derivation):
                claim.derivation.append(item.latex)
            elif isinstance(item, Note):
                claim.notes.append(item.text)
            elif isinstance(item, Remedy):
                claim.remedies.append(item.as_dict())
            elif type(item).__name__ == "Reconciliation" and hasattr(item, "as_dict"):
                claim.reconciliations.append(item.as_dict())
            else:
                raise TypeError(f"claim {spec.id} yielded {type(item).__name__}; expected SubClaim, SelfCheck, "
                                "Derivation, Note, Remedy or Reconciliation")
        if not claim.subclaims:
            raise ValueError(f"claim {spec.id} yielded no sub-claim: every claim must be decided by a rule")
        missing = [o for o in spec.overlays if not any(s.overlay == o for s in claim.subclaims)]
        if missing:
            raise ValueError(f"claim {spec.id}: the figure overlay(s) {missing} of theory and simulation have no "
                             "agreement sub-claim (a rule with overlay=<name>) at the figure's sizes")
    except Exception:  # recorded; the run fails at the end, the other claims still run
        claim.error = traceback.format_exc()
    claim.figures = [{"stem": f["stem"], "caption": f["caption"]} for f in ctx.figures]
    claim.__post_init__()            # ids of sub-claims and self-checks
    return claim


def resolve_inputs(spec, values: dict) -> dict[str, Any]:
    """Keyword arguments of a claim or fixture from the values of the fixtures it needs."""
    return {n: values[n] for n in spec.needs}
