"""Conquest Tactics by mail, through the whole judge: games created, joined,
set up and played to a victory by mail on the Maildir transports, then
``judge verify``.

The full games. A GM CREATEs the game by mail (submitted decks in one test,
the starter decks in the other), South and North JOIN by mail and the GM
STARTs it. With submitted decks, South first mails a deck list that breaks
two guidelines (the reply quotes each breach; nothing is taken), then a
legal one; North mails a legal list. Each side mails its Base and starting
forces (``BASE`` and ``TAKE`` lines in one mail), then its deployment (every
``DEPLOY`` line in one mail). From then on each decision is answered with
the line chosen by the seeded bot of ``bench/balance.py``, which picks among
the lines the game offers (``GAME.legal``) or that the game takes
(``GAME.parse``): a Mobilize is sent whole in one mail (``DEPLOY ...``,
``UPGRADE ...``, ``DONE``: the lines act in order), and an instant window
is answered by mail. South leaves standing answers at the start: asked
about an instant only when 3 or more damage is coming and it can answer,
else pass.

What is checked: the bad deck list is refused with each breach quoted and
changes nothing; North's reports show the field from North's edge (its row
1 at the bottom, its spaces named as North names them: its Base at C1 is
South's C5) and South's from South's; no mail to a player names a card
found only in the other player's deck before that card was shown on the
table (an observer's view or a public event); the standing answers
answered windows; the final report carries the result; ``judge verify``
passes.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from bench.support.maildir import Outbox, whole
from judge.cli import main
from judge.game import adjudicator as adj
from judge.game.engine import DecisionKind, Event, RuleError
from judge.game.rng import Rng
from judge_games.conquest_tactics import GAME
from judge_games.conquest_tactics import field as F
from judge_games.conquest_tactics.cards import POOL
from tests.core.conftest import Post
from tests.core.helpers import GM_ADDR, stored_game, token_in
from tests.support.bench import load_bench

ROOT = Path(__file__).resolve().parents[2]
NAME = "g1"
S, N = F.SOUTH, F.NORTH
ADDR = {S: "south.player@players.example", N: "north.player@players.example"}
SEED = bytes(range(32))
"""The game's seed (``Judge.seed_source``): the same game on every run."""
STEPS = 3000
"""Mails and clock steps at most before the game must have ended."""

SOUTH_POLICY = ["POLICY instant ASK",  # clears the game's own defaults
                # asked by hand for every blow of 3 or more, whatever South holds
                # (whether one is asked never depends on one's hand: judge/game/timing.py)
                "POLICY instant ASK WHEN INCOMING 3",
                "POLICY instant PASS"]




BALANCE = load_bench("balance")


# --------------------------------------------------------------------------- reading mail




def _text(msg: EmailMessage) -> str:
    body = msg.get_body(("plain",))
    assert body is not None
    return str(body.get_content())




# --------------------------------------------------------------------------- privacy


def _names(cid: str) -> set[str]:
    return {cid, POOL.card(cid).name}


def _pattern(words: set[str]) -> re.Pattern[str]:
    alts = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(r"(?<![\w-])(" + alts + r")(?![\w-])", re.IGNORECASE)


@dataclass
class Privacy:
    """Card names found only in one side's deck, and which of them the
    table has shown (in an observer's view or a public event)."""

    only: dict[str, set[str]] = field(default_factory=dict)
    """role -> names (and ids) of the cards found in its deck only."""
    shown: set[str] = field(default_factory=set)
    n: int = 0
    """The log entries whose public events have been read."""
    leaks: list[str] = field(default_factory=list)
    checked: dict[str, int] = field(default_factory=lambda: {S: 0, N: 0})

    def decks(self, state: dict[str, Any]) -> None:
        cards = {r: set(state["p"][r]["supply"]) | set(state["p"][r]["hand"]) for r in (S, N)}
        names = {r: {x.lower() for c in cards[r] for x in _names(c)} for r in (S, N)}
        self.only = {r: names[r] - names[F.other(r)] for r in (S, N)}

    def follow(self, post: Post) -> None:
        """What an observer sees now, and the public events so far."""
        table = post.judge.table(NAME)
        texts = [json.dumps(GAME.view(table.state, None))]
        for row in post.judge.store.actions_after(NAME, self.n):
            self.n = int(row["n"])
            events = [Event.from_json(e) for e in json.loads(row["payload"]).get("events", [])]
            texts += [e.text for e in events if e.audience is None]
        text = "\n".join(texts).lower()
        for r in (S, N):
            self.shown |= {w for w in self.only.get(r, ()) if w in text}

    def check(self, mails: list[EmailMessage]) -> None:
        if not self.only:
            return
        by_address = {a: r for r, a in ADDR.items()}
        for msg in mails:
            reader = by_address.get(str(msg["To"]))
            if reader is None:
                continue
            self.checked[reader] += 1
            secret = self.only[F.other(reader)] - self.shown
            if not secret:
                continue
            for found in sorted({m.lower() for m in _pattern(secret).findall(whole(msg))}):
                self.leaks.append(f"{found!r} in {msg['Subject']!r} to {reader}")


# --------------------------------------------------------------------------- the players


@dataclass
class Players:
    post: Post
    outbox: Outbox
    privacy: Privacy
    tokens: dict[str, str] = field(default_factory=dict)
    bots: dict[str, Any] = field(default_factory=dict)
    mails: int = 0

    def table(self) -> adj.Table:
        return self.post.judge.table(NAME)

    def cycle(self) -> list[EmailMessage]:
        self.privacy.follow(self.post)
        fresh = self.outbox.new()
        self.privacy.check(fresh)
        return fresh

    def send(self, role: str, lines: list[str]) -> tuple[list[str], list[EmailMessage]]:
        body = f"SIGNON {NAME} {role} {self.tokens[role]}\n" + "\n".join(lines) + "\n"
        self.post.clock.advance(minutes=5)
        self.mails += 1
        log = self.post.send(ADDR[role], body, subject="orders")
        return log, self.cycle()

    def tick(self, **kw: float) -> None:
        self.post.clock.advance(**kw)
        self.post.judge.cycle()
        self.cycle()


def _start(post: Post, options: str) -> Players:
    players = Players(post, Outbox(post), Privacy())
    post.send(GM_ADDR, f"CREATE {NAME} conquest_tactics {options}\n")
    gm = token_in(post, GM_ADDR)
    for role in (S, N):
        post.send(ADDR[role], f"JOIN {NAME} {role}\n")
        players.tokens[role] = token_in(post, ADDR[role])
    post.send(GM_ADDR, f"SIGNON {NAME} GM {gm}\nSTART\n")
    players.outbox.new()
    for role in (S, N):
        players.bots[role] = BALANCE.Bot(role, Rng(hashlib.sha256(role.encode()).digest(), 0))
    return players


def _deck_block(faction: str, name: str, edit: dict[str, str] | None = None) -> list[str]:
    """A starter deck's list as a DECK ... END block, with lines replaced."""
    lines = (ROOT / "judge_games" / "conquest_tactics" / "decks" / f"{faction}.txt").read_text()
    body = [x for x in lines.splitlines() if x.strip() and not x.startswith("#")]
    for old, new in (edit or {}).items():
        body = [new if x == old else x for x in body]
    return [f"DECK {name}", *body, "END"]


def _submit_decks(players: Players) -> None:
    """South's bad list first (refused, breach by breach, nothing taken),
    then a legal one; North's legal list."""
    assert players.table().state["stage"] == "decks"
    before = players.table()
    bad = _deck_block("humans", "Iron Wall", {"5 Archers": "6 Archers",
                                              "5 Footsoldiers": "5 Footsoliders"})
    _, mails = players.send(S, bad)
    ack = "\n".join(_text(m) for m in mails if m["To"] == ADDR[S])
    assert '"6 Archers": at most five copies of a troop may be carried' in ack, ack
    assert "carry 5" in ack
    assert 'no card is named "Footsoliders"; did you mean "Footsoldiers"' in ack
    after = players.table()
    assert after.state == before.state and after.orders.get(S, []) == [], \
        "a refused deck list changed the game"
    assert after.unready == [S]  # its latest orders had a refused line: the phase waits
    players.send(S, _deck_block("humans", "Iron Wall"))
    assert players.table().state["stage"] == "decks"  # North has not sent its list
    players.send(N, _deck_block("malice", "Black Tide"))
    state = players.table().state
    assert state["stage"] == "forces"
    assert state["p"][S]["deck"] == "Iron Wall" and state["p"][N]["deck"] == "Black Tide"


FORCES = {
    S: ["BASE B1", "TAKE Human Defensive Infantry level 1", "TAKE human-infantry-1",
        "TAKE Archers", "TAKE Archers", "TAKE Footsoldiers", "TAKE Footsoldiers",
        "TAKE Aimed Shot"],
    N: ["BASE C1", "TAKE Malice Convert", "TAKE Malice Ghoul", "TAKE Heretic Fire Mage",
        "TAKE Malice Thrall", "TAKE Malice Thrall", "TAKE Malice Imp", "TAKE Fireball"],
}


def _set_up(players: Players, forces: dict[str, list[str]]) -> None:
    """Base and starting forces in one mail each, then every DEPLOY line of
    a side in one mail."""
    state = players.table().state
    assert state["stage"] == "forces"
    players.privacy.decks(state)
    for role in (S, N):
        log, _ = players.send(role, forces[role])
        assert not any("failed" in x for x in log), log
    state = players.table().state
    assert state["stage"] == "deploy", state["stage"]
    for _ in range(2):
        role = state["deployer"]
        lines = []
        probe = state
        while probe["stage"] == "deploy" and probe["deployer"] == role:
            line = _bot_line(players, role, probe)
            lines.append(line)
            probe, _ = GAME.act(probe, role, GAME.parse(probe, role, line), Rng(bytes(32), 0))
        assert len(lines) >= 3
        players.send(role, lines)
        state = players.table().state
    assert state["stage"] not in ("forces", "deploy")


def _bot_line(players: Players, role: str, state: dict[str, Any]) -> str:
    from judge.game.engine import live

    d = live(GAME.pending(state))[0]
    line: str = players.bots[role].choose(state, d)
    return line


@dataclass
class Seen:
    whole_mobilize: int = 0
    by_hand: int = 0
    """Instant windows answered by mail."""
    asked_south: list[dict[str, Any]] = field(default_factory=list)


def _mobilize(players: Players, role: str, state: dict[str, Any]) -> list[str]:
    """The bot's whole Mobilize, as the player writes it in one mail."""
    lines: list[str] = []
    probe = state
    rng = Rng(bytes(32), 0)
    while len(lines) < 12:
        line = _bot_line(players, role, probe)
        lines.append(line)
        if line == "DONE":
            break
        try:
            probe, _ = GAME.act(probe, role, GAME.parse(probe, role, line), rng)
        except RuleError:
            break
    return lines


def _play(players: Players, seen: Seen) -> None:
    for _ in range(STEPS):
        table = players.table()
        if table.outcome is not None:
            return
        owed = sorted(adj.waiting_on(GAME, table))
        if not owed:
            players.tick(minutes=31)  # past a window's minimum open time
            continue
        role = owed[0]
        decision = adj.decision_for(GAME, table, role)
        assert decision is not None
        state = table.state
        if state["stage"] == "mobilize":
            lines = _mobilize(players, role, state)
            seen.whole_mobilize += len(lines) > 1
        else:
            lines = [_bot_line(players, role, state)]
            if decision.kind is DecisionKind.RESPONSE:
                seen.by_hand += 1
                if role == S:
                    seen.asked_south.append(dict(decision.context))
        assert lines[0] in GAME.legal(state, role) or state["stage"] in ("play", "follow"), \
            lines[0]
        before = table.dumps()
        log, _ = players.send(role, lines)
        assert players.table().dumps() != before, f"{lines!r} of {role} changed nothing: {log}"
    raise AssertionError(f"the game did not end within {STEPS} steps")


# --------------------------------------------------------------------------- checks


def _grid(text: str) -> list[tuple[str, str]]:
    """The field's rows in a report, top (row 5) to bottom (row 1)."""
    return re.findall(r"^  ([1-5])   (.*)$", text, re.M)


def _check_frames(players: Players, north_base: tuple[str, str, str],
                  south_base: tuple[str, str, str]) -> None:
    """Each report shows the field from its reader's own edge. A base is
    (its name, where its owner put it, where the other side sees it)."""
    state = players.table().state
    texts = {r: [_text(m) for m in players.outbox.mails if m["To"] == ADDR[r]
                 and "The field" in _text(m)] for r in (S, N)}
    assert texts[S] and texts[N]
    for role in (S, N):
        last = texts[role][0]
        rows = _grid(last)
        assert [r for r, _ in rows] == ["5", "4", "3", "2", "1"], rows
        assert "your edge (row 1) at the bottom" in last
    # North's Base, placed at C1 in North's frame, is South's C5 (the state
    # keeps South's frame); each side's reports name it as their reader does.
    for role, (name, own, other) in ((N, north_base), (S, south_base)):
        assert state["bases"][role]["at"] == F.from_frame(own, role) == F.from_frame(other, S \
            if role == N else N)
        assert any(f"base {name} at {own} " in t for t in texts[role]), (name, own)
        assert any(f"base {name} at {other} " in t for t in texts[F.other(role)]), (name, other)
    # The bottom row of a reader's grid is its own edge: its base stands there.
    first = {r: next(t for t in texts[r] if f"{r[0]}:BASE" in t) for r in (S, N)}
    for role in (S, N):
        bottom = dict(_grid(first[role]))[F.rank(state["bases"][role]["at"], role).__str__()]
        assert f"{role[0]}:" in bottom, (role, bottom)
    # Troops moving up the field go up the rows in their owner's reports
    # and down them in the opponent's.
    ups = {r: re.findall(r"North's [^,\n]+ moves up the field, ([A-E])([1-5]) to ([A-E])([1-5])",
                         "\n".join(texts[r])) for r in (S, N)}
    assert ups[N] and ups[S]
    assert all(int(b) == int(a) + 1 and c1 == c2 for c1, a, c2, b in ups[N])
    assert all(int(b) == int(a) - 1 and c1 == c2 for c1, a, c2, b in ups[S])


def _finish(players: Players, seen: Seen,
            north_base: tuple[str, str, str] = ("Malice Black Citadel", "C1", "C5"),
            south_base: tuple[str, str, str] = ("Human Keep", "B1", "D5")) -> None:
    table = players.table()
    assert table.outcome is not None
    reason = str(table.outcome["reason"])
    assert re.match(r"(South|North) wins 3-[0-2]: |3-3 Draw", reason), reason
    assert stored_game(players.post.judge.store, NAME)["status"] == "finished"
    for role in (S, N):
        finals = [m for m in players.outbox.mails if m["To"] == ADDR[role]
                  and "final report" in str(m["Subject"])]
        assert finals, f"no final report to {role}"
        assert f"Result: {reason}." in _text(finals[-1])

    out = CliRunner().invoke(main, ["--home", str(players.post.home), "verify", NAME],
                             catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert "seed matches its commitment" in out.output and "draws recomputed" in out.output

    assert players.privacy.leaks == []
    assert all(n >= 10 for n in players.privacy.checked.values()), players.privacy.checked

    rows = players.post.judge.store.actions(NAME)
    payloads = [(r["kind"], r["role"], json.loads(r["payload"])) for r in rows]
    assert any(k == "answer" and role == S and p.get("by") == "policy"
               for k, role, p in payloads), "South's standing answers answered no window"
    assert seen.by_hand >= 1, "no instant window was answered by mail"
    assert any(k == "answer" and p.get("by") == "hand" for k, _, p in payloads), \
        "no window answer by mail is in the log"
    assert all(int(c["incoming"]) >= 3 for c in seen.asked_south), seen.asked_south
    assert seen.whole_mobilize >= 2, "no Mobilize was sent whole in one mail"
    _check_frames(players, north_base, south_base)


@pytest.mark.slow  # a whole game (or bench run): not in the fast tier
def test_a_game_with_submitted_decks_by_mail_to_a_result(post: Post) -> None:
    players = _start(post, "decks=submitted turn_limit=25")
    _submit_decks(players)
    players.send(S, SOUTH_POLICY)
    _set_up(players, FORCES)
    seen = Seen()
    _play(players, seen)
    _finish(players, seen)


STARTER_FORCES = {
    S: ["ORDERS", "BASE C1", "TAKE Kaborha Tier 1 Contender", "TAKE Kaborha Brawler",
        "TAKE Kaborha Skirmisher", "TAKE Kaborha Brawler", "TAKE Kaborha Pit Whelp",
        "TAKE Kaborha Runner", "TAKE Parry", "TAKE Crushing Blow", "END"],
    N: ["ORDERS", "BASE D2", "TAKE Buff Gunget", "TAKE Gunget with a Sword",
        "TAKE Noxious Gunget", "TAKE Gunget Blob", "TAKE Exploding Gunget",
        "TAKE Gunget Spawn", "TAKE Jelly Body", "END"],
}


@pytest.mark.slow  # a whole game (or bench run): not in the fast tier
def test_a_game_with_the_starter_decks_by_mail_to_a_result(post: Post) -> None:
    """The option's starter decks (no deck lists: the game starts at its
    set-up), the forces sent as an ORDERS block."""
    players = _start(post, "south=kaborha north=gunget turn_limit=25")
    state = players.table().state
    assert state["stage"] == "forces"
    assert state["p"][S]["faction"] == "kaborha" and state["p"][N]["faction"] == "gunget"
    players.send(S, SOUTH_POLICY)
    _set_up(players, STARTER_FORCES)
    seen = Seen()
    _play(players, seen)
    _finish(players, seen, north_base=("Gunget Bog", "D2", "B4"),
            south_base=("Kaborha Fighting Pits", "C1", "C5"))


def test_the_privacy_check_catches_a_named_hand_card(post: Post) -> None:
    """The check itself: a mail to South that names a card of North's hand
    found only in North's deck, not yet shown, is reported."""
    players = _start(post, "south=humans north=malice")
    players.privacy.decks(players.table().state)
    players.send(S, FORCES[S])
    players.send(N, FORCES[N])
    state = players.table().state
    hidden = next(c for c in state["p"][N]["supply"]
                  if POOL.card(c).name.lower() in players.privacy.only[N] - players.privacy.shown)
    fake = EmailMessage()
    fake["To"] = ADDR[S]
    fake["Subject"] = "[g1] report for South"
    fake.set_content(f"North holds {POOL.card(hidden).name}.\n")
    players.privacy.check([fake])
    assert players.privacy.leaks == [
        f"{POOL.card(hidden).name.lower()!r} in '[g1] report for South' to South"]
