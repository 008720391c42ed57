"""The kernel's small operations on frames and asks (judge/game/flow.py,
docs/kernel.md), through which a game's rules change the ``todo`` and
``asks`` stacks instead of reaching into them: finding a waiting frame and
calling frames right after it, numbering, answering, dismissing, holding and
reopening an ask, withdrawing a role from every window, and stopping."""

from __future__ import annotations

from typing import Any

import pytest

from judge.game import flow as kernel

Frame = dict[str, Any]


def toy() -> tuple[kernel.Rules[Any], type[kernel.Ctx]]:
    """``say`` notes a word in the trace; nothing else."""
    rules: kernel.Rules[Any] = kernel.Rules("Toy", playing=lambda s: not s["over"])

    class Toy(kernel.Ctx):
        pass

    Toy.rules = rules

    @rules.state("say")
    def _say(g: kernel.Ctx, f: Frame) -> None:
        g.s["trace"].append(f["word"])

    return rules, Toy


def state(*frames: Frame) -> dict[str, Any]:
    """The frames given run first to last; no ask yet."""
    return {"seats": ["A", "B", "C"], "todo": [dict(f) for f in reversed(frames)],
            "asks": [], "serial": 0, "trace": [], "over": False}


def say(word: str, **data: Any) -> Frame:
    return {"t": "say", "word": word, **data}


def test_find_frame_gives_the_nearest_frame_whose_data_match() -> None:
    rules, Toy = toy()
    g = Toy(state(say("a", seat="A"), say("b", seat="B"), say("c", seat="A")))
    first = g.find_frame("say", seat="A")
    assert first is not None and first["word"] == "a"  # the next to run, not the one below
    found = g.find_frame("say", seat="B")
    assert found is not None and found["word"] == "b"
    assert g.find_frame("say", seat="D") is None
    assert g.find_frame("draw") is None
    found["word"] = "B!"  # the game may change a waiting frame before it runs
    with pytest.raises(RuntimeError):  # nothing left to do and nobody asked
        rules.run(g)
    assert g.s["trace"] == ["a", "B!", "c"]


def test_call_after_runs_frames_right_after_a_waiting_frame() -> None:
    rules, Toy = toy()
    g = Toy(state(say("draw", seat="A"), say("play", seat="A")))
    draw = g.find_frame("say", word="draw")
    assert draw is not None
    g.call_after(draw, say("give-1"), say("give-2"))
    g.call(say("first"))
    with pytest.raises(RuntimeError):
        rules.run(g)
    assert g.s["trace"] == ["first", "draw", "give-1", "give-2", "play"]


def test_call_after_refuses_a_frame_that_does_not_wait_or_an_unknown_state() -> None:
    _, Toy = toy()
    g = Toy(state(say("a")))
    with pytest.raises(KeyError):
        g.call_after(say("a"), say("b"))  # equal, but not the waiting frame itself
    waiting = g.find_frame("say")
    assert waiting is not None
    with pytest.raises(KeyError):
        g.call_after(waiting, {"t": "nowhere"})
    assert g.frames() == [say("a")]


def test_next_serial_shares_the_count_with_asks() -> None:
    _, Toy = toy()
    g = Toy(state())
    assert g.next_serial() == 1
    a = g.ask("object", ["A"], "objections")
    assert a["serial"] == 2
    assert g.next_serial() == 3
    assert g.ask("object", ["B"], "more")["serial"] == 4


def test_answered_dismiss_and_withdraw_change_who_is_asked() -> None:
    rules, Toy = toy()
    g = Toy(state())
    outer = g.ask("object", ["A", "B", "C"], "outer")
    inner = g.ask("object", ["B", "C"], "inner")
    g.answered(inner, "B")
    assert inner["roles"] == ["C"] and outer["roles"] == ["A", "B", "C"]
    g.withdraw("C")  # C has left the game: no window asks it
    assert inner["roles"] == [] and outer["roles"] == ["A", "B"]
    assert [a["serial"] for _, a in rules.waiting(g.s)] == [outer["serial"]]
    g.dismiss(outer)
    assert outer["roles"] == [] and rules.waiting(g.s) == []
    assert [a["serial"] for a in rules.stack(g.s)] == [outer["serial"], inner["serial"]]


def test_hold_and_reopen_decide_whether_the_top_ask_takes_answers() -> None:
    rules, Toy = toy()
    g = Toy(state(say("after")))
    a = g.ask("object", ["A"], "objections")
    assert rules.ask_for(g.s, "A") is a
    g.hold(a)
    assert rules.ask_for(g.s, "A") is None
    assert g.frames() == [say("after")]  # no kernel frame reopens a held ask
    g.reopen(a)
    assert rules.ask_for(g.s, "A") is a
    rules.run(g)  # the open top ask stops the run
    assert g.s["trace"] == []


def test_stop_drops_every_frame_and_ask() -> None:
    rules, Toy = toy()
    g = Toy(state(say("a"), say("b")))
    g.ask("object", ["A"], "objections")
    g.stop()
    assert g.frames() == [] and rules.stack(g.s) == () and rules.top(g.s) is None
    assert rules.pending(g.s, lambda a, d: pytest.fail("nothing is pending")) == []


def test_stack_is_a_copy_to_read() -> None:
    rules, Toy = toy()
    g = Toy(state())
    g.ask("object", ["A"], "objections")
    seen = rules.stack(g.s)
    g.ask("object", ["B"], "more")
    assert len(seen) == 1 and len(rules.stack(g.s)) == 2
