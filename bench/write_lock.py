"""How long one order mail holds the database's write lock.

DESIGN.md ("How a mail is handled"): in one transaction the judge records
the mail, applies its commands and queues every reply and report; the
text, the pictures and the MIME of those mails are made after the commit
(or at relay time) from the report data queued in the transaction, so
that the write lock is held for the game's state change and the queue
rows only.

A judge in a temporary home on Maildir transports, with a clock that
stands still, plays a classic game by mail (CREATE, seven JOINs and START
by mail, then legal orders chosen from a fixed seed: see
:mod:`bench.support.classic_mail`). In each measured phase every power but
one sends its orders through the inbox; then two mails are handed to
``Judge.handle`` one after the other:

* **plain**: a power that has sent its orders sends them again (its
  acknowledgement is the only mail queued), the baseline;
* **turn**: the last power's orders, which resolve the phase and queue
  the report of every power (text, JSON view, map picture).

Timed, for each: the time the write transaction is held (every outermost
``Store.atomic`` block entered during the handling, summed), the whole
``Judge.handle`` call, and the relay pass that follows (composition left
to it included). Printed: medians over the phases, and the ratio of the
turn mail's write-lock time to the plain mail's, so that a run on another
machine compares like with like.

Usage::

    python bench/write_lock.py [--phases 12] [--json]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.support.classic_mail import (  # noqa: E402
    ClassicByMail,
    StillClock,
    address,
    lift_reply_limit,
)
from judge import config as cfg  # noqa: E402
from judge.service import Judge  # noqa: E402
from judge.store import Store  # noqa: E402

GAME_SEED = bytes(range(32))


class LockTimer:
    """Sums the time spent inside outermost ``Store.atomic`` blocks of one store."""

    def __init__(self, store: Store) -> None:
        self.held = 0.0
        self.blocks = 0
        self._inner = store.atomic
        self._conn = store.db.conn
        store.atomic = self.atomic  # type: ignore[method-assign]  # timed in place of the store's

    @contextlib.contextmanager
    def atomic(self) -> Iterator[Store]:
        outer = not self._conn.in_transaction
        t0 = time.perf_counter()
        try:
            with self._inner() as store:
                yield store
        finally:
            if outer:
                self.held += time.perf_counter() - t0
                self.blocks += 1

    def reset(self) -> None:
        self.held = 0.0
        self.blocks = 0


def measure(judge: Judge, timer: LockTimer, key: str, raw: bytes) -> dict[str, float]:
    """Handle one mail and relay what it queued; the times, in ms."""
    timer.reset()
    t0 = time.perf_counter()
    line = judge.handle(key, raw)
    handled = time.perf_counter() - t0
    held, blocks = timer.held, timer.blocks
    if "processed" not in line:
        raise RuntimeError(f"the order mail was not taken: {line}")
    t0 = time.perf_counter()
    sent = judge.relay()
    relayed = time.perf_counter() - t0
    return {"lock_ms": held * 1e3, "transactions": blocks, "handle_ms": handled * 1e3,
            "relay_ms": relayed * 1e3, "mails": len(sent)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phases", type=int, default=12, help="phases measured")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="judge-write-lock-"))
    plain: list[dict[str, float]] = []
    turn: list[dict[str, float]] = []
    try:
        home = work / "home"
        cfg.init_home(home)
        lift_reply_limit(home)
        clock = StillClock()
        judge = Judge.open(home, now=clock)
        try:
            judge.seed_source = lambda: GAME_SEED
            game = ClassicByMail(judge, home, clock, name="lock")
            game.setup(max_year=1950)
            timer = LockTimer(judge.store)
            n = 0
            while len(turn) < args.phases:
                owing = sorted(game.owing())
                if len(owing) < 2:  # one power alone to order: no plain mail to compare
                    game.play_phase()
                    continue
                last, again = owing[0], owing[1]
                game.send_orders([r for r in owing if r != last])
                game.cycle()
                n += 1
                phase = game.phase()
                plain.append(measure(judge, timer, f"plain-{n}", game.raw(
                    address(again), game.orders_body(again, game.orders(again)),
                    f"{phase} orders, again")))
                turn.append(measure(judge, timer, f"turn-{n}", game.raw(
                    address(last), game.orders_body(last, game.orders(last)),
                    f"{phase} orders")))
                if game.phase() == phase:
                    raise RuntimeError(f"{phase} did not resolve")
                clock.advance(hours=6)
        finally:
            judge.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    def med(rows: list[dict[str, float]], what: str) -> float:
        return statistics.median(r[what] for r in rows)

    result: dict[str, Any] = {
        "phases": len(turn),
        "plain": {k: med(plain, k) for k in plain[0]},
        "turn": {k: med(turn, k) for k in turn[0]},
    }
    result["ratio_lock_turn_to_plain"] = result["turn"]["lock_ms"] / result["plain"]["lock_ms"]
    if args.json:
        print(json.dumps(result))
        return 0
    for name in ("plain", "turn"):
        r = result[name]
        print(f"{name:>5} order mail: write lock held {r['lock_ms']:.1f} ms "
              f"({r['transactions']:.0f} transactions), handle {r['handle_ms']:.1f} ms, "
              f"then relay {r['relay_ms']:.1f} ms for {r['mails']:.0f} mails "
              f"(medians over {len(turn)} phases)")
    print(f"write lock, turn mail / plain mail: {result['ratio_lock_turn_to_plain']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
