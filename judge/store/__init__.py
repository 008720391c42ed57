"""The judge's database: games, seats, action log, snapshots, inbox, outbox, deadlines.

Two back-ends, chosen by ``judge.database`` (:mod:`judge.store.dialect`): a
file name is SQLite through sqlite-utils, in WAL mode (the embedded default,
for one judge on one machine); a ``postgresql://`` URL is PostgreSQL through
psycopg 3, which several daemons on several hosts may share. Both carry the
same versioned migrations (the ``migrations`` table records which have run).
Every write the judge makes for one mail happens inside :meth:`Store.atomic`,
so a crash leaves either all of it or none of it.

Secrets: seat tokens are stored only as scrypt hashes (``token_hash``) and are
compared in constant time. The game seed is stored (it must survive restarts to
draw); it never leaves the database before the game ends.
"""

from __future__ import annotations

import errno
import hashlib
import hmac
import json
import os
import secrets
import sqlite3
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import sqlite_utils

from judge.store.dialect import (
    PostgresSchema,
    Schema,
    SqliteSchema,
    connect_postgres,
    is_url,
    pg_sql,
)

if TYPE_CHECKING:
    import psycopg

# --------------------------------------------------------------------------- tokens

#: scrypt cost; the tests lower it through :func:`set_kdf_cost` to stay quick.
_KDF = {"n": 2**14, "r": 8, "p": 1}


def set_kdf_cost(n: int) -> None:
    """Set scrypt's N (a power of two). Hashes keep their own cost, so old
    hashes still verify after a change."""
    _KDF["n"] = n


#: 32 symbols that cannot be mistaken for one another (no i, l, o, 1).
TOKEN_ALPHABET = "abcdefghjkmnpqrstuvwxyz023456789"
TOKEN_LENGTH = 16


def new_token() -> str:
    """A fresh seat token: 16 characters of a 32-symbol alphabet, 80 bits."""
    return "".join(secrets.choice(TOKEN_ALPHABET) for _ in range(TOKEN_LENGTH))


def hash_token(token: str) -> str:
    salt = secrets.token_bytes(16)
    n, r, p = _KDF["n"], _KDF["r"], _KDF["p"]
    digest = hashlib.scrypt(token.encode(), salt=salt, n=n, r=r, p=p, dklen=32)
    return f"scrypt${n}${r}${p}${salt.hex()}${digest.hex()}"


#: Hashes this process has already matched, each with a keyed digest of the
#: token that matched it: a seat sending its next order costs an HMAC, not
#: another scrypt (at the default cost, tens of milliseconds per mail). Only
#: correct tokens get here, so a wrong guess always pays the full scrypt; a
#: changed token has a new hash and never matches an old entry.
_VERIFIED: dict[str, bytes] = {}
_VERIFIED_MAX = 4096
_VERIFIED_KEY = secrets.token_bytes(32)


def _token_tag(token: str) -> bytes:
    return hmac.new(_VERIFIED_KEY, token.encode(), hashlib.sha256).digest()


def check_token(token: str, stored: str | None) -> bool:
    """Constant-time check of ``token`` against a stored hash."""
    if not stored:
        # Spend the same effort so timing does not reveal unknown seats.
        hash_token(token)
        return False
    known = _VERIFIED.get(stored)
    if known is not None and hmac.compare_digest(known, _token_tag(token)):
        return True
    try:
        _, n, r, p, salt, digest = stored.split("$")
        got = hashlib.scrypt(
            token.encode(), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), dklen=32
        )
    except (ValueError, MemoryError):
        return False
    if not hmac.compare_digest(got.hex(), digest):
        return False
    if len(_VERIFIED) >= _VERIFIED_MAX:
        del _VERIFIED[next(iter(_VERIFIED))]  # the oldest entry
    _VERIFIED[stored] = _token_tag(token)
    return True


# --------------------------------------------------------------------------- migrations


def _m1(s: Schema) -> None:
    s.create_table(
        "games",
        {
            "name": str,
            "game": str,
            "status": str,  # forming | active | paused | finished
            "options": str,
            "settings": str,
            "seed": str,
            "seed_hash": str,
            "table_json": str,  # the adjudicator's Table (state, held orders, flags)
            "phase": str,
            "gm_address": str,
            "gm_token_hash": str,
            "created": str,
            "updated": str,
        },
        pk="name",
    )
    s.create_table(
        "seats",
        {
            "id": int,
            "game": str,
            "role": str,  # None until START assigns it
            "wanted": str,
            "address": str,
            "token_hash": str,
            "status": str,  # joined | active | resigned | ejected | bouncing
            "tz": str,
            "joined": str,
        },
        pk="id",
        foreign_keys=[("game", "games", "name")],
    )
    s.create_index("seats", ["game", "role"])
    s.create_index("seats", ["address"])
    s.create_table(
        "actions",
        {
            "seq": int,
            "game": str,
            "n": int,  # 1, 2, ... per game
            "kind": str,
            "role": str,
            "payload": str,
            "draws": str,
            "message_id": str,
            "created": str,
            "undone": int,
        },
        pk="seq",
        foreign_keys=[("game", "games", "name")],
    )
    s.create_index("actions", ["game", "n"], unique=True)
    s.create_table(
        "snapshots",
        {"game": str, "n": int, "table_json": str, "created": str}, pk=("game", "n")
    )
    s.create_table(
        "inbox",
        {
            "id": int,
            "message_id": str,
            "body_hash": str,
            "from_addr": str,
            "subject": str,
            "received": str,
            "status": str,  # processed | dropped | refused | auth-failure | duplicate | failed
            "reason": str,
            "game": str,
            "transport_key": str,
        },
        pk="id",
    )
    s.create_index("inbox", ["message_id"])
    s.create_index("inbox", ["from_addr", "body_hash"])
    s.create_table(
        "outbox",
        {
            "id": int,
            "message_id": str,
            "to_addr": str,
            "envelope_from": str,
            "subject": str,
            "raw": bytes,
            "kind": str,  # ack | report | reminder | notice | press
            "game": str,
            "status": str,  # queued | sent | failed
            "attempts": int,
            "next_attempt": str,
            "last_error": str,
            "created": str,
            "sent": str,
        },
        pk="id",
    )
    s.create_index("outbox", ["message_id"], unique=True)
    s.create_index("outbox", ["status", "next_attempt"])
    s.create_table(
        "deadlines",
        {
            "game": str,
            "phase": str,
            "deadline": str,  # UTC ISO 8601
            "grace_until": str,
            "remind_at": str,
            "reminded": int,
            "late_notice": int,
            "extended_hours": float,
        },
        pk="game",
    )
    s.create_table("ratelimit", {"address": str, "kind": str, "last": str}, pk=("address", "kind"))


def _m2(s: Schema) -> None:
    # The IMAP checkpoint: per mailbox, the UIDVALIDITY seen and the highest
    # UID moved out (judge.mail.imap). Replies are counted per address and hour
    # (limits.replies_per_hour) by the outbox's in_reply_to.
    s.create_table(
        "imap_state",
        {"mailbox": str, "uidvalidity": int, "last_uid": int}, pk="mailbox"
    )
    s.add_column("outbox", "in_reply_to", str, not_null_default="")
    s.create_index("outbox", ["to_addr", "created"])


def _m3(s: Schema) -> None:
    # Mail only when needed (judge.notify): per seat, the decision it was last
    # asked, the last log entry whose events it was sent, the game turn of its
    # last mail, its mail and acknowledgement settings, and acknowledgements
    # waiting to fold into its next mail. A window's clock: when it opened and
    # the earliest it may close. The outbox row names the decision a request
    # asked for, so a reply to it is bound to that decision.
    s.add_column("seats", "asked", str, not_null_default="")
    s.add_column("seats", "seen_n", int, not_null_default=0)
    s.add_column("seats", "turn_seen", str, not_null_default="")
    s.add_column("seats", "mail_mode", str, not_null_default="decisions")
    s.add_column("seats", "ack_mode", str, not_null_default="all")
    s.add_column("seats", "held_ack", str, not_null_default="")
    s.add_column("deadlines", "opened", str, not_null_default="")
    s.add_column("deadlines", "min_close", str, not_null_default="")
    s.add_column("outbox", "decision", str, not_null_default="")
    # A duplicate is the same delivery: the same Message-ID or the same raw
    # bytes, never merely the same body (a body sent again is handled again).
    s.add_column("inbox", "raw_hash", str, not_null_default="")
    s.create_index("inbox", ["raw_hash"])


def _m4(s: Schema) -> None:
    # Hostile mail: the relay claims an outgoing row before it sends it (two
    # relays never send one row twice); what each address or seat caused, for
    # the limits (press per hour, games created per day, strangers answered).
    s.add_column("outbox", "claimed_by", str, not_null_default="")
    s.add_column("outbox", "claimed_until", str, not_null_default="")
    s.create_table(
        "usage",
        {"id": int, "kind": str, "who": str, "at": str, "count": int}, pk="id")
    s.create_index("usage", ["kind", "who", "at"])
    s.create_index("usage", ["kind", "at"])


def _m5(s: Schema) -> None:
    # Secrets at rest: a mail that carries a token (a JOIN's reply, a new
    # seat's notice) is queued with a copy whose tokens are masked; once it is
    # sent (or fails for good) the copy replaces the text and the token is gone.
    s.add_column("outbox", "kept", bytes)


def _m6(s: Schema) -> None:
    # Leagues (judge.game.league, judge.commands.league): a league's name, scoring
    # system and GM; the games that belong to one (a game to one league at
    # most, put there before it starts); its standby list in the order
    # players asked (``offered``: the seat, game/role, a standby was offered
    # for, or ""); who held a league seat before its holder now (reliability
    # counts each decision for the player who held the seat then); and each
    # finished league game's log summary, kept with the log entry it was made
    # at so that standings need not replay every game.
    s.create_table(
        "leagues",
        {"name": str, "scoring": str, "gm_address": str, "created": str}, pk="name")
    s.create_table(
        "league_games",
        {"game": str, "league": str, "added": str}, pk="game",
        foreign_keys=[("game", "games", "name"), ("league", "leagues", "name")])
    s.create_index("league_games", ["league"])
    s.create_table(
        "standby",
        {"league": str, "address": str, "added": str, "offered": str}, pk=("league", "address"),
        foreign_keys=[("league", "leagues", "name")])
    s.create_table(
        "handovers",
        {"id": int, "game": str, "role": str, "address": str, "last_n": int, "reason": str,
         "at": str}, pk="id")
    s.create_index("handovers", ["game"])
    s.create_table("league_results", {"game": str, "last_n": int, "summary": str}, pk="game")


def _m7(s: Schema) -> None:
    # Absences (SET ABSENCE): per seat, the periods it announced, as a JSON
    # list of [from, to] UTC times; a deadline inside one moves to its end.
    s.add_column("seats", "absences", str, not_null_default="[]")


def _m8(s: Schema) -> None:
    # Observers (OBSERVE <game>): addresses that get a game's public reports.
    s.create_table("observers", {"game": str, "address": str, "since": str},
                                 pk=("game", "address"))


def _m9(s: Schema) -> None:
    # Known tokens (Store.check_token): per stored scrypt hash, an HMAC of the
    # token that matched it, under a key kept outside the database (the
    # home's token key file), so that a seat's next mail costs an HMAC, not a
    # scrypt, in any later run. Without the key a tag tells nothing.
    s.create_table("token_tags", {"token_hash": str, "tag": str}, pk="token_hash")


def _m10(s: Schema) -> None:
    # A mail whose retry waits because the server could not be reached at all
    # (judge.relay): when the server answers again its wait is cut short.
    s.add_column("outbox", "waits_for_server", int, not_null_default=0)


def _m11(s: Schema) -> None:
    # Press marked public (PRESS TO PUBLIC): kept for the game's public pages
    # (judge.site.publish), with the sender as the press setting showed it, the
    # phase it was sent in and the log entry it follows. Private press is
    # never kept.
    s.create_table(
        "public_press",
        {"id": int, "game": str, "sender": str, "phase": str, "after_n": int, "text": str,
         "at": str}, pk="id", foreign_keys=[("game", "games", "name")])
    s.create_index("public_press", ["game"])


def _m12(s: Schema) -> None:
    # A queued mail is stored as what it is made of (``spec``: its fields,
    # rendered text, attachments and the views its pictures draw, see
    # judge.outbox) and composed after the commit of the transaction that
    # queued it: ``raw`` and ``kept`` are empty until then, ``spec`` after.
    s.add_column("outbox", "spec", str)
    s.execute("CREATE INDEX outbox_uncomposed ON outbox (id) WHERE raw IS NULL "
               "AND spec IS NOT NULL")


def _m13(s: Schema) -> None:
    # The judge's own small state, by key: the last time a cycle saw and, when
    # the clock jumped forward, why phases wait for the operator
    # (judge.service.Judge.check_clock).
    s.create_table("judge_state", {"key": str, "value": str}, pk="key")


def _m14(s: Schema) -> None:
    # Several daemons on one database (PostgreSQL): a daemon finds the mail
    # another one handled by its transport key, and the same delivery never
    # counts twice as handled (a duplicate is recorded as one). SQLite has one
    # daemon per database (its home lock); its files keep their schema.
    s.create_index("inbox", ["transport_key"])
    if s.postgres:
        s.execute("CREATE UNIQUE INDEX inbox_once ON inbox (raw_hash) WHERE raw_hash != '' "
                  "AND status NOT IN ('failed', 'duplicate')")


MIGRATIONS: list[tuple[int, str, Callable[[Schema], None]]] = [
    (1, "initial tables", _m1),
    (2, "IMAP checkpoint; outbox in_reply_to", _m2),
    (3, "mail per decision: seat cursors and settings; window clocks", _m3),
    (4, "outbox claims; usage counts for the limits", _m4),
    (5, "outbox: a redacted copy kept in place of a sent mail carrying a token", _m5),
    (6, "leagues: their games, standby lists, seat handovers, finished games' summaries", _m6),
    (7, "seats: announced absences", _m7),
    (8, "observers", _m8),
    (9, "known tokens: keyed tags of matched token hashes", _m9),
    (10, "outbox: retries that wait for an unreachable server", _m10),
    (11, "press marked public", _m11),
    (12, "outbox: mail queued as its spec, composed after the commit", _m12),
    (13, "the judge's own state: the clock's last reading, a held clock", _m13),
    (14, "inbox: found by transport key; one handled row per delivery", _m14),
]


# --------------------------------------------------------------------------- rows


@dataclass
class Seat:
    id: int
    game: str
    role: str | None
    wanted: str | None
    address: str
    token_hash: str
    status: str
    tz: str
    asked: str = ""
    seen_n: int = 0
    turn_seen: str = ""
    mail_mode: str = "decisions"
    ack_mode: str = "all"
    held_ack: str = ""
    absences: list[list[str]] = field(default_factory=list)

    @classmethod
    def from_row(cls, row: dict[str, Any]) -> Seat:
        return cls(
            id=row["id"],
            game=row["game"],
            role=row["role"],
            wanted=row["wanted"],
            address=row["address"],
            token_hash=row["token_hash"],
            status=row["status"],
            tz=row["tz"] or "UTC",
            asked=row.get("asked") or "",
            seen_n=int(row.get("seen_n") or 0),
            turn_seen=row.get("turn_seen") or "",
            mail_mode=row.get("mail_mode") or "decisions",
            ack_mode=row.get("ack_mode") or "all",
            held_ack=row.get("held_ack") or "",
            absences=json.loads(row.get("absences") or "[]"),
        )


def private_file(path: Path) -> None:
    """Create the database file readable and writable by its owner alone
    (SQLite gives its -wal and -shm files the same mode), and take those
    rights back from anyone else on an existing one."""
    if str(path) == ":memory:":
        return
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    for p in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if p.exists() and p.stat().st_mode & 0o077:
            p.chmod(0o600)


#: The outbox columns of a row nobody has claimed.
def _sql_value(value: Any) -> Any:
    """A column value as sqlite3 takes it (containers as JSON, as sqlite-utils stores them)."""
    if isinstance(value, dict | list | tuple):
        return json.dumps(value)
    return value


#: Seconds a write waits for another connection's write lock (Store.open).
BUSY_TIMEOUT = 5.0

#: SQLite's primary result codes for "another connection holds the lock".
_SQLITE_BUSY, _SQLITE_LOCKED = 5, 6


def is_busy(exc: BaseException) -> bool:
    """Whether ``exc`` says the database is locked by another connection
    (SQLITE_BUSY or SQLITE_LOCKED once the busy timeout passed): the work
    may be tried again later, nothing is wrong with it. On PostgreSQL: a
    deadlock, a serialization failure or a lock wait that timed out."""
    pg = _pg_state(exc)
    if pg is not None:
        return pg in _PG_RETRY
    if not isinstance(exc, sqlite3.OperationalError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if isinstance(code, int):
        return code & 0xFF in (_SQLITE_BUSY, _SQLITE_LOCKED)
    text = str(exc).lower()
    return "database is locked" in text or "database table is locked" in text


#: SQLite's primary result codes of a fault of the disk or the file rather
#: than of the work: read-only (8), I/O error (10), corrupt (11), disk full
#: (13), cannot open (14), locking protocol (15), not a database (26).
_SQLITE_FAULTS = frozenset({8, 10, 11, 13, 14, 15, 26})
#: The same faults where the operating system reports them.
_OS_FAULTS = frozenset({errno.ENOSPC, errno.EIO, errno.EROFS, errno.EDQUOT})


def is_fault(exc: BaseException) -> str:
    """Why ``exc`` is a fault of the database or the disk under it (full, an
    I/O error, read-only, damaged; or busy, :func:`is_busy`), in words, or
    ``""`` when it is not: such a fault is no fault of the mail being
    handled, which waits for a later cycle. A constraint or any other error
    is the work's own."""
    if is_busy(exc):
        return "database busy (another process holds its write lock)"
    pg = _pg_state(exc)
    if pg is not None:
        psycopg = sys.modules["psycopg"]
        if pg[:2] in _PG_FAULT_CLASSES or (
                isinstance(exc, psycopg.OperationalError) and pg[:2] != "42"):
            return f"database unreachable or failing ({str(exc).strip() or type(exc).__name__})"
        return ""
    if isinstance(exc, sqlite3.IntegrityError):
        return ""
    if isinstance(exc, sqlite3.OperationalError | sqlite3.DatabaseError):
        code = getattr(exc, "sqlite_errorcode", None)
        text = str(exc).lower()
        if (isinstance(code, int) and code & 0xFF in _SQLITE_FAULTS) or any(
                words in text for words in ("disk is full", "disk i/o error", "readonly",
                                            "malformed", "not a database", "unable to open")):
            return f"database fault ({exc})"
        return ""
    if isinstance(exc, OSError) and exc.errno in _OS_FAULTS:
        return f"disk fault ({exc.strerror or exc})"
    return ""


#: PostgreSQL's SQLSTATEs of work that may simply be tried again: a
#: serialization failure, a deadlock, a lock wait past ``lock_timeout``.
_PG_RETRY = frozenset({"40001", "40P01", "55P03"})
#: PostgreSQL's SQLSTATE classes of a fault of the server rather than of the
#: work: connection exceptions, insufficient resources, operator
#: intervention (a restart, a shutdown), system errors.
_PG_FAULT_CLASSES = frozenset({"08", "53", "57", "58"})


def _pg_state(exc: BaseException) -> str | None:
    """The SQLSTATE of a psycopg error (``""`` when it has none, as when the
    connection is lost); None for anything else."""
    psycopg = sys.modules.get("psycopg")
    if psycopg is None or not isinstance(exc, psycopg.Error):
        return None
    return str(getattr(exc, "sqlstate", None) or "")


#: The database's errors, for the callers that catch them (and speak no SQL).
Error = sqlite3.Error
DatabaseError = sqlite3.DatabaseError

#: SQLite's primary result code for "out of memory".
_SQLITE_NOMEM = 7


def is_out_of_memory(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite running out of memory (for one mail: over
    the memory it is given, ``limits.mail_memory_mb``)."""
    code = getattr(exc, "sqlite_errorcode", 0)
    return isinstance(code, int) and code & 0xFF == _SQLITE_NOMEM


def load_token_key(path: Path) -> bytes:
    """The home's token key (32 random bytes, made on first use), in a file
    only its owner may read: it keys the tags of known tokens
    (:meth:`Store.check_token`) and is never stored in the database."""
    try:
        key = path.read_bytes()
    except FileNotFoundError:
        key = secrets.token_bytes(32)
        try:
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:  # another process made it first
            return load_token_key(path)
        with os.fdopen(fd, "wb") as out:
            out.write(key)
        return key
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    if len(key) < 32:
        raise ValueError(f"{path.name}: the token key is damaged ({len(key)} bytes); "
                         "delete it (known seats are then checked with scrypt once more)")
    return key


class Cursor(Protocol):
    """What the store's statements give back on either back-end."""

    @property
    def rowcount(self) -> int: ...


#: The identity column of each table whose key the database numbers
#: (:meth:`Store._insert` returns the new row's number).
_IDENTITY = {"seats": "id", "actions": "seq", "inbox": "id", "outbox": "id", "usage": "id",
             "handovers": "id", "public_press": "id"}

#: The key PostgreSQL's advisory lock of the migrations is taken on (any
#: number; the same in every daemon), so that daemons starting together
#: migrate one after the other.
_MIGRATION_LOCK = 0x6A756467


class Store:
    """The judge's database. Open with :meth:`open`; close with :meth:`close`."""

    def __init__(self, db: sqlite_utils.Database | None,
                 pg: psycopg.Connection[Any] | None = None, *, url: str = "",
                 password: str | None = None) -> None:
        self._db = db
        self._pg = pg
        self._url = url
        self._password = password
        self._lock_timeout = BUSY_TIMEOUT
        #: Whether this is a PostgreSQL store (else SQLite).
        self.postgres = pg is not None
        #: The key of known-token tags (:meth:`check_token`); None: none are kept.
        self.token_key: bytes | None = None

    @property
    def db(self) -> sqlite_utils.Database:
        """The SQLite database (sqlite-utils); a PostgreSQL store has none."""
        if self._db is None:
            raise AttributeError("a PostgreSQL store has no SQLite database")
        return self._db

    @classmethod
    def open(cls, path: Path | str, busy_timeout: float | None = None, *,
             password: str | None = None) -> Store:
        """Open (and migrate) the database: an SQLite file, or the PostgreSQL
        database a ``postgresql://`` URL names (``password``: its password,
        when the URL carries none); ``busy_timeout`` in seconds (default
        :data:`BUSY_TIMEOUT`, see :meth:`set_busy_timeout`)."""
        if is_url(path):
            url = str(path)
            store = cls(None, connect_postgres(url, password), url=url, password=password)
        else:
            private_file(Path(path))
            db = sqlite_utils.Database(str(path))
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA foreign_keys=ON")
            # Deleted and overwritten content is zeroed, so a redacted mail leaves
            # no copy of its token in a free page of the file.
            db.execute("PRAGMA secure_delete=ON")
            store = cls(db)
        store.set_busy_timeout(BUSY_TIMEOUT if busy_timeout is None else busy_timeout)
        store.migrate()
        return store

    def set_busy_timeout(self, seconds: float) -> None:
        """How many seconds a write waits for another connection's write
        lock (on PostgreSQL: for a row or table lock) before it fails with
        "database is locked" (see :func:`is_busy`)."""
        self._lock_timeout = seconds
        millis = max(0, round(seconds * 1000))
        if self._pg is not None:
            self.conn.execute(f"set lock_timeout = {millis}")
        else:
            self.db.execute(f"PRAGMA busy_timeout={millis}")

    def close(self) -> None:
        if self._pg is not None:
            self._pg.close()
        else:
            self.db.close()

    @property
    def conn(self) -> Any:
        """The connection the statements run on (sqlite3 or psycopg). A
        PostgreSQL connection that was lost (the server restarted) is opened
        again here, between transactions."""
        if self._pg is None:
            return self.db.conn
        if self._pg.closed or self._pg.broken:
            self._pg = connect_postgres(self._url, self._password)
            millis = max(0, round(self._lock_timeout * 1000))
            self._pg.execute(f"set lock_timeout = {millis}")
        return self._pg

    def in_transaction(self) -> bool:
        """Whether a transaction is open on the connection."""
        if self._pg is None:
            return bool(self.db.conn.in_transaction)
        from psycopg.pq import TransactionStatus

        return (not self._pg.closed
                and self._pg.info.transaction_status != TransactionStatus.IDLE)

    def rollback_open(self) -> None:
        """End a transaction a fault left open (SQLite may keep one after an
        I/O error or a full disk; PostgreSQL after a failed statement)."""
        if not self.in_transaction():
            return
        if self._pg is not None:
            self._pg.rollback()
        else:
            self.db.conn.execute("ROLLBACK")

    # ----------------------------------------------------------------- schema

    def table_names(self) -> list[str]:
        if self._pg is None:
            return list(self.db.table_names())
        return [r["t"] for r in self._query(
            "select tablename as t from pg_tables where schemaname = current_schema()")]

    def migrate(self) -> list[int]:
        """Run every migration not yet applied; return the versions run."""
        if self._pg is not None:
            return self._migrate_postgres()
        if "migrations" not in self.db.table_names():
            self.db.table("migrations").create({"version": int, "name": str}, pk="version")
        done = {r["version"] for r in self.db.table("migrations").rows}
        ran = []
        for version, name, step in MIGRATIONS:
            if version in done:
                continue
            with self.db.atomic():
                step(SqliteSchema(self.db))
                self.db.table("migrations").insert({"version": version, "name": name})
            ran.append(version)
        return ran

    def _migrate_postgres(self) -> list[int]:
        conn = self.conn
        ran = []
        with conn.transaction():
            # Daemons that start together migrate one after the other.
            conn.execute("select pg_advisory_xact_lock(%s)", [_MIGRATION_LOCK])
            if "migrations" not in self.table_names():
                conn.execute("create table migrations (version bigint primary key, name text)")
            done = {r["version"] for r in self._query("select version from migrations")}
            for version, name, step in MIGRATIONS:
                if version in done:
                    continue
                step(PostgresSchema(conn))
                self._write("insert into migrations (version, name) values (?, ?)",
                            [version, name])
                ran.append(version)
        return ran

    def schema_version(self) -> int:
        rows = list(self._query("select max(version) as v from migrations"))
        return int(rows[0]["v"] or 0)

    @contextmanager
    def atomic(self) -> Iterator[Store]:
        """One transaction; nested calls become savepoints.

        On SQLite the outermost one starts with ``BEGIN IMMEDIATE``: it takes
        the write lock at once (waiting up to the busy timeout), so a CLI
        command and the daemon writing at the same time queue up instead of
        failing halfway when a read transaction cannot be upgraded. On
        PostgreSQL writers lock rows, not the database (:meth:`lock_game`)."""
        if self._pg is not None:
            with self.conn.transaction():
                yield self
            return
        conn = self.db.conn
        if conn.in_transaction:
            with self.db.atomic():  # a savepoint
                yield self
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield self
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    # ----------------------------------------------------------------- statements

    # The hot path (one mail: a dozen statements) talks to the connection
    # directly: sqlite-utils' table objects look the schema up and wrap each
    # query in a savepoint, which cost more than the statements themselves.
    # Statements are written with ``?`` placeholders (pg_sql turns them into
    # psycopg's) in the SQL both back-ends speak.

    def _query(self, sql: str, params: Sequence[Any] = ()) -> Iterator[dict[str, Any]]:
        if self._pg is not None:
            cursor = self.conn.execute(pg_sql(sql), list(params))
        else:
            cursor = self.db.conn.execute(sql, params)
        keys = [d[0] for d in cursor.description]
        return (dict(zip(keys, row, strict=True)) for row in cursor.fetchall())

    def _write(self, sql: str, values: Sequence[Any]) -> Cursor:
        """Run a write statement; outside a transaction it commits at once."""
        if self._pg is not None:  # autocommit: a statement outside atomic() commits
            cursor: Cursor = self.conn.execute(pg_sql(sql), list(values))
            return cursor
        conn = self.db.conn
        was_open = conn.in_transaction
        try:
            cursor = conn.execute(sql, values)
        except BaseException:
            if not was_open and conn.in_transaction:
                conn.rollback()
            raise
        if not was_open and conn.in_transaction:
            conn.commit()
        return cursor

    def _insert(self, table: str, row: dict[str, Any], *, ignore: bool = False) -> int:
        """Insert ``row`` (nothing when ``ignore`` and its key is taken);
        returns the new row's number, for a table the database numbers."""
        columns = ", ".join(f'"{c}"' for c in row)
        marks = ", ".join("?" * len(row))
        values = [_sql_value(v) for v in row.values()]
        if self._pg is None:
            verb = "INSERT OR IGNORE" if ignore else "INSERT"
            cursor = self._write(f'{verb} INTO "{table}" ({columns}) VALUES ({marks})', values)
            return int(getattr(cursor, "lastrowid", 0) or 0)
        sql = f'INSERT INTO "{table}" ({columns}) VALUES ({marks})'
        if ignore:
            sql += " ON CONFLICT DO NOTHING"
        key = _IDENTITY.get(table)
        if key is None:
            self._write(sql, values)
            return 0
        rows = list(self._query(f'{sql} RETURNING "{key}"', values))
        return int(rows[0][key]) if rows else 0

    def _upsert(self, table: str, row: dict[str, Any], keys: Sequence[str]) -> None:
        """Insert ``row``, or update the row with its ``keys`` (both back-ends)."""
        columns = ", ".join(f'"{c}"' for c in row)
        marks = ", ".join("?" * len(row))
        sets = ", ".join(f'"{c}" = excluded."{c}"' for c in row if c not in keys)
        on = ", ".join(f'"{k}"' for k in keys)
        self._write(f'INSERT INTO "{table}" ({columns}) VALUES ({marks}) '
                    f"ON CONFLICT ({on}) DO " + (f"UPDATE SET {sets}" if sets else "NOTHING"),
                    [_sql_value(v) for v in row.values()])

    def _update(self, table: str, key: str, value: Any, fields: dict[str, Any]) -> None:
        if not fields:
            return
        sets = ", ".join(f'"{c}" = ?' for c in fields)
        values = [_sql_value(v) for v in fields.values()]
        self._write(f'UPDATE "{table}" SET {sets} WHERE "{key}" = ?', [*values, value])

    # ----------------------------------------------------------------- games

    def game(self, name: str) -> dict[str, Any] | None:
        """The game called ``name`` (names are stored case-folded).

        On PostgreSQL, read inside a transaction, the row is locked (``FOR
        UPDATE``) until the transaction ends: the mail or deadline that reads
        a game is the only one changing it, and a second daemon reading it
        waits and then reads what the first one left."""
        sql = "select * from games where name in (?, ?) order by name = ? desc"
        if self._pg is not None and self.in_transaction():
            sql += " for update"
        rows = list(self._query(sql, [name, name.lower(), name]))
        return rows[0] if rows else None

    def try_lock_game(self, name: str) -> bool:
        """Inside a transaction, lock the game ``name`` unless another daemon
        holds it (PostgreSQL: ``FOR UPDATE SKIP LOCKED``); False: leave it to
        that one. On SQLite (one daemon, the database's write lock) always True."""
        if self._pg is None:
            return True
        rows = list(self._query("select name from games where name in (?, ?) "
                                "for update skip locked", [name, name.lower()]))
        return bool(rows)

    def claim_mail(self, raw: bytes) -> bool:
        """Inside a transaction, claim the mail ``raw`` for this daemon until
        the transaction ends (PostgreSQL: a transaction-level advisory lock
        keyed by its bytes); False: another daemon is handling it now. On
        SQLite always True."""
        if self._pg is None:
            return True
        key = int.from_bytes(hashlib.sha256(raw).digest()[:8], "big", signed=True)
        rows = list(self._query("select pg_try_advisory_xact_lock(?) as took", [key]))
        return bool(rows[0]["took"])

    def handled_key(self, transport_key: str) -> bool:
        """Whether the inbox holds a handled mail read under ``transport_key``
        (by another daemon, which has not moved it yet or died before)."""
        rows = list(self._query(
            "select 1 from inbox where transport_key = ? and status != 'failed' limit 1",
            [transport_key]))
        return bool(rows)

    def forming_games(self) -> list[str]:
        return [r["name"] for r in self._query(
            "select name from games where status = 'forming' order by created, name")]

    def game_names(self) -> list[str]:
        return [r["name"] for r in self._query("select name from games order by created, name")]

    def forming_seats(self) -> list[dict[str, Any]]:
        """Every seat (and request for one) of every forming game, with its
        game's GM and settings, by game and seat id."""
        return list(self._query(
            "select s.id, s.game, s.address, s.wanted, s.status, g.gm_address, g.settings, "
            "g.game as kind from seats s join games g on g.name = s.game "
            "where g.status = 'forming' order by s.game, s.id"))

    def insert_game(self, row: dict[str, Any]) -> None:
        self._insert("games", row)

    def update_game(self, name: str, **fields: Any) -> None:
        self._update("games", "name", name, fields)

    # ----------------------------------------------------------------- seats

    def seats(self, game: str) -> list[Seat]:
        return [
            Seat.from_row(r)
            for r in self._query("select * from seats where game = ? order by id", [game])
        ]

    def seat(self, game: str, role: str) -> Seat | None:
        rows = list(
            self._query(
                "select * from seats where game = ? and lower(role) = lower(?)", [game, role]
            )
        )
        return Seat.from_row(rows[0]) if rows else None

    def add_seat(
        self,
        game: str,
        address: str,
        token_hash: str,
        *,
        role: str | None = None,
        wanted: str | None = None,
        status: str = "joined",
        tz: str = "UTC",
        now: str = "",
    ) -> int:
        return self._insert(
            "seats",
            {
                "game": game,
                "role": role,
                "wanted": wanted,
                "address": address.lower(),
                "token_hash": token_hash,
                "status": status,
                "tz": tz,
                "joined": now,
            },
        )

    def update_seat(self, seat_id: int, **fields: Any) -> None:
        self._update("seats", "id", seat_id, fields)

    def delete_seat(self, seat_id: int) -> None:
        self._write("delete from seats where id = ?", [seat_id])

    def token_hash(self, game: str, role: str) -> str | None:
        """The stored token hash a SIGNON for ``role`` (or GM) in ``game`` is
        checked against: the seat's by its role or the role it asked for."""
        if role.upper() == "GM":
            rows = list(self._query("select gm_token_hash as h from games where name in (?, ?)",
                                    [game, game.lower()]))
        else:
            rows = list(self._query(
                "select token_hash as h from seats where game in (?, ?) and "
                "(lower(role) = lower(?) or (role is null and lower(wanted) = lower(?))) "
                "order by role is null limit 1", [game, game.lower(), role, role]))
        return str(rows[0]["h"]) if rows else None

    def token_owner(self, game: str, role: str) -> tuple[str | None, str | None]:
        """(:meth:`token_hash`, the address a SIGNON for it must come from)
        in one query; ``(None, None)`` for an unknown game or role."""
        if role.upper() == "GM":
            rows = list(self._query(
                "select gm_token_hash as h, gm_address as a from games where name in (?, ?)",
                [game, game.lower()]))
        else:
            rows = list(self._query(
                "select token_hash as h, address as a from seats where game in (?, ?) and "
                "(lower(role) = lower(?) or (role is null and lower(wanted) = lower(?))) "
                "order by role is null limit 1", [game, game.lower(), role, role]))
        if not rows:
            return None, None
        return (str(rows[0]["h"]) if rows[0]["h"] is not None else None,
                str(rows[0]["a"]) if rows[0]["a"] is not None else None)

    def _tag(self, stored: str, token: str) -> str:
        assert self.token_key is not None
        return hmac.new(self.token_key, f"{stored}\0{token}".encode(),
                        hashlib.sha256).hexdigest()

    def check_token(self, token: str, stored: str | None) -> bool:
        """:func:`check_token`, remembering across runs the hashes a token
        matched: with a token key (:attr:`token_key`) a match is recorded as
        an HMAC of the hash and the token under that key, and a later check
        of the same token against the same hash costs an HMAC instead of a
        scrypt. A tag that does not match proves nothing and the full scrypt
        runs, so a wrong guess costs what it always did; a stolen database
        without the key file gives an attacker nothing the hashes did not."""
        if self.token_key is None or not stored:
            return check_token(token, stored)
        rows = list(self._query("select tag from token_tags where token_hash = ?", [stored]))
        if rows and hmac.compare_digest(str(rows[0]["tag"]), self._tag(stored, token)):
            return True
        if not check_token(token, stored):
            return False
        try:
            self._upsert("token_tags", {"token_hash": stored, "tag": self._tag(stored, token)},
                         ["token_hash"])
        except Exception as exc:
            if not is_fault(exc):
                raise  # busy or full: recorded at the next match
        return True

    def prune_token_tags(self) -> int:
        """Forget the tags of hashes no seat or game holds any more."""
        return int(self._write(
            "delete from token_tags where token_hash not in (select token_hash from seats "
            "where token_hash is not null union select gm_token_hash from games "
            "where gm_token_hash is not null)", []).rowcount)

    def observers(self, game: str) -> list[str]:
        return [r["address"] for r in self._query(
            "select address from observers where game = ? order by since, address", [game])]

    def observe(self, game: str, address: str, since: str, on: bool) -> None:
        if on:
            self._insert("observers", {"game": game, "address": address.lower(),
                                       "since": since}, ignore=True)
        else:
            self._write("delete from observers where game = ? and address = ?",
                        [game, address.lower()])

    def add_public_press(self, game: str, sender: str, phase: str, after_n: int, text: str,
                         now: str) -> None:
        """Keep a press message marked public (shown on the game's public page)."""
        self._insert("public_press", {"game": game, "sender": sender, "phase": phase,
                                      "after_n": after_n, "text": text, "at": now})

    def public_press(self, game: str) -> list[dict[str, Any]]:
        """``game``'s public press, oldest first."""
        return list(self._query("select * from public_press where game = ? order by id",
                                [game]))

    def is_registered(self, address: str) -> bool:
        rows = list(
            self._query(
                "select 1 from seats where address = ? union "
                "select 1 from games where gm_address = ? union "
                "select 1 from leagues where gm_address = ? limit 1",
                [address.lower()] * 3,
            )
        )
        return bool(rows)

    # ----------------------------------------------------------------- action log

    def append_action(
        self,
        game: str,
        kind: str,
        role: str | None,
        payload: dict[str, Any],
        draws: list[Any],
        message_id: str,
        now: str,
    ) -> int:
        rows = list(self._query("select max(n) as n from actions where game = ?", [game]))
        n = int(rows[0]["n"] or 0) + 1
        self._insert(
            "actions",
            {
                "game": game,
                "n": n,
                "kind": kind,
                "role": role,
                "payload": json.dumps(payload, sort_keys=True),
                "draws": json.dumps(draws),
                "message_id": message_id,
                "created": now,
                "undone": 0,
            },
        )
        return n

    def actions(self, game: str, *, include_undone: bool = False) -> list[dict[str, Any]]:
        sql = "select * from actions where game = ?"
        if not include_undone:
            sql += " and undone = 0"
        return list(self._query(sql + " order by n", [game]))

    def actions_after(self, game: str, n: int, before: int | None = None) -> list[dict[str, Any]]:
        """The log entries after entry ``n`` (and before entry ``before``,
        when given) that are not undone, oldest first."""
        if before is not None:
            return list(self._query(
                "select * from actions where game = ? and n > ? and n < ? and undone = 0 "
                "order by n", [game, n, before]))
        return list(self._query(
            "select * from actions where game = ? and n > ? and undone = 0 order by n", [game, n]))

    def last_of_kinds(self, game: str, kinds: Sequence[str]) -> int:
        """The number of the latest log entry (not undone) of one of ``kinds``; 0: none."""
        marks = ", ".join("?" * len(kinds))
        rows = list(self._query(
            f"select max(n) as n from actions where game = ? and undone = 0 and kind in ({marks})",
            [game, *kinds]))
        return int(rows[0]["n"] or 0)

    def last_action(self, game: str) -> int:
        rows = list(self._query("select max(n) as n from actions where game = ?", [game]))
        return int(rows[0]["n"] or 0)

    def latest_snapshot(self, game: str, before: int | None = None) -> dict[str, Any] | None:
        """The newest snapshot (at or before entry ``before``, if given)."""
        sql = "select * from snapshots where game = ?"
        params: list[Any] = [game]
        if before is not None:
            sql += " and n <= ?"
            params.append(before)
        rows = list(self._query(sql + " order by n desc limit 1", params))
        return rows[0] if rows else None

    def undo_actions_after(self, game: str, n: int) -> int:
        cur = self._write(
            "update actions set undone = 1 where game = ? and n > ? and undone = 0", [game, n]
        )
        return int(cur.rowcount)

    def save_snapshot(self, game: str, n: int, table_json: str, now: str) -> None:
        self._upsert("snapshots", {"game": game, "n": n, "table_json": table_json,
                                   "created": now}, ["game", "n"])

    def snapshots(self, game: str) -> list[dict[str, Any]]:
        return list(self._query("select * from snapshots where game = ? order by n", [game]))

    def delete_snapshots_after(self, game: str, n: int) -> None:
        self._write("delete from snapshots where game = ? and n > ?", [game, n])

    # ----------------------------------------------------------------- inbox

    def seen_message(self, message_id: str) -> dict[str, Any] | None:
        rows = list(
            self._query(
                "select * from inbox where message_id = ? and status != 'failed' limit 1",
                [message_id],
            )
        )
        return rows[0] if rows else None

    def seen_raw(self, raw_hash: str) -> bool:
        """Whether a message with exactly these bytes was handled before."""
        rows = list(self._query(
            "select 1 from inbox where raw_hash = ? and status != 'failed' limit 1", [raw_hash]))
        return bool(rows)

    def record_inbox(self, row: dict[str, Any]) -> None:
        self._insert("inbox", row)

    def inbox(self) -> list[dict[str, Any]]:
        return list(self._query("select * from inbox order by id"))

    # ----------------------------------------------------------------- outbox

    def queue_mail(self, row: dict[str, Any]) -> None:
        """Queue one outgoing mail; the same Message-ID is never queued twice."""
        self._insert(
            "outbox",
            {"status": "queued", "attempts": 0, "last_error": "", "sent": "", **row},
            ignore=True,
        )

    # Composition (judge.outbox): a row is queued with its spec and no text;
    # the text is written once, after the commit, and the spec dropped.

    def uncomposed(self, ids: Sequence[int] | None = None) -> list[int]:
        """The queued outbox rows not composed yet (of ``ids``, when given), oldest first."""
        sql = ("select id from outbox where raw is null and spec is not null "
               "and status = 'queued'")
        params: list[Any] = []
        if ids is not None:
            if not ids:
                return []
            sql += f" and id in ({', '.join('?' * len(ids))})"
            params = list(ids)
        return [int(r["id"]) for r in self._query(sql + " order by id", params)]

    def mail_spec(self, mail_id: int) -> str | None:
        """The spec of outbox row ``mail_id``, if it is not composed yet."""
        rows = list(self._query("select spec from outbox where id = ? and raw is null",
                                [mail_id]))
        return str(rows[0]["spec"]) if rows and rows[0]["spec"] is not None else None

    def set_composed(self, mail_id: int, raw: bytes, kept: bytes) -> bool:
        """Write the composed text of ``mail_id`` and its kept copy, and
        drop its spec, unless it was composed already; whether it was written."""
        return bool(self._write(
            "update outbox set raw = ?, kept = ?, spec = null where id = ? and raw is null",
            [raw, kept, mail_id]).rowcount)

    def mark_uncomposable(self, mail_id: int, error: str) -> None:
        """``mail_id`` could not be composed: failed for good, its spec dropped."""
        self._write("update outbox set status = 'failed', last_error = ?, spec = null, "
                    "claimed_by = '', claimed_until = '' where id = ? and raw is null",
                    [error, mail_id])

    def prune_sent(self, before: str) -> int:
        """Delete the outbox rows of mail that left (sent, failed for good,
        bounced) before ``before``; returns how many."""
        return int(self._write(
            "delete from outbox where status in ('sent', 'failed', 'bounced') "
            "and (case when sent != '' then sent else created end) < ?", [before]).rowcount)

    def outbox(self, status: str | None = None) -> list[dict[str, Any]]:
        if status is None:
            return list(self._query("select * from outbox order by id"))
        return list(self._query("select * from outbox where status = ? order by id", [status]))

    def mail_by_message_id(self, message_id: str) -> dict[str, Any] | None:
        rows = list(self._query("select * from outbox where message_id = ?", [message_id]))
        return rows[0] if rows else None

    def mail_by_token(self, token: str) -> dict[str, Any] | None:
        """The outbox row whose Message-ID starts ``<token@`` (any domain;
        letters in either case, as SQLite's ``like`` compares them)."""
        rows = list(self._query("select * from outbox where lower(message_id) like ? limit 1",
                                [f"<{token.lower()}@%"]))
        return rows[0] if rows else None

    def mark_bounced(self, mail_id: int, error: str) -> None:
        """A mail the relay handed over came back (a 5xx or a delivery report)."""
        self._update("outbox", "id", mail_id, {"status": "bounced", "last_error": error})

    def mails_from_since(self, address: str, since: str) -> list[dict[str, Any]]:
        """Mails read from ``address`` (processed, not set aside) received at
        or after ``since``, oldest first."""
        return list(self._query(
            "select received, game, subject from inbox where from_addr = ? and received >= ? "
            "and status = 'processed' order by received, id", [address, since]))

    def replies_since(self, address: str, since: str, until: str) -> int:
        """Replies (outbox rows answering a mail) queued to ``address`` from
        ``since`` to ``until`` (now): a row dated after ``until`` was written
        while the clock ran ahead, and counts for nothing (a clock moved
        back never refuses mail at the true time)."""
        rows = list(
            self._query(
                "select count(*) as n from outbox where to_addr = ? and created >= ? "
                "and created <= ? and in_reply_to != ''",
                [address, since, until],
            )
        )
        return int(rows[0]["n"])

    def bounce_seats(self, address: str) -> list[Seat]:
        """Mark every active or joined seat of ``address`` bouncing; returns
        the seats changed (as they were before)."""
        seats = [
            Seat.from_row(r)
            for r in self._query(
                "select seats.* from seats join games on games.name = seats.game "
                "where seats.address = ? and seats.status in ('active', 'joined') "
                "and games.status != 'finished' order by seats.id",
                [address.lower()],
            )
        ]
        for seat in seats:
            self.update_seat(seat.id, status="bouncing")
        return seats

    # ----------------------------------------------------------------- IMAP checkpoint

    def imap_mark(self, mailbox: str) -> tuple[int, int] | None:
        """(UIDVALIDITY, last UID done) of ``mailbox``, or None."""
        rows = list(self._query("select * from imap_state where mailbox = ?", [mailbox]))
        return (int(rows[0]["uidvalidity"]), int(rows[0]["last_uid"])) if rows else None

    def set_imap_mark(self, mailbox: str, uidvalidity: int, last_uid: int) -> None:
        self._upsert("imap_state",
                     {"mailbox": mailbox, "uidvalidity": uidvalidity, "last_uid": last_uid},
                     ["mailbox"])

    # ----------------------------------------------------------------- deadlines

    def deadline(self, game: str) -> dict[str, Any] | None:
        rows = list(self._query("select * from deadlines where game = ?", [game]))
        return rows[0] if rows else None

    def set_deadline(self, row: dict[str, Any]) -> None:
        self._upsert("deadlines", row, ["game"])

    def clear_deadline(self, game: str) -> None:
        self._write("delete from deadlines where game = ?", [game])

    def deadlines(self) -> list[dict[str, Any]]:
        return list(self._query("select * from deadlines order by deadline"))

    # ----------------------------------------------------------------- leagues

    def league(self, name: str) -> dict[str, Any] | None:
        """The league called ``name`` (names are stored case-folded)."""
        rows = list(self._query("select * from leagues where name = ?", [name.lower()]))
        return rows[0] if rows else None

    def leagues(self) -> list[dict[str, Any]]:
        return list(self._query("select * from leagues order by created, name"))

    def insert_league(self, name: str, scoring: str, gm_address: str, now: str) -> None:
        self._insert("leagues", {"name": name.lower(), "scoring": scoring,
                                 "gm_address": gm_address.lower(), "created": now})

    def set_league(self, game: str, league: str, now: str) -> None:
        """Put ``game`` in ``league`` (out of any league it was in)."""
        self._upsert("league_games", {"game": game, "league": league.lower(), "added": now},
                     ["game"])

    def league_of(self, game: str) -> str | None:
        rows = list(self._query("select league from league_games where game = ?", [game]))
        return str(rows[0]["league"]) if rows else None

    def league_games(self, league: str) -> list[str]:
        """The games of ``league``, in the order they were put in it."""
        return [r["game"] for r in self._query(
            "select game from league_games where league = ? order by added, rowid",
            [league.lower()])]

    def standby(self, league: str) -> list[dict[str, Any]]:
        """``league``'s standby list, first come first."""
        return list(self._query("select * from standby where league = ? order by added, rowid",
                                [league.lower()]))

    def add_standby(self, league: str, address: str, now: str) -> None:
        self._insert("standby", {"league": league.lower(), "address": address.lower(),
                                 "added": now, "offered": ""}, ignore=True)

    def remove_standby(self, league: str, address: str) -> bool:
        cursor = self._write("delete from standby where league = ? and address = ?",
                             [league.lower(), address.lower()])
        return cursor.rowcount > 0

    def mark_standby(self, league: str, address: str, offered: str) -> None:
        """Record the seat (``game/role``) a standby was offered for ("": none)."""
        self._write("update standby set offered = ? where league = ? and address = ?",
                    [offered, league.lower(), address.lower()])

    def release_standby(self, league: str, offered: str) -> None:
        """Standbys offered for seat ``offered`` wait again, in their places."""
        self._write("update standby set offered = '' where league = ? and offered = ?",
                    [league.lower(), offered])

    def add_handover(self, game: str, role: str, address: str, last_n: int, reason: str,
                     now: str) -> None:
        """``address`` left seat ``role`` of ``game``, having held it up to entry ``last_n``."""
        self._insert("handovers", {"game": game, "role": role, "address": address.lower(),
                                   "last_n": last_n, "reason": reason, "at": now})

    def handovers(self, game: str) -> list[dict[str, Any]]:
        return list(self._query("select * from handovers where game = ? order by last_n, id",
                                [game]))

    def league_summary(self, game: str) -> dict[str, Any] | None:
        """The kept summary of a finished game's log (``last_n``, ``summary``)."""
        rows = list(self._query("select * from league_results where game = ?", [game]))
        return rows[0] if rows else None

    def save_league_summary(self, game: str, last_n: int, summary: str) -> None:
        self._upsert("league_results", {"game": game, "last_n": last_n, "summary": summary},
                     ["game"])

    # ----------------------------------------------------------------- usage

    def use(self, kind: str, who: str, at: str, count: int = 1) -> None:
        """Record that ``who`` caused ``count`` things of ``kind`` at ``at``."""
        self._insert("usage", {"kind": kind, "who": who, "at": at, "count": count})

    def used(self, kind: str, who: str, since: str, until: str) -> int:
        """How many things of ``kind`` ``who`` caused from ``since`` to
        ``until`` (now; what was recorded while the clock ran ahead of it
        does not count)."""
        rows = list(self._query(
            "select coalesce(sum(count), 0) as n from usage where kind = ? and who = ? "
            "and at >= ? and at <= ?", [kind, who, since, until]))
        return int(rows[0]["n"])

    def users(self, kind: str, since: str, until: str) -> int:
        """How many different ``who`` caused things of ``kind`` from ``since``
        to ``until`` (now)."""
        rows = list(self._query(
            "select count(distinct who) as n from usage where kind = ? and at >= ? and at <= ?",
            [kind, since, until]))
        return int(rows[0]["n"])

    def state(self, key: str) -> str | None:
        """A value of the judge's own state (``judge_state``), or None."""
        rows = list(self._query("select value from judge_state where key = ?", [key]))
        return str(rows[0]["value"]) if rows else None

    def set_state(self, key: str, value: str | None) -> None:
        """Set (or, with None, remove) a value of the judge's own state."""
        if value is None:
            self._write("delete from judge_state where key = ?", [key])
        else:
            self._write("insert into judge_state (key, value) values (?, ?) "
                        "on conflict(key) do update set value = excluded.value", [key, value])

    def prune_usage(self, before: str) -> None:
        self._write("delete from usage where at < ?", [before])

    # ----------------------------------------------------------------- rate limits

    def allow(self, address: str, kind: str, now: str, since: str) -> bool:
        """True (and record ``now``) unless ``address`` had a ``kind`` mail after
        ``since`` and not after ``now`` (one recorded while the clock ran
        ahead does not hold the address back).

        One statement, so that two daemons asking at once cannot both be
        allowed: the row is written only where it is absent or not in that span."""
        cursor = self._write(
            "INSERT INTO ratelimit (address, kind, last) VALUES (?, ?, ?) "
            "ON CONFLICT (address, kind) DO UPDATE SET last = excluded.last "
            "WHERE ratelimit.last <= ? OR ratelimit.last > ?", [address, kind, now, since, now])
        return cursor.rowcount > 0
