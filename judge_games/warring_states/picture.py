"""The picture of a Warring States game: the shared Diplomacy drawing on
the region geometry of our map (``geometry.yaml``), with its walls and
rivers."""

from __future__ import annotations

from pathlib import Path

from judge_games.diplomacy.picture import DiplomacyDrawing

COLOURS = {
    "Qin": "#3d2d80",
    "Chu": "#c8372d",
    "Zhao": "#99085f",
    "Wei": "#088a99",
    "Han": "#e08a12",
    "Yan": "#59b274",
    "Qi": "#e6e60b",
}

DRAWING = DiplomacyDrawing(Path(__file__).parent, COLOURS, label_size=12.0, unit_size=11.0)
