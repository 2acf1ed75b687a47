"""The claim registry of paper 000: claims, fixtures, assumptions, stress paths and seed spans register here; the
claims are ordered by ``PAPER.sections`` (:data:`.claims.SECTIONS`), not by the order of imports."""
from ..api import Claims

claims = Claims()
