"""Fixtures for the judge core: a judge in a temporary home on Maildir
transports, a clock the test moves, and the test-only game registered."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.support.clock import Clock as Clock
from bench.support.post import Post as Post
from bench.support.post import delivered_mail as delivered_mail
from judge import config as cfg
from judge.game import registry
from judge.service import Judge
from judge.store import set_kdf_cost
from tests.games import add_report_files
from tests.games.sealed_bids import GAME as SEALED


@pytest.fixture(autouse=True)
def _fast_kdf_and_test_game() -> Iterator[None]:
    set_kdf_cost(2**8)  # scrypt at full cost makes every test slow; hashes keep their cost
    registry.register(SEALED)
    add_report_files()
    add_report_files()
    yield
    registry.unregister(SEALED.id)


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def home(tmp_path: Path, database: str) -> Path:
    """A judge's home; its database is SQLite, or PostgreSQL in a module
    that runs on both back-ends (``BOTH_BACKENDS``, tests/conftest.py)."""
    h = tmp_path / "home"
    cfg.init_home(h)
    if database != "judge.db":
        toml = h / cfg.CONFIG_NAME
        toml.write_text(toml.read_text(encoding="utf-8").replace(
            'database = "judge.db"', f'database = "{database}"', 1), encoding="utf-8")
    return h


@pytest.fixture
def judge(home: Path, clock: Clock) -> Iterator[Judge]:
    j = Judge.open(home, now=clock)
    yield j
    j.close()


@pytest.fixture
def post(judge: Judge, home: Path, clock: Clock) -> Post:
    return Post(judge, home, clock)
