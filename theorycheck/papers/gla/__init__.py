"""Paper 000 — "Learning to Adapt: In-Context Learning Beyond Stationarity" (GLA under AR(1) drift).

Seed summary: ``seed.txt`` (``000_857c27448556efc7.txt``). Claims, in seed order:
:mod:`theorycheck.papers.gla.claims`; mathematics: :mod:`theorycheck.gla`; models:
:mod:`theorycheck.models`; derivation: ``theorycheck.derivations.gla_loss``.
"""
from ..api import Paper
from . import claims as _claims

PAPER = Paper(key="gla", seed_id="000", title="Learning to Adapt: In-Context Learning Beyond Stationarity",
              package=__name__, seed="seed.txt", seed_name="000_857c27448556efc7.txt",
              conventions=_claims.CONVENTIONS, claims=_claims.claims, parameters=_claims.sizes,
              derivations=("theorycheck.derivations.gla_loss",), mutants="theorycheck.papers.gla.mutants")
