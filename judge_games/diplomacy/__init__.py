"""The Diplomacy family: map model, order grammar, resolver, phases, offline format.

``DiplomacyGame`` plays the family's rules over a game's variant record
(:class:`~judge_games.diplomacy.variant.DiplomacyVariant`): classic
Diplomacy, Warring States and Three Kingdoms are each one variant record;
:func:`record` makes the judge's record (:class:`judge.game.spec.GameSpec`) of
such a game.
"""

from .game import DiplomacyGame
from .geography import DipMap, MapError, build_map, load_map
from .spec import record

__all__ = ["DipMap", "DiplomacyGame", "MapError", "build_map", "load_map", "record"]
