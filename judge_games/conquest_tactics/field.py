"""The 5x5 field: spaces, the two players' frames, distance and line of sight.

Spaces are named as on a chess board, columns ``A``-``E`` and rows ``1``-``5``.
The state keeps every space in South's frame (South's deployment edge is row
1). Each player reads and writes the field from its own edge ("Lay out the game
board between you and your opponent so that the edge closest to each of you
has the Conquest Tactics logo on it"): North's ``A1`` is South's ``E5``, the
board turned half round, so that for both players row 1 is their own
deployment edge and column A is on their left.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

COLUMNS = "ABCDE"
SIZE = 5
SOUTH, NORTH = "South", "North"
ROLES: tuple[str, str] = (SOUTH, NORTH)

Space = str
"""A space in South's frame: ``"C3"``."""

_SPACE = re.compile(r"^([A-Ea-e])([1-5])$")
MARK = re.compile(r"@([A-E][1-5])")
"""How an event's text names a space: ``@C3`` in South's frame; each reader
sees it in its own frame (:func:`localize`)."""


def other(role: str) -> str:
    return NORTH if role == SOUTH else SOUTH


def xy(space: Space) -> tuple[int, int]:
    """(column 0-4, row 0-4) of a space in South's frame."""
    return COLUMNS.index(space[0]), int(space[1]) - 1


def name(x: int, y: int) -> Space:
    return f"{COLUMNS[x]}{y + 1}"


def spaces() -> Iterator[Space]:
    for y in range(SIZE):
        for x in range(SIZE):
            yield name(x, y)


def on_field(x: int, y: int) -> bool:
    return 0 <= x < SIZE and 0 <= y < SIZE


def to_frame(space: Space, role: str | None) -> str:
    """``space`` (South's frame) as ``role`` names it."""
    if role != NORTH:
        return space
    x, y = xy(space)
    return name(SIZE - 1 - x, SIZE - 1 - y)


def from_frame(text: str, role: str | None) -> Space | None:
    """The space ``role`` calls ``text``, in South's frame; None if no space."""
    m = _SPACE.match(text.strip())
    if m is None:
        return None
    space = m.group(1).upper() + m.group(2)
    return to_frame(space, role)  # the half turn is its own inverse


def mark(space: Space) -> str:
    return f"@{space}"


def localize(text: str, role: str | None) -> str:
    """An event's text for ``role``: each ``@C3`` in its frame."""
    return MARK.sub(lambda m: to_frame(m.group(1), role), text)


def rank(space: Space, role: str) -> int:
    """The row of ``space`` counted from ``role``'s own edge (1-5)."""
    y = xy(space)[1]
    return y + 1 if role == SOUTH else SIZE - y


def deployment_zone(role: str) -> list[Space]:
    """Glossary, Deployment Zone: "The two rows of a gameboard closest to each player"."""
    return [s for s in spaces() if rank(s, role) <= 2]


def ahead(space: Space, role: str) -> Space | None:
    """Glossary, Directly in front of: "The space adjacent to a card closest to
    the opponent's deployment edge"."""
    x, y = xy(space)
    y += 1 if role == SOUTH else -1
    return name(x, y) if on_field(x, y) else None


def adjacent(space: Space) -> list[Space]:
    """Glossary, Adjacent Space: "The four spaces directly next to a card that
    share a card edge" (Move: "Diagonal spaces are not considered adjacent")."""
    x, y = xy(space)
    return [name(x + dx, y + dy) for dx, dy in ((0, 1), (1, 0), (0, -1), (-1, 0))
            if on_field(x + dx, y + dy)]


def distance(a: Space, b: Space) -> int:
    """Spaces counted without diagonals (the distance diagram; Ranged Attack:
    "ranged attacks cannot occur along diagonals")."""
    (ax, ay), (bx, by) = xy(a), xy(b)
    return abs(ax - bx) + abs(ay - by)


def line_of_sight(a: Space, b: Space, blocked: Callable[[Space], bool]) -> bool:
    """Ranged Attack, line of sight: the shortest distance from ``a`` to ``b``
    "must be able to be counted out without counting a space occupied by an
    enemy unit"; when there are several shortest counts, one clear one is
    enough ("If there are two ways to count the shortest distance ... and only
    one is blocked, it is assumed that the Troop has line of sight").
    ``blocked(space)`` says whether a space in between holds an enemy unit."""
    (ax, ay), (bx, by) = xy(a), xy(b)
    sx = 1 if bx > ax else -1
    sy = 1 if by > ay else -1
    # clear[(x, y)]: some shortest count reaches (x, y) over clear spaces only
    reach: set[tuple[int, int]] = {(ax, ay)}
    for x in range(ax, bx + sx, sx):
        for y in range(ay, by + sy, sy):
            if (x, y) == (ax, ay):
                continue
            if (x, y) != (bx, by) and blocked(name(x, y)):
                continue
            if ((x - sx, y) in reach and x != ax) or ((x, y - sy) in reach and y != ay):
                reach.add((x, y))
    return (bx, by) in reach


def path_exists(a: Space, b: Space, steps: int, open_: Callable[[Space], bool]) -> bool:
    """Move: "Units may only move to open, adjacent spaces"; a troop with a
    movement value above one moves that many steps, each to an open adjacent
    space, and "cannot 'jump' other units" (``open_`` says which spaces it may
    stand on or pass)."""
    frontier = {a}
    seen = {a}
    for _ in range(steps):
        nxt = set()
        for s in frontier:
            for t in adjacent(s):
                if t not in seen and open_(t):
                    if t == b:
                        return True
                    nxt.add(t)
                    seen.add(t)
        frontier = nxt
    return False
