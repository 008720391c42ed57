"""Conflict of Alliances' record (:class:`judge.game.spec.GameSpec`): the rules
object's decisions, its hidden zones, the standing answers to its windows
(policy.py: the words of each window's conditions), help (helptext.py:
cards, generals, windows, areas, forces) and its drawing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.game.spec import Policy, game_of, record_of
from judge_games.conflict_of_alliances import helptext, policy
from judge_games.conflict_of_alliances.game import GAME as RULES

if TYPE_CHECKING:
    from judge.pictures.scene import Drawing


def _drawing() -> Drawing:
    from judge_games.conflict_of_alliances.picture import DRAWING  # loaded when first drawn

    return DRAWING


SPEC = record_of(
    RULES,
    own=("role_of", "side_of", "windows"),
    policy=Policy(windows=RULES.windows, condition=policy.condition, holds=policy.holds),
    help=helptext.topic,
    drawing=_drawing,
)

GAME = game_of(SPEC)
"""The game as the judge plays it (the one the registry gives)."""

__all__ = ["GAME", "RULES", "SPEC"]
