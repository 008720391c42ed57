"""Region geometry drawn from a map's points and borders (the dual of the
border graph), for maps that exist nowhere else as a drawing.

Each province is a point; each border a straight line between two points
(or a bent one, through waypoints written for the map). Where these lines
cross nothing they cut the plane into faces, and each province's region is
the part of every face around its point nearest to it: from its point along
each border line to the line's middle, then in to the face's centre. Two
regions therefore share an edge exactly where the map has a border between
them. A face whose corners include two provinces with no border between them
gets a small hole at its centre instead of a centre point (impassable land,
drawn as such), so those two never touch, not even at a corner.

A ring of frame points outside the picture, joined to the outer provinces by
the shortest lines that cross nothing, closes the outer faces: the outer
regions run off the edge of the picture.

Everything here is pure; ``python tools/layout.py GAME`` writes
``geometry.yaml`` for a map from what the game's drawing module says its
map is.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

Point = tuple[float, float]

#: Owner of the frame's pieces (outside every region) and of face holes.
OUTSIDE = "_outside"
VOID = "_void"
#: Water of no province (a lake, the Caspian), drawn as water.
LAKE = "_lake"


@dataclass
class Plan:
    """What a map's geometry is built from."""

    size: tuple[int, int]
    points: dict[str, Point]
    #: Borders to draw, in the order they are laid (a border that would
    #: cross one laid before it is left out and reported).
    borders: list[tuple[str, str]]
    #: Bends of a border line, from the first province of the pair to the second.
    waypoints: dict[tuple[str, str], list[Point]] = field(default_factory=dict)
    #: Borders that may be left out when they cross another (drawn as crossings).
    optional: set[tuple[str, str]] = field(default_factory=set)
    frame_gap: float = 300.0
    frame_step: float = 70.0


@dataclass
class Layout:
    """The result: each owner's outline rings, and the borders left out."""

    rings: dict[str, list[list[Point]]]
    skipped: list[tuple[str, str]]


def key(a: str, b: str) -> tuple[str, str]:
    return (a, b) if a <= b else (b, a)


def _orient(p: Point, q: Point, r: Point) -> float:
    return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])


def _on_segment(p: Point, q: Point, r: Point) -> bool:
    """r lies on segment p-q (strictly between its ends)."""
    if abs(_orient(p, q, r)) > 1e-6 * (1 + math.dist(p, q)):
        return False
    dot = (r[0] - p[0]) * (q[0] - p[0]) + (r[1] - p[1]) * (q[1] - p[1])
    return 1e-9 < dot < (q[0] - p[0]) ** 2 + (q[1] - p[1]) ** 2 - 1e-9


def crosses(a: Point, b: Point, c: Point, d: Point) -> bool:
    """Do segments a-b and c-d meet anywhere but at a shared end?"""
    shared = {a, b} & {c, d}
    if len(shared) == 2:
        return True  # the same segment twice
    if shared:
        (s,) = shared
        o1 = b if a == s else a
        o2 = d if c == s else c
        # collinear and overlapping from the shared end
        return (abs(_orient(s, o1, o2)) < 1e-9
                and (o1[0] - s[0]) * (o2[0] - s[0]) + (o1[1] - s[1]) * (o2[1] - s[1]) > 0)
    d1, d2 = _orient(a, b, c), _orient(a, b, d)
    d3, d4 = _orient(c, d, a), _orient(c, d, b)
    if ((d1 > 0 > d2) or (d1 < 0 < d2)) and ((d3 > 0 > d4) or (d3 < 0 < d4)):
        return True
    return any((_on_segment(a, b, c), _on_segment(a, b, d), _on_segment(c, d, a),
                _on_segment(c, d, b)))


def _area(ring: Sequence[Point]) -> float:
    return sum(ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1]
               for i in range(len(ring))) / 2


def _r(p: Point) -> Point:
    return (round(p[0], 1), round(p[1], 1))


def build(plan: Plan) -> Layout:
    """The regions of ``plan`` (see the module's docstring)."""
    owner: dict[Point, str] = {}
    for name, p in plan.points.items():
        p = _r(p)
        if p in owner:
            raise ValueError(f"{name} and {owner[p]} stand on the same point")
        owner[p] = name
    segments: list[tuple[Point, Point]] = []
    neighbours: set[tuple[str, str]] = set()
    skipped: list[tuple[str, str]] = []

    def free(chain: Sequence[Point]) -> bool:
        return not any(crosses(chain[i], chain[i + 1], s, t)
                       for i in range(len(chain) - 1) for s, t in segments)

    for a, b in plan.borders:
        k = key(a, b)
        if k in neighbours:
            continue
        bends = [_r(w) for w in plan.waypoints.get((a, b), [])]
        if not bends and (b, a) in plan.waypoints:
            bends = [_r(w) for w in reversed(plan.waypoints[(b, a)])]
        chain = [_r(plan.points[a]), *bends, _r(plan.points[b])]
        if not free(chain):
            if k in plan.optional:
                skipped.append(k)
                continue
            raise ValueError(f"the border {a}-{b} crosses another; give it waypoints")
        for i, w in enumerate(bends):  # the middle segment of the chain is the border
            if w in owner:
                raise ValueError(f"waypoint {w} of {a}-{b} is already a point")
            owner[w] = a if i < len(bends) // 2 else b
        segments += [(chain[i], chain[i + 1]) for i in range(len(chain) - 1)]
        neighbours.add(k)
    # the frame: a ring of points outside the picture
    width, height = plan.size
    gap = plan.frame_gap
    frame: list[Point] = []
    corners = [(-gap, -gap), (width + gap, -gap), (width + gap, height + gap),
               (-gap, height + gap)]
    for i in range(4):
        c0, c1 = corners[i], corners[(i + 1) % 4]
        steps = max(1, round(math.dist(c0, c1) / plan.frame_step))
        frame += [_r((c0[0] + (c1[0] - c0[0]) * j / steps, c0[1] + (c1[1] - c0[1]) * j / steps))
                  for j in range(steps)]
    for p in frame:
        owner[p] = OUTSIDE
    segments += [(frame[i], frame[(i + 1) % len(frame)]) for i in range(len(frame))]
    inner = [p for p, o in owner.items() if o != OUTSIDE]
    candidates = sorted((math.dist(f, p), f, p) for f in frame for p in inner)
    for _, f, p in candidates:
        if free([f, p]):
            segments.append((f, p))
    rings = _regions(owner, segments, neighbours)
    return Layout(rings=rings, skipped=skipped)


def _regions(owner: Mapping[Point, str], segments: Sequence[tuple[Point, Point]],
             neighbours: set[tuple[str, str]]) -> dict[str, list[list[Point]]]:
    adj: dict[Point, list[Point]] = {}
    for a, b in segments:
        adj.setdefault(a, []).append(b)
        adj.setdefault(b, []).append(a)
    for p, qs in adj.items():
        qs.sort(key=lambda q, p=p: math.atan2(q[1] - p[1], q[0] - p[0]))  # type: ignore[misc]
    seen: set[tuple[Point, Point]] = set()
    faces: list[list[Point]] = []
    for a, b in segments:
        for start in ((a, b), (b, a)):
            if start in seen:
                continue
            face: list[Point] = []
            u, v = start
            while (u, v) not in seen:
                seen.add((u, v))
                face.append(u)
                qs = adj[v]
                i = qs.index(u)
                u, v = v, qs[(i - 1) % len(qs)]
            faces.append(face)
    # with y pointing down and this turn, inner faces come out with positive area
    faces = [f for f in faces if _area(f) > 0]
    middle: dict[tuple[Point, Point], Point] = {}

    def mid(p: Point, q: Point) -> Point:
        k = (p, q) if p <= q else (q, p)
        if k not in middle:
            middle[k] = _r(((p[0] + q[0]) / 2, (p[1] + q[1]) / 2))
        return middle[k]

    def clash(x: str, y: str) -> bool:
        return (x != y and not x.startswith("_") and not y.startswith("_")
                and key(x, y) not in neighbours)

    split: dict[tuple[Point, Point], tuple[Point, Point]] = {}

    def ends(p: Point, q: Point) -> tuple[Point, Point]:
        """The two points near p and q on a clashing edge p-q (void between them)."""
        k = (p, q) if p <= q else (q, p)
        if k not in split:
            a, b = k
            split[k] = (_r((a[0] + 0.4 * (b[0] - a[0]), a[1] + 0.4 * (b[1] - a[1]))),
                        _r((a[0] + 0.6 * (b[0] - a[0]), a[1] + 0.6 * (b[1] - a[1]))))
        x, y = split[k]
        return (x, y) if k[0] == p else (y, x)

    pieces: dict[str, list[list[Point]]] = {}
    for face in faces:
        for tri in _triangles(face, lambda p, q: clash(owner[p], owner[q])):
            names = [owner[p] for p in tri]
            bad = [clash(names[i], names[(i + 1) % 3]) for i in range(3)]
            cx = sum(p[0] for p in tri) / 3
            cy = sum(p[1] for p in tri) / 3
            if any(bad):
                gs = [_r((cx + 0.3 * (p[0] - cx), cy + 0.3 * (p[1] - cy))) for p in tri]
                pieces.setdefault(VOID, []).append(list(gs))
            else:
                gs = [_r((cx, cy))] * 3
            inner: dict[int, Point] = {}
            for i in range(3):
                j = (i + 1) % 3
                if bad[i]:
                    xi, xj = ends(tri[i], tri[j])
                    pieces.setdefault(VOID, []).append([xi, xj, gs[j], gs[i]])
                else:
                    inner[i] = _r(((gs[i][0] + gs[j][0]) / 2, (gs[i][1] + gs[j][1]) / 2))
            for i in range(3):
                j, h = (i + 1) % 3, (i - 1) % 3
                ring = [tri[i]]
                if bad[i]:
                    ring += [ends(tri[i], tri[j])[0]]
                else:
                    ring += [mid(tri[i], tri[j]), inner[i]]
                ring.append(gs[i])
                if bad[h]:
                    ring.append(ends(tri[h], tri[i])[1])
                else:
                    ring += [inner[h], mid(tri[h], tri[i])]
                ring = [p for k, p in enumerate(ring) if p != ring[k - 1]]
                pieces.setdefault(names[i], []).append(ring)
    return {name: merge(rs) for name, rs in pieces.items()}


def _triangles(face: Sequence[Point],
               clashing: Callable[[Point, Point], bool] | None = None,
               ) -> list[tuple[Point, Point, Point]]:
    """Ear-clipping triangulation of a face (positive area, simple). With
    ``clashing`` (do two corners belong to provinces with no border between
    them?), an ear whose new side joins two such corners is cut only when no
    other ear will do: a face is then cut, where it can be, so that every
    triangle's corners are neighbours, and no hole of impassable land is
    left in it."""
    poly = list(face)
    out: list[tuple[Point, Point, Point]] = []
    guard = 0
    while len(poly) > 3 and guard < 10 * len(face) ** 2:
        guard += 1
        n = len(poly)
        ears = []
        for i in range(n):
            a, b, c = poly[i - 1], poly[i], poly[(i + 1) % n]
            if _orient(a, b, c) <= 1e-9:
                continue  # a reflex or flat corner is no ear
            if any(p not in (a, b, c) and _inside_triangle(p, a, b, c) for p in poly):
                continue
            ears.append(i)
            if clashing is None or not clashing(a, c):
                break
        if not ears:
            raise ValueError(f"a face of {len(face)} corners could not be cut into triangles")
        fine = [i for i in ears if clashing is None
                or not clashing(poly[i - 1], poly[(i + 1) % n])]
        i = fine[0] if fine else ears[0]
        out.append((poly[i - 1], poly[i], poly[(i + 1) % n]))
        del poly[i]
    out.append((poly[0], poly[1], poly[2]))
    return out


def _inside_triangle(p: Point, a: Point, b: Point, c: Point) -> bool:
    return _orient(a, b, p) >= 0 and _orient(b, c, p) >= 0 and _orient(c, a, p) >= 0


def merge(pieces: Iterable[Sequence[Point]]) -> list[list[Point]]:
    """The outline rings of the union of pieces that meet edge to edge."""
    edges: dict[tuple[Point, Point], int] = {}
    for ring in pieces:
        for i in range(len(ring)):
            e = (ring[i - 1], ring[i])
            back = (e[1], e[0])
            if back in edges:
                edges[back] -= 1
                if not edges[back]:
                    del edges[back]
            else:
                edges[e] = edges.get(e, 0) + 1
    nxt: dict[Point, list[Point]] = {}
    for (a, b), count in edges.items():
        nxt.setdefault(a, []).extend([b] * count)
    rings: list[list[Point]] = []
    while nxt:
        start = next(iter(nxt))
        ring = [start]
        p = nxt[start].pop()
        if not nxt[start]:
            del nxt[start]
        while p != start:
            ring.append(p)
            q = nxt[p].pop()
            if not nxt[p]:
                del nxt[p]
            p = q
        rings.append(ring)
    return rings


@runtime_checkable
class Planned(Protocol):
    """A drawing whose geometry is built here (written by ``tools/layout.py``)."""

    @property
    def geometry_path(self) -> Path: ...

    def plan(self) -> Plan: ...
