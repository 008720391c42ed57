"""The phase a report names is the decision it asks for."""

from __future__ import annotations

from judge.game.engine import DecisionKind, live
from judge.game.rng import Rng
from judge_games.conquest_tactics import GAME


def test_every_report_names_the_decision_it_asks_for() -> None:
    """A Mobilize is one decision of both players for all the lines they
    send until DONE; its reports once named it "turn 1 Mobilize #15" (a
    counter that moves with every line) while the decision was "turn 1
    Mobilize", so a reader could not match a request to its decision."""
    rng = Rng(bytes(32), 0)
    state = GAME.setup({}, rng)
    state, _ = GAME.resolve(state, {}, rng)
    seen = set()
    for _ in range(400):
        d = live(GAME.pending(state))[0]
        if state["turn"] > 1:
            break
        seen.add(state["stage"])
        for role in d.roles:
            assert GAME.view(state, role)["phase"] == d.phase, (state["stage"], d.phase)
        role = d.roles[0]
        line = "DONE" if state["stage"] == "mobilize" else GAME.legal(state, role)[-1]
        if d.kind is DecisionKind.ACTION and state["stage"] == "mobilize":
            deploys = [x for x in GAME.legal(state, role) if x.startswith("DEPLOY ")
                       and " DISCARD " not in x]
            line = deploys[0] if deploys else "DONE"
            before = d.phase
            state, _ = GAME.act(state, role, GAME.parse(state, role, line), rng)
            if state["stage"] == "mobilize":
                assert live(GAME.pending(state))[0].phase == before
            continue
        state, _ = GAME.act(state, role, GAME.parse(state, role, line), rng)
    assert {"deploy", "up", "mobilize", "play"} <= seen, seen
