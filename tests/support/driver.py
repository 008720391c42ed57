"""Plays any game through the game contract alone, for the contract suite.

:func:`play` sets a game up from a seed and answers its decisions with random
legal lines until it ends or a step limit is reached; it records every line it
sent so that :func:`replay` can play the same game again from the seed and the
record. Both return a :class:`Playthrough`: the state after every step, the
events each step made and the record.

The driver mirrors what the judge does with the contract (see judge/adjudicator.py):
one :class:`~judge.rng.Rng` per transition, continued from the stored counter;
orders of a simultaneous decision held per role, where an action with the same
non-None ``key`` replaces the earlier one; roles that send no orders are left
out of ``resolve`` (their defaults are the game's business); single actions and
responses are taken one at a time, sometimes by ``default()`` as at a deadline.

Test-side choices use :class:`random.Random`; the game's own chance comes only
from the :class:`~judge.rng.Rng` it is handed.
"""

from __future__ import annotations

import copy
import hashlib
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from judge.engine import (
    JSON,
    Action,
    Decision,
    DecisionKind,
    Event,
    Game,
    Outcome,
    Role,
    State,
)
from judge.rng import Draw, Rng

DEFAULT_MAX_STEPS = 3000
"""Transitions (one ``resolve`` or one ``act``) a random playthrough may take."""

MAX_LINES_PER_ROLE = 40
"""At most this many lines are sent by one role for one simultaneous decision."""


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
    """One recorded transition. ``kind`` is ``"orders"`` (the lines sent for a
    simultaneous decision, in the order sent, then ``resolve``) or ``"act"``
    (exactly one line, the role's single action or response; ``by_default`` when
    it was the game's ``default()`` rather than a chosen line)."""

    kind: str
    lines: tuple[tuple[Role, str], ...]
    by_default: bool = False


@dataclass
class Step:
    """The state after one transition (index 0: after setup), a deep copy.
    ``events`` are what that transition returned; ``decision`` is the decision
    it answered (``None`` for setup)."""

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

    @property
    def final(self) -> State:
        return self.steps[-1].state


def hold(held: dict[Role, list[Action]], role: Role, action: Action) -> None:
    """Add ``action`` to ``role``'s held orders the way the judge does: an action
    with the same non-None key as a held one replaces it."""
    mine = held.setdefault(role, [])
    if action.key is not None:
        mine[:] = [a for a in mine if a.key != action.key]
    mine.append(action)


class _Runner:
    """Holds the state, the rng counter and the trace while a game is played."""

    def __init__(self, game: Game, seed: int, options: Mapping[str, JSON]) -> None:
        self.game = game
        self.seed_bytes = game_seed(seed)
        self.trace = Playthrough(game, seed, dict(options))
        rng = Rng(self.seed_bytes, 0)
        self.state: State = game.setup(dict(options), rng)
        self.counter = rng.counter
        self.trace.draws.extend(rng.draws)
        self.trace.steps.append(Step(0, copy.deepcopy(self.state), [], None))

    def _transition(
        self,
        decision: Decision,
        record: Record,
        call: Callable[[State, Rng], tuple[State, list[Event]]],
    ) -> None:
        before = copy.deepcopy(self.state)
        rng = Rng(self.seed_bytes, self.counter)
        new, events = call(self.state, rng)
        if self.state != before:
            raise ContractViolation(
                f"{self.game.id}: step {len(self.trace.steps)} ({decision.phase}) "
                "changed the state it was given instead of returning a new one"
            )
        self.state = new
        self.counter = rng.counter
        self.trace.draws.extend(rng.draws)
        self.trace.records.append(record)
        self.trace.steps.append(
            Step(len(self.trace.steps), copy.deepcopy(new), list(events), decision)
        )

    def resolve(self, decision: Decision, lines: Sequence[tuple[Role, str]]) -> None:
        held: dict[Role, list[Action]] = {}
        for role, line in lines:
            hold(held, role, self.game.parse(self.state, role, line))
        orders = {role: list(actions) for role, actions in held.items()}
        self._transition(
            decision,
            Record("orders", tuple(lines)),
            lambda state, rng: self.game.resolve(state, orders, rng),
        )

    def act(self, decision: Decision, role: Role, action: Action, by_default: bool) -> None:
        self._transition(
            decision,
            Record("act", ((role, action.text),), by_default),
            lambda state, rng: self.game.act(state, role, action, rng),
        )

    def finish(self) -> Playthrough:
        self.trace.outcome = self.game.outcome(self.state)
        return self.trace


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
    orders, or its ``default()`` is taken). Raises :class:`ContractViolation`
    if the game is stuck (no decision and no outcome), offers a decision to a
    role that can do nothing, or mutates a state it was given. A game that has
    not ended after ``max_steps`` transitions is returned unfinished
    (``outcome is None``): the caller decides whether that is a failure.
    """
    opts = playthrough_options(game) if options is None else dict(options)
    chooser = random.Random(f"{game.id}:{seed}")
    run = _Runner(game, seed, opts)
    while len(run.trace.records) < max_steps:
        if game.outcome(run.state) is not None:
            break
        decisions = game.pending(run.state)
        if not decisions:
            raise ContractViolation(
                f"{game.id}: step {len(run.trace.steps) - 1}: nothing pending and no outcome"
            )
        decision = decisions[0]
        if decision.kind is DecisionKind.ORDERS:
            lines: list[tuple[Role, str]] = []
            for role in decision.roles:
                legal = game.legal(run.state, role)
                if not legal or chooser.random() < default_rate:
                    continue  # no orders from this role: the deadline decides
                count = chooser.randint(1, min(len(legal), MAX_LINES_PER_ROLE))
                lines += [(role, chooser.choice(legal)) for _ in range(count)]
            run.resolve(decision, lines)
            continue
        role = chooser.choice(decision.roles)
        legal = game.legal(run.state, role)
        action: Action | None = None
        by_default = not legal or chooser.random() < default_rate
        if by_default:
            action = game.default(run.state, decision, role)
        if action is None:
            if not legal:
                raise ContractViolation(
                    f"{game.id}: {decision.phase}: {role} must act but has no legal line "
                    "and no default"
                )
            by_default = False
            action = game.parse(run.state, role, chooser.choice(legal))
        run.act(decision, role, action, by_default)
    return run.finish()


def replay(
    game: Game, seed: int, options: Mapping[str, JSON], records: Sequence[Record]
) -> Playthrough:
    """Play ``records`` again from test seed ``seed``: every line is parsed
    afresh against the state it then meets, as the judge's replay would."""
    run = _Runner(game, seed, options)
    for record in records:
        decisions = game.pending(run.state)
        if not decisions:
            raise ContractViolation(f"{game.id}: replay: no decision for {record}")
        decision = decisions[0]
        if record.kind == "orders":
            run.resolve(decision, record.lines)
        else:
            ((role, line),) = record.lines
            run.act(decision, role, game.parse(run.state, role, line), record.by_default)
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
