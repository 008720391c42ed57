"""Combat: the Battle Result Table, die modifiers, losses, results of combat
and the four Examples of Complex Situations, each played through the game."""

from __future__ import annotations

import pytest

from judge.game.engine import IllegalLine
from judge_games.conflict_of_alliances import GAME
from judge_games.conflict_of_alliances import board as B
from judge_games.conflict_of_alliances.combat import TABLE, hits, strength
from tests.conflict_of_alliances.helpers import (
    A,
    L,
    State,
    counts,
    deal,
    empty,
    lose,
    parse,
    play,
    put,
    stance,
    texts,
)

# The reading of the Player Aid table: rows are the die, columns the
# strength 1-4; "+" is one more hit with the side's own general.
READING = "1: -,-,+,1 / 2: -,+,1,1+ / 3: -,1,1,1+ / 4: +,1,1+,1+ / 5: 1,1,1+,2 / 6: 1,1+,2,2+"


def _cell(text: str) -> tuple[int, bool]:
    if text == "-":
        return (0, False)
    if text == "+":
        return (0, True)
    return (int(text.rstrip("+")), text.endswith("+"))


def test_battle_result_table_is_the_player_aid_reading() -> None:
    for row in READING.split(" / "):
        die, cells = row.split(": ")
        assert TABLE[int(die)] == tuple(_cell(c) for c in cells.split(","))


def test_city_defender_plus_one_is_for_its_own_column_only() -> None:
    """Combat: "For a city defender, combat strength equals the number of its
    participating army counters +1 (but not more than 4). The city defender's
    +1 does not change the losses that the defender itself suffers"."""
    assert strength(2, True) == 3 and strength(4, True) == 4 and strength(2, False) == 2
    # the +1 raises the city defender's own column, so the hits it scores (on a
    # 6, two counters instead of one); the attacker's column, which decides the
    # defender's losses, has no city bonus
    assert hits(6, strength(2, True), False) == 2
    assert hits(6, strength(2, False), False) == 1


def _battle_window(s: State) -> State:
    assert s["stage"] == "window" and s["window"]["kind"] == "before-combat"
    return s


def test_the_worked_combat_example() -> None:
    """Combat: "the Qin force has 4 army counters, including General Sima Cuo
    and 3 Qin armies, and attacks 2 Chu army counters in a city. The Lianheng
    player (Qin) rolls 2, and the Alliance player (Chu) rolls 4. Qin's combat
    strength is 4 ... Qin eliminates 2 Chu army counters. Chu ... combat
    strength is 3 ... Chu eliminates only 1 Qin army counter. For the losses,
    the Lianheng player chooses 1 Qin army counter to leave"; and (Results of
    Combat) "The remaining Qin army counters are placed in the city"."""
    s = empty()
    put(s, "hanzhong", "qin", 3, generals=["sima-cuo"])
    put(s, "nan-yang", "chu", 2)
    put(s, "nan-jun", "chu", 1)
    stance(s, "chu", "afraid-qin")
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin")
    s, events = play(s, L, "PLAY fan-ju FACEDOWN MILITARY hanzhong qin 3 sima-cuo TO nan-yang")
    # Diplomacy, third factor: Chu is attacked by a Lianheng force.
    assert s["diplomacy"]["chu"] == {"pos": 5, "received": False, "revenge": False}
    _battle_window(s)
    s, events = play(s, A, "PASS", dice=[2, 4])
    log = texts(events)
    assert "Dice: attacker rolls 2, defender rolls 4." in log
    assert "Attacker eliminates 2 counters." in log and "Defender eliminates 1 counter." in log
    # Qin has a real choice (an army or Sima Cuo); Chu loses both.
    assert s["stage"] == "losses"
    assert [d.roles for d in GAME.pending(s)] == [(L,)]
    s, events = lose(s, {L: "LOSE 1 MOVED"})
    assert B.controller(s, "nan-yang") == "qin"
    assert counts(s, "nan-yang", "qin") == (0, 2, {"sima-cuo": False})
    assert B.stack(s, "nan-yang", "chu") is None
    assert "Qin take the city of Nan Yang" in texts(events)
    assert s["stage"] == "action" and s["active"] == A


def test_die_modifiers_stack_and_stay_within_one_to_six() -> None:
    """Combat Die Modifiers: "The attacker uses Mounted Attack to direct Li Mu to
    attack a city defended by Shu Li Ji. The attacker's total modifier is +1
    (Li Mu +1, Mounted Attack +1, Shu Li Ji -1). The defender has no modifier.
    The attacker rolls 5, and the modified result is 6"."""
    s = empty()
    s["active"] = A
    put(s, "han-dan", "zhao", 0, generals=["li-mu"])
    put(s, "wei", "qin", 1, generals=["shu-li-ji"])
    stance(s, "zhao", "anti-qin")
    deal(s, A, "mounted-attack")
    deal(s, L, "han-fei")
    s, _ = play(s, A, "PLAY mounted-attack FACEUP")
    assert s["stage"] == "step"
    s, _ = play(s, A, "MILITARY han-dan zhao li-mu TO wei")
    s, events = play(s, L, "PASS", dice=[5, 1])
    log = texts(events)
    assert "attacker rolls 5 (+1 = 6), defender rolls 1." in log
    # Li Mu alone: strength 1, die 6 -> 1 elimination; Shu Li Ji and the army defend
    # the city at strength 3, die 1 -> a general icon only, and Shu Li Ji takes part.
    assert "Attacker eliminates 1 counter." in log
    assert "Defender eliminates 1 counter." in log
    # Clamped: a 6 with +1 stays 6.
    s2 = empty()
    s2["active"] = A
    put(s2, "han-dan", "zhao", 0, generals=["li-mu"])
    put(s2, "wei", "qin", 1)
    stance(s2, "zhao", "anti-qin")
    deal(s2, A, "mounted-attack")
    deal(s2, L, "han-fei")
    s2, _ = play(s2, A, "PLAY mounted-attack FACEUP")
    s2, _ = play(s2, A, "MILITARY han-dan zhao li-mu TO wei")
    s2, events = play(s2, L, "PASS", dice=[6, 1])
    assert "attacker rolls 6 (+2, capped at 6)" in texts(events)


def test_retreat_to_the_last_area_before_the_battlefield() -> None:
    """Results of Combat: "The Lianheng player moves the 4 army counters in
    Guanzhong through Xiao Han to attack Han. The defender is not eliminated,
    so the attacker's remaining army counters must retreat to Xiao Han and may
    not return to Guanzhong"."""
    s = empty()
    put(s, "guanzhong", "qin", 4)
    put(s, "han", "han", 3)
    stance(s, "han", "anti-qin")
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han han")
    s, events = play(s, A, "PASS", dice=[1, 1])
    # 4 Qin at die 1: one elimination; 3 Han in the city (strength 4) at die 1: one.
    assert counts(s, "han", "han") == (2, 0, {})
    assert counts(s, "xiao-han", "qin") == (0, 3, {})
    assert B.controller(s, "xiao-han") == "qin"
    assert B.stack(s, "guanzhong", "qin") is None
    assert "retreat to Xiao Han" in texts(events)


def test_example_one_direct_combat() -> None:
    """Example I: "the 2 Yiqu army counters in Longxi do not move. They attack
    the Qin army in their own area directly. The Yiqu army counters are flipped
    to their exhausted side ... If the Qin army is not eliminated, the
    remaining Yiqu army counters do not need to retreat"."""
    s = empty()
    s["active"] = A
    put(s, "longxi", "qin", 2, city=True)
    put(s, "longxi", "yiqu", 2, city=False)
    stance(s, "yiqu", "anti-qin")
    deal(s, A, "su-qin")
    deal(s, L, "han-fei")
    s, events = play(s, A, "PLAY su-qin FACEDOWN MILITARY longxi yiqu 2")
    assert "attack without moving" in texts(events)
    assert counts(s, "longxi", "yiqu") == (0, 2, {})
    s, _ = play(s, L, "PASS", dice=[6, 1])
    # 2 Yiqu, die 6: one Qin; 2 Qin in the city (strength 3), die 1: nothing.
    assert counts(s, "longxi", "qin") == (1, 0, {})
    assert counts(s, "longxi", "yiqu") == (0, 2, {})
    assert B.controller(s, "longxi") == "qin"


def _example_two() -> State:
    s = empty()
    s["active"] = A
    put(s, "shang-jun", "qin", 2, city=True)
    put(s, "shang-jun", "yiqu", 3, city=False)
    put(s, "longxi", "qin", 2, city=True)
    put(s, "longxi", "yiqu", 2, city=False)
    stance(s, "yiqu", "anti-qin")
    deal(s, A, "su-qin")
    deal(s, L, "han-fei")
    return s


def test_example_two_counters_already_there_join_and_only_movers_retreat() -> None:
    """Example II: "3 Yiqu army counters in the field of Shangjun move into
    Longxi. This move is not affected by the Qin army in Shangjun ... no more
    than 4 counters may take part ... one of the Yiqu army counters that was
    originally in Longxi [takes] part. The 4 participating attacking counters
    are all flipped ... If the Qin army is not all eliminated, the Yiqu army
    counters that were originally in Longxi do not need to retreat ... The
    Yiqu army counters that moved from Shangjun into Longxi must retreat to the
    field of Shangjun. The retreat does not trigger combat"."""
    s = _example_two()
    with pytest.raises(IllegalLine, match="no more than 4"):
        parse(s, A, "PLAY su-qin FACEDOWN MILITARY shang-jun yiqu 3 TO longxi JOIN 2")
    s, _ = play(s, A, "PLAY su-qin FACEDOWN MILITARY shang-jun yiqu 3 TO longxi JOIN 1")
    assert counts(s, "longxi", "yiqu") == (1, 1, {})
    s, events = play(s, L, "PASS", dice=[1, 1])
    # 4 Yiqu at die 1: one Qin; 2 Qin in the city (strength 3) at die 1: nothing.
    assert counts(s, "longxi", "qin") == (1, 0, {})
    assert counts(s, "longxi", "yiqu") == (1, 1, {})
    assert counts(s, "shang-jun", "yiqu") == (0, 3, {})
    assert B.controller(s, "shang-jun") == "qin"
    assert "retreat to Shang Jun" in texts(events)
    assert s["battle"] is None and s["stage"] == "action"


def test_example_two_when_the_qin_army_is_eliminated() -> None:
    """Example II: "If the Qin army is all eliminated, all the Yiqu army counters
    in Longxi are placed in the city"."""
    s = _example_two()
    put(s, "longxi", "qin", 0)
    stack = B.stack(s, "longxi", "qin")
    assert stack is not None
    stack["ready"] = 1
    s, _ = play(s, A, "PLAY su-qin FACEDOWN MILITARY shang-jun yiqu 3 TO longxi JOIN 1")
    s, _ = play(s, L, "PASS", dice=[6, 1])
    assert B.controller(s, "longxi") == "yiqu"
    assert counts(s, "longxi", "yiqu") == (1, 4, {})


def _example_three(wei: str) -> State:
    s = empty()
    put(s, "guanzhong", "qin", 4)
    put(s, "xiao-han", "zhao", 1, city=True)
    put(s, "xiao-han", "wei", 1, city=False)
    stance(s, "zhao", "anti-qin")
    stance(s, "wei", wei)
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin")
    return s


def test_example_three_one_the_field_first() -> None:
    """Example III.1: "Wei belongs to the Neutral or the Alliance faction. The
    Qin army must first attack the Wei army outside the city ... [then] may use
    the remaining Qin army counters in this area to continue attacking the
    Zhao army counters in this area, or may retreat to Guanzhong ... If ... the
    Zhao army is all eliminated ... the remaining Qin army counters are placed
    in the city"."""
    for wei in ("neutral-2", "anti-qin"):
        s = _example_three(wei)
        with pytest.raises(IllegalLine, match="the field comes first"):
            parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han ATTACK zhao")
        s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han ATTACK wei")
        s, _ = play(s, A, "PASS", dice=[5, 1])
        assert s["stage"] == "continue"
        assert GAME.legal(s, L) == ["ATTACK zhao", "RETREAT"]
        s, _ = play(s, L, "ATTACK zhao")
        assert s["diplomacy"]["zhao"]["received"] is False
        s, _events = play(s, A, "PASS", dice=[6, 1])
        assert B.controller(s, "xiao-han") == "qin"
        assert counts(s, "xiao-han", "qin") == (0, 4, {})


def test_example_three_one_retreat_after_the_first_battle() -> None:
    s = _example_three("neutral-2")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han")
    s, _ = play(s, A, "PASS", dice=[5, 1])
    s, _ = play(s, L, "RETREAT")
    assert counts(s, "guanzhong", "qin") == (0, 4, {})
    assert B.controller(s, "xiao-han") == "zhao"


def test_example_three_two_a_friendly_field_lets_qin_attack_the_city() -> None:
    """Example III.2: "Wei belongs to the Lianheng faction. The Qin army may
    attack the Zhao army inside the city directly ... The Qin army may also
    choose to attack the friendly Wei army ... this causes Wei's stance to
    become Anti-Qin"."""
    s = _example_three("serve-qin")
    action = parse(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han ATTACK zhao")
    assert action.data["op"]["target"] == "zhao"
    s2, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han ATTACK zhao")
    s2, _ = play(s2, A, "PASS", dice=[6, 1])
    assert B.controller(s2, "xiao-han") == "qin"
    assert B.field_forces(s2, "xiao-han") == ["wei"]
    s3, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han ATTACK wei")
    assert B.stance_name(s3, "wei") == "Anti-Qin" and B.faction(s3, "wei") == A
    s3, _ = play(s3, A, "PASS", dice=[6, 1])
    assert GAME.legal(s3, L) == ["ATTACK zhao", "RETREAT"]


def test_example_four_one_activated_general_at_a_time() -> None:
    """Example IV: "Qin may have both Sima Cuo and Bai Qi in one area ... if the
    player activates Sima Cuo ... a movement allowance of 3 points, but in
    combat the player may not gain the combat die modifier that Bai Qi
    provides. Conversely, if the player activates Bai Qi, the movement
    allowance is only 2 points, but the player does gain the combat die
    modifier"."""
    s = empty()
    put(s, "ba-shu", "qin", 2, generals=["sima-cuo", "bai-qi"])
    put(s, "nan-yang", "chu", 1)
    stance(s, "chu", "anti-qin")
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin")
    line = "PLAY fan-ju FACEDOWN MILITARY ba-shu qin 2 sima-cuo bai-qi"
    with pytest.raises(Exception, match="LEAD"):
        parse(s, L, f"{line} TO hanzhong nan-yang")
    parse(s, L, f"{line} LEAD sima-cuo TO hanzhong nan-yang")
    with pytest.raises(IllegalLine, match="movement allowance of 2"):
        parse(s, L, f"{line} LEAD bai-qi TO hanzhong nan-yang")
    s1, _ = play(s, L, f"{line} LEAD sima-cuo TO hanzhong nan-yang")
    s1, events = play(s1, A, "PASS", dice=[3, 1])
    assert "attacker rolls 3, defender" in texts(events)
    s["areas"]["ba-shu"]["stacks"]["qin"]["generals"] = {"sima-cuo": True, "bai-qi": True}
    put(s, "hanzhong", "chu", 1)
    s2, _ = play(s, L, f"{line} LEAD bai-qi TO hanzhong")
    s2, events = play(s2, A, "PASS", dice=[3, 1])
    assert "attacker rolls 3 (+1 = 4)" in texts(events)


def test_lost_generals_go_to_the_turn_track() -> None:
    """Combat, Assigning losses: "A lost general counter is placed in the turn
    track's space for the next turn (if this is the last turn, the general is
    removed from the game instead). That general cannot be placed back into
    play again during the same turn by the face-up Legendary General card"."""
    s = empty()
    put(s, "guanzhong", "qin", 0, generals=["bai-qi"])
    put(s, "xiao-han", "zhao", 3)
    stance(s, "zhao", "anti-qin")
    deal(s, L, "fan-ju", "legendary-general")
    deal(s, A, "su-qin")
    put(s, "longxi", "qin", 1)
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin bai-qi TO xiao-han")
    s, events = play(s, A, "PASS", dice=[1, 6])
    assert s["generals"]["bai-qi"] == "track" and s["track"]["bai-qi"] == 2
    assert "Qin lose Bai Qi" in texts(events)
    s["active"] = L
    s["stage"] = "action"
    with pytest.raises(IllegalLine, match="cannot be received"):
        parse(s, L, "PLAY legendary-general FACEUP A GENERAL bai-qi longxi")
    # In the last turn the general leaves the game.
    s = empty()
    s["turn"] = s["turns"]
    put(s, "guanzhong", "qin", 0, generals=["bai-qi"])
    put(s, "xiao-han", "zhao", 3)
    put(s, "longxi", "qin", 1)
    stance(s, "zhao", "anti-qin")
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin bai-qi TO xiao-han")
    s, _ = play(s, A, "PASS", dice=[1, 6])
    assert s["generals"]["bai-qi"] == "removed"


def test_defender_takes_part_with_up_to_four_and_may_choose() -> None:
    """Combat Procedure: "The defender then chooses up to 4 of that force's army
    counters on the battlefield, whether ready or exhausted ... If possible,
    the defender must choose all of its army counters to take part, except
    that no more than 4 may take part"."""
    s = empty()
    put(s, "guanzhong", "qin", 2)
    put(s, "xiao-han", "zhao", 3, 2, generals=["li-mu"])
    stance(s, "zhao", "anti-qin")
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO xiao-han")
    lines = GAME.legal(s, A)
    assert "DEFEND 3 READY li-mu" in lines and "PASS" in lines
    with pytest.raises(IllegalLine, match="4 counters must defend"):
        parse(s, A, "DEFEND 2 READY")
    s, events = play(s, A, "DEFEND 1 READY 2 TIRED li-mu")
    assert s["stage"] == "window"
    s, events = play(s, A, "PASS", dice=[1, 1])
    assert "Zhao defend with 4 (3 armies and Li Mu), +1 for the city" in texts(events)


def test_a_change_of_stance_never_starts_combat() -> None:
    """Results of Combat: "Only military operations can trigger combat ... if the
    Qin army and the Yiqu army are both in Longxi, no change in Yiqu's stance
    starts combat automatically"."""
    s = empty()
    put(s, "longxi", "qin", 2, city=True)
    put(s, "longxi", "yiqu", 2, city=False)
    stance(s, "yiqu", "afraid-qin")
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN DIPLOMACY yiqu RIGHT")
    assert B.faction(s, "yiqu") == A
    assert s["battle"] is None and counts(s, "longxi", "qin") == (2, 0, {})


def test_an_alliance_attack_sends_the_target_to_serve_qin() -> None:
    """Diplomacy, third factor: "When an Alliance force's army counter attacks
    any other force's army counter, the attacked force's diplomacy counter is
    moved to the leftmost space (Serve Qin), and is placed with the Not
    Received side up"."""
    s = empty()
    s["active"] = A
    put(s, "han-dan", "zhao", 3)
    put(s, "wei", "wei", 1)
    stance(s, "zhao", "anti-qin")
    stance(s, "wei", "neutral-3")
    deal(s, A, "su-qin")
    deal(s, L, "han-fei")
    s, _ = play(s, A, "PLAY su-qin FACEDOWN MILITARY han-dan zhao 3 TO wei")
    assert s["diplomacy"]["wei"] == {"pos": 0, "received": False, "revenge": False}
    assert B.faction(s, "wei") == L


def test_elimination_removes_the_diplomacy_counter() -> None:
    """Forces and Factions, Elimination: "When all of a force's army counters are
    off the board, that force is eliminated. Its diplomacy counter is taken out
    of the game ... after Wei is eliminated, the card Lord Xinling can only be
    played face down"."""
    s = empty()
    put(s, "guanzhong", "qin", 4)
    put(s, "xiao-han", "wei", 1)
    stance(s, "wei", "neutral-2")
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin", "lord-xinling")
    s, events = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han")
    s, events = play(s, A, "PASS", dice=[6, 1])
    assert "wei" in s["eliminated"] and "wei" not in s["diplomacy"]
    assert "Wei is eliminated" in texts(events)
    with pytest.raises(IllegalLine, match="played face down"):
        parse(s, A, "PLAY lord-xinling FACEUP A")
    parse(s, A, "PLAY lord-xinling FACEDOWN WEATHER")


def test_qin_eliminated_ends_the_game_for_the_alliance() -> None:
    """Forces and Factions: "If Qin is eliminated, the game ends immediately and
    the Alliance player wins"."""
    s = empty()
    s["active"] = A
    put(s, "han-dan", "zhao", 4)
    put(s, "wei", "qin", 1)
    stance(s, "zhao", "anti-qin")
    deal(s, A, "su-qin")
    deal(s, L, "han-fei")
    s, _ = play(s, A, "PLAY su-qin FACEDOWN MILITARY han-dan zhao 4 TO wei")
    s, events = play(s, L, "PASS", dice=[6, 1])
    outcome = GAME.outcome(s)
    assert outcome is not None and outcome.winners == (A,)
    assert "Qin is eliminated" in texts(events)


def test_withdrawal_into_the_field_of_the_area_left_behind() -> None:
    """Movement: "All 4 Qin army counters leave Guanzhong for Xiao Han. The Yiqu
    army counter in Guanzhong must now be placed in the city ... Then the
    battle between the Qin army and the Wei army is resolved. If the Qin army
    then withdraws from the battle, it can only withdraw to the field of
    Guanzhong"."""
    s = empty()
    put(s, "guanzhong", "qin", 4, city=True)
    put(s, "guanzhong", "yiqu", 1, city=False)
    put(s, "xiao-han", "wei", 3)
    stance(s, "wei", "anti-qin")
    stance(s, "yiqu", "neutral-2")
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han")
    assert B.controller(s, "guanzhong") == "yiqu"
    s, events = play(s, A, "PASS", dice=[1, 1])
    assert "retreat to Guanzhong" in texts(events)
    assert B.controller(s, "guanzhong") == "yiqu"
    assert B.field_forces(s, "guanzhong") == ["qin"]
    assert counts(s, "guanzhong", "qin") == (0, 3, {})


def test_an_attacked_counter_already_at_anti_qin_is_only_flipped() -> None:
    """Diplomacy: "when the Qin army attacks the Wei army, Wei's diplomacy counter
    must be moved to Anti-Qin and placed Not Received side up, regardless of its
    state. If Wei's counter is already at Anti-Qin, it is simply flipped to the
    Not Received side"."""
    s = empty()
    put(s, "guanzhong", "qin", 4)
    put(s, "xiao-han", "wei", 1)
    stance(s, "wei", "anti-qin", received=True)
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 4 TO xiao-han")
    assert s["diplomacy"]["wei"] == {"pos": 5, "received": False, "revenge": False}
    # "regardless of its state": a Not Received Serve Qin counter moves too.
    s = empty()
    put(s, "xiao-han", "qin", 2, city=True)
    put(s, "xiao-han", "wei", 1, city=False)
    stance(s, "wei", "serve-qin", received=False)
    deal(s, L, "fan-ju")
    deal(s, A, "su-qin")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY xiao-han qin 2 ATTACK wei")
    assert s["diplomacy"]["wei"] == {"pos": 5, "received": False, "revenge": False}
