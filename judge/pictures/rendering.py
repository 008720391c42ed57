"""A scene's SVG rendered as a PNG, by resvg (the ``resvg`` package, a
binding of the Rust SVG renderer): one drawing path, anti-aliased, and the
same bytes for the same SVG.

The SVG is the picture; the PNG is its rendering. resvg writes an RGBA
PNG; a map's anti-aliased edges make that some 300 KB, so it is reduced
here to a 256-colour palette (Pillow's fast octree, no dithering: the same
pixels give the same palette), which keeps a map within the 150 KB budget
with no visible change: a map has a few dozen flat colours and the blends
along their edges.

Text is set in DejaVu Sans (Debian's fonts-dejavu-core, the font the
scene names), loaded from :data:`FONT_DIR`; the system's fonts are not
searched, so the rendering does not change with what else is installed.
"""

from __future__ import annotations

import io
import zlib
from functools import cache
from pathlib import Path

from PIL import Image
from resvg import render, usvg

FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
#: The faces the scenes use: regular, bold, italic (sea names), bold italic.
FONT_FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSans-Oblique.ttf",
              "DejaVuSans-BoldOblique.ttf")
IDENTITY = (1.0, 0.0, 0.0, 0.0, 1.0, 0.0)
COLOURS = 256


class MissingFont(RuntimeError):
    """DejaVu Sans is not installed where the pictures look for it."""


@cache
def options() -> usvg.Options:
    """resvg's options with the picture fonts loaded (once per process)."""
    opts = usvg.Options.default()
    missing = [name for name in FONT_FILES if not (FONT_DIR / name).is_file()]
    if missing:
        raise MissingFont(f"the pictures' font is missing: {', '.join(missing)} in {FONT_DIR} "
                          "(install Debian's fonts-dejavu-core)")
    for name in FONT_FILES:
        opts.load_font_file(str(FONT_DIR / name))
    opts.font_family = "DejaVu Sans"
    return opts


def png(svg: str) -> bytes:
    """The PNG of ``svg``: rendered by resvg, reduced to a palette."""
    tree = usvg.Tree.from_str(svg, options())
    rgba = Image.open(io.BytesIO(bytes(render(tree, IDENTITY))))
    # Every scene paints an opaque background first: no transparency is lost.
    flat = rgba.convert("RGB")
    small = flat.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    buf = io.BytesIO()
    # Run-length zlib: long runs of one palette index; quicker than the
    # default strategy for some 10% more bytes.
    small.save(buf, "PNG", compress_level=6, compress_type=zlib.Z_RLE)
    return buf.getvalue()
