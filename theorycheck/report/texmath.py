r"""The seed's mathematics in the LaTeX reports: find the formulas, typeset them, never past the margin.

A quoted seed text mixes prose (Chinese and English) with TeX formulas delimited as ``$…$``, ``$$…$$``,
``\(…\)`` or ``\[…\]``. :func:`split_math` cuts it into prose and :class:`Formula` pieces (pandoc's rule
for a single ``$``: no space inside the delimiters and no digit right after the closing one, so "$5 and
$6" stays prose); :func:`seed_tex` sets the prose as before (:func:`~theorycheck.report.tex.tex_escape`)
and each formula by its compile verdict (:mod:`theorycheck.report.texcheck`):

- a formula that compiles is set as mathematics, its Unicode mapped to commands
  (:func:`~theorycheck.report.tex.math_unicode`);
- a display formula wider than the line is broken across lines by TeX (``\tcdisplay``: top-level
  relations and operators, ``\quad`` separators, inside ``\left(…\right)``; a long ``\frac{A}{B}`` is
  written ``(A)/(B)``, see :func:`breakable`); one that would still pass the margin is scaled to the line
  width (``\tcscaled``);
- a formula that does not compile falls back to its TeX source, for that formula only, in italic
  typewriter with a note next to it (``\tcsource``); the report counts these in its notes.

>>> [p if isinstance(p, str) else (p.body, p.display) for p in split_math(r"令 $x_i$，则 $$y=1$$ 且 $5 和 $6")]
['令 ', ('x_i', False), '，则 ', ('y=1', True), ' 且 $5 和 $6']
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..verdicts.text import GROUP_CLOSE, GROUP_OPEN, TEX_TOKEN, formula_spans
from .tex import math_unicode, tex_escape, tex_text

__all__ = ["Formula", "split_math", "formulas_in", "breakable", "seed_tex", "prose_tex", "formula_tex", "source_tex", "PREAMBLE",
           "CONTEXTS", "SOURCE_NOTE", "complete_fragment"]

#: Where a formula is set: its wrapper in the report (and in the check document, so both see the same width).
CONTEXTS = {"text": ("", ""), "quote": (r"\begin{quote}\small", r"\end{quote}")}

#: The note printed next to a formula shown as TeX source.
SOURCE_NOTE = "TeX source: this formula does not compile"

#: The document preamble of every report and of the formula check (packages for the seed's macros:
#: ``\boldsymbol``/``\bm``, ``\mathbb``, ``\operatorname``, ``\dfrac``, ``cases``, ``pmatrix``, …).
PREAMBLE = (
    r"\documentclass[10pt]{article}",
    r"\usepackage[margin=2cm]{geometry}",
    r"\usepackage[T1]{fontenc}",
    r"\usepackage{lmodern,amsmath,amssymb,bm,graphicx,array,longtable,booktabs,xcolor,caption,CJKutf8}",
    r"\usepackage[hidelinks]{hyperref}",
    # CJKutf8 attaches the ToUnicode map of each Chinese plane to the font just defined — also when the plane is
    # still set while a Latin font is picked up (a size change after Chinese text): the Latin font's text then
    # extracts as Chinese. Attach it only to Chinese fonts (encoding C70).
    r"\makeatletter\AtBeginDocument{\ifdefined\CJK@addcmap\let\tc@addcmap\CJK@addcmap\def\tc@cjkenc{C70}"
    r"\def\CJK@addcmap#1{\edef\tc@enc{\f@encoding}\ifx\tc@enc\tc@cjkenc\tc@addcmap{#1}\fi}\fi}\makeatother",
    r"\setlength{\parindent}{0pt}\setlength{\parskip}{4pt}",
    r"\tolerance=1000\emergencystretch=3em",
    r"\pdftrailerid{}",
    r"\newsavebox\tcbox",
    # display: #1 as written, centred when it fits; else #2 (the same with break points) broken by TeX
    r"\newcommand\tcdisplay[2]{\par\sbox\tcbox{$\displaystyle #1$}\ifdim\wd\tcbox>\linewidth"
    r"{\raggedright\leftskip=1em\hangindent=2em\hangafter=1\lineskip=5pt\lineskiplimit=3pt"
    r"\noindent$\displaystyle #2$\par}"
    r"\else{\centering\usebox\tcbox\par}\fi}",
    # a formula that cannot be broken within the line: scaled to the line width
    r"\newcommand\tcscaled[1]{\par\sbox\tcbox{$\displaystyle #1$}{\centering\ifdim\wd\tcbox>\linewidth"
    r"\resizebox{\linewidth}{!}{\usebox\tcbox}\else\usebox\tcbox\fi\par}}",
    # a formula that does not compile: its source, in italic typewriter, with a note
    r"\newcommand\tcsrc[1]{{\ttfamily\itshape #1}}",
    r"\newcommand\tcsource[1]{\tcsrc{#1}\hspace{0.3em}\mbox{\footnotesize[" + SOURCE_NOTE + "]}}",
)


@dataclass(frozen=True)
class Formula:
    r"""One formula of a quoted text: its body (TeX between the delimiters), display or inline, and the
    context it is set in (a key of :data:`CONTEXTS`). ``source`` is the formula as written, delimiters
    included (the fallback shows it); two formulas with the same body, style and context are one.

    >>> Formula("x^2", False).tex
    'x^2'
    >>> Formula(r"λ ≤ 1", True, "quote").tex
    '\\lambda \\le 1'
    """
    body: str
    display: bool
    context: str = "text"
    source: str = field(default="", compare=False)

    @property
    def tex(self) -> str:
        """The body with its Unicode mapped to TeX commands."""
        return math_unicode(self.body).strip()


def split_math(text: str, context: str = "text") -> list:
    r"""``text`` cut into prose strings and :class:`Formula` pieces, in order (``\$`` is a dollar sign); the
    formulas are those of :func:`theorycheck.verdicts.text.formula_spans`."""
    out, k = [], 0
    text = str(text)
    for start, end, body, display in formula_spans(text):
        if start > k:
            out.append(text[k:start].replace("\\$", "$"))
        out.append(Formula(body, display, context, text[start:end]))
        k = end
    if k < len(text):
        out.append(text[k:].replace("\\$", "$"))
    return out


def formulas_in(text: str, context: str = "text") -> list:
    """The formulas of ``text`` (see :func:`split_math`)."""
    return [p for p in split_math(text, context) if isinstance(p, Formula)]


_SPACING = {r"\quad", r"\qquad"}
_FRACS = {r"\frac", r"\dfrac", r"\tfrac"}
_NARROW = {r"\left", r"\right", r"\big", r"\Big", r"\bigg", r"\Bigg", r"\bigl", r"\bigr", r"\Bigl", r"\Bigr",
           r"\mathrm", r"\operatorname", r"\boldsymbol", r"\mathbb", r"\mathcal", r"\rm", r"\,", r"\!", r"\ "}
#: A fraction whose numerator or denominator is longer than this many glyphs is written (A)/(B) when broken.
LONG_FRACTION = 48


def _glyphs(tex: str) -> int:
    """A rough width of a formula: the glyphs it prints (commands count one, groupings and scripts none)."""
    return sum(1 for t in TEX_TOKEN.findall(tex) if not t.isspace() and t not in "{}^_&" and t not in _NARROW)


def _group(tokens: list, k: int):
    """``(inner tokens, end)`` of the brace group starting at ``tokens[k] == '{'``."""
    depth, j = 0, k
    while j < len(tokens):
        depth += tokens[j] == "{"
        depth -= tokens[j] == "}"
        if depth == 0:
            return tokens[k + 1:j], j + 1
        j += 1
    return None


def _left_right(tokens: list, k: int):
    r"""``(opening delimiter, inner tokens, closing delimiter, end)`` of ``\left`` at ``tokens[k]``."""
    depth, j = 0, k
    while j < len(tokens):
        depth += tokens[j] == r"\left"
        depth -= tokens[j] == r"\right"
        if depth == 0 and j + 1 < len(tokens):
            return tokens[k + 1], tokens[k + 2:j], tokens[j + 1], j + 2
        j += 1
    return None


def _fraction(tokens: list, k: int):
    """``(numerator, denominator, end)`` of a fraction with two braced arguments at ``tokens[k]``, else None."""
    num = _group(tokens, k + 1) if k + 1 < len(tokens) and tokens[k + 1] == "{" else None
    den = _group(tokens, num[1]) if num and num[1] < len(tokens) and tokens[num[1]] == "{" else None
    return (num[0], den[0], den[1]) if den else None


def _ink(tokens: list) -> list:
    return [t for t in tokens if not t.isspace()]


def _has_sum(tokens: list) -> bool:
    """A top-level ``+`` or ``-`` (then ``A/B`` needs ``(A)``)."""
    depth = 0
    for t in tokens:
        depth += t in GROUP_OPEN or t == r"\left"
        depth -= t in GROUP_CLOSE or t == r"\right"
        if depth == 0 and t in "+-":
            return True
    return False


def _paren(tokens: list, needed: bool) -> str:
    inner = _break_tokens(tokens)
    return r"\bigl(" + inner + r"\bigr)" if needed else "{" + inner + "}"


def _break_tokens(tokens: list) -> str:
    """Top-level break points in a token list (see :func:`breakable`)."""
    out, k, depth = [], 0, 0
    while k < len(tokens):
        t = tokens[k]
        if depth == 0 and t == r"\left" and (lr := _left_right(tokens, k)) is not None:
            o, inner, c, k = lr
            phantom = r"\vphantom{" + "".join(inner) + "}"
            out.append(r"\mathopen{\left" + o + phantom + r"\right.}" + _break_tokens(inner)
                       + r"\mathclose{\left." + phantom + r"\right" + c + "}")
            continue
        if depth == 0 and t in _FRACS and (fr := _fraction(tokens, k)) is not None \
                and max(_glyphs("".join(fr[0])), _glyphs("".join(fr[1]))) > LONG_FRACTION:
            out.append(_paren(fr[0], _has_sum(fr[0])) + r"\big/" + _paren(fr[1], len(_ink(fr[1])) > 1))
            k = fr[2]
            continue
        depth += t in GROUP_OPEN
        depth -= t in GROUP_CLOSE
        out.append(t + (r"\allowbreak " if depth == 0 and t in _SPACING else ""))
        k += 1
    return "".join(out)


def breakable(tex: str) -> str:
    r"""``tex`` with break points for TeX's line breaking of a formula too wide for the line.

    TeX breaks a formula after a top-level relation or binary operator; this adds a break after each
    top-level ``\quad`` / ``\qquad``, opens top-level ``\left(…\right)`` pairs (their delimiters keep their size
    through a ``\vphantom`` of the content, so the content's own operators can break) and writes a long
    ``\frac{A}{B}`` as ``(A)/(B)``. The mathematics is unchanged.

    >>> breakable(r"a=1,\quad b=\left(c+d\right)")
    'a=1,\\quad\\allowbreak  b=\\mathopen{\\left(\\vphantom{c+d}\\right.}c+d\\mathclose{\\left.\\vphantom{c+d}\\right)}'
    """
    return _break_tokens(TEX_TOKEN.findall(tex))


def source_tex(f: Formula) -> str:
    """A formula's source (delimiters included) as text that may break after ``\\ _ ^ { } + - = ,`` and spaces."""
    parts = re.split(r"(?<=[\\_^{}+\-=,\s])", f.source or f.body)
    return r"\allowbreak{}".join(tex_escape(p) for p in parts if p)


def formula_tex(f: Formula, verdict) -> str:
    """LaTeX of one formula given its :class:`~theorycheck.report.texcheck.Verdict`."""
    if verdict.compiles is False:
        return r"\tcsource{" + source_tex(f) + "}"
    tex = f.tex
    if verdict.fit == "scaled":
        return r"\tcscaled{" + tex + "}"
    if f.display:
        return r"\tcdisplay{" + tex + "}{" + breakable(tex) + "}"
    return r"\(" + tex + r"\)"


def seed_tex(text: str, check, context: str = "text") -> str:
    r"""Quoted seed text as LaTeX: prose escaped, each formula set by ``check.verdict`` (a
    :class:`~theorycheck.report.texcheck.FormulaCheck`)."""
    return "".join(tex_escape(p) if isinstance(p, str) else formula_tex(p, check.verdict(p))
                   for p in split_math(text, context))


def prose_tex(text: str, check, context: str = "text") -> str:
    r"""Our generated prose as LaTeX — findings, reasons, letter points, clause quotes — where it may quote seed text:
    each formula (``$…$``, ``$$…$$``, ``\(…\)``, ``\[…\]``) set by ``check.verdict`` like the seed's own (so a
    quoted formula is mathematics, or its source with the note when it does not compile), the prose between them by
    :func:`~theorycheck.report.tex.tex_text` (code, bold, scripts; a stray ``$`` is a dollar sign).

    >>> class Fits:
    ...     def verdict(self, f):
    ...         from theorycheck.report.texcheck import Verdict
    ...         return Verdict(True, "fits")
    >>> prose_tex(r"clause c1 «令 \(x_i\) 为 $5 和 $6» refuted", Fits())
    'clause c1 \\guillemotleft{}令 \\(x_i\\) 为 \\$5 和 \\$6\\guillemotright{} refuted'
    """
    out = []
    for p in split_math(text, context):
        for q in (_fragments(p, context) if isinstance(p, str) else [p]):
            out.append(tex_text(q, math=False) if isinstance(q, str) else _quoted_tex(q, check.verdict(q)))
    return "".join(out)


#: TeX left in prose once the formulas are cut out: a piece of a formula (a clause of the seed that ends or starts
#: inside one, e.g. ``$$ \boxed{ e = \rho\begin{cases}``). It runs from its first delimiter or command to the next
#: Chinese character or quotation mark.
_FRAGMENT = re.compile(r"(?:\$\$|\$(?![\d\s$])|\\[A-Za-z]+|\\[\[(])[^\u3000-\u9fff\uff00-\uffef“”«»]*")


def complete_fragment(body: str, cut: bool = False) -> str:
    r"""A piece of a formula made whole so that it can be typeset: the groups it closes but does not open are opened
    in front of it (``}``, ``\end{cases}``), the groups it opens are closed after it, and alignment (``&``, ``\\``)
    outside any environment is set in ``aligned``. ``cut``: the piece was cut short ("…"), so a command name at its
    end may be cut too and is dropped. The mathematics shown is the piece's own; only delimiters are added.

    >>> complete_fragment(r"\boxed{ e =\rho \begin{cases}")
    '\\boxed{ e =\\rho \\begin{cases}\\end{cases}}'
    >>> complete_fragment(r"\dfrac{\tau}{\tau-1},&\tau>1. \end{cases}} $$")
    '{\\begin{cases}\\dfrac{\\tau}{\\tau-1},&\\tau>1. \\end{cases}}'
    >>> complete_fragment(r"\dfrac1{1-\tau},&\tau<1,\\[2mm]")
    '\\begin{aligned}\\dfrac1{1-\\tau},&\\tau<1,\\\\[2mm]\\end{aligned}'
    """
    body = re.sub(r"\s*(\$\$|\$|\\\)|\\\])\s*$", "", body)
    tokens = TEX_TOKEN.findall(body)
    if cut and tokens and re.fullmatch(r"\\[A-Za-z]+", tokens[-1]):
        tokens = tokens[:-1]
    _, missing, _ = _scan(tokens)
    tokens = TEX_TOKEN.findall("".join(reversed(missing))) + tokens
    stack, _, align = _scan(tokens)
    out = "".join(tokens).rstrip() + "".join("}" if x == "{" else r"\end{" + x + "}" for x in reversed(stack))
    return r"\begin{aligned}" + out + r"\end{aligned}" if align else out


def _scan(tokens: list) -> tuple[list, list, bool]:
    """``(open groups, openers missing in front, alignment outside any group)`` of a formula's tokens."""
    stack, missing, align, k = [], [], False, 0
    while k < len(tokens):
        t = tokens[k]
        if t in (r"\begin", r"\end") and k + 1 < len(tokens) and tokens[k + 1] == "{":
            j = tokens.index("}", k + 1) if "}" in tokens[k + 1:] else len(tokens) - 1
            env = "".join(tokens[k + 2:j])
            if t == r"\begin":
                stack.append(env)
            elif stack and stack[-1] == env:
                stack.pop()
            else:
                missing.append(r"\begin{" + env + "}")
            k = j + 1
            continue
        if t == "{":
            stack.append("{")
        elif t == "}":
            if stack and stack[-1] == "{":
                stack.pop()
            else:
                missing.append("{")
        elif t in ("&", "\\\\") and not stack:
            align = True
        k += 1
    return stack, missing, align


def _fragments(prose: str, context: str) -> list:
    """``prose`` with each piece of a formula it holds as a :class:`Formula`, made whole (:func:`complete_fragment`)
    and checked like any other: one that still does not compile is shown as its source, with the note, and
    counted."""
    out, last = [], 0
    for m in _FRAGMENT.finditer(prose):
        frag = m.group(0).rstrip(" ,;.…")
        if prose[last:m.start()]:
            out.append(prose[last:m.start()])
        body = re.sub(r"^(\$\$|\$|\\\(|\\\[)", "", frag)
        cut = m.group(0).rstrip(" ,;.").endswith("…")
        out.append(Formula(complete_fragment(body, cut), False, context, frag))
        last = m.start() + len(frag)
    if prose[last:]:
        out.append(prose[last:])
    return out


def _quoted_tex(f: Formula, verdict) -> str:
    r"""A formula quoted inside our sentences (table cells, list items): always in the line — a display formula as
    ``\(\displaystyle …\)`` with the break points of :func:`breakable`, scaled to the line only when TeX cannot break
    it (a quote inside a sentence stays in the sentence)."""
    if verdict.compiles is False or not f.display:
        return formula_tex(f, verdict)
    if verdict.fit == "scaled":
        return r"\resizebox{\linewidth}{!}{\(\displaystyle " + f.tex + r"\)}"
    return r"\(\displaystyle " + breakable(f.tex) + r"\)"
