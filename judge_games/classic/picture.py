"""The picture of a classic game: the shared Diplomacy drawing on our own
region geometry of the standard map (``geometry.yaml``, see README.md)."""

from __future__ import annotations

from pathlib import Path

from judge_games.diplomacy.picture import DiplomacyDrawing

COLOURS = {
    "Austria": "#d8473d",
    "England": "#2f4fb3",
    "France": "#24b2b2",
    "Germany": "#4c3e04",
    "Italy": "#8fcc66",
    "Russia": "#cc29ab",
    "Turkey": "#e6bf1c",
}

DRAWING = DiplomacyDrawing(Path(__file__).parent, COLOURS)
