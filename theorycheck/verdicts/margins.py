r"""Declared tables of admissible margins for the vague verbs of a source ("≈", "matches", "can approximate",
"negligible", "small", "tight"), written down before any data.

A vague verb does not name its margin: the toolkit decides it at a margin it declares (its *chosen* margin), and
that choice cannot refute the sentence alone. With ``verb=`` (:func:`theorycheck.verdicts.rules.equivalence`) the
sub-claim records, besides its decision at the chosen margin, the whole table of its verb:

- it is **refuted** only when the estimate lies significantly outside *every* margin of the table — outside the
  widest one, at the family's Bonferroni level α/m (Holm keeps every such rejection);
- when it fails at the chosen margin but not at the widest, it is **not reproduced** (the failure rests on our
  choice of margin);
- its finding states the **smallest margin at which it holds**: the 95 % upper confidence bound of the
  relative difference, and the smallest margin of the table at or above it.

The margins are relative to the target (fractions of ``|target|``).

>>> margin_table("matches")
(0.01, 0.02, 0.05, 0.1, 0.2)
>>> smallest_margin(0.031, "matches")
0.05
>>> smallest_margin(0.25, "matches") is None
True
"""
from __future__ import annotations

__all__ = ["MARGIN_TABLES", "VERBS", "margin_table", "smallest_margin"]

#: The admissible margins (relative) of each vague verb, and the words of the sources that use it.
MARGIN_TABLES = {
    "matches": (0.01, 0.02, 0.05, 0.10, 0.20),          # 匹配, 逼平, "matches", "on par with"
    "approximates": (0.01, 0.02, 0.05, 0.10, 0.20),     # 逼近, 近似, "can approximate", "≈", "close to"
    "negligible": (0.001, 0.005, 0.01, 0.02, 0.05),     # 可忽略, "negligible"
    "small": (0.01, 0.02, 0.05, 0.10),                  # 很小, "small"
    "tight": (0.01, 0.05, 0.10, 0.25),                  # 紧, "tight" (a bound within this share of its target)
}
#: Words of the sources and the verb whose table decides them.
VERBS = {"匹配": "matches", "逼平": "matches", "on par": "matches", "逼近": "approximates", "近似": "approximates",
         "≈": "approximates", "close to": "approximates", "可忽略": "negligible", "很小": "small", "紧": "tight"}


def margin_table(verb: str) -> tuple:
    """The declared margins of ``verb`` (a key of :data:`MARGIN_TABLES` or a word of :data:`VERBS`)."""
    v = VERBS.get(verb, verb)
    if v not in MARGIN_TABLES:
        raise ValueError(f"verb must be one of {sorted(MARGIN_TABLES)} (or a word of {sorted(VERBS)}), got {verb!r}")
    return MARGIN_TABLES[v]


def smallest_margin(upper_bound: float, verb: str) -> float | None:
    """The smallest margin of ``verb``'s table at or above ``upper_bound`` (None: it holds at none of them)."""
    return next((m for m in margin_table(verb) if m >= upper_bound), None)
