r"""LaTeX reports (compiled to PDF with pdflatex): the same content as the Markdown report.

Math renders as math: ``$...$`` segments of our prose pass through; outside them, identifiers with
sub- or superscripts (``W_KQ``, ``a_1``, ``d^2``, ``λ_max``) are typeset in math mode, Unicode
math symbols map to their LaTeX commands, and the quoted Chinese seed text is set with
``CJKutf8`` (font ``gbsn``, installed by the project's set-up). Summary and details are linked.

>>> tex_text("W_KQ ∝ Λ̃⁻¹ and a_1 = 0.6, see `rel_err_mean`")[:40]
'\\ensuremath{W_{KQ}} \\ensuremath{\\propto}'
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from ..claims import PRELIMINARY, VERDICTS
from ..verdicts.aggregate import fmt
from .common import LEGEND, extra_findings, fmt_setting, summary_items

__all__ = ["latex_report", "compile_pdf", "tex_escape", "tex_text"]

_TEX_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&",
                "#": r"\#", "%": r"\%", "_": r"\_", "^": r"\^{}", "~": r"\~{}"}
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
             "✅": "", "❌": "", "⚠": "", "❔": "", "\ufe0f": "", "¶": r"\P{}", "⭐": "*",
             "°": r"\ensuremath{^\circ}", "«": r"\guillemotleft{}", "»": r"\guillemotright{}",
             "⟂": r"\ensuremath{\perp}", "⊥": r"\ensuremath{\perp}", "∓": r"\ensuremath{\mp}",
             "½": r"\ensuremath{\tfrac12}", "¼": r"\ensuremath{\tfrac14}", "¾": r"\ensuremath{\tfrac34}", "•": r"\textbullet{}", "\u00a0": "~", "\t": " "})


def _is_cjk(ch: str) -> bool:
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
    import unicodedata
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
        elif ord(ch) < 128 or _is_cjk(ch):
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


_MATH = re.compile(r"(\$[^$]+\$)")
_CODE = re.compile(r"(`[^`]+`)")
_SCRIPT = re.compile(r"(?<![\w\\])([^\W\d_][\w]*?|(?<=[)\]]))([_^])(\{[^{}$]*\}|[0-9A-Za-z]+(?:[*+\-][0-9A-Za-z]+)?)")


def _scripts(seg: str) -> str:
    """Escape prose, typesetting ``x_ab`` / ``x^2`` / ``x_{...}`` tokens as math."""
    out, last = [], 0
    for m in _SCRIPT.finditer(seg):
        out.append(tex_escape(seg[last:m.start()]))
        base, op, sub = m.groups()
        sub = sub[1:-1] if sub.startswith("{") else sub
        out.append(r"\ensuremath{" + _math_atom(base) + op + "{" + _math_atom(sub) + "}}")
        last = m.end()
    out.append(tex_escape(seg[last:]))
    return "".join(out)


def tex_text(text: str) -> str:
    """Our prose to LaTeX: ``$...$`` is math, `code` is monospace, **bold**, scripts become math."""
    res = []
    for part in _MATH.split(str(text)):
        if part.startswith("$") and part.endswith("$") and len(part) > 2:
            res.append(part)
            continue
        for piece in _CODE.split(part):
            if piece.startswith("`") and piece.endswith("`") and len(piece) > 2:
                res.append(r"\texttt{" + tex_escape(piece[1:-1]) + "}")
            else:
                seg = _scripts(piece)
                seg = re.sub(r"\*\*([^*]+)\*\*", lambda m: r"\textbf{" + m.group(1) + "}", seg)
                res.append(seg)
    return "".join(res)


_COLOUR = {"confirmed": "green!45!black", "refuted": "red!70!black", "inconsistent": "orange!80!black",
           "not reproduced": "orange!70!black", "inconclusive": "blue!60!black", "underspecified": "gray",
           None: "red"}


def _v(verdict) -> str:
    return r"\textcolor{" + _COLOUR[verdict] + r"}{\textbf{" + (verdict or "withheld") + "}}"


def _anchor(cid: str) -> str:
    return "claim:" + cid


def _claim_tex(i, c, led, files) -> list:
    L = [r"\subsection*{\hypertarget{" + _anchor(c.id) + "}{}" + f"{i}. " + tex_text(c.title) + "}",
         r"\textbf{Verdict:} " + _v(c.verdict) + r" --- id \texttt{" + tex_escape(c.id) + "} --- seed lines "
         + f"{c.lines[0]}--{c.lines[1]}" + (" --- conventions " + tex_escape(", ".join(c.conventions))
                                            if c.conventions else ""), ""]
    if c.scope:
        L += [r"\textbf{Scope.} " + tex_text(c.scope), ""]
    L += [r"\textit{Seed text (verbatim):}", r"\begin{quote}\small"]
    L += [tex_escape(line) + r"\\" for line in c.quote.split("\n") if line.strip()]
    L += [r"\end{quote}"]
    if c.fragment:
        L += [r"Fragment checked: " + tex_escape("«" + c.fragment + "»"), ""]
    L += [r"\textbf{Statement as tested.} " + tex_text(c.statement), "",
          r"\textbf{Finding.} " + tex_text(c.reason), ""]
    if c.error:
        L += [r"\textbf{Error while computing this claim} (see results.json).", ""]
    if c.subclaims:
        L += [r"{\small\begin{longtable}{p{4.2cm}p{1.7cm}p{1.9cm}p{7.6cm}}", r"\toprule",
              r"sub-claim & rule & verdict & finding\\", r"\midrule", r"\endhead"]
        for s in c.subclaims:
            st = tex_text(s.statement) + (r" \emph{(reading: " + tex_text(s.reading) + ")}" if s.reading else "")
            if files.get(s.id):
                st += r" \emph{Data:} " + ", ".join(r"\texttt{" + tex_escape(Path(p).name) + "}" for p in files[s.id])
            L.append(f"{st} & {tex_escape(s.rule)} & {_v(s.verdict)} & {tex_text(s.reason)}\\\\")
        L += [r"\bottomrule", r"\end{longtable}}"]
    if c.self_checks:
        L += [r"\textbf{Self-checks.} " + tex_text("; ".join(
            f"{s.name}: {'passed' if s.passed else 'FAILED'} ({s.statistic_name} = {fmt(s.statistic)}"
            + (f", p = {fmt(s.p_value)}" if s.p_value is not None else "") + ")" for s in c.self_checks)), ""]
    if c.derivation:
        L += [r"\textbf{Derivation.}"]
        for eq in c.derivation:
            multi = r"\\" in eq
            L += [r"\begin{equation*}"] + ([r"\begin{aligned}"] if multi else []) + [eq] + \
                 ([r"\end{aligned}"] if multi else []) + [r"\end{equation*}"]
    if c.notes:
        L += [r"\textbf{Method.} " + tex_text(" ".join(c.notes)), ""]
    for f in c.figures:
        L += [r"\begin{center}\includegraphics[width=0.85\linewidth]{figures/" + f["stem"] + r".pdf}",
              r"\captionof{figure}{" + tex_text(f.get("caption", "")) + r"}\end{center}"]
    if c.revision:
        r = c.revision
        L += [r"\emph{Revision:} " + tex_text(f"previously {r.get('previous', '?')}. {r.get('why', '')}"), ""]
    return L


def _reconciliation_tex(led) -> list:
    recs = [(c, r) for c in led.claims for r in c.reconciliations]
    if not recs:
        return []
    L = [r"\subsection*{Reconciliation}"]
    for c, r in recs:
        L += [r"\textbf{\hyperlink{" + _anchor(c.id) + "}{" + tex_text(c.title) + "}}" +
              (" --- " + tex_text(r["label"]) if r.get("label") else "") + ": "
              + tex_text(("found" if r["found"] else "not found") + f" ({r['evaluations']} evaluations). "
                         + r["interpretation"] + " Best setting: " + fmt_setting(r["best"]) + "."), "",
              r"{\small\begin{longtable}{p{4cm}lllll}", r"\toprule",
              r"target & stated & estimate & residual & tolerance & ratio\\", r"\midrule"]
        L += [f"{tex_text(x['target'])} & {tex_escape(x['stated'])} & {fmt(x['estimate'])} & {fmt(x['residual'])} & "
              f"{fmt(x['tolerance'])} & {fmt(x['in_tolerance_units'], 3)}\\\\" for x in r["residuals"]]
        L += [r"\bottomrule", r"\end{longtable}}"]
    return L


def _breaks_tex(led) -> list:
    maps = [(c, a) for c in led.claims for a in c.assumptions if not a.get("error") and a.get("path")]
    if not maps:
        return []
    L = [r"\subsection*{Where it breaks}", r"{\small\begin{longtable}{p{3cm}p{3.5cm}p{1.6cm}p{4.2cm}p{3.5cm}}",
         r"\toprule", r"claim & assumption & stated & path & breaking point\\", r"\midrule"]
    for c, a in maps:
        bp = a["breaking_point"]
        where = (f"breaks at {a['violation']} = {bp['value']}" if bp["status"] == "breaks" else bp["status"])
        L.append(r"\hyperlink{" + _anchor(c.id) + "}{" + tex_escape(c.id) + "} & " + tex_text(a["name"]) + " & "
                 + ("yes" if a["stated"] else "no") + " & " + tex_text(a["path"]) + " & " + tex_text(where) + r"\\")
    L += [r"\bottomrule", r"\end{longtable}}"]
    for c, a in maps:
        if a.get("figure"):
            f = a["figure"]
            L += [r"\begin{center}\includegraphics[width=0.7\linewidth]{figures/" + f["stem"] + r".pdf}",
                  r"\captionof{figure}{" + tex_text(f["caption"]) + r"}\end{center}"]
    return L


def latex_report(led, files: dict | None = None) -> str:
    """The LaTeX source of one finalized ledger's report."""
    files = files or {}
    cnt = led.counts()
    L = [r"\documentclass[10pt]{article}",
         r"\usepackage[margin=2cm]{geometry}",
         r"\usepackage[T1]{fontenc}",
         r"\usepackage{lmodern,amsmath,amssymb,bm,graphicx,longtable,booktabs,xcolor,caption,CJKutf8}",
         r"\usepackage[hidelinks]{hyperref}",
         r"\setlength{\parindent}{0pt}\setlength{\parskip}{4pt}",
         r"\pdftrailerid{}",
         r"\begin{document}",
         r"\begin{CJK}{UTF8}{gbsn}",
         r"\section*{" + tex_text(led.title) + "}"]
    if led.preliminary:
        L += [r"\fbox{\parbox{0.95\linewidth}{\textbf{" + tex_escape(PRELIMINARY.capitalize()) + r".} This report "
              r"comes from a quick run (small sizes); the verdicts of record are the paper-scale run's.}}", ""]
    L += [tex_text(f"Seed summary `{led.seed_file}` (paper {led.paper}), key `{led.key}`, mode `{led.mode}`, run "
                   f"seed `{led.seed}`. Generated by `theorycheck` --- regenerate, do not edit."), "",
          r"\subsection*{Summary of findings}",
          tex_escape(f"{len(led.claims)} claims: " + ", ".join(f"{cnt[v]} {v}" for v in VERDICTS if cnt[v])
                     + (f", {cnt['withheld']} withheld" if cnt["withheld"] else "") + "."), ""]
    items = summary_items(led)
    if items:
        L += [r"\begin{itemize}"]
        for c, s in items:
            L.append(r"\item " + _v(c.verdict) + r" --- \hyperlink{" + _anchor(c.id) + "}{" + tex_text(c.title)
                     + "} (lines " + f"{c.lines[0]}--{c.lines[1]}): " + tex_text(c.reason))
        L += [r"\end{itemize}"]
    else:
        L += ["Every claim is confirmed in its stated scope.", ""]
    extra = extra_findings(led)
    if extra:
        L += [r"Beyond the verdicts:", r"\begin{itemize}"]
        L += [r"\item " + tex_escape(kind) + r" --- \hyperlink{" + _anchor(c.id) + "}{" + tex_text(c.title) + "}: "
              + tex_text(text) for c, kind, text in extra] + [r"\end{itemize}"]
    L += [r"\subsection*{Verdicts}", r"{\small\begin{longtable}{rp{7.2cm}lp{1.9cm}p{4.6cm}}", r"\toprule",
          r"\# & claim & lines & verdict & scope\\", r"\midrule", r"\endhead"]
    for i, c in enumerate(led.claims, 1):
        L.append(f"{i} & " + r"\hyperlink{" + _anchor(c.id) + "}{" + tex_text(c.title) + "} & "
                 + f"{c.lines[0]}--{c.lines[1]} & {_v(c.verdict)} & {tex_text(c.scope or '')}\\\\")
    L += [r"\bottomrule", r"\end{longtable}}"]
    if led.conventions:
        L += [r"\subsection*{Conventions}", r"\begin{description}"]
        L += [r"\item[" + i + "] " + tex_text(t) for i, t in led.conventions] + [r"\end{description}"]
    d = led.decision
    if d:
        L += [r"\subsection*{How verdicts were decided}",
              tex_text(f"{d.get('hypotheses')} hypotheses ({d.get('statistical_subclaims')} statistical sub-claims, "
                       f"each with a for and an against test) form one family, Holm-adjusted at family-wise "
                       f"alpha = {d.get('family_alpha')}. A refutation resting on parameters the source does not "
                       f"state is reported as not reproduced. Aggregation: {d.get('aggregation')}. Self-checks: "
                       f"{d.get('self_checks')}, Holm at alpha = {d.get('self_check_alpha')}."), "",
              r"\begin{description}"] + [r"\item[" + tex_escape(v) + "] " + tex_text(t) for v, t in LEGEND] + \
             [r"\end{description}"]
    revs = [c for c in led.claims if c.revision]
    if revs:
        L += [r"\subsection*{Changes since the previous audit}", r"\begin{itemize}"]
        L += [r"\item \hyperlink{" + _anchor(c.id) + "}{" + tex_escape(c.id) + "}: "
              + tex_text(f"{c.revision.get('previous', '?')} → {c.verdict or 'withheld'}. {c.revision.get('why', '')}")
              for c in revs] + [r"\end{itemize}"]
    L += _reconciliation_tex(led) + _breaks_tex(led)
    L += [r"\section*{Claims}"]
    for i, c in enumerate(led.claims, 1):
        L += _claim_tex(i, c, led, files)
    L += [r"\end{CJK}", r"\end{document}"]
    return "\n".join(L) + "\n"


def compile_pdf(tex_path: Path, timeout: int = 300) -> tuple[bool, str]:
    """Run pdflatex twice in the report folder; return (ok, last lines of the log)."""
    exe = shutil.which("pdflatex")
    if exe is None:
        return False, "pdflatex not found"
    tex_path = Path(tex_path)
    # fixed dates so the PDF bytes depend only on the source (pdfTeX honours these)
    env = dict(os.environ, SOURCE_DATE_EPOCH="1767225600", FORCE_SOURCE_DATE="1")
    cmd = [exe, "-interaction=nonstopmode", "-halt-on-error", tex_path.name]
    log = ""
    for _ in range(2):
        try:
            r = subprocess.run(cmd, cwd=tex_path.parent, capture_output=True, text=True, timeout=timeout,
                               errors="replace", env=env)
        except subprocess.TimeoutExpired:
            return False, "pdflatex timed out"
        log = r.stdout[-3000:]
        if r.returncode != 0:
            return False, log
    for ext in (".aux", ".log", ".out", ".toc"):
        p = tex_path.with_suffix(ext)
        if p.exists():
            p.unlink()
    return True, log


