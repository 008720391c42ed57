"""The skills of the Shu generals, each played through lines on a table.

Every test cites the entry of the data file (kingdom-wars-skills.yaml, by the
skill's source id) or the rulebook passage it checks. Opponents keep their
generals hidden unless a test needs them exposed, so only the skills under
test apply; the windows other seats are offered are passed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from bench.support.kingdom_wars import answer, ask, copy_of, hp, open_ask, play, table, texts
from judge.game.engine import Event, IllegalLine, State
from judge_games.kingdom_wars import GAME
from judge_games.kingdom_wars.table import Ctx

WINDOWS = ("respond", "negate", "trigger")

# Opponents whose generals stay hidden (so they have no skills).
WEI = ("cao-cao", "xu-chu")
WU = ("sun-quan", "gan-ning")
QUN = ("lv-bu", "diao-chan")


def reach(state: State, role: str, kind: str, moment: str | None = None,
          ) -> tuple[State, list[Event]]:
    """Pass every window until ``role`` is asked an ask of ``kind`` (for a
    trigger window, at ``moment``); fails on any other decision."""
    events: list[Event] = []
    for _ in range(200):
        top = ask(state)
        assert top is not None, "the game stopped asking"
        if (top["kind"] == kind and role in top["roles"] and top["open"]
                and (moment is None or top.get("m", {}).get("name") == moment)):
            return state, events
        assert top["kind"] in WINDOWS, f"unexpected decision {top['kind']}: {top['what']}"
        state, got = play(state, top["roles"][0], "PASS")
        events += got
    raise AssertionError("never reached")


def settle(state: State) -> tuple[State, list[Event]]:
    """Pass every window until an action decision (or the end)."""
    events: list[Event] = []
    for _ in range(300):
        top = ask(state)
        if top is None or top["kind"] not in WINDOWS:
            return state, events
        state, got = play(state, top["roles"][0], "PASS")
        events += got
    raise AssertionError("the windows never end")


def send(state: State, role: str, line: str) -> tuple[State, list[Event]]:
    """``role`` sends ``line``, then every window is passed."""
    state, events = play(state, role, line)
    state, more = settle(state)
    return state, events + more


def legal(state: State, role: str) -> list[str]:
    return GAME.legal(state, role)


def distance(state: State, a: str, b: str) -> int:
    return Ctx(state).distance(a, b)


def cards(*specs: tuple[str, str | None, int | None]) -> list[str]:
    """Distinct physical cards, each (kind, suit, rank)."""
    out: list[str] = []
    for kind, suit, rank in specs:
        out.append(copy_of(kind, suit, rank, taken=out))
    return out


def exposed(state: State, seat: str) -> list[bool]:
    shown: list[bool] = state["p"][seat]["shown"]
    return shown


def hand(state: State, seat: str) -> list[str]:
    h: list[str] = state["p"][seat]["hand"]
    return h


def said(events: Sequence[Event], text: str, role: str | None = None) -> bool:
    return any(text in t for t in texts(events, role))


def turn_over(state: State, until: str) -> tuple[State, list[Event]]:
    """Answer every decision with its first legal line until ``until``'s turn."""
    events: list[Event] = []
    for _ in range(400):
        if state["current"] == until:
            return state, events
        top = ask(state)
        assert top is not None
        role = top["roles"][0]
        state, got = play(state, role, legal(state, role)[0])
        events += got
    raise AssertionError(f"{until}'s turn never came")


# --------------------------------------------------------------------------- modifiers


@pytest.mark.parametrize("shown", [True, False])
def test_horsemanship_shortens_distance(shown: bool) -> None:
    """kingdom-wars-skills.yaml, mashu: "Your distance to every other player
    is reduced by 1 (never below 1)"; hidden, it counts only once Ma Chao is
    revealed."""
    (atk,) = cards(("attack", "spades", 7))
    s = table({"A": ("ma-chao", "zhao-yun"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [atk]}, shown={"A": ["main"]} if shown else {})
    assert distance(s, "A", "C") == (1 if shown else 2)
    assert distance(s, "A", "B") == 1
    assert distance(s, "C", "A") == 2  # others' distance to Ma Chao is unchanged
    if shown:
        s, ev = send(s, "A", "USE Attack S7 ON C")
        assert said(ev, "seat A uses Attack S7 on seat C")
    else:
        with pytest.raises(IllegalLine, match="out of your attack range"):
            play(s, "A", "USE Attack S7 ON C")


def test_berserk_any_number_of_attacks() -> None:
    """kingdom-wars-skills.yaml, paoxiao: "There is no limit on how many
    Attacks you may use in a Play Phase" (rulebook, The Ultimate Principle:
    Berserk over "only one [Attack]"); hidden, Zhang Fei is exposed in the
    Play Phase for it (Hidden and Exposed Generals: passive skills)."""
    a1, a2, a3 = cards(("attack", "spades", 7), ("attack", "spades", 8), ("attack", "spades", 9))
    s = table({"A": ("zhang-fei", "guan-yu"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [a1, a2, a3]})
    s, _ = send(s, "A", "USE Attack S7 ON B")
    assert hp(s, "B") == 3
    with pytest.raises(IllegalLine, match="used your Attack"):
        play(s, "A", "USE Attack S8 ON B")
    assert "REVEAL MAIN" in legal(s, "A")
    s, _ = play(s, "A", "REVEAL MAIN")
    s, _ = send(s, "A", "USE Attack S8 ON B")
    s, _ = send(s, "A", "USE Attack S9 ON D")
    assert (hp(s, "B"), hp(s, "D")) == (2, 3)


def test_rare_talent_spells_reach_any_distance() -> None:
    """kingdom-wars-skills.yaml, qicai: "Trick cards you use ignore distance
    limits (e.g. Stealing Sheep, Rations Depleted)"."""
    sheep, rations = cards(("stealing-sheep", None, None), ("rations-depleted", None, None))
    c_card = copy_of("dodge", taken=[sheep, rations])
    spec: dict[str, Any] = {"hands": {"A": [sheep, rations], "C": [c_card]}}
    hidden = table({"A": ("huang-yueying", "elder-zhuge-liang"), "B": WEI, "C": WU, "D": QUN},
                   **spec)
    with pytest.raises(IllegalLine, match="reaches 1"):
        play(hidden, "A", "USE Stealing Sheep ON C")
    s = table({"A": ("huang-yueying", "elder-zhuge-liang"), "B": WEI, "C": WU, "D": QUN},
              shown={"A": ["main"]}, **spec)
    assert distance(s, "A", "C") == 2
    s, _ = send(s, "A", "USE Rations Depleted ON C")
    assert [j["as"] for j in s["p"]["C"]["judge"]] == ["rations-depleted"]
    s, _ = play(s, "A", "USE Stealing Sheep ON C")
    s, _ = reach(s, "A", "choose")
    s, _ = send(s, "A", "TAKE HAND")
    assert c_card in hand(s, "A")


# --------------------------------------------------------------------------- becoming a target


def test_empty_fort_drops_an_attack_on_an_empty_hand() -> None:
    """kingdom-wars-skills.yaml, kongcheng: "When you become a target of an
    Attack or a Duel", with no hand cards: "You are removed from that card's
    targets"."""
    atk, duel = cards(("attack", "spades", 7), ("duel", None, None))
    s = table({"A": WEI, "B": ("elder-zhuge-liang", "huang-yueying"), "C": WU, "D": QUN},
              hands={"A": [atk, duel]}, shown={"B": ["main"]})
    s, ev = send(s, "A", "USE Attack S7 ON B")
    assert said(ev, "Empty Fort: seat B holds no hand card")
    assert hp(s, "B") == 3 and open_ask(s)["kind"] == "play"
    s, ev = send(s, "A", "USE Duel ON B")
    assert said(ev, "Empty Fort") and hp(s, "B") == 3


def test_empty_fort_hidden_is_offered_and_exposes() -> None:
    """kingdom-wars-skills.yaml, kongcheng, hidden (meta.hidden_general_policy:
    a hidden compulsory skill is offered when its condition is met; using it
    exposes the general); with a hand card the Attack stays."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": WEI, "B": ("elder-zhuge-liang", "huang-yueying"), "C": WU, "D": QUN},
              hands={"A": [atk]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = reach(s, "B", "trigger", "targeted")
    assert "USE Empty Fort" in legal(s, "B")
    s, ev = send(s, "B", "USE Empty Fort")
    assert exposed(s, "B") == [True, False]
    assert said(ev, "seat B exposes Elder Zhuge Liang") and hp(s, "B") == 3
    dodge = copy_of("dodge")
    s = table({"A": WEI, "B": ("elder-zhuge-liang", "huang-yueying"), "C": WU, "D": QUN},
              hands={"A": [atk], "B": [dodge]}, shown={"B": ["main"]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = reach(s, "B", "respond")
    assert open_ask(s)["want"] == "dodge"


@pytest.mark.parametrize("pay", [True, False])
def test_easy_living_asks_for_a_basic_card(pay: bool) -> None:
    """kingdom-wars-skills.yaml, xiangle: "The Attack's user must discard one
    basic card; if they do not (or cannot, or are dead), that Attack has no
    effect on you"."""
    atk, peach, duel = cards(("attack", "spades", 7), ("peach", None, None), ("duel", None, None))
    s = table({"A": WEI, "B": ("liu-shan", "lady-gan"), "C": WU, "D": QUN},
              hands={"A": [atk, peach, duel]}, shown={"B": ["main"]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = reach(s, "A", "cards")
    assert "DISCARD Duel" not in " ".join(legal(s, "A"))  # a basic card only
    assert legal(s, "A") == ["DISCARD", f"DISCARD {label_of(peach)}"]  # or PASS
    line = f"DISCARD {label_of(peach)}" if pay else "PASS"
    s, ev = play(s, "A", line)
    if pay:
        assert peach not in hand(s, "A")
        s, _ = reach(s, "B", "respond")
        s, _ = answer(s)
        s, _ = settle(s)
        assert hp(s, "B") == 2
    else:
        s, ev2 = settle(s)
        assert said(ev + ev2, "Easy Living: Attack S7 has no effect on seat B")
        assert hp(s, "B") == 3 and peach in hand(s, "A")


@pytest.mark.parametrize("skill", ["ringleader", "great-elephant"])
def test_barbarian_invasion_has_no_effect(skill: str) -> None:
    """kingdom-wars-skills.yaml, huoshou (a) and juxiang (a): Barbarian
    Invasion "has no effect on you"; huoshou (b): "You become the source of
    all damage that Barbarian Invasion deals"; juxiang (b): "Take that card
    into your hand" once it has resolved."""
    bi = copy_of("barbarian-invasion")
    general = {"ringleader": "meng-huo", "great-elephant": "zhu-rong"}[skill]
    s = table({"A": WEI, "B": (general, "liu-bei"), "C": WU, "D": QUN},
              hands={"A": [bi]}, shown={"B": ["main"]})
    s, ev = send(s, "A", "USE Barbarian Invasion")
    assert hp(s, "B") == 4
    assert (hp(s, "C"), hp(s, "D")) == (3, 3)
    if skill == "ringleader":
        assert said(ev, "seat C takes 1 damage from seat B")
        assert said(ev, "seat D takes 1 damage from seat B")
        assert bi in s["discard"]
    else:
        assert said(ev, "seat C takes 1 damage from seat A")
        assert bi in hand(s, "B")


def test_ringleader_and_great_elephant_hidden() -> None:
    """kingdom-wars-skills.yaml, huoshou and juxiang, hidden: offered when the
    Barbarian Invasion targets the player; using one exposes its general (a
    Perfect Pair: Meng Huo and Zhu Rong)."""
    bi = copy_of("barbarian-invasion")
    s = table({"A": WEI, "B": ("meng-huo", "zhu-rong"), "C": WU, "D": QUN}, hands={"A": [bi]})
    s, _ = play(s, "A", "USE Barbarian Invasion")
    s, _ = reach(s, "B", "trigger", "targeted")
    assert {"USE Ringleader", "USE Great Elephant"} <= set(legal(s, "B"))
    s, _ = play(s, "B", "USE Great Elephant")
    s, _ = play(s, "B", "USE Ringleader")
    s, ev = settle(s)
    assert exposed(s, "B") == [True, True]
    assert hp(s, "B") == 4 and bi in hand(s, "B")
    assert said(ev, "seat C takes 1 damage from seat B")


# --------------------------------------------------------------------------- Attacks


@pytest.mark.parametrize("colour", ["red", "black"])
def test_iron_cavalry_red_judgement_denies_the_dodge(colour: str) -> None:
    """kingdom-wars-skills.yaml, tieqi: after your Attack's targets are fixed,
    "Perform a judgement; if red, that target cannot use Dodge against this
    Attack"; hidden Ma Chao is offered it and exposed by using it (rulebook,
    Hidden and Exposed Generals: "Ma Chao, Huang Zhong, etc. can activate
    their skill and expose their General card after targeting a player with
    an [Attack] card")."""
    atk, dodge = cards(("attack", "spades", 7), ("dodge", None, None))
    top = copy_of("peach", "hearts", None) if colour == "red" else copy_of("attack", "clubs", 2)
    s = table({"A": ("ma-chao", "zhao-yun"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [atk], "B": [dodge]}, deck_top=[top])
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = reach(s, "A", "trigger", "targets_fixed")
    assert "USE Iron Cavalry ON B" in legal(s, "A")
    s, ev = play(s, "A", "USE Iron Cavalry ON B")
    assert exposed(s, "A") == [True, False]
    if colour == "red":
        s, ev2 = settle(s)
        assert said(ev + ev2, "cannot Dodge") and hp(s, "B") == 3 and dodge in hand(s, "B")
    else:
        s, _ = reach(s, "B", "respond")
        s, _ = answer(s, {"B": ["DODGE"]})
        s, _ = settle(s)
        assert hp(s, "B") == 4


def test_fierce_bow_by_hand_size() -> None:
    """kingdom-wars-skills.yaml, liegong: in your Play Phase, for a target
    whose "hand size is at least your current HP, or at most your attack
    range": "That target cannot use Dodge against this Attack"."""
    atk, d1, d2 = cards(("attack", "spades", 7), ("dodge", None, None), ("dodge", None, None))
    s = table({"A": ("huang-zhong", "wei-yan"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [atk], "B": [d1, d2]}, shown={"A": ["main"]}, hp={"A": 2})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = reach(s, "A", "trigger", "targets_fixed")
    s, ev = send(s, "A", "USE Fierce Bow ON B")
    assert said(ev, "Fierce Bow: seat B cannot Dodge") and hp(s, "B") == 3
    # Two cards in hand against health 4 and range 1: not offered.
    s = table({"A": ("huang-zhong", "wei-yan"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [atk], "B": [d1, d2]}, shown={"A": ["main"]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = reach(s, "B", "respond")
    assert all(t["kind"] != "trigger" or "A" not in t["roles"] for t in s["asks"])


def test_blazing_blade_points_duel_takes_a_card() -> None:
    """kingdom-wars-skills.yaml, lieren: after your Attack damages its target,
    "Points Duel with them; if you win, take one card from their hand (blind)
    or equipment zone"; rulebook, Points Duel: "the player with the larger
    card number wins. Both parties must place the cards used into the Discard
    Deck"."""
    atk, king, two, horse = cards(("attack", "spades", 7), ("dodge", "hearts", 13),
                                  ("peach", "diamonds", 2), ("red-hare", None, None))
    other = copy_of("dodge", taken=[atk, king, two, horse])
    s = table({"A": ("zhu-rong", "meng-huo"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [atk, king], "B": [two, other]}, equip={"B": [horse]},
              shown={"A": ["main"]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = reach(s, "B", "respond")
    s, _ = answer(s)
    s, _ = reach(s, "A", "trigger", "damage_dealt")
    s, _ = play(s, "A", "USE Blazing Blade")
    s, ev = play(s, "A", "SHOW Dodge HK")
    assert not said(ev, "HK", "B")  # face down: B does not learn it
    s, ev = play(s, "B", "SHOW Peach D2")
    assert said(ev, "seat A shows Dodge HK, seat B shows Peach D2")
    assert king in s["discard"] and two in s["discard"]
    assert open_ask(s)["options"] == ["TAKE HAND", "TAKE RED HARE H5"]
    s, _ = send(s, "A", "TAKE Red Hare H5")
    assert horse in hand(s, "A")


# --------------------------------------------------------------------------- damage and health


def test_wild_bones_recovers_per_point_dealt_nearby() -> None:
    """kingdom-wars-skills.yaml, kuanggu: damage to a player "at distance 1 or
    less from you" while wounded: "Recover 1 HP for each point of that
    damage"; not to one farther away."""
    a1, a2, wine = cards(("attack", "spades", 7), ("attack", "spades", 8), ("wine", None, None))
    bow = copy_of("kirin-bow")
    s = table({"A": ("wei-yan", "huang-zhong"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [a1, a2, wine]}, shown={"A": ["main"]}, hp={"A": 1})
    s, _ = send(s, "A", "USE Wine")
    s, ev = send(s, "A", "USE Attack S7 ON B")
    assert hp(s, "B") == 2 and hp(s, "A") == 3
    assert said(ev, "Wild Bones")
    s = table({"A": ("wei-yan", "huang-zhong"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [a1]}, equip={"A": [bow]}, shown={"A": ["main"]}, hp={"A": 1})
    s, _ = send(s, "A", "USE Attack S7 ON C")
    assert hp(s, "C") == 3 and hp(s, "A") == 1
    # The distance is the one before the victim's death: a kill next to him heals too.
    s = table({"A": ("wei-yan", "huang-zhong"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [a1]}, shown={"A": ["main"]}, hp={"A": 1, "B": 1})
    s, ev = send(s, "A", "USE Attack S7 ON B")
    assert not s["p"]["B"]["alive"] and said(ev, "Wild Bones") and hp(s, "A") == 2


@pytest.mark.parametrize("hidden", [False, True])
def test_virtuous_care_lets_a_friend_draw(hidden: bool) -> None:
    """kingdom-wars-skills.yaml, shushen: after you recover HP, once per point
    recovered, "one other player of your force" "draws one card"; hidden, Lady
    Gan is offered it (her force is the one she would join) and exposed."""
    peach = copy_of("peach")
    s = table({"A": ("lady-gan", "liu-shan"), "B": ("zhao-yun", "ma-chao"), "C": WU, "D": QUN},
              hands={"A": [peach]}, shown={"B": ["main"], **({} if hidden else {"A": ["main"]})},
              hp={"A": 1})
    before = len(hand(s, "B"))
    s, _ = play(s, "A", "USE Peach")
    s, _ = reach(s, "A", "trigger", "recovered")
    s, _ = play(s, "A", "USE Virtuous Care")
    assert exposed(s, "A")[0]
    assert open_ask(s)["options"] == ["CHOOSE B", "PASS"]
    s, _ = send(s, "A", "CHOOSE B")
    assert len(hand(s, "B")) == before + 1


def test_nirvana_rises_from_dying() -> None:
    """kingdom-wars-skills.yaml, niepan (limited): while dying, asked for your
    own rescue: "Discard every card in your hand, equipment and judgement
    zones; recover HP up to 3 (or to your max HP if lower); draw three cards;
    if you are in Chains, leave them"; hidden, using it exposes Pang Tong."""
    atk, kept, shield = cards(("attack", "spades", 7), ("dodge", None, None),
                              ("silver-lion-helmet", None, None))
    acedia = copy_of("acedia", taken=[atk, kept, shield])
    s = table({"A": ("pang-tong", "younger-zhuge-liang"), "B": WEI, "C": WU, "D": QUN},
              hands={"B": [atk], "A": [kept]}, equip={"A": [shield]},
              judge={"A": [(acedia, "acedia")]}, hp={"A": 1}, turn="B", chained=["A"])
    s, _ = play(s, "B", "USE Attack S7 ON A")
    s, _ = reach(s, "A", "respond")
    s, _ = play(s, "A", "PASS")
    s, _ = reach(s, "A", "respond")
    assert open_ask(s)["want"] == "peach"
    assert "USE Nirvana" in legal(s, "A")
    s, _ = send(s, "A", "USE Nirvana")
    p = s["p"]["A"]
    assert p["alive"] and p["hp"] == 3 and not p["chained"] and p["shown"][0]
    assert len(p["hand"]) == 3 and kept not in p["hand"] and not p["judge"]
    assert p["equip"]["armor"] is None and {kept, shield, acedia} <= set(s["discard"])
    assert "nirvana" in p["limited_used"]


# --------------------------------------------------------------------------- phases


def test_stargazing_arranges_the_top_of_the_deck() -> None:
    """kingdom-wars-skills.yaml, guanxing: "Look at the top X cards of the
    draw pile (X = number of living players, at most 5). Put any of them back
    on top in any order and the rest on the bottom in any order"; only the
    owner sees them."""
    top = cards(("attack", "spades", 7), ("dodge", "hearts", 2), ("peach", "hearts", 4),
                ("duel", None, None), ("wine", None, None))
    s = table({"A": ("elder-zhuge-liang", "huang-yueying"), "B": WEI, "C": WU, "D": QUN},
              deck_top=top, phase="preparation", shown={"A": ["main", "deputy"]})
    s, _ = reach(s, "A", "trigger", "prep_start")
    deck_size = len(s["deck"])
    s, ev = play(s, "A", "USE Stargazing")
    assert said(ev, "Attack S7", "A") and not said(ev, "Attack S7", "B")
    assert said(ev, "looks at the top 4 cards", "B")
    assert set(open_ask(s)["pool"]) == set(top[:4])
    s, _ = play(s, "A", "PUT Peach H4 Attack S7")
    assert s["deck"][-2:] == [top[0], top[2]]  # the deck's top is its end
    s, _ = play(s, "A", "PUT Duel Dodge H2")
    assert s["deck"][:2] == [top[1], top[3]]  # Dodge H2 lies at the very bottom
    # The Draw Phase then draws the two put on top.
    assert hand(s, "A") == [top[2], top[0]]
    assert len(s["deck"]) == deck_size - 2 and s["deck"][-1] == top[4]


@pytest.mark.parametrize(("n", "heals"), [(2, True), (1, False)])
def test_clear_mind_discards_the_hand(n: int, heals: bool) -> None:
    """kingdom-wars-skills.yaml, shenzhi: "Discard your entire hand"; "If the
    number of cards discarded is at least your current HP, recover 1 HP"."""
    held = cards(("attack", "spades", 7), ("dodge", None, None))[:n]
    s = table({"A": ("lady-gan", "liu-shan"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": held}, phase="preparation", shown={"A": ["main", "deputy"]},
              hp={"A": 2})
    s, _ = reach(s, "A", "trigger", "prep_start")
    s, _ = send(s, "A", "USE Clear Mind")
    assert not set(held) & set(hand(s, "A"))
    assert set(held) <= set(s["discard"])
    assert hp(s, "A") == (3 if heals else 2)


def test_rise_again_replaces_the_draw() -> None:
    """kingdom-wars-skills.yaml, zaiqi: at the start of your Draw Phase, if
    wounded: "Reveal the top X cards of the draw pile (X = your lost HP).
    Recover HP equal to the number of Hearts among them; discard those Hearts;
    take the other cards into your hand" (no normal draw)."""
    top = cards(("peach", "hearts", 4), ("attack", "spades", 7), ("dodge", "hearts", 2),
                ("duel", None, None))
    s = table({"A": ("meng-huo", "zhu-rong"), "B": WEI, "C": WU, "D": QUN},
              deck_top=top, phase="draw", shown={"A": ["main"]}, hp={"A": 1})
    s, _ = reach(s, "A", "trigger", "draw_start")
    s, ev = send(s, "A", "USE Rise Again")
    assert said(ev, "turns up Peach H4, Attack S7, Dodge H2")
    assert hp(s, "A") == 3
    assert hand(s, "A") == [top[1]]
    assert top[0] in s["discard"] and top[2] in s["discard"]
    assert s["deck"][-1] == top[3]  # nothing else was drawn


def test_delegate_power_gives_an_extra_turn() -> None:
    """kingdom-wars-skills.yaml, fangquan: skip the Play Phase; at the end of
    the turn discard a hand card: "the chosen player then takes one extra turn
    immediately after the current turn" -- and the turns then go on from the
    player after Liu Shan."""
    held = cards(("attack", "spades", 7))
    s = table({"A": ("liu-shan", "lady-gan"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": held}, phase="draw", shown={"A": ["main"]})
    s, _ = reach(s, "A", "trigger", "before_play")
    s, ev = play(s, "A", "USE Delegate Power")
    s, more = reach(s, "A", "trigger", "turn_end")
    assert said(ev + more, "seat A's Play Phase is skipped")
    assert "USE Delegate Power ON C" in legal(s, "A")
    s, _ = play(s, "A", "USE Delegate Power ON C")
    s, ev = play(s, "A", legal(s, "A")[0])
    assert said(ev, "seat C takes an extra turn")
    assert said(ev, "seat C's turn begins") and s["current"] == "C"
    s, ev = turn_over(s, "B")
    assert not said(ev, "seat D's turn begins")
    assert s["round"] == 1


# --------------------------------------------------------------------------- cards used


def test_gathered_wisdom_draws_for_real_spells() -> None:
    """kingdom-wars-skills.yaml, jizhi: "When you use a non-delayed trick
    card" that is not a conversion ("A Negation used in response counts"):
    "Draw one card"; a converted spell does not count."""
    sooN, neg, sheep = cards(("something-out-of-nothing", None, None), ("negation", None, None),
                             ("stealing-sheep", None, None))
    b_card = copy_of("dodge", taken=[sooN, neg, sheep])
    s = table({"A": ("huang-yueying", "elder-zhuge-liang"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [sooN, neg, sheep], "B": [b_card]}, shown={"A": ["main"]})
    s, _ = play(s, "A", "USE Something out of Nothing")
    s, _ = reach(s, "A", "trigger", "card_used")
    s, ev = send(s, "A", "USE Gathered Wisdom")
    assert said(ev, "(Gathered Wisdom)", "A") and len(hand(s, "A")) == 2 + 1 + 2
    # Against her own Stealing Sheep, the Negation is used, and drawn for too.
    s, _ = play(s, "A", "USE Stealing Sheep ON B")
    s, _ = reach(s, "A", "trigger", "card_used")
    s, _ = play(s, "A", "USE Gathered Wisdom")
    s, _ = reach(s, "A", "negate")
    s, _ = play(s, "A", "NEGATE Negation")
    s, _ = reach(s, "A", "trigger", "negation_used")
    s, ev = play(s, "A", "USE Gathered Wisdom")
    assert said(ev, "(Gathered Wisdom)", "A")


def test_gathered_wisdom_not_for_a_conversion() -> None:
    """kingdom-wars-skills.yaml, jizhi: the trick "is not a conversion": an
    Attack by Fire made from a red card by Fire Stratagem draws nothing."""
    red = copy_of("peach", "hearts", None)
    b_card = copy_of("dodge", taken=[red])
    s = table({"A": ("huang-yueying", "younger-zhuge-liang"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [red], "B": [b_card]}, shown={"A": ["main", "deputy"]})
    s, _ = play(s, "A", f"USE Attack by Fire BY Fire Stratagem WITH {label_of(red)} ON B")
    s, _ = reach(s, "B", "cards")
    assert all(a["kind"] != "trigger" for a in s["asks"])
    assert not hand(s, "A")


# --------------------------------------------------------------------------- active


def test_benevolence_heals_once_at_three_cards() -> None:
    """kingdom-wars-skills.yaml, rende: "Give one or more of your hand cards
    to the target"; "the moment the total first reaches 3 or more, you
    recover 1 HP (at most once per phase)"; rulebook, Appendix I, Give: the
    cards pass face down (named to the two players only)."""
    held = cards(("attack", "spades", 7), ("dodge", "hearts", 2), ("peach", "hearts", 4),
                 ("wine", None, None))
    s = table({"A": ("liu-bei", "guan-yu"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": held}, shown={"A": ["main"]}, hp={"A": 2})
    s, ev = send(s, "A", "USE Benevolence WITH Attack S7 Dodge H2 ON B")
    assert said(ev, "gives Attack S7, Dodge H2 to seat B", "B")
    assert not said(ev, "Attack S7", "C") and said(ev, "gives 2 cards to seat B", "C")
    assert hp(s, "A") == 2 and set(held[:2]) <= set(hand(s, "B"))
    s, _ = send(s, "A", "USE Benevolence WITH Peach H4 ON C")
    assert hp(s, "A") == 3
    s, _ = send(s, "A", "USE Benevolence WITH Wine ON C")
    assert hp(s, "A") == 3 and not hand(s, "A")
    with pytest.raises(IllegalLine):
        play(s, "A", "USE Benevolence WITH Wine ON A")


def test_saint_of_war_red_card_as_attack() -> None:
    """kingdom-wars-skills.yaml, wusheng: "one red card (hand/equip)" "is
    used/played as a plain Attack keeping its suit and rank"; hidden, using
    it exposes Guan Yu."""
    red, black, horse = cards(("dodge", "hearts", 2), ("wine", "spades", 9),
                              ("red-hare", None, None))
    s = table({"A": ("guan-yu", "zhang-fei"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [red, black]}, equip={"A": [horse]})
    assert any(x.startswith("USE Attack BY Saint of War WITH Dodge H2 ON") for x in legal(s, "A"))
    with pytest.raises(IllegalLine, match="does not make"):
        play(s, "A", "USE Attack BY Saint of War WITH Wine S9 ON B")
    s, ev = send(s, "A", "USE Attack BY Saint of War WITH Dodge H2 ON B")
    assert exposed(s, "A")[0] and hp(s, "B") == 3
    assert said(ev, "uses Attack (Saint of War, Dodge H2) on seat B")
    bi = copy_of("barbarian-invasion")
    s = table({"A": WEI, "B": ("guan-yu", "zhang-fei"), "C": WU, "D": QUN},
              hands={"A": [bi]}, equip={"B": [horse]}, shown={"B": ["main"]})
    s, _ = play(s, "A", "USE Barbarian Invasion")
    s, _ = reach(s, "B", "respond")
    s, _ = answer(s, {"B": [f"ATTACK BY Saint of War WITH {label_of(horse)}"]})
    s, _ = settle(s)
    assert hp(s, "B") == 4 and s["p"]["B"]["equip"]["minus"] is None


def label_of(cid: str) -> str:
    from judge_games.kingdom_wars.table import label

    return label(cid)


def test_dragons_courage_swaps_attack_and_dodge() -> None:
    """kingdom-wars-skills.yaml, longdan: "An Attack card may be used/played as
    a Dodge; a Dodge card may be used/played as a plain Attack"."""
    dodge, atk = cards(("dodge", "hearts", 2), ("attack", "spades", 7))
    s = table({"A": ("zhao-yun", "ma-chao"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [dodge]}, shown={"A": ["main"]})
    s, _ = send(s, "A", "USE Attack BY Dragon's Courage WITH Dodge H2 ON B")
    assert hp(s, "B") == 3
    own = copy_of("attack", taken=[dodge, atk])
    s = table({"A": WEI, "B": ("zhao-yun", "ma-chao"), "C": WU, "D": QUN},
              hands={"A": [own], "B": [atk]}, shown={"B": ["main"]})
    s, _ = play(s, "A", f"USE {label_of(own)} ON B")
    s, _ = reach(s, "B", "respond")
    assert "DODGE BY Dragon's Courage WITH Attack S7" in legal(s, "B")
    s, _ = answer(s, {"B": ["DODGE BY Dragon's Courage WITH Attack S7"]})
    s, _ = settle(s)
    assert hp(s, "B") == 4 and atk in s["discard"]


def test_linked_chains_club_as_iron_chains_or_recast() -> None:
    """kingdom-wars-skills.yaml, lianhuan: "one Club card from your hand":
    "Use it as Iron Chains, or recast it (discard it and draw one card)"."""
    c1, c2, red = cards(("attack", "clubs", None), ("dodge", None, None), ("peach", None, None))
    c2 = copy_of("attack", "clubs", None, taken=[c1])
    from judge_games.kingdom_wars.table import label

    s = table({"A": ("pang-tong", "younger-zhuge-liang"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [c1, c2, red]}, shown={"A": ["main"]})
    s, _ = send(s, "A", f"USE Iron Chains BY Linked Chains WITH {label(c1)} ON B C")
    assert s["p"]["B"]["chained"] and s["p"]["C"]["chained"]
    with pytest.raises(IllegalLine):
        play(s, "A", f"USE Linked Chains WITH {label(red)}")
    n = len(hand(s, "A"))
    s, ev = send(s, "A", f"USE Linked Chains WITH {label(c2)}")
    assert c2 in s["discard"] and len(hand(s, "A")) == n
    assert said(ev, "recasts")


def test_fire_stratagem_red_card_as_attack_by_fire() -> None:
    """kingdom-wars-skills.yaml, huoji: in your Play Phase, "one red card from
    your hand": "Use it as Attack by Fire (the trick)"."""
    red, hearts, shown_card = cards(("dodge", "hearts", 2), ("peach", "hearts", 4),
                                    ("attack", "hearts", None))
    s = table({"A": ("younger-zhuge-liang", "pang-tong"), "B": WEI, "C": WU, "D": QUN},
              hands={"A": [red, hearts], "B": [shown_card]}, shown={"A": ["main"]})
    s, _ = play(s, "A", "USE Attack by Fire BY Fire Stratagem WITH Dodge H2 ON B")
    s, _ = reach(s, "B", "cards")
    s, _ = play(s, "B", legal(s, "B")[0])
    s, _ = reach(s, "A", "cards")
    s, _ = send(s, "A", "DISCARD Peach H4")
    assert hp(s, "B") == 3


def test_see_through_black_card_as_negation() -> None:
    """kingdom-wars-skills.yaml, kanpo: "Whenever you could use a Negation",
    "one black card from your hand": "Use it as a plain Negation"."""
    sheep = copy_of("stealing-sheep")
    black, red = cards(("attack", "spades", 7), ("dodge", "hearts", 2))
    s = table({"A": WEI, "B": ("younger-zhuge-liang", "pang-tong"), "C": WU, "D": QUN},
              hands={"A": [sheep], "B": [black, red]}, shown={"B": ["main"]})
    s, _ = play(s, "A", "USE Stealing Sheep ON B")
    s, _ = reach(s, "B", "negate")
    assert "NEGATE BY See Through WITH Attack S7" in legal(s, "B")
    assert "NEGATE BY See Through WITH Dodge H2" not in legal(s, "B")
    s, ev = answer(s, {"B": ["NEGATE BY See Through WITH Attack S7"]})
    s, ev2 = settle(s)
    assert said(ev + ev2, "is cancelled on seat B")
    assert red in hand(s, "B") and black in s["discard"]


@pytest.mark.parametrize("case", ["exposed", "hidden", "blue-blade", "armour"])
def test_eight_formations_judges_for_a_dodge(case: str) -> None:
    """kingdom-wars-skills.yaml, bazhen: with no armor "You are treated as
    wearing Eight Trigrams Formation. Effects that ignore or disable armor
    (e.g. Blue Blade) ignore this too"; hidden, "you are offered to reveal
    when you are asked for a Dodge"."""
    atk = copy_of("attack", "spades", 7)
    red = copy_of("peach", "hearts", None)
    equip: dict[str, list[str]] = {}
    if case == "blue-blade":
        equip["A"] = [copy_of("blue-blade")]
    if case == "armour":
        equip["B"] = [copy_of("nio-shield")]
    s = table({"A": WEI, "B": ("younger-zhuge-liang", "pang-tong"), "C": WU, "D": QUN},
              hands={"A": [atk]}, equip=equip, deck_top=[red],
              shown={} if case == "hidden" else {"B": ["main"]})
    atk_line = "USE Attack S7 ON B"
    if case == "armour":  # a red Attack, so the Nio Shield lets it through
        atk = copy_of("attack", "hearts", None)
        s = table({"A": WEI, "B": ("younger-zhuge-liang", "pang-tong"), "C": WU, "D": QUN},
                  hands={"A": [atk]}, equip=equip, deck_top=[red], shown={"B": ["main"]})
        atk_line = f"USE {label_of(atk)} ON B"
    s, _ = play(s, "A", atk_line)
    s, _ = reach(s, "B", "respond")
    offered = "USE Eight Formations" in legal(s, "B")
    assert offered == (case in ("exposed", "hidden"))
    if not offered:
        return
    s, ev = play(s, "B", "USE Eight Formations")
    assert exposed(s, "B")[0]
    s, ev2 = settle(s)
    assert said(ev + ev2, "deemed to have played a Dodge (Eight Formations)")
    assert hp(s, "B") == 3
