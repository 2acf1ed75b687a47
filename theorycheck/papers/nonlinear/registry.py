"""The claim registry of paper 004: the claims (:mod:`.claims`, ordered by its ``SECTIONS``), the shared
simulations (:mod:`.fixtures`), the assumption maps and stress paths (:mod:`.assumptions`) and the seed map
(:mod:`.seedmap`) all register here."""
from ..api import Claims

claims = Claims()
