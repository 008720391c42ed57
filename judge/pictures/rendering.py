"""A scene's SVG rendered as a PNG: one drawing path, anti-aliased, and the
same bytes for the same SVG.

The SVG is the picture; the PNG is its rendering by libvips' SVG loader
(librsvg, through ``pyvips`` and the libvips build that ``pyvips-binary``
ships), read back as pixels and reduced by Pillow to a 256-colour palette
(fast octree, no dithering: the same pixels give the same palette). A map's
anti-aliased edges make a true-colour PNG some 300 KB; a map has a few
dozen flat colours and the blends along their edges, so the palette keeps
it near 100 KB with no visible change.

Text is set in DejaVu Sans, the font the scenes name: Debian's
fonts-dejavu-core, found in :data:`FONT_DIR` through fontconfig (a
missing font is an error here, not a silent fallback to another).

A scene with static layers (:meth:`judge.pictures.scene.Scene.layer`: a
map's land and sea, its borders and markers, the same in every position)
is rendered in runs (:func:`composed`): each static layer's SVG is rendered
once per map and size and its pixels kept (:data:`LAYER_CACHE_BYTES`), the
parts between them that change with the position are rendered on a
transparent canvas, and the runs are laid over each other in order
(Pillow's alpha compositing). The result is the scene's SVG rendered, to
within the rounding of the blends along the edges (a level or three of
255); librsvg's cost is mostly in the map's outlines, which a position
then no longer pays for.
"""

from __future__ import annotations

import hashlib
import io
import logging
import zlib
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any

from PIL import Image

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
#: The faces the scenes use: regular, bold, italic (sea names), bold italic.
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
              "DejaVuSans-BoldOblique.ttf")
COLOURS = 256
#: Pictures of this many pixels and more have their palette chosen shrunk.
SHRUNK_FROM = 400_000


class MissingFont(RuntimeError):
    """DejaVu Sans is not installed where the pictures look for it."""


@cache
def vips() -> Any:
    """libvips, once the pictures' font is known to be there."""
    missing = [name for name in FONT_FILES if not (FONT_DIR / name).is_file()]
    if missing:
        raise MissingFont(f"the pictures' font is missing: {', '.join(missing)} in {FONT_DIR} "
                          "(install Debian's fonts-dejavu-core)")
    import pyvips  # type: ignore[import-untyped]  # no type hints published

    # libvips reports each render's thread pool at INFO through this logger:
    # noise in the judge's log, one line per picture.
    logging.getLogger("pyvips").setLevel(logging.WARNING)
    pyvips.cache_set_max(0)  # every SVG is new: keep no operations
    return pyvips


def pixels(svg: str) -> Image.Image:
    """``svg`` rendered, as an RGB image (every scene paints an opaque
    background first: no transparency is lost)."""
    im = vips().Image.svgload_buffer(svg.encode("utf-8"))
    if im.bands == 4:
        im = im.extract_band(0, n=3)
    return Image.frombuffer("RGB", (im.width, im.height), im.write_to_memory(), "raw", "RGB",
                            0, 1)


def png(svg: str) -> bytes:
    """The PNG of ``svg``: rendered, reduced to a palette."""
    return png_of(pixels(svg))


def png_of(full: Image.Image) -> bytes:
    """The PNG of rendered pixels: reduced to a palette, encoded."""
    return encode(indexed(full, palette_of(full)))


#: The static layers' pixels kept, at most this many bytes of them (a
#: classic map's two layers and its names take 30 MB, the four maps' 81 MB):
#: least recently used go first.
LAYER_CACHE_BYTES = 128 * 1024 * 1024
_layers: OrderedDict[str, Image.Image] = OrderedDict()


def composed(runs: Sequence[tuple[bool, str]],
             stamped: tuple[str, Sequence[tuple[int, int, int, int]]] | None = None
             ) -> Image.Image:
    """The pixels of a scene painted in ``runs``: (static?, the SVG document
    of that run), in painting order; the first run paints the background,
    the others are transparent where they paint nothing. A static run's
    pixels are kept (:data:`LAYER_CACHE_BYTES`) by its document's digest, so
    the same layer on another scene of the map is not rendered again.
    ``stamped``: a layer (an SVG document, kept likewise) laid last, in
    each of its boxes only (:meth:`judge.pictures.scene.Scene.stamp`: the
    names that stand at their first place)."""
    canvas: Image.Image | None = None
    for static, svg in runs:
        over = layer(svg) if static else rgba(svg)
        canvas = over if canvas is None else Image.alpha_composite(canvas, over)
    if canvas is None:
        raise ValueError("a scene has at least one run to paint")
    if stamped is not None:
        names, boxes = stamped
        kept = layer(names)
        for left, top, right, bottom in boxes:
            box = (max(left, 0), max(top, 0), min(right, canvas.width), min(bottom, canvas.height))
            if box[0] < box[2] and box[1] < box[3]:
                canvas.alpha_composite(kept, dest=box[:2], source=box)
    return canvas.convert("RGB")


def layer(svg: str) -> Image.Image:
    """A static layer's pixels: rendered the first time, then kept."""
    digest = hashlib.sha256(svg.encode("utf-8")).hexdigest()
    hit = _layers.get(digest)
    if hit is not None:
        _layers.move_to_end(digest)
        return hit
    drawn = rgba(svg)
    _layers[digest] = drawn
    while sum(_size(im) for im in _layers.values()) > LAYER_CACHE_BYTES and len(_layers) > 1:
        _layers.popitem(last=False)
    return drawn


def _size(im: Image.Image) -> int:
    return im.width * im.height * len(im.getbands())


def forget_layers() -> None:
    """Drop the kept static layers (a bench measuring a first drawing)."""
    _layers.clear()


def rgba(svg: str) -> Image.Image:
    """``svg`` rendered as an RGBA image (straight alpha: libvips undoes
    cairo's premultiplied pixels)."""
    im = vips().Image.svgload_buffer(svg.encode("utf-8"))
    mode = "RGBA" if im.bands == 4 else "RGB"
    out = Image.frombuffer(mode, (im.width, im.height), im.write_to_memory(), "raw", mode, 0, 1)
    return out if mode == "RGBA" else out.convert("RGBA")


def palette_of(full: Image.Image) -> Image.Image:
    """The 256 colours ``full`` is reduced to (as a palette image)."""
    # The palette is chosen on the picture shrunk fourfold (a sixteenth of
    # the pixels: a quarter of the time), then every pixel takes its nearest
    # colour: the flat colours are all there, and an edge's blends are near.
    # (A small picture, whose shrunk copy would lose its edges' blends, is
    # chosen on whole.)
    sample = full.reduce(4) if full.width * full.height >= SHRUNK_FROM else full
    return sample.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def indexed(full: Image.Image, palette: Image.Image) -> Image.Image:
    """Every pixel of ``full`` as its nearest colour of ``palette``."""
    return full.quantize(palette=palette, dither=Image.Dither.NONE)


def encode(small: Image.Image) -> bytes:
    """A palette image's PNG bytes."""
    buf = io.BytesIO()
    # Run-length zlib: long runs of one palette index; quicker than the
    # default strategy for some 10% more bytes.
    small.save(buf, "PNG", compress_level=6, compress_type=zlib.Z_RLE)
    return buf.getvalue()
