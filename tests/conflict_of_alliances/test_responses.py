"""Responses (cards with the Break mark 破): the windows offered to the
passive player, the rulebook's response example, the second-option rule, and
each response card."""

from __future__ import annotations

import pytest

from judge.game.engine import DecisionKind, IllegalLine
from judge_games.conflict_of_alliances import GAME
from judge_games.conflict_of_alliances import board as B
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


def _attack(alliance_cards: tuple[str, ...] = ("su-qin",)) -> State:
    """The rulebook's response example: Wang Jian and 3 Qin armies attack Li Mu
    and 1 Zhao army defending a city."""
    s = empty()
    put(s, "guanzhong", "qin", 3, generals=["wang-jian"])
    put(s, "xiao-han", "zhao", 1, generals=["li-mu"])
    stance(s, "zhao", "anti-qin")
    deal(s, L, "fan-ju", "han-fei")
    deal(s, A, *alliance_cards)
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 3 wang-jian TO xiao-han")
    return s


def test_the_window_is_offered_whatever_the_hand() -> None:
    """Responses; issue: "a response window is offered to the passive player at
    every moment the rules allow a response ... whether or not they hold such a
    card, so timing never reveals a hand"."""
    s = _attack(("su-qin",))
    (decision,) = GAME.pending(s)
    assert decision.kind is DecisionKind.RESPONSE and decision.window == "before-combat"
    assert decision.roles == (A,)
    assert GAME.legal(s, A) == ["PASS"]
    assert GAME.legal(s, L) == []
    default = GAME.default(s, decision, A)
    assert default is not None and default.text == "PASS"
    with_cards = _attack(("emergency-mobilization", "elite-crossbowmen"))
    assert GAME.pending(with_cards)[0].phase == decision.phase
    assert GAME.view(with_cards, L) == GAME.view(s, L) | {
        "cards": GAME.view(with_cards, L)["cards"]}


def test_the_rulebook_response_example() -> None:
    """Responses: "Before combat is resolved, the Alliance player plays
    Emergency Mobilization face up, and the defender immediately reinforces
    with one Zhao army ... The Alliance player then plays Elite Crossbowmen face
    up, which gains first strike ... the defender deals 3 points of damage and
    eliminates 3 Qin army counters, leaving only Wang Jian. The attacker can then
    deal at most 1 more point of damage ... after this combat the next action
    phase belongs to the Alliance player"."""
    s = _attack(("emergency-mobilization", "elite-crossbowmen", "su-qin"))
    s, events = play(s, A, "RESPOND emergency-mobilization")
    assert counts(s, "xiao-han", "zhao") == (2, 0, {"li-mu": True})
    assert s["stage"] == "window"  # the passive player may respond again
    s, events = play(s, A, "RESPOND elite-crossbowmen")
    assert s["battle"]["def_first"] and s["battle"]["def_drm"] == 2
    # Defender: Li Mu and 2 Zhao in the city, strength 4, +1 Li Mu +2 crossbows
    # -1 Wang Jian's shield = +2: a 4 becomes 6, "2+" with Li Mu: 3 hits.
    s, events = play(s, A, "PASS", dice=[6, 4])
    log = texts(events)
    assert "The defender fires first." in log
    assert "Defender eliminates 3 counters." in log
    assert s["stage"] == "losses"
    s, events = lose(s, {L: "LOSE 3 MOVED"})
    log = texts(events)
    # Wang Jian alone: strength 1; a 6 (no sword) gives 1: "at most 1 more point".
    assert "Attacker eliminates 1 counter." in log
    # The Alliance chooses which of its three defenders is lost.
    assert [d.roles for d in GAME.pending(s)] == [(A,)]
    s, events = lose(s, {A: "LOSE 1 READY"})
    assert s["stage"] == "action" and s["active"] == A
    assert counts(s, "xiao-han", "zhao") == (1, 0, {"li-mu": True})
    # Wang Jian, the only Qin counter left, retreats to Guanzhong.
    assert counts(s, "guanzhong", "qin") == (0, 0, {"wang-jian": False})
    assert s["cards"][A]["discard"][-2:] == [["emergency-mobilization.1", True],
                                             ["elite-crossbowmen.1", True]]


def test_responses_use_only_the_option_after_or() -> None:
    """Responses: "Emergency Mobilization, Elite Crossbowmen and Lord Xinling,
    when played as a response, may only use the second option"."""
    s = _attack(("elite-crossbowmen", "su-qin"))
    with pytest.raises(IllegalLine, match="only use option B"):
        parse(s, A, "RESPOND elite-crossbowmen A")
    parse(s, A, "RESPOND elite-crossbowmen B")
    s["stage"] = "action"
    s["active"] = A
    s["window"] = None
    s["op"] = None
    s["battle"] = None
    with pytest.raises(IllegalLine, match="is a response"):
        parse(s, A, "PLAY elite-crossbowmen FACEUP B")


def test_responses_need_the_break_mark() -> None:
    s = _attack(("su-qin", "mao-sui"))
    with pytest.raises(IllegalLine, match="no Break mark"):
        parse(s, A, "RESPOND su-qin")


def test_the_active_player_may_not_respond() -> None:
    """Responses: "The active player may not respond" -- and is never offered a
    window: playing a character card opens one for the passive player only."""
    s = empty()
    put(s, "guanzhong", "qin", 2)
    deal(s, L, "han-fei", "li-si", "fan-ju")
    deal(s, A, "su-qin", "mao-sui", "guo-wei")
    s, _ = play(s, L, "PLAY han-fei FACEUP")
    (decision,) = GAME.pending(s)
    assert decision.window == "character-card" and decision.roles == (A,)
    with pytest.raises(IllegalLine):
        parse(s, L, "RESPOND li-si")
    s, events = play(s, A, "PASS")
    assert "Lianheng draws 2 cards" in texts(events)
    assert s["active"] == A


def test_li_si_cancels_a_character_card_and_ends_the_phase() -> None:
    """Li Si: "Play if enemy plays character card. Cancel effect. Enemy action
    phase ends"."""
    s = empty()
    s["active"] = A
    stance(s, "qi", "neutral-2")
    deal(s, A, "su-qin", "mao-sui")
    deal(s, L, "li-si", "fan-ju")
    s, _ = play(s, A, "PLAY su-qin FACEUP A qi")
    s, events = play(s, L, "RESPOND li-si")
    assert s["diplomacy"]["qi"]["pos"] == 2  # not moved
    assert "Su Qin is cancelled. Alliance's action phase ends." in texts(events)
    assert s["stage"] == "action" and s["active"] == L
    assert [e[0] for e in s["cards"][A]["discard"]] == ["su-qin.1"]
    assert [e[0] for e in s["cards"][L]["discard"]] == ["li-si.1"]


def test_jing_ke_cancels_and_removes_both_cards() -> None:
    """Jing Ke: "Play if Yan is friendly and enemy plays character card. Cancel
    effect and remove both character cards from the game. Enemy action phase
    ends"."""
    s = empty()
    stance(s, "yan", "afraid-qin")
    stance(s, "qi", "neutral-2")
    put(s, "yan", "yan", 2)
    deal(s, L, "zhang-yi", "fan-ju")
    deal(s, A, "jing-ke", "su-qin")
    s, _ = play(s, L, "PLAY zhang-yi FACEUP A qi")
    s, _events = play(s, A, "RESPOND jing-ke")
    assert s["diplomacy"]["qi"]["pos"] == 2
    assert s["cards"][L]["removed"] == ["zhang-yi.1"]
    assert s["cards"][A]["removed"] == ["jing-ke.1"]
    assert s["active"] == A
    # Without a friendly Yan, Jing Ke cannot answer.
    s2 = empty()
    stance(s2, "yan", "neutral-2")
    put(s2, "yan", "yan", 2)
    deal(s2, L, "zhang-yi", "fan-ju")
    deal(s2, A, "jing-ke", "su-qin")
    s2, _ = play(s2, L, "PLAY zhang-yi FACEUP A yan")
    with pytest.raises(IllegalLine, match="Yan is not friendly"):
        parse(s2, A, "RESPOND jing-ke")


def test_lord_xinling_brings_wei_wuji_to_the_attacked_stack() -> None:
    """Lord Xinling b: "If Wei friendly and a friendly force is attacked. Place
    Wei Wuji with Wei force, move to reinforce attacked stack. Remove Wei Wuji
    after battle"."""
    s = empty()
    put(s, "guanzhong", "qin", 2)
    put(s, "xiao-han", "zhao", 1)
    put(s, "han", "wei", 1)
    stance(s, "zhao", "anti-qin")
    stance(s, "wei", "afraid-qin")
    deal(s, L, "fan-ju")
    deal(s, A, "lord-xinling", "su-qin")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO xiao-han")
    assert "RESPOND lord-xinling FROM han" in GAME.legal(s, A)
    s, events = play(s, A, "RESPOND lord-xinling")
    assert s["generals"]["wei-wuji"] == "map"
    s, events = play(s, A, "PASS", dice=[1, 1])
    log = texts(events)
    # Zhao 1 + Wei Wuji defend the city: strength 3, die 1 +1 (his sword) = 2.
    assert "Zhao defend with 2 (1 army and Wei Wuji), +1 for the city" in log
    assert "defender rolls 1 (+1 = 2)" in log
    assert "Wei Wuji leaves the battlefield" in log
    assert s["generals"]["wei-wuji"] == "off"
    # Not when Wei is Neutral.
    s2 = empty()
    put(s2, "guanzhong", "qin", 2)
    put(s2, "xiao-han", "zhao", 1)
    put(s2, "han", "wei", 1)
    stance(s2, "zhao", "anti-qin")
    stance(s2, "wei", "neutral-2")
    deal(s2, L, "fan-ju")
    deal(s2, A, "lord-xinling", "su-qin")
    s2, _ = play(s2, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO xiao-han")
    with pytest.raises(IllegalLine, match="Wei is not friendly"):
        parse(s2, A, "RESPOND lord-xinling")


def test_emergency_mobilization_defends_whoever_is_attacked() -> None:
    """Emergency Mobilization b: "When defending perform reinforcement operation
    in the space" -- the passive player commands the defender (Combat
    Procedure), here a Neutral force."""
    s = empty()
    put(s, "guanzhong", "qin", 2)
    put(s, "xiao-han", "wei", 1)
    stance(s, "wei", "neutral-2")
    deal(s, L, "fan-ju")
    deal(s, A, "emergency-mobilization", "su-qin")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO xiao-han")
    s, _ = play(s, A, "RESPOND emergency-mobilization")
    assert counts(s, "xiao-han", "wei") == (2, 0, {})


def test_the_lianheng_responds_in_the_alliance_phase() -> None:
    """Both decks carry Break-marked cards: the Lianheng defends with Elite
    Crossbowmen option B when the Alliance attacks."""
    s = empty()
    s["active"] = A
    put(s, "han-dan", "zhao", 3)
    put(s, "wei", "qin", 2)
    stance(s, "zhao", "anti-qin")
    deal(s, A, "su-qin")
    deal(s, L, "elite-crossbowmen", "han-fei")
    s, _ = play(s, A, "PLAY su-qin FACEDOWN MILITARY han-dan zhao 3 TO wei")
    assert GAME.pending(s)[0].roles == (L,)
    s, _ = play(s, L, "RESPOND elite-crossbowmen")
    s, events = play(s, L, "PASS", dice=[1, 6])
    log = texts(events)
    # Qin: 2 in the city, strength 3, 6 (+2 stays 6) -> 2 hits, first.
    assert "The defender fires first." in log
    assert "Defender eliminates 2 counters." in log
    assert B.controller(s, "wei") == "qin"


def test_a_reinforced_stack_chooses_its_defenders_again() -> None:
    """Combat Procedure: all defending counters take part, up to 4 -- so a DEFEND
    choice made before Emergency Mobilization added an army gives way."""
    s = empty()
    put(s, "guanzhong", "qin", 2)
    put(s, "xiao-han", "zhao", 2, 1, generals=["li-mu", "lian-po"])
    stance(s, "zhao", "anti-qin")
    deal(s, L, "fan-ju")
    deal(s, A, "emergency-mobilization", "su-qin")
    s, _ = play(s, L, "PLAY fan-ju FACEDOWN MILITARY guanzhong qin 2 TO xiao-han")
    s, _ = play(s, A, "DEFEND 1 READY 1 TIRED li-mu lian-po LEAD lian-po")
    assert s["battle"]["defend"] is not None
    s, _ = play(s, A, "RESPOND emergency-mobilization")
    assert s["battle"]["defend"] is None
    s, events = play(s, A, "PASS", dice=[1, 1])
    assert "Zhao defend with 4 (2 armies and Li Mu and Lian Po)" in texts(events)
