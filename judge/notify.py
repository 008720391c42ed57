"""Who gets which mail, and what it says.

A seat gets mail only when it is needed (DESIGN.md, "Decisions, windows and
who gets mail"):

* a **request** when it must decide (its turn, orders it has not sent, a
  response window it has not answered by hand or by a standing answer),
  once per decision: it states the decision, its choices, its deadline and
  everything the seat may see that happened since its last mail;
* a **digest** at the end of each game turn (or round: ``Game.turn``), of
  what it may see that happened since its last mail (a request sent at the
  same moment carries it: one mail, not two);
* the acknowledgement of its own mail (see :mod:`judge.pipeline`; with
  ``SET ACK errors`` one that refused nothing waits here, folded into the
  seat's next mail);
* the final report.

``SET MAIL each`` adds a report after every move the seat may see (the old
way); ``SET MAIL digest`` drops the requests for response windows (the
seat's standing answers and the defaults answer them).

Everything in a mail comes from the seat's own view and the events addressed
to it, and whether a mail goes depends only on what the seat may see, so
nothing here can tell one seat another's hand or how fast another answered.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from judge import pictures, reports
from judge.game import adjudicator as adj
from judge.game import draw, scheduler
from judge.game.engine import Decision, DecisionKind, Event
from judge.game.spec import Game
from judge.hub import Hub
from judge.loaded import Loaded
from judge.mail.mailout import Attachment
from judge.outbox import Drawn, Part
from judge.store import Seat


class Workspace(Protocol):
    """What notify reads of the session writing a game
    (:class:`judge.session.Workspace`, which imports this module)."""

    @property
    def judge(self) -> Hub: ...


FINISHED = "finished"


@dataclass(frozen=True)
class Mail:
    """One mail decided on here, for the caller to queue (the session does,
    when it writes the game: :meth:`judge.session.Workspace.flush`)."""

    to_addr: str
    subject: str
    body: str
    kind: str
    game: str
    attachments: tuple[Part, ...] = ()
    decision: str = ""
    #: A report's data (:func:`report_of`; its view is the first attachment):
    #: the text (``body`` is empty) is rendered from it after the commit.
    report: dict[str, Any] | None = None


def must_decide(g: Loaded, seat: Seat) -> Decision | None:
    """The open decision ``seat`` has to decide itself now, if any."""
    table = g.table
    if table is None or table.outcome is not None or g.status != "active" or seat.role is None:
        return None
    role = seat.role
    decision = adj.decision_for(g.game, table, role)
    if decision is None:
        return None
    if decision.kind is DecisionKind.ORDERS:
        return None if role in table.submitted else decision
    if decision.kind is DecisionKind.ACTION:
        return decision
    if seat.mail_mode == "digest":
        return None  # response windows are left to standing answers
    if role not in adj.answering_roles(g.game, table):
        return None
    if table.answer_of(decision.id, role) is not None:
        return None
    return decision


def after(ws: Workspace, g: Loaded, last_n: int,
          written: Sequence[tuple[int, Sequence[Event]]] = ()) -> list[Mail]:
    """What each seat of ``g`` must be sent now that its changes are written
    (``written``: the entries this write appended, by number, with their
    events: taken as they are, not read back)."""
    if g.table is None:
        return []
    table = g.table
    game = g.game
    finished = table.outcome is not None
    turn = FINISHED if finished else game.turn(table.state)
    newest = last_n or ws.judge.store.last_action(g.name)
    due: list[tuple[Seat, Decision | None, str]] = []
    for seat in g.active_seats():
        decision = must_decide(g, seat)
        why = report_due(g, seat, decision, turn)
        if not why and seat.mail_mode == "each" and newest > seat.seen_n:
            why = "each"
        if why:
            due.append((seat, decision, why))
    if not due:
        return []
    since = min(s.seen_n for s, _, _ in due)
    # Each entry read once for all the seats (events are immutable); only
    # those written before this write are read from the log.
    first_new = written[0][0] if written else newest + 1
    older = (ws.judge.store.actions_after(g.name, since, before=first_new)
             if since < first_new - 1 else [])
    logged = [(int(r["n"]), [Event.from_json(e) for e in json.loads(r["payload"]).get(
        "events", [])]) for r in older] + [(n, list(evs)) for n, evs in written]
    mails: list[Mail] = []
    for seat, decision, why in due:
        role = seat.role
        assert role is not None
        events = [e for n, evs in logged if n > seat.seen_n for e in evs
                  if e.visible_to(role)]
        if why == "each" and not events:
            g.set_seat(seat, seen_n=newest)
            continue
        mails.append(report_mail(ws, g, seat, events, decision, why))
        g.set_seat(seat, seen_n=newest, turn_seen=turn,
                   asked=decision.id if decision is not None else seat.asked)
    return mails


def report_due(g: Loaded, seat: Seat, decision: Decision | None, turn: str | None = None) -> str:
    """Why ``seat`` gets a report when ``g`` is next written ("" if it does
    not, SET MAIL each aside): the game's turn is new to it (``start``,
    ``digest``, ``final``) or it must decide something it was not asked."""
    table = g.table
    if table is None:
        return ""
    finished = table.outcome is not None
    if turn is None:
        turn = FINISHED if finished else g.game.turn(table.state)
    if seat.turn_seen != turn:
        return "final" if finished else ("start" if not seat.turn_seen else "digest")
    if decision is not None and decision.id != seat.asked:
        return "request"
    return ""


def missed_deadline(ws: Workspace, g: Loaded, phase: str, owed: set[str]) -> list[Mail]:
    """Tell the GM who let the deadline of ``phase`` pass without a word (the
    game's defaults acted for them), and which of them have now missed
    ``abandon_after`` deadlines in a row: an abandoned seat, to replace."""
    if not owed or g.table is None:
        return []
    limit = int(float(g.settings(ws.judge.config.settings).get("abandon_after", 3)))
    lines = [f"The deadline of {phase} in {g.name} passed without a word from: "
             + ", ".join(sorted(owed)) + ". The game's defaults acted for them."]
    gone = sorted(r for r in owed if g.table.missed.get(r, 0) >= limit > 0)
    for role in gone:
        seat = g.seat(role)
        lines.append(f"{role} ({seat.address if seat else '?'}) has now missed "
                     f"{g.table.missed[role]} deadlines in a row: the seat looks abandoned. "
                     f"REPLACE {role} <address> gives it to a new player.")
    what = "abandoned seat" if gone else "missed orders"
    return [Mail(g.row["gm_address"], f"[{g.name}] {what}: {phase}", "\n\n".join(lines) + "\n",
                 "notice", g.name)]


def observers_after(ws: Workspace, g: Loaded) -> list[Mail]:
    """Each observer gets the public report of every new turn (and the final
    one): the observer's view, the public events, nothing else."""
    if g.table is None or not (g.new_turn or g.ended_now):
        return []
    watchers = ws.judge.store.observers(g.name)
    if not watchers:
        return []
    data, attachment, phase = public_report(ws, g)
    kind = "final report" if g.ended_now else "report"
    parts: tuple[Part, ...] = (
        Attachment(f"{g.name}-public.json", "application/json", attachment),
        *picture_attachments(ws, g, attachment))
    return [Mail(address, f"[{g.name}] {kind} for observers: {phase}", "", "report", g.name,
                 parts, report=data) for address in watchers]


def gm_after(ws: Workspace, g: Loaded) -> list[Mail]:
    """The GM's mail: the final report when the game ends, and with
    ``gm_copies yes`` the public report of each new turn."""
    if g.table is None:
        return []
    copies = g.settings(ws.judge.config.settings).get("gm_copies") == "yes"
    if not (g.ended_now or (copies and g.new_turn)):
        return []
    data, attachment, phase = public_report(ws, g)
    kind = "final report" if g.ended_now else "report"
    return [Mail(g.row["gm_address"], f"[{g.name}] {kind} for the GM: {phase}", "", "report",
                 g.name, (Attachment(f"{g.name}-public.json", "application/json", attachment),
                          *picture_attachments(ws, g, attachment)), report=data)]


def public_report(ws: Workspace, g: Loaded) -> tuple[dict[str, Any], bytes, str]:
    """The public report of what ``g``'s new entries did (its data,
    attachment and phase: :func:`report_of`): built once per write of the
    game, for the GM and every observer."""
    if g.public is None:
        events = [e for _entry, evs in g.entries for e in evs if e.visible_to(None)]
        g.public = report_of(ws, g, None, events)
    return g.public


def report_mail(ws: Workspace, g: Loaded, seat: Seat, events: Sequence[Event],
                decision: Decision | None, why: str) -> Mail:
    """The report ``seat`` gets now (``why``: see :func:`report_due`)."""
    role = seat.role
    assert role is not None
    data, attachment, phase = report_of(ws, g, role, events, first=why == "start",
                                        tz=seat.tz, decision=decision)
    if seat.held_ack:  # the acknowledgement it held, above the report
        data["before"] = seat.held_ack
        g.set_seat(seat, held_ack="")
    if why == "request":
        subject = f"[{g.name}] your decision ({role}): {phase}"
    else:
        kind = "final report" if why == "final" else "report"
        asks = " - your decision" if decision is not None and why != "final" else ""
        subject = f"[{g.name}] {kind} for {role}: {phase}{asks}"
    return Mail(seat.address, subject, "", "report", g.name,
                (Attachment(f"{g.name}-{role}.json".replace(" ", "_"), "application/json",
                            attachment), *picture_attachments(ws, g, attachment)),
                decision.id if decision is not None else "", report=data)


def unasked_window(g: Loaded, role: str | None) -> bool:
    """A response window is open that does not ask ``role`` by hand (the
    observers included): its phase and deadline are not shown to it."""
    table = g.table
    if table is None or table.outcome is not None:
        return False
    if adj.open_window(g.game, table) is None:
        return False
    return role is None or role not in adj.answering_roles(g.game, table)


def report_of(ws: Workspace, g: Loaded, role: str | None, events: Sequence[Event] = (),
              first: bool = False, tz: str = "UTC",
              decision: Decision | None = None) -> tuple[dict[str, Any], bytes, str]:
    """The data of the report of ``role`` (None: observers), its JSON
    attachment (the view) and its phase: what a transaction queues. The text
    is rendered from the data and the view alone (:func:`judge.reports.turn_report`),
    when the mail is composed after the commit; nothing here renders."""
    table = g.need_table()
    game = g.game
    view = game.view(table.state, role)
    unasked = unasked_window(g, role)
    if unasked:  # a window that does not ask this seat is named to it nowhere (timing.py)
        view = {**view, "phase": game.turn(table.state)}
    owe: dict[str, Any] | None = None
    if role is not None and decision is not None:
        owe = {"kind": decision.kind.value, "phase": decision.phase,
               "window": decision.window or "", "prompt": decision.prompt,
               "default": decision.default or "",
               "legal": ([] if decision.kind is DecisionKind.ORDERS
                         else list(game.legal(table.state, role)))}
    clock = g.clock
    # The deadline of a decision the reader has no part in (another seat's
    # turn) is named as that seat's, not the reader's.
    deadline_of: list[str] = []
    if role is not None and decision is None and not unasked:
        open_now = adj.open_decisions(game, table)
        if open_now and not any(role in d.roles for d in open_now):
            deadline_of = sorted({r for d in open_now for r in d.roles})
    data: dict[str, Any] = {
        "game": game.id,
        "name": g.name,
        "role": role,
        "first": first,
        "events": [e.to_json() for e in events],
        "outcome": table.outcome,
        "seed_hash": g.row["seed_hash"] if game.draws else "",
        "seed": g.row["seed"] if table.outcome is not None and game.draws else "",
        "deadline": (scheduler.iso(clock.deadline)
                     if clock is not None and table.outcome is None and not unasked else ""),
        "tz": tz,
        "deadline_of": deadline_of,
        "owe": owe,
        "intro": intro_text(game, table, role) if first and role is not None else "",
        "orders_in": orders_in_data(ws, g),
        "before": "",
    }
    return data, reports.view_attachment(game, view), str(view.get("phase", ""))


def intro_text(game: Game, table: adj.Table, role: str) -> str:
    """A seat's first report's own part: the game's introduction (its cards'
    texts), then the standing answers the judge gives for it without asking,
    and how to change them."""
    parts = [game.introduction(table.state, role), adj.standing_text(game, table, role)]
    return "\n\n".join(p.rstrip("\n") for p in parts if p)


def report_text(ws: Workspace, g: Loaded, role: str | None, events: Sequence[Event] = (),
                first: bool = False, tz: str = "UTC",
                decision: Decision | None = None) -> tuple[str, bytes, str]:
    """The report of ``role`` (None: observers) as text now (STATUS, the
    CLI), its JSON attachment, and its phase."""
    data, attachment, phase = report_of(ws, g, role, events, first, tz, decision)
    return reports.turn_report(data, json.loads(attachment)), attachment, phase


def picture_attachments(ws: Workspace, g: Loaded, view_json: bytes) -> list[Drawn]:
    """The picture of a report's view (``view_json``: its JSON attachment,
    the view itself), per the setting ``picture`` (png, svg or none), for
    games that draw one: drawn when the mail is composed, after the commit
    (:mod:`judge.outbox`). Readers whose views draw alike share one
    rendering (:func:`judge.pictures.render` keeps the last few)."""
    fmt = str(g.settings(ws.judge.config.settings).get("picture", "png"))
    if fmt not in pictures.FORMATS or not draw.supported(g.game.id):
        return []
    view = json.loads(view_json)
    phase = file_part(str(view.get("phase", ""))) or "map"
    kind = "image/png" if fmt == "png" else "image/svg+xml"
    return [Drawn(f"{file_part(g.name)}-{phase}.{fmt}", kind, g.game.id, fmt, view_json)]


def file_part(text: str) -> str:
    """``text`` as part of an attachment's file name: letters, digits, dots
    and hyphens, every other run of characters one ``_`` (a phase such as
    "set-up: Base and starting forces" or "round 2, B's turn #14" names no
    file a mail client or a disk would refuse)."""
    return re.sub(r"[^A-Za-z0-9.-]+", "_", text).strip("_")


def orders_in_data(ws: Workspace, g: Loaded) -> dict[str, list[str]] | None:
    """Who has sent orders for the open order set and who has not, when the
    game shows it to all (setting ``orders_in all``; with ``gm``, only the
    GM's STATUS does)."""
    table = g.table
    if table is None or g.settings(ws.judge.config.settings).get("orders_in") != "all":
        return None
    ordering = adj.ordering_roles(g.game, table) - g.absent()
    if not ordering:
        return None
    return {"sent": sorted(ordering & set(table.submitted)),
            "due": sorted(ordering - set(table.submitted))}


def fold_ack(g: Loaded, seat: Seat, text: str) -> None:
    """Keep an acknowledgement that refused nothing for the seat's next mail."""
    joined = (seat.held_ack.rstrip("\n") + "\n\n" + text) if seat.held_ack else text
    g.set_seat(seat, held_ack=joined)

