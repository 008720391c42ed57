"""judge.mail.smtp against the real front: plain, STARTTLS and TLS with AUTH, and
how refusals become the relay's failures (RFC 5321 section 4.2.1)."""

from __future__ import annotations

import email
from email.message import EmailMessage
from typing import Any

import pytest

from bench.support.mailservers import MailServers
from judge.mail.mailout import PermanentFailure, ServerUnavailable, TemporaryFailure
from judge.mail.smtp import SmtpOutbound, SmtpSettings


def outbound(servers: MailServers, **kw: Any) -> SmtpOutbound:
    values: dict[str, Any] = {"host": "127.0.0.1", "port": servers.smtp.port, "security": "none",
                              "timeout": 20}  # fmt: skip
    values.update(kw)
    return SmtpOutbound(SmtpSettings(**values))


def message(n: int = 0) -> bytes:
    msg = EmailMessage()
    msg["From"] = "judge@localhost"
    msg["To"] = "north@localhost"
    msg["Subject"] = f"report {n}"
    msg["Message-ID"] = f"<r{n}@localhost>"
    msg.set_content(f"report {n}\n.\nthe line above is a lone dot\n")
    return msg.as_bytes()


def received(servers: MailServers, user: str = "north") -> list[EmailMessage]:
    out: list[EmailMessage] = []
    for raw in servers.messages(user):
        msg: EmailMessage = email.message_from_bytes(raw, _class=EmailMessage)
        out.append(msg)
    return out


def test_plain_send_keeps_the_envelope_and_the_body(servers: MailServers) -> None:
    t = outbound(servers)
    t.send("judge+bounce-abc@localhost", "north@localhost", message(1))
    [msg] = received(servers)
    assert msg["Return-Path"] == "<judge+bounce-abc@localhost>"
    assert msg["Message-ID"] == "<r1@localhost>"
    body = str(msg.get_payload()).replace("\r\n", "\n")
    assert "report 1\n.\nthe line above" in body  # dot-stuffed on the wire, undone
    t.close()


def test_one_connection_for_a_batch(servers: MailServers) -> None:
    t = outbound(servers)
    for n in range(5):
        t.send("judge@localhost", "north@localhost", message(n))
    assert t.connects == 1 and len(received(servers)) == 5
    t.close()


def test_starttls_and_tls_with_auth(servers: MailServers) -> None:
    cafile = str(servers.cert)
    starttls = outbound(servers, host="localhost", security="starttls", cafile=cafile,
                        username="judge", password="judge")  # fmt: skip
    starttls.send("judge@localhost", "north@localhost", message(1))
    starttls.close()
    tls = outbound(servers, host="localhost", port=servers.smtps.port, security="tls",
                   cafile=cafile, username="judge", password="judge")  # fmt: skip
    tls.send("judge@localhost", "north@localhost", message(2))
    tls.close()
    assert [m["Message-ID"] for m in received(servers)] == ["<r1@localhost>", "<r2@localhost>"]


def test_login_and_certificate_failures_keep_the_mail(servers: MailServers) -> None:
    wrong = outbound(servers, host="localhost", security="starttls", cafile=str(servers.cert),
                     username="judge", password="nope")  # fmt: skip
    with pytest.raises(ServerUnavailable, match="AUTH: 535"):
        wrong.send("judge@localhost", "north@localhost", message())
    untrusted = outbound(servers, host="localhost", security="starttls")
    with pytest.raises(ServerUnavailable):
        untrusted.send("judge@localhost", "north@localhost", message())
    assert received(servers) == []


def test_refusals(servers: MailServers) -> None:
    t = outbound(servers)
    with pytest.raises(PermanentFailure, match=r"550 5\.1\.1"):
        t.send("judge@localhost", "nobody@localhost", message())
    with pytest.raises(TemporaryFailure, match="451") as info:
        t.send("judge@localhost", "busy@localhost", message())
    assert not isinstance(info.value, ServerUnavailable)
    with pytest.raises(PermanentFailure):
        t.send("judge@localhost", "two@localhost, three@localhost", message())
    t.send("judge@localhost", "north@localhost", message(3))  # the session survived it all
    assert t.connects == 1 and len(received(servers)) == 1
    t.close()


def test_server_down_then_back(servers: MailServers) -> None:
    t = outbound(servers, noop_after=0)
    t.send("judge@localhost", "north@localhost", message(1))
    servers.smtp.stop()
    try:
        with pytest.raises(ServerUnavailable):
            t.send("judge@localhost", "north@localhost", message(2))
    finally:
        servers.smtp.start()
    # The dead connection is replaced without the caller noticing.
    t.send("judge@localhost", "north@localhost", message(3))
    assert [m["Message-ID"] for m in received(servers)] == ["<r1@localhost>", "<r3@localhost>"]
    assert t.connects == 2
    t.close()
