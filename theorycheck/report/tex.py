r"""LaTeX for prose: escaping, Unicode to TeX commands, scripts typeset as math, code that may break.

The reports' own sentences (titles, findings, scopes) go through :func:`tex_text`: ``$...$`` segments pass
through, identifiers with sub- or superscripts (``W_KQ``, ``a_1``, ``d^2``, ``λ_max``) are typeset in math
mode, Unicode math symbols map to their LaTeX commands (``≤`` → ``\le``), Chinese passes through for the
``CJK`` environment. :func:`math_unicode` does the same mapping inside a formula (``λ ≤ 1`` →
``\lambda \le 1``); :func:`tex_code` is monospace text that may break after ``_ - / . , : =``.

>>> tex_text("W_KQ ∝ Λ̃⁻¹ and a_1 = 0.6, see `rel_err_mean`")[:40]
'\\ensuremath{W_{KQ}} \\ensuremath{\\propto}'
>>> math_unicode("λ ≤ 1, x ∈ ℝ")
'\\lambda \\le 1, x \\in \\mathbb{R}'
>>> tex_code("a_b/c")
'\\texttt{a\\_\\allowbreak{}b/\\allowbreak{}c}'
"""
from __future__ import annotations

import re
import unicodedata

__all__ = ["tex_escape", "tex_text", "tex_code", "math_unicode", "is_cjk"]

_TEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
                "#": r"\#", "%": r"\%", "_": r"\_", "^": r"\^{}", "~": r"\textasciitilde{}"}
_GREEK = "αβγδεζηθικλμνξοπρστυφχψω"
_GREEK_NAMES = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
                "lambda", "mu", "nu", "xi", "o", "pi", "rho", "sigma", "tau", "upsilon", "phi", "chi",
                "psi", "omega"]
_UNI = {g: (r"\ensuremath{\%s}" % n if n != "o" else "o") for g, n in zip(_GREEK, _GREEK_NAMES)}
_UNI.update({"Γ": r"\ensuremath{\Gamma}", "Δ": r"\ensuremath{\Delta}", "Λ": r"\ensuremath{\Lambda}",
             "Σ": r"\ensuremath{\Sigma}", "Φ": r"\ensuremath{\Phi}", "Ω": r"\ensuremath{\Omega}",
             "Θ": r"\ensuremath{\Theta}", "Π": r"\ensuremath{\Pi}", "Ψ": r"\ensuremath{\Psi}",
             "ς": r"\ensuremath{\varsigma}", "ϕ": r"\ensuremath{\phi}",
             "≈": r"\ensuremath{\approx}", "≤": r"\ensuremath{\le}", "≥": r"\ensuremath{\ge}",
             "≠": r"\ensuremath{\ne}", "±": r"\ensuremath{\pm}", "×": r"\ensuremath{\times}",
             "·": r"\ensuremath{\cdot}", "→": r"\ensuremath{\to}", "←": r"\ensuremath{\leftarrow}",
             "⇒": r"\ensuremath{\Rightarrow}", "∞": r"\ensuremath{\infty}", "∑": r"\ensuremath{\sum}",
             "∏": r"\ensuremath{\prod}", "√": r"\ensuremath{\surd}", "∈": r"\ensuremath{\in}",
             "∂": r"\ensuremath{\partial}", "∇": r"\ensuremath{\nabla}", "⊗": r"\ensuremath{\otimes}",
             "⟨": r"\ensuremath{\langle}", "⟩": r"\ensuremath{\rangle}", "∝": r"\ensuremath{\propto}",
             "∼": r"\ensuremath{\sim}", "≪": r"\ensuremath{\ll}", "≫": r"\ensuremath{\gg}",
             "−": "-", "–": "--", "—": "---", "‘": "`", "’": "'", "“": "``", "”": "''",
             "…": r"\ldots{}", "′": r"\ensuremath{'}",      # sub- and superscripts: _SUB / _SUP below
             "ℓ": r"\ensuremath{\ell}", "ξ": r"\ensuremath{\xi}",
             "\u0303": r"\ensuremath{^{\sim}}", "ỹ": r"\ensuremath{\tilde y}", "÷": r"\ensuremath{\div}",
             "‖": r"\ensuremath{\|}", "≡": r"\ensuremath{\equiv}",
             "✅": "", "❌": "", "⚠": "", "❔": "", "❓": "", "🟠": "", "⛔": "",
             "≻": r"\ensuremath{\succ}", "≺": r"\ensuremath{\prec}", "″": r"\ensuremath{''}", "ˢ": r"\ensuremath{^{s}}",
             "\ufe0f": "", "¶": r"\P{}", "⭐": "*",
             "°": r"\ensuremath{^\circ}", "«": r"\guillemotleft{}", "»": r"\guillemotright{}",
             "⟂": r"\ensuremath{\perp}", "⊥": r"\ensuremath{\perp}", "∓": r"\ensuremath{\mp}",
             "ℝ": r"\ensuremath{\mathbb{R}}", "ℕ": r"\ensuremath{\mathbb{N}}", "ℤ": r"\ensuremath{\mathbb{Z}}",
             "ℚ": r"\ensuremath{\mathbb{Q}}", "ℂ": r"\ensuremath{\mathbb{C}}", "𝔼": r"\ensuremath{\mathbb{E}}",
             "∀": r"\ensuremath{\forall}", "∃": r"\ensuremath{\exists}", "∉": r"\ensuremath{\notin}",
             "⊂": r"\ensuremath{\subset}", "⊆": r"\ensuremath{\subseteq}", "∪": r"\ensuremath{\cup}",
             "∩": r"\ensuremath{\cap}", "∅": r"\ensuremath{\emptyset}", "≲": r"\ensuremath{\lesssim}",
             "≳": r"\ensuremath{\gtrsim}", "∘": r"\ensuremath{\circ}", "⋅": r"\ensuremath{\cdot}",
             "∣": r"\ensuremath{\mid}", "↦": r"\ensuremath{\mapsto}", "⟹": r"\ensuremath{\Longrightarrow}",
             "⇔": r"\ensuremath{\Leftrightarrow}", "↔": r"\ensuremath{\leftrightarrow}", "∗": r"\ensuremath{\ast}",
             "∫": r"\ensuremath{\int}", "⊤": r"\ensuremath{\top}", "⋯": r"\ensuremath{\cdots}",
             "½": r"\ensuremath{\tfrac12}", "¼": r"\ensuremath{\tfrac14}", "¾": r"\ensuremath{\tfrac34}", "•": r"\textbullet{}", "\u00a0": "~", "\t": " "})


def is_cjk(ch: str) -> bool:
    """A CJK ideograph, CJK punctuation or a full-width form (set by the ``CJK`` environment)."""
    o = ord(ch)
    return (0x4E00 <= o <= 0x9FFF or 0x3000 <= o <= 0x303F or 0xFF00 <= o <= 0xFFEF
            or 0x3400 <= o <= 0x4DBF or 0x2E80 <= o <= 0x2EFF)


_ACCENTS = {"\u0304": r"\bar", "\u0303": r"\tilde", "\u0302": r"\hat", "\u0307": r"\dot", "\u0308": r"\ddot",
            "\u0301": r"\acute", "\u0300": r"\grave", "\u030c": r"\check", "\u0306": r"\breve"}


def _accented(ch: str) -> str | None:
    """Math for a precomposed accented letter (``ȳ`` → ``\\bar{y}``), or None.

    >>> _accented("ȳ"), _accented("é"), _accented("y")
    ('\\\\bar{y}', '\\\\acute{e}', None)
    """
    nfd = unicodedata.normalize("NFD", ch)
    if len(nfd) == 2 and nfd[1] in _ACCENTS and ord(nfd[0]) < 128:
        return _ACCENTS[nfd[1]] + "{" + nfd[0] + "}"
    return None


_SUB = {"₀": "0", "₁": "1", "₂": "2", "₃": "3", "₄": "4", "₅": "5", "₆": "6", "₇": "7", "₈": "8", "₉": "9",
        "ₖ": "k", "ᵢ": "i", "ⱼ": "j", "ₘ": "m", "ₙ": "n", "ₜ": "t", "₊": "+", "₋": "-"}
_SUP = {"⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9",
        "⁻": "-", "⁺": "+", "ᵀ": r"\top ", "ⁿ": "n"}


def _script_run(text: str, k: int):
    """If ``text[k]`` starts a run of Unicode sub- or superscripts, ``(math, end)``: ``G₁₂`` → ``_{12}`` (one
    script, never ``_1_2``, which TeX rejects as a double subscript); else None."""
    for table, op in ((_SUB, "_"), (_SUP, "^")):
        if text[k] in table:
            j = k
            while j < len(text) and text[j] in table:
                j += 1
            return op + "{" + "".join(table[c] for c in text[k:j]).strip() + "}", j
    return None


def tex_escape(text: str) -> str:
    """Escape plain text for LaTeX (CJK passes through for the CJK environment).

    >>> tex_escape("a_1 ≈ 0.6 & 50%")
    'a\\\\_1 \\\\ensuremath{\\\\approx} 0.6 \\\\& 50\\\\%'
    """
    out = []
    text = str(text)
    skip_to = 0
    for k, ch in enumerate(text):
        if k < skip_to:
            continue
        if ch == "\u0303":                       # combining tilde: handled with the preceding letter
            continue
        run = _script_run(text, k)
        if run is not None:
            out.append(r"\ensuremath{" + run[0] + "}")
            skip_to = run[1]
            continue
        if k + 1 < len(text) and text[k + 1] == "\u0303":
            inner = _UNI.get(ch, ch)
            inner = inner[len(r"\ensuremath{"):-1] if inner.startswith(r"\ensuremath{") else inner
            out.append(r"\ensuremath{\tilde{" + inner + "}}")
            continue
        if ch in _TEX_SPECIAL:
            out.append(_TEX_SPECIAL[ch])
        elif ord(ch) < 128 or is_cjk(ch):
            out.append(ch)
        elif ch in _UNI:
            out.append(_UNI[ch])
        elif _accented(ch) is not None:
            out.append(r"\ensuremath{" + _accented(ch) + "}")
        else:
            out.append(r"\textsf{[U+%04X]}" % ord(ch))
    return "".join(out)


def _math_atom(text: str) -> str:
    """Text of a math atom: Unicode letters to commands, nothing escaped as prose."""
    out = []
    skip_to = 0
    for k, ch in enumerate(text):
        if k < skip_to:
            continue
        run = _script_run(text, k)
        if run is not None:
            out.append(run[0])
            skip_to = run[1]
        elif ch in _UNI and _UNI[ch].startswith(r"\ensuremath{"):
            out.append(_UNI[ch][len(r"\ensuremath{"):-1] + " ")
        elif ch == "*":
            out.append(r"\ast ")
        elif ord(ch) < 128:
            out.append(ch)
        elif _accented(ch) is not None:
            out.append(_accented(ch))
        else:                                    # never raw non-ASCII in math mode (inputenc maps it to text commands)
            t = tex_escape(ch)
            out.append(t if t.isascii() and t.isprintable() and "\\" not in t else r"\mbox{" + t + "}")
    return "".join(out).replace(" _", "_").replace(" ^", "^").strip()


_CODE_BREAK = re.compile(r"(?<=[_\-/.,:=])(?=.)")


def tex_code(text: str) -> str:
    r"""Monospace text (identifiers, file names) that may break after ``_ - / . , : =``.

    >>> tex_code("x.y")
    '\\texttt{x.\\allowbreak{}y}'
    """
    return r"\texttt{" + r"\allowbreak{}".join(tex_escape(p) for p in _CODE_BREAK.split(str(text))) + "}"


def _math_char(text: str, k: int):
    """``(math, end)`` for the character(s) of a formula at ``text[k]`` that are not plain ASCII."""
    ch = text[k]
    run = _script_run(text, k)
    if run is not None:
        return run
    if k + 1 < len(text) and text[k + 1] in _ACCENTS:          # a letter and a combining accent: x̃ → \tilde{x}
        base = math_unicode(ch).strip()
        return _ACCENTS[text[k + 1]] + "{" + base + "}", k + 2
    if is_cjk(ch):
        j = k
        while j < len(text) and is_cjk(text[j]):
            j += 1
        return r"\mbox{" + text[k:j] + "}", j
    if ch in _UNI and _UNI[ch].startswith(r"\ensuremath{"):
        cmd = _UNI[ch][len(r"\ensuremath{"):-1]
        letter_follows = k + 1 < len(text) and text[k + 1].isascii() and text[k + 1].isalpha()
        return cmd + (" " if letter_follows and cmd[-1].isalpha() else ""), k + 1
    if _accented(ch) is not None:
        return _accented(ch), k + 1
    t = tex_escape(ch)                           # never raw non-ASCII in math mode (inputenc maps it to text commands)
    return (t if t.isascii() and t.isprintable() and "\\" not in t else r"\mbox{" + t + "}"), k + 1


def math_unicode(text: str) -> str:
    r"""The body of a formula with its Unicode mapped to TeX commands and a bare ``%`` or ``#`` escaped.

    Greek letters, relations and operators become commands (``λ`` → ``\lambda``, ``≤`` → ``\le``, ``∈`` →
    ``\in``, ``ℝ`` → ``\mathbb{R}``), runs of Unicode sub- and superscripts one script (``x₁₂`` → ``x_{12}``),
    accented letters accents (``ỹ`` → ``\tilde{y}``), Chinese ``\mbox{…}``; ASCII and escaped characters stay.

    >>> math_unicode(r"σ² ≥ 0 \% 5% x̃ ỹ 中文 λx")
    '\\sigma^{2} \\ge 0 \\% 5\\% \\tilde{x} \\tilde y \\mbox{中文} \\lambda x'
    """
    out, k, text = [], 0, str(text)
    while k < len(text):
        ch = text[k]
        if ch == "\\" and k + 1 < len(text):
            out.append(text[k:k + 2])
            k += 2
        elif ch in "%#":
            out.append("\\" + ch)
            k += 1
        elif ord(ch) < 128 and not (k + 1 < len(text) and text[k + 1] in _ACCENTS):
            out.append(ch)
            k += 1
        else:
            piece, k = _math_char(text, k)
            out.append(piece)
    return "".join(out)


_MATH = re.compile(r"(\$[^$]+\$)")
_CODE = re.compile(r"(`[^`]+`)")
_DOTTED = re.compile(r"((?<![\w\\$])[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){2,}(?:\(\))?)")
_SCRIPT_ARG = r"(\{[^{}$]*\}|\([^()$]*\)|[0-9A-Za-z]+(?:[*+\-][0-9A-Za-z]+)?)"
_SCRIPT = re.compile(r"(?<![\w\\])([^\W\d_][\w]*?\*?|(?<=[)\]]))([_^])" + _SCRIPT_ARG + r"(?:(?!\2)([_^])" + _SCRIPT_ARG + ")?")


def _scripts(seg: str) -> str:
    """Escape prose, typesetting ``x_ab`` / ``x^2`` / ``x_{...}`` / ``y_(T-1)`` / ``W*_QK`` / ``Σ_{i=1}^{n}`` tokens
    as math."""
    out, last = [], 0
    for m in _SCRIPT.finditer(seg):
        out.append(tex_escape(seg[last:m.start()]))
        base, op, sub, op2, sub2 = m.groups()
        scripts = "".join(o + "{" + _math_atom(s[1:-1] if s[0] in "{(" else s) + "}"
                          for o, s in ((op, sub), (op2, sub2)) if o)
        base = "{" + _math_atom(base[:-1]) + "^{*}}" if base.endswith("*") else _math_atom(base)   # W*_QK
        out.append(r"\ensuremath{" + base + scripts + "}")
        last = m.end()
    out.append(tex_escape(seg[last:]))
    return "".join(out)


def tex_text(text: str, math: bool = True) -> str:
    """Our prose to LaTeX: ``$...$`` is math (with ``math=False`` a dollar is a dollar sign: the caller has set the
    formulas already), `code` and dotted paths (``a.b.c``) are monospace, **bold**, scripts become math."""
    res = []
    for part in (_MATH.split(str(text)) if math else [str(text)]):
        if math and part.startswith("$") and part.endswith("$") and len(part) > 2:
            res.append(part)
            continue
        for piece in _CODE.split(part):
            if piece.startswith("`") and piece.endswith("`") and len(piece) > 2:
                res.append(tex_code(piece[1:-1]))
                continue
            for chunk in _DOTTED.split(piece):          # a dotted Python path is code, and may break
                if _DOTTED.fullmatch(chunk):
                    res.append(tex_code(chunk))
                    continue
                seg = _scripts(chunk)
                seg = re.sub(r"\*\*([^*]+)\*\*", lambda m: r"\textbf{" + m.group(1) + "}", seg)
                res.append(seg)
    return "".join(res)

