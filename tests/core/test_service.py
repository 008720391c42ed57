"""The judge end to end through the Maildir transport, over the test-only game
(hidden hands, a simultaneous bid, single actions and response windows)."""

from __future__ import annotations

import json

from judge.game import adjudicator as adj
from tests.core.conftest import Clock, Post
from tests.core.helpers import GM_ADDR, Seats, hand, owing, start_sealed, token_in

#: The store and the mail pipeline on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True


def _bid_all(post: Post, seats: Seats, skip: tuple[str, ...] = ()) -> None:
    for role in sorted(owing(post)):
        if role in skip:
            continue
        card = hand(post, role)[-1]
        post.send(seats.addresses[role], f"{seats.signon(role)}\nBID {card}\n")


def test_a_game_by_mail_reports_keep_hands_private(post: Post) -> None:
    seats = start_sealed(post)
    first = post.new()
    reports = [m for m in first if "report for" in m["Subject"]]
    assert {m["To"] for m in reports} == set(seats.addresses.values())
    for msg in reports:
        role = next(r for r, a in seats.addresses.items() if a == msg["To"])
        text = post.text(msg)
        assert "SHA-256" in text  # the seed commitment is in the first report
        mine = hand(post, role)
        others = {c for r in seats.addresses if r != role for c in hand(post, r)}
        att = next(msg.iter_attachments())
        view = json.loads(att.get_content())
        assert view["hand"] == mine
        assert view["role"] == role
        for card in others - set(mine):
            assert f" {card}" not in text.replace(",", " ") or card in view["discards"]
        assert "hand" not in {k for k, v in view.items() if k == "hands"}

    _bid_all(post, seats)
    # every seat bid: the phase resolved early, and a new decision is open
    table = post.judge.table("g1")
    assert table.state["round"] == 1 and table.state["stage"] != "bid"
    replay = post.judge.replay_check("g1")
    assert "rebuild the stored game" in replay


def test_one_bad_line_does_not_reject_the_rest(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    card = hand(post, "North")[0]
    post.send(seats.addresses["North"],
              f"{seats.signon('North')}\nBID 99Z\nWAIT\nBID {card}\nFROBNICATE\n")
    acks = [m for m in post.new() if m["To"] == seats.addresses["North"]]
    assert len(acks) == 1
    text = post.text(acks[0])
    assert 'line 2: "BID 99Z"' in text
    assert 'line 5: "FROBNICATE"' in text
    assert f"ok: BID {card}" in text
    assert seats.tokens["North"] not in text  # the token is never echoed
    table = post.judge.table("g1")
    assert [a.text for a in table.held("North")] == [f"BID {card}"]
    assert "North" in table.waiting


def test_wrong_token_changes_nothing_and_is_answered_once_an_hour(post: Post,
                                                                   clock: Clock) -> None:
    seats = start_sealed(post)
    post.new()
    before = post.judge.store.game("g1")
    n_actions = len(post.judge.store.actions("g1"))
    card = hand(post, "North")[0]
    for _ in range(3):
        clock.advance(minutes=11)  # apart enough not to be one mail delivered twice
        post.send(seats.addresses["North"], f"SIGNON g1 North wrongtoken\nBID {card}\n")
    after = post.judge.store.game("g1")
    assert before == after
    assert len(post.judge.store.actions("g1")) == n_actions
    notices = post.new()
    assert len(notices) == 1 and notices[0]["To"] == seats.addresses["North"]
    assert "wrongtoken" not in post.text(notices[0])
    clock.advance(hours=2)
    post.send(seats.addresses["North"], f"SIGNON g1 North wrongtoken\nBID {card}\n")
    assert len(post.new()) == 1
    statuses = [r["status"] for r in post.judge.store.inbox()[-4:]]
    assert statuses == ["auth-failure"] * 4


def test_spoofed_from_with_right_token_is_refused(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    card = hand(post, "East")[0]
    post.send("mallory@evil.example", f"{seats.signon('East')}\nBID {card}\n")
    assert post.judge.table("g1").held("East") == []
    sent = post.new()
    assert all(m["To"] != "mallory@evil.example" for m in sent)
    assert [m["To"] for m in sent] == [seats.addresses["East"]]


def test_duplicate_delivery_is_applied_once(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    card = hand(post, "South")[0]
    raw = post.raw(seats.addresses["South"], f"{seats.signon('South')}\nBID {card}\n",
                   message_id="<dup-1@players.example>")
    post.deliver(raw)
    post.deliver(raw)
    lines = post.judge.cycle()
    assert sum("processed" in line for line in lines) == 1
    assert sum("duplicate" in line for line in lines) == 1
    orders = [r for r in post.judge.store.actions("g1") if r["kind"] == "orders"]
    assert len(orders) == 1
    assert len([m for m in post.new() if m["To"] == seats.addresses["South"]]) == 1


def test_deadline_defaults_reminders_and_grace(post: Post, clock: Clock) -> None:
    seats = start_sealed(post)
    post.new()
    _bid_all(post, seats, skip=("West", "South"))
    assert owing(post) == {"South"}
    post.new()
    clock.advance(hours=36, minutes=1)  # reminder 12 h before the 48 h deadline
    post.judge.cycle()
    reminders = post.new()
    assert [m["To"] for m in reminders] == [seats.addresses["South"]]
    assert "reminder" in reminders[0]["Subject"]
    clock.advance(hours=12)  # the deadline: late notice, grace of 24 h
    post.judge.cycle()
    late = post.new()
    # The late seat is told, and so is the GM (who is late, and until when).
    assert [m["To"] for m in late] == [seats.addresses["South"], GM_ADDR]
    assert "late" in late[0]["Subject"]
    assert "nothing from: South (south@players.example)" in post.text(late[1])
    assert post.judge.table("g1").state["stage"] == "bid"
    clock.advance(hours=24)
    post.judge.cycle()
    table = post.judge.table("g1")
    assert table.state["stage"] != "bid"  # processed with South's default bid
    # Mail only when needed: the winner of the bid is asked for its award (R6),
    # with the bids in it; the others hear of it in the digest of the round.
    winner = table.state["winner"]
    (asked,) = [m for m in post.new() if m["To"] == seats.addresses[winner]]
    assert "your decision" in asked["Subject"] and "KEEP" in post.text(asked)


def test_wait_holds_back_early_processing(post: Post) -> None:
    seats = start_sealed(post)
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nWAIT\n")
    _bid_all(post, seats)
    assert post.judge.table("g1").state["stage"] == "bid"
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nNOWAIT\n")
    assert post.judge.table("g1").state["stage"] != "bid"


def test_gm_extend_is_capped_and_rollback_restores(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nEXTEND 48\nEXTEND 48\n")
    ack = post.text(post.new()[-1])
    assert "deadline moved" in ack
    assert "72 hours in all; 24 hours are left" in ack
    before = post.judge.table("g1")
    _bid_all(post, seats)
    assert post.judge.table("g1").state["stage"] != "bid"
    post.send(GM_ADDR, f"{seats.gm()}\nROLLBACK\n")
    restored = post.judge.table("g1")
    assert restored.state == before.state
    assert {r for r in restored.orders} == set(seats.addresses)  # the bids are held again
    post.judge.replay_check("g1")


def test_press_goes_only_to_the_named_seats(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    post.send(seats.addresses["North"],
              f"{seats.signon('North')}\nPRESS TO East\nShall we share?\nENDPRESS\n")
    sent = post.new()
    press = [m for m in sent if "press" in m["Subject"]]
    assert [m["To"] for m in press] == [seats.addresses["East"]]
    assert "Shall we share?" in post.text(press[0])


def test_join_token_and_start_by_lot(post: Post) -> None:
    post.send(GM_ADDR, "CREATE g2 sealed_bids players=2\n")
    gm = token_in(post, GM_ADDR)
    post.send("a@players.example", "JOIN g2\n")
    post.send("b@players.example", "JOIN g2\n")
    post.send(GM_ADDR, f"SIGNON g2 GM {gm}\nSTART\n")
    seats = post.judge.store.seats("g2")
    assert sorted(s.role or "" for s in seats) == ["East", "North"]
    lot = [r for r in post.judge.store.actions("g2") if r["kind"] == "seats"]
    assert len(lot) == 1 and json.loads(lot[0]["draws"])  # the lot is a logged draw
    assert adj.phase_key(post.judge.game_of("g2")[1], post.judge.table("g2")) != "forming"


def test_held_orders_of_one_seat_never_reach_another(post: Post, clock: Clock) -> None:
    """Privacy: what North has ordered (held until the deadline) changes
    nothing in what East is told; only the seat's own orders are echoed."""
    seats = start_sealed(post)
    post.new()

    def east_status() -> str:
        clock.advance(minutes=11)
        post.send(seats.addresses["East"], f"{seats.signon('East')}\nSTATUS\n")
        (ack,) = [m for m in post.new() if m["To"] == seats.addresses["East"]]
        return post.text(ack)

    before = east_status()
    card = hand(post, "North")[0]
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nBID {card}\nWAIT\n")
    notified = post.new()
    assert [m["To"] for m in notified] == [seats.addresses["North"]]
    after = east_status()
    assert before == after
    assert card not in after or card in hand(post, "East")
