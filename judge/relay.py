"""The outbox relay: claims queued mail, sends it through the outbound
transport (in the background, over several SMTP sessions, when the transport
can), and records how each send went, with retries and backoff."""

from __future__ import annotations

import logging
from concurrent.futures import Future
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from judge import bounces, scheduler
from judge.mailout import PermanentFailure, ServerUnavailable, TemporaryFailure

if TYPE_CHECKING:
    from judge.service import Judge

log = logging.getLogger("judge")

RELAY_WINDOW = 8
"""How many outbox mails may be on their way at once (see :meth:`Relay.run`)."""


class Relay:
    """The relay of one judge: what is on its way, and whether the server is away."""

    def __init__(self, judge: Judge) -> None:
        self.judge = judge
        #: Outbox mails being sent in the background, by id.
        self.in_flight: dict[int, tuple[dict[str, Any], Future[None]]] = {}
        self.down = False

    def run(self, *, wait: bool = True) -> list[str]:
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
        if wait and not self.judge.cycling:
            self.down = False  # a pass of its own (a cycle is one pass)
        background = self.judge.background is not None
        while True:
            # Between mails (not waiting), only what was queued since the
            # last look needs starting; retries wait for the full pass.
            started = self._start(sent) if wait or self.judge.fresh_mail else 0
            if not background:
                return sent
            finished = self.collect(sent, wait=wait)
            if not wait or not (started or finished) or self.down:
                return sent
            # Waiting: go on while mail is left beyond the window.

    def _start(self, sent: list[str]) -> int:
        """Start (or, without a background transport, send) the due mail;
        return how many were started."""
        if self.down:
            return 0
        started = 0
        self.judge.fresh_mail = False
        background = self.judge.background
        for mrow in self.judge.store.due_mail(scheduler.iso(self.judge.now())):
            if mrow["id"] in self.in_flight:
                continue
            if background is not None:
                if len(self.in_flight) >= RELAY_WINDOW:
                    self.judge.fresh_mail = True  # the rest starts at the next call
                    break
                future = background.start(mrow["envelope_from"], mrow["to_addr"], mrow["raw"])
                self.in_flight[mrow["id"]] = (mrow, future)
                started += 1
                continue
            failure: TemporaryFailure | PermanentFailure | None = None
            try:
                self.judge.outbound.send(mrow["envelope_from"], mrow["to_addr"], mrow["raw"])
            except (TemporaryFailure, PermanentFailure) as exc:
                failure = exc
            self._relayed(mrow, failure, sent)
            started += 1
            if self.down:
                break  # every other mail would fail the same way now
        return started

    def collect(self, sent: list[str], *, wait: bool) -> int:
        """Record the background sends that finished (all of them, waiting
        for each, when ``wait``), in the order they were queued, in one
        transaction; return how many."""
        done = [i for i in sorted(self.in_flight) if wait or self.in_flight[i][1].done()]
        if done:
            with self.judge.store.atomic():
                for mail_id in done:
                    self._record_sent(mail_id, sent)
        return len(done)

    def _record_sent(self, mail_id: int, sent: list[str]) -> None:
        """Wait for background send ``mail_id`` and record how it went."""
        mrow, future = self.in_flight.pop(mail_id)
        failure: TemporaryFailure | PermanentFailure | None = None
        try:
            future.result()
        except (TemporaryFailure, PermanentFailure) as exc:
            failure = exc
        except Exception as exc:  # a transport bug: retry later, like a 4xx
            log.exception("relay: sending mail %s failed", mail_id)
            failure = TemporaryFailure(f"{type(exc).__name__}: {exc}")
        if isinstance(failure, ServerUnavailable) and self.down:
            return  # the server is away: this pass already counted it
        self._relayed(mrow, failure, sent)

    def _relayed(
        self,
        mrow: dict[str, Any],
        failure: TemporaryFailure | PermanentFailure | None,
        sent: list[str],
    ) -> None:
        """Record how sending outbox mail ``mrow`` went."""
        now = self.judge.now()
        if isinstance(failure, TemporaryFailure):
            attempts = int(mrow["attempts"]) + 1
            wait = min(60 * 2**attempts, 6 * 3600)
            self.judge.store.mark_retry(
                mrow["id"], attempts, scheduler.iso(now + timedelta(seconds=wait)), str(failure)
            )
            if isinstance(failure, ServerUnavailable):
                log.warning("relay: %s; the outbox waits", failure)
                self.down = True
            return
        if isinstance(failure, PermanentFailure):
            with self.judge.store.atomic():  # 5xx: the address is bouncing; tell the GM
                self.judge.store.mark_failed(mrow["id"], str(failure))
                bounces.bounced(self.judge, mrow, str(failure), reported=False)
            return
        self.judge.fault("sent")
        self.judge.store.mark_sent(mrow["id"], scheduler.iso(now))
        sent.append(mrow["message_id"])
