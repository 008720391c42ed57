"""Building positions and playing lines for the Conflict of Alliances tests.

Positions start from a real setup and are then arranged by hand: :func:`empty`
clears the map, :func:`put` places counters, :func:`deal` puts named cards in
a hand. :class:`Dice` is an Rng whose combat dice are scripted, so that a test
can reproduce a worked example of the rulebook exactly; every other draw (a
shuffle) is the ordinary committed-seed draw.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Iterable, Sequence
from typing import Any

from judge.game.engine import Action, Event
from judge.game.rng import Rng
from judge_games.conflict_of_alliances import GAME, RULES
from judge_games.conflict_of_alliances import board as B
from judge_games.conflict_of_alliances.data import DATA, slug
from judge_games.conflict_of_alliances.kernel import Ctx

State = dict[str, Any]
L, A = "Lianheng", "Alliance"
SEED = hashlib.sha256(b"conflict-of-alliances tests").digest()


class Dice(Rng):
    """Combat dice come from ``rolls`` in order; running out is an error."""

    def __init__(self, rolls: Sequence[int] = (), counter: int = 0) -> None:
        super().__init__(SEED, counter)
        self.rolls = list(rolls)
        self.rolled: list[int] = []

    def die(self, sides: int = 6, purpose: str = "die") -> int:
        if not self.rolls:
            raise AssertionError(f"an unexpected die roll ({purpose})")
        value = self.rolls.pop(0)
        self.rolled.append(value)
        return value


def new(scenario: str = "five-kingdoms", **options: Any) -> State:
    return GAME.setup({"scenario": scenario, **options}, Rng(SEED))


def empty(scenario: str = "five-kingdoms") -> State:
    """A game in turn 1 with nothing on the map and empty hands; the
    Lianheng to act. Diplomacy stances are the scenario's."""
    state = new(scenario)
    for a in state["areas"].values():
        a["city"] = None
        a["stacks"] = {}
    for g in state["generals"]:
        state["generals"][g] = "off"
    for side in (L, A):
        z = state["cards"][side]
        z["deck"] = sorted(z["deck"] + z["hand"])
        z["hand"] = []
    state["active"] = L
    state["stage"] = "action"
    arrange(state)
    return state


def arrange(state: State) -> State:
    """A position arranged by hand in an action phase (``stage`` "action",
    ``active`` the side to act) waits for nothing else: the rules' frames
    and asks are made to say so (the active player's ``action`` ask, nothing
    queued). Any other position is left as the game made it."""
    if state["stage"] != "action":
        return state
    want = [RULES.role_of(state, state["active"])]
    top = state["asks"][-1] if state["asks"] else None
    if top is not None and top["kind"] == "action" and top["roles"] == want and \
            not state["todo"]:
        return state
    state["todo"], state["asks"] = [], []
    Ctx(state).decide("action", [state["active"]])
    return state


def put(state: State, area: str, force: str, ready: int = 0, tired: int = 0,
        generals: Iterable[str] = (), *, city: bool | None = None,
        tired_generals: Iterable[str] = ()) -> None:
    """Place counters; ``city`` True puts the stack in the city (default: the
    city if the area is uncontrolled, else the field)."""
    st = B.ensure_stack(state, area, force)
    st["ready"] += ready
    st["tired"] += tired
    for g in generals:
        st["generals"][g] = True
        state["generals"][g] = "map"
    for g in tired_generals:
        st["generals"][g] = False
        state["generals"][g] = "map"
    a = state["areas"][area]
    if city or (city is None and a["city"] is None):
        a["city"] = force


def stance(state: State, force: str, space: str, received: bool = True) -> None:
    """Set a diplomacy counter (space: serve-qin, neutral-1..3, afraid-qin,
    anti-qin or revenge-qin)."""
    state["diplomacy"][force] = {
        "pos": DATA.space_index[space],
        "received": received,
        "revenge": space == "revenge-qin",
    }


def deal(state: State, side: str, *cards: str) -> None:
    """Move cards (slugs) from anywhere in ``side``'s piles into its hand."""
    z = state["cards"][side]
    for card in cards:
        inst = next((x for x in z["deck"] if slug(x) == card), None)
        if inst is None:
            inst = next(e[0] for e in z["discard"] if slug(e[0]) == card)
            z["discard"] = [e for e in z["discard"] if e[0] != inst]
        else:
            z["deck"].remove(inst)
        z["hand"] = sorted([*z["hand"], inst])


def stack(state: State, area: str, force: str) -> dict[str, Any] | None:
    return B.stack(state, area, force)


def counts(state: State, area: str, force: str) -> tuple[int, int, dict[str, bool]]:
    st = B.stack(state, area, force)
    if st is None:
        return (0, 0, {})
    return (st["ready"], st["tired"], dict(st["generals"]))


def play(state: State, side: str, line: str, dice: Sequence[int] = ()) -> tuple[State, list[Event]]:
    """``side`` sends ``line``; scripted dice must all be used."""
    role = RULES.role_of(state, side)
    arrange(state)
    action = GAME.parse(state, role, line)
    rng = Dice(dice)
    new_state, events = GAME.act(state, role, action, rng)
    assert not rng.rolls, f"dice left over: {rng.rolls}"
    return new_state, events


def lose(
    state: State, choices: dict[str, str], dice: Sequence[int] = ()
) -> tuple[State, list[Event]]:
    """Resolve a LOSE decision with ``choices`` {side: line}."""
    orders = {RULES.role_of(state, s): [GAME.parse(state, RULES.role_of(state, s), line)]
              for s, line in choices.items()}
    rng = Dice(dice)
    new_state, events = GAME.resolve(state, orders, rng)
    assert not rng.rolls, f"dice left over: {rng.rolls}"
    return new_state, events


def texts(events: Iterable[Event], reader: str | None = None) -> str:
    return "\n".join(e.text for e in events if reader is None or e.visible_to(reader))


def parse(state: State, side: str, line: str) -> Action:
    return GAME.parse(arrange(state), RULES.role_of(state, side), line)


def copy_state(state: State) -> State:
    return copy.deepcopy(state)
