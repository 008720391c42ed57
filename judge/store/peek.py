"""A read-only look at a judge's database that another process may be
writing (``judge status``): what waits in the outbox and the next deadline.
It opens the file read-only and never waits long for a lock."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

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
        count, oldest = db.execute(
            "select count(*), min(created) from outbox where status = 'queued'").fetchone()
        out["outbox_queued"] = count
        out["oldest_queued"] = oldest or None
        if queued:
            out["queued"] = [
                dict(zip(_QUEUED, r, strict=True))
                for r in db.execute("select id, to_addr, subject, attempts, next_attempt, "
                                    "last_error from outbox where status = 'queued' "
                                    "order by id")]
        # The mails filed in Failed after the last one handled (any other
        # status: processed, refused, ...), the newest last.
        failed = db.execute(
            "select count(*), max(id) from inbox where status = 'failed' and id > "
            "(select coalesce(max(id), 0) from inbox where status != 'failed')").fetchone()
        if failed[0]:
            at, reason = db.execute("select received, reason from inbox where id = ?",
                                    [failed[1]]).fetchone()
            out["failed_since_success"] = {"count": failed[0], "last_at": at,
                                           "last_reason": reason}
        row = db.execute("select game, phase, deadline from deadlines "
                         "order by deadline limit 1").fetchone()
        if row:
            out["next_deadline"] = {"game": row[0], "phase": row[1], "at": row[2]}
        if db.execute("select 1 from sqlite_master where name = 'judge_state'").fetchone():
            held = db.execute(
                "select value from judge_state where key = 'clock.held'").fetchone()
            if held:
                out["clock_held"] = held[0]
    except sqlite3.Error as exc:
        out["database_error"] = str(exc)
    finally:
        db.close()
    return out
