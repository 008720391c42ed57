"""A classic Diplomacy game played by mail through a real :class:`Judge`, for
the core tests and ``bench/mail_cost.py``.

(It imports nothing from ``tests.core``, so that a test module there and the
benchmark can be checked by one ``mypy`` run.)

Everything goes through the judge's own path: RFC 5322 mails dropped into
the Maildir inbox and read by :meth:`Judge.cycle` (the GM CREATEs and STARTs
the game by mail, seven players JOIN by mail and learn their tokens from the
judge's replies), or, for a single mail whose handling is measured, handed
to :meth:`Judge.handle` as bytes. Each power sends one whole ``ORDERS``
block per phase, chosen at random (from a fixed seed) among the lines the
game lists as legal: a move, hold, support or convoy for every unit, the
retreats, the right number of builds or removals. A power with
``HOLD_AT`` centres or more only holds and waives its builds, so that no
one wins before the year the caller plays to.
"""

from __future__ import annotations

import email
import email.policy
import random
import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any, Protocol

from judge.game import adjudicator as adj
from judge.game import registry
from judge.game.spec import Game
from judge.service import Judge

GM_ADDR = "gm@league.example"
POWERS = ("Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey")
#: A power with this many supply centres stops attacking (18 win the game).
HOLD_AT = 15
#: Game time between two phases (well inside the 48-hour order deadline).
PHASE_GAP = timedelta(hours=6)


class Clock(Protocol):
    """The judge's clock as a test moves it (the core tests' ``clock`` fixture is one)."""

    now: datetime

    def __call__(self) -> datetime: ...

    def advance(self, **kw: float) -> None: ...


@dataclass
class StillClock:
    """A clock that stands still until it is moved."""

    now: datetime = field(default_factory=lambda: datetime(2026, 3, 1, 12, 0, tzinfo=UTC))

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **kw: float) -> None:
        self.now += timedelta(**kw)


def address(role: str) -> str:
    return f"{role.lower()}@players.example"


def lift_reply_limit(home: Path) -> None:
    """One player sends many mails in an hour here: lift ``replies_per_hour``
    so that every mail gets its acknowledgement, as a real one would."""
    cfg = home / "judge.toml"
    text = cfg.read_text(encoding="utf-8")
    cfg.write_text(re.sub(r"replies_per_hour = \d+", "replies_per_hour = 1000000", text),
                   encoding="utf-8")


class ClassicByMail:
    """One classic game ``name`` on ``judge``, its players and their mail."""

    def __init__(self, judge: Judge, home: Path, clock: Clock, name: str = "g1",
                 seed: int = 1901) -> None:
        self.judge = judge
        self.home = home
        self.clock = clock
        self.name = name
        self.rnd = random.Random(seed)
        self.count = 0
        self.tokens: dict[str, str] = {}
        self.gm_token = ""
        self.game: Game = registry.get("classic")

    # ------------------------------------------------------------------ mail

    def raw(self, sender: str, body: str, subject: str = "orders") -> bytes:
        """One RFC 5322 message from ``sender`` to the judge, with a fresh Message-ID."""
        self.count += 1
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = self.judge.config.address
        msg["Subject"] = subject
        msg["Date"] = format_datetime(self.clock.now)
        msg["Message-ID"] = f"<m{self.count}.{self.name}@players.example>"
        msg.set_content(body)
        return msg.as_bytes(policy=email.policy.SMTP)

    def deliver(self, sender: str, body: str, subject: str = "orders") -> None:
        raw = self.raw(sender, body, subject)
        folder = self.home / "mail" / "in" / "new"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{self.count:07d}.{self.name}.bench:2,").write_bytes(raw)

    def cycle(self) -> list[str]:
        lines = self.judge.cycle()
        failed = [line for line in lines if "failed" in line or "auth-failure" in line]
        if failed:
            raise AssertionError(f"the judge could not handle a mail: {failed}")
        return lines

    def _token_to(self, to: str) -> str:
        # The mail as delivered (the outbox keeps a sent mail's token masked).
        delivered: dict[str, bytes] = {}
        for path in (self.home / "mail" / "out").glob("*/*"):
            head = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            delivered[str(head["Message-ID"])] = path.read_bytes()
        for row in reversed(self.judge.store.outbox()):
            if row["to_addr"] != to:
                continue
            raw = delivered.get(row["message_id"], row["raw"])
            msg = email.message_from_bytes(raw, policy=email.policy.default)
            assert isinstance(msg, EmailMessage)
            part = msg.get_body(("plain",))
            text = part.get_content() if part is not None else ""
            found = re.search(r"token is: (\S+)", text)
            if found:
                return found.group(1)
        raise AssertionError(f"the judge mailed no token to {to}")

    # ------------------------------------------------------------------ set-up

    def setup(self, max_year: int) -> None:
        """CREATE by mail, seven JOINs by mail (one per power), START by mail."""
        self.deliver(GM_ADDR, f"CREATE {self.name} classic max_year={max_year}\n", "new game")
        self.cycle()
        self.gm_token = self._token_to(GM_ADDR)
        for role in POWERS:
            self.deliver(address(role), f"JOIN {self.name} {role}\n", "join")
            self.cycle()
            self.tokens[role] = self._token_to(address(role))
        self.deliver(GM_ADDR, f"SIGNON {self.name} GM {self.gm_token}\nSTART\n", "start")
        self.cycle()
        row = self.judge.store.game(self.name)
        assert row is not None and row["status"] == "active", row

    # ------------------------------------------------------------------ the game

    def table(self) -> adj.Table:
        return self.judge.table(self.name)

    def phase(self) -> str:
        return adj.phase_key(self.game, self.table())

    def year(self) -> int:
        return int(self.game.view(self.table().state, None)["year"])

    def owing(self) -> set[str]:
        return adj.waiting_on(self.game, self.table())

    def orders(self, role: str) -> list[str]:
        """A full set of legal orders for ``role`` in the phase now."""
        state = self.table().state
        lines = self.game.legal(state, role)
        view = self.game.view(state, None)
        me: dict[str, Any] = next(p for p in view["powers"]
                                  if p["name"] == role)
        strong = int(me["centres"]) >= HOLD_AT
        if lines and lines[0].startswith(("Build", "Waive", "Remove")):
            return self._adjustments(lines, int(me["adjustment"]), strong)
        by_unit: dict[str, list[str]] = {}
        for line in lines:
            by_unit.setdefault(" ".join(line.split()[:2]), []).append(line)
        chosen: list[str] = []
        for unit, options in sorted(by_unit.items()):
            holds = [o for o in options if o.endswith(" H")]
            if strong and holds:
                chosen.append(holds[0])
                continue
            kinds: dict[str, list[str]] = {}
            for o in options:
                word = o.split()[2]
                kinds.setdefault({"-": "move", "S": "support", "C": "convoy"}.get(word, word),
                                 []).append(o)
            kind = self.rnd.choice(sorted(kinds))
            chosen.append(self.rnd.choice(kinds[kind]) if kinds[kind] else f"{unit} H")
        return chosen

    def _adjustments(self, lines: list[str], n: int, strong: bool) -> list[str]:
        if n < 0:
            removes = [line for line in lines if line.startswith("Remove")]
            return self.rnd.sample(removes, -n)
        if strong or n == 0:
            return ["Waive"]
        sites: dict[str, list[str]] = {}
        for line in lines:
            if line.startswith("Build"):
                sites.setdefault(line.split()[2].split("/")[0], []).append(line)
        picked = self.rnd.sample(sorted(sites), min(n, len(sites)))
        return [self.rnd.choice(sites[s]) for s in picked] or ["Waive"]

    def orders_body(self, role: str, lines: Sequence[str]) -> str:
        return (f"SIGNON {self.name} {role} {self.tokens[role]}\nORDERS\n"
                + "\n".join(lines) + "\nEND\n")

    def send_orders(self, roles: Collection[str]) -> None:
        """Drop one ORDERS mail per role in the inbox (read at the next cycle)."""
        for role in sorted(roles):
            self.deliver(address(role), self.orders_body(role, self.orders(role)),
                         f"{self.phase()} orders")

    def play_phase(self) -> None:
        """Every power that owes orders mails them; one cycle reads them all
        (the last one resolves the phase)."""
        before = self.phase()
        self.send_orders(self.owing())
        self.cycle()
        after = self.phase()
        if after == before:
            raise AssertionError(f"{self.name}: {before} did not resolve")
        self.clock.advance(seconds=PHASE_GAP.total_seconds())

    def play_until(self, phase: str) -> None:
        """Play whole phases until the game stands at ``phase`` (e.g. ``S1930M``)."""
        while self.phase() != phase:
            row = self.judge.store.game(self.name)
            assert row is not None
            if row["status"] != "active":
                raise AssertionError(f"{self.name} ended before {phase}: {row['status']}")
            self.play_phase()
