"""Building Kingdom Wars tables for rule tests, and playing lines on them.

``table(...)`` sets up a game with chosen generals, hands, equipment, health
and the cards on top of the deck, and starts a given seat's turn at a given
phase. ``play(state, role, line)`` sends one line through the game's own
``parse`` and ``act``; ``answer(state, {role: [lines]})`` settles the open
response window as the judge does: each role of the window in its order
gives its held lines, then passes (the game's default).

A trigger window that a seat's standing answers pass by default (none of its
skills, exposed or hidden, watches that moment: the policy's CAN) is passed
for it after every line, as the judge does by mail, so that a table of
hidden generals plays on the same way whichever skills watch its moments.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from judge.game.engine import Decision, Event, State
from judge.game.rng import Rng
from judge_games.kingdom_wars import GAME, flow, policy
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.table import Ctx, fresh_player

SEED = bytes(range(32))


def rng(counter: int = 0) -> Rng:
    return Rng(SEED, counter)


def copy_of(kind: str, suit: str | None = None, rank: int | None = None,
            taken: Iterable[str] = ()) -> str:
    """A physical card of ``kind`` (the first not in ``taken``), by suit and
    number if given: ``copy_of("attack", "spades", 7)``."""
    used = set(taken)
    for c in DATA.deck:
        if c.card.id != kind or c.id in used:
            continue
        if suit is not None and c.suit != suit:
            continue
        if rank is not None and c.rank != rank:
            continue
        return c.id
    raise LookupError(f"no free copy of {kind} {suit} {rank}")


def table(
    generals: Mapping[str, tuple[str, str]],
    *,
    hands: Mapping[str, Sequence[str]] | None = None,
    equip: Mapping[str, Sequence[str]] | None = None,
    judge: Mapping[str, Sequence[tuple[str, str]]] | None = None,
    shown: Mapping[str, Sequence[str]] | None = None,
    hp: Mapping[str, int] | None = None,
    deck_top: Sequence[str] = (),
    turn: str = "A",
    phase: str = "play",
    start: str = "A",
    chained: Iterable[str] = (),
    by_hand: bool = True,
) -> State:
    """A table of ``len(generals)`` seats (``{"A": ("cao-cao", "xu-chu")}``),
    at ``phase`` of ``turn``'s turn, after running to its first decision.

    ``hands``/``equip``: physical card ids (see :func:`copy_of`); ``judge``:
    ``(card id, as kind)`` per seat, first placed first; ``shown``: the slots
    exposed (``["main"]``), with kingdoms set as the rules do; ``deck_top``:
    the next cards drawn, first drawn first. Everything else is dealt from a
    fixed shuffle.

    ``by_hand``: every seat has asked to decide its Discard Phase, its
    discards, its exposing and its forced answers by hand (``STANDING discard
    ASK``, ``STANDING reveal ASK``, ``STANDING forced ASK``), as the rules'
    tests of those decisions need; False: the
    standing defaults (standing.py)."""
    n = len(generals)
    state = GAME.setup({"seats": n, "start": start}, rng())
    seats = state["seats"]
    assert list(generals) == seats, f"name the seats {seats} in order"
    state["stage"] = "play"
    if by_hand:
        state["standing"] = {r: {"discard": "ask", "reveal": "ask", "forced": "ask"}
                             for r in seats}
    used: set[str] = set()
    for spec in (hands or {}), (equip or {}):
        for cids in spec.values():
            used |= set(cids)
    for pairs in (judge or {}).values():
        used |= {c for c, _ in pairs}
    used |= set(deck_top)
    for r in seats:
        main, deputy = generals[r]
        state["p"][r] = fresh_player(main, deputy)
        state["dealt"][r] = []
    state["pile"] = [x for x in DATA.generals if all(x not in generals[r] for r in seats)]
    g = Ctx(state, rng(1))
    for r, cids in (hands or {}).items():
        g.hand(r).extend(cids)
    for r, cids in (equip or {}).items():
        for cid in cids:
            c = DATA.deck_card(cid)
            assert c is not None
            slot = str(c.subtype)
            if c.subtype == "mount":
                slot = "plus" if (c.card.distance or 0) > 0 else "minus"
            g.p(r)["equip"][slot] = cid
    for r, pairs in (judge or {}).items():
        for cid, kind in pairs:
            g.judges(r).append({"card": cid, "as": kind})
    for r, slots in (shown or {}).items():
        flow.reveal(g, r, slots)
    state["todo"] = []
    for r, v in (hp or {}).items():
        g.p(r)["hp"] = v
    for r in chained:
        g.p(r)["chained"] = True
    rest = [c for c in state["deck"] if c not in used]
    state["deck"] = rest + list(reversed(deck_top))  # the deck's top is its end
    state["discard"] = []
    state["current"] = state["lap"] = turn
    state["turns"] = 1
    state["turn_flags"] = {}
    phases = list(flow.PHASES)
    todo: list[dict[str, Any]] = [
        {"t": "phase", "phase": ph} for ph in phases[phases.index(phase):]]
    todo[0]["checked"] = True
    g.push(*todo, {"t": "turn_end", "seat": turn})
    state["pioneer_given"] = bool(shown)
    flow.run(g)
    state, _ = skip_idle(state)
    return state


def skip_idle(state: State, counter: int = 97) -> tuple[State, list[Event]]:
    """Pass the open trigger window for each seat first in it that the
    default standing answers pass for (no skill of its own watches the
    moment), until a seat that could answer, or another decision, is on top."""
    events: list[Event] = []
    for _ in range(500):
        top = ask(state)
        if top is None or top["kind"] != "trigger" or not top["open"] or not top["roles"]:
            break
        role = top["roles"][0]
        if policy.can_answer(GAME.view(state, role), decision(state)):
            break
        state, got = GAME.act(state, role, GAME.parse(state, role, "PASS"), rng(counter))
        counter += 1
        events += got
    return state, events


def ask(state: State) -> dict[str, Any] | None:
    """The open ask (the top of the stack), or None."""
    asks: list[dict[str, Any]] = state["asks"]
    return asks[-1] if asks else None


def open_ask(state: State) -> dict[str, Any]:
    """The open ask, for a test that expects one (it fails if there is none)."""
    top = ask(state)
    assert top is not None, "no ask is open"
    return top


def decision(state: State) -> Decision:
    return GAME.pending(state)[-1]


def play(state: State, role: str, line: str, counter: int = 7) -> tuple[State, list[Event]]:
    """``role`` sends ``line`` (parsed and acted as the judge would)."""
    action = GAME.parse(state, role, line)
    state, events = GAME.act(state, role, action, rng(counter))
    state, more = skip_idle(state, counter + 50)
    return state, events + more


def answer(state: State, lines: Mapping[str, Sequence[str]] | None = None,
           counter: int = 11) -> tuple[State, list[Event]]:
    """Settle the open response window: each of its roles, in its order,
    gives its lines from ``lines`` and then passes; stops when that window
    is over or another decision is on top (which the caller then answers)."""
    held = {r: list(v) for r, v in (lines or {}).items()}
    events: list[Event] = []
    top = ask(state)
    assert top is not None, "no window is open"
    serial = top["serial"]
    for _ in range(200):
        top = ask(state)
        if top is None or top["serial"] != serial or not top["open"]:
            break
        role = top["roles"][0]
        line = held[role].pop(0) if held.get(role) else "PASS"
        state, got = play(state, role, line, counter)
        counter += 1
        events += got
    return state, events


def pass_all(state: State, counter: int = 13) -> tuple[State, list[Event]]:
    """Everyone passes every window until an ACTION decision (or the end)."""
    events: list[Event] = []
    for _ in range(500):
        top = ask(state)
        if top is None or top["kind"] not in ("respond", "negate", "trigger"):
            break
        state, got = answer(state, {}, counter)
        counter += 5
        events += got
    return state, events


def texts(events: Sequence[Event], role: str | None = None) -> list[str]:
    """The texts of the events ``role`` may read (None: public ones)."""
    return [e.text for e in events if e.visible_to(role)]


def hp(state: State, seat: str) -> int:
    value: int = state["p"][seat]["hp"]
    return value
