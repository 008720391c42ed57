"""Kingdom Wars by mail, through the whole judge: a game of six seats
created, joined, set up and played to a victory by mail on the Maildir
transports, then ``judge verify``; what no seat's mail may show; the CLI's
``game create`` and HELP by mail.

The full game. A GM CREATEs it by mail, six players JOIN by mail, five
choose their generals by mail and the sixth leaves it to the deadline (the
first pair of one kingdom). Then every decision is answered with a legal
line (``GAME.legal``) picked by a seeded ``random.Random``:

* the seat on turn sometimes sends its whole Play Phase in one mail: the
  lines after one that opens a window wait, queued, and are taken when the
  Play Phase comes back to it, or dropped with a notice when they no longer
  fit;
* some mails are replies to the judge's request (``In-Reply-To``), the rest
  new mails;
* five seats leave standing answers (``POLICY``) at the start besides the
  game's own (answers, not questions), which answer windows without a mail,
  and one has itself asked by hand;
* now and then a seat stays silent and the test clock passes the deadline.

Privacy, against the state: while the game runs, no mail to a seat names a
card (``Attack S7``) that sits in another seat's hand or in the deck and that
the seat has not seen (in its own hand, on the table, in the discard or
processing area, or in an event every seat may read, or a Know your Enemy
look of its own), and none names another seat's general that it has not
seen (exposed, dealt to itself, or viewed). What is known is worked out step
by step, from the action log replayed entry by entry.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path

import pytest
from click.testing import CliRunner

from bench.support.maildir import Outbox, whole
from judge.cli import main
from judge.game import adjudicator as adj
from judge.game.engine import DecisionKind, Event, State
from judge.service import Judge
from judge_games.kingdom_wars import GAME
from judge_games.kingdom_wars.commands import canonical, syntax
from judge_games.kingdom_wars.data import DATA
from judge_games.kingdom_wars.table import SLOTS, label
from tests.core.conftest import Post
from tests.core.helpers import GM_ADDR, stored_game, token_in

NAME = "g1"
SEATS = ("A", "B", "C", "D", "E", "F")
ADDR = {s: f"seat.{s.lower()}@players.example" for s in SEATS}
SEED = bytes(range(32))
"""The game's seed (``Judge.seed_source``): the same game on every run."""

STANDING = {
    "A": ["POLICY dodge ASK", "POLICY rescue ASK WHEN DYING ME"],
    "B": ["POLICY dodge DODGE WHEN HOLDING Dodge"],
    "C": ["POLICY negation NEGATE WHEN CAN AND BY OTHER", "POLICY negation PASS"],
    "D": ["POLICY rescue PEACH WHEN DYING ME AND HOLDING Peach",
          "POLICY rescue PEACH WHEN DYING KINGDOM AND HOLDING 2 Peach"],
    "E": ["POLICY attack ATTACK WHEN HOLDING Attack", "POLICY trigger PASS"],
}
"""Standing answers five seats send with their first mail: A is asked every
Dodge and its own rescue by hand (whatever it holds), B always plays a
Dodge it holds, C Negates whatever another force uses when it can (and is
never asked), D Peaches itself (and its kingdom when it
holds two), E answers a Duel or Barbarian Invasion with an Attack it holds."""

SILENT_GENERALS = "F"
"""The seat that leaves its generals to the deadline."""

SILENCE = 0.06
"""Chance that a seat owing a decision stays silent until its deadline."""
WHOLE_PHASE = 0.35
"""Chance that the seat on turn sends several lines of its Play Phase in one mail."""
REPLY = 0.5
"""Chance that a mail is a reply to the request it answers."""

STEPS = 2500
"""Mails and deadlines at most before the game must have ended."""


# --------------------------------------------------------------------------- reading mail






# --------------------------------------------------------------------------- what a seat knows


LABEL = {c.id: label(c.id) for c in DATA.deck}
"""Each copy's name in mail (``Attack S7``; two copies may share one)."""
CARD_LABELS = sorted(set(LABEL.values()), key=len, reverse=True)
_LABEL = re.compile(r"(?<![\w-])(" + "|".join(re.escape(x) for x in CARD_LABELS) + r")(?!\w)")
GENERAL_NAMES = {g.name: gid for gid, g in DATA.generals.items()}
_GENERAL = re.compile(r"(?<![\w-])(" + "|".join(
    re.escape(x) for x in sorted(GENERAL_NAMES, key=len, reverse=True)) + r")(?!\w)")
_PARTNERS = re.compile(r"Perfect Pair with: [^.]*\.")
"""A general's HELP text names its Perfect Pair partners: data, not a seat's secret."""


def _labels(cards: list[str]) -> set[str]:
    return {LABEL[c] for c in cards}


def _public_cards(state: State) -> set[str]:
    """Cards every seat sees: equipment, judgement zones, discard, processing area."""
    out = _labels(state["discard"]) | _labels(state["proc"])
    for p in state["p"].values():
        out |= _labels([c for c in p["equip"].values() if c])
        out |= _labels([j["card"] for j in p["judge"]])
    return out


def _secret_cards(state: State, seat: str) -> set[str]:
    """Cards in the deck and in the other seats' hands."""
    out = _labels(state["deck"])
    for r, p in state["p"].items():
        if r != seat:
            out |= _labels(p["hand"])
    return out


def _generals_known(state: State, seat: str) -> set[str]:
    """Generals ``seat`` has seen: its own (dealt and chosen), the exposed ones
    and those it viewed."""
    known = set(state["dealt"].get(seat, []))
    for r, p in state["p"].items():
        for i, slot in enumerate(SLOTS):
            if r == seat or p["shown"][i] or seat in p["seen_by"][slot]:
                known.add(p[slot])
    return known


def _cards_in(text: str) -> set[str]:
    return set(_LABEL.findall(text))


@dataclass
class Privacy:
    """What each seat has seen so far, from the log replayed entry by entry,
    and the mails that named something it had not."""

    seed: bytes
    table: adj.Table | None = None
    n: int = 0
    cards: dict[str, set[str]] = field(default_factory=lambda: {s: set() for s in SEATS})
    generals: dict[str, set[str]] = field(default_factory=lambda: {s: set() for s in SEATS})
    leaks: list[str] = field(default_factory=list)
    checked: Counter[str] = field(default_factory=Counter)

    def _hidden(self, state: State, cards: dict[str, set[str]],
                generals: dict[str, set[str]]) -> None:
        """Add what ``state`` hides from each seat to ``cards`` and ``generals``."""
        for s in SEATS:
            if state["stage"] == "play":
                cards[s] |= _secret_cards(state, s)
            if state["stage"] in ("generals", "play"):
                known = _generals_known(state, s)
                generals[s] |= {g.name for gid, g in DATA.generals.items() if gid not in known}

    def _seen(self, state: State, events: list[Event]) -> None:
        """Add what ``state`` and ``events`` show each seat to what it knows."""
        for s in SEATS:
            if state["stage"] == "play":
                self.cards[s] |= _labels(state["p"][s]["hand"]) | _public_cards(state)
            if state["stage"] in ("generals", "play"):
                self.generals[s] |= {DATA.generals[g].name for g in _generals_known(state, s)}
            for ev in events:
                if ev.audience is None or (s in ev.audience and ev.text.startswith("You view ")):
                    self.cards[s] |= _cards_in(ev.text)

    def follow(self, judge: Judge) -> tuple[dict[str, set[str]], dict[str, set[str]]] | None:
        """Replay the entries logged since the last call; returns, per seat,
        the cards and generals hidden from it at some step of them (or in the
        state they started from), or None once the game is over (then every
        hand and general is shown)."""
        cards: dict[str, set[str]] = {s: set() for s in SEATS}
        generals: dict[str, set[str]] = {s: set() for s in SEATS}
        if self.table is not None:  # a cycle that logs nothing may still send mail
            self._hidden(self.table.state, cards, generals)
        for row in judge.store.actions_after(NAME, self.n):
            entry = {"kind": row["kind"], "role": row["role"],
                     "payload": json.loads(row["payload"]), "draws": json.loads(row["draws"])}
            step = adj.apply_entry(GAME, self.table, entry, self.seed)
            self.table = step.table
            self.n = int(row["n"])
            state = step.table.state
            self._hidden(state, cards, generals)
            self._seen(state, [Event.from_json(e) for e in entry["payload"].get("events", [])])
        if self.table is not None and self.table.state["stage"] == "over":
            return None
        return cards, generals

    def check(self, judge: Judge, mails: list[EmailMessage]) -> None:
        """After a judge cycle: the new log entries, then its mails."""
        hidden = self.follow(judge)
        by_address = {a: s for s, a in ADDR.items()}
        for msg in mails:
            seat = by_address.get(str(msg["To"]))
            if seat is None:
                continue  # the GM's
            self.checked[seat] += 1
            if hidden is None:
                continue
            text = whole(msg)
            cards, generals = hidden
            for c in sorted(_cards_in(text) & cards[seat] - self.cards[seat]):
                self.leaks.append(f"{c!r} in {msg['Subject']!r} to {seat}")
            named = set(_GENERAL.findall(_PARTNERS.sub("", text)))
            for name in sorted(named & generals[seat] - self.generals[seat]):
                self.leaks.append(f"{name!r} in {msg['Subject']!r} to {seat}")


# --------------------------------------------------------------------------- the players


@dataclass
class Players:
    """The six seats and the GM, writing to the judge."""

    post: Post
    outbox: Outbox
    privacy: Privacy | None
    """None when a test changes the stored state (the log no longer rebuilds it)."""
    chooser: random.Random
    tokens: dict[str, str] = field(default_factory=dict)
    requests: dict[str, EmailMessage] = field(default_factory=dict)
    counts: Counter[str] = field(default_factory=Counter)

    def cycle(self, log: list[str] | None = None) -> list[str]:
        """Read what the judge sent since the last cycle; check it."""
        fresh = self.outbox.new()
        for msg in fresh:
            seat = {a: s for s, a in ADDR.items()}.get(str(msg["To"]))
            if seat is not None and "your decision" in str(msg["Subject"]):
                self.requests[seat] = msg
        if self.privacy is not None:
            self.privacy.check(self.post.judge, fresh)
        return log or []

    def send(self, seat: str, lines: list[str], reply: bool = False) -> list[str]:
        body = f"SIGNON {NAME} {seat} {self.tokens[seat]}\n" + "\n".join(lines) + "\n"
        headers: dict[str, str] = {}
        request = self.requests.get(seat)
        if reply and request is not None:
            headers = {"In-Reply-To": str(request["Message-ID"]),
                       "References": str(request["Message-ID"])}
            self.counts["replies"] += 1
        self.post.clock.advance(minutes=5)
        log = self.post.send(ADDR[seat], body, subject="orders", headers=headers)
        return self.cycle(log)

    def tick(self, **kw: float) -> None:
        self.post.clock.advance(**kw)
        self.post.judge.cycle()
        self.cycle()

    def table(self) -> adj.Table:
        return self.post.judge.table(NAME)

    def request_for(self, seat: str, phase: str) -> bool:
        """Whether the seat's last request mail asks for the decision ``phase``."""
        msg = self.requests.get(seat)
        return msg is not None and phase in " ".join(str(msg["Subject"]).split())


def _start(post: Post, outbox: Outbox, privacy: Privacy | None) -> Players:
    """CREATE, six JOINs and START, by mail."""
    players = Players(post, outbox, privacy, random.Random("kingdom-wars-by-mail"))
    post.send(GM_ADDR, f"CREATE {NAME} kingdom_wars seats=6\n")
    gm = token_in(post, GM_ADDR)
    for s in SEATS:
        post.send(ADDR[s], f"JOIN {NAME} {s}\n")
        players.tokens[s] = token_in(post, ADDR[s])
    post.send(GM_ADDR, f"SIGNON {NAME} GM {gm}\nSTART\n")
    players.cycle()
    return players


def _choose_generals(players: Players) -> None:
    """Five seats choose by mail (with their standing answers); one leaves it
    to the deadline."""
    state = players.table().state
    assert state["stage"] == "generals"
    for s in SEATS:
        if s == SILENT_GENERALS:
            continue
        line = players.chooser.choice(GAME.legal(state, s))
        log = players.send(s, [*STANDING.get(s, []), line], reply=True)
        assert not any(": failed" in x for x in log), log
    assert players.table().state["stage"] == "generals"
    players.tick(hours=49 + 24)  # orders_hours, then grace_hours for the late seat
    assert players.table().state["stage"] == "play"


def _whole_phase(players: Players, seat: str, legal: list[str]) -> list[str]:
    """Several lines of one Play Phase, as a player writes them ahead: a few
    different card plays, maybe the PASS that ends the phase."""
    plays = [x for x in legal if x != "PASS"]
    chosen: list[str] = []
    for line in players.chooser.sample(plays, min(len(plays), 4)):
        card = " ".join(line.split()[1:3])
        if all(card not in x for x in chosen):
            chosen.append(line)
    if players.chooser.random() < 0.5:
        chosen.append("PASS")
    return chosen or ["PASS"]


@dataclass
class Seen:
    """What the game went through, to show the test exercised what it claims."""

    whole_phases: int = 0
    silent: int = 0
    nested: int = 0
    """Times a window waited under another on the stack (a Negation against a
    Negation, a rescue while a damage resolves, a skill's moment...)."""
    kinds: Counter[str] = field(default_factory=Counter)


def _play(players: Players, seen: Seen) -> None:
    rnd = players.chooser
    for _ in range(STEPS):
        table = players.table()
        if table.outcome is not None:
            return
        asks = table.state["asks"] if table.state["stage"] == "play" else []
        seen.nested += sum(a["kind"] in ("respond", "negate", "trigger") for a in asks) >= 2
        owed = sorted(adj.waiting_on(GAME, table))
        if not owed:
            players.tick(minutes=31)  # past the window's minimum open time
            continue
        seat = rnd.choice(owed)
        decision = adj.decision_for(GAME, table, seat)
        assert decision is not None
        legal = GAME.legal(table.state, seat)
        assert legal, f"{seat} owes {decision.phase} but has no legal line"
        if rnd.random() < SILENCE:
            seen.silent += 1
            players.tick(hours=49)  # past the deadline (and the grace of an action)
            continue
        seen.kinds[decision.window or decision.kind.value] += 1
        if decision.kind is DecisionKind.ACTION and decision.prompt.startswith("USE a card") \
                and rnd.random() < WHOLE_PHASE:
            lines = _whole_phase(players, seat, legal)
            seen.whole_phases += len(lines) > 1
        elif decision.kind is DecisionKind.RESPONSE:
            answers = [x for x in legal if x != "PASS"]
            lines = [rnd.choice(answers) if answers and rnd.random() < 0.6 else "PASS"]
        else:
            lines = [rnd.choice(legal)]
        reply = players.request_for(seat, decision.phase) and rnd.random() < REPLY
        before = table.dumps()
        log = players.send(seat, lines, reply=reply)
        assert players.table().dumps() != before, f"{lines!r} of {seat} changed nothing: {log}"
    raise AssertionError(f"the game did not end within {STEPS} steps")


@pytest.mark.slow
def test_a_six_seat_game_by_mail_to_a_victory_keeps_every_secret(post: Post) -> None:
    outbox = Outbox(post)
    privacy = Privacy(SEED)
    players = _start(post, outbox, privacy)
    _choose_generals(players)
    seen = Seen()
    _play(players, seen)

    table = players.table()
    assert table.outcome is not None and table.outcome["winners"]
    assert stored_game(post.judge.store, NAME)["status"] == "finished"
    # Every seat got its final report, with the winners.
    finals = {s: [m for m in outbox.mails if m["To"] == ADDR[s]
                  and "final report" in str(m["Subject"])] for s in SEATS}
    assert all(finals.values()), {s: len(v) for s, v in finals.items()}
    reason = str(table.outcome["reason"])
    assert all(reason in whole(v[-1]) for v in finals.values())

    # `judge verify`: the seed against its hash, every draw recomputed, the log replayed.
    out = CliRunner().invoke(main, ["--home", str(post.home), "verify", NAME],
                             catch_exceptions=False)
    assert out.exit_code == 0, out.output
    assert "seed matches its commitment" in out.output and "draws recomputed" in out.output

    # Privacy, checked on every mail to every seat while the game ran.
    assert privacy.leaks == []
    assert all(privacy.checked[s] >= 10 for s in SEATS), privacy.checked
    assert privacy.n == post.judge.store.last_action(NAME)

    # The game went through what this test claims to cover.
    rows = post.judge.store.actions(NAME)
    payloads = [(r["kind"], json.loads(r["payload"])) for r in rows]
    assert any(k == "act" and p.get("queued") for k, p in payloads), "no queued line was taken"
    assert any(k == "answer" and p.get("by") == "policy" for k, p in payloads), \
        "no standing answer answered a window"
    assert any(k == "default" for k, _ in payloads), "no deadline applied a default"
    assert seen.whole_phases >= 3 and seen.silent >= 2, seen
    assert players.counts["replies"] >= 10
    assert {"dodge", "action"} <= set(seen.kinds), seen.kinds
    texts = [whole(m) for m in outbox.mails if m["To"] in ADDR.values()]
    assert any("queued as line" in t for t in texts)
    # The reports carried each seat its own hand and generals.
    assert any("Your hand:" in t for t in texts) and any("Your generals:" in t for t in texts)


def test_the_privacy_check_catches_a_named_hand_card(post: Post) -> None:
    """The check itself: a mail to A that names a card in B's hand (one A
    never saw) is reported, as is one that names B's hidden general."""
    outbox = Outbox(post)
    privacy = Privacy(SEED)
    players = _start(post, outbox, privacy)
    state = players.table().state
    for s in SEATS:
        players.send(s, [GAME.legal(state, s)[0]])
    state = players.table().state
    assert state["stage"] == "play"
    b = state["p"]["B"]
    card = next(c for c in b["hand"] if label(c) not in privacy.cards["A"])
    general = DATA.generals[b["main"]].name
    assert general not in privacy.generals["A"]
    fake = EmailMessage()
    fake["To"] = ADDR["A"]
    fake["Subject"] = "[g1] report for A"
    fake.set_content(f"B holds {label(card)}; B's main general is {general}.\n")
    privacy.check(post.judge, [fake])
    assert privacy.leaks == [f"{label(card)!r} in '[g1] report for A' to A",
                             f"{general!r} in '[g1] report for A' to A"]


# --------------------------------------------------------------------------- CLI and HELP


def _run(home: Path, *args: str) -> str:
    result = CliRunner().invoke(main, ["--home", str(home), *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_judge_game_create_with_six_seats(tmp_path: Path) -> None:
    """`judge game create X --game kingdom_wars --option seats=6` makes a
    game of six seats A to F, which starts when six players are seated."""
    home = tmp_path / "league"
    _run(home.parent, "init", "--home", str(home))
    out = _run(home, "game", "create", "x", "--game", "kingdom_wars", "--option", "seats=6",
               "--gm", "gm@league.example", "--no-mail")
    assert "GM token:" in out
    for s in SEATS:
        _run(home, "game", "seat", "x", ADDR[s], "--role", s, "--no-mail")
    assert "started" in _run(home, "game", "start", "x")
    judge = Judge.open(home)
    try:
        state = judge.table("x").state
        assert state["n"] == 6 and state["seats"] == list(SEATS)
        assert state["stage"] == "generals"
        assert all(len(state["dealt"][s]) == 7 for s in SEATS)
    finally:
        judge.close()
    bad = CliRunner().invoke(main, ["--home", str(home), "game", "create", "y", "--game",
                                    "kingdom_wars", "--option", "seats=13"])
    assert bad.exit_code != 0 and "seats" in bad.output


def test_help_by_mail_lists_kingdom_wars_and_gives_texts(post: Post) -> None:
    """HELP lists Kingdom Wars among the game kinds; signed on, HELP Attack,
    HELP Cao Cao (two words) and HELP Berserk give a card's, a general's and
    a skill's text."""
    post.send("curious@players.example", "HELP\n")
    text = post.text(post.new()[-1])
    assert "kingdom_wars (War of the Three Kingdoms: Kingdom Wars)" in text
    post.send(GM_ADDR, f"CREATE {NAME} kingdom_wars seats=6\n")
    post.send(ADDR["A"], f"JOIN {NAME} A\n")
    token = token_in(post, ADDR["A"])
    post.new()
    post.send(ADDR["A"], f"SIGNON {NAME} A {token}\nHELP Attack\nHELP Cao Cao\nHELP Berserk\n"
                         "HELP kingdom_wars\nHELP No Such Card\n")
    (reply,) = post.new()
    text = post.text(reply)
    attack, cao, berserk = DATA.card("Attack"), DATA.general("Cao Cao"), DATA.skill("Berserk")
    assert attack is not None and cao is not None and berserk is not None
    assert f"Attack: basic. {attack.text}" in text
    assert f"Cao Cao, {cao.title} (Wei, {cao.half_circles} half-circles" in text
    assert all(DATA.skills[s].text in text for s in cao.skills)
    assert f"Berserk (compulsory; Zhang Fei): {berserk.text}" in text
    assert "GENERALS <main> AND <supporting>" in text and "rescue: a player is dying" in text
    assert "no game, card or rule called 'No Such Card'" in text
    assert text.count("help follows below") == 4


def test_every_help_example_reads_as_a_line() -> None:
    """The example HELP gives of each Kingdom Wars line is one the grammar
    reads, and reads back to itself (``RECAST Iron Chains C12`` once did not:
    a Queen is Q)."""
    for verb in GAME.verbs:
        assert canonical(syntax(verb.example)) == verb.example, verb.example


# --------------------------------------------------------------------------- queued lines


def _into_hand(state: State, seat: str, kind: str, keep: tuple[str, ...] = ()) -> str:
    """Put a copy of ``kind`` from the deck into ``seat``'s hand, in place of
    its first card of another kind not in ``keep`` (which goes to the deck);
    returns the copy."""
    hand = state["p"][seat]["hand"]
    copy: str = next(c for c in state["deck"] if c.split(".")[0] == kind)
    out = next(c for c in hand if c.split(".")[0] != kind and c not in keep)
    hand[hand.index(out)] = copy
    state["deck"][state["deck"].index(copy)] = out
    return copy


def _to_play_phase(post: Post, outbox: Outbox) -> tuple[Players, str]:
    """A game by mail up to the first seat's Play Phase (every seat's first
    pair of generals; the Preparation Phase asks nothing: the generals stay
    hidden); the seat on turn."""
    players = _start(post, outbox, None)  # the tests change the stored state
    state = players.table().state
    for s in SEATS:
        players.send(s, [GAME.legal(state, s)[0]])
    seat = players.table().state["current"]
    for _ in range(12):  # skill windows on the way (a hidden seat is asked at its moments)
        table = players.table()
        if table.state["asks"] and table.state["asks"][-1]["kind"] == "play":
            break
        if seat in adj.waiting_on(GAME, table):
            players.send(seat, ["PASS"])  # a skill it could use: it declines
        else:
            players.tick(minutes=31)
    assert "Play Phase" in adj.phase_key(GAME, players.table())
    return players, seat


def _past_skill_windows(players: Players) -> None:
    """Let the skill windows that open on the way close (a hidden seat is
    asked at the moments that concern it): each asked seat that could use a
    skill declines it, the others' standing answers pass."""
    for _ in range(12):
        table = players.table()
        w = adj.open_window(GAME, table)
        if w is None or w.window != "trigger":
            return
        waiting = sorted(adj.waiting_on(GAME, table))
        if waiting:
            for r in waiting:
                players.send(r, ["PASS"])
        else:
            players.tick(minutes=31)


def _out_of_hands(state: State, kinds: tuple[str, ...]) -> None:
    """Every card of ``kinds`` in a hand goes to the deck, for a card of another kind."""
    for p in state["p"].values():
        for i, c in enumerate(p["hand"]):
            if c.split(".")[0] in kinds:
                other = next(d for d in state["deck"] if d.split(".")[0] not in kinds)
                p["hand"][i] = other
                state["deck"][state["deck"].index(other)] = c


def test_a_negation_against_a_negation_by_mail(post: Post) -> None:
    """Nested windows by mail: two seats have themselves asked whether to
    Negate what another uses (``POLICY negation ASK WHEN NOT BY ME``: a
    condition everyone can see, so they are asked whatever they hold; the
    others' standing answers pass without asking them). The seat on turn
    uses Something out of Nothing; one asked seat Negates by mail, which
    opens a window over the first, against that Negation, in which only the
    other is asked, and Negates by a reply to its request; the third window,
    against that one, asks the first seat again, which passes; the spell then
    takes effect (two Negations cancel each other, "Negation"). Each window
    closes as soon as the seats it asks have answered."""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    table = players.table()
    state = table.state
    _out_of_hands(state, ("negation", "negation-force"))
    order = state["seats"]
    x, y = (order[(order.index(seat) + k) % len(order)] for k in (2, 4))
    spell = _into_hand(state, seat, "something-out-of-nothing")
    _into_hand(state, x, "negation")
    _into_hand(state, y, "negation-force")
    post.judge.store.update_game(NAME, table_json=table.dumps())
    for r in (x, y):
        players.send(r, ["POLICY negation ASK WHEN NOT BY ME"])
    hand_before = len(state["p"][seat]["hand"])
    players.send(seat, [f"USE {label(spell)}"])
    _past_skill_windows(players)
    table = players.table()
    first = adj.open_window(GAME, table)
    assert first is not None and first.window == "negation"
    assert adj.waiting_on(GAME, table) == {x, y}
    players.send(x, ["NEGATE"])
    players.tick(minutes=31)  # y has not answered: the window waits for it
    assert adj.open_window(GAME, players.table()) == first
    players.send(y, ["PASS"], reply=True)  # all asked have answered: x's Negation is used
    _past_skill_windows(players)
    table = players.table()
    second = adj.open_window(GAME, table)
    assert second is not None and second != first and second.context["depth"] == 2
    assert [a["kind"] for a in table.state["asks"]].count("negate") == 2
    assert adj.waiting_on(GAME, table) == {y}  # x's own Negation: x is not asked
    request = players.requests[y]
    assert second.phase in " ".join(str(request["Subject"]).split())
    players.send(y, ["NEGATE FORCE"], reply=True)
    _past_skill_windows(players)
    third = adj.open_window(GAME, players.table())  # against y's Negation
    assert third is not None and third.context["depth"] == 3
    assert adj.waiting_on(GAME, players.table()) == {x}
    players.send(x, ["PASS"])
    _past_skill_windows(players)
    state = players.table().state
    assert state["asks"][-1]["kind"] == "play" and state["current"] == seat
    assert len(state["p"][seat]["hand"]) == hand_before - 1 + 2, "the spell did not take effect"
    assert not any(c.split(".")[0].startswith("negation") for r in (x, y)
                   for c in state["p"][r]["hand"])


def test_queued_play_lines_wait_through_a_choice_a_card_asks(post: Post) -> None:
    """The seat on turn sends two lines of its Play Phase in one mail:
    Stealing Sheep (a Negation window opens, so the Attack after it is
    queued), then an Attack. The Stealing Sheep then asks its user which card
    to take: that choice is not what the queued Attack was written for, so
    the Attack waits (it is neither taken there nor dropped), and is taken
    when the Play Phase comes back. (The victim holds hand cards only, so the
    answer, TAKE HAND, is forced: the seat asks to be asked all the same.)"""
    outbox = Outbox(post)
    players, seat = _to_play_phase(post, outbox)
    players.send(seat, ["STANDING forced ASK"])
    table = players.table()
    sheep = _into_hand(table.state, seat, "stealing-sheep")
    _into_hand(table.state, seat, "attack", keep=(sheep,))
    post.judge.store.update_game(NAME, table_json=table.dumps())
    legal = GAME.legal(table.state, seat)
    steal = next(x for x in legal if x.startswith(f"USE {label(sheep)} ON "))
    victim = steal.split()[-1]
    attack = next(x for x in legal if x.startswith("USE Attack ") and not x.endswith(victim))
    players.send(seat, [steal, attack])
    assert [q["line"] for q in players.table().queue[seat]] == [attack]
    for _ in range(40):  # the Negation window closes (at its deadline if someone may answer)
        decision = adj.decision_for(GAME, players.table(), seat)
        if decision is not None and decision.kind is DecisionKind.ACTION:
            break
        players.tick(minutes=31 if not adj.waiting_on(GAME, players.table()) else 13 * 60)
    table = players.table()
    choice = adj.decision_for(GAME, table, seat)
    assert choice is not None and "Stealing Sheep" in choice.phase and not choice.takes_queued
    assert [q["line"] for q in table.queue.get(seat, [])] == [attack], "the queued Attack was lost"
    players.send(seat, [GAME.legal(table.state, seat)[0]])  # the card to take
    table = players.table()
    assert seat not in table.queue or not table.queue[seat]
    taken = [p for r in post.judge.store.actions(NAME)
             if r["kind"] == "act" and r["role"] == seat
             and not (p := json.loads(r["payload"])).get("window")]  # its answers aside
    assert taken[-1].get("queued") and taken[-1]["action"]["text"] == attack
    texts = [whole(m) for m in outbox.mails if m["To"] == ADDR[seat]]
    assert not any("was dropped" in t for t in texts)


def test_the_first_report_lists_the_dealt_generals_under_two_headings(post: Post) -> None:
    """The first report, by mail, lists the generals dealt (kingdom, health,
    skills) and then each in full: two lists, so two headings, and only the
    reader's own generals."""
    outbox = Outbox(post)
    players = _start(post, outbox, None)
    state = players.table().state
    for s in SEATS:
        first = whole(next(m for m in outbox.mails if m["To"] == ADDR[s]
                           and "report for" in str(m["Subject"])))
        assert first.count("Generals dealt to you:") == 1
        assert first.count("The generals dealt to you, in full") == 1
        names = {DATA.generals[g].name for g in state["dealt"][s]}
        others = {DATA.generals[g].name for r in SEATS if r != s for g in state["dealt"][r]}
        assert all(name in first for name in names)
        assert not any(f"  {name} (" in first or f"  {name}, " in first
                       for name in others - names)


def test_the_demo_seats_as_many_players_as_the_game_it_creates() -> None:
    """``judge demo --game kingdom_wars`` creates a four-seat game (its
    playthrough options) and must seat four players, not the five of the
    default table, then play on by mail."""
    from judge.demo import run_demo

    out: list[str] = []
    run_demo("kingdom_wars", 2, False, out.append, everything=True)
    mail = "\n".join(out)
    assert "CREATE demo kingdom_wars seats=4" in mail
    assert [s for s in "ABCDE" if f"JOIN demo {s}\n" in mail] == ["A", "B", "C", "D"]
    assert "GENERALS" in mail and "log entries rebuild the stored game" in mail
