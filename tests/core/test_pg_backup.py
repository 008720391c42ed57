"""``judge backup`` and ``judge restore`` of a judge on PostgreSQL
(judge.store.pgbackup): a logical dump of the judge's tables, taken while it
serves; a restore that brings the game back to the backup's moment and
carries on from it, and refuses while another judge is connected."""

from __future__ import annotations

import email
import email.policy
import json
import tarfile
from collections import Counter
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge.cli import main
from judge.game.scheduler import parse_time
from judge.service import Judge
from tests.core.conftest import Clock, Post
from tests.core.helpers import GM_ADDR, Seats, hand, start_sealed

pytestmark = pytest.mark.postgres

#: The database fixture gives a PostgreSQL schema in every test here.
BOTH_BACKENDS = False


@pytest.fixture
def database() -> Iterator[str]:
    from tests.support.postgres import fresh_database

    with fresh_database() as url:
        yield url


def _message_id(raw: bytes) -> str:
    return str(email.message_from_bytes(raw, policy=email.policy.default)["Message-ID"])


def _bid(post: Post, seats: Seats, role: str) -> bytes:
    return post.raw(seats.addresses[role], f"{seats.signon(role)}\nBID {hand(post, role)[0]}\n")


def test_back_up_play_on_restore_and_carry_on_on_postgresql(
    judge: Judge, post: Post, clock: Clock, home: Path, tmp_path: Path
) -> None:
    assert judge.store.postgres
    seats = start_sealed(post)
    north = _bid(post, seats, "North")
    post.deliver(north)
    judge.cycle()
    phase = judge.store.game("g1")["phase"]  # type: ignore[index]
    saved = tmp_path / "judge.tar"
    done = CliRunner().invoke(main, ["--home", str(home), "backup", str(saved)])
    assert done.exit_code == 0, done.output  # while this judge is connected: online
    assert saved.stat().st_mode & 0o777 == 0o600
    with tarfile.open(saved) as tar:
        assert sorted(tar.getnames()) == ["backup.json", "judge.json", "token.key"]
        manifest = json.loads(tar.extractfile("backup.json").read())  # type: ignore[union-attr]
    assert manifest["database"] == "postgresql"
    clock.advance(hours=2)
    east, south = _bid(post, seats, "East"), _bid(post, seats, "South")
    post.deliver(east)
    post.deliver(south)
    judge.cycle()
    assert judge.store.game("g1")["phase"] != phase  # type: ignore[index]
    clock.advance(hours=70)

    # Not while a judge is connected to the database.
    refused = CliRunner().invoke(main, ["--home", str(home), "restore", str(saved)])
    assert refused.exit_code != 0 and "stop every `judge serve`" in refused.output
    judge.close()

    from judge.store import pgbackup

    lines = pgbackup.restore(home, saved, now=clock.now)
    assert any("now hold the backup's rows" in line for line in lines), lines
    back = Judge.open(home, now=clock)
    post = Post(back, home, clock, count=post.count)
    try:
        assert back.store.game("g1")["phase"] == phase  # type: ignore[index]
        kept = Counter(a["message_id"] for a in back.store.actions("g1"))
        assert kept[_message_id(north)] == 1
        assert not {_message_id(east), _message_id(south)} & set(kept)
        [clock_row] = back.store.deadlines()
        assert parse_time(clock_row["deadline"]) == clock.now + timedelta(hours=24)
        back.cycle()
        told = {m["To"] for m in post.sent()
                if m["Subject"] == "The judge was restored from a backup"}
        assert told == {GM_ADDR, *seats.addresses.values()}
        # The numbering goes on past the restored rows: new mail is taken in.
        again = [_bid(post, seats, "East"), _bid(post, seats, "South")]
        for raw in again:
            post.deliver(raw)
        back.cycle()
        assert back.store.game("g1")["phase"] != phase  # type: ignore[index]
        orders = [(a["role"], a["message_id"]) for a in back.store.actions("g1")
                  if a["kind"] == "orders"]
        assert orders == [("North", _message_id(north)), ("East", _message_id(again[0])),
                          ("South", _message_id(again[1]))]
        assert back.replay_check("g1")
    finally:
        back.close()
