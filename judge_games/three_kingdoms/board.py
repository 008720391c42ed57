"""The Three Kingdoms map: provinces keyed by the rulebook's numbers.

Loaded once at import from ``map.yaml`` (format: ``schemas/three-kingdoms-map.schema.json``).
Which facts are the rulebook's and which are ours is told in README.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml

KINGDOMS: tuple[str, ...] = ("Wei", "Shu", "Wu")
"""The three kingdoms, in the rulebook's order."""


@dataclass(frozen=True)
class Province:
    number: int
    name: str
    kingdom: str | None
    """``Wei``, ``Shu``, ``Wu`` or ``None`` for the lands of no kingdom."""
    centre: bool
    x: int
    y: int


@dataclass(frozen=True)
class Board:
    """The map: provinces by number and the symmetric adjacency."""

    title: str
    width: int
    height: int
    provinces: dict[int, Province]
    neighbours: dict[int, frozenset[int]]

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours.get(a, frozenset())

    def centres(self, kingdom: str | None = None) -> list[int]:
        """Support centres, in number order; of one kingdom if given."""
        return [
            n
            for n, p in sorted(self.provinces.items())
            if p.centre and (kingdom is None or p.kingdom == kingdom)
        ]

    def kingdom_of(self, number: int) -> str | None:
        return self.provinces[number].kingdom


def load(path: Path) -> Board:
    """Read and check a map file. Raises ValueError on a malformed map."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    provinces: dict[int, Province] = {}
    for key, p in raw["provinces"].items():
        kingdom = None if p["kingdom"] == "none" else str(p["kingdom"])
        if kingdom is not None and kingdom not in KINGDOMS:
            raise ValueError(f"province {key}: unknown kingdom {kingdom!r}")
        provinces[int(key)] = Province(
            int(key), str(p["name"]), kingdom, bool(p["centre"]), int(p["x"]), int(p["y"])
        )
    links: dict[int, set[int]] = {n: set() for n in provinces}
    for a, b in raw["adjacent"]:
        if a not in provinces or b not in provinces or a == b:
            raise ValueError(f"bad border {a}-{b}")
        links[a].add(b)
        links[b].add(a)
    return Board(
        str(raw["title"]),
        int(raw["width"]),
        int(raw["height"]),
        provinces,
        {n: frozenset(s) for n, s in links.items()},
    )


MAP_FILE = Path(__file__).with_name("map.yaml")
BOARD = load(MAP_FILE)
