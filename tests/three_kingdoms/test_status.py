"""Diplomatic status (rulebook, "Negotiation Status"): alliance, neutral, war,
civil war, and the kingdoms not under a player's control."""

from __future__ import annotations

import pytest

from bench.support.three_kingdoms import play, position, results, texts, where
from judge.game.engine import IllegalLine
from judge_games.three_kingdoms import GAME, RULES, rules

K4 = {"Player1": "Wei", "Player2": "Wei", "Player3": "Shu", "Player4": "Wu"}


def test_neutral_may_not_move_into_a_neutral_powers_provinces() -> None:
    """Rulebook: "Neutral: ... Player may not move into the provinces of the neutral power."
    The order is not carried out and the piece defends."""
    s = position(K4, {"Player1": "A8", "Player4": "M10"})
    s2, events = play(s, {"Player1": ["A8->10"]})
    assert results(s2)["A8->10"] == []
    assert where(s2)["Player4"] == "M10"
    assert any("neutral" in t for t in texts(events))


def test_neutral_may_not_give_or_receive_support() -> None:
    """Rulebook: "A player is neutral towards the other player and may not receive or give
    support to the other player." """
    s = position(K4, {"Player1": "A8", "Player3": "A7 A5"}, kingdom_war=[("Player3", "Wei")])
    _s2, events = play(s, {"Player1": ["A8 S A7->6"], "Player3": ["A7->6"]})
    assert any("A8 S A7->6 is not carried out" in t for t in texts(events))


def test_war_declared_in_the_campaign_allows_the_attack() -> None:
    """Rulebook: "War: ... May move into that kingdom and take ownership of spaces"; the
    status "is changed by declaration ... in the Military Campaign phase" (in
    effect from the campaign it is written in: our reading)."""
    s = position(K4, {"Player1": "A8 M6", "Player4": "M10"})
    s2, _events = play(s, {"Player1": ["WAR Player4", "A8->10", "M6 S A8->10"]})
    assert rules.status(s2, "Player1", "Player4") == "war"
    assert results(s2)["A8->10"] == ["moves"]
    s3, _ = play(s2, {})  # Player4 retreats by default
    assert s3["owner"]["10"] == "Player1"  # "take ownership of spaces"


def test_war_bars_support() -> None:
    """Rulebook: "War: ... may not support or receive support from the hostile player." """
    s = position(K4, {"Player1": "A8", "Player3": "A7"}, war=[("Player1", "Player3")])
    _s2, events = play(s, {"Player1": ["A8 S A7"]})
    assert any("not carried out" in t for t in texts(events))


def test_alliance_is_mutual_and_allows_support() -> None:
    """Rulebook: "Alliance: Both players must have the allied status to each other." ...
    "Players that are allied may have their military units issue support orders
    for the other player." """
    s = position(K4, {"Player1": "A8", "Player3": "A7"})
    s2, _ = play(s, {"Player1": ["ALLIANCE Player3"]})
    assert rules.status(s2, "Player1", "Player3") == "neutral"
    s3, events = play(s2, {"Player3": ["ALLIANCE Player1"], "Player1": ["A8 S A7"]})
    assert rules.status(s3, "Player1", "Player3") == "alliance"
    assert results(s3)["A8 S A7"] == []
    assert not any("not carried out" in t for t in texts(events))


def test_alliance_ends_with_a_neutral_or_war_order() -> None:
    """Rulebook: "When one player in an Alliance issues a 'Neutral or War' status order in his
    military campaign the alliance is over." """
    s = position(K4, {"Player1": "A8", "Player2": "A2"})
    assert rules.status(s, "Player1", "Player2") == "alliance"
    s2, _ = play(s, {"Player2": ["NEUTRAL Player1"]})
    assert rules.status(s2, "Player1", "Player2") == "neutral"
    s3, _ = play(s, {"Player1": ["WAR Player2"]})
    assert rules.status(s3, "Player1", "Player2") == "war"


def test_allies_stand_in_each_others_centres_without_taking_them() -> None:
    """Rulebook: "Players that are allied may have their units in each other's support
    centers without taking control over them." """
    s = position(K4, {"Player1": "A8", "Player2": "A2"}, owner={"Player2": [2, 6]})
    s2, _ = play(s, {"Player1": ["A8->6"]})
    assert where(s2)["Player1"] == "A6"
    assert s2["owner"]["6"] == "Player2"


def test_allies_may_not_support_an_attack_on_a_friend_of_theirs() -> None:
    """Rulebook: "Allies may not support an attack on a province that is owned by another
    player that they are neutral or allied to." """
    s = position(
        K4,
        {"Player1": "A23", "Player3": "A24", "Player4": "M35"},
        alliance=[("Player1", "Player3")],
        war=[("Player3", "Player4")],
    )
    orders = {"Player1": ["A23 S A24->35"], "Player3": ["A24->35"]}
    s2, events = play(s, orders)
    assert any("may not support an attack" in t for t in texts(events))
    assert results(s2)["A24->35"] == ["bounced"]  # 2 against a militia at home (2)
    s3, _ = play(s, {"Player1": ["WAR Player4", *orders["Player1"]], "Player3": ["A24->35"]})
    assert results(s3)["A24->35"] == ["moves"]


def test_entering_a_kingdom_needs_war_with_it_while_it_has_unowned_centres() -> None:
    """Rulebook: "For a Wu player to enter the Kingdom of Wei and take control over those
    centers he must be at War with Wei. Once all the Kingdom's support centers
    are controlled by players, then it is no longer necessary to be at War with
    Wei to invade as the player would have to be at war with the owner." """
    s = position(K4, {"Player3": "A25", "Player1": "A8"})
    s2, events = play(s, {"Player3": ["A25->5"]})
    assert where(s2)["Player3"] == "A25"
    assert any("not at war with the kingdom of Wei" in t for t in texts(events))
    s3, _ = play(s, {"Player3": ["WAR Wei", "A25->5"]})
    assert where(s3)["Player3"] == "A5" and s3["owner"]["5"] == "Player3"
    wei = RULES.map.centres("Wei")
    owned = position(K4, {"Player3": "A25", "Player1": "A8"}, owner={"Player1": wei})
    s4, _ = play(owned, {"Player3": ["A25->13"]})  # an unowned Wei province
    assert where(s4)["Player3"] == "A13"


def test_civil_war_is_declared_and_never_revoked() -> None:
    """Rulebook: "Civil War: A player is at war with the other player in his own kingdom. As
    in all war cases you may not support that player. Once Civil War is declared
    there can be no peace within the kingdom." """
    s = position(K4, {"Player1": "A8", "Player2": "A6"})
    s2, _ = play(s, {"Player1": ["CIVIL WAR Player2"]})
    assert rules.status(s2, "Player1", "Player2") == "civil war"
    for line in ("ALLIANCE Player1", "NEUTRAL Player1"):
        with pytest.raises(IllegalLine, match="civil war"):
            GAME.parse(s2, "Player2", line)
    _s3, events = play(s2, {"Player1": ["A8 S A6"]})
    assert any("not carried out" in t for t in texts(events))
    with pytest.raises(IllegalLine):
        GAME.parse(s, "Player1", "CIVIL WAR Player3")


def test_rulebook_civil_war_example() -> None:
    """Rulebook: "In the first Great Turn a Wei Leader Character starts with provinces 8,6 and
    9, and then after the two campaign moves owns in addition to his starting
    three points: 5,10, 23. Thus he reaches six centers. At this point ... there
    is automatic Civil War between the two Wei Leader Character positions
    regardless of what they may want otherwise and they may never be neutral or
    allied with each other for the rest of the game." """
    s = position(
        K4,
        {
            "Player1": "L8 A8 M6 M9",
            "Player2": "L2 A2 M3 M4",
            "Player3": "L27 A27 M25 M28",
            "Player4": "L39 A39 M40 M41",
        },
    )
    assert rules.centres_of(s, "Player1") == [6, 8, 9]
    s, _ = play(s, {"Player1": ["A8->5", "M9->10", "M6->7"]})
    assert rules.status(s, "Player1", "Player2") == "alliance"
    s, _ = play(s, {"Player1": ["M7->23"]})
    assert rules.centres_of(s, "Player1") == [5, 6, 8, 9, 10, 23]
    assert s["stage"] == "adjust"
    s, events = play(s, {"Player1": ["WAIVE"]})
    assert s["turn"] == 2 and s["stage"] == "campaign"
    assert rules.status(s, "Player1", "Player2") == "civil war"
    assert any("Civil war in Wei" in t for t in texts(events))
    with pytest.raises(IllegalLine):
        GAME.parse(s, "Player2", "ALLIANCE Player1")


def test_no_automatic_civil_war_below_six() -> None:
    s = position(K4, {"Player1": "L8 A8 M6 M9", "Player2": "L2 A2"})
    s, _ = play(s, {"Player1": ["A8->5", "M9->10"]})
    s, _ = play(s, {})
    s, _ = play(s, {"Player1": ["WAIVE"]})
    assert s["turn"] == 2
    assert rules.status(s, "Player1", "Player2") == "alliance"
