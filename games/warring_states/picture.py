"""The picture of a Warring States game: the shared Diplomacy drawing on
the region geometry of our map (``geometry.yaml``), with its walls and
rivers."""

from __future__ import annotations

from pathlib import Path

from games.diplomacy.picture import DiplomacyDrawing

COLOURS = {
    "Qin": "#3d3d3d",
    "Chu": "#c8372d",
    "Zhao": "#8e44ad",
    "Wei": "#2e7fc0",
    "Han": "#e08a12",
    "Yan": "#16a085",
    "Qi": "#d9b310",
}

DRAWING = DiplomacyDrawing(Path(__file__).parent, COLOURS, label_size=12.0, unit_size=11.0)
