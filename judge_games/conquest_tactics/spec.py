"""Conquest Tactics' record (:class:`judge.game.spec.GameSpec`): the rules
object's decisions, its hidden zones, the standing answers to its windows
(policy.py), help and introductions (helptext.py), the board named from
each side (field.py) and its drawing."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from judge.game.spec import Policy, game_of, record_of
from judge_games.conquest_tactics import field, helptext, policy
from judge_games.conquest_tactics.game import GAME as RULES

if TYPE_CHECKING:
    from judge.pictures.scene import Drawing


def _condition(window: str, words: Sequence[str]) -> str:
    return policy.condition(SPEC, window, words)


def _drawing() -> Drawing:
    from judge_games.conquest_tactics.picture import DRAWING  # loaded when first drawn

    return DRAWING


SPEC = record_of(
    RULES,
    own=("windows",),
    policy=Policy(
        windows=RULES.windows,
        condition=_condition,
        holds=policy.holds,
        defaults=lambda state, role: policy.defaults(),
    ),
    help=helptext.topic,
    introduction=helptext.introduction,
    localize=field.localize,
    drawing=_drawing,
)

GAME = game_of(SPEC)
"""The game as the judge plays it (the one the registry gives)."""

__all__ = ["GAME", "RULES", "SPEC"]
