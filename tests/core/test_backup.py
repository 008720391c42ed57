"""Backup and restore (``judge backup``, ``judge restore``, judge.store.backup),
and a database file that is missing, empty or damaged: refused with a
message naming it and the restore command, never replaced by a new one."""

from __future__ import annotations

import email
import email.policy
import shutil
import sqlite3
import tarfile
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge import config as cfg
from judge.cli import main
from judge.game.scheduler import parse_time
from judge.service import Judge
from judge.store import backup
from tests.core.conftest import Clock, Post
from tests.core.helpers import GM_ADDR, Seats, hand, start_sealed, stored_game


def _message_id(raw: bytes) -> str:
    return str(email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"])


def _bid(post: Post, seats: Seats, role: str) -> bytes:
    return post.raw(seats.addresses[role], f"{seats.signon(role)}\nBID {hand(post, role)[0]}\n")


def _cli(home: Path, *args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["--home", str(home), *args])
    return result.exit_code, result.output


def test_play_back_up_play_on_restore_and_carry_on_from_the_backup(
    judge: Judge, post: Post, clock: Clock, home: Path, tmp_path: Path
) -> None:
    seats = start_sealed(post)
    judge.cycle()
    north = _bid(post, seats, "North")
    post.deliver(north)
    judge.cycle()
    phase = stored_game(judge.store, "g1")["phase"]
    saved = tmp_path / "backups" / "judge.tar"
    saved.parent.mkdir()
    made = backup.backup(judge.config.db_path, home, saved, now=clock.now)
    assert saved.stat().st_mode & 0o777 == 0o600
    with tarfile.open(saved) as tar:
        assert sorted(tar.getnames()) == ["backup.json", "judge.db", "token.key"]
    # Play on: the two other bids end the round, the judge moves on and mails it.
    clock.advance(hours=2)
    east, south = _bid(post, seats, "East"), _bid(post, seats, "South")
    post.deliver(east)
    post.deliver(south)
    judge.cycle()
    assert stored_game(judge.store, "g1")["phase"] != phase
    after = {_message_id(east), _message_id(south)}
    assert after <= {a["message_id"] for a in judge.store.actions("g1")}
    clock.advance(hours=70)  # and the round's deadline passed meanwhile
    judge.close()

    lines = backup.restore(home, saved, now=clock.now)
    assert any("kept as" in line for line in lines), lines
    assert [p.name for p in home.glob("judge.db.replaced-*")]  # the replaced one is kept
    back = Judge.open(home, now=clock)
    post = Post(back, home, clock, count=post.count)
    try:
        # The game stands as it stood at the backup: North's bid, not the others.
        assert stored_game(back.store, "g1")["phase"] == phase
        kept = Counter(a["message_id"] for a in back.store.actions("g1"))
        assert kept[_message_id(north)] == 1 and not after & set(kept)
        # The deadline that passed meanwhile moved a day from now, not processed.
        [clock_row] = back.store.deadlines()
        assert parse_time(clock_row["deadline"]) == clock.now + timedelta(hours=24)
        back.cycle()
        assert stored_game(back.store, "g1")["phase"] == phase
        # Everyone is told, and asked to send again what they sent since.
        told = {m["To"]: post.text(m) for m in post.sent()
                if m["Subject"] == "The judge was restored from a backup"}
        assert set(told) == {GM_ADDR, *seats.addresses.values()}
        for text in told.values():
            assert made.made.strftime("%Y-%m-%d %H:%M UTC") in text
            assert "send it again" in text and "g1 stands again" in text
        # The mail read after the backup is not read again: it stays in Processed.
        processed = home / "mail" / "in" / ".Processed" / "cur"
        assert len(list(processed.iterdir())) >= 3
        assert not any("processed" in line for line in back.cycle())
        # A second delivery of a mail the backup holds is a duplicate.
        post.deliver(north)
        assert any("duplicate" in line for line in back.cycle())
        # East and South send again: the round ends as before, once each.
        again = [_bid(post, seats, "East"), _bid(post, seats, "South")]
        for raw in again:
            post.deliver(raw)
        back.cycle()
        assert stored_game(back.store, "g1")["phase"] != phase
        orders = [(a["role"], a["message_id"]) for a in back.store.actions("g1")
                  if a["kind"] == "orders"]
        assert orders == [("North", _message_id(north)), ("East", _message_id(again[0])),
                          ("South", _message_id(again[1]))]
        assert back.replay_check("g1")
    finally:
        back.close()


def test_the_backup_is_consistent_while_the_judge_writes(
    judge: Judge, post: Post, home: Path, tmp_path: Path
) -> None:
    """A backup taken while another connection holds an open write
    transaction holds what was committed, and nothing of what was not."""
    start_sealed(post)
    writer = sqlite3.connect(home / "judge.db", isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")
        writer.execute("update games set status = 'half-written'")
        backup.backup(judge.config.db_path, home, tmp_path / "b.tar")
        writer.execute("ROLLBACK")
    finally:
        writer.close()
    _info, copy, key = backup.read_backup(tmp_path / "b.tar", tmp_path)
    conn = sqlite3.connect(copy)
    try:
        assert conn.execute("select status from games").fetchall() == [("active",)]
    finally:
        conn.close()
    assert key == (home / "token.key").read_bytes()


def test_the_cli_backs_up_and_restores_and_restore_waits_for_a_stopped_judge(
    judge: Judge, post: Post, home: Path, tmp_path: Path
) -> None:
    start_sealed(post)
    judge.close()
    code, out = _cli(home, "backup", str(tmp_path / "b.tar"))
    assert code == 0 and "wrote" in out and "token.key" in out, out
    from judge.daemon import HomeLock

    with HomeLock(home):  # a judge serving the home
        code, out = _cli(home, "restore", str(tmp_path / "b.tar"))
    assert code == 1 and "another judge is already serving" in out, out
    assert not list(home.glob("judge.db.replaced-*"))
    (tmp_path / "junk.tar").write_bytes(b"not a backup")
    code, out = _cli(home, "restore", str(tmp_path / "junk.tar"))
    assert code == 1 and "not a judge backup" in out and "Traceback" not in out, out
    code, out = _cli(home, "restore", str(tmp_path / "b.tar"))
    assert code == 0 and "notice(s) queued" in out, out
    code, out = _cli(home, "game", "list")
    assert code == 0 and "g1" in out, out


def _damage(db: Path, how: str) -> None:
    if how == "empty":
        db.write_bytes(b"")
    elif how == "garbage":
        db.write_bytes(b"this is not a database at all\n" * 100)
    elif how == "malformed":
        data = bytearray(db.read_bytes())
        data[100:] = b"\xff" * (len(data) - 100)  # the header kept, every page overwritten
        db.write_bytes(bytes(data))
    else:
        db.unlink()


@pytest.mark.parametrize("how", ["empty", "garbage", "malformed", "missing"])
def test_a_damaged_database_is_refused_never_replaced(
    judge: Judge, post: Post, home: Path, how: str
) -> None:
    start_sealed(post)
    judge.close()
    db = home / "judge.db"
    for extra in ("judge.db-wal", "judge.db-shm"):
        (home / extra).unlink(missing_ok=True)
    _damage(db, how)
    before = db.read_bytes() if db.exists() else None
    code, out = _cli(home, "serve", "--once")
    assert code == 1, out
    assert str(db) in out and "restore" in out and "Traceback" not in out, out
    words = {"empty": "is empty (0 bytes)", "garbage": "not a SQLite database",
             "malformed": "damaged", "missing": "missing"}[how]
    assert words in out, out
    assert (db.read_bytes() if db.exists() else None) == before  # untouched
    with pytest.raises(cfg.ConfigError):
        Judge.open(home)
    # What the message says to do works: the backup is brought back... or
    # `judge init` starts again (here, where there is no file).
    if how == "missing":
        code, out = _cli(home, "init")
        assert code == 0, out
        Judge.open(home).close()


def test_a_new_home_still_gets_its_database_on_first_start(tmp_path: Path) -> None:
    home = tmp_path / "fresh"
    cfg.init_home(home)
    Judge.open(home).close()
    assert (home / "judge.db").stat().st_size > 0
    shutil.rmtree(home)


def test_whoever_the_judge_wrote_to_after_the_backup_is_told(
    judge: Judge, post: Post, clock: Clock, home: Path, tmp_path: Path
) -> None:
    """An address the backup knows nothing of (it only asked for HELP after
    the backup was made) hears of the restore too: the replaced database
    says the judge wrote to it since."""
    start_sealed(post)
    judge.cycle()
    backup.backup(judge.config.db_path, home, tmp_path / "b.tar", now=clock.now)
    clock.advance(minutes=5)
    post.send("late@players.example", "HELP\n")
    judge.cycle()
    judge.close()
    lines = backup.restore(home, tmp_path / "b.tar", now=clock.now)
    assert any("1 address(es) written to since the backup" in line for line in lines), lines
    back = Judge.open(home, now=clock)
    try:
        back.cycle()
        post = Post(back, home, clock)
        [notice] = [m for m in post.sent() if m["To"] == "late@players.example"
                    and m["Subject"] == "The judge was restored from a backup"]
        assert "send it again" in post.text(notice)
    finally:
        back.close()


def _forged(tmp_path: Path, saved: Path, change: str) -> Path:
    """``saved`` with its database changed by ``change`` (SQL), or replaced
    by junk bytes when ``change`` is empty."""
    work = tmp_path / "forge"
    work.mkdir(exist_ok=True)
    with tarfile.open(saved) as tar:
        tar.extractall(work, filter="data")
    if change:
        conn = sqlite3.connect(work / "judge.db")
        conn.execute(change)
        conn.commit()
        conn.close()
    else:
        (work / "judge.db").write_bytes(b"SQLite format 3\x00" + b"\x00" * 5000)
    out = tmp_path / f"forged-{len(change)}.tar"
    with tarfile.open(out, "w") as tar:
        for name in ("judge.db", "token.key", "backup.json"):
            tar.add(work / name, arcname=name)
    return out


@pytest.mark.parametrize("change", ["", "insert into migrations values (999, 'future')"],
                         ids=["damaged", "from a newer judge"])
def test_a_backup_that_cannot_be_restored_changes_nothing(
    judge: Judge, post: Post, home: Path, tmp_path: Path, change: str
) -> None:
    start_sealed(post)
    judge.close()
    saved = tmp_path / "b.tar"
    backup.backup(home / "judge.db", home, saved)
    bad = _forged(tmp_path, saved, change)
    before = (home / "judge.db").read_bytes()
    code, out = _cli(home, "restore", str(bad))
    assert code == 1 and "Traceback" not in out, out
    assert ("damaged" in out or "cannot be read" in out) if not change else "newer judge" in out
    assert (home / "judge.db").read_bytes() == before
    assert not list(home.glob("judge.db.replaced-*")) and not list(home.glob(".judge-*"))


def test_a_restore_never_tells_that_a_cancelled_or_ended_game_stands_again(
    judge: Judge, post: Post, clock: Clock, home: Path, tmp_path: Path
) -> None:
    """Back up; the GM of a forming game cancels it by mail; one more mail;
    restore. The restore undoes the cancel with the rest, and says so in
    those words to the game's GM and seat: never that the cancelled game
    "stands again". A game cancelled before the backup is named to no one;
    a running game still "stands again"."""
    from tests.core.helpers import token_in

    start_sealed(post)  # g1: running
    post.send(GM_ADDR, "CREATE g2 sealed_bids\n")  # g2: forming, cancelled after the backup
    g2 = token_in(post, GM_ADDR)
    post.send("anna@players.example", "JOIN g2 North\n")
    post.send(GM_ADDR, "CREATE g3 sealed_bids\n")  # g3: cancelled before the backup
    g3 = token_in(post, GM_ADDR)
    post.send("bert@players.example", "JOIN g3 North\n")
    post.send(GM_ADDR, f"SIGNON g3 GM {g3}\nCANCEL GAME\n")
    judge.cycle()
    saved = tmp_path / "b.tar"
    backup.backup(judge.config.db_path, home, saved, now=clock.now)
    clock.advance(minutes=5)
    post.send(GM_ADDR, f"SIGNON g2 GM {g2}\nCANCEL GAME\n")
    assert judge.store.game("g2")["status"] == "cancelled"  # type: ignore[index]
    post.send("late@players.example", "HELP\n")  # one more mail
    judge.cycle()
    judge.close()
    backup.restore(home, saved, now=clock.now)
    back = Judge.open(home, now=clock)
    try:
        back.cycle()
        notices = {str(m["To"]): Post.text(m) for m in Post(back, home, clock).sent()
                   if m["Subject"] == "The judge was restored from a backup"}
    finally:
        back.close()
    assert {GM_ADDR, "anna@players.example", "north@players.example",
            "late@players.example"} <= set(notices)
    for address in (GM_ADDR, "anna@players.example"):
        text = " ".join(notices[address].split())
        assert ("g2 was cancelled after that moment; the restore undid that with the rest: "
                "g2 is back as it stood then (forming: its GM may cancel it again).") in text
        assert "g2 stands again" not in text
    assert "g1 stands again as it stood then" in " ".join(notices[GM_ADDR].split())
    assert all("g3" not in text for text in notices.values())
    assert "bert@players.example" not in notices
