"""Military operations: checking a command, listing the possible ones, and
carrying one out -- movement, combat, losses, retreats and further battles
(rulebook: Military Operations, Movement, Combat, Examples of Complex
Situations).

An operation in progress lives in ``state["op"]``; a battle in progress in
``state["battle"]``. They are carried out by kernel frames (judge/game/flow.py),
one state per part: ``op-start``, ``op-move`` (one area at a time),
``op-choose`` (the attacker chooses another target, to retreat, to stay or
to ride on: a ``continue`` ask), ``op-done``; a battle ``battle-window`` (the
passive player's before-combat response window: a ``window`` ask),
``battle-roll``, ``battle-fire``, ``battle-losses`` (the sides that choose
their losses: a ``losses`` ask) and ``battle-end`` (Results of Combat).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

from judge.game import flow
from judge.game.engine import AmbiguousLine, IllegalLine, RuleError, State
from judge_games.conflict_of_alliances import board as B
from judge_games.conflict_of_alliances.combat import clamp_die, hits, modifier, strength
from judge_games.conflict_of_alliances.commands import Cmd, op_text
from judge_games.conflict_of_alliances.data import DATA, other
from judge_games.conflict_of_alliances.kernel import RULES, Ctx

OpCtx = dict[str, Any]
"""What the card (or the face-down play) allows: ``forces`` that may be
directed, ``mounted`` (Mounted Attack), ``first`` (the attacker fires first),
``drm`` (card modifier to the attacker's die), ``source`` (an area the
operation must start from), ``label`` (for the report)."""

MAX_COUNTERS = 4


def fname(force: str) -> str:
    return DATA.forces[force].name


def aname(area: str) -> str:
    return DATA.areas[area].name


def gname(general: str) -> str:
    return DATA.generals[general].name


def counters_text(armies: int, generals: list[str]) -> str:
    parts = []
    if armies:
        parts.append(f"{armies} {'army' if armies == 1 else 'armies'}")
    parts += [gname(g) for g in generals]
    return " and ".join(parts) if parts else "no counters"


# --------------------------------------------------------------------------- targets


def targets(state: State, area: str, force: str, side: str) -> list[str]:
    """The forces the attacker may choose as the target in ``area`` (Combat
    Procedure, step 2): with enemy or Neutral counters in the field, one of the
    field forces; when every field force is friendly (or there is none), the
    city defenders too. Friendly forces may be chosen as well (Example III.2)."""
    others = [f for f in B.forces_in(state, area) if f != force]
    city = B.controller(state, area)
    field = [f for f in others if f != city]
    if any(B.hostile(state, f, side) for f in field):
        return field
    return others


# --------------------------------------------------------------------------- checking


def ambiguous(what: str, raw: Cmd, field: str, values: list[Any],
               check: Callable[[Cmd], Cmd], render: Callable[[Cmd], str]) -> RuleError:
    """An AmbiguousLine whose choices are the complete lines that check."""
    choices = []
    for value in values:
        trial = dict(raw)
        trial[field] = value
        try:
            choices.append(render(check(trial)))
        except RuleError:
            continue
    if not choices:
        return IllegalLine(f"{what}: none of the possibilities is allowed now")
    return AmbiguousLine(what, choices=choices)


def movement_allowance(lead: str | None, movers: list[str]) -> int:
    """2, or 3 when the activated general moving with the counters has the
    Horse (Movement; Example IV: only the activated general's icon counts)."""
    if lead is not None and lead in movers and DATA.generals[lead].horse:
        return 3
    return 2


def walk(state: State, side: str, force: str, source: str, path: list[str], ma: int,
         mounted: bool) -> int | None:
    """Check a move and return the index in ``path`` of its first battle (None
    if it meets no enemy or Neutral counters). Raises IllegalLine (Movement:
    adjacent steps, 1 per normal border, 2 per mountain, a waterway 1 with the
    stream; a move must stop on entering enemy or Neutral counters, except
    that Mounted Attack may move on after a won battle)."""
    cur = source
    spent = 0
    first: int | None = None
    seen = {source}
    for i, area in enumerate(path):
        if DATA.border(cur, area) is None:
            raise IllegalLine(f"{aname(cur)} and {aname(area)} are not adjacent")
        if area in seen:
            raise IllegalLine(f"the move enters {aname(area)} twice")
        seen.add(area)
        spent += DATA.step_cost(cur, area)
        if spent > ma:
            raise IllegalLine(
                f"the move costs more than the movement allowance of {ma} "
                f"(at {aname(area)}: {spent} points)"
            )
        if any(B.hostile(state, f, side) for f in B.forces_in(state, area) if f != force):
            if first is None:
                first = i
            if not mounted and i != len(path) - 1:
                raise IllegalLine(
                    f"the move must stop in {aname(area)}: it holds enemy or Neutral counters"
                )
        cur = area
    return first


def check_op(state: State, side: str, raw: Cmd, ctx: OpCtx, render: Callable[[Cmd], str]) -> Cmd:
    """Validate a military operation for ``side`` under ``ctx`` and return it
    with every choice made explicit (force, counters, lead, target, control).
    Raises IllegalLine or AmbiguousLine."""

    def again(trial: Cmd) -> Cmd:
        return check_op(state, side, trial, ctx, render)

    area = raw["area"]
    if ctx.get("source") and area != ctx["source"]:
        raise IllegalLine(f"this operation must start from {aname(ctx['source'])}")
    allowed: list[str] = list(ctx["forces"])
    force = raw["force"]
    if force is None:
        able = [f for f in allowed if B.ready_count(B.stack(state, area, f)) > 0]
        if not able:
            raise IllegalLine(f"you have no ready counters you may direct in {aname(area)}")
        if len(able) > 1:
            raise ambiguous(f"which force in {aname(area)}?", raw, "force", able, again, render)
        force = able[0]
    if force not in allowed:
        who = ", ".join(fname(f) for f in allowed) or "no force"
        raise IllegalLine(f"you may not direct {fname(force)} now (you may direct: {who})")
    st = B.stack(state, area, force)
    if B.ready_count(st) == 0 or st is None:
        raise IllegalLine(f"{fname(force)} has no ready counters in {aname(area)}")
    # Military Operations: 1 to 4 ready counters from one area.
    generals: list[str] = list(raw["generals"])
    armies = raw["armies"]
    ready_gens = [g for g, r in st["generals"].items() if r]
    if armies is None and not generals:
        generals = ready_gens[:MAX_COUNTERS]
        armies = min(int(st["ready"]), MAX_COUNTERS - len(generals))
    armies = int(armies or 0)
    if len(set(generals)) != len(generals):
        raise IllegalLine("a general is named twice")
    for g in generals:
        if g not in st["generals"]:
            raise IllegalLine(f"{gname(g)} is not with {fname(force)} in {aname(area)}")
        if not st["generals"][g]:
            raise IllegalLine(f"{gname(g)} is exhausted (only ready counters may move)")
    if armies > int(st["ready"]):
        raise IllegalLine(f"{fname(force)} has only {st['ready']} ready armies in {aname(area)}")
    total = armies + len(generals)
    if total < 1 or total > MAX_COUNTERS:
        raise IllegalLine("a military operation directs 1 to 4 ready counters")
    path: list[str] = list(raw["path"])
    direct = not path
    join = raw["join"] or {"armies": 0, "generals": []}
    # Example IV: with several generals, the player activates one.
    group_gens = generals + list(join["generals"])
    lead = raw["lead"]
    if lead is not None and lead not in group_gens:
        raise IllegalLine(f"{gname(lead)} is not among the counters of this operation")
    if lead is None and len(group_gens) == 1:
        lead = group_gens[0]
    if lead is None and len(group_gens) > 1:
        raise ambiguous("several generals: name the one you activate with LEAD",
                         raw, "lead", group_gens, again, render)
    ma = movement_allowance(lead, generals)
    battle_at: str | None
    if direct:
        battle_at = area
        if join["armies"] or join["generals"]:
            raise IllegalLine("JOIN adds counters already on the battlefield to a move; "
                              "in a direct attack name them as the counters of the operation")
    else:
        first = walk(state, side, force, area, path, ma, bool(ctx.get("mounted")))
        battle_at = None if first is None else path[first]
    # Control of the area left behind (Movement: the mover chooses).
    control = raw["control"]
    leaves_all = not direct and B.size(st) == total and B.controller(state, area) == force
    heirs = [f for f in B.forces_in(state, area) if f != force] if leaves_all else []
    if len(heirs) > 1:
        if control is None:
            raise ambiguous(f"which force takes the city of {aname(area)}?",
                             raw, "control", heirs, again, render)
        if control not in heirs:
            raise IllegalLine(f"{fname(control)} has no counters left in {aname(area)}")
    elif control is not None:
        raise IllegalLine("CONTROL is only for leaving a city to one of several forces")
    if battle_at is None:
        if raw["target"] is not None:
            raise IllegalLine("the move meets no enemy or Neutral counters: there is no battle")
        if join["armies"] or join["generals"]:
            raise IllegalLine("JOIN is only for a battle")
        return _norm(area, force, armies, generals, lead, path, None, None, control)
    # Combat Procedure: counters already on the battlefield may join a moving attack.
    if join["armies"] or join["generals"]:
        here = B.stack(state, battle_at, force)
        if here is None:
            raise IllegalLine(f"{fname(force)} has no counters in {aname(battle_at)} to join")
        if int(join["armies"]) > int(here["ready"]):
            raise IllegalLine(f"{fname(force)} has only {here['ready']} ready armies in "
                              f"{aname(battle_at)}")
        for g in join["generals"]:
            if not here["generals"].get(g):
                raise IllegalLine(f"{gname(g)} is not ready in {aname(battle_at)}")
        if total + int(join["armies"]) + len(join["generals"]) > MAX_COUNTERS:
            raise IllegalLine("no more than 4 counters may take part in a battle")
    candidates = targets(state, battle_at, force, side)
    if not candidates:
        raise IllegalLine(f"there is nobody to attack in {aname(battle_at)}")
    target = raw["target"]
    if target is None:
        if len(candidates) > 1:
            raise ambiguous(f"which force do you attack in {aname(battle_at)}?",
                             raw, "target", candidates, again, render)
        target = candidates[0]
    if target not in candidates:
        allowed_t = ", ".join(fname(f) for f in candidates)
        raise IllegalLine(f"you may not attack {fname(target)} in {aname(battle_at)} now "
                          f"(targets: {allowed_t}; the field comes first)")
    joined = None if not (join["armies"] or join["generals"]) else {
        "armies": int(join["armies"]), "generals": list(join["generals"])}
    return _norm(area, force, armies, generals, lead, path, joined, target, control)


#: Each general's place in the data's order (generals are listed in it).
_GENERAL_RANK = {name: i for i, name in enumerate(DATA.generals)}


def _norm(area: str, force: str, armies: int, generals: list[str], lead: str | None,
          path: list[str], join: dict[str, Any] | None, target: str | None,
          control: str | None) -> Cmd:
    rank = _GENERAL_RANK.__getitem__
    return {
        "area": area, "force": force, "armies": armies,
        "generals": sorted(generals, key=rank), "lead": lead, "path": path,
        "join": None if join is None else {
            "armies": join["armies"], "generals": sorted(join["generals"], key=rank)},
        "target": target, "control": control,
    }


# --------------------------------------------------------------------------- listing


def _stops(state: State, side: str, force: str) -> dict[str, bool]:
    """For every area: does it hold enemy or Neutral counters for ``force``?"""
    return {a: any(B.hostile(state, f, side) for f in B.forces_in(state, a) if f != force)
            for a in DATA.areas}


def _paths(stops: dict[str, bool], source: str, ma: int, mounted: bool) -> Iterator[list[str]]:
    """Every move from ``source`` that :func:`walk` accepts."""

    def go(cur: str, spent: int, path: list[str]) -> Iterator[list[str]]:
        for nxt in DATA.neighbours[cur]:
            if nxt == source or nxt in path:
                continue
            cost = spent + DATA.step_cost(cur, nxt)
            if cost > ma:
                continue
            new = [*path, nxt]
            yield new
            if stops[nxt] and not mounted:
                continue
            yield from go(nxt, cost, new)

    yield from go(source, 0, [])


def op_choices(state: State, side: str, ctx: OpCtx, limit: int = 400) -> list[Cmd]:
    """Military operations ``side`` may make under ``ctx``: every source,
    force, number of armies, general and lead, every move and target, and
    joining counters (none or as many as fit). Capped at ``limit`` by taking
    an even spread."""
    out: list[Cmd] = []
    stops_of: dict[str, dict[str, bool]] = {}
    memo = _Memo(state, side, bool(ctx.get("mounted")))
    for area in DATA.areas:
        if ctx.get("source") and area != ctx["source"]:
            continue
        for force in ctx["forces"]:
            st = B.stack(state, area, force)
            if B.ready_count(st) == 0 or st is None:
                continue
            ready_gens = [g for g, r in st["generals"].items() if r]
            heirs = [f for f in B.forces_in(state, area) if f != force]
            if force not in stops_of:
                stops_of[force] = _stops(state, side, force)
            for k in range(0, min(2, len(ready_gens)) + 1):
                for gens in combinations(ready_gens, k):
                    top = min(int(st["ready"]), MAX_COUNTERS - k)
                    for n in range(0 if gens else 1, top + 1):
                        if n == 0 and not gens:
                            continue
                        leads: list[str | None] = list(gens) if gens else [None]
                        for lead in leads:
                            out += _variants(state, memo, area, force, st, n, list(gens),
                                             lead, heirs, stops_of[force])
    if len(out) > limit:
        step = len(out) / limit
        out = [out[int(i * step)] for i in range(limit)]
    return out


class _Memo:
    """What one :func:`op_choices` listing asks again and again for the same
    position: the targets in an area, and the moves from an area (with the
    first area of each that holds a battle)."""

    def __init__(self, state: State, side: str, mounted: bool) -> None:
        self.state, self.side, self.mounted = state, side, mounted
        self._targets: dict[tuple[str, str], list[str]] = {}
        self._paths: dict[tuple[str, str, int], list[tuple[list[str], str | None]]] = {}

    def targets(self, area: str, force: str) -> list[str]:
        key = (area, force)
        found = self._targets.get(key)
        if found is None:
            found = self._targets[key] = targets(self.state, area, force, self.side)
        return found

    def paths(self, stops: dict[str, bool], area: str, force: str,
              ma: int) -> list[tuple[list[str], str | None]]:
        key = (area, force, ma)  # ``stops`` is the force's, the same all listing long
        found = self._paths.get(key)
        if found is None:
            found = self._paths[key] = [
                (path, next((a for a in path if stops[a]), None))
                for path in _paths(stops, area, ma, self.mounted)]
        return found


def _variants(state: State, memo: _Memo, area: str, force: str, st: B.StackT,
              n: int, gens: list[str], lead: str | None, heirs: list[str],
              stops: dict[str, bool]) -> list[Cmd]:
    out: list[Cmd] = []
    total = n + len(gens)
    leaves_all = B.size(st) == total and B.controller(state, area) == force
    controls: list[str | None] = list(heirs) if leaves_all and len(heirs) > 1 else [None]
    for t in memo.targets(area, force):
        out.append(_norm(area, force, n, gens, lead, [], None, t, None))
    ma = movement_allowance(lead, gens)
    for path, battle in memo.paths(stops, area, force, ma):
        for control in controls:
            if battle is None:
                out.append(_norm(area, force, n, gens, lead, path, None, None, control))
                continue
            joins: list[dict[str, Any] | None] = [None]
            here = B.stack(state, battle, force)
            room = MAX_COUNTERS - total
            if here is not None and room > 0 and int(here["ready"]) > 0:
                joins.append({"armies": min(room, int(here["ready"])), "generals": []})
            for t in memo.targets(battle, force):
                for j in joins:
                    out.append(_norm(area, force, n, gens, lead, path, j, t, control))
    return out


# --------------------------------------------------------------------------- carrying out


def begin(state: State, side: str, op: Cmd, ctx: OpCtx) -> None:
    """Start a checked operation: it is carried out by :func:`advance`."""
    state["op"] = {
        "side": side,
        "force": op["force"],
        "source": op["area"],
        "armies": op["armies"],
        "generals": list(op["generals"]),
        "lead": op["lead"],
        "path": list(op["path"]),
        "join": op["join"],
        "target": op["target"],
        "control": op["control"],
        "mounted": bool(ctx.get("mounted")),
        "first": bool(ctx.get("first")),
        "drm": int(ctx.get("drm", 0)),
        "label": str(ctx.get("label", "")),
        "ma": movement_allowance(op["lead"], op["generals"]),
        "group": {"armies": 0, "generals": []},
        "stay": {"armies": 0, "generals": []},
        "where": op["area"],
        "prev": None,
        "idx": 0,
        "spent": 0,
        "battles": 0,
        "direct": not op["path"],
        "options": [],
    }


def _lose_general(state: State, general: str) -> None:
    """A lost general goes to the turn track's space for the next turn, or out
    of the game on the last turn (Combat, Assigning losses; printed rules)."""
    if state["turn"] >= state["turns"]:
        state["generals"][general] = "removed"
    else:
        state["generals"][general] = "track"
        state["track"][general] = state["turn"] + 1


def _place_group(state: State, log: Ctx, area: str) -> None:
    """The moving counters stop in ``area``: with their own force's stack, or in
    the city of an uncontrolled area, or in the field (Movement). Moved
    counters end exhausted."""
    op = state["op"]
    group = op["group"]
    if group["armies"] or group["generals"]:
        B.add_counters(state, area, op["force"], tired=group["armies"],
                       generals={g: False for g in group["generals"]})
        where = "city" if B.controller(state, area) == op["force"] else "field"
        log.pub(f"{fname(op['force'])} {counters_text(group['armies'], group['generals'])} "
                f"stop in {aname(area)} ({where}).")
    op["group"] = {"armies": 0, "generals": []}


@RULES.state("op-start")
def _op_start(g: Ctx, f: flow.Frame) -> None:
    g.goto({"t": _start(g.s, g)})


@RULES.state("op-move")
def _op_move(g: Ctx, f: flow.Frame) -> None:
    g.goto({"t": _move(g.s, g)})


@RULES.state("op-choose")
def _op_choose(g: Ctx, f: flow.Frame) -> None:
    """Results of Combat: the attacker chooses how to go on (its answer says
    which frame follows: :func:`do_continue`)."""
    g.decide("continue", [g.s["op"]["side"]])


@RULES.state("op-done")
def _op_done(g: Ctx, f: flow.Frame) -> None:
    """The operation is over; a force left without counters is eliminated,
    and the game ends at once when that is Qin (Victory)."""
    state = g.s
    for force in B.check_elimination(state):
        g.pub(f"{fname(force)} is eliminated: all its counters are off the board.")
    state["op"] = None
    if "qin" in state["eliminated"]:
        g.end()
        g.call({"t": "game-over", "why": "Qin is eliminated"})


@RULES.state("battle-window")
def _battle_window(g: Ctx, f: flow.Frame) -> None:
    """Combat Procedure, step 3: the passive player's response window (and
    the choice of defenders) before combat."""
    side = other(g.s["op"]["side"])
    g.s["window"] = {"kind": "before-combat", "side": side}
    g.call({"t": "battle-roll"})
    g.decide("window", [side])


@RULES.state("battle-roll")
def _battle_roll(g: Ctx, f: flow.Frame) -> None:
    _roll(g.s, g)
    g.goto({"t": "battle-fire"})


@RULES.state("battle-fire")
def _battle_fire(g: Ctx, f: flow.Frame) -> None:
    """Combat Procedure, step 5: each side fires in its turn (both at once
    unless one fires first); the hits are losses to assign."""
    bt = g.s["battle"]
    if not bt["seq"]:
        bt["step"] = "result"
        g.goto({"t": "battle-end"})
        return
    who = bt["seq"].pop(0)
    pending: dict[str, int] = {}
    if who in ("both", "att"):
        pending["def"] = _hits(g.s, "att")
    if who in ("both", "def"):
        pending["att"] = _hits(g.s, "def")
    for victim, n in pending.items():
        shooter = "Attacker" if victim == "def" else "Defender"
        g.pub(f"{shooter} eliminates {n} counter{'s' if n != 1 else ''}.")
    bt["pending"] = pending
    bt["choices"] = {}
    bt["step"] = "losses"
    g.goto({"t": "battle-losses"})


@RULES.state("battle-losses")
def _battle_losses(g: Ctx, f: flow.Frame) -> None:
    """Combat, Assigning losses: the sides with a real choice choose their
    losses together (a ``losses`` ask, resolved at once); then they go."""
    state = g.s
    bt = state["battle"]
    sides = loss_sides(state)
    if any(victim_of(state, side) not in bt["choices"] for side in sides):
        g.call({"t": "battle-losses"})
        g.decide("losses", sides)
        return
    for victim in list(bt["pending"]):
        choice = bt["choices"].get(victim) or default_losses(state, victim)
        _apply_losses(state, g, victim, choice)
    bt["pending"] = {}
    bt["choices"] = {}
    bt["step"] = "fire"
    g.goto({"t": "battle-fire"})


@RULES.state("battle-end")
def _battle_end(g: Ctx, f: flow.Frame) -> None:
    g.goto({"t": _after_battle(g.s, g)})


def loss_sides(state: State) -> list[str]:
    """The sides that choose their losses now (only those with a real
    choice: :func:`loss_choice_needed`)."""
    bt = state["battle"]
    op = state["op"]
    out = []
    for victim in ("att", "def"):
        if victim in bt["pending"] and loss_choice_needed(state, victim):
            out.append(op["side"] if victim == "att" else other(op["side"]))
    return out


def victim_of(state: State, side: str) -> str:
    """``"att"`` for the attacking side, ``"def"`` for the other."""
    return "att" if side == state["op"]["side"] else "def"


def _start(state: State, log: Ctx) -> str:
    """The counters set out (or attack where they stand); returns the frame
    that follows."""
    op = state["op"]
    force, area = op["force"], op["source"]
    st = B.stack(state, area, force)
    assert st is not None
    who = counters_text(op["armies"], op["generals"])
    label = f" ({op['label']})" if op["label"] else ""
    if op["direct"]:
        # Combat Procedure: direct attackers are flipped to their exhausted side.
        st["ready"] -= op["armies"]
        st["tired"] += op["armies"]
        for g in op["generals"]:
            st["generals"][g] = False
        op["stay"] = {"armies": op["armies"], "generals": list(op["generals"])}
        log.pub(f"Military operation{label}: {fname(force)} {who} in {aname(area)} attack "
                f"without moving.")
        _open_battle(state, log, area, op["target"])
        return "battle-window"
    st["ready"] -= op["armies"]
    for g in op["generals"]:
        del st["generals"][g]
    op["group"] = {"armies": op["armies"], "generals": list(op["generals"])}
    route = " - ".join(aname(a) for a in [area, *op["path"]])
    log.pub(f"Military operation{label}: {fname(force)} {who} move {route}.")
    held = B.controller(state, area) == force
    B.prune(state, area)
    if held and B.controller(state, area) is None:
        heir = B.settle_city(state, area, op["control"])
        if heir is not None:
            log.pub(f"{fname(heir)} now holds the city of {aname(area)}.")
        else:
            log.pub(f"{aname(area)} is left uncontrolled.")
    return "op-move"


def _move(state: State, log: Ctx) -> str:
    """One area further (Movement); returns the frame that follows."""
    op = state["op"]
    if op["idx"] >= len(op["path"]):
        _place_group(state, log, op["where"])
        return "op-done"
    nxt = op["path"][op["idx"]]
    op["spent"] += DATA.step_cost(op["where"], nxt)
    op["prev"] = op["where"]
    op["where"] = nxt
    op["idx"] += 1
    side = op["side"]
    force = op["force"]
    if not any(B.hostile(state, f, side) for f in B.forces_in(state, nxt) if f != force):
        return "op-move"
    # Movement: entering enemy or Neutral counters stops the move; combat.
    op["stay"] = {"armies": 0, "generals": []}
    if op["battles"] == 0 and op["join"]:
        here = B.stack(state, nxt, force)
        if here is not None:
            n = min(int(op["join"]["armies"]), int(here["ready"]))
            here["ready"] -= n
            here["tired"] += n
            gens = [g for g in op["join"]["generals"] if here["generals"].get(g)]
            for g in gens:
                here["generals"][g] = False
            op["stay"] = {"armies": n, "generals": gens}
            if n or gens:
                log.pub(f"{fname(force)} {counters_text(n, gens)} already in {aname(nxt)} join "
                        f"the attack.")
    candidates = targets(state, nxt, force, side)
    target = op["target"] if op["battles"] == 0 else None
    if target not in candidates:
        target = None
    if target is None and len(candidates) == 1:
        target = candidates[0]
    if target is None:
        op["options"] = [f"ATTACK {t}" for t in candidates]
        return "op-choose"
    _open_battle(state, log, nxt, target)
    return "battle-window"


def _open_battle(state: State, log: Ctx, area: str, target: str) -> None:
    """Steps 2-3 of the Combat Procedure: the target, the diplomacy shift of
    the attacked force, then the passive player's response window."""
    op = state["op"]
    op["battles"] += 1
    city = B.controller(state, area) == target
    state["battle"] = {
        "area": area,
        "target": target,
        "city": city,
        "step": "window",
        "att_drm": op["drm"],
        "def_drm": 0,
        "att_first": op["first"],
        "def_first": False,
        "xinling": None,
        "defend": None,
        "def": None,
        "def_leads": [],
        "dice": None,
        "seq": [],
        "pending": {},
        "choices": {},
        "log": [],
    }
    where = "city" if city else "field"
    log.pub(f"Battle in {aname(area)}: {fname(op['force'])} attack {fname(target)} "
            f"({where}).")
    note = B.attacked(state, target, op["side"])
    if note:
        log.pub(note)


# --------------------------------------------------------------------------- battle


def attackers(state: State) -> dict[str, Any]:
    """The attacker's counters taking part: the moving group and those that
    were already on the battlefield."""
    op = state["op"]
    return {
        "moved": int(op["group"]["armies"]),
        "stayed": int(op["stay"]["armies"]),
        "generals": list(op["group"]["generals"]) + list(op["stay"]["generals"]),
    }


def att_total(state: State) -> int:
    a = attackers(state)
    return int(a["moved"]) + int(a["stayed"]) + len(a["generals"])


def defenders(state: State) -> dict[str, Any]:
    """The defender's counters taking part (fixed when the window closes)."""
    d: dict[str, Any] = state["battle"]["def"]
    return d


def def_total(state: State) -> int:
    d = defenders(state)
    return int(d["ready"]) + int(d["tired"]) + len(d["generals"])


def def_candidates(state: State) -> dict[str, Any]:
    """Every counter that could defend: the target stack, plus Wei Wuji when
    Lord Xinling brought him."""
    bt = state["battle"]
    st = B.stack(state, bt["area"], bt["target"]) or B.new_stack()
    gens = list(st["generals"])
    if bt["xinling"]:
        gens.append("wei-wuji")
    return {"ready": int(st["ready"]), "tired": int(st["tired"]), "generals": gens}


def default_defence(state: State) -> dict[str, Any]:
    """The defender's counters when the passive player does not choose: all of
    them when 4 or fewer (the rules require it), else generals first, then
    ready armies, then exhausted ones; the lead is the first general with a
    combat icon."""
    c = def_candidates(state)
    gens = list(c["generals"])[:MAX_COUNTERS]
    room = MAX_COUNTERS - len(gens)
    ready = min(room, c["ready"])
    tired = min(room - ready, c["tired"])
    return {"ready": ready, "tired": tired, "generals": gens, "lead": best_lead(gens)}


def best_lead(gens: list[str]) -> str | None:
    own = [g for g in gens if g != "wei-wuji"]
    ranked = sorted(own, key=lambda g: -(DATA.generals[g].sword + DATA.generals[g].shield))
    return ranked[0] if ranked else None


def check_defend(state: State, cmd: Cmd) -> Cmd:
    """DEFEND: the defender picks up to 4 counters, all of them if it can
    (Combat Procedure), and the general it activates (Example IV)."""
    c = def_candidates(state)
    gens = list(cmd["generals"])
    if cmd["ready"] > c["ready"] or cmd["tired"] > c["tired"]:
        raise IllegalLine(f"the defenders have {c['ready']} ready and {c['tired']} exhausted "
                          "armies")
    for g in gens:
        if g not in c["generals"]:
            raise IllegalLine(f"{gname(g)} is not among the defenders")
    if len(set(gens)) != len(gens):
        raise IllegalLine("a general is named twice")
    total = cmd["ready"] + cmd["tired"] + len(gens)
    every = c["ready"] + c["tired"] + len(c["generals"])
    if total != min(MAX_COUNTERS, every):
        raise IllegalLine(f"{min(MAX_COUNTERS, every)} counters must defend (all of them, "
                          "at most 4)")
    own = [g for g in gens if g != "wei-wuji"]
    lead = cmd["lead"]
    if lead is not None and lead not in own:
        raise IllegalLine(f"{gname(lead)} does not defend")
    if lead is None:
        lead = best_lead(own)
    order = list(DATA.generals)
    return {"verb": "DEFEND", "ready": cmd["ready"], "tired": cmd["tired"],
            "generals": sorted(gens, key=order.index),
            "lead": lead if len(own) > 1 else None}


def defend_choices(state: State) -> list[Cmd]:
    """DEFEND lines worth offering: only when there is a real choice."""
    c = def_candidates(state)
    every = c["ready"] + c["tired"] + len(c["generals"])
    own = [g for g in c["generals"] if g != "wei-wuji"]
    if every <= MAX_COUNTERS and len(own) <= 1:
        return []
    out: list[Cmd] = []
    need = min(MAX_COUNTERS, every)
    for k in range(0, min(len(c["generals"]), need) + 1):
        for gens in combinations(c["generals"], k):
            room = need - k
            for ready in range(0, min(room, c["ready"]) + 1):
                tired = room - ready
                if tired > c["tired"]:
                    continue
                own_in = [g for g in gens if g != "wei-wuji"]
                for lead in own_in or [None]:
                    try:
                        out.append(check_defend(state, {"ready": ready, "tired": tired,
                                                        "generals": list(gens), "lead": lead}))
                    except RuleError:
                        continue
    unique = {repr(x): x for x in out}
    return list(unique.values())


def _leads(state: State) -> tuple[list[str], list[str]]:
    """The active generals of each side still taking part (Example IV)."""
    op = state["op"]
    bt = state["battle"]
    a = attackers(state)
    att = [op["lead"]] if op["lead"] in a["generals"] else []
    d = defenders(state)
    dfn = [g for g in bt["def_leads"] if g in d["generals"]]
    return att, dfn


def _hits(state: State, shooter: str) -> int:
    """Enemy counters ``shooter`` ("att" or "def") eliminates with the dice
    already rolled, at the strength it has now (Combat: resolution; first
    strike reads the second side's column after its losses)."""
    bt = state["battle"]
    att_leads, def_leads = _leads(state)
    if shooter == "att":
        n, city, own, enemy, drm = att_total(state), False, att_leads, def_leads, bt["att_drm"]
        victims = def_total(state)
    else:
        n, city, own, enemy, drm = def_total(state), bt["city"], def_leads, att_leads, bt["def_drm"]
        victims = att_total(state)
    if n == 0:
        return 0
    die = bt["dice"][shooter]
    mod = modifier(own, enemy, drm)
    result = clamp_die(die + mod)
    col = strength(n, city)
    got = hits(result, col, bool(own))
    bt["log"].append({"side": shooter, "die": die, "modifier": mod, "result": result,
                      "strength": col, "general": bool(own), "hits": got})
    return min(got, victims)


def _roll(state: State, log: Ctx) -> None:
    """Step 4: the defender's counters are fixed, both dice are rolled at the
    same time, and the order of fire is set (Elite Crossbowmen: first strike)."""
    bt = state["battle"]
    choice = bt["defend"] or default_defence(state)
    bt["def"] = {"ready": choice["ready"], "tired": choice["tired"],
                 "generals": list(choice["generals"])}
    leads = [choice["lead"]] if choice.get("lead") else []
    if "wei-wuji" in choice["generals"]:
        leads.append("wei-wuji")
    bt["def_leads"] = leads
    a = attackers(state)
    att_n = att_total(state)
    d = bt["def"]
    log.pub(
        f"{fname(state['op']['force'])} attack with {att_n} "
        f"({counters_text(int(a['moved']) + int(a['stayed']), a['generals'])}); "
        f"{fname(bt['target'])} defend with {def_total(state)} "
        f"({counters_text(int(d['ready']) + int(d['tired']), d['generals'])})"
        f"{', +1 for the city' if bt['city'] else ''}."
    )
    att_die = log.dice.die(6, "die:attacker")
    def_die = log.dice.die(6, "die:defender")
    bt["dice"] = {"att": att_die, "def": def_die}
    att_leads, def_leads = _leads(state)
    am = modifier(att_leads, def_leads, bt["att_drm"])
    dm = modifier(def_leads, att_leads, bt["def_drm"])
    log.pub(f"Dice: attacker rolls {att_die}{_mod(att_die, am)}, defender rolls "
            f"{def_die}{_mod(def_die, dm)}.", dice=[att_die, def_die])
    if bt["att_first"] and not bt["def_first"]:
        bt["seq"] = ["att", "def"]
        log.pub("The attacker fires first.")
    elif bt["def_first"] and not bt["att_first"]:
        bt["seq"] = ["def", "att"]
        log.pub("The defender fires first.")
    else:
        bt["seq"] = ["both"]
    bt["step"] = "fire"


def _mod(die: int, m: int) -> str:
    """`` (+1 = 6)``: the total modifier and the result; when the modifier
    pushes the result past 6 or below 1, `` (+1, capped at 6)`` (Combat Die
    Modifiers: "the final result cannot be less than 1 or greater than 6")."""
    if m == 0:
        return ""
    sign = "+" if m > 0 else ""
    result = clamp_die(die + m)
    if result != die + m:
        return f" ({sign}{m}, capped at {result})"
    return f" ({sign}{m} = {result})"


# --------------------------------------------------------------------------- losses


def loss_pool(state: State, victim: str) -> dict[str, Any]:
    """What ``victim`` ("att" or "def") can lose: armies by kind, and generals."""
    if victim == "att":
        a = attackers(state)
        return {"armies": {"moved": a["moved"], "stayed": a["stayed"]},
                "generals": list(a["generals"])}
    d = defenders(state)
    return {"armies": {"ready": d["ready"], "tired": d["tired"]},
            "generals": list(d["generals"])}


def _pool_text(pool: dict[str, Any]) -> str:
    words = {"moved": "moved", "stayed": "already on the battlefield",
             "ready": "ready", "tired": "exhausted"}
    parts = [f"{n} {words[kind]} {'army' if n == 1 else 'armies'}"
             for kind, n in pool["armies"].items() if n]
    parts += [gname(g) for g in pool["generals"]]
    return ", ".join(parts) if parts else "no counters"


def loss_summary(state: State) -> str:
    """Both sides' figures for the losses decision (its prompt is shared by
    the sides that choose): for the attacker and the defender, the counters
    the enemy eliminated and the counters taking part (Combat, Assigning
    losses: "The player commanding each side chooses which of its own army
    counters are lost")."""
    op = state["op"]
    bt = state["battle"]
    parts = []
    for victim, role, force, side in (
        ("att", "attacker", op["force"], op["side"]),
        ("def", "defender", bt["target"], other(op["side"])),
    ):
        pool = loss_pool(state, victim)
        total = sum(pool["armies"].values()) + len(pool["generals"])
        n = int(bt["pending"].get(victim, 0))
        parts.append(f"{side} ({fname(force)}, {role}) loses {n} of its {total} counters "
                     f"taking part ({_pool_text(pool)})")
    return "; ".join(parts) + "."


def loss_choice_needed(state: State, victim: str) -> bool:
    """A side chooses its losses only when it has a real choice: it loses some
    but not all of its counters, and they are not all alike."""
    n = state["battle"]["pending"].get(victim, 0)
    pool = loss_pool(state, victim)
    kinds = sum(1 for v in pool["armies"].values() if v) + len(pool["generals"])
    total = sum(pool["armies"].values()) + len(pool["generals"])
    return 0 < n < total and kinds > 1


def default_losses(state: State, victim: str) -> Cmd:
    """Losses nobody chose: armies before generals; the attacker loses moving
    armies first, the defender exhausted ones first; the activated general
    last."""
    n = int(state["battle"]["pending"].get(victim, 0))
    pool = loss_pool(state, victim)
    kinds = ("moved", "stayed") if victim == "att" else ("tired", "ready")
    armies: dict[str, int] = {}
    for kind in kinds:
        take = min(n, int(pool["armies"][kind]))
        if take:
            armies[kind] = take
        n -= take
    att_leads, def_leads = _leads(state)
    leads = att_leads if victim == "att" else def_leads
    gens = sorted(pool["generals"], key=lambda g: (g in leads, list(DATA.generals).index(g)))
    return {"verb": "LOSE", "armies": armies, "generals": gens[:n]}


def check_lose(state: State, victim: str, cmd: Cmd) -> Cmd:
    """LOSE: exactly the number of counters the enemy eliminated, from this
    side's counters taking part (Combat, Assigning losses)."""
    n = int(state["battle"]["pending"].get(victim, 0))
    pool = loss_pool(state, victim)
    armies = {k: v for k, v in cmd["armies"].items() if v}
    for kind, count in armies.items():
        if kind not in pool["armies"]:
            raise IllegalLine(f"you have no {kind.upper()} armies in this battle "
                              f"(kinds: {', '.join(k.upper() for k in pool['armies'])})")
        if count > pool["armies"][kind]:
            raise IllegalLine(f"you have only {pool['armies'][kind]} {kind.upper()} armies here")
    gens = list(cmd["generals"])
    if len(set(gens)) != len(gens):
        raise IllegalLine("a general is named twice")
    for g in gens:
        if g not in pool["generals"]:
            raise IllegalLine(f"{gname(g)} is not in this battle on your side")
    total = sum(armies.values()) + len(gens)
    if total != n:
        raise IllegalLine(f"you must lose exactly {n} counter{'s' if n != 1 else ''}")
    order = list(DATA.generals)
    return {"verb": "LOSE", "armies": armies, "generals": sorted(gens, key=order.index)}


def lose_choices(state: State, victim: str) -> list[Cmd]:
    n = int(state["battle"]["pending"].get(victim, 0))
    pool = loss_pool(state, victim)
    kinds = list(pool["armies"])
    out: list[Cmd] = []
    for k in range(0, min(n, len(pool["generals"])) + 1):
        for gens in combinations(pool["generals"], k):
            rest = n - k
            for first in range(0, min(rest, pool["armies"][kinds[0]]) + 1):
                second = rest - first
                if second > pool["armies"][kinds[1]]:
                    continue
                armies = {kinds[0]: first, kinds[1]: second}
                out.append(check_lose(state, victim, {"armies": armies, "generals": list(gens)}))
    return out


def _apply_losses(state: State, log: Ctx, victim: str, choice: Cmd) -> None:
    """Lost armies go off the board; lost generals to the turn track."""
    op = state["op"]
    bt = state["battle"]
    area = bt["area"]
    armies = choice["armies"]
    gens = list(choice["generals"])
    if victim == "att":
        force = op["force"]
        moved, stayed = int(armies.get("moved", 0)), int(armies.get("stayed", 0))
        op["group"]["armies"] -= moved
        op["stay"]["armies"] -= stayed
        st = B.stack(state, area, force)
        if stayed and st is not None:
            st["tired"] -= stayed
        for g in gens:
            if g in op["group"]["generals"]:
                op["group"]["generals"].remove(g)
            else:
                op["stay"]["generals"].remove(g)
                if st is not None:
                    st["generals"].pop(g, None)
            _lose_general(state, g)
        lost = moved + stayed
    else:
        force = bt["target"]
        st = B.stack(state, area, force)
        d = bt["def"]
        ready, tired = int(armies.get("ready", 0)), int(armies.get("tired", 0))
        d["ready"] -= ready
        d["tired"] -= tired
        if st is not None:
            st["ready"] -= ready
            st["tired"] -= tired
        for g in gens:
            d["generals"].remove(g)
            if g == "wei-wuji":
                bt["xinling"] = None
            elif st is not None:
                st["generals"].pop(g, None)
            _lose_general(state, g)
        lost = ready + tired
    if lost or gens:
        log.pub(f"{fname(force)} lose {counters_text(lost, gens)}.")
    B.prune(state, area)


# --------------------------------------------------------------------------- after a battle


def _after_battle(state: State, log: Ctx) -> str:
    """Results of Combat: capture, further battles, or retreat; returns the
    frame that follows."""
    op = state["op"]
    bt = state["battle"]
    area = bt["area"]
    force = op["force"]
    side = op["side"]
    if bt["xinling"]:
        # Lord Xinling: Wei Wuji leaves the map after the battle.
        state["generals"]["wei-wuji"] = "off"
        log.pub("Wei Wuji leaves the battlefield.")
    state["battle"] = None
    for f in B.check_elimination(state):
        log.pub(f"{fname(f)} is eliminated: all its counters are off the board.")
    if "qin" in state["eliminated"]:
        return "op-done"
    more_path = op["idx"] < len(op["path"])
    if att_total(state) == 0:
        log.pub(f"The attacking {fname(force)} counters are all eliminated.")
        B.settle_city(state, area)
        return "op-done"
    if B.size(B.stack(state, area, bt["target"])) > 0:
        # Both sides still have counters: the counters that moved in retreat to
        # the area they came from; those already there stay.
        prev = op["prev"]
        if prev is not None and (op["group"]["armies"] or op["group"]["generals"]):
            log.pub(f"The defenders hold: the attackers retreat to {aname(prev)}.")
            _place_group(state, log, prev)
        else:
            log.pub("The defenders hold.")
        B.settle_city(state, area)
        return "op-done"
    log.pub(f"The {fname(bt['target'])} counters in {aname(area)} are all eliminated.")
    B.prune(state, area)
    city_now = B.controller(state, area)
    if bt["city"] or city_now is None:
        # The city defenders are gone: the attacker controls the area.
        st = B.stack(state, area, force)
        if st is None:
            B.ensure_stack(state, area, force)
        state["areas"][area]["city"] = force
        log.pub(f"{fname(force)} take the city of {aname(area)}.")
        if op["mounted"] and more_path:
            op["options"] = ["ADVANCE", "STAY"]
            return "op-choose"
        _place_group(state, log, area)
        B.prune(state, area)
        return "op-done"
    options = [f"ATTACK {t}" for t in targets(state, area, force, side)]
    hostile_left = any(B.hostile(state, f, side) for f in B.forces_in(state, area) if f != force)
    moved = bool(op["group"]["armies"] or op["group"]["generals"])
    if moved and op["prev"] is not None:
        options.append("RETREAT")
    if not hostile_left or not moved:
        options.append("STAY")
    if op["mounted"] and more_path and moved:
        options.append("ADVANCE")
    op["options"] = options
    return "op-choose"


def continue_default(state: State) -> str:
    """What the deadline does: retreat (or stay) rather than attack again; when
    an attack is the only choice, the first target."""
    options: list[str] = state["op"]["options"]
    for pick in ("RETREAT", "STAY"):
        if pick in options:
            return pick
    return options[0]


def do_continue(state: State, log: Ctx, choice: str) -> str:
    """The attacker's answer after a battle: ATTACK another force, RETREAT,
    STAY or ADVANCE (Mounted Attack); returns the frame that follows."""
    op = state["op"]
    area = op["where"]
    op["options"] = []
    if choice.startswith("ATTACK "):
        _open_battle(state, log, area, choice.split()[1])
        return "battle-window"
    if choice == "RETREAT":
        log.pub(f"The attackers retreat to {aname(op['prev'])}.")
        _place_group(state, log, op["prev"])
    elif choice == "STAY":
        _place_group(state, log, area)
    elif choice == "ADVANCE":
        op["stay"] = {"armies": 0, "generals": []}
        B.prune(state, area)
        if B.controller(state, area) == op["force"] and B.stack(state, area, op["force"]) is None:
            state["areas"][area]["city"] = None
        B.settle_city(state, area)
        log.pub(f"The {fname(op['force'])} riders move on from {aname(area)}.")
        return "op-move"
    return "op-done"


def describe(state: State) -> dict[str, Any] | None:
    """The public picture of the operation and battle in progress, for views."""
    op = state.get("op")
    if op is None:
        return None
    out: dict[str, Any] = {
        "side": op["side"],
        "force": op["force"],
        "from": op["source"],
        "path": list(op["path"]),
        "at": op["where"],
        "moving": {"armies": op["group"]["armies"], "generals": list(op["group"]["generals"])},
        "label": op["label"],
        "options": list(op["options"]),
    }
    bt = state.get("battle")
    if bt is not None:
        out["battle"] = {
            "area": bt["area"],
            "target": bt["target"],
            "city": bt["city"],
            "step": bt["step"],
            "dice": None if bt["dice"] is None else [bt["dice"]["att"], bt["dice"]["def"]],
            "attacker_first": bool(bt["att_first"]),
            "defender_first": bool(bt["def_first"]),
            "attacker_drm": int(bt["att_drm"]),
            "defender_drm": int(bt["def_drm"]),
            "wei_wuji": bool(bt["xinling"]),
            "pending": {("attacker" if k == "att" else "defender"): v
                        for k, v in bt["pending"].items()},
        }
    return out


def render_op(prefix: str) -> Callable[[Cmd], str]:
    return lambda op: f"{prefix} {op_text(op)}"


_ = other
