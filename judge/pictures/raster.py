"""A scene drawn as a palette PNG with Pillow.

Flat colours on a palette image: no anti-aliasing, which keeps a map picture
small (tens of kilobytes) and quick to draw and encode. Text uses DejaVu Sans,
shipped with the package (:mod:`judge.fonts`).
"""

from __future__ import annotations

import dataclasses
import io
import itertools
import math
import zlib
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any

from PIL import Image, ImageDraw, ImageFont

from judge import fonts

if TYPE_CHECKING:
    from judge.pictures.scene import Item, Point, Scene

FONT_DIR = fonts.folder()
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


class KeptMasks(ImageFont.FreeTypeFont):
    """A font that keeps the masks it rendered: a map writes the same names
    and unit letters at the same places on every picture, and rendering a
    string with FreeType is most of what painting a map costs. Pillow's
    ``ImageDraw.text`` asks the font for a mask (``getmask2``) and stamps
    it; this hands back the one made the last time for the same arguments
    (the ink aside, which only a colour font's mask depends on)."""

    KEPT = 8192

    def __init__(self, path: str, size: int) -> None:
        super().__init__(path, size)
        self._masks: dict[tuple[Any, ...], tuple[Any, tuple[int, int]]] = {}

    def getmask2(self, text: str | bytes, mode: str = "", *args: Any,
                 **kwargs: Any) -> tuple[Any, tuple[int, int]]:
        given = [_frozen(a) for a in args]
        if mode != "RGBA" and len(given) > 5:
            given[5] = None  # the ink, passed after direction ... anchor
        named = tuple(sorted((k, _frozen(v)) for k, v in kwargs.items()
                             if k != "ink" or mode == "RGBA"))
        key = (text, mode, tuple(given), named)
        hit = self._masks.get(key)
        if hit is None:
            hit = super().getmask2(text, mode, *args, **kwargs)
            if len(self._masks) >= self.KEPT:
                self._masks.clear()
            self._masks[key] = hit
        return hit


def _frozen(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


@cache
def font(size: int, bold: bool) -> Font:
    """DejaVu Sans at ``size`` (an error naming the font file if it is missing)."""
    return KeptMasks(str(fonts.path(bold)), size)


@cache
def rgb(colour: str) -> tuple[int, int, int]:
    c = colour.lstrip("#")
    return (int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16))


def _dashes(points: Sequence[Point], pattern: Sequence[float]) -> list[list[Point]]:
    """The dashes of a polyline (``pattern``: on, off, on, off...)."""
    out: list[list[Point]] = []
    i, left, on = 0, pattern[0], True
    current: list[Point] = [points[0]]
    for (x1, y1), (x2, y2) in itertools.pairwise(points):
        seg = math.hypot(x2 - x1, y2 - y1)
        pos = 0.0
        while seg - pos > left:
            pos += left
            p = (x1 + (x2 - x1) * pos / seg, y1 + (y2 - y1) * pos / seg)
            if on:
                current.append(p)
                out.append(current)
            current = [p]
            on = not on
            i = (i + 1) % len(pattern)
            left = pattern[i]
        left -= seg - pos
        if on:
            current.append((x2, y2))
    if on and len(current) > 1:
        out.append(current)
    return out


def paint(scene: Scene) -> bytes:
    """The PNG of ``scene``. A first static layer (:meth:`Scene.layer`: a
    map's land, sea and coasts) is not painted item by item: its image is
    painted once and copied for each picture that starts with it."""
    items = scene.items
    first = next((layer for start, layer in scene.layers if start == 0), None)
    if first is not None:
        im = _base(scene.width, scene.height, scene.background, first).copy()
        rest = items[len(first):]
    else:
        im = Image.new("P", (scene.width, scene.height))
        im.putpalette(list(rgb(scene.background)))
        rest = items
    draw = ImageDraw.Draw(im)
    for kind, _, args in rest:
        _PAINTERS[kind](draw, *args)
    buf = io.BytesIO()
    # Run-length zlib: a map is long runs of one palette index; this is about
    # three times quicker than the default strategy, for some 10% more bytes.
    im.save(buf, "PNG", compress_level=6, compress_type=zlib.Z_RLE)
    return buf.getvalue()


def paint_items(scene: Scene) -> bytes:
    """``scene`` painted item by item, its layers too: what :func:`paint`
    must give the same pixels as."""
    return paint(dataclasses.replace(scene, layers=[]))


#: Painted first layers kept: (the layer itself, width, height, background, image).
_BASES_KEPT = 8
_bases: list[tuple[Sequence[Item], int, int, str, Image.Image]] = []


def _base(width: int, height: int, background: str, layer: Sequence[Item]) -> Image.Image:
    for seen, w, h, bg, im in _bases:
        if seen is layer and (w, h, bg) == (width, height, background):
            return im
    im = Image.new("P", (width, height))
    im.putpalette(list(rgb(background)))
    draw = ImageDraw.Draw(im)
    for kind, _, args in layer:
        _PAINTERS[kind](draw, *args)
    _bases.insert(0, (layer, width, height, background, im))
    del _bases[_BASES_KEPT:]
    return im


def _shape(draw: ImageDraw.ImageDraw, rings: Sequence[Sequence[Point]], fill: str,
           stroke: str | None, width: float) -> None:
    if fill != "none":
        for ring in rings:
            draw.polygon([(x, y) for x, y in ring], fill=rgb(fill))
    if stroke:
        w = max(1, round(width))
        for ring in rings:
            pts = [(x, y) for x, y in ring]
            draw.line([*pts, pts[0]], fill=rgb(stroke), width=w)


def _line(draw: ImageDraw.ImageDraw, points: Sequence[Point], stroke: str,
          width: float, dash: str | None) -> None:
    w = max(1, round(width))
    parts = [list(points)]
    if dash:
        parts = _dashes(points, [float(v) for v in dash.split()])
    for part in parts:
        draw.line([(x, y) for x, y in part], fill=rgb(stroke), width=w,
                  joint="curve" if w > 2 else None)
        if w > 3:
            r = w / 2
            for x, y in (part[0], part[-1]):
                draw.ellipse((x - r + 0.5, y - r + 0.5, x + r - 0.5, y + r - 0.5),
                             fill=rgb(stroke))


def _circle(draw: ImageDraw.ImageDraw, c: Point, r: float, fill: str,
            stroke: str | None, width: float) -> None:
    box = (c[0] - r, c[1] - r, c[0] + r, c[1] + r)
    draw.ellipse(box, fill=None if fill == "none" else rgb(fill),
                 outline=rgb(stroke) if stroke else None, width=max(1, round(width)))


def _rect(draw: ImageDraw.ImageDraw, x: float, y: float, w: float, h: float,
          fill: str, stroke: str | None, width: float, rx: float) -> None:
    draw.rounded_rectangle((x, y, x + w, y + h), radius=rx,
                           fill=None if fill == "none" else rgb(fill),
                           outline=rgb(stroke) if stroke else None, width=max(1, round(width)))


def _text(draw: ImageDraw.ImageDraw, c: Point, text: str, size: float, fill: str,
          anchor: str, bold: bool, halo: str | None) -> None:
    f = font(round(size), bold)
    draw.text(c, text, font=f, fill=rgb(fill), anchor="lm" if anchor == "start" else "mm",
              stroke_width=max(1, round(size / 8)) if halo else 0,
              stroke_fill=rgb(halo) if halo else None)


_PAINTERS: dict[str, Any] = {
    "shape": _shape,
    "line": _line,
    "circle": _circle,
    "rect": _rect,
    "text": _text,
}
