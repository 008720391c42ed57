"""What an operator runs the daemon by: ``judge --version``, ``python -m
judge``, ``judge status`` (its health), systemd's notify protocol with a
watchdog, and the log (every line on stderr, with a timestamp and a level,
or as JSON)."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from judge import health, sdnotify
from judge.cli import main
from tests.core.conftest import Post
from tests.core.helpers import start_sealed

#: `judge status` and `judge serve` on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True

ROOT = Path(__file__).resolve().parents[2]
TEXT_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} (DEBUG|INFO|WARNING|ERROR) ")


def _judge(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge", *args], cwd=ROOT, text=True,
                          capture_output=True, timeout=60, env=env)


def test_version_and_python_dash_m() -> None:
    done = _judge("--version")
    assert done.returncode == 0
    assert re.fullmatch(r"judge \d+\.\d+\.\d+\S*\n", done.stdout), done.stdout


def test_status_before_any_cycle_is_stale_and_counts_what_waits(post: Post) -> None:
    start_sealed(post)
    post.deliver(post.raw("stranger@x.example", "HELP\n"))
    post.judge.outbox().queue("someone@x.example", "a subject", "a body", "notice")
    post.judge.close()
    got = CliRunner().invoke(main, ["--home", str(post.home), "status", "--json"])
    assert got.exit_code == 1, got.output
    state = json.loads(got.stdout)
    assert state["ok"] is False and state["last_cycle"] is None
    assert state["inbox_waiting"] == 1
    assert state["outbox_queued"] >= 1
    assert state["oldest_queued"].startswith("2026-03-01T12:00")  # the test clock
    assert state["next_deadline"]["game"] == "g1"
    assert state["stale_after_seconds"] == 3 * 30
    text = CliRunner().invoke(main, ["--home", str(post.home), "status"])
    assert text.exit_code == 1
    assert "health         STALE" in text.stdout and "inbox waiting  1" in text.stdout
    assert "next deadline  " in text.stdout and "(g1, " in text.stdout
    listed = CliRunner().invoke(main, ["--home", str(post.home), "status", "--queued"])
    assert "  #" in listed.stdout and "to someone@x.example: 'a subject', 0 attempt(s)" \
        in listed.stdout, listed.stdout


def test_status_follows_the_heartbeat_and_its_threshold(home: Path) -> None:
    now = datetime(2026, 5, 1, 12, 0, tzinfo=UTC)
    health.beat(home, ok=True, now=now - timedelta(seconds=60))
    assert health.status(home, now=now)["ok"] is True  # 60 s < 3 x 30 s
    assert health.status(home, stale_seconds=59, now=now)["ok"] is False
    health.beat(home, ok=False, error="OSError: disk full", now=now)
    state = health.status(home, now=now)
    assert state["ok"] is True and state["last_error"] == "OSError: disk full"
    assert "last failure   2026-05-01T12:00:00+00:00: OSError: disk full" in health.describe(state)
    got = CliRunner().invoke(main, ["--home", str(home), "status", "--stale", "0"])
    assert got.exit_code == 1 and "STALE" in got.stdout


def test_serve_notifies_systemd_logs_on_stderr_and_records_its_cycle(
        home: Path, post: Post, tmp_path: Path) -> None:
    """A real `judge serve --once` with a notify socket standing in for
    systemd's: READY=1, WATCHDOG=1 after the cycle, STOPPING=1; the mail's
    line is a log line on stderr (stdout stays empty); `judge status` is ok."""
    post.deliver(post.raw("stranger@x.example", "HELP\n"))
    post.judge.close()
    path = str(tmp_path / "notify")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(path)
        sock.settimeout(10)
        env = {**_env(), "NOTIFY_SOCKET": path}
        done = _judge("--home", str(home), "serve", "--once", env=env)
        assert done.returncode == 0, done.stderr
        said = [sock.recv(4096).decode() for _ in range(3)]
    assert said[0].splitlines() == ["READY=1", f"STATUS=serving {home}"]
    assert said[1:] == ["WATCHDOG=1", "STOPPING=1"]
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert any("from stranger@x.example: processed" in x for x in lines), lines
    assert all(TEXT_LINE.match(x) for x in lines), lines
    got = CliRunner().invoke(main, ["--home", str(home), "status", "--json"])
    assert got.exit_code == 0, got.output
    state = json.loads(got.stdout)
    assert state["ok"] is True and state["inbox_waiting"] == 0 and state["outbox_queued"] == 0


def test_the_log_as_json(home: Path, post: Post) -> None:
    post.deliver(post.raw("stranger@x.example", "HELP\n"))
    post.judge.close()
    done = _judge("--log-format", "json", "--home", str(home), "serve", "--once", env=_env())
    assert done.returncode == 0, done.stderr
    entries = [json.loads(x) for x in done.stderr.splitlines()]
    assert {e["level"] for e in entries} == {"INFO"}
    assert all(datetime.fromisoformat(e["time"]).tzinfo is not None for e in entries)
    assert any("from stranger@x.example: processed" in e["message"] for e in entries)


def test_notify_without_a_socket_does_nothing_and_the_watchdog_interval(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NOTIFY_SOCKET", raising=False)
    assert sdnotify.notify("READY=1") is False
    monkeypatch.setenv("WATCHDOG_USEC", "600000000")
    monkeypatch.delenv("WATCHDOG_PID", raising=False)
    assert sdnotify.watchdog_seconds() == 600.0
    monkeypatch.setenv("WATCHDOG_PID", "1")  # another process's watchdog
    assert sdnotify.watchdog_seconds() is None


def test_the_unit_is_type_notify_with_a_watchdog() -> None:
    unit = (ROOT / "deploy" / "judge.service").read_text()
    lines = dict(line.split("=", 1) for line in unit.splitlines()
                 if "=" in line and not line.startswith("#"))
    assert lines["Type"] == "notify" and lines["NotifyAccess"] == "main"
    assert int(lines["WatchdogSec"]) >= 60


def _env() -> dict[str, str]:
    import os

    return {k: v for k, v in os.environ.items() if k not in ("NOTIFY_SOCKET", "WATCHDOG_USEC")}


def test_status_reports_mails_filed_in_failed_and_fails_until_one_is_handled(
        home: Path, post: Post, monkeypatch: pytest.MonkeyPatch) -> None:
    """A judge that cycles but files every mail in Failed is not healthy:
    `judge status` counts the failed mails since the last one handled, names
    the last reason and exits 1 while the last cycle that read mail failed
    any (a cycle that reads nothing does not hide it); a mail handled again
    makes it ok."""
    from judge import daemon
    from judge.service import Judge

    real = Judge.handle

    def handle(self: Judge, key: str, raw: bytes) -> str:
        if b"broken@x.example" in raw:
            raise ValueError("cards: (folder): no card files")
        return real(self, key, raw)

    monkeypatch.setattr(Judge, "handle", handle)
    post.judge.close()

    def status() -> tuple[int, dict[str, Any], str]:
        got = CliRunner().invoke(main, ["--home", str(home), "status", "--json"])
        text = CliRunner().invoke(main, ["--home", str(home), "status"])
        assert text.exit_code == got.exit_code
        return got.exit_code, json.loads(got.stdout), text.stdout

    post.deliver(post.raw("stranger@x.example", "HELP\n"))
    daemon.serve(home, once=True, echo=print)
    code, state, _ = status()
    assert code == 0 and state["ok"] is True and state["failing"] is False
    assert state["failed_since_success"] == {"count": 0, "last_at": None, "last_reason": None}

    for _ in range(2):
        post.deliver(post.raw("broken@x.example", "HELP\n"))
    daemon.serve(home, once=True, echo=print)
    code, state, text = status()
    assert code == 1 and state["ok"] is False and state["failing"] is True
    assert state["last_mail_cycle"]["read"] == 2 and state["last_mail_cycle"]["failed"] == 2
    failed = state["failed_since_success"]
    assert failed["count"] == 2
    assert failed["last_reason"] == "ValueError: cards: (folder): no card files"
    assert "health         FAILING" in text
    assert "failed mails   2 since the last mail handled; the last at " in text
    assert "ValueError: cards: (folder): no card files" in text
    assert "last mail      " in text and "2 read, 2 filed in Failed" in text

    daemon.serve(home, once=True, echo=print)  # nothing to read: still failing
    code, state, _ = status()
    assert code == 1 and state["failing"] is True

    post.deliver(post.raw("stranger@x.example", "LIST\n"))
    daemon.serve(home, once=True, echo=print)
    code, state, text = status()
    assert code == 0 and state["ok"] is True and state["failing"] is False
    assert state["failed_since_success"]["count"] == 0
    assert "health         ok" in text and "failed mails" not in text
