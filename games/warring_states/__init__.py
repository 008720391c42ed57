"""Warring States: the seven-power Diplomacy variant of walls and river fleets.

The shared Diplomacy family (:mod:`games.diplomacy`) on our map of China
about 350 BC, with the variant's rules attached to the map
(:class:`~games.warring_states.rules.WarringStatesRules`). See README.md.
"""

from __future__ import annotations

from pathlib import Path

from .game import WarringStatesGame

GAME = WarringStatesGame(
    Path(__file__).with_name("map.yaml"),
    id="warring_states",
    title="Warring States",
    aliases=("warring", "ws", "zhanguo"),
)

__all__ = ["GAME", "WarringStatesGame"]
