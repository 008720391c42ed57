"""Standard Diplomacy on the 1901 map: the reference game of the Diplomacy family."""

from __future__ import annotations

from pathlib import Path

from judge_games.diplomacy import DiplomacyGame, load_map
from judge_games.diplomacy.standard import standard

GAME = DiplomacyGame(
    standard(
        load_map(Path(__file__).with_name("map.yaml")),
        id="classic",
        title="Diplomacy",
        aliases=("standard", "diplomacy", "dip"),
    )
)

__all__ = ["GAME"]
