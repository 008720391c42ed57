"""Hostile mails written byte by byte, games started by mail, and what a
cycle did with each mail."""

from __future__ import annotations

import email
import email.policy
import itertools
from dataclasses import dataclass
from email.message import EmailMessage

from judge.game.registry import get as get_game
from judge.game.rng import Rng
from tests.core.conftest import Post
from tests.core.helpers import GM_ADDR, token_in

_NUMBER = itertools.count(1)


def raw_mail(sender: str, body: str, subject: str = "orders", message_id: str = "",
             headers: str = "") -> bytes:
    """A plain UTF-8 mail as a hostile sender writes it: no library folds or
    re-encodes its Subject or its lines."""
    mid = message_id or f"<h{next(_NUMBER)}@hostile.example>"
    head = (f"From: {sender}\r\nTo: judge@localhost\r\nSubject: {subject}\r\n"
            f"Date: Sun, 01 Mar 2026 12:00:00 +0000\r\nMessage-ID: {mid}\r\n{headers}"
            "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
            "Content-Transfer-Encoding: 8bit\r\n\r\n")
    return head.encode("utf-8") + body.replace("\n", "\r\n").encode("utf-8")


def one_cycle(post: Post, *raws: bytes) -> list[str]:
    """Deliver every mail, then run ONE cycle; its log lines, one per mail."""
    for raw in raws:
        post.deliver(raw)
    return post.judge.cycle()


def mails_to(mails: list[EmailMessage], address: str) -> list[EmailMessage]:
    return [m for m in mails if m["To"] == address]


def size(msg: EmailMessage) -> int:
    return len(msg.as_bytes(policy=email.policy.SMTP))


@dataclass
class Table:
    game: str
    roles: list[str]
    tokens: dict[str, str]
    addresses: dict[str, str]

    def signon(self, role: str) -> str:
        return f"SIGNON {self.game} {role} {self.tokens[role]}"


def start_game(post: Post, game_id: str, name: str, options: str = "",
               seats: int | None = None, start: bool = True) -> Table:
    """CREATE ``name`` of ``game_id`` with ``options``, a JOIN for each of its
    first ``seats`` roles (all of them by default), START; all by mail."""
    post.send(GM_ADDR, f"CREATE {name} {game_id} {options}\n")
    gm = token_in(post, GM_ADDR)
    game = get_game(game_id)
    values = {o.name: o.default for o in game.options}
    for word in options.split():
        key, _, value = word.partition("=")
        values[key] = int(value) if value.isdigit() else value
    roles = game.roles(game.setup(values, Rng(b"\x01" * 32)))[:seats]
    tokens, addresses = {}, {}
    for role in roles:
        address = f"{role.lower()}@{name}.example"
        post.clock.advance(minutes=1)
        post.send(address, f"JOIN {name} {role}\n")
        tokens[role] = token_in(post, address)
        addresses[role] = address
    if start:
        post.send(GM_ADDR, f"SIGNON {name} GM {gm}\nSTART\n")
    post.new()
    return Table(name, list(roles), tokens, addresses)
