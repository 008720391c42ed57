"""Pure game driving: accept actions, hold simultaneous orders, apply defaults at
deadlines, advance phases. No I/O, no clock: the service passes everything in.

A :class:`Table` is everything the judge knows about one running game that the
game itself does not keep: the game state, the rng counter, the orders held for
the current simultaneous decision (hidden until it resolves), and the WAIT and
DRAW flags. Every change goes through a function here that returns the new
table, the :class:`Entry` to append to the action log, and the events it made.
:func:`replay` rebuilds a table from the seed and the log; the judge's
``replay`` command checks it against the stored table.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from judge.engine import (
    JSON,
    Action,
    Decision,
    DecisionKind,
    Event,
    Game,
    IllegalLine,
    Outcome,
    Role,
    RuleError,
    State,
    public,
)
from judge.rng import Draw, Rng


@dataclass
class Table:
    """The judge's side of one game. JSON round-trips through :meth:`to_json`."""

    game: str
    options: dict[str, JSON]
    state: State
    counter: int = 0
    orders: dict[Role, list[dict[str, JSON]]] = field(default_factory=dict)
    submitted: list[Role] = field(default_factory=list)
    waiting: list[Role] = field(default_factory=list)
    draw_votes: list[Role] = field(default_factory=list)
    outcome: dict[str, JSON] | None = None
    queue: dict[Role, list[str]] = field(default_factory=dict)
    policies: dict[Role, dict[str, str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {
            "game": self.game,
            "options": self.options,
            "state": self.state,
            "counter": self.counter,
            "orders": self.orders,
            "submitted": sorted(self.submitted),
            "waiting": sorted(self.waiting),
            "draw_votes": sorted(self.draw_votes),
            "outcome": self.outcome,
            "queue": {r: list(q) for r, q in self.queue.items() if q},
            "policies": {r: dict(p) for r, p in self.policies.items() if p},
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), sort_keys=True)

    @classmethod
    def from_json(cls, raw: Mapping[str, JSON]) -> Table:
        return cls(
            game=raw["game"],
            options=dict(raw["options"]),
            state=raw["state"],
            counter=int(raw["counter"]),
            orders={k: list(v) for k, v in raw.get("orders", {}).items()},
            submitted=list(raw.get("submitted", [])),
            waiting=list(raw.get("waiting", [])),
            draw_votes=list(raw.get("draw_votes", [])),
            outcome=raw.get("outcome"),
            queue={k: list(v) for k, v in raw.get("queue", {}).items()},
            policies={k: dict(v) for k, v in raw.get("policies", {}).items()},
        )

    @classmethod
    def loads(cls, text: str) -> Table:
        return cls.from_json(json.loads(text))

    def bookkeeping_copy(self) -> Table:
        """A copy whose judge-side fields may be changed freely while the
        game state is shared with this table (for steps that do not touch
        it, such as holding orders: a deep copy of a large board per order
        mail costs more than the rest of the step)."""
        return Table(
            game=self.game,
            options=dict(self.options),
            state=self.state,
            counter=self.counter,
            orders={r: [dict(a) for a in held] for r, held in self.orders.items()},
            submitted=list(self.submitted),
            waiting=list(self.waiting),
            draw_votes=list(self.draw_votes),
            outcome=copy.deepcopy(self.outcome),
            queue={r: list(q) for r, q in self.queue.items()},
            policies={r: dict(p) for r, p in self.policies.items()},
        )

    def held(self, role: Role) -> list[Action]:
        return [Action.from_json(a) for a in self.orders.get(role, [])]


@dataclass
class Entry:
    """One row of the action log. ``kind`` is one of ``setup``, ``orders``,
    ``clear``, ``act``, ``resolve``, ``default``, ``draw``, ``flag``."""

    kind: str
    role: Role | None
    payload: dict[str, JSON]
    draws: list[Draw] = field(default_factory=list)


@dataclass
class Step:
    """What a change produced."""

    table: Table
    entries: list[Entry]
    events: list[Event]

    @property
    def resolved(self) -> bool:
        """Whether the game moved on (a resolution or an action), so reports are due."""
        return any(e.kind in MOVES for e in self.entries)


#: Log entry kinds that move the game on (reports follow them).
MOVES = frozenset({"setup", "act", "resolve", "default", "draw"})


class NotNow(IllegalLine):
    """A command that does not fit the game's current decision."""


# --------------------------------------------------------------------------- queries


def decisions(game: Game, table: Table) -> list[Decision]:
    if table.outcome is not None:
        return []
    return game.pending(table.state)


def phase_key(game: Game, table: Table) -> str:
    """Names the current decision(s); a change means a new deadline."""
    if table.outcome is not None:
        return "finished"
    return " + ".join(d.phase for d in decisions(game, table)) or "idle"


def ordering_roles(game: Game, table: Table) -> set[Role]:
    """Roles that owe orders in a simultaneous decision now."""
    return {r for d in decisions(game, table) if d.kind is DecisionKind.ORDERS for r in d.roles}


def acting_roles(game: Game, table: Table) -> set[Role]:
    """Roles that owe a single action or a response now."""
    return {
        r
        for d in decisions(game, table)
        if d.kind in (DecisionKind.ACTION, DecisionKind.RESPONSE)
        for r in d.roles
    }


def waiting_on(game: Game, table: Table, absent: Iterable[Role] = ()) -> set[Role]:
    """Roles the judge is still waiting for (absent seats are not waited for)."""
    gone = set(absent)
    owed = (ordering_roles(game, table) - set(table.submitted)) | acting_roles(game, table)
    return owed - gone


def ready(game: Game, table: Table, absent: Iterable[Role] = ()) -> bool:
    """Early processing: every seat owing orders has sent them and none asked to WAIT.

    Only simultaneous decisions are processed early; single actions and responses
    take effect as they arrive.
    """
    ordering = ordering_roles(game, table)
    if not ordering:
        return False
    gone = set(absent)
    owed = ordering - gone
    return owed <= set(table.submitted) and not (set(table.waiting) & owed)


# --------------------------------------------------------------------------- changes


def _rng(seed: bytes, table: Table) -> Rng:
    return Rng(seed, table.counter)


def _outcome(game: Game, table: Table) -> None:
    result: Outcome | None = game.outcome(table.state)
    if result is not None and table.outcome is None:
        table.outcome = result.to_json()


def _new_phase(table: Table) -> None:
    table.orders = {}
    table.submitted = []
    table.waiting = []


def start(game: Game, options: Mapping[str, JSON], seed: bytes) -> Step:
    """Set the game up from its options and seed."""
    rng = Rng(seed, 0)
    state = game.setup(dict(options), rng)
    table = Table(game=game.id, options=dict(options), state=state, counter=rng.counter)
    _outcome(game, table)
    entry = Entry("setup", None, {"options": dict(options)}, rng.draws)
    return Step(table, [entry], [])


def assign_seats(table: Table, seed: bytes, count: int) -> Step:
    """Draw the order in which ``count`` seats without a chosen role take the free
    roles (a Fisher-Yates shuffle from the game's seed, so the lot is auditable).
    ``payload["order"][i]`` is the index of the free role seat ``i`` gets."""
    rng = _rng(seed, table)
    order = rng.shuffled(list(range(count)), "seats")
    new = copy.deepcopy(table)
    new.counter = rng.counter
    return Step(new, [Entry("seats", None, {"count": count, "order": order}, rng.draws)], [])


def submit(
    game: Game, table: Table, role: Role, actions: Sequence[Action], *, replace_all: bool = False
) -> Step:
    """Hold ``actions`` as ``role``'s orders for the current simultaneous decision.

    An order with the same non-None key as a held one replaces it (the last
    order for a unit wins); ``replace_all`` first clears what was held (an
    ``ORDERS`` block is a complete set). Nothing is revealed until resolution.
    """
    if role not in ordering_roles(game, table):
        raise NotNow(f"{role} has no orders to give now", hint="send STATUS to see what is due")
    new = table.bookkeeping_copy()  # holding orders leaves the game state as it is
    held = [] if replace_all else new.held(role)
    for action in actions:
        if action.key is not None:
            held = [a for a in held if a.key != action.key]
        held.append(action)
    new.orders[role] = [a.to_json() for a in held]
    if role not in new.submitted:
        new.submitted.append(role)
    entry = Entry(
        "orders",
        role,
        {"actions": [a.to_json() for a in actions], "replace_all": replace_all},
    )
    return Step(new, [entry], [])


def act(game: Game, table: Table, role: Role, action: Action, seed: bytes) -> Step:
    """Take a single action or a response now."""
    if role not in acting_roles(game, table):
        raise NotNow(f"it is not {role}'s turn to act", hint="send STATUS to see what is due")
    rng = _rng(seed, table)
    state, events = game.act(copy.deepcopy(table.state), role, action, rng)
    new = copy.deepcopy(table)
    new.state = state
    new.counter = rng.counter
    _outcome(game, new)
    if phase_key(game, new) != phase_key(game, table):
        new.waiting = []
    entry = Entry("act", role, {"action": action.to_json()}, rng.draws)
    return Step(new, [entry], events)


def resolve(game: Game, table: Table, seed: bytes, trigger: str) -> Step:
    """Resolve the current simultaneous decision with the held orders (defaults
    for whatever is missing are the game's business)."""
    if not ordering_roles(game, table):
        raise NotNow("there is no simultaneous decision to resolve")
    rng = _rng(seed, table)
    orders = {role: table.held(role) for role in table.orders}
    state, events = game.resolve(copy.deepcopy(table.state), orders, rng)
    new = copy.deepcopy(table)
    new.state = state
    new.counter = rng.counter
    _new_phase(new)
    new.draw_votes = [r for r in new.draw_votes if r in game.roles(state)]
    _outcome(game, new)
    entry = Entry("resolve", None, {"trigger": trigger}, rng.draws)
    return Step(new, [entry], events)


def deadline(game: Game, table: Table, seed: bytes) -> Step:
    """The deadline has passed: resolve held orders with defaults, and take the
    default action of every seat that owes a single action or a response."""
    steps: list[Step] = []
    current = table
    if ordering_roles(game, current):
        steps.append(resolve(game, current, seed, "deadline"))
        current = steps[-1].table
    else:
        for decision in decisions(game, current):
            for role in decision.roles:
                if role not in acting_roles(game, current):
                    continue  # answered meanwhile, or the decision closed
                action = game.default(current.state, decision, role)
                if action is None:
                    continue
                step = act(game, current, role, action, seed)
                step.entries[0].kind = "default"
                steps.append(step)
                current = step.table
    return Step(
        current,
        [e for s in steps for e in s.entries],
        [ev for s in steps for ev in s.events],
    )


def set_flag(table: Table, role: Role, flag: str, on: bool) -> Step:
    """WAIT / DRAW flags. They change no game state but are logged."""
    new = copy.deepcopy(table)
    target = new.waiting if flag == "wait" else new.draw_votes
    if on and role not in target:
        target.append(role)
    if not on and role in target:
        target.remove(role)
    return Step(new, [Entry("flag", role, {"flag": flag, "on": on})], [])


def draw_agreed(game: Game, table: Table, survivors: Iterable[Role]) -> bool:
    alive = set(survivors)
    return bool(alive) and alive <= set(table.draw_votes)


def agree_draw(game: Game, table: Table, survivors: Sequence[Role]) -> Step:
    """End the game in a draw shared by ``survivors`` (every one voted DRAW)."""
    new = copy.deepcopy(table)
    hook = getattr(game, "agreed_draw", None)
    if hook is not None:
        new.state = hook(copy.deepcopy(new.state), list(survivors))
    new.outcome = Outcome(tuple(sorted(survivors)), True, "draw agreed by all survivors").to_json()
    _new_phase(new)
    ev = public("The game ends in a draw agreed by " + ", ".join(sorted(survivors)) + ".")
    return Step(new, [Entry("draw", None, {"survivors": sorted(survivors)})], [ev])


def enqueue(table: Table, role: Role, lines: Sequence[str]) -> Step:
    """Hold action lines sent while ``role`` is not on turn; :func:`drain` tries
    them, in order, when ``role`` next has to act. Hidden like held orders."""
    new = copy.deepcopy(table)
    new.queue.setdefault(role, []).extend(lines)
    return Step(new, [Entry("queue", role, {"lines": list(lines)})], [])


def set_policy(table: Table, role: Role, window: str, mode: str) -> Step:
    """A standing answer for a kind of response window: ``ask`` or ``pass``."""
    if mode not in ("ask", "pass"):
        raise ValueError("a policy is ASK or PASS")
    new = copy.deepcopy(table)
    policies = new.policies.setdefault(role, {})
    if mode == "ask":
        policies.pop(window, None)
    else:
        policies[window] = mode
    return Step(new, [Entry("policy", role, {"window": window, "mode": mode})], [])


def _drain_one(game: Game, table: Table, seed: bytes) -> Step | None:
    """One queued line or one policy answer, if any is due."""
    for decision in decisions(game, table):
        if decision.kind is DecisionKind.ORDERS:
            continue
        for role in decision.roles:
            if role not in acting_roles(game, table):
                continue
            if (
                decision.kind is DecisionKind.RESPONSE
                and decision.window
                and table.policies.get(role, {}).get(decision.window) == "pass"
            ):
                action = game.default(table.state, decision, role)
                if action is not None:
                    step = act(game, table, role, action, seed)
                    step.entries[0].kind = "default"
                    step.entries[0].payload["policy"] = decision.window
                    return step
            queued = table.queue.get(role)
            if queued and (
                decision.kind is DecisionKind.ACTION or _fits(game, table, role, queued[0])
            ):
                # On its turn a queued line is taken or dropped; a response
                # window takes it only if it answers the window, else the line
                # waits for the player's turn.
                return _pop_queued(game, table, role, seed)
    return None


def _fits(game: Game, table: Table, role: Role, line: str) -> bool:
    try:
        game.parse(table.state, role, line)
    except RuleError:
        return False
    return True


def _pop_queued(game: Game, table: Table, role: Role, seed: bytes) -> Step:
    popped = copy.deepcopy(table)
    line = popped.queue[role].pop(0)
    try:
        action = game.parse(popped.state, role, line)
        step = act(game, popped, role, action, seed)
    except RuleError as exc:  # no longer fits (or no longer understood): dropped
        ev = Event(f'Your queued action "{line}" was dropped: {exc.message}',
                   frozenset([role]), {"dropped": line})
        return Step(popped, [Entry("drop", role, {"line": line, "reason": exc.message})], [ev])
    step.entries[0].payload["queued"] = True
    return step


def drain(game: Game, table: Table, seed: bytes) -> list[Step]:
    """Take every queued action and policy answer that has become due, one step
    each (the caller commits them in order)."""
    steps: list[Step] = []
    current = table
    for _ in range(1000):
        step = _drain_one(game, current, seed)
        if step is None:
            break
        steps.append(step)
        current = step.table
    return steps


# --------------------------------------------------------------------------- replay


class ReplayError(Exception):
    """The log does not rebuild the stored game."""


def apply_entry(game: Game, table: Table | None, row: Mapping[str, Any], seed: bytes) -> Step:
    """Re-run one logged entry (``kind``, ``role``, ``payload`` as stored)."""
    kind = row["kind"]
    role = row["role"]
    payload: dict[str, Any] = row["payload"]
    if kind == "setup":
        return start(game, payload["options"], seed)
    if table is None:
        raise ReplayError("the log does not start with a setup entry")
    if kind == "orders":
        actions = [Action.from_json(a) for a in payload["actions"]]
        return submit(game, table, role, actions, replace_all=payload.get("replace_all", False))
    if kind in ("act", "default"):
        if payload.get("queued"):
            table = copy.deepcopy(table)
            table.queue[role].pop(0)
        step = act(game, table, role, Action.from_json(payload["action"]), seed)
        step.entries[0].kind = kind
        step.entries[0].payload.update(
            {k: v for k, v in payload.items() if k in ("queued", "policy")})
        return step
    if kind == "queue":
        return enqueue(table, role, payload["lines"])
    if kind == "policy":
        return set_policy(table, role, payload["window"], payload["mode"])
    if kind == "drop":
        new = copy.deepcopy(table)
        new.queue[role].pop(0)
        return Step(new, [Entry("drop", role, payload)], [])
    if kind == "resolve":
        return resolve(game, table, seed, payload.get("trigger", "deadline"))
    if kind == "seats":
        return assign_seats(table, seed, int(payload["count"]))
    if kind == "flag":
        return set_flag(table, role, payload["flag"], payload["on"])
    if kind == "draw":
        return agree_draw(game, table, payload["survivors"])
    raise ReplayError(f"unknown log entry kind {kind!r}")


def replay(game: Game, rows: Iterable[Mapping[str, Any]], seed: bytes) -> Table:
    """Rebuild a table from its log, checking every recorded draw on the way."""
    table: Table | None = None
    for i, row in enumerate(rows, 1):
        step = apply_entry(game, table, row, seed)
        logged = [Draw.from_json(d) for d in row.get("draws", [])]
        made = [d for e in step.entries for d in e.draws]
        if logged != made:
            raise ReplayError(f"entry {i} ({row['kind']}): draws differ from the log")
        table = step.table
    if table is None:
        raise ReplayError("empty log")
    return table
