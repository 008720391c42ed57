"""Mails per decision: Conflict of Alliances and Kingdom Wars by mail, per seat and game turn.

DESIGN.md ("Decisions, windows and who gets mail"): a seat gets mail when it
must decide, a digest of each game turn, the acknowledgement of its own mail
and the final report; nothing else by default. This measures how close the
judge comes to that, for both scenarios of the rulebook (``five-kingdoms``
and ``qin-dominates``), each played twice: with the default settings (``SET
ACK all``: every mail is acknowledged at once) and with ``SET ACK errors``
for both seats (an acknowledgement that refused nothing is folded into the
seat's next mail).

How it plays. A judge in a temporary home on its Maildir transports (the
embedded defaults of ``judge init``) with a test clock and a fixed game seed
(``Judge.seed_source``), so the figures are the same on every run. Every move
is a real RFC 5322 mail written into ``mail/in/new`` and read by
``Judge.cycle()``; every mail of the judge is read back from its outbox
Maildir (``mail/out``). A GM CREATEs and STARTs the game by mail, the two
players JOIN by mail. Between mails the clock moves on 5 minutes; when nobody
has anything to write it moves on past the minimum open time of a response
window (``window_min_minutes``), so that windows close.

The players behave like sensible people at a mail client. Each sends its
standing answers once at the start (``POLICY character-card ASK``;
``POLICY before-combat PASS WHEN FORCE song shu``, else ``ASK``: whether a
seat is asked may not depend on its hand), with ``SET ACK errors`` in the
second run; the player on turn puts them in its first move, the other sends
them on reading its start report. A
player writes only when a mail asks it to decide (its body says "You owe:"),
answers each such mail with exactly one mail (a reply to it: ``In-Reply-To``
and ``References``, as a mail client writes), and picks legal lines
(``GAME.legal``) with a seeded ``random.Random``. Whatever it can decide
without new information goes into the same mail, after the line that was
asked for: the steps of its own face-up card (REINFORCE, MILITARY, TAKE) up to
the first die, card drawn or window of its opponent's other than a
character-card window (which it expects to be let go, as it usually is).
Response windows it answers with one line. It never queues a PASS ahead: a
queued line outlives the game turn (nothing clears the queue at the end
step), so a spare one would be taken in the next turn before its writer had
seen its new hand.

What is counted, per seat and game turn:

sent
    mails the player sent while the game was in that turn.
decisions
    mails that asked the player for a decision it had not answered before
    (a request for a decision its earlier mail had already answered with a
    queued line does not count: the player still answers it, one mail).
received
    every mail the judge sent to the seat's address: requests, digests,
    acknowledgements, notices. A report counts in the turn its ``Phase:`` line
    names (the digest that starts turn 2 counts in turn 2), an
    acknowledgement in the turn of the mail it answers, anything else in the
    turn the game is in when it is sent.

Set-up (JOIN and its reply, the mail that carries only the standing answers
and its acknowledgement) and, when the game ends within the turns played,
the final report are shown in rows of their own (``setup``, ``end``) and
held to no target; ``--json`` prints the game turns only.

Targets per seat and turn: sent <= 1.2 x decisions; received <= 2 x
decisions + 1 with ``SET ACK all``; received <= decisions + 1 with ``SET ACK
errors``. The exit status is 1 when a seat misses a target in a turn.

Kingdom Wars (scenario ``kingdom-wars-6``): a scripted game of six seats, A
to F, counted per round (one turn of every seat; ``--turns`` is then the
number of rounds; set-up is the choice of generals). Each seat sends its
standing answers with its choice of generals (``POLICY dodge DODGE WHEN
HOLDING Dodge`` and ``POLICY attack ATTACK WHEN HOLDING Attack``; Negate a
spell on it or its kingdom when it can; ``PEACH`` itself when it holds one,
a dying seat of its kingdom when it holds two; skills keep the game's own;
everything else passes). It
writes only when asked, one mail per request, and adds the lines of its own
next decisions that need no new information: a Play Phase's card plays up to
the first one that opens a window to another seat, draws or turns a card
from the deck, or draws at random; the Discard Phase after its PASS. The same
targets apply per seat and round.

Conquest Tactics (scenario ``conquest-tactics``): the Humans starter deck
(South) against the Malice one (North), played by the seeded bot of
``bench/balance.py`` (which picks among the lines the game offers). Set-up
(the Base and the default starting forces, the deployment) is the ``setup``
row. Each side sends its standing answers with its Base (``POLICY instant
ASK WHEN INCOMING 3``, else ``PASS``: asked about an instant only when three
or more damage is coming, whatever it holds). It writes only when
asked, one mail per request, and adds the lines of its own next decisions
that need no new information: a whole Mobilize ending in ``DONE``, every
``DEPLOY`` of its deployment, the attack after its own MOVE in Play, up to
the first line that draws a card or hands a decision to its opponent. The
same targets apply per seat and turn.

Usage::

    python bench/mails_per_turn.py [--turns N] [--json] [--seed S]
        [--scenario five-kingdoms|qin-dominates|kingdom-wars-6|conquest-tactics]
        [--ack all|errors]
        [--new-mails]

``--new-mails``: players write each mail as a new mail instead of a reply
(no ``In-Reply-To``), to show what binding a reply to its request costs.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import json
import os
import random
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.balance import Bot as CtBot  # noqa: E402
from judge import config as cfg  # noqa: E402
from judge.game import adjudicator as adj  # noqa: E402
from judge.game.engine import Decision, DecisionKind, RuleError, live  # noqa: E402
from judge.game.rng import Rng  # noqa: E402
from judge.game.spec import Game  # noqa: E402
from judge.service import Judge  # noqa: E402
from judge.store import set_kdf_cost  # noqa: E402
from judge_games.conflict_of_alliances import GAME, RULES  # noqa: E402
from judge_games.conquest_tactics import GAME as CT_GAME  # noqa: E402
from judge_games.kingdom_wars import GAME as KW_GAME  # noqa: E402

State = dict[str, Any]

GAME_ID = "conflict_of_alliances"
KW_ID = "kingdom_wars"
KW_SCENARIO = "kingdom-wars-6"
"""The scripted six-seat Kingdom Wars game (its rows count per round)."""
CT_ID = "conquest_tactics"
CT_SCENARIO = "conquest-tactics"
"""Conquest Tactics, the Humans (South) against the Malice (North)."""
SCENARIOS = ("five-kingdoms", "qin-dominates", KW_SCENARIO, CT_SCENARIO)
ACKS = ("all", "errors")
NAME = "g1"
L, A = "Lianheng", "Alliance"
ADDRESS = {L: "zhang.yi@players.example", A: "su.qin@players.example"}
GM_ADDRESS = "gm@league.example"
CHARACTER = "character-card"
GAME_OVER = "game over"

#: Standing answers, sent once at the start: never spend a response on the
#: neutral minor kingdoms, be asked otherwise (whether one is asked may not
#: depend on one's hand: judge/game/timing.py).
STANDING = {
    L: ["POLICY character-card ASK",
        "POLICY before-combat PASS WHEN FORCE song shu",
        "POLICY before-combat ASK"],
    A: ["POLICY character-card ASK",
        "POLICY before-combat PASS WHEN FORCE song shu",
        "POLICY before-combat ASK"],
}

MINUTES_PER_MAIL = 5.0
"""How long a player takes to write a mail (on the test clock)."""
IDLE_LIMIT = 150
"""Clock steps with nobody writing before the run gives up (about three days)."""
SETUP = 0
"""The row of the set-up mails."""
END = -1
"""The row of the final report (when the game ends within the turns played)."""

_PHASE = re.compile(r"^Phase: (.+)$", re.M)
_TURN = re.compile(r"\bturn (\d+)\b")
_ROUND = re.compile(r"\bround (\d+)\b")
_REFUSED = re.compile(r'^  line \d+: ".*"\n      (.+)$', re.M)


# --------------------------------------------------------------------------- the judge


class Clock:
    """The judge's clock; the run moves it on."""

    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, minutes: float) -> None:
        self.now += timedelta(minutes=minutes)


@dataclass
class Mail:
    """A mail of the judge, as its reader sees it."""

    message_id: str
    to: str
    subject: str
    text: str
    in_reply_to: str
    references: list[str]

    @property
    def asks(self) -> bool:
        """Whether it asks its reader to decide something."""
        return "\nYou owe: " in "\n" + self.text

    @property
    def phase(self) -> str:
        """The phase the report in it names ("" if it holds no report)."""
        found = _PHASE.search(self.text)
        return found.group(1).strip() if found else ""

    @property
    def is_ack(self) -> bool:
        return "was read as follows:" in self.text

    def kind(self) -> str:
        if self.phase:
            return "request" if self.asks else "report"
        return "ack" if self.is_ack else "other"

    def refusals(self) -> list[str]:
        """Why lines of the reader's mail were refused (from an acknowledgement)."""
        return [m.group(1).strip() for m in _REFUSED.finditer(self.text)] if self.is_ack else []


class Mailroom:
    """The judge in a temporary home, with its inbox and outbox Maildirs."""

    def __init__(self, home: Path, clock: Clock) -> None:
        cfg.init_home(home)
        self.clock = clock
        self.judge = Judge.open(home, now=clock)
        self.judge.seed_source = lambda: bytes(32)  # the same game on every run
        self.inbox = home / "mail" / "in"
        self.outbox = home / "mail" / "out"
        self.read: set[str] = set()
        self.count = 0

    def close(self) -> None:
        self.judge.close()

    def post(self, sender: str, subject: str, body: str, reply_to: Mail | None = None) -> str:
        """Deliver one RFC 5322 mail into the inbox (as a local delivery agent
        does: written in ``tmp/``, renamed into ``new/``); returns its Message-ID."""
        self.count += 1
        message_id = f"<m{self.count}.{sender.split('@')[0]}@players.example>"
        msg = EmailMessage()
        msg["From"] = sender
        msg["To"] = self.judge.config.address
        msg["Subject"] = subject
        msg["Date"] = format_datetime(self.clock.now)
        msg["Message-ID"] = message_id
        if reply_to is not None:
            msg["In-Reply-To"] = reply_to.message_id
            msg["References"] = " ".join([*reply_to.references, reply_to.message_id])
        msg.set_content(body)
        raw = msg.as_bytes(policy=email.policy.SMTP)
        name = f"{int(self.clock.now.timestamp())}.M{self.count:06d}P1.players.example"
        tmp = self.inbox / "tmp" / name
        tmp.parent.mkdir(parents=True, exist_ok=True)
        (self.inbox / "new").mkdir(parents=True, exist_ok=True)
        tmp.write_bytes(raw)
        os.replace(tmp, self.inbox / "new" / f"{name}:2,")
        return message_id

    def cycle(self) -> list[Mail]:
        """One judge cycle; returns the mails it sent, in the order it queued them."""
        self.judge.cycle()
        return self.collect()

    def collect(self) -> list[Mail]:
        found: list[tuple[int, Mail]] = []
        for sub in ("new", "cur"):
            folder = self.outbox / sub
            if not folder.is_dir():
                continue
            for path in folder.iterdir():
                if path.name in self.read:
                    continue
                self.read.add(path.name)
                msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                assert isinstance(msg, EmailMessage)
                body = msg.get_body(("plain",))
                text = body.get_content() if body is not None else ""
                mail = Mail(
                    message_id=str(msg["Message-ID"]).strip(),
                    to=str(msg["To"]).strip().lower(),
                    subject=" ".join(str(msg["Subject"] or "").split()),
                    text=str(text),
                    in_reply_to=str(msg["In-Reply-To"] or "").strip(),
                    references=str(msg["References"] or "").split(),
                )
                row = self.judge.store.mail_by_message_id(mail.message_id)
                found.append((int(row["id"]) if row else 0, mail))
        return [m for _, m in sorted(found, key=lambda x: x[0])]

    def table(self) -> adj.Table | None:
        row = self.judge.store.game(NAME)
        if row is None or not row["table_json"]:
            return None
        return adj.Table.loads(row["table_json"])


# --------------------------------------------------------------------------- counting


@dataclass
class Tally:
    """One seat in one game turn."""

    sent: int = 0
    decisions: int = 0
    received: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    folded: int = 0
    asked_again: int = 0


@dataclass
class Result:
    """One row of the output."""

    scenario: str
    ack: str
    turn: int
    seat: str
    tally: Tally
    game: str = GAME_ID

    @property
    def sent_ok(self) -> bool:
        return self.tally.sent <= 1.2 * self.tally.decisions

    @property
    def received_limit(self) -> int:
        d = self.tally.decisions
        return 2 * d + 1 if self.ack == "all" else d + 1

    @property
    def received_ok(self) -> bool:
        return self.tally.received <= self.received_limit

    @property
    def judged(self) -> bool:
        """Whether the row is a game turn (set-up and the end are held to no target)."""
        return self.turn >= 1

    @property
    def ok(self) -> bool:
        return not self.judged or (self.sent_ok and self.received_ok)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "scenario": self.scenario, "turn": self.turn,
                "seat": self.seat, "ack": self.ack, "sent": self.tally.sent,
                "decisions": self.tally.decisions, "received": self.tally.received}


# --------------------------------------------------------------------------- players


def _hidden(state: State, side: str) -> tuple[list[str], list[str]]:
    """``side``'s hand and the cards of its deck (their order is hidden from
    it too), sorted."""
    z = state["cards"][side]
    return sorted(z["hand"]), sorted(z["deck"])


def simulate(state: State, role: str, line: str) -> tuple[State, bool] | None:
    """What ``line`` would lead to, and whether what follows needs new
    information (a die, a shuffle, a card drawn from a deck: the order of
    one's own deck is hidden too): a player's own reckoning of its next
    steps, never sent to the judge. None if the line does not fit."""
    rng = Rng(bytes(32), 0)
    side = RULES.side_of(state, role)
    assert side is not None
    hand, deck = _hidden(state, side)
    try:
        new, _ = GAME.act(state, role, GAME.parse(state, role, line), rng)
    except RuleError:
        return None
    new_hand, new_deck = _hidden(new, side)
    fresh = bool(rng.draws) or new_deck != deck or bool(set(new_hand) - set(hand))
    return new, fresh


@dataclass
class Outgoing:
    player: Player
    lines: list[str]
    reply_to: Mail | None
    setup_only: bool = False


class Player:
    """A seat played by a sensible person (see the module's docstring)."""

    game: Game = GAME

    def __init__(self, side: str, ack: str, rng: random.Random, replies: bool) -> None:
        self.side = side
        self.role = side  # basic victory: the roles are the sides
        self.address = ADDRESS[side]
        self.ack = ack
        self.rng = rng
        self.replies = replies
        self.token = ""
        self.sent: dict[str, int] = {}  # my Message-IDs -> the turn (SETUP: set-up)
        self.answered: set[str] = set()  # phases of the decisions I answered
        self.planned: set[str] = set()  # phases my queued lines answered in advance
        self.setup_sent = False
        self.unread: list[Mail] = []
        self.refusals: Counter[str] = Counter()
        self.stale = 0
        self.ahead = 0  # lines sent for decisions still to come

    # ------------------------------------------------------------------ reading

    def setup_lines(self) -> list[str]:
        return (["SET ACK errors"] if self.ack == "errors" else []) + STANDING[self.side]

    def read(self, mail: Mail, table: adj.Table | None) -> tuple[Outgoing | None, bool]:
        """What the player writes on reading ``mail``, and whether it asked a
        decision that needed new information."""
        for why in mail.refusals():
            self.refusals[why] += 1
        if table is None:
            return None, False
        if mail.asks:
            phase = mail.phase
            if phase in self.answered:
                return None, False
            decision = adj.decision_for(self.game, table, self.role)
            if decision is None or decision.id != phase:
                self.stale += 1  # over before it was read: nothing to answer
                return None, False
            self.answered.add(phase)
            new = phase not in self.planned
            lines, planned = self.choose(table.state, decision)
            self.planned.update(planned)
            self.ahead += len(planned)
            if not self.setup_sent:
                lines = self.setup_lines() + lines
                self.setup_sent = True
            return Outgoing(self, lines, mail), new
        if not self.setup_sent and table.outcome is None:
            self.setup_sent = True
            return Outgoing(self, self.setup_lines(), mail, setup_only=True), False
        return None, False

    # ------------------------------------------------------------------ choosing

    def choose(self, state: State, decision: Decision) -> tuple[list[str], list[str]]:
        """The lines of the mail answering ``decision``, and the phases of the
        decisions its second and later lines answer in advance."""
        legal = GAME.legal(state, self.role)
        first = self.pick(state, legal)
        lines: list[str] = [first]
        planned: list[str] = []
        if decision.kind is not DecisionKind.ACTION:
            return lines, planned
        step = simulate(state, self.role, first)
        for _ in range(8):
            if step is None or step[1]:
                break
            s = step[0]
            w = s.get("window")
            if s["stage"] == "window" and w is not None and w["kind"] == CHARACTER \
                    and w["side"] != self.side:
                # The opponent is offered the character card: it usually lets it go.
                step = simulate(s, RULES.role_of(s, w["side"]), "PASS")
                continue
            if s["stage"] not in ("step", "choose"):
                break
            due = live(GAME.pending(s))
            if not due or self.role not in due[0].roles:
                break
            line = self.pick(s, GAME.legal(s, self.role))
            planned.append(due[0].phase)
            lines.append(line)
            step = simulate(s, self.role, line)
        return lines, planned

    def pick(self, state: State, legal: Sequence[str]) -> str:
        rng = self.rng
        stage = state["stage"]
        if stage == "action":
            plays = [x for x in legal if x.startswith("PLAY ")]
            if not plays or rng.random() < 0.12:
                return "PASS"
            card = rng.choice(sorted({x.split()[1] for x in plays}))
            mine = [x for x in plays if x.split()[1] == card]
            up = [x for x in mine if x.split()[2] == "FACEUP"]
            down = [x for x in mine if x.split()[2] == "FACEDOWN"]
            if up and (not down or rng.random() < 0.5):
                return rng.choice(up)
            uses = sorted({x.split()[3] for x in down})
            use = "MILITARY" if "MILITARY" in uses and rng.random() < 0.5 else rng.choice(uses)
            return rng.choice([x for x in down if x.split()[3] == use])
        if stage == "window":
            responds = [x for x in legal if x.startswith("RESPOND")]
            defends = [x for x in legal if x.startswith("DEFEND")]
            if responds and rng.random() < 0.6:
                return rng.choice(responds)
            if defends and rng.random() < 0.3:
                return rng.choice(defends)
            return "PASS"
        if stage == "step":
            doing = [x for x in legal if x != "SKIP"]
            return rng.choice(doing) if doing and rng.random() < 0.9 else "SKIP"
        return rng.choice(list(legal))


# --------------------------------------------------------------------------- Kingdom Wars

KW_SEATS = ("A", "B", "C", "D", "E", "F")
KW_ADDRESS = {s: f"seat.{s.lower()}@players.example" for s in KW_SEATS}

#: Kingdom Wars standing answers, sent with the choice of generals: play a
#: Dodge (or an Attack for a Duel or Barbarian Invasion) whenever one is
#: held; Negate a spell on me or my kingdom when I can (whether one is asked
#: may not depend on one's hand: judge/game/timing.py); Peach myself when I hold
#: one, and a dying seat of my kingdom when I hold two; let everything else
#: go by. Skills keep the game's own (asked while no general is hidden).
KW_STANDING = [
    "POLICY dodge DODGE WHEN HOLDING Dodge",
    "POLICY attack ATTACK WHEN HOLDING Attack",
    "POLICY negation ASK",
    "POLICY negation NEGATE WHEN CAN AND TARGET ME",
    "POLICY negation NEGATE WHEN CAN AND TARGET KINGDOM",
    "POLICY negation PASS",
    "POLICY rescue ASK",
    "POLICY rescue PEACH WHEN DYING ME AND HOLDING Peach",
    "POLICY rescue PEACH WHEN DYING KINGDOM AND HOLDING 2 Peach",
    "POLICY rescue PASS",
]


def plan_ahead(game: Game, simulate: Callable[[State, str, str], tuple[State, bool] | None],
               state: State, role: str, first: str,
               pick: Callable[[State, Decision], str], most: int) -> tuple[list[str], list[str]]:
    """The line ``first`` chosen now, and the lines a player can queue behind
    it (at most ``most``): while the next decision is the seat's own action
    and reaching it needs no new information (``simulate``), ``pick``'s line
    for it. Returns (the lines, the phases of the queued ones)."""
    lines, planned = [first], []
    step = simulate(state, role, first)
    for _ in range(most):
        if step is None or step[1]:
            break
        s = step[0]
        due = live(game.pending(s))
        if not due or due[0].kind is not DecisionKind.ACTION or role not in due[0].roles:
            break
        line = pick(s, due[0])
        planned.append(due[0].phase)
        lines.append(line)
        step = simulate(s, role, line)
    return lines, planned


def simulate_kw(state: State, role: str, line: str) -> tuple[State, bool] | None:
    """What ``line`` would lead to in Kingdom Wars, and whether what follows
    needs new information: a card drawn or turned from the deck (its order is
    hidden), a random draw, or a decision of another seat (a window for the
    others' answers). None if the line does not fit."""
    rng = Rng(bytes(32), 0)
    try:
        new, _ = KW_GAME.act(state, role, KW_GAME.parse(state, role, line), rng)
    except RuleError:
        return None
    others = any(r != role for d in live(KW_GAME.pending(new)) for r in d.roles)
    gained = set(new["p"][role]["hand"]) - set(state["p"][role]["hand"])
    fresh = bool(rng.draws) or new["deck"] != state["deck"] or bool(gained) or others
    return new, fresh


class KwPlayer(Player):
    """A seat of the six-seat Kingdom Wars game, played by a sensible person:
    it answers each request with one mail, and puts into it the lines of its
    own next decisions that need no new information (a Play Phase's card
    plays up to the first that opens a window or draws, the Discard Phase
    after its PASS)."""

    game: Game = KW_GAME

    def __init__(self, seat: str, ack: str, rng: random.Random, replies: bool) -> None:
        super().__init__(L, ack, rng, replies)
        self.side = seat
        self.role = seat
        self.address = KW_ADDRESS[seat]

    def setup_lines(self) -> list[str]:
        return (["SET ACK errors"] if self.ack == "errors" else []) + KW_STANDING

    def choose(self, state: State, decision: Decision) -> tuple[list[str], list[str]]:
        first = self.pick(state, KW_GAME.legal(state, self.role))
        if decision.kind is not DecisionKind.ACTION:
            return [first], []
        return plan_ahead(KW_GAME, simulate_kw, state, self.role, first,
                          lambda s, _d: self.pick(s, KW_GAME.legal(s, self.role)), 8)

    def pick(self, state: State, legal: Sequence[str]) -> str:
        rng = self.rng
        if state["stage"] == "generals":
            return rng.choice(list(legal))
        uses = [x for x in legal if x.startswith("USE ")]
        reveals = [x for x in legal if x.startswith("REVEAL ")]
        answers = [x for x in legal if x.split()[0] in ("DODGE", "ATTACK", "NEGATE", "PEACH",
                                                          "WINE")]
        if uses:  # the Play Phase (or a skill's moment)
            return rng.choice(uses) if rng.random() < 0.8 else "PASS"
        if reveals:  # the Preparation Phase
            return rng.choice(reveals) if rng.random() < 0.25 else "PASS"
        if answers:
            return rng.choice(answers) if rng.random() < 0.7 else "PASS"
        return rng.choice(list(legal))


# --------------------------------------------------------------------------- Conquest Tactics

CT_ADDRESS = {"South": "south.player@players.example", "North": "north.player@players.example"}
CT_STANDING = ["POLICY instant ASK", "POLICY instant ASK WHEN INCOMING 3",
               "POLICY instant PASS"]


def simulate_ct(state: State, role: str, line: str) -> tuple[State, bool] | None:
    """What ``line`` would lead to in Conquest Tactics, and whether what
    follows needs new information: a card drawn (the supply pile's order is
    hidden), a random draw, or a decision of the opponent's."""
    rng = Rng(bytes(32), 0)
    try:
        new, _ = CT_GAME.act(state, role, CT_GAME.parse(state, role, line), rng)
    except RuleError:
        return None
    # A decision shared with the opponent (Mobilize: each side's own lines
    # until its DONE) is no new information; one that is the opponent's alone is.
    others = any(role not in d.roles for d in live(CT_GAME.pending(new)))
    gained = len(new["p"][role]["hand"]) > len(state["p"][role]["hand"])
    fresh = bool(rng.draws) or gained or others
    return new, fresh


class CtPlayer(Player):
    """A side of the Conquest Tactics game: the bench's bot, writing one mail
    per request with the lines of its own next decisions that need no new
    information."""

    game: Game = CT_GAME

    def __init__(self, side: str, ack: str, rng: random.Random, replies: bool) -> None:
        super().__init__(L, ack, rng, replies)
        self.side = side
        self.role = side
        self.address = CT_ADDRESS[side]
        self.bot = CtBot(side, Rng(bytes([rng.randrange(256) for _ in range(32)]), 0))

    def setup_lines(self) -> list[str]:
        return (["SET ACK errors"] if self.ack == "errors" else []) + CT_STANDING

    def choose(self, state: State, decision: Decision) -> tuple[list[str], list[str]]:
        if decision.kind is DecisionKind.ORDERS:  # the Base; the default starting forces
            return self.bot.forces(state), []
        first = self.bot.choose(state, decision)
        if decision.kind is not DecisionKind.ACTION:
            return [first], []
        return plan_ahead(CT_GAME, simulate_ct, state, self.role, first, self.bot.choose, 16)


# --------------------------------------------------------------------------- one game


@dataclass
class Run:
    """One scenario played with one acknowledgement setting."""

    scenario: str
    ack: str
    turns: int
    seed: int
    replies: bool = True
    game: str = GAME_ID
    seats: tuple[str, ...] = (L, A)
    tallies: dict[tuple[int, str], Tally] = field(default_factory=dict)
    refusals: Counter[str] = field(default_factory=Counter)
    stale: int = 0
    ahead: int = 0
    played: int = 0
    ended: bool = False

    def tally(self, turn: int, side: str) -> Tally:
        return self.tallies.setdefault((turn, side), Tally())

    def results(self) -> list[Result]:
        turns = [SETUP, *range(1, self.played + 1)] + ([END] if self.ended else [])
        return [Result(self.scenario, self.ack, t, s, self.tallies.get((t, s), Tally()),
                       self.game)
                for t in turns for s in self.seats]

    @property
    def rules(self) -> Game:
        card_games: dict[str, Game] = {KW_ID: KW_GAME, CT_ID: CT_GAME}
        return card_games.get(self.game, GAME)


def _turn(table: adj.Table | None) -> int:
    """The game turn (Kingdom Wars: the round) the table is in; SETUP before."""
    if table is None or table.state.get("stage") in ("bid", "generals"):
        return SETUP
    if table.game == CT_ID and table.state.get("stage") in ("decks", "forces", "deploy"):
        return SETUP  # Conquest Tactics: deck lists, Base and forces, deployment
    if "round" in table.state:  # Kingdom Wars
        return int(table.state["round"])
    return int(table.state["turn"])


def _token(mail: Mail, word: str) -> str:
    found = re.search(word + r" token is: (\S+)", mail.text)
    if not found:
        raise RuntimeError(f"no token in {mail.subject!r}")
    return found.group(1)


def play(scenario: str, ack: str, turns: int, seed: int, replies: bool = True) -> Run:
    """Play ``turns`` game turns of ``scenario`` by mail and count the mails
    (Kingdom Wars: ``turns`` rounds of six seats)."""
    players: dict[str, Player]
    if scenario == KW_SCENARIO:
        run = Run(scenario, ack, turns, seed, replies, KW_ID, KW_SEATS)
        players = {s: KwPlayer(s, ack, random.Random(f"{seed}/{scenario}/{s}"), replies)
                   for s in KW_SEATS}
    elif scenario == CT_SCENARIO:
        run = Run(scenario, ack, turns, seed, replies, CT_ID, ("South", "North"))
        players = {s: CtPlayer(s, ack, random.Random(f"{seed}/{scenario}/{s}"), replies)
                   for s in ("South", "North")}
    else:
        run = Run(scenario, ack, turns, seed, replies)
        players = {side: Player(side, ack, random.Random(f"{seed}/{scenario}/{side}"), replies)
                   for side in (L, A)}
    by_address = {p.address: p for p in players.values()}
    clock = Clock()
    with tempfile.TemporaryDirectory(prefix="mails-per-turn-") as tmp:
        room = Mailroom(Path(tmp) / "home", clock)
        try:
            _play(run, room, players, by_address)
        finally:
            room.close()
    for p in players.values():
        run.refusals.update(p.refusals)
        run.stale += p.stale
        run.ahead += p.ahead
    return run


def _route(run: Run, room: Mailroom, mails: Sequence[Mail],
           by_address: dict[str, Player]) -> None:
    """Hand each mail to its reader and count it in its turn."""
    current = _turn(room.table())
    word = _ROUND if run.game == KW_ID else _TURN
    for mail in mails:
        p = by_address.get(mail.to)
        if p is None:
            continue  # the GM's
        if mail.in_reply_to in p.sent:
            turn = p.sent[mail.in_reply_to]
        elif mail.phase == GAME_OVER:
            turn = END
        elif mail.phase:
            found = word.search(mail.phase)
            turn = int(found.group(1)) if found else current
        else:
            found = word.search(mail.subject)
            turn = int(found.group(1)) if found else current
        t = run.tally(turn, p.side)
        t.received += 1
        t.kinds[mail.kind()] += 1
        t.folded += bool(mail.phase and mail.is_ack)
        p.unread.append(mail)


def _send(run: Run, room: Mailroom, out: Outgoing, turn: int, body_head: str = "") -> None:
    p = out.player
    lines = ([body_head] if body_head else []) + out.lines
    reply = out.reply_to if p.replies else None
    subject = f"Re: {reply.subject}" if reply is not None else "orders"
    room.clock.advance(MINUTES_PER_MAIL)
    mid = room.post(p.address, subject, "\n".join(lines) + "\n", reply)
    p.sent[mid] = turn
    run.tally(turn, p.side).sent += 1


def _play(run: Run, room: Mailroom, players: dict[str, Player],
          by_address: dict[str, Player]) -> None:
    # Set-up, by mail: the GM creates the game, the players join, the GM starts it.
    options = {KW_ID: f"seats={len(KW_SEATS)}", CT_ID: "south=humans north=malice"}.get(
        run.game, f"scenario={run.scenario}")
    room.post(GM_ADDRESS, "new game", f"CREATE {NAME} {run.game} {options}\n")
    gm_token = _token(next(m for m in room.cycle() if m.to == GM_ADDRESS), "GM")
    for side, p in players.items():
        _send(run, room, Outgoing(p, [f"JOIN {NAME} {side}"], None), SETUP)
        mails = room.cycle()
        _route(run, room, mails, by_address)
        p.token = _token(next(m for m in mails if m.to == p.address), "secret")
        p.unread.clear()
    _route(run, room, room.cycle(), by_address)
    room.clock.advance(MINUTES_PER_MAIL)
    room.post(GM_ADDRESS, "start", f"SIGNON {NAME} GM {gm_token}\nSTART\n")
    _route(run, room, room.cycle(), by_address)

    idle = 0
    for _ in range(20_000):
        table = room.table()
        assert table is not None
        run.played = min(_turn(table), run.turns)
        if table.outcome is not None or _turn(table) > run.turns:
            run.ended = table.outcome is not None
            return
        outgoing: list[tuple[Outgoing, bool]] = []
        for p in players.values():
            unread, p.unread = p.unread, []
            for mail in unread:
                out, new = p.read(mail, table)
                if out is not None:
                    outgoing.append((out, new))
        if not outgoing:
            idle += 1
            if idle > IDLE_LIMIT:
                waiting = sorted(adj.waiting_on(run.rules, table))
                raise RuntimeError(f"{run.scenario}: nobody writes, and the game waits for "
                                   f"{waiting or 'nobody'} at {adj.phase_key(run.rules, table)}")
            # Past any window's minimum open time: the cycle closes what may close.
            minutes = float(room.judge.config.settings["window_min_minutes"]) + 1
            room.clock.advance(minutes)
            _route(run, room, room.cycle(), by_address)
            continue
        idle = 0
        turn = _turn(table)
        # The mails that carry only standing answers go first: they were quick to write.
        outgoing.sort(key=lambda o: not o[0].setup_only)
        for out, new in outgoing:
            p = out.player
            if not out.setup_only:
                t = run.tally(turn, p.side)
                if new:
                    t.decisions += 1
                else:
                    t.asked_again += 1
            head = f"SIGNON {NAME} {p.role} {p.token}"
            _send(run, room, out, SETUP if out.setup_only else turn, head)
            _route(run, room, room.cycle(), by_address)
    raise RuntimeError(f"{run.scenario}: the game did not reach turn {run.turns + 1}")


# --------------------------------------------------------------------------- output


def _label(turn: int) -> str:
    return {SETUP: "setup", END: "end"}.get(turn, str(turn))


def _kinds(t: Tally) -> str:
    k = t.kinds
    parts = [f"{k['request']} req", f"{k['report']} rep", f"{k['ack']} ack"]
    if k["other"]:
        parts.append(f"{k['other']} other")
    if t.folded:
        parts.append(f"{t.folded} with ack")
    if t.asked_again:
        parts.append(f"{t.asked_again} asked again")
    return ", ".join(parts)


def print_table(runs: Sequence[Run]) -> None:
    head = (f"{'scenario':<14} {'ack':<6} {'turn':>5} {'seat':<9} {'sent':>4} {'decisions':>9} "
            f"{'received':>8}  {'sent':<4} {'recv':<4}  received: requests, reports (digests), "
            "acks, other")
    print(head)
    print("-" * len(head))
    for run in runs:
        for r in run.results():
            t = r.tally
            verdicts = ("PASS" if r.sent_ok else "FAIL", "PASS" if r.received_ok else "FAIL") \
                if r.judged else ("-", "-")
            print(f"{r.scenario:<14} {r.ack:<6} {_label(r.turn):>5} {r.seat:<9} {t.sent:>4} "
                  f"{t.decisions:>9} {t.received:>8}  {verdicts[0]:<4} {verdicts[1]:<4}  "
                  f"{_kinds(t)}")
        print()


def print_summary(runs: Sequence[Run]) -> None:
    rows = [r for run in runs for r in run.results() if r.judged]
    failed = [r for r in rows if not r.ok]
    print("Totals over the game turns (the setup and end rows aside):")
    for run in runs:
        mine = [r for r in run.results() if r.judged]
        sent = sum(r.tally.sent for r in mine)
        dec = sum(r.tally.decisions for r in mine)
        rec = sum(r.tally.received for r in mine)
        again = sum(r.tally.asked_again for r in mine)
        ratio = f"{rec / dec:.2f}" if dec else "-"
        print(f"  {run.scenario:<14} ACK {run.ack:<6} sent {sent:>3}, decisions {dec:>3}, "
              f"received {rec:>3} ({ratio} per decision); lines sent ahead {run.ahead}, "
              f"asked again {again}, requests over before they were read {run.stale}")
        for why, n in run.refusals.most_common():
            print(f"      {n} line(s) refused: {why}")
    print()
    print(f"{len(rows) - len(failed)} of {len(rows)} seat-turns meet both targets "
          "(sent <= 1.2 x decisions; received <= 2 x decisions + 1 with ACK all, "
          "<= decisions + 1 with ACK errors).")
    for r in failed:
        t = r.tally
        missed: list[str] = []
        if not r.sent_ok:
            missed.append(f"sent {t.sent} > 1.2 x {t.decisions}")
        if not r.received_ok:
            missed.append(f"received {t.received} > {r.received_limit}")
        print(f"  FAIL {r.scenario} ACK {r.ack} turn {r.turn} {r.seat}: {'; '.join(missed)}")


def run_all(scenarios: Sequence[str], acks: Sequence[str], turns: int, seed: int,
            replies: bool = True) -> list[Run]:
    set_kdf_cost(2**8)  # tokens of this throw-away home only: scrypt at full cost is slow
    return [play(s, a, turns, seed, replies) for s in scenarios for a in acks]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--turns", type=int, default=2,
                    help="game turns per scenario, rounds for Kingdom Wars (default 2)")
    ap.add_argument("--json", action="store_true", help="one JSON object per seat and turn")
    ap.add_argument("--seed", type=int, default=1, help="the players' choices (default 1)")
    ap.add_argument("--scenario", choices=SCENARIOS, action="append",
                    help="only this scenario (may be given more than once; default all)")
    ap.add_argument("--ack", choices=ACKS, action="append",
                    help="only this acknowledgement setting (default both)")
    ap.add_argument("--new-mails", action="store_true",
                    help="players write new mails, not replies (no In-Reply-To)")
    args = ap.parse_args(list(argv) if argv is not None else None)
    if args.turns < 1:
        ap.error("--turns must be at least 1")
    runs = run_all(args.scenario or SCENARIOS, args.ack or ACKS, args.turns, args.seed,
                   replies=not args.new_mails)
    rows = [r for run in runs for r in run.results()]
    if args.json:
        for r in rows:
            if r.judged:
                print(json.dumps(r.to_json()))
    else:
        how = "new mails" if args.new_mails else "replies to the judge's requests"
        print(f"By mail: {args.turns} game turn(s) per scenario (Kingdom Wars: rounds of six "
              f"turns), players' seed {args.seed}, game seed 00..00, players write {how}.\n")
        print_table(runs)
        print_summary(runs)
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
