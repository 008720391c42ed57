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

from judge import _data
from judge.game import choices, registry, scheduler
from judge.game.engine import JSON, DecisionKind, Event, Role
from judge.game.schemas import SCHEMA_DIRS as SCHEMA_DIRS
from judge.game.schemas import add_schema_dir as add_schema_dir
from judge.game.schemas import load_schema as load_schema
from judge.game.schemas import validate as validate
from judge.game.schemas import validator as validator
from judge.game.spec import Game

TEMPLATE_DIRS: list[Path] = [_data.folder("templates")]

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


# --------------------------------------------------------------------------- turn reports


def turn_report(data: Mapping[str, Any], view: Mapping[str, JSON]) -> str:
    """The text of a turn report, from what the transaction that queued it
    kept (:func:`judge.notify.report_of`: the reader, the events it may see,
    the outcome, the deadline, what it owes) and the reader's ``view``
    alone: rendered when the mail is composed, after the commit, and the
    same text whenever it is rendered."""
    game = registry.get(str(data["game"]))
    role = data["role"]
    events = [Event.from_json(e) for e in data["events"]]
    body = game_report(game, view, events, role, str(data["name"]))
    outcome = ""
    o = data["outcome"]
    if o is not None:
        outcome = "cancelled by the GM, with no result" if o.get("cancelled") else (
            ("a draw shared by " if o.get("draw") else "won by ")
            + (", ".join(o.get("winners") or []) or "nobody")
            + (f" ({o['reason']})" if o.get("reason") else "")
        )
    deadline = (scheduler.local(str(data["deadline"]), str(data["tz"]))
                if data["deadline"] else "")
    others = list(data.get("deadline_of") or [])
    deadline_label = (f"Deadline of {', '.join(others)} (nothing is asked of you now)"
                      if others else "Deadline")
    text = render(
        "common/report.txt.j2",
        game_name=data["name"],
        title=game.title,
        role=role,
        phase=view.get("phase", ""),
        phase_title=view.get("phase_title", ""),  # the phase in words, where its name is short
        seed_hash=data["seed_hash"],
        first=data["first"],
        body=body.rstrip("\n"),
        outcome=outcome,
        seed=data["seed"],
        deadline=deadline,
        deadline_label=deadline_label,
        owe=owe_text(data["owe"]) if role is not None else "",
        intro=str(data["intro"]).rstrip("\n"),
        orders_in=orders_in_text(data["orders_in"]),
    )
    before = str(data.get("before") or "")
    if before:  # an acknowledgement held for this mail (SET ACK errors)
        text = before.rstrip("\n") + "\n\n" + "-" * 60 + "\n\n" + text
    return text


def owe_text(owe: Mapping[str, Any] | None) -> str:
    """What the seat must do now (a decision, as :func:`judge.notify.report_of`
    keeps it), with its choices."""
    if owe is None:
        return ""
    kind = DecisionKind(owe["kind"])
    lines: list[str] = []
    if kind is DecisionKind.ORDERS:
        lines.append(f"orders for {owe['phase']}")
    elif kind is DecisionKind.RESPONSE:
        lines.append(f"an answer in the {owe['window'] or 'response'} window "
                     f"({owe['phase']}): {owe['prompt']}")
    else:
        lines.append(f"an action ({owe['phase']}): {owe['prompt']}")
    if owe["default"]:
        lines.append(f"If you send nothing by the deadline: {owe['default']}.")
    if kind is not DecisionKind.ORDERS:
        legal = owe["legal"]
        if legal:
            shown = choices.compact(legal)
            bar = " (x|y: send one of them)" if any(choices.BAR in x for x in shown) else ""
            lines.append(f"Your choices{bar}:")
            lines.extend(f"  {line}" for line in shown)
        if kind is DecisionKind.RESPONSE:
            lines.append("Reply to this mail with your answer; it stays secret until the "
                         "window closes.")
    return "\n".join(lines)


def orders_in_text(orders_in: Mapping[str, Sequence[str]] | None) -> str:
    """Who has sent orders and who still owes them (``orders_in all``)."""
    if not orders_in:
        return ""
    sent, due = orders_in["sent"], orders_in["due"]
    return ("Orders are in from: " + (", ".join(sent) or "nobody yet")
            + ("; still due from: " + ", ".join(due) if due else "") + ".")
