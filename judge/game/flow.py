"""The decision kernel: how a game goes on from one decision to the next.

A game built on the kernel keeps, in its JSON state, two stacks:

``todo``
    the *frames* waiting to run, last one first. A frame is a dict naming its
    state (``{"t": "turn", "seat": "B"}``); the game's :class:`Rules` maps each
    state to its step function. Running a frame takes it off the stack and
    calls its step; the step *calls* further frames (they run next, before
    whatever was waiting, which resumes when they are done), *goes on* as
    another state (:meth:`Ctx.goto`) or simply returns (the frame is over).

``asks``
    the decisions waiting, innermost last. An ask has a ``kind`` (which picks
    its answer handler), the ``roles`` still to answer, a public ``what``, a
    ``serial`` unique in the game and an ``open`` flag. An ask opened while
    another waits sits above it: its *depth* (its place on the stack) is
    greater, and only the top ask is answered. A window whose answer has
    consequences to run first is *suspended* (closed while they run, its
    remaining roles keeping their turn) and *reopened* by a kernel frame.

:meth:`Rules.run` carries the game on until the top ask is open (somebody
must decide) or the game stops (``playing`` says so). The judge's decisions
are the asks with roles, at their depth (:meth:`Rules.pending`); those of the
greatest depth are the open ones (:meth:`Rules.open_depth`).

Events are written through :class:`Ctx` alone: :meth:`Ctx.pub` for
everyone, :meth:`Ctx.only` for some roles, :meth:`Ctx.split` for some roles
and a lesser text for the rest. A game's own ``Ctx`` extends this one with
its rules' helpers. See docs/kernel.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar, cast

from judge.game.engine import Decision, Event, private, public
from judge.game.engine import State as State  # the one State; kept importable from here

if TYPE_CHECKING:
    from judge.game.rng import Rng

Frame = dict[str, Any]
Ask = dict[str, Any]
Cmd = dict[str, Any]

REOPEN = "reopen"
"""The kernel's own state: a suspended window opens again (or closes, when
nobody is left to answer it)."""

LIMIT = 200_000
"""Frames one run may step through before the kernel calls it a run-away."""

C = TypeVar("C", bound="Ctx")
StepFn = Callable[[C, Frame], None]
AnswerFn = Callable[[C, Ask, str, Cmd], None]
AskFn = Callable[[C, Ask], None]


class Rules(Generic[C]):
    """One game's table of states (state name -> step function) and of
    answers (ask kind -> handler), filled by the decorators :meth:`state` and
    :meth:`answer`, and the run loop over them. Each game makes its own."""

    def __init__(self, game: str, *, playing: Callable[[State], bool] | None = None,
                 limit: int = LIMIT, current: Callable[[State], State] | None = None) -> None:
        self.game = game
        self.playing = playing or (lambda s: True)
        self.limit = limit
        self.current = current or (lambda s: s)
        """A state as the kernel reads it: a game whose states were once saved
        without frames gives a (copied) state with the frames and asks it
        stood for."""
        self.steps: dict[str, StepFn[C]] = {}
        self.answers: dict[str, AnswerFn[C]] = {}
        self.resuming: AskFn[C] | None = None
        self.closed: AskFn[C] | None = None
        self.steps[REOPEN] = self._reopen

    # ------------------------------------------------------------------ registering

    def state(self, name: str) -> Callable[[StepFn[C]], StepFn[C]]:
        """Register the step of state ``name`` (a frame ``{"t": name, ...}``
        runs it)."""

        def deco(fn: StepFn[C]) -> StepFn[C]:
            if name in self.steps:
                raise ValueError(f"{self.game}: state {name!r} registered twice")
            self.steps[name] = fn
            return fn

        return deco

    def answer(self, kind: str) -> Callable[[AnswerFn[C]], AnswerFn[C]]:
        """Register the handler of the answers to asks of ``kind``."""

        def deco(fn: AnswerFn[C]) -> AnswerFn[C]:
            if kind in self.answers:
                raise ValueError(f"{self.game}: answer {kind!r} registered twice")
            self.answers[kind] = fn
            return fn

        return deco

    def on_resume(self, fn: AskFn[C]) -> AskFn[C]:
        """Register what the game does as a suspended window comes back
        (before the kernel opens or closes it)."""
        self.resuming = fn
        return fn

    def on_close(self, fn: AskFn[C]) -> AskFn[C]:
        """Register what follows a suspended window that nobody is left to
        answer (the kernel has taken it off the stack)."""
        self.closed = fn
        return fn

    # ------------------------------------------------------------------ running

    def run(self, g: C) -> None:
        """Carry the game on until somebody must decide, or it is over."""
        s = g.s
        for _ in range(self.limit):
            if not self.playing(s):
                return
            asks: list[Ask] = s["asks"]
            if asks and asks[-1]["open"]:  # the top ask waits for an answer
                return
            if not s["todo"]:
                raise RuntimeError(f"{self.game}: nothing left to do and nobody asked")
            frame = s["todo"].pop()
            self.steps[frame["t"]](g, frame)
        raise RuntimeError(f"{self.game}: the rules ran away")

    def respond(self, g: C, ask: Ask, role: str, cmd: Cmd) -> None:
        """``role`` answers ``ask`` with ``cmd`` (checked by the game)."""
        self.answers[ask["kind"]](g, ask, role, cmd)

    def _reopen(self, g: C, frame: Frame) -> None:
        for a in g.s["asks"]:
            if a["serial"] == frame["serial"]:
                if self.resuming is not None:
                    self.resuming(g, a)
                if a["roles"]:
                    a["open"] = True
                else:
                    pop_ask(g, a)
                    if self.closed is not None:
                        self.closed(g, a)
                return

    # ------------------------------------------------------------------ reading a state

    def waiting(self, state: State) -> list[tuple[int, Ask]]:
        """The asks that still ask somebody, each with its depth (its place on
        the stack). A suspended window with every answer taken waits unlisted."""
        return [(depth, a) for depth, a in enumerate(self.current(state)["asks"]) if a["roles"]]

    def top(self, state: State) -> Ask | None:
        asks: list[Ask] = self.current(state)["asks"]
        return asks[-1] if asks else None

    def stack(self, state: Mapping[str, Any]) -> Sequence[Ask]:
        """Every ask on the stack, the outermost first (to read, not to change:
        :class:`Ctx` changes it)."""
        asks: list[Ask] = self.current(cast("State", state))["asks"]  # read only
        return tuple(asks)

    def ask_for(self, state: State, role: str) -> Ask | None:
        """The ask ``role`` answers now: the top of the stack, if it is open
        and asks ``role``."""
        if not self.playing(state):
            return None
        top = self.top(state)
        if top is not None and top["open"] and role in top["roles"]:
            return top
        return None

    def pending(self, state: State,
                describe: Callable[[Ask, int], Decision]) -> list[Decision]:
        """The judge's decisions: each waiting ask as the game ``describe``s
        it, at the depth the kernel gives it (``describe(ask, depth)``)."""
        return [describe(a, depth) for depth, a in self.waiting(state)]

    def open_depth(self, state: State) -> int | None:
        """The depth of the decisions open now: the greatest of the waiting
        asks (``None`` when none waits)."""
        depths = [depth for depth, _ in self.waiting(state)]
        return max(depths) if depths else None


def kernel_of(game: object) -> Rules[Any] | None:
    """The kernel rules a game runs on (its ``kernel`` attribute), if any."""
    rules = getattr(game, "kernel", None)
    return rules if isinstance(rules, Rules) else None


# --------------------------------------------------------------------------- asks


def pop_ask(g: Ctx, ask: Ask) -> None:
    """Take ``ask`` off the stack (usually the top: it was answered)."""
    asks: list[Ask] = g.s["asks"]
    if asks and asks[-1]["serial"] == ask["serial"]:
        asks.pop()
    else:
        g.s["asks"] = [a for a in asks if a["serial"] != ask["serial"]]


def suspend(g: Ctx, ask: Ask) -> None:
    """An answer's consequences run before the rest of its window: the window
    waits (its remaining roles keep their answers) and resumes after."""
    ask["open"] = False
    g.call({"t": REOPEN, "serial": ask["serial"]})


# --------------------------------------------------------------------------- context


class Ctx:
    """One call's view of a game: the state (changed in place: callers pass a
    copy), the random source and the events written so far. A game's own
    context extends it and names its :class:`Rules` in ``rules``."""

    rules: ClassVar[Rules[Any]]

    def __init__(self, state: State, rng: Rng | None = None) -> None:
        self.s = state
        self.rng = rng
        self.events: list[Event] = []

    # ------------------------------------------------------------------ events

    def everyone(self) -> list[str]:
        """Every role an event may be written for (the seats)."""
        seats: list[str] = self.s["seats"]
        return seats

    def pub(self, text: str, **data: Any) -> None:
        """An event for everyone."""
        self.events.append(public(text, **data))

    def only(self, roles: str | Iterable[str], text: str, **data: Any) -> None:
        """An event for ``roles`` alone."""
        who = [roles] if isinstance(roles, str) else sorted(set(roles))
        self.events.append(private(who, text, **data))

    def split(self, roles: str | Iterable[str], mine: str, others: str, **data: Any) -> None:
        """One event for ``roles`` and another, saying less, for everyone else."""
        who = {roles} if isinstance(roles, str) else set(roles)
        self.only(who, mine, **data)
        rest = [r for r in self.everyone() if r not in who]
        if rest:
            self.events.append(private(rest, others))

    # ------------------------------------------------------------------ frames

    def call(self, *frames: Frame) -> None:
        """Run ``frames`` next, in the order given, before whatever was
        waiting (which resumes when they are over)."""
        for f in reversed(frames):
            if f["t"] not in self.rules.steps:
                raise KeyError(f"no state {f['t']!r}")
            self.s["todo"].append(dict(f))

    push = call

    def goto(self, frame: Frame) -> None:
        """The frame being stepped goes on as ``frame`` (another state, or the
        same one with new data), where it stood among the waiting frames."""
        self.call(frame)

    def call_after(self, frame: Frame, *frames: Frame) -> None:
        """Run ``frames`` (in the order given) right after the waiting
        ``frame`` (one :meth:`find_frame` gave) is over, before what waits
        below it."""
        todo: list[Frame] = self.s["todo"]
        at = next((i for i, f in enumerate(todo) if f is frame), None)
        if at is None:
            raise KeyError(f"the frame {frame.get('t')!r} does not wait")
        for f in frames:
            if f["t"] not in self.rules.steps:
                raise KeyError(f"no state {f['t']!r}")
            todo.insert(at, dict(f))

    def find_frame(self, state: str, **data: Any) -> Frame | None:
        """The nearest waiting frame of ``state`` (the next to run first) whose
        data include ``data``; the game may change it before it runs."""
        todo: list[Frame] = self.s["todo"]
        for f in reversed(todo):
            if f["t"] == state and all(f.get(k) == v for k, v in data.items()):
                return f
        return None

    def stop(self) -> None:
        """The game stops where it stands: no frame waits and nobody is asked."""
        self.s["todo"].clear()
        self.s["asks"].clear()

    def end(self, state: str | None = None) -> None:
        """Return early from a call: drop the waiting frames down to and
        including the nearest one of ``state``; without ``state``, drop them
        all (the game stops)."""
        todo: list[Frame] = self.s["todo"]
        if state is None:
            todo.clear()
            return
        for i in range(len(todo) - 1, -1, -1):
            if todo[i]["t"] == state:
                del todo[i:]
                return
        raise KeyError(f"no frame of state {state!r} waits")

    def frames(self) -> list[Frame]:
        """The frames waiting, the next to run last."""
        todo: list[Frame] = self.s["todo"]
        return todo

    # ------------------------------------------------------------------ asks

    def ask(self, kind: str, roles: Sequence[str], what: str, **spec: Any) -> Ask:
        """Put a decision on the stack: the run stops until it is answered.
        ``kind`` picks the answer handler; ``what`` is the public description;
        ``spec`` its own data (``then``: the frame the answer continues with)."""
        s = self.s
        a: Ask = {"kind": kind, "roles": list(roles), "what": what,
                  "serial": self.next_serial(), "open": True, **spec}
        s["asks"].append(a)
        return a

    def next_serial(self) -> int:
        """The serial of a new ask: the state's ``serial``, counted on. A game
        that numbers its decisions itself answers with its own number (unique
        among the asks on the stack). A game may number its own records with
        it too."""
        self.s["serial"] += 1
        serial: int = self.s["serial"]
        return serial

    def top(self) -> Ask | None:
        """The innermost ask."""
        return self.rules.top(self.s)

    def ask_of(self, serial: int) -> Ask | None:
        """The ask with ``serial``, if it still waits."""
        found: Ask | None = next((a for a in self.s["asks"] if a["serial"] == serial), None)
        return found

    def depth(self, ask: Ask) -> int:
        """Where ``ask`` stands on the stack (0: the outermost)."""
        return [a["serial"] for a in self.s["asks"]].index(ask["serial"])

    def pop_ask(self, ask: Ask) -> None:
        pop_ask(self, ask)

    def suspend(self, ask: Ask) -> None:
        suspend(self, ask)

    def answered(self, ask: Ask, role: str) -> None:
        """``role`` has answered ``ask``: the window no longer asks it."""
        ask["roles"] = [r for r in ask["roles"] if r != role]

    def dismiss(self, ask: Ask) -> None:
        """``ask`` asks nobody more (what it asked for is had, or nobody is left
        who may give it); a suspended window closes when it resumes."""
        ask["roles"] = []

    def withdraw(self, role: str) -> None:
        """No waiting ask asks ``role`` any more (it has left the game)."""
        for a in self.s["asks"]:
            self.answered(a, role)

    def hold(self, ask: Ask) -> None:
        """``ask`` takes no answers while the asks opened above it wait; it
        opens again by :meth:`reopen` (no frame of the kernel's reopens it, as
        :meth:`suspend` does)."""
        ask["open"] = False

    def reopen(self, ask: Ask) -> None:
        """A held ``ask`` takes answers again."""
        ask["open"] = True
