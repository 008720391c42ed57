"""Victory: the basic rule (see test_turns), the Competitive Victory Rule by
sealed bids, and the Two-Game Victory Rule."""

from __future__ import annotations

from judge.game.engine import DecisionKind, Event
from judge.game.rng import Rng
from judge_games.conflict_of_alliances import GAME, RULES
from judge_games.conflict_of_alliances import board as B
from tests.conflict_of_alliances.helpers import SEED, Dice, State, texts


def _bid(
    state: State, bids: dict[str, int], dice: tuple[int, ...] = ()
) -> tuple[State, list[Event]]:
    orders = {r: [GAME.parse(state, r, f"BID {n}")] for r, n in bids.items()}
    return GAME.resolve(state, orders, Dice(dice))


def test_competitive_bidding_higher_number_plays_lianheng() -> None:
    """Competitive Victory Rule: "Each player writes down a number that
    represents the Lianheng target, and the numbers are revealed at the same
    time. The player with the higher number plays the Lianheng side ... When
    the end conditions of the scenario are met, if the total RP controlled by
    Qin is greater than or equal to the Lianheng target number, the Lianheng
    player wins"."""
    s = GAME.setup({"victory": "bidding", "scenario": "qin-dominates"}, Rng(SEED))
    assert GAME.roles(s) == ["First", "Second"]
    (decision,) = GAME.pending(s)
    assert decision.kind is DecisionKind.ORDERS and decision.roles == ("First", "Second")
    assert "hand" not in GAME.view(s, "First")
    s, events = _bid(s, {"First": 9, "Second": 12})
    assert s["seats"] == {"Lianheng": "Second", "Alliance": "First"}
    assert s["target"] == 12
    assert "Second plays the Lianheng side with a target of 12 RP" in texts(events)
    assert GAME.view(s, "Second")["side"] == "Lianheng"
    # the game then runs as usual; at the end Qin's RP are compared with 12
    s["turn"] = s["turns"]
    s["passes"] = 1
    s["stage"] = "action"
    role = RULES.role_of(s, s["active"])
    s, _ = GAME.act(s, role, GAME.parse(s, role, "PASS"), Dice())
    qin = B.rp_of(s, "qin")
    winner = "Second" if qin >= 12 else "First"
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == (winner,)


def test_competitive_bidding_tie_is_decided_by_a_die() -> None:
    """"If the numbers are equal, a die roll decides which player plays the
    Lianheng side"."""
    s = GAME.setup({"victory": "bidding"}, Rng(SEED))
    s, events = _bid(s, {"First": 8, "Second": 8}, dice=(3, 3, 2, 5))
    assert s["seats"]["Lianheng"] == "Second" and s["target"] == 8
    assert "Tie: First rolls 3, Second rolls 3." in texts(events)


def test_a_missing_bid_counts_as_zero() -> None:
    s = GAME.setup({"victory": "bidding"}, Rng(SEED))
    orders = {"First": [GAME.parse(s, "First", "BID 5")]}
    s, _ = GAME.resolve(s, orders, Dice())
    assert s["seats"]["Lianheng"] == "First" and s["bids"] == {"First": 5, "Second": 0}


def test_two_game_match() -> None:
    """Two-Game Victory Rule: "Each player plays the Lianheng side once and the
    Alliance side once. At the end of the 2 games, compare the number of RP that
    Qin controlled in each game. The player who played the Lianheng side in the
    game in which Qin controlled more RP is the winner. If the two numbers are
    equal, the game is a draw"."""
    s = GAME.setup({"victory": "match", "turns": 1}, Rng(SEED))
    assert s["seats"] == {"Lianheng": "First", "Alliance": "Second"}
    first_rp = B.rp_of(s, "qin")
    for _ in range(2):
        role = RULES.role_of(s, s["active"])
        s, events = GAME.act(s, role, GAME.parse(s, role, "PASS"), Dice())
    assert s["game_no"] == 2 and s["games"][0] == {
        "lianheng": "First", "qin_rp": first_rp, "why": "the end of turn 1"}
    assert s["seats"] == {"Lianheng": "Second", "Alliance": "First"}
    assert "Game 2: Second plays the Lianheng side" in texts(events)
    # Game 2: Qin loses an area before the end.
    s["areas"]["hanzhong"]["stacks"].pop("qin")
    B.prune(s, "hanzhong")
    for _ in range(2):
        role = RULES.role_of(s, s["active"])
        s, events = GAME.act(s, role, GAME.parse(s, role, "PASS"), Dice())
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == ("First",) and not outcome.draw
    assert s["games"][1]["qin_rp"] == first_rp - 2


def test_two_game_match_equal_is_a_draw() -> None:
    s = GAME.setup({"victory": "match", "turns": 1}, Rng(SEED))
    for _ in range(4):
        role = RULES.role_of(s, s["active"])
        s, _ = GAME.act(s, role, GAME.parse(s, role, "PASS"), Dice())
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.draw and set(outcome.winners) == {"First", "Second"}
