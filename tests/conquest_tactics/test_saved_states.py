"""States saved before Conquest Tactics ran on the decision kernel still load
and play on exactly as they did.

``data/saved_states.json`` was written by the game as it stood before the
port (``python -m tests.conquest_tactics.test_saved_states`` writes it): a
few games played through the game object from a fixed seed, each line chosen
at random among the legal ones (or the decision's default), and at each step
the digest of what the step made -- the pending decisions, the views (what
the reports show each player and an observer), the events, the state
(without the kernel's own ``todo`` and ``asks``) -- plus, for a few steps,
the whole saved state of the old shape and what came of it.

The test plays the same games again and compares every digest; and it loads
each saved state of the old shape (a ``stage`` and no frames), lists its
decisions and carries out the recorded line, as a game stored by a judge of
before the port would be.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

from judge.game.engine import Decision, Event, live
from judge.game.rng import Rng
from judge_games.conquest_tactics import GAME
from judge_games.conquest_tactics.game import PLAN_NOTE, UP_NOTE
from judge_games.conquest_tactics.rules import MOBILIZE_VERBS
from judge_games.conquest_tactics.table import RULES

DATA = Path(__file__).parent / "data" / "saved_states.json"
KERNEL_KEYS = ("todo", "asks")
VIEWERS = ("South", "North", None)
"""The decision kernel's own keys: not in a state saved before the port."""

GAMES: tuple[tuple[int, dict[str, Any]], ...] = (
    (1, {"turn_limit": 4}),
    (2, {"south": "kaborha", "north": "gunget", "turn_limit": 4}),
    (3, {"south": "gunget", "north": "humans", "turn_limit": 3}),
    (4, {"decks": "submitted", "turn_limit": 2}),
)


def _decision(d: Decision) -> dict[str, Any]:
    # The Play request's word on a plan written ahead, and the Up the Field
    # request's on the Mobilize written ahead, came after the port: the
    # decisions are the same.
    prompt = d.prompt.replace(PLAN_NOTE, "").replace(
        UP_NOTE, "; Mobilize lines written now are held for the Mobilize")
    return {"kind": str(d.kind), "roles": list(d.roles), "phase": d.phase, "prompt": prompt,
            "default": d.default, "window": d.window, "depth": d.depth,
            "context": d.context}


def _events(events: list[Event]) -> list[Any]:
    return [e.to_json() for e in events]


def _unplanned(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` without what came after the port for plans written ahead
    (``touched``, the action's ``before``: no rule reads them)."""
    out = {k: v for k, v in state.items() if k != "touched"}
    if isinstance(out.get("action"), dict):
        out["action"] = {k: v for k, v in out["action"].items() if k != "before"}
    return out


def _bare(state: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in _unplanned(state).items() if k not in KERNEL_KEYS}


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def play(seed: int, options: dict[str, Any], keep: set[str], *,
         whole: bool = False) -> list[dict[str, Any]]:
    """One game: the steps it took, each with its digests; a step whose
    stage is in ``keep`` (each stage once) carries the state before it
    (``whole``: with the kernel's frames and asks too)."""
    pick = random.Random(seed)
    rng = Rng(bytes([seed]) * 32, 0)
    state = GAME.setup(options, rng)
    steps: list[dict[str, Any]] = []
    for n in range(3000):
        if GAME.outcome(state) is not None:
            break
        pending = GAME.pending(state)
        step: dict[str, Any] = {"n": n, "pending": _digest([_decision(d) for d in pending]),
                                "views": _digest([GAME.view(state, r) for r in VIEWERS])}
        stage = str(state["stage"])
        tag = stage if stage != "window" else f"window:{state['window']['step']}"
        if tag in keep:
            keep.discard(tag)
            step["saved"] = _bare(json.loads(json.dumps(state)))
            step["decisions"] = [_decision(d) for d in pending]
            step["counter"] = rng.counter
            if whole:
                step["whole"] = _unplanned(json.loads(json.dumps(state)))
        d = live(pending)[0]
        if stage in ("decks", "forces"):
            state, events = GAME.resolve(state, {}, rng)
            step["line"] = None
        else:
            role = d.roles[0]
            legal = GAME.legal(state, role)
            if stage == "up":  # the Mobilize lines listed in Up the Field came after the port
                legal = [x for x in legal if x.split()[0] not in MOBILIZE_VERBS]
            step["legal"] = _digest(legal)
            default = GAME.default(state, d, role)
            if default is not None and pick.random() < 0.3:
                action = default
            else:
                action = GAME.parse(state, role, pick.choice(legal))
            step["role"], step["line"] = role, action.text
            state, events = GAME.act(state, role, action, rng)
        step["events"] = _digest(_events(events))
        step["state"] = _digest(_bare(state))
        if "saved" in step:
            step["after"] = _bare(json.loads(json.dumps(state)))
        steps.append(step)
    return steps


def stages() -> set[str]:
    return {"decks", "forces", "deploy", "up", "mobilize", "play", "follow", "window:defend",
            "window:counter"}


def test_saved_games_play_on_as_before() -> None:
    """The same games, line for line: every decision, event and state as the
    game made them before the port."""
    saved = json.loads(DATA.read_text())
    for (seed, options), old in zip(GAMES, saved["games"], strict=True):
        new = play(seed, options, set())
        for a, b in zip(old["steps"], new, strict=True):
            for k in ("pending", "views", "legal", "line", "events", "state"):
                assert a.get(k) == b.get(k), (seed, a["n"], k)


def test_a_state_saved_before_the_port_loads() -> None:
    """A state of the old shape (``stage`` and no frames) is read as the
    very frames and asks the kernel leaves at that point of the same game,
    lists the same decisions and goes on from the recorded line as it did."""
    saved = json.loads(DATA.read_text())
    seen = set()
    keep = stages()
    for (seed_n, options), game in zip(GAMES, saved["games"], strict=True):
        seed = bytes([game["seed"]]) * 32
        now = {step["n"]: step for step in play(seed_n, options, keep, whole=True)}
        for step in game["steps"]:
            if "saved" not in step:
                continue
            state = step["saved"]
            assert _unplanned(RULES.current(state)) == now[step["n"]]["whole"], state["stage"]
            assert not set(KERNEL_KEYS) & set(state)
            seen.add(state["stage"])
            assert [_decision(d) for d in GAME.pending(state)] == step["decisions"]
            rng = Rng(seed, step["counter"])
            if step["line"] is None:
                after, _ = GAME.resolve(state, {}, rng)
            else:
                action = GAME.parse(state, step["role"], step["line"])
                after, _ = GAME.act(state, step["role"], action, rng)
            assert "todo" not in state  # the saved state itself is not changed
            assert _bare(after) == step["after"], (state["stage"], step["line"])
    assert {"decks", "forces", "deploy", "up", "mobilize", "play", "follow", "window"} <= seen


def write() -> None:
    keep = stages()
    games = []
    for seed, options in GAMES:
        games.append({"seed": seed, "options": options, "steps": play(seed, options, keep)})
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps({"games": games}, indent=None, sort_keys=True) + "\n")
    print(f"wrote {DATA}; stages not met: {sorted(keep)}", file=sys.stderr)


if __name__ == "__main__":
    write()
