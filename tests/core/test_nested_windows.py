"""Nested response windows through the judge's own adjudicator, over the
test-only game Counterspell (tests/games/counterspell.py, rules R1-R9).

A spell is countered, the counter countered, three windows deep, each window
offered to several seats that answer in secret. The tests show that a closing
window takes its answers in the rulebook's order, that an answer opening a
window of its own suspends the outer one, which goes on where it stopped
once the chain above it is settled (:func:`judge.game.adjudicator.drain`), that
answers a window no longer needs go back to their writers privately, that
deadlines close inner windows with defaults for the silent, that standing
answers with conditions answer windows, that the log replays to the same
table, and, by mail, who is asked what and when.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Any

import pytest

from judge.game import adjudicator as adj
from judge.game import registry
from judge.game.engine import JSON, Action, Decision, DecisionKind, Event, RuleError, State
from judge.game.rng import Rng
from tests.core.conftest import Post
from tests.core.helpers import GM_ADDR, Seats, token_in
from tests.games.counterspell import COUNTER, GAME, SEATS

A, B, C, D, E = SEATS


@pytest.fixture(autouse=True)
def _counterspell_registered() -> Iterator[None]:
    """The test-only game is findable by id while a test runs (the mail test
    creates it by name), and afterwards as it was before."""
    try:
        had = registry.get(GAME.id) is GAME
    except registry.UnknownGame:
        had = False
    registry.register(GAME)
    yield
    if not had:
        registry.unregister(GAME.id)


# --------------------------------------------------------------------------- deals


def _seed(n: int) -> bytes:
    return hashlib.sha256(f"nested-windows:{n}".encode()).digest()


def find_seed(players: int, wants: Callable[[Mapping[str, list[str]]], bool],
              rounds: int = 3) -> bytes:
    """The first test seed whose deal (R2) satisfies ``wants`` (over the hands)."""
    options = {"players": players, "rounds": rounds}
    for n in range(5000):
        state = GAME.setup(options, Rng(_seed(n), 0))
        if wants(state["hands"]):
            return _seed(n)
    raise AssertionError("no seed deals such hands")


def counters(hands: Mapping[str, list[str]], role: str) -> int:
    return hands[role].count(COUNTER)


def a_spell(hands: Mapping[str, list[str]], role: str) -> str:
    return next(c for c in hands[role] if c != COUNTER)


# --------------------------------------------------------------------------- a table


@dataclass
class Play:
    """A game driven through judge.game.adjudicator, keeping every step it made."""

    seed: bytes
    options: dict[str, JSON]
    table: adj.Table = field(init=False)
    steps: list[adj.Step] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.table = self._take(adj.start(GAME, self.options, self.seed)).table

    def _take(self, step: adj.Step) -> adj.Step:
        self.steps.append(step)
        self.table = step.table
        return step

    @property
    def state(self) -> State:
        return self.table.state

    def parse(self, role: str, line: str) -> Action:
        return GAME.parse(self.state, role, line)

    def act(self, role: str, line: str) -> None:
        self._take(adj.act(GAME, self.table, role, self.parse(role, line), self.seed))
        self.drain()

    def answer(self, role: str, line: str) -> None:
        self._take(adj.answer(GAME, self.table, role, [self.parse(role, line)]))

    def answers(self, **lines: str) -> None:
        for role, line in lines.items():
            self.answer(role, line)

    def close(self) -> None:
        assert adj.window_complete(GAME, self.table)
        self._take(adj.close(GAME, self.table, self.seed, "all answered"))
        self.drain()

    def deadline(self) -> None:
        self._take(adj.deadline(GAME, self.table, self.seed))
        self.drain()

    def drain(self) -> None:
        for step in adj.drain(GAME, self.table, self.seed):
            self._take(step)

    def policy(self, role: str, text: str) -> None:
        """``POLICY counter <text>`` as the POLICY command reads it."""
        answer_text, cond = adj.parse_answer_words(text)
        when = GAME.policy_condition("counter", cond.split()) if cond else ""
        self._take(adj.set_policy(self.table, role, "counter", answer_text, when))

    def window(self) -> Decision:
        w = adj.open_window(GAME, self.table)
        assert w is not None
        return w

    def entries(self, since: int = 0) -> list[adj.Entry]:
        return [e for s in self.steps[since:] for e in s.entries]

    def events(self, since: int = 0) -> list[Event]:
        return [ev for s in self.steps[since:] for ev in s.events]

    def taken(self, since: int = 0) -> list[tuple[int, str, str, str]]:
        """The answers windows took, in order: (window serial, role, answer, how)."""
        out: list[tuple[int, str, str, str]] = []
        for e in self.entries(since):
            if e.kind in ("act", "default") and "window" in e.payload:
                assert e.role is not None
                action = Action.from_json(e.payload["action"])
                how = "default" if e.kind == "default" else str(e.payload["by"])
                out.append((serial(str(e.payload["window"])), e.role, action.text, how))
        return out

    def rows(self) -> list[dict[str, Any]]:
        """The log as the store keeps it: what apply_entry reads back."""
        return [{"kind": e.kind, "role": e.role, "payload": json.loads(json.dumps(e.payload)),
                 "draws": [d.to_json() for d in e.draws]} for e in self.entries()]


def serial(window_id: str) -> int:
    """The serial number a window's name carries (``turn 1: window 3 (depth 2) ...``)."""
    return int(window_id.split("window ", 1)[1].split(" ", 1)[0])


def not_needed(events: list[Event]) -> dict[str, list[str]]:
    """Answers given back to their writers: role -> the unused answer texts."""
    out: dict[str, list[str]] = {}
    for ev in events:
        if "unused" in ev.data:
            assert ev.audience is not None and len(ev.audience) == 1
            (role,) = ev.audience
            out.setdefault(role, []).extend(ev.data["unused"])
    return out


def public_text(events: list[Event]) -> list[str]:
    return [ev.text for ev in events if ev.audience is None]


# --------------------------------------------------------------------------- (a) nesting


def test_three_deep_chain_takes_answers_in_rulebook_order_and_resumes_outer_windows() -> None:
    """R4-R8 with five players: every window is answered by all its seats,
    and closing takes the answers in seat order from the player whose card
    the window is about. A COUNTER suspends its window; when the chain above
    is settled, the window goes on with the answers still waiting in it, and
    a window whose card was cancelled gives its waiting answers back."""
    seed = find_seed(5, lambda h: counters(h, A) >= 1 and len(h[A]) > counters(h, A)
                     and counters(h, C) >= 2 and counters(h, D) >= 1 and counters(h, E) >= 1)
    play = Play(seed, {"players": 5, "rounds": 3})
    spell = a_spell(play.state["hands"], A)
    life = play.state["life"][C]
    play.act(A, f"CAST {spell} AT {C}")

    # Window 1 (depth 1) on Amber's spell: Beryl, Coral, Dusk, Ember (R4).
    w1 = play.window()
    assert (w1.depth, w1.roles, w1.window) == (1, (B, C, D, E), "counter")
    play.answers(Ember="PASS", Dusk="COUNTER", Coral="COUNTER", Beryl="PASS")
    assert play.state["windows"][0]["roles"] == [B, C, D, E]  # nothing taken yet: secret
    mark = len(play.steps)
    play.close()
    # Beryl's PASS, then Coral's COUNTER opens window 2; Dusk and Ember wait (R5).
    assert play.taken(mark) == [(1, B, "PASS", "hand"), (1, C, "COUNTER", "hand")]
    w2 = play.window()
    assert (w2.depth, w2.roles, serial(w2.id)) == (2, (D, E, A, B), 2)
    below = GAME.pending(play.state)
    assert [(d.depth, d.roles) for d in below] == [(2, (D, E, A, B)), (1, (D, E))]
    assert adj.open_decisions(GAME, play.table) == [w2]
    assert play.table.windows[w1.id]["closing"] and w1.id in play.table.windows

    play.answers(Beryl="PASS", Amber="COUNTER", Ember="COUNTER", Dusk="PASS")
    mark = len(play.steps)
    play.close()
    assert play.taken(mark) == [(2, D, "PASS", "hand"), (2, E, "COUNTER", "hand")]
    w3 = play.window()
    assert (w3.depth, w3.roles, serial(w3.id)) == (3, (A, B, C, D), 3)
    assert [d.depth for d in GAME.pending(play.state)] == [3, 2, 1]

    # Window 3: Coral's COUNTER at depth 3 stands at once (R6) and cancels
    # Ember's counter; window 3 is over (Dusk's answer is not needed) and
    # window 2 goes on where it stopped: with Amber, not with Dusk again.
    play.answers(Dusk="COUNTER", Coral="COUNTER", Beryl="PASS", Amber="PASS")
    mark = len(play.steps)
    play.close()
    assert play.taken(mark) == [(3, A, "PASS", "hand"), (3, B, "PASS", "hand"),
                                (3, C, "COUNTER", "hand"), (2, A, "COUNTER", "hand")]
    events = play.events(mark)
    assert not_needed(events) == {D: ["COUNTER"]}
    gift = next(ev for ev in events if "unused" in ev.data)
    assert gift.audience == frozenset({D}) and "was not needed" in gift.text
    assert f"{C}'s counter stands and cancels {E}'s counter; window 3 is over." in public_text(
        events)
    assert all("Dusk" not in t or "window 3" not in t for t in public_text(events))
    # Amber's counter of window 2 opened window 4, a new depth 3 over it.
    w4 = play.window()
    assert (w4.depth, w4.roles, serial(w4.id)) == (3, (B, C, D, E), 4)
    assert w3.id not in play.table.windows and w2.id in play.table.windows

    # Window 4: all pass; Amber's counter stands and cancels Coral's; window 2
    # is over (Beryl's PASS is given back) and window 1 goes on with Dusk.
    play.answers(Beryl="PASS", Coral="PASS", Dusk="PASS", Ember="PASS")
    mark = len(play.steps)
    play.close()
    assert play.taken(mark) == [(4, B, "PASS", "hand"), (4, C, "PASS", "hand"),
                                (4, D, "PASS", "hand"), (4, E, "PASS", "hand"),
                                (1, D, "COUNTER", "hand")]
    assert not_needed(play.events(mark)) == {B: ["PASS"]}
    w5 = play.window()
    assert (w5.depth, w5.roles, serial(w5.id)) == (2, (E, A, B, C), 5)
    assert play.window().context["by"] == D

    # Window 5: nobody counters Dusk's counter: it stands and cancels the
    # spell (R8); window 1 is over and Ember's PASS goes back to Ember.
    play.answers(Amber="PASS", Beryl="PASS", Coral="PASS", Ember="PASS")
    mark = len(play.steps)
    play.close()
    assert play.taken(mark) == [(5, E, "PASS", "hand"), (5, A, "PASS", "hand"),
                                (5, B, "PASS", "hand"), (5, C, "PASS", "hand")]
    assert not_needed(play.events(mark)) == {E: ["PASS"]}
    assert play.table.windows == {}
    assert play.state["life"][C] == life  # the spell was cancelled
    (record,) = play.state["history"]
    assert record["result"] == "countered"
    assert [(c["by"], c["depth"]) for c in record["counters"]] == [
        (C, 1), (E, 2), (C, 3), (A, 2), (D, 1)]
    assert adj.acting_roles(GAME, play.table) == {B}  # R8: the next turn


def test_a_held_answer_that_no_longer_fits_when_its_window_resumes_is_dropped() -> None:
    """Dusk answers COUNTER in window 1 and, before that answer's turn comes,
    spends its only counter in window 2. When window 1 goes on, the held
    COUNTER no longer fits: it is dropped with a notice to Dusk alone and the
    default (PASS) is taken instead; then the spell resolves."""
    seed = find_seed(4, lambda h: counters(h, C) >= 1 and counters(h, D) == 1
                     and len(h[A]) > counters(h, A))
    play = Play(seed, {"players": 4, "rounds": 3})
    spell = a_spell(play.state["hands"], A)
    life = play.state["life"][C]
    play.act(A, f"CAST {spell} AT {C}")
    play.answers(Beryl="PASS", Coral="COUNTER", Dusk="COUNTER")
    play.close()  # Beryl passes, Coral counters: window 2 (Dusk, Amber, Beryl)
    play.answers(Dusk="COUNTER", Amber="PASS", Beryl="PASS")
    play.close()  # Dusk counters Coral's counter: window 3 (Amber, Beryl, Coral)
    assert play.state["hands"][D].count(COUNTER) == 0
    play.answers(Amber="PASS", Beryl="PASS", Coral="PASS")
    mark = len(play.steps)
    play.close()
    # Dusk's counter stands, cancels Coral's; window 2 is over (Amber's and
    # Beryl's answers, never taken, go back); window 1 goes on.
    assert play.taken(mark) == [(3, A, "PASS", "hand"), (3, B, "PASS", "hand"),
                                (3, C, "PASS", "hand"), (1, D, "PASS", "default")]
    dropped = [e for e in play.entries(mark) if e.kind == "drop"]
    assert [(e.role, e.payload["line"]) for e in dropped] == [(D, "COUNTER")]
    notices = [ev for ev in play.events(mark) if "dropped" in ev.data]
    assert [(ev.audience, ev.data["dropped"]) for ev in notices] == [
        (frozenset({D}), "COUNTER")]
    assert "you hold no counter card" in notices[0].text
    assert not_needed(play.events(mark)) == {A: ["PASS"], B: ["PASS"]}
    assert play.state["life"][C] == life - int(spell[1:])  # R8: the spell resolved
    assert play.state["history"][-1]["result"] == "resolved"


# --------------------------------------------------------------------------- (b) deadlines


def test_deadlines_close_inner_windows_with_defaults_then_the_outer_goes_on() -> None:
    """Each deadline closes the open window alone: the silent seats get the
    default (PASS) in their turn of the window's order; a window suspended by
    a counter keeps its silent seats until it goes on, and takes their
    defaults only then, after the chain above it has settled."""
    seed = find_seed(4, lambda h: counters(h, A) >= 1 and len(h[A]) > counters(h, A)
                     and counters(h, C) >= 1)
    play = Play(seed, {"players": 4, "rounds": 3})
    spell = a_spell(play.state["hands"], A)
    life = play.state["life"][C]
    play.act(A, f"CAST {spell} AT {C}")
    w1 = play.window()
    play.answer(C, "COUNTER")  # Beryl and Dusk stay silent
    assert not adj.window_complete(GAME, play.table)
    assert adj.waiting_on(GAME, play.table) == {B, D}
    mark = len(play.steps)
    play.deadline()
    assert play.taken(mark) == [(1, B, "PASS", "default"), (1, C, "COUNTER", "hand")]
    assert [e.payload["trigger"] for e in play.entries(mark) if e.kind == "close"] == [
        "deadline"]
    w2 = play.window()
    assert (w2.depth, w2.roles) == (2, (D, A, B))
    assert GAME.pending(play.state)[1].roles == (D,)  # Dusk waits, not yet defaulted

    play.answer(A, "COUNTER")  # Dusk and Beryl silent
    mark = len(play.steps)
    play.deadline()
    assert play.taken(mark) == [(2, D, "PASS", "default"), (2, A, "COUNTER", "hand")]
    w3 = play.window()
    assert (w3.depth, w3.roles) == (3, (B, C, D))
    assert adj.waiting_on(GAME, play.table) == {B, C, D}

    play.answer(C, "PASS")
    mark = len(play.steps)
    play.deadline()
    # Window 3 at its deadline; Amber's counter stands and cancels Coral's;
    # window 2 is over (Beryl never answered it: nothing to give back, no
    # default); window 1 goes on, and Dusk, silent there, takes the default.
    assert play.taken(mark) == [(3, B, "PASS", "default"), (3, C, "PASS", "hand"),
                                (3, D, "PASS", "default"), (1, D, "PASS", "default")]
    assert not_needed(play.events(mark)) == {}
    triggers = [e.payload["trigger"] for e in play.entries(mark) if e.kind == "close"]
    assert triggers == ["deadline"]  # window 1 went on without a new close
    assert w1.id not in play.table.windows and w2.id not in play.table.windows
    assert play.state["life"][C] == life - int(spell[1:])
    assert adj.acting_roles(GAME, play.table) == {B}
    # The next turn's deadline: Beryl's default is to pass the turn (R3).
    play.deadline()
    assert adj.acting_roles(GAME, play.table) == {C}
    assert play.state["history"][-1]["result"] == "passed"


# --------------------------------------------------------------------------- (c) policies


def test_standing_answers_with_conditions_answer_windows() -> None:
    """POLICY entries with conditions (R4's window, tested on the seat's own
    view and the window's context) answer each window as it opens; they are
    held like answers by hand (by="policy") and taken in the same order. A
    seat is asked when no entry it can be judged on publicly holds (an entry
    on its hand, HOLDING, may choose an answer but not whether it is asked:
    judge/game/timing.py); Beryl's COUNTER, which never fits her hand, answers
    (a pass) without asking her."""
    seed = find_seed(4, lambda h: counters(h, A) >= 1 and len(h[A]) > counters(h, A)
                     and counters(h, C) >= 1 and counters(h, D) >= 1 and counters(h, B) == 0)
    play = Play(seed, {"players": 4, "rounds": 3})
    play.policy(B, "PASS WHEN depth 1")  # Beryl passes at depth 1, is asked deeper
    play.policy(C, "COUNTER WHEN target me and depth 1")
    play.policy(C, "PASS WHEN holding counter and depth 2")
    play.policy(D, "COUNTER WHEN by coral AND holding counter")
    play.policy(D, "PASS")
    play.policy(A, "COUNTER WHEN depth 3")
    assert adj.ordered_policies(play.table, C, "counter") == [
        {"answer": "COUNTER", "when": "TARGET ME AND DEPTH 1"},
        {"answer": "PASS", "when": "HOLDING COUNTER AND DEPTH 2"}]
    spell = a_spell(play.state["hands"], A)
    life = play.state["life"][C]
    play.act(A, f"CAST {spell} AT {C}")

    # Window 1 (Beryl, Coral, Dusk): every seat answered by its policy.
    w1 = play.window()
    got = play.table.windows[w1.id]["answers"]
    assert {r: (a["lines"][0]["text"], a["by"]) for r, a in got.items()} == {
        B: ("PASS", "policy"), C: ("COUNTER", "policy"), D: ("PASS", "policy")}
    assert adj.window_complete(GAME, play.table)
    play.close()

    # Window 2 (Dusk, Amber, Beryl) on Coral's counter: Dusk's condition now
    # holds; Amber's (depth 3) and Beryl's (depth 1) do not: both are asked.
    w2 = play.window()
    assert w2.roles == (D, A, B)
    got = play.table.windows[w2.id]["answers"]
    assert {r: (a["lines"][0]["text"], a["by"]) for r, a in got.items()} == {
        D: ("COUNTER", "policy")}
    assert adj.unanswered(GAME, play.table) == {A, B}
    play.answers(Amber="PASS", Beryl="PASS")
    play.close()

    # Window 3 (Amber, Beryl, Coral) on Dusk's counter: Amber's DEPTH 3
    # counters; Coral's entries do not hold (depth 3), so Coral is asked.
    w3 = play.window()
    assert (w3.depth, w3.roles) == (3, (A, B, C))
    got = play.table.windows[w3.id]["answers"]
    assert {r: (a["lines"][0]["text"], a["by"]) for r, a in got.items()} == {
        A: ("COUNTER", "policy")}
    play.answers(Beryl="PASS", Coral="PASS")
    mark = len(play.steps)
    play.close()
    # Amber's counter stands at once (R6) and cancels Dusk's: window 3 is over
    # (Beryl's and Coral's answers go back); window 2 goes on with Amber and
    # Beryl, who pass: Coral's counter stands and cancels the spell, so
    # window 1 is over and Dusk's PASS, waiting there, goes back too.
    assert play.taken(mark) == [(3, A, "COUNTER", "policy"), (2, A, "PASS", "hand"),
                                (2, B, "PASS", "hand")]
    assert not_needed(play.events(mark)) == {B: ["PASS"], C: ["PASS"], D: ["PASS"]}
    assert play.state["life"][C] == life
    assert play.state["history"][-1]["result"] == "countered"
    taken = play.taken()
    assert [t for t in taken if t[0] == 1] == [(1, B, "PASS", "policy"),
                                               (1, C, "COUNTER", "policy")]
    assert next(t for t in taken if t[0] == 2) == (2, D, "COUNTER", "policy")


def test_policy_conditions_are_checked_and_read_only_the_seats_view() -> None:
    """The condition words of counter windows: canonical text, graded refusals,
    and a test that sees only the seat's own view and the window's context."""
    cond = GAME.policy_condition
    assert cond("counter", ["target", "me", "AND", "depth", "2"]) == "TARGET ME AND DEPTH 2"
    assert cond("counter", ["by", "d"]) == "BY Dusk"
    for words in (["depth", "4"], ["raining"], ["by", "nobody"]):
        with pytest.raises(RuleError, match="not a"):
            cond("counter", words)
    with pytest.raises(RuleError, match="AND joins two conditions"):
        cond("counter", ["target", "me", "and"])
    with pytest.raises(RuleError):
        cond("gift", ["target", "me"])
    seed = find_seed(3, lambda h: counters(h, B) == 0 and len(h[A]) > counters(h, A))
    play = Play(seed, {"players": 3, "rounds": 1})
    play.act(A, f"CAST {a_spell(play.state['hands'], A)} AT {B}")
    w = play.window()
    holds = GAME.policy_holds
    mine = GAME.view(play.state, B)
    assert holds(mine, w, "TARGET ME") and holds(mine, w, "DEPTH 1 AND BY Amber")
    assert not holds(mine, w, "HOLDING COUNTER")  # Beryl holds none
    assert not holds(GAME.view(play.state, C), w, "TARGET ME")
    # The hand of the view is all HOLDING reads: another seat's cards do not count.
    assert holds({**mine, "hand": [COUNTER]}, w, "HOLDING COUNTER AND TARGET ME")


# --------------------------------------------------------------------------- (d) replay


def _nested_play() -> Play:
    """A short game with a chain three deep, a drop, policies and deadlines."""
    seed = find_seed(4, lambda h: counters(h, A) >= 1 and len(h[A]) > counters(h, A)
                     and counters(h, C) >= 1 and counters(h, D) == 1, rounds=1)
    play = Play(seed, {"players": 4, "rounds": 1})
    play.policy(B, "PASS")
    play.policy(C, "COUNTER WHEN target me AND depth 1")
    play.act(A, f"CAST {a_spell(play.state['hands'], A)} AT {C}")
    play.answer(D, "COUNTER")
    play.close()  # window 1: Beryl passes, Coral counters: window 2 (Dusk, Amber, Beryl)
    play.answers(Dusk="COUNTER", Amber="PASS")
    play.deadline()  # Dusk counters: window 3 (Amber, Beryl, Coral)
    play.answer(A, "PASS")
    play.deadline()  # Dusk's counter stands; window 1 goes on: Dusk's COUNTER dropped
    assert any(e.kind == "drop" for e in play.entries())
    for role in (B, C, D):
        if adj.acting_roles(GAME, play.table) == {role}:
            play.act(role, "PASS")
    return play


def test_replaying_the_log_rebuilds_the_same_table() -> None:
    """The entries every step made, stored as log rows, rebuild the table
    byte for byte from the seed (and from a snapshot with the rows after it);
    a log with one answer changed does not."""
    play = _nested_play()
    rows = play.rows()
    kinds = {r["kind"] for r in rows}
    assert {"setup", "policy", "act", "answer", "asked", "close", "default", "drop"} <= kinds
    rebuilt = adj.replay(GAME, rows, play.seed)
    assert rebuilt.dumps() == play.table.dumps()
    # From a snapshot taken in the middle of the chain (a window suspended).
    cut = next(i for i, s in enumerate(play.steps)
               if len(GAME.pending(s.table.state)) > 1)
    snapshot = adj.Table.loads(play.steps[cut].table.dumps())
    rest = [r for s in play.steps[cut + 1:] for r in _rows(s)]
    assert adj.replay(GAME, rest, play.seed, start_from=snapshot).dumps() == play.table.dumps()
    # The same log with the spell cast at another player rebuilds another game.
    changed = json.loads(json.dumps(rows))
    cast = next(r for r in changed if r["payload"].get("action", {}).get("data", {})
                .get("verb") == "CAST")
    cast["payload"]["action"]["text"] = cast["payload"]["action"]["text"].replace(C, B)
    try:
        other = adj.replay(GAME, changed, play.seed).dumps()
    except (adj.ReplayError, RuleError, KeyError):
        other = "the log no longer replays"
    assert other != play.table.dumps()


def _rows(step: adj.Step) -> list[dict[str, Any]]:
    return [{"kind": e.kind, "role": e.role, "payload": e.payload,
             "draws": [d.to_json() for d in e.draws]} for e in step.entries]


def _random_play(n: int) -> Play:
    """A seeded random game through the adjudicator: standing answers, answers
    by hand (some that do not fit), closes when complete, deadlines."""
    pick = random.Random(f"nested-windows:{n}")
    play = Play(_seed(n), {"players": pick.choice([3, 4, 5]), "rounds": 2})
    for role in GAME.roles(play.state):
        if pick.random() < 0.5:
            when = pick.choice(["", "TARGET ME", "DEPTH 1", "DEPTH 2", "HOLDING COUNTER",
                                "BY Amber", "TARGET ME AND DEPTH 1"])
            play.policy(role, pick.choice(["PASS", "COUNTER", "ASK"])
                        + (f" WHEN {when}" if when else ""))
    for _ in range(2000):
        if play.table.outcome is not None:
            return play
        acting = sorted(adj.acting_roles(GAME, play.table))
        if acting:
            if pick.random() < 0.2:
                play.deadline()
            else:
                play.act(acting[0], pick.choice(GAME.legal(play.state, acting[0])))
            continue
        assert not play.table.windows[play.window().id].get("closing"), "left closing"
        todo = sorted(adj.unanswered(GAME, play.table))
        if todo and pick.random() < 0.8:
            role = pick.choice(todo)
            line = pick.choice([*GAME.legal(play.state, role), "COUNTER"])
            if line in GAME.legal(play.state, role):
                play.answer(role, line)
        elif todo:
            play.deadline()
        else:
            play.close()
    raise AssertionError(f"random game {n} did not end")


@pytest.mark.parametrize("n", range(40))
def test_random_nested_play_accounts_for_every_answer_and_replays(n: int) -> None:
    """Whatever is answered, however windows close: every answer held when a
    window closes is taken in its turn (or dropped with a notice) or given
    back to its writer, none twice and none lost; the log replays."""
    play = _random_play(n)
    held: dict[tuple[str, str], list[str]] = {}
    used: dict[tuple[str, str], list[str]] = {}
    for e in play.entries():
        assert e.role is not None or e.kind not in ("answer", "drop")
        key = (str(e.payload.get("window", "")), str(e.role))
        if e.kind == "answer":  # a later answer replaces an earlier one
            held[key] = [Action.from_json(a).text for a in e.payload["actions"]]
        elif e.kind == "act" and e.payload.get("held"):
            used.setdefault(key, []).append(Action.from_json(e.payload["action"]).text)
        elif e.kind == "drop" and "window" in e.payload:
            used.setdefault(key, []).append(str(e.payload["line"]))
    back = not_needed(play.events())
    for (window, role), lines in held.items():
        taken = used.get((window, role), [])
        assert lines[:len(taken)] == taken, (window, role)
        for line in lines[len(taken):]:
            back.setdefault(role, []).remove(line)  # ValueError: lost without a word
    assert not any(back.values()), f"given back but never held: {back}"
    assert adj.replay(GAME, play.rows(), play.seed).dumps() == play.table.dumps()


# --------------------------------------------------------------------------- by mail


def start_counterspell(post: Post, seed: bytes, players: int = 4, rounds: int = 2,
                       game: str = "g1") -> Seats:
    """CREATE, SET window_min_minutes 0 (a complete window closes at once),
    a JOIN per seat with its role, START; all by mail."""
    post.judge.seed_source = lambda: seed
    post.send(GM_ADDR, f"CREATE {game} counterspell rounds={rounds}\n")
    gm_token = token_in(post, GM_ADDR)
    post.send(GM_ADDR, f"SIGNON {game} GM {gm_token}\nSET window_min_minutes 0\n")
    tokens: dict[str, str] = {}
    addresses: dict[str, str] = {}
    for role in SEATS[:players]:
        addr = f"{role.lower()}@players.example"
        post.send(addr, f"JOIN {game} {role}\n")
        tokens[role] = token_in(post, addr)
        addresses[role] = addr
    post.new()  # the set-up mails: what START sends comes next
    post.send(GM_ADDR, f"SIGNON {game} GM {gm_token}\nSTART\n")
    return Seats(gm_token, tokens, addresses)


def _by_role(seats: Seats, msgs: list[EmailMessage]) -> dict[str, list[EmailMessage]]:
    """The mails to each seat (the GM's aside)."""
    out: dict[str, list[EmailMessage]] = {r: [] for r in seats.addresses}
    for m in msgs:
        for role, address in seats.addresses.items():
            if m["To"] == address:
                out[role].append(m)
    return out


def _requests(post: Post, msgs: list[EmailMessage], phase: str) -> list[EmailMessage]:
    return [m for m in msgs if phase in m["Subject"] and "your decision" in m["Subject"]
            and phase in post.text(m)]


def test_by_mail_each_seat_is_asked_once_per_window_and_answers_stay_secret(
        post: Post) -> None:
    """Amber's spell at Coral is countered by Coral's counter, which Amber
    counters: three windows, each asked of its seats by one request mail that
    names it. Until a window closes, an answer reaches nobody but its
    writer's acknowledgement; an answer of a suspended window stays secret
    until that window goes on; an answer no longer needed goes back to its
    writer alone; the log rebuilds the game."""
    seed = find_seed(4, lambda h: counters(h, A) >= 1 and len(h[A]) > counters(h, A)
                     and counters(h, C) >= 1, rounds=2)
    seats = start_counterspell(post, seed)

    def send(role: str, line: str) -> dict[str, list[EmailMessage]]:
        post.send(seats.addresses[role], f"{seats.signon(role)}\n{line}\n")
        return _by_role(seats, post.new())

    def phase() -> str:
        return str(GAME.view(post.judge.table("g1").state, None)["phase"])

    start = _by_role(seats, post.new())
    assert all(len(ms) == 1 for ms in start.values())
    spell = a_spell(post.judge.table("g1").state["hands"], A)
    life = post.judge.table("g1").state["life"][C]
    assert _requests(post, start[A], phase())  # Amber's turn, in its start report

    mails = send(A, f"CAST {spell} AT {C}")
    w1 = phase()
    assert "window 1 (depth 1)" in w1
    for role in (B, C, D):
        (request,) = _requests(post, mails[role], w1)
        text = post.text(request)
        assert f"COUNTER {A}'s {spell} at {C}" in text and "COUNTER" in text
        assert "stays secret until the window closes" in text
    assert not _requests(post, mails[A], w1)

    # Window 1: Coral counters. Until Dusk, the last, answers, nobody hears.
    before = post.judge.table("g1").state
    for role, line in ((C, "COUNTER"), (B, "PASS")):
        mails = send(role, line)
        assert [r for r, ms in mails.items() if ms] == [role]  # the ack alone
        assert "held in secret" in post.text(mails[role][0])
        assert post.judge.table("g1").state == before
    mails = send(D, "PASS")
    w2 = phase()
    assert "window 2 (depth 2)" in w2 and f"on {C}'s counter" in w2
    for role in (D, A, B):
        (request,) = _requests(post, mails[role], w2)
        text = post.text(request)
        assert f"{C} counters {A}'s {spell}" in text  # window 1 closed: revealed
        assert f"{D} passes in window 1" not in text  # still held: window 1 waits
    assert mails[C] == []

    # Window 2: Amber counters Coral's counter; window 3 asks Beryl, Coral, Dusk.
    for role, line in ((A, "COUNTER"), (B, "PASS")):
        mails = send(role, line)
        assert [r for r, ms in mails.items() if ms] == [role]
    mails = send(D, "PASS")
    w3 = phase()
    assert "window 3 (depth 3)" in w3 and f"on {A}'s counter" in w3
    for role in (B, C, D):
        (request,) = _requests(post, mails[role], w3)
        assert f"{A} counters {C}'s counter" in post.text(request)
    assert not _requests(post, mails[A], w3)

    # Window 3: all pass. Amber's counter stands and cancels Coral's; window 2
    # is over (Beryl's PASS goes back to Beryl); window 1 goes on with Dusk's
    # PASS; the spell resolves; turn 2 is Beryl's.
    send(B, "PASS")
    send(C, "PASS")
    mails = send(D, "PASS")
    table = post.judge.table("g1")
    assert table.state["life"][C] == life - int(spell[1:])
    assert table.state["history"][-1]["result"] == "resolved"
    assert adj.acting_roles(GAME, table) == {B}
    for role, ms in mails.items():
        digest = "\n".join(post.text(m) for m in ms)
        assert f"{D} passes in window 1" in digest, role
        assert ("was not needed" in digest) == (role == B), role

    # One request per seat per window, over the whole chain.
    everything = _by_role(seats, post.sent())
    for window, asked in ((w1, (B, C, D)), (w2, (D, A, B)), (w3, (B, C, D))):
        for role in SEATS[:4]:
            assert len(_requests(post, everything[role], window)) == (role in asked), (
                window, role)
    assert "rebuild the stored game" in post.judge.replay_check("g1")


# --------------------------------------------------------------------------- the game itself


def test_the_deck_running_out_ends_the_game() -> None:
    """R9: a player who must draw from an empty deck ends the game; the most
    life wins, a tie for the most is a draw."""
    state = GAME.setup({"players": 5, "rounds": 6}, Rng(_seed(0), 0))
    assert len(state["deck"]) == 40 - 25
    rng = Rng(_seed(0), 0)
    turns = 0
    while GAME.outcome(state) is None:
        (decision,) = GAME.pending(state)
        assert decision.kind is DecisionKind.ACTION
        state, _ = GAME.act(state, decision.roles[0], Action("PASS", data={"verb": "PASS"}),
                            rng)
        turns += 1
    assert turns == 16 and state["deck"] == []
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.draw and len(outcome.winners) == 5
    assert "deck is empty" in outcome.reason
