"""A tiny paper module used by the CLI tests (one exact-vs-MC claim, one figure)."""
import numpy as np

from theorycheck import montecarlo as mc
from theorycheck.claims import Claim, Ledger
from theorycheck.figures import new_figure

SEED = "004"
TITLE = "Fake paper for CLI tests"


def build(ctx):
    led = Ledger("fake", SEED, TITLE, conventions=["E[g^2] = 1"])
    est = mc.mean(lambda rng, size: rng.standard_normal(size) ** 2, 4000, seed=ctx.seed_for("fake-g2"))
    cmp = mc.compare(1.0, est)
    fig, ax = new_figure()
    ax.plot(np.arange(3), np.arange(3) ** 2)
    led.add(Claim(id="004-fake", paper=SEED, lines=(91, 91), paraphrase="E[f^2] = sum a_m^2 for f = g",
                  conventions=[], check="exact vs Monte Carlo",
                  verdict="confirmed" if cmp.agrees else "refuted", summary=f"z = {cmp.z:.2f}",
                  evidence={"comparison": cmp.as_dict()}, figures=[ctx.save_figure(fig, "fake_fig")]))
    return led
