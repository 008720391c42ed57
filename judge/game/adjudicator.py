"""Pure game driving: the stack of decisions, held orders and answers, queued
lines and standing answers, defaults at deadlines. No I/O, no clock: the
caller passes everything in and writes what comes out.

A :class:`Table` is everything the judge knows about one running game that the
game itself does not keep: the game state, the rng counter, the orders held
for the current simultaneous decision and the answers held for each open
response window (all hidden until they take effect), queued lines, standing
answers, and the WAIT and DRAW flags. Every change goes through a function
here that returns the new table, the :class:`Entry` rows to append to the
action log, and the events it made. :func:`replay` rebuilds a table from the
seed and the log.

The stack of decisions
----------------------

``game.pending(state)`` lists the decisions waiting, each with a ``depth``:
a response window opened while another decision waits stands above it. Only
the decisions of the greatest depth are open (:func:`open_decisions`); the
others wait below with whatever was held for them.

* A simultaneous order set (ORDERS) is held per role and resolved once, at
  its deadline or when every role is in.
* A single action (ACTION) takes effect when it arrives; lines a role sends
  while it has nothing to decide are queued for its next action
  (``queue``), each taken when its turn comes if it still fits, else
  dropped with a notice to its writer.
* A response window (RESPONSE) collects one answer from each of its roles
  in secret (by hand, or by a standing answer, ``POLICY``), revisable until
  it closes. Who is asked by hand is fixed as it opens, on public facts and
  each seat's settings; every other role gets its standing answer at once
  (judge/game/timing.py). It closes when the caller says so: when every role
  asked by hand has answered (at once if none is), or at its deadline, where
  a silent one gets its other standing answers. Then the
  answers are applied in the rulebook's order of the window's roles; a role
  without an answer gets the game's default. An answer that opens a window
  of its own (an answer to an answer) suspends the closing: the new window
  is collected and closed first, then the rest of the outer one is applied
  where it still fits. Answers that were not needed go back to their
  writers with a private notice.

Nothing in this module knows a game; games say which windows open, which
roles answer, and what the answers do.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from judge.game import timing
from judge.game.engine import (
    JSON,
    Action,
    Decision,
    DecisionKind,
    Event,
    IllegalLine,
    InvalidLine,
    Outcome,
    Role,
    RuleError,
    State,
    copy_json,
    live,
    private,
    public,
)
from judge.game.flow import kernel_of
from judge.game.rng import Draw, Rng
from judge.game.spec import Game

#: What a queued line waits for (the kind of decision it was written for).
FOR_ACTION = "action"


@dataclass
class Table:
    """The judge's side of one game. JSON round-trips through :meth:`to_json`.

    ``windows`` holds, per open response window (by decision id), its kind,
    roles, the answers held (``{role: {"lines": [action...], "by": "hand" |
    "policy"}}``) and whether it is closing. ``queue`` holds per role the
    lines waiting for a decision (``{"line", "for"}``); ``policies`` per role
    and window kind the standing answers (``{"answer", "when"}``) in the
    order they are tried.
    """

    game: str
    options: dict[str, JSON]
    state: State
    counter: int = 0
    orders: dict[Role, list[dict[str, JSON]]] = field(default_factory=dict)
    submitted: list[Role] = field(default_factory=list)
    waiting: list[Role] = field(default_factory=list)
    draw_votes: list[Role] = field(default_factory=list)
    outcome: dict[str, JSON] | None = None
    queue: dict[Role, list[dict[str, str]]] = field(default_factory=dict)
    policies: dict[Role, dict[str, list[dict[str, str]]]] = field(default_factory=dict)
    windows: dict[str, dict[str, Any]] = field(default_factory=dict)
    unready: list[Role] = field(default_factory=list)
    """Roles whose latest orders had a refused line: not ready for early
    processing until they send orders with none (or NOWAIT)."""
    missed: dict[Role, int] = field(default_factory=dict)
    """Deadlines in a row each role let pass without a word (for the GM's
    notice of an abandoned seat)."""
    concessions: dict[Role, Role] = field(default_factory=dict)
    """Role -> the role it concedes the game to (CONCEDE)."""
    ahead: dict[Role, dict[str, list[str]]] = field(default_factory=dict)
    """Orders sent ahead: role -> later phase -> its lines, checked when that
    phase opens (``ORDERS F1901R``)."""

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
            "queue": {r: [dict(q) for q in qs] for r, qs in self.queue.items() if qs},
            "policies": {
                r: {k: [dict(e) for e in es] for k, es in p.items() if es}
                for r, p in self.policies.items()
                if any(p.values())
            },
            "windows": self.windows,
            **({"unready": sorted(self.unready)} if self.unready else {}),
            **({"missed": dict(sorted(self.missed.items()))} if self.missed else {}),
            **({"concessions": dict(sorted(self.concessions.items()))}
               if self.concessions else {}),
            **({"ahead": {r: dict(p) for r, p in self.ahead.items() if p}}
               if any(self.ahead.values()) else {}),
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
            queue={k: [_queued(q) for q in v] for k, v in raw.get("queue", {}).items()},
            policies={k: _policies(v) for k, v in raw.get("policies", {}).items()},
            windows=copy.deepcopy(dict(raw.get("windows", {}))),
            unready=list(raw.get("unready", [])),
            missed={k: int(v) for k, v in raw.get("missed", {}).items()},
            concessions={k: str(v) for k, v in raw.get("concessions", {}).items()},
            ahead={r: {ph: list(ls) for ph, ls in p.items()}
                   for r, p in raw.get("ahead", {}).items()},
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
            outcome=copy_json(self.outcome),
            queue={r: [dict(q) for q in qs] for r, qs in self.queue.items()},
            policies=copy_json(self.policies),
            windows=copy_json(self.windows),
            unready=list(self.unready),
            missed=dict(self.missed),
            concessions=dict(self.concessions),
            ahead={r: {ph: list(ls) for ph, ls in p.items()} for r, p in self.ahead.items()},
        )

    def held(self, role: Role) -> list[Action]:
        return [Action.from_json(a) for a in self.orders.get(role, [])]

    def answer_of(self, window: str, role: Role) -> list[Action] | None:
        """What ``role`` holds for ``window`` (None: not answered)."""
        got = self.windows.get(window, {}).get("answers", {}).get(role)
        return None if got is None else [Action.from_json(a) for a in got["lines"]]


def _queued(raw: Any) -> dict[str, str]:
    """A queued line (tables written before lines were bound to a decision kind
    held bare strings, all meant for the writer's next turn; a ``mark`` is
    what the line was written against, :attr:`judge.game.spec.GameSpec.plan_mark`)."""
    if isinstance(raw, str):
        return {"line": raw, "for": FOR_ACTION}
    out = {"line": str(raw["line"]), "for": str(raw.get("for", FOR_ACTION))}
    if raw.get("mark"):
        out["mark"] = str(raw["mark"])
    return out


def _policies(raw: Mapping[str, Any]) -> dict[str, list[dict[str, str]]]:
    """Standing answers per window kind (older tables: ``{kind: "pass"}``)."""
    out: dict[str, list[dict[str, str]]] = {}
    for kind, value in raw.items():
        if isinstance(value, str):
            out[kind] = [{"answer": value.upper(), "when": ""}]
        else:
            out[kind] = [{"answer": str(e["answer"]), "when": str(e.get("when", ""))}
                         for e in value]
    return out


@dataclass
class Entry:
    """One row of the action log. ``kind`` is one of ``setup``, ``seats``,
    ``orders``, ``act``, ``default``, ``resolve``, ``answer``, ``close``,
    ``queue``, ``unqueue``, ``drop``, ``policy``, ``flag``, ``draw``,
    ``concede``."""

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


#: Log entry kinds that move the game on (events come from them).
MOVES = frozenset({"setup", "act", "resolve", "default", "draw", "concede", "conceded",
                   "declared"})


def join(table: Table, steps: Sequence[Step]) -> Step:
    """Several steps in a row as one (``table`` if there are none)."""
    if not steps:
        return Step(table, [], [])
    return Step(steps[-1].table, [e for s in steps for e in s.entries],
                [ev for s in steps for ev in s.events])


class NotNow(IllegalLine):
    """A command that does not fit the game's current decision."""


# --------------------------------------------------------------------------- queries


def decisions(game: Game, table: Table) -> list[Decision]:
    """Every decision on the stack, open or waiting below."""
    if table.outcome is not None:
        return []
    return game.pending(table.state)


def open_decisions(game: Game, table: Table) -> list[Decision]:
    """The decisions open now: the top of the stack. A game on the decision
    kernel (judge/game/flow.py) is asked which depth is open; for any other, the
    greatest depth listed is."""
    pending = decisions(game, table)
    rules = kernel_of(game)
    if rules is None or not pending or not rules.playing(table.state):
        return live(pending)
    depth = rules.open_depth(table.state)
    return [d for d in pending if d.depth == depth]


def phase_key(game: Game, table: Table) -> str:
    """Names the open decision(s); a change means a new deadline."""
    if table.outcome is not None:
        return "finished"
    return " + ".join(d.phase for d in open_decisions(game, table)) or "idle"


def _of_kind(game: Game, table: Table, kind: DecisionKind) -> list[Decision]:
    return [d for d in open_decisions(game, table) if d.kind is kind]


def ordering_roles(game: Game, table: Table) -> set[Role]:
    """Roles that owe orders in an open simultaneous decision."""
    return {r for d in _of_kind(game, table, DecisionKind.ORDERS) for r in d.roles}


def acting_roles(game: Game, table: Table) -> set[Role]:
    """Roles that owe a single action now."""
    return {r for d in _of_kind(game, table, DecisionKind.ACTION) for r in d.roles}


def open_window(game: Game, table: Table) -> Decision | None:
    """The response window open now (collecting or closing), if any."""
    found = _of_kind(game, table, DecisionKind.RESPONSE)
    return found[-1] if found else None


def answering_roles(game: Game, table: Table) -> set[Role]:
    """Roles asked by hand in the open window, while it is not closing
    (judge/game/timing.py: the others hold their standing answers, and nothing
    names the window to them)."""
    w = open_window(game, table)
    if w is None:
        return set()
    record = table.windows.get(w.id, {})
    if record.get("closing"):
        return set()
    return set(timing.by_hand(record, w.roles))


def unanswered(game: Game, table: Table, absent: Iterable[Role] = ()) -> set[Role]:
    """Roles of the open window that hold no answer yet (absent seats aside)."""
    w = open_window(game, table)
    if w is None:
        return set()
    answers = table.windows.get(w.id, {}).get("answers", {})
    return answering_roles(game, table) - set(answers) - set(absent)


def waiting_on(game: Game, table: Table, absent: Iterable[Role] = ()) -> set[Role]:
    """Roles the judge is still waiting for (absent seats are not waited for)."""
    gone = set(absent)
    owed = (ordering_roles(game, table) - set(table.submitted)) | acting_roles(game, table)
    return (owed - gone) | unanswered(game, table, gone)


def ready(game: Game, table: Table, absent: Iterable[Role] = ()) -> bool:
    """Early processing of orders: every seat owing orders has sent them and
    none asked to WAIT."""
    ordering = ordering_roles(game, table)
    if not ordering:
        return False
    owed = ordering - set(absent)
    held_back = set(table.waiting) | set(table.unready)
    return owed <= set(table.submitted) and not (held_back & owed)


def window_complete(game: Game, table: Table, absent: Iterable[Role] = ()) -> bool:
    """The open window has an answer from every role it asks by hand (the
    others hold their standing answers from the start), so it may close
    (:func:`judge.game.timing.may_close` says when)."""
    w = open_window(game, table)
    if w is None or table.windows.get(w.id, {}).get("closing"):
        return False
    return not unanswered(game, table, absent)


def asks_anyone(game: Game, table: Table) -> bool:
    """Whether the open window asks any seat by hand."""
    w = open_window(game, table)
    if w is None:
        return False
    return bool(timing.by_hand(table.windows.get(w.id, {}), w.roles))


def decision_for(game: Game, table: Table, role: Role) -> Decision | None:
    """The open decision ``role`` has a part in, if any: a response window
    only if it asks ``role`` by hand (judge/game/timing.py: one that does not is
    named to it nowhere)."""
    for d in open_decisions(game, table):
        if role in d.roles:
            if d.kind is DecisionKind.RESPONSE and role not in answering_roles(game, table):
                continue
            return d
    return None


# --------------------------------------------------------------------------- stack upkeep


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
    table.unready = []


def _sync(game: Game, table: Table) -> list[Event]:
    """Bring the window records in line with the game's stack: a window the
    game no longer lists is over (answers it did not use go back to their
    writers, privately); a newly listed one is recorded, empty. Mutates
    ``table``."""
    listed = {d.id: d for d in decisions(game, table) if d.kind is DecisionKind.RESPONSE}
    events: list[Event] = []
    for wid in [w for w in table.windows if w not in listed]:
        record = table.windows.pop(wid)
        for role, got in sorted(record.get("answers", {}).items()):
            unused = [Action.from_json(a).text for a in got["lines"]]
            if unused:
                events.append(private(
                    role, f"Your answer {'; '.join(unused)!r} was not needed: the window "
                    "closed before it was your turn to answer.", unused=unused))
    for wid, d in listed.items():
        if wid not in table.windows:
            table.windows[wid] = {"kind": d.window, "roles": list(d.roles),
                                  "answers": {}, "closing": False}
    return events


def _act(game: Game, table: Table, role: Role, action: Action, seed: bytes,
         kind: str = "act", extra: Mapping[str, JSON] | None = None) -> Step:
    """Apply one action to the game state (no check of whose turn it is)."""
    rng = _rng(seed, table)
    # A transition never changes the state it is given (the contract, which
    # the contract suite checks of every game): the table's is passed as is.
    state, events = game.act(table.state, role, action, rng)
    new = table.bookkeeping_copy()  # the state is replaced: no need to copy the old one
    new.state = state
    new.counter = rng.counter
    _outcome(game, new)
    if phase_key(game, new) != phase_key(game, table):
        new.waiting = []
    if kind == "act" and (extra or {}).get("by") != "policy":
        new.missed.pop(role, None)  # the seat had its say (by hand or a queued line)
    events = list(events) + _sync(game, new)
    payload: dict[str, JSON] = {"action": action.to_json(), **(extra or {})}
    return Step(new, [Entry(kind, role, payload, rng.draws)], events)


# --------------------------------------------------------------------------- changes


def start(game: Game, options: Mapping[str, JSON], seed: bytes) -> Step:
    """Set the game up from its options and seed."""
    rng = Rng(seed, 0)
    state = game.setup(dict(options), rng)
    table = Table(game=game.id, options=dict(options), state=state, counter=rng.counter)
    for role in game.roles(state):  # the game's standing answers to begin with
        for window, answer_text, when in game.standing_answers(state, role):
            table.policies.setdefault(role, {}).setdefault(window, []).append(
                {"answer": answer_text, "when": when})
    _outcome(game, table)
    _sync(game, table)
    entry = Entry("setup", None, {"options": dict(options)}, rng.draws)
    return Step(table, [entry], [])


def assign_seats(table: Table, seed: bytes, count: int) -> Step:
    """Draw the order in which ``count`` seats without a chosen role take the free
    roles (a Fisher-Yates shuffle from the game's seed, so the lot is auditable).
    ``payload["order"][i]`` is the index of the free role seat ``i`` gets."""
    rng = _rng(seed, table)
    order = rng.shuffled(list(range(count)), "seats")
    new = table.bookkeeping_copy()
    new.counter = rng.counter
    return Step(new, [Entry("seats", None, {"count": count, "order": order}, rng.draws)], [])


def submit(
    game: Game, table: Table, role: Role, actions: Sequence[Action], *, replace_all: bool = False
) -> Step:
    """Hold ``actions`` as ``role``'s orders for the open simultaneous decision.

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
    new.missed.pop(role, None)
    if role not in new.submitted:
        new.submitted.append(role)
    entry = Entry(
        "orders",
        role,
        {"actions": [a.to_json() for a in actions], "replace_all": replace_all},
    )
    return Step(new, [entry], [])


def act(game: Game, table: Table, role: Role, action: Action, seed: bytes) -> Step:
    """Take ``role``'s single action now."""
    if role not in acting_roles(game, table):
        raise NotNow(f"it is not {role}'s turn to act", hint="send STATUS to see what is due")
    return _act(game, table, role, action, seed)


def answer(game: Game, table: Table, role: Role, actions: Sequence[Action],
           by: str = "hand") -> Step:
    """Hold ``actions`` as ``role``'s answer to the open window, replacing
    what it held (by hand or by a standing answer). Hidden until the window
    closes; applied then in the order given, the game's default after them
    if the window still waits for ``role``."""
    w = open_window(game, table)
    if w is None or role not in w.roles:
        raise NotNow(f"no response window is open for {role}",
                     hint="send STATUS to see what is due")
    if table.windows.get(w.id, {}).get("closing"):
        raise NotNow("the window is already closing: answers are being applied")
    new = table.bookkeeping_copy()
    new.windows.setdefault(w.id, {"kind": w.window, "roles": list(w.roles),
                                  "answers": {}, "closing": False})
    new.windows[w.id]["answers"][role] = {"lines": [a.to_json() for a in actions], "by": by}
    if by == "hand":
        new.missed.pop(role, None)
    entry = Entry("answer", role, {"window": w.id, "actions": [a.to_json() for a in actions],
                                   "by": by})
    return Step(new, [entry], [])


def close(game: Game, table: Table, seed: bytes, trigger: str) -> Step:
    """Close the open window: apply the held answers in the order of its roles
    (the game's default for a role with none left), until the window is over
    or an answer opens a window above it (then the rest waits: :func:`drain`
    goes on with it once it is open again)."""
    w = open_window(game, table)
    if w is None:
        raise NotNow("there is no response window to close")
    steps: list[Step] = []
    current = table
    record = current.windows.get(w.id, {})
    if not record.get("closing"):
        for role in timing.by_hand(record, w.roles):  # silent at the deadline:
            if role in record.get("answers", {}):  # its other standing answers, if
                continue  # they give more than the default (which closing gives)
            got = timing.standing(game, current, role, w)
            default = game.default(current.state, w, role)
            if got == ([default] if default is not None else []):
                continue
            held = answer(game, current, role, got, by="policy")
            steps.append(held)
            current = held.table
        new = current.bookkeeping_copy()
        new.windows.setdefault(w.id, {"kind": w.window, "roles": list(w.roles),
                                      "answers": {}, "closing": False})["closing"] = True
        steps.append(Step(new, [Entry("close", None, {"window": w.id, "trigger": trigger})], []))
        current = new
    for _ in range(10_000):
        step = _close_one(game, current, w.id, seed)
        if step is None:
            break
        steps.append(step)
        current = step.table
    return join(table, steps)


def _close_one(game: Game, table: Table, wid: str, seed: bytes) -> Step | None:
    """The next answer of closing window ``wid``, while it is the open window."""
    w = open_window(game, table)
    if w is None or w.id != wid or table.outcome is not None:
        return None
    record = table.windows[wid]
    for role in w.roles:
        got = record["answers"].get(role)
        lines = got["lines"] if got else []
        if lines:
            action = Action.from_json(lines[0])
            popped = table.bookkeeping_copy()
            popped.windows[wid]["answers"][role]["lines"] = lines[1:]
            extra = {"window": wid, "held": True, "by": got["by"] if got else "hand"}
            try:
                game.parse(table.state, role, action.text)
                step = _act(game, popped, role, action, seed, "act", extra)
            except RuleError as exc:  # no longer fits: dropped, privately
                ev = private(role, f'Your answer "{action.text}" was not taken: {exc.message}',
                             dropped=action.text)
                return Step(popped, [Entry("drop", role, {"window": wid, "line": action.text,
                                                          "reason": exc.message})], [ev])
            default = game.default(table.state, w, role)
            if extra["by"] == "policy" and (default is None or default.text != action.text):
                # A standing answer played something for the seat: it is told
                # what, and how to change it.
                step.events.append(private(role, (
                    f"Your standing answer for {w.window} windows ({w.phase}) played for "
                    f"you: {action.text}. To be asked by hand instead: POLICY {w.window} "
                    f"ASK; to answer nothing: POLICY {w.window} PASS; POLICY lists yours."),
                    standing=w.window))
            return step
        default = game.default(table.state, w, role)
        if default is not None:
            return _act(game, table, role, default, seed, "default", {"window": wid})
    return None


def resolve(game: Game, table: Table, seed: bytes, trigger: str) -> Step:
    """Resolve the open simultaneous decision with the held orders (defaults
    for whatever is missing are the game's business)."""
    if not ordering_roles(game, table):
        raise NotNow("there is no simultaneous decision to resolve")
    rng = _rng(seed, table)
    orders = {role: table.held(role) for role in table.orders}
    state, events = game.resolve(table.state, orders, rng)  # see _act
    new = table.bookkeeping_copy()
    new.state = state
    new.counter = rng.counter
    _new_phase(new)
    new.draw_votes = [r for r in new.draw_votes if r in game.roles(state)]
    _outcome(game, new)
    events = list(events) + _sync(game, new)
    entry = Entry("resolve", None, {"trigger": trigger}, rng.draws)
    return Step(new, [entry], events)


def missed(table: Table, roles: Iterable[Role]) -> Step:
    """``roles`` let a deadline pass without a word: one more in a row each."""
    new = table.bookkeeping_copy()
    names = sorted(set(roles))
    for role in names:
        new.missed[role] = new.missed.get(role, 0) + 1
    return Step(new, [Entry("missed", None, {"roles": names})], [])


def missed_by(game: Game, table: Table, absent: Iterable[Role] = ()) -> set[Role]:
    """The seats the deadline of the open decision counts as missed: those
    the judge still waits for (``absent`` ones aside), unless the deadline
    closes a response window: a window that lapses to its default (a pass)
    is answered by design, and is no missed deadline."""
    if not ordering_roles(game, table) and open_window(game, table) is not None:
        return set()
    return waiting_on(game, table, absent)


def deadline(game: Game, table: Table, seed: bytes, absent: Iterable[Role] = ()) -> Step:
    """The deadline of the open decision has passed: resolve held orders with
    defaults, close the open window, or take the default action of every
    seat that owes one. Seats that missed it (:func:`missed_by`) are counted."""
    owed = missed_by(game, table, absent)
    first = [missed(table, owed)] if owed else []
    table = first[0].table if first else table
    if ordering_roles(game, table):
        return join(table, [*first, resolve(game, table, seed, "deadline")])
    if open_window(game, table) is not None:
        return join(table, [*first, close(game, table, seed, "deadline")])
    steps: list[Step] = list(first)
    current = table
    for decision in open_decisions(game, table):
        for role in decision.roles:
            if role not in acting_roles(game, current):
                continue  # answered meanwhile, or the decision closed
            action = game.default(current.state, decision, role)
            if action is None:
                continue
            step = _act(game, current, role, action, seed, "default")
            steps.append(step)
            current = step.table
    return join(table, steps)


def set_flag(table: Table, role: Role, flag: str, on: bool) -> Step:
    """WAIT / DRAW flags, and ``unready`` (orders with a refused line). They
    change no game state but are logged."""
    new = table.bookkeeping_copy()
    target = {"wait": new.waiting, "draw": new.draw_votes, "unready": new.unready}[flag]
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
    new.state = game.agreed_draw(copy.deepcopy(new.state), list(survivors))
    new.outcome = Outcome(tuple(sorted(survivors)), True, "draw agreed by all survivors").to_json()
    _new_phase(new)
    new.windows = {}
    ev = public("The game ends in a draw agreed by " + ", ".join(sorted(survivors)) + ".")
    return Step(new, [Entry("draw", None, {"survivors": sorted(survivors)})], [ev])


def declare(game: Game, table: Table, winners: Sequence[Role], draw: bool,
            cancelled: bool = False) -> Step:
    """The GM ends the game: a draw shared by ``winners``, a win by the one
    in ``winners``, or (``cancelled``, no winners) no result at all."""
    new = copy.deepcopy(table)
    names = sorted(winners) if draw else list(winners)
    if draw:
        new.state = game.agreed_draw(copy.deepcopy(new.state), names)
    reason = "cancelled by the GM" if cancelled else "declared by the GM"
    new.outcome = Outcome(tuple(names), draw, reason).to_json()
    if cancelled:
        new.outcome["cancelled"] = True
    _new_phase(new)
    new.windows = {}
    result = ("a draw shared by " if draw else "won by ") + ", ".join(names)
    ev = public("The GM has " + ("cancelled the game: it ends with no result." if cancelled
                                 else f"ended the game: {result}."))
    return Step(new, [Entry("declared", None, {"winners": names, "draw": draw,
                                               "cancelled": cancelled})], [ev])


def concede_to(table: Table, role: Role, target: Role | None) -> Step:
    """``role`` concedes the game to ``target`` (None: withdraws it)."""
    new = table.bookkeeping_copy()
    if target is None:
        new.concessions.pop(role, None)
    else:
        new.concessions[role] = target
    return Step(new, [Entry("concession", role, {"to": target})], [])


def concession_agreed(table: Table, survivors: Iterable[Role]) -> Role | None:
    """The role every other survivor concedes the game to, if there is one."""
    alive = set(survivors)
    targets = {table.concessions.get(r) for r in alive}
    for target in targets - {None}:
        assert target is not None
        if target in alive and all(table.concessions.get(r) == target for r in alive - {target}):
            return target
    return None


def agree_concession(game: Game, table: Table, winner: Role) -> Step:
    """End the game: every other survivor conceded it to ``winner``."""
    new = copy.deepcopy(table)
    new.outcome = Outcome((winner,), False, "conceded by every other survivor").to_json()
    _new_phase(new)
    new.windows = {}
    ev = public(f"The game ends: every other survivor concedes it to {winner}, who wins.")
    return Step(new, [Entry("conceded", None, {"winner": winner})], [ev])


def concede(game: Game, table: Table, role: Role) -> Step | None:
    """``role`` resigns in a game whose rules make that a concession (None
    when they do not: the seat falls into civil disorder instead)."""
    done = game.concede(copy.deepcopy(table.state), role)
    if done is None:
        return None
    state, events = done
    new = copy.deepcopy(table)
    new.state = state
    _outcome(game, new)
    _new_phase(new)
    events = list(events) + _sync(game, new)
    return Step(new, [Entry("concede", role, {})], events)


# --------------------------------------------------------------------------- queues


def enqueue(table: Table, role: Role, lines: Sequence[str], kind: str = FOR_ACTION,
            mark: str = "") -> Step:
    """Hold lines for ``role``'s next decision of ``kind`` (its next turn);
    :func:`drain` tries them in order then. Hidden like held orders. ``mark``
    (the game's :attr:`~judge.game.spec.GameSpec.plan_mark` now) is what they were
    written against: while it is unchanged they are taken."""
    new = table.bookkeeping_copy()
    extra = {"mark": mark} if mark else {}
    new.queue.setdefault(role, []).extend({"line": ln, "for": kind, **extra} for ln in lines)
    return Step(new, [Entry("queue", role, {"lines": list(lines), "for": kind, **extra})], [])


def unqueue(table: Table, role: Role, numbers: Sequence[int] | None) -> Step:
    """CANCEL queued lines by their numbers (1 = the next to be tried), or all."""
    queued = table.queue.get(role, [])
    if numbers is None:
        picked = list(range(len(queued)))
    else:
        bad = [n for n in numbers if not 1 <= n <= len(queued)]
        if bad:
            raise NotNow(f"you have no queued line {bad[0]}",
                         hint=f"you have {len(queued)}; QUEUE lists them")
        picked = sorted({n - 1 for n in numbers})
    new = table.bookkeeping_copy()
    new.queue[role] = [q for i, q in enumerate(queued) if i not in picked]
    return Step(new, [Entry("unqueue", role, {"indices": picked})], [])


# --------------------------------------------------------------------------- orders ahead


def hold_ahead(table: Table, role: Role, phase: str, lines: Sequence[str]) -> Step:
    """Hold ``role``'s orders for a later phase of its own (a retreat or build
    preference); they replace any held for that phase and are checked when
    it opens."""
    new = table.bookkeeping_copy()
    new.ahead.setdefault(role, {})[phase] = list(lines)
    return Step(new, [Entry("ahead", role, {"phase": phase, "lines": list(lines)})], [])


def _ahead_step(game: Game, table: Table) -> Step | None:
    """Orders sent ahead for the order set open now become its orders (the
    lines that no longer fit are dropped, privately); those for a phase that
    can no longer come are dropped too."""
    now = {d.phase for d in open_decisions(game, table) if d.kind is DecisionKind.ORDERS}
    for role in sorted(table.ahead):
        for phase, lines in sorted(table.ahead[role].items()):
            if phase in now and role in ordering_roles(game, table):
                return _take_ahead(game, table, role, phase, lines)
            if phase not in now and not game.phase_after(table.state, phase):
                new = table.bookkeeping_copy()
                del new.ahead[role][phase]
                ev = private(role, f"Your orders sent ahead for {phase} were not used: that "
                             "phase did not come for you.", unused=lines)
                return Step(new, [Entry("ahead_done", role, {"phase": phase})], [ev])
    return None


def _take_ahead(game: Game, table: Table, role: Role, phase: str, lines: list[str]) -> Step:
    new = table.bookkeeping_copy()
    del new.ahead[role][phase]
    done = Step(new, [Entry("ahead_done", role, {"phase": phase})], [])
    actions: list[Action] = []
    events: list[Event] = []
    for line in lines:
        try:
            actions.append(game.parse(new.state, role, line))
        except RuleError as exc:
            events.append(private(role, f'Your order sent ahead for {phase}, "{line}", was not '
                                  f"taken: {exc.message}", dropped=line))
    events.append(private(role, f"Your orders sent ahead for {phase} are held: "
                          + ("; ".join(a.text for a in actions) or "none fitted") + "."))
    held = submit(game, new, role, actions, replace_all=True)
    return join(table, [done, Step(held.table, held.entries, events)])


# --------------------------------------------------------------------------- standing answers


def set_policy(table: Table, role: Role, window: str, answer_text: str, when: str = "") -> Step:
    """A standing answer for windows of kind ``window``: ``ASK`` (ask me),
    ``PASS`` or an answer line, under condition ``when`` (empty: always).
    ``ASK`` with no condition clears every standing answer of that kind;
    otherwise an entry with the same condition is replaced. Conditional
    entries are tried first, in the order given, then the unconditional one."""
    new = table.bookkeeping_copy()
    entries = new.policies.setdefault(role, {}).setdefault(window, [])
    if answer_text.upper() == "ASK" and not when:
        entries.clear()
    else:
        entries[:] = [e for e in entries if e["when"] != when]
        entries.append({"answer": answer_text, "when": when})
    payload: dict[str, JSON] = {"window": window, "answer": answer_text, "when": when}
    return Step(new, [Entry("policy", role, payload)], [])


def ordered_policies(table: Table, role: Role, window: str) -> list[dict[str, str]]:
    entries = table.policies.get(role, {}).get(window, [])
    return [e for e in entries if e["when"]] + [e for e in entries if not e["when"]]


def standing_text(game: Game, table: Table, role: Role) -> str:
    """``role``'s standing answers, kind by kind in the order they are tried,
    and how to change them: its first report says what the judge answers for
    it without asking (DESIGN: response windows)."""
    if not game.windows:
        return ""
    lines = ["Standing answers: the judge answers these windows for you at once, "
             "without asking you, with the first of your answers that fits (a card "
             "you do not hold does not fit; then the next is tried):"]
    for w in game.windows:
        entries = ordered_policies(table, role, w.kind)
        if not entries or (len(entries) == 1 and entries[0]["answer"].upper() == "ASK"
                           and not entries[0]["when"]):
            lines.append(f"  {w.kind}: you are asked by hand")
            continue
        lines.append(f"  {w.kind}:")
        lines.extend(f"    POLICY {w.kind} {e['answer']}"
                     + (f" WHEN {e['when']}" if e["when"] else "") for e in entries)
    lines.append("To change them: POLICY <window> ASK has you asked by hand every time; "
                 "POLICY <window> PASS answers nothing; POLICY <window> <answer> WHEN "
                 "<condition> adds or replaces one; POLICY alone lists yours; HELP "
                 f"{game.id} says what each window is and the answers and conditions it "
                 "takes.")
    return "\n".join(lines)


def policy_answer(game: Game, table: Table, role: Role, w: Decision) -> list[Action] | None:
    """What ``role``'s standing answers give for window ``w`` (None: ask).
    Conditions are tested on the seat's own view only."""
    entries = ordered_policies(table, role, w.window)
    if not entries:
        return None
    view = game.view(table.state, role)
    for entry in entries:
        if entry["when"] and not game.policy_holds(view, w, entry["when"]):
            continue
        word = entry["answer"].upper()
        if word == "ASK":
            return None
        if word == "PASS":
            default = game.default(table.state, w, role)
            return [default] if default is not None else []
        try:
            return [game.parse(table.state, role, entry["answer"])]
        except RuleError:
            continue  # does not fit this window: try the next entry
    return None


def _policy_step(game: Game, table: Table) -> Step | None:
    """One standing answer due for the open (collecting) window."""
    w = open_window(game, table)
    if w is None:
        return None
    record = table.windows.get(w.id)
    if record is None or record.get("closing") or record.get("asked"):
        return None
    hand = timing.asked_by_hand(game, table, w)  # fixed as the window opens
    for role in w.roles:
        if role in record["answers"] or role in hand:
            continue
        return answer(game, table, role, timing.standing(game, table, role, w), by="policy")
    new = table.bookkeeping_copy()
    new.windows[w.id]["asked"] = True  # standing answers have been given
    new.windows[w.id]["by_hand"] = list(hand)
    return Step(new, [Entry("asked", None, {"window": w.id, "by_hand": list(hand)})], [])


def _queued_step(game: Game, table: Table, seed: bytes) -> Step | None:
    """One queued line of a role whose turn it now is."""
    for role in sorted(acting_roles(game, table)):
        due = decision_for(game, table, role)
        if due is not None and not due.takes_queued:
            continue  # a choice asked on the way: the queued lines wait for the turn
        queued = table.queue.get(role, [])
        index = next((i for i, q in enumerate(queued) if q["for"] == FOR_ACTION), None)
        if index is None:
            continue
        popped = table.bookkeeping_copy()
        entry = popped.queue[role].pop(index)
        line = entry["line"]
        if entry.get("mark") and entry["mark"] != game.plan_mark(table.state, role, line):
            # The line was written against a game the other side has changed
            # since: the plan stops here, and the seat is asked (its lines
            # dropped one a step).
            why = ("your plan stopped: since you wrote it your opponent changed a card on "
                   "a space it names, so you are asked again")
            ev = private(role, f'Your queued line "{line}" was dropped: {why}', dropped=line)
            return Step(popped, [Entry("drop", role, {"line": line, "index": index,
                                                      "reason": why})], [ev])
        try:
            action = game.parse(popped.state, role, line)
            step = _act(game, popped, role, action, seed, "act",
                        {"queued": True, "index": index})
        except RuleError as exc:  # no longer fits (or no longer understood): dropped
            ev = private(role, f'Your queued line "{line}" was dropped: {exc.message}',
                         dropped=line)
            return Step(popped, [Entry("drop", role, {"line": line, "index": index,
                                                      "reason": exc.message})], [ev])
        return step
    return None


def drain(game: Game, table: Table, seed: bytes) -> list[Step]:
    """Everything that has become due without anyone deciding: standing
    answers for a newly open window, the rest of a closing window that is
    open again, queued lines of a role whose turn it is. One step each."""
    steps: list[Step] = []
    current = table
    for _ in range(10_000):
        if current.outcome is not None:
            break
        step = _policy_step(game, current)
        if step is None:
            w = open_window(game, current)
            if w is not None and current.windows.get(w.id, {}).get("closing"):
                step = close(game, current, seed, "resumed")
                if not step.entries:
                    break
        if step is None:
            step = _queued_step(game, current, seed)
        if step is None:
            step = _ahead_step(game, current)
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
            table = table.bookkeeping_copy()
            table.queue[role].pop(int(payload.get("index", 0)))
        if payload.get("held"):
            table = table.bookkeeping_copy()
            got = table.windows[payload["window"]]["answers"][role]
            got["lines"] = got["lines"][1:]
        extra = {k: v for k, v in payload.items() if k != "action"}
        return _act(game, table, role, Action.from_json(payload["action"]), seed, kind, extra)
    if kind == "answer":
        actions = [Action.from_json(a) for a in payload["actions"]]
        return answer(game, table, role, actions, by=payload.get("by", "hand"))
    if kind == "close":
        new = table.bookkeeping_copy()
        new.windows[payload["window"]]["closing"] = True
        return Step(new, [Entry("close", None, payload)], [])
    if kind == "ahead":
        return hold_ahead(table, role, payload["phase"], payload["lines"])
    if kind == "ahead_done":
        new = table.bookkeeping_copy()
        del new.ahead[role][payload["phase"]]
        return Step(new, [Entry("ahead_done", role, payload)], [])
    if kind == "concession":
        return concede_to(table, role, payload["to"])
    if kind == "conceded":
        return agree_concession(game, table, payload["winner"])
    if kind == "missed":
        return missed(table, payload["roles"])
    if kind == "asked":
        new = table.bookkeeping_copy()
        record = new.windows[payload["window"]]
        if "by_hand" in payload:
            record["by_hand"] = list(payload["by_hand"])
        record["asked"] = True
        return Step(new, [Entry("asked", None, payload)], [])
    if kind == "queue":
        return enqueue(table, role, payload["lines"], payload.get("for", FOR_ACTION),
                       str(payload.get("mark", "")))
    if kind == "unqueue":
        return unqueue(table, role, [i + 1 for i in payload["indices"]])
    if kind == "policy":
        if "answer" not in payload:  # tables before conditional answers
            return set_policy(table, role, payload["window"], payload["mode"].upper())
        return set_policy(table, role, payload["window"], payload["answer"], payload["when"])
    if kind == "drop":
        new = table.bookkeeping_copy()
        if "window" in payload:
            got = new.windows[payload["window"]]["answers"][role]
            got["lines"] = got["lines"][1:]
        else:
            new.queue[role].pop(int(payload.get("index", 0)))
        return Step(new, [Entry("drop", role, payload)], [])
    if kind == "resolve":
        return resolve(game, table, seed, payload.get("trigger", "deadline"))
    if kind == "seats":
        return assign_seats(table, seed, int(payload["count"]))
    if kind == "flag":
        return set_flag(table, role, payload["flag"], payload["on"])
    if kind == "draw":
        return agree_draw(game, table, payload["survivors"])
    if kind == "declared":
        return declare(game, table, payload["winners"], bool(payload["draw"]),
                       bool(payload.get("cancelled")))
    if kind == "concede":
        step = concede(game, table, role)
        if step is None:
            raise ReplayError(f"{role} conceded, but the game does not take a concession")
        return step
    raise ReplayError(f"unknown log entry kind {kind!r}")


def replay(game: Game, rows: Iterable[Mapping[str, Any]], seed: bytes,
           start_from: Table | None = None) -> Table:
    """Rebuild a table from its log (or from a snapshot, ``start_from``, and
    the rows logged after it), checking every recorded draw on the way."""
    table: Table | None = start_from
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


def parse_answer_words(text: str) -> tuple[str, str]:
    """``<answer> [WHEN <condition>]`` -> (answer, condition words)."""
    words = text.split()
    upper = [w.upper() for w in words]
    if "WHEN" in upper:
        i = upper.index("WHEN")
        answer_text, cond = " ".join(words[:i]), " ".join(words[i + 1:])
        if not cond:
            raise InvalidLine("WHEN needs a condition", hint="e.g. WHEN AREA han-dan")
        return answer_text, cond
    return text.strip(), ""
