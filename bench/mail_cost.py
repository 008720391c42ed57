"""What one order mail costs at year 1 and at year 30 of a long Diplomacy game.

DESIGN.md ("The game contract"): snapshots make a rebuild fast, "so no cost
of handling a mail grows with the length of the game". This measures it.

Two judges, each in a temporary home on Maildir transports with a test
clock, play the same classic game (``max_year`` far enough ahead that it
does not end) with the same seed. In each, a GM CREATEs the game by mail,
seven players JOIN by mail and the GM STARTs it by mail; then every power
that owes orders mails one whole ``ORDERS`` block per phase, legal lines
chosen at random from a fixed seed (see :mod:`bench.support.classic_mail`), and
``Judge.cycle()`` reads them from the inbox, resolves the phase, mails the
reports. The first judge stops at Spring 1901, the second plays on until
Spring of ``--year`` (1930: year 30).

At both points every power but one has sent its orders (the missing one
keeps the phase from resolving), and one power then revises its orders
``--n`` times: each time one new RFC 5322 mail (a SIGNON and a whole ORDERS
block, one of a few legal sets in turn) handed to ``Judge.handle()``, which
parses it and, in one transaction, authenticates, loads the game, applies
the orders, writes the log entry, the game and queues the acknowledgement.
Each handling is timed with ``time.perf_counter``, year 1 and year 30
alternating (which goes first alternates too); the outbox is relayed after
each, untimed. Printed: median and p90 per mail at each point and the ratio
year 30 / year 1 (target: near 1).

``Judge.replay_check`` (what ``judge replay`` runs) is timed at both points
too, from the latest snapshot (``full=False``) and from the seed
(``full=True``), ``--replays`` times each, alternating; printed: the medians
and both ratios (from the snapshot: near 1; from the seed: it grows with the
log, as it must).

Usage::

    python bench/mail_cost.py [--n 200] [--year 1930] [--replays 5] [--json]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.support.classic_mail import (  # noqa: E402
    POWERS,
    ClassicByMail,
    StillClock,
    address,
    lift_reply_limit,
)
from judge import config as cfg  # noqa: E402
from judge.service import Judge  # noqa: E402

START_YEAR = 1901
#: The game's seed (the same in both homes, so both play the same game).
GAME_SEED = bytes(range(32))
#: Order sets the measured power sends in turn.
ORDER_SETS = 8
WARM_UP = 10


@dataclass
class Point:
    """One judge with its game standing at one phase, ready for order mails."""

    label: str
    home: Path
    clock: StillClock
    judge: Judge
    game: ClassicByMail
    power: str = ""
    missing: str = ""
    bodies: list[str] = field(default_factory=list)
    sent: int = 0
    mails: list[float] = field(default_factory=list)
    replay_snapshot: list[float] = field(default_factory=list)
    replay_full: list[float] = field(default_factory=list)
    rebuild_snapshot: list[float] = field(default_factory=list)
    before: dict[str, Any] = field(default_factory=dict)

    def handle_one(self) -> float:
        """Hand one order mail to the judge; returns the seconds it took."""
        body = self.bodies[self.sent % len(self.bodies)]
        self.sent += 1
        raw = self.game.raw(address(self.power), body, f"{self.game.phase()} orders, again")
        key = f"bench-{self.label}-{self.sent}"
        t0 = time.perf_counter()
        line = self.judge.handle(key, raw)
        took = time.perf_counter() - t0
        if "processed:" not in line or " 0 errors" not in line:
            raise RuntimeError(f"{self.label}: the order mail was not taken: {line}")
        self.judge.relay()
        self.clock.advance(minutes=1)
        return took


def open_point(label: str, work: Path, max_year: int) -> Point:
    home = work / label
    cfg.init_home(home)
    lift_reply_limit(home)
    clock = StillClock()
    judge = Judge.open(home, now=clock)
    judge.seed_source = lambda: GAME_SEED
    game = ClassicByMail(judge, home, clock, name="long")
    game.setup(max_year)
    return Point(label, home, clock, judge, game)


def ready(point: Point) -> None:
    """Every power but one sends its orders; pick the power that will revise.

    The power measured is the one (still in the game) with the number of
    units nearest to three (what most powers start with), so that the mail
    is the same kind of mail at both points; the missing power is another
    one still in the game."""
    g = point.game
    owing = sorted(g.owing())
    view = g.game.view(g.table().state, None)
    units = {p["name"]: int(p["units"]) for p in view["powers"]}
    point.power = min(owing, key=lambda r: (abs(units[r] - 3), POWERS.index(r)))
    point.missing = next(r for r in owing if r != point.power)
    phase = g.phase()
    g.send_orders([r for r in owing if r != point.missing])
    g.cycle()
    if g.phase() != phase or g.owing() != {point.missing}:
        raise RuntimeError(f"{point.label}: {phase} should wait for {point.missing} alone")
    point.bodies = [g.orders_body(point.power, g.orders(point.power))
                    for _ in range(ORDER_SETS)]
    store = point.judge.store
    snapshot = store.latest_snapshot(g.name)
    row = store.game(g.name)
    assert snapshot is not None and row is not None
    point.before = {
        "phase": phase,
        "power": point.power,
        "units": units[point.power],
        "missing": point.missing,
        "units_on_board": sum(units.values()),
        "table_json_bytes": len(row["table_json"]),
        "log_entries": store.last_action(g.name),
        "snapshots": len(store.snapshots(g.name)),
        "entries_after_snapshot": store.last_action(g.name) - int(snapshot["n"]),
    }


def _timed(work: Callable[[], object]) -> float:
    t0 = time.perf_counter()
    work()
    return time.perf_counter() - t0


def time_replays(p: Point) -> None:
    """``judge replay`` from the snapshot and from the seed, and the rebuild
    from the snapshot alone (what the first of them costs beyond it is the
    check and its message)."""
    judge, name = p.judge, p.game.name
    p.replay_snapshot.append(_timed(lambda: judge.replay_check(name, full=False)))
    p.replay_full.append(_timed(lambda: judge.replay_check(name, full=True)))
    p.rebuild_snapshot.append(_timed(lambda: judge.rebuild(name, full=False)))


def p90(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=10, method="inclusive")[8] if len(xs) > 1 else xs[0]


def summary(p: Point) -> dict[str, Any]:
    """The point as it stood when the measuring began, and the figures."""
    return {
        **p.before,
        "mails": len(p.mails),
        "median_ms": statistics.median(p.mails) * 1e3,
        "p90_ms": p90(p.mails) * 1e3,
        "replay_snapshot_ms": statistics.median(p.replay_snapshot) * 1e3,
        "replay_full_ms": statistics.median(p.replay_full) * 1e3,
        "rebuild_snapshot_ms": statistics.median(p.rebuild_snapshot) * 1e3,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=200, help="order mails timed per point")
    parser.add_argument("--year", type=int, default=1930,
                        help="the late point: Spring of this year (default 1930, year 30)")
    parser.add_argument("--replays", type=int, default=5,
                        help="times each replay is timed per point (default 5)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.year <= START_YEAR or args.n < 1 or args.replays < 1:
        parser.error("--year must be after 1901, --n and --replays at least 1")
    max_year = args.year + 5  # the game must not end on the way
    work = Path(tempfile.mkdtemp(prefix="judge-mail-cost-"))
    points: list[Point] = []
    try:
        built = time.perf_counter()
        early = open_point("year1", work, max_year)
        points.append(early)
        late = open_point(f"year{args.year - START_YEAR + 1}", work, max_year)
        points.append(late)
        late.game.play_until(f"S{args.year}M")
        built = time.perf_counter() - built
        for p in points:
            ready(p)
        for i in range(args.replays):  # the phases wait: 6 order entries after the snapshot
            for p in points if i % 2 == 0 else points[::-1]:
                time_replays(p)
        for _ in range(WARM_UP):
            for p in points:
                p.handle_one()
        for i in range(args.n):
            for p in points if i % 2 == 0 else points[::-1]:
                p.mails.append(p.handle_one())
        for p in points:
            if p.game.owing() != {p.missing}:
                raise RuntimeError(f"{p.label}: the phase moved on while it was measured")
            p.judge.replay_check(p.game.name, full=False)
        a, b = summary(early), summary(late)
    finally:
        for p in points:
            p.judge.close()
        shutil.rmtree(work, ignore_errors=True)
    result = {
        "n": args.n,
        "replays": args.replays,
        "build_seconds": built,
        "year1": a,
        "late": b,
        "late_year": args.year,
        "ratio_median": b["median_ms"] / a["median_ms"],
        "ratio_p90": b["p90_ms"] / a["p90_ms"],
        "ratio_replay_snapshot": b["replay_snapshot_ms"] / a["replay_snapshot_ms"],
        "ratio_replay_full": b["replay_full_ms"] / a["replay_full_ms"],
        "ratio_rebuild_snapshot": b["rebuild_snapshot_ms"] / a["rebuild_snapshot_ms"],
    }
    if args.json:
        print(json.dumps(result))
        return 0
    years = args.year - START_YEAR + 1
    print(f"the long game: {years} years played by mail in {built:.1f} s "
          f"(two judges, the same seed)")
    for name, s in (("year 1", a), (f"year {years}", b)):
        print(f"{name:>8} ({s['phase']}, {s['log_entries']} log entries, "
              f"{s['snapshots']} snapshots, {s['units_on_board']} units on the board, "
              f"table {s['table_json_bytes']} bytes): {s['power']} ({s['units']} units) "
              f"revises, {s['missing']} has not sent")
        print(f"{'':>8} order mail: median {s['median_ms']:.2f} ms, p90 {s['p90_ms']:.2f} ms "
              f"over {s['mails']} mails")
        print(f"{'':>8} judge replay: from the snapshot {s['replay_snapshot_ms']:.2f} ms "
              f"(the rebuild alone {s['rebuild_snapshot_ms']:.2f} ms), from the seed "
              f"{s['replay_full_ms']:.2f} ms (median of {args.replays})")
    print(f"ratio year {years} / year 1: order mail median {result['ratio_median']:.2f}, "
          f"p90 {result['ratio_p90']:.2f} (target: near 1)")
    print(f"ratio year {years} / year 1: replay from the snapshot "
          f"{result['ratio_replay_snapshot']:.2f} (target: near 1; the rebuild alone "
          f"{result['ratio_rebuild_snapshot']:.2f}), "
          f"from the seed {result['ratio_replay_full']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
