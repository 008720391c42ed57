"""``judge demo``: a short real game, played entirely by mail.

A GM creates the game by mail, players JOIN by mail, the GM starts it, and
every player mails orders each phase, chosen from the game's legal lines by a
fixed demo seed and written as a player writes them: one ORDERS block with
one order a unit, and no line the judge would refuse (a build or a removal
beyond the number, a Waive once the builds are used). The judge runs on its
embedded defaults (Maildir in and out) in a temporary folder.

What it prints: by default one seat's mails in full (the first seat's) and
every other mail in one line; with ``everything`` every mail in full, with
the judge's log lines.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import re
import shutil
import tempfile
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

from judge import config as cfg
from judge.game import adjudicator as adj
from judge.game import registry
from judge.game.engine import Action, RuleError, State
from judge.game.spec import Game
from judge.service import Judge


def _mail(sender: str, to: str, subject: str, body: str, number: int) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Date"] = format_datetime(datetime.now(UTC))
    msg["Message-ID"] = make_msgid(f"demo{number}", "players.example")
    msg.set_content(body)
    return msg.as_bytes(policy=email.policy.SMTP)


def _pick(lines: list[str], salt: str) -> str:
    """A deterministic choice among legal lines (the demo is reproducible)."""
    digest = int(hashlib.sha256(salt.encode()).hexdigest(), 16)
    return lines[digest % len(lines)]


class _Demo:
    def __init__(self, home: Path, echo: Callable[[str], None], everything: bool) -> None:
        self.home = home
        self.echo = echo
        self.everything = everything
        self.followed: str | None = None
        """The address whose mails are printed in full (all, with everything)."""
        self.sent_seen = 0
        self.count = 0
        cfg.init_home(home)
        # The demo's own clock: it moves on only when the game waits for a
        # response window's minimum open time (window_min_minutes).
        self.clock = datetime.now(UTC).replace(microsecond=0)
        self.judge = Judge.open(home, now=lambda: self.clock)
        self.inbox = home / "mail" / "in" / "new"
        self.outbox = home / "mail" / "out"

    def full(self, address: str) -> bool:
        return self.everything or address == self.followed

    def send(self, sender: str, subject: str, body: str) -> None:
        self.count += 1
        raw = _mail(sender, self.judge.config.address, subject, body, self.count)
        self.inbox.mkdir(parents=True, exist_ok=True)
        (self.inbox / f"demo-{self.count:04d}.eml").write_bytes(raw)
        if self.full(sender):
            self.echo(f"\n>>> mail from {sender}: {subject}\n" + body.rstrip("\n"))
        else:
            self.echo(f">>> mail from {sender}: {subject} ({_lines(body)})")

    def cycle(self) -> list[EmailMessage]:
        for line in self.judge.cycle():
            if self.everything:
                self.echo(f"[judge] {line}")
        return self.new_mail()

    def new_mail(self) -> list[EmailMessage]:
        files = sorted((p for sub in ("new", "cur") for p in (self.outbox / sub).glob("*")
                        if p.is_file()), key=lambda p: p.stat().st_mtime_ns)
        fresh = files[self.sent_seen:]
        self.sent_seen = len(files)
        out = []
        for path in fresh:
            msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            assert isinstance(msg, EmailMessage)
            out.append(msg)
            self.show(msg)
        return out

    def show(self, msg: EmailMessage) -> None:
        body = msg.get_body(("plain",))
        text = body.get_content() if body is not None else ""
        names = [p.get_filename() for p in msg.walk() if p.get_filename()]  # the map is inline
        attached = f"[attached: {', '.join(n or '?' for n in names)}]" if names else ""
        if not self.full(str(msg["To"])):
            self.echo(f"<<< judge to {msg['To']}: {msg['Subject']} ({_lines(text)}"
                      + (f", {len(names)} attached" if names else "") + ")")
            return
        self.echo(f"\n<<< judge to {msg['To']}: {msg['Subject']}")
        self.echo(text.rstrip("\n"))
        if attached:
            self.echo(attached)


def _lines(text: str) -> str:
    n = len(text.rstrip("\n").splitlines())
    return f"{n} line" if n == 1 else f"{n} lines"


def _token(mails: list[EmailMessage], to: str) -> str:
    for msg in mails:
        if msg["To"] == to:
            body = msg.get_body(("plain",))
            text = body.get_content() if body is not None else ""
            m = re.search(r"token is: (\S+)", text)
            if m:
                return m.group(1)
    raise RuntimeError(f"the judge sent no token to {to}")


def run_demo(kind: str, phases: int, keep: bool, echo: Callable[[str], None],
             everything: bool = False) -> None:
    game = registry.get(kind)
    home = Path(tempfile.mkdtemp(prefix="judge-demo-"))
    demo = _Demo(home, echo, everything)
    try:
        gm = "gm@players.example"
        roles0 = game.roles(adj.start(game, {**{o.name: o.default for o in game.options},
                                             **game.playthrough_options},
                                      bytes(32)).table.state)
        demo.followed = f"{roles0[0].lower().replace(' ', '-')}@players.example"
        if not everything:
            echo(f"A {game.title} game by mail: {roles0[0]}'s mails in full, every other "
                 "mail in one line (judge demo --all prints them all).\n")
        options = " ".join(f"{k}={v}" for k, v in
                           game.playthrough_options.items())
        demo.send(gm, "new game", f"CREATE demo {game.id} {options}".strip() + "\n")
        gm_token = _token(demo.cycle(), gm)
        # The seats of the game just created: its options are the playthrough's.
        played = {**{o.name: o.default for o in game.options}, **game.playthrough_options}
        probe = adj.start(game, played, bytes(32))
        roles = game.roles(probe.table.state)
        addresses = {r: f"{r.lower().replace(' ', '-')}@players.example" for r in roles}
        for role, address in addresses.items():
            demo.send(address, "join", f"JOIN demo {role}\n")
        joined = demo.cycle()  # one cycle reads every JOIN: the GM gets one notice
        tokens = {role: _token(joined, address) for role, address in addresses.items()}
        demo.send(gm, "start", f"SIGNON demo GM {gm_token}\nSTART\n")
        demo.cycle()
        for turn in range(phases):
            j = demo.judge
            row, g = j.game_of("demo")
            if row["status"] != "active":
                break
            table = j.table("demo")
            owing = sorted(adj.waiting_on(g, table))
            if not owing and adj.open_window(g, table) is not None:
                # Every answer is in: the window closes at its minimum open time.
                minutes = float(j.settings(row).get("window_min_minutes", 0)) + 1
                demo.clock += timedelta(minutes=minutes)
                echo(f"\n... {minutes:g} minutes later, the response window closes")
                demo.cycle()
                continue
            if not owing:
                break
            phase = adj.phase_key(g, table)
            for role in owing:
                table = j.table("demo")
                if role not in adj.waiting_on(g, table):
                    continue
                lines = g.legal(table.state, role)
                if role in adj.ordering_roles(g, table):
                    chosen = _orders(g, table.state, role, lines, f"{turn}:{role}")
                    body = f"SIGNON demo {role} {tokens[role]}\nORDERS\n" + "\n".join(
                        chosen) + "\nEND\n"
                else:
                    body = f"SIGNON demo {role} {tokens[role]}\n{_pick(lines, phase + role)}\n"
                demo.send(addresses[role], f"{phase} orders", body)
                demo.cycle()
        j = demo.judge
        echo("\n=== the demo game after the last phase ===")
        echo(j.replay_check("demo"))
        if not everything:
            echo(f"({demo.count} mails to the judge, {demo.sent_seen} from it)")
        echo(next_steps(home, game.id, keep))
    finally:
        demo.judge.close()
        if keep:
            echo(f"(kept {home})")
        else:
            shutil.rmtree(home, ignore_errors=True)


def next_steps(home: Path, game_id: str, keep: bool) -> str:
    """What a newcomer does after the demo: where its mails went, and how to
    run a judge of their own and start a game on it."""
    where = (f"The mails are kept in {home}: the players' in mail/in/.Processed, the "
             "judge's in mail/out/new (one file each)."
             if keep else
             "The mails went through a temporary folder, deleted now (judge demo --keep "
             "keeps it: the players' mails in mail/in/.Processed, the judge's in "
             "mail/out/new).")
    return "\n".join([
        "",
        "=== what next",
        where,
        "Run a judge of your own (Maildir in and out, in a folder of yours):",
        "  judge init --home ~/judge",
        f"  judge --home ~/judge game create mygame --game {game_id} --gm you@example.org",
        "      (or mail it: CREATE mygame " + game_id + ")",
        "  judge --home ~/judge mail saved-mail.eml     # a player's mail into the inbox",
        "  judge --home ~/judge serve                   # read, adjudicate, reply",
        "The replies appear in ~/judge/mail/out/new; `judge init --imap ... --smtp ...`",
        "reads and sends through real mail servers instead. Other games: judge demo",
        "--help; every mail in full: judge demo --all; the mail grammar: README.md.",
    ])


def _orders(game: Game, state: State, role: str, lines: list[str], salt: str) -> list[str]:
    """A full order set as a player writes it: one line per order key (per
    unit, in Diplomacy), each one the game holds with the lines before it
    (its ``check_held``: no build or removal beyond the number). A one-word
    line that fills a slot without changing the board (Waive) comes only
    after every other key has had its chance, so the builds are made first.

    Sensible, not only legal: each unit first gets a move or a hold (no
    support or convoy of nothing); then some units, by the seed, support
    instead a move another of the seat's units was given (``X S <that
    order>``), so no support is void for want of the move it names."""
    groups: dict[str, list[tuple[str, Action]]] = {}
    for line in lines:
        action = game.parse(state, role, line)
        groups.setdefault(action.key or line, []).append((line, action))

    def digest(*parts: str) -> int:
        return int(hashlib.sha256("|".join((salt, *parts)).encode()).hexdigest(), 16)

    def rank(key: str) -> tuple[bool, int]:
        filler = all(len(text.split()) == 1 for text, _ in groups[key])
        return filler, digest(key)

    def helper(text: str) -> bool:  # a support or a convoy: it names another order
        return " S " in f" {text.upper()} " or " C " in f" {text.upper()} "

    chosen: dict[str, Action] = {}
    for key in sorted(groups, key=rank):
        options = [o for o in groups[key] if not helper(o[0])] or groups[key]
        start = digest(key) % len(options)
        for _text, action in options[start:] + options[:start]:
            try:
                game.check_held(state, role, action, list(chosen.values()))
            except RuleError:
                continue
            chosen[key] = action
            break
    supported: set[str] = set()  # keys whose order another unit now supports
    for key in sorted(chosen, key=rank):
        if key in supported or digest(key, "support") % 3:
            continue
        orders = {a.text.upper(): k for k, a in chosen.items()
                  if k != key and not helper(a.text)}
        backs = [a for text, a in groups[key]
                 if " S " in text.upper() and text.upper().split(" S ", 1)[1] in orders]
        if not backs:
            continue
        action = backs[digest(key, "which") % len(backs)]
        chosen[key] = action
        supported.add(orders[action.text.upper().split(" S ", 1)[1]])
    return [chosen[k].text for k in sorted(chosen, key=rank)]
