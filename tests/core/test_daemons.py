"""Several daemons, one PostgreSQL database, one inbox; daemons killed as mail flows.

Three daemons (forked processes, each with its own connection, all on the
same home: the same Maildir inbox and outbox, the same database) handle a
thousand mails to ten games while one of them is killed (SIGKILL, at
whatever it was doing: reading a mail, processing a deadline, relaying) every
hundred mails and another takes its place. Afterwards:

* every mail was handled exactly once (one inbox row each, none duplicate or
  failed) and answered exactly once (one reply each in the outbox), and every
  outgoing mail was delivered; one on its way when its daemon was killed may
  be delivered twice under its one Message-ID (a relay window at most per
  kill: no transport can tell a mail it took from one it lost);
* each game's mails were handled in the order they arrived;
* each game's deadline, long past when the daemons start, was processed once.
"""

from __future__ import annotations

import email
import multiprocessing
import os
import signal
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.support.clock import Clock
from bench.support.post import Post, delivered_mail
from judge.relay import RELAY_WINDOW
from judge.service import Judge
from tests.core.helpers import start_sealed

pytestmark = [pytest.mark.postgres, pytest.mark.slow]

#: This module runs on PostgreSQL alone: SQLite has one daemon per database.
BOTH_BACKENDS = False

GAMES = 10
MAILS = 1000
DAEMONS = 3
KILL_EVERY = 100


def _serve(home: Path) -> None:
    """A daemon: cycles until it is killed (the test game is registered:
    the process is a fork of the test's)."""
    judge = Judge.open(home)
    while True:
        judge.cycle()
        time.sleep(0.01)


def _handled(home: Path) -> int:
    return sum(1 for _ in (home / "mail" / "in" / ".Processed" / "cur").iterdir()) \
        if (home / "mail" / "in" / ".Processed" / "cur").is_dir() else 0


@pytest.fixture
def pg_home(tmp_path: Path) -> Iterator[Path]:
    from tests.support.postgres import fresh_database

    with fresh_database() as url:
        home = tmp_path / "home"
        from judge import config as cfg

        cfg.init_home(home)
        toml = home / cfg.CONFIG_NAME
        text = toml.read_text(encoding="utf-8").replace(
            'database = "judge.db"', f'database = "{url}"', 1)
        for limit, value in (("replies_per_hour", 20), ("creates_per_day", 3)):
            text = text.replace(f"{limit} = {value}", f"{limit} = 100000")
        # The games are set up on the test's clock, months before the
        # daemons' real one: no jump of the clock is held for the operator.
        text = text.replace("max_clock_jump_hours = 6", "max_clock_jump_hours = 0")
        toml.write_text(text, encoding="utf-8")
        yield home


def test_three_daemons_killed_as_mail_flows_lose_nothing_and_double_nothing(
        pg_home: Path) -> None:
    clock = Clock()
    judge = Judge.open(pg_home, now=clock)
    post = Post(judge, pg_home, clock)
    names = [f"g{i}" for i in range(GAMES)]
    seats = {name: start_sealed(post, game=name) for name in names}
    deadlines_before = {name: judge.store.deadline(name) for name in names}
    assert all(deadlines_before.values())
    judge.close()

    # The mails, round by round over the games (a game's arrive in order).
    arrival: dict[str, list[str]] = {name: [] for name in names}
    new = pg_home / "mail" / "in" / "new"
    stamp = int(clock.now.timestamp())
    for i in range(MAILS):
        name = names[i % GAMES]
        role = ["North", "East", "South"][(i // GAMES) % 3]
        message_id = f"<m{i}@players.example>"
        raw = post.raw(seats[name].addresses[role],
                       f"{seats[name].signon(role, name)}\nSTATUS\n", message_id=message_id)
        (new / f"{stamp}.M{i:06d}P1.test:2,").write_bytes(raw)
        arrival[name].append(message_id)

    base = _handled(pg_home)  # the mails that set the games up
    ctx = multiprocessing.get_context("fork")
    daemons = [ctx.Process(target=_serve, args=(pg_home,), daemon=True)
               for _ in range(DAEMONS)]
    for d in daemons:
        d.start()
    killed = 0
    deadline = time.monotonic() + 900
    try:
        while _handled(pg_home) < base + MAILS and time.monotonic() < deadline:
            if _handled(pg_home) >= base + (killed + 1) * KILL_EVERY:
                victim = daemons[killed % DAEMONS]
                assert victim.pid is not None
                os.kill(victim.pid, signal.SIGKILL)
                victim.join()
                daemons[killed % DAEMONS] = ctx.Process(target=_serve, args=(pg_home,),
                                                        daemon=True)
                daemons[killed % DAEMONS].start()
                killed += 1
            time.sleep(0.05)
        # Let the outbox drain: the daemons relay what is left.
        judge = Judge.open(pg_home)
        while (judge.store.outbox("queued") and time.monotonic() < deadline):
            time.sleep(0.2)
    finally:
        for d in daemons:
            if d.pid is not None and d.is_alive():
                os.kill(d.pid, signal.SIGKILL)
                d.join()
    try:
        assert killed >= MAILS // KILL_EVERY - 1
        assert _handled(pg_home) == base + MAILS
        assert not list(new.iterdir())

        # Each mail handled once, none failed or taken for a duplicate.
        rows = [r for r in judge.store.inbox() if r["message_id"].startswith("<m")]
        assert Counter(r["status"] for r in rows) == Counter({"processed": MAILS})
        assert len({r["message_id"] for r in rows}) == MAILS

        # Each game's mails in the order they arrived (the inbox numbers its
        # rows as the transactions write them, under the game's lock).
        for name in names:
            mine = set(arrival[name])
            order = [r["message_id"] for r in sorted(rows, key=lambda r: r["id"])
                     if r["message_id"] in mine]
            assert order == arrival[name], name

        # Each answered once, and relayed once.
        replies = Counter(r["in_reply_to"] for r in judge.store.outbox()
                          if r["in_reply_to"].startswith("<m"))
        assert set(replies) == {f"<m{i}@players.example>" for i in range(MAILS)}
        assert set(replies.values()) == {1}
        assert not judge.store.outbox("queued")
        out = delivered_mail(pg_home / "mail" / "out")
        files = sum(1 for sub in ("new", "cur")
                    for _ in (pg_home / "mail" / "out" / sub).iterdir())
        # A mail handed to the transport by a daemon killed before it could
        # record the send goes again (its claim is released at once: its
        # process is gone), under the same Message-ID, which the receiver
        # folds into one: at most a relay window's worth per kill.
        assert files - len(out) <= killed * RELAY_WINDOW
        assert {r["message_id"] for r in judge.store.outbox()} <= set(out)
        answered = Counter(str(email.message_from_bytes(raw)["In-Reply-To"])
                           for raw in out.values())
        assert all(answered[f"<m{i}@players.example>"] == 1 for i in range(MAILS))

        # Each game's deadline, long past, processed once: its phase moved
        # on once and its next deadline is the one planned then.
        for name in names:
            before = deadlines_before[name]
            after = judge.store.deadline(name)
            assert before is not None and after is not None
            assert after["phase"] != before["phase"], name
            # (one deadline: who missed it, and the round resolved by it)
            entries = [a for a in judge.store.actions(name) if a["message_id"] == ""]
            assert Counter(a["kind"] for a in entries) == Counter({"missed": 1, "resolve": 1})
            assert '"trigger": "deadline"' in entries[-1]["payload"]
    finally:
        judge.close()
