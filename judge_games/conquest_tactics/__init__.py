"""Conquest Tactics: two-player tactical deck-building on a 5x5 field (see
README.md for how to play by mail and where the cards come from)."""

from judge_games.conquest_tactics.game import GAME

__all__ = ["GAME"]
