"""The campaign resolver (games/three_kingdoms/resolve.py) on bare pieces:
circular movement, head-to-head battles, stacking joins."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.three_kingdoms.resolve import Result, Rules, adjudicate

STRENGTH = {"A": 2, "M": 1, "L": 1}


def _run(pieces: list[dict[str, Any]], orders: dict[int, dict[str, Any]]) -> Result:
    def joinable(movers: Sequence[int], stay: Sequence[int]) -> bool:
        group = [pieces[i] for i in (*movers, *stay)]
        units = [p for p in group if p["kind"] != "L"]
        leaders = [p for p in group if p["kind"] == "L"]
        owners = {p["owner"] for p in group}
        return len(units) <= 1 and len(leaders) <= 1 and len(owners) == 1

    rules = Rules(
        attack=lambda i: STRENGTH[pieces[i]["kind"]],
        defence=lambda i: STRENGTH[pieces[i]["kind"]],
        joinable=joinable,
    )
    return adjudicate(pieces, orders, rules)


def _p(kind: str, owner: str, at: int) -> dict[str, Any]:
    return {"kind": kind, "owner": owner, "at": at}


def test_three_pieces_move_in_a_circle() -> None:
    """Each piece moves into a province another leaves: all succeed."""
    pieces = [_p("A", "x", 1), _p("A", "y", 2), _p("A", "z", 3)]
    orders = {
        0: {"verb": "move", "to": 2},
        1: {"verb": "move", "to": 3},
        2: {"verb": "move", "to": 1},
    }
    res = _run(pieces, orders)
    assert res.moved == {0: 2, 1: 3, 2: 1} and not res.dislodged


def test_two_pieces_cannot_swap() -> None:
    """Equal pieces moving into each other's provinces both stay."""
    pieces = [_p("A", "x", 1), _p("A", "y", 2)]
    res = _run(pieces, {0: {"verb": "move", "to": 2}, 1: {"verb": "move", "to": 1}})
    assert res.bounced == {0, 1} and not res.moved


def test_stronger_head_to_head_dislodges() -> None:
    pieces = [_p("A", "x", 1), _p("A", "y", 2), _p("M", "x", 3)]
    orders = {
        0: {"verb": "move", "to": 2},
        1: {"verb": "move", "to": 1},
        2: {"verb": "support", "target": 0, "to": 2},
    }
    res = _run(pieces, orders)
    assert res.moved == {0: 2} and res.dislodged == {1: 1}


def test_own_leader_and_army_swap_into_a_stack() -> None:
    """A leader and its army trading places: the weaker (the leader) is held
    back, and the army joins it (one's own pieces may share a province)."""
    pieces = [_p("L", "x", 1), _p("A", "x", 2)]
    res = _run(pieces, {0: {"verb": "move", "to": 2}, 1: {"verb": "move", "to": 1}})
    assert res.moved == {1: 1} and res.bounced == {0}


def test_support_cut_only_by_another_owner() -> None:
    """One's own move into a supporter's province does not cut its support."""
    pieces = [_p("A", "x", 1), _p("M", "x", 2), _p("A", "y", 3), _p("A", "x", 4)]
    orders = {
        0: {"verb": "move", "to": 3},
        1: {"verb": "support", "target": 0, "to": 3},
        3: {"verb": "move", "to": 2},
    }
    res = _run(pieces, orders)
    assert 1 not in res.cut and res.dislodged == {2: 1}
