"""The claim registry of paper 001 (claims register in seed order: :mod:`.claims`, then :mod:`.experiments`)."""
from ..api import Claims

claims = Claims()
