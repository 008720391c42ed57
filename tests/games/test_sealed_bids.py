"""The rules of the test-only game Sealed Bids (R1-R9 in tests/games/sealed_bids.py)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence

import pytest

from judge import reports
from judge.game.engine import (
    JSON,
    Action,
    AmbiguousLine,
    DecisionKind,
    Event,
    IllegalLine,
    InvalidLine,
    Outcome,
    State,
)
from judge.game.rng import Rng
from tests.games.sealed_bids import GAME, card_value, full_deck
from tests.support.checks import render_report, view_errors


def rng(n: int = 0) -> Rng:
    return Rng(hashlib.sha256(f"sealed-bids-test:{n}".encode()).digest())


def make_state(
    hands: Mapping[str, Sequence[str]],
    prize: str,
    *,
    pile: Sequence[str] | None = None,
    **changes: JSON,
) -> State:
    """A position with the given hands and prize; the draw pile is the rest of
    the deck in deck order unless given. Other keys of the state via ``changes``."""
    players = list(hands)
    state = GAME.setup({"players": len(players)}, rng())
    used = {c for h in hands.values() for c in h} | {prize}
    state["hands"] = {
        r: sorted(h, key=lambda c: (card_value(c), "HSDC".index(c[-1]))) for r, h in hands.items()
    }
    state["prize"] = prize
    state["pile"] = [c for c in full_deck() if c not in used] if pile is None else list(pile)
    state.update(changes)
    return state


def bid(*pairs: tuple[str, str]) -> dict[str, list[Action]]:
    """Orders for ``resolve``: (role, line) pairs, parsed as the judge would."""
    return {r: [Action(f"BID {c}", key="bid", data={"verb": "BID", "card": c})] for r, c in pairs}


def texts(events: Sequence[Event], reader: str | None) -> list[str]:
    return [e.text for e in events if e.visible_to(reader)]


def strings(value: JSON) -> Iterator[str]:
    """Every string inside a JSON value (keys and values)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from strings(item)


THREE = {
    "North": ["7H", "7S", "2C", "9D", "1S", "4H"],
    "East": ["7D", "3C", "5S", "6H", "8H", "10C"],
    "South": ["1H", "2H", "3H", "5H", "6S", "8S"],
}


# --------------------------------------------------------------------------- R1, R2


def test_setup_deals_six_cards_and_turns_a_prize() -> None:
    """R1, R2: 40 distinct cards; six to each player, a face-up prize, the rest
    face down in the pile; the deck is shuffled with the game's rng."""
    r = rng(1)
    state = GAME.setup({"players": 3, "rounds": 5}, r)
    assert GAME.roles(state) == ["North", "East", "South"]
    assert all(len(h) == 6 for h in state["hands"].values())
    assert len(state["pile"]) == 40 - 18 - 1
    cards = [c for h in state["hands"].values() for c in h] + state["pile"] + [state["prize"]]
    assert sorted(cards) == sorted(full_deck())
    assert {d.purpose for d in r.draws} == {"shuffle:deck"}
    assert len(r.draws) == 39  # Fisher-Yates over 40 cards
    assert GAME.setup({"players": 3}, rng(1)) == state
    assert GAME.setup({"players": 3}, rng(2)) != state


@pytest.mark.parametrize(
    ("players", "roles"), [(2, ["North", "East"]), (4, ["North", "East", "South", "West"])]
)
def test_seats_in_order(players: int, roles: list[str]) -> None:
    """R1: the seats are North, East, South, West in that order."""
    state = GAME.setup({"players": players}, rng())
    assert GAME.roles(state) == roles
    assert len(state["pile"]) == 40 - 6 * players - 1


def test_bad_options_are_refused() -> None:
    with pytest.raises(ValueError):
        GAME.setup({"players": 5}, rng())
    with pytest.raises(ValueError):
        GAME.setup({"rounds": 0}, rng())


# --------------------------------------------------------------------------- parsing


def test_parse_grades() -> None:
    """Graded errors quote the line: not understood, not allowed, ambiguous."""
    state = make_state(THREE, "10H")
    with pytest.raises(InvalidLine, match="not understood") as invalid:
        GAME.parse(state, "North", "hello there")
    assert '"hello there"' in str(invalid.value)
    with pytest.raises(IllegalLine, match="you do not hold 8H") as illegal:
        GAME.parse(state, "North", "BID 8H")
    assert '"BID 8H"' in str(illegal.value)
    with pytest.raises(AmbiguousLine) as ambiguous:
        GAME.parse(state, "North", "BID 7")
    assert ambiguous.value.choices == ("BID 7H", "BID 7S")
    with pytest.raises(IllegalLine, match="no card of value 5"):
        GAME.parse(state, "North", "BID 5")
    for line in (
        "BID",
        "BID 11H",
        "BID 0S",
        "BID 7X",
        "BID 1 0H",
        "KEEP it",
        "GIVE",
        "GIVE Narnia",
    ):
        with pytest.raises(InvalidLine):
            GAME.parse(state, "North", line)


def test_canonical_text_round_trips() -> None:
    state = make_state(THREE, "10H")
    action = GAME.parse(state, "North", "  bid   9 d ")
    assert action == Action("BID 9D", key="bid", data={"verb": "BID", "card": "9D"})
    assert GAME.parse(state, "North", action.text) == action
    assert GAME.parse(state, "East", "BID 10").text == "BID 10C"


def test_commands_out_of_turn_are_illegal() -> None:
    state = make_state(THREE, "10H")
    for line in ("KEEP", "GIVE South", "PASS", "REFUSE"):
        with pytest.raises(IllegalLine):
            GAME.parse(state, "North", line)
    award = make_state(THREE, "10H", stage="award", winner="North")
    with pytest.raises(IllegalLine, match="only North"):
        GAME.parse(award, "East", "KEEP")
    with pytest.raises(IllegalLine, match="yourself"):
        GAME.parse(award, "North", "GIVE North")
    with pytest.raises(IllegalLine, match="West is not playing"):
        GAME.parse(award, "North", "GIVE West")
    with pytest.raises(IllegalLine, match="bids are not open"):
        GAME.parse(award, "North", "BID 7H")
    assert GAME.parse(award, "North", "give s").text == "GIVE South"


# --------------------------------------------------------------------------- R3-R5


def test_highest_bid_wins_and_bids_are_revealed() -> None:
    """R3, R4, R5: bids revealed publicly, bid cards discarded, the highest
    value wins, each bidder draws and only the drawer learns the card."""
    state = make_state(THREE, "10H", pile=["2S", "3S", "4S", "5D"])
    new, events = GAME.resolve(state, bid(("North", "9D"), ("East", "3C"), ("South", "8S")), rng())
    public = texts(events, None)
    assert "Bids for the prize 10H: North 9D, East 3C, South 8S." in public
    assert "North wins the prize 10H." in public
    assert new["stage"] == "award" and new["winner"] == "North"
    assert new["discards"] == ["9D", "3C", "8S"]
    assert "2S" in new["hands"]["North"] and "3S" in new["hands"]["East"]
    assert "4S" in new["hands"]["South"] and new["pile"] == ["5D"]
    assert "You draw 2S." in texts(events, "North")
    assert "You draw 2S." not in texts(events, "East")
    assert "North draws a card." in public and not any("2S" in t for t in public)
    assert [e.audience for e in events if "You draw" in e.text] == [
        frozenset({"North"}),
        frozenset({"East"}),
        frozenset({"South"}),
    ]


def test_missing_bid_is_the_lowest_card_and_last_bid_counts() -> None:
    """R3: no bid by the deadline bids the lowest card (1S for North); of two
    bids the later one stands."""
    state = make_state(THREE, "10H")
    orders = bid(("East", "3C"))
    orders["South"] = [
        Action("BID 8S", key="bid", data={"verb": "BID", "card": "8S"}),
        Action("BID 2H", key="bid", data={"verb": "BID", "card": "2H"}),
    ]
    new, events = GAME.resolve(state, orders, rng())
    assert new["history"][-1]["bids"] == {"North": "1S", "East": "3C", "South": "2H"}
    assert new["history"][-1]["defaulted"] == ["North"]
    assert "North 1S (lowest card, no bid sent)" in texts(events, "East")[0]
    assert GAME.default(state, GAME.pending(state)[0], "North") == GAME.parse(
        state, "North", "BID 1S"
    )


def test_a_bid_not_in_hand_cannot_be_resolved() -> None:
    state = make_state(THREE, "10H")
    with pytest.raises(IllegalLine, match="you do not hold"):
        GAME.resolve(state, bid(("North", "10S")), rng())


def test_ties_are_broken_by_dice() -> None:
    """R4: North and East both bid a 7; each rolls a die, the highest roll wins;
    the rolls are public and come from the game's rng."""
    state = make_state(THREE, "10H")
    orders = bid(("North", "7H"), ("East", "7D"), ("South", "6S"))
    seen_reroll = False
    for n in range(60):
        r = rng(n)
        new, events = GAME.resolve(state, orders, r)
        record = new["history"][-1]
        rolls = record["rolls"]
        assert rolls and set(rolls[0]) == {"North", "East"}
        final = rolls[-1]
        assert record["winner"] == max(final, key=final.__getitem__)
        assert len(set(final.values())) == len(final)  # the last roll decided it
        assert [d.purpose for d in r.draws] == ["die:tie"] * sum(len(x) for x in rolls)
        assert [d.value + 1 for d in r.draws] == [v for x in rolls for v in x.values()]
        assert any(t.startswith("Tie at 7: North rolls") for t in texts(events, None))
        seen_reroll |= len(rolls) > 1
    assert seen_reroll, "no seed in 60 gave a tied roll: the re-roll went untested"


# --------------------------------------------------------------------------- R6-R8


def award_state(**changes: JSON) -> State:
    state = make_state(THREE, "10H")
    new, _ = GAME.resolve(state, bid(("North", "9D"), ("East", "3C"), ("South", "8S")), rng())
    new.update(changes)
    return new


def test_keep_scores_and_turns_the_next_prize() -> None:
    """R6, R8: the winner keeps the prize and scores its value; round 2 begins."""
    state = award_state()
    [decision] = GAME.pending(state)
    assert decision.kind is DecisionKind.ACTION and decision.roles == ("North",)
    assert GAME.default(state, decision, "North") == Action("KEEP", data={"verb": "KEEP"})
    top = state["pile"][0]
    new, events = GAME.act(state, "North", GAME.parse(state, "North", "KEEP"), rng())
    assert new["scores"]["North"] == 10 and new["won"]["North"] == ["10H"]
    assert new["round"] == 2 and new["prize"] == top and new["stage"] == "bid"
    assert texts(events, None) == ["North keeps the prize 10H.", f"Round 2: the prize is {top}."]


def given_to_south(south_hand: Sequence[str] = ("1H", "2H", "3H", "5H", "6S", "2S")) -> State:
    state = award_state()
    state["hands"]["South"] = list(south_hand)
    new, events = GAME.act(state, "North", GAME.parse(state, "North", "GIVE South"), rng())
    assert texts(events, None) == ["North gives the prize 10H to South."]
    return new


def test_a_gift_opens_a_window_for_every_player() -> None:
    """R7: every player gets the window; only the receiver with a 1 may refuse."""
    state = given_to_south()
    [decision] = GAME.pending(state)
    assert decision.kind is DecisionKind.RESPONSE
    assert decision.roles == ("North", "East", "South")
    assert GAME.legal(state, "South") == ["PASS", "REFUSE 1H"]
    assert GAME.legal(state, "North") == ["PASS"]  # North holds 1S but is not the receiver
    assert GAME.legal(state, "East") == ["PASS"]
    with pytest.raises(IllegalLine, match="only South"):
        GAME.parse(state, "North", "REFUSE")
    assert GAME.default(state, decision, "East") == Action("PASS", data={"verb": "PASS"})
    assert GAME.parse(state, "South", "refuse").text == "REFUSE 1H"


def test_a_receiver_without_a_one_cannot_refuse() -> None:
    state = given_to_south(["2H", "3H", "5H", "6S", "2S", "9S"])
    assert GAME.legal(state, "South") == ["PASS"]
    with pytest.raises(IllegalLine, match="no card of value 1"):
        GAME.parse(state, "South", "REFUSE")
    with pytest.raises(IllegalLine, match="value 1"):
        GAME.parse(state, "South", "REFUSE 2H")


def test_refusing_needs_a_choice_between_two_ones() -> None:
    state = given_to_south(["1H", "1D", "3H", "5H", "6S", "2S"])
    with pytest.raises(AmbiguousLine) as err:
        GAME.parse(state, "South", "REFUSE")
    assert err.value.choices == ("REFUSE 1H", "REFUSE 1D")


def answer_all(state: State, answers: Mapping[str, str]) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for role, line in answers.items():
        state, more = GAME.act(state, role, GAME.parse(state, role, line), rng())
        events += more
    return state, events


def test_refusing_with_a_one() -> None:
    """R7: South discards 1H; the prize is discarded and scores for nobody."""
    state = given_to_south()
    new, events = answer_all(state, {"East": "PASS", "South": "REFUSE", "North": "PASS"})
    assert "1H" not in new["hands"]["South"] and new["discards"][-2:] == ["1H", "10H"]
    assert new["scores"] == {"North": 0, "East": 0, "South": 0}
    assert "South refuses the prize 10H, discarding 1H." in texts(events, None)
    assert new["history"][0]["refused_with"] == "1H" and new["round"] == 2


def test_accepting_a_gift_scores_for_the_receiver() -> None:
    state = given_to_south()
    new, events = answer_all(state, {"South": "PASS", "North": "PASS", "East": "PASS"})
    assert new["scores"]["South"] == 10 and new["won"]["South"] == ["10H"]
    assert "South accepts the prize 10H." in texts(events, None)


def test_answers_stay_secret_until_the_window_closes() -> None:
    """R7 (and DESIGN.md, Privacy): nobody else learns whether or how a player
    answered before the window closes; the answer is only told to the answerer."""
    state = given_to_south()
    after, events = GAME.act(state, "South", GAME.parse(state, "South", "REFUSE"), rng())
    assert [e.audience for e in events] == [frozenset({"South"})]
    for reader in ("North", "East", None):
        assert GAME.view(after, reader) == GAME.view(state, reader)
    assert GAME.view(after, "South")["my_answer"] == "REFUSE 1H"
    assert GAME.pending(after)[0].phase == GAME.pending(state)[0].phase
    with pytest.raises(IllegalLine, match="already answered"):
        GAME.parse(after, "South", "PASS")


def test_a_stale_action_is_refused_by_act() -> None:
    state = award_state()
    with pytest.raises(IllegalLine):
        GAME.act(state, "East", Action("KEEP", data={"verb": "KEEP"}), rng())
    with pytest.raises(IllegalLine, match="resolved together"):
        GAME.act(
            make_state(THREE, "10H"),
            "North",
            GAME.parse(make_state(THREE, "10H"), "North", "BID 7H"),
            rng(),
        )


# --------------------------------------------------------------------------- R9


def test_the_game_ends_after_the_last_round() -> None:
    """R9: after the last round the highest score wins."""
    state = award_state(rounds=1, scores={"North": 3, "East": 12, "South": 0})
    new, events = GAME.act(state, "North", GAME.parse(state, "North", "KEEP"), rng())
    assert GAME.outcome(new) == Outcome(("North",), False, "all 1 rounds played")
    assert GAME.pending(new) == []
    assert texts(events, None)[-1] == "The game ends (all 1 rounds played): North wins."
    with pytest.raises(IllegalLine, match="over"):
        GAME.parse(new, "North", "BID 7H")


def test_a_tie_for_the_highest_score_is_a_shared_draw() -> None:
    state = award_state(rounds=1, scores={"North": 2, "East": 12, "South": 0})
    new, _ = GAME.act(state, "North", GAME.parse(state, "North", "KEEP"), rng())
    result = GAME.outcome(new)
    assert result is not None and result.draw and result.winners == ("North", "East")


def test_the_game_ends_early_when_no_prize_can_be_turned() -> None:
    """R9: the draw pile is empty, so round 2 cannot start."""
    state = award_state(pile=[])
    new, _ = GAME.act(state, "North", GAME.parse(state, "North", "KEEP"), rng())
    result = GAME.outcome(new)
    assert result is not None and result.reason == "no prize can be turned: the draw pile is empty"


def test_the_game_ends_when_a_player_has_no_card_to_bid() -> None:
    state = award_state()
    state["hands"]["East"] = []
    new, _ = GAME.act(state, "North", GAME.parse(state, "North", "KEEP"), rng())
    result = GAME.outcome(new)
    assert result is not None and result.reason == "East has no card left to bid"


# --------------------------------------------------------------------------- views and reports


def test_views_show_only_the_own_hand() -> None:
    """Hidden hands: a player sees its own hand and everyone's hand size; no card
    of another hand or of the draw pile appears anywhere in its view; the
    observer sees no hand at all."""
    state = award_state()
    for reader in ("North", "East", "South", None):
        view = GAME.view(state, reader)
        assert view_errors(GAME, view) == []
        seen = set(strings(view))
        hidden = set(state["pile"]) | {
            c for r, h in state["hands"].items() if r != reader for c in h
        }
        assert not seen & hidden, f"{reader} sees {seen & hidden}"
        assert view["hand_counts"] == {r: len(h) for r, h in state["hands"].items()}
        assert view["pile_count"] == len(state["pile"])
        if reader is None:
            assert "hand" not in view and "my_answer" not in view
        else:
            assert view["hand"] == state["hands"][reader]


def test_report_shows_hand_scores_last_round_and_what_is_awaited() -> None:
    """The game's own template (not the judge's fallback) shows the reader's
    hand, the scores, the last round and what the judge waits for."""
    assert reports.has_template("sealed_bids/report.txt.j2")
    state = given_to_south()
    north = render_report(GAME, GAME.view(state, "North"), [], "North")
    assert "report for North" in north
    assert "Your hand: " + " ".join(state["hands"]["North"]) in north
    assert "Bids: North 9D, East 3C, South 8S" in north
    assert "Won by North, given to South\n" in north
    assert "Scores:\n  North    0  prizes: -  cards in hand: 6\n" in north
    assert "waiting for the answers of the players" in north
    south = render_report(GAME, GAME.view(state, "South"), [], "South")
    assert "REFUSE with a 1" in south
    observer = render_report(GAME, GAME.view(state, None), [], None)
    assert "Your hand" not in observer and "report for observers" in observer
    assert all(c not in observer.split() for h in state["hands"].values() for c in h)


def test_report_lists_only_the_readers_events() -> None:
    state = make_state(THREE, "10H")
    new, events = GAME.resolve(state, bid(("North", "9D")), rng())
    drawn = new["hands"]["North"][-1]
    north = render_report(GAME, GAME.view(new, "North"), events, "North")
    east = render_report(GAME, GAME.view(new, "East"), events, "East")
    own = [e.text for e in events if e.audience == frozenset({"North"})]
    assert own and own[0] in north and own[0] not in east
    assert "North draws a card." in east
    assert drawn  # North's hand is not empty


