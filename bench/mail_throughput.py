"""Mail throughput: the judge end to end against the raw rate of the same servers.

Starts the test mail servers (Dovecot + the aiosmtpd/LMTP front, see
``bench/support/mailservers.py``), then measures, in the same run:

raw
    N small mails sent over one SMTP connection (from a process of its own,
    as a mail client is; the judge's runs send their orders the same way)
    while a reader on one IMAP connection (polling with NOOP and UID SEARCH,
    then UID FETCH of what is new) reads them: N divided by the time from the
    first send to the last mail read.
classic
    the judge running as its daemon (``judge serve``, a separate process, as
    deployed) while N order mails of a classic Diplomacy game are sent over
    one SMTP connection: every power that owes orders mails one whole
    ``ORDERS`` block per phase (seven in a movement phase), each signed on
    with its seat's token, so every few mails a phase resolves and each
    power gets its turn report. Each mail is fetched over IMAP, parsed,
    authenticated, validated, stored in one transaction, moved to Processed
    and answered; the acknowledgements and reports are sent over SMTP and
    delivered into the powers' mailboxes. N divided by the time from the
    first send to the last of those mails delivered. The orders are worked
    out beforehand by the judge itself in a throw-away home (the same game:
    classic Diplomacy draws no dice), which also counts the mails the judge
    sends for them.
sealed bids
    the same daemon while one seat of the test game Sealed Bids revises its
    sealed bid N times (no turn reports): N divided by the time from the
    first send to the last acknowledgement delivered.

The ceiling. A classic order costs the servers more than a raw mail: the
order in, and the acknowledgement and share of the turn reports sent for it
(678 mails out for 300 orders: 3.26 mails carried per order). So at the raw
rate no judge, however quick, passes raw / 3.26 orders a second, 0.31 of raw;
the bench prints that ceiling and the share of their raw rate the servers
carried in the judge's runs, which is how close the judge comes to the
servers' pace.

Every run pipelines (mail keeps arriving while it is read), every run goes
through the same servers. Token checks use scrypt; ``--kdf-n`` sets its cost
for the tokens of this run (the judge's default is 16384; 256 is what the
tests use).

Usage::

    python bench/mail_throughput.py [--n 300] [--kdf-n 16384] [--repeat 3] [--json]

Runs raw, classic and sealed bids ``--repeat`` times, alternating, and prints
each run and the ratio of the median rates to the median raw rate: classic
first (the target is a ratio of at least 0.6; one run alone swings by 0.1
either way on a small shared machine), sealed bids on a second line; how
busy the machine's CPUs were during each run (near 100%: the run was bound
by CPU, and another load on the machine skews the ratio), and how many
mails per second the servers carried in the judge's runs (each order in,
and every mail the judge sent for it out), where the raw run has one.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import pickle
import shutil
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from imapclient import IMAPClient  # type: ignore[import-untyped]  # noqa: E402

from bench.support.classic_mail import (  # noqa: E402
    POWERS,
    ClassicByMail,
    StillClock,
    lift_reply_limit,
)
from bench.support.clock import Clock  # noqa: E402
from bench.support.mailplayers import GM, JUDGE, Mail, address, hand, judge_config  # noqa: E402
from bench.support.mailservers import MailServers, wait_for  # noqa: E402
from judge import config as cfg  # noqa: E402
from judge.game import adjudicator as adj  # noqa: E402
from judge.game import registry  # noqa: E402
from judge.service import Judge  # noqa: E402
from judge.store import set_kdf_cost  # noqa: E402
from tests.games import add_report_files  # noqa: E402
from tests.games.sealed_bids import GAME  # noqa: E402

RUN_JUDGE = ROOT / "bench" / "support" / "run_judge.py"


_SEND_ALL = """
import pickle, smtplib, sys
port, path = int(sys.argv[1]), sys.argv[2]
with open(path, "rb") as f:
    mails = pickle.load(f)
try:
    with smtplib.SMTP("127.0.0.1", port, timeout=60) as smtp:
        smtp.ehlo()
        print("ready", flush=True)
        done = 0
        while done < len(mails):
            # "go" sends everything; a number, the mails up to it.
            said = sys.stdin.readline().strip()
            upto = len(mails) if said in ("go", "") else int(said)
            for sender, rcpt, raw in mails[done:upto]:
                # smtplib sends bytes as they are: CRLF line ends (RFC 5321 2.3.8).
                smtp.sendmail(sender, [rcpt], raw.replace(b"\\n", b"\\r\\n"))
            done = max(done, upto)
    print("sent", flush=True)
except BaseException as exc:
    print(f"{type(exc).__name__}: {exc}", flush=True)
"""


class _Sender:
    """Sends every (from, to, raw) over one SMTP connection from a process of
    its own, as a player's mail client is: a thread here would share the
    interpreter lock with the test SMTP server, which runs in this process.
    The process connects first and sends when :meth:`start` says go."""

    def __init__(self, port: int, mails: list[tuple[str, str, bytes]], work: Path) -> None:
        batch = work / f"mails-{time.monotonic_ns()}.pickle"
        batch.write_bytes(pickle.dumps(mails))
        self._process = subprocess.Popen(
            [sys.executable, "-c", _SEND_ALL, str(port), str(batch)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert self._process.stdin is not None and self._process.stdout is not None
        self._stdin, self._stdout = self._process.stdin, self._process.stdout
        said = self._stdout.readline().strip()
        if said != "ready":
            raise RuntimeError(f"the sending process did not connect: {said}")
        self._said: str | None = None
        self._reader = threading.Thread(target=self._read, daemon=True)

    def _read(self) -> None:
        self._said = self._stdout.readline().strip() or "the sending process ended silently"

    def start(self, upto: int | None = None) -> None:
        """Send every mail, or (``upto``) the first ``upto``; :meth:`more` the rest."""
        self._reader.start()
        self._stdin.write("go\n" if upto is None else f"{upto}\n")
        self._stdin.flush()

    def more(self, upto: int) -> None:
        """Send the mails up to the ``upto``-th too."""
        self._stdin.write(f"{upto}\n")
        self._stdin.flush()

    def error(self) -> str | None:
        """What went wrong in the sending process, once it has said so."""
        return None if self._said in (None, "sent") else self._said

    def join(self) -> None:
        self._process.wait(60)
        self._reader.join(60)


def _message(i: int, body: str, sender: str, to: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = "orders"
    msg["Message-ID"] = f"<bench{i}.{time.monotonic_ns()}@players.localhost>"
    msg.set_content(body)
    return msg.as_bytes()


def raw_rate(servers: MailServers, n: int, work: Path) -> dict[str, float]:
    """SMTP in, IMAP out, nothing else."""
    servers.empty("raw")
    mails = [(address("North"), "raw@localhost",
              _message(i, f"SIGNON g1 North abcdefghjkmn\nBID 7H\nEND\nmail {i}\n",
                       address("North"), "raw@localhost")) for i in range(n)]  # fmt: skip
    reader = IMAPClient("127.0.0.1", servers.dovecot.imap_port, ssl=False, timeout=60)
    reader.login("raw", "raw")
    reader.select_folder("INBOX")
    sender = _Sender(servers.smtp.port, mails, work)
    got, last = 0, 0
    machine = _machine_busy()
    started = time.perf_counter()
    sender.start()
    while got < n:
        # Poll (NOOP makes Dovecot look at the folder): the best case for
        # the raw rate, with no IDLE notification delay in it.
        reader.noop()
        uids = [u for u in reader.search(["UID", f"{last + 1}:*"]) if u > last]
        if uids:
            data = reader.fetch(uids, ["BODY.PEEK[]"])
            got += sum(1 for u in uids if b"BODY[]" in data.get(u, {}))
            last = max(uids)
            continue
        if (error := sender.error()) is not None:
            raise RuntimeError(f"sending failed: {error}")
        time.sleep(0.002)
    elapsed = time.perf_counter() - started
    busy = _busy_share(machine)
    sender.join()
    reader.logout()
    return {"mails": n, "seconds": elapsed, "rate": n / elapsed, "machine_busy": busy}


def judge_rate(servers: MailServers, n: int, kdf_n: int, work: Path) -> dict[str, Any]:
    """The judge daemon end to end: orders in, acknowledgements delivered."""
    servers.empty()
    home = work / "home"
    home.mkdir()
    os.environ["JUDGE_TEST_IMAP_PASSWORD"] = "judge"
    # One player sends every order: lift the per-address reply limit.
    (home / "judge.toml").write_text(judge_config(servers, limits="replies_per_hour = 1000000"))
    set_kdf_cost(kdf_n)  # the cost of the tokens made below
    judge = Judge.open(home, now=Clock(datetime.now(UTC)))
    mail = Mail(servers, judge)
    signon = mail.start_sealed()
    cards = hand(judge, "North")
    judge.close()
    log = open(work / "daemon.log", "ab")  # noqa: SIM115
    daemon = subprocess.Popen(
        [sys.executable, str(RUN_JUDGE), "--home", str(home), "serve"],
        stdout=log, stderr=log, stdin=subprocess.DEVNULL, env=dict(os.environ),
    )  # fmt: skip
    try:
        # Warm up: the daemon has imported everything and holds its connections.
        base = servers.count("north")
        mail.send(address("North"), f"{signon['North']}\nSTATUS\n")
        wait_for(lambda: servers.count("north") > base, 60, 0.05, "the daemon to answer")
        base = servers.count("north")
        mails = [(address("North"), JUDGE, _message(
            i, f"{signon['North']}\nBID {cards[i % len(cards)]}\nEND\nmail {i}\n",
            address("North"), JUDGE)) for i in range(n)]  # fmt: skip
        sender = _Sender(servers.smtp.port, mails, work)
        cpu_before = _cpu_seconds(daemon.pid)
        machine = _machine_busy()
        started = time.perf_counter()
        sender.start()
        probe = IMAPClient("127.0.0.1", servers.dovecot.imap_port, ssl=False, timeout=60)
        probe.login("north", "north")
        while True:
            count = int(probe.folder_status("INBOX", ["MESSAGES"])[b"MESSAGES"])
            if count - base >= n:
                break
            if (error := sender.error()) is not None:
                raise RuntimeError(f"sending failed: {error}")
            if daemon.poll() is not None:
                raise RuntimeError(f"the daemon died: see {work / 'daemon.log'}")
            time.sleep(0.01)
        elapsed = time.perf_counter() - started
        busy = _busy_share(machine)
        cpu = _cpu_seconds(daemon.pid) - cpu_before
        probe.logout()
        sender.join()
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=60)
        log.close()
    judge = Judge.open(home)
    try:
        orders = sum(1 for r in judge.store.actions("g1") if r["kind"] == "orders")
        processed = sum(1 for r in judge.store.inbox() if r["status"] == "processed")
    finally:
        judge.close()
    return {"mails": n, "seconds": elapsed, "rate": n / elapsed, "orders_logged": orders,
            "mails_processed": processed, "kdf_n": kdf_n, "daemon_cpu_seconds": cpu,
            "machine_busy": busy}


# --------------------------------------------------------------------------- classic


class ClassicScript(NamedTuple):
    """The order mails of a classic game, worked out by the judge beforehand."""

    mails: list[tuple[str, list[str]]]  # (power, the lines after SIGNON)
    sent: int  # the mails the judge sent for them there (acknowledgements and reports)
    phases: list[int]  # where each phase's mails end (the index after its last)


def _classic_seats(judge: Judge) -> dict[str, str]:
    """Create, seat (each power at its own test mailbox) and start ``g1``;
    returns each power's token."""
    judge.create_game("g1", "classic", {}, GM)
    tokens = {power: judge.join("g1", address(power), power) for power in POWERS}
    judge.start("g1")
    return tokens


def classic_script(n: int, work: Path) -> ClassicScript:
    """The first ``n`` order mails of a classic game: the first power (by
    name) that owes orders writes a whole ``ORDERS`` block of legal lines
    (:meth:`bench.support.classic_mail.ClassicByMail.orders`, fixed seed),
    the judge handles it in a throw-away home on the Maildir transports, and
    the next writer is whoever owes orders then."""
    home = work / "script"
    cfg.init_home(home)
    lift_reply_limit(home)
    clock = StillClock()
    judge = Judge.open(home, now=clock)
    try:
        tokens = _classic_seats(judge)
        judge.relay()
        before = len(judge.store.outbox())
        player = ClassicByMail(judge, home, clock, name="g1")
        mails: list[tuple[str, list[str]]] = []
        phases: list[int] = []
        phase = ""
        for i in range(n):
            table = judge.table("g1")
            if phase and adj.phase_key(player.game, table) != phase:
                phases.append(i)
            phase = adj.phase_key(player.game, table)
            power = sorted(adj.waiting_on(player.game, table))[0]
            # The block names its phase: a mail the servers deliver after a
            # later one (Dovecot's Maildir numbers mail as it finds it, not
            # strictly as it came) is then held for its phase, as a player's
            # would be, instead of landing in the wrong one.
            lines = [f"ORDERS {phase}", *player.orders(power), "END"]
            body = f"SIGNON g1 {power} {tokens[power]}\n" + "\n".join(lines) + "\n"
            said = judge.handle(f"s{i}", _message(i, body, address(power), JUDGE))
            if ", 0 errors" not in said:
                raise RuntimeError(f"scripted mail {i} was not taken whole: {said}")
            judge.relay()
            mails.append((power, lines))
        return ClassicScript(mails, len(judge.store.outbox()) - before, [*phases, n])
    finally:
        judge.close()


def _delivered(servers: MailServers, users: tuple[str, ...]) -> int:
    """Mails delivered into the INBOX of ``users`` so far, counted as the
    files of their Maildirs (no IMAP session of ours loads the servers)."""
    total = 0
    for user in users:
        top = servers.dovecot.maildir(user)
        for sub in ("new", "cur"):
            with contextlib.suppress(FileNotFoundError):
                total += sum(1 for e in os.scandir(top / sub) if not e.name.startswith("."))
    return total


def _progress(home: Path, sent_before: int) -> tuple[int, int, int]:
    """(mails handled, mails waiting in the outbox, mails sent less
    ``sent_before``) in the daemon's database, read beside it."""
    db = sqlite3.connect(f"file:{home / 'judge.db'}?mode=ro", uri=True, timeout=10)
    try:
        handled = db.execute("select count(*) from inbox where status = 'processed'").fetchone()
        queued = db.execute("select count(*) from outbox where status = 'queued'").fetchone()
        sent = db.execute("select count(*) from outbox where status = 'sent'").fetchone()
    finally:
        db.close()
    return int(handled[0]), int(queued[0]), int(sent[0]) - sent_before


def classic_rate(servers: MailServers, script: ClassicScript, kdf_n: int,
                 work: Path) -> dict[str, Any]:
    """The judge daemon end to end on a classic game: ``script``'s orders in,
    every acknowledgement and turn report delivered."""
    servers.empty()
    home = work / "home"
    home.mkdir()
    os.environ["JUDGE_TEST_IMAP_PASSWORD"] = "judge"
    # Seven players mail a phase's orders within seconds: lift the reply limit.
    (home / "judge.toml").write_text(judge_config(servers, limits="replies_per_hour = 1000000"))
    set_kdf_cost(kdf_n)  # the cost of the tokens made below
    judge = Judge.open(home, now=Clock(datetime.now(UTC)))
    tokens = _classic_seats(judge)
    judge.relay()  # the start reports, through the servers
    judge.close()
    users = (*(address(p).split("@")[0] for p in POWERS), "gm")
    n = len(script.mails)
    log = open(work / "daemon.log", "ab")  # noqa: SIM115
    daemon = subprocess.Popen(
        [sys.executable, str(RUN_JUDGE), "--home", str(home), "serve"],
        stdout=log, stderr=log, stdin=subprocess.DEVNULL, env=dict(os.environ),
    )  # fmt: skip
    try:
        # Warm up: the daemon has imported everything and holds its connections.
        first = POWERS[0]
        base = _delivered(servers, users)
        warm = _message(-1, f"SIGNON g1 {first} {tokens[first]}\nSTATUS\n",
                        address(first), JUDGE)  # fmt: skip
        servers.send(address(first), JUDGE, warm)
        wait_for(lambda: _delivered(servers, users) > base, 60, 0.05, "the daemon to answer")
        base = _delivered(servers, users)
        # Every mail the judge has queued so far (the warm-up's answer, sent
        # or about to be marked so) is not one of the run's.
        sent_before = sum(_progress(home, 0)[1:])
        mails = [(address(power), JUDGE, _message(
            i, f"SIGNON g1 {power} {tokens[power]}\n" + "\n".join(lines) + "\n",
            address(power), JUDGE)) for i, (power, lines) in enumerate(script.mails)]  # fmt: skip
        sender = _Sender(servers.smtp.port, mails, work)
        cpu_before = _cpu_seconds(daemon.pid)
        machine = _machine_busy()
        started = time.perf_counter()
        # A phase's orders are sent together; the next phase's once the
        # judge has handled them (as players answer a turn report): the
        # servers need not keep the order of mails across phases.
        chunks = iter(script.phases)
        upto = next(chunks)
        sender.start(upto)
        deadline = started + 60 + n  # far beyond any plausible run
        polls = 0
        while True:
            if upto < n and _progress(home, sent_before)[0] >= upto + 1:  # and the warm-up
                upto = next(chunks)
                sender.more(upto)
            # Done when every order is handled, nothing waits in the outbox
            # and all the judge sent is in the mailboxes (the script's count
            # first, as it is cheap to look at; the database then says).
            got = _delivered(servers, users) - base
            polls += 1
            if got >= script.sent or polls % 20 == 0:
                handled, queued, sent = _progress(home, sent_before)
                if handled >= n + 1 and queued == 0 and got >= sent:
                    break
            if (error := sender.error()) is not None:
                raise RuntimeError(f"sending failed: {error}")
            if daemon.poll() is not None:
                raise RuntimeError(f"the daemon died: see {work / 'daemon.log'}")
            if time.perf_counter() > deadline:
                raise RuntimeError(f"{got} mails delivered, {handled} handled, {queued} queued "
                                   "when the time ran out")
            time.sleep(0.01)
        elapsed = time.perf_counter() - started
        busy = _busy_share(machine)
        cpu = _cpu_seconds(daemon.pid) - cpu_before
        sender.join()
        time.sleep(0.5)  # anything more would be a mail too many
        delivered = _delivered(servers, users) - base
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=60)
        log.close()
    sent = _progress(home, sent_before)[2]
    judge = Judge.open(home)
    try:
        inbox = [r for r in judge.store.inbox() if r["status"] == "processed"]
        whole = sum(1 for r in inbox if ", 0 errors" in (r["reason"] or ""))
        phase = adj.phase_key(registry.get("classic"), judge.table("g1"))
    finally:
        judge.close()
    return {"mails": n, "seconds": elapsed, "rate": n / elapsed, "mails_sent": sent,
            "mails_delivered": delivered, "mails_processed": len(inbox), "orders_whole": whole,
            "phase": phase, "kdf_n": kdf_n, "daemon_cpu_seconds": cpu, "machine_busy": busy}


def _machine_busy() -> tuple[float, float]:
    """(busy, total) CPU seconds of the whole machine so far (Linux /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle + iowait
    tick = os.sysconf("SC_CLK_TCK")
    return (sum(fields) - idle) / tick, sum(fields) / tick


def _busy_share(before: tuple[float, float]) -> float:
    """How busy the machine's CPUs were since ``before`` (0..1)."""
    busy, total = _machine_busy()
    return (busy - before[0]) / max(total - before[1], 1e-9)


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=300, help="mails per run (default 300)")
    parser.add_argument(
        "--kdf-n", type=int, default=2**14,
        help="scrypt N for the seat tokens (judge default 16384)",
    )  # fmt: skip
    parser.add_argument(
        "--repeat", type=int, default=3,
        help="raw, classic and sealed bids runs, alternating (default 3); the ratios are of "
             "the medians",
    )  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)

    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the servers on the way out
    registry.register(GAME)
    add_report_files()
    work = Path(tempfile.mkdtemp(prefix="judge-bench-"))
    raws: list[dict[str, float]] = []
    classics: list[dict[str, Any]] = []
    sealed: list[dict[str, Any]] = []
    try:
        set_kdf_cost(2**8)  # the throw-away home's tokens
        script = classic_script(args.n, work)
        servers = MailServers.start()
        try:
            for i in range(args.repeat):
                for name in ("raw", "classic", "sealed"):
                    (work / f"{name}{i}").mkdir()
                raws.append(raw_rate(servers, args.n, work / f"raw{i}"))
                classics.append(classic_rate(servers, script, args.kdf_n, work / f"classic{i}"))
                sealed.append(judge_rate(servers, args.n, args.kdf_n, work / f"sealed{i}"))
        finally:
            servers.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    raw_median = statistics.median(r["rate"] for r in raws)
    classic_median = statistics.median(c["rate"] for c in classics)
    sealed_median = statistics.median(j["rate"] for j in sealed)
    result = {"raw": raws, "classic": classics, "sealed_bids": sealed,
              "raw_median": raw_median, "classic_median": classic_median,
              "sealed_bids_median": sealed_median, "ratio": classic_median / raw_median,
              "sealed_bids_ratio": sealed_median / raw_median,
              "classic_mails_sent": script.sent,
              # The servers carry each order in and every mail sent for it:
              # at the raw rate, no judge could go faster than this.
              "classic_ceiling": raw_median / (1 + script.sent / len(script.mails)),
              "servers_ratio": statistics.median(
                  (c["mails"] + c["mails_sent"]) / c["seconds"] for c in classics) / raw_median,
              }  # fmt: skip
    if args.json:
        print(json.dumps(result))
    else:
        for i, (raw, classic, judge) in enumerate(zip(raws, classics, sealed, strict=True), 1):
            print(f"run {i}: raw SMTP->IMAP {raw['rate']:.1f} mails/s "
                  f"(CPUs {raw['machine_busy']:.0%} busy)")  # fmt: skip
            for label, r, out in (("classic", classic, classic["mails_sent"]),
                                  ("sealed bids", judge, r_mails(judge))):
                print(f"  {label}: {r['rate']:.1f} orders/s (ratio {r['rate'] / raw['rate']:.2f}; "
                      f"CPUs {r['machine_busy']:.0%} busy; the daemon used "
                      f"{r['daemon_cpu_seconds'] / r['mails'] * 1000:.1f} ms CPU per order; "
                      f"the servers carried {(r['mails'] + out) / r['seconds']:.1f} mails/s, "
                      f"{r['mails']} orders in and {out} mails out)")  # fmt: skip
        print(f"{args.n} order mails a run, scrypt N={args.kdf_n}; classic: {script.sent} mails "
              f"sent for them (acknowledgements and turn reports), up to "
              f"{classics[0]['phase']}")  # fmt: skip
        print(f"classic, seven powers, with turn reports: median {classic_median:.1f} orders/s, "
              f"ratio to the median raw {raw_median:.1f} mails/s: "
              f"{classic_median / raw_median:.2f} (target 0.60)")  # fmt: skip
        print(f"  the servers carry {1 + script.sent / len(script.mails):.2f} mails per classic "
              f"order (it in, and what is sent for it): at the raw rate no judge passes "
              f"{result['classic_ceiling']:.1f} orders/s "
              f"({result['classic_ceiling'] / raw_median:.2f} of raw); the judge's runs had "
              f"the servers carry "
              f"{result['servers_ratio']:.2f} of their raw rate")  # fmt: skip
        print(f"sealed bids, one seat, no reports: median {sealed_median:.1f} orders/s, "
              f"ratio {sealed_median / raw_median:.2f}")  # fmt: skip
    failed = False
    wrong = [j["orders_logged"] for j in sealed if j["orders_logged"] != args.n]
    if wrong:
        print(f"ERROR: sealed bids: {wrong} orders logged in some run, expected {args.n}")
        failed = True
    bad = [(c["mails_processed"], c["orders_whole"]) for c in classics
           if c["orders_whole"] != args.n + 1 or c["mails_processed"] != args.n + 1]
    if bad:
        print(f"ERROR: classic: (processed, taken whole) {bad}, expected {args.n + 1} "
              "(the orders and the warm-up)")
        failed = True
    return 1 if failed else 0


def r_mails(run: dict[str, Any]) -> int:
    """Mails the judge sent in a sealed bids run: an acknowledgement per order."""
    return int(run["mails"])


if __name__ == "__main__":
    sys.exit(main())
