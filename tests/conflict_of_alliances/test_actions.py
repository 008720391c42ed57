"""Face-down actions (Face-Down Play): military operations and movement,
reinforcement operations, diplomatic actions and weather actions."""

from __future__ import annotations

import pytest

from judge.game.engine import AmbiguousLine, IllegalLine
from judge_games.conflict_of_alliances import board as B
from tests.conflict_of_alliances.helpers import (
    A,
    L,
    State,
    counts,
    deal,
    empty,
    parse,
    play,
    put,
    stance,
    texts,
)


def _qin(**kw: int) -> State:
    s = empty()
    put(s, "guanzhong", "qin", kw.get("armies", 4), kw.get("tired", 0))
    deal(s, L, "fan-ju", "han-fei")
    deal(s, A, "su-qin", "mao-sui")
    return s


# --------------------------------------------------------------------------- military operations


def test_one_to_four_ready_counters_from_one_area() -> None:
    """Military Operations: "The player selects that force and 1 to 4 ready army
    counters in any one area"; Movement: "Only army counters in the ready state
    may move"."""
    s = _qin(armies=5, tired=2)
    parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han")
    with pytest.raises(IllegalLine, match="1 to 4"):
        parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 5 TO xiao-han")
    s2 = _qin(armies=1, tired=3)
    with pytest.raises(IllegalLine, match="only 1 ready"):
        parse(s2, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO xiao-han")


def test_face_down_directs_qin_or_the_revenge_and_anti_qin_forces_only() -> None:
    """Which forces a player may direct: face down the Lianheng directs Qin
    only (not Serve Qin forces); the Alliance directs Revenge Qin and Anti-Qin
    forces (not Afraid of Qin forces); nobody directs Neutral forces."""
    s = _qin()
    put(s, "han", "han", 3)
    stance(s, "han", "serve-qin")
    with pytest.raises(IllegalLine, match="may not direct Han"):
        parse(s, L, "PLAY fan-ju FACEDOWN MILITARY han han 2 TO wei")
    put(s, "han-dan", "zhao", 3)
    put(s, "yan", "yan", 3)
    stance(s, "zhao", "anti-qin")
    stance(s, "yan", "afraid-qin")
    s["active"] = A
    parse(s, A, "PLAY su-qin FACEDOWN MILITARY han-dan zhao 2 TO wei")
    with pytest.raises(IllegalLine, match="may not direct Yan"):
        parse(s, A, "PLAY su-qin FACEDOWN MILITARY yan yan 2 TO dai")
    stance(s, "zhao", "neutral-2")
    with pytest.raises(IllegalLine):
        parse(s, A, "PLAY su-qin FACEDOWN MILITARY han-dan zhao 2 TO wei")


def test_movement_costs_and_allowance() -> None:
    """Movement: allowance 2; a normal border 1, a mountain 2; "If the movement
    points are not enough, the move cannot be made"."""
    s = _qin()
    parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO hanzhong")
    with pytest.raises(IllegalLine, match="movement allowance of 2"):
        parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO hanzhong ba-shu")
    with pytest.raises(IllegalLine, match="not adjacent"):
        parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO han")
    parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO xiao-han han")


def test_entering_enemy_or_neutral_counters_stops_the_move() -> None:
    """Movement: "If the area has enemy-faction or Neutral-faction army counters,
    the moving counters must stop moving immediately"."""
    s = _qin()
    put(s, "xiao-han", "wei", 1)
    stance(s, "wei", "neutral-2")
    with pytest.raises(IllegalLine, match="must stop in Xiao Han"):
        parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO xiao-han han")
    action = parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO xiao-han")
    assert action.data["op"]["target"] == "wei"


def test_moving_counters_end_exhausted_and_take_an_empty_area() -> None:
    """Movement: "an army counter must be flipped to its exhausted side ... at
    the end of its move"; "If a force's army counters move into an
    uncontrolled area and stop moving, the moved army counters are placed in
    the city"; moving all counters out loses control (all 4 Qin from Guanzhong
    to Xiao Han: Guanzhong becomes uncontrolled)."""
    s = _qin()
    s, events = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han")
    assert counts(s, "xiao-han", "qin") == (0, 4, {})
    assert B.controller(s, "xiao-han") == "qin"
    assert B.controller(s, "guanzhong") is None
    assert "Guanzhong is left uncontrolled" in texts(events)
    assert "a card face down for a military operation" in texts(events, A)
    assert "Fan Ju" not in texts(events, A)
    assert "You play Fan Ju face down" in texts(events, L)


def test_only_the_counters_of_one_area_move_together() -> None:
    """Movement: the 3 counters from Guanzhong move through Xiao Han into Han
    together; a Qin counter already at Xiao Han is not added to the move."""
    s = _qin()
    put(s, "xiao-han", "qin", 1)
    put(s, "han", "han", 1)
    stance(s, "han", "neutral-2")
    action = parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 3 TO xiao-han han")
    assert action.data["op"]["armies"] == 3 and action.data["op"]["join"] is None
    with pytest.raises(IllegalLine, match="no counters in Han to join"):
        parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 3 TO xiao-han han JOIN 1")


def test_the_force_left_behind_takes_the_city() -> None:
    """Movement: "All 4 Qin army counters leave Guanzhong for Xiao Han. The Yiqu
    army counter in Guanzhong must now be placed in the city"; with several
    forces left, the moving player chooses (CONTROL)."""
    s = _qin()
    put(s, "guanzhong", "yiqu", 1)
    s, events = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han")
    assert B.controller(s, "guanzhong") == "yiqu"
    assert "Yiqu now holds the city of Guanzhong" in texts(events)
    s = _qin()
    put(s, "guanzhong", "yiqu", 1)
    put(s, "guanzhong", "wei", 1)
    with pytest.raises(AmbiguousLine) as info:
        parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han")
    assert len(info.value.choices) == 2
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han CONTROL wei")
    assert B.controller(s, "guanzhong") == "wei"


def test_stopping_with_a_friendly_force_goes_to_the_field() -> None:
    """Movement: "Three Yan army counters move into Dai, which is under Zhao
    control. Yan and Zhao both belong to the Alliance faction, so no combat is
    triggered. The Yan army counters must be placed outside the city"."""
    s = _qin()
    put(s, "yan", "yan", 4)
    put(s, "dai", "zhao", 1)
    stance(s, "yan", "anti-qin")
    stance(s, "zhao", "anti-qin")
    s["active"] = A
    s, _ = play(s, A, "PLAY su-qin FACEDOWN MILITARY yan yan 3 TO dai")
    assert B.controller(s, "dai") == "zhao"
    assert B.field_forces(s, "dai") == ["yan"]
    assert counts(s, "dai", "yan") == (0, 3, {})
    assert s["battle"] is None and s["stage"] == "action"


def test_moving_through_friendly_counters_and_joining_own_stack() -> None:
    s = _qin()
    put(s, "xiao-han", "qin", 1)
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO xiao-han")
    assert counts(s, "xiao-han", "qin") == (1, 2, {})
    assert B.controller(s, "xiao-han") == "qin"


# --------------------------------------------------------------------------- reinforcement


def test_reinforcement_goes_where_the_force_already_is() -> None:
    """Reinforcement Operations: "Zhao has army counters in the field of Taiyuan,
    and Chu has army counters in the city of Nanyang. An Alliance player ...
    may place a Chu army counter in Nanyang, or place a Zhao army counter in the
    field of Taiyuan. The player may not place a Chu army counter in an area
    where there are no Chu army counters. Whether Chu or Zhao belongs to the
    Alliance does not affect this"; any force, "including the minor forces"."""
    s = _qin()
    s["active"] = A
    put(s, "taiyuan", "qin", 1)
    put(s, "taiyuan", "zhao", 2)
    put(s, "nan-yang", "chu", 2)
    put(s, "ba-shu", "shu", 1)
    stance(s, "chu", "neutral-2")
    s2, events = play(s, A, "PLAY su-qin FACEDOWN REINFORCE chu nan-yang")
    assert counts(s2, "nan-yang", "chu") == (3, 0, {})
    assert "a card face down for a reinforcement" in texts(events)
    s3, _ = play(s, A, "PLAY su-qin FACEDOWN REINFORCE zhao taiyuan")
    assert counts(s3, "taiyuan", "zhao") == (3, 0, {})
    assert B.controller(s3, "taiyuan") == "qin"
    play(s, A, "PLAY su-qin FACEDOWN REINFORCE shu ba-shu")
    with pytest.raises(IllegalLine, match="no counters in Taiyuan"):
        parse(s, A, "PLAY su-qin FACEDOWN REINFORCE chu taiyuan")


# --------------------------------------------------------------------------- diplomacy


def test_diplomatic_action_moves_a_received_counter_and_flips_it() -> None:
    """Diplomatic Actions: "Chu's diplomacy counter is in the Received state. The
    Lianheng player plays a card face down for a diplomatic action, moves Chu's
    counter one space to the left, and flips it to the Not Received side. The
    player may not ... move Zhao's counter, because Zhao's counter is in the
    Not Received state"."""
    s = _qin()
    stance(s, "chu", "afraid-qin")
    stance(s, "zhao", "neutral-2", received=False)
    s, _events = play(s, L, "PLAY fan-ju FACEDOWN DIPLOMACY chu LEFT")
    assert s["diplomacy"]["chu"] == {"pos": 3, "received": False, "revenge": False}
    assert B.faction(s, "chu") == "Neutral"
    s["active"] = L
    with pytest.raises(IllegalLine, match="Not Received"):
        parse(s, L, "PLAY han-fei FACEDOWN DIPLOMACY zhao LEFT")


def test_a_counter_at_the_end_is_locked_without_moving() -> None:
    """Diplomatic Actions: "Qi's counter in the Received state at the Serve Qin
    space. The Lianheng player plays a card face down for a diplomatic action
    and flips it to the Not Received side"; only at an end of the track."""
    s = _qin()
    stance(s, "qi", "serve-qin")
    stance(s, "wei", "neutral-2")
    with pytest.raises(IllegalLine, match="left end"):
        parse(s, L, "PLAY fan-ju FACEDOWN DIPLOMACY qi LEFT")
    with pytest.raises(IllegalLine, match="only a counter at an end"):
        parse(s, L, "PLAY fan-ju FACEDOWN DIPLOMACY wei LOCK")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN DIPLOMACY qi LOCK")
    assert s["diplomacy"]["qi"] == {"pos": 0, "received": False, "revenge": False}


def test_either_player_may_move_a_counter_either_way_face_down() -> None:
    """Diplomatic Actions: "move that counter one space to the left or to the
    right"."""
    s = _qin()
    stance(s, "qi", "neutral-2")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN DIPLOMACY qi RIGHT")
    assert s["diplomacy"]["qi"]["pos"] == 3


# --------------------------------------------------------------------------- weather


def test_weather_action_moves_and_locks_the_initiative() -> None:
    """Weather Actions: "The initiative token is on the Lianheng side. The
    Alliance player plays a card face down for a weather action, moves the
    token to the Alliance side, and flips it to the back side. The Alliance
    player then acts first" -- at the start of the next turn; the token "may
    not be moved again" this turn."""
    s = _qin()
    s["active"] = A
    s, events = play(s, A, "PLAY su-qin FACEDOWN WEATHER")
    assert s["initiative"] == {"side": A, "switched": True}
    assert "a card face down for a weather action" in texts(events)
    with pytest.raises(IllegalLine, match="already been switched"):
        parse(s, L, "PLAY fan-ju FACEDOWN WEATHER MOVE")
    s, _ = play(s, L, "PASS")
    s, _ = play(s, A, "PASS")
    assert s["turn"] == 2 and s["active"] == A
    assert s["initiative"] == {"side": A, "switched": False}


def test_weather_action_may_only_lock_the_token() -> None:
    """Weather Actions: "the Lianheng player may play a card face down for a
    weather action, flip the token directly to the back side, and prevent the
    opponent from moving it"."""
    s = _qin()
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN WEATHER")
    assert s["initiative"] == {"side": L, "switched": True}
    with pytest.raises(IllegalLine):
        parse(s, A, "PLAY su-qin FACEDOWN WEATHER MOVE")
