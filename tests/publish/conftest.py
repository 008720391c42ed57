"""Fixtures of the public pages' tests: a judge in a temporary home (the
core tests' Maildir transports and test clock) with the test-only games
registered, and helpers that play games by mail and read a published site."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.support.maildir import open_post
from bench.support.post import address_of as address_of
from bench.support.post import start as start
from judge.game import adjudicator as adj
from judge.game import registry
from judge.store import set_kdf_cost
from tests.core.conftest import Post
from tests.games import add_report_files
from tests.games.counterspell import GAME as COUNTERSPELL


@pytest.fixture(autouse=True)
def _test_games() -> Iterator[None]:
    set_kdf_cost(2**8)
    registry.register(COUNTERSPELL)
    add_report_files()
    add_report_files()
    yield
    registry.unregister(COUNTERSPELL.id)


@pytest.fixture
def post(tmp_path: Path) -> Iterator[Post]:
    yield from open_post(tmp_path)


def play(post: Post, tokens: dict[str, str], steps: int, seed: int = 1,
         game: str = "g1") -> None:
    """Up to ``steps`` mails of random legal lines from the seats the game
    waits for, moving the clock past windows' minimum open time."""
    chooser = random.Random(seed)
    for _ in range(steps):
        post.clock.advance(minutes=31)
        post.judge.cycle()
        row, g = post.judge.game_of(game)
        if row["status"] != "active":
            return
        table = post.judge.table(game)
        due = adj.open_decisions(g, table)
        if not due:
            return
        for role in due[0].roles:
            lines = g.legal(table.state, role)
            if lines:
                post.send(address_of(role),
                          f"SIGNON {game} {role} {tokens[role]}\n{chooser.choice(lines)}\n")


def site_text(folder: Path) -> dict[str, bytes]:
    """Every file of a published site, by path relative to it."""
    return {str(p.relative_to(folder)): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}
