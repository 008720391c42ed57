"""Players and a GM writing to the judge through the real servers.

:class:`Mail` sends over SMTP (through the test front, into Dovecot) and reads
each player's mailbox over IMAP; nothing here touches the judge's database
to *act* (it is read only to check what happened).
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import formatdate
from typing import Any

from bench.support.mailservers import DOMAIN, MailServers
from judge.service import Judge

JUDGE = f"judge@{DOMAIN}"
GM = f"gm@{DOMAIN}"
ROLES = ("North", "East", "South")


def address(role: str) -> str:
    return f"{role.lower()}@{DOMAIN}"


def judge_config(servers: MailServers, *, imap: dict[str, Any] | None = None,
                 smtp: dict[str, Any] | None = None, limits: str = "") -> str:
    """A judge.toml for the test servers: IMAP without TLS on loopback,
    SMTP through the plain front; quick reconnects for the fault tests."""
    mail_in: dict[str, Any] = {
        "transport": "imap", "host": "127.0.0.1", "port": servers.dovecot.imap_port,
        "security": "none", "username": "judge", "password_env": "JUDGE_TEST_IMAP_PASSWORD",
        "reconnect_min": 0, "reconnect_max": 0.2, "timeout": 20,
    }  # fmt: skip
    mail_out: dict[str, Any] = {
        "transport": "smtp", "host": "127.0.0.1", "port": servers.smtp.port,
        "security": "none", "timeout": 20,
    }  # fmt: skip
    mail_in.update(imap or {})
    mail_out.update(smtp or {})

    def section(name: str, values: dict[str, Any]) -> str:
        return f"[{name}]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in values.items())

    return (
        f'[judge]\naddress = "{JUDGE}"\ndomain = "{DOMAIN}"\ndatabase = "judge.db"\n'
        'creators = ["*"]\npoll_seconds = 1\n\n'
        + section("mail.in", mail_in) + "\n" + section("mail.out", mail_out)
        + (f"\n[limits]\n{limits}\n" if limits else "")
    )


def parse(raw: bytes) -> EmailMessage:
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    assert isinstance(msg, EmailMessage)
    return msg


def text_of(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    content = body.get_content()
    assert isinstance(content, str)
    return content


@dataclass
class Mail:
    servers: MailServers
    judge: Judge
    count: int = 0
    tokens: dict[str, str] = field(default_factory=dict)

    def raw(self, sender: str, body: str, subject: str = "orders",
            message_id: str | None = None) -> bytes:
        self.count += 1
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = JUDGE
        msg["Subject"] = subject
        msg["Date"] = formatdate()
        msg["Message-ID"] = message_id or f"<m{self.count}.{id(self)}@players.{DOMAIN}>"
        msg.set_content(body)
        return msg.as_bytes(policy=email.policy.SMTP)

    def send(self, sender: str, body: str, **kw: Any) -> str:
        """Send a mail to the judge over SMTP; returns its Message-ID."""
        raw = self.raw(sender, body, **kw)
        self.servers.send(sender, JUDGE, raw)
        return str(parse(raw)["Message-ID"])

    def inbox(self, user: str) -> list[EmailMessage]:
        return [parse(r) for r in self.servers.messages(user)]

    def cycle_until(self, done: Callable[[], bool], what: str, cycles: int = 50) -> None:
        """Run judge cycles until ``done()``."""
        for _ in range(cycles):
            self.judge.cycle()
            if done():
                return
        raise AssertionError(f"after {cycles} cycles: {what}")

    def token_for(self, user: str) -> str:
        for msg in reversed(self.inbox(user)):
            m = re.search(r"token is: (\S+)", text_of(msg))
            if m:
                return m.group(1)
        raise AssertionError(f"no token in {user}'s mailbox")

    def start_sealed(self, game: str = "g1", rounds: int = 3) -> dict[str, str]:
        """CREATE, three JOINs and START, all by mail through the servers;
        returns the SIGNON line of each role (and ``GM``)."""
        self.send(GM, f"CREATE {game} sealed_bids rounds={rounds}\n")
        self.judge.cycle()
        signon = {"GM": f"SIGNON {game} GM {self.token_for('gm')}"}
        for role in ROLES:
            self.send(address(role), f"JOIN {game} {role}\n")
            self.judge.cycle()
            signon[role] = f"SIGNON {game} {role} {self.token_for(role.lower())}"
        self.send(GM, f"{signon['GM']}\nSTART\n")
        self.judge.cycle()
        return signon


def orders_applied(judge: Judge, game: str = "g1") -> Counter[str]:
    """How many ``orders`` entries of the action log each Message-ID carried."""
    return Counter(r["message_id"] for r in judge.store.actions(game) if r["kind"] == "orders")


def inbox_status(judge: Judge) -> Counter[tuple[str, str]]:
    return Counter((r["message_id"], r["status"]) for r in judge.store.inbox())


def hand(judge: Judge, role: str, game: str = "g1") -> list[str]:
    g = judge.game_of(game)[1]
    return list(g.view(judge.table(game).state, role)["hand"])
