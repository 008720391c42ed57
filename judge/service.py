"""The judge at work: its config, database and transports, and the cycle
that reads mail, runs the clock and relays the outbox.

The jobs are split one per module: :mod:`judge.pipeline` handles one mail,
:mod:`judge.session` holds the games a mail works on (loaded once, written
once), :mod:`judge.commands` the command handlers, :mod:`judge.notify` who
gets which mail, :mod:`judge.relay` the outbox relay. :class:`Judge` is
what the CLI, the daemon and the tests hold.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from judge import budget, gmnotice, gmview, lifecycle, mailconfig, notify, pipeline, reports
from judge import config as cfg
from judge.commands import gm as gm_commands
from judge.commands import league as league_commands
from judge.game import adjudicator as adj
from judge.game import registry, scheduler
from judge.game.rng import Draw, VerifyError, commitment, new_seed, recompute
from judge.game.spec import Game
from judge.mail import aside, redact
from judge.mail.mailin import InboundTransport, IncomingMail, MaildirInbound, parse_mail
from judge.mail.mailout import (
    BackgroundOutbound,
    OutboundTransport,
)
from judge.outbox import Outbox, kept_copy, sent_texts
from judge.relay import RELAY_WINDOW, Relay
from judge.session import CommandError, Loaded, Workspace, seats_for
from judge.store import DatabaseError, Store, backup, is_fault, is_out_of_memory, load_token_key

__all__ = ["RELAY_WINDOW", "CommandError", "Crash", "Judge", "kept_copy"]

log = logging.getLogger("judge")

GM = "GM"

#: The home's token key (judge.store.load_token_key): beside the database,
#: never in it.
TOKEN_KEY_FILE = "token.key"

#: Most looks at the inbox in one cycle (with a background relay): a steady
#: stream of mail still lets the cycle go on to the deadlines.
READ_ROUNDS = 10


def utcnow() -> datetime:
    return datetime.now(UTC)


#: A reading of a steady clock: (which run of the machine it belongs to,
#: seconds). Two readings of one run differ by the time that really passed.
Steady = tuple[str, float]


def steady_now() -> Steady:
    """The system's steady clock: the kernel's boot id and CLOCK_BOOTTIME
    (seconds since boot, suspended time included, never set by anyone), so
    that two readings of one boot, in any two processes, say how much time
    passed whatever the wall clock did."""
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            boot = f.read().strip()
    except OSError:
        boot = ""
    clock_id = getattr(time, "CLOCK_BOOTTIME", time.CLOCK_MONOTONIC)
    return boot, time.clock_gettime(clock_id)


def _which(mail: IncomingMail) -> str:
    """`` "<subject>" of <date>``, as far as the mail says them (masked, short)."""
    subject = redact.mask_secrets(mail.subject)
    subject = subject if len(subject) <= 80 else subject[:77] + "..."
    return (f' "{subject}"' if subject else "") + (f" of {mail.date}" if mail.date else "")


class Crash(Exception):
    """Raised by fault injection in tests to simulate a crash at a named step."""


class Elsewhere(Exception):
    """Another daemon sharing the database (PostgreSQL) is handling this mail
    now, or handled it already (``handled``): this one leaves it alone."""

    def __init__(self, handled: bool) -> None:
        super().__init__("handled by another daemon" if handled else "claimed by another daemon")
        self.handled = handled


class Judge:
    """One judge: its config, database and transports."""

    def __init__(
        self,
        config: cfg.Config,
        store: Store,
        inbound: InboundTransport,
        outbound: OutboundTransport,
        now: Callable[[], datetime] = utcnow,
        steady: Callable[[], Steady] | None = None,
    ) -> None:
        self.config = config
        self.store = store
        self.inbound = inbound
        #: Where the relay sends mail (tests may swap it).
        self.outbound: OutboundTransport = outbound
        self.now = now
        #: The steady clock the wall clock is checked against
        #: (:meth:`check_clock`): the system's with the system's wall clock;
        #: with a clock of the caller's, that clock itself unless the caller
        #: gives a steady one too (a simulated clock is its own time).
        self.steady: Callable[[], Steady] = steady or (
            steady_now if now is utcnow else (lambda: ("given", now().timestamp())))
        self.faults: Callable[[str], None] | None = None
        #: Where new games get their seed (tests may fix it to replay a game).
        self.seed_source: Callable[[], bytes] = new_seed
        self.relayer = Relay(self)
        #: When the outbox and the token tags were last pruned (:meth:`prune`).
        self.pruned: datetime | None = None
        #: Mails recorded as failed whose move to Failed has not happened yet
        #: (a fault of the disk): moved, never handled again.
        self._aside: set[str] = set()
        #: In this look at the inbox, the games and senders of mails another
        #: daemon is handling: their later mails wait, so that each game's
        #: (and each sender's) mails are handled in the order they arrived.
        self._elsewhere: set[str] = set()
        #: The mails the current (or last) cycle read, and the reasons of
        #: those it set aside in Failed (`judge status` reports them).
        self.cycle_read = 0
        self.cycle_failed: list[str] = []

    @property
    def background(self) -> BackgroundOutbound | None:
        """The outbound transport, when it sends in the background (SMTP)."""
        return self.relayer.background

    @property
    def fault(self) -> Callable[[str], None]:
        """Fault injection: tests set ``judge.fault = f`` to crash at a named step."""
        return self._fire

    @fault.setter
    def fault(self, hook: Callable[[str], None] | None) -> None:
        self.faults = hook

    def _fire(self, point: str) -> None:
        if self.faults is not None:
            self.faults(point)

    @classmethod
    def open(cls, home: Path, now: Callable[[], datetime] = utcnow,
             steady: Callable[[], Steady] | None = None) -> Judge:
        config = cfg.load(home)
        if config.postgres:
            store = Store.open(config.database,
                               password=mailconfig.database_password(config))
        else:
            backup.check_database(config.db_path, config.home)  # never a new one in its place
            try:
                store = Store.open(config.db_path)
            except DatabaseError as exc:
                raise backup.damaged(config.db_path, exc, config.home) from exc
        try:  # the token key, and the transports the config names: Maildir, stdout, IMAP, SMTP
            store.token_key = load_token_key(config.home / TOKEN_KEY_FILE)
            inbound = mailconfig.open_inbound(config, store)
            outbound = mailconfig.open_outbound(config)
        except BaseException:
            store.close()
            raise
        return cls(config, store, inbound, outbound, now, steady)

    def close(self) -> None:
        self.relayer.close()  # record what is on its way; the rest goes next time
        for transport in (self.inbound, self.outbound):
            closer = getattr(transport, "close", None)
            if closer is not None:
                closer()
        self.store.close()

    # ================================================================== games

    def workspace(self) -> Workspace:
        return Workspace(self, self.now())

    def outbox(self) -> Outbox:
        """An outbox for mail queued outside a session (the CLI's notices,
        the tests' mails)."""
        self.relayer.fresh = True
        return Outbox(self.store, self.config, self.now())

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

    def _one(self, work: Callable[[Workspace], Any]) -> Any:
        """Run ``work`` on a fresh workspace in one transaction and write it."""
        with self.store.atomic():
            ws = self.workspace()
            result = work(ws)
            ws.flush()
        return result

    def create_game(self, name: str, kind: str, options: dict[str, str], gm_address: str) -> str:
        """Create a forming game; returns the GM's token (shown once)."""
        return str(self._one(lambda ws: lifecycle.create(ws, name, kind, options, gm_address)))

    def end_game(self, name: str, result: str, names: list[str]) -> str:
        """End a running game as its GM declares (``draw``, ``win``,
        ``cancel``: see :func:`judge.lifecycle.end`); the final
        reports are queued. Returns what was done, in words."""
        return str(self._one(lambda ws: lifecycle.end(ws, ws.get(name), result, names)))

    def join(self, name: str, address: str, wanted: str | None) -> str:
        """Give ``address`` a seat in a forming game (as its GM would); returns its token."""
        return str(self._one(lambda ws: lifecycle.join(ws, name, address, wanted, by_gm=True)))

    def unseat(self, name: str, who: str) -> str:
        """Remove a seat of a forming game by address or role; returns its address."""
        return str(self._one(lambda ws: lifecycle.remove(ws, ws.get(name), who).address))

    def start(self, name: str, message_id: str = "") -> list[str]:
        """Start a forming game (see :func:`judge.lifecycle.start`)."""
        notes: list[str] = self._one(lambda ws: lifecycle.start(ws, name, message_id))
        return notes

    def rollback(self, name: str) -> str:
        return str(self._one(lambda ws: gm_commands.rollback(ws, name)))

    def gm_status(self, name: str) -> str:
        """What the GM's STATUS shows."""
        ws = self.workspace()
        return gm_commands.status_text(ws, ws.get(name))

    def on_file_text(self, name: str, role: str | None) -> str:
        """For ``judge game show``: what ``role`` holds for the decision open
        now, and who still owes one (the operator's view: players see the
        latter only with ``orders_in all``)."""
        ws = self.workspace()
        g = ws.get(name)
        table = g.need_table()
        lines = []
        if table.outcome is None:
            phase = adj.phase_key(g.game, table)
            if role is not None and role in adj.ordering_roles(g.game, table):
                held = table.held(role)
                lines.append(f"On file for {role}, {phase}: "
                             + ("; ".join(a.text for a in held) if held else "nothing"))
            owed = sorted(adj.waiting_on(g.game, table, g.absent()))
            lines.append(f"Still owed for {phase} by: " + (", ".join(owed) or "nobody"))
        return "\n".join(lines) + ("\n" if lines else "")

    def report_text(self, name: str, role: str | None) -> tuple[str, bytes]:
        """``role``'s report of the game now (None: observers) and its JSON attachment."""
        ws = self.workspace()
        g = ws.get(name)
        seat = g.seat(role) if role else None
        decision = notify.must_decide(g, seat) if seat else None
        text, attachment, _ = notify.report_text(ws, g, role, tz=seat.tz if seat else "UTC",
                                                 decision=decision)
        return text, attachment

    # ================================================================== mail in

    def handle(self, key: str, raw: bytes) -> str:
        """Handle one message in one transaction; returns the log line."""
        mail = parse_mail(raw, self.config.mail_limits(), sent=self.sent_texts)
        self.fault("parsed")
        # Parsing and the token checks (scrypt) hold no write lock.
        pre = pipeline.prepare(self, mail) if not (mail.drop or mail.refuse) else None
        with self.store.atomic():
            if self.store.postgres:
                self._claim(key, mail, raw, pre)
            handled = pipeline.handle(self, mail, raw, pre)
            self.store.record_inbox(handled.inbox_row(mail, key, self.now(), raw))
            self.fault("applied")
        self.fault("committed")
        if handled.queued:
            self.relayer.fresh = True  # the relay has something new to start
        line = f"{mail.message_id} from {mail.from_addr or '?'}: {handled.line}"
        log.debug(line)  # the daemon (or the demo) prints it: once
        return line

    def _claim(self, key: str, mail: IncomingMail, raw: bytes,
               pre: pipeline.Prepared | None) -> None:
        """With several daemons on one database: claim this mail for this
        transaction, or raise :class:`Elsewhere` when another daemon has it,
        handled it, or holds an earlier mail of one of its games or of its
        sender (that one must be handled first)."""
        order = {f"from:{mail.from_addr}"}
        for command in pre.commands if pre is not None else ():
            game = command.args.get("game")
            if isinstance(game, str) and game:
                order.add(f"game:{game.lower()}")
        if order & self._elsewhere or not self.store.claim_mail(raw):
            self._elsewhere |= order
            raise Elsewhere(handled=False)
        if self.store.handled_key(key):
            raise Elsewhere(handled=True)

    def sent_texts(self, address: str, message_ids: Sequence[str]) -> list[str]:
        """What a reply from ``address`` may quote of the judge's own mails
        among ``message_ids``: see :func:`judge.outbox.sent_texts`."""
        return sent_texts(self.store, address, message_ids)

    # ================================================================== replay

    def rebuild(self, name: str, *, full: bool = True) -> adj.Table:
        """The table as the action log rebuilds it: from the seed and every
        entry (``full``), else from the latest snapshot and what followed."""
        return gm_commands.rebuild(self.workspace(), name, full=full)

    def replay_check(self, name: str, *, full: bool = True) -> str:
        """Rebuild and compare with the stored table; raises ReplayError on a difference."""
        stored = self.table(name)
        # A state stored in an earlier shape of its game is compared as the
        # game reads it now (the rebuild has the current shape).
        stored.state = self.game_of(name)[1].current(stored.state)
        rebuilt = self.rebuild(name, full=full)
        if rebuilt.dumps() != stored.dumps():
            a, b = rebuilt.to_json(), stored.to_json()
            diff = [k for k in a if a[k] != b.get(k)]
            raise adj.ReplayError(
                f"{name}: the log rebuilds a different game (differs in {', '.join(diff)})"
            )
        how = "" if full else " from the latest snapshot"
        return f"{name}: {self.store.last_action(name)} log entries rebuild the stored game{how}"

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
        """Reminders, late notices, windows that may close and deadlines that are due."""
        done: list[str] = []
        for drow in self.store.deadlines():
            name = drow["game"]
            with self.store.atomic():
                if not self.store.try_lock_game(name):
                    continue  # another daemon is at this game now; it sees to its clock
                ws = self.workspace()
                g = ws.find(name)
                if g is None or g.status != "active" or g.table is None or g.clock is None:
                    continue
                table = g.table
                absent = g.absent()
                owed = adj.waiting_on(g.game, table, absent)
                windowed = adj.open_window(g.game, table) is not None
                what = scheduler.due(ws.now, g.clock, everyone_in=not owed, early=windowed)
                if what is None:
                    continue
                if what in (scheduler.Due.REMIND, scheduler.Due.LATE):
                    late = what is scheduler.Due.LATE
                    self._remind(ws, g, owed, late)
                    ws.set_clock(g, dataclasses.replace(g.clock, late_notice=True) if late
                                 else dataclasses.replace(g.clock, reminded=True))
                else:
                    phase = adj.phase_key(g.game, table)
                    missed = adj.missed_by(g.game, table, absent)
                    ws.apply(g, adj.deadline(g.game, table, g.seed, absent))
                    ws.queue(notify.missed_deadline(ws, g, phase, missed))
                    league_commands.abandoned(ws, g, missed)
                    ws.settle(g)
                phase = g.clock.phase if g.clock else drow["phase"]
                ws.flush()
            done.append(f"{name}: {what.value} ({phase})")
            log.debug("%s: %s (%s)", name, what.value, phase)
        return done

    def next_due(self) -> datetime | None:
        """The earliest moment at which some clock asks for something (a
        reminder, a deadline, a grace period's end, a window that may close)."""
        moments: list[datetime] = []
        for row in self.store.deadlines():
            clock = scheduler.Clock.from_row(row)
            if clock.remind_at is not None and not clock.reminded:
                moments.append(clock.remind_at)
            moments.append(clock.deadline)
            if clock.grace_until is not None:
                moments.append(clock.grace_until)
            if clock.min_close is not None:
                moments.append(clock.min_close)
        now = self.now()
        ahead = [m for m in moments if m > now]  # what is due now, the cycle just did
        return min(ahead) if ahead else None

    def _remind(self, ws: Workspace, g: Loaded, owed: set[str], late: bool) -> None:
        """A reminder before the deadline, or a late notice after it, to each
        seat the judge still waits for (and to nobody else)."""
        table = g.need_table()
        clock = g.clock
        assert clock is not None
        defaults = {r: d.default for d in adj.open_decisions(g.game, table) for r in d.roles}
        for seat in seats_for(g, owed):
            moment = clock.grace_until if late and clock.grace_until else clock.deadline
            when = scheduler.local(scheduler.iso(moment), seat.tz)
            # Mails the seat sent since the decision opened that took nothing
            # for it (every line refused, or for another game): not "nothing".
            read = [m for m in (ws.judge.store.mails_from_since(
                        seat.address, scheduler.iso(clock.opened)) if clock.opened else [])
                    if g.name not in str(m["game"]).split(",")]
            refused = (scheduler.local(str(read[-1]["received"]), seat.tz) if read else "")
            ws.outbox.queue(
                seat.address,
                f"[{g.name}] {'late' if late else 'reminder'}: {clock.phase}",
                reports.render(
                    "common/reminder.txt.j2",
                    late=late,
                    phase=clock.phase,
                    game_name=g.name,
                    role=seat.role,
                    when=when,
                    default=defaults.get(seat.role or "", "") or "the game's default",
                    refused=refused,
                ),
                "reminder",
                game=g.name,
            )
        late_seats = seats_for(g, owed)
        if late and late_seats:  # the GM hears who is late, and until when
            until = clock.grace_until or clock.deadline
            ws.outbox.queue(
                g.row["gm_address"], f"[{g.name}] late: {clock.phase}",
                f"The deadline of {clock.phase} in {g.name} has passed and the judge has "
                "nothing from: " + ", ".join(f"{s.role} ({s.address})" for s in late_seats)
                + ". The phase is processed with the defaults at "
                + scheduler.local(scheduler.iso(until), gmview.gm_zone(g)) + " "
                "(grace_hours), or sooner if they send orders.\n", "notice", game=g.name)

    # ================================================================== relay

    def relay(self, *, wait: bool = True) -> list[str]:
        """Send what the outbox holds (see :meth:`judge.relay.Relay.run`)."""
        return self.relayer.run(wait=wait)

    # ================================================================== daemon

    def cycle(self) -> list[str]:
        """One full cycle: read mail, run what is due, relay the outbox.

        A busy database (another process holds the write lock past the busy
        timeout, :func:`judge.store.is_busy`), or a fault of the database or
        its disk (full, an I/O error, read-only: :func:`judge.store.is_fault`),
        makes the part it hit wait for the next cycle while the other parts
        go on: the mail stays where it is, deadlines stay due, the outbox
        keeps its mail; one warning and one line say what waited and why."""
        lines: list[str] = []
        waited: dict[str, list[str]] = {}
        self.cycle_read = 0
        self.cycle_failed = []
        with self.relayer.one_pass():
            for part, step in (("the mail", lambda: self._read_mail(lines)),
                               ("the GM's notices", lambda: gmnotice.send_join_digests(self)),
                               ("the deadlines", lambda: lines.extend(self._run_due_if_clock_ok())),
                               ("the outbox", self.relay)):  # fmt: skip
                try:
                    step()
                except Exception as exc:
                    why = is_fault(exc)
                    if not why:
                        raise
                    self._rollback()
                    waited.setdefault(why, []).append(part)
            try:
                self.prune()
            except Exception as exc:
                if not is_fault(exc):
                    raise
                self._rollback()
        for why, parts in waited.items():
            line = f"{why}: {', '.join(parts)} waited for the next cycle"
            log.warning("%s", line)
            lines.append(line)
        return lines

    #: Keys of the judge's own state (:meth:`judge.store.Store.state`): the
    #: last reading of the clock a cycle accepted, and why phases wait.
    CLOCK_LAST = "clock.last"
    CLOCK_HELD = "clock.held"

    def check_clock(self) -> str:
        """Why no phase may be processed now, or ``""``.

        Each cycle records its reading of the wall clock with one of the
        steady clock (:func:`steady_now`). A wall clock that moved forward
        since the last reading by more than ``limits.max_clock_jump_hours``
        beyond what the steady clock says passed (a system clock set
        wrong, a host's clock stepped) would process every phase whose
        deadline it passed, with default orders: the judge holds them
        instead, logs it, and says so in ``judge status`` until the
        operator runs ``judge clock confirm`` (:meth:`confirm_clock`).
        After a restart of the machine (another boot) the steady clock
        cannot tell, and a move past the limit holds too. A clock that
        moved back is taken as it is: the limits count only what lies
        between their window's start and now, so nothing recorded ahead of
        it refuses mail."""
        now = self.now()
        boot, steady = self.steady()
        with self.store.atomic():
            held = self.store.state(self.CLOCK_HELD)
            if held:
                return held
            limit = timedelta(hours=self.config.max_clock_jump_hours)
            last = json.loads(self.store.state(self.CLOCK_LAST) or "{}")
            if last and limit > timedelta(0):
                moved = now - datetime.fromisoformat(last["wall"])
                passed = (timedelta(seconds=steady - float(last["steady"]))
                          if boot and last.get("boot") == boot else timedelta(0))
                if moved > limit and moved - passed > limit:
                    held = (f"the clock moved forward {moved.total_seconds() / 3600:,.1f} hours "
                            f"between two cycles (from {last['wall']} to {scheduler.iso(now)})"
                            f" while {passed.total_seconds() / 3600:,.1f} passed, more than "
                            f"limits.max_clock_jump_hours ({self.config.max_clock_jump_hours:g})"
                            "; no phase is processed until the operator runs "
                            "`judge clock confirm`")
                    self.store.set_state(self.CLOCK_HELD, held)
                    log.error("%s", held)
                    return held
            self._record_clock(now, boot, steady)
        return ""

    def _record_clock(self, now: datetime, boot: str, steady: float) -> None:
        self.store.set_state(self.CLOCK_LAST, json.dumps(
            {"wall": scheduler.iso(now), "boot": boot, "steady": steady}))

    def confirm_clock(self) -> str:
        """The operator's word that the clock is right: phases are processed
        again from now. Returns what was held (``""`` if nothing)."""
        with self.store.atomic():
            held = self.store.state(self.CLOCK_HELD) or ""
            self.store.set_state(self.CLOCK_HELD, None)
            self._record_clock(self.now(), *self.steady())
        if held:
            log.warning("clock confirmed by the operator at %s: phases are processed again",
                        scheduler.iso(self.now()))
        return held

    def _run_due_if_clock_ok(self) -> list[str]:
        held = self.check_clock()
        if held:
            return [f"deadlines held: {held}"]
        return self.run_due()

    def _rollback(self) -> None:
        """End a transaction a fault left open (SQLite may keep one after an
        I/O error or a full disk), so that the next work starts clean."""
        if self.store.in_transaction():
            try:
                self.store.rollback_open()
            except Exception as exc:
                log.warning("could not roll back after a database fault: %s", exc)

    def prune(self, *, every: timedelta = timedelta(hours=1)) -> int:
        """At most once per ``every``: delete what the outbox keeps of mail
        that left more than ``judge.keep_sent_days`` ago, and the tags of
        tokens no seat holds any more; returns how many outbox rows went."""
        now = self.now()
        if self.pruned is not None and now - self.pruned < every:
            return 0
        self.pruned = now
        before = scheduler.iso(now - timedelta(days=self.config.keep_sent_days))
        with self.store.atomic():
            gone = self.store.prune_sent(before)
            self.store.prune_token_tags()
        if gone:
            log.info("outbox: %d mails sent before %s deleted (judge.keep_sent_days)",
                     gone, before)
        return gone

    def _read_mail(self, lines: list[str]) -> None:
        """Handle each new mail; a busy database stops the reading, leaving
        that mail (and the rest) where it is for the next cycle.

        With a transport that sends in the background (SMTP), mail that
        arrived while a batch was handled is read in the same cycle (up to
        :data:`READ_ROUNDS` looks), while the replies of the batch are on
        their way: the cycle's closing wait for the relay comes once the
        inbox is quiet, not after every batch."""
        for _ in range(READ_ROUNDS if self.background is not None else 1):
            if not self._read_batch(lines):
                return

    def _read_batch(self, lines: list[str]) -> int:
        """One look at the inbox: handle what it holds; return how many mails.

        Each mail is handled within its budget (:mod:`judge.budget`). One
        that runs over it, fails unexpectedly or cannot be read is set
        aside (:meth:`_set_aside`) and the next one is handled. A fault of
        the database or its disk (:func:`judge.store.is_fault`) is no fault
        of the mail: it stays where it is and the reading stops."""
        mails = self.inbound.fetch()
        count = 0
        self._elsewhere = set()
        try:
            for key, raw in mails:
                count += 1
                if key in self._aside:  # recorded as failed, not yet moved: only move it
                    self._move(key, ok=False)
                    self._aside.discard(key)
                    continue
                self.cycle_read += 1
                if isinstance(raw, OSError):
                    self._set_aside(key, b"", f"the file cannot be read: {raw}", lines)
                    continue
                line = ""
                reason = ""
                told = ""
                try:
                    with budget.mail_budget(self.config.mail_seconds, self._memory_budget):
                        line = self.handle(key, raw)
                except Crash:
                    raise
                except Elsewhere as exc:
                    if exc.handled:  # its daemon died before moving it, or is moving it now
                        self._move_theirs(key)
                    continue
                except budget.OverBudget as exc:
                    reason = str(exc)
                    told = "the judge could not finish reading it in the time it gives one mail"
                except MemoryError:
                    reason = (f"its handling needed more than {self.config.mail_memory_mb} MB "
                              "of memory (limits.mail_memory_mb)")
                    told = "reading it needed more memory than the judge gives one mail"
                except Exception as exc:  # a bug must not stop the judge
                    if is_fault(exc):
                        raise
                    if is_out_of_memory(exc):
                        reason = (f"SQLite ran out of memory within the mail's "
                                  f"{self.config.mail_memory_mb} MB (limits.mail_memory_mb)")
                        told = "reading it needed more memory than the judge gives one mail"
                    else:
                        log.exception("failed to handle %s", key)
                        reason = f"{type(exc).__name__}: {exc}"
                        told = ("the judge failed while reading it (a fault of the judge, "
                                "which its operator can see)")
                if not line:  # (a time budget that ran out after the commit is no failure)
                    self._set_aside(key, raw, reason, lines, told)
                    continue
                lines.append(line)
                self.fault("before-move")
                self._move(key, ok=True)
                if self.background is not None:
                    self.relay(wait=False)  # the acknowledgement leaves while we go on
        finally:
            closing = getattr(mails, "close", None)
            if closing is not None:
                closing()
        return count

    @property
    def _memory_budget(self) -> int:
        return self.config.mail_memory_mb * 1024 * 1024

    def _set_aside(self, key: str, raw: bytes, reason: str, lines: list[str],
                   told: str = "") -> None:
        """Record a mail the judge could not handle (nothing of it was
        applied: its transaction rolled back) as failed, with ``reason``,
        tell its sender ``told`` (if it may get a reply), and move it to
        Failed. Read from its first header lines only (the whole of it may
        be what costs too much)."""
        self._rollback()  # a budget that ran out in a rollback
        reason = redact.mask_secrets(reason)[:500]
        log.error("mail %s set aside (Failed): %s", key, reason)
        mail = aside.headers_only(raw)
        with self.store.atomic():
            self.store.record_inbox(
                pipeline.Handled("failed", reason, "").inbox_row(mail, key, self.now()))
            box = Outbox(self.store, self.config, self.now())
            if told and box.may_answer(mail.from_addr):
                box.queue(
                    mail.from_addr, "Your mail was not carried out",
                    reports.render("common/notice.txt.j2", text=(
                        f"Your mail{_which(mail)} was not carried out: {told}.\n"
                        "Nothing in it was done, and it will not be read again. If it "
                        "held orders or commands, send them again in a new, plain mail; "
                        "if this happens again, tell the judge's operator.")),
                    "notice", in_reply_to=mail.message_id)
        if box.queued:
            self.relayer.fresh = True  # the relay has something new to start
        self._aside.add(key)
        self.cycle_failed.append(reason)
        lines.append(f"{key}: failed: {reason}")
        self._move(key, ok=False)
        self._aside.discard(key)

    def _move_theirs(self, key: str) -> None:
        """Move a mail another daemon handled (it may be moving it too)."""
        try:
            self.inbound.done(key, True)
        except (KeyError, OSError) as exc:
            if is_fault(exc):
                raise
            log.debug("mail %s: moved by its own daemon meanwhile (%s)", key, exc)

    def _move(self, key: str, ok: bool) -> None:
        """Move a handled mail out of the inbox, within a mail's budget; a
        mail whose kept copy cannot be masked within it (or at all) is
        moved as it came, and the log says so."""
        try:
            with budget.mail_budget(self.config.mail_seconds, self._memory_budget):
                self.inbound.done(key, ok)
            return
        except Crash:
            raise
        except KeyError:  # another reader took it meanwhile: nothing to move
            log.warning("mail %s was gone from the inbox before it could be moved", key)
            return
        except (budget.OverBudget, Exception) as exc:
            if isinstance(exc, Exception) and is_fault(exc):
                raise
            if not isinstance(self.inbound, MaildirInbound):
                raise
            log.warning("mail %s: its kept copy could not be masked (%s); moved as it came, "
                        "so it may hold a token in clear", key, exc)
        self.inbound.done(key, ok, redact=False)
