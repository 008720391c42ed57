"""The record of a Diplomacy-family game (:class:`judge.spec.GameSpec`) over
its :class:`~judge_games.diplomacy.game.DiplomacyGame`: classic, Warring
States and Three Kingdoms are each one variant record (variant.py) and this."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from judge.spec import GameSpec

from .game import DiplomacyGame

if TYPE_CHECKING:
    from judge.pictures.scene import Drawing


def record(game: DiplomacyGame[Any], drawing: Callable[[], Drawing] | None = None) -> GameSpec:
    """``game``'s record: order sets resolved by phase, builds checked
    against the orders already held, orders sent ahead for a later phase,
    survivors and supply centres for draws and leagues, and the offline
    adjudicator (``judge adjudicate``)."""
    return GameSpec(
        id=game.id,
        title=game.title,
        aliases=game.aliases,
        options=game.options,
        verbs=game.verbs,
        view_schema=game.view_schema,
        setup=game.setup,
        roles=game.roles,
        pending=game.pending,
        parse=game.parse,
        legal=game.legal,
        view=game.view,
        outcome=game.outcome,
        act=game.act,
        resolve=game.resolve,
        default=game.default,
        unordered=game.unordered,
        check_held=game.check_held,
        phase_after=game.phase_after,
        survivors=game.survivors,
        agreed_draw=game.agreed_draw,
        scores=game.scores,
        playthrough_options=game.playthrough_options,
        victory_playthroughs=game.victory_playthroughs,
        drawing=drawing,
        adjudicate=game.adjudicate_json,
    )
