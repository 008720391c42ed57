"""Conquest Tactics: two-player tactical deck-building on a 5x5 field (see
README.md for how to play by mail and where the cards come from).

``SPEC`` is the game's record, ``GAME`` the game as the judge plays it,
``RULES`` the rules object the record is made from."""

from judge_games.conquest_tactics.spec import GAME, RULES, SPEC

__all__ = ["GAME", "RULES", "SPEC"]
