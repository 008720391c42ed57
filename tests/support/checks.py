"""Helpers of the contract suite: JSON cleanliness, view schemas, reports.

View schemas are looked up by the file name a game gives in ``view_schema``,
first in the project's ``schemas/`` folder, then in ``tests/support/`` (where
the test-only game keeps its schema). Report templates are
``<game id>/report.txt.j2`` under ``templates/`` or ``tests/support/templates/``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
import jsonschema
from referencing import Registry, Resource
from referencing.exceptions import NoSuchResource
from referencing.jsonschema import DRAFT202012

from judge.engine import JSON, Event, Game, Role

ROOT = Path(__file__).resolve().parent.parent.parent
SCHEMA_DIRS: tuple[Path, ...] = (ROOT / "schemas", ROOT / "tests" / "support")
TEMPLATE_DIRS: tuple[Path, ...] = (ROOT / "templates", ROOT / "tests" / "support" / "templates")


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
    """Byte-for-byte comparable JSON text."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


# --------------------------------------------------------------------------- schemas


class MissingFile(LookupError):
    """A schema or template the contract requires is not there."""


def _find(name: str, folders: Sequence[Path]) -> Path:
    for folder in folders:
        path = folder / name
        if path.is_file():
            return path
    raise MissingFile(f"{name} is in none of: " + ", ".join(str(f) for f in folders))


def _retrieve(uri: str) -> Resource[Any]:
    """Resolve a ``$ref`` to another schema file by its file name."""
    name = uri.rstrip("/").rsplit("/", 1)[-1]
    try:
        path = _find(name, SCHEMA_DIRS)
    except MissingFile as exc:
        raise NoSuchResource(ref=uri) from exc  # type: ignore[call-arg]
    contents = json.loads(path.read_text(encoding="utf-8"))
    return Resource.from_contents(contents, default_specification=DRAFT202012)


@cache
def view_validator(schema_name: str) -> jsonschema.protocols.Validator:
    """A validator for the view schema ``schema_name`` (checked itself first)."""
    schema = json.loads(_find(schema_name, SCHEMA_DIRS).read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    cls.check_schema(schema)
    registry: Registry[Any] = Registry(retrieve=_retrieve)  # type: ignore[call-arg]
    return cls(schema, registry=registry, format_checker=cls.FORMAT_CHECKER)


def view_errors(game: Game, view: JSON) -> list[str]:
    """Schema violations of ``view`` (empty when it validates)."""
    validator = view_validator(game.view_schema)
    return [
        f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
        for e in validator.iter_errors(view)
    ]


# --------------------------------------------------------------------------- reports


@cache
def _environment(strict: bool) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(d) for d in TEMPLATE_DIRS]),
        undefined=jinja2.StrictUndefined if strict else jinja2.Undefined,
        keep_trailing_newline=True,
        autoescape=False,
    )


def report_template_name(game: Game) -> str:
    """``<id>/report.txt.j2``; raises MissingFile if no template folder has it."""
    name = f"{game.id}/report.txt.j2"
    _find(name, TEMPLATE_DIRS)
    return name


def render_report(
    game: Game,
    view: JSON,
    events: Sequence[Event],
    role: Role | None,
    *,
    strict: bool = False,
) -> str:
    """The report ``role`` would get: the game's template rendered from the
    view and the events that ``role`` may read, nothing else."""
    template = _environment(strict).get_template(report_template_name(game))
    visible = [e for e in events if e.visible_to(role)]
    return template.render(view=view, events=visible, role=role, game_name=f"test-{game.id}")
