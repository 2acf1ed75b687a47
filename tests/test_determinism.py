"""Determinism: the same seed gives byte-identical reports, for any number of worker processes and on a
Dask cluster (whose workers are separate processes) — every task is seeded from the run seed and its own
names only, and BLAS runs single-threaded inside every task."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from theorycheck import cli, papers
from theorycheck.report import results_document
from theorycheck.run import run_papers


def _files(root: Path) -> dict:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != "STAMP.json"}


def _cli_run(out, paper, jobs, seed=7):
    return cli.main(["run", "--paper", paper, "--quick", "--seed", str(seed), "--out", str(out), "--no-pdf",
                     "--jobs", str(jobs), "--quiet", "--skip-derive-check"])


def _cheap_claims(key, k=5):
    return [s.id for s in papers.load(key).claims][:k]


def test_fake_paper_byte_identical_for_one_or_two_workers(tmp_path, fake_plugin):
    # the fake plugin lives on sys.path only in this process: compare in-process runs with the same seed
    a = run_papers(["fake"], "quick", 3, jobs=1)
    b = run_papers(["fake"], "quick", 3, jobs=1)
    assert json.dumps(results_document(a.ledgers)) == json.dumps(results_document(b.ledgers))


def test_real_paper_identical_for_one_and_two_workers():
    key = "gla"
    ids = _cheap_claims(key)
    one = run_papers([key], "quick", 13, jobs=1, claim_ids=ids)
    two = run_papers([key], "quick", 13, jobs=2, claim_ids=ids)
    assert json.dumps(results_document(one.ledgers), sort_keys=True) == \
        json.dumps(results_document(two.ledgers), sort_keys=True)
    assert [f["png"] for f in one.figures[key]] == [f["png"] for f in two.figures[key]]


def test_dask_local_cluster_matches_local_run():
    distributed = pytest.importorskip("distributed")
    key = "nonlinear"
    ids = _cheap_claims(key, 4)
    local = run_papers([key], "quick", 17, jobs=1, claim_ids=ids)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cl, \
            distributed.Client(cl) as client:
        remote = run_papers([key], "quick", 17, scheduler=client, claim_ids=ids)
    assert json.dumps(results_document(local.ledgers), sort_keys=True) == \
        json.dumps(results_document(remote.ledgers), sort_keys=True)


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["gla", "lds", "nonlinear"])
def test_whole_quick_run_byte_identical_for_any_jobs(tmp_path, paper):
    a, b = tmp_path / "a", tmp_path / "b"
    assert _cli_run(a, paper, jobs=1) == 0
    assert _cli_run(b, paper, jobs=2) == 0
    fa, fb = _files(a), _files(b)
    assert fa.keys() == fb.keys()
    assert [k for k in fa if fa[k] != fb[k]] == []
