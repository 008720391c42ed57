"""The rules of Kingdom Wars, each test citing the rulebook passage it checks
(kingdom-wars.txt), with every worked example of the rulebook."""

from __future__ import annotations

from typing import Any

import pytest

from bench.support.kingdom_wars import (
    answer,
    ask,
    copy_of,
    hp,
    open_ask,
    play,
    rng,
    skip_idle,
    table,
    texts,
)
from judge.game.engine import Action, IllegalLine
from judge_games.kingdom_wars import GAME, flow
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.table import Ctx, fresh_player

PLAIN = {"A": ("cao-cao", "xu-chu"), "B": ("liu-bei", "guan-yu"),
         "C": ("sun-quan", "zhou-tai"), "D": ("lv-bu", "diao-chan")}


# --------------------------------------------------------------------------- preparation


@pytest.mark.parametrize(("seats", "per"), [(4, 7), (8, 7), (9, 5), (12, 5)])
def test_generals_dealt(seats: int, per: int) -> None:
    """Select Generals: "Deal 7 General cards per player (in a game with 9-12
    players, deal 5 General cards each)"."""
    s = GAME.setup({"seats": seats}, rng())
    assert all(len(s["dealt"][r]) == per for r in s["seats"])
    dealt = [g for r in s["seats"] for g in s["dealt"][r]]
    assert len(set(dealt)) == len(dealt) and len(dealt) + len(s["pile"]) == 60


def test_generals_must_be_two_of_one_kingdom() -> None:
    """Select Generals: "Select 2 Generals with the same Kingdom"; the first is
    the Main General."""
    s = GAME.setup({"seats": 4}, rng())
    mine = s["dealt"]["A"]
    by: dict[str, list[str]] = {}
    for gid in mine:
        by.setdefault(DATA.generals[gid].kingdom, []).append(gid)
    pair = next(v for v in by.values() if len(v) >= 2)
    kingdom = DATA.generals[pair[0]].kingdom
    other = next(gid for gid in mine if DATA.generals[gid].kingdom != kingdom)
    a, b, c = (DATA.generals[x].name for x in (pair[0], pair[1], other))
    GAME.parse(s, "A", f"GENERALS {a} AND {b}")
    with pytest.raises(IllegalLine, match="of one kingdom"):
        GAME.parse(s, "A", f"GENERALS {a} AND {c}")
    not_mine = next(g for g in DATA.generals if g not in mine)
    with pytest.raises(IllegalLine, match="not dealt to you"):
        GAME.parse(s, "A", f"GENERALS {DATA.generals[not_mine].name} AND {a}")


def test_starting_hands_and_maximum_health() -> None:
    """Distribute Hand cards: 4 cards each; Health: "Each complete Yin-Yang
    Circle denotes 1 Health Point" (2 + 1.5 = 3.5 rounds down to 3)."""
    s = GAME.setup({"seats": 4}, rng())
    orders: dict[str, list[Action]] = {}
    s2, _ = GAME.resolve(s, orders, rng(2))
    assert all(len(s2["p"][r]["hand"]) in (4, 6) for r in s2["seats"])  # the starter drew 2
    assert DATA.max_hp("cao-cao", "sima-yi") == 3  # 4 + 3 half-circles = 3.5 -> 3
    p = fresh_player("cao-cao", "sima-yi")
    assert p["max_hp"] == 3 and p["owed"]["yin-yang"]


def test_variation_shows_the_supporting_general_of_the_player_on_your_right() -> None:
    """Game Variation: "all players may view the "Support General" of the player
    on his/her right" (the next player)."""
    s = GAME.setup({"seats": 4, "variation": True}, rng())
    s2, ev = GAME.resolve(s, {}, rng(2))
    b_deputy = DATA.generals[s2["p"]["B"]["deputy"]].name
    seen = [e for e in ev if b_deputy in e.text and "Game Variation" in e.text]
    assert seen and seen[0].audience == frozenset({"A"})
    view = GAME.view(s2, "A")
    b = next(x for x in view["seats"] if x["seat"] == "B")
    assert b["generals"][1]["general"] == b_deputy and b["generals"][0]["general"] is None


# --------------------------------------------------------------------------- exposing


def test_hidden_generals_have_no_gender_kingdom_or_skills() -> None:
    """Hidden and Exposed Generals: "The hidden General cards do not have any
    skills, gender nor kingdom"; with both exposed, the Main General's gender."""
    s = table({"A": ("lady-zhen", "cao-pi"), **{k: v for k, v in PLAIN.items() if k != "A"}})
    g = Ctx(s)
    assert g.gender("A") is None and g.kingdom("A") is None and g.skills("A") == []
    flow.reveal(g, "A", ["deputy"])
    assert g.gender("A") == "male" and g.kingdom("A") == "Wei"
    flow.reveal(g, "A", ["main"])
    assert g.gender("A") == "female"


def test_the_first_to_expose_takes_the_pioneer_marker() -> None:
    """Hidden and Exposed Generals: "if he/she is the first player to expose
    their General card in the game, he/she will obtain a "Pioneer" Marker"."""
    s = table(PLAIN)
    g = Ctx(s)
    flow.reveal(g, "B", ["main"])
    flow.reveal(g, "C", ["main"])
    assert g.p("B")["markers"]["pioneer"] == 1 and g.p("C")["markers"]["pioneer"] == 0


def test_yin_yang_and_perfect_pair_markers_once_both_are_exposed() -> None:
    """Distribute Health cards, Note: the spare half-circle earns the Yin-Yang
    Marker "after he/she exposes all General cards for the first time";
    Perfect Pair: the Marker "after both General cards have been exposed for
    the first time"."""
    s = table({"A": ("cao-cao", "sima-yi"), "B": ("liu-bei", "zhang-fei"),
               "C": ("sun-quan", "zhou-tai"), "D": ("lv-bu", "diao-chan")})
    g = Ctx(s)
    flow.reveal(g, "A", ["main"])
    assert g.p("A")["markers"]["yin-yang"] == 0
    flow.reveal(g, "A", ["deputy"])
    assert g.p("A")["markers"]["yin-yang"] == 1
    flow.reveal(g, "B", ["main", "deputy"])  # Liu Bei and Zhang Fei: a Perfect Pair
    assert g.p("B")["markers"]["perfect-pair"] == 1


def _expose_kingdom(n: int, kingdom: str) -> list[bool]:
    """Expose, one after another, ``n`` players whose generals are all of
    ``kingdom``; the Ambitionist flag of each."""
    wei = [g for g in DATA.generals if DATA.generals[g].kingdom == kingdom]
    others = [g for g in DATA.generals if DATA.generals[g].kingdom != kingdom]
    gens: dict[str, tuple[str, str]] = {}
    seats = "ABCDEFGHIJKL"[:n]
    for i, r in enumerate(seats):
        pool = wei if i < len(wei) // 2 else others
        j = 2 * (i % (len(pool) // 2))
        gens[r] = (pool[j], pool[j + 1])
    s = table(gens)
    g = Ctx(s)
    out = []
    for r in seats:
        if DATA.generals[gens[r][0]].kingdom == kingdom:
            flow.reveal(g, r, ["main"])
            out.append(g.ambitionist(r))
    return out


def test_ambitionist_example_1_six_or_seven_players() -> None:
    """Ambitionist, Example 1: "In a game with 6 or 7 players, when the fourth
    player of the same Kingdom is exposed, this player and the player exposed
    after him/her who also belong to the same Kingdom, will become
    Ambitionists"."""
    assert _expose_kingdom(6, "Wei")[:5] == [False, False, False, True, True]
    assert _expose_kingdom(7, "Wei")[:5] == [False, False, False, True, True]


def test_ambitionist_example_2_eight_or_nine_players() -> None:
    """Ambitionist, Example 2: "In a game of 8 or 9 players, when the fifth
    player of the same Kingdom is exposed, this player and the players exposed
    after him/her ... will become Ambitionists"."""
    assert _expose_kingdom(8, "Wei")[:6] == [False, False, False, False, True, True]
    assert _expose_kingdom(9, "Wei")[:6] == [False, False, False, False, True, True]


def test_ambitionists_are_a_force_of_their_own() -> None:
    """Forces: "Ambitionists are a special force, they do not belong to the same
    force as any other forces"; "Ambitionists do not form a team"."""
    s = table(PLAIN)
    g = Ctx(s)
    for r in "ABCD":
        g.p(r)["kingdom"] = "Wei"
    g.p("C")["ambitionist"] = g.p("D")["ambitionist"] = True
    assert g.same_force("A", "B") and not g.same_force("A", "C")
    assert not g.same_force("C", "D")


# --------------------------------------------------------------------------- rewards


def _kill(gens: dict[str, tuple[str, str]], killer: str, victim: str,
          setup: Any = None) -> tuple[dict[str, Any], list[Any]]:
    s = table(gens, hands={killer: [copy_of("attack", "spades", 7)]}, hp={victim: 1},
              turn=killer, start=killer)
    g = Ctx(s)
    if setup:
        setup(g)
    s, _ = play(s, killer, f"USE Attack S7 ON {victim}")
    events: list[Any] = []
    for _ in range(10):
        a = ask(s)
        if a is None or a["kind"] == "play":
            break
        s, got = answer(s, {})
        events += got
    assert not s["p"][victim]["alive"]
    return s, events


SIX = {"A": ("liu-bei", "guan-yu"), "B": ("cao-cao", "xu-chu"), "C": ("sima-yi", "guo-jia"),
       "D": ("zhang-liao", "xiahou-dun"), "E": ("sun-quan", "zhou-tai"),
       "F": ("lv-bu", "diao-chan")}


def test_reward_shu_kills_wei_with_two_wei_alive_draws_three() -> None:
    """Reward and Punishment, the example: "When a player belonging to the
    "Shu" Kingdom eliminates a player belonging to the "Wei" Kingdom, at the
    time when there are still two other players belonging to "Wei" are still in
    play, that player belonging to "Shu" will draw three cards"."""
    def expose(g: Ctx) -> None:
        for r in "ABCD":
            flow.reveal(g, r, ["main"])
    s, ev = _kill(SIX, "A", "B", expose)
    assert len(s["p"]["A"]["hand"]) == 3
    assert any("draws 3 cards (reward for a kill)" in t for t in texts(ev, "C"))


def test_reward_an_ambitionist_draws_three() -> None:
    """Reward and Punishment: "If an Ambitionist eliminates any other player,
    he/she may draw three cards"; the example: whatever the Neutral players
    still in play."""
    def expose(g: Ctx) -> None:
        flow.reveal(g, "F", ["main"])
        flow.reveal(g, "E", ["main"])
        g.p("A")["kingdom"] = "Shu"
        g.p("A")["ambitionist"] = True
        g.p("A")["shown"][0] = True
    s, _ = _kill({**SIX, "B": ("ji-ling", "tian-feng")}, "A", "B", expose)
    assert len(s["p"]["A"]["hand"]) == 3


def test_punishment_for_killing_ones_own_kingdom() -> None:
    """Reward and Punishment: a player of a Kingdom who eliminates a player of
    the same Kingdom "must discard all cards in hand and in equipment zone"."""
    def expose(g: Ctx) -> None:
        flow.reveal(g, "B", ["main"])
        flow.reveal(g, "C", ["main"])
        g.hand("B").append(copy_of("peach"))
        g.p("B")["equip"]["minus"] = copy_of("red-hare")
    s, _ = _kill(SIX, "B", "C", expose)
    assert s["p"]["B"]["hand"] == [] and s["p"]["B"]["equip"]["minus"] is None


def test_a_hidden_killer_gets_nothing() -> None:
    """Reward and Punishment, Note: "If a player with no exposed General cards
    ... eliminates another player, he/she will not receive any rewards or
    punishment"; the victim's generals are exposed at death."""
    s, _ = _kill(SIX, "A", "B")
    assert s["p"]["A"]["hand"] == [] and s["p"]["B"]["shown"] == [True, True]


# --------------------------------------------------------------------------- the end


def test_victory_all_survivors_of_one_kingdom_and_exposed() -> None:
    """End of the Game: "When all the remaining players belong to the same
    Kingdom, that Kingdom wins. (Players without exposed General cards cannot
    win the game ...)"; the kingdom's eliminated players win with it."""
    gens = {"A": ("liu-bei", "guan-yu"), "B": ("cao-cao", "xu-chu"),
            "C": ("zhang-fei", "zhao-yun"), "D": ("ma-chao", "huang-zhong"),
            "E": ("sun-quan", "zhou-tai"), "F": ("lv-bu", "diao-chan")}
    s = table(gens, hands={"A": [copy_of("attack", "spades", 7)]}, hp={"B": 1},
              shown={"A": ["main"], "C": ["main"], "E": ["main"], "F": ["main"]})
    g = Ctx(s)
    g.p("E")["alive"] = g.p("F")["alive"] = False
    s, _ = play(s, "A", "USE Attack S7 ON B")
    s, _ = answer(s, {})
    s, _ = answer(s, {})
    assert not s["p"]["B"]["alive"] and s["stage"] == "play"  # D, hidden, could be anything
    g = Ctx(s)
    flow.reveal(g, "D", ["main"])
    assert not g.ambitionist("D") and flow.check_victory(g)
    assert s["winners"] == ["A", "C", "D"]


def test_an_ambitionist_wins_only_alone() -> None:
    """Ambitionist: "He/she needs to kill all other players to be the only
    survivor"; End of the Game: "When there is only one surviving player,
    his/her Kingdom wins"."""
    s = table(PLAIN)
    g = Ctx(s)
    for r in "ABCD":
        g.p(r)["kingdom"] = "Wei"
        g.p(r)["shown"] = [True, True]
    g.p("D")["ambitionist"] = True
    g.p("B")["alive"] = g.p("C")["alive"] = False
    assert not flow.check_victory(g)
    g.p("A")["alive"] = False
    assert flow.check_victory(g) and s["winners"] == ["D"]


@pytest.mark.parametrize(("start", "alive", "on"), [(6, 3, True), (6, 4, False), (8, 4, True),
                                                    (8, 5, False)])
def test_death_match(start: int, alive: int, on: bool) -> None:
    """Death Match: "When there are only 4 or fewer players left in the game (3
    or less for game with 7 or fewer players), if there is no more than 1 player
    with the same Kingdom"; then "[Peach] can only be used or played as
    [Attack] or [Dodge]"."""
    kingdoms = list(DATA.generals)
    gens = {r: (kingdoms[2 * i], kingdoms[2 * i + 1]) for i, r in enumerate("ABCDEFGH"[:start])}
    s = table(gens)
    g = Ctx(s)
    for r in s["seats"][alive:]:
        g.p(r)["alive"] = False
    flow.death_match_check(g)
    assert s["death_match"] is on
    if on:
        s["p"]["A"]["hand"] = [copy_of("peach")]
        s["p"]["A"]["hp"] = 1
        with pytest.raises(IllegalLine):
            GAME.parse(s, "A", "USE Peach")  # a Peach is an Attack now, and needs a target


def test_death_match_needs_no_two_of_one_kingdom() -> None:
    """Death Match: "if there is no more than 1 player with the same Kingdom"."""
    s = table({"A": ("liu-bei", "guan-yu"), "B": ("zhang-fei", "zhao-yun"),
               "C": ("cao-cao", "xu-chu"), "D": ("lv-bu", "diao-chan")},
              shown={"A": ["main"], "B": ["main"]})
    g = Ctx(s)
    flow.death_match_check(g)
    assert not s["death_match"]


# --------------------------------------------------------------------------- the turn


def test_discard_down_to_current_health() -> None:
    """Discard Phase: "make sure that the number of your hand cards does not
    exceed your current health points"."""
    cards = [copy_of("attack", "clubs", r) for r in (2, 3, 4, 5)]
    s = table(PLAIN, hands={"A": cards}, hp={"A": 2}, phase="discard")
    assert open_ask(s)["kind"] == "cards" and open_ask(s)["least"] == 2
    s, _ = play(s, "A", "DISCARD Attack C2 Attack C3")
    assert len(s["p"]["A"]["hand"]) == 2


def test_the_yin_yang_marker_raises_the_hand_limit_by_two() -> None:
    """Marker Cards: "during the Discard Phase, you can discard this marker to
    raise the upper limit of your hand cards by 2"."""
    from bench.support.kingdom_wars import pass_all

    cards = [copy_of("attack", "clubs", r) for r in (2, 3, 4, 5)]
    s = table(PLAIN, hands={"A": cards}, hp={"A": 2}, phase="discard")
    s["p"]["A"]["markers"]["yin-yang"] = 1
    s = table(PLAIN, hands={"A": cards}, hp={"A": 2}, phase="play")
    s["p"]["A"]["markers"]["yin-yang"] = 1
    s, _ = play(s, "A", "PASS")
    s, _ = pass_all(s)  # the skill windows before the Discard Phase
    assert open_ask(s)["kind"] == "choose"
    s, _ = play(s, "A", "MARKER Yin-Yang")
    assert len(s["p"]["A"]["hand"]) == 4 and s["p"]["A"]["markers"]["yin-yang"] == 0


def test_stacked_generals_skip_the_next_turn() -> None:
    """Appendix I, Stacked: "Before the next turn of this player begins, the
    General cards are restored to the state of "Parallel placing", and then the
    entire round is skipped"."""
    from bench.support.kingdom_wars import pass_all

    s = table(PLAIN)
    s["p"]["B"]["stacked"] = True
    s, ev = play(s, "A", "PASS")
    s, more = pass_all(s)  # the skill windows of the rest of the turn
    ev += more
    assert s["current"] == "C" and s["p"]["B"]["stacked"] is False
    assert any("seat B's generals are placed side by side again" in t for t in texts(ev))


def test_the_play_phase_ends_with_pass_and_the_turn_passes_on() -> None:
    """Playing the Game: "Once his/her turn is completed, the player on the right
    shall start his/her turn" (the next seat)."""
    from bench.support.kingdom_wars import pass_all

    s = table(PLAIN)
    s, ev = play(s, "A", "PASS")
    s, more = pass_all(s)  # the skill windows of the rest of the turn
    ev += more
    assert s["current"] == "B" and "seat A ends the Play Phase." in texts(ev)
    assert any("seat B's turn begins" in t for t in texts(ev))


def test_preparation_offers_to_expose() -> None:
    """Preparation Phase: "Your hidden General card can also be exposed (flipped
    face up) at this phase"."""
    s = table(PLAIN, phase="preparation")
    assert open_ask(s)["kind"] == "reveal"
    s, _ev = play(s, "A", "REVEAL BOTH")
    assert s["p"]["A"]["shown"] == [True, True] and s["p"]["A"]["kingdom"] == "Wei"


def test_passive_generals_may_be_exposed_in_the_play_phase_others_not() -> None:
    """Hidden and Exposed Generals: exposure "during the Play Phase (only for
    General cards with passive skills)" (Zhang Fei's Berserk is passive; Liu
    Bei's Benevolence is not)."""
    s = table({**PLAIN, "A": ("zhang-fei", "liu-bei")})
    assert GAME.parse(s, "A", "REVEAL MAIN").data["held"] is False
    # Any other general waits for the next Preparation Phase ("Your hidden
    # General card can also be exposed ... at this phase"): see test_standing.py.
    assert GAME.parse(s, "A", "REVEAL DEPUTY").data["held"] is True


def test_the_rescue_is_asked_in_turn_order_from_the_current_player() -> None:
    """Events and Reaction: reactions "in sequence in a counterclockwise
    direction, starting from the player who is playing his/her current turn";
    Elimination: a dying player is saved "by a [Peach] from own/other
    players"."""
    s = table(PLAIN, hp={"A": 1}, turn="C")
    g = Ctx(s, rng(3))
    s["asks"].clear()  # C's Play Phase waits while a damage resolves
    g.push({"t": "play", "seat": "C"})
    flow.damage(g, "C", "A", 1)
    flow.run(g)
    s, _ = skip_idle(s)  # the trigger windows of seats with no skill for them
    assert open_ask(s)["window"] == "rescue" and open_ask(s)["roles"] == ["C", "D", "A", "B"]


def test_lines_round_trip() -> None:
    """Every line the game offers reads back to the same action (the grammar's
    canonical form)."""
    s = table(PLAIN, hands={"A": [copy_of("attack", "spades", 7), copy_of("iron-chains"),
                                  copy_of("duel")]})
    for line in GAME.legal(s, "A"):
        a = GAME.parse(s, "A", line)
        assert GAME.parse(s, "A", a.text) == a
    assert hp(s, "A") == 4


def test_perfect_pair_marker_as_a_peach_or_two_cards() -> None:
    """Marker Cards: "Perfect Pair Marker": "During the Play Phase, you can
    discard this marker and draw 2 cards, or use this marker as [Peach]"."""
    s = table(PLAIN, hp={"A": 2})
    s["p"]["A"]["markers"]["perfect-pair"] = 2
    s, _ = play(s, "A", "USE Peach BY Perfect Pair")
    assert hp(s, "A") == 3 and s["p"]["A"]["markers"]["perfect-pair"] == 1
    s, _ = play(s, "A", "MARKER Perfect Pair")
    assert len(s["p"]["A"]["hand"]) == 2 and s["p"]["A"]["markers"]["perfect-pair"] == 0


def test_pioneer_marker_draws_to_four_and_views_a_hidden_general() -> None:
    """Marker Cards: "Pioneer Marker": "discard this marker and draw cards to
    make 4 hand cards and then view a General card played by another player"
    (shown to the viewer only)."""
    s = table(PLAIN, hands={"A": [copy_of("peach")]})
    s["p"]["A"]["markers"]["pioneer"] = 1
    s, ev = play(s, "A", "MARKER Pioneer ON C MAIN")
    assert len(s["p"]["A"]["hand"]) == 4
    named = [e for e in ev if "Sun Quan" in e.text]
    assert named and all(e.audience == frozenset({"A"}) for e in named)
    view = GAME.view(s, "A")
    assert view["you"]["known"] == [{"seat": "C", "slot": "main", "general": "Sun Quan"}]
    assert next(x for x in GAME.view(s, "B")["seats"] if x["seat"] == "C")["generals"][0][
        "general"] is None
