"""Fixtures for the judge core: a judge in a temporary home on Maildir
transports, a clock the test moves, and the test-only game registered."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

import pytest

from bench.support.clock import Clock
from judge import config as cfg
from judge import registry, reports
from judge.service import Judge
from judge.store import set_kdf_cost
from tests.support.htmlpart import check_alternatives
from tests.support.sealed_bids import GAME as SEALED

SUPPORT = Path(__file__).resolve().parent.parent / "support"


@pytest.fixture(autouse=True)
def _fast_kdf_and_test_game() -> Iterator[None]:
    set_kdf_cost(2**8)  # scrypt at full cost makes every test slow; hashes keep their cost
    registry.register(SEALED)
    reports.add_template_dir(SUPPORT / "templates")
    reports.add_schema_dir(SUPPORT)
    yield
    registry.unregister(SEALED.id)


def delivered_mail(folder: Path) -> dict[str, bytes]:
    """The raw bytes of every mail in an outgoing Maildir, by Message-ID."""
    found: dict[str, bytes] = {}
    for sub in ("new", "cur"):
        for path in (folder / sub).glob("*") if (folder / sub).is_dir() else ():
            raw = path.read_bytes()
            head = email.message_from_bytes(raw.split(b"\r\n\r\n", 1)[0] + b"\r\n\r\n")
            found[str(head["Message-ID"])] = raw
    return found


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

    def send(self, sender: str, body: str, **kw: object) -> list[str]:
        """Deliver a mail and run one judge cycle; returns the log lines."""
        self.deliver(self.raw(sender, body, **kw))  # type: ignore[arg-type]
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


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    h = tmp_path / "home"
    cfg.init_home(h)
    return h


@pytest.fixture
def judge(home: Path, clock: Clock) -> Iterator[Judge]:
    j = Judge.open(home, now=clock)
    yield j
    j.close()


@pytest.fixture
def post(judge: Judge, home: Path, clock: Clock) -> Post:
    return Post(judge, home, clock)
