"""Timing tells nothing (DESIGN.md, "Privacy"; judge/game/timing.py): the moment
a response window closes, and the times and recipients of every mail while
it is open, depend on no fact a seat may not see, however slowly the seats
asked by hand answer.

For every game with response windows and hidden zones (the built-in Kingdom
Wars, Conquest Tactics and Conflict of Alliances, and the test-only games),
two judges in homes side by side play the same game from the same seed by mail
through the Maildir transports, on test clocks, with the game's default
settings. Some seats have themselves asked every window by hand
(``POLICY <kind> ASK``); the others keep the game's standing answers, which
may answer from their hands (a Dodge when holding one). The homes play the
same random legal lines until the seat on turn, P, has a line that opens a
window asking another seat by hand: a single action that opens one, or the
last order of an order set whose resolution does (then the deal below
leaves the others' sealed orders as they were written). Then, in the
second home, everything P may not see is dealt again (tests/support/scramble.py: the others' hands,
the deck, hidden generals), in a deal under which a seat that keeps the
defaults holds another standing answer to that window (where a leak would
show), and P sends that line in both homes. From then on
the script is the same in both: each seat the judge asks by hand answers
``PASS`` by hand, ``delay`` after it was asked (5 minutes in one run, 5
hours in the other), until the first window closes. Between the homes:

* the seats asked by hand, at every moment, are the same;
* the first window closes at the same moment;
* every mail sent until then goes out at the same moment to the same
  recipient.

(After the close the answers take effect, and what they do may differ, as
the players' hands do: that is the game, not its timing.)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

import pytest

from judge.game import adjudicator as adj
from judge.game.engine import DecisionKind, Role, RuleError, option_values
from judge.game.rng import Rng
from judge.game.spec import Game
from judge.store import set_kdf_cost
from tests.contract.conftest import TEST_GAMES
from tests.contract.test_mail_privacy import GAMES, MAIL_OPTIONS, NAME, SEED, _opens_window
from tests.games import add_report_files
from tests.support.mailhome import MailHome, open_game
from tests.support.scramble import scramble

DELAYS = {"minute-5": 5.0, "hour-5": 300.0}
"""How long each seat asked by hand takes to answer, in minutes."""

DRIVE_LIMIT = 150
"""Lines (and deadlines) at most to reach the seat on turn with a line that
opens a window offered to other seats."""


@pytest.fixture(autouse=True)
def _fast_kdf() -> Iterator[None]:
    set_kdf_cost(2**8)
    add_report_files()
    yield


@dataclass
class Run(MailHome):
    """One judge in its own home, with one game by mail, noting every mail it
    sends."""

    mails: list[tuple[datetime, str]] = field(default_factory=list)
    """(time, recipient) of every mail sent, in order."""

    def _note(self) -> None:
        sent = self.post.sent()
        for msg in sent[len(self.mails):]:
            self.mails.append((self.clock.now, str(msg["To"])))

    def send(self, who: str, body: str, sign: bool = True) -> None:
        self.mail(who, body, sign)
        self._note()

    def tick(self, minutes: float) -> None:
        super().tick(minutes)
        self._note()


def open_run(root: Path, label: str, game: Game, asks: list[Role]) -> Run:
    """A game of ``game`` created, joined and started by mail with the
    default settings; the seats in ``asks`` have themselves asked every
    window by hand."""
    run = open_game(Run, root, label, game, name=NAME, seed=SEED,
                    options=MAIL_OPTIONS.get(game.id, {}))
    for role in asks:
        run.send(role, "\n".join(f"POLICY {w.kind} ASK" for w in game.windows))
    return run


@pytest.fixture
def runs(tmp_path: Path) -> Iterator[Callable[[str, Game, list[Role]], Run]]:
    opened: list[Run] = []

    def make(label: str, game: Game, asks: list[Role]) -> Run:
        run = open_run(tmp_path, label, game, asks)
        opened.append(run)
        return run

    yield make
    for run in opened:
        run.judge.close()


def _both(runs: list[Run], who: str, body: str) -> None:
    for run in runs:
        run.send(who, body)


def _tick(runs: list[Run], minutes: float) -> None:
    for run in runs:
        run.tick(minutes)


def _after(game: Game, table: adj.Table, role: Role, line: str) -> adj.Table | None:
    """The table once ``role``'s ``line`` is in and the judge has carried the
    game on as far as it goes by itself: a single action acted on; an order
    resolved with the rest of its set when it is the last one owed (early
    processing); then standing answers and queued lines. Tried on the table,
    nothing is stored; None when the line is refused now."""
    try:
        action = game.parse(table.state, role, line)
        if role in adj.ordering_roles(game, table):
            after = adj.submit(game, table, role, [action]).table
            if adj.ready(game, after):
                after = adj.resolve(game, after, SEED, "early").table
        else:
            after = adj.act(game, table, role, action, SEED).table
        for more in adj.drain(game, after, SEED):
            after = more.table
    except RuleError:
        return None
    return after


def _asks_another(game: Game, table: adj.Table, role: Role, line: str) -> bool:
    """Whether ``role`` sending ``line`` now opens a window that asks a seat
    other than ``role`` by hand: an action that opens one, or the last order
    of an order set whose resolution does (tried on the table; nothing is
    stored)."""
    if not adj.ordering_roles(game, table) and not _opens_window(
            game, table, role, line, SEED, role):
        return False
    after = _after(game, table, role, line)
    if after is None:
        return False
    w = adj.open_window(game, after)
    return (w is not None and any(r != role for r in w.roles)
            and bool(adj.answering_roles(game, after) - {role}))


def _held(game: Game, table: adj.Table, role: Role, line: str) -> dict[Role, object]:
    """What each seat holds for the window ``line`` opens, once the standing
    answers are in (tried on the table; nothing is stored)."""
    after = _after(game, table, role, line)
    assert after is not None
    w = adj.open_window(game, after)
    assert w is not None
    return {r: a["lines"] for r, a in after.windows[w.id]["answers"].items()}


def _orders_stand(game: Game, table: adj.Table, state: dict[str, object]) -> bool:
    """Whether every order held so far still reads the same in ``state`` (a
    deal of what the last seat of an order set may not see must leave the
    others' sealed orders as they were written: they are revealed alike)."""
    for role, held in table.orders.items():
        for raw in held:
            try:
                again = game.parse(state, role, str(raw["text"]))
            except RuleError:
                return False
            if again.text != raw["text"]:
                return False
    return True


def telling_scramble(game: Game, table: adj.Table, role: Role, line: str,
                     keep: list[Role]) -> dict[str, object] | None:
    """A state dealt again for everything ``role`` may not see, under which
    some seat not in ``keep`` holds another standing answer for the window
    ``line`` opens (a Dodge held in one home and not in the other): where a
    timing leak would show. None if no such deal turns up."""
    plain = _held(game, table, role, line)
    # Deals that move another seat's sealed order out of its hand are passed
    # over: an order set's last line tries more of them.
    tries = 400 if table.orders else 40
    for k in range(tries):
        other = scramble(game, table.state, role, random.Random(f"timing:{game.id}:{k}"))
        if not _orders_stand(game, table, other):
            continue
        trial = adj.Table.loads(table.dumps())
        trial.state = other
        try:
            held = _held(game, trial, role, line)
        except (RuleError, AssertionError):  # a deal under which the line plays otherwise
            continue
        if any(held.get(r) != plain.get(r) for r in set(held) | set(plain)
               if r != role and r not in keep):
            return other
    return None


def _window_line(game: Game, table: adj.Table, role: Role, tried: list[str], keep: list[Role],
                 late: bool) -> tuple[Role, str, dict[str, object]] | None:
    """The first of ``tried`` that opens a window asking another seat by
    hand, with a deal of what ``role`` may not see that changes another
    seat's standing answer to it; ``late`` in the drive (or in a game short
    enough to end first: :data:`QUICK`), any deal that leaves the sealed
    orders as written will do."""
    for x in tried:
        if not _asks_another(game, table, role, x):
            continue
        other = telling_scramble(game, table, role, x, keep)
        if other is not None:
            return role, x, other
        if late or game.id in QUICK:  # standing answers that read no hand
            for k in range(400):
                other = scramble(game, table.state, role, random.Random(f"timing:{game.id}:{k}"))
                if other != table.state and _orders_stand(game, table, other):
                    return role, x, other
    return None


def drive_to_line(both: list[Run], chooser: random.Random,
                  keep: list[Role]) -> tuple[Role, str, dict[str, object]]:
    """Play the same random legal lines in both homes (seats asked by hand
    pass) until the seat on turn has a line that opens a window asking
    another seat by hand, and a deal of what it may not see changes another
    seat's standing answer to it (:func:`telling_scramble`); returns that
    seat, the line (not sent) and the deal. A game whose standing answers
    read no hand (Conflict of Alliances has none to begin with) gives no
    such deal: after a third of the drive, the first window-opening line
    and any deal of what its seat may not see will do."""
    lead = both[0]
    game = lead.game
    for step in range(DRIVE_LIMIT):
        table = lead.table()
        assert all(r.table().state == table.state for r in both[1:]), "the homes differ"
        assert table.outcome is None, f"{game.id}: the game ended before a window"
        before = table.dumps()
        due = adj.open_decisions(game, table)
        assert due, f"{game.id}: nothing to decide and no outcome"
        d = due[0]
        window = adj.open_window(game, table)
        if window is not None:
            for role in sorted(adj.answering_roles(game, table)):
                if table.answer_of(window.id, role) is None:
                    _both(both, role, "PASS")
        elif d.kind is DecisionKind.ORDERS:
            # Every seat but the last writes a random order; the last one's
            # order completes the set, and its resolution may open a window.
            # (The last is a seat that keeps its standing answers, when one
            # writes: the window is to ask another seat by hand.)
            writing = [r for r in d.roles if game.legal(table.state, r)]
            last = next((r for r in writing if r not in keep), writing[-1] if writing else None)
            for role in writing:
                if role != last:
                    _both(both, role, chooser.choice(game.legal(table.state, role)))
            if last is not None:
                role = last
                table = lead.table()
                legal = game.legal(table.state, role)
                found = _window_line(game, table, role, chooser.sample(legal, min(len(legal), 60)),
                                     keep, late=step >= DRIVE_LIMIT // 3)
                if found is not None:
                    return found
                _both(both, role, chooser.choice(legal))
        else:
            role = d.roles[0]
            legal = game.legal(table.state, role)
            tried = chooser.sample(legal, min(len(legal), 60))
            if d.takes_queued:
                found = _window_line(game, table, role, tried, keep,
                                     late=step >= DRIVE_LIMIT // 3)
                if found is not None:
                    return found
            if legal:
                _both(both, role, chooser.choice(legal))
        if lead.table().dumps() == before:
            _tick(both, 25 * 60)  # nothing moved: a deadline decides
    raise AssertionError(f"{game.id}: no window-opening line within {DRIVE_LIMIT} steps")


def _first_close(run: Run, after: int) -> int | None:
    """The log number of the first window close after entry ``after``."""
    for row in run.judge.store.actions(NAME):
        if int(row["n"]) > after and row["kind"] == "close":
            return int(row["n"])
    return None


@dataclass
class Timeline:
    asked: list[tuple[datetime, tuple[Role, ...]]] = field(default_factory=list)
    closed_at: datetime | None = None
    mails: list[tuple[datetime, str]] = field(default_factory=list)


def script(both: list[Run], delay: float, start: int) -> list[Timeline]:
    """Each seat asked by hand answers PASS ``delay`` minutes after it was
    asked, in both homes alike (asserting they ask the same seats), until
    the first window closes in either home; the timelines of both."""
    lines = [Timeline() for _ in both]
    mark = [len(r.mails) for r in both]
    for _ in range(200):
        closed = [_first_close(r, start) is not None for r in both]
        if any(closed):
            break
        asked = []
        for run, line in zip(both, lines, strict=True):
            table = run.table()
            w = adj.open_window(run.game, table)
            owed = tuple(sorted(r for r in adj.answering_roles(run.game, table)
                                if w is not None and table.answer_of(w.id, r) is None))
            line.asked.append((run.clock.now, owed))
            asked.append(owed)
        assert all(a == asked[0] for a in asked), f"the homes ask different seats: {asked}"
        if asked[0]:
            _tick(both, delay)
            for role in asked[0]:
                _both(both, role, "PASS")
        else:
            _tick(both, 1)  # nobody is asked: the window is over, or it waits for nobody
    for run, line, n in zip(both, lines, mark, strict=True):
        close = _first_close(run, start)
        if close is not None:
            row = next(r for r in run.judge.store.actions(NAME) if int(r["n"]) == close)
            line.closed_at = datetime.fromisoformat(str(row["created"]))
        line.mails = [m for m in run.mails[n:] if line.closed_at is None or m[0] < line.closed_at]
    return lines


QUICK = {t.id for t in TEST_GAMES}
"""The test-only games: played to their end in a round or three, they take
the first window that asks another seat, with a deal that changes a
standing answer when there is one and any other deal when not."""


# Slow (not in the fast tier): each case plays two homes by mail up to a
# window, trying the lines of the seat on turn against dozens of deals;
# Kingdom Wars' case alone is minutes of CPU.
@pytest.mark.slow
@pytest.mark.parametrize("delay", DELAYS.values(), ids=list(DELAYS))
@pytest.mark.parametrize("mail_game", GAMES, ids=[g.id for g in GAMES])
def test_when_a_window_closes_tells_nothing_hidden(
    mail_game: Game, delay: float, runs: Callable[[str, Game, list[Role]], Run]
) -> None:
    """See the module docstring: with the hidden facts dealt again in one
    home, the window closes at the same moment, the same seats are asked,
    and the same mails go out at the same moments to the same seats."""
    options = MAIL_OPTIONS.get(mail_game.id, {})
    all_roles = mail_game.roles(mail_game.setup(option_values(mail_game, options), Rng(SEED, 0)))
    asks = all_roles[1::2]  # every other seat is asked by hand; the rest keep the defaults
    one, two = runs("plain", mail_game, asks), runs("scrambled", mail_game, asks)
    both = [one, two]
    chooser = random.Random(f"timing:{mail_game.id}")
    seat, line, other = drive_to_line(both, chooser, asks)
    table = two.table()
    assert other != table.state, "the scrambler changed nothing: the test would prove nothing"
    table.state = other
    two.judge.store.update_game(NAME, table_json=table.dumps())
    assert mail_game.view(other, seat) == mail_game.view(one.table().state, seat)
    start = max(int(r["n"]) for r in one.judge.store.actions(NAME))
    _both(both, seat, line)
    plain, scrambled = script(both, delay, start)
    assert plain.closed_at is not None and scrambled.closed_at is not None, "no window closed"
    assert any(owed for _, owed in plain.asked), "nobody was asked: the test would prove nothing"
    assert plain.asked == scrambled.asked
    assert plain.closed_at == scrambled.closed_at
    assert plain.mails == scrambled.mails
