"""A game's life, one operation each: create, seat, start, unseat, replace,
eject, end with a declared result, cancel.

The mail commands (:mod:`judge.commands`) and the command line
(:mod:`judge.cli`, through :class:`judge.service.Judge`) both call these, so a
game changes the same way whoever asks. Each takes the workspace, raises
:class:`~judge.session.CommandError` with nothing changed for a request that
cannot be, and returns what it made (a token, the mails to send) for the
caller to hand on; only :func:`unseat` queues its one mail itself, since
:func:`start` lets lapse the requests never admitted."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from judge.game import adjudicator as adj
from judge.game import registry, scheduler
from judge.game.engine import option_values
from judge.game.rng import Rng, commitment
from judge.grammar import GAME_NAME
from judge.session import CommandError, Loaded, Workspace
from judge.store import Seat, hash_token, new_token

if TYPE_CHECKING:
    from judge.outbox import Outbox

#: One plain addr-spec (no lists, no display names, no routes).
ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*")


@dataclass(frozen=True)
class Notice:
    """One mail to one address about game ``game``."""

    address: str
    subject: str
    text: str
    game: str


@dataclass
class Change:
    """What a seat change made: the seat, the mails to send (in order) and
    what every other seat still playing is told (``announce``: a heading
    and its text)."""

    seat: Seat
    notices: list[Notice] = field(default_factory=list)
    announce: tuple[str, str] | None = None
    token: str = ""


def send(outbox: Outbox, notices: list[Notice]) -> None:
    """Queue ``notices`` in ``outbox`` (a session's: :attr:`Workspace.outbox`)."""
    for n in notices:
        outbox.queue(n.address, n.subject, n.text, "notice", game=n.game)


# --------------------------------------------------------------------------- create


def create(ws: Workspace, name: str, kind: str, options: dict[str, str], gm_address: str) -> str:
    """Create a forming game; returns the GM's token (shown once)."""
    judge = ws.judge
    if not GAME_NAME.fullmatch(name):
        raise CommandError(
            f"{name!r} is not a usable game name",
            "use the ASCII letters a-z, digits, - and _, at most 40 characters",
        )
    name = name.lower()  # game names compare case-folded: SPRING26 is spring26
    # "GM" (judge.commands.base.GM) is the word SIGNON reads as the GM, never a game
    if name.upper() == "GM" or ws.find(name) is not None:
        raise CommandError(f"a game called {name!r} already exists", "choose another name")
    try:
        game = registry.get(kind)
    except registry.UnknownGame as exc:
        raise CommandError(str(exc)) from exc
    try:
        values = option_values(game, options)
    except ValueError as exc:
        raise CommandError(str(exc)) from exc
    seed = judge.seed_source()
    token = new_token()
    now = scheduler.iso(ws.now)
    judge.store.insert_game(
        {
            "name": name,
            "game": game.id,
            "status": "forming",
            "options": json.dumps(values, sort_keys=True),
            "settings": json.dumps({}),
            "seed": seed.hex(),
            "seed_hash": commitment(seed),
            "table_json": "",
            "phase": "forming",
            "gm_address": gm_address.lower(),
            "gm_token_hash": hash_token(token),
            "created": now,
            "updated": now,
        }
    )
    return token


def operator_gm_notice(name: str, gm_address: str, token: str) -> Notice:
    """The mail that gives the GM named by the operator its token."""
    name = name.lower()
    return Notice(
        gm_address.lower(), f"[{name}] you are the GM",
        f"The judge's operator has created {name} with you as its GM.\n"
        f"Your GM token is: {token}\nKeep it private. Sign GM commands with "
        f"SIGNON {name} GM {token}\nSend HELP for the commands.\n", name)


# --------------------------------------------------------------------------- seats before START


def roster(g: Loaded) -> list[str]:
    """Every role a seat of ``g`` may ask for: the roles of the game set up
    with its options at the largest table its ``players`` option allows."""
    options = json.loads(g.row["options"])
    spec = next((o for o in g.game.options if o.name == "players"), None)
    if spec is not None and spec.choices:
        options["players"] = max(int(c) for c in spec.choices)
    return g.game.roles(g.game.setup(options, Rng(g.seed, 0)))


def seat_count(g: Loaded) -> int:
    """How many seats ``g`` may have (the largest table it allows)."""
    return len(roster(g))


def open_to_join(g: Loaded) -> bool:
    taken = [s for s in g.seats if s.status != "pending"]
    return g.status == "forming" and len(taken) < seat_count(g)


def join(ws: Workspace, name: str, address: str, wanted: str | None, *,
         by_gm: bool = False) -> str:
    """Add a seat to a forming game; returns its token ("" when the GM must
    admit it first: the game's ``joins`` setting is ``approval``, unless the
    seat is given ``by_gm``, as the CLI's ``game seat`` does)."""
    g = ws.get(name)
    _not_cancelled(g)
    if g.status != "forming":
        raise CommandError(f"{name} has already started", "ask its GM for a REPLACE")
    address = address.lower()
    if any(s.address == address for s in g.seats):
        raise CommandError(f"{address} already has a seat in {name}")
    roles = roster(g)
    if wanted:
        match = next((r for r in roles if r.lower() == wanted.lower()), None)
        if match is None:
            raise CommandError(f"{g.game.title} has no role {wanted!r}",
                               "roles: " + ", ".join(roles) + "; or JOIN without a role")
        wanted = match
        if any((s.wanted or "").lower() == wanted.lower() for s in g.seats):
            raise CommandError(
                f"{wanted} is already taken in {name}", "JOIN without a role to get one by lot"
            )
    if not open_to_join(g):
        raise CommandError(f"{name} is full: it has {seat_count(g)} seats",
                           "ask its GM for a standby place")
    store = ws.judge.store
    approval = not by_gm and g.settings(ws.judge.config.settings).get("joins") == "approval"
    if approval:
        store.add_seat(name, address, "", wanted=wanted, status="pending",
                       now=scheduler.iso(ws.now))
        g.seats = store.seats(name)  # its GM is told at the end of the cycle (gmnotice)
        return ""
    token = new_token()
    store.add_seat(name, address, hash_token(token), wanted=wanted,
                   now=scheduler.iso(ws.now))
    g.seats = store.seats(name)
    return token


def operator_seat_notice(name: str, address: str, role: str | None, token: str) -> Notice:
    """The mail that gives a seat the operator made its token."""
    name = name.lower()
    how = role or "<role>"
    return Notice(
        address.lower(), f"[{name}] you have a seat",
        f"The judge's operator has given you a seat in {name}"
        + (f" as {role}" if role else "") + f".\nYour secret token is: {token}\n"
        f"Keep it private. Sign your mails with SIGNON {name} {how} {token}"
        + ("" if role else ", with the role the start report gives you") + ".\n", name)


def forming_seat(g: Loaded, who: str) -> Seat:
    """The seat of forming game ``g`` whose address, wanted role or role is ``who``."""
    low = who.strip("<>").lower()
    seat = next((s for s in g.seats if s.address == low
                 or (s.wanted or "").lower() == low or (s.role or "").lower() == low), None)
    if seat is None:
        known = ", ".join(f"{s.address}" + (f" ({s.wanted})" if s.wanted else "")
                          for s in g.seats) or "none"
        raise CommandError(f"no seat of {who!r} in {g.name}", f"seats: {known}")
    return seat


def admit(g: Loaded, who: str) -> Change:
    """Admit the pending request of ``who`` to forming game ``g`` (the
    ``joins`` setting ``approval``): it gets a token by mail."""
    _not_cancelled(g)
    if g.status != "forming":
        raise CommandError(f"{g.name} has started: seats change hands by REPLACE")
    seat = forming_seat(g, who)
    if seat.status != "pending":
        raise CommandError(f"{seat.address} already has a seat in {g.name}")
    taken = len([x for x in g.seats if x.status != "pending"])
    if taken >= seat_count(g):
        raise CommandError(f"{g.name} is full: it has {taken} seats",
                           "REMOVE a seat first")
    token = new_token()
    g.set_seat(seat, status="joined", token_hash=hash_token(token))
    how = seat.wanted or "<role>"
    return Change(seat, [Notice(
        seat.address, f"[{g.name}] you have a seat",
        f"The GM of {g.name} has admitted you.\nYour secret token is: {token}\n"
        f"Keep it private. Sign your mails with SIGNON {g.name} {how} {token}"
        + ("" if seat.wanted else ", with the role the start report gives you") + ".\n",
        g.name)], token=token)


def unseat(ws: Workspace, g: Loaded, seat: Seat) -> None:
    """Remove a seat before the game starts; its address is told."""
    ws.judge.store.delete_seat(seat.id)
    g.seats = [x for x in g.seats if x.id != seat.id]
    send(ws.outbox, [Notice(seat.address, f"[{g.name}] no seat for you",
                     f"The GM of {g.name} has removed your seat (or your request "
                     "for one) before the game started.\n", g.name)])


def remove(ws: Workspace, g: Loaded, who: str) -> Seat:
    """Remove the seat of ``who`` from forming game ``g`` (REMOVE, ``game unseat``)."""
    _not_cancelled(g)
    if g.status != "forming":
        raise CommandError(f"{g.name} has started", "EJECT or REPLACE a seat instead")
    seat = forming_seat(g, who)
    unseat(ws, g, seat)
    return seat


# --------------------------------------------------------------------------- start


def start(ws: Workspace, name: str, message_id: str = "") -> list[str]:
    """Set the game up, give every seat a role (chosen, else by lot), open
    the first decision. Returns notices."""
    g = ws.get(name)
    game = g.game
    _not_cancelled(g)
    if g.status != "forming":
        raise CommandError(f"{name} has already started")
    seats = [s for s in g.seats if s.status != "pending"]
    options = json.loads(g.row["options"])
    spec = next((o for o in game.options if o.name == "players"), None)
    if spec is not None and seats and (not spec.choices or len(seats) in spec.choices):
        options["players"] = len(seats)  # the table decides how many play
    seed = g.seed
    step = adj.start(game, options, seed)
    roles = game.roles(step.table.state)
    if len(seats) != len(roles):
        raise CommandError(
            f"{name} needs {len(roles)} players and has {len(seats)}",
            "wait for more JOINs, or create the game with fewer players",
        )
    by_name = {r.lower(): r for r in roles}
    taken: dict[int, str] = {}
    for seat in seats:
        if seat.wanted:
            role = by_name.get(seat.wanted.lower())
            if role is None:
                raise CommandError(
                    f"{seat.address} asked for {seat.wanted!r}, which {game.title} does "
                    f"not have (roles: {', '.join(roles)})"
                )
            taken[seat.id] = role
    free = [r for r in roles if r not in taken.values()]
    lot = adj.assign_seats(step.table, seed, len(free))
    order = lot.entries[0].payload["order"]
    unassigned = [s for s in seats if s.id not in taken]
    for seat, idx in zip(unassigned, order, strict=True):
        taken[seat.id] = free[idx]
    lot.entries[0].payload["roles"] = {str(k): v for k, v in taken.items()}
    for seat in seats:
        g.set_seat(seat, role=taken[seat.id], status="active")
    for seat in [s for s in g.seats if s.status == "pending"]:
        unseat(ws, g, seat)  # requests never admitted lapse
    g.set_row(status="active")
    ws.apply(g, adj.Step(lot.table, step.entries + lot.entries, step.events), message_id)
    ws.settle(g, message_id)
    return [f"{name} has started: " + ", ".join(f"{taken[s.id]} ({s.address})" for s in seats)]


# --------------------------------------------------------------------------- seats after START


def _seat(g: Loaded, role: str) -> Seat:
    seat = g.seat(role)
    if seat is None:
        raise CommandError(f"no seat {role!r} in {g.name}")
    return seat


def replace(ws: Workspace, g: Loaded, role: str, address: str, *,
            before: Callable[[Seat, str], None] | None = None) -> Change:
    """Give the seat of ``role`` to ``address`` with a new token: the old
    player, the new one and every other seat are told. ``before`` is called
    with the seat and the new address once both are known good and before
    the seat changes (a league's bookkeeping:
    :func:`judge.commands.league.before_replace`)."""
    seat = _seat(g, role)
    wanted = address.strip("<>").lower()
    if not ADDRESS.fullmatch(wanted):
        raise CommandError(f"{address!r} is not one mail address",
                           "e.g. REPLACE Italy anna@example.org")
    if before is not None:
        before(seat, wanted)
    token = new_token()
    old = seat.address
    if old != wanted and seat.role and ws.judge.store.league_of(g.name) is None:
        # (a league game's is recorded by league.before_replace): so that a mail
        # signed with the old token is known for what it is (judge.pipeline.authenticate)
        store = ws.judge.store
        store.add_handover(g.name, seat.role, old, store.last_action(g.name) + len(g.entries),
                           "replaced", scheduler.iso(ws.now))
    g.set_seat(seat, address=wanted, token_hash=hash_token(token), status="active")
    done = Change(seat, token=token)
    if old != wanted:
        done.notices.append(Notice(
            old, f"[{g.name}] your seat has a new player",
            f"The GM of {g.name} has given the seat of {seat.role} to another "
            "player; your token no longer works.\n", g.name))
    done.announce = (f"{seat.role} has a new player",
                     f"The GM of {g.name} has given the seat of {seat.role} to a new "
                     "player.\n")
    done.notices.append(Notice(
        wanted, f"[{g.name}] you now play {seat.role}",
        f"The GM of {g.name} has given you the seat of {seat.role}.\n"
        f"Your secret token is: {token}\n"
        f"Sign your mails with: SIGNON {g.name} {seat.role} {token}\n"
        "Send STATUS to see the game.\n", g.name))
    return done


def eject(ws: Workspace, g: Loaded, role: str, *,
          before: Callable[[Seat], None] | None = None) -> Change:
    """Take the seat of ``role`` from its player: it is in civil disorder.
    ``before`` is called with the seat before it changes (a league's
    bookkeeping: :func:`judge.commands.league.seat_left`)."""
    seat = _seat(g, role)
    if before is not None:
        before(seat)
    g.set_seat(seat, status="ejected", token_hash="")
    return Change(
        seat,
        [Notice(seat.address, f"[{g.name}] you have been removed",
                f"The GM of {g.name} has removed you from the seat of {seat.role}; "
                "your token no longer works.\n", g.name)],
        (f"{seat.role} is in civil disorder",
         f"The GM of {g.name} has removed the player of {seat.role}: the "
         "seat is in civil disorder (the game's defaults act for it).\n"))


# --------------------------------------------------------------------------- the end


def _running(g: Loaded) -> adj.Table:
    _not_cancelled(g)
    if g.status == "forming" or g.table is None:
        raise CommandError(f"{g.name} has not started",
                           "a forming game ends by REMOVE of its seats; START it first to "
                           "play it")
    if g.table.outcome is not None:
        raise CommandError(f"{g.name} is over already")
    return g.table


#: The status of a game its GM cancelled before START: kept for the record,
#: never open to join, on no page.
CANCELLED = "cancelled"


def _not_cancelled(g: Loaded) -> None:
    if g.status == CANCELLED:
        raise CommandError(f"{g.name} was cancelled by its GM before it started",
                           "LIST shows the games open to join; or CREATE one")


def _cancel_forming(ws: Workspace, g: Loaded) -> str:
    """CANCEL GAME before START: the game is kept, cancelled, with its seats
    and requests, whose tokens stop working; each address that joined or
    asked to is told once."""
    told = sorted({s.address for s in g.seats})
    for seat in g.seats:
        g.set_seat(seat, token_hash="")
    g.set_row(status=CANCELLED)
    send(ws.outbox, [Notice(
        address, f"[{g.name}] cancelled before it started",
        f"The GM of {g.name} has cancelled the game before it started: it will not be "
        "played, and your seat (or your request for one) and its token no longer count.\n"
        "Send LIST for the games open to join.\n", g.name) for address in told])
    return (f"{g.name} is cancelled before it started; "
            + (f"told: {', '.join(told)}" if told else "nobody had joined"))


def cancel(ws: Workspace, g: Loaded, message_id: str = "") -> str:
    """End game ``g`` with no result; returns what was done, in words. A
    running game ends (a league counts it for nobody); a forming one is
    cancelled before it starts (:func:`_cancel_forming`)."""
    _not_cancelled(g)
    if g.status == "forming":
        return _cancel_forming(ws, g)
    table = _running(g)
    ws.apply(g, adj.declare(g.game, table, [], draw=False, cancelled=True), message_id)
    return f"{g.name} is cancelled: it ends with no result"


def end(ws: Workspace, g: Loaded, result: str, names: list[str],
        message_id: str = "") -> str:
    """End running game ``g`` as its GM declares: ``draw`` shared by the
    seats ``names`` (``["ALL"]``: every seat still in it), ``win`` by the one
    seat named, or ``cancel`` (no result). Returns what was done, in words;
    CommandError (nothing changed) for a result that cannot be."""
    if result == "cancel":
        return cancel(ws, g, message_id)
    table = _running(g)
    roles = {r.lower(): r for r in g.game.roles(table.state)}
    if [n.upper() for n in names] == ["ALL"] and result == "draw":
        gone = g.absent()
        chosen = [r for r in g.game.survivors(table.state) if r not in gone]
    else:
        unknown = [n for n in names if n.lower() not in roles]
        if unknown or not names:
            raise CommandError(f"no seat called {', '.join(unknown) or '(none named)'} in "
                               f"{g.name}", "seats: " + ", ".join(roles.values()))
        chosen = list(dict.fromkeys(roles[n.lower()] for n in names))
    if result == "draw" and len(chosen) < 2:
        raise CommandError("a draw is shared by two seats or more",
                           f"for one seat, END WIN {chosen[0]}" if chosen else
                           "e.g. END DRAW France, England")
    if result == "win" and len(chosen) != 1:
        raise CommandError("one seat wins", "for several, END DRAW " + ", ".join(chosen))
    ws.apply(g, adj.declare(g.game, table, chosen, draw=result == "draw"), message_id)
    if result == "draw":
        return f"{g.name} ends in a draw shared by {', '.join(sorted(chosen))}"
    return f"{g.name} ends: {chosen[0]} wins"
