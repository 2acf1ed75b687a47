"""The task cache: content keys, hits and misses after an edit, broken entries, patched code never cached."""
from __future__ import annotations

import importlib
import json
import shutil
import sys
from pathlib import Path

import pytest

from theorycheck import cli, papers
from theorycheck.report import results_document
from theorycheck.run import TaskCache, plan, run_papers
from theorycheck.run.cache import is_suspended
from theorycheck.run.keys import KeyBuilder
from theorycheck.selftest import Mutant, Patcher, run_paper_mutants

sys.path.insert(0, str(Path(__file__).parent))
import _fake_plugin  # noqa: E402

#: the fake paper with a helper module every task uses (the plugin's own "engine")
ENGINE = "def scale(x):\n    return x * 1.0\n"
SOURCE = _fake_plugin.PACKAGE.replace("import numpy as np\n", "import numpy as np\n\nfrom .engine import scale\n", 1) \
    .replace("return rng.standard_normal(40000)", "return scale(rng.standard_normal(40000))")


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """The fake paper (with ``engine.py``) written to a temporary folder and loaded; yields its package folder."""
    root = tmp_path / "site"
    pkg = _fake_plugin.install(root, source=SOURCE)
    (pkg / "engine.py").write_text(ENGINE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(root))
    _reload()
    yield pkg
    for m in [m for m in sys.modules if m.startswith("tc_fake_paper")]:
        sys.modules.pop(m)
    papers.refresh()


def _reload():
    """Import the plugin again from its (edited) files, as a new process would."""
    for m in [m for m in sys.modules if m.startswith("tc_fake_paper")]:
        sys.modules.pop(m)
    importlib.invalidate_caches()
    papers.refresh()
    return papers.load("fake")


def _edit(path: Path, old: str, new: str):
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    shutil.rmtree(path.parent / "__pycache__", ignore_errors=True)


def _computed(out) -> list:
    return sorted(t for t, v in out.tasks.items() if v["status"] == "computed")


def _doc(out) -> str:
    return json.dumps(results_document(out.ledgers), sort_keys=True)


def test_keys_change_only_for_what_changed(plugin, tmp_path):
    def keys(seed=5):
        p = _reload()
        return KeyBuilder([p], "quick", seed, store=tmp_path / "sources").keys(plan([p], "quick"))
    k0 = keys()
    assert all(len(k) == 64 for k in k0.values()) and len(set(k0.values())) == len(k0)
    assert keys() == k0                                              # same sources: same keys
    assert all(a != b for a, b in zip(k0.values(), keys(seed=6).values()))   # another run seed: all new
    # the body of one claim: that claim's key only (its fixture and the other claim unchanged)
    _edit(plugin / "__init__.py", '"""E[g⁴] = 3; the long data array goes to a file beside the report."""',
          '"""E[g⁴] = 3; the long data array goes to a file beside the report."""\n    _ = None')
    k1 = keys()
    assert [t for t in k0 if k0[t] != k1[t]] == ["fake:claim:fk-g4"]
    # the fixture's body: the fixture and the claim consuming it
    _edit(plugin / "__init__.py", 'rng = np.random.default_rng(ctx.seed_for("fake-draws"))',
          'rng = np.random.default_rng(ctx.seed_for("fake-draws"))  # same draws')
    k2 = keys()
    assert sorted(t for t in k1 if k1[t] != k2[t]) == ["fake:claim:fk-g2", "fake:fixture:draws"]
    # the helper module every task imports (through the package): every key
    (plugin / "engine.py").write_text(ENGINE + "\n# edited\n", encoding="utf-8")
    k3 = keys()
    assert all(k2[t] != k3[t] for t in k2)
    # the seed text the claims quote: every key
    seed = plugin / "seed.txt"
    seed.write_text(seed.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert all(a != b for a, b in zip(k3.values(), keys().values()))


def test_second_run_reads_everything_and_an_edit_reruns_one_claim(plugin, tmp_path):
    cache = TaskCache(tmp_path / "cache")
    first = run_papers(["fake"], "quick", 5, cache=cache)
    assert len(_computed(first)) == len(first.tasks) == 9 and cache.stored == 9
    second = run_papers(["fake"], "quick", 5, cache=cache)
    assert _computed(second) == [] and _doc(second) == _doc(first)       # byte-identical from the cache
    assert {v["status"] for v in second.tasks.values()} == {"cached"}
    assert [f["png"] for f in second.figures["fake"]] == [f["png"] for f in first.figures["fake"]]
    _edit(plugin / "__init__.py", "    target = 2.0 if", "    _ = None\n    target = 2.0 if")
    _reload()
    third = run_papers(["fake"], "quick", 5, cache=cache, jobs=2)
    assert _computed(third) == ["fake:claim:fk-g2"]                   # its fixture came from the cache
    assert _doc(third) == _doc(first)
    (plugin / "engine.py").write_text(ENGINE + "\n# edited\n", encoding="utf-8")
    _reload()
    assert len(_computed(run_papers(["fake"], "quick", 5, cache=cache))) == 9


def test_a_fixture_whose_consumers_are_cached_is_not_read(plugin, tmp_path):
    cache = TaskCache(tmp_path / "cache")
    run_papers(["fake"], "quick", 5, cache=cache)
    fresh = TaskCache(tmp_path / "cache")
    out = run_papers(["fake"], "quick", 5, cache=fresh)
    assert fresh.hits == 3                     # the two claims and the stress path; not their fixture and points
    assert {v["status"] for v in out.tasks.values()} == {"cached"}


def test_broken_entries_are_recomputed_never_read(plugin, tmp_path):
    cache = TaskCache(tmp_path / "cache")
    first = run_papers(["fake"], "quick", 5, cache=cache)
    entries = sorted(cache.folder.rglob("*.tce"))
    by_task = {json.loads(p.read_bytes().split(b"\n")[1])["task"]: p for p in entries}
    flipped, cut = by_task["fake:claim:fk-g4"], by_task["fake:claim:fk-g2"]
    data = bytearray(flipped.read_bytes())
    data[-10] ^= 0xFF                                               # one bit of the payload
    flipped.write_bytes(bytes(data))
    cut.write_bytes(cut.read_bytes()[:-100])                        # a truncated write
    again = TaskCache(tmp_path / "cache")
    out = run_papers(["fake"], "quick", 5, cache=again)
    assert again.corrupt == 2 and _computed(out) == ["fake:claim:fk-g2", "fake:claim:fk-g4"]
    assert _doc(out) == _doc(first)
    assert TaskCache(tmp_path / "cache").load(json.loads(flipped.read_bytes().split(b"\n")[1])["key"]) is not None


def test_patched_code_never_reads_or_writes_the_cache(plugin, tmp_path):
    cache = TaskCache(tmp_path / "cache")
    with Patcher():
        assert is_suspended()
        run_papers(["fake"], "quick", 5, cache=cache)
    assert not is_suspended() and cache.stored == 0 and not list(cache.folder.rglob("*.tce"))
    run_papers(["fake"], "quick", 5, cache=cache)                  # the real code: stored
    n = len(list(cache.folder.rglob("*.tce")))
    mod = sys.modules["tc_fake_paper"]

    def wrong_target(p):
        p.setattr(mod, "BEHAVIOUR", {"mode": "refuted"})
    p = Patcher()                                                  # patches held without a with-block
    wrong_target(p)
    assert is_suspended() and run_papers(["fake"], "quick", 5, cache=cache).ledgers["fake"].claims[0].verdict == "refuted"
    p.undo()
    assert not is_suspended()
    res = run_paper_mutants("fake", [Mutant("fk-wrong", "targets 2", ("fk-g2",), wrong_target)], seed=5, cache=cache)
    assert res["caught"] == 1 and cache.hits > 0                   # the clean run came from the cache, the mutant not
    assert len(list(cache.folder.rglob("*.tce"))) == n             # nothing of a mutant was stored


def test_lru_eviction_and_the_cache_command(plugin, tmp_path, monkeypatch, capsys):
    cache = TaskCache(tmp_path / "cache", max_gb=200e3 / 2 ** 30)    # 200 kB: the figures alone are more
    run_papers(["fake"], "quick", 5, cache=cache)
    info = cache.info()
    assert cache.evicted > 0 and info["bytes"] <= cache.max_bytes and info["entries"] < 9
    monkeypatch.setenv("THEORYCHECK_CACHE_DIR", str(tmp_path / "cache"))
    assert cli.main(["cache", "info"]) == 0
    assert f"{info['entries']} task entries" in capsys.readouterr().out
    assert cli.main(["cache", "clear"]) == 0 and TaskCache(tmp_path / "cache").info()["entries"] == 0
    with pytest.raises(ValueError, match="max_gb"):
        TaskCache(tmp_path / "c2", max_gb=0)


def test_cli_records_computed_and_cached_per_task(fake_plugin, tmp_path):
    def run(*extra):
        return cli.main(["run", "--paper", "fake", "--quick", "--seed", "2", "--out", str(tmp_path / "out"),
                         "--no-pdf", "--jobs", "1", "--quiet", "--skip-derive-check", *extra])
    stamp = lambda: json.loads((tmp_path / "out" / "STAMP.json").read_text())["papers"]["fake"]  # noqa: E731
    assert run() == 0 and stamp()["tasks_computed"] == 9
    before = (tmp_path / "out" / "results.json").read_bytes()
    assert run() == 0
    st = stamp()
    assert st["tasks_computed"] == 0 and {t["status"] for t in st["tasks"].values()} == {"cached"}
    assert st["tasks"]["fake:claim:fk-g2"]["wall_s"] > 0              # the cost when it was computed
    assert (tmp_path / "out" / "results.json").read_bytes() == before
    assert run("--no-cache") == 0 and stamp()["tasks_computed"] == 9
    assert (tmp_path / "out" / "results.json").read_bytes() == before


MUTANTS = '''from theorycheck.selftest import Mutant

import tc_fake_paper as paper


def _wrong_target(patcher):
    patcher.setattr(paper, "BEHAVIOUR", {"mode": "refuted"})


MUTANTS = [Mutant("fk-wrong", "targets 2 instead of 1", ("fk-g2",), _wrong_target),
           Mutant("fk-noop", "changes nothing", ("fk-g4",), lambda p: None)]
'''


def test_selftest_paper_runs_its_mutants_in_parallel_from_cached_clean_runs(plugin, tmp_path, monkeypatch):
    _edit(plugin / "__init__.py", 'package=__name__, seed="seed.txt",', 'package=__name__, seed="seed.txt", '
          'mutants="tc_fake_paper.mutants",')
    (plugin / "mutants.py").write_text(MUTANTS, encoding="utf-8")
    _reload()
    monkeypatch.setenv("THEORYCHECK_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    assert cli.main(["run", "--paper", "fake", "--quick", "--out", str(out), "--no-pdf", "--jobs", "1", "--quiet",
                     "--skip-derive-check"]) == 0          # the default seed is the self-test's: clean runs cached
    cache = TaskCache(tmp_path / "cache")
    before = {p: p.stat().st_mtime_ns for p in cache.folder.rglob("*.tce")}
    assert cli.main(["selftest", "--paper", "fake", "--out", str(out), "--jobs", "2", "--quiet"]) == 1   # a hole
    md = (out / "selftest-fake.md").read_text()
    assert "| `fk-wrong` |" in md and "fk-g2: verdict confirmed -> refuted" in md and "**NOT CAUGHT**" in md
    assert not (out / "selftest.md").exists() and not (out / "calibration.md").exists()   # no engines, no fuzzing
    after = {p: p.stat().st_mtime_ns for p in cache.folder.rglob("*.tce")}
    assert after.keys() == before.keys()                     # no mutant result was stored
    assert any(after[p] != before[p] for p in before)        # the clean runs were read (an access touches)


#: a paper of the skeleton's shape whose claim ``importance`` shares its bare name with a theory function the
#: package re-exports, and whose package re-exports its claims by name (the two ways bare-name keys went wrong)
SKELETON = {
    "__init__.py": '"""Keys paper."""\nfrom theorycheck.papers.api import Paper\n\nfrom .registry import claims as _registry\n'
                   'from .claims import SECTIONS\nfrom .claims.sec import importance, other  # noqa: F401  (re-exports)\n\n'
                   'PAPER = Paper(key="keys", seed_id="ky", title="Keys", package=__name__, seed="seed.txt", '
                   'claims=_registry, sections=SECTIONS, conventions=["c"])\n',
    "registry.py": "from theorycheck.papers.api import Claims\n\nclaims = Claims()\n",
    "theory/__init__.py": "from .core import importance  # noqa: F401\n",
    "theory/core.py": "def importance(x):\n    return 2.0 * x\n",
    "claims/__init__.py": "from . import sec\n\nSECTIONS = [sec]\n",
    "claims/sec.py": (
        "from theorycheck.verdicts import rules\n\nfrom .. import theory\nfrom ..registry import claims\n\n\n"
        '@claims.claim("ky-a", lines=(3, 3), title="a", weight="main")\ndef importance(ctx):\n    """A."""\n'
        '    yield rules.identity("a", theory.importance(1.0), 2.0, scope="exact")\n\n\n'
        '@claims.claim("ky-b", lines=(4, 4), title="b", weight="main")\ndef other(ctx):\n    """B."""\n'
        '    yield rules.identity("b", 3, 3, scope="exact")\n'),
}


def test_a_claim_key_follows_imports_not_bare_names(tmp_path, monkeypatch):
    """Editing a claim that its package re-exports, and that shares its bare name with a theory function, changes
    that claim's key only; editing the theory function changes both claims' keys (they import it)."""
    root = tmp_path / "site"
    pkg = _fake_plugin.install(root, name="tc_keys_paper", key="keys", source=SKELETON["__init__.py"])
    for rel, text in SKELETON.items():
        (pkg / rel).parent.mkdir(parents=True, exist_ok=True)
        (pkg / rel).write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(root))

    def keys():
        for m in [m for m in sys.modules if m.startswith("tc_keys_paper")]:
            sys.modules.pop(m)
        importlib.invalidate_caches()
        papers.refresh()
        p = papers.load("keys")
        return KeyBuilder([p], "quick", 1, store=tmp_path / "sources").keys(plan([p], "quick"))
    try:
        k0 = keys()
        _edit(pkg / "claims" / "sec.py", '"""A."""', '"""A."""\n    _ = None')
        k1 = keys()
        assert [t for t in k0 if k0[t] != k1[t]] == ["keys:claim:ky-a"]
        _edit(pkg / "claims" / "sec.py", '"""B."""', '"""B."""\n    _ = None')
        k2 = keys()
        assert [t for t in k1 if k1[t] != k2[t]] == ["keys:claim:ky-b"]
        _edit(pkg / "theory" / "core.py", "2.0 * x", "x * 2.0")
        k3 = keys()
        assert sorted(t for t in k2 if k2[t] != k3[t]) == ["keys:claim:ky-a", "keys:claim:ky-b"]
    finally:
        for m in [m for m in sys.modules if m.startswith("tc_keys_paper")]:
            sys.modules.pop(m)
        papers.refresh()


_KEYS_SCRIPT = """
import hashlib
from theorycheck import papers
from theorycheck.run.tasks import plan
from theorycheck.run.keys import KeyBuilder
ps = [papers.load(k) for k in ("gla", "lds", "nonlinear")]
ts = plan(ps, "quick")
ks = KeyBuilder(ps, "quick", 20261129).keys(ts)
print(hashlib.sha256("".join(f"{t.id}={ks[t.id]}" for t in ts).encode()).hexdigest())
"""


def test_task_keys_do_not_depend_on_the_hash_seed():
    """Every task key is the same in processes with different string-hash seeds (a parent package reached first
    by its text alone once kept the gla stress tasks' import closure short under some seeds: the second identical
    run recomputed 67 of 830 tasks)."""
    import os
    import subprocess
    import sys
    out = set()
    for seed in ("1", "6"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        out.add(subprocess.run([sys.executable, "-c", _KEYS_SCRIPT], env=env, capture_output=True, text=True,
                               check=True).stdout.strip())
    assert len(out) == 1, out
