"""Views -> mail text (and JSON attachments), through Jinja2 templates.

Nothing here reads game state: a report is built only from ``view(state,
role)`` and the events visible to ``role``. Templates live in ``templates/``:
``common/`` for the judge's own mails, and ``<game id>/report.txt.j2`` for the
body of each game's turn report. Schemas live in ``schemas/``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
import jsonschema

from judge import _data
from judge.engine import JSON, Event, Game, Role

TEMPLATE_DIRS: list[Path] = [_data.folder("templates")]
SCHEMA_DIRS: list[Path] = [_data.folder("schemas")]

#: Whether each report's JSON attachment is checked against the game's view
#: schema before it is queued: in the tests (they set it) and when
#: ``JUDGE_CHECK_VIEWS=1`` (``judge serve --check``). Off by default: a view
#: is the game's own output, checked by every test that builds one, and the
#: check cost a third of an order mail's handling.
CHECK_VIEWS = os.environ.get("JUDGE_CHECK_VIEWS", "") not in ("", "0")


def add_template_dir(path: Path) -> None:
    """Let templates under ``path`` be found too (tests use it for test games)."""
    if path not in TEMPLATE_DIRS:
        TEMPLATE_DIRS.append(path)
        _env.cache_clear()


def add_schema_dir(path: Path) -> None:
    if path not in SCHEMA_DIRS:
        SCHEMA_DIRS.append(path)
        load_schema.cache_clear()
        validator.cache_clear()


@cache
def _env() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader([str(p) for p in TEMPLATE_DIRS]),
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        undefined=jinja2.StrictUndefined,
        autoescape=False,
    )
    env.filters["tojson_pretty"] = lambda v: json.dumps(v, indent=2, sort_keys=True)
    return env


def render(template: str, **context: Any) -> str:
    return _env().get_template(template).render(**context)


def has_template(name: str) -> bool:
    try:
        _env().get_template(name)
    except jinja2.TemplateNotFound:
        return False
    return True


def game_report(
    game: Game,
    view: Mapping[str, JSON],
    events: Sequence[Event],
    role: Role | None,
    game_name: str,
) -> str:
    """The game's own part of a turn report for ``role``."""
    visible = [replace(e, text=game.localize(e.text, role)) for e in events
               if e.visible_to(role)]
    name = f"{game.id}/report.txt.j2"
    if not has_template(name):
        name = "common/view.txt.j2"
    return render(name, view=view, events=visible, role=role, game_name=game_name)


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


def view_attachment(game: Game, view: Mapping[str, JSON]) -> bytes:
    """The JSON attachment of a report: the view itself (checked against its
    schema with :data:`CHECK_VIEWS`)."""
    if CHECK_VIEWS:
        validate(game.view_schema, view)
    return json_lines(view).encode("utf-8")


_compact = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(", ", ": ")).encode


def json_lines(document: Mapping[str, Any]) -> str:
    """``document`` as JSON with each top-level key on a line of its own and
    its value on one line: readable in a mail client, and written by the C
    encoder (an indented dump is the pure-Python one, several times slower,
    and a report is written for every reader of every phase)."""
    if not document:
        return "{}\n"
    body = ",\n".join(f"  {_compact(str(k))}: {_compact(v)}" for k, v in sorted(document.items()))
    return "{\n" + body + "\n}\n"
