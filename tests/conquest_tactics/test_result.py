"""Victory: the final score and the result table (rulebook, "Victory")."""

from __future__ import annotations

import pytest

from judge.game.rng import Rng
from judge_games.conquest_tactics import GAME, rules
from judge_games.conquest_tactics.table import Ctx


def _finish(south: int, north: int, limit: bool = False) -> dict[str, object]:
    state = GAME.setup({}, Rng(bytes(32), 0))
    g = Ctx(state)
    rules.finish(g, {"South": south, "North": north}, limit_reached=limit)
    assert state["stage"] == "over"
    result: dict[str, object] = state["result"]
    return result


@pytest.mark.parametrize(("south", "north", "text"), [
    (3, 0, "South wins 3-0: Massacre"),
    (1, 3, "North wins 3-1: Sound Victory/Firm Defeat"),
    (3, 2, "South wins 3-2: Narrow Victory/Strategic Retreat"),
    (3, 3, "3-3 Draw"),
])
def test_the_result_table(south: int, north: int, text: str) -> None:
    """"3-3 Draw; 3-2 Narrow Victory/Strategic Retreat; 3-1 Sound
    Victory/Firm Defeat; 3-0 Massacre"."""
    assert _finish(south, north)["text"] == text


def test_two_victories_at_one_halt_score_three_not_four() -> None:
    """Victory is "achieved by tallying three (3) Victory Conditions": a
    player who passes from two to four at one Halt wins 3-2, read from the
    table (it once read "4-2: on points at the turn limit")."""
    r = _finish(4, 2)
    assert r["text"] == "South wins 3-2: Narrow Victory/Strategic Retreat"
    assert r["score"] == {"South": 3, "North": 2}


def test_both_passing_three_at_one_halt_draw() -> None:
    r = _finish(3, 4)
    assert r["text"] == "3-3 Draw" and r["winners"] == []


def test_at_the_turn_limit_the_greater_tally_wins() -> None:
    assert _finish(2, 1, limit=True)["text"] == \
        "South wins 2-1: on points at the turn limit (turn limit 0)"
