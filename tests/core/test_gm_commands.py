"""The GM's commands and the players' smaller ones, by mail, over the test-only
game: what each changes, what each refuses, and that a refusal changes nothing."""

from __future__ import annotations

from judge.game import adjudicator as adj
from tests.core.conftest import Clock, Post
from tests.core.helpers import GM_ADDR, hand, start_sealed, stored_game, token_in

#: The store and the mail pipeline on SQLite and on PostgreSQL (tests/conftest.py).
BOTH_BACKENDS = True


def _ack(post: Post, to: str) -> str:
    mails = [m for m in post.new() if m["To"] == to and (m["Subject"] or "").startswith("Re:")]
    assert mails, f"no acknowledgement to {to}"
    return post.text(mails[-1])


def test_pause_stops_the_clock_and_resume_restarts_it(post: Post, clock: Clock) -> None:
    seats = start_sealed(post)
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nPAUSE\n")
    assert "paused" in _ack(post, GM_ADDR)
    assert post.judge.store.deadline("g1") is None
    clock.advance(hours=200)
    post.judge.cycle()
    assert post.judge.table("g1").state["stage"] == "bid"  # nothing processed while paused
    # Orders are taken while the game is paused, and held: nothing is processed
    # until the GM resumes it, even when every seat is in.
    for role in ("North", "East", "South"):
        card = hand(post, role)[0]
        post.send(seats.addresses[role], f"{seats.signon(role)}\nBID {card}\n")
        assert f"ok: BID {card}" in _ack(post, seats.addresses[role])
    assert post.judge.table("g1").state["stage"] == "bid"
    assert set(post.judge.table("g1").submitted) == {"North", "East", "South"}
    post.send(GM_ADDR, f"{seats.gm()}\nRESUME\nRESUME\n")
    text = _ack(post, GM_ADDR)
    assert "resumes; deadline" in text and "is not paused" in text
    deadline = post.judge.store.deadline("g1")
    assert deadline is not None and deadline["deadline"] > clock.now.isoformat()[:10]


def test_process_applies_defaults_now(post: Post) -> None:
    seats = start_sealed(post)
    post.send(GM_ADDR, f"{seats.gm()}\nPROCESS\n")
    assert "-> processed" in _ack(post, GM_ADDR)
    table = post.judge.table("g1")
    assert table.state["stage"] != "bid"
    kinds = [r["kind"] for r in post.judge.store.actions("g1")]
    assert kinds[-1] in ("resolve", "default", "act")


def test_only_the_gm_may_use_gm_commands(post: Post) -> None:
    seats = start_sealed(post)
    before = post.judge.store.game("g1")
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nPROCESS\nPAUSE\nEJECT East\n")
    text = _ack(post, seats.addresses["North"])
    assert text.count("only the game master may do this") == 3
    assert post.judge.store.game("g1") == before


def test_replace_gives_a_new_token_to_the_new_address(post: Post) -> None:
    seats = start_sealed(post)
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nREPLACE East anna@new.example\n")
    assert "now belongs to anna@new.example" in _ack(post, GM_ADDR)
    new_token = token_in(post, "anna@new.example")
    card = hand(post, "East")[0]
    # the old player's token and address no longer work
    post.send(seats.addresses["East"], f"{seats.signon('East')}\nBID {card}\n")
    assert post.judge.table("g1").held("East") == []
    post.send("anna@new.example", f"SIGNON g1 East {new_token}\nBID {card}\n")
    assert [a.text for a in post.judge.table("g1").held("East")] == [f"BID {card}"]


def test_eject_and_resign_put_the_seat_in_civil_disorder(post: Post) -> None:
    seats = start_sealed(post)
    post.send(GM_ADDR, f"{seats.gm()}\nEJECT East\n")
    post.send(seats.addresses["South"], f"{seats.signon('South')}\nRESIGN\n")
    game = post.judge.game_of("g1")[1]
    table = post.judge.table("g1")
    absent = post.judge.workspace().get("g1").absent()
    assert absent == {"East", "South"}
    assert adj.waiting_on(game, table, absent) == {"North"}
    # North's bid alone now completes the phase: absent seats are not waited for
    card = hand(post, "North")[0]
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nBID {card}\n")
    assert post.judge.table("g1").state["stage"] != "bid"


def test_set_deadline_set_and_timezone(post: Post, clock: Clock) -> None:
    seats = start_sealed(post)
    post.new()
    post.send(GM_ADDR, f"{seats.gm()}\nSET DEADLINE 2026-03-05 18:00 Europe/Paris\n"
                       "SET DEADLINE yesterday\nSET DEADLINE 2020-01-01 10:00\n"
                       "SET grace_hours 6\nSET colour blue\nSET press maybe\n")
    text = _ack(post, GM_ADDR)
    assert "deadline set to Thu 05 Mar 2026 17:00 UTC" in text  # in the GM's zone (UTC)
    assert "cannot read 'yesterday'" in text and "in the past" in text
    assert "grace_hours is now 6.0" in text
    assert "no setting 'colour'" in text
    assert "press is white or grey or named or none or yes or no, not 'maybe'" in text
    post.send(seats.addresses["North"],
              f"{seats.signon('North')}\nSET TIMEZONE Asia/Tokyo\nSET TIMEZONE Mars/Base\nSTATUS\n")
    text = _ack(post, seats.addresses["North"])
    assert "times are now shown in Asia/Tokyo" in text and "unknown time zone" in text
    assert "Deadline: Fri 06 Mar 2026 02:00 JST" in text


def test_draw_by_unanimous_vote(post: Post) -> None:
    seats = start_sealed(post)
    for role in ("North", "East"):
        post.send(seats.addresses[role], f"{seats.signon(role)}\nDRAW\n")
    assert post.judge.table("g1").outcome is None
    post.send(seats.addresses["South"], f"{seats.signon('South')}\nDRAW\nNODRAW\n")
    assert post.judge.table("g1").outcome is None  # withdrawn in the same mail
    post.send(seats.addresses["South"], f"{seats.signon('South')}\nDRAW\n")
    outcome = post.judge.table("g1").outcome
    assert outcome is not None and outcome["draw"] and len(outcome["winners"]) == 3
    assert stored_game(post.judge.store, "g1")["status"] == "finished"
    assert "rebuild the stored game" in post.judge.replay_check("g1")


def test_help_list_history(post: Post) -> None:
    seats = start_sealed(post)
    post.send(GM_ADDR, "CREATE g2 sealed_bids\n")
    post.send("stranger@x.example", "HELP\nLIST\n")
    text = _ack(post, "stranger@x.example")
    # LIST shows only the games open to join, not the running ones.
    assert "SIGNON <game> <role> <token>" in text
    assert "g2: Sealed Bids (sealed_bids), 0 of 4 seats taken, open" in text
    assert "g1:" not in text
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nHELP\n")
    assert "BID <card>" in _ack(post, seats.addresses["North"])  # the game's own verbs
    post.send(GM_ADDR, f"{seats.gm()}\nPROCESS\n")
    post.send(seats.addresses["North"], f"{seats.signon('North')}\nHISTORY 2\nHISTORY x\n")
    text = _ack(post, seats.addresses["North"])
    assert "History, latest last:" in text and "'x' is not a count" in text
