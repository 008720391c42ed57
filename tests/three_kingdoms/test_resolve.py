"""Campaign resolution on the shared Diplomacy resolver: forces straight into
``adjudicate_forces`` (circular movement, head-to-head battles, support cuts),
and bare pieces through the game's ``adjudicate_campaign`` (forces built from
stacked pieces, joins, army supremacy)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from judge_games.diplomacy.orders import MOVE, SUPPORT
from judge_games.diplomacy.resolver import Force, ForceResult, Strengths, adjudicate_forces
from judge_games.three_kingdoms.resolver import Campaign, adjudicate_campaign
from judge_games.three_kingdoms.rules import STRENGTH

OWNERS = ["x", "y", "z"]


def _forces(forces: Sequence[Force], kinds: str) -> ForceResult:
    """Resolve forces of one piece each, of the given kinds (army 2, militia
    and leader 1, moving and defending alike)."""
    strength = [STRENGTH[k] for k in kinds]
    return adjudicate_forces(forces, Strengths(base=strength, move_base=strength, weight=strength))


def _p(kind: str, owner: str, at: int) -> dict[str, Any]:
    return {"kind": kind, "owner": owner, "at": at}


def _may_stack(group: Sequence[Mapping[str, Any]]) -> bool:
    units = [p for p in group if p["kind"] != "L"]
    leaders = [p for p in group if p["kind"] == "L"]
    return len(units) <= 1 and len(leaders) <= 1 and len({p["owner"] for p in group}) == 1


def _run(
    pieces: list[dict[str, Any]],
    orders: dict[int, dict[str, Any]],
    *,
    home: Sequence[int] = (),
    army_supremacy: bool = False,
) -> Campaign:
    """Resolve bare pieces; a militia in a province of ``home`` defends with 2."""

    def defence(p: Mapping[str, Any]) -> int:
        return 2 if p["kind"] == "M" and p["at"] in home else STRENGTH[p["kind"]]

    return adjudicate_campaign(pieces, orders, OWNERS, defence, _may_stack, army_supremacy)


def test_three_pieces_move_in_a_circle() -> None:
    """Each piece moves into a province another leaves: all succeed."""
    res = _forces([Force(1, 0, MOVE, 2), Force(2, 1, MOVE, 3), Force(3, 2, MOVE, 1)], "AAA")
    assert res.moved == {0, 1, 2} and not res.dislodged and not res.bounced


def test_two_pieces_cannot_swap() -> None:
    """Equal pieces moving into each other's provinces both stay."""
    res = _forces([Force(1, 0, MOVE, 2), Force(2, 1, MOVE, 1)], "AA")
    assert res.bounced == {0, 1} and not res.moved and not res.dislodged


def test_stronger_head_to_head_dislodges() -> None:
    res = _forces([Force(1, 0, MOVE, 2), Force(2, 1, MOVE, 1), Force(3, 0, SUPPORT, 2, 0)], "AAM")
    assert res.moved == {0} and res.dislodged == {1: 1} and res.bounced == {1}


def test_own_leader_and_army_swap_into_a_stack() -> None:
    """A leader and its army trading places: the weaker (the leader) is held
    back, and the army joins it (one's own pieces may share a province)."""
    pieces = [_p("L", "x", 1), _p("A", "x", 2)]
    res = _run(pieces, {0: {"verb": "move", "to": 2}, 1: {"verb": "move", "to": 1}})
    assert res.moved == {1: 1} and res.bounced == {0} and not res.dislodged


def test_support_cut_only_by_another_owner() -> None:
    """One's own move into a supporter's province does not cut its support."""
    forces = [
        Force(1, 0, MOVE, 3),
        Force(2, 0, SUPPORT, 3, 0),
        Force(3, 1),
        Force(4, 0, MOVE, 2),
    ]
    res = _forces(forces, "AMAA")
    assert 1 not in res.cut and res.dislodged == {2: 1}
    # "you may not dislodge one of your own units": the move into the province
    # of its own militia fails.
    assert res.bounced == {3} and res.moved == {0}


def test_support_cut_by_an_attack_from_elsewhere() -> None:
    """ "All supports in a province are CUT (negated) when the province is
    attacked by any unit from outside the target of the support", even by a
    single militia against a leader and army supporting together."""
    pieces = [
        _p("A", "x", 1),
        _p("L", "x", 2),
        _p("A", "x", 2),
        _p("A", "y", 3),
        _p("M", "z", 4),
    ]
    support = {"verb": "support", "target": 0, "to": 3}
    orders = {0: {"verb": "move", "to": 3}, 1: support, 2: support, 4: {"verb": "move", "to": 2}}
    res = _run(pieces, orders)
    assert res.cut == {1, 2} and res.bounced == {0, 4} and not res.dislodged
    # Uncut, the leader and the army add 1 + 2 to the army's 2.
    res = _run(pieces, {0: orders[0], 1: support, 2: support})
    assert res.moved == {0: 3} and res.dislodged == {3: 1}


def test_leader_leaves_while_its_army_holds_and_is_attacked() -> None:
    """The leader moves on alone; what stays (the army, 2) is what defends."""
    pieces = [_p("L", "x", 2), _p("A", "x", 2), _p("A", "y", 3), _p("M", "y", 4)]
    orders = {
        0: {"verb": "move", "to": 1},
        2: {"verb": "move", "to": 2},
        3: {"verb": "support", "target": 2, "to": 2},
    }
    res = _run(pieces, orders)
    assert res.moved == {0: 1, 2: 2} and res.dislodged == {1: 3}
    # Had the leader stayed, the stack would have defended with 3.
    res = _run(pieces, {2: orders[2], 3: orders[3]})
    assert res.bounced == {2} and not res.dislodged and not res.moved


def test_leader_joins_its_army_while_an_enemy_attacks_it() -> None:
    """The joining leader adds nothing to the defence and is no battle with
    its own army, but it contests the province with the attacker."""
    pieces = [_p("L", "x", 1), _p("A", "x", 2), _p("A", "y", 3)]
    orders = {0: {"verb": "move", "to": 2}, 2: {"verb": "move", "to": 2}}
    res = _run(pieces, orders)
    # The army holds (2 against 2); the enemy's 2 keeps the leader out.
    assert res.bounced == {0, 2} and not res.moved and not res.dislodged
    # Alone, the leader joins its army.
    res = _run(pieces, {0: orders[0]})
    assert res.moved == {0: 2} and not res.dislodged
    # With support the enemy dislodges the army, and the leader stays out.
    pieces.append(_p("M", "y", 4))
    res = _run(pieces, {**orders, 3: {"verb": "support", "target": 2, "to": 2}})
    assert res.moved == {2: 2} and res.dislodged == {1: 3} and res.bounced == {0}


def test_stacked_leader_and_army_defend_with_three() -> None:
    """A leader and its army staying together are one force: 1 + 2."""
    pieces = [_p("L", "x", 2), _p("A", "x", 2), _p("A", "y", 3), _p("M", "y", 4)]
    orders = {2: {"verb": "move", "to": 2}, 3: {"verb": "support", "target": 2, "to": 2}}
    res = _run(pieces, orders)
    assert res.bounced == {2} and not res.dislodged
    # 4 against 3 dislodges both.
    pieces.append(_p("M", "y", 1))
    res = _run(pieces, {**orders, 4: {"verb": "support", "target": 2, "to": 2}})
    assert res.moved == {2: 2} and res.dislodged == {0: 3, 1: 3}


def test_leader_and_army_move_as_one_force() -> None:
    """ "Pieces move with the power of their force": a leader and its army
    moving from one province to the same province attack with 3."""
    pieces = [_p("L", "x", 1), _p("A", "x", 1), _p("A", "y", 2)]
    move = {"verb": "move", "to": 2}
    res = _run(pieces, {0: move, 1: move})
    assert res.moved == {0: 2, 1: 2} and res.dislodged == {2: 1}


def test_army_supremacy_removes_a_friendly_militia() -> None:
    """Optional rule 4: "an army moving into a space with a friendly militia
    will dislodge the militia to take dominance in the space. Militia so
    dislodged will be removed from the board and not allowed to retreat"."""
    pieces = [_p("A", "x", 1), _p("L", "x", 2), _p("M", "x", 2)]
    orders = {0: {"verb": "move", "to": 2}}
    res = _run(pieces, orders, army_supremacy=True)
    assert res.moved == {0: 2} and res.removed == {2} and not res.dislodged
    # Without the rule: "you may not dislodge one of your own units".
    res = _run(pieces, orders)
    assert res.bounced == {0} and not res.removed
    # A militia moving in removes nothing.
    pieces[0] = _p("M", "x", 1)
    res = _run(pieces, orders, army_supremacy=True)
    assert res.bounced == {0} and not res.removed


def test_militia_beaten_head_to_head_defends_at_home() -> None:
    """ "A piece that is blocked in its move returns to its space of origin and
    defends that space", and a militia defends with 2 in its kingdom's support
    provinces: an army beating its move of 1 must still beat that 2."""
    pieces = [_p("A", "x", 1), _p("M", "y", 2)]
    orders = {0: {"verb": "move", "to": 2}, 1: {"verb": "move", "to": 1}}
    res = _run(pieces, orders, home=[2])
    assert res.bounced == {0, 1} and not res.dislodged
    res = _run(pieces, orders)
    assert res.moved == {0: 2} and res.dislodged == {1: 1}


def test_piece_beaten_head_to_head_still_stands_off() -> None:
    """ "If there are equal forces moving on to a space then that space is not
    entered into by any of the movers": the rulebook makes no exception for a
    mover beaten head to head (the standard game does), so the province stays
    empty and no retreat may go there."""
    pieces = [_p("A", "x", 1), _p("M", "y", 2), _p("M", "z", 3)]
    orders = {
        0: {"verb": "move", "to": 2},
        1: {"verb": "move", "to": 1},
        2: {"verb": "move", "to": 1},
    }
    res = _run(pieces, orders)
    assert res.moved == {0: 2} and res.dislodged == {1: 1} and res.bounced == {1, 2}
    assert res.standoffs == {1}


def test_support_against_ones_own_piece_does_not_count() -> None:
    """ "Unless using the option rule of Army Supremacy you may not dislodge one
    of your own units": y's support of x's attack on y's army adds nothing.
    (The resolver this game had before counted it and dislodged the army.)"""
    pieces = [_p("A", "x", 1), _p("A", "y", 2), _p("M", "y", 3)]
    orders = {0: {"verb": "move", "to": 2}, 2: {"verb": "support", "target": 0, "to": 2}}
    res = _run(pieces, orders)
    assert res.bounced == {0} and not res.dislodged
    # The same support from a third player counts.
    pieces[2] = _p("M", "z", 3)
    res = _run(pieces, orders)
    assert res.moved == {0: 2} and res.dislodged == {1: 1}


def test_support_of_a_moving_piece_to_hold_is_void() -> None:
    """ "A unit ordered to move CANNOT be supported to defend its province"."""
    pieces = [_p("A", "x", 1), _p("M", "x", 2), _p("A", "y", 3)]
    orders = {0: {"verb": "move", "to": 3}, 1: {"verb": "support", "target": 0, "to": None}}
    res = _run(pieces, orders)
    assert res.void == {1} and res.bounced == {0}


def test_forces_of_two_powers_in_one_province() -> None:
    """Optional rule 7 ("two leaders of allied factions may combine together
    with an army or a militia unit"): x's leader and army and y's leader stay
    in 2 as two forces. They defend together (3 + 1), and the support of a
    power staying there does not count against them."""
    x_stack, y_leader = Force(2, 0), Force(2, 1)
    attack = [Force(3, 2, MOVE, 2), Force(4, 2, SUPPORT, 2, 2), Force(6, 2, SUPPORT, 2, 2)]
    strength = Strengths(base=[3, 1, 2, 1, 1, 1], move_base=[3, 1, 2, 1, 1, 1])
    strength.weight = strength.move_base
    res = adjudicate_forces([x_stack, y_leader, *attack, Force(5, 1, SUPPORT, 2, 2)], strength)
    assert res.bounced == {2} and not res.dislodged
    res = adjudicate_forces([x_stack, y_leader, *attack, Force(5, 2, SUPPORT, 2, 2)], strength)
    assert res.moved == {2} and res.dislodged == {0: 3, 1: 3}


def test_head_to_head_with_two_forces_at_once() -> None:
    """x's army and y's leader leave 2 for 3 while z's supported army comes
    the other way: z beats both moves (3 against 2 and 1) and dislodges both;
    when the beaten moves defend their province, they hold it with 2 + 1."""
    forces = [
        Force(2, 0, MOVE, 3),
        Force(2, 1, MOVE, 3),
        Force(3, 2, MOVE, 2),
        Force(4, 2, SUPPORT, 2, 2),
    ]
    strength = [2, 1, 2, 1]
    standard = Strengths(base=strength, move_base=strength, weight=strength)
    res = adjudicate_forces(forces, standard)
    assert res.moved == {2} and res.dislodged == {0: 3, 1: 3} and res.bounced == {0, 1}
    res = adjudicate_forces(forces, Strengths(**{**vars(standard), "beaten_defends": True}))
    assert res.bounced == {0, 1, 2} and not res.dislodged
