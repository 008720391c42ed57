"""The game contract: what every game module provides and what the judge gives it.

A game is a pure, deterministic object over JSON-serialisable state. It never
does I/O, never reads the clock and never uses the ``random`` module: all chance
comes through the :class:`~judge.rng.Rng` it is handed.

The judge drives a game only through the :class:`Game` protocol below:

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
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeAlias, runtime_checkable

if TYPE_CHECKING:
    from judge.rng import Rng

JSON: TypeAlias = Any
"""A JSON-serialisable value (dicts with str keys, lists, str, int, float, bool, None)."""

State: TypeAlias = dict[str, Any]
"""A game's whole state. Must survive ``json.loads(json.dumps(state)) == state``."""

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
    ``window`` names the kind of a RESPONSE window (``"before-combat"``); a
    player may set a standing policy per kind (``POLICY before-combat PASS``),
    and the judge then answers such windows for them with ``Game.default``.
    """

    kind: DecisionKind
    roles: tuple[Role, ...]
    phase: str
    prompt: str = ""
    default: str = ""
    window: str = ""


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


@runtime_checkable
class Game(Protocol):
    """What a game module exports as ``GAME``. See the module docstring."""

    id: str
    title: str
    aliases: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    verbs: tuple[VerbSpec, ...]
    view_schema: str
    """File name under schemas/ of the JSON Schema every ``view`` must satisfy."""

    # Optional attributes the judge reads with getattr (absent = the default):
    #   queues_actions: bool = False -- lines a player sends while not on turn
    #       are queued and tried when that player next acts (card games);
    #   windows: tuple[str, ...] = () -- RESPONSE window kinds a POLICY may name;
    #   playthrough_options: Mapping[str, JSON] -- options under which random
    #       playthroughs end quickly (contract suite, demo);
    #   victory_playthroughs: Sequence[Mapping[str, JSON]] = () -- option sets
    #       (each over playthrough_options, e.g. one per number of players)
    #       under which a seeded random playthrough ends in a victory: the
    #       contract suite plays every set with each of its seeds and checks
    #       that the game ends with one winner and no draw;
    #   scramble(state, role, rng) -> State -- a state differing only in what is
    #       hidden from every role but ``role`` (noninterference tests);
    #   survivors(state) -> list[Role] -- who must vote for an agreed draw;
    #   agreed_draw(state, roles) -> State -- end the game in that draw;
    #   adjudicate_json(doc) -> dict -- offline adjudication (`judge adjudicate`).

    def setup(self, options: Mapping[str, JSON], rng: Rng) -> State: ...

    def roles(self, state: State) -> list[Role]: ...

    def pending(self, state: State) -> list[Decision]: ...

    def parse(self, state: State, role: Role, line: str) -> Action: ...

    def act(
        self, state: State, role: Role, action: Action, rng: Rng
    ) -> tuple[State, list[Event]]: ...

    def resolve(
        self, state: State, orders: Mapping[Role, Sequence[Action]], rng: Rng
    ) -> tuple[State, list[Event]]: ...

    def default(self, state: State, decision: Decision, role: Role) -> Action | None: ...

    def legal(self, state: State, role: Role) -> list[str]:
        """Command lines ``role`` could send for its current decision, each of
        which ``parse`` accepts now: all of them where that is practical, else a
        fair sample. Random playthroughs, the fuzzer and HELP use it."""
        ...

    def view(self, state: State, role: Role | None) -> dict[str, JSON]:
        """What ``role`` may know (``None``: an observer). Hidden zones appear as
        counts. Always has ``"game"`` (the id), ``"phase"`` and ``"role"``, and
        validates against ``schemas/<view_schema>``."""
        ...

    def outcome(self, state: State) -> Outcome | None: ...


def option_values(game: Game, given: Mapping[str, str]) -> dict[str, JSON]:
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
