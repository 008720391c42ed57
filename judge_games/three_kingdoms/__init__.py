"""Diplomacy of the Three Kingdoms (Edi Birsan): leaders, militia and diplomatic status."""

from __future__ import annotations

from judge_games.diplomacy import DiplomacyGame
from judge_games.three_kingdoms.game import three_kingdoms

GAME = DiplomacyGame(three_kingdoms())

__all__ = ["GAME", "three_kingdoms"]
