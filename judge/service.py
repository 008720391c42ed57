"""The judge at work: mail in, commands applied, reports out.

:class:`Judge` ties the pure core (grammar, adjudicator, scheduler, games) to
the edges (store, transports). Each incoming mail is handled in ONE database
transaction: the inbox row, every accepted command, the action-log entries and
every reply and report queued in the outbox commit together; the transport
moves the message to Processed or Failed only afterwards. A crash at any point
loses no order and applies none twice: before the commit nothing happened,
after it the inbox row makes a re-delivered copy a duplicate.

Privacy: replies and reports go only to registered addresses (a seat's or the
GM's), never to the From of the incoming mail and never with Cc; the one
exception is a mail from an address no game knows (HELP, JOIN, CREATE, LIST),
answered at most once an hour per address and carrying no game information.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any

from judge import adjudicator as adj
from judge import bounces, grammar, mailconfig, registry, reports, scheduler
from judge import config as cfg
from judge.engine import (
    Action,
    Event,
    Game,
    InvalidLine,
    RuleError,
    option_values,
)
from judge.mailin import InboundTransport, IncomingMail, Limits, parse_mail
from judge.mailout import (
    Attachment,
    BackgroundOutbound,
    OutboundTransport,
    OutgoingMail,
    PermanentFailure,
    ServerUnavailable,
    TemporaryFailure,
    compose,
    make_message_id,
)
from judge.rng import Draw, VerifyError, commitment, new_seed, recompute
from judge.store import Seat, Store, check_token, hash_token, new_token

log = logging.getLogger("judge")

RELAY_WINDOW = 8
"""How many outbox mails may be on their way at once (see :meth:`Judge.relay`)."""

GM = "GM"

#: How close together two identical bodies from one address count as one mail.
DUPLICATE_WINDOW = timedelta(minutes=10)


#: MIME types of signature parts: a signed mail is not a mail with attachments.
SIGNATURE_TYPES = (
    "application/pgp-signature",
    "application/pkcs7-signature",
    "application/x-pkcs7-signature",
)


def real_attachments(mail: IncomingMail) -> list[str]:
    """The mail's attachments other than signature parts."""
    return [a for a in mail.attachments if not any(f"({t}," in a for t in SIGNATURE_TYPES)]


def utcnow() -> datetime:
    return datetime.now(UTC)


class CommandError(Exception):
    """A common command that cannot be carried out; changes nothing."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class Crash(Exception):
    """Raised by fault injection in tests to simulate a crash at a named step."""


@dataclass
class Row:
    number: int
    text: str
    result: str


@dataclass
class ErrorRow:
    number: int
    text: str
    message: str
    hint: str = ""


@dataclass
class Signon:
    game: str
    role: str  # a game role, or "GM"
    address: str
    seat: Seat | None


@dataclass
class MailSession:
    """What one mail did: echoed rows, errors, extra sections for the ack."""

    mail: IncomingMail
    now: datetime
    rows: list[Row] = field(default_factory=list)
    errors: list[ErrorRow] = field(default_factory=list)
    sections: list[str] = field(default_factory=list)
    signon: Signon | None = None
    reply_to: str | None = None
    touched: set[str] = field(default_factory=set)
    first_signon: Signon | None = None

    def ok(self, line: grammar.Line, result: str, text: str | None = None) -> None:
        self.rows.append(Row(line.number, text if text is not None else line.text, result))

    def error(
        self, line: grammar.Line, message: str, hint: str = "", text: str | None = None
    ) -> None:
        shown = text if text is not None else line.text
        self.rows.append(Row(line.number, shown, "not accepted (see below)"))
        self.errors.append(ErrorRow(line.number, shown, message, hint))


def _mask_signon(text: str) -> str:
    words = text.split()
    if len(words) >= 4 and words[0].upper() == "SIGNON":
        words[3] = "*" * 8
    return " ".join(words)


class Judge:
    """One judge: its config, database and transports."""

    def __init__(
        self,
        config: cfg.Config,
        store: Store,
        inbound: InboundTransport,
        outbound: OutboundTransport,
        now: Callable[[], datetime] = utcnow,
    ) -> None:
        self.config = config
        self.store = store
        self.inbound = inbound
        self.outbound = outbound
        self.now = now
        self.fault: Callable[[str], None] | None = None
        #: Where new games get their seed (tests may fix it to replay a game).
        self.seed_source: Callable[[], bytes] = new_seed
        #: Outbox mails being sent in the background, by id (see :meth:`relay`).
        self._in_flight: dict[int, tuple[dict[str, Any], Future[None]]] = {}
        self._relay_down = False
        self._cycling = False
        self._fresh_mail = True

    @property
    def outbound(self) -> OutboundTransport:
        """Where the relay sends mail."""
        return self._outbound

    @outbound.setter
    def outbound(self, transport: OutboundTransport) -> None:
        self._outbound = transport
        # Checked once here: a runtime protocol check costs too much per mail.
        self._background: BackgroundOutbound | None = (
            transport if isinstance(transport, BackgroundOutbound) else None
        )

    @classmethod
    def open(cls, home: Path, now: Callable[[], datetime] = utcnow) -> Judge:
        config = cfg.load(home)
        store = Store.open(config.db_path)
        try:  # the transports the config names: Maildir, stdout, IMAP, SMTP
            inbound = mailconfig.open_inbound(config, store)
            outbound = mailconfig.open_outbound(config)
        except BaseException:
            store.close()
            raise
        return cls(config, store, inbound, outbound, now)

    def close(self) -> None:
        if self._in_flight:  # record what is on its way; the rest goes next time
            try:
                self._collect([], wait=True)
            except Exception:
                log.exception("could not record the mails being sent")
        for transport in (self.inbound, self.outbound):
            closer = getattr(transport, "close", None)
            if closer is not None:
                closer()
        self.store.close()

    def _fault(self, point: str) -> None:
        if self.fault is not None:
            self.fault(point)

    # ================================================================== games

    def game_of(self, name: str) -> tuple[dict[str, Any], Game]:
        row = self.store.game(name)
        if row is None:
            raise CommandError(f"there is no game called {name!r}", "send LIST to see the games")
        return row, registry.get(row["game"])

    def table(self, name: str) -> adj.Table:
        row = self.store.game(name)
        if row is None or not row["table_json"]:
            raise CommandError(f"game {name!r} has not started")
        return adj.Table.loads(row["table_json"])

    def settings(self, row: dict[str, Any]) -> dict[str, Any]:
        merged = dict(self.config.settings)
        merged.update(json.loads(row["settings"] or "{}"))
        return merged

    def create_game(self, name: str, kind: str, options: dict[str, str], gm_address: str) -> str:
        """Create a forming game; returns the GM's token (shown once)."""
        if not name or not name.replace("-", "").replace("_", "").isalnum() or len(name) > 40:
            raise CommandError(
                f"{name!r} is not a usable game name",
                "use letters, digits, - and _, at most 40 characters",
            )
        if name.upper() == GM or self.store.game(name) is not None:
            raise CommandError(f"a game called {name!r} already exists", "choose another name")
        try:
            game = registry.get(kind)
        except registry.UnknownGame as exc:
            raise CommandError(str(exc)) from exc
        try:
            values = option_values(game, options)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        seed = self.seed_source()
        token = new_token()
        now = scheduler.iso(self.now())
        self.store.insert_game(
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

    def join(self, name: str, address: str, wanted: str | None) -> str:
        """Add a seat to a forming game; returns its token."""
        row, _ = self.game_of(name)
        if row["status"] != "forming":
            raise CommandError(f"{name} has already started", "ask its GM for a REPLACE")
        seats = self.store.seats(name)
        if any(s.address == address.lower() for s in seats):
            raise CommandError(f"{address} already has a seat in {name}")
        if wanted and any((s.wanted or "").lower() == wanted.lower() for s in seats):
            raise CommandError(
                f"{wanted} is already taken in {name}", "JOIN without a role to get one by lot"
            )
        token = new_token()
        self.store.add_seat(
            name, address, hash_token(token), wanted=wanted, now=scheduler.iso(self.now())
        )
        return token

    def start(self, name: str, message_id: str = "") -> list[str]:
        """Set the game up, give every seat a role (chosen, else by lot), open
        the first phase. Returns notices."""
        row, game = self.game_of(name)
        if row["status"] != "forming":
            raise CommandError(f"{name} has already started")
        seats = self.store.seats(name)
        options = json.loads(row["options"])
        spec = next((o for o in game.options if o.name == "players"), None)
        if spec is not None and seats and (not spec.choices or len(seats) in spec.choices):
            options["players"] = len(seats)  # the table decides how many play
        seed = bytes.fromhex(row["seed"])
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
        step = adj.Step(lot.table, step.entries + lot.entries, step.events)
        for seat in seats:
            self.store.update_seat(seat.id, role=taken[seat.id], status="active")
        self.store.update_game(name, status="active")
        self._commit(name, step, message_id)
        return [f"{name} has started: " + ", ".join(f"{taken[s.id]} ({s.address})" for s in seats)]

    def absent(self, name: str) -> set[str]:
        return {
            s.role for s in self.store.seats(name) if s.role and s.status in ("resigned", "ejected")
        }

    def survivors(self, game: Game, table: adj.Table) -> list[str]:
        hook = getattr(game, "survivors", None)
        if hook is not None:
            return list(hook(table.state))
        return game.roles(table.state)

    # ------------------------------------------------------------------ steps

    def _commit(self, name: str, step: adj.Step, message_id: str) -> None:
        """Write a step, then every queued action and policy answer it made due."""
        self._write(name, step, message_id)
        if not any(e.kind in adj.MOVES or e.kind in ("queue", "policy") for e in step.entries):
            return
        row, game = self.game_of(name)
        table = adj.Table.loads(row["table_json"])
        if table.outcome is not None or row["status"] != "active":
            return
        for extra in adj.drain(game, table, bytes.fromhex(row["seed"])):
            self._write(name, extra, message_id)
            for entry in extra.entries:
                if entry.kind == "drop":
                    seat = self.store.seat(name, entry.role or "")
                    if seat is not None and seat.status == "active":
                        self._queue(
                            seat.address,
                            f"[{name}] queued action dropped",
                            "\n".join(e.text for e in extra.events) + "\n",
                            "notice",
                            game=name,
                        )

    def _write(self, name: str, step: adj.Step, message_id: str) -> None:
        """Write a step: log entries, the table, reports, the next clock."""
        now = self.now()
        row, game = self.game_of(name)
        before = adj.Table.loads(row["table_json"]) if row["table_json"] else None
        old_phase = adj.phase_key(game, before) if before else "forming"
        last_n = 0
        for entry in step.entries:
            payload = dict(entry.payload)
            if entry.kind in adj.MOVES:
                payload["events"] = [e.to_json() for e in step.events]
            last_n = self.store.append_action(
                name,
                entry.kind,
                entry.role,
                payload,
                [d.to_json() for d in entry.draws],
                message_id,
                scheduler.iso(now),
            )
        self._fault("logged")
        table = step.table
        new_phase = adj.phase_key(game, table)
        fields: dict[str, Any] = {
            "table_json": table.dumps(),
            "phase": new_phase,
            "updated": scheduler.iso(now),
        }
        if table.outcome is not None:
            fields["status"] = "finished"
        self.store.update_game(name, **fields)
        if step.resolved:
            self.store.save_snapshot(name, last_n, table.dumps(), scheduler.iso(now))
            self._queue_reports(name, game, table, step.events, first=before is None)
        if table.outcome is not None:
            self.store.clear_deadline(name)
        elif new_phase != old_phase:
            row = self.store.game(name) or row
            if row["status"] == "active":
                self._open_clock(name, row, game, table)

    def _open_clock(
        self, name: str, row: dict[str, Any], game: Game, table: adj.Table
    ) -> scheduler.Clock:
        """A fresh clock for the decision open now (simultaneous orders get
        ``orders_hours``, single actions and windows ``action_hours``)."""
        clock = scheduler.plan(
            self.now(),
            adj.phase_key(game, table),
            self.settings(row),
            bool(adj.ordering_roles(game, table)),
        )
        self.store.set_deadline(clock.to_row(name))
        return clock

    def _process_ready(self, name: str, message_id: str) -> list[str]:
        """Early processing: resolve while every seat is in and none WAITs, and
        end the game when every survivor votes DRAW. Returns what it did."""
        done: list[str] = []
        for _ in range(100):
            row, game = self.game_of(name)
            if row["status"] != "active":
                break
            table = adj.Table.loads(row["table_json"])
            absent = self.absent(name)
            alive = sorted(set(self.survivors(game, table)) - absent)
            if adj.draw_agreed(game, table, alive):
                self._commit(name, adj.agree_draw(game, table, alive), message_id)
                done.append(f"{name}: every survivor voted for a draw; the game is over.")
                break
            if not adj.ready(game, table, absent):
                break
            phase = adj.phase_key(game, table)
            self._commit(
                name,
                adj.resolve(game, table, bytes.fromhex(row["seed"]), "all orders in"),
                message_id,
            )
            done.append(
                f"{name}: all orders for {phase} were in, so it was processed now; "
                "the reports are on their way."
            )
        return done

    # ------------------------------------------------------------------ mails out

    def _queue(
        self,
        to_addr: str,
        subject: str,
        body: str,
        kind: str,
        game: str = "",
        in_reply_to: str = "",
        references: Sequence[str] = (),
        attachments: Sequence[Attachment] = (),
    ) -> str:
        """Queue one mail; returns its Message-ID, or ``""`` when it is a
        reply over ``limits.replies_per_hour`` for that address (not queued)."""
        now = self.now()
        if (
            in_reply_to
            and self.store.replies_since(to_addr, scheduler.iso(now - timedelta(hours=1)))
            >= self.config.replies_per_hour
        ):
            log.warning("not answering %s: %d replies in the last hour (limits.replies_per_hour)",
                        to_addr, self.config.replies_per_hour)  # fmt: skip
            return ""
        message_id = make_message_id(self.config.domain)
        mail = OutgoingMail(
            message_id=message_id,
            from_addr=self.config.address,
            to_addr=to_addr,
            subject=subject,
            body=body,
            auto_submitted="auto-replied" if in_reply_to else "auto-generated",
            in_reply_to=in_reply_to,
            references=tuple(references),
            attachments=tuple(attachments),
            date=format_datetime(now),
        )
        self._fresh_mail = True  # the relay has something new to start
        self.store.queue_mail(
            {
                "message_id": message_id,
                "to_addr": to_addr,
                "envelope_from": mailconfig.envelope_sender(self.config, message_id),
                "subject": subject,
                "in_reply_to": in_reply_to,
                "raw": compose(mail),
                "kind": kind,
                "game": game,
                "next_attempt": scheduler.iso(now),
                "created": scheduler.iso(now),
            }
        )
        return message_id

    def report_text(
        self, name: str, role: str | None, events: Sequence[Event] = (), first: bool = False
    ) -> tuple[str, bytes]:
        """The turn report of ``role`` (None: observers) and its JSON attachment."""
        row, game = self.game_of(name)
        table = self.table(name)
        view = game.view(table.state, role)
        body = reports.game_report(game, view, events, role, name)
        deadline = ""
        clock_row = self.store.deadline(name)
        seat = self.store.seat(name, role) if role else None
        if clock_row and table.outcome is None:
            deadline = scheduler.local(clock_row["deadline"], seat.tz if seat else "UTC")
        owe = ""
        if role is not None and table.outcome is None:
            if role in adj.ordering_roles(game, table):
                owe = "orders for " + adj.phase_key(game, table)
                if role in table.submitted:
                    owe = ""
            elif role in adj.acting_roles(game, table):
                owe = "an action: " + "; ".join(
                    d.prompt or d.phase for d in adj.decisions(game, table) if role in d.roles
                )
        outcome = ""
        if table.outcome is not None:
            o = table.outcome
            outcome = (
                ("a draw shared by " if o.get("draw") else "won by ")
                + (", ".join(o.get("winners") or []) or "nobody")
                + (f" ({o['reason']})" if o.get("reason") else "")
            )
        text = reports.render(
            "common/report.txt.j2",
            game_name=name,
            title=game.title,
            role=role,
            phase=view.get("phase", ""),
            seed_hash=row["seed_hash"],
            first=first,
            body=body.rstrip("\n"),
            outcome=outcome,
            seed=row["seed"] if table.outcome is not None else "",
            deadline=deadline,
            owe=owe,
        )
        return text, reports.view_attachment(game, view)

    def _queue_reports(
        self, name: str, game: Game, table: adj.Table, events: Sequence[Event], first: bool
    ) -> None:
        for seat in self.store.seats(name):
            if seat.role is None or seat.status == "ejected":
                continue
            text, attachment = self.report_text(name, seat.role, events, first)
            phase = game.view(table.state, seat.role).get("phase", "")
            self._queue(
                seat.address,
                f"[{name}] {phase} report for {seat.role}",
                text,
                "report",
                game=name,
                attachments=[
                    Attachment(
                        f"{name}-{seat.role}.json".replace(" ", "_"), "application/json", attachment
                    )
                ],
            )

    # ================================================================== mail in

    def handle(self, key: str, raw: bytes) -> str:
        """Handle one message in one transaction; returns the log line."""
        mail = parse_mail(raw, Limits(self.config.max_bytes, self.config.max_lines))
        self._fault("parsed")
        with self.store.atomic():
            outcome = self._handle(mail, key, raw)
            self._fault("applied")
        self._fault("committed")
        line = f"{mail.message_id} from {mail.from_addr or '?'}: {outcome}"
        log.info(line)
        return line

    def _record(
        self, mail: IncomingMail, key: str, status: str, reason: str = "", game: str = ""
    ) -> None:
        self.store.record_inbox(
            {
                "message_id": mail.message_id,
                "body_hash": mail.body_hash,
                "from_addr": mail.from_addr,
                "subject": mail.subject[:200],
                "received": scheduler.iso(self.now()),
                "status": status,
                "reason": reason,
                "game": game,
                "transport_key": key,
            }
        )

    def _stranger_may_get_reply(self, address: str) -> bool:
        if not address:
            return False
        if self.store.is_registered(address):
            return True
        now = self.now()
        return self.store.allow(
            address, "stranger", scheduler.iso(now), scheduler.iso(now - timedelta(hours=1))
        )

    def _handle(self, mail: IncomingMail, key: str, raw: bytes = b"") -> str:
        now = self.now()
        if self.store.seen_message(mail.message_id):
            self._record(mail, key, "duplicate", "Message-ID seen before")
            return "duplicate (Message-ID seen before)"
        if mail.drop:
            reason = mail.drop
            if mail.drop == "delivery report" and raw:
                # RFC 3464: a report about our own mail marks the seat bouncing.
                note = bounces.read_report(self, raw)
                reason += f": {note}" if note else ""
            self._record(mail, key, "dropped", reason[:500])
            return f"dropped: {reason}"
        # A second copy of one mail under a new Message-ID (a relay that rewrote
        # it, a client that sent twice): the same body from the same address
        # within DUPLICATE_WINDOW is taken as that copy and not answered.
        since = scheduler.iso(now - DUPLICATE_WINDOW)
        has_body = any(line.strip() for line in mail.lines)
        if (
            has_body
            and mail.from_addr
            and self.store.seen_body(mail.from_addr, mail.body_hash, since)
        ):
            self._record(mail, key, "duplicate", "same body from the same sender just before")
            return "duplicate (same body from the same sender within 10 minutes)"
        refusal = mail.refuse
        attached = real_attachments(mail)
        if refusal is None and attached and self.config.attachments == "refuse":
            refusal = "attachments are not accepted (" + "; ".join(attached) + ")"
        parsed = grammar.parse_body(list(mail.lines))
        commands = grammar.parse_subject(mail.subject) + parsed.commands
        if refusal is None and not commands and not parsed.errors:
            refusal = "it holds no commands (its body is empty)"
        if refusal is None and len(commands) > self.config.max_commands:
            refusal = f"too many commands: {len(commands)} (at most {self.config.max_commands})"
        if refusal:
            if self._stranger_may_get_reply(mail.from_addr):
                self._queue(
                    mail.from_addr,
                    f"Re: {mail.subject}".strip(),
                    reports.render(
                        "common/notice.txt.j2",
                        text=(
                            "Your mail was not read: " + refusal + ".\n"
                            "Nothing in it was carried out. Send your commands as plain "
                            "text in the body of a mail."
                        ),
                    ),
                    "notice",
                    in_reply_to=mail.message_id,
                )
            self._record(mail, key, "refused", refusal[:500])
            return f"refused: {refusal}"

        failure = self._authenticate_all(mail, commands)
        if failure is not None:
            self._record(mail, key, "auth-failure", failure)
            return f"auth-failure: {failure}"

        session = MailSession(mail, now)
        for err in parsed.errors:
            session.errors.append(ErrorRow(err.line.number, err.line.text, err.message, err.hint))
        for command in commands:
            try:
                with self.store.atomic():
                    self._run(session, command)
            except CommandError as exc:
                session.error(command.line, exc.message, exc.hint)
            except RuleError as exc:
                session.error(command.line, f"{exc.grade.value}: {exc.message}", exc.hint)
        for name in sorted(session.touched):
            session.sections.extend(self._process_ready(name, mail.message_id))
        if attached:
            session.sections.append(
                "Not read (orders go in the body of the mail): " + "; ".join(attached)
            )
        if parsed.ended_at is not None:
            session.sections.append(f"(END at line {parsed.ended_at}: the rest was not read)")
        session.rows.sort(key=lambda r: r.number)
        session.errors.sort(key=lambda e: e.number)
        to = session.reply_to
        if to is None and self._stranger_may_get_reply(mail.from_addr):
            to = mail.from_addr
        if to:
            body = reports.render(
                "common/ack.txt.j2",
                intro="",
                subject=mail.subject,
                rows=session.rows,
                errors=session.errors,
                sections=session.sections,
            )
            refs = (*mail.references, mail.message_id)
            self._queue(
                to,
                f"Re: {mail.subject}" if mail.subject else "Your orders",
                body,
                "ack",
                game=session.first_signon.game if session.first_signon else "",
                in_reply_to=mail.message_id,
                references=refs,
            )
        games = ",".join(sorted(session.touched))
        self._record(
            mail,
            key,
            "processed",
            f"{len(session.rows)} lines, {len(session.errors)} errors",
            games,
        )
        return f"processed: {len(session.rows)} lines, {len(session.errors)} errors" + (
            f" ({games})" if games else ""
        )

    # ------------------------------------------------------------------ auth

    def _authenticate_all(
        self, mail: IncomingMail, commands: Iterable[grammar.Command]
    ) -> str | None:
        """Check every SIGNON before anything runs. One failure rejects the mail
        whole: a wrong token changes nothing and reveals nothing. The notice goes
        to the seat's registered address, at most once an hour."""
        for command in commands:
            if command.name != "SIGNON":
                continue
            name, role, token = command.args["game"], command.args["role"], command.args["token"]
            row = self.store.game(name)
            registered: str | None = None
            ok = False
            if row is not None:
                if role.upper() == GM:
                    registered = row["gm_address"]
                    ok = check_token(token, row["gm_token_hash"])
                else:
                    seat = self.store.seat(name, role)
                    if seat is None:
                        seat = next(
                            (
                                s
                                for s in self.store.seats(name)
                                if s.role is None and s.wanted and s.wanted.lower() == role.lower()
                            ),
                            None,
                        )
                    registered = seat.address if seat else None
                    ok = check_token(token, seat.token_hash if seat else None)
            else:
                check_token(token, None)
            if ok and registered == mail.from_addr:
                continue
            reason = (
                "unknown game or role"
                if registered is None
                else ("wrong token" if not ok else "sent from an unregistered address")
            )
            targets = {a for a in (registered,) if a}
            if self.store.is_registered(mail.from_addr):
                targets.add(mail.from_addr)
            now = self.now()
            for address in sorted(targets):
                if self.store.allow(
                    address,
                    "auth-failure",
                    scheduler.iso(now),
                    scheduler.iso(now - timedelta(hours=1)),
                ):
                    self._queue(
                        address,
                        f"[{name}] sign-on refused",
                        reports.render(
                            "common/notice.txt.j2",
                            text=(
                                f"A mail signed on as {role} in {name} could not be "
                                "accepted: the game, role, token or sending address does "
                                "not match our records. Nothing in it was carried out.\n"
                                "If it was yours, send it again from your registered "
                                "address with your token. This notice is sent at most "
                                "once an hour."
                            ),
                        ),
                        "notice",
                        game=name if row else "",
                    )
            return f"SIGNON {name} {role}: {reason}"
        return None

    # ------------------------------------------------------------------ commands

    def _need_signon(self, session: MailSession, gm: bool = False) -> Signon:
        s = session.signon
        if s is None:
            raise CommandError("sign on first", "start with SIGNON <game> <role> <token>")
        if gm and s.role != GM:
            raise CommandError(
                "only the game master may do this", f"sign on with SIGNON {s.game} GM <token>"
            )
        if not gm and s.role == GM:
            raise CommandError("the GM has no seat to act for", "sign on as a player")
        return s

    def _run(self, session: MailSession, command: grammar.Command) -> None:
        line = command.line
        name = command.name
        if name == "SIGNON":
            game, role = command.args["game"], command.args["role"]
            row = self.store.game(game)
            assert row is not None  # authenticated above
            if role.upper() == GM:
                signon = Signon(row["name"], GM, row["gm_address"], None)
            else:
                seat = self.store.seat(row["name"], role) or next(
                    s
                    for s in self.store.seats(row["name"])
                    if s.wanted and s.wanted.lower() == role.lower()
                )
                signon = Signon(row["name"], seat.role or role, seat.address, seat)
            session.signon = signon
            if session.first_signon is None:
                session.first_signon = signon
                session.reply_to = signon.address
            session.ok(
                line, f"signed on as {signon.role} in {signon.game}", _mask_signon(line.text)
            )
            return
        handler = getattr(self, "_cmd_" + name.lower().replace(" ", "_"))
        handler(session, command)

    def _cmd_help(self, session: MailSession, command: grammar.Command) -> None:
        topic = command.args.get("topic")
        verbs: list[tuple[str, str, str]] = []
        if topic:
            try:
                game = registry.get(topic)
            except registry.UnknownGame:
                row = self.store.game(topic)
                if row is None:
                    raise CommandError(
                        f"no game or game kind called {topic!r}",
                        "HELP alone lists the judge's commands",
                    ) from None
                game = registry.get(row["game"])
            verbs = [(v.syntax, v.summary, v.example) for v in game.verbs]
        elif session.signon is not None:
            game = registry.get(self.game_of(session.signon.game)[0]["game"])
            verbs = [(v.syntax, v.summary, v.example) for v in game.verbs]
        kinds = ", ".join(f"{g.id} ({g.title})" for g in registry.available())
        session.sections.append(grammar.help_text(verbs) + f"\nGame kinds here: {kinds}\n")
        session.ok(command.line, "help follows below")

    def _cmd_list(self, session: MailSession, command: grammar.Command) -> None:
        lines = ["Games on this judge:"]
        for n in self.store.game_names():
            row = self.store.game(n)
            assert row is not None
            seats = len(self.store.seats(n))
            lines.append(
                f"  {n}: {row['game']}, {row['status']}, phase {row['phase']}, {seats} seat(s)"
            )
        if len(lines) == 1:
            lines.append("  (none yet: CREATE one)")
        session.sections.append("\n".join(lines))
        session.ok(command.line, "list follows below")

    def _cmd_join(self, session: MailSession, command: grammar.Command) -> None:
        address = session.mail.from_addr
        if not address:
            raise CommandError("your mail has no usable From address")
        game = command.args["game"]
        wanted = command.args.get("role")
        token = self.join(game, address, wanted)
        how = (
            f"SIGNON {game} {wanted} {token}"
            if wanted
            else f"SIGNON {game} <role> {token}, with the role the start report gives you"
        )
        session.reply_to = session.reply_to or address
        session.sections.append(
            f"You have a seat in {game}. Your secret token is: {token}\n"
            f"Keep it private. Sign your mails with {how}."
        )
        session.ok(command.line, f"joined {game}")

    def _cmd_create(self, session: MailSession, command: grammar.Command) -> None:
        address = session.mail.from_addr
        creators = self.config.creators
        if not address:
            raise CommandError("your mail has no usable From address")
        if "*" not in creators and address not in creators:
            raise CommandError(
                "this judge lets only its listed game masters create games",
                "ask the judge's operator",
            )
        options: dict[str, str] = {}
        for word in command.args.get("options", "").split():
            if "=" not in word:
                raise CommandError(f"option {word!r} is not name=value", "e.g. max_year=1910")
            k, v = word.split("=", 1)
            options[k] = v
        token = self.create_game(command.args["game"], command.args["kind"], options, address)
        session.reply_to = session.reply_to or address
        session.sections.append(
            f"You are the GM of {command.args['game']}. Your GM token is: {token}\n"
            f"Sign GM commands with SIGNON {command.args['game']} GM {token}."
        )
        session.ok(command.line, f"created {command.args['game']}")

    def _held_text(self, game: Game, table: adj.Table, role: str) -> str:
        held = table.held(role)
        phase = adj.phase_key(game, table)
        if not held:
            return f"You have no orders held for {phase}."
        return f"Orders held for {role}, {phase}:\n" + "\n".join(f"  {a.text}" for a in held)

    def _cmd_game(self, session: MailSession, command: grammar.Command) -> None:
        self._game_lines(session, [command.line], block=False)

    def _cmd_orders(self, session: MailSession, command: grammar.Command) -> None:
        session.ok(command.line, "orders block: these lines replace the orders you sent before")
        self._game_lines(session, command.body, block=True)

    def _game_lines(self, session: MailSession, lines: Sequence[grammar.Line], block: bool) -> None:
        if session.signon is None:
            for ln in lines:
                session.error(
                    ln,
                    "not a judge command, and you have not signed on for a game",
                    "sign on first with SIGNON <game> <role> <token>; HELP lists the commands",
                )
            return
        s = self._need_signon(session)
        row, game = self.game_of(s.game)
        if row["status"] != "active":
            for ln in lines:
                session.error(ln, f"{s.game} is {row['status']}: no orders now")
            return
        seed = bytes.fromhex(row["seed"])
        role = s.role
        table = adj.Table.loads(row["table_json"])
        if role in adj.ordering_roles(game, table):
            accepted: list[Action] = []
            for ln in lines:
                try:
                    action = game.parse(table.state, role, ln.text)
                except RuleError as exc:
                    session.error(ln, f"{exc.grade.value}: {exc.message}", exc.hint)
                    continue
                accepted.append(action)
                session.ok(ln, f"ok: {action.text}")
            if accepted or block:
                self._commit(
                    s.game,
                    adj.submit(game, table, role, accepted, replace_all=block),
                    session.mail.message_id,
                )
                session.touched.add(s.game)
                table = self.table(s.game)
            summary = self._held_text(game, table, role)
            if summary not in session.sections:
                session.sections.append(summary)
            return
        for ln in lines:
            row, game = self.game_of(s.game)
            table = adj.Table.loads(row["table_json"])
            if (
                row["status"] == "active"
                and role not in adj.acting_roles(game, table)
                and getattr(game, "queues_actions", False)
            ):
                self._queue_line(session, s.game, game, table, role, ln)
                continue
            if row["status"] != "active" or role not in adj.acting_roles(game, table):
                session.error(
                    ln,
                    f"{role} has nothing to do in {s.game} now",
                    "send STATUS to see what the game waits for",
                )
                continue
            try:
                action = game.parse(table.state, role, ln.text)
                with self.store.atomic():
                    self._commit(
                        s.game, adj.act(game, table, role, action, seed), session.mail.message_id
                    )
            except RuleError as exc:
                session.error(ln, f"{exc.grade.value}: {exc.message}", exc.hint)
                continue
            session.touched.add(s.game)
            session.ok(ln, f"done: {action.text}")

    def _queue_line(
        self,
        session: MailSession,
        name: str,
        game: Game,
        table: adj.Table,
        role: str,
        ln: grammar.Line,
    ) -> None:
        """Not ``role``'s turn: a line the game understands is queued for when it
        is (an ``InvalidLine`` is refused now; ``IllegalLine`` may fit later)."""
        try:
            game.parse(table.state, role, ln.text)
        except InvalidLine as exc:
            session.error(ln, f"{exc.grade.value}: {exc.message}", exc.hint)
            return
        except RuleError:
            pass  # understood; it may fit when the turn comes
        self._commit(name, adj.enqueue(table, role, [ln.text]), session.mail.message_id)
        session.touched.add(name)
        session.ok(ln, "queued: it will be taken when you next act, if it still fits")

    def _cmd_policy(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session)
        row, game = self.game_of(s.game)
        if row["status"] not in ("active", "paused"):
            raise CommandError(f"{s.game} is {row['status']}")
        windows: tuple[str, ...] = getattr(game, "windows", ())
        window = command.args["window"].lower()
        mode = command.args["mode"].lower()
        if window not in windows:
            raise CommandError(
                f"{game.title} has no response window called {window!r}",
                "windows: " + (", ".join(windows) or "none in this game"),
            )
        if mode not in ("ask", "pass"):
            raise CommandError(f"a policy is ASK or PASS, not {mode!r}", f"POLICY {window} PASS")
        table = adj.Table.loads(row["table_json"])
        self._commit(s.game, adj.set_policy(table, s.role, window, mode), session.mail.message_id)
        session.touched.add(s.game)
        answer = "answered PASS for you" if mode == "pass" else "you are asked"
        session.ok(command.line, f"{window} windows: {answer}")

    def _flag(self, session: MailSession, command: grammar.Command, flag: str, on: bool) -> None:
        s = self._need_signon(session)
        row, _ = self.game_of(s.game)
        if row["status"] not in ("active", "paused"):
            raise CommandError(f"{s.game} is {row['status']}")
        table = adj.Table.loads(row["table_json"])
        self._commit(s.game, adj.set_flag(table, s.role, flag, on), session.mail.message_id)
        session.touched.add(s.game)
        what = {
            ("wait", True): "the phase will wait for its deadline",
            ("wait", False): "the phase may be processed as soon as all orders are in",
            ("draw", True): "you vote for a draw of all survivors",
            ("draw", False): "you withdraw your draw vote",
        }[(flag, on)]
        session.ok(command.line, what)

    def _cmd_wait(self, session: MailSession, command: grammar.Command) -> None:
        self._flag(session, command, "wait", True)

    def _cmd_nowait(self, session: MailSession, command: grammar.Command) -> None:
        self._flag(session, command, "wait", False)

    def _cmd_draw(self, session: MailSession, command: grammar.Command) -> None:
        self._flag(session, command, "draw", True)

    def _cmd_nodraw(self, session: MailSession, command: grammar.Command) -> None:
        self._flag(session, command, "draw", False)

    def _cmd_status(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session)
        row, game = self.game_of(s.game)
        if row["status"] == "forming":
            seats = self.store.seats(s.game)
            session.sections.append(f"{s.game} is forming: {len(seats)} seat(s) taken.")
        else:
            text, _ = self.report_text(s.game, s.role)
            table = self.table(s.game)
            session.sections.append(text.rstrip("\n"))
            if s.role in adj.ordering_roles(game, table):
                session.sections.append(self._held_text(game, table, s.role))
        session.ok(command.line, "status follows below")

    def _cmd_history(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session)
        raw = command.args.get("count", "3")
        if not raw.isdigit() or not 1 <= int(raw) <= 50:
            raise CommandError(f"{raw!r} is not a count from 1 to 50", "e.g. HISTORY 5")
        count = int(raw)
        chunks: list[str] = []
        for act_row in reversed(self.store.actions(s.game)):
            payload = json.loads(act_row["payload"])
            if "events" not in payload:
                continue
            lines = [
                Event.from_json(e).text
                for e in payload["events"]
                if Event.from_json(e).visible_to(s.role)
            ]
            if lines:
                chunks.append(f"[{act_row['created']}]\n" + "\n".join(lines))
            if len(chunks) >= count:
                break
        session.sections.append(
            "History, latest last:\n\n"
            + ("\n\n".join(reversed(chunks)) if chunks else "(nothing yet)")
        )
        session.ok(command.line, "history follows below")

    def _cmd_resign(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session)
        assert s.seat is not None
        self.store.update_seat(s.seat.id, status="resigned")
        session.touched.add(s.game)
        session.ok(command.line, f"you have left {s.game}; {s.role} is in civil disorder")

    def _cmd_set_timezone(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session)
        assert s.seat is not None
        tz = command.args["zone"]
        try:
            scheduler.zone(tz)
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        self.store.update_seat(s.seat.id, tz=tz)
        session.ok(command.line, f"times are now shown in {tz}")

    def _cmd_press_to(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session)
        row, _ = self.game_of(s.game)
        if str(self.settings(row).get("press", "yes")).lower() == "no":
            raise CommandError(f"{s.game} is played without press")
        seats = [x for x in self.store.seats(s.game) if x.role and x.status == "active"]
        names = grammar.split_roles(command.args["roles"])
        if [n.upper() for n in names] == ["ALL"]:
            targets = [x for x in seats if x.role != s.role]
        else:
            by = {x.role.lower(): x for x in seats if x.role}
            unknown = [n for n in names if n.lower() not in by]
            if unknown:
                raise CommandError(
                    f"no active seat called {', '.join(unknown)} in {s.game}",
                    "seats: " + ", ".join(sorted(x.role for x in seats if x.role)),
                )
            targets = [by[n.lower()] for n in names if by[n.lower()].role != s.role]
        text = "\n".join(ln.text for ln in command.body).strip("\n")
        if not text:
            raise CommandError(
                "the press message is empty", "write it between PRESS TO and ENDPRESS"
            )
        to_names = ", ".join(sorted(x.role or "" for x in targets))
        for target in targets:
            self._queue(
                target.address,
                f"[{s.game}] press from {s.role}",
                f"Press from {s.role} to {to_names}:\n\n{text}\n",
                "press",
                game=s.game,
            )
        session.ok(command.line, f"press sent to {to_names}")

    # --- GM

    def _cmd_start(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session, gm=True)
        notes = self.start(s.game, session.mail.message_id)
        session.sections.extend(notes)
        session.ok(command.line, f"{s.game} started")

    def _clock(self, name: str) -> scheduler.Clock:
        row = self.store.deadline(name)
        if row is None:
            raise CommandError(f"{name} has no running clock")
        return scheduler.Clock.from_row(row)

    def _cmd_set_deadline(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session, gm=True)
        row, _ = self.game_of(s.game)
        words = command.args["when"].split()
        tz = "UTC"
        if (len(words) >= 2 and "/" in words[-1]) or (words and words[-1].upper() == "UTC"):
            tz = words.pop()
        try:
            when = datetime.fromisoformat(" ".join(words)).replace(tzinfo=scheduler.zone(tz))
        except ValueError as exc:
            raise CommandError(
                f"cannot read {command.args['when']!r} as a date and time",
                "e.g. SET DEADLINE 2026-12-01 18:00 Europe/Paris",
            ) from exc
        if when <= self.now():
            raise CommandError("that deadline is in the past")
        clock = scheduler.set_deadline(
            self._clock(s.game), when.astimezone(UTC), self.settings(row)
        )
        self.store.set_deadline(clock.to_row(s.game))
        session.ok(command.line, f"deadline set to {scheduler.iso(clock.deadline)}")

    def _cmd_set(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session, gm=True)
        row, _ = self.game_of(s.game)
        key, value = command.args["setting"].lower(), command.args["value"]
        if key not in scheduler.DEFAULT_SETTINGS:
            raise CommandError(
                f"no setting {key!r}", "settings: " + ", ".join(scheduler.DEFAULT_SETTINGS)
            )
        current = json.loads(row["settings"] or "{}")
        if key == "press":
            if value.lower() not in ("yes", "no"):
                raise CommandError("press is yes or no")
            current[key] = value.lower()
        else:
            try:
                hours = float(value)
            except ValueError:
                raise CommandError(f"{key} takes a number of hours, not {value!r}") from None
            if not 0 <= hours <= 24 * 60:
                raise CommandError(f"{key} must be between 0 and 1440 hours")
            current[key] = hours
        self.store.update_game(s.game, settings=json.dumps(current, sort_keys=True))
        session.ok(command.line, f"{key} is now {current[key]}")

    def _cmd_extend(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session, gm=True)
        row, _ = self.game_of(s.game)
        try:
            hours = float(command.args["hours"])
            clock = scheduler.extend(self._clock(s.game), hours, self.settings(row))
        except ValueError as exc:
            raise CommandError(
                str(exc)
                if isinstance(exc, scheduler.ExtendRefused)
                else f"{command.args['hours']!r} is not a number of hours",
                "e.g. EXTEND 24",
            ) from exc
        self.store.set_deadline(clock.to_row(s.game))
        session.ok(command.line, f"deadline moved to {scheduler.iso(clock.deadline)}")

    def _cmd_pause(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session, gm=True)
        row, _ = self.game_of(s.game)
        if row["status"] != "active":
            raise CommandError(f"{s.game} is {row['status']}, not active")
        self.store.update_game(s.game, status="paused")
        self.store.clear_deadline(s.game)
        session.ok(command.line, f"{s.game} is paused; its clock is stopped")

    def _cmd_resume(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session, gm=True)
        row, game = self.game_of(s.game)
        if row["status"] != "paused":
            raise CommandError(f"{s.game} is not paused")
        self.store.update_game(s.game, status="active")
        clock = self._open_clock(s.game, row, game, self.table(s.game))
        session.ok(command.line, f"{s.game} resumes; deadline {scheduler.iso(clock.deadline)}")

    def _cmd_process(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session, gm=True)
        row, game = self.game_of(s.game)
        if row["status"] != "active":
            raise CommandError(f"{s.game} is {row['status']}, not active")
        self._commit(
            s.game,
            adj.deadline(game, self.table(s.game), bytes.fromhex(row["seed"])),
            session.mail.message_id,
        )
        session.ok(command.line, "processed")

    def _cmd_replace(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session, gm=True)
        seat = self.store.seat(s.game, command.args["role"])
        if seat is None:
            raise CommandError(f"no seat {command.args['role']!r} in {s.game}")
        address = command.args["address"].strip("<>").lower()
        if "@" not in address:
            raise CommandError(f"{address!r} is not a mail address")
        token = new_token()
        self.store.update_seat(
            seat.id, address=address, token_hash=hash_token(token), status="active"
        )
        self._queue(
            address,
            f"[{s.game}] you now play {seat.role}",
            f"The GM of {s.game} has given you the seat of {seat.role}.\n"
            f"Your secret token is: {token}\n"
            f"Sign your mails with: SIGNON {s.game} {seat.role} {token}\n"
            "Send STATUS to see the game.\n",
            "notice",
            game=s.game,
        )
        session.ok(command.line, f"{seat.role} now belongs to {address}; the token went there")

    def _cmd_eject(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session, gm=True)
        seat = self.store.seat(s.game, command.args["role"])
        if seat is None:
            raise CommandError(f"no seat {command.args['role']!r} in {s.game}")
        self.store.update_seat(seat.id, status="ejected", token_hash="")
        session.touched.add(s.game)
        session.ok(command.line, f"{seat.role} is ejected and in civil disorder")

    def _cmd_rollback(self, session: MailSession, command: grammar.Command) -> None:
        s = self._need_signon(session, gm=True)
        phase = self.rollback(s.game)
        session.ok(command.line, f"rolled back to {phase}")

    def rollback(self, name: str) -> str:
        """Undo the last step that moved the game on; the log keeps the undone
        entries, marked, and the table is rebuilt from what remains."""
        row, game = self.game_of(name)
        rows = self.store.actions(name)
        moves = [r for r in rows if r["kind"] in ("act", "default", "resolve", "draw")]
        if not moves:
            raise CommandError(f"{name} has nothing to roll back")
        last = moves[-1]["n"]
        self.store.undo_actions_after(name, last - 1)
        self.store.delete_snapshots_after(name, last - 1)
        table = self.rebuild(name)
        phase = adj.phase_key(game, table)
        self.store.update_game(
            name,
            table_json=table.dumps(),
            phase=phase,
            status="active" if table.outcome is None else "finished",
        )
        if table.outcome is None:
            self._open_clock(name, row, game, table)
        return phase

    # ================================================================== replay

    def rebuild(self, name: str) -> adj.Table:
        """The table as the action log rebuilds it from the seed."""
        row, game = self.game_of(name)
        entries = [
            {
                "kind": r["kind"],
                "role": r["role"],
                "payload": json.loads(r["payload"]),
                "draws": json.loads(r["draws"]),
            }
            for r in self.store.actions(name)
        ]
        return adj.replay(game, entries, bytes.fromhex(row["seed"]))

    def replay_check(self, name: str) -> str:
        """Rebuild and compare with the stored table; raises ReplayError on a difference."""
        stored = self.table(name)
        rebuilt = self.rebuild(name)
        if rebuilt.dumps() != stored.dumps():
            a, b = rebuilt.to_json(), stored.to_json()
            diff = [k for k in a if a[k] != b.get(k)]
            raise adj.ReplayError(
                f"{name}: the log rebuilds a different game (differs in {', '.join(diff)})"
            )
        return f"{name}: {len(self.store.actions(name))} log entries rebuild the stored game"

    def verify(self, name: str) -> str:
        """After the game: check the revealed seed against its published hash,
        recompute every draw from it, and replay the log. Raises CommandError
        (game not finished), VerifyError or ReplayError."""
        row, _ = self.game_of(name)
        if row["status"] != "finished":
            raise CommandError(
                f"{name} is {row['status']}: its seed stays secret until the game ends"
            )
        seed = bytes.fromhex(row["seed"])
        if commitment(seed) != row["seed_hash"]:
            raise VerifyError(f"{name}: the seed does not match its published SHA-256")
        rows = self.store.actions(name)
        draws = [Draw.from_json(d) for r in rows for d in json.loads(r["draws"])]
        # Rolled-back entries used blocks too: then the kept draws are not one
        # continuous sequence and the replay checks them entry by entry.
        undone = any(r["undone"] for r in self.store.actions(name, include_undone=True))
        try:
            if not undone:
                recompute(seed, draws)
            self.replay_check(name)
        except (VerifyError, adj.ReplayError) as exc:
            raise VerifyError(f"{name}: {exc}") from exc
        return (
            f"{name}: seed matches its commitment {row['seed_hash'][:16]}...; "
            f"{len(draws)} draws recomputed and replayed"
        )

    # ================================================================== deadlines

    def run_due(self) -> list[str]:
        """Reminders, late notices and deadline processing that are due now."""
        done: list[str] = []
        now = self.now()
        for drow in self.store.deadlines():
            name = drow["game"]
            grow, game = self.game_of(name)
            if grow["status"] != "active":
                continue
            clock = scheduler.Clock.from_row(drow)
            table = adj.Table.loads(grow["table_json"])
            absent = self.absent(name)
            owed = adj.waiting_on(game, table, absent)
            what = scheduler.due(now, clock, everyone_in=not owed)
            if what is None:
                continue
            with self.store.atomic():
                if what in (scheduler.Due.REMIND, scheduler.Due.LATE):
                    late = what is scheduler.Due.LATE
                    self._remind(name, game, table, clock, drow, owed, late)
                    self.store.set_deadline({**drow, ("late_notice" if late else "reminded"): 1})
                else:
                    self._commit(name, adj.deadline(game, table, bytes.fromhex(grow["seed"])), "")
                    self._process_ready(name, "")
            done.append(f"{name}: {what.value} ({clock.phase})")
            log.info("%s: %s (%s)", name, what.value, clock.phase)
        return done

    def _remind(
        self,
        name: str,
        game: Game,
        table: adj.Table,
        clock: scheduler.Clock,
        drow: dict[str, Any],
        owed: set[str],
        late: bool,
    ) -> None:
        """A reminder before the deadline, or a late notice after it, to each
        seat the judge still waits for (and to nobody else)."""
        defaults = {r: d.default for d in adj.decisions(game, table) for r in d.roles}
        for seat in self._seats_for(name, owed):
            when = scheduler.local(drow["grace_until" if late else "deadline"], seat.tz)
            self._queue(
                seat.address,
                f"[{name}] {'late' if late else 'reminder'}: {clock.phase}",
                reports.render(
                    "common/reminder.txt.j2",
                    late=late,
                    phase=clock.phase,
                    game_name=name,
                    role=seat.role,
                    when=when,
                    default=defaults.get(seat.role or "", "") or "the game's default",
                ),
                "reminder",
                game=name,
            )

    def _seats_for(self, name: str, roles: set[str]) -> list[Seat]:
        return [s for s in self.store.seats(name) if s.role in roles and s.status == "active"]

    # ================================================================== relay

    def relay(self, *, wait: bool = True) -> list[str]:
        """Send what the outbox holds, with retries on temporary failures;
        return the Message-IDs sent.

        With a transport that sends in the background
        (:class:`~judge.mailout.BackgroundOutbound`, i.e. SMTP) due mails
        travel over the transport's connections side by side, started in
        the order they were queued. Two mails to one player may then arrive
        in either order, as SMTP never promised otherwise past the first
        server: each carries its Date and threading headers (an
        acknowledgement sits under the order mail it answers).
        ``wait=False`` only starts what is due and records what has
        finished: the daemon calls it after each mail it handles, so an
        acknowledgement leaves while the next order is read. ``wait=True``
        (the end of every cycle) waits until everything due has gone.

        A pass is one :meth:`cycle` (or one call outside a cycle). After a
        :class:`ServerUnavailable` nothing more is started in the pass, and
        mails already started that fail the same way are left as they were:
        only the first counts an attempt, as if the pass had stopped there.
        At most :data:`RELAY_WINDOW` mails are on their way at once, which
        also bounds how many a hard kill can make the judge send twice (each
        under its own Message-ID, which mail clients fold into one)."""
        sent: list[str] = []
        if wait and not self._cycling:
            self._relay_down = False  # a pass of its own (a cycle is one pass)
        background = self._background is not None
        while True:
            # Between mails (not waiting), only what was queued since the
            # last look needs starting; retries wait for the full pass.
            started = self._relay_start(sent) if wait or self._fresh_mail else 0
            if not background:
                return sent
            finished = self._collect(sent, wait=wait)
            if not wait or not (started or finished) or self._relay_down:
                return sent
            # Waiting: go on while mail is left beyond the window.

    def _relay_start(self, sent: list[str]) -> int:
        """Start (or, without a background transport, send) the due mail;
        return how many were started."""
        if self._relay_down:
            return 0
        started = 0
        self._fresh_mail = False
        background = self._background
        for mrow in self.store.due_mail(scheduler.iso(self.now())):
            if mrow["id"] in self._in_flight:
                continue
            if background is not None:
                if len(self._in_flight) >= RELAY_WINDOW:
                    self._fresh_mail = True  # the rest starts at the next call
                    break
                future = background.start(mrow["envelope_from"], mrow["to_addr"], mrow["raw"])
                self._in_flight[mrow["id"]] = (mrow, future)
                started += 1
                continue
            failure: TemporaryFailure | PermanentFailure | None = None
            try:
                self.outbound.send(mrow["envelope_from"], mrow["to_addr"], mrow["raw"])
            except (TemporaryFailure, PermanentFailure) as exc:
                failure = exc
            self._relayed(mrow, failure, sent)
            started += 1
            if self._relay_down:
                break  # every other mail would fail the same way now
        return started

    def _collect(self, sent: list[str], *, wait: bool) -> int:
        """Record the background sends that finished (all of them, waiting
        for each, when ``wait``), in the order they were queued, in one
        transaction; return how many."""
        done = [i for i in sorted(self._in_flight) if wait or self._in_flight[i][1].done()]
        if done:
            with self.store.atomic():
                for mail_id in done:
                    self._record_sent(mail_id, sent)
        return len(done)

    def _record_sent(self, mail_id: int, sent: list[str]) -> None:
        """Wait for background send ``mail_id`` and record how it went."""
        mrow, future = self._in_flight.pop(mail_id)
        failure: TemporaryFailure | PermanentFailure | None = None
        try:
            future.result()
        except (TemporaryFailure, PermanentFailure) as exc:
            failure = exc
        except Exception as exc:  # a transport bug: retry later, like a 4xx
            log.exception("relay: sending mail %s failed", mail_id)
            failure = TemporaryFailure(f"{type(exc).__name__}: {exc}")
        if isinstance(failure, ServerUnavailable) and self._relay_down:
            return  # the server is away: this pass already counted it
        self._relayed(mrow, failure, sent)

    def _relayed(
        self,
        mrow: dict[str, Any],
        failure: TemporaryFailure | PermanentFailure | None,
        sent: list[str],
    ) -> None:
        """Record how sending outbox mail ``mrow`` went."""
        now = self.now()
        if isinstance(failure, TemporaryFailure):
            attempts = int(mrow["attempts"]) + 1
            wait = min(60 * 2**attempts, 6 * 3600)
            self.store.mark_retry(
                mrow["id"], attempts, scheduler.iso(now + timedelta(seconds=wait)), str(failure)
            )
            if isinstance(failure, ServerUnavailable):
                log.warning("relay: %s; the outbox waits", failure)
                self._relay_down = True
            return
        if isinstance(failure, PermanentFailure):
            with self.store.atomic():  # 5xx: the address is bouncing; tell the GM
                self.store.mark_failed(mrow["id"], str(failure))
                bounces.bounced(self, mrow, str(failure), reported=False)
            return
        self._fault("sent")
        self.store.mark_sent(mrow["id"], scheduler.iso(now))
        sent.append(mrow["message_id"])

    def _record_failure(self, key: str, raw: bytes, exc: Exception) -> None:
        """A mail the judge could not handle: nothing of it was applied (its
        transaction rolled back); record it so the operator sees it."""
        mail = parse_mail(raw, Limits(self.config.max_bytes, self.config.max_lines))
        with self.store.atomic():
            self._record(mail, key, "failed", f"{type(exc).__name__}: {exc}"[:500])

    # ================================================================== daemon

    def cycle(self) -> list[str]:
        """One full cycle: read mail, run what is due, relay the outbox."""
        lines: list[str] = []
        self._relay_down = False
        self._cycling = True
        try:
            self._read_mail(lines)
            lines.extend(self.run_due())
            self.relay()
        finally:
            self._cycling = False
        return lines

    def _read_mail(self, lines: list[str]) -> None:
        for key, raw in self.inbound.fetch():
            try:
                lines.append(self.handle(key, raw))
            except Crash:
                raise
            except Exception as exc:  # a bug must not stop the judge
                log.exception("failed to handle %s", key)
                lines.append(f"{key}: failed: {exc}")
                self._record_failure(key, raw, exc)
                self.inbound.done(key, ok=False)
                continue
            self._fault("before-move")
            self.inbound.done(key, ok=True)
            if self._background is not None:
                self.relay(wait=False)  # the acknowledgement leaves while we go on
