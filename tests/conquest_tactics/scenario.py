"""Positions for the rule tests: a game set up with starter decks, then the
field cleared and the pieces put where a test wants them (spaces in South's
frame), with the hands, points and stage it names."""

from __future__ import annotations

from typing import Any

from judge.game.engine import Event, copy_state
from judge.game.rng import Rng
from judge_games.conquest_tactics import GAME, rules
from judge_games.conquest_tactics.table import Ctx

SEED = bytes(range(32))


def rng() -> Rng:
    return Rng(SEED, 0)


def table(stage: str = "play", *, south: str = "humans", north: str = "malice",
          tp: tuple[int, int] = (5, 5), turn: int = 1,
          initiative: str = "South") -> dict[str, Any]:
    """A position at ``stage`` with an empty field, the bases at South C1 and
    North C5, empty hands and the given Tactical Points."""
    state = GAME.setup({"south": south, "north": north}, rng())
    state["stage"] = stage
    state["turn"] = turn
    state["initiative"] = initiative
    state["actor"] = initiative
    state["mover"] = initiative
    state["serial"] = 1
    for role, at, n in (("South", "C1", tp[0]), ("North", "C5", tp[1])):
        p = state["p"][role]
        p["tp"] = p["slider"] = n
        p["forces"] = []
        state["bases"][role]["at"] = at
    return asked_anew(state)


def asked_anew(state: dict[str, Any]) -> dict[str, Any]:
    """The position's decision asked from its ``stage`` and the players it
    names (``actor``, ``mover``...), as the game asks it of a state saved
    without the decision kernel's frames (turns.restore)."""
    for k in ("todo", "asks"):
        state.pop(k, None)
    return state


def control(state: dict[str, Any], role: str) -> None:
    """Give ``role`` control in the Play phase (a test's shortcut)."""
    state["actor"] = role
    asked_anew(state)


def put(state: dict[str, Any], role: str, card_id: str, at: str, *,
        damage: int = 0) -> dict[str, Any]:
    """A troop of ``role`` at ``at`` (South's frame)."""
    t = Ctx(state).place(role, card_id, at)
    t["damage"] = damage
    return t


def hand(state: dict[str, Any], role: str, *card_ids: str) -> None:
    state["p"][role]["hand"] = list(card_ids)


def act(state: dict[str, Any], role: str, line: str) -> tuple[dict[str, Any], list[Event]]:
    """``line`` acted. A Mobilize line other than DONE is held face down
    until both players are done (tested in test_mobilize.py); a rule test
    looks at it carried out for its side at once, as its writer's reply
    shows it."""
    action = GAME.parse(state, role, line)
    if state["stage"] != "mobilize" or action.data.get("verb") == "DONE":
        return GAME.act(state, role, action, rng())
    g = Ctx(copy_state(state), rng())
    rules.do_mobilize(g, role, dict(action.data))
    return g.s, g.events


def texts(events: list[Event], reader: str | None = None) -> str:
    """The events' texts as ``reader`` reads them (spaces in its frame;
    None: observers, in South's)."""
    return "\n".join(GAME.localize(e.text, reader) for e in events)


def at(state: dict[str, Any], space: str) -> dict[str, Any] | None:
    return Ctx(state).troop_at(space)


def troop(state: dict[str, Any], space: str) -> dict[str, Any]:
    """The troop at ``space``, for a test that expects one there."""
    found = at(state, space)
    assert found is not None, f"no troop at {space}"
    return found
