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
The players read their mail at 08:00, 13:00 and 21:00 local time, in zones
spread evenly from UTC-8 to UTC+9 (six seats: UTC-8, -5, -1, +2, +6, +9).
The reading model (``--reading``): ``human``, the default, skips 15% of those
readings (a seeded draw per player and reading time) and keeps one seat of
each game away for 48 hours once, reading nothing, from a moment drawn within
the first ten days; ``steady`` keeps every reading. At a reading a player
reads what had arrived, answers the newest mail that asks it to decide (one
reply, 5 minutes a mail), and reads nothing else until its next reading.

The players decide only from the mails they received (:class:`MailPlayer`):
never from the judge's state. A player writes only when a mail asks it to
decide (its body says "You owe:"); its lines are among those the request
lists (``Your choices``, each compact line read as every line it stands
for: ``listed_lines``), or built from the report above them (its hand, the
board, the table) and the rulebook's card texts; what it writes ahead is
what the request says may be written ahead, and the judge takes it as it
fits. Kingdom Wars: its Play Phase in one mail (some of the cards the
request lists, at most one Attack, then ``PASS``); windows, choices and
reveals among the listed lines; its generals from the ones dealt.
Conflict of Alliances: the choices of ``bench/mails_per_turn.py``'s players
among the listed lines, and two more plays face down written ahead as a
plan. Conquest Tactics: the bot of ``bench/balance.py`` played from the
report's text (the troops list and the rulebook's cards), its Up the Field
and Mobilize (among the listed Mobilize lines) and first blows in one mail,
its Play phase as a plan. Players send no standing answers (``POLICY``)
unless ``--standing``, which sends those of ``bench/mails_per_turn.py`` with
the first mail.

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
        [--reading human|steady] [--max-rounds R] [--max-days D]

Without ``--game`` all three are played. ``--json`` prints one object per
game kind: ``game``, ``seats``, ``games``, ``median_days``, ``days`` (each
game's), ``median_rounds``, ``blocking_per_round``, ``windows_per_round``
(medians over the games), ``capped`` (games stopped by the cap),
``blocking_kinds_per_round``, ``refused_lines`` and ``unread_choices``
(requests whose choices the players could not read: 0).
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
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
from bench.balance import KILL_BONUS, SUPPORT_WORTH  # noqa: E402
from judge.game import adjudicator as adj  # noqa: E402
from judge.game import choices  # noqa: E402
from judge.game.engine import DecisionKind  # noqa: E402
from judge.game.spec import Game  # noqa: E402
from judge.store import set_kdf_cost  # noqa: E402
from judge_games.conquest_tactics import field as CT_FIELD  # noqa: E402
from judge_games.conquest_tactics.cards import POOL as CT_POOL  # noqa: E402

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

_CHOICES = re.compile(r"^Your choices(?: \([^)\n]*\))?:\n((?:  .*\n?)+)", re.M)
EXPANDED_MOST = 2000
"""At most this many lines read from one compact line of a request."""


def listed_lines(text: str) -> list[str]:
    """Every line a request of the judge lists ("Your choices:"), a compact
    line (``USE Attack S7 ON B|C``) read as every line it stands for: one
    word taken at each ``|`` (judge/game/choices.py)."""
    found = _CHOICES.search(text)
    if not found:
        return []
    out: list[str] = []
    for line in found.group(1).splitlines():
        words = [w.split(choices.BAR) for w in line.split()]
        if not words:
            continue
        out.extend(" ".join(p) for p in itertools.islice(itertools.product(*words),
                                                          EXPANDED_MOST))
    return list(dict.fromkeys(out))


def zones(seats: int) -> list[float]:
    """The UTC offsets (hours) of ``seats`` players, spread over ZONES, whole hours."""
    lo, hi = ZONES
    if seats == 1:
        return [lo]
    return [float(round(lo + (hi - lo) * i / (seats - 1))) for i in range(seats)]


def next_reading(after: datetime, offset_hours: float,
                 hours: Sequence[int] = READ_HOURS) -> datetime:
    """The first of the player's reading times (``hours`` local) at or after ``after``."""
    tz = timezone(timedelta(hours=offset_hours))
    local = after.astimezone(tz)
    for day in range(2):
        base = (local + timedelta(days=day)).replace(hour=0, minute=0, second=0, microsecond=0)
        for hour in hours:
            moment = base.replace(hour=hour)
            if moment >= local:
                return moment.astimezone(UTC)
    raise AssertionError("unreachable: a reading time comes every day")


# --------------------------------------------------------------------------- players


@dataclass(frozen=True)
class Reading:
    """When the players read their mail: at ``hours`` local time, skipping
    a share ``skip`` of those readings, and one seat of each game away for
    ``absence_hours`` once (reading nothing), beginning at a moment drawn
    within ``absence_within_days`` of the start."""

    hours: tuple[int, ...] = READ_HOURS
    skip: float = 0.15
    absence_hours: float = 48.0
    absence_within_days: float = 10.0


HUMAN = Reading()
"""The default reading model: three readings a day, 15% skipped, one absence of 48 hours."""
STEADY = Reading(skip=0.0, absence_hours=0.0)
"""Every reading kept and nobody away (``--reading steady``)."""
READINGS = {"human": HUMAN, "steady": STEADY}


def _unit(*parts: object) -> float:
    """A number in [0, 1) that depends only on ``parts`` (a seeded draw that
    does not move any other)."""
    digest = hashlib.sha256("/".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


class MailPlayer:
    """A seat that decides only from the mails it received.

    It reads its mail at its reading times (see :class:`Reading`); at each it
    answers the newest request among what arrived (an older request is over
    by then, or asks the same again) with one mail, and nothing else. Its
    lines come from that mail's text: the request's choices (``Your
    choices``), the report above them (the board, its hand, the table), and
    the rulebook's card texts, which every player may read. It never sees the
    judge's state: what it writes ahead is a guess the judge takes as it
    fits."""

    game = ""

    def __init__(self, role: str, address: str, rng: random.Random, offset: float,
                 reading: Reading, key: str, standing: list[str] | None) -> None:
        self.role = role
        self.address = address
        self.rng = rng
        self.offset = offset
        self.reading = reading
        self.key = key
        self.away: tuple[datetime, datetime] | None = None
        self.standing = standing or []
        self.token = ""
        self.unread: list[mpt.Mail] = []
        self.arrived: list[datetime] = []
        self.sent: dict[str, int] = {}
        self.refusals: Counter[str] = Counter()
        self.stale = 0
        self.listed_picks = 0
        self.unlisted_picks = 0
        self.unparsed = 0
        """Requests with choices the player could not read (should stay 0)."""
        self.skipped = 0

    # ------------------------------------------------------------------ when

    def reads_at(self, moment: datetime) -> bool:
        """Whether the player reads its mail at this reading time."""
        if self.away is not None and self.away[0] <= moment < self.away[1]:
            return False
        return _unit(self.key, self.role, moment.isoformat()) >= self.reading.skip

    def next_reading(self) -> datetime | None:
        if not self.arrived:
            return None
        moment = next_reading(min(self.arrived), self.offset, self.reading.hours)
        for _ in range(400):
            if self.reads_at(moment):
                return moment
            moment = next_reading(moment + timedelta(minutes=1), self.offset,
                                  self.reading.hours)
        raise AssertionError("a player who never reads its mail")

    # ------------------------------------------------------------------ what

    def read_all(self, mails: Sequence[mpt.Mail]) -> list[str] | None:
        """The lines of the one mail the player writes on reading ``mails``
        (None: nothing asks it to)."""
        for mail in mails:
            for why in mail.refusals():
                self.refusals[why] += 1
        requests = [m for m in mails if m.asks]
        if not requests:
            return None
        self.stale += len(requests) - 1
        lines = self.answer(requests[-1])
        if self.standing:
            lines, self.standing = [*self.standing, *lines], []
        return lines

    def answer(self, mail: mpt.Mail) -> list[str]:
        listed = listed_lines(mail.text)
        if listed:
            self.listed_picks += 1
        elif "\nYour choices" in mail.text:
            self.unparsed += 1
        return self.decide(mail.text, listed)

    def decide(self, text: str, listed: list[str]) -> list[str]:
        raise NotImplementedError


def _owe(text: str) -> str:
    found = re.search(r"^You owe: (.*)$", text, re.M)
    return found.group(1) if found else ""


# --------------------------------------------------------------------------- Kingdom Wars

_DEALT = re.compile(r"^  ([^(\n]+?) \((\w+), \d half-circles\)", re.M)


def _kw_card(line: str) -> str:
    """The card a USE line plays: the one after WITH (a skill's), else the one used."""
    words = line.split(" ON ")[0]
    return words.split(" WITH ", 1)[1] if " WITH " in words else words[len("USE "):]


class KwMailPlayer(MailPlayer):
    """A Kingdom Wars seat reading its mail.

    Its Play Phase is written in one mail, as the request says it may be:
    among the cards the request lists, each it plays with a chance of four in
    five (at most one Attack), in a random order, each with a target the
    request lists; a ``REVEAL`` now and then while a general is hidden; then
    ``PASS``. What a card then asks it is asked by the judge. Any other
    request it answers with one of the listed lines (a Dodge, Peach or
    Negation when offered seven times in ten; a reveal in the Preparation
    Phase one time in four). Generals: two of one kingdom among those dealt."""

    game = KW

    def decide(self, text: str, listed: list[str]) -> list[str]:
        rng = self.rng
        if not listed:
            return self._generals(text)
        uses = [x for x in listed if x.startswith("USE ")]
        reveals = [x for x in listed if x.startswith("REVEAL ")]
        if uses and "whole Play Phase" in text:
            return self._turn(uses, reveals)
        answers = [x for x in listed if x.split()[0] in ("DODGE", "ATTACK", "NEGATE", "PEACH",
                                                         "WINE")]
        if uses:  # a skill's moment
            return [rng.choice(uses) if rng.random() < 0.8 or "PASS" not in listed else "PASS"]
        if reveals and "PASS" in listed:  # the Preparation Phase
            return [rng.choice(reveals) if rng.random() < 0.25 else "PASS"]
        if answers:
            return [rng.choice(answers) if rng.random() < 0.7 or "PASS" not in listed
                    else "PASS"]
        return [rng.choice(listed)]

    def _generals(self, text: str) -> list[str]:
        block = text.split("Generals dealt to you:", 1)
        if len(block) < 2:
            return []  # an orders request the player cannot read: the default stands
        dealt = _DEALT.findall(block[1].split("\n\n", 1)[0])
        kingdoms: dict[str, list[str]] = {}
        for name, kingdom in dealt:
            kingdoms.setdefault(kingdom, []).append(name.strip())
        pairs = [k for k, names in sorted(kingdoms.items()) if len(names) >= 2]
        if not pairs:
            return []
        chosen = kingdoms[self.rng.choice(pairs)]
        main, second = self.rng.sample(chosen, 2)
        return [f"GENERALS {main} AND {second}"]

    def _turn(self, uses: list[str], reveals: list[str]) -> list[str]:
        rng = self.rng
        lines: list[str] = []
        if reveals and rng.random() < 0.25:
            lines.append(rng.choice(reveals))
        by_card: dict[str, list[str]] = {}
        for x in uses:
            by_card.setdefault(_kw_card(x), []).append(x)
        cards = sorted(by_card)
        rng.shuffle(cards)
        attacked = False
        for c in cards:
            if len(lines) >= WRITE_AHEAD or rng.random() >= 0.8:
                continue
            if c.startswith("Attack ") and not c.startswith("Attack by"):
                if attacked:
                    continue
                attacked = True
            lines.append(rng.choice(by_card[c]))
        return [*lines, "PASS"]


WRITE_AHEAD = 8
"""At most this many card plays of a Play Phase written in one mail."""


# --------------------------------------------------------------------------- Conflict of Alliances


class CoaMailPlayer(MailPlayer):
    """A Conflict of Alliances side reading its mail: the choices of
    ``bench/mails_per_turn.py``'s players (play a card most of the time, face
    up or down, a military operation half the time; respond in a window six
    times in ten), among the lines the request lists, and after a play up to
    COA_AHEAD more plays face down written ahead (the request says they are
    a plan the judge takes while the areas they name are unchanged); an
    orders request that lists none (its losses) it answers with an empty
    ``ORDERS`` block, which takes the default the request names."""

    game = COA

    def decide(self, text: str, listed: list[str]) -> list[str]:
        if not listed:
            return ["ORDERS", "END"]
        if any(x.startswith("PLAY ") for x in listed):
            stage = "action"
        elif "window" in _owe(text):
            stage = "window"
        elif "SKIP" in listed:
            stage = "step"
        else:
            stage = "other"
        first = self._pick(stage, listed)
        if stage != "action" or "a plan" not in _owe(text) or first == "PASS":
            return [first]
        return self._plan(text, listed, first)

    def _pick(self, stage: str, listed: list[str]) -> str:
        return mpt.Player.pick(self, {"stage": stage}, listed)  # type: ignore[arg-type]

    def _plan(self, text: str, listed: list[str], first: str) -> list[str]:
        """The play picked, then (as the request says the judge takes them
        while the areas they name are unchanged) up to COA_AHEAD more plays
        face down of other cards, each on areas no earlier line names."""
        areas = {re.sub(r"\s+", "-", m.strip().lower()) for m in _AREA.findall(text)}
        lines, cards = [first], {first.split()[1]}
        named = {w for w in first.split() if w in areas}
        for _ in range(4 * COA_AHEAD):
            if len(lines) > COA_AHEAD:
                break
            line = self._pick("action", [x for x in listed if x.startswith("PLAY ")
                                         and x.split()[1] not in cards and " FACEDOWN " in x])
            words = line.split()
            if line == "PASS" or not {w for w in words if w in areas}.isdisjoint(named):
                continue
            lines.append(line)
            cards.add(words[1])
            named |= {w for w in words if w in areas}
        return lines


_AREA = re.compile(r"^  (\S.*?)\s+\d+ RP ", re.M)
COA_AHEAD = 2
"""At most this many Conflict of Alliances plays written ahead of the one asked for."""


# --------------------------------------------------------------------------- Conquest Tactics

_TROOP = re.compile(
    r"^  ([A-E][1-5]) (South|North) (.+?) \(level (\d+)\): (\d+)/(\d+) health, defense (\d+), "
    r"attack (\d+) for (\d+) TP, counter \d+, range ([\d-]+), movement (\d+)", re.M)
_BASE = re.compile(r"^(South|North) \(.*?(\d+) TP;.*?base .+? at ([A-E][1-5]) (\d+)/\d+", re.M)
_HAND = re.compile(r"^Your hand: (.*)$", re.M)
_INCOMING = re.compile(r"(\d+) incoming damage")


@dataclass
class CtView:
    """What one Conquest Tactics report tells its reader: the troops (in the
    reader's frame), the bases, each side's Tactical Points, its hand."""

    troops: dict[str, dict[str, Any]]
    bases: dict[str, tuple[str, int]]
    tp: dict[str, int]
    hand: list[str]

    @classmethod
    def read(cls, text: str) -> CtView:
        troops = {m[1]: {"owner": m[2], "name": m[3], "level": int(m[4]), "left": int(m[5]),
                         "defense": int(m[7]), "attack": int(m[8]),
                         "cost": int(m[9]), "range": _span(m[10]), "movement": int(m[11])}
                  for m in _TROOP.finditer(text)}
        bases = {m[1]: (m[3], int(m[4])) for m in _BASE.finditer(text)}
        tp = {m[1]: int(m[2]) for m in _BASE.finditer(text)}
        found = _HAND.search(text)
        hand = []
        if found and found.group(1) != "empty":
            hand = [re.sub(r"^\d+ ", "", x.strip()) for x in found.group(1).split(", ")]
        return cls(troops, bases, tp, hand)


PLAN_AHEAD = 8
"""At most this many lines of a Conquest Tactics Play phase written in one mail."""


def _actor(line: str) -> str:
    """The troop a Play line acts with (its space), or the line itself."""
    words = line.split()
    if words[0] == "ATTACK" and len(words) == 3:
        return words[1]
    return words[words.index("FROM") + 1] if "FROM" in words[:-1] else line


def _span(text: str) -> tuple[int, int]:
    lo, _, hi = text.partition("-")
    return int(lo), int(hi or lo)


def _ct_card(word: str) -> Any:
    try:
        return CT_POOL.card(word)
    except KeyError:
        found = CT_POOL.lookup(word)
        return found[0] if found else None


class CtMailPlayer(MailPlayer):
    """A Conquest Tactics side reading its mail: the bot of
    ``bench/balance.py`` played from the report's text.

    Play: the listed line worth most (damage after defense from the Troops
    list and the rulebook's card texts, a kill worth more; a buff, debuff,
    circumstance or trophy a little less; else the move that brings a troop
    nearest an enemy card; else ``PASS``). An instant window: an instant
    when the prompt says 3 or more damage is coming. Up the Field: every
    listed move up, the troop behind each moved one following it, then its
    Mobilize among the lines the request lists for it (the request says
    they are held for it), ``DONE``, and the first blows of its Play phase
    (each troop's best attack once its moves are made). Mobilize: an
    upgrade, the costliest troop it can pay for on its front row,
    equipment, spells and skills to learn, as its Tactical Points allow,
    then ``DONE``."""

    game = CT

    @property
    def other(self) -> str:
        return "North" if self.role == "South" else "South"

    def decide(self, text: str, listed: list[str]) -> list[str]:
        view = CtView.read(text)
        owe = _owe(text)
        if not listed:
            return ["BASE C1"] if "Base" in owe else ["ORDERS", "END"]
        if "DEPLOY" in listed[0] and "deployment" in owe:
            front = [x for x in listed if x.split()[-1].endswith("2")]
            return [self.rng.choice(front or listed)]
        if "Up the Field" in owe:
            return self._up(view, listed)
        if "Mobilize" in owe or "DONE" in listed:
            return [*self._mobilize(view, listed), "DONE"]
        if "incoming damage" in owe:
            found = _INCOMING.search(owe)
            answers = [x for x in listed if x != "PASS"]
            if found and int(found.group(1)) >= 3 and answers:
                return [answers[0]]
            return ["PASS"]
        return self._play(view, listed)

    # ------------------------------------------------------------------ Play

    def _targets(self, view: CtView) -> dict[str, tuple[int, int]]:
        """Enemy cards: space -> (defense, health left)."""
        out = {at: (t["defense"], t["left"]) for at, t in view.troops.items()
               if t["owner"] != self.role}
        base = view.bases.get(self.other)
        if base and base[0] not in out:
            out[base[0]] = (0, base[1])
        return out

    def _worth(self, view: CtView, line: str) -> float:
        words = line.split()
        verb = words[0]
        foes = self._targets(view)
        if verb == "ATTACK" and len(words) == 3:
            me, foe = view.troops.get(words[1]), foes.get(words[2])
            if me is None or foe is None:
                return 0.0
            dealt = max(0, int(me["attack"]) - foe[0])
            return dealt + (KILL_BONUS if dealt and dealt >= foe[1] else 0)
        if verb in ("CAST", "USE") and len(words) >= 2:
            k = _ct_card(words[1])
            if k is None:
                return 0.0
            if k.kind in ("buff", "debuff"):
                return SUPPORT_WORTH
            if k.kind != "offensive" or len(words) < 5:
                return 0.0
            foe, me = foes.get(words[2]), view.troops.get(words[4])
            if foe is None:
                return 0.0
            dmg = k.damage + (me["attack"] if me is not None and k.damage_is_bonus else 0)
            dealt = max(0, dmg - foe[0])
            return dealt + (KILL_BONUS if dealt and dealt >= foe[1] else 0) - 1 if dealt else 0.0
        if verb in ("PLAY", "REDEEM"):
            return SUPPORT_WORTH
        return 0.0

    def _advance(self, view: CtView, moves: list[str]) -> str | None:
        foes = list(self._targets(view))
        best: tuple[int, str] | None = None
        for line in moves:
            words = line.split()
            if len(words) != 3 or not foes:
                continue
            t = view.troops.get(words[1])
            if t is None or not t["attack"]:
                continue
            now = min(CT_FIELD.distance(words[1], f) for f in foes)
            if now <= max(t["range"][0], 1):
                continue  # close enough: it waits for its points
            gain = now - min(CT_FIELD.distance(words[2], f) for f in foes)
            if gain > 0 and (best is None or gain > best[0]):
                best = (gain, line)
        return best[1] if best else None

    def _play(self, view: CtView, listed: list[str]) -> list[str]:
        """The best line, then a plan for the rest of its Tactical Points
        (the request says the judge takes it while the opponent changes
        nothing of this side's, and asks when it does): the next best blows
        of other troops, then a move up (with STOP) of troops that have
        nothing to hit; ``PASS ALL`` when the plan leaves points unspent."""
        if "STOP" in listed:  # after a move: a blow of the troop that moved, or STOP
            scored = [(self._worth(view, x), x) for x in listed]
            top = max((w for w, _ in scored), default=0.0)
            return [self.rng.choice(sorted(x for w, x in scored if w == top))
                    if top > 0 else "STOP"]
        scored = sorted(((self._worth(view, x), x) for x in listed),
                        key=lambda wx: (-wx[0], wx[1]))
        tp = view.tp.get(self.role, 0)
        lines: list[str] = []
        actors: set[str] = set()
        spent = 0
        for w, x in scored:
            if w <= 0 or len(lines) >= PLAN_AHEAD or spent >= tp:
                break
            if _actor(x) not in actors:
                lines.append(x)
                actors.add(_actor(x))
                spent += self._cost(view, x)
        moves = [x for x in listed if x.startswith("MOVE ") and x.split()[1] not in actors]
        while spent < tp and len(lines) < PLAN_AHEAD:
            move = self._advance(view, moves)
            if move is None:
                break
            lines += [move, "STOP"]
            spent += 1
            moves = [x for x in moves if x.split()[1] != move.split()[1]]
        if not lines:
            return ["PASS"]
        return [*lines, "PASS ALL"] if spent < tp else lines

    def _cost(self, view: CtView, line: str) -> int:
        words = line.split()
        t = view.troops.get(_actor(line))
        if words[0] == "ATTACK" and t is not None:
            return int(t.get("cost", 1))
        k = _ct_card(words[1]) if len(words) > 1 else None
        return int(getattr(k, "cost", 1) or 1)

    # ------------------------------------------------------------------ Up the Field, Mobilize

    def _up(self, view: CtView, listed: list[str]) -> list[str]:
        lines: list[str] = []
        mine = {at for at, t in view.troops.items() if t["owner"] == self.role}
        for line in listed:
            words = line.split()
            if words[0] != "MOVE" or len(words) != 3:
                continue
            lines.append(line)
            src, dst = words[1], words[2]
            mine.discard(src)
            mine.add(dst)
            col, row = src[0], int(src[1])
            behind = f"{col}{row - 1}"
            if row > 1 and behind in mine:
                lines.append(f"MOVE {behind} {src}")
                mine.discard(behind)
                mine.add(src)
        # The request lists the Mobilize lines that fit the field as it stands.
        taken = {x.split()[2] for x in lines}
        ahead = [x for x in listed if x.split()[0] in ("DEPLOY", "UPGRADE", "EQUIP", "LEARN")
                 and not (x.startswith("DEPLOY ") and x.split()[2] in taken)]
        return [*lines, *self._mobilize(view, ahead), "DONE", *self._blows(view, lines)]

    def _blows(self, view: CtView, moves: list[str]) -> list[str]:
        """The Play phase's first blows, written with the Up the Field (the
        judge takes them as a plan: each only while the opponent has changed
        nothing on the spaces it names): each troop's best attack on an
        enemy card in its range once its own moves are made."""
        where = {at: at for at in view.troops}
        for line in moves:
            _, src, dst = line.split()
            where = {k: (dst if v == src else v) for k, v in where.items()}
        foes = self._targets(view)
        best: list[tuple[float, str]] = []
        for at, t in view.troops.items():
            if t["owner"] != self.role or not t["attack"]:
                continue
            here = where[at]
            lo, hi = t["range"]
            options = []
            for b, (defense, left) in foes.items():
                if lo <= CT_FIELD.distance(here, b) <= hi:
                    dealt = max(0, int(t["attack"]) - defense)
                    if dealt:
                        options.append((dealt + (KILL_BONUS if dealt >= left else 0),
                                        f"ATTACK {here} {b}"))
            if options:
                best.append(max(options))
        best.sort(key=lambda wx: (-wx[0], wx[1]))
        return [x for _, x in best[:PLAN_AHEAD]]

    def _mobilize(self, view: CtView, listed: list[str]) -> list[str]:
        plain = [x for x in listed if " DISCARD " not in x and x != "DONE"]
        tp = view.tp.get(self.role, 0)
        lines: list[str] = []
        used: set[str] = set()
        spaces: set[str] = set()
        for verb in ("UPGRADE", "DEPLOY", "EQUIP", "LEARN"):
            these = [x for x in plain if x.startswith(verb + " ")]
            costs = {x: (1 if verb == "UPGRADE" else getattr(_ct_card(x.split()[1]), "cost", 0))
                     for x in these}
            these.sort(key=lambda x: (-costs[x], not x.split()[-1].endswith("2"), x))
            for x in these:
                words = x.split()
                card = words[2] if verb == "UPGRADE" else words[1]
                where = words[1] if verb == "UPGRADE" else words[-1]
                if card in used or costs[x] > tp or (verb != "LEARN" and where in spaces):
                    continue
                lines.append(x)
                used.add(card)
                if verb != "LEARN":
                    spaces.add(where)
                tp -= costs[x]
        return lines


Player = MailPlayer


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
    unparsed: int = 0
    """Requests whose choices the players could not read (the bench's own check)."""
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


def _players(game: str, seats: int, seed: int, index: int, standing: bool,
             reading: Reading) -> dict[str, Player]:
    offsets = zones(seats)
    key = f"calendar/{seed}/{index}/{game}"

    def rng(side: str) -> random.Random:
        return random.Random(f"{key}/{side}")

    players: dict[str, Player]
    if game == KW:
        names = mpt.KW_SEATS[:seats]
        players = {s: KwMailPlayer(s, mpt.KW_ADDRESS[s], rng(s), offsets[i], reading, key,
                                   mpt.KW_STANDING if standing else None)
                   for i, s in enumerate(names)}
    elif game == CT:
        players = {s: CtMailPlayer(s, mpt.CT_ADDRESS[s], rng(s), offsets[i], reading, key,
                                   mpt.CT_STANDING if standing else None)
                   for i, s in enumerate(("South", "North"))}
    else:
        players = {s: CoaMailPlayer(s, mpt.ADDRESS[s], rng(s), offsets[i], reading, key,
                                    mpt.STANDING[s] if standing else None)
                   for i, s in enumerate((mpt.L, mpt.A))}
    if reading.absence_hours > 0:  # one seat away once, at a moment drawn from the seed
        who = sorted(players)[int(_unit(key, "absent") * len(players))]
        begins = START + timedelta(days=_unit(key, "absence") * reading.absence_within_days)
        players[who].away = (begins, begins + timedelta(hours=reading.absence_hours))
    return players


def play(game: str, seats: int, seed: int, index: int, *, standing: bool = False,
         reading: Reading = HUMAN, max_rounds: int = MAX_ROUNDS,
         max_days: float = MAX_DAYS) -> GameRun:
    """Play game number ``index`` of ``game`` by mail to its end (or the cap)."""
    if game != KW:
        seats = 2
    run = GameRun(game, seats, index)
    players = _players(game, seats, seed, index, standing, reading)
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
    run.unparsed = sum(p.unparsed for p in players.values())
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
    if game in (CT, COA):
        return str(table.state.get("stage") or d.kind.value)
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
            outgoing: list[tuple[Player, list[str], mpt.Mail]] = []
            for p in reading:
                unread, p.unread, p.arrived = p.unread, [], []
                lines = p.read_all(unread)
                if lines is not None:
                    outgoing.append((p, lines, [m for m in unread if m.asks][-1]))
            for p, lines, reply in outgoing:
                head = f"SIGNON {NAME} {p.role} {p.token}"
                _send(room, p, [head, *lines], reply)
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
            "days": [round(r.days, 2) for r in self.runs],
            "median_rounds": self.median("rounds"),
            "blocking_per_round": round(self.median("blocking_per_round"), 2),
            "windows_per_round": round(self.median("windows_per_round"), 2),
            "median_days_per_round": round(self.median("days_per_round"), 2),
            "median_days_by_round": [round(d, 2) for d in self.by_round()],
            "capped": sum(bool(r.capped) for r in self.runs),
            "blocking_kinds_per_round": self.kinds_per_round(),
            "refused_lines": sum(r.refused for r in self.runs),
            "unread_choices": sum(r.unparsed for r in self.runs),
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
            reading: Reading = HUMAN, max_rounds: int = MAX_ROUNDS,
            max_days: float = MAX_DAYS) -> Summary:
    """``games`` games of ``game``, numbered 1 to ``games``."""
    set_kdf_cost(2**8)  # tokens of a throw-away home only: scrypt at full cost is slow
    runs = [play(game, seats, seed, i, standing=standing, reading=reading,
                 max_rounds=max_rounds, max_days=max_days) for i in range(1, games + 1)]
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
    ap.add_argument("--seats", type=int, default=6, choices=range(4, 7), metavar="4..6",
                    help="Kingdom Wars seats (default 6; the other games have two)")
    ap.add_argument("--games", type=int, default=3, help="games per kind (default 3)")
    ap.add_argument("--seed", type=int, default=1, help="players' and games' seed (default 1)")
    ap.add_argument("--json", action="store_true", help="one JSON object per game kind")
    ap.add_argument("--standing", action="store_true",
                    help="players send the standing answers of bench/mails_per_turn.py")
    ap.add_argument("--reading", choices=sorted(READINGS), default="human",
                    help="human (default): 15%% of readings skipped and one seat away 48 hours "
                         "once; steady: every reading kept")
    ap.add_argument("--max-rounds", type=int, default=MAX_ROUNDS,
                    help=f"stop a game after this many rounds (default {MAX_ROUNDS})")
    ap.add_argument("--max-days", type=float, default=MAX_DAYS,
                    help=f"stop a game after this many days (default {MAX_DAYS:g})")
    args = ap.parse_args(list(argv) if argv is not None else None)
    if args.games < 1:
        ap.error("--games must be at least 1")
    if not args.json:
        print(f"By mail: players read and answer at {', '.join(f'{h:02d}:00' for h in READ_HOURS)} "
              f"local time in zones from UTC{ZONES[0]:+g} to UTC{ZONES[1]:+g} ({args.reading}: "
              f"{READINGS[args.reading].skip:.0%} of readings skipped, one seat away "
              f"{READINGS[args.reading].absence_hours:g} hours); default game "
              f"settings; {'standing answers sent' if args.standing else 'no standing answers'};"
              f" seed {args.seed}; cap {args.max_rounds} rounds or {args.max_days:g} days.\n")
    for game in args.game or GAMES:
        s = measure(game, args.seats, args.games, args.seed, standing=args.standing,
                    reading=READINGS[args.reading], max_rounds=args.max_rounds,
                    max_days=args.max_days)
        if args.json:
            print(json.dumps(s.to_json()), flush=True)
        else:
            print_summary(s)
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
