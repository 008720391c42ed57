"""Diplomacy of the Three Kingdoms (Edi Birsan): leaders, militia and diplomatic status.

``SPEC`` is the game's record, ``GAME`` the game as the judge plays it,
``RULES`` the Diplomacy family's game over Three Kingdoms' variant record
(game.py; reading orders: legality.py; the Great Turn: phases.py; the
board's rules: rules.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.game.spec import game_of
from judge_games.diplomacy import DiplomacyGame, record
from judge_games.three_kingdoms.game import three_kingdoms

if TYPE_CHECKING:
    from judge.pictures.scene import Drawing

RULES = DiplomacyGame(three_kingdoms())


def _drawing() -> Drawing:
    from judge_games.three_kingdoms.picture import DRAWING  # loaded when first drawn

    return DRAWING


SPEC = record(RULES, drawing=_drawing)

GAME = game_of(SPEC)
"""The game as the judge plays it (the one the registry gives)."""

__all__ = ["GAME", "RULES", "SPEC", "three_kingdoms"]
