'''``theorycheck new-paper KEY --seed PATH``: scaffold a paper as a plugin package.

A paper is a small Python package that declares itself in the ``theorycheck.papers`` entry-point
group — exactly like the built-in papers, and of the same shape (:mod:`theorycheck.papers.skeleton`). The scaffold
writes, under ``<dest>/<key>/``::

    pyproject.toml                      the plugin's metadata and its entry point
    README.md                           the checklist for adding the paper's claims
    theorycheck_paper_<key>/
      __init__.py                       PAPER: key, seed id, title, conventions, sections, claims
      settings.py                       CONVENTIONS, Params (provenance-typed), sizes
      registry.py                       claims = Claims(): every room registers into it
      theory/moments.py                 the mathematics: public f validates, private _f trusts
      claims/__init__.py                SECTIONS = [results]: the claim modules in seed order
      claims/results.py                 one worked example claim (replace it by the paper's claims)
      claims/_helpers.py                helpers the claims share
      fixtures.py assumptions.py reconciliation.py seedmap.py   (assumptions: an example stress path)
      checks/mutants.py checks/fuzz.py  an example mutant (wrapping the real function) and fuzz baseline
      derivations/<key>_example.py      a SymPy derivation writing generated code
      generated/<key>_example.py        its output (written by running it now)
      tests/test_<key>.py               the paper's tests (skeleton, quick run, mutants caught)
      revisions.json                    the audit history by claim id (empty)
      seed.txt                          the seed summary, verbatim

then installs it in editable mode (``pip install -e``) unless ``install=False``. Nothing outside
``<dest>/<key>/`` is written. The scaffold is green at once: ``theorycheck run --paper KEY --quick``
and its test pass.
'''
from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from . import papers
from .papers.api import KEY_RE

__all__ = ["new_paper", "package_name"]


def package_name(key: str) -> str:
    """``theorycheck_paper_<key>`` with ``-`` mapped to ``_``."""
    return "theorycheck_paper_" + key.replace("-", "_")


def _seed_id(path: Path, key: str) -> str:
    """The file name's prefix before ``_`` (``004_50ac…txt`` → ``004``), else the key."""
    prefix = path.stem.split("_", 1)[0].lower()
    return prefix if "_" in path.stem and KEY_RE.match(prefix) else key


_CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")
_SENTENCE_END = re.compile(r"(?<=[。！？])|(?<=[a-z0-9)\]$][.!?])(?=\s)")


def _latin_share(text: str) -> float:
    letters = [c for c in text if not c.isspace()]
    return sum(c.isascii() and c.isalpha() for c in letters) / max(1, len(letters))


def _clean_title(line: str) -> str:
    t = line.strip().strip("#").strip().rstrip("¶").strip()
    t = re.split(r"[:：]\s*(?=[^:：]*$)", t)[0] if _CJK.search(t.rsplit(":", 1)[-1]) else t   # "Title?:中文笔记"
    return t.strip()


def _title(lines: list[str], key: str) -> tuple[str, int]:
    """The paper's title and its line (1-based; 0 when none): the first of the first 12 non-empty lines that reads
    like a title — mostly Latin letters, 3 to 30 words, not a list of tags (a venue and a year) — with a trailing
    pilcrow and a trailing Chinese gloss (``…?:中文研读笔记``) removed. Seeds often open with a line of tags."""
    seen = 0
    for i, ln in enumerate(lines, 1):
        t = _clean_title(ln)
        if not t:
            continue
        seen += 1
        if seen > 12:
            break
        words = t.split()
        tags = re.search(r"\b(19|20)\d\d\b", t) and not re.search(r"[:?]", t)
        if 3 <= len(words) <= 30 and _latin_share(t) >= 0.8 and not tags and len(t) <= 200:
            return t, i
    return f"Paper {key}", 0


def _first_statement(lines: list[str], skip: int) -> tuple[int, str]:
    """The first whole statement of the seed after line ``skip``: ``(line, fragment)``, the first sentence of the
    first line that states something (a sentence end, at least 20 characters; not a bullet, a link or a
    ``label: value`` metadata line), whole — ``fragment == ""`` when that sentence is the whole line."""
    for i, ln in enumerate(lines, 1):
        text = ln.strip()
        if i <= skip or len(text) < 20 or text[0] in "•-*·" or "http" in text:
            continue
        if not re.search(r"。|[.!?！？](\s|$)", text):
            continue
        first = _SENTENCE_END.split(text, maxsplit=1)[0].strip()
        return (i, "") if first == text or text.count(first) != 1 else (i, first)
    i = next((i for i, ln in enumerate(lines, 1) if i > skip and ln.strip()),
             next(i for i, ln in enumerate(lines, 1) if ln.strip()))
    return i, ""


def _check_unique(key: str, seed_id: str) -> None:
    for k, p in papers.registry().items():
        if k == key:
            raise ValueError(f"key {key!r} is already used by an installed paper ({p.package or p.seed})")
        if p.seed_id == seed_id:
            raise ValueError(f"seed id {seed_id!r} is already used by paper {k!r}; pass --seed-id")


def new_paper(key: str, seed: Path, dest: Path | None = None, seed_id: str | None = None, title: str | None = None,
              install: bool = True, python: str | None = None) -> list[Path]:
    """Create the plugin package of a new paper; return the paths written."""
    if not isinstance(key, str) or not KEY_RE.match(key):
        raise ValueError(f"key must match [a-z0-9_-]+ (lower-case letters, digits, '_' or '-'), got {key!r}")
    seed = Path(seed)
    if not seed.is_file():
        raise ValueError(f"--seed must be an existing text file, got {seed}")
    try:
        text = seed.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"--seed must be UTF-8 text, {seed} is not") from None
    lines = text.split("\n")
    if not any(ln.strip() for ln in lines):
        raise ValueError(f"--seed {seed} is empty")
    seed_id = seed_id or _seed_id(seed, key)
    if not KEY_RE.match(seed_id):
        raise ValueError(f"seed id must match [a-z0-9_-]+, got {seed_id!r}")
    _check_unique(key, seed_id)
    found_title, title_line = _title(lines, key)
    title = title or found_title
    root = Path(dest if dest is not None else Path.cwd() / "papers") / key
    if root.exists():
        raise ValueError(f"{root} already exists; choose another --dir or remove it")
    pkg = package_name(key)
    first, fragment = _first_statement(lines, title_line)
    subs = {"KEY": key, "PKG": pkg, "SEED_ID": seed_id, "TITLE": title.replace('"', "'"), "LINE": str(first),
            "FRAGMENT_ARG": "" if not fragment else " fragment=" + _py_str(fragment) + ",",
            "CLAUSE": _py_str(fragment or lines[first - 1].strip()), "SEED_NAME": seed.name,
            "MOD": key.replace("-", "_")}
    files = {"pyproject.toml": _PYPROJECT, "README.md": _README}
    files.update({f"{pkg}/{rel}": tpl for rel, tpl in _PACKAGE.items()})
    files[f"{pkg}/derivations/{subs['MOD']}_example.py"] = _DERIVATION
    files[f"{pkg}/tests/test_{subs['MOD']}.py"] = _TEST
    written = []
    for rel, tpl in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(_fill(tpl, subs), encoding="utf-8")
        written.append(p)
    shutil.copyfile(seed, root / pkg / "seed.txt")
    written.append(root / pkg / "seed.txt")
    gen = _run_example_derivation(root, pkg, subs["MOD"], python)
    written.append(gen)
    if install:
        py = python or sys.executable
        # build in this environment when it can (no download); otherwise let pip isolate the build
        has_build = subprocess.run([py, "-c", "import setuptools, wheel"], capture_output=True).returncode == 0
        cmd = [py, "-m", "pip", "install", "--no-deps"] + (["--no-build-isolation"] if has_build else []) + \
              ["-e", str(root)]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"pip install -e {root} failed:\n{r.stderr[-2000:]}")
    return written


def _py_str(text: str) -> str:
    """``text`` as a Python string literal (double quotes)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _fill(tpl: str, subs: dict) -> str:
    return re.sub(r"@@([A-Z_]+)@@", lambda m: subs[m.group(1)], tpl)


def _run_example_derivation(root: Path, pkg: str, mod: str, python: str | None) -> Path:
    """Run the example derivation (in a subprocess, with the new package importable)."""
    env = dict(os.environ, PYTHONPATH=str(root) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([python or sys.executable, "-m", f"{pkg}.derivations.{mod}_example"], cwd=root, env=env,
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"the example derivation failed:\n{r.stderr[-2000:]}")
    return root / pkg / "generated" / f"{mod}_example.py"


_PYPROJECT = '''[build-system]
requires = ["setuptools>=61", "wheel"]
build-backend = "setuptools.build_meta"

[project]
name = "theorycheck-paper-@@KEY@@"
version = "0.1.0"
description = "theorycheck claims of: @@TITLE@@"
requires-python = ">=3.10"
dependencies = ["theorycheck"]

[project.entry-points."theorycheck.papers"]
@@KEY@@ = "@@PKG@@:PAPER"

[tool.setuptools.packages.find]
include = ["@@PKG@@*"]

[tool.setuptools.package-data]
@@PKG@@ = ["*.txt", "*.json"]
'''

_README = '''# @@TITLE@@ — theorycheck plugin `@@KEY@@`

Generated by `theorycheck new-paper @@KEY@@`. The paper is found through the `theorycheck.papers`
entry point declared in `pyproject.toml`; nothing in theorycheck itself is edited. The package has the one shape
of every theorycheck paper (`theorycheck.papers.skeleton`; the built-in papers look the same).

Checklist (see theorycheck's README, "Add a paper"):

1. `@@PKG@@/seed.txt` is the seed summary, verbatim (claims quote it by line numbers, 1-based).
2. Conventions, stated and chosen values (`Param`s with provenance) and run sizes go to `@@PKG@@/settings.py`;
   the mathematics to `@@PKG@@/theory/` (a public function validates its arguments, a private `_f` trusts them).
3. Write one claim per statement in `@@PKG@@/claims/<section>.py`, in seed order, and list the section modules in
   `@@PKG@@/claims/__init__.py` (`SECTIONS`): docstring = the statement as tested; declared margins; evidence from
   theorycheck's engines and `theorycheck.models`; one rule of `theorycheck.verdicts.rules` per atomic sub-claim;
   self-checks for our own consistency. Shared work goes to `fixtures.py`, helpers to `claims/_helpers.py`, every
   other sentence of the seed to `seedmap.py`, assumptions and stress paths to `assumptions.py`.
4. Put derivations in `@@PKG@@/derivations/` (listed in `PAPER.derivations`), regenerate with
   `theorycheck derive --paper @@KEY@@`.
5. Add mutants (`@@PKG@@/checks/mutants.py`, wrapping the real functions) that your claims must catch, and fuzz
   baselines of the public theory functions (`@@PKG@@/checks/fuzz.py`).
6. `theorycheck run --paper @@KEY@@ --quick`, then `python -m pytest @@PKG@@/tests`, then the paper-scale
   `theorycheck run --paper @@KEY@@`. A re-audited claim says why in `@@PKG@@/revisions.json`.
'''

_PACKAGE = {
    "__init__.py": '''\"\"\"theorycheck plugin for: @@TITLE@@ (seed @@SEED_ID@@, original file @@SEED_NAME@@).

Rooms: ``settings`` (conventions, Params, sizes) · ``registry`` (the claims registry) · ``theory`` (the mathematics) ·
``claims`` (the claims, one module per section, in seed order) · ``fixtures`` · ``assumptions`` (stress paths) ·
``reconciliation`` · ``seedmap`` · ``checks`` (mutants, fuzz baselines) · ``derivations``/``generated`` · ``tests`` ·
``revisions.json`` (the audit history).
\"\"\"
from theorycheck.papers.api import Paper

from . import assumptions as _assumptions  # noqa: F401  (assumption maps and stress paths)
from . import fixtures as _fixtures  # noqa: F401  (shared computations)
from . import seedmap as _seedmap  # noqa: F401  (the sentences no claim quotes)
from .claims import SECTIONS
from .registry import claims as _registry
from .settings import CONVENTIONS, sizes

PAPER = Paper(key="@@KEY@@", seed_id="@@SEED_ID@@", title="@@TITLE@@", package=__name__, seed="seed.txt",
              seed_name="@@SEED_NAME@@", conventions=CONVENTIONS, claims=_registry, sections=SECTIONS,
              parameters=sizes, derivations=("@@PKG@@.derivations.@@MOD@@_example",),
              generated_package="@@PKG@@.generated", mutants="@@PKG@@.checks.mutants", fuzz="@@PKG@@.checks.fuzz")
''',
    "settings.py": '''\"\"\"Conventions, stated and chosen values, and run sizes of this paper (declared before any data).\"\"\"
from theorycheck.claims import Param

CONVENTIONS = [
    "Example convention: $E$ is the expectation over $g\\\\sim N(0,1)$ (state yours: halved losses, normalisations, "
    "index ranges, what is averaged over).",
]

#: Parameters with their provenance: stated (a seed line), convention (a C-number) or chosen (why, and the range a
#: reader could have chosen instead — a failure that rests on a chosen value is "not reproduced" unless it holds over
#: that whole range).
S = Param("s", 1.5, "chosen", "the example's variance (replace by the paper's setting)", admissible=(0.1, 10.0))
#: the example's declared margin: agreement within 5 % (relative) confirms
MARGIN = 0.05


def sizes(ctx) -> dict:
    \"\"\"Run sizes, shown in the report: small in quick mode, the paper's in full mode.\"\"\"
    return {"mc_samples": 200_000 if ctx.quick else 2_000_000}
''',
    "registry.py": '''\"\"\"The claims registry of this paper: claims, fixtures, assumptions and seed spans register into it.\"\"\"
from theorycheck.papers.api import Claims

claims = Claims()
''',
    "theory/__init__.py": '''\"\"\"The mathematics of this paper (public functions validate their arguments; private ``_f`` trust them).\"\"\"
''',
    "theory/moments.py": '''\"\"\"Gaussian moments of the example (replace by the paper's mathematics).\"\"\"
from theorycheck.validate import check_real

__all__ = ["fourth_moment"]


def fourth_moment(s: float) -> float:
    \"\"\"E[x⁴] for x ~ N(0, s): 3 s² (Isserlis: three pairings), from the generated code of the example derivation.

    >>> fourth_moment(2.0)
    12.0
    \"\"\"
    return _fourth_moment(check_real("s", s, low=0.0, low_open=True))


def _fourth_moment(s: float) -> float:
    # lazy: the generated module is written by the example derivation, which imports this package before it exists
    from ..generated import @@MOD@@_example as gen
    return float(gen.fourth_moment(s))
''',
    "claims/__init__.py": '''\"\"\"The claims of this paper, one module per section of the seed; SECTIONS is the seed order.\"\"\"
from . import results

SECTIONS = [results]
''',
    "claims/_helpers.py": '''\"\"\"Helpers the claims share.\"\"\"
import numpy as np


def rng_for(ctx, name: str):
    \"\"\"The random generator of stream ``name`` of this run (results are identical for any number of workers).\"\"\"
    return np.random.default_rng(ctx.seed_for(name))
''',
    "claims/results.py": '''\"\"\"Claims of the seed's results, in seed order.

Each claim quotes its seed lines (and the exact fragment it checks), computes evidence with the
engines and models, and hands it to one rule per atomic sub-claim.
\"\"\"
from __future__ import annotations

from theorycheck.claims import Clause
from theorycheck.papers.api import Derivation, Note
from theorycheck.verdicts import Estimate, rules, selfcheck
from theorycheck.verdicts.planning import plan

from ..registry import claims
from ..settings import MARGIN, S, sizes
from ..theory.moments import fourth_moment
from ._helpers import rng_for


@claims.claim("@@SEED_ID@@-example", lines=(@@LINE@@, @@LINE@@),@@FRAGMENT_ARG@@ conventions=["C1"],
              title="EXAMPLE (replace me): the fourth moment of a centred Gaussian", weight="main",
              clauses=[Clause("c1", @@CLAUSE@@, "assertion")])
def example(ctx):
    \"\"\"EXAMPLE (replace me): the fourth moment of a centred Gaussian of variance s is 3 s².

    A real claim quotes one whole statement of the seed (``lines`` and, when the line holds several statements,
    the exact ``fragment``), splits it into clauses (verbatim pieces covering it: assertions, conditions,
    quantifiers, numbers, inferences — each tested by a sub-claim, or ``untested="why"``), and its ``title`` (at most
    90 characters) is written by you, never cut from it.\"\"\"
    from ..generated import @@MOD@@_example as gen   # lazy: written by the example derivation
    s = S.value
    exact = fourth_moment(s)
    x = rng_for(ctx, "@@SEED_ID@@-example").normal(0.0, s ** 0.5, sizes(ctx)["mc_samples"])
    est = Estimate.from_samples(x ** 4)
    yield selfcheck.identity("generated E[x^4] equals 3 s^2", exact, 3 * s ** 2)
    yield rules.agreement("E[x⁴] = 3s² for x ~ N(0, s)", est, exact, margin=MARGIN, scope=f"s = {s}, n = {est.n}",
                          clauses="c1", params=[S])
    yield Derivation(gen.LATEX["fourth_moment"])
    # how many draws decide the declared margin with power 0.9 (from this run as a pilot)
    need = plan("agreement", est, target=exact, margin=MARGIN, relative=True)
    yield Note(f"Sample-size plan (theorycheck.verdicts.planning): {need['note']}; this run used {est.n}.")
''',
    "fixtures.py": '''\"\"\"Shared computations of this paper (``@claims.fixture``: each a task of the run engine; none yet).\"\"\"
from .registry import claims  # noqa: F401  (fixtures register here)
''',
    "assumptions.py": '''\"\"\"Assumptions of the claims and stress paths: where each result breaks.

The example's derivation uses that x is Gaussian (Isserlis' three pairings). The stress path replaces x by a
Student-t variable of the same variance, from ν = ∞ (violation 1/ν = 0: the assumption holds) to ν = 10 (1/ν = 0.1),
and decides the same statement at each point; the report shows where it breaks.
\"\"\"
from theorycheck.verdicts import Estimate, rules

from .claims._helpers import rng_for
from .registry import claims
from .settings import MARGIN, S, sizes
from .theory.moments import fourth_moment

claims.assumption("@@SEED_ID@@-example", "x is Gaussian", stated=False,
                  uses="Isserlis' theorem: E[x⁴] is the sum over the three pairings")


@claims.stress("@@SEED_ID@@-example", "x is Gaussian", path="Student-t x with ν degrees of freedom, variance s",
               violation="1/ν (0 = Gaussian)", values=[0.0, 0.02, 0.05, 0.1], resolution=0.05)
def example_heavy_tails(ctx, inv_nu):
    s, n = S.value, sizes(ctx)["mc_samples"]          # the same declared margin and setting as the claim
    rng = rng_for(ctx, f"@@SEED_ID@@-example-t-{inv_nu}")
    if inv_nu == 0:
        x = rng.normal(0.0, s ** 0.5, n)
    else:
        nu = 1.0 / inv_nu
        x = rng.standard_t(nu, n) * (s * (nu - 2.0) / nu) ** 0.5
    return rules.agreement(f"E[x⁴] = 3s² (1/ν = {inv_nu})", Estimate.from_samples(x ** 4), fourth_moment(s),
                           margin=MARGIN, scope=f"s = {s}, n = {n}", params=[S])
''',
    "reconciliation.py": '''\"\"\"Searches over the parameters the seed leaves open, for stated numbers (``theorycheck.reconcile``; none yet).\"\"\"
''',
    "seedmap.py": '''\"\"\"Every sentence of the seed that no claim quotes: ``claims.restates(lines, claim_id)`` or
``claims.not_a_claim(lines, reason)`` (until ``PAPER.coverage()["unassigned"]`` is empty).\"\"\"
from .registry import claims  # noqa: F401  (seed spans register here)
''',
    "checks/__init__.py": '''\"\"\"The paper's own checks of the toolkit: mutants its claims must catch, fuzz baselines of its public functions.\"\"\"
''',
    "checks/mutants.py": '''\"\"\"Mutants: realistic mistakes that the claims of this paper must catch (each wraps the real function).\"\"\"
from theorycheck.selftest import Mutant

from ..theory import moments


def _fourth_moment_is_s2(p):
    orig = moments._fourth_moment
    p.replace(moments, "_fourth_moment", lambda s: orig(s) / 3)    # forgot the 3 of Isserlis' three pairings


MUTANTS = [Mutant("@@KEY@@-fourth-moment-missing-3", "E[x^4] = s^2 instead of 3 s^2", ("@@SEED_ID@@-example",),
                  _fourth_moment_is_s2)]
''',
    "checks/fuzz.py": '''\"\"\"Reliability baselines: cheap valid calls of the public functions, fuzzed by ``theorycheck selftest``.\"\"\"
from theorycheck.papers.api import Baseline

MODULES = ["@@PKG@@.theory.moments"]
BASELINES = [Baseline("@@PKG@@.theory.moments.fourth_moment", dict(s=1.5))]
''',
    "derivations/__init__.py": '\"\"\"SymPy derivations of this paper.\"\"\"\n',
    "generated/__init__.py": '\"\"\"Generated code (written by the derivations; never edited by hand).\"\"\"\n',
    "tests/__init__.py": "",
    "revisions.json": "{}\n",
}

_DERIVATION = '''\"\"\"Example derivation: E[x⁴] for x ~ N(0, s) by Isserlis (theorycheck's Gaussian engine), as code.\"\"\"
from __future__ import annotations

import sympy as sp

from theorycheck.codegen import write_module
from theorycheck.gaussian import moment

SCRIPT = "@@PKG@@.derivations.@@MOD@@_example"
GENERATED_PACKAGE = "@@PKG@@.generated"


def main():
    s = sp.Symbol("s", positive=True)
    m4 = sp.factor(moment(sp.Matrix([[s]]), (0, 0, 0, 0)))
    assert sp.simplify(m4 - 3 * s ** 2) == 0
    return [write_module("@@MOD@@_example", {"fourth_moment": ([s], m4)}, SCRIPT, package=GENERATED_PACKAGE,
                         latex={"fourth_moment": r"\\mathbb E[x^4]=" + sp.latex(m4)})]


if __name__ == "__main__":
    main()
'''

_TEST = '''\"\"\"Tests of the @@KEY@@ paper: it has the skeleton's shape, its quick run is clean and its mutants are caught.\"\"\"
from theorycheck import papers
from theorycheck.papers.skeleton import problems
from theorycheck.run import run_papers
from theorycheck.selftest import run_paper_mutants


def test_paper_is_valid_and_has_the_skeleton():
    paper = papers.load("@@KEY@@").validate()
    assert problems(paper) == []


def test_quick_run_is_clean():
    led = run_papers(["@@KEY@@"], "quick", seed=1).ledgers["@@KEY@@"]
    assert not led.errors and not led.self_check_failed
    assert all(c.verdict is not None for c in led.claims)


def test_mutants_are_caught():
    res = run_paper_mutants("@@KEY@@")
    assert res["caught"] == res["total"] > 0, res["mutants"]
'''
