"""A crash at any point loses no order and applies none twice.

The handling of a batch of mails is killed at every fault point the judge
has, at every time that point is reached, and the judge is then restarted on
the same folder. The result must be exactly that of a run without a crash:
same game, same action log, every mail handled once, same mails queued. (A
crash between a send and its record re-sends that mail under the same
Message-ID, which the receiving client folds into one.)
"""

from __future__ import annotations

import json
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from judge.service import Crash, Judge
from tests.core.conftest import Clock, Post
from tests.core.helpers import hand, start_sealed

#: The store and the mail pipeline on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True

POINTS = ("parsed", "logged", "applied", "committed", "before-move", "composed", "sent")


def _scenario(post: Post) -> list[bytes]:
    """Mails for one round: three bids (the last resolves the round early)."""
    seats = start_sealed(post)
    post.judge.cycle()
    mails = []
    for role in ("North", "East", "South"):
        card = hand(post, role)[-1]
        mails.append(post.raw(seats.addresses[role], f"{seats.signon(role)}\nBID {card}\n"))
    mails.append(post.raw(seats.addresses["North"], f"{seats.signon('North')}\nSTATUS\n"))
    return mails


def _snapshot(judge: Judge) -> dict[str, Any]:
    actions = [(r["n"], r["kind"], r["role"], r["payload"], r["message_id"])
               for r in judge.store.actions("g1")]
    inbox = Counter((r["message_id"], r["status"]) for r in judge.store.inbox())
    outbox = sorted((r["to_addr"], r["subject"], r["kind"], r["status"])
                    for r in judge.store.outbox())
    return {"table": judge.table("g1").dumps(), "actions": actions, "inbox": inbox,
            "outbox": outbox}


class Fault:
    def __init__(self, point: str, nth: int) -> None:
        self.point, self.nth, self.seen = point, nth, 0

    def __call__(self, point: str) -> None:
        if point == self.point:
            self.seen += 1
            if self.seen == self.nth:
                raise Crash(f"{point} #{self.nth}")


def _run(base: Path, work: Path, mails: list[bytes], clock: Clock,
         fault: Fault | None) -> tuple[dict[str, Any], bool]:
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(base, work)
    judge = Judge.open(work, now=clock)
    post = Post(judge, work, clock)
    for raw in mails:
        post.deliver(raw)
    judge.fault = fault
    crashed = False
    try:
        judge.cycle()
    except Crash:
        crashed = True
    judge.close()
    judge = Judge.open(work, now=clock)  # the restart
    judge.cycle()
    judge.cycle()
    snap = _snapshot(judge)
    judge.close()
    return snap, crashed


@pytest.mark.slow
@pytest.mark.sqlite_only  # it replays from copies of the home, database file and all
def test_crash_at_every_step_loses_nothing_and_doubles_nothing(
    post: Post, home: Path, clock: Clock, tmp_path: Path
) -> None:
    mails = _scenario(post)
    post.judge.close()
    clean, _ = _run(home, tmp_path / "clean", mails, clock, None)

    # count how often each point is reached in a clean run
    hits: Counter[str] = Counter()

    def count(point: str) -> None:
        hits[point] += 1

    work = tmp_path / "count"
    shutil.copytree(home, work)
    judge = Judge.open(work, now=clock)
    p = Post(judge, work, clock)
    for raw in mails:
        p.deliver(raw)
    judge.fault = count
    judge.cycle()
    judge.close()
    assert set(hits) == set(POINTS), hits

    runs = 0
    for point in POINTS:
        for nth in range(1, hits[point] + 1):
            snap, crashed = _run(home, tmp_path / "crash", mails, clock, Fault(point, nth))
            assert crashed, (point, nth)
            assert snap["table"] == clean["table"], (point, nth)
            assert snap["actions"] == clean["actions"], (point, nth)
            processed = [mid for (mid, st) in snap["inbox"] if st == "processed"]
            assert sorted(processed) == sorted(
                mid for (mid, st) in clean["inbox"] if st == "processed"), (point, nth)
            assert all(snap["inbox"][(mid, "processed")] == 1 for mid in processed)
            assert snap["outbox"] == clean["outbox"], (point, nth)
            runs += 1
    assert runs >= 10
    orders = [a for a in json.loads(json.dumps(clean["actions"])) if a[1] == "orders"]
    assert len(orders) == 3


@pytest.mark.parametrize("point", ["applied"])
def test_a_crashed_mail_is_not_half_applied(post: Post, point: str) -> None:
    seats = start_sealed(post)
    before = post.judge.store.game("g1")
    card = hand(post, "North")[0]
    post.deliver(post.raw(seats.addresses["North"], f"{seats.signon('North')}\nBID {card}\n"))
    post.judge.fault = Fault(point, 1)
    with pytest.raises(Crash):
        post.judge.cycle()
    assert post.judge.store.game("g1") == before
    assert post.judge.table("g1").held("North") == []
