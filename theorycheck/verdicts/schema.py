"""The versioned JSON Schema of ``results.json`` and its validation (``jsonschema``).

>>> SCHEMA_VERSION
'3.0.0'
>>> schema()["properties"]["schema_version"]["const"] == SCHEMA_VERSION
True
"""
from __future__ import annotations

import json
from importlib import resources

from ..memo import Memo, key
from .rules import registry

__all__ = ["SCHEMA_VERSION", "schema", "validate_results"]

SCHEMA_VERSION = "3.0.0"


def schema() -> dict:
    """The schema (``theorycheck/verdicts/results.schema.json``), with the enum of rule names filled from the rule
    registry (:mod:`theorycheck.verdicts.rules.registry`: a rule added there is a valid ``rule`` here)."""
    return _SCHEMA.get_or_compute(key(tuple(registry.names())), _load)


def _load() -> dict:
    text = resources.files("theorycheck.verdicts").joinpath("results.schema.json").read_text(encoding="utf-8")
    doc = json.loads(text)
    doc["$defs"]["subclaim"]["properties"]["rule"] = {"enum": registry.names()}
    return doc


_SCHEMA = Memo("verdicts.schema", maxsize=2)


def validate_results(data: dict) -> None:
    """Raise ``ValueError`` naming the first violation if ``data`` does not follow the schema."""
    import jsonschema  # heavy: jsonschema only when results are validated
    validator = jsonschema.Draft202012Validator(schema())
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    if errors:
        e = errors[0]
        where = "/".join(str(x) for x in e.absolute_path) or "(root)"
        raise ValueError(f"results.json does not follow schema {SCHEMA_VERSION}: at {where}: {e.message} "
                         f"({len(errors)} violation(s) in all)")
