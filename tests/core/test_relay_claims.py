"""The relay claims every outbox row before it sends it (``judge.relay``):
two relays on one database, even two judges running at the same moment,
never send a row twice; a claim is taken again only when its lease ran out
or its process is gone; recording the outcome clears it."""

from __future__ import annotations

import contextlib
import email
import email.policy
import logging
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import timedelta
from pathlib import Path

import pytest

from judge.game import scheduler
from judge.mail.mailout import PermanentFailure, ServerUnavailable, TemporaryFailure
from judge.relay import CLAIM_LEASE, RELAY_WINDOW, Ledger, claimant_gone
from judge.service import Crash, Judge
from tests.core.conftest import Clock

#: The store and the mail pipeline on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True


class Counting:
    """An outbound transport shared by several judges: counts every mail it
    carries by Message-ID. The first send of each of ``parties`` relays
    waits for the others to reach theirs, so that all of them have read
    the outbox before any mail goes."""

    name = "counting"

    def __init__(self, parties: int = 1, failure: Exception | None = None) -> None:
        self.lock = threading.Lock()
        self.carried: Counter[str] = Counter()
        self.failure = failure
        self.barrier = threading.Barrier(parties) if parties > 1 else None
        self.local = threading.local()

    def _gate(self) -> None:
        if self.barrier is not None and not getattr(self.local, "passed", False):
            self.local.passed = True
            with contextlib.suppress(threading.BrokenBarrierError):
                self.barrier.wait(timeout=3)

    def send(self, envelope_from: str, to_addr: str, message: bytes) -> None:
        self._gate()
        self._carry(message)

    def _carry(self, message: bytes) -> None:
        time.sleep(0.002)
        if self.failure is not None:
            raise self.failure
        msg = email.message_from_bytes(message, policy=email.policy.default)
        with self.lock:
            self.carried[str(msg["Message-ID"])] += 1


class CountingBackground(Counting):
    """The same, sending in the background (as SMTP does)."""

    def __init__(self, parties: int = 1, failure: Exception | None = None) -> None:
        super().__init__(parties, failure)
        self.pool = ThreadPoolExecutor(max_workers=RELAY_WINDOW * 2)

    def start(self, envelope_from: str, to_addr: str, message: bytes) -> Future[None]:
        self._gate()
        return self.pool.submit(self._carry, message)


def _queue(judge: Judge, count: int) -> list[str]:
    return [judge.outbox().queue(f"p{i % 7}@players.example", f"mail {i}", f"body {i}\n", "notice")
            for i in range(count)]  # fmt: skip


@pytest.mark.parametrize("kind", [Counting, CountingBackground])
def test_two_judges_relaying_at_once_never_send_a_row_twice(
    judge: Judge, home: Path, clock: Clock, kind: type[Counting]
) -> None:
    queued = _queue(judge, 5 * RELAY_WINDOW)
    transport = kind(parties=2)
    errors: list[BaseException] = []

    def relay_in_a_judge_of_its_own() -> None:
        other = Judge.open(home, now=clock)  # its own connection, its own relay
        try:
            other.outbound = transport
            while Ledger(other.store).due_mail(scheduler.iso(clock())):
                other.relay()
        except BaseException as exc:
            errors.append(exc)
        finally:
            other.close()

    threads = [threading.Thread(target=relay_in_a_judge_of_its_own) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    twice = {m: n for m, n in transport.carried.items() if n > 1}
    assert twice == {}
    assert set(transport.carried) == set(queued)
    rows = judge.store.outbox()
    assert [r["status"] for r in rows] == ["sent"] * len(queued)
    assert {(r["claimed_by"], r["claimed_until"]) for r in rows} == {("", "")}


def _claim_as(judge: Judge, claimant: str, until: str, mail_id: int) -> None:
    judge.store._write(
        "update outbox set claimed_by = ?, claimed_until = ? where id = ?",
        [claimant, until, mail_id])


def test_a_live_claim_is_left_alone_until_its_lease_runs_out(judge: Judge, clock: Clock) -> None:
    [message_id] = _queue(judge, 1)
    [row] = judge.store.outbox()
    transport = Counting()
    judge.outbound = transport
    until = scheduler.iso(clock() + CLAIM_LEASE)
    _claim_as(judge, "relay.elsewhere.example:4242:beef", until, row["id"])
    judge.relay()
    assert transport.carried == Counter()
    clock.advance(minutes=9)
    judge.relay()
    assert transport.carried == Counter()
    clock.advance(minutes=2)  # the lease has run out: its relay died
    judge.relay()
    assert transport.carried == Counter({message_id: 1})
    [row] = judge.store.outbox()
    assert (row["status"], row["claimed_by"], row["claimed_until"]) == ("sent", "", "")


def test_claims_of_a_process_that_is_gone_are_taken_again_at_once(
    judge: Judge, clock: Clock, caplog: pytest.LogCaptureFixture
) -> None:
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    alive = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        host = socket.gethostname()
        gone, running = f"{host}:{dead.pid}:dead", f"{host}:{alive.pid}:live"
        assert claimant_gone(gone) and not claimant_gone(running)
        ids = _queue(judge, 2)
        rows = judge.store.outbox()
        until = scheduler.iso(clock() + CLAIM_LEASE)
        _claim_as(judge, gone, until, rows[0]["id"])
        _claim_as(judge, running, until, rows[1]["id"])
        transport = Counting()
        judge.outbound = transport
        with caplog.at_level(logging.WARNING, logger="judge"):
            judge.relay()
        assert transport.carried == Counter({ids[0]: 1})  # the live one's claim holds
        assert any(gone in r.getMessage() and "go again" in r.getMessage()
                   for r in caplog.records)
        assert judge.store.outbox("queued")[0]["claimed_by"] == running
    finally:
        alive.kill()
        alive.wait()


@pytest.mark.parametrize("failure", [
    TemporaryFailure("451 4.3.2 try later"),
    PermanentFailure("550 5.1.1 no such user"),
    ServerUnavailable("connection refused"),
    None,
])  # fmt: skip
@pytest.mark.parametrize("kind", [Counting, CountingBackground])
def test_every_outcome_clears_the_claim(judge: Judge, kind: type[Counting],
                                        failure: Exception | None) -> None:
    _queue(judge, RELAY_WINDOW + 3)  # more than one claim batch
    judge.outbound = kind(failure=failure)
    judge.relay()
    rows = judge.store.outbox()
    assert {(r["claimed_by"], r["claimed_until"]) for r in rows} == {("", "")}
    if failure is None:
        assert {r["status"] for r in rows} == {"sent"}


def test_close_gives_up_the_claims_it_did_not_send(home: Path, clock: Clock) -> None:
    """A judge that stopped in the middle of a pass (here: right after the
    server took a mail, before it was recorded) keeps its claim on that
    mail until it closes; then any relay sends it (again: the documented
    resend, under the same Message-ID)."""
    first = Judge.open(home, now=clock)
    ids = _queue(first, 3)
    first.outbound = carried = Counting()

    def stop_at_the_first_record(point: str) -> None:
        if point == "sent":
            raise Crash("stopped between the send and its record")

    first.fault = stop_at_the_first_record
    with pytest.raises(Crash):
        first.relay()
    assert carried.carried == Counter({ids[0]: 1})
    claims = [r["claimed_by"] for r in first.store.outbox("queued")]
    assert claims == [first.relayer.claimant, "", ""]  # the batch's rest was released
    second = Judge.open(home, now=clock)
    try:
        second.outbound = carried
        second.relay()  # the first judge still holds its claim
        assert carried.carried == Counter({ids[0]: 1, ids[1]: 1, ids[2]: 1})
        first.close()
        second.relay()
        assert carried.carried == Counter({ids[0]: 2, ids[1]: 1, ids[2]: 1})
        assert {r["status"] for r in second.store.outbox()} == {"sent"}
    finally:
        second.close()


def test_a_claim_skips_rows_another_relay_rescheduled(judge: Judge, clock: Clock) -> None:
    """A row read as due but meanwhile tried (and put off) by another relay
    is not claimed: it waits for its next attempt."""
    _queue(judge, 1)
    [row] = judge.store.outbox()
    later = scheduler.iso(clock() + timedelta(minutes=2))
    Ledger(judge.store).mark_retry(row["id"], 1, later, "451 busy")
    now = clock()
    assert Ledger(judge.store).claim([row["id"]], "me", scheduler.iso(now),
                                  scheduler.iso(now + CLAIM_LEASE)) == []  # fmt: skip
    Ledger(judge.store).mark_sent(row["id"], scheduler.iso(now))
    clock.advance(minutes=5)
    now = clock()
    assert Ledger(judge.store).claim([row["id"]], "me", scheduler.iso(now),
                                  scheduler.iso(now + CLAIM_LEASE)) == []  # fmt: skip
