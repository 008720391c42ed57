"""Queued actions and standing response policies (core support for card games).

A variant of the test-only game that queues actions and names its response
window ("gift") shows: a line sent out of turn is queued and taken when its
turn comes; one that no longer fits is dropped with a notice; a PASS policy
answers the window at once; reports do not say how an answer was given; and
replay rebuilds all of it from the log.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from judge import registry, reports
from judge.engine import Decision, State
from tests.core.conftest import SUPPORT, Post
from tests.core.helpers import GM_ADDR, Seats, hand, owing, token_in
from tests.support.sealed_bids import SealedBids


class QueuedSealedBids(SealedBids):
    id = "sealed_queued"
    queues_actions = True
    windows = ("gift",)
    view_schema = "sealed-queued-view.schema.json"

    def pending(self, state: State) -> list[Decision]:
        return [dataclasses.replace(d, window="gift") if d.kind.value == "response" else d
                for d in super().pending(state)]


@pytest.fixture(autouse=True)
def _variant(tmp_path: Path) -> Iterator[None]:
    schema = json.loads((SUPPORT / "sealed-bids-view.schema.json").read_text())
    schema["properties"]["game"] = {"const": "sealed_queued"}
    (tmp_path / QueuedSealedBids.view_schema).write_text(json.dumps(schema))
    reports.add_schema_dir(tmp_path)
    registry.register(QueuedSealedBids())
    yield
    registry.unregister("sealed_queued")


def _start(post: Post) -> Seats:
    post.send(GM_ADDR, "CREATE q sealed_queued rounds=3\n")
    gm = token_in(post, GM_ADDR)
    tokens, addresses = {}, {}
    for role in ("North", "East", "South"):
        addr = f"{role.lower()}@players.example"
        post.send(addr, f"JOIN q {role}\n")
        tokens[role], addresses[role] = token_in(post, addr), addr
    post.send(GM_ADDR, f"SIGNON q GM {gm}\nSTART\n")
    return Seats(gm, tokens, addresses)


def _bid_to_award(post: Post, seats: Seats) -> str:
    for role in ("North", "East", "South"):
        card = hand(post, role, "q")[-1]
        post.send(seats.addresses[role], f"{seats.signon(role, 'q')}\nBID {card}\n")
    table = post.judge.table("q")
    assert table.state["stage"] == "award"
    return str(table.state["winner"])


def test_policy_pass_answers_the_window_and_reports_do_not_tell(post: Post) -> None:
    seats = _start(post)
    others = [r for r in ("North", "East", "South")]
    for role in others:
        post.send(seats.addresses[role], f"{seats.signon(role, 'q')}\nPOLICY gift PASS\n")
    winner = _bid_to_award(post, seats)
    receiver = next(r for r in others if r != winner)
    post.new()
    post.send(seats.addresses[winner], f"{seats.signon(winner, 'q')}\nGIVE {receiver}\n")
    # every seat had PASS as its policy: the window closed at once
    assert post.judge.table("q").state["stage"] != "respond"
    defaults = [r for r in post.judge.store.actions("q") if r["kind"] == "default"]
    assert len(defaults) == 3
    assert all(json.loads(r["payload"]).get("policy") == "gift" for r in defaults)
    for msg in post.new():
        text = post.text(msg).lower()
        assert "policy" not in text and "automatic" not in text
    assert "rebuild the stored game" in post.judge.replay_check("q")


def test_unknown_window_or_mode_is_refused(post: Post) -> None:
    seats = _start(post)
    post.send(seats.addresses["North"],
              f"{seats.signon('North', 'q')}\nPOLICY combat PASS\nPOLICY gift MAYBE\n")
    text = post.text(post.new()[-1])
    assert "no response window called 'combat'" in text and "windows: gift" in text
    assert "a policy is ASK or PASS" in text
    assert post.judge.table("q").policies == {}


def test_out_of_turn_lines_are_queued_then_taken_or_dropped(post: Post) -> None:
    post.judge.seed_source = lambda: bytes(range(32))  # a fixed deal
    seats = _start(post)
    winner = _bid_to_award(post, seats)
    bystanders = [r for r in ("North", "East", "South") if r != winner]
    queued_pass, queued_refuse = bystanders
    post.new()
    # not their turn (the winner must KEEP or GIVE): queued
    post.send(seats.addresses[queued_pass], f"{seats.signon(queued_pass, 'q')}\nPASS\n")
    post.send(seats.addresses[queued_refuse],
              f"{seats.signon(queued_refuse, 'q')}\nREFUSE\nFROB\n")
    acks = post.new()
    assert "queued" in post.text(acks[0])
    assert "queued" in post.text(acks[1]) and "not understood" in post.text(acks[1])
    table = post.judge.table("q")
    assert table.queue == {queued_pass: ["PASS"], queued_refuse: ["REFUSE"]}
    # The gift goes to queued_pass: its queued PASS answers the window at once.
    # queued_refuse is not the receiver, so its REFUSE does not answer this
    # window; it waits for queued_refuse's own turn.
    post.send(seats.addresses[winner], f"{seats.signon(winner, 'q')}\nGIVE {queued_pass}\n")
    table = post.judge.table("q")
    assert table.state["answers"].get(queued_pass) == "PASS"
    assert table.queue == {queued_refuse: ["REFUSE"]}
    assert owing(post, "q") == {winner, queued_refuse}
    for role in (winner, queued_refuse):
        post.send(seats.addresses[role], f"{seats.signon(role, 'q')}\nPASS\n")
    # Round 2: queued_refuse bids high and wins; on its turn (KEEP or GIVE) the
    # queued REFUSE no longer fits and is dropped with a notice.
    post.new()
    for role in ("North", "East", "South"):
        cards = hand(post, role, "q")
        card = cards[-1] if role == queued_refuse else cards[0]
        post.send(seats.addresses[role], f"{seats.signon(role, 'q')}\nBID {card}\n")
    table = post.judge.table("q")
    assert table.state["winner"] == queued_refuse
    assert table.queue == {}
    notices = [m for m in post.new() if "dropped" in m["Subject"]]
    assert [m["To"] for m in notices] == [seats.addresses[queued_refuse]]
    assert 'queued action "REFUSE" was dropped' in post.text(notices[0])
    assert "rebuild the stored game" in post.judge.replay_check("q")


def test_a_queued_action_waits_through_a_response_window(post: Post) -> None:
    """A line queued for the player's turn is not spent on a response window it
    does not answer: it waits for the turn (here, the next bid)."""
    seats = _start(post)
    winner = _bid_to_award(post, seats)
    other = next(r for r in ("North", "East", "South") if r != winner)
    card = hand(post, other, "q")[0]
    post.send(seats.addresses[other], f"{seats.signon(other, 'q')}\nBID {card}\n")
    assert post.judge.table("q").queue == {other: [f"BID {card}"]}
    post.send(seats.addresses[winner], f"{seats.signon(winner, 'q')}\nGIVE {other}\n")
    table = post.judge.table("q")
    assert table.state["stage"] == "respond"
    assert table.queue == {other: [f"BID {card}"]}  # the window did not take it
    for role in ("North", "East", "South"):
        post.send(seats.addresses[role], f"{seats.signon(role, 'q')}\nPASS\n")
    table = post.judge.table("q")
    assert table.state["stage"] == "bid"
    # the queue is tried only for single actions and windows; a bid round is an
    # order set, so the line is still queued, and the player's own bid is needed
    assert table.queue == {other: [f"BID {card}"]}
    assert "rebuild the stored game" in post.judge.replay_check("q")
