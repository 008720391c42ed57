"""Backup and restore of a judge whose database is PostgreSQL.

The backup is a logical dump of the judge's own tables (every row of every
table the migrations made, read in one ``REPEATABLE READ`` transaction, so
one consistent moment while the daemons serve), written as one JSON object
per table into the same kind of tar archive as the SQLite backup
(:mod:`judge.store.backup`): ``judge.json`` in place of ``judge.db``, the
home's ``token.key`` and ``backup.json``. It needs no ``pg_dump`` of the
server's version on the judge's host; for the server as a whole (roles,
other databases, point-in-time recovery) the operator keeps PostgreSQL's own
backups besides.

A restore empties the judge's tables and loads the dump in one transaction
(the database keeps its schema: a dump of another schema version is refused),
sets each table's numbering past its rows, and carries the judge on from it
as the SQLite restore does (deadlines moved, everyone told). Every daemon on
the database must be stopped first: the restore refuses while another judge
is connected.
"""

from __future__ import annotations

import base64
import io
import json
import os
import tarfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from judge import config as cfg
from judge.game.scheduler import iso
from judge.store import Store
from judge.store.backup import MANIFEST, TOKEN_KEY_FILE, Backup, DatabaseRefused, _carry_on
from judge.store.backup import _private_tmp as private_tmp

DUMP_MEMBER = "judge.json"


def _open(config: cfg.Config) -> Store:
    from judge.mailconfig import database_password

    return Store.open(config.database, password=database_password(config))


#: Tables other tables' rows refer to (foreign keys): loaded first.
_REFERRED = ("migrations", "games", "leagues")


def _tables(store: Store) -> list[str]:
    """The judge's tables, those referred to first."""
    names = sorted(store.table_names())
    return [*[n for n in _REFERRED if n in names], *[n for n in names if n not in _REFERRED]]


def _encode(value: Any) -> Any:
    if isinstance(value, bytes | memoryview):
        return {"b64": base64.b64encode(bytes(value)).decode()}
    return value


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"b64"}:
        return base64.b64decode(value["b64"])
    return value


def dump(store: Store) -> tuple[dict[str, Any], int]:
    """Every row of the judge's tables at one moment, and the schema version."""
    conn = store.conn
    tables: dict[str, Any] = {}
    with conn.transaction():
        conn.execute("set transaction isolation level repeatable read, read only")
        for table in _tables(store):
            rows = list(store._query(f'select * from "{table}"'))
            if rows and "rowid" in rows[0]:  # first come first: kept in that order
                rows.sort(key=lambda r: int(r["rowid"]))
            columns = list(rows[0]) if rows else []
            tables[table] = {"columns": columns,
                             "rows": [[_encode(r[c]) for c in columns] for r in rows]}
        version = store.schema_version()
    return tables, version


def backup(config: cfg.Config, target: Path, now: datetime | None = None) -> Backup:
    """Write a backup of the PostgreSQL database of ``config`` (and the
    home's token key) to ``target``; safe while the daemons serve."""
    made = (now or datetime.now(UTC)).replace(microsecond=0)
    store = _open(config)
    try:
        tables, version = dump(store)
    finally:
        store.close()
    body = json.dumps({"schema": version, "tables": tables}).encode()
    manifest = json.dumps({"made": made.isoformat(), "schema": version,
                           "database": "postgresql"}).encode()
    target = target.resolve()
    archive = private_tmp(target.parent, ".tar")
    try:
        with tarfile.open(archive, "w") as tar:
            for name, data in ((DUMP_MEMBER, body), (MANIFEST, manifest)):
                info = tarfile.TarInfo(name)
                info.size = len(data)
                info.mtime = int(made.timestamp())
                tar.addfile(info, io.BytesIO(data))
            key = config.home / TOKEN_KEY_FILE
            if key.exists():
                tar.add(key, arcname=TOKEN_KEY_FILE)
        with archive.open("rb") as f:
            os.fsync(f.fileno())
        os.replace(archive, target)
    finally:
        archive.unlink(missing_ok=True)
    return Backup(made, version)


def _read(source: Path) -> tuple[datetime, dict[str, Any], bytes | None]:
    try:
        with tarfile.open(source, "r") as tar:
            members = {m.name: m for m in tar.getmembers() if m.isfile()}
            if DUMP_MEMBER not in members or MANIFEST not in members:
                raise DatabaseRefused(
                    f"{source}: not a backup of a judge on PostgreSQL (it holds no "
                    f"{DUMP_MEMBER} and {MANIFEST}; a backup of an SQLite judge holds judge.db)")

            def member(name: str) -> bytes:
                f = tar.extractfile(members[name])
                assert f is not None  # a regular file
                return f.read()

            info = json.loads(member(MANIFEST))
            made = datetime.fromisoformat(str(info["made"]))
            data = json.loads(member(DUMP_MEMBER))
            key = member(TOKEN_KEY_FILE) if TOKEN_KEY_FILE in members else None
    except (OSError, EOFError, tarfile.TarError, ValueError, KeyError, TypeError) as exc:
        raise DatabaseRefused(f"{source}: not a judge backup ({exc})") from exc
    return made, data, key


def restore(home: Path, source: Path, *, extend_hours: float = 24.0,
            now: datetime | None = None) -> list[str]:
    """Load the backup ``source`` into the PostgreSQL database of ``home``
    and carry the judge on from it (see the module docstring); returns what
    was done, line by line."""
    config = cfg.load(home)
    moment = (now or datetime.now(UTC)).replace(microsecond=0)
    made, data, key = _read(source)
    store = _open(config)
    try:
        others = next(store._query(
            "select count(*) as n from pg_stat_activity where datname = current_database() "
            "and application_name = current_setting('application_name') "
            "and pid != pg_backend_pid()"))["n"]
        if others:
            raise DatabaseRefused(
                f"{others} other judge connection(s) to the database: stop every "
                "`judge serve` on it before a restore")
        version = store.schema_version()
        if int(data["schema"]) != version:
            raise DatabaseRefused(
                f"{source}: made at schema {data['schema']}, the database is at {version}: "
                "restore it with the judge version that made it")
        done = [f"{source}: a backup of {made.isoformat()} (schema {version})"]
        told = {str(r["a"]) for r in store._query(
            "select distinct to_addr as a from outbox where created > ?", [iso(made)])
            if r["a"]}
        tables: dict[str, Any] = data["tables"]
        with store.atomic():
            names = [t for t in _tables(store) if t != "migrations"]
            store._write("truncate " + ", ".join(f'"{t}"' for t in names), [])
            for table in names:
                part = tables.get(table, {"columns": [], "rows": []})
                columns = [c for c in part["columns"] if c != "rowid"]
                if not part["rows"]:
                    continue
                keep = [part["columns"].index(c) for c in columns]
                cols = ", ".join(f'"{c}"' for c in columns)
                marks = ", ".join("?" * len(columns))
                # psycopg sends the rows in one round trip per batch.
                store.conn.cursor().executemany(
                    f'insert into "{table}" ({cols}) values ({marks.replace("?", "%s")})',
                    [[_decode(row[i]) for i in keep] for row in part["rows"]])
            for table in names:
                for r in list(store._query(
                        "select column_name as c from information_schema.columns "
                        "where table_schema = current_schema() and table_name = ? "
                        "and is_identity = 'YES' and column_name != 'rowid'", [table])):
                    store._query(
                        f"select setval(pg_get_serial_sequence(?, ?), "
                        f'coalesce((select max("{r["c"]}") from "{table}"), 0) + 1, false)',
                        [f'"{table}"', r["c"]])
        done.append(f"the database's tables now hold the backup's rows ({len(names)} tables)")
        if key is not None:
            key_tmp = private_tmp(home, ".key")
            key_tmp.write_bytes(key)
            os.replace(key_tmp, home / TOKEN_KEY_FILE)
        done += _carry_on(store, config, made, moment, extend_hours, told)
    finally:
        store.close()
    return done
