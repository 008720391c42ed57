"""What the public pages say, in words: phases, times, the deadline's
distance, a report's text as HTML (its aligned columns as tables), the
history's lines grouped by the seat they name. Pure functions over strings
and times; :mod:`judge.site.publish` and its templates call them.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from markupsafe import Markup, escape

# A Diplomacy phase's short name: season, year, kind (``S1901M``, ``F350R``,
# ``W1901A``); every Diplomacy game of the judge names its phases so.
_PHASE = re.compile(r"^([SFW])(\d{1,4})([MRA])$")
_SEASONS = {"S": "Spring", "F": "Fall", "W": "Winter"}
_KINDS = {"M": "movement", "R": "retreats", "A": "adjustments"}


def phase_words(phase: str) -> str:
    """A phase as a reader says it: ``S1901M`` -> ``Spring 1901, movement``;
    ``set-up`` -> ``the set-up``; a phase already in words (the card games'
    ``turn 2 Mobilize``, Three Kingdoms' ``Great Turn 4, supply
    adjustments``) as it is, its first letter a capital."""
    text = phase.strip()
    m = _PHASE.match(text)
    if m:
        return f"{_SEASONS[m.group(1)]} {int(m.group(2))}, {_KINDS[m.group(3)]}"
    if text == "set-up":
        return "The set-up"
    return text[:1].upper() + text[1:]


def parse_utc(text: str) -> datetime | None:
    """A stored ISO time as an aware UTC datetime (None for ``""`` or junk)."""
    try:
        value = datetime.fromisoformat(text)
    except (TypeError, ValueError):
        return None
    return (value if value.tzinfo else value.replace(tzinfo=UTC)).astimezone(UTC)


def when(value: datetime | str) -> str:
    """A time in words, in UTC: ``Thu 3 Dec 2026, 09:36 UTC`` (``""`` if none)."""
    moment = parse_utc(value) if isinstance(value, str) else value.astimezone(UTC)
    if moment is None:
        return ""
    return f"{moment:%a} {moment.day} {moment:%b %Y, %H:%M} UTC"


def _amount(n: int, unit: str) -> str:
    return f"{n} {unit}" + ("" if n == 1 else "s")


def span(seconds: float) -> str:
    """A length of time in the largest unit that reads well: ``40 minutes``,
    ``14 hours``, ``3 days`` (rounded to the nearest; under a minute:
    ``less than a minute``)."""
    s = abs(seconds)
    if s < 60:
        return "less than a minute"
    minutes = round(s / 60)
    if minutes < 60:
        return _amount(minutes, "minute")
    hours = round(s / 3600)
    if hours < 48:
        return _amount(hours, "hour")
    return _amount(round(s / 86400), "day")


def relative(then: datetime, now: datetime) -> str:
    """``then`` seen from ``now``: ``in 14 hours`` or ``3 days ago``."""
    seconds = (then - now).total_seconds()
    if abs(seconds) < 60:
        return "now"
    return f"in {span(seconds)}" if seconds > 0 else f"{span(seconds)} ago"


def on_time(owed: int, missed: int) -> float | None:
    """The share of decisions owed that were made in time (None: none owed)."""
    return (owed - missed) / owed if owed else None


# --------------------------------------------------------------------------- reports


@dataclass(frozen=True)
class Group:
    """History lines of one seat (``who``), or one line no seat is named in
    (``who`` empty)."""

    who: str
    lines: tuple[str, ...]


def group_by_seat(lines: Sequence[str], roles: Sequence[str]) -> list[Group]:
    """A turn's public lines with those that begin ``<role>: `` gathered
    under their role, seats in the order of ``roles``, at the place of the
    first of them; other lines keep their places. (``France: A Par - Bur
    (ok)`` is listed under France as ``A Par - Bur (ok)``.)"""
    rank = {r: i for i, r in enumerate(roles)}
    by_role: dict[str, list[str]] = {}
    out: list[Group | None] = []
    placed = False
    for line in lines:
        who, sep, rest = line.partition(": ")
        if sep and who in rank and rest:
            by_role.setdefault(who, []).append(rest)
            if not placed:
                out.append(None)  # the seats' block goes here
                placed = True
        else:
            out.append(Group("", (line,)))
    seats = [Group(r, tuple(by_role[r])) for r in sorted(by_role, key=rank.__getitem__)]
    done: list[Group] = []
    for item in out:
        done.extend(seats if item is None else [item])
    return done


_GAP = re.compile(r"\S\s{2,}\S")


def _columns(rows: Sequence[str]) -> list[tuple[int, int]]:
    """Where the columns of aligned ``rows`` are: spans of positions holding
    text on some row, split where every row has two spaces or more."""
    width = max(len(r) for r in rows)
    used = [False] * width
    for r in rows:
        for i, c in enumerate(r):
            if not c.isspace():
                used[i] = True
    spans: list[tuple[int, int]] = []
    start = None
    blank = 0
    for i, u in enumerate([*used, False, False]):
        if u:
            if start is None:
                start = i
            blank = 0
        elif start is not None:
            blank += 1
            if blank == 2:
                spans.append((start, i - 1))
                start = None
    return spans


def _table(rows: Sequence[str]) -> Markup:
    spans = _columns(rows)
    cells = [[r[a:b].strip() for a, b in spans] for r in rows]
    # A first row whose first cell is empty and whose others are short heads
    # the columns (a grid's column letters).
    head = cells[0] if len(cells) > 1 and not cells[0][0] and all(cells[0][1:]) else None
    body = cells[1:] if head else cells
    out = ['<div class="scroll"><table class="report">']
    if head:
        out.append("<thead><tr>" + "".join(f"<th>{escape(c)}</th>" for c in head)
                   + "</tr></thead>")
    out.append("<tbody>")
    for row in body:
        out.append("<tr>" + "".join(
            (f"<th>{escape(c)}</th>" if j == 0 and head else f"<td>{escape(c)}</td>")
            for j, c in enumerate(row)) + "</tr>")
    out.append("</tbody></table></div>")
    return Markup("".join(out))


def _is_heading(line: str) -> bool:
    """Not indented, and in capitals (up to a parenthesis: ``SUPPLY CENTRES
    (18 to win)``) or ending in a colon (``What happened:``)."""
    bare = line.strip()
    head = bare.split("(", 1)[0]
    return (not line[:1].isspace() and any(c.isalpha() for c in head)
            and (head == head.upper() or bare.endswith(":")))


def report_html(text: str) -> Markup:
    """A text report as HTML that reflows on a phone: a line in capitals or
    ending in a colon (not indented) is a heading; two or more indented lines
    whose words stand in aligned columns (two spaces or more apart) are a
    table; other indented lines are a list; the rest are paragraphs. Every
    word of the text is kept, escaped."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if not line.strip():
            i += 1
            continue
        if line[:1].isspace():
            block = []
            while i < len(lines) and lines[i][:1].isspace() and lines[i].strip():
                block.append(lines[i].rstrip())
                i += 1
            out.append(_indented(block))
            continue
        if _is_heading(line):
            out.append(f'<h3 class="report">{escape(line.strip())}</h3>')
        else:
            out.append(f"<p>{escape(line.strip())}</p>")
        i += 1
    return Markup('<div class="report">' + "\n".join(out) + "</div>")


def _indented(block: Sequence[str]) -> str:
    """Indented lines: runs of two or more aligned rows as tables, the
    others as list items."""
    out: list[str] = []
    items: list[str] = []

    def flush_items() -> None:
        if items:
            out.append("<ul>" + "".join(f"<li>{escape(x)}</li>" for x in items) + "</ul>")
            items.clear()

    j = 0
    while j < len(block):
        k = j
        while k < len(block) and _GAP.search(block[k]):
            k += 1
        if k - j >= 2 and len(_columns(block[j:k])) >= 2:
            flush_items()
            out.append(_table(block[j:k]))
            j = k
        else:
            items.append(block[j].strip())
            j += 1
    flush_items()
    return "\n".join(out)
