"""The Diplomacy family: map model, order grammar, resolver, phases, offline format.

``DiplomacyGame`` plays the family's rules over a map file and a variant
record; :func:`record` makes the judge's record of a game of it
(``judge_games.classic`` with the standard map, ``judge_games.warring_states``
with its own map and variant).
"""

from .game import DiplomacyGame
from .geography import DipMap, MapError, build_map, load_map
from .spec import record

__all__ = ["DipMap", "DiplomacyGame", "MapError", "build_map", "load_map", "record"]
