"""Ten thousand order mails in one poll: a home of a thousand games, one ``serve --once``.

What it measures. A home on the Maildir transports (the embedded defaults of
``judge init``) holds ``--games`` games, half classic Diplomacy and half
Conflict of Alliances, all started. ``--mails`` order mails, each a legal
move, are written into ``mail/in/new`` and one ``judge serve --once`` runs as
a child process: it reads every mail, applies it, resolves what becomes due,
queues and relays every acknowledgement and report to ``mail/out``. Printed:
the wall time of that process, its peak resident memory (``wait4``'s
``ru_maxrss``), the cost per mail, and the database's growth per game-year.

The same is done for a second shape: a hundredth as many games (at least two),
each getting ten times as many mails (10 games x 100 mails against 1,000
games x 10 at the defaults). The target is the same cost per mail for both
(within 20%): no cost of a poll grows with how many games the mails touch.

Both shapes handle the same mails. A game that gets 100 mails plays on
through five classic years, where phases resolve more often per mail (a
retreat or build phase has few writers) and reports grow; the first ten
mails of a game are mostly one movement phase. So the large shape is a league
of games at every stage, as a real one is: its games of a kind take turns at
the ten stretches of ten mails of the small shape's hundred, a game on the
k-th stretch first made to stand where the script's game stood before it
(the rows the judge wrote for the script's game, copied under the game's own
name; the run checks that the copied log rebuilds the copied game). The cost
per mail of a shape is the time of its ``serve --once`` less that of one on
the same home with an empty inbox (start-up, opening the store), divided by
its mails; the time printed for the large poll is the whole command's.

The mails. Every game of a kind is created with the same seed
(``Judge.seed_source``), so all of them play the same game; the mail sequence
of a kind is worked out once beforehand in a throw-away home, by the judge
itself: there, the seat that must decide (``notify.must_decide``; for
classic, the powers that owe orders, in turn) writes a mail of legal lines
(classic: a whole ``ORDERS`` block from :class:`bench.support.classic_mail.
ClassicByMail`; Conflict of Alliances, scenario ``qin-dominates``: one line
of ``Game.legal``, chosen with a seeded ``random.Random``, a PASS a tenth of
the time when there is anything else), the judge handles it, and the next writer
is whoever must decide then. In the measured home each game gets the same
bodies under its own SIGNON, from its own seat's address. Mails are dropped
round by round (mail 1 of every game, then mail 2, ...), so a game's mails
arrive in their order; the run checks afterwards that every mail was
processed without a refused line.

The seats. Seats are set up with the library (``Judge.create_game``,
``join``, ``start``); their tokens are hashed at ``--kdf-n`` (a throw-away
home), and each seat's token is checked once before the poll, as the mail of
earlier turns would have: a seat the judge knows costs an HMAC, not a scrypt
(see :meth:`judge.store.Store.check_token`). The start reports are relayed
before the poll.

``--json`` prints one object: ``seconds``, ``peak_rss_mb``, ``mails`` and
``games`` of the large shape, ``ms_per_mail_10x100`` and
``ms_per_mail_1000x10`` (the two shapes, whatever their sizes), and the rest
of the figures.

Usage::

    python bench/scale.py [--games 1000] [--mails 10000] [--kdf-n 256] [--json]
"""

from __future__ import annotations

import argparse
import email
import email.policy
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.support.classic_mail import ClassicByMail, StillClock  # noqa: E402
from judge import config as cfg  # noqa: E402
from judge import notify  # noqa: E402
from judge.game import adjudicator as adj  # noqa: E402
from judge.game import registry  # noqa: E402
from judge.service import Judge  # noqa: E402
from judge.store import set_kdf_cost  # noqa: E402

KINDS = ("classic", "conflict_of_alliances")
#: The seed of every game of a kind (so all of them play the same game).
GAME_SEED = bytes(range(32))
GM = "gm@league.example"
#: Game settings of every game: no window waits out a minimum open time
#: (the mail sequence must not depend on the clock).
SETTINGS = {"window_min_minutes": "0"}
#: Options per kind: Conflict of Alliances' longer scenario (7 turns).
OPTIONS: dict[str, dict[str, str]] = {"conflict_of_alliances": {"scenario": "qin-dominates"}}


def write_config(home: Path) -> None:
    """A home of its own: ``judge init``, with the reply limit lifted (one
    player sends many mails in an hour here)."""
    cfg.init_home(home)
    path = home / "judge.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(r"replies_per_hour = \d+", "replies_per_hour = 1000000", text),
                    encoding="utf-8")


def open_judge(home: Path) -> Judge:
    judge = Judge.open(home)
    judge.seed_source = lambda: GAME_SEED
    return judge


def new_game(judge: Judge, name: str, kind: str) -> dict[str, str]:
    """Create, seat and start ``name``; returns each role's token."""
    judge.create_game(name, kind, OPTIONS.get(kind, {}), GM)
    game = registry.get(kind)
    with judge.store.atomic():
        ws = judge.workspace()
        g = ws.get(name)
        for key, value in SETTINGS.items():
            settings = json.loads(g.row["settings"] or "{}")
            settings[key] = value
            judge.store.update_game(name, settings=json.dumps(settings))
    from judge.game.rng import Rng

    roles = game.roles(game.setup({}, Rng(GAME_SEED)))
    tokens = {role: judge.join(name, seat_address(name, role), role) for role in roles}
    judge.start(name)
    return tokens


def seat_address(game: str, role: str) -> str:
    return f"{role.lower()}.{game}@players.example"


def mail_bytes(judge: Judge, sender: str, body: str, message_id: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = judge.config.address
    msg["Subject"] = "orders"
    msg["Date"] = format_datetime(judge.now())
    msg["Message-ID"] = message_id
    msg.set_content(body)
    return msg.as_bytes(policy=email.policy.SMTP)


# --------------------------------------------------------------------------- scripts


@dataclass
class Mail:
    """One mail of a kind's sequence: who writes it and the lines after SIGNON."""

    role: str
    lines: list[str]


#: The name of the game a script is worked out in (written into the copies
#: of its rows under each measured game's name, see :func:`clone`).
TEMPLATE = "tmplgame"


@dataclass
class Script:
    """A kind's mail sequence, and its game as it stood every ``window`` mails."""

    mails: list[Mail]
    #: mail index (a multiple of the window) -> the game's rows before that mail
    stands: dict[int, dict[str, Any]]
    #: entries of the log once the game has started (its own, in every home)
    started_at: int


def script(kind: str, count: int, work: Path, window: int) -> Script:
    """The first ``count`` mails of a game of ``kind``, worked out by the
    judge in a throw-away home (see the module docstring), and the game's
    rows every ``window`` mails."""
    home = work / f"script-{kind}"
    write_config(home)
    judge = open_judge(home)
    t = TEMPLATE
    try:
        tokens = new_game(judge, t, kind)
        judge.relay()
        started_at = judge.store.last_action(t)
        rnd = random.Random(1901)
        player = ClassicByMail(judge, home, StillClock(), name=t)
        mails: list[Mail] = []
        stands: dict[int, dict[str, Any]] = {}
        for i in range(count):
            if i and i % window == 0:
                stands[i] = capture(judge, t, started_at)
            g = judge.workspace().get(t)
            if g.status != "active":
                raise SystemExit(f"{kind}: the game ended after {i} mails; ask for fewer")
            table = g.need_table()
            if kind == "classic":
                role = sorted(adj.waiting_on(g.game, table))[0]
                lines = ["ORDERS", *player.orders(role), "END"]
            else:
                role = next(s.role for s in g.active_seats()
                            if s.role and notify.must_decide(g, s) is not None)
                legal = g.game.legal(table.state, role)
                acts = [line for line in legal if line != "PASS"]
                # A player mostly acts rather than passes (a pass ends its phase).
                lines = [rnd.choice(acts if acts and rnd.random() < 0.9 else legal)]
            body = f"SIGNON {t} {role} {tokens[role]}\n" + "\n".join(lines) + "\n"
            line = judge.handle(f"s{i}", mail_bytes(judge, seat_address(t, role), body,
                                                    f"<s{i}.{kind}@players.example>"))
            if not line.endswith(")") or ", 0 errors" not in line:
                raise SystemExit(f"{kind}: mail {i} was not taken whole: {line}")
            judge.relay()
            mails.append(Mail(role, lines))
        return Script(mails, stands, started_at)
    finally:
        judge.close()


#: Seat columns that belong to the seat's person, not to the game's course.
_OWN_SEAT = {"id", "game", "role", "wanted", "address", "token_hash", "tz", "joined"}


def capture(judge: Judge, name: str, started_at: int) -> dict[str, Any]:
    """What the game ``name`` is, in the database, beyond what every started
    game of its kind shares: its table and phase, the log after the start,
    the snapshots, the deadline, and the seats' bookkeeping."""
    db = judge.store.db

    def rows(sql: str) -> list[dict[str, Any]]:
        return [dict(r) for r in db.query(sql, [name])]

    return {
        "game": rows("select table_json, phase, status, updated from games where name = ?")[0],
        "actions": rows("select * from actions where game = ? order by n")[started_at:],
        "snapshots": [r for r in rows("select * from snapshots where game = ?")
                      if r["n"] > started_at],
        "deadlines": rows("select * from deadlines where game = ?"),
        "seats": {r["role"]: {k: v for k, v in r.items() if k not in _OWN_SEAT}
                  for r in rows("select * from seats where game = ?")},
    }


def clone(judge: Judge, name: str, stand: dict[str, Any]) -> None:
    """Make the started game ``name`` stand where the script's game stood
    (``stand``, from :func:`capture`): its rows copied, the script game's
    name turned into ``name`` wherever it is written."""
    conn = judge.store.db.conn

    def own(v: Any) -> Any:
        return v.replace(TEMPLATE, name) if isinstance(v, str) else v

    def insert(table: str, row: dict[str, Any]) -> None:
        row = {k: own(v) for k, v in row.items()} | {"game": name}
        keys = ", ".join(row)
        conn.execute(f"insert into {table} ({keys}) values ({', '.join('?' * len(row))})",
                     list(row.values()))

    with judge.store.atomic():
        g = stand["game"]
        conn.execute("update games set table_json = ?, phase = ?, status = ?, updated = ? "
                     "where name = ?", [own(g["table_json"]), g["phase"], g["status"],
                                        g["updated"], name])
        for row in stand["actions"]:
            insert("actions", {k: v for k, v in row.items() if k != "seq"})
        for row in stand["snapshots"]:
            insert("snapshots", row)
        conn.execute("delete from deadlines where game = ?", [name])
        for row in stand["deadlines"]:
            insert("deadlines", row)
        for role, seat in stand["seats"].items():
            sets = ", ".join(f"{k} = ?" for k in seat)
            conn.execute(f"update seats set {sets} where game = ? and role = ?",
                         [own(v) for v in seat.values()] + [name, role])


# --------------------------------------------------------------------------- homes


@dataclass
class Home:
    path: Path
    games: dict[str, tuple[str, dict[str, str]]]  # name -> (kind, tokens)
    mails: int = 0


def build(path: Path, games: int, per_game: int, scripts: dict[str, Script],
          windows: int = 1) -> Home:
    """A home of ``games`` started games (kinds alternating) with
    ``per_game`` order mails each in its inbox. With ``windows`` over 1, the
    games of a kind take turns at the script's first ``windows`` stretches of
    ``per_game`` mails: a game on the k-th is first made to stand where the
    script's game stood after k stretches (:func:`clone`), then gets the
    mails of that stretch."""
    write_config(path)
    judge = open_judge(path)
    home = Home(path, {})
    start: dict[str, int] = {}
    try:
        for i in range(games):
            kind = KINDS[i % len(KINDS)]
            name = f"g{i:04d}"
            home.games[name] = (kind, new_game(judge, name, kind))
            start[name] = per_game * ((i // len(KINDS)) % windows)
        for name, (_kind, tokens) in home.games.items():  # earlier turns' mail
            for role, token in tokens.items():
                stored = judge.store.token_hash(name, role)
                assert judge.store.check_token(token, stored)
        judge.relay()
        for name, (kind, _tokens) in home.games.items():
            if start[name]:
                if judge.store.last_action(name) != scripts[kind].started_at:
                    raise SystemExit(f"{name} did not start as the script's game did")
                clone(judge, name, scripts[kind].stands[start[name]])
        for name in sorted({next(n for n, (k, _) in home.games.items()
                                 if k == kind and start[n] == at)
                            for kind in KINDS for at in set(start.values())}):
            judge.replay_check(name)  # the copied log rebuilds the copied game
    finally:
        judge.close()
    inbox = path / "mail" / "stage"  # moved into mail/in/new by measure()
    inbox.mkdir()
    stamp = 1_700_000_000
    for n in range(per_game):
        for name, (kind, tokens) in home.games.items():
            mail = scripts[kind].mails[start[name] + n]
            body = f"SIGNON {name} {mail.role} {tokens[mail.role]}\n" + "\n".join(mail.lines)
            raw = mail_bytes(judge, seat_address(name, mail.role), body + "\n",
                             f"<m{n}.{name}@players.example>")
            stamp += 1
            (inbox / f"{stamp}.M{home.mails}P1.bench:2,").write_bytes(raw)
            home.mails += 1
    return home


def serve_once(home: Path) -> tuple[float, float]:
    """Run one ``judge serve --once`` on ``home``; (seconds, peak RSS in MB)."""
    start = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-c", "from judge.cli import main; main()", "--home", str(home),
         "serve", "--once"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        raise SystemExit(f"serve --once failed ({proc.returncode}): {err.decode()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


def game_years(home: Home) -> float:
    """How far the games stand, summed: a classic year (a half for the
    autumn), a Conflict of Alliances game turn (its year)."""
    judge = open_judge(home.path)
    try:
        years = 0.0
        for name, (kind, _tokens) in home.games.items():
            g = judge.workspace().get(name)
            view = g.game.view(g.need_table().state, None)
            if kind == "classic":
                years += int(view["year"]) - 1901 + (0.5 if view["season"] != "Spring" else 0)
            else:
                years += int(view["turn"]) - 1
        return years
    finally:
        judge.close()


def check(home: Home) -> dict[str, Any]:
    """Every mail processed whole; nothing left in the outbox."""
    judge = open_judge(home.path)
    try:
        inbox = judge.store.inbox()
        bad = [r for r in inbox if r["status"] != "processed" or ", 0 errors" not in r["reason"]]
        if len(inbox) != home.mails or bad:
            raise SystemExit(f"{len(inbox)} of {home.mails} mails recorded; not taken whole: "
                             f"{bad[:3]}")
        return {"queued_after": len(judge.store.outbox("queued"))}
    finally:
        judge.close()


def db_bytes(home: Path) -> int:
    """The bytes the database holds (its pages less the free ones: the file
    keeps pages freed by the relay, and reuses them)."""
    import sqlite3

    conn = sqlite3.connect(home / "judge.db")
    try:
        pages = conn.execute("pragma page_count").fetchone()[0]
        free = conn.execute("pragma freelist_count").fetchone()[0]
        size = conn.execute("pragma page_size").fetchone()[0]
    finally:
        conn.close()
    return int((pages - free) * size)


def measure(work: Path, label: str, games: int, per_game: int,
            scripts: dict[str, Script], windows: int = 1) -> dict[str, Any]:
    home = build(work / label, games, per_game, scripts, windows)
    before = db_bytes(home.path)
    years_before = game_years(home)
    idle, _ = serve_once(home.path)  # start-up and an empty poll
    staged = home.path / "mail" / "stage"
    for f in sorted(staged.iterdir()):
        f.rename(home.path / "mail" / "in" / "new" / f.name)
    seconds, rss = serve_once(home.path)
    after = db_bytes(home.path)
    seen = check(home)
    years = game_years(home) - years_before
    return {
        "games": games, "mails": home.mails, "seconds": seconds, "peak_rss_mb": rss,
        "idle_seconds": idle,
        "ms_per_mail": 1000 * (seconds - idle) / home.mails,
        "db_mb_before": before / 2**20, "db_mb_after": after / 2**20,
        "game_years": years,
        "db_kb_per_game_year": (after - before) / 1024 / years if years else None,
        "queued_after": seen["queued_after"],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000,
                        help="games of the large shape (half classic)")
    parser.add_argument("--mails", type=int, default=10_000, help="mails of the large shape")
    parser.add_argument("--kdf-n", type=int, default=2**8,
                        help="scrypt N of the throw-away homes' tokens")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the homes (their path is "
                        "printed)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.mails < args.games:
        parser.error("at least 2 games and a mail per game")
    set_kdf_cost(args.kdf_n)
    per_game = args.mails // args.games
    small_games = max(2, args.games // 100)
    small_per_game = per_game * 10
    work = Path(tempfile.mkdtemp(prefix="judge-scale-"))
    try:
        scripts = {kind: script(kind, small_per_game, work, per_game) for kind in KINDS}
        small = measure(work, "small", small_games, small_per_game, scripts)
        large = measure(work, "large", args.games, per_game, scripts, windows=10)
    finally:
        if args.keep:
            print(f"homes kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    result = {
        "seconds": round(large["seconds"], 2),
        "peak_rss_mb": round(large["peak_rss_mb"], 1),
        "mails": large["mails"],
        "games": large["games"],
        "ms_per_mail_10x100": round(small["ms_per_mail"], 2),
        "ms_per_mail_1000x10": round(large["ms_per_mail"], 2),
        "shape_ratio": round(large["ms_per_mail"] / small["ms_per_mail"], 3),
        "small": small,
        "large": large,
        "kdf_n": args.kdf_n,
    }
    if args.json:
        print(json.dumps(result))
        return 0
    for label, r in (("large", large), ("small", small)):
        per_year = r["db_kb_per_game_year"]
        print(f"{label}: {r['games']} games x {r['mails'] // r['games']} mails = {r['mails']} "
              f"mails in {r['seconds']:.1f} s ({r['ms_per_mail']:.1f} ms a mail, "
              f"{r['mails'] / r['seconds']:.1f} mails/s), peak RSS {r['peak_rss_mb']:.0f} MB; "
              f"database {r['db_mb_before']:.1f} -> {r['db_mb_after']:.1f} MB"
              + (f", {per_year:.0f} kB per game-year" if per_year else ""))
    print(f"cost per mail, {large['games']}x{large['mails'] // large['games']} over "
          f"{small['games']}x{small['mails'] // small['games']}: {result['shape_ratio']:.2f} "
          "(target: within 0.8-1.2); target for the large poll: < 120 s, < 200 MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
