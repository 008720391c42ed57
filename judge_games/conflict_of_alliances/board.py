"""The board in the state: stacks of counters, control, factions, diplomacy,
resource points and elimination.

State layout (plain JSON)::

    areas[area] = {"city": force | None,
                   "stacks": {force: {"ready": n, "tired": n,
                                      "generals": {general: True (ready) | False}}}}
    diplomacy[force] = {"pos": 0..5, "received": bool, "revenge": bool}
    eliminated = [force, ...]
    generals[general] = "off" | "map" | "track" | "removed"
    track[general] = turn on whose space a lost general stands

A force has at most one stack per area. The stack of the force named by
``city`` is in the city and controls the area (Territory Control); every other
stack is in the field.
"""

from __future__ import annotations

from typing import Any

from judge.game.engine import State
from judge_games.conflict_of_alliances.data import DATA, NEUTRAL, SIDES

StackT = dict[str, Any]

RIGHTMOST = len(DATA.track) - 1
"""The Revenge Qin / Anti-Qin position of the diplomacy track."""

_ORDER = {f: i for i, f in enumerate(DATA.forces)}


# --------------------------------------------------------------------------- stacks


def new_stack() -> StackT:
    return {"ready": 0, "tired": 0, "generals": {}}


def stack(state: State, area: str, force: str) -> StackT | None:
    found: StackT | None = state["areas"][area]["stacks"].get(force)
    return found


def ensure_stack(state: State, area: str, force: str) -> StackT:
    stacks = state["areas"][area]["stacks"]
    if force not in stacks:
        stacks[force] = new_stack()
    found: StackT = stacks[force]
    return found


def size(st: StackT | None) -> int:
    """Counters in a stack; a general counts as a full army (Player Aid I)."""
    if st is None:
        return 0
    return int(st["ready"]) + int(st["tired"]) + len(st["generals"])


def ready_count(st: StackT | None) -> int:
    if st is None:
        return 0
    return int(st["ready"]) + sum(1 for r in st["generals"].values() if r)


def forces_in(state: State, area: str) -> list[str]:
    """Forces with counters in ``area``: the city force first, then the field
    forces in the order of the forces file."""
    a = state["areas"][area]
    city = a["city"]
    present = sorted(
        (f for f, st in a["stacks"].items() if size(st) > 0),
        key=lambda f: (f != city, _ORDER[f]),
    )
    return present


def field_forces(state: State, area: str) -> list[str]:
    city = state["areas"][area]["city"]
    return [f for f in forces_in(state, area) if f != city]


def prune(state: State, area: str) -> None:
    """Drop empty stacks; an area whose city stack is gone is uncontrolled
    (Territory Control) unless :func:`settle_city` gives it to a field force."""
    a = state["areas"][area]
    for f in [f for f, st in a["stacks"].items() if size(st) == 0]:
        del a["stacks"][f]
    if a["city"] is not None and a["city"] not in a["stacks"]:
        a["city"] = None


def settle_city(state: State, area: str, chosen: str | None = None) -> str | None:
    """After the city stack has left or died: ``chosen`` (or the only field
    force) takes the city; with no force left the area is uncontrolled
    (Movement: "the player who is moving must choose one of those forces")."""
    prune(state, area)
    a = state["areas"][area]
    if a["city"] is not None:
        return None
    remaining = forces_in(state, area)
    if not remaining:
        return None
    pick = chosen if chosen in remaining else remaining[0]
    a["city"] = pick
    return pick


def add_counters(
    state: State, area: str, force: str, ready: int = 0, tired: int = 0,
    generals: dict[str, bool] | None = None, *, take_city: bool = True,
) -> None:
    """Put counters into ``area``: into the force's own stack if it has one,
    else a new stack, in the city if the area is uncontrolled (Movement: "placed
    in the city, to show that the force controls the area") and in the field
    otherwise."""
    st = ensure_stack(state, area, force)
    st["ready"] += ready
    st["tired"] += tired
    for g, r in (generals or {}).items():
        st["generals"][g] = r
        state["generals"][g] = "map"
    a = state["areas"][area]
    if a["city"] is None and take_city and size(st) > 0:
        a["city"] = force


# --------------------------------------------------------------------------- factions


def faction(state: State, force: str) -> str:
    """Qin is always Lianheng; Song and Shu always Neutral; the others follow
    their diplomacy counters (Forces and Factions)."""
    if force == "qin":
        return SIDES[0]
    d = state["diplomacy"].get(force)
    if d is None:
        return NEUTRAL
    space = DATA.track[int(d["pos"])]
    return space.faction


def stance_name(state: State, force: str) -> str:
    d = state["diplomacy"].get(force)
    if d is None:
        return "eliminated" if force in state["eliminated"] else "-"
    if d["revenge"]:
        return "Revenge Qin"
    return DATA.track[int(d["pos"])].name


def friendly(state: State, force: str, side: str) -> bool:
    return faction(state, force) == side


def hostile(state: State, force: str, side: str) -> bool:
    """Enemy or Neutral to ``side``: counters that stop a move (Movement)."""
    return faction(state, force) != side


def blocks(state: State, area: str, mover: str) -> bool:
    """Whether ``area`` holds enemy-faction or Neutral-faction counters for a
    force of ``mover``'s faction (Movement: the move must stop there)."""
    side = faction(state, mover)
    return any(hostile(state, f, side) for f in forces_in(state, area) if f != mover)


# --------------------------------------------------------------------------- control


def controller(state: State, area: str) -> str | None:
    city: str | None = state["areas"][area]["city"]
    return city


def rp_of(state: State, who: str) -> int:
    """Resource points of the areas controlled by a side's faction, or by one
    force (``who`` a force id: Victory counts Qin's own areas only)."""
    total = 0
    for area, a in state["areas"].items():
        city = a["city"]
        if city is None:
            continue
        if who in SIDES:
            if faction(state, city) == who:
                total += DATA.areas[area].rp
        elif city == who:
            total += DATA.areas[area].rp
    return total


# --------------------------------------------------------------------------- diplomacy


def direction(side: str) -> int:
    """The Lianheng always moves counters toward Serve Qin (left), the
    Alliance toward Anti-Qin (right) (Diplomacy, open diplomacy)."""
    return -1 if side == SIDES[0] else 1


def shift(state: State, force: str, steps: int) -> tuple[int, int]:
    """Move a diplomacy counter ``steps`` spaces (negative: left), stopping at
    the ends, and flip it to Not Received. Leaving the rightmost position
    leaves the Revenge Qin box; entering it by a move is Anti-Qin (our ruling,
    README). Returns (old, new) positions."""
    d = state["diplomacy"][force]
    old = int(d["pos"])
    new = max(0, min(RIGHTMOST, old + steps))
    if new != old:
        d["revenge"] = False
    d["pos"] = new
    d["received"] = False
    return old, new


def attacked(state: State, force: str, attacker_side: str) -> str | None:
    """Diplomacy, third factor: before combat the attacked force's counter
    goes to the far end away from the attacker's faction, Not Received, whatever
    its state. Returns a line for the report, or None for forces without a
    counter (Qin, Song, Shu, eliminated)."""
    d = state["diplomacy"].get(force)
    if d is None:
        return None
    target = RIGHTMOST if attacker_side == SIDES[0] else 0
    old = int(d["pos"])
    if old != target:
        d["revenge"] = False
    d["pos"] = target
    d["received"] = False
    name = DATA.forces[force].name
    return f"{name}'s diplomacy counter goes to {stance_name(state, force)}, Not Received."


# --------------------------------------------------------------------------- elimination


def counters_of(state: State, force: str) -> int:
    """Counters of ``force`` on the map, including those moving in an operation."""
    total = sum(size(a["stacks"].get(force)) for a in state["areas"].values())
    op = state.get("op")
    if op is not None and op.get("force") == force:
        group = op.get("group") or {}
        total += int(group.get("armies", 0)) + len(group.get("generals", []))
    return total


def check_elimination(state: State) -> list[str]:
    """Forces with no counter left on the map are eliminated and their
    diplomacy counters leave the game (Forces and Factions, Elimination).
    Returns the newly eliminated forces."""
    gone: list[str] = []
    for force in DATA.forces:
        if force in state["eliminated"]:
            continue
        if counters_of(state, force) == 0:
            state["eliminated"].append(force)
            state["diplomacy"].pop(force, None)
            gone.append(force)
    return gone


def directable(state: State, side: str, *, afraid: bool = False) -> list[str]:
    """Forces ``side`` may direct with a face-down card (Military Operations:
    "Which forces a player may direct"): the Lianheng only Qin; the Alliance
    the Revenge Qin and Anti-Qin forces; with ``afraid`` (a card that says so)
    the Afraid of Qin forces too."""
    if side == SIDES[0]:
        return [] if "qin" in state["eliminated"] else ["qin"]
    out = []
    for force, d in state["diplomacy"].items():
        pos = int(d["pos"])
        if pos == RIGHTMOST or (afraid and pos == RIGHTMOST - 1):
            out.append(force)
    return [f for f in DATA.forces if f in out]
