"""Two relays on one judge home, each a real process, sending through the
real SMTP front into Dovecot at the same moment: every outgoing mail is
delivered exactly once (each outbox row is claimed before it is sent;
``judge.relay``)."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

from bench.support.mailplayers import ROLES, address
from bench.support.mailservers import MailServers
from judge.service import RELAY_WINDOW, Judge
from tests.core.conftest import Clock

RUN_RELAY = Path(__file__).resolve().parent / "run_relay.py"


def test_two_relay_processes_deliver_each_mail_once(servers: MailServers, home: Path,
                                                    tmp_path: Path) -> None:
    judge = Judge.open(home, now=Clock(datetime.now(UTC)))
    try:
        queued = [
            judge.outbox().queue(address(ROLES[i % len(ROLES)]), f"notice {i}", f"n {i}\n",
                                 "notice")
            for i in range(8 * RELAY_WINDOW)
        ]
    finally:
        judge.close()
    go = tmp_path / "go"
    env = dict(os.environ, JUDGE_TEST_IMAP_PASSWORD="judge")
    relays = [subprocess.Popen([sys.executable, str(RUN_RELAY), str(home), str(go)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
              for _ in range(2)]  # fmt: skip
    try:
        for relay in relays:
            assert relay.stdout is not None and relay.stdout.readline() == b"ready\n"
        go.touch()  # both start at once
        outputs = [relay.communicate(timeout=120) for relay in relays]
    finally:
        for relay in relays:
            if relay.poll() is None:
                relay.kill()
                relay.wait()
    assert [r.returncode for r in relays] == [0, 0], [e.decode()[-2000:] for _, e in outputs]
    copies = servers.delivered(*(r.lower() for r in ROLES))  # the files Dovecot wrote
    assert {m: n for m, n in copies.items() if n != 1} == {}
    assert set(copies) == set(queued)
    by_relay = [set(out.decode().split()) for out, _ in outputs]
    assert not by_relay[0] & by_relay[1]  # no row recorded as sent by both
    assert by_relay[0] | by_relay[1] == set(queued)
    check = Judge.open(home)
    try:
        rows = check.store.outbox()
        assert {r["status"] for r in rows} == {"sent"} and len(rows) == len(queued)
        assert {r["claimed_by"] for r in rows} == {""}
    finally:
        check.close()
