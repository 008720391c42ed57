"""The optional rules 1-7, each a game option (rulebook, "Optional Rules")."""

from __future__ import annotations

from typing import Any

import pytest

from bench.support.three_kingdoms import play, position, results, texts, where
from judge.game.engine import IllegalLine
from judge_games.three_kingdoms import GAME, RULES, rules

K4 = {"Player1": "Wei", "Player2": "Wei", "Player3": "Shu", "Player4": "Wu"}
WAR13 = [("Player1", "Player3")]


def test_every_optional_rule_is_an_option_off_by_default() -> None:
    names = [o.name for o in GAME.options]
    for name in (
        "heroic_escape",
        "militia_disband",
        "free_style",
        "army_supremacy",
        "capital_destruction",
        "neutral_zone_battles",
        "combined_leaders",
    ):
        assert name in names
        assert next(o.default for o in GAME.options if o.name == name) is False


def _trapped(**options: Any) -> dict[str, Any]:
    """Player3's leader and army in Liangzhou (12), attacked from both its
    neighbours: dislodged with no retreat. Player3's capital is Chengdu (27)."""
    return position(
        K4,
        {"Player3": "L12 A12 M27", "Player1": "A5 A13"},
        war=WAR13,
        owner={"Player1": [5], "Player3": [12, 27]},
        capital={"Player3": 27},
        **options,
    )


ATTACK = {"Player1": ["A5->12", "A13 S A5->12"]}


def test_1_heroic_escape() -> None:
    """Rulebook: "Heroic Escape: Each character is allowed one historic escape from certain
    death if he owns his capital, when the unit he is with is dislodged without
    any space for a retreat. The character is then returned to his capital only
    if it is still owned by him." """
    s, events = play(_trapped(heroic_escape=True), ATTACK)
    assert where(s)["Player3"] == "L27 M27"
    assert any("heroic escape" in t for t in texts(events))
    again = _trapped(heroic_escape=True)
    again["escaped"] = ["Player3"]  # "one historic escape"
    s2, events = play(again, ATTACK)
    assert where(s2)["Player3"] == "M27"
    lost = _trapped(heroic_escape=True)
    lost["owner"]["27"] = "Player4"  # the capital is no longer his
    s3, _ = play(lost, ATTACK)
    assert "L" not in where(s3)["Player3"]
    s4, _ = play(_trapped(), ATTACK)  # the option off: killed
    assert where(s4)["Player3"] == "M27"


def _to_adjustment(s: dict[str, Any]) -> dict[str, Any]:
    while s["stage"] != "adjust" and s["turn"] == 1:
        s, _ = play(s, {})
    return s


def test_2_militia_disband() -> None:
    """Rulebook: "Militia disband: all militia units outside of their kingdom are marked ...
    the first time they are found outside of their kingdom during an adjustment
    supply phase. If the militia is found outside of its kingdom on a second
    adjustment supply phase the unit is removed before the ratio of units on
    board to support centers is made." """
    s = position(K4, {"Player1": "L8 A8 M23 M6"}, militia_disband=True)
    s, events = play(s, {})
    s, events = play(s, {})
    assert next(p for p in s["pieces"] if p["at"] == 23)["marked"] is True
    assert next(p for p in s["pieces"] if p["at"] == 6)["marked"] is False
    assert any("marked" in t for t in texts(events))
    while s["turn"] < 2 or s["campaign"] != 2 or s["stage"] != "campaign":
        s, _ = play(s, {"Player1": ["WAIVE"]} if s["stage"] == "adjust" else {})
    s, events = play(s, {})
    assert where(s)["Player1"] == "M6 L8 A8"
    assert any("goes home" in t for t in texts(events))
    off = position(K4, {"Player1": "L8 A8 M23 M6"})
    off, _ = play(off, {})
    off, _ = play(off, {})
    assert all(not p["marked"] for p in off["pieces"])


def test_3_free_style_diplomacy() -> None:
    """Rulebook: "Free Style Diplomacy: play without Alliances, neutrality or War, Civil
    War": no status orders, any piece may support any piece, and pieces may
    move anywhere."""
    s = position(K4, {"Player1": "A8 M6", "Player4": "M10", "Player3": "A25"}, free_style=True)
    with pytest.raises(IllegalLine, match="free style"):
        GAME.parse(s, "Player1", "WAR Player4")
    s2, _ = play(s, {"Player1": ["A8->10", "M6 S A8->10"], "Player3": ["A25->5"]})
    assert results(s2)["A8->10"] == ["moves"]
    assert results(s2)["A25->5"] == ["moves"]
    s3, _events = play(s, {"Player4": ["M10 S A8"]})
    assert results(s3)["M10 S A8"] == []
    assert GAME.view(s, None)["status"] == []


def test_4_army_supremacy() -> None:
    """Rulebook: "Army Supremacy: ... an army moving into a space with a friendly militia will
    dislodge the militia to take dominance in the space. Militia so dislodged will
    be removed from the board and not allowed to retreat." """
    s = position(K4, {"Player1": "A8 M6"}, army_supremacy=True)
    s2, _events = play(s, {"Player1": ["A8->6"]})
    assert where(s2)["Player1"] == "A6"
    assert results(s2)["M6 D (no order)"] == ["removed by the army"]
    assert not s2["dislodged"]
    s3, _ = play(position(K4, {"Player1": "A8 M6"}), {"Player1": ["A8->6"]})
    assert where(s3)["Player1"] == "M6 A8"  # without the option: no dislodging one's own


def test_5_destruction_of_a_capital() -> None:
    """Rulebook: "Destruction of a capital an army (friend or foe) that sits for two
    consecutive orders with a destruction order (new order) may destroy the
    capital and it is no longer considered as a supply center." """
    s = position(
        K4,
        {"Player3": "A8", "Player1": "L6 M6"},
        owner={"Player1": [6], "Player3": [8]},
        capital={"Player1": 8},
        capital_destruction=True,
    )
    s2, _ = play(s, {"Player3": ["A8 DESTROY"]})
    assert s2["destroyed"] == []
    s3, events = play(s2, {"Player3": ["A8 DESTROY"]})
    assert s3["destroyed"] == [8]
    assert "8" not in s3["owner"]
    assert any("destroyed" in t for t in texts(events))
    assert not rules.is_centre(RULES.map, s3, 8)
    # Not consecutive: the count starts again.
    s4, _ = play(s2, {"Player3": ["A8 D"]})
    assert s4["destroying"] == {}
    with pytest.raises(IllegalLine):
        GAME.parse(s, "Player1", "M6 DESTROY")  # an army, in a capital
    with pytest.raises(IllegalLine, match="optional rule 5"):
        GAME.parse(
            {**s, "options": {**s["options"], "capital_destruction": False}},
            "Player3",
            "A8 DESTROY",
        )


def test_6_neutral_zone_battles() -> None:
    """Rulebook: "Neutral zone battles: Players may be neutral to each other and still attack
    and dislodge non-allies in the Neutral provinces that are in any initial
    Kingdom." (Ours: a neutral province is one no player owns.)"""
    pieces = {"Player1": "A8 M6", "Player3": "A7"}
    orders = {"Player1": ["A8->7", "M6 S A8->7"]}
    s, events = play(position(K4, pieces), orders)
    assert any("neutral" in t for t in texts(events)) and not s["dislodged"]
    s2, _ = play(position(K4, pieces, neutral_zone_battles=True), orders)
    assert results(s2)["A8->7"] == ["moves"] and s2["dislodged"][0]["at"] == 7
    owned = position(K4, {"Player1": "A8", "Player4": "M10"}, neutral_zone_battles=True)
    _s3, events = play(owned, {"Player1": ["A8->10"]})
    assert any("not carried out" in t for t in texts(events))


def test_7_combined_leaders() -> None:
    """Rulebook: "Combined leaders: two leaders of allied factions may combine together with
    an army or a militia unit. However, in the event of one side breaking the
    alliance the player owning the militia or army automatically kills the other
    leader." """
    pieces = {"Player1": "L8 A8", "Player2": "L9"}
    s, _ = play(position(K4, pieces), {"Player2": ["L9->8"]})
    assert results(s)["L9->8"] == ["bounced"]  # the option off
    s, _ = play(position(K4, pieces, combined_leaders=True), {"Player2": ["L9->8"]})
    assert where(s) == {"Player1": "L8 A8", "Player2": "L8"}
    s2, events = play(s, {"Player2": ["NEUTRAL Player1"]})
    assert where(s2) == {"Player1": "L8 A8"}
    assert any("is killed" in t for t in texts(events))


def test_7_combined_leaders_alone_go_home() -> None:
    """Rulebook: "If both leaders are alone, then both leaders are sent to their own capital
    and the one without a capital is killed." """
    s = position(
        K4,
        {"Player1": "L7", "Player2": "L7"},
        owner={"Player1": [8]},
        capital={"Player1": 8},
        combined_leaders=True,
    )
    s2, events = play(s, {"Player1": ["WAR Player2"]})
    assert where(s2) == {"Player1": "L8"}
    assert any("is killed" in t for t in texts(events))


def test_7_two_leaders_in_one_province_are_told_apart_by_owner() -> None:
    """With two leaders in one province both are written ``L8``; a support names
    the writer's own leader there (README, "Our readings")."""
    s = position(
        K4,
        {"Player1": "L8 A8", "Player2": "L8 M10"},
        owner={"Player1": [8], "Player2": [10]},
        combined_leaders=True,
    )
    s2, _ = play(s, {"Player2": ["L8->9", "M10 S L8->9"]})
    assert results(s2)["M10 S L8->9"] == []  # matched, not void
    assert where(s2) == {"Player1": "L8 A8", "Player2": "L9 M10"}
