"""Units on the board and the geometric questions asked about them.

A :class:`Board` maps province indices to :class:`Unit` objects (one unit per
province) and knows the map. The convoy questions here look only at where
fleets stand, never at orders: they decide whether an order is *legal*
("possible, not knowing any orders yet", DATC 4.E.1), not whether it succeeds.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from typing import NamedTuple

from .geography import DipMap


class Unit(NamedTuple):
    """A unit: its power's index, type (``"A"`` or ``"F"``) and location index."""

    power: int
    type: str
    loc: int


class Board:
    """Where the units stand. ``units`` maps a province index to its unit."""

    __slots__ = ("dm", "units")

    def __init__(self, dm: DipMap, units: dict[int, Unit] | None = None) -> None:
        self.dm = dm
        self.units: dict[int, Unit] = units if units is not None else {}

    def copy(self) -> Board:
        return Board(self.dm, dict(self.units))

    def place(self, unit: Unit) -> None:
        prov = self.dm.locations[unit.loc].province
        if prov in self.units:
            raise ValueError(f"two units in {self.dm.provinces[prov].id}")
        self.units[prov] = unit

    def at(self, province: int) -> Unit | None:
        return self.units.get(province)

    def of(self, power: int) -> Iterator[tuple[int, Unit]]:
        for prov, u in self.units.items():
            if u.power == power:
                yield prov, u

    def count(self, power: int) -> int:
        return sum(1 for u in self.units.values() if u.power == power)

    def unit_text(self, unit: Unit) -> str:
        return f"{unit.type} {self.dm.loc_text(unit.loc)}"


def convoy_capable(dm: DipMap, province: int) -> bool:
    """Whether a fleet in ``province`` may convoy: only in a sea (DATC 6.F.1)."""
    return province in dm.seas


def fleet_provinces(board: Board, exclude: int = -1) -> set[int]:
    """Sea provinces holding a fleet that could convoy (``exclude`` left out)."""
    seas = board.dm.seas  # convoy_capable, for every unit on the board
    return {p for p, u in board.units.items() if u.type == "F" and p != exclude and p in seas}


def sea_neighbours(dm: DipMap, province: int) -> frozenset[int]:
    """Seas (and coasts) a fleet could reach from any coast of ``province``."""
    # Any location of a coastal province touches the seas its coasts touch.
    return dm.sea_reach[province]


def convoy_route_exists(dm: DipMap, src: int, dst: int, fleets: Iterable[int]) -> bool:
    """Whether a chain of the given fleet provinces links coastal ``src`` to ``dst``."""
    pool = set(fleets)
    if not pool or src == dst:
        return False
    if not (dm.is_coastal(src) and dm.is_coastal(dst)):
        return False
    reach = dm.sea_reach
    goal = reach[dst]
    start = reach[src] & pool
    seen = set(start)
    todo = deque(start)
    while todo:
        p = todo.popleft()
        if p in goal:
            return True
        for q in reach[p]:
            if q in pool and q not in seen:
                seen.add(q)
                todo.append(q)
    return False


def convoy_destinations(dm: DipMap, src: int, fleets: Iterable[int]) -> list[int]:
    """Coastal provinces an army in ``src`` could reach through the given fleets."""
    pool = set(fleets)
    if not dm.is_coastal(src):
        return []
    seen = set(sea_neighbours(dm, src) & pool)
    todo = deque(seen)
    out: set[int] = set()
    while todo:
        p = todo.popleft()
        for q in sea_neighbours(dm, p):
            if q in pool:
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
            elif dm.is_coastal(q) and q != src:
                out.add(q)
    return sorted(out)


def necessary_fleets(dm: DipMap, src: int, dst: int, fleets: Iterable[int]) -> set[int]:
    """The fleet provinces that lie on some *irredundant* convoy route from
    ``src`` to ``dst``: a chain none of whose fleets can be left out.

    Such chains are the chordless paths from ``src`` to ``dst``; a fleet on no
    such chain is not necessary for any route and its convoy order is illegal
    (DATC 4.E.1, test 6.G.19).
    """
    pool = frozenset(fleets)
    if not (dm.is_coastal(src) and dm.is_coastal(dst)) or src == dst:
        return set()
    kept = dm.convoy_fleets
    key = (src, dst, pool)
    known = kept.get(key)
    if known is not None:
        return set(known)
    found = _necessary(dm, src, dst, pool)
    if len(kept) > 50_000:
        kept.clear()
    kept[key] = frozenset(found)
    return found


def _necessary(dm: DipMap, src: int, dst: int, pool: frozenset[int]) -> set[int]:
    reach = dm.sea_reach
    start_adj = reach[src]
    goal_adj = reach[dst]
    found: set[int] = set()
    path: list[int] = []

    def walk(p: int) -> None:
        path.append(p)
        if p in goal_adj:
            found.update(path)
        else:
            for q in reach[p]:
                if (
                    q in pool
                    and q not in path
                    and q not in start_adj
                    and all(q not in reach[x] for x in path[:-1])
                ):
                    walk(q)
        path.pop()

    for f in pool & start_adj:
        walk(f)
    return found


def distances(dm: DipMap, sources: Iterable[int]) -> list[int]:
    """Steps from the nearest of ``sources`` to every province, over every
    border (army or fleet, land or sea): the 2023 civil-disorder distance."""
    inf = len(dm.provinces) + 1
    dist = [inf] * len(dm.provinces)
    todo: deque[int] = deque()
    for s in sources:
        if dist[s] != 0:
            dist[s] = 0
            todo.append(s)
    while todo:
        p = todo.popleft()
        for q in dm.neighbours[p]:
            if dist[q] > dist[p] + 1:
                dist[q] = dist[p] + 1
                todo.append(q)
    return dist
