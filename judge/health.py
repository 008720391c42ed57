"""``judge status``: is the daemon cycling, and what is waiting.

After every cycle ``judge serve`` writes :data:`HEARTBEAT_NAME` in its home
(a small JSON file, replaced whole): when the last cycle ended, the last
failed cycle's time and error, and of the last cycle that read mail how many
mails it read and the reasons of those it filed in Failed. :func:`status`
reads it with the database and the inbox, without opening a mail
connection: how long ago the last cycle was, how many mails wait in the
inbox (Maildir; an IMAP inbox is not counted), the oldest mail queued in the
outbox, the next deadline, and the mails filed in Failed since the last one
handled (their count, the last one's time and reason), and why phases are
held when the clock jumped forward (``judge clock confirm``).

The judge is not ok (``judge status`` exits 1) when the last cycle is stale
or when the last cycle that read mail filed any in Failed: a judge that
fails every mail of a game is as broken as one that stopped, even though it
cycles. (A cycle that reads nothing leaves that record as it was, so a quiet
minute does not hide the failure from a monitor.)
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from judge import config as cfg
from judge.store.peek import peek, peek_store

log = logging.getLogger("judge")

HEARTBEAT_NAME = "judge.heartbeat"
"""The file in the home the daemon rewrites after every cycle."""

STALE_POLLS = 3
"""The last cycle is stale when older than this many ``poll_seconds``."""


def beat(home: Path, *, ok: bool, error: str = "", now: datetime | None = None,
         read: int = 0, failed: Sequence[str] = ()) -> None:
    """Record a finished cycle (``ok``) that read ``read`` mails and filed
    those with the reasons ``failed`` in Failed, or a failed cycle
    (``error``)."""
    when = (now or datetime.now(UTC)).isoformat(timespec="seconds")
    path = home / HEARTBEAT_NAME
    state = read_heartbeat(home)
    state["pid"] = os.getpid()
    if ok:
        state["last_cycle"] = when
        if read or failed:
            state["mail_cycle"] = {"at": when, "read": read, "failed": len(failed),
                                   "last_reason": failed[-1][:500] if failed else None}
    else:
        state["last_failure"] = when
        state["last_error"] = error[:500]
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.write_text(json.dumps(state, sort_keys=True) + "\n", encoding="utf-8")
        os.replace(tmp, path)
    except OSError as exc:  # the daemon goes on; `judge status` will say it is stale
        log.warning("could not record the cycle in %s: %s", path, exc)


def read_heartbeat(home: Path) -> dict[str, Any]:
    try:
        state = json.loads((home / HEARTBEAT_NAME).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) else {}


def _inbox_waiting(config: cfg.Config) -> int | None:
    if config.mail_in.get("transport", "maildir") != "maildir":
        return None
    folder = config.path(str(config.mail_in.get("path", "mail/in")))
    return sum(1 for sub in ("new", "cur") if (folder / sub).is_dir()
               for p in (folder / sub).iterdir() if p.is_file() and not p.name.startswith("."))


def _age(now: datetime, iso: str | None) -> float | None:
    if not iso:
        return None
    then = datetime.fromisoformat(iso)
    if then.tzinfo is None:
        then = then.replace(tzinfo=UTC)
    return round((now - then).total_seconds(), 1)


def status(home: Path, stale_seconds: float | None = None,
           now: datetime | None = None, queued: bool = False) -> dict[str, Any]:
    """The daemon's health as a dict (``ok`` false when the last cycle is
    older than ``stale_seconds``, default :data:`STALE_POLLS` polls, or
    there has been none); with ``queued``, every mail waiting in the outbox
    too. Raises ConfigError for a missing or bad home."""
    config = cfg.load(home)
    now = now or datetime.now(UTC)
    limit = stale_seconds if stale_seconds is not None else STALE_POLLS * config.poll_seconds
    beat_state = read_heartbeat(home)
    age = _age(now, beat_state.get("last_cycle"))
    out: dict[str, Any] = {
        "home": str(home),
        "last_cycle": beat_state.get("last_cycle"),
        "last_cycle_age_seconds": age,
        "stale_after_seconds": limit,
        "last_failure": beat_state.get("last_failure"),
        "last_error": beat_state.get("last_error"),
        "inbox_waiting": _inbox_waiting(config),
        "outbox_queued": 0,
        "oldest_queued": None,
        "oldest_queued_age_seconds": None,
        "next_deadline": None,
        "last_mail_cycle": beat_state.get("mail_cycle"),
        "failed_since_success": {"count": 0, "last_at": None, "last_reason": None},
    }
    if config.postgres:  # this daemon's heartbeat (its home), the shared database's queue
        out.update(_postgres_figures(config, now, queued))
    elif config.db_path.exists():
        looked = peek(config.db_path, queued=queued)
        out.update(looked)
        if looked["oldest_queued"]:
            out["oldest_queued_age_seconds"] = _age(now, looked["oldest_queued"])
    mail_cycle = out["last_mail_cycle"]
    out["failing"] = bool(mail_cycle and mail_cycle.get("failed"))
    out["ok"] = (age is not None and age <= limit and "database_error" not in out
                 and "clock_held" not in out and not out["failing"])
    return out


def _postgres_figures(config: cfg.Config, now: datetime, queued: bool) -> dict[str, Any]:
    """The database's part of :func:`status` on PostgreSQL (shared by every
    daemon; the heartbeat above is this home's daemon's own)."""
    from judge.mailconfig import database_password
    from judge.store import Store, is_fault

    try:
        store = Store.open(config.database, busy_timeout=5, password=database_password(config))
    except Exception as exc:
        if not is_fault(exc):
            raise
        return {"database_error": str(exc).strip()}
    try:
        figures = peek_store(store, queued=queued)
    except Exception as exc:
        if not is_fault(exc):
            raise
        return {"database_error": str(exc).strip()}
    finally:
        store.close()
    if figures["oldest_queued"]:
        figures["oldest_queued_age_seconds"] = _age(now, figures["oldest_queued"])
    return figures


def describe(state: dict[str, Any]) -> str:
    """:func:`status` as lines for a person."""
    def since(seconds: float | None) -> str:
        return "" if seconds is None else f" ({seconds:.0f} s ago)"

    if state["last_cycle"] is None:
        cycle = "never (no cycle recorded: is `judge serve` running?)"
    else:
        cycle = state["last_cycle"] + since(state["last_cycle_age_seconds"])
    stale = state["last_cycle_age_seconds"] is None or (
        state["last_cycle_age_seconds"] > state["stale_after_seconds"])
    mail_cycle = state.get("last_mail_cycle") or {}
    health = ("STALE" if stale else "FAILING" if state.get("failing")
              else "ok" if state["ok"] else "NOT OK")
    lines = [
        f"home           {state['home']}",
        f"health         {health} (stale after "
        f"{state['stale_after_seconds']:.0f} s without a cycle; failing when the last "
        "cycle that read mail filed any in Failed)",
        f"last cycle     {cycle}",
    ]
    if mail_cycle:
        lines.append(f"last mail      {mail_cycle['at']}: {mail_cycle['read']} read, "
                     f"{mail_cycle['failed']} filed in Failed"
                     + (f" (the last: {mail_cycle['last_reason']})"
                        if mail_cycle.get("last_reason") else ""))
    failed = state.get("failed_since_success") or {}
    if failed.get("count"):
        lines.append(f"failed mails   {failed['count']} since the last mail handled; the last "
                     f"at {failed['last_at']}: {failed['last_reason']}")
    if state["last_failure"]:
        lines.append(f"last failure   {state['last_failure']}: {state['last_error']}")
    waiting = state["inbox_waiting"]
    lines.append(f"inbox waiting  {'not counted (IMAP)' if waiting is None else waiting}")
    oldest = (f", oldest queued {state['oldest_queued']}{since(state['oldest_queued_age_seconds'])}"
              if state["oldest_queued"] else "")
    lines.append(f"outbox queued  {state['outbox_queued']}{oldest}")
    nd = state["next_deadline"]
    lines.append("next deadline  " + (f"{nd['at']} ({nd['game']}, {nd['phase']})" if nd
                                      else "none"))
    for mail in state.get("queued", []):
        lines.append(f"  #{mail['id']} to {mail['to']}: {mail['subject']!r}, "
                     f"{mail['attempts']} attempt(s), next {mail['next_attempt'] or 'now'}"
                     + (f", last error: {mail['last_error']}" if mail["last_error"] else ""))
    if "database_error" in state:
        lines.append(f"database       {state['database_error']}")
    if "clock_held" in state:
        lines.append(f"PHASES HELD    {state['clock_held']}")
    return "\n".join(lines)
