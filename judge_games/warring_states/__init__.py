"""Warring States: the seven-power Diplomacy variant of walls and river fleets.

The shared Diplomacy family (:mod:`judge_games.diplomacy`) on our map of China
about 350 BC, with the variant's record
(:data:`~judge_games.warring_states.game.VARIANT`: the rules of
:class:`~judge_games.warring_states.rules.WarringStatesRules`, its verbs and
texts). See README.md.
"""

from __future__ import annotations

from judge_games.diplomacy import DiplomacyGame

from .game import VARIANT

GAME = DiplomacyGame(VARIANT)

__all__ = ["GAME", "VARIANT"]
