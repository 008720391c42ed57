"""The font of the pictures' text: DejaVu Sans (regular and bold), shipped
with the package (the TTF files of Debian's fonts-dejavu-core; their licence,
in ``LICENSE`` beside them, allows redistribution).

Every picture is drawn with these files, so a map looks the same on every
machine; a missing file is an error that names it, never a silent fallback
to another font.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

FAMILY = "DejaVu Sans"
FILES = {False: "DejaVuSans.ttf", True: "DejaVuSans-Bold.ttf"}


class FontMissing(FileNotFoundError):
    """A font file of the package is not installed."""


def folder() -> Path:
    """The folder holding the font files."""
    return Path(str(resources.files(__name__)))


def path(bold: bool = False) -> Path:
    """The TTF file of DejaVu Sans (bold or regular)."""
    found = folder() / FILES[bold]
    if not found.is_file():
        raise FontMissing(
            f"the font {FAMILY} {'Bold' if bold else 'Regular'} ({FILES[bold]}) is missing: "
            f"expected at {found}; it ships with the judge package, so reinstall the "
            "package (pip install --force-reinstall judge)")
    return found
