"""A judge home on the Maildir transports for tests that play by mail, and
reading what the judge sent there."""

from __future__ import annotations

import email
import email.policy
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

from bench.support.clock import Clock
from bench.support.htmlpart import check_alternatives
from bench.support.post import Post
from judge import config as cfg
from judge.service import Judge


def open_post(tmp_path: Path, seed: bytes | None = None) -> Iterator[Post]:
    """A fresh home under ``tmp_path`` (``judge init``'s defaults), its judge
    on a test clock; with ``seed``, every game it creates draws from that
    seed (the same game on every run). For a fixture: yields, then closes."""
    home = tmp_path / "home"
    cfg.init_home(home)
    clock = Clock()
    judge = Judge.open(home, now=clock)
    if seed is not None:
        judge.seed_source = lambda: seed
    yield Post(judge, home, clock)
    judge.close()


@dataclass
class Outbox:
    """The judge's outgoing Maildir, read once per mail (``Post.sent`` reads
    it all on every call, too slow for a game of hundreds of mails)."""

    post: Post
    seen: set[str] = field(default_factory=set)
    mails: list[EmailMessage] = field(default_factory=list)

    def new(self) -> list[EmailMessage]:
        """The mails delivered since the last call, in the order they were queued."""
        found: list[tuple[int, EmailMessage]] = []
        for sub in ("new", "cur"):
            folder = self.post.home / "mail" / "out" / sub
            for path in sorted(folder.iterdir()) if folder.is_dir() else ():
                if path.name in self.seen:
                    continue
                self.seen.add(path.name)
                msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                assert isinstance(msg, EmailMessage)
                row = self.post.judge.store.mail_by_message_id(str(msg["Message-ID"]))
                found.append((int(row["id"]) if row else 0, msg))
        fresh = [m for _, m in sorted(found, key=lambda x: x[0])]
        self.mails += fresh
        return fresh


def whole(msg: EmailMessage) -> str:
    """Subject, every text part and every attachment of a mail, decoded
    (pictures left out: a picture draws what the JSON view holds). The
    HTML part is held to its text part first (it shows the same words,
    :func:`bench.support.htmlpart.check_alternatives`) and then left out,
    so what is searched here covers it too."""
    check_alternatives(msg)
    out = [str(msg["Subject"])]
    for part in msg.walk():
        if part.is_multipart() or part.get_content_maintype() == "image":
            continue
        if part.get_content_type() == "text/html":
            continue
        content = part.get_content()
        out.append(content.decode("utf-8") if isinstance(content, bytes) else str(content))
    return "\n".join(out)
