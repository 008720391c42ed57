"""Standard Diplomacy on the 1901 map: the reference game of the Diplomacy family.

``SPEC`` is the game's record, ``GAME`` the game as the judge plays it,
``RULES`` the rules object the record is made from."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from judge.game.spec import game_of
from judge_games.diplomacy import DiplomacyGame, load_map, record
from judge_games.diplomacy.standard import standard

if TYPE_CHECKING:
    from judge.pictures.scene import Drawing

RULES = DiplomacyGame(
    standard(
        load_map(Path(__file__).with_name("map.yaml")),
        id="classic",
        title="Diplomacy",
        aliases=("standard", "diplomacy", "dip"),
    )
)


def _drawing() -> Drawing:
    from judge_games.classic.picture import DRAWING  # loaded when first drawn

    return DRAWING


SPEC = record(RULES, drawing=_drawing)

GAME = game_of(SPEC)
"""The game as the judge plays it (the one the registry gives)."""

__all__ = ["GAME", "RULES", "SPEC"]
