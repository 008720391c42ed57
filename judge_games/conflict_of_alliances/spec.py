"""Conflict of Alliances' record (:class:`judge.spec.GameSpec`): the rules
object's decisions, its hidden zones, the standing answers to its windows
(policy.py: the words of each window's conditions), help (helptext.py:
cards, generals, windows, areas, forces) and its drawing."""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.spec import GameSpec, Policy, game_of
from judge_games.conflict_of_alliances import helptext, policy
from judge_games.conflict_of_alliances.game import GAME as RULES

if TYPE_CHECKING:
    from judge.pictures.scene import Drawing


def _drawing() -> Drawing:
    from judge_games.conflict_of_alliances.picture import DRAWING  # loaded when first drawn

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
    parse=RULES.parse,
    legal=RULES.legal,
    view=RULES.view,
    outcome=RULES.outcome,
    act=RULES.act,
    resolve=RULES.resolve,
    default=RULES.default,
    turn=RULES.turn,
    zones=RULES.zones,
    concede=RULES.concede,
    policy=Policy(windows=RULES.windows, condition=policy.condition, holds=policy.holds),
    help=helptext.topic,
    introduction=RULES.introduction,
    queues_actions=RULES.queues_actions,
    playthrough_options=RULES.playthrough_options,
    # The decision kernel's rules, once the rules object runs on it (judge/flow.py).
    kernel=getattr(RULES, "kernel", None),
    drawing=_drawing,
)

GAME = game_of(SPEC)
"""The game as the judge plays it (the one the registry gives)."""

__all__ = ["GAME", "RULES", "SPEC"]
