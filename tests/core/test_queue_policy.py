"""Queued lines, standing answers and response windows by mail.

A variant of the test-only game that queues actions and names its response
window ("gift", with a condition word) shows: a window collects every answer
in secret and closes no sooner than its minimum open time, whether a
standing answer or a person answered; a line sent while a seat has nothing
to decide waits for that seat's next turn, never for a window, and is taken
then or dropped with a notice; QUEUE lists and CANCEL removes queued lines;
a reply to a window that has closed is refused on its line (it once queued
itself and spent the writer's next turn); replay rebuilds all of it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator, Mapping, Sequence
from email.message import EmailMessage
from pathlib import Path

import pytest

from judge import reports
from judge.game import registry
from judge.game.engine import (
    JSON,
    Decision,
    IllegalLine,
    PolicyCondition,
    State,
    WindowSpec,
)
from judge.game.spec import Policy
from tests.core.conftest import Clock, Post
from tests.core.helpers import GM_ADDR, Seats, hand, token_in
from tests.games import FILES as SEALED_BIDS_FILES
from tests.games.sealed_bids import SealedBids, record

#: The store and the mail pipeline on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True

ROLES = ("North", "East", "South")


class QueuedSealedBids(SealedBids):
    id = "sealed_queued"
    queues_actions = True
    windows = (WindowSpec("gift", "the gift of the prize (R7)", ("REFUSE",),
                          (PolicyCondition("TO", "ME", "the prize is given to me"),)),)
    view_schema = "sealed-queued-view.schema.json"

    def pending(self, state: State) -> list[Decision]:
        return [dataclasses.replace(d, window="gift", context={"receiver": state["receiver"]})
                if d.kind.value == "response" else d
                for d in super().pending(state)]

    def policy_condition(self, window: str, words: Sequence[str]) -> str:
        if [w.upper() for w in words] != ["TO", "ME"]:
            raise IllegalLine(f"{' '.join(words)!r} is not a condition of gift windows",
                              hint="conditions: TO ME")
        return "TO ME"

    def policy_holds(self, view: Mapping[str, JSON], decision: Decision,
                     condition: str) -> bool:
        return condition == "TO ME" and decision.context.get("receiver") == view["role"]


@pytest.fixture(autouse=True)
def _variant(tmp_path: Path) -> Iterator[None]:
    schema = json.loads((SEALED_BIDS_FILES / "sealed-bids-view.schema.json").read_text())
    schema["properties"]["game"] = {"const": "sealed_queued"}
    (tmp_path / QueuedSealedBids.view_schema).write_text(json.dumps(schema))
    reports.add_schema_dir(tmp_path)
    rules = QueuedSealedBids()
    registry.register(dataclasses.replace(
        record(rules),
        policy=Policy(rules.windows, rules.policy_condition, rules.policy_holds)))
    yield
    registry.unregister("sealed_queued")


def _start(post: Post, min_minutes: int = 30) -> Seats:
    post.send(GM_ADDR, "CREATE q sealed_queued rounds=3\n")
    gm = token_in(post, GM_ADDR)
    post.send(GM_ADDR, f"SIGNON q GM {gm}\nSET window_min_minutes {min_minutes}\n")
    tokens, addresses = {}, {}
    for role in ROLES:
        addr = f"{role.lower()}@players.example"
        post.send(addr, f"JOIN q {role}\n")
        tokens[role], addresses[role] = token_in(post, addr), addr
    post.send(GM_ADDR, f"SIGNON q GM {gm}\nSTART\n")
    return Seats(gm, tokens, addresses)


def _bid_to_award(post: Post, seats: Seats) -> str:
    for role in ROLES:
        card = hand(post, role, "q")[-1]
        post.send(seats.addresses[role], f"{seats.signon(role, 'q')}\nBID {card}\n")
    table = post.judge.table("q")
    assert table.state["stage"] == "award"
    return str(table.state["winner"])


def _to(msgs: list[EmailMessage], address: str) -> list[EmailMessage]:
    return [m for m in msgs if m["To"] == address]


def test_a_window_that_asks_nobody_closes_at_once(post: Post, clock: Clock) -> None:
    """R7's answers stay secret; with standing answers for everyone the window
    asks nobody by hand, so it closes as it opens, window_min_minutes (30
    here) notwithstanding: no window waits for a seat it did not ask, and the
    moment it closes depends only on who was asked, fixed as it opened from
    public facts and settings (judge/game/timing.py)."""
    seats = _start(post)
    for role in ROLES:
        post.send(seats.addresses[role], f"{seats.signon(role, 'q')}\nPOLICY gift PASS\n")
    winner = _bid_to_award(post, seats)
    receiver = next(r for r in ROLES if r != winner)
    post.new()
    post.send(seats.addresses[winner], f"{seats.signon(winner, 'q')}\nGIVE {receiver}\n")
    assert post.judge.table("q").state["stage"] != "respond"
    asked = [json.loads(r["payload"]) for r in post.judge.store.actions("q")
             if r["kind"] == "asked"]
    assert asked[-1]["by_hand"] == []
    taken = [json.loads(r["payload"]) for r in post.judge.store.actions("q")
             if r["kind"] == "act" and json.loads(r["payload"]).get("window")]
    assert len(taken) == 3 and all(p["by"] == "policy" for p in taken)
    for msg in post.new():
        text = post.text(msg).lower()
        assert "policy" not in text and "standing" not in text
        assert "gift" not in post.text(msg).split("\n")[0].lower()
    assert "rebuild the stored game" in post.judge.replay_check("q")


def test_a_window_that_asks_someone_waits_for_them_and_its_minimum_time(
        post: Post, clock: Clock) -> None:
    """One seat keeps no standing answer (it is asked); the others pass by
    theirs. The window waits for the asked seat: answered by hand at minute
    5, it closes at window_min_minutes (30), not before."""
    seats = _start(post)
    winner = _bid_to_award(post, seats)
    receiver, bystander = (r for r in ROLES if r != winner)
    for role in (winner, receiver):
        post.send(seats.addresses[role], f"{seats.signon(role, 'q')}\nPOLICY gift PASS\n")
    post.send(seats.addresses[bystander], f"{seats.signon(bystander, 'q')}\nPOLICY gift ASK\n")
    post.send(seats.addresses[winner], f"{seats.signon(winner, 'q')}\nGIVE {receiver}\n")
    table = post.judge.table("q")
    assert table.state["stage"] == "respond"
    (record,) = table.windows.values()
    assert record["by_hand"] == [bystander]
    clock.advance(minutes=5)
    post.send(seats.addresses[bystander], f"{seats.signon(bystander, 'q')}\nPASS\n")
    assert post.judge.table("q").state["stage"] == "respond"
    clock.advance(minutes=24)
    post.judge.cycle()
    assert post.judge.table("q").state["stage"] == "respond"
    clock.advance(minutes=1)
    post.judge.cycle()
    assert post.judge.table("q").state["stage"] != "respond"


def test_conditional_standing_answers(post: Post) -> None:
    """POLICY ... WHEN: conditional entries are tried before the unconditional
    one, on what the seat may see (here: the gift is to me)."""
    seats = _start(post)
    winner = _bid_to_award(post, seats)
    receiver, bystander = (r for r in ROLES if r != winner)
    for role in (receiver, bystander):
        post.send(seats.addresses[role],
                  f"{seats.signon(role, 'q')}\nPOLICY gift PASS\nPOLICY gift ASK WHEN to me\n"
                  "POLICY\n")
    listing = post.text(post.new()[-1])
    assert "POLICY gift ASK WHEN TO ME\n  POLICY gift PASS" in listing.replace("\r", "")
    post.send(seats.addresses[winner], f"{seats.signon(winner, 'q')}\nGIVE {receiver}\n")
    table = post.judge.table("q")
    (record,) = table.windows.values()
    # The bystander's PASS answers; the receiver is asked (its condition holds), and
    # the winner, who has no standing answer, too.
    assert set(record["answers"]) == {bystander}
    asked = _to(post.new(), seats.addresses[receiver])
    assert len(asked) == 1 and "your decision" in asked[0]["Subject"]
    assert "gift" in post.text(asked[0])


def test_policy_refusals_quote_what_would_be_right(post: Post) -> None:
    seats = _start(post)
    post.send(seats.addresses["North"],
              f"{seats.signon('North', 'q')}\nPOLICY combat PASS\nPOLICY gift MAYBE\n"
              "POLICY gift PASS WHEN raining\nPOLICY gift PASS WHEN\n")
    text = post.text(post.new()[-1])
    assert "no response window called 'combat'" in text and "windows: gift" in text
    assert "'MAYBE' is not an answer to gift windows" in text
    assert "answers: ASK, PASS, REFUSE" in text
    assert "'raining' is not a condition of gift windows" in text and "conditions: TO ME" in text
    assert "WHEN needs a condition" in text
    assert post.judge.table("q").policies == {}


def test_out_of_turn_lines_wait_for_the_next_turn(post: Post) -> None:
    """A line sent while a seat has nothing to decide waits for that seat's
    next turn: it never answers a window, and one that no longer fits then is
    dropped with a notice in the writer's next mail."""
    post.judge.seed_source = lambda: bytes(range(32))  # a fixed deal
    seats = _start(post, min_minutes=0)
    winner = _bid_to_award(post, seats)
    first, second = (r for r in ROLES if r != winner)
    post.new()
    post.send(seats.addresses[first], f"{seats.signon(first, 'q')}\nPASS\n")
    post.send(seats.addresses[second], f"{seats.signon(second, 'q')}\nREFUSE\nFROB\n")
    acks = post.new()
    assert "queued as line 1 for your next turn" in post.text(acks[0])
    assert "queued as line 1" in post.text(acks[1]) and "not understood" in post.text(acks[1])
    table = post.judge.table("q")
    assert {r: [q["line"] for q in qs] for r, qs in table.queue.items()} == {
        first: ["PASS"], second: ["REFUSE"]}
    post.send(seats.addresses[winner], f"{seats.signon(winner, 'q')}\nGIVE {first}\n")
    table = post.judge.table("q")
    assert table.state["stage"] == "respond"  # the queued PASS did not answer it
    assert {r: [q["line"] for q in qs] for r, qs in table.queue.items()} == {
        first: ["PASS"], second: ["REFUSE"]}
    for role in ROLES:
        post.send(seats.addresses[role], f"{seats.signon(role, 'q')}\nPASS\n")
    assert post.judge.table("q").state["stage"] == "bid"
    # Round 2: `second` wins the bid; on its turn (KEEP or GIVE) its queued
    # REFUSE no longer fits and is dropped, which its next mail says.
    post.new()
    for role in ROLES:
        cards = hand(post, role, "q")
        card = cards[-1] if role == second else cards[0]
        post.send(seats.addresses[role], f"{seats.signon(role, 'q')}\nBID {card}\n")
    table = post.judge.table("q")
    assert table.state["winner"] == second
    assert second not in table.queue or not table.queue[second]
    mails = _to(post.new(), seats.addresses[second])
    assert any('queued line "REFUSE" was dropped' in post.text(m) for m in mails)
    assert "rebuild the stored game" in post.judge.replay_check("q")


def test_queue_lists_and_cancel_removes(post: Post) -> None:
    seats = _start(post)
    winner = _bid_to_award(post, seats)
    other = next(r for r in ROLES if r != winner)
    sign = seats.signon(other, "q")
    post.send(seats.addresses[other], f"{sign}\nKEEP\nGIVE {winner}\nPASS\nQUEUE\n")
    text = post.text(post.new()[-1]).replace("\r", "")
    assert f"  1. KEEP   (waits for your next turn)\n  2. GIVE {winner}" in text
    post.send(seats.addresses[other], f"{sign}\nCANCEL 2\nCANCEL 7\nQUEUE\n")
    text = post.text(post.new()[-1]).replace("\r", "")
    assert "1 queued line(s) removed; 2 left" in text
    assert "you have no queued line 7" in text and "you have 2; QUEUE lists them" in text
    assert [q["line"] for q in post.judge.table("q").queue[other]] == ["KEEP", "PASS"]
    post.send(seats.addresses[other], f"{sign}\nCANCEL ALL\n")
    assert post.judge.table("q").queue.get(other, []) == []
    assert "rebuild the stored game" in post.judge.replay_check("q")


def test_a_late_reply_to_a_closed_window_spends_nothing(post: Post, clock: Clock) -> None:
    """Regression: a PASS sent in reply to a window that a standing answer had
    already answered was queued and later spent the writer's whole turn. A
    reply to a request is bound to the decision it asked for: once that is
    over, the reply is refused on its line and nothing is queued."""
    seats = _start(post)
    winner = _bid_to_award(post, seats)
    receiver = next(r for r in ROLES if r != winner)
    post.new()
    post.send(seats.addresses[winner], f"{seats.signon(winner, 'q')}\nGIVE {receiver}\n")
    (request,) = [m for m in _to(post.new(), seats.addresses[receiver])
                  if "your decision" in m["Subject"]]
    post.send(seats.addresses[receiver], f"{seats.signon(receiver, 'q')}\nPOLICY gift PASS\n")
    for role in ROLES:
        if role != receiver:
            post.send(seats.addresses[role], f"{seats.signon(role, 'q')}\nPASS\n")
    clock.advance(minutes=30)
    post.judge.cycle()
    assert post.judge.table("q").state["stage"] == "bid"
    post.send(seats.addresses[receiver], f"{seats.signon(receiver, 'q')}\nPASS\n",
              subject=f"Re: {request['Subject']}",
              headers={"In-Reply-To": request["Message-ID"]})
    text = post.text(post.new()[-1])
    assert "which is over" in text and "nothing was done with it" in text
    assert post.judge.table("q").queue.get(receiver, []) == []


def test_a_new_answer_before_the_window_closes_replaces_the_held_one(post: Post) -> None:
    """An answer by hand replaces the standing answer held for an open window
    (and a second one replaces the first): nothing is queued."""
    seats = _start(post)
    winner = _bid_to_award(post, seats)
    receiver = next(r for r in ROLES if r != winner)
    post.send(seats.addresses[winner], f"{seats.signon(winner, 'q')}\nGIVE {receiver}\n")
    sign = seats.signon(receiver, "q")
    post.send(seats.addresses[receiver], f"{sign}\nPOLICY gift PASS\nPASS\n")
    table = post.judge.table("q")
    (record,) = table.windows.values()
    assert record["answers"][receiver]["by"] == "hand"
    assert table.queue.get(receiver, []) == []
