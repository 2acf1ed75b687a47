"""The claim registry of paper 001: every room of the paper registers into ``claims`` (the claims in the order of
``claims.SECTIONS``)."""
from ..api import Claims

claims = Claims()
