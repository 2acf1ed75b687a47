"""Paper 001 — "On learning linear dynamical systems in context with attention layers".

Seed summary: ``seed.txt`` (``001_4dd5d8cf15de7e82.txt``). Claims, in seed order:
:mod:`theorycheck.papers.lds.claims`; mathematics: :mod:`theorycheck.lds`; models:
:mod:`theorycheck.models`; derivations: ``theorycheck.derivations.lds_*``.
"""
from ..api import Paper
from . import claims as _claims

PAPER = Paper(key="lds", seed_id="001", title="On learning linear dynamical systems in context with attention layers",
              package=__name__, seed="seed.txt", seed_name="001_4dd5d8cf15de7e82.txt",
              conventions=_claims.CONVENTIONS, claims=_claims.claims, parameters=_claims.sizes,
              derivations=("theorycheck.derivations.lds_isserlis", "theorycheck.derivations.lds_identities"),
              mutants="theorycheck.papers.lds.mutants")
