"""Conflict of Alliances: Warring States (縱橫戰國), the two-player card-driven
wargame, by mail. See README.md for the map, the rulings and the commands."""

from __future__ import annotations

from judge_games.conflict_of_alliances.game import GAME, ConflictOfAlliances

__all__ = ["GAME", "ConflictOfAlliances"]
