"""The typed records of a Kingdom Wars state (judge_games/kingdom_wars/state.py)
say what the game really keeps: every state of a random playthrough, from the
choice of generals to the end, has each key :class:`KWState` requires and no
other than it names, and so has every player's record (:class:`Seat`)."""

from __future__ import annotations

from typing import Any

import pytest

from judge_games.kingdom_wars import GAME
from judge_games.kingdom_wars.state import KWState, Seat, general_of
from judge_games.kingdom_wars.table import fresh_player
from tests.support.driver import cached_play


def keys_fit(record: dict[str, Any], typed: Any) -> list[str]:
    """What is wrong with ``record``'s keys against the TypedDict ``typed``."""
    required: frozenset[str] = typed.__required_keys__
    allowed: frozenset[str] = required | typed.__optional_keys__
    missing = sorted(required - record.keys())
    extra = sorted(record.keys() - allowed)
    return [f"missing {k}" for k in missing] + [f"not named {k}" for k in extra]


@pytest.mark.parametrize("seed", [1, 2])
def test_every_state_of_a_playthrough_fits_the_records(seed: int) -> None:
    run = cached_play(GAME, seed)
    assert run.steps, "the playthrough made no step"
    seen_play = False
    for step in run.steps:
        state = step.state
        assert keys_fit(state, KWState) == [], f"step {step.index}"
        for seat, p in state["p"].items():
            assert keys_fit(p, Seat) == [], f"seat {seat}"
            seen_play = True
    assert seen_play, "the playthrough never left the choice of generals"


def test_a_fresh_player_fits_the_seat_record() -> None:
    p = fresh_player("cao-cao", "xu-chu")
    assert keys_fit(dict(p), Seat) == []
    assert general_of(p, "main") == "cao-cao" and general_of(p, "deputy") == "xu-chu"
    with pytest.raises(KeyError):
        general_of(p, "weapon")
