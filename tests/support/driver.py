"""Plays any game through the judge's own adjudicator, for the contract suite.

:func:`play` sets a game up from a seed and answers its decisions with random
legal lines until it ends or a step limit is reached; it records what it did
so that :func:`replay` can play the same game again from the seed and the
record. Both return a :class:`Playthrough`: the state after every step, the
events each step made and the record.

Nothing of the judge's logic is copied here: every change goes through
:mod:`judge.game.adjudicator`, as it does when a mail or a deadline arrives.

* A simultaneous order set (ORDERS): each role's lines are held with
  ``adj.submit`` (a later order with the same key replaces the earlier
  one), a role that sends nothing is left to the deadline, then
  ``adj.resolve``.
* A single action (ACTION): ``adj.act`` with a legal line, or the deadline
  (``adj.deadline``: the game's default for every seat that owes one).
* A response window (RESPONSE): each role's answer is held in secret with
  ``adj.answer`` (sometimes revised, sometimes left out, so that the game's
  default applies when the window closes), then ``adj.close`` once all have
  answered or ``adj.deadline`` when some did not.
* Standing answers (``adj.set_policy``, ``PASS`` or ``ASK``) for games with
  window kinds, and lines queued out of turn (``adj.enqueue``) for games
  that queue actions.
* ``adj.drain`` after every step: standing answers, closing windows that are
  open again, queued lines whose turn has come.

The game is wrapped so that ``act``, ``resolve`` and ``setup`` are checked
for purity: a transition that changes the state it was given is a contract
violation even though the adjudicator hands it a copy.

Test-side choices use :class:`random.Random`; the game's own chance comes only
from the :class:`~judge.game.rng.Rng` the adjudicator hands it.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

import orjson

from judge.game import adjudicator as adj
from judge.game.engine import (
    JSON,
    Action,
    Decision,
    DecisionKind,
    Event,
    Outcome,
    Role,
    State,
)
from judge.game.rng import Draw, Rng
from judge.game.spec import Game

DEFAULT_MAX_STEPS = 3000
"""Steps (records) a random playthrough may take."""

MAX_LINES_PER_ROLE = 40
"""At most this many lines are sent by one role for one simultaneous decision."""

POLICY_RATE = 0.05
"""Chance, before each step of a game with window kinds, that a seat changes
a standing answer."""

QUEUE_RATE = 0.1
"""Chance, before a single action in a game that queues actions, that a seat
with nothing to decide queues a line for its next turn."""

REVISE_RATE = 0.1
"""Chance that a seat sends a second answer to a window (replacing the first)."""


class ContractViolation(AssertionError):
    """The game broke the contract while being driven."""


def game_seed(seed: int) -> bytes:
    """The 32-byte rng seed the driver uses for test seed number ``seed``."""
    return hashlib.sha256(f"contract-suite:{seed}".encode()).digest()


def playthrough_options(game: Game, extra: Mapping[str, JSON] | None = None) -> dict[str, JSON]:
    """Every option at its default, then the game's ``playthrough_options``
    (options that make random playthroughs end, e.g. a year limit), then ``extra``."""
    values: dict[str, JSON] = {o.name: o.default for o in game.options}
    values.update(game.playthrough_options or {})
    values.update(extra or {})
    return values


def playthrough_sets(game: Game) -> list[dict[str, JSON]]:
    """The option sets the contract suite plays ``game`` under: one per mapping of
    the game's ``victory_playthroughs`` (each over :func:`playthrough_options`),
    or just :func:`playthrough_options` when it declares none."""
    sets = game.victory_playthroughs or ()
    return [playthrough_options(game, extra) for extra in sets] or [playthrough_options(game)]


def set_label(game: Game, options: Mapping[str, JSON]) -> str:
    """A short name for an option set: the options that differ from the game's
    ``playthrough_options`` (``players=3``), or ``default``."""
    base = playthrough_options(game)
    diff = [f"{k}={options[k]}" for k in sorted(options) if base.get(k) != options[k]]
    return ",".join(diff) or "default"


@dataclass(frozen=True)
class Record:
    """One recorded step, replayed through the adjudicator as it was played.

    ``kind`` is one of:

    * ``"orders"``: the lines held for a simultaneous decision, in the order
      sent (one ``adj.submit`` per role, as one mail), then ``adj.resolve``;
    * ``"act"``: exactly one line, a single action (``adj.act``);
    * ``"deadline"``: no line; the deadline of the open single-action
      decision passed (``adj.deadline``: the game's defaults);
    * ``"answers"``: the answers held for the open window, in the order
      sent (a later answer of a role replaces its earlier one), then the
      window closes (``adj.close``; ``adj.deadline`` when a role did not
      answer: its default then applies);
    * ``"policy"``: one ``(role, "<window kind> PASS|ASK")``, a standing answer;
    * ``"queue"``: one ``(role, line)`` queued for that role's next turn.

    ``by_default`` is set when the game's defaults decided something: a
    deadline, or a window closed with some role silent.
    """

    kind: str
    lines: tuple[tuple[Role, str], ...]
    by_default: bool = False


@dataclass
class Step:
    """The state after one recorded step (index 0: after setup), a deep copy.
    ``events`` are what that step made (through the adjudicator, standing
    answers and queued lines included); ``decision`` is the decision open
    when it was taken (``None`` for setup)."""

    index: int
    state: State
    events: list[Event]
    decision: Decision | None


@dataclass
class Playthrough:
    game: Game
    seed: int
    options: dict[str, JSON]
    steps: list[Step] = field(default_factory=list)
    records: list[Record] = field(default_factory=list)
    draws: list[Draw] = field(default_factory=list)
    outcome: Outcome | None = None
    log: list[dict[str, JSON]] = field(default_factory=list, repr=False)
    """The adjudicator's action log of the playthrough, as the judge stores it
    (``kind``, ``role``, ``payload``, ``draws``): :func:`judge.game.adjudicator.replay`
    must rebuild :attr:`table` from it."""
    table: adj.Table | None = field(default=None, repr=False)
    """The adjudicator's table at the end."""

    @property
    def final(self) -> State:
        return self.steps[-1].state


# --------------------------------------------------------------------------- purity


def _snapshot(state: State) -> str:
    # Anything that is not JSON still shows (by its repr), so that a change
    # to it is seen; orjson writes it several times faster than json.
    return orjson.dumps(
        state, default=repr, option=orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS
    ).decode()


class _Pure(Game):
    """``game`` as the adjudicator sees it in the driver: its record, with
    ``setup``, ``act`` and ``resolve`` checked not to change what they were
    given."""

    def __init__(self, game: Game) -> None:
        self.inner = game
        self.steps = 0
        super().__init__(replace(game.spec, setup=self._setup, act=self._act,
                                 resolve=self._resolve))

    def _pure(self, state: State, before: str, what: str) -> None:
        if _snapshot(state) != before:
            raise ContractViolation(
                f"{self.id}: {what} (step {self.steps}) changed the state it was given "
                "instead of returning a new one"
            )

    def _setup(self, options: Mapping[str, JSON], rng: Rng) -> State:
        given = dict(options)
        before = json.dumps(given, sort_keys=True)
        state = self.inner.setup(given, rng)
        if json.dumps(given, sort_keys=True) != before:
            raise ContractViolation(f"{self.id}: setup changed the options it was given")
        return state

    def _act(self, state: State, role: Role, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        before = _snapshot(state)
        out = self.inner.act(state, role, action, rng)
        self._pure(state, before, f"act of {role} {action.text!r}")
        return out

    def _resolve(
        self, state: State, orders: Mapping[Role, Sequence[Action]], rng: Rng
    ) -> tuple[State, list[Event]]:
        before = _snapshot(state)
        out = self.inner.resolve(state, orders, rng)
        self._pure(state, before, "resolve")
        return out


# --------------------------------------------------------------------------- running


class _Runner:
    """Holds the adjudicator's table and the trace while a game is played."""

    def __init__(self, game: Game, seed: int, options: Mapping[str, JSON]) -> None:
        self.game = game
        self.judged = _Pure(game)
        self.seed_bytes = game_seed(seed)
        self.trace = Playthrough(game, seed, dict(options))
        start = adj.start(self.judged, dict(options), self.seed_bytes)
        self.table = start.table
        steps = [start, *adj.drain(self.judged, self.table, self.seed_bytes)]
        self.table = steps[-1].table
        self._trace(steps, None, None)

    def open(self) -> list[Decision]:
        return adj.open_decisions(self.judged, self.table)

    def _trace(self, steps: Sequence[adj.Step], record: Record | None,
               decision: Decision | None) -> None:
        for step in steps:
            for entry in step.entries:
                self.trace.draws.extend(entry.draws)
                self.trace.log.append({
                    "kind": entry.kind, "role": entry.role,
                    "payload": json.loads(json.dumps(entry.payload)),
                    "draws": [d.to_json() for d in entry.draws]})
        if record is not None:
            self.trace.records.append(record)
        self.trace.steps.append(Step(len(self.trace.steps), copy.deepcopy(self.table.state),
                                     [ev for s in steps for ev in s.events], decision))

    def apply(self, record: Record, decision: Decision | None) -> None:
        """Carry out ``record`` through the adjudicator, then drain."""
        g = self.judged
        seed = self.seed_bytes
        steps: list[adj.Step] = []
        self.judged.steps = len(self.trace.steps)

        def take(step: adj.Step) -> None:
            steps.append(step)
            self.table = step.table

        def parsed(role: Role, line: str) -> Action:
            return g.parse(self.table.state, role, line)

        kind = record.kind
        if kind == "orders":
            # One mail per role: its lines in the order sent, held in one submit.
            by_role: dict[Role, list[str]] = {}
            for role, line in record.lines:
                by_role.setdefault(role, []).append(line)
            for role, lines in by_role.items():
                take(adj.submit(g, self.table, role, [parsed(role, x) for x in lines]))
            everyone = adj.ordering_roles(g, self.table) <= set(self.table.submitted)
            take(adj.resolve(g, self.table, seed, "all orders in" if everyone else "deadline"))
        elif kind == "act":
            ((role, line),) = record.lines
            take(adj.act(g, self.table, role, parsed(role, line), seed))
        elif kind == "deadline":
            take(adj.deadline(g, self.table, seed))
        elif kind == "answers":
            for role, line in record.lines:
                take(adj.answer(g, self.table, role, [parsed(role, line)]))
            if adj.unanswered(g, self.table):
                take(adj.deadline(g, self.table, seed))
            else:
                take(adj.close(g, self.table, seed, "all answered"))
        elif kind == "policy":
            ((role, text),) = record.lines
            window, answer = text.split(" ", 1)
            take(adj.set_policy(self.table, role, window, answer))
        elif kind == "queue":
            ((role, line),) = record.lines
            take(adj.enqueue(self.table, role, [line]))
        else:
            raise ContractViolation(f"unknown record kind {kind!r}")
        for step in adj.drain(g, self.table, seed):
            take(step)
        self._trace(steps, record, decision)

    def finish(self) -> Playthrough:
        self.trace.outcome = self.game.outcome(self.table.state)
        self.trace.table = self.table
        return self.trace


class _Chooser:
    """The random side of a playthrough: what each seat sends."""

    def __init__(self, game: Game, seed: int, default_rate: float) -> None:
        self.game = game
        self.rng = random.Random(f"{game.id}:{seed}")
        self.default_rate = default_rate
        self.seen: dict[Role, list[str]] = {}
        """Per role, the legal lines of its last own decision (lines it may
        queue while it has nothing to decide)."""

    def _legal(self, state: State, role: Role) -> list[str]:
        lines = self.game.legal(state, role)
        if lines:
            self.seen[role] = lines
        return lines

    def aside(self, run: _Runner) -> Record | None:
        """A standing answer or a queued line, sometimes (never drawing from
        the chooser for a game that has neither, so that order-only games
        are played as they always were)."""
        game, table, rng = self.game, run.table, self.rng
        if game.windows and rng.random() < POLICY_RATE:
            role = rng.choice(game.roles(table.state))
            kind = rng.choice(game.windows).kind
            return Record("policy", ((role, f"{kind} {rng.choice(['PASS', 'PASS', 'ASK'])}"),))
        if game.queues_actions and rng.random() < QUEUE_RATE:
            idle = [r for r in game.roles(table.state)
                    if r not in adj.acting_roles(run.judged, table)
                    and r not in adj.answering_roles(run.judged, table)
                    and r not in adj.ordering_roles(run.judged, table)
                    and self.seen.get(r)]
            if idle:
                role = rng.choice(idle)
                return Record("queue", ((role, rng.choice(self.seen[role])),))
        return None

    def orders(self, state: State, decision: Decision) -> Record:
        lines: list[tuple[Role, str]] = []
        for role in decision.roles:
            legal = self._legal(state, role)
            if not legal or self.rng.random() < self.default_rate:
                continue  # no orders from this role: the deadline decides
            count = self.rng.randint(1, min(len(legal), MAX_LINES_PER_ROLE))
            lines += [(role, self.rng.choice(legal)) for _ in range(count)]
        return Record("orders", tuple(lines))

    def action(self, run: _Runner, decision: Decision) -> Record:
        state = run.table.state
        role = self.rng.choice(decision.roles)
        legal = self._legal(state, role)
        if not legal or self.rng.random() < self.default_rate:
            owing = [(d, r) for d in run.open() if d.kind is DecisionKind.ACTION for r in d.roles]
            if any(self.game.default(state, d, r) is not None for d, r in owing):
                return Record("deadline", (), by_default=True)
            if not legal:
                raise ContractViolation(
                    f"{self.game.id}: {decision.phase}: {role} must act but has no legal "
                    "line and no default"
                )
        return Record("act", ((role, self.rng.choice(legal)),))

    def answers(self, run: _Runner, window: Decision) -> Record:
        state = run.table.state
        record = run.table.windows.get(window.id, {})
        if record.get("closing"):
            return Record("answers", ())  # being closed: carry on closing it
        held = record.get("answers", {})
        lines: list[tuple[Role, str]] = []
        silent = False
        for role in window.roles:
            if role in held:
                continue  # a standing answer gave it already
            legal = self._legal(state, role)
            if not legal or self.rng.random() < self.default_rate:
                silent = True  # the default applies when the window closes
                continue
            lines.append((role, self.rng.choice(legal)))
            if self.rng.random() < REVISE_RATE:
                lines.append((role, self.rng.choice(legal)))  # replaces the first
        return Record("answers", tuple(lines), by_default=silent)


def play(
    game: Game,
    seed: int,
    *,
    options: Mapping[str, JSON] | None = None,
    max_steps: int = DEFAULT_MAX_STEPS,
    default_rate: float = 0.2,
) -> Playthrough:
    """A random playthrough of ``game`` from test seed ``seed``.

    ``options`` default to :func:`playthrough_options`. With probability
    ``default_rate`` a role lets a decision reach its deadline (it sends no
    orders, no answer, or the deadline takes its default). Raises
    :class:`ContractViolation` if the game is stuck (no decision and no
    outcome), offers a single action to a role that can do nothing, or
    changes a state it was given. A game that has not ended after
    ``max_steps`` steps is returned unfinished (``outcome is None``): the
    caller decides whether that is a failure.
    """
    opts = playthrough_options(game) if options is None else dict(options)
    run = _Runner(game, seed, opts)
    chooser = _Chooser(game, seed, default_rate)
    while len(run.trace.records) < max_steps:
        if run.table.outcome is not None:
            break
        decisions = run.open()
        if not decisions:
            raise ContractViolation(
                f"{game.id}: step {len(run.trace.steps) - 1}: nothing pending and no outcome"
            )
        decision = decisions[0]
        record = chooser.aside(run)
        if record is None:
            window = adj.open_window(run.judged, run.table)
            if decision.kind is DecisionKind.ORDERS:
                record = chooser.orders(run.table.state, decision)
            elif window is not None:
                decision = window
                record = chooser.answers(run, window)
            else:
                record = chooser.action(run, decision)
        run.apply(record, decision)
    return run.finish()


def replay(
    game: Game, seed: int, options: Mapping[str, JSON], records: Sequence[Record]
) -> Playthrough:
    """Play ``records`` again from test seed ``seed``: every line is parsed
    afresh against the state it then meets, as the judge's replay would."""
    run = _Runner(game, seed, options)
    for record in records:
        if run.table.outcome is not None:
            raise ContractViolation(f"{game.id}: replay: the game is over before {record}")
        decisions = run.open()
        window = adj.open_window(run.judged, run.table)
        decision = window if record.kind == "answers" and window is not None else (
            decisions[0] if decisions else None)
        run.apply(record, decision)
    return run.finish()


_PLAYED: dict[tuple[str, int, int, str], Playthrough] = {}


def cached_play(
    game: Game,
    seed: int,
    max_steps: int = DEFAULT_MAX_STEPS,
    options: Mapping[str, JSON] | None = None,
) -> Playthrough:
    """:func:`play` with ``options`` (default: the game's playthrough options),
    played once per test session for each (game, seed, step limit, options):
    the contract properties that look at every step of the same playthrough
    share it."""
    opts = playthrough_options(game) if options is None else dict(options)
    key = (game.id, seed, max_steps, json.dumps(opts, sort_keys=True))
    if key not in _PLAYED:
        _PLAYED[key] = play(game, seed, options=opts, max_steps=max_steps)
    return _PLAYED[key]
