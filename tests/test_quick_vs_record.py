"""Quick sizes agree with the record's direction (issue: "cost follows the decision"): the quick run of every paper,
at the run seed of record, may leave a claim inconclusive where the paper-scale record decides it, but never
confirms what the record refutes, finds not reproduced or inconsistent — or the reverse."""
import pytest

from theorycheck import cli
from theorycheck.report.diff import direction_conflicts, load_any

RECORD = cli.repo_root() / "reports" / "results.json"


@pytest.mark.skipif(not RECORD.exists(), reason="needs the committed reports of record")
def test_quick_verdicts_never_contradict_the_record(quick_run_of_record):
    record = load_any(RECORD)
    assert all(led.mode == "full" for led in record.values()), "the committed record is not a paper-scale run"
    conflicts = direction_conflicts(quick_run_of_record.ledgers, record)
    assert not conflicts, "\n".join(conflicts)
    decided = {k: sum(c.verdict != "inconclusive" for c in led.claims) for k, led in quick_run_of_record.ledgers.items()}
    assert all(n > 0 for n in decided.values()), decided             # a quick run that decides nothing tests nothing


def test_the_check_sees_a_reversal(tmp_path):
    """direction_conflicts on a doctored copy of the record: a refutation turned into a confirmation is named."""
    record = load_any(RECORD) if RECORD.exists() else pytest.skip("needs the committed reports of record")
    key = next(iter(record))
    quick = load_any(RECORD)
    target = next((c for c in quick[key].claims if c.verdict == "refuted"), None) or pytest.skip("no refutation")
    target.verdict = "confirmed"
    assert direction_conflicts(quick, record) == [f"{key}:{target.id}: quick confirmed, record refuted"]
