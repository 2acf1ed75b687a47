"""The claim registry of paper 000 (claims register in seed order: :mod:`.claims`, then :mod:`.experiments`)."""
from ..api import Claims

claims = Claims()
