"""Conflict of Alliances on the decision kernel (judge/game/flow.py): in every
state of seeded playthroughs the one decision waiting is the kernel's one
ask (the judge's pending decision is that ask, ``stage`` names its kind),
everything still to come is frames of the game's states, and a finished
game keeps neither."""

from __future__ import annotations

import pytest

from judge.game.flow import kernel_of
from judge_games.conflict_of_alliances import GAME
from judge_games.conflict_of_alliances.kernel import PROMPTS, RULES
from tests.conflict_of_alliances.test_hooks import WALKS, _walk


def test_the_game_names_its_kernel_rules() -> None:
    assert kernel_of(GAME) is RULES
    assert set(RULES.answers) <= set(PROMPTS)


@pytest.mark.parametrize(("options", "seed"), WALKS)
def test_the_decision_waiting_is_the_kernels_ask(options: dict[str, object], seed: int) -> None:
    kinds: set[str] = set()
    states = 0
    for state, _ in _walk(options, seed):
        states += 1
        frames = state["todo"]
        assert all(f["t"] in RULES.steps for f in frames)
        if state["stage"] == "over":
            assert frames == [] and state["asks"] == [] and GAME.pending(state) == []
            continue
        (ask,) = state["asks"]
        assert ask["open"] and ask["kind"] == state["stage"]
        (decision,) = GAME.pending(state)
        assert decision.roles == tuple(ask["roles"]) and decision.depth == 0
        for role in GAME.roles(state):
            assert (RULES.ask_for(state, role) is ask) == (role in ask["roles"])
        kinds.add(ask["kind"])
    assert states > 10 and {"action", "window"} <= kinds
