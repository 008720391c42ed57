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

``--database URL`` runs the same on PostgreSQL (each home on a schema of
its own there, dropped at the end); ``cpu_ms_per_mail_*`` (the daemon's CPU,
user and system, less that of the empty poll, per mail) compares one daemon
on either back-end. ``--daemons N`` (with ``--database``) instead runs N
daemons (``judge serve``, each with a home of its own on the same inbox,
outbox and database) on the large shape until every mail is handled and
relayed, one of them killed with SIGKILL every ``--kill-every`` mails and
another started in its place; ``--json`` then prints ``mails``, ``seconds``,
``lost``, ``doubled``, ``out_of_order`` (pairs of a game's mails handled in
the other order than they arrived) and ``cpu_ms_per_mail`` (of the daemons,
not of the database server), and the exit status is 1 if any mail was lost,
doubled or out of order.

Usage::

    python bench/scale.py [--games 1000] [--mails 10000] [--kdf-n 256] [--json]
    python bench/scale.py --database postgresql://... [--daemons 3 --kill-every 1000]
"""

from __future__ import annotations

import argparse
import email
import email.policy
import itertools
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


#: The PostgreSQL server of ``--database`` (None: SQLite), and the schemas
#: the run made in it (each home gets one of its own, dropped at the end).
DATABASE: str | None = None
SCHEMAS: list[str] = []


def fresh_database() -> str:
    """A new, empty schema on ``--database``'s server, as the URL a home names."""
    import secrets
    from urllib.parse import quote

    import psycopg

    assert DATABASE is not None
    schema = "judge_scale_" + secrets.token_hex(5)
    with psycopg.connect(DATABASE, autocommit=True) as conn:
        conn.execute(f"create schema {schema}")
    SCHEMAS.append(schema)
    sep = "&" if "?" in DATABASE else "?"
    return f"{DATABASE}{sep}options={quote(f'-csearch_path={schema}')}"


def drop_databases() -> None:
    if DATABASE is None or not SCHEMAS:
        return
    import psycopg

    with psycopg.connect(DATABASE, autocommit=True) as conn:
        for schema in SCHEMAS:
            conn.execute(f"drop schema if exists {schema} cascade")
    SCHEMAS.clear()


def write_config(home: Path, database: str | None = None) -> None:
    """A home of its own: ``judge init``, with the reply limit lifted (one
    player sends many mails in an hour here); its database ``database`` (a
    URL), else the SQLite file."""
    cfg.init_home(home)
    path = home / "judge.toml"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"replies_per_hour = \d+", "replies_per_hour = 1000000", text)
    if database:
        text = text.replace('database = "judge.db"', f'database = "{database}"', 1)
    path.write_text(text, encoding="utf-8")


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
    def rows(sql: str) -> list[dict[str, Any]]:
        return [dict(r) for r in judge.store._query(sql, [name])]

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
    store = judge.store

    def own(v: Any) -> Any:
        return v.replace(TEMPLATE, name) if isinstance(v, str) else v

    def insert(table: str, row: dict[str, Any]) -> None:
        # (PostgreSQL's tables without a numbered key carry a rowid of their own)
        row = {k: own(v) for k, v in row.items() if k != "rowid"} | {"game": name}
        keys = ", ".join(row)
        store._write(f"insert into {table} ({keys}) values ({', '.join('?' * len(row))})",
                     list(row.values()))

    with judge.store.atomic():
        g = stand["game"]
        store._write("update games set table_json = ?, phase = ?, status = ?, updated = ? "
                     "where name = ?", [own(g["table_json"]), g["phase"], g["status"],
                                        g["updated"], name])
        for row in stand["actions"]:
            insert("actions", {k: v for k, v in row.items() if k != "seq"})
        for row in stand["snapshots"]:
            insert("snapshots", row)
        store._write("delete from deadlines where game = ?", [name])
        for row in stand["deadlines"]:
            insert("deadlines", row)
        for role, seat in stand["seats"].items():
            sets = ", ".join(f"{k} = ?" for k in seat)
            store._write(f"update seats set {sets} where game = ? and role = ?",
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
    write_config(path, fresh_database() if DATABASE else None)
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


def serve_once(home: Path) -> tuple[float, float, float]:
    """Run one ``judge serve --once`` on ``home``; (seconds, peak RSS in MB,
    CPU seconds of the process, user and system)."""
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
    return seconds, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def daemon_home(home: Path, i: int) -> Path:
    """The home of daemon ``i`` (0: ``home`` itself): its own folder (its
    lock, its heartbeat), the same database, inbox, outbox and token key."""
    if i == 0:
        return home
    own = home.with_name(f"{home.name}-daemon{i}")
    own.mkdir()
    text = (home / "judge.toml").read_text(encoding="utf-8")
    for box in ("in", "out"):
        text = text.replace(f'path = "mail/{box}"', f'path = "{home / "mail" / box}"')
    (own / "judge.toml").write_text(text, encoding="utf-8")
    shutil.copy2(home / "token.key", own / "token.key")
    return own


def serve_many(home: Home, daemons: int, kill_every: int) -> dict[str, Any]:
    """``daemons`` ``judge serve`` processes on one inbox and one database
    until every mail is handled and every reply relayed; one of them is
    killed (SIGKILL) each ``kill_every`` mails and another started in its
    place. Returns the seconds, the daemons' CPU seconds, how many were killed."""
    import signal

    text = (home.path / "judge.toml").read_text(encoding="utf-8")
    (home.path / "judge.toml").write_text(
        re.sub(r"poll_seconds = \d+", "poll_seconds = 1", text), encoding="utf-8")
    homes = [daemon_home(home.path, i) for i in range(daemons)]
    processed = home.path / "mail" / "in" / ".Processed" / "cur"
    cpu = 0.0

    def start(h: Path) -> subprocess.Popen[bytes]:
        return subprocess.Popen(
            [sys.executable, "-c", "from judge.cli import main; main()", "--home", str(h),
             "serve"], cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def reap(proc: subprocess.Popen[bytes]) -> float:
        _, _, usage = os.wait4(proc.pid, 0)
        proc.returncode = 0
        return usage.ru_utime + usage.ru_stime

    def handled() -> int:
        return sum(1 for _ in processed.iterdir()) if processed.is_dir() else 0

    began = time.perf_counter()
    procs = [start(h) for h in homes]
    kills = 0
    try:
        while handled() < home.mails:
            if kill_every and handled() >= (kills + 1) * kill_every:
                victim = kills % daemons
                procs[victim].send_signal(signal.SIGKILL)
                cpu += reap(procs[victim])
                procs[victim] = start(homes[victim])
                kills += 1
            time.sleep(0.2)
        judge = open_judge(home.path)
        try:
            while judge.store.outbox("queued"):
                time.sleep(0.5)
        finally:
            judge.close()
        seconds = time.perf_counter() - began
    finally:
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            cpu += reap(proc)
    return {"seconds": seconds, "cpu_seconds": cpu, "kills": kills}


def tally(home: Home) -> dict[str, int]:
    """Mails lost (never handled), doubled (handled more than once) and
    out-of-order pairs (a game's mail handled before one that arrived
    before it), from the inbox's rows (numbered as they were written)."""
    judge = open_judge(home.path)
    try:
        rows = [r for r in judge.store.inbox() if r["message_id"].startswith("<m")]
    finally:
        judge.close()
    handled: dict[str, list[int]] = {}
    for r in rows:
        if r["status"] == "processed":
            handled.setdefault(r["message_id"], []).append(int(r["id"]))
    per_game: dict[str, list[tuple[int, int]]] = {}
    for message_id, ids in handled.items():
        n, name = message_id[2:].split("@")[0].split(".", 1)
        per_game.setdefault(name, []).append((int(n), min(ids)))
    out_of_order = 0
    for seq in per_game.values():
        seq.sort()
        out_of_order += sum(1 for a, b in itertools.pairwise(seq) if b[1] < a[1])
    return {"lost": home.mails - len(handled),
            "doubled": sum(len(ids) - 1 for ids in handled.values()),
            "out_of_order": out_of_order}


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
    keeps pages freed by the relay, and reuses them; on PostgreSQL, its
    tables' and indexes' files)."""
    import sqlite3

    if DATABASE:
        judge = open_judge(home)
        try:
            return sum(int(next(judge.store._query(
                "select pg_total_relation_size(?::regclass) as n", [t]))["n"])
                for t in judge.store.table_names())
        finally:
            judge.close()

    conn = sqlite3.connect(home / "judge.db")
    try:
        pages = conn.execute("pragma page_count").fetchone()[0]
        free = conn.execute("pragma freelist_count").fetchone()[0]
        size = conn.execute("pragma page_size").fetchone()[0]
    finally:
        conn.close()
    return int((pages - free) * size)


def measure(work: Path, label: str, games: int, per_game: int,
            scripts: dict[str, Script], windows: int = 1, daemons: int = 0,
            kill_every: int = 0) -> dict[str, Any]:
    """One shape: one ``serve --once`` (``daemons`` 0), else ``daemons``
    daemons serving until every mail is handled (:func:`serve_many`)."""
    home = build(work / label, games, per_game, scripts, windows)
    before = db_bytes(home.path)
    years_before = game_years(home)
    idle, _, idle_cpu = serve_once(home.path)  # start-up and an empty poll
    staged = home.path / "mail" / "stage"
    for f in sorted(staged.iterdir()):
        f.rename(home.path / "mail" / "in" / "new" / f.name)
    many: dict[str, Any] = {}
    if daemons:
        many = serve_many(home, daemons, kill_every)
        seconds, rss, cpu = many["seconds"], 0.0, many["cpu_seconds"]
        idle, idle_cpu = 0.0, daemons * idle_cpu + many["kills"] * idle_cpu
        many |= tally(home)
    else:
        seconds, rss, cpu = serve_once(home.path)
    after = db_bytes(home.path)
    seen = check(home) if not daemons else {"queued_after": 0}
    years = game_years(home) - years_before
    return {
        "games": games, "mails": home.mails, "seconds": seconds, "peak_rss_mb": rss,
        "idle_seconds": idle,
        "ms_per_mail": 1000 * (seconds - idle) / home.mails,
        "cpu_ms_per_mail": 1000 * (cpu - idle_cpu) / home.mails,
        **many,
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
    parser.add_argument("--database", metavar="URL",
                        help="a postgresql:// URL: every home on a schema of its own there "
                             "(made and dropped by the run); default: SQLite files")
    parser.add_argument("--daemons", type=int, default=0,
                        help="N daemons (`judge serve`) on one inbox and one database until "
                             "every mail of the large shape is handled, instead of one "
                             "`serve --once` (the small shape is then not run)")
    parser.add_argument("--kill-every", type=int, default=0, metavar="MAILS",
                        help="with --daemons: SIGKILL one daemon every MAILS mails handled")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the homes (their path is "
                        "printed)")
    args = parser.parse_args(argv)
    if args.games < 2 or args.mails < args.games:
        parser.error("at least 2 games and a mail per game")
    if args.daemons and not args.database:
        parser.error("--daemons needs --database (SQLite has one daemon per database)")
    global DATABASE
    DATABASE = args.database
    set_kdf_cost(args.kdf_n)
    per_game = args.mails // args.games
    small_games = max(2, args.games // 100)
    small_per_game = per_game * 10
    work = Path(tempfile.mkdtemp(prefix="judge-scale-"))
    try:
        if args.daemons:
            scripts = {kind: script(kind, per_game * 10, work, per_game) for kind in KINDS}
            large = measure(work, "large", args.games, per_game, scripts, windows=10,
                            daemons=args.daemons, kill_every=args.kill_every)
        else:
            scripts = {kind: script(kind, small_per_game, work, per_game) for kind in KINDS}
            small = measure(work, "small", small_games, small_per_game, scripts)
            large = measure(work, "large", args.games, per_game, scripts, windows=10)
    finally:
        if args.keep:
            print(f"homes kept in {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
            drop_databases()
    if args.daemons:
        many = {k: large[k] for k in ("mails", "games", "kills", "lost", "doubled",
                                      "out_of_order")}
        many |= {"database": "postgresql", "daemons": args.daemons,
                 "seconds": round(large["seconds"], 2),
                 "cpu_ms_per_mail": round(large["cpu_ms_per_mail"], 2)}
        if args.json:
            print(json.dumps(many))
        else:
            print(f"{many['daemons']} daemons on PostgreSQL: {many['mails']} mails over "
                  f"{many['games']} games in {many['seconds']} s, {many['kills']} killed; "
                  f"lost {many['lost']}, doubled {many['doubled']}, out of order "
                  f"{many['out_of_order']}; {many['cpu_ms_per_mail']} ms of daemon CPU a mail")
        return 0 if not (many["lost"] or many["doubled"] or many["out_of_order"]) else 1
    result = {
        "seconds": round(large["seconds"], 2),
        "peak_rss_mb": round(large["peak_rss_mb"], 1),
        "mails": large["mails"],
        "games": large["games"],
        "ms_per_mail_10x100": round(small["ms_per_mail"], 2),
        "ms_per_mail_1000x10": round(large["ms_per_mail"], 2),
        "database": "postgresql" if args.database else "sqlite",
        "cpu_ms_per_mail_10x100": round(small["cpu_ms_per_mail"], 2),
        "cpu_ms_per_mail_1000x10": round(large["cpu_ms_per_mail"], 2),
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
