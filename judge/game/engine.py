"""The game contract's data: states, actions, decisions, events, errors,
outcomes, options, windows and hidden zones. A game is one record of them
and of its functions (:class:`judge.game.spec.GameSpec`).

A game is a pure, deterministic object over JSON-serialisable state. It never
does I/O, never reads the clock and never uses the ``random`` module: all chance
comes through the :class:`~judge.game.rng.Rng` it is handed.

The judge drives a game only through :class:`judge.game.spec.Game`:

* ``setup(options, rng) -> state`` and ``roles(state)``;
* ``pending(state) -> [Decision]``: who must act now, and how;
* ``parse(state, role, line) -> Action`` raising a graded :class:`RuleError`;
* ``act(state, role, action, rng)`` for single actions and response windows,
  ``resolve(state, orders, rng)`` for simultaneous order sets;
* ``default(state, decision, role)``: the action taken for a seat that let a
  single-action or response decision reach its deadline;
* ``view(state, role | None)``: everything ``role`` may know and nothing more;
* ``outcome(state)``: ``None`` while the game runs.

Events returned by ``act``/``resolve`` carry an audience; reports are built only
from views and from the events addressed to the reader.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, TypeAlias, TypeVar

import orjson

JSONData = TypeVar("JSONData")
"""Any plain JSON value (see :func:`copy_json`)."""

JSON: TypeAlias = Any
"""A JSON-serialisable value (dicts with str keys, lists, str, int, float, bool, None)."""

State: TypeAlias = dict[str, Any]
"""A game's whole state. Must survive ``json.loads(json.dumps(state)) == state``."""


def copy_json(value: JSONData) -> JSONData:
    """A deep copy of plain JSON data (objects with string keys, arrays,
    strings, numbers, booleans, null) through orjson's codec: several times
    faster than :func:`copy.deepcopy` on such data. A tuple comes back a list."""
    copied: JSONData = orjson.loads(orjson.dumps(value))
    return copied


def copy_state(state: State) -> State:
    """A deep copy of a game state for a transition to change (states are
    plain JSON: the contract)."""
    return copy_json(state)


Role: TypeAlias = str
"""A seat's name inside a game, as the rulebook spells it (``"France"``, ``"Qin"``)."""


# --------------------------------------------------------------------------- errors


class Grade(enum.StrEnum):
    """How wrong a line is. Every message quotes the line it is about."""

    INVALID = "invalid"
    """Not understood: the words do not form any command or order."""
    ILLEGAL = "illegal"
    """Understood, but the rules do not allow it now."""
    AMBIGUOUS = "ambiguous"
    """Understood in more than one way; the hint lists the choices."""


class RuleError(Exception):
    """A line the game refuses. Raised by :meth:`Game.parse` (and by ``act``
    when a queued action no longer fits the situation).

    ``message`` says what is wrong; ``hint`` says what would be right.
    ``line`` is the text as the player wrote it, quoted in every reply.
    """

    grade: ClassVar[Grade] = Grade.INVALID

    def __init__(self, message: str, *, line: str = "", hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.hint = hint

    def with_line(self, line: str) -> RuleError:
        """Return the same error quoting ``line`` (if it quoted nothing yet)."""
        if not self.line:
            self.line = line
        return self

    def __str__(self) -> str:
        text = f"{self.grade.value}: {self.message}"
        if self.line:
            text = f'"{self.line}": {text}'
        if self.hint:
            text += f" ({self.hint})"
        return text


class InvalidLine(RuleError):
    """Not understood."""

    grade = Grade.INVALID


class IllegalLine(RuleError):
    """Understood, not allowed now."""

    grade = Grade.ILLEGAL


class AmbiguousLine(RuleError):
    """Understood in more than one way."""

    grade = Grade.AMBIGUOUS

    def __init__(
        self, message: str, *, line: str = "", hint: str = "", choices: Sequence[str] = ()
    ) -> None:
        if choices and not hint:
            hint = "did you mean " + " or ".join(f'"{c}"' for c in choices) + "?"
        super().__init__(message, line=line, hint=hint)
        self.choices = tuple(choices)


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True)
class Action:
    """A parsed command of one role.

    ``text`` is canonical: ``parse(state, role, action.text) == action`` (the
    round-trip every game's tests check). ``key`` groups orders that replace one
    another inside a simultaneous order set: a later order with the same key
    replaces the earlier one (Diplomacy keys orders by unit, so "the last order
    for a unit wins"); ``None`` means the action never replaces another.
    ``data`` is the game's own JSON-serialisable payload.
    """

    text: str
    key: str | None = None
    data: Mapping[str, JSON] = field(default_factory=dict)

    def to_json(self) -> dict[str, JSON]:
        return {"text": self.text, "key": self.key, "data": dict(self.data)}

    @classmethod
    def from_json(cls, raw: Mapping[str, JSON]) -> Action:
        return cls(text=str(raw["text"]), key=raw.get("key"), data=dict(raw.get("data") or {}))


# --------------------------------------------------------------------------- decisions


class DecisionKind(enum.StrEnum):
    ORDERS = "orders"
    """A simultaneous order set: every listed role writes orders, revisable and
    hidden until the deadline, then ``resolve`` runs once over all of them."""
    ACTION = "action"
    """A single action by one role (its turn); ``act`` runs as soon as it arrives."""
    RESPONSE = "response"
    """An out-of-turn response window. Offered to every role the rules let respond,
    whether or not it holds a response, so that timing never reveals a hand; it
    closes when all answered or at the deadline."""


@dataclass(frozen=True)
class Decision:
    """Who must act now, and what happens if they do not.

    ``phase`` names the decision (``"S1901M"``, ``"turn 3: Qin to act"``) and
    changes whenever a new decision opens; the scheduler keys deadlines on it.
    ``default`` describes, for reports, what the deadline does to a seat that
    did not act (``"hold"``, ``"pass"``, ``"civil disorder"``).
    ``window`` names the kind of a RESPONSE window (``"before-combat"``,
    one of the game's :attr:`Game.windows`); a player may leave standing
    answers per kind (``POLICY before-combat PASS``) and the judge answers
    such windows for them. A RESPONSE decision's ``roles`` are in the
    rulebook's order: the judge collects every role's answer in secret and,
    when the window closes, applies them in that order (see
    judge/game/adjudicator.py).
    """

    kind: DecisionKind
    roles: tuple[Role, ...]
    phase: str
    prompt: str = ""
    default: str = ""
    window: str = ""
    depth: int = 0
    """Where the decision stands on the stack of decisions. A response window
    that opens while another decision waits (an answer to an answer, a rescue
    asked while a damage resolves) has a greater depth than the one it
    interrupts; the game lists the interrupted ones too, and the judge
    treats only the decisions of the greatest depth as open (see
    :func:`live`). The others keep their answers until they resume."""
    context: Mapping[str, JSON] = field(default_factory=dict)
    """Facts about the decision that every role in ``roles`` may see (the
    attacked area, the card played): standing answers are tested on them."""
    takes_queued: bool = True
    """Whether an ACTION takes the lines its role queued (a turn, a step of
    it). False for a choice that a card or skill in play asks on the way (a
    card to take from those shown): queued lines were written for the turn,
    so they wait for it, neither taken nor dropped here."""

    @property
    def id(self) -> str:
        """The decision's name, unique while it is open (its ``phase``)."""
        return self.phase


def live(pending: Sequence[Decision]) -> list[Decision]:
    """The decisions open now: those of the greatest depth on the stack."""
    if not pending:
        return []
    top = max(d.depth for d in pending)
    return [d for d in pending if d.depth == top]


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class Event:
    """Something that happened, for the reports.

    ``audience`` is ``None`` for a public event, else the set of roles that may
    read it. ``text`` is one line of report prose; ``data`` is its structured
    form for the JSON attachment.
    """

    text: str
    audience: frozenset[Role] | None = None
    data: Mapping[str, JSON] = field(default_factory=dict)

    def visible_to(self, role: Role | None) -> bool:
        return self.audience is None or (role is not None and role in self.audience)

    def to_json(self) -> dict[str, JSON]:
        return {
            "text": self.text,
            "audience": None if self.audience is None else sorted(self.audience),
            "data": dict(self.data),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, JSON]) -> Event:
        aud = raw.get("audience")
        return cls(
            text=str(raw["text"]),
            audience=None if aud is None else frozenset(aud),
            data=dict(raw.get("data") or {}),
        )


def public(text: str, **data: JSON) -> Event:
    """A public event."""
    return Event(text, None, data)


def private(roles: Role | Sequence[Role], text: str, **data: JSON) -> Event:
    """An event only ``roles`` may read."""
    aud = frozenset([roles]) if isinstance(roles, str) else frozenset(roles)
    return Event(text, aud, data)


# --------------------------------------------------------------------------- outcome


@dataclass(frozen=True)
class Outcome:
    """How a game ended. ``winners`` empty with ``draw`` false means abandoned."""

    winners: tuple[Role, ...] = ()
    draw: bool = False
    reason: str = ""

    def to_json(self) -> dict[str, JSON]:
        return {"winners": list(self.winners), "draw": self.draw, "reason": self.reason}


# --------------------------------------------------------------------------- the game


@dataclass(frozen=True)
class OptionSpec:
    """A game option settable with ``--option name=value`` at creation."""

    name: str
    default: JSON
    help: str
    choices: tuple[JSON, ...] = ()

    def coerce(self, raw: str) -> JSON:
        """Turn command-line text into the option's type, or raise ValueError."""
        value: JSON
        if isinstance(self.default, bool):
            low = raw.strip().lower()
            if low not in {"1", "0", "true", "false", "yes", "no", "on", "off"}:
                raise ValueError(f"option {self.name} takes yes or no, not {raw!r}")
            value = low in {"1", "true", "yes", "on"}
        elif isinstance(self.default, int):
            value = int(raw)
        else:
            value = raw
        if self.choices and value not in self.choices:
            raise ValueError(
                f"option {self.name} must be one of {', '.join(map(str, self.choices))}"
            )
        return value


@dataclass(frozen=True)
class VerbSpec:
    """One game verb, for HELP: its syntax, a one-line meaning, an example."""

    syntax: str
    summary: str
    example: str


@dataclass(frozen=True)
class PolicyCondition:
    """A word a standing answer may be conditioned on (``WHEN AREA han-dan``).

    ``args`` is shown in HELP (``<area>...``); the game checks the words in
    :meth:`Game.policy_condition` and tests them in :meth:`Game.policy_holds`.

    ``private``: the word tests what only the seat itself may see (its hand,
    its hidden general), and ``private_args``: the arguments with which it
    does (``KINGDOM`` while one's own kingdom is hidden). Such a clause may
    choose a standing *answer*, never whether the seat is asked by hand
    (judge/game/timing.py: the timing of a window tells nothing).
    """

    word: str
    args: str
    summary: str
    private: bool = False
    private_args: tuple[str, ...] = ()


def conjuncts(words: Sequence[str]) -> list[list[str]]:
    """A standing answer's condition words split at ``AND`` (all must hold):
    ``AREA han-dan AND HOLDING x`` -> ``[["AREA", "han-dan"], ["HOLDING", "x"]]``.
    An empty part (``AND`` first, last or twice) is an IllegalLine."""
    parts: list[list[str]] = [[]]
    for word in words:
        if word.upper() == "AND":
            parts.append([])
        else:
            parts[-1].append(word)
    if len(parts) > 1 and not all(parts):
        raise IllegalLine("AND joins two conditions", hint="write a condition on each side of AND")
    return parts


@dataclass(frozen=True)
class WindowSpec:
    """A kind of response window, for POLICY and HELP: what it is, which
    answers a standing policy may give besides ASK and PASS (their syntax,
    ``RESPOND <card>``), and the condition words it takes."""

    kind: str
    summary: str
    answers: tuple[str, ...] = ()
    conditions: tuple[PolicyCondition, ...] = ()


@dataclass(frozen=True)
class Zone:
    """One hidden zone of a state, as data: where it lies (``path`` into the
    state, keys and list indices; a path ending at a list makes the list's
    elements the items, one ending at any other value makes that value the
    one item: a face-down card), which roles may see what it holds
    (``seen_by``; empty: nobody, like a deck), whether the order of its
    items is hidden from everyone (a shuffled deck: nobody may learn it,
    not even a seat that sees what the zone holds) and the ``pool`` of items
    it shares (a card of one pool may stand in any zone of that pool: a hand
    and the deck it is drawn from). The contract suite's scrambler exchanges
    items between the zones a reader may not see and shuffles every zone
    whose order is hidden, and requires that reader's views, prompts and
    mail to stay byte for byte the same."""

    path: tuple[str | int, ...]
    seen_by: frozenset[Role]
    pool: str
    order_hidden: bool = False


class Optioned(Protocol):
    """A game's id and options table (a :class:`judge.game.spec.Game` or its
    record, :class:`judge.game.spec.GameSpec`)."""

    @property
    def id(self) -> str: ...

    @property
    def options(self) -> Sequence[OptionSpec]: ...


def option_values(game: Optioned, given: Mapping[str, str]) -> dict[str, JSON]:
    """Validate ``--option`` text against the game's table; unknown names fail."""
    table = {o.name: o for o in game.options}
    values: dict[str, JSON] = {o.name: o.default for o in game.options}
    for name, raw in given.items():
        spec = table.get(name)
        if spec is None:
            known = ", ".join(sorted(table)) or "none"
            raise ValueError(f"{game.id} has no option {name!r} (options: {known})")
        values[name] = spec.coerce(raw)
    return values
