"""Names on a map, placed where nothing covers them and they cover nothing.

A label (a province's name) has a point it belongs to and a few places
around it to try, in order of preference: below the unit's point, above it,
beside it... The first place whose box (the text as DejaVu Sans sets it,
with its halo) is inside the map's frame and clear of every arrow, line,
unit, marker and label drawn there is taken, preferring one inside the
label's own region; failing that, the place with the fewest things under it.
Labels are drawn last, over everything else, so a label is never covered.

What counts as "in the way" (:func:`obstacles`): every line, circle, rect and
text of a scene, and small filled shapes (arrowheads, diamonds), but not the
regions themselves nor the lines of the map's static layers (borders,
frontiers, walls: a name may sit across a border line).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from judge.pictures import geometry as geo
from judge.pictures.scene import Point, Scene
from judge.pictures.text import text_width

#: (left, top, right, bottom)
Box = tuple[float, float, float, float]

#: Where to try a label, relative to its point, in order (below the unit
#: first, as the maps always had it).
AROUND: tuple[Point, ...] = ((0, 29), (0, -26), (1, 0), (-1, 0), (0, 42), (0, -39),
                             (1, 24), (-1, 24), (1, -24), (-1, -24))
CELL = 64.0


@dataclass(frozen=True)
class Label:
    """A name to place near ``at`` (``region``: the rings it belongs in)."""

    at: Point
    text: str
    size: float
    fill: str = "#222222"
    italic: bool = False
    bold: bool = False
    region: Sequence[Sequence[Point]] | None = None
    #: Half the width of what stands on ``at`` (a unit), for the side places.
    beside: float = 16.0


def text_box(c: Point, text: str, size: float, *, bold: bool = False, italic: bool = False,
             anchor: str = "middle", halo: bool = True) -> Box:
    """The box of ``text`` written by :meth:`Scene.text` at ``c`` (its halo too)."""
    w = text_width(text, size, bold) + (0.15 * size if italic else 0.0)
    pad = size / 8 if halo else 0.0
    x0 = c[0] - w / 2 if anchor == "middle" else c[0]
    # Scene.text puts the baseline at y + 0.35 size; DejaVu's ascent is about
    # 0.76 size (capitals 0.73) and its descent 0.24.
    base = c[1] + 0.35 * size
    return (x0 - pad, base - 0.76 * size - pad, x0 + w + pad, base + 0.24 * size + pad)


# ---------------------------------------------------------------- geometry
def _segment_hits_box(a: Point, b: Point, half: float, box: Box) -> bool:
    """Does segment a-b, ``half`` wide on each side, touch ``box``?"""
    x0, y0, x1, y1 = box[0] - half, box[1] - half, box[2] + half, box[3] + half
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - x0), (dx, x1 - a[0]), (-dy, a[1] - y0), (dy, y1 - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True


def _circle_hits_box(c: Point, r: float, box: Box) -> bool:
    nx = min(max(c[0], box[0]), box[2])
    ny = min(max(c[1], box[1]), box[3])
    return math.hypot(c[0] - nx, c[1] - ny) < r


def _boxes_meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@dataclass(frozen=True)
class Obstacle:
    """Something drawn that a label must not cover."""

    kind: str  # "segment", "circle" or "box"
    bbox: Box
    a: Point = (0.0, 0.0)
    b: Point = (0.0, 0.0)
    r: float = 0.0

    def hits(self, box: Box) -> bool:
        if not _boxes_meet(self.bbox, box):
            return False
        if self.kind == "segment":
            return _segment_hits_box(self.a, self.b, self.r, box)
        if self.kind == "circle":
            return _circle_hits_box(self.a, self.r, box)
        return True


def _segment(a: Point, b: Point, half: float) -> Obstacle:
    return Obstacle("segment", (min(a[0], b[0]) - half, min(a[1], b[1]) - half,
                                max(a[0], b[0]) + half, max(a[1], b[1]) + half), a, b, half)


def _static(scene: Scene) -> set[int]:
    out: set[int] = set()
    for start, layer in scene.layers:
        out.update(range(start, start + len(layer)))
    return out


def obstacles(scene: Scene, skip: Iterable[int] = ()) -> list[Obstacle]:
    """What is in the way of a label in ``scene`` (see the module's docstring);
    ``skip``: indices of items not to count (the labels themselves)."""
    static = _static(scene)
    skipped = set(skip)
    out: list[Obstacle] = []
    for i, (kind, _, args) in enumerate(scene.items):
        if i in skipped:
            continue
        out += _of(kind, args, i in static)
    return out


def _of(kind: str, args: tuple[object, ...], static: bool) -> list[Obstacle]:
    if kind == "line" and not static:
        points, _stroke, width = args[0], args[1], args[2]
        assert isinstance(points, list) and isinstance(width, float | int)
        return [_segment(points[i], points[i + 1], width / 2) for i in range(len(points) - 1)]
    if kind == "circle":
        c, r, _fill, stroke, width = args[:5]
        assert isinstance(r, float | int) and isinstance(width, float | int)
        rr = r + (width / 2 if stroke else 0.0)
        assert isinstance(c, tuple)
        return [Obstacle("circle", (c[0] - rr, c[1] - rr, c[0] + rr, c[1] + rr), c, r=rr)]
    if kind == "rect":
        x, y, w, h, _fill, stroke, width = args[:7]
        assert all(isinstance(v, float | int) for v in (x, y, w, h, width))
        half = width / 2 if stroke else 0.0  # type: ignore[operator]
        return [Obstacle("box", (x - half, y - half, x + w + half, y + h + half))]  # type: ignore[operator]
    if kind == "shape":
        rings = args[0]
        assert isinstance(rings, list)
        if sum(len(r) for r in rings) > 4:
            return []  # a region, not a mark on it
        xs = [p[0] for r in rings for p in r]
        ys = [p[1] for r in rings for p in r]
        return [Obstacle("box", (min(xs), min(ys), max(xs), max(ys)))]
    if kind == "text":
        c, text, size, _fill, anchor, bold = args[:6]
        halo = args[6] if len(args) > 6 else None
        assert isinstance(c, tuple) and isinstance(text, str) and isinstance(size, float | int)
        box = text_box(c, text, float(size), bold=bool(bold), anchor=str(anchor),
                       halo=bool(halo))
        return [Obstacle("box", box)]
    return []


class _Grid:
    """Obstacles bucketed by cells of the picture, for quick look-ups."""

    def __init__(self, found: Iterable[Obstacle]) -> None:
        self.cells: dict[tuple[int, int], list[Obstacle]] = {}
        for o in found:
            self.add(o)

    def _cells(self, box: Box) -> Iterable[tuple[int, int]]:
        for i in range(math.floor(box[0] / CELL), math.floor(box[2] / CELL) + 1):
            for j in range(math.floor(box[1] / CELL), math.floor(box[3] / CELL) + 1):
                yield (i, j)

    def add(self, o: Obstacle) -> None:
        for cell in self._cells(o.bbox):
            self.cells.setdefault(cell, []).append(o)

    def count(self, box: Box) -> int:
        seen: set[int] = set()
        for cell in self._cells(box):
            for o in self.cells.get(cell, ()):
                if id(o) not in seen and o.hits(box):
                    seen.add(id(o))
        return len(seen)


def inside(box: Box, frame: Box) -> bool:
    return (box[0] >= frame[0] and box[1] >= frame[1] and box[2] <= frame[2]
            and box[3] <= frame[3])


def place(scene: Scene, labels: Sequence[Label], frame: Box) -> None:
    """Write ``labels`` on ``scene``, each where it is clearest (see the
    module's docstring), inside ``frame``; their items' indices are kept in
    ``scene.labels``."""
    grid = _Grid(obstacles(scene))
    # Every name at its first place: a layer the same in every scene of the
    # drawing, whose pixels the PNG keeps and lays in for the names that
    # stand there (Scene.stamp), rather than rendering them each time.
    first = Scene(scene.width, scene.height)
    placed: list[tuple[int, Point, Point, int]] = []  # (item, where, first place, hits)
    for label in labels:
        best: tuple[tuple[int, int, int, int], Point] | None = None
        width = text_width(label.text, label.size, label.bold)
        for rank, (dx, dy) in enumerate(AROUND):
            if dx:  # beside: clear of the unit, the text's near end at the side
                c = (label.at[0] + dx * (label.beside + 4 + width / 2), label.at[1] + dy)
            else:
                c = (label.at[0], label.at[1] + dy)
            if rank == 0:
                first.text(c, label.text, size=label.size, fill=label.fill, halo="#ffffff",
                           italic=label.italic, bold=label.bold)
                home_place = c
            box = text_box(c, label.text, label.size, bold=label.bold, italic=label.italic)
            outside = 0 if inside(box, frame) else 1
            hits = grid.count(box)
            home = 0 if label.region is None or geo.contains(label.region, c) else 1
            score = (outside, hits, home, rank)
            if best is None or score < best[0]:
                best = (score, c)
            if score[:3] == (0, 0, 0):
                break
        assert best is not None
        c = best[1]
        placed.append((len(scene.items), c, home_place, best[0][1]))
        scene.labels.append(len(scene.items))
        scene.text(c, label.text, size=label.size, fill=label.fill, halo="#ffffff",
                   italic=label.italic, bold=label.bold)
        grid.add(Obstacle("box", text_box(c, label.text, label.size, bold=label.bold,
                                          italic=label.italic)))
    _stamp(scene, labels, first, placed)


def _pixels(box: Box, margin: float) -> tuple[int, int, int, int]:
    """A label's box widened by ``margin`` to whole pixels."""
    return (math.floor(box[0] - margin), math.floor(box[1] - margin),
            math.ceil(box[2] + margin), math.ceil(box[3] + margin))


def _stamp(scene: Scene, labels: Sequence[Label], first: Scene,
           placed: Sequence[tuple[int, Point, Point, int]]) -> None:
    """Stamp (Scene.stamp) the labels that stand at their first place, if
    their box holds nothing else of the first places' layer and no label
    placed over something (whose order would then matter) touches it."""
    # A stamp's box: the label's box (with its halo) and room to spare for
    # the anti-aliasing and the glyphs' overhangs; what it must not meet:
    # another name's box with a pixel of anti-aliasing.
    own = [_pixels(text_box(home, label.text, label.size, bold=label.bold,
                            italic=label.italic), label.size / 8 + 2)
           for label, (_, _, home, _) in zip(labels, placed, strict=True)]
    homes = [_pixels(text_box(home, label.text, label.size, bold=label.bold,
                              italic=label.italic), 1)
             for label, (_, _, home, _) in zip(labels, placed, strict=True)]
    crowded = [_pixels(text_box(c, label.text, label.size, bold=label.bold,
                                italic=label.italic), 1)
               for label, (_, c, _, hits) in zip(labels, placed, strict=True) if hits]

    def meet(a: tuple[int, int, int, int], b: tuple[int, int, int, int]) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    boxes = {}
    for i, (index, c, home, hits) in enumerate(placed):
        if c != home or hits:
            continue
        if any(meet(own[i], other) for j, other in enumerate(homes) if j != i):
            continue
        if any(meet(own[i], other) for other in crowded):
            continue
        boxes[index] = own[i]
    if boxes:
        scene.stamp(first.items, boxes)


def covered(scene: Scene, frame: Box) -> list[tuple[str, str]]:
    """The scene's labels that something covers or the frame cuts:
    (label, what: "frame" or the kind of thing over it)."""
    out: list[tuple[str, str]] = []
    labels = set(scene.labels)
    static = _static(scene)
    for i in scene.labels:
        _, _, args = scene.items[i]
        c, text, size, _fill, _anchor, bold = args[:6]
        italic = bool(args[7]) if len(args) > 7 else False
        box = text_box(c, text, size, bold=bold, italic=italic)
        if not inside(box, frame):
            out.append((text, "frame"))
        for j, (kind, _, other) in enumerate(scene.items):
            if j == i or (j in labels and j > i):
                continue
            if any(o.hits(box) for o in _of(kind, other, j in static)):
                out.append((text, kind))
    return out
