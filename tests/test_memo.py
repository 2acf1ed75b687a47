"""The one memo facility: bounded, keyed by value, registered, cleared through the registry."""
import numpy as np
import pytest
import sympy as sp

from theorycheck import memo


@pytest.fixture
def fresh():
    made = []

    def make(name, **kw):
        made.append(name)
        return memo.Memo(name, **kw)
    yield make
    for n in made:
        memo.unregister(n)


def test_keys_are_by_value_never_by_identity():
    a, b = np.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(2, 3)
    assert memo.key(a) == memo.key(b) and memo.key(a) != memo.key(a.T) and memo.key(a) != memo.key(a.astype(np.float32))
    assert memo.key(1) != memo.key(1.0) != memo.key(True)
    assert memo.key(0.1) == memo.key(0.1) and memo.key(0.1) != memo.key(0.1 + 1e-17 * 10)
    g = sp.Symbol("g")
    assert memo.key(sp.sin(g)) == memo.key(sp.sin(sp.Symbol("g")))
    assert memo.key({"b": 1, "a": (2, [3])}) == memo.key({"a": (2, [3]), "b": 1})
    with pytest.raises(TypeError, match="no value key"):
        memo.key(object())


def test_bounded_lru_and_bytes(fresh):
    m = fresh("t.lru", maxsize=2)
    m.put(memo.key(1), "a"), m.put(memo.key(2), "b")
    assert m.get(memo.key(1)) == "a"                  # 1 is now the most recent
    m.put(memo.key(3), "c")
    assert m.get(memo.key(2)) is None and len(m) == 2
    mb = fresh("t.bytes", maxsize=100, maxbytes=8 * 100)
    for i in range(5):
        mb.put(memo.key(i), np.zeros(40))            # 320 bytes each: at most two kept
    assert len(mb) == 2 and mb.get(memo.key(4)) is not None
    mb.put(memo.key("big"), np.zeros(1000))          # larger than the bound: returned, not kept
    assert mb.get(memo.key("big")) is None


def test_registry_and_clear_all(fresh):
    m = fresh("t.reg")
    m.put(memo.key(1), 1)
    assert memo.registry()["t.reg"] is m
    memo.clear_all()
    assert len(m) == 0
    with pytest.raises(ValueError, match="already registered"):
        memo.Memo("t.reg")
    with pytest.raises(ValueError, match="maxsize"):
        memo.Memo("t.bad", maxsize=0)


def test_memoize_decorator_copies_and_counts():
    calls = []

    @memo.memoize("t.deco", maxsize=4, copy=dict)
    def f(x, *, y=0):
        calls.append((x, y))
        return {"v": x + y}
    try:
        r = f(1, y=2)
        r["v"] = -1                                  # the caller's copy, not the memo's
        assert f(1, y=2) == {"v": 3} and calls == [(1, 2)] and f.memo.hits == 1
        assert f(1) == {"v": 1} and len(calls) == 2
    finally:
        memo.unregister("t.deco")
