"""The home's database: refused when it is damaged, backed up while the
judge runs, and brought back from a backup.

* :func:`check_database` runs before the judge opens its database: an empty
  (0 bytes) file, a file that is no SQLite database, one SQLite cannot read,
  and a missing one in a home that had one (its ``token.key`` is there) are
  refused with a message naming the file and the restore command. Only
  ``judge init`` (or the first start of a new home) makes a database.
* :func:`backup` writes one file (a tar archive): ``judge.db``, an online,
  consistent copy made through SQLite's backup API (safe while the judge
  serves), the home's ``token.key``, and ``backup.json`` saying when it was
  made. It is readable by its owner only: it holds the token hashes.
* :func:`restore` puts a backup in place of the home's database (the one
  replaced is kept beside it, renamed), then carries the judge on from it:
  whatever it did after the backup was made is undone, so everyone it
  wrote to since, and every seat and GM of a game still running, is told
  so and asked to send again what they sent since; a deadline that passed
  meanwhile, or falls within ``extend_hours``, moves to ``extend_hours``
  from now, so nobody's orders are lost to the restore. Mail read after
  the backup is never read again (it stays in Processed): nothing is
  applied twice.
"""

from __future__ import annotations

import dataclasses
import io
import json
import os
import sqlite3
import tarfile
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import IO, TYPE_CHECKING

from judge import config as cfg
from judge.game.scheduler import iso

if TYPE_CHECKING:
    from judge.store import Store

__all__ = ["Backup", "DatabaseRefused", "backup", "check_database", "read_backup", "restore"]

SQLITE_HEADER = b"SQLite format 3\x00"
TOKEN_KEY_FILE = "token.key"
MANIFEST = "backup.json"
DB_MEMBER = "judge.db"


class DatabaseRefused(cfg.ConfigError):
    """The database file is missing, empty or damaged; the message names it
    and the command that brings a backup back."""


def _restore_hint(home: Path) -> str:
    return (f"Bring back the latest backup with `judge --home {home} restore BACKUP-FILE` "
            "(deploy/OPERATING.md, Backups)")


def check_database(path: Path, home: Path) -> None:
    """Raise :class:`DatabaseRefused` unless ``path`` is a database the judge
    may open: an existing SQLite file, or none yet in a new home."""
    try:
        size = path.stat().st_size
    except FileNotFoundError:
        if (home / TOKEN_KEY_FILE).exists():
            raise DatabaseRefused(
                f"{path}: the database is missing, though this home has served before "
                f"({TOKEN_KEY_FILE} is there). The judge does not start on a new, empty one. "
                f"{_restore_hint(home)}; or, to begin again with no games, `judge --home "
                f"{home} init`.") from None
        return
    except OSError as exc:
        raise DatabaseRefused(f"{path}: the database cannot be read ({exc.strerror}). "
                              f"{_restore_hint(home)}.") from exc
    if size == 0:
        raise DatabaseRefused(
            f"{path}: the database is empty (0 bytes): the judge does not start on it, it "
            f"would serve no games. {_restore_hint(home)}; or, to begin again with no games, "
            f"remove the file and run `judge --home {home} init`.")
    try:
        with path.open("rb") as f:
            head = f.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise DatabaseRefused(f"{path}: the database cannot be read ({exc.strerror}). "
                              f"{_restore_hint(home)}.") from exc
    if head != SQLITE_HEADER:
        raise DatabaseRefused(f"{path}: this is not a SQLite database (it does not begin as "
                              f"one). {_restore_hint(home)}.")


def damaged(path: Path, exc: sqlite3.DatabaseError, home: Path) -> DatabaseRefused:
    """The refusal of a database SQLite could not read (``exc``)."""
    return DatabaseRefused(f"{path}: the database is damaged ({exc}). {_restore_hint(home)}.")


# --------------------------------------------------------------------------- backup


@dataclass(frozen=True)
class Backup:
    """What a backup file says of itself."""

    made: datetime
    schema: int


def _private_tmp(folder: Path, suffix: str) -> Path:
    fd, name = tempfile.mkstemp(prefix=".judge-", suffix=suffix, dir=folder)
    os.close(fd)
    os.chmod(name, 0o600)
    return Path(name)


def _check_copy(path: Path) -> int:
    """The schema version of the database copy at ``path``; raises
    :class:`DatabaseRefused` if SQLite finds it damaged."""
    conn = sqlite3.connect(path)
    try:
        verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise DatabaseRefused(f"the database in the backup is damaged: {verdict}")
        row = conn.execute("select max(version) from migrations").fetchone()
        return int(row[0] or 0)
    except sqlite3.DatabaseError as exc:
        raise DatabaseRefused(f"the database in the backup cannot be read: {exc}") from exc
    finally:
        conn.close()


def backup(db_path: Path, home: Path, target: Path, now: datetime | None = None) -> Backup:
    """Write a backup of the database at ``db_path`` (and the home's token
    key) to ``target``; safe while the judge serves."""
    made = (now or datetime.now(UTC)).replace(microsecond=0)
    target = target.resolve()
    folder = target.parent
    copy = _private_tmp(folder, ".db")
    archive = _private_tmp(folder, ".tar")
    try:
        source = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)
        dest = sqlite3.connect(copy)
        try:
            source.backup(dest)  # one step: one consistent snapshot of the file
        finally:
            dest.close()
            source.close()
        schema = _check_copy(copy)
        manifest = json.dumps({"made": made.isoformat(), "schema": schema}).encode()
        with tarfile.open(archive, "w") as tar:
            tar.add(copy, arcname=DB_MEMBER)
            key = home / TOKEN_KEY_FILE
            if key.exists():
                tar.add(key, arcname=TOKEN_KEY_FILE)
            info = tarfile.TarInfo(MANIFEST)
            info.size = len(manifest)
            info.mtime = int(made.timestamp())
            tar.addfile(info, io.BytesIO(manifest))
        with archive.open("rb") as f:
            os.fsync(f.fileno())
        os.replace(archive, target)
    finally:
        copy.unlink(missing_ok=True)
        archive.unlink(missing_ok=True)
    return Backup(made, schema)


# --------------------------------------------------------------------------- restore


def read_backup(source: Path, folder: Path) -> tuple[Backup, Path, bytes | None]:
    """Unpack a backup file into ``folder``: what it says of itself, the
    database copy (checked) and the token key it holds (None if none).
    Raises :class:`DatabaseRefused` for a file that is no judge backup."""
    copy = _private_tmp(folder, ".db")
    try:
        try:
            with tarfile.open(source, "r") as tar:
                made, key = _unpack(tar, source, copy)
        except (OSError, EOFError, tarfile.TarError) as exc:
            raise DatabaseRefused(f"{source}: not a judge backup ({exc})") from exc
        try:
            schema = _check_copy(copy)
        except DatabaseRefused as exc:
            raise DatabaseRefused(f"{source}: {exc}") from exc
    except BaseException:
        copy.unlink(missing_ok=True)
        raise
    return Backup(made, schema), copy, key


def _unpack(tar: tarfile.TarFile, source: Path, copy: Path) -> tuple[datetime, bytes | None]:
    members = {m.name: m for m in tar.getmembers() if m.isfile()}
    if DB_MEMBER not in members or MANIFEST not in members:
        raise DatabaseRefused(f"{source}: not a judge backup (it holds no {DB_MEMBER} "
                              f"and {MANIFEST})")

    def member(name: str) -> IO[bytes]:
        f = tar.extractfile(members[name])
        assert f is not None  # a regular file
        return f

    try:
        info = json.loads(member(MANIFEST).read())
        made = datetime.fromisoformat(str(info["made"]))
    except (ValueError, KeyError, TypeError) as exc:
        raise DatabaseRefused(f"{source}: its {MANIFEST} cannot be read ({exc})") from exc
    with member(DB_MEMBER) as f, copy.open("wb") as out:
        while chunk := f.read(1 << 20):
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())
    key = member(TOKEN_KEY_FILE).read() if TOKEN_KEY_FILE in members else None
    return made, key


def _set_aside(path: Path, stamp: str) -> list[Path]:
    """Rename the database at ``path`` and its -wal and -shm files (keeping
    them together) to ``<name>.replaced-<stamp>``; return the new names."""
    moved = []
    base = path.with_name(f"{path.name}.replaced-{stamp}")
    for suffix in ("", "-wal", "-shm"):
        old = path.with_name(path.name + suffix)
        if old.exists():
            new = base.with_name(base.name + suffix)
            os.replace(old, new)
            moved.append(new)
    return moved


ENDED = ("finished", "cancelled")
"""A game's status once it is over: finished (with a result, or cancelled
while it ran) or cancelled before it started. A restore tells no one that
such a game stands again."""


def _replaced_facts(old_db: Path, made: datetime) -> tuple[set[str], dict[str, str]]:
    """What the replaced database says happened after ``made``: whom the
    judge wrote to, and the games that were over there (name -> status).
    Nothing if it cannot be read: it may be why the backup is restored."""
    try:  # read-write, so that closing it folds its -wal file back in and removes it
        conn = sqlite3.connect(old_db)
    except sqlite3.Error:
        return set(), {}
    try:
        conn.execute("PRAGMA query_only=1")
        rows = conn.execute("select distinct to_addr from outbox where created > ?",
                            [iso(made)]).fetchall()
        ended = conn.execute("select name, status from games where status in (?, ?)",
                             ENDED).fetchall()
        return {str(r[0]) for r in rows if r[0]}, {str(n): str(s) for n, s in ended}
    except sqlite3.Error:
        return set(), {}
    finally:
        conn.close()


def restore(home: Path, source: Path, *, extend_hours: float = 24.0,
            now: datetime | None = None) -> list[str]:
    """Put the backup ``source`` in place of the database of ``home`` (whose
    judge must not be running: the caller holds the home's lock) and carry
    the judge on from it (see the module docstring). Returns what was done,
    line by line."""
    from judge.store import Store

    config = cfg.load(home)
    db_path = config.db_path
    moment = (now or datetime.now(UTC)).replace(microsecond=0)
    info, copy, key = read_backup(source, db_path.parent)
    done = [f"{source}: a backup of {info.made.isoformat()} (schema {info.schema})"]
    try:
        from judge.store import MIGRATIONS

        newest = max(v for v, _, _ in MIGRATIONS)
        if info.schema > newest:
            raise DatabaseRefused(f"{source}: made by a newer judge (schema {info.schema}; this "
                                  f"one knows {newest}): restore it with that version")
        stamp = moment.strftime("%Y%m%dT%H%M%SZ")
        moved = _set_aside(db_path, stamp)
        if moved:
            done.append(f"the database replaced is kept as {moved[0]}")
        os.replace(copy, db_path)
    finally:
        copy.unlink(missing_ok=True)
    if key is not None:
        key_tmp = _private_tmp(db_path.parent, ".key")
        key_tmp.write_bytes(key)
        os.replace(key_tmp, home / TOKEN_KEY_FILE)
    told, ended = _replaced_facts(moved[0], info.made) if moved else (set(), {})
    store = Store.open(db_path)  # brought up to this judge's schema
    try:
        done += _carry_on(store, config, info.made, moment, extend_hours, told, ended)
    finally:
        store.close()
    return done


def _carry_on(store: Store, config: cfg.Config, made: datetime, now: datetime,
              extend_hours: float, told: set[str],
              ended: dict[str, str] | None = None) -> list[str]:
    """In one transaction: move the deadlines that passed since the backup
    (or fall too soon) and queue the notices. A game over in the backup is
    named to no one; one that ended or was cancelled after it (``ended``:
    the replaced database's) is named as such: the restore undid that too."""
    from judge import reports
    from judge.game import scheduler as sched
    from judge.outbox import Outbox

    outbox = Outbox(store, config, now)
    done: list[str] = []
    until = now + timedelta(hours=extend_hours)
    when_made = made.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    with store.atomic():
        deadlines: dict[str, sched.Clock] = {}
        for row in store.deadlines():
            clock = sched.Clock.from_row(row)
            if clock.deadline < until:
                clock = dataclasses.replace(clock, deadline=until, remind_at=None,
                                            grace_until=None, reminded=True,
                                            late_notice=False)
                store.set_deadline(clock.to_row(row["game"]))
                done.append(f"{row['game']}: the deadline of {clock.phase} moved to "
                            f"{sched.iso(until)}")
            deadlines[row["game"]] = clock
        notices: dict[str, list[str]] = {}
        for name in store.game_names():
            game = store.game(name)
            if game is None or game["status"] in ENDED:
                continue
            kept = deadlines.get(name)
            after = (ended or {}).get(name)
            if after is not None:  # over after the backup: say so, and that it is undone
                what = "cancelled" if after == "cancelled" else "ended"
                line = (f"{name} was {what} after that moment; the restore undid that with "
                        f"the rest: {name} is back as it stood then"
                        + (" (forming: its GM may cancel it again)"
                           if game["status"] == "forming" else ""))
            else:
                line = f"{name} stands again as it stood then"
            if kept is not None:
                line += (f", at {kept.phase}; its deadline is "
                         f"{kept.deadline.astimezone(UTC).strftime('%Y-%m-%d %H:%M UTC')}")
            seats = [s.address for s in store.seats(name)
                     if s.status in ("active", "joined")]
            for address in {game["gm_address"], *seats}:
                notices.setdefault(address, []).append(line + ".")
        for address in told:
            notices.setdefault(address, [])
        for address in sorted(notices):
            games = notices[address]
            text = (
                f"The judge has been restored from a backup made at {when_made}. "
                "Everything it did after that moment is undone: the mail it read since "
                "(orders, press, commands: it will not read them again), and any turn it "
                "processed since.\n"
                + "".join(f"\n{g}" for g in games)
                + ("\n" if games else "")
                + "\nIf you sent the judge anything after that moment, send it again, "
                "in a new mail. Tokens given out after it no longer work: JOIN again if "
                "you joined since. Send STATUS to see where you stand."
            )
            outbox.queue(address, "The judge was restored from a backup",
                             reports.render("common/notice.txt.j2", text=text), "notice")
        done.append(f"{len(notices)} notice(s) queued: every seat and GM of a running game"
                    + (f" and {len(told)} address(es) written to since the backup"
                       if told else ""))
    return done
