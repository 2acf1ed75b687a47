"""The command line end to end, on a tiny fake paper: run, determinism, seeds, exit codes."""
import json

import pytest

from theorycheck import cli, papers


@pytest.fixture
def fake_paper(monkeypatch):
    monkeypatch.setitem(papers.PAPERS, "fake", ("004", "tests._fake_paper"))
    monkeypatch.setattr(cli, "derive", lambda paper=None: 0)     # no derivation scripts for the fake paper
    return "fake"


def _run(out, seed=1, extra=()):
    return cli.main(["run", "--paper", "fake", "--seed", str(seed), "--out", str(out), "--no-pdf", *extra])


def test_run_writes_everything(tmp_path, fake_paper):
    assert _run(tmp_path) == 0
    for name in ("fake.md", "fake.tex", "index.md", "results.json", "STAMP.json", "figures/fake_fig.png",
                 "figures/fake_fig.pdf"):
        assert (tmp_path / name).exists(), name
    res = json.loads((tmp_path / "results.json").read_text())
    claim = res["papers"]["fake"]["claims"][0]
    assert claim["verdict"] == "confirmed" and claim["evidence"]["comparison"]["n"] == 4000
    stamp = json.loads((tmp_path / "STAMP.json").read_text())
    assert stamp["papers"]["fake"]["seed"] == 1 and "numpy" in stamp["versions"]


def test_same_seed_byte_identical_other_seed_differs(tmp_path, fake_paper):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    _run(a, 1), _run(b, 1), _run(c, 2)
    for name in ("fake.md", "fake.tex", "index.md", "results.json", "figures/fake_fig.png"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    ra = json.loads((a / "results.json").read_text())["papers"]["fake"]["claims"][0]["evidence"]["comparison"]
    rc = json.loads((c / "results.json").read_text())["papers"]["fake"]["claims"][0]["evidence"]["comparison"]
    assert ra["mean"] != rc["mean"]
    assert abs(ra["mean"] - rc["mean"]) < 5 * (ra["se"] ** 2 + rc["se"] ** 2) ** 0.5


def test_failing_check_gives_nonzero_exit(tmp_path, fake_paper, monkeypatch):
    import tests._fake_paper as fp
    monkeypatch.setattr(fp, "build", lambda ctx: 1 / 0)
    assert _run(tmp_path) == 1


def test_refuted_claim_is_not_a_failure(tmp_path, fake_paper, monkeypatch):
    from theorycheck import montecarlo as mc
    monkeypatch.setattr(mc, "compare", lambda exact, est, **kw: mc.Comparison(1, 2, 0.1, 10, 10.0, 0.0, 1e-3,
                                                                                "disagree", 1.0))
    assert _run(tmp_path) == 0
    res = json.loads((tmp_path / "results.json").read_text())
    assert res["papers"]["fake"]["claims"][0]["verdict"] == "refuted"


def test_results_are_merged_across_papers(tmp_path, fake_paper):
    (tmp_path).mkdir(exist_ok=True)
    _run(tmp_path)
    res = json.loads((tmp_path / "results.json").read_text())
    assert list(res["papers"]) == ["fake"]
    assert cli.main(["report", "--out", str(tmp_path), "--no-pdf"]) == 0


def test_help_and_bad_arguments(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0
    assert "derive" in capsys.readouterr().out
    with pytest.raises(SystemExit) as e:
        cli.main(["run", "--paper", "nope"])
    assert e.value.code == 2
    assert cli.main(["run", "--paper", "gla", "--seed", "-3", "--out", "/tmp/x"]) == 2


def test_report_without_results(tmp_path):
    assert cli.main(["report", "--out", str(tmp_path)]) == 1


def test_derive_list(capsys):
    assert cli.main(["derive", "--list"]) == 0
