"""The record of a Diplomacy-family game (:class:`judge.game.spec.GameSpec`) over
its :class:`~judge_games.diplomacy.game.DiplomacyGame`: classic, Warring
States and Three Kingdoms are each one variant record (variant.py) and this."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from judge.game.spec import GameSpec, record_of

from .game import DiplomacyGame

if TYPE_CHECKING:
    from judge.pictures.scene import Drawing


def record(game: DiplomacyGame[Any], drawing: Callable[[], Drawing] | None = None) -> GameSpec:
    """``game``'s record: order sets resolved by phase, builds checked
    against the orders already held, orders sent ahead for a later phase,
    survivors and supply centres for draws and leagues, and the offline
    adjudicator (``judge adjudicate``)."""
    return record_of(game, own=("adjudicate_json", "map", "variant"),
                     drawing=drawing, adjudicate=game.adjudicate_json)
