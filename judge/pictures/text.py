"""Measuring text for pictures laid out by hand (a seat circle, a field of
cards): how wide a text is drawn, fitting it to a width, wrapping it."""

from __future__ import annotations

from functools import cache, lru_cache

from PIL import ImageFont

from judge import fonts

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@cache
def font(size: int, bold: bool) -> Font:
    """DejaVu Sans (the pictures' font, as the renderer sets it) at ``size``
    pixels, for measuring: the package's own copy (:mod:`judge.fonts`), so a
    missing file is an error naming it, never another font's widths."""
    return ImageFont.truetype(str(fonts.path(bold)), size)

SMALLEST = 11.0
"""No text is drawn smaller (names legible at 100%)."""


@lru_cache(maxsize=4096)
def text_width(text: str, size: float, bold: bool = False) -> float:
    """How wide ``text`` is drawn (in pixels, DejaVu Sans)."""
    return float(font(round(size), bold).getlength(text))


#: No picture shows more of one text than this many characters (a name, a
#: card's text): a longer one is cut before it is measured, so that no text
#: a player wrote makes drawing a picture cost more than its size allows.
MAX_CHARS = 2_000


def fit(text: str, width: float, size: float, bold: bool = False) -> tuple[str, float]:
    """``text`` at the largest size down to :data:`SMALLEST` that fits
    ``width``, cut short with an ellipsis if even that is too wide (the
    longest start of it that fits, found by halving: a few measurements,
    not one per character)."""
    text = text[:MAX_CHARS]
    while size > SMALLEST and text_width(text, size, bold) > width:
        size -= 1
    if text_width(text, size, bold) <= width:
        return text, size
    lo, hi = 1, len(text) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if text_width(text[:mid] + "…", size, bold) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…", size


def wrap(text: str, width: float, size: float, bold: bool = False) -> list[str]:
    """``text`` (its first :data:`MAX_CHARS` characters) broken at spaces
    into lines no wider than ``width``."""
    lines: list[str] = []
    line = ""
    for word in text[:MAX_CHARS].split():
        trial = f"{line} {word}" if line else word
        if line and text_width(trial, size, bold) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines
