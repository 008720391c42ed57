"""Noninterference through the real mail pipeline (DESIGN.md, "Privacy").

Two judges in homes side by side play the same game from the same seed, by
mail, on Maildir transports with test clocks. Every mail either judge sends
to one seat, B, must be the same in both (subject, body, attachments,
recipient, order; Message-ID and Date aside) when:

* **scrambled**: in one home, once a response window is open, the stored
  game state is replaced by the generic scrambler's (tests/support/scramble.py)
  for reader B: everything B may not see is dealt again. B then sends the
  same mails in both homes (STATUS, its answer, HISTORY); the other
  seats, asked by hand, answer by standing answers sent into the open
  window (``POLICY <window> PASS``) or leave it to its deadline default.
  B's mails are compared as long as the game has shown B the same thing
  in both homes (B's view and the events B may read): once the game
  reveals what was scrambled (a card turned from the pile) the homes may
  rightly differ, but never before;
* **both parts**: every mail is multipart/alternative, and the comparison
  takes each part as it was sent, the HTML part included: a hidden fact
  that reached only the HTML part fails it
  (test_the_comparison_catches_a_leak_in_the_html_part), and each compared
  HTML part shows exactly the words of its text part
  (bench.support.htmlpart.check_alternatives);
* **timing** (window_min_minutes > 0): the other seats, asked by hand in
  both homes, answer the window at once by standing answers sent into it in
  one home, and by hand some (test-clock) minutes later, before the minimum
  open time, in the other; the homes never differ in anything B may see, so
  all of B's mails must match. (That the moment a window closes depends on
  nothing hidden is tests/contract/test_timing.py.)

The games are every contract game with hidden zones and window kinds (Sealed
Bids, Conflict of Alliances, ...). A window is reached by random legal lines,
preferring one that opens a window in which a seat other than B answers
(tried through judge.game.adjudicator on the table, which changes nothing).
"""

from __future__ import annotations

import dataclasses
import json
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import pytest

from bench.support.htmlpart import alternatives, check_alternatives
from judge.game import adjudicator as adj
from judge.game import registry
from judge.game.engine import (
    Decision,
    DecisionKind,
    Event,
    Role,
    RuleError,
    State,
    option_values,
)
from judge.game.rng import Rng
from judge.game.spec import Game
from judge.store import set_kdf_cost
from tests.contract.conftest import contract_games
from tests.core.helpers import stored_game
from tests.games import add_report_files
from tests.games.sealed_bids import GAME as SEALED_BIDS
from tests.games.sealed_bids import SealedBids, record
from tests.support.mailhome import MailHome, open_game
from tests.support.scramble import scramble

NAME = "g1"
MIN_MINUTES = 30
SEED = bytes(range(32))
"""The seed of every game here (``judge.seed_source``): both homes play the same game."""

MAIL_OPTIONS: dict[str, dict[str, str]] = {"sealed_bids": {"players": "3", "rounds": "1"},
                                           "blind_bid": {"players": "3"}}
"""Options given at CREATE, per game (Sealed Bids: one round, so that the
window's close ends the game and the final report is compared too)."""

DRIVE_LIMIT = 120
"""Mails (and deadlines) at most, to reach a window."""

AFTER_CLOSE = 6
"""Steps of play after the window closed, while B has seen the same in both homes."""


def _mail_games() -> list[Game]:
    """Contract games with hidden zones and at least one window kind."""
    out: list[Game] = []
    for g in contract_games():
        if not g.windows:
            continue
        state = g.setup(option_values(g, MAIL_OPTIONS.get(g.id, {})), Rng(SEED, 0))
        if g.zones(state):
            out.append(g)
    return out


GAMES = _mail_games()


@pytest.fixture(autouse=True)
def _fast_kdf() -> Iterator[None]:
    set_kdf_cost(2**8)
    add_report_files()
    add_report_files()
    yield


# --------------------------------------------------------------------------- a home


@dataclass
class Home(MailHome):
    """One judge in its own home, and the seats of its one game; each mail
    it sends has a Message-ID that depends only on who sent it and how many
    before it, so that the same mail has the same id in both homes."""

    counts: dict[str, int] = field(default_factory=dict)

    def send(self, who: str, body: str, sign: bool = True) -> None:
        n = self.counts.get(who, 0) + 1
        self.counts[who] = n
        self.mail(who, body, sign, message_id=f"<{who.lower()}.{n}@players.example>")

    def mails_to(self, role: Role) -> list[EmailMessage]:
        return [m for m in self.post.sent() if m["To"] == self.address(role)]

    def seen_events(self, role: Role) -> list[dict[str, object]]:
        """Every logged event ``role`` may read, in order."""
        out: list[dict[str, object]] = []
        for row in self.judge.store.actions(NAME):
            for raw in json.loads(row["payload"]).get("events", []):
                event = Event.from_json(raw)
                if event.visible_to(role):
                    out.append(event.to_json())
        return out

    def view(self, role: Role) -> str:
        return json.dumps(self.game.view(self.table().state, role), sort_keys=True)


def open_home(root: Path, label: str, game: Game) -> Home:
    """A judge in ``root/label`` with a game of ``game`` created, joined (every
    role by its own address) and started by mail, with a minimum open time
    for windows."""
    home = open_game(Home, root, label, game, name=NAME, seed=SEED,
                     options=MAIL_OPTIONS.get(game.id, {}),
                     gm_lines=[f"SET window_min_minutes {MIN_MINUTES}"])
    assert home.table().outcome is None
    return home


@pytest.fixture
def homes(tmp_path: Path) -> Iterator[Callable[[str, Game], Home]]:
    opened: list[Home] = []

    def make(label: str, game: Game) -> Home:
        home = open_home(tmp_path, label, game)
        opened.append(home)
        return home

    yield make
    for home in opened:
        home.judge.close()


# --------------------------------------------------------------------------- comparing mail


def face(msg: EmailMessage) -> list[object]:
    """A mail as its reader gets it, Message-ID and Date aside: every other
    header (the boundary of a multipart mail aside: it is derived from the
    Message-ID), and each part's type, file name and bytes."""
    out: list[object] = []
    for key, value in msg.items():
        low = key.lower()
        if low in ("message-id", "date"):
            continue
        if low == "content-type" and msg.is_multipart():
            value = msg.get_content_type()
        out.append((low, str(value)))
    for part in msg.walk():
        if part.is_multipart():
            continue
        out.append((part.get_content_type(), part.get_filename(),
                    part.get_payload(decode=True)))
    return out


def _show(msgs: list[EmailMessage]) -> str:
    return "\n".join(f"  {m['Subject']}" for m in msgs) or "  (none)"


def _diff_mails(mine: list[EmailMessage], theirs: list[EmailMessage]) -> str:
    if len(mine) != len(theirs):
        return f"{len(mine)} mails against {len(theirs)}:\n{_show(mine)}\n against\n{_show(theirs)}"
    for a, b in zip(mine, theirs, strict=True):
        if face(a) != face(b):
            fa, fb = face(a), face(b)
            first = next(i for i, (x, y) in enumerate(zip(fa, fb, strict=False)) if x != y)
            return f"{a['Subject']!r}: differs at {fa[first]!r}\n against {fb[first]!r}"
    return ""


@dataclass
class Watch:
    """B's mails in two homes, compared step by step while the homes have
    shown B the same (its view and the events it may read)."""

    one: Home
    two: Home
    reader: Role
    read: int = 0
    compared: int = 0
    with_html: int = 0
    diverged: str = ""

    def same_for_reader(self) -> bool:
        return (self.one.view(self.reader) == self.two.view(self.reader)
                and self.one.seen_events(self.reader) == self.two.seen_events(self.reader))

    def check(self, what: str, must: bool = False) -> bool:
        """Compare the mails B got since the last check; False (and stop
        comparing) once the game has shown B different things, which
        ``must`` forbids."""
        if self.diverged:
            return False
        mine, theirs = self.one.mails_to(self.reader), self.two.mails_to(self.reader)
        if not self.same_for_reader():
            self.diverged = what
            assert not must, f"{what}: the game showed {self.reader} different things"
            return False
        new_mine, new_theirs = mine[self.read:], theirs[self.read:]
        problem = _diff_mails(new_mine, new_theirs)
        assert not problem, f"{what}: the mails to {self.reader} differ: {problem}"
        for msg in new_mine + new_theirs:
            check_alternatives(msg)
        self.read = len(mine)
        self.compared += len(new_mine)
        self.with_html += sum(1 for m in new_mine if alternatives(m))
        return True


# --------------------------------------------------------------------------- playing


def _first_window(home: Home) -> Decision | None:
    return adj.open_window(home.game, home.table())


def _opens_window(game: Game, table: adj.Table, role: Role, line: str, seed: bytes,
                  reader: Role) -> bool:
    """Whether ``role`` sending ``line`` now opens a window in which a seat
    other than ``reader`` answers (tried on the table; nothing is stored)."""
    try:
        step = adj.act(game, table, role, game.parse(table.state, role, line), seed)
    except RuleError:
        return False
    after = step.table
    for more in adj.drain(game, after, seed):
        after = more.table
    w = adj.open_window(game, after)
    return w is not None and any(r != reader for r in w.roles)


def _lockstep(homes: list[Home], who: str, body: str) -> None:
    for home in homes:
        home.send(who, body)


def _tick(homes: list[Home], minutes: float) -> None:
    for home in homes:
        home.tick(minutes)


def _same_game(homes: list[Home]) -> None:
    first = homes[0].table().state
    for other in homes[1:]:
        assert other.table().state == first, "the homes play different games"


def drive_to_window(homes: list[Home], reader: Role, chooser: random.Random,
                    seen: dict[Role, list[str]]) -> Decision:
    """Play the same random legal lines by mail in every home until a window
    is open in which a seat other than ``reader`` answers; windows that only
    ``reader`` answers are answered and closed on the way. ``seen`` gets,
    per role, the legal lines of its last decision."""
    lead = homes[0]
    game = lead.game
    seed = bytes.fromhex(stored_game(lead.judge.store, NAME)["seed"])
    assert seed == SEED
    for _ in range(DRIVE_LIMIT):
        _same_game(homes)
        table = lead.table()
        assert table.outcome is None, f"{game.id}: the game ended before a window opened"
        before = table.dumps()
        w = _first_window(lead)
        if w is not None and any(r != reader for r in w.roles):
            return w
        due = adj.open_decisions(game, table)
        assert due, f"{game.id}: nothing to decide and no outcome"
        d = w if w is not None else due[0]
        for role in d.roles:
            seen[role] = game.legal(table.state, role) or seen.get(role, [])
        if d.kind is DecisionKind.RESPONSE:
            for role in d.roles:
                legal = game.legal(table.state, role)
                if legal and table.answer_of(d.id, role) is None:
                    _lockstep(homes, role, chooser.choice(legal))
            _tick(homes, MIN_MINUTES + 1)
        elif d.kind is DecisionKind.ORDERS:
            for role in d.roles:
                legal = game.legal(table.state, role)
                if legal:
                    _lockstep(homes, role, chooser.choice(legal))
        else:
            role = d.roles[0]
            legal = game.legal(table.state, role)
            tried = chooser.sample(legal, min(len(legal), 60))
            line = next((x for x in tried if _opens_window(game, table, role, x, seed, reader)),
                        None)
            if line is None and legal:
                line = chooser.choice(legal)
            if line is not None:
                _lockstep(homes, role, line)
        if lead.table().dumps() == before:
            _tick(homes, 25 * 60)  # nothing moved: the deadline decides
    raise AssertionError(f"{game.id}: no window opened within {DRIVE_LIMIT} steps")


def _no_policies(home: Home, roles: list[Role]) -> None:
    """``roles`` keep no standing answer: every window asks them (a game may
    give seats standing answers to begin with, Game.standing_answers)."""
    for role in roles:
        home.send(role, "\n".join(f"POLICY {w.kind} ASK" for w in home.game.windows))


def _pass_then_ask(game: Game) -> str:
    """A mail that answers an open window by a standing answer (``POLICY
    <kind> PASS``, which the open window takes at once) and then leaves the
    seat asked by hand again (``POLICY <kind> ASK``), as it was."""
    return "\n".join(f"POLICY {w.kind} PASS\nPOLICY {w.kind} ASK" for w in game.windows)


def _b_line(homes: list[Home], reader: Role, chooser: random.Random) -> str | None:
    """A legal line for ``reader`` now, the same in every home (or None)."""
    legal = [h.game.legal(h.table().state, reader) for h in homes]
    assert all(x == legal[0] for x in legal), f"{reader}'s legal lines differ between the homes"
    return chooser.choice(legal[0]) if legal[0] else None


def play_on(watch: Watch, homes: list[Home], reader: Role, chooser: random.Random,
            steps: int) -> None:
    """Go on for ``steps`` steps, B sending a legal line when it must decide
    and the deadline deciding for the others, comparing B's mails while the
    homes show B the same."""
    lead = homes[0]
    for i in range(steps):
        table = lead.table()
        if table.outcome is not None or watch.diverged:
            return
        mine = adj.decision_for(lead.game, table, reader)
        owes = reader in adj.waiting_on(lead.game, table)
        line = _b_line(homes, reader, chooser) if mine is not None and owes else None
        if line is not None:
            _lockstep(homes, reader, line)
            _tick(homes, 1)
        else:
            _tick(homes, 25 * 60)
        watch.check(f"step {i + 1} after the window")


# --------------------------------------------------------------------------- the tests


def _reader(home: Home, seat: int = 1) -> tuple[Role, list[Role]]:
    """B, the reader whose mail is compared (the role in that seat), and the
    other seats."""
    reader = home.roles[seat % len(home.roles)]
    return reader, [r for r in home.roles if r != reader]


def _b_in_window(homes: list[Home], reader: Role, w: Decision, chooser: random.Random,
                 watch: Watch, seen: dict[Role, list[str]]) -> None:
    """B's part while the window is open: its answer if the window asks it,
    else (a game that queues lines) a line for its next turn."""
    game = homes[0].game
    if reader in adj.answering_roles(game, homes[0].table()):
        line = _b_line(homes, reader, chooser)
        if line is not None:
            _lockstep(homes, reader, line)
            watch.check("B's answer", must=True)
    elif game.queues_actions and seen.get(reader):
        _lockstep(homes, reader, chooser.choice(seen[reader]))
        watch.check("B's line queued for its next turn", must=True)


def scrambled_run(mail_game: Game, by: str, homes: Callable[[str, Game], Home],
                  seat: int = 1) -> Watch:
    """The scrambled comparison (see the module docstring) for the reader in
    ``seat``; returns the watch."""
    one, two = homes("plain", mail_game), homes("scrambled", mail_game)
    reader, others = _reader(one, seat)
    for home in (one, two):  # the others are asked by hand: the window waits for them
        _no_policies(home, others)
    watch = Watch(one, two, reader)
    watch.read = len(one.mails_to(reader))
    assert len(two.mails_to(reader)) == watch.read
    chooser = random.Random(f"mail-privacy:{mail_game.id}")
    seen: dict[Role, list[str]] = {}
    w = drive_to_window([one, two], reader, chooser, seen)
    watch.check("reaching the window", must=True)
    # Scramble the stored game in the second home, for reader B.
    table = two.table()
    rng = random.Random(f"mail-privacy:{mail_game.id}:{reader}")
    other = scramble(mail_game, table.state, reader, rng)
    assert other != table.state, "the scrambler changed nothing: the test would prove nothing"
    table.state = other
    two.judge.store.update_game(NAME, table_json=table.dumps())
    assert two.view(reader) == one.view(reader)
    # B's script, the same in both homes; the others answer by policy or not at all.
    both = [one, two]
    _lockstep(both, reader, "STATUS")
    watch.check("B's STATUS in the window", must=True)
    _tick(both, 1)
    _b_in_window(both, reader, w, chooser, watch, seen)
    _tick(both, 1)
    # A line another seat could send: its reading (an error, a queued line, an
    # answer) is told to B alone, and must not depend on what B may not see.
    theirs = sorted({x for r in others for x in seen.get(r, [])})
    extra = f"\n{chooser.choice(theirs)}" if theirs else ""
    _lockstep(both, reader, f"STATUS\nHISTORY 2{extra}")
    watch.check("B's second STATUS", must=True)
    if by == "policy":  # the others answer by standing answers, sent into the open window
        for role in sorted(adj.answering_roles(mail_game, one.table()) - {reader}):
            _lockstep(both, role, _pass_then_ask(mail_game))
        watch.check("the others' standing answers", must=True)
    _tick(both, MIN_MINUTES if by == "policy" else 12 * 60 + 1)
    assert _first_window(one) != w, "the window did not close"
    watch.check("the window's close")
    play_on(watch, both, reader, chooser, AFTER_CLOSE)
    return watch


#: What the fast tier plays: the test-only Sealed Bids game, the cheapest to
#: bring to a window, one seat each way. The whole suite, as CI runs it, plays
#: every game, both seats, both ways (the other cases are marked slow).
FAST_SCRAMBLED = {("sealed_bids", "policy", 0), ("sealed_bids", "deadline", 1)}


@pytest.mark.parametrize(("mail_game", "by", "seat"), [
    pytest.param(g, by, seat, id=f"{g.id}-{by}-{seat}",
                 marks=() if (g.id, by, seat) in FAST_SCRAMBLED else pytest.mark.slow)
    for g in GAMES for by in ("policy", "deadline") for seat in (0, 1)])
def test_what_b_may_not_see_never_reaches_b_by_mail(
    mail_game: Game, by: str, seat: int, homes: Callable[[str, Game], Home]
) -> None:
    """With the state scrambled for B (the role in ``seat``) in one home while
    a window is open, B's mails are the same in both homes until the game
    itself shows B what differs. The other seats answer the window by
    standing answers sent before (``by == "policy"``) or leave it to its
    deadline."""
    watch = scrambled_run(mail_game, by, homes, seat)
    assert watch.compared >= 3, f"only {watch.compared} mails to {watch.reader} were compared"
    assert watch.with_html == watch.compared, "a mail without its HTML part"


class _PromptLeak(SealedBids):
    """Tells every seat asked to answer a gift what North holds, in the
    prompt of the window (a part of the request mail, not of the view)."""

    def pending(self, state: State) -> list[Decision]:
        return [dataclasses.replace(d, prompt=f"{d.prompt} (North holds "
                                    f"{' '.join(sorted(state['hands']['North']))})")
                if d.kind is DecisionKind.RESPONSE else d
                for d in super().pending(state)]


def test_the_comparison_catches_a_leak_in_a_request(homes: Callable[[str, Game], Home]) -> None:
    """The harness itself: a game whose window prompt shows another seat's
    hand (the view does not) makes B's request mails differ, and the
    scrambled comparison fails on it."""
    leaky = registry.register(record(_PromptLeak()))
    try:
        with pytest.raises(AssertionError, match="the mails to East differ"):
            scrambled_run(leaky, "policy", homes)
    finally:
        registry.register(SEALED_BIDS)


def test_the_comparison_catches_a_leak_in_the_html_part(
        homes: Callable[[str, Game], Home], monkeypatch: pytest.MonkeyPatch) -> None:
    """The harness itself, over the HTML part: a report whose HTML part
    alone carries what North holds (an HTML comment, which no reader sees
    and the text part does not have) makes B's mails differ between the
    homes, and the scrambled comparison fails on the text/html part."""
    from judge import notify
    from judge.mail import mailhtml
    from judge.session import Loaded, Workspace

    held: list[str] = [""]
    report_of, render = notify.report_of, mailhtml.render

    def reading_the_state(ws: Workspace, g: Loaded, *args: Any,
                          **kw: Any) -> tuple[dict[str, Any], bytes, str]:
        state = g.need_table().state
        held[0] = " ".join(sorted(state["hands"]["North"]))
        return report_of(ws, g, *args, **kw)

    def leaky(text: str, pictures: tuple[mailhtml.Picture, ...] = ()) -> str:
        return render(text, pictures).replace("</body>", f"<!-- North: {held[0]} --></body>")

    monkeypatch.setattr(notify, "report_of", reading_the_state)
    monkeypatch.setattr(mailhtml, "render", leaky)
    with pytest.raises(AssertionError, match=r"the mails to East differ: .*'text/html'"):
        scrambled_run(SEALED_BIDS, "policy", homes)


SETTINGS = ("SET MAIL decisions", "SET MAIL each", "SET MAIL digest", "SET ACK errors")
"""How B reads its mail: the default, a report after every move it may see,
digests only (windows left to standing answers and defaults), and
acknowledgements folded into its next mail unless they refuse a line."""


#: The fast tier times the test-only Sealed Bids game under the default
#: setting; the other cases are marked slow (CI runs them all).
FAST_TIMED = {("sealed_bids", "SET MAIL decisions")}


@pytest.mark.parametrize(("mail_game", "setting"), [
    pytest.param(g, setting, id=f"{g.id}-{setting.split(maxsplit=1)[1]}",
                 marks=() if (g.id, setting) in FAST_TIMED else pytest.mark.slow)
    for g in GAMES for setting in SETTINGS])
def test_how_and_when_others_answered_never_reaches_b(
    mail_game: Game, setting: str, homes: Callable[[str, Game], Home]
) -> None:
    """window_min_minutes > 0: whether the other seats answered the window at
    once by a standing answer (POLICY ... PASS, sent before) or by hand some
    minutes later, before the minimum open time, B's mails are the same,
    before, during and after the window's close (at its minimum time),
    however B reads its mail (``setting``)."""
    at_once, by_hand = homes("policy", mail_game), homes("by-hand", mail_game)
    reader, others = _reader(at_once)
    both = [at_once, by_hand]
    _lockstep(both, reader, setting)
    for home in both:  # asked by hand in both homes: the window waits for them
        _no_policies(home, others)
    watch = Watch(at_once, by_hand, reader)
    watch.read = len(at_once.mails_to(reader))
    assert len(by_hand.mails_to(reader)) == watch.read
    chooser = random.Random(f"mail-timing:{mail_game.id}")
    seen: dict[Role, list[str]] = {}
    w = drive_to_window(both, reader, chooser, seen)
    watch.check("reaching the window", must=True)
    answering = sorted(adj.answering_roles(mail_game, at_once.table()) - {reader})
    assert answering and answering == sorted(
        adj.answering_roles(mail_game, by_hand.table()) - {reader})
    for role in answering:  # at once, by standing answers sent into the open window
        at_once.send(role, _pass_then_ask(mail_game))
    held = at_once.table().windows[w.id]["answers"]
    assert {r: held[r]["by"] for r in answering} == dict.fromkeys(answering, "policy")
    assert not set(answering) & set(by_hand.table().windows[w.id]["answers"])
    _tick(both, 1)
    _lockstep(both, reader, "STATUS")
    watch.check("B's STATUS while the others' answers differ", must=True)
    _tick(both, 1)
    _b_in_window(both, reader, w, chooser, watch, seen)
    _tick(both, 3)
    state = by_hand.table().state
    for role in answering:  # minute 5: by hand, what the standing answer gave
        default = mail_game.default(state, w, role)
        by_hand.send(role, default.text if default is not None else "PASS")
    assert adj.window_complete(mail_game, by_hand.table())
    watch.check("the others' answers by hand", must=True)
    _tick(both, 1)
    _lockstep(both, reader, "STATUS")
    watch.check("B's STATUS after the answers by hand", must=True)
    _tick(both, MIN_MINUTES - 6 - 1)
    for home in both:
        assert _first_window(home) == w, "the window closed before its minimum open time"
    watch.check("a minute before the minimum open time", must=True)
    _tick(both, 1)
    for home in both:
        assert _first_window(home) != w, "the window did not close at its minimum open time"
    assert at_once.table().state == by_hand.table().state
    watch.check("the window's close", must=True)
    _lockstep(both, reader, "STATUS")
    watch.check("B's STATUS after the close", must=True)
    if setting == "SET ACK errors":
        # A refused line is acknowledged at once, with what B holds to mend it.
        _lockstep(both, reader, "STATUS\nFROBNICATE THE DECK")
        watch.check("B's refused line after the close", must=True)
    least = 2 if setting == "SET ACK errors" else 5  # acknowledgements wait for a report
    assert watch.compared >= least, f"only {watch.compared} mails to {reader} were compared"
