"""Seeded random playthroughs to a victory for 3, 4, 5 and 6 players, checked
with every property of the contract suite (tests/contract/test_contract.py runs
the default, six players)."""

from __future__ import annotations

import pytest

from judge_games.three_kingdoms import GAME
from tests.contract.test_contract import PROPERTIES
from tests.support.driver import play, playthrough_options

OPTIONAL = (
    "heroic_escape",
    "militia_disband",
    "army_supremacy",
    "capital_destruction",
    "neutral_zone_battles",
    "combined_leaders",
)


@pytest.mark.parametrize(("players", "seed"), [
    pytest.param(players, seed, id=f"{seed}-{players}",
                 marks=() if (players, seed) == (3, 1) else pytest.mark.slow)
    for seed in (1, 2) for players in (3, 4, 5, 6)])  # the fast tier plays one
def test_playthrough_to_a_victory(players: int, seed: int) -> None:
    p = play(GAME, seed, options=playthrough_options(GAME, {"players": players}))
    assert p.outcome is not None and p.outcome.winners
    assert GAME.roles(p.final) == [f"Player{i}" for i in range(1, players + 1)]
    for check in PROPERTIES:
        if check.__name__ != "check_noninterference":  # nothing is hidden in this game
            check(GAME, p)


@pytest.mark.parametrize("players", [3, pytest.param(6, marks=pytest.mark.slow)])
def test_playthrough_with_every_optional_rule(players: int) -> None:
    extra = {"players": players, **{name: True for name in OPTIONAL}}
    p = play(GAME, 7, options=playthrough_options(GAME, extra))
    assert p.outcome is not None
    for check in PROPERTIES:
        if check.__name__ != "check_noninterference":
            check(GAME, p)


def test_playthrough_free_style() -> None:
    p = play(GAME, 8, options=playthrough_options(GAME, {"players": 4, "free_style": True}))
    assert p.outcome is not None
    for check in PROPERTIES:
        if check.__name__ != "check_noninterference":
            check(GAME, p)


@pytest.mark.slow
def test_long_playthrough_is_decided() -> None:
    """The full default length (10 adjustment periods) also ends."""
    p = play(GAME, 3, options=playthrough_options(GAME, {"players": 5, "length": 10}))
    assert p.outcome is not None
    assert p.final["adjustments"] <= 10
