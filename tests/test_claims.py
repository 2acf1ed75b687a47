"""The claim data model: verdict vocabulary, ids, JSON round trip, verbatim seed quotes."""
import json

import numpy as np
import pytest
import sympy as sp

from theorycheck import papers
from theorycheck.claims import (VERDICTS, Claim, Ledger, SelfCheck, SubClaim, clean_evidence, load_results, slugify)
from theorycheck.seeds import SEED_FILES, paper_id, seed_lines, seed_text


def _led():
    led = Ledger("nonlinear", "004", "t", conventions=["c1", "c2"], mode="full", seed=3, seed_file="x.txt")
    s = SubClaim("E[g²] = 1", "agreement", verdict="confirmed", scope="n = 10", n=10, df=9.0, statistic=0.3,
                 p_value={"for": 1e-4, "against": 0.7}, p_adjusted={"for": 2e-4, "against": 1.0}, ci=[0.9, 1.1],
                 ci_level=0.95, margin=0.05, estimate=1.0, target=1.0, chosen={"mu": 0.1},
                 details={"power": 0.9}, data={"xs": np.arange(3)}, reason="r")
    c = Claim(id="004-a", paper="004", lines=(185, 186), title="a1 of sin", statement="a1 of sin. More.", subclaims=[s],
              self_checks=[SelfCheck("ours", "identity", passed=True, statistic=0.0)], verdict="confirmed",
              scope="n = 10", quote="q", figures=[{"stem": "f", "caption": "c"}], revision={"previous": "refuted"})
    return led.add(c)


def test_vocabulary():
    assert VERDICTS == ("confirmed", "refuted", "inconsistent", "not reproduced", "inconclusive", "underspecified")


def test_subclaim_ids_derive_from_claim_and_statement():
    led = _led()
    c = led.claims[0]
    assert c.subclaims[0].id == "004-a/e-g-1" and c.self_checks[0].id == "004-a/self/ours"
    assert c.title == "a1 of sin"
    assert slugify("W_KQ ∝ Λ̃⁻¹!") == "w-kq"


def test_json_round_trip(tmp_path):
    led = _led()
    d = led.as_dict()
    assert json.loads(json.dumps(d)) == d
    back = Ledger.from_dict(d)
    assert back.as_dict() == d
    assert d["counts"]["confirmed"] == 1 and d["preliminary"] is False and d["conventions"][1] == {"id": "C2", "text": "c2"}
    (tmp_path / "results.json").write_text(json.dumps({"papers": {"nonlinear": d}}))
    assert load_results(tmp_path / "results.json")["nonlinear"].as_dict() == d
    assert load_results(tmp_path / "nope.json") == {}


def test_bad_claims_rejected():
    with pytest.raises(ValueError, match="verdict"):
        SubClaim("x", "identity", verdict="true")
    with pytest.raises(ValueError, match="statement"):
        SubClaim(" ", "identity")
    with pytest.raises(ValueError, match="id"):
        Claim(id="", paper="p", lines=(1, 1), title="T", statement="s")
    led = _led()
    with pytest.raises(ValueError, match="duplicate"):
        led.add(Claim(id="004-a", paper="004", lines=(1, 1), title="T", statement="s"))
    with pytest.raises(ValueError, match="paper"):
        led.add(Claim(id="000-x", paper="000", lines=(1, 1), title="T", statement="s"))


def test_clean_evidence_types():
    ev = clean_evidence({"a": np.float64(1 / 3), "b": np.arange(3), "c": sp.exp(-sp.Rational(1, 2)),
                         "d": sp.Integer(4), "e": float("inf"), "f": np.bool_(True)})
    assert ev["a"] == 0.333333333333 and ev["b"] == [0, 1, 2] and ev["c"]["exact"] == "exp(-1/2)"
    assert ev["d"] == 4 and ev["e"] == "inf" and ev["f"] is True


def test_seed_quotes_are_verbatim_and_line_counts_come_from_the_files():
    for p in papers.registry().values():
        text = p.seed_lines()
        assert len(seed_text(p.seed_id)) == len(text)
        assert seed_lines(p.seed_id, 1, len(text)) == "\n".join(text)
        assert SEED_FILES[p.seed_id] == p.seed_name
    assert "0.447029" in seed_lines("004", 186)
    assert paper_id("nonlinear") == paper_id("004") == paper_id("004_50ac83a765c0b948.txt") == "004"


def test_bad_line_range_names_the_seed_and_its_length():
    n = len(seed_text("001"))
    with pytest.raises(ValueError, match=rf"seed 001 \(001_4dd5d8cf15de7e82.txt\) has {n} lines.*got 5..{n + 3}"):
        seed_lines("001", 5, n + 3)
    with pytest.raises(ValueError, match="paper must be one of"):
        paper_id("999")
