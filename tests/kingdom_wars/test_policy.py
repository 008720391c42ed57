"""Standing answers for Kingdom Wars windows (judge_games/kingdom_wars/policy.py):
the conditions the issue names ("play a Dodge when attacked while I hold one;
never Negate unless a spell targets me or my kingdom; Peach a dying seat of my
kingdom or myself"), each tested on the seat's own view and the window's
public context, and the default "ask me when I can answer"."""

from __future__ import annotations

import pytest

from bench.support.kingdom_wars import (
    answer,
    copy_of,
    decision,
    open_ask,
    play,
    skip_idle,
    table,
)
from judge.game import timing
from judge.game.engine import Decision, DecisionKind, IllegalLine, State
from judge_games.kingdom_wars import GAME, policy

GENS = {"A": ("cao-cao", "xu-chu"), "B": ("liu-bei", "guan-yu"),
        "C": ("zhang-fei", "zhao-yun"), "D": ("lv-bu", "diao-chan")}


def holds(state: State, role: str, window: str, words: str) -> bool:
    cond = GAME.policy_condition(window, words.split())
    return GAME.policy_holds(GAME.view(state, role), decision(state), cond)


def test_conditions_are_canonical_and_checked() -> None:
    assert GAME.policy_condition("dodge", ["holding", "dodge"]) == "HOLDING 1 Dodge"
    assert GAME.policy_condition("negation", ["TARGET", "kingdom", "AND", "can"]) == (
        "TARGET KINGDOM AND CAN")
    assert GAME.policy_condition("rescue", ["DYING", "me"]) == "DYING ME"
    with pytest.raises(IllegalLine, match="not a condition"):
        GAME.policy_condition("dodge", ["DYING", "ME"])
    with pytest.raises(IllegalLine, match="not a card"):
        GAME.policy_condition("dodge", ["HOLDING", "2", "Kumquat"])


def test_dodge_when_attacked_while_holding_one() -> None:
    s = table(GENS, hands={"A": [copy_of("attack", "spades", 7)], "B": [copy_of("dodge")]})
    s, _ = play(s, "A", "USE Attack S7 ON B")
    assert holds(s, "B", "dodge", "HOLDING Dodge") and holds(s, "B", "dodge", "CAN")
    assert not holds(s, "B", "dodge", "HOLDING 2 Dodge")
    s2 = table(GENS, hands={"A": [copy_of("attack", "spades", 7)]})
    s2, _ = play(s2, "A", "USE Attack S7 ON B")
    assert not holds(s2, "B", "dodge", "CAN")  # nothing to answer with: the default passes


def test_negate_only_what_targets_me_or_my_kingdom() -> None:
    """B and C are exposed Shu: a spell on C targets B's kingdom; one on D does
    not."""
    s = table(GENS, hands={"A": [copy_of("duel"), copy_of("burning-bridges")],
                           "B": [copy_of("negation")],
                           "D": [copy_of("peach")]},
              shown={"B": ["main"], "C": ["main"]})
    s1, _ = play(s, "A", "USE Duel ON C")
    assert holds(s1, "B", "negation", "TARGET KINGDOM")
    assert not holds(s1, "B", "negation", "TARGET ME")
    assert holds(s1, "B", "negation", "TARGET OTHER") is False
    s2, _ = play(s, "A", "USE Burning Bridges ON D")
    assert not holds(s2, "B", "negation", "TARGET KINGDOM")
    assert holds(s2, "B", "negation", "BY ME") is False and holds(s2, "A", "negation", "BY ME")
    assert holds(s2, "B", "negation", "CARD Burning Bridges")


def test_a_hidden_seat_counts_its_generals_kingdom_as_its_own() -> None:
    """B is hidden with two Shu generals, C an exposed Shu: a spell on C
    targets B's kingdom, not another force (it once counted as both)."""
    s = table(GENS, hands={"A": [copy_of("duel")], "B": [copy_of("negation")]},
              shown={"C": ["main"]})
    s, _ = play(s, "A", "USE Duel ON C")
    assert holds(s, "B", "negation", "TARGET KINGDOM")
    assert not holds(s, "B", "negation", "TARGET OTHER")
    assert holds(s, "B", "negation", "BY OTHER") is False  # A is hidden: no known force


def test_peach_a_dying_seat_of_my_kingdom_or_myself() -> None:
    s = table(GENS, hands={"A": [copy_of("attack", "spades", 7)], "B": [copy_of("peach")]},
              shown={"B": ["main"], "C": ["main"]}, hp={"C": 1}, turn="A")
    # A cannot reach C (distance 2): hurt C by hand to open the rescue window
    from bench.support.kingdom_wars import rng
    from judge_games.kingdom_wars import flow
    from judge_games.kingdom_wars.table import Ctx

    g = Ctx(s, rng(5))
    s["asks"].clear()
    g.push({"t": "play", "seat": "A"})
    flow.damage(g, "A", "C", 1)
    flow.run(g)
    s, _ = skip_idle(s)  # the trigger windows of seats with no skill for them
    assert open_ask(s)["window"] == "rescue"
    assert holds(s, "B", "rescue", "DYING KINGDOM") and not holds(s, "B", "rescue", "DYING ME")
    assert holds(s, "C", "rescue", "DYING ME") and holds(s, "B", "rescue", "CAN")
    s, _ = answer(s, {"B": ["PEACH"]})
    assert s["p"]["C"]["hp"] == 1


def test_every_seat_starts_with_answers_not_questions() -> None:
    """The default standing answers (policy.defaults, each citing the
    rulebook): an answer for every kind of window but the trigger, and the
    trigger asked only of a seat with no hidden general (policy.may_ask)."""
    got = GAME.standing_answers({}, "A")
    kinds = {w.kind for w in policy.WINDOWS}
    assert kinds == {"negation", "dodge", "attack", "rescue", "trigger"}
    assert [(k, a) for k, a, _ in got if a == "ASK"] == [("trigger", "ASK")]
    assert ("dodge", "DODGE", "") in got and ("attack", "ATTACK", "") in got
    assert ("negation", "NEGATE", "TARGET ME AND HARMFUL AND DEPTH 1") in got
    assert ("rescue", "PEACH", "DYING ME") in got
    for kind, _answer, when in got:  # each reads as a POLICY line would
        if when:
            assert GAME.policy_condition(kind, when.split()) == when


def _window(kind: str, want: str, role: str) -> Decision:
    return Decision(DecisionKind.RESPONSE, (role,), "a window", window=kind,
                    context={"want": want, "moment": "damaged", "seat": role})


def test_who_may_be_asked_by_hand_is_judged_on_public_facts() -> None:
    """policy.may_ask (judge/game/timing.py): B has both generals exposed and no
    hand card, so nothing it has answers a Dodge (a question whose only
    answer is a pass is never asked); C, as empty-handed, has a hidden
    general, so it may be asked (what that general makes is not public).
    A trigger window is asked of B (exposed), never of C (hidden: its
    skills answer by standing answers only). In a Death Match nobody is
    asked for a Peach ("[Peach] can only be used or played as [Attack] or
    [Dodge]")."""
    s = table(GENS, hands={"A": [copy_of("attack", "spades", 7)], "B": [], "C": []},
              shown={"B": ["main"]})
    s["p"]["B"]["shown"] = [True, True]  # Liu Bei and Guan Yu both exposed
    assert not s["p"]["B"]["hand"] and not s["p"]["C"]["hand"]
    assert not GAME.may_ask(s, _window("dodge", "dodge", "B"), "B")
    assert GAME.may_ask(s, _window("dodge", "dodge", "C"), "C")
    assert GAME.may_ask(s, _window("trigger", "skill", "B"), "B")
    assert not GAME.may_ask(s, _window("trigger", "skill", "C"), "C")
    assert GAME.may_ask(s, _window("rescue", "peach", "A"), "A")
    s["death_match"] = True
    assert not GAME.may_ask(s, _window("rescue", "peach", "A"), "A")


def test_ask_only_on_what_every_seat_sees() -> None:
    """ASK under CAN, HOLDING, or KINGDOM/OTHER (one's kingdom may be hidden)
    is refused, saying why and what would do; under public conditions, and
    any answer under any condition, it is taken."""
    for window, cond in (("dodge", "CAN"), ("rescue", "HOLDING 1 Peach"),
                         ("negation", "TARGET ME AND CAN"), ("negation", "TARGET KINGDOM"),
                         ("rescue", "NOT DYING OTHER")):
        with pytest.raises(IllegalLine, match="only you can see") as got:
            timing.check_policy(GAME, window, "ASK", cond)
        assert f"POLICY {window} <answer> WHEN {cond}" in got.value.hint
    for window, answer_text, cond in (("negation", "ASK", "TARGET ME AND HARMFUL"),
                                      ("rescue", "ASK", "DYING ME"),
                                      ("trigger", "ASK", "MOMENT damaged"),
                                      ("dodge", "DODGE", "CAN AND BY OTHER")):
        timing.check_policy(GAME, window, answer_text, cond)
