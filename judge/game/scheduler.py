"""Deadlines, reminders and grace, as pure functions of ``now``.

Every time is an aware UTC :class:`datetime` inside the judge and an ISO 8601
string (``2026-11-29T18:00:00+00:00``) in the database; a seat sees times in its
own time zone through :func:`local`.

A phase's clock, in order:

1. ``remind_at`` (``reminder_hours`` before the deadline): seats that have not
   acted get one reminder.
2. ``deadline``: if everyone owing orders has sent them, the phase is
   processed; otherwise, with a grace period, late seats get a notice and the
   phase waits until ``grace_until``; without one it is processed at once.
3. ``grace_until``: processed, with the game's defaults for whoever is silent.

A phase is also processed early when every seat has acted and none asked to
WAIT (see :func:`judge.game.adjudicator.ready`).
"""

from __future__ import annotations

import enum
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

#: Settings every game instance has (``SET`` by the GM, ``--setting`` on the CLI).
DEFAULT_SETTINGS: dict[str, Any] = {
    "orders_hours": 48.0,  # simultaneous order phases
    "action_hours": 24.0,  # single actions and response windows
    "grace_hours": 24.0,  # after the deadline, for late seats; 0 for none
    "reminder_hours": 12.0,  # before the deadline
    "max_extend_hours": 72.0,  # EXTEND may add at most this much to one phase
    "window_hours": 12.0,  # response windows (a Dodge, a Negation, a defence)
    "window_min_minutes": 0.0,  # a window that asks someone by hand stays open this long
    "press": "white",  # white | grey (sender hidden) | named (no PRESS TO ALL) | none
    "joins": "open",  # open | approval: whether the GM admits each JOIN
    "abandon_after": 3.0,  # deadlines missed in a row before the GM hears a seat is abandoned
    "gm_copies": "no",  # yes | no: the GM gets a copy of each turn's public report and of press
    "draw_votes": "secret",  # secret | public: whether each DRAW and CONCEDE vote is announced
    "max_absence_days": 14.0,  # SET ABSENCE: days of absence a seat may announce in one game
    "orders_in": "gm",  # gm | all: who sees which seats have sent orders
    "picture": "png",  # png | svg | none: the picture attached to each report
}


def parse_time(text: str) -> datetime:
    """An ISO 8601 string to an aware UTC datetime."""
    value = datetime.fromisoformat(text)
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC)


def iso(value: datetime) -> str:
    return value.astimezone(UTC).isoformat(timespec="seconds")


def zone(name: str) -> ZoneInfo:
    """A time zone by IANA name; ValueError with advice when unknown."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(
            f"unknown time zone {name!r} (use an IANA name such as Europe/Paris or UTC)"
        ) from exc


def local(text: str, tz: str) -> str:
    """A stored UTC time as the seat reads it: ``Sun 29 Nov 2026 19:00 CET``."""
    try:
        where = zone(tz)
    except ValueError:
        where = ZoneInfo("UTC")
    return parse_time(text).astimezone(where).strftime("%a %d %b %Y %H:%M %Z")


@dataclass(frozen=True)
class Clock:
    """The clock of the current phase of one game."""

    phase: str
    deadline: datetime
    remind_at: datetime | None
    grace_until: datetime | None
    reminded: bool = False
    late_notice: bool = False
    extended_hours: float = 0.0
    opened: datetime | None = None
    min_close: datetime | None = None
    """A response window that asks a seat by hand closes no earlier than
    this (``window_min_minutes``); one that asks nobody closes at once
    (judge/game/timing.py)."""

    def to_row(self, game: str) -> dict[str, Any]:
        return {
            "opened": iso(self.opened) if self.opened else "",
            "min_close": iso(self.min_close) if self.min_close else "",
            "game": game,
            "phase": self.phase,
            "deadline": iso(self.deadline),
            "remind_at": iso(self.remind_at) if self.remind_at else "",
            "grace_until": iso(self.grace_until) if self.grace_until else "",
            "reminded": int(self.reminded),
            "late_notice": int(self.late_notice),
            "extended_hours": self.extended_hours,
        }

    @classmethod
    def from_row(cls, row: Mapping[str, Any]) -> Clock:
        return cls(
            phase=row["phase"],
            deadline=parse_time(row["deadline"]),
            remind_at=parse_time(row["remind_at"]) if row.get("remind_at") else None,
            grace_until=parse_time(row["grace_until"]) if row.get("grace_until") else None,
            reminded=bool(row.get("reminded")),
            late_notice=bool(row.get("late_notice")),
            extended_hours=float(row.get("extended_hours") or 0.0),
            opened=parse_time(row["opened"]) if row.get("opened") else None,
            min_close=parse_time(row["min_close"]) if row.get("min_close") else None,
        )


def plan(now: datetime, phase: str, settings: Mapping[str, Any], kind: str) -> Clock:
    """The clock for a decision of ``kind`` (``orders``, ``action`` or
    ``response``) that opens at ``now``. A response window has
    ``window_hours``, no reminder and no grace (its default, a pass, harms
    nobody), and a minimum open time of ``window_min_minutes`` (0 by
    default), which holds only if the window asks someone by hand."""
    if kind == "response":
        hours = float(settings.get("window_hours", DEFAULT_SETTINGS["window_hours"]))
        least = float(settings.get("window_min_minutes", DEFAULT_SETTINGS["window_min_minutes"]))
        return Clock(phase=phase, deadline=now + timedelta(hours=hours), remind_at=None,
                     grace_until=None, opened=now, min_close=now + timedelta(minutes=least))
    hours = float(settings["orders_hours" if kind == "orders" else "action_hours"])
    deadline = now + timedelta(hours=hours)
    if settings.get(DAILY):
        deadline = at_daily(deadline, str(settings[DAILY]))
    return replace(_with_deadline(phase, deadline, settings), opened=now)


DAILY = "deadline_at"
"""The game setting of a daily deadline time: ``"20:00 Europe/Paris"`` (every
deadline of orders and actions then falls at that time of day in that zone,
the first one after the phase's hours), or absent."""

_DURATION = re.compile(r"(?:(\d+(?:\.\d+)?)d)?(?:(\d+(?:\.\d+)?)h)?(?:(\d+(?:\.\d+)?)m)?",
                       re.IGNORECASE)


def parse_duration(text: str) -> float:
    """``72h``, ``3d``, ``1d12h``, ``90m`` or a plain number of hours, in
    hours; ValueError for anything else."""
    raw = text.strip().replace(" ", "")
    try:
        return float(raw)
    except ValueError:
        pass
    m = _DURATION.fullmatch(raw)
    if not raw or m is None or not any(m.groups()):
        raise ValueError(f"{text!r} is not a duration (write 72h, 3d, 1d12h or 90m)")
    days, hours, minutes = (float(x) if x else 0.0 for x in m.groups())
    return days * 24 + hours + minutes / 60


def parse_daily(text: str) -> str:
    """``20:00 Europe/Paris`` (the zone is UTC when left out) as the setting
    keeps it; ValueError with advice for anything else."""
    words = text.split()
    if not words or len(words) > 2 or not re.fullmatch(r"([01]?\d|2[0-3]):[0-5]\d", words[0]):
        raise ValueError(f"{text!r} is not a time of day and a zone "
                         "(e.g. every day at 20:00 Europe/Paris)")
    tz = words[1] if len(words) == 2 else "UTC"
    zone(tz)
    hh, mm = words[0].split(":")
    return f"{int(hh):02d}:{mm} {tz}"


def at_daily(when: datetime, daily: str) -> datetime:
    """The first moment at or after ``when`` whose time of day is ``daily``'s
    in its zone (a time a clock change skips moves on to the next day)."""
    clock_time, tz = daily.split()
    hh, mm = (int(x) for x in clock_time.split(":"))
    where = zone(tz)
    local_when = when.astimezone(where)
    for days in range(0, 3):
        day = (local_when + timedelta(days=days)).date()
        candidate = datetime(day.year, day.month, day.day, hh, mm, tzinfo=where)
        if candidate.astimezone(UTC).astimezone(where).hour != hh:
            continue  # the hour does not exist that day (a clock change)
        if candidate >= local_when:
            return candidate.astimezone(UTC)
    raise AssertionError(daily)  # pragma: no cover - one of three days has it


def _with_deadline(phase: str, deadline: datetime, settings: Mapping[str, Any]) -> Clock:
    remind = float(settings.get("reminder_hours", 0) or 0)
    grace = float(settings.get("grace_hours", 0) or 0)
    return Clock(
        phase=phase,
        deadline=deadline,
        remind_at=deadline - timedelta(hours=remind) if remind > 0 else None,
        grace_until=deadline + timedelta(hours=grace) if grace > 0 else None,
    )


def set_deadline(clock: Clock, deadline: datetime, settings: Mapping[str, Any]) -> Clock:
    """GM's SET DEADLINE: a new deadline; reminder and grace follow it."""
    fresh = _with_deadline(clock.phase, deadline, settings)
    return replace(fresh, extended_hours=clock.extended_hours, opened=clock.opened,
                   min_close=clock.min_close)


def around_absences(clock: Clock, absences: list[tuple[datetime, datetime]],
                    settings: Mapping[str, Any]) -> Clock:
    """A deadline that falls inside an absence of a seat it waits for moves to
    the absence's end, within what is left of ``max_extend_hours`` for the
    phase (absences that meet or overlap count as one; the move counts
    against the same budget as EXTEND)."""
    left = max(float(settings["max_extend_hours"]) - clock.extended_hours, 0.0)
    cap = clock.deadline + timedelta(hours=left)
    moved = clock.deadline
    for start, end in sorted(absences):
        if start <= moved < end:
            moved = end
    moved = min(moved, cap)
    if moved == clock.deadline:
        return clock
    hours = (moved - clock.deadline).total_seconds() / 3600
    fresh = _with_deadline(clock.phase, moved, settings)
    return replace(fresh, opened=clock.opened, min_close=clock.min_close,
                   extended_hours=clock.extended_hours + hours)


class ExtendRefused(ValueError):
    """EXTEND beyond the game's cap."""


def extend(clock: Clock, hours: float, settings: Mapping[str, Any]) -> Clock:
    """GM's EXTEND: push the deadline by ``hours``, at most ``max_extend_hours``
    in all for one phase."""
    cap = float(settings["max_extend_hours"])
    if hours <= 0:
        raise ExtendRefused("EXTEND takes a positive number of hours")
    if clock.extended_hours + hours > cap:
        left = max(cap - clock.extended_hours, 0)
        raise ExtendRefused(
            f"this phase may be extended by {cap:g} hours in all; {left:g} hours are left"
        )
    moved = _with_deadline(clock.phase, clock.deadline + timedelta(hours=hours), settings)
    return replace(moved, extended_hours=clock.extended_hours + hours, reminded=False,
                   opened=clock.opened, min_close=clock.min_close)


class Due(enum.StrEnum):
    REMIND = "remind"
    LATE = "late"
    PROCESS = "process"


def due(now: datetime, clock: Clock, everyone_in: bool, early: bool = False) -> Due | None:
    """What, if anything, the clock asks for at ``now``.

    ``everyone_in``: every seat owing orders has sent them (WAIT flags aside:
    at the deadline, WAIT no longer holds the phase back). ``early``: the
    decision may be processed before its deadline once everyone is in and
    its minimum open time is over (a response window).
    """
    if early and everyone_in and clock.min_close is not None and now >= clock.min_close:
        return Due.PROCESS
    if now >= clock.deadline:
        if everyone_in or clock.grace_until is None:
            return Due.PROCESS
        if now >= clock.grace_until:
            return Due.PROCESS
        if not clock.late_notice:
            return Due.LATE
        return None
    if clock.remind_at is not None and now >= clock.remind_at and not clock.reminded:
        return Due.REMIND
    return None
