"""The daemon: one per home (an exclusive lock on ``<home>/judge.lock``), and
a busy database that makes work wait for the next cycle instead of failing
it (``judge.daemon``, ``Judge.cycle``)."""

from __future__ import annotations

import email
import email.policy
import fcntl
import logging
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from judge import pipeline
from judge import store as store_module
from judge.cli import main
from judge.service import Judge
from tests.core.conftest import Clock, Post
from tests.core.helpers import hand, start_sealed, stored_game

ROOT = Path(__file__).resolve().parents[2]

JUDGE_CMD = [sys.executable, "-c", "from judge.cli import main; main(prog_name='judge')"]


def _serve_once(home: Path) -> Any:
    return CliRunner().invoke(main, ["--home", str(home), "serve", "--once"],
                              catch_exceptions=False)  # fmt: skip


def _new_mail(home: Path) -> list[str]:
    folder = home / "mail" / "in"
    return sorted(p.name for sub in ("new", "cur") for p in (folder / sub).glob("*"))


def _failed_mail(home: Path) -> list[str]:
    folder = home / "mail" / "in" / ".Failed"
    return sorted(p.name for sub in ("new", "cur") for p in (folder / sub).glob("*"))


def _wait_for(check: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.02)


@pytest.fixture
def maildir_home(post: Post) -> Path:
    """A home with a game under way and one order mail waiting in the inbox;
    no Judge holds the database."""
    seats = start_sealed(post)
    post.deliver(post.raw(seats.addresses["North"],
                          f"{seats.signon('North')}\nBID {hand(post, 'North')[0]}\n"))
    post.judge.close()
    return post.home


# --------------------------------------------------------------------------- the lock


def _hold_lock(home: Path) -> subprocess.Popen[bytes]:
    """Another process holding the home's lock as a judge does (its pid in the file)."""
    code = (
        "import fcntl, os, sys, time\n"
        f"fd = os.open({str(home / 'judge.lock')!r}, os.O_RDWR | os.O_CREAT)\n"
        "fcntl.flock(fd, fcntl.LOCK_EX)\n"
        "os.ftruncate(fd, 0); os.write(fd, f'{os.getpid()}\\n'.encode())\n"
        "print('locked', flush=True)\n"
        "time.sleep(60)\n"
    )
    holder = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    assert holder.stdout is not None and holder.stdout.readline() == b"locked\n"
    return holder


def test_a_second_serve_names_the_holder_and_touches_no_mail(maildir_home: Path) -> None:
    waiting = _new_mail(maildir_home)
    check = Judge.open(maildir_home)
    inbox = check.store.inbox()
    check.close()
    holder = _hold_lock(maildir_home)
    try:
        result = _serve_once(maildir_home)
        assert result.exit_code == 1, result.output
        assert f"pid {holder.pid}" in result.output
        assert "already serving" in result.output
        assert _new_mail(maildir_home) == waiting  # not read, not moved
        check = Judge.open(maildir_home)
        try:
            assert check.store.inbox() == inbox  # nothing handled
        finally:
            check.close()
    finally:
        holder.kill()
        holder.wait()
    # The lock went with its process (a kill, no cleanup): serve runs now.
    result = _serve_once(maildir_home)
    assert result.exit_code == 0, result.output
    assert "processed" in result.output and _new_mail(maildir_home) == []


def test_serve_holds_the_lock_for_its_life_and_a_kill_frees_it(home: Path) -> None:
    """Two real `judge serve` processes: the second one says who serves the
    home and exits 1; once the first is SIGKILLed, a new one starts."""
    lock = home / "judge.lock"
    first = subprocess.Popen([*JUDGE_CMD, "--home", str(home), "serve"], cwd=ROOT,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
    try:
        def locked_by_first() -> bool:
            return lock.exists() and lock.read_text().split("\n", 1)[0] == str(first.pid)

        _wait_for(locked_by_first, "the first daemon to take the lock")
        second = subprocess.run([*JUDGE_CMD, "--home", str(home), "serve", "--once"], cwd=ROOT,
                                capture_output=True, text=True, timeout=60)  # fmt: skip
        assert second.returncode == 1, second.stderr
        assert f"pid {first.pid}" in second.stderr and "Traceback" not in second.stderr
        assert first.poll() is None  # the first one never noticed
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=30)
    again = subprocess.run([*JUDGE_CMD, "--home", str(home), "serve", "--once"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)  # fmt: skip
    assert again.returncode == 0, again.stderr


def test_the_lock_is_exclusive_within_one_process_too(home: Path) -> None:
    from judge.daemon import HomeLock, HomeLocked

    with HomeLock(home) as held:
        assert held.held
        assert (home / "judge.lock").read_text().split("\n")[0] == str(os.getpid())
        with pytest.raises(HomeLocked, match=f"pid {os.getpid()}"):
            HomeLock(home).acquire()
        fd = os.open(home / "judge.lock", os.O_RDWR)
        try:
            with pytest.raises(BlockingIOError):
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        finally:
            os.close(fd)
    with HomeLock(home):
        pass  # released, and taken again


# --------------------------------------------------------------------------- busy database


@pytest.fixture
def writer(home: Path) -> Iterator[sqlite3.Connection]:
    """A second connection to the judge's database, for holding its write lock."""
    conn = sqlite3.connect(home / "judge.db", isolation_level=None, timeout=5)
    yield conn
    if conn.in_transaction:
        conn.execute("ROLLBACK")
    conn.close()


def _ack_of(judge: Judge, message_id: str) -> list[dict[str, Any]]:
    return [r for r in judge.store.outbox() if r["in_reply_to"] == message_id]


def test_a_busy_database_leaves_the_mail_for_the_next_cycle(
    judge: Judge, post: Post, writer: sqlite3.Connection, caplog: pytest.LogCaptureFixture
) -> None:
    seats = start_sealed(post)
    raw = post.raw(seats.addresses["North"],
                   f"{seats.signon('North')}\nBID {hand(post, 'North')[0]}\n")
    post.deliver(raw)
    message_id = _message_id(raw)
    waiting = _new_mail(post.home)
    judge.store.set_busy_timeout(0.1)
    writer.execute("BEGIN IMMEDIATE")  # another process writing for a long while
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="judge"):
        lines = judge.cycle()  # must not raise
    assert any("database busy" in line and "the mail" in line for line in lines), lines
    busy = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(busy) == 1 and "database busy" in busy[0].getMessage()
    assert not any(r.levelno >= logging.ERROR for r in caplog.records)
    writer.execute("ROLLBACK")
    assert _new_mail(post.home) == waiting and _failed_mail(post.home) == []  # not moved
    assert [r for r in judge.store.inbox() if r["message_id"] == message_id] == []
    # The next cycle, with the database free: handled once and acknowledged.
    lines = judge.cycle()
    assert any(message_id in line and "processed" in line for line in lines), lines
    assert [r["status"] for r in judge.store.inbox() if r["message_id"] == message_id] \
        == ["processed"]
    assert [a["status"] for a in _ack_of(judge, message_id)] == ["sent"]
    assert [a["message_id"] for a in judge.store.actions("g1")].count(message_id) == 1
    assert _new_mail(post.home) == []


def _message_id(raw: bytes) -> str:
    return str(email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"])


def test_a_lock_held_only_while_the_mail_is_handled_files_nothing_as_failed(
    judge: Judge, post: Post, writer: sqlite3.Connection, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database is busy while the mail is handled and free a moment
    later, when a failure would be recorded (the 5-10 s case, which filed a
    valid order as failed): the mail is neither recorded as failed nor moved
    to Failed; the next cycle handles it and acknowledges it."""
    seats = start_sealed(post)
    raw = post.raw(seats.addresses["North"],
                   f"{seats.signon('North')}\nBID {hand(post, 'North')[0]}\n")
    post.deliver(raw)
    message_id = _message_id(raw)
    # The very error a held lock gives, raised once where the mail is handled.
    writer.execute("BEGIN IMMEDIATE")
    other = sqlite3.connect(post.home / "judge.db", timeout=0, isolation_level=None)
    try:
        with pytest.raises(sqlite3.OperationalError) as locked:
            other.execute("BEGIN IMMEDIATE")
    finally:
        other.close()
        writer.execute("ROLLBACK")
    real = pipeline.handle
    calls = {"n": 0}

    def busy_the_first_time(*args: Any, **kw: Any) -> pipeline.Handled:
        calls["n"] += 1
        if calls["n"] == 1:
            raise locked.value
        return real(*args, **kw)

    monkeypatch.setattr(pipeline, "handle", busy_the_first_time)
    judge.cycle()
    assert [r for r in judge.store.inbox() if r["message_id"] == message_id] == []
    assert len(_new_mail(post.home)) == 1 and _failed_mail(post.home) == []
    judge.cycle()
    assert [r["status"] for r in judge.store.inbox() if r["message_id"] == message_id] \
        == ["processed"]
    assert [a["status"] for a in _ack_of(judge, message_id)] == ["sent"]


def test_a_busy_database_keeps_deadlines_due_and_mail_queued(
    judge: Judge, post: Post, clock: Clock, writer: sqlite3.Connection
) -> None:
    start_sealed(post)
    judge.cycle()
    judge.outbox().queue("north@players.example", "a notice", "hello\n", "notice", game="g1")
    [queued] = judge.store.outbox("queued")
    phase = stored_game(judge.store, "g1")["phase"]
    clock.advance(hours=80)  # the deadline has passed
    judge.store.set_busy_timeout(0.1)
    writer.execute("BEGIN IMMEDIATE")
    lines = judge.cycle()
    writer.execute("ROLLBACK")
    assert any("the deadlines" in line and "the outbox" in line for line in lines), lines
    [still] = judge.store.outbox("queued")
    assert still["id"] == queued["id"] and still["attempts"] == 0 and still["claimed_by"] == ""
    assert stored_game(judge.store, "g1")["phase"] == phase
    lines = judge.cycle()
    assert lines and not any("database busy" in line for line in lines), lines
    assert judge.store.outbox("queued") == []
    mail = judge.store.mail_by_message_id(queued["message_id"])
    assert mail is not None and mail["status"] == "sent"


def test_serve_once_on_a_busy_database_exits_0_and_says_what_waited(
    maildir_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "BUSY_TIMEOUT", 0.1)
    waiting = _new_mail(maildir_home)
    conn = sqlite3.connect(maildir_home / "judge.db", isolation_level=None)
    try:
        conn.execute("BEGIN IMMEDIATE")
        result = _serve_once(maildir_home)
        conn.execute("ROLLBACK")
    finally:
        conn.close()
    assert result.exit_code == 0, result.output
    assert "database busy" in result.output and "the mail" in result.output
    assert "Traceback" not in result.output
    assert _new_mail(maildir_home) == waiting
    result = _serve_once(maildir_home)
    assert result.exit_code == 0, result.output
    assert "processed: " in result.output and _new_mail(maildir_home) == []
    check = Judge.open(maildir_home)
    try:
        assert check.store.outbox("queued") == [] and check.store.outbox("failed") == []
        assert not [r for r in check.store.inbox() if r["status"] == "failed"]
    finally:
        check.close()


def test_serve_prints_each_line_once_and_logs_its_start_and_stop(home: Path, post: Post) -> None:
    """The daemon printed each mail's line twice (on stdout, and again in its
    log on stderr) and said nothing of its start or stop. A real `judge serve
    --once` process, its two streams together."""
    post.deliver(post.raw("stranger@x.example", "HELP\n"))
    done = subprocess.run([*JUDGE_CMD, "--home", str(home), "serve", "--once"], cwd=ROOT,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stdout
    assert done.stdout.count("from stranger@x.example: processed") == 1, done.stdout
    assert "judge serving" in done.stdout and "judge stopped serving" in done.stdout
