"""The outbox relay: claims queued mail, sends it through the outbound
transport (in the background, over several SMTP sessions, when the transport
can), and records how each send went, with retries and backoff.

Claims. Every outgoing row is claimed before it is sent: in one short write
transaction the relay writes its id (``host:pid:random``, one per relay) and
the end of a lease (:data:`CLAIM_LEASE`) into the row, and sends only the
rows whose claim took (:meth:`Ledger.claim`). So two relays
on one database, in one process or in two, never send one row twice: the
second finds the row claimed, or already sent. Recording the outcome
(sent, retry later, failed) clears the claim; so does :meth:`Relay.close`
for the rows it did not get to.

A claim is taken again only when its lease has run out, or when the process
that made it, on this host, no longer exists (the relay checks the claims it
finds at the start of each full pass). That is the one place where a mail is
sent twice: a process killed after the server took a mail and before the
relay recorded it leaves the row queued and claimed; the next relay sends it
again, under the same Message-ID, which mail clients fold into one. At most
:data:`RELAY_WINDOW` mails are claimed by one relay at a time.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import secrets
import socket
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from judge import bounces, outbox
from judge.game import scheduler
from judge.hub import Hub
from judge.mail.mailout import (
    BackgroundOutbound,
    OutboundTransport,
    PermanentFailure,
    ServerUnavailable,
    TemporaryFailure,
)
from judge.store import Store, is_fault

log = logging.getLogger("judge")

RELAY_WINDOW = 8
"""How many outbox mails may be on their way at once (see :meth:`Relay.run`);
also how many one relay claims at a time."""

DUE_PAGE = 200
"""How many outbox rows (without their text) the relay reads at a time."""

CLAIM_LEASE = timedelta(minutes=10)
#: The longest a failed mail waits for its next attempt.
MAX_RETRY_WAIT = timedelta(hours=6)


def _ahead(now: str, span: timedelta) -> str:
    """``now`` plus ``span`` (ISO): a retry or a claim dated later than that
    was set while the clock ran ahead, and is taken as due or expired (a
    clock moved back never holds mail back for the time it had run ahead)."""
    return scheduler.iso(datetime.fromisoformat(now) + span)
"""How long a claim holds: far longer than any send (the SMTP timeout is a
minute), so a claim runs out only when its relay died or lost its database."""

Failure = TemporaryFailure | PermanentFailure | None


def relay_id() -> str:
    """A new claimant id: ``host:pid:random`` (one per :class:`Relay`, so two
    judges in one process are two claimants)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def claimant_gone(claimant: str) -> bool:
    """Whether the relay ``claimant`` ran on this host in a process that no
    longer exists (a zombie counts as gone). Claims made elsewhere, by this
    process, or by a process that still runs are never taken for gone."""
    host, _, rest = claimant.partition(":")
    pid_text = rest.partition(":")[0]
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    pid = int(pid_text)
    if pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:
        return False  # it exists, as another user
    try:  # Linux: a killed process its parent has not reaped yet
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[-1].split()[:1] in (["Z"], ["X"])


_UNCLAIMED = {"claimed_by": "", "claimed_until": ""}


class Ledger:
    """The relay's own records in the outbox table: which rows are due,
    their texts, the claims on them, and how each send went (sent, retry
    later and when, failed, waiting for the server). Only the relay writes
    them (a delivery report read later marks a row bounced:
    :meth:`judge.store.Store.mark_bounced`)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    #: The outbox columns :meth:`due_mail` reads: all but the texts.
    _MAIL_META = ("id, message_id, to_addr, envelope_from, subject, kind, game, status, "
                  "attempts, next_attempt, last_error, created, sent, in_reply_to, decision, "
                  "claimed_by, claimed_until, waits_for_server")

    def due_mail(self, now: str, claimant: str | None = None, *, after: int = 0,
                 limit: int | None = None) -> list[dict[str, Any]]:
        """Queued mail due at ``now``, oldest first, without its text (the
        relay reads that per batch: :meth:`mail_texts`); only rows after id
        ``after``, at most ``limit`` of them. With ``claimant``, rows another
        relay holds a live claim on are left out (the others may still be
        taken before the caller claims them: :meth:`claim`)."""
        sql = (f"select {self._MAIL_META} from outbox where status = 'queued' "
               "and (next_attempt <= ? or next_attempt > ?) and id > ?")
        params: list[Any] = [now, _ahead(now, MAX_RETRY_WAIT + timedelta(hours=1)), after]
        if claimant is not None:
            sql += (" and (claimed_until = '' or claimed_until < ? or claimed_until > ? "
                    "or claimed_by = ?)")
            params += [now, _ahead(now, CLAIM_LEASE + timedelta(minutes=1)), claimant]
        sql += " order by id"
        if limit is not None:
            sql += f" limit {int(limit)}"
        return list(self.store._query(sql, params))

    def mail_texts(self, ids: Sequence[int]) -> dict[int, bytes]:
        """The message text (``raw``) of those outbox rows ``ids`` that
        are composed (:mod:`judge.outbox`)."""
        if not ids:
            return {}
        marks = ", ".join("?" * len(ids))
        return {int(r["id"]): bytes(r["raw"]) for r in self.store._query(
            f"select id, raw from outbox where id in ({marks}) and raw is not null", list(ids))}

    # Claims: a relay claims an outbox row before it sends it:
    # ``claimed_by`` names the relay (``host:pid:random``), ``claimed_until``
    # ends the lease. The marks below clear the claim. A claim whose lease
    # ran out, or whose process is gone (the relay releases those), may be
    # taken again: that is the one place where a mail that was on its way
    # when its process died is sent a second time, under its Message-ID.

    def claim(self, ids: Sequence[int], claimant: str, now: str, until: str) -> list[int]:
        """Claim the queued, due outbox rows ``ids`` for ``claimant`` until
        ``until``, in one short write transaction; returns the ids whose
        claim took, in the order given. A row can be claimed when nobody
        holds it, when its claim expired (``claimed_until < now``) or when
        ``claimant`` holds it already; not once another relay has sent,
        failed or rescheduled it."""
        took: list[int] = []
        if not ids:
            return took
        with self.store.atomic():
            for mail_id in ids:
                cursor = self.store._write(
                    "UPDATE outbox SET claimed_by = ?, claimed_until = ? "
                    "WHERE id = ? AND status = 'queued' "
                    "AND (next_attempt <= ? OR next_attempt > ?) "
                    "AND (claimed_until = '' OR claimed_until < ? OR claimed_until > ? "
                    "OR claimed_by = ?)",
                    [claimant, until, mail_id, now,
                     _ahead(now, MAX_RETRY_WAIT + timedelta(hours=1)), now,
                     _ahead(now, CLAIM_LEASE + timedelta(minutes=1)), claimant],
                )
                if cursor.rowcount == 1:
                    took.append(mail_id)
        return took

    def release_claims(self, claimant: str, ids: Sequence[int] | None = None) -> int:
        """Drop ``claimant``'s claims on queued rows (only on ``ids``, if
        given), so that any relay may send them; returns how many."""
        sql = ("UPDATE outbox SET claimed_by = '', claimed_until = '' "
               "WHERE claimed_by = ? AND status = 'queued'")
        params: list[Any] = [claimant]
        if ids is not None:
            if not ids:
                return 0
            sql += f" AND id IN ({', '.join('?' * len(ids))})"
            params += list(ids)
        return int(self.store._write(sql, params).rowcount)

    def claimants(self) -> list[str]:
        """Who holds claims (live or expired) on queued rows."""
        return [r["claimed_by"] for r in self.store._query(
            "select distinct claimed_by from outbox where status = 'queued' "
            "and claimed_by != '' order by claimed_by")]

    def _forget_secrets(self, mail_id: int) -> None:
        """A mail that has left (or never will): its redacted copy replaces it."""
        self.store._write(
            "update outbox set raw = kept, kept = null where id = ? and kept is not null",
            [mail_id])

    def mark_sent(self, mail_id: int, now: str) -> None:
        """``mail_id`` has left. A mail whose delivery report was read before
        its send was recorded (a background send, the inbox read meanwhile)
        stays ``bounced``."""
        self.store._write(
            "update outbox set status = case when status = 'bounced' then status "
            "else 'sent' end, sent = ?, waits_for_server = 0, claimed_by = '', "
            "claimed_until = '' where id = ?", [now, mail_id])
        self._forget_secrets(mail_id)

    def mark_retry(self, mail_id: int, attempts: int, next_attempt: str, error: str, *,
                   unreachable: bool = False) -> None:
        """Try ``mail_id`` again at ``next_attempt``; ``unreachable``: it
        failed because the server could not be reached at all (see
        :meth:`server_back`)."""
        fields = {"attempts": attempts, "next_attempt": next_attempt, "last_error": error,
                  "waits_for_server": int(unreachable), **_UNCLAIMED}
        self.store._update("outbox", "id", mail_id, fields)

    def server_back(self, now: str) -> int:
        """The server answers again: every queued mail that waits out a
        backoff only because it could not be reached is due at ``now``;
        returns how many."""
        return int(self.store._write(
            "update outbox set next_attempt = ?, waits_for_server = 0 "
            "where status = 'queued' and waits_for_server = 1", [now]).rowcount)

    def mark_failed(self, mail_id: int, error: str) -> None:
        self.store._update("outbox", "id", mail_id,
                     {"status": "failed", "last_error": error, **_UNCLAIMED})
        self._forget_secrets(mail_id)


class Relay:
    """The relay of one judge and its state: its claims, what is on its
    way, what was sent but not yet recorded, whether there is new mail to
    start, and whether the server is away. It reads the outbox and records
    each outcome (sent, retry later, failed) itself; the judge only tells
    it when new mail was queued (:attr:`fresh`) and when a cycle's pass
    begins and ends (:meth:`one_pass`)."""

    def __init__(self, judge: Hub) -> None:
        self.judge = judge
        #: Whether mail was queued since the relay last looked (between
        #: mails, a relay with nothing new starts nothing).
        self.fresh = True
        #: Whether a pass of the judge's cycle is under way (:meth:`one_pass`).
        self.cycling = False
        self._transport: OutboundTransport | None = None
        self._background: BackgroundOutbound | None = None
        #: Outbox mails being sent in the background, by id.
        self.in_flight: dict[int, tuple[dict[str, Any], Future[None]]] = {}
        #: Mails whose outcome could not be recorded yet (the database was
        #: busy), by id: recorded at the next pass, never sent again.
        self.unrecorded: dict[int, tuple[dict[str, Any], Failure]] = {}
        self.down = False
        #: This relay's id in the outbox's ``claimed_by``.
        self.claimant = relay_id()
        #: Whether it may hold claims (so a judge that never relayed, a CLI
        #: command, closes without a write).
        self.claimed = False
        #: Whether a send went through since the server was last found away
        #: (False at first: an earlier run may have left mail waiting for it).
        self.seen_back = False
        #: Set when mail that waited for the server was made due again.
        self.resumed = False

    @property
    def ledger(self) -> Ledger:
        """This relay's records in the judge's outbox."""
        return Ledger(self.judge.store)

    @property
    def background(self) -> BackgroundOutbound | None:
        """The judge's outbound transport, when it sends in the background
        (checked once per transport: a runtime protocol check costs too
        much per mail)."""
        transport = self.judge.outbound
        if transport is not self._transport:
            self._transport = transport
            self._background = (transport if isinstance(transport, BackgroundOutbound)
                                else None)
        return self._background

    @contextlib.contextmanager
    def one_pass(self) -> Iterator[None]:
        """One pass of the judge's cycle: the server is taken as there again
        at its start, and every :meth:`run` within it is part of the pass."""
        self.down = False
        self.cycling = True
        try:
            yield
        finally:
            self.cycling = False

    def run(self, *, wait: bool = True) -> list[str]:
        """Send what the outbox holds, with retries on temporary failures;
        return the Message-IDs sent.

        With a transport that sends in the background
        (:class:`~judge.mail.mailout.BackgroundOutbound`, i.e. SMTP) due mails
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
        under its own Message-ID, which mail clients fold into one).

        Every mail is claimed before it is sent (see the module docstring).
        A busy database (``sqlite3.OperationalError``, :func:`judge.store.is_busy`)
        propagates: nothing more starts, and what was sent but not recorded
        is recorded at the next pass, not sent again."""
        sent: list[str] = []
        if wait and not self.cycling:
            self.down = False  # a pass of its own (a cycle is one pass)
        if wait:
            self._free_stale()
        background = self.background is not None
        while True:
            # Between mails (not waiting), only what was queued since the
            # last look needs starting; retries wait for the full pass.
            started = self._start(sent) if wait or self.fresh else 0
            if not background:
                if self.resumed and not self.down:  # what waited for the server goes now
                    self.resumed = False
                    continue
                return sent
            finished = self.collect(sent, wait=wait)
            if not wait or not (started or finished) or self.down:
                return sent
            # Waiting: go on while mail is left beyond the window.

    def close(self) -> None:
        """Record what is on its way (waiting for it), then give up this
        relay's claims on the rows it did not send: any relay sends those."""
        try:
            if self.in_flight:
                self.collect([], wait=True)
            if self.unrecorded:
                self._record_unrecorded([])
        except Exception:
            log.exception("relay: could not record the mails being sent")
        if not self.claimed:
            return
        try:
            self.ledger.release_claims(self.claimant)
            self.claimed = False
        except Exception as exc:  # the lease runs out by itself
            log.warning("relay: could not release its claims (%s); they lapse in %s",
                        exc, CLAIM_LEASE)  # fmt: skip

    # ----------------------------------------------------------------- claims

    def _claim(self, ids: list[int], now: datetime) -> set[int]:
        self.claimed = True
        return set(self.ledger.claim(ids, self.claimant, scheduler.iso(now),
                                    scheduler.iso(now + CLAIM_LEASE)))  # fmt: skip

    def _free_stale(self) -> None:
        """Release the claims of relays whose process is gone (this host only)."""
        for claimant in self.ledger.claimants():
            if claimant == self.claimant or not claimant_gone(claimant):
                continue
            count = self.ledger.release_claims(claimant)
            if count:
                log.warning(
                    "relay: %s is gone; the %d mail(s) it had claimed go again (one it had "
                    "already handed to the server arrives twice, under one Message-ID)",
                    claimant, count,
                )  # fmt: skip

    # ----------------------------------------------------------------- sending

    def _start(self, sent: list[str]) -> int:
        """Claim and start (or, without a background transport, send) the
        due mail; return how many were started."""
        if self.unrecorded:
            self._record_unrecorded(sent)
        if self.down:
            return 0
        started = 0
        self.fresh = False
        background = self.background
        self.compose()
        due = self._due(scheduler.iso(self.judge.now()))
        while not self.down:
            room = RELAY_WINDOW - len(self.in_flight) if background is not None else RELAY_WINDOW
            if room <= 0:
                self.fresh = True  # the rest starts at the next call
                break
            batch = list(itertools.islice(due, room))
            if not batch:
                break
            took = self._claim([m["id"] for m in batch], self.judge.now())
            mine = self._with_text([m for m in batch if m["id"] in took])
            if background is not None:
                for mrow in mine:
                    future = background.start(mrow["envelope_from"], mrow["to_addr"],
                                              mrow.pop("raw"))
                    self.in_flight[mrow["id"]] = (mrow, future)
                    started += 1
                continue
            started += self._send_each(mine, sent)
        return started

    def _due(self, now: str) -> Iterator[dict[str, Any]]:
        """The due mail not on its way already, oldest first, read from the
        outbox a page at a time and without its text (a backlog of any size
        costs one page of rows in memory)."""
        after = 0
        while True:
            page = self.ledger.due_mail(now, self.claimant, after=after, limit=DUE_PAGE)
            if not page:
                return
            after = int(page[-1]["id"])
            for mrow in page:
                if mrow["id"] not in self.in_flight and mrow["id"] not in self.unrecorded:
                    yield mrow

    def compose(self, ids: list[int] | None = None) -> int:
        """Compose the queued mail not composed yet (of ``ids``): see
        :func:`judge.outbox.compose_queued`."""
        return outbox.compose_queued(self.judge.store, ids, fault=self.judge.fault)

    def _with_text(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """``rows`` with each one's message text (``raw``), read for just
        these; a row queued since this pass composed the outbox (by another
        process) is composed first."""
        ids = [m["id"] for m in rows]
        texts = self.ledger.mail_texts(ids)
        if len(texts) < len(ids):
            self.compose([i for i in ids if i not in texts])
            texts = self.ledger.mail_texts(ids)
        return [{**m, "raw": texts[m["id"]]} for m in rows if m["id"] in texts]

    def _send_each(self, rows: list[dict[str, Any]], sent: list[str]) -> int:
        """Send claimed ``rows`` one by one (a transport without a
        background), then record how each went, all in one transaction (one
        commit for the batch, not one per mail); return how many were tried.
        Rows not tried (the server went away, or something raised) have
        their claims released."""
        tried = 0
        outcomes: list[tuple[dict[str, Any], Failure]] = []
        try:
            for mrow in rows:
                if self.down:
                    break  # every other mail would fail the same way now
                failure: Failure = None
                tried += 1
                try:
                    self.judge.outbound.send(mrow["envelope_from"], mrow["to_addr"],
                                             mrow.pop("raw"))
                except (TemporaryFailure, PermanentFailure) as exc:
                    failure = exc
                else:
                    self.judge.fault("sent")  # the server has it, not yet recorded
                outcomes.append((mrow, failure))
                if isinstance(failure, ServerUnavailable):
                    break  # recorded below, which marks the server down
        finally:
            try:
                self._record(outcomes, sent)
            finally:
                rest = [m["id"] for m in rows[tried:]]
                if rest:
                    with contextlib.suppress(Exception):  # else they lapse with the lease
                        self.ledger.release_claims(self.claimant, rest)
        return tried

    def _record(self, outcomes: list[tuple[dict[str, Any], Failure]],
                sent: list[str]) -> None:
        """:meth:`_relayed` for each of ``outcomes`` in one transaction,
        keeping them all for the next pass when the database is busy (the
        mails have gone: they must not go again)."""
        if not outcomes:
            return
        try:
            with self.judge.store.atomic():
                for mrow, failure in outcomes:
                    self._relayed(mrow, failure, sent, reached=True)
        except Exception as exc:
            if is_fault(exc):  # busy, or a full disk: recorded at the next pass
                for mrow, failure in outcomes:
                    self.unrecorded[mrow["id"]] = (mrow, failure)
            raise

    def _record_unrecorded(self, sent: list[str]) -> None:
        for mail_id in sorted(self.unrecorded):
            mrow, failure = self.unrecorded[mail_id]
            self._relayed(mrow, failure, sent)
            del self.unrecorded[mail_id]

    def collect(self, sent: list[str], *, wait: bool) -> int:
        """Record the background sends that finished (all of them, waiting
        for each, when ``wait``), in the order they were queued, in one
        transaction; return how many."""
        done = [i for i in sorted(self.in_flight) if wait or self.in_flight[i][1].done()]
        if done:
            for mail_id in done:  # wait outside the transaction
                with contextlib.suppress(Exception):
                    self.in_flight[mail_id][1].exception()
            with self.judge.store.atomic():
                for mail_id in done:
                    self._record_sent(mail_id, sent)
        return len(done)

    def _record_sent(self, mail_id: int, sent: list[str]) -> None:
        """Record how background send ``mail_id`` (finished) went."""
        mrow, future = self.in_flight.pop(mail_id)
        failure: Failure = None
        try:
            future.result()
        except (TemporaryFailure, PermanentFailure) as exc:
            failure = exc
        except Exception as exc:  # a transport bug: retry later, like a 4xx
            log.exception("relay: sending mail %s failed", mail_id)
            failure = TemporaryFailure(f"{type(exc).__name__}: {exc}")
        if isinstance(failure, ServerUnavailable) and self.down:
            # The server is away: this pass already counted it; the mail
            # waits, free for any relay.
            self.ledger.release_claims(self.claimant, [mail_id])
            return
        self._relayed(mrow, failure, sent)

    def _relayed(
        self,
        mrow: dict[str, Any],
        failure: Failure,
        sent: list[str],
        *,
        reached: bool = False,
    ) -> None:
        """Record how sending outbox mail ``mrow`` went (which clears its
        claim); ``reached``: the fault point "sent" was passed already."""
        now = self.judge.now()
        if isinstance(failure, TemporaryFailure):
            attempts = int(mrow["attempts"]) + 1
            wait = min(60 * 2**attempts, MAX_RETRY_WAIT.total_seconds())
            away = isinstance(failure, ServerUnavailable)
            self.ledger.mark_retry(
                mrow["id"], attempts, scheduler.iso(now + timedelta(seconds=wait)), str(failure),
                unreachable=away)
            if away:
                log.warning("relay: %s; the outbox waits", failure)
                self.down = True
                self.seen_back = False
            return
        if isinstance(failure, PermanentFailure):
            with self.judge.store.atomic():  # 5xx: the address is bouncing; tell the GM
                self.ledger.mark_failed(mrow["id"], str(failure))
                bounces.bounced(self.judge, mrow, str(failure), reported=False)
            return
        if not reached:
            self.judge.fault("sent")
        self.ledger.mark_sent(mrow["id"], scheduler.iso(now))
        sent.append(mrow["message_id"])
        if not self.seen_back:  # the server takes mail: nothing waits for it any more
            self.seen_back = True
            back = self.ledger.server_back(scheduler.iso(now))
            if back:
                log.info("relay: the server is back; %d mail(s) that waited for it go now", back)
                self.fresh = True
                self.resumed = True
