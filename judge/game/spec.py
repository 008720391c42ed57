"""A game as one record: :class:`GameSpec`, and :class:`Game`, the judge's
interface to a game, implemented once over it.

A game package exports ``SPEC``, a frozen :class:`GameSpec`: its name and
options, the functions that decide it (set up, who must decide, read a line,
apply it, resolve an order set, the default at a deadline, the legal lines,
the view, the outcome) and, as fields with defaults, whatever else it has
(hidden zones, response windows and standing answers, help, scores, its
drawing, offline adjudication). Nothing is a method to override: a game
that keeps no score leaves ``scores`` at ``None`` and the judge counts none.

The judge drives every game through :class:`Game` (``judge.game.registry``
wraps each record in one), whose members are the record's functions where
the game gives them and the generic behaviour where it does not. See
docs/writing-a-game.md for a whole game on one screen.

A game is a pure, deterministic function of JSON states (see
:mod:`judge.game.engine`): no I/O, no clock, no ``random``; chance comes through
the :class:`~judge.game.rng.Rng` it is handed.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

from judge.game.engine import (
    JSON,
    Action,
    Decision,
    Event,
    IllegalLine,
    OptionSpec,
    Outcome,
    Role,
    State,
    VerbSpec,
    WindowSpec,
    Zone,
    live,
)

if TYPE_CHECKING:
    from judge.game.flow import Rules
    from judge.game.rng import Rng
    from judge.pictures.scene import Drawing

Transition = tuple[State, list[Event]]
"""A new state and the events that led to it."""

StandingAnswer = tuple[str, str, str]
"""``(window, answer, condition)``: ``("dodge", "DODGE", "")``."""


@dataclass(frozen=True)
class Policy:
    """Standing answers to response windows (``POLICY`` by mail): the kinds
    of window a game opens and how a seat may answer them unasked.

    ``condition(window, words)`` gives the canonical text of a standing
    answer's condition (``AREA han-dan``) or raises a RuleError;
    ``holds(view, decision, condition)`` tests it on the seat's own view
    (a standing answer can test nothing the seat may not see);
    ``defaults(state, role)`` are the standing answers each seat starts with;
    ``may_ask(state, decision, role)`` says whether a seat may be asked a
    window by hand, judged from facts every seat may see (judge/game/timing.py).
    """

    windows: tuple[WindowSpec, ...] = ()
    condition: Callable[[str, Sequence[str]], str] | None = None
    holds: Callable[[Mapping[str, JSON], Decision, str], bool] | None = None
    defaults: Callable[[State, Role], list[StandingAnswer]] | None = None
    may_ask: Callable[[State, Decision, Role], bool] | None = None


@dataclass(frozen=True)
class GameSpec:
    """Everything the judge knows of one game (see the module docstring).

    The first fields (no default) every game gives; the rest default to
    the generic behaviour named in each one's comment.
    """

    id: str
    """The game's name in commands and the store (``"classic"``)."""
    title: str
    """As the rulebook spells it, for HELP and reports."""
    view_schema: str
    """File name under schemas/ of the JSON Schema every ``view`` satisfies."""
    setup: Callable[[Mapping[str, JSON], Rng], State]
    """The first state under the given options."""
    roles: Callable[[State], list[Role]]
    """The seats of a game, in the rulebook's order."""
    pending: Callable[[State], list[Decision]]
    """Who must decide now, and how (none: the game is over)."""
    parse: Callable[[State, Role, str], Action]
    """One line of ``role``'s, read as an action, or a graded RuleError."""
    legal: Callable[[State, Role], list[str]]
    """Lines ``role`` could send now, each of which ``parse`` accepts: all of
    them where that is practical, else a fair sample (playthroughs, HELP)."""
    view: Callable[[State, Role | None], dict[str, JSON]]
    """What ``role`` may know (``None``: an observer), with ``game``,
    ``phase`` and ``role``."""
    outcome: Callable[[State], Outcome | None]
    """How the game ended; ``None`` while it runs."""

    aliases: tuple[str, ...] = ()
    options: tuple[OptionSpec, ...] = ()
    verbs: tuple[VerbSpec, ...] = ()
    """The game's commands, for HELP."""
    act: Callable[[State, Role, Action, Rng], Transition] | None = None
    """A single action or a response window's answer. None: the game has
    only order sets, and a single action is refused."""
    resolve: Callable[[State, Mapping[Role, Sequence[Action]], Rng], Transition] | None = None
    """An order set resolved at once. None: the game has none."""
    default: Callable[[State, Decision, Role], Action | None] | None = None
    """The action a deadline takes for a silent seat. None: nothing."""
    turn: Callable[[State], str] | None = None
    """The game turn now (a digest each time it changes). None: every new
    set of open decisions is a turn."""
    zones: Callable[[State], list[Zone]] | None = None
    """The hidden zones of a state. None: nothing is hidden."""
    policy: Policy | None = None
    """Response windows and standing answers. None: the game has neither."""
    help: Callable[[str], str | None] | None = None
    """The text of a card, skill or rule for ``HELP <topic>``."""
    introduction: Callable[[State, Role], str] | None = None
    """Text for a seat's first report (its cards' texts)."""
    localize: Callable[[str, Role | None], str] | None = None
    """An event's text as a seat reads it (each seat names the board from
    its own side). None: as written."""
    survivors: Callable[[State], list[Role]] | None = None
    """Who must vote for an agreed draw. None: every seat."""
    agreed_draw: Callable[[State, Sequence[Role]], State] | None = None
    """The state ended in a draw shared by the given seats."""
    concede: Callable[[State, Role], Transition | None] | None = None
    """A seat resigns: the new state if the rules end the game, else None
    (civil disorder, also when this field is None)."""
    scores: Callable[[State], dict[Role, int]] | None = None
    """Each seat's score once the game is over (a league ranks by it)."""
    unordered: Callable[[State, Role, Sequence[Action]], list[str]] | None = None
    """What of a seat's still has no order among those held (its units)."""
    phase_after: Callable[[State, str], bool] | None = None
    """Whether a decision of that name may come later (orders sent ahead)."""
    check_held: Callable[[State, Role, Action, Sequence[Action]], None] | None = None
    """Refuse an action that breaks a rule only together with the actions
    held before it (more builds than allowed); raises a RuleError."""
    queues_actions: bool = False
    """Lines sent while a seat has nothing to decide wait for its turn."""
    queued_later: Callable[[State, Role], str] | None = None
    """Where a line ``role`` queues now is taken when that is later in the
    turn under way (``"your Play Phase"``: the seat's own turn goes on once
    what its lines set going is over), else ``""``: its next turn. None:
    always its next turn."""
    plan_mark: Callable[[State, Role, str], str] | None = None
    """What a seat's line queued now is written against: the queued line is
    taken only while this is unchanged; when it has changed the seat's plan
    stops there (its queued lines are dropped, and it is asked). None: a
    queued line is taken whenever it still fits."""
    team_victories: bool = False
    """A victory may be shared by a team, not only won by one seat."""
    playthrough_options: Mapping[str, JSON] | None = None
    """Options under which random playthroughs end quickly (contract suite)."""
    victory_playthroughs: Sequence[Mapping[str, JSON]] = ()
    """Option sets under which a seeded random playthrough ends in a victory."""
    kernel: Rules[Any] | None = None
    """The decision kernel's rules the game runs on (judge/game/flow.py)."""
    drawing: Callable[[], Drawing] | None = None
    """How the game draws a view of itself, loaded when first drawn.
    None: the game has no pictures."""
    adjudicate: Callable[[dict[str, Any]], dict[str, Any]] | None = None
    """One document of ``judge adjudicate`` (offline adjudication)."""
    draws: bool = True
    """Whether the rules make random draws (shuffles, deals, dice): only a
    game that makes them tells its players of the secret seed they come
    from. Classic Diplomacy makes none."""

    @property
    def windows(self) -> tuple[WindowSpec, ...]:
        """The declared kinds of response window."""
        return self.policy.windows if self.policy else ()

    def window(self, kind: str) -> WindowSpec | None:
        """The declared window of that kind."""
        return next((w for w in self.windows if w.kind == kind), None)


def _no_action(state: State, role: Role, action: Action, rng: Rng) -> Transition:
    raise IllegalLine("this game takes its orders together, for the phase",
                      hint="send them as an ORDERS block")


def _no_resolve(state: State, orders: Mapping[Role, Sequence[Action]], rng: Rng) -> Transition:
    raise IllegalLine("this game has no order sets to resolve")


class Game:
    """The judge's interface to one game, over its :class:`GameSpec`.

    Every member is there for every game: the record's function where the
    game gives one, else the generic behaviour (see each field of
    :class:`GameSpec`). The record's functions are the members themselves,
    so a call costs what a call of the game's own function costs.
    """

    spec: GameSpec
    id: str
    title: str
    aliases: tuple[str, ...]
    options: tuple[OptionSpec, ...]
    verbs: tuple[VerbSpec, ...]
    view_schema: str
    windows: tuple[WindowSpec, ...]
    queues_actions: bool
    team_victories: bool
    draws: bool
    playthrough_options: Mapping[str, JSON]
    victory_playthroughs: Sequence[Mapping[str, JSON]]
    kernel: Rules[Any] | None
    setup: Callable[[Mapping[str, JSON], Rng], State]
    roles: Callable[[State], list[Role]]
    pending: Callable[[State], list[Decision]]
    parse: Callable[[State, Role, str], Action]
    act: Callable[[State, Role, Action, Rng], Transition]
    resolve: Callable[[State, Mapping[Role, Sequence[Action]], Rng], Transition]
    default: Callable[[State, Decision, Role], Action | None]
    legal: Callable[[State, Role], list[str]]
    view: Callable[[State, Role | None], dict[str, JSON]]
    outcome: Callable[[State], Outcome | None]
    turn: Callable[[State], str]
    zones: Callable[[State], list[Zone]]
    survivors: Callable[[State], list[Role]]
    agreed_draw: Callable[[State, Sequence[Role]], State]
    concede: Callable[[State, Role], Transition | None]
    help_topic: Callable[[str], str | None]
    introduction: Callable[[State, Role], str]
    localize: Callable[[str, Role | None], str]
    scores: Callable[[State], dict[Role, int]]
    unordered: Callable[[State, Role, Sequence[Action]], list[str]]
    phase_after: Callable[[State, str], bool]
    check_held: Callable[[State, Role, Action, Sequence[Action]], None]
    queued_later: Callable[[State, Role], str]
    plan_mark: Callable[[State, Role, str], str]
    policy_holds: Callable[[Mapping[str, JSON], Decision, str], bool]
    standing_answers: Callable[[State, Role], list[StandingAnswer]]
    may_ask: Callable[[State, Decision, Role], bool]
    adjudicate: Callable[[dict[str, Any]], dict[str, Any]] | None

    def __init__(self, spec: GameSpec) -> None:
        self.spec = spec
        self.id, self.title, self.aliases = spec.id, spec.title, spec.aliases
        self.options, self.verbs, self.view_schema = spec.options, spec.verbs, spec.view_schema
        self.draws = spec.draws
        self.windows = spec.windows
        self.queues_actions, self.team_victories = spec.queues_actions, spec.team_victories
        self.playthrough_options = spec.playthrough_options or {}
        self.victory_playthroughs = spec.victory_playthroughs
        self.kernel, self.adjudicate = spec.kernel, spec.adjudicate
        self.setup, self.roles, self.pending = spec.setup, spec.roles, spec.pending
        self.parse, self.legal, self.view, self.outcome = (
            spec.parse, spec.legal, spec.view, spec.outcome)
        self.act = spec.act or _no_action
        self.resolve = spec.resolve or _no_resolve
        self.default = spec.default or (lambda state, decision, role: None)
        self.turn = spec.turn or self._every_decision_a_turn
        self.zones = spec.zones or (lambda state: [])
        self.survivors = spec.survivors or spec.roles
        self.agreed_draw = spec.agreed_draw or (lambda state, roles: state)
        self.concede = spec.concede or (lambda state, role: None)
        self.help_topic = spec.help or (lambda topic: None)
        self.introduction = spec.introduction or (lambda state, role: "")
        self.localize = spec.localize or (lambda text, role: text)
        self.scores = spec.scores or (lambda state: {})
        self.unordered = spec.unordered or (lambda state, role, held: [])
        self.phase_after = spec.phase_after or (lambda state, phase: False)
        self.check_held = spec.check_held or (lambda state, role, action, held: None)
        self.queued_later = spec.queued_later or (lambda state, role: "")
        self.plan_mark = spec.plan_mark or (lambda state, role, line: "")
        policy = spec.policy or Policy()
        self._condition = policy.condition
        self.policy_holds = policy.holds or (lambda view, decision, condition: False)
        self.standing_answers = policy.defaults or (lambda state, role: [])
        self.may_ask = policy.may_ask or (lambda state, decision, role: True)

    def __repr__(self) -> str:
        return f"<game {self.id}>"

    def _every_decision_a_turn(self, state: State) -> str:
        return " + ".join(d.phase for d in live(self.pending(state))) or "end"

    def window(self, kind: str) -> WindowSpec | None:
        """The declared window of that kind."""
        return self.spec.window(kind)

    def policy_condition(self, window: str, words: Sequence[str]) -> str:
        """The canonical text of a standing answer's condition, or RuleError."""
        if self._condition is not None:
            return self._condition(window, words)
        spec = self.window(window)
        known = ", ".join(c.word for c in spec.conditions) if spec else ""
        raise IllegalLine(
            f"{' '.join(words)!r} is not a condition of {window} windows",
            hint=f"conditions: {known}" if known else "these windows take no conditions",
        )

    def current(self, state: State) -> State:
        """``state`` as the game reads it now: a state saved in an earlier
        shape (before the game ran on the kernel) read through the kernel's
        ``current`` (judge/game/flow.py); any other state as it is."""
        return state if self.kernel is None else self.kernel.current(state)

    def drawing(self) -> Drawing | None:
        """How the game draws pictures of itself, or None."""
        return self.spec.drawing() if self.spec.drawing is not None else None


_FROM_RULES: tuple[str, ...] = (
    "id", "title", "aliases", "options", "verbs", "view_schema", "setup", "roles",
    "pending", "parse", "legal", "view", "outcome", "act", "resolve", "default",
    "turn", "zones", "survivors", "agreed_draw", "concede", "introduction",
    "localize", "scores", "unordered", "phase_after", "check_held",
    "queues_actions", "queued_later", "plan_mark", "team_victories", "playthrough_options",
    "victory_playthroughs", "kernel", "draws",
)
"""The record's fields that :func:`record_of` takes from a rules object by
name; the others (``policy``, ``help``, ``drawing``, ``adjudicate``) are
always given, since a rules object's attribute of that name would mean
something else."""


def record_of(rules: object, *, own: Iterable[str] = (), **given: Any) -> GameSpec:
    """The record of a game whose rules live in one object: every field of
    :data:`_FROM_RULES` the object has an attribute of that name for, then
    the fields ``given`` (which win).

    Every public attribute of ``rules`` is a field of the record or is named
    in ``own`` (the rules' own, such as the windows a ``policy`` is given):
    another is refused (TypeError), so a misspelt method (``legl``) is
    never left out unseen, the record falling back on the default."""
    known = {f.name for f in fields(GameSpec)}
    unknown = set(given) - known
    if unknown:
        raise TypeError(f"not fields of GameSpec: {', '.join(sorted(unknown))}")
    mine = set(own)
    stray = sorted(n for n in dir(rules)
                   if not n.startswith("_") and n not in known and n not in mine)
    if stray:
        said = []
        for name in stray:
            near = difflib.get_close_matches(name, sorted(_FROM_RULES), n=1)
            said.append(f"{name} (did you mean {near[0]}?)" if near else name)
        raise TypeError(
            f"{type(rules).__name__} has attributes that are no field of GameSpec: "
            f"{', '.join(said)}; name the rules' own in record_of(..., own=(...))")
    taken = {name: getattr(rules, name) for name in _FROM_RULES if hasattr(rules, name)}
    return GameSpec(**(taken | given))


_made: dict[int, tuple[GameSpec, Game]] = {}


def game_of(spec: GameSpec) -> Game:
    """The one :class:`Game` over ``spec`` (made on the first call): the
    registry and a game package's ``GAME`` are the same object."""
    made = _made.get(id(spec))
    if made is None or made[0] is not spec:
        made = _made[id(spec)] = (spec, Game(spec))
    return made[1]


__all__ = ["Game", "GameSpec", "Policy", "StandingAnswer", "Transition", "game_of"]
