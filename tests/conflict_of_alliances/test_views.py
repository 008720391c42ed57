"""Views and reports: the board, the tracks, the initiative, hand sizes, each
side's own hand only, face-up discards, and face-down plays as "a card face
down" (issue: "By mail")."""

from __future__ import annotations

import random

from judge import reports
from judge.game.engine import Event
from judge_games.conflict_of_alliances import GAME
from tests.conflict_of_alliances.helpers import (
    A,
    L,
    State,
    deal,
    empty,
    new,
    play,
    put,
    stance,
)
from tests.support.scramble import scramble


def _report(state: State, role: str | None, events: list[Event] | None = None) -> str:
    return reports.game_report(GAME, GAME.view(state, role), events or [], role, "g1")


def test_face_down_cards_are_hidden_from_the_opponent_only() -> None:
    s = empty()
    put(s, "guanzhong", "qin", 3)
    deal(s, L, "king-of-qin", "fan-ju")
    deal(s, A, "su-qin")
    s, events = play(s, L, "PLAY king-of-qin FACEDOWN REINFORCE qin guanzhong")
    mine = GAME.view(s, L)["cards"][L]["discard"]
    theirs = GAME.view(s, A)["cards"][L]["discard"]
    assert mine == [{"card": "king-of-qin", "face_up": False}]
    assert theirs == [{"card": None, "face_up": False}]
    assert GAME.view(s, None)["cards"][L]["discard"] == theirs
    assert "a card face down" in _report(s, A, events)
    assert "King of Qin" not in _report(s, A, events) and "king-of-qin" not in _report(s, A)
    assert "king-of-qin (face down)" in _report(s, L)


def test_face_up_cards_are_shown_to_everybody() -> None:
    s = empty()
    put(s, "guanzhong", "qin", 3)
    stance(s, "qi", "neutral-2")
    deal(s, L, "emissary-to-qi", "fan-ju")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY emissary-to-qi FACEUP A")
    for reader in (L, A, None):
        assert GAME.view(s, reader)["cards"][L]["discard"] == [
            {"card": "emissary-to-qi", "face_up": True}]


def test_each_side_sees_its_own_hand_and_both_hand_sizes() -> None:
    s = new("qin-dominates")
    lv, av, ov = GAME.view(s, L), GAME.view(s, A), GAME.view(s, None)
    assert lv["hand"] != av["hand"]
    assert "hand" not in ov
    for v in (lv, av, ov):
        assert v["cards"][L]["hand"] == len(s["cards"][L]["hand"])
        assert v["cards"][A]["hand"] == len(s["cards"][A]["hand"])
    report = _report(s, L)
    assert "Your hand: " + ", ".join(lv["hand"]) in report
    assert "Diplomacy track" in report and "Initiative: Alliance" in report
    assert "Guanzhong" in report and "Revenge Qin" in report


def test_scramble_keeps_every_other_view() -> None:
    """The noninterference property on one position: redealing the Alliance's
    hidden cards (the generic scrambler over the game's zones) changes
    nothing the Lianheng or an observer sees."""
    s = new("five-kingdoms")
    s["active"] = A
    deal(s, A, "lord-chunshen")
    other = scramble(GAME, s, L, random.Random(99))
    assert other["cards"][A] != s["cards"][A]
    for reader in (L, None):
        assert GAME.view(other, reader) == GAME.view(s, reader)
        assert _report(other, reader) == _report(s, reader)
    assert GAME.legal(other, L) == GAME.legal(s, L)


def test_everything_is_shown_when_the_game_ends() -> None:
    """DESIGN.md, Privacy: "Full history (hands, face-down cards, seed) is
    released only when the game ends"."""
    s = empty()
    s["turn"] = s["turns"]
    put(s, "guanzhong", "qin", 3)
    deal(s, L, "king-of-qin", "fan-ju")
    deal(s, A, "su-qin", "mao-sui")
    s, _ = play(s, L, "PLAY king-of-qin FACEDOWN REINFORCE qin guanzhong")
    assert GAME.view(s, A)["cards"][L]["discard"][0]["card"] is None
    s, _ = play(s, A, "PLAY su-qin FACEDOWN WEATHER")
    s, _ = play(s, L, "PASS")
    s, _ = play(s, A, "PASS")
    assert GAME.outcome(s) is not None
    view = GAME.view(s, A)
    assert view["cards"][L]["discard"][0] == {"card": "king-of-qin", "face_up": False}
    assert view["hands"] == {L: ["fan-ju"], A: ["mao-sui"]}
    assert "Hands at the end: Lianheng fan-ju; Alliance mao-sui." in _report(s, None)
