"""Reading what mail clients send: a game of any kind played by mail on the
Maildir transports, driven to a decision whose legal lines hold what a test
needs (a hyphen, an arrow), and the judge's mails read back."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Unpack

import pytest

from bench.support.post import MailOptions
from judge import config as cfg
from judge.game import adjudicator as adj
from judge.game import registry
from judge.game.engine import DecisionKind, Role, option_values
from judge.game.rng import Rng
from judge.game.spec import Game
from judge.service import Judge
from judge.store import set_kdf_cost
from tests.core.conftest import Clock, Post

NAME = "g1"
SEED = bytes(range(32))
GM = "gm@league.example"
GAMES = ("classic", "warring_states", "three_kingdoms", "conflict_of_alliances",
         "kingdom_wars", "conquest_tactics")


@pytest.fixture(autouse=True)
def _fast_kdf() -> Iterator[None]:
    set_kdf_cost(2**8)
    yield


def address(role: str) -> str:
    return GM if role == "GM" else f"{role.lower().replace(' ', '-')}@players.example"


@dataclass
class Table:
    """One game of ``game`` in a judge home, created, joined and started by mail."""

    post: Post
    game: Game
    roles: list[Role]
    tokens: dict[str, str] = field(default_factory=dict)
    sent: int = 0

    @property
    def judge(self) -> Judge:
        return self.post.judge

    def signon(self, role: str) -> str:
        return f"SIGNON {NAME} {role} {self.tokens[role]}"

    def raw(self, role: str, body: str, **kw: Unpack[MailOptions]) -> bytes:
        self.sent += 1
        kw.setdefault("message_id", f"<r{self.sent}.{role.lower()}@players.example>")
        return self.post.raw(address(role), body, **kw)

    def send(self, role: str, body: str, **kw: Unpack[MailOptions]) -> list[str]:
        """A plain text mail from ``role``'s address (not signed on: the
        body says SIGNON where it should); one judge cycle."""
        self.post.deliver(self.raw(role, body, **kw))
        log = self.judge.cycle()
        assert not any(": failed" in line for line in log), log
        return log

    def deliver(self, raw: bytes) -> list[str]:
        self.post.deliver(raw)
        log = self.judge.cycle()
        assert not any(": failed" in line for line in log), log
        return log

    def mails_to(self, role: str) -> list[EmailMessage]:
        return [m for m in self.post.sent() if m["To"] == address(role)]

    def last_to(self, role: str) -> EmailMessage:
        return self.mails_to(role)[-1]

    def last_text(self, role: str) -> str:
        return Post.text(self.last_to(role))

    def ack_text(self, role: str) -> str:
        """The latest acknowledgement to ``role`` (a report may follow it)."""
        for msg in reversed(self.mails_to(role)):
            text = Post.text(msg)
            if "was read as follows:" in text:
                return text
        raise AssertionError(f"no acknowledgement to {role}")

    def table(self) -> adj.Table:
        return self.judge.table(NAME)

    def drive_to(self, wanted: Callable[[str], bool], limit: int = 400,
                 seed: int = 7) -> tuple[Role, str]:
        """Play on by mail (random legal lines of the seat that must act, the
        GM's PROCESS for order sets and windows) until a seat that owes an
        order or action has a legal line that ``wanted`` accepts."""
        rnd = random.Random(seed)
        for _ in range(limit):
            table = self.table()
            assert table.outcome is None, "the game ended before such a line came"
            for d in adj.open_decisions(self.game, table):
                if d.kind is DecisionKind.RESPONSE:
                    continue
                for role in d.roles:
                    hits = [x for x in self.game.legal(table.state, role) if wanted(x)]
                    if hits:
                        return role, hits[0]
            acting = sorted(adj.acting_roles(self.game, table))
            if acting:
                role = acting[0]
                lines = self.game.legal(table.state, role)
                self.send(role, f"{self.signon(role)}\n{rnd.choice(lines)}\n")
            else:
                self.send("GM", f"{self.signon('GM')}\nPROCESS\n")
        raise AssertionError("no such line within the limit")


def token_in(post: Post, to: str) -> str:
    for msg in reversed(post.sent()):
        if msg["To"] == to:
            m = re.search(r"token is: (\S+)", Post.text(msg))
            if m:
                return m.group(1)
    raise AssertionError(f"no token mailed to {to}")


def open_table(root: Path, game_id: str) -> Table:
    cfg.init_home(root)
    text = (root / "judge.toml").read_text(encoding="utf-8")
    (root / "judge.toml").write_text(
        re.sub(r"replies_per_hour = \d+", "replies_per_hour = 100000", text), encoding="utf-8")
    clock = Clock()
    judge = Judge.open(root, now=clock)
    judge.seed_source = lambda: SEED
    game = registry.get(game_id)
    roles = game.roles(game.setup(option_values(game, {}), Rng(SEED, 0)))
    t = Table(Post(judge, root, clock), game, roles)
    t.send("GM", f"CREATE {NAME} {game_id}")
    t.tokens["GM"] = token_in(t.post, GM)
    for role in roles:
        t.send(role, f"JOIN {NAME} {role}")
        t.tokens[role] = token_in(t.post, address(role))
    t.send("GM", f"{t.signon('GM')}\nSTART")
    assert t.table().outcome is None
    return t


@pytest.fixture
def tables(tmp_path: Path) -> Iterator[Callable[[str], Table]]:
    opened: list[Table] = []

    def make(game_id: str) -> Table:
        t = open_table(tmp_path / f"home-{game_id}-{len(opened)}", game_id)
        opened.append(t)
        return t

    yield make
    for t in opened:
        t.judge.close()
