"""Warring States: the seven-power Diplomacy variant of walls and river fleets.

The shared Diplomacy family (:mod:`judge_games.diplomacy`) on our map of China
about 350 BC, with the variant's record
(:func:`~judge_games.warring_states.game.warring_states`: the rules of
:class:`~judge_games.warring_states.rules.WarringStatesRules`, its verbs and
texts). See README.md.
"""

from __future__ import annotations

from pathlib import Path

from judge_games.diplomacy import DiplomacyGame

from .game import warring_states

GAME = DiplomacyGame(
    Path(__file__).with_name("map.yaml"),
    id="warring_states",
    title="Warring States",
    aliases=("warring", "ws", "zhanguo"),
    variant=warring_states,
)

__all__ = ["GAME", "warring_states"]
