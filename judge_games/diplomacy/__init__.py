"""The Diplomacy family: map model, order grammar, resolver, phases, offline format.

``DiplomacyGame`` implements the judge's game contract over a map file;
``judge_games.classic`` configures it with the standard map, and variants subclass
it (see :mod:`judge_games.diplomacy.game`).
"""

from .game import DiplomacyGame
from .geography import DipMap, MapError, build_map, load_map

__all__ = ["DipMap", "DiplomacyGame", "MapError", "build_map", "load_map"]
