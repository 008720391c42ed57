"""One mail, one file or one fault of the disk never stalls the judge
(``judge.budget``, ``Judge._read_batch``, ``MaildirInbound``).

A mail that runs over its budget of time or memory, fails unexpectedly, or
cannot be read at all is moved to Failed with its reason in the log and
the inbox table, and the same cycle goes on with the next mail, the
deadlines and the outbox. A fault of the database or its disk (full, an
I/O error) is no fault of the mail: it stays in the inbox and is handled,
once, when the fault has passed.
"""

from __future__ import annotations

import email
import email.policy
import errno
import logging
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from judge import pipeline
from judge.mail.mailin import IncomingMail
from judge.service import Judge
from tests.core.conftest import Clock, Post
from tests.core.helpers import Seats, hand, start_sealed, stored_game

ROOT = Path(__file__).resolve().parents[2]


def _message_id(raw: bytes) -> str:
    return str(email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"])


def _folder(home: Path, name: str = "") -> list[Path]:
    base = home / "mail" / "in" / (f".{name}" if name else "")
    return sorted(p for sub in ("new", "cur") for p in (base / sub).glob("*"))


def _status(judge: Judge, message_id: str) -> list[str]:
    return [r["status"] for r in judge.store.inbox() if r["message_id"] == message_id]


def _bid(post: Post, seats: Seats, role: str, extra: str = "") -> bytes:
    card = hand(post, role)[0]
    return post.raw(seats.addresses[role], f"{seats.signon(role)}\n{extra}BID {card}\n")


def _acted(judge: Judge, message_id: str) -> int:
    return [a["message_id"] for a in judge.store.actions("g1")].count(message_id)


@pytest.fixture
def seats(post: Post) -> Seats:
    seats = start_sealed(post)
    post.judge.cycle()
    return seats


def _spinning_on(marker: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the handling of a mail holding ``marker`` never end (a stand-in
    for any stage whose cost runs away): only the budget stops it."""
    real = pipeline.prepare

    def prepare(judge: Judge, mail: IncomingMail) -> pipeline.Prepared:
        if marker in mail.lines:
            n = 0
            while True:
                n += 1
        return real(judge, mail)

    monkeypatch.setattr(pipeline, "prepare", prepare)


def test_a_mail_over_its_time_budget_is_set_aside_and_the_cycle_goes_on(
    judge: Judge, post: Post, clock: Clock, seats: Seats, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    judge.config.mail_seconds = 0.3
    _spinning_on("SPIN", monkeypatch)
    slow = _bid(post, seats, "North", "SPIN\n")
    good = _bid(post, seats, "East")
    post.deliver(slow)
    post.deliver(good)
    judge.outbox().queue("west@players.example", "a notice", "hello\n", "notice", game="g1")
    clock.advance(hours=80)  # and a deadline is overdue
    phase = stored_game(judge.store, "g1")["phase"]
    with caplog.at_level(logging.ERROR, logger="judge"):
        lines = judge.cycle()
    # The slow mail: in Failed, recorded with its reason, nothing of it applied.
    assert _status(judge, _message_id(slow)) == ["failed"]
    [row] = [r for r in judge.store.inbox() if r["message_id"] == _message_id(slow)]
    assert "limits.mail_seconds" in row["reason"] and row["from_addr"] == "north@players.example"
    assert any("set aside" in r.getMessage() and "limits.mail_seconds" in r.getMessage()
               for r in caplog.records)
    assert _acted(judge, _message_id(slow)) == 0
    assert len(_folder(post.home, "Failed")) == 1 and _folder(post.home) == []
    # The same cycle went on: the next mail, the deadline and the outbox.
    assert _status(judge, _message_id(good)) == ["processed"]
    assert _acted(judge, _message_id(good)) == 1
    assert stored_game(judge.store, "g1")["phase"] != phase
    assert judge.store.outbox("queued") == []
    assert any("failed" in line and "limits.mail_seconds" in line for line in lines), lines
    # Its sender is told, once, that nothing of it was done (its token masked).
    [notice] = [m for m in post.sent() if m["Subject"] == "Your mail was not carried out"]
    text = post.text(notice)
    assert notice["To"] == "north@players.example"
    assert notice["In-Reply-To"] == _message_id(slow)
    assert "could not finish reading it in the time it gives one mail" in text
    assert "Nothing in it was done" in text and "send them again" in text
    assert seats.tokens["North"] not in text
    # And the judge does not come back to it.
    assert not any("failed" in line for line in judge.cycle())
    assert _status(judge, _message_id(slow)) == ["failed"]


def test_a_mail_over_its_memory_budget_is_set_aside(
    judge: Judge, post: Post, seats: Seats, monkeypatch: pytest.MonkeyPatch
) -> None:
    judge.config.mail_memory_mb = 64
    real = pipeline.prepare
    kept: list[bytearray] = []

    def greedy(judge: Judge, mail: IncomingMail) -> pipeline.Prepared:
        if "GREEDY" in mail.lines:
            kept.append(bytearray(512 * 1024 * 1024))  # beyond the 64 MB it may add
        return real(judge, mail)

    monkeypatch.setattr(pipeline, "prepare", greedy)
    big = _bid(post, seats, "North", "GREEDY\n")
    good = _bid(post, seats, "East")
    post.deliver(big)
    post.deliver(good)
    judge.cycle()
    assert kept == []  # the allocation was refused, not made
    [row] = [r for r in judge.store.inbox() if r["message_id"] == _message_id(big)]
    assert row["status"] == "failed" and "limits.mail_memory_mb" in row["reason"]
    assert _status(judge, _message_id(good)) == ["processed"]
    assert len(_folder(post.home, "Failed")) == 1
    # The limit was put back: the process may allocate as before.
    assert len(bytearray(128 * 1024 * 1024)) == 128 * 1024 * 1024


def test_a_mail_that_fails_unexpectedly_is_set_aside_with_its_reason(
    judge: Judge, post: Post, seats: Seats, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = pipeline.prepare

    def buggy(judge: Judge, mail: IncomingMail) -> pipeline.Prepared:
        if "BUG" in mail.lines:
            raise RuntimeError("a bug in some stage")
        return real(judge, mail)

    monkeypatch.setattr(pipeline, "prepare", buggy)
    bad = _bid(post, seats, "North", "BUG\n")
    good = _bid(post, seats, "East")
    post.deliver(bad)
    post.deliver(good)
    judge.cycle()
    [row] = [r for r in judge.store.inbox() if r["message_id"] == _message_id(bad)]
    assert row["status"] == "failed" and row["reason"] == "RuntimeError: a bug in some stage"
    assert _status(judge, _message_id(good)) == ["processed"]
    # The kept copy in Failed has its token masked, like every kept copy.
    [kept] = _folder(post.home, "Failed")
    assert seats.tokens["North"].encode() not in kept.read_bytes()


@pytest.mark.parametrize("how", ["folder", "eio", "mode"])
def test_a_file_the_inbox_cannot_read_is_set_aside_and_the_next_mail_handled(
    judge: Judge, post: Post, seats: Seats, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """Three ways a file in the inbox cannot be read: a folder where a
    message should be, an I/O error (EIO) from the disk, and a mode that
    forbids reading (which the superuser does not obey: then the same
    error the kernel gives, EACCES, is raised where the file is read)."""
    first = post.deliver(b"placeholder")
    good = _bid(post, seats, "East")
    post.deliver(good)
    if how == "folder":
        first.unlink()
        first.mkdir()
        (first / "inside").write_bytes(b"x")
    else:
        first.chmod(0o000)
        real = Path.read_bytes

        def read_bytes(self: Path) -> bytes:
            if self.name == first.name:
                if how == "eio":
                    raise OSError(errno.EIO, os.strerror(errno.EIO), str(self))
                if os.geteuid() == 0:  # the superuser reads any mode
                    raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(self))
            return real(self)

        monkeypatch.setattr(Path, "read_bytes", read_bytes)
    lines = judge.cycle()
    [row] = [r for r in judge.store.inbox() if r["status"] == "failed"]
    word = {"folder": "Is a directory", "eio": "Input/output error",
            "mode": "Permission denied"}[how]
    assert "cannot be read" in row["reason"] and word in row["reason"], row
    assert row["transport_key"] == first.name.split(":")[0]
    assert any("failed" in line and word in line for line in lines), lines
    assert [p.name.split(":")[0] for p in _folder(post.home, "Failed")] \
        == [first.name.split(":")[0]]
    assert _status(judge, _message_id(good)) == ["processed"]
    assert _folder(post.home) == []
    assert not any("failed" in line for line in judge.cycle())


@pytest.mark.slow
def test_an_unreadable_mode_as_an_ordinary_user(tmp_path: Path) -> None:
    """``chmod 000`` on a delivered mail, with `judge serve --once` run
    where the mode holds: as an ordinary user, or as the superuser without
    its right to override file modes (``setpriv`` drops CAP_DAC_OVERRIDE
    and CAP_DAC_READ_SEARCH). Set aside, and the mail behind it handled."""
    home = tmp_path / "home"
    script = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
from pathlib import Path
from tests.core.conftest import Clock, Post
from judge import config as cfg
from judge.service import Judge
home = Path(sys.argv[1])
cfg.init_home(home)
judge = Judge.open(home)
post = Post(judge, home, Clock())
bad = post.deliver(post.raw("a@players.example", "HELP\\n", message_id="<bad@x>"))
post.deliver(post.raw("b@players.example", "HELP\\n", message_id="<good@x>"))
judge.close()
bad.chmod(0)
"""
    subprocess.run([sys.executable, "-c", script, str(home)], check=True, cwd=ROOT)
    cmd = [sys.executable, "-c", "from judge.cli import main; main(prog_name='judge')",
           "--home", str(home), "serve", "--once"]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")  # util-linux, on every Debian system
        assert setpriv is not None, "the superuser needs setpriv to test a file mode"
        cmd = [setpriv, "--bounding-set", "-dac_override,-dac_read_search", "--", *cmd]
    run = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120,
                         check=False, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr
    # each mail's line is a log line on stderr
    assert "Permission denied" in run.stderr and "<good@x>" in run.stderr, run.stderr
    failed = _folder(home, "Failed")
    assert len(failed) == 1 and _folder(home) == []
    db = sqlite3.connect(home / "judge.db")
    try:
        rows = db.execute("select message_id, status, reason from inbox").fetchall()
    finally:
        db.close()
    assert ("<good@x>", "processed") in [(m, s) for m, s, _ in rows], rows
    [(_, _, reason)] = [r for r in rows if r[1] == "failed"]
    assert "cannot be read" in reason and "Permission denied" in reason


def test_a_read_only_database_leaves_the_mail_and_the_rest_waits(
    judge: Judge, post: Post, clock: Clock, seats: Seats, caplog: pytest.LogCaptureFixture
) -> None:
    """SQLite refuses every write ("attempt to write a readonly database"):
    the mail stays in the inbox, the deadline stays due, the outbox keeps
    its mail, the log says why; once writable, each is done once."""
    raw = _bid(post, seats, "North")
    post.deliver(raw)
    message_id = _message_id(raw)
    judge.outbox().queue("west@players.example", "a notice", "hello\n", "notice", game="g1")
    clock.advance(hours=80)
    phase = stored_game(judge.store, "g1")["phase"]
    judge.store.db.execute("PRAGMA query_only=1")
    with caplog.at_level(logging.WARNING, logger="judge"):
        lines = judge.cycle()
    assert lines == ["database fault (attempt to write a readonly database): the mail, "
                     "the deadlines, the outbox waited for the next cycle"], lines
    assert any("readonly" in r.getMessage() for r in caplog.records)
    assert _status(judge, message_id) == [] and len(_folder(post.home)) == 1
    assert _folder(post.home, "Failed") == []
    assert stored_game(judge.store, "g1")["phase"] == phase
    assert len(judge.store.outbox("queued")) == 1
    judge.store.db.execute("PRAGMA query_only=0")
    judge.cycle()
    assert _status(judge, message_id) == ["processed"] and _acted(judge, message_id) == 1
    assert stored_game(judge.store, "g1")["phase"] != phase
    assert judge.store.outbox("queued") == [] and _folder(post.home) == []


#: `judge serve` in a child process, with the test game and its templates
#: registered (as tests/core/conftest.py does in this one).
SERVE_WITH_TEST_GAME = """
from judge import reports
from judge.game import registry
from judge.cli import main
from judge.store import set_kdf_cost
from tests.games.sealed_bids import GAME
from tests.games import add_report_files
set_kdf_cost(2**8)
registry.register(GAME)
add_report_files()
add_report_files()
main(prog_name="judge")
"""


def _no_growth(limit: int) -> None:
    import resource
    import signal

    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write beyond the limit fails with EFBIG
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


@pytest.mark.slow
def test_a_real_disk_limit_in_the_middle_of_a_mail_loses_nothing(
    judge: Judge, post: Post, seats: Seats
) -> None:
    """`judge serve --once` in a process that may not grow any file past
    4 KB (RLIMIT_FSIZE, what a full disk looks like to one writer): the
    mail is read, its transaction fails to write, and it stays in the
    inbox; a run without the limit then handles it once."""
    raw = _bid(post, seats, "North")
    post.deliver(raw)
    message_id = _message_id(raw)
    db = judge.store.db
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the log starts empty: every write grows it
    assert (post.home / "judge.db-wal").stat().st_size == 0
    cmd = [sys.executable, "-c", SERVE_WITH_TEST_GAME, "--home", str(post.home),
           "serve", "--once"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for _ in range(2):  # the disk stays full for a while: the mail waits, never in Failed
        limited = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env,
                                 preexec_fn=lambda: _no_growth(4096), timeout=120, check=False)
        assert limited.returncode == 0, limited.stderr
        assert "WARNING database fault (disk I/O error): the mail" in limited.stderr
        assert "Traceback" not in limited.stderr
        assert _status(judge, message_id) == [] and _acted(judge, message_id) == 0
        assert len(_folder(post.home)) == 1 and _folder(post.home, "Failed") == []
    free = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=120, check=False)
    assert free.returncode == 0, free.stderr
    assert f"{message_id} from north@players.example: processed" in free.stderr, free.stderr
    assert _status(judge, message_id) == ["processed"] and _acted(judge, message_id) == 1
    assert _folder(post.home) == [] and _folder(post.home, "Failed") == []


def test_a_mail_set_aside_while_the_disk_cannot_take_it_is_not_handled_again(
    judge: Judge, post: Post, seats: Seats, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The move to Failed meets a full disk: the mail stays where it is,
    recorded as failed; the next cycle only moves it (one record, one
    notice, its cost not paid twice)."""
    real = pipeline.prepare
    calls = {"bug": 0, "moves": 0}

    def buggy(judge: Judge, mail: IncomingMail) -> pipeline.Prepared:
        if "BUG" in mail.lines:
            calls["bug"] += 1
            raise RuntimeError("a bug in some stage")
        return real(judge, mail)

    monkeypatch.setattr(pipeline, "prepare", buggy)
    done = judge.inbound.done

    def full_once(key: str, ok: bool, **kw: bool) -> None:
        if not ok:
            calls["moves"] += 1
            if calls["moves"] == 1:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        done(key, ok, **kw)

    monkeypatch.setattr(judge.inbound, "done", full_once)
    bad = _bid(post, seats, "North", "BUG\n")
    post.deliver(bad)
    lines = judge.cycle()
    assert any("disk fault (No space left on device): the mail" in line for line in lines)
    assert len(_folder(post.home)) == 1 and _status(judge, _message_id(bad)) == ["failed"]
    judge.cycle()
    assert calls == {"bug": 1, "moves": 2}
    assert _folder(post.home) == [] and len(_folder(post.home, "Failed")) == 1
    assert _status(judge, _message_id(bad)) == ["failed"]
    assert len([m for m in post.sent() if m["Subject"] == "Your mail was not carried out"]) == 1


def test_a_kept_copy_that_cannot_be_masked_in_time_is_moved_as_it_came(
    judge: Judge, post: Post, seats: Seats, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The masking of the copy kept in Processed runs within a mail's budget
    too; beyond it the mail (already carried out) is moved as it came, with
    a warning, and is not handled again."""
    from judge.mail import mailin

    judge.config.mail_seconds = 0.3

    def endless(raw: bytes) -> bytes:
        while True:
            pass

    monkeypatch.setattr(mailin, "redact_raw", endless)
    raw = _bid(post, seats, "North")
    key = post.deliver(raw).name.split(":")[0]
    with caplog.at_level(logging.WARNING, logger="judge"):
        judge.cycle()
    assert _status(judge, _message_id(raw)) == ["processed"]
    assert _acted(judge, _message_id(raw)) == 1
    [kept] = [p for p in _folder(post.home, "Processed") if p.name.startswith(key + ":")]
    assert kept.read_bytes() == raw
    assert any("may hold a token in clear" in r.getMessage() for r in caplog.records)
    assert _folder(post.home) == [] and _folder(post.home, "Failed") == []
    judge.cycle()
    assert _status(judge, _message_id(raw)) == ["processed"]


def test_which_database_errors_are_faults_of_the_disk(tmp_path: Path) -> None:
    """Real SQLite errors, each made on a scratch database: a full database,
    a read-only one and a busy one are faults (the mail waits); a broken
    constraint or a wrong statement is not (the work itself failed)."""
    from judge.store import is_fault

    conn = sqlite3.connect(tmp_path / "scratch.db", isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("create table t (x primary key)")
    conn.execute("insert into t values (randomblob(100))")
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count={pages}")
    errors: dict[str, BaseException] = {}
    for name, statement in (("full", "insert into t values (randomblob(100000))"),
                            ("constraint", "insert into t select x from t"),
                            ("statement", "select * from no_such_table")):
        try:
            conn.execute(statement)
        except sqlite3.Error as exc:
            errors[name] = exc
    conn.execute("PRAGMA query_only=1")
    try:
        conn.execute("insert into t values (1)")
    except sqlite3.Error as exc:
        errors["read-only"] = exc
    conn.close()
    assert set(errors) == {"full", "constraint", "statement", "read-only"}
    assert is_fault(errors["full"]) == "database fault (database or disk is full)"
    assert is_fault(errors["read-only"]).startswith("database fault (attempt to write a readonly")
    assert is_fault(errors["constraint"]) == "" and is_fault(errors["statement"]) == ""
    assert is_fault(OSError(errno.ENOSPC, "No space left on device")) \
        == "disk fault (No space left on device)"
    assert is_fault(OSError(errno.EIO, "Input/output error")).startswith("disk fault")
    assert is_fault(ValueError("a bug")) == ""
