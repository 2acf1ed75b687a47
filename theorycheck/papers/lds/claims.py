"""Claims of paper 001, in seed order (being ported to the verdict engine)."""
from __future__ import annotations

from ...verdicts import rules
from ..api import Claims

claims = Claims()

CONVENTIONS = ["Indices 1-based in text, 0-based in arrays."]


def sizes(ctx) -> dict:
    return {}


@claims.claim("001-gpt2-matches-kf", lines=(21, 21), conventions=["C1"])
def gpt2_matches_kf(ctx):
    """GPT-2 (Du et al.) predicts LDS observations as accurately as the Kalman filter."""
    yield rules.underspecified("GPT-2 matches the Kalman filter on LDS data", ["GPT-2 training and evaluation setup of Du et al."])
