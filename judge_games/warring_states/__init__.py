"""Warring States: the seven-power Diplomacy variant of walls and river fleets.

The shared Diplomacy family (:mod:`judge_games.diplomacy`) on our map of China
about 350 BC, with the variant's record
(:data:`~judge_games.warring_states.game.VARIANT`: the rules of
:class:`~judge_games.warring_states.rules.WarringStatesRules`, its verbs and
texts). See README.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.game.spec import game_of
from judge_games.diplomacy import DiplomacyGame, record

from .game import VARIANT

if TYPE_CHECKING:
    from judge.pictures.scene import Drawing

RULES = DiplomacyGame(VARIANT)


def _drawing() -> Drawing:
    from judge_games.warring_states.picture import DRAWING  # loaded when first drawn

    return DRAWING


SPEC = record(RULES, drawing=_drawing)
"""The game's record; ``RULES`` is the rules object it is made from."""

GAME = game_of(SPEC)
"""The game as the judge plays it (the one the registry gives)."""

__all__ = ["GAME", "RULES", "SPEC", "VARIANT"]
