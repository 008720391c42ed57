"""The skills of the fifteen Wu generals, each test citing its entry in the
skills data (kingdom-wars-skills.yaml, by the data's id) or the rulebook
(kingdom-wars.txt). The other seats hold generals whose skills answer none
of the moments played here."""

from __future__ import annotations

import pytest

from bench.support.kingdom_wars import (
    answer,
    ask,
    copy_of,
    decision,
    hp,
    open_ask,
    pass_all,
    play,
    table,
    texts,
)
from judge.game.engine import IllegalLine, State
from judge_games.kingdom_wars import GAME
from judge_games.kingdom_wars.table import label

OTHERS = {"B": ("liu-bei", "zhao-yun"), "C": ("yuan-shao", "hua-tuo"),
          "D": ("dian-wei", "xu-chu")}
ALL = ["main", "deputy"]


def seats(a: tuple[str, str], **more: tuple[str, str]) -> dict[str, tuple[str, str]]:
    return {"A": a, **OTHERS, **more}


def shown_all(*hidden: str) -> dict[str, list[str]]:
    return {r: ALL for r in "ABCD" if r not in hidden}


def c(kind: str, code: str) -> str:
    """The copy of ``kind`` with suit letter and number ``code`` (``S7``)."""
    suit = {"S": "spades", "H": "hearts", "C": "clubs", "D": "diamonds"}[code[0]]
    return copy_of(kind, suit, int(code[1:]))


def offered(state: State, role: str) -> list[str]:
    return GAME.legal(state, role)


def trigger_for(state: State, role: str, moment: str) -> bool:
    top = ask(state)
    return (top is not None and top["kind"] == "trigger" and top["m"]["name"] == moment
            and role in top["roles"])


def until_trigger(state: State, role: str, moment: str) -> State:
    """Pass the windows on top until ``role`` is asked at ``moment``."""
    for _ in range(50):
        if trigger_for(state, role, moment):
            return state
        top = ask(state)
        assert top is not None and top["kind"] in ("trigger", "negate", "respond"), top
        state, _ = play(state, top["roles"][0], "PASS")
    raise AssertionError(f"{role} was not asked at {moment}")


# --------------------------------------------------------------------------- Sun Quan


def test_balance_of_power_discards_up_to_max_health_and_draws_as_many() -> None:
    """kingdom-wars-skills.yaml, zhiheng: "Discard between 1 and X cards
    (hand/equip), X = your max HP ... Draw as many cards as you discarded";
    once per Play Phase."""
    hand = [c("attack", "S5"), c("dodge", "H2"), c("peach", "H4"), c("wine", "S9"),
            c("duel", "S1")]
    top = [c("attack", "C2"), c("attack", "C3")]
    s = table(seats(("sun-quan", "gan-ning")), hands={"A": hand}, equip={"A": [c("red-hare",
              "H5")]}, shown=shown_all(), deck_top=top)
    assert s["p"]["A"]["max_hp"] == 4
    with pytest.raises(IllegalLine, match="1 to 4"):
        play(s, "A", "USE Balance of Power WITH Attack S5 Dodge H2 Peach H4 Wine S9 Duel SA")
    s, ev = play(s, "A", "USE Balance of Power WITH Attack S5 Red Hare H5")
    assert "seat A discards Attack S5, Red Hare H5 (Balance of Power)." in texts(ev)
    assert sorted(s["p"]["A"]["hand"]) == sorted([*hand[1:], *top])
    assert s["p"]["A"]["equip"]["minus"] is None
    with pytest.raises(IllegalLine, match="once per Play Phase"):
        play(s, "A", "USE Balance of Power WITH Dodge H2")


def test_balance_of_power_of_a_hidden_general_exposes_it() -> None:
    """kingdom-wars-skills.yaml, meta.hidden_general_policy: "Active and
    view-as skills reveal when used"."""
    s = table(seats(("sun-quan", "gan-ning")), hands={"A": [c("attack", "S5")]},
              shown=shown_all("A"))
    assert "USE Balance of Power WITH Attack S5" in offered(s, "A")
    s, ev = play(s, "A", "USE Balance of Power WITH Attack S5")
    assert s["p"]["A"]["shown"] == [True, False]
    assert any("exposes Sun Quan" in t for t in texts(ev))


def test_standing_answers_ask_a_seat_whose_skill_watches_the_moment() -> None:
    """The default standing answers ASK WHEN CAN: "a skill (of an exposed or
    hidden general of its own) that ... answers the moment" (policy.py); a
    seat with none of them passes. (Skill ids were once compared with their
    lookup form, so no skill of two words ever counted.)"""
    hand = [c("dodge", "H2")]
    for shown in (shown_all(), shown_all("A")):
        s = table(seats(("lv-meng", "sun-quan")), hands={"A": hand}, shown=shown)
        s, _ = play(s, "A", "PASS")
        s = until_trigger(s, "A", "before_discard")
        assert GAME.policy_holds(GAME.view(s, "A"), decision(s), "CAN")


# --------------------------------------------------------------------------- Gan Ning


def test_night_raid_uses_a_black_card_as_burning_bridges() -> None:
    """kingdom-wars-skills.yaml, qixi: "one black card (hand/equip) ... Use it
    as Burning Bridges"."""
    shield = c("nio-shield", "C2")
    s = table(seats(("gan-ning", "sun-quan")), hands={"A": [c("attack", "C3"),
              c("dodge", "H2")]}, equip={"B": [shield]}, shown=shown_all())
    with pytest.raises(IllegalLine, match="does not make"):
        play(s, "A", "USE Burning Bridges BY Night Raid WITH Dodge H2 ON B")
    s, ev = play(s, "A", "USE Burning Bridges BY Night Raid WITH Attack C3 ON B")
    assert any("Burning Bridges (Night Raid, Attack C3)" in t for t in texts(ev))
    s, _ = pass_all(s)
    assert open_ask(s)["kind"] == "choose" and open_ask(s)["roles"] == ["A"]
    s, _ = play(s, "A", f"TAKE {label(shield)}")
    assert s["p"]["B"]["equip"]["armor"] is None and shield in s["discard"]


# --------------------------------------------------------------------------- Lv Meng


def test_self_restraint_skips_the_discard_phase_without_an_attack() -> None:
    """kingdom-wars-skills.yaml, keji: "Just before your Discard Phase would
    begin ... During this turn's Play Phase you neither used nor played any
    Attack ... Skip your Discard Phase"."""
    hand = [c("dodge", "H2"), c("dodge", "D2"), c("dodge", "D3"), c("dodge", "D6"),
            c("dodge", "D7"), c("attack", "S5")]
    s = table(seats(("lv-meng", "sun-quan")), hands={"A": hand}, shown=shown_all(),
              hp={"A": 2})
    s, _ = play(s, "A", "PASS")
    assert trigger_for(s, "A", "before_discard")
    s, ev = answer(s, {"A": ["USE Self-Restraint"]})
    assert "seat A's Discard Phase is skipped." in texts(ev)
    assert len(s["p"]["A"]["hand"]) == 6 and s["current"] == "B"
    # after an Attack in the Play Phase it is not offered: A discards down to 2
    s = table(seats(("lv-meng", "sun-quan")), hands={"A": hand}, shown=shown_all(),
              hp={"A": 2})
    s, _ = play(s, "A", "USE Attack S5 ON B")
    s, _ = pass_all(s)
    s, _ = play(s, "A", "PASS")
    the_ask = open_ask(s)
    assert the_ask["kind"] == "cards" and the_ask["verb"] == "DISCARD" and the_ask["least"] == 3


# --------------------------------------------------------------------------- Huang Gai


def test_self_injury_ruse_loses_one_health_then_draws_two() -> None:
    """kingdom-wars-skills.yaml, kurou: "Lose 1 HP (if this puts you into
    dying, the rescue is resolved first) ... Then, if still alive, draw two
    cards"; any number of times."""
    top = [c("attack", "C2"), c("attack", "C3"), c("attack", "C4"), c("attack", "C5")]
    s = table(seats(("huang-gai", "sun-quan")), shown=shown_all(), deck_top=top)
    n = len(s["p"]["A"]["hand"])
    s, _ = play(s, "A", "USE Self-Injury Ruse")
    s, _ = play(s, "A", "USE Self-Injury Ruse")
    assert hp(s, "A") == 2 and len(s["p"]["A"]["hand"]) == n + 4
    # at 1 health: dying first, rescued by its own Peach, then the two cards
    peach = c("peach", "H4")
    s = table(seats(("huang-gai", "sun-quan")), hands={"A": [peach]}, shown=shown_all(),
              hp={"A": 1}, deck_top=top)
    s, _ = play(s, "A", "USE Self-Injury Ruse")
    assert open_ask(s)["window"] == "rescue" and s["p"]["A"]["hand"] == [peach]
    s, _ = answer(s, {"A": ["PEACH"]})
    assert hp(s, "A") == 1 and sorted(s["p"]["A"]["hand"]) == sorted(top[:2])


# --------------------------------------------------------------------------- Zhou Yu


def test_heroic_bearing_draws_one_more_card() -> None:
    """kingdom-wars-skills.yaml, yingzi: "Your Draw Phase, when the number of
    cards to draw is fixed ... Draw one additional card"."""
    top = [c("attack", "C2"), c("attack", "C3"), c("attack", "C4")]
    s = table(seats(("zhou-yu", "xiao-qiao")), shown=shown_all(), phase="draw",
              deck_top=top)
    assert trigger_for(s, "A", "draw_count")
    s, _ = answer(s, {"A": ["USE Heroic Bearing"]})
    assert sorted(s["p"]["A"]["hand"]) == sorted(top)


def test_heroic_bearing_of_a_hidden_general_is_offered_and_exposes_it() -> None:
    """kingdom-wars-skills.yaml, meta.hidden_general_policy: "Trigger skills:
    when the trigger condition is met the owner is offered the skill;
    accepting reveals the general, then the skill resolves"."""
    top = [c("attack", "C2"), c("attack", "C3"), c("attack", "C4")]
    s = table(seats(("zhou-yu", "xiao-qiao")), shown=shown_all("A"), phase="draw",
              deck_top=top)
    s = until_trigger(s, "A", "draw_count")
    assert "USE Heroic Bearing" in offered(s, "A")
    s, ev = answer(s, {"A": ["USE Heroic Bearing"]})
    assert s["p"]["A"]["shown"][0] and any("exposes Zhou Yu" in t for t in texts(ev))
    assert len(s["p"]["A"]["hand"]) == 3


def test_sow_discord_deals_damage_when_the_suit_named_is_wrong() -> None:
    """kingdom-wars-skills.yaml, fanjian: "The target names a suit, then takes
    one of your hand cards blind and shows it. If its suit differs from the
    named suit, you deal 1 damage to the target. The target keeps the card."""
    card = c("attack", "C2")
    for named, damage in (("HEARTS", 1), ("CLUBS", 0)):
        s = table(seats(("zhou-yu", "lu-su")), hands={"A": [card]}, shown=shown_all())
        s, _ = play(s, "A", "USE Sow Discord ON B")
        assert open_ask(s)["kind"] == "choose" and open_ask(s)["roles"] == ["B"]
        s, ev = play(s, "B", f"CHOOSE {named}")
        s, _ = pass_all(s)
        assert card in s["p"]["B"]["hand"] and not s["p"]["A"]["hand"]
        assert hp(s, "B") == 4 - damage
        assert "seat B takes Attack C2 from seat A's hand and shows it (Sow Discord)." in texts(ev)
        with pytest.raises(IllegalLine):
            play(s, "A", "USE Sow Discord ON C")


# --------------------------------------------------------------------------- Da Qiao


def test_national_beauty_uses_a_diamond_as_acedia() -> None:
    """kingdom-wars-skills.yaml, guose: "one Diamond card (hand/equip) ... Use
    it as Acedia"."""
    diamond = c("dodge", "D2")
    s = table(seats(("da-qiao", "xiao-qiao")), hands={"A": [diamond, c("dodge", "H2")]},
              shown=shown_all())
    with pytest.raises(IllegalLine):
        play(s, "A", "USE Acedia BY National Beauty WITH Dodge H2 ON C")
    s, _ = play(s, "A", "USE Acedia BY National Beauty WITH Dodge D2 ON C")
    assert s["p"]["C"]["judge"] == [{"card": diamond, "as": "acedia"}]


def test_deflect_passes_an_attack_to_another_player_in_range() -> None:
    """kingdom-wars-skills.yaml, liuli: "When you become a target of an
    Attack ... Discard one card ... You stop being a target of that Attack
    and the chosen player becomes a target instead"; never its user."""
    s = table(seats(("da-qiao", "xiao-qiao")), hands={"A": [c("dodge", "H2")],
              "B": [c("attack", "S5")]}, shown=shown_all(), turn="B")
    s, _ = play(s, "B", "USE Attack S5 ON A")
    assert trigger_for(s, "A", "targeted")
    lines = offered(s, "A")
    assert "USE Deflect WITH Dodge H2 ON D" in lines
    assert not any(x.endswith("ON B") for x in lines)  # the Attack's user
    with pytest.raises(IllegalLine, match="not its user"):
        play(s, "A", "USE Deflect WITH Dodge H2 ON B")
    s, ev = answer(s, {"A": ["USE Deflect WITH Dodge H2 ON D"]})
    assert "seat A deflects the Attack to seat D." in texts(ev)
    s, _ = pass_all(s)
    assert hp(s, "A") == 3 and hp(s, "D") == 3


def test_deflect_range_is_counted_without_the_card_discarded() -> None:
    """kingdom-wars-skills.yaml, liuli: "Discard one card (hand/equip). If it
    is your weapon or -1 mount, range is checked without it"; the Red Hare
    brings C (two seats away) to distance 1 (Mount)."""
    hare = c("red-hare", "H5")
    s = table(seats(("da-qiao", "xiao-qiao")), hands={"A": [c("dodge", "H2")],
              "B": [c("attack", "S5")]}, equip={"A": [hare]}, shown=shown_all(), turn="B")
    s, _ = play(s, "B", "USE Attack S5 ON A")
    lines = offered(s, "A")
    assert "USE Deflect WITH Dodge H2 ON C" in lines
    assert "USE Deflect WITH Red Hare H5 ON D" in lines
    assert "USE Deflect WITH Red Hare H5 ON C" not in lines
    with pytest.raises(IllegalLine):
        play(s, "A", "USE Deflect WITH Red Hare H5 ON C")


# --------------------------------------------------------------------------- Lu Xun


def test_modesty_drops_its_owner_from_stealing_sheep_and_acedia() -> None:
    """kingdom-wars-skills.yaml, qianxun: "When you become a target of
    Stealing Sheep or Acedia (including converted ones) ... You are removed
    from that card's targets"; hidden, it is offered and exposes Lu Xun."""
    gens = seats(("sun-quan", "gan-ning"), B=("lu-xun", "zhou-yu"))
    s = table(gens, hands={"A": [c("stealing-sheep", "S3")], "B": [c("dodge", "H2")]},
              shown=shown_all("B"))
    s, _ = play(s, "A", "USE Stealing Sheep ON B")
    s = until_trigger(s, "B", "targeted")
    assert "USE Modesty" in offered(s, "B")
    s, ev = answer(s, {"B": ["USE Modesty"]})
    assert any("exposes Lu Xun" in t for t in texts(ev))
    s, _ = pass_all(s)
    assert s["p"]["B"]["hand"] == [c("dodge", "H2")] and open_ask(s)["kind"] == "play"
    # exposed, it applies unasked: the Acedia is discarded
    acedia = c("acedia", "H6")
    s = table(gens, hands={"A": [acedia]}, shown=shown_all())
    s, ev = play(s, "A", "USE Acedia ON B")
    assert s["p"]["B"]["judge"] == [] and acedia in s["discard"]
    assert any("Modesty" in t for t in texts(ev))


def test_read_the_tide_red_hand_cards_as_rest_and_reorganization_four_times() -> None:
    """kingdom-wars-skills.yaml, duoshi: "one red card from your hand ... Use
    it as Rest and Reorganization", "at most four times per phase"."""
    reds = [c("dodge", "H2"), c("dodge", "D2"), c("dodge", "D3"), c("dodge", "D6"),
            c("dodge", "D7")]
    s = table(seats(("lu-xun", "zhou-yu")), hands={"A": reds}, shown=shown_all())
    for _ in range(4):
        red = next(x for x in s["p"]["A"]["hand"] if x in reds)
        s, _ = play(s, "A", f"USE Rest and Reorganization BY Read the Tide WITH {label(red)}")
        s, _ = pass_all(s)
        assert open_ask(s)["kind"] == "cards" and open_ask(s)["roles"] == ["A"]  # draw 2, discard 2
        keep = [x for x in s["p"]["A"]["hand"] if x not in reds][:2]
        s, _ = play(s, "A", "DISCARD " + " ".join(label(x) for x in keep))
    red = next(x for x in s["p"]["A"]["hand"] if x in reds)
    with pytest.raises(IllegalLine, match="does not make"):
        play(s, "A", f"USE Rest and Reorganization BY Read the Tide WITH {label(red)}")


# --------------------------------------------------------------------------- Sun Shangxiang


def test_marriage_alliance_heals_you_and_a_wounded_male() -> None:
    """kingdom-wars-skills.yaml, jieyin: "Discard two hand cards ... one other
    wounded player whose current gender is male (a fully hidden player has
    none) ... You and the target each recover 1 HP"."""
    hand = [c("attack", "S5"), c("attack", "S7"), c("attack", "S8")]
    gens = seats(("sun-shangxiang", "da-qiao"))
    s = table(gens, hands={"A": hand}, shown=shown_all("C"), hp={"A": 1, "B": 2, "C": 1})
    with pytest.raises(IllegalLine, match="wounded male"):
        play(s, "A", "USE Marriage Alliance WITH Attack S5 Attack S7 ON C")  # hidden: no gender
    with pytest.raises(IllegalLine, match="wounded male"):
        play(s, "A", "USE Marriage Alliance WITH Attack S5 Attack S7 ON D")  # not wounded
    s, _ = play(s, "A", "USE Marriage Alliance WITH Attack S5 Attack S7 ON B")
    assert hp(s, "A") == 2 and hp(s, "B") == 3 and s["p"]["A"]["hand"] == [hand[2]]


def test_warrior_princess_draws_two_when_equipment_leaves() -> None:
    """kingdom-wars-skills.yaml, xiaoji: "After one or more cards leave your
    equipment zone (any reason) ... Draw two cards"."""
    top = [c("attack", "C2"), c("attack", "C3")]
    s = table(seats(("sun-shangxiang", "da-qiao")), hands={"A": [c("red-hare", "H5")]},
              equip={"A": [c("ferghana", "S13")]}, shown=shown_all(), deck_top=top)
    s, _ = play(s, "A", "USE Red Hare H5")  # the Ferghana is replaced and discarded
    assert trigger_for(s, "A", "equip_lost")
    s, _ = answer(s, {"A": ["USE Warrior Princess"]})
    assert sorted(s["p"]["A"]["hand"]) == sorted(top)


# --------------------------------------------------------------------------- Xiao Qiao


def test_rosy_cheeks_a_spade_judgement_counts_as_a_heart() -> None:
    """kingdom-wars-skills.yaml, hongyan: "Your Spade cards ... and the card
    of any judgement you are the subject of — are treated as Hearts"; hidden,
    "when your own judgement turns up a Spade you are offered to reveal"."""
    acedia = c("acedia", "C6")
    spade = c("attack", "S5")
    gens = seats(("xiao-qiao", "zhou-yu"))
    s = table(gens, judge={"A": [(acedia, "acedia")]}, shown=shown_all(), phase="judgement",
              deck_top=[spade])
    s, ev = pass_all(s)
    assert "Acedia: a Heart, nothing happens." in texts(ev)
    # hidden: offered at the retrial; declined, the Spade stays a Spade
    s = table(gens, judge={"A": [(acedia, "acedia")]}, shown=shown_all("A"),
              phase="judgement", deck_top=[spade])
    s = until_trigger(s, "A", "retrial")
    assert "USE Rosy Cheeks" in offered(s, "A")
    s, ev = pass_all(s)
    assert any("Acedia takes effect" in t for t in texts(ev))


def test_heavenly_fragrance_passes_the_damage_on() -> None:
    """kingdom-wars-skills.yaml, tianxiang: "Discard one Heart card from your
    hand (a Spade counts, see Rosy Cheeks) ... You take none of that damage;
    instead the same damage ... is dealt to the target ... they draw X cards
    (X = their lost HP at that moment)"."""
    top = [c("attack", "C2"), c("attack", "C3")]
    s = table(seats(("xiao-qiao", "zhou-yu")), hands={"A": [c("attack", "S7")],
              "B": [c("attack", "S5")]}, shown=shown_all(), turn="B", hp={"C": 2},
              deck_top=top)
    s, _ = play(s, "B", "USE Attack S5 ON A")
    s = until_trigger(s, "A", "taking_damage")
    assert "USE Heavenly Fragrance WITH Attack S7 ON C" in offered(s, "A")
    s, ev = answer(s, {"A": ["USE Heavenly Fragrance WITH Attack S7 ON C"]})
    s, more = pass_all(s)
    assert hp(s, "A") == 3 and hp(s, "C") == 1
    assert sorted(s["p"]["C"]["hand"]) == sorted(top)  # it has lost 2: draws 2
    assert any("seat C takes 1 damage from seat B" in t for t in texts(ev + more))


def test_heavenly_fragrance_of_a_hidden_xiao_qiao_may_pay_with_a_spade() -> None:
    """kingdom-wars-skills.yaml, hongyan: "Heavenly Fragrance may pay with a
    Spade while Rosy Cheeks is unrevealed (same general, so it is revealed by
    the use)"."""
    s = table(seats(("xiao-qiao", "zhou-yu")), hands={"A": [c("attack", "S7")],
              "B": [c("attack", "S5")]}, shown=shown_all("A"), turn="B")
    s, _ = play(s, "B", "USE Attack S5 ON A")
    s = until_trigger(s, "A", "taking_damage")
    s, ev = answer(s, {"A": ["USE Heavenly Fragrance WITH Attack S7 ON D"]})
    s, _ = pass_all(s)
    assert s["p"]["A"]["shown"][0] and any("exposes Xiao Qiao" in t for t in texts(ev))
    assert hp(s, "A") == 3 and hp(s, "D") == 3


# --------------------------------------------------------------------------- Zhou Tai


def test_unyielding_scars_keep_zhou_tai_alive_while_their_numbers_differ() -> None:
    """kingdom-wars-skills.yaml, buqu: "Turn cards from the top of the draw
    pile face up onto this general as Scars until the number of Scars equals
    1 minus your HP ... If all Scars have different ranks you do NOT enter the
    dying state"; "If two or more Scars share a rank you enter dying"; on
    recovering, "discard Scars ... until their number equals 1 minus your new
    HP"."""
    scar1, scar2 = c("attack", "C2"), c("attack", "C3")
    gens = seats(("zhou-tai", "sun-quan"))
    s = table(gens, hands={"B": [c("attack", "S5")], "A": [c("peach", "H4")]},
              shown=shown_all(), turn="B", hp={"A": 1}, deck_top=[scar1, scar2])
    s, _ = play(s, "B", "USE Attack S5 ON A")
    s = until_trigger(s, "A", "hp_lost")
    s, ev = answer(s, {"A": ["USE Unyielding"]})
    assert "No two Scars share a number: seat A does not enter dying." in texts(ev)
    s, _ = pass_all(s)
    assert hp(s, "A") == 0 and s["p"]["A"]["alive"] and s["p"]["A"]["piles"]["scars"] == [scar1]
    assert open_ask(s)["kind"] == "play" and open_ask(s)["roles"] == ["B"]
    view = GAME.view(s, "C")
    assert view["seats"][0]["piles"] == {"scars": [label(scar1)]}
    # regaining health to 1 or more discards every Scar
    s = table(gens, hands={"A": [c("peach", "H4")]}, shown=shown_all(), hp={"A": 0})
    s["deck"].remove(scar1)
    s["p"]["A"]["piles"]["scars"] = [scar1]
    s, _ = play(s, "A", "USE Peach H4")
    assert hp(s, "A") == 1 and s["p"]["A"]["piles"]["scars"] == [] and scar1 in s["discard"]


def test_unyielding_two_scars_of_one_number_mean_dying() -> None:
    """kingdom-wars-skills.yaml, buqu: "If two or more Scars share a rank you
    enter dying normally; after the rescue sequence, if your HP is still 0 or
    less but the remaining Scars now all have different ranks, you survive";
    a dying player is rescued by a Peach (Elimination)."""
    scar1, scar2 = c("attack", "S8"), copy_of("attack", "spades", 8, taken=[c("attack", "S8")])
    gens = seats(("zhou-tai", "sun-quan"))
    s = table(gens, hands={"B": [c("wine", "S9"), c("attack", "S5")], "C": [c("peach", "H4")]},
              shown=shown_all(), turn="B", hp={"A": 1}, deck_top=[scar1, scar2])
    s, _ = play(s, "B", "USE Wine S9")
    s, _ = pass_all(s)
    s, _ = play(s, "B", "USE Attack S5 ON A")  # 2 damage: health -1, two Scars
    s = until_trigger(s, "A", "hp_lost")
    s, ev = answer(s, {"A": ["USE Unyielding"]})
    assert hp(s, "A") == -1 and s["p"]["A"]["piles"]["scars"] == [scar1, scar2]
    assert "Two Scars share a number: seat A enters dying." in texts(ev)
    assert open_ask(s)["window"] == "rescue"
    s, ev = answer(s, {"C": ["PEACH"]})  # health 0, one Scar kept: it survives
    s, more = pass_all(s)
    assert s["p"]["A"]["alive"] and hp(s, "A") == 0
    assert len(s["p"]["A"]["piles"]["scars"]) == 1
    assert "seat A does not die." in texts(ev + more)


# --------------------------------------------------------------------------- Lu Su


def test_generosity_draws_two_more_then_gives_half_to_the_fewest() -> None:
    """kingdom-wars-skills.yaml, haoshi: "Draw two additional cards.
    Afterwards, if you hold more than 5 hand cards, give half of them (rounded
    down) to the other player with the fewest hand cards"."""
    hand = [c("attack", "S5"), c("attack", "S7")]
    top = [c("attack", "C2"), c("attack", "C3"), c("attack", "C4"), c("attack", "C5")]
    s = table(seats(("lu-su", "zhou-yu")), hands={"A": hand, "B": [c("dodge", "H2")],
              "C": [c("dodge", "D2"), c("dodge", "D3")], "D": [c("dodge", "D6")]},
              shown=shown_all(), phase="draw", deck_top=top)
    s = until_trigger(s, "A", "draw_count")
    s, _ = answer(s, {"A": ["USE Generosity"]})
    assert len(s["p"]["A"]["hand"]) == 6
    assert open_ask(s)["kind"] == "choose" and open_ask(s)["options"] == ["CHOOSE B", "CHOOSE D"]
    s, _ = play(s, "A", "CHOOSE D")
    the_ask = open_ask(s)
    assert the_ask["kind"] == "cards" and the_ask["verb"] == "GIVE" and the_ask["least"] == 3
    s, ev = play(s, "A", "GIVE Attack S5 Attack S7 Attack C2")
    assert sorted(s["p"]["D"]["hand"]) == sorted([c("dodge", "D6"), *hand, top[0]])
    assert "seat A gives 3 cards to seat D (Generosity)." in texts(ev, "B")


def test_forge_alliance_swaps_two_hands_for_their_difference() -> None:
    """kingdom-wars-skills.yaml, dimeng: "Discard X cards (hand/equip), X =
    the difference between the two targets' hand sizes ... The two targets
    exchange their entire hands"."""
    b_hand = [c("dodge", "H2"), c("dodge", "D2"), c("dodge", "D3")]
    c_hand = [c("peach", "H4")]
    s = table(seats(("lu-su", "zhou-yu")), hands={"A": [c("attack", "S5"), c("attack", "S7")],
              "B": b_hand, "C": c_hand}, shown=shown_all())
    with pytest.raises(IllegalLine, match="discard 2 cards"):
        play(s, "A", "USE Forge Alliance WITH Attack S5 ON B C")
    s, ev = play(s, "A", "USE Forge Alliance WITH Attack S5 Attack S7 ON B C")
    assert s["p"]["B"]["hand"] == c_hand and s["p"]["C"]["hand"] == b_hand
    assert "You receive Peach H4." in texts(ev, "B")
    assert not any("Peach H4" in t for t in texts(ev, "D"))


# --------------------------------------------------------------------------- Sun Jian


def test_heroic_soul_draw_x_discard_one_or_draw_one_discard_x() -> None:
    """kingdom-wars-skills.yaml, yinghun: "Start of your Preparation Phase ...
    You are wounded ... If X >= 2 you choose: the target draws one and then
    discards X, or draws X and then discards one"."""
    top = [c("attack", "C2"), c("attack", "C3")]
    s = table(seats(("sun-jian", "sun-quan")), hands={"B": [c("dodge", "H2")]},
              shown=shown_all(), phase="preparation", hp={"A": 2}, deck_top=top)
    s = until_trigger(s, "A", "prep_start")
    s, _ = answer(s, {"A": ["USE Heroic Soul ON B"]})
    assert open_ask(s)["kind"] == "choose" and open_ask(s)["options"] == ["CHOOSE DRAW 1",
                                                               "CHOOSE DRAW 2"]
    s, _ = play(s, "A", "CHOOSE DRAW 2")
    assert sorted(s["p"]["B"]["hand"]) == sorted([c("dodge", "H2"), *top])
    the_ask = open_ask(s)
    assert the_ask["kind"] == "cards" and the_ask["roles"] == ["B"] and the_ask["least"] == 1
    s, _ = play(s, "B", "DISCARD Dodge H2")
    assert len(s["p"]["B"]["hand"]) == 2
    # not wounded: not offered
    s = table(seats(("sun-jian", "sun-quan")), shown=shown_all(), phase="preparation")
    assert not (open_ask(s)["kind"] == "trigger" and "A" in open_ask(s)["roles"])


# --------------------------------------------------------------------------- Taishi Ci


def test_righteous_challenge_won_one_more_attack_from_anywhere_with_two_targets() -> None:
    """kingdom-wars-skills.yaml, tianyi: "Points Duel. If you win, until end of
    turn: you may use one more Attack, your Attacks ignore distance, and each
    Attack may take one additional target"; Appendix I, Points Duel: "the
    player with the larger card number wins"."""
    hand = [c("duel", "S1"), c("attack", "S10"), c("attack", "S11"), c("attack", "S7")]
    s = table(seats(("taishi-ci", "sun-quan")), hands={"A": hand, "C": [c("dodge", "H2")]},
              shown=shown_all())
    s, _ = play(s, "A", "USE Righteous Challenge ON C")
    assert open_ask(s)["kind"] == "cards" and open_ask(s)["roles"] == ["A"]
    s, _ = play(s, "A", "PUT Attack S10")
    assert open_ask(s)["roles"] == ["C"]
    s, ev = play(s, "C", "PUT Dodge H2")
    assert any("seat A wins" in t for t in texts(ev))
    s, _ = play(s, "A", "USE Attack SJ ON C B")  # C at distance 2, two targets
    s, _ = pass_all(s)
    assert hp(s, "C") == 2 and hp(s, "B") == 3
    s, _ = play(s, "A", "USE Attack S7 ON D")
    s, _ = pass_all(s)
    assert hp(s, "D") == 3


def test_righteous_challenge_lost_no_more_attacks() -> None:
    """kingdom-wars-skills.yaml, tianyi: "If you do not win, you cannot use
    Attack for the rest of the turn"."""
    s = table(seats(("taishi-ci", "sun-quan")), hands={"A": [c("duel", "S1"),
              c("attack", "S7")], "B": [c("dodge", "H2")]}, shown=shown_all())
    s, _ = play(s, "A", "USE Righteous Challenge ON B")
    s, _ = play(s, "A", "PUT Duel SA")
    s, _ = play(s, "B", "PUT Dodge H2")
    with pytest.raises(IllegalLine, match="lost the Points Duel"):
        play(s, "A", "USE Attack S7 ON B")


# ------------------------------------------------------------------ Zhang Zhao and Zhang Hong


def test_frank_counsel_puts_equipment_into_an_empty_slot_and_draws() -> None:
    """kingdom-wars-skills.yaml, zhijian: "one equipment card from your hand
    ... one other player whose equipment slot of that type is empty ... Put
    the card into the target's equipment zone, then draw one card"."""
    axe = c("rock-cleaving-axe", "D5")
    top = [c("attack", "C2")]
    s = table(seats(("zhang-zhao-zhang-hong", "sun-quan")), hands={"A": [axe]},
              equip={"B": [c("blue-blade", "S6")]}, shown=shown_all(), deck_top=top)
    with pytest.raises(IllegalLine, match="that equipment slot"):
        play(s, "A", "USE Frank Counsel WITH Rock Cleaving Axe ON B")
    s, _ = play(s, "A", "USE Frank Counsel WITH Rock Cleaving Axe ON C")
    assert s["p"]["C"]["equip"]["weapon"] == axe and s["p"]["A"]["hand"] == top


def test_steady_government_gives_one_back_and_takes_the_rest() -> None:
    """kingdom-wars-skills.yaml, guzheng: "End of ANOTHER player's Discard
    Phase ... Return one such card to that player's hand. If you do, you may
    also take into your hand all other cards discarded during that phase"."""
    b_hand = [c("dodge", "H2"), c("dodge", "D2"), c("dodge", "D3"), c("dodge", "D6")]
    gens = seats(("sun-quan", "gan-ning"), B=("zhang-zhao-zhang-hong", "lu-su"))
    s = table(gens, hands={"A": b_hand}, shown=shown_all(), hp={"A": 1})
    s, _ = play(s, "A", "PASS")
    s, _ = pass_all(s)
    assert open_ask(s)["kind"] == "cards" and open_ask(s)["least"] == 3
    s, _ = play(s, "A", "DISCARD Dodge H2 Dodge D2 Dodge D3")
    assert trigger_for(s, "B", "discard_end")
    s, _ = answer(s, {"B": ["USE Steady Government"]})
    assert open_ask(s)["kind"] == "choose" and open_ask(s)["roles"] == ["B"]
    s, _ = play(s, "B", "TAKE DODGE D2")
    s, _ = play(s, "B", "TAKE ALL")
    assert sorted(s["p"]["A"]["hand"]) == sorted([b_hand[1], b_hand[3]])
    assert set(s["p"]["B"]["hand"]) >= {b_hand[0], b_hand[2]}


# --------------------------------------------------------------------------- Ding Feng


def test_close_quarters_one_extra_target_at_distance_one() -> None:
    """kingdom-wars-skills.yaml, duanbing: "When you choose targets for an
    Attack ... You may choose one additional target that is at distance 1
    from you"."""
    gens = {"A": ("ding-feng", "sun-quan"), "B": ("liu-bei", "zhao-yun"),
            "C": ("yuan-shao", "hua-tuo"), "D": ("dian-wei", "xu-chu"),
            "E": ("guan-yu", "zhang-fei")}
    s = table(gens, hands={"A": [c("attack", "S7")]}, equip={"A": [c("blue-blade", "S6")]},
              shown={r: ALL for r in "ABCDE"})
    with pytest.raises(IllegalLine, match="1 target"):
        play(s, "A", "USE Attack S7 ON C D")  # both at distance 2
    s, _ = play(s, "A", "USE Attack S7 ON B D")  # D at distance 2, B at distance 1
    s, _ = pass_all(s)
    assert hp(s, "B") == 3 and hp(s, "D") == 3


def test_lightning_dash_makes_the_distance_one_for_the_turn() -> None:
    """kingdom-wars-skills.yaml, fenxun: "Discard one card (hand/equip) ...
    Your distance to the target is 1 until the end of this turn"."""
    s = table(seats(("ding-feng", "sun-quan")), hands={"A": [c("attack", "S7"),
              c("dodge", "H2")]}, shown=shown_all())
    with pytest.raises(IllegalLine, match="out of your attack range"):
        play(s, "A", "USE Attack S7 ON C")
    s, _ = play(s, "A", "USE Lightning Dash WITH Dodge H2 ON C")
    assert GAME.view(s, "A")["seats"][2]["distance"] == 1
    s, _ = play(s, "A", "USE Attack S7 ON C")
    s, _ = pass_all(s)
    assert hp(s, "C") == 2
