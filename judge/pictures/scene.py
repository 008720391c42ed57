"""A picture as a list of SVG elements, and the few shapes maps are drawn with.

Written by hand rather than through an SVG library: a map needs polygons,
lines, circles and text, and a plain string keeps a drawing well inside its
time budget. Every number is rounded to one decimal so that the same scene
always gives the same bytes (the picture cache and the golden images rely
on it).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol
from xml.sax.saxutils import escape, quoteattr

Point = tuple[float, float]
#: One element of a scene: (kind, svg element, its arguments: what tests and
#: the label placement read back).
Item = tuple[str, str, tuple[Any, ...]]

FONT = "DejaVu Sans"


def _n(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text


def path_of(rings: Iterable[Sequence[Point]]) -> str:
    """SVG path data of closed rings."""
    out = []
    for ring in rings:
        if len(ring) < 2:
            continue
        out.append("M" + " ".join(f"{_n(x)} {_n(y)}" for x, y in ring) + "Z")
    return "".join(out)


#: Characters :func:`~xml.sax.saxutils.quoteattr` would change or choose quotes by.
_QUOTED = frozenset("&<>\"'\n\r\t")


def attrs(**kw: str | float | None) -> str:
    parts = []
    for k, v in kw.items():
        if v is None:
            continue
        name = k.rstrip("_").replace("_", "-")
        if isinstance(v, float | int):
            parts.append(f'{name}="{_n(v)}"')  # a number: nothing to escape
        elif _QUOTED.isdisjoint(v):
            parts.append(f'{name}="{v}"')  # what quoteattr gives, without its work
        else:
            parts.append(f"{name}={quoteattr(v)}")
    return " ".join(parts)


@dataclass
class Scene:
    """A drawing being built: ``width`` x ``height`` units, as a list of
    shapes that :meth:`svg` writes as SVG; :meth:`png` is that SVG rendered
    (:mod:`judge.pictures.rendering`)."""

    width: int
    height: int
    background: str = "#ffffff"
    #: (kind, svg element, its arguments)
    items: list[Item] = field(default_factory=list)
    #: The static layers among the items: (index of the first, the layer).
    layers: list[tuple[int, Sequence[Item]]] = field(default_factory=list)
    #: The indices of the items that are labels (:mod:`judge.pictures.labels`).
    labels: list[int] = field(default_factory=list)
    #: Labels painted from a kept layer rather than rendered (:meth:`stamp`).
    stamps: tuple[Sequence[Item], dict[int, tuple[int, int, int, int]]] | None = None

    def extend(self, items: Iterable[Item]) -> None:
        self.items.extend(items)

    def layer(self, items: Sequence[Item]) -> None:
        """Add ``items`` as a static layer: one sequence, never changed,
        that every scene of a drawing shares (a map's land and sea, its
        borders, markers). Its lines are the map's own (borders, walls,
        frontiers), which a name may sit across (:mod:`judge.pictures.labels`)."""
        self.layers.append((len(self.items), items))
        self.items.extend(items)

    def stamp(self, layer: Sequence[Item], boxes: Mapping[int, tuple[int, int, int, int]]) -> None:
        """Mark labels of the scene (by index) as elements of ``layer`` too
        (a drawing's every name at its first place, the same in every
        scene: :func:`judge.pictures.labels.place`): the PNG lays that
        layer's pixels, rendered once and kept, in each one's box (left,
        top, right, bottom pixels: all it paints, and nothing else of
        ``layer``) instead of rendering it. The SVG is unchanged; a stamp
        is laid last, so only labels drawn after everything but other
        labels are stamped (:meth:`runs` checks it)."""
        self.stamps = (layer, dict(boxes))

    def _stamped(self) -> dict[int, tuple[int, int, int, int]]:
        """The stamped items' boxes, if every item after the first of them
        is a label (else none: they are rendered as the others)."""
        if self.stamps is None or not self.stamps[1]:
            return {}
        first = min(self.stamps[1])
        labels = set(self.labels)
        if any(i not in labels for i in range(first, len(self.items))) or any(
                start + len(items) > first for start, items in self.layers):
            return {}
        return self.stamps[1]

    def shape(self, rings: Iterable[Sequence[Point]], fill: str, stroke: str | None = None,
              width: float = 1.0, region: str | None = None) -> None:
        """Closed rings (``region``: the name of the region they draw, kept
        as the element's ``class`` in the SVG)."""
        rings = [r for r in rings if len(r) > 2]
        d = path_of(rings)
        if d:
            el = f"<path {attrs(class_=f'region {region}' if region else None, d=d, fill=fill, fill_rule='evenodd', stroke=stroke, stroke_width=width if stroke else None, stroke_linejoin='round' if stroke else None)}/>"  # noqa: E501
            self.items.append(("shape", el, (rings, fill, stroke, width)))

    def line(self, points: Sequence[Point], stroke: str, width: float = 2.0,
             dash: str | None = None) -> None:
        if len(points) < 2:
            return
        d = "M" + " L".join(f"{_n(x)} {_n(y)}" for x, y in points)
        el = f"<path {attrs(d=d, fill='none', stroke=stroke, stroke_width=width, stroke_linecap='round', stroke_linejoin='round', stroke_dasharray=dash)}/>"  # noqa: E501
        self.items.append(("line", el, (list(points), stroke, width, dash)))

    def circle(self, c: Point, r: float, fill: str, stroke: str | None = None,
               width: float = 1.0) -> None:
        el = f"<circle {attrs(cx=c[0], cy=c[1], r=r, fill=fill, stroke=stroke, stroke_width=width if stroke else None)}/>"  # noqa: E501
        self.items.append(("circle", el, (c, r, fill, stroke, width)))

    def rect(self, x: float, y: float, w: float, h: float, fill: str, stroke: str | None = None,
             width: float = 1.0, rx: float = 0.0) -> None:
        el = f"<rect {attrs(x=x, y=y, width=w, height=h, rx=rx or None, fill=fill, stroke=stroke, stroke_width=width if stroke else None)}/>"  # noqa: E501
        self.items.append(("rect", el, (x, y, w, h, fill, stroke, width, rx)))

    def text(self, c: Point, text: str, size: float = 12.0, fill: str = "#000000",
             anchor: str = "middle", bold: bool = False, halo: str | None = None,
             italic: bool = False) -> None:
        """Text centred (by default; ``anchor="start"``: starting) on ``c``;
        ``halo``: an outline that keeps it legible over any colour."""
        extra = {
            "font_weight": "bold" if bold else None,
            "font_style": "italic" if italic else None,
            "stroke": halo,
            "stroke_width": size / 4 if halo else None,
            "paint_order": "stroke" if halo else None,
            "stroke_linejoin": "round" if halo else None,
        }
        el = f"<text {attrs(x=c[0], y=c[1] + size * 0.35, font_size=size, font_family=FONT, text_anchor=anchor, fill=fill, **extra)}>{escape(text)}</text>"  # noqa: E501
        self.items.append(("text", el, (c, text, size, fill, anchor, bold, halo, italic)))

    def arrow(self, points: Sequence[Point], stroke: str, width: float = 3.0,
              head: float = 12.0, dash: str | None = None, shorten: float = 0.0) -> None:
        """A line through ``points`` ending in an arrowhead at the last one
        (drawn ``shorten`` units before it, so it stops at a unit's edge)."""
        pts = list(points)
        if len(pts) < 2:
            return
        (x1, y1), (x2, y2) = pts[-2], pts[-1]
        d = math.hypot(x2 - x1, y2 - y1)
        if d < 1e-6:
            return
        ux, uy = (x2 - x1) / d, (y2 - y1) / d
        cut = min(shorten, d * 0.5)
        tip = (x2 - ux * cut, y2 - uy * cut)
        base = (tip[0] - ux * head, tip[1] - uy * head)
        self.line([*pts[:-1], base], stroke, width, dash=dash)
        left = (base[0] - uy * head * 0.5, base[1] + ux * head * 0.5)
        right = (base[0] + uy * head * 0.5, base[1] - ux * head * 0.5)
        self.shape([[tip, left, right]], fill=stroke)

    def cross(self, c: Point, size: float, stroke: str = "#d00000", width: float = 4.0) -> None:
        """An X: a failed order."""
        s = size / 2
        self.line([(c[0] - s, c[1] - s), (c[0] + s, c[1] + s)], stroke, width)
        self.line([(c[0] - s, c[1] + s), (c[0] + s, c[1] - s)], stroke, width)

    def svg(self) -> str:
        return self._document(self.items, background=True)

    def _document(self, items: Iterable[Item], background: bool) -> str:
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.width}" '
                f'height="{self.height}" viewBox="0 0 {self.width} {self.height}">')
        bg = (f'<rect width="{self.width}" height="{self.height}" fill="{self.background}"/>'
              if background else "")
        return head + bg + "\n".join(el for _, el, _ in items) + "</svg>\n"

    def runs(self) -> list[tuple[bool, str]]:
        """The scene as SVG documents painted one over the other: (is it a
        static layer?, its document). The first paints the background; a
        static layer is a run of its own (:func:`judge.pictures.rendering.composed`
        keeps its pixels), and so is each stretch of items between them."""
        cuts: list[tuple[bool, Sequence[Item]]] = []
        at = 0
        for start, items in self.layers:
            if start > at:
                cuts.append((False, self.items[at:start]))
            cuts.append((True, items))
            at = start + len(items)
        if at < len(self.items) or not cuts:
            stamped = self._stamped()
            cuts.append((False, [item for i, item in enumerate(self.items[at:], at)
                                 if i not in stamped]))
        return [(static, self._document(items, background=i == 0))
                for i, (static, items) in enumerate(cuts)]

    def stamped(self) -> tuple[str, list[tuple[int, int, int, int]]] | None:
        """The stamps' layer as an SVG document and the boxes to lay it in
        (:meth:`stamp`), or None."""
        boxes = self._stamped()
        if not boxes or self.stamps is None:
            return None
        return self._document(self.stamps[0], background=False), sorted(boxes.values())

    def png(self) -> bytes:
        """The PNG of the scene: its SVG rendered (a scene with no static
        layer in one pass, one with layers in runs: :meth:`runs`)."""
        from judge.pictures import rendering

        stamped = self.stamped()
        if not self.layers and stamped is None:
            return rendering.png(self.svg())
        return rendering.png_of(rendering.composed(self.runs(), stamped))


def toward(a: Point, b: Point, t: float) -> Point:
    """The point a fraction ``t`` of the way from ``a`` to ``b``."""
    return (a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t)


class Drawing(Protocol):
    """How one game draws a view of itself (``judge_games/<id>/picture.py``).

    A drawing may also say which top-level keys of a view its scene reads,
    as a ``reads`` attribute (a frozenset of names): readers whose views
    agree on those keys then share one picture, built once
    (:func:`judge.pictures.picture`). Without it, only readers with equal
    views share one. A test reads every drawing's views through a mapping
    that records each key asked for, so a ``reads`` that forgets a key fails.
    """

    def scene(self, view: Mapping[str, Any], results: Sequence[Mapping[str, Any]]) -> Scene:
        """The scene of ``view``, with the result events ``results`` (may be empty)."""
        ...
