"""The game contract (judge/engine.py, DESIGN.md "The game contract" and
"Privacy"), checked over every registered game and the test-only Sealed Bids.

Each property is a ``check_*`` function over one random playthrough (see
tests/support/driver.py); the default run checks a few seeds per game, the
``slow`` variant many more. Random playthroughs use the game's
``playthrough_options`` (if it has that attribute) on top of its defaults, so a
game can make random play end (a year limit, say). A game that declares
``victory_playthroughs`` (several option sets, e.g. one per number of
players) is played under each of them instead, and each of those playthroughs
must end in a victory (``check_victory``).
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable, Mapping, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from judge import registry
from judge.engine import (
    JSON,
    Action,
    AmbiguousLine,
    DecisionKind,
    Event,
    Game,
    Grade,
    InvalidLine,
    Role,
    RuleError,
    State,
    private,
)
from judge.rng import Rng
from tests.contract.conftest import builtin_games
from tests.support.checks import (
    canonical,
    json_problems,
    render_report,
    view_errors,
    view_validator,
)
from tests.support.driver import (
    DEFAULT_MAX_STEPS,
    ContractViolation,
    Playthrough,
    Step,
    cached_play,
    game_seed,
    play,
    playthrough_options,
    playthrough_sets,
    replay,
)
from tests.support.sealed_bids import SealedBids

SEEDS = (1, 2, 3)
MAX_LEGAL_CHECKED = 150
"""Per state and role, at most this many ``legal()`` lines are parsed (a sample
if there are more), to keep the suite fast for games with long order lists."""


def _fail(problems: list[str], what: str) -> None:
    if problems:
        shown = "\n  ".join(problems[:8])
        more = f"\n  ... and {len(problems) - 8} more" if len(problems) > 8 else ""
        pytest.fail(f"{what}: {len(problems)} problem(s)\n  {shown}{more}", pytrace=False)


def _where(game: Game, p: Playthrough, step: Step) -> str:
    phase = step.decision.phase if step.decision else "setup"
    return f"{game.id} seed {p.seed} step {step.index} (after {phase})"


def _readers(game: Game, state: State) -> list[Role | None]:
    return [*game.roles(state), None]


# --------------------------------------------------------------------------- properties


def check_ends(game: Game, p: Playthrough) -> None:
    """A seeded random playthrough ends within the step limit, with an outcome
    whose winners are roles of the game; once it ends nothing is pending."""
    last = p.steps[-1]
    assert p.outcome is not None, (
        f"{game.id} seed {p.seed}: no outcome after {len(p.records)} steps "
        f"(limit {DEFAULT_MAX_STEPS}); last decision: "
        f"{last.decision.phase if last.decision else 'setup'}"
    )
    roles = set(game.roles(p.final))
    assert set(p.outcome.winners) <= roles, f"winners {p.outcome.winners} not among {roles}"
    assert json_problems(p.outcome.to_json()) == []
    assert game.pending(p.final) == [], "decisions still pending after the game ended"


def check_victory(game: Game, p: Playthrough) -> None:
    """A playthrough under one of the game's ``victory_playthroughs`` ends in a
    victory: an outcome with one winner, not a draw (nor one shared by several
    players at the agreed end)."""
    assert p.outcome is not None, f"{game.id} seed {p.seed} {p.options}: no outcome"
    assert len(p.outcome.winners) == 1 and not p.outcome.draw, (
        f"{game.id} seed {p.seed} {p.options}: ends without a victory: {p.outcome}"
    )


def check_replay(game: Game, p: Playthrough) -> None:
    """Replaying the recorded (role, line) actions from the same seed, twice,
    rebuilds the same states, events and rng draws."""
    again = replay(game, p.seed, p.options, p.records)
    twice = replay(game, p.seed, p.options, p.records)
    for other in (again, twice):
        assert len(other.steps) == len(p.steps)
        for mine, theirs in zip(p.steps, other.steps, strict=True):
            where = _where(game, p, mine)
            assert canonical(theirs.state) == canonical(mine.state), f"{where}: state differs"
            assert [e.to_json() for e in theirs.events] == [e.to_json() for e in mine.events], (
                f"{where}: events differ"
            )
        assert other.draws == p.draws, "the replay drew different random numbers"
        assert other.outcome == p.outcome


def check_json_round_trip(game: Game, p: Playthrough) -> None:
    """Every state is plain JSON: no tuples, sets or non-str keys hiding inside,
    and ``json.loads(json.dumps(state)) == state``."""
    problems: list[str] = []
    for step in p.steps:
        where = _where(game, p, step)
        problems += [f"{where}: {x}" for x in json_problems(step.state)]
        if json.loads(json.dumps(step.state)) != step.state:
            problems.append(f"{where}: state changes through JSON")
    _fail(problems, "state is not plain JSON")


def check_views(game: Game, p: Playthrough) -> None:
    """Every view (every role and the observer) at every step is plain JSON,
    validates against the game's view schema, and names game, phase and role."""
    problems: list[str] = []
    for step in p.steps:
        where = _where(game, p, step)
        for reader in _readers(game, step.state):
            view = game.view(step.state, reader)
            problems += [f"{where} view of {reader}: {x}" for x in json_problems(view)]
            problems += [f"{where} view of {reader}: {x}" for x in view_errors(game, view)]
            for key in ("game", "phase", "role"):
                if key not in view:
                    problems.append(f"{where} view of {reader}: no {key!r}")
            if view.get("game") != game.id:
                problems.append(f"{where} view of {reader}: game is {view.get('game')!r}")
            if view.get("role", "missing") != reader:
                problems.append(f"{where} view of {reader}: role is {view.get('role')!r}")
    _fail(problems, "views break the contract")


def check_reports_render(game: Game, p: Playthrough) -> None:
    """The game's report template renders for every reader at every step."""
    for step in p.steps:
        for reader in _readers(game, step.state):
            text = render_report(game, game.view(step.state, reader), step.events, reader)
            assert text.strip(), f"{_where(game, p, step)}: empty report for {reader}"


def _sample(lines: list[str], salt: str) -> list[str]:
    if len(lines) <= MAX_LEGAL_CHECKED:
        return lines
    return random.Random(salt).sample(lines, MAX_LEGAL_CHECKED)


def check_legal_lines(game: Game, p: Playthrough) -> None:
    """Every line of ``legal()`` parses, and the canonical text parses back to
    the same action (also through the action's JSON form). The defaults of
    single-action and response decisions round-trip the same way. Neither
    ``legal`` nor ``parse`` nor ``default`` changes the state."""
    problems: list[str] = []
    for step in p.steps:
        where = _where(game, p, step)
        state = step.state
        before = canonical(state)
        for role in game.roles(state):
            for line in _sample(game.legal(state, role), f"{where}:{role}"):
                try:
                    action = game.parse(state, role, line)
                    again = game.parse(state, role, action.text)
                except RuleError as exc:
                    problems.append(f"{where}: {role} legal line {line!r} refused: {exc}")
                    continue
                if again != action:
                    problems.append(
                        f"{where}: {role} {line!r} -> {action.text!r} -> {again.text!r} "
                        "(canonical text does not round-trip)"
                    )
                problems += [
                    f"{where}: {line!r} action {x}" for x in json_problems(action.to_json())
                ]
                if Action.from_json(json.loads(json.dumps(action.to_json()))) != action:
                    problems.append(f"{where}: {line!r}: action changes through JSON")
        for decision in game.pending(state):
            if decision.kind is DecisionKind.ORDERS:
                continue
            for role in decision.roles:
                default = game.default(state, decision, role)
                if default is None:
                    continue
                try:
                    if game.parse(state, role, default.text) != default:
                        problems.append(f"{where}: default {default.text!r} does not round-trip")
                except RuleError as exc:
                    problems.append(f"{where}: default {default.text!r} of {role} refused: {exc}")
        if canonical(state) != before:
            problems.append(f"{where}: legal/parse/default changed the state")
    _fail(problems, "legal lines break the contract")


def check_events(game: Game, p: Playthrough) -> None:
    """Every event has text, plain-JSON data, and an audience that is None
    (public) or a set of roles of the game."""
    problems: list[str] = []
    for prev, step in zip(p.steps, p.steps[1:], strict=False):
        where = _where(game, p, step)
        roles = set(game.roles(prev.state)) | set(game.roles(step.state))
        for event in step.events:
            if not isinstance(event.text, str) or not event.text.strip():
                problems.append(f"{where}: event without text: {event!r}")
            if event.audience is not None:
                if not isinstance(event.audience, frozenset):
                    problems.append(f"{where}: audience {event.audience!r} is not a frozenset")
                elif not event.audience <= roles:
                    problems.append(
                        f"{where}: {event.text!r} addressed to {sorted(event.audience)}, "
                        f"not all roles of the game"
                    )
            problems += [f"{where}: {event.text!r}: {x}" for x in json_problems(event.to_json())]
    _fail(problems, "events break the contract")


def check_pending(game: Game, p: Playthrough) -> None:
    """While the game runs something is pending and once it ends nothing is;
    decisions name roles of the game, each at most once; an order-set decision
    lists only roles that have something to decide (a non-empty ``legal()``)."""
    problems: list[str] = []
    for step in p.steps:
        where = _where(game, p, step)
        state = step.state
        roles = set(game.roles(state))
        decisions = game.pending(state)
        ended = game.outcome(state) is not None
        if ended and decisions:
            problems.append(f"{where}: the game is over but decisions are pending")
        if not ended and not decisions:
            problems.append(f"{where}: the game runs but nothing is pending")
        for d in decisions:
            if not d.roles:
                problems.append(f"{where}: decision {d.phase!r} lists no role")
            if len(set(d.roles)) != len(d.roles):
                problems.append(f"{where}: decision {d.phase!r} lists a role twice: {d.roles}")
            if not set(d.roles) <= roles:
                problems.append(f"{where}: {d.phase!r} lists {set(d.roles) - roles}, not roles")
            if not isinstance(d.phase, str) or not d.phase:
                problems.append(f"{where}: decision without a phase name")
            if d.kind is DecisionKind.ORDERS:
                for role in d.roles:
                    if not game.legal(state, role):
                        problems.append(f"{where}: {role} owes orders but has nothing to decide")
    _fail(problems, "pending() breaks the contract")


def check_no_hidden_information(game: Game, p: Playthrough) -> None:
    """A game without ``scramble`` shows everyone the same view (but ``role``)."""
    problems: list[str] = []
    for step in p.steps:
        where = _where(game, p, step)
        public = canonical({**game.view(step.state, None), "role": None})
        for role in game.roles(step.state):
            mine = canonical({**game.view(step.state, role), "role": None})
            if mine != public:
                problems.append(
                    f"{where}: {role} sees more than an observer, yet "
                    f"{game.id} has no scramble() to test what it hides"
                )
    _fail(problems, "a game without scramble() shows something private")


def check_noninterference(game: Game, p: Playthrough) -> None:
    """DESIGN.md, Privacy: two states that differ only in what is hidden from
    every role but A give every other role B, and the observer, byte-identical
    views and reports. ``scramble(state, A, rng)`` makes the second state. B's
    legal lines must not change either (else the acknowledgements of B's
    commands would leak). The scrambled state must be plain JSON with a valid
    view for A, and ``scramble`` must change something somewhere in the
    playthrough (else this check could not fail).

    A game without ``scramble`` declares that it has no hidden information; that
    claim is checked instead: every role's view and the observer's are the same
    but for the ``role`` field."""
    scramble = getattr(game, "scramble", None)
    if scramble is None:
        check_no_hidden_information(game, p)
        return
    problems: list[str] = []
    changed = 0
    seed = game_seed(p.seed)
    for step in p.steps:
        where = _where(game, p, step)
        state = step.state
        before = canonical(state)
        roles = game.roles(state)
        for a in roles:
            rng = Rng(seed, 1_000_000 * (step.index + 1) + 1_000 * roles.index(a))
            other: State = scramble(copy.deepcopy(state), a, rng)
            problems += [f"{where}: scrambled for {a}: {x}" for x in json_problems(other)]
            if canonical(other) != before:
                changed += 1
            problems += [
                f"{where}: view of {a} in the scrambled state: {x}"
                for x in view_errors(game, game.view(other, a))
            ]
            for b in _readers(game, state):
                if b == a:
                    continue
                mine, theirs = game.view(state, b), game.view(other, b)
                if canonical(mine) != canonical(theirs):
                    problems.append(
                        f"{where}: the view of {b} depends on what only {a} may see: "
                        + _diff(mine, theirs)
                    )
                    continue
                report = render_report(game, mine, step.events, b)
                if render_report(game, theirs, step.events, b) != report:
                    problems.append(f"{where}: the report of {b} depends on what only {a} sees")
                if b is not None and game.legal(state, b) != game.legal(other, b):
                    problems.append(f"{where}: the legal lines of {b} depend on {a}'s secrets")
        if canonical(state) != before:
            problems.append(f"{where}: scramble changed the state it was given")
    _fail(problems, "hidden information leaks")
    assert changed, f"{game.id} seed {p.seed}: scramble() never changed any state"


def _diff(mine: dict[str, object], theirs: dict[str, object]) -> str:
    keys = sorted(k for k in mine.keys() | theirs.keys() if mine.get(k) != theirs.get(k))
    return ", ".join(f"{k}: {mine.get(k)!r} != {theirs.get(k)!r}" for k in keys[:3])


PROPERTIES = (
    check_ends,
    check_replay,
    check_json_round_trip,
    check_views,
    check_reports_render,
    check_legal_lines,
    check_events,
    check_pending,
    check_noninterference,
)


# --------------------------------------------------------------------------- tests


def test_every_builtin_game_loads() -> None:
    """Every games/<id> package of a built-in game imports and exports GAME."""
    _, broken = builtin_games()
    assert not broken, "built-in games that do not load: " + "; ".join(
        f"{gid}: {why}" for gid, why in broken.items()
    )


def test_game_object(game: Game) -> None:
    """The game object satisfies the protocol, is found by its id and has a
    valid view schema, options whose defaults are among their choices, verbs."""
    assert isinstance(game, Game)
    assert registry.get(game.id) is game
    assert game.id and game.title
    names = [o.name for o in game.options]
    assert len(names) == len(set(names)), f"duplicate option names: {names}"
    for option in game.options:
        assert not option.choices or option.default in option.choices, option
    assert game.verbs, "no verbs for HELP"
    view_validator(game.view_schema)  # raises if missing or not a valid schema


@pytest.mark.parametrize("seed", SEEDS)
def test_playthrough_ends(game: Game, play_options: dict[str, JSON], seed: int) -> None:
    check_ends(game, cached_play(game, seed, options=play_options))


@pytest.mark.parametrize("seed", SEEDS)
def test_playthrough_ends_in_victory(
    game: Game, victory_options: dict[str, JSON], seed: int
) -> None:
    check_victory(game, cached_play(game, seed, options=victory_options))


@pytest.mark.parametrize("seed", SEEDS)
def test_same_seed_same_game(game: Game, play_options: dict[str, JSON], seed: int) -> None:
    """Two independent random playthroughs with the same seed are identical."""
    first = cached_play(game, seed, options=play_options)
    second = play(game, seed, options=play_options)
    assert first.records == second.records
    assert canonical(first.final) == canonical(second.final)


@pytest.mark.parametrize("seed", SEEDS)
def test_replay_reproduces_state(game: Game, play_options: dict[str, JSON], seed: int) -> None:
    check_replay(game, cached_play(game, seed, options=play_options))


@pytest.mark.parametrize("seed", SEEDS)
def test_state_round_trips_through_json(
    game: Game, play_options: dict[str, JSON], seed: int
) -> None:
    check_json_round_trip(game, cached_play(game, seed, options=play_options))


@pytest.mark.parametrize("seed", SEEDS)
def test_views_validate(game: Game, play_options: dict[str, JSON], seed: int) -> None:
    check_views(game, cached_play(game, seed, options=play_options))


@pytest.mark.parametrize("seed", SEEDS)
def test_reports_render(game: Game, play_options: dict[str, JSON], seed: int) -> None:
    check_reports_render(game, cached_play(game, seed, options=play_options))


@pytest.mark.parametrize("seed", SEEDS)
def test_legal_lines_parse_canonically(
    game: Game, play_options: dict[str, JSON], seed: int
) -> None:
    check_legal_lines(game, cached_play(game, seed, options=play_options))


@pytest.mark.parametrize("seed", SEEDS)
def test_event_audiences(game: Game, play_options: dict[str, JSON], seed: int) -> None:
    check_events(game, cached_play(game, seed, options=play_options))


@pytest.mark.parametrize("seed", SEEDS)
def test_pending_roles(game: Game, play_options: dict[str, JSON], seed: int) -> None:
    check_pending(game, cached_play(game, seed, options=play_options))


@pytest.mark.parametrize("seed", SEEDS)
def test_noninterference(game: Game, play_options: dict[str, JSON], seed: int) -> None:
    check_noninterference(game, cached_play(game, seed, options=play_options))


@pytest.mark.slow
def test_all_properties_many_seeds(
    game: Game, play_options: dict[str, JSON], slow_seed: int
) -> None:
    """Every property over many more seeds, dealt out over the game's option
    sets (noninterference only for games with ``scramble``; the default run
    shows the skip for the others). Victories are promised for the default
    seeds only: random play over many seeds may end in a shared result."""
    p = cached_play(game, slow_seed, options=play_options)
    for check in PROPERTIES:
        if check is check_noninterference and not hasattr(game, "scramble"):
            continue
        check(game, p)


# --------------------------------------------------------------------------- fuzz


_FUZZ_STATES: dict[str, list[State]] = {}


def _fuzz_states(game: Game) -> list[State]:
    """A handful of states of every kind of decision from the first playthrough:
    the setup, the first state of each decision kind, one mid-game, the end."""
    if game.id not in _FUZZ_STATES:
        _FUZZ_STATES[game.id] = _pick_states(game)
    return _FUZZ_STATES[game.id]


def _pick_states(game: Game) -> list[State]:
    p = cached_play(game, SEEDS[0])
    picked: dict[str, State] = {"setup": p.steps[0].state, "end": p.final}
    picked["middle"] = p.steps[len(p.steps) // 2].state
    for step in p.steps:
        for d in game.pending(step.state):
            picked.setdefault(d.kind.value, step.state)
    return list(picked.values())


_VOCABULARY: dict[str, list[str]] = {}


def _vocabulary(game: Game) -> list[str]:
    """The words of the game's legal lines in the fuzz states and of its verbs."""
    if game.id not in _VOCABULARY:
        states = _fuzz_states(game)
        words = {
            w for s in states for r in game.roles(s) for x in game.legal(s, r) for w in x.split()
        }
        words |= {w for v in game.verbs for w in v.syntax.split() + v.example.split()}
        _VOCABULARY[game.id] = sorted(words)
    return _VOCABULARY[game.id]


FUZZ = settings(
    max_examples=150,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
GARBAGE_SYMBOLS = "¤§¶¦¢£¥©®°±µ·¿×÷"
"""Characters no command grammar uses: a line starting with one is never a command."""


@FUZZ
@given(data=st.data())
def test_garbage_lines_are_invalid(game: Game, data: st.DataObject) -> None:
    """A line that cannot be a command raises InvalidLine and nothing else
    (no KeyError, IndexError, ... and not the milder grades)."""
    state = data.draw(st.sampled_from(_fuzz_states(game)), label="state")
    role = data.draw(st.sampled_from(game.roles(state)), label="role")
    line = data.draw(
        st.one_of(
            st.text(alphabet=GARBAGE_SYMBOLS, min_size=1),
            st.builds(lambda c, t: c + t, st.sampled_from(GARBAGE_SYMBOLS), st.text()),
        ),
        label="line",
    )
    with pytest.raises(InvalidLine):
        game.parse(state, role, line)


@FUZZ
@given(data=st.data())
def test_any_line_parses_or_is_graded(game: Game, data: st.DataObject) -> None:
    """Whatever a player writes (random text, broken or shuffled legal lines,
    the game's own words in random order), ``parse`` returns an action whose
    canonical text round-trips or raises a graded RuleError with a message; the
    choices offered for an ambiguous line parse."""
    states = _fuzz_states(game)
    state = data.draw(st.sampled_from(states), label="state")
    role = data.draw(st.sampled_from(game.roles(state)), label="role")
    words = _vocabulary(game)
    legal = game.legal(state, role) or ["PASS"]
    word = st.sampled_from(words) if words else st.text(min_size=1, max_size=6)
    line = data.draw(
        st.one_of(
            st.text(max_size=40),
            st.lists(word, max_size=6).map(" ".join),
            st.builds(
                lambda line, i, junk: line[:i] + junk + line[i + 1 :],
                st.sampled_from(legal),
                st.integers(0, 30),
                st.text(max_size=3),
            ),
            st.builds(lambda a, b: f"{a} {b}", st.sampled_from(legal), st.text(max_size=8)),
            st.sampled_from(legal).map(str.lower),
        ),
        label="line",
    )
    before = canonical(state)
    try:
        action = game.parse(state, role, line)
    except RuleError as exc:
        assert exc.grade in set(Grade)
        assert exc.message.strip(), f"{type(exc).__name__} without a message for {line!r}"
        if isinstance(exc, AmbiguousLine):
            for choice in exc.choices:
                game.parse(state, role, choice)
    else:
        assert game.parse(state, role, action.text) == action
    assert canonical(state) == before, "parse changed the state"


# --------------------------------------------------------------------------- the suite itself


class _LeakyView(SealedBids):
    def view(self, state: State, role: Role | None) -> dict[str, JSON]:
        out = super().view(state, role)
        out["end"] = ",".join(state["pile"][:1])  # the top of the hidden pile
        return out


class _IdleScramble(SealedBids):
    def scramble(self, state: State, role: Role, rng: Rng) -> State:
        return copy.deepcopy(state)


class _TupleState(SealedBids):
    def setup(self, options: Mapping[str, JSON], rng: Rng) -> State:
        state = super().setup(options, rng)
        state["players"] = tuple(state["players"])
        return state


class _ExtraViewKey(SealedBids):
    def view(self, state: State, role: Role | None) -> dict[str, JSON]:
        return {**super().view(state, role), "note": "not in the schema"}


class _NonCanonical(SealedBids):
    def parse(self, state: State, role: Role, line: str) -> Action:
        action = super().parse(state, role, line)
        return Action(action.text + " ", action.key, action.data)


class _StrangerEvent(SealedBids):
    def resolve(
        self, state: State, orders: Mapping[Role, Sequence[Action]], rng: Rng
    ) -> tuple[State, list[Event]]:
        new, events = super().resolve(state, orders, rng)
        return new, [*events, private("Nobody", "a note for a seat that is not in the game")]


class _MemoryOutsideState(SealedBids):
    def __init__(self) -> None:
        self.calls = 0

    def resolve(
        self, state: State, orders: Mapping[Role, Sequence[Action]], rng: Rng
    ) -> tuple[State, list[Event]]:
        self.calls += 1
        new, events = super().resolve(state, orders, rng)
        new["end"] = f"resolve called {self.calls} times"
        return new, events


class _DrawnVictory(SealedBids):
    playthrough_options: Mapping[str, JSON] = {"players": 2, "rounds": 1}
    victory_playthroughs: tuple[Mapping[str, JSON], ...] = ({},)


class _MutatesInput(SealedBids):
    def act(self, state: State, role: Role, action: Action, rng: Rng) -> tuple[State, list[Event]]:
        state["end"] = "touched"
        return super().act(state, role, action, rng)


FAULTS: dict[str, tuple[Callable[[], Game], Callable[[Game, Playthrough], None], int]] = {
    "leaky view": (_LeakyView, check_noninterference, DEFAULT_MAX_STEPS),
    "scramble that changes nothing": (_IdleScramble, check_noninterference, DEFAULT_MAX_STEPS),
    "tuple in state": (_TupleState, check_json_round_trip, DEFAULT_MAX_STEPS),
    "view key outside the schema": (_ExtraViewKey, check_views, DEFAULT_MAX_STEPS),
    "non-canonical text": (_NonCanonical, check_legal_lines, DEFAULT_MAX_STEPS),
    "event for a stranger": (_StrangerEvent, check_events, DEFAULT_MAX_STEPS),
    "memory outside the state": (_MemoryOutsideState, check_replay, DEFAULT_MAX_STEPS),
    "needs more steps than allowed": (SealedBids, check_ends, 3),
    "promised victory ends in a draw": (_DrawnVictory, check_victory, DEFAULT_MAX_STEPS),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_checks_catch_faults(fault: str) -> None:
    """Each property fails on a copy of Sealed Bids with the matching fault
    (and the same property passes on the real Sealed Bids: see above)."""
    make, check, max_steps = FAULTS[fault]
    game = make()
    p = play(game, SEEDS[0], max_steps=max_steps)
    with pytest.raises((AssertionError, pytest.fail.Exception)):
        check(game, p)


def test_playthrough_sets() -> None:
    """A game's ``victory_playthroughs`` give one option set each, over its
    ``playthrough_options``; without them the suite plays the latter alone."""
    sets = playthrough_sets(SealedBids())
    assert [s["players"] for s in sets] == [2, 3, 4]
    assert all(s["rounds"] == 5 for s in sets)
    plain = _LeakyView()
    plain.victory_playthroughs = ()
    assert playthrough_sets(plain) == [playthrough_options(plain)]
    assert playthrough_sets(_DrawnVictory()) == [{"players": 2, "rounds": 1}]


def test_driver_catches_mutated_input() -> None:
    """A transition that changes the state it was given breaks purity; the
    driver stops the playthrough."""
    with pytest.raises(ContractViolation, match="changed the state it was given"):
        play(_MutatesInput(), SEEDS[0])
