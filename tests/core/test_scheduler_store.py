"""Deadlines (pure) and the store (migrations, tokens)."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from judge.game import scheduler as sch
from judge.relay import Ledger
from judge.store import MIGRATIONS, Store, check_token, hash_token, new_token, set_kdf_cost

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

#: The store's tests run on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True


@pytest.fixture
def target(tmp_path: Path, database: str) -> Path | str:
    """What the tests open: an SQLite file, or a fresh PostgreSQL schema's URL."""
    return tmp_path / "j.db" if database == "judge.db" else database


def test_clock_remind_late_process() -> None:
    clock = sch.plan(NOW, "S1901M", sch.DEFAULT_SETTINGS, "orders")
    assert clock.deadline == NOW + timedelta(hours=48)
    assert sch.due(NOW, clock, everyone_in=False) is None
    assert sch.due(NOW + timedelta(hours=36), clock, False) is sch.Due.REMIND
    reminded = sch.Clock(**{**clock.__dict__, "reminded": True})
    assert sch.due(NOW + timedelta(hours=36), reminded, False) is None
    at_deadline = NOW + timedelta(hours=48)
    assert sch.due(at_deadline, reminded, everyone_in=True) is sch.Due.PROCESS
    assert sch.due(at_deadline, reminded, everyone_in=False) is sch.Due.LATE
    noticed = sch.Clock(**{**reminded.__dict__, "late_notice": True})
    assert sch.due(at_deadline, noticed, False) is None
    assert sch.due(at_deadline + timedelta(hours=24), noticed, False) is sch.Due.PROCESS


def test_no_grace_means_process_at_the_deadline() -> None:
    settings = {**sch.DEFAULT_SETTINGS, "grace_hours": 0, "reminder_hours": 0}
    clock = sch.plan(NOW, "p", settings, "action")
    assert clock.deadline == NOW + timedelta(hours=24)  # action_hours
    assert clock.remind_at is None and clock.grace_until is None
    assert sch.due(clock.deadline, clock, everyone_in=False) is sch.Due.PROCESS


def test_extend_is_capped_per_phase() -> None:
    clock = sch.plan(NOW, "p", sch.DEFAULT_SETTINGS, "orders")
    one = sch.extend(clock, 48, sch.DEFAULT_SETTINGS)
    assert one.deadline == clock.deadline + timedelta(hours=48)
    with pytest.raises(sch.ExtendRefused, match="24 hours are left"):
        sch.extend(one, 48, sch.DEFAULT_SETTINGS)
    with pytest.raises(sch.ExtendRefused):
        sch.extend(one, -1, sch.DEFAULT_SETTINGS)
    row = sch.extend(one, 24, sch.DEFAULT_SETTINGS).to_row("g")
    assert sch.Clock.from_row(row).extended_hours == 72


def test_times_are_stored_in_utc_and_shown_in_the_seat_zone() -> None:
    text = sch.iso(NOW)
    assert text == "2026-03-01T12:00:00+00:00"
    assert sch.local(text, "Europe/Paris") == "Sun 01 Mar 2026 13:00 CET"
    assert sch.local(text, "America/New_York").endswith("07:00 EST")
    with pytest.raises(ValueError, match="IANA"):
        sch.zone("Mars/Olympus")


def test_migrations_are_versioned_and_idempotent(target: Path | str) -> None:
    store = Store.open(target)
    assert store.schema_version() == len(MIGRATIONS)
    assert store.migrate() == []
    if store.postgres:
        # First come first (standby lists) without SQLite's rowid: a column of its own.
        columns = {r["c"] for r in store._query(
            "select column_name as c from information_schema.columns "
            "where table_schema = current_schema() and table_name = 'standby'")}
        assert {"league", "address", "added", "offered", "rowid"} == columns
    else:
        mode = next(iter(store.db.query("PRAGMA journal_mode")))["journal_mode"]
        assert mode == "wal"
    for table in ("games", "seats", "actions", "snapshots", "inbox", "outbox", "deadlines"):
        assert table in store.table_names()
    store.close()
    assert Store.open(target).migrate() == []  # a second opening migrates nothing


def test_tokens_are_hashed_slowly_and_checked() -> None:
    set_kdf_cost(2**8)
    token = new_token()
    stored = hash_token(token)
    assert token not in stored and stored.startswith("scrypt$256$")
    assert check_token(token, stored)
    assert not check_token(token + "x", stored)
    assert not check_token(token, None)
    assert not check_token(token, "garbage")
    assert hash_token(token) != stored  # salted


def test_a_matched_token_is_not_hashed_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat's next mail costs an HMAC, not a second scrypt; a wrong token
    always pays the full scrypt and still fails."""
    set_kdf_cost(2**8)
    token = new_token()
    stored = hash_token(token)
    calls: list[int] = []
    real = hashlib.scrypt

    def counting(*args: Any, **kw: Any) -> bytes:
        calls.append(1)
        return real(*args, **kw)

    monkeypatch.setattr(hashlib, "scrypt", counting)
    assert check_token(token, stored) and len(calls) == 1
    assert check_token(token, stored) and len(calls) == 1  # remembered
    assert not check_token(token + "x", stored) and len(calls) == 2
    other = hash_token(token)  # the same token, a new hash (a REPLACE, a reset)
    assert check_token(token, other) and len(calls) == 4
    assert not check_token(new_token(), other) and len(calls) == 5


@pytest.mark.sqlite_only  # BEGIN IMMEDIATE; PostgreSQL's writers lock rows, not the database
def test_two_writers_queue_up_instead_of_failing(tmp_path: Path) -> None:
    """A second connection writing while the first holds a transaction waits
    for it (BEGIN IMMEDIATE + busy timeout) and then succeeds."""
    import threading

    a = Store.open(tmp_path / "j.db")
    done: list[str] = []
    with a.atomic():
        a.db.execute("insert into ratelimit (address, kind, last) values ('x', 'k', '1')")

        def other() -> None:
            b = Store.open(tmp_path / "j.db")  # its own connection, in its thread
            with b.atomic():
                b.db.execute("insert into ratelimit (address, kind, last) values ('y', 'k', '2')")
            b.close()
            done.append("b")

        t = threading.Thread(target=other)
        t.start()
        t.join(0.3)
        assert done == []  # b waits for a's lock
    t.join(10)
    assert done == ["b"]
    rows = {r["address"] for r in a.db.query("select address from ratelimit")}
    assert rows == {"x", "y"}
    a.close()


def test_a_failed_transaction_leaves_nothing(target: Path | str) -> None:
    store = Store.open(target)
    with pytest.raises(RuntimeError), store.atomic():
        store._write("insert into ratelimit (address, kind, last) values ('x', 'k', '1')", [])
        with store.atomic():
            store._write("insert into ratelimit (address, kind, last) values ('y', 'k', '1')",
                         [])
        raise RuntimeError("crash")
    assert list(store._query("select * from ratelimit")) == []
    store.close()


def _mail(message_id: str) -> dict[str, str]:
    return {"message_id": message_id, "to_addr": "a@example.org", "envelope_from": "",
            "kind": "reply", "raw": "x", "created": "2026-01-01T00:00:00+00:00",
            "next_attempt": "2026-01-01T00:00:00+00:00", "game": "", "in_reply_to": ""}  # fmt: skip


def test_a_mail_reported_bounced_before_its_send_is_recorded_stays_bounced(
        target: Path | str) -> None:
    """With a background relay the daemon reads its inbox while a mail is on
    its way; the delivery report of that mail may be read before the relay
    records the send: recording it then keeps ``bounced`` (the send time and
    the cleared claim are recorded all the same). A mail with no report
    becomes ``sent``."""
    store = Store.open(target)
    store.queue_mail(_mail("<a@x>"))
    store.queue_mail(_mail("<b@x>"))
    a, b = store.outbox()
    now, until = "2026-01-01T00:00:00+00:00", "2026-01-01T00:05:00+00:00"
    assert Ledger(store).claim([a["id"], b["id"]], "relay-1", now, until) == [a["id"], b["id"]]
    store.mark_bounced(a["id"], "5.1.1 user unknown")
    Ledger(store).mark_sent(a["id"], "2026-01-01T00:01:00+00:00")
    Ledger(store).mark_sent(b["id"], "2026-01-01T00:01:00+00:00")
    a, b = store.outbox()
    assert (a["status"], a["last_error"], a["sent"], a["claimed_by"]) == (
        "bounced", "5.1.1 user unknown", "2026-01-01T00:01:00+00:00", "")  # fmt: skip
    assert (b["status"], b["sent"], b["claimed_by"]) == ("sent", "2026-01-01T00:01:00+00:00", "")
    store.close()


def test_a_write_outside_a_transaction_is_committed_at_once(target: Path | str) -> None:
    """The store writes hot-path rows with sqlite3 directly; outside
    ``atomic()`` each write stands on its own, inside it waits for the
    transaction like the others."""
    store = Store.open(target)
    store.queue_mail(_mail("<a@x>"))
    assert not store.in_transaction()
    store.queue_mail(_mail("<a@x>"))  # the same Message-ID is never queued twice
    [row] = store.outbox()
    Ledger(store).mark_retry(row["id"], 1, "2026-01-01T00:02:00+00:00", "421 busy")
    with pytest.raises(RuntimeError), store.atomic():
        store.queue_mail(_mail("<b@x>"))
        Ledger(store).mark_sent(row["id"], "2026-01-01T00:01:00+00:00")
        raise RuntimeError("crash")
    store.close()
    again = Store.open(target)
    [row] = again.outbox()
    assert (row["message_id"], row["status"], row["attempts"], row["last_error"]) == (
        "<a@x>", "queued", 1, "421 busy")  # fmt: skip
    again.close()
