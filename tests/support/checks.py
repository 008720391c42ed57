"""Helpers of the contract suite: JSON cleanliness, view schemas, reports.

Schemas and report templates are found the way the judge finds them
(:mod:`judge.reports`): ``schemas/<view_schema>`` and
``templates/<game id>/report.txt.j2``. Importing this module tells
:mod:`judge.reports` about ``tests/games/`` (schemas) and
``tests/games/templates/`` (templates), where the test-only games keep theirs.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import fastjsonschema
import jsonschema
import orjson
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource
from referencing.jsonschema import DRAFT202012

from judge import reports
from judge.game.engine import JSON, Event, Role
from judge.game.spec import Game
from tests.games import add_report_files

add_report_files()
add_report_files()


# --------------------------------------------------------------------------- JSON


def json_problems(value: object, path: str = "$") -> list[str]:
    """Everything in ``value`` that is not plain JSON: tuples, sets, non-str
    keys, non-finite floats, other objects. Empty when ``value`` is clean."""
    if value is None or isinstance(value, (bool, int, str)):
        return []
    if isinstance(value, float):
        return [] if math.isfinite(value) else [f"{path}: non-finite float {value!r}"]
    if isinstance(value, list):
        return [p for i, item in enumerate(value) for p in json_problems(item, f"{path}[{i}]")]
    if isinstance(value, dict):
        problems: list[str] = []
        for key, item in value.items():
            if not isinstance(key, str):
                problems.append(f"{path}: key {key!r} is a {type(key).__name__}, not a str")
            problems += json_problems(item, f"{path}.{key}")
        return problems
    return [f"{path}: {type(value).__name__} {value!r} is not JSON"]


def canonical(value: JSON) -> str:
    """Byte-for-byte comparable JSON text (keys sorted; orjson, which the
    offline adjudication already uses, writes it several times faster than
    the standard library, and refuses a key that is not a string)."""
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


# --------------------------------------------------------------------------- schemas


def _retrieve(uri: str) -> Resource[Any]:
    """Resolve a ``$ref`` to another schema file by its file name."""
    name = uri.rstrip("/").rsplit("/", 1)[-1]
    try:
        contents = reports.load_schema(name)
    except FileNotFoundError as exc:
        # referencing builds its classes with its own attrs decorator, which mypy
        # does not read, so it sees no fields:
        raise NoSuchResource(ref=uri) from exc  # type: ignore[call-arg]
    return Resource.from_contents(contents, default_specification=DRAFT202012)


@cache
def view_validator(schema_name: str) -> jsonschema.protocols.Validator:
    """A validator for the view schema ``schema_name`` (checked itself first)."""
    schema = reports.load_schema(schema_name)
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    # (referencing's fields are invisible to mypy, as in _retrieve)
    registry: Registry[Any] = Registry(retrieve=_retrieve)  # type: ignore[call-arg]
    return cls(schema, registry=registry, format_checker=cls.FORMAT_CHECKER)


_PLAIN_KEYWORDS = frozenset({
    "$schema", "$id", "$ref", "$defs", "$comment", "title", "description", "default",
    "examples", "type", "properties", "required", "additionalProperties", "items", "enum",
    "const", "anyOf", "oneOf", "allOf", "not", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "minItems", "maxItems", "uniqueItems", "minLength", "maxLength",
    "pattern", "patternProperties", "propertyNames", "minProperties", "maxProperties",
})
"""Keywords that mean the same in draft 7 and 2020-12 (fastjsonschema knows draft 7)."""


def _plain(schema: Any, under_properties: bool = False) -> bool:
    """Whether ``schema`` uses only :data:`_PLAIN_KEYWORDS` and local references."""
    if isinstance(schema, list):
        return all(_plain(x) for x in schema)
    if not isinstance(schema, dict):
        return True
    for k, v in schema.items():
        if under_properties:  # keys here are property names, values schemas
            if not _plain(v):
                return False
            continue
        if k not in _PLAIN_KEYWORDS:
            return False
        if k == "$ref" and not str(v).startswith("#"):
            return False
        if not _plain(v, k in ("properties", "$defs", "patternProperties")):
            return False
    return True


@cache
def _compiled(schema_name: str) -> Callable[[Any], Any] | None:
    """The schema compiled to Python (fastjsonschema), for a quick yes, when it
    uses only keywords both drafts read alike (else None: jsonschema alone)."""
    schema = dict(reports.load_schema(schema_name))
    if not _plain(schema):
        return None
    schema.pop("$schema", None)
    check: Callable[[Any], Any] = fastjsonschema.compile(schema)
    return check


def view_errors(game: Game, view: JSON) -> list[str]:
    """Schema violations of ``view`` (empty when it validates). A compiled
    schema says yes quickly; the messages come from jsonschema."""
    quick = _compiled(game.view_schema)
    if quick is not None:
        try:
            quick(view)
        except fastjsonschema.JsonSchemaException:
            pass
        else:
            return []
    validator = view_validator(game.view_schema)
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
        for e in validator.iter_errors(view)
    ]


# --------------------------------------------------------------------------- reports


def render_report(game: Game, view: JSON, events: Sequence[Event], role: Role | None) -> str:
    """The game's part of the turn report ``role`` would get, rendered by the
    judge (:func:`judge.reports.game_report`) from the view and the events,
    which it filters to those ``role`` may read."""
    return reports.game_report(game, view, events, role, f"test-{game.id}")
