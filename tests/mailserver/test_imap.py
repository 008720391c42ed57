"""judge.mail.imap against a real Dovecot: UIDs and the checkpoint, moving, flags,
IDLE, TLS and STARTTLS."""

from __future__ import annotations

import email
import threading
import time
from email.message import EmailMessage
from typing import Any

from bench.support.mailservers import MailServers
from judge.mail.imap import ImapInbound, ImapSettings, MemoryCheckpoint


def inbound(servers: MailServers, checkpoint: MemoryCheckpoint | None = None,
            **kw: Any) -> ImapInbound:
    values: dict[str, Any] = {
        "host": "127.0.0.1", "port": servers.dovecot.imap_port, "username": "judge",
        "password": "judge", "security": "none", "reconnect_min": 0, "reconnect_max": 0,
        "timeout": 20,
    }  # fmt: skip
    values.update(kw)
    return ImapInbound(ImapSettings(**values), checkpoint or MemoryCheckpoint())


def deliver(servers: MailServers, count: int, tag: str = "m") -> list[str]:
    ids = []
    for i in range(count):
        msg = EmailMessage()
        msg["From"] = "north@localhost"
        msg["To"] = "judge@localhost"
        msg["Subject"] = f"{tag} {i}"
        msg["Message-ID"] = f"<{tag}{i}.{time.monotonic_ns()}@localhost>"
        msg.set_content(f"mail {i}\n")
        servers.send("north@localhost", "judge@localhost", msg.as_bytes())
        ids.append(str(msg["Message-ID"]))
    return ids


def message_id(raw: bytes) -> str:
    return str(email.message_from_bytes(raw)["Message-ID"])


def flags(servers: MailServers) -> dict[str, str]:
    """Message-ID -> FLAGS of every message in judge's INBOX."""
    conn = servers.imap("judge")
    try:
        conn.select("INBOX", readonly=True)
        _, data = conn.fetch("1:*", "(FLAGS BODY.PEEK[HEADER.FIELDS (MESSAGE-ID)])")
        out = {}
        for part in data:
            if isinstance(part, tuple):
                out[message_id(part[1])] = part[0].decode().split("FLAGS (", 1)[1].split(")")[0]
        return out
    finally:
        conn.logout()


def test_fetch_by_uid_move_and_checkpoint(servers: MailServers) -> None:
    ids = deliver(servers, 3)
    checkpoint = MemoryCheckpoint()
    t = inbound(servers, checkpoint)
    got = list(t.fetch())
    assert [message_id(raw) for _, raw in got] == ids
    keys = [k for k, _ in got]
    validity = keys[0].split(":")[0]
    uids = [int(k.split(":")[1]) for k in keys]
    assert all(k.startswith(validity + ":") for k in keys) and uids == sorted(uids)
    t.done(keys[0], ok=True)
    t.done(keys[1], ok=False)
    assert servers.count("judge") == 3  # marked, not moved yet: moves go in batches
    t.flush()
    # The folders were created and hold what was moved; the third message,
    # never done, stays and is the only one fetched again.
    assert servers.count("judge") == 1
    assert servers.count("judge", "Processed") == 1 and servers.count("judge", "Failed") == 1
    assert [message_id(raw) for _, raw in t.fetch()] == [ids[2]]
    assert checkpoint.load(t.settings.mailbox_key) == (int(validity), uids[1])
    # A new transport on the same checkpoint (a restarted judge) agrees.
    t.close()
    again = inbound(servers, checkpoint)
    assert [k for k, _ in again.fetch()] == [keys[2]]
    again.done(keys[2], ok=True)
    assert list(again.fetch()) == []  # a fetch first moves what is marked
    assert servers.count("judge") == 0 and servers.count("judge", "Processed") == 2
    again.close()


def test_seen_flag_is_neither_read_nor_set(servers: MailServers) -> None:
    ids = deliver(servers, 2)
    conn = servers.imap("judge")  # a person reading the mailbox marks the first read
    conn.select("INBOX")
    conn.store("1", "+FLAGS", r"(\Seen)")
    conn.logout()
    t = inbound(servers)
    assert [message_id(raw) for _, raw in t.fetch()] == ids  # \Seen does not hide mail
    after = flags(servers)
    assert "\\Seen" in after[ids[0]] and "\\Seen" not in after[ids[1]]  # BODY.PEEK
    t.close()


def test_copy_and_uid_expunge_without_move(servers: MailServers) -> None:
    ids = deliver(servers, 2)
    conn = servers.imap("judge")  # another client marked the second deleted
    conn.select("INBOX")
    conn.store("2", "+FLAGS", r"(\Deleted)")
    conn.logout()
    t = inbound(servers, use_move=False)
    first = next(iter(t.fetch()))
    t.done(first[0], ok=True)
    t.flush()
    # UID EXPUNGE removed only ours: the other deleted message is still there.
    left = flags(servers)
    assert list(left) == [ids[1]] and "\\Deleted" in left[ids[1]]
    assert [message_id(r) for r in servers.messages("judge", "Processed")] == [ids[0]]
    t.close()


def test_idle_wakes_on_new_mail(servers: MailServers) -> None:
    t = inbound(servers)
    assert list(t.fetch()) == []
    sender = threading.Timer(0.3, lambda: deliver(servers, 1, "idle"))
    sender.start()
    started = time.monotonic()
    woke = t.wait(20)
    elapsed = time.monotonic() - started
    sender.join()
    assert woke and elapsed < 10
    assert len(list(t.fetch())) == 1
    t.close()


def test_idle_is_reissued_and_ends_at_the_timeout(servers: MailServers) -> None:
    t = inbound(servers, idle_seconds=0.2)
    assert list(t.fetch()) == []
    client = t._client
    calls = {"idle": 0}
    original = client.idle

    def counting_idle() -> Any:
        calls["idle"] += 1
        return original()

    client.idle = counting_idle
    started = time.monotonic()
    assert t.wait(1.0) is False
    assert 0.9 <= time.monotonic() - started < 5
    assert calls["idle"] >= 4  # one IDLE per 0.2 s slice: re-issued, never one long IDLE
    assert list(t.fetch()) == []  # the connection is still usable after DONE
    t.close()


def test_wait_sleeps_without_idle(servers: MailServers) -> None:
    slept: list[float] = []
    settings = ImapSettings("127.0.0.1", servers.dovecot.imap_port, "judge", "judge",
                            security="none", idle=False)  # fmt: skip
    t = ImapInbound(settings, MemoryCheckpoint(), sleep=slept.append)
    list(t.fetch())
    assert t.wait(7.5) is False and slept == [7.5]
    t.close()


def test_tls_and_starttls(servers: MailServers) -> None:
    ids = deliver(servers, 1)
    tls = inbound(servers, security="tls", port=servers.dovecot.imaps_port,
                  cafile=str(servers.cert), host="localhost")  # fmt: skip
    assert [message_id(r) for _, r in tls.fetch()] == ids
    tls.close()
    starttls = inbound(servers, security="starttls", cafile=str(servers.cert), host="localhost")
    assert [message_id(r) for _, r in starttls.fetch()] == ids
    starttls.close()
    # Without the test certificate the server is not trusted: no connection,
    # no exception, nothing fetched.
    untrusted = inbound(servers, security="tls", port=servers.dovecot.imaps_port,
                        host="localhost", reconnect_min=60)  # fmt: skip
    assert list(untrusted.fetch()) == [] and not untrusted.connected


def test_moves_go_in_batches(servers: MailServers) -> None:
    deliver(servers, 5)
    t = inbound(servers, move_batch=2)
    moved = []
    for key, _ in t.fetch():
        t.done(key, ok=True)
        moved.append(5 - servers.count("judge"))
    assert moved == [0, 2, 2, 4, 4]  # every second mark sends one MOVE
    assert servers.count("judge") == 0  # the end of the fetch moved the last one
    t.close()


def test_wait_returns_at_once_when_mail_is_waiting(servers: MailServers) -> None:
    t = inbound(servers)
    assert list(t.fetch()) == []
    deliver(servers, 1)  # arrives while nobody idles: it will not be announced in IDLE
    started = time.monotonic()
    assert t.wait(20) is True
    assert time.monotonic() - started < 1
    t.close()
