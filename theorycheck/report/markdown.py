"""Markdown reports: one per paper (findings first) and the index across papers.

Layout of a paper report: a preliminary banner (quick runs); **Summary of findings** — every
claim that is not plainly confirmed, worst first, one sentence each with its numbers and seed
lines; the full verdict table; the conventions once (C1, C2, …); how verdicts were decided;
self-checks; changes since the previous audit; then one section per claim (quote, fragment,
statement, finding, sub-claim table, self-checks, derivation, figures with captions, data files).
Nothing is truncated: long arrays go to CSV/JSON files beside the report.
"""
from __future__ import annotations

from pathlib import Path

from ..claims import PRELIMINARY, VERDICTS
from ..verdicts.aggregate import fmt
from ..verdicts.sequential import n_text
from ..verdicts.text import shorten
from .common import BADGE, CLAUSES_NOTE, LEGEND, caveat, extra_findings, fmt_setting, md_cell, summary_items
from .letter import letter, letter_points

__all__ = ["markdown_report", "markdown_index"]


def _banner(led) -> list[str]:
    if not led.preliminary:
        return []
    return [f"> ⚠️ **{PRELIMINARY.capitalize()}.** This report comes from a quick run (small sizes). The "
            "verdicts of record are the paper-scale run's (`theorycheck run --full`).", ""]


def _finding_line(c, s) -> str:
    cav = caveat(c) if c.verdict == "confirmed" else ""
    line = (f"- {BADGE[c.verdict]}{' (with a caveat)' if cav else ''} — [{md_cell(c.title)}](#{c.id}) (seed lines "
            f"{c.lines[0]}–{c.lines[1]}): {c.reason}" + (f" Caveat: {cav}." if cav else ""))
    if s is not None and c.verdict is not None and len(c.subclaims) > 1:
        line += f" Decisive: *{s.statement}* — {s.reason}"
    elif s is not None and c.verdict is not None:
        line += f" {s.reason}"
    return line


def _decision(led) -> list[str]:
    d = led.decision
    if not d:
        return []
    return ["## How verdicts were decided", "",
            f"- Every statistical sub-claim tests two hypotheses (*for*: rejecting \"the statement is false\" "
            f"confirms; *against*: rejecting \"the statement holds\" refutes). All {d.get('hypotheses')} hypotheses "
            f"of this report ({d.get('statistical_subclaims')} statistical sub-claims) form one family, adjusted "
            f"by {d.get('multiplicity', 'holm').capitalize()} at family-wise α = {d.get('family_alpha')}; raw and "
            "adjusted p-values are in `results.json`.",
            "- A refutation that rests on parameters the source does not state (the toolkit's `chosen` values) "
            "is reported as *not reproduced*, never *refuted*.",
            f"- Aggregation: {d.get('aggregation')}.",
            f"- Self-checks (the toolkit's own consistency checks, never verdicts): {d.get('self_checks')} in this "
            f"report, Holm at family-wise α = {d.get('self_check_alpha')}; a failure withholds the claim's "
            "verdict and makes the run exit non-zero.",
            "- The rules (hypothesis, statistic, α, power) are listed in the [index](index.md#decision-rules).", ""]


def _self_checks(led) -> list[str]:
    checks = [(c, s) for c in led.claims for s in c.self_checks]
    if not checks:
        return []
    failed = [(c, s) for c, s in checks if s.passed is False]
    head = (f"**{len(failed)} of {len(checks)} self-checks FAILED** — the verdicts of the affected claims are "
            "withheld; this is a bug of the toolkit, not a finding about the paper." if failed else
            f"All {len(checks)} self-checks passed.")
    L = ["## Self-checks", "", head, "",
         "| claim | self-check | kind | statistic | p | p (Holm) | passed |", "|---|---|---|---|---|---|---|"]
    for c, s in failed + [x for x in checks if x[1].passed is not False]:
        stat = f"{s.statistic_name} = {fmt(s.statistic)}" if s.statistic is not None else ""
        L.append(f"| [`{c.id}`](#{c.id}) | {md_cell(s.name)} | {s.kind} | {md_cell(stat)} | {fmt(s.p_value)} | "
                 f"{fmt(s.p_adjusted)} | {'yes' if s.passed else 'NO'} |")
    return L + [""]


def _changes(led) -> list[str]:
    revs = [c for c in led.claims if c.revision]
    if not revs:
        return []
    L = ["## Changes since the previous audit", ""]
    for c in revs:
        r = c.revision
        pid = r.get("previous_id")
        prev_id = (f" (was {', '.join(f'`{x}`' for x in ([pid] if isinstance(pid, str) else pid))})" if pid else "")
        L.append(f"- [`{c.id}`](#{c.id}){prev_id}: {r.get('previous', '?')} → {c.verdict or 'withheld'}. "
                 f"{r.get('why', '')}")
    return L + [""]


def _reconciliations(led) -> list[str]:
    recs = [(c, r) for c in led.claims for r in c.reconciliations]
    if not recs:
        return []
    L = ["## Reconciliation", "",
         "Numbers that depend on parameters the source does not state: a joint search over declared ranges and "
         "choices (differential evolution with common random numbers, then local refinement, within a stated budget "
         "of model evaluations). *Found* only if every target is within its tolerance (printed digits + declared "
         "margin + 2 Monte Carlo SE).", ""]
    for c, r in recs:
        L += [f"**[{md_cell(c.title)}](#{c.id})**" + (f" — {md_cell(r['label'])}" if r.get("label") else "") +
              f" — {'found' if r['found'] else 'not found'} "
              f"({r['evaluations']} of {r['budget']} evaluations, {r['method']}). {r['interpretation']}", "",
              "Free parameters: " + "; ".join(f"{k} ∈ {v}" for k, v in r["free_parameters"].items())
              + (f"; fixed: {fmt_setting(r['fixed'])}" if r.get("fixed") else "") + f". Best setting: "
              f"{fmt_setting(r['best'])}.", "",
              "| target | stated | best estimate | residual | tolerance | residual / tolerance |",
              "|---|---|---|---|---|---|"]
        L += [f"| {md_cell(x['target'])} | {x['stated']} | {fmt(x['estimate'])} ± {fmt(x['se'])} | {fmt(x['residual'])} | "
              f"{fmt(x['tolerance'])} | {fmt(x['in_tolerance_units'], 3)}{'' if x['within'] else ' ✗'} |"
              for x in r["residuals"]] + [""]
    return L


def _where_it_breaks(led) -> list[str]:
    maps = [(c, a) for c in led.claims for a in c.assumptions]
    if not maps:
        return []
    maps.sort(key=lambda ca: (not ca[1].get("path"),))      # stressed first, then the declared-only ones
    L = ["## Where it breaks", "",
         "For each result, its assumptions — stated (with seed lines) or implicit (used by the derivation) — and a "
         "stress path from \"holds\" to \"violated\"; each point is decided by a verdict rule (Holm within the path). "
         "Breaking point: the first violation at which the statement is refuted, bracketed by the last at which it "
         "was confirmed.", "",
         "| claim | assumption | stated | path | breaking point |", "|---|---|---|---|---|"]
    for c, a in maps:
        stated = (f"yes (lines {a['seed_lines'][0]}–{a['seed_lines'][1]})" if a.get("stated") and a.get("seed_lines")
                  else "yes" if a.get("stated") else "no (implicit)")
        if a.get("error"):
            L.append(f"| [`{c.id}`](#{c.id}) | {md_cell(a['name'])} | {stated} | {md_cell(a['path'])} | ERROR |")
            continue
        if not a.get("path"):
            L.append(f"| [`{c.id}`](#{c.id}) | {md_cell(a['name'])} | {stated} | not stressed"
                     + (f" (used by: {md_cell(a['uses'])})" if a.get("uses") else "") + " | — |")
            continue
        bp = a["breaking_point"]
        where = (f"breaks at {a['violation']} = {bp['value']} (last confirmed: {bp['bracket'][0]})"
                 if bp["status"] == "breaks" else f"{bp['status']} ({a['violation']} ∈ [{bp['bracket'][0]}, "
                                                  f"{bp['bracket'][1]}])")
        L.append(f"| [`{c.id}`](#{c.id}) | {md_cell(a['name'])}{' — necessary' if a['necessary'] else ''} | {stated} | "
                 f"{md_cell(a['path'])} | {where} |")
    L.append("")
    for c, a in maps:
        if a.get("figure"):
            f = a["figure"]
            L += [f"![{f['stem']}](figures/{f['stem']}.png)", "", f"*Figure {f['stem']}.* {f['caption']}", ""]
    return L


def _subclaim_table(c, files) -> list[str]:
    L = ["| sub-claim | rule | verdict | finding |", "|---|---|---|---|"]
    for s in c.subclaims:
        extra = ""
        if s.reading:
            extra += f" *(reading: {md_cell(s.reading)})*"
        if n_text(s):
            extra += f" *({n_text(s)})*"
        if files.get(s.id):
            extra += " Data: " + ", ".join(f"[{Path(p).name}]({p})" for p in files[s.id])
        L.append(f"| {md_cell(s.statement)}{extra} | {s.rule} | {BADGE[s.verdict]} | {md_cell(s.reason)} |")
    return L + [""]


def _clauses(c) -> list[str]:
    """What the sentence says, clause by clause, and what tested each clause (issue 21)."""
    if not c.clauses:
        return []
    L = ["**Clauses.**", "", "| clause | kind | verdict | tested by | why |", "|---|---|---|---|---|"]
    for cl in c.clauses:
        v = BADGE[cl["verdict"]] if cl.get("verdict") else "— (not asserted)"
        by = ", ".join(f"`{x.rsplit('/', 1)[-1]}`" for x in cl.get("subclaims", [])) or "—"
        L.append(f"| {cl['id']}: «{md_cell(cl['text'])}» | {cl['kind']} | {v} | {by} | {md_cell(cl.get('reason', ''))} |")
    return L + [""]


def _provenance(c) -> list[str]:
    """Every parameter of the claim's sub-claims with its provenance, and the readings that do not vote."""
    seen = {}
    for s in c.subclaims:
        for name, p in s.params.items():
            seen.setdefault(name, p)
    L = []
    if seen:
        L += ["**Parameters.** " + "; ".join(
            f"{name} = {p['value']} ({p['provenance']}: {p['source']}"
            + (f"; admissible {p['admissible']}" if p.get("admissible") else "") + ")" for name, p in seen.items()), ""]
    silent = {r: st for r, st in (c.readings or {}).items() if st != "votes"}
    if silent:
        L += ["**Readings that do not vote.** " + "; ".join(f"{r}: {st}" for r, st in silent.items()), ""]
    extents = [(s, s.extent) for s in c.subclaims if s.extent]
    if extents:
        L += ["**Extent.** " + " ".join(f"{md_cell(s.statement)}: {md_cell(fmt_setting(e))}." for s, e in extents), ""]
    return L


def _claim_section(i, c, led, files) -> list[str]:
    L = [f'<a id="{c.id}"></a>', f"### {i}. {c.title}", "",
         f"**Verdict: {BADGE[c.verdict]}** · id `{c.id}` · seed `{led.seed_file}` lines {c.lines[0]}–{c.lines[1]}"
         + (" · conventions " + ", ".join(c.conventions) if c.conventions else "")
         + (f" · weight {c.weight}" if c.weight else ""), ""]
    if c.scope:
        L += [f"**Scope.** {c.scope}", ""]
    L += ["Seed text (verbatim):", ""]
    L += ["> " + line if line.strip() else ">" for line in c.quote.split("\n")]
    L.append("")
    if c.fragment:
        L += [f"Fragment checked: «{c.fragment}»", ""]
    L += [f"**Statement as tested.** {c.statement}", "", f"**Finding.** {c.reason}", ""]
    L += _clauses(c) + _provenance(c)
    if c.error:
        L += ["**Error while computing this claim:**", "", "```", c.error.rstrip(), "```", ""]
    if c.subclaims:
        L += _subclaim_table(c, files)
    if c.self_checks:
        L += ["**Self-checks.** " + "; ".join(
            f"{s.name}: {'passed' if s.passed else 'FAILED'} ({s.statistic_name} = {fmt(s.statistic)}"
            + (f", p = {fmt(s.p_value)}, Holm {fmt(s.p_adjusted)}" if s.p_value is not None else "") + ")"
            for s in c.self_checks), ""]
    if c.derivation:
        L += ["**Derivation.**", ""]
        for eq in c.derivation:
            L += ["$$", eq, "$$", ""]
    if c.notes:
        L += ["**Method.** " + " ".join(c.notes), ""]
    for f in c.figures:
        L += [f"![{f['stem']}](figures/{f['stem']}.png)", "", f"*Figure {f['stem']}.* {f.get('caption', '')}", ""]
    if c.revision:
        r = c.revision
        pid = r.get("previous_id")
        pids = [pid] if isinstance(pid, str) else list(pid or [])
        L += [f"*Revision:* previously {r.get('previous', '?')}"
              + (f" as {', '.join(f'`{x}`' for x in pids)}" if pids else "") + f". {r.get('why', '')}", ""]
    return L


def markdown_report(led, files: dict | None = None) -> str:
    """The Markdown report of one finalized ledger (``files``: sub-claim id → data file paths)."""
    files = files or {}
    cnt = led.counts()
    L = [f"# {led.title}", ""] + _banner(led) + [
        f"Seed summary `{led.seed_file}` (paper {led.paper}) · key `{led.key}` · mode `{led.mode}` · run seed "
        f"`{led.seed}` · generated by `theorycheck` — regenerate, do not edit.", ""] + letter(led) + [
        "## Summary of findings", "",
        f"{len(led.claims)} claims: " + ", ".join(f"{cnt[v]} {v}" for v in VERDICTS if cnt[v])
        + (f", {cnt['withheld']} withheld" if cnt["withheld"] else "") + ".", ""]
    items = summary_items(led)
    if items:
        L += ["Every claim that is not plainly confirmed (including confirmations that rest on the toolkit's own "
              "choices), worst first:", ""]
        L += [_finding_line(c, s) for c, s in items] + [""]
    else:
        L += ["Every claim is confirmed in its stated scope.", ""]
    extra = extra_findings(led)
    if extra:
        L += ["Beyond the verdicts:", ""]
        L += [f"- {'🔎 reconciliation' if kind == 'reconciliation' else '🧱 necessary assumption'} — "
              f"[{md_cell(c.title)}](#{c.id}): {text}" for c, kind, text in extra] + [""]
    L += ["## Verdicts", "", "| # | claim | seed lines | verdict | scope |", "|---|---|---|---|---|"]
    for i, c in enumerate(led.claims, 1):
        L.append(f"| {i} | [{md_cell(c.title)}](#{c.id}) | {c.lines[0]}–{c.lines[1]} | {BADGE[c.verdict]} | "
                 f"{md_cell(c.scope or '')} |")
    L.append("")
    if led.conventions or any(c.clauses for c in led.claims):
        L += ["## Conventions", ""] + [f"- **{i}** {t}" for i, t in led.conventions] + [""]
        L += [CLAUSES_NOTE, ""] if any(c.clauses for c in led.claims) else []
    if led.parameters:
        L += ["## Run sizes", ""] + [f"- `{k}`: {md_cell(v)}" for k, v in led.parameters.items()] + [""]
    L += (_decision(led) + _self_checks(led) + _changes(led) + _reconciliations(led) + _where_it_breaks(led)
          + ["## Claims", ""])
    for i, c in enumerate(led.claims, 1):
        L += _claim_section(i, c, led, files)
    return "\n".join(L).rstrip() + "\n"


def _major_points(ledgers, order) -> list[str]:
    """The major points of every paper's referee letter (main claims refuted, inconsistent or not reproduced, or
    refuted under one of their readings)."""
    L = ["## Major points of the referee letters", ""]
    for k in order:
        pts = letter_points(ledgers[k])["major"]
        L += [f"**{ledgers[k].title}** ([{k}.md]({k}.md#referee-letter)): " +
              (f"{len(pts)} major point(s)." if pts else "no major point."), ""]
        L += [f"{i}. [`{c.id}`]({k}.md#{c.id}) {text}" for i, (c, text) in enumerate(pts, 1)]
        if pts:
            L.append("")
    return L


def _coverage(ledgers, order) -> list[str]:
    """How much of each seed the claims review: every sentence quoted by a claim, restating one, or declared not a
    claim with a reason; the unassigned sentences escape review."""
    rows = [(k, ledgers[k].coverage) for k in order if ledgers[k].coverage]
    if not rows:
        return []
    L = ["", "## Seed coverage", "", "| paper | sentences | assigned | unassigned |", "|---|---|---|---|"]
    for k, cov in rows:
        n, a = cov.get("sentences", 0), cov.get("assigned", 0)
        L.append(f"| `{k}` | {n} | {a} ({100 * a / max(1, n):.0f} %) | {n - a} |")
    for k, cov in rows:
        un = cov.get("unassigned") or []
        if un:
            L += ["", f"Unassigned sentences of `{k}` (seed line: text):", ""]
            L += [f"- line {u['line']}: {md_cell(shorten(u['text'], 160))}" for u in un[:200]]
    return L


def markdown_index(ledgers: dict, out: Path, rules: dict, extra_reports=()) -> str:
    """The index across papers: findings first, the paper table, the legend and the decision rules."""
    order = sorted(ledgers, key=lambda k: (ledgers[k].paper, k))
    prelim = [k for k in order if ledgers[k].preliminary]
    L = ["# theorycheck — verdicts for all papers", ""]
    if prelim:
        L += [f"> ⚠️ **{PRELIMINARY.capitalize()}** for: " + ", ".join(f"`{k}`" for k in prelim) +
              ". Verdicts of record come from the paper-scale run (`theorycheck run --full`).", ""]
    L += ["Generated by `theorycheck` — regenerate, do not edit. Machine-readable: [`results.json`](results.json) "
          "(schema in `theorycheck/verdicts/results.schema.json`); provenance: [`STAMP.json`](STAMP.json).", ""]
    L += _major_points(ledgers, order) + ["## Findings", ""]
    any_item = False
    for k in order:
        items = summary_items(ledgers[k])
        if not items:
            continue
        any_item = True
        led = ledgers[k]
        L += [f"**{led.title}** ([{k}.md]({k}.md), seed {led.paper}):", ""]
        for c, s in items:
            L.append(f"- {BADGE[c.verdict]} — [{md_cell(c.title)}]({k}.md#{c.id}) (lines {c.lines[0]}–{c.lines[1]}): "
                     f"{c.reason}")
        L.append("")
    if not any_item:
        L += ["Every claim of every paper is confirmed in its stated scope.", ""]
    L += ["## Papers", "", "| paper | key | title | mode | seed | " + " | ".join(VERDICTS) + " | withheld | report |",
          "|---|---|---|---|---|" + "---|" * len(VERDICTS) + "---|---|"]
    for k in order:
        led = ledgers[k]
        cnt = led.counts()
        links = [f"[md]({k}.md)"] + [f"[{ext}]({k}.{ext})" for ext in ("tex", "pdf") if (Path(out) / f"{k}.{ext}").exists()]
        L.append(f"| {led.paper} | `{k}` | {md_cell(led.title)} | {led.mode} | {led.seed} | "
                 + " | ".join(str(cnt[v]) for v in VERDICTS) + f" | {cnt['withheld']} | {' · '.join(links)} |")
    L += _coverage(ledgers, order)
    L += ["", "## Verdict vocabulary", ""] + [f"- **{v}** — {t}" for v, t in LEGEND] + [""]
    L += ['<a id="decision-rules"></a>', "## Decision rules", "",
          "Each atomic sub-claim is decided by exactly one rule, declared in the paper module before the data; "
          "the claim's verdict follows by the aggregation rule. Statistical rules record a *for* and an "
          "*against* p-value; the report-wide family is Holm-adjusted.", ""]
    L += [f"- **{name}** — {md_cell(doc)}" for name, doc in rules.items()] + [""]
    if extra_reports:
        L += ["## Other generated reports", ""] + [f"- [{e}]({e})" for e in extra_reports] + [""]
    return "\n".join(L).rstrip() + "\n"
