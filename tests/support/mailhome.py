"""One judge in a home of its own with one game played by mail: the set-up
the contract suite's tests side by side share (two homes, the same game from
the same seed, compared mail for mail).

:func:`open_game` makes the home, creates the game by mail with the options
given, has every role join from its own address and the GM start it;
:class:`MailHome` sends signed mails, lets test-clock time pass and reads the
table. A test extends it where it keeps more (the mails it noted, the
Message-IDs it gives)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from bench.support.clock import Clock
from bench.support.post import Post
from judge import config as cfg
from judge.game import adjudicator as adj
from judge.game.engine import Role, option_values
from judge.game.rng import Rng
from judge.game.spec import Game
from judge.service import Judge
from tests.core.helpers import GM_ADDR, token_in


@dataclass
class MailHome:
    """One judge in its own home, the game ``name`` and its seats."""

    post: Post
    game: Game
    roles: list[Role]
    name: str
    tokens: dict[str, str] = field(default_factory=dict)

    @property
    def judge(self) -> Judge:
        return self.post.judge

    @property
    def clock(self) -> Clock:
        return self.post.clock

    def address(self, who: str) -> str:
        return GM_ADDR if who == "GM" else f"{who.lower()}@players.example"

    def mail(self, who: str, body: str, sign: bool = True, message_id: str | None = None) -> None:
        """A mail from ``who`` (a role or ``GM``), signed on unless ``sign``
        is false; the judge must handle it (no ``failed`` in its log)."""
        text = f"SIGNON {self.name} {who} {self.tokens[who]}\n{body}\n" if sign else f"{body}\n"
        log = self.post.send(self.address(who), text, message_id=message_id)
        assert not any(": failed" in line for line in log), log

    def send(self, who: str, body: str, sign: bool = True) -> None:
        self.mail(who, body, sign)

    def tick(self, minutes: float) -> None:
        self.clock.advance(minutes=minutes)
        self.judge.cycle()

    def table(self) -> adj.Table:
        return self.judge.table(self.name)


H = TypeVar("H", bound=MailHome)


def open_game(make: Callable[[Post, Game, list[Role], str], H], root: Path, label: str,
              game: Game, *, name: str, seed: bytes, options: Mapping[str, str],
              gm_lines: Sequence[str] = ()) -> H:
    """A judge in ``root/label`` whose games draw from ``seed``, with a game
    ``name`` of ``game`` created by mail with ``options``, the GM's
    ``gm_lines`` sent, every role joined by its own address, and started.
    ``make`` builds the home (:class:`MailHome` or a class extending it)."""
    where = root / label
    cfg.init_home(where)
    clock = Clock()
    judge = Judge.open(where, now=clock)
    judge.seed_source = lambda: seed
    roles = game.roles(game.setup(option_values(game, options), Rng(seed, 0)))
    home = make(Post(judge, where, clock), game, roles, name)
    opts = " ".join(f"{k}={v}" for k, v in sorted(options.items()))
    home.send("GM", f"CREATE {name} {game.id} {opts}".strip(), sign=False)
    home.tokens["GM"] = token_in(home.post, GM_ADDR)
    for line in gm_lines:
        home.send("GM", line)
    for role in roles:
        home.send(role, f"JOIN {name} {role}", sign=False)
        home.tokens[role] = token_in(home.post, home.address(role))
    home.send("GM", "START")
    return home
