"""Faults of real servers and of the judge's own process: no order is lost
and none is applied twice (DESIGN, Mail pipeline: "A crash at any point loses
no order and applies none twice").

Every test sends order mails over SMTP, lets the fault happen, lets the judge
recover, and then checks the same three things (:func:`assert_each_once`):
each order mail put exactly one ``orders`` entry into the action log and has
exactly one ``processed`` inbox row, the judge's INBOX is empty (everything
moved to Processed), and every order mail got exactly one acknowledgement in
the player's mailbox (one distinct Message-ID; a re-send after a kill between
a send and its record repeats that same Message-ID).
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bench.support.mailplayers import (
    Mail,
    address,
    hand,
    inbox_status,
    judge_config,
    orders_applied,
    parse,
    text_of,
)
from bench.support.mailservers import MailServers, wait_for
from judge.mail.imap import ImapInbound
from judge.service import RELAY_WINDOW, Judge
from tests.core.conftest import Clock

RUN_JUDGE = Path(__file__).resolve().parents[2] / "bench" / "support" / "run_judge.py"


def send_bids(mail: Mail, signon: dict[str, str], count: int, role: str = "North") -> list[str]:
    """``count`` order mails from ``role``: the same seat revising its bid
    (each a valid order that replaces the last), each body made unique by
    the text after END, which the judge does not read."""
    cards = hand(mail.judge, role)
    return [
        mail.send(address(role), f"{signon[role]}\nBID {cards[i % len(cards)]}\nEND\nmail {i}\n")
        for i in range(count)
    ]


def acks(servers: MailServers, role: str = "North") -> Counter[str]:
    """In-Reply-To of every acknowledgement in the player's mailbox, counted
    by distinct Message-ID."""
    by_id: dict[str, str] = {}
    for raw in servers.messages(role.lower()):
        msg = parse(raw)
        if msg["In-Reply-To"]:
            by_id[str(msg["Message-ID"])] = str(msg["In-Reply-To"])
    return Counter(by_id.values())


def assert_each_once(judge: Judge, servers: MailServers, sent: list[str]) -> None:
    assert orders_applied(judge) == Counter({m: 1 for m in sent})
    processed = Counter(m for (m, status), n in inbox_status(judge).items()
                        if status == "processed" for _ in range(n))  # fmt: skip
    assert all(processed[m] == 1 for m in sent)
    assert servers.count("judge") == 0
    waiting = [(r["attempts"], r["last_error"]) for r in judge.store.outbox("queued")]
    assert waiting == [] and judge.store.outbox("failed") == []
    got = acks(servers)
    assert all(got[m] == 1 for m in sent), got


def test_imap_server_restarted_mid_poll(servers: MailServers, judge: Judge, mail: Mail,
                                        clock: Clock) -> None:
    signon = mail.start_sealed()
    sent = send_bids(mail, signon, 10)
    seen = {"n": 0}

    def restart_after_fourth_commit(point: str) -> None:
        # The 4th order is committed but not yet moved when the server goes.
        if point == "committed":
            seen["n"] += 1
            if seen["n"] == 4:
                servers.restart_dovecot()

    judge.fault = restart_after_fourth_commit
    inbound = judge.inbound
    assert isinstance(inbound, ImapInbound)  # the judge reads its mail from Dovecot here
    connects = inbound.connects
    mail.cycle_until(lambda: servers.count("judge") == 0, "the INBOX to empty")
    judge.fault = None
    assert inbound.connects > connects
    # Acknowledgements sent while Dovecot was away were refused for now by
    # the SMTP front (4xx: LMTP down) and wait in the outbox for their retry.
    for _ in range(3):
        clock.advance(minutes=10)
        judge.cycle()
    assert_each_once(judge, servers, sent)
    # The 4th mail came back after the restart and was recognised.
    assert inbox_status(judge)[(sent[3], "duplicate")] == 1


def test_smtp_server_down_for_a_while(servers: MailServers, judge: Judge, mail: Mail,
                                      clock: Clock) -> None:
    signon = mail.start_sealed()
    sent = send_bids(mail, signon, 5)
    before = len(servers.messages("north"))
    servers.smtp.stop()
    try:
        judge.cycle()
        # Handled, acknowledged in the outbox, waiting: one connection
        # attempt, then the relay stopped its pass.
        assert orders_applied(judge) == Counter({m: 1 for m in sent})
        queued = judge.store.outbox("queued")
        assert len(queued) == 5
        assert [r["attempts"] for r in queued] == [1, 0, 0, 0, 0]
        assert "SMTP 127.0.0.1" in queued[0]["last_error"]
        clock.advance(minutes=1)
        judge.cycle()  # still down: the next mail in line gets its attempt
        assert sum(r["attempts"] for r in judge.store.outbox("queued")) == 2
    finally:
        servers.smtp.start()
    assert len(servers.messages("north")) == before
    clock.advance(hours=1)
    judge.cycle()
    assert_each_once(judge, servers, sent)


def test_uidvalidity_changed(servers: MailServers, home: Path, clock: Clock) -> None:
    judge = Judge.open(home, now=clock)
    mail = Mail(servers, judge)
    signon = mail.start_sealed()
    sent = send_bids(mail, signon, 4)

    def crash_before_moving_the_third(point: str, seen: list[int] = [0]) -> None:  # noqa: B006
        if point == "before-move":
            seen[0] += 1
            if seen[0] == 3:
                raise RuntimeError("killed before the move")

    judge.fault = crash_before_moving_the_third
    with pytest.raises(RuntimeError):
        judge.cycle()
    judge.close()
    assert servers.count("judge") == 2  # the 3rd (handled, not moved) and the 4th
    mark = Judge.open(home, now=clock)
    assert isinstance(mark.inbound, ImapInbound)
    key = mark.inbound.settings.mailbox_key
    old_validity, _ = mark.store.imap_mark(key) or (0, 0)
    mark.close()

    servers.change_uidvalidity("judge")
    judge = Judge.open(home, now=clock)
    mail.judge = judge
    more = [mail.send(address("North"), f"{signon['North']}\nBID {hand(judge, 'North')[0]}\n"
                      "END\nafter the change\n")]  # fmt: skip
    mail.cycle_until(lambda: servers.count("judge") == 0, "the INBOX to empty")
    new_validity, _ = judge.store.imap_mark(key) or (0, 0)
    assert new_validity != old_validity
    assert_each_once(judge, servers, sent + more)
    assert inbox_status(judge)[(sent[2], "duplicate")] == 1
    judge.close()


def test_same_message_delivered_twice(servers: MailServers, judge: Judge, mail: Mail) -> None:
    signon = mail.start_sealed()
    raw = mail.raw(address("North"), f"{signon['North']}\nBID {hand(judge, 'North')[0]}\n")
    servers.send(address("North"), "judge@localhost", raw)
    servers.send(address("North"), "judge@localhost", raw)
    message_id = str(parse(raw)["Message-ID"])
    judge.cycle()
    assert_each_once(judge, servers, [message_id])
    assert inbox_status(judge)[(message_id, "duplicate")] == 1
    assert servers.count("judge", "Processed") == len(judge.store.inbox())


# --------------------------------------------------------------------------- SIGKILL


def _daemon(home: Path, kill_at: str = "") -> subprocess.Popen[bytes]:
    env = dict(os.environ, JUDGE_TEST_IMAP_PASSWORD="judge", JUDGE_TEST_KILL_AT=kill_at)
    log = open(home / f"daemon-{kill_at or 'clean'}.log".replace(":", "-"), "ab")  # noqa: SIM115
    return subprocess.Popen(
        [sys.executable, str(RUN_JUDGE), "--home", str(home), "serve"],
        stdout=log, stderr=log, stdin=subprocess.DEVNULL, env=env,
    )


@pytest.mark.parametrize("kill_at", ["logged:3", "committed:3", "before-move:3", "sent:3"])
def test_daemon_killed_mid_batch(servers: MailServers, home: Path, kill_at: str) -> None:
    """The daemon, a real process, is SIGKILLed at an exact point in the
    middle of a batch of order mails, then started again."""
    now = Clock(datetime.now(UTC))  # the daemon runs on the real clock
    judge = Judge.open(home, now=now)
    mail = Mail(servers, judge)
    signon = mail.start_sealed()
    sent = send_bids(mail, signon, 8)
    judge.close()

    first = _daemon(home, kill_at)
    try:
        assert first.wait(timeout=60) == -signal.SIGKILL
    finally:
        if first.poll() is None:
            first.kill()
    # What the killed judge had claimed and not recorded as sent: the only
    # mails that may arrive twice (DESIGN, Mail pipeline; judge.relay).
    on_their_way, recorded = _outbox_after_the_kill(home)
    assert len(on_their_way) <= RELAY_WINDOW
    second = _daemon(home)
    try:
        def finished() -> bool:
            check = Judge.open(home)
            try:
                done = sum(1 for r in check.store.inbox() if r["status"] == "processed")
                return done >= len(sent) + 5 and not check.store.outbox("queued")
            finally:
                check.close()

        wait_for(finished, timeout=60, interval=0.1, what="the restarted daemon to finish")
        wait_for(lambda: servers.count("judge") == 0, timeout=30, what="the INBOX to empty")
    finally:
        second.send_signal(signal.SIGTERM)
        assert second.wait(timeout=30) == 0  # SIGTERM ends it cleanly
    judge = Judge.open(home)
    try:
        assert_each_once(judge, servers, sent)
        distinct = sum(acks(servers).values())
        total = sum(1 for raw in servers.messages("north") if b"In-Reply-To:" in raw)
        # Only a mail accepted by the server but not yet recorded as sent when
        # the kill came goes again, under its own Message-ID: the one being
        # recorded at "sent", and at any point those the relay had on their
        # way in the background (never more than its window).
        again = total - distinct
        assert (1 if kill_at.startswith("sent") else 0) <= again <= RELAY_WINDOW, again
        # The files Dovecot wrote, in every mailbox: each outgoing mail is
        # there, and once, but for those the killed judge had claimed and not
        # recorded as sent (twice at most, and never one recorded as sent).
        outgoing = {r["message_id"]: r["status"] for r in judge.store.outbox()}
        assert set(outgoing.values()) == {"sent"}
        copies = {m: n for m, n in servers.delivered().items() if m in outgoing}
        assert set(copies) == set(outgoing)
        twice = {m for m, n in copies.items() if n > 1}
        assert all(copies[m] == 2 for m in twice), copies
        assert twice <= on_their_way, (twice - on_their_way, on_their_way)
        assert not twice & recorded
        assert (1 if kill_at.startswith("sent") else 0) <= len(twice) <= RELAY_WINDOW
    finally:
        judge.close()


def _outbox_after_the_kill(home: Path) -> tuple[set[str], set[str]]:
    """(Message-IDs queued and claimed, Message-IDs recorded as sent) in the
    outbox as the killed judge left it, read without writing anything."""
    db = sqlite3.connect(f"file:{home / 'judge.db'}?mode=ro", uri=True)
    try:
        rows = db.execute("select message_id, status, claimed_by from outbox").fetchall()
    finally:
        db.close()
    return ({m for m, status, by in rows if status == "queued" and by},
            {m for m, status, _ in rows if status == "sent"})


# --------------------------------------------------------------------------- bounces


def test_5xx_marks_the_seat_bouncing_and_tells_the_gm(servers: MailServers, judge: Judge,
                                                      mail: Mail) -> None:
    mail.send("gm@localhost", "CREATE g1 sealed_bids\n")
    judge.cycle()
    mail.send("ghost@localhost", "JOIN g1 West\n")  # no such mailbox on the server
    judge.cycle()
    [failed] = judge.store.outbox("failed")
    assert failed["to_addr"] == "ghost@localhost" and "550 5.1.1" in failed["last_error"]
    [seat] = judge.store.seats("g1")
    assert seat.status == "bouncing"
    judge.cycle()  # the notice was queued during the relay's pass; it goes now
    notices = [m for m in mail.inbox("gm") if "bounced" in str(m["Subject"])]
    assert len(notices) == 1
    text = text_of(notices[0])
    assert "ghost@localhost" in text and "550 5.1.1" in text and "REPLACE West" in text
    # Another mail to the same dead address does not tell the GM again.
    judge.outbox().queue("ghost@localhost", "again", "again\n", "notice", game="g1")
    judge.cycle()
    assert len([m for m in mail.inbox("gm") if "bounced" in str(m["Subject"])]) == 1


@pytest.mark.parametrize("verp", [True, False])
def test_delivery_report_marks_the_seat_bouncing(servers: MailServers, home: Path, clock: Clock,
                                                 verp: bool) -> None:
    (home / "judge.toml").write_text(judge_config(servers, smtp={"verp": verp}))
    judge = Judge.open(home, now=clock)
    try:
        mail = Mail(servers, judge)
        mail.send("gm@localhost", "CREATE g1 sealed_bids\n")
        judge.cycle()
        # far@bounce.test is accepted at SMTP time; a report comes back later.
        mail.send("far@bounce.test", "JOIN g1 West\n")
        judge.cycle()
        [ack] = [r for r in judge.store.outbox() if r["to_addr"] == "far@bounce.test"]
        if verp:
            token = ack["message_id"].strip("<>").split("@")[0]
            assert ack["envelope_from"] == f"judge+bounce-{token}@localhost"
        else:
            assert ack["envelope_from"] == "judge@localhost"
        # The SMTP relay sends in the background, and the cycle looks at the
        # inbox again while the acknowledgement is on its way: the report is
        # read in this cycle when it is back by then, else in the next.
        if ack["status"] == "sent":
            assert servers.count("judge") == 1  # the report, not read yet
        else:
            assert ack["status"] == "bounced"
            assert servers.count("judge") == 0
        judge.cycle()
        ack = judge.store.mail_by_message_id(ack["message_id"]) or {}
        assert ack["status"] == "bounced" and "5.1.1" in ack["last_error"]
        [seat] = judge.store.seats("g1")
        assert seat.status == "bouncing"
        [report] = [r for r in judge.store.inbox() if r["status"] == "dropped"]
        assert report["reason"].startswith("delivery report: bounce of " + ack["message_id"])
        notices = [m for m in mail.inbox("gm") if "bounced" in str(m["Subject"])]
        assert len(notices) == 1 and "far@bounce.test" in text_of(notices[0])
        assert servers.count("judge") == 0
    finally:
        judge.close()


def test_report_about_mail_we_never_sent_changes_nothing(servers: MailServers, judge: Judge,
                                                         mail: Mail) -> None:
    mail.send("gm@localhost", "CREATE g1 sealed_bids\n")
    judge.cycle()
    mail.send("north@localhost", "JOIN g1 North\n")
    judge.cycle()
    forged = servers.dsn_for("judge@localhost", "north@localhost",
                             b"Message-ID: <not-ours@elsewhere.example>\n\nhi\n")  # fmt: skip
    servers.send("", "judge@localhost", forged)
    judge.cycle()
    assert [s.status for s in judge.store.seats("g1")] == ["joined"]
    assert any(r["reason"] == "delivery report: names no mail of ours"
               for r in judge.store.inbox())
