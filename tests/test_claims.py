"""The claim ledger: verdict vocabulary, verbatim seed quotes, JSON round trip."""
import json

import numpy as np
import pytest
import sympy as sp

from theorycheck.claims import CHECK_KINDS, VERDICTS, Claim, Ledger, clean_evidence, load_results
from theorycheck.report import write_results_json
from theorycheck.seeds import SEED_FILES, seed_lines, seed_text


def _claim(**kw):
    base = dict(id="004-t", paper="004", lines=(185, 186), paraphrase="a1 of sin. More.",
                conventions=["c"], check="numeric value", verdict="confirmed", summary="s")
    base.update(kw)
    return Claim(**base)


def test_quote_is_verbatim_seed_text():
    c = _claim()
    assert c.quote == seed_lines("004", 185, 186)
    assert "0.447029" in c.quote
    assert c.title == "a1 of sin"


def test_packaged_seeds_are_complete():
    # line counts of the three seed summaries as shipped (cat -n)
    assert {k: len(seed_text(k)) for k in SEED_FILES} == {"000": 107, "001": 113, "004": 229}


@pytest.mark.parametrize("field,value", [("verdict", "true"), ("check", "vibes"), ("paper", "999"),
                                         ("lines", (0, 3)), ("lines", (5, 4)), ("lines", (1, 10_000)),
                                         ("id", "")])
def test_bad_claims_rejected(field, value):
    with pytest.raises(ValueError):
        _claim(**{field: value})


def test_underspecified_needs_missing():
    with pytest.raises(ValueError, match="missing"):
        _claim(verdict="underspecified")
    assert _claim(verdict="underspecified", missing=["sigma_w"]).missing == ["sigma_w"]


def test_ledger_rejects_duplicates_and_other_papers():
    led = Ledger("nonlinear", "004", "t").add(_claim())
    with pytest.raises(ValueError, match="duplicate"):
        led.add(_claim())
    with pytest.raises(ValueError):
        led.add(_claim(id="000-x", paper="000", lines=(1, 1)))


def test_clean_evidence_types():
    ev = clean_evidence({"a": np.float64(1 / 3), "b": np.arange(3), "c": sp.exp(-sp.Rational(1, 2)),
                         "d": sp.Integer(4), "e": float("inf"), "f": np.bool_(True)})
    assert ev["a"] == 0.333333333333
    assert ev["b"] == [0, 1, 2]
    assert ev["c"]["exact"] == "exp(-1/2)" and abs(ev["c"]["value"] - 0.606530659713) < 1e-12
    assert ev["d"] == 4 and ev["e"] == "inf" and ev["f"] is True
    json.dumps(ev)


def test_results_json_round_trip(tmp_path):
    led = Ledger("nonlinear", "004", "t", parameters={"mode": "quick"}).add(_claim(evidence={"x": 1.5}))
    write_results_json({"nonlinear": led}, tmp_path)
    back = load_results(tmp_path / "results.json")["nonlinear"]
    assert back.as_dict() == led.as_dict()
    data = json.loads((tmp_path / "results.json").read_text())
    c = data["papers"]["nonlinear"]["claims"][0]
    assert set(c) >= {"id", "verdict", "evidence", "quote", "paraphrase", "conventions", "check", "lines",
                      "seed_file"}
    assert c["verdict"] in VERDICTS and c["check"] in CHECK_KINDS
