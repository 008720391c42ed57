"""The decision kernel (judge/game/flow.py, docs/kernel.md): frames and their
call, goto and end; asks, their nesting, suspension and reopening, and their
depth; the pending decisions the kernel derives from the asks; the run-away
guard; one event writer; a state that survives JSON and is rebuilt from the
answers alone. Each test builds a small game of its own on a fresh
:class:`~judge.game.flow.Rules`, as every game does."""

from __future__ import annotations

import json
from typing import Any

import pytest

from judge.game import flow as kernel
from judge.game import registry
from judge.game.engine import Decision, DecisionKind
from judge_games.kingdom_wars.table import RULES, Ctx

Frame = dict[str, Any]
Ask = dict[str, Any]


def fresh(*frames: Frame, seats: tuple[str, ...] = ("A", "B", "C")) -> dict[str, Any]:
    """A kernel state: the frames to run (the first runs first), no ask yet."""
    return {"seats": list(seats), "todo": [dict(f) for f in reversed(frames)], "asks": [],
            "serial": 0, "trace": [], "over": False}


def make_rules() -> tuple[kernel.Rules[Any], type[kernel.Ctx]]:
    """A toy game: ``say`` notes a word; ``pair`` calls two ``say`` frames and
    goes on as ``say`` of its last word; ``skip`` ends the call of ``pair``
    early; ``loop`` never stops; ``stop`` ends the game."""
    rules: kernel.Rules[Any] = kernel.Rules("Toy", playing=lambda s: not s["over"], limit=500)

    class Toy(kernel.Ctx):
        pass

    Toy.rules = rules

    @rules.state("say")
    def _say(g: kernel.Ctx, f: Frame) -> None:
        g.s["trace"].append(f["word"])

    @rules.state("pair")
    def _pair(g: kernel.Ctx, f: Frame) -> None:
        g.s["trace"].append(f"pair:{f['a']}+{f['b']}")
        g.goto({"t": "say", "word": f"after-{f['b']}"})
        g.call({"t": "say", "word": f["a"]}, {"t": "say", "word": f["b"]})

    @rules.state("skip")
    def _skip(g: kernel.Ctx, f: Frame) -> None:
        g.s["trace"].append("skip")
        g.end(f["to"])

    @rules.state("loop")
    def _loop(g: kernel.Ctx, f: Frame) -> None:
        g.call({"t": "loop"})

    @rules.state("stop")
    def _stop(g: kernel.Ctx, f: Frame) -> None:
        g.s["over"] = True
        g.end()

    # A window: ``window`` asks every seat in turn whether to OBJECT. An
    # objection suspends it and opens a nested ``confirm`` ask of the
    # objector; once that is answered the window reopens for the others.
    @rules.state("window")
    def _window(g: kernel.Ctx, f: Frame) -> None:
        g.ask("object", g.everyone(), f"objections to {f['what']}", then={"t": "say", "word":
                                                                          "window-closed"})

    @rules.answer("object")
    def _object(g: kernel.Ctx, ask: Ask, role: str, cmd: dict[str, Any]) -> None:
        ask["roles"] = [r for r in ask["roles"] if r != role]
        if cmd["verb"] == "PASS":
            if not ask["roles"]:
                g.pop_ask(ask)
                g.call(ask["then"])
            return
        g.suspend(ask)
        g.ask("confirm", [role], f"{role} confirms the objection",
              then={"t": "say", "word": f"objection-{role}"})

    @rules.answer("confirm")
    def _confirm(g: kernel.Ctx, ask: Ask, role: str, cmd: dict[str, Any]) -> None:
        g.pop_ask(ask)
        g.call(ask["then"])

    @rules.on_resume
    def _resume(g: kernel.Ctx, ask: Ask) -> None:
        g.s["trace"].append(f"resume-{ask['serial']}")

    @rules.on_close
    def _close(g: kernel.Ctx, ask: Ask) -> None:
        g.call(ask["then"])

    return rules, Toy


def describe(ask: Ask, depth: int) -> Decision:
    kind = DecisionKind.RESPONSE if ask["kind"] == "object" else DecisionKind.ACTION
    return Decision(kind, tuple(ask["roles"]), f"#{ask['serial']}: {ask['what']}",
                    default="pass", depth=depth)


def answer(rules: kernel.Rules[Any], ctx: type[kernel.Ctx], state: dict[str, Any], role: str,
           verb: str) -> kernel.Ctx:
    """``role`` answers the ask it faces with ``verb``; the game runs on."""
    g = ctx(state)
    ask = rules.ask_for(state, role)
    assert ask is not None, f"{role} is asked nothing"
    rules.respond(g, ask, role, {"verb": verb})
    rules.run(g)
    return g


# --------------------------------------------------------------------------- frames


def test_call_runs_frames_in_order_before_what_waits() -> None:
    rules, Toy = make_rules()
    s = fresh({"t": "pair", "a": "x", "b": "y"}, {"t": "say", "word": "last"}, {"t": "stop"})
    rules.run(Toy(s))
    # pair calls x then y; it goes on as after-y once they end; then what waited.
    assert s["trace"] == ["pair:x+y", "x", "y", "after-y", "last"]
    assert s["over"] and s["todo"] == []


def test_goto_goes_on_where_the_frame_stood() -> None:
    _, Toy = make_rules()
    g = Toy(fresh())
    g.call({"t": "say", "word": "below"})
    g.goto({"t": "say", "word": "instead"})
    assert [f["word"] for f in reversed(g.frames())] == ["instead", "below"]


def test_end_returns_early_from_a_call() -> None:
    rules, Toy = make_rules()
    s = fresh({"t": "skip", "to": "marker"}, {"t": "say", "word": "dropped"},
              {"t": "marker"}, {"t": "say", "word": "kept"}, {"t": "stop"})
    rules.state("marker")(lambda g, f: g.s["trace"].append("marker ran"))
    rules.run(Toy(s))
    assert s["trace"] == ["skip", "kept"]
    with pytest.raises(KeyError, match="no frame of state 'absent'"):
        Toy(fresh()).end("absent")


def test_frames_name_registered_states_of_their_own_game() -> None:
    rules, Toy = make_rules()
    other, Other = make_rules()
    assert rules.steps is not other.steps  # a registry per game, not one for all
    rules.state("only-here")(lambda g, f: None)
    Toy(fresh()).call({"t": "only-here"})
    with pytest.raises(KeyError, match="no state 'only-here'"):
        Other(fresh()).call({"t": "only-here"})
    with pytest.raises(ValueError, match="registered twice"):
        rules.state("say")(lambda g, f: None)
    with pytest.raises(ValueError, match="registered twice"):
        rules.answer("object")(lambda g, a, r, c: None)


def test_run_away_rules_are_stopped() -> None:
    rules, Toy = make_rules()
    with pytest.raises(RuntimeError, match="Toy: the rules ran away"):
        rules.run(Toy(fresh({"t": "loop"})))
    with pytest.raises(RuntimeError, match="Toy: nothing left to do and nobody asked"):
        rules.run(Toy(fresh({"t": "say", "word": "w"})))


# --------------------------------------------------------------------------- asks and depth


def test_nested_window_suspends_and_reopens_with_depth() -> None:
    rules, Toy = make_rules()
    s = fresh({"t": "window", "what": "the spell"}, {"t": "stop"})
    rules.run(Toy(s))
    [(depth, window)] = rules.waiting(s)
    assert depth == 0 and window["roles"] == ["A", "B", "C"] and window["open"]
    assert [d.depth for d in rules.pending(s, describe)] == [0]

    answer(rules, Toy, s, "A", "PASS")
    answer(rules, Toy, s, "B", "OBJECT")
    # The window waits below, closed, keeping C's turn; B's confirmation is open above it.
    assert [(d.depth, d.roles) for d in rules.pending(s, describe)] == [(0, ("C",)), (1, ("B",))]
    assert rules.open_depth(s) == 1
    assert not window["open"] and s["asks"][0]["serial"] == window["serial"]
    assert rules.ask_for(s, "C") is None and rules.ask_for(s, "B") is not None
    g = Toy(s)
    asks = s["asks"]
    assert g.depth(g.top() or {}) == 1 and g.ask_of(window["serial"]) is asks[0]

    answer(rules, Toy, s, "B", "CONFIRM")
    assert s["trace"] == ["objection-B", f"resume-{window['serial']}"]
    assert [(d.depth, d.roles) for d in rules.pending(s, describe)] == [(0, ("C",))]
    assert s["asks"][0]["open"] and rules.ask_for(s, "C") is s["asks"][0]

    answer(rules, Toy, s, "C", "PASS")
    assert s["trace"][-1] == "window-closed" and s["over"]
    assert rules.pending(s, describe) == [] and rules.open_depth(s) is None


def test_suspended_window_nobody_is_left_to_answer_closes() -> None:
    rules, Toy = make_rules()
    s = fresh({"t": "window", "what": "the spell"}, {"t": "stop"}, seats=("A", "B"))
    rules.run(Toy(s))
    answer(rules, Toy, s, "A", "PASS")
    answer(rules, Toy, s, "B", "OBJECT")  # the last seat asked: the window keeps no role
    assert [(d.depth, d.roles) for d in rules.pending(s, describe)] == [(1, ("B",))]
    answer(rules, Toy, s, "B", "CONFIRM")
    # Reopened with nobody to ask, the window comes off the stack; the game's close hook runs.
    assert s["trace"] == ["objection-B", "resume-1", "window-closed"] and s["asks"] == []


def test_events_one_writer() -> None:
    _, Toy = make_rules()
    g = Toy(fresh())
    g.pub("all", n=1)
    g.only("B", "for B")
    g.split(["A", "C"], "you see it", "somebody sees it")
    assert [(e.text, e.audience) for e in g.events] == [
        ("all", None), ("for B", frozenset({"B"})), ("you see it", frozenset({"A", "C"})),
        ("somebody sees it", frozenset({"B"}))]
    assert g.events[0].data == {"n": 1}


# --------------------------------------------------------------------------- state as data


SCRIPT = [("A", "PASS"), ("B", "OBJECT"), ("B", "CONFIRM"), ("C", "OBJECT"), ("C", "CONFIRM")]


def test_state_round_trips_through_json_at_every_step() -> None:
    """Stopping anywhere, the state is plain JSON: going on from its JSON copy
    gives the same state and events as going on from the state itself."""
    rules, Toy = make_rules()
    s = fresh({"t": "window", "what": "a"}, {"t": "window", "what": "b"}, {"t": "stop"})
    rules.run(Toy(s))
    script = [*SCRIPT, ("A", "PASS"), ("B", "PASS"), ("C", "PASS")]
    for role, verb in script:
        copy = json.loads(json.dumps(s))
        assert copy == s
        g1, g2 = answer(rules, Toy, s, role, verb), answer(rules, Toy, copy, role, verb)
        assert copy == s and g1.events == g2.events
    assert s["over"]


def test_state_is_rebuilt_from_the_answers_alone() -> None:
    rules, Toy = make_rules()
    start = fresh({"t": "window", "what": "a"}, {"t": "stop"})
    rules.run(Toy(start))
    first = json.loads(json.dumps(start))
    log: list[tuple[str, str]] = []
    s = json.loads(json.dumps(start))
    for role, verb in SCRIPT:
        answer(rules, Toy, s, role, verb)
        log.append((role, verb))
    rebuilt = json.loads(json.dumps(first))
    for role, verb in log:
        answer(rules, Toy, rebuilt, role, verb)
    assert rebuilt == s and s["over"]
    assert s["trace"] == ["objection-B", "resume-1", "objection-C", "resume-1",
                          "window-closed"]


# --------------------------------------------------------------------------- the games on it


def test_kingdom_wars_runs_on_the_kernel() -> None:
    game = registry.get("kingdom_wars")
    assert kernel.kernel_of(game) is RULES and Ctx.rules is RULES
    assert kernel.REOPEN in RULES.steps and "turn" in RULES.steps
    assert {"play", "reveal", "choose", "cards", "respond", "negate", "trigger"} <= set(
        RULES.answers)
    assert kernel.kernel_of(registry.get("classic")) is None
