"""The picture of a Warring States game: the shared Diplomacy drawing on
the region geometry of our map (``geometry.yaml``), with its walls and
rivers."""

from __future__ import annotations

from pathlib import Path

from games.diplomacy.picture import DiplomacyDrawing

COLOURS = {
    "Qin": "#323f4c",
    "Chu": "#c8372d",
    "Zhao": "#8e44ad",
    "Wei": "#088a99",
    "Han": "#e08a12",
    "Yan": "#3eb278",
    "Qi": "#e6d00b",
}

DRAWING = DiplomacyDrawing(Path(__file__).parent, COLOURS, label_size=12.0, unit_size=11.0)
