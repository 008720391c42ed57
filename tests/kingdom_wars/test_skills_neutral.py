"""The skills of the Neutral generals, one test (or a few) per skill.

Each test cites its entry in the shared data file kingdom-wars-skills.yaml
(by the data file's id) or the rulebook passage it checks. Tables are built
with :func:`bench.support.kingdom_wars.table`; the other seats carry generals
whose skills stay out of the way (Play Phase skills, or exposed Draw Phase
ones), exposed unless the test is about a hidden general.
"""

from __future__ import annotations

from typing import Any

import pytest

from bench.support.kingdom_wars import answer, ask, copy_of, hp, pass_all, play, table, texts
from judge.game.engine import IllegalLine, State
from judge_games.kingdom_wars import GAME
from judge_games.kingdom_wars.table import Ctx, label

WU = ("sun-quan", "gan-ning")
SHU = ("liu-bei", "zhang-fei")
WEI = ("xu-chu", "zhang-liao")
BOTH = ["main", "deputy"]


def fillers(*seats: str) -> dict[str, list[str]]:
    """Both generals exposed for each of ``seats``."""
    return {r: list(BOTH) for r in seats}


def skip_triggers(state: State) -> State:
    """Everyone passes the trigger windows on top of the stack."""
    for _ in range(50):
        top = ask(state)
        if top is None or top["kind"] != "trigger":
            break
        state, _ = answer(state, {})
    return state


def at_play(state: State) -> State:
    """Pass the windows until the turn seat's Play Phase decision."""
    state, _ = pass_all(state)
    top = ask(state)
    assert top is not None and top["kind"] == "play", top
    return state


def offered(state: State, role: str) -> list[str]:
    return GAME.legal(state, role)


def hand(state: State, seat: str) -> list[str]:
    cards: list[str] = state["p"][seat]["hand"]
    return cards


def top_kind(state: State) -> str | None:
    top = ask(state)
    return None if top is None else str(top["kind"])


def top(state: State) -> dict[str, Any]:
    got = ask(state)
    assert got is not None
    return got


# --------------------------------------------------------------------------- Lv Bu: Peerless


def test_peerless_attack_needs_two_dodges() -> None:
    """kingdom-wars-skills.yaml, wushuang: "Attack: each target must use two
    Dodges, one after the other, to cancel it (a single Dodge does nothing)"."""
    atk = copy_of("attack", "spades", 7)
    d1 = copy_of("dodge", "hearts", 2)
    d2 = copy_of("dodge", "diamonds", 2)
    s = table({"A": ("lv-bu", "diao-chan"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [atk], "B": [d1, d2]}, shown={"A": ["main"], **fillers("B", "C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s = skip_triggers(s)
    assert top(s)["want"] == "dodge" and top(s)["need"] == 2
    s, ev = answer(s, {"B": [f"DODGE {label(d1)}"]})
    assert hp(s, "B") == 4 - 1, texts(ev)
    assert d2 in hand(s, "B")


def test_peerless_two_dodges_cancel() -> None:
    """kingdom-wars-skills.yaml, wushuang: two Dodges one after the other
    cancel the Attack."""
    atk = copy_of("attack", "spades", 7)
    d1 = copy_of("dodge", "hearts", 2)
    d2 = copy_of("dodge", "diamonds", 2)
    s = table({"A": ("lv-bu", "diao-chan"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [atk], "B": [d1, d2]}, shown={"A": ["main"], **fillers("B", "C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s = skip_triggers(s)
    s, ev = answer(s, {"B": [f"DODGE {label(d1)}", f"DODGE {label(d2)}"]})
    assert hp(s, "B") == 4
    assert "seat B dodges the Attack." in texts(ev)


def test_peerless_duel_needs_two_attacks_from_the_opponent() -> None:
    """kingdom-wars-skills.yaml, wushuang: "Duel (whether you used it or are
    its target): each time your opponent has to play an Attack, they must play
    two in a row; failing either counts as failing"."""
    duel = copy_of("duel", "spades", 1)
    a1 = copy_of("attack", "clubs", 2)
    s = table({"A": ("lv-bu", "diao-chan"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [duel], "B": [a1]}, shown={"A": ["main"], **fillers("B", "C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(duel)} ON B")
    s = skip_triggers(s)
    while top_kind(s) == "negate":
        s, _ = answer(s, {})
    assert top(s)["want"] == "attack" and top(s)["need"] == 2
    s, _ = answer(s, {"B": [f"ATTACK {label(a1)}"]})
    s, _ = pass_all(s)
    assert hp(s, "B") == 3


def test_peerless_hidden_does_not_apply_until_exposed_in_the_play_phase() -> None:
    """Passive Skills and Limited Skills: "If the General card was remains in
    the concealed state, these skills cannot be activated. General cards with
    such skills can be exposed in the Play Phase"."""
    atk = copy_of("attack", "spades", 7)
    d1 = copy_of("dodge", "hearts", 2)
    s = table({"A": ("lv-bu", "diao-chan"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [atk], "B": [d1]}, shown=fillers("B", "C", "D"))
    s = at_play(s)
    hidden, _ = play(s, "A", f"USE {label(atk)} ON B")
    hidden = skip_triggers(hidden)
    assert top(hidden)["want"] == "dodge" and top(hidden)["need"] == 1
    assert "REVEAL MAIN" in offered(s, "A")
    s, _ = play(s, "A", "REVEAL MAIN")
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s = skip_triggers(s)
    assert top(s)["want"] == "dodge" and top(s)["need"] == 2


# --------------------------------------------------------------------------- Diao Chan


def test_estrange_second_male_duels_the_first() -> None:
    """kingdom-wars-skills.yaml, lijian: discard a card; "The SECOND chosen
    player is treated as using a Duel against the FIRST chosen player"."""
    cost = copy_of("peach", "hearts", 4)
    s = table({"A": ("diao-chan", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [cost]}, shown={"A": ["main"], **fillers("B", "C", "D")})
    s = at_play(s)
    s, ev = play(s, "A", f"USE Estrange WITH {label(cost)} ON B C")
    assert cost in s["discard"]
    s, more = pass_all(s)
    assert "seat C uses Duel (Estrange) on seat B." in texts(ev + more)
    assert hp(s, "B") == 3  # B had no Attack: B takes 1 damage from C
    # Once per Play Phase.
    other = copy_of("peach", "hearts", 6)
    s["p"]["A"]["hand"].append(other)
    with pytest.raises(IllegalLine):
        play(s, "A", f"USE Estrange WITH {label(other)} ON B C")


def test_estrange_needs_exposed_male_players() -> None:
    """kingdom-wars-skills.yaml, meta.hidden_general_policy.gender: "Gender-
    based effects (... Estrange) cannot select a genderless player"."""
    cost = copy_of("peach", "hearts", 4)
    s = table({"A": ("diao-chan", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [cost]}, shown={"A": ["main"], **fillers("B", "D")})
    s = at_play(s)
    with pytest.raises(IllegalLine, match="no exposed male general"):
        play(s, "A", f"USE Estrange WITH {label(cost)} ON B C")


def test_eclipse_the_moon_draws_at_the_final_phase() -> None:
    """kingdom-wars-skills.yaml, biyue: "Start of your Final Phase. Draw one
    card"."""
    top_card = copy_of("peach", "hearts", 4)
    s = table({"A": ("diao-chan", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              shown={"A": ["main"], **fillers("B", "C", "D")}, phase="final",
              deck_top=[top_card])
    assert top(s)["m"]["name"] == "final_start"
    assert "USE Eclipse the Moon" in offered(s, "A")
    s, _ = play(s, "A", "USE Eclipse the Moon")
    assert top_card in hand(s, "A")


def test_eclipse_the_moon_hidden_exposes_diao_chan() -> None:
    """kingdom-wars-skills.yaml, meta.hidden_general_policy: "Trigger skills:
    ... accepting reveals the general, then the skill resolves"."""
    top_card = copy_of("peach", "hearts", 4)
    s = table({"A": ("diao-chan", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              shown=fillers("B", "C", "D"), phase="final", deck_top=[top_card])
    s, _ = play(s, "A", "USE Eclipse the Moon")
    assert s["p"]["A"]["shown"] == [True, False]
    assert top_card in hand(s, "A")


# --------------------------------------------------------------------------- Zhang Jiao


def test_summon_thunder_strikes_on_a_spade() -> None:
    """kingdom-wars-skills.yaml, leiji: when you play a Dodge, "the target
    performs a judgement; if the result is a Spade, you deal 2 thunder damage
    to them"."""
    atk = copy_of("attack", "clubs", 2)
    dodge = copy_of("dodge", "hearts", 2)
    spade = copy_of("attack", "spades", 8)
    s = table({"A": WEI, "B": ("zhang-jiao", "lv-bu"), "C": SHU, "D": WU},
              hands={"A": [atk], "B": [dodge]}, shown={"B": ["main"], **fillers("A", "C", "D")},
              deck_top=[spade])
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s = skip_triggers(s)
    s, _ = play(s, "B", f"DODGE {label(dodge)}")
    assert top(s)["kind"] == "trigger" and top(s)["m"]["name"] == "played_dodge"
    assert "USE Summon Thunder ON A" in offered(s, "B")
    s, ev = play(s, "B", "USE Summon Thunder ON A")
    s, more = pass_all(s)
    assert hp(s, "A") == 4 - 2
    assert any("2 thunder damage" in x for x in texts(ev + more))


def test_summon_thunder_no_spade_no_damage() -> None:
    """kingdom-wars-skills.yaml, leiji: only a Spade deals the damage."""
    atk = copy_of("attack", "clubs", 2)
    dodge = copy_of("dodge", "hearts", 2)
    heart = copy_of("peach", "hearts", 4)
    s = table({"A": WEI, "B": ("zhang-jiao", "lv-bu"), "C": SHU, "D": WU},
              hands={"A": [atk], "B": [dodge]}, shown={"B": ["main"], **fillers("A", "C", "D")},
              deck_top=[heart])
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s = skip_triggers(s)
    s, _ = play(s, "B", f"DODGE {label(dodge)}")
    s, _ = play(s, "B", "USE Summon Thunder ON A")
    s, _ = pass_all(s)
    assert hp(s, "A") == 4


def test_dark_arts_replaces_a_judgement_and_keeps_the_old_card() -> None:
    """kingdom-wars-skills.yaml, guidao: "Play one black card (hand/equip)":
    "your card becomes the judgement card; you take the replaced judgement card
    into your hand". Acedia judged on a Heart would do nothing; Zhang Jiao
    replaces it with a black card and A skips the Play Phase."""
    acedia = copy_of("acedia", "hearts", 6)
    heart = copy_of("peach", "hearts", 4)
    black = copy_of("attack", "spades", 9)
    s = table({"A": WEI, "B": ("zhang-jiao", "lv-bu"), "C": SHU, "D": WU},
              hands={"B": [black]}, judge={"A": [(acedia, "acedia")]},
              shown={"B": ["main"], **fillers("A", "C", "D")}, phase="judgement",
              deck_top=[heart])
    while top_kind(s) == "negate":
        s, _ = answer(s, {})
    assert top(s)["m"]["name"] == "retrial"
    assert f"USE Dark Arts WITH {label(black)}" in offered(s, "B")
    s, ev = answer(s, {"B": [f"USE Dark Arts WITH {label(black)}"]})
    assert heart in hand(s, "B")
    assert "Acedia takes effect: seat A skips the Play Phase." in texts(ev)


# --------------------------------------------------------------------------- Jia Xu


def test_no_mercy_only_jia_xu_and_the_dying_may_peach() -> None:
    """kingdom-wars-skills.yaml, wansha: "Only you and the dying player may use
    Peach ... to save that player" during your turn."""
    atk = copy_of("attack", "spades", 7)
    peach = copy_of("peach", "hearts", 4)
    s = table({"A": ("jia-xu", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [atk], "C": [peach]}, hp={"B": 1},
              shown={"A": ["main"], **fillers("B", "C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s = skip_triggers(s)
    s, _ = answer(s, {})  # no Dodge
    s = skip_triggers(s)
    assert top(s)["want"] == "peach"
    assert top(s)["roles"] == ["A", "B"]
    s, _ = pass_all(s)
    assert not s["p"]["B"]["alive"]


def test_no_mercy_hidden_is_offered_when_someone_is_dying() -> None:
    """kingdom-wars-skills.yaml, wansha: "While hidden you are offered to
    reveal when someone enters dying during your turn"."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": ("jia-xu", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [atk]}, hp={"B": 1}, shown=fillers("B", "C", "D"))
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s = skip_triggers(s)
    s, _ = answer(s, {})
    while not (top(s)["kind"] == "trigger" and top(s)["m"]["name"] == "dying"):
        s, _ = answer(s, {})
    assert "A" in top(s)["roles"]
    s, _ = play(s, "A", "USE No Mercy")
    assert s["p"]["A"]["shown"][0]
    s = skip_triggers(s)
    assert top(s)["want"] == "peach" and top(s)["roles"] == ["A", "B"]


def test_behind_the_curtain_black_spells_cannot_target_jia_xu() -> None:
    """kingdom-wars-skills.yaml, weimu: "When you become a target of a black
    trick card ... You are removed from that card's targets"; a black
    Barbarian Invasion leaves him out, a red spell does not."""
    bb = copy_of("burning-bridges", "spades", 3)
    bb_red = copy_of("burning-bridges", "hearts", 12)
    invasion = copy_of("barbarian-invasion", "spades", 13)
    s = table({"A": WEI, "B": ("jia-xu", "lv-bu"), "C": SHU, "D": WU},
              hands={"A": [bb, bb_red, invasion], "B": [copy_of("peach", "hearts", 4)]},
              shown={"B": ["main"], **fillers("A", "C", "D")})
    s = at_play(s)
    with pytest.raises(IllegalLine, match="Behind the Curtain"):
        play(s, "A", f"USE {label(bb)} ON B")
    assert f"USE {label(bb_red)} ON B" in offered(s, "A")
    s, ev = play(s, "A", f"USE {label(invasion)}")
    assert "seat A uses Barbarian Invasion SK." in texts(ev)
    assert s["uses"][next(iter(s["uses"]))]["targets"] == ["C", "D"]


def test_behind_the_curtain_hidden_leaves_the_targets() -> None:
    """kingdom-wars-skills.yaml, weimu with meta.hidden_general_policy: the
    hidden Jia Xu becomes a target of a black Burning Bridges, is offered the
    skill, exposes the general and the spell leaves him."""
    bb = copy_of("burning-bridges", "spades", 3)
    mine = copy_of("peach", "hearts", 4)
    s = table({"A": WEI, "B": ("jia-xu", "lv-bu"), "C": SHU, "D": WU},
              hands={"A": [bb], "B": [mine]}, shown=fillers("A", "C", "D"))
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(bb)} ON B")
    assert top(s)["m"]["name"] == "targeted"
    s, _ = play(s, "B", "USE Behind the Curtain")
    s, _ = pass_all(s)
    assert s["p"]["B"]["shown"][0]
    assert mine in hand(s, "B")


def test_behind_the_curtain_lightning_passes_him_by() -> None:
    """kingdom-wars-skills.yaml, weimu: "(a Lightning moving to you passes on
    instead)"."""
    lightning = copy_of("lightning", "spades", 1)
    heart = copy_of("peach", "hearts", 4)
    s = table({"A": WEI, "B": ("jia-xu", "lv-bu"), "C": SHU, "D": WU},
              judge={"A": [(lightning, "lightning")]},
              shown={"B": ["main"], **fillers("A", "C", "D")}, phase="judgement",
              deck_top=[heart])
    s, _ = pass_all(s)
    assert any(j["card"] == lightning for j in s["p"]["C"]["judge"])
    assert not s["p"]["B"]["judge"]


def test_chaos_each_other_player_attacks_a_nearest_or_loses_health() -> None:
    """kingdom-wars-skills.yaml, luanwu: "Each of them must use an Attack
    against one of the players at the smallest distance from them ... Anyone
    who does not, or cannot, loses 1 HP"; once per game."""
    c_attack = copy_of("attack", "clubs", 2)
    s = table({"A": ("jia-xu", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"C": [c_attack]}, shown={"A": ["main"], **fillers("B", "C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", "USE Chaos")
    assert top(s)["kind"] == "choose" and top(s)["roles"] == ["B"]
    s, _ = play(s, "B", "PASS")
    assert hp(s, "B") == 3
    s = skip_triggers(s)
    assert top(s)["roles"] == ["C"]
    assert top(s)["options"] == ["PASS", f"USE {label(c_attack)} ON B",
                                 f"USE {label(c_attack)} ON D"]
    s, _ = play(s, "C", f"USE {label(c_attack)} ON D")
    s, _ = pass_all(s)
    assert hp(s, "D") == 3 and hp(s, "C") == 4
    while top_kind(s) == "choose":
        s, _ = play(s, top(s)["roles"][0], "PASS")
        s, _ = pass_all(s)
    assert hp(s, "D") == 2
    assert top_kind(s) == "play" and "USE Chaos" not in offered(s, "A")


# --------------------------------------------------------------------------- Pang De


def test_relentless_advance_discards_a_card_of_the_dodger() -> None:
    """kingdom-wars-skills.yaml, mengjin: "When an Attack you used is cancelled
    by the target's Dodge", "discard one of their cards (hand card blind, or an
    equipment card)"."""
    atk = copy_of("attack", "spades", 7)
    dodge = copy_of("dodge", "hearts", 2)
    horse = copy_of("zhuge-crossbow", "diamonds", 1)
    s = table({"A": ("pang-de", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [atk], "B": [dodge]}, equip={"B": [horse]},
              shown={"A": ["main"], **fillers("B", "C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s = skip_triggers(s)
    s, _ = answer(s, {"B": [f"DODGE {label(dodge)}"]})
    s = skip_triggers(s) if top(s)["m"]["name"] != "attack_dodged" else s
    assert top(s)["m"]["name"] == "attack_dodged"
    s, _ = play(s, "A", "USE Relentless Advance")
    s, _ = play(s, "A", f"TAKE {label(horse)}")
    assert horse in s["discard"] and not s["p"]["B"]["equip"]["weapon"]


# --------------------------------------------------------------------------- Yuan Shao


def test_random_volley_two_cards_of_a_suit_are_raining_arrows() -> None:
    """kingdom-wars-skills.yaml, luanji: "two hand cards of the same suit":
    "use them together as Raining Arrows"."""
    c1, c2 = copy_of("attack", "clubs", 2), copy_of("attack", "clubs", 3)
    h = copy_of("peach", "hearts", 4)
    s = table({"A": ("yuan-shao", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [c1, c2, h]}, shown={"A": ["main"], **fillers("B", "C", "D")})
    s = at_play(s)
    with pytest.raises(IllegalLine):
        play(s, "A", f"USE Raining Arrows BY Random Volley WITH {label(c1)} {label(h)}")
    s, ev = play(s, "A", f"USE Raining Arrows BY Random Volley WITH {label(c1)} {label(c2)}")
    assert any("uses Raining Arrows (Random Volley" in x for x in texts(ev))
    s, _ = pass_all(s)
    assert [hp(s, r) for r in "BCD"] == [3, 3, 3]


def test_random_volley_hidden_exposes_yuan_shao() -> None:
    """kingdom-wars-skills.yaml, meta.hidden_general_policy: "Active and view-as
    skills reveal when used"."""
    c1, c2 = copy_of("attack", "clubs", 2), copy_of("attack", "clubs", 3)
    s = table({"A": ("yuan-shao", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [c1, c2]}, shown=fillers("B", "C", "D"))
    s = at_play(s)
    line = f"USE Raining Arrows BY Random Volley WITH {label(c1)} {label(c2)}"
    assert line in offered(s, "A")
    s, _ = play(s, "A", line)
    assert s["p"]["A"]["shown"] == [True, False]


# --------------------------------------------------------------------------- Yan Liang & Wen Chou


def test_twin_heroes_judges_instead_of_drawing_and_makes_duels() -> None:
    """kingdom-wars-skills.yaml, shuangxiong: "You draw no cards this Draw
    Phase"; "take the judgement card into your hand. For the rest of this turn
    you may use any hand card whose colour differs from that judgement card's
    colour as a Duel"."""
    red = copy_of("peach", "hearts", 4)
    black = copy_of("attack", "spades", 7)
    red2 = copy_of("dodge", "hearts", 2)
    s = table({"A": ("yan-liang-wen-chou", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [black, red2]}, shown={"A": ["main"], **fillers("B", "C", "D")},
              phase="draw", deck_top=[red])
    assert top(s)["m"]["name"] == "draw_start"
    s, _ = play(s, "A", "USE Twin Heroes")
    s = at_play(s)
    assert sorted(hand(s, "A")) == sorted([black, red2, red])
    with pytest.raises(IllegalLine):
        play(s, "A", f"USE Duel BY Twin Heroes WITH {label(red2)} ON B")
    s, ev = play(s, "A", f"USE Duel BY Twin Heroes WITH {label(black)} ON B")
    assert any("uses Duel (Twin Heroes" in x for x in texts(ev))


# --------------------------------------------------------------------------- Cai Wenji


def _elegy_table(judgement: str, *, b_cards: int = 0) -> State:
    atk = copy_of("attack", "spades", 7)
    cost = copy_of("peach", "hearts", 4)
    extra = [copy_of("attack", "clubs", n) for n in (2, 3, 4)][:b_cards]
    s = table({"A": WEI, "B": ("cai-wenji", "lv-bu"), "C": SHU, "D": WU},
              hands={"A": [atk, *extra], "B": [cost]},
              shown={"B": ["main"], **fillers("A", "C", "D")}, deck_top=[judgement])
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s = skip_triggers(s)
    s, _ = answer(s, {})
    while not (top(s)["kind"] == "trigger" and top(s)["m"]["name"] == "attack_damaged"):
        s, _ = answer(s, {})
    assert f"USE Elegy WITH {label(cost)}" in offered(s, "B")
    s, _ = play(s, "B", f"USE Elegy WITH {label(cost)}")
    return s


def test_elegy_hearts_the_victim_recovers() -> None:
    """kingdom-wars-skills.yaml, beige: "Hearts: they recover 1 HP"."""
    s = _elegy_table(copy_of("peach", "hearts", 6))
    s, _ = pass_all(s)
    assert hp(s, "B") == 4  # 4 - 1 + 1


def test_elegy_diamonds_the_victim_draws_two() -> None:
    """kingdom-wars-skills.yaml, beige: "Diamonds: they draw two cards"."""
    s = _elegy_table(copy_of("dodge", "diamonds", 3))
    s, _ = pass_all(s)
    assert len(hand(s, "B")) == 2


def test_elegy_clubs_the_source_discards_two() -> None:
    """kingdom-wars-skills.yaml, beige: "Clubs: the damage source, if alive,
    discards two cards"."""
    s = _elegy_table(copy_of("attack", "clubs", 5), b_cards=3)
    s = skip_triggers(s)
    assert top(s)["kind"] == "cards" and top(s)["roles"] == ["A"] and top(s)["least"] == 2
    s, _ = play(s, "A", "DISCARD Attack C2 Attack C3")
    assert len(hand(s, "A")) == 1


def test_elegy_spades_the_source_is_stacked() -> None:
    """kingdom-wars-skills.yaml, beige: "Spades: the damage source, if alive,
    turns their generals over"; Appendix I, Stacked: "This indicates the state
    of skipping the next turn"."""
    s = _elegy_table(copy_of("attack", "spades", 8))
    s, _ = pass_all(s)
    assert s["p"]["A"]["stacked"]


def test_heartbreak_the_killer_loses_a_generals_skills() -> None:
    """kingdom-wars-skills.yaml, duanchang: "You choose one of the killer's two
    general cards ...; the killer permanently loses every skill printed on that
    general"."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": ("lv-bu", "diao-chan"), "B": ("cai-wenji", "kong-rong"), "C": SHU,
               "D": WU}, hands={"A": [atk]}, hp={"B": 1},
              shown={"A": BOTH, "B": ["main"], **fillers("C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s = skip_triggers(s)
    for _ in range(20):
        if top(s)["kind"] == "choose":
            break
        s, _ = answer(s, {})
    assert not s["p"]["B"]["alive"]
    assert top(s)["roles"] == ["B"]
    assert offered(s, "B") == ["CHOOSE MAIN", "CHOOSE DEPUTY"]
    s, ev = play(s, "B", "CHOOSE MAIN")
    assert "peerless" in s["p"]["A"]["lost_skills"]
    assert "Heartbreak: seat A's main general (Lv Bu) loses its skills for the rest of the " \
           "game." in texts(ev)


# --------------------------------------------------------------------------- Kong Rong


def test_renowned_scholar_damage_from_a_hidden_player_is_smaller() -> None:
    """kingdom-wars-skills.yaml, mingshi: "The damage source still has at least
    one hidden general": "Reduce that damage by 1; at 0 it is prevented
    entirely"."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": WEI, "B": ("kong-rong", "lv-bu"), "C": SHU, "D": WU},
              hands={"A": [atk]}, shown={"A": ["main"], "B": ["main"], **fillers("C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s, ev = pass_all(s)
    assert hp(s, "B") == 4
    assert "Renowned Scholar: the damage to seat B is prevented." in texts(ev)


def test_renowned_scholar_not_against_a_fully_exposed_source() -> None:
    """kingdom-wars-skills.yaml, mingshi: only while the source has a hidden
    general."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": WEI, "B": ("kong-rong", "lv-bu"), "C": SHU, "D": WU},
              hands={"A": [atk]}, shown={"B": ["main"], **fillers("A", "C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s, _ = pass_all(s)
    assert hp(s, "B") == 3


def test_renowned_scholar_hidden_is_offered_at_taking_damage() -> None:
    """kingdom-wars-skills.yaml, meta.hidden_general_policy: "Compulsory
    skills: while the general is hidden the owner is offered, at the moment
    the condition is met, to reveal it and apply the skill"."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": WEI, "B": ("kong-rong", "lv-bu"), "C": SHU, "D": WU},
              hands={"A": [atk]}, shown={"A": ["main"], **fillers("C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    while not (top(s)["kind"] == "trigger" and top(s)["m"]["name"] == "taking_damage"):
        s, _ = answer(s, {})
    s, _ = play(s, "B", "USE Renowned Scholar")
    s, _ = pass_all(s)
    assert s["p"]["B"]["shown"][0] and hp(s, "B") == 4


def test_courteous_yield_gives_away_discarded_cards() -> None:
    """kingdom-wars-skills.yaml, lirang: "After one or more of your cards,
    discarded from your hand or equipment zone, reach the discard pile":
    "Give any number of those cards to other players"."""
    cards = [copy_of("attack", "clubs", n) for n in (2, 3, 4, 5, 8)]
    s = table({"A": ("kong-rong", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": cards}, hp={"A": 3},
              shown={"A": ["main"], **fillers("B", "C", "D")}, phase="discard")
    s, _ = pass_all(s) if top_kind(s) == "trigger" else (s, [])
    assert top(s)["kind"] == "cards"
    s, _ = play(s, "A", f"DISCARD {label(cards[0])} {label(cards[1])}")
    assert top(s)["m"]["name"] == "discarded"
    s, _ = play(s, "A", "USE Courteous Yield")
    s, _ = play(s, "A", f"CHOOSE {label(cards[0])} FOR C")
    assert cards[0] in hand(s, "C")
    s, _ = play(s, "A", "PASS")
    assert cards[1] in s["discard"]


# --------------------------------------------------------------------------- Lady Zou


def test_femme_fatale_exposes_for_free_and_locks_the_others() -> None:
    """kingdom-wars-skills.yaml, huoshui: "During your Play Phase you may reveal
    this general at no cost. While it is revealed, during your turn no other
    player may reveal any of their generals -- so hidden generals' skills
    cannot be used during your turn either". A hidden Kong Rong is not offered
    Renowned Scholar."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": ("lady-zou", "lv-bu"), "B": ("kong-rong", "cai-wenji"), "C": SHU,
               "D": WU}, hands={"A": [atk]}, shown=fillers("C", "D"))
    s = at_play(s)
    assert "USE Femme Fatale" in offered(s, "A")
    s, _ = play(s, "A", "USE Femme Fatale")
    assert s["p"]["A"]["shown"] == [True, False]
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    for _ in range(20):
        if top_kind(s) == "play":
            break
        t = top(s)
        if t["kind"] == "trigger" and "B" in t["roles"]:
            assert offered(s, "B") == ["PASS"]
        s, _ = answer(s, {})
    assert hp(s, "B") == 2 and s["p"]["B"]["shown"] == [False, False]


def test_city_toppling_charm_turns_a_general_face_down() -> None:
    """kingdom-wars-skills.yaml, qingcheng: discard an equipment card; "choose
    one of the target's generals and turn it face down (concealed). Its skills
    stop working until it is revealed again; the player's kingdom is kept"."""
    horse = copy_of("dilu", "clubs", 5)
    s = table({"A": ("lady-zou", "lv-bu"), "B": ("kong-rong", "cai-wenji"), "C": SHU,
               "D": WU}, hands={"A": [horse]},
              shown={"A": ["main"], "B": BOTH, **fillers("C", "D")})
    s = at_play(s)
    with pytest.raises(IllegalLine):
        play(s, "A", f"USE City-Toppling Charm MAIN WITH {label(horse)} ON D C")
    s, _ = play(s, "A", f"USE City-Toppling Charm MAIN WITH {label(horse)} ON B")
    s = skip_triggers(s)
    assert s["p"]["B"]["shown"] == [False, True] and s["p"]["B"]["kingdom"] == "Neutral"
    assert horse in s["discard"]
    assert Ctx(s).skills("B") == ["elegy", "heartbreak"]  # Kong Rong's are gone


# --------------------------------------------------------------------------- Ma Teng


def test_rally_the_west_the_force_draws_three_and_the_smallest_recovers() -> None:
    """kingdom-wars-skills.yaml, xiongyi: "Each target draws three cards (in
    turn order). Then, if no kingdom that has at least one revealed living
    member has fewer such members than your force, you recover 1 HP"."""
    s = table({"A": ("ma-teng", "pan-feng"), "B": ("ji-ling", "hua-tuo"), "C": SHU, "D": WU,
               "E": WEI, "F": ("cao-ren", "dian-wei")},
              hp={"A": 2}, shown={"A": ["main"], "B": ["main"], **fillers("C", "D", "E", "F")})
    s = at_play(s)
    s, _ = play(s, "A", "USE Rally the West")
    assert len(hand(s, "A")) == 3 and len(hand(s, "B")) == 3 and not hand(s, "C")
    assert hp(s, "A") == 2  # Neutral has 2, Shu and Wu 1: not the smallest force
    assert "USE Rally the West" not in offered(s, "A")


def test_rally_the_west_recovers_when_no_force_is_smaller() -> None:
    """kingdom-wars-skills.yaml, xiongyi: alone against forces of one, Ma Teng
    recovers 1 HP."""
    s = table({"A": ("ma-teng", "pan-feng"), "B": WEI, "C": SHU, "D": WU},
              hp={"A": 2}, shown={"A": ["main"], **fillers("B", "C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", "USE Rally the West")
    assert hp(s, "A") == 3 and len(hand(s, "A")) == 3


# --------------------------------------------------------------------------- Pan Feng


def test_mad_axe_moves_an_equipment_card_of_the_damaged() -> None:
    """kingdom-wars-skills.yaml, kuangfu: "After an Attack you used deals damage
    to its target": "move it into your own equipment zone (only if your slot of
    that type is empty) or discard it"."""
    atk = copy_of("attack", "spades", 7)
    horse = copy_of("zhuge-crossbow", "diamonds", 1)
    s = table({"A": ("pan-feng", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [atk]}, equip={"B": [horse]},
              shown={"A": ["main"], **fillers("B", "C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    while not (top(s)["kind"] == "trigger" and top(s)["m"]["name"] == "damage_dealt"):
        s, _ = answer(s, {})
    s, _ = play(s, "A", "USE Mad Axe")
    assert top(s)["options"] == [f"TAKE {label(horse).upper()}",
                                 f"DISCARD {label(horse).upper()}"]
    s, _ = play(s, "A", f"TAKE {label(horse)}")
    assert s["p"]["A"]["equip"]["weapon"] == horse and not s["p"]["B"]["equip"]["weapon"]


# --------------------------------------------------------------------------- Ji Ling


def test_twin_blades_won_points_duel_gives_a_free_attack() -> None:
    """kingdom-wars-skills.yaml, shuangren: "Points Duel. If you win ... you are
    treated as using an Attack (no suit) on them, ignoring distance; it does
    not count toward your Attack limit"; Appendix I, Points Duel: "the player
    with the larger card number wins"."""
    king = copy_of("dodge", "hearts", 13)
    low = copy_of("attack", "clubs", 2)
    atk = copy_of("attack", "spades", 7)
    s = table({"A": ("ji-ling", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [king, atk], "C": [low]},
              shown={"A": ["main"], **fillers("B", "C", "D")})
    assert top(s)["m"]["name"] == "play_start"
    assert "USE Twin Blades ON C" in offered(s, "A")
    s, _ = play(s, "A", "USE Twin Blades ON C")
    s, _ = play(s, "A", f"SHOW {label(king)}")
    s, ev = play(s, "C", f"SHOW {label(low)}")
    assert "seat A wins the Points Duel." in texts(ev)
    assert king in s["discard"] and low in s["discard"]
    assert top(s)["options"] == ["CHOOSE C"]
    s, ev = play(s, "A", "CHOOSE C")
    s, _ = pass_all(s)
    assert hp(s, "C") == 3
    assert f"USE {label(atk)} ON B" in offered(s, "A")  # the limit is untouched


def test_twin_blades_lost_points_duel_ends_the_play_phase() -> None:
    """kingdom-wars-skills.yaml, shuangren: "If you do not win: your Play Phase
    ends at once" (a tie is not a win)."""
    seven_a = copy_of("attack", "spades", 7)
    seven_c = copy_of("dodge", "diamonds", 7)
    s = table({"A": ("ji-ling", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [seven_a, copy_of("peach", "hearts", 4)], "C": [seven_c]},
              shown={"A": ["main"], **fillers("B", "C", "D")})
    s, _ = play(s, "A", "USE Twin Blades ON C")
    s, _ = play(s, "A", f"SHOW {label(seven_a)}")
    s, ev = play(s, "C", f"SHOW {label(seven_c)}")
    assert "The Points Duel is a tie: nobody wins." in texts(ev)
    s, _ = pass_all(s)
    assert s["current"] == "B" and top_kind(s) == "play"  # A's Play Phase ended


# --------------------------------------------------------------------------- Tian Feng


def test_dying_remonstrance_last_hand_card_lost() -> None:
    """kingdom-wars-skills.yaml, sijian: "After you lose your last hand card":
    "Discard one of their cards (hand card blind, or an equipment card)"."""
    peach = copy_of("peach", "hearts", 4)
    horse = copy_of("dilu", "clubs", 5)
    s = table({"A": ("tian-feng", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [peach]}, hp={"A": 2}, equip={"C": [horse]},
              shown={"A": ["main"], **fillers("B", "C", "D")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(peach)}")
    while top(s)["m"]["name"] != "hand_emptied":
        s, _ = answer(s, {})
    assert offered(s, "A") == ["PASS", "USE Dying Remonstrance ON C"]
    s, _ = play(s, "A", "USE Dying Remonstrance ON C")
    s, _ = play(s, "A", f"TAKE {label(horse)}")
    assert horse in s["discard"]


def test_follow_the_tide_draws_when_a_friend_leaves_someone_dying() -> None:
    """kingdom-wars-skills.yaml, suishi: "(a) When another player enters dying
    because of damage" from a player of your force: "Draw one card"."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": ("lv-bu", "diao-chan"), "B": SHU, "C": ("tian-feng", "hua-tuo"),
               "D": WU, "E": WEI, "F": ("cao-ren", "dian-wei")},
              hands={"A": [atk]}, hp={"B": 1},
              shown={"A": ["main"], "C": ["main"], **fillers("B", "D", "E", "F")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    ev = []
    while top(s).get("want") != "peach":
        s, got = answer(s, {})
        ev += got
    assert len(hand(s, "C")) == 1
    assert "seat C draws 1 card (Follow the Tide)." in texts(ev, "A")


def test_follow_the_tide_loses_health_when_a_friend_dies() -> None:
    """kingdom-wars-skills.yaml, suishi: "(b) When another player dies" of your
    force: "Lose 1 HP"."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": WEI, "B": ("lv-bu", "diao-chan"), "C": ("tian-feng", "hua-tuo"),
               "D": WU, "E": SHU, "F": ("cao-ren", "dian-wei")},
              hands={"A": [atk]}, hp={"B": 1},
              shown={"B": ["main"], "C": ["main"], **fillers("A", "D", "E", "F")})
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s, _ = pass_all(s)
    assert not s["p"]["B"]["alive"]
    assert hp(s, "C") == 2


# --------------------------------------------------------------------------- Hua Tuo


def test_green_satchel_heals_a_wounded_player_once_a_phase() -> None:
    """kingdom-wars-skills.yaml, qingnang: "Discard one hand card": "The target
    recovers 1 HP", "once per Play Phase"."""
    c1, c2 = copy_of("attack", "clubs", 2), copy_of("attack", "clubs", 3)
    s = table({"A": ("hua-tuo", "lv-bu"), "B": WEI, "C": SHU, "D": WU},
              hands={"A": [c1, c2]}, hp={"C": 2},
              shown={"A": ["main"], **fillers("B", "C", "D")})
    s = at_play(s)
    with pytest.raises(IllegalLine, match="wounded"):
        play(s, "A", f"USE Green Satchel WITH {label(c1)} ON B")
    s, _ = play(s, "A", f"USE Green Satchel WITH {label(c1)} ON C")
    s = at_play(s)
    assert hp(s, "C") == 3 and c1 in s["discard"]
    with pytest.raises(IllegalLine, match="once per Play Phase"):
        play(s, "A", f"USE Green Satchel WITH {label(c2)} ON C")


def test_first_aid_a_red_card_is_a_peach_outside_the_own_turn() -> None:
    """kingdom-wars-skills.yaml, jijiu: "Outside your own turn, whenever you
    could use a Peach", a red card (hand/equip) is used as a Peach; hidden,
    using it exposes Hua Tuo."""
    atk = copy_of("attack", "spades", 7)
    red = copy_of("dodge", "diamonds", 3)
    s = table({"A": WEI, "B": SHU, "C": ("hua-tuo", "lv-bu"), "D": WU},
              hands={"A": [atk], "C": [red]}, hp={"B": 1}, shown=fillers("A", "B", "D"))
    s = at_play(s)
    s, _ = play(s, "A", f"USE {label(atk)} ON B")
    s = skip_triggers(s)
    s, _ = answer(s, {})
    while top(s)["kind"] != "respond":
        s, _ = answer(s, {})
    assert top(s)["want"] == "peach"
    line = f"PEACH BY First Aid WITH {label(red)}"
    assert line in offered(s, "C")
    s, _ = answer(s, {"C": [line]})
    assert s["p"]["B"]["alive"] and hp(s, "B") == 1
    assert s["p"]["C"]["shown"][0]
