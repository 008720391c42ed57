"""A judge's Maildir post as a player sees it: mail put into the judge's inbox,
what it sent read back (its HTML part checked), and a game started by mail."""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import TypedDict, Unpack

from bench.support.clock import Clock
from bench.support.htmlpart import check_alternatives
from judge.service import Judge

GM_ADDR = "gm@league.example"
CLASSIC_POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")


def delivered_mail(folder: Path) -> dict[str, bytes]:
    """The raw bytes of every mail in an outgoing Maildir, by Message-ID."""
    found: dict[str, bytes] = {}
    for sub in ("new", "cur"):
        for path in (folder / sub).glob("*") if (folder / sub).is_dir() else ():
            raw = path.read_bytes()
            head = email.message_from_bytes(raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n")
            found[str(head["Message-ID"])] = raw
    return found


class MailOptions(TypedDict, total=False):
    """The optional fields of a test mail (:meth:`Post.raw`)."""

    subject: str
    message_id: str | None
    headers: dict[str, str] | None


@dataclass
class Post:
    """Puts mail into the judge's inbox and reads what it sent."""

    judge: Judge
    home: Path
    clock: Clock
    count: int = 0
    read: int = 0

    def raw(self, sender: str, body: str, subject: str = "orders",
            message_id: str | None = None, headers: dict[str, str] | None = None) -> bytes:
        self.count += 1
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = self.judge.config.address
        msg["Subject"] = subject
        msg["Date"] = format_datetime(self.clock.now)
        msg["Message-ID"] = message_id or f"<t{self.count}.{id(self)}@players.example>"
        for k, v in (headers or {}).items():
            msg[k] = v
        msg.set_content(body)
        return msg.as_bytes(policy=email.policy.SMTP)

    def deliver(self, raw: bytes) -> Path:
        folder = self.home / "mail" / "in" / "new"
        folder.mkdir(parents=True, exist_ok=True)
        self.count += 1
        path = folder / f"{self.clock.now.timestamp():.0f}.{self.count}.test:2,"
        path.write_bytes(raw)
        return path

    def send(self, sender: str, body: str, **kw: Unpack[MailOptions]) -> list[str]:
        """Deliver a mail and run one judge cycle; returns the log lines."""
        self.deliver(self.raw(sender, body, **kw))
        return self.judge.cycle()

    def sent(self) -> list[EmailMessage]:
        """Every mail the judge has sent so far, oldest first, as delivered
        (read from the outgoing Maildir, in the order the outbox queued them:
        the outbox itself keeps a sent mail only with its tokens masked)."""
        delivered = delivered_mail(self.home / "mail" / "out")
        out: list[EmailMessage] = []
        for row in self.judge.store.outbox("sent"):
            raw = delivered.get(row["message_id"], row["raw"])
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
        return out

    def new(self) -> list[EmailMessage]:
        """Mails sent since the last call."""
        allm = self.sent()
        fresh = allm[self.read:]
        self.read = len(allm)
        return fresh

    @staticmethod
    def text(msg: EmailMessage) -> str:
        """The text part (its HTML alternative held to it first)."""
        check_alternatives(msg)
        body = msg.get_body(("plain",))
        assert body is not None
        content = body.get_content()
        assert isinstance(content, str)
        return content


def token_in(post: Post, to: str) -> str:
    for msg in reversed(post.sent()):
        if msg["To"] == to:
            m = re.search(r"token is: (\S+)", post.text(msg))
            if m:
                return m.group(1)
    raise AssertionError(f"no token mailed to {to}")


def start(post: Post, kind: str, roles: list[str], options: str = "",
          game: str = "g1") -> dict[str, str]:
    """CREATE, a JOIN per role (``<role>@players.example``), START, by mail;
    each role's token (and the GM's, under ``"GM"``)."""
    post.send(GM_ADDR, f"CREATE {game} {kind} {options}\n")
    gm = token_in(post, GM_ADDR)
    tokens = {}
    for role in roles:
        address = address_of(role)
        post.send(address, f"JOIN {game} {role}\n")
        tokens[role] = token_in(post, address)
    post.send(GM_ADDR, f"SIGNON {game} GM {gm}\nSTART\n")
    return {**tokens, "GM": gm}


def address_of(role: str) -> str:
    return f"{role.lower()}@players.example"
