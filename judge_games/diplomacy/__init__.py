"""The Diplomacy family: map model, order grammar, resolver, phases, offline format.

``DiplomacyGame`` implements the judge's game contract once over a game's
record (:class:`~judge_games.diplomacy.variant.DiplomacyVariant`): classic
Diplomacy, Warring States and Three Kingdoms are each one record.
"""

from .game import DiplomacyGame
from .geography import DipMap, MapError, build_map, load_map

__all__ = ["DipMap", "DiplomacyGame", "MapError", "build_map", "load_map"]
