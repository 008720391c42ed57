"""Supply adjustments (rulebook, "Turn Sequence" 3 and 4)."""

from __future__ import annotations

from typing import Any

import pytest

from bench.support.three_kingdoms import play, position, texts, where
from judge.game.engine import IllegalLine
from judge_games.three_kingdoms import GAME, rules

K3 = {"Player1": "Wei", "Player2": "Shu", "Player3": "Wu"}


def _adjust(state: dict[str, Any]) -> dict[str, Any]:
    state["stage"], state["campaign"] = "adjust", 2
    return state


def test_one_unit_per_centre_and_leaders_need_none() -> None:
    """Rulebook: "For each support center owned a player may have either one army or one
    militia unit on the board"; "Leader Characters do not require a support
    province to exist and are only removed when killed." """
    s = _adjust(position(K3, {"Player1": "L8 A8 M6"}, owner={"Player1": [8, 6, 9, 10]}))
    assert rules.balance(s, "Player1") == 2
    s2 = _adjust(position(K3, {"Player1": "L8"}, owner={"Player1": []}))
    assert rules.balance(s2, "Player1") == 0
    assert GAME.legal(s2, "Player1") == []


def test_builds_in_owned_home_centres_army_only_in_the_capital() -> None:
    """Rulebook: "The unit may be built in any of his original kingdom's owned supply
    centers. Only one army unit may be built a turn and then it may only be built
    in the character's capital. You may only build militia in your owned support
    provinces of your home kingdom." """
    s = _adjust(
        position(
            K3,
            {"Player1": "L8 M6", "Player2": "A25"},
            owner={"Player1": [8, 6, 9, 10, 35]},
            capital={"Player1": 8},
        )
    )
    lines = GAME.legal(s, "Player1")
    assert set(lines) == {"BUILD A8", "BUILD M8", "BUILD M9", "BUILD M10", "WAIVE"}
    with pytest.raises(IllegalLine):
        GAME.parse(s, "Player1", "BUILD A9")  # an army only in the capital
    with pytest.raises(IllegalLine):
        GAME.parse(s, "Player1", "BUILD M35")  # a centre outside the home kingdom
    with pytest.raises(IllegalLine):
        GAME.parse(s, "Player1", "BUILD M6")  # occupied
    s2, _events = play(s, {"Player1": ["BUILD M8", "BUILD A8", "BUILD M9", "BUILD M10"]})
    # The later order for a centre replaces the earlier; three builds: 5 centres, 2 units.
    assert where(s2)["Player1"] == "M6 L8 A8 M9 M10"
    assert s2["turn"] == 2 and s2["stage"] == "campaign"


def test_no_build_when_every_home_centre_is_occupied() -> None:
    """Rulebook: "If all the player's home support centers are occupied by an existing
    Militia or Army then he may not place the unit this adjustment phase." """
    s = _adjust(position(K3, {"Player1": "A8 M6"}, owner={"Player1": [8, 6, 23]}))
    assert rules.balance(s, "Player1") == 1
    assert GAME.legal(s, "Player1") == []


def test_removals_ordered_and_by_default() -> None:
    """More units than centres: units are removed (if not ordered, ours: militia
    before armies, the highest-numbered province first)."""
    s = _adjust(position(K3, {"Player1": "A8 M6 M9 M10"}, owner={"Player1": [8, 6]}))
    assert rules.balance(s, "Player1") == -2
    s2, _ = play(s, {"Player1": ["REMOVE A8", "REMOVE M6"]})
    assert where(s2)["Player1"] == "M9 M10"
    s3, events = play(s, {})
    assert where(s3)["Player1"] == "M6 A8"
    assert any("not ordered" in t for t in texts(events))
