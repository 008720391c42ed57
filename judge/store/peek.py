"""A read-only look at a judge's database that another process may be
writing (``judge status``): what waits in the outbox and the next deadline.
It opens the file read-only and never waits long for a lock."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from judge.store import Store

_QUEUED = ("id", "to", "subject", "attempts", "next_attempt", "last_error")


def peek(db_path: Path, *, queued: bool = False) -> dict[str, Any]:
    """``outbox_queued`` (how many mails wait), ``oldest_queued`` (when the
    oldest was queued, or None), ``next_deadline`` (``{"game", "phase",
    "at"}`` or None), ``failed_since_success`` (the mails filed in Failed
    after the last one handled: ``{"count", "last_at", "last_reason"}``, when
    there are any), ``clock_held`` (when the clock is held) and, with
    ``queued``, ``queued``: every waiting mail.

    A database that cannot be read gives ``database_error`` (in words) and
    whatever was read before it."""
    out: dict[str, Any] = {"outbox_queued": 0, "oldest_queued": None, "next_deadline": None}
    db = sqlite3.connect(f"file:{db_path}?mode=ro", uri=True, timeout=5)
    try:
        has_state = bool(db.execute(
            "select 1 from sqlite_master where name = 'judge_state'").fetchone())
        _look(lambda sql, params: list(db.execute(sql, params).fetchall()), out, queued,
              has_state)
    except sqlite3.Error as exc:
        out["database_error"] = str(exc)
    finally:
        db.close()
    return out


def peek_store(store: Store, *, queued: bool = False) -> dict[str, Any]:
    """:func:`peek` through an open store (PostgreSQL, shared by the daemons)."""
    out: dict[str, Any] = {"outbox_queued": 0, "oldest_queued": None, "next_deadline": None}
    _look(lambda sql, params: [tuple(r.values()) for r in store._query(sql, params)], out,
          queued, "judge_state" in store.table_names())
    return out


def _look(query: Callable[[str, list[Any]], list[tuple[Any, ...]]], out: dict[str, Any],
          queued: bool, has_state: bool) -> None:
    [(count, oldest)] = query(
        "select count(*), min(created) from outbox where status = 'queued'", [])
    out["outbox_queued"] = count
    out["oldest_queued"] = oldest or None
    if queued:
        out["queued"] = [
            dict(zip(_QUEUED, r, strict=True))
            for r in query("select id, to_addr, subject, attempts, next_attempt, "
                           "last_error from outbox where status = 'queued' order by id", [])]
    # The mails filed in Failed after the last one handled (any other
    # status: processed, refused, ...), the newest last.
    [failed] = query(
        "select count(*), max(id) from inbox where status = 'failed' and id > "
        "(select coalesce(max(id), 0) from inbox where status != 'failed')", [])
    if failed[0]:
        [(at, reason)] = query("select received, reason from inbox where id = ?", [failed[1]])
        out["failed_since_success"] = {"count": failed[0], "last_at": at,
                                       "last_reason": reason}
    rows = query("select game, phase, deadline from deadlines order by deadline limit 1", [])
    if rows:
        out["next_deadline"] = {"game": rows[0][0], "phase": rows[0][1], "at": rows[0][2]}
    if has_state:
        held = query("select value from judge_state where key = 'clock.held'", [])
        if held:
            out["clock_held"] = held[0][0]
