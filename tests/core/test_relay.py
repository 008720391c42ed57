"""The relay with a transport that sends in the background (as SMTP does):
mails travel side by side, started in the order they were queued, never
more than the window at once, and a server that is away costs one attempt
per pass, as with a transport that sends one mail at a time."""

from __future__ import annotations

import email
import email.policy
import threading
import time
from collections import defaultdict
from concurrent.futures import Future, ThreadPoolExecutor

import pytest

from judge.game import scheduler
from judge.mail.mailout import BackgroundOutbound, ServerUnavailable
from judge.service import RELAY_WINDOW, Judge

from .conftest import Post
from .helpers import start_sealed

#: The store and the mail pipeline on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True


class Background:
    """Sends on worker threads after a short delay, recording what it carried.

    A delivery that succeeds waits (up to two seconds) until a second one is
    under way at the same time, so that a relay which does start mails side
    by side is seen doing so however slowly a loaded machine composes them;
    a relay that carries one mail at a time makes every delivery wait out the
    two seconds and is still seen as one at a time."""

    name = "background"

    def __init__(self, failure: Exception | None = None) -> None:
        self.failure = failure
        self.pool = ThreadPoolExecutor(max_workers=RELAY_WINDOW + 4)
        self.lock = threading.Lock()
        self.carried: list[tuple[str, str]] = []  # (recipient, Message-ID)
        self.active: dict[str, int] = defaultdict(int)
        self.most_at_once = 0
        self.overlapped = threading.Event()

    def start(self, envelope_from: str, to_addr: str, message: bytes) -> Future[None]:
        return self.pool.submit(self._deliver, to_addr, message)

    def send(self, envelope_from: str, to_addr: str, message: bytes) -> None:
        self.start(envelope_from, to_addr, message).result()

    def _deliver(self, to_addr: str, message: bytes) -> None:
        with self.lock:
            self.active[to_addr] += 1
            self.most_at_once = max(self.most_at_once, sum(self.active.values()))
            if self.most_at_once > 1:
                self.overlapped.set()
        try:
            time.sleep(0.02)
            if self.failure is None:
                self.overlapped.wait(timeout=2.0)
            if self.failure is not None:
                raise self.failure
            msg = email.message_from_bytes(message, policy=email.policy.default)
            with self.lock:
                self.carried.append((to_addr, str(msg["Message-ID"])))
        finally:
            with self.lock:
                self.active[to_addr] -= 1


def _use(judge: Judge, transport: BackgroundOutbound) -> None:
    judge.outbound = transport


# Sends overlap only while a mail is handled faster than a send takes (20 ms
# here): timing, not the store; on a busy machine's PostgreSQL it may not be.
@pytest.mark.sqlite_only
def test_mails_travel_side_by_side_started_in_queue_order(judge: Judge, post: Post) -> None:
    seats = start_sealed(post)  # set up with the Maildir transport
    before = len(judge.store.outbox())
    transport = Background()
    _use(judge, transport)
    started: list[str] = []
    start = transport.start

    def recording(envelope_from: str, to_addr: str, message: bytes) -> Future[None]:
        msg = email.message_from_bytes(message, policy=email.policy.default)
        started.append(str(msg["Message-ID"]))
        return start(envelope_from, to_addr, message)

    transport.start = recording  # type: ignore[method-assign]  # recorded in place of the transport's
    for role, addr in seats.addresses.items():
        for command in ("STATUS", "HELP", "STATUS\nHELP"):
            post.deliver(post.raw(addr, f"{seats.signon(role)}\n{command}\n"))
    judge.cycle()
    rows = judge.store.outbox()[before:]
    assert len(rows) == 9 and all(r["status"] == "sent" for r in rows)
    assert started == [r["message_id"] for r in rows]  # started in queue order
    assert sorted(m for _, m in transport.carried) == sorted(started)  # each once
    assert transport.most_at_once > 1  # they went side by side


# Sends overlap only while a mail is handled faster than a send takes (20 ms
# here): timing, not the store; on a busy machine's PostgreSQL it may not be.
@pytest.mark.sqlite_only
def test_never_more_than_the_window_at_once(judge: Judge, post: Post) -> None:
    transport = Background()
    _use(judge, transport)
    count = RELAY_WINDOW * 2 + 3
    for i in range(count):
        post.deliver(post.raw(f"p{i}@players.example", "HELP\n"))
    judge.cycle()
    assert len(transport.carried) == count
    assert [r["status"] for r in judge.store.outbox()] == ["sent"] * count
    assert 1 < transport.most_at_once <= RELAY_WINDOW


def test_server_away_costs_one_attempt_per_pass(judge: Judge, post: Post) -> None:
    transport = Background(ServerUnavailable("SMTP 127.0.0.1:25: connection refused"))
    _use(judge, transport)
    for i in range(5):
        post.deliver(post.raw(f"p{i}@players.example", "HELP\n"))
    judge.cycle()
    queued = judge.store.outbox("queued")
    assert len(queued) == 5
    assert sorted(r["attempts"] for r in queued) == [0, 0, 0, 0, 1]
    assert transport.carried == []
    # Back again: everything goes at the next pass once the retry is due.
    transport.failure = None
    post.clock.advance(hours=1)
    judge.cycle()
    assert judge.store.outbox("queued") == [] and len(transport.carried) == 5


class Flaky:
    """Sends one mail at a time (no background), or raises ``failure``."""

    name = "flaky"

    def __init__(self, failure: Exception | None = None) -> None:
        self.failure = failure
        self.carried: list[str] = []

    def send(self, envelope_from: str, to_addr: str, message: bytes) -> None:
        if self.failure is not None:
            raise self.failure
        self.carried.append(to_addr)


@pytest.mark.parametrize("background", [True, False], ids=["background", "one-by-one"])
def test_server_back_sends_what_waited_for_it_at_once(judge: Judge, post: Post,
                                                      background: bool) -> None:
    """An outage over several passes leaves several mails waiting out their
    own backoffs (up to minutes); the first mail the server takes again
    makes all of them due, so the same pass sends the whole outbox."""
    away = ServerUnavailable("SMTP 127.0.0.1:25: connection refused")
    transport: Background | Flaky = Background(away) if background else Flaky(away)
    judge.outbound = transport
    for i in range(5):
        post.deliver(post.raw(f"p{i}@players.example", "HELP\n"))
    for _ in range(6):  # passes a minute apart while the server is away
        judge.cycle()
        post.clock.advance(minutes=1)
    queued = judge.store.outbox("queued")
    assert len(queued) == 5
    now = scheduler.iso(judge.now())
    waiting = [r for r in queued if r["next_attempt"] > now]
    assert len(waiting) >= 2, queued  # backoffs of minutes still to run
    transport.failure = None
    post.deliver(post.raw("late@players.example", "HELP\n"))  # due now: it goes first
    judge.cycle()
    assert judge.store.outbox("queued") == []
    assert len(transport.carried) == 6
