"""The skills of the Wei generals, each played on a table through the game's
own lines. Each test cites the data entry (kingdom-wars-skills.yaml, by the
data file's id) or the rulebook passage it checks."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from bench.support.kingdom_wars import (
    ask,
    copy_of,
    hp,
    open_ask,
    pass_all,
    play,
    table,
    texts,
)
from judge.game.engine import Event, IllegalLine, RuleError, State
from judge_games.kingdom_wars import GAME

# Opponents whose skills answer no moment: Wu (B), Shu (C); D stays hidden.
WU = ("sun-quan", "huang-gai")
SHU = ("liu-bei", "guan-yu")
NEUTRAL = ("hua-tuo", "lv-bu")
WINDOWS = ("trigger", "negate", "respond", "reveal")
"""Decisions ``go`` passes on its way (PASS is always one of their answers)."""


def go(state: State, role: str, line: str) -> tuple[State, list[Event]]:
    """Pass every window until ``role`` may send ``line``, then send it."""
    events: list[Event] = []
    for _ in range(80):
        top = ask(state)
        assert top is not None, f"nothing is asked; {role} cannot send {line!r}"
        if top["open"] and role in top["roles"]:
            try:
                GAME.parse(state, role, line)
            except RuleError:
                pass
            else:
                state, got = play(state, role, line)
                return state, events + got
        if top["kind"] not in WINDOWS:
            first = top["roles"][0]
            raise AssertionError(f"{role} cannot send {line!r} now: {top['kind']} "
                                 f"({top['what']}) asks {top['roles']}, who may send "
                                 f"{GAME.legal(state, first)}")
        state, got = play(state, top["roles"][0], "PASS")
        events += got
    raise AssertionError("too many windows")


def script(state: State, steps: Sequence[tuple[str, str]]) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for role, line in steps:
        state, got = go(state, role, line)
        events += got
    return state, events


def reach(state: State, role: str, line: str) -> State | None:
    """The state once ``role`` is offered ``line`` (windows passed on the
    way), or None if the next action decision comes first."""
    for _ in range(80):
        top = ask(state)
        if top is None:
            return None
        if top["open"] and role in top["roles"] and line in GAME.legal(state, role):
            return state
        if top["kind"] not in WINDOWS:
            return None
        state, _ = play(state, top["roles"][0], "PASS")
    return None


def offered(state: State, role: str, line: str) -> bool:
    return reach(state, role, line) is not None


def advance(state: State, until: Callable[[State], bool]) -> State:
    """Everyone passes (or takes the first choice) until ``until`` holds."""
    for _ in range(400):
        if until(state):
            return state
        top = ask(state)
        assert top is not None
        role = top["roles"][0]
        legal = GAME.legal(state, role)
        state, _ = play(state, role, "PASS" if "PASS" in legal else legal[0])
    raise AssertionError("the condition never came")


def hand(state: State, seat: str) -> list[str]:
    cards: list[str] = state["p"][seat]["hand"]
    return cards


def shown(state: State, seat: str) -> list[bool]:
    return list(state["p"][seat]["shown"])


def at_play(state: State, seat: str) -> bool:
    top = ask(state)
    return top is not None and top["kind"] == "play" and top["roles"] == [seat]


# --------------------------------------------------------------------------- Cao Cao


def test_schemers_profit_takes_the_attack_that_hit() -> None:
    """kingdom-wars-skills.yaml, jianxiong: "After you take damage ... Put that
    card into your hand" (the Attack that hit you)."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": ("cao-cao", "xu-chu"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [atk]}, shown={"A": ["main"], "B": ["main", "deputy"]}, turn="B")
    s, _ = script(s, [("B", "USE Attack S7 ON A"), ("A", "USE Schemer's Profit")])
    assert hp(s, "A") == 3
    assert atk in hand(s, "A")
    assert atk not in s["discard"]


def test_schemers_profit_hidden_is_offered_and_exposes() -> None:
    """kingdom-wars-skills.yaml, meta.hidden_general_policy: a hidden
    general's trigger skill is offered when its moment comes; accepting
    reveals the general, then the skill resolves."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": ("cao-cao", "xu-chu"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [atk]}, shown={"B": ["main", "deputy"]}, turn="B")
    s, ev = script(s, [("B", "USE Attack S7 ON A"), ("A", "USE Schemer's Profit")])
    assert shown(s, "A") == [True, False]
    assert "seat A exposes Cao Cao (main) to use Schemer's Profit." in texts(ev)
    assert atk in hand(s, "A")


def test_schemers_profit_takes_the_lightning() -> None:
    """kingdom-wars-skills.yaml, jianxiong: examples include "the Lightning
    card that struck you" (the spell stays in the processing area while its
    damage is settled)."""
    bolt = copy_of("lightning")
    spade = copy_of("attack", "spades", 5)
    s = table({"A": ("cao-cao", "xu-chu"), "B": WU, "C": SHU, "D": NEUTRAL},
              judge={"A": [(bolt, "lightning")]}, shown={"A": ["main", "deputy"]},
              deck_top=[spade], turn="A", phase="judgement")
    s, _ = go(s, "A", "USE Schemer's Profit")
    assert hp(s, "A") == 1
    assert bolt in hand(s, "A")


# --------------------------------------------------------------------------- Sima Yi


def test_payback_takes_the_sources_weapon() -> None:
    """kingdom-wars-skills.yaml, fankui: "Take one card from the source's hand
    (blind) or equipment zone into your hand"."""
    atk = copy_of("attack", "spades", 7)
    bow = copy_of("kirin-bow")
    s = table({"A": ("sima-yi", "guo-jia"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [atk]}, equip={"B": [bow]},
              shown={"A": ["main"], "B": ["main", "deputy"]}, turn="B")
    s, _ = script(s, [("B", "USE Attack S7 ON A"), ("A", "USE Payback"),
                      ("A", "TAKE KIRIN BOW H5")])
    assert bow in hand(s, "A")
    assert s["p"]["B"]["equip"]["weapon"] is None


def test_payback_not_offered_when_the_source_has_no_card() -> None:
    """kingdom-wars-skills.yaml, fankui: "The damage has a source who has at
    least one card in hand or equipment zone"."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": ("sima-yi", "guo-jia"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [atk]}, shown={"A": ["main", "deputy"], "B": ["main", "deputy"]},
              turn="B")
    s, _ = go(s, "B", "USE Attack S7 ON A")
    got = reach(s, "A", "USE Last Stratagem")  # A is asked, for its other skill
    assert got is not None and hp(got, "A") == 2
    assert "USE Payback" not in GAME.legal(got, "A")


def test_devilish_wit_replaces_an_acedia_judgement() -> None:
    """kingdom-wars-skills.yaml, guicai: in the retrial window of any
    player's judgement, "Your played card becomes the judgement card; the
    previous judgement card goes to the discard pile"."""
    acedia = copy_of("acedia")
    spade = copy_of("attack", "spades", 5)
    heart = copy_of("peach", "hearts")
    s = table({"A": WU, "B": ("sima-yi", "guo-jia"), "C": SHU, "D": NEUTRAL},
              hands={"B": [heart]}, judge={"A": [(acedia, "acedia")]},
              shown={"A": ["main", "deputy"], "B": ["main"]}, deck_top=[spade],
              turn="A", phase="judgement")
    s, ev = go(s, "B", f"USE Devilish Wit WITH {_label(heart)}")
    assert "seat B replaces the judgement card Attack S5 with " + _label(heart) + "." in texts(ev)
    assert spade in s["discard"]
    s, _ = pass_all(s)
    assert at_play(s, "A")  # a Heart: Acedia does nothing


def _label(cid: str) -> str:
    from judge_games.kingdom_wars.table import label

    return label(cid)


# --------------------------------------------------------------------------- Xu Chu


def test_bare_chested_draws_one_fewer_and_hits_harder() -> None:
    """kingdom-wars-skills.yaml, luoyi: "Draw one card fewer this Draw Phase";
    "whenever an Attack or Duel that YOU used makes you deal damage, that
    damage is increased by 1"."""
    atk = copy_of("attack", "spades", 7)
    duel = copy_of("duel")
    s = table({"A": ("xu-chu", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [atk, duel]}, shown={"A": ["main"], "B": ["main", "deputy"]},
              turn="A", phase="draw")
    s, _ = go(s, "A", "USE Bare-Chested")
    s, _ = pass_all(s)
    assert at_play(s, "A")
    assert len(hand(s, "A")) == 3
    s, _ = go(s, "A", "USE Attack S7 ON B")
    s, _ = pass_all(s)
    assert hp(s, "B") == 2
    s, _ = go(s, "A", f"USE {_label(duel)} ON C")
    s, _ = pass_all(s)
    assert hp(s, "C") == s["p"]["C"]["max_hp"] - 2


# --------------------------------------------------------------------------- Xiahou Dun


def test_eye_for_an_eye_source_takes_damage_or_discards() -> None:
    """kingdom-wars-skills.yaml, ganglie: "If the result is not Hearts ... the
    source chooses: discard exactly two hand cards, or take 1 damage from
    you"."""
    atk = copy_of("attack", "spades", 7)
    club = copy_of("attack", "clubs", 2)
    x, y = copy_of("dodge", "diamonds", 2), copy_of("dodge", "diamonds", 3)
    s = table({"A": ("xiahou-dun", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [atk, x, y]}, shown={"A": ["main"], "B": ["main", "deputy"]},
              deck_top=[club], turn="B")
    s, _ = script(s, [("B", "USE Attack S7 ON A"), ("A", "USE Eye for an Eye"),
                      ("B", "CHOOSE DISCARD"), ("B", "DISCARD Dodge D2 Dodge D3")])
    assert hand(s, "B") == [] and hp(s, "B") == 4
    atk2 = copy_of("attack", "spades", 8)
    s = table({"A": ("xiahou-dun", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [atk2, x, y]}, shown={"A": ["main"], "B": ["main", "deputy"]},
              deck_top=[club], turn="B")
    s, _ = script(s, [("B", "USE Attack S8 ON A"), ("A", "USE Eye for an Eye"),
                      ("B", "CHOOSE DAMAGE")])
    assert hp(s, "B") == 3 and len(hand(s, "B")) == 2


def test_eye_for_an_eye_heart_does_nothing_and_few_cards_take_damage() -> None:
    """kingdom-wars-skills.yaml, ganglie: a Heart has no consequence; "A
    source with fewer than two hand cards must take the damage"."""
    atk = copy_of("attack", "spades", 7)
    heart = copy_of("peach", "hearts")
    s = table({"A": ("xiahou-dun", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [atk]}, shown={"A": ["main"], "B": ["main", "deputy"]},
              deck_top=[heart], turn="B")
    s, _ = script(s, [("B", "USE Attack S7 ON A"), ("A", "USE Eye for an Eye")])
    s, _ = pass_all(s)
    assert hp(s, "B") == 4
    club = copy_of("attack", "clubs", 2)
    s = table({"A": ("xiahou-dun", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [atk]}, shown={"A": ["main"], "B": ["main", "deputy"]},
              deck_top=[club], turn="B")
    s, _ = script(s, [("B", "USE Attack S7 ON A"), ("A", "USE Eye for an Eye")])
    s, _ = pass_all(s)
    assert hp(s, "B") == 3


def test_eye_for_an_eye_after_rescue() -> None:
    """Rulebook, Dying and Elimination: "Xiahou Dun can activate his skill 'Eye
    for an Eye' only on the condition that he is rescued by a player with
    [Peach]"."""
    atk = copy_of("attack", "spades", 7)
    peach = copy_of("peach")
    club = copy_of("attack", "clubs", 2)
    s = table({"A": ("xiahou-dun", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [atk], "C": [peach]}, hp={"A": 1},
              shown={"A": ["main"], "B": ["main", "deputy"]}, deck_top=[club], turn="B")
    s, _ = go(s, "B", "USE Attack S7 ON A")
    assert not offered(s, "A", "USE Eye for an Eye")  # the rescue comes first
    s, _ = go(s, "C", f"PEACH {_label(peach)}")
    s, _ = go(s, "A", "USE Eye for an Eye")
    s, _ = pass_all(s)
    assert hp(s, "A") == 1 and hp(s, "B") == 3


# --------------------------------------------------------------------------- Zhang Liao


def test_surprise_raid_takes_from_two_instead_of_drawing() -> None:
    """kingdom-wars-skills.yaml, tuxi: "You draw no cards in this Draw Phase";
    "Take one random hand card from each chosen player"."""
    b, c = copy_of("dodge", "diamonds", 2), copy_of("peach")
    s = table({"A": ("zhang-liao", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [b], "C": [c]}, shown={"A": ["main"]}, turn="A", phase="draw")
    deck = len(s["deck"])
    s, ev = go(s, "A", "USE Surprise Raid ON B C")
    s, _ = pass_all(s)
    assert sorted(hand(s, "A")) == sorted([b, c])
    assert len(s["deck"]) == deck
    assert "seat A takes a card from seat B's hand (Surprise Raid)." in texts(ev, "C")
    assert f"seat A takes {_label(b)} from seat B's hand (Surprise Raid)." in texts(ev, "B")


def test_surprise_raid_refuses_a_player_without_cards() -> None:
    """kingdom-wars-skills.yaml, tuxi: targets are "one or two other players,
    each with at least one hand card"."""
    b = copy_of("dodge", "diamonds", 2)
    s = table({"A": ("zhang-liao", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [b]}, shown={"A": ["main"]}, turn="A", phase="draw")
    got = reach(s, "A", "USE Surprise Raid ON B")
    assert got is not None
    assert "USE Surprise Raid ON B C" not in GAME.legal(got, "A")
    with pytest.raises(IllegalLine):
        GAME.parse(got, "A", "USE Surprise Raid ON B C")


# --------------------------------------------------------------------------- Guo Jia


def test_envy_of_heaven_takes_own_judgement_card() -> None:
    """kingdom-wars-skills.yaml, tiandu: "After one of YOUR judgements takes
    effect ... Take the judgement card into your hand"."""
    acedia = copy_of("acedia")
    spade = copy_of("attack", "spades", 5)
    s = table({"A": ("guo-jia", "sima-yi"), "B": WU, "C": SHU, "D": NEUTRAL},
              judge={"A": [(acedia, "acedia")]}, shown={"A": ["main"]}, deck_top=[spade],
              turn="A", phase="judgement")
    s, ev = go(s, "A", "USE Envy of Heaven")
    assert spade in hand(s, "A")
    assert "seat A's Play Phase is skipped." in texts(ev)  # Acedia took effect first


def test_last_stratagem_gives_the_top_two_for_each_point() -> None:
    """kingdom-wars-skills.yaml, yiji: "After you take damage -- once per point
    of damage": look at the top two cards and hand each to a player you
    choose."""
    wine, atk = copy_of("wine"), copy_of("attack", "spades", 7)
    top = [copy_of("dodge", "diamonds", 2), copy_of("dodge", "diamonds", 3),
           copy_of("peach", "hearts"), copy_of("attack", "clubs", 2)]
    s = table({"A": ("guo-jia", "sima-yi"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [wine, atk]}, shown={"A": ["main"], "B": ["main", "deputy"]},
              deck_top=top, turn="B")
    s, _ = script(s, [("B", f"USE {_label(wine)}"), ("B", "USE Attack S7 ON A")])
    s, ev = go(s, "A", "USE Last Stratagem")
    assert f"You look at {_label(top[0])}, {_label(top[1])} (Last Stratagem): name who gets " \
           "the first, then who gets the second." in texts(ev, "A")
    assert not any("Dodge" in x for x in texts(ev, "C"))
    s, _ = script(s, [("A", "CHOOSE A C"), ("A", "USE Last Stratagem"), ("A", "CHOOSE D D")])
    assert hp(s, "A") == 1
    assert hand(s, "A") == [top[0]]
    assert hand(s, "C")[-1] == top[1]
    assert hand(s, "D")[-2:] == top[2:]


# --------------------------------------------------------------------------- Lady Zhen


def test_goddess_of_the_luo_keeps_the_black_cards() -> None:
    """kingdom-wars-skills.yaml, luoshen: "While the result is black you may
    choose to judge again ... a red one is discarded and ends the sequence
    ... take all set-aside black judgement cards into your hand"."""
    b1, b2, red = copy_of("attack", "spades", 7), copy_of("attack", "clubs", 2), copy_of("peach")
    s = table({"A": ("lady-zhen", "cao-pi"), "B": WU, "C": SHU, "D": NEUTRAL},
              shown={"A": ["main", "deputy"]}, deck_top=[b1, b2, red], turn="A",
              phase="preparation")
    s, ev = script(s, [("A", "USE Goddess of the Luo"), ("A", "USE Goddess of the Luo"),
                       ("A", "USE Goddess of the Luo")])
    s, more = pass_all(s)
    ev += more
    assert f"seat A takes {_label(b1)}, {_label(b2)} (Goddess of the Luo)." in texts(ev)
    assert red in s["discard"] and {b1, b2} <= set(hand(s, "A"))
    assert len(hand(s, "A")) == 4  # and the Draw Phase's two
    assert s["p"]["A"]["piles"] == {}


def test_goddess_of_the_luo_may_stop() -> None:
    """kingdom-wars-skills.yaml, luoshen: judging ends when the owner stops."""
    b1, b2 = copy_of("attack", "spades", 7), copy_of("attack", "clubs", 2)
    s = table({"A": ("lady-zhen", "cao-pi"), "B": WU, "C": SHU, "D": NEUTRAL},
              shown={"A": ["main", "deputy"]}, deck_top=[b1, b2], turn="A",
              phase="preparation")
    s, ev = script(s, [("A", "USE Goddess of the Luo"), ("A", "PASS")])
    assert f"seat A takes {_label(b1)} (Goddess of the Luo)." in texts(ev)
    assert len(hand(s, "A")) == 3 and b2 in hand(s, "A")  # b2 drawn in the Draw Phase


def test_enthralling_beauty_black_card_as_dodge_when_hidden() -> None:
    """kingdom-wars-skills.yaml, qingguo: "The card is used/played as a
    Dodge"; meta.hidden_general_policy: view-as skills reveal when used."""
    atk = copy_of("attack", "spades", 7)
    club = copy_of("attack", "clubs", 2)
    s = table({"A": ("lady-zhen", "cao-pi"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [club], "B": [atk]}, shown={"B": ["main", "deputy"]}, turn="B")
    s, _ = go(s, "B", "USE Attack S7 ON A")
    assert "DODGE BY Enthralling Beauty WITH Attack C2" in GAME.legal(s, "A")
    s, _ = go(s, "A", "DODGE BY Enthralling Beauty WITH Attack C2")
    s, _ = pass_all(s)
    assert hp(s, "A") == 3 and club in s["discard"]
    assert shown(s, "A") == [True, False]


def test_enthralling_beauty_refuses_a_red_card() -> None:
    """kingdom-wars-skills.yaml, qingguo: the cost is "one black card from your
    hand"."""
    atk = copy_of("attack", "spades", 7)
    red = copy_of("peach")
    s = table({"A": ("lady-zhen", "cao-pi"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [red], "B": [atk]}, shown={"A": ["main"], "B": ["main", "deputy"]},
              turn="B")
    s, _ = go(s, "B", "USE Attack S7 ON A")
    with pytest.raises(IllegalLine):
        GAME.parse(s, "A", f"DODGE BY Enthralling Beauty WITH {_label(red)}")


# --------------------------------------------------------------------------- Cao Ren


def test_hold_the_fort_draws_three_and_stacks() -> None:
    """kingdom-wars-skills.yaml, jushou: "Draw three cards, then turn your
    generals over"; rulebook, Appendix I, Stacked: the next turn is
    skipped."""
    s = table({"A": ("cao-ren", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              shown={"A": ["main"]}, turn="A", phase="final")
    s, _ = go(s, "A", "USE Hold the Fort")
    assert len(hand(s, "A")) == 3 and s["p"]["A"]["stacked"]
    # B, C and D play their turns; A's turn is skipped, and B's comes again.
    s = advance(s, lambda x: x["turns"] == 6)
    assert s["current"] == "B" and not s["p"]["A"]["stacked"]
    assert len(hand(s, "A")) == 3


# --------------------------------------------------------------------------- Xiahou Yuan


def test_godspeed_skips_judgement_and_draw_for_an_attack_at_any_distance() -> None:
    """kingdom-wars-skills.yaml, shensu, option A: "skip your Judgement Phase
    AND your Draw Phase"; "treated as using an Attack with no suit, no
    colour ... on the chosen targets", "ignoring distance"."""
    acedia = copy_of("acedia")
    s = table({"A": ("xiahou-yuan", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              judge={"A": [(acedia, "acedia")]}, shown={"A": ["main", "deputy"]}, turn="A",
              phase="preparation")
    deck = len(s["deck"])
    s, ev = go(s, "A", "USE Godspeed ON C")
    assert "seat A uses Attack (Godspeed) on seat C." in texts(ev)
    s, _ = pass_all(s)
    assert hp(s, "C") == s["p"]["C"]["max_hp"] - 1
    assert at_play(s, "A") and hand(s, "A") == [] and len(s["deck"]) == deck
    assert s["p"]["A"]["judge"] == [{"card": acedia, "as": "acedia"}]  # left unjudged
    assert s["turn_flags"]["attacks"] == 0  # outside the Attack limit


def test_godspeed_skips_play_for_an_equipment_card() -> None:
    """kingdom-wars-skills.yaml, shensu, option B: "skip your Play Phase and
    discard one equipment card (hand/equip)"."""
    horse = copy_of("shadowrunner") if _has("shadowrunner") else _a_mount()
    s = table({"A": ("xiahou-yuan", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [horse]}, shown={"A": ["main"]}, turn="A", phase="draw")
    s, ev = go(s, "A", f"USE Godspeed WITH {_label(horse)} ON B")
    s, more = pass_all(s)
    assert hp(s, "B") == s["p"]["B"]["max_hp"] - 1 and horse in s["discard"]
    assert "seat A's Play Phase is skipped." in texts(ev + more)


def _has(kind: str) -> bool:
    from judge_games.kingdom_wars.data import DATA

    return kind in DATA.cards


def _a_mount() -> str:
    from judge_games.kingdom_wars.data import DATA

    return next(c.id for c in DATA.deck if c.subtype == "mount")


# --------------------------------------------------------------------------- Xu Huang


def test_cut_supplies_black_basic_as_rations_depleted_at_distance_two() -> None:
    """kingdom-wars-skills.yaml, duanliang: "Use the card as Rations Depleted.
    In addition, any Rations Depleted you use may target a player at distance
    2 or less"; hidden: the view-as use exposes the general."""
    club = copy_of("attack", "clubs", 2)
    s = table({"A": ("xu-huang", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [club]}, turn="A")
    s, _ = go(s, "A", "USE Rations Depleted BY Cut Supplies WITH Attack C2 ON C")
    assert shown(s, "A") == [True, False]
    assert s["p"]["C"]["judge"] == [{"card": club, "as": "rations-depleted"}]


def test_cut_supplies_lengthens_a_real_rations_depleted_only() -> None:
    """kingdom-wars-skills.yaml, duanliang: the reach is for Rations Depleted
    (Stealing Sheep still reaches 1)."""
    rations = copy_of("rations-depleted")
    sheep = copy_of("stealing-sheep")
    red = copy_of("peach")
    s = table({"A": ("xu-huang", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [rations, sheep, red], "C": [copy_of("dodge", "diamonds", 2)]},
              shown={"A": ["main"]}, turn="A")
    legal = GAME.legal(s, "A")
    assert f"USE {_label(rations)} ON C" in legal
    assert f"USE {_label(sheep)} ON C" not in legal
    with pytest.raises(IllegalLine):
        GAME.parse(s, "A", f"USE Rations Depleted BY Cut Supplies WITH {_label(red)} ON B")


# --------------------------------------------------------------------------- Cao Pi


def test_funeral_rites_takes_the_dead_players_cards() -> None:
    """kingdom-wars-skills.yaml, xingshang: "When another player dies (before
    their remaining cards are discarded)": "Take all of their hand and
    equipment cards (judgement-zone cards are not taken)"."""
    atk = copy_of("attack", "spades", 7)
    d1, bow = copy_of("dodge", "diamonds", 2), copy_of("kirin-bow")
    acedia = copy_of("acedia")
    s = table({"A": ("cao-pi", "lady-zhen"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [atk], "C": [d1]}, equip={"C": [bow]}, judge={"C": [(acedia, "acedia")]},
              hp={"C": 1}, shown={"A": ["main"], "B": ["main", "deputy"]}, turn="B")
    s, _ = go(s, "B", "USE Attack S7 ON C")
    s, ev = go(s, "A", "USE Funeral Rites")
    s, _ = pass_all(s)
    assert not s["p"]["C"]["alive"]
    assert sorted(hand(s, "A")) == sorted([d1, bow]) and acedia in s["discard"]
    assert "seat A takes seat C's 1 hand card and Kirin Bow H5 (Funeral Rites)." in texts(ev, "B")


def test_exile_draws_the_lost_health_and_stacks() -> None:
    """kingdom-wars-skills.yaml, fangzhu: "The target draws X cards (X = your
    max HP minus current HP ...), then turns their generals over"."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": ("cao-pi", "lady-zhen"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [atk]}, hp={"A": 2}, shown={"A": ["main"], "B": ["main", "deputy"]},
              turn="B")
    s, _ = script(s, [("B", "USE Attack S7 ON A"), ("A", "USE Exile ON C")])
    assert len(hand(s, "C")) == 2 and s["p"]["C"]["stacked"]


# --------------------------------------------------------------------------- Dian Wei


def test_ferocious_assault_by_health_or_weapon() -> None:
    """kingdom-wars-skills.yaml, qiangxi: "Either lose 1 HP, or discard one
    Weapon card"; "Deal 1 damage to the target"; "once per phase"."""
    bow = copy_of("kirin-bow")
    s = table({"A": ("dian-wei", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [bow]}, shown={"A": ["main"]}, turn="A")
    s, _ = go(s, "A", "USE Ferocious Assault ON B")
    s, _ = pass_all(s)
    assert hp(s, "A") == 3 and hp(s, "B") == s["p"]["B"]["max_hp"] - 1
    assert not any(x.startswith("USE Ferocious Assault") for x in GAME.legal(s, "A"))
    s = table({"A": ("dian-wei", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [bow]}, shown={"A": ["main"]}, turn="A")
    s, _ = go(s, "A", "USE Ferocious Assault WITH Kirin Bow H5 ON D")
    s, _ = pass_all(s)
    assert hp(s, "A") == 4 and hp(s, "D") == s["p"]["D"]["max_hp"] - 1 and bow in s["discard"]


def test_ferocious_assault_range_without_the_discarded_weapon() -> None:
    """kingdom-wars-skills.yaml, qiangxi: "If the discarded Weapon is the one
    you have equipped, range is checked as if it were already gone"."""
    bow = copy_of("kirin-bow")
    s = table({"A": ("dian-wei", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              equip={"A": [bow]}, shown={"A": ["main"]}, turn="A")
    legal = GAME.legal(s, "A")
    assert "USE Ferocious Assault ON C" in legal  # the Kirin Bow reaches 5
    assert "USE Ferocious Assault WITH Kirin Bow H5 ON B" in legal
    with pytest.raises(IllegalLine):
        GAME.parse(s, "A", "USE Ferocious Assault WITH Kirin Bow H5 ON C")


# --------------------------------------------------------------------------- Xun Yu


def test_drive_the_tiger_win_and_lose() -> None:
    """kingdom-wars-skills.yaml, quhu: "If you win, choose a player (not the
    target) inside the target's attack range; the target deals 1 damage to
    that player ... If you do not win (a tie is not a win), the target deals
    1 damage to you"; rulebook, Appendix I, Points Duel."""
    king, low = copy_of("dodge", "hearts", 13) if _exists("dodge", "hearts", 13) else \
        _rank(13), _rank(2)
    s = table({"A": ("xun-yu", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [king], "B": [low]}, shown={"A": ["main"]}, turn="A")
    s, ev = script(s, [("A", f"USE Drive the Tiger WITH {_label(king)} ON B"),
                       ("B", f"SHOW {_label(low)}")])
    assert f"Points Duel: seat A shows {_label(king)}, seat B shows {_label(low)}." in texts(ev)
    s, _ = go(s, "A", "CHOOSE C")
    s, _ = pass_all(s)
    assert hp(s, "C") == s["p"]["C"]["max_hp"] - 1 and {king, low} <= set(s["discard"])
    s = table({"A": ("xun-yu", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [low], "B": [king]}, shown={"A": ["main"]}, turn="A")
    s, _ = script(s, [("A", f"USE Drive the Tiger WITH {_label(low)} ON B"),
                      ("B", f"SHOW {_label(king)}")])
    s, _ = pass_all(s)
    assert hp(s, "A") == 2


def test_drive_the_tiger_needs_higher_health() -> None:
    """kingdom-wars-skills.yaml, quhu: "one player whose current HP is higher
    than yours and who has a hand card"."""
    king, low = _rank(13), _rank(2)
    s = table({"A": ("xun-yu", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [king], "B": [low]}, hp={"B": 3}, shown={"A": ["main"]}, turn="A")
    with pytest.raises(IllegalLine):
        GAME.parse(s, "A", f"USE Drive the Tiger WITH {_label(king)} ON B")


def _exists(kind: str, suit: str, rank: int) -> bool:
    try:
        copy_of(kind, suit, rank)
    except LookupError:
        return False
    return True


def _rank(rank: int) -> str:
    from judge_games.kingdom_wars.data import DATA

    return next(c.id for c in DATA.deck if c.rank == rank and c.type == "basic")


def test_loyal_unto_death_fills_a_hand_to_max_health() -> None:
    """kingdom-wars-skills.yaml, jieming: "The target draws cards until their
    hand size equals their max HP, capped at 5"."""
    atk = copy_of("attack", "spades", 7)
    s = table({"A": ("xun-yu", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"B": [atk], "C": [copy_of("peach")]}, shown={"A": ["main"],
                                                                 "B": ["main", "deputy"]},
              turn="B")
    s, _ = script(s, [("B", "USE Attack S7 ON A"), ("A", "USE Loyal Unto Death ON C")])
    assert len(hand(s, "C")) == s["p"]["C"]["max_hp"]


# --------------------------------------------------------------------------- Zhang He


def test_clever_shift_skips_judgement_and_draw_and_raids() -> None:
    """kingdom-wars-skills.yaml, qiaobian: "Discard one hand card": "Skip that
    phase"; "if you skipped the Draw Phase you may take one random hand card
    from each of one or two other players"."""
    acedia = copy_of("acedia")
    c1, c2 = copy_of("attack", "spades", 7), copy_of("attack", "clubs", 2)
    b = copy_of("dodge", "diamonds", 2)
    s = table({"A": ("zhang-he", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [c1, c2], "B": [b]}, judge={"A": [(acedia, "acedia")]},
              shown={"A": ["main"]}, turn="A", phase="preparation")
    deck = len(s["deck"])
    s, _ = script(s, [("A", "USE Clever Shift WITH Attack S7"),
                      ("A", "USE Clever Shift WITH Attack C2"), ("A", "CHOOSE B")])
    s, _ = pass_all(s)
    assert at_play(s, "A") and hand(s, "A") == [b] and len(s["deck"]) == deck
    assert s["p"]["A"]["judge"] == [{"card": acedia, "as": "acedia"}]


def test_clever_shift_skips_play_and_moves_a_card() -> None:
    """kingdom-wars-skills.yaml, qiaobian: "if you skipped the Play Phase you
    may move one card from any player's equipment zone or judgement zone into
    the same zone of another player"."""
    acedia = copy_of("acedia")
    c1 = copy_of("attack", "spades", 7)
    s = table({"A": ("zhang-he", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [c1]}, judge={"B": [(acedia, "acedia")]},
              shown={"A": ["main"]}, turn="A", phase="draw")
    s, _ = script(s, [("A", "USE Clever Shift WITH Attack S7"),
                      ("A", f"TAKE {_label(acedia).upper()}"), ("A", "CHOOSE C")])
    assert s["p"]["C"]["judge"] == [{"card": acedia, "as": "acedia"}]
    assert s["p"]["B"]["judge"] == []
    assert "play" in s["turn_flags"]["skip"]


# --------------------------------------------------------------------------- Yue Jin


def test_valiant_strike_damage_or_equipment() -> None:
    """kingdom-wars-skills.yaml, xiaoguo: "Discard one basic card from your
    hand"; "That player chooses: discard one equipment card (hand/equip), or
    take 1 damage from you"."""
    a1, a2 = copy_of("attack", "spades", 7), copy_of("attack", "clubs", 2)
    bow = copy_of("kirin-bow")
    s = table({"A": ("yue-jin", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [a1, a2]}, equip={"B": [bow]}, shown={"A": ["main"]},
              turn="B", phase="final")
    s, _ = script(s, [("A", "USE Valiant Strike WITH Attack S7"), ("B", "PASS")])
    assert hp(s, "B") == s["p"]["B"]["max_hp"] - 1 and a1 in s["discard"]
    s = table({"A": ("yue-jin", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [a1, a2]}, equip={"B": [bow]}, shown={"A": ["main"]},
              turn="B", phase="final")
    s, _ = script(s, [("A", "USE Valiant Strike WITH Attack S7"),
                      ("B", "DISCARD Kirin Bow H5")])
    assert hp(s, "B") == s["p"]["B"]["max_hp"] and bow in s["discard"]


def test_valiant_strike_hidden_offered_at_another_final_phase_only() -> None:
    """kingdom-wars-skills.yaml, xiaoguo: "Start of ANOTHER player's Final
    Phase"; a hidden Yue Jin is asked there too, and using it exposes him."""
    a1 = copy_of("attack", "spades", 7)
    s = table({"A": ("yue-jin", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [a1]}, turn="A", phase="final")
    assert not offered(s, "A", "USE Valiant Strike WITH Attack S7")
    s = table({"A": ("yue-jin", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [a1]}, turn="B", phase="final")
    s, _ = go(s, "A", "USE Valiant Strike WITH Attack S7")
    assert shown(s, "A") == [True, False]


def test_a_window_reopened_after_a_death_no_longer_asks_the_dead() -> None:
    """Rulebook, Elimination: an eliminated player takes no further part. The
    Final Phase window of seat B (hidden, so asked) resumes after Valiant
    Strike kills B: it asks only the living (an engine fix)."""
    a1 = copy_of("attack", "spades", 7)
    s = table({"A": ("yue-jin", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL},
              hands={"A": [a1]}, hp={"B": 1}, shown={"A": ["main"], "B": ["main"]},
              turn="B", phase="final")
    top = ask(s)
    assert top is not None and top["kind"] == "trigger" and "A" in top["roles"]
    s, _ = play(s, "A", "USE Valiant Strike WITH Attack S7")
    s = advance(s, lambda x: not x["p"]["B"]["alive"])
    for d in GAME.pending(s):
        assert "B" not in d.roles
    s, _ = pass_all(s)
    assert s["current"] == "C"


def test_hidden_active_and_retrial_skills_expose_their_general() -> None:
    """kingdom-wars-skills.yaml, meta.hidden_general_policy: "Active and
    view-as skills reveal when used"; a trigger skill of a hidden general is
    offered at its moment (Devilish Wit at another player's judgement)."""
    s = table({"A": ("dian-wei", "cao-cao"), "B": WU, "C": SHU, "D": NEUTRAL}, turn="A")
    assert "USE Ferocious Assault ON B" in GAME.legal(s, "A")
    s, ev = play(s, "A", "USE Ferocious Assault ON B")
    assert shown(s, "A") == [True, False]
    assert "seat A exposes Dian Wei (main) to use Ferocious Assault." in texts(ev)
    acedia = copy_of("acedia")
    spade, heart = copy_of("attack", "spades", 5), copy_of("peach", "hearts")
    s = table({"A": WU, "B": ("guo-jia", "sima-yi"), "C": SHU, "D": NEUTRAL},
              hands={"B": [heart]}, judge={"A": [(acedia, "acedia")]},
              shown={"A": ["main", "deputy"]}, deck_top=[spade], turn="A", phase="judgement")
    s, _ = go(s, "B", f"USE Devilish Wit WITH {_label(heart)}")
    assert shown(s, "B") == [False, True]


def test_a_response_window_offers_only_the_skills_that_watch_it() -> None:
    """Rulebook, Events and Reaction: a reaction answers the event it is asked
    for. A skill is offered in a response window only if it watches that
    window (``respond_negation`` here): a hidden Jia Xu's No Mercy, which
    watches a player dying, is no answer to a Negation window (an engine fix:
    the line was offered, then the window could not take it)."""
    sooN = copy_of("something-out-of-nothing")
    s = table({"A": ("jia-xu", "diao-chan"), "B": WU, "C": SHU, "D": ("cao-cao", "xu-chu")},
              hands={"A": [sooN]}, turn="A")
    s, _ = play(s, "A", f"USE {_label(sooN)}")
    s = advance(s, lambda x: (ask(x) or {}).get("kind") == "negate")
    assert open_ask(s)["roles"][0] == "A"
    assert "USE No Mercy" not in GAME.legal(s, "A")
    with pytest.raises(IllegalLine):
        GAME.parse(s, "A", "USE No Mercy")
