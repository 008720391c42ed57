"""The picture of a classic game: the shared Diplomacy drawing on our own
region geometry of the standard map (``geometry.yaml``, see README.md)."""

from __future__ import annotations

from pathlib import Path

from games.diplomacy.picture import DiplomacyDrawing

COLOURS = {
    "Austria": "#d8473d",
    "England": "#2f4fb3",
    "France": "#3eb2b2",
    "Germany": "#665233",
    "Italy": "#3eb26d",
    "Russia": "#9a6cc4",
    "Turkey": "#e6bf1c",
}

DRAWING = DiplomacyDrawing(Path(__file__).parent, COLOURS)
