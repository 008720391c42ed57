"""Limits on what one mail and one address may cost the judge: attachments
refused with a clear reply, commands per mail, replies per address and hour,
size per mail. Mail goes through the real servers."""

from __future__ import annotations

import email.policy
from email.message import EmailMessage
from pathlib import Path

from bench.support.mailplayers import JUDGE, Mail, address, judge_config, orders_applied, text_of
from bench.support.mailservers import MailServers
from judge.service import Judge
from tests.core.conftest import Clock


def _judge(home: Path, servers: MailServers, clock: Clock, limits: str) -> Judge:
    (home / "judge.toml").write_text(judge_config(servers, limits=limits))
    return Judge.open(home, now=clock)


def test_attachments_are_refused_with_a_reply(servers: MailServers, judge: Judge,
                                              mail: Mail) -> None:
    signon = mail.start_sealed()
    msg = EmailMessage()
    msg["From"] = address("North")
    msg["To"] = JUDGE
    msg["Subject"] = "my orders"
    msg["Message-ID"] = "<with-attachment@players.localhost>"
    msg.set_content(f"{signon['North']}\nBID {judge.table('g1').state['hands']['North'][0]}\n")
    msg.add_attachment(b"%PDF-1.4 orders", maintype="application", subtype="pdf",
                       filename="orders.pdf")  # fmt: skip
    servers.send(address("North"), JUDGE, msg.as_bytes(policy=email.policy.SMTP))
    judge.cycle()
    assert orders_applied(judge) == {}
    [row] = [r for r in judge.store.inbox() if r["message_id"] == msg["Message-ID"]]
    assert row["status"] == "refused" and "orders.pdf" in row["reason"]
    [reply] = [m for m in mail.inbox("north") if m["In-Reply-To"] == msg["Message-ID"]]
    text = text_of(reply)
    assert "Your mail was not read: attachments are not accepted" in text
    assert "orders.pdf (application/pdf" in text and "Nothing in it was carried out" in text


def test_attachments_may_be_ignored(servers: MailServers, home: Path, clock: Clock) -> None:
    judge = _judge(home, servers, clock, 'attachments = "ignore"')
    try:
        mail = Mail(servers, judge)
        signon = mail.start_sealed()
        msg = EmailMessage()
        msg["From"] = address("North")
        msg["To"] = JUDGE
        msg["Subject"] = "orders"
        msg.set_content(f"{signon['North']}\nBID {judge.table('g1').state['hands']['North'][0]}\n")
        msg.add_attachment(b"BEGIN:VCARD", maintype="text", subtype="vcard", filename="me.vcf")
        servers.send(address("North"), JUDGE, msg.as_bytes(policy=email.policy.SMTP))
        judge.cycle()
        assert sum(orders_applied(judge).values()) == 1
    finally:
        judge.close()


def test_too_many_commands(servers: MailServers, home: Path, clock: Clock) -> None:
    judge = _judge(home, servers, clock, "max_commands = 3")
    try:
        mail = Mail(servers, judge)
        message_id = mail.send(address("North"), "HELP\nLIST\nHELP\nLIST\n")
        judge.cycle()
        [reply] = mail.inbox("north")
        assert reply["In-Reply-To"] == message_id
        assert "too many commands: 4 (at most 3)" in text_of(reply)
        fewer = mail.send(address("North"), "HELP\nLIST\n")
        judge.cycle()
        [row] = [r for r in judge.store.inbox() if r["message_id"] == fewer]
        assert row["status"] == "processed"
    finally:
        judge.close()


def test_replies_per_address_and_hour(servers: MailServers, home: Path, clock: Clock) -> None:
    judge = _judge(home, servers, clock, "replies_per_hour = 3")
    try:
        mail = Mail(servers, judge)
        signon = mail.start_sealed()
        before = len(mail.inbox("north"))
        cards = judge.table("g1").state["hands"]["North"]
        sent = [mail.send(address("North"), f"{signon['North']}\nBID {cards[i]}\nEND\n{i}\n")
                for i in range(5)]  # fmt: skip
        judge.cycle()
        # Every order was carried out; only three of them were answered
        # (the JOIN answer earlier in the hour counts too).
        assert orders_applied(judge) == {m: 1 for m in sent}
        answered = [m for m in mail.inbox("north")[before:] if m["In-Reply-To"] in sent]
        assert sorted(m["In-Reply-To"] for m in answered) == sorted(sent[:2])
        clock.advance(minutes=61)
        late = mail.send(address("North"), f"{signon['North']}\nBID {cards[0]}\nEND\nlate\n")
        judge.cycle()
        assert mail.inbox("north")[-1]["In-Reply-To"] == late
    finally:
        judge.close()


def test_size_per_mail(servers: MailServers, home: Path, clock: Clock) -> None:
    judge = _judge(home, servers, clock, "max_bytes = 5000")
    try:
        mail = Mail(servers, judge)
        message_id = mail.send(address("North"), "HELP\n" + "x" * 70 * 100 + "\n")
        judge.cycle()
        [reply] = mail.inbox("north")
        assert reply["In-Reply-To"] == message_id and "too large" in text_of(reply)
    finally:
        judge.close()
