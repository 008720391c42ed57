"""Diplomacy of the Three Kingdoms (Edi Birsan): leaders, militia and diplomatic status.

``SPEC`` is the game's record, ``GAME`` the game as the judge plays it,
``RULES`` the rules object the record is made from (reading orders: legality.py; the Great Turn:
phases.py; the board's rules: rules.py)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from judge.spec import GameSpec, game_of
from judge_games.three_kingdoms import legality, phases, rules
from judge_games.three_kingdoms.game import ThreeKingdomsGame

if TYPE_CHECKING:
    from judge.pictures.scene import Drawing

RULES = ThreeKingdomsGame()


def _drawing() -> Drawing:
    from judge_games.three_kingdoms.picture import DRAWING  # loaded when first drawn

    return DRAWING


SPEC = GameSpec(
    id=RULES.id,
    title=RULES.title,
    aliases=RULES.aliases,
    options=RULES.options,
    verbs=RULES.verbs,
    view_schema=RULES.view_schema,
    setup=RULES.setup,
    roles=RULES.roles,
    pending=RULES.pending,
    parse=partial(legality.parse, RULES.board),
    legal=partial(legality.legal, RULES.board),
    view=RULES.view,
    outcome=RULES.outcome,
    act=partial(phases.act, RULES.board),
    resolve=partial(phases.resolve, RULES.board),
    default=RULES.default,
    survivors=rules.survivors,
    agreed_draw=phases.agreed_draw,
    playthrough_options=RULES.playthrough_options,
    victory_playthroughs=RULES.victory_playthroughs,
    drawing=_drawing,
)

GAME = game_of(SPEC)
"""The game as the judge plays it (the one the registry gives)."""

__all__ = ["GAME", "RULES", "SPEC", "ThreeKingdomsGame"]
