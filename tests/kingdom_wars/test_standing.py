"""The decisions of a seat's own turn that take standing orders, answers
written ahead or forced answers instead of a question (standing.py), each
citing the rulebook (kingdom-wars.txt). The tables use the standing
defaults (``by_hand=False``) unless a test says otherwise."""

from __future__ import annotations

import pytest

from bench.support.kingdom_wars import (
    answer,
    ask,
    copy_of,
    open_ask,
    pass_all,
    play,
    rng,
    table,
    texts,
)
from judge.game.engine import IllegalLine, InvalidLine, State
from judge_games.kingdom_wars import GAME, flow, standing
from judge_games.kingdom_wars.commands import canonical, syntax
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.table import Ctx

PLAIN = {"A": ("cao-cao", "xu-chu"), "B": ("liu-bei", "guan-yu"),
         "C": ("sun-quan", "zhou-tai"), "D": ("lv-bu", "diao-chan")}


def _labels(s: State, seat: str) -> list[str]:
    return sorted(s["p"][seat]["hand"])


# --------------------------------------------------------------------------- the Discard Phase


def test_the_discard_phase_follows_the_default_keep_order() -> None:
    """Discard Phase: "make sure that the number of your hand cards does not
    exceed your current health points ... You will have to discard the extra
    cards": by default the keep-order gives up the least wanted (an Iron
    Chains and an Attack before a Dodge and a Peach), and nobody is asked."""
    peach, dodge = copy_of("peach"), copy_of("dodge")
    chains, atk = copy_of("iron-chains"), copy_of("attack", "spades", 7)
    s = table(PLAIN, hands={"A": [chains, atk, dodge, peach]}, hp={"A": 2}, phase="discard",
              by_hand=False)
    assert ask(s) is None or open_ask(s)["roles"] != ["A"] or open_ask(s)["kind"] != "cards"
    assert sorted(s["p"]["A"]["hand"]) == sorted([peach, dodge])
    assert chains in s["discard"] and atk in s["discard"]


def test_a_keep_order_and_a_discard_written_in_the_play_phase() -> None:
    """The seat's own order: ``STANDING discard KEEP Iron Chains`` ranks Iron
    Chains first; ``DISCARD Peach`` in the Play Phase names what the Discard
    Phase gives up first; the rest by the keep-order. The rulebook leaves
    the choice of the extra cards to their holder (Discard Phase)."""
    peach, dodge = copy_of("peach"), copy_of("dodge")
    chains, atk = copy_of("iron-chains"), copy_of("attack", "spades", 7)
    s = table(PLAIN, hands={"A": [chains, atk, dodge, peach]}, hp={"A": 2}, by_hand=False)
    s, ev = play(s, "A", "STANDING discard KEEP Iron Chains")
    assert open_ask(s)["kind"] == "play"  # the Play Phase goes on
    assert any("keep-order is Iron Chains, Peach" in t for t in texts(ev, "A"))
    assert not texts(ev, "B")  # nobody else hears of it
    s, ev = play(s, "A", "DISCARD Peach")
    assert peach in s["p"]["A"]["hand"]  # held, not discarded in the Play Phase
    s, _ = play(s, "A", "PASS")
    assert sorted(s["p"]["A"]["hand"]) == sorted([chains, dodge])
    assert s["discard"][-2:] == [peach, atk]


def test_a_seat_that_asks_is_asked_in_its_discard_phase() -> None:
    """``STANDING discard ASK``: the Discard Phase is asked by hand."""
    cards = [copy_of("attack", "clubs", r) for r in (2, 3, 4, 5)]
    s = table(PLAIN, hands={"A": cards}, hp={"A": 2}, by_hand=False)
    s, _ = play(s, "A", "STANDING discard ASK")
    s, _ = play(s, "A", "PASS")
    the_ask = open_ask(s)
    assert the_ask["kind"] == "cards" and the_ask["least"] == 2 and the_ask["roles"] == ["A"]


# --------------------------------------------------------------------------- exposing


def _to_next_preparation(s: State, seat: str) -> State:
    """Every seat passes, lets windows go by and takes the first choice until
    ``seat``'s next Play Phase."""
    for _ in range(400):
        top = ask(s)
        assert top is not None
        if top["kind"] == "play" and top["roles"] == [seat] and s["turns"] > 1:
            return s
        if top["kind"] == "play":
            s, _ = play(s, top["roles"][0], "PASS")
        elif top["kind"] in ("respond", "negate", "trigger"):
            s, _ = answer(s, {})
        else:
            s, _ = play(s, top["roles"][0], GAME.legal(s, top["roles"][0])[0])
    raise AssertionError("the turn never came back")


def test_a_hidden_seat_is_not_asked_to_expose_and_a_reveal_waits_for_the_preparation() -> None:
    """Preparation Phase: "Your hidden General card can also be exposed
    (flipped face up) at this phase"; Play Phase: "General cards with
    passive skills can be exposed in the Play Phase". Keeping the generals
    hidden is the standing answer: no seat is asked; ``REVEAL DEPUTY`` (Xu
    Chu has no passive skill) written in the Play Phase is held and done at
    the start of the next Preparation Phase."""
    s = table(PLAIN, phase="preparation", by_hand=False)
    s, _ = pass_all(s)  # the skill windows of the phases' moments
    assert open_ask(s)["kind"] == "play"  # no question in the Preparation Phase
    s, ev = play(s, "A", "REVEAL DEPUTY")
    assert s["p"]["A"]["shown"] == [False, False]
    assert any("next Preparation Phase" in t for t in texts(ev, "A"))
    s, _ = play(s, "A", "PASS")
    s = _to_next_preparation(s, "A")
    assert s["p"]["A"]["shown"] == [False, True] and s["p"]["A"]["kingdom"] == "Wei"


def test_a_seat_that_asks_is_asked_to_expose() -> None:
    """``STANDING reveal ASK``: the Preparation Phase asks, as before."""
    s = table(PLAIN, phase="preparation", by_hand=True)
    assert open_ask(s)["kind"] == "reveal" and open_ask(s)["roles"] == ["A"]


# --------------------------------------------------------------------------- answers ahead


def test_stealing_sheep_takes_the_card_written_after_then() -> None:
    """Stealing Sheep: "Obtain a card from the target player's hand, equipment
    zone or judgement zone": the user's pick, written ahead after THEN, is
    taken when the question comes; nobody asks it."""
    ss, blade = copy_of("stealing-sheep"), copy_of("blue-blade")
    s = table(PLAIN, hands={"A": [ss], "B": [copy_of("dodge")]}, equip={"B": [blade]},
              by_hand=False)
    line = GAME.parse(s, "A", "use stealing sheep on b then take blue blade s6").text
    assert line == "USE Stealing Sheep " + line.split("Stealing Sheep ")[1]
    assert line.endswith(" ON B THEN TAKE BLUE BLADE S6")
    s, _ = play(s, "A", line)
    s, _ = pass_all(s)  # the Negation window
    assert open_ask(s)["kind"] == "play" and blade in s["p"]["A"]["hand"]


def test_an_answer_ahead_that_does_not_fit_is_dropped_and_the_question_asked() -> None:
    """The question is asked as before, and the seat is told why."""
    ss, blade = copy_of("stealing-sheep"), copy_of("blue-blade")
    s = table(PLAIN, hands={"A": [ss], "B": [copy_of("dodge")]}, equip={"B": [blade]},
              by_hand=False)
    s, _ = play(s, "A", "USE Stealing Sheep ON B THEN TAKE RED HARE")
    s, ev = pass_all(s)
    assert open_ask(s)["kind"] == "choose" and open_ask(s)["roles"] == ["A"]
    assert any('"TAKE RED HARE", does not fit' in t for t in texts(ev, "A"))


def test_a_forced_answer_is_not_asked() -> None:
    """Appendix I, Obtain: from another's hand "you may only choose it
    randomly": a target with hand cards only leaves TAKE HAND, so the user is
    not asked; ``STANDING forced ASK`` asks it all the same."""
    for by_hand, asked in ((False, False), (True, True)):
        s = table(PLAIN, hands={"A": [copy_of("stealing-sheep")], "B": [copy_of("dodge")]},
                  by_hand=by_hand)
        s, _ = play(s, "A", "USE Stealing Sheep ON B")
        s, _ = pass_all(s)
        assert (open_ask(s)["kind"] == "choose") is asked
        assert (copy_of("dodge") in s["p"]["A"]["hand"]) is not asked


def test_bumper_harvest_takes_by_the_keep_order() -> None:
    """Bumper Harvest: "each player selects and takes one of the exposed
    cards to their hands": each seat takes the one its keep-order wants most,
    unasked."""
    s = table(PLAIN, hands={"A": [copy_of("bumper-harvest")]}, by_hand=False)
    s, _ = play(s, "A", "USE Bumper Harvest")
    shown = [c for c in s["proc"] if not c.startswith("bumper-harvest")]
    for _ in range(40):
        top = ask(s)
        if top is None or top["kind"] == "play":
            break
        assert top["kind"] != "choose"
        s, _ = answer(s, {})
    got = [s["p"][r]["hand"][0] for r in "ABCD"]
    assert sorted(got) == sorted(shown)
    assert got[0] == standing.ranked(s, "A", shown)[0]


# --------------------------------------------------------------------------- the lines


@pytest.mark.parametrize("line", [
    "USE Stealing Sheep ON B THEN TAKE HAND",
    "USE Attack by Fire ON C THEN DISCARD Peach H5",
    "USE Bumper Harvest THEN TAKE PEACH H5 THEN PASS",
    "STANDING discard KEEP Peach Dodge Negation",
    "STANDING discard ASK",
    "STANDING reveal ASK",
    "STANDING forced PASS",
])
def test_the_new_lines_round_trip(line: str) -> None:
    cmd = syntax(line)
    assert syntax(canonical(cmd)) == cmd


@pytest.mark.parametrize("line", [
    "USE Stealing Sheep ON B THEN",
    "USE Stealing Sheep ON B THEN DODGE",
    "STANDING discard KEEP",
    "STANDING discard KEEP S7",
    "STANDING reveal KEEP Peach",
    "STANDING",
])
def test_malformed_standing_lines_are_refused_with_the_right_form(line: str) -> None:
    with pytest.raises(InvalidLine) as got:
        syntax(line)
    assert got.value.hint


def test_then_goes_with_use_and_a_standing_order_is_no_window_answer() -> None:
    s = table(PLAIN, hands={"A": [copy_of("attack", "spades", 7)]}, by_hand=False)
    s, _ = play(s, "A", "USE Attack S7 ON B")
    assert open_ask(s)["kind"] == "respond"
    with pytest.raises(IllegalLine, match="no answer to this window"):
        GAME.parse(s, "B", "STANDING discard ASK")


def test_the_default_keep_order_ranks_every_card() -> None:
    order = standing.keep_order({}, "A")
    assert sorted(order) == sorted(DATA.cards) and order[:2] == ["peach", "dodge"]


# --------------------------------------------------------------------------- the end


def _preparation_of_a(alive: str) -> State:
    """A (Wei, hidden) at its Preparation Phase, B exposed of Wei, and of C
    and D only those in ``alive`` still in the game (C hidden)."""
    s = table({"A": ("cao-cao", "xu-chu"), "B": ("xiahou-dun", "zhang-liao"),
               "C": ("sun-quan", "zhou-tai"), "D": ("lv-bu", "diao-chan")},
              shown={"B": ["main"]}, by_hand=False)
    for r in "CD":
        if r not in alive:
            s["p"][r]["alive"] = False
            s["dead"].append(r)
    s["asks"], s["todo"] = [], []
    g = Ctx(s, rng())
    g.push({"t": "play", "seat": "A"})  # then the Play Phase
    g.push({"t": "reveal_offer", "seat": "A"})
    flow.run(g)
    return s


def test_a_hidden_seat_exposes_when_that_wins_the_game() -> None:
    """End of the Game: "When all the remaining players belong to the same
    Kingdom, that Kingdom wins. (Players without exposed General cards cannot
    win the game ...)": a hidden seat whose exposure wins exposes in its
    Preparation Phase unasked, and the game ends at once with its kingdom's
    victory."""
    s = _preparation_of_a(alive="")
    assert s["p"]["A"]["shown"] == [True, True]
    assert s["stage"] == "over" and s["winners"] == ["A", "B"]


def test_a_hidden_seat_stays_hidden_when_exposing_would_not_win() -> None:
    """With C still in the game and hidden, exposing wins nothing: A is not
    asked and stays hidden (the standing answer)."""
    s = _preparation_of_a(alive="C")
    assert s["p"]["A"]["shown"] == [False, False] and s["stage"] == "play"


def test_a_play_phase_with_nothing_to_do_is_not_asked() -> None:
    """Discard Phase: "Any player can enter the Discard Phase if he/she is
    unwilling or unable to use a card during Play Phase": a seat with both
    generals exposed, no hand card, no marker and no skill to use has only
    PASS, so its Play Phase ends unasked (``STANDING forced ASK``: asked)."""
    for by_hand in (False, True):
        s = table(PLAIN, hands={"A": []}, shown={"A": ["main", "deputy"]}, by_hand=by_hand)
        s["p"]["A"]["hand"].clear()
        s["p"]["A"]["markers"] = {"pioneer": 0, "yin-yang": 0, "perfect-pair": 0}
        s["asks"], s["todo"] = [], []
        g = Ctx(s, rng())
        g.push({"t": "play", "seat": "A"}, {"t": "turn_end", "seat": "A"})
        flow.run(g)
        top = ask(s)
        assert (top is not None and top["kind"] == "play" and top["roles"] == ["A"]) is by_hand
        assert ("seat A ends the Play Phase." in texts(g.events)) is not by_hand
