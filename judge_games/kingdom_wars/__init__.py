"""War of the Three Kingdoms: Kingdom Wars, the hidden-role card game for 4 to
12 players. See README.md for where its data came from, the rulings, and how
the game is played by mail.

The data (:mod:`.data`) is loaded and checked when the package is imported;
the rules live in table, flow, cards, play and skills; :mod:`.game` is the
rules object (``RULES``) and :mod:`.spec` the game's record (``SPEC``);
``GAME`` is the game as the judge plays it.
"""

from __future__ import annotations

from judge_games.kingdom_wars.data import DATA, Data, DataError
from judge_games.kingdom_wars.spec import GAME, RULES, SPEC

__all__ = ["DATA", "GAME", "RULES", "SPEC", "Data", "DataError"]
