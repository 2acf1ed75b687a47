"""Paper 004 — "What can linear attention learn from nonlinear teachers in-context?"

Seed summary: ``seed.txt`` (``004_50ac83a765c0b948.txt``). Claims, in seed order, one module per section:
:mod:`.claims_setup` (lines 6–81), :mod:`.claims_hermite` (85–109), :mod:`.claims_moments` (115–136),
:mod:`.claims_theory` (140–164), :mod:`.claims_fig1` (170–190), :mod:`.claims_fig2` (192–219), registered by
:mod:`.claims` into :mod:`.registry`; every other sentence of the seed is assigned in :mod:`.seed_map`. Simulations
shared between claims (each split into tasks of at most ~30 s): :mod:`.fixtures`; assumption maps and stress paths
of Result 1, the a₁ = 0 branch, Lemma 1 and the transition: :mod:`.assumptions`; sizes and the provenance of every
value (stated, convention, chosen): :mod:`.settings`; figures: :mod:`.figures`; fault-injection mutants:
:mod:`.mutants`; reliability baselines: :mod:`.fuzz`. Mathematics: :mod:`.theory` (teachers, e_ICL and Result 1, the
a₁ = 0 branch, the simulation of the actual model, Appendix-B samplers, extrapolation) on the engine
:mod:`theorycheck.hermite`; models: :mod:`theorycheck.models`; SymPy derivations: :mod:`.derivations`, their
generated code: :mod:`.generated`.
"""
from ..api import Paper
from . import claims as _claims  # noqa: F401  (registers the claims of every part, in seed order)
from . import fixtures as _fixtures  # noqa: F401  (registers the shared simulations)
from . import assumptions as _assumptions  # noqa: F401  (assumption maps and stress paths)
from .registry import claims
from .settings import sizes

CONVENTIONS = [
    "Hermite: orthonormal probabilists' $h_m=\\mathrm{He}_m/\\sqrt{m!}$, $g\\sim N(0,1)$, $a_m=E[f(g)h_m(g)]$.",
    "$\\rho$ is a noise variance; $\\rho_f=\\rho+E[f^2]$; $\\rho_{nl}=\\rho+\\sum_{m\\ne1}a_m^2$ ($m=0$ included).",
    "$e_{ICL}=E[(y_{test}-\\hat y)^2]$ on fresh tasks, label noise included, not halved; ridge penalty "
    "$(n/d)\\lambda\\|\\Gamma\\|_F^2$ on the unhalved squared loss; $\\lambda=0$ is the minimum-norm solution.",
    "Simulation: $x\\sim N(0,I_d/d)$, $w\\sim N(0,I_d)$ (not renormalised), $k=\\mathrm{round}(\\kappa d)$ tasks "
    "round-robin over $n=\\mathrm{round}(\\tau d^2)$ prompts, $\\ell=\\mathrm{round}(\\alpha d)$; $p=d(d+1)$ features; "
    "test error Rao-Blackwellised over the query's component orthogonal to $w$ and the label noise.",
    "Statistics: a trial is one independent pretraining set, fit and test set; per-trial test errors are i.i.d., so "
    "estimates are Student t over trials (df = trials − 1), paired across teachers that share a trial's random "
    "numbers; d → ∞ statements are extrapolated under every finite-size law of the verdict engine.",
]

PAPER = Paper(key="nonlinear", seed_id="004", title="What can linear attention learn from nonlinear teachers in-context?",
              package=__name__, seed="seed.txt", seed_name="004_50ac83a765c0b948.txt", conventions=CONVENTIONS,
              claims=claims, parameters=sizes,
              derivations=("theorycheck.papers.nonlinear.derivations.nonlinear_hermite",
                           "theorycheck.papers.nonlinear.derivations.nonlinear_moments",
                           "theorycheck.papers.nonlinear.derivations.nonlinear_a1_zero"),
              generated_package="theorycheck.papers.nonlinear.generated",
              mutants="theorycheck.papers.nonlinear.mutants", fuzz="theorycheck.papers.nonlinear.fuzz")
