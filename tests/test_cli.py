"""The command line end to end, on a fake plugin paper: outputs, defaults, determinism, exit codes."""
import json
from pathlib import Path
import os

import pytest

from theorycheck import cli


def _run(out, *extra, seed=1):
    return cli.main(["run", "--paper", "fake", "--quick", "--seed", str(seed), "--out", str(out), "--no-pdf",
                     "--jobs", "1", "--quiet", *extra])


def test_run_writes_everything(tmp_path, fake_plugin):
    assert _run(tmp_path) == 0
    for name in ("fake.md", "fake.tex", "index.md", "results.json", "STAMP.json", "figures/fk_hist.png",
                 "figures/fk_hist.pdf", "fake-data/fk-g4/e-g-3-isserlis-three-pairings.curve.csv"):
        assert (tmp_path / name).exists(), name
    res = json.loads((tmp_path / "results.json").read_text())
    claim = res["papers"]["fake"]["claims"][0]
    assert claim["verdict"] == "confirmed" and claim["subclaims"][0]["n"] == 40000
    assert res["papers"]["fake"]["mode"] == "quick" and res["schema_version"] == "3.0.0"
    stamp = json.loads((tmp_path / "STAMP.json").read_text())
    assert stamp["papers"]["fake"]["seed"] == 1 and "numpy" in stamp["versions"]
    assert len(stamp["papers"]["fake"]["source_sha256"]["theorycheck"]) == 64
    md = (tmp_path / "fake.md").read_text()
    assert "Preliminary (quick sizes)" in md and md.index("## Summary of findings") < md.index("## Claims")
    assert "## Where it breaks" in md and "not stressed (used by: Isserlis)" in md and "## Reconciliation" in md
    assert "[pdf]" not in (tmp_path / "index.md").read_text()       # no PDF was built, none is linked


def test_quick_default_output_is_not_the_reports_folder(tmp_path, fake_plugin, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["run", "--paper", "fake", "--quick", "--no-pdf", "--jobs", "1", "--quiet"]) == 0
    assert (tmp_path / "reports-quick" / "fake.md").exists() and not (tmp_path / "reports").exists()


def test_same_seed_byte_identical_other_seed_differs(tmp_path, fake_plugin):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    _run(a), _run(b), _run(c, seed=2)
    for name in ("fake.md", "fake.tex", "index.md", "results.json", "figures/fk_hist.png"):
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert (a / "results.json").read_bytes() != (c / "results.json").read_bytes()


def test_rerun_leaves_unchanged_files_untouched(tmp_path, fake_plugin):
    _run(tmp_path)
    before = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file() and p.name != "STAMP.json"}
    _run(tmp_path)
    after = {p: p.stat().st_mtime_ns for p in tmp_path.rglob("*") if p.is_file() and p.name != "STAMP.json"}
    assert before == after


def test_one_paper_run_keeps_the_other_papers(tmp_path, fake_plugin):
    _run(tmp_path)
    res = json.loads((tmp_path / "results.json").read_text())
    res["papers"]["other"] = dict(res["papers"]["fake"], key="other", paper="ot")
    (tmp_path / "results.json").write_text(json.dumps(res))
    (tmp_path / "other.md").write_text("untouched\n")
    _run(tmp_path, seed=3)
    res2 = json.loads((tmp_path / "results.json").read_text())
    assert res2["papers"]["other"] == res["papers"]["other"] and (tmp_path / "other.md").read_text() == "untouched\n"
    assert "`other`" in (tmp_path / "index.md").read_text()


@pytest.mark.parametrize("mode,code", [("raise", 1), ("selfcheck-fails", 1), ("refuted", 0)])
def test_exit_codes(tmp_path, fake_plugin, mode, code):
    fake_plugin.BEHAVIOUR["mode"] = mode
    assert _run(tmp_path) == code
    md = (tmp_path / "fake.md").read_text()
    if mode == "selfcheck-fails":
        assert "self-checks FAILED" in md and "⛔ withheld" in md
    if mode == "refuted":
        assert "❌ refuted" in md


def test_output_folder_is_checked_before_any_work(tmp_path, fake_plugin, capsys):
    f = tmp_path / "afile"
    f.write_text("x")
    assert _run(f) == 2
    assert "must be a folder" in capsys.readouterr().err
    ro = tmp_path / "ro"
    ro.mkdir()
    os.chmod(ro, 0o500)
    try:
        if os.access(ro, os.W_OK):          # root ignores permissions: nothing to test
            pytest.skip("running as root: permissions are not enforced")
        assert _run(ro) == 2
    finally:
        os.chmod(ro, 0o700)


def test_report_command_rerenders(tmp_path, fake_plugin):
    _run(tmp_path)
    (tmp_path / "fake.md").unlink()
    assert cli.main(["report", "--out", str(tmp_path), "--no-pdf", "--quiet"]) == 0
    assert (tmp_path / "fake.md").exists()
    assert cli.main(["report", "--out", str(tmp_path / "empty"), "--quiet"]) == 1


def test_help_and_bad_arguments(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["--help"])
    assert e.value.code == 0 and "new-paper" in capsys.readouterr().out
    for argv in (["run", "--paper", "nope"], ["run", "--seed", "-3"], ["run", "--jobs", "0"]):
        with pytest.raises(SystemExit) as e:
            cli.main(argv)
        assert e.value.code == 2


def test_papers_and_derive_list(capsys, fake_plugin):
    assert cli.main(["papers"]) == 0
    out = capsys.readouterr().out
    assert "fake" in out and "gla" in out
    assert cli.main(["derive", "--list"]) == 0
    assert "theorycheck.papers.gla.derivations.gla_loss" in capsys.readouterr().out


def test_derive_check_passed_before_is_not_repeated(tmp_path, fake_plugin, monkeypatch, capsys):
    """The run's derivation check is recorded when it passes (theorycheck.run.passed) and not repeated for the same
    sources and library versions; --recheck repeats it; a changed source gives a new key."""
    from theorycheck.run import passed
    stamp = lambda: json.loads((tmp_path / "STAMP.json").read_text())["last_command"]["derive_check"]
    assert _run(tmp_path) == 0 and stamp() == "fresh (compared now)"
    assert _run(tmp_path) == 0 and stamp().startswith("fresh (passed ") and "not repeated" in stamp()
    assert _run(tmp_path, "--recheck") == 0 and stamp() == "fresh (compared now)"
    assert _run(tmp_path, "--skip-derive-check") == 0 and stamp().startswith("skipped")
    key = passed.derive_check_key(["fake"])
    assert passed.passed_before(key)["check"] == "derive --check"
    import theorycheck.provenance as pv
    # the run passes the digest it computed once; the key is the same as computing it here
    assert passed.derive_check_key(["fake"], source_sha256=pv.package_digest("theorycheck")) == key
    stamped = json.loads((tmp_path / "STAMP.json").read_text())["papers"]["fake"]["source_sha256"]
    assert stamped["theorycheck"] == pv.package_digest("theorycheck")
    assert stamped["tc_fake_paper"] == pv.package_digest("tc_fake_paper")       # the plugin's own sources too
    # one byte of the plugin's sources (outside theorycheck): another key, the check runs again
    src = Path(fake_plugin.__file__)
    src.write_text(src.read_text() + "\n# edited\n")
    assert passed.derive_check_key(["fake"]) != key
    assert _run(tmp_path) == 0 and stamp() == "fresh (compared now)"
    monkeypatch.setattr(pv, "package_digest", lambda pkg: "0" * 64)     # any source change: another key
    assert passed.passed_before(passed.derive_check_key(["fake"])) is None


def test_passed_record_bad_input_and_unwritable_folder(tmp_path, monkeypatch):
    from theorycheck.run import passed
    with pytest.raises(ValueError, match="key"):
        passed.passed_before("not-a-digest")
    with pytest.raises(ValueError, match="JSON"):
        passed.check_key("x", f=object())
    with pytest.raises(ValueError, match="source_sha256"):
        passed.check_key("x", source_sha256=5)
    (tmp_path / "file").write_text("")
    monkeypatch.setenv("THEORYCHECK_CACHE_DIR", str(tmp_path / "file"))      # a file, not a folder
    key = passed.check_key("x")
    assert passed.record_pass(key, "x") is False and passed.passed_before(key) is None
