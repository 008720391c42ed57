"""Region geometry files (``judge_games/<id>/geometry.yaml``): reading them, and
the checks that hold them to their map (used by the tests and by the script
that writes them, :mod:`judge.pictures.layout`).

A geometry file holds, for each province or area, the rings of its region
(lists of ``[x, y]`` on the map's drawing), plus ``_void`` (impassable land
between provinces that do not border each other), ``_lake`` (water of no
province) and ``_outside`` (beyond the outer provinces), and ``crossings``:
borders drawn as a crossing of the water between two regions rather than as
a shared edge (Warring States' armies crossing a river; classic's Denmark and
Sweden across the Sound).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

from judge.pictures.layout import LAKE, OUTSIDE, VOID, Point, key

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Geometry:
    size: tuple[int, int]
    regions: Mapping[str, Sequence[Sequence[Point]]]
    crossings: frozenset[tuple[str, str]]

    def rings(self, name: str) -> Sequence[Sequence[Point]]:
        return self.regions.get(name, ())

    def names(self) -> list[str]:
        """The map's regions (not the void or the outside)."""
        return [n for n in self.regions if n not in (VOID, OUTSIDE, LAKE)]


def dump(size: tuple[int, int], rings: Mapping[str, Sequence[Sequence[Point]]],
         crossings: Iterable[tuple[str, str]], source: str) -> str:
    """The text of a geometry file (flow lists, one region a line)."""
    lines = [f"# Region geometry, written by `{source}`: do not edit by hand.",
             "# See judge/pictures/layout.py for how it is drawn.",
             f"size: [{size[0]}, {size[1]}]",
             "crossings: [" + ", ".join(f"[{a}, {b}]" for a, b in sorted(crossings)) + "]",
             "regions:"]
    for name in sorted(rings):
        body = ", ".join("[" + ", ".join(f"[{_num(x)}, {_num(y)}]" for x, y in ring) + "]"
                         for ring in rings[name])
        lines.append(f"  {_quote(name)}: [{body}]")
    return "\n".join(lines) + "\n"


def _num(v: float) -> str:
    return f"{v:.1f}".removesuffix(".0")


def _quote(name: str) -> str:
    return f"'{name}'" if not name.replace("_", "").replace("-", "").isalnum() or name.isdigit() \
        else name


@cache
def load(path: Path) -> Geometry:
    raw = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader)
    regions = {str(k): [[(float(x), float(y)) for x, y in ring] for ring in rs]
               for k, rs in raw["regions"].items()}
    crossings = frozenset(key(str(a), str(b)) for a, b in raw.get("crossings") or [])
    w, h = raw["size"]
    return Geometry(size=(int(w), int(h)), regions=regions, crossings=crossings)


def edges_of(rings: Iterable[Sequence[Point]]) -> set[tuple[Point, Point]]:
    """Undirected edges of rings."""
    out = set()
    for ring in rings:
        for i in range(len(ring)):
            a, b = ring[i - 1], ring[i]
            out.add((a, b) if a <= b else (b, a))
    return out


def touching(geo: Geometry) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
    """(pairs of regions sharing an edge, pairs sharing at least a corner)."""
    names = geo.names()
    edges = {n: edges_of(geo.rings(n)) for n in names}
    corners = {n: {p for ring in geo.rings(n) for p in ring} for n in names}
    by_edge: dict[tuple[Point, Point], list[str]] = {}
    by_corner: dict[Point, list[str]] = {}
    for n in names:
        for e in edges[n]:
            by_edge.setdefault(e, []).append(n)
        for p in corners[n]:
            by_corner.setdefault(p, []).append(n)
    share_edge = {key(a, b) for ns in by_edge.values() for a in ns for b in ns if a < b}
    share_corner = {key(a, b) for ns in by_corner.values() for a in ns for b in ns if a < b}
    return share_edge, share_corner


def area(ring: Sequence[Point]) -> float:
    return sum(ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1]
               for i in range(len(ring))) / 2


def contains(rings: Sequence[Sequence[Point]], p: Point) -> bool:
    """Is ``p`` inside the region (even-odd over its rings)?"""
    inside = False
    x, y = p
    for ring in rings:
        for i in range(len(ring)):
            (x1, y1), (x2, y2) = ring[i - 1], ring[i]
            if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
                inside = not inside
    return inside


def centre(rings: Sequence[Sequence[Point]]) -> Point:
    """A point to write a region's name at: the centroid of its largest ring."""
    ring = max(rings, key=lambda r: abs(area(r)))
    a = area(ring)
    if abs(a) < 1e-9:
        return ring[0]
    cx = cy = 0.0
    for i in range(len(ring)):
        (x1, y1), (x2, y2) = ring[i - 1], ring[i]
        f = x1 * y2 - x2 * y1
        cx += (x1 + x2) * f
        cy += (y1 + y2) * f
    return (cx / (6 * a), cy / (6 * a))


def distance(a: Point, b: Point) -> float:
    return math.dist(a, b)
