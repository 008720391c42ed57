"""The decision kernel's two hooks for a game that came to it with states of
its own (judge/game/flow.py, docs/kernel.md): its own decision numbers as the
asks' serials (``Ctx.next_serial``), and a state stored without frames read
as the frames and asks it stood for (``Rules(current=...)``)."""

from __future__ import annotations

from typing import Any

from judge.game import flow
from judge.game.engine import Decision, DecisionKind


def _rules() -> tuple[flow.Rules[Any], type[flow.Ctx]]:
    """A toy game whose old states kept only ``waiting_for`` (a seat): the
    seat is asked ``go`` under the game's own decision number ``n``."""

    def current(s: flow.State) -> flow.State:
        if "asks" in s:
            return s
        return dict(s, todo=[], asks=[{"kind": "go", "roles": [s["waiting_for"]], "what": "go",
                                       "serial": s["n"], "open": True}])

    rules: flow.Rules[Any] = flow.Rules("Old", current=current)

    class Old(flow.Ctx):
        def next_serial(self) -> int:
            self.s["n"] += 10
            n: int = self.s["n"]
            return n

    Old.rules = rules

    @rules.state("turn")
    def _turn(g: flow.Ctx, f: flow.Frame) -> None:
        g.ask("go", [f["seat"]], "go")

    @rules.answer("go")
    def _go(g: flow.Ctx, ask: flow.Ask, role: str, cmd: flow.Cmd) -> None:
        g.pop_ask(ask)
        g.call({"t": "turn", "seat": "B" if role == "A" else "A"})

    return rules, Old


def _describe(ask: flow.Ask, depth: int) -> Decision:
    return Decision(DecisionKind.ACTION, tuple(ask["roles"]), f"go #{ask['serial']}",
                    depth=depth)


def test_a_game_numbers_its_asks_itself() -> None:
    rules, Old = _rules()
    s: flow.State = {"seats": ["A", "B"], "todo": [{"t": "turn", "seat": "A"}], "asks": [],
                     "serial": 0, "n": 5}
    g = Old(s)
    rules.run(g)
    assert [a["serial"] for a in s["asks"]] == [15] and s["serial"] == 0
    rules.respond(g, s["asks"][0], "A", {})
    rules.run(g)
    assert [(a["roles"], a["serial"]) for a in s["asks"]] == [(["B"], 25)]


def test_a_state_stored_without_frames_is_read_as_it_stood() -> None:
    """Whoever reads the state through the kernel (the judge's open depth,
    the pending decisions, who answers) sees the ask the old state stood
    for; the stored state itself is not changed."""
    rules, _ = _rules()
    old: flow.State = {"seats": ["A", "B"], "waiting_for": "B", "n": 7, "serial": 0}
    assert rules.pending(old, _describe) == [
        Decision(DecisionKind.ACTION, ("B",), "go #7", depth=0)]
    assert rules.open_depth(old) == 0
    top = rules.ask_for(old, "B")
    assert top is not None and top["serial"] == 7 and rules.ask_for(old, "A") is None
    assert "asks" not in old
