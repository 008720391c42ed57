"""Turn Sequence and Actions: alternating action phases, passing, the end
step, and the end of the game (Victory, Basic Victory Rules)."""

from __future__ import annotations

import orjson
import pytest

from judge.game.engine import IllegalLine, copy_state
from judge.game.rng import Rng
from judge_games.conflict_of_alliances import GAME, RULES
from judge_games.conflict_of_alliances import board as B
from judge_games.conflict_of_alliances import game as coa_game
from tests.conflict_of_alliances.helpers import (
    SEED,
    A,
    L,
    State,
    deal,
    empty,
    parse,
    play,
    put,
    stance,
    texts,
)


def _two_sided() -> State:
    s = empty()
    put(s, "guanzhong", "qin", 4)
    put(s, "han-dan", "zhao", 3)
    stance(s, "zhao", "anti-qin")
    deal(s, L, "fan-ju", "han-fei", "li-si")
    deal(s, A, "su-qin", "jing-ke", "mao-sui")
    return s


def test_players_alternate_and_only_the_active_player_acts() -> None:
    """Actions: "On a player's turn, that player is the active player ... After
    the action or pass, the turn moves to the opponent's action phase"."""
    s = _two_sided()
    with pytest.raises(IllegalLine, match="Lianheng's action phase"):
        play(s, A, "PASS")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN REINFORCE qin guanzhong")
    assert s["active"] == A and s["stage"] == "action"
    s, _ = play(s, A, "PLAY su-qin FACEDOWN REINFORCE zhao han-dan")
    assert s["active"] == L


def test_two_passes_in_succession_end_the_action_step() -> None:
    """Turn Sequence: "When both players pass in succession, the action step
    ends immediately, whether or not either player still has cards"."""
    s = _two_sided()
    s, _ = play(s, L, "PASS")
    s, _ = play(s, A, "PLAY su-qin FACEDOWN REINFORCE zhao han-dan")
    assert s["turn"] == 1 and s["passes"] == 0
    s, _ = play(s, L, "PASS")
    s, events = play(s, A, "PASS")
    assert s["turn"] == 2
    assert "End of turn 1" in texts(events)


def test_a_player_without_cards_can_only_pass() -> None:
    """Actions: "When a player has no cards in hand, the player can only pass"
    (the judge passes for it at once)."""
    s = empty()
    put(s, "guanzhong", "qin", 4)
    deal(s, L, "fan-ju", "han-fei")
    s, events = play(s, L, "PLAY fan-ju FACEDOWN REINFORCE qin guanzhong")
    assert "Alliance has no cards and passes" in texts(events)
    assert s["active"] == L and s["passes"] == 1
    s, _ = play(s, L, "PASS")
    assert s["turn"] == 2


def test_end_step_discards_reshuffles_readies_and_frees_generals() -> None:
    """Turn Sequence, End step: remaining cards go to the discard piles, which
    are shuffled back into the decks (removed cards stay out); every counter
    and the initiative token return to their front side, except the Revenge
    Qin counters; the turn counter moves on; generals on the turn track go
    off the board."""
    s = _two_sided()
    put(s, "han-dan", "zhao", tired=2, tired_generals=["li-mu"])
    stance(s, "chu", "revenge-qin", received=False)
    stance(s, "wei", "neutral-2", received=False)
    s["initiative"]["switched"] = True
    s["generals"]["bai-qi"] = "track"
    s["track"]["bai-qi"] = 2
    s["cards"][A]["removed"].append(s["cards"][A]["deck"].pop())
    s, _ = play(s, L, "PASS")
    s, _ = play(s, A, "PASS")
    assert s["turn"] == 2
    assert B.stack(s, "han-dan", "zhao") == {"ready": 5, "tired": 0, "generals": {"li-mu": True}}
    assert s["diplomacy"]["wei"]["received"] is True
    assert s["diplomacy"]["chu"]["received"] is False
    assert s["initiative"]["switched"] is False
    assert s["generals"]["bai-qi"] == "off"
    for side, total in ((L, 23), (A, 22)):
        z = s["cards"][side]
        assert z["discard"] == []
        assert len(z["deck"]) + len(z["hand"]) == total
    # The new draw step dealt fresh hands.
    assert len(s["cards"][L]["hand"]) in (5, 6)


def test_the_end_step_reshuffles_from_the_rng_passed_in_and_the_state_holds_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Turn Sequence, End step: the discard piles are shuffled back into the
    decks. The shuffle draws from the judge's committed-seed Rng handed to
    ``act``; the state being changed stays plain JSON at every draw (no Rng
    object is parked in it), and the next state is the same whichever copy
    of that Rng is passed."""
    in_flight: list[State] = []
    real_copy = copy_state  # the one the game module calls (it imports it from the engine)

    def copy_and_watch(state: State) -> State:
        new = real_copy(state)
        in_flight.append(new)
        return new

    class Watching(Rng):
        def below(self, bound: int, purpose: str) -> int:
            for st in in_flight:
                orjson.dumps(st)  # raises TypeError on any object that is not JSON
            return super().below(bound, purpose)

    monkeypatch.setattr(coa_game, "copy_state", copy_and_watch)
    s = _two_sided()
    s, _ = play(s, L, "PASS")
    rng = Watching(SEED)
    after, _ = GAME.act(s, RULES.role_of(s, A), parse(s, A, "PASS"), rng)
    assert after["turn"] == 2
    assert in_flight and {d.purpose for d in rng.draws} >= {f"shuffle:{L}", f"shuffle:{A}"}
    again, _ = GAME.act(s, RULES.role_of(s, A), parse(s, A, "PASS"), Rng(SEED))
    assert orjson.dumps(again) == orjson.dumps(after)


def test_the_last_turn_ends_the_game_and_qin_resource_points_decide() -> None:
    """Victory: "only Qin's resource points are checked"; Five Kingdoms: "at the
    end of the fifth turn, if ... the areas controlled by Qin is 7 or more, the
    Lianheng player wins. Otherwise the Alliance player wins"."""
    s = _two_sided()
    s["turn"] = 5
    put(s, "hanzhong", "qin", 1)  # Guanzhong 2 + Hanzhong 2 = 4
    put(s, "ba-shu", "han", 1)
    stance(s, "han", "serve-qin")  # a Serve Qin area does not count for Qin
    s, _ = play(s, L, "PASS")
    s, events = play(s, A, "PASS")
    assert GAME.outcome(s) is not None
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == (A,)
    assert "Qin controls 4 RP against a target of 7" in texts(events)
    assert GAME.pending(s) == []
    s2 = _two_sided()
    s2["turn"] = 5
    for area in ("hanzhong", "ba-shu", "xiao-han"):
        put(s2, area, "qin", 1)  # 2 + 2 + 2 + 1 = 7
    s2, _ = play(s2, L, "PASS")
    s2, _ = play(s2, A, "PASS")
    outcome = GAME.outcome(s2)
    assert outcome is not None and outcome.winners == (L,)
