"""Seed stability: verdict distributions over run seeds, flips detected."""
from theorycheck.stability import flips, run_stability


def test_flips_are_confirmed_vs_refuted_or_not_reproduced():
    dist = {"a": {"confirmed": 3, "refuted": 1}, "b": {"confirmed": 2, "inconclusive": 2},
            "c": {"not reproduced": 1, "confirmed": 1}, "d": {"refuted": 4}}
    assert flips(dist) == ["a", "c"]


def test_stability_report(tmp_path, fake_plugin):
    res = run_stability(["fake"], n_seeds=3, jobs=1, base_seed=5, out=tmp_path)
    assert res["seeds"] == [5, 6, 7] and res["flips"] == {}
    assert res["papers"]["fake"]["fk-g2"] == {"confirmed": 3}
    md = (tmp_path / "stability.md").read_text()
    assert "Flips between confirmed and refuted/not reproduced: 0" in md and "`fk-g4`" in md
