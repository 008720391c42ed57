"""Diplomacy of the Three Kingdoms (Edi Birsan): leaders, militia and diplomatic status."""

from __future__ import annotations

from judge_games.three_kingdoms.game import ThreeKingdomsGame

GAME = ThreeKingdomsGame()

__all__ = ["GAME", "ThreeKingdomsGame"]
