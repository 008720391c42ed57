"""Snapshots (DESIGN.md, "The game contract"): the judge saves one when a new
game turn starts, a rebuild from the latest one and the log entries after it
gives the same game as the full replay from the seed, and it reads only
those later entries, so that its cost does not grow with the game.

The game is classic Diplomacy played by mail for three years (CREATE, seven
JOINs and START by mail, then one ORDERS mail per power and phase through
the Maildir inbox), then three powers send their Spring 1904 orders, so that
the latest snapshot has entries after it. The game is played once for the
module; the tests only read it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from bench.support.classic_mail import ClassicByMail, StillClock
from judge import config as cfg
from judge.game import adjudicator as adj
from judge.service import Judge
from judge.store import set_kdf_cost

GAME = "g1"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ClassicByMail]:
    set_kdf_cost(2**8)  # as the core tests' fixtures do
    home = tmp_path_factory.mktemp("snapshots") / "home"
    cfg.init_home(home)
    clock = StillClock()
    judge = Judge.open(home, now=clock)
    try:
        game = ClassicByMail(judge, home, clock, name=GAME, seed=1904)
        game.setup(max_year=1910)
        game.play_until("S1904M")
        game.send_orders(sorted(game.owing())[:3])
        game.cycle()
        assert game.phase() == "S1904M" and len(game.owing()) == 4
        yield game
    finally:
        judge.close()


@dataclass
class RowsRead:
    """Log rows the store handed out: (method, rows), one item per call."""

    calls: list[tuple[str, int]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(n for _, n in self.calls)


@pytest.fixture
def rows_read(played: ClassicByMail, monkeypatch: pytest.MonkeyPatch) -> Iterator[RowsRead]:
    judge = played.judge
    got = RowsRead()
    for method in ("actions", "actions_after"):
        original: Callable[..., list[dict[str, Any]]] = getattr(judge.store, method)

        def counted(*args: Any, _m: str = method,
                    _o: Callable[..., list[dict[str, Any]]] = original,
                    **kw: Any) -> list[dict[str, Any]]:
            rows = _o(*args, **kw)
            got.calls.append((_m, len(rows)))
            return rows

        monkeypatch.setattr(judge.store, method, counted)
    yield got


def _entries(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{"kind": r["kind"], "role": r["role"], "payload": json.loads(r["payload"]),
             "draws": json.loads(r["draws"])} for r in rows]


def _after_snapshot(judge: Judge) -> int:
    snap = judge.store.latest_snapshot(GAME)
    assert snap is not None
    return judge.store.last_action(GAME) - int(snap["n"])


def test_snapshot_rebuild_and_full_replay_both_rebuild_the_stored_game(
        played: ClassicByMail) -> None:
    judge = played.judge
    assert "from the latest snapshot" in judge.replay_check(GAME, full=False)
    assert judge.replay_check(GAME, full=True)
    stored = judge.table(GAME).dumps()
    assert judge.rebuild(GAME, full=False).dumps() == stored
    assert judge.rebuild(GAME, full=True).dumps() == stored
    assert _after_snapshot(judge) == 3  # the three Spring 1904 order sets


def test_a_snapshot_at_each_new_turn_each_equal_to_the_replay_up_to_it(
        played: ClassicByMail) -> None:
    judge = played.judge
    store = judge.store
    game = played.game
    rows = _entries(store.actions(GAME))
    seed = bytes.fromhex(judge.game_of(GAME)[0]["seed"])
    snaps = store.snapshots(GAME)
    turns = {json.loads(s["table_json"])["state"]["phase"] for s in snaps}
    # Diplomacy's game turn is its phase: one snapshot per phase played, from
    # Spring 1901 (the start) to Spring 1904, retreats and builds included.
    assert {"S1901M", "F1901M", "W1901A", "S1902M", "S1903M", "S1904M"} <= turns
    assert len(snaps) == len(turns)
    stored = judge.table(GAME).dumps()
    for snap in snaps:
        n = int(snap["n"])
        assert adj.replay(game, rows[:n], seed).dumps() == snap["table_json"], n
        start = adj.Table.loads(snap["table_json"])
        assert adj.replay(game, rows[n:], seed, start_from=start).dumps() == stored, n


def test_a_rebuild_from_the_snapshot_reads_only_the_entries_after_it(
        played: ClassicByMail, rows_read: RowsRead) -> None:
    judge = played.judge
    later = _after_snapshot(judge)
    rows_read.calls.clear()
    assert judge.rebuild(GAME, full=False).dumps() == judge.table(GAME).dumps()
    assert rows_read.calls == [("actions_after", later)]
    rows_read.calls.clear()
    judge.rebuild(GAME, full=True)
    assert rows_read.total == judge.store.last_action(GAME) > later


def test_judge_replay_from_the_snapshot_reads_only_the_entries_after_it(
        played: ClassicByMail, rows_read: RowsRead) -> None:
    judge = played.judge
    later = _after_snapshot(judge)
    rows_read.calls.clear()
    judge.replay_check(GAME, full=False)
    assert rows_read.total == later, rows_read.calls
