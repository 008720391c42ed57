"""JSON Schemas, found by name: the judge's own (``schemas/``, installed as
``judge._data.schemas``) and any folder added with :func:`add_schema_dir`
(the test-only games' view schemas). A game checks its data files with
:func:`validator`; :mod:`judge.reports` checks the views it attaches.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema

from judge import _data

SCHEMA_DIRS: list[Path] = [_data.folder("schemas")]


def add_schema_dir(path: Path) -> None:
    """Let schemas under ``path`` be found too (tests use it for test games)."""
    if path not in SCHEMA_DIRS:
        SCHEMA_DIRS.append(path)
        load_schema.cache_clear()
        validator.cache_clear()


@cache
def load_schema(name: str) -> dict[str, Any]:
    for folder in SCHEMA_DIRS:
        path = folder / name
        if path.is_file():
            schema: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
            return schema
    raise FileNotFoundError(f"no schema {name!r} in {', '.join(map(str, SCHEMA_DIRS))}")


@cache
def validator(schema_name: str) -> jsonschema.protocols.Validator:
    """One validator per schema, the schema itself checked once (not per report)."""
    schema = load_schema(schema_name)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    checker: jsonschema.protocols.Validator = cls(schema)
    return checker


def validate(schema_name: str, document: Any) -> None:
    """Raise jsonschema.ValidationError unless ``document`` fits the schema."""
    validator(schema_name).validate(document)
