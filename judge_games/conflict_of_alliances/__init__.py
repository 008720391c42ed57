"""Conflict of Alliances: Warring States (縱橫戰國), the two-player card-driven
wargame, by mail. See README.md for the map, the rulings and the commands.

``SPEC`` is the game's record, ``GAME`` the game as the judge plays it,
``RULES`` the rules object the record is made from."""

from __future__ import annotations

from judge_games.conflict_of_alliances.game import ConflictOfAlliances
from judge_games.conflict_of_alliances.spec import GAME, RULES, SPEC

__all__ = ["GAME", "RULES", "SPEC", "ConflictOfAlliances"]
