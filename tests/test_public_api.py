"""Public names stay importable: every ``module:name`` of ``tests/public_api.txt`` (the public API snapshot,
see ``tests/_public_api.py``) is imported from its module. A move re-exports from the old place."""
import importlib

import pytest

from tests._public_api import SNAPSHOT, public_api

NAMES = [ln.strip() for ln in SNAPSHOT.read_text(encoding="utf-8").splitlines() if ln.strip()]


def test_snapshot_is_not_empty_and_names_the_documented_entry_points():
    for must in ("theorycheck.gaussian:moment", "theorycheck.lds:wqk_star", "theorycheck.gla:train_error",
                 "theorycheck.gla:optimal_lambda", "theorycheck.hermite:hermite_coefficients"):
        assert must in NAMES


@pytest.mark.parametrize("module", sorted({n.split(":")[0] for n in NAMES}))
def test_every_public_name_is_importable(module):
    mod = importlib.import_module(module)
    missing = [n.split(":")[1] for n in NAMES if n.split(":")[0] == module and not hasattr(mod, n.split(":")[1])]
    assert not missing, f"public names no longer importable from {module}: {missing}"


def test_new_public_names_are_in_the_snapshot():
    """A name made public is added to the snapshot (``python tests/_public_api.py --write``), so it is kept."""
    new = sorted(set(public_api()) - set(NAMES))
    assert not new, f"add these to tests/public_api.txt (python tests/_public_api.py --write): {new[:20]}"


def test_the_snapshot_holds_no_paper_internals():
    """A paper's public surface is its PAPER; the modules inside a paper package are free to move."""
    from tests._public_api import paper_packages
    internal = [n for n in NAMES for p in paper_packages() if n.startswith(p + ".")]
    assert not internal, internal[:10]
    assert all(f"{p}:PAPER" in NAMES for p in paper_packages())
