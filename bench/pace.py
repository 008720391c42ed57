"""The calendar of a card game by mail: days per round and per game, with
players who read their mail three times a day in their own time zones.

Face to face a Kingdom Wars game lasts under an hour; by mail every decision
the rules put to a seat waits until that seat next reads its mail, and every
response window waits at least ``window_min_minutes``. This plays whole games
by mail and measures the calendar they take, so that a change of the decision
flow can be judged by it.

How it plays. A judge in a temporary home on its Maildir transports (the
embedded defaults of ``judge init``), the real :class:`judge.service.Judge`,
on a test clock that this script moves (``Judge.open(home, now=clock)``: the
scheduler is pure and takes the time from the service). Each game draws from
its own seed (``--seed`` and the game's number), so a run is the same every
time. A GM CREATEs and STARTs the game by mail and the players JOIN by mail;
the game settings are left at their defaults. Every move is an RFC 5322 mail
delivered into ``mail/in/new`` and read by ``Judge.cycle()`` (what ``judge
serve --once`` does), and every mail of the judge is read back from the
outbox Maildir (``mail/out``).

The clock. Between mails the clock jumps to the next thing that can happen:
the judge's next due moment (``Judge.next_due()``: a window that may close, a
reminder, a deadline) or the next moment a player with unread mail reads it.
The players read and answer their mail at 08:00, 13:00 and 21:00 local time,
in zones spread evenly from UTC-8 to UTC+9 (six seats: UTC-8, -5, -1, +2,
+6, +9); at each of those moments a player reads what had arrived, answers
each mail that asks it to decide with one reply (5 minutes a mail), and
reads nothing else until its next reading time, however fast the judge
answers.

The players. A player writes only when a mail asks it to decide (its body
says "You owe:"), and its first line is one of the lines that mail lists
("Your choices include"), picked by a seeded choice preferring sensible ones
(the players of ``bench/mails_per_turn.py``: play a card most of the time,
answer a Dodge or a Peach when offered, reveal rarely). A Kingdom Wars
seat writes its whole Play Phase into the mail that answers its Play Phase
request, as the request says it may: its card plays one after another, each
among the lines its own reckoning of the position lists (the other seats
letting their windows go by), with only cards it held when it wrote; the
answers to the questions a card will ask it after ``THEN``; now and then a
``REVEAL``; then ``PASS`` (its Discard Phase is its keep-order's). Whatever
a Conflict of Alliances player can decide without new information it writes
into the same mail, after the line that was asked for (up to the first card
drawn or the first window of the other side). A Kingdom Wars or Conflict of
Alliances player picks its first line among those the request lists.
Conquest Tactics is played by the seeded bot of ``bench/balance.py``,
which picks among the lines the game takes: one the request lists, or, when
the list is cut short, often one of those it does not show (a move or
attack the board of the report shows; about a quarter of its first lines);
the Base, forces and deployment are orders, which no request lists. Players
send no standing answers (``POLICY``) unless ``--standing``, which sends those of
``bench/mails_per_turn.py`` with the first mail.

What is counted, per game:

rounds
    Kingdom Wars: one turn of every living seat; a round begins with the
    turn of the starting seat, or of the first living seat after it once it
    is eliminated (the game's own counter stops then); an extra turn the
    first seat gets in the round (a card's or skill's) counts as a new round,
    an extra turn of any other seat does not. Conquest
    Tactics and Conflict of Alliances: the game's turns.
blocking requests
    mails of the judge that asked a seat for a decision ("You owe:"); with
    ``--json``, ``blocking_kinds_per_round`` splits them by what they asked
    (Kingdom Wars: ``play``, ``choose``, ``cards``, ``reveal``, or the
    window: ``trigger``, ``negation``, ``dodge``, ...).
response windows
    the windows the judge opened (each one once, however many seats it
    asked), as the table showed them after each cycle; checked against the
    judge's log (its ``close`` entries).
days
    from the GM's START to the final report, on the test clock.

A game stops at ``--max-rounds`` rounds or ``--max-days`` days, whichever
comes first; the output says how many games were stopped so.

Usage::

    python bench/pace.py [--game kingdom_wars|conquest_tactics|conflict_of_alliances]
        [--seats N] [--games N] [--seed S] [--json] [--standing]
        [--max-rounds R] [--max-days D]

Without ``--game`` all three are played. ``--json`` prints one object per
game kind: ``game``, ``seats``, ``games``, ``median_days``, ``median_rounds``,
``blocking_per_round``, ``windows_per_round`` (medians over the games), and
``capped`` (games stopped by the cap).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench import mails_per_turn as mpt  # noqa: E402
from judge.game import adjudicator as adj  # noqa: E402
from judge.game.engine import (  # noqa: E402
    Decision,
    DecisionKind,
    RuleError,
    live,
)
from judge.game.rng import Rng  # noqa: E402
from judge.game.spec import Game  # noqa: E402
from judge.store import set_kdf_cost  # noqa: E402
from judge_games.conquest_tactics import GAME as CT_GAME  # noqa: E402
from judge_games.kingdom_wars import GAME as KW_GAME  # noqa: E402
from judge_games.kingdom_wars.table import label  # noqa: E402

KW, CT, COA = mpt.KW_ID, mpt.CT_ID, mpt.GAME_ID
GAMES = (KW, CT, COA)
NAME = mpt.NAME
READ_HOURS = (8, 13, 21)
"""When the players read and answer their mail, local time."""
ZONES = (-8.0, 9.0)
"""The players' time zones are spread evenly over this range of UTC offsets."""
MAX_ROUNDS = 60
MAX_DAYS = 400.0
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
"""The GM creates the game on a Monday morning, UTC."""

_CHOICES = re.compile(r"^Your choices include(?: \(and (\d+) more\))?:\n((?:  .*\n?)+)", re.M)


def listed_lines(text: str) -> list[str]:
    """The lines a request of the judge lists ("Your choices include:")."""
    found = _CHOICES.search(text)
    if not found:
        return []
    return [line.strip() for line in found.group(2).splitlines() if line.strip()]


def zones(seats: int) -> list[float]:
    """The UTC offsets (hours) of ``seats`` players, spread over ZONES, whole hours."""
    lo, hi = ZONES
    if seats == 1:
        return [lo]
    return [float(round(lo + (hi - lo) * i / (seats - 1))) for i in range(seats)]


def next_reading(after: datetime, offset_hours: float) -> datetime:
    """The first of the player's reading times (READ_HOURS local) at or after ``after``."""
    tz = timezone(timedelta(hours=offset_hours))
    local = after.astimezone(tz)
    for day in range(2):
        base = (local + timedelta(days=day)).replace(hour=0, minute=0, second=0, microsecond=0)
        for hour in READ_HOURS:
            moment = base.replace(hour=hour)
            if moment >= local:
                return moment.astimezone(UTC)
    raise AssertionError("unreachable: a reading time comes every day")


# --------------------------------------------------------------------------- players


class _Reading:
    """What a player of this bench adds to one of ``bench/mails_per_turn.py``:
    its time zone, when its unread mail arrived, and the request being read,
    so that the first line it picks is one the request lists."""

    offset: float
    arrived: list[datetime]
    request: mpt.Mail | None
    listed_picks: int
    unlisted_picks: int

    def _reading_init(self, offset: float, standing: bool) -> None:
        self.offset = offset
        self.arrived = []
        self.request = None
        self.listed_picks = 0
        self.unlisted_picks = 0
        if not standing:
            self.setup_sent = True  # no standing answers: nothing to send before asked

    def next_reading(self) -> datetime | None:
        return next_reading(min(self.arrived), self.offset) if self.arrived else None

    def listed(self) -> list[str]:
        return listed_lines(self.request.text) if self.request is not None else []


class KwPlayer(_Reading, mpt.KwPlayer):
    """A Kingdom Wars seat; its first line is one the request lists.

    Its Play Phase is written in one mail, as the request says it may be:
    the card plays it means to make, one after another, each picked among
    the lines the position after the one before lists (its own reckoning:
    the other seats let their windows go by), using only cards it held when
    it wrote; the answers to the questions a card will ask it on the way
    (which card to take, which to discard) follow the line after ``THEN``;
    a ``REVEAL`` now and then while a general is hidden; then ``PASS``. The
    judge takes the lines as they fit and drops those that no longer do."""

    def __init__(self, seat: str, rng: random.Random, offset: float, standing: bool) -> None:
        mpt.KwPlayer.__init__(self, seat, "all", rng, True)
        self._reading_init(offset, standing)

    def read(self, mail: mpt.Mail, table: adj.Table | None) -> tuple[mpt.Outgoing | None, bool]:
        self.request = mail  # the first pick of the answer is among its lines
        try:
            return mpt.KwPlayer.read(self, mail, table)
        finally:
            self.request = None

    def pick(self, state: mpt.State, legal: Sequence[str]) -> str:
        listed, self.request = self.listed(), None  # later picks: lines written ahead
        self.listed_picks += bool(listed)
        return mpt.KwPlayer.pick(self, state, listed or legal)

    def choose(self, state: mpt.State, decision: Decision) -> tuple[list[str], list[str]]:
        ask = state["asks"][-1] if state.get("stage") == "play" and state["asks"] else None
        if ask is None or ask["kind"] != "play" or decision.kind is not DecisionKind.ACTION:
            return mpt.KwPlayer.choose(self, state, decision)
        return self.write_turn(state)

    def write_turn(self, state: mpt.State) -> tuple[list[str], list[str]]:
        """The rest of the Play Phase in one mail (see the class)."""
        role = self.role
        known = {label(c) for c in state["p"][role]["hand"]}
        lines: list[str] = []
        hidden = [i for i, shown in enumerate(state["p"][role]["shown"]) if not shown]
        listed = self.listed()
        reveals = [x for x in listed if x.startswith("REVEAL ")]
        if hidden and reveals and self.rng.random() < 0.25:
            lines.append(self.rng.choice(reveals))
        s: mpt.State | None = state
        first = True
        for _ in range(WRITE_AHEAD):
            assert s is not None
            legal = KW_GAME.legal(s, role)
            fits = [x for x in legal if _known_cards_only(s, role, x, known)]
            line = self.pick(s, listed if first and listed else fits or ["PASS"])
            if first:
                self.request = None
            first = False
            lines.append(line)
            if line == "PASS":
                break
            s, answers = _reckon(s, role, line, self.pick)
            if answers:
                lines[-1] += "".join(f" THEN {a}" for a in answers)
            if s is None or _play_ask(s) is None:
                break  # the turn goes somewhere the seat cannot foresee
        return lines, []


WRITE_AHEAD = 8
"""At most this many lines of a Play Phase written in one mail."""


def _play_ask(state: mpt.State) -> dict[str, Any] | None:
    if state.get("stage") != "play" or not state["asks"]:
        return None
    top: dict[str, Any] = state["asks"][-1]
    return top if top["kind"] == "play" else None


def _known_cards_only(state: mpt.State, role: str, line: str, known: set[str]) -> bool:
    """Whether ``line`` names no card of ``role``'s hand but those it held
    when it began writing (a card drawn since is unknown to it)."""
    return all(label(c) in known or label(c) not in line for c in state["p"][role]["hand"])


def _reckon(state: mpt.State, role: str, line: str,
            pick: Any) -> tuple[mpt.State | None, list[str]]:
    """The position after ``line`` as the writer reckons it: the other seats
    let every window go by (so does the writer: its own answers are asked
    or standing); the questions the card asks the writer are answered by
    ``pick``, and returned, to be written after ``THEN``. None when the
    line does not fit or the turn leaves the Play Phase."""
    rng = Rng(bytes(32), 0)
    try:
        s, _ = KW_GAME.act(state, role, KW_GAME.parse(state, role, line), rng)
    except RuleError:
        return None, []
    answers: list[str] = []
    for _ in range(200):
        if s.get("stage") != "play" or not s["asks"]:
            return None, answers
        top = s["asks"][-1]
        if top["kind"] == "play":
            return (s if role in top["roles"] else None), answers
        who = top["roles"][0] if top["roles"] else None
        if who is None:
            return None, answers
        if top["kind"] in ("choose", "cards") and who == role:
            reply = pick(s, KW_GAME.legal(s, role))
            answers.append(reply)
        elif top["kind"] in ("respond", "negate", "trigger", "reveal"):
            reply = "PASS"
        else:
            return None, answers  # another seat's choice: its answer is unknown
        try:
            s, _ = KW_GAME.act(s, who, KW_GAME.parse(s, who, reply), rng)
        except RuleError:
            return None, answers
    return None, answers


class CoaPlayer(_Reading, mpt.Player):
    """A Conflict of Alliances side; its first line is one the request lists."""

    def __init__(self, side: str, rng: random.Random, offset: float, standing: bool) -> None:
        mpt.Player.__init__(self, side, "all", rng, True)
        self._reading_init(offset, standing)

    def read(self, mail: mpt.Mail, table: adj.Table | None) -> tuple[mpt.Outgoing | None, bool]:
        self.request = mail
        try:
            return mpt.Player.read(self, mail, table)
        finally:
            self.request = None

    def pick(self, state: mpt.State, legal: Sequence[str]) -> str:
        listed, self.request = self.listed(), None
        self.listed_picks += bool(listed)
        return mpt.Player.pick(self, state, listed or legal)


class CtPlayer(_Reading, mpt.CtPlayer):
    """A Conquest Tactics side: the bot of ``bench/balance.py``; a first
    line of its that the request does not list counts in ``unlisted_picks``.

    It writes ahead what it can decide from the report in hand, as the
    game's README tells players to: asked in Up the Field, its moves up and
    then its whole Mobilize (which passes the rest of Up the Field for it and
    is held for the Mobilize), ending with DONE; asked in the Play phase,
    its next actions while it keeps control, past the opponent's instant
    windows (taking the opponent to let them go, as it mostly does), up to
    the first card drawn or random draw."""

    def __init__(self, side: str, rng: random.Random, offset: float, standing: bool) -> None:
        mpt.CtPlayer.__init__(self, side, "all", rng, True)
        self._reading_init(offset, standing)

    def read(self, mail: mpt.Mail, table: adj.Table | None) -> tuple[mpt.Outgoing | None, bool]:
        self.request = mail
        try:
            return mpt.CtPlayer.read(self, mail, table)
        finally:
            self.request = None

    def _sim(self, state: mpt.State, who: str, line: str) -> tuple[mpt.State, bool] | None:
        """``line`` of ``who`` acted on a copy; whether it drew anything for this side."""
        rng = Rng(bytes(32), 0)
        try:
            new, _ = CT_GAME.act(state, who, CT_GAME.parse(state, who, line), rng)
        except RuleError:
            return None
        fresh = bool(rng.draws) or (len(new["p"][self.role]["hand"])
                                    > len(state["p"][self.role]["hand"]))
        return new, fresh

    def _due(self, state: mpt.State) -> Decision | None:
        due = live(CT_GAME.pending(state))
        return due[0] if due else None

    def _turn_ahead(self, state: mpt.State, first: str) -> list[str]:
        """Up the Field and the Mobilize in one mail (the opponent taken to pass)."""
        other = "North" if self.role == "South" else "South"
        lines: list[str] = []
        s, line = state, first
        for _ in range(24):
            d = self._due(s)
            if s["stage"] != "up" or d is None:
                break
            if self.role not in d.roles:
                step = self._sim(s, other, "PASS")
            else:
                line = line or self.bot.choose(s, d)
                if not line.startswith("MOVE"):
                    break
                lines.append(line)
                step = self._sim(s, self.role, line)
                line = ""
            if step is None:
                break
            s = step[0]
        for _ in range(24):  # the rest of Up the Field passes: on to the Mobilize
            d = self._due(s)
            if s["stage"] != "up" or d is None:
                break
            step = self._sim(s, d.roles[0], "PASS")
            if step is None:
                break
            s = step[0]
        if s["stage"] != "mobilize":
            return lines or [first]
        for _ in range(24):
            line = self.bot.mobilize(s)
            lines.append(line)
            step = self._sim(s, self.role, line) if line != "DONE" else None
            if step is None:
                break
            s = step[0]
        if lines[-1] != "DONE":
            lines.append("DONE")
        return lines

    def _play_ahead(self, state: mpt.State, first: str) -> list[str]:
        """The Play phase: its own next actions, taking the opponent to let
        its instant windows go and to pass when it has control, up to its
        own pass, which it writes as PASS ALL (the rest of the phase)."""
        other = "North" if self.role == "South" else "South"
        lines, s, line = [first], state, first
        for _ in range(24):
            if line == "PASS":
                lines[-1] = "PASS ALL"
                break
            step = self._sim(s, self.role, line)
            if step is None or step[1]:
                break
            s = step[0]
            for _ in range(8):  # the opponent lets its windows go and passes
                d = self._due(s)
                if d is None or self.role in d.roles or s["stage"] not in (
                        "play", "follow", "window"):
                    break
                passed = self._sim(s, other, "PASS" if s["stage"] != "follow" else "STOP")
                if passed is None:
                    break
                s = passed[0]
            d = self._due(s)
            if (d is None or d.kind is not DecisionKind.ACTION or self.role not in d.roles
                    or s["stage"] not in ("play", "follow")):
                break
            line = self.bot.choose(s, d)
            lines.append(line)
        return lines

    def choose(self, state: mpt.State, decision: Decision) -> tuple[list[str], list[str]]:
        lines, planned = mpt.CtPlayer.choose(self, state, decision)
        if state["stage"] == "up" and lines:
            lines = self._turn_ahead(state, lines[0])
        elif state["stage"] in ("play", "follow") and lines:
            lines = self._play_ahead(state, lines[0])
        listed = self.listed()
        if listed and lines and lines[0] in listed:
            self.listed_picks += 1
        elif listed:
            self.unlisted_picks += 1
        return lines, planned


Player = KwPlayer | CoaPlayer | CtPlayer


# --------------------------------------------------------------------------- one game


@dataclass
class GameRun:
    """One game by mail and what it took."""

    game: str
    seats: int
    index: int
    days: float = 0.0
    rounds: int = 0
    blocking: int = 0
    blocking_kinds: Counter[str] = field(default_factory=Counter)
    """The blocking requests by what they asked: the ask's kind (play,
    choose, cards, reveal) or the window's (dodge, negation, trigger, ...)."""
    windows: set[str] = field(default_factory=set)
    logged_windows: set[str] = field(default_factory=set)
    """The windows the judge's log closes (its ``close`` entries)."""
    open_windows: set[str] = field(default_factory=set)
    """The windows still open when the game ended or was stopped."""
    mails_in: int = 0
    mails_out: int = 0
    ended: bool = False
    capped: str = ""
    outcome: str = ""
    listed_picks: int = 0
    unlisted_picks: int = 0
    refused: int = 0
    """Lines of the players' mails the judge refused (from its acknowledgements)."""
    stale: int = 0
    """Requests over before their player read them."""
    turns_seen: int = 0
    started: datetime = START
    round_began: list[float] = field(default_factory=list)
    """When each round began, in days from START."""
    sent_at: list[tuple[float, datetime]] = field(default_factory=list)
    """When each answer of a player was posted, with the player's UTC offset."""

    @property
    def blocking_per_round(self) -> float:
        return self.blocking / self.rounds if self.rounds else 0.0

    @property
    def windows_per_round(self) -> float:
        return len(self.windows) / self.rounds if self.rounds else 0.0

    @property
    def round_days(self) -> list[float]:
        """How long each round took, in days (the last: to the end or the cap)."""
        began = self.round_began[:self.rounds]
        return [b - a for a, b in zip(began, [*began[1:], self.days], strict=True)]

    @property
    def days_per_round(self) -> float:
        return self.days / self.rounds if self.rounds else 0.0


def _observe(run: GameRun, rules: Game, table: adj.Table) -> None:
    """Note the windows open on the table and the rounds it has reached."""
    for d in adj.decisions(rules, table):
        if d.kind is DecisionKind.RESPONSE:
            run.windows.add(d.id)
    s = table.state
    if run.game == KW:
        if s.get("stage") != "play" or not s.get("current"):
            return
        turns = int(s["turns"])
        if turns == run.turns_seen:
            return
        seats: list[str] = list(s["seats"])
        start = seats.index(s["start"])
        order = seats[start:] + seats[:start]
        anchor = next((x for x in order if s["p"][x]["alive"]), s["start"])
        if run.rounds == 0 or s["current"] == anchor:
            run.rounds += 1  # the turn of the first living seat from the starting one
        run.turns_seen = turns
    elif isinstance(s.get("turn"), int):
        run.rounds = max(run.rounds, int(s["turn"]))


def _players(game: str, seats: int, seed: int, index: int,
             standing: bool) -> dict[str, Player]:
    offsets = zones(seats)

    def rng(side: str) -> random.Random:
        return random.Random(f"calendar/{seed}/{index}/{game}/{side}")

    if game == KW:
        names = mpt.KW_SEATS[:seats]
        return {s: KwPlayer(s, rng(s), offsets[i], standing) for i, s in enumerate(names)}
    if game == CT:
        return {s: CtPlayer(s, rng(s), offsets[i], standing)
                for i, s in enumerate(("South", "North"))}
    return {s: CoaPlayer(s, rng(s), offsets[i], standing) for i, s in enumerate((mpt.L, mpt.A))}


def play(game: str, seats: int, seed: int, index: int, *, standing: bool = False,
         max_rounds: int = MAX_ROUNDS, max_days: float = MAX_DAYS) -> GameRun:
    """Play game number ``index`` of ``game`` by mail to its end (or the cap)."""
    if game != KW:
        seats = 2
    run = GameRun(game, seats, index)
    players = _players(game, seats, seed, index, standing)
    clock = mpt.Clock()
    clock.now = START
    with tempfile.TemporaryDirectory(prefix="calendar-") as tmp:
        room = mpt.Mailroom(Path(tmp) / "home", clock)
        game_seed = hashlib.sha256(f"calendar/{seed}/{index}/{game}".encode()).digest()
        room.judge.seed_source = lambda: game_seed
        try:
            _play(run, room, players, max_rounds, max_days)
            run.logged_windows = {str(json.loads(r["payload"])["window"])
                                  for r in room.judge.store.actions(NAME)
                                  if r["kind"] == "close"}
            table = room.table()
            rules = mpt.Run("", "all", 0, 0, game=game).rules
            run.open_windows = {d.id for d in adj.decisions(rules, table)
                                if d.kind is DecisionKind.RESPONSE} if table else set()
        finally:
            room.close()
    run.listed_picks = sum(p.listed_picks for p in players.values())
    run.unlisted_picks = sum(p.unlisted_picks for p in players.values())
    run.refused = sum(sum(p.refusals.values()) for p in players.values())
    run.stale = sum(p.stale for p in players.values())
    return run


def _deliver(run: GameRun, room: mpt.Mailroom, mails: Sequence[mpt.Mail],
             by_address: dict[str, Player]) -> None:
    table = room.table() if any(m.asks for m in mails) else None
    for mail in mails:
        p = by_address.get(mail.to)
        if p is None:
            continue  # the GM's
        if mail.asks:
            run.blocking += 1
            run.blocking_kinds[_asked(run.game, table, p.role)] += 1
        p.unread.append(mail)
        p.arrived.append(room.clock.now)


def _asked(game: str, table: adj.Table | None, role: str) -> str:
    """What a request to ``role`` asks (see GameRun.blocking_kinds)."""
    if table is None:
        return "?"
    d = adj.decision_for(Game_of(game), table, role)
    if d is None:
        return "over"
    if d.window:
        return d.window
    asks = table.state.get("asks") if game == KW else None
    return str(asks[-1]["kind"]) if asks else d.kind.value


def Game_of(game: str) -> Game:
    return mpt.Run("", "all", 0, 0, game=game).rules


def _send(room: mpt.Mailroom, p: Player, lines: list[str], reply: mpt.Mail | None) -> str:
    room.clock.advance(mpt.MINUTES_PER_MAIL)
    subject = f"Re: {reply.subject}" if reply is not None else "orders"
    mid = room.post(p.address, subject, "\n".join(lines) + "\n", reply)
    p.sent[mid] = 0
    return mid


def _play(run: GameRun, room: mpt.Mailroom, players: dict[str, Player],
          max_rounds: int, max_days: float) -> None:
    rules = mpt.Run("", "all", 0, 0, game=run.game).rules
    by_address: dict[str, Player] = {p.address: p for p in players.values()}
    # Set-up, by mail and at once (not part of the calendar): CREATE, JOINs, START.
    options = {KW: f"seats={run.seats}", CT: "south=humans north=malice"}.get(
        run.game, "scenario=five-kingdoms")
    room.post(mpt.GM_ADDRESS, "new game", f"CREATE {NAME} {run.game} {options}\n")
    gm_token = mpt._token(next(m for m in room.cycle() if m.to == mpt.GM_ADDRESS), "GM")
    for side, p in players.items():
        _send(room, p, [f"JOIN {NAME} {side}"], None)
        mails = room.cycle()
        p.token = mpt._token(next(m for m in mails if m.to == p.address), "secret")
    room.cycle()
    room.clock.advance(mpt.MINUTES_PER_MAIL)
    room.post(mpt.GM_ADDRESS, "start", f"SIGNON {NAME} GM {gm_token}\nSTART\n")
    started = run.started = room.clock.now
    _deliver(run, room, room.cycle(), by_address)

    for _ in range(1_000_000):
        table = room.table()
        assert table is not None
        _observe(run, rules, table)
        run.days = (room.clock.now - started).total_seconds() / 86400
        while len(run.round_began) < run.rounds:
            run.round_began.append(run.days)
        if table.outcome is not None:
            run.ended = True
            o = table.outcome
            winners = ", ".join(o.get("winners") or []) or "nobody"
            run.outcome = "a draw" if o.get("draw") else f"won by {winners}"
            return
        if run.rounds > max_rounds:
            run.capped = f"{max_rounds} rounds"
            run.rounds = max_rounds
            return
        if run.days > max_days:
            run.capped = f"{max_days:g} days"
            return
        now = room.clock.now
        reading = [p for p in players.values() if (t := p.next_reading()) is not None
                   and t <= now]
        if reading:
            outgoing: list[mpt.Outgoing] = []
            for p in reading:
                unread, p.unread, p.arrived = p.unread, [], []
                for mail in unread:
                    out, _new = p.read(mail, table)
                    if out is not None:
                        outgoing.append(out)
            for out in outgoing:
                p = by_address[out.player.address]
                head = f"SIGNON {NAME} {p.role} {p.token}"
                _send(room, p, [head, *out.lines], out.reply_to)
                run.mails_in += 1
                run.sent_at.append((p.offset, room.clock.now))
                _deliver(run, room, room.cycle(), by_address)
            continue
        moments = [t for p in players.values() if (t := p.next_reading()) is not None]
        due = room.judge.next_due()
        if due is not None:
            moments.append(due)
        if not moments:
            waiting = sorted(adj.waiting_on(rules, table))
            raise RuntimeError(f"{run.game}: nothing is due and nobody has mail to read; "
                               f"the game waits for {waiting or 'nobody'} at "
                               f"{adj.phase_key(rules, table)}")
        room.clock.now = max(min(moments), now)
        _deliver(run, room, room.cycle(), by_address)
    raise RuntimeError(f"{run.game}: the game did not end")


# --------------------------------------------------------------------------- output


@dataclass
class Summary:
    game: str
    seats: int
    runs: list[GameRun]

    def median(self, what: str) -> float:
        return float(statistics.median(getattr(r, what) for r in self.runs))

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": self.seats,
            "games": len(self.runs),
            "median_days": round(self.median("days"), 2),
            "median_rounds": self.median("rounds"),
            "blocking_per_round": round(self.median("blocking_per_round"), 2),
            "windows_per_round": round(self.median("windows_per_round"), 2),
            "median_days_per_round": round(self.median("days_per_round"), 2),
            "median_days_by_round": [round(d, 2) for d in self.by_round()],
            "capped": sum(bool(r.capped) for r in self.runs),
            "blocking_kinds_per_round": self.kinds_per_round(),
        }

    def kinds_per_round(self) -> dict[str, float]:
        """Blocking requests a round by what they asked, over all the games."""
        rounds = sum(r.rounds for r in self.runs) or 1
        total: Counter[str] = Counter()
        for r in self.runs:
            total.update(r.blocking_kinds)
        return {k: round(v / rounds, 2) for k, v in total.most_common()}

    def by_round(self) -> list[float]:
        """The median length in days of round 1, 2, ... over the games that
        played it (while at least half of the games did)."""
        out: list[float] = []
        for i in range(MAX_ROUNDS):
            lengths = [r.round_days[i] for r in self.runs if len(r.round_days) > i]
            if 2 * len(lengths) < len(self.runs) or not lengths:
                break
            out.append(float(statistics.median(lengths)))
        return out


def measure(game: str, seats: int, games: int, seed: int, *, standing: bool = False,
            max_rounds: int = MAX_ROUNDS, max_days: float = MAX_DAYS) -> Summary:
    """``games`` games of ``game``, numbered 1 to ``games``."""
    set_kdf_cost(2**8)  # tokens of a throw-away home only: scrypt at full cost is slow
    runs = [play(game, seats, seed, i, standing=standing, max_rounds=max_rounds,
                 max_days=max_days) for i in range(1, games + 1)]
    return Summary(game, runs[0].seats if runs else seats, runs)


def print_summary(s: Summary) -> None:
    print(f"{s.game}, {s.seats} seats, {len(s.runs)} game(s):")
    print(f"  {'game':>4} {'rounds':>6} {'days':>7} {'d/round':>7} {'blocking':>8} "
          f"{'b/round':>7} {'windows':>7} {'w/round':>7} {'mails in':>8} {'refused':>7}  end")
    for r in s.runs:
        end = r.outcome if r.ended else f"stopped at {r.capped}"
        print(f"  {r.index:>4} {r.rounds:>6} {r.days:>7.1f} {r.days_per_round:>7.2f} "
              f"{r.blocking:>8} {r.blocking_per_round:>7.1f} {len(r.windows):>7} "
              f"{r.windows_per_round:>7.1f} {r.mails_in:>8} {r.refused:>7}  {end}")
    j = s.to_json()
    print(f"  median: {j['median_rounds']:g} rounds, {j['median_days']:.1f} days a game, "
          f"{j['median_days_per_round']:.2f} days a round, {j['blocking_per_round']:g} "
          f"blocking requests and {j['windows_per_round']:g} response windows a round"
          + (f"; {j['capped']} game(s) stopped by the cap" if j["capped"] else ""))
    rounds = ", ".join(f"{i}: {d:.1f}" for i, d in enumerate(j["median_days_by_round"], 1))
    print(f"  days a round, median over the games that played it: {rounds}")
    print()


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--game", choices=GAMES, action="append",
                    help="only this game (may be given more than once; default all three)")
    ap.add_argument("--seats", type=int, default=6, choices=range(3, 7), metavar="3..6",
                    help="Kingdom Wars seats (default 6; the other games have two)")
    ap.add_argument("--games", type=int, default=3, help="games per kind (default 3)")
    ap.add_argument("--seed", type=int, default=1, help="players' and games' seed (default 1)")
    ap.add_argument("--json", action="store_true", help="one JSON object per game kind")
    ap.add_argument("--standing", action="store_true",
                    help="players send the standing answers of bench/mails_per_turn.py")
    ap.add_argument("--max-rounds", type=int, default=MAX_ROUNDS,
                    help=f"stop a game after this many rounds (default {MAX_ROUNDS})")
    ap.add_argument("--max-days", type=float, default=MAX_DAYS,
                    help=f"stop a game after this many days (default {MAX_DAYS:g})")
    args = ap.parse_args(list(argv) if argv is not None else None)
    if args.games < 1:
        ap.error("--games must be at least 1")
    if not args.json:
        print(f"By mail: players read and answer at {', '.join(f'{h:02d}:00' for h in READ_HOURS)} "
              f"local time in zones from UTC{ZONES[0]:+g} to UTC{ZONES[1]:+g}; default game "
              f"settings; {'standing answers sent' if args.standing else 'no standing answers'};"
              f" seed {args.seed}; cap {args.max_rounds} rounds or {args.max_days:g} days.\n")
    for game in args.game or GAMES:
        s = measure(game, args.seats, args.games, args.seed, standing=args.standing,
                    max_rounds=args.max_rounds, max_days=args.max_days)
        if args.json:
            print(json.dumps(s.to_json()), flush=True)
        else:
            print_summary(s)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
