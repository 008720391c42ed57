"""Campaign resolution (rulebook, "Conflict Resolution", "Dislodged")."""

from __future__ import annotations

import pytest

from bench.support.three_kingdoms import play, position, results, texts, where
from judge import reports
from judge.game.engine import IllegalLine
from judge_games.three_kingdoms import GAME

K4 = {"Player1": "Wei", "Player2": "Wei", "Player3": "Shu", "Player4": "Wu"}
WAR13 = [("Player1", "Player3")]


def test_army_dislodges_militia_outside_its_kingdom() -> None:
    """Rulebook: "Army ... strength is 2"; "1 for a militia in any other province" (a Shu
    militia in Nanyang, 7, a Wei province)."""
    s = position(K4, {"Player1": "A8", "Player3": "M7"}, war=WAR13)
    s2, _ = play(s, {"Player1": ["A8->7"]})
    assert results(s2)["A8->7"] == ["moves"]
    assert s2["dislodged"][0]["at"] == 7 and s2["dislodged"][0]["from"] == 8
    assert s2["stage"] == "retreat"


def test_militia_defends_with_two_in_its_own_kingdoms_centres() -> None:
    """Rulebook: "The power of unit in defending is 2 for an Army, 2 for a militia in its own
    original Kingdom's support provinces": a Shu militia in Hanzhong (25)
    holds against an army; with a leader's support (1) the attack has 3."""
    s = position(K4, {"Player1": "A5 L13", "Player3": "M25"}, war=WAR13)
    s2, _ = play(s, {"Player1": ["A5->25"]})
    assert results(s2)["A5->25"] == ["bounced"]
    assert where(s2)["Player3"] == "M25"
    s3, _ = play(s, {"Player1": ["A5->25", "L13 S A5->25"]})
    assert results(s3)["A5->25"] == ["moves"]
    assert s3["dislodged"][0]["pieces"][0]["kind"] == "M"


def test_leader_has_strength_one() -> None:
    """Rulebook: "1 for a Leader Character": a leader moving on a militia outside its
    kingdom (defending with 1) is an equal force and bounces."""
    s = position(K4, {"Player1": "L8 A8", "Player3": "M7"}, war=WAR13)
    s2, _ = play(s, {"Player1": ["L8->7"]})
    assert results(s2)["L8->7"] == ["bounced"]


def test_leader_moving_with_its_army_adds_its_strength() -> None:
    """Our reading of "greater force acting in unison": a leader and its army
    moving together from one province to the same province are one force (3),
    enough against a militia defending 2 at home."""
    s = position(K4, {"Player1": "L5 A5", "Player3": "M25"}, war=WAR13)
    s2, _ = play(s, {"Player1": ["A5->25", "L5->25"]})
    assert results(s2)["A5->25"] == ["moves"] and results(s2)["L5->25"] == ["moves"]


def test_equal_forces_bounce_and_the_space_stays_empty() -> None:
    """Rulebook: "If there are equal forces moving on to a space then that space is not
    entered into by any of the movers." """
    s = position(K4, {"Player1": "A8", "Player3": "A18"}, kingdom_war=[("Player3", "Wei")])
    s2, _ = play(s, {"Player1": ["A8->7"], "Player3": ["A18->7"]})
    assert results(s2)["A8->7"] == ["bounced"] and results(s2)["A18->7"] == ["bounced"]
    assert where(s2) == {"Player1": "A8", "Player3": "A18"}


def test_equal_force_does_not_dislodge_a_defender() -> None:
    """Rulebook: "If there was a defender in the province the defender is then not dislodged
    even if the movers are from hostile players." """
    s = position(K4, {"Player1": "A8", "Player3": "A7"}, war=WAR13)
    s2, _ = play(s, {"Player1": ["A8->7"]})
    assert results(s2)["A8->7"] == ["bounced"] and not s2["dislodged"]


def test_a_single_militia_cuts_the_support_of_leader_and_army() -> None:
    """Rulebook: "All supports in a province are CUT (negated) when the province is attacked
    by any unit from outside the target of the support. Thus an attack by a
    single militia may negate the support given by the combined Leader and Army
    in a province for action somewhere other than the province of this
    attacking militia." """
    s = position(
        K4,
        {"Player1": "L8 A8 M6", "Player3": "A7 M16"},
        war=[("Player1", "Player3")],
    )
    orders = {"Player1": ["M6->7", "A8 S M6->7", "L8 S M6->7"]}
    s2, _ = play(s, orders)
    assert results(s2)["M6->7"] == ["moves"]  # 1 + 2 + 1 = 4 > 2
    s3, _ = play(s, {**orders, "Player3": ["M16->8"]})
    assert results(s3)["A8 S M6->7"] == ["cut"] and results(s3)["L8 S M6->7"] == ["cut"]
    assert results(s3)["M6->7"] == ["bounced"]
    assert results(s3)["M16->8"] == ["bounced"]


def test_attack_from_the_target_space_does_not_cut() -> None:
    """Rulebook: "Pieces that are issuing support into an adjacent target space have their
    support unbroken as long as they are not attacked from a place other than
    the target space or is not dislodged from the target space." """
    s = position(K4, {"Player1": "A8 M6", "Player3": "A7"}, war=WAR13)
    s2, _ = play(s, {"Player1": ["M6->7", "A8 S M6->7"], "Player3": ["A7->8"]})
    assert results(s2)["A8 S M6->7"] == []
    assert results(s2)["M6->7"] == ["moves"]
    assert s2["dislodged"][0]["at"] == 7


def test_dislodged_from_the_target_space_cuts() -> None:
    """... "or is not dislodged from the target space": the supporter dislodged by
    the attack from the space it supports into loses its support."""
    s = position(K4, {"Player1": "A8 M6", "Player3": "A7 A16 A18"}, war=WAR13)
    s3, _ = play(
        s,
        {"Player1": ["A8 S M6->7", "M6->7"], "Player3": ["A7->8", "A16 S A7->8"]},
    )
    assert results(s3)["A7->8"] == ["moves"]  # 4 against 2
    assert results(s3)["A8 S M6->7"] == ["cut", "dislodged from 7"]
    assert [d["at"] for d in s3["dislodged"]] == [8]


def test_a_moving_unit_cannot_be_supported_to_defend() -> None:
    """Rulebook: "A unit ordered to move CANNOT be supported to defend its province since it
    is trying to move away." """
    s = position(K4, {"Player1": "A8 M6"})
    s2, _ = play(s, {"Player1": ["A8->5", "M6 S A8"]})
    assert results(s2)["M6 S A8"] == ["void"]


def test_bounced_piece_has_priority_on_its_own_province() -> None:
    """Rulebook: "A piece that is moving to an adjacent province and is bounced back by equal
    or superior force has priority over other pieces of equal force moving on his
    original province so there may be a chain reaction of units being halted." """
    s = position(
        K4, {"Player1": "A8", "Player3": "A18 A16"}, war=WAR13, kingdom_war=[("Player3", "Wei")]
    )
    s2, _ = play(s, {"Player1": ["A8->7"], "Player3": ["A18->7", "A16->8"]})
    assert results(s2)["A8->7"] == ["bounced"]
    assert results(s2)["A16->8"] == ["bounced"]
    assert not s2["dislodged"]
    assert where(s2)["Player1"] == "A8"


def test_no_dislodging_ones_own_units() -> None:
    """Rulebook: "Unless using the option rule of Army Supremacy you may not dislodge one of
    your own units but may stage a supported move into a friendly occupied space
    to keep others out." """
    s = position(K4, {"Player1": "A8 M6 A9", "Player3": "A7"}, war=WAR13)
    s2, _ = play(s, {"Player1": ["M6->8", "A9 S M6->8"], "Player3": ["A7->8"]})
    assert results(s2)["M6->8"] == ["bounced"]
    assert results(s2)["A7->8"] == ["bounced"]  # kept out by the stronger own move
    assert where(s2)["Player1"] == "M6 A8 A9" and not s2["dislodged"]


def test_leader_joins_its_own_unit_but_not_anothers() -> None:
    """Rulebook: "Leaders ... are the only piece that can be combined with an Army or
    Militia"; "he may only be in a province with one of his own pieces";
    "There can only be one army or militia piece in a space at a time." """
    s = position(K4, {"Player1": "A8 L9 M10", "Player2": "A6"})
    s2, _ = play(s, {"Player1": ["L9->8"]})
    assert where(s2)["Player1"] == "L8 A8 M10"
    s3, _ = play(s, {"Player1": ["L9->10"]})
    assert where(s3)["Player1"] == "A8 L10 M10"
    s4, _ = play(s, {"Player1": ["M10->6"]})  # an ally's army: one unit per province
    assert results(s4)["M10->6"] == ["bounced"]
    s5, _ = play(s, {"Player1": ["M10->9"], "Player2": []})
    assert where(s5)["Player1"] == "A8 L9 M9"
    s6, _ = play(s, {"Player1": ["M10->8"]})
    assert results(s6)["M10->8"] == ["bounced"]


def test_unordered_and_invalid_orders_defend() -> None:
    """Rulebook: "A unit that has no order automatically defends his province. A unit whose
    order is written as invalid automatically defends his province. In both the
    above cases a piece may still be supported (unintentionally or not) by a
    neighboring piece if allowed to by diplomacy status." """
    s = position(K4, {"Player1": "A8 M9", "Player3": "A7 M5", "Player4": "M10"}, war=WAR13)
    attack = {"Player3": ["A7->8", "M5 S A7->8"]}  # 2 + 1
    s2, _ = play(s, attack)
    assert results(s2)["A7->8"] == ["moves"]  # against the army's 2 alone
    s3, _ = play(s, {**attack, "Player1": ["M9 S A8"]})
    assert results(s3)["A7->8"] == ["bounced"]  # 3 against 2 + 1
    # Player1 is neutral towards Player4: the move on 10 is invalid, A8 defends
    # and the support for its defence still counts.
    s4, events = play(s, {**attack, "Player1": ["A8->10", "M9 S A8"]})
    assert results(s4)["A7->8"] == ["bounced"]
    assert any("A8->10 is not carried out" in t for t in texts(events))


def test_retreat_leader_goes_with_its_unit() -> None:
    """Rulebook: "A piece that is dislodged must retreat to an adjacent province. If there is
    a Leader Character then the player must retreat the Leader Character to the
    same space as the unit it is with." """
    s = position(K4, {"Player3": "L7 M7", "Player1": "A8 A6"}, war=WAR13)
    s2, _ = play(s, {"Player1": ["A8->7", "A6 S A8->7"]})
    (d,) = s2["dislodged"]
    assert d["at"] == 7 and d["from"] == 8
    assert 8 not in d["options"] and 6 not in d["options"]  # occupied / attacker
    assert GAME.pending(s2)[0].roles == ("Player3",)
    to = d["options"][-1]
    s3, _ = play(s2, {"Player3": [f"M7->{to}"]})
    assert where(s3)["Player3"] == f"L{to} M{to}"
    assert s3["stage"] == "campaign" and s3["campaign"] == 2
    # The campaign's record keeps the retreats (the report's picture draws them).
    assert s3["last"]["retreats"] == [
        {"player": "Player3", "piece": p, "from": 7, "to": to, "result": "retreats"}
        for p in ("M7", "L7")
    ]


def test_army_always_takes_a_retreat() -> None:
    """Rulebook: "Army pieces that have a possible retreat will always take that retreat
    carrying any Leader Character with them": no disband order for an army, and
    without an order it takes the first retreat."""
    s = position(K4, {"Player3": "L7 A7", "Player1": "A8 A6 L5"}, war=WAR13)
    s2, _ = play(s, {"Player1": ["A8->7", "A6 S A8->7", "L5 S A8->7"]})
    with pytest.raises(IllegalLine):
        GAME.parse(s2, "Player3", "A7 DISBAND")
    first = s2["dislodged"][0]["options"][0]
    s3, _ = play(s2, {})
    assert where(s3)["Player3"] == f"L{first} A{first}"


def test_a_leader_dislodged_with_its_army_has_no_retreat_order_of_its_own() -> None:
    """Rulebook ("Dislodged"): "If there is a Leader Character then the player must
    retreat the Leader Character to the same space as the unit it is with." ...
    "Army pieces that have a possible retreat will always take that retreat
    carrying any Leader Character with them." A separate order for the leader
    is refused on its line, not accepted and then ignored."""
    s = position(K4, {"Player3": "L7 A7", "Player1": "A8 A6 L5"}, war=WAR13)
    s2, _ = play(s, {"Player1": ["A8->7", "A6 S A8->7", "L5 S A8->7"]})
    (d,) = s2["dislodged"]
    to = d["options"][-1]
    with pytest.raises(IllegalLine) as info:
        GAME.parse(s2, "Player3", f"L7->{to}")
    err = info.value
    assert err.line == f"L7->{to}"
    assert "the leader retreats with the army" in err.hint
    assert f'"A7->{to}"' in err.hint
    assert GAME.parse(s2, "Player3", f"A7->{to}").text == f"A7->{to}"
    assert all(not line.startswith("L") for line in GAME.legal(s2, "Player3"))
    s3, _ = play(s2, {"Player3": [f"A7->{to}"]})
    assert where(s3)["Player3"] == f"L{to} A{to}"


def test_militia_may_be_removed_and_the_leader_retreats_alone() -> None:
    """Rulebook: "A militia may elect to be removed from retreat if the player who owns it
    decides to. This is the only way a Leader Character and a retreating militia
    may be separated on a retreat." """
    s = position(K4, {"Player3": "L7 M7", "Player1": "A8 A6"}, war=WAR13)
    s2, _ = play(s, {"Player1": ["A8->7", "A6 S A8->7"]})
    to = s2["dislodged"][0]["options"][-1]
    s3, events = play(s2, {"Player3": ["M7 DISBAND", f"L7->{to}"]})
    assert where(s3)["Player3"] == f"L{to}"
    assert any("disbanded" in t for t in texts(events))
    assert s3["last"]["retreats"] == [
        {"player": "Player3", "piece": "M7", "from": 7, "to": None, "result": "disbanded"},
        {"player": "Player3", "piece": "L7", "from": 7, "to": to, "result": "retreats"},
    ]
    report = reports.game_report(GAME, GAME.view(s3, "Player1"), events, "Player1", "g1")
    assert f"RETREATS\n  Player3: M7  [disbanded]\n  Player3: L7->{to}  [retreats]\n" in report


def test_no_retreat_destroys_and_kills_the_leader() -> None:
    """Rulebook: "If there is no space to retreat to then the pieces are destroyed";
    "Leader Characters ... are only removed when killed"."""
    s = position(
        K4,
        {"Player3": "L12 A12", "Player1": "A5 A13 L16"},
        war=WAR13,
        owner={"Player1": [5], "Player3": [12]},
    )
    s2, events = play(s, {"Player1": ["A5->12", "A13 S A5->12"]})
    assert "Player3" not in where(s2)
    assert any("is killed" in t for t in texts(events))
    assert s2["stage"] == "campaign"


def test_leaders_take_no_centre() -> None:
    """Ours: centres change hands when an army or militia stands in them after a
    campaign (a support centre "can supply a piece ... of either an Army or a
    Militia"); a leader alone takes nothing."""
    s = position(K4, {"Player1": "L8 A6"}, owner={"Player1": [6]})
    s2, _ = play(s, {"Player1": ["L8->10", "A6->7"]})
    assert where(s2)["Player1"] == "A7 L10"
    assert "10" not in s2["owner"] and "8" not in s2["owner"]
    s3, _ = play(s2, {"Player1": ["A7->8"]})
    assert s3["owner"]["8"] == "Player1"


def test_two_retreats_into_one_province_destroy_both() -> None:
    """Ours (as in Diplomacy): dislodged pieces retreating into the same province
    are both destroyed."""
    s = position(
        K4,
        {"Player3": "A7 M14", "Player1": "A8 A5 M6 A11 A15"},
        war=[("Player1", "Player3")],
        kingdom_war=[("Player3", "Wei")],
    )
    s2, _ = play(
        s,
        {"Player1": ["A8->7", "A5 S A8->7", "A11->14", "A15 S A11->14"]},
    )
    assert sorted(d["at"] for d in s2["dislodged"]) == [7, 14]
    assert all(19 in d["options"] for d in s2["dislodged"])
    s3, events = play(s2, {"Player3": ["A7->19", "M14->19"]})
    assert "Player3" not in where(s3)
    assert sum("retreats collide" in t for t in texts(events)) == 2
    assert sorted((r["piece"], r["to"], r["result"]) for r in s3["last"]["retreats"]) == [
        ("A7", 19, "destroyed"), ("M14", 19, "destroyed")]


def test_heroic_escape_is_off_by_default_and_a_leader_alone_dies_without_retreat() -> None:
    """ "If there is no space to retreat to then the pieces are destroyed" applies to
    a leader standing alone too."""
    s = position(
        K4,
        {"Player3": "L12", "Player1": "A5 M13"},
        war=[("Player1", "Player3")],
        owner={"Player1": [5]},
    )
    s2, events = play(s, {"Player1": ["A5->12"]})
    assert "Player3" not in where(s2)
    assert any("is killed" in t for t in texts(events))
