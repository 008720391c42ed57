"""One game as a mail (or a deadline) found it, and what the work has done
to it so far: the :class:`Loaded` game a :class:`judge.session.Workspace`
holds and the stations read and change (:mod:`judge.notify` among them,
which the session calls when it writes)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from judge.game import adjudicator as adj
from judge.game import scheduler
from judge.game.engine import Event
from judge.game.spec import Game
from judge.store import Seat


class CommandError(Exception):
    """A common command that cannot be carried out; changes nothing."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


@dataclass
class Loaded:
    """One game as a mail found it, and what the mail has done to it so far."""

    name: str
    row: dict[str, Any]
    game: Game
    table: adj.Table | None
    seats: list[Seat]
    clock: scheduler.Clock | None
    entries: list[tuple[adj.Entry, list[Event]]] = field(default_factory=list)
    row_changes: dict[str, Any] = field(default_factory=dict)
    seat_changes: dict[int, dict[str, Any]] = field(default_factory=dict)
    clock_changed: bool = False
    table_changed: bool = False
    new_turn: bool = False
    ended_now: bool = False
    message_ids: list[str] = field(default_factory=list)
    #: The public report of this write (:func:`judge.notify.public_report`).
    public: tuple[dict[str, Any], bytes, str] | None = None

    @property
    def seed(self) -> bytes:
        return bytes.fromhex(self.row["seed"])

    @property
    def status(self) -> str:
        return str(self.row["status"])

    def settings(self, defaults: dict[str, Any]) -> dict[str, Any]:
        merged = dict(defaults)
        merged.update(json.loads(self.row["settings"] or "{}"))
        return merged

    def set_row(self, **fields: Any) -> None:
        self.row.update(fields)
        self.row_changes.update(fields)

    def seat(self, role: str) -> Seat | None:
        low = role.lower()
        return next((s for s in self.seats if s.role and s.role.lower() == low), None)

    def set_seat(self, seat: Seat, **fields: Any) -> None:
        for key, value in fields.items():
            setattr(seat, key, value)
        self.seat_changes.setdefault(seat.id, {}).update(fields)

    def active_seats(self) -> list[Seat]:
        return [s for s in self.seats if s.role and s.status in ("active", "bouncing")]

    def absent(self) -> set[str]:
        return {s.role for s in self.seats if s.role and s.status in ("resigned", "ejected")}

    def need_table(self) -> adj.Table:
        if self.table is None:
            raise CommandError(f"game {self.name!r} has not started")
        return self.table
