"""Scenarios and Setup, Forces and Factions, Territory Control, and the draw
step (Turn Sequence)."""

from __future__ import annotations

from judge_games.conflict_of_alliances import GAME
from judge_games.conflict_of_alliances import board as B
from judge_games.conflict_of_alliances.data import DATA
from tests.conflict_of_alliances.helpers import A, L, counts, deal, empty, new, play, put


def test_five_kingdoms_setup_is_the_player_aid_list() -> None:
    """Player Aid II, Scenario 1: "Guanzhong (4x Qin, 1x Sima Cuo) Hanzhong (2x
    Qin) Xiao Han (3x Qin) Shang Jun (3x Qin) He Dong (3x Wei) Ba Shu (2x Shu)
    Han (3x Han) Nan Yang (4x Chu) Nan Jun (2x Chu) Han Dan (2x Zhao) Yan (4x
    Yan)"; all counters front side up, armies in the cities."""
    s = new("five-kingdoms")
    expect = {
        "guanzhong": ("qin", 4, {"sima-cuo": True}), "hanzhong": ("qin", 2, {}),
        "xiao-han": ("qin", 3, {}), "shang-jun": ("qin", 3, {}), "he-dong": ("wei", 3, {}),
        "ba-shu": ("shu", 2, {}), "han": ("han", 3, {}), "nan-yang": ("chu", 4, {}),
        "nan-jun": ("chu", 2, {}), "han-dan": ("zhao", 2, {}), "yan": ("yan", 4, {}),
    }
    for area, (force, armies, gens) in expect.items():
        assert B.controller(s, area) == force, area
        assert counts(s, area, force) == (armies, 0, gens), area


def test_taiyuan_has_four_zhao_in_both_scenarios() -> None:
    """Scenarios and Setup: "Taiyuan has 4 Zhao army counters in its city in
    both scenarios"."""
    for scenario in ("five-kingdoms", "qin-dominates"):
        s = new(scenario)
        assert B.controller(s, "taiyuan") == "zhao"
        assert counts(s, "taiyuan", "zhao") == (4, 0, {})


def test_shu_li_ji_at_xiao_han_only_in_qin_dominates() -> None:
    """Scenarios and Setup: "In Qin Dominates, Xiao Han has the general Shu Li Ji
    and 3 Qin army counters in its city. In Five Kingdoms Attack Qin it has only
    the 3 Qin army counters"."""
    assert counts(new("qin-dominates"), "xiao-han", "qin") == (3, 0, {"shu-li-ji": True})
    assert counts(new("five-kingdoms"), "xiao-han", "qin") == (3, 0, {})


def test_yiqu_in_the_field_where_qin_holds_the_city() -> None:
    """Scenarios and Setup: "Where the Qin army and the Yiqu army are in the same
    area, place the Qin army in the city and ... the Yiqu army in the field";
    Territory Control: "at the start of Five Kingdoms Attack Qin, the Qin army
    is in the city of Longxi while the Yiqu army is in the field, so Qin
    controls that area"."""
    for scenario in ("five-kingdoms", "qin-dominates"):
        s = new(scenario)
        for area in ("longxi", "shang-jun"):
            assert B.controller(s, area) == "qin"
            assert "yiqu" in B.field_forces(s, area)


def test_initiative_turns_and_stances() -> None:
    """Preparation: "In Qin Dominates the initiative token is placed on the
    Alliance side. In Five Kingdoms Attack Qin it is placed on the Lianheng
    side"; five and seven turns; only Revenge Qin counters start Not Received:
    Chu in Qin Dominates, Zhao in Five Kingdoms."""
    fk, qd = new("five-kingdoms"), new("qin-dominates")
    assert fk["initiative"] == {"side": L, "switched": False} and fk["turns"] == 5
    assert qd["initiative"] == {"side": A, "switched": False} and qd["turns"] == 7
    assert fk["active"] == L and qd["active"] == A
    for s, revenge in ((fk, "zhao"), (qd, "chu")):
        for force, d in s["diplomacy"].items():
            assert d["received"] == (force != revenge), force
            assert d["revenge"] == (force == revenge)
        assert B.stance_name(s, revenge) == "Revenge Qin"
        assert B.faction(s, revenge) == A


def test_factions_follow_the_track() -> None:
    """Forces and Factions: Qin always Lianheng; Serve Qin forces Lianheng;
    Afraid of Qin, Revenge Qin, Anti-Qin forces Alliance; the rest, and Song
    and Shu always, Neutral."""
    s = new("qin-dominates")
    assert B.faction(s, "qin") == L
    assert B.faction(s, "han") == L  # Serve Qin in this scenario
    assert B.faction(s, "chu") == A  # Revenge Qin
    assert B.faction(s, "zhao") == "Neutral"
    assert B.faction(s, "song") == "Neutral" and B.faction(s, "shu") == "Neutral"
    s["diplomacy"]["zhao"]["pos"] = DATA.space_index["afraid-qin"]
    assert B.faction(s, "zhao") == A


def test_each_deck_is_shuffled_and_the_first_hands_drawn() -> None:
    """Preparation: "Each player shuffles their own 23 cards"; Draw step."""
    s = new("five-kingdoms")
    for side in (L, A):
        z = s["cards"][side]
        assert len(z["hand"]) + len(z["deck"]) == 23
        assert z["hand"] + z["deck"] != DATA.deck_list(side)  # not in the printed order
    z24 = new("five-kingdoms", aid_24th_card=True)["cards"][L]
    assert len(z24["hand"]) + len(z24["deck"]) == 24


def test_draw_step_more_resource_points_draw_six() -> None:
    """Turn Sequence, Draw step: "The side with more RP draws 6 cards. The side
    with fewer RP draws 5 cards. If both sides have the same RP, both sides
    draw 5 cards"."""
    s = new("five-kingdoms")
    rp_l, rp_a = B.rp_of(s, L), B.rp_of(s, A)
    assert rp_l != rp_a
    more = L if rp_l > rp_a else A
    assert len(s["cards"][more]["hand"]) == 6
    assert len(s["cards"][A if more == L else L]["hand"]) == 5
    # Equal resource points: five each.
    s = empty()
    put(s, "guanzhong", "qin", 1)
    put(s, "han-dan", "zhao", 1)
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin")
    s["turn"] = 1
    s["turns"] = 5
    s, _ = play(s, L, "PASS")
    s, _ = play(s, A, "PASS")
    assert [len(s["cards"][x]["hand"]) for x in (L, A)] == [5, 5]


def test_views_hide_the_other_hand() -> None:
    s = new("qin-dominates")
    for side, role in s["seats"].items():
        view = GAME.view(s, role)
        assert view["hand"] == sorted(c.rsplit(".", 1)[0] for c in s["cards"][side]["hand"])
    assert "hand" not in GAME.view(s, None)
