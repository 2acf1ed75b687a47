"""The claim registry of paper 004. Claims register in seed order: :mod:`.claims` (lines 6–136),
:mod:`.claims_theory` (lines 140–164), :mod:`.claims_figures` (lines 170–219); the shared simulations
are the fixtures of :mod:`.fixtures`."""
from ..api import Claims

claims = Claims()
