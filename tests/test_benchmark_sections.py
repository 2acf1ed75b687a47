"""The sections of benchmarks/RESULTS.md measured on their own (issue 31): the test-suite timing parser, the
paper-scale time budget per task kind, and the in-place section update that keeps the rest of the file."""
import importlib.util
import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("bench_sections", ROOT / "benchmarks" / "sections.py")
sections = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sections)


def test_pytest_output_is_parsed():
    out = ("12.50s call     tests/test_a.py::test_x\n3.00s setup    tests/test_b.py::test_y\n"
           "FAILED tests/test_a.py::test_z - AssertionError\n"
           "1 failed, 1400 passed, 2 deselected in 570.12s (0:09:30)\n")
    p = sections.parse_pytest(out)
    assert p["slowest"] == [(12.5, "call", "tests/test_a.py::test_x"), (3.0, "setup", "tests/test_b.py::test_y")]
    assert p["outcome"].startswith("1 failed, 1400 passed") and p["failed"] == ["FAILED tests/test_a.py::test_z - "
                                                                                 "AssertionError"]
    assert sections.parse_pytest("=== 5 passed in 1.00s ===")["outcome"] == "5 passed in 1.00s"


def test_update_section_replaces_only_its_section(tmp_path):
    f = tmp_path / "R.md"
    f.write_text("# B\n\n## A\n\nold\n\n## All benchmark rows\n\nrows\n", encoding="utf-8")
    sections.update_section(f, "## New", ["## New", "", "x"])
    sections.update_section(f, "## A", ["## A", "", "new"])
    text = f.read_text(encoding="utf-8")
    assert "old" not in text and "new" in text and text.index("## New") < text.index("## All benchmark rows")
    assert sections.section(f, "## New") == ["## New", "", "x"] and text.endswith("rows\n")


def test_budget_names_what_sets_each_size(tmp_path):
    stamp = {"papers": {"p": {"mode": "full", "tasks": {
        "p:fixture:runs[(1, 2)]": {"wall_s": 8.0}, "p:fixture:runs[(1, 3)]": {"wall_s": 1.0},
        "p:stress:001-x::assumption A": {"wall_s": 0.5}, "p:claim:001-y": {"wall_s": 0.5}}}}}
    (tmp_path / "S.json").write_text(json.dumps(stamp), encoding="utf-8")
    (tmp_path / "o.json").write_text(json.dumps({"p:fixture:runs": {"set_by": "experiment", "why": "w"}}),
                                     encoding="utf-8")
    b = sections.budget(stamp)["p"]
    assert b["task_seconds"] == 10.0 and b["kinds"] == [("fixture:runs", 9.0)]
    lines = sections.budget_section(tmp_path / "S.json", tmp_path / "o.json")
    assert any("`fixture:runs` | 9.0 | 90 % | experiment | w" in ln for ln in lines)
    assert sections.task_kind("g:stress:000-a::x y[1.0]") == "stress:000-a"


def test_stopping_section_bounds_what_sequential_stopping_can_save(tmp_path):
    def section(stops_a):
        stamp = {"papers": {"p": {"mode": "full", "tasks": {"p:fixture:a[1]": {"wall_s": 8.0},
                                                             "p:fixture:b": {"wall_s": 2.0},
                                                             "p:claim:001-c": {"wall_s": 5.0}}}}}
        (tmp_path / "S.json").write_text(json.dumps(stamp), encoding="utf-8")
        (tmp_path / "o.json").write_text(json.dumps({
            "p:fixture:a": {"set_by": "power", "why": "", "stops": stops_a, "stops_why": "wa"},
            "p:fixture:b": {"set_by": "power", "why": "", "stops": "search", "stops_why": "wb"},
            "p:claim:001-c": {"set_by": "experiment", "why": ""}}), encoding="utf-8")
        return "\n".join(sections.stopping_section(tmp_path / "S.json", tmp_path / "o.json"))
    text = section("sequential")         # 8 of 10 s stoppable: at most 6 s saved, the target 5 s is within reach
    assert "take 10.0 task s" in text and "3/4 × 8.0 = 6.0 s = 60 %" in text and "is within reach" in text
    assert "| p | `fixture:a` | 8.0 | sequential | wa |" in text and "claim:001-c" not in text
    text = section("search")             # nothing stoppable: out of reach
    assert "3/4 × 0.0 = 0.0 s = 0 %" in text and "is out of reach" in text
