"""A tiny third-party paper plugin, installed for the tests by writing a package and a ``.dist-info``
with an entry point onto ``sys.path`` (what ``pip install`` would do)."""
from __future__ import annotations

import textwrap
from pathlib import Path

SEED_TEXT = "A fake paper\n\nThe mean of g^2 is 1 for g ~ N(0,1).\n其中 E[g^4] = 3。\nLast line.\n"

PACKAGE = textwrap.dedent('''
    """Fake paper for the tests."""
    import numpy as np

    from theorycheck.papers.api import Claims, Note, Paper
    from theorycheck.verdicts import Estimate, rules, selfcheck

    claims = Claims()
    BEHAVIOUR = {"mode": "ok"}       # tests set "raise", "selfcheck-fails", "refuted", "stress-raises"


    @claims.fixture
    def draws(ctx):
        rng = np.random.default_rng(ctx.seed_for("fake-draws"))
        return rng.standard_normal(40000)


    @claims.claim("fk-g2", lines=(3, 3), fragment="The mean of g^2 is 1", conventions=["C1"], needs=("draws",),
                  title="Mean of g squared", weight="main")
    def g2(ctx, draws):
        """E[g²] = 1 for g ~ N(0, 1)."""
        if BEHAVIOUR["mode"] == "raise":
            raise RuntimeError("boom")
        est = Estimate.from_samples(draws ** 2)
        target = 2.0 if BEHAVIOUR["mode"] == "refuted" else 1.0
        yield rules.agreement("E[g²] = 1", est, target, margin=0.05, scope=f"n = {est.n}")
        exact = 5.0 if BEHAVIOUR["mode"] == "selfcheck-fails" else 1.0
        yield selfcheck.agreement("MC of g² vs its exact mean", est, exact)
        from theorycheck.figures import new_figure
        fig, ax = new_figure()
        ax.hist(draws, bins=20)
        ctx.save_figure(fig, "fk_hist", caption=f"Histogram of {draws.size} standard normal draws.")
        yield Note("Monte Carlo with the run seed.")


    @claims.claim("fk-g4", lines=(4, 4), conventions=["C1"], title="Fourth moment of g", weight="supporting")
    def g4(ctx):
        """E[g⁴] = 3; the long data array goes to a file beside the report."""
        yield rules.identity("E[g⁴] = 3 (Isserlis: three pairings)", 3, 3, scope="exact",
                             data={"curve": {"x": list(range(50)), "y": [v * v for v in range(50)]}})
        from theorycheck.reconcile import Parameter, Target, reconcile

        def model(p, seed):            # the unstated scale a of a stated second moment 2.25 (planted: a = 1.5)
            z = np.random.default_rng(seed).standard_normal(20000)
            return {"E[(a g)^2]": Estimate.from_samples((p["a"] * z) ** 2)}
        yield reconcile(model, [Parameter("a", 0.5, 3.0)], [Target("E[(a g)^2]", "2.25", 0.05)], budget=60,
                        seed=ctx.seed_for("fk-reconcile"))


    claims.assumption("fk-g2", "unit variance of g (σ² = 1)", stated=False, uses="E[g^2] = Var g for centred g")
    claims.assumption("fk-g4", "g is Gaussian", stated=True, lines=(3, 3), uses="Isserlis")


    @claims.stress("fk-g2", "unit variance of g (σ² = 1)", path="g with variance 1 + v", violation="v",
                   values=[0.0, 0.05, 0.08, 0.15, 0.3])
    def g2_variance(ctx, v):
        if BEHAVIOUR["mode"] == "stress-raises" and v == 0.15:
            raise RuntimeError("stress boom")
        # planted breaking point: the exact second moment 1 + v leaves the margin 0.1 between v = 0.08 and 0.15
        return rules.equivalence("E[g²] = 1", Estimate.exact(1.0 + v), 1.0, margin=0.1, scope=f"v = {v}")


    PAPER = Paper(key="fake", seed_id="fk", title="Fake paper for the tests", package=__name__, seed="seed.txt",
                  conventions=["$g\\\\sim N(0,1)$; W_KQ is a matrix."], claims=claims,
                  parameters=lambda ctx: {"n": 40000})
''')


def install(root: Path, name: str = "tc_fake_paper", key: str = "fake", entry: str | None = None,
            source: str | None = None) -> Path:
    """Write the package and its dist-info under ``root`` (the caller puts ``root`` on ``sys.path``)."""
    pkg = root / name
    pkg.mkdir(parents=True, exist_ok=True)
    (pkg / "__init__.py").write_text(source if source is not None else PACKAGE, encoding="utf-8")
    (pkg / "seed.txt").write_text(SEED_TEXT, encoding="utf-8")
    write_dist_info(root, name, key, entry)
    return pkg


def write_dist_info(root: Path, name: str, key: str, entry: str | None = None) -> Path:
    """The dist-info of distribution ``name`` under ``root`` with the paper entry point ``key = entry`` (default
    ``name:PAPER``), as ``pip install`` would write it: on ``sys.path``, the paper is found like an installed one."""
    dist = root / f"{name}-0.1.dist-info"
    dist.mkdir(exist_ok=True)
    (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
    (dist / "entry_points.txt").write_text(f"[theorycheck.papers]\n{key} = {entry or name + ':PAPER'}\n",
                                           encoding="utf-8")
    return dist
